"""Creating tensors: torch.tensor and as_tensor from data, zeros/ones/empty/full (and _like),
eye, arange, linspace, logspace, and the random ones (rand, randn, randint, randperm, normal,
poisson, multinomial, randint_like), with the allocation budget every creation checks first.
"""
import builtins
import math

import numpy

from .. import backend as _backend
from .. import dtypes as _dt
from .. import ranges as _ranges
from ..core.op import TABLE as _TABLE
from ..ops.arithmetic import not_a_tensor, number_argument
from ..core.tensor import TensorBase as Tensor, Size as _Size, make_tensor, array_module, apply as _apply
from ..core.tensor import broadcast_shapes as _broadcast_shapes
from ..generator import manual_seed, numpy_draws, uniform_draws
from ..allocation import check_allocation, set_allocation_limit
from ..host_data import host_array_of as _host_array

__all__ = [
    "arange", "as_tensor", "empty", "empty_like", "eye", "from_numpy", "full", "full_like", "linspace",
    "logspace", "manual_seed", "multinomial", "normal", "ones", "ones_like", "poisson", "rand", "rand_like",
    "randint", "randint_like", "randn", "randn_like", "randperm", "set_allocation_limit", "tensor", "zeros",
    "zeros_like"
]


def size_arg(size, what="size"):
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


def creation_dtype(dtype, default=None):
    if dtype is None:
        return default if default is not None else _dt.get_default_dtype()
    return _dt.as_dtype(dtype)


def finish(array, device, requires_grad):
    t = make_tensor(array, device)
    if requires_grad:
        t._set_requires_grad(True, "Only Tensors of floating point and complex dtype can require gradients")
    return t


# data that brings its own dtype (a numpy scalar too: tensor(np.float32(0.3)) is float32, as PyTorch's)
_TYPED = (numpy.ndarray, numpy.generic, Tensor)


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
    elif arr.dtype.kind == "f" and not isinstance(data, _TYPED):
        target = _dt.get_default_dtype()
    elif arr.dtype.kind in "iu" and arr.dtype != numpy.uint8 and not isinstance(data, _TYPED):
        target = _dt.int64
    else:
        target = _dt.as_dtype(arr.dtype)
    check_allocation(arr.shape, target.np)
    b = _backend.backend_for(dev)
    out = b.from_host(numpy.array(arr, dtype=target.np, copy=True))
    return finish(out, dev, requires_grad)


def _from_device_array(data, source, dtype, device, requires_grad):
    """tensor() of an array of a device's own array module: copied on that device, or moved."""
    dev = _backend.device(device) if device is not None else source
    target = _dt.as_dtype(dtype) if dtype is not None else _dt.as_dtype(data.dtype)
    if dev is source:
        out = array_module(dev).array(data, dtype=target.np, copy=True)
    else:
        host = _backend.backend_for(source).to_host(data)
        out = _backend.backend_for(dev).from_host(numpy.array(host, dtype=target.np, copy=True))
    return finish(out, dev, requires_grad)


def as_tensor(data, dtype=None, device=None):
    """PyTorch's: no copy where none is needed. A tensor is itself, or its conversion (recorded in
    its graph); a numpy array already of that dtype, kept on the CPU, is shared as from_numpy
    shares it (writes through either show in both)."""
    if isinstance(data, Tensor):
        if dtype is None and device is None:
            return data
        return data.to(device=device, dtype=dtype)
    if isinstance(data, numpy.ndarray) and _backend.device(device) is _backend.CPU and (
            dtype is None or _dt.as_dtype(dtype).np == data.dtype) and data.dtype.kind in "biuf":
        return from_numpy(data)
    return tensor(data, dtype=dtype, device=device)


def from_numpy(array):
    if not isinstance(array, numpy.ndarray):
        raise TypeError(f"expected a numpy array, got {type(array).__name__}")
    return make_tensor(array, _backend.CPU)


def _filled(size, value, dtype, device, requires_grad, default=None):
    shape = size_arg(size)
    dt = creation_dtype(dtype, default)
    check_allocation(shape, dt.np)
    dev = _backend.device(device)
    xp = array_module(dev)
    return finish(xp.full(shape, value, dtype=dt.np), dev, requires_grad)


def zeros(*size, dtype=None, device=None, requires_grad=False):
    return _filled(size, 0, dtype, device, requires_grad)


def ones(*size, dtype=None, device=None, requires_grad=False):
    return _filled(size, 1, dtype, device, requires_grad)


def empty(*size, dtype=None, device=None, requires_grad=False):
    return _filled(size, 0, dtype, device, requires_grad)


def full(size, fill_value, dtype=None, device=None, requires_grad=False):
    fill_value = number_argument("full", "fill_value", fill_value, 2)
    if isinstance(fill_value, Tensor):
        fill_value = fill_value.item()
    default = (_dt.bool_ if isinstance(fill_value, (bool, numpy.bool_)) else
               _dt.int64 if isinstance(fill_value, (int, numpy.integer)) else None)
    return _filled((size,) if not isinstance(size, (tuple, list)) else (tuple(size),),
                   fill_value, dtype, device, requires_grad, default)


def _like(x, value, dtype, device, requires_grad, memory_format=None, fname="zeros_like"):
    """A tensor of x's shape filled with value; memory_format is taken as PyTorch takes it (its rank
    checked), and asks for nothing more (every tensor here is row-major: engine/dtypes.py's MemoryFormat)."""
    if not isinstance(x, Tensor):
        raise not_a_tensor(x, fname, "input", 1)
    _dt.check_memory_format(memory_format, fname, x.dim())
    return _filled((tuple(x.shape),), value, dtype if dtype is not None else x.dtype,
                   device if device is not None else x.device, requires_grad)


def zeros_like(input, dtype=None, device=None, requires_grad=False, memory_format=None):
    return _like(input, 0, dtype, device, requires_grad, memory_format, "zeros_like")


def ones_like(input, dtype=None, device=None, requires_grad=False, memory_format=None):
    return _like(input, 1, dtype, device, requires_grad, memory_format, "ones_like")


def empty_like(input, dtype=None, device=None, requires_grad=False, memory_format=None):
    return _like(input, 0, dtype, device, requires_grad, memory_format, "empty_like")


def full_like(input, fill_value, dtype=None, device=None, requires_grad=False, memory_format=None):
    fill_value = number_argument("full_like", "fill_value", fill_value, 2)
    return _like(input, fill_value, dtype, device, requires_grad, memory_format, "full_like")


def eye(n, m=None, dtype=None, device=None, requires_grad=False):
    shape = size_arg((n,) if m is None else (n, m))
    dt = creation_dtype(dtype)
    check_allocation((shape[0], shape[-1]), dt.np)
    dev = _backend.device(device)
    return finish(array_module(dev).eye(shape[0], shape[-1], dtype=dt.np), dev, requires_grad)


def arange(start, end=None, step=1, dtype=None, device=None, requires_grad=False):
    if end is None:
        start, end = 0, start
    values = [v.item() if isinstance(v, Tensor) else v for v in (start, end, step)]
    if step == 0:
        raise RuntimeError("step must be nonzero")
    all_int = builtins.all(isinstance(v, (int, numpy.integer)) and not isinstance(v, bool) for v in values)
    dt = creation_dtype(dtype, _dt.int64 if all_int else None)
    n = builtins.max(0, math.ceil((values[1] - values[0]) / values[2]))
    check_allocation((n,), dt.np)
    dev = _backend.device(device)
    if dt.np.kind == "f":  # each element from its index (ranges.py)
        arr = _ranges.arange(values[0], values[2], n, dt.np)
    else:
        arr = numpy.arange(values[0], values[1], values[2], dtype=numpy.float64 if not all_int else numpy.int64)
    return finish(_backend.backend_for(dev).from_host(arr.astype(dt.np)), dev, requires_grad)


def linspace(start, end, steps, dtype=None, device=None, requires_grad=False):
    return _spaced(_ranges.linspace, start, end, steps, (), dtype, device, requires_grad)


def _spaced(kernel, start, end, steps, extra, dtype, device, requires_grad):
    """linspace / logspace: `kernel` (ranges.py) made on the host, then moved."""
    steps = int(steps)
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    dt = creation_dtype(dtype)
    check_allocation((steps,), dt.np)
    dev = _backend.device(device)
    start, end = (v.item() if isinstance(v, Tensor) else v for v in (start, end))
    arr = kernel(start, end, steps, *extra, dt.np)
    return finish(_backend.backend_for(dev).from_host(arr), dev, requires_grad)


def logspace(start, end, steps, base=10.0, dtype=None, device=None, requires_grad=False):
    """steps values from base**start to base**end, their exponents evenly spaced."""
    return _spaced(_ranges.logspace, start, end, steps, (float(base),), dtype, device, requires_grad)


def _random(size, draw, dtype, device, requires_grad):
    shape = size_arg(size)
    dt = creation_dtype(dtype)
    check_allocation(shape, dt.np)
    dev = _backend.device(device)
    arr = draw(numpy_draws(), shape).astype(dt.np, copy=False)  # drawn fresh: no copy needed
    return finish(_backend.backend_for(dev).from_host(arr), dev, requires_grad)


def rand(*size, dtype=None, device=None, requires_grad=False):
    """Uniform in [0, 1): PyTorch's numbers for the same manual_seed (generator.py)."""
    np_dtype = creation_dtype(dtype).np
    if np_dtype.kind != "f":
        return _random(size, lambda g, s: g.random(s), dtype, device, requires_grad)
    return _random(size, lambda g, s: uniform_draws(s, 0.0, 1.0, np_dtype), dtype, device, requires_grad)


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


def random_range(low, high, dt):
    """[low, high) of whole numbers to draw in dtype `dt`, checked as PyTorch's random_ checks it; `high`
    None is the dtype's own top (2**mantissa for a float, its largest value otherwise), included."""
    if high is None:
        top = 1 if dt.np.kind == "b" else numpy.iinfo(dt.np).max if dt.np.kind in "iu" else \
            2 ** (numpy.finfo(dt.np).nmant + 1)
        return low, top + 1
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    info = (0, 1) if dt.np.kind == "b" else numpy.iinfo(dt.np) if dt.np.kind in "iu" else numpy.finfo(dt.np)
    lo, hi = (info if isinstance(info, tuple) else (info.min, info.max))
    for what, value in (("from", low), ("to - 1", high - 1)):
        if not lo <= value <= hi:
            raise RuntimeError(f"{what} is out of bounds for {_dt.cpp_name(dt)}")
    return low, high


def draws_on(device, array, dt):
    """Host draws `array` as a tensor of dtype `dt` on `device` (not requiring grad)."""
    return make_tensor(_backend.backend_for(device).from_host(array.astype(dt.np, copy=False)), device)


def _number_arg(value, fname, what):
    """A number argument (a 0-d tensor's value too)."""
    value = value.item() if isinstance(value, Tensor) else value
    if isinstance(value, bool) or not isinstance(value, (int, float, numpy.integer, numpy.floating)):
        raise TypeError(f"{fname}(): argument '{what}' must be float, not {type(value).__name__}")
    return value


def normal(mean, std=1.0, size=None, *, generator=None, dtype=None, layout=None, device=None, pin_memory=False,
           requires_grad=False):
    """Normal random numbers of the given mean(s) and standard deviation(s).

    PyTorch's four overloads: (Tensor, Tensor), (Tensor, float), (float, Tensor) -- the broadcast shape,
    in the first tensor's dtype -- and (float, float, size). No gradient reaches mean or std: PyTorch's
    are zeros (NormalBackward1/2/3), not the reparameterised derivative."""
    tensors = [v for v in (mean, std) if isinstance(v, Tensor)]
    if size is not None or not tensors:
        if size is None:
            raise TypeError("normal() received an invalid combination of arguments - got (float, float), but "
                            "expected (float mean, float std, tuple of ints size) or a Tensor mean or std")
        if not isinstance(size, (tuple, list)):
            raise TypeError(f"normal(): argument 'size' must be tuple of ints, not {type(size).__name__}")
        mean, std = _number_arg(mean, "normal", "mean"), _number_arg(std, "normal", "std")
        _check_std(std)
        dt = creation_dtype(dtype)
        _check_floating(dt, "normal_kernel_cpu")
        return _random((tuple(size),), lambda g, s: g.standard_normal(s) * std + mean, dt, device, requires_grad)
    out_dt = tensors[0].dtype
    _check_floating(out_dt, "normal_kernel_cpu")
    if isinstance(std, Tensor):
        if not bool((std.detach() >= 0).all()):
            raise RuntimeError("normal expects all elements of std >= 0.0")
    else:
        std = _number_arg(std, "normal", "std")
        _check_std(std)
    if not isinstance(mean, Tensor):
        mean = _number_arg(mean, "normal", "mean")
    elif isinstance(std, Tensor) and std.dtype != out_dt:
        std = std.to(out_dt)  # (mean's dtype, as PyTorch's: the core would promote them)
    shape = _broadcast_shapes([tuple(t.shape) for t in tensors])
    check_allocation(shape, out_dt.np)
    draws = _backend.backend_for(tensors[0].device).from_host(numpy_draws().standard_normal(shape))
    return _apply(_TABLE["normal"], mean, std, draws=draws)


def _check_std(std):
    if not std >= 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")


def _check_floating(dt, kernel):
    """PyTorch's refusal of a kernel that only draws floating-point numbers."""
    if not dt.is_floating_point:
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_dt.scalar_name(dt)}\'')


def poisson(input, generator=None):
    """Poisson random counts with the input's values as rates.

    In the input's dtype; no gradient reaches the rates (PyTorch's zeros, PoissonBackward0)."""
    if not isinstance(input, Tensor):
        raise not_a_tensor(input, "poisson", "input", 1)
    _check_floating(input.dtype, "poisson_cpu")
    rate = _backend.backend_for(input.device).to_host(input.detach().array).astype(numpy.float64)
    if not bool(numpy.all(rate >= 0)):
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    huge = rate > 1e18  # beyond numpy's sampler; a count so large is its rate to within float precision
    samples = numpy.where(huge, rate, numpy_draws().poisson(numpy.where(huge, 0.0, rate)))
    return _apply(_TABLE["poisson"], input, samples=_backend.backend_for(input.device).from_host(samples))


def multinomial(input, num_samples, replacement=False, *, generator=None):
    """Random indices drawn with each row of input as the categories' weights.

    num_samples of them a row (input 1-D or 2-D), int64, each category at most once unless
    replacement=True."""
    if not input.dtype.is_floating_point:
        raise RuntimeError(f"multinomial only supports floating-point dtypes for input, got: "
                           f"{_dt.scalar_name(input.dtype)}")
    if input.dim() not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    n = int(num_samples)
    if not replacement and n > input.shape[-1]:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")
    if n <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    probs = _backend.backend_for(input.device).to_host(input.detach().array).astype(numpy.float64)
    rows = probs.reshape(-1, probs.shape[-1])
    if not bool(numpy.all(numpy.isfinite(rows) & (rows >= 0))):
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    if not bool(numpy.all(rows.sum(axis=1) > 0)):
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    g = numpy_draws()
    if replacement:
        cdf = numpy.cumsum(rows, axis=1)
        cdf /= cdf[:, -1:]  # the last exactly 1: a draw in [0, 1) always lands on a category of weight > 0
        offsets = numpy.arange(len(rows))[:, None]
        found = numpy.searchsorted((cdf + offsets).ravel(), (g.random((len(rows), n)) + offsets).ravel(), "right")
        last = rows.shape[1] - 1 - numpy.argmax(rows[:, ::-1] > 0, axis=1)  # (a sum rounded up to the next row)
        picks = numpy.minimum(found.reshape(len(rows), n) - offsets * rows.shape[1], last[:, None])
    else:  # the exponential race: the n largest p / E (E ~ Exp(1)) are a draw without replacement
        with numpy.errstate(divide="ignore", invalid="ignore"):
            keys = rows / g.standard_exponential(rows.shape)
        picks = numpy.argsort(-keys, axis=1, kind="stable")[:, :n]
    return draws_on(input.device, picks.reshape(probs.shape[:-1] + (n,)), _dt.int64)


def randint_like(input, low=None, high=None, *, dtype=None, layout=None, device=None, requires_grad=False,
                 memory_format=None):
    """Random whole numbers in [low, high) with the shape of a tensor.

    In its dtype unless dtype= says; randint_like(input, high) draws from [0, high)."""
    if low is None and high is None:
        raise TypeError("randint_like() missing 1 required argument: 'high'")
    if high is None:
        low, high = 0, low
    low = 0 if low is None else low
    for what, v in (("low", low), ("high", high)):
        v = v.item() if isinstance(v, Tensor) and v.dim() == 0 else v
        if isinstance(v, bool) or not isinstance(v, (int, numpy.integer)):
            raise TypeError(f"randint_like(): argument '{what}' must be int, not {type(v).__name__}")
    low, high = int(low), int(high)
    _dt.check_memory_format(memory_format, "randint_like", input.dim())
    dt = _dt.as_dtype(dtype) if dtype is not None else input.dtype
    low, high = random_range(low, high, dt)
    return _random((tuple(input.shape),), lambda g, s: g.integers(low, high, s), dt,
                   device if device is not None else input.device, requires_grad)


def rand_like(input, dtype=None, device=None, requires_grad=False, memory_format=None):
    if not isinstance(input, Tensor):
        raise not_a_tensor(input, "rand_like", "input", 1)
    _dt.check_memory_format(memory_format, "rand_like", input.dim())
    return rand(tuple(input.shape), dtype=dtype or input.dtype, device=device or input.device,
                requires_grad=requires_grad)


def randn_like(input, dtype=None, device=None, requires_grad=False, memory_format=None):
    if not isinstance(input, Tensor):
        raise not_a_tensor(input, "randn_like", "input", 1)
    _dt.check_memory_format(memory_format, "randn_like", input.dim())
    return randn(tuple(input.shape), dtype=dtype or input.dtype, device=device or input.device,
                 requires_grad=requires_grad)
