"""torch.nn's Lazy modules: LazyLinear, LazyConv1d/2d, LazyConvTranspose1d/2d, LazyBatchNorm1d/2d/3d and
LazyInstanceNorm1d/2d/3d, with PyTorch's semantics (LazyConv3d and LazyConvTranspose3d are left
out).

A Lazy module is made without its input size: its parameters (and a norm's running statistics) are
placeholders (nn/uninitialized.py), printed <UninitializedParameter>, kept as they are by
state_dict. Its first call reads the size from the input (`initialize_parameters`), materializes
the placeholders in place -- the same objects, so an optimizer made before the call keeps them --,
draws their initial values as the ordinary module's reset_parameters does (PyTorch's numbers for
the same seed, drawn at that call as in PyTorch), and turns the module into the ordinary class
(`cls_to_become`: LazyLinear becomes Linear). load_state_dict of an initialized state gives the
placeholders its shapes (the module stays Lazy until its first call, as in PyTorch).
"""
from .. import dtypes as _dt
from .. import functions as _fn
from ..core.grad_mode import no_grad
from .modules import Linear
from .modules_conv import BatchNorm1d, BatchNorm2d, Conv1d, Conv2d
from .modules_more import BatchNorm3d, InstanceNorm3d
from .modules_nnlayers import ConvTranspose1d, ConvTranspose2d, InstanceNorm1d, InstanceNorm2d
from .uninitialized import UninitializedBuffer, UninitializedParameter, is_lazy

__all__ = ["UninitializedParameter", "UninitializedBuffer", "LazyLinear", "LazyConv1d",
           "LazyConv2d", "LazyConvTranspose1d", "LazyConvTranspose2d", "LazyBatchNorm1d", "LazyBatchNorm2d",
           "LazyBatchNorm3d", "LazyInstanceNorm1d", "LazyInstanceNorm2d", "LazyInstanceNorm3d"]


class LazyModuleMixin:
    """What makes a module Lazy: placeholders until the first call, which runs
    initialize_parameters(*inputs), checks nothing is left uninitialized, and turns the module into
    `cls_to_become` (when set) before calling it."""
    cls_to_become = None
    _inferred = None  # the attribute the first input sets (in_features, in_channels, num_features)

    def has_uninitialized_params(self):
        """Whether a parameter or buffer of this module (not its children) is still a placeholder."""
        return any(is_lazy(t) for t in list(self._parameters.values()) + list(self._buffers.values()))

    def initialize_parameters(self, *args, **kwargs):
        raise NotImplementedError(f"initialize_parameters is not implemented for {type(self).__name__}")

    def reset_parameters(self):
        """The ordinary module's, once the placeholders are materialized and the size known."""
        if not self.has_uninitialized_params() and getattr(self, self._inferred) != 0:
            super().reset_parameters()

    def __call__(self, *args, **kwargs):
        if "_lazy_done" in self.__dict__:
            return super().__call__(*args, **kwargs)
        self.initialize_parameters(*args, **kwargs)
        if self.has_uninitialized_params():
            raise RuntimeError(f"module {type(self).__name__} has not been fully initialized")
        if self.cls_to_become is None:
            self.__dict__["_lazy_done"] = True
            return super().__call__(*args, **kwargs)
        object.__setattr__(self, "__class__", self.cls_to_become)
        return self(*args, **kwargs)

    def _materialize(self, names, shape):
        for name in names:
            t = getattr(self, name, None)
            if is_lazy(t):
                t.materialize(shape)


class LazyLinear(LazyModuleMixin, Linear):
    """Linear whose in_features is read from the last dim of its first input."""
    cls_to_become = Linear
    _inferred = "in_features"

    def __init__(self, out_features, bias=True, device=None, dtype=None):
        Linear.__init__(self, 0, 0, False, device, dtype)
        self.in_features, self.out_features = 0, out_features
        self.weight = UninitializedParameter(device=device, dtype=dtype)
        if bias:
            self.bias = UninitializedParameter(device=device, dtype=dtype)
        else:
            self.register_parameter("bias", None)

    def initialize_parameters(self, input):
        """in_features from input.shape[-1]; the weight and bias materialized and drawn as Linear's."""
        if self.has_uninitialized_params():
            with no_grad():
                self.in_features = input.shape[-1]
                self.weight.materialize((self.out_features, self.in_features))
                if self.bias is not None:
                    self.bias.materialize((self.out_features,))
                self.reset_parameters()
        if self.in_features == 0:  # loaded by load_state_dict: the size from the loaded weight
            if input.shape[-1] != self.weight.shape[-1]:
                raise AssertionError(f"The in_features inferred from input: {input.shape[-1]} is not equal to "
                                     f"in_features from self.weight: {self.weight.shape[-1]}")
            self.in_features = input.shape[-1]


class _LazyConv(LazyModuleMixin):
    """What the Lazy convolutions share: in_channels from the first input's channel dim."""
    _inferred = "in_channels"

    def _lazy_init(self, bias, device, dtype):
        self.weight = UninitializedParameter(device=device, dtype=dtype)
        if bias:
            self.bias = UninitializedParameter(device=device, dtype=dtype)

    def _in_channels(self, input):
        batched = self._k + 2
        if input.dim() not in (batched - 1, batched):
            raise RuntimeError(f"Expected {batched - 1}D (unbatched) or {batched}D (batched) input to "
                               f"{type(self).__name__}, but got input of size: {input.shape}")
        return input.shape[1] if input.dim() == batched else input.shape[0]

    def initialize_parameters(self, input, *args, **kwargs):
        """in_channels from the input; the weight ((out, in / groups, K...), transposed (in, out /
        groups, K...)) and bias materialized and drawn as the ordinary module's."""
        if self.has_uninitialized_params():
            self.in_channels = self._in_channels(input)
            if self.in_channels % self.groups != 0:
                raise ValueError("in_channels must be divisible by groups")
            pair = ((self.in_channels, self.out_channels // self.groups) if self.transposed
                    else (self.out_channels, self.in_channels // self.groups))
            with no_grad():
                self._materialize(("weight",), pair + tuple(self.kernel_size))
                self._materialize(("bias",), (self.out_channels,))
                self.reset_parameters()


def _lazy_conv(name, base, transposed):
    """LazyConvNd / LazyConvTransposeNd over `base`, with PyTorch's arguments (no in_channels)."""
    if transposed:
        def __init__(self, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1, bias=True,
                     dilation=1, padding_mode="zeros", device=None, dtype=None):
            base.__init__(self, 0, 0, kernel_size, stride, padding, output_padding, groups, False, dilation,
                          padding_mode, device, dtype)
            self.out_channels = out_channels
            self._lazy_init(bias, device, dtype)
    else:
        def __init__(self, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                     padding_mode="zeros", device=None, dtype=None):
            base.__init__(self, 0, 0, kernel_size, stride, padding, dilation, groups, False, padding_mode, device,
                          dtype)
            self.out_channels = out_channels
            self._lazy_init(bias, device, dtype)
    return type(name, (_LazyConv, base), {
        "__init__": __init__, "cls_to_become": base, "__module__": __name__,
        "__doc__": f"{base.__name__} whose in_channels is read from its first input's channel dim."})


LazyConv1d = _lazy_conv("LazyConv1d", Conv1d, False)
LazyConv2d = _lazy_conv("LazyConv2d", Conv2d, False)
LazyConvTranspose1d = _lazy_conv("LazyConvTranspose1d", ConvTranspose1d, True)
LazyConvTranspose2d = _lazy_conv("LazyConvTranspose2d", ConvTranspose2d, True)


class _LazyNorm(LazyModuleMixin):
    """What the Lazy norms share (PyTorch's _LazyNormBase): num_features from input.shape[1]
    (for an unbatched instance-norm input too, as PyTorch), weight, bias, running_mean and
    running_var placeholders as affine and track_running_stats ask (both on by default)."""
    _inferred = "num_features"

    def __init__(self, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, device=None, dtype=None, *,
                 bias=True):
        super().__init__(0, eps, momentum, False, False, device, dtype, bias=False)
        self.affine, self.track_running_stats = affine, track_running_stats
        if affine:
            self.weight = UninitializedParameter(device=device, dtype=dtype)
            if bias:
                self.bias = UninitializedParameter(device=device, dtype=dtype)
        if track_running_stats:
            self.running_mean = UninitializedBuffer(device=device, dtype=dtype)
            self.running_var = UninitializedBuffer(device=device, dtype=dtype)
            self.num_batches_tracked = _fn.tensor(0, dtype=_dt.int64, device=device)

    def initialize_parameters(self, input):
        """num_features from input.shape[1]; the placeholders materialized, reset as the module's."""
        if self.has_uninitialized_params():
            self.num_features = input.shape[1]
            with no_grad():
                self._materialize(("weight", "bias", "running_mean", "running_var"), (self.num_features,))
                self.reset_parameters()


def _lazy_norm(name, base):
    return type(name, (_LazyNorm, base), {
        "cls_to_become": base, "__module__": __name__,
        "__doc__": f"{base.__name__} whose num_features is read from its first input's dim 1."})


LazyBatchNorm1d = _lazy_norm("LazyBatchNorm1d", BatchNorm1d)
LazyBatchNorm2d = _lazy_norm("LazyBatchNorm2d", BatchNorm2d)
LazyInstanceNorm1d = _lazy_norm("LazyInstanceNorm1d", InstanceNorm1d)
LazyInstanceNorm2d = _lazy_norm("LazyInstanceNorm2d", InstanceNorm2d)
LazyBatchNorm3d = _lazy_norm("LazyBatchNorm3d", BatchNorm3d)
LazyInstanceNorm3d = _lazy_norm("LazyInstanceNorm3d", InstanceNorm3d)
