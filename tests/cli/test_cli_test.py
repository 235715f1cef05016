"""`autodiff test` and the pytest plugin: scripts as regression tests.

Each test writes its own scripts into a temporary folder; the expected values
in the scripts are hand derivations (d/dx x**3 = 3x**2 = 12 at 2, ...)."""
import os
import re
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET

import pytest

from autodiff.grammar.testrun import collect, outputs_match

PASSING = """\
x = torch.tensor(2.0, requires_grad=True)
y = x**3
(g,) = torch.autograd.grad(y, x, create_graph=True)
(h,) = torch.autograd.grad(g, x)
assert_close(g, torch.tensor(12.0))
torch.testing.assert_close(h, torch.tensor(12.0))
print(g.item(), h.item())
"""
FAILING = """\
x = torch.tensor(2.0, requires_grad=True)
(g,) = torch.autograd.grad(x**2, x)
assert_close(g, torch.tensor(5.0))
"""
BROKEN = "x = torch.tensor(1.0\n"


def write(folder, name, text):
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))
    return path


@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def autodiff_test(cli, *args):
    return cli.invoke("test", *args)


def test_collection_finds_test_files_in_a_stable_order(here):
    for name in ["b/test_two.ad", "a/test_one.ad", "a/three_test.ad", "a/helper.ad", "test_top.ad",
                 ".hidden/test_no.ad", "a/test_x.txt"]:
        write(here, name, "1\n")
    assert collect(["."]) == [os.path.join("a", "test_one.ad"), os.path.join("a", "three_test.ad"),
                              os.path.join("b", "test_two.ad"), "test_top.ad"]
    assert collect(["a/helper.ad", "."])[0] == os.path.join("a", "helper.ad")  # named directly: counts


def test_all_passing_exits_0_with_a_dot_per_file(cli, here):
    write(here, "test_a.ad", PASSING)
    write(here, "test_b.ad", "assert 1 + 1 == 2\n")
    result = autodiff_test(cli)
    assert result.exit_code == 0, result.stdout
    lines = result.stdout.splitlines()
    assert lines[0] == ".."
    assert lines[-1].startswith("2 passed, 0 failed in ")


def test_failures_and_errors_are_reported_with_place_and_caret(cli, here):
    write(here, "test_a.ad", PASSING)
    write(here, "test_b.ad", FAILING)
    write(here, "test_c.ad", BROKEN)
    result = autodiff_test(cli)
    assert result.exit_code == 1
    out = result.stdout
    assert out.splitlines()[0] == ".FE"
    # the assert_close message is PyTorch's, the place is the script's
    assert "error: Scalars are not close!\n\nExpected 5.0 but got 4.0." in out
    assert "at test_b.ad, line 3, column 1:\n    assert_close(g, torch.tensor(5.0))\n    ^^^^" in out
    assert "FAILED test_b.ad:3:1 - AssertionError: Scalars are not close!" in out
    assert "ERROR test_c.ad:1:17 - SyntaxError: '(' was never closed" in out
    assert out.splitlines()[-1].startswith("1 passed, 1 failed, 1 error in ")


def test_verbose_names_each_file(cli, here):
    write(here, "test_a.ad", PASSING)
    write(here, "test_b.ad", FAILING)
    lines = autodiff_test(cli, "-v").stdout.splitlines()
    assert lines[:2] == ["test_a.ad PASSED", "test_b.ad FAILED"]


def test_nothing_collected_exits_5_and_a_missing_path_is_a_usage_error(cli, here):
    assert autodiff_test(cli).exit_code == 5
    write(here, "test_a.ad", PASSING)
    assert autodiff_test(cli, "-k", "nothing-matches").exit_code == 5
    result = autodiff_test(cli, "no/such/folder")
    assert result.exit_code == 2 and "does not exist" in result.stderr


def test_k_selects_and_x_stops_at_the_first_failure(cli, here):
    write(here, "test_1.ad", FAILING)
    write(here, "test_2.ad", PASSING)
    write(here, "test_3.ad", PASSING)
    assert autodiff_test(cli, "-k", "test_2").stdout.splitlines()[0] == "."
    result = autodiff_test(cli, "-x")
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0] == "F"
    assert "stopping after the first failure" in result.stdout
    assert result.stdout.splitlines()[-1].startswith("0 passed, 1 failed in ")


def test_golden_output_compares_numbers_with_a_tolerance(cli, here):
    write(here, "test_g.ad", "print(torch.tensor([1.0, 2.0], dtype=torch.float64) / 3)\n")
    # the script prints tensor([0.3333, 0.6667], dtype=torch.float64)
    write(here, "test_g.expected", "tensor([0.33330000001, 0.6667], dtype=torch.float64)\n")
    assert autodiff_test(cli).exit_code == 0
    result = autodiff_test(cli, "--exact")
    assert result.exit_code == 1
    assert "the output differs from test_g.expected" in result.stdout
    assert "-tensor([0.33330000001, 0.6667], dtype=torch.float64)\n+tensor([0.3333, 0.6667], dtype=torch.float64)" \
        in result.stdout
    write(here, "test_g.expected", "tensor([0.3334, 0.6667], dtype=torch.float64)\n")
    assert autodiff_test(cli).exit_code == 1  # 1e-4 is past rtol 1e-7
    assert autodiff_test(cli, "--rtol", "1e-3").exit_code == 0


def test_update_writes_the_golden_files_and_says_which(cli, here):
    write(here, "test_a.ad", PASSING)
    write(here, "test_b.ad", "print('hello')\n")
    write(here, "test_b.expected", "hello\n")
    result = autodiff_test(cli, "--update")
    assert result.exit_code == 0
    assert "wrote a new golden file test_a.expected" in result.stdout
    assert "test_b.expected" not in result.stdout  # unchanged
    assert (here / "test_a.expected").read_text() == "12.0 12.0\n"
    write(here, "test_b.ad", "print('hello again')\n")
    assert "updated the golden file test_b.expected" in autodiff_test(cli, "--update").stdout
    assert autodiff_test(cli).exit_code == 0


def test_junit_xml_has_a_testcase_per_file(cli, here):
    write(here, "test_a.ad", PASSING)
    write(here, "sub/test_b.ad", FAILING)
    write(here, "test_c.ad", BROKEN)
    autodiff_test(cli, "--junit-xml", "report.xml")
    suite = ET.parse(here / "report.xml").getroot().find("testsuite")
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("3", "1", "1")
    cases = {c.get("name"): c for c in suite.findall("testcase")}
    assert set(cases) == {"test_a.ad", "test_b.ad", "test_c.ad"}
    failure = cases["test_b.ad"].find("failure")
    assert failure.get("message").startswith("AssertionError: Scalars are not close!")
    assert "line 3, column 1" in failure.text
    assert cases["test_c.ad"].find("error") is not None
    assert cases["test_b.ad"].get("classname") == "sub"


def test_jobs_keep_the_report_in_collection_order(cli, here):
    write(here, "test_1.ad", "s = 0\nfor i in range(20000):\n    s += i\nassert s == 199990000\n")
    write(here, "test_2.ad", FAILING)
    write(here, "test_3.ad", PASSING)
    result = autodiff_test(cli, "--jobs", "2", "-v")
    assert result.stdout.splitlines()[:3] == ["test_1.ad PASSED", "test_2.ad FAILED", "test_3.ad PASSED"]
    assert autodiff_test(cli, "--jobs", "0").exit_code == 2


def test_a_file_past_its_timeout_errs_and_the_others_run(cli, here):
    write(here, "test_1.ad", "while True:\n    pass\n")
    write(here, "test_2.ad", PASSING)
    result = autodiff_test(cli, "--timeout", "1", "--max-steps", "10000000000")
    assert result.stdout.splitlines()[0] == "E."
    assert "timed out after 1 s" in result.stdout


def test_each_file_starts_from_the_same_engine_state(cli, here):
    write(here, "test_1.ad", "torch.set_default_dtype(torch.float64)\ntorch.set_grad_enabled(False)\n")
    write(here, "test_2.ad", "assert torch.get_default_dtype() == torch.float32\nassert torch.is_grad_enabled()\n")
    assert autodiff_test(cli).exit_code == 0


@pytest.mark.parametrize("actual, expected, same", [
    ("tensor([1.0000, 2.0000])\n", "tensor([1.0000, 2.0000])\n", True),
    ("x = 0.30000000000000004\n", "x = 0.3\n", True),
    ("x = 0.3001\n", "x = 0.3\n", False),
    ("tensor([1.,  2.])\n", "tensor([1., 2.])\n", True),   # padding differs, numbers equal
    ("float32 nan\n", "float32 nan\n", True),
    ("a 1\n", "b 1\n", False),
    ("1 2\n", "1 2 3\n", False),
    ("inf\n", "-inf\n", False),
])
def test_outputs_match(actual, expected, same):
    assert outputs_match(actual, expected) is same


# ---------------------------------------------------------------- the pytest plugin

def _pytest(folder, *args):
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
                          cwd=folder, capture_output=True, text=True, timeout=300)


def test_pytest_collects_scripts_and_reports_their_own_lines(tmp_path):
    write(tmp_path, "test_ok.ad", PASSING)
    write(tmp_path, "test_bad.ad", FAILING)
    proc = _pytest(tmp_path)
    assert proc.returncode == 1, proc.stdout
    assert "1 failed, 1 passed" in proc.stdout
    assert "at " in proc.stdout and "test_bad.ad, line 3, column 1:" in proc.stdout
    assert "Expected 5.0 but got 4.0." in proc.stdout
    assert "Traceback" not in proc.stdout


def test_pytest_plugin_can_be_turned_off(tmp_path):
    write(tmp_path, "test_ok.ad", PASSING)
    proc = _pytest(tmp_path, "-p", "no:autodiff")
    assert proc.returncode == 5, proc.stdout  # nothing collected


SCRIPTS_AND_OUTCOMES = {
    "test_syntax.ad": ("x = (\n", "error"),                   # a syntax error
    "test_runtime.ad": ("x = undefined_name + 1\n", "error"),  # an error at run time
    "test_assert.ad": ("assert 1 == 2\n", "failed"),           # a failed check
    "test_fine.ad": ("print(1)\n", "passed"),
}


def test_pytest_and_autodiff_test_give_each_script_the_same_outcome(cli, tmp_path):
    for name, (script, _) in SCRIPTS_AND_OUTCOMES.items():
        write(tmp_path, name, script)
    proc = _pytest(tmp_path, "-rA")
    assert proc.stdout.strip().splitlines()[-1].startswith("1 failed, 1 passed, 2 errors"), proc.stdout
    assert "Traceback" not in proc.stdout and "autodiff/cli" not in proc.stdout, proc.stdout
    assert "'(' was never closed" in proc.stdout  # the script's own message, not the plugin's code
    words = {"error": "ERROR", "failed": "FAILED", "passed": "PASSED"}
    result = cli.invoke("test", str(tmp_path), "-v")
    assert result.stdout.strip().splitlines()[-1].startswith("1 passed, 1 failed, 2 errors"), result.stdout
    for name, (_, outcome) in SCRIPTS_AND_OUTCOMES.items():
        assert f"{words[outcome]} {name}::{name}" in proc.stdout, (name, proc.stdout)  # pytest's summary
        assert re.search(rf"{re.escape(name)} {words[outcome]}\b", result.stdout), (name, result.stdout)
