"""Regenerate tests/golden/kernels.json: erf and erfc at 2,400 points and erfinv at 1,300,
computed with 120-bit arithmetic by mpmath and rounded to double -- the exact values
engine/kernels.py's vectorised erf, erfc and erfinv are measured against (tests/engine/test_kernels.py).

Run with a Python that has mpmath (`pip install mpmath`; not a dependency of the test
suite):

    python tests/golden/gen_kernels.py
"""
import json
import pathlib
import random

import mpmath

mpmath.mp.prec = 120


def points():
    rng = random.Random(2026)
    spans = [(-0.5, 0.5, 400), (-3, 3, 600), (-6, 6, 500), (0, 27.3, 600), (-1e-6, 1e-6, 100), (26, 27.3, 200)]
    xs = [rng.uniform(lo, hi) for lo, hi, n in spans for _ in range(n)]
    # the seams: where the series hands over to the centres, and the centres' own edges
    xs += [0.5, -0.5, 0.4999999999999999, 0.5000000000000001, 2.0, 1.9999999999999998, 27.25, 0.5625, 0.5624999999999999]
    return xs


def inverse_points():
    """erfinv's arguments: the open interval, its centre, and 1 - y from 1e-1 down to one unit."""
    rng = random.Random(2027)
    ys = [rng.uniform(-1, 1) for _ in range(800)] + [rng.uniform(-1e-3, 1e-3) for _ in range(100)]
    ys += [s * (1 - 10 ** rng.uniform(-16, -1)) for s in (1, -1) for _ in range(200)]
    ys += [0.5, -0.5, 0.5000000000000001, 1 - 2 ** -53, -(1 - 2 ** -53), 1e-300, 5e-324]
    return ys


def main():
    xs = points()
    cases = [[x, float(mpmath.erf(mpmath.mpf(x))), float(mpmath.erfc(mpmath.mpf(x)))] for x in xs]
    inverse = [[y, float(mpmath.erfinv(mpmath.mpf(y)))] for y in inverse_points()]
    path = pathlib.Path(__file__).with_name("kernels.json")
    lines = ",\n".join(json.dumps(c) for c in cases)
    inverse_lines = ",\n".join(json.dumps(c) for c in inverse)
    path.write_text(f'{{"mpmath": {json.dumps(mpmath.__version__)}, "bits": 120, "erf_erfc": [\n{lines}\n],\n'
                    f'"erfinv": [\n{inverse_lines}\n]}}\n')
    print(f"wrote {len(cases)} + {len(inverse)} points to {path}")


if __name__ == "__main__":
    main()
