"""Fuzzing the command line with hostile input (hypothesis).

Grammar-aware programs (the expressions of tests/test_language_property.py
with statements around them), byte-level mutants of them (invalid UTF-8, a
BOM, stray control bytes) and random eval options go through `autodiff eval`
as a batch. Whatever comes in:

- the exit status is 0 or 1, never 70 (an internal error) or 2 (the options
  drawn are valid), and no traceback or "internal error" appears;
- every failed job's JSON error has a type, a message and a column (an int),
  and the batch has one object per job line, in order, with its line number;
- each job of the batch gives exactly what it gives when run alone (no job
  can change another's result).

Bounded to a few seconds in CI; set AUTODIFF_FUZZ_EXAMPLES to run longer.
"""
import json
import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import invoke
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


def _run_batch(lines, options, bindings):
    """eval - --json --seed 0 over byte lines; (exit code, [objects])."""
    data = b"".join(line + b"\n" for line in lines)
    result = invoke("eval", "-", *bindings, "--json", "--seed", "0", *options, input=data)
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
def test_hostile_batches_fail_cleanly_and_stay_independent(lines, options, bindings):
    options = [word for option in options for word in option]
    code, objects = _run_batch(lines, options, bindings)
    _check_objects(objects, lines)
    assert code == (1 if any("error" in o for o in objects) else 0)
    # each job alone gives what it gave in the batch
    for obj, n in zip(objects, _job_lines(lines)):
        _, alone = _run_batch([lines[n - 1]], options, bindings)
        assert len(alone) == 1
        alone[0]["line"] = obj["line"]
        assert alone[0] == obj, (lines[n - 1], alone[0], obj)
