"""torch.nn's modules, over nn.functional: Linear, Sequential, and the activation and loss modules
that tutorials build networks from (Module and Parameter are nn/module.py's; the other layers
nn/modules_layers.py's and nn/modules_conv.py's, all gathered here).

Initial weights are PyTorch's numbers for the same torch.manual_seed: the same rule
(kaiming_uniform_ with a=sqrt(5)) over PyTorch's generator for uniform draws (generator.py).
"""
import math

from ..core.grad_mode import no_grad
from .. import functions as _fn
from . import functional as F
from . import init
from .module import Parameter, Module
from .modules_layers import *  # noqa: F401,F403  (the layers kept in modules of their own)
from .modules_layers import __all__ as _layers
from .modules_conv import *  # noqa: F401,F403
from .modules_conv import __all__ as _conv_layers
from .modules_nnlayers import *  # noqa: F401,F403
from .modules_nnlayers import __all__ as _nnlayers
from .modules_losses import *  # noqa: F401,F403
from .modules_losses import __all__ as _loss_layers

__all__ = ["Parameter", "Module", "Linear", "Sequential", "ModuleList", "Identity", "Flatten", "Unflatten", "Dropout", "ReLU", "Sigmoid", "Tanh",
           "LeakyReLU", "ELU", "GELU", "SiLU", "Softplus", "Softmax", "LogSoftmax", "Mish", "Hardswish", "Hardsigmoid",
           "Threshold", "GLU", "Hardshrink", "Softshrink", "Softsign", "Tanhshrink", "PReLU", "CosineSimilarity", "MSELoss", "L1Loss", "SmoothL1Loss", "HuberLoss",
           "CrossEntropyLoss", "NLLLoss", "BCELoss", "BCEWithLogitsLoss", "KLDivLoss"]


class Linear(Module):
    """y = x W^T + b, W of shape (out_features, in_features)."""

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(_fn.empty(out_features, in_features, dtype=dtype, device=device))
        self.bias = Parameter(_fn.empty(out_features, dtype=dtype, device=device)) if bias else None
        self.reset_parameters()

    def reset_parameters(self):
        """PyTorch's: kaiming_uniform_(weight, a=sqrt(5)), then the bias uniform in +-1/sqrt(fan_in),
        each bound computed as PyTorch's Python computes it, the draws PyTorch's for the seed."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None and self.in_features > 0:
            bound = 1 / math.sqrt(self.in_features)
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"


class _Layers(Module):
    """What Sequential and ModuleList share: layers registered as "0", "1", ..., indexable
    (a slice gives the same kind of container), iterable, with a length."""

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(list(self._modules.values()))

    def __getitem__(self, index):
        if isinstance(index, slice):
            return self._sliced(list(self._modules.items())[index])
        layers = list(self._modules.values())
        n = len(layers)
        if not -n <= index < n:
            raise IndexError(f"index {index} is out of range")
        return layers[index % n]

    def append(self, module):
        self.add_module(str(len(self._modules)), module)
        return self


class Sequential(_Layers):
    """Layers applied in turn; indexable, iterable, its length the number of layers."""

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], dict):
            for name, m in args[0].items():
                self.add_module(name, m)
        else:
            for i, m in enumerate(args):
                self.add_module(str(i), m)

    def forward(self, input):
        for m in self._modules.values():
            input = m(input)
        return input

    def _sliced(self, items):
        return Sequential(dict(items))  # the layers keep their names, as in PyTorch


class ModuleList(_Layers):
    """Layers held in a list: indexable, iterable, registered (their parameters are the owner's)."""

    def __init__(self, modules=None):
        super().__init__()
        for m in modules or ():
            self.append(m)

    def _sliced(self, items):
        return ModuleList([m for _, m in items])

    def __setitem__(self, index, module):
        n = len(self._modules)
        if not -n <= index < n:
            raise IndexError(f"index {index} is out of range")
        self.add_module(str(index % n), module)

    def extend(self, modules):
        for m in modules:
            self.append(m)
        return self

    def __repr__(self):
        """PyTorch's: a run of layers that print the same is one line, `(0-2): 3 x Linear(...)`."""
        texts = [repr(m) for m in self]
        if not texts:
            return "ModuleList()"
        runs = []  # [first, last, text]
        for i, text in enumerate(texts):
            if runs and runs[-1][2] == text:
                runs[-1][1] = i
            else:
                runs.append([i, i, text])
        lines = [(f"({a}): " if a == b else f"({a}-{b}): {b - a + 1} x ") + text.replace("\n", "\n  ")
                 for a, b, text in runs]
        return "ModuleList(\n  " + "\n  ".join(lines) + "\n)"


_REQUIRED = object()  # a setting of _module's `args` without a default


class _Elementwise(Module):
    """A module that applies one nn.functional function; `_args` names its settings, in order."""
    _args = ()
    _function = None

    def __init__(self, *args, **kwargs):
        super().__init__()
        defaults = dict(self._args)
        names = [n for n, _ in self._args]
        if len(args) > len(names):
            raise TypeError(f"{type(self).__name__}() takes at most {len(names)} arguments ({len(args)} given)")
        for name, value in zip(names, args):
            kwargs.setdefault(name, value)
        for name in kwargs:
            if name not in defaults:
                raise TypeError(f"{type(self).__name__}.__init__() got an unexpected keyword argument '{name}'")
        missing = [n for n in names if defaults[n] is _REQUIRED and n not in kwargs]
        if missing:
            raise TypeError(f"{type(self).__name__}.__init__() {_missing(missing)}")
        for name in names:
            object.__setattr__(self, name, kwargs.get(name, defaults[name]))

    def forward(self, input):
        return type(self)._function(input, **{n: getattr(self, n) for n, _ in self._args})

    def extra_repr(self):
        return ", ".join(f"{n}={_shown(getattr(self, n))}" for n, _ in self._args if n != "inplace" or self.inplace)


def _missing(names):
    """Python's words for required arguments left out."""
    quoted = [f"'{n}'" for n in names]
    listed = quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]
    return f"missing {len(names)} required positional argument{'s' if len(names) > 1 else ''}: {listed}"


def _shown(value):
    return repr(value) if isinstance(value, str) else value


def _function_name(name, function):
    return "nothing (the input itself)" if name == "Identity" else function.__name__


def _module(name, function, args=(), doc=None):
    cls = type(name, (_Elementwise,), {"_args": args, "_function": staticmethod(function),
                                       "__doc__": doc or f"A layer applying {_function_name(name, function)} to its input.",
                                       "__module__": __name__})
    return cls


Identity = _module("Identity", lambda input: input)
Identity.__init__ = lambda self, *args, **kwargs: Module.__init__(self)
ReLU = _module("ReLU", F.relu, (("inplace", False),))
Sigmoid = _module("Sigmoid", F.sigmoid)
Tanh = _module("Tanh", F.tanh)
LeakyReLU = _module("LeakyReLU", F.leaky_relu, (("negative_slope", 0.01), ("inplace", False)))
ELU = _module("ELU", F.elu, (("alpha", 1.0), ("inplace", False)))
GELU = _module("GELU", F.gelu, (("approximate", "none"),))
SiLU = _module("SiLU", F.silu, (("inplace", False),))
Softplus = _module("Softplus", F.softplus, (("beta", 1.0), ("threshold", 20.0)))
Softmax = _module("Softmax", F.softmax, (("dim", None),))
LogSoftmax = _module("LogSoftmax", F.log_softmax, (("dim", None),))
Flatten = _module("Flatten", _fn.flatten, (("start_dim", 1), ("end_dim", -1)))
Mish = _module("Mish", F.mish, (("inplace", False),))
Hardswish = _module("Hardswish", F.hardswish, (("inplace", False),))
Hardsigmoid = _module("Hardsigmoid", F.hardsigmoid, (("inplace", False),))
Hardswish.extra_repr = Hardsigmoid.extra_repr = Module.extra_repr  # PyTorch prints neither's inplace
Threshold = _module("Threshold", F.threshold, (("threshold", _REQUIRED), ("value", _REQUIRED), ("inplace", False)))
GLU = _module("GLU", F.glu, (("dim", -1),))
Hardshrink = _module("Hardshrink", F.hardshrink, (("lambd", 0.5),))
Softshrink = _module("Softshrink", F.softshrink, (("lambd", 0.5),))
Hardshrink.extra_repr = Softshrink.extra_repr = lambda self: f"{self.lambd}"  # PyTorch prints the number alone
Softsign = _module("Softsign", F.softsign)
Tanhshrink = _module("Tanhshrink", F.tanhshrink)


class Unflatten(_Elementwise):
    """A layer splitting dim `dim` of its input into `unflattened_size` (a view; torch.unflatten)."""
    _args = (("dim", _REQUIRED), ("unflattened_size", _REQUIRED))
    _function = staticmethod(lambda input, dim, unflattened_size: _fn.unflatten(input, dim, unflattened_size))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        size = self.unflattened_size
        if not isinstance(size, (tuple, list)):
            raise TypeError(f"unflattened_size must be a tuple of ints, but found type {type(size).__name__}")
        for i, s in enumerate(size):
            if not isinstance(s, int):
                raise TypeError(f"unflattened_size must be tuple of ints, but found element of type "
                                f"{type(s).__name__} at pos {i}")


class PReLU(Module):
    """prelu with a learnt slope for negative inputs: one for all channels, or one per channel
    (num_parameters), each starting at `init`."""

    def __init__(self, num_parameters=1, init=0.25, device=None, dtype=None):
        super().__init__()
        self.num_parameters = num_parameters
        self.init = init
        self.weight = Parameter(_fn.empty(num_parameters, dtype=dtype, device=device))
        self.reset_parameters()

    def reset_parameters(self):
        with no_grad():
            self.weight.fill_(self.init)

    def forward(self, input):
        return F.prelu(input, self.weight)

    def extra_repr(self):
        return f"num_parameters={self.num_parameters}"


class CosineSimilarity(Module):
    """cosine_similarity(x1, x2) along dim, as a layer called on (x1, x2)."""

    def __init__(self, dim=1, eps=1e-8):
        super().__init__()
        self.dim = dim
        self.eps = eps

    def forward(self, x1, x2):
        return F.cosine_similarity(x1, x2, self.dim, self.eps)


class Dropout(Module):
    """While training, zeroes each element with probability p and scales the rest by 1/(1-p); in
    eval mode (model.eval()), passes the input through."""

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        F.check_dropout_p(p)
        object.__setattr__(self, "p", p)
        object.__setattr__(self, "inplace", inplace)

    def forward(self, input):
        return F.dropout(input, self.p, self.training, self.inplace)

    def extra_repr(self):
        return f"p={self.p}, inplace={self.inplace}"


class _Loss(Module):
    """A loss module: reduction 'mean', 'sum' or 'none', and the functional loss's other settings."""
    _function = None
    _extra = ()

    def __init__(self, *args, reduction="mean", **kwargs):
        super().__init__()
        names = [n for n, _ in self._extra]
        if len(args) > (1 if names[:1] == ["weight"] else 0):  # PyTorch's later positions are legacy flags
            raise TypeError(f"{type(self).__name__}() takes its settings as keywords (reduction=..., ...)")
        defaults = dict(self._extra)
        for name, value in zip(names, args):
            kwargs.setdefault(name, value)
        for name in kwargs:
            if name not in defaults:
                raise TypeError(f"{type(self).__name__}.__init__() got an unexpected keyword argument '{name}'")
        object.__setattr__(self, "reduction", reduction)
        for name in names:
            object.__setattr__(self, name, kwargs.get(name, defaults[name]))

    def forward(self, input, target):
        return type(self)._function(input, target, reduction=self.reduction,
                                    **{n: getattr(self, n) for n, _ in self._extra})


def _loss(name, function, extra=()):
    return type(name, (_Loss,), {"_function": staticmethod(function), "_extra": extra, "__module__": __name__,
                                 "__doc__": f"The loss {function.__name__} as a layer: call it on (input, target)."})


MSELoss = _loss("MSELoss", F.mse_loss)
L1Loss = _loss("L1Loss", F.l1_loss)
SmoothL1Loss = _loss("SmoothL1Loss", F.smooth_l1_loss, (("beta", 1.0),))
HuberLoss = _loss("HuberLoss", F.huber_loss, (("delta", 1.0),))
CrossEntropyLoss = _loss("CrossEntropyLoss", F.cross_entropy,
                         (("weight", None), ("ignore_index", -100), ("label_smoothing", 0.0)))
NLLLoss = _loss("NLLLoss", F.nll_loss, (("weight", None), ("ignore_index", -100)))
BCELoss = _loss("BCELoss", F.binary_cross_entropy, (("weight", None),))
BCEWithLogitsLoss = _loss("BCEWithLogitsLoss", F.binary_cross_entropy_with_logits,
                          (("weight", None), ("pos_weight", None)))
KLDivLoss = _loss("KLDivLoss", F.kl_div, (("log_target", False),))


__all__ += _layers + _conv_layers + _nnlayers
__all__ += _loss_layers
