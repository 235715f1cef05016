"""Scripts as regression tests: collect `test_*.ad` files, run each on its own,
compare its output with a golden file, and say what passed.

A file passes when it runs to the end without an error or a failed assert
and, where `NAME.expected` sits beside it, its stdout matches that file --
numbers within a tolerance (`outputs_match`), so a float that differs in its
last digit is not a failure. Each file runs in a worker process of its own
(a fresh engine, its own step and memory budgets, and a wall-clock timeout
that ends the process), at most `jobs` at a time; results come back in
collection order. The command line (cli/test_cmd.py) and the pytest plugin
(cli/pytest_plugin.py) both drive this module.
"""
import difflib
import io
import math
import multiprocessing
import os
import re
import time
import traceback
from dataclasses import dataclass, field

from .budget import defaults

__all__ = ["collect", "is_test_file", "golden_path", "outputs_match", "TestOptions", "FileResult",
           "run_file", "run_files", "PASSED", "FAILED", "ERROR"]

PASSED, FAILED, ERROR = "passed", "failed", "error"


# ---------------------------------------------------------------- collection

def is_test_file(name):
    return name.endswith(".ad") and (name.startswith("test_") or name.endswith("_test.ad"))


def collect(paths):
    """The test files under `paths` (files named directly always count), each once,
    in a stable order: the paths' order, and sorted names within a folder."""
    found, seen = [], set()
    for path in paths:
        if os.path.isdir(path):
            batch = []
            for folder, dirs, files in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
                batch.extend(os.path.join(folder, f) for f in files if is_test_file(f))
            batch.sort()
        else:
            batch = [path]
        for p in batch:
            key = os.path.normpath(os.path.abspath(p))
            if key not in seen:
                seen.add(key)
                found.append(os.path.normpath(p))
    return found


def golden_path(path):
    """Where a test file's golden output lives: NAME.expected beside NAME.ad."""
    root, _ = os.path.splitext(path)
    return root + ".expected"


# ---------------------------------------------------------------- comparing outputs

_NUMBER = re.compile(r"[-+]?(?:(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|inf|nan)(?![\w.])")
_SPACES = re.compile(r"[ \t]+")


def _pieces(text):
    """The text as (words, numbers): runs of spaces count as one, numbers apart."""
    words, numbers = [], []
    last = 0
    for m in _NUMBER.finditer(text):
        if m.start() > 0 and (text[m.start() - 1].isalnum() or text[m.start() - 1] == "_"):
            continue  # part of a name (x2, float32): words, not a number
        words.append(_SPACES.sub(" ", text[last:m.start()]))
        numbers.append(float(m.group()))
        last = m.end()
    words.append(_SPACES.sub(" ", text[last:]))
    return words, numbers


def outputs_match(actual, expected, rtol=1e-7, atol=1e-9, exact=False):
    """Whether `actual` output matches the golden `expected`: the same words, and
    each number within atol + rtol*|expected| of its own (nan matches nan).
    `exact`: byte for byte."""
    if exact or actual == expected:
        return actual == expected
    words_a, nums_a = _pieces(actual)
    words_e, nums_e = _pieces(expected)
    if words_a != words_e or len(nums_a) != len(nums_e):
        return False
    for a, e in zip(nums_a, nums_e):
        if math.isnan(e) or math.isnan(a):
            if not (math.isnan(e) and math.isnan(a)):
                return False
        elif math.isinf(e) or math.isinf(a):
            if a != e:
                return False
        elif abs(a - e) > atol + rtol * abs(e):
            return False
    return True


def output_diff(actual, expected, path):
    """A unified diff from the golden file to the output."""
    lines = difflib.unified_diff(expected.splitlines(keepends=True), actual.splitlines(keepends=True),
                                 fromfile=golden_path(path), tofile="output")
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


# ---------------------------------------------------------------- running one file

_BUDGETS = defaults("test")


@dataclass
class TestOptions:
    # the budgets (grammar/budget.py's table)
    timeout: float = _BUDGETS["timeout"]
    max_steps: int = _BUDGETS["max_steps"]
    max_memory: int = _BUDGETS["max_memory"]
    max_depth: int = _BUDGETS["max_depth"]
    max_items: int = _BUDGETS["max_items"]
    max_digits: int = _BUDGETS["max_digits"]
    max_line_length: int = _BUDGETS["max_line_length"]
    max_program_length: int = _BUDGETS["max_program_length"]
    dtype: str = "float32"
    rtol: float = 1e-7
    atol: float = 1e-9
    exact: bool = False
    update: bool = False


@dataclass
class FileResult:
    path: str
    outcome: str = PASSED          # passed, failed (assert or golden mismatch) or error
    output: str = ""               # what the script printed
    message: str = ""              # one line: why it did not pass
    report: str = ""               # the full text: error with place and caret, or the diff
    line: int = None               # where it failed, when that is a place in the script
    column: int = None
    duration: float = 0.0
    golden: str = None             # "new" or "changed" when --update wrote the golden file
    warnings: list = field(default_factory=list)


def _execute(path, options):
    """Run the script at `path` here; (outcome, output, message, report, line, column)."""
    from .budget import in_force
    from .errors import LanguageError, format_error
    from .limits import read_source
    from .program import Session
    from ..engine.state import isolated
    out = io.StringIO()
    budgets = {key: getattr(options, key) for key in _BUDGETS if key != "timeout"}
    try:
        with open(path, "rb") as f, in_force(max_program_length=options.max_program_length):
            source, bad_bytes = read_source(f)
    except OSError as e:
        return ERROR, "", f"cannot read {path}: {e.strerror}", f"error: cannot read {path}: {e.strerror}", None, None
    if bad_bytes is not None:
        loc = bad_bytes.location(source)
        return (ERROR, "", f"SyntaxError: {bad_bytes.message}", format_error(bad_bytes, source, path),
                loc.line if loc else None, loc.column if loc else None)

    def run():
        session = Session(out=out, dtype=options.dtype, **budgets)
        try:
            session.run(source)
        finally:
            session.close()

    try:
        isolated(run)
    except LanguageError as e:
        # a failed check (assert, assert_close, gradcheck) fails the file; anything else errs
        outcome = FAILED if getattr(e, "kind", "") in ("AssertionError", "GradcheckError") else ERROR
        loc = e.location(source)
        return (outcome, out.getvalue(), f"{getattr(e, 'kind', 'Error')}: {e.message}",
                format_error(e, source, path), loc.line if loc else None, loc.column if loc else None)
    except MemoryError as e:
        from .budget import memory_error_message
        message, _ = memory_error_message(e, options.max_memory)
        return ERROR, out.getvalue(), message, f"error: {message}\n  at {path}", None, None
    return PASSED, out.getvalue(), "", "", None, None


def run_file(path, options):
    """Run one test file here (in this process) and judge it against its golden file."""
    start = time.perf_counter()
    try:
        outcome, output, message, report, line, column = _execute(path, options)
    except Exception as e:  # never a traceback: the file errs, the run goes on
        outcome, output, line, column = ERROR, "", None, None
        message = f"internal error ({type(e).__name__}: {e}); please report this"
        report = "error: " + message + "\n" + "".join(traceback.format_exception_only(type(e), e)).rstrip()
    result = FileResult(path, outcome, output, message, report, line, column)
    if outcome == PASSED:
        _judge_golden(result, options)
    result.duration = time.perf_counter() - start
    return result


def _judge_golden(result, options):
    golden = golden_path(result.path)
    if options.update:
        previous = None
        if os.path.exists(golden):
            with open(golden, encoding="utf-8", newline="") as f:
                previous = f.read()
        if previous != result.output:
            with open(golden, "w", encoding="utf-8", newline="") as f:
                f.write(result.output)
            result.golden = "new" if previous is None else "changed"
        return
    if not os.path.exists(golden):
        return
    with open(golden, encoding="utf-8", newline="") as f:
        expected = f.read()
    if not outputs_match(result.output, expected, options.rtol, options.atol, options.exact):
        result.outcome = FAILED
        result.message = f"the output differs from {golden}"
        result.report = result.message + "\n" + output_diff(result.output, expected, result.path)


# ---------------------------------------------------------------- running many, in workers

def _worker(path, options, conn, parent):
    from .workers import die_with_parent
    die_with_parent(parent)  # killed with the run, and Ctrl-C is the run's to handle
    try:
        conn.send(run_file(path, options))
    except BaseException as e:  # Ctrl-C or a pipe gone: nothing more to say
        try:
            conn.send(FileResult(path, ERROR, message=f"stopped ({type(e).__name__})",
                                 report=f"error: stopped ({type(e).__name__})"))
        except Exception:
            pass
    finally:
        conn.close()


def _context():
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def run_files(paths, options, jobs=1, stop_early=False, on_result=None):
    """Run every file in a worker process of its own, at most `jobs` at a time; the
    results in the order of `paths` (`on_result(result)` is called in that order
    as soon as each can be). A file still running after `options.timeout` seconds
    is stopped and errs. `stop_early`: start no more files after a failure."""
    ctx = _context()
    if ctx.get_start_method() == "fork":  # build the parser once, here: every worker inherits it
        from . import program  # noqa: F401  (the engine and the language, imported once)
        from .parser import tables
        tables()
    results = [None] * len(paths)
    running = {}  # index -> (process, connection, deadline)
    next_to_start = next_to_report = 0
    stopping = False
    try:
        while next_to_report < len(paths):
            while not stopping and next_to_start < len(paths) and len(running) < max(1, jobs):
                receive, send = ctx.Pipe(duplex=False)
                proc = ctx.Process(target=_worker, args=(paths[next_to_start], options, send, os.getpid()),
                                   daemon=True)
                proc.start()
                send.close()
                running[next_to_start] = (proc, receive, time.monotonic() + options.timeout)
                next_to_start += 1
            if not running and (stopping or next_to_start >= len(paths)):
                break
            _wait_any(running, results, paths, options)
            while next_to_report < len(paths) and results[next_to_report] is not None:
                r = results[next_to_report]
                if on_result is not None:
                    on_result(r)
                if stop_early and r.outcome != PASSED:
                    stopping = True
                next_to_report += 1
            if stopping and not any(i < next_to_report for i in running):
                for i, (proc, conn, _) in list(running.items()):
                    proc.kill()
                    proc.join()
                    conn.close()
                running.clear()
    finally:
        for proc, conn, _ in running.values():
            proc.kill()
            proc.join()
            conn.close()
    return [r for r in results[:next_to_report]]


def _wait_any(running, results, paths, options):
    """Wait until at least one running file is done (or past its deadline)."""
    from multiprocessing.connection import wait
    now = time.monotonic()
    soonest = min(deadline for _, _, deadline in running.values())
    ready = wait([conn for _, conn, _ in running.values()], timeout=max(0.0, soonest - now))
    now = time.monotonic()
    for i, (proc, conn, deadline) in list(running.items()):
        if conn in ready:
            try:
                results[i] = conn.recv()
            except (EOFError, OSError):  # the worker died without a word (killed, out of memory)
                proc.join()
                message = f"the script's process ended unexpectedly (exit status {proc.exitcode})"
                results[i] = FileResult(paths[i], ERROR, message=message, report="error: " + message)
        elif now >= deadline:
            proc.kill()
            message = f"timed out after {options.timeout:g} s"
            results[i] = FileResult(paths[i], ERROR, message=message,
                                    report=f"error: {message} (raise it with --timeout)",
                                    duration=options.timeout)
        else:
            continue
        proc.join()
        conn.close()
        del running[i]
