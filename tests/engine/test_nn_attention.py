"""nn.MultiheadAttention (engine/nn/modules_attention.py) against PyTorch
(tests/golden/nn_attention.json, made by gen_nn_attention.py): printing, parameters and initial
values for a seed, outputs and attention weights under masks and options, gradients for inputs and
parameters, messages of bad calls; dropout on the weights, and attention from a program."""
import numpy
import pytest

import autodiff.engine as torch
from autodiff.engine import nn
from nn_checks import check_grads, check_parameters, golden, golden_call_tests
from tolerance import assert_close

GOLDEN = golden("nn_attention.json")
test_bad_call_raises_pytorchs_error = golden_call_tests(GOLDEN, globals())[0]


def _input(shape, offset):
    n = int(numpy.prod(shape))
    return torch.sin(torch.arange(float(n)) + offset).reshape(shape).requires_grad_()


@pytest.mark.parametrize("case", GOLDEN["cases"], ids=[c["source"] + c["keywords"][:30] for c in GOLDEN["cases"]])
def test_attention_against_pytorch(case):
    torch.manual_seed(0)
    m = eval(case["source"])
    assert repr(m) == case["repr"]
    params = check_parameters(m, case, skip=("bias_k", "bias_v"))  # their normal draws are the engine's
    m.load_state_dict({name: torch.tensor(want) for name, want in case["parameters"].items()})
    xs = [_input(s, 3 * i) for i, s in enumerate(case["shapes"])]
    out, weights = m(*xs, **eval(case["keywords"]))
    assert list(out.shape) == case["output_shape"]
    assert_close(out.detach().numpy(), numpy.array(case["output"]), what="output")
    loss = (out * out).sum()
    if case["weights"] is None:
        assert weights is None
    else:
        assert_close(weights.detach().numpy(), numpy.array(case["weights"]), what="weights")
        loss = loss + (weights * torch.cos(torch.arange(float(weights.numel()))).reshape(weights.shape)).sum()
    loss.backward()
    check_grads(case, xs, params)


def test_dropout_on_the_weights_only_while_training():
    m = nn.MultiheadAttention(4, 2, dropout=0.5)
    q = _input((6, 3, 4), 0).detach()
    torch.manual_seed(0)
    _, w = m(q, q, q, average_attn_weights=False)
    assert (w.detach().numpy() == 0).any()  # dropped weights; the kept ones scaled by 2
    m.eval()
    _, w = m(q, q, q)
    assert_close(w.detach().numpy().sum(-1), numpy.ones((3, 6)))


def test_attention_from_a_program(cli):
    out = cli.run_ok("""
        torch.manual_seed(0)
        attn = nn.MultiheadAttention(4, 2, batch_first=True)
        x = torch.sin(torch.arange(24.0)).reshape(2, 3, 4)
        y, w = attn(x, x, x)
        print(attn)
        print(y.shape, w.shape, w.sum(-1))
    """)
    assert out == ("MultiheadAttention(\n  (out_proj): NonDynamicallyQuantizableLinear(in_features=4, out_features=4, "
                   "bias=True)\n)\ntorch.Size([2, 3, 4]) torch.Size([2, 3, 3]) tensor([[1., 1., 1.],\n"
                   "        [1., 1., 1.]], grad_fn=<SumBackward1>)\n")
