"""Python data -- numbers, nested lists, numpy arrays, tensors -- as a host (numpy) array, with
PyTorch's messages for what cannot be one (rows of different lengths, whole numbers beyond int64,
strings). torch.tensor builds on it, and so does the core where a user's weights arrive as lists."""
import itertools

import numpy

__all__ = ["host_array_of", "is_number", "ragged_error", "INT_OVERFLOW"]

_NUMBER_TYPES = (int, float, bool, numpy.number, numpy.bool_)


def is_number(x):
    """Whether x is a Python or numpy number (bools included)."""
    return isinstance(x, _NUMBER_TYPES)


def ragged_error(data):
    """PyTorch's message for a list whose rows differ in length, found without recursion
    (where a number stands beside a list, the message says which is where)."""
    level = [data]
    dim = 0
    while level:
        lengths = [len(x) if isinstance(x, (list, tuple)) else None for x in level]
        first = lengths[0]
        for n in lengths:
            if n != first:
                if first is None or n is None:
                    return ValueError(f"expected {'a number' if first is None else f'a sequence of length {first}'}"
                                      f" at dim {dim} (got {'a number' if n is None else f'a sequence of length {n}'})")
                return ValueError(f"expected sequence of length {first} at dim {dim} (got {n})")
        if first is None:
            break
        level = [y for x in level for y in x]
        dim += 1
    return ValueError("could not build a tensor from this data")


MAX_NESTING = 32  # numpy's most dimensions (1.x): a list nested deeper is no tensor


def check_nesting(data):
    """Refuse a list nested deeper than a tensor can be -- one that holds itself would have numpy
    walk it without end -- looking level by level, without recursion."""
    level = [data]
    for _ in range(MAX_NESTING):
        items = list(itertools.chain.from_iterable(level))
        if not any(issubclass(k, (list, tuple)) for k in set(map(type, items))):
            return
        level = [x for x in items if isinstance(x, (list, tuple))]
    raise ValueError(f"a list nested more than {MAX_NESTING} deep is not a tensor (does it contain itself?)")


def host_array_of(data):
    """Nested lists / numbers / numpy arrays to a numpy array (float lists to float64)."""
    if isinstance(data, numpy.ndarray):
        return data
    if hasattr(data, "__array__") and not isinstance(data, (list, tuple)):  # a tensor (its own host copy)
        return numpy.asarray(data)
    if isinstance(data, (list, tuple)):
        check_nesting(data)
        try:
            arr = numpy.array(data)
        except (ValueError, OverflowError):
            if has_huge_int(data):
                raise ValueError(INT_OVERFLOW) from None
            raise ragged_error(data) from None
        if arr.dtype == object or arr.dtype == numpy.uint64 or (
                arr.dtype.kind == "f" and arr.size and numpy.abs(arr).max() >= 2.0 ** 63):
            # whole numbers only, one beyond int64: PyTorch's overflow (numpy would wrap or round it)
            if has_huge_int(data) and not has_float(data):
                raise ValueError(INT_OVERFLOW)
            if arr.dtype == object:
                raise ragged_error(data)
    elif is_number(data):
        if isinstance(data, int) and not -2 ** 63 <= data < 2 ** 63:
            raise ValueError(INT_OVERFLOW)
        arr = numpy.array(data)
    else:
        raise TypeError(f"can't make a tensor from {type(data).__name__}; use numbers or nested lists of numbers")
    if arr.dtype.kind not in "biuf":
        what = {"U": "strings", "S": "bytes", "c": "complex numbers", "M": "dates", "m": "time spans"}.get(
            arr.dtype.kind, "these values")
        raise TypeError(f"can't make a tensor from {what}: only numbers and booleans")
    return arr


INT_OVERFLOW = "Overflow when unpacking long long"  # PyTorch's words for a whole number beyond int64


def has_float(data):
    stack = [data]
    while stack:
        for x in stack.pop():
            if isinstance(x, (list, tuple)):
                stack.append(x)
            elif isinstance(x, float):
                return True
    return False


def has_huge_int(data):
    """Whether nested lists hold a Python int outside int64 (walked with a stack)."""
    stack = [data]
    while stack:
        for x in stack.pop():
            if isinstance(x, (list, tuple)):
                stack.append(x)
            elif isinstance(x, int) and not isinstance(x, bool) and not -2 ** 63 <= x < 2 ** 63:
                return True
    return False
