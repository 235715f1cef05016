"""The command line as people type it at a shell (issue: expressions that start
with '-', pasted Unicode maths, option values, --check as a CI gate, minimize's
stops, DOT on stdout, result dtypes, one line per derivative).

Expected numbers are derived by hand in the comments; the shell-dependent cases
(signals, option parsing as argv) also run through a real subprocess.
"""
import json
import os
import signal
import subprocess
import sys
import sysconfig
import pathlib
import time

import pytest


# ------------------------------------------------------------ expressions that start with '-'

def test_an_expression_may_start_with_minus(cli):
    # f = -x**2 = -9, df/dx = -2x = -6
    assert cli.ok("eval", "-x**2", "x=3").stdout == "f = -9\ndf/dx = -6\n"
    out = cli.job("-x**2", "x=3")
    assert out["value"] == -9.0 and out["grad"] == {"x": -6.0}


def test_a_minus_expression_among_options_and_bindings(cli):
    # options before and after it still count: --order 2 of -x**3 at 2 is -6x = -12
    assert cli.ok("eval", "--order", "2", "-x**3", "x=2", "--precision", "3").stdout == "f = -8\nd2f/dx2 = -12\n"


def test_option_values_that_start_with_minus_stay_with_their_option(cli):
    # --weights -1: the vector-Jacobian product of 2x with weights -1 is -2 each
    out = cli.job("x*2", "x=[1, 2]", "--weights", "-1")
    assert out["grad"] == {"x": [-2.0, -2.0]}


def test_unknown_long_options_are_still_usage_errors(cli):
    message = cli.usage_error("eval", "x", "--bogus")
    assert "No such option" in message and "--bogus" in message


def test_minimize_a_minus_expression(cli):
    # f = -x, gradient -1: three SGD steps of lr 0.5 from 0 reach 1.5, where f = -1.5
    out = cli.minimize_json("-x", "--init", "x=0", "--lr", "0.5", "--steps", "3", "--tol", "0")
    assert out["minimizer"] == {"x": 1.5} and out["value"] == -1.5 and out["steps"] == 3


def test_spaces_around_an_expression_are_ignored(cli):
    assert cli.ok("eval", "  x**2  ", "x=3").stdout == "f = 9\ndf/dx = 6\n"
    out = cli.minimize_json(" (x-1)**2 ", "--init", "x=1", "--steps", "5")
    assert out["minimizer"] == {"x": 1.0} and out["converged"] is True


def test_minus_expression_through_a_real_shell_argv(cli):
    proc = cli.console("eval", "-x**2", "x=1")
    assert proc.returncode == 0 and proc.stdout == "f = -1\ndf/dx = -2\n"


# ------------------------------------------------------------ pasted maths

def test_unicode_operators_read_as_pythons(cli):
    # 3×x − 2·x÷4 at x=2: 6 - 1 = 5; d/dx = 3 - 1/2 = 2.5
    assert cli.ok("eval", "3×x − 2·x÷4", "x=2").stdout == "f = 5\ndf/dx = 2.5\n"


def test_unicode_inside_strings_and_comments_is_left_alone(cli):
    result = cli.ok("run", "-c", 'print("a−b×c")  # −×')
    assert result.stdout == "a−b×c\n"


def test_unicode_that_needs_more_than_one_character_gets_a_hint(cli):
    text = cli.error_text("eval", "x²", "x=2")
    assert "column 2" in text and "hint: write x**2" in text
    assert "hint: write sqrt(x)" in cli.error_text("eval", "√x", "x=2")


def test_an_implied_product_hints_the_star(cli):
    text = cli.error_text("eval", "x(x+1)", "x=2")
    assert text.startswith("error: a tensor is not callable\n  at line 1, column 1:\n")
    assert "hint: to multiply, write x*(x+1)" in text
    assert "hint: to multiply, write 2*(x+1)" in cli.error_text("eval", "2(x+1)", "x=2")


# ------------------------------------------------------------ a list as f

def test_a_list_of_tensors_is_stacked_so_the_jacobian_works(cli):
    # f = [xy, x+y] at (2, 3): df/dx = [y, 1] = [3, 1], df/dy = [x, 1] = [2, 1]
    out = cli.job("[x*y, x+y]", "x=2", "y=3", "--jacobian")
    assert out["value"] == [6.0, 5.0] and out["shape"] == [2]
    assert out["jacobian"] == {"x": [3.0, 1.0], "y": [2.0, 1.0]}
    text = cli.ok("eval", "[x*y, x+y]", "x=2", "y=3", "--jacobian").stdout
    assert "jacobian df/dx [2] = [3, 1]" in text


def test_a_list_whose_entries_differ_in_shape_is_an_error_that_says_so(cli):
    text = cli.error_text("eval", "[x*y, ones(2)]", "x=2", "y=3")
    assert text.startswith("error: f is a list that is not one tensor: stack expects each tensor to be equal size")
    assert "torch.stack" in text


# ------------------------------------------------------------ option values

@pytest.mark.parametrize("args, option", [
    (["minimize", "x**2", "--init", "x=1", "--lr", "-0.1"], "--lr"),
    (["minimize", "x**2", "--init", "x=1", "--tol", "-1"], "--tol"),
    (["minimize", "x**2", "--init", "x=1", "--momentum", "-0.5"], "--momentum"),
    (["eval", "x", "x=1", "--seed", str(2 ** 64)], "--seed"),
    (["eval", "x", "x=1", "--order", "0"], "--order"),
    (["eval", "x", "x=1", "--max-memory", "lots"], "--max-memory"),
])
def test_bad_option_values_are_usage_errors_naming_the_option(cli, args, option):
    assert option in cli.usage_error(*args)
    result = cli.fails(*args, "--json", code=2)
    error = json.loads(result.stdout)["error"]
    assert error["type"] == "UsageError" and error["option"] == option and option in error["message"]


def test_usage_errors_are_json_with_json(cli):
    result = cli.fails("eval", "x", "--json", "--bogus", code=2)
    assert json.loads(result.stdout)["error"]["type"] == "UsageError"


def test_negative_seeds_are_accepted_as_pytorch_does(cli):
    # torch.manual_seed(-1) is torch.manual_seed(2**64 - 1)
    a = cli.job("rand(3)", "--seed", "-1")["value"]
    b = cli.job("rand(3)", "--seed", str(2 ** 64 - 1))["value"]
    c = cli.job("rand(3)", "--seed", "1")["value"]
    assert a == b != c
    assert cli.ok("run", "-c", "torch.manual_seed(-5); a = torch.rand(2); torch.manual_seed(2**64 - 5); "
                  "print(torch.equal(a, torch.rand(2)))").stdout == "True\n"


# ------------------------------------------------------------ --check as a CI gate

def test_check_passes_with_exit_0(cli):
    result = cli.ok("eval", "sin(x)*y", "x=1", "y=2", "--check")
    assert result.stdout.count("(ok)") == 2


def test_check_fails_with_exit_1_and_a_note_at_a_kink(cli):
    # relu at 0: PyTorch's derivative is 0, the central difference (0 + h)/2h is 0.5
    result = cli.fails("eval", "relu(x)", "x=0", "--check")
    assert "check df/dx: largest difference from finite differences 0.5 (MISMATCH)" in result.stdout
    assert "note: f is not differentiable at x = 0 (its slope is 0 from the left and 1 from the right)" \
        in result.stdout


def test_check_at_the_edge_of_the_domain_says_so(cli):
    result = cli.fails("eval", "sqrt(x)", "x=0", "--check")
    assert "(MISMATCH)" in result.stdout
    assert "note: f is not defined on both sides of x = 0" in result.stdout


def test_check_mismatch_in_json_keeps_the_keys_and_fails(cli):
    result = cli.fails("eval", "relu(x)", "x=0", "--check", "--json")
    out = json.loads(result.stdout)
    assert out["check"] == {"x": 0.5} and "error" not in out
    assert "disagrees with finite differences" in result.stderr


# ------------------------------------------------------------ minimize's stops

def test_minimize_stops_when_f_becomes_infinite(cli):
    # x**4 with lr 1 from 10: x -> 10 - 4000 -> ... overflows within a few steps
    result = cli.fails("minimize", "x**4", "--init", "x=10", "--lr", "1")
    assert "f became infinite" in result.stdout
    assert result.stderr.startswith("error: f or its gradient became infinite after ")
    out = json.loads(cli.fails("minimize", "x**4", "--init", "x=10", "--lr", "1", "--json").stdout)
    assert out["stopped"] == "inf" and out["converged"] is False


def test_minimize_takes_a_seed(cli):
    a = cli.minimize_json("sum((x - randn(3))**2)", "--init", "x=zeros(3)", "--seed", "7", "--steps", "3")
    b = cli.minimize_json("sum((x - randn(3))**2)", "--init", "x=zeros(3)", "--seed", "7", "--steps", "3")
    c = cli.minimize_json("sum((x - randn(3))**2)", "--init", "x=zeros(3)", "--seed", "8", "--steps", "3")
    assert a == b and a["minimizer"] != c["minimizer"]


def _script():
    script = pathlib.Path(sysconfig.get_path("scripts")) / "autodiff"
    return [str(script)] if script.exists() else [sys.executable, "-m", "autodiff.cli.main"]


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process")
def test_minimize_prints_its_iterate_on_ctrl_c():
    proc = subprocess.Popen(_script() + ["minimize", "sum((x-1)**2)", "--init", "x=zeros(50)",
                                         "--steps", "100000000", "--lr", "1e-12", "--tol", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(3)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, (out, err)
    assert out.startswith("x = [") and "interrupted" in out and "Traceback" not in err


# ------------------------------------------------------------ output layout

def test_graph_dot_is_alone_on_stdout(cli):
    result = cli.ok("eval", "x*2+1", "x=3", "--graph", "dot")
    assert result.stdout.startswith("digraph")
    assert result.stdout.rstrip().endswith("}")
    assert result.stderr == "f = 7\ndf/dx = 2\n"


def test_comparisons_report_their_real_dtype(cli):
    out = cli.job("x > 1", "x=2")
    assert out["value"] is True and out["dtype"] == "bool" and out["grad"] == {}
    assert cli.ok("eval", "x > 1", "x=2").stdout.startswith("f = True\n")
    out = cli.job("arange(3)")
    assert out["value"] == [0, 1, 2] and out["dtype"] == "int64"


def test_formula_and_value_share_one_line(cli):
    # d/dx (a x^2 + b x + c) = 2ax + b = -2 at a=1, b=-2, x=0
    lines = cli.ok("eval", "a*x**2+b*x+c", "a=1", "b=-2", "c=1", "x=0", "--formula").stdout.splitlines()
    assert "df/dx = 2*a*x + b  (= -2)" in lines
    assert len([line for line in lines if line.startswith("df/dx")]) == 1


def test_formula_of_an_array_derivative_puts_the_values_under_it(cli):
    # d/dx sum(a x^2) = 2 a x = [2, 4] at a=1, x=[1, 2]
    lines = cli.ok("eval", "a*x**2", "a=1", "x=[1,2]", "--formula", "--weights", "1").stdout.splitlines()
    assert lines[-2:] == ["df/dx = 2*a*x", "      = [2, 4]"]


def test_jacobian_labels_of_scalars_have_no_empty_brackets(cli):
    text = cli.ok("eval", "x*y", "x=2", "y=3", "--jacobian").stdout
    assert "jacobian df/dx = 3" in text and "[]" not in text


@pytest.mark.parametrize("args, kind, code", [
    (["eval"], "UsageError", 2),
    (["eval", "-f", "/no/such/file.txt"], "UsageError", 2),
    (["eval", "x", "x=1", "--device", "tpu"], "UsageError", 2),
    (["minimize", "x**2"], "UsageError", 2),  # no --init
])
def test_with_json_every_failure_is_a_json_object(cli, args, kind, code):
    result = cli.fails(*args, "--json", code=code)
    assert json.loads(result.stdout)["error"]["type"] == kind


def test_greek_names_and_pi_work_as_pasted(cli):
    # sin²θ + cos²θ = 1 at any θ, so its derivative is 0; π r² has derivative 2π r = 2π at r = 1
    assert cli.ok("eval", "sin(θ)**2 + cos(θ)**2", "θ=0.3").stdout == "f = 1\ndf/dθ = 0\n"
    assert cli.job("π*r**2", "r=1") == cli.job("pi*r**2", "r=1") | {"expr": "π*r**2"}
    assert cli.ok("run", "-c", "α = 2\nβ_1 = α * 3\nprint(β_1)").stdout == "6\n"
    assert "column 2" in cli.error_text("eval", "x²", "x=2")  # a superscript is not part of a name


def test_e_is_eulers_number_unless_bound(cli):
    # d/dx e**x = e**x = e at x = 1; with e bound to 2, d/de (e*x) = x = 1
    assert cli.job("e**x", "x=1")["grad"] == {"x": pytest.approx(2.718281828459045)}
    assert cli.job("e*x", "e=2", "x=1")["grad"] == {"e": 1.0, "x": 2.0}


# ------------------------------------------------------------ leaving without the interpreter's teardown

def test_a_batch_process_leaves_with_all_its_output_and_its_status(cli, tmp_path):
    # the console script ends with os._exit once its output is flushed (cli/main._leave): every
    # line must still be there, through a pipe and through -o, and a failed job still exits 1
    lines = [f"x = {k}; x**2" for k in range(1, 3001)]
    lines[1500] = "x = 1; y"
    proc = cli.console("eval", "-", "--json", input="\n".join(lines) + "\n")
    out = [json.loads(s) for s in proc.stdout.splitlines()]
    assert proc.returncode == 1 and len(out) == 3000
    assert out[1500]["error"]["type"] == "NameError" and out[2999]["value"] == 3000.0 ** 2
    target = tmp_path / "out.jsonl"
    proc = cli.console("eval", "-", "--json", "-o", str(target), input="\n".join(lines[:1500]) + "\n")
    assert proc.returncode == 0 and proc.stdout == ""
    assert [json.loads(s)["grad"]["x"] for s in target.read_text().splitlines()] == [2.0 * k for k in range(1, 1501)]


def test_leaving_early_waits_for_exit_handlers_and_threads(monkeypatch):
    import atexit
    import os
    import threading
    from autodiff.cli import main as cli_main

    def must_not_exit(code):
        raise AssertionError(f"os._exit({code}) with work left for the interpreter's exit")

    monkeypatch.setattr(os, "_exit", must_not_exit)
    handler = lambda: None  # noqa: E731
    atexit.register(handler)
    try:
        assert cli_main._leave(0) is None  # returned: the usual exit will run the handler
    finally:
        atexit.unregister(handler)
    release = threading.Event()
    worker = threading.Thread(target=release.wait)
    worker.start()
    try:
        assert cli_main._leave(0) is None  # a thread Python would wait for
    finally:
        release.set()
        worker.join()
    assert cli_main._leave("a message") is None  # sys.exit prints a non-number status
    exits = []
    monkeypatch.setattr(os, "_exit", exits.append)
    monkeypatch.setattr(atexit, "_ncallbacks", lambda: 0)  # pytest registers handlers of its own
    cli_main._leave(3)
    assert exits == [3]  # nothing left to wait for: it leaves, with the status asked for


@pytest.mark.skipif(not pathlib.Path("/dev/full").exists(), reason="needs /dev/full (Linux)")
def test_output_that_cannot_be_written_is_said_in_one_line(tmp_path):
    # a full disk (/dev/full) or a closed stdout (>&-): one clear line, exit 74 (EX_IOERR), no traceback
    with open("/dev/full", "w") as full:
        proc = subprocess.run(_script() + ["eval", "-", "--json"], input="x = 1; x*2\nx = 2; x*2\n", text=True,
                              stdout=full, stderr=subprocess.PIPE, timeout=120)
    assert proc.returncode == 74 and proc.stderr == "error: cannot write the output (No space left on device)\n"
    proc = subprocess.run(_script() + ["eval", "x*2", "x=1"], text=True, stderr=subprocess.PIPE, timeout=120,
                          preexec_fn=lambda: os.close(1))
    assert proc.returncode == 74 and proc.stderr == "error: cannot write the output (stdout is closed)\n"
    out = tmp_path / "out.txt"  # -o still writes where it is told, stdout closed or not
    proc = subprocess.run(_script() + ["eval", "x*2", "x=1", "-o", str(out)], text=True, stderr=subprocess.PIPE,
                          timeout=120, preexec_fn=lambda: os.close(1))
    assert proc.returncode == 0 and proc.stderr == "" and out.read_text() == "f = 2\ndf/dx = 2\n"
