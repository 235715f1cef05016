"""torch.nn's modules, over nn.functional: Parameter, Module, Linear, Sequential,
and the activation and loss modules that tutorials build networks from.

A Module registers what is assigned to it as PyTorch's does: a Parameter goes
to its parameters, a Module to its children, in the order assigned, and
`parameters()` walks its own first, then each child's, each tensor once. A
Parameter is a leaf tensor that wants a gradient, marked as one (it is no
subclass: the engine's fast paths take any tensor as it is); ops on it make
plain tensors, as in PyTorch.

Initial weights are PyTorch's numbers for the same torch.manual_seed: the same rule
(kaiming_uniform_ with a=sqrt(5)) over PyTorch's generator for uniform draws (generator.py).
"""
import math

from ..tensor import Tensor, _make, _storage
from ..grad_mode import no_grad
from .. import functions as _fn
from .. import dtypes as _dt
from . import functional as F
from . import init

__all__ = ["Parameter", "Module", "Linear", "Sequential", "ModuleList", "Identity", "Flatten", "Unflatten", "Dropout", "ReLU", "Sigmoid", "Tanh",
           "LeakyReLU", "ELU", "GELU", "SiLU", "Softplus", "Softmax", "LogSoftmax", "Mish", "Hardswish", "Hardsigmoid",
           "Threshold", "GLU", "Hardshrink", "Softshrink", "Softsign", "Tanhshrink", "PReLU", "CosineSimilarity", "MSELoss", "L1Loss", "SmoothL1Loss", "HuberLoss",
           "CrossEntropyLoss", "NLLLoss", "BCELoss", "BCEWithLogitsLoss", "KLDivLoss"]


class _ParameterType(type):
    """isinstance(t, Parameter) asks whether tensor t was made a parameter."""

    def __instancecheck__(cls, obj):
        return isinstance(obj, Tensor) and obj.__dict__.get("_is_parameter", False)

    def __repr__(cls):
        return "<class 'torch.nn.parameter.Parameter'>"


class Parameter(metaclass=_ParameterType):
    """A tensor that a layer learns: a leaf sharing data's memory that wants a gradient."""

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            data = _fn.empty(0)
        if not isinstance(data, Tensor):
            raise TypeError(f"Parameter(): argument 'data' must be Tensor, not {type(data).__name__}")
        t = _make(_storage(data), data.device)
        t.__dict__["_is_parameter"] = True
        if requires_grad:
            t.requires_grad_(True)
        return t


def _typename(value):
    """torch.typename: a tensor's legacy type name ('torch.FloatTensor'), else its class's name."""
    return value.type() if isinstance(value, Tensor) else type(value).__name__


class Module:
    """The base of every layer: what it is given to learn, train/eval, and calling forward."""

    def __init__(self):
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", {})
        object.__setattr__(self, "_modules", {})
        object.__setattr__(self, "_buffers", {})  # tensors a layer keeps but does not learn (running_mean)
        object.__setattr__(self, "_non_persistent", set())

    # ---------------------------------------------------------------- registration
    def __setattr__(self, name, value):
        """PyTorch's registration: a Parameter joins the parameters, a Module the children, and
        a name already registered takes only its own kind (or None); anything else is a plain
        attribute (allowed before __init__, as in PyTorch)."""
        own = self.__dict__
        for kind, table, plural, role in _REGISTRIES:
            registered = own.get(table)
            if isinstance(value, kind):
                if registered is None:
                    raise AttributeError(f"cannot assign {plural} before Module.__init__() call")
                self._forget(name)
                registered[name] = value
                return
            if registered is not None and name in registered:
                if value is not None:
                    raise TypeError(f"cannot assign '{_typename(value)}' as {role} '{name}' "
                                    f"(torch.nn.{kind.__name__} or None expected)")
                registered[name] = None
                return
        buffers = own.get("_buffers")
        if buffers is not None and name in buffers:
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(f"cannot assign '{_typename(value)}' as buffer '{name}' "
                                "(torch.nn.Buffer, torch.Tensor or None expected)")
            buffers[name] = value
            return
        object.__setattr__(self, name, value)

    def _forget(self, name):
        """Drop `name` from every table, before it is registered in one."""
        for table in (self._parameters, self._modules, self.__dict__.get("_buffers", {}), self.__dict__):
            table.pop(name, None)

    def __getattr__(self, name):  # only for names not found the ordinary way
        d = self.__dict__
        for table in ("_parameters", "_buffers", "_modules"):
            if name in d.get(table, ()):
                return d[table][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name):
        for table in (self._parameters, self._buffers, self._modules):
            if name in table:
                del table[name]
                return
        object.__delattr__(self, name)

    def register_parameter(self, name, param):
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{type(param).__name__}' object to parameter '{name}' "
                            "(torch.nn.Parameter or None required)")
        self._parameters[name] = param

    def register_buffer(self, name, tensor, persistent=True):
        """Keep `tensor` as state that is not learnt (in state_dict unless persistent=False)."""
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"buffer name should be a string. Got {_typename(name)}")
        if "." in name:
            raise KeyError('buffer name can\'t contain "."')
        if name == "":
            raise KeyError('buffer name can\'t be empty string ""')
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{_typename(tensor)}' object to buffer '{name}' "
                            "(torch Tensor or None required)")
        self._buffers[name] = tensor
        (self._non_persistent.discard if persistent else self._non_persistent.add)(name)

    def add_module(self, name, module):
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{type(module).__name__} is not a Module subclass")
        if not isinstance(name, str):
            raise TypeError(f"module name should be a string. Got {type(name).__name__}")
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        if "." in name:
            raise KeyError(f'module name can\'t contain ".", got: {name}')
        if name == "":
            raise KeyError('module name can\'t be empty string ""')
        self._modules[name] = module

    # ---------------------------------------------------------------- walking
    def named_parameters(self, prefix="", recurse=True):
        seen = set()
        for module_prefix, module in (self.named_modules(prefix) if recurse else [(prefix, self)]):
            for name, p in module._parameters.items():
                if p is None or id(p) in seen:
                    continue
                seen.add(id(p))
                yield (module_prefix + "." if module_prefix else "") + name, p

    def parameters(self, recurse=True):
        for _, p in self.named_parameters(recurse=recurse):
            yield p

    def named_buffers(self, prefix="", recurse=True):
        seen = set()
        for module_prefix, module in (self.named_modules(prefix) if recurse else [(prefix, self)]):
            for name, b in module._buffers.items():
                if b is None or id(b) in seen:
                    continue
                seen.add(id(b))
                yield (module_prefix + "." if module_prefix else "") + name, b

    def buffers(self, recurse=True):
        for _, b in self.named_buffers(recurse=recurse):
            yield b

    def named_children(self):
        seen = set()
        for name, m in self._modules.items():
            if m is not None and id(m) not in seen:
                seen.add(id(m))
                yield name, m

    def children(self):
        for _, m in self.named_children():
            yield m

    def named_modules(self, prefix=""):
        """Self first, then every submodule depth-first, each once (an explicit stack: no recursion)."""
        seen = set()
        stack = [(prefix, self)]
        while stack:
            name, module = stack.pop()
            if id(module) in seen:
                continue
            seen.add(id(module))
            yield name, module
            subs = [((name + "." if name else "") + n, m) for n, m in module._modules.items() if m is not None]
            stack.extend(reversed(subs))

    def modules(self):
        for _, m in self.named_modules():
            yield m

    # ---------------------------------------------------------------- state
    def train(self, mode=True):
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        for m in self.modules():
            object.__setattr__(m, "training", mode)
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=True):
        for p in self.parameters():
            if p.grad is None:
                continue
            if set_to_none:
                p.grad = None
            else:
                with no_grad():
                    p.grad.zero_()

    def state_dict(self):
        """name -> tensor (detached, sharing memory): each layer's parameters, then its persistent
        buffers, layers in `modules()` order (a shared parameter once)."""
        seen, state = set(), {}
        for prefix, module in self.named_modules():
            dot = prefix + "." if prefix else ""
            for name, p in module._parameters.items():
                if p is not None and id(p) not in seen:
                    seen.add(id(p))
                    state[dot + name] = p.detach()
            for name, b in module._buffers.items():
                if b is not None and name not in module._non_persistent:
                    state[dot + name] = b.detach()
        return state

    def load_state_dict(self, state_dict, strict=True):
        """Copy each tensor into the parameter of its name, with PyTorch's checks and messages."""
        own = {k: v for k, v in self.state_dict().items()}
        own.update(self.named_parameters())
        missing = [k for k in own if k not in state_dict]
        unexpected = [k for k in state_dict if k not in own]
        errors = [f"size mismatch for {k}: copying a param with shape {state_dict[k].shape} from checkpoint, "
                  f"the shape in current model is {p.shape}."
                  for k, p in own.items() if k in state_dict and state_dict[k].shape != p.shape]
        if strict:
            if unexpected:
                errors.insert(0, "Unexpected key(s) in state_dict: " + ", ".join(f'"{k}"' for k in unexpected) + ". ")
            if missing:
                errors.insert(0, "Missing key(s) in state_dict: " + ", ".join(f'"{k}"' for k in missing) + ". ")
        if errors:
            raise RuntimeError(f"Error(s) in loading state_dict for {type(self).__name__}:\n\t" + "\n\t".join(errors))
        with no_grad():
            for k, p in own.items():
                if k in state_dict:
                    p.copy_(state_dict[k])
        return _IncompatibleKeys(missing, unexpected)

    def apply(self, fn):
        """fn(module) for every submodule, children first, then self (PyTorch's order)."""
        for m in self.children():
            m.apply(fn)
        fn(self)
        return self

    def to(self, *args, **kwargs):
        """Every parameter (and its grad) converted as Tensor.to(*args) converts, in place of its data."""
        with no_grad():
            for p in self.parameters():
                p.data = p.data.to(*args, **kwargs)
                if p.grad is not None:
                    p.grad = p.grad.to(*args, **kwargs)
            for m in self.modules():
                for name, b in m._buffers.items():
                    if b is not None:  # a dtype applies to floating buffers only, as in PyTorch
                        m._buffers[name] = b.to(*args, **kwargs) if b.is_floating_point() \
                            else b.to(*args, **kwargs).to(b.dtype)
        return self

    def double(self):
        return self.to(_dt.float64)

    def float(self):
        return self.to(_dt.float32)

    def cpu(self):
        return self.to("cpu")

    def cuda(self, device=None):
        return self.to("cuda" if device is None else device)

    # ---------------------------------------------------------------- calling
    def forward(self, *args, **kwargs):
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" function')

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    # ---------------------------------------------------------------- printing
    def extra_repr(self):
        return ""

    def __repr__(self):
        """PyTorch's: Name(extra) for a module without children whose extra_repr is one line, else
        one line per line of extra_repr and per child."""
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        children = [f"({name}): " + repr(m).replace("\n", "\n  ") for name, m in self._modules.items()]
        if len(extra_lines) == 1 and not children:
            return f"{type(self).__name__}({extra})"
        lines = extra_lines + children
        if not lines:
            return f"{type(self).__name__}()"
        return f"{type(self).__name__}(\n  " + "\n  ".join(lines) + "\n)"


class _IncompatibleKeys(tuple):
    """What load_state_dict returns: (missing_keys, unexpected_keys), printed as PyTorch prints it."""

    def __new__(cls, missing, unexpected):
        return super().__new__(cls, (missing, unexpected))

    missing_keys = property(lambda self: self[0])
    unexpected_keys = property(lambda self: self[1])

    def __repr__(self):
        if not self[0] and not self[1]:
            return "<All keys matched successfully>"
        return f"_IncompatibleKeys(missing_keys={self[0]}, unexpected_keys={self[1]})"

    __str__ = __repr__


# (what is registered, where, and PyTorch's words for it), in the order __setattr__ asks
_REGISTRIES = ((Parameter, "_parameters", "parameters", "parameter"), (Module, "_modules", "module", "child module"))


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


# the layers kept in a module of their own
from .modules_layers import *  # noqa: E402,F401,F403
from .modules_layers import __all__ as _layers  # noqa: E402

__all__ += _layers
from .modules_conv import *  # noqa: E402,F401,F403
from .modules_conv import __all__ as _conv_layers  # noqa: E402

__all__ += _conv_layers
