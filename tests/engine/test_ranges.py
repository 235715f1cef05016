"""torch.arange, torch.linspace and torch.logspace (engine/ranges.py) against PyTorch 2.13's values,
tests/golden/ranges.json (written by tests/golden/gen_ranges.py: the bits of every element, or of a
sample of a long one), within the dtype's tolerance; and what makes the ranges exact where they
can be: both ends of a linspace, and its symmetry."""
import json

import numpy
import pytest

import autodiff.engine as E
from tolerance import assert_close
import locations

GOLDEN = json.loads((locations.GOLDEN / "ranges.json").read_text("utf-8"))
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


def _pytorch_values(case, bits):
    """PyTorch's values from their recorded bit patterns."""
    unsigned = DTYPES[case["dtype"]][1]
    return numpy.array(bits, dtype=unsigned).view(numpy.dtype(case["dtype"]))


@pytest.mark.parametrize("case", GOLDEN["cases"], ids=lambda c: f"{c['kind']}{c['args']}-{c['dtype']}")
def test_as_pytorch(case):
    arr = _made(case)
    assert arr.size == case["n"] and arr.dtype == numpy.dtype(case["dtype"])
    if "bits" in case:
        got, want = arr, _pytorch_values(case, case["bits"])
    else:  # a long range: PyTorch's elements at a sample of places
        places = [int(i) for i in case["sample"]]
        got, want = arr[places], _pytorch_values(case, list(case["sample"].values()))
    if case["dtype"].startswith("int"):
        # integers truncate a double: where PyTorch's double lands just below a whole number and
        # ours on it (or the other way), they are one apart
        assert numpy.abs(got.astype(numpy.int64) - want.astype(numpy.int64)).max(initial=0) <= 1
    else:
        rtol = atol = None
        if case["kind"] == "logspace" and case["dtype"] == "float64":
            rtol = 4e-15  # the powers are as exact as each machine's pow: a few units in the last place
        if case["kind"] == "linspace" and case["dtype"] == "float32":
            # PyTorch steps in float32, whose rounding is relative to the range, not to each element: in
            # linspace(-1e6, 1e6, 999) its middle element is -0.0203 where the exact value (ours) is 0
            atol = 1.3e-6 * max(abs(case["args"][0]), abs(case["args"][1]))
        assert_close(got, want, rtol=rtol, atol=atol, what=case["kind"])


def test_the_golden_file_covers_every_dtype_and_kind():
    kinds = {(c["kind"], c["dtype"]) for c in GOLDEN["cases"]}
    assert kinds >= {(k, d) for d in DTYPES for k in ("linspace", "logspace")} | {("arange", "float32"), ("arange", "float64")}
    assert GOLDEN["torch"].startswith("2.13")


@pytest.mark.parametrize("dtype", [E.float32, E.float64])
def test_a_linspace_meets_both_ends_exactly_and_is_symmetric(dtype):
    rng = numpy.random.default_rng(3)
    for _ in range(200):
        a, b = rng.uniform(-100, 100, 2)
        n = int(rng.integers(2, 300))
        arr = E.linspace(a, -a if n % 3 == 0 else b, n, dtype=dtype).numpy()
        t = numpy.dtype(arr.dtype).type
        assert arr[0] == t(a) and arr[-1] == t(-a if n % 3 == 0 else b)
        if n % 3 == 0:  # from a to -a: the halves mirror each other (the middle one is about 0)
            half = n // 2
            assert (arr[:half] == -arr[::-1][:half]).all()


def test_each_arange_element_is_start_plus_index_times_step_rounded_once():
    arr = E.arange(0.1, 100.0, 0.3, dtype=E.float64).numpy()
    assert (arr == 0.1 + 0.3 * numpy.arange(arr.size)).all()
    assert arr.size == 334  # (100 - 0.1) / 0.3 is a little over 333 in double, as in PyTorch
