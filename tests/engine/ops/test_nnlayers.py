"""interpolate, conv_transpose1d/2d, max_pool1d, avg_pool1d, group_norm, instance_norm, rms_norm and
their layers against PyTorch 2.13's own output: tests/golden/nnlayers.json, recorded by
tests/golden/gen_nnlayers.py from the programs of tests/golden/nnlayers_cases.py.

As tests/engine/ops/test_conv.py: each case's outputs (running statistics included), node and next
functions' names, warnings, first and second derivatives, each bad call's exception type and
message, and what each layer prints as (seeded weights included). Values are compared within a
tolerance relative to the largest magnitude, not bit for bit. The scripting language reaches the
new names too (a one-line program)."""
import copy
import json

import numpy as np
import pytest

from nnlayers_cases import CASES, ERRORS, REPRS
from functional_ops_cases import record, run_error
from test_functional_ops import assert_as_pytorch, namespace, _floats
from test_conv import _close
import locations

GOLDEN = json.loads((locations.GOLDEN / "nnlayers.json").read_text())
# {name: {"grad" | "grad2": atol}}: values that are 0 in exact arithmetic, PyTorch's rounding noise
ATOL = {}
# {name: (node, next)}: cases whose nodes are knowingly ours, not PyTorch's (the values are checked;
# PyTorch's second derivative must be zeros where ours is None). None now: mode='area' to sizes
# that do not divide the input is PyTorch's AdaptiveAvgPool2DBackward0 here too
NODE_DIFFERS = {}


def _same(got, want, what, atol):
    """_close, with infinities (which it cannot subtract) required in the same places, same signs."""
    if want is not None and got is not None and "float" in want["dtype"]:
        g, w = _floats(got["values"]), _floats(want["values"])
        if np.isinf(w).any():
            assert (np.isinf(g) == np.isinf(w)).all() and (g[np.isinf(w)] == w[np.isinf(w)]).all(), what
            g, w = np.where(np.isinf(w), 0.0, g), np.where(np.isinf(w), 0.0, w)
            got = dict(got, values=g.tolist())
            want = dict(want, values=w.tolist())
    _close(got, want, what, atol)


@pytest.mark.parametrize("name, program", CASES, ids=[name for name, _ in CASES])
def test_as_pytorch(name, program):
    want = GOLDEN["cases"][name]
    if name in NODE_DIFFERS:
        want = copy.deepcopy(want)
        want["node"], want["next"] = NODE_DIFFERS[name]
    got = record(program, namespace())
    atol = ATOL.get(name, {})
    assert_as_pytorch(got, want, lambda kind, g, w, what: _same(g, w, what, atol.get(kind, 0.0)),
                      second_order=name not in NODE_DIFFERS)
    if name in NODE_DIFFERS:  # PyTorch's second derivative through its kernel is zeros; ours, linear, has none
        assert got.get("grad2") is None
        assert all(not _floats(g["values"]).any() for g in want["grad2"])


@pytest.mark.parametrize("name, program", ERRORS, ids=[name for name, _ in ERRORS])
def test_bad_calls_as_pytorch(name, program):
    assert run_error(program, namespace()) == GOLDEN["errors"][name]


@pytest.mark.parametrize("name, program", REPRS, ids=[name for name, _ in REPRS])
def test_prints_as_pytorch(name, program):
    ns = namespace()
    exec(program, ns)
    assert ns["text"] == GOLDEN["reprs"][name]


def test_the_golden_file_has_every_case():
    assert set(GOLDEN["cases"]) == {name for name, _ in CASES}
    assert set(GOLDEN["errors"]) == {name for name, _ in ERRORS}
    assert set(GOLDEN["reprs"]) == {name for name, _ in REPRS}
