"""Regenerate tests/golden/elem_ops.json from PyTorch itself: values, node names and first and
second derivatives of the elementwise tests, pointwise ops, sorting and counting functions, scans
and shrinking activations added to close gaps against PyTorch (isnan ... signbit, addcmul,
logaddexp, copysign, fmod, float_power, nan_to_num, logit, argsort, nonzero, nansum, aminmax,
cummax, logcumsumexp, F.hardshrink, ...), and the messages of their bad calls.

Run with a Python that has PyTorch 2.13 (`pip install torch==2.13.0`; not a dependency of the
test suite):

    python tests/golden/gen_elem_ops.py

The programs (elem_ops_cases.py) are recorded as gen_functional_ops.py records its own, with its
namespace (T, F, nn, leaf) and functional_ops_cases.record / run_error: see that file.
"""
import os
import sys
import warnings


HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "elem_ops.json")
sys.path.insert(0, HERE)
from program_cases import write_golden  # noqa: E402
from elem_ops_cases import CASES, ERRORS, record, run_error  # noqa: E402
from gen_functional_ops import namespace  # noqa: E402


def main():
    write_golden(OUT, CASES, ERRORS, namespace, record, run_error)


if __name__ == "__main__":
    warnings.simplefilter("always")
    main()
