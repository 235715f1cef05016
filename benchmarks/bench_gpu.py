#!/usr/bin/env python
"""GPU benchmarks of the autodiff engine on CuPy, side by side with PyTorch on CUDA.

The cases of bench_engine.py, run on device 'cuda': ours (CuPy arrays), PyTorch
(CUDA tensors, when torch sees the GPU) and the same derivatives written by
hand in CuPy (the floor for an engine over CuPy). Every timed run ends with a
device synchronisation, so a time covers the GPU's work, not only its launch.

    python benchmarks/bench_gpu.py              # full sizes
    python benchmarks/bench_gpu.py --quick      # small sizes, a smoke run

Cases (see benchmarks/README.md):
  chain      2,000 scalar ops on the GPU, forward + backward, µs per op (launch-bound)
  poly       a*x**2+b*x+c over 10^7 float64 on the GPU, forward + .sum().backward()
  poly_ones  the same, then y.backward(ones_like(y))
  hessian    Hessian of bench_engine's f at 100 and 1000 variables; PyTorch with vectorize=True

Without CuPy or a GPU it says so and exits 1. A script, not a test: nothing here
asserts a time.
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_engine as be  # noqa: E402  (the shared cases, timer and table)

cupy = None


def _gpu_or_exit():
    """Import CuPy and check that it sees a device; exit with a message if not."""
    global cupy
    try:
        import cupy as _cupy
        if _cupy.cuda.runtime.getDeviceCount() < 1:
            raise RuntimeError("no CUDA device")
    except Exception as err:  # ImportError, or CuPy's CUDA errors
        raise SystemExit(f"bench_gpu: needs CuPy and a CUDA GPU ({err})")
    cupy = _cupy
    be.load("ours")
    torch_ok = be.load("torch") and be.torch.cuda.is_available()
    return ("ours", "torch", "numpy") if torch_ok else ("ours", "numpy")


def _sync(lib):
    if lib == "torch":
        be.torch.cuda.synchronize()
    else:
        cupy.cuda.Device().synchronize()


def _synced(lib, fn):
    def run():
        result = fn()
        _sync(lib)
        return result
    return run


# --------------------------------------------------------------------------- chain
def chain_run(lib, n):
    if lib == "numpy":
        return lambda: be.chain_numpy(n, xp=cupy)  # by hand, in CuPy
    return lambda: be._chain(be.E if lib == "ours" else be.torch, n, "cuda")


def _to_host(value):
    if hasattr(value, "cpu") and hasattr(value, "numpy"):  # ours or torch
        return np.asarray(value.detach().cpu().numpy())
    return cupy.asnumpy(value)


def case_chain(libs, n, repeats):
    times, results = {}, {}
    for lib in libs:
        t, res = be.best_time(_synced(lib, chain_run(lib, n)), repeats)
        times[lib] = t / n * 1e6
        results[lib] = np.array(res)  # (value, d/dx0) as floats
    return dict(name="chain", label=f"chain of {n} scalar ops on the GPU", unit="µs/op",
                times=times, results=results, reference=np.array(be.chain_numpy(n)),
                check="value and d/dx0", target=("torch", 1.0))


# --------------------------------------------------------------------------- poly
def poly_run(lib, xnp, ones):
    A, B, C = be.A, be.B, be.C
    if lib == "numpy":  # by hand, in CuPy
        x = cupy.asarray(xnp)
        a, b, c = (cupy.asarray(v) for v in (A, B, C))

        def run():
            y = a * x ** 2 + b * x + c
            g = 2 * a * x + b
            return (y if ones else y.sum()), g
        return run
    T = be.E if lib == "ours" else be.torch
    x = T.tensor(xnp, device="cuda").requires_grad_(True)
    a, b, c = (T.tensor(v, dtype=T.float64, device="cuda") for v in (A, B, C))

    def run():
        x.grad = None
        y = a * x ** 2 + b * x + c
        if ones:
            y.backward(T.ones_like(y))
            return y.detach(), x.grad
        s = y.sum()
        s.backward()
        return s.detach(), x.grad
    return run


def case_poly(libs, n, repeats, ones=False):
    xnp = be.poly_inputs(n)
    times, results = {}, {}
    for lib in libs:
        t, (s, g) = be.best_time(_synced(lib, poly_run(lib, xnp, ones)), repeats)
        times[lib] = t * 1e3
        results[lib] = (float(_to_host(s).sum()), _to_host(g))
    reference = (float((be.A * xnp ** 2 + be.B * xnp + be.C).sum()), 2 * be.A * xnp + be.B)
    how = "y.backward(ones_like(y))" if ones else "y.sum().backward()"
    return dict(name="poly_ones" if ones else "poly", label=f"a*x**2+b*x+c on the GPU, n={n:.0e}, {how}",
                unit="ms", times=times, results=results, reference=reference,
                check="sum(y) and grad 2*a*x+b", target=("numpy", 1.5))


# --------------------------------------------------------------------------- hessian
def hessian_run(lib, xnp):
    if lib == "ours":
        x = be.E.tensor(xnp, device="cuda")
        return lambda: be.E.hessian(be.f_ours, x)
    if lib == "torch":
        x = be.torch.tensor(xnp, device="cuda")
        return lambda: be.torch.autograd.functional.hessian(be.f_torch, x, vectorize=True)
    x = cupy.asarray(xnp)

    def by_hand():
        n = x.shape[0]
        h = cupy.zeros((n, n))
        i = cupy.arange(n)
        h[i, i] = (2 - x ** 2) * cupy.sin(x) + 4 * x * cupy.cos(x)
        h[i[:-1], i[1:]] = 1.0
        h[i[1:], i[:-1]] = 1.0
        return h
    return by_hand


def case_hessian(libs, n, repeats):
    xnp = np.random.default_rng(1).uniform(-2, 2, n)
    times, results = {}, {}
    for lib in libs:
        t, res = be.best_time(_synced(lib, hessian_run(lib, xnp)), repeats)
        times[lib] = t * 1e3
        results[lib] = _to_host(res)
    return dict(name="hessian", label=f"Hessian on the GPU, {n} variables", unit="ms",
                times=times, results=results, reference=be.hessian_by_hand(xnp),
                check="max |H - H_other|", target=("torch" if "torch" in libs else "numpy", 1.0))


# --------------------------------------------------------------------------- report
LABELS = {"ours": "ours (CuPy)", "torch": "PyTorch CUDA", "numpy": "CuPy-by-hand"}


def machine_info():
    props = cupy.cuda.runtime.getDeviceProperties(0)
    name = props["name"].decode() if isinstance(props["name"], bytes) else props["name"]
    lines = [f"GPU {name}, CuPy {cupy.__version__}, numpy {np.__version__}"]
    torch = be.torch
    lines.append(f"torch {torch.__version__} (CUDA {torch.version.cuda})" if torch is not None
                 else "torch: not installed (column skipped)")
    return lines


def run_cases(libs, quick=False, only=None):
    sizes = dict(chain=200, poly=100_000, hessian=(10,)) if quick else \
        dict(chain=2000, poly=10_000_000, hessian=(100, 1000))
    reps = dict(chain=3, poly=2, hessian=2) if quick else dict(chain=10, poly=10, hessian=10)
    cases = []
    if only in (None, "chain"):
        cases.append(case_chain(libs, sizes["chain"], reps["chain"]))
    for ones in (False, True):
        if only in (None, "poly_ones" if ones else "poly"):
            cases.append(case_poly(libs, sizes["poly"], reps["poly"], ones))
    if only in (None, "hessian"):
        cases.extend(case_hessian(libs, n, reps["hessian"]) for n in sizes["hessian"])
    return cases


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="small sizes, for a smoke run")
    p.add_argument("--only", choices=("chain", "poly", "poly_ones", "hessian"), help="run one case")
    args = p.parse_args(argv)
    libs = _gpu_or_exit()
    print("autodiff engine benchmarks on the GPU" + (" (--quick sizes)" if args.quick else ""))
    for line in machine_info():
        print("  " + line)
    print(flush=True)
    cases = run_cases(libs, args.quick, args.only)
    be.LABELS.update(LABELS)  # the shared table and checks, with the GPU's column names
    for line in be.format_table(cases, libs):
        print(line)
    print()
    print("checks:")
    for c in cases:
        for line in be.format_checks(c):
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
