"""Regenerate tests/golden/kernels.json: erf and erfc at 2,400 points, computed with 120-bit
arithmetic by mpmath and rounded to double -- the exact values engine/kernels.py's vectorised
erf and erfc are measured against (tests/test_kernels.py).

Run with a Python that has mpmath (not needed by the test suite):

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


def main():
    xs = points()
    cases = [[x, float(mpmath.erf(mpmath.mpf(x))), float(mpmath.erfc(mpmath.mpf(x)))] for x in xs]
    path = pathlib.Path(__file__).with_name("kernels.json")
    lines = ",\n".join(json.dumps(c) for c in cases)
    path.write_text(f'{{"mpmath": {json.dumps(mpmath.__version__)}, "bits": 120, "erf_erfc": [\n{lines}\n]}}\n')
    print(f"wrote {len(cases)} points to {path}")


if __name__ == "__main__":
    main()
