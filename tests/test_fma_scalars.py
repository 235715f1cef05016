"""engine/fma.fma on scalars (exact integer arithmetic) against its array emulation, which
tests/test_fused.py checks against PyTorch's fused kernels, and against IEEE 754's fma by hand."""
import math
import random
import struct

import numpy as np

from autodiff.engine.fma import fma


def _same(x, y):
    return struct.pack("<d", x) == struct.pack("<d", y) or (math.isnan(x) and math.isnan(y))


def test_scalars_round_as_the_array_emulation_does():
    rng = random.Random(11)
    triples = []
    for i in range(5000):
        a = rng.uniform(-2, 2) * 10.0 ** rng.randint(-30, 30)
        b = rng.uniform(-2, 2) * 10.0 ** rng.randint(-30, 30)
        # every third c nearly cancels a * b: there the single rounding shows
        c = -(a * b) * (1 + rng.uniform(-1e-15, 1e-15)) if i % 3 == 0 else rng.uniform(-2, 2) * 10.0 ** rng.randint(-60, 60)
        triples.append((a, b, c))
    arrays = fma(*(np.array(column) for column in zip(*triples)))
    for (a, b, c), expected in zip(triples, arrays.tolist()):
        got = fma(np.float64(a), np.float64(b), np.float64(c))
        assert got.__class__ is np.float64
        assert _same(float(got), expected), (a, b, c)


def test_scalar_edge_cases_by_hand():
    one_third = 1 / 3
    # 3 * (1/3) - 1 is exactly -2**-54 when rounded once (twice, it is 0)
    assert float(fma(np.float64(3.0), np.float64(one_third), np.float64(-1.0))) == -2.0 ** -54
    assert float(fma(np.float64(1e308), np.float64(10.0), np.float64(-1e308))) == math.inf
    assert math.isnan(float(fma(np.float64(math.nan), np.float64(1.0), np.float64(0.0))))
    assert _same(float(fma(np.float64(-0.0), np.float64(1.0), np.float64(-0.0))), -0.0)  # IEEE: -0 + -0 is -0
    assert _same(float(fma(np.float64(1.0), np.float64(-1.0), np.float64(1.0))), 0.0)
