"""--hessian, --check and --order 3 in the compiled form. The Hessian: the lane's gradient, then a backward from
each variable's first derivative over the template's recorded first backward (compiled_second.py),
seeded as the engine form's one batched backward seeds it (1 at the row's own first derivative, 0 at
the others'), so its signed zeros are the engine form's too. The check: the lane's gradient, then
job.py's finite differences with f re-run by the lane's forward at the perturbed values
(compiled.checked). The third derivative: the backward from each variable's first derivative recorded
in its turn over the recorded first backward (the engine form's create_graph pass by that variable),
then a backward from the second derivative. For generated jobs, with --wrt and --weights of a number,
each takes the lane and gives the engine form's and the full pipeline's values bit for bit;
the values are the hand-derived ones."""
import math
import random

import pytest

from autodiff.engine.state import isolated
from autodiff.grammar import compiled, compiled_second
from autodiff.grammar.job import JobOptions, _run_job, run_job
from lane_forms import generated_job, three_forms as _three_forms

def _job(r):
    return generated_job(r, (lambda f, a, b, e, v: f"{a}*x**{e} + {f}({v})", lambda f, a, b, e, v: f"w = {a}; {f}(x + w)*{v}"))


HESSIAN = (compiled_second, "run")
CHECK = (compiled, "checked")


@pytest.mark.parametrize("seed", range(30))
@pytest.mark.parametrize("option, entry", [("hessian", HESSIAN), ("check", CHECK), ("order", HESSIAN)])
def test_generated_jobs_take_the_lane_with_the_engine_forms_bits(option, entry, seed):
    r = random.Random(seed)
    taken = 0
    for _ in range(30):
        source = _job(r)
        kw = r.choice([{}, {}, {"wrt": ("x",)}, {"wrt": ("x", "y")}])
        if option == "order":
            kw = dict(r.choice([kw, {"weights": "-0.75"}]), order=3)
        elif r.random() < 0.3:
            kw = dict(kw, weights=r.choice(["-0.75", "2", "0"]))
        lane, took, engine, full = _three_forms(source, entry, **({} if option == "order" else {option: True}), **kw)
        assert lane == engine == full, (source, kw)
        taken += took
    assert taken >= 10  # (a NaN in the Hessian, a variable bound twice, an error: the engine form takes those)


def test_the_batch_benchmarks_jobs_all_take_the_lane():
    import sys
    import pathlib
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "benchmarks"))
    from bench_cli import make_jobs
    for option in ("hessian", "check", "order"):
        options = JobOptions(order=3) if option == "order" else JobOptions(**{option: True})
        before = compiled.taken["lane"]
        for line, _, _ in make_jobs(300, seed=11):
            run_job(line, (), options)
        assert compiled.taken["lane"] - before == 300, option


def test_hand_derived_hessian():
    # f = x**3 * y + sin(y): H = [[6xy, 3x**2], [3x**2, -sin(y)]]
    r = run_job("x = 1.5; y = -0.5; x**3 * y + sin(y)", (), JobOptions(hessian=True))
    x, y = 1.5, -0.5
    assert r.grad["x"] == pytest.approx(3 * x * x * y) and r.grad["y"] == pytest.approx(x ** 3 + math.cos(y))
    assert float(r.hessian["x"]["x"]) == pytest.approx(6 * x * y)
    assert float(r.hessian["x"]["y"]) == float(r.hessian["y"]["x"]) == pytest.approx(3 * x * x)
    assert float(r.hessian["y"]["y"]) == pytest.approx(-math.sin(y))


def test_hand_derived_weighted_hessian_and_check_take_the_lane():
    # --weights -2 of f = x**3 * y + sin(y): the gradient and the Hessian of -2 f
    x, y, w = 1.5, -0.5, -2.0
    taken = compiled.taken["lane"]
    r = run_job("x = 1.5; y = -0.5; x**3 * y + sin(y)", (), JobOptions(hessian=True, weights="-2"))
    c = run_job("x = 1.5; y = -0.5; x**3 * y + sin(y)", (), JobOptions(check=True, weights="-2"))
    assert compiled.taken["lane"] == taken + 2
    for got in (r, c):
        assert float(got.grad["x"]) == pytest.approx(w * 3 * x * x * y)
        assert float(got.grad["y"]) == pytest.approx(w * (x ** 3 + math.cos(y)))
    assert float(r.hessian["x"]["x"]) == pytest.approx(w * 6 * x * y)
    assert float(r.hessian["x"]["y"]) == float(r.hessian["y"]["x"]) == pytest.approx(w * 3 * x * x)
    assert float(r.hessian["y"]["y"]) == pytest.approx(-w * math.sin(y))
    # the differences are those of w f: a gradient of f alone would be off by 3 x**2 y = -3.4 at x
    assert all(c.check_ok.values()) and max(c.check.values()) < 1e-6


def test_a_first_derivative_two_variables_share_is_seeded_once():
    # sigmoid(x + a): the add passes one first derivative to both x and a; each entry is s'' = s(1-s)(1-2s)
    taken = compiled.taken["lane"]
    r = run_job("a = 1.72; sigmoid(x + a)", (("x", "0.3"),), JobOptions(hessian=True))
    assert compiled.taken["lane"] == taken + 1
    s = 1 / (1 + math.exp(-2.02))
    for row in r.hessian.values():
        for h in row.values():
            assert float(h) == pytest.approx(s * (1 - s) * (1 - 2 * s))


def test_a_cross_term_f_has_not_is_the_engine_forms_signed_zero():
    # f = 2 x**3 - 1.5 sin(y): d2f/dxdy is 0; the engine form's batched backward carries the other row's zero
    # through -1.5 cos(y) and so gives -0.0, and so does the lane
    source = "x = 1.2; y = 0.4; 2*x**3 - 1.5*sin(y)"
    lane, took, engine, full = _three_forms(source, HESSIAN, hessian=True)
    assert took == 1 and lane == engine == full
    r = run_job(source, (), JobOptions(hessian=True))
    assert float(r.hessian["x"]["y"]) == 0.0 and float(r.hessian["y"]["x"]) == 0.0
    assert math.copysign(1, float(r.hessian["x"]["y"])) == math.copysign(1, float(full_hessian(source)["x"]["y"]))


def full_hessian(source):
    return isolated(_run_job, source, (), JobOptions(hessian=True)).hessian


def test_a_nan_in_the_hessian_takes_the_engine_form():
    taken = compiled.taken["lane"]
    r = run_job("x = 2.154; z = arccos(x); z*z*x - x**-1", (), JobOptions(hessian=True))
    assert compiled.taken["lane"] == taken and math.isnan(float(r.hessian["x"]["x"]))


def test_the_check_holds_the_other_variables_and_finds_a_kink():
    r = run_job("x = 0.7; y = 2.0; x*y + exp(x)", (), JobOptions(check=True))
    assert r.check_ok == {"x": True, "y": True} and max(r.check.values()) < 1e-8
    taken = compiled.taken["lane"]
    r = run_job("x = 0.0; relu(x) + x", (), JobOptions(check=True))  # a kink: the note says so, from the lane too
    assert compiled.taken["lane"] == taken + 1
    assert r.check_ok == {"x": False} and "not differentiable" in r.check_notes["x"]


def test_a_name_bound_twice_takes_the_engine_form():
    lane, took, engine, full = _three_forms("x = 0.5; x = 1.5; sin(x)*x", CHECK, check=True)
    assert took == 0 and lane == engine == full


def test_hand_derived_third_derivatives():
    # f = x**4 * y + sin(x*y): d3f/dx3 = 24 x y - y**3 cos(xy), d3f/dy3 = -x**3 cos(xy)
    taken = compiled.taken["lane"]
    r = run_job("x = 0.75; y = -1.25; x**4 * y + sin(x*y)", (), JobOptions(order=3))
    assert compiled.taken["lane"] == taken + 1 and r.order == 3
    x, y = 0.75, -1.25
    assert float(r.grad["x"]) == pytest.approx(24 * x * y - y ** 3 * math.cos(x * y))
    assert float(r.grad["y"]) == pytest.approx(-x ** 3 * math.cos(x * y))
    r = run_job("x = 2.0; 3*x**2 + x", (), JobOptions(order=3))  # a second derivative with no variable in it
    assert float(r.grad["x"]) == 0.0
