"""The steps of scaled_dot_product_attention (engine/nn/functional_attention.py) that PyTorch's
CPU math path records as nodes of their own: _safe_softmax (SafeSoftmaxBackward0) and the
_unsafe_view that ends each batched matmul (UnsafeViewBackward0). Internal rows (`names` empty):
PyTorch's are private functions too."""
from .. import kernels
from .table import Op, batch_dim


class SafeSoftmax(Op):
    """softmax along dim, with 0 (not NaN) along a row that is -inf everywhere -- a query that
    the mask lets see no key."""
    name = "safe_softmax"
    names = ()
    node = "SafeSoftmaxBackward0"
    saves = ("out",)

    def forward(xp, x, dim):
        masked = xp.all(x == -xp.inf, axis=dim, keepdims=True)
        if not masked.any():
            return kernels.softmax(xp, x, dim)
        return xp.where(masked, 0, kernels.softmax(xp, xp.where(masked, 0, x), dim)).astype(x.dtype, copy=False)

    def backward(F, ctx, g, out, dim):
        # softmax's (g - sum(g * y)) * y: a fully masked row has y = 0, so its gradient is 0 too
        return ((g - F.sum(g * out, dim=dim, keepdim=True)) * out,)

    def batched_backward(F, ctx, g, out, dim):
        d = batch_dim(dim, len(ctx.shapes[0]))
        return NotImplemented if d is None else SafeSoftmax.backward(F, ctx, g, out, d)


class UnsafeView(Op):
    """The result of a batched product, of shape (N, n, m), viewed as `shape` (its batch dims
    restored): PyTorch's _unsafe_view, a reshape whose result is not tracked as a view."""
    name = "unsafe_view"
    jvp = "linear"  # forward mode: the row applied to the tangents
    names = ()
    node = "UnsafeViewBackward0"

    def forward(xp, x, shape):
        return xp.reshape(x, shape).copy()

    def backward(F, ctx, g, shape):
        return (F.reshape(g, shape=ctx.shapes[0]),)
