"""Regenerate tests/golden/nnlayers.json from PyTorch itself: values, node names, next functions,
first and second derivatives of interpolate, conv_transpose1d/2d, max_pool1d, avg_pool1d,
group_norm, instance_norm, rms_norm and their layers (programs in nnlayers_cases.py, recorded as
gen_functional_ops.py records its own), what the layers print as (seeded weights included), and
the messages of bad calls.

Run with a Python that has PyTorch 2.13 (`pip install torch==2.13.0`; not a dependency of the
test suite):

    python tests/golden/gen_nnlayers.py
"""
import os
import sys
import warnings


HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "nnlayers.json")
sys.path.insert(0, HERE)
from program_cases import write_golden  # noqa: E402
from gen_functional_ops import namespace  # noqa: E402
from nnlayers_cases import CASES, ERRORS, REPRS  # noqa: E402
from functional_ops_cases import record, run_error  # noqa: E402


def main():
    write_golden(OUT, CASES, ERRORS, namespace, record, run_error, REPRS)


if __name__ == "__main__":
    warnings.simplefilter("always")
    main()
