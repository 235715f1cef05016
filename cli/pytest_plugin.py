"""autodiff's pytest plugin: with autodiff installed, `pytest` also collects
the test_*.ad and *_test.ad scripts as test items, each run as `autodiff test`
runs it (its own process, budgets and timeout, its golden NAME.expected), and
reports a failure with the script's own line, caret and message. Registered
under the `pytest11` entry point as `autodiff`; `-p no:autodiff` turns it off."""
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
    """A script that did not pass; carries its result for the report."""

    def __init__(self, result):
        super().__init__(result.message)
        self.result = result


class ScriptItem(pytest.Item):
    def runtest(self):
        from ..grammar.testrun import TestOptions, run_files, PASSED
        (result,) = run_files([str(self.path)], TestOptions())
        self.add_report_section("call", "stdout", result.output)
        if result.outcome != PASSED:
            raise ScriptFailed(result)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, ScriptFailed):
            return excinfo.value.result.report
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, None, f"autodiff script {self.name}"
