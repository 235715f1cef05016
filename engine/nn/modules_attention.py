"""torch.nn.MultiheadAttention as a composition of engine ops, with PyTorch's parameters
(in_proj_weight, or q/k/v_proj_weight when kdim or vdim differ from embed_dim; in_proj_bias,
out_proj, bias_k/bias_v with add_bias_kv), initial values (xavier_uniform_ over PyTorch's
generator: PyTorch's numbers for a seed, but for bias_k/bias_v, whose normal draws are the
engine's), masks (attn_mask, key_padding_mask: boolean or additive), add_zero_attn, batch_first,
unbatched inputs, dropout on the attention weights while training, and the weights averaged over
heads or not. The nodes are those of the ops it is made of (PyTorch's fast path has its own).
"""
import math

from .. import functions as _fn
from . import functional as F
from . import init
from .module import Module, Parameter
from .modules import Linear

__all__ = ["MultiheadAttention"]


class NonDynamicallyQuantizableLinear(Linear):
    """Linear under the name PyTorch gives MultiheadAttention's out_proj (and prints)."""


def _additive(mask, dtype):
    """A boolean mask as 0 / -inf to add to the scores; a float mask as it is."""
    if mask is None or mask.dtype != _fn.tensor(True).dtype:
        return mask
    return _fn.zeros(*mask.shape, dtype=dtype, device=mask.device).masked_fill(mask, float("-inf"))


class MultiheadAttention(Module):
    """Attention of query over key/value in num_heads heads of embed_dim / num_heads features each:
    forward(query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
    average_attn_weights=True, is_causal=False) -> (output, weights or None)."""

    def __init__(self, embed_dim, num_heads, dropout=0.0, bias=True, add_bias_kv=False, add_zero_attn=False,
                 kdim=None, vdim=None, batch_first=False, device=None, dtype=None):
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(f"embed_dim and num_heads must be greater than 0, got embed_dim={embed_dim} and "
                             f"num_heads={num_heads} instead")
        super().__init__()
        self.embed_dim, self.num_heads, self.dropout, self.batch_first = embed_dim, num_heads, dropout, batch_first
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != embed_dim:
            raise AssertionError("embed_dim must be divisible by num_heads")
        new = lambda *shape: Parameter(_fn.empty(*shape, dtype=dtype, device=device))  # noqa: E731
        if self._qkv_same_embed_dim:
            self.in_proj_weight = new(3 * embed_dim, embed_dim)
            for name in ("q_proj_weight", "k_proj_weight", "v_proj_weight"):
                self.register_parameter(name, None)
        else:
            self.q_proj_weight = new(embed_dim, embed_dim)
            self.k_proj_weight = new(embed_dim, self.kdim)
            self.v_proj_weight = new(embed_dim, self.vdim)
            self.register_parameter("in_proj_weight", None)
        if bias:
            self.in_proj_bias = new(3 * embed_dim)
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias, device=device, dtype=dtype)
        if add_bias_kv:
            self.bias_k, self.bias_v = new(1, 1, embed_dim), new(1, 1, embed_dim)
        else:
            self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self._reset_parameters()

    def _reset_parameters(self):
        """PyTorch's: xavier_uniform_ of the projections, zero biases, xavier_normal_ of bias_k/bias_v."""
        for w in ((self.in_proj_weight,) if self._qkv_same_embed_dim
                  else (self.q_proj_weight, self.k_proj_weight, self.v_proj_weight)):
            init.xavier_uniform_(w)
        if self.in_proj_bias is not None:
            init.constant_(self.in_proj_bias, 0.0)
            init.constant_(self.out_proj.bias, 0.0)
        for b in (self.bias_k, self.bias_v):
            if b is not None:
                init.xavier_normal_(b)

    def _projections(self, query, key, value):
        e = self.embed_dim
        bq, bk, bv = (None, None, None) if self.in_proj_bias is None else self.in_proj_bias.split(e)
        if self._qkv_same_embed_dim:
            wq, wk, wv = self.in_proj_weight.split(e)
        else:
            wq, wk, wv = self.q_proj_weight, self.k_proj_weight, self.v_proj_weight
        return F.linear(query, wq, bq), F.linear(key, wk, bk), F.linear(value, wv, bv)

    def forward(self, query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
                average_attn_weights=True, is_causal=False):
        if is_causal and attn_mask is None:
            raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the Transformer module "
                               "method `generate_square_subsequent_mask` to create this mask.")
        batched = query.dim() == 3
        if not batched:  # (L, E): a batch of one, taken off again at the end
            query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
            key_padding_mask = None if key_padding_mask is None else key_padding_mask.unsqueeze(0)
        elif self.batch_first:
            query, key, value = query.transpose(0, 1), key.transpose(0, 1), value.transpose(0, 1)
        length, n, e = query.shape
        h, hd = self.num_heads, self.head_dim
        q, k, v = self._projections(query, key, value)
        attn_mask, key_padding_mask = _additive(attn_mask, q.dtype), _additive(key_padding_mask, q.dtype)
        if self.bias_k is not None:
            k = _fn.cat([k, self.bias_k.expand(1, n, e)])
            v = _fn.cat([v, self.bias_v.expand(1, n, e)])
            attn_mask = None if attn_mask is None else F.pad(attn_mask, (0, 1))
            key_padding_mask = None if key_padding_mask is None else F.pad(key_padding_mask, (0, 1))
        q = q.reshape(length, n * h, hd).transpose(0, 1)
        k = k.reshape(k.shape[0], n * h, hd).transpose(0, 1)
        v = v.reshape(v.shape[0], n * h, hd).transpose(0, 1)
        if self.add_zero_attn:
            k = _fn.cat([k, _fn.zeros(n * h, 1, hd, dtype=k.dtype, device=k.device)], 1)
            v = _fn.cat([v, _fn.zeros(n * h, 1, hd, dtype=v.dtype, device=v.device)], 1)
            attn_mask = None if attn_mask is None else F.pad(attn_mask, (0, 1))
            key_padding_mask = None if key_padding_mask is None else F.pad(key_padding_mask, (0, 1))
        s = k.shape[1]
        scores = _fn.matmul(q * math.sqrt(1.0 / hd), k.transpose(-2, -1))
        if attn_mask is not None:
            scores = scores + (attn_mask.unsqueeze(0) if attn_mask.dim() == 2 else attn_mask)
        if key_padding_mask is not None:
            scores = scores + key_padding_mask.reshape(n, 1, 1, s).expand(n, h, 1, s).reshape(n * h, 1, s)
        weights = F.softmax(scores, -1)
        if self.dropout > 0.0 and self.training:
            weights = F.dropout(weights, self.dropout)
        out = _fn.matmul(weights, v).transpose(0, 1).reshape(length * n, e)
        out = self.out_proj(out).reshape(length, n, e)
        if not batched:
            out = out.squeeze(1)
        elif self.batch_first:
            out = out.transpose(0, 1)
        if not need_weights:
            return out, None
        weights = weights.reshape(n, h, length, s)
        if average_attn_weights:
            weights = weights.mean(1)
        return out, (weights if batched else weights.squeeze(0))
