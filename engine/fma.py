"""a * b + c rounded once, as PyTorch's compiled CPU kernels compute it.

PyTorch's kernels are built with the compiler fusing `x + y * z` into one fused
multiply-add instruction, and many of them call one outright (add and sub with alpha,
lerp, addcmul, the optimisers' updates through them, arange, linspace). Computing the
same thing as numpy's `a * b + c` rounds twice and differs in the last bit now and then
-- enough to make a training run drift from PyTorch's. numpy has no fused multiply-add,
so it is emulated here exactly: an exact product (Dekker), an exact sum (Knuth), the
small parts rounded to odd, one final rounding (Boldo and Melquiond's proof).
"""
import numpy

__all__ = ["fma", "fma32", "multiply_add"]

_SPLIT = 134217729.0  # 2**27 + 1: Veltkamp's constant, splitting a double into two halves


def _two_sum(a, b):
    """(s, e) with s = a + b rounded and s + e = a + b exactly (Knuth)."""
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _two_product(a, b):
    """(p, e) with p = a * b rounded and p + e = a * b exactly (Dekker)."""
    p = a * b
    t = _SPLIT * a
    ah = t - (t - a)
    al = a - ah
    t = _SPLIT * b
    bh = t - (t - b)
    bl = b - bh
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def _sum_to_odd(a, b):
    """a + b rounded to odd: exact results as they are, any other to the neighbour whose last
    bit is 1 -- so a second, ordinary rounding to fewer bits is the correct rounding."""
    s, e = _two_sum(a, b)
    even = (s.view(numpy.int64) & 1) == 0
    return numpy.where((e != 0) & even, numpy.nextafter(s, numpy.where(e > 0, numpy.inf, -numpy.inf)), s)


def fma(a, b, c):
    """a * b + c rounded once, in double (Boldo and Melquiond's emulation: an exact
    product, an exact sum, the small parts rounded to odd, one final rounding)."""
    if a.__class__ in _SCALARS and b.__class__ in _SCALARS and c.__class__ in _SCALARS:
        return numpy.float64(_fma_of_floats(float(a), float(b), float(c)))
    a, b, c = (numpy.asarray(v, dtype=numpy.float64) for v in (a, b, c))
    with numpy.errstate(all="ignore"):
        ph, pl = _two_product(a, b)
        th, tl = _two_sum(c, ph)
        result = th + _sum_to_odd(tl, pl)
        plain = a * b + c
    return numpy.where(numpy.isfinite(result), result, plain)  # infinities and nans as a * b + c


_SCALARS = frozenset({float, numpy.float64})


def _fma_of_floats(a, b, c):
    """fma of three Python floats, for a scalar (numpy's steps cost a microsecond each on a
    scalar): the exact value as a ratio of integers, and Python's division of integers, which
    rounds correctly. An exact 0 takes a * b + c's signed zero (it is exact then too); an infinity,
    a NaN or an overflow takes a * b + c."""
    try:
        na, da = a.as_integer_ratio()
        nb, db = b.as_integer_ratio()
        nc, dc = c.as_integer_ratio()
        d = da * db
        n = na * nb * dc + nc * d
        return n / (d * dc) if n else a * b + c
    except (OverflowError, ValueError):
        return a * b + c


def fma32(a, b, c):
    """a * b + c rounded once to float32 (floats' product is exact in double)."""
    a, b, c = (numpy.asarray(v, dtype=numpy.float32).astype(numpy.float64) for v in (a, b, c))
    with numpy.errstate(all="ignore"):
        return _sum_to_odd(a * b, c).astype(numpy.float32)


_HOST = frozenset({float, int, numpy.ndarray, numpy.float32, numpy.float64})


def multiply_add(a, b, c, dtype):
    """a * b + c in `dtype`, rounded once where PyTorch's kernel fuses it (numpy float32 and
    float64); otherwise (integers, another array module) as a * b + c."""
    dtype = numpy.dtype(dtype)
    on_host = all(v.__class__ in _HOST for v in (a, b, c))  # exactly numpy's: not another module's arrays
    if on_host and dtype == numpy.float32:
        return fma32(a, b, c)
    if on_host and dtype == numpy.float64:
        return fma(a, b, c)
    return a * b + c
