"""The modules of engine/nn/modules_more.py against PyTorch (tests/golden/nn_more_modules.json, made
by gen_nn_more_modules.py): printing, outputs and input gradients on fixed inputs (initial weights
PyTorch's for the same seed), messages of bad calls; the dropout layers' training behaviour by
hand (their draws are the engine's); ParameterDict as a container; and the new names from a
program."""

import numpy
import pytest

import autodiff.engine as torch
from autodiff.engine import nn
from nn_checks import golden, golden_call_tests
from tolerance import assert_close

GOLDEN = golden("nn_more_modules.json")
test_bad_call_raises_pytorchs_error, test_prints_as_pytorch = golden_call_tests(GOLDEN, globals())


def _input(shape, scale, offset):
    n = int(numpy.prod(shape))
    return (scale * torch.sin(torch.arange(float(n)) + offset)).reshape(shape).requires_grad_()


@pytest.mark.parametrize("case", GOLDEN["modules"], ids=[c["source"] for c in GOLDEN["modules"]])
def test_module_against_pytorch(case):
    torch.manual_seed(0)
    m = eval(case["source"])
    assert repr(m) == case["repr"]
    xs = [_input(s, case["scale"], 7 * i) for i, s in enumerate(case["shapes"])]
    with numpy.errstate(invalid="ignore"):  # LPPool's x^p of a negative x: NaN, as PyTorch's
        y = m(*xs)
    assert list(y.shape) == case["output_shape"]
    assert_close(y.detach().numpy(), numpy.array(case["output"]), what=case["source"])
    weights = torch.cos(torch.arange(float(y.numel()))).reshape(y.shape)
    (y * weights).sum().backward()
    for x, want in zip(xs, case["grads"]):
        assert_close(x.grad.numpy(), numpy.array(want), what=case["source"] + " grad")
    state = m.state_dict()
    assert list(state) == list(case["state"])
    for name, want in case["state"].items():
        assert_close(state[name].numpy(), numpy.array(want), dtype=state[name].numpy().dtype, what=name)


def test_nllloss2d_warns_and_is_nllloss():
    with pytest.warns(FutureWarning, match="`NLLLoss2d` has been deprecated"):
        loss = nn.NLLLoss2d()
    logp = torch.log_softmax(_input((2, 3, 2, 2), 1, 0), 1)
    target = torch.tensor([[[0, 1], [2, 0]], [[1, 1], [0, 2]]])
    assert_close(loss(logp, target).detach().numpy(), nn.NLLLoss()(logp, target).detach().numpy())


@pytest.mark.parametrize("make, shape, per_channel", [
    (lambda: nn.Dropout1d(0.5), (40, 30, 6), True), (lambda: nn.Dropout3d(0.5), (30, 40, 2, 2, 2), True)])
def test_channel_dropout_zeroes_whole_channels_and_scales_the_rest(make, shape, per_channel):
    torch.manual_seed(1)
    m = make()
    x = torch.ones(*shape)
    y = m(x).numpy()
    flat = y.reshape(shape[0], shape[1], -1)
    assert ((flat == 0).all(-1) | (flat == 2.0).all(-1)).all()  # each channel all dropped or all kept (x 1/(1-p))
    assert 0.4 < (flat[..., 0] == 0).mean() < 0.6
    unbatched = m(torch.ones(*shape[1:])).numpy().reshape(shape[1], -1)
    assert ((unbatched == 0).all(-1) | (unbatched == 2.0).all(-1)).all()
    assert m.eval()(x) is x


def test_alpha_dropout_keeps_mean_and_variance():
    torch.manual_seed(2)
    x = torch.randn(200000)
    y = nn.AlphaDropout(0.3)(x).numpy()
    assert abs(y.mean()) < 0.02 and abs(y.std() - 1) < 0.02
    a = 1 / numpy.sqrt((1.7580993408473766 ** 2 * 0.3 + 1) * 0.7)
    dropped = numpy.isclose(y, -1.7580993408473766 * a * 0.7)  # the one value every dropped element takes
    assert 0.28 < dropped.mean() < 0.32
    z = nn.FeatureAlphaDropout(0.5)(torch.randn(50, 40, 3)).numpy()
    assert (numpy.ptp(z - z[..., :1], axis=-1)[numpy.isclose(z[..., 0], z[..., 1]) & numpy.isclose(z[..., 1], z[..., 2])]
            == 0).all()
    with torch.no_grad():
        assert (nn.AlphaDropout(1.0)(x).numpy() == 0).all()


def test_rrelu_in_training_scales_negatives_within_its_bounds():
    torch.manual_seed(3)
    x = -torch.ones(1000)
    y = nn.RReLU(0.1, 0.3)(x).numpy()
    assert ((-y >= 0.1) & (-y <= 0.3)).all() and numpy.ptp(y) > 0.1
    assert (nn.RReLU()(torch.ones(5)).numpy() == 1).all()


def test_parameter_dict_registers_its_tensors():
    d = nn.ParameterDict({"a": torch.ones(2)})
    d["b"] = nn.Parameter(torch.zeros(3))
    d.update([("c", torch.ones(1))])
    assert list(d) == ["a", "b", "c"] and len(d) == 3 and "b" in d
    assert isinstance(d["a"], nn.Parameter) and d["a"].requires_grad
    assert [n for n, _ in d.named_parameters()] == ["a", "b", "c"]
    assert d.pop("b").shape == (3,) and list(d.keys()) == ["a", "c"]
    assert d.get("zz") is None and d.setdefault("e", torch.ones(1)) is d["e"]

    class Holder(nn.Module):
        def __init__(self):
            super().__init__()
            self.p = nn.ParameterDict({"w": torch.ones(2)})

    assert [n for n, _ in Holder().named_parameters()] == ["p.w"]


def test_bilinear_equals_its_formula():
    m = nn.Bilinear(3, 4, 2)
    x1, x2 = _input((5, 3), 1, 0), _input((5, 4), 1, 3)
    want = numpy.einsum("bi,oij,bj->bo", x1.detach().numpy(), m.weight.detach().numpy(), x2.detach().numpy())
    assert_close(m(x1, x2).detach().numpy(), want + m.bias.detach().numpy())


def test_new_modules_from_a_program(cli):
    out = cli.run_ok("""
        net = nn.Sequential(nn.ZeroPad1d(1), nn.Hardtanh(-0.5, 0.5), nn.PixelShuffle(1), nn.Softmin(dim=-1))
        print(net(torch.tensor([[[1.0, -2.0]]])))
        print(nn.Bilinear(2, 2, 1))
    """)
    assert out == ("tensor([[[0.2350, 0.1425, 0.3875, 0.2350]]])\n"
                   "Bilinear(in1_features=2, in2_features=2, out_features=1, bias=True)\n")


def test_buffer_assigned_to_a_layer_is_registered():
    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.kept = nn.Buffer(torch.zeros(2))
            self.scratch = nn.Buffer(torch.ones(1), persistent=False)

    m = M()
    assert [n for n, _ in m.named_buffers()] == ["kept", "scratch"] and list(m.state_dict()) == ["kept"]
    assert isinstance(m.kept, nn.Buffer) and not isinstance(torch.ones(1), nn.Buffer)
    assert not isinstance(m.kept + 1, nn.Buffer) and not m.kept.requires_grad
    assert repr(nn.Buffer()) == "tensor([])"
    with pytest.raises(AttributeError, match="'int' object has no attribute 'detach'"):
        nn.Buffer(3)
    with pytest.raises(TypeError, match=r"^cannot assign 'torch.DoubleTensor' as parameter 'weight' \(torch.nn."
                                        r"Parameter or None expected\)$"):
        nn.Linear(2, 2).weight = nn.Buffer(torch.ones(2, 2))
    m.kept = nn.Parameter(torch.ones(1))  # another kind under the name: the buffer goes, as in PyTorch
    assert [n for n, _ in m.named_parameters()] == ["kept"] and [n for n, _ in m.named_buffers()] == ["scratch"]
    with pytest.raises(AttributeError, match=r"^cannot assign buffer before Module.__init__\(\) call$"):
        class Early(nn.Module):
            def __init__(self):
                self.b = nn.Buffer(torch.ones(1))
        Early()


@pytest.mark.parametrize("source", list(GOLDEN["indices"]))
def test_adaptive_max_pool_indices_are_pytorchs(source):
    values, indices = eval(source)
    assert indices.dtype == torch.int64 and indices.tolist() == GOLDEN["indices"][source]


@pytest.mark.parametrize("source", list(GOLDEN["values"]))
def test_call_value_is_pytorchs(source):
    assert_close(eval(source).numpy(), numpy.array(GOLDEN["values"][source]), what=source)


@pytest.mark.parametrize("layer, shape", [("Dropout1d", (2, 4, 3)), ("Dropout3d", (2, 4, 3, 2, 2)),
                                          ("Dropout", (2, 4, 3))])
def test_in_place_dropout_keeps_its_mask_in_the_graph(layer, shape):
    """Dropout written into a non-leaf (inplace=True): the gradient is the mask, as PyTorch's (a copy
    made under no_grad left the input's old graph, whose gradient is 1 everywhere). y = 2a, z = y * m,
    so dz/da = 2m = z for a of ones."""
    torch.manual_seed(0)
    a = torch.ones(*shape, requires_grad=True)
    y = a * 2
    z = getattr(torch.nn, layer)(p=0.5, inplace=True)(y)
    assert z is y
    z.sum().backward()
    assert numpy.array_equal(a.grad.numpy(), z.detach().numpy())
    assert 0 < int((z.detach().numpy() == 0).sum()) < z.numel()  # some dropped, some kept


def test_in_place_rrelu_keeps_its_slopes_in_the_graph():
    """RReLU(inplace=True) while training: the gradient is 1 where the input is > 0 and its drawn
    slope (out / in) where negative -- not 1 everywhere; at 0 a drawn slope too (PyTorch's kernel
    draws for x <= 0: there a.grad is 0.1622 for seed 0 in PyTorch 2.13)."""
    torch.manual_seed(0)
    a = (torch.arange(12.0) - 6).requires_grad_()
    y = a * 1.0
    z = torch.nn.RReLU(inplace=True)(y)
    assert z is y
    z.sum().backward()
    x, out = numpy.arange(12.0) - 6, z.detach().numpy()
    expected = numpy.where(x > 0, 1.0, out / numpy.where(x == 0, 1.0, x))
    grad = a.grad.numpy()
    assert numpy.allclose(grad[x != 0], expected[x != 0], rtol=1e-15)
    assert ((expected[x < 0] >= 1 / 8) & (expected[x < 0] <= 1 / 3)).all()
    assert 1 / 8 <= grad[x == 0][0] <= 1 / 3


@pytest.mark.parametrize("layer", ["AlphaDropout", "FeatureAlphaDropout"])
def test_alpha_dropout_layers_leave_their_input_as_pytorchs_do(layer):
    """PyTorch's AlphaDropout and FeatureAlphaDropout call their function without inplace: a new
    tensor, the input untouched, even with inplace=True."""
    torch.manual_seed(0)
    y = torch.ones(2, 4, 3, requires_grad=True) * 2
    z = getattr(torch.nn, layer)(p=0.5, inplace=True)(y)
    assert z is not y and y._version == 0 and float(y.detach().sum()) == 48.0
