"""The command line under a real terminal (issue 27): the console script runs on a
pseudo-terminal (tests/support/terminal.py, the standard library's pty), so isatty() is really
true where it should be, and Ctrl-C is typed as the terminal driver delivers it -- SIGINT to
the whole foreground process group, workers included.

- a batch whose results go to a file or a pipe shows its progress line and writes every
  result (it crashed with exit 70 when the input was wrapped for the progress count);
- the REPL: prompts, values, errors, Ctrl-C in a running statement, Ctrl-D;
- Ctrl-C in every mode ends the command within a couple of seconds with exit 130, says
  where it stopped, leaves an output file of whole lines, and leaves no process behind.
"""
import json
import os
import sys
import threading
import time

import pytest

from terminal import Terminal, alive, descendants

# a pty, and /proc to see which processes are left
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses a pty and Linux's /proc")

# seconds from Ctrl-C to the end of the command: "a second or two", with room for a loaded CI box
STOPS_WITHIN = 5.0


def _whole_json_lines(path):
    """The objects of a JSON Lines file, every line whole (json.loads fails on a cut one)."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    assert text == "" or text.endswith("\n"), text[-200:]
    return [json.loads(line) for line in text.splitlines()]


def _batch(path, n, slow=False):
    line = "sum([x*k for k in range(300)])*{}\n" if slow else "x**2*{}\n"
    path.write_text("".join(line.format(i) for i in range(n)))
    return str(path)


# ------------------------------------------------------------------ progress on a terminal

def test_a_batch_to_a_file_shows_progress_and_writes_every_result(tmp_path):
    jobs = _batch(tmp_path / "jobs.txt", 3000)
    out = tmp_path / "out.jsonl"
    with Terminal(["eval", "-f", jobs, "x=2", "--json", "-o", str(out)]) as t:
        assert t.wait(120) == 0, t.text()
        shown = t.text()
    assert "internal error" not in shown and "Traceback" not in shown
    objects = _whole_json_lines(out)
    assert [o["line"] for o in objects] == list(range(1, 3001)) and objects[-1]["value"] == 4.0 * 2999
    if "jobs/s" in shown:  # (a fast machine may finish before the first redraw)
        assert shown.endswith("\r\x1b[K"), repr(shown[-80:])  # the line is wiped at the end


def test_a_batch_from_a_pipe_to_a_redirected_stdout_shows_a_count(tmp_path):
    """cat jobs.txt | autodiff eval - --json > out, typed at a terminal."""
    fifo = tmp_path / "jobs.fifo"
    os.mkfifo(fifo)
    out = tmp_path / "out.jsonl"
    lines = "".join(f"x*{k}\n" for k in range(2000))

    def feed():
        with open(fifo, "w") as f:
            f.write(lines)

    writer = threading.Thread(target=feed)
    writer.start()
    with Terminal(["eval", "-", "x=1", "--json"], stdin=str(fifo), stdout=str(out)) as t:
        assert t.wait(120) == 0, t.text()
        shown = t.text()
    writer.join(10)
    assert "internal error" not in shown and "Traceback" not in shown
    assert len(_whole_json_lines(out)) == 2000


def test_a_batch_with_workers_to_a_file_on_a_terminal(tmp_path):
    jobs = _batch(tmp_path / "jobs.txt", 2000)
    out = tmp_path / "out.jsonl"
    with Terminal(["eval", "-f", jobs, "x=1", "--json", "--jobs", "2", "-o", str(out)]) as t:
        assert t.wait(120) == 0, t.text()
    assert len(_whole_json_lines(out)) == 2000


def test_minimize_and_test_show_their_progress_on_a_terminal(tmp_path):
    with Terminal(["minimize", "x**2 - 2*x + 1", "--init", "x=0", "--steps", "300"]) as t:
        assert t.wait(60) == 0
        assert "minimizing" in t.text() and "x = 0.99" in t.text()
    (tmp_path / "test_a.ad").write_text("assert 1 + 1 == 2\n")
    with Terminal(["test", str(tmp_path)]) as t:
        assert t.wait(60) == 0
        assert "[100%]" in t.text() and "1 passed, 0 failed" in t.text()


# ------------------------------------------------------------------ the REPL

def _say(t, typed, answer, timeout=20):
    """Type `typed` at the terminal and wait for `answer` in what it shows after that."""
    mark = t.mark()
    t.send(typed)
    t.expect(answer, timeout, since=mark)


def test_the_repl_on_a_terminal():
    with Terminal(["repl"]) as t:
        t.expect(">>> ")
        _say(t, "x = tensor(3., requires_grad=True)\n", "\r\n>>> ")
        _say(t, "y = x**2; y.backward(); x.grad\n", "\r\ntensor(6.)\r\n>>> ")
        _say(t, "1 +* 2\n", "error: two operators in a row: '+' then '*'\r\n  at line 1, column 4:")
        _say(t, "for i in range(2):\n    print(i * 10)\n\n", "\r\n0\r\n10\r\n>>> ")
        _say(t, "if True:\n    print('looping')\n    while True:\n        x = x + 1\n\n", "\r\nlooping\r\n")
        time.sleep(0.5)
        mark = t.mark()
        t.interrupt()  # stops the statement (at the loop's line 3 or 4), not the session
        t.expect("interrupted\r\n  at line ", STOPS_WITHIN, since=mark)
        t.expect("\r\n>>> ", 10, since=mark)
        _say(t, "print('still', 'here')\n", "\r\nstill here\r\n>>> ")
        t.send(b"\x04")  # Ctrl-D at the prompt: leave, ending the prompt's line
        assert t.wait(20) == 0
        assert t.text().endswith(">>> \r\n"), repr(t.text()[-40:])


def test_ctrl_c_at_the_repls_prompt_keeps_the_session():
    with Terminal(["repl"]) as t:
        t.expect(">>> ")
        t.send("1 + ")
        time.sleep(0.3)
        _say(t, b"\x03", "\r\n>>> ")  # the line is dropped, a new prompt
        _say(t, "2 * 21\n", "\r\n42\r\n")
        t.send("exit\n")
        assert t.wait(20) == 0


# ------------------------------------------------------------------ Ctrl-C in every mode

def _interrupted(args, wait_for=None, after=1.5, cwd=None):
    """Start `autodiff ARGS` on a terminal, type Ctrl-C once it runs; (exit status, seconds from Ctrl-C
    to its end, what the terminal showed, the processes it had below it)."""
    with Terminal(args, cwd=cwd) as t:
        if wait_for:
            t.expect(wait_for, 60)
        time.sleep(after)
        below = descendants(t.pid)
        start = time.monotonic()
        t.interrupt()
        status = t.wait(30)
        seconds = time.monotonic() - start
        shown = t.text()
    for pid in below:  # nothing left running
        deadline = time.monotonic() + 5
        while alive(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not alive(pid), f"process {pid} still running after the command ended"
    assert "Traceback" not in shown and "internal error" not in shown, shown
    return status, seconds, shown, below


LOOP = "s = 0\nwhile True:\n    s = s + 1\nx"
# the same, saying when it has started (Ctrl-C must reach the program's loop, not the start-up, which
# takes seconds on a loaded machine)
STARTED_LOOP = "print('started')\n" + LOOP


@pytest.mark.parametrize("args, where, started", [
    (["eval", STARTED_LOOP, "x=1", "--max-steps", "1000000000"], "interrupted\r\n  at line ", "started"),
    (["run", "-c", "print('started')\nwhile True:\n    pass", "--max-steps", "1000000000"],
     "interrupted\r\n  at <code>, line ", "started"),
    # (graph shows a program's prints only at the end: a longer wait instead)
    (["graph", LOOP, "x=1", "--max-steps", "1000000000"], "interrupted\r\n  at line ", None),
], ids=["eval", "run", "graph"])
def test_ctrl_c_stops_a_program_and_says_where(args, where, started):
    status, seconds, shown, _ = _interrupted(args, wait_for=started, after=0.5 if started else 3.0)
    assert status == 130 and seconds < STOPS_WITHIN, (status, seconds, shown)
    assert where in shown, shown


def test_ctrl_c_stops_minimize_with_the_point_reached():
    status, seconds, shown, _ = _interrupted(["minimize", "x**2 + sum([x*k for k in range(300)])", "--init", "x=1",
                                              "--steps", "1000000", "--lr", "1e-9"], wait_for="minimizing")
    assert status == 130 and seconds < STOPS_WITHIN, (status, seconds)
    assert "steps = " in shown and "interrupted)" in shown


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("fmt", [["--json"], []], ids=["json", "text"])
def test_ctrl_c_stops_a_batch_leaving_whole_lines(tmp_path, jobs, fmt):
    batch = _batch(tmp_path / "jobs.txt", 20000, slow=True)
    out = tmp_path / "out.txt"
    status, seconds, shown, below = _interrupted(["eval", "-f", batch, "x=1", *fmt, "--jobs", jobs, "-o", str(out)],
                                                 wait_for="jobs/s")
    assert status == 130 and seconds < STOPS_WITHIN, (status, seconds, shown)
    assert "interrupted: the batch stopped (the results of lines up to " in shown, shown
    last = int(shown.rsplit("lines up to ", 1)[1].split(" ")[0])
    if jobs == "2":
        assert len(below) == 2  # its workers, gone with it (checked in _interrupted)
    if fmt:
        objects = _whole_json_lines(out)
        assert [o["line"] for o in objects] == list(range(1, last + 1))
    else:
        text = out.read_text()
        assert text.endswith("\n") and f"# line {last}: " in text and f"# line {last + 1}: " not in text


def test_ctrl_c_stops_a_test_run_and_reports_what_ran(tmp_path):
    (tmp_path / "test_a.ad").write_text("assert 1 == 1\n")
    (tmp_path / "test_b.ad").write_text("while True:\n    pass\n")
    status, seconds, shown, below = _interrupted(["test", str(tmp_path), "--jobs", "2", "--max-steps",
                                                  "1000000000"], after=3.0)
    assert status == 130 and seconds < STOPS_WITHIN, (status, seconds, shown)
    assert "1 passed, 0 failed" in shown and "interrupted: 1 of 2 files ran" in shown, shown


def test_ctrl_c_stops_a_batch_on_a_local_dask_cluster(tmp_path):
    pytest.importorskip("distributed")
    batch = _batch(tmp_path / "jobs.txt", 5000, slow=True)
    out = tmp_path / "out.jsonl"
    status, seconds, shown, below = _interrupted(["eval", "-f", batch, "x=1", "--dask", "local", "--jobs", "2",
                                                  "-o", str(out)], wait_for="jobs/s", after=0.5)
    assert status == 130 and seconds < STOPS_WITHIN + 5, (status, seconds, shown)  # (closing the cluster)
    assert "interrupted: the batch stopped (the results of lines up to " in shown, shown
    last = int(shown.rsplit("lines up to ", 1)[1].split(" ")[0])
    assert [o["line"] for o in _whole_json_lines(out)] == list(range(1, last + 1))
    assert len(below) >= 2  # the cluster's processes, gone with it (checked in _interrupted)
