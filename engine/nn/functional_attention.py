"""torch.nn.functional.scaled_dot_product_attention as PyTorch's CPU math path composes it (the
path float64 takes): q and k each scaled by sqrt(scale) (MulBackward1), q @ k^T as a batched
product (expand, view, bmm, _unsafe_view), the mask added (AddBackward0), _safe_softmax
(SafeSoftmaxBackward0), dropout, then @ v -- so the graph has PyTorch's nodes and the result's
grad_fn is UnsafeViewBackward0. The two private steps are rows of engine/ops/attention.py."""
import math

from .. import dtypes as _dt
from ..functions.arguments import tensor_in
from ..functions import (expand as _expand, matmul as _matmul, repeat_interleave as _repeat_interleave,
                         tril as _tril, ones as _ones, zeros as _zeros, masked_fill as _masked_fill,
                         bernoulli_ as _bernoulli_, empty_like as _empty_like)
from ..core.tensor import apply, broadcast_shapes
from ..ops import TABLE as _op

__all__ = ["scaled_dot_product_attention"]


def _batched_matmul(a, b):
    """a @ b for a and b of 2 or more dims, as PyTorch's matmul records it: mm for two matrices;
    else both expanded to the common batch shape and viewed as 3-d, bmm, then _unsafe_view
    to the batch shape."""
    if a.dim() == 2 and b.dim() == 2:
        return _matmul(a, b)  # mm (MmBackward0)
    batch = tuple(broadcast_shapes([tuple(a.shape[:-2]), tuple(b.shape[:-2])]))
    n, k, m = a.shape[-2], a.shape[-1], b.shape[-1]
    size = 1
    for s in batch:
        size *= s
    a3 = _expand(a, batch + (n, k)).reshape(size, n, k)
    b3 = _expand(b, batch + (k, m)).reshape(size, k, m)
    return apply(_op["unsafe_view"], _matmul(a3, b3), shape=batch + (n, m))


def _mul_scalar(x, value):
    return apply(_op["scalar_arith"], x, value=value)


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None,
                                 enable_gqa=False):
    """softmax(query @ key^T * scale + mask) @ value along the last dim (scale 1/sqrt(E) unless
    given); a bool attn_mask keeps where True, a float one is added; is_causal masks the keys after
    each query; enable_gqa repeats key and value heads to match query's. dropout_p > 0 drops
    attention weights (training-time dropout; not PyTorch's numbers for a seed)."""
    query, key, value = tensor_in(query, "query"), tensor_in(key, "key"), tensor_in(value, "value")
    if query.dim() < 2 or key.dim() < 2 or value.dim() < 2:
        raise RuntimeError(f"Expected query, key, and value to all be  at least 2 dimensional, but got query.dim: "
                           f"{query.dim()} key.dim: {key.dim()} and value.dim: {value.dim()} instead.")
    if not (query.array.dtype == key.array.dtype == value.array.dtype):
        raise RuntimeError(f"Expected query, key, and value to have the same dtype, but got query.dtype: "
                           f"{_c_name(query)} key.dtype: {_c_name(key)} and value.dtype: {_c_name(value)} instead.")
    if attn_mask is not None:
        attn_mask = tensor_in(attn_mask, "attn_mask")
        kind = attn_mask.array.dtype.kind
        if kind not in "bf" and attn_mask.array.dtype != query.array.dtype:
            raise RuntimeError(f"Expected attn_mask dtype to be bool or float or to match query dtype, but got "
                               f"attn_mask.dtype: {_c_name(attn_mask)} and  query.dtype: {_c_name(query)} instead.")
        if is_causal:
            raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set when "
                               "is_causal=True")
    if dropout_p < 0.0 or dropout_p > 1.0:
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {dropout_p}")
    if enable_gqa and query.dim() >= 3:
        heads, kv_heads = query.shape[-3], key.shape[-3]
        if kv_heads == 0 or heads % kv_heads or value.shape[-3] != kv_heads:
            raise RuntimeError("Number of heads in key and value must divide the number of heads in ")
        if heads != kv_heads:
            key = _repeat_interleave(key, heads // kv_heads, -3)
            value = _repeat_interleave(value, heads // kv_heads, -3)
    length, source = query.shape[-2], key.shape[-2]
    factor = math.sqrt(1.0 / math.sqrt(query.shape[-1]) if scale is None else float(scale))
    q, k = _mul_scalar(query, factor), _mul_scalar(key, factor)
    attn = _batched_matmul(q, k.transpose(-2, -1))
    if is_causal:
        attn_mask = _tril(_ones(length, source, dtype=_dt.bool_, device=query.device))
    if attn_mask is not None:
        if attn_mask.array.dtype.kind == "b":
            attn_mask = _masked_fill(_zeros(tuple(attn_mask.shape), dtype=_dt.as_dtype(query.array.dtype),
                                            device=query.device), attn_mask.logical_not(), -math.inf)
        attn = attn + attn_mask
    attn = apply(_op["safe_softmax"], attn, dim=attn.dim() - 1)
    if dropout_p > 0.0:
        keep = _bernoulli_(_empty_like(attn, requires_grad=False), 1.0 - dropout_p)
        attn = attn * (keep * 0.0 if dropout_p == 1.0 else keep / (1.0 - dropout_p))
    return _batched_matmul(attn, value)


def _c_name(t):
    """PyTorch's C++ name of a dtype, as its messages print it (double, float, long int, bool)."""
    return {"float64": "double", "float32": "float", "float16": "c10::Half", "bfloat16": "c10::BFloat16",
            "int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char",
            "uint8": "unsigned char", "bool": "bool"}.get(str(t.array.dtype), str(t.array.dtype))
