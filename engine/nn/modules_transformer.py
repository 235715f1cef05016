"""torch.nn's Transformer layers as compositions of MultiheadAttention, Linear, Dropout and
LayerNorm: TransformerEncoderLayer, TransformerDecoderLayer (post- or pre-norm, relu/gelu or any
callable), TransformerEncoder, TransformerDecoder (deep copies of one layer) and Transformer, with
PyTorch's children, parameter names, initial values for a seed (Transformer: xavier_uniform_ of
every matrix), printing and messages.

Known differences: PyTorch's inference fast path (eval mode, batch_first) turns a padded batch into
a nested tensor and gives zeros at the padded positions of TransformerEncoder's output; here
every position is computed, and no warning about nested tensors is given.
"""
import copy

from .. import functions as _fn
from . import functional as F
from . import init
from .module import Module
from .modules import Dropout, Linear, ModuleList
from .modules_attention import MultiheadAttention
from .modules_layers import LayerNorm

__all__ = ["TransformerEncoderLayer", "TransformerDecoderLayer", "TransformerEncoder", "TransformerDecoder",
           "Transformer"]

_ACTIVATIONS = {"relu": F.relu, "gelu": F.gelu}


def _activation(activation):
    if isinstance(activation, str):
        if activation not in _ACTIVATIONS:
            raise RuntimeError(f"activation should be relu/gelu, not {activation}")
        return _ACTIVATIONS[activation]
    return activation


class _Layer(Module):
    """What the encoder and decoder layers share: their attentions (`_attentions`, each a
    MultiheadAttention), the feed-forward block, one LayerNorm and Dropout per step, and the
    residual steps."""
    _attentions = ()

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation=F.relu, layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, bias=True, device=None, dtype=None):
        super().__init__()
        factory = {"device": device, "dtype": dtype}
        for name in self._attentions:
            setattr(self, name, MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias,
                                                   batch_first=batch_first, **factory))
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, **factory)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, **factory)
        self.norm_first = norm_first
        steps = len(self._attentions) + 1
        for k in range(1, steps + 1):
            setattr(self, f"norm{k}", LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory))
        for k in range(1, steps + 1):
            setattr(self, f"dropout{k}", Dropout(dropout))
        self.activation = _activation(activation)

    def _ff_block(self, x):
        last_dropout = getattr(self, f"dropout{len(self._attentions) + 1}")
        return last_dropout(self.linear2(self.dropout(self.activation(self.linear1(x)))))

    def _residual(self, x, blocks):
        """x through each (norm, block) in turn: x + block(norm(x)) when norm_first, else
        norm(x + block(x))."""
        for norm, block in blocks:
            x = x + block(norm(x)) if self.norm_first else norm(x + block(x))
        return x


def _attention_block(attention, dropout, kv, mask, padding, is_causal):
    def block(x):
        source = x if kv is None else kv
        return dropout(attention(x, source, source, attn_mask=mask, key_padding_mask=padding, need_weights=False,
                                 is_causal=is_causal)[0])
    return block


class TransformerEncoderLayer(_Layer):
    """Attention of the input to itself, then a feed-forward block, each with a residual connection
    and LayerNorm (after each step, or before it with norm_first=True)."""
    _attentions = ("self_attn",)

    def forward(self, src, src_mask=None, src_key_padding_mask=None, is_causal=False):
        sa = _attention_block(self.self_attn, self.dropout1, None, src_mask, src_key_padding_mask, is_causal)
        return self._residual(src, [(self.norm1, sa), (self.norm2, self._ff_block)])


class TransformerDecoderLayer(_Layer):
    """Attention of the target to itself, then to the encoder's output (memory), then a feed-forward
    block, each with a residual connection and LayerNorm (after each step, or before it with
    norm_first=True)."""
    _attentions = ("self_attn", "multihead_attn")

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, tgt_is_causal=False, memory_is_causal=False):
        sa = _attention_block(self.self_attn, self.dropout1, None, tgt_mask, tgt_key_padding_mask, tgt_is_causal)
        mha = _attention_block(self.multihead_attn, self.dropout2, memory, memory_mask, memory_key_padding_mask,
                               memory_is_causal)
        return self._residual(tgt, [(self.norm1, sa), (self.norm2, mha), (self.norm3, self._ff_block)])


def _stack(owner, layer, num_layers, norm):
    owner.layers = ModuleList([copy.deepcopy(layer) for _ in range(num_layers)])
    owner.num_layers = num_layers
    owner.norm = norm


class TransformerEncoder(Module):
    """num_layers copies of encoder_layer applied in turn, then `norm` if given."""

    def __init__(self, encoder_layer, num_layers, norm=None, enable_nested_tensor=True, mask_check=True):
        super().__init__()
        _stack(self, encoder_layer, num_layers, norm)
        self.enable_nested_tensor, self.mask_check = enable_nested_tensor, mask_check

    def forward(self, src, mask=None, src_key_padding_mask=None, is_causal=None):
        out = src
        for layer in self.layers:
            out = layer(out, src_mask=mask, src_key_padding_mask=src_key_padding_mask, is_causal=bool(is_causal))
        return out if self.norm is None else self.norm(out)


class TransformerDecoder(Module):
    """num_layers copies of decoder_layer applied in turn (each attending to memory), then `norm`."""

    def __init__(self, decoder_layer, num_layers, norm=None):
        super().__init__()
        _stack(self, decoder_layer, num_layers, norm)

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, tgt_is_causal=None, memory_is_causal=False):
        out = tgt
        for layer in self.layers:
            out = layer(out, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                        tgt_key_padding_mask=tgt_key_padding_mask, memory_key_padding_mask=memory_key_padding_mask,
                        tgt_is_causal=bool(tgt_is_causal), memory_is_causal=memory_is_causal)
        return out if self.norm is None else self.norm(out)


class Transformer(Module):
    """An encoder and a decoder of d_model features (each a stack of layers ending in LayerNorm);
    forward(src, tgt, ...) is the decoder's output for tgt over the encoded src."""

    def __init__(self, d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6, dim_feedforward=2048,
                 dropout=0.1, activation=F.relu, custom_encoder=None, custom_decoder=None, layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, bias=True, device=None, dtype=None):
        super().__init__()
        factory = {"device": device, "dtype": dtype}
        settings = (d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps, batch_first, norm_first,
                    bias)
        self.encoder = custom_encoder if custom_encoder is not None else TransformerEncoder(
            TransformerEncoderLayer(*settings, **factory), num_encoder_layers,
            LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory))
        self.decoder = custom_decoder if custom_decoder is not None else TransformerDecoder(
            TransformerDecoderLayer(*settings, **factory), num_decoder_layers,
            LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory))
        self.d_model, self.nhead, self.batch_first = d_model, nhead, batch_first
        for p in self.parameters():
            if p.dim() > 1:
                init.xavier_uniform_(p)

    def forward(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None, src_key_padding_mask=None,
                tgt_key_padding_mask=None, memory_key_padding_mask=None, src_is_causal=None, tgt_is_causal=None,
                memory_is_causal=False):
        batched = src.dim() == 3
        if not self.batch_first and src.shape[1] != tgt.shape[1] and batched:
            raise RuntimeError("the batch number of src and tgt must be equal")
        if self.batch_first and src.shape[0] != tgt.shape[0] and batched:
            raise RuntimeError("the batch number of src and tgt must be equal")
        if src.shape[-1] != self.d_model or tgt.shape[-1] != self.d_model:
            raise RuntimeError("the feature number of src and tgt must be equal to d_model")
        memory = self.encoder(src, mask=src_mask, src_key_padding_mask=src_key_padding_mask, is_causal=src_is_causal)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                            tgt_key_padding_mask=tgt_key_padding_mask,
                            memory_key_padding_mask=memory_key_padding_mask, tgt_is_causal=tgt_is_causal,
                            memory_is_causal=memory_is_causal)

    @staticmethod
    def generate_square_subsequent_mask(sz, device=None, dtype=None):
        """An (sz, sz) additive mask: 0 on and below the diagonal, -inf above (no looking ahead)."""
        return _fn.triu(_fn.full((sz, sz), float("-inf"), dtype=dtype, device=device), diagonal=1)
