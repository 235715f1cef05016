"""One float64 through Python's math instead of a numpy ufunc, where the bits are the same.

A 0-d float64 tensor holds a numpy float64, and numpy's ufunc machinery costs about 250 ns for one
number; `math.sin` is C's libm at about 50 ns. Where numpy's own loop for a function is libm too (as
on x86-64 without AVX-512: numpy vectorises tanh there, not sin, cos, exp or log), the two give the
same bits for every input. Which is the case is this machine's numpy's business, so each function
is checked once, on its first float64 call, against numpy on probe values spread over its whole
domain (tiny, subnormal, ordinary and huge arguments, where implementations differ most); where any
probe differs, numpy keeps the job. Errors Python raises (math.sin(inf), math.log(0), exp
overflow) fall back to numpy, which returns its nan or inf.
"""
import math

import numpy

__all__ = ["libm_forward"]

_F64 = numpy.float64
_NEG_ZERO = numpy.float64(-0.0)  # -0.0 + v is v, as a numpy float64, for every v: -0.0 and nan included


def libm_forward(name):
    """A row's forward(xp, x) = xp.<name>(x), with a numpy float64 through math.<name> where this
    machine's numpy agrees with it (numpy's own scalar type and bits either way)."""
    fast, ufunc = getattr(math, name), getattr(numpy, name)
    agrees = [None]  # None until the first float64 asks

    def settle():
        agrees[0] = _agree(fast, ufunc)
        return agrees[0]

    def forward(xp, x):
        if x.__class__ is _F64 and (agrees[0] or (agrees[0] is None and settle())):
            try:
                return _NEG_ZERO + fast(x)
            except (ValueError, OverflowError):  # outside math's domain or range: numpy's nan or inf
                pass
        return ufunc(x) if xp is numpy else getattr(xp, name)(x)

    forward.__name__ = forward.__qualname__ = "forward"
    forward.__doc__ = f"xp.{name}(x); a numpy float64 through math.{name} where the bits agree (engine/libm.py)."
    return forward


def probes():
    """Arguments over every binade of float64, each sign, with the values around the points where
    libraries switch methods, and the specials."""
    ladder = numpy.ldexp(1.0, numpy.arange(-1074, 1024, 13))       # 2**e for e across the range
    mantissas = numpy.array([1.0, 1.3, 1.999999])
    spread = numpy.outer(ladder, mantissas).ravel()
    ordinary = numpy.linspace(-40.0, 40.0, 401)                     # where most calls are
    exps = numpy.linspace(-746.0, 710.5, 101)                       # exp's whole range and past it
    near = numpy.array([math.pi / 4, math.pi / 2, math.pi, 2 * math.pi, 1e5 * math.pi, 1e22, 2 ** 52 * math.pi])
    values = numpy.concatenate([spread, -spread, ordinary, exps, near, -near,
                                [0.0, -0.0, 1.0, -1.0, math.inf, -math.inf, math.nan, 5e-324, 2.2250738585072014e-308]])
    return numpy.nextafter(values, numpy.inf), values


def _agree(fast, ufunc):
    """Whether fast(v) has ufunc's bits for every probe where it returns: through an array (one
    call of the ufunc for all) and through numpy scalars (one number may take another path in
    numpy) for some of them."""
    above, values = probes()
    array = numpy.concatenate([values, above])
    with numpy.errstate(all="ignore"):
        expected = ufunc(array)
        scalars = [ufunc(v) for v in values[::61]]
    finite = numpy.isfinite(array) & numpy.isfinite(expected)
    try:  # (libm's finite results raise nothing)
        got = numpy.array(list(map(fast, array[finite].tolist())), dtype=numpy.float64)
    except (ValueError, OverflowError):
        return False
    if not numpy.array_equal(got.view(numpy.int64), expected[finite].view(numpy.int64)):
        return False
    special = ~numpy.isfinite(array)
    outside = numpy.isfinite(array) & ~finite  # (log of a negative number: every one raises alike)
    rest = list(zip(array[special].tolist(), expected[special])) + \
        list(zip(array[outside][::16].tolist(), expected[outside][::16])) + list(zip(values[::61].tolist(), scalars))
    for v, e in rest:  # nan, the infinities, some of what overflows or is out of the domain; some scalars
        try:
            got = fast(v)
        except (ValueError, OverflowError):
            continue
        if _bits(got) != _bits(e):
            return False
    return True


def _bits(v):
    return numpy.float64(v).view(numpy.int64)
