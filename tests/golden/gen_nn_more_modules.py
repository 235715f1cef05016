"""Regenerate tests/golden/nn_more_modules.json from PyTorch itself: for each module of
engine/nn/modules_more.py (and modules_fold.py; an adaptive max pool with return_indices: its
indices too, under "indices"), made after torch.manual_seed(0) (default dtype float64, the engine's)
and called on fixed inputs (sin(0, 1, 2, ...) shaped, scaled by the case's factor), what it prints,
its output, and the gradient of sum(output * cos(0, 1, ...)) for each input; and the messages of
bad calls.

Run with a Python that has PyTorch 2.13 (not a dependency of the test suite):

    python tests/golden/gen_nn_more_modules.py
"""
import os
import sys
import warnings

import torch
from torch import nn  # noqa: F401 (read by eval)

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from nn_golden import error_of, write  # noqa: E402

OUT = os.path.join(HERE, "nn_more_modules.json")

# (constructor, input shapes, scale of the inputs); dropout layers are recorded in eval mode
MODULES = [
    ("nn.CELU()", [(2, 5)], 3), ("nn.CELU(0.5)", [(2, 5)], 3), ("nn.Hardtanh()", [(2, 5)], 3),
    ("nn.Hardtanh(-2.0, 0.5)", [(2, 5)], 3), ("nn.LogSigmoid()", [(2, 5)], 3), ("nn.ReLU6()", [(3, 4)], 8),
    ("nn.SELU()", [(2, 5)], 3), ("nn.Softmin(1)", [(2, 5)], 3), ("nn.Softmin(dim=0)", [(2, 5)], 3),
    ("nn.Softmax2d()", [(2, 3, 2, 2)], 2), ("nn.Softmax2d()", [(3, 2, 2)], 2), ("nn.RReLU().eval()", [(2, 5)], 3),
    ("nn.ZeroPad1d(2)", [(1, 2, 3)], 1), ("nn.ZeroPad2d((1, 2, 0, 1))", [(1, 2, 3)], 1),
    ("nn.ZeroPad3d(1)", [(1, 2, 2, 2)], 1), ("nn.ConstantPad1d((1, 2), 3.5)", [(2, 3)], 1),
    ("nn.ConstantPad2d(1, -1.0)", [(1, 2, 3)], 1), ("nn.ConstantPad3d((1, 0, 0, 1, 1, 0), 2.0)", [(1, 2, 2, 2)], 1),
    ("nn.ReflectionPad1d(2)", [(1, 2, 4)], 1), ("nn.ReflectionPad2d((1, 1, 2, 0))", [(1, 1, 3, 3)], 1),
    ("nn.ReflectionPad3d(1)", [(1, 1, 2, 3, 3)], 1), ("nn.ReplicationPad1d((2, 1))", [(1, 2, 3)], 1),
    ("nn.ReplicationPad2d(1)", [(1, 1, 2, 3)], 1), ("nn.ReplicationPad3d(1)", [(1, 2, 2, 2)], 1),
    ("nn.CircularPad1d(1)", [(1, 2, 3)], 1), ("nn.CircularPad2d((1, 0, 1, 2))", [(1, 1, 3, 3)], 1),
    ("nn.CircularPad3d(1)", [(1, 1, 2, 2, 2)], 1),
    ("nn.Dropout1d(0.3).eval()", [(2, 3, 4)], 1), ("nn.Dropout3d().eval()", [(1, 2, 2, 2, 2)], 1),
    ("nn.AlphaDropout(0.2).eval()", [(2, 3)], 1), ("nn.FeatureAlphaDropout().eval()", [(2, 3, 2)], 1),
    ("nn.PixelShuffle(2)", [(1, 8, 2, 3)], 1), ("nn.PixelShuffle(3)", [(9, 1, 2)], 1),
    ("nn.PixelUnshuffle(2)", [(1, 2, 4, 6)], 1), ("nn.ChannelShuffle(2)", [(1, 6, 2)], 1),
    ("nn.ChannelShuffle(3)", [(2, 6, 1, 2)], 1),
    ("nn.UpsamplingNearest2d(scale_factor=2)", [(1, 1, 2, 3)], 1),
    ("nn.UpsamplingBilinear2d(size=(3, 5))", [(1, 2, 2, 3)], 1),
    ("nn.AdaptiveAvgPool1d(3)", [(2, 2, 7)], 1), ("nn.AdaptiveAvgPool1d(2)", [(3, 5)], 1),
    ("nn.LPPool1d(2, 3)", [(1, 2, 7)], 1), ("nn.LPPool1d(1.5, 2, stride=1)", [(1, 2, 5)], 1),
    ("nn.LPPool2d(2, (2, 3))", [(1, 2, 4, 6)], 1), ("nn.LPPool2d(3, 2, stride=1, ceil_mode=True)", [(1, 1, 3, 4)], 1),
    ("nn.LocalResponseNorm(2)", [(2, 4, 3)], 2), ("nn.LocalResponseNorm(3, alpha=0.1, beta=0.5, k=2.0)",
                                                  [(1, 5, 2, 3)], 2),
    ("nn.LocalResponseNorm(4, alpha=0.2)", [(1, 5, 2, 2, 2)], 2),
    ("nn.BatchNorm3d(2)", [(2, 2, 2, 2, 3)], 1), ("nn.InstanceNorm3d(2, affine=True)", [(2, 2, 2, 2, 3)], 1),
    ("nn.InstanceNorm3d(2)", [(2, 2, 3, 2)], 1),
    ("nn.Bilinear(3, 4, 2)", [(5, 3), (5, 4)], 1), ("nn.Bilinear(2, 3, 4, bias=False)", [(2, 3, 2), (2, 3, 3)], 1),
    ("nn.Unfold(2)", [(2, 3, 3, 4)], 1), ("nn.Unfold((2, 3), dilation=(1, 2), padding=1, stride=2)", [(1, 2, 5, 6)], 1),
    ("nn.Unfold(3, padding=1)", [(2, 4, 3)], 1), ("nn.Fold((4, 5), 2)", [(2, 12, 12)], 1),
    ("nn.Fold((5, 6), (2, 3), dilation=(1, 2), padding=1, stride=2)", [(1, 12, 6)], 1),
    ("nn.Fold(3, 3, padding=1)", [(18, 9)], 1),
    ("nn.AdaptiveMaxPool1d(3)", [(2, 2, 7)], 1), ("nn.AdaptiveMaxPool1d(4)", [(3, 4)], 1),
    ("nn.AdaptiveMaxPool2d((2, 3))", [(1, 2, 5, 7)], 1), ("nn.AdaptiveMaxPool2d((4, None))", [(2, 3, 5)], 1),
    ("nn.AdaptiveMaxPool2d(3)", [(1, 1, 7, 8)], 1),
]

ERRORS = ["nn.Softmax2d()(torch.ones(2))", "nn.PixelShuffle(2)(torch.ones(2, 2))",
          "nn.PixelShuffle(2)(torch.ones(1, 5, 2, 2))", "nn.PixelUnshuffle(2)(torch.ones(1, 1, 5, 2))",
          "nn.PixelUnshuffle(2)(torch.ones(1, 1, 2, 5))", "nn.ChannelShuffle(2)(torch.ones(1, 3, 2))",
          "nn.ChannelShuffle(2)(torch.ones(3))", "nn.CircularPad1d(1)(torch.ones(2, 2, 2, 2))",
          "nn.CircularPad2d(1)(torch.ones(3))", "nn.Dropout1d()(torch.ones(2, 2, 2, 2))",
          "nn.AdaptiveAvgPool1d(2)(torch.ones(2))", "nn.LocalResponseNorm(2)(torch.ones(2, 2))",
          "nn.Bilinear(2, 3, 4)(torch.ones(5, 2), torch.ones(4, 3))",
          "nn.Bilinear(2, 3, 4)(torch.ones(5, 3), torch.ones(5, 3))",
          "nn.ZeroPad2d(1)(torch.ones(2))", "nn.ReflectionPad1d(3)(torch.ones(1, 2, 3))",
          "nn.BatchNorm3d(2)(torch.ones(2, 2, 2))", "nn.InstanceNorm3d(2)(torch.ones(2, 2))",
          "nn.ParameterDict()[3]", "nn.ParameterDict({1: torch.ones(1)})", "nn.AlphaDropout(1.5)",
          "nn.Unfold(2)(torch.ones(1, 1, 1, 5))", "nn.Fold((4, 5), 2)(torch.ones(1, 3, 12))",
          "nn.Fold((4, 5), 2)(torch.ones(1, 4, 11))", "nn.Fold((4, 5), 2)(torch.ones(4, 12, 1, 1))",
          "nn.AdaptiveMaxPool1d(2)(torch.ones(2))", "nn.AdaptiveMaxPool2d(2)(torch.ones(2, 2))",
          "nn.MaxUnpool2d(2)(*nn.MaxPool2d(2, return_indices=True)(torch.ones(1, 2, 4, 4)), output_size=(7, 7))",
          "nn.MaxUnpool2d(2)(torch.ones(2, 2), torch.zeros(2, 2, dtype=torch.long))",
          "nn.MaxUnpool1d(2)(torch.ones(1, 2, 3), torch.zeros(1, 2, 3, dtype=torch.long) + 9)",
          "nn.MaxUnpool2d(2)(torch.ones(1, 2, 2), torch.zeros(1, 2, 2))"]

REPRS = ["nn.CELU(0.5, True)", "nn.Hardtanh(-2.0, 2.0, True)", "nn.ReLU6(True)", "nn.SELU(True)", "nn.Softmin()",
         "nn.RReLU()", "nn.RReLU(0.1, 0.3, True)", "nn.ZeroPad3d((1, 2, 3, 4, 5, 6))", "nn.ConstantPad2d(1, 0.5)",
         "nn.Dropout1d()", "nn.Dropout3d(0.2)", "nn.AlphaDropout(0.2)", "nn.FeatureAlphaDropout()",
         "nn.UpsamplingNearest2d(scale_factor=2)", "nn.UpsamplingBilinear2d(size=4)",
         "nn.LPPool2d(1.5, 2, stride=1)", "nn.LocalResponseNorm(2)", "nn.Bilinear(3, 4, 5, bias=False)",
         "nn.ParameterDict()", "nn.ParameterDict({'a': nn.Parameter(torch.ones(2, 3)), 'b': torch.zeros(2)})",
         "nn.BatchNorm3d(3)", "nn.InstanceNorm3d(3)", "nn.NLLLoss2d()",
         "nn.Fold((4, 5), 2, stride=(1, 2))", "nn.AdaptiveMaxPool2d((2, 3))", "nn.AdaptiveMaxPool1d(3, True)",
         "nn.MaxUnpool2d(2)", "nn.MaxUnpool1d(2, stride=1, padding=1)", "nn.MaxUnpool2d((2, 3), stride=(1, 2))", "nn.Unfold((2, 3), dilation=2, padding=1, stride=2)"]

INDICES = ["nn.AdaptiveMaxPool2d((2, 3), return_indices=True)(torch.sin(torch.arange(70.0)).reshape(1, 2, 5, 7))",
           "nn.AdaptiveMaxPool1d(3, return_indices=True)(torch.sin(torch.arange(14.0)).reshape(2, 7))",
           "nn.AdaptiveMaxPool2d(3, return_indices=True)(torch.cos(torch.arange(56.0)).reshape(1, 7, 8))"]
# values of calls that take more than tensors of one shape (an unpool takes a pool's values and indices)
X = "torch.sin(torch.arange(40.0)).reshape(1, 2, 4, 5)"
VALUES = [f"nn.MaxUnpool2d(2)(*nn.MaxPool2d(2, return_indices=True)({X}))",
          f"nn.MaxUnpool2d(2)(*nn.MaxPool2d(2, return_indices=True)({X}), output_size=(5, 5))",
          f"nn.MaxUnpool2d((2, 3), stride=(1, 2))(*nn.MaxPool2d((2, 3), (1, 2), return_indices=True)({X}[0]))",
          "nn.MaxUnpool1d(2, stride=1, padding=1)(*nn.MaxPool1d(2, 1, 1, return_indices=True)"
          "(torch.cos(torch.arange(14.0)).reshape(2, 7)))"]


def _input(shape, scale, offset):
    n = torch.Size(shape).numel()
    return (scale * torch.sin(torch.arange(float(n)) + offset)).reshape(shape).requires_grad_()


def _record(source, shapes, scale):
    torch.manual_seed(0)
    m = eval(source)
    xs = [_input(s, scale, 7 * i) for i, s in enumerate(shapes)]
    y = m(*xs)
    weights = torch.cos(torch.arange(float(y.numel()))).reshape(y.shape)
    (y * weights).sum().backward()
    return {"source": source, "shapes": [list(s) for s in shapes], "scale": scale, "repr": repr(m),
            "output": y.tolist(), "output_shape": list(y.shape), "grads": [x.grad.tolist() for x in xs],
            "state": {k: v.tolist() for k, v in m.state_dict().items()}}




def main():
    torch.set_default_dtype(torch.float64)
    warnings.simplefilter("ignore")
    data = {"modules": [_record(*case) for case in MODULES], "errors": [error_of(s, globals()) for s in ERRORS],
            "reprs": {s: repr(eval(s)) for s in REPRS},
            "indices": {s: eval(s)[1].tolist() for s in INDICES}, "values": {s: eval(s).tolist() for s in VALUES}}
    write(OUT, data)


if __name__ == "__main__":
    main()
