"""Property tests of the language through `autodiff eval`.

1. Random expressions built from the grammar's pieces (numbers, names,
   operators, calls, methods, indexing, lists) with random garbage tokens
   mixed in either evaluate (exit 0, parseable output) or fail cleanly
   (exit 1 with an `error:` message; never 2, as every option drawn is valid) --
   never a traceback, never an exception escaping the command.
2. For random polynomial-ish expressions in x, the --json gradient agrees
   with a central finite difference of the --json value.
"""
import json
import math
import re

import pytest
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st

SETTINGS = settings(max_examples=200, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])

NUMBERS = st.sampled_from(["0", "1", "2", "3", "0.5", "1.5", "2.5", "1e-3", ".5", "10", "1e2", "True", "None",
                           "0x1F", "0o17", "0b101", "1_000", "2.5e-1_0"])
NAMES = st.sampled_from(["x", "y", "x", "y", "z", "pi", "torch.pi"])
UNARY_FUNCS = ["exp", "log", "sin", "cos", "tan", "tanh", "sigmoid", "relu", "sqrt", "abs", "sum", "mean",
               "max", "min", "prod", "norm", "neg", "softmax", "torch.exp", "torch.sum", "F.relu",
               "sine", "foo", "print", "len", "float", "list", "t"]
BINARY_FUNCS = ["maximum", "minimum", "pow", "mm", "matmul", "dot", "torch.maximum", "grad"]
METHODS = ["sum()", "mean()", "exp()", "abs()", "t()", "max()", "min()", "sum(dim=0)", "sum(0)",
           "mean(dim=-1, keepdim=True)", "reshape(-1)", "view(-1)", "relu()", "sigmoid()", "prod()",
           "norm()", "unsqueeze(0)", "squeeze()", "clamp(-1, 1)", "pow(2)", "detach()", "clone()",
           "item()", "tolist()", "shape", "T", "grad", "requires_grad", "is_leaf", "grad_fn",
           "softmax(0)", "logsumexp(0)", "numel()", "transpose(0, 1)", "expand(2, 2)", "flatten()",
           "__class__", "numpy()", "data", "foo", "backward()", "retain_grad()", "zero_()"]
BINOPS = ["+", "-", "*", "/", "**", "@", "^", "<", ">", "<=", "==", "!=", " and ", " or ", "%", "//"]
INDEXES = ["0", "-1", "1", ":", "0:1", "::2", ":, 0", "0, 0", "None", "..., 0", "x > 0", "[0, 1]", "5"]
GARBAGE = ["(", ")", "[", "]", ",", "+", "*", "**", ".", "=", ":", "2x", "$", "'", '"', "#", ";", "\n",
           "  ", "lambda", "if", "__class__", "...", "\t", "@", "!", "?", "{", "}", "\\", "x.", "1.2.3",
           "import", "not", "0x10", "1_000", "é", "`"]


def _extend(children):
    unary = st.builds(lambda op, e: f"{op}{e}", st.sampled_from(["-", "+", "not ", "- -"]), children)
    binary = st.builds(lambda a, op, b: f"{a}{op}{b}", children, st.sampled_from(BINOPS), children)
    group = st.builds(lambda e: f"({e})", children)
    call1 = st.builds(lambda f, e: f"{f}({e})", st.sampled_from(UNARY_FUNCS), children)
    call2 = st.builds(lambda f, a, b: f"{f}({a}, {b})", st.sampled_from(BINARY_FUNCS), children, children)
    keyword = st.builds(lambda f, e, d: f"{f}({e}, dim={d})", st.sampled_from(["sum", "mean", "softmax", "max"]),
                        children, st.sampled_from(["0", "-1", "1", "5"]))
    method = st.builds(lambda e, m: f"({e}).{m}", children, st.sampled_from(METHODS))
    index = st.builds(lambda e, i: f"({e})[{i}]", children, st.sampled_from(INDEXES))
    lists = st.builds(lambda items: "[" + ", ".join(items) + "]", st.lists(children, min_size=0, max_size=3))
    calls_of_lists = st.builds(lambda f, items: f"{f}([" + ", ".join(items) + "])",
                               st.sampled_from(["cat", "stack", "tensor", "sum"]), st.lists(children, max_size=3))
    where = st.builds(lambda c, a, b: f"where({c} > 0, {a}, {b})", children, children, children)
    ternary = st.builds(lambda a, c, b: f"{a} if {c} else {b}", children, children, children)
    return st.one_of(unary, binary, group, call1, call2, keyword, method, index, lists, calls_of_lists,
                     where, ternary)


EXPRESSIONS = st.recursive(st.one_of(NUMBERS, NAMES), _extend, max_leaves=10)


@st.composite
def with_garbage(draw):
    expr = draw(EXPRESSIONS)
    for _ in range(draw(st.integers(0, 2))):
        pos = draw(st.integers(0, len(expr)))
        expr = expr[:pos] + draw(st.sampled_from(GARBAGE)) + expr[pos:]
    if draw(st.booleans()):
        # a statement in front: an assignment or two
        expr = draw(st.sampled_from(["z = x*2; ", "y = y + 1; ", "x.requires_grad_(True); ", "w = [1, 2]; ",
                                     "with no_grad(): z = x\n", "for i in range(3): z = x\n"])) + expr
    return expr


VALUES = st.sampled_from(["0.7", "2", "-1.5", "0", "[1, 2]", "[0.5, -1, 2]", "[[1, 2], [3, 4]]", "[[0.5]]",
                          "True", "ones(2)", "linspace(-1, 1, 3)", "tensor([1, 2])"])
OPTIONS = st.lists(st.sampled_from([["--json"], ["--weights", "1"], ["--order", "2"], ["--order", "3"],
                                    ["--jacobian"], ["--hessian"], ["--wrt", "x"], ["--graph", "json"],
                                    ["--check"], ["--dtype", "float32"], ["--weights", "[1, 2]"]]),
                   max_size=3, unique_by=lambda o: o[0])


def run_eval(cli, positional, options=(), input=None):
    """eval with `options`, then `--` so an expression starting with '-' is still an expression."""
    return cli.invoke("eval", *options, "--max-steps", "20000", "--", *positional, input=input)


# how the text output shows an unexpected Python exception: "error: OverflowError: ..."
INTERNAL_TEXT = re.compile(r"^error: \w+(Error|Exception): ", re.M)


def assert_clean(result, as_json, graph=False):
    """The contract: exit 0 with parseable output, or exit 1 with the error reported; never a
    traceback (run_eval's `invoke` checks that). Every option drawn is valid, and a bad program
    is a failed job, not a usage error: never exit 2. (`graph`: `--graph json` was given, which
    in text mode writes the graph's JSON alone on stdout and the values on stderr.)"""
    assert result.exit_code in (0, 1), (result.exit_code, result.stderr)
    # an unexpected Python exception caught at the last moment is still a bug
    assert "internal error" not in result.stderr and '"InternalError"' not in result.stdout, \
        (result.stdout, result.stderr)
    assert not INTERNAL_TEXT.search(result.stderr), result.stderr
    if result.exit_code == 0:
        if as_json:
            for line in result.stdout.splitlines():
                obj = json.loads(line)
                assert "value" in obj and "grad" in obj
        elif graph:
            assert "output" in json.loads(result.stdout) and result.stderr.startswith("f = "), result.stderr
        else:
            assert result.stdout.startswith("f = ")
    elif as_json and result.stdout.strip():
        # the failed job's object says why
        assert any("error" in json.loads(line) for line in result.stdout.splitlines()), result.stdout
    else:
        assert re.search(r"^error: ", result.stderr, re.M), result.stderr


@SETTINGS
@given(expr=with_garbage(), x=VALUES, y=VALUES, options=OPTIONS)
def test_random_programs_evaluate_or_fail_cleanly(cli, expr, x, y, options):
    as_json = ["--json"] in options
    result = run_eval(cli, [expr, f"x={x}", f"y={y}"], [a for o in options for a in o])
    assert_clean(result, as_json, graph=["--graph", "json"] in options)


@settings(max_examples=30, deadline=None, derandomize=True)
@given(exprs=st.lists(with_garbage(), min_size=1, max_size=5))
def test_random_batches_keep_going(cli, exprs):
    lines = [e.replace("\n", " ") for e in exprs]
    result = run_eval(cli, ["-", "x=[1, 2]", "y=0.5"], ["--json", "--weights", "1"], input="\n".join(lines) + "\n")
    assert_clean(result, True)
    jobs = [line for line in lines if line.strip() and not line.lstrip().startswith("#")]
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(out) == len(jobs)
    assert [o["line"] for o in out] == sorted(o["line"] for o in out)
    assert result.exit_code == (1 if any("error" in o for o in out) else 0)


# ---------------------------------------------- gradient vs finite differences

SMOOTH_UNARY = ["sin", "cos", "exp", "tanh", "sigmoid"]


def _poly_extend(children):
    return st.one_of(
        st.builds(lambda a, op, b: f"({a}{op}{b})", children, st.sampled_from(["+", "-", "*"]), children),
        st.builds(lambda a, n: f"({a})**{n}", children, st.sampled_from(["2", "3"])),
        st.builds(lambda a: f"-{a}", children),
        st.builds(lambda f, a: f"{f}({a})", st.sampled_from(SMOOTH_UNARY), children),
        st.builds(lambda a, c: f"{a}/{c}", children, st.sampled_from(["2", "3.5", "(x*x+1)"])),
    )


POLY = st.recursive(st.one_of(st.just("x"), st.just("x"), st.sampled_from(["1", "2", "0.5", "3"])),
                    _poly_extend, max_leaves=6)


def _json(cli, args):
    result = run_eval(cli, args, ["--json"])
    assert result.exit_code == 0, (args, result.stdout, result.stderr)
    return json.loads(result.stdout)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(expr=POLY, x0=st.floats(min_value=-1.5, max_value=1.5, allow_nan=False).map(lambda v: round(v, 3)))
def test_gradient_matches_central_difference(cli, expr, x0):
    assume("x" in expr)
    h = 1e-5
    out = _json(cli, [expr, f"x={x0!r}"])
    assume(isinstance(out["value"], float) and abs(out["value"]) < 1e6)
    g = out["grad"].get("x", 0.0)
    plus = _json(cli, [expr, f"x={x0 + h!r}"])["value"]
    minus = _json(cli, [expr, f"x={x0 - h!r}"])["value"]
    numeric = (plus - minus) / (2 * h)
    assert math.isclose(g, numeric, rel_tol=1e-5, abs_tol=1e-5 * (1 + abs(out["value"]))), (expr, x0, g, numeric)


# ------------------------------------------------- in-place statements first

INPLACE_PREFIXES = st.sampled_from(["z = x.exp(); z += 1; ", "z = x * 2; z[0] = 5.; ", "z = sigmoid(x); z.mul_(2); ",
                                    "z = x.exp(); z.zero_(); ", "z = x + 1; "])


@settings(max_examples=60, deadline=None, derandomize=True, phases=[Phase.explicit, Phase.generate],
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(prefix=INPLACE_PREFIXES, expr=EXPRESSIONS, x=VALUES, y=VALUES, options=OPTIONS)
def test_programs_with_inplace_statements_fail_cleanly(cli, prefix, expr, x, y, options):
    as_json = ["--json"] in options
    program = f"{prefix}({expr}) + z.sum()"  # f depends on z, whose graph an in-place op may have changed
    result = run_eval(cli, [program, f"x={x}", f"y={y}"], [a for o in options for a in o])
    assert_clean(result, as_json, graph=["--graph", "json"] in options)
