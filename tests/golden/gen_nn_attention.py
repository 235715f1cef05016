"""Regenerate tests/golden/nn_attention.json from PyTorch itself: for each MultiheadAttention, made
after torch.manual_seed(0) (default dtype float64, the engine's) and called on fixed inputs
(sin(0, 1, ...) shaped, each input offset by 3) with the case's masks and options, what it prints,
its parameters, its output and attention weights, and the gradients of sum(output^2) + sum(weights
* cos(0, 1, ...)) for each input and parameter; and the messages of bad calls.

Run with a Python that has PyTorch 2.13 (not a dependency of the test suite):

    python tests/golden/gen_nn_attention.py
"""
import os
import sys
import warnings

import torch
from torch import nn  # noqa: F401 (read by eval)

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from nn_golden import error_of, grads_of, made, write  # noqa: E402

OUT = os.path.join(HERE, "nn_attention.json")

# (constructor, (query, key, value) shapes, keyword arguments as source)
CASES = [
    ("nn.MultiheadAttention(4, 2)", [(3, 2, 4), (5, 2, 4), (5, 2, 4)], "{}"),
    ("nn.MultiheadAttention(4, 2, batch_first=True)", [(2, 3, 4), (2, 5, 4), (2, 5, 4)],
     "{'average_attn_weights': False}"),
    ("nn.MultiheadAttention(4, 1, kdim=3, vdim=5, add_zero_attn=True)", [(3, 4), (5, 3), (5, 5)], "{}"),
    ("nn.MultiheadAttention(6, 3, bias=False)", [(3, 2, 6), (3, 2, 6), (3, 2, 6)],
     "{'attn_mask': torch.triu(torch.ones(3, 3), diagonal=1).bool(), 'is_causal': True}"),
    ("nn.MultiheadAttention(4, 2)", [(3, 2, 4), (5, 2, 4), (5, 2, 4)],
     "{'key_padding_mask': torch.tensor([[False, False, True, False, True], [False] * 5]), "
     "'attn_mask': torch.sin(torch.arange(15.0)).reshape(3, 5)}"),
    ("nn.MultiheadAttention(4, 2, add_bias_kv=True, add_zero_attn=True)", [(3, 2, 4), (5, 2, 4), (5, 2, 4)],
     "{'key_padding_mask': torch.tensor([[0.0, -1.0, 0.0, 0.0, 0.0], [0.0] * 5]), "
     "'attn_mask': torch.sin(torch.arange(60.0)).reshape(4, 3, 5)}"),
    ("nn.MultiheadAttention(4, 2, kdim=2)", [(3, 2, 4), (5, 2, 2), (5, 2, 4)], "{'need_weights': False}"),
]

ERRORS = ["nn.MultiheadAttention(5, 2)", "nn.MultiheadAttention(0, 2)",
          "nn.MultiheadAttention(4, 2)(torch.ones(3, 2, 4), torch.ones(3, 2, 4), torch.ones(3, 2, 4), is_causal=True)"]


def _record(source, shapes, keywords):
    m, params, xs = made(source, shapes, globals())
    out, weights = m(*xs, **eval(keywords))
    loss = (out * out).sum()
    if weights is not None:
        loss = loss + (weights * torch.cos(torch.arange(float(weights.numel()))).reshape(weights.shape)).sum()
    loss.backward()
    return {"source": source, "shapes": [list(s) for s in shapes], "keywords": keywords, "repr": repr(m),
            "parameters": params, "output": out.tolist(), "output_shape": list(out.shape),
            "weights": None if weights is None else weights.tolist(),
            **grads_of(xs, m)}


def main():
    torch.set_default_dtype(torch.float64)
    warnings.simplefilter("ignore")
    write(OUT, {"cases": [_record(*c) for c in CASES], "errors": [error_of(s, globals()) for s in ERRORS]})


if __name__ == "__main__":
    main()
