"""Forward mode for every row of the op table, through the cases of tests/engine/ops/op_cases*.py
(the inputs tests/engine/ops/test_ops.py uses for gradcheck):

- the adjoint test: <JVP(v), u> = <v, VJP(u)> for random u and v -- the forward rule against
  the row's own backward;
- the JVP against central finite differences along v;
- the result's tangent has its primal's shape and dtype.

Rows that are not differentiable are skipped there, with the reason; that their results carry no
tangent is checked instead. The second order (forward-over-reverse) is tests/engine/test_forward_ad.py's.
"""
import zlib

import numpy as np
import pytest

import autodiff.engine as ad
from autodiff.engine.autograd import forward_ad as fwAD

from op_cases import CASES, make_arrays

ALL = [pytest.param(c, id=c.id) for c in CASES]
NOT_DIFFERENTIABLE = [pytest.param(c, id=c.id) for c in CASES if not c.differentiable]
SKIP_REASON = "the row is not differentiable (no tangent flows: test_a_row_that_is_not_differentiable_passes_none)"


def _inputs(case):
    """(arrays, which of them are dual): float inputs are, unless the case says they take no gradient."""
    arrays = make_arrays(case)
    dual = [a.dtype.kind == "f" and (case.requires is None or bool(case.requires[i])) for i, a in enumerate(arrays)]
    return arrays, dual


def _tangents(case, arrays, dual):
    rng = np.random.default_rng(zlib.crc32(case.id.encode()) + 1)
    return [rng.standard_normal(a.shape).astype(a.dtype) if d else None for a, d in zip(arrays, dual)]


def _jvp(case, arrays, dual, tangents):
    with fwAD.dual_level():
        # (the inputs require grad, as test_ops.py's: cases that take a gradient inside run forward-over-reverse)
        xs = [fwAD.make_dual(ad.tensor(a, requires_grad=True), ad.tensor(v)) if d else ad.tensor(a)
              for a, d, v in zip(arrays, dual, tangents)]
        try:
            out = case.fn(*xs)
        except NotImplementedError as e:
            if "does not support it" not in str(e):
                raise
            pytest.skip(f"no forward derivative, as in PyTorch: {e}")
        primal, tangent = fwAD.unpack_dual(out)
        value = np.asarray(primal.detach())
        if tangent is None:
            return value, np.zeros_like(value), None
        assert tuple(tangent.shape) == tuple(out.shape), "the tangent's shape is not its primal's"
        assert tangent.dtype == out.dtype, "the tangent's dtype is not its primal's"
        return value, np.asarray(tangent.detach()), tangent


def _vjp(case, arrays, dual, u):
    xs = [ad.tensor(a, requires_grad=bool(d)) for a, d in zip(arrays, dual)]
    out = case.fn(*xs)
    wanted = [x for x, d in zip(xs, dual) if d]
    if not out.requires_grad:
        return [np.zeros_like(x.detach().numpy()) for x in wanted]
    grads = ad.autograd.grad(out, wanted, ad.tensor(u), allow_unused=True)
    return [np.zeros(x.shape, x.dtype.np if hasattr(x.dtype, "np") else None) if g is None else np.asarray(g)
            for x, g in zip(wanted, grads)]


def _tolerances(case):
    kw = case.check_kw
    return kw.get("eps", 1e-6), max(kw.get("atol", 1e-5), 1e-5), max(kw.get("rtol", 1e-3), 1e-3)


def _differentiable_inputs(case):
    """The case's inputs, which of them carry a tangent, and the tangents; a skip where none can."""
    if not case.differentiable:
        pytest.skip(SKIP_REASON)
    arrays, dual = _inputs(case)
    if not any(dual):
        pytest.skip("no input takes a gradient")
    return arrays, dual, _tangents(case, arrays, dual)


@pytest.mark.parametrize("case", ALL)
def test_jvp_is_the_adjoint_of_the_vjp(case):
    arrays, dual, tangents = _differentiable_inputs(case)
    value, jv, _ = _jvp(case, arrays, dual, tangents)
    u = np.random.default_rng(7).standard_normal(value.shape)
    vjps = _vjp(case, arrays, dual, u)
    left = float(np.sum(jv * u))
    right = float(sum(np.sum(v * g) for v, g in zip([t for t in tangents if t is not None], vjps)))
    scale = 1.0 + abs(left) + abs(right)
    single = any(a.dtype == np.float32 for a in arrays) or value.dtype == np.float32
    assert abs(left - right) <= (1e-5 if single else 1e-8) * scale, f"<Jv, u> = {left}, <v, J^T u> = {right}"


@pytest.mark.parametrize("case", ALL)
def test_jvp_matches_finite_differences(case):
    arrays, dual, tangents = _differentiable_inputs(case)
    _, jv, _ = _jvp(case, arrays, dual, tangents)
    eps, atol, rtol = _tolerances(case)

    def at(sign):
        shifted = [a + sign * eps * v if d else a for a, d, v in zip(arrays, dual, tangents)]
        out = case.fn(*[ad.tensor(a, requires_grad=bool(d)) for a, d in zip(shifted, dual)])
        return np.asarray(out.detach(), dtype=np.float64)

    numeric = (at(1) - at(-1)) / (2 * eps)
    finite = np.isfinite(numeric)  # (NaN where a step leaves the domain: pow's zero base)
    assert finite.any()
    np.testing.assert_allclose(jv[finite], numeric[finite], atol=atol, rtol=rtol)


@pytest.mark.parametrize("case", NOT_DIFFERENTIABLE)
def test_a_row_that_is_not_differentiable_passes_none(case):
    arrays = make_arrays(case)
    with fwAD.dual_level():
        xs = [fwAD.make_dual(ad.tensor(a), ad.tensor(np.ones_like(a))) if a.dtype.kind == "f" else ad.tensor(a)
              for a in arrays]
        out = case.fn(*xs)
        assert fwAD.unpack_dual(out).tangent is None
