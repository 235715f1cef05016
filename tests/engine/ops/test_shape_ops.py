"""The in-place view methods (t_, transpose_, swapdims_, swapaxes_, squeeze_, unsqueeze_) and the
rearranging functions (ravel, tile, diff, fliplr, flipud, rot90, unflatten, tensor_split,
repeat_interleave, take_along_dim, diag_embed) against PyTorch 2.13's own output:
tests/golden/shape_ops.json, recorded by tests/golden/gen_shape_ops.py from the programs of
tests/golden/shape_ops_cases.py.

For each case: every output's dtype, shape and values (the version counters and shapes the
in-place cases return among them), the node's name and the names of its next functions, and
the first and second derivatives, within tolerance of PyTorch's. For each bad call: the exception's type and
message.
"""
import json

import pytest

import autodiff.engine as ad

from shape_ops_cases import CASES, ERRORS, record, run_error
from test_functional_ops import assert_as_pytorch, within
import locations

GOLDEN = json.loads((locations.GOLDEN / "shape_ops.json").read_text())
EXACT = (0, 0.0)

# Known differences from PyTorch, not in what these functions add:
# - the engine raises InplaceModifiedError, a RuntimeError of its own, with PyTorch's message
ERROR_TYPE = {"t_of_saved_output": "InplaceModifiedError"}


def namespace():
    return {"T": ad, "F": ad.nn.functional, "nn": ad.nn,
            "leaf": lambda data: ad.tensor(data, dtype=ad.float64, requires_grad=True),
            "V": lambda *ints: ad.tensor(list(ints), dtype=ad.int64)}


@pytest.mark.parametrize("name, program", CASES, ids=[name for name, _ in CASES])
def test_as_pytorch(name, program):
    want = GOLDEN["cases"][name]
    got = record(program, namespace())
    assert_as_pytorch(got, want, within({}, name))


@pytest.mark.parametrize("name, program", ERRORS, ids=[name for name, _ in ERRORS])
def test_bad_calls_as_pytorch(name, program):
    kind, message = GOLDEN["errors"][name]
    assert run_error(program, namespace()) == [ERROR_TYPE.get(name, kind), message]


def test_the_golden_file_has_every_case():
    assert set(GOLDEN["cases"]) == {name for name, _ in CASES}
    assert set(GOLDEN["errors"]) == {name for name, _ in ERRORS}
