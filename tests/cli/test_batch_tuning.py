"""A batch collects garbage less often while it runs, and puts the collector back after
(cli/batch_tuning.py)."""
import gc

import pytest

from autodiff.grammar import compiled as lean_lane


def test_a_batch_raises_the_young_threshold_while_it_runs_and_restores_it(cli, monkeypatch):
    seen = []
    real_run = lean_lane.run

    def spy(source, bindings, options):
        seen.append((gc.get_threshold()[0], gc.get_freeze_count() > 0, gc.get_threshold()[2]))
        return real_run(source, bindings, options)

    monkeypatch.setattr(lean_lane, "run", spy)
    before = gc.get_threshold()
    result = cli.invoke("eval", "-", "--json", input="x = 0.5; sin(x)\nx = 1; y\nx = 2; x**2\n")
    assert result.exit_code == 1                      # the bad line still reports
    assert len(result.output.splitlines()) == 3
    assert seen and all(threshold >= 10_000 and frozen for threshold, frozen, _ in seen)
    assert all(full >= 100 for _, _, full in seen)  # full collections (every template kept) 10x rarer
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_one_job_leaves_the_collector_alone(cli, monkeypatch):
    seen = []
    real_run = lean_lane.run
    monkeypatch.setattr(lean_lane, "run", lambda *a: seen.append(gc.get_threshold()[0]) or real_run(*a))
    before = gc.get_threshold()
    assert cli.invoke("eval", "x*2", "x=1").exit_code == 0
    assert seen == [before[0]]


def test_cycles_made_in_a_batch_are_still_collected():
    class Cycle:
        pass

    from autodiff.cli.batch_tuning import batch_collection
    with batch_collection():
        for _ in range(50_000):
            a, b = Cycle(), Cycle()
            a.other, b.other = b, a
        made = [o for o in gc.get_objects() if isinstance(o, Cycle)]
    assert len(made) < 50_000   # collections did run inside: not all 100,000 objects are alive


class _Stream:
    """A stand-in stdout: what reconfigure and flush did to it."""

    def __init__(self, tty=False):
        self.write_through, self.tty, self.flushes = True, tty, 0

    def reconfigure(self, write_through):
        self.write_through = write_through

    def flush(self):
        self.flushes += 1

    def isatty(self):
        return self.tty


def test_a_batch_gathers_a_write_through_stdout_into_chunks_and_puts_it_back(monkeypatch):
    from autodiff.cli.batch_tuning import gathered_stdout
    stream = _Stream()
    monkeypatch.setattr("sys.stdout", stream)
    with gathered_stdout():
        assert stream.write_through is False
    assert stream.write_through is True and stream.flushes == 1
    terminal = _Stream(tty=True)       # a terminal keeps writing line by line
    monkeypatch.setattr("sys.stdout", terminal)
    with gathered_stdout():
        assert terminal.write_through is True


def test_job_lines_reading_in_chunks_gives_the_lines_iteration_gives():
    import io
    from autodiff.cli.inputs import job_lines
    data = b"x = 1; x*2\n\n# note\r\n\xef\xbb\xbfx = 2; x\r\nx = 3; \xff*x\nlast = 1; last*3"
    calls = []
    chunked = list(job_lines(io.BytesIO(data), lambda: calls.append(1)))
    plain = list(job_lines(io.BytesIO(data)))
    assert [(n, t) for n, t, _ in chunked] == [(n, t) for n, t, _ in plain]
    assert [type(e) for *_, e in chunked] == [type(e) for *_, e in plain]
    assert [n for n, _, _ in chunked] == [1, 4, 5, 6] and len(calls) == 2   # one read of the data, one of its end


def _read_line(proc, timeout=60):
    import selectors
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    assert sel.select(timeout), "no answer: the batch held its output while waiting for input"
    return proc.stdout.readline()



@pytest.mark.parametrize("unbuffered", ["1", ""])
def test_a_program_feeding_one_line_at_a_time_gets_each_answer(unbuffered):
    import json
    import os
    import subprocess
    import sys
    env = dict(os.environ, PYTHONUNBUFFERED=unbuffered)
    proc = subprocess.Popen([sys.executable, "-m", "autodiff.cli.main", "eval", "-", "--json"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
    try:
        for k, x in enumerate(["0.5", "2.0", "3"], 1):
            proc.stdin.write(f"x = {x}; x**2\n".encode())
            proc.stdin.flush()
            answer = json.loads(_read_line(proc))
            assert answer["line"] == k and answer["grad"] == {"x": 2 * float(x)}
        proc.stdin.close()
        assert proc.wait(60) == 0 and proc.stdout.read() == b""
    finally:
        proc.kill()


def test_lines_longer_than_a_read_come_out_whole():
    import io
    from autodiff.cli.inputs import _lines
    data = b"x = 1; " + b"x + " * 50 + b"x\nshort\n\n" + b"y" * 40 + b"\nend"
    assert list(_lines(io.BytesIO(data), lambda: None, 10 ** 6, size=7)) == list(io.BytesIO(data))
