"""torch.nn.functional's layer_norm and embedding, with PyTorch's checks and messages, over the
rows of engine/ops/normalization.py (re-exported by nn/functional.py)."""
import numpy

from ..functions.arguments import tensor_in
from ..functions.native_norms import layer_norm_checked
from ..core.grad_mode import no_grad
from ..ops import TABLE as _op
from ..core.tensor import apply, array_module
from ..tensor_class import Tensor

__all__ = ["layer_norm", "embedding"]


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """input normalized over its last dims (normalized_shape): mean 0 and variance 1 there (the
    biased variance, eps added), then times weight and plus bias when given."""
    return layer_norm_checked(tensor_in(input), normalized_shape, weight, bias, eps, "layer_norm")


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
              sparse=False):
    """The rows of weight (num_embeddings, dim) at the indices `input` (of any shape):
    input.shape + (dim,). No gradient reaches the row padding_idx; max_norm renormalizes the rows
    used, in place, to that norm at most (as PyTorch, under no_grad)."""
    indices = tensor_in(input)
    if not isinstance(weight, Tensor):
        raise TypeError(f"embedding(): argument 'weight' (position 2) must be Tensor, not {type(weight).__name__}")
    if padding_idx is not None:
        n = weight.shape[0]
        if padding_idx > 0:
            if padding_idx >= n:
                raise AssertionError("Padding_idx must be within num_embeddings")
        elif padding_idx < 0:
            if padding_idx < -n:
                raise AssertionError("Padding_idx must be within num_embeddings")
            padding_idx = n + padding_idx
    if sparse:
        raise NotImplementedError("embedding(): sparse=True (sparse gradients) is not available here")
    if weight.array.ndim != 2:
        raise RuntimeError("'weight' must be 2-D")
    kind = indices.array.dtype
    if kind not in (numpy.int64, numpy.int32):
        raise RuntimeError(f"Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                           f"Long, Int; but got {indices.type()} instead (while checking arguments for embedding)")
    values = indices.array
    n = weight.array.shape[0]
    if values.size and (int(values.min()) < 0 or int(values.max()) >= n):
        raise IndexError("index out of range in self")
    if max_norm is not None:
        _renorm_rows(weight, values, float(max_norm), float(norm_type))
    params = {}
    if padding_idx is not None:
        params["padding_idx"] = int(padding_idx)
    if scale_grad_by_freq:
        params["scale_grad_by_freq"] = True
    return apply(_op["embedding"], weight, indices=values, **params)


def _renorm_rows(weight, indices, max_norm, norm_type):
    """PyTorch's embedding_renorm_: each row used whose norm exceeds max_norm is scaled by
    max_norm / (norm + 1e-7), in place, recording nothing."""
    rows = array_module(weight.device).unique(indices.reshape(-1))
    with no_grad():
        norms = weight[rows].norm(norm_type, 1)
        over = norms.array > max_norm
        if bool(over.any()):
            chosen = rows[over]
            weight[chosen] = weight[chosen] * (max_norm / (norms[over] + 1e-7)).unsqueeze(1)
