"""Regenerate tests/golden/nn_rnn.json from PyTorch itself: for each recurrent layer (RNN, LSTM, GRU
and their cells), made after torch.manual_seed(0) (default dtype float64, the engine's) and called
on fixed inputs (sin(0, 1, ...) shaped, each input offset by 3), what it prints, its parameters'
names and values, its outputs (the hidden state too), and the gradients of the sum of every output
times cos(0, 1, ...) for each input and parameter; and the messages of bad calls.

Run with a Python that has PyTorch 2.13 (not a dependency of the test suite):

    python tests/golden/gen_nn_rnn.py
"""
import os
import sys
import warnings

import torch
from torch import nn  # noqa: F401 (read by eval)

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from nn_golden import error_of, grads_of, made, write  # noqa: E402

OUT = os.path.join(HERE, "nn_rnn.json")

# (constructor, input shapes; an LSTM's (h0, c0) given as two shapes after the input)
CASES = [
    ("nn.RNNCell(3, 4)", [(2, 3)]), ("nn.RNNCell(3, 4, bias=False, nonlinearity='relu')", [(2, 3), (2, 4)]),
    ("nn.RNNCell(3, 4)", [(3,), (4,)]), ("nn.LSTMCell(3, 4)", [(2, 3)]), ("nn.LSTMCell(3, 4)", [(3,), (4,), (4,)]),
    ("nn.GRUCell(3, 4)", [(2, 3), (2, 4)]), ("nn.GRUCell(2, 3, bias=False)", [(2,)]),
    ("nn.RNN(3, 4)", [(5, 2, 3)]), ("nn.RNN(3, 4, 2, nonlinearity='relu')", [(5, 3)]),
    ("nn.RNN(3, 4, batch_first=True, bidirectional=True)", [(2, 5, 3), (2, 2, 4)]),
    ("nn.LSTM(3, 4)", [(5, 2, 3)]), ("nn.LSTM(3, 4, 2, batch_first=True, bidirectional=True)", [(2, 5, 3)]),
    ("nn.LSTM(3, 4, proj_size=2)", [(5, 2, 3), (1, 2, 2), (1, 2, 4)]), ("nn.LSTM(3, 5, 2, bias=False)", [(4, 3)]),
    ("nn.GRU(3, 4)", [(5, 2, 3)]), ("nn.GRU(3, 4, bidirectional=True)", [(5, 2, 3), (2, 2, 4)]),
    ("nn.GRU(2, 3, 3, batch_first=True)", [(1, 4, 2)]),
]

ERRORS = ["nn.RNNCell(3, 4)(torch.ones(2, 2))", "nn.RNNCell(3, 4)(torch.ones(2, 3), torch.ones(3, 4))",
          "nn.RNNCell(3, 4)(torch.ones(1, 2, 3))", "nn.LSTMCell(3, 4)(torch.ones(2, 3), torch.ones(2, 4))",
          "nn.RNN(3, 4)(torch.ones(2, 2, 2, 3))", "nn.RNN(3, 4)(torch.ones(2, 2, 2))",
          "nn.RNN(3, 4)(torch.ones(5, 2, 3), torch.ones(1, 3, 4))",
          "nn.RNN(3, 4)(torch.ones(5, 3), torch.ones(1, 3, 4))", "nn.RNN(3, 4, nonlinearity='x')",
          "nn.LSTM(3, 4, proj_size=4)", "nn.GRU(3, 4)(torch.ones(5, 2, 3), torch.ones(2, 2, 4))",
          "nn.RNN(3, 4)(torch.ones(5, 2, 3), torch.ones(2, 4))", "nn.RNN(3, 4, dropout=2)",
          "nn.GRU(3, 0)", "nn.LSTM(3, 4, 0)"]

REPRS = ["nn.RNN(3, 4, nonlinearity='relu', bias=False)", "nn.LSTM(3, 4, 2, dropout=0.25)",
         "nn.GRU(3, 4, batch_first=True, bidirectional=True)", "nn.LSTM(3, 4, proj_size=2)",
         "nn.RNNCell(3, 4, nonlinearity='relu')", "nn.GRUCell(3, 4, bias=False)"]


def _flat(out):
    return [t for o in out for t in _flat(o)] if isinstance(out, tuple) else [out]


def _record(source, shapes):
    m, params, xs = made(source, shapes, globals())
    args = xs[:1] + ([tuple(xs[1:])] if len(xs) == 3 else xs[1:])  # an LSTM's (h0, c0)
    outs = _flat(m(*args))
    sum(((o * torch.cos(torch.arange(float(o.numel()))).reshape(o.shape)).sum() for o in outs)).backward()
    return {"source": source, "shapes": [list(s) for s in shapes], "repr": repr(m),
            "parameters": params,
            "outputs": [o.tolist() for o in outs], "output_shapes": [list(o.shape) for o in outs],
            **grads_of(xs, m)}




def main():
    torch.set_default_dtype(torch.float64)
    warnings.simplefilter("ignore")
    data = {"cases": [_record(*c) for c in CASES], "errors": [error_of(s, globals()) for s in ERRORS],
            "reprs": {s: repr(eval(s)) for s in REPRS}}
    write(OUT, data)


if __name__ == "__main__":
    main()
