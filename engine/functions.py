"""The public functions, with PyTorch's signatures: argument checking and
conversion in front of the op table. Tensor methods call these.

Errors are raised here, before any op runs, with PyTorch's wording where it
has one, so a user sees a message about their call rather than numpy's.
"""
import builtins
import itertools as _itertools
import math
from collections import namedtuple

import numpy

from . import backend as _backend
from . import dtypes as _dt
from . import ranges as _ranges
from .generator import Mersenne
from .grad_mode import is_grad_enabled
from .ops import TABLE
from .tensor import Tensor, Size as _Size, apply, run_op, _make, _NO_PARAMS, _xp, _dim, _broadcast_check, _storage
from .inplace import inplace
from .ops import is_basic_key as _is_basic_key

_op = TABLE
_number_types = (int, float, bool, numpy.number, numpy.bool_)


def _is_number(x):
    return isinstance(x, _number_types)


# ------------------------------------------------------------------ creation

_allocation_limit = [1 << 34]  # bytes; an absurd request is an error, not a frozen machine


class AllocationRefused(MemoryError):
    """A tensor larger than the allocation limit was asked for (its size, shape and the limit
    are kept, so a caller with a budget of its own can word the error in its terms)."""

    def __init__(self, nbytes, shape, limit):
        super().__init__(f"refusing to allocate {_human_bytes(nbytes)} for a tensor of shape {list(shape)} "
                         f"(limit {_human_bytes(limit)})")
        self.nbytes, self.shape, self.limit = nbytes, tuple(shape), limit


def set_allocation_limit(nbytes):
    """The largest tensor creation functions will make, in bytes."""
    _allocation_limit[0] = int(nbytes)


def allocation_limit():
    return _allocation_limit[0]


def _check_allocation(shape, dtype):
    n = 1
    for s in shape:
        n *= s
    nbytes = n * dtype.itemsize
    if nbytes > _allocation_limit[0]:
        raise AllocationRefused(nbytes, shape, _allocation_limit[0])


def _human_bytes(n):
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if n < 1024 or unit == "PiB":
            return f"{n:.1f} {unit}" if unit != "B" else f"{n} B"
        n /= 1024
    return f"{n} B"


def _size(size, what="size"):
    """A shape from `f(2, 3)`, `f((2, 3))`, `f([2, 3])` or `f(Size)`."""
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    shape = []
    for s in size:
        if isinstance(s, Tensor):
            s = s.item()
        if isinstance(s, bool) or not isinstance(s, (int, numpy.integer)):
            raise TypeError(f"{what} must be whole numbers, got {s!r}")
        if s < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: {list(size)}")
        shape.append(int(s))
    return tuple(shape)


def _creation_dtype(dtype, default=None):
    if dtype is None:
        return default if default is not None else _dt.get_default_dtype()
    return _dt.as_dtype(dtype)


def _finish(array, device, requires_grad):
    t = _make(array, device)
    if requires_grad:
        t._set_requires_grad(True, "Only Tensors of floating point and complex dtype can require gradients")
    return t


def _ragged_error(data):
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


_MAX_NESTING = 32  # numpy's most dimensions (1.x): a list nested deeper is no tensor


def _check_nesting(data):
    """Refuse a list nested deeper than a tensor can be -- one that holds itself would have numpy
    walk it without end -- looking level by level, without recursion."""
    level = [data]
    for _ in range(_MAX_NESTING):
        items = builtins.list(_itertools.chain.from_iterable(level))
        if not builtins.any(issubclass(k, (list, tuple)) for k in builtins.set(builtins.map(type, items))):
            return
        level = [x for x in items if isinstance(x, (list, tuple))]
    raise ValueError(f"a list nested more than {_MAX_NESTING} deep is not a tensor (does it contain itself?)")


def _host_array(data):
    """Nested lists / numbers / numpy arrays to a numpy array (float lists to float64)."""
    if isinstance(data, numpy.ndarray):
        return data
    if isinstance(data, Tensor):
        return numpy.asarray(data)
    if isinstance(data, (list, tuple)):
        _check_nesting(data)
        try:
            arr = numpy.array(data)
        except (ValueError, OverflowError):
            if _has_huge_int(data):
                raise ValueError(_INT_OVERFLOW) from None
            raise _ragged_error(data) from None
        if arr.dtype == object or arr.dtype == numpy.uint64 or (
                arr.dtype.kind == "f" and arr.size and numpy.abs(arr).max() >= 2.0 ** 63):
            # whole numbers only, one beyond int64: PyTorch's overflow (numpy would wrap or round it)
            if _has_huge_int(data) and not _has_float(data):
                raise ValueError(_INT_OVERFLOW)
            if arr.dtype == object:
                raise _ragged_error(data)
    elif _is_number(data):
        if isinstance(data, int) and not -2 ** 63 <= data < 2 ** 63:
            raise ValueError(_INT_OVERFLOW)
        arr = numpy.array(data)
    else:
        raise TypeError(f"can't make a tensor from {type(data).__name__}; use numbers or nested lists of numbers")
    if arr.dtype.kind not in "biuf":
        what = {"U": "strings", "S": "bytes", "c": "complex numbers", "M": "dates", "m": "time spans"}.get(
            arr.dtype.kind, "these values")
        raise TypeError(f"can't make a tensor from {what}: only numbers and booleans")
    return arr


_INT_OVERFLOW = "Overflow when unpacking long long"  # PyTorch's words for a whole number beyond int64


def _has_float(data):
    stack = [data]
    while stack:
        for x in stack.pop():
            if isinstance(x, (list, tuple)):
                stack.append(x)
            elif isinstance(x, float):
                return True
    return False


def _has_huge_int(data):
    """Whether nested lists hold a Python int outside int64 (walked with a stack)."""
    stack = [data]
    while stack:
        for x in stack.pop():
            if isinstance(x, (list, tuple)):
                stack.append(x)
            elif isinstance(x, int) and not isinstance(x, bool) and not -2 ** 63 <= x < 2 ** 63:
                return True
    return False


def tensor(data, dtype=None, device=None, requires_grad=False):
    """A new leaf tensor holding a copy of `data` (numbers, nested lists, arrays, tensors)."""
    source = _backend.device_of_array(data)
    if source is not _backend.CPU:  # a device array (CuPy's), as PyTorch takes one: kept there by default
        return _from_device_array(data, source, dtype, device, requires_grad)
    dev = _backend.device(device) if device is not None else (
        data.device if isinstance(data, Tensor) else _backend.get_default_device())
    arr = _host_array(data)
    if dtype is not None:
        target = _dt.as_dtype(dtype)
    elif arr.dtype.kind == "f" and not isinstance(data, (numpy.ndarray, Tensor)):
        target = _dt.get_default_dtype()
    elif arr.dtype.kind in "iu" and arr.dtype != numpy.uint8 and not isinstance(data, (numpy.ndarray, Tensor)):
        target = _dt.int64
    else:
        target = _dt.as_dtype(arr.dtype)
    _check_allocation(arr.shape, target.np)
    b = _backend.backend_for(dev)
    out = b.from_host(numpy.array(arr, dtype=target.np, copy=True))
    return _finish(out, dev, requires_grad)


def _from_device_array(data, source, dtype, device, requires_grad):
    """tensor() of an array of a device's own array module: copied on that device, or moved."""
    dev = _backend.device(device) if device is not None else source
    target = _dt.as_dtype(dtype) if dtype is not None else _dt.as_dtype(data.dtype)
    if dev is source:
        out = _xp(dev).array(data, dtype=target.np, copy=True)
    else:
        host = _backend.backend_for(source).to_host(data)
        out = _backend.backend_for(dev).from_host(numpy.array(host, dtype=target.np, copy=True))
    return _finish(out, dev, requires_grad)


def as_tensor(data, dtype=None, device=None):
    if isinstance(data, Tensor) and dtype is None and device is None:
        return data
    return tensor(data, dtype=dtype, device=device)


def from_numpy(array):
    if not isinstance(array, numpy.ndarray):
        raise TypeError(f"expected a numpy array, got {type(array).__name__}")
    return _make(array, _backend.CPU)


def _filled(size, value, dtype, device, requires_grad, default=None):
    shape = _size(size)
    dt = _creation_dtype(dtype, default)
    _check_allocation(shape, dt.np)
    dev = _backend.device(device)
    xp = _xp(dev)
    return _finish(xp.full(shape, value, dtype=dt.np), dev, requires_grad)


def zeros(*size, dtype=None, device=None, requires_grad=False):
    return _filled(size, 0, dtype, device, requires_grad)


def ones(*size, dtype=None, device=None, requires_grad=False):
    return _filled(size, 1, dtype, device, requires_grad)


def empty(*size, dtype=None, device=None, requires_grad=False):
    return _filled(size, 0, dtype, device, requires_grad)


def full(size, fill_value, dtype=None, device=None, requires_grad=False):
    if isinstance(fill_value, Tensor):
        fill_value = fill_value.item()
    default = (_dt.bool_ if isinstance(fill_value, (bool, numpy.bool_)) else
               _dt.int64 if isinstance(fill_value, (int, numpy.integer)) else None)
    return _filled((size,) if not isinstance(size, (tuple, list)) else (tuple(size),),
                   fill_value, dtype, device, requires_grad, default)


def _like(x, value, dtype, device, requires_grad):
    return _filled((tuple(x.shape),), value, dtype if dtype is not None else x.dtype,
                   device if device is not None else x.device, requires_grad)


def zeros_like(input, dtype=None, device=None, requires_grad=False):
    return _like(input, 0, dtype, device, requires_grad)


def ones_like(input, dtype=None, device=None, requires_grad=False):
    return _like(input, 1, dtype, device, requires_grad)


def empty_like(input, dtype=None, device=None, requires_grad=False):
    return _like(input, 0, dtype, device, requires_grad)


def full_like(input, fill_value, dtype=None, device=None, requires_grad=False):
    return _like(input, fill_value, dtype, device, requires_grad)


def eye(n, m=None, dtype=None, device=None, requires_grad=False):
    shape = _size((n,) if m is None else (n, m))
    dt = _creation_dtype(dtype)
    _check_allocation((shape[0], shape[-1]), dt.np)
    dev = _backend.device(device)
    return _finish(_xp(dev).eye(shape[0], shape[-1], dtype=dt.np), dev, requires_grad)


def arange(start, end=None, step=1, dtype=None, device=None, requires_grad=False):
    if end is None:
        start, end = 0, start
    values = [v.item() if isinstance(v, Tensor) else v for v in (start, end, step)]
    if step == 0:
        raise RuntimeError("step must be nonzero")
    all_int = builtins.all(isinstance(v, (int, numpy.integer)) and not isinstance(v, bool) for v in values)
    dt = _creation_dtype(dtype, _dt.int64 if all_int else None)
    n = builtins.max(0, math.ceil((values[1] - values[0]) / values[2]))
    _check_allocation((n,), dt.np)
    dev = _backend.device(device)
    if dt.np.kind == "f":  # PyTorch's kernel, element for element (ranges.py)
        arr = _ranges.arange(values[0], values[2], n, dt.np)
    else:
        arr = numpy.arange(values[0], values[1], values[2], dtype=numpy.float64 if not all_int else numpy.int64)
    return _finish(_backend.backend_for(dev).from_host(arr.astype(dt.np)), dev, requires_grad)


def linspace(start, end, steps, dtype=None, device=None, requires_grad=False):
    return _spaced(_ranges.linspace, start, end, steps, (), dtype, device, requires_grad)


def _spaced(kernel, start, end, steps, extra, dtype, device, requires_grad):
    """linspace / logspace: `kernel` (PyTorch's, element for element) made on the host, then moved."""
    steps = int(steps)
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    dt = _creation_dtype(dtype)
    _check_allocation((steps,), dt.np)
    dev = _backend.device(device)
    start, end = (v.item() if isinstance(v, Tensor) else v for v in (start, end))
    arr = kernel(start, end, steps, *extra, dt.np)
    return _finish(_backend.backend_for(dev).from_host(arr), dev, requires_grad)


def logspace(start, end, steps, base=10.0, dtype=None, device=None, requires_grad=False):
    """steps values from base**start to base**end, their exponents evenly spaced."""
    return _spaced(_ranges.logspace, start, end, steps, (float(base),), dtype, device, requires_grad)


_rng = [None]  # made on first use: importing numpy.random costs every start


def manual_seed(seed):
    """Seed the generators behind rand/randn/randint: rand's draws are PyTorch's for the same
    seed (generator.py); randn, randint and the rest come from numpy's and differ.

    As PyTorch: any whole number from -2**63 to 2**64-1; a negative seed is the
    same as that seed plus 2**64 (so -1 and 2**64-1 give the same numbers)."""
    seed = int(seed)
    if not -(1 << 63) <= seed < (1 << 64):
        raise ValueError("Overflow when unpacking long long")
    _rng[0] = numpy.random.default_rng(seed % (1 << 64))
    _uniform_bits[0] = Mersenne(seed % (1 << 64))


_uniform_bits = [None]  # PyTorch's generator for uniform draws (generator.py); seeded at random until manual_seed


def _uniform_draws(shape, low, high, np_dtype):
    """An array of `shape` drawn uniformly in [low, high) as PyTorch's uniform_ draws it (a
    floating dtype), from the generator torch.manual_seed seeds."""
    if _uniform_bits[0] is None:
        _uniform_bits[0] = Mersenne(int(numpy.random.SeedSequence().entropy) % (1 << 64))
    return _uniform_bits[0].uniform(math.prod(shape), low, high, np_dtype).reshape(shape)


def _random(size, draw, dtype, device, requires_grad):
    shape = _size(size)
    dt = _creation_dtype(dtype)
    _check_allocation(shape, dt.np)
    dev = _backend.device(device)
    if _rng[0] is None:
        _rng[0] = numpy.random.default_rng()
    arr = draw(_rng[0], shape).astype(dt.np, copy=False)  # drawn fresh: no copy needed
    return _finish(_backend.backend_for(dev).from_host(arr), dev, requires_grad)


def rand(*size, dtype=None, device=None, requires_grad=False):
    """Uniform in [0, 1): PyTorch's numbers for the same manual_seed (generator.py)."""
    np_dtype = _creation_dtype(dtype).np
    if np_dtype.kind != "f":
        return _random(size, lambda g, s: g.random(s), dtype, device, requires_grad)
    return _random(size, lambda g, s: _uniform_draws(s, 0.0, 1.0, np_dtype), dtype, device, requires_grad)


def randn(*size, dtype=None, device=None, requires_grad=False):
    return _random(size, lambda g, s: g.standard_normal(s), dtype, device, requires_grad)


def randperm(n, dtype=None, device=None, requires_grad=False):
    """The whole numbers 0 .. n-1 in a random order (the engine's generator: not PyTorch's order)."""
    n = int(n)
    if n < 0:
        raise RuntimeError(f"n must be non-negative, got{n}")
    return _random((n,), lambda g, s: g.permutation(s[0]), dtype if dtype is not None else _dt.int64, device,
                   requires_grad)


def randint(low, high=None, size=None, dtype=None, device=None, requires_grad=False):
    """randint(high, size) or randint(low, high, size): whole numbers in [low, high), int64 unless dtype= says."""
    if size is None and isinstance(high, (tuple, list, _Size)):
        size, high = high, None  # randint(high, size)
    if high is None:
        low, high = 0, low
    if size is None:
        raise TypeError("randint() missing 1 required positional argument: 'size'")
    low, high = int(low), int(high)
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    return _random((tuple(size),), lambda g, s: g.integers(low, high, s),
                   dtype if dtype is not None else _dt.int64, device, requires_grad)


def bernoulli(input, p=None, generator=None):
    """1 with probability `input` (or p), else 0, elementwise; the result has input's dtype."""
    input = _tensor_in(input)
    probs = input if p is None else _filled((tuple(input.shape),), p, input.dtype, input.device, False)
    out = apply(_op["bernoulli"], probs, draws=_uniform_like(input).astype(input.array.dtype))
    return out if p is None else out.detach()


def bernoulli_(input, p=0.5, generator=None):
    """In place, PyTorch's Tensor.bernoulli_: each element 1 with probability p (0.5 unless given;
    a number, or a tensor of them that broadcasts to input), else 0, in input's dtype. The old values'
    history ends here: no gradient flows back through them (PyTorch's BernoulliBackward2; 1 for a
    tensor p)."""
    input = _tensor_in(input)
    if isinstance(p, Tensor):
        probs, name = p.array, "BernoulliBackward1"
        _broadcast_check(input.array.shape, probs.shape)
    else:
        if not 0 <= p <= 1:
            raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p}")
        probs, name = p, "BernoulliBackward2"
    return _refill(input, (_uniform_like(input) < probs).astype(input.array.dtype), name)


def _uniform_like(input):
    """Uniform draws in [0, 1) of input's shape on its device, from the engine's generator (bernoulli's)."""
    if _rng[0] is None:
        _rng[0] = numpy.random.default_rng()
    return _backend.backend_for(input.device).from_host(_rng[0].random(input.array.shape))


def _refill(input, values, name):
    """input <- `values` (an array of input's shape, from a random draw), in place, with a node named
    `name` that passes no gradient back: PyTorch's uniform_, normal_ and bernoulli_ (their new values
    depend on nothing, and the old ones no longer matter)."""
    return inplace(input, _fill, values, name=name)


def rand_like(input, dtype=None, device=None, requires_grad=False):
    return rand(tuple(input.shape), dtype=dtype or input.dtype, device=device or input.device,
                requires_grad=requires_grad)


def randn_like(input, dtype=None, device=None, requires_grad=False):
    return randn(tuple(input.shape), dtype=dtype or input.dtype, device=device or input.device,
                 requires_grad=requires_grad)


# ----------------------------------------------------------- argument helpers

def _as_tensor_like(x, like):
    """A Tensor for `x` (lists, arrays, numbers) on the device of `like`."""
    if isinstance(x, Tensor):
        return x
    return tensor(x, device=like.device if isinstance(like, Tensor) else None)


def _operands(a, b):
    """Binary-op operands: tensors stay, Python numbers stay (weakly typed), the rest become tensors."""
    if a.__class__ is Tensor:
        if b.__class__ is Tensor or _is_number(b):
            return a, b
        return a, tensor(b, device=a.device)
    if b.__class__ is Tensor:
        if _is_number(a):
            return a, b
        return tensor(a, device=b.device), b
    a = _as_tensor_like(a, None)
    return a, (b if _is_number(b) else _as_tensor_like(b, a))


def _tensor_in(x, name="input"):
    if isinstance(x, Tensor):
        return x
    if _is_number(x) or isinstance(x, (list, tuple, numpy.ndarray)):
        return tensor(x)
    raise TypeError(f"{name} must be a tensor, not {type(x).__name__}")


def _dims(dim, ndim):
    """Validated reduction axes: None, or a tuple of non-negative axes."""
    if dim is None:
        return None
    if isinstance(dim, (list, tuple)):
        if len(dim) == 0:
            return None
        axes = tuple(_dim(int(d), ndim) for d in dim)
        for i, a in enumerate(axes):
            if a in axes[:i]:  # PyTorch names the first dim seen twice
                raise RuntimeError(f"dim {a} appears multiple times in the list of dims")
        return axes
    return _dim(int(dim), ndim)


def _binary(op, a, b):
    a, b = _operands(a, b)
    return apply(op, a, b)


# ----------------------------------------------------------------- arithmetic

def add(input, other, alpha=1):
    """input + alpha * other, one node (AddBackward0) and one rounding, as PyTorch's."""
    return _scaled_binary(_op["add"], input, other, alpha)


def sub(input, other, alpha=1):
    """input - alpha * other, one node (SubBackward0) and one rounding, as PyTorch's."""
    return _scaled_binary(_op["sub"], input, other, alpha)


def _scaled_binary(op, input, other, alpha):
    a, b = _operands(input, other)
    if alpha.__class__ is not bool and alpha == 1:
        return apply(op, a, b)
    if isinstance(alpha, Tensor):
        alpha = alpha.item()
    dtype = _result_dtype(a, b)
    # PyTorch's alpha_check
    if alpha.__class__ is bool and dtype.kind != "b":
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if dtype.kind not in "fc" and isinstance(alpha, float):
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating point number.")
    if dtype.kind != "c" and isinstance(alpha, complex):
        raise RuntimeError("For non-complex input tensors, argument alpha must not be a complex number.")
    return apply(op, a, b, alpha=alpha)


def _result_dtype(a, b):
    """The numpy dtype of a binary op's result on a and b (tensors or numbers)."""
    return numpy.result_type(*(x.array if isinstance(x, Tensor) else x for x in (a, b)))


subtract = sub


def div(input, other):
    if _is_number(input) and other.__class__ is Tensor:
        # number / tensor is reciprocal(tensor) * number, as in PyTorch (same rounding, same graph)
        return mul(reciprocal(other), input)
    return _binary(_op["div"], input, other)


def pow(input, exponent):
    if isinstance(input, Tensor) and _is_number(exponent):
        if input.array.dtype.kind in "iub" and exponent < 0 and isinstance(exponent, (int, numpy.integer)):
            raise RuntimeError("Integers to negative integer powers are not allowed.")
        return apply(_op["pow_scalar"], input, exponent=exponent)
    if _is_number(input) and isinstance(exponent, Tensor):
        return apply(_op["rpow_scalar"], exponent, base=input)
    return _binary(_op["pow"], input, exponent)


def square(input):
    return pow(_tensor_in(input), 2)


def clamp(input, min=None, max=None):
    input = _tensor_in(input)
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        out = input
        if min is not None:
            out = maximum(out, _as_tensor_like(min, input))
        if max is not None:
            out = minimum(out, _as_tensor_like(max, input))
        return out
    return apply(_op["clamp"], input, min=min, max=max)


clip = clamp


def clamp_min(input, min):
    if isinstance(min, Tensor):
        return clamp(input, min=min)
    return apply(_op["clamp"], _tensor_in(input), min=min, name="ClampMinBackward0")


def clamp_max(input, max):
    if isinstance(max, Tensor):
        return clamp(input, max=max)
    return apply(_op["clamp"], _tensor_in(input), max=max, name="ClampMaxBackward0")


def maximum(input, other):
    input, other = _both_tensors(input, other)
    return _binary(_op["maximum"], input, other)


def minimum(input, other):
    input, other = _both_tensors(input, other)
    return _binary(_op["minimum"], input, other)


def _both_tensors(a, b):
    if not isinstance(a, Tensor):
        a = _as_tensor_like(a, b)
    if not isinstance(b, Tensor):
        b = _as_tensor_like(b, a)
    return a, b


def lerp(input, end, weight):
    """input + weight * (end - input); weight a number or a tensor (all broadcast together)."""
    input = _tensor_in(input)
    end = _as_tensor_like(end, input)
    if not _is_number(weight):
        weight = _as_tensor_like(weight, input)
    return apply(_op["lerp"], input, end, weight)


def where(condition, input, other):
    condition = _tensor_in(condition, "condition")
    if condition.array.dtype.kind != "b":
        raise RuntimeError(f"where expected condition to be a boolean tensor, but got a tensor with dtype "
                           f"{condition.dtype.name}")
    if not isinstance(input, Tensor) and not isinstance(other, Tensor):
        input = tensor(input, device=condition.device)
        if input.array.dtype.kind in "iub" and isinstance(other, float):
            input = input.to(dtype=_dt.get_default_dtype())
    for x in (input, other):
        if isinstance(x, Tensor) and x.device is not condition.device:
            raise RuntimeError(f"Expected all tensors to be on the same device, but found at least two "
                               f"devices, {condition.device} and {x.device}!")
    if not _is_number(input) and not isinstance(input, Tensor):
        input = _as_tensor_like(input, condition)
    if not _is_number(other) and not isinstance(other, Tensor):
        other = _as_tensor_like(other, condition)
    return apply(_op["where"], input, other, cond=condition.array)


# ----------------------------------------------------------------- reductions

def _reduction(name, input, dim, keepdim, float_only=False):
    input = _tensor_in(input)
    if float_only and input.array.dtype.kind != "f":
        raise RuntimeError(f"{name}(): could not infer output dtype. Input dtype must be either a floating "
                           f"point or complex dtype. Got: {input.dtype.name}")
    return apply(_op[name], input, dim=_dims(dim, input.array.ndim), keepdim=bool(keepdim))


def sum(input, dim=None, keepdim=False):
    return _reduction("sum", input, dim, keepdim)


def mean(input, dim=None, keepdim=False):
    return _reduction("mean", input, dim, keepdim, float_only=True)


def prod(input, dim=None, keepdim=False):
    input = _tensor_in(input)
    if isinstance(dim, (list, tuple)):
        raise TypeError("prod takes one dim (a whole number), not a list")
    return _reduction("prod", input, dim, keepdim)


class _ValuesIndices(namedtuple("_ValuesIndices", ["values", "indices"])):
    __slots__ = ()
    kind = "max"

    def __repr__(self):
        return f"torch.return_types.{self.kind}(\nvalues={self.values!r},\nindices={self.indices!r})"


class MaxResult(_ValuesIndices):
    __slots__ = ()
    kind = "max"


class MinResult(_ValuesIndices):
    __slots__ = ()
    kind = "min"


def _extreme(kind, input, dim, keepdim, other):
    if isinstance(dim, Tensor) and other is None:
        dim, other = None, dim
    if other is not None:
        return (maximum if kind == "max" else minimum)(input, other)
    input = _tensor_in(input)
    if input.array.size == 0:
        raise RuntimeError(f"{kind}(): Expected reduction dim to be specified for input.numel() == 0.")
    if dim is None:
        return apply(_op[f"{kind}_all"], input)
    d = _dim(int(dim), input.array.ndim)
    xp = _xp(input.device)
    arg = xp.argmax if kind == "max" else xp.argmin
    if input.array.ndim == 0:  # its own (only) value, at index 0
        indices = xp.zeros((), dtype=numpy.int64)
    else:
        indices = arg(input.array, axis=d, keepdims=bool(keepdim))
    values = apply(_op["extreme_dim"], input, dim=d, keepdim=bool(keepdim), indices=indices,
                   name="MaxBackward0" if kind == "max" else "MinBackward0")
    return (MaxResult if kind == "max" else MinResult)(values, _make(indices.astype(numpy.int64), input.device))


def max(input, dim=None, keepdim=False, other=None):
    """max(x): the largest value; max(x, dim): (values, indices); max(x, y): elementwise."""
    return _extreme("max", input, dim, keepdim, other)


def min(input, dim=None, keepdim=False, other=None):
    return _extreme("min", input, dim, keepdim, other)


def amax(input, dim=None, keepdim=False):
    """The largest values along dim(s); ties share the gradient evenly (unlike max(x, dim))."""
    return _reduction("amax", input, dim, keepdim)


def amin(input, dim=None, keepdim=False):
    return _reduction("amin", input, dim, keepdim)


def norm(input, p="fro", dim=None, keepdim=False):
    input = _tensor_in(input)
    if input.array.dtype.kind != "f":
        raise RuntimeError(f"norm(): expected a floating point tensor, got {input.dtype.name}")
    if p in ("fro", None):
        p = 2
    if isinstance(p, str):
        if p in ("inf", "Inf"):
            p = math.inf
        else:
            raise RuntimeError(f"norm: p={p!r} is not supported; use a number, 'fro' or inf")
    p = float(p)
    if not p > 0:
        raise RuntimeError(f"norm: p must be positive (or inf), got {p}")
    if p != math.inf and p == int(p):
        p = int(p)
    return apply(_op["norm"], input, p=p, dim=_dims(dim, input.array.ndim), keepdim=bool(keepdim))


def dist(input, other, p=2):
    """The p-norm of input - other (they broadcast): p = 2 the Euclidean distance, 0 the number of
    elements that differ, inf (-inf) the largest (smallest) difference."""
    input = _tensor_in(input)
    if not isinstance(other, Tensor):
        raise TypeError(f"dist(): argument 'other' (position 2) must be Tensor, not {type(other).__name__}")
    if isinstance(p, Tensor):
        p = p.item()
    if not _is_number(p) or isinstance(p, (bool, numpy.bool_)):
        raise TypeError(f"dist(): argument 'p' (position 3) must be Number, not {type(p).__name__}")
    _broadcast_check(input.array.shape, other.array.shape)
    for t in (input, other):
        if t.array.dtype.kind != "f":
            raise RuntimeError(f"norm(): input dtype should be either floating point or complex. Got "
                               f"{_dt.scalar_name(_dt.dtype_of(t.array))} instead.")
    return apply(_op["dist"], input, other, p=float(p))

def _dim_op(name, input, dim, **kw):
    input = _tensor_in(input)
    if dim is None:
        raise TypeError(f"{name}() needs dim= (the axis to work along)")
    if input.array.dtype.kind != "f":
        raise RuntimeError(f"{name}(): expected a floating point tensor, got {input.dtype.name}")
    return apply(_op[name], input, dim=_dim(int(dim), input.array.ndim), **kw)


def softmax(input, dim=None):
    return _dim_op("softmax", input, dim)


def log_softmax(input, dim=None):
    return _dim_op("log_softmax", input, dim)


def logsumexp(input, dim=None, keepdim=False):
    input = _tensor_in(input)
    if dim is None:
        raise TypeError("logsumexp() needs dim= (the axis or axes to reduce)")
    if input.array.dtype.kind != "f":
        raise RuntimeError(f"logsumexp(): expected a floating point tensor, got {input.dtype.name}")
    return apply(_op["logsumexp"], input, dim=_dims(dim, input.array.ndim), keepdim=bool(keepdim))


def _nondiff(name, input, *args, **kw):
    return apply(_op[name], _tensor_in(input), *args, **kw)


def argmax(input, dim=None, keepdim=False):
    input = _tensor_in(input)
    return _nondiff("argmax", input, dim=None if dim is None else _dim(int(dim), input.array.ndim),
                    keepdim=bool(keepdim))


def argmin(input, dim=None, keepdim=False):
    input = _tensor_in(input)
    return _nondiff("argmin", input, dim=None if dim is None else _dim(int(dim), input.array.ndim),
                    keepdim=bool(keepdim))


def all(input, dim=None, keepdim=False):
    input = _tensor_in(input)
    return _nondiff("all", input, dim=_dims(dim, input.array.ndim), keepdim=bool(keepdim))


def any(input, dim=None, keepdim=False):
    input = _tensor_in(input)
    return _nondiff("any", input, dim=_dims(dim, input.array.ndim), keepdim=bool(keepdim))


def equal(input, other):
    """True when both have the same shape and values."""
    a, b = _tensor_in(input), _tensor_in(other)
    return a.array.shape == b.array.shape and bool((a.array == b.array).all())


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    a, b = _tensor_in(input), _tensor_in(other)
    return bool(_xp(a.device).allclose(a.array, b.array, rtol=rtol, atol=atol, equal_nan=equal_nan))


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    a, b = _tensor_in(input), _tensor_in(other)
    return _make(_xp(a.device).isclose(a.array, b.array, rtol=rtol, atol=atol, equal_nan=equal_nan), a.device)


# ------------------------------------------------------------ linear algebra

def _dims_text(t):
    return "x".join(str(s) for s in t.array.shape)


def matmul(input, other):
    a, b = _tensor_in(input), _as_tensor_like(other, input)
    if a.array.ndim == 0 or b.array.ndim == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are "
                           f"{a.array.ndim}D and {b.array.ndim}D")
    inner_a = a.array.shape[-1]
    inner_b = b.array.shape[0] if b.array.ndim == 1 else b.array.shape[-2]
    if inner_a != inner_b:
        if a.array.ndim <= 2 and b.array.ndim == 2:
            lhs = _dims_text(a) if a.array.ndim == 2 else f"1x{inner_a}"
            raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({lhs} and {_dims_text(b)})")
        raise RuntimeError(f"size mismatch: got {list(a.shape)} @ {list(b.shape)} "
                           f"({inner_a} != {inner_b} in the contracted dimension)")
    if a.array.ndim > 2 or b.array.ndim > 2:
        _broadcast_check(a.array.shape[:-2], b.array.shape[:-2] if b.array.ndim > 1 else ())
    return apply(_op["matmul"], a, b)


def mm(input, mat2):
    a, b = _tensor_in(input), _as_tensor_like(mat2, input)
    if a.array.ndim != 2:
        raise RuntimeError(f"self must be a matrix (mm needs 2-D tensors, got {a.array.ndim}-D)")
    if b.array.ndim != 2:
        raise RuntimeError(f"mat2 must be a matrix (mm needs 2-D tensors, got {b.array.ndim}-D)")
    return matmul(a, b)


def mv(input, vec):
    a, b = _tensor_in(input), _as_tensor_like(vec, input)
    if a.array.ndim != 2 or b.array.ndim != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got {a.array.ndim}, {b.array.ndim}")
    return matmul(a, b)


def dot(input, other):
    a, b = _tensor_in(input), _as_tensor_like(other, input)
    if a.array.ndim != 1 or b.array.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {a.array.ndim}D and {b.array.ndim}D tensors")
    if a.array.shape != b.array.shape:
        raise RuntimeError(f"inconsistent tensor size, expected tensor [{a.array.shape[0]}] and src "
                           f"[{b.array.shape[0]}] to have the same number of elements, but got "
                           f"{a.array.shape[0]} and {b.array.shape[0]} elements respectively")
    return matmul(a, b)


def outer(input, vec2):
    a, b = _tensor_in(input), _as_tensor_like(vec2, input)
    return mul(unsqueeze(a, 1), b)


def linear(input, weight, bias=None):
    """input @ weight.T + bias, as torch.nn.functional.linear."""
    x, w = _tensor_in(input), _as_tensor_like(weight, input)
    if w.array.ndim != 2:
        raise RuntimeError(f"linear: weight must be 2-D (out_features x in_features), got {list(w.shape)}")
    if x.array.ndim == 0 or x.array.shape[-1] != w.array.shape[1]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied "
                           f"({_dims_text(x) if x.array.ndim > 1 else '1x' + str(x.array.shape[-1] if x.array.ndim else 1)}"
                           f" and {w.array.shape[1]}x{w.array.shape[0]})")
    if bias is None:
        return apply(_op["linear"], x, w)
    b = _as_tensor_like(bias, input)
    _broadcast_check(x.array.shape[:-1] + (w.array.shape[0],), b.array.shape)
    return apply(_op["linear"], x, w, b)


# --------------------------------------------------------------------- shapes

def _shape_args(shape):
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    return tuple(int(s.item()) if isinstance(s, Tensor) else int(s) for s in shape)


def _infer_shape(shape, numel):
    """Resolve one -1 in `shape`; PyTorch's error when the sizes don't fit."""
    known = 1
    unknown = None
    for i, s in enumerate(shape):
        if s == -1:
            if unknown is not None:
                raise RuntimeError("only one dimension can be inferred")
            unknown = i
        elif s < 0:
            raise RuntimeError(f"invalid shape dimension {s}")
        else:
            known *= s
    if unknown is not None:
        if known == 0 or numel % known:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
        shape = shape[:unknown] + (numel // known,) + shape[unknown + 1:]
    elif known != numel:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    return shape


def reshape(input, *shape):
    input = _tensor_in(input)
    shape = _infer_shape(_shape_args(shape), input.array.size)
    return apply(_op["reshape"], input, shape=shape)


def view(input, *shape):
    """reshape() that must share memory with `input` (PyTorch's error where it can't)."""
    input = _tensor_in(input)
    shape = _infer_shape(_shape_args(shape), input.array.size)
    array = _storage(input)
    # reshape copies exactly when no view can be made (numpy 2.5 deprecates setting .shape to ask)
    if array.size and not _xp(input.device).may_share_memory(array.reshape(shape), array):
        raise RuntimeError("view size is not compatible with input tensor's size and stride (at least one "
                           "dimension spans across two contiguous subspaces). Use .reshape(...) instead.")
    return apply(_op["reshape"], input, shape=shape)


def flatten(input, start_dim=0, end_dim=-1):
    input = _tensor_in(input)
    nd = input.array.ndim
    if nd == 0:
        return reshape(input, (1,))
    s, e = _dim(start_dim, nd), _dim(end_dim, nd)
    if s > e:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    shape = input.array.shape
    return reshape(input, shape[:s] + (-1,) + shape[e + 1:])


def _squeeze_dims(dim, ndim):
    """squeeze's dim: None (all), one axis, or a tuple of axes (which may be empty)."""
    if isinstance(dim, (list, tuple)):
        return _dims(dim, ndim) if len(dim) else ()
    return None if dim is None else _dim(int(dim), ndim)


def squeeze(input, dim=None):
    input = _tensor_in(input)
    return apply(_op["squeeze"], input, dim=_squeeze_dims(dim, input.array.ndim))


def unsqueeze(input, dim):
    input = _tensor_in(input)
    nd = input.array.ndim + 1
    return apply(_op["unsqueeze"], input, dim=_dim(int(dim), nd))


def transpose(input, dim0, dim1):
    input = _tensor_in(input)
    nd = input.array.ndim
    return apply(_op["transpose"], input, dim0=_dim(int(dim0), nd), dim1=_dim(int(dim1), nd))


swapdims = transpose


def swapaxes(input, axis0, axis1):
    return transpose(input, axis0, axis1)


def t(input):
    input = _tensor_in(input)
    return apply(_op["transpose"], input, **_t_dims(input, "t"), name="TBackward0")


def _t_dims(input, name):
    """t()'s dims: 0 and 1 of a matrix, nothing to swap in a vector or a number (still a new view)."""
    nd = input.array.ndim
    if nd > 2:
        raise RuntimeError(f"{name}() expects a tensor with <= 2 dimensions, but self is {nd}D")
    return {"dim0": 0, "dim1": 1 if nd == 2 else 0}


def permute(input, *dims):
    input = _tensor_in(input)
    dims = _shape_args(dims)
    nd = input.array.ndim
    if len(dims) != nd:
        raise RuntimeError(f"permute(sparse_coo): number of dimensions in the tensor input does not match "
                           f"the length of the desired ordering of dimensions i.e. input.dim() = {nd} is not "
                           f"equal to len(dims) = {len(dims)}".replace("(sparse_coo)", ""))
    dims = tuple(_dim(d, nd) for d in dims)
    if len(set(dims)) != nd:
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    return apply(_op["permute"], input, dims=dims)


def expand(input, *sizes):
    input = _tensor_in(input)
    sizes = _shape_args(sizes)
    old = input.array.shape
    if len(sizes) < len(old):
        raise RuntimeError(f"expand(torch.DoubleTensor{{{list(old)}}}, size={list(sizes)}): the number of "
                           f"sizes provided ({len(sizes)}) must be greater or equal to the number of "
                           f"dimensions in the tensor ({len(old)})")
    lead = len(sizes) - len(old)
    shape = []
    for i, s in enumerate(sizes):
        if i < lead:
            if s < 0:
                raise RuntimeError(f"The expanded size of the tensor ({s}) isn't allowed in a leading, "
                                   f"non-existing dimension {i}")
            shape.append(s)
            continue
        o = old[i - lead]
        if s == -1:
            s = o
        elif o != s and o != 1:
            raise RuntimeError(f"The expanded size of the tensor ({s}) must match the existing size ({o}) at "
                               f"non-singleton dimension {i}.  Target sizes: {list(sizes)}.  Tensor sizes: "
                               f"{list(old)}")
        shape.append(s)
    shape = tuple(shape)
    # a view allocates nothing, but every op on it would touch each element: the same limit applies
    _check_allocation(shape, input.array.dtype)
    return apply(_op["expand"], input, shape=shape)


def broadcast_to(input, size):
    return expand(input, size)


def _tensor_list(tensors, name):
    if isinstance(tensors, Tensor):
        tensors = list(tensors)
    if not isinstance(tensors, (list, tuple)) or len(tensors) == 0:
        raise RuntimeError(f"{name}(): expected a non-empty list of Tensors")
    first = next((x for x in tensors if isinstance(x, Tensor)), None)
    return [_as_tensor_like(x, first) for x in tensors]


def cat(tensors, dim=0):
    ts = _tensor_list(tensors, "cat")
    nd = ts[0].array.ndim
    if nd == 0:
        raise RuntimeError("zero-dimensional tensor (at position 0) cannot be concatenated")
    d = _dim(int(dim), nd)
    for i, x in enumerate(ts[1:], 1):
        if x.array.ndim != nd:
            raise RuntimeError(f"Tensors must have same number of dimensions: got {nd} and {x.array.ndim}")
        for k in range(nd):
            if k != d and x.array.shape[k] != ts[0].array.shape[k]:
                raise RuntimeError(f"Sizes of tensors must match except in dimension {d}. Expected size "
                                   f"{ts[0].array.shape[k]} but got size {x.array.shape[k]} for tensor "
                                   f"number {i} in the list.")
    return apply(_op["cat"], *ts, dim=d)


concat = concatenate = cat


def stack(tensors, dim=0):
    ts = _tensor_list(tensors, "stack")
    for i, x in enumerate(ts[1:], 1):
        if x.array.shape != ts[0].array.shape:
            raise RuntimeError(f"stack expects each tensor to be equal size, but got {list(ts[0].shape)} at "
                               f"entry 0 and {list(x.shape)} at entry {i}")
    d = _dim(int(dim), ts[0].array.ndim + 1)
    return apply(_op["stack"], *ts, dim=d)


# ------------------------------------------------------------------- indexing

def _index_key(x, key):
    """A tuple key of ints, slices, None, Ellipsis and backend index arrays."""
    if not isinstance(key, tuple):
        key = (key,)
    xp = _xp(x.device)
    out = []
    for k in key:
        if k is None or k is Ellipsis or isinstance(k, slice):
            if isinstance(k, slice):
                k = slice(*(None if v is None else _index_int(v) for v in (k.start, k.stop, k.step)))
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


def _index_int(v):
    if isinstance(v, Tensor):
        return int(v.item())
    if isinstance(v, (bool, numpy.bool_)) or not isinstance(v, (int, numpy.integer)):
        raise TypeError(f"slice indices must be whole numbers, got {v!r}")
    return int(v)


def _checked_index(x, key):
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


def getitem(input, key):
    key = _index_key(input, key)
    _checked_index(input, key)
    try:
        return apply(_op["getitem"], input, key=key)
    except IndexError as e:
        raise IndexError(str(e).replace("array", "tensor")) from None


def setitem(input, key, value):
    """`input[key] = value`, in place: through a view of `input` for a basic key
    (CopySlices on `input`), as index_put_ for a key with index arrays."""
    key = _index_key(input, key)
    _checked_index(input, key)
    if not _is_number(value):
        value = _as_tensor_like(value, input)
        try:
            region = input.array[key].shape
        except IndexError as e:
            raise IndexError(str(e).replace("array", "tensor")) from None
        if value.array.shape != region:
            _broadcast_check(region, value.array.shape)
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
    src = src if isinstance(src, Tensor) or _is_number(src) else _as_tensor_like(src, input)
    if isinstance(src, Tensor) and src.array.shape != input.array.shape:
        _broadcast_check(input.array.shape, src.array.shape)
    return apply(_op["copy"], input, src)


def fill_(input, value):
    return inplace(input, _fill, value)


def zero_(input):
    return inplace(input, _fill, 0, name="ZeroBackward0")


def copy_(input, src):
    return inplace(input, _copy, src)


# ---------------------------------------------------------------- conversion

def detach(input):
    return _tensor_in(input).detach()


def to(input, *args, device=None, dtype=None, copy=False, non_blocking=False):
    """to(device), to(dtype), to(device, dtype), to(other_tensor)."""
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
    if device is not None:
        dev = _backend.device(device)
        if dev is not out.device:
            _backend.backend_for(dev)  # a clear error if the device cannot be used
            out = apply(_op["to_device"], out, device=dev, source=out.device)
    if copy and out is input:
        out = clone(input)
    return out


def _is_dtype_name(s):
    return (s[6:] if s.startswith("torch.") else s) in _dt.BY_NAME


def numel(input):
    return _tensor_in(input).numel()


def is_tensor(obj):
    return isinstance(obj, Tensor)


def is_floating_point(input):
    return _tensor_in(input).is_floating_point()


# ---------------------------------------------------- generated from the op table
# Each row names its public functions; those with a `wrapper` are made here,
# the rest are written above. Every function's first parameter is the tensor
# it works on, so it serves as the Tensor method of the same name as it is;
# the in-place variants are made here too. An op with PyTorch's name needs
# nothing but its row.

def _unary_wrapper(op, name):
    if op.to_float:
        def function(input):
            if input.__class__ is not Tensor:
                input = _tensor_in(input)
            x = input.array
            if x.__class__ is not _FLOAT64 and x.dtype.kind in "biu":
                input = input.to(dtype=_dt.get_default_dtype())  # sin(int tensor): the default dtype, as PyTorch
            return run_op(op, (input,), _NO_PARAMS)
    else:
        def function(input):
            return run_op(op, (input if input.__class__ is Tensor else _tensor_in(input),), _NO_PARAMS)
    function._row = op  # the one row it applies (the eval lean lane reads it)
    return _named(function, name, f"{name}(input): elementwise {name}, as torch.{name}.")


def _binary_wrapper(op, name):
    def function(input, other):
        return run_op(op, _operands(input, other), _NO_PARAMS)
    return _named(function, name, f"{name}(input, other), as torch.{name} (tensors or numbers; they broadcast).")


def _inplace_variant(function, name):
    def variant(input, *args, **kwargs):
        return inplace(input, function, *args, **kwargs)
    return _named(variant, name, f"In-place {function.__name__}: the result is written into input.")


def _named(f, name, doc):
    f.__name__ = f.__qualname__ = name
    f.__doc__ = doc
    return f


_FLOAT64 = numpy.float64
_WRAPPERS = {"unary": _unary_wrapper, "binary": _binary_wrapper}

# the families written in modules of their own (they build on the helpers above)
from .functions_linalg import *  # noqa: E402,F401,F403
from .functions_stats import *  # noqa: E402,F401,F403
from .functions_shapes import *  # noqa: E402,F401,F403
from .functions_arrange import *  # noqa: E402,F401,F403
from .functions_elem import *  # noqa: E402,F401,F403
from .functions_distances import *  # noqa: E402,F401,F403
from .functions_indexing import *  # noqa: E402,F401,F403


def _install_surface(namespace):
    """Public functions, Tensor methods and in-place variants of every row."""
    for op in TABLE.values():
        first = None
        for name in op.names:
            function = namespace.get(name)
            if function is None:
                function = _WRAPPERS[op.wrapper](op, name) if op.wrapper else first
                if function is None:
                    raise TypeError(f"op row {op.name!r}: functions.py must define {name}() (no wrapper)")
                namespace[name] = function
            first = first or function
            if op.method and name not in Tensor.__dict__:
                setattr(Tensor, name, function)  # its first parameter is the tensor: x.name(...) is name(x, ...)
            if op.inplace:  # one written above (bernoulli_) serves as the method too
                variant = namespace.setdefault(name + "_", _inplace_variant(function, name + "_"))
                if name + "_" not in Tensor.__dict__:
                    setattr(Tensor, name + "_", variant)


_install_surface(globals())


def _numpy_aliases(namespace):
    """PyTorch's argument parser takes numpy's names too: axis for dim, keepdims for keepdim
    (x.sum(axis=0, keepdims=True)). Each public function with a dim or keepdim parameter -- and
    the Tensor method that is the same function -- gets a wrapper that renames them."""
    for name, f in list(namespace.items()):
        code = getattr(f, "__code__", None)
        if name.startswith("_") or code is None or getattr(f, "__module__", "").split(".")[-1][:9] != "functions":
            continue
        params = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
        renames = tuple((alias, own) for own, alias in (("dim", "axis"), ("keepdim", "keepdims")) if own in params)
        if not renames:
            continue
        wrapper = _aliasing(f, renames)
        namespace[name] = wrapper
        if Tensor.__dict__.get(name) is f:
            setattr(Tensor, name, wrapper)


def _aliasing(f, renames):
    def call(*args, **kwargs):
        if kwargs:
            for alias, own in renames:
                if alias in kwargs:
                    if own in kwargs:  # PyTorch's words when both are given
                        raise TypeError(f"{f.__name__}() got an unexpected keyword argument '{alias}'")
                    kwargs[own] = kwargs.pop(alias)
        return f(*args, **kwargs)
    call.__name__ = call.__qualname__ = f.__name__
    call.__doc__ = f.__doc__
    call.__wrapped__ = f
    return call


_numpy_aliases(globals())


__all__ = [n for n in dir() if not n.startswith("_") and n not in (
    "builtins", "math", "namedtuple", "numpy", "is_grad_enabled", "apply", "TABLE",
    "Tensor", "MaxResult", "MinResult", "AllocationRefused", "allocation_limit")]
