"""The public functions of the op table's everyday rows that need their own argument handling:
arithmetic (add with alpha, div, pow, clamp, where, lerp), reductions (sum, mean, max and min with
their results, norm, softmax, logsumexp, argmax, all, any), matrix products, shapes and views
(reshape, view, squeeze, transpose, permute, expand, cat, stack), indexing, filling and copying,
and `to` -- PyTorch's checks and messages first, then the row.

Errors are raised here, before any op runs, with PyTorch's wording where it has one, so a user
sees a message about their call rather than numpy's.
"""
from collections import namedtuple

import numpy

from .. import backend as _backend
from .. import dtypes as _dt
from ..core.inplace import inplace
from ..core.tensor import (TensorBase, apply, make_tensor, array_module, wrap_dim,
                           check_broadcastable, storage_of)
from ..host_data import is_number as _is_number
from ..ops import TABLE as _op, is_basic_key as _is_basic_key
from .arguments import as_tensor_like, operands, tensor_in, dims_text, shape_args, t_dims, index_key, checked_index
from .arguments import checked, not_a_tensor, number_argument
from ..ops.shapes import infer_shape
from .creation import _filled
from ..generator import numpy_draws
from .surface import made

__all__ = [
    "allclose",
    "bernoulli", "bernoulli_", "broadcast_to", "clamp_max", "clamp_min", 
    "copy_", "detach", "dot", "equal", "fill_", "flatten", "getitem",
    "is_floating_point", "is_tensor", "isclose", "linear", "matmul",
    "mm", "mv", "numel", "outer", 
    "setitem", "square", 
    "swapaxes", "t", "to", "view", "zero_"
]

# functions the rows give by themselves (surface.py), which these build on
mul, reciprocal, clone, maximum, minimum, reshape, transpose, expand, cat, unsqueeze, pow, clamp = (made(n) for n in (
    "mul", "reciprocal", "clone", "maximum", "minimum", "reshape", "transpose", "expand", "cat", "unsqueeze", "pow",
    "clamp"))

Tensor = TensorBase  # (every tensor is one: the public class derives from it)


def bernoulli(input, p=None, generator=None):
    """1 with probability p (the input's values), else 0, elementwise (no gradient reaches p).

    1 with probability `input` (or p), else 0, elementwise; the result has input's dtype."""
    input = tensor_in(input, "input", "bernoulli", 1)
    if p is not None:
        p = number_argument("bernoulli", "p", p, 2)
    probs = input if p is None else _filled((tuple(input.shape),), p, input.dtype, input.device, False)
    out = apply(_op["bernoulli"], probs, draws=_uniform_like(input).astype(input.array.dtype))
    return out if p is None else out.detach()


def bernoulli_(input, p=0.5, generator=None):
    """In place, PyTorch's Tensor.bernoulli_: each element 1 with probability p (0.5 unless given;
    a number, or a tensor of them that broadcasts to input), else 0, in input's dtype. The old values'
    history ends here: no gradient flows back through them (PyTorch's BernoulliBackward2; 1 for a
    tensor p)."""
    input = tensor_in(input)
    if isinstance(p, Tensor):
        probs, name = p.array, "BernoulliBackward1"
        check_broadcastable(input.array.shape, probs.shape)
    else:
        if not 0 <= p <= 1:
            raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p}")
        probs, name = p, "BernoulliBackward2"
    return refill(input, (_uniform_like(input) < probs).astype(input.array.dtype), name)


def _uniform_like(input):
    """Uniform draws in [0, 1) of input's shape on its device, from the engine's generator (bernoulli's)."""
    return _backend.backend_for(input.device).from_host(numpy_draws().random(input.array.shape))


def refill(input, values, name):
    """input <- `values` (an array of input's shape, from a random draw), in place, with a node named
    `name` that passes no gradient back: PyTorch's uniform_, normal_ and bernoulli_ (their new values
    depend on nothing, and the old ones no longer matter)."""
    return inplace(input, _fill, values, name=name)


def _binary(op, a, b):
    a, b = operands(a, b)
    return apply(op, a, b)


# ----------------------------------------------------------------- arithmetic

def square(input):
    """Input ** 2, elementwise."""
    return pow(tensor_in(input), 2)


def clamp_min(input, min):
    """Each element at least min."""
    if isinstance(min, Tensor):
        return _op["clamp_tensors"].call(tensor_in(input), min, None, "ClampMinBackward1")
    return apply(_op["clamp"], tensor_in(input), min=number_argument("clamp_min", "min", min, 2), name="ClampMinBackward0")


def clamp_max(input, max):
    """Each element at most max."""
    if isinstance(max, Tensor):
        return _op["clamp_tensors"].call(tensor_in(input), None, max, "ClampMaxBackward1")
    return apply(_op["clamp"], tensor_in(input), max=number_argument("clamp_max", "max", max, 2), name="ClampMaxBackward0")


# ----------------------------------------------------------------- reductions

class _ValuesIndices(namedtuple("_ValuesIndices", ["values", "indices"])):
    """(stats.py's result classes derive from it until their rows carry result types)"""
    __slots__ = ()
    kind = "max"

    def __repr__(self):
        return f"torch.return_types.{self.kind}(\nvalues={self.values!r},\nindices={self.indices!r})"


def equal(input, other):
    """True when both have the same shape and values."""
    a, b = tensor_in(input), tensor_in(other)
    return a.array.shape == b.array.shape and bool((a.array == b.array).all())


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    a, b = tensor_in(input), tensor_in(other)
    rtol, atol = checked(rtol, "float", "allclose", "rtol"), checked(atol, "float", "allclose", "atol")
    return bool(array_module(a.device).allclose(a.array, b.array, rtol=rtol, atol=atol, equal_nan=equal_nan))


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    a, b = tensor_in(input), tensor_in(other)
    rtol, atol = checked(rtol, "float", "isclose", "rtol"), checked(atol, "float", "isclose", "atol")
    return make_tensor(array_module(a.device).isclose(a.array, b.array, rtol=rtol, atol=atol, equal_nan=equal_nan), a.device)


# ------------------------------------------------------------ linear algebra


def matmul(input, other):
    """The matrix product a @ b (vectors, matrices, batches broadcast)."""
    a, b = tensor_in(input), as_tensor_like(other, input)
    if a.array.ndim == 0 or b.array.ndim == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are "
                           f"{a.array.ndim}D and {b.array.ndim}D")
    inner_a = a.array.shape[-1]
    inner_b = b.array.shape[0] if b.array.ndim == 1 else b.array.shape[-2]
    if inner_a != inner_b:
        if a.array.ndim <= 2 and b.array.ndim == 2:
            lhs = dims_text(a) if a.array.ndim == 2 else f"1x{inner_a}"
            raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({lhs} and {dims_text(b)})")
        raise RuntimeError(f"size mismatch: got {list(a.shape)} @ {list(b.shape)} "
                           f"({inner_a} != {inner_b} in the contracted dimension)")
    if a.array.ndim > 2 or b.array.ndim > 2:
        check_broadcastable(a.array.shape[:-2], b.array.shape[:-2] if b.array.ndim > 1 else ())
    return apply(_op["matmul"], a, b)


def mm(input, mat2):
    """The product of two matrices."""
    a, b = tensor_in(input), as_tensor_like(mat2, input)
    if a.array.ndim != 2:
        raise RuntimeError(f"self must be a matrix (mm needs 2-D tensors, got {a.array.ndim}-D)")
    if b.array.ndim != 2:
        raise RuntimeError(f"mat2 must be a matrix (mm needs 2-D tensors, got {b.array.ndim}-D)")
    return matmul(a, b)


def mv(input, vec):
    """The product of a matrix and a vector."""
    a, b = tensor_in(input), as_tensor_like(vec, input)
    if a.array.ndim != 2 or b.array.ndim != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got {a.array.ndim}, {b.array.ndim}")
    return matmul(a, b)


def dot(input, other):
    """The dot product of two vectors."""
    a, b = tensor_in(input), as_tensor_like(other, input)
    if a.array.ndim != 1 or b.array.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {a.array.ndim}D and {b.array.ndim}D tensors")
    if a.array.shape != b.array.shape:
        raise RuntimeError(f"inconsistent tensor size, expected tensor [{a.array.shape[0]}] and src "
                           f"[{b.array.shape[0]}] to have the same number of elements, but got "
                           f"{a.array.shape[0]} and {b.array.shape[0]} elements respectively")
    return matmul(a, b)


def outer(input, vec2):
    a, b = tensor_in(input), as_tensor_like(vec2, input)
    return mul(unsqueeze(a, 1), b)


def linear(input, weight, bias=None):
    """X @ W.T + b, a linear layer.

    input @ weight.T + bias, as torch.nn.functional.linear."""
    x, w = tensor_in(input), as_tensor_like(weight, input)
    if w.array.ndim != 2:
        raise RuntimeError(f"linear: weight must be 2-D (out_features x in_features), got {list(w.shape)}")
    if x.array.ndim == 0 or x.array.shape[-1] != w.array.shape[1]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied "
                           f"({dims_text(x) if x.array.ndim > 1 else '1x' + str(x.array.shape[-1] if x.array.ndim else 1)}"
                           f" and {w.array.shape[1]}x{w.array.shape[0]})")
    if bias is None:
        return apply(_op["linear"], x, w)
    b = as_tensor_like(bias, input)
    check_broadcastable(x.array.shape[:-1] + (w.array.shape[0],), b.array.shape)
    return apply(_op["linear"], x, w, b)


# --------------------------------------------------------------------- shapes


def view(input, *shape):
    """A view with a new shape (it must share memory with the input).

    reshape() that must share memory with `input` (PyTorch's error where it can't)."""
    input = tensor_in(input)
    shape = infer_shape(shape_args(shape), input.array.size)
    array = storage_of(input)
    # reshape copies exactly when no view can be made (numpy 2.5 deprecates setting .shape to ask)
    if array.size and not array_module(input.device).may_share_memory(array.reshape(shape), array):
        raise RuntimeError("view size is not compatible with input tensor's size and stride (at least one "
                           "dimension spans across two contiguous subspaces). Use .reshape(...) instead.")
    return apply(_op["reshape"], input, shape=shape)


def flatten(input, start_dim=0, end_dim=-1):
    """The dims from start_dim to end_dim merged into one."""
    input = tensor_in(input)
    nd = input.array.ndim
    if nd == 0:
        return reshape(input, (1,))
    s, e = wrap_dim(start_dim, nd), wrap_dim(end_dim, nd)
    if s > e:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    shape = input.array.shape
    merged = 1
    for n in shape[s:e + 1]:
        merged *= n  # (not -1: a zero-size dim elsewhere leaves -1 undetermined)
    return reshape(input, shape[:s] + (merged,) + shape[e + 1:])


def swapaxes(input, axis0, axis1):
    """The same as transpose: two dims swapped."""
    return transpose(input, axis0, axis1)


def t(input):
    """The transpose of a matrix (a view)."""
    input = tensor_in(input)
    return apply(_op["transpose"], input, **t_dims(input, "t"), name="TBackward0")


def broadcast_to(input, size):
    """The same as expand: broadcast to a shape."""
    return expand(input, size)




# ------------------------------------------------------------------- indexing


def getitem(input, key):
    key = index_key(input, key)
    checked_index(input, key)
    try:
        return apply(_op["getitem"], input, key=key)
    except IndexError as e:
        raise IndexError(str(e).replace("array", "tensor")) from None


def setitem(input, key, value):
    """`input[key] = value`, in place: through a view of `input` for a basic key
    (CopySlices on `input`), as index_put_ for a key with index arrays."""
    key = index_key(input, key)
    checked_index(input, key)
    if not _is_number(value):
        value = as_tensor_like(value, input)
        try:
            region = input.array[key].shape
        except IndexError as e:
            raise IndexError(str(e).replace("array", "tensor")) from None
        if value.array.shape != region:
            check_broadcastable(region, value.array.shape)
            if value.array.ndim > len(region):
                raise RuntimeError(f"shape mismatch: value tensor of shape {list(value.shape)} cannot be "
                                   f"broadcast to indexing result of shape {list(region)}")
    if _is_basic_key(key):
        view = apply(_op["getitem"], input, key=key)
        inplace(view, _fill if _is_number(value) else _copy, value)
    else:
        inplace(input, _index_put, value, key)


def _index_put(input, value, key):
    return apply(_op["index_put"], input, value, key=key)


# ------------------------------------------------------- in place (see inplace.py)

def _fill(input, value, name="FillBackward2"):
    if isinstance(value, Tensor):
        if value.array.size != 1:
            raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with "
                               f"{value.array.ndim} dimensions.")
        return apply(_op["copy"], input, reshape(value, ()), name="FillBackward3")
    return apply(_op["fill"], input, value=value, name=name)


def _copy(input, src):
    src = src if isinstance(src, Tensor) or _is_number(src) else as_tensor_like(src, input)
    if isinstance(src, Tensor) and src.array.shape != input.array.shape:
        check_broadcastable(input.array.shape, src.array.shape)
    return apply(_op["copy"], input, src)


def fill_(input, value):
    if not isinstance(input, TensorBase):
        raise not_a_tensor(input, "fill_", "input", 1)
    if not isinstance(value, TensorBase):  # (a tensor value is fill's own row, differentiable in it)
        value = number_argument("fill_", "value", value, 2)
    return inplace(input, _fill, value)


def zero_(input):
    if not isinstance(input, TensorBase):
        raise not_a_tensor(input, "zero_", "input", 1)
    return inplace(input, _fill, 0, name="ZeroBackward0")


def copy_(input, src):
    if not isinstance(input, TensorBase):
        raise not_a_tensor(input, "copy_", "input", 1)
    return inplace(input, _copy, src)


# ---------------------------------------------------------------- conversion

def detach(input):
    return tensor_in(input).detach()


def to(input, *args, device=None, dtype=None, copy=False, non_blocking=False, memory_format=None):
    """to(device), to(dtype), to(device, dtype), to(other_tensor), each followed by PyTorch's positional
    non_blocking and copy flags if given."""
    if _dt.check_memory_format(memory_format, "to", tensor_in(input).dim()):
        copy = True  # (PyTorch's layout is channels-last, a copy; see MemoryFormat)
    flags = [a for a in args if isinstance(a, bool)]
    if flags and (len(flags) > 2 or args[len(args) - len(flags):] != tuple(flags)):
        raise TypeError(f"to() received an invalid combination of arguments: {args!r}")
    if flags:  # to(..., non_blocking, copy)
        args = args[:len(args) - len(flags)]
        non_blocking = flags[0]
        copy = flags[1] if len(flags) == 2 else copy
    for a in args:
        if isinstance(a, Tensor):
            device, dtype = a.device, a.dtype
        elif isinstance(a, (_dt.DType, type)) or (isinstance(a, str) and _is_dtype_name(a)):
            dtype = a
        elif isinstance(a, (str, _backend.Device)):
            device = a
        elif a is not None:
            raise TypeError(f"to() got an unexpected argument {a!r}")
    out = input
    if dtype is not None:
        d = _dt.as_dtype(dtype)
        if d.np != out.array.dtype:
            out = apply(_op["to_dtype"], out, dtype=d.np)
            if out._rg and d.np.kind not in "fc":  # integers and bools carry no gradient: no history (PyTorch's)
                out = make_tensor(out.array, out.device)
    if device is not None:
        dev = _backend.device(device)
        if dev is not out.device:
            _backend.backend_for(dev)  # a clear error if the device cannot be used
            out = apply(_op["to_device"], out, device=dev, source=out.device)
    if copy and out is input:  # a copy in the same dtype and place: PyTorch's _to_copy (ToCopyBackward0)
        out = apply(_op["to_dtype"], input, dtype=input.array.dtype)
    return out


def _is_dtype_name(s):
    return (s[6:] if s.startswith("torch.") else s) in _dt.BY_NAME


def numel(input):
    return tensor_in(input).numel()


def is_tensor(obj):
    return isinstance(obj, Tensor)


def is_floating_point(input):
    return tensor_in(input).is_floating_point()


# ---------------------------------------------------- generated from the op table
# Each row names its public functions; those with a `wrapper` are made here,
# the rest are written above. Every function's first parameter is the tensor
# it works on, so it serves as the Tensor method of the same name as it is;
# the in-place variants are made here too. An op with PyTorch's name needs
# nothing but its row.
