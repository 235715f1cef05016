"""PyTorch's autograd semantics, recorded in tests/golden/semantics.json by
tests/golden/gen_semantics.py (torch is not needed to run these tests).

Each golden case is a small program written against a namespace `T` (here
`autodiff.engine`, with the generator's shim: `T.grad`, `T.backward`,
`T.gradcheck`, `T.gradgradcheck`, `T.GradcheckError` are the engine's own names)
plus the helpers `catch` and `warns` of tests/golden/semantics_shim.py, the
same code the generator ran. The generator ran it under PyTorch and recorded
its `result` dict; here every recorded value must match:

- tensors, None, bools, ints, floats, strings: as tests/engine/test_golden_engine.py
  compares them (its `compare`), floats within tolerance; in a case marked `exact` (where a cast
  before or after a sum is one unit in the last place apart, inside any tolerance), float tensors
  also bit for bit against the same casts written here in numpy (EXACT_REFERENCES) -- never
  against PyTorch's bits, which belong to its kernels and the CPU;
- dtypes by name;
- an error recorded by `catch`: our exception's class, or one of its bases, has
  PyTorch's class name (so `except RuntimeError` catches both), and the message
  equals PyTorch's exactly, unless the case is `loose` (see the generator: first
  line only, without the C++ "(Triggered internally at ...)" suffix, or without the
  "torch::autograd::" namespace in node names), each with its reason there;
- a warning recorded by `warns`: category name and message, likewise.

Cases in group "semantics" use only API the engine already has; group "api"
holds the ops and functions the engine is to gain (test ids `api-...`), so that
a missing function never hides a semantic check.
"""
import inspect
import json
import math
import re
import warnings

import numpy
import pytest

import autodiff.engine as ad

import test_golden_engine as base
from semantics_shim import PROGRAM_HELPERS, Caught, Warned
import locations

GOLDEN = locations.GOLDEN / "semantics.json"
DOCUMENT = json.loads(GOLDEN.read_text())
CASES = DOCUMENT["cases"]


class EngineNamespace:
    """`T` for our engine: autodiff.engine itself; the shim names of the generator
    (grad, backward, gradcheck, gradgradcheck, GradcheckError) are the engine's own."""

    def __getattr__(self, name):
        return getattr(ad, name)


def _close_generators(namespace):
    """Close the generators a case left suspended, here and now. Left to the garbage
    collector, a mode-decorated generator is closed inside its grad mode, which sets a
    context variable; on CPython 3.10/3.11 the collector may run in the middle of another
    context variable's set, and that re-entry corrupts the context (CPython issue 148891:
    numpy's error state vanished from it and `errstate.__exit__` raised LookupError)."""
    for value in list(namespace.values()):
        if inspect.isgenerator(value):
            value.close()


def run_program(program):
    namespace = {"T": EngineNamespace(), **PROGRAM_HELPERS}
    previous = ad.get_default_dtype()
    ad.set_default_dtype(ad.float64)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(compile(program, "<golden case>", "exec"), namespace)
    finally:
        _close_generators(namespace)
        ad.set_default_dtype(previous)
        if not ad.is_grad_enabled():  # a case that failed half way must not leak the mode
            ad.set_grad_enabled(True)
    return namespace["result"]


_TRIGGERED = re.compile(r" \(Triggered internally at [^)]*\)")


def normalize(text, loose):
    """A string as the case's `loose` modes say to compare it."""
    if "no_torch_autograd_prefix" in loose:
        text = text.replace("torch::autograd::", "")
    if "no_triggered_internally" in loose:
        text = _TRIGGERED.sub("", text)
    return text


def _message_matches(got, want, loose):
    got, want = normalize(got, loose), normalize(want, loose)
    if "first_line" in loose:
        got, want = got.split("\n", 1)[0], want.split("\n", 1)[0]
    return got == want


def compare(actual, expected, where, problems, loose=(), exact=False):
    """`base.compare` extended with errors, warnings, dtypes and the case's modes."""
    kind = expected["kind"]
    if kind in ("error", "warning"):
        cls = Caught if kind == "error" else Warned
        if not isinstance(actual, cls):
            problems.append(f"{where}: expected {kind} {expected['type']}: {expected['message']!r}\n"
                            f"  got {actual!r}")
            return
        if expected["type"] not in actual.bases:
            problems.append(f"{where}: {kind} type {actual.type} (bases {actual.bases}) is not "
                            f"{expected['type']}")
        if not _message_matches(actual.message, expected["message"], loose):
            problems.append(f"{where}: {kind} message\n  got      {actual.message!r}\n"
                            f"  expected {expected['message']!r}")
        return
    if isinstance(actual, Caught):
        problems.append(f"{where}: raised {actual.type}: {actual.message!r}, PyTorch gave a {kind}")
        return
    if kind in ("tuple", "list"):
        if not isinstance(actual, (tuple, list)):
            problems.append(f"{where}: expected a {kind}, got {type(actual).__name__}: {actual!r}")
            return
        if kind == "tuple" and not isinstance(actual, tuple):
            problems.append(f"{where}: expected a tuple, got {type(actual).__name__}")
        items = expected["items"]
        if len(actual) != len(items):
            problems.append(f"{where}: length {len(actual)} != {len(items)}: {actual!r}")
            return
        for i, (a, e) in enumerate(zip(actual, items)):
            compare(a, e, f"{where}[{i}]", problems, loose, exact)
        return
    if kind == "dtype":
        if not isinstance(actual, ad.DType) or base.dtype_name(actual) != expected["value"]:
            problems.append(f"{where}: expected dtype {expected['value']}, got {actual!r}")
        return
    if kind == "str":
        if not isinstance(actual, str) or normalize(actual, loose) != normalize(expected["value"], loose):
            problems.append(f"{where}: expected {expected['value']!r}, got {actual!r}")
        return
    if kind == "tensor" and exact and isinstance(actual, ad.Tensor) and expected["dtype"] == "float64":
        # a float64 result of float32 values (exp of a float32, a float32 gradient widened): float32's
        # tolerance, as the float32 computation inside it has (its bits are checked by _same_bits)
        expected = dict(expected, dtype="float32")
        actual = actual.float()
    base.compare(actual, expected, where, problems)


def _f32(values):
    return numpy.array(values, dtype=numpy.float32)


def _f64(values):
    return numpy.array(values, dtype=numpy.float64)


def _mixed_graph_values():
    a, b = _f32([0.1, 0.7, -1.3]), _f64([2.0, -0.5, 0.25])
    e = numpy.exp(a)  # float32's exp, as the engine's row computes it
    return {"y": (e.astype(numpy.float64) * b).sum() + numpy.float64((a * a).sum()),
            "a.grad": b.astype(numpy.float32) * e + (a + a),  # each gradient cast to a's dtype, then added
            "b.grad": e.astype(numpy.float64)}


# The `exact` cases' float results, computed here with the casts where PyTorch's semantics put them
# (a gradient cast to its input's dtype before it is accumulated or reduced, or after): the cast
# the other way round differs by one unit in the last place, which only bits show.
EXACT_REFERENCES = {
    "dtype_cast_before_accumulation": lambda: {"a.grad": _f32([-0.982, -0.907, -0.638]) + _f32([0.91, -0.607, 0.511])},
    "dtype_cast_before_expand_reduction": lambda: {"a.grad": _f32([-0.524, 0.088, -0.26, 0.208]).sum(keepdims=True)},
    "dtype_broadcast_reduced_then_cast":
        lambda: {"a.grad": _f64([-0.524, 0.088, -0.26, 0.208]).sum(keepdims=True).astype(numpy.float32)},
    "dtype_cast_through_double": lambda: {"a.grad": _f32([1.0 / 3.0, 2.0 / 3.0, 1.0 / 7.0]),
                                          "y": _f32([0.1, 0.2, 0.3]).astype(numpy.float64)
                                          * _f64([1.0 / 3.0, 2.0 / 3.0, 1.0 / 7.0])},
    "dtype_mixed_graph_values": _mixed_graph_values,
}


def _same_bits(result, reference, problems):
    """The exact cases' float tensors bit for bit against EXACT_REFERENCES's numpy (same machine)."""
    for key, want in reference.items():
        got = numpy.asarray(result[key].detach().cpu().numpy())
        want = numpy.asarray(want)
        if got.dtype != want.dtype or not numpy.array_equal(got, want, equal_nan=True):
            problems.append(f"{key}: not the bits of the same casts in numpy\n  got      "
                            f"{[float(v).hex() for v in got.ravel()]}\n  expected {[float(v).hex() for v in want.ravel()]}")


def test_golden_file_is_well_formed():
    names = [case["name"] for case in CASES]
    assert len(names) == len(set(names))
    assert DOCUMENT["default_dtype"] == "float64"
    assert set(KNOWN_DIFFERENCES) <= set(names)
    for case in CASES:
        assert case["group"] in ("semantics", "api"), case["name"]
        assert set(case["loose"]) <= {"first_line", "no_triggered_internally", "no_torch_autograd_prefix"}
    assert {case["name"] for case in CASES if case["exact"]} == set(EXACT_REFERENCES)


def test_the_exact_references_tell_the_two_casts_apart():
    """Each bit check can fail: the cast on the other side of the sum gives other bits."""
    b1, b2 = _f64([-0.982, -0.907, -0.638]), _f64([0.91, -0.607, 0.511])
    assert not numpy.array_equal(EXACT_REFERENCES["dtype_cast_before_accumulation"]()["a.grad"],
                                 (b1 + b2).astype(numpy.float32))
    assert EXACT_REFERENCES["dtype_cast_before_expand_reduction"]()["a.grad"] != \
        EXACT_REFERENCES["dtype_broadcast_reduced_then_cast"]()["a.grad"]


# Where the engine knowingly differs from PyTorch, and why (strict: each flags itself once it matches).
KNOWN_DIFFERENCES = {
    "view_api_unbind_hook_backward_each": (
        "unbind/split outputs each have a node of their own here; in PyTorch they share one multi-output "
        "node, so a hook on output 0 also runs (with None) when backward starts from another output"),
}


def _params():
    for case in CASES:
        prefix = "" if case["group"] == "semantics" else "api-"
        marks = ()
        if case["name"] in KNOWN_DIFFERENCES:
            marks = (pytest.mark.xfail(strict=True, reason=KNOWN_DIFFERENCES[case["name"]]),)
        yield pytest.param(case, id=prefix + case["name"], marks=marks)


@pytest.mark.parametrize("case", list(_params()))
def test_engine_matches_pytorch(case):
    result = run_program(case["program"])
    expected = case["result"]
    problems = []
    missing = set(expected) - set(result)
    if missing:
        problems.append(f"result lacks {sorted(missing)}")
    for key, record in expected.items():
        if key in result:
            compare(result[key], record, key, problems, case["loose"], case["exact"])
    if case["exact"]:
        _same_bits(result, EXACT_REFERENCES[case["name"]](), problems)
    assert not problems, "engine differs from PyTorch in case {!r}:\n{}\n\nprogram:\n{}".format(
        case["name"], "\n".join(problems), case["program"])


def test_loose_modes_do_what_they_say():
    """The looser message checks accept only what they name."""
    torch_msg = ("which is output 0 of torch::autograd::CopySlices, is at version 1\nmore")
    assert _message_matches("which is output 0 of CopySlices, is at version 1\nother",
                            torch_msg, ["no_torch_autograd_prefix", "first_line"])
    assert not _message_matches("which is output 0 of CopySlices, is at version 2", torch_msg,
                                ["no_torch_autograd_prefix", "first_line"])
    assert _message_matches("a. b", "a. b (Triggered internally at /x/y.h:493.)", ["no_triggered_internally"])
    assert not _message_matches("a. b", "a. b (Triggered internally at /x/y.h:493.)", [])
    assert math.isnan(base.decode_floats("nan"))
