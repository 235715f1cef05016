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
from ..engine.custom_function import FunctionCtx as _FunctionCtx, FunctionNode as _FunctionNode
from ..engine.optim import Optimizer as _Optimizer
from ..engine.lr_scheduler import LRScheduler as _LRScheduler
from ..engine.signature import result_types as _result_types
from ..engine.backend import Device as _Device
from ..engine.dtypes import DType as _DType
from ..engine.tensor_class import Size as _Size

__all__ = ["BUILTINS", "TORCH", "attribute", "settable", "is_context_manager", "known_names"]

from .words import show, TYPE_WORDS, register as _register_words  # noqa: E402
from .module_classes import program_names  # noqa: E402
from .classes import UserInstance  # noqa: E402
from .limits import bounded_list, check_items, check_width, check_format_spec, checked_power  # noqa: E402


def _has_tensor(values):
    return _py.any(isinstance(v, E.Tensor) for v in values)


def _bounded(values):
    """Refuse to walk a range too long to finish (one call is one interpreter step)."""
    for v in values:
        if isinstance(v, range):
            check_items(len(v), "range")


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
    start = args[1] if len(args) > 1 else kwargs.get("start", 0)
    if isinstance(start, (list, tuple)):
        # sum(lists, []) joins them: in one pass, and only if the result is not too long
        items = _list(args[0]) if args else []
        if not all(isinstance(x, type(start)) for x in items):
            return _py.sum(items, start)  # Python's own error
        check_items(len(start) + _py.sum(len(x) for x in items), type(start).__name__)
        joined = list(start)
        for x in items:
            joined.extend(x)
        return joined if isinstance(start, list) else tuple(joined)
    return _py.sum(*args, **kwargs)


def _pow(base, exp, mod=None):
    if mod is None and isinstance(base, int) and isinstance(exp, int) and not isinstance(exp, bool):
        return checked_power(base, exp) if exp > 0 else base ** exp
    return _py.pow(base, exp, mod) if mod is not None else _py.pow(base, exp)


def _size(*sizes):
    """torch.Size(iterable), refusing an iterable too long to go through."""
    if len(sizes) == 1 and not isinstance(sizes[0], int):
        return _Size(_list(sizes[0]))
    return _Size(sizes)


def _sorted(iterable, key=None, reverse=False):
    return sorted(_list(iterable), key=key, reverse=reverse)


def _tuple(iterable=()):
    return tuple(_list(iterable))


_list = bounded_list  # list(...): Python's, refused past the size limit


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


def _as_int(x=0, base=None):
    value = x.item() if isinstance(x, E.Tensor) else x
    if isinstance(value, str):
        digits = len(value.strip().lstrip("+-"))
        if digits > 4300:
            raise ValueError(f"a whole number written with {digits:,} digits is too long to read (the limit "
                             f"is 4,300 digits)")
        return int(value) if base is None else int(value, base)
    return int(value)


def _as_bool(x=False):
    return bool(x)


def _str(x=""):
    return show(x)


def _repr(x):
    return show(x, as_repr=True)


def _round(x, ndigits=None):
    """Python's round for numbers; for a tensor, PyTorch's (round(t) is t.round(), as Tensor.__round__)."""
    if isinstance(x, E.Tensor):
        return E.round(x) if ndigits is None else E.round(x, decimals=ndigits)
    return round(x, ndigits) if ndigits is not None else round(x)


def _format(value, spec=""):
    check_format_spec(spec)
    return format(value, spec)


_ENGINE_FUNCTIONS = {name: getattr(_functions, name) for name in _functions.__all__}
_ENGINE_FUNCTIONS.pop("from_numpy", None)
_ENGINE_FUNCTIONS.pop("set_allocation_limit", None)
_ENGINE_FUNCTIONS.pop("inplace", None)
for _plumbing in ("run_op", "getitem", "setitem"):  # the engine's own machinery, not PyTorch's API
    _ENGINE_FUNCTIONS.pop(_plumbing, None)
for _special_only in E.special.ROWS:  # special_erfcx...: torch.special.erfcx, not torch.special_erfcx
    _ENGINE_FUNCTIONS.pop(_special_only, None)

_AUTOGRAD = {
    "grad": E.grad, "backward": E.backward, "jacobian": E.jacobian, "hessian": E.hessian,
    "no_grad": E.no_grad, "enable_grad": E.enable_grad, "set_grad_enabled": E.set_grad_enabled,
    "inference_mode": E.inference_mode, "is_grad_enabled": E.is_grad_enabled, "gradcheck": E.gradcheck, "gradgradcheck": E.gradgradcheck,
}
_OPTIM = {"SGD": E.SGD, "Adam": E.Adam, "sgd": E.SGD, "adam": E.Adam}
# torch.optim's classes and torch.optim.lr_scheduler (reached through the namespace only)
_OPTIM_CLASSES = {name: getattr(E.optim, name) for name in E.optim.__all__ if name not in ("lr_scheduler", "sgd", "adam")}
_LR_SCHEDULER = {name: getattr(E.lr_scheduler, name) for name in E.lr_scheduler.__all__}
_DTYPES = {"float16": E.float16, "float32": E.float32, "float64": E.float64, "int8": E.int8,
           "int16": E.int16, "int32": E.int32, "int64": E.int64, "uint8": E.uint8, "bool_": E.bool_,
           "half": E.float16, "double": E.float64, "long": E.int64, "short": E.int16}
# names that mean a dtype after `torch.` but Python's conversion when bare
_TORCH_ONLY = {"float": E.float32, "int": E.int32, "bool": E.bool_}
_OTHER = {"device": E.device, "manual_seed": E.manual_seed, "get_default_dtype": E.get_default_dtype,
          "set_default_dtype": E.set_default_dtype, "set_printoptions": E.set_printoptions,
          "Size": _size, "Tensor": E.Tensor, "FloatTensor": E.FloatTensor, "DoubleTensor": E.DoubleTensor,
          "HalfTensor": E.HalfTensor, "LongTensor": E.LongTensor, "IntTensor": E.IntTensor,
          "ShortTensor": E.ShortTensor, "CharTensor": E.CharTensor, "ByteTensor": E.ByteTensor,
          "BoolTensor": E.BoolTensor, "is_inference_mode_enabled": E.is_inference_mode_enabled,
          "is_inference": E.is_inference, "set_default_device": E.set_default_device,
          "get_default_device": E.get_default_device, "memory_format": E.memory_format,
          "contiguous_format": E.contiguous_format, "preserve_format": E.preserve_format,
          "channels_last": E.channels_last, "channels_last_3d": E.channels_last_3d}


class Namespace:
    """`torch`, `torch.autograd`, `torch.nn.functional`...: a read-only table of names. `table` may be
    given as a function that makes it, called on first use (torch.nn's: its modules are imported then)."""

    __slots__ = ("name", "_table")

    def __init__(self, name, table):
        self.name = name
        self._table = table

    @property
    def table(self):
        table = self._table
        if callable(table):
            table = self._table = table()
        return table

    def __repr__(self):
        return f"<module '{self.name}'>"

    def __copy__(self):  # copy.copy / copy.deepcopy in a program: this is one of the language's own, shared
        return self

    def __deepcopy__(self, memo):
        return self


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


def _nn_functional_table():
    return {name: getattr(E.nn.functional, name) for name in E.nn.functional.FUNCTIONS}


def _nn_table():
    nn = E.nn
    layers = (nn.modules.__all__ + nn.modules_more.__all__ + nn.modules_rnn.__all__ + nn.modules_lazy.__all__
              + nn.modules_attention.__all__ + nn.modules_transformer.__all__ + nn.modules_fold.__all__)
    return dict({name: getattr(nn, name) for name in layers}, functional=_functional,
                init=Namespace("torch.nn.init", {name: getattr(nn.init, name) for name in nn.init.__all__}))


# torch.nn and torch.nn.functional: tables made (and nn imported) when a program first reads them
_functional = Namespace("torch.nn.functional", _nn_functional_table)
_nn = Namespace("torch.nn", _nn_table)
_grad_mode = Namespace("torch.autograd.grad_mode", {
    "no_grad": E.no_grad, "enable_grad": E.enable_grad, "set_grad_enabled": E.set_grad_enabled,
    "inference_mode": E.inference_mode, "set_multithreading_enabled": E.autograd.set_multithreading_enabled,
    "enforce_grad_layout_policy": E.autograd.enforce_grad_layout_policy})
_anomaly_mode = Namespace("torch.autograd.anomaly_mode", {"detect_anomaly": E.autograd.detect_anomaly,
                                                          "set_detect_anomaly": E.autograd.set_detect_anomaly})
# torch.autograd's names beyond the modules (anomaly detection, the engine's switches)
_AUTOGRAD_MORE = {n: getattr(E.autograd, n) for n in (
    "detect_anomaly", "set_detect_anomaly", "set_multithreading_enabled", "is_multithreading_enabled",
    "enforce_grad_layout_policy", "is_view_replay_enabled", "is_tensor_like", "kineto_available")}
_autograd_function = Namespace("torch.autograd.function", {
    "Function": E.Function, "FunctionCtx": E.FunctionCtx, "once_differentiable": E.once_differentiable})
_autograd = Namespace("torch.autograd", dict(_AUTOGRAD, Variable=E.Variable, functional=Namespace(
    "torch.autograd.functional", {n: getattr(E.autograd.functional, n) for n in E.autograd.functional.__all__}), grad_mode=_grad_mode,
    Function=E.Function, function=_autograd_function,
    graph=Namespace("torch.autograd.graph", {n: getattr(E.autograd.graph, n) for n in E.autograd.graph.__all__}),
    forward_ad=Namespace("torch.autograd.forward_ad", {n: getattr(E.autograd.forward_ad, n)
                                                       for n in E.autograd.forward_ad.__all__}),
    anomaly_mode=_anomaly_mode, **_AUTOGRAD_MORE))
_optim = Namespace("torch.optim", dict(_OPTIM, **_OPTIM_CLASSES,
                                       lr_scheduler=Namespace("torch.optim.lr_scheduler", _LR_SCHEDULER)))
_cuda = Namespace("torch.cuda", {"is_available": _cuda_available})
_linalg = Namespace("torch.linalg", {name: getattr(E.linalg, name) for name in E.linalg.FUNCTIONS})
_testing = Namespace("torch.testing", {"assert_close": E.testing.assert_close})
_special = Namespace("torch.special", {name: getattr(E.special, name) for name in E.special.FUNCTIONS})
_utils = Namespace("torch.utils", {"data": Namespace("torch.utils.data", {
    name: getattr(E.data, name) for name in E.data.__all__})})
TORCH.update(autograd=_autograd, optim=_optim, nn=_nn, cuda=_cuda, linalg=_linalg, testing=_testing, utils=_utils)
TORCH.update(special=_special)
_signal = Namespace("torch.signal", {"windows": Namespace(  # (the engine module loads on first use)
    "torch.signal.windows", lambda: {name: getattr(E.signal.windows, name) for name in E.signal.windows.__all__})})
TORCH.update(signal=_signal)
TORCH.update(masked=Namespace(  # torch.masked (engine/masked.py, loaded on first use)
    "torch.masked", lambda: {name: getattr(E.masked, name) for name in E.masked.__all__}))
TORCH.update(is_anomaly_enabled=E.is_anomaly_enabled, is_anomaly_check_nan_enabled=E.is_anomaly_check_nan_enabled,
             set_anomaly_enabled=E.set_anomaly_enabled)
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
    "assert_close": E.testing.assert_close,
    "print": _print_placeholder, "range": _range, "len": len, "list": _list, "tuple": _tuple,
    "float": _as_float, "int": _as_int, "bool": _as_bool, "str": _str, "repr": _repr, "round": _round,
    "format": _format, "enumerate": enumerate, "zip": zip, "sorted": _sorted, "reversed": reversed,
    "id": id, "isinstance": None,
    "abs": _hybrid(_py.abs, E.abs, "abs"), "min": _hybrid(_py.min, E.min, "min"),
    "max": _hybrid(_py.max, E.max, "max"), "pow": _hybrid(_pow, E.pow, "pow"),
    "all": _hybrid(_py.all, E.all, "all"), "any": _hybrid(_py.any, E.any, "any"), "sum": _sum,
    "pi": math.pi, "\u03c0": math.pi, "e": math.e, "inf": math.inf, "nan": math.nan,  # π as on a calculator
})
del BUILTINS["isinstance"]


# ------------------------------------------------------------------ attributes

def _public(cls, extra=(), hidden=()):
    names = {n for n in dir(cls) if not n.startswith("_")}
    return frozenset((names | set(extra)) - set(hidden))


TENSOR_ATTRIBUTES = _public(E.Tensor, extra=("_version",), hidden=("array", "device_", "nelement"))
_ATTRIBUTES = {
    E.Tensor: TENSOR_ATTRIBUTES,
    _Node: None,  # (below: _NodeNames, its saved values too)
    _AccumulateGrad: frozenset({"name", "next_functions", "variable", "metadata"}),
    _Handle: frozenset({"remove", "id"}),
    _Device: frozenset({"type", "index"}),
    _DType: frozenset({"is_floating_point", "itemsize", "is_signed"}),
    _Size: frozenset({"numel", "count", "index"}),
    **{result: frozenset(result._fields) for result in _result_types()},  # the rows' named results
    E.autograd.forward_ad.UnpackedDualTensor: frozenset({"primal", "tangent"}),
    E.autograd.graph.GradientEdge: frozenset(E.autograd.graph.GradientEdge._fields),
    E.autograd.SavedTensor: frozenset({"register_hooks"}),
    list: frozenset({"append", "extend", "pop", "insert", "index", "count", "reverse", "copy", "clear",
                     "remove", "sort"}),
    tuple: frozenset({"index", "count"}),
    str: frozenset({"upper", "lower", "strip", "lstrip", "rstrip", "split", "join", "replace",
                    "startswith", "endswith", "title", "center", "ljust", "rjust", "zfill", "find"}),
    range: frozenset({"start", "stop", "step", "index", "count"}),
    float: frozenset({"is_integer", "real", "imag"}),
    int: frozenset({"real", "imag", "bit_length"}),
}
_OPTIMIZER_ATTRIBUTES = frozenset({"step", "zero_grad", "state", "defaults", "param_groups", "add_param_group",
                                   "state_dict", "load_state_dict"})
_LOADER_ATTRIBUTES = frozenset({"dataset", "batch_size", "shuffle", "drop_last"})
_DATASET_ATTRIBUTES = frozenset({"tensors"})
_MODULE_METHODS = frozenset({
    "forward", "parameters", "named_parameters", "children", "named_children", "modules", "named_modules",
    "train", "eval", "training", "zero_grad", "requires_grad_", "state_dict", "load_state_dict",
    "register_parameter", "register_buffer", "buffers", "named_buffers", "add_module", "append", "extend", "reset_parameters", "extra_repr", "apply", "to",
    "double", "float", "cpu", "cuda",
    "keys", "items", "values", "update", "pop", "clear",  # ModuleDict's (dict-like) methods
    "get", "setdefault",  # ParameterDict's too
    "has_uninitialized_params", "initialize_parameters"})  # a Lazy module's

_LAYER_CLASS_METHODS = frozenset({"from_pretrained", "generate_square_subsequent_mask"})  # nn.Embedding.from_pretrained(...)


def layer_attributes(layer):
    """What a program may read of an nn layer: the layer methods, what it registered or was
    configured with (weight, fc1, in_features, reduction, ...), and what the program's own
    classes defined (a program's `class Net(nn.Module)`: forward, its helpers). Asked name by
    name, so a read inside a program's forward builds nothing."""
    return _LayerNames(layer)


class _LayerNames:
    __slots__ = ("layer",)

    def __init__(self, layer):
        self.layer = layer

    def __contains__(self, name):
        if name in _MODULE_METHODS:
            return True
        own = self.layer.__dict__
        if (not name.startswith("_") and name in own) or name in own.get("_parameters", ()) \
                or name in own.get("_buffers", ()) or name in own.get("_modules", ()):
            return True
        return name in program_names(self.layer)


TENSOR_SETTABLE = frozenset({"grad", "requires_grad", "data"})
_CTX_METHODS = frozenset({"save_for_backward", "save_for_forward", "saved_tensors", "needs_input_grad", "mark_dirty",
                          "mark_non_differentiable", "set_materialize_grads"})


class _NodeNames:
    """What a program may read of a backward node: its name, edges, metadata and hooks, and what it
    saved for its backward (`_saved_self`, `_saved_result`, `_saved_dim`...; `_raw_saved_self`, a
    SavedTensor), as PyTorch shows them."""
    __slots__ = ()
    NAMES = frozenset({"name", "next_functions", "metadata", "register_hook", "register_prehook"})

    def __contains__(self, name):
        return name in self.NAMES or name.startswith(("_saved_", "_raw_saved_"))

    def __iter__(self):
        return iter(self.NAMES)


_ATTRIBUTES[_Node] = _NodeNames()


class _CtxNames:
    """What a program may read of a custom Function's ctx (or, through its node, `y.grad_fn`): the
    ctx's methods and the attributes the program set on it."""
    __slots__ = ("ctx", "extra")

    def __init__(self, obj, extra=frozenset()):
        self.ctx = obj.context() if isinstance(obj, _FunctionNode) else obj
        self.extra = extra

    def __contains__(self, name):
        return name in self.extra or name in _CTX_METHODS or (not name.startswith("_") and name in vars(self.ctx))


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
        elif isinstance(obj, _LRScheduler):  # its methods and what it was configured with (gamma, T_max, ...)
            allowed = _public(type(obj), extra=[n for n in vars(obj) if not n.startswith("_")])
        elif (nn := E.nn_if_loaded()) is not None and isinstance(obj, nn.Module):
            allowed = layer_attributes(obj)
        elif isinstance(obj, E.data.DataLoader):
            allowed = _LOADER_ATTRIBUTES
        elif isinstance(obj, E.data.TensorDataset):
            allowed = _DATASET_ATTRIBUTES
        elif nn is not None and isinstance(obj, type) and issubclass(obj, nn.Module):  # a layer class: what programs defined
            allowed = program_names(obj) | _LAYER_CLASS_METHODS
            if name not in allowed:
                raise AttributeError(f"type object '{obj.__name__}' has no attribute '{name}'")
        elif isinstance(obj, type) and issubclass(obj, E.Function):  # an autograd Function: apply, its methods
            if name != "apply" and name not in program_names(obj):
                raise AttributeError(f"type object '{obj.__name__}' has no attribute '{name}'")
            allowed = (name,)
        elif isinstance(obj, _FunctionCtx):
            allowed = _CtxNames(obj)
        elif isinstance(obj, _FunctionNode):
            allowed = _CtxNames(obj, _ATTRIBUTES[_Node])
        elif isinstance(obj, _Node):
            allowed = _ATTRIBUTES[_Node]
        elif isinstance(obj, E.Tensor):
            allowed = TENSOR_ATTRIBUTES
        else:
            allowed = frozenset()
    if name not in allowed:
        if isinstance(obj, (_FunctionCtx, _FunctionNode)) or (nn := E.nn_if_loaded()) is not None \
                and isinstance(obj, nn.Module):  # PyTorch's words
            raise AttributeError(f"'{type(obj).__name__}' object has no attribute '{name}'")
        raise AttributeError(f"{_type_name(obj)} has no attribute '{name}'")
    value = getattr(obj, name)
    guard = _SIZE_GUARDS.get((cls, name))
    return value if guard is None else _guarded(value, guard, obj)


def _guarded(method, guard, obj):
    """A str/list method whose result size is checked before it runs."""
    def call(*args, **kwargs):
        guard(obj, *args, **kwargs)
        return method(*args, **kwargs)
    call.__name__ = call.__qualname__ = method.__name__
    return call


def _width_guard(s, width=0, *rest):
    check_width(width)


def _join_guard(sep, items=()):
    if isinstance(items, (list, tuple)):
        check_items(_py.sum(len(x) for x in items if isinstance(x, str)) + len(sep) * len(items), "string")


def _replace_guard(s, old="", new="", count=-1):
    if isinstance(old, str) and isinstance(new, str) and len(new) > len(old):
        n = s.count(old) if old else len(s) + 1
        check_items(len(s) + (len(new) - len(old)) * (n if count < 0 else min(count, n)), "string")


def _extend_guard(items, more=()):
    if hasattr(more, "__len__"):
        check_items(len(items) + len(more))


_SIZE_GUARDS = {(str, "center"): _width_guard, (str, "ljust"): _width_guard, (str, "rjust"): _width_guard,
                (str, "zfill"): _width_guard, (str, "join"): _join_guard, (str, "replace"): _replace_guard,
                (list, "extend"): _extend_guard}


def settable(obj, name):
    """Whether `obj.name = value` is allowed: a tensor's few, and any public name of an nn layer
    (Module's own __setattr__ registers a parameter or a sub-layer, as in PyTorch)."""
    if obj.__class__ is E.Tensor:  # (exactly a tensor: a Parameter's are its layer's business)
        return name in TENSOR_SETTABLE
    if (nn := E.nn_if_loaded()) is not None and isinstance(obj, nn.Module):
        return not name.startswith("_")
    if isinstance(obj, _FunctionCtx):  # ctx.constant = ... (its methods stay its own)
        return not name.startswith("_") and name not in _CTX_METHODS
    return False


def is_context_manager(obj):
    """Whether `with` takes obj: the engine's context managers (the classes looked up once)."""
    managers = _CONTEXT_MANAGERS[0]
    if managers is None:
        managers = _CONTEXT_MANAGERS[0] = (
            E.no_grad, E.enable_grad, E.set_grad_enabled, E.inference_mode, _Handle,
            E.autograd.graph.saved_tensors_hooks, E.autograd.graph.disable_saved_tensors_hooks,
            E.autograd.forward_ad.dual_level, E.autograd.detect_anomaly, E.autograd.set_detect_anomaly,
            E.autograd.set_multithreading_enabled, E.autograd.enforce_grad_layout_policy,
            E.autograd.graph.allow_mutation_on_saved_tensors)
    return isinstance(obj, managers)


_CONTEXT_MANAGERS = [None]


def _type_name(obj):
    """What a value is, in words a user knows (not Python's class names)."""
    if isinstance(obj, E.Tensor):
        return "a tensor"
    if isinstance(obj, (_Node, _AccumulateGrad)):
        return f"<{obj.name()}>"
    if isinstance(obj, Namespace):
        return obj.name
    if isinstance(obj, UserInstance):
        return f"an object of class {obj.cls.name}"
    plain = TYPE_WORDS.get(type(obj).__name__)
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


_register_words(BUILTINS)

# ---- numpy arrays reach the language through `import numpy` (grammar/modules.py): torch.from_numpy takes them
TORCH["from_numpy"] = _functions.from_numpy
