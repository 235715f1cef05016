"""`autodiff eval` through the command line (SPEC §4, §5): values and
derivatives, text labels, the JSON schema, every option, batch mode and exit
codes. Mostly click's CliRunner (stdout and stderr kept apart), plus a few
runs of the real console script in a subprocess."""
import importlib.util
from importlib.metadata import version
import json
import subprocess
import sys

import numpy
import pytest

from cuda_fixtures import REAL_GPU
from terminal import autodiff_command

BASE_KEYS = ["line", "expr", "value", "shape", "dtype", "device", "order", "grad"]
QUAD = ["a*x**2+b*x+c", "a=1", "b=-2", "c=1"]


def text_lines(cli, *args):
    return cli.ok("eval", *args).stdout.splitlines()


def eq(a, b):
    numpy.testing.assert_allclose(numpy.asarray(a, dtype=float), numpy.asarray(b, dtype=float),
                                  rtol=1e-12, atol=1e-12)


# ------------------------------------------------------------- SPEC §5 results

def test_quadratic_at_zero(cli):
    out = cli.job(*QUAD, "x=0")
    assert out["value"] == 1.0
    assert out["grad"] == {"a": 0.0, "b": 0.0, "c": 1.0, "x": -2.0}


def test_quadratic_matrix_with_all_one_weights(cli):
    out = cli.job(*QUAD, "x=[[0,0],[1,2]]", "--weights", "1")
    assert out["value"] == [[1.0, 1.0], [0.0, 1.0]]
    assert out["shape"] == [2, 2]
    assert out["grad"]["x"] == [[-2.0, -2.0], [0.0, 2.0]]
    assert out["grad"]["a"] == 5.0 and out["grad"]["b"] == 3.0 and out["grad"]["c"] == 4.0


def test_quadratic_second_derivative(cli):
    out = cli.job(*QUAD, "x=0", "--order", "2")
    assert out["order"] == 2
    assert out["grad"] == {"a": 0.0, "b": 0.0, "c": 0.0, "x": 2.0}


def test_square_first_and_second_derivative(cli):
    assert cli.job("y=x**2; y", "x=3")["grad"] == {"x": 6.0}
    assert cli.job("y=x**2; y", "x=3", "--order", "2")["grad"] == {"x": 2.0}


def test_w_x_seed(cli):
    assert cli.job("(w+x)*(w+1)", "w=1", "x=2")["grad"] == {"w": 5.0, "x": 2.0}
    out = cli.job("a=w+x; b=w+1; y=a*b; y", "w=1", "x=2")
    assert out["value"] == 6.0 and out["grad"] == {"w": 5.0, "x": 2.0}


def test_mean_of_square_bound_on_command_line(cli):
    out = cli.job("mean(3*(x+2)**2)", "x=ones(2,2)")
    assert out["value"] == 27.0
    assert out["grad"] == {"x": [[4.5, 4.5], [4.5, 4.5]]}
    out = cli.job("y=x+2; z=y*y*3; out=z.mean(); out", "--set", "x=ones(2,2)")
    assert out["grad"] == {"x": [[4.5, 4.5], [4.5, 4.5]]}


def test_tensor_assigned_in_program_follows_pytorch_rules(cli):
    # only numbers and lists are calculator variables; ones(2,2) does not require grad (as in PyTorch)
    out = cli.job("x=ones(2,2); mean(3*(x+2)**2)")
    assert out["grad"] == {}


def test_wrt_program_assigned_tensor_is_not_silently_zero(cli):
    error = cli.failed_job("x=ones(2,2); mean(3*(x+2)**2)", "--wrt", "x")
    assert "before it required grad" in error["message"] and "requires_grad=True" in error["hint"]


def test_program_leaf_with_requires_grad_is_a_variable(cli):
    out = cli.job("x=ones(2,2,requires_grad=True); mean(3*(x+2)**2)")
    assert out["grad"] == {"x": [[4.5, 4.5], [4.5, 4.5]]}


def test_cat_weighted_sum(cli):
    # y0=a*b, y1=a+b, loss=cat([y0,y1]), loss.backward(gradient=[1.,2.]) -> w.grad=9
    out = cli.job("a=w+x; b=w+1; cat([a*b, a+b])", "w=[1.]", "x=[2.]", "--weights", "[1.,2.]")
    assert out["value"] == [6.0, 5.0]
    assert out["grad"] == {"w": [9.0], "x": [4.0]}
    out = cli.job("a=w+x; b=w+1; cat([(a*b).reshape(1), (a+b).reshape(1)])", "w=1", "x=2", "--weights", "[1, 2]")
    assert out["grad"] == {"w": 9.0, "x": 4.0}


def test_l1_to_l4_graph(cli):
    prog = "l1=inp*w1; l2=l1+w2; l3=l1*w3; l4=l2*l3; loss=l4.mean(); loss"
    out = cli.job("inp=ones(2,2); " + prog, "w1=2", "w2=3", "w3=4")
    assert out["value"] == 40.0
    assert out["grad"] == {"w1": 28.0, "w2": 8.0, "w3": 10.0}
    out = cli.job(prog, "inp=ones(2,2)", "w1=2", "w2=3", "w3=4")
    assert out["grad"]["inp"] == [[14.0, 14.0], [14.0, 14.0]]


def test_mm_weights_seed(cli):
    args = ("mm(x,y)", "x=[[1,2]]", "y=[[3,4],[5,6]]", "--wrt", "x")
    assert cli.job(*args, "--weights", "[[1,0]]")["grad"] == {"x": [[3.0, 5.0]]}
    assert cli.job(*args, "--weights", "[[0,1]]")["grad"] == {"x": [[4.0, 6.0]]}


def test_grad_of_one_and_of_two_outputs(cli):
    assert cli.job("x1*x2", "x1=1", "x2=2")["grad"] == {"x1": 2.0, "x2": 1.0}
    assert cli.job("y1=x1*x2; y2=x1+x2; y1+y2", "x1=1", "x2=2")["grad"] == {"x1": 3.0, "x2": 2.0}


# ---------------------------------------------------------------- text output

def test_text_labels(cli):
    assert text_lines(cli, *QUAD, "x=0") == ["f = 1", "df/da = 0", "df/db = 0", "df/dc = 1", "df/dx = -2"]
    assert text_lines(cli, *QUAD, "x=0", "--order", "2", "--wrt", "x") == ["f = 1", "d2f/dx2 = 2"]
    assert text_lines(cli, "x**4", "x=1", "--order", "3") == ["f = 1", "d3f/dx3 = 24"]


def test_text_matrix_is_aligned(cli):
    out = cli.ok("eval", *QUAD, "x=[[0,0],[1,2]]", "--weights", "1", "--wrt", "x").stdout
    assert out == "f = [[1, 1],\n     [0, 1]]\ndf/dx = [[-2, -2],\n         [ 0,  2]]\n"


def test_text_without_variables_says_so(cli):
    lines = text_lines(cli, "1+2")
    assert lines[0] == "f = 3"
    assert "nothing to differentiate" in lines[1]


def test_text_jacobian_and_hessian_labels(cli):
    out = cli.ok("eval", "x**2*y+y**3", "x=1", "y=2", "--hessian").stdout.splitlines()
    assert out == ["f = 10", "df/dx = 4", "df/dy = 13", "d2f/dx2 = 4", "d2f/dxdy = 2", "d2f/dydx = 2",
                   "d2f/dy2 = 12"]
    out = cli.ok("eval", "x**2", "x=[1,2]", "--weights", "1", "--jacobian").stdout
    assert "jacobian df/dx [2, 2]" in out


def test_results_go_to_stdout_only(cli):
    result = cli.ok("eval", *QUAD, "x=0")
    assert result.stderr == ""


# ---------------------------------------------------------------- JSON schema

def test_json_schema_exact(cli):
    out = cli.job(*QUAD, "x=0")
    assert list(out) == BASE_KEYS
    assert out == {"line": 1, "expr": "a*x**2+b*x+c", "value": 1.0, "shape": [], "dtype": "float64",
                   "device": "cpu", "order": 1, "grad": {"a": 0.0, "b": 0.0, "c": 1.0, "x": -2.0}}


def test_format_json_equals_json_flag(cli):
    a = cli.ok("eval", *QUAD, "x=0", "--json").stdout
    b = cli.ok("eval", *QUAD, "x=0", "--format", "json").stdout
    assert a == b


def test_json_numbers_and_nested_lists(cli):
    out = cli.job("x*2", "x=[[1,2,3]]", "--weights", "1")
    assert out["value"] == [[2.0, 4.0, 6.0]] and out["shape"] == [1, 3]
    assert isinstance(out["grad"]["x"], list)


def test_json_jacobian_shape_is_f_shape_plus_x_shape(cli):
    out = cli.job("x**2*y", "x=[[1,2],[3,4]]", "y=3", "--weights", "1", "--jacobian")
    assert list(out) == BASE_KEYS + ["jacobian"]
    jx = numpy.array(out["jacobian"]["x"])
    jy = numpy.array(out["jacobian"]["y"])
    assert jx.shape == (2, 2, 2, 2) and jy.shape == (2, 2)
    expected = numpy.zeros((2, 2, 2, 2))
    for i in range(2):
        for j in range(2):
            expected[i, j, i, j] = 2 * 3 * [[1, 2], [3, 4]][i][j]
    eq(jx, expected)
    eq(jy, [[1, 4], [9, 16]])


def test_jacobian_by_hand_vector(cli):
    out = cli.job("x**2*y", "x=[1,2]", "y=3", "--jacobian", "--weights", "1")
    assert out["jacobian"] == {"x": [[6.0, 0.0], [0.0, 12.0]], "y": [1.0, 4.0]}
    assert out["grad"] == {"x": [6.0, 12.0], "y": 5.0}


def test_jacobian_of_nonscalar_needs_no_weights(cli):
    out = cli.job("x**2", "x=[1,2,3]", "--jacobian")
    assert out["jacobian"]["x"] == [[2.0, 0.0, 0.0], [0.0, 4.0, 0.0], [0.0, 0.0, 6.0]]


def test_json_hessian_blocks_by_hand(cli):
    out = cli.job("x**2*y+y**3", "x=1", "y=2", "--hessian")
    assert list(out) == BASE_KEYS + ["hessian"]
    assert out["hessian"] == {"x": {"x": 4.0, "y": 2.0}, "y": {"x": 2.0, "y": 12.0}}


def test_hessian_block_shapes(cli):
    out = cli.job("sum(x**2)*y", "x=[1,2]", "y=3", "--hessian")
    h = out["hessian"]
    assert h["x"]["x"] == [[6.0, 0.0], [0.0, 6.0]]
    assert h["x"]["y"] == [2.0, 4.0] and h["y"]["x"] == [2.0, 4.0]
    assert h["y"]["y"] == 0.0
    out = cli.job("sum(x**2)*sum(y)", "x=[1,2]", "y=[1,1,1]", "--hessian")
    assert numpy.array(out["hessian"]["x"]["y"]).shape == (2, 3)
    assert numpy.array(out["hessian"]["y"]["x"]).shape == (3, 2)
    assert numpy.array(out["hessian"]["y"]["y"]).shape == (3, 3)


def test_hessian_of_weighted_nonscalar(cli):
    out = cli.job("x*y", "x=1", "y=[1,2]", "--weights", "[1,-1]", "--hessian")
    assert out["hessian"]["x"]["y"] == [1.0, -1.0]
    assert out["hessian"]["y"]["y"] == [[0.0, 0.0], [0.0, 0.0]]


def test_json_check_key(cli):
    out = cli.job("sin(x)*y", "x=1", "y=2", "--check")
    assert list(out) == BASE_KEYS + ["check"]
    assert set(out["check"]) == {"x", "y"}
    assert all(0 <= v < 1e-6 for v in out["check"].values())


def test_json_keys_all_together_in_order(cli):
    out = cli.job("x*y", "x=1", "y=2", "--jacobian", "--hessian", "--check", "--graph", "json")
    assert list(out) == BASE_KEYS + ["jacobian", "hessian", "check", "graph"]


# ---------------------------------------------------------------------- --wrt

def test_default_wrt_is_every_bound_variable_f_depends_on(cli):
    out = cli.job("x*y", "x=2", "y=3", "z=4")
    assert out["grad"] == {"x": 3.0, "y": 2.0}  # z is bound but unused: absent


def test_wrt_repeat_and_comma_list(cli):
    assert cli.job("x*y", "x=2", "y=3", "z=4", "--wrt", "x")["grad"] == {"x": 3.0}
    assert cli.job("x*y", "x=2", "y=3", "z=4", "--wrt", "x", "--wrt", "y")["grad"] == {"x": 3.0, "y": 2.0}
    assert cli.job("x*y", "x=2", "y=3", "z=4", "--wrt", "x,y")["grad"] == {"x": 3.0, "y": 2.0}
    # asked for explicitly, an unused variable gets a zero derivative
    assert cli.job("x*y", "x=2", "y=3", "z=4", "--wrt", "x,z")["grad"] == {"x": 3.0, "z": 0.0}


def test_wrt_unknown_name(cli):
    err = cli.failed_job("x*y", "x=2", "y=3", "--wrt", "q")
    assert err["type"] == "NameError" and err["message"] == "--wrt q: no variable named 'q'"
    assert "q=VALUE" in err["hint"]


# -------------------------------------------------------------------- --order

def test_order_identically_zero_is_zeros_of_variable_shape(cli):
    assert cli.job("x", "x=2", "--order", "2")["grad"] == {"x": 0.0}
    out = cli.job("x*y", "x=[1,2]", "y=3", "--order", "2", "--weights", "1")
    assert out["grad"] == {"x": [0.0, 0.0], "y": 0.0}
    out = cli.job("x*y", "x=[[1,2]]", "y=3", "--order", "3", "--weights", "1")
    assert out["grad"] == {"x": [[0.0, 0.0]], "y": 0.0}


def test_higher_orders_of_a_polynomial(cli):
    for n, expect in [(1, 4 * 8.0), (2, 12 * 4.0), (3, 24 * 2.0), (4, 24.0), (5, 0.0)]:
        out = cli.job("x**4", "x=2", "--order", str(n))
        assert out["order"] == n and out["grad"]["x"] == expect


def test_order_is_chained_on_the_sum(cli):
    # d/dx of sum(d f/dx) elementwise: f = x**3 -> 6x
    out = cli.job("x**3", "x=[1,2]", "--weights", "1", "--order", "2")
    assert out["grad"]["x"] == [6.0, 12.0]


@pytest.mark.parametrize("value, message", [
    ("0", "0 is not in the range 1<=x<=20."),
    ("-1", "-1 is not in the range 1<=x<=20."),
    ("21", "21 is not in the range 1<=x<=20."),
    ("two", "'two' is not a valid integer range."),
])
def test_order_out_of_range_is_usage_error(cli, value, message):
    assert cli.usage_error("eval", "x", "x=1", "--order", value) == f"Invalid value for '--order': {message}"


# ------------------------------------------------------------------ --weights

def test_weights_scalar_and_full(cli):
    assert cli.job("x*y", "x=[1,2]", "y=3", "--weights", "2")["grad"] == {"x": [6.0, 6.0], "y": 6.0}
    assert cli.job("x*y", "x=[1,2]", "y=3", "--weights", "[1,-1]")["grad"] == {"x": [3.0, -3.0], "y": -1.0}
    assert cli.job("x**2", "x=3", "--weights", "2")["grad"] == {"x": 12.0}


def test_nonscalar_without_weights_is_an_error_suggesting_weights_or_sum(cli):
    err = cli.error_text("eval", "x**2", "x=[1,2,3]")
    assert err.startswith("error: f is not a scalar (its shape is [3]), so it has no single gradient\n")
    assert "--weights 1" in err and "sum(" in err
    err = cli.failed_job("x**2", "x=[1,2,3]")
    assert "--weights 1" in err["hint"] and "sum(" in err["hint"]


def test_weights_of_wrong_shape(cli):
    err = cli.error_text("eval", "x**2", "x=[1,2]", "--weights", "[1,2,3]")
    assert err.startswith("error: --weights has shape [3], which doesn't fit f's shape [2]\n")


def test_weights_bad_expression(cli):
    err = cli.failed_job("x**2", "x=[1,2]", "--weights", "1+")
    assert err["type"] == "SyntaxError" and err["message"] == "in --weights: the expression ends with '+'"


# ------------------------------------------------------------ check and graph

def test_check_text_reports_small_error(cli):
    out = cli.ok("eval", "sin(x)*y", "x=1", "y=2", "--check").stdout.splitlines()
    checks = [line for line in out if line.startswith("check ")]
    assert len(checks) == 2
    for line in checks:
        assert "finite differences" in line and line.endswith("(ok)")


def test_check_higher_order(cli):
    out = cli.job("sin(x)*y", "x=1", "y=2", "--check", "--order", "2")
    assert out["check"]["x"] < 1e-4 and out["check"]["y"] < 1e-4


def test_graph_text(cli):
    out = cli.ok("eval", "(w+x)*(w+1)", "w=1", "x=2", "--graph").stdout
    assert out.startswith("f = 6\ndf/dw = 5\ndf/dx = 2\n")
    assert "MulBackward0" in out and "AddBackward0" in out and "AccumulateGrad" in out
    assert out.count("AccumulateGrad w") == 2 and "(shown above)" in out  # shared node shown once


def test_graph_json(cli):
    out = cli.job("(w+x)*(w+1)", "w=1", "x=2", "--graph", "json")
    graph = out["graph"]
    names = [n["name"] for n in graph["nodes"]]
    assert "MulBackward0" in names and names.count("AddBackward0") == 2 and names.count("AccumulateGrad") == 2
    leaves = {n["variable"] for n in graph["nodes"] if n["name"] == "AccumulateGrad"}
    assert leaves == {"w", "x"}


def test_graph_json_in_text_mode_parses(cli):
    lines = cli.ok("eval", "x*y", "x=1", "y=2", "--graph=json").stdout.splitlines()
    graph = json.loads(lines[-1])
    assert {n["name"] for n in graph["nodes"]} == {"MulBackward0", "AccumulateGrad"}


def test_graph_dot(cli):
    out = cli.ok("eval", "x*y", "x=1", "y=2", "--graph", "dot").stdout
    dot = out[out.index("digraph"):]
    assert dot.startswith("digraph") and dot.rstrip().endswith("}")
    assert "MulBackward0" in dot and "->" in dot


def test_graph_node_expression_is_the_source_text(cli):
    out = cli.job("(w+x)*(w+1)", "w=1", "x=2", "--graph", "json")
    exprs = {n.get("expr") for n in out["graph"]["nodes"]}
    assert "(w+x)*(w+1)" in exprs


def test_graph_format_unknown_is_usage_error(cli):
    assert cli.usage_error("eval", "x", "x=1", "--graph=svg") == \
        "Invalid value for '--graph': 'svg' is not one of 'text', 'json', 'dot'."
    # `--graph` takes the next word only when it is a format, so `svg` here is a (bad) binding
    assert cli.usage_error("eval", "x", "x=1", "--graph", "svg") == \
        "Invalid value for NAME=VALUE: expected NAME=VALUE, got 'svg' (bindings look like x=1 or \"x=[1, 2]\")"


# ------------------------------------------------------- bindings and options

def test_set_binds_expressions(cli):
    out = cli.job(*QUAD[:1], "--set", "a=1", "--set", "b=-2", "--set", "c=1", "--set", "x=[[0,0],[1,2]]",
                  "--weights", "1")
    assert out["grad"]["x"] == [[-2.0, -2.0], [0.0, 2.0]]
    out = cli.job("sum(x**2)", "--set", "x=linspace(-1,1,5)")
    eq(out["grad"]["x"], [-2, -1, 0, 1, 2])


def test_set_wins_over_trailing_binding(cli):
    assert cli.job("x**2", "x=1", "--set", "x=5")["value"] == 25.0


def test_binding_values_are_expressions(cli):
    assert cli.job("x", "x=2*3+1")["value"] == 7.0
    assert cli.job("x*y", "x=2", "y=x+1")["grad"] == {"x": 3.0, "y": 2.0}


def test_dtype_float32(cli):
    out = cli.job("x/3", "x=1", "--dtype", "float32")
    assert out["dtype"] == "float32"
    assert out["value"] == pytest.approx(1 / 3, rel=1e-6) and out["value"] != 1 / 3
    assert cli.job("x/3", "x=1")["dtype"] == "float64"


def test_seed_repeatability(cli):
    a = cli.job("rand(3).sum()*x", "x=1", "--seed", "5")
    b = cli.job("rand(3).sum()*x", "x=1", "--seed", "5")
    c = cli.job("rand(3).sum()*x", "x=1", "--seed", "6")
    assert a == b and a["value"] != c["value"]
    assert a["grad"]["x"] == a["value"]


def test_precision(cli):
    assert text_lines(cli, "x/3", "x=1", "--precision", "3") == ["f = 0.333", "df/dx = 0.333"]
    assert text_lines(cli, "x/3", "x=1") == ["f = 0.333333", "df/dx = 0.333333"]
    assert text_lines(cli, "x/3", "x=1", "--precision", "12")[0] == "f = 0.333333333333"
    # JSON is always full precision
    assert cli.job("x/3", "x=1", "--precision", "2")["value"] == 1 / 3


def test_max_steps_stops_an_endless_loop(cli):
    result = cli.invoke("eval", "while True:\n    pass\nx", "x=1", "--max-steps", "1000")
    assert result.exit_code == 1
    assert result.stderr.startswith("error: stopped after 1,000 steps (its limit; raise it with --max-steps)")
    assert "--max-steps" in result.stderr and "line 1" in result.stderr
    err = cli.failed_job("while True: pass\nx", "x=1", "--max-steps", "1000")
    assert "--max-steps" in err["message"]


def test_max_steps_counts_loop_iterations(cli):
    prog = "s = x\nfor i in range(100):\n    s = s + x\ns"
    assert cli.job(prog, "x=1", "--max-steps", "100000")["grad"] == {"x": 101.0}
    assert cli.error_text("eval", prog, "x=1", "--max-steps", "50").startswith(
        "error: stopped after 50 steps (its limit; raise it with --max-steps)\n  at line 3, column 9:\n")


def test_program_without_final_expression(cli):
    err = cli.error_text("eval", "y = x**2", "x=1")
    assert err.startswith("error: eval needs an expression at the end: the value f to differentiate\n")


@pytest.mark.skipif(importlib.util.find_spec("cupy") is not None, reason="CuPy installed: cuda may work here")
@pytest.mark.parametrize("device", ["cuda", "gpu"])
def test_device_cuda_without_cupy_is_a_clear_error(cli, device):
    message = ("device 'cuda' needs CuPy, which is not installed: pip install 'autodiff-cli[gpu]' "
               "(and an NVIDIA GPU with CUDA), or use device='cpu'")
    assert cli.error_text("eval", "x**2", "x=1", "--device", device) == f"error: {message}\n"
    # with --json, every failure is a JSON object on stdout
    result = cli.fails("eval", "x**2", "x=1", "--device", device, "--json")
    assert json.loads(result.stdout) == {"error": {"type": "DeviceError", "message": message}}


def test_device_cpu_explicit(cli):
    assert cli.job("x**2", "x=1", "--device", "cpu")["device"] == "cpu"


@pytest.mark.skipif(REAL_GPU is None, reason="no CUDA GPU with CuPy here")
@pytest.mark.parametrize("args", [
    ("x**2*sin(y)", "x=1.5", "y=0.25"),
    ("sum(exp(x)*x)", "x=[0.5,1,2]"),
    ("x**3 + x*y", "x=2", "y=3", "--order", "2"),
    ("sum(x*x*x)", "x=[1,2]", "--hessian"),
    ("x*y", "x=[1,2]", "y=[3,4]", "--jacobian"),
])
def test_device_cuda_on_a_real_gpu_matches_cpu(cli, args):
    """Every number a GPU job prints is the CPU job's (to rounding); only the device differs."""
    on_gpu, on_cpu = cli.job(*args, "--device", "cuda"), cli.job(*args, "--device", "cpu")
    assert on_gpu.pop("device") == "cuda:0" and on_cpu.pop("device") == "cpu"
    pending = [(on_gpu, on_cpu)]
    while pending:
        got, want = pending.pop()
        if isinstance(want, dict):
            assert set(got) == set(want), (got, want)
            pending += [(got[k], want[k]) for k in want]
        elif isinstance(want, list):
            assert isinstance(got, list) and len(got) == len(want), (got, want)
            pending += list(zip(got, want))
        elif isinstance(want, float):
            assert got == pytest.approx(want, rel=1e-12, abs=1e-15), (got, want)
        else:
            assert got == want, (got, want)


# ----------------------------------------------------------------------- batch

JOBS = "x**2\n\n# a comment\n   # indented comment\nx +* 3\nsin(x)\nfoo(x)\n   \nx*3\n"


def check_batch_json(stdout):
    objs = [json.loads(line) for line in stdout.splitlines()]
    assert [o["line"] for o in objs] == [1, 5, 6, 7, 9]
    assert [o["expr"] for o in objs] == ["x**2", "x +* 3", "sin(x)", "foo(x)", "x*3"]
    assert objs[0]["grad"] == {"x": 4.0}
    assert objs[1]["error"]["type"] == "SyntaxError" and objs[1]["error"]["column"] == 4
    assert objs[2]["value"] == pytest.approx(numpy.sin(2.0))
    assert objs[3]["error"]["type"] == "NameError" and objs[3]["error"]["column"] == 1
    assert objs[4]["grad"] == {"x": 3.0}
    for o in objs:
        assert ("error" in o) != ("value" in o)


def test_batch_stdin_json(cli):
    result = cli.invoke("eval", "-", "x=2", "--json", input=JOBS)
    assert result.exit_code == 1
    check_batch_json(result.stdout)


def test_batch_file_json(cli, tmp_path):
    path = tmp_path / "jobs.txt"
    path.write_text(JOBS)
    result = cli.invoke("eval", "-f", str(path), "x=2", "--json")
    assert result.exit_code == 1
    check_batch_json(result.stdout)
    result = cli.invoke("eval", "--file", str(path), "--json", "--set", "x=2")
    assert result.exit_code == 1
    check_batch_json(result.stdout)


def test_batch_file_dash_is_stdin(cli):
    result = cli.invoke("eval", "-f", "-", "x=2", "--json", input=JOBS)
    assert result.exit_code == 1
    check_batch_json(result.stdout)


def test_batch_all_good_exits_zero(cli):
    result = cli.invoke("eval", "-", "x=2", "--json", input="x**2\n# c\n\nsin(x)\n")
    assert result.exit_code == 0
    objs = [json.loads(line) for line in result.stdout.splitlines()]
    assert [o["line"] for o in objs] == [1, 4]


def test_batch_options_apply_to_every_job(cli):
    result = cli.invoke("eval", "-", "x=2", "--json", "--order", "2", input="x**3\nx**2\n")
    assert result.exit_code == 0
    objs = [json.loads(line) for line in result.stdout.splitlines()]
    assert [o["grad"]["x"] for o in objs] == [12.0, 2.0]
    assert all(o["order"] == 2 for o in objs)


def test_batch_text_reports_line_numbers(cli, tmp_path):
    path = tmp_path / "jobs.txt"
    path.write_text(JOBS)
    result = cli.invoke("eval", "-f", str(path), "x=2")
    assert result.exit_code == 1
    assert "# line 1: x**2" in result.stdout and "# line 9: x*3" in result.stdout
    assert "f = 6\ndf/dx = 3" in result.stdout
    assert f"{path}, line 5, column" in result.stderr and f"{path}, line 7, column" in result.stderr
    assert result.stderr.count("error: ") == 2


def test_batch_empty_input(cli):
    result = cli.invoke("eval", "-", "x=2", "--json", input="\n# nothing\n")
    assert result.exit_code == 0 and result.stdout == ""


def test_batch_jobs_are_independent(cli):
    # an assignment in one line doesn't leak into the next
    result = cli.invoke("eval", "-", "x=2", "--json", input="y = 5; y*x\ny*x\n")
    objs = [json.loads(line) for line in result.stdout.splitlines()]
    assert objs[0]["value"] == 10.0
    assert objs[1]["error"]["type"] == "NameError"
    assert result.exit_code == 1


# ----------------------------------------------------------------- usage errors

BAD_BINDING = "Invalid value for NAME=VALUE: expected NAME=VALUE, got {!r} (bindings look like x=1 or \"x=[1, 2]\")"


@pytest.mark.parametrize("args, message", [
    (["x", "x"], BAD_BINDING.format("x")),                 # not NAME=VALUE
    (["x", "1=x"], BAD_BINDING.format("1=x")),             # not an identifier
    (["x", "=1"], BAD_BINDING.format("=1")),
    (["x", "x="], BAD_BINDING.format("x=")),
    (["x", "--set", "x"], BAD_BINDING.format("x")),
    (["x", "x=1", "--bogus"], "No such option '--bogus'."),  # unknown option
    (["x", "x=1", "--format", "yaml"], "Invalid value for '--format': 'yaml' is not one of 'text', 'json'."),
    (["x", "x=1", "--dtype", "int8"], "Invalid value for '--dtype': 'int8' is not one of 'float64', 'float32'."),
    (["x", "x=1", "--device", "tpu"], "Invalid value for '--device': 'tpu' is not one of 'cpu', 'cuda', 'gpu'."),
    ([], "give an expression, '-' to read jobs from stdin, or -f FILE"),  # no expression
])
def test_usage_errors_exit_2(cli, args, message):
    assert cli.usage_error("eval", *args) == message


def test_bad_binding_message_shows_the_form(cli):
    message = cli.usage_error("eval", "x", "x")
    assert "NAME=VALUE" in message and "x=1" in message


def test_missing_file_is_usage_error(cli, tmp_path):
    missing = tmp_path / "nope.txt"
    assert cli.usage_error("eval", "-f", str(missing), "x=1") == \
        f"Invalid value for '-f' / '--file': '{missing}': No such file or directory"


def test_help(cli):
    result = cli.ok("eval", "--help")
    for opt in ("--wrt", "--order", "--weights", "--jacobian", "--hessian", "--check", "--graph", "--json",
                "--device", "--dtype", "--seed", "--precision", "--max-steps", "--file", "--set"):
        assert opt in result.stdout


def test_eval_version(cli):
    assert cli.ok("eval", "--version").stdout == f"autodiff, version {version('autodiff-cli')}\n"


# ------------------------------------------------------------- real subprocess

def test_subprocess_console_script_json(cli):
    proc = cli.console("eval", *QUAD, "x=0", "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"line": 1, "expr": "a*x**2+b*x+c", "value": 1.0, "shape": [],
                                       "dtype": "float64", "device": "cpu", "order": 1,
                                       "grad": {"a": 0.0, "b": 0.0, "c": 1.0, "x": -2.0}}


def test_subprocess_module_text():
    proc = subprocess.run([sys.executable, "-m", "autodiff.cli.main", "eval", *QUAD, "x=0", "--order", "2",
                           "--wrt", "x"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "f = 1\nd2f/dx2 = 2\n"


def test_subprocess_batch_stdin_and_exit_codes(cli):
    proc = cli.console("eval", "-", "x=2", "--json", input="x**2\nx +\nexp(x)\n")
    assert proc.returncode == 1
    objs = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [o["line"] for o in objs] == [1, 2, 3]
    assert objs[1]["error"]["type"] == "SyntaxError" and objs[1]["error"]["message"] == "the expression ends with '+'"
    assert objs[2]["grad"]["x"] == pytest.approx(numpy.exp(2.0))


def test_subprocess_errors(cli):
    proc = cli.console("eval", "2x", "x=1")
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.startswith("error: missing operator between 2 and x\n  at line 1, column 2:\n")
    assert "did you mean 2*x?" in proc.stderr
    proc = cli.console("eval", "x", "oops")
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.splitlines()[-1] == "Error: " + BAD_BINDING.format("oops")
    proc = cli.console("eval", "x", "x=1", "--nope")
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.splitlines()[-1].startswith("Error: No such option '--nope'.")


def test_subprocess_version(cli):
    proc = cli.console("--version")
    assert proc.returncode == 0 and proc.stdout == f"autodiff, version {version('autodiff-cli')}\n"


def test_a_scalar_jobs_json_line_is_the_encoders_bytes():
    """eval writes a plain scalar result's JSON line directly: byte for byte what the
    JSON encoder writes for the same result (nan, infinities, -0.0, 1e300, 0-d arrays,
    non-ASCII text)."""
    import numpy
    from autodiff.cli.output import dumps, job_json, job_json_line
    from autodiff.grammar.results import JobResult
    values = [numpy.float64(v) for v in (0.1, -0.0, 1.0, 1e300, -2.5e-308, float("nan"), float("inf"),
                                          -float("inf"), 123456789.125)] + [numpy.array(0.75), numpy.array(-1e-5)]
    for i, v in enumerate(values):
        grads = {"x": values[-1 - i], "θ": values[(i * 3) % len(values)], 'a"b': numpy.float64(2.0)}
        r = JobResult(source="s", value=v, shape=(), dtype="float64", device="cpu", order=1, grad=grads)
        text = f"x = {i}; sin(x) + \"π\" * 0  # ü"
        assert job_json_line(i + 1, text, r) == dumps(job_json(i + 1, text, r))
    r = JobResult(value=numpy.array([1.0, 2.0]), shape=(2,), grad={"x": numpy.array([1.0, 0.0])})
    assert job_json_line(1, "t", r) == dumps(job_json(1, "t", r))   # not a scalar: the encoder
    for i, v in enumerate(values):  # the compiled form's results (JobResult.scalar)
        r = JobResult.scalar("x = 1e-3; -x/2 + sin(x)", v, {"x": values[-1 - i], "θ": values[(i * 5) % len(values)]})
        assert job_json_line(7, r.source, r) == dumps(job_json(7, r.source, r))
        # with a Hessian of scalars, and a check's Python floats: written straight out too
        r.hessian = {"x": {"x": values[i], "θ": values[-1 - i]}, "θ": {"x": values[-1 - i], "θ": v}}
        r.check = {"x": float(values[(i * 7) % len(values)]), "θ": 1.5e-11}
        assert job_json_line(7, r.source, r) == dumps(job_json(7, r.source, r))
    r.hessian = {"x": {"x": numpy.array([1.0, 2.0])}}  # a block of a tensor: the encoder
    assert job_json_line(7, r.source, r) == dumps(job_json(7, r.source, r))


# ------------------------------------------------------------------ issue 27

@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_text_batch_shows_each_error_after_the_results_before_it(tmp_path, jobs):
    """`2>&1`: one stream, in the order things happened."""
    batch = tmp_path / "jobs.txt"
    batch.write_text("x*2\nx*\nx*3\n")
    proc = subprocess.run(autodiff_command() + ["eval", "-f", str(batch), "x=1", "--jobs", jobs],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120)
    assert proc.returncode == 1
    text = proc.stdout
    assert text.index("df/dx = 2") < text.index("error: the expression ends with '*'") < text.index("# line 3: x*3")


def test_graph_json_in_text_mode_is_the_graph_alone_on_stdout(cli):
    result = cli.ok("eval", "x*2", "x=3", "--graph", "json")
    graph = json.loads(result.stdout)
    assert set(graph) >= {"output", "nodes", "root"}
    assert result.stderr == "f = 6\ndf/dx = 2\n"
