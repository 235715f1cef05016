"""`autodiff test`: run test_*.ad scripts as regression tests and report as
pytest does (a character per file, failures with place and caret or a diff,
a closing count), with JUnit XML for CI. The running and judging live in
autodiff.grammar.testrun; this module parses options and formats."""
import os
import sys
import time

import click

from .options import Jobs, JOBS_HELP, OutputPath, budget_options, write_failed

__all__ = ["test_command"]

EXIT_NO_TESTS = 5  # pytest's status when nothing was collected

_CHAR = {"passed": ".", "failed": "F", "error": "E"}
_WORD = {"passed": "PASSED", "failed": "FAILED", "error": "ERROR"}


@click.command("test")
@click.version_option(package_name="autodiff-cli", prog_name="autodiff")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("-k", "keyword", metavar="SUBSTRING", help="Only the files whose path contains SUBSTRING.")
@click.option("-x", "--exitfirst", is_flag=True, help="Stop at the first file that fails.")
@click.option("-v", "--verbose", is_flag=True, help="One line per file, with its name.")
@click.option("--update", is_flag=True, help="(Re)write each passing file's golden NAME.expected from its output.")
@click.option("--junit-xml", "junit_xml", type=OutputPath(), metavar="FILE",
              help="Also write a JUnit XML report to FILE.")
@click.option("--jobs", "-j", type=Jobs(), default="1", show_default=True,
              help=f"Run files in N worker processes ('auto': one per core; {JOBS_HELP}).")
@click.option("--rtol", type=click.FloatRange(0), default=1e-7, show_default=True,
              help="Relative tolerance for numbers compared with a golden file.")
@click.option("--atol", type=click.FloatRange(0), default=1e-9, show_default=True,
              help="Absolute tolerance for numbers compared with a golden file.")
@click.option("--exact", is_flag=True, help="Compare with golden files byte for byte.")
@click.option("--dtype", type=click.Choice(["float32", "float64"]), default="float32", show_default=True,
              help="The default floating dtype, as in `autodiff run`.")
@budget_options("test")
def test_command(paths, keyword, exitfirst, verbose, update, junit_xml, jobs, rtol, atol, exact, dtype, **budgets):
    """Run the test_*.ad and *_test.ad scripts under PATHS (default: the current folder).

    A file passes when it runs to the end (no error, no failed assert) and its
    stdout matches NAME.expected beside it, when there is one: numbers within
    --rtol/--atol. Exit 0 all passed, 1 some failed, 2 usage error, 5 none found.

    \b
    autodiff test
    autodiff test tests/ -k quadratic -v
    autodiff test --jobs auto --junit-xml report.xml
    """
    from ..grammar.testrun import TestOptions, collect, run_files
    for p in paths:
        if not os.path.exists(p):
            raise click.BadParameter(f"{p!r} does not exist", param_hint="PATHS")
    start = time.perf_counter()
    files = collect(list(paths) or ["."])
    if keyword:
        files = [f for f in files if keyword in f]
    if not files:
        click.echo(f"no tests collected in {time.perf_counter() - start:.2f}s")
        sys.exit(EXIT_NO_TESTS)
    options = TestOptions(dtype=dtype, rtol=rtol, atol=atol, exact=exact, update=update, **budgets)
    progress = _Progress(len(files), verbose, sys.stdout.isatty())
    try:
        results = run_files(files, options, jobs=jobs, stop_early=exitfirst, on_result=progress.show)
    except KeyboardInterrupt:  # the running files are stopped (run_files kills them): what ran, then 130
        progress.close()
        _report(progress.results, time.perf_counter() - start, False)
        click.echo(f"interrupted: {len(progress.results)} of {len(files)} files ran", err=True)
        sys.exit(130)
    progress.close()
    elapsed = time.perf_counter() - start
    _report(results, elapsed, exitfirst and len(results) < len(files))
    if junit_xml:
        from .junit import write_junit
        try:
            write_junit(junit_xml, results, elapsed)
        except OSError as e:
            raise write_failed(e, junit_xml, "--junit-xml") from None
    sys.exit(0 if all(r.outcome == "passed" for r in results) else 1)


class _Progress:
    """The character per file (or a line per file with -v); on a terminal, how far along."""

    def __init__(self, total, verbose, tty):
        self.total, self.verbose, self.tty = total, verbose, tty
        self.done = 0
        self.line = ""
        self.notes = []
        self.results = []

    def show(self, result):
        self.done += 1
        self.results.append(result)
        if self.verbose:
            percent = f" [{100 * self.done // self.total:3d}%]" if self.tty else ""
            click.echo(f"{result.path} {_WORD[result.outcome]}{percent}")
        else:
            self.line += _CHAR[result.outcome]
            if self.tty:
                click.echo(f"\r{self.line} [{100 * self.done // self.total:3d}%]", nl=False)
            else:
                click.echo(_CHAR[result.outcome], nl=False)
        if result.golden is not None:
            what = "wrote a new golden file" if result.golden == "new" else "updated the golden file"
            self.notes.append(f"{what} {_golden(result.path)}")
            if self.verbose:
                click.echo(self.notes.pop())
        sys.stdout.flush()

    def close(self):
        if not self.verbose and self.done:
            click.echo()
        for note in self.notes:
            click.echo(note)


def _golden(path):
    from ..grammar.testrun import golden_path
    return golden_path(path)


def _report(results, elapsed, stopped):
    failures = [r for r in results if r.outcome != "passed"]
    if failures:
        click.echo("=" * 30 + " FAILURES " + "=" * 30)
        for r in failures:
            click.echo(f"____ {r.path} ____")
            # what it printed, unless the failure is a diff of that very output
            if r.output and r.line is not None or r.outcome == "error" and r.output:
                click.echo("--- output ---")
                click.echo(r.output, nl=not r.output.endswith("\n"))
                click.echo("---")
            click.echo(r.report.rstrip("\n"))
        click.echo("=" * 24 + " short test summary info " + "=" * 24)
        for r in failures:
            place = f":{r.line}:{r.column}" if r.line is not None else ""
            first = r.message.splitlines()[0] if r.message else ""
            click.echo(f"{_WORD[r.outcome]} {r.path}{place} - {first}")
    if stopped:
        click.echo("stopping after the first failure (-x)")
    passed = sum(r.outcome == "passed" for r in results)
    failed = sum(r.outcome == "failed" for r in results)
    errors = sum(r.outcome == "error" for r in results)
    summary = f"{passed} passed, {failed} failed"
    if errors:
        summary += f", {errors} error" + ("s" if errors != 1 else "")
    click.echo(f"{summary} in {elapsed:.2f}s")
