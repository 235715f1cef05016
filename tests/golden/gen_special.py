"""Regenerate tests/golden/special.json: PyTorch's torch.special functions (lgamma, digamma, polygamma,
zeta, erfcx, i0/i0e/i1/i1e, ndtr, ndtri, log_ndtr, entr, xlog1py, multigammaln) on grids that take in
ordinary, large and negative arguments, the poles and nan/+-inf, in float64 and float32, with the
first derivative (the gradient of the sum) in float64 -- what tests/engine/ops/test_special.py
compares engine/special_kernels.py and the rows of engine/ops/special.py with.

Run with a Python that has PyTorch (not a dependency of the test suite):

    python tests/golden/gen_special.py
"""
import json
import math
import pathlib

import numpy
import torch

INF, NAN = math.inf, math.nan


def general():
    """Ordinary, large, tiny and negative arguments, the integers (poles) and the edges."""
    xs = list(numpy.linspace(-30, 30, 241)) + list(numpy.linspace(-3, 3, 97))
    xs += [s * 10.0 ** e for s in (1, -1) for e in range(-300, 301, 20)]
    xs += [s * 10.0 ** e for s in (1, -1) for e in (-8, -4, -1, 1, 1.5, 2, 2.5, 2.85)]
    xs += [0.0, -0.0, 1.0, 2.0, -1.0, -2.0, -2.5, -1 + 1e-9, -1 - 1e-9, 1 + 1e-9, 1.4616321449683622, 0.5,
           0.4999999999999999, 10.0, 9.999999999999998, 25.0, 25.000000000001, 27.25, 27.3, 700.0, 709.5, 713.0,
           715.0, -26.0, -26.7, 1e17, 5e-324, INF, -INF, NAN]
    return [float(x) for x in xs]


def probabilities():
    ps = list(numpy.linspace(0, 1, 101)) + [10.0 ** -e for e in range(1, 310, 7)] + [1 - 10.0 ** -e for e in range(1, 16)]
    return [float(p) for p in ps] + [0.25, 0.2499999999999999, 5e-324, -0.1, 1.1, INF, -INF, NAN]


UNARY = {
    "lgamma": (torch.lgamma, general),
    "digamma": (torch.special.digamma, general),
    "erfcx": (torch.special.erfcx, general),
    "i0": (torch.special.i0, general),
    "i0e": (torch.special.i0e, general),
    "i1": (torch.special.i1, general),
    "i1e": (torch.special.i1e, general),
    "ndtr": (torch.special.ndtr, general),
    "ndtri": (torch.special.ndtri, probabilities),
    "log_ndtr": (torch.special.log_ndtr, general),
    "entr": (torch.special.entr, general),
}
for _n in (1, 2, 3, 5):
    UNARY[f"polygamma{_n}"] = ((lambda n: lambda x: torch.special.polygamma(n, x))(_n), general)
for _p in (1, 3):
    UNARY[f"multigammaln{_p}"] = ((lambda p: lambda x: torch.special.multigammaln(x, p))(_p),
                                  lambda p=_p: [float(x) for x in numpy.linspace((p - 1) / 2 + 0.01, 40, 120)]
                                  + [1e5, 1e200, INF])


def pairs():
    """(x, q) for zeta and (x, y) for xlog1py: a product of a few values each."""
    first = [-2.0, 0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.5, 7.0, 20.0, 61.0, 100.0, INF, NAN]
    second = [-INF, -3.0, -2.5, -1.0, -0.5, 0.0, 1e-5, 0.3, 1.0, 2.0, 9.5, 30.0, 1e6, 1e10, INF, NAN]
    return [[a, b] for a in first for b in second]


BINARY = {
    "zeta": (torch.special.zeta, pairs),
    "xlog1py": (torch.special.xlog1py, pairs),
}


def _values(t):
    return [float(v) for v in t.detach().reshape(-1).tolist()]


def main():
    out = {"torch": torch.__version__, "unary": {}, "binary": {}}
    for name, (f, points) in UNARY.items():
        xs = points()
        x64 = torch.tensor(xs, dtype=torch.float64, requires_grad=True)
        y64 = f(x64)
        (g,) = torch.autograd.grad(y64.sum(), x64)
        y32 = f(torch.tensor(xs, dtype=torch.float32))
        out["unary"][name] = {"x": xs, "float64": _values(y64), "float32": _values(y32), "grad": _values(g)}
    for name, (f, points) in BINARY.items():
        ab = points()
        a = torch.tensor([p[0] for p in ab], dtype=torch.float64)
        b = torch.tensor([p[1] for p in ab], dtype=torch.float64, requires_grad=True)
        y64 = f(a, b)
        (g,) = torch.autograd.grad(y64.sum(), b)
        y32 = f(a.float(), b.detach().float())
        out["binary"][name] = {"x": ab, "float64": _values(y64), "float32": _values(y32), "grad_other": _values(g)}
    path = pathlib.Path(__file__).with_name("special.json")
    path.write_text(json.dumps(out, indent=None, separators=(",", ":")).replace('{"x"', '\n{"x"') + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
