"""`autodiff eval --jacobian --jacobian-mode auto|forward|reverse`: the Jacobian in forward mode (one
run of the program per element of the variables, that element's unit tangent giving a column) or in
reverse mode (rows from backward passes); auto takes forward mode where the variables have fewer
elements in all than f, else reverse. The output is the same in either mode; the values agree to
rounding (the two modes are different sums), checked here against each other and against
derivatives worked by hand. Which mode a job took is read off job.jacobian_taken (the jobs run in
this process, through click's runner)."""
import json

import numpy
import pytest

from autodiff.grammar import compiled, job as job_module


def close(a, b, rtol=1e-12):
    numpy.testing.assert_allclose(numpy.asarray(a, dtype=float), numpy.asarray(b, dtype=float), rtol=rtol,
                                  atol=1e-14)


def job_and_mode(cli, *args):
    """(the JSON object of `autodiff eval ARGS --jacobian --json`, the mode its Jacobian took)."""
    before, lane = dict(job_module.jacobian_taken), compiled.taken["lane"]
    out = cli.job(*args, "--jacobian")
    taken = [mode for mode, n in job_module.jacobian_taken.items() if n != before[mode]]
    if not taken and compiled.taken["lane"] == lane + 1:  # the lean lane: a scalar f's gradient, in reverse mode
        return out, "reverse"
    assert len(taken) == 1 and job_module.jacobian_taken[taken[0]] == before[taken[0]] + 1, taken
    return out, taken[0]


def jacobian_in(cli, mode, *args):
    out, taken = job_and_mode(cli, *args, "--jacobian-mode", mode)
    assert taken == mode
    return out


V = numpy.linspace(-1.0, 2.0, 7)


def test_auto_takes_forward_mode_for_fewer_inputs_than_outputs(cli):
    out, mode = job_and_mode(cli, "sin(x*v)", "x=0.7", "v=linspace(-1, 2, 7)", "--wrt", "x")
    assert mode == "forward"
    close(out["jacobian"]["x"], V * numpy.cos(0.7 * V))  # d/dx sin(x v) = v cos(x v)
    assert out["shape"] == [7] and list(out["jacobian"]) == ["x"]


def test_auto_takes_reverse_mode_otherwise(cli):
    out, mode = job_and_mode(cli, "x**2", "x=[1, 2, 3]")  # as many inputs as outputs
    assert mode == "reverse"
    assert out["jacobian"]["x"] == [[2.0, 0.0, 0.0], [0.0, 4.0, 0.0], [0.0, 0.0, 6.0]]
    out, mode = job_and_mode(cli, "sum(x**3)", "x=[1, 2]")  # more inputs than outputs
    assert mode == "reverse"
    close(out["jacobian"]["x"], [3.0, 12.0])


def test_the_wrt_subset_decides(cli):
    # all of f's variables: 1 + 7 elements for 7 outputs (reverse); --wrt x alone: 1 (forward)
    both, mode = job_and_mode(cli, "sin(x*v)", "x=0.7", "v=linspace(-1, 2, 7)")
    assert mode == "reverse" and list(both["jacobian"]) == ["x", "v"]
    alone, mode = job_and_mode(cli, "sin(x*v)", "x=0.7", "v=linspace(-1, 2, 7)", "--wrt", "x")
    assert mode == "forward"
    close(alone["jacobian"]["x"], both["jacobian"]["x"])
    close(both["jacobian"]["v"], numpy.diag(0.7 * numpy.cos(0.7 * V)))  # d/dv_j sin(x v_i) = x cos(x v_i) [i == j]
    forward = jacobian_in(cli, "forward", "sin(x*v)", "x=0.7", "v=linspace(-1, 2, 7)", "--wrt", "v,x")
    assert list(forward["jacobian"]) == ["v", "x"]
    close(forward["jacobian"]["v"], both["jacobian"]["v"])
    close(forward["jacobian"]["x"], both["jacobian"]["x"])


JOBS = [  # (the job's arguments, its Jacobian by hand: {name: J})
    (("exp(-a*t)*cos(w*t)", "a=0.3", "w=2", "t=linspace(0, 1, 9)", "--wrt", "a,w"),
     lambda t=numpy.linspace(0, 1, 9): {"a": -t * numpy.exp(-0.3 * t) * numpy.cos(2 * t),
                                        "w": -t * numpy.exp(-0.3 * t) * numpy.sin(2 * t)}),
    (("tanh(A @ x)", "A=[[1., 2.], [0.5, -1.], [3., 0.25], [-2., 1.]]", "x=[0.3, -0.2]", "--wrt", "x"),
     lambda A=numpy.array([[1., 2.], [0.5, -1.], [3., 0.25], [-2., 1.]]), x=numpy.array([0.3, -0.2]):
     {"x": (1 - numpy.tanh(A @ x) ** 2)[:, None] * A}),  # a tensor input: d tanh(Ax)_i / dx_j
    (("[x*y, x+y, x-y]", "x=2", "y=3"), lambda: {"x": [3.0, 1.0, 1.0], "y": [2.0, 1.0, -1.0]}),
    (("x = 3; x**2 * linspace(0, 1, 4)",), lambda: {"x": 6 * numpy.linspace(0, 1, 4)}),  # a variable the program binds
    (("(x**2).cumsum(0)", "x=[[1., 2., 3.], [4., 5., 6.]]"),  # J[i, j, k, l] = 2 x[k, l] where k <= i and l == j
     lambda x=numpy.arange(1.0, 7.0).reshape(2, 3): {
         "x": numpy.einsum("ik,jl,kl->ijkl", numpy.tril(numpy.ones((2, 2))), numpy.eye(3), 2 * x)}),
]


@pytest.mark.parametrize("args, by_hand", JOBS, ids=[a[0][0] for a in JOBS])
def test_forward_and_reverse_agree_with_each_other_and_by_hand(cli, args, by_hand):
    forward = jacobian_in(cli, "forward", *args)
    reverse = jacobian_in(cli, "reverse", *args)
    assert list(forward) == list(reverse)  # the same keys, in the same order
    assert {k: v for k, v in forward.items() if k != "jacobian"} == {k: v for k, v in reverse.items() if k != "jacobian"}
    expected = by_hand()
    assert list(forward["jacobian"]) == list(reverse["jacobian"]) == list(expected)
    for name, j in expected.items():
        close(forward["jacobian"][name], reverse["jacobian"][name])
        close(forward["jacobian"][name], j)
        assert numpy.shape(forward["jacobian"][name]) == numpy.shape(reverse["jacobian"][name])


def test_the_text_output_is_the_same_in_either_mode(cli):
    runs = {mode: cli.ok("eval", "x*y*linspace(1, 2, 3)", "x=2", "y=3", "--wrt", "x", "--jacobian",
                         "--jacobian-mode", mode).stdout for mode in ("forward", "reverse", "auto")}
    assert runs["forward"] == runs["reverse"] == runs["auto"]
    assert runs["auto"].splitlines() == ["f = [ 6,  9, 12]", "jacobian df/dx [3] = [  3, 4.5,   6]"]


def test_a_scalar_f_takes_forward_mode_only_when_forced(cli):
    out, mode = job_and_mode(cli, "x*sin(y)", "x=2", "y=0.5")
    assert mode == "reverse"
    forced = jacobian_in(cli, "forward", "x*sin(y)", "x=2", "y=0.5")
    close(forced["jacobian"]["x"], numpy.sin(0.5))
    close(forced["jacobian"]["y"], 2 * numpy.cos(0.5))
    assert forced["grad"] == out["grad"] and forced["value"] == out["value"]


def test_a_batch_with_the_option(cli, tmp_path):
    jobs = tmp_path / "jobs.txt"
    jobs.write_text("sin(x*v)\n# a comment\nx*v**2\nsum(v)*x\n")
    lines = {}
    for mode in ("forward", "reverse", "auto"):
        before = dict(job_module.jacobian_taken)
        result = cli.ok("eval", "-f", str(jobs), "x=0.5", "v=[1, 2, 3]", "--wrt", "x", "--jacobian",
                        "--jacobian-mode", mode, "--json")
        lines[mode] = [json.loads(line) for line in result.stdout.splitlines()]
        counts = {m: job_module.jacobian_taken[m] - before[m] for m in before}
        # auto: 1 input for 3 outputs (lines 1 and 3), 1 input for 1 output (line 4)
        expected = {"forward": {"forward": 3, "reverse": 0}, "reverse": {"forward": 0, "reverse": 3},
                    "auto": {"forward": 2, "reverse": 1}}[mode]
        assert counts == expected, (mode, counts)
    assert [o["line"] for o in lines["auto"]] == [1, 3, 4]
    v = numpy.array([1.0, 2.0, 3.0])
    for got, expected in zip(lines["forward"], (v * numpy.cos(0.5 * v), v ** 2, 6.0)):
        close(got["jacobian"]["x"], expected)
    for a, b in zip(lines["forward"], lines["reverse"]):
        close(a["jacobian"]["x"], b["jacobian"]["x"])


def test_the_command_as_a_shell_runs_it(cli):
    proc = cli.console("eval", "sin(x*linspace(0, 1, 5))", "x=0.5", "--jacobian", "--jacobian-mode", "forward",
                       "--json")
    assert proc.returncode == 0, proc.stderr
    v = numpy.linspace(0, 1, 5)
    close(json.loads(proc.stdout)["jacobian"]["x"], v * numpy.cos(0.5 * v))


def test_a_bad_mode_is_a_usage_error(cli):
    message = cli.usage_error("eval", "x**2", "x=1", "--jacobian", "--jacobian-mode", "sideways")
    assert message.startswith("Invalid value for '--jacobian-mode': 'sideways' is not one of")
    assert "'auto'" in message and "'forward'" in message and "'reverse'" in message
    message = cli.usage_error("eval", "x**2", "x=1", "--jacobian", "--jacobian-mode")
    assert "--jacobian-mode" in message and "requires an argument" in message


def test_help_documents_the_option(cli):
    text = " ".join(cli.ok("eval", "--help").stdout.split())
    assert "--jacobian-mode [auto|forward|reverse]" in text
    assert "fewer elements in all than f" in text and "[default: auto]" in text


def test_a_random_program_draws_the_same_numbers_in_every_run(cli):
    # f = x * r with r drawn once per run: forward mode's runs must see the first run's r (J = r = f / x)
    out = jacobian_in(cli, "forward", "x*randn(6)", "x=2")
    assert out["jacobian"]["x"] == [v / 2 for v in out["value"]]
    seeded = jacobian_in(cli, "forward", "x*randn(6)", "x=2", "--seed", "7")
    assert seeded["value"] == jacobian_in(cli, "reverse", "x*randn(6)", "x=2", "--seed", "7")["value"]
    assert seeded["jacobian"]["x"] == [v / 2 for v in seeded["value"]]
    for draw in ("randn(6)", "rand(6)", "randn_like(ones(6))"):
        # auto: forward mode for a seeded program; for one that drew unseeded, reverse (no run again)
        out, mode = job_and_mode(cli, f"x*{draw}", "x=2", "--seed", "7")
        assert mode == "forward" and out["jacobian"]["x"] == [v / 2 for v in out["value"]]
        out, mode = job_and_mode(cli, f"x*{draw}", "x=2")
        assert mode == "reverse" and out["jacobian"]["x"] == [v / 2 for v in out["value"]]
    _, mode = job_and_mode(cli, "y = randn(2); x*ones(6)", "x=2")  # any draw counts
    assert mode == "reverse"


def test_the_programs_runs_in_forward_mode_print_nothing_more(cli):
    result = cli.ok("eval", "print('hi'); x*ones(3)", "x=1", "--jacobian", "--jacobian-mode", "forward")
    assert result.stdout.splitlines()[0] == "hi" and result.stdout.count("hi") == 1


def test_f_that_does_not_depend_on_a_variable(cli):
    out = jacobian_in(cli, "forward", "y*ones(3)", "x=1", "y=2", "--wrt", "x,y")
    assert out["jacobian"] == {"x": [0.0, 0.0, 0.0], "y": [1.0, 1.0, 1.0]}
    out = jacobian_in(cli, "forward", "ones(3)", "x=1", "--wrt", "x")  # f requires no grad at all
    assert out["jacobian"] == {"x": [0.0, 0.0, 0.0]}


def test_float32(cli):
    forward = jacobian_in(cli, "forward", "exp(x*linspace(0, 1, 4))", "x=0.5", "--dtype", "float32")
    reverse = jacobian_in(cli, "reverse", "exp(x*linspace(0, 1, 4))", "x=0.5", "--dtype", "float32")
    assert forward["dtype"] == "float32"
    close(forward["jacobian"]["x"], reverse["jacobian"]["x"], rtol=1e-6)


def test_with_a_tangent_too(cli):
    out = jacobian_in(cli, "forward", "sin(x)*y", "x=[0, 1]", "y=2", "--wrt", "y", "--tangent", "x=[1, 0]")
    close(out["jacobian"]["y"], numpy.sin([0.0, 1.0]))
    close(out["jvp"], [2.0, 0.0])


def test_forward_mode_needs_variables_the_job_binds(cli):
    # --wrt a value computed from x: auto takes reverse mode; forced forward mode is the job's error
    _, mode = job_and_mode(cli, "y = x*2; y*x*ones(3)", "x=1", "--wrt", "y")
    assert mode == "reverse"
    err = cli.failed_job("y = x*2; y*x*ones(3)", "x=1", "--wrt", "y", "--jacobian", "--jacobian-mode", "forward")
    assert err["type"] == "RuntimeError"
    assert err["message"] == ("--jacobian-mode forward: y is computed from other variables, not bound, so forward "
                              "mode cannot give it a tangent")
    assert err["hint"] == "use --jacobian-mode reverse (or auto)"


def test_a_variable_bound_twice(cli):
    # the tangent goes to x's first binding, the Jacobian is by its last: auto takes reverse mode
    source = "x = 1; y = x*5; x = 2; y*x*ones(3)"
    out, mode = job_and_mode(cli, source)
    assert mode == "reverse" and out["jacobian"] == {"x": [5.0, 5.0, 5.0]}
    err = cli.failed_job(source, "--jacobian", "--jacobian-mode", "forward")
    assert err["message"] == ("--jacobian-mode forward: x is bound again after its first binding, so forward mode "
                              "cannot give it a tangent")


def test_the_pass_limit_counts_columns_in_forward_mode(cli, monkeypatch):
    monkeypatch.setattr(job_module, "MAX_MATRIX_ROWS", 5)
    # 10 rows (past the limit in reverse mode) but 3 columns: auto's forward mode takes it
    out, mode = job_and_mode(cli, "x.sum()*linspace(0, 1, 10)", "x=[1, 2, 3]")
    assert mode == "forward"
    close(out["jacobian"]["x"], numpy.repeat(numpy.linspace(0, 1, 10)[:, None], 3, axis=1))
    err = cli.failed_job("x.sum()*linspace(0, 1, 10)", "x=[1, 2, 3]", "--jacobian", "--jacobian-mode", "reverse")
    assert err["type"] == "ResourceError" and "10 backward passes, one per row" in err["message"]
    err = cli.failed_job("x.sum()*linspace(0, 1, 10)", "x=linspace(0, 1, 6)", "--jacobian", "--jacobian-mode",
                         "forward")
    assert err["type"] == "ResourceError"
    assert err["message"] == "the Jacobian would take 6 forward passes, one per column (the limit is 5)"


@pytest.mark.parametrize("mode", ["forward", "reverse"])
def test_on_cuda_as_on_the_cpu(cli, cuda, mode):
    args = ("exp(x*v)", "x=0.5", "v=[1., 2., 3.]", "--wrt", "x")
    on_gpu, on_cpu = jacobian_in(cli, mode, *args, "--device", cuda), jacobian_in(cli, mode, *args)
    assert on_gpu["device"].startswith("cuda") and on_cpu["device"] == "cpu"
    close(on_gpu["jacobian"]["x"], on_cpu["jacobian"]["x"])
    close(on_cpu["jacobian"]["x"], numpy.array([1., 2., 3.]) * numpy.exp(0.5 * numpy.array([1., 2., 3.])))
