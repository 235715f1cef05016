"""A stand-in for CuPy, so the engine's GPU seam is tested on a machine without a GPU.

`FakeCudaArray` is a numpy.ndarray subclass: arrays that live on the fake
device have that exact type, so a test can tell a device result
(`type(t.array) is FakeCudaArray`) from a host array that leaked out of the
seam. Like CuPy it refuses to mix device arrays with host (numpy) arrays in
one operation, and its reductions return 0-d device arrays, never host
scalars.

`install()` registers it as the backend of device type "cuda" through
`autodiff.engine.backend.register_backend`; `uninstall(previous)` restores the
loader that was there before.
"""
import numpy

from autodiff.engine import backend as ad_backend

class HostArrayError(TypeError):
    """A host (numpy) array was mixed into an operation on fake-device arrays."""


class FakeCudaArray(numpy.ndarray):
    """An array "on the GPU": a numpy array of a type of its own."""

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        _check_no_host(inputs, f"{ufunc.__name__}.{method}")
        out = kwargs.get("out")
        if out is not None:
            _check_no_host(out, f"{ufunc.__name__}.{method}")
            kwargs["out"] = tuple(_plain(o) for o in out)
        result = getattr(ufunc, method)(*(_plain(x) for x in inputs), **kwargs)
        if out is not None:  # in place: hand back the very arrays written to
            return out[0] if len(out) == 1 else out
        return _wrap(result)

    def __getitem__(self, key):
        # CuPy indexing never yields a host scalar: a full index gives a 0-d device array, and
        # that array is a view (a later write into the parent shows through it)
        key = _plain_tree(key) if isinstance(key, tuple) else _plain(key)
        result = super().__getitem__(key)
        if isinstance(result, numpy.generic):
            result = super().__getitem__((key if isinstance(key, tuple) else (key,)) + (Ellipsis,))
        return _wrap(result)

    @property
    def flags(self):
        """CuPy's flags: the contiguity and ownership ones, no `writeable` (nothing is read-only)."""
        return _CupyFlags(numpy.ndarray.flags.__get__(self))

    def __array_function__(self, func, types, args, kwargs):
        _check_no_host(args, func.__name__)
        _check_no_host(tuple(kwargs.values()), func.__name__)
        result = func(*_plain_tree(args), **{k: _plain_tree(v) for k, v in kwargs.items()})
        return _wrap(result)


class _CupyFlags:
    def __init__(self, flags):
        self.c_contiguous, self.f_contiguous, self.owndata = flags.c_contiguous, flags.f_contiguous, flags.owndata


def _plain(x):
    return x.view(numpy.ndarray) if isinstance(x, FakeCudaArray) else x


def _plain_tree(x):
    if isinstance(x, (list, tuple)):
        return type(x)(_plain_tree(v) for v in x)
    return _plain(x)


def _is_host_array(x):
    return type(x) is numpy.ndarray


def _check_no_host(values, what):
    for v in values:
        if isinstance(v, (list, tuple)):
            _check_no_host(v, what)
        elif _is_host_array(v):
            raise HostArrayError(
                f"fake cuda: {what} got a host numpy array of shape {v.shape} mixed with device arrays "
                f"(CuPy would raise here)")


def _wrap(result):
    """Device results: arrays and numpy scalars become FakeCudaArray (CuPy returns 0-d arrays)."""
    if isinstance(result, tuple):
        return tuple(_wrap(r) for r in result)
    if isinstance(result, list):
        return [_wrap(r) for r in result]
    if isinstance(result, numpy.ndarray):
        result = result if type(result) is FakeCudaArray else result.view(FakeCudaArray)
        flags = numpy.ndarray.flags.__get__(result)
        if not flags.writeable and all(result.strides):  # CuPy has no read-only views (a diagonal is
            try:                                            # written through); broadcasts stay read-only
                flags.writeable = True
            except ValueError:  # a view of read-only memory
                pass
        return result
    if isinstance(result, numpy.generic):
        return numpy.asarray(result).view(FakeCudaArray)
    return result


def to_host(a):
    """cupy.asnumpy: a host copy."""
    return numpy.array(numpy.asarray(a).view(numpy.ndarray), copy=True)


def from_host(a):
    """cupy.asarray: a device copy of host data (device arrays pass through)."""
    if type(a) is FakeCudaArray:
        return a
    return numpy.array(a, copy=True).view(FakeCudaArray)


class FakeCupy:
    """The module-like `xp`: numpy's namespace, with results on the fake device."""

    ndarray = FakeCudaArray
    __name__ = "fakecupy"

    def __init__(self):
        self.calls = 0

    # cupy.asarray / cupy.array accept host data (a transfer)
    def asarray(self, a, dtype=None, order=None):
        self.calls += 1
        if type(a) is FakeCudaArray and (dtype is None or a.dtype == numpy.dtype(dtype)):
            return a
        return numpy.asarray(_plain(a), dtype=dtype).view(FakeCudaArray)

    def array(self, a, dtype=None, copy=True):
        self.calls += 1
        return numpy.array(_plain(a), dtype=dtype, copy=True).view(FakeCudaArray)

    def may_share_memory(self, a, b):
        return numpy.may_share_memory(_plain(a), _plain(b))

    def shares_memory(self, a, b):
        return numpy.shares_memory(_plain(a), _plain(b))

    def indices(self, dimensions, dtype=int):
        """cupy.indices has no `sparse` argument."""
        self.calls += 1
        return numpy.indices(dimensions, dtype=dtype).view(FakeCudaArray)

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        obj = getattr(numpy, name)
        if isinstance(obj, (type, numpy.ufunc)) or not callable(obj):
            return obj  # dtypes and classes, ufuncs (FakeCudaArray handles them), constants
        if name in ("dtype", "result_type", "promote_types", "can_cast", "iinfo", "finfo", "ndim", "shape",
                    "isscalar", "issubdtype"):
            return obj

        def device_function(*args, **kwargs):
            self.calls += 1
            _check_no_host(args, name)
            _check_no_host(tuple(kwargs.values()), name)
            return _wrap(obj(*_plain_tree(args), **{k: _plain_tree(v) for k, v in kwargs.items()}))

        device_function.__name__ = name
        return device_function


def loader():
    return ad_backend.Backend("fakecupy", FakeCupy(), to_host, from_host)


def install():
    """Put the fake backend behind 'cuda'; returns the loader it replaced."""
    return ad_backend.register_backend("cuda", loader)


def uninstall(previous):
    ad_backend.register_backend("cuda", previous)
