"""torch.arange, torch.linspace and torch.logspace bit for bit as PyTorch makes them (engine/ranges.py),
against tests/golden/ranges.json (written by PyTorch 2.13: tests/golden/gen_ranges.py), and
the fused multiply-add they rest on (engine/fma.py) against exact rational arithmetic."""
import hashlib
import json
import pathlib
from fractions import Fraction

import numpy
import pytest

import autodiff.engine as E
from autodiff.engine.fma import fma, fma32

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "ranges.json").read_text("utf-8"))
DTYPES = {"float32": (E.float32, numpy.uint32), "float64": (E.float64, numpy.uint64),
          "int64": (E.int64, numpy.uint64), "int32": (E.int32, numpy.uint32)}


def _made(case):
    dtype = DTYPES[case["dtype"]][0]
    if case["kind"] == "logspace":
        a, b, c, base = case["args"]
        return E.logspace(a, b, c, base=base, dtype=dtype).numpy()
    a, b, c = case["args"]
    t = E.linspace(a, b, c, dtype=dtype) if case["kind"] == "linspace" else E.arange(a, b, c, dtype=dtype)
    return t.numpy()


@pytest.mark.parametrize("case", GOLDEN["cases"], ids=lambda c: f"{c['kind']}{c['args']}-{c['dtype']}")
def test_the_same_bits_as_pytorch(case):
    arr = _made(case)
    assert arr.size == case["n"]
    bits = arr.view(DTYPES[case["dtype"]][1])
    if "bits" in case:
        assert [int(b) for b in bits] == case["bits"]
    else:
        wrong = {i: (int(bits[int(i)]), want) for i, want in case["sample"].items() if int(bits[int(i)]) != want}
        assert not wrong
        assert hashlib.sha256(arr.tobytes()).hexdigest() == case["sha256"]


def test_the_golden_file_covers_every_part_of_the_kernels():
    kinds = {(c["kind"], c["dtype"]) for c in GOLDEN["cases"]}
    assert kinds >= {(k, d) for d in DTYPES for k in ("linspace", "logspace")} | {("arange", "float32"), ("arange", "float64")}
    assert any(c["n"] > 16 and c["n"] % 16 for c in GOLDEN["cases"] if c["kind"] == "arange")  # blocks + tail
    assert GOLDEN["torch"].startswith("2.13")


def test_numpys_own_ranges_would_differ():
    """The reason for ranges.py: numpy's linspace is not PyTorch's (so these tests can fail)."""
    case = next(c for c in GOLDEN["cases"] if c["kind"] == "linspace" and c["args"] == [-1, 1, 20]
                and c["dtype"] == "float32")
    assert [int(b) for b in numpy.linspace(-1, 1, 20).astype(numpy.float32).view(numpy.uint32)] != case["bits"]


def _exact(a, b, c):
    return Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c))


def _nearest(value, candidates):
    """The candidate nearest to `value`, ties to the even bit pattern (round half to even)."""
    return min(candidates, key=lambda x: (abs(Fraction(float(x)) - value), int(numpy.array(x).view(
        numpy.int32 if numpy.array(x).dtype == numpy.float32 else numpy.int64)) & 1))


def test_fma_rounds_once_in_double():
    rng = numpy.random.default_rng(7)
    n = 3000
    a = rng.standard_normal(n) * 10.0 ** rng.integers(-6, 6, n)
    b = rng.standard_normal(n) * 10.0 ** rng.integers(-6, 6, n)
    c = -a * b * (1 + rng.standard_normal(n) * 1e-13)  # near-total cancellation: the hard case
    c[::2] = rng.standard_normal(n)[::2]
    got = fma(a, b, c)
    for i in range(n):
        v = _exact(a[i], b[i], c[i])
        f = numpy.float64(float(v))  # Fraction -> float is correctly rounded
        assert got[i] == f, (a[i], b[i], c[i])


def test_fma32_rounds_once_in_single():
    rng = numpy.random.default_rng(8)
    n = 3000
    a = rng.standard_normal(n).astype(numpy.float32)
    b = (rng.standard_normal(n) * 100).astype(numpy.float32)
    c = (-(a.astype(numpy.float64) * b) * (1 + rng.standard_normal(n) * 1e-6)).astype(numpy.float32)
    got = fma32(a, b, c)
    for i in range(n):
        v = _exact(a[i], b[i], c[i])
        f = numpy.float32(float(v))
        want = _nearest(v, [numpy.nextafter(f, numpy.float32(-numpy.inf)), f, numpy.nextafter(f, numpy.float32(numpy.inf))])
        assert got[i] == want, (a[i], b[i], c[i])


def test_a_sum_just_below_a_halfway_point_rounds_down():
    """Rounding the exact sum twice (to double, then to the result) would land on the halfway
    point and round it to even, up: the one case that needs the round-to-odd step. Here
    a * b = 2**-k (1 - 2**-2p) just under half a unit of c's last place, c's last bit odd."""
    a64, b64, c64 = 1 + 2.0 ** -52, (1 - 2.0 ** -52) * 2.0 ** -53, 1 + 2.0 ** -52
    assert _exact(a64, b64, c64) < Fraction(1 + 2.0 ** -52) + Fraction(2) ** -53  # below halfway
    assert fma(a64, b64, c64) == 1 + 2.0 ** -52
    a32 = numpy.float32(1 + 2.0 ** -23)
    b32 = numpy.float32((1 - 2.0 ** -23) * 2.0 ** -24)
    c32 = numpy.float32(1 + 2.0 ** -23)
    assert numpy.float32(numpy.float64(a32) * numpy.float64(b32) + numpy.float64(c32)) == numpy.float32(1 + 2.0 ** -22)
    assert fma32(a32, b32, c32) == c32
