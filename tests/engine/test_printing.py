"""`tensor_repr` against PyTorch's own `repr`, recorded in tests/golden/printing.json
by tests/golden/gen_printing.py (torch is not needed to run these tests).

Each case is printed through a stand-in tensor (array, dtype, device,
requires_grad, grad_fn), so printing is tested apart from the engine core.
"""
import importlib.util
import json
import math
import sys
import types

import numpy
import pytest

import locations

ROOT = locations.ROOT
GOLDEN = locations.GOLDEN / "printing.json"


def _load_printing():
    """The installed module, or engine/printing.py loaded by path (with
    engine/dtypes.py beside it in a stand-in package) before installation."""
    try:
        from autodiff.engine import printing
        return printing
    except ImportError:
        pass
    pkg_name = "_autodiff_printing_under_test"
    pkg = sys.modules.get(pkg_name)
    if pkg is None:
        pkg = types.ModuleType(pkg_name)
        pkg.__path__ = [str(ROOT / "engine")]
        sys.modules[pkg_name] = pkg
    modules = {}
    for name in ("dtypes", "printing"):
        full = f"{pkg_name}.{name}"
        if full not in sys.modules:
            spec = importlib.util.spec_from_file_location(full, ROOT / "engine" / f"{name}.py")
            module = importlib.util.module_from_spec(spec)
            sys.modules[full] = module
            spec.loader.exec_module(module)
        modules[name] = sys.modules[full]
    return modules["printing"]


printing = _load_printing()
tensor_repr = printing.tensor_repr
dtypes = sys.modules[printing.__name__.rsplit(".", 1)[0] + ".dtypes"]


class FakeDevice:
    def __init__(self, spec="cpu"):
        self.type, _, index = spec.partition(":")
        self.index = int(index) if index else None

    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"


class FakeNode:
    def __init__(self, name):
        self._name = name

    def name(self):
        return self._name


class FakeTensor:
    """What tensor_repr reads from a Tensor, and nothing else."""

    def __init__(self, array, dtype, device="cpu", requires_grad=False, grad_fn=None):
        self.array = array
        self.dtype = dtypes.as_dtype(dtype)
        self.device = FakeDevice(device)
        self.requires_grad = requires_grad
        self.grad_fn = FakeNode(grad_fn) if grad_fn else None

    def __array__(self, dtype=None, copy=None):
        return self.array if dtype is None else self.array.astype(dtype)


_SPECIAL = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}


def _decode(values):
    if isinstance(values, list):
        return [_decode(v) for v in values]
    if isinstance(values, str):
        return _SPECIAL[values]
    return values


def _from_case(case):
    dt = dtypes.as_dtype(case["dtype"])
    array = numpy.array(_decode(case["values"]), dtype=dt.np).reshape(case["shape"])
    return FakeTensor(array, dt, requires_grad=case["requires_grad"], grad_fn=case["grad_fn"])


@pytest.fixture
def print_state():
    """Options and default dtype as a case sets them, restored afterwards."""
    old_default = dtypes.get_default_dtype()

    def apply(options, default_dtype="float64"):
        dtypes.set_default_dtype(default_dtype)
        printing.set_printoptions(**options)

    yield apply
    dtypes.set_default_dtype(old_default)
    printing.set_printoptions(profile="default")


CASES = json.loads(GOLDEN.read_text())["cases"]


def test_golden_file_is_broad():
    assert len(CASES) >= 80
    assert len({c["name"] for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_matches_pytorch(case, print_state):
    print_state(case["options"], case["default_dtype"])
    assert tensor_repr(_from_case(case)) == case["expected"]


def f64(values, **kw):
    return FakeTensor(numpy.array(values, dtype=numpy.float64), "float64", **kw)


# PyTorch's documented outputs (with our default dtype, float64, printing bare).
@pytest.mark.parametrize("tensor, expected", [
    (f64([5.]), "tensor([5.])"),
    (f64(7.38905609893065, grad_fn="ExpBackward0"), "tensor(7.3891, grad_fn=<ExpBackward0>)"),
    (f64([[2., 2.], [2., 2.]], requires_grad=True),
     "tensor([[2., 2.],\n        [2., 2.]], requires_grad=True)"),
    (f64([[0.25, 0.25], [0.25, 0.25]]), "tensor([[0.2500, 0.2500],\n        [0.2500, 0.2500]])"),
    (f64([[-2., -2.], [0., 2.]]), "tensor([[-2., -2.],\n        [ 0.,  2.]])"),
    (f64([10., 1.]), "tensor([10.,  1.])"),
])
def test_documented_outputs(tensor, expected, print_state):
    print_state({})
    assert tensor_repr(tensor) == expected


def test_device_suffix_comes_first(print_state):
    print_state({})
    t = FakeTensor(numpy.array([1.5, 2.0], dtype=numpy.float32), "float32", device="cuda:0",
                   requires_grad=True)
    # PyTorch counts the last line as two longer than it is, so requires_grad wraps
    assert tensor_repr(t) == ("tensor([1.5000, 2.0000], device='cuda:0', dtype=torch.float32,\n"
                              "       requires_grad=True)")


def test_suffix_wraps_past_linewidth(print_state):
    print_state({})
    t = FakeTensor(numpy.arange(20, dtype=numpy.float32), "float32", device="cuda:0", grad_fn="MulBackward0")
    assert tensor_repr(t) == (
        "tensor([ 0.,  1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10., 11., 12., 13.,\n"
        "        14., 15., 16., 17., 18., 19.], device='cuda:0', dtype=torch.float32,\n"
        "       grad_fn=<MulBackward0>)")


def test_set_printoptions_defaults_and_sci_mode_reset(print_state):
    printing.set_printoptions(precision=2, sci_mode=True)
    assert printing.get_printoptions() == dict(precision=2, threshold=1000, edgeitems=3,
                                               linewidth=80, sci_mode=True)
    printing.set_printoptions(linewidth=100)  # as in PyTorch, sci_mode falls back to None
    assert printing.get_printoptions()["sci_mode"] is None
    assert printing.get_printoptions()["precision"] == 2
    printing.set_printoptions(profile="default")
    assert printing.get_printoptions() == dict(precision=4, threshold=1000, edgeitems=3,
                                               linewidth=80, sci_mode=None)


def test_printoptions_context_restores(print_state):
    with printing.printoptions(precision=1):
        assert tensor_repr(f64([1.25, 2.5])) == "tensor([1.2, 2.5])"
    assert tensor_repr(f64([1.25, 2.5])) == "tensor([1.2500, 2.5000])"


def test_many_dimensions_print(print_state):
    print_state({})
    t = f64(numpy.ones((1,) * 40))
    s = tensor_repr(t)
    assert s == "tensor(" + "[" * 40 + "1." + "]" * 40 + ")"
