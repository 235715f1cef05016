"""F.fractional_max_pool2d/3d and nn.FractionalMaxPool2d/3d (engine/ops/fractional_pool.py,
engine/nn/functional_pools.py): against a plain loop over every window written from PyTorch's
interval formula (start_i = int((i + u) alpha) - int(u alpha), alpha = (n - k) / (out - 1), the last
n - k), against PyTorch 2.13's own values, indices and gradients on fixed samples
(tests/golden/nn_ctc_fractional.json, written by tests/golden/gen_nn_ctc_fractional.py), and its
node names, layers and messages."""
import json

import numpy as np
import pytest

import autodiff.engine as ad
import locations
from fractional_reference import loop_pool, loop_starts

F = ad.nn.functional
GOLDEN = json.loads((locations.GOLDEN / "nn_ctc_fractional.json").read_text())["fractional"]


@pytest.mark.parametrize("shape, kernel, out", [
    ((2, 3, 7, 9), (2, 3), (3, 4)), ((1, 2, 8, 8), (3, 2), (6, 7)), ((2, 1, 5, 6), (2, 2), (1, 2)),
    ((1, 2, 6, 7, 8), (2, 2, 3), (3, 4, 3)), ((2, 1, 5, 5, 5), (1, 2, 2), (4, 3, 2))])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_against_a_loop_over_every_window(shape, kernel, out, dtype):
    rng = np.random.default_rng(sum(shape))
    x = rng.standard_normal(shape).astype(dtype)
    x.reshape(-1)[::7] = x.reshape(-1)[1]  # ties
    u = rng.uniform(0, 1, (shape[0], shape[1], len(kernel))).astype(dtype)
    fn = F.fractional_max_pool2d if len(kernel) == 2 else F.fractional_max_pool3d
    y, idx = fn(ad.tensor(x), kernel, output_size=out, return_indices=True, _random_samples=ad.tensor(u))
    want, where = loop_pool(x, u, kernel, out)
    np.testing.assert_array_equal(idx.numpy(), where)
    np.testing.assert_array_equal(y.numpy(), want)


def test_nan_wins_and_the_last_nan_is_taken():
    x = np.array([[[[1.0, np.nan, 3.0], [np.nan, 2.0, 0.0], [5.0, 1.0, 1.0]]]])
    y, idx = F.fractional_max_pool2d(ad.tensor(x), 2, output_size=2, return_indices=True,
                                     _random_samples=ad.zeros(1, 1, 2, dtype=ad.float64))
    assert idx.numpy().tolist() == [[[[3, 1], [3, 4]]]]  # PyTorch's
    np.testing.assert_array_equal(y.numpy(), loop_pool(x, np.zeros((1, 1, 2)), (2, 2), (2, 2))[0])


@pytest.mark.parametrize("case", range(len(GOLDEN)), ids=lambda k: f"{GOLDEN[k]['dims']}d-{GOLDEN[k]['dtype']}-{k}")
def test_pytorchs_values_indices_and_gradient(case):
    c = GOLDEN[case]
    dt = getattr(ad, c["dtype"])
    x = ad.tensor(np.array(c["input"]).reshape(c["shape"]), dtype=dt, requires_grad=True)
    batch = c["shape"][0] if len(c["shape"]) == c["dims"] + 2 else 1
    u = ad.tensor(np.array(c["samples"]).reshape(batch, c["shape"][-c["dims"] - 1], c["dims"]), dtype=dt)
    fn = F.fractional_max_pool2d if c["dims"] == 2 else F.fractional_max_pool3d
    y, idx = fn(x, c["kernel"], output_size=c["size"], return_indices=True, _random_samples=u)
    assert y.grad_fn.name() == c["node"]
    np.testing.assert_array_equal(idx.numpy().reshape(-1), c["indices"])
    np.testing.assert_array_equal(y.detach().numpy().reshape(-1), np.array(c["out"], dtype=c["dtype"]))
    cot = ad.tensor(np.array(c["cotangent"]).reshape(tuple(y.shape)), dtype=dt)
    (g,) = ad.autograd.grad(y, x, cot)
    np.testing.assert_allclose(g.numpy().reshape(-1), c["grad"], rtol=1e-6 if c["dtype"] == "float32" else 1e-15)


def test_second_order_node_and_derivative():
    x = ad.tensor(np.random.default_rng(0).standard_normal((1, 2, 6, 6)), requires_grad=True)
    u = ad.tensor(np.full((1, 2, 2), 0.3))
    y = F.fractional_max_pool2d(x, 2, output_size=3, _random_samples=u)
    w = ad.tensor(np.random.default_rng(1).standard_normal((1, 2, 3, 3)), requires_grad=True)
    (g,) = ad.autograd.grad(y, x, w, create_graph=True)
    assert g.grad_fn.name() == "FractionalMaxPool2DBackwardBackward0"
    (gw,) = ad.autograd.grad((g * x).sum(), w)  # d/dw of <pool^T w, x> = pool(x)
    np.testing.assert_array_equal(gw.numpy(), y.detach().numpy())


def test_unbatched_and_output_ratio():
    x = np.random.default_rng(2).standard_normal((3, 8, 10))
    u = np.random.default_rng(3).uniform(0, 1, (1, 3, 2))
    y = F.fractional_max_pool2d(ad.tensor(x), 2, output_ratio=(0.5, 0.7), _random_samples=ad.tensor(u))
    assert y.shape == (3, 4, 7)
    np.testing.assert_array_equal(y.numpy(), loop_pool(x[None], u, (2, 2), (4, 7))[0][0])


def test_drawn_samples_give_valid_windows():
    x = ad.tensor(np.random.default_rng(4).standard_normal((2, 3, 9, 9)))
    y, idx = F.fractional_max_pool2d(x, 3, output_size=5, return_indices=True)
    flat = x.numpy().reshape(2, 3, -1)
    np.testing.assert_array_equal(np.take_along_axis(flat, idx.numpy().reshape(2, 3, -1), -1).reshape(y.shape),
                                  y.numpy())


def test_layers():
    u = ad.tensor(np.random.default_rng(5).uniform(0, 1, (2, 3, 3)))
    layer = ad.nn.FractionalMaxPool3d(2, output_size=3, return_indices=True, _random_samples=u)
    x = ad.tensor(np.random.default_rng(6).standard_normal((2, 3, 6, 7, 8)))
    y, idx = layer(x)
    y2, idx2 = F.fractional_max_pool3d(x, 2, output_size=3, return_indices=True, _random_samples=u)
    np.testing.assert_array_equal(idx.numpy(), idx2.numpy())
    assert "_random_samples" in dict(layer.named_buffers())
    assert ad.nn.FractionalMaxPool2d(2, output_ratio=0.5).output_ratio == (0.5, 0.5)


@pytest.mark.parametrize("call, error, message", [
    (lambda: ad.nn.FractionalMaxPool2d(2), ValueError,
     "FractionalMaxPool2d requires specifying either an output size, or a pooling ratio"),
    (lambda: ad.nn.FractionalMaxPool2d(2, output_ratio=1.0), ValueError, r"output_ratio must be between 0 and 1 \(got 1.0\)"),
    (lambda: ad.nn.FractionalMaxPool3d(0, output_size=2), ValueError, "kernel_size must be greater than 0, but got 0"),
    (lambda: F.fractional_max_pool2d(ad.zeros(2, 3, 7, 9, dtype=ad.float64), 2), ValueError,
     "fractional_max_pool2d requires specifying either an output_size or an output_ratio"),
    (lambda: F.fractional_max_pool2d(ad.zeros(2, 3, 7, 9, dtype=ad.float64), 3, output_size=(6, 4),
                                     _random_samples=ad.zeros(2, 3, 2, dtype=ad.float64)), RuntimeError,
     r"fractional_max_pool2d\(\): pool height 3 too large relative to input height 7"),
    (lambda: F.fractional_max_pool3d(ad.zeros(2, 3, 6, 7, 8, dtype=ad.float64), 2, output_size=(5, 6, 7),
                                     _random_samples=ad.zeros(2, 3, 3, dtype=ad.float64)), RuntimeError,
     r"fractional_max_pool3d_out\(\): pool time 2 too large relative to input time 6"),
    (lambda: F.fractional_max_pool2d(ad.zeros(2, 3, 7, 9, dtype=ad.float64), 2, output_size=3,
                                     _random_samples=ad.zeros(2, 3, 2, dtype=ad.float32)), RuntimeError,
     "Expect _random_samples to have the same dtype as input"),
    (lambda: F.fractional_max_pool2d(ad.zeros(2, 3, 7, 9, dtype=ad.float64), 2, output_size=3,
                                     _random_samples=ad.zeros(1, 3, 2, dtype=ad.float64)), RuntimeError,
     r"Expect _random_samples.size\(0\) no less then input batch size."),
    (lambda: F.fractional_max_pool2d(ad.zeros(2, 3, 7, 9, dtype=ad.float64), 2, output_size=3,
                                     _random_samples=ad.zeros(2, 3, 3, dtype=ad.float64)), RuntimeError,
     r"Expect _random_samples.size\(2\) equals to 2; got 3."),
    (lambda: F.fractional_max_pool2d(ad.zeros(2, 0, 7, 9, dtype=ad.float64), 2, output_size=3,
                                     _random_samples=ad.zeros(2, 0, 2, dtype=ad.float64)), RuntimeError,
     r"Expected input to have non-zero size for non-batch dimensions, but got\[2, 0, 7, 9\] with dimension 1"),
    (lambda: F.fractional_max_pool2d(ad.zeros(7, 9, dtype=ad.float64), 2, output_size=3,
                                     _random_samples=ad.zeros(1, 7, 2, dtype=ad.float64)), RuntimeError,
     r"fractional_max_pool2d\(\): Expected 3D or 4D tensor, but got: \[7, 9\]"),
    (lambda: F.fractional_max_pool2d(ad.zeros(2, 3, 7, 9, dtype=ad.int64), 2, output_size=3,
                                     _random_samples=ad.zeros(2, 3, 2, dtype=ad.int64)), NotImplementedError,
     "\"fractional_max_pool2d_out_frame\" not implemented for 'Long'"),
])
def test_errors_in_pytorchs_words(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_interval_formula_uses_the_inputs_float_type():
    from autodiff.engine.ops.fractional_pool import interval_starts
    for dtype in ("float32", "float64"):
        u = np.linspace(0, 0.999, 37).astype(dtype)
        got = interval_starts(np, u, 97, 5, 29)
        want = np.array([loop_starts(v, 97, 5, 29, dtype) for v in u])
        np.testing.assert_array_equal(got, want)
