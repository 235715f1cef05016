"""What a program can name and reach: functions, methods and attributes.

Everything comes from tables built here from the engine's public API: a new
engine function or Tensor method is usable from the language with no grammar
change. Nothing else is reachable -- no dunder attributes, no Python
builtins beyond the few harmless ones listed, no imports -- so nothing the
user types can reach Python itself.
"""
import builtins as _py
import math

from .. import engine as E
from ..engine import functions as _functions
from ..engine.graph import Node as _Node, AccumulateGrad as _AccumulateGrad, RemovableHandle as _Handle
from ..engine.optim import Optimizer as _Optimizer
from ..engine.functions import MaxResult as _MaxResult, MinResult as _MinResult
from ..engine.backend import Device as _Device
from ..engine.dtypes import DType as _DType
from ..engine.tensor import Size as _Size

__all__ = ["BUILTINS", "TORCH", "attribute", "settable", "is_context_manager", "known_names",
           "MAX_LIST"]

MAX_LIST = 10_000_000  # the longest list a program may build


def _has_tensor(values):
    return _py.any(isinstance(v, E.Tensor) for v in values)


def _bounded(values):
    """Refuse to walk a range too long to finish (one call is one interpreter step)."""
    for v in values:
        if isinstance(v, range) and len(v) > MAX_LIST:
            raise MemoryError(f"a range of {len(v)} items is too long to go through (the limit is {MAX_LIST})")


def _hybrid(python_fn, engine_fn, name):
    """Python's builtin for plain numbers and lists, the engine's for tensors."""
    def call(*args, **kwargs):
        if _has_tensor(args) or _has_tensor(kwargs.values()):
            return engine_fn(*args, **kwargs)
        _bounded(args)
        return python_fn(*args, **kwargs)
    call.__name__ = name
    call.__qualname__ = name
    return call


def _sum(*args, **kwargs):
    if args and isinstance(args[0], E.Tensor):
        return E.sum(*args, **kwargs)
    _bounded(args)
    return _py.sum(*args, **kwargs)


def _sorted(iterable, key=None, reverse=False):
    return sorted(_list(iterable), key=key, reverse=reverse)


def _tuple(iterable=()):
    return tuple(_list(iterable))


def _list(iterable=()):
    if isinstance(iterable, range) and len(iterable) > MAX_LIST:
        raise MemoryError(f"a list of {len(iterable)} items is too long (the limit is {MAX_LIST})")
    out = []
    for item in iterable:
        out.append(item)
        if len(out) > MAX_LIST:
            raise MemoryError(f"a list of more than {MAX_LIST} items is too long")
    return out


def _range(*args):
    ints = []
    for a in args:
        if isinstance(a, E.Tensor):
            a = a.item()
        if isinstance(a, float) and a.is_integer():
            a = int(a)
        if not isinstance(a, int):
            raise TypeError(f"range() needs whole numbers, got {a!r}")
        ints.append(a)
    return range(*ints)


def _print_placeholder(*args, **kwargs):  # replaced per run by the interpreter's print
    raise RuntimeError("print is not available here")


def _as_float(x=0.0):
    return float(x.item() if isinstance(x, E.Tensor) else x)


def _as_int(x=0):
    return int(x.item() if isinstance(x, E.Tensor) else x)


def _as_bool(x=False):
    return bool(x)


def _str(x=""):
    return str(x)


def _round(x, ndigits=None):
    if isinstance(x, E.Tensor):
        x = x.item()
    return round(x, ndigits) if ndigits is not None else round(x)


def _format(value, spec=""):
    return format(value, spec)


_ENGINE_FUNCTIONS = {name: getattr(_functions, name) for name in _functions.__all__}
_ENGINE_FUNCTIONS.pop("from_numpy", None)
_ENGINE_FUNCTIONS.pop("set_allocation_limit", None)
_ENGINE_FUNCTIONS.pop("inplace", None)

_AUTOGRAD = {
    "grad": E.grad, "backward": E.backward, "jacobian": E.jacobian, "hessian": E.hessian,
    "no_grad": E.no_grad, "enable_grad": E.enable_grad, "set_grad_enabled": E.set_grad_enabled,
    "inference_mode": E.inference_mode, "is_grad_enabled": E.is_grad_enabled, "gradcheck": E.gradcheck, "gradgradcheck": E.gradgradcheck,
}
_OPTIM = {"SGD": E.SGD, "Adam": E.Adam, "sgd": E.SGD, "adam": E.Adam}
_DTYPES = {"float16": E.float16, "float32": E.float32, "float64": E.float64, "int8": E.int8,
           "int16": E.int16, "int32": E.int32, "int64": E.int64, "uint8": E.uint8, "bool_": E.bool_,
           "half": E.float16, "double": E.float64, "long": E.int64, "short": E.int16}
# names that mean a dtype after `torch.` but Python's conversion when bare
_TORCH_ONLY = {"float": E.float32, "int": E.int32, "bool": E.bool_}
_OTHER = {"device": E.device, "manual_seed": E.manual_seed, "get_default_dtype": E.get_default_dtype,
          "set_default_dtype": E.set_default_dtype, "set_printoptions": E.set_printoptions,
          "Size": _Size, "Tensor": E.Tensor, "is_inference_mode_enabled": E.is_inference_mode_enabled,
          "is_inference": E.is_inference}


class Namespace:
    """`torch`, `torch.autograd`, `torch.nn.functional`...: a read-only table of names."""

    __slots__ = ("name", "table")

    def __init__(self, name, table):
        self.name = name
        self.table = table

    def __repr__(self):
        return f"<module '{self.name}'>"


def _cuda_available():
    return E.cuda_is_available()


TORCH = {}
TORCH.update(_ENGINE_FUNCTIONS)
TORCH.update(_AUTOGRAD)
TORCH.update(_DTYPES)
TORCH.update(_TORCH_ONLY)
TORCH.update(_OTHER)
TORCH["pi"] = math.pi
TORCH["e"] = math.e
TORCH["inf"] = math.inf
TORCH["nan"] = math.nan
_functional = Namespace("torch.nn.functional", dict(
    TORCH, linear=E.linear, relu=E.relu, sigmoid=E.sigmoid, tanh=E.tanh, softmax=E.softmax,
    log_softmax=E.log_softmax))
_nn = Namespace("torch.nn", {"functional": _functional})
_grad_mode = Namespace("torch.autograd.grad_mode", {
    "no_grad": E.no_grad, "enable_grad": E.enable_grad, "set_grad_enabled": E.set_grad_enabled,
    "inference_mode": E.inference_mode})
_autograd = Namespace("torch.autograd", dict(_AUTOGRAD, functional=Namespace(
    "torch.autograd.functional", {"jacobian": E.jacobian, "hessian": E.hessian}), grad_mode=_grad_mode))
_optim = Namespace("torch.optim", dict(_OPTIM))
_cuda = Namespace("torch.cuda", {"is_available": _cuda_available})
TORCH.update(autograd=_autograd, optim=_optim, nn=_nn, cuda=_cuda)
TORCH.update(_OPTIM)
TORCH_NAMESPACE = Namespace("torch", TORCH)

BUILTINS = {}
BUILTINS.update(_ENGINE_FUNCTIONS)
BUILTINS.update(_AUTOGRAD)
BUILTINS.update(_OPTIM)
BUILTINS.update(_DTYPES)
BUILTINS.update(_OTHER)
BUILTINS.update({
    "torch": TORCH_NAMESPACE, "autograd": _autograd, "optim": _optim, "nn": _nn, "F": _functional,
    "print": _print_placeholder, "range": _range, "len": len, "list": _list, "tuple": _tuple,
    "float": _as_float, "int": _as_int, "bool": _as_bool, "str": _str, "repr": repr, "round": _round,
    "format": _format, "enumerate": enumerate, "zip": zip, "sorted": _sorted, "reversed": reversed,
    "id": id, "isinstance": None,
    "abs": _hybrid(_py.abs, E.abs, "abs"), "min": _hybrid(_py.min, E.min, "min"),
    "max": _hybrid(_py.max, E.max, "max"), "pow": _hybrid(_py.pow, E.pow, "pow"),
    "all": _hybrid(_py.all, E.all, "all"), "any": _hybrid(_py.any, E.any, "any"), "sum": _sum,
    "pi": math.pi, "inf": math.inf, "nan": math.nan,
})
del BUILTINS["isinstance"]


# ------------------------------------------------------------------ attributes

def _public(cls, extra=(), hidden=()):
    names = {n for n in dir(cls) if not n.startswith("_")}
    return frozenset((names | set(extra)) - set(hidden))


TENSOR_ATTRIBUTES = _public(E.Tensor, extra=("_version",), hidden=("array", "numpy", "device_", "nelement"))
_ATTRIBUTES = {
    E.Tensor: TENSOR_ATTRIBUTES,
    _Node: frozenset({"name", "next_functions", "metadata"}),
    _AccumulateGrad: frozenset({"name", "next_functions", "variable", "metadata"}),
    _Handle: frozenset({"remove", "id"}),
    _Device: frozenset({"type", "index"}),
    _DType: frozenset({"is_floating_point", "itemsize", "is_signed"}),
    _Size: frozenset({"numel", "count", "index"}),
    _MaxResult: frozenset({"values", "indices"}),
    _MinResult: frozenset({"values", "indices"}),
    list: frozenset({"append", "extend", "pop", "insert", "index", "count", "reverse", "copy", "clear",
                     "remove", "sort"}),
    tuple: frozenset({"index", "count"}),
    str: frozenset({"upper", "lower", "strip", "lstrip", "rstrip", "split", "join", "replace",
                    "startswith", "endswith", "title", "center", "ljust", "rjust", "zfill", "find"}),
    range: frozenset({"start", "stop", "step", "index", "count"}),
    float: frozenset({"is_integer", "real", "imag"}),
    int: frozenset({"real", "imag", "bit_length"}),
}
_OPTIMIZER_ATTRIBUTES = frozenset({"step", "zero_grad", "state", "defaults", "lr", "steps"})
_SETTABLE = {E.Tensor: frozenset({"grad", "requires_grad", "data"})}


def attribute(obj, name):
    """obj.name, if the tables allow it; AttributeError otherwise."""
    if name.startswith("__"):
        raise AttributeError(f"'{name}' is not available in this language")
    if isinstance(obj, Namespace):
        try:
            return obj.table[name]
        except KeyError:
            raise AttributeError(f"{obj.name} has no '{name}'") from None
    cls = type(obj)
    allowed = _ATTRIBUTES.get(cls)
    if allowed is None:
        if isinstance(obj, _Optimizer):
            allowed = _OPTIMIZER_ATTRIBUTES
        elif isinstance(obj, _Node):
            allowed = _ATTRIBUTES[_Node]
        elif isinstance(obj, E.Tensor):
            allowed = TENSOR_ATTRIBUTES
        else:
            allowed = frozenset()
    if name not in allowed:
        raise AttributeError(f"{_type_name(obj)} has no attribute '{name}'")
    return getattr(obj, name)


def settable(obj, name):
    """Whether `obj.name = value` is allowed."""
    allowed = _SETTABLE.get(type(obj))
    return allowed is not None and name in allowed


def is_context_manager(obj):
    return isinstance(obj, (E.no_grad, E.enable_grad, E.set_grad_enabled, E.inference_mode, _Handle))


_PLAIN_NAMES = {bool: "a boolean", int: "a whole number", float: "a number", str: "a string", list: "a list",
                tuple: "a tuple", range: "a range", dict: "a dict", type(None): "None"}


def _type_name(obj):
    """What a value is, in words a user knows (not Python's class names)."""
    if isinstance(obj, E.Tensor):
        return "a tensor"
    if isinstance(obj, (_Node, _AccumulateGrad)):
        return f"<{obj.name()}>"
    if isinstance(obj, Namespace):
        return obj.name
    plain = _PLAIN_NAMES.get(type(obj))
    if plain:
        return plain
    if callable(obj):
        return "a function"
    return f"a {type(obj).__name__}"


describe = _type_name


def attribute_names(obj):
    if isinstance(obj, Namespace):
        return sorted(obj.table)
    allowed = _ATTRIBUTES.get(type(obj))
    if allowed is None and isinstance(obj, E.Tensor):
        allowed = TENSOR_ATTRIBUTES
    return sorted(allowed or ())


def known_names():
    return sorted(BUILTINS)
