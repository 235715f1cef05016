"""The rows behind torch.nn's everyday layers that are not activations: layer_norm
(NativeLayerNormBackward0) and embedding (EmbeddingBackward0); the functions are in
engine/nn/functional_layers.py."""
from .table import Op, call


def _last_dims(nd, normalized):
    return tuple(range(nd - normalized, nd))


class LayerNorm(Op):
    """(x - mean) / sqrt(var + eps) * weight + bias over the last `normalized` dims (the biased
    variance), as PyTorch's kernel computes it. weight and bias are tensors, or the numbers 1 and 0
    where the caller has none -- no edge then, as PyTorch's undefined ones. The gradient is written
    in table ops from x (mean, variance and all), so it has derivatives of every order."""
    name = "layer_norm"
    formula = call("eps")
    node = "NativeLayerNormBackward0"
    saves = (0, 1)
    save_for = ((0, 1), (0,))

    def forward(xp, x, weight, bias, normalized, eps):
        axes = _last_dims(x.ndim, normalized)
        mean = xp.mean(x, axis=axes, keepdims=True)
        xc = x - mean
        rstd = 1 / xp.sqrt(xp.mean(xc * xc, axis=axes, keepdims=True) + eps)
        return xc * rstd * weight + bias

    def backward(F, ctx, g, x, weight, normalized, eps):
        nd = len(ctx.shapes[0])
        axes, batch = _last_dims(nd, normalized), tuple(range(nd - normalized))
        xc = x - F.mean(x, dim=axes, keepdim=True)
        rstd = 1.0 / F.sqrt(F.mean(xc * xc, dim=axes, keepdim=True) + eps)
        xhat = xc * rstd
        gx = gw = gb = None
        if ctx.needs[0]:
            gxhat = g if ctx.shapes[1] is None else g * weight
            gx = rstd * (gxhat - F.mean(gxhat, dim=axes, keepdim=True)
                         - xhat * F.mean(gxhat * xhat, dim=axes, keepdim=True))
        if ctx.needs[1]:
            gw = F.sum(g * xhat, dim=batch) if batch else g * xhat
        if ctx.needs[2]:
            gb = F.sum(g, dim=batch) if batch else g
        return gx, gw, gb


class Embedding(Op):
    """The rows of weight at `indices` (an integer array of any shape): indices.shape + (dim,).
    The gradient adds each row's gradient into weight's row; none to the row `padding_idx`;
    with `scale_grad_by_freq`, each divided by how often its index occurs in the call."""
    name = "embedding"
    formula = call("padding_idx")
    node = "EmbeddingBackward0"
    saves_params = True  # the indices: freed with the graph

    def forward(xp, weight, indices, padding_idx=None, scale_grad_by_freq=False):
        return weight[indices]

    def backward(F, ctx, g, indices, padding_idx=None, scale_grad_by_freq=False):
        xp = F.xp
        shape = ctx.shapes[0]
        if scale_grad_by_freq:
            counts = xp.bincount(indices.reshape(-1), minlength=shape[0])
            g = g * (1.0 / counts[indices])[..., None].astype(ctx.dtypes[0])
        if padding_idx is not None:
            g = F.where((indices != padding_idx)[..., None], g, 0.0)
        return (F.index_grad(g, key=(indices,), shape=shape),)
