"""autodiff's pytest plugin: with autodiff installed, `pytest` also collects
the test_*.ad and *_test.ad scripts as test items, each run as `autodiff test`
runs it (its own process, budgets and timeout, its golden NAME.expected), and
reports a failure with the script's own line, caret and message. Registered
under the `pytest11` entry point as `autodiff`; `-p no:autodiff` turns it off.

Outcomes are `autodiff test`'s: a failed assert or a golden mismatch is a
failure (F); anything else that stopped the script -- a syntax error, an
error at run time, a budget or the timeout -- is an error (E), as pytest
reports an error in a test's setup. So the script runs in `setup`, and its
verdict is given there (error) or in the call (failure)."""
import pytest

from ..grammar.testrun import is_test_file


def pytest_collect_file(file_path, parent):
    if is_test_file(file_path.name):
        return ScriptFile.from_parent(parent, path=file_path)
    return None


class ScriptFile(pytest.File):
    def collect(self):
        yield ScriptItem.from_parent(self, name=self.path.name)


class ScriptFailed(Exception):
    """A script that failed (an assert, a golden mismatch); carries its result for the report."""

    def __init__(self, result):
        super().__init__(result.message)
        self.result = result


class ScriptItem(pytest.Item):
    result = None

    def setup(self):
        from ..grammar.testrun import TestOptions, run_files, ERROR
        (self.result,) = run_files([str(self.path)], TestOptions())
        self.add_report_section("setup", "stdout", self.result.output)
        if self.result.outcome == ERROR:
            pytest.fail(self.result.report, pytrace=False)  # reported as an error, its text alone

    def runtest(self):
        from ..grammar.testrun import PASSED
        if self.result.outcome != PASSED:
            raise ScriptFailed(self.result)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, ScriptFailed):
            return excinfo.value.result.report
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, None, f"autodiff script {self.name}"
