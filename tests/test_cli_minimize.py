"""`autodiff minimize`: the seed's SGD case, adam, momentum, --tol, the JSON
schema, errors (exit 1 or 2, never a traceback) and the progress bar only on a
terminal."""
import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from autodiff.cli.main import cli


def minimize(*args):
    result = CliRunner().invoke(cli, ["minimize", *args], catch_exceptions=False)
    assert "Traceback" not in result.stdout
    assert "Traceback" not in result.stderr
    return result


def minimize_json(*args):
    result = minimize(*args, "--json")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 1
    return json.loads(lines[0])


def test_seed_case_sgd():
    """seed 004: x**2 - 2*x + 1 from x = 0, SGD, lr 0.01, 500 steps -> x ~ 1, f ~ 0."""
    out = minimize_json("x**2 - 2*x + 1", "--init", "x=0", "--optimizer", "sgd", "--lr", "0.01", "--steps", "500")
    assert abs(out["minimizer"]["x"] - 1) < 1e-4
    assert abs(out["value"]) < 1e-8
    assert out["steps"] == 500
    assert out["converged"] is False
    # SGD's closed form: x_k = 1 - 0.98**k
    assert out["minimizer"]["x"] == pytest.approx(1 - 0.98 ** 500, rel=1e-12)


def test_seed_case_text_output():
    result = minimize("x**2 - 2*x + 1", "--init", "x=0", "--lr", "0.01", "--steps", "500")
    assert result.exit_code == 0
    assert result.stderr == ""
    text = result.stdout
    assert "x = 0.999959\n" in text
    assert "f = " in text
    assert "steps = 500" in text


def test_json_schema():
    out = minimize_json("x**2 - 2*x + 1", "--init", "x=0", "--steps", "10")
    for key, kind in [("expr", str), ("minimizer", dict), ("value", float), ("steps", int), ("converged", bool)]:
        assert key in out, key
        assert isinstance(out[key], kind), key
    assert out["expr"] == "x**2 - 2*x + 1"
    assert set(out["minimizer"]) == {"x"}
    assert out["steps"] == 10


def test_adam_two_variables():
    out = minimize_json("(a-3)**2 + (b+1)**2", "--init", "a=0", "--init", "b=0", "--optimizer", "adam",
                        "--lr", "0.1", "--steps", "2000")
    assert out["minimizer"]["a"] == pytest.approx(3, abs=1e-4)
    assert out["minimizer"]["b"] == pytest.approx(-1, abs=1e-4)
    assert out["value"] == pytest.approx(0, abs=1e-8)


def test_adam_differs_from_sgd():
    args = ["(a-3)**2 + (b+1)**2", "--init", "a=0", "--init", "b=0", "--lr", "0.1", "--steps", "3"]
    adam = minimize_json(*args, "--optimizer", "adam")
    sgd = minimize_json(*args, "--optimizer", "sgd")
    # Adam's first step moves each variable by about lr, whatever the gradient's size
    assert adam["minimizer"]["a"] == pytest.approx(0.3, abs=0.02)
    assert adam["minimizer"] != sgd["minimizer"]


def test_momentum_speeds_up_sgd():
    args = ["(a-3)**2 + (b+1)**2", "--init", "a=0", "--init", "b=0", "--lr", "0.01", "--steps", "5000",
            "--tol", "1e-8"]
    plain = minimize_json(*args)
    heavy = minimize_json(*args, "--momentum", "0.9")
    assert plain["converged"] and heavy["converged"]
    assert heavy["minimizer"]["a"] == pytest.approx(3, abs=1e-6)
    assert heavy["steps"] < plain["steps"]


def test_momentum_first_steps_match_pytorch_sgd():
    # torch.optim.SGD(momentum=0.9), f = x**2 from x = 1, lr 0.1: buf1 = 2, x1 = 0.8;
    # buf2 = 0.9*2 + 1.6 = 3.4, x2 = 0.8 - 0.34 = 0.46
    out = minimize_json("x**2", "--init", "x=1", "--lr", "0.1", "--momentum", "0.9", "--steps", "2", "--tol", "0")
    assert out["minimizer"]["x"] == pytest.approx(0.46, abs=1e-12)


def test_tol_stops_early():
    out = minimize_json("x**2", "--init", "x=1", "--lr", "0.1", "--steps", "10000", "--tol", "1e-6")
    assert out["converged"] is True
    assert 0 < out["steps"] < 10000
    assert abs(out["minimizer"]["x"]) < 1e-6


def test_vector_variable():
    out = minimize_json("sum((x - [1., 2.])**2)", "--init", "x=[0, 0]", "--lr", "0.1", "--steps", "500")
    assert out["minimizer"]["x"] == pytest.approx([1, 2], abs=1e-6)


def test_fixed_bindings_are_not_optimised():
    out = minimize_json("(x - c)**2", "c=5", "--init", "x=0", "--lr", "0.1", "--steps", "500")
    assert out["minimizer"] == pytest.approx({"x": 5}, abs=1e-6)


# ------------------------------------------------------------------ errors

def _clean_failure(result, code):
    assert result.exit_code == code, (result.stdout, result.stderr)
    assert "Traceback" not in result.stdout + result.stderr


def test_non_scalar_f_is_an_error():
    result = minimize("x*2", "--init", "x=[1,2]")
    _clean_failure(result, 1)
    assert "scalar" in result.stderr
    assert result.stdout == ""


def test_non_scalar_f_json_error():
    result = minimize("x*2", "--init", "x=[1,2]", "--json")
    _clean_failure(result, 1)
    out = json.loads(result.stdout)
    assert "scalar" in out["error"]["message"]


def test_f_not_depending_on_the_variables():
    result = minimize("3", "--init", "x=0")
    _clean_failure(result, 1)
    assert "does not depend" in result.stderr


def test_unbound_name_in_f():
    result = minimize("y**2", "--init", "x=0")
    _clean_failure(result, 1)
    assert "'y' is not defined" in result.stderr


def test_syntax_error_in_f():
    result = minimize("x**2 +", "--init", "x=0")
    _clean_failure(result, 1)
    assert "^" in result.stderr


@pytest.mark.parametrize("init", ["x", "x=", "1=2"])
def test_bad_init_is_a_usage_error(init):
    result = minimize("x**2", "--init", init)
    _clean_failure(result, 2)
    assert "NAME=VALUE" in result.stderr


def test_bad_init_value_fails():
    result = minimize("x**2", "--init", "x=foo(")
    assert result.exit_code in (1, 2)
    assert "Traceback" not in result.stdout + result.stderr
    assert "error" in result.stderr.lower()


def test_missing_init_and_bad_optimizer_are_usage_errors():
    _clean_failure(minimize("x**2"), 2)
    _clean_failure(minimize("x**2", "--init", "x=0", "--optimizer", "bogus"), 2)


# ------------------------------------------------------------------ progress bar

def test_no_progress_bar_when_stderr_is_not_a_terminal():
    result = minimize("x**2 - 2*x + 1", "--init", "x=0", "--steps", "200")
    assert result.exit_code == 0
    assert result.stderr == ""


def test_no_progress_bar_in_a_pipe_subprocess():
    p = subprocess.run([sys.executable, "-m", "autodiff.cli.main", "minimize", "x**2 - 2*x + 1", "--init", "x=0",
                        "--steps", "200", "--json"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert p.stderr == ""
    assert json.loads(p.stdout)["steps"] == 200


@pytest.mark.skipif(not hasattr(__import__("os"), "openpty"), reason="needs a pseudo-terminal")
def test_progress_bar_when_stderr_is_a_terminal():
    import os
    master, slave = os.openpty()
    try:
        p = subprocess.run([sys.executable, "-m", "autodiff.cli.main", "minimize", "x**2", "--init", "x=1",
                            "--steps", "50", "--tol", "0", "--json"], stdout=subprocess.PIPE, stderr=slave,
                           timeout=60)
    finally:
        os.close(slave)
    seen = b""
    try:
        while True:
            chunk = os.read(master, 65536)
            if not chunk:
                break
            seen += chunk
    except OSError:  # the other end is closed
        pass
    finally:
        os.close(master)
    assert p.returncode == 0
    assert json.loads(p.stdout)["steps"] == 50  # stdout stays clean JSON
    assert b"minimizing" in seen and b"%" in seen
