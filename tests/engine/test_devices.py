"""The GPU seam: on a stand-in without a GPU, and on CuPy where there is one.

The `device` fixture (tests/support/cuda_fixtures.py) runs each test body on 'cpu'
(numpy), on a stand-in 'cuda' whose arrays are `fakecuda.FakeCudaArray` (an
ndarray subclass that refuses host arrays as CuPy does; see tests/support/fakecuda.py),
and on the real GPU through CuPy when CuPy is installed and sees a device
(skipped otherwise).
A result, a gradient or an optimiser update that slips off the device shows
up as an array of the wrong type (`on` checks the exact type) or as an error
from mixing host and device arrays.
"""
import importlib.util
import math

import numpy
import pytest

import autodiff.engine as ad
from autodiff.engine import backend as ad_backend
import fakecuda
from fakecuda import FakeCudaArray
from cuda_fixtures import cuda_array_type

HAVE_CUPY = importlib.util.find_spec("cupy") is not None


def on(t, device):
    """t lives on `device`: the right Device and the right array type."""
    assert isinstance(t, ad.Tensor), t
    if device == "cuda":
        assert t.device.type == "cuda" and t.is_cuda, t.device
        assert type(t.array) is cuda_array_type(), type(t.array)
    else:
        assert t.device.type == "cpu" and not t.is_cuda, t.device
        # numpy's 0-d results may stay numpy scalars (the engine's scalar fast path)
        assert type(t.array) is numpy.ndarray or (t.ndim == 0 and isinstance(t.array, numpy.generic)), \
            type(t.array)
    return True


def host(t):
    return t.detach().cpu().tolist()


def leaf(values, device, dtype=None):
    return ad.tensor(values, dtype=dtype, device=device, requires_grad=True)


# ------------------------------------------------------------------ creation

def test_creation_functions(device):
    made = [
        ad.tensor([1.0, 2.0], device=device),
        ad.tensor(3.0, device=device),
        ad.zeros(2, 3, device=device),
        ad.ones(2, device=device, requires_grad=True),
        ad.full((2, 2), 7.0, device=device),
        ad.eye(3, device=device),
        ad.arange(5, device=device),
        ad.linspace(0, 1, 5, device=device),
        ad.rand(2, device=device),
        ad.randn(2, 2, device=device),
    ]
    for t in made:
        assert on(t, device)
    x = made[0]
    for t in (ad.zeros_like(x), ad.ones_like(x), ad.full_like(x, 2.0), ad.randn_like(x), ad.rand_like(x)):
        assert on(t, device)
    assert made[0].tolist() == [1.0, 2.0]
    assert made[1].item() == 3.0
    assert made[5].tolist() == numpy.eye(3).tolist()


def test_device_attribute_and_alias(device):
    t = ad.ones(2, device=device)
    assert str(t.device) == ("cuda:0" if device == "cuda" else "cpu")
    assert t.device == device
    if device == "cuda":
        g = ad.ones(2, device="gpu")
        assert on(g, "cuda") and g.device is t.device
        assert ad.ones(1, device="cuda:0").device is t.device
        assert ad.ones(1, device=ad.device("gpu")).device is t.device


def test_repr_names_the_device(device):
    t = ad.tensor([1.0, 2.0], device=device, requires_grad=True)
    if device == "cuda":
        assert repr(t) == "tensor([1., 2.], device='cuda:0', requires_grad=True)"
        assert repr(t * 2) == "tensor([2., 4.], device='cuda:0', grad_fn=<MulBackward0>)"
    else:
        assert repr(t) == "tensor([1., 2.], requires_grad=True)"


# ------------------------------------------------------------------ forward and backward stay on the device

def test_seed_graph_on_device(device):
    w = leaf([1.0], device)
    x = leaf([2.0], device)
    a = w + x
    a.retain_grad()
    b = w + 1
    y = a * b
    for t in (a, b, y):
        assert on(t, device)
    y.backward()
    assert on(w.grad, device) and on(x.grad, device) and on(a.grad, device)
    assert (host(w.grad), host(x.grad), host(a.grad)) == ([5.0], [2.0], [2.0])


def test_elementwise_ops_backward(device):
    x = leaf([0.5, 1.0, 2.0], device)
    y = (x.exp() + x.log() + x.sqrt() + x.sin() + x.cos() + x.tanh() + x.sigmoid() + x.relu()
         + x.abs() + x ** 3 + 2 ** x + x / (x + 1) - x.clamp(0.6, 1.5)).sum()
    assert on(y, device)
    y.backward()
    assert on(x.grad, device)

    def d(v):
        s = 1 / (1 + math.exp(-v))
        return (math.exp(v) + 1 / v + 0.5 / math.sqrt(v) + math.cos(v) - math.sin(v) + 1 - math.tanh(v) ** 2
                + s * (1 - s) + 1 + 1 + 3 * v * v + 2 ** v * math.log(2) + 1 / (v + 1) ** 2
                - (1.0 if 0.6 < v < 1.5 else 0.0))

    assert host(x.grad) == pytest.approx([d(v) for v in (0.5, 1.0, 2.0)])


def test_broadcast_backward_on_device(device):
    a = leaf([[1.0], [2.0], [3.0]], device)
    b = leaf([[1.0, 2.0, 3.0, 4.0]], device)
    (a * b).sum().backward()
    assert on(a.grad, device) and on(b.grad, device)
    assert host(a.grad) == [[10.0]] * 3 and host(b.grad) == [[6.0] * 4]


def test_reductions_and_linear_algebra_on_device(device):
    x = leaf([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]], device)
    W = leaf([[1.0, 0.0, 2.0], [0.0, 1.0, 1.0]], device)
    bias = leaf([0.1, -0.1], device)
    parts = [
        x.sum(dim=1), x.mean(dim=0), x.max(), x.min(dim=1).values, x.prod(dim=0), x.norm(dim=1),
        x.softmax(dim=1), x.log_softmax(dim=0), x.logsumexp(dim=1),
        ad.linear(x, W, bias), x @ W.t(), ad.cat([x, x], dim=0), ad.stack([x, x]), x[:, 1:3], x[0],
        x.reshape(3, 2), x.unsqueeze(0).squeeze(0), x.transpose(0, 1), ad.where(x > 0, x, x * 2),
        ad.maximum(x, W), ad.minimum(x, W),
    ]
    total = None
    for p in parts:
        assert on(p, device)
        s = p.sum()
        total = s if total is None else total + s
    total.backward()
    for t in (x, W, bias):
        assert on(t.grad, device)
    assert host(bias.grad) == [2.0, 2.0]  # linear's bias gets one per row


def test_backward_with_weights_and_inputs(device):
    x = leaf([1.0, 2.0], device)
    y = leaf([3.0, 4.0], device)
    z = x * y
    z.backward(ad.tensor([1.0, 10.0], device=device), inputs=[x])
    assert on(x.grad, device) and y.grad is None
    assert host(x.grad) == [3.0, 40.0]


def test_grad_and_create_graph_on_device(device):
    x = leaf(2.0, device)
    y = x ** 4
    (g1,) = ad.grad(y, x, create_graph=True)
    assert on(g1, device) and g1.requires_grad
    (g2,) = ad.grad(g1, x, create_graph=True)
    (g3,) = ad.grad(g2, x)
    assert on(g2, device) and on(g3, device)
    assert (g1.item(), g2.item(), g3.item()) == (32.0, 48.0, 48.0)


def test_create_graph_through_backward_on_device(device):
    x = leaf([1.0, 2.0], device)
    (x ** 3).sum().backward(create_graph=True)
    g = x.grad
    assert on(g, device) and g.requires_grad
    x.grad = None
    g.sum().backward()
    assert on(x.grad, device) and host(x.grad) == [6.0, 12.0]


def test_hooks_see_device_tensors(device):
    x = leaf([1.0, 2.0], device)
    a = x * 3
    seen = []

    def hook(g):
        seen.append(g)
        return g * 2

    a.register_hook(hook)
    x.register_hook(lambda g: seen.append(g))
    a.sum().backward()
    assert len(seen) == 2 and all(on(g, device) for g in seen)
    assert host(x.grad) == [6.0, 6.0]


def test_inplace_and_setitem_on_device(device):
    a = leaf([1.0, 2.0, 3.0], device)
    v = leaf(5.0, device)
    b = a * 2
    b.mul_(2)
    b[1] = v * 3
    assert on(b, device) and b.grad_fn.name() == "torch::autograd::CopySlices"
    (b * ad.tensor([1.0, 2.0, 3.0], device=device)).sum().backward()
    assert on(a.grad, device) and on(v.grad, device)
    assert host(a.grad) == [4.0, 0.0, 12.0] and v.grad.item() == 6.0


def test_version_error_on_device(device):
    a = leaf([1.0, 3.0], device)
    b = a + 2
    loss = (b * b).mean()
    b[0] = 1000.0
    with pytest.raises(RuntimeError, match=r"\[torch\.DoubleTensor \[2\]\], which is output 0 of torch::autograd::CopySlices, "
                                           r"is at version 1; expected version 0"):
        loss.backward()


def test_float32_on_device(device):
    x = leaf([1.0, 2.0], device, dtype=ad.float32)
    (x * x).sum().backward()
    assert on(x.grad, device) and x.grad.dtype is ad.float32


def test_jacobian_and_hessian_on_device(device):
    x = leaf([1.0, 2.0], device)
    J = ad.jacobian(x ** 2, x)
    H = ad.hessian((x ** 3).sum(), x)
    assert on(J, device) and on(H, device)
    assert host(J) == [[2.0, 0.0], [0.0, 4.0]]
    assert host(H) == [[6.0, 0.0], [0.0, 12.0]]


def test_gradcheck_on_device(device):
    x = leaf([0.3, -0.2], device)
    assert ad.gradcheck(lambda t: (t * t).sin() + t.exp(), (x,)) is True


def test_long_chain_on_device(device):
    x = leaf(1.0, device)
    y = x
    for _ in range(2_000):
        y = y * 1.001
    y.backward()
    assert on(x.grad, device) and x.grad.item() == pytest.approx(1.001 ** 2000)


# ------------------------------------------------------------------ optimisers

@pytest.mark.parametrize("make, expected", [
    (lambda p: ad.SGD(p, lr=0.1), 0.64),
    (lambda p: ad.SGD(p, lr=0.1, momentum=0.9), 0.46),
    (lambda p: ad.SGD(p, lr=0.1, momentum=0.9, nesterov=True), 0.2224),
])
def test_sgd_on_device(device, make, expected):
    x = leaf([1.0], device)
    opt = make([x])
    for _ in range(2):
        opt.zero_grad()
        (x * x).sum().backward()
        opt.step()
    assert on(x, device) and x.is_leaf and x.requires_grad
    assert host(x) == pytest.approx([expected])


def test_adam_on_device(device):
    x = leaf([1.0, -1.0], device)
    opt = ad.Adam([x], lr=0.1)
    for _ in range(2):
        opt.zero_grad(set_to_none=False) if x.grad is not None else None
        (x * x).sum().backward()
        opt.step()
        assert on(x, device) and on(x.grad, device)
    assert host(x) == pytest.approx([0.80041, -0.80041], abs=1e-5)


def test_minimise_on_device(device):
    x = ad.tensor(0.0, device=device, requires_grad=True)
    opt = ad.SGD([x], lr=0.01)
    for _ in range(500):
        opt.zero_grad()
        (x ** 2 - 2 * x + 1).backward()
        opt.step()
    assert on(x, device) and x.item() == pytest.approx(1.0, abs=1e-4)


# ------------------------------------------------------------------ moving between devices

def test_cpu_to_cuda_round_trip_with_gradients(cuda):
    x = ad.tensor([1.0, 2.0], requires_grad=True)          # cpu leaf
    xc = x.to("cuda")
    assert on(xc, "cuda") and xc.grad_fn.name() == "ToCopyBackward0"
    yc = xc * xc * 3
    back = yc.cpu()
    assert on(back, "cpu")
    back.sum().backward()
    assert on(x.grad, "cpu") and host(x.grad) == [6.0, 12.0]


def test_cuda_to_cpu_round_trip_with_gradients(cuda):
    x = ad.tensor([1.0, 2.0], device="gpu", requires_grad=True)
    xh = x.cpu()
    assert on(xh, "cpu")
    y = (xh.exp() * ad.tensor([1.0, 2.0])).to("cuda")
    assert on(y, "cuda")
    y.sum().backward()
    assert on(x.grad, "cuda")
    assert host(x.grad) == pytest.approx([math.exp(1.0), 2 * math.exp(2.0)])


def test_round_trip_second_order(cuda):
    x = ad.tensor(1.5, requires_grad=True)
    y = (x.to("cuda") ** 3).cpu()
    (g,) = ad.grad(y, x, create_graph=True)
    assert on(g, "cpu") and g.item() == pytest.approx(3 * 1.5 ** 2)
    (h,) = ad.grad(g, x)
    assert on(h, "cpu") and h.item() == pytest.approx(6 * 1.5)


def test_tensor_of_a_device_array_stays_on_the_device(cuda):
    """A raw device array (CuPy's) makes a tensor on that device, as PyTorch takes one through
    __cuda_array_interface__: a copy, or moved where device= says."""
    raw = (ad.arange(3, device=cuda, dtype=ad.float64) * 2).array
    t = ad.tensor(raw)
    assert on(t, "cuda") and host(t) == [0.0, 2.0, 4.0] and t.dtype is ad.float64
    t.array[0] = 9.0
    assert host(ad.tensor(raw)) == [0.0, 2.0, 4.0]  # a copy
    assert on(ad.tensor(raw, device="cpu"), "cpu") and host(ad.tensor(raw, device="cpu")) == [0.0, 2.0, 4.0]
    assert ad.tensor(raw, dtype=ad.float32).dtype is ad.float32
    weights = ad.tensor([1.0, 2.0, 3.0], device=cuda, requires_grad=True)
    assert host(weights * raw) == [0.0, 4.0, 12.0]  # a backward formula's saved array as an operand


def test_to_same_device_is_identity(device):
    x = ad.ones(2, device=device)
    assert x.to(device) is x
    assert on(x.to(dtype=ad.float32), device)


def test_cuda_method_and_numpy(cuda):
    x = ad.tensor([1.0, 2.0])
    c = x.cuda()
    assert on(c, "cuda")
    with pytest.raises(TypeError, match="can't convert cuda:0 device type tensor to numpy"):
        c.numpy()
    assert numpy.asarray(c).tolist() == [1.0, 2.0]
    assert type(c.cpu().numpy()) is numpy.ndarray


def test_mixing_devices_is_an_error_naming_both(cuda):
    a = ad.ones(2)
    b = ad.ones(2, device="cuda")
    with pytest.raises(RuntimeError) as err:
        a + b
    message = str(err.value)
    assert "same device" in message and "cpu" in message and "cuda:0" in message
    x = ad.tensor(1.0, requires_grad=True)
    y = ad.tensor(1.0, device="cuda", requires_grad=True)
    with pytest.raises(RuntimeError, match="cuda:0"):
        ad.grad(x * 2, x, grad_outputs=ad.tensor(1.0, device="cuda"))
    with pytest.raises(RuntimeError, match="different device"):
        y.grad = ad.tensor(1.0)


def test_cuda_is_available_with_stand_in(fake_cuda):
    assert ad.cuda_is_available() is True


# ------------------------------------------------------------------ without a GPU

@pytest.mark.skipif(HAVE_CUPY, reason="cupy is installed: the real loader may work here")
def test_cuda_without_cupy_is_a_clear_device_error():
    for make in (lambda: ad.tensor([1.0], device="cuda"), lambda: ad.ones(2, device="gpu"),
                 lambda: ad.zeros(1).to("cuda"), lambda: ad.zeros(1).cuda()):
        with pytest.raises(ad.DeviceError, match="CuPy") as err:
            make()
        assert isinstance(err.value, RuntimeError)
        assert "device='cpu'" in str(err.value)


@pytest.mark.skipif(HAVE_CUPY, reason="cupy is installed: a GPU may be available")
def test_cuda_is_not_available_here():
    assert ad.cuda_is_available() is False


def test_fixture_restores_the_real_loader():
    previous = fakecuda.install()
    # (the stand-in's type by name: cuda_array_type() is the last fixture's, the real GPU's after a
    # real-GPU test -- as the whole suite on a GPU machine ran them)
    assert type(ad.ones(1, device="cuda").array) is FakeCudaArray
    fakecuda.uninstall(previous)
    assert ad_backend._loaders["cuda"] is previous
    if not HAVE_CUPY:
        with pytest.raises(ad.DeviceError):
            ad.ones(1, device="cuda")


def test_stand_in_refuses_host_arrays(fake_cuda):
    """The stand-in is strict, as CuPy is (a check of the test tool itself)."""
    dev = ad.ones(2, device="cuda").array
    with pytest.raises(fakecuda.HostArrayError):
        dev + numpy.ones(2)
    assert type(dev + 1.0) is FakeCudaArray
    assert type(dev.sum()) is FakeCudaArray
