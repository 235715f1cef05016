"""Regenerate tests/golden/elem_ops.json from PyTorch itself: values, node names and first and
second derivatives of the elementwise tests, pointwise ops, sorting and counting functions, scans
and shrinking activations added to close gaps against PyTorch (isnan ... signbit, addcmul,
logaddexp, copysign, fmod, float_power, nan_to_num, logit, argsort, nonzero, nansum, aminmax,
cummax, logcumsumexp, F.hardshrink, ...), and the messages of their bad calls.

Run with a Python that has torch (the test suite never imports it):

    /work/torchenv/bin/python tests/golden/gen_elem_ops.py

The programs (elem_ops_cases.py) are recorded as gen_functional_ops.py records its own, with its
namespace (T, F, nn, leaf) and functional_ops_cases.record / run_error: see that file.
"""
import json
import os
import sys
import warnings

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "elem_ops.json")
sys.path.insert(0, HERE)
from elem_ops_cases import CASES, ERRORS, record, run_error  # noqa: E402
from gen_functional_ops import namespace  # noqa: E402


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
