"""Smoke tests of benchmarks/bench_engine.py and bench_gpu.py: their cases run (--quick sizes, our engine and
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


def _stand_in_cupy():
    """The few CuPy functions bench_gpu.py calls itself, on the stand-in GPU's arrays."""
    from fakecuda import FakeCudaArray, to_host
    import types
    cupy = types.ModuleType("cupy")
    cupy.__version__ = "stand-in"
    cupy.asarray = lambda a, dtype=None: np.array(a, dtype=dtype).view(FakeCudaArray)
    cupy.asnumpy = to_host  # (numpy.asarray refuses the stand-in's arrays, as CuPy's)
    cupy.sin, cupy.cos = np.sin, np.cos
    cupy.zeros = lambda shape: np.zeros(shape).view(FakeCudaArray)
    cupy.arange = lambda n: np.arange(n).view(FakeCudaArray)
    runtime = types.SimpleNamespace(getDeviceCount=lambda: 1, getDeviceProperties=lambda i: {"name": b"stand-in"})
    cupy.cuda = types.SimpleNamespace(runtime=runtime, Device=lambda: types.SimpleNamespace(synchronize=lambda: None))
    return cupy


def test_gpu_benchmark_cases_run_on_the_stand_in(fake_cuda, monkeypatch):
    """bench_gpu.py's cases, with 'cuda' on the stand-in and a stand-in `cupy` module: they run,
    stay on the device, and give numpy's numbers by hand."""
    import sys
    monkeypatch.setitem(sys.modules, "cupy", _stand_in_cupy())
    spec = importlib.util.spec_from_file_location("bench_gpu_smoke", SCRIPT.parent / "bench_gpu.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    libs = tuple(lib for lib in bench._gpu_or_exit() if lib != "torch")
    cases = bench.run_cases(libs, quick=True)
    assert [c["name"] for c in cases] == ["chain", "poly", "poly_ones", "hessian"]
    for c in cases:
        if c["name"] == "chain":
            np.testing.assert_allclose(c["results"]["ours"], c["reference"], rtol=1e-12, atol=0)
        elif c["name"] == "hessian":
            np.testing.assert_allclose(c["results"]["ours"], c["reference"], rtol=0, atol=1e-8)
        else:
            ours_sum, ours_grad = c["results"]["ours"]
            assert abs(ours_sum - c["reference"][0]) <= 1e-9 * max(1.0, abs(c["reference"][0]))
            np.testing.assert_allclose(ours_grad, c["reference"][1], rtol=1e-12, atol=1e-12)
