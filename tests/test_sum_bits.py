"""Sums and means over dims, and var/std, bit for bit as PyTorch 2.13 computes them (tests/golden/sum_bits.json,
written by tests/golden/gen_sum_bits.py), and gradients summed back over broadcast dims (a
bias's gradient) the same way."""
import json
import pathlib

import pytest

import autodiff.engine as ad
from tests.golden.gen_sum_bits import BROADCASTS, CASES, LOGSUMEXP, NORMS, SPREADS, values

GOLDEN = json.loads(pathlib.Path(__file__).with_name("golden").joinpath("sum_bits.json").read_text())


def _bits(t):
    return [float(v).hex() for v in t.reshape(-1).tolist()]


@pytest.mark.parametrize("case", GOLDEN["sums"], ids=lambda c: f"{CASES[c['case']]}-{c['dtype']}")
def test_sum_and_mean_over_dims(case):
    shape, dims = CASES[case["case"]]
    x = ad.tensor(values(shape, case["case"]), dtype=getattr(ad, case["dtype"])).reshape(shape)
    assert _bits(x.sum(dim=dims)) == case["sum"]
    assert _bits(x.mean(dim=dims)) == case["mean"]


@pytest.mark.parametrize("k", range(len(BROADCASTS)))
def test_gradient_summed_over_broadcast_dims(k):
    shape, bshape = BROADCASTS[k]
    a = ad.tensor(values(shape, 100 + k)).reshape(shape)
    w = ad.tensor(values(shape, 200 + k)).reshape(shape)
    b = ad.tensor(values(bshape, 300 + k)).reshape(bshape).requires_grad_()
    ((a + b) * w).sum().backward()
    assert _bits(b.grad) == GOLDEN["broadcasts"][k]["grad"]


@pytest.mark.parametrize("k", range(len(SPREADS)))
def test_var_and_std(k):
    shape, dtype, kwargs = SPREADS[k]
    x = ad.tensor(values(shape, 500 + k), dtype=getattr(ad, dtype)).reshape(shape)
    want = GOLDEN["spreads"][k]
    assert (_bits(x.var(**kwargs)), _bits(x.std(**kwargs))) == (want["var"], want["std"])


@pytest.mark.parametrize("k", range(len(LOGSUMEXP)))
def test_logsumexp(k):
    shape, dims = LOGSUMEXP[k]
    x = ad.tensor(values(shape, 700 + k)).reshape(shape)
    assert _bits(ad.logsumexp(x, dims)) == GOLDEN["logsumexp"][k]


@pytest.mark.parametrize("k", range(len(NORMS)))
def test_vector_norms(k):
    shape, dtype, p, dim = NORMS[k]
    x = ad.tensor(values(shape, 800 + k), dtype=getattr(ad, dtype)).reshape(shape)
    assert _bits(x.norm(p=p, dim=dim)) == GOLDEN["norms"][k]
