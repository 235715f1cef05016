"""Regenerate tests/golden/nn_transformer.json from PyTorch itself: for each Transformer layer or
stack, made after torch.manual_seed(0) (default dtype float64, the engine's; dropout 0, train mode)
and called on fixed inputs (sin(0, 1, ...) shaped, each input offset by 3) with the case's masks,
what it prints, its parameters, its output, and the gradients of sum(output^3) for each input and
parameter; and the messages of bad calls.

Run with a Python that has PyTorch 2.13 (not a dependency of the test suite):

    python tests/golden/gen_nn_transformer.py
"""
import os
import sys
import warnings

import torch
from torch import nn  # noqa: F401 (read by eval)

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from nn_golden import error_of, grads_of, made, write  # noqa: E402

OUT = os.path.join(HERE, "nn_transformer.json")
CAUSAL = "nn.Transformer.generate_square_subsequent_mask(3)"

# (constructor, input shapes, keyword arguments as source)
CASES = [
    ("nn.TransformerEncoderLayer(4, 2, 8, 0.0)", [(3, 2, 4)], "{}"),
    ("nn.TransformerEncoderLayer(4, 2, 8, 0.0, activation='gelu', norm_first=True, batch_first=True)", [(2, 3, 4)],
     "{'src_mask': " + CAUSAL + "}"),
    ("nn.TransformerEncoderLayer(4, 1, 6, 0.0, activation=nn.Tanh(), bias=False)", [(3, 4)], "{}"),
    ("nn.TransformerDecoderLayer(4, 2, 8, 0.0)", [(3, 2, 4), (5, 2, 4)], "{'tgt_mask': " + CAUSAL + "}"),
    ("nn.TransformerDecoderLayer(4, 2, 8, 0.0, norm_first=True)", [(3, 2, 4), (5, 2, 4)],
     "{'memory_key_padding_mask': torch.tensor([[False, True, False, False, True], [False] * 5])}"),
    ("nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, 8, 0.0), 2, norm=nn.LayerNorm(4))", [(3, 2, 4)],
     "{'src_key_padding_mask': torch.tensor([[False, True, False], [False] * 3])}"),
    ("nn.TransformerDecoder(nn.TransformerDecoderLayer(4, 2, 8, 0.0), 2)", [(3, 2, 4), (5, 2, 4)], "{}"),
    ("nn.Transformer(4, 2, 2, 1, 8, 0.0)", [(5, 2, 4), (3, 2, 4)], "{'tgt_mask': " + CAUSAL + "}"),
]

ERRORS = ["nn.Transformer(4, 2, 1, 1, 8)(torch.ones(3, 2, 4), torch.ones(3, 1, 4))",
          "nn.Transformer(4, 2, 1, 1, 8)(torch.ones(3, 2, 4), torch.ones(3, 2, 5))",
          "nn.TransformerEncoderLayer(4, 2, activation='tanh')"]
REPRS = ["nn.Transformer(4, 2, 2, 1, 8)", "nn.TransformerEncoderLayer(4, 2, activation=nn.GELU())",
         "nn.Transformer.generate_square_subsequent_mask(3)"]


def _record(source, shapes, keywords):
    m, params, xs = made(source, shapes, globals())
    out = m(*xs, **eval(keywords))
    (out * out * out).sum().backward()
    return {"source": source, "shapes": [list(s) for s in shapes], "keywords": keywords, "repr": repr(m),
            "parameters": params, "output": out.tolist(), "output_shape": list(out.shape),
            **grads_of(xs, m)}


def main():
    torch.set_default_dtype(torch.float64)
    warnings.simplefilter("ignore")
    write(OUT, {"cases": [_record(*c) for c in CASES], "errors": [error_of(s, globals()) for s in ERRORS],
                "reprs": {s: repr(eval(s)) for s in REPRS}})


if __name__ == "__main__":
    main()
