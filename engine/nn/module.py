"""torch.nn.Module and torch.nn.Parameter: the base every layer derives from.

A Module registers what is assigned to it as PyTorch's does: a Parameter goes
to its parameters, a Module to its children, in the order assigned, and
`parameters()` walks its own first, then each child's, each tensor once. A
Parameter is a leaf tensor that wants a gradient, marked as one (it is no
subclass: the engine's fast paths take any tensor as it is); ops on it make
plain tensors, as in PyTorch.
"""
import collections

from .. import dtypes as _dt
from .. import functions as _fn
from ..core.grad_mode import no_grad
from ..core.tensor import make_tensor, storage_of
from ..tensor_class import Tensor
from .uninitialized import is_lazy

class _MarkedTensorType(type):
    """isinstance(t, Parameter) (Buffer) asks whether tensor t was marked one (its class's `_mark`
    in its __dict__): these classes make marked tensors, not instances of their own."""

    def __instancecheck__(cls, obj):
        return isinstance(obj, Tensor) and obj.__dict__.get(cls._mark, False)

    def __repr__(cls):
        return f"<class 'torch.nn.parameter.{cls.__name__}'>"


class Parameter(metaclass=_MarkedTensorType):
    """A tensor that a layer learns: a leaf sharing data's memory that wants a gradient."""
    _mark = "_is_parameter"

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            data = _fn.empty(0)
        if not isinstance(data, Tensor):
            raise TypeError(f"Parameter(): argument 'data' must be Tensor, not {type(data).__name__}")
        t = make_tensor(storage_of(data), data.device)
        t.__dict__["_is_parameter"] = True
        if requires_grad:
            t.requires_grad_(True)
        return t


class Buffer(metaclass=_MarkedTensorType):
    """A tensor that, assigned to a layer's attribute, is registered as its buffer (state that is not
    learnt: in state_dict unless persistent=False) -- `self.running = nn.Buffer(t)` as
    register_buffer("running", t). It is `data.detach()`, marked."""
    _mark = "_is_buffer"

    def __new__(cls, data=None, *, persistent=True):
        t = (_fn.empty(0) if data is None else data).detach()
        t.__dict__["persistent"] = persistent
        t.__dict__["_is_buffer"] = True
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
        if isinstance(value, Buffer):  # nn.Buffer(t): a buffer of this name, persistent as it says
            if buffers is None:
                raise AttributeError("cannot assign buffer before Module.__init__() call")
            self._forget(name)
            self.register_buffer(name, value, value.__dict__["persistent"])
            return
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
        buffers, layers in `modules()` order (a shared parameter once); an OrderedDict, as PyTorch's
        (it prints as one)."""
        seen, state = set(), collections.OrderedDict()
        for prefix, module in self.named_modules():
            dot = prefix + "." if prefix else ""
            for name, p in module._parameters.items():
                if p is not None and id(p) not in seen:
                    seen.add(id(p))
                    state[dot + name] = p if is_lazy(p) else p.detach()  # a Lazy module's placeholder as it is
            for name, b in module._buffers.items():
                if b is not None and name not in module._non_persistent:
                    state[dot + name] = b if is_lazy(b) else b.detach()
        return state

    def load_state_dict(self, state_dict, strict=True):
        """Copy each tensor into the parameter of its name, with PyTorch's checks and messages."""
        own = {k: v for k, v in self.state_dict().items()}
        own.update(self.named_parameters())
        with no_grad():  # a Lazy module's placeholder takes the shape of the tensor loaded into it
            for k, p in own.items():
                if is_lazy(p) and k in state_dict and not is_lazy(state_dict[k]):
                    p.materialize(state_dict[k].shape)
        missing = [k for k in own if k not in state_dict]
        unexpected = [k for k in state_dict if k not in own]
        errors = [f"size mismatch for {k}: copying a param with shape {state_dict[k].shape} from checkpoint, "
                  f"the shape in current model is {p.shape}."
                  for k, p in own.items() if k in state_dict and not is_lazy(p) and state_dict[k].shape != p.shape]
        if strict:
            if unexpected:
                errors.insert(0, "Unexpected key(s) in state_dict: " + ", ".join(f'"{k}"' for k in unexpected) + ". ")
            if missing:
                errors.insert(0, "Missing key(s) in state_dict: " + ", ".join(f'"{k}"' for k in missing) + ". ")
        if errors:
            raise RuntimeError(f"Error(s) in loading state_dict for {type(self).__name__}:\n\t" + "\n\t".join(errors))
        with no_grad():
            for k, p in own.items():
                if k in state_dict and not is_lazy(p):
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


