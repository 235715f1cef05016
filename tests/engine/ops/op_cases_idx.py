"""Op cases of the indexed writes (engine/ops/indexing.py): index_add, index_reduce, index_copy,
index_fill, scatter_add and masked_scatter, out of place, in place on a non-leaf and in place on a view (the
base's node is then CopySlices); see tests/engine/ops/op_cases.py for what a case is. Node names are
PyTorch 2.13's for the same expression. index_copy has no case with a repeated index: PyTorch's
formula gives every source slice a gradient, also one that was overwritten, which finite
differences do not (tests/engine/ops/test_idx_ops.py checks it against PyTorch's numbers)."""
import numpy as np

import autodiff.engine as ad
from op_cases import C, distinct, gen_each, mask, normal, on_copy, with_zeros

_I = ad.tensor  # index tensors (int64)


# ------------------------------------------------------------ numpy references

def _moved(a, dim):
    return np.moveaxis(a.reshape(a.shape or (1,)), dim, 0)


def np_index_add(x, dim, index, src, alpha=1):
    out = x.copy()
    target = _moved(out, dim)
    values = _moved(src.reshape(src.shape or (1,)), dim)
    for i, k in enumerate(index):
        target[k] = target[k] + alpha * values[i]
    return out


def np_index_copy(x, dim, index, src):
    out = x.copy()
    _moved(out, dim)[index] = _moved(src.reshape(src.shape or (1,)), dim)
    return out


def np_index_fill(x, dim, index, value):
    out = x.copy()
    _moved(out, dim)[index] = value
    return out


def np_scatter_add(x, dim, index, src):
    out = x.copy()
    for pos in np.ndindex(index.shape):
        where = list(pos)
        where[dim] = index[pos]
        out[tuple(where)] += src[pos]
    return out


def np_scatter(x, dim, index, src):
    out = x.copy()
    for pos in np.ndindex(index.shape):
        where = list(pos)
        where[dim] = index[pos]
        out[tuple(where)] = src[pos]
    return out


def np_masked_scatter(x, m, source):
    shape = np.broadcast_shapes(x.shape, m.shape)
    out = np.broadcast_to(x, shape).copy()
    mb = np.broadcast_to(m, shape)
    out[mb] = source.reshape(-1)[:mb.sum()]
    return out


def _on_view(f):
    """y = x * 1 and f(y[:, 1:], *rest) in place: the base y (CopySlices) is the result."""
    def run(x, *rest):
        y = x * 1
        f(y[:, 1:], *rest)
        return y
    return run


def _np_on_view(f):
    def run(x, *rest):
        y = x.copy()
        y[:, 1:] = f(y[:, 1:], *rest)
        return y
    return run


_ROWS = np.array([2, 0, 2])
_COLS = np.array([1, -1])
_SCATTER = np.array([[0, 2, 2], [1, 0, 2]])  # dim 0 of a (3, 4) tensor: repeats, and fewer columns

# ================================================================== index_add

C("index_add", "rows_repeated", lambda x, s: x.index_add(0, _I(_ROWS), s), [(3, 4), (3, 4)],
  lambda x, s: np_index_add(x, 0, _ROWS, s), "IndexAddBackward0")
C("index_add", "cols_alpha", lambda x, s: ad.index_add(x, 1, _I([3, 0]), s, alpha=-0.37), [(2, 4), (2, 2)],
  lambda x, s: np_index_add(x, 1, [3, 0], s, -0.37), "IndexAddBackward0")
C("index_add", "vector_alpha_int32", lambda x, s: x.index_add(-1, _I([1, 1, 0], dtype=ad.int32), s, alpha=2),
  [(3,), (3,)], lambda x, s: np_index_add(x, 0, [1, 1, 0], s, 2), "IndexAddBackward0")
C("index_add", "scalar", lambda x, s: x.index_add(0, _I([0]), s, alpha=1.5), [(), ()],
  lambda x, s: np_index_add(x, 0, [0], s, 1.5), "IndexAddBackward0")
C("index_add", "middle_dim", lambda x, s: x.index_add(1, _I([2, 0]), s), [(2, 3, 2), (2, 2, 2)],
  lambda x, s: np_index_add(x, 1, [2, 0], s), "IndexAddBackward0")
C("index_add", "inplace", on_copy(lambda y, s: y.index_add_(0, _I(_ROWS), s, alpha=0.5)), [(3, 2), (3, 2)],
  lambda x, s: np_index_add(x, 0, _ROWS, s, 0.5), "IndexAddBackward0")
C("index_add", "inplace_on_view", _on_view(lambda v, s: v.index_add_(1, _I([0, 0]), s)), [(2, 3), (2, 2)],
  _np_on_view(lambda v, s: np_index_add(v, 1, [0, 0], s)), "torch::autograd::CopySlices")

# ================================================================= index_copy

C("index_copy", "rows", lambda x, s: x.index_copy(0, _I([2, 0]), s), [(3, 4), (2, 4)],
  lambda x, s: np_index_copy(x, 0, [2, 0], s), "IndexCopyBackward0")
C("index_copy", "last_dim", lambda x, s: ad.index_copy(x, -1, _I([1]), s), [(2, 3), (2, 1)],
  lambda x, s: np_index_copy(x, 1, [1], s), "IndexCopyBackward0")
C("index_copy", "scalar_source", lambda x, s: x.index_copy(0, _I(1), s), [(3,), ()],
  lambda x, s: np_index_copy(x, 0, [1], s), "IndexCopyBackward0")
C("index_copy", "scalar_self", lambda x, s: x.index_copy(0, _I([0]), s), [(), (1,)],
  lambda x, s: np_index_copy(x, 0, [0], s), "IndexCopyBackward0")
C("index_copy", "inplace_on_view", _on_view(lambda v, s: v.index_copy_(0, _I([1]), s)), [(2, 3), (1, 2)],
  _np_on_view(lambda v, s: np_index_copy(v, 0, [1], s)), "torch::autograd::CopySlices")

# ================================================================= index_fill

C("index_fill", "number_negative_index", lambda x: x.index_fill(1, _I(_COLS), -2.5), [(2, 3)],
  lambda x: np_index_fill(x, 1, _COLS, -2.5), "IndexFillBackward0")
C("index_fill", "tensor_value_repeated", lambda x, v: ad.index_fill(x, 0, _I([1, 1, 0]), v), [(3, 2), ()],
  lambda x, v: np_index_fill(x, 0, [1, 1, 0], v), "IndexFillBackward1")
C("index_fill", "tensor_value_cols", lambda x, v: x.index_fill(1, _I([2, 0]), v), [(2, 3, 2), ()],
  lambda x, v: np_index_fill(x, 1, [2, 0], v), "IndexFillBackward1")
C("index_fill", "scalar_self", lambda x, v: x.index_fill(0, _I([-1]), v), [(), ()],
  lambda x, v: np_index_fill(x, 0, [0], v), "IndexFillBackward1")
C("index_fill", "inplace_number", on_copy(lambda y: y.index_fill_(0, _I([1]), 4.0)), [(2, 3)],
  lambda x: np_index_fill(x, 0, [1], 4.0), "IndexFillBackward0")
C("index_fill", "inplace_on_view", _on_view(lambda v, w: v.index_fill_(1, _I([1]), w)), [(2, 3), ()],
  _np_on_view(lambda v, w: np_index_fill(v, 1, [1], w)), "torch::autograd::CopySlices")

# ================================================================ scatter_add

C("scatter_add", "repeated_part", lambda x, s: x.scatter_add(0, _I(_SCATTER), s), [(3, 4), (2, 3)],
  lambda x, s: np_scatter_add(x, 0, _SCATTER, s), "ScatterAddBackward0")
C("scatter_add", "dim1", lambda x, s: ad.scatter_add(x, 1, _I([[1, 1], [0, 3]]), s), [(2, 4), (2, 2)],
  lambda x, s: np_scatter_add(x, 1, np.array([[1, 1], [0, 3]]), s), "ScatterAddBackward0")
C("scatter_add", "larger_src", lambda x, s: x.scatter_add(1, _I([[2], [0]], dtype=ad.int32), s), [(2, 3), (3, 2)],
  lambda x, s: np_scatter_add(x, 1, np.array([[2], [0]]), s), "ScatterAddBackward0")
C("scatter_add", "scalar", lambda x, s: x.scatter_add(0, _I([0, 0]), s), [(), (2,)],
  lambda x, s: x + s.sum(), "ScatterAddBackward0")
C("scatter_add", "inplace_on_view", _on_view(lambda v, s: v.scatter_add_(0, _I([[1, 1]]), s)), [(2, 3), (1, 2)],
  _np_on_view(lambda v, s: np_scatter_add(v, 0, np.array([[1, 1]]), s)), "torch::autograd::CopySlices")

# ============================================================= masked_scatter

C("masked_scatter", "same_shape", lambda x, m, s: x.masked_scatter(m, s), [(2, 3), (2, 3), (2, 3)],
  np_masked_scatter, "MaskedScatterBackward0", gen=gen_each(normal, mask(), normal))
C("masked_scatter", "broadcast_self", lambda x, m, s: ad.masked_scatter(x, m, s), [(3,), (2, 3), (7,)],
  np_masked_scatter, "MaskedScatterBackward0", gen=gen_each(normal, mask(), normal))
C("masked_scatter", "broadcast_mask", lambda x, m, s: x.masked_scatter(m, s), [(2, 3), (3,), (2, 2, 2)],
  np_masked_scatter, "MaskedScatterBackward0", gen=gen_each(normal, mask(), normal))
C("masked_scatter", "inplace", on_copy(lambda y, m, s: y.masked_scatter_(m, s)), [(2, 3), (3,), (6,)],
  np_masked_scatter, "MaskedScatterBackward0", gen=gen_each(normal, mask(), normal))
C("masked_scatter", "inplace_on_view", _on_view(lambda v, m, s: v.masked_scatter_(m, s)), [(2, 3), (2, 2), (5,)],
  _np_on_view(np_masked_scatter), "torch::autograd::CopySlices", gen=gen_each(normal, mask(), normal))

# ============================================ scatter: an index smaller than x in another dim

C("scatter", "index_smaller_than_self", lambda x, s: x.scatter(0, _I([[2, 0], [1, 2]]), s), [(3, 4), (2, 3)],
  lambda x, s: np_scatter(x, 0, np.array([[2, 0], [1, 2]]), s), "ScatterBackward0")


# ------------------------------------------------------------ put (flat indices)

def np_put(x, index, src, accumulate=False):
    out = x.copy()
    if accumulate:
        np.add.at(out.reshape(-1), index.reshape(-1), src.reshape(-1))
    else:
        out.reshape(-1)[index.reshape(-1)] = src.reshape(-1)
    return out


_PUT = np.array([0, -1, 5])
_PUT_REPEATED = np.array([[1, 1], [7, 0]])

C("put", "distinct", lambda x, s: ad.put(x, _I(_PUT), s), [(3, 4), (3,)], lambda x, s: np_put(x, _PUT, s),
  "PutBackward0")
C("put", "accumulate_repeated", lambda x, s: x.put(_I(_PUT_REPEATED), s, accumulate=True), [(2, 4), (2, 2)],
  lambda x, s: np_put(x, _PUT_REPEATED, s, True), "PutBackward0")
C("put", "inplace", on_copy(lambda y, s: y.put_(_I(_PUT), s)), [(3, 4), (3,)], lambda x, s: np_put(x, _PUT, s),
  "PutBackward0")
C("put", "inplace_on_view", lambda x, s: _put_on_row(x, s), [(3, 4), (2,)],
  lambda x, s: np_put(x, np.array([4, 6]), s), "torch::autograd::CopySlices")


def _put_on_row(x, s):
    """put_ on a view (row 1) writes the base: its node is CopySlices."""
    y = x * 1
    y[1].put_(_I([0, 2]), s)
    return y


# ================================================================ index_reduce

def np_index_reduce(x, dim, index, src, reduce, include_self=True):
    """Each slice's values gathered in a list, then reduced: the definition, element by element."""
    out = x.copy()
    target, values = _moved(out, dim), _moved(src.reshape(src.shape or (1,)), dim)
    got = {}
    for i, k in enumerate(index):
        for pos in np.ndindex(values.shape[1:]):
            got.setdefault((k,) + pos, []).append(values[(i,) + pos])
    for where, vs in got.items():
        vs = ([target[where]] if include_self else []) + vs
        target[where] = {"prod": np.prod, "mean": np.mean, "amax": np.max, "amin": np.min}[reduce](vs)
    return out


def _all_distinct(rng, shapes):
    """Inputs with all their values distinct from each other (no ties for amax/amin)."""
    flat = distinct(rng, (sum(int(np.prod(s)) for s in shapes),))
    cut = np.cumsum([int(np.prod(s)) for s in shapes])[:-1]
    return [part.reshape(s) for part, s in zip(np.split(flat, cut), shapes)]


_IR = np.array([3, 0, 3])  # dim 1 of a (2, 4) tensor: a repeat, and columns nothing is reduced into

for _reduce in ("prod", "mean", "amax", "amin"):
    for _self in (True, False):
        C("index_reduce", f"{_reduce}_{'self' if _self else 'no_self'}",
          (lambda r, s: lambda x, src: x.index_reduce(1, _I(_IR), src, r, include_self=s))(_reduce, _self),
          [(2, 4), (2, 3)], (lambda r, s: lambda x, src: np_index_reduce(x, 1, _IR, src, r, s))(_reduce, _self),
          "IndexReduceBackward0", gen=_all_distinct if _reduce in ("amax", "amin") else None)

C("index_reduce", "prod_zeros", lambda x, s: ad.index_reduce(x, 0, _I([1, 1, 0], dtype=ad.int32), s, "prod"),
  [(2, 3), (3, 3)], lambda x, s: np_index_reduce(x, 0, [1, 1, 0], s, "prod"), "IndexReduceBackward0",
  gen=gen_each(with_zeros(0, 4), with_zeros(1, 4, 6)))
C("index_reduce", "scalar", lambda x, s: x.index_reduce(0, _I([0]), s, "mean"), [(), ()],
  lambda x, s: np_index_reduce(x, 0, [0], s, "mean"), "IndexReduceBackward0")
C("index_reduce", "middle_dim_amax", lambda x, s: x.index_reduce(-2, _I([1, 1]), s, "amax", include_self=False),
  [(2, 3, 2), (2, 2, 2)], lambda x, s: np_index_reduce(x, 1, [1, 1], s, "amax", False), "IndexReduceBackward0",
  gen=_all_distinct)
C("index_reduce", "inplace_amin", on_copy(lambda y, s: y.index_reduce_(0, _I([2, 0]), s, "amin")),
  [(3, 2), (2, 2)], lambda x, s: np_index_reduce(x, 0, [2, 0], s, "amin"), "IndexReduceBackward0",
  gen=_all_distinct)
C("index_reduce", "inplace_on_view", _on_view(lambda v, s: v.index_reduce_(1, _I([0, 0]), s, "prod")),
  [(2, 3), (2, 2)], _np_on_view(lambda v, s: np_index_reduce(v, 1, [0, 0], s, "prod")),
  "torch::autograd::CopySlices")
