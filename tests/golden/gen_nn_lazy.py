"""Regenerate tests/golden/nn_lazy.json from PyTorch itself: for each Lazy module, made after
torch.manual_seed(0) (default dtype float64, the engine's) and called once on a fixed input, what
it prints before and after the call, the class it becomes, its parameters (drawn at that call, by
PyTorch's init over its generator) and buffers, its output, its state_dict's keys and printing
before the call; and the messages of misuses of an uninitialized parameter.

Run with a Python that has PyTorch 2.13 (not a dependency of the test suite):

    python tests/golden/gen_nn_lazy.py
"""
import os
import sys

import torch
from torch import nn

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from nn_golden import error_of, write  # noqa: E402

OUT = os.path.join(HERE, "nn_lazy.json")

# (constructor, input shape): the input is sin(0, 1, 2, ...) in that shape
MODULES = [
    ("nn.LazyLinear(3)", (2, 5)),
    ("nn.LazyLinear(4, bias=False)", (2, 3, 6)),
    ("nn.LazyConv1d(4, 3)", (2, 3, 7)),
    ("nn.LazyConv1d(4, 3, groups=2, bias=False)", (2, 6, 5)),
    ("nn.LazyConv2d(2, (2, 3), stride=2, padding=1)", (1, 3, 6, 7)),
    ("nn.LazyConv2d(3, 2)", (2, 5, 5)),
    ("nn.LazyConvTranspose1d(4, 3, groups=2)", (1, 2, 5)),
    ("nn.LazyConvTranspose2d(3, 2, stride=2)", (2, 4, 3, 3)),
    ("nn.LazyBatchNorm1d()", (4, 3)),
    ("nn.LazyBatchNorm2d(affine=False)", (2, 3, 4, 4)),
    ("nn.LazyInstanceNorm1d()", (2, 3, 5)),
    ("nn.LazyInstanceNorm2d(track_running_stats=False)", (2, 3, 4, 4)),
    ("nn.LazyBatchNorm3d(momentum=0.5)", (2, 2, 2, 3, 2)),
    ("nn.LazyInstanceNorm3d()", (2, 3, 2, 2, 2)),
]

# misuses of a LazyLinear(3)'s weight before the first call (m, w = the module, its weight)
ERRORS = ["w.shape", "w + 1", "2 * w", "w.sum()", "w.detach()", "w.numel()", "w[0]", "-w", "w @ w", "w > 0",
          "nn.Linear(4, 3).load_state_dict(m.state_dict())",
          "nn.LazyConv2d(4, 3)(torch.ones(3, 4))", "nn.LazyConv1d(4, 3, groups=2)(torch.ones(1, 3, 5))",
          "nn.LazyLinear(3)(torch.tensor(1.0))", "nn.UninitializedBuffer() + 1"]


def _input(shape):
    return torch.sin(torch.arange(float(torch.Size(shape).numel()))).reshape(shape)


def _record(source, shape):
    torch.manual_seed(0)
    m = eval(source)
    before = {"repr": repr(m), "state_dict": repr(m.state_dict()), "lazy": m.has_uninitialized_params(),
              "parameters": repr(list(m.named_parameters()))}
    y = m(_input(shape))
    return {"source": source, "shape": list(shape), "before": before, "repr": repr(m), "class": type(m).__name__,
            "output": y.tolist(), "output_shape": list(y.shape),
            "state": {k: v.tolist() for k, v in m.state_dict().items()}}




def _lazy_error(source):
    m = nn.LazyLinear(3)
    return error_of(source, dict(globals(), m=m, w=m.weight))


def main():
    torch.set_default_dtype(torch.float64)
    data = {"modules": [_record(s, shape) for s, shape in MODULES], "errors": [_lazy_error(s) for s in ERRORS]}
    write(OUT, data)


if __name__ == "__main__":
    main()
