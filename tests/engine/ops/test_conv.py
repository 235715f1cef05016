"""conv1d, conv2d, max_pool2d, avg_pool2d, adaptive_avg_pool2d, batch_norm, dropout2d and their
layers against PyTorch 2.13's own output: tests/golden/conv.json, recorded by
tests/golden/gen_conv.py from the programs of tests/golden/conv_cases.py.

As tests/engine/ops/test_functional_ops.py: each case's outputs (running statistics included), node and
next functions' names, warnings, first and second derivatives, each bad call's exception type
and message, and what each layer prints as. Values are compared within RTOL of PyTorch's, not
bit for bit: PyTorch's convolution and batch-norm kernels sum in their own orders (oneDNN/MKL
blocks, vectorized reductions); ours are numpy's matmul and pairwise sums."""
import json

import numpy as np
import pytest

import autodiff.engine as ad

from conv_cases import CASES, ERRORS, REPRS
from functional_ops_cases import record, run_error
from test_functional_ops import assert_as_pytorch, namespace, _floats
import locations

GOLDEN = json.loads((locations.GOLDEN / "conv.json").read_text())
RTOL = 1e-12  # relative to the largest magnitude of the tensor (sums of terms that cancel)
# {name: {"grad" | "grad2": atol}}: values that are 0 in exact arithmetic, PyTorch's rounding noise
ATOL = {
    # the conv bias feeds a batch norm, which takes every per-channel constant away: its gradient
    # is 0, PyTorch's ~1e-16 from the order of its sums
    "cnn_step": {"grad": 1e-15, "grad2": 1e-14},
}
# PyTorch's first derivative depends on x (a node of its own) with no second derivative there,
# so its grad2 is [None]; ours does not depend on x at all, so there is no grad2: the same nothing
NO_SECOND_ORDER = {"batch_norm2d_module_cumulative_then_eval"}


def _close(got, want, what, atol=0.0):
    if want is None:
        assert got is None, f"{what}: PyTorch has None"
        return
    assert got is not None, f"{what}: PyTorch has a tensor"
    assert (got["dtype"], got["shape"]) == (want["dtype"], want["shape"]), what
    if "float" not in want["dtype"]:
        assert got["values"] == want["values"], what
        return
    g, w = _floats(got["values"]), _floats(want["values"])
    assert (np.isnan(g) == np.isnan(w)).all(), f"{what}: NaN in different places"
    ok = ~np.isnan(w)
    scale = np.max(np.abs(w[ok]), initial=0.0)
    gap = np.max(np.abs(g[ok] - w[ok]), initial=0.0)
    assert gap <= max(RTOL * scale, atol), f"{what}: {gap} from PyTorch's (largest magnitude {scale})"


@pytest.mark.parametrize("name, program", CASES, ids=[name for name, _ in CASES])
def test_as_pytorch(name, program):
    want = GOLDEN["cases"][name]
    got = record(program, namespace())
    atol = ATOL.get(name, {})
    assert_as_pytorch(got, want, lambda kind, g, w, what: _close(g, w, what, atol.get(kind, 0.0)),
                      second_order=name not in NO_SECOND_ORDER)
    if name in NO_SECOND_ORDER:
        assert got.get("grad2") is None and all(g is None for g in want["grad2"])
    else:
        assert ("grad2" in got) == ("grad2" in want)


@pytest.mark.parametrize("name, program", ERRORS, ids=[name for name, _ in ERRORS])
def test_bad_calls_as_pytorch(name, program):
    assert run_error(program, namespace()) == GOLDEN["errors"][name]


@pytest.mark.parametrize("name, program", REPRS, ids=[name for name, _ in REPRS])
def test_prints_as_pytorch(name, program):
    ns = namespace()
    exec(program, ns)
    assert ns["text"] == GOLDEN["reprs"][name]


def test_the_golden_file_has_every_case():
    assert set(GOLDEN["cases"]) == {name for name, _ in CASES}
    assert set(GOLDEN["errors"]) == {name for name, _ in ERRORS}
    assert set(GOLDEN["reprs"]) == {name for name, _ in REPRS}


def test_dropout2d_zeroes_whole_channels_and_scales_the_rest():
    ad.manual_seed(1)
    x = ad.ones(3, 8, 2, 2, requires_grad=True)
    y = ad.nn.functional.dropout2d(x, 0.5)
    planes = y.detach().reshape(24, 4).numpy()
    assert set(np.unique(planes)) <= {0.0, 2.0}
    assert (planes.min(axis=1) == planes.max(axis=1)).all()  # a channel is kept or dropped whole
    assert 0 < (planes[:, 0] == 0).sum() < 24
    y.sum().backward()
    assert np.array_equal(x.grad.reshape(24, 4).numpy(), planes)


def test_a_small_cnn_trains_through_the_language(cli):
    # the output PyTorch 2.13 prints for this program (float32, the language's default, as PyTorch's):
    # seeded conv and linear weights, batch norm's running statistics, three SGD steps
    program = (locations.GOLDEN / "conv_cnn_program.ad").read_text()
    assert cli.run_ok(program) == (
        "1.336089 NllLossBackward0\n"
        "0.805992 NllLossBackward0\n"
        "0.641167 NllLossBackward0\n"
        "3 [-0.054365, 0.076817, 0.040896, 0.041095]\n"
        "torch.Size([4, 1, 3, 3]) torch.Size([4, 1, 3, 3]) torch.Size([4, 1, 1, 1])\n")
