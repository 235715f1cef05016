"""Regenerate tests/golden/idx_ops.json from PyTorch itself: values, node names, next functions,
version counters and first and second derivatives of index_add, index_copy, index_fill,
scatter_add and masked_scatter (out of place, in place, in place on a view), and the messages
of their bad calls.

Run with a Python that has PyTorch 2.13 (`pip install torch==2.13.0`; not a dependency of the
test suite):

    python tests/golden/gen_idx_ops.py

The programs (idx_ops_cases.py) and how each is recorded are functional_ops_cases.py's: `T`,
`leaf(data)` (a float64 tensor that requires grad), `V(*ints)` (an int64 tensor of the numbers
given: version counters) and `R(*shape)` (nested lists of numbers that round).
"""
import os
import sys
import warnings

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "idx_ops.json")
sys.path.insert(0, HERE)
from program_cases import write_golden  # noqa: E402
from idx_ops_cases import CASES, ERRORS, record, run_error, values  # noqa: E402


def namespace():
    torch.set_default_dtype(torch.float64)
    return {"T": torch, "R": values,
            "leaf": lambda data: torch.tensor(data, dtype=torch.float64, requires_grad=True),
            "V": lambda *ints: torch.tensor(list(ints), dtype=torch.int64)}


def main():
    write_golden(OUT, CASES, ERRORS, namespace, record, run_error)


if __name__ == "__main__":
    warnings.simplefilter("always")
    main()
