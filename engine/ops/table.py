"""What the rows of the op table share: how formulas print them, the row families' base classes
(Elementwise, MaskedGradient), and the helpers several families use. The table itself and the
`Op` base class are the core's (engine/core/op.py); the specification of a row is the docstring
of the `ops` package."""
import numpy

from .. import dtypes as _dt, kernels
from ..backend import backend_for
from ..core.op import TABLE, Op, is_basic_key  # noqa: F401  (the table, the rows' base, for every family)
from ..core.tensor import TensorBase, make_tensor, wrap_dim
from ..host_data import host_array_of


# ------------------------------------------------------- how formulas print ops

def infix(symbol, left=None, right=None):
    """`a symbol b`; `left`/`right` name a parameter that stands in for a missing operand."""
    return ("infix", symbol, left, right)


def prefix(symbol):
    return ("prefix", symbol)


def call(*keywords):
    """`name(args, k=v, ...)` with the named parameters (those not None) as keywords."""
    return ("call", keywords)


PARAMS_ELIDED = ("call", None)  # `name(args, k=..., ...)`: what a row that declares nothing prints


def custom(kind):
    return ("custom", kind)


SAME = ("same",)


class Elementwise(Op):
    """A unary elementwise op with PyTorch's name: function, method and in-place variant from the row."""
    elementwise = True
    formula = call()
    method = True
    inplace = True

    def __init_subclass__(cls, **kw):
        if cls.name is not None and "names" not in cls.__dict__:
            cls.names = (cls.name,)
        if cls.names and "signature" not in cls.__dict__:
            cls.signature = f"{cls.names[0]}(Tensor input) -> Tensor"  # the family's, unless the row gives one
        super().__init_subclass__(**kw)


class MaskedGradient(Op):
    """The gradient of a piecewise-linear activation, g(gradient, x), as a row of its own (PyTorch's
    threshold_backward, leaky_relu_backward): under create_graph it depends on x too, with a zero
    derivative, so a gradient of relu requires grad and can be differentiated again -- to zeros,
    as in PyTorch. A subclass gives name, node and forward; its parameters pass through."""
    elementwise = True
    saves = (1,)
    formula = custom("masked_gradient")

    def backward(F, ctx, gg, x, **params):
        return (getattr(F, ctx.op.name)(gg, x, **params) if ctx.needs[0] else None,
                F.zeros_like(gg) if ctx.needs[1] else None)


def _normalize_dims(dim, ndim):
    """A tuple of non-negative axes from an int, a sequence or None (all)."""
    if dim is None:
        return tuple(range(ndim))
    if isinstance(dim, int):
        dim = (dim,)
    return tuple(sorted(d % ndim if ndim else 0 for d in dim))


def keepdim_shape(shape, dim):
    """`shape` with the reduced axes kept as 1."""
    axes = _normalize_dims(dim, len(shape))
    return tuple(1 if i in axes else s for i, s in enumerate(shape))


def unreduce(F, ctx, g, dim, keepdim):
    """A reduction's gradient reshaped so it broadcasts against the input."""
    if dim is not None and not keepdim:
        g = F.reshape(g, shape=keepdim_shape(ctx.shapes[0], dim))
    return g


def unreduce_batched(F, ctx, g, dim, keepdim):
    """unreduce for a batched `g`, (B,) + the reduced shape: (B,) + the keepdim shape."""
    shape = ctx.shapes[0]
    if keepdim:
        return g
    kept = keepdim_shape(shape, dim) if dim is not None else (1,) * len(shape)
    if tuple(g.shape[1:]) == kept:
        return g
    return F.reshape(g, shape=(g.shape[0],) + kept)


def batch_dim(dim, ndim):
    """Axis `dim` of an ndim-d array as an axis of the same array with a leading batch dim
    (negative axes stay as they are); None where ndim is 0 (a 0-d input has no axis to move)."""
    if ndim == 0:
        return None
    return dim if dim < 0 else dim + 1


def batch_key(key):
    """An indexing key for an array with a leading batch dim that selects, for every batch
    element, what `key` selects: `key` after a full slice. None where numpy would then move the
    batch dim (advanced indices, ints among them, not next to each other)."""
    if not is_basic_key(key):
        advanced = [i for i, k in enumerate(key)
                    if not (k is None or k is Ellipsis or isinstance(k, slice))]
        if advanced[-1] - advanced[0] + 1 != len(advanced):
            return None
    return (_ALL,) + tuple(key)


_ALL = slice(None)


def reduced_count(shape, dim):
    n = 1
    for a in _normalize_dims(dim, len(shape)):
        n *= shape[a]
    return n


# ------------------------------------------------ arguments a row's call checks itself, in PyTorch's words

def tensor_argument(value, fn, name, position):
    """`value`, refused in PyTorch's words unless it is a tensor."""
    if not isinstance(value, TensorBase):
        raise TypeError(f"{fn}(): argument '{name}' (position {position}) must be Tensor, not {type(value).__name__}")
    return value


def int_argument(value, fn, name, position):
    """`value` as an int (a 0-d integer tensor too), refused in PyTorch's words otherwise."""
    if isinstance(value, TensorBase) and value.array.ndim == 0 and value.array.dtype.kind in "iu":
        return int(value.item())
    if isinstance(value, (bool, numpy.bool_)) or not isinstance(value, (int, numpy.integer)):
        raise TypeError(f"{fn}(): argument '{name}' (position {position}) must be int, not {type(value).__name__}")
    return int(value)


def reduction_dims(dim, ndim):
    """Validated reduction axes: None, or a tuple of non-negative axes (an int: one axis). A 0-d
    tensor has one dim to PyTorch (0, or -1): reducing over it is () -- no axis of the array."""
    if dim is None:
        return None
    if isinstance(dim, (list, tuple)):
        if len(dim) == 0:
            return None
        axes = tuple(wrap_dim(d, ndim) for d in dim)
        if ndim == 0:
            return ()
        for i, a in enumerate(axes):
            if a in axes[:i]:  # PyTorch names the first dim seen twice
                raise RuntimeError(f"dim {a} appears multiple times in the list of dims")
        return axes
    axis = wrap_dim(dim, ndim)
    return () if ndim == 0 else axis


def scatter_add(xp, target, key, values):
    """target[key] += values with repeated positions each adding in (the array module's add.at,
    through kernels.reduce_at, the one place that knows which module has which)."""
    kernels.reduce_at(xp, "add", target, key, values)


def require_floating(input, fname):
    """The refusal, for a reduction that cannot infer an integral result's dtype (mean), of an input
    that is not floating point."""
    if input.array.dtype.kind != "f":
        raise RuntimeError(f"{fname}(): could not infer output dtype. Input dtype must be either a floating point "
                           f"or complex dtype. Got: {input.dtype.name}")


def tensor_of(value, device):
    """A number or Python data (nested lists) as a new tensor on `device`, of the dtype torch.tensor
    gives it (floats: the default dtype; whole numbers: int64; bools: bool) -- for a row's call that
    takes a tensor where one may be given as data (clamp's bounds, lerp's end)."""
    host = host_array_of(value)
    if host.dtype.kind == "f" and not isinstance(value, numpy.ndarray):
        host = host.astype(_dt.get_default_dtype().np)
    elif host.dtype.kind in "iu" and host.dtype != numpy.uint8 and not isinstance(value, numpy.ndarray):
        host = host.astype(numpy.int64)
    return make_tensor(backend_for(device).from_host(numpy.array(host, copy=True)), device)


# ------------------------------------------------ what the rows' calls check, in PyTorch's words

def result_dtype(*operands):
    """The numpy dtype of an op's result on tensors and numbers (a number weakly typed)."""
    return numpy.result_type(*(getattr(x, "array", x) for x in operands))


def type_name(dtype):
    """PyTorch's ScalarType name (Long, Bool...) of a numpy dtype, as its kernels' messages say it."""
    return _dt.scalar_name(_dt.as_dtype(numpy.dtype(dtype)))


def refuse_dtype(kernel, dtype):
    """PyTorch's refusal by a kernel that has no version for `dtype` (its CPU kernel's name)."""
    raise NotImplementedError(f"\"{kernel}\" not implemented for '{type_name(dtype)}'")


def dims_text(t):
    """A tensor's shape as PyTorch's matrix messages write it: 2x3."""
    return "x".join(str(s) for s in t.array.shape)
