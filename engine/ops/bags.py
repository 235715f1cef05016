"""embedding_bag's row: the rows of an embedding table gathered at indices and reduced over bags
(sum, mean or max), optionally weighted per sample -- PyTorch's EmbeddingBagBackward0, a kernel.
The public function is engine/nn/functional_attention.py's embedding_bag (the checks in PyTorch's
words), so `names` is empty.

The function hands the row the entries that count (padding_idx's left out), each with its bag and
its coefficient (1, or 1 / the bag's size for 'mean'); the per-sample weights are an input, so they
get a gradient. The backward is written in the table's ops, so a second derivative exists where
PyTorch's raises ("the derivative for '_embedding_bag_backward' is not implemented")."""
from .table import Op, scatter_add
from .activation_gradients import raw as _raw


def bag_argmax(xp, rows, bags, nbags):
    """For 'max': the entry holding each bag's largest value, per column (the first on a tie), for
    the bags that have any entry, and the mask of those bags. rows is (E, D), bags (E,)
    nondecreasing. The bags are laid out padded with -inf, (nbags, longest, D), and reduced along
    their length (plain indexing, so the same on CuPy)."""
    n = rows.shape[0]
    first = xp.searchsorted(bags, xp.arange(nbags))  # each bag's first entry
    sizes = xp.bincount(bags, minlength=nbags) if n else xp.zeros(nbags, dtype=xp.int64)
    filled = sizes > 0
    if not n:
        return xp.zeros((0, rows.shape[1]), dtype=xp.int64), filled
    at = xp.arange(n) - first[bags]  # each entry's place in its bag
    padded = xp.full((nbags, int(sizes.max()), rows.shape[1]), -xp.inf, dtype=rows.dtype)
    padded[bags, at] = rows
    place = xp.argmax(padded[filled], axis=1)  # the first largest
    return first[filled][:, None] + place, filled


class EmbeddingBag(Op):
    """Each bag's rows of weight at `indices` (the entries `bags` assigns it), summed times `coef`
    and per_sample_weights[`positions`] (for 'sum' and 'mean'), or their largest value per column
    ('max'); a bag with no entry is zeros. (nbags, dim)."""
    name = "embedding_bag"
    names = ()
    node = "EmbeddingBagBackward0"
    saves = (0, 1)
    saves_params = True

    def forward(xp, weight, per_sample_weights, indices=None, bags=None, positions=None, coef=None, nbags=0,
                mode="mean"):
        rows = weight[indices]
        out = xp.zeros((nbags, weight.shape[1]), dtype=weight.dtype)
        if mode == "max":
            entry, filled = bag_argmax(xp, rows, bags, nbags)
            if rows.shape[0]:
                out[filled] = xp.take_along_axis(rows, entry, axis=0)
            return out
        scale = coef if per_sample_weights is None else coef * per_sample_weights[positions]
        scatter_add(xp, out, (bags,), rows * scale[:, None].astype(weight.dtype))
        return out

    def backward(F, ctx, g, weight, per_sample_weights, indices=None, bags=None, positions=None, coef=None,
                 nbags=0, mode="mean"):
        xp = F.xp
        shape = ctx.shapes[0]
        if mode == "max":
            w = _raw(weight)
            entry, filled = bag_argmax(xp, w[indices], bags, nbags)
            columns = xp.broadcast_to(xp.arange(shape[1]), entry.shape)
            gw = F.index_grad(F.getitem(g, key=(xp.nonzero(filled)[0],)), key=(indices[entry], columns), shape=shape)
            return gw, None
        per_entry = F.getitem(g, key=(bags,))  # (E, dim): each entry's bag's gradient
        gw = gp = None
        if ctx.needs[0]:
            scale = coef.astype(ctx.dtypes[0])[:, None]
            if per_sample_weights is not None:
                scale = F.unsqueeze(F.getitem(per_sample_weights, key=(positions,)), dim=1) * scale
            gw = F.index_grad(per_entry * scale, key=(indices,), shape=shape)
        if per_sample_weights is not None and ctx.needs[1]:
            dots = F.sum(per_entry * F.getitem(weight, key=(indices,)), dim=1) * coef.astype(ctx.dtypes[1])
            gp = F.index_grad(dots, key=(positions,), shape=ctx.shapes[1])
        return gw, gp
