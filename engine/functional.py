"""Whole derivative matrices from the engine: `jacobian` and `hessian`.

Both work on a graph already built (`jacobian(y, x)`) or, as
torch.autograd.functional, on a function and its inputs (`jacobian(f, x)`).
Rows come from one vector-Jacobian product each, with the graph retained.
"""
from .autograd import grad
from .grad_mode import enable_grad
from .tensor import Tensor, _make, _xp

__all__ = ["jacobian", "hessian"]


def _inputs_tuple(x):
    if isinstance(x, Tensor):
        return (x,), True
    return tuple(x), False


def _call(func, inputs):
    """Run `func` on fresh leaves that require grad (the functional form)."""
    leaves = tuple(_make(t.array, t.device).requires_grad_(True) for t in inputs)
    with enable_grad():
        out = func(*leaves)
    return out, leaves


def _zeros(shape, like):
    return _make(_xp(like.device).zeros(shape, dtype=like.array.dtype), like.device)


def _jacobian_rows(y, xs, create_graph):
    """J[i] for each x: shape y.shape + x.shape, one backward per element of y."""
    xp = _xp(y.device)
    n = y.array.size
    rows = [[] for _ in xs]
    if not y.requires_grad:
        return [_zeros(tuple(y.array.shape) + tuple(x.array.shape), x) for x in xs]
    for i in range(n):
        onehot = xp.zeros(n, dtype=y.array.dtype)
        onehot[i] = 1
        weights = _make(onehot.reshape(y.array.shape), y.device)
        grads = grad(y, xs, grad_outputs=weights, retain_graph=True, create_graph=create_graph,
                     allow_unused=True)
        for k, (x, g) in enumerate(zip(xs, grads)):
            rows[k].append(g if g is not None else _zeros(x.array.shape, x))
    from .functions import stack, reshape
    return [reshape(stack(r), tuple(y.array.shape) + tuple(x.array.shape)) for r, x in zip(rows, xs)]


def jacobian(y, x, create_graph=False):
    """d y / d x with shape y.shape + x.shape; a tuple when x is a tuple of tensors.

    `y` is an output already computed from `x`, or a function of the inputs `x`."""
    xs, single = _inputs_tuple(x)
    if callable(y) and not isinstance(y, Tensor):
        y, xs = _call(y, xs)
    outputs = (y,) if isinstance(y, Tensor) else tuple(y) if isinstance(y, (tuple, list)) else None
    if not outputs or not all(isinstance(o, Tensor) for o in outputs):
        raise TypeError("jacobian(y, x) needs the output tensor y (or a function) first")
    results = []
    for out in outputs:
        rows = _jacobian_rows(out, xs, create_graph)
        results.append(rows[0] if single else tuple(rows))
    return results[0] if isinstance(y, Tensor) else tuple(results)


def hessian(y, x, create_graph=False):
    """Second derivatives of a scalar `y`: H[i][j] has shape x_i.shape + x_j.shape
    (a single tensor when x is one tensor), as torch.autograd.functional.hessian."""
    xs, single = _inputs_tuple(x)
    if callable(y) and not isinstance(y, Tensor):
        y, xs = _call(y, xs)
    if not isinstance(y, Tensor):
        raise TypeError("hessian(y, x) needs the output tensor y (or a function) first")
    if y.array.size != 1:
        raise RuntimeError(f"hessian needs a scalar output, got shape {list(y.shape)}")
    first = grad(y, xs, create_graph=True, allow_unused=True, retain_graph=True)
    blocks = []
    for xi, gi in zip(xs, first):
        if gi is None:
            gi = _zeros(xi.array.shape, xi)
        blocks.append(_jacobian_rows(gi, xs, create_graph))
    if single:
        return blocks[0][0]
    return tuple(tuple(row) for row in blocks)
