"""Element types, named as PyTorch names them, and the default dtype.

The engine's default floating dtype is float64 (PyTorch's is float32): a
calculator should be exact first. `set_default_dtype` changes it.
"""
import numpy

__all__ = ["DType", "float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "bool_",
           "get_default_dtype", "set_default_dtype", "as_dtype", "dtype_of"]


class DType:
    """One element type; `repr` is PyTorch's (`torch.float64`)."""

    __slots__ = ("name", "np", "is_floating_point", "is_signed", "tensor_type")

    def __init__(self, name, np_dtype, is_floating_point, tensor_type):
        self.name = name
        self.np = numpy.dtype(np_dtype)
        self.is_floating_point = is_floating_point
        self.is_signed = name != "uint8" and name != "bool"
        self.tensor_type = tensor_type

    @property
    def itemsize(self):
        return self.np.itemsize

    def __repr__(self):
        return f"torch.{self.name}"

    __str__ = __repr__


float16 = DType("float16", numpy.float16, True, "HalfTensor")
float32 = DType("float32", numpy.float32, True, "FloatTensor")
float64 = DType("float64", numpy.float64, True, "DoubleTensor")
int8 = DType("int8", numpy.int8, False, "CharTensor")
int16 = DType("int16", numpy.int16, False, "ShortTensor")
int32 = DType("int32", numpy.int32, False, "IntTensor")
int64 = DType("int64", numpy.int64, False, "LongTensor")
uint8 = DType("uint8", numpy.uint8, False, "ByteTensor")
bool_ = DType("bool", numpy.bool_, False, "BoolTensor")

ALL = (float16, float32, float64, int8, int16, int32, int64, uint8, bool_)
_by_numpy = {d.np: d for d in ALL}
# Names a user may write; PyTorch's aliases included (`float` is float32 there too).
BY_NAME = {d.name: d for d in ALL}
BY_NAME.update({"half": float16, "float": float32, "double": float64, "short": int16,
                "int": int32, "long": int64})

_default = [float64]

# How PyTorch's C++ messages name dtypes: the C++ type, and the ScalarType.
_CPP_NAMES = {"float16": "c10::Half", "float32": "float", "float64": "double", "int8": "signed char",
              "int16": "short int", "int32": "int", "int64": "long int", "uint8": "unsigned char", "bool": "bool"}


def cpp_name(d):
    return _CPP_NAMES[d.name]


def scalar_name(d):
    """Float, Double, Long, ...: PyTorch's ScalarType names (its tensor type without "Tensor")."""
    return d.tensor_type[:-len("Tensor")]


def get_default_dtype():
    return _default[0]


def set_default_dtype(d):
    d = as_dtype(d)
    if not d.is_floating_point:
        raise TypeError(f"only floating-point types are supported as the default type, not {d!r}")
    _default[0] = d


def as_dtype(spec):
    """A DType from a DType, a name ('float32', 'torch.float32', 'double') or a numpy dtype."""
    if isinstance(spec, DType):
        return spec
    if isinstance(spec, str):
        name = spec[6:] if spec.startswith("torch.") else spec
        d = BY_NAME.get(name)
        if d is None:
            raise TypeError(f"unknown dtype {spec!r}; known: {', '.join(sorted(BY_NAME))}")
        return d
    if spec is float:
        return get_default_dtype()
    if spec is int:
        return int64
    if spec is bool:
        return bool_
    try:
        return _by_numpy[numpy.dtype(spec)]
    except (TypeError, KeyError):
        raise TypeError(f"unsupported dtype {spec!r}") from None


def dtype_of(array):
    """The DType of a backend array; numpy types we do not model map to the nearest one."""
    d = _by_numpy.get(array.dtype)
    if d is None:
        raise TypeError(f"unsupported array dtype {array.dtype}")
    return d


def _category(d):
    return 2 if d.is_floating_point else (0 if d is bool_ else 1)


def promote(da, a_dim, db, b_dim):
    """PyTorch's result type for two tensors: a 0-d tensor does not widen a
    higher-dimensional one of the same category (float32 * float64-scalar stays float32)."""
    if da is db:
        return da
    ca, cb = _category(da), _category(db)
    if ca == cb and (a_dim == 0) != (b_dim == 0):
        return db if a_dim == 0 else da
    if ca != cb:
        hi, lo = (da, db) if ca > cb else (db, da)
        # the higher category wins; a 0-d or dimensioned tensor alike
        return hi
    return _by_numpy[numpy.promote_types(da.np, db.np)]


class MemoryFormat:
    """torch.contiguous_format, preserve_format, channels_last, channels_last_3d: accepted where
    PyTorch takes a memory_format. Values never depend on it; this engine keeps every tensor it
    makes row-major (a copy's strides are numpy's). A channels-last format asks for what PyTorch's
    aliasing shows: `to` makes a copy, `contiguous` one unless the row-major layout is channels-last
    too (a size-1 channel or image). Unlike PyTorch's, the copy is row-major again, so a second
    `to(memory_format=channels_last)` copies where PyTorch's returns the tensor itself."""
    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"torch.{self.name}"


contiguous_format, preserve_format, channels_last, channels_last_3d = (
    MemoryFormat(n) for n in ("contiguous_format", "preserve_format", "channels_last", "channels_last_3d"))


_CHANNELS_LAST_RANK = {"channels_last": 4, "channels_last_3d": 5}


def channels_last_rank(value, ndim):
    """The rank a channels-last format needs, checked against `ndim` as PyTorch checks it; None for
    the other formats."""
    rank = _CHANNELS_LAST_RANK.get(getattr(value, "name", None))
    if rank is not None and ndim != rank:
        raise RuntimeError(f"required rank {rank} tensor to use {value.name} format")
    return rank


def is_channels_last_strided(shape, strides):
    """Whether strides lay shape out channels-last (NHWC, NDHWC), size-1 dims placed anywhere."""
    expected = 1
    for d in (1,) + tuple(range(len(shape) - 1, 1, -1)) + (0,):
        if shape[d] != 1:
            if strides[d] != expected:
                return False
            expected *= shape[d]
    return True


def check_memory_format(value, fname, ndim=None):
    """A memory_format argument as PyTorch's parser takes it: a MemoryFormat or None; given the
    tensor's `ndim`, a channels-last format's rank is checked too, and returned (else None)."""
    if value is not None and not isinstance(value, MemoryFormat):
        raise TypeError(f"{fname}(): argument 'memory_format' must be torch.memory_format, not {type(value).__name__}")
    return None if ndim is None else channels_last_rank(value, ndim)