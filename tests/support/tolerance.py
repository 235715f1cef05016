"""How close our numbers must be to PyTorch's: one table, per dtype.

The defaults are torch.testing.assert_close's (rtol, atol) for each dtype. A test may hold an
op measured to be more exact to a tighter bound (test_golden_engine.py: float64 to rtol 1e-10); an op
measured to need more room gets it by name in the test that checks it, with the reason beside
it. No test compares our bits with another library's: numpy, its BLAS and
PyTorch each pick other code on other CPUs (AVX2, AVX-512), so the last bits of a sum, an exp
or a matrix product are the CPU's business. What must be the same bits is every path of ours
on one machine (tests/test_paths_agree.py).
"""
import math
import re

import numpy

DEFAULT = {
    "float16": (1e-3, 1e-5),
    "bfloat16": (1.6e-2, 1e-5),
    "float32": (1.3e-6, 1e-5),
    "float64": (1e-7, 1e-7),
}


def bounds(dtype, rtol=None, atol=None):
    """(rtol, atol) for `dtype` (a name or a numpy dtype), either overridden by the caller."""
    name = numpy.dtype(dtype).name if not isinstance(dtype, str) else dtype
    default_rtol, default_atol = DEFAULT.get(name, (0.0, 0.0))  # integers, bools: exact
    return (default_rtol if rtol is None else rtol), (default_atol if atol is None else atol)


def assert_close(got, want, dtype=None, rtol=None, atol=None, what=""):
    """|got - want| <= atol + rtol * |want| elementwise, as torch.testing.assert_close: NaN where
    PyTorch has NaN (and only there), infinities equal, shapes equal."""
    got = numpy.asarray(got)
    want = numpy.asarray(want)
    assert got.shape == want.shape, f"{what}: shape {got.shape}, PyTorch's {want.shape}"
    rtol, atol = bounds(dtype if dtype is not None else want.dtype, rtol, atol)
    g = got.astype(numpy.float64) if got.dtype.kind in "fiub" else got
    w = want.astype(numpy.float64) if want.dtype.kind in "fiub" else want
    nan = numpy.isnan(w)
    assert (numpy.isnan(g) == nan).all(), f"{what}: NaN where PyTorch has none, or none where it has one:\n{g}\n{w}"
    infinite = numpy.isinf(w)
    assert (g[infinite] == w[infinite]).all() and not numpy.isinf(g[~infinite]).any(), \
        f"{what}: infinities differ:\n{g}\n{w}"
    finite = ~nan & ~infinite
    with numpy.errstate(invalid="ignore", over="ignore"):
        gap = numpy.abs(g[finite] - w[finite])
        allowed = atol + rtol * numpy.abs(w[finite])
    if gap.size and not (gap <= allowed).all():
        worst = int(numpy.argmax(gap - allowed))
        raise AssertionError(f"{what}: {int((gap > allowed).sum())} of {gap.size} elements further from PyTorch's "
                             f"than {atol} + {rtol} * |value|; the worst {g[finite][worst]!r} against "
                             f"{w[finite][worst]!r}")


_NUMBER = re.compile(r"(?<![\w.])[-+]?(?:(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|inf|nan)(?![\w.])")


def _half_unit(text):
    """Half a unit in the last printed digit of a number's text (0.2458 -> 5e-5): how far the
    value it stands for may be from it. None for a number printed without decimals (2, 5.): a
    whole number, which must be the same."""
    mantissa, _, exponent = text.lower().partition("e")
    decimals = len(mantissa.partition(".")[2])
    return 0.5 * 10.0 ** (int(exponent or 0) - decimals) if decimals or exponent else None


def assert_output_close(actual, expected, rtol=1.3e-6, atol=1e-5, what="output"):
    """Printed text as PyTorch printed it: the same words and whole numbers, and each other number
    within rtol/atol of PyTorch's (float32's by default: programs print the tutorials' float32),
    give or take the rounding of both prints (two values that close can round to neighbouring
    prints, 0.245831 and 0.24583)."""
    if actual == expected:
        return
    words_a, words_e = _NUMBER.split(actual), _NUMBER.split(expected)
    nums_a, nums_e = _NUMBER.findall(actual), _NUMBER.findall(expected)
    assert words_a == words_e and len(nums_a) == len(nums_e), f"{what} differs in more than its numbers:\n{actual}\n--- PyTorch's:\n{expected}"
    for a, e in zip(nums_a, nums_e):
        fa, fe = float(a), float(e)
        if math.isnan(fe) or math.isinf(fe):
            assert a == e, f"{what}: {a} where PyTorch printed {e}"
            continue
        half_a, half_e = _half_unit(a), _half_unit(e)
        if half_a is None or half_e is None:
            assert fa == fe, f"{what}: {a} where PyTorch printed {e}\n{actual}"
            continue
        allowed = atol + rtol * abs(fe) + half_a + half_e
        assert abs(fa - fe) <= allowed, f"{what}: {a} where PyTorch printed {e}\n{actual}"


def recorded_values(values):
    """A golden file's values (floats, or float.hex strings for exactness; nested lists) as an array."""
    flat = numpy.ravel(numpy.array(values, dtype=object))
    return numpy.array([float.fromhex(v) if isinstance(v, str) else v for v in flat], dtype=numpy.float64)


def assert_recorded_close(got, want, rtol=None, atol=None, what=""):
    """Two recorded tensors ({"dtype": "torch.float64", "shape": [...], "values": [...]}, or None):
    the same dtype and shape, integers and bools equal, floats within the dtype's tolerance."""
    if want is None:
        assert got is None, f"{what}: PyTorch has None"
        return
    assert got is not None, f"{what}: PyTorch has a tensor"
    assert (got["dtype"], got["shape"]) == (want["dtype"], want["shape"]), what
    dtype = want["dtype"].split(".")[-1]
    if "float" not in dtype:
        assert got["values"] == want["values"], f"{what}: {got['values']} where PyTorch has {want['values']}"
        return
    assert_close(recorded_values(got["values"]), recorded_values(want["values"]), dtype, rtol, atol, what)
