"""The elementwise tests, pointwise ops, sorting and counting functions, scans and shrinking
activations added to close gaps against PyTorch (isnan ... signbit, addcmul, logaddexp,
copysign, fmod, float_power, nan_to_num, logit, heaviside, positive, argsort, nonzero,
count_nonzero, nansum, nanmean, aminmax, cummax, cummin, logcumsumexp, F.hardshrink,
F.softshrink, F.softsign, F.tanhshrink and their modules) against PyTorch 2.13's own output:
tests/golden/elem_ops.json, recorded by tests/golden/gen_elem_ops.py from the programs of
tests/golden/elem_ops_cases.py, compared as tests/engine/ops/test_functional_ops.py compares its own
(values, node and next-function names, warnings, first and second derivatives; bad calls'
exception types and messages).
"""
import json

import pytest

from elem_ops_cases import CASES, ERRORS, record, run_error
from test_functional_ops import assert_as_pytorch, namespace, within
import locations

GOLDEN = json.loads((locations.GOLDEN / "elem_ops.json").read_text())

# {"out" | "grad" | "grad2": (rtol, atol)}: where a case's numbers may be further from PyTorch's
# than their dtype's tolerance (tests/support/tolerance.py), and why.
TOLERANCE = {
    # computed in float32 (x.float()): its derivatives come back to the float64 leaf with float32's precision
    "logcumsumexp_float32": {"grad": (1.3e-6, 1e-5), "grad2": (1.3e-6, 1e-5)},
}


@pytest.mark.parametrize("name, program", CASES, ids=[name for name, _ in CASES])
def test_as_pytorch(name, program):
    want = GOLDEN["cases"][name]
    got = record(program, namespace())
    assert ("grad2_error" in got) == ("grad2_error" in want)
    assert_as_pytorch(got, want, within(TOLERANCE, name))


@pytest.mark.parametrize("name, program", ERRORS, ids=[name for name, _ in ERRORS])
def test_bad_calls_as_pytorch(name, program):
    assert run_error(program, namespace()) == GOLDEN["errors"][name]


def test_the_golden_file_has_every_case():
    assert set(GOLDEN["cases"]) == {name for name, _ in CASES}
    assert set(GOLDEN["errors"]) == {name for name, _ in ERRORS}
