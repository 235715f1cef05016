"""`autodiff minimize`: the seed's SGD case, adam, momentum, --tol, the JSON
schema, errors (exit 1 or 2, never a traceback) and the progress bar only on a
terminal."""
import json
import subprocess
import sys

import pytest


def test_seed_case_sgd(cli):
    """seed 004: x**2 - 2*x + 1 from x = 0, SGD, lr 0.01, 500 steps -> x ~ 1, f ~ 0."""
    out = cli.minimize_json("x**2 - 2*x + 1", "--init", "x=0", "--optimizer", "sgd", "--lr", "0.01", "--steps", "500")
    assert abs(out["minimizer"]["x"] - 1) < 1e-4
    assert abs(out["value"]) < 1e-8
    assert out["steps"] == 500
    assert out["converged"] is False
    # SGD's closed form: x_k = 1 - 0.98**k
    assert out["minimizer"]["x"] == pytest.approx(1 - 0.98 ** 500, rel=1e-12)


def test_seed_case_text_output(cli):
    result = cli.ok("minimize", "x**2 - 2*x + 1", "--init", "x=0", "--lr", "0.01", "--steps", "500")
    assert result.stderr == ""
    text = result.stdout
    assert "x = 0.999959\n" in text
    assert "f = " in text
    assert "steps = 500" in text


def test_json_schema(cli):
    out = cli.minimize_json("x**2 - 2*x + 1", "--init", "x=0", "--steps", "10")
    for key, kind in [("expr", str), ("minimizer", dict), ("value", float), ("steps", int), ("converged", bool)]:
        assert key in out, key
        assert isinstance(out[key], kind), key
    assert out["expr"] == "x**2 - 2*x + 1"
    assert set(out["minimizer"]) == {"x"}
    assert out["steps"] == 10


def test_adam_two_variables(cli):
    out = cli.minimize_json("(a-3)**2 + (b+1)**2", "--init", "a=0", "--init", "b=0", "--optimizer", "adam",
                            "--lr", "0.1", "--steps", "2000")
    assert out["minimizer"]["a"] == pytest.approx(3, abs=1e-4)
    assert out["minimizer"]["b"] == pytest.approx(-1, abs=1e-4)
    assert out["value"] == pytest.approx(0, abs=1e-8)


def test_adam_differs_from_sgd(cli):
    args = ["(a-3)**2 + (b+1)**2", "--init", "a=0", "--init", "b=0", "--lr", "0.1", "--steps", "3"]
    adam = cli.minimize_json(*args, "--optimizer", "adam")
    sgd = cli.minimize_json(*args, "--optimizer", "sgd")
    # Adam's first step moves each variable by about lr, whatever the gradient's size
    assert adam["minimizer"]["a"] == pytest.approx(0.3, abs=0.02)
    assert adam["minimizer"] != sgd["minimizer"]


def test_momentum_speeds_up_sgd(cli):
    args = ["(a-3)**2 + (b+1)**2", "--init", "a=0", "--init", "b=0", "--lr", "0.01", "--steps", "5000",
            "--tol", "1e-8"]
    plain = cli.minimize_json(*args)
    heavy = cli.minimize_json(*args, "--momentum", "0.9")
    assert plain["converged"] and heavy["converged"]
    assert heavy["minimizer"]["a"] == pytest.approx(3, abs=1e-6)
    assert heavy["steps"] < plain["steps"]


def test_momentum_first_steps_match_pytorch_sgd(cli):
    # torch.optim.SGD(momentum=0.9), f = x**2 from x = 1, lr 0.1: buf1 = 2, x1 = 0.8;
    # buf2 = 0.9*2 + 1.6 = 3.4, x2 = 0.8 - 0.34 = 0.46
    out = cli.minimize_json("x**2", "--init", "x=1", "--lr", "0.1", "--momentum", "0.9", "--steps", "2", "--tol", "0")
    assert out["minimizer"]["x"] == pytest.approx(0.46, abs=1e-12)


def test_tol_stops_early(cli):
    out = cli.minimize_json("x**2", "--init", "x=1", "--lr", "0.1", "--steps", "10000", "--tol", "1e-6")
    assert out["converged"] is True
    assert 0 < out["steps"] < 10000
    assert abs(out["minimizer"]["x"]) < 1e-6


def test_vector_variable(cli):
    out = cli.minimize_json("sum((x - [1., 2.])**2)", "--init", "x=[0, 0]", "--lr", "0.1", "--steps", "500")
    assert out["minimizer"]["x"] == pytest.approx([1, 2], abs=1e-6)


def test_fixed_bindings_are_not_optimised(cli):
    out = cli.minimize_json("(x - c)**2", "c=5", "--init", "x=0", "--lr", "0.1", "--steps", "500")
    assert out["minimizer"] == pytest.approx({"x": 5}, abs=1e-6)


# ------------------------------------------------------------------ errors

NOT_SCALAR = "minimize needs a scalar f, but f has shape [2]"


def test_non_scalar_f_is_an_error_that_points_at_f(cli):
    assert cli.error_text("minimize", "x*2", "--init", "x=[1,2]") == (
        f"error: {NOT_SCALAR}\n  at line 1, column 1:\n    x*2\n    ^^^\n  hint: minimize sum(f) or mean(f)\n")


def test_non_scalar_f_json_error(cli):
    result = cli.fails("minimize", "x*2", "--init", "x=[1,2]", "--json")
    out = json.loads(result.stdout)
    assert out["error"]["type"] == "RuntimeError" and out["error"]["message"] == NOT_SCALAR


def test_f_not_depending_on_the_variables(cli):
    assert cli.error_text("minimize", "3", "--init", "x=0") == "error: f does not depend on the --init variables\n"


def test_unbound_name_in_f(cli):
    assert cli.error_text("minimize", "y**2", "--init", "x=0").startswith(
        "error: name 'y' is not defined\n  at line 1, column 1:\n    y**2\n    ^\n")


def test_syntax_error_in_f(cli):
    assert cli.error_text("minimize", "x**2 +", "--init", "x=0") == (
        "error: the expression ends with '+'\n"
        "  at line 1, column 6:\n"
        "    x**2 +\n"
        "         ^\n"
        "  hint: something is missing after '+'\n")


@pytest.mark.parametrize("init", ["x", "x=", "1=2"])
def test_bad_init_is_a_usage_error(cli, init):
    assert cli.usage_error("minimize", "x**2", "--init", init) == \
        f"Invalid value for NAME=VALUE: expected NAME=VALUE, got {init!r}"


def test_bad_init_value_fails(cli):
    # the form NAME=VALUE is right; the value is an expression that fails, as a binding's does in eval
    assert cli.error_text("minimize", "x**2", "--init", "x=foo(") == \
        "error: in --init x: '(' was never closed\n  hint: add ')' at the end\n"


def test_missing_init_and_bad_optimizer_are_usage_errors(cli):
    assert cli.usage_error("minimize", "x**2") == "Missing option '--init'."
    assert cli.usage_error("minimize", "x**2", "--init", "x=0", "--optimizer", "bogus") == \
        "Invalid value for '--optimizer': 'bogus' is not one of 'sgd', 'adam'."


# ------------------------------------------------------------------ progress bar

def test_no_progress_bar_when_stderr_is_not_a_terminal(cli):
    assert cli.ok("minimize", "x**2 - 2*x + 1", "--init", "x=0", "--steps", "200").stderr == ""


def test_no_progress_bar_in_a_pipe_subprocess(cli):
    p = cli.console("minimize", "x**2 - 2*x + 1", "--init", "x=0", "--steps", "200", "--json")
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
