"""Distances: torch.cdist and torch.pairwise_distance (also in torch.nn.functional), with PyTorch's
checks and messages, over the rows of engine/ops/distances.py (torch.pdist is its row's signature).

cdist takes PyTorch's two ways: its own kernel (CdistBackward0), or for p = 2 when either side
has more than 25 rows (or compute_mode='use_mm_for_euclid_dist') the matrix-product formula
(EuclideanDistBackward0, then a view), batches expanded and flattened as PyTorch does.
pairwise_distance is PyTorch's composition: norm(x1 - x2 + eps, p, last dim)."""
import math

from .. import dtypes as _dt
from ..ops import TABLE as _op
from ..core.tensor import TensorBase as Tensor, apply, broadcast_shapes
from .arguments import checked, tensor_in, as_tensor_like
from .basic import to as _to
from .surface import made
from ..ops.linalg import same_dtype as _same_dtype, scalar_name as _scalar_name

_expand, _reshape, _sub = (made(n) for n in ('expand', 'reshape', 'sub'))  # (functions the rows give)

__all__ = ["cdist", "pairwise_distance"]

_COMPUTE_MODES = {"use_mm_for_euclid_dist_if_necessary": 0, "use_mm_for_euclid_dist": 1,
                  "donot_use_mm_for_euclid_dist": 2}


def _p(p):
    return p.item() if isinstance(p, Tensor) else float(p)


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """The p-norm distance between each row of x1 and each row of x2.

    The p-norm distance between each row of x1 (..., r1, c) and each row of x2 (..., r2, c):
    (..., r1, r2), batch dims broadcast."""
    x1 = tensor_in(x1, "x1")
    x2 = as_tensor_like(x2, x1)
    p = checked(p, "float", "cdist", "p")
    if compute_mode not in _COMPUTE_MODES:
        raise ValueError(f"{compute_mode} is not a valid value for compute_mode")
    mode = _COMPUTE_MODES[compute_mode]
    for name, t in (("X1", x1), ("X2", x2)):
        if t.array.ndim < 2:
            raise RuntimeError(f"cdist only supports at least 2D tensors, {name} got: {t.array.ndim}D")
    c1, c2 = x1.array.shape[-1], x2.array.shape[-1]
    if c1 != c2:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: {c1} X2: {c2}")
    for name, t in (("X1", x1), ("X2", x2)):
        if t.array.dtype.kind != "f":
            raise RuntimeError(f"cdist only supports floating-point dtypes, {name} got: {_scalar_name(t)}")
    p = _p(p)
    if not p >= 0:
        raise RuntimeError("cdist only supports non-negative p values")
    batch = broadcast_shapes((x1.array.shape[:-2], x2.array.shape[:-2]))
    _same_dtype(x1, x2)
    r1, r2 = x1.array.shape[-2], x2.array.shape[-2]
    if x1.array.size and x2.array.size and p == 2 and (mode == 1 or (mode == 0 and (r1 > 25 or r2 > 25))):
        count = math.prod(batch)
        if count != 1:
            x1 = _reshape(_expand(x1, batch + (r1, c1)), (count, r1, c1))
            x2 = _reshape(_expand(x2, batch + (r2, c2)), (count, r2, c2))
        return apply(_op["euclidean_dist"], x1, x2).view(batch + (r1, r2))
    return apply(_op["cdist"], x1, x2, p=p)


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """The p-norm of x1 - x2 + eps along the last dim (x1 and x2 broadcast), as PyTorch's
    norm(x1 - x2 + eps, p, -1, keepdim)."""
    x1 = tensor_in(x1, "x1")
    x2 = as_tensor_like(x2, x1)
    p, eps = checked(p, "float", "pairwise_distance", "p"), checked(eps, "float", "pairwise_distance", "eps")
    nd = max(x1.array.ndim, x2.array.ndim)
    d = _sub(x1, x2)
    if d.array.dtype.kind != "f":  # an integer difference plus a float eps: the default dtype
        d = _to(d, dtype=_dt.get_default_dtype())
    d = apply(_op["add_scalar"], d, value=float(eps))
    dim = nd - 1 if nd else None
    if dim is None:  # a 0-d difference: its absolute value (at::norm over dim -1 of a number)
        d = d.reshape(1)
        dim, keepdim = 0, False
    return apply(_op["at_norm"], d, p=_p(p), dim=dim, keepdim=bool(keepdim))

