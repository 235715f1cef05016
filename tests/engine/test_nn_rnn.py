"""The recurrent layers of engine/nn/modules_rnn.py (RNN, LSTM, GRU and their cells) against
PyTorch (tests/golden/nn_rnn.json, made by gen_nn_rnn.py): printing, parameter names and initial
values for a seed, outputs and hidden states, gradients for inputs and parameters, messages of bad
calls; dropout between layers, and an LSTM from an `autodiff run` program."""

import numpy
import pytest

import autodiff.engine as torch
from autodiff.engine import nn
from nn_checks import check_grads, check_parameters, golden, golden_call_tests
from tolerance import assert_close

GOLDEN = golden("nn_rnn.json")
test_bad_call_raises_pytorchs_error, test_prints_as_pytorch = golden_call_tests(GOLDEN, globals())


def _input(shape, offset):
    n = int(numpy.prod(shape))
    return torch.sin(torch.arange(float(n)) + offset).reshape(shape).requires_grad_()


def _flat(out):
    return [t for o in out for t in _flat(o)] if isinstance(out, tuple) else [out]


@pytest.mark.parametrize("case", GOLDEN["cases"], ids=[c["source"] + str(c["shapes"]) for c in GOLDEN["cases"]])
def test_recurrent_layer_against_pytorch(case):
    torch.manual_seed(0)
    m = eval(case["source"])
    assert repr(m) == case["repr"]
    params = check_parameters(m, case)
    xs = [_input(s, 3 * i) for i, s in enumerate(case["shapes"])]
    args = xs[:1] + ([tuple(xs[1:])] if len(xs) == 3 else xs[1:])
    outs = _flat(m(*args))
    assert [list(o.shape) for o in outs] == case["output_shapes"]
    for o, want in zip(outs, case["outputs"]):
        assert_close(o.detach().numpy(), numpy.array(want), what="output")
    sum(((o * torch.cos(torch.arange(float(o.numel()))).reshape(o.shape)).sum() for o in outs)).backward()
    check_grads(case, xs, params)


def test_dropout_between_layers_only_while_training():
    with pytest.warns(UserWarning, match="non-zero dropout expects num_layers greater than 1"):
        nn.GRU(3, 4, dropout=0.5)
    m = nn.LSTM(3, 4, 2, dropout=0.5)
    x = _input((6, 2, 3), 0).detach()
    torch.manual_seed(0)
    a = m(x)[0]
    torch.manual_seed(1)
    b = m(x)[0]
    assert not numpy.allclose(a.detach().numpy(), b.detach().numpy())  # different masks, different outputs
    m.eval()
    assert numpy.array_equal(m(x)[0].detach().numpy(), m(x)[0].detach().numpy())


def test_lstm_from_a_program(cli):
    out = cli.run_ok("""
        torch.manual_seed(0)
        lstm = nn.LSTM(2, 3, batch_first=True)
        head = nn.Linear(3, 1)
        opt = torch.optim.Adam(list(lstm.parameters()) + list(head.parameters()), lr=0.05)
        x = torch.sin(torch.arange(16.0)).reshape(2, 4, 2)
        first = None
        for step in range(20):
            opt.zero_grad()
            out, (h, c) = lstm(x)
            loss = (head(out[:, -1]) - 1).pow(2).mean()
            loss.backward()
            opt.step()
            if first is None:
                first = loss.item()
        print(lstm, out.shape, h.shape, loss.item() < first / 4)
    """)
    assert out == "LSTM(2, 3, batch_first=True) torch.Size([2, 4, 3]) torch.Size([1, 2, 3]) True\n"
