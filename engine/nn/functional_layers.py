"""torch.nn.functional's layer_norm and embedding, with PyTorch's checks and messages, over the
rows of engine/ops/normalization.py (re-exported by nn/functional.py)."""
import numpy

from .. import dtypes as _dt
from ..functions.arguments import tensor_in
from ..core.grad_mode import no_grad
from ..ops import TABLE as _op
from ..core.tensor import apply, array_module
from ..tensor_class import Tensor

__all__ = ["layer_norm", "embedding"]


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """input normalized over its last dims (normalized_shape): mean 0 and variance 1 there (the
    biased variance, eps added), then times weight and plus bias when given."""
    x = tensor_in(input)
    if isinstance(normalized_shape, (int, numpy.integer)) and not isinstance(normalized_shape, bool):
        raise TypeError(f"layer_norm(): argument 'normalized_shape' (position 2) must be tuple of ints, not "
                        f"{type(normalized_shape).__name__}")
    shape = [int(s) for s in normalized_shape]
    if not shape:
        raise RuntimeError("Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one "
                           "element, but got normalized_shape = []")
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and list(t.shape) != shape:
            raise RuntimeError(f"Expected {name} to be of same shape as normalized_shape, but got {name} of shape "
                               f"{list(t.shape)} and normalized_shape = {shape}")
    got = list(x.array.shape)
    if len(got) < len(shape) or got[len(got) - len(shape):] != shape:
        star = ", ".join(["*"] + [str(s) for s in shape])
        raise RuntimeError(f"Given normalized_shape={shape}, expected input with shape [{star}], but got input of "
                           f"size{got}")
    if x.array.dtype.kind != "f":
        raise NotImplementedError(f"\"LayerNormKernelImpl\" not implemented for '{_dt.scalar_name(x.dtype)}'")
    return apply(_op["layer_norm"], x, 1.0 if weight is None else weight, 0.0 if bias is None else bias,
                 normalized=len(shape), eps=float(eps))


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
