"""Regenerate tests/golden/idx_ops.json from PyTorch itself: values, node names, next functions,
version counters and first and second derivatives of index_add, index_copy, index_fill,
scatter_add and masked_scatter (out of place, in place, in place on a view), and the messages
of their bad calls.

Run with a Python that has torch (the test suite never imports it):

    /work/torchenv/bin/python tests/golden/gen_idx_ops.py

The programs (idx_ops_cases.py) and how each is recorded are functional_ops_cases.py's: `T`,
`leaf(data)` (a float64 tensor that requires grad), `V(*ints)` (an int64 tensor of the numbers
given: version counters) and `R(*shape)` (nested lists of numbers that round).
"""
import json
import os
import sys
import warnings

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "idx_ops.json")
sys.path.insert(0, HERE)
from idx_ops_cases import CASES, ERRORS, record, run_error, values  # noqa: E402


def namespace():
    torch.set_default_dtype(torch.float64)
    return {"T": torch, "R": values,
            "leaf": lambda data: torch.tensor(data, dtype=torch.float64, requires_grad=True),
            "V": lambda *ints: torch.tensor(list(ints), dtype=torch.int64)}


def main():
    torch.manual_seed(0)
    cases = {name: record(program, namespace()) for name, program in CASES}
    errors = {name: run_error(program, namespace()) for name, program in ERRORS}
    for name, got in errors.items():
        assert got is not None, f"{name}: PyTorch raised nothing"
    with open(OUT, "w") as f:
        json.dump({"torch": torch.__version__, "cases": cases, "errors": errors}, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {len(cases)} cases and {len(errors)} errors to {OUT}")


if __name__ == "__main__":
    warnings.simplefilter("always")
    main()
