"""Op cases of the strided rows (see tests/engine/ops/op_cases.py for what a case is): as_strided's
two view rows (without and with repeated positions), reached through as_strided, Tensor.as_strided,
as_strided_ and as_strided_copy; the gradient pair strided_gather / strided_scatter (internal:
applied directly); as_strided_scatter; angle; conj_physical_'s record.

The references pick elements by positions worked out with np.indices (offset + sum(i_k * stride_k)
over every index tuple), not by the engine's position arithmetic or numpy's stride tricks; the
scatter reference writes src's elements one position at a time in a Python loop over src's
(few) elements. Node names are PyTorch 2.13's; the inputs are fresh leaves, so their memory is
their own and every position is one of their elements (the cases that reach memory beside a view
are in tests/engine/test_strided.py, with PyTorch's values)."""
import numpy as np

import autodiff.engine as ad
from op_cases import C, apply, away, gen_each, on_copy, uniform


def np_positions(size, stride, offset):
    """offset + sum(i_k * stride_k) for every index tuple i of size (np.indices: one grid per dim)."""
    grids = np.indices(size, dtype=np.int64) if size else np.zeros((0,), dtype=np.int64)
    return offset + sum((g * s for g, s in zip(grids, stride)), np.zeros(size, dtype=np.int64))


def np_as_strided(size, stride, offset=0):
    """The reference of x.as_strided(size, stride, offset) for a fresh x: its flat elements at the positions."""
    return lambda x: x.reshape(-1)[np_positions(size, stride, offset)]


def np_multiplied(size, stride, offset=0):
    """The reference of multiplying x.as_strided(size, stride, offset) by w in place (x fresh)."""
    def ref(x, w):
        out = x.copy().reshape(-1)
        out[np_positions(size, stride, offset)] *= w
        return out.reshape(x.shape)
    return ref


def np_scatter(size, stride, offset=0):
    """The reference of as_strided_scatter(x, src, ...): src's elements written in C order, one by one."""
    def ref(x, src):
        out = x.copy().reshape(-1)
        for p, v in zip(np_positions(size, stride, offset).reshape(-1), src.reshape(-1)):
            out[p] = v
        return out.reshape(x.shape)
    return ref


# ---- as_strided, no position twice (the as_strided_view row)
C("as_strided_view", "fn", lambda x: ad.as_strided(x, (2, 2), (1, 2), 1), [(9,)], np_as_strided((2, 2), (1, 2), 1),
  "AsStridedBackward0")
C("as_strided_view", "method_matrix", lambda x: x.as_strided((2, 3), (1, 3)), [(3, 3)],
  np_as_strided((2, 3), (1, 3)), "AsStridedBackward0")
C("as_strided_view", "gaps_3d", lambda x: x.as_strided((2, 1, 2), (7, 5, 2), 3), [(4, 4)],
  np_as_strided((2, 1, 2), (7, 5, 2), 3), "AsStridedBackward0")
C("as_strided_view", "number", lambda x: x.as_strided((), (), 4), [(2, 3)], np_as_strided((), (), 4),
  "AsStridedBackward0")
C("as_strided_view", "of_a_transpose", lambda x: x.t().as_strided((3,), (4,), 0), [(3, 4)],
  np_as_strided((3,), (4,), 0), "AsStridedBackward0")
# an expanded input: its elements share positions, so each position's gradient is shared out among them
C("as_strided_view", "of_expanded", lambda x: x.expand(2, 3).as_strided((2, 2), (1, 1), 0), [(3,)],
  lambda x: np.stack([x[0:2], x[1:3]]), "AsStridedBackward0")
C("as_strided_view", "in_place", lambda x: (x * 1).as_strided_((2, 3), (1, 2), 1), [(8,)],
  np_as_strided((2, 3), (1, 2), 1), "AsStridedBackward1")
C("as_strided_view", "copy", lambda x: ad.as_strided_copy(x, (3, 2), (2, 3), 0), [(2, 4)],
  np_as_strided((3, 2), (2, 3), 0), "AsStridedBackward0_copy")
C("as_strided_view", "written_through", on_copy(lambda y, w: y.as_strided((2, 2), (1, 3), 1).mul_(w)),
  [(8,), (2, 2)], np_multiplied((2, 2), (1, 3), 1), "torch::autograd::CopySlices")

# ---- as_strided with a position selected twice (the as_strided_overlap_view row)
C("as_strided_overlap_view", "windows", lambda x: ad.as_strided(x, (3, 3), (1, 1)), [(5,)],
  np_as_strided((3, 3), (1, 1)), "AsStridedBackward0")
C("as_strided_overlap_view", "zero_stride", lambda x: x.as_strided((2, 3), (0, 1), 1), [(2, 2)],
  np_as_strided((2, 3), (0, 1), 1), "AsStridedBackward0")
C("as_strided_overlap_view", "in_place", lambda x: (x * 1).as_strided_((2, 2), (1, 1), 0), [(3,)],
  np_as_strided((2, 2), (1, 1), 0), "AsStridedBackward1")
C("as_strided_overlap_view", "copy", lambda x: ad.as_strided_copy(x, (2, 3), (1, 1), 1), [(6,)],
  np_as_strided((2, 3), (1, 1), 1), "AsStridedBackward0_copy")

# ---- the gradient pair (internal): flat indices, -1 for none, optional weights
_INDEX = np.array([[3, -1], [0, 3]])
_WEIGHT = np.array([[0.5, 2.0], [1.0, -1.5]])


def np_gather(x, index, weight=1.0):
    flat = x.reshape(-1)
    return np.array([[flat[i] if i >= 0 else 0.0 for i in row] for row in index]) * weight


def np_scatter_add(g, index, n, weight=1.0):
    out = np.zeros(n)
    for i, v in zip(index.reshape(-1), (g * weight).reshape(-1)):
        if i >= 0:
            out[i] += v
    return out


C("strided_gather", "repeats_and_holes", lambda x: apply("strided_gather", x, index=_INDEX), [(2, 2)],
  lambda x: np_gather(x, _INDEX), "AsStridedBackward0", internal=True)
C("strided_gather", "weighted", lambda x: apply("strided_gather", x, index=_INDEX, weight=_WEIGHT), [(5,)],
  lambda x: np_gather(x, _INDEX, _WEIGHT), "AsStridedBackward0", internal=True)
C("strided_scatter", "repeats_and_holes", lambda g: apply("strided_scatter", g, index=_INDEX, shape=(2, 3)), [(2, 2)],
  lambda g: np_scatter_add(g, _INDEX, 6).reshape(2, 3), "AsStridedBackward0", internal=True)
C("strided_scatter", "weighted", lambda g: apply("strided_scatter", g, index=_INDEX, shape=(4,), weight=_WEIGHT),
  [(2, 2)], lambda g: np_scatter_add(g, _INDEX, 4, _WEIGHT), "AsStridedBackward0", internal=True)

# ---- as_strided_scatter
C("as_strided_scatter", "fn", lambda x, s: ad.as_strided_scatter(x, s, (2, 2), (1, 3), 2), [(9,), (2, 2)],
  np_scatter((2, 2), (1, 3), 2), "AsStridedScatterBackward0")
C("as_strided_scatter", "method_matrix", lambda x, s: x.as_strided_scatter(s, (2,), (4,), 1), [(3, 3), (2,)],
  np_scatter((2,), (4,), 1), "AsStridedScatterBackward0")
C("as_strided_scatter", "src_only", lambda x, s: ad.as_strided_scatter(x, s, (3,), (2,)), [(2, 3), (3,)],
  np_scatter((3,), (2,), 0), "AsStridedScatterBackward0", requires=(False, True))
C("as_strided_scatter", "number", lambda x, s: ad.as_strided_scatter(x, s, (), (), 1), [(3,), ()],
  np_scatter((), (), 1), "AsStridedScatterBackward0")

# ---- angle: pi for the negative elements, 0 for the others (kept away from the jump at 0)
_signed = away(0.0, margin=0.3)
C("angle", "fn", lambda x: ad.angle(x), [(2, 3)], lambda x: np.where(x < 0, np.pi, 0.0), "AngleBackward0",
  gen=gen_each(_signed))
C("angle", "method", lambda x: x.angle(), [(5,)], lambda x: np.angle(x), "AngleBackward0", gen=gen_each(_signed))
C("angle", "positive", lambda x: ad.angle(x), [(4,)], lambda x: np.zeros(4), "AngleBackward0",
  gen=gen_each(uniform(0.5, 2.0)))

# ---- conj_physical_ on a real tensor: its values, recorded as ConjPhysicalBackward1
C("conj_physical_record", "in_place", on_copy(lambda y: y.conj_physical_()), [(2, 3)], lambda x: x.copy(),
  "ConjPhysicalBackward1")
C("conj_physical_record", "function", on_copy(lambda y: ad.conj_physical_(y)), [(4,)], lambda x: x.copy(),
  "ConjPhysicalBackward1")
