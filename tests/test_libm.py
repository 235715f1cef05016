"""engine/libm.py: a 0-d float64 through Python's math gives numpy's own bits, or numpy does the work.

The reference is numpy's ufunc on an array of the same values (what an n-d tensor gets), compared
bit for bit; the self-check is shown to refuse a function that differs in one place."""
import math
import random

import numpy as np
import pytest

import autodiff.engine as E
from autodiff.engine.libm import _agree, libm_forward

NAMES = ("sin", "cos", "exp", "log", "sqrt")


def _values(seed, n=4000):
    rng = random.Random(seed)
    out = []
    for i in range(n):
        kind = i % 4
        if kind == 0:
            out.append(rng.uniform(-50, 50))
        elif kind == 1:
            out.append(rng.uniform(-1, 1) * 10.0 ** rng.randint(-320, 308))
        elif kind == 2:
            out.append(rng.uniform(-750, 720))
        else:
            out.append(rng.choice([0.0, -0.0, math.inf, -math.inf, math.nan, 5e-324, 1e300, -1.0, 1.0]))
    return out


def _bits(v):
    return np.float64(v).view(np.int64)


@pytest.mark.parametrize("name", NAMES)
def test_each_float64_has_the_bits_of_the_ufunc_over_an_array(name):
    forward = libm_forward(name)
    values = _values(hash(name) % 1000)
    with np.errstate(all="ignore"):
        expected = getattr(np, name)(np.array(values))
        for v, e in zip(values, expected):
            got = forward(np, np.float64(v))
            assert got.__class__ is np.float64
            assert _bits(got) == _bits(e) or (math.isnan(got) and math.isnan(e)), (name, v, got, e)


@pytest.mark.parametrize("name", NAMES)
def test_a_0d_tensor_and_an_nd_tensor_agree_in_the_engine(name):
    values = [v for v in _values(7) if math.isfinite(v)][:500]
    nd = getattr(E, name)(E.tensor(values, dtype=E.float64)).numpy()
    for v, e in zip(values, nd):
        got = getattr(E, name)(E.tensor(v, dtype=E.float64)).item()
        assert _bits(got) == _bits(e) or (math.isnan(got) and math.isnan(e)), (name, v)


def test_outside_maths_domain_numpy_answers():
    with np.errstate(all="ignore"):
        assert math.isnan(libm_forward("sin")(np, np.float64(math.inf)))
        assert libm_forward("exp")(np, np.float64(1000.0)) == math.inf
        assert libm_forward("log")(np, np.float64(0.0)) == -math.inf
        assert math.isnan(libm_forward("log")(np, np.float64(-1.0)))
        assert math.isnan(libm_forward("sqrt")(np, np.float64(-4.0)))
    assert _bits(libm_forward("sin")(np, np.float64(-0.0))) == _bits(-0.0)  # the sign of zero kept


def test_the_self_check_refuses_a_function_one_ulp_off_somewhere():
    def off_by_one_ulp_near_one(v):
        y = math.sin(v)
        return math.nextafter(y, math.inf) if 0.9 < v < 1.1 else y

    assert _agree(math.sin, np.sin)
    assert not _agree(off_by_one_ulp_near_one, np.sin)


def _module_counting_calls(calls):
    class Module:  # a stand-in array module: which path ran shows in `calls`
        @staticmethod
        def sin(x):
            calls.append(x)
            return np.sin(x)
    return Module


def test_math_takes_a_float64_where_it_agrees_and_the_module_the_rest():
    calls = []
    forward = libm_forward("sin")
    forward(_module_counting_calls(calls), np.float64(0.5))
    assert calls == []  # numpy agrees with math on this machine (the first test shows it): math did it
    forward(_module_counting_calls(calls), np.float32(0.5))  # not a float64
    forward(_module_counting_calls(calls), np.array([0.5]))
    assert len(calls) == 2


def test_where_the_check_fails_the_module_does_every_float64(monkeypatch):
    import autodiff.engine.libm as libm
    monkeypatch.setattr(libm, "_agree", lambda fast, ufunc: False)
    calls = []
    forward = libm_forward("sin")
    for v in (0.5, 1.5):
        assert forward(_module_counting_calls(calls), np.float64(v)) == np.sin(np.float64(v))
    assert len(calls) == 2
