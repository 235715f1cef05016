"""Fuzzing the command line with hostile input (hypothesis).

Grammar-aware programs (the expressions of tests/grammar/test_language_property.py
with statements around them), byte-level mutants of them (invalid UTF-8, a
BOM, stray control bytes) and random eval options go through `autodiff eval`
as a batch. Whatever comes in:

- the exit status is 0 or 1, never 70 (an internal error) or 2 (the options
  drawn are valid), and no traceback or "internal error" appears;
- every failed job's JSON error has a type, a message and a column (an int),
  and the batch has one object per job line, in order, with its line number;
- each job of the batch gives exactly what it gives when run alone (no job
  can change another's result).

Scripts through `autodiff run`: classes with the iterator protocol (right and wrong),
__getitem__ iteration, random number and string literals (hex, octal, binary, underscores,
raw strings, escapes) and long lines near and past the line budget -- exit 0 or 1, and
every error placed in the script or naming the budget it met.

Bounded to a few seconds in CI; set AUTODIFF_FUZZ_EXAMPLES to run longer.
"""
import json
import re
import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from test_language_iteration import COUNTDOWN
from test_language_property import EXPRESSIONS

EXAMPLES = int(os.environ.get("AUTODIFF_FUZZ_EXAMPLES", "12"))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, derandomize=not os.environ.get("AUTODIFF_FUZZ_EXAMPLES"),
                    suppress_health_check=list(HealthCheck))

STATEMENTS = st.sampled_from([
    "", "z = x*2; ", "y = y + 1; ", "set_grad_enabled(False); ", "set_default_dtype(float32); ",
    "set_printoptions(precision=2); ", "manual_seed(3); ", "w = [1, 2]; ", "x.requires_grad_(True); ",
    "s = 'ab' * 3; ", "def f(t): return t*2\n", "for i in range(3): z = x\n", "k = 3 ** 40; ",
    "with no_grad(): z = x\n", "q = rand(2); ",
])
OPTIONS = st.lists(st.sampled_from([
    ["--order", "2"], ["--weights", "1"], ["--jacobian"], ["--hessian"], ["--check"], ["--formula"],
    ["--graph", "json"], ["--dtype", "float32"], ["--wrt", "x"], ["--max-steps", "5000"],
    ["--max-memory", "256M"], ["--precision", "3"],
]), max_size=3)
BINDINGS = st.lists(st.sampled_from(["x=0.7", "x=[1, 2]", "y=-1.5", "y=[[1, 2], [3, 4]]", "x=ones(2)"]),
                    min_size=1, max_size=2)
MUTATIONS = st.sampled_from([b"\xff", b"\xfe\xff", b"\xc3", b"\x00", b"\xef\xbb\xbf", b"\x1b", b"\r", b"\t",
                             b"\xe2\x88\x92", b"(", b")", b"'"])


@st.composite
def programs(draw):
    return (draw(STATEMENTS) + draw(EXPRESSIONS)).replace("\n", "; ").strip()


@st.composite
def mutated(draw):
    data = draw(programs()).encode("utf-8")
    for _ in range(draw(st.integers(1, 3))):
        pos = draw(st.integers(0, len(data)))
        data = data[:pos] + draw(MUTATIONS) + data[pos:]
    return data.replace(b"\n", b" ")


def _run_batch(cli, lines, options, bindings):
    """eval - --json --seed 0 over byte lines; (exit code, [objects])."""
    data = b"".join(line + b"\n" for line in lines)
    result = cli.invoke("eval", "-", *bindings, "--json", "--seed", "0", *options, input=data)
    assert result.exit_code in (0, 1), (result.exit_code, result.stdout, result.stderr)
    for stream in (result.stdout, result.stderr):
        assert "Traceback" not in stream and "internal error" not in stream, stream
    objects = [json.loads(text) for text in result.stdout.splitlines()]
    return result.exit_code, objects


def _job_lines(lines):
    """The line numbers that hold jobs (not blank, not #)."""
    numbers = []
    for n, raw in enumerate(lines, 1):
        text = raw.decode("utf-8", errors="replace").removeprefix("\ufeff").strip()
        if text and not text.startswith("#"):
            numbers.append(n)
    return numbers


def _check_objects(objects, lines):
    assert [o["line"] for o in objects] == _job_lines(lines)
    for o in objects:
        if "error" in o:
            error = o["error"]
            assert isinstance(error["type"], str) and error["type"], o
            assert isinstance(error["message"], str) and error["message"], o
            assert isinstance(error["column"], int) and error["column"] >= 1, o


@SETTINGS
@given(st.lists(st.one_of(programs().map(lambda p: p.encode("utf-8")), mutated()), min_size=1, max_size=4),
       OPTIONS, BINDINGS)
def test_hostile_batches_fail_cleanly_and_stay_independent(cli, lines, options, bindings):
    options = [word for option in options for word in option]
    code, objects = _run_batch(cli, lines, options, bindings)
    _check_objects(objects, lines)
    assert code == (1 if any("error" in o for o in objects) else 0)
    # each job alone gives what it gave in the batch
    for obj, n in zip(objects, _job_lines(lines)):
        _, alone = _run_batch(cli, [lines[n - 1]], options, bindings)
        assert len(alone) == 1
        alone[0]["line"] = obj["line"]
        assert alone[0] == obj, (lines[n - 1], alone[0], obj)


# ---------------------------------------------------------------- scripts: classes, iterators, literals, long lines

CLASSES = {  # a class each, with its __init__(self, n)
    "Countdown": COUNTDOWN,
    "Seq": """
class Seq:
    def __init__(self, n):
        self.n = n
    def __getitem__(self, i):
        if i >= self.n:
            raise IndexError(i)
        return i * 2
""",
    "Box": """
class Box:
    def __init__(self, n):
        self.items = list(range(n))
    def __iter__(self):
        return iter(self.items)
    def __len__(self):
        return len(self.items)
""",
    "Bad": """
class Bad:
    def __init__(self, n):
        self.n = n
    def __iter__(self):
        return self.n
""",
    "Forever": """
class Forever:
    def __init__(self, n):
        pass
    def __iter__(self):
        return self
    def __next__(self):
        return 1
""",
}
USES = st.sampled_from([
    "s = 0\nfor v in {c}({n}):\n    s = s + v\nprint(s)", "print(list({c}({n})))", "print(sum({c}({n})))",
    "it = iter({c}({n}))\nprint(next(it, None), next(it, 'end'))", "a, *b = {c}({n})\nprint(a, b)",
    "print(sorted({c}({n}), reverse=True)[:3])", "print([v * 2 for v in {c}({n})][-1:])",
    "print({n} in {c}({n}), dict(enumerate({c}({n}))))", "print(max({c}({n}), default=None))",
])
DIGITS = st.text(alphabet="0123456789abcdefABCDEFxXoObB_.eE+-", min_size=1, max_size=10)
LITERALS = st.one_of(
    st.builds(lambda p, d: p + d, st.sampled_from(["", "0x", "0o", "0b", "0X", "1", "0", "."]), DIGITS),
    st.builds(lambda p, q, body: f"{p}{q}{body}{q}", st.sampled_from(["", "r", "R", "f", "rf", "Fr", "b"]),
              st.sampled_from(["'", '"']), st.text(alphabet="ab \\'{}nxu0N1", max_size=12)),
)
LONG = st.builds(lambda n, op: "z = [" + op.join(["1"] * n) + "]", st.integers(500, 12_000),
                 st.sampled_from(["+", "*", ", ", "-"]))


@st.composite
def scripts(draw):
    names = draw(st.lists(st.sampled_from(sorted(CLASSES)), min_size=1, max_size=3, unique=True))
    lines = [CLASSES[name].strip("\n") for name in names]
    for _ in range(draw(st.integers(1, 5))):
        kind = draw(st.integers(0, 2))
        if kind == 0:
            lines.append(draw(USES).format(c=draw(st.sampled_from(names)), n=draw(st.integers(0, 6))))
        elif kind == 1:
            lines.append(f"v = {draw(LITERALS)}\nprint(v)")
        else:
            lines.append(draw(LONG))
    return "\n".join(lines) + "\n"


@SETTINGS
@given(scripts(), st.sampled_from(["1000000", "20000"]))
def test_hostile_scripts_fail_cleanly_with_a_place(cli, script, line_budget):
    result = cli.invoke("run", "-c", script, "--max-steps", "20000", "--max-line-length", line_budget)
    assert result.exit_code in (0, 1), (result.exit_code, result.stderr)
    for stream in (result.stdout, result.stderr):
        assert "Traceback" not in stream and "internal error" not in stream, stream
    if result.exit_code == 1:
        err = result.stderr
        assert err.startswith("error: "), err
        placed = re.search(r"\n  at <code>, line (\d+), column \d+:\n", err)
        assert placed or "raise it with --" in err.splitlines()[0], err
        if placed:
            assert 1 <= int(placed.group(1)) <= script.count("\n") + 1, err
