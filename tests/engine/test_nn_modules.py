"""torch.nn's modules from Python (engine/nn/modules.py): registration and walking order,
PyTorch's messages, initial weights within PyTorch's bounds. What a program prints through
them is compared with PyTorch's own output in tests/golden/language_python.json (nn_*)."""
import math
import re

import numpy
import pytest

import autodiff.engine as E
from autodiff.engine import nn
from tolerance import assert_close


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = 2.0                                  # a plain attribute: no parameter
        self.inner = nn.Linear(2, 2)
        self.gain = nn.Parameter(E.ones(1))
        self.register_parameter("unused", None)

    def forward(self, x):
        return self.inner(x) * self.gain * self.scale


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.first = Block()
        self.shared = nn.Linear(2, 1)
        self.again = self.shared                          # the same layer twice: its parameters once
        self.head = nn.Sequential(nn.Tanh(), self.shared)

    def forward(self, x):
        return self.head(self.first(x))


def test_parameters_come_in_registration_order_each_once():
    net = Net()
    names = [n for n, _ in net.named_parameters()]
    # PyTorch: own parameters first, then each child's (pre-order), a shared tensor under its first name
    assert names == ["first.gain", "first.inner.weight", "first.inner.bias", "shared.weight", "shared.bias"]
    assert len(list(net.parameters())) == 5
    assert [n for n, _ in net.named_modules()] == ["", "first", "first.inner", "shared", "head", "head.0"]
    assert [n for n, _ in net.named_children()] == ["first", "shared", "head"]
    assert [n for n, _ in net.named_parameters(recurse=False)] == []


def test_a_python_subclass_trains_with_an_optimiser():
    E.manual_seed(3)
    net = Net()
    x = E.tensor([[0.5, -1.0], [2.0, 0.25]])
    target = E.tensor([[1.0], [-1.0]])
    opt = E.SGD(net.parameters(), lr=0.05)
    losses = []
    for _ in range(20):
        opt.zero_grad()
        loss = nn.MSELoss()(net(x), target)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert losses[-1] < losses[0]
    assert all(p.grad is not None for p in net.parameters())
    net.zero_grad()
    assert all(p.grad is None for p in net.parameters())


def test_linear_draws_within_pytorchs_bound():
    E.manual_seed(0)
    layer = nn.Linear(50, 40)
    bound = 1 / math.sqrt(50)
    for p in (layer.weight, layer.bias):
        a = p.detach().numpy()
        assert numpy.all(numpy.abs(a) <= bound) and a.std() > bound / 4
    assert layer.weight.is_leaf and layer.weight.requires_grad and layer.weight.grad_fn is None
    assert nn.Linear(3, 2, bias=False).bias is None


def test_linear_computes_x_wt_plus_b():
    layer = nn.Linear(3, 2)
    with E.no_grad():
        layer.weight.copy_(E.tensor([[1.0, 2.0, 3.0], [-1.0, 0.0, 1.0]]))
        layer.bias.copy_(E.tensor([0.5, -0.5]))
    out = layer(E.tensor([[1.0, 1.0, 1.0], [2.0, 0.0, -1.0]]))
    assert out.tolist() == [[6.5, -0.5], [-0.5, -3.5]]


def test_parameter_shares_memory_and_ops_make_plain_tensors():
    data = E.zeros(3)
    p = nn.Parameter(data)
    assert isinstance(p, nn.Parameter) and isinstance(p, E.Tensor) and p.requires_grad
    data.add_(1.0)
    assert p.tolist() == [1.0, 1.0, 1.0]
    assert not isinstance(p * 2, nn.Parameter) and not isinstance(p.detach(), nn.Parameter)
    assert repr(p).startswith("Parameter containing:\ntensor(")
    with pytest.raises(TypeError, match="must be Tensor"):
        nn.Parameter([1.0])


def test_state_dict_round_trip_and_pytorchs_key_errors():
    a, b = nn.Linear(2, 2), nn.Linear(2, 2)
    assert repr(b.load_state_dict(a.state_dict())) == "<All keys matched successfully>"
    assert b.weight.tolist() == a.weight.tolist() and b.bias.tolist() == a.bias.tolist()
    # PyTorch 2.13's text, character for character
    with pytest.raises(RuntimeError) as e:
        b.load_state_dict({"weight": a.weight})
    assert str(e.value) == 'Error(s) in loading state_dict for Linear:\n\tMissing key(s) in state_dict: "bias". '
    with pytest.raises(RuntimeError) as e:
        b.load_state_dict({"weight": E.ones(3, 2), "bias": a.bias, "extra": a.bias})
    assert str(e.value) == ('Error(s) in loading state_dict for Linear:\n\tUnexpected key(s) in state_dict: '
                            '"extra". \n\tsize mismatch for weight: copying a param with shape torch.Size([3, 2]) '
                            'from checkpoint, the shape in current model is torch.Size([2, 2]).')


def test_pytorchs_messages():
    with pytest.raises(NotImplementedError, match='Module \\[Module\\] is missing the required "forward" function'):
        nn.Module()(E.ones(1))

    class Early(nn.Module):
        def __init__(self):
            self.x = 1                                    # a plain attribute: allowed, as in PyTorch
            self.layer = nn.Linear(1, 1)
    with pytest.raises(AttributeError, match="cannot assign module before Module.__init__\\(\\) call"):
        Early()
    layer = nn.Linear(2, 2)
    with pytest.raises(TypeError, match="cannot assign 'torch.DoubleTensor' as parameter 'weight' "
                                        "\\(torch.nn.Parameter or None expected\\)"):
        layer.weight = E.ones(2, 2)
    with pytest.raises(TypeError, match="cannot assign 'int' as child module '0'"):
        setattr(nn.Sequential(nn.ReLU()), "0", 5)
    layer.bias = None
    assert [n for n, _ in layer.named_parameters()] == ["weight"] and "bias=False" in repr(layer)
    layer.extra = E.ones(1)                               # a plain tensor: no parameter
    assert [n for n, _ in layer.named_parameters()] == ["weight"] and layer.extra.tolist() == [1.0]
    with pytest.raises(AttributeError, match="'Linear' object has no attribute 'weights'"):
        nn.Linear(1, 1).weights


def test_sequential_indexes_slices_and_iterates():
    seq = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
    assert len(seq) == 3 and isinstance(seq[-1], nn.Linear) and isinstance(seq[1], nn.ReLU)
    assert [type(m).__name__ for m in seq] == ["Linear", "ReLU", "Linear"]
    assert len(seq[1:]) == 2 and [n for n, _ in seq[1:].named_parameters()] == ["2.weight", "2.bias"]
    with pytest.raises(IndexError):
        seq[3]
    x = E.ones(4, 2)
    assert seq(x).tolist() == seq[2](seq[1](seq[0](x))).tolist()


def test_train_and_eval_reach_every_layer():
    net = Net()
    assert all(m.training for m in net.modules())
    net.eval()
    assert not any(m.training for m in net.modules())
    with pytest.raises(ValueError, match="training mode is expected to be boolean"):
        net.train("yes")


# ------------------------------------------------------------ dropout (PyTorch 2.13's behaviour; its draws differ)

def test_dropout_zeroes_about_p_and_scales_the_rest_by_one_over_one_minus_p():
    F = nn.functional
    E.manual_seed(0)
    x = E.ones(400, 500, dtype=E.float64, requires_grad=True)
    y = F.dropout(x, 0.3)
    values = set(numpy.unique(y.detach().numpy()).tolist())
    assert values == {0.0, 1 / 0.7}                       # kept elements are scaled by 1/(1-p)
    assert abs((y == 0).double().mean().item() - 0.3) < 0.005
    # PyTorch: y = x * mask, MulBackward0 with the mask a constant (no edge)
    assert type(y.grad_fn).__name__ == "MulBackward0"
    assert [type(n).__name__ if n is not None else None for n, _ in y.grad_fn.next_functions] == \
        ["AccumulateGrad", None]
    y.sum().backward()
    assert numpy.array_equal(x.grad.numpy(), y.detach().numpy())  # d(x * mask)/dx = mask
    assert F.dropout(x, 0.3, training=False) is x and F.dropout(x, 0.0) is x  # the input itself
    zero = F.dropout(x, 1.0)
    assert zero.abs().sum().item() == 0 and type(zero.grad_fn).__name__ == "MulBackward0"
    with pytest.raises(ValueError, match=r"^dropout probability has to be between 0 and 1, but got 1.5$"):
        F.dropout(x, 1.5)
    t = E.ones(1000)
    assert F.dropout(t, 0.5, inplace=True) is t and set(numpy.unique(t.numpy()).tolist()) == {0.0, 2.0}


def test_the_dropout_layer_drops_while_training_and_passes_through_in_eval_mode():
    layer = nn.Dropout(0.25)
    assert repr(layer) == "Dropout(p=0.25, inplace=False)" and repr(nn.Dropout()) == "Dropout(p=0.5, inplace=False)"
    x = E.ones(50, 50)
    assert layer.training and bool((layer(x) == 0).any())
    model = nn.Sequential(nn.Linear(50, 3), nn.Dropout(0.9))
    model.eval()
    assert not model[1].training and model[1](x) is x
    assert E.equal(model(x), model[0](x))
    with pytest.raises(ValueError, match="dropout probability has to be between 0 and 1, but got -0.1"):
        nn.Dropout(-0.1)


def test_normalize_and_one_hot_as_pytorch():
    # values from PyTorch 2.13 on the same inputs (normalize: its norm / clamp_min / expand_as / div)
    F = nn.functional
    x = E.tensor([[3.0, 4.0], [0.0, 0.0]], dtype=E.float64, requires_grad=True)
    y = F.normalize(x)
    assert y.tolist() == [[0.6, 0.8], [0.0, 0.0]]
    assert type(y.grad_fn).__name__ == "DivBackward0"
    assert [type(n).__name__ for n, _ in y.grad_fn.next_functions] == ["AccumulateGrad", "ExpandBackward0"]
    y.sum().backward()
    assert numpy.allclose(x.grad.numpy(), [[0.032, -0.024], [1e12, 1e12]], rtol=1e-12, atol=0)
    assert numpy.allclose(F.normalize(E.tensor([[3.0, 4.0]]), p=1).numpy(), [[3 / 7, 4 / 7]])
    assert F.one_hot(E.tensor([0, 2, 1])).tolist() == [[1, 0, 0], [0, 0, 1], [0, 1, 0]]
    assert F.one_hot(E.tensor([0, 2]), 4).dtype == E.int64 and F.one_hot(E.tensor([1]), 4).tolist() == [[0, 1, 0, 0]]
    for bad, message in [(E.tensor([0.0, 1.0]), "one_hot is only applicable to index tensor of type LongTensor."),
                         (E.tensor([-1, 0]), "Class values must be non-negative."),
                         (E.tensor([3]), "Class values must be smaller than num_classes.")]:
        with pytest.raises(RuntimeError, match="^" + message.replace(".", r"\.") + "$"):
            F.one_hot(bad, 3)


def test_lerp_with_a_number_weight_has_two_edges_and_type_as_converts():
    x = E.ones(2, 3, dtype=E.float64, requires_grad=True)
    y = E.lerp(x, x.flip(0), 0.3)   # PyTorch's Scalar overload: (self, end)
    assert [type(n).__name__ for n, _ in y.grad_fn.next_functions] == ["AccumulateGrad", "FlipBackward0"]
    assert x.type_as(x) is x and x.type_as(E.ones(1, dtype=E.float32)).dtype == E.float32


def test_softmin_and_tanhshrink_as_pytorch_composes_them():
    # values and nodes from PyTorch 2.13 on the same input
    F = nn.functional
    x = E.tensor([[1.0, 2.0, 3.0], [0.0, -1.0, 5.0]], dtype=E.float64, requires_grad=True)
    y = F.softmin(x, dim=1)
    assert numpy.allclose(y.detach().numpy(), [[0.6652, 0.2447, 0.0900], [0.2685, 0.7297, 0.0018]], atol=5e-5)
    assert type(y.grad_fn).__name__ == "SoftmaxBackward0"
    assert [type(n).__name__ for n, _ in y.grad_fn.next_functions] == ["NegBackward0"]
    (y * E.arange(3.0)).sum().backward()
    assert numpy.allclose(x.grad.numpy(), [[0.2826, -0.1408, -0.1418], [0.1969, -0.1946, -0.0023]], atol=5e-5)
    x.grad = None
    z = F.tanhshrink(x)
    assert type(z.grad_fn).__name__ == "SubBackward0"
    assert [type(n).__name__ for n, _ in z.grad_fn.next_functions] == ["AccumulateGrad", "TanhBackward0"]
    z.sum().backward()
    assert numpy.allclose(x.grad.numpy(), numpy.tanh(x.detach().numpy()) ** 2, rtol=1e-15)  # 1 - (1 - tanh^2)
    with pytest.warns(UserWarning, match="Implicit dimension choice for softmin has been deprecated"):
        F.softmin(x)


def test_pad_in_constant_mode_as_pytorch():
    # values, node and messages from PyTorch 2.13 on the same inputs
    F = nn.functional
    x = E.arange(1.0, 7.0, dtype=E.float64).reshape(2, 3).requires_grad_()
    y = F.pad(x, (1, 2))
    assert y.tolist() == [[0, 1, 2, 3, 0, 0], [0, 4, 5, 6, 0, 0]]
    assert type(y.grad_fn).__name__ == "ConstantPadNdBackward0"
    assert [type(n).__name__ for n, _ in y.grad_fn.next_functions] == ["AccumulateGrad"]
    (y * E.arange(12.0).reshape(2, 6)).sum().backward()
    assert x.grad.tolist() == [[1, 2, 3], [7, 8, 9]]
    assert F.pad(x, (1, -1, -1, 1), value=9.0).tolist() == [[9, 4, 5], [9, 9, 9]]
    g, = E.autograd.grad(F.pad(x, (1, 1)).pow(2).sum(), x, create_graph=True)
    assert type(g.grad_fn).__name__ == "ConstantPadNdBackward0" and g.tolist() == [[2, 4, 6], [8, 10, 12]]
    for amounts, message in [((1,), "Padding length must be divisible by 2"),
                             ((1, 1, 1, 1, 1, 1), "Padding length should be less than or equal to two times the "
                                                  "input dimension but got padding length 6 and input of dimension 2"),
                             ((-2, -2), "narrow(): length must be non-negative.")]:
        with pytest.raises(RuntimeError, match="^" + re.escape(message) + "$"):
            F.pad(x, amounts)
    with pytest.raises(NotImplementedError, match="Unrecognised padding mode edge"):
        F.pad(x, (1, 1), mode="edge")


# PyTorch 2.13's output on the same inputs (float.hex): values and first derivatives, compared within tolerance
_SMOOTH_L1_GOLDEN = [('smooth', 'SmoothL1LossBackward0', ['0x1.1111111111111p-5', '-0x1.5555555555555p-3', '0x1.5555555555555p-3', '-0x1.1111111111110p-6', '-0x1.5555555555555p-4', '0x0.0p+0'], ['0x1.c444444444444p-2']), ('smooth_b', 'SmoothL1LossBackward0', ['0x1.999999999999ap-2', '-0x1.0000000000000p+0', '0x1.0000000000000p+0', '-0x1.9999999999998p-3', '-0x1.0000000000000p+0', '0x0.0p+0'], ['0x1.a666666666666p+1']), ('huber', 'HuberLossBackward0', ['0x1.1111111111111p-5', '-0x1.0000000000000p-2', '0x1.5555555555555p-2', '-0x1.1111111111110p-6', '-0x1.5555555555555p-4', '0x0.0p+0'], ['0x1.1777777777777p-1']), ('smooth_none', 'SmoothL1LossBackward0', ['0x1.999999999999ap-3', '-0x1.0000000000000p+0', '0x1.0000000000000p+0', '-0x1.9999999999998p-4', '-0x1.0000000000000p-1', '0x0.0p+0'], ['0x1.47ae147ae147cp-6', '0x1.0000000000000p+0', '0x1.8000000000000p+0', '0x1.47ae147ae1478p-8', '0x1.0000000000000p-3', '0x0.0p+0']), ('huber_none', 'HuberLossBackward0', ['0x1.999999999999ap-3', '-0x1.6666666666666p-1', '0x1.6666666666666p-1', '-0x1.9999999999998p-4', '-0x1.0000000000000p-1', '0x0.0p+0'], ['0x1.47ae147ae147cp-6', '0x1.9c28f5c28f5c2p-1', '0x1.27ae147ae147ap+0', '0x1.47ae147ae1478p-8', '0x1.0000000000000p-3', '0x0.0p+0']), ('l1', 'MeanBackward0', ['0x1.5555555555555p-3', '-0x1.5555555555555p-3', '0x1.5555555555555p-3', '-0x1.5555555555555p-3', '-0x1.5555555555555p-3', '0x0.0p+0'], ['0x1.6eeeeeeeeeeefp-1'])]
_HUBER_SECOND_ORDER = ['0x0.0p+0', '0x0.0p+0', '0x0.0p+0', '0x1.8000000000000p+1', '0x0.0p+0', '0x1.4000000000000p+2']


def _hex_close(got, recorded, what):
    assert_close(numpy.array(got), numpy.array([float.fromhex(v) for v in recorded]), "float64", what=what)


def test_smooth_l1_and_huber_losses_are_pytorchs():
    F = nn.functional
    x = E.tensor([[0.2, -1.5, 3.0], [0.9, 0.0, -0.4]], dtype=E.float64, requires_grad=True)
    t = E.tensor([[0.0, 0.0, 1.0], [1.0, 0.5, -0.4]], dtype=E.float64)
    calls = {"smooth": lambda: F.smooth_l1_loss(x, t), "smooth_b": lambda: F.smooth_l1_loss(x, t, beta=0.5, reduction="sum"),
             "huber": lambda: F.huber_loss(x, t, delta=2.0), "smooth_none": lambda: F.smooth_l1_loss(x, t, reduction="none"),
             "huber_none": lambda: F.huber_loss(x, t, reduction="none", delta=0.7),
             "l1": lambda: F.smooth_l1_loss(x, t, beta=0.0)}
    for name, node, grads, values in _SMOOTH_L1_GOLDEN:
        x.grad = None
        y = calls[name]()
        assert type(y.grad_fn).__name__ == node, name
        y.sum().backward()
        _hex_close(y.detach().reshape(-1).tolist(), values, name)
        _hex_close(x.grad.reshape(-1).tolist(), grads, name)
    g, = E.autograd.grad(F.huber_loss(x, t, delta=0.5, reduction="sum"), x, create_graph=True)
    h, = E.autograd.grad((g * E.arange(6.0).reshape(2, 3)).sum(), x)
    _hex_close(h.reshape(-1).tolist(), _HUBER_SECOND_ORDER, "second order")
    with pytest.raises(RuntimeError, match="^smooth_l1_loss does not support negative values for beta\\.$"):
        F.smooth_l1_loss(x, t, beta=-1.0)
    with pytest.raises(RuntimeError, match="^huber_loss does not support non-positive values for delta\\.$"):
        F.huber_loss(x, t, delta=0.0)
    assert repr(nn.SmoothL1Loss(beta=0.5)) == "SmoothL1Loss()" and nn.SmoothL1Loss(beta=0.5).beta == 0.5
    assert repr(nn.HuberLoss(delta=2.0)) == "HuberLoss()" and nn.HuberLoss(delta=2.0).delta == 2.0
    x.grad = None
    nn.SmoothL1Loss(beta=0.5, reduction="sum")(x, t).backward()
    _hex_close(x.grad.reshape(-1).tolist(), _SMOOTH_L1_GOLDEN[1][2], "module")


def test_the_new_activation_and_loss_modules_print_and_hold_what_pytorchs_do():
    # PyTorch 2.13's reprs and attributes for the same constructions
    assert [repr(m) for m in (nn.Mish(), nn.Mish(inplace=True), nn.Hardswish(True), nn.Hardsigmoid(inplace=True),
                              nn.GLU(), nn.GLU(0), nn.Threshold(0.1, 20), nn.Threshold(0.1, 20, inplace=True),
                              nn.CosineSimilarity(), nn.CosineSimilarity(0, 1e-3), nn.KLDivLoss(),
                              nn.PReLU(), nn.PReLU(3, 0.1))] == [
        "Mish()", "Mish(inplace=True)", "Hardswish()", "Hardsigmoid()", "GLU(dim=-1)", "GLU(dim=0)",
        "Threshold(threshold=0.1, value=20)", "Threshold(threshold=0.1, value=20, inplace=True)",
        "CosineSimilarity()", "CosineSimilarity()", "KLDivLoss()", "PReLU(num_parameters=1)", "PReLU(num_parameters=3)"]
    cos = nn.CosineSimilarity(0, 1e-3)
    assert (cos.dim, cos.eps) == (0, 1e-3)
    kl = nn.KLDivLoss(reduction="batchmean", log_target=True)
    assert (kl.reduction, kl.log_target) == ("batchmean", True)
    prelu = nn.PReLU(3)
    assert (prelu.num_parameters, prelu.init) == (3, 0.25)
    assert [(name, p.tolist(), p.requires_grad) for name, p in prelu.named_parameters()] == [
        ("weight", [0.25, 0.25, 0.25], True)]
    assert isinstance(prelu.weight, nn.Parameter) and nn.PReLU(2, init=0.5).weight.tolist() == [0.5, 0.5]
    assert nn.PReLU(dtype=E.float64).weight.dtype == E.float64
    with pytest.raises(TypeError, match=re.escape("Threshold.__init__() missing 2 required positional arguments: "
                                                  "'threshold' and 'value'")):
        nn.Threshold()


def test_batch_norm_moves_its_running_statistics_in_place():
    """Training batch norm writes the running statistics into their own memory, one version a write
    (as PyTorch's in-place update), with momentum * batch + (1 - momentum) * running (by hand here)."""
    import numpy as np
    import autodiff.engine as E
    m = E.nn.BatchNorm1d(2, momentum=0.25)
    mean, var = m.running_mean, m.running_var
    memory, versions = mean.array, (mean._version, var._version)
    x = E.tensor([[1.0, 2.0], [3.0, 6.0], [5.0, 1.0]], dtype=E.float32)
    m(x)
    assert m.running_mean is mean and mean.array is memory
    assert (mean._version, var._version) == (versions[0] + 1, versions[1] + 1)
    xs = np.array([[1.0, 2.0], [3.0, 6.0], [5.0, 1.0]])
    assert np.allclose(mean.numpy(), 0.25 * xs.mean(0), rtol=1e-6)
    assert np.allclose(var.numpy(), 0.25 * xs.var(0, ddof=1) + 0.75, rtol=1e-6)
    # the buffers keep their own dtype (the default, float64, here): the float32 statistics are cast on the write
    assert mean.dtype == E.float64 and not mean.requires_grad and mean.grad_fn is None


def test_batch_norm_refuses_to_move_inference_running_statistics():
    import pytest
    import autodiff.engine as E
    with E.inference_mode():
        m = E.nn.BatchNorm1d(2)
    with pytest.raises(RuntimeError, match="Inplace update to inference tensor outside InferenceMode"):
        m(E.tensor([[1.0, 2.0], [3.0, 6.0]]))
