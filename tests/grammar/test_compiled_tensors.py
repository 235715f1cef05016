"""Tensors bound on the command line in the compiled form (grammar/compiled.py `_tensor_result`): a
one-line job whose variables are float64 tensors of one shape (`--set x=[...]`) and f weighted by a
number (or by weights of f's shape) runs the rows on the arrays and the backward from the weights --
a number as one number, as the engine's backward takes a uniform gradient through elementwise rows. For generated jobs the lane takes them and
gives the engine form's and the full pipeline's bits and JSON line; what it does not take (no weights,
--jacobian, a number variable beside the tensors, two shapes, one element, a ragged list, more elements
than MAX_TENSOR, which the lane's unwatched memory would not bound) the engine form does, with the
same results or error."""
import random

import numpy
import pytest

from autodiff.grammar import compiled
from autodiff.grammar.job import JobOptions, run_job
from lane_forms import FUNCTIONS, three_forms

def _three_forms(source, bindings, **kw):
    return three_forms(source, (compiled, "run"), bindings, **kw)


def _tensor(r, shape):
    return str(numpy.array([round(r.uniform(-1.5, 2.5), 3) for _ in range(int(numpy.prod(shape)))])
               .reshape(shape).tolist())


def _formula(r):
    f, g = r.choice(FUNCTIONS), r.choice(FUNCTIONS)
    a, b = (f"{r.uniform(-2, 2):.4g}" for _ in range(2))
    e = r.choice(["2", "3", "0.5", "-1", "2.5"])
    return r.choice([f"{f}({a}*x) * y + x**{e}", f"{f}(x*y) / y - {b}/x", f"-{f}(x - y)**2 + {b}*y*x",
                     f"z = {f}(x); z*z*y - x**{e}", f"{f}({g}(x)) - x/{b} + y", f"w = {a}; {f}(x + w)*y",
                     f"({a} - x*y)**{e} * {f}(y)", f"{a}*x**2 + {b}*x - y"])


@pytest.mark.parametrize("seed", range(25))
def test_generated_jobs_take_the_lane_with_the_engine_forms_bits(seed):
    r = random.Random(seed)
    taken = 0
    for _ in range(25):
        shape = r.choice([(4,), (2, 3), (3, 1), (2, 2, 2)])
        bindings = (("x", _tensor(r, shape)), ("y", _tensor(r, shape)))
        weights = r.choice(["1", "-0.75", "2", _tensor(r, shape)])  # a number, or weights of f's shape
        kw = r.choice([{}, {}, {"wrt": ("x",)}, {"wrt": ("y", "x")}])
        lane, took, engine, full = _three_forms(_formula(r), bindings, weights=weights, **kw)
        assert lane == engine == full, (bindings, weights)
        taken += took
    assert taken >= 5  # (a NaN in a gradient takes the engine form: its sign bit may differ)


def test_hand_derived_values():
    r = run_job("sin(x)*y + x**2", (("x", "[0.5, 1.5]"), ("y", "[2, -1]")), JobOptions(weights="2"))
    x, y = numpy.array([0.5, 1.5]), numpy.array([2.0, -1.0])
    assert r.shape == (2,) and numpy.allclose(r.value, numpy.sin(x) * y + x ** 2)
    assert numpy.allclose(r.grad["x"], 2 * (numpy.cos(x) * y + 2 * x))
    assert numpy.allclose(r.grad["y"], 2 * numpy.sin(x))
    r = run_job("x + 1", (("x", "[[1, 2], [3, 4]]"),), JobOptions(weights="-0.5"))  # one number, spread
    assert r.grad["x"].shape == (2, 2) and (r.grad["x"] == -0.5).all()


@pytest.mark.parametrize("bindings, kw", [
    ((("x", "[0.5, 1.5]"), ("y", "[2, -1]")), {}),                            # f not weighted: the error
    ((("x", "[0.5, 1.5]"), ("y", "[2, -1]")), {"weights": "1", "jacobian": True}),
    ((("x", "[0.5, 1.5]"), ("y", "2")), {"weights": "1"}),                     # a number beside a tensor
    ((("x", "[0.5, 1.5]"), ("y", "[[2], [-1]]")), {"weights": "1"}),           # two shapes
    ((("x", "[0.5]"), ("y", "[2]")), {"weights": "1"}),                        # one element
    ((("x", "[0.5, [1.5]]"), ("y", "[2, -1]")), {"weights": "1"}),             # ragged
    ((("x", "[9007199254740993, 1]"), ("y", "[2, -1]")), {"weights": "1"}),   # an int float64 rounds
    ((("x", "[0.5, 1.5]"), ("y", "[2, -1]")), {"weights": "[[1, 2]]"}),        # weights of another shape
    ((("x", str([0.5] * 4097)), ("y", str([2.0] * 4097))), {"weights": "1"}),   # past MAX_TENSOR: under the budget
])
def test_what_the_lane_does_not_take_the_engine_form_does(bindings, kw):
    lane, took, engine, full = _three_forms("sin(x)*y + x**2", bindings, **kw)
    assert took == 0 and lane == engine == full


def test_the_batch_benchmarks_formulas_on_tensors_all_take_the_lane():
    import sys
    import pathlib
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "benchmarks"))
    from bench_cli import make_jobs
    bindings = (("x", "[0.3, 0.7, 1.1, 1.9]"), ("y", "[0.5, 0.25, 1.5, 2.0]"))
    options = JobOptions(weights="1")
    before = compiled.taken["lane"]
    for _, _, formula in make_jobs(300, seed=3):
        run_job(formula, bindings, options)
    assert compiled.taken["lane"] - before == 300


def test_wrt_a_name_f_does_not_use_is_zeros_of_its_shape():
    lane, took, engine, full = _three_forms("sin(x) * 2", (("x", "[0.5, 1.5]"), ("y", "[2, -1]")), weights="1",
                                           wrt=("y", "x"))
    assert took == 1 and lane == engine == full
    r = run_job("sin(x) * 2", (("x", "[0.5, 1.5]"), ("y", "[2, -1]")), JobOptions(weights="1", wrt=("y",)))
    assert r.grad["y"].shape == (2,) and not r.grad["y"].any()
