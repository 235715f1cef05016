"""The argument handling the public functions share: operands as tensors (numbers and lists made
tensors where PyTorch takes them), dims and shapes checked with PyTorch's messages, index keys.
"""
import builtins

import numpy

from .. import backend as _backend
from ..core.tensor import TensorBase as Tensor, array_module
from ..host_data import is_number as _is_number
from ..ops.table import dims_text, reduction_dims, result_dtype  # noqa: F401  (for the functions)
from .creation import tensor
from ..ops.arithmetic import not_a_tensor, number_argument  # noqa: F401  (not_a_tensor: for the functions)


def as_tensor_like(x, like):
    """A Tensor for `x` (lists, arrays, numbers) on the device of `like`."""
    if isinstance(x, Tensor):
        return x
    return tensor(x, device=like.device if isinstance(like, Tensor) else None)


def operands(*values, named=None):
    """Several operands of one op: tensors stay, Python numbers stay (weakly typed, PyTorch's wrapped
    scalars) where one of them is a tensor, None stays (an optional one left out), the rest -- lists,
    arrays -- become tensors on the first tensor's device (the first value itself when none is one).
    `named`, (function name, ((parameter name, position), ...)), marks them all required: anything
    that is none of these (None, a string) is PyTorch's TypeError naming the parameter."""
    if named is not None:
        for v, (name, position) in zip(values, named[1]):
            if not (isinstance(v, (Tensor, list, tuple, numpy.ndarray)) or _is_number(v)):
                raise not_a_tensor(v, named[0], name, position)
    like = None
    for v in values:
        if isinstance(v, Tensor):
            like = v
            break
    if like is None:
        like = as_tensor_like(values[0], None)
        values = (like,) + values[1:]
    return tuple(v if v is None or isinstance(v, Tensor) or _is_number(v) else tensor(v, device=like.device)
                 for v in values)


def tensor_in(x, name="input", fname=None, position=None):
    """`x` as a tensor: numbers, lists and arrays made one; anything else refused (in PyTorch's words
    where the function's name and the parameter's position are given)."""
    if isinstance(x, Tensor):
        return x
    if _is_number(x) or isinstance(x, (list, tuple, numpy.ndarray)):
        return tensor(x)
    if fname is not None:
        raise not_a_tensor(x, fname, name, position)
    raise TypeError(f"{name} must be a tensor, not {type(x).__name__}")





def both_tensors(a, b):
    if not isinstance(a, Tensor):
        a = as_tensor_like(a, b)
    if not isinstance(b, Tensor):
        b = as_tensor_like(b, a)
    return a, b


def shape_args(shape, fname="view", name="size"):
    """A shape given as several whole numbers or as one sequence of them (a one-element integer
    tensor counts as one), or PyTorch's TypeError."""
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    for s in shape:
        if s.__class__ is not int and not _whole_number(s):
            raise TypeError(f"{fname}(): argument '{name}' must be tuple of ints, but found element of type "
                            f"{type(s).__name__}")
    return tuple(int(s.item()) if isinstance(s, Tensor) else int(s) for s in shape)


def t_dims(input, name):
    """t()'s dims: 0 and 1 of a matrix, nothing to swap in a vector or a number (still a new view)."""
    nd = input.array.ndim
    if nd > 2:
        raise RuntimeError(f"{name}() expects a tensor with <= 2 dimensions, but self is {nd}D")
    return {"dim0": 0, "dim1": 1 if nd == 2 else 0}


def tensor_list(tensors, fname, name="tensors", position=1, empty=None):
    """A Tensor[] argument (the `position`-th, from 1) as a list: a list or tuple of tensors and
    nothing else -- a tensor, a number or a nested list in it is PyTorch's TypeError, an empty one
    its error `empty` (fname(): expected a non-empty list of Tensors, unless given)."""
    if not isinstance(tensors, (list, tuple)):
        raise TypeError(f"{fname}(): argument '{name}' (position {position}) must be tuple of Tensors, "
                        f"not {type(tensors).__name__}")
    items = tensor_items(tensors, position - 1)
    if not items:
        raise empty or RuntimeError(f"{fname}(): expected a non-empty list of Tensors")
    return items


def tensor_items(items, argument=0):
    """`items` as a list, each a tensor, or PyTorch's TypeError naming the first that is not (and
    the argument, counted from 0, that holds them)."""
    for i, t in enumerate(items):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument {argument}, but got {type(t).__name__}")
    return list(items)


def index_key(x, key):
    """A tuple key of ints, slices, None, Ellipsis and backend index arrays."""
    if not isinstance(key, tuple):
        key = (key,)
    xp = array_module(x.device)
    out = []
    for k in key:
        if k is None or k is Ellipsis or isinstance(k, slice):
            if isinstance(k, slice):
                k = slice(*(None if v is None else index_int(v) for v in (k.start, k.stop, k.step)))
                if k.step is not None and k.step <= 0:
                    raise ValueError("step must be greater than zero")
            out.append(k)
        elif isinstance(k, (bool, numpy.bool_)):
            out.append(xp.asarray(bool(k)))
        elif isinstance(k, (int, numpy.integer)):
            out.append(int(k))
        elif isinstance(k, Tensor):
            if k.array.dtype.kind not in "iub":
                raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
            if k.device is not x.device:
                raise RuntimeError(f"indices should be on the same device as the indexed tensor ({x.device}), "
                                   f"got {k.device}")
            out.append(int(k.array) if k.array.ndim == 0 and k.array.dtype.kind in "iu" else k.array)
        elif isinstance(k, (list, numpy.ndarray)):
            arr = numpy.asarray(k)
            if arr.dtype.kind not in "iub":
                raise IndexError("only integers, slices, None, ..., and integer or boolean lists/tensors "
                                 "are valid indices")
            out.append(_backend.backend_for(x.device).from_host(arr))
        else:
            raise IndexError(f"only integers, slices (`:`), ellipsis (`...`), None and integer or boolean "
                             f"tensors are valid indices (got {type(k).__name__})")
    return tuple(out)


def index_int(v):
    if isinstance(v, Tensor):
        return int(v.item())
    if isinstance(v, (bool, numpy.bool_)) or not isinstance(v, (int, numpy.integer)):
        raise TypeError(f"slice indices must be whole numbers, got {v!r}")
    return int(v)


def checked_index(x, key):
    """Run numpy's indexing once to raise PyTorch-style errors before recording anything."""
    nd = x.array.ndim
    used = 0
    for k in key:
        if isinstance(k, int):
            if used >= nd:
                raise IndexError(f"too many indices for tensor of dimension {nd}")
            size = x.array.shape[used]
            if not -size <= k < size:
                raise IndexError(f"index {k} is out of bounds for dimension {used} with size {size}")
            used += 1
        elif isinstance(k, slice):
            used += 1
        elif k is None or k is Ellipsis:
            continue
        else:
            used += builtins.max(k.ndim, 1) if k.dtype.kind == "b" else 1
    if used > nd:
        raise IndexError(f"too many indices for tensor of dimension {nd}")


def _whole_number(value):
    """Whether `value` stands for an int argument: an int (not a bool), a numpy integer, an integer
    tensor of one element."""
    return (not isinstance(value, bool) and isinstance(value, (int, numpy.integer))) or (
        isinstance(value, Tensor) and value.array.dtype.kind in "iu" and value.array.size == 1)


def int_of(value, name):
    """`value` as an int where it stands for one (an int, a numpy integer, a one-element integer
    tensor), else a TypeError naming the argument -- for the layers' sizes (kernel_size, padding,
    num_groups, ...), where int() took '3' and 2.5 and worded the rest in Python's terms."""
    if value.__class__ is int:
        return value
    if _whole_number(value):
        return int(value.item()) if isinstance(value, Tensor) else int(value)
    raise TypeError(f"argument '{name}' must be int, not {type(value).__name__}")


def int_sequence(value, name):
    """A sequence argument of ints (a list or tuple of them, or one int standing alone) as a list."""
    if not isinstance(value, (list, tuple)):
        if value.__class__ is not int and not _whole_number(value):
            raise TypeError(f"argument '{name}' must be int or tuple of ints, not {type(value).__name__}")
        return [int_of(value, name)]
    for v in value:
        if v.__class__ is not int and not _whole_number(v):
            raise TypeError(f"argument '{name}' must be tuple of ints, but found element of type {type(v).__name__}")
    return [int_of(v, name) for v in value]


def checked(value, what, fname, name, position=None):
    """An argument of PyTorch type `what` ("int", "tuple of ints", "float", "str", "Number") as the function
    takes it -- a whole number of another kind (numpy's, an integer tensor of one element) as an int,
    a list as a tuple, an int as a float -- or PyTorch's TypeError (naming the argument's position,
    from 1, where given)."""
    where = f" (position {position})" if position is not None else ""
    if what == "int" or what == "tuple of ints":
        if what == "tuple of ints" and isinstance(value, (list, tuple)):
            for v in value:
                if v.__class__ is not int and not _whole_number(v):
                    raise TypeError(f"{fname}(): argument '{name}'{where} must be tuple of ints, but found element of type "
                                    f"{type(v).__name__}")
            return tuple(v if v.__class__ is int else checked(v, "int", fname, name) for v in value)
        if _whole_number(value):
            return int(value.item()) if isinstance(value, Tensor) else int(value)
    elif what == "float":
        if not isinstance(value, bool) and isinstance(value, (int, float, numpy.integer, numpy.floating)):
            return float(value)
        if isinstance(value, Tensor) and value.array.size == 1:
            return float(value.item())
    elif what == "str" and isinstance(value, str):
        return value
    elif what == "Number":  # (a Scalar: taken as it is -- a number, a numpy one, a tensor of one element)
        return number_argument(fname, name, value, position)
    raise TypeError(f"{fname}(): argument '{name}'{where} must be {what}, not {type(value).__name__}")
