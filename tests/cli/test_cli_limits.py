"""Hostile sizes and the budgets (issue 27): input past a budget is refused before it is
parsed, parsing costs memory in proportion to the input, every budget is an option named by
its error and listed in the README's table, and the command line's own limits (--jobs,
output paths, options without values) give usage errors, not internal ones.

The size reproducers run the console script in a subprocess and measure its peak memory
(os.wait4) and time, with bounds generous enough for a loaded two-core CI machine.
"""
import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest

from autodiff.grammar.budget import BUDGETS, BY_KEY, default
from locations import README
from terminal import alive, autodiff_command, descendants

BASE_MB = 120  # the command's own peak (interpreter, numpy, the engine) is well under this
# the memory budget is the kernel's limit on the address space and /proc's count of it; processes are
# counted in /proc
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux's RLIMIT_AS and /proc")


# Run in a small Python of its own, which waits for the command with os.wait4: a process's peak
# memory counts the process it was forked from (Linux carries it over exec), and pytest is large
_MEASURE = """
import os, subprocess, sys
proc = subprocess.Popen(sys.argv[2:])
_, status, usage = os.wait4(proc.pid, 0)
with open(sys.argv[1], "w") as f:
    f.write(f"{os.waitstatus_to_exitcode(status)} {usage.ru_maxrss}")
"""


def peak(*args, stdin=None, timeout=120):
    """`autodiff ARGS` in a subprocess: (exit status, stdout, stderr, seconds, peak RSS of the command
    in MB)."""
    start = time.monotonic()
    report = f"/tmp/autodiff-limits-{os.getpid()}-{time.monotonic_ns()}.rusage"
    with open(stdin, "rb") if stdin else open(os.devnull, "rb") as feed:
        proc = subprocess.Popen([sys.executable, "-c", _MEASURE, report] + autodiff_command() + list(args),
                                stdin=feed, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            descendants_then = descendants(proc.pid)
            proc.kill()
            for pid in descendants_then:
                os.kill(pid, signal.SIGKILL)
            proc.communicate()
            raise AssertionError(f"`autodiff {' '.join(args)}` still running after {timeout} s") from None
    with open(report) as f:
        code, kilobytes = map(int, f.read().split())
    os.unlink(report)
    stdout, stderr = out.decode("utf-8", "replace"), err.decode("utf-8", "replace")
    for stream in (stdout, stderr):
        assert "Traceback" not in stream and "internal error" not in stream, stream
    return code, stdout, stderr, time.monotonic() - start, kilobytes / 1024


# ------------------------------------------------------------------ sizes of input

def test_dev_zero_is_binary_data_refused_at_once():
    for args, stdin in ((["eval", "-f", "/dev/zero"], None), (["eval", "-", "x=1", "--json"], "/dev/zero")):
        code, out, err, seconds, mb = peak(*args, stdin=stdin)
        assert code == 1 and seconds < 20 and mb < BASE_MB + 60, (code, seconds, mb, err)
        message = err if not out else json.loads(out)["error"]["message"]
        assert "binary data" in message and "raise it with --max-line-length" in message and \
            "the batch stops here" in message, (out, err)
    code, out, err, seconds, mb = peak("run", "/dev/zero")
    assert code == 1 and seconds < 20 and mb < BASE_MB + 60
    assert err.startswith("error: this is binary data, not a program (a NUL byte)\n  at /dev/zero, line 1, column 1:")
    code, out, err, seconds, mb = peak("repl", stdin="/dev/zero")
    assert code == 1 and seconds < 20 and mb < BASE_MB + 60 and "binary data" in err


def test_a_line_past_the_line_budget_fails_alone_before_parsing(tmp_path):
    jobs = tmp_path / "jobs.txt"
    with open(jobs, "w") as f:  # a 10 MB line x+x+...+x between two ordinary jobs
        f.write("x*2\n" + "+".join(["x"] * 5_000_000) + "\nx*3\n")
    code, out, err, seconds, mb = peak("eval", "-f", str(jobs), "x=1", "--json")
    assert code == 1 and seconds < 20 and mb < BASE_MB + 60, (seconds, mb)
    first, long, last = [json.loads(line) for line in out.splitlines()]
    assert first["value"] == 2.0 and last["value"] == 3.0  # the batch went on
    assert long["line"] == 2 and long["expr"].startswith("x+x+") and long["expr"].endswith("...")
    assert long["error"]["message"] == ("this line of 9,999,999 bytes is too long to read (limit 1,000,000 "
                                        "characters; raise it with --max-line-length)")


def test_a_program_past_its_budgets_is_refused_at_the_first_character_past_them(cli):
    err = cli.run_fails("x = 1\ny = " + "1+" * 40 + "1\n", "--max-line-length", "50")
    assert err.startswith("error: this line is 85 characters long, too long to read (limit 50 characters; raise it "
                          "with --max-line-length)\n  at <code>, line 2, column 51:")
    err = cli.run_fails("x = 1\n" * 100, "--max-program-length", "300")
    assert err.startswith("error: the program is 600 characters long, too long to read (limit 300 characters; "
                          "raise it with --max-program-length)\n  at <code>, line 51, column 1:")


def test_a_script_file_is_read_only_as_far_as_its_budget(cli, tmp_path):
    script = tmp_path / "big.ad"
    script.write_text("x = 1\n" * 2000)  # 12,000 characters
    err = cli.run_fails(None, "--max-program-length", "1000", script=script)
    assert err.startswith("error: the program is more than 1,000 characters long, too long to read (limit 1,000 "
                          "characters; raise it with --max-program-length)")


@pytest.mark.parametrize("what, line", [
    ("a 900,000-character string literal", "len('" + "a" * 900_000 + "')"),
    ("a 900,000-character name", "a" * 900_000),
    ("a 400,000-item list", "len([" + ",".join(["1"] * 400_000) + "])"),
], ids=["string", "name", "list"])  # (short ids: pytest puts the id in the environment, PYTEST_CURRENT_TEST)
def test_long_literals_parse_in_memory_in_proportion(tmp_path, what, line):
    jobs = tmp_path / "jobs.txt"
    jobs.write_text(line + "\n")
    code, out, err, seconds, mb = peak("eval", "-f", str(jobs), "--json", timeout=180)
    assert code in (0, 1) and seconds < 90, (what, seconds)
    # 1 MB of input: the string and the name cost next to nothing beyond their text; the list,
    # ~300 bytes a character (its tokens, tree and code)
    assert mb < BASE_MB + (60 if "list" not in what else 400), (what, mb)
    obj = json.loads(out)
    assert ("value" in obj) if "name" not in what else obj["error"]["type"] == "NameError"


def test_a_long_unknown_name_is_shown_once_not_again_in_its_hint(cli):
    """Python's NameError holds the name once; the hint repeated it (three times in a job's,
    `add NAME=VALUE (e.g. NAME=1) or --set NAME=VALUE`): 4 MB of error for a 1 MB name."""
    name = "a" * 5000
    for err in (cli.run_fails(name), cli.error_text("eval", f"x*{name}", "x=1")):
        assert err.startswith(f"error: name '{name}' is not defined\n") and err.count(name) == 1, len(err)
        assert len(err) < 2 * len(name)
    assert cli.error_text("eval", "x*yy", "x=1").endswith("  hint: bind it: add yy=VALUE (e.g. yy=1) or --set "
                                                         "yy=VALUE\n")


def test_five_million_items_are_refused_before_parsing(tmp_path):
    jobs = tmp_path / "jobs.txt"
    jobs.write_text("sum([" + ",".join(["1"] * 5_000_000) + "])\n")
    code, out, err, seconds, mb = peak("eval", "-f", str(jobs), "--json")
    assert code == 1 and seconds < 20 and mb < BASE_MB + 60, (seconds, mb)
    assert "raise it with --max-line-length" in json.loads(out)["error"]["message"]


def test_parsing_memory_grows_in_proportion_to_the_input(tmp_path):
    """Twice the items, about twice the memory above the baseline (not four times)."""
    growth = []
    for n in (100_000, 200_000):
        jobs = tmp_path / f"list{n}.txt"
        jobs.write_text("len([" + ",".join(["7"] * n) + "])\n")
        code, out, err, seconds, mb = peak("eval", "-f", str(jobs), "--json", timeout=180)
        assert code == 0 and json.loads(out)["value"] == n
        growth.append(mb)
    small, large = growth
    code, out, err, seconds, base = peak("eval", "1", "--json")
    assert large - base < 2.6 * max(small - base, 5), growth


@linux_only
def test_the_memory_budget_covers_parsing(tmp_path):
    jobs = tmp_path / "jobs.txt"
    jobs.write_text("len([" + ",".join(["7"] * 400_000) + "])\n")
    code, out, err, seconds, mb = peak("eval", "-f", str(jobs), "--json", "--max-memory", "40M", timeout=180)
    assert code == 1 and seconds < 60
    assert json.loads(out)["error"]["message"].startswith("the job went past its memory budget (limit 40 MiB; raise "
                                                         "it with --max-memory)")


@linux_only
def test_a_program_at_the_memory_limit_stops_promptly(tmp_path):
    """Many small objects up to the budget (CPython can loop for good when they meet the kernel's
    limit itself): the job stops with its error within seconds, each time."""
    for _ in range(1 if os.environ.get("CI") else 2):
        code, out, err, seconds, mb = peak("run", "-c", "xs = []\nwhile True:\n    xs.append([len(xs)])",
                                           "--max-memory", "80M", "--max-steps", "1000000000", timeout=120)
        assert code == 1 and seconds < 60, (seconds, err)
        assert err.startswith("error: the job went past its memory budget (limit 80 MiB; raise it with "
                              "--max-memory)\n")


# ------------------------------------------------------------------ things that contain themselves

def test_containers_that_contain_themselves_print_as_python_prints_them(cli):
    out = cli.ok("run", "-c", "a = [1]\na.append(a)\nd = {}\nd['k'] = d\nt = (a,)\nprint(a, d, repr(a), f'{a}', "
                          "str(d), '{}'.format(a), format(a), '%s' % (a,), t, [a, a])").stdout
    assert out == ("[1, [...]] {'k': {...}} [1, [...]] [1, [...]] {'k': {...}} [1, [...]] [1, [...]] "
                   "[1, [...]] ([1, [...]],) [[1, [...]], [1, [...]]]\n")


def test_a_tensor_of_a_list_that_contains_itself_is_an_error_not_a_walk_without_end(cli):
    start = time.monotonic()
    err = cli.run_fails("a = [1]\na.append(a)\nprint(tensor(a))")
    assert time.monotonic() - start < 10
    assert err.startswith("error: a list nested more than 32 deep is not a tensor (does it contain itself?)\n")
    # f itself (a list made in a function: eval's top level reads a list of numbers as a tensor)
    err = cli.failed_job("def f():\n    a = [x]\n    a.append(a)\n    return a\nf()", "x=1")
    assert "does it contain itself?" in err["message"]


# ------------------------------------------------------------------ every budget named and adjustable

# a program that meets each budget when it is set low, with the option and value that do it
MEETS = {
    "max_steps": ("while True:\n    pass", "100"),
    "max_memory": ("x = zeros(10**8)", "100M"),
    "max_depth": ("def f(n):\n    return f(n + 1)\nf(0)", "50"),
    "max_items": ("x = [0] * 5000", "1000"),
    "max_digits": ("x = 10 ** 500", "100"),
    "max_line_length": ("x = 1 + 2 + 3", "5"),
    "max_program_length": ("x = 1\ny = 2", "5"),
}


@pytest.mark.parametrize("key", sorted(MEETS))
def test_each_budget_error_names_its_option(cli, key):
    option = BY_KEY[key].option
    source, value = MEETS[key]
    err = cli.run_fails(source, option, value)
    assert f"raise it with {option})" in err.splitlines()[0], err
    # the same in eval (a job of a batch) and its JSON
    message = cli.failed_job(source.replace("\n", "\n") + "\nx", "x=1", option, value)["message"]
    assert f"raise it with {option})" in message, message


def test_the_timeout_names_its_option(cli, tmp_path):
    (tmp_path / "test_slow.ad").write_text("while True:\n    pass\n")
    result = cli.fails("test", str(tmp_path), "--timeout", "1", "--max-steps", "1000000000")
    assert "timed out after 1 s (raise it with --timeout)" in result.stdout


@pytest.mark.parametrize("budget", BUDGETS, ids=lambda b: b.key)
def test_every_budget_is_an_option_of_its_commands_with_its_default(cli, budget):
    for command in budget.commands:
        text = cli.ok(command, "--help").stdout
        assert budget.option in text, (command, budget.option)
        value = default(budget, command)
        shown = f"{value >> 30}G" if budget.kind == "size" else str(value)
        flat = " ".join(text.split())
        assert re.search(re.escape(budget.option) + r"[^\[]*\[default: " + re.escape(shown), flat), \
            (command, budget.option, shown)


def test_the_readme_has_one_table_of_every_budget():
    with open(README, encoding="utf-8") as f:
        text = f.read()
    rows = [line for line in text.splitlines() if line.startswith("| `--max-") or line.startswith("| `--timeout")]
    assert len(rows) == len(BUDGETS), rows
    for budget, row in zip(BUDGETS, rows):
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert cells[0] == f"`{budget.option}`", row
        value = budget.default
        shown = f"{value >> 30}G" if budget.kind == "size" else f"{value:g} s" if budget.kind == "seconds" \
            else f"{value:,}"
        assert shown in cells[2], (row, shown)


def test_the_allocation_cap_follows_max_memory(cli):
    message = cli.failed_job("zeros(30_000_000).sum()*x", "x=1", "--max-memory", "100M")["message"]
    assert message == ("refusing to allocate 228.9 MiB for a tensor of shape [30000000] (limit 100 MiB; raise it "
                       "with --max-memory)")
    assert cli.job("zeros(30_000_000).sum()*x", "x=1", "--max-memory", "1G")["value"] == 0.0
    text = cli.error_text("eval", "ones(10**10)")
    assert "(limit 4 GiB; raise it with --max-memory)" in text


@linux_only
def test_numpys_allocation_failure_is_worded_as_ours(cli):
    # a process of its own, as a user runs it: in one where a GPU driver has started (the GPU tests
    # before this one), the budget sets no address-space limit, by design (grammar/budget.py)
    proc = cli.console("eval", "outer(ones(10**4), ones(10**4)).sum()*x", "x=1", "--max-memory", "64M", "--json")
    assert proc.returncode == 1, (proc.stdout, proc.stderr)
    message = json.loads(proc.stdout)["error"]["message"]
    assert message.startswith("the job went past its memory budget (limit 64 MiB; raise it with --max-memory)")
    assert "Unable to allocate" not in message and ". MiB" not in message


@linux_only
def test_an_allocation_the_machine_refuses_below_the_budget_does_not_blame_the_budget(cli):
    # 728 TiB (10**14 float64s) is past any machine's memory, and below a budget of 1,000 TiB: the
    # budget was not what stopped it (it said "went past its memory budget (limit 1e+03 TiB)")
    err = cli.failed_job("zeros(10**14).sum()*x", "x=1", "--max-memory", "1000T")
    assert err["type"] == "MemoryError"
    assert err["message"] == ("the machine could not provide the memory for an array of 728 TiB, shape "
                              "[100000000000000], float64 (the job's memory budget, 1,000 TiB, is larger)"), err
    assert err["hint"] == "work on smaller tensors"


def test_whole_numbers_print_up_to_max_digits(cli):
    out = cli.ok("run", "-c", "print(len(str(10**5000)))").stdout
    assert out == "5001\n"  # past Python's own 4,300-digit guard
    err = cli.run_fails("print(10**40000)")
    assert "raise it with --max-digits" in err and "sys.set_int_max_str_digits" not in err
    err = cli.run_fails("x = " + "9" * 200, "--max-digits", "100")
    assert err.startswith("error: a whole number written with 200 digits is too long to read (limit 100 digits; "
                          "raise it with --max-digits)")


# ------------------------------------------------------------------ --jobs: capped, and no orphans

SLOW_LINE = "sum([x*k for k in range(300)])*{}\n"


def _slow_batch(path, n):
    path.write_text("".join(SLOW_LINE.format(i) for i in range(n)))
    return str(path)


def _most_workers(args, seconds, tmp_path):
    """Run `autodiff ARGS`; the most processes below it seen while it ran, its exit status and output."""
    out_path = tmp_path / "out.jsonl"
    with open(out_path, "w") as out:  # (a file: a pipe nobody reads while it runs would fill and stop it)
        proc = subprocess.Popen(autodiff_command() + list(args), stdout=out, stderr=subprocess.DEVNULL)
        most = 0
        deadline = time.monotonic() + seconds
        try:
            while proc.poll() is None and time.monotonic() < deadline:
                most = max(most, len(descendants(proc.pid)))
                time.sleep(0.05)
            assert proc.poll() is not None, f"still running after {seconds} s"
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    return most, proc.returncode, out_path.read_text()


@linux_only
def test_jobs_are_capped_by_the_work(tmp_path):
    most, code, out = _most_workers(["eval", "-f", _slow_batch(tmp_path / "ten.txt", 10), "x=1", "--json",
                                     "--jobs", "300"], 120, tmp_path)
    assert code == 0 and len(out.splitlines()) == 10
    assert most <= 1, most  # ten jobs: one chunk, one worker


@linux_only
def test_jobs_are_capped_by_the_cores(cli, tmp_path):
    from autodiff.cli.options import most_jobs
    most, code, out = _most_workers(["eval", "-f", _slow_batch(tmp_path / "many.txt", 640), "x=1", "--json",
                                     "--jobs", "100000"], 300, tmp_path)
    assert code == 0 and len(out.splitlines()) == 640
    assert 1 <= most <= most_jobs(), most
    assert f"at most 4 per core ({most_jobs()} here)" in " ".join(cli.ok("eval", "--help").stdout.split())


@linux_only
def test_workers_die_with_their_parent(tmp_path):
    proc = subprocess.Popen(autodiff_command() + ["eval", "-f", _slow_batch(tmp_path / "b.txt", 3000), "x=1",
                                                  "--json", "--jobs", "2"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while len(descendants(proc.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        workers = descendants(proc.pid)
        assert len(workers) == 2, workers
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and any(alive(w) for w in workers):
        time.sleep(0.05)
    assert not any(alive(w) for w in workers), "orphaned workers still running"


@linux_only
def test_a_worker_that_dies_costs_only_its_jobs(tmp_path):
    proc = subprocess.Popen(autodiff_command() + ["eval", "-f", _slow_batch(tmp_path / "b.txt", 1000), "x=1",
                                                  "--json", "--jobs", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while len(descendants(proc.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        os.kill(descendants(proc.pid)[0], signal.SIGKILL)
        out, err = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    objects = [json.loads(line) for line in out.splitlines()]
    assert proc.returncode == 1 and [o["line"] for o in objects] == list(range(1, 1001))
    lost = [o for o in objects if "error" in o]
    assert 1 <= len(lost) <= 64  # one chunk
    assert lost[0]["error"]["message"] == "the worker process running this job ended unexpectedly (signal 9)"


# ------------------------------------------------------------------ output paths and option values

def test_unwritable_outputs_are_usage_errors_before_any_work(cli, tmp_path):
    assert "cannot write 'missing/dir/g.txt': there is no folder 'missing/dir'" in cli.usage_error(
        "graph", "x*2", "x=1", "-o", "missing/dir/g.txt")
    assert "cannot write" in cli.usage_error("eval", "x", "x=1", "-o", str(tmp_path))
    (tmp_path / "test_ok.ad").write_text("assert 1 == 1\n")
    result = cli.fails("test", str(tmp_path), "--junit-xml", "missing/dir/r.xml", code=2)
    assert "passed" not in result.stdout  # refused before the tests ran
    assert "Invalid value for '--junit-xml': cannot write 'missing/dir/r.xml'" in result.stderr


def test_an_output_that_fails_later_is_a_usage_error_naming_its_option(cli):
    proc = cli.console("graph", "x*2", "x=1", "--format", "json", "-o", "/proc/version")
    assert proc.returncode == 2 and "-o/--output" in proc.stderr and "cannot write '/proc/version'" in proc.stderr


@pytest.mark.parametrize("args", [["eval", "x", "x=1", "-o"], ["eval", "x", "x=1", "--order"],
                                  ["eval", "x", "x=1", "--wrt"], ["eval", "x", "x=1", "--weights"],
                                  ["eval", "x", "x=1", "--set"], ["eval", "-", "--max-steps"],
                                  ["minimize", "x**2", "--init", "x=1", "--lr"],
                                  ["graph", "x", "x=1", "-o"], ["run", "-c"]])
def test_an_option_given_last_without_its_value_says_so(cli, args, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = cli.fails(*args, code=2)
    assert result.stdout == ""
    assert result.stderr.rstrip("\n").split("\n")[-1] == f"Error: Option '{args[-1]}' requires an argument."
    assert not os.listdir(tmp_path)  # (no file named '--')


def test_an_option_without_its_value_in_json_mode(cli):
    result = cli.fails("eval", "x", "x=1", "--json", "-o", code=2)
    assert json.loads(result.stdout) == {"error": {"type": "UsageError", "option": "-o",
                                                   "message": "Option '-o' requires an argument."}}
