"""Regenerate tests/golden/decomp.json: PyTorch 2.13's values, gradients and second-order products
(d/dx sum(grad * v) for fixed v) of the decomposition losses of tests/golden/decomp_cases.py, with
their inputs.

Run with a Python that has PyTorch 2.13 and numpy (`pip install torch==2.13.0`; not a dependency of
the test suite), from the repository:

    python tests/golden/gen_decomp.py
"""
import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from decomp_cases import CASES, directions, make_inputs  # noqa: E402


def main():
    import torch
    out = {}
    for name, (loss, _) in CASES.items():
        arrays = make_inputs(name)
        xs = [torch.tensor(a, requires_grad=True) for a in arrays]
        y = loss(torch.linalg, torch, *xs)
        grads = torch.autograd.grad(y, xs, create_graph=True)
        v = directions([g.detach().numpy() for g in grads])
        total = sum((g * torch.tensor(d)).sum() for g, d in zip(grads, v))
        second = torch.autograd.grad(total, xs, allow_unused=True)
        out[name] = {"inputs": [a.tolist() for a in arrays], "value": y.item(),
                     "grads": [g.detach().tolist() for g in grads],
                     "second": [None if s is None else s.tolist() for s in second]}
    path = pathlib.Path(__file__).with_name("decomp.json")
    path.write_text(json.dumps({"torch": torch.__version__, "cases": out}) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
