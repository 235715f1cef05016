"""torch.nn.functional.scaled_dot_product_attention and embedding_bag.

scaled_dot_product_attention is composed as PyTorch's CPU math path composes it (the path float64
takes): q and k each scaled by sqrt(scale) (MulBackward1), q @ k^T as a batched product (expand,
view, bmm, _unsafe_view), the mask added (AddBackward0), _safe_softmax (SafeSoftmaxBackward0),
dropout, then @ v -- so the graph has PyTorch's nodes and the result's grad_fn is
UnsafeViewBackward0. The two private steps are rows of engine/ops/attention.py. embedding_bag is a
kernel in PyTorch (EmbeddingBagBackward0): a row of engine/ops/bags.py."""
import math
import warnings

import numpy

from .. import dtypes as _dt
from ..functions.arguments import tensor_in
from ..functions import (expand as _expand, matmul as _matmul, repeat_interleave as _repeat_interleave,
                         tril as _tril, ones as _ones, zeros as _zeros, masked_fill as _masked_fill,
                         bernoulli_ as _bernoulli_, empty_like as _empty_like)
from ..core.tensor import apply, broadcast_shapes, array_module
from ..ops import TABLE as _op
from ..tensor_class import Tensor
from .functional_layers import _renorm_rows

__all__ = ["scaled_dot_product_attention", "embedding_bag"]


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
    scale = 1.0 / math.sqrt(query.shape[-1]) if scale is None else float(scale)
    factor = math.sqrt(abs(scale))  # on q and on k; a negative scale's sign goes on q, as PyTorch's
    q, k = _mul_scalar(query, -factor if scale < 0 else factor), _mul_scalar(key, factor)
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


# ----------------------------------------------------------------------- embedding_bag

def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False, mode="mean",
                  sparse=False, per_sample_weights=None, include_last_offset=False, padding_idx=None):
    """Bags of rows of weight, reduced: each bag's rows at its indices summed ('sum', each times
    its per_sample_weight if given), averaged ('mean') or their largest value per column ('max').
    A 1-d input is cut into bags at `offsets` (each bag from its offset to the next, the last to the
    end, or to the last offset with include_last_offset); a 2-d input is one bag a row. Entries
    equal to padding_idx count for nothing (a bag of nothing is zeros); max_norm renormalizes the
    rows used in place, as embedding does. Not here: scale_grad_by_freq and sparse."""
    input, weight = tensor_in(input), tensor_in(weight, "weight")
    if weight.array.dtype == numpy.int64 and input.array.dtype.kind == "f":
        warnings.warn("Argument order of nn.functional.embedding_bag was changed. Usage `embedding_bag(weight, "
                      "input, ...)` is deprecated, and should now be `embedding_bag(input, weight, ...)`.",
                      stacklevel=2)
        weight, input = input, weight
    if per_sample_weights is not None:
        per_sample_weights = tensor_in(per_sample_weights, "per_sample_weights")
        if per_sample_weights.shape != input.shape:
            raise ValueError(f"embedding_bag: If per_sample_weights ({per_sample_weights.shape}) is not None, "
                             f"then it must have the same shape as the input ({input.shape})")
    if weight.dim() != 2:
        raise ValueError(f"weight has to be a 2D Tensor, but got Tensor of dimension {weight.dim()}")
    xp = array_module(weight.device)
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError(f"if input is 2D, then offsets has to be None, as input is treated is a mini-batch of "
                             f"fixed length sequences. However, found offsets of type {_type_text(offsets)}")
        starts = xp.arange(0, input.numel(), max(input.shape[1], 1)) if input.shape[1] else xp.zeros(
            input.shape[0], dtype=numpy.int64)
        include_last_offset = False
        values = input.array.reshape(-1)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        offsets = tensor_in(offsets, "offsets")
        if offsets.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor")
        starts = offsets.array
        values = input.array
    else:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension {input.dim()}")
    _check_bag_options(input, offsets, weight, per_sample_weights, mode, scale_grad_by_freq, sparse)
    n = weight.shape[0]
    if padding_idx is not None:
        if not -n <= padding_idx < n:
            raise RuntimeError(f"padding_idx must be within the number of embeddings, {-n} through {n - 1}, but got "
                               f"{padding_idx}")
        padding_idx = padding_idx + n if padding_idx < 0 else padding_idx
    starts = starts.astype(numpy.int64)
    length = values.size
    if starts.size and int(starts[0]) != 0:
        raise RuntimeError(f"offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from "
                           f"position 0. However, got {int(starts[0])}")
    if starts.size and int(starts[-1]) > length:
        raise RuntimeError(f"offsets[-1] can not be greater than input's length {length} but got offsets[-1] of "
                           f"{int(starts[-1])}")
    if values.size and (int(values.min()) < 0 or int(values.max()) >= n):
        bad = values[(values < 0) | (values >= n)][0]
        raise RuntimeError(f"embedding_bag: Expected idx >= 0 && idx < num_embeddings but found idx to be {int(bad)}")
    nbags = max(starts.size - 1, 0) if include_last_offset else starts.size
    # each entry's bag: the number of bag starts at or before it, less one (with include_last_offset the
    # last bag runs to the end of input whatever the last offset says, as PyTorch's CPU kernel has it)
    bags = xp.searchsorted(starts[:nbags], xp.arange(values.size), side="right") - 1
    kept = values != padding_idx if padding_idx is not None else xp.ones(values.size, dtype=bool)
    if max_norm is not None:
        _renorm_rows(weight, values[kept], float(max_norm), float(norm_type))
    positions = xp.nonzero(kept)[0]
    bags = bags[kept]
    if mode == "mean":
        sizes = xp.bincount(bags, minlength=nbags)
        coef = 1.0 / sizes[bags]
    else:
        coef = xp.ones(bags.size)
    return apply(_op["embedding_bag"], weight, per_sample_weights, indices=values[kept].astype(numpy.int64),
                 bags=bags, positions=positions, coef=coef, nbags=nbags, mode=mode)


def _check_bag_options(input, offsets, weight, per_sample_weights, mode, scale_grad_by_freq, sparse):
    """embedding_bag's checks of its mode and options and of its arguments' dtypes, in PyTorch's words."""
    if mode not in ("sum", "mean", "max"):
        raise ValueError("mode has to be one of sum, mean or max")
    if mode == "max" and scale_grad_by_freq:
        raise ValueError("max mode does not support scaling the gradient by the frequency")
    if mode == "max" and sparse:
        raise ValueError("max mode does not support sparse weights")
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(f"embedding_bag: per_sample_weights was not None. per_sample_weights is only "
                                  f"supported for mode='sum' (got mode='{mode}'). Please open a feature request on "
                                  f"GitHub.")
    if scale_grad_by_freq or sparse:
        raise NotImplementedError("embedding_bag: scale_grad_by_freq and sparse are not available here")
    for t in (input, offsets):  # PyTorch names both 'indices'
        if isinstance(t, Tensor) and t.array.dtype not in (numpy.int64, numpy.int32):
            raise RuntimeError(f"Expected tensor for argument #1 'indices' to have one of the following scalar "
                               f"types: Long, Int; but got {t.type()} instead (while checking arguments for "
                               f"embedding_bag)")
    if per_sample_weights is not None and per_sample_weights.array.dtype != weight.array.dtype:
        raise RuntimeError(f"Expected tensor for argument #1 'weight' to have the same type as tensor for argument "
                           f"#1 'per_sample_weights'; but type {weight.type()} does not equal "
                           f"{per_sample_weights.type()} (while checking arguments for embedding_bag)")


def _type_text(value):
    return f"<class '{type(value).__module__}.{type(value).__name__}'>" if not isinstance(value, Tensor) \
        else "<class 'torch.Tensor'>"
