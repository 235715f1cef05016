"""arange, linspace and logspace as arrays of a given dtype, made on the host.

Each element is computed on its own from its index in double (never by adding up steps, which
would carry every rounding along), then rounded once to the dtype. linspace takes the first
half from `start` and the second half back from `end`, so both ends come out exactly and the
values are symmetric about the middle, as PyTorch's are.
"""
import numpy


def _evenly_spaced(start, end, steps):
    """steps float64 values from start to end, both exact, each half measured from its own end."""
    if steps == 1:
        return numpy.full(1, numpy.float64(start))
    start, end = numpy.float64(start), numpy.float64(end)
    i = numpy.arange(steps, dtype=numpy.float64)
    with numpy.errstate(all="ignore"):
        step = (end - start) / (steps - 1)
        return numpy.where(i < steps // 2, start + step * i, end - step * (steps - 1 - i))


def _in_dtype(value, np_dtype):
    """start or end as PyTorch takes it: in the dtype first (an integer dtype truncates 2.77 to 2)."""
    return numpy.float64(numpy.dtype(np_dtype).type(value))


def linspace(start, end, steps, np_dtype):
    """torch.linspace(start, end, steps) in `np_dtype` (a numpy dtype; integers truncate)."""
    return _evenly_spaced(_in_dtype(start, np_dtype), _in_dtype(end, np_dtype), steps).astype(np_dtype)


def arange(start, step, n, np_dtype):
    """torch.arange's n elements from `start` by `step` in a floating `np_dtype`."""
    return (numpy.float64(start) + numpy.float64(step) * numpy.arange(n, dtype=numpy.float64)).astype(np_dtype)


def logspace(start, end, steps, base, np_dtype):
    """torch.logspace(start, end, steps, base): base to the power of linspace's exponents, in
    double, rounded to `np_dtype`."""
    with numpy.errstate(all="ignore"):
        if steps == 1:  # PyTorch takes base ** start as it is then
            return numpy.full(1, numpy.power(numpy.float64(base), numpy.float64(start))).astype(np_dtype)
        exponents = _evenly_spaced(_in_dtype(start, np_dtype), _in_dtype(end, np_dtype), steps)
        return numpy.power(numpy.float64(base), exponents).astype(np_dtype)
