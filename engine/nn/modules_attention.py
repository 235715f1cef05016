"""torch.nn.MultiheadAttention over F.multi_head_attention_forward, as PyTorch's, with its parameters
(in_proj_weight, or q/k/v_proj_weight when kdim or vdim differ from embed_dim; in_proj_bias,
out_proj, bias_k/bias_v with add_bias_kv), initial values (xavier_uniform_ over PyTorch's
generator: PyTorch's numbers for a seed, but for bias_k/bias_v, whose normal draws are the
engine's), masks (attn_mask, key_padding_mask: boolean or additive), add_zero_attn, batch_first,
unbatched inputs, dropout on the attention weights while training, and the weights averaged over
heads or not. The nodes are those of the ops the functional is made of (PyTorch's fast path, for
inference without gradients, has its own).
"""

from .. import functions as _fn
from . import functional as F
from . import init
from .functional_attention import canonical_mask
from .module import Module, Parameter
from .modules import Linear

__all__ = ["MultiheadAttention"]


class NonDynamicallyQuantizableLinear(Linear):
    """Linear under the name PyTorch gives MultiheadAttention's out_proj (and prints)."""


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

    def forward(self, query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
                average_attn_weights=True, is_causal=False):
        """PyTorch's: the masks made additive, batch_first inputs transposed (the same tensor stays
        one, so self-attention keeps its packed projection), then F.multi_head_attention_forward."""
        is_batched = query.dim() == 3
        key_padding_mask = canonical_mask(key_padding_mask, "key_padding_mask",
                                          None if attn_mask is None else attn_mask.dtype, "attn_mask", query.dtype)
        attn_mask = canonical_mask(attn_mask, "attn_mask", None, "", query.dtype, check_other=False)
        if self.batch_first and is_batched:
            if key is value:
                if query is key:
                    query = key = value = query.transpose(1, 0)
                else:
                    query, key = query.transpose(1, 0), key.transpose(1, 0)
                    value = key
            else:
                query, key, value = query.transpose(1, 0), key.transpose(1, 0), value.transpose(1, 0)
        out, weights = F.multi_head_attention_forward(
            query, key, value, self.embed_dim, self.num_heads, self.in_proj_weight, self.in_proj_bias, self.bias_k,
            self.bias_v, self.add_zero_attn, self.dropout, self.out_proj.weight, self.out_proj.bias,
            training=self.training, key_padding_mask=key_padding_mask, need_weights=need_weights, attn_mask=attn_mask,
            use_separate_proj_weight=not self._qkv_same_embed_dim, q_proj_weight=self.q_proj_weight,
            k_proj_weight=self.k_proj_weight, v_proj_weight=self.v_proj_weight,
            average_attn_weights=average_attn_weights, is_causal=is_causal)
        if self.batch_first and is_batched:
            return out.transpose(1, 0), weights
        return out, weights
