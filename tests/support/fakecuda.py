"""A stand-in for CuPy, so the engine's GPU seam is tested on a machine without a GPU.

`FakeCudaArray` is a numpy.ndarray subclass: arrays that live on the fake
device have that exact type, so a test can tell a device result
(`type(t.array) is FakeCudaArray`) from a host array that leaked out of the
seam. Like CuPy it refuses to mix device arrays with host (numpy) arrays in
one operation, and its reductions return 0-d device arrays, never host
scalars.

Where CuPy 14 lacks what numpy has, the stand-in refuses it too, as CuPy does:

- ufunc methods: `accumulate` only of add and multiply (CuPy's cumsum and cumprod),
  `reduce` only of add and multiply, `reduceat` only of add, `at` only of add (CuPy has
  maximum.at and minimum.at, but they round float64 through float32, so the engine must
  not use them: refused here as untrustworthy) -- NotImplementedError, CuPy's;
- reductions (x.max(), xp.sum(x) ...) with `initial=` or a `where=` mask: TypeError;
- xp.where with a condition that is not an array (a Python bool): AttributeError, CuPy's;
- a device array given to numpy.asarray / array / asanyarray / ascontiguousarray /
  asfortranarray (CuPy's implicit conversion to the host) -- TypeError, while installed;
- xp.linalg.svd and xp.linalg.eigh give their singular and eigen vectors with other signs
  than numpy's (every other one flipped): as valid, and as a GPU's solver may pick them.

`install()` registers it as the backend of device type "cuda" through
`autodiff.engine.backend.register_backend`; `uninstall(previous)` restores the
loader that was there before.
"""
import numpy

from autodiff.engine import backend as ad_backend

# CuPy's ufunc methods, by method: the ufuncs that have it (any other raises NotImplementedError)
_UFUNC_METHODS = {"accumulate": {"add", "multiply"}, "reduce": {"add", "multiply"}, "reduceat": {"add"},
                  "at": {"add"}}
_REDUCTIONS = ("max", "min", "sum", "prod", "any", "all", "amax", "amin", "mean", "nansum", "nanprod", "nanmax",
               "nanmin")
# numpy's conversions to a host array, as they are (refused for device arrays while installed)
_HOST_CONVERSIONS = {name: getattr(numpy, name)
                     for name in ("asarray", "array", "asanyarray", "ascontiguousarray", "asfortranarray")}
_host_array = _HOST_CONVERSIONS["asarray"]


class HostArrayError(TypeError):
    """A host (numpy) array was mixed into an operation on fake-device arrays."""


class FakeCudaArray(numpy.ndarray):
    """An array "on the GPU": a numpy array of a type of its own."""

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        _check_no_host(inputs, f"{ufunc.__name__}.{method}")
        if method in _UFUNC_METHODS and ufunc.__name__ not in _UFUNC_METHODS[method]:
            raise NotImplementedError(f"fake cuda: `{ufunc.__name__}.{method}` is not supported (CuPy's "
                                      f"`cupy_{ufunc.__name__}.{method}` is not)")
        if method == "reduce":
            _check_reduction_keywords(f"{ufunc.__name__}.reduce", kwargs)
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
        if func.__name__ in _REDUCTIONS:
            _check_reduction_keywords(func.__name__, kwargs)
        if func.__name__ == "where":  # numpy.where of device arrays is CuPy's where
            _check_where_condition(*args)
        result = func(*_plain_tree(args), **{k: _plain_tree(v) for k, v in kwargs.items()})
        return _wrap(result)


def _check_reduction_keywords(what, kwargs):
    """CuPy's reductions have no `initial` and no `where` mask (numpy passes where=True itself)."""
    for word in ("initial", "where"):
        if word in kwargs and not (word == "where" and kwargs[word] is True):
            raise TypeError(f"fake cuda: {what}() got an unexpected keyword argument '{word}' (CuPy's has none)")


def _check_where_condition(condition, x=None, y=None):
    """cupy.where(condition, x, y) calls condition.astype: a Python bool (or number) has none."""
    if x is not None and y is not None and not hasattr(condition, "astype"):
        raise AttributeError(f"fake cuda: where's condition is a {type(condition).__name__}, not an array "
                             f"('{type(condition).__name__}' object has no attribute 'astype', says CuPy)")


def _reduction_method(name):
    """A reduction method of CuPy's: numpy's runs it as a ufunc.reduce (refused above but for add
    and multiply), CuPy's as a method of its own, without `initial` or a `where` mask."""
    def method(self, *args, **kwargs):
        _check_reduction_keywords(name, kwargs)
        out = kwargs.get("out")
        if out is not None:
            _check_no_host((out,), name)
            kwargs["out"] = _plain(out)
        result = getattr(numpy.ndarray, name)(_plain(self), *args, **kwargs)
        return out if out is not None else _wrap(result)

    method.__name__ = name
    return method


for _name in ("max", "min", "any", "all", "sum", "prod"):
    setattr(FakeCudaArray, _name, _reduction_method(_name))


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
    return _plain(a).copy() if isinstance(a, numpy.ndarray) else _host_array(a).copy()


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
        return _host_array(_plain(a), dtype=dtype).view(FakeCudaArray)

    def array(self, a, dtype=None, copy=True, order="K"):
        self.calls += 1  # (cupy.array takes order= too: 'C', 'F', 'A' or 'K')
        return _HOST_CONVERSIONS["array"](_plain(a), dtype=dtype, copy=True, order=order).view(FakeCudaArray)

    def where(self, condition, x=None, y=None):
        """cupy.where: the condition must be an array (CuPy calls its .astype: a Python bool has none)."""
        _check_where_condition(condition, x, y)
        args = (condition,) if x is None and y is None else (condition, x, y)
        return self.__getattr__("where")(*args)

    @property
    def linalg(self):
        return _FAKE_LINALG

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
            if name in _REDUCTIONS:
                _check_reduction_keywords(name, kwargs)
            return _wrap(obj(*_plain_tree(args), **{k: _plain_tree(v) for k, v in kwargs.items()}))

        device_function.__name__ = name
        return device_function


def _sign_pattern(n, dtype):
    """+1, -1, +1, ... : the signs the stand-in's solver gives numpy's vectors."""
    return numpy.where(numpy.arange(n) % 2 == 0, 1, -1).astype(dtype).view(FakeCudaArray)


class _FakeLinalg:
    """xp.linalg: numpy.linalg on device arrays, except that svd and eigh give every other singular
    or eigen vector with the opposite sign to numpy's. Both are decompositions of the input; which
    signs a solver picks is its own (cuSOLVER's and LAPACK's differ), so nothing may depend on them."""

    def __getattr__(self, name):
        return getattr(numpy.linalg, name)

    @staticmethod
    def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
        result = numpy.linalg.svd(a, full_matrices=full_matrices, compute_uv=compute_uv, hermitian=hermitian)
        if not compute_uv:
            return result
        u, s, vh = result
        return u * _sign_pattern(u.shape[-1], u.dtype), s, vh * _sign_pattern(vh.shape[-2], vh.dtype)[:, None]

    @staticmethod
    def eigh(a, UPLO="L"):
        w, v = numpy.linalg.eigh(a, UPLO=UPLO)
        return w, v * _sign_pattern(v.shape[-1], v.dtype)


_FAKE_LINALG = _FakeLinalg()


def _refusing(name, convert):
    def conversion(a, *args, **kwargs):
        if type(a) is FakeCudaArray or (isinstance(a, (list, tuple))
                                        and any(type(v) is FakeCudaArray for v in a)):
            raise TypeError(f"fake cuda: numpy.{name} of a device array (CuPy: Implicit conversion to a NumPy array "
                            f"is not allowed. Please use `.get()` to construct a NumPy array explicitly.)")
        return convert(a, *args, **kwargs)

    conversion.__name__ = name
    return conversion


def loader():
    return ad_backend.Backend("fakecupy", FakeCupy(), to_host, from_host)


def install():
    """Put the fake backend behind 'cuda', and numpy's host conversions refusing its arrays;
    returns the loader it replaced."""
    for name, convert in _HOST_CONVERSIONS.items():
        setattr(numpy, name, _refusing(name, convert))
    return ad_backend.register_backend("cuda", loader)


def uninstall(previous):
    ad_backend.register_backend("cuda", previous)
    for name, convert in _HOST_CONVERSIONS.items():
        setattr(numpy, name, convert)
