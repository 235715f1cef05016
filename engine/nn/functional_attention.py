"""torch.nn.functional.scaled_dot_product_attention, multi_head_attention_forward and embedding_bag.

scaled_dot_product_attention is composed as PyTorch's CPU math path composes it (the path float64
takes): q and k each scaled by sqrt(scale) (MulBackward1), q @ k^T as a batched product (expand,
view, bmm, _unsafe_view), the mask added (AddBackward0), _safe_softmax (SafeSoftmaxBackward0),
dropout, then @ v -- so the graph has PyTorch's nodes and the result's grad_fn is
UnsafeViewBackward0. The two private steps are rows of engine/ops/attention.py.
multi_head_attention_forward (what nn.MultiheadAttention calls) is composed as PyTorch composes it:
the packed or separate in-projections (linear, unflatten or chunk), masks made additive, bias_k and
bias_v, zero attention, baddbmm of the scaled queries and the keys, softmax, dropout, bmm, the
out-projection and a view (ViewBackward0); without need_weights, scaled_dot_product_attention.
embedding_bag is a kernel in PyTorch (EmbeddingBagBackward0): a row of engine/ops/bags.py."""
import math
import warnings

import numpy

from .. import dtypes as _dt
from ..functions.arguments import tensor_in
from ..functions import (expand as _expand, matmul as _matmul, repeat_interleave as _repeat_interleave,
                         tril as _tril, ones as _ones, zeros as _zeros, masked_fill as _masked_fill,
                         bernoulli_ as _bernoulli_, empty_like as _empty_like, baddbmm as _baddbmm, bmm as _bmm,
                         cat as _cat, zeros as _zeros_of, zeros_like as _zeros_like, softmax as _softmax,
                         linear as _linear)
from ..core.tensor import apply, broadcast_shapes, array_module
from ..ops import TABLE as _op
from ..tensor_class import Tensor
from .functional_conv import check_dropout_p, masked_dropout
from .functional_layers import _renorm_rows
from .functional_padding import pad as _pad

__all__ = ["scaled_dot_product_attention", "multi_head_attention_forward", "embedding_bag"]


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


# ----------------------------------------------------------------------- multi_head_attention_forward

def _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads):
    """PyTorch's checks of the inputs' ranks; whether the call is batched (a 3-d query)."""
    if query.dim() == 3:
        if key.dim() != 3 or value.dim() != 3:
            raise AssertionError(f"For batched (3-D) `query`, expected `key` and `value` to be 3-D but found "
                                 f"{key.dim()}-D and {value.dim()}-D tensors respectively")
        if key_padding_mask is not None and key_padding_mask.dim() != 2:
            raise AssertionError(f"For batched (3-D) `query`, expected `key_padding_mask` to be `None` or 2-D but "
                                 f"found {key_padding_mask.dim()}-D tensor instead")
        if attn_mask is not None and attn_mask.dim() not in (2, 3):
            raise AssertionError(f"For batched (3-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D but "
                                 f"found {attn_mask.dim()}-D tensor instead")
        return True
    if query.dim() == 2:
        if key.dim() != 2 or value.dim() != 2:
            raise AssertionError(f"For unbatched (2-D) `query`, expected `key` and `value` to be 2-D but found "
                                 f"{key.dim()}-D and {value.dim()}-D tensors respectively")
        if key_padding_mask is not None and key_padding_mask.dim() != 1:
            raise AssertionError(f"For unbatched (2-D) `query`, expected `key_padding_mask` to be `None` or 1-D but "
                                 f"found {key_padding_mask.dim()}-D tensor instead")
        if attn_mask is not None:
            if attn_mask.dim() not in (2, 3):
                raise AssertionError(f"For unbatched (2-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D "
                                     f"but found {attn_mask.dim()}-D tensor instead")
            if attn_mask.dim() == 3:
                expected = (num_heads, query.shape[0], key.shape[0])
                if tuple(attn_mask.shape) != expected:
                    raise AssertionError(f"Expected `attn_mask` shape to be {expected} but got {attn_mask.shape}")
        return False
    raise AssertionError(f"query should be unbatched 2D or batched 3D tensor but received {query.dim()}-D query tensor")


def canonical_mask(mask, mask_name, other_type, other_name, target_type, check_other=True):
    """PyTorch's _canonical_mask: a boolean mask as 0 / -inf of target_type (to add to the scores),
    a float one as it is; other mask kinds refused, a mismatch with the other mask's dtype warned."""
    if mask is None:
        return None
    is_float = mask.dtype.is_floating_point
    if mask.dtype != _dt.bool_ and not is_float:
        raise AssertionError(f"only bool and floating types of {mask_name} are supported")
    if check_other and other_type is not None and mask.dtype != other_type:
        warnings.warn(f"Support for mismatched {mask_name} and {other_name} is deprecated. Use same type for both "
                      f"instead.", stacklevel=3)
    if not is_float:
        mask = _zeros_like(mask, dtype=target_type).masked_fill_(mask, float("-inf"))
    return mask


def _dropout(x, p):
    """F.dropout while training: each element zeroed with probability p, the rest scaled by 1/(1-p)."""
    check_dropout_p(p)
    return masked_dropout(x, p, True, False)


def _in_projection_packed(q, k, v, w, b):
    """q, k, v projected by one (3E, E) weight: one linear for self-attention (the same tensor
    three times), two for a shared key and value, else three (PyTorch's _in_projection_packed)."""
    e = q.size(-1)
    if k is v:
        if q is k:
            proj = _linear(q, w, b).unflatten(-1, (3, e)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
            return proj[0], proj[1], proj[2]
        w_q, w_kv = w.split([e, e * 2])
        b_q, b_kv = (None, None) if b is None else b.split([e, e * 2])
        kv = _linear(k, w_kv, b_kv).unflatten(-1, (2, e)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
        return _linear(q, w_q, b_q), kv[0], kv[1]
    w_q, w_k, w_v = w.chunk(3)
    b_q, b_k, b_v = (None, None, None) if b is None else b.chunk(3)
    return _linear(q, w_q, b_q), _linear(k, w_k, b_k), _linear(v, w_v, b_v)


def _in_projection(q, k, v, w_q, w_k, w_v, b_q, b_k, b_v):
    """q, k, v projected by their own weights, after PyTorch's shape checks."""
    eq, ek, ev = q.size(-1), k.size(-1), v.size(-1)
    for what, t, shape in (("query weights", w_q, (eq, eq)), ("key weights", w_k, (eq, ek)),
                           ("value weights", w_v, (eq, ev)), ("query bias", b_q, (eq,)),
                           ("key bias", b_k, (eq,)), ("value bias", b_v, (eq,))):
        if t is not None and tuple(t.shape) != shape:
            raise AssertionError(f"expecting {what} shape of {shape}, but got {t.shape}")
    return _linear(q, w_q, b_q), _linear(k, w_k, b_k), _linear(v, w_v, b_v)


def _statics(k, static_k, bsz, num_heads, head_dim, name):
    """The keys (or values) as (bsz * num_heads, length, head_dim): k's, or static_k checked."""
    if static_k is None:
        return k.view(k.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
    if static_k.size(0) != bsz * num_heads:
        raise AssertionError(f"expecting {name}.size(0) of {bsz * num_heads}, but got {static_k.size(0)}")
    if static_k.size(2) != head_dim:
        raise AssertionError(f"expecting {name}.size(2) of {head_dim}, but got {static_k.size(2)}")
    return static_k


def _attention_mask(attn_mask, tgt_len, src_len, bsz, num_heads):
    """attn_mask as 3-d (1 or bsz * num_heads, L, S), its shape checked."""
    if attn_mask.dim() == 2:
        if tuple(attn_mask.shape) != (tgt_len, src_len):
            raise RuntimeError(f"The shape of the 2D attn_mask is {attn_mask.shape}, but should be "
                               f"{(tgt_len, src_len)}.")
        return attn_mask.unsqueeze(0)
    if attn_mask.dim() == 3:
        if tuple(attn_mask.shape) != (bsz * num_heads, tgt_len, src_len):
            raise RuntimeError(f"The shape of the 3D attn_mask is {attn_mask.shape}, but should be "
                               f"{(bsz * num_heads, tgt_len, src_len)}.")
        return attn_mask
    raise RuntimeError(f"attn_mask's dimension {attn_mask.dim()} is not supported")


def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads, in_proj_weight, in_proj_bias,
                                 bias_k, bias_v, add_zero_attn, dropout_p, out_proj_weight, out_proj_bias,
                                 training=True, key_padding_mask=None, need_weights=True, attn_mask=None,
                                 use_separate_proj_weight=False, q_proj_weight=None, k_proj_weight=None,
                                 v_proj_weight=None, static_k=None, static_v=None, average_attn_weights=True,
                                 is_causal=False):
    """Multi-head attention of query (L, N, E) over key and value (S, N, E) (or unbatched (L, E),
    (S, E)): the in-projections (in_proj_weight packed, or q/k/v_proj_weight with
    use_separate_proj_weight), bias_k/bias_v and a zero attention appended to the keys when asked,
    masks (boolean or additive), softmax(q k^T / sqrt(head_dim) + mask) per head, dropout while
    training, times v, and the out-projection: (output (L, N, E), the attention weights averaged
    over heads (N, L, S) -- or per head, or None without need_weights). Dropout's draws are the
    engine's, not PyTorch's numbers for a seed."""
    is_batched = _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not is_batched:
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed_dim = query.shape
    src_len = key.shape[0]
    key_padding_mask = canonical_mask(key_padding_mask, "key_padding_mask",
                                      None if attn_mask is None else attn_mask.dtype, "attn_mask", query.dtype)
    if is_causal and attn_mask is None:
        raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the Transformer module "
                           "method `generate_square_subsequent_mask` to create this mask.")
    if is_causal and key_padding_mask is None and not need_weights:
        attn_mask = None  # scaled_dot_product_attention's own causal mask
    else:
        attn_mask = canonical_mask(attn_mask, "attn_mask", None, "", query.dtype, check_other=False)
        if key_padding_mask is not None:
            is_causal = False
    if embed_dim != embed_dim_to_check:
        raise AssertionError(f"was expecting embedding dimension of {embed_dim_to_check}, but got {embed_dim}")
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    if use_separate_proj_weight:
        if tuple(key.shape[:2]) != tuple(value.shape[:2]):
            raise AssertionError(f"key's sequence and batch dims {key.shape[:2]} do not match value's "
                                 f"{value.shape[:2]}")
    elif tuple(key.shape) != tuple(value.shape):
        raise AssertionError(f"key shape {key.shape} does not match value shape {value.shape}")
    if not use_separate_proj_weight:
        if in_proj_weight is None:
            raise AssertionError("use_separate_proj_weight is False but in_proj_weight is None")
        q, k, v = _in_projection_packed(query, key, value, in_proj_weight, in_proj_bias)
    else:
        for name, w in (("q_proj_weight", q_proj_weight), ("k_proj_weight", k_proj_weight),
                        ("v_proj_weight", v_proj_weight)):
            if w is None:
                raise AssertionError(f"use_separate_proj_weight is True but {name} is None")
        b_q, b_k, b_v = (None, None, None) if in_proj_bias is None else in_proj_bias.chunk(3)
        q, k, v = _in_projection(query, key, value, q_proj_weight, k_proj_weight, v_proj_weight, b_q, b_k, b_v)
    if attn_mask is not None:
        attn_mask = _attention_mask(attn_mask, tgt_len, src_len, bsz, num_heads)
    if bias_k is not None and bias_v is not None:
        if static_k is not None:
            raise AssertionError("bias cannot be added to static key.")
        if static_v is not None:
            raise AssertionError("bias cannot be added to static value.")
        k = _cat([k, bias_k.repeat(1, bsz, 1)])
        v = _cat([v, bias_v.repeat(1, bsz, 1)])
        attn_mask = None if attn_mask is None else _pad(attn_mask, (0, 1))
        key_padding_mask = None if key_padding_mask is None else _pad(key_padding_mask, (0, 1))
    elif bias_k is not None:
        raise AssertionError("bias_k is set but bias_v is None")
    elif bias_v is not None:
        raise AssertionError("bias_v is set but bias_k is None")
    q = q.view(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    k = _statics(k, static_k, bsz, num_heads, head_dim, "static_k")
    v = _statics(v, static_v, bsz, num_heads, head_dim, "static_v")
    if add_zero_attn:
        zeros = (bsz * num_heads, 1, head_dim)
        k = _cat([k, _zeros_of(zeros, dtype=k.dtype, device=k.device)], 1)
        v = _cat([v, _zeros_of(zeros, dtype=v.dtype, device=v.device)], 1)
        attn_mask = None if attn_mask is None else _pad(attn_mask, (0, 1))
        key_padding_mask = None if key_padding_mask is None else _pad(key_padding_mask, (0, 1))
    src_len = k.size(1)
    if key_padding_mask is not None:
        if key_padding_mask.shape[0] != bsz:
            raise AssertionError(f"Expected key_padded_mask.shape[0] to be {bsz}, but got {key_padding_mask.shape[0]}")
        if key_padding_mask.shape[1] != src_len:
            raise AssertionError(f"Expected key_padded_mask.shape[1] to be {src_len}, but got "
                                 f"{key_padding_mask.shape[1]}")
        key_padding_mask = key_padding_mask.view(bsz, 1, 1, src_len).expand(-1, num_heads, -1, -1).reshape(
            bsz * num_heads, 1, src_len)
        attn_mask = key_padding_mask if attn_mask is None else attn_mask + key_padding_mask
    if not training:
        dropout_p = 0.0
    if need_weights:
        q_scaled = q * math.sqrt(1.0 / float(q.shape[2]))
        if is_causal and attn_mask is None:
            raise AssertionError("FIXME: is_causal not implemented for need_weights")
        if attn_mask is not None:
            weights = _baddbmm(attn_mask, q_scaled, k.transpose(-2, -1))
        else:
            weights = _bmm(q_scaled, k.transpose(-2, -1))
        weights = _softmax(weights, -1)
        if dropout_p > 0.0:
            weights = _dropout(weights, dropout_p)
        out = _bmm(weights, v).transpose(0, 1).reshape(tgt_len * bsz, embed_dim)
        out = _linear(out, out_proj_weight, out_proj_bias)
        out = out.view(tgt_len, bsz, out.size(1))
        weights = weights.view(bsz, num_heads, tgt_len, src_len)
        if average_attn_weights:
            weights = weights.mean(dim=1)
        if not is_batched:
            out, weights = out.squeeze(1), weights.squeeze(0)
        return out, weights
    if attn_mask is not None:
        if attn_mask.size(0) == 1 and attn_mask.dim() == 3:
            attn_mask = attn_mask.unsqueeze(0)
        else:
            attn_mask = attn_mask.view(bsz, num_heads, -1, src_len)
    q = q.view(bsz, num_heads, tgt_len, head_dim)
    k = k.view(bsz, num_heads, src_len, head_dim)
    v = v.view(bsz, num_heads, src_len, head_dim)
    out = scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)
    out = out.permute(2, 0, 1, 3).reshape(bsz * tgt_len, embed_dim)
    out = _linear(out, out_proj_weight, out_proj_bias)
    out = out.view(tgt_len, bsz, out.size(1))
    if not is_batched:
        out = out.squeeze(1)
    return out, None


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
