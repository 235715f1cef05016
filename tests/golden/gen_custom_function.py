"""Regenerate tests/golden/custom_function.json from PyTorch itself: custom autograd functions
(torch.autograd.Function) -- outputs, node names and next functions, what forward and backward were
given (ctx.needs_input_grad, materialized or None gradients, ...), first and second derivatives --
and the messages of PyTorch's checks (the gradients a backward returns, saved tensors changed in
place or freed, mark_dirty, views returned by a forward, keyword arguments of apply); and what whole
programs of the language print (the tutorial's LegendrePolynomial3 among them), run by Python.

Run with a Python that has PyTorch 2.13 (`pip install torch==2.13.0`; not a dependency of the
test suite):

    python tests/golden/gen_custom_function.py

The cases are programs in tests/golden/custom_function_cases.py, recorded by its `record` and
`run_error` (shared with tests/engine/test_custom_function.py), with torch's default dtype float64 as
our engine's. Floats are kept as float.hex.
"""
import contextlib
import io
import json
import os
import sys
import warnings

import torch
from torch.autograd.function import once_differentiable

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "custom_function.json")
sys.path.insert(0, HERE)
from custom_function_cases import CASES, ERRORS, PROGRAMS, namespace, record, run_error  # noqa: E402


def printed(source):
    """What a program prints, run by Python with torch's default dtype float32 (`autodiff run`'s)."""
    torch.set_default_dtype(torch.float32)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(source, {"__name__": "__main__"})
    return out.getvalue()


def main():
    torch.set_default_dtype(torch.float64)
    cases = {name: record(program, namespace(torch, torch.autograd.Function, once_differentiable))
             for name, program in CASES}
    errors = {name: run_error(program, namespace(torch, torch.autograd.Function, once_differentiable))
              for name, program in ERRORS}
    for name, got in errors.items():
        assert got is not None, f"{name}: PyTorch raised nothing"
    programs = {name: printed(source) for name, source in PROGRAMS}
    with open(OUT, "w") as f:
        json.dump({"torch": torch.__version__, "cases": cases, "errors": errors, "programs": programs}, f,
                  indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {len(cases)} cases, {len(errors)} errors and {len(programs)} programs to {OUT}")


if __name__ == "__main__":
    warnings.simplefilter("always")
    main()
