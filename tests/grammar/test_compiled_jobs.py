"""eval's compiled form of one-line jobs against the interpreter: bit-identical results, and it
really takes the jobs it is meant for (grammar/compiled.py).

The full pipeline (parser, compiler, interpreter, engine tensors and backward) is
the reference: for every generated job both paths must give the same value and the
same gradients, bit for bit, with the variables in the same order -- or the lane
must decline and leave the job to the pipeline.
"""
import math
import random
import sys

import numpy
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck

from autodiff.engine.state import isolated
from autodiff.engine.ops import TABLE
from autodiff.grammar import compiled as lean_lane
from autodiff.grammar.compiled_second import FORMULA_ROWS, formula_parts
from autodiff.grammar.errors import LanguageError
from autodiff.grammar.job import JobOptions, _calculator_value, _run_job

FUNCTIONS = ("sin", "cos", "tan", "tanh", "sigmoid", "exp", "log", "sqrt", "sinh", "cosh", "atan", "erf",
             "log1p", "expm1", "relu", "reciprocal", "neg", "clone")


def _full(source, bindings=(), options=None):
    """The full pipeline's result, or the error it raises."""
    try:
        return isolated(_run_job, source, bindings, options or JobOptions())
    except LanguageError as e:
        return e


def _bits(v):
    """A float64's bits; every NaN alike. (Which NaN a sum of two NaNs gives -- its sign bit --
    depends on whether the engine adds a gradient in place or not, which even two engine runs
    need not share; it prints as nan either way.)"""
    v = numpy.asarray(v, dtype=numpy.float64)
    return b"nan" if numpy.isnan(v) else v.tobytes()


def _same(lane_result, full_result):
    assert not isinstance(full_result, Exception), full_result
    assert _bits(lane_result.value) == _bits(full_result.value), (lane_result.value, full_result.value)
    assert (lane_result.shape, lane_result.dtype, lane_result.device, lane_result.order) == \
        (tuple(full_result.shape), full_result.dtype, full_result.device, full_result.order)
    assert list(lane_result.grad) == list(full_result.grad)
    for name in full_result.grad:
        assert _bits(lane_result.grad[name]) == _bits(full_result.grad[name]), name


def _check(source, bindings=(), options=None, lane_takes=True):
    options = options or JobOptions()
    with numpy.errstate(all="ignore"):  # as the command line runs jobs
        lane = lean_lane.run(source, bindings, options)
        full = _full(source, bindings, options)
    if lane_takes:
        assert lane is not None, f"the lane declined {source!r}"
    if lane is not None:
        _same(lane, full)
    return lane, full


# ------------------------------------------------------------------ generated jobs

def _constant(r):
    k = r.random()
    if k < 0.5:
        return f"{r.uniform(0.05, 3):.{r.randint(1, 4)}g}"
    if k < 0.7:
        return str(r.randint(0, 5))
    if k < 0.8:
        return f"{r.uniform(0.1, 9):.2f}e{r.choice('+-')}{r.randint(0, 2)}"
    if k < 0.9:
        return f"{r.randint(1, 3)}**{r.randint(0, 3)}"   # folded by the interpreter's arithmetic
    return f"({r.randint(1, 7)}/{r.randint(1, 4)})"


def _term(r, names, depth, top=False):
    """A random expression string over `names` (recursion only in this test's generator)."""
    if depth == 0 or (not top and r.random() < 0.25):
        return r.choice(names) if r.random() < 0.7 else _constant(r)
    a = _term(r, names, depth - 1)
    k = r.random()
    if k < 0.5:
        op = r.choice(["+", "-", "*", "/", "*", "+"])
        return f"({a} {op} {_term(r, names, depth - 1)})"
    if k < 0.65:
        return f"{r.choice(FUNCTIONS)}({a} + {r.choice(names)})"
    if k < 0.75:
        return f"({a})**{r.choice(['2', '3', '-1', '0.5', '-2', '1', '0', '2.5'])}"
    if k < 0.8:
        return f"{r.choice(['2', '0.5', '3.0', '1'])}**({a} + {r.choice(names)})"
    if k < 0.85:
        return f"({a})**({r.choice(names)})"
    if k < 0.93:
        return f"-{r.choice(names)}**2 + {a}"
    return f"+({a}) - -{r.choice(names)}"


def _job(r):
    names = ["x", "y", "z"][:r.randint(1, 3)]
    stmts = [f"{n} = {r.choice(['', '-'])}{r.uniform(0.1, 2.5):.{r.randint(1, 5)}g}" for n in names]
    if r.random() < 0.2:
        stmts.append(f"w = {names[0]} * {r.choice(FUNCTIONS)}({names[-1]})")  # a stored tensor, not a variable
        names = names + ["w"]
    if r.random() < 0.1:
        stmts.append(f"a = {names[0]}")   # an alias: the same variable
        names = names + ["a"]
    if r.random() < 0.1:
        stmts.append(f"{names[0]} = {r.uniform(0.1, 2):.3g}")   # a new variable under an old name
    expr = _term(r, names, r.randint(1, 4), top=True)
    if not any(n in expr for n in names):
        expr += f" * {names[0]}"
    return "; ".join(stmts + [expr])


def test_generated_jobs_are_bit_identical_to_the_full_pipeline():
    r = random.Random(13)
    taken = 0
    for _ in range(1500):
        source = _job(r)
        lane, full = _check(source, lane_takes=False)
        if lane is not None:
            taken += 1
        else:  # declined: only where f turned out to be a number or a bare variable, or the pipeline failed
            assert isinstance(full, Exception) or full.grad == {} or source.split(";")[-1].strip() in "xyzwa"
    assert taken >= 1400


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_random_jobs_agree(seed):
    source = _job(random.Random(seed))
    _check(source, lane_takes=False)


@pytest.mark.parametrize("seed", range(60))
def test_a_template_in_use_runs_as_straight_line_python_with_the_same_bits(seed, monkeypatch):
    """After HOT runs a template's steps become Python code (grammar/compiled.py _generate): its
    results are the steps' own, bit for bit -- and so the full pipeline's."""
    monkeypatch.setattr(lean_lane, "_programs", {})
    r = random.Random(1000 + seed)
    source = _job(r)
    with numpy.errstate(all="ignore"):
        first = lean_lane.run(source, (), JobOptions())
        if first is None:
            return  # a job the compiled form declines: the pipeline's
        for _ in range(lean_lane.HOT + 1):
            again = lean_lane.run(source, (), JobOptions())
    (program,) = lean_lane._programs.values()
    assert program.code is not None
    _same(again, first)
    _check(source)


@pytest.mark.parametrize("source", [
    "x = 0.37; 1.3*x**2 + sin(0.8*x) - 2",
    "x = 0.5; y = 1.25; x*y + exp(-x**2)/(1.2+y**2)",
    "x = 1; 2/x - -x**-2 + 2**x + x**x",                      # reciprocal*mul, pow_scalar, rpow_scalar, pow
    "x = 0.3; -x**2",                                          # -(x**2)
    "x = 0.3; 2**-x",                                          # 2**(-x)
    "x = 0.3; x**2**0.5",                                      # right-associative
    "x = 0.3; x - 1 - 2 - x",                                  # left-associative
    "x = 0.3; sigmoid(x) * sigmoid(-x)",                       # numpy.where's 0-d array kept as the engine keeps it
    "x = 0.3; y = x; x*y",                                     # an alias: one variable
    "x = 0.3; z = x*x; x = 2; z + x",                          # a new x; the old leaf is no longer named
    "x = 0.3; y = 0.7; dead = sin(y); x*3",                    # y unused by f: not in grad
    "x = 2*3; x/7",                                            # constants folded as the interpreter does
    "x = 1e-3; y = 2.5E+2; x*y",
    "x = 0; log(x) + 1/x",                                     # inf and nan, silently
    "x = -1; sqrt(x)",
    "x = 10; exp(x*100)",                                      # overflow to inf
    "x = 0.5; x*x*x*x*x*x*x*x*x + x + x + x",                  # three-way gradient sums in the engine's order
    "x = .5; y = 5.; (x + y) * (x - y) / (x * y)",
    "x = 0.1; relu(x - 1) + relu(x)",
])
def test_hand_picked_jobs(source):
    _check(source)


@pytest.mark.parametrize("source, bindings", [
    ("a*x**2+b*x+c", (("a", "1"), ("b", "-2"), ("c", "1"), ("x", "0"))),
    ("x*y", (("x", "-0.5"), ("y", "1e3"))),
    ("x = 3; x*y", (("x", "1"), ("y", "2"))),                  # the program rebinds x: still first in order
    ("x*y + 00", (("x", "007.5"), ("y", "0e0"))),              # zeros Python allows
])
def test_command_line_bindings(source, bindings):
    _check(source, bindings)


@pytest.mark.parametrize("source", [
    "x = 1; sin(0.5) * x",          # a function of a number
    "x = 1; pi * x",                # a builtin constant
    "x = 1; x^2",                   # the other spelling of **
    "x = 1; x // 2",
    "x = 1; x % 2",
    "x = 1; x",                     # f a bare variable
    "x = 1; 3",                     # f a number
    "x = 1; y",                     # NameError
    "x = 1; 2x",                    # syntax error (its hint comes from the pipeline)
    "x = 1; x +* 3",
    "x = 1; abs(x)",                # abs is Python's for numbers: not a plain row
    "x = 1; max(x, 2)",
    "x = 1; sin(x, 2)",
    "x = 1; x.exp()",
    "x = [1, 2]; sum(x)",
    "x = 1; if = 2; x",
    "sin = 2; x = 1; sin(x)",       # a bound name is not a function
    "x = 1\ny = 2\nx*y",            # several lines
    "x = 1; x*2;",
    "x = True; x*2",
    "x = 1_000; x*2",
    "x = 007; x*2",                 # leading zeros: the pipeline's SyntaxError
    "x = 1; x*0100",
    "x = 1; x * 2 # comment",
    "x = 1; x × 2",
    "x = 10**400; x*2",             # too large for a float
    "x = 1; 1/0 + x",               # ZeroDivisionError in the numbers' arithmetic
])
def test_declined_jobs(source):
    lane, full = _check(source, lane_takes=False)
    assert lane is None


@pytest.mark.parametrize("option, value", [
    ("order", 3), ("weights", "[1]"), ("hessian", True), ("check", True),
    ("formula", True), ("graph", True), ("dtype", "float32"), ("max_steps", 5), ("max_memory", 1 << 20),
])
def test_options_beyond_the_defaults_and_wrt_leave_the_lane(option, value):
    """(The options that differentiate f further take the compiled form's `evaluate`:
    tests/grammar/test_compiled_options.py; the others take the full pipeline. --order 2 takes
    the lane's recorded first backward: tests/grammar/test_compiled_second.py.)"""
    options = JobOptions(**{option: value})
    assert lean_lane.run("x = 0.3; sin(x)*x", (), options) is None
    evaluated = lean_lane.evaluate("x = 0.3; sin(x)*x", (), options, _calculator_value)
    assert (evaluated is None) == (option in ("formula", "graph", "dtype", "max_steps", "max_memory"))


def test_the_lane_applies_the_rows_the_language_functions_apply():
    from autodiff.grammar.names import BUILTINS
    lane = lean_lane._get_lane()
    assert set(FUNCTIONS) <= set(lane.functions)
    for name, row in lane.functions.items():
        assert BUILTINS[name]._row is row
    assert "abs" not in lane.functions and "pow" not in lane.functions   # Python's own for numbers


def test_a_batch_is_byte_identical_with_and_without_the_lane(cli, monkeypatch):
    r = random.Random(5)
    lines = [_job(r) for _ in range(300)]
    lines[17] = "x = 1; 2x"            # errors keep their place and their report
    lines[40] = "x = 1; y"
    lines[41] = "x = 1; x"
    text = "\n".join(lines) + "\n"
    with_lane = cli.invoke("eval", "-", "--json", input=text)
    text_with_lane = cli.invoke("eval", "-", input=text)
    monkeypatch.setattr(lean_lane, "run", lambda *a: None)
    monkeypatch.setattr(lean_lane, "evaluate", lambda *a, **k: None)
    without = cli.invoke("eval", "-", "--json", input=text)
    text_without = cli.invoke("eval", "-", input=text)
    assert with_lane.exit_code == without.exit_code == 1
    assert with_lane.output == without.output
    assert text_with_lane.output == text_without.output
    assert len(with_lane.output.splitlines()) == 300


def test_numbers_match_a_hand_derivation():
    lane, _ = _check("x = 0.5; y = 2; x**3*y + sin(x*y)")
    x, y = 0.5, 2.0
    assert lane.value == pytest.approx(x**3 * y + math.sin(x * y), rel=1e-15)
    assert lane.grad["x"] == pytest.approx(3 * x**2 * y + y * math.cos(x * y), rel=1e-15)
    assert lane.grad["y"] == pytest.approx(x**3 + x * math.cos(x * y), rel=1e-15)


# ------------------------------------------------------------------ variables as scalars, templates

# values where numpy's power of a 0-d array and of a scalar differ in the last bit (numpy 2.4): its
# array power takes sqrt for 0.5, reciprocal for -1 and square for 2, its scalar power C's pow
_POWER_SHORTCUT_POINTS = ("0.617093431446698", "2.5794451419820703", "2.18271744658251", "1.6694893566115692",
                          "1.3275170599102342", "0.0009843959404551848")


@pytest.mark.parametrize("exponent", ["0.5", "-1", "2", "2.0", "1.5", "3", "4", "5", "-2", "0", "1", "2.5"])
def test_a_variable_raised_to_a_number_is_the_pipelines(exponent):
    for x in _POWER_SHORTCUT_POINTS + ("-0.0", "0", "-1.3"):
        _check(f"x = {x}; x**{exponent}")
        _check(f"x = {x}; 3*x**{exponent} + x")


@pytest.mark.parametrize("source", ["x = {x}; 1/x + 2**x + x**x", "x = {x}; y = 0.7; x**y + y**x"])
def test_the_other_powers_of_a_variable_are_the_pipelines(source):
    for x in _POWER_SHORTCUT_POINTS:
        _check(source.format(x=x))


def _scalar_and_array_runs(lane, row, values, ctx, scalar):
    """A row's forward and backward with its variables held as float64 scalars or as 0-d arrays."""
    held = [(numpy.float64(v) if scalar else numpy.array(v)) if need else v for v, need in zip(values, ctx.needs)]
    out = row.forward(numpy, *held)
    g = numpy.float64(1.0) if scalar else numpy.ones(())
    _, _, n, pick = formula_parts(lane)[row]  # (the lane's rows' and --order 2's formulas')
    picked = pick((held[0], held[1] if len(held) > 1 else None, out, None))
    saved = list(picked[0]) if n > 2 else picked[:n]  # past two values, pick gives the tuple of all
    return [out] + list(row.backward(lane.F, ctx, g, *saved))


def test_every_row_gives_the_same_bits_for_a_scalar_and_a_0d_array():
    """The lane holds variables as float64 scalars where the engine holds 0-d arrays, and starts the
    backward with a scalar 1: sound because the rows compute through numpy's ufuncs (engine/kernels.py
    never uses Python's **, which takes C's pow for a scalar), which treat both alike. Checked here on
    the installed numpy, over many points, the ** rows over exponents with and without shortcuts."""
    lane = lean_lane._get_lane()
    r = random.Random(3)
    points = [r.uniform(-4, 4) for _ in range(300)] + [r.uniform(-1e-3, 1e-3) for _ in range(50)] + \
        [0.0, -0.0, 1.0, -1.0, 0.5, 700.0, -700.0, 1e-310, math.inf, -math.inf, math.nan] + \
        [float(x) for x in _POWER_SHORTCUT_POINTS]  # where C's pow and numpy's vectorised power differ
    binary = set(lane.rows.values()) | {TABLE[name] for name in FORMULA_ROWS if name.endswith("_backward")}
    powers = {lane.pow_scalar, lane.rpow_scalar}
    rows = list(lane.parts) + [TABLE[name] for name in FORMULA_ROWS]  # (and --order 2's formulas' rows)
    assert len(rows) >= 25 and lane.mul in rows and lane.functions["sin"] in rows and powers <= set(rows)
    with numpy.errstate(all="ignore"):
        for row in rows:
            for v in points:
                if row in powers:  # the exponent (or the base) is the row's number parameter
                    forms = [((v, p), lean_lane._FIRST) for p in (2, 3, 0.5, -1, -2, -0.5, 2.5, 7, 1.3)]
                elif row in binary:
                    forms = [((v, 1.7), lean_lane._FIRST), ((-2.3, v), lean_lane._SECOND),
                             ((v, v * 0.3 - 1), lean_lane._BOTH)]
                else:
                    forms = [((v,), lean_lane._ONE)]
                for values, ctx in forms:
                    a = _scalar_and_array_runs(lane, row, values, ctx, scalar=True)
                    b = _scalar_and_array_runs(lane, row, values, ctx, scalar=False)
                    assert [None if x is None else _bits(x) for x in a] == \
                        [None if x is None else _bits(x) for x in b], (row.name, values)


def test_lines_of_one_template_share_a_program_and_keep_their_own_numbers(monkeypatch):
    monkeypatch.setattr(lean_lane, "_programs", {})
    first, _ = _check("x = 0.5; 1.3*x**2 + sin(0.8*x) - 2")
    assert len(lean_lane._programs) == 1
    for source in ["x = 1.75; 2.6*x**3 + sin(0.1*x) - 7", "x = 2; 1*x**0.5 + sin(3*x) - 1e-3",
                   "x = 0.617093431446698; 1*x**1.5 + sin(1.5*x) - 0", "x = 1.5e2; 2*x**2.5 + sin(.5*x) - 4."]:
        lane, full = _check(source)
        assert len(lean_lane._programs) == 1, source     # one template, one program
    assert first.value != lane.value
    # another binding name, or another template, compiles anew
    _check("x*y", (("x", "1"), ("y", "2")))
    _check("x*z", (("x", "1"), ("z", "2")))
    _check("x*y", (("x", "3"), ("z", "2")), lane_takes=False)   # y unbound here: the pipeline's NameError
    assert len(lean_lane._programs) == 3   # a declined line keeps no program


def test_literals_the_template_reads_otherwise_are_declined_and_not_kept(monkeypatch):
    monkeypatch.setattr(lean_lane, "_programs", {})
    for source in ["x = 1; 2x", "x = 1_000; x*2", "x = 1; x*1e", "x = 1.2.3; x"]:
        lane, _ = _check(source, lane_takes=False)
        assert lane is None
    assert lean_lane._programs == {}
    # 007 is a literal of the template, which holds; the line itself goes to the pipeline's error
    lane, full = _check("x = 1; 007*x", lane_takes=False)
    assert lane is None and isinstance(full, LanguageError)
    _check("x = 1; 7*x")
    _check("x = 1; 00*x")
    assert len(lean_lane._programs) == 1


def test_the_template_cache_is_bounded(monkeypatch):
    monkeypatch.setattr(lean_lane, "_programs", {})
    monkeypatch.setattr(lean_lane, "CACHE_SIZE", 5)
    for k in range(12):
        _check(f"x = 0.5; {'x + ' * k}sin(x)")
    assert len(lean_lane._programs) == 5
    assert any("x + x + x + x + x + x + x + x + x + x + x + sin" in key[0] for key in lean_lane._programs)


def test_a_command_line_binding_with_leading_zeros_is_declined():
    lane, full = _check("x*2", (("x", "007"),), lane_takes=False)
    assert lane is None and isinstance(full, LanguageError)


def test_the_literal_patterns_split_as_the_plain_definition():
    # the lane's patterns are the plain definition of a literal rewritten for speed (the first
    # character before the look back; possessive quantifiers where Python reads them): they must
    # find the very same literals
    import re
    reference = re.compile(r"(?<![\w.])((?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)(?![\w.])")
    patterns = [re.compile(lean_lane._LITERAL_PATTERN)]
    if sys.version_info >= (3, 11):
        patterns.append(re.compile(lean_lane._LITERAL_POSSESSIVE))
    r = random.Random(11)
    alphabet = "0123456789.eE+-x_ (*)/;=a"
    samples = ["".join(r.choice(alphabet) for _ in range(r.randint(1, 14))) for _ in range(60_000)]
    samples += ["1.5e-3*x", "x1 = 2e5; x1**.5", "1..2", "3.e+", "007*x", "1e5e5", "a1.2", ".5.5", "2x"]
    for s in samples:
        for pattern in patterns:
            assert pattern.split(s) == reference.split(s), s


def test_the_lanes_functions_are_the_languages_one_row_functions():
    # the lane reads its functions from the op table (grammar/compiled.py's _row_functions), not from
    # the language's BUILTINS (whose import is the engine's Python API): both must name the same rows
    from autodiff.grammar.names import BUILTINS
    expected = {name: fn._row for name, fn in BUILTINS.items()
                if getattr(fn, "_row", None) is not None and lean_lane._one_input(fn._row.parsed)
                and lean_lane._lean_row(fn._row)}
    functions = lean_lane._Lane().functions
    assert functions == expected
    assert {"sin", "exp", "sigmoid", "relu", "clone"} <= set(functions) and "abs" not in functions
