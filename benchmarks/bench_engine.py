#!/usr/bin/env python
"""Side-by-side benchmarks of the autodiff engine (SPEC §6, issue 2).

Runs in one process against PyTorch (CPU) and HIPS autograd when they are
importable, and against the same derivatives written by hand in numpy (the
floor for a numpy engine), then prints one table of times and ratios.

    python benchmarks/bench_engine.py             # full sizes
    python benchmarks/bench_engine.py --quick     # small sizes, a smoke run
    python benchmarks/bench_engine.py --only poly # one case: chain, poly, hessian, memory
    python benchmarks/bench_engine.py --only hessian --hessian-sizes 10,100,1000

Cases (see benchmarks/README.md):
  chain    2,000 scalar ops (mul, add, sin, repeated), forward + backward, µs per op
  poly     a*x**2+b*x+c over 10^7 float64, forward + .sum().backward()
  hessian  Hessian of f(x) = sum(sin(x)*x**2) + sum(x[:-1]*x[1:]), 100 variables (or --hessian-sizes);
           PyTorch twice: its default (one backward per row) and vectorize=True (one batched backward)
  memory   peak RSS of `poly`, each library in its own subprocess

This is a script, not a test: nothing here asserts a time.
"""
import argparse
import gc
import importlib
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from functools import partial
import types

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


# --------------------------------------------------------------------------- imports
def _import_engine():
    """`autodiff.engine`, installed or (fallback) straight from this checkout."""
    try:
        return importlib.import_module("autodiff.engine")
    except ImportError:
        pkg = types.ModuleType("autodiff")
        pkg.__path__ = [ROOT]          # engine/ grammar/ cli/ are the package's folders
        sys.modules["autodiff"] = pkg
        return importlib.import_module("autodiff.engine")


# Imported on first use (`load`), so that a memory-measuring child imports only its own library.
E = torch = hips = anp = None

LIBS = ("ours", "torch", "torch_vec", "hips", "numpy")
LABELS = {"ours": "ours", "torch": "PyTorch", "torch_vec": "PyTorch-vec", "hips": "HIPS",
          "numpy": "numpy-by-hand"}
# torch_vec is PyTorch run another way (torch.autograd.functional.hessian with vectorize=True):
# a column of the hessian case only
ONLY_IN = {"torch_vec": ("hessian",), "hips": ("chain", "poly", "hessian", "memory")}  # HIPS: no VJP form


def load(lib):
    """Import one library's module(s) into this module's globals; False if not installed."""
    global E, torch, hips, anp
    if lib == "ours":
        if E is None:
            E = _import_engine()
        return True
    if lib == "torch":
        if torch is None:
            try:
                import torch as _torch
            except ImportError:     # the torch column is skipped
                return False
            torch = _torch
        return True
    if lib == "hips":
        if hips is None:
            try:
                import autograd as _hips
                import autograd.numpy as _anp
            except ImportError:     # the HIPS column is skipped
                return False
            hips, anp = _hips, _anp
        return True
    if lib == "torch_vec":
        return load("torch")
    return lib == "numpy"


def available_libs():
    """Libraries importable in this process (importing them), in table order."""
    return tuple(lib for lib in LIBS if load(lib))


SIZES = {
    #        chain ops  poly n       hessian n  memory n
    "full":  dict(chain=2000, poly=10_000_000, hessian=100, memory=10_000_000),
    "quick": dict(chain=200, poly=100_000, hessian=10, memory=100_000),
}
# The chain's runs take ~10 ms each: 100 of them, interleaved, so that its best is a steady figure on a
# shared 2-core machine (with 20, the ratio to PyTorch went from 0.50 to 0.88 between runs)
REPEATS = {
    "full":  dict(chain=100, poly=5, hessian=5),
    "quick": dict(chain=3, poly=2, hessian=2),
}


def best_time(fn, repeats):
    """Best wall time of `fn()` over `repeats` runs after one warm-up (timeit-style:
    the cyclic garbage collector is off while timing). Returns (seconds, last result)."""
    return best_times({None: fn}, repeats)[None]


def _ours_from_numpy(arr):
    """A leaf sharing (or, if the engine has no from_numpy, copying) the numpy array."""
    maker = getattr(E, "from_numpy", None)
    return maker(arr) if maker is not None else E.tensor(arr)


# --------------------------------------------------------------------------- case 1: chain
# The same op sequence in every library: op i is  x*1.0001,  x+0.001,  sin(x)  for i % 3 = 0, 1, 2.
MUL, ADD, X0 = 1.0001, 0.001, 0.5


def chain_ours(n):
    return _chain(E, n)


def chain_torch(n):
    return _chain(torch, n)


def _chain(T, n, device=None):
    """The chain in a library with PyTorch's API (ours or PyTorch itself), the leaf on `device`
    (bench_gpu.py: 'cuda'); item() at the end waits for a GPU's work."""
    x0 = T.tensor(X0, dtype=T.float64, requires_grad=True, device=device)
    x = x0
    for i in range(n):
        k = i % 3
        if k == 0:
            x = x * MUL
        elif k == 1:
            x = x + ADD
        else:
            x = x.sin()
    x.backward()
    return x.item(), x0.grad.item()


def chain_hips(n):
    def f(x):
        for i in range(n):
            k = i % 3
            if k == 0:
                x = x * MUL
            elif k == 1:
                x = x + ADD
            else:
                x = anp.sin(x)
        return x
    value, g = hips.value_and_grad(f)(np.array(X0))
    return float(value), float(g)


def chain_numpy(n, xp=np):
    """Forward keeping each op's local derivative, then their product in reverse (in numpy, or
    in another array module `xp` with numpy's API: bench_gpu.py runs it in CuPy)."""
    x = xp.asarray(X0)
    local = []
    for i in range(n):
        k = i % 3
        if k == 0:
            local.append(MUL)
            x = x * MUL
        elif k == 1:
            local.append(1.0)
            x = x + ADD
        else:
            local.append(xp.cos(x))
            x = xp.sin(x)
    g = xp.asarray(1.0)
    for d in reversed(local):
        g = g * d
    return float(x), float(g)


def best_times(fns, repeats, rounds=None):
    """best_time of several libraries' runs taken in turn -- repeat 1 of each, then repeat 2 of
    each, ... -- so that the machine's ups and downs fall on every column alike: {lib: (seconds,
    last result)}. (One library's repeats, then the next's, let a busy spell on a shared machine
    land on one column: on this 2-core machine the chain's ratio moved from 0.64 to 0.55 that way.)
    `rounds`, a list, receives each round's {lib: seconds}."""
    best = {lib: float("inf") for lib in fns}
    results = {}
    for i in range(repeats + 1):
        times = {}
        for lib, fn in fns.items():
            times[lib], results[lib] = best_time_once(fn)
            if i > 0:               # round 0 is the warm-up
                best[lib] = min(best[lib], times[lib])
        if i > 0 and rounds is not None:
            rounds.append(times)
    return {lib: (best[lib], results[lib]) for lib in fns}


def paired_ratios(rounds, lib, peer):
    """(median, lower quartile, upper quartile) of lib's time over peer's within each round: a run
    set against the one beside it, steadier than the ratio of two bests on a shared machine."""
    lower, median, upper = statistics.quantiles([r[lib] / r[peer] for r in rounds], n=4)
    return median, lower, upper


def best_time_once(fn):
    """(wall seconds, result) of one run of `fn()`, the cyclic garbage collector off."""
    gc.collect()
    gc.disable()
    try:
        t0 = time.perf_counter()
        result = fn()
        return time.perf_counter() - t0, result
    finally:
        gc.enable()


def case_chain(libs, n, repeats):
    fns = {"ours": chain_ours, "torch": chain_torch, "hips": chain_hips, "numpy": chain_numpy}
    times, results, rounds = {}, {}, []
    for lib, (t, res) in best_times({lib: partial(fns[lib], n) for lib in libs}, repeats, rounds).items():
        times[lib] = t / n * 1e6
        results[lib] = np.array(res)
    reference = results["numpy"] if "numpy" in results else np.array(chain_numpy(n))
    paired = paired_ratios(rounds, "ours", "torch") if "ours" in libs and "torch" in libs else None
    return dict(name="chain", label=f"chain of {n} scalar ops, fwd+bwd", unit="µs/op",
                times=times, results=results, reference=reference, paired=paired,
                check="value and d/dx0", target=("torch", 0.5))


# --------------------------------------------------------------------------- case 2: poly
# y = a*x**2 + b*x + c, elementwise; backward as y.sum().backward() in every library
# (so d sum(y) / dx = 2*a*x + b, the same as backward(gradient=ones)).
A, B, C = 1.5, -2.0, 0.5


def poly_inputs(n, seed=0):
    return np.random.default_rng(seed).standard_normal(n)


def poly_setup(lib, xnp, ones=False):
    """Build the library's inputs outside the timed region; returns a zero-arg run.
    `ones`: the backward is y.backward(ones_like(y)) (a vector-Jacobian product with
    weights of 1, the same gradient) instead of y.sum().backward()."""
    if lib == "ours":
        x = _ours_from_numpy(xnp).requires_grad_(True)
        a, b, c = (E.tensor(v, dtype=E.float64) for v in (A, B, C))

        def run():
            x.grad = None
            y = a * x ** 2 + b * x + c
            if ones:
                y.backward(E.ones_like(y))
                return y.array, x.grad.array
            s = y.sum()
            s.backward()
            return s.item(), x.grad.array
        return run
    if lib == "torch":
        x = torch.from_numpy(xnp).requires_grad_(True)
        a, b, c = (torch.tensor(v, dtype=torch.float64) for v in (A, B, C))

        def run():
            x.grad = None
            y = a * x ** 2 + b * x + c
            if ones:
                y.backward(torch.ones_like(y))
                return y.detach().numpy(), x.grad.numpy()
            s = y.sum()
            s.backward()
            return s.item(), x.grad.numpy()
        return run
    if lib == "hips":
        a, b, c = (np.array(v) for v in (A, B, C))
        vg = hips.value_and_grad(lambda x: anp.sum(a * x ** 2 + b * x + c))

        def run():
            s, g = vg(xnp)
            return float(s), g
        return run
    if lib == "numpy":
        a, b, c = (np.array(v) for v in (A, B, C))

        def run():
            y = a * xnp ** 2 + b * xnp + c      # forward value
            g = 2 * a * xnp + b                 # d sum(y) / dx by hand (= the VJP with weights 1)
            return float(y.sum()) if not ones else y, g
        return run
    raise ValueError(lib)


def case_poly(libs, n, repeats, ones=False):
    xnp = poly_inputs(n)
    times, results = {}, {}
    # the libraries' runs interleaved (best_times), as the chain's: a busy spell of this shared machine
    # then falls on every column alike (one library after another moved ours/numpy from 1.22 to 1.57)
    runs = {lib: poly_setup(lib, xnp, ones) for lib in libs}
    for lib, (t, res) in best_times(runs, repeats).items():
        times[lib] = t * 1e3
        # ones: every library returns y itself, summed here, outside the timed region
        results[lib] = (float(res[0].sum()), res[1]) if ones else res
    del runs
    gc.collect()
    ref_sum = float((A * xnp ** 2 + B * xnp + C).sum())
    reference = (ref_sum, 2 * A * xnp + B)
    how = "y.backward(ones_like(y))" if ones else "y.sum().backward()"
    return dict(name="poly_ones" if ones else "poly", label=f"a*x**2+b*x+c, n={n:.0e}, {how}", unit="ms",
                times=times, results=results, reference=reference,
                check="sum(y) and grad 2*a*x+b", target=("numpy", 1.5))


def poly_max_diff(result, reference):
    """(relative diff of the forward sums, max abs diff of the gradients)."""
    s, g = result
    rs, rg = reference
    return abs(s - rs) / max(1.0, abs(rs)), float(np.max(np.abs(np.asarray(g) - rg)))


# --------------------------------------------------------------------------- case 3: hessian
# f(x) = sum(sin(x) * x**2) + sum(x[:-1] * x[1:])


def f_ours(x):
    return (E.sin(x) * x ** 2).sum() + (x[:-1] * x[1:]).sum()


def f_torch(x):
    return (torch.sin(x) * x ** 2).sum() + (x[:-1] * x[1:]).sum()


def f_hips(x):
    return anp.sum(anp.sin(x) * x ** 2) + anp.sum(x[:-1] * x[1:])


def hessian_by_hand(xnp):
    """d²/dx² (sin x · x²) = (2 - x²) sin x + 4x cos x on the diagonal; 1 beside it."""
    n = xnp.shape[0]
    h = np.zeros((n, n))
    h[np.arange(n), np.arange(n)] = (2 - xnp ** 2) * np.sin(xnp) + 4 * xnp * np.cos(xnp)
    h[np.arange(n - 1), np.arange(1, n)] = 1.0
    h[np.arange(1, n), np.arange(n - 1)] = 1.0
    return h


def hessian_run(lib, xnp):
    if lib == "ours":
        x = E.tensor(xnp)
        return lambda: E.hessian(f_ours, x).array
    if lib == "torch":
        x = torch.from_numpy(xnp.copy())
        return lambda: torch.autograd.functional.hessian(f_torch, x).numpy()
    if lib == "torch_vec":
        x = torch.from_numpy(xnp.copy())
        return lambda: torch.autograd.functional.hessian(f_torch, x, vectorize=True).numpy()
    if lib == "hips":
        h = hips.hessian(f_hips)
        return lambda: h(xnp)
    if lib == "numpy":
        return lambda: hessian_by_hand(xnp)
    raise ValueError(lib)


def case_hessian(libs, n, repeats):
    xnp = np.random.default_rng(1).uniform(-2, 2, n)
    times, results = {}, {}
    for lib, (t, res) in best_times({lib: hessian_run(lib, xnp) for lib in libs}, repeats).items():
        times[lib] = t * 1e3
        results[lib] = np.asarray(res)
    return dict(name="hessian", label=f"Hessian, {n} variables", unit="ms",
                times=times, results=results, reference=hessian_by_hand(xnp),
                check="max |H - H_other|", target=("torch_vec" if "torch_vec" in libs else "torch", 1.0))


def hessian_repeats(n, repeats):
    """More repeats for small Hessians (a millisecond each: the best of 5 is noise), fewer above
    1000 variables (PyTorch's default takes n backward passes each)."""
    if n <= 100:
        return max(repeats, 4 * repeats)
    return repeats if n <= 1000 else min(repeats, 2)


# --------------------------------------------------------------------------- case 4: memory
def _rss_kb(field):
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return None


def _mem_child(lib, n):
    """In a fresh process: baseline RSS after imports, then poly once, then peak RSS."""
    try:                                # forget the peak reached while importing
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
        reset = True
    except OSError:
        reset = False
    gc.collect()
    base = _rss_kb("VmRSS")
    if base is None:                    # not Linux: ru_maxrss (kB on Linux, bytes on macOS)
        import resource
        base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    run = poly_setup(lib, poly_inputs(n))
    s, g = run()
    peak = _rss_kb("VmHWM")
    if peak is None:
        import resource
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps(dict(lib=lib, n=n, base_kb=base, peak_kb=peak, reset=reset, sum=s)))


def case_memory(libs, n):
    times, results, notes = {}, {}, []
    for lib in libs:
        proc = subprocess.run([sys.executable, os.path.abspath(__file__), "--mem-child", lib,
                               "--n", str(n)], capture_output=True, text=True)
        if proc.returncode != 0:
            notes.append(f"{lib}: child failed: {proc.stderr.strip().splitlines()[-1:]}")
            continue
        data = json.loads(proc.stdout.strip().splitlines()[-1])
        times[lib] = (data["peak_kb"] - data["base_kb"]) / 1024.0
        results[lib] = data
        if not data["reset"]:
            notes.append(f"{lib}: could not reset the peak after imports (VmHWM includes them)")
    return dict(name="memory", label=f"peak RSS of poly, n={n:.0e}", unit="MiB",
                times=times, results=results, reference=None, notes=notes,
                input_mib=n * 8 / 2 ** 20, target=("torch", 1.0))


# --------------------------------------------------------------------------- report
def machine_info():
    lines = [f"python {platform.python_version()} ({platform.python_implementation()}), "
             f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs",
             f"numpy {np.__version__}"]
    lines.append(f"torch {torch.__version__} ({torch.get_num_threads()} threads)"
                 if torch is not None else "torch: not installed (column skipped)")
    if hips is not None:
        try:
            from importlib.metadata import version
            hv = version("autograd")
        except Exception:
            hv = "?"
        lines.append(f"HIPS autograd {hv}")
    else:
        lines.append("HIPS autograd: not installed (column skipped)")
    return lines


def _fmt(v):
    if v is None:
        return "-"
    if v >= 100:
        return f"{v:.0f}"
    if v >= 10:
        return f"{v:.1f}"
    return f"{v:.2f}"


def format_table(cases, libs):
    others = [lib for lib in libs if lib != "ours"]
    head = ["case", "unit"] + [LABELS[lib] for lib in libs] + \
           [f"ours/{LABELS[lib]}" for lib in others] + ["target", "met"]
    rows = []
    for c in cases:
        t = c["times"]
        row = [c["label"], c["unit"]] + [_fmt(t.get(lib)) for lib in libs]
        for lib in others:
            ok = "ours" in t and lib in t and t[lib] > 0
            row.append(f"{t['ours'] / t[lib]:.2f}x" if ok else "-")
        tlib, tmax = c["target"]
        row.append(f"ours <= {tmax:g}x {LABELS[tlib]}")
        ok = "ours" in t and tlib in t and t[tlib] > 0
        row.append(("yes" if t["ours"] / t[tlib] <= tmax else "NO") if ok else "-")
        rows.append(row)
    widths = [max(len(str(r[i])) for r in [head] + rows) for i in range(len(head))]
    out = ["  ".join(str(h).ljust(w) if i < 2 else str(h).rjust(w)
                     for i, (h, w) in enumerate(zip(head, widths)))]
    out.append("  ".join("-" * w for w in widths))
    for r in rows:
        out.append("  ".join(str(v).ljust(w) if i < 2 else str(v).rjust(w)
                             for i, (v, w) in enumerate(zip(r, widths))))
    return out


def format_checks(c):
    out = []
    if c["name"] == "chain":
        rv, rg = c["reference"]
        for lib, (v, g) in c["results"].items():
            out.append(f"  chain   {LABELS[lib]:>13}: value {v:.15g}  d/dx0 {g:.15g}  "
                       f"|diff| vs numpy {abs(v - rv):.1e}, {abs(g - rg):.1e}")
        if c.get("paired"):
            out.append("  chain   ours/PyTorch run by run: median %.3f, quartiles %.3f-%.3f" % c["paired"])
    elif c["name"] in ("poly", "poly_ones"):
        for lib, res in c["results"].items():
            ds, dg = poly_max_diff(res, c["reference"])
            out.append(f"  {c['name']:9} {LABELS[lib]:>13}: rel diff of sum(y) {ds:.1e}, "
                       f"max |grad - (2*a*x+b)| {dg:.1e}")
    elif c["name"] == "hessian":
        res = c["results"]
        ours = res.get("ours")
        for lib, h in res.items():
            d = float(np.max(np.abs(h - c["reference"])))
            line = f"  hessian {LABELS[lib]:>13}: max |H - H_by_hand| {d:.1e}"
            if ours is not None and lib != "ours":
                dd = float(np.max(np.abs(ours - h)))
                line += f", max |H_ours - H_{lib}| {dd:.1e} ({'ok' if dd <= 1e-8 else 'ABOVE 1e-8'})"
            out.append(line)
    elif c["name"] == "memory":
        for lib, d in c["results"].items():
            out.append(f"  memory  {LABELS[lib]:>13}: baseline after imports {d['base_kb'] / 1024:.0f} MiB, "
                       f"peak {d['peak_kb'] / 1024:.0f} MiB, peak - baseline {c['times'][lib]:.0f} MiB")
        out.append(f"  memory  (every column includes the {c['input_mib']:.0f} MiB input array x)")
        out.extend("  memory  " + note for note in c.get("notes", []))
    return out


CASES = ("chain", "poly", "poly_ones", "hessian", "memory")


def run_cases(only=None, quick=False, libs=None, echo=print, hessian_sizes=None):
    """Run the cases (all, or `only`) for `libs` (default: all importable); returns them.
    `hessian_sizes`: the hessian case once per size (default: one size, SIZES')."""
    size, reps = SIZES["quick" if quick else "full"], REPEATS["quick" if quick else "full"]
    libs = tuple(libs) if libs is not None else available_libs()
    for lib in libs:
        if not load(lib):
            raise ImportError(f"{lib} is not installed")
    names = CASES if only is None else (only,)
    cases = []
    for name in names:
        t0 = time.perf_counter()
        case_libs = tuple(lib for lib in libs if name in ONLY_IN.get(lib, (name,)))
        if name == "chain":
            done = [case_chain(case_libs, size["chain"], reps["chain"])]
        elif name == "poly" or name == "poly_ones":
            done = [case_poly(case_libs, size["poly"], reps["poly"], ones=name == "poly_ones")]
        elif name == "hessian":
            done = [case_hessian(case_libs, n, hessian_repeats(n, reps["hessian"]))
                    for n in (hessian_sizes or (size["hessian"],))]
        elif name == "memory":
            done = [case_memory(case_libs, size["memory"])]
        else:
            raise ValueError(f"unknown case {name!r}; one of {', '.join(CASES)}")
        echo(f"[{name} done in {time.perf_counter() - t0:.1f} s]")
        cases.extend(done)
    return cases


def _sizes(text):
    try:
        sizes = tuple(int(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected sizes like 10,100,1000, got {text!r}") from None
    if not sizes or min(sizes) < 2:
        raise argparse.ArgumentTypeError("each size must be at least 2")
    return sizes


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="small sizes, for a smoke run")
    p.add_argument("--only", choices=CASES, help="run one case")
    p.add_argument("--hessian-sizes", type=_sizes, metavar="N,N,...",
                   help="run the hessian case at these numbers of variables (default 100; 10 with --quick)")
    p.add_argument("--mem-child", metavar="LIB", help=argparse.SUPPRESS)
    p.add_argument("--n", type=int, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.mem_child:
        if not load(args.mem_child):
            raise SystemExit(f"{args.mem_child} is not installed")
        _mem_child(args.mem_child, args.n)
        return 0
    libs = available_libs()
    print("autodiff engine benchmarks" + (" (--quick sizes)" if args.quick else ""))
    for line in machine_info():
        print("  " + line)
    print(flush=True)
    cases = run_cases(args.only, args.quick, libs, echo=lambda s: print(s, file=sys.stderr, flush=True),
                      hessian_sizes=args.hessian_sizes)
    for line in format_table(cases, libs):
        print(line)
    print()
    print("checks:")
    for c in cases:
        for line in format_checks(c):
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
