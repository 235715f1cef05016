"""Smoke tests of benchmarks/bench_workloads.py: every workload runs at --quick sizes with ours (and numpy by
hand for the polynomial step) and no PyTorch, our answers agree with numpy's by hand, and the PyTorch columns
are left blank rather than failing. Nothing here looks at a time."""
import importlib.util
import math
import pathlib

import pytest

SCRIPT = pathlib.Path(__file__).resolve().parent.parent / "benchmarks" / "bench_workloads.py"


@pytest.fixture
def bench(monkeypatch):
    spec = importlib.util.spec_from_file_location("bench_workloads_smoke", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    monkeypatch.setattr(mod, "DEFAULT_TORCH_PYTHON", str(SCRIPT.parent / "no-such-python"))
    monkeypatch.setattr(mod.bench_cli, "have", lambda name: False)       # torch or not, leave it out
    monkeypatch.setattr(mod, "POLY_SIZES", {"quick": (100, 2_000)})
    monkeypatch.setattr(mod, "CE_SHAPE", {"quick": (20, 30)})
    monkeypatch.setattr(mod, "REPEATS", {"quick": 1})
    monkeypatch.setattr(mod, "SAMPLE_S", {"quick": 0.001})
    monkeypatch.setattr(mod, "BATCH_JOBS", {"quick": 30})
    monkeypatch.setattr(mod, "BATCH_REPEATS", {"quick": 1})
    return mod


def test_step_workloads_run_and_ours_matches_numpy_by_hand(bench):
    lines = []
    rows, machine = bench.run(bench.STEP_CASES, quick=True, echo=lines.append)
    assert [r["case"] for r in rows] == ["poly", "poly", "mlp", "softmax_ce", "cnn"]
    for row in rows:
        assert row["problems"] == [], row
        assert set(row["times"]) == ({"ours", "numpy"} if row["case"] == "poly" else {"ours"})
        best, median = row["times"]["ours"]
        assert 0 < best <= median
    for row in rows[:2]:
        assert row["checks"]["numpy"] <= bench.CHECK_RTOL
    assert any("PyTorch: not importable" in line for line in lines)
    assert "PyTorch: none (columns blank)" in machine
    table = bench.format_table(rows)
    assert table[0].split()[:6] == ["workload", "size", "unit", "ours", "PyTorch", "numpy"]
    assert "NO" in table[2] and "yes" not in table[2]         # no PyTorch: the poly goal is not met


def test_the_batches_run_our_cli_with_each_option(bench):
    rows, _ = bench.run(tuple(bench.BATCH_OPTIONS), quick=True, echo=lambda s: None)
    assert [r["case"] for r in rows] == list(bench.BATCH_OPTIONS)
    for row in rows:
        assert row["problems"] == [], row
        assert set(row["times"]) == {"ours"}
        assert row["label"].startswith("30 jobs")


def test_a_wrong_answer_is_caught():
    spec = importlib.util.spec_from_file_location("bench_workloads_compare", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert mod.compare_states({"w": [1.0, 2.0]}, {"w": [1.0, 2.0]}) == (0.0, None)
    worst, where = mod.compare_states({"loss": 1.0, "w": [1.0, 2.2]}, {"loss": 1.0, "w": [1.0, 2.0]})
    assert where == "w" and math.isclose(worst, 0.1) and worst > mod.CHECK_RTOL
    worst, _ = mod.compare_states({"g": [1e-8, 0.0]}, {"g": [-5e-8, 1e-8]})       # 0 up to rounding
    assert worst <= mod.CHECK_RTOL
    worst, _ = mod.compare_states({"g": [2e-5]}, {"g": [1e-5]})
    assert worst > mod.CHECK_RTOL
    worst, where = mod.compare_states({"w": [math.nan]}, {"w": [1.0]})
    assert where == "w" and not worst <= mod.CHECK_RTOL


def test_the_layers_are_float32_and_the_default_dtype_is_left_as_it_was(bench):
    import autodiff.engine as E
    before = E.get_default_dtype()
    for make, size in ((bench.cnn_lib, 4), (bench.mlp_lib, 8), (bench.poly_lib, 10), (bench.softmax_ce_lib, (3, 4))):
        step, state = make(E, size, 0)
        step()
        assert E.get_default_dtype() == before
        assert {str(v.dtype) for v in state().values()} == {"float32"}, make


def test_a_row_whose_check_failed_does_not_meet_its_goal(bench):
    row = {"case": "mlp", "times": {"ours": (1.0, 1.0), "torch": (2.0, 2.0)}, "problems": []}
    assert bench.goal_met(row, bench.ratios(row)) is True
    row["problems"].append("ours vs torch: loss differs")
    assert bench.goal_met(row, bench.ratios(row)) is False
    row = {"case": "batch_wrt", "times": {"ours": (900.0, 800.0), "torch": (300.0, 300.0)}, "problems": []}
    assert bench.ratios(row) == {"torch": (3.0, 800 / 300)} and bench.goal_met(row, bench.ratios(row)) is True


@pytest.fixture
def fresh(bench, monkeypatch):
    """bench, with the fresh-process workloads at their smallest: one timed sample, no warm-up round."""
    monkeypatch.setattr(bench, "ALONE_SIZES", {"quick": (2_000,)})
    monkeypatch.setattr(bench, "SCRIPT_SIZES", {"quick": ((100, 2, 12),)})
    monkeypatch.setattr(bench, "SCRIPT_REPEATS", {"quick": 1})
    monkeypatch.setattr(bench, "SCRIPT_WARMUP", 0)
    return bench


def test_the_fresh_process_workloads_run_and_agree(fresh):
    lines = []
    rows, _ = fresh.run(fresh.FRESH_CASES, quick=True, echo=lines.append)
    assert [(r["case"], r["size"]) for r in rows] == [("poly_alone", 2_000), ("poly_script", 100)]
    for row in rows:
        assert row["problems"] == [], row       # the numpy child would say so if it had imported autodiff
        assert set(row["times"]) == set(row["faults"]) == {"ours", "numpy"}
        assert row["checks"]["numpy"] <= fresh.CHECK_RTOL
        assert all(math.isfinite(v) for v in row["faults"].values())
    best, median = rows[0]["times"]["ours"]
    assert all(v >= 0 for v in rows[0]["faults"].values())         # counted in the child over its timed steps
    assert 0 < best <= median
    assert rows[1]["steps"] == (2, 12)
    assert rows[1]["checks"]["ours (API)"] <= fresh.SCRIPT_RTOL     # our script is our API's step
    assert any(line.startswith("  poly_alone n = 2,000: ok") and "minor page faults per step: ours" in line
               for line in lines)
    assert any("runs of 2 and 12 steps" in line for line in lines)
    table = fresh.format_table(rows)
    assert "(each library alone)" in table[2] and "(as scripts)" in table[3]


def test_a_script_that_is_not_the_api_step_is_caught(fresh, monkeypatch):
    monkeypatch.setattr(fresh, "SCRIPT_TEXT", fresh.SCRIPT_TEXT.replace("lr = {lr!r}", "lr = {lr!r} * 1.5"))
    import autodiff.engine as E
    row = fresh.run_script_case(100, 2, 12, None, "quick", 0, E)
    assert set(row["checks"]) == {"ours (API)", "numpy"}
    assert row["checks"]["ours (API)"] > fresh.SCRIPT_RTOL
    assert any(p.startswith("ours vs ours (API): ") for p in row["problems"]), row["problems"]


def test_the_numpy_child_leaves_autodiff_out():
    import json
    import subprocess
    import sys
    out = subprocess.run([sys.executable, str(SCRIPT), "--alone-child", "numpy", "100", "0", "--repeats", "2",
                          "--sample-s", "0.001"], capture_output=True, text=True, check=True).stdout
    report = json.loads(out)
    assert report["autodiff_imported"] is False
    assert len(report["samples"]) == 2 and report["faults_per_step"] >= 0
    assert set(report["state"]) == {"loss", "grads", "abcd"}


TORCH_PYTHON = "/work/torchenv/bin/python"


@pytest.mark.skipif(not pathlib.Path(TORCH_PYTHON).exists(), reason="no PyTorch interpreter")
def test_pytorch_runs_our_script_text(fresh):
    import autodiff.engine as E
    row = fresh.run_script_case(100, 2, 12, TORCH_PYTHON, "quick", 0, E)
    assert row["problems"] == [], row
    assert set(row["times"]) == {"ours", "torch", "numpy"} and row["checks"]["torch"] <= fresh.CHECK_RTOL


def test_a_wrong_batch_answer_is_caught_in_numbers_and_arrays():
    spec = importlib.util.spec_from_file_location("bench_workloads_batch_compare", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    line = {"line": 1, "value": [[1.0, 2.0]], "grad": {"x": [[0.5, -1.0]]}}
    assert mod.compare_batch([line], [line], "batch_tensors")[0] == 0.0
    off = {"line": 1, "value": [[1.0, 2.0]], "grad": {"x": [[0.5, -1.1]]}}
    worst, n, bad, _ = mod.compare_batch([off], [line], "batch_tensors")
    assert math.isclose(worst, 0.1 / 1.0, rel_tol=1e-9) and n == 1 and "d/dx" in bad
    reshaped = {"line": 1, "value": [1.0, 2.0], "grad": {"x": [0.5, -1.0]}}
    assert mod.compare_batch([reshaped], [line], "batch_tensors")[0] == math.inf
    h = {"line": 1, "value": 1.0, "grad": {"x": 2.0}, "hessian": {"x": {"x": 3.0}}}
    h_off = dict(h, hessian={"x": {"x": 3.5}})
    assert math.isclose(mod.compare_batch([h_off], [h], "batch_hessian")[0], 0.5 / 3.0)
