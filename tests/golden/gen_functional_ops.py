"""Regenerate tests/golden/functional_ops.json from PyTorch itself: values, node names and first
and second derivatives of the functions added to close gaps against PyTorch (F.mish, F.hardswish,
F.hardsigmoid, F.threshold, F.prelu, F.glu, F.cosine_similarity, F.kl_div, torch.xlogy, ...),
and the messages of their bad calls.

Run with a Python that has PyTorch 2.13 (`pip install torch==2.13.0`; not a dependency of the
test suite):

    python tests/golden/gen_functional_ops.py

Each case is a small program written against names that mean the same thing for PyTorch and
for our engine: `T` (torch / autodiff.engine), `F` (torch.nn.functional), `nn`, and `leaf(data)`
(a float64 tensor that requires grad). It defines `inputs` (the tensors to differentiate by)
and `f()` (the call). `record` (shared with tests/engine/ops/test_functional_ops.py) runs it: the output's
dtype, values, node name and the names of its next functions; the warnings the call gives;
then g = d sum(out * W) / d inputs and d sum(g * V) / d inputs for fixed weights W and V (None
where a gradient does not require grad, as PyTorch has it). A tuple result (values, indices)
is recorded item by item, differentiated through its first item. Floats are kept as
float.hex, so the test can say how many units in the last place apart the two are.

Error cases record the exception's type and message.
"""
import os
import sys
import warnings

import torch
import torch.nn
import torch.nn.functional

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "functional_ops.json")
sys.path.insert(0, HERE)
from program_cases import write_golden  # noqa: E402
from functional_ops_cases import CASES, ERRORS, record, run_error  # noqa: E402


def namespace():
    torch.set_default_dtype(torch.float64)
    return {"T": torch, "F": torch.nn.functional, "nn": torch.nn,
            "leaf": lambda data: torch.tensor(data, dtype=torch.float64, requires_grad=True)}


def main():
    write_golden(OUT, CASES, ERRORS, namespace, record, run_error)


if __name__ == "__main__":
    warnings.simplefilter("always")
    main()
