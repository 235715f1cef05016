"""Reductions against the plain numpy expression: sum, mean, var, std, norm, softmax and logsumexp
over all dims and over one dim (the last, and the first), at 10^2, 10^4, 10^5 and 10^6 float64
elements. Ours is the engine's function on a tensor that needs no gradient (the forward a script
runs); numpy's is what one would write by hand. Prints one table with the ratio and its target
(the numerics issue: within 1.5x from 10^4 on, within 3x at 10^2, where a call's own overhead
counts). A script, not a test: nothing asserts a time.

    python benchmarks/bench_reductions.py [--quick]
"""
import argparse
import pathlib
import sys
import timeit

import numpy

try:
    import autodiff.engine as ad
except ImportError:  # not installed: the engine straight from this checkout
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
    import autodiff.engine as ad

SIZES = [10 ** 2, 10 ** 4, 10 ** 5, 10 ** 6]
SHAPES = {10 ** 2: (10, 10), 10 ** 4: (100, 100), 10 ** 5: (100, 1000), 10 ** 6: (1000, 1000)}


def _softmax(x, axis):
    e = numpy.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _logsumexp(x, axis):
    m = x.max(axis=axis, keepdims=True)
    return numpy.squeeze(numpy.log(numpy.exp(x - m).sum(axis=axis, keepdims=True)) + m, axis=axis)


# name -> (ours(t, dim), numpy's(x, axis)); dim None is every dim (softmax and logsumexp take a 1-d
# tensor's only dim then)
OPS = {
    "sum": (lambda t, d: t.sum() if d is None else t.sum(dim=d), lambda x, a: x.sum(axis=a)),
    "mean": (lambda t, d: t.mean() if d is None else t.mean(dim=d), lambda x, a: x.mean(axis=a)),
    "var": (lambda t, d: t.var() if d is None else t.var(dim=d), lambda x, a: x.var(axis=a, ddof=1)),
    "std": (lambda t, d: t.std() if d is None else t.std(dim=d), lambda x, a: x.std(axis=a, ddof=1)),
    # numpy.linalg.norm of a whole vector is BLAS's dot, which splits a vector of more than 10,000
    # elements between threads: its bits depend on how many there are (one in a Dask worker, several
    # here), so the engine sums the squares instead, as linalg.norm does along an axis
    "norm": (lambda t, d: t.norm() if d is None else t.norm(dim=d), lambda x, a: numpy.sqrt((x * x).sum(axis=a))),
    "softmax": (lambda t, d: ad.softmax(t, 0 if d is None else d), lambda x, a: _softmax(x, 0 if a is None else a)),
    "logsumexp": (lambda t, d: ad.logsumexp(t, 0 if d is None else d), lambda x, a: _logsumexp(x, 0 if a is None else a)),
}
MODES = {"all": None, "last dim": 1, "first dim": 0}


def best(f, budget):
    """The best time of one call, in seconds, over repeats filling about `budget` seconds."""
    f()
    n = max(1, int(0.02 / max(timeit.timeit(f, number=1), 1e-7)))
    repeats = max(3, int(budget / (0.02 + 1e-9)))
    return min(timeit.repeat(f, number=n, repeat=repeats)) / n


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, few repeats (a smoke run)")
    args = parser.parse_args()
    sizes = SIZES[:2] if args.quick else SIZES
    budget = 0.05 if args.quick else 0.3
    rng = numpy.random.default_rng(0)
    print(f"numpy {numpy.__version__}, Python {sys.version.split()[0]}; float64; times are the best call")
    print(f"{'op':<10} {'over':<10} {'elements':>9} {'ours µs':>10} {'numpy µs':>10} {'ratio':>7} {'target':>7}  met")
    missed = 0
    for name, (ours, theirs) in OPS.items():
        for mode, dim in MODES.items():
            for n in sizes:
                x = rng.standard_normal(n if dim is None else SHAPES[n])
                t = ad.tensor(x)
                check_ours = numpy.asarray(ours(t, dim).numpy())
                assert numpy.allclose(check_ours, theirs(x, dim), rtol=1e-12, atol=1e-12), (name, mode, n)
                mine = best(lambda: ours(t, dim), budget)
                plain = best(lambda: theirs(x, dim), budget)
                ratio = mine / plain
                target = 3.0 if n <= 100 else 1.5
                met = ratio <= target
                missed += not met
                print(f"{name:<10} {mode:<10} {n:>9} {mine * 1e6:>10.1f} {plain * 1e6:>10.1f} {ratio:>7.2f} "
                      f"{target:>6.1f}x  {'yes' if met else 'NO'}")
    print(f"{missed} of {len(OPS) * len(MODES) * len(sizes)} over their target")


if __name__ == "__main__":
    main()
