"""Hand-written public functions of the number ops and small utilities whose arguments need
PyTorch's own handling: isin (a number on either side), broadcast_shapes and unravel_index (shapes,
not tensors), combinations (composed of indexing and stack, so its derivatives are theirs), msort
(sort's values), fill (PyTorch's out-of-place fill), scalar_tensor."""
import numpy

from .. import dtypes as _dt
from ..core.grad_mode import is_grad_enabled
from ..core.tensor import TensorBase as Tensor, Size, apply, array_module, make_tensor
from ..host_data import is_number
from ..ops import TABLE as _op
from .arguments import tensor_in
from .creation import full
from .surface import made

__all__ = ["isin", "broadcast_shapes", "unravel_index", "combinations", "msort", "fill", "scalar_tensor"]

_sort, _stack = made("sort"), made("stack")


_ISIN_FORMS = (("Tensor elements", "Tensor test_elements"), ("Number element", "Tensor test_elements"),
               ("Tensor elements", "Number test_element"))


def isin(elements, test_elements, *, assume_unique=False, invert=False):
    """Whether each element is among test_elements (or is not, with invert), as a bool tensor of
    elements' shape; either side may be a number. Compared in PyTorch's promoted dtype."""
    if not isinstance(elements, Tensor) and not isinstance(test_elements, Tensor) or \
            not all(isinstance(v, Tensor) or is_number(v) for v in (elements, test_elements)):
        got = ", ".join("Tensor" if isinstance(v, Tensor) else type(v).__name__ for v in (elements, test_elements))
        raise TypeError(f"isin() received an invalid combination of arguments - got ({got}), but expected one of:\n"
                        + "".join(f" * ({first}, {second}, *, bool assume_unique = False, bool invert = False, "
                                  f"Tensor out = None)\n" for first, second in _ISIN_FORMS))
    tensors = [v for v in (elements, test_elements) if isinstance(v, Tensor)]
    if any(t.array.dtype.kind == "b" for t in tensors) or any(v.__class__ is bool for v in (elements, test_elements)):
        raise RuntimeError("Unsupported input type encountered for isin(): Bool")
    a, b = (v.array if isinstance(v, Tensor) else v for v in (elements, test_elements))
    if len(tensors) == 2:
        common = _dt.promote(_dt.dtype_of(a), a.ndim, _dt.dtype_of(b), b.ndim).np
        a, b = a.astype(common, copy=False), b.astype(common, copy=False)
    device = tensors[0].device
    xp = array_module(device)
    return make_tensor(xp.isin(xp.asarray(a), xp.asarray(b), invert=bool(invert)), device)


def broadcast_shapes(*shapes):
    """The shape that tensors of all these shapes broadcast to, as a torch.Size (PyTorch's checks, dim by dim)."""
    shapes = [(s,) if isinstance(s, (int, numpy.integer)) else s for s in shapes if s is not None]
    for s in shapes:
        if not isinstance(s, (tuple, list)):
            raise RuntimeError(f"Input shapes should be of type ints, a tuple of ints, or a list of ints, got {s}")
    common = [1] * max((len(s) for s in shapes), default=0)
    for k, shape in enumerate(shapes):
        for i in range(-1, -1 - len(shape), -1):
            if shape[i] == common[i]:
                continue
            if common[i] == 1:
                if shape[i] < 0:
                    raise ValueError("Attempting to broadcast a dimension with negative length!")
                common[i] = shape[i]
            elif shape[i] != 1:
                raise RuntimeError(f"Attempting to broadcast a dimension of length {shape[i]} at {i}! Mismatching "
                                   f"argument at index {k} had {shape}; but expected shape should be broadcastable "
                                   f"to {common}")
    return Size(int(d) for d in common)


def unravel_index(indices, shape):
    """Flat indices as a tuple of coordinate tensors (int64) into an array of `shape`: PyTorch's
    (indices // stride) % size, so indices out of range wrap around."""
    indices = tensor_in(indices, "indices")
    if indices.array.dtype.kind not in "iu":
        raise TypeError(f"expected 'indices' to be integer dtype, but got {indices.dtype}")
    if isinstance(shape, (int, numpy.integer)) and not isinstance(shape, bool):
        shape = (int(shape),)
    elif not isinstance(shape, (tuple, list)):
        raise TypeError(f"expected 'shape' to be int or sequence of ints, but got {type(shape)}")
    for d in shape:
        if not isinstance(d, (int, numpy.integer)):
            raise TypeError(f"expected 'shape' sequence to only contain ints, but got {type(d)}")
    shape = tuple(int(d) for d in shape)
    if any(d < 0 for d in shape):
        raise ValueError(f"'shape' cannot have negative values, but got {shape}")
    if not shape:
        raise IndexError("tuple index out of range")  # (PyTorch's, from its strides of an empty shape)
    strides = numpy.cumprod((shape[1:] + (1,))[::-1])[::-1]
    if not strides.all() or not all(shape):
        raise RuntimeError("ZeroDivisionError")  # PyTorch's integer division by a zero size
    xp = array_module(indices.device)
    flat = indices.array.astype(numpy.int64)[..., None]
    coords = (flat // xp.asarray(strides)) % xp.asarray(shape, dtype=numpy.int64)
    return tuple(make_tensor(coords[..., k].copy(), indices.device) for k in range(len(shape)))


def combinations(input, r=2, with_replacement=False):
    """The length-r combinations of a 1-D tensor's elements (as itertools.combinations, or
    combinations_with_replacement), one per row, in lexicographic order of their positions; the
    gradient flows back through the indexing."""
    input = tensor_in(input)
    if input.array.ndim != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape {list(input.shape)}")
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return full((0,), 0, dtype=input.dtype, device=input.device)
    xp = array_module(input.device)
    n = input.array.shape[0]
    grid = xp.indices((n,) * r).reshape(r, -1)  # every r-tuple of positions, lexicographic
    steps = xp.diff(grid, axis=0)
    keep = xp.all(steps >= 0 if with_replacement else steps > 0, axis=0)
    chosen = grid[:, keep]
    return _stack([input[make_tensor(chosen[k], input.device)] for k in range(r)], 1)


def msort(input):
    """Input sorted along its first dim (sort(input, dim=0)'s values)."""
    return _sort(tensor_in(input), 0).values


def fill(input, value):
    """A tensor of input's shape and dtype filled with value (a number, or a 0-d tensor whose
    gradient is the sum of the result's); input gets a zero gradient."""
    input = tensor_in(input)
    if isinstance(value, Tensor):
        if value.array.ndim != 0:
            raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with "
                               f"{value.array.ndim} dimensions.")
        if value.requires_grad and not input.dtype.is_floating_point and is_grad_enabled():
            raise RuntimeError(f"Autograd not support dtype: {_dt.scalar_name(input.dtype)}")
        if value.dtype != input.dtype:  # (the row would promote input to value's dtype: the result keeps input's)
            value = value.to(dtype=input.dtype)
        return apply(_op["fill_value"], input, value)
    if not is_number(value):
        got = type(value).__name__
        raise TypeError(f"fill() received an invalid combination of arguments - got (Tensor, {got}), but expected "
                        f"one of:\n * (Tensor input, Tensor value)\n      didn't match because some of the arguments "
                        f"have invalid types: (Tensor, !{got}!)\n * (Tensor input, Number value)\n      didn't match "
                        f"because some of the arguments have invalid types: (Tensor, !{got}!)\n")
    return apply(_op["fill"], input, value=value, name="FillBackward0")


def scalar_tensor(s, *, dtype=None, layout=None, device=None, pin_memory=False, requires_grad=False):
    """A 0-d tensor holding the number s, in dtype (the default float dtype unless given)."""
    if isinstance(s, Tensor) and s.array.ndim == 0:
        s = s.item()
    if not is_number(s):
        raise TypeError(f"scalar_tensor(): argument 's' (position 1) must be Number, not {type(s).__name__}")
    return full((), s, dtype=dtype if dtype is not None else _dt.get_default_dtype(), device=device,
                requires_grad=requires_grad)


Tensor.msort = msort  # a method too (no row: it is sort's values)
