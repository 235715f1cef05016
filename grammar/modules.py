"""What `import` can bind, and the few Python builtins the language adds for
pasted Python (exceptions, dicts, `type`, `isinstance`): one allow-list.

`resolve` makes every importable dotted name: torch and its namespaces (the
tables of names.py, torch.nn's made on first import), `math` (Python's math on Python numbers;
on a one-element tensor as Python's math does, through float()), and a
`numpy` subset that makes numpy arrays (printed as numpy prints them, taken
by torch.tensor / torch.from_numpy), Python's `random` (the program's own
generator, as numpy's) and `time`'s clocks. Anything else is refused at the import
line, naming what is supported (`SUPPORTED`). numpy's random numbers come
from a generator of the program's own, seeded 0 until `np.random.seed`, so
a run is repeatable (and `np.random.seed(s)` gives numpy's own numbers).

Every function here checks sizes first (limits.py, the engine's allocation
limit): `np.zeros(10**12)` or `math.factorial(10**6)` is a clean error, not a
frozen machine.
"""
import collections as _collections
import math as _math
import weakref
import operator as _operator

import numpy as _np

from .. import engine as E
from ..engine.allocation import check_allocation as _check_allocation
from .limits import bounded_list, check_bits
from .names import Namespace, TORCH_NAMESPACE, BUILTINS as _BUILTINS
from .classes import UserClass, UserInstance, DESCRIPTORS
from .words import show
from .dataclasses_module import dataclasses_table, Field as DataclassField

__all__ = ["EXCEPTIONS", "SUPPORTED", "resolve", "import_from", "EXTRA_BUILTINS",
           "extra_attribute", "TypeView", "is_exception_class"]

SUPPORTED = ("import torch, import torch.nn.functional as F, from torch import ..., "
             "from torch.autograd import grad, import math, import numpy as np, import random, import time, "
             "import copy, from collections import OrderedDict, from typing import ..., from pprint import pprint, "
             "from dataclasses import dataclass")

# ------------------------------------------------------------- exceptions

EXCEPTIONS = {cls.__name__: cls for cls in (
    BaseException, Exception, ArithmeticError, LookupError, RuntimeError, ValueError, TypeError, IndexError,
    KeyError, ZeroDivisionError, AssertionError, NotImplementedError, StopIteration, AttributeError,
    NameError, UnboundLocalError, OverflowError, ImportError, ModuleNotFoundError, FloatingPointError)}
_BUILTIN_EXCEPTIONS = frozenset(EXCEPTIONS.values())
_PROGRAM_EXCEPTIONS = weakref.WeakSet()  # `class MyError(ValueError): pass` of the programs run


def is_exception_class(value):
    return value.__class__ is type and (value in _BUILTIN_EXCEPTIONS or value in _PROGRAM_EXCEPTIONS)


def exception_class(name, bases, namespace):
    """`class Name(SomeError): pass`: a real exception class (so raise and except treat it as
    Python does), deriving from the language's exceptions only; its body may not define
    anything (its instances are Python's own, whose only attribute here is args)."""
    if not all(is_exception_class(b) for b in bases):
        raise TypeError(f"class {name} can derive from exceptions or from classes the program defines, "
                        "not from both")
    if namespace:
        raise TypeError(f"an exception class of the program has no methods or attributes here: write "
                        f"class {name}({bases[0].__name__}): pass")
    cls = type(name, tuple(bases), {"__module__": "__main__"})
    _PROGRAM_EXCEPTIONS.add(cls)
    return cls


# ------------------------------------------------------------------- sizes



def _scalar(x):
    """A one-element tensor is a Python number for math (as float(t) is in Python)."""
    if isinstance(x, E.Tensor):
        return x.item()
    return x


def _factorial(n):
    n = _operator.index(_scalar(n)) if not isinstance(n, float) else n
    if isinstance(n, int) and n > 2:
        check_bits(_math.lgamma(n + 1) / _math.log(2))
    return _math.factorial(n)


def _comb(n, k):
    n, k = _scalar(n), _scalar(k)
    if isinstance(n, int) and isinstance(k, int) and 0 <= k <= n and n > 2:
        check_bits((_math.lgamma(n + 1) - _math.lgamma(k + 1) - _math.lgamma(n - k + 1)) / _math.log(2))
    return _math.comb(n, k)


def _perm(n, k=None):
    n = _scalar(n)
    k = n if k is None else _scalar(k)
    if isinstance(n, int) and isinstance(k, int) and 0 <= k <= n and n > 2:
        check_bits((_math.lgamma(n + 1) - _math.lgamma(n - k + 1)) / _math.log(2))
    return _math.perm(n, k)


def _prod(iterable, *, start=1):
    items = bounded_list(iterable)
    if isinstance(start, int) and all(isinstance(x, int) for x in items):
        check_bits(sum(abs(x).bit_length() for x in items) + abs(start).bit_length())
    return _math.prod(items, start=start)


def _fsum(iterable):
    return _math.fsum(bounded_list(iterable))


def _lcm(*ints):
    check_bits(sum(abs(_operator.index(x)).bit_length() for x in ints))
    return _math.lcm(*ints)


def _ldexp(x, i):
    return _math.ldexp(_scalar(x), _scalar(i))


_MATH_NAMES = ("sqrt", "exp", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "asin", "acos",
               "atan", "atan2", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "fabs", "floor", "ceil",
               "trunc", "pow", "hypot", "isclose", "isfinite", "isnan", "isinf", "copysign", "fmod", "modf",
               "frexp", "gcd", "isqrt", "degrees", "radians", "erf", "erfc", "gamma", "lgamma", "dist",
               "remainder", "nextafter", "ulp", "cbrt", "exp2")
MATH = {name: getattr(_math, name) for name in _MATH_NAMES if hasattr(_math, name)}
MATH.update(pi=_math.pi, e=_math.e, tau=_math.tau, inf=_math.inf, nan=_math.nan, factorial=_factorial,
            comb=_comb, perm=_perm, prod=_prod, fsum=_fsum, lcm=_lcm, ldexp=_ldexp)

# ------------------------------------------------------------------- numpy


def _count(shape):
    if isinstance(shape, (int, _np.integer)):
        shape = (int(shape),)
    n = 1
    for s in shape:
        s = _operator.index(s)
        if s < 0:
            raise ValueError("negative dimensions are not allowed")
        n *= s
    return tuple(_operator.index(s) for s in shape), n


def _allocating(shape, dtype):
    """Refuse (as the engine refuses a tensor) an array past the allocation limit."""
    shape, _ = _count(shape)
    _check_allocation(shape, _np.dtype(dtype if dtype is not None else _np.float64))
    return shape


def _np_zeros(shape, dtype=None):
    return _np.zeros(_allocating(shape, dtype), dtype=dtype)


def _np_ones(shape, dtype=None):
    return _np.ones(_allocating(shape, dtype), dtype=dtype)


def _np_empty(shape, dtype=None):
    return _np.zeros(_allocating(shape, dtype), dtype=dtype)


def _np_full(shape, fill_value, dtype=None):
    probe = _np.asarray(fill_value) if dtype is None else None
    return _np.full(_allocating(shape, dtype if dtype is not None else probe.dtype), fill_value, dtype=dtype)


def _np_eye(N, M=None, k=0, dtype=float):
    _allocating((N, N if M is None else M), dtype)
    return _np.eye(N, M, k, dtype=dtype)


def _np_linspace(start, stop, num=50, endpoint=True, dtype=None):
    _allocating((_operator.index(num),), dtype)
    return _np.linspace(_scalar(start), _scalar(stop), num, endpoint=endpoint, dtype=dtype)


def _np_arange(*args, dtype=None):
    values = [_scalar(a) for a in args]
    start, stop, step = (0, values[0], 1) if len(values) == 1 else (values + [1])[:3] if len(values) == 2 \
        else values[:3]
    if step == 0:
        raise ZeroDivisionError("division by zero")
    n = max(0, _math.ceil((stop - start) / step)) if all(_math.isfinite(v) for v in (start, stop, step)) else 0
    _allocating((n,), dtype if dtype is not None else _np.result_type(*values))
    return _np.arange(*values, dtype=dtype)


def _to_array(obj):
    if isinstance(obj, E.Tensor):
        return _np.asarray(obj.detach().tolist(), dtype=obj.dtype.np if hasattr(obj.dtype, "np") else None)
    return obj


def _np_array(obj, dtype=None, copy=True):
    obj = _to_array(obj)
    if isinstance(obj, (list, tuple)):
        bounded_list(obj)
    return _np.array(obj, dtype=dtype, copy=copy)


def _np_asarray(obj, dtype=None):
    obj = _to_array(obj)
    return _np.asarray(obj, dtype=dtype)


def _checked_product(name, fn):
    def call(a, b, *rest, **kw):
        sa, sb = _np.shape(a), _np.shape(b)
        if len(sa) >= 1 and len(sb) >= 1:
            out = sa[:-1] + (sb[-1:] if len(sb) > 1 else ())
            _allocating(out, _np.float64)
        return fn(a, b, *rest, **kw)
    call.__name__ = call.__qualname__ = name
    return call


class _Random:
    """np.random, with a generator of the program's own (numpy's legacy
    MT19937, so `np.random.seed(s)` gives numpy's numbers)."""

    def __init__(self):
        self.state = _np.random.RandomState(0)

    def table(self):
        state = self

        def seed(seed=None):
            state.state.seed(seed)

        def rand(*shape):
            return state.state.rand(*_allocating(shape, _np.float64)) if shape else state.state.rand()

        def randn(*shape):
            return state.state.randn(*_allocating(shape, _np.float64)) if shape else state.state.randn()

        def _sized(size):
            return None if size is None else _allocating(size, _np.float64)

        def normal(loc=0.0, scale=1.0, size=None):
            return state.state.normal(loc, scale, _sized(size))

        def uniform(low=0.0, high=1.0, size=None):
            return state.state.uniform(low, high, _sized(size))

        def randint(low, high=None, size=None):
            return state.state.randint(low, high, _sized(size))

        def random(size=None):
            return state.state.random_sample(_sized(size))
        return {"seed": seed, "rand": rand, "randn": randn, "normal": normal, "uniform": uniform,
                "randint": randint, "random": random}


class _PyRandom:
    """Python's `random`, with a generator of the program's own: seeded 0 until `random.seed`, so a
    run is repeatable, and `random.seed(s)` gives Python's own numbers for s. What it returns is
    bounded by what it is given (a list the program made, a k no larger than it)."""

    def __init__(self):
        import random
        self.state = random.Random(0)

    def table(self):
        r = self.state

        def seed(a=None):
            r.seed(a)

        def sample(population, k):
            return r.sample(bounded_list(population), k)

        functions = {"seed": seed, "random": r.random, "uniform": r.uniform, "randint": r.randint,
                     "randrange": r.randrange, "choice": r.choice, "shuffle": r.shuffle, "gauss": r.gauss,
                     "normalvariate": r.normalvariate, "sample": sample}
        for name, f in functions.items():
            if name in ("seed", "sample"):
                f.__name__ = f.__qualname__ = name
        return functions


def _time_module():
    """Python's `time`: the clocks, for timing a loop (no sleep: a program never waits)."""
    import time
    return Namespace("time", {"time": time.time, "perf_counter": time.perf_counter,
                              "monotonic": time.monotonic, "process_time": time.process_time})


_NUMPY_PLAIN = {
    "pi": _np.pi, "e": _np.e, "inf": _np.inf, "nan": _np.nan, "newaxis": None,
    "float32": _np.float32, "float64": _np.float64, "int64": _np.int64, "int32": _np.int32,
    "float16": _np.float16, "bool_": _np.bool_,
    "sin": _np.sin, "cos": _np.cos, "tan": _np.tan, "exp": _np.exp, "log": _np.log, "sqrt": _np.sqrt,
    "abs": _np.abs, "tanh": _np.tanh, "square": _np.square, "maximum": _np.maximum, "minimum": _np.minimum,
    "sum": _np.sum, "mean": _np.mean, "std": _np.std, "var": _np.var, "max": _np.max, "min": _np.min,
    "argmax": _np.argmax, "argmin": _np.argmin, "allclose": _np.allclose, "isclose": _np.isclose,
    "array_equal": _np.array_equal, "shape": _np.shape, "transpose": _np.transpose,
    "dot": _checked_product("dot", _np.dot), "matmul": _checked_product("matmul", _np.matmul),
    "array": _np_array, "asarray": _np_asarray, "zeros": _np_zeros, "ones": _np_ones, "empty": _np_empty,
    "full": _np_full, "eye": _np_eye, "linspace": _np_linspace, "arange": _np_arange,
    "zeros_like": lambda a, dtype=None: _np_zeros(_np.shape(a), dtype or _np.asarray(a).dtype),
    "ones_like": lambda a, dtype=None: _np_ones(_np.shape(a), dtype or _np.asarray(a).dtype),
}
for _name in ("zeros_like", "ones_like"):
    _NUMPY_PLAIN[_name].__name__ = _NUMPY_PLAIN[_name].__qualname__ = _name

_NDARRAY_ATTRIBUTES = frozenset({"shape", "dtype", "ndim", "size", "T", "sum", "mean", "std", "var", "max",
                                 "min", "argmax", "argmin", "reshape", "astype", "tolist", "item", "copy",
                                 "flatten", "transpose", "squeeze"})
_SCALAR_ATTRIBUTES = frozenset({"item", "dtype", "shape", "ndim", "real", "imag", "is_integer"})


def _numpy_module(state):
    """The `numpy` namespace of one program (its np.random is the program's own)."""
    random = Namespace("numpy.random", state.setdefault("numpy.random", _Random()).table())
    return Namespace("numpy", dict(_NUMPY_PLAIN, random=random, ndarray=_np.ndarray))


# ----------------------------------------------------------------- modules

def _torch_module(dotted):
    """torch, or a namespace inside it by its dotted name (torch.nn.functional); None if there is none.
    Walked name by name, so a namespace made on first use (torch.nn's) is made when it is imported."""
    parts = dotted.split(".")
    if parts[0] != "torch":
        return None
    module = TORCH_NAMESPACE
    for part in parts[1:]:
        module = module.table.get(part)
        if not isinstance(module, Namespace):
            return None
    return module


def _copy(value):
    """copy.copy: a shallow copy of a list, dict or set, a tensor or layer as Python's copy makes it;
    the language's own objects (classes, functions, modules) are themselves."""
    import copy
    return copy.copy(value)


def _deepcopy(value, memo=None):
    """copy.deepcopy: a layer with its own parameters, a state dict with its own tensors (the
    engine's __deepcopy__, PyTorch's rules), the containers walked; the language's own objects are
    themselves (their __deepcopy__)."""
    import copy
    return copy.deepcopy(value, memo)


class TypingName:
    """A name of `typing` (Optional, List, ...): subscripted it is itself, for type aliases written at
    the top of a program (Vector = List[float]); annotations are read past without evaluating them."""
    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __getitem__(self, item):
        items = item if item.__class__ is tuple else (item,)
        return TypingName(f"{self.name}[{', '.join(_typing_argument(i) for i in items)}]")

    def __repr__(self):
        return f"typing.{self.name}"


def _typing_argument(value):
    """How typing writes an argument: typing.X, a class or a builtin by its name, None as None."""
    if value.__class__ is TypingName:
        return repr(value)
    if value is None:
        return "None"
    if isinstance(value, type) and issubclass(value, E.Tensor):
        return "torch.Tensor"
    value = _CLASS_OF.get(id(value), value)  # the language's int, list...: Python's classes
    return getattr(value, "__name__", None) or repr(value)


def _defaultdict(default_factory=None, *args, **kwargs):
    """collections.defaultdict; the language's list, dict, int... as the factory are Python's classes
    (so it prints as Python's: defaultdict(<class 'list'>, {...}))."""
    factory = _CLASS_OF.get(id(default_factory), default_factory)
    return _collections.defaultdict(factory, *args, **kwargs)


_TYPING_NAMES = ("Any", "Optional", "Union", "List", "Tuple", "Dict", "Set", "FrozenSet", "Callable",
                 "Iterable", "Iterator", "Sequence", "Mapping", "Type", "Generator", "ClassVar", "Final",
                 "Literal")


def _typing_module():
    table = {name: TypingName(name) for name in _TYPING_NAMES}
    table.update(TYPE_CHECKING=False, cast=lambda type_, value: value, TypeVar=lambda name, *a, **k: TypingName(name))
    table["cast"].__name__ = table["cast"].__qualname__ = "cast"
    table["TypeVar"].__name__ = table["TypeVar"].__qualname__ = "TypeVar"
    return Namespace("typing", table)


def _pprint_module(state):
    """Python's pprint: pprint and pformat, containers laid out as Python lays them out (width 80,
    dict keys sorted), every other value as the language shows it (a tensor as PyTorch prints it).
    pprint writes where the program's print writes."""
    import pprint

    class Printer(pprint.PrettyPrinter):
        def format(self, obj, context, maxlevels, level):
            if isinstance(obj, (dict, list, tuple, set, frozenset)):
                return super().format(obj, context, maxlevels, level)
            return show(obj, as_repr=True), True, False

    def pformat(obj, indent=1, width=80, depth=None, *, compact=False, sort_dicts=True):
        try:
            return Printer(indent=indent, width=width, depth=depth, compact=compact,
                           sort_dicts=sort_dicts).pformat(obj)
        except RecursionError:  # nested deeper than Python's own printer goes: on one line
            return show(obj, as_repr=True)

    def pprint_(obj, indent=1, width=80, depth=None, *, compact=False, sort_dicts=True):
        state[PRINT](pformat(obj, indent, width, depth, compact=compact, sort_dicts=sort_dicts))
    pprint_.__name__ = pprint_.__qualname__ = "pprint"
    return Namespace("pprint", {"pprint": pprint_, "pformat": pformat, "pp": pprint_})


PRINT = ".print"  # where a program's modules find its print (no module has this name)

# the standard library's modules a program may import: name -> how one is made for a program (its
# state: pprint prints where the program's print does)
_STANDARD = {
    "collections": lambda state: Namespace("collections", {"OrderedDict": _collections.OrderedDict,
                                                           "defaultdict": _defaultdict,
                                                           "Counter": _collections.Counter}),
    "copy": lambda state: Namespace("copy", {"copy": _copy, "deepcopy": _deepcopy}),
    "typing": lambda state: _typing_module(),
    "dataclasses": lambda state: Namespace("dataclasses", dataclasses_table()),
    "pprint": _pprint_module,
}
for _name, _f in (("copy", _copy), ("deepcopy", _deepcopy), ("defaultdict", _defaultdict)):
    _f.__name__ = _f.__qualname__ = _name

MATH_MODULE = Namespace("math", MATH)


def resolve(dotted, state):
    """The namespace of module `dotted` for a program (`state`: the program's
    own modules, made on first import); ImportError if it is not allow-listed."""
    module = state.get(dotted)
    if module is not None:
        return module
    module = _torch_module(dotted)
    if module is not None:
        pass
    elif dotted == "math":
        module = MATH_MODULE
    elif dotted == "random":
        module = Namespace("random", _PyRandom().table())
    elif dotted == "time":
        module = _time_module()
    elif dotted in _STANDARD:
        module = _STANDARD[dotted](state)
    elif dotted in ("numpy", "numpy.random"):
        numpy = state.get("numpy") or _numpy_module(state)
        state["numpy"] = numpy
        module = numpy if dotted == "numpy" else numpy.table["random"]
    else:
        raise ModuleNotFoundError(f"No module named '{dotted}' in this language")
    state[dotted] = module
    return module


def import_from(module, name):
    """`from module import name`."""
    if name.startswith("__") or name not in module.table:
        raise ImportError(f"cannot import name '{name}' from '{module.name}'")
    return module.table[name]


# ------------------------------------------------------- Python builtins

class TypeView:
    """What `type(x)` gives for a value that is not an exception: prints and
    compares as the class (`type(x).__name__`, `type(x) == int`), and calls
    the language's own conversion where there is one (type(1)(x) is int(x))."""

    __slots__ = ("cls",)

    def __init__(self, cls):
        self.cls = cls

    @property
    def name(self):
        """The class's name as Python shows it (`type(x).__name__`)."""
        if issubclass(self.cls, E.Tensor):
            return "Tensor"
        shown = _SHOWN_AS.get((self.cls.__module__, self.cls.__name__))
        return self.cls.__name__ if shown is None else shown.rsplit(".", 1)[-1]

    def __eq__(self, other):
        if isinstance(other, TypeView):
            return self.cls is other.cls
        return self.cls is _CLASS_OF.get(id(other), other)

    def __hash__(self):
        return hash(self.cls)

    def __repr__(self):
        if issubclass(self.cls, E.Tensor):
            return "<class 'torch.Tensor'>"
        module, name = self.cls.__module__, self.cls.__name__
        shown = _SHOWN_AS.get((module, name))
        if shown is None:
            if module.startswith("autodiff.engine"):
                shown = f"torch.{name}"  # torch.Size, ...: the engine's classes as PyTorch names them
            elif module == "builtins" or module.startswith("autodiff."):
                shown = name  # never the implementation's module path
            else:
                shown = f"{module}.{name}"  # numpy.ndarray, numpy.float64
        return f"<class '{shown}'>"

    def __call__(self, *args, **kwargs):
        convert = _CONVERSIONS.get(self.cls)
        if convert is None:
            raise TypeError(f"{self.name}() can't be called here")
        return convert(*args, **kwargs)


# the language's own machinery, shown as what Python would show for the same thing
_SHOWN_AS = {("autodiff.grammar.vm", "UserFunction"): "function", ("autodiff.grammar.names", "Namespace"): "module",
             ("autodiff.grammar.modules", "TypeView"): "type", ("builtins", "method"): "builtin_function_or_method",
             ("autodiff.engine.dtypes", "DType"): "torch.dtype", ("autodiff.engine.backend", "Device"): "torch.device",
             ("autodiff.grammar.classes", "UserClass"): "type", ("autodiff.grammar.classes", "BoundMethod"): "method",
             ("autodiff.grammar.classes", "SuperProxy"): "super"}


def _type(value):
    if value.__class__ is UserInstance:
        return value.cls  # a class of the program is its own type
    if isinstance(value, BaseException):
        cls = type(value)
        return cls if is_exception_class(cls) else RuntimeError
    return TypeView(type(value))


def _classes(spec):
    items = spec if isinstance(spec, tuple) else (spec,)
    out = []
    for c in items:
        if c.__class__ is UserClass:
            out.append(c)
            continue
        if isinstance(c, TypeView):
            c = c.cls
        c = _CLASS_OF.get(id(c), c)
        if not isinstance(c, type):
            raise TypeError("isinstance() arg 2 must be a type, a tuple of types, or a union")
        out.append(c)
    return tuple(out)


def _isinstance(value, spec):
    classes = _classes(spec)
    program = [c for c in classes if c.__class__ is UserClass]
    if program:  # a class of the program: the instance's class or one it derives from
        if value.__class__ is UserInstance and any(c in value.cls.mro for c in program):
            return True
        classes = tuple(c for c in classes if c.__class__ is not UserClass)
    return isinstance(value, classes)


def _dict(*args, **kwargs):
    if args and not isinstance(args[0], dict):
        args = (bounded_list(args[0]),) + args[1:]
    return dict(*args, **kwargs)


def _set(iterable=()):
    return set(bounded_list(iterable))


def _frozenset(iterable=()):
    return frozenset(bounded_list(iterable))


# the language's conversion functions and the classes they stand for (isinstance(x, float))
_CLASS_OF = {id(_BUILTINS[name]): cls for name, cls in (("int", int), ("float", float), ("bool", bool),
                                                         ("str", str), ("list", list), ("tuple", tuple))}
_CLASS_OF[id(_dict)] = dict
_CLASS_OF[id(_set)] = set
_CLASS_OF[id(_frozenset)] = frozenset
_CONVERSIONS = {int: _BUILTINS["int"], float: _BUILTINS["float"], bool: _BUILTINS["bool"], str: _BUILTINS["str"],
                list: _BUILTINS["list"], tuple: _BUILTINS["tuple"], dict: _dict, set: _set, frozenset: _frozenset}


def _map(function, *iterables):
    return map(function, *iterables)


def _filter(function, iterable):
    return filter(function, iterable)


EXTRA_BUILTINS = dict(EXCEPTIONS)
EXTRA_BUILTINS.update({"type": _type, "isinstance": _isinstance, "dict": _dict, "set": _set,
                       "frozenset": _frozenset, "map": _map, "filter": _filter, "__name__": "__main__"})
# Python's own, on numbers and strings only (whole numbers are already bounded by the language)
EXTRA_BUILTINS.update({"divmod": divmod, "hex": hex, "oct": oct, "bin": bin, "chr": chr, "ord": ord, "hash": hash})
EXTRA_BUILTINS.update(DESCRIPTORS)  # @staticmethod, @classmethod, @property in a class body
for _name in ("type", "isinstance", "dict", "set", "frozenset", "map", "filter"):
    EXTRA_BUILTINS[_name].__name__ = EXTRA_BUILTINS[_name].__qualname__ = _name

# ------------------------------------------------------------- attributes

_DICT_ATTRIBUTES = frozenset({"items", "keys", "values", "get", "pop", "update", "setdefault", "copy", "clear",
                              "popitem", "move_to_end", "most_common"})
_SET_ATTRIBUTES = frozenset({"add", "discard", "remove", "pop", "union", "intersection", "difference",
                             "issubset", "issuperset", "copy", "clear", "update"})
_VIEW_TYPES = (type({}.keys()), type({}.values()), type({}.items()))


def _guarded_update(target):
    method = target.update

    def update(*args, **kwargs):
        if args and not isinstance(args[0], (dict, set, frozenset)):
            args = (bounded_list(args[0]),) + args[1:]
        return method(*args, **kwargs)
    update.__name__ = update.__qualname__ = "update"
    return update


_MISSING = object()
# an optimiser's state, MultiStepLR's milestones, a module's state_dict
_DICT_SUBCLASSES = (_collections.defaultdict, _collections.Counter, _collections.OrderedDict)


def extra_attribute(obj, name):
    """obj.name for the values this module brings in (dicts, sets, numpy
    arrays, exceptions, classes), or _MISSING when obj is none of them."""
    cls = obj.__class__
    if name.startswith("__") and not (name in ("__name__", "__qualname__") and (
            cls is TypeView or is_exception_class(obj))):
        raise AttributeError(f"'{name}' is not available in this language")
    if cls is dict or cls is set or cls in _DICT_SUBCLASSES:
        allowed = _SET_ATTRIBUTES if cls is set else _DICT_ATTRIBUTES
    elif cls is frozenset:
        allowed = _SET_ATTRIBUTES - {"add", "discard", "remove", "pop", "clear", "update"}
    elif cls in _VIEW_TYPES:
        allowed = frozenset()
    elif cls is _np.ndarray:
        allowed = _NDARRAY_ATTRIBUTES
    elif isinstance(obj, _np.generic):
        allowed = _SCALAR_ATTRIBUTES
    elif isinstance(obj, BaseException):
        allowed = frozenset({"args"})
    elif cls is DataclassField:
        allowed = frozenset({"name", "default", "default_factory", "init", "repr", "compare"})
    elif cls is TypeView or is_exception_class(obj):
        if name in ("__name__", "__qualname__"):
            return obj.name if cls is TypeView else obj.__name__
        allowed = frozenset()
    else:
        return _MISSING
    if name not in allowed:
        what = "'TypeView'" if cls is TypeView else repr(getattr(cls, "__name__", "object"))
        raise AttributeError(f"{what} object has no attribute '{name}'")
    if name == "update" and cls in (dict, set):
        return _guarded_update(obj)
    return getattr(obj, name)


ITERABLE_TYPES = (dict, set, frozenset, _np.ndarray, map, filter) + _VIEW_TYPES + tuple(
    type(iter(x)) for x in ([], (), range(0), "", {}, set(), {}.values(), {}.items()))
