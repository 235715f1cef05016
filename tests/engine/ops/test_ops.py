"""Every row of the op table, checked through the cases in tests/engine/ops/op_cases.py:

- the forward value against a numpy reference (float64, tight tolerance);
- the first derivative against finite differences (gradcheck);
- the second derivative against finite differences (gradgradcheck);
- the backward node's name against PyTorch's;
- that each case really runs the row it names;
- and that no row of the table is left without a case.
"""

import numpy as np
import pytest

import autodiff.engine as ad

from op_cases import CASES, INTERNAL_ROWS, make_arrays

FORWARD_RTOL = 1e-10
FORWARD_ATOL = 1e-12


def _params(cases, kind):
    """pytest params, one per case, with the case's known engine bug (if any) for this kind of check."""
    out = []
    for c in cases:
        marks = ()
        if kind in c.xfail:
            marks = (pytest.mark.xfail(strict=True, reason=c.xfail[kind]),)
        out.append(pytest.param(c, id=c.id, marks=marks))
    return out


DIFFERENTIABLE = [c for c in CASES if c.differentiable]
SECOND_ORDER = [c for c in DIFFERENTIABLE if c.gradgrad is True]


def make_inputs(case):
    """(tensors, arrays): float inputs require grad unless the case says otherwise."""
    arrays = make_arrays(case)
    tensors = []
    for i, a in enumerate(arrays):
        wants = a.dtype.kind == "f" and (case.requires is None or case.requires[i])
        tensors.append(ad.tensor(a, requires_grad=bool(wants)))
    return tensors, arrays


# ------------------------------------------------------------------- the table

def test_every_row_of_the_op_table_has_a_case():
    covered = {c.op for c in CASES}
    missing = sorted(set(ad.OPS) - covered)
    assert not missing, f"rows of the op table with no case in tests/engine/ops/op_cases.py: {missing}"


def test_cases_name_existing_rows_and_are_unique():
    unknown = sorted({c.op for c in CASES} - set(ad.OPS))
    assert not unknown, f"cases name rows that are not in the op table: {unknown}"
    ids = [c.id for c in CASES]
    assert len(ids) == len(set(ids)), "case ids must be unique"


def test_every_differentiable_row_has_a_second_order_case():
    rows = {name for name, op in ad.OPS.items() if op.differentiable}
    missing = sorted(rows - {c.op for c in SECOND_ORDER})
    assert not missing, f"differentiable rows whose second derivative no case checks: {missing}"


def test_cases_are_well_formed():
    for c in CASES:
        if c.differentiable:
            assert isinstance(c.node, str) and c.node, f"{c.id}: a differentiable case needs its node name"
        else:
            assert c.node is None, f"{c.id}: a non-differentiable case has no node"
            assert not c.xfail.keys() - {"forward", "runs"}, f"{c.id}: only the forward is checked"
        assert set(c.xfail) <= {"forward", "grad", "gradgrad", "node", "runs"}, c.id
        assert c.gradgrad is True or (isinstance(c.gradgrad, str) and c.gradgrad), c.id
        if c.op in INTERNAL_ROWS:
            assert c.internal, f"{c.id}: internal rows are applied directly"


# --------------------------------------------------------------------- forward

@pytest.mark.parametrize("case", _params(CASES, "forward"))
def test_forward_matches_numpy(case):
    inputs, arrays = make_inputs(case)
    out = case.fn(*inputs)
    expected = np.asarray(case.ref(*[a.copy() for a in arrays]))
    got = np.asarray(out.detach() if out.requires_grad else out)
    assert got.shape == expected.shape, f"shape {got.shape}, expected {expected.shape}"
    assert got.dtype == expected.dtype, f"dtype {got.dtype}, expected {expected.dtype}"
    if expected.dtype.kind == "f":
        np.testing.assert_allclose(got, expected, rtol=FORWARD_RTOL, atol=FORWARD_ATOL)
    else:
        np.testing.assert_array_equal(got, expected)
    if case.differentiable:
        assert out.requires_grad == any(t.requires_grad for t in inputs)
    else:
        assert not out.requires_grad and out.grad_fn is None, "a non-differentiable result requires grad"


# ----------------------------------------------------------------- derivatives

@pytest.mark.parametrize("case", _params(DIFFERENTIABLE, "grad"))
def test_gradcheck(case):
    inputs, _ = make_inputs(case)
    assert ad.gradcheck(case.fn, inputs, **case.check_kw)


@pytest.mark.parametrize("case", _params(SECOND_ORDER, "gradgrad"))
def test_gradgradcheck(case):
    inputs, _ = make_inputs(case)
    assert ad.gradgradcheck(case.fn, inputs, **case.check_kw)


# ------------------------------------------------------------------- node names

@pytest.mark.parametrize("case", _params(DIFFERENTIABLE, "node"))
def test_node_name(case):
    inputs, _ = make_inputs(case)
    out = case.fn(*inputs)
    assert out.grad_fn is not None, "the result has no grad_fn"
    assert out.grad_fn.name() == case.node


# --------------------------------------------------- each case runs its own row

def _graph_ops(roots):
    """The table rows of every node reachable from `roots` (grad_fns)."""
    seen, ops = set(), set()
    stack = [r for r in roots if r is not None]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if getattr(node, "op", None) is not None:
            ops.add(node.op)
        stack.extend(n for n, _ in node.next_functions if n is not None)
    return ops


@pytest.mark.parametrize("case", _params(CASES, "runs"))
def test_case_runs_its_row(case, monkeypatch):
    """The row's forward runs when the case runs, or the row appears in the
    case's graph or in the graph of its first derivative (create_graph=True)."""
    row = ad.OPS[case.op]
    real_forward = row.forward
    calls = []

    def recording_forward(*args, **params):
        calls.append(1)
        return real_forward(*args, **params)

    monkeypatch.setattr(row, "forward", recording_forward)
    inputs, _ = make_inputs(case)
    out = case.fn(*inputs)
    monkeypatch.undo()
    if calls:
        return
    seen = _graph_ops([out.grad_fn])
    diff = [t for t in inputs if t.requires_grad]
    if out.requires_grad and diff:
        w = ad.tensor(np.ones(out.shape), dtype=out.dtype, requires_grad=True)
        grads = ad.grad(out, diff, grad_outputs=w, create_graph=True, allow_unused=True)
        seen |= _graph_ops([g.grad_fn for g in grads if g is not None])
    assert row in seen, f"case {case.id} never runs the row {case.op!r}"
