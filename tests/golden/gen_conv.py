"""Regenerate tests/golden/conv.json from PyTorch itself: values, node names, next functions,
first and second derivatives of conv1d, conv2d, the poolings, batch_norm and their layers
(programs in conv_cases.py, recorded as gen_functional_ops.py records its own), what the layers
print as, and the messages of bad calls.

    /work/torchenv/bin/python tests/golden/gen_conv.py
"""
import json
import os
import sys
import warnings

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "conv.json")
sys.path.insert(0, HERE)
from gen_functional_ops import namespace  # noqa: E402
from conv_cases import CASES, ERRORS, REPRS  # noqa: E402
from functional_ops_cases import record, run_error  # noqa: E402


def main():
    torch.manual_seed(0)
    cases = {name: record(program, namespace()) for name, program in CASES}
    errors = {name: run_error(program, namespace()) for name, program in ERRORS}
    for name, got in errors.items():
        assert got is not None, f"{name}: PyTorch raised nothing"
    texts = {}
    for name, program in REPRS:
        ns = namespace()
        exec(program, ns)
        texts[name] = ns["text"]
    with open(OUT, "w") as f:
        json.dump({"torch": torch.__version__, "cases": cases, "errors": errors, "reprs": texts}, f, indent=1,
                  sort_keys=True)
        f.write("\n")
    print(f"wrote {len(cases)} cases, {len(errors)} errors and {len(texts)} reprs to {OUT}")


if __name__ == "__main__":
    warnings.simplefilter("always")
    main()
