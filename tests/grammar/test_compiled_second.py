"""--order 2 in the compiled form (grammar/compiled_second.py): a template's first backward recorded
once, each job's second derivatives by the lane's backward over it. For generated jobs over every
function the lane takes, with --wrt and --weights, the lane takes the job and gives the engine
form's and the full pipeline's values bit for bit; a comparison a formula makes of a number (pow's
exponent == 0) is a guard, so one template serves jobs whose numbers answer it differently; what the
recording cannot follow declines to the engine form; and the values are the hand-derived ones."""
import math
import random

import numpy
import pytest

from autodiff.grammar import compiled, compiled_second
from autodiff.grammar.job import JobOptions, run_job
from lane_forms import generated_job, three_forms

def _three_forms(source, **kw):
    """(the lane's outcome, whether the lane took it, the engine form's, the full pipeline's)."""
    return three_forms(source, (compiled_second, "run"), order=2, **kw)


@pytest.mark.parametrize("seed", range(40))
def test_generated_jobs_take_the_lane_with_the_engine_forms_bits(seed):
    r = random.Random(seed)
    taken = 0
    for _ in range(40):
        source = generated_job(r)
        kw = r.choice([{}, {}, {"wrt": ("x",)}, {"weights": "-0.75"}, {"wrt": ("x", "y"), "weights": "2"}])
        lane, took, engine, full = _three_forms(source, **kw)
        assert lane == engine == full, (source, kw)
        taken += took
    assert taken >= 24  # (relu's, x**y's, digamma's ... formulas decline: the engine form takes those)


def test_the_batch_benchmarks_jobs_all_take_the_lane():
    r = random.Random(7)
    funcs = ["sin", "cos", "exp", "tanh", "log1p", "sqrt", "sigmoid", "atan"]
    before = compiled.taken["lane"]
    for k in range(200):
        x = f"{r.uniform(0.1, 2.0):.4g}"
        source = f"x = {x}; {r.uniform(-3, 3):.3g}*x**{r.randint(2, 4)} - {r.choice(funcs)}({r.uniform(0.2, 2):.3g}*x)"
        lane, took, engine, full = _three_forms(source)
        assert lane == engine == full and took == 1, source
    assert compiled.taken["lane"] - before == 200


def test_a_guard_serves_jobs_whose_numbers_answer_it_differently():
    # pow_scalar's formula asks exponent == 0; one template x**# holds a recording per answer
    values = {}
    for e, want in ((3, 12.0), (0, 0.0), (2, 2.0), (1, 0.0), (0.5, -0.25 * 2 ** -1.5)):
        source = f"x = 2; x**{e}"
        lane, took, engine, full = _three_forms(source)
        assert lane == engine == full and took == 1, source
        values[e] = numpy.frombuffer(lane[4][0][1][0])[0]  # (the gradients' first: its bits)
        assert values[e] == pytest.approx(want, rel=1e-15, abs=0), e


def test_hand_derived_second_derivatives():
    def d2(source, **kw):
        with numpy.errstate(all="ignore"):
            r = run_job(source, (), JobOptions(order=2, **kw))
        return {name: float(g) for name, g in r.grad.items()}

    x, y = 0.5, 1.5
    assert d2("x = 0.5; sin(x)*x") == {"x": pytest.approx(2 * math.cos(x) - x * math.sin(x), rel=1e-15)}
    assert d2("x = 0.5; y = 1.5; exp(x*y) + y**3") == {
        "x": pytest.approx(y * y * math.exp(x * y), rel=1e-15), "y": pytest.approx(x * x * math.exp(x * y) + 6 * y, rel=1e-15)}
    assert d2("x = 0.5; y = 1.5; x*y + 3*x", wrt=("y",)) == {"y": 0.0}       # linear in y
    assert d2("x = 0.5; y = 1.5; x**2", wrt=("y", "x")) == {"y": 0.0, "x": 2.0}  # y unused: zero
    assert d2("x = 0.5; tanh(x)", weights="2") == {"x": pytest.approx(2 * -2 * math.tanh(x) / math.cosh(x) ** 2,
                                                                          rel=1e-14)}


@pytest.mark.parametrize("source", ["x = 1.5; y = 2; x**y", "x = 1.5; relu(x)*x**3", "x = 0.7; 2**x * x"])
def test_what_the_recording_cannot_follow_takes_the_engine_form(source):
    lane, took, engine, full = _three_forms(source)
    assert took == 0 and lane == engine == full
