"""The public functions, with PyTorch's signatures: argument checking and conversion in front of
the op table. Tensor methods are these same functions (engine/tensor_class.py takes them from
`tensor_methods()` when it makes the class).

This package gathers them: the ones the table's rows give by themselves (surface.py), the ones
written by hand for rows whose arguments need PyTorch's own handling (basic.py, and the families
linalg, stats, shapes, arrange, elementwise, distances, indexing), creation (creation.py), and each
row's in-place variant. Every family imports only what lies below it (arguments, creation,
surface, basic), never this package, so there is no import cycle.
"""
import numpy

from . import creation, basic, linalg, stats, shapes, arrange, elementwise, distances, indexing
from . import statistics, tensorops, numbers, windows, native_norms, householder, strided
from .. import code_cache
from ..core.op import TABLE
from .surface import made, inplace_variant

_FAMILIES = (creation, basic, linalg, stats, shapes, arrange, elementwise, distances, indexing, statistics, tensorops,
             numbers, windows, native_norms, householder, strided)


def _public(module):
    """A family's public functions (and result classes): its __all__, or what it defines itself."""
    names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n, v in vars(module).items() if not n.startswith("_") and callable(v)
                 and getattr(v, "__module__", None) == module.__name__]
        names += [n for n in getattr(module, "ALIASES", ())]
    return {n: getattr(module, n) for n in names}


_namespace = {}
for _family in _FAMILIES:
    _namespace.update(_public(_family))

# rows whose in-place variant may run its ufunc in the target's memory when it records nothing
# (core/inplace.py's update; a division keeps the general path: its errors' handling is the row's)
_UPDATES = frozenset({"add", "subtract", "multiply"})

_METHODS = {}  # name -> function: the Tensor methods the rows give (engine/tensor_class.py defines them)


def _install_surface(namespace):
    """Public functions, Tensor methods and in-place variants of every row."""
    for op in TABLE.complete().values():
        first = None
        for name in op.names:
            function = namespace.get(name)
            if function is None:
                function = made(name) or first
                if function is None:
                    raise TypeError(f"op row {op.name!r}: engine/functions must define {name}() (no wrapper)")
                namespace[name] = function
            first = first or function
            if op.method:
                _METHODS[name] = function  # its first parameter is the tensor: x.name(...) is name(x, ...)
            if op.inplace:  # one written by hand (bernoulli_) serves as the method too
                ufunc = getattr(numpy, op.ufunc) if op.elementwise and op.ufunc in _UPDATES else None
                _METHODS[name + "_"] = namespace.setdefault(name + "_", inplace_variant(function, name + "_", ufunc))


def _numpy_aliases(namespace):
    """PyTorch's argument parser takes numpy's names too: axis for dim, keepdims for keepdim
    (x.sum(axis=0, keepdims=True)). Each public function with a dim or keepdim parameter -- and
    the Tensor method that is the same function -- gets a wrapper that renames them."""
    for name, f in list(namespace.items()):
        code = getattr(f, "__code__", None)
        if name.startswith("_") or code is None or not (getattr(f, "__module__", None) or "").startswith(__name__):
            continue
        params = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
        # (a function written from a signature takes the alias of an optional dim itself, not of a required one)
        renames = tuple((alias, own) for own, alias in (("dim", "axis"), ("keepdim", "keepdims"))
                        if own in params and alias not in params)
        if not renames:
            continue
        wrapper = _aliasing(f, renames)
        namespace[name] = wrapper
        if _METHODS.get(name) is f:
            _METHODS[name] = wrapper


def _aliasing(f, renames):
    def call(*args, **kwargs):
        if kwargs:
            for alias, own in renames:
                if alias in kwargs:
                    if own in kwargs:  # PyTorch's words when both are given
                        raise TypeError(f"{f.__name__}() got an unexpected keyword argument '{alias}'")
                    kwargs[own] = kwargs.pop(alias)
        return f(*args, **kwargs)
    call.__name__ = call.__qualname__ = f.__name__
    call.__doc__ = f.__doc__
    call.__wrapped__ = f
    return call


_install_surface(_namespace)
_numpy_aliases(_namespace)
code_cache.save()  # the generated functions' code, for the next run's import
globals().update(_namespace)


def tensor_methods():
    """The methods Tensor takes from the op table: name -> function (a method written in the class
    itself takes precedence over one of these)."""
    return dict(_METHODS)


__all__ = sorted(n for n in _namespace if n != "Tensor")
