"""More of torch.nn's modules, each a composition of what nn.functional and the engine have: the
activations CELU, Hardtanh, LogSigmoid, ReLU6, SELU, Softmin, Softmax2d, RReLU; the padding layers
(Zero/Constant/Reflection/Replication/CircularPad 1d-3d, over F.pad); Dropout1d, Dropout3d,
AlphaDropout, FeatureAlphaDropout; PixelShuffle, PixelUnshuffle, ChannelShuffle; UpsamplingNearest2d,
UpsamplingBilinear2d; AdaptiveAvgPool1d, LPPool1d, LPPool2d, LPPool3d; LocalResponseNorm; Bilinear;
BatchNorm3d, InstanceNorm3d; ParameterDict; NLLLoss2d; and Buffer (nn/module.py's, where Module's
registration knows it) -- re-exported by the nn package.

These are compositions, so a result's grad_fn is the last op's node; RReLU, the dropouts and the
LPPools are their F functions as layers; PixelShuffle, PixelUnshuffle and ChannelShuffle are
F's rows, under PyTorch's nodes. The dropout masks and RReLU's slopes are the engine's draws, not
PyTorch's numbers for a seed; Bilinear's initial weights are PyTorch's (its rule over PyTorch's
generator).
"""
import math
import warnings

from .. import functions as _fn
from ..tensor_class import Tensor
from . import functional as F
from . import init
from .module import Buffer, Module, Parameter
from .modules import NLLLoss, _module
from .modules_conv import _BatchNorm
from .modules_nnlayers import Upsample, _InstanceNorm

__all__ = ["CELU", "Hardtanh", "LogSigmoid", "ReLU6", "SELU", "Softmin", "Softmax2d", "RReLU",
           "ZeroPad1d", "ZeroPad2d", "ZeroPad3d", "ConstantPad1d", "ConstantPad2d", "ConstantPad3d",
           "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d",
           "ReplicationPad3d", "CircularPad1d", "CircularPad2d", "CircularPad3d",
           "Dropout1d", "Dropout3d", "AlphaDropout", "FeatureAlphaDropout", "PixelShuffle", "PixelUnshuffle",
           "ChannelShuffle", "UpsamplingNearest2d", "UpsamplingBilinear2d", "AdaptiveAvgPool1d", "LPPool1d",
           "LPPool2d", "LPPool3d", "LocalResponseNorm", "Bilinear", "BatchNorm3d", "InstanceNorm3d", "ParameterDict",
           "NLLLoss2d", "Buffer"]

# ---------------------------------------------------------------- activations
CELU = _module("CELU", F.celu, (("alpha", 1.0), ("inplace", False)))
Hardtanh = _module("Hardtanh", F.hardtanh, (("min_val", -1.0), ("max_val", 1.0), ("inplace", False)))
LogSigmoid = _module("LogSigmoid", F.logsigmoid)
ReLU6 = _module("ReLU6", F.relu6, (("inplace", False),))
SELU = _module("SELU", F.selu, (("inplace", False),))
Softmin = _module("Softmin", F.softmin, (("dim", None),))
for _cls in (CELU, Hardtanh, LogSigmoid, ReLU6, SELU, Softmin):
    _cls.__module__ = __name__


class Softmax2d(Module):
    """softmax over the channels (dim -3) of a (C, H, W) or (N, C, H, W) input."""

    def forward(self, input):
        if input.dim() not in (3, 4):
            raise ValueError(f"Softmax2d: expected input to be 3D or 4D, got {input.dim()}D instead")
        return F.softmax(input, -3)


class RReLU(Module):
    """Randomized leaky ReLU: while training, each negative element scaled by a slope drawn uniformly
    in [lower, upper]; in eval mode by their mean (leaky_relu)."""

    def __init__(self, lower=1.0 / 8, upper=1.0 / 3, inplace=False):
        super().__init__()
        self.lower, self.upper, self.inplace = lower, upper, inplace

    def forward(self, input):
        return F.rrelu(input, self.lower, self.upper, self.training, self.inplace)

    def extra_repr(self):
        return f"lower={self.lower}, upper={self.upper}" + (", inplace=True" if self.inplace else "")


# ---------------------------------------------------------------- padding
class _Pad(Module):
    """F.pad as a layer over the last `_k` dims: `padding` an int (every side) or 2 * _k amounts."""
    _k = None
    _mode = "constant"
    _input_dims = None  # the input dims the layer takes (only the circular ones check them)

    def __init__(self, padding):
        super().__init__()
        self.padding = (padding,) * (2 * self._k) if isinstance(padding, int) else tuple(padding)

    def forward(self, input):
        if self._input_dims is not None and input.dim() not in self._input_dims:
            a, b = self._input_dims
            raise ValueError(f"expected {a}D or {b}D input (got {input.dim()}D input)")
        return F.pad(input, self.padding, self._mode, getattr(self, "value", None))

    def extra_repr(self):
        return f"{self.padding}"


class _ConstantPad(_Pad):
    def __init__(self, padding, value):
        super().__init__(padding)
        self.value = value

    def extra_repr(self):
        return f"padding={self.padding}, value={self.value}"


class _ZeroPad(_ConstantPad):
    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"


def _pad_layer(name, base, k, mode, what):
    dims = (k + 1, k + 2) if mode == "circular" else None  # PyTorch's CircularPad checks; the others leave it to F.pad
    return type(name, (base,), {"_k": k, "_mode": mode, "_input_dims": dims, "__module__": __name__,
                                "__doc__": f"The input's last {'dim' if k == 1 else f'{k} dims'} padded {what}."})


ZeroPad1d, ZeroPad2d, ZeroPad3d = (_pad_layer(f"ZeroPad{k}d", _ZeroPad, k, "constant", "with zeros")
                                   for k in (1, 2, 3))
ConstantPad1d, ConstantPad2d, ConstantPad3d = (_pad_layer(f"ConstantPad{k}d", _ConstantPad, k, "constant",
                                                          "with a constant value") for k in (1, 2, 3))
ReflectionPad1d, ReflectionPad2d, ReflectionPad3d = (
    _pad_layer(f"ReflectionPad{k}d", _Pad, k, "reflect", "with the input reflected at its edges") for k in (1, 2, 3))
ReplicationPad1d, ReplicationPad2d, ReplicationPad3d = (
    _pad_layer(f"ReplicationPad{k}d", _Pad, k, "replicate", "with the edge values repeated") for k in (1, 2, 3))
CircularPad1d, CircularPad2d, CircularPad3d = (
    _pad_layer(f"CircularPad{k}d", _Pad, k, "circular", "with the other end's values (wrapped)") for k in (1, 2, 3))


# ---------------------------------------------------------------- dropout

class _DropoutLayer(Module):
    """A dropout function (`_function`, of F) as a layer."""
    _function = None

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        F.check_dropout_p(p)
        self.p, self.inplace = p, inplace

    def forward(self, input):
        return getattr(F, self._function)(input, self.p, self.training, self.inplace)

    def extra_repr(self):
        return f"p={self.p}, inplace={self.inplace}"


class Dropout1d(_DropoutLayer):
    """While training, whole channels of an (N, C, L) or (C, L) input zeroed with probability p, the
    rest scaled by 1/(1-p) (F.dropout1d)."""
    _function = "dropout1d"


class Dropout3d(_DropoutLayer):
    """While training, whole channels of an (N, C, D, H, W) or (C, D, H, W) input zeroed with
    probability p, the rest scaled by 1/(1-p) (F.dropout3d)."""
    _function = "dropout3d"


class AlphaDropout(_DropoutLayer):
    """SELU's dropout (F.alpha_dropout); as PyTorch's layer, never in place."""

    def forward(self, input):
        return F.alpha_dropout(input, self.p, self.training)


class FeatureAlphaDropout(_DropoutLayer):
    """AlphaDropout of whole channels (F.feature_alpha_dropout); never in place."""

    def forward(self, input):
        return F.feature_alpha_dropout(input, self.p, self.training)


# ---------------------------------------------------------------- rearranging
class PixelShuffle(Module):
    """(*, C r^2, H, W) to (*, C, H r, W r): each group of r^2 channels spread over an r x r block."""

    def __init__(self, upscale_factor):
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input):
        return F.pixel_shuffle(input, self.upscale_factor)

    def extra_repr(self):
        return f"upscale_factor={self.upscale_factor}"


class PixelUnshuffle(Module):
    """(*, C, H r, W r) to (*, C r^2, H, W): PixelShuffle undone."""

    def __init__(self, downscale_factor):
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input):
        return F.pixel_unshuffle(input, self.downscale_factor)

    def extra_repr(self):
        return f"downscale_factor={self.downscale_factor}"


class ChannelShuffle(Module):
    """The channels (dim 1) of an (N, C, *) input, in `groups` groups, interleaved: (g, C/g) read as (C/g, g)."""

    def __init__(self, groups):
        super().__init__()
        self.groups = groups

    def forward(self, input):
        return F.channel_shuffle(input, self.groups)

    def extra_repr(self):
        return f"groups={self.groups}"


class UpsamplingNearest2d(Upsample):
    """Upsample in mode 'nearest', to `size` or by scale_factor."""

    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, mode="nearest")


class UpsamplingBilinear2d(Upsample):
    """Upsample in mode 'bilinear' with align_corners=True, to `size` or by scale_factor."""

    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, mode="bilinear", align_corners=True)


# ---------------------------------------------------------------- pooling and norms
class AdaptiveAvgPool1d(Module):
    """Each row of an (N, C, L) or (C, L) input averaged down to output_size (F.adaptive_avg_pool1d)."""

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def forward(self, input):
        return F.adaptive_avg_pool1d(input, self.output_size)

    def extra_repr(self):
        return f"output_size={self.output_size}"


class _LPPool(Module):
    """Power-average pooling: (sum of x^p over each window)^(1/p), as PyTorch's lp_pool (an
    avg_pool of x^p times the window's size)."""

    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False):
        super().__init__()
        self.norm_type, self.kernel_size, self.stride, self.ceil_mode = norm_type, kernel_size, stride, ceil_mode

    def forward(self, input):
        return getattr(F, f"lp_pool{self._k}d")(input, float(self.norm_type), self.kernel_size, self.stride,
                                                self.ceil_mode)

    def extra_repr(self):
        return (f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, stride={self.stride}, "
                f"ceil_mode={self.ceil_mode}")


class LPPool1d(_LPPool):
    """lp_pool1d as a layer (stride defaults to kernel_size)."""
    _k = 1


class LPPool2d(_LPPool):
    """lp_pool2d as a layer (stride defaults to kernel_size)."""
    _k = 2


class LPPool3d(_LPPool):
    """lp_pool3d as a layer (stride defaults to kernel_size)."""
    _k = 3


class LocalResponseNorm(Module):
    """Each value divided by (k + alpha * the mean of the squares of `size` neighbouring channels)^beta."""

    def __init__(self, size, alpha=1e-4, beta=0.75, k=1.0):
        super().__init__()
        self.size, self.alpha, self.beta, self.k = size, alpha, beta, k

    def forward(self, input):
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self):
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"


class BatchNorm3d(_BatchNorm):
    """batch_norm over (N, C, D, H, W) inputs, as a layer."""

    def _check_input_dim(self, input):
        if input.dim() != 5:
            raise ValueError(f"expected 5D input (got {input.dim()}D input)")


class InstanceNorm3d(_InstanceNorm):
    """instance_norm over (N, C, D, H, W) or (C, D, H, W) inputs, as a layer."""
    _no_batch_dim = 4
    _dims = (4, 5)


# ---------------------------------------------------------------- Bilinear
class Bilinear(Module):
    """y = x1^T A x2 + b for each output feature: a weight (out_features, in1_features, in2_features)
    and a bias (out_features), both drawn uniform in +-1/sqrt(in1_features) as PyTorch's."""

    def __init__(self, in1_features, in2_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in1_features, self.in2_features, self.out_features = in1_features, in2_features, out_features
        self.weight = Parameter(_fn.empty(out_features, in1_features, in2_features, dtype=dtype, device=device))
        if bias:
            self.bias = Parameter(_fn.empty(out_features, dtype=dtype, device=device))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        bound = 1 / math.sqrt(self.weight.size(1))
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input1, input2):
        return F.bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self):
        return (f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
                f"out_features={self.out_features}, bias={self.bias is not None}")


# ---------------------------------------------------------------- containers and losses
class ParameterDict(Module):
    """Parameters held by (string) name, as a dict in the order added: registered, so they are the
    owner's; a tensor put in becomes a Parameter."""

    def __init__(self, parameters=None):
        super().__init__()
        if parameters is not None:
            self.update(parameters)

    @staticmethod
    def _key(key):
        if not isinstance(key, str):
            raise TypeError(f"Index given to ParameterDict cannot be used as a key as it is not a string (type is "
                            f"'{type(key).__name__}'). Open an issue on github if you need non-string keys.")
        return key

    def __getitem__(self, key):
        return self._parameters[self._key(key)]

    def __setitem__(self, key, value):
        if isinstance(value, Tensor) and not isinstance(value, Parameter):
            value = Parameter(value)
        self.register_parameter(self._key(key), value)

    def __delitem__(self, key):
        del self._parameters[self._key(key)]

    def __len__(self):
        return len(self._parameters)

    def __iter__(self):
        return iter(list(self._parameters))

    def __contains__(self, key):
        return key in self._parameters

    def keys(self):
        return self._parameters.keys()

    def items(self):
        return self._parameters.items()

    def values(self):
        return self._parameters.values()

    def get(self, key, default=None):
        return self._parameters.get(self._key(key), default)

    def pop(self, key):
        value = self[key]
        del self[key]
        return value

    def clear(self):
        self._parameters.clear()

    def setdefault(self, key, default=None):
        if key not in self:
            self[key] = default
        return self[key]

    def update(self, parameters):
        """Add (or replace) from a dict, a ParameterDict or an iterable of (name, tensor) pairs."""
        pairs = parameters.items() if hasattr(parameters, "items") else parameters
        for j, pair in enumerate(pairs):
            if len(pair) != 2:
                raise ValueError(f"ParameterDict update sequence element #{j} has length {len(pair)}; 2 is required")
            self[pair[0]] = pair[1]

    def extra_repr(self):
        lines = []
        for k, p in self._parameters.items():
            if isinstance(p, Tensor):
                size = "x".join(str(s) for s in p.shape)
                kind = "Parameter containing" if isinstance(p, Parameter) else "Tensor"
                lines.append(f"  ({k}): {kind}: [{p.type()} of size {size}]")
            else:
                lines.append(f"  ({k}): Object of type: {type(p).__name__}")
        return "\n".join(lines)


class NLLLoss2d(NLLLoss):
    """NLLLoss under its old name (deprecated by PyTorch: a FutureWarning when made)."""

    def __init__(self, *args, **kwargs):
        warnings.warn("`NLLLoss2d` has been deprecated. Please use `NLLLoss` instead as a drop-in replacement and "
                      "see https://pytorch.org/docs/main/nn.html#torch.nn.NLLLoss for more details.",
                      FutureWarning, stacklevel=2)
        super().__init__(*args, **kwargs)
