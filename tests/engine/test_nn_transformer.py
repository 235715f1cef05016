"""The Transformer layers (engine/nn/modules_transformer.py) against PyTorch
(tests/golden/nn_transformer.json, made by gen_nn_transformer.py): printing, parameters and initial
values for a seed, outputs under masks, gradients for inputs and parameters, messages of bad calls;
and a small Transformer trained from an `autodiff run` program."""
import numpy
import pytest

import autodiff.engine as torch
from autodiff.engine import nn
from nn_checks import check_grads, check_parameters, golden, golden_call_tests
from tolerance import assert_close

GOLDEN = golden("nn_transformer.json")
test_bad_call_raises_pytorchs_error, test_prints_as_pytorch = golden_call_tests(GOLDEN, globals())


def _input(shape, offset):
    n = int(numpy.prod(shape))
    return torch.sin(torch.arange(float(n)) + offset).reshape(shape).requires_grad_()


@pytest.mark.parametrize("case", GOLDEN["cases"], ids=[c["source"] for c in GOLDEN["cases"]])
def test_transformer_layer_against_pytorch(case):
    torch.manual_seed(0)
    m = eval(case["source"])
    assert repr(m) == case["repr"]
    params = check_parameters(m, case)
    xs = [_input(s, 3 * i) for i, s in enumerate(case["shapes"])]
    out = m(*xs, **eval(case["keywords"]))
    assert list(out.shape) == case["output_shape"]
    assert_close(out.detach().numpy(), numpy.array(case["output"]), what="output")
    (out * out * out).sum().backward()
    check_grads(case, xs, params)


def test_stacked_layers_are_copies_of_their_own():
    layer = nn.TransformerEncoderLayer(4, 2, 8)
    stack = nn.TransformerEncoder(layer, 2)
    first, second = stack.layers
    assert first is not layer and first.linear1.weight is not second.linear1.weight
    assert_close(first.linear1.weight.detach().numpy(), second.linear1.weight.detach().numpy())


def test_transformer_from_a_program(cli):
    out = cli.run_ok("""
        torch.manual_seed(0)
        model = nn.Transformer(d_model=8, nhead=2, num_encoder_layers=1, num_decoder_layers=1,
                               dim_feedforward=16, dropout=0.0, batch_first=True)
        opt = torch.optim.Adam(model.parameters(), lr=0.01)
        src = torch.sin(torch.arange(48.0)).reshape(2, 3, 8)
        tgt = torch.cos(torch.arange(32.0)).reshape(2, 2, 8)
        mask = nn.Transformer.generate_square_subsequent_mask(2)
        losses = []
        for step in range(15):
            opt.zero_grad()
            loss = (model(src, tgt, tgt_mask=mask) - tgt).pow(2).mean()
            loss.backward()
            opt.step()
            losses.append(loss.item())
        print(mask)
        print(losses[-1] < losses[0] / 2)
    """)
    assert out == "tensor([[0., -inf],\n        [0., 0.]])\nTrue\n"
