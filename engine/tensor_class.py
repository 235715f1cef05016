"""torch.Tensor: the tensor class users see -- the core's TensorBase (engine/core) with the
methods of the op table's rows (made from each row by engine/functions.py), Python's operators,
and the methods with a shape of their own; and the legacy constructors torch.Tensor(...),
torch.FloatTensor(...), torch.autograd.Variable.

Every method is defined here, when the class is made; none is attached to it afterwards.
"""
import numpy as _np

from . import dtypes as _dt
from . import functions as _fn
from .functions import inplace_views as _views, basic as _basic, shapes as _shapes, creation as _creation
from .backend import backend_for as _load_backend
from .generator import uniform_draws as _uniform_draws, numpy_draws as _numpy_draws
from .core import elision as _elision
from .core.autograd import backward as _backward
from .core.inplace import inplace as _inplace
from .core.tensor import TensorBase, Size, apply, run_op, NO_PARAMS
from .ops import TABLE
from .ops.tensorops import unfold_view as _unfold_view
from .ops.arithmetic import not_a_tensor as _not_a_tensor
from .printing import tensor_repr

__all__ = ["Tensor", "Size", "Variable", "FloatTensor", "DoubleTensor", "HalfTensor", "LongTensor", "IntTensor",
           "ShortTensor", "CharTensor", "ByteTensor", "BoolTensor", "LEGACY_TYPES"]

_ADD, _SUB, _MUL, _DIV, _NEG = TABLE["add"], TABLE["sub"], TABLE["mul"], TABLE["div"], TABLE["neg"]
_POW_NUMBER = TABLE["pow_scalar"]
# PyTorch's ScalarType names, as its kernels' "not implemented for 'Long'" messages say them
_SCALAR_TYPE_NAMES = {"int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte",
                      "bool": "Bool"}


class _TensorType(type):
    """Tensor's metaclass (PyTorch's is torch._C._TensorMeta). Calling the class is the legacy
    constructor torch.Tensor(...) (see `_legacy_new`); the core makes its tensors with type's own
    call, which runs no Python __new__ or __init__ and costs a quarter less than
    object.__new__(Tensor) -- every op makes one."""

    def __call__(cls, *args, device=None):
        return _legacy_new(None, "new", args, device)


class Tensor(TensorBase, metaclass=_TensorType):
    """An n-dimensional array that can record how it was computed."""

    __slots__ = ()
    __hash__ = TensorBase.__hash__  # (a class that defines __eq__ loses its inherited hash otherwise)
    vars().update(_fn.tensor_methods())  # the methods of the op table's rows (x.exp(), x.sum(dim), x.add_(y))

    def contiguous(self, memory_format=_dt.contiguous_format):
        """self when already laid out as asked, else a copy (CloneBackward0, as PyTorch's)."""
        if _dt.check_memory_format(memory_format, "contiguous", self.dim()):
            return self if _dt.is_channels_last_strided(self.shape, self.stride()) else self.clone()
        return self if self.is_contiguous() else self.clone()

    # comparisons written by hand (no row: no graph), as methods too
    equal = _basic.equal
    allclose = _basic.allclose
    isclose = _basic.isclose

    @property
    def T(self):
        n = self.array.ndim
        if n < 2:
            return self
        return _fn.permute(self, tuple(range(n - 1, -1, -1)))

    @property
    def mT(self):
        return _fn.transpose(self, -2, -1)

    @property
    def H(self):
        """The conjugate transpose of a matrix: .T for real tensors (itself for a number), as transpose(0, 1)."""
        n = self.array.ndim
        if n == 0:
            return self
        if n != 2:
            batches = " For batches of matrices, consider using tensor.mH" if n > 2 else ""
            raise RuntimeError(f"tensor.H is only supported on matrices (2-D tensors). Got {n}-D tensor.{batches}")
        return _fn.transpose(self, 0, 1)

    @property
    def mH(self):
        """The conjugate transpose of each matrix in the last two dims: .mT for real tensors."""
        if self.array.ndim < 2:
            raise RuntimeError(f"tensor.mH is only supported on matrices or batches of matrices. Got "
                               f"{self.array.ndim}-D tensor.")
        return _fn.transpose(self, -2, -1)

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        _backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    def to(self, *args, **kwargs):
        return _fn.to(self, *args, **kwargs)

    def cpu(self, memory_format=None):
        _dt.check_memory_format(memory_format, "cpu")
        return _fn.to(self, "cpu", memory_format=memory_format)

    def cuda(self, device=None, non_blocking=False, memory_format=None):
        _dt.check_memory_format(memory_format, "cuda")
        return _fn.to(self, "cuda" if device is None else f"cuda:{device}", memory_format=memory_format)

    def type(self, dtype=None):
        if dtype is None:
            return f"torch.{self.dtype.tensor_type}"
        return _fn.to(self, dtype=dtype)

    def polygamma(self, n):
        """polygamma(n, self): the n-th derivative of digamma (the method takes the tensor first)."""
        return _fn.polygamma(n, self)

    def polygamma_(self, n):
        """polygamma(n, self) written into self."""
        return _inplace(self, lambda x: _fn.polygamma(n, x))

    def type_as(self, other):
        """This tensor in other's dtype (itself when it has it already), as PyTorch's type_as."""
        return self.to(_other_tensor(other, "type_as").dtype)

    # x.float(), x.double(), x.half(), x.long(), x.int(), x.bool(), x.byte() (uint8), x.char() (int8),
    # x.short() (int16): `to` that dtype, with PyTorch's check of memory_format (_cast, after the class)

    def __repr__(self):
        if self.__dict__.get("_is_parameter"):  # nn.Parameter, as PyTorch prints one
            return "Parameter containing:\n" + tensor_repr(self)
        return tensor_repr(self)

    __str__ = __repr__

    def __iter__(self):
        if self.array.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return (self[i] for i in range(self.array.shape[0]))

    def __add__(self, other):
        if other.__class__ in _FAST:
            return run_op(_ADD, (self, other), NO_PARAMS)
        return _fn.add(self, other)

    def __radd__(self, other):
        if other.__class__ in _FAST:
            return run_op(_ADD, (other, self), NO_PARAMS)
        return _fn.add(other, self)

    def __sub__(self, other):
        if other.__class__ in _FAST:
            return run_op(_SUB, (self, other), NO_PARAMS)
        return _fn.sub(self, other)

    def __rsub__(self, other):
        if other.__class__ in _FAST:
            return run_op(_SUB, (other, self), NO_PARAMS)
        return _fn.sub(other, self)

    def __mul__(self, other):
        if other.__class__ in _FAST:
            return run_op(_MUL, (self, other), NO_PARAMS)
        return _fn.mul(self, other)

    def __rmul__(self, other):
        if other.__class__ in _FAST:
            return run_op(_MUL, (other, self), NO_PARAMS)
        return _fn.mul(other, self)

    def __truediv__(self, other):
        if other.__class__ in _FAST:
            return run_op(_DIV, (self, other), NO_PARAMS)
        return _fn.div(self, other)

    def __rtruediv__(self, other):
        return _fn.div(other, self)

    def __floordiv__(self, other):
        return _fn.floor_divide(self, other)

    def __rfloordiv__(self, other):
        return _fn.floor_divide(other, self)

    def __mod__(self, other):
        return _fn.remainder(self, other)

    def __rmod__(self, other):
        return _fn.remainder(other, self)

    def __pow__(self, other):
        if (other.__class__ is int or other.__class__ is float) and self.array.dtype.kind == "f":
            return run_op(_POW_NUMBER, (self,), {"exponent": other})  # (x ** 2: what pow() would pick)
        return _fn.pow(self, other)

    def __rpow__(self, other):
        return _fn.pow(other, self)

    def __matmul__(self, other):
        return _fn.matmul(self, other)

    def __rmatmul__(self, other):
        return _fn.matmul(other, self)

    def __neg__(self):
        return run_op(_NEG, (self,), NO_PARAMS)

    def __pos__(self):
        return self

    def __abs__(self):
        return _fn.abs(self)

    def __lt__(self, other):
        return _fn.lt(self, other)

    def __le__(self, other):
        return _fn.le(self, other)

    def __gt__(self, other):
        return _fn.gt(self, other)

    def __ge__(self, other):
        return _fn.ge(self, other)

    # PyTorch's == and != turn a TypeError of their operand into NotImplemented, so that Python compares
    # by identity: x == None and x == "a" are False, x != None is True (not an error, not a tensor)
    def __eq__(self, other):
        if other is None:
            return NotImplemented
        try:
            return _fn.eq(self, other)
        except TypeError:
            return NotImplemented

    def __ne__(self, other):
        if other is None:
            return NotImplemented
        try:
            return _fn.ne(self, other)
        except TypeError:
            return NotImplemented

    def __and__(self, other):
        return _fn.bitwise_and(self, other)

    __rand__ = __and__

    def __iand__(self, other):
        return _fn.bitwise_and_(self, other)

    def __or__(self, other):
        return _fn.bitwise_or(self, other)

    __ror__ = __or__

    def __ior__(self, other):
        return _fn.bitwise_or_(self, other)

    def __xor__(self, other):
        return _fn.bitwise_xor(self, other)

    __rxor__ = __xor__

    def __ixor__(self, other):
        return _fn.bitwise_xor_(self, other)

    def __invert__(self):
        if self.array.dtype.kind not in "biu":
            raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
        return _fn.bitwise_not(self)

    def __lshift__(self, other):
        return _fn.bitwise_left_shift(self, other)

    def __rlshift__(self, other):
        return _fn.bitwise_left_shift(other, self)

    def __ilshift__(self, other):
        return _fn.bitwise_left_shift_(self, other)

    def __rshift__(self, other):
        return _fn.bitwise_right_shift(self, other)

    def __rrshift__(self, other):
        return _fn.bitwise_right_shift(other, self)

    def __irshift__(self, other):
        return _fn.bitwise_right_shift_(self, other)

    def __getitem__(self, key):
        return _fn.getitem(self, key)

    def __setitem__(self, key, value):
        _fn.setitem(self, key, value)

    def __iadd__(self, other):
        return self.add_(other)

    def __isub__(self, other):
        return self.sub_(other)

    def __imul__(self, other):
        return self.mul_(other)

    def __itruediv__(self, other):
        return self.div_(other)

    def __ipow__(self, other):
        return self.pow_(other)

    def where(self, condition, other):
        return _fn.where(condition, self, other)

    def view_as(self, other):
        return _fn.view(self, _other_tensor(other, "view_as").shape)

    def reshape_as(self, other):
        return _fn.reshape(self, _other_tensor(other, "reshape_as").shape)

    def expand_as(self, other):
        return _fn.expand(self, _other_tensor(other, "expand_as").shape)

    def new(self, *args, device=None):
        """The legacy constructor of this tensor's kind: new(data) a tensor of the data, new(sizes)
        one of that shape (zeros, where PyTorch leaves memory as it finds it), new() an empty one,
        new(t) an alias of a tensor t of the same dtype -- in this tensor's dtype, on its device (or
        `device`); as torch.FloatTensor(...) and its kin (a lone number is refused: not a sequence)."""
        return _legacy_new(self.dtype, "new", args, device or self.device)

    def split_with_sizes(self, split_sizes, dim=0):
        return _fn.split_with_sizes(self, split_sizes, dim)

    # methods of functions/shapes.py's copies (PyTorch's other `_copy` functions have none)
    narrow_copy = _fn.narrow_copy
    unsafe_chunk = _fn.unsafe_chunk
    unsafe_split = _fn.unsafe_split
    unsafe_split_with_sizes = _fn.unsafe_split_with_sizes
    sum_to_size = _shapes.sum_to_size  # a method only (torch.sum_to_size is not PyTorch's)

    def unfold(self, dimension, size, step):
        """Every slice of `size` elements along `dimension`, `step` apart, as a new last dim (a view)."""
        return _unfold_view(self, dimension, size, step)

    def new_tensor(self, data, dtype=None, device=None, requires_grad=False):
        """A new leaf from `data`, with this tensor's dtype and device unless given."""
        return _fn.tensor(data, dtype=dtype or self.dtype, device=device or self.device, requires_grad=requires_grad)

    def new_zeros(self, *size, dtype=None, device=None, requires_grad=False):
        return _fn.zeros(*size, dtype=dtype or self.dtype, device=device or self.device, requires_grad=requires_grad)

    def new_ones(self, *size, dtype=None, device=None, requires_grad=False):
        return _fn.ones(*size, dtype=dtype or self.dtype, device=device or self.device, requires_grad=requires_grad)

    def new_empty(self, *size, dtype=None, device=None, requires_grad=False):
        return _fn.empty(*size, dtype=dtype or self.dtype, device=device or self.device, requires_grad=requires_grad)

    def new_full(self, size, fill_value, dtype=None, device=None, requires_grad=False):
        return _fn.full(size, fill_value, dtype=dtype or self.dtype, device=device or self.device,
                        requires_grad=requires_grad)

    def zero_(self):
        return _fn.zero_(self)

    def t_(self):
        return _views.t_(self)

    def transpose_(self, dim0, dim1):
        return _views.transpose_(self, dim0, dim1)

    def swapdims_(self, dim0, dim1):
        return _views.transpose_(self, dim0, dim1)

    def swapaxes_(self, axis0, axis1):
        return _views.transpose_(self, axis0, axis1)

    def squeeze_(self, dim=None):
        return _views.squeeze_(self, dim)

    def unsqueeze_(self, dim):
        return _views.unsqueeze_(self, dim)

    def fill_(self, value):
        return _fn.fill_(self, value)

    def copy_(self, src):
        return _fn.copy_(self, src)

    def uniform_(self, a=0.0, b=1.0):
        """Fill with draws uniform in [a, b): PyTorch's numbers for the same manual_seed."""
        if self.array.dtype.kind != "f":
            raise NotImplementedError(f'"check_uniform_bounds" not implemented for '
                                      f"'{_SCALAR_TYPE_NAMES.get(self.array.dtype.name, self.array.dtype.name)}'")
        if a > b:
            raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found from={a} > to={b}")
        draws = _load_backend(self.device).from_host(_uniform_draws(self.array.shape, a, b, self.array.dtype))
        return _basic.refill(self, draws, "UniformBackward0")

    def normal_(self, mean=0.0, std=1.0):
        """Fill with normal draws of the given mean and std (not PyTorch's numbers for a seed)."""
        if std < 0:
            raise RuntimeError(f"normal expects std >= 0.0, but found std {std}")
        draws = _fn.randn(*self.array.shape, dtype=self.dtype, device=self.device) * std + mean
        return _basic.refill(self, draws.array, "NormalBackward0")

    def multinomial(self, num_samples, replacement=False, *, generator=None):
        """torch.multinomial(self, ...): indices drawn with the probabilities in each row."""
        return _fn.multinomial(self, num_samples, replacement, generator=generator)

    def _drawn(self, draw, name):
        """Fill with `draw(generator, shape)` (host draws from the engine's generator), in place; the node
        `name` passes no gradient back (refill)."""
        draws = _creation.draws_on(self.device, draw(_numpy_draws(), self.array.shape), self.dtype)
        return _basic.refill(self, draws.array, name)

    def _continuous(self, what, dtype_name):
        """PyTorch's refusal to fill an integer tensor with draws of a continuous distribution."""
        if not self.dtype.is_floating_point:
            raise RuntimeError(f"{what} distribution is a continuous probability distribution. dtype must be a "
                               f"floating point but you specified {dtype_name(self.dtype)}")

    def exponential_(self, lambd=1.0, *, generator=None):
        """Fill with exponential draws of rate lambd (mean 1 / lambd)."""
        self._continuous("Exponential", _dt.scalar_name)
        if not lambd > 0:
            raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={lambd:g}")
        return self._drawn(lambda g, s: g.exponential(1.0 / lambd, s), "ExponentialBackward0")

    def cauchy_(self, median=0.0, sigma=1.0, *, generator=None):
        """Fill with Cauchy draws of the given median and scale sigma."""
        self._continuous("Cauchy", _dt.cpp_name)
        if not sigma > 0:
            raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={sigma:g}")
        return self._drawn(lambda g, s: median + sigma * g.standard_cauchy(s), "CauchyBackward0")

    def geometric_(self, p, *, generator=None):
        """Fill with geometric draws: the number of trials (1, 2, ...) up to the first success of probability p."""
        if not 0 < p < 1:
            raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={p:g}")
        if self.dtype == _dt.bool_:
            raise NotImplementedError("\"geometric_cpu\" not implemented for 'Bool'")
        return self._drawn(lambda g, s: g.geometric(p, s), "GeometricBackward0")

    def log_normal_(self, mean=1.0, std=2.0, *, generator=None):
        """Fill with draws whose log is normal of the given mean and std."""
        if not self.dtype.is_floating_point:
            raise NotImplementedError(f"\"log_normal_cpu\" not implemented for '{_dt.scalar_name(self.dtype)}'")
        if not std > 0:
            raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={std:g}")
        return self._drawn(lambda g, s: g.lognormal(mean, std, s), "LogNormalBackward0")

    def random_(self, *args, generator=None, **bounds):
        """Fill with whole numbers uniform in [from, to).

        random_(to), random_(from, to) (to None: up to the dtype's top, 2**mantissa for a float, included)
        or random_() (from 0 to that top), as PyTorch's."""
        given = dict(zip(("from", "to") if len(args) == 2 or "to" in bounds else ("to",), args), **bounds)
        if len(args) > 2 or set(given) - {"from", "to"} or given.keys() == {"from"} or any(
                isinstance(v, bool) or not isinstance(v, (int, _np.integer, type(None), TensorBase))
                for v in given.values()):
            got = ", ".join([type(a).__name__ for a in args] + [f"{k}={type(v).__name__}" for k, v in bounds.items()])
            raise TypeError(f"random_() received an invalid combination of arguments - got ({got}), but expected "
                            f"one of: (*, Generator generator), (int from, int to, *, Generator generator), "
                            f"(int to, *, Generator generator)")
        low, high = (None if v is None else int(v.item() if isinstance(v, TensorBase) else v)
                     for v in (given.get("from", 0), given.get("to")))
        name = "RandomBackward0" if "from" in given else "RandomBackward1" if "to" in given else "RandomBackward2"
        low, high = _creation.random_range(low, high, self.dtype)
        return self._drawn(lambda g, s: g.integers(low, high, s), name)


_FAST = frozenset((Tensor, float, int))
_elision.OPERATORS.update(f.__code__ for f in (Tensor.__add__, Tensor.__radd__, Tensor.__sub__, Tensor.__rsub__,
                                                Tensor.__mul__, Tensor.__rmul__, Tensor.__truediv__))


# ------------------------------------------------------------------ legacy constructors

def _other_tensor(other, fname):
    """The tensor argument of x.view_as(other) and its kin, refused in PyTorch's words otherwise."""
    if not isinstance(other, TensorBase):
        raise _not_a_tensor(other, fname, "other", 1)
    return other


def _legacy_new(dtype, fname, args, device):
    """torch.Tensor / torch.FloatTensor / ... called as constructors: no arguments -> an empty
    tensor; whole numbers (or a torch.Size) -> a tensor of that shape, zero-filled (PyTorch
    leaves it uninitialized); a tensor -> an alias of it (its dtype must be the class's, except
    for torch.Tensor); a sequence -> a tensor of the class's dtype from the data. torch.Tensor's
    dtype (`dtype` None) is the default dtype, as PyTorch's torch.Tensor is the default type."""
    legacy = dtype is not None
    if dtype is None:
        dtype = _dt.get_default_dtype()
    if not args:
        return _fn.zeros(0, dtype=dtype, device=device)
    first = args[0]
    if len(args) == 1 and isinstance(first, Tensor):
        if legacy and first.dtype is not dtype:
            raise TypeError(f"expected {_tensor_options(dtype, first.device)} (got "
                            f"{_tensor_options(first.dtype, first.device)})")
        return apply(TABLE["alias"], first)
    if isinstance(first, Size) or all(isinstance(a, int) and not isinstance(a, bool) for a in args):
        shape = tuple(first) if isinstance(first, Size) and len(args) == 1 else args
        if not all(isinstance(a, int) for a in shape):
            raise TypeError(f"{fname}(): expected whole numbers as sizes")
        for n in shape:
            if n < 0:
                raise RuntimeError(f"Trying to create tensor with negative dimension {n}: {list(shape)}")
        return _fn.zeros(*shape, dtype=dtype, device=device)
    if len(args) > 1:
        raise TypeError(f"{fname}() received an invalid combination of arguments: give the data as one sequence, "
                        f"or the sizes as whole numbers")
    if isinstance(first, str):
        raise TypeError(f"{fname}(): invalid data type 'str'")
    if first is None or isinstance(first, (bool, int, float, _np.number, _np.bool_)):
        raise TypeError(f"{fname}(): data must be a sequence (got {type(first).__name__})")
    return _fn.tensor(first, dtype=dtype, device=device)


def _tensor_options(dtype, device):
    """How PyTorch's C++ prints a tensor's options, in its legacy constructors' dtype error."""
    return (f"TensorOptions(dtype={_dt.cpp_name(dtype)}, device={device}, layout=Strided, requires_grad=false "
            f"(default), pinned_memory=false (default), memory_format=(nullopt))")


class _LegacyType(type):
    """The metaclass of torch.FloatTensor and its kin: isinstance(t, FloatTensor) asks t's dtype."""

    def __instancecheck__(cls, obj):
        return isinstance(obj, Tensor) and obj.dtype is cls.dtype and obj.device.type == "cpu"

    def __repr__(cls):
        return f"<class 'torch.{cls.__name__}'>"


def _legacy_class(dtype):
    def __new__(cls, *args, device=None):
        return _legacy_new(dtype, "new", args, device)
    return _LegacyType(dtype.tensor_type, (), {"__new__": __new__, "dtype": dtype, "__slots__": (),
                                               "__doc__": f"torch.{dtype.tensor_type}(data or sizes): a "
                                                          f"{dtype.name} tensor (legacy constructor)."})


FloatTensor, DoubleTensor, HalfTensor = (_legacy_class(d) for d in (_dt.float32, _dt.float64, _dt.float16))
LongTensor, IntTensor, ShortTensor, CharTensor, ByteTensor, BoolTensor = (
    _legacy_class(d) for d in (_dt.int64, _dt.int32, _dt.int16, _dt.int8, _dt.uint8, _dt.bool_))
LEGACY_TYPES = (FloatTensor, DoubleTensor, HalfTensor, LongTensor, IntTensor, ShortTensor, CharTensor,
                ByteTensor, BoolTensor)


def Variable(data, requires_grad=False, volatile=False):
    """torch.autograd.Variable(t, requires_grad=False): since PyTorch 0.4 a plain tensor -- a new
    leaf sharing t's values (t.detach()), requiring grad if asked."""
    if not isinstance(data, Tensor):
        raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
    out = data.detach()
    if requires_grad:
        if data.array.dtype.kind != "f":
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        out.requires_grad_(True)
    return out


def _cast(name, dtype):
    """Tensor.<name>(memory_format=...): this tensor in `dtype` (itself when it has it already)."""
    def method(self, memory_format=_dt.preserve_format):
        _dt.check_memory_format(memory_format, name)
        return _fn.to(self, dtype=dtype, memory_format=memory_format)
    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"This tensor converted to {dtype.name}."
    return method


for _name, _dtype in (("float", _dt.float32), ("double", _dt.float64), ("half", _dt.float16), ("long", _dt.int64),
                      ("int", _dt.int32), ("bool", _dt.bool_), ("byte", _dt.uint8), ("char", _dt.int8),
                      ("short", _dt.int16)):
    setattr(Tensor, _name, _cast(_name, _dtype))
