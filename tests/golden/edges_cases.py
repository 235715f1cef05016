"""The edge cases of tests/golden/gen_edges.py and tests/engine/test_edges.py: each a function of
the library T (torch, or autodiff.engine) returning plain data -- values, shapes, gradients to
second order, node names -- so that PyTorch's run and ours compare item by item."""
import math
import warnings


def _round(v):
    if isinstance(v, float):
        return None if math.isnan(v) else v  # (NaN as null: JSON has none; compared as NaN)
    if isinstance(v, list):
        return [_round(x) for x in v]
    return v


def outcome(T, fn):
    """fn(T) as data: its value, or the exception's type (messages differ between libraries)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return {"value": _round(fn(T))}
        except Exception as e:  # noqa: BLE001 -- the kind of failure is the data here
            return {"error": type(e).__name__}


def _grads(T, fn, *data, second=False):
    xs = [T.tensor(d, dtype=T.float64, requires_grad=True) for d in data]
    out = fn(T, *xs)
    gs = T.autograd.grad(out.sum(), xs, allow_unused=True, create_graph=second)
    result = {"out": out.tolist(), "shape": list(out.shape), "grads": [None if g is None else g.tolist() for g in gs]}
    if second:
        g0 = gs[0]
        h = T.autograd.grad(g0.sum(), xs[0], allow_unused=True)[0] if g0 is not None and g0.requires_grad else None
        result["second"] = None if h is None else h.tolist()
    return result


def _clamp_cases():
    ties = [(0., 1., 3.), (2., 1., 3.), (4., 1., 3.), (1., 1., 3.), (3., 1., 3.), (0., 5., 3.), (4., 5., 3.),
            (6., 5., 3.), (5., 5., 3.), (3., 5., 3.), (2., 2., 2.), (1., 2., 2.), (3., 2., 2.)]
    cols = [[c[i] for c in ties] for i in range(3)]
    return {
        "clamp both tensor bounds": lambda T: _grads(T, lambda T, x, lo, hi: T.clamp(x, lo, hi), *cols),
        "clamp min tensor": lambda T: _grads(T, lambda T, x, lo, hi: T.clamp(x, min=lo) + 0 * hi, *cols),
        "clamp max tensor": lambda T: _grads(T, lambda T, x, lo, hi: T.clamp(x, max=hi) + 0 * lo, *cols),
        "clamp_min tensor": lambda T: _grads(T, lambda T, x, lo, hi: T.clamp_min(x, lo) + 0 * hi, *cols),
        "clamp_max tensor": lambda T: _grads(T, lambda T, x, lo, hi: T.clamp_max(x, hi) + 0 * lo, *cols),
    }


def _zero_d_cases():
    fs = {"sum": lambda T, x: T.sum(x, 0), "sum keepdim": lambda T, x: T.sum(x, -1, keepdim=True),
          "mean": lambda T, x: T.mean(x, 0), "amax": lambda T, x: T.amax(x, 0), "amin": lambda T, x: T.amin(x, (0,)),
          "logsumexp": lambda T, x: T.logsumexp(x, 0), "var": lambda T, x: T.var(x, 0, correction=0),
          "norm": lambda T, x: T.norm(x, dim=0), "nansum": lambda T, x: T.nansum(x, 0), "prod": lambda T, x: T.prod(x, 0),
          "softmax": lambda T, x: T.softmax(x, 0), "log_softmax": lambda T, x: T.log_softmax(x, 0),
          "cumsum": lambda T, x: T.cumsum(x, 0), "cumprod": lambda T, x: T.cumprod(x, 0),
          "max": lambda T, x: T.max(x, 0).values, "median": lambda T, x: T.median(x, 0).values,
          "sort": lambda T, x: T.sort(x, 0).values, "flip": lambda T, x: T.flip(x, (0,)),
          "index_select": lambda T, x: T.index_select(x, 0, T.tensor([0])), "gather": lambda T, x: T.gather(x, 0, T.tensor(0)),
          "topk": lambda T, x: T.topk(x, 1, 0).values, "kthvalue": lambda T, x: T.kthvalue(x, 1, 0).values,
          "cummax": lambda T, x: T.cummax(x, 0).values, "narrow": lambda T, x: T.narrow(x, 0, 0, 1),
          "roll": lambda T, x: T.roll(x, 1, 0)}
    return {f"0-d {name} along dim 0": (lambda f: lambda T: _grads(T, f, 2.5, second=True))(f) for name, f in fs.items()}


def _empty_cases():
    return {
        "prod over an empty dim": lambda T: _grads(T, lambda T, x: T.prod(x.reshape(2, 0), 1), []),
        "softmax over an empty dim": lambda T: _grads(T, lambda T, x: T.softmax(x.reshape(2, 0), 1), []),
        "log_softmax over an empty dim": lambda T: _grads(T, lambda T, x: T.log_softmax(x.reshape(2, 0), 1), []),
        "logsumexp over an empty dim": lambda T: _grads(T, lambda T, x: T.logsumexp(x.reshape(2, 0), 1), []),
        "flatten with a zero-size dim": lambda T: _grads(T, lambda T, x: T.flatten(x.reshape(0, 3, 2), 1), []),
        "gather with an empty uint8 index": lambda T: _grads(T, lambda T, x: T.gather(x, 0, T.tensor([], dtype=T.uint8)),
                                                             [1., 2.]),
        "batch_norm on an empty batch": lambda T: _grads(T, lambda T, x, w, b: T.nn.functional.batch_norm(
            x.reshape(0, 3, 2), None, None, weight=w, bias=b, training=True), [], [2., 3., 4.], [1., 0., -1.]),
        "batch_norm of an empty 1-d input": lambda T: _grads(T, lambda T, x, w: T.nn.functional.batch_norm(
            x, None, None, weight=w, training=True), [], [2., 3.]),
        "batch_norm on an empty batch, eval, node": lambda T: T.nn.functional.batch_norm(
            T.ones(0, 2, requires_grad=True), T.zeros(2), T.ones(2), weight=T.ones(2, requires_grad=True),
            bias=T.ones(2, requires_grad=True)).grad_fn.name(),
    }


def _norm_cases():
    cases = {}
    for p in (3.5, 2, 1.5, 0.5, -1, math.inf, -math.inf):
        for label, data in (("zeros", [0.] * 3), ("mixed", [0., 1.5, -2.])):
            cases[f"vector_norm p={p} {label}"] = (lambda p, data: lambda T: _grads(
                T, lambda T, x: T.linalg.vector_norm(x, p), data, second=True))(p, data)
    cases["norm p=0"] = lambda T: T.norm(T.tensor([0., 1.5, -2.]), 0).tolist()
    cases["norm p=-inf"] = lambda T: T.norm(T.tensor([0.5, 1.5, -2.]), float("-inf")).tolist()
    cases["norm p=-1 along dim"] = lambda T: T.norm(T.tensor([[0.5, 1.5], [-2., 4]]), -1, dim=1).tolist()
    for p in (math.inf, -math.inf):
        cases[f"vector_norm p={p} node"] = (lambda p: lambda T: [T.linalg.vector_norm(
            T.tensor([[1., -2.], [3., 0.5]], requires_grad=True), p, dim=d).grad_fn.name() for d in (None, 1)])(p)
    for p, shape, dim in ((math.inf, (0,), None), (-math.inf, (2, 0), 1), (-1, (2, 0), -1), (0.5, (2, 0), 1),
                          (math.inf, (2, 0), 0)):
        cases[f"vector_norm p={p} over {shape} dim={dim}"] = (lambda p, shape, dim: lambda T: T.linalg.vector_norm(
            T.ones(*shape), p, dim=dim).tolist())(p, shape, dim)
    cases["norm p=inf of an empty tensor"] = lambda T: T.norm(T.ones(0, 2), math.inf).tolist()
    return cases


def _argument_cases():
    x = [[-3.5, 2.25, 7.0], [1.5, -2.0, 0.0]]
    y = [[2.0, -1.5, 2.0], [0.5, 3.0, -4.0]]

    def t(T, d):
        return T.tensor(d, dtype=T.float64)
    cases = {f"div rounding_mode={m}": (lambda m: lambda T: _grads(T, lambda T, a, b: T.div(a, b, rounding_mode=m),
                                                                   x, y))(m) for m in ("trunc", "floor")}
    cases["div floor by a number"] = lambda T: t(T, x).div(2, rounding_mode="floor").tolist()
    cases["div trunc of integers"] = lambda T: T.div(T.tensor([-7, 7, -8, 1]), T.tensor([2, -2, 2, -3]),
                                                     rounding_mode="trunc").tolist()
    for mode in ("reflect", "replicate", "circular"):
        cases[f"pad {mode} 1-d"] = (lambda mode: lambda T: _grads(
            T, lambda T, a: T.nn.functional.pad(a.reshape(1, 2, 3), (2, 1), mode=mode) * T.arange(12.).reshape(1, 2, 6),
            x))(mode)
    cases["pad reflect 2-d"] = lambda T: _grads(
        T, lambda T, a: T.nn.functional.pad(a.reshape(1, 1, 2, 3), (1, 1, 1, 1), mode="reflect"), x)
    cases["pad replicate 2-d"] = lambda T: _grads(
        T, lambda T, a: T.nn.functional.pad(a.reshape(1, 1, 2, 3), (1, 2, 0, 1), mode="replicate"), x)
    cases["pad node names"] = lambda T: [T.nn.functional.pad(t(T, x).requires_grad_().reshape(shape), amounts, mode=mode)
                                         .grad_fn.name() for mode in ("reflect", "replicate")
                                         for shape, amounts in (((2, 3), (1, 1)), ((1, 2, 3), (2, 0)),
                                                                ((1, 1, 2, 3), (1, 2, 1, 0)),
                                                                ((1, 1, 1, 2, 3), (1, 1, 1, 1, 0, 0)))]
    cases["pad reflect squared, second order"] = lambda T: _grads(
        T, lambda T, a: T.nn.functional.pad(a.reshape(1, 1, 2, 3), (2, 1, 1, 0), mode="reflect") ** 2, x, second=True)
    cases["pad replicate squared, second order"] = lambda T: _grads(
        T, lambda T, a: T.nn.functional.pad(a.reshape(1, 2, 3), (2, 3), mode="replicate") ** 2, x, second=True)
    cases["softmax dtype"] = lambda T: T.softmax(t(T, x).float(), 1, dtype=T.float64).tolist()
    cases["adaptive_avg_pool2d 3x4 to 2x3"] = lambda T: _grads(
        T, lambda T, a: T.nn.functional.adaptive_avg_pool2d(a.reshape(1, 1, 3, 4), (2, 3)) * T.arange(6.).reshape(1, 1, 2, 3),
        [float(v) for v in range(12)])
    cases["adaptive_avg_pool2d 5x5 to 3"] = lambda T: _grads(
        T, lambda T, a: T.nn.functional.adaptive_avg_pool2d(a.reshape(1, 1, 5, 5), 3), [float(v) for v in range(25)])
    cases["Tensor.new of data"] = lambda T: t(T, x).new([1, 2]).tolist()
    cases["split_with_sizes"] = lambda T: [p.tolist() for p in t(T, x).split_with_sizes([1, 2], dim=1)]
    cases["diff n=0 with prepend"] = lambda T: _grads(T, lambda T, a, p: T.diff(a, n=0, prepend=p), [1., 2.], [3.])
    cases["take_along_dim negative"] = lambda T: _grads(
        T, lambda T, a: T.take_along_dim(a, T.tensor([-1, 0]), 0), [1., 2., 3.])
    cases["xlogy at x = 0"] = lambda T: _grads(
        T, lambda T, a, b: T.xlogy(a, b), [0., 0., 0., 0., 1., 1.], [2., 0.5, 0., -1., 3., 0.], second=True)
    cases["(-1.5) ** x"] = lambda T: _grads(T, lambda T, a: (-1.5) ** a, [2., 0.5])
    return cases


CASES = {**_clamp_cases(), **_zero_d_cases(), **_empty_cases(), **_norm_cases(), **_argument_cases()}
