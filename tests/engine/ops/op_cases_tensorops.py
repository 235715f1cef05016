"""Op cases of the everyday tensor ops of issue 29 (engine/ops/tensorops.py and the composites of
engine/functions/tensorops.py): rsub, take, Tensor.unfold, renorm, block_diag, index_put,
scatter_reduce, and broadcast_tensors, meshgrid, atleast_*d, the stacks and cartesian_prod under
the rows PyTorch's composites end in (expand, reshape, unsqueeze, cat, stack). See
tests/engine/ops/op_cases.py for what a case is; node names are PyTorch 2.13's for the same
expression. The references are numpy, written out by hand where numpy has no such function.
amax/amin cases have distinct values (ties share the gradient, which finite differences do not
see: tests/engine/ops/test_tensorops.py checks ties against PyTorch's numbers); index_put without
accumulate has no repeated index for the same reason."""
import numpy as np

import autodiff.engine as ad
from op_cases import C, distinct, distinct_abs, gen_each, mask, normal, on_copy, with_zeros

_I = ad.tensor  # index tensors (int64)


# ------------------------------------------------------------------------------ numpy references

def np_unfold(x, dim, size, step):
    if x.ndim == 0:
        return x.reshape(1)
    w = np.lib.stride_tricks.sliding_window_view(x, size, axis=dim)
    return w[(slice(None),) * dim + (slice(None, None, step),)].copy()


def np_renorm(x, p, dim, maxnorm):
    out = np.moveaxis(x.copy(), dim, 0)
    for i in range(out.shape[0]):
        a = np.abs(out[i])
        n = a.max() if p == np.inf else (a ** p).sum() ** (1 / p)
        if n > maxnorm:
            out[i] = out[i] * (maxnorm / (n + 1e-7))
    return np.moveaxis(out, 0, dim)


def np_block_diag(*xs):
    mats = [np.atleast_2d(x) for x in xs]
    out = np.zeros((sum(m.shape[0] for m in mats), sum(m.shape[1] for m in mats)),
                   dtype=np.result_type(*xs))
    r = c = 0
    for m in mats:
        out[r:r + m.shape[0], c:c + m.shape[1]] = m
        r, c = r + m.shape[0], c + m.shape[1]
    return out


def np_index_put(x, key, v, accumulate=False):
    out = x.copy()
    if accumulate:
        np.add.at(out, key, np.broadcast_to(v, out[key].shape))
    else:
        out[key] = v
    return out


def np_scatter_reduce(x, dim, index, src, reduce, include_self=True):
    """Each target's values gathered in a list, then reduced: the definition, element by element."""
    out = x.copy()
    got = {}
    for pos in np.ndindex(index.shape):
        where = list(pos)
        where[dim] = index[pos]
        got.setdefault(tuple(where), []).append(src[pos])
    for where, values in got.items():
        values = ([x[where]] if include_self else []) + values
        out[where] = {"sum": np.sum, "prod": np.prod, "mean": np.mean, "amax": np.max, "amin": np.min}[reduce](values)
    return out


def _cartesian(*xs):
    return np.stack([g.reshape(-1) for g in np.meshgrid(*xs, indexing="ij")], axis=1)


def _pair_distinct(rng, shapes):
    """x and src with all their values distinct from each other."""
    n = sum(int(np.prod(s)) for s in shapes)
    flat = distinct(rng, (n,))
    a = int(np.prod(shapes[0]))
    return [flat[:a].reshape(shapes[0]), flat[a:].reshape(shapes[1])]


# ================================================================== rsub

C("rsub", "tensors", lambda a, b: ad.rsub(a, b), [(2, 3), (3,)], lambda a, b: b - a, "RsubBackward0")
C("rsub", "alpha", lambda a, b: ad.rsub(a, b, alpha=-2.5), [(3,), (2, 3)], lambda a, b: b + 2.5 * a,
  "RsubBackward0")
C("rsub", "zero_dim_other", lambda a, b: ad.rsub(a, b, alpha=2), [(2, 2), ()], lambda a, b: b - 2 * a,
  "RsubBackward0")
C("sub", "rsub_function_number", lambda a: ad.rsub(a, 1.5, alpha=3), [(2, 3)], lambda a: 1.5 - 3 * a, "RsubBackward1")

# ================================================================== take

C("take", "repeated_negative", lambda x: ad.take(x, _I([[0, 5], [-1, 5]])), [(2, 3)],
  lambda x: x.reshape(-1)[[[0, 5], [5, 5]]], "TakeBackward0")
C("take", "method_3d", lambda x: x.take(_I([7, 1, 0])), [(2, 2, 2)], lambda x: x.reshape(-1)[[7, 1, 0]],
  "TakeBackward0")
C("take", "scalar", lambda x: ad.take(x, _I([0, 0, -1])), [()], lambda x: x.reshape(-1)[[0, 0, 0]],
  "TakeBackward0")

# ================================================================== unfold

C("unfold_overlapping", "dim1", lambda x: x.unfold(1, 3, 1), [(2, 5)], lambda x: np_unfold(x, 1, 3, 1),
  "UnfoldBackward0")
C("unfold", "step_over_size", lambda x: x.unfold(0, 2, 3), [(7, 2)], lambda x: np_unfold(x, 0, 2, 3),
  "UnfoldBackward0")
C("unfold", "middle_dim_negative", lambda x: x.unfold(-2, 2, 2), [(2, 5, 3)], lambda x: np_unfold(x, 1, 2, 2),
  "UnfoldBackward0")
C("unfold", "scalar", lambda x: x.unfold(0, 1, 1), [()], lambda x: np_unfold(x, 0, 1, 1), "UnfoldBackward0")
C("unfold_overlapping", "of_unfold", lambda x: x.unfold(1, 2, 1).unfold(0, 2, 1) * 1.5, [(3, 4)],
  lambda x: np_unfold(np_unfold(x, 1, 2, 1), 0, 2, 1) * 1.5, "MulBackward0")

# ================================================================== renorm


def _renorm_rows(rng, shape):
    """Rows with norms well above and well below 1 (no row near maxnorm)."""
    a = distinct_abs(rng, shape)
    a[0] *= 3.0
    a[-1] *= 0.1
    return a


C("renorm", "p2_dim0", lambda x: ad.renorm(x, 2, 0, 1.0), [(3, 4)], lambda x: np_renorm(x, 2, 0, 1.0),
  "RenormBackward0", gen=gen_each(_renorm_rows))
C("renorm", "p1_dim1", lambda x: x.renorm(1, 1, 1.5), [(4, 3)], lambda x: np_renorm(x, 1, 1, 1.5),
  "RenormBackward0", gen=gen_each(lambda rng, s: np.moveaxis(_renorm_rows(rng, (s[1], s[0])), 0, 1)))
C("renorm", "p3_3d", lambda x: ad.renorm(x, 3, -1, 0.8), [(2, 2, 3)], lambda x: np_renorm(x, 3, 2, 0.8),
  "RenormBackward0", gen=gen_each(lambda rng, s: np.moveaxis(_renorm_rows(rng, (3, 2, 2)), 0, -1)))
C("renorm", "inf", lambda x: ad.renorm(x, float("inf"), 0, 1.0), [(3, 3)],
  lambda x: np_renorm(x, np.inf, 0, 1.0), "RenormBackward0", gen=gen_each(_renorm_rows))
C("renorm", "inplace", on_copy(lambda y: y.renorm_(2, 0, 0.5)), [(3, 2)], lambda x: np_renorm(x, 2, 0, 0.5),
  "RenormBackward0", gen=gen_each(_renorm_rows))

# ================================================================== block_diag

C("block_diag", "mixed_ranks", lambda a, b, c: ad.block_diag(a, b, c), [(), (2, 3), (2,)], np_block_diag,
  "BlockDiagBackward0")
C("block_diag", "one_matrix", lambda a: ad.block_diag(a), [(3, 2)], np_block_diag, "BlockDiagBackward0")
C("block_diag", "empty_block", lambda a, b: ad.block_diag(a, b), [(1, 0), (2, 2)], np_block_diag,
  "BlockDiagBackward0")

# ================================================================== index_put

_ROWS, _COLS = np.array([2, 0]), np.array([1, 3])

C("index_put_values", "rows", lambda x, v: x.index_put((_I(_ROWS),), v), [(3, 4), (4,)],
  lambda x, v: np_index_put(x, (_ROWS,), v), "IndexPutBackward0")
C("index_put_values", "pairs", lambda x, v: ad.index_put(x, (_I(_ROWS), _I(_COLS)), v), [(3, 4), (2,)],
  lambda x, v: np_index_put(x, (_ROWS, _COLS), v), "IndexPutBackward0")
C("index_put_values", "accumulate_repeated", lambda x, v: x.index_put([_I([1, 1, 0])], v, accumulate=True),
  [(2, 3), (3, 1)], lambda x, v: np_index_put(x, ([1, 1, 0],), v, True), "IndexPutBackward0")
C("index_put_values", "mask_scalar_value", lambda x, m, v: x.index_put((m,), v), [(2, 3), (2, 3), ()],
  lambda x, m, v: np_index_put(x, (m,), v), "IndexPutBackward0", gen=gen_each(normal, mask(), normal))
C("index_put_values", "inplace_accumulate", on_copy(lambda y, v: y.index_put_((_I([0, 0]),), v, accumulate=True)),
  [(2, 2), (2,)], lambda x, v: np_index_put(x, ([0, 0],), v, True), "IndexPutBackward0")
C("index_put_values", "inplace_function", on_copy(lambda y, v: ad.index_put_(y, (_I([1]), _I([0])), v)),
  [(2, 2), (1,)], lambda x, v: np_index_put(x, ([1], [0]), v), "IndexPutBackward0")

# ================================================================== scatter_reduce

_SC = np.array([[0, 2, 2], [1, 0, 2]])  # dim 0 of a (3, 4) tensor: repeats, fewer columns than x

for _reduce in ("sum", "prod", "mean", "amax", "amin"):
    for _self in (True, False):
        _gen = _pair_distinct if _reduce in ("amax", "amin") else None
        C("scatter_reduce", f"{_reduce}_{'self' if _self else 'no_self'}",
          (lambda r, s: lambda x, src: x.scatter_reduce(0, _I(_SC), src, r, include_self=s))(_reduce, _self),
          [(3, 4), (2, 3)],
          (lambda r, s: lambda x, src: np_scatter_reduce(x, 0, _SC, src, r, s))(_reduce, _self),
          "ScatterReduceBackward0", gen=_gen)

C("scatter_reduce", "prod_single_zero", lambda x, s: ad.scatter_reduce(x, 1, _I([[0, 0, 1], [1, 1, 1]]), s, "prod"),
  [(2, 3), (2, 3)], lambda x, s: np_scatter_reduce(x, 1, np.array([[0, 0, 1], [1, 1, 1]]), s, "prod"),
  "ScatterReduceBackward0", gen=gen_each(with_zeros(1), with_zeros(1)))
C("scatter_reduce", "larger_src_mean", lambda x, s: x.scatter_reduce(1, _I([[2], [0]]), s, "mean"),
  [(2, 3), (3, 2)], lambda x, s: np_scatter_reduce(x, 1, np.array([[2], [0]]), s, "mean"),
  "ScatterReduceBackward0")
C("scatter_reduce", "inplace_amin", on_copy(lambda y, s: y.scatter_reduce_(1, _I([[0, 0], [2, 2]]), s, "amin")),
  [(2, 3), (2, 2)], lambda x, s: np_scatter_reduce(x, 1, np.array([[0, 0], [2, 2]]), s, "amin"),
  "ScatterReduceBackward0", gen=_pair_distinct)

# ============================================ composites: the rows PyTorch's functions end in

C("expand", "broadcast_tensors", lambda a, b: ad.broadcast_tensors(a, b)[0], [(3,), (2, 1)],
  lambda a, b: np.broadcast_to(a, (2, 3)), "ExpandBackward0")
C("expand", "broadcast_tensors_second", lambda a, b: ad.broadcast_tensors([a, b])[1], [(3,), (2, 1)],
  lambda a, b: np.broadcast_to(b, (2, 3)), "ExpandBackward0")
C("expand", "meshgrid_ij", lambda a, b: ad.meshgrid(a, b, indexing="ij")[0], [(3,), (2,)],
  lambda a, b: np.meshgrid(a, b, indexing="ij")[0], "ExpandBackward0")
C("expand", "meshgrid_xy", lambda a, b, c: ad.meshgrid([a, b, c], indexing="xy")[2], [(3,), (2,), ()],
  lambda a, b, c: np.meshgrid(a, b, c, indexing="xy")[2], "ExpandBackward0")
C("expand", "meshgrid_xy_first", lambda a, b: ad.meshgrid(a, b, indexing="xy")[0], [(3,), (2,)],
  lambda a, b: np.meshgrid(a, b, indexing="xy")[0], "ExpandBackward0")
C("reshape", "atleast_1d", lambda a: ad.atleast_1d(a), [()], np.atleast_1d, "ViewBackward0")
C("reshape", "atleast_2d", lambda a, b: ad.atleast_2d(a, b)[0], [(), (3,)], lambda a, b: np.atleast_2d(a),
  "ViewBackward0")
C("unsqueeze", "atleast_2d", lambda a: ad.atleast_2d(a), [(3,)], np.atleast_2d, "UnsqueezeBackward0")
C("unsqueeze", "atleast_3d_vector", lambda a: ad.atleast_3d([a])[0], [(3,)], np.atleast_3d, "UnsqueezeBackward0")
C("unsqueeze", "atleast_3d_matrix", lambda a: ad.atleast_3d(a), [(2, 3)], np.atleast_3d, "UnsqueezeBackward0")
C("reshape", "atleast_3d_scalar", lambda a: ad.atleast_3d(a), [()], np.atleast_3d, "ViewBackward0")
C("cat", "hstack_vectors", lambda a, b: ad.hstack([a, b]), [(3,), ()], lambda a, b: np.hstack([a, b]),
  "CatBackward0")
C("cat", "hstack_matrices", lambda a, b: ad.hstack((a, b)), [(2, 3), (2, 1)], lambda a, b: np.hstack([a, b]),
  "CatBackward0")
C("cat", "vstack", lambda a, b: ad.vstack([a, b]), [(3,), (2, 3)], lambda a, b: np.vstack([a, b]),
  "CatBackward0")
C("cat", "row_stack", lambda a, b: ad.row_stack([a, b]), [(2,), (2,)], lambda a, b: np.vstack([a, b]),
  "CatBackward0")
C("cat", "dstack", lambda a, b, c: ad.dstack([a, b, c]), [(1, 3), (3,), (1, 3, 2)],
  lambda a, b, c: np.dstack([a, b, c]), "CatBackward0")
C("cat", "column_stack", lambda a, b, c: ad.column_stack([a, b, c]), [(3,), (3, 2), (3, 1)],
  lambda a, b, c: np.column_stack([a, b, c]), "CatBackward0")
C("cat", "column_stack_scalars", lambda a, b: ad.column_stack([a, b]), [(), ()],
  lambda a, b: np.column_stack([a, b]), "CatBackward0")
C("stack", "cartesian_prod", lambda a, b, c: ad.cartesian_prod(a, b, c), [(2,), (3,), (2,)], _cartesian,
  "StackBackward0")


def _unfold_written(x):
    y = x * 1
    y.unfold(1, 2, 2).mul_(-1.5)  # windows that do not overlap: a view written through
    return y


C("unfold", "written_through", _unfold_written, [(2, 4)], lambda x: -1.5 * x, "torch::autograd::CopySlices")
