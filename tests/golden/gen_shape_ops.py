"""Regenerate tests/golden/shape_ops.json from PyTorch itself: values, node names, next
functions, version counters and first and second derivatives of the in-place view methods
(t_, transpose_, swapdims_, swapaxes_, squeeze_, unsqueeze_) and the rearranging functions
(ravel, tile, diff, fliplr, flipud, rot90, unflatten, tensor_split, repeat_interleave,
take_along_dim, diag_embed), and the messages of their bad calls.

Run with a Python that has PyTorch 2.13 (`pip install torch==2.13.0`; not a dependency of the
test suite):

    python tests/golden/gen_shape_ops.py

The programs (shape_ops_cases.py) and how each is recorded are functional_ops_cases.py's: `T`,
`F`, `nn`, `leaf(data)` (a float64 tensor that requires grad), and here `V(*ints)`, an int64
tensor of the numbers given (version counters, shapes).
"""
import os
import sys
import warnings

import torch
import torch.nn
import torch.nn.functional

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "shape_ops.json")
sys.path.insert(0, HERE)
from program_cases import write_golden  # noqa: E402
from shape_ops_cases import CASES, ERRORS, record, run_error  # noqa: E402


def namespace():
    torch.set_default_dtype(torch.float64)
    return {"T": torch, "F": torch.nn.functional, "nn": torch.nn,
            "leaf": lambda data: torch.tensor(data, dtype=torch.float64, requires_grad=True),
            "V": lambda *ints: torch.tensor(list(ints), dtype=torch.int64)}


def main():
    write_golden(OUT, CASES, ERRORS, namespace, record, run_error)


if __name__ == "__main__":
    warnings.simplefilter("always")
    main()
