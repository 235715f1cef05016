"""Regenerate tests/golden/forward_ad.json from PyTorch itself: forward-mode AD
(torch.autograd.forward_ad's dual tensors, custom Functions' jvp) and torch.autograd.functional's
jvp, hvp and forward-mode jacobian/hessian, over the programs of forward_ad_cases.py.

Run with a Python that has PyTorch 2.13 (not a dependency of the test suite):

    python tests/golden/gen_forward_ad.py

Encoding: tensor -> {"kind": "tensor", "shape": [...], "values": nested lists}; tuple ->
{"kind": "tuple", "items": [...]}; None -> {"kind": "none"}; a program ending in "!" ->
{"raises": type name, "message": str(exception)}.
"""
import json
import os

import torch
import torch.autograd.forward_ad
import torch.autograd.functional

from forward_ad_cases import PROGRAMS  # this folder: the script's own

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "forward_ad.json")


def encode(v):
    if isinstance(v, torch.Tensor):
        return {"kind": "tensor", "shape": list(v.shape), "values": v.detach().tolist()}
    if v is None:
        return {"kind": "none"}
    if isinstance(v, (tuple, list)):
        return {"kind": "tuple", "items": [encode(x) for x in v]}
    raise TypeError(f"cannot record {type(v).__name__}")


def run(text):
    result = {}
    scope = {"T": torch, "fwAD": torch.autograd.forward_ad, "AF": torch.autograd.functional, "result": result}
    exec(text, scope)
    return result


def main():
    torch.set_default_dtype(torch.float64)
    out = {}
    for name, text in PROGRAMS.items():
        if name.endswith("!"):
            try:
                run(text)
            except Exception as e:  # noqa: BLE001  (what PyTorch raises is the record)
                out[name] = {"raises": type(e).__name__, "message": str(e)}
            else:
                raise AssertionError(f"{name}: PyTorch raised nothing")
        else:
            out[name] = {k: encode(v) for k, v in run(text).items()}
    with open(OUT, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {OUT}: {len(out)} programs")


if __name__ == "__main__":
    main()
