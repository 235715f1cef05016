"""Fixtures for every test file, and the plugins every test file gets.

`cli`: the helpers for the tests that drive the `autodiff` command line (SPEC §4), as
methods of one object -- a test takes the fixture and calls `cli.invoke(...)`,
`cli.ok(...)`, `cli.job(...)`. (The other support modules, support/ and golden/, are on
sys.path through pyproject.toml's `pythonpath` and are imported by name.)

Every run of the command goes through `cli.invoke` (in process, click's CliRunner,
stdout and stderr kept apart) or `cli.console` (the installed console script in a
subprocess), and each makes the checks that hold for any command line at all:
no exception escapes the command and no Python traceback reaches either stream.
On top of them, helpers for one exit status:

    ok           exit 0
    fails        exit 1 (or the `code` asked for)
    usage_error  exit 2: click's usage block on stderr, nothing on stdout; its message
    error_text   exit 1 with one plain error report on stderr, nothing on stdout

and per command: `job`/`failed_job` (`eval --json`), `run`/`run_ok`/`run_fails`,
`minimize_json` and `repl`.

The object holds no state, so the fixture is one for the whole session (hypothesis's
@given tests may take it).
"""
import json
import os
import pathlib
import subprocess
import sys
import sysconfig
import textwrap
import traceback

import pytest
from click.testing import CliRunner

from autodiff.cli.main import cli as _application

pytest_plugins = ["cuda_fixtures"]  # fake_cuda, cuda, device: for every test file

# what an unexpected Python exception looks like when it does reach a user
PY_LEAKS = ("Traceback", "<locals>", "File \"", "site-packages", "InternalError", "internal error")


def _no_traceback(stdout, stderr):
    for name, stream in (("stdout", stdout), ("stderr", stderr)):
        assert "Traceback" not in stream, f"a Python traceback on {name}:\n{stream}"


class CommandLine:
    """`autodiff` run from a test, with the checks every run must pass (the `cli` fixture)."""

    # -------------------------------------------------------------- any command

    def invoke(self, *args, input=None):
        """`autodiff ARGS` in process (click's CliRunner, stdout and stderr apart); the result.

        Whatever the exit status: never an exception escaping the command, never a
        traceback on any stream.
        """
        result = CliRunner().invoke(_application, list(args), input=input, prog_name="autodiff")
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise AssertionError("an exception escaped the command:\n"
                                 + "".join(traceback.format_exception(*result.exc_info)))
        _no_traceback(result.stdout, result.stderr)
        return result

    def ok(self, *args, input=None):
        """`autodiff ARGS`, which must exit 0; the result."""
        result = self.invoke(*args, input=input)
        assert result.exit_code == 0, (result.stdout, result.stderr)
        return result

    def fails(self, *args, code=1, input=None):
        """`autodiff ARGS`, which must exit with `code` (1: a job failed); the result."""
        result = self.invoke(*args, input=input)
        assert result.exit_code == code, (result.exit_code, result.stdout, result.stderr)
        return result

    def usage_error(self, *args, input=None):
        """`autodiff COMMAND ARGS`, which must be a usage error: exit 2, nothing on stdout,
        click's usage block for COMMAND on stderr; the message of its `Error: ` line."""
        result = self.fails(*args, code=2, input=input)
        assert result.stdout == ""
        lines = result.stderr.rstrip("\n").split("\n")
        assert lines[0].startswith(f"Usage: autodiff {args[0]} "), result.stderr
        assert lines[-1].startswith("Error: "), result.stderr
        return lines[-1][len("Error: "):]

    def error_text(self, *args, input=None):
        """`autodiff ARGS`, which must fail (exit 1) with nothing on stdout and an error
        report on stderr (`error: MESSAGE`, then where, the source line with a caret, a
        hint), free of anything from Python; that report."""
        result = self.fails(*args, input=input)
        assert result.stdout == ""
        assert result.stderr.startswith("error: "), result.stderr
        for leak in PY_LEAKS:
            assert leak not in result.stderr, result.stderr
        return result.stderr

    def console(self, *args, input=None, env=None, timeout=120):
        """`autodiff ARGS` as a shell runs it: the console script installed for this Python
        (else `python -m autodiff.cli.main`) in a subprocess, text in and out, with
        `env` added to the environment; the CompletedProcess.

        Never a traceback on any stream, never the last-resort "internal error" report
        (the console script's form of an exception escaping the command), and it must end
        within `timeout` seconds.
        """
        script = pathlib.Path(sysconfig.get_path("scripts")) / "autodiff"
        cmd = [str(script)] if script.exists() else [sys.executable, "-m", "autodiff.cli.main"]
        try:
            proc = subprocess.run(cmd + list(args), input=input, capture_output=True, text=True, timeout=timeout,
                                  env=dict(os.environ, **(env or {})))
        except subprocess.TimeoutExpired:
            raise AssertionError(f"`autodiff {' '.join(args)}` still running after {timeout} s") from None
        _no_traceback(proc.stdout, proc.stderr)
        assert "internal error" not in proc.stderr, proc.stderr
        return proc

    # -------------------------------------------------------------- eval

    def job(self, *args):
        """`autodiff eval ARGS --json`, one job that must succeed; its JSON object."""
        result = self.ok("eval", *args, "--json")
        lines = result.stdout.splitlines()
        assert len(lines) == 1, result.stdout
        return json.loads(lines[0])

    def failed_job(self, *args):
        """`autodiff eval EXPR ARGS --json`, one job that must fail (exit 1); its error object,
        which has at least a type, a message and a column."""
        result = self.fails("eval", *args, "--json")
        lines = result.stdout.splitlines()
        assert len(lines) == 1, result.stdout
        obj = json.loads(lines[0])
        assert set(obj) == {"line", "expr", "error"}, obj
        assert obj["line"] == 1 and obj["expr"] == args[0], obj
        assert {"type", "message", "column"} <= set(obj["error"]), obj
        return obj["error"]

    # -------------------------------------------------------------- run

    def run(self, code=None, *options, script=None, stdin=None):
        """`autodiff run OPTIONS` on -c CODE (dedented), a SCRIPT path, or '-' with `stdin`; the result."""
        args = ["run", *options]
        if script is not None:
            args.append(str(script))
        elif stdin is not None:
            args.append("-")
        else:
            args += ["-c", textwrap.dedent(code).lstrip("\n")]
        return self.invoke(*args, input=stdin)

    def run_ok(self, code, *options):
        """`autodiff run -c CODE`, which must succeed with nothing on stderr; its stdout."""
        result = self.run(code, *options)
        assert result.exit_code == 0, result.stderr
        assert result.stderr == ""
        return result.stdout

    def run_fails(self, code, *options, script=None):
        """`autodiff run` on CODE or SCRIPT, which must stop with exit 1 and an error report
        on stderr (`error: MESSAGE`, then where), nothing of it on stdout; that report."""
        result = self.run(code, *options, script=script)
        assert result.exit_code == 1, (result.stdout, result.stderr)
        assert result.stderr.startswith("error: "), result.stderr
        assert "error: " not in result.stdout, result.stdout
        return result.stderr

    # -------------------------------------------------------------- minimize and repl

    def minimize_json(self, *args):
        """`autodiff minimize ARGS --json`, which must succeed; its JSON object."""
        result = self.ok("minimize", *args, "--json")
        lines = result.stdout.strip().splitlines()
        assert len(lines) == 1, result.stdout
        return json.loads(lines[0])

    def repl(self, text, *options):
        """`autodiff repl OPTIONS` with TEXT (dedented) piped to it; the result."""
        return self.invoke("repl", *options, input=textwrap.dedent(text).lstrip("\n"))


@pytest.fixture(scope="session")
def cli():
    """The `autodiff` command line for a test: `cli.invoke`, `cli.ok`, `cli.job`, ... (CommandLine)."""
    return CommandLine()
