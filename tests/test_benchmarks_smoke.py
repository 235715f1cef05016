"""Smoke test of benchmarks/bench_engine.py: its cases run (--quick sizes, our engine and
numpy by hand only, so no torch or HIPS needed) and our numbers match numpy's by hand.
Nothing here looks at a time."""
import importlib.util
import pathlib

import numpy as np

SCRIPT = pathlib.Path(__file__).resolve().parent.parent / "benchmarks" / "bench_engine.py"


def _load_script():
    spec = importlib.util.spec_from_file_location("bench_engine_smoke", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_benchmark_cases_run_quick_and_match_numpy_by_hand():
    bench = _load_script()
    libs = ("ours", "numpy")               # the torch and HIPS columns are left out
    cases = {c["name"]: c for c in bench.run_cases(quick=True, libs=libs, echo=lambda s: None)}
    assert set(cases) == set(bench.CASES)

    chain = cases["chain"]
    np.testing.assert_allclose(chain["results"]["ours"], chain["reference"], rtol=1e-12, atol=0)

    poly = cases["poly"]
    ours_sum, ours_grad = poly["results"]["ours"]
    ref_sum, ref_grad = poly["reference"]
    assert abs(ours_sum - ref_sum) <= 1e-9 * max(1.0, abs(ref_sum))
    np.testing.assert_allclose(np.asarray(ours_grad), ref_grad, rtol=1e-12, atol=1e-12)

    hess = cases["hessian"]
    np.testing.assert_allclose(hess["results"]["ours"], hess["reference"], rtol=0, atol=1e-8)

    mem = cases["memory"]
    assert set(mem["times"]) == set(libs), mem.get("notes")

    header = bench.format_table(list(cases.values()), libs)[0].split()
    assert "ours/numpy-by-hand" in header
    assert not {"PyTorch", "HIPS", "ours/PyTorch", "ours/HIPS"} & set(header)
    for c in cases.values():
        bench.format_checks(c)
