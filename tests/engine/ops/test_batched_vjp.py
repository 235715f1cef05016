"""Batched vector-Jacobian products: grad(..., is_grads_batched=True), and the jacobian and
hessian built on it.

- For every case of the op table (tests/engine/ops/op_cases.py): one batched backward equals the stack of
  one backward per batch element -- through the case's graph, through the graph of its first
  derivative (create_graph=True: the nodes backward formulas make), and with create_graph=True
  itself (the batched result is differentiated again and compared with the per-element ones).
- jacobian and hessian against PyTorch's values (tests/golden/batched_vjp.json, recorded by
  tests/golden/gen_batched_vjp.py from torch.autograd.functional), vectorized and row by row.
- is_grads_batched's checks and messages as PyTorch's; the batch rules the Hessian benchmark
  needs run without the per-element fallback; large batches go in chunks.
"""
import json
import zlib

import numpy as np
import pytest

import autodiff.engine as ad
from autodiff.engine.core import autograd as engine_autograd
from autodiff.engine import functional as engine_functional

from op_cases import CASES, make_arrays
import locations

B = 3
RTOL = 1e-12
ATOL = 1e-12


def _inputs(case):
    arrays = make_arrays(case)
    tensors = []
    for i, a in enumerate(arrays):
        wants = a.dtype.kind == "f" and (case.requires is None or case.requires[i])
        tensors.append(ad.tensor(a, requires_grad=bool(wants)))
    return tensors


def _rng(case, salt):
    return np.random.default_rng(zlib.crc32(f"{case.id}/{salt}".encode()))


def _weights(rng, t):
    return ad.tensor(rng.standard_normal((B,) + tuple(t.shape)), dtype=t.dtype)


def _close(got, want, what):
    if got is None or want is None:
        assert got is None and want is None, f"{what}: one of the two is None"
        return
    got, want = np.asarray(got.detach()), np.asarray(want.detach())
    assert got.shape == want.shape, f"{what}: shape {got.shape}, expected {want.shape}"
    np.testing.assert_allclose(got, want, rtol=RTOL, atol=ATOL, err_msg=what)


def _per_element(outputs, inputs, weights, create_graph=False):
    """One ordinary backward per batch element, stacked: what a batched backward must equal."""
    per = []
    for b in range(B):
        per.append(ad.grad(outputs, inputs, [w[b] for w in weights], retain_graph=True,
                           create_graph=create_graph, allow_unused=True))
    out = []
    for k in range(len(inputs)):
        parts = [p[k] for p in per]
        out.append(None if parts[0] is None else ad.stack(parts))
    return out


def _check_batched(outputs, inputs, weights, what):
    got = ad.grad(outputs, inputs, weights, retain_graph=True, allow_unused=True, is_grads_batched=True)
    want = _per_element(outputs, inputs, weights)
    for k, (g, w) in enumerate(zip(got, want)):
        _close(g, w, f"{what}, input {k}")


DIFFERENTIABLE = [c for c in CASES if c.differentiable and "grad" not in c.xfail]  # no derivative: nothing to batch


def _graph(case):
    inputs = _inputs(case)
    diff = [t for t in inputs if t.requires_grad]
    out = case.fn(*inputs)
    if not diff or not out.requires_grad:
        pytest.skip("nothing to differentiate")
    return out, diff


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id) for c in DIFFERENTIABLE])
def test_batched_grad_equals_one_backward_per_element(case):
    out, diff = _graph(case)
    _check_batched([out], diff, [_weights(_rng(case, 0), out)], case.id)


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id) for c in DIFFERENTIABLE if c.gradgrad is True])
def test_batched_grad_through_the_graph_of_a_derivative(case):
    """The Hessian's pass: a batched backward over the nodes that create_graph=True made."""
    out, diff = _graph(case)
    rng = _rng(case, 1)
    w = ad.tensor(rng.standard_normal(tuple(out.shape)), dtype=out.dtype)
    first = [g for g in ad.grad(out, diff, w, create_graph=True, allow_unused=True)
             if g is not None and g.requires_grad]
    if not first:
        pytest.skip("the first derivative is constant")
    _check_batched(first, diff, [_weights(rng, g) for g in first], case.id)


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id) for c in DIFFERENTIABLE if c.gradgrad is True])
def test_batched_grad_with_create_graph_is_differentiable(case):
    """create_graph=True: the same values, and a result whose own derivatives are those of
    the per-element results."""
    out, diff = _graph(case)
    rng = _rng(case, 2)
    weights = [_weights(rng, out)]
    got = ad.grad([out], diff, weights, retain_graph=True, create_graph=True, allow_unused=True,
                  is_grads_batched=True)
    want = _per_element([out], diff, weights, create_graph=True)
    live = []
    for k, (g, w) in enumerate(zip(got, want)):
        _close(g, w, f"{case.id}, input {k}")
        if g is not None and g.requires_grad:
            assert w.requires_grad
            live.append((g, w))
    if not live:
        return
    probes = [ad.tensor(rng.standard_normal(tuple(g.shape))) for g, _ in live]
    total_got = sum((g * p).sum() for (g, _), p in zip(live, probes))
    total_want = sum((w * p).sum() for (_, w), p in zip(live, probes))
    second_got = ad.grad(total_got, diff, allow_unused=True, retain_graph=True)
    second_want = ad.grad(total_want, diff, allow_unused=True)
    for k, (g, w) in enumerate(zip(second_got, second_want)):
        if g is None or w is None:
            continue  # one graph may reach an input the other reaches only with zeros
        _close(g, w, f"{case.id}, second derivative, input {k}")


# ------------------------------------------------------------------ PyTorch's values

GOLDEN = json.loads((locations.GOLDEN / "batched_vjp.json").read_text())


class EngineNamespace:
    """`T` of tests/golden/gen_batched_vjp.py, for our engine."""

    grad = staticmethod(ad.grad)
    jacobian = staticmethod(ad.jacobian)
    hessian = staticmethod(ad.hessian)

    def __getattr__(self, name):
        return getattr(ad, name)


def _run(program, vectorize):
    env = {"T": EngineNamespace(), "V": vectorize}
    exec(program, env)
    return env["result"]


def _compare(got, want, where):
    kind = want["kind"]
    if kind == "tensor":
        assert isinstance(got, ad.Tensor), f"{where}: {type(got).__name__}, expected a tensor"
        assert list(got.shape) == want["shape"], f"{where}: shape {list(got.shape)}, expected {want['shape']}"
        np.testing.assert_allclose(np.asarray(got.detach()), np.array(want["values"], dtype=float),
                                   rtol=1e-10, atol=1e-12, err_msg=where)
    elif kind == "tuple":
        assert isinstance(got, tuple), f"{where}: {type(got).__name__}, expected a tuple"
        assert len(got) == len(want["items"]), f"{where}: {len(got)} items, expected {len(want['items'])}"
        for i, (g, w) in enumerate(zip(got, want["items"])):
            _compare(g, w, f"{where}[{i}]")
    elif kind == "none":
        assert got is None, f"{where}: {got!r}, expected None"
    else:
        assert got == want["value"], f"{where}: {got!r}, expected {want['value']!r}"


@pytest.mark.parametrize("vectorize", [None, True, False])
@pytest.mark.parametrize("case", GOLDEN["cases"], ids=[c["name"] for c in GOLDEN["cases"]])
def test_matches_pytorch(case, vectorize):
    result = _run(case["program"], vectorize)
    assert set(result) == set(case["result"])
    for key, want in case["result"].items():
        _compare(result[key], want, f"{case['name']} (vectorize={vectorize}): {key}")


@pytest.mark.parametrize("case", GOLDEN["errors"], ids=[e["name"] for e in GOLDEN["errors"]])
def test_errors_match_pytorch(case):
    with pytest.raises(Exception) as info:
        _run(case["program"] + "result = {}\n", None)
    assert type(info.value).__name__ == case["type"]
    assert str(info.value) == case["message"]


# ------------------------------------------------------------------ indexing keys

KEYS = {
    "basic": lambda x: x[1:, None, ..., ::2],
    "int_and_slice": lambda x: x[0, :, 1],
    "array_first": lambda x: x[ad.tensor([2, 0, 2])],
    "arrays_adjacent": lambda x: x[:, ad.tensor([1, 0]), ad.tensor([2, 2])],
    "arrays_apart": lambda x: x[ad.tensor([1, 0]), :, ad.tensor([2, 2])],        # numpy moves the batch dim
    "int_and_array_apart": lambda x: x[0, :, ad.tensor([3, 1, 1])],               # so: one element at a time
    "mask": lambda x: x[x > 0],
    "setitem_arrays": lambda x: _setitem(x, (ad.tensor([0, 2]),), x[1] * 2.0),
    "setitem_arrays_apart": lambda x: _setitem(x, (ad.tensor([0, 2]), slice(None), ad.tensor([1, 4])), x[1, :, 0]),
}


def _setitem(x, key, value):
    y = x * 1.0
    y[key] = value
    return y


@pytest.mark.parametrize("name", sorted(KEYS))
@pytest.mark.parametrize("create_graph", [False, True])
def test_indexing_keys(name, create_graph):
    rng = np.random.default_rng(7)
    x = ad.tensor(rng.standard_normal((3, 4, 5)), requires_grad=True)
    y = (KEYS[name](x) * 1.5).sin()
    weights = [_weights(rng, y)]
    got, = ad.grad(y, x, weights, retain_graph=True, create_graph=create_graph, is_grads_batched=True)
    want, = _per_element([y], [x], weights)
    _close(got, want, name)
    # the second derivative's graph, batched
    w = ad.tensor(rng.standard_normal(tuple(y.shape)))
    first, = ad.grad(y, x, w, create_graph=True)
    _check_batched([first], [x], [_weights(rng, first)], name + " (second order)")


def test_hessian_benchmark_rows_need_no_per_element_fallback(monkeypatch):
    """Every node of the Hessian of benchmarks/bench_engine.py's f is batched in one go."""
    def refuse(F, op, node, g, saved, params):
        raise AssertionError(f"{op.name} fell back to one backward per batch element")
    monkeypatch.setattr(engine_autograd, "_per_sample", refuse)
    x = ad.tensor(np.linspace(-2.0, 2.0, 12))
    H = ad.hessian(lambda t: (ad.sin(t) * t ** 2).sum() + (t[:-1] * t[1:]).sum(), x)
    xs = np.linspace(-2.0, 2.0, 12)
    want = np.diag((2 - xs ** 2) * np.sin(xs) + 4 * xs * np.cos(xs)) + np.eye(12, k=1) + np.eye(12, k=-1)
    np.testing.assert_allclose(np.asarray(H), want, rtol=1e-12, atol=1e-12)


def test_fallback_covers_rows_without_a_batch_rule(monkeypatch):
    """A row with neither `batched` nor a rule is run once per batch element: still right."""
    calls = []
    real = engine_autograd._per_sample

    def spy(F, op, node, g, saved, params):
        calls.append(op.name)
        return real(F, op, node, g, saved, params)
    monkeypatch.setattr(engine_autograd, "_per_sample", spy)
    x = ad.tensor([[0.5, -1.0], [2.0, 0.3]], requires_grad=True)
    y = ad.kron(x, x)
    weights = [ad.tensor(np.arange(B * 16.0).reshape(B, 4, 4))]
    _close(ad.grad(y, x, weights, retain_graph=True, is_grads_batched=True)[0],
           _per_element([y], [x], weights)[0], "kron")
    assert "kron" in calls


# ------------------------------------------------------------------ jacobian and hessian

def _functions():
    rng = np.random.default_rng(3)
    a = ad.tensor(rng.standard_normal((4, 5)))
    return {
        "bench": (lambda x: (ad.sin(x) * x ** 2).sum() + (x[:-1] * x[1:]).sum(), (5,)),
        "matvec": (lambda x: ad.tanh(a @ x).sum() * ad.exp(x).mean(), (5,)),
        "matrix": (lambda w: ad.logsumexp((w * w).sum(dim=1), dim=0) + w.t().reshape(-1)[::3].prod(), (3, 2)),
        "scalar": (lambda t: ad.sin(t) * ad.exp(t) / (1 + t * t), ()),
    }


@pytest.mark.parametrize("name", sorted(_functions()))
def test_vectorized_and_row_by_row_agree(name):
    f, shape = _functions()[name]
    x = ad.tensor(np.random.default_rng(5).standard_normal(shape))
    np.testing.assert_allclose(np.asarray(ad.hessian(f, x)), np.asarray(ad.hessian(f, x, vectorize=False)),
                               rtol=1e-12, atol=1e-12)
    g = lambda t: ad.exp(t) * f(t)  # noqa: E731  (a non-scalar output for jacobian)
    np.testing.assert_allclose(np.asarray(ad.jacobian(g, x)), np.asarray(ad.jacobian(g, x, vectorize=False)),
                               rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("create_graph", [False, True])
def test_large_batches_go_in_chunks(monkeypatch, create_graph):
    f = lambda x, y: (ad.sin(x)[:, None] * y ** 3).sum() + (x[:-1] * x[1:]).sum()  # noqa: E731
    x0 = ad.tensor(np.linspace(-1.0, 1.0, 7), requires_grad=True)
    y0 = ad.tensor(np.linspace(0.5, 2.0, 3), requires_grad=True)
    whole = ad.hessian(f, (x0, y0), create_graph=create_graph)
    passes = []
    real = engine_functional.grad

    def counting(*args, **kw):
        passes.append(kw.get("is_grads_batched"))
        return real(*args, **kw)
    monkeypatch.setattr(engine_functional, "grad", counting)
    monkeypatch.setattr(engine_functional, "BATCH_ELEMENTS", 3 * 21)  # 3 rows a pass: the largest node has 21
    monkeypatch.setattr(engine_functional, "CHUNK_ROWS", 1)
    chunked = ad.hessian(f, (x0, y0), create_graph=create_graph)
    assert passes.count(True) == 4  # 10 rows: 3 + 3 + 3 + 1
    for i in range(2):
        for j in range(2):
            _close(chunked[i][j], whole[i][j], f"H[{i}][{j}]")
            assert chunked[i][j].requires_grad == create_graph
    if create_graph:
        a, = ad.grad(sum(h.sum() for row in whole for h in row), x0, retain_graph=True)
        b, = ad.grad(sum(h.sum() for row in chunked for h in row), x0)
        _close(a, b, "third derivative")


def test_jacobian_of_a_graph_keeps_the_graph():
    x = ad.tensor([0.5, -1.0, 2.0], requires_grad=True)
    y = ad.exp(x) * x.sum()
    J = ad.jacobian(y, x)
    J2 = ad.jacobian(y, x)  # the graph is still there
    _close(J, J2, "J")
    y.sum().backward()
    np.testing.assert_allclose(np.asarray(x.grad), np.asarray(J.sum(dim=0)), rtol=1e-12)


def test_jacobian_dtype_is_the_input_dtype():
    x = ad.tensor([0.5, -1.0, 2.0], dtype=ad.float32)
    J = ad.jacobian(lambda t: t.sin() * 2, x)
    assert J.dtype == ad.float32
    np.testing.assert_allclose(np.asarray(J), np.diag(2 * np.cos(np.float32([0.5, -1.0, 2.0]))), rtol=1e-6)


def test_forward_mode_strategy_gives_the_same_matrix():
    x = ad.tensor([0.5, -1.0, 2.0])
    f = lambda t: ad.exp(t) * t.sum()  # noqa: E731
    _close(ad.jacobian(f, x, strategy="forward-mode", vectorize=True), ad.jacobian(f, x), "J")
    for vectorize in (False, None):  # (PyTorch's default is False: forward mode needs vectorize=True said)
        with pytest.raises(NotImplementedError, match="only implemented for `vectorize=True`"):
            ad.jacobian(f, x, strategy="forward-mode", vectorize=vectorize)


# ------------------------------------------------------------------ is_grads_batched

def test_hooks_see_one_batch_element_at_a_time():
    x = ad.tensor([1.0, 2.0, 3.0], requires_grad=True)
    h = x * 2.0
    seen = []
    h.register_hook(lambda g: seen.append(tuple(g.shape)) or g * 10.0)
    y = h.sin()
    got, = ad.grad(y, x, ad.tensor(np.eye(3)[:2]), is_grads_batched=True)
    assert seen == [(3,), (3,)]
    np.testing.assert_allclose(np.asarray(got), np.eye(3)[:2] * np.cos([2.0, 4.0, 6.0]) * 20.0, rtol=1e-12)


def test_batched_grad_frees_the_graph_unless_retained():
    x = ad.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp() * x
    ad.grad(y, x, ad.tensor(np.eye(2)), is_grads_batched=True)
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        ad.grad(y, x, ad.tensor(np.eye(2)), is_grads_batched=True)


def test_batched_grad_of_a_leaf_and_of_float32():
    x = ad.tensor([1.0, 2.0], dtype=ad.float32, requires_grad=True)
    g, = ad.grad(x, x, ad.tensor(np.arange(6.0).reshape(3, 2)), is_grads_batched=True)
    assert g.dtype == ad.float32 and tuple(g.shape) == (3, 2)
    np.testing.assert_array_equal(np.asarray(g), np.arange(6.0).reshape(3, 2))


def test_a_factor_of_one_that_wants_a_gradient_stays_in_the_graph():
    """A batch passes through a product with a constant 1 unchanged; a 1 that is a function of
    something wanting a gradient still contributes its derivative under create_graph."""
    w = ad.tensor(1.0, requires_grad=True)
    x = ad.tensor([0.5, 2.0], requires_grad=True)
    y = (x * w.expand(2)).sin()
    weights = [ad.tensor(np.eye(2) * 1.5 + 0.25)]
    got, = ad.grad(y, x, weights, is_grads_batched=True, create_graph=True, retain_graph=True)
    d_got, = ad.grad((got * got).sum(), w, retain_graph=True)
    per = [ad.grad(y, x, weights[0][b], create_graph=True, retain_graph=True)[0] for b in range(2)]
    d_want, = ad.grad(sum((p * p).sum() for p in per), w)
    _close(got, ad.stack(per), "values")
    _close(d_got, d_want, "d/dw")


def test_batched_grad_of_a_non_leaf_input_and_a_leaf_beyond_it():
    x = ad.tensor([0.5, -1.0, 2.0], requires_grad=True)
    h = x * x
    y = h.sin() * 3.0
    weights = [ad.tensor(np.arange(9.0).reshape(3, 3) - 4.0)]
    got = ad.grad(y, (h, x), weights, is_grads_batched=True, retain_graph=True)
    want = _per_element([y], [h, x], weights)
    for k in range(2):
        _close(got[k], want[k], f"input {k}")


def test_strict_hessian_takes_the_row_by_row_path_and_agrees():
    f = lambda t: (ad.sin(t) * t ** 2).sum() + (t[:-1] * t[1:]).sum()  # noqa: E731
    x = ad.tensor(np.linspace(-1.0, 1.5, 6))
    _close(ad.hessian(f, x, strict=True), ad.hessian(f, x), "H")
    with pytest.raises(RuntimeError, match="`strict=True` and `vectorized=True` are not supported together"):
        ad.hessian(f, x, strict=True, vectorize=True)
