"""`eval --jobs N`: a batch over worker processes writes exactly what one
process writes (same bytes, same order, same exit status), and reads its input
as it goes rather than all at once."""
import os
import random
import warnings

import pytest

from autodiff.cli import parallel

EXPRESSIONS = ["x**2", "sin(x)*y", "x*", "exp(x)/y", "print('hi'); x+1", "sqrt(x)", "nope", "log(x)*y**2",
               "[x, y]", "x > 1"]


def _batch(n, seed=1):
    rng = random.Random(seed)
    lines = [rng.choice(EXPRESSIONS) for _ in range(n)]
    raw = "\n".join(lines).encode() + b"\n"
    return raw.replace(b"x**2\n", b"x\xff**2\n", 1)  # one line that is not UTF-8


@pytest.mark.parametrize("fmt", [[], ["--json"]])
def test_workers_write_what_one_process_writes(cli, fmt):
    batch = _batch(400)
    one = cli.invoke("eval", "-", "x=1.5", "y=2", "--weights", "1", *fmt, input=batch)
    two = cli.invoke("eval", "-", "x=1.5", "y=2", "--weights", "1", *fmt, "--jobs", "2", input=batch)
    assert one.exit_code == two.exit_code == 1  # some jobs fail
    assert two.stdout == one.stdout and two.stderr == one.stderr
    assert one.stdout.count("\n") > 300


def test_the_fork_warning_of_a_threaded_process_stays_out_of_the_output(cli, monkeypatch):
    """Python 3.12+ warns at a fork when the process has threads (numpy's BLAS has some):
    simulated here, the batch's output must still be what one process writes."""
    real_fork = os.fork

    def fork_that_warns():
        warnings.warn(f"This process (pid={os.getpid()}) is multi-threaded, use of fork() may lead to "
                      "deadlocks in the child.", DeprecationWarning, stacklevel=2)
        return real_fork()

    monkeypatch.setattr(os, "fork", fork_that_warns)
    batch = _batch(200)
    one = cli.invoke("eval", "-", "x=1.5", "y=2", input=batch)
    two = cli.invoke("eval", "-", "x=1.5", "y=2", "--jobs", "2", input=batch)
    assert "multi-threaded" not in two.stderr
    assert (two.stdout, two.stderr, two.exit_code) == (one.stdout, one.stderr, one.exit_code)


def test_workers_on_an_all_good_batch_exit_0(cli):
    batch = "".join(f"x*{k}\n" for k in range(200))
    out = cli.ok("eval", "-", "x=1", "--json", "--jobs", "2", input=batch).stdout.splitlines()
    assert len(out) == 200 and out[-1] == ('{"line": 200, "expr": "x*199", "value": 199.0, "shape": [], '
                                          '"dtype": "float64", "device": "cpu", "order": 1, "grad": {"x": 199.0}}')


def test_jobs_must_be_a_positive_number_or_auto(cli):
    assert "--jobs" in cli.fails("eval", "-", "--jobs", "0", input="x\n", code=2).stderr
    assert cli.ok("eval", "-", "x=1", "--jobs", "auto", input="x\n").stdout == "# line 1: x\nf = 1\ndf/dx = 1\n"


def test_input_is_read_as_it_goes():
    consumed = [0]

    def lines():
        for k in range(1, 20001):
            consumed[0] = k
            yield k, f"{k}", None

    seen = []

    def run_chunk(chunk, first):
        print("".join(text for _, text, _ in chunk))
        return 0

    failed = parallel.run_batch_in_workers(lines(), run_chunk, 2,
                                           progress=lambda done: seen.append((done, consumed[0])))
    assert failed == 0
    ahead = max(read - done for done, read in seen)
    assert ahead <= parallel.CHUNK * (parallel.AHEAD * 2 + 1)  # never the whole input
    assert seen[-1][0] == 20000
