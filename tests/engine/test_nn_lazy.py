"""torch.nn's Lazy modules (engine/nn/modules_lazy.py) and their placeholders
(engine/nn/uninitialized.py): shapes read at the first call, initial values PyTorch's for the same
seed (tests/golden/nn_lazy.json, made by gen_nn_lazy.py), the class each becomes, printing,
state_dict / load_state_dict before and after, PyTorch's errors for an uninitialized parameter, and
a Lazy module from an `autodiff run` program."""

import collections

import numpy
import pytest

import autodiff.engine as torch
from autodiff.engine import nn
from autodiff.engine.nn.modules_lazy import LazyModuleMixin
from nn_checks import check_error, golden
from tolerance import assert_close

GOLDEN = golden("nn_lazy.json")


def _input(shape):
    return torch.sin(torch.arange(float(numpy.prod(shape)))).reshape(shape)


def _ordered_dict_repr(d):
    """An OrderedDict's repr as Python 3.11 (the golden's) writes it, whichever Python runs the test:
    3.12 writes OrderedDict({...}) (found on the GPU machine)."""
    assert isinstance(d, collections.OrderedDict)
    return f"OrderedDict({list(d.items())!r})" if d else "OrderedDict()"


@pytest.mark.parametrize("case", GOLDEN["modules"], ids=[c["source"] for c in GOLDEN["modules"]])
def test_lazy_module_against_pytorch(case):
    torch.manual_seed(0)
    m = eval(case["source"])
    before = case["before"]
    assert repr(m) == before["repr"]
    assert _ordered_dict_repr(m.state_dict()) == before["state_dict"]
    assert repr(list(m.named_parameters())) == before["parameters"]
    assert m.has_uninitialized_params() == before["lazy"]
    y = m(_input(case["shape"]))
    assert type(m).__name__ == case["class"]
    assert type(m) is getattr(nn, case["class"])
    assert repr(m) == case["repr"]
    assert list(y.shape) == case["output_shape"]
    assert_close(y.detach().numpy(), numpy.array(case["output"]), what=case["source"])
    state = m.state_dict()
    assert list(state) == list(case["state"])
    for name, want in case["state"].items():
        assert_close(state[name].numpy(), numpy.array(want), dtype=state[name].numpy().dtype,
                     what=f"{case['source']} {name}")
    assert not hasattr(m, "has_uninitialized_params")  # the ordinary class now, not the Lazy one


@pytest.mark.parametrize("case", GOLDEN["errors"], ids=[c["source"] for c in GOLDEN["errors"]])
def test_uninitialized_misuse_raises_pytorchs_error(case):
    m = nn.LazyLinear(3)
    check_error(case, dict(globals(), m=m, w=m.weight))


def test_lazy_linear_equals_linear_with_the_same_weights():
    lazy, plain = nn.LazyLinear(4), nn.Linear(3, 4)
    x = _input((5, 3))
    lazy(x)
    lazy.load_state_dict(plain.state_dict())
    assert_close(lazy(x).detach().numpy(), plain(x).detach().numpy())


def test_a_placeholder_becomes_the_same_parameter_an_optimizer_already_holds():
    m = nn.LazyLinear(2)
    weight = m.weight
    opt = torch.optim.SGD(m.parameters(), lr=0.5)
    m(torch.ones(1, 3)).sum().backward()
    assert m.weight is weight and isinstance(weight, nn.Parameter) and weight.requires_grad
    assert not isinstance(weight, nn.UninitializedParameter)
    before = weight.detach().clone()
    opt.step()
    assert_close(weight.detach().numpy(), (before - 0.5).numpy())


def test_placeholder_prints_and_answers_as_pytorchs():
    w = nn.UninitializedParameter()
    assert repr(w) == str(w) == "<UninitializedParameter>"
    assert repr(nn.UninitializedBuffer()) == "<UninitializedBuffer>"
    assert isinstance(w, nn.Parameter) and isinstance(w, torch.Tensor)
    assert not isinstance(nn.UninitializedBuffer(), nn.Parameter)
    assert w.requires_grad and not nn.UninitializedParameter(requires_grad=False).requires_grad
    assert w.dtype == torch.get_default_dtype() and w.grad is None and list(w.size()) == [0]
    assert w.is_floating_point()
    converted = w.to(torch.float32)
    assert isinstance(converted, nn.UninitializedParameter) and converted.dtype == torch.float32
    w.materialize((2, 3))
    assert list(w.shape) == [2, 3] and isinstance(w, nn.Parameter)
    assert not isinstance(w, nn.UninitializedParameter)


def test_a_function_given_a_placeholder_raises_valueerror():
    """PyTorch's message names the function (`<built-in function linear>`); ours says `a torch function`."""
    w = nn.LazyLinear(3).weight
    for call in (lambda: nn.functional.linear(torch.ones(2, 2), w), lambda: torch.exp(w), lambda: torch.add(w, 1)):
        with pytest.raises(ValueError, match="^Attempted to use an uninitialized parameter in "):
            call()


def test_module_dtype_conversion_before_the_first_call():
    m = nn.LazyLinear(3).float()
    assert m.weight.dtype == torch.float32 and isinstance(m.weight, nn.UninitializedParameter)
    m(torch.ones(2, 4, dtype=torch.float32))
    assert m.weight.dtype == torch.float32 and list(m.weight.shape) == [3, 4]


def test_load_state_dict_before_the_first_call():
    src = nn.Linear(4, 3)
    m = nn.LazyLinear(3)
    assert repr(m.load_state_dict(src.state_dict())) == "<All keys matched successfully>"
    assert type(m) is nn.LazyLinear and not m.has_uninitialized_params() and m.in_features == 0
    assert_close(m.weight.detach().numpy(), src.weight.detach().numpy())
    with pytest.raises(AssertionError, match="The in_features inferred from input: 5 is not equal to in_features "
                                             "from self.weight: 4"):
        m(torch.ones(1, 5))
    m = nn.LazyLinear(3)
    m.load_state_dict(src.state_dict())
    m(torch.ones(1, 4))
    assert type(m) is nn.Linear and m.in_features == 4
    other = nn.LazyLinear(3)  # one uninitialized state into another: nothing to do, as in PyTorch
    assert repr(other.load_state_dict(nn.LazyLinear(3).state_dict())) == "<All keys matched successfully>"
    assert other.has_uninitialized_params()


def test_lazy_layers_in_a_sequential_and_nested_load():
    torch.manual_seed(0)
    net = nn.Sequential(nn.LazyLinear(4), nn.ReLU(), nn.LazyLinear(2))
    assert "LazyLinear(in_features=0, out_features=4, bias=True)" in repr(net)
    net(torch.ones(3, 5))
    assert repr(net) == ("Sequential(\n  (0): Linear(in_features=5, out_features=4, bias=True)\n  (1): ReLU()\n"
                         "  (2): Linear(in_features=4, out_features=2, bias=True)\n)")
    fresh = nn.Sequential(nn.LazyLinear(4), nn.ReLU(), nn.LazyLinear(2))
    fresh.load_state_dict(net.state_dict())
    x = _input((3, 5))
    assert_close(fresh(x).detach().numpy(), net(x).detach().numpy())


def test_initialize_parameters_by_hand_and_the_mixin():
    m = nn.LazyLinear(3)
    m.initialize_parameters(torch.ones(2, 7))
    assert type(m) is nn.LazyLinear and m.in_features == 7 and not m.has_uninitialized_params()
    assert repr(m) == "LazyLinear(in_features=7, out_features=3, bias=True)"
    m(torch.ones(2, 7))
    assert type(m) is nn.Linear

    class Bare(LazyModuleMixin, nn.Module):
        pass

    with pytest.raises(NotImplementedError, match="^initialize_parameters is not implemented for Bare$"):
        Bare()(torch.ones(1))

    class Scale(LazyModuleMixin, nn.Module):  # no cls_to_become: stays itself, initialized once
        def __init__(self):
            super().__init__()
            self.w = nn.UninitializedParameter()
            self.calls = 0

        def initialize_parameters(self, x):
            self.calls += 1
            self.w.materialize(x.shape)
            with torch.no_grad():
                self.w.fill_(2.0)

        def forward(self, x):
            return x * self.w

    s = Scale()
    s(torch.ones(2))
    assert_close(s(torch.ones(2)).detach().numpy(), numpy.full(2, 2.0))
    assert type(s) is Scale and s.calls == 1

    class Half(LazyModuleMixin, nn.Module):
        def __init__(self):
            super().__init__()
            self.w = nn.UninitializedParameter()

        def initialize_parameters(self, x):
            pass

    with pytest.raises(RuntimeError, match="^module Half has not been fully initialized$"):
        Half()(torch.ones(1))


def test_lazy_batchnorm_state_before_and_after():
    m = nn.LazyBatchNorm1d()
    assert m.has_uninitialized_params()
    m(_input((4, 3)))
    assert list(m.running_mean.shape) == [3] and int(m.num_batches_tracked) == 1
    bare = nn.LazyBatchNorm1d(affine=False, track_running_stats=False)  # nothing to infer: num_features stays 0
    assert not bare.has_uninitialized_params()
    bare(_input((4, 3)))
    assert type(bare) is nn.BatchNorm1d and bare.num_features == 0


def test_lazy_linear_from_a_program(cli):
    out = cli.run_ok("""
        torch.manual_seed(0)
        net = nn.Sequential(nn.LazyLinear(4), nn.Tanh(), nn.LazyLinear(1))
        print(net[0])
        print(net[0].weight)
        opt = torch.optim.SGD(net.parameters(), lr=0.1)
        x = torch.ones(8, 3)
        loss = net(x).pow(2).mean()
        loss.backward()
        opt.step()
        print(net)
        print(net[0].weight.shape, net[2].weight.shape)
    """)
    assert out == ("LazyLinear(in_features=0, out_features=4, bias=True)\n<UninitializedParameter>\n"
                   "Sequential(\n  (0): Linear(in_features=3, out_features=4, bias=True)\n  (1): Tanh()\n"
                   "  (2): Linear(in_features=4, out_features=1, bias=True)\n)\n"
                   "torch.Size([4, 3]) torch.Size([1, 4])\n")


def test_deepcopy_and_pickle_of_a_lazy_module_give_placeholders_of_their_own():
    import copy
    import pickle
    m = nn.LazyLinear(3, dtype=torch.float32)
    for c in (copy.deepcopy(m), pickle.loads(pickle.dumps(m.weight)), copy.copy(m.weight)):
        w = c.weight if isinstance(c, nn.Module) else c
        assert isinstance(w, nn.UninitializedParameter) and w is not m.weight and w.dtype == torch.float32
        assert isinstance(w, nn.Parameter) and w.requires_grad
    c = copy.deepcopy(m)
    c(torch.ones(1, 2, dtype=torch.float32))
    assert type(c) is nn.Linear and type(m) is nn.LazyLinear and m.has_uninitialized_params()


def test_lazy_methods_from_a_program(cli):
    out = cli.run_ok("""
        m = nn.LazyConv1d(2, 3)
        print(m.has_uninitialized_params(), m.weight)
        m.initialize_parameters(torch.ones(1, 4, 5))
        print(m.has_uninitialized_params(), m.weight.shape)
        print(m(torch.ones(1, 4, 5)).shape, m)
    """)
    assert out == ("True <UninitializedParameter>\nFalse torch.Size([2, 4, 3])\n"
                   "torch.Size([1, 2, 3]) Conv1d(4, 2, kernel_size=(3,), stride=(1,))\n")
