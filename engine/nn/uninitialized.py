"""torch.nn.UninitializedParameter and UninitializedBuffer: the placeholders a Lazy module holds until
its first call tells it their shapes (nn/modules_lazy.py).

A placeholder is a tensor of the engine's class whose array is a `_Pending` (it knows its dtype and
nothing else) and whose class is one of the two below; `materialize(shape)` gives it a real array
and turns it, in place (the same object, so an optimizer made before the first call keeps it), into
an ordinary tensor -- a Parameter for UninitializedParameter, as PyTorch's `cls_to_become`.

What may be asked of a placeholder is PyTorch's list: dtype, device, requires_grad, grad, size()
(torch.Size([0])), is_floating_point/is_complex, the conversions (to, float, double, half, cpu,
cuda: another placeholder), copy_ no. `shape` raises PyTorch's RuntimeError; any other method or
operator raises its ValueError naming the method as PyTorch does; a placeholder handed to a
function (torch.add(w, 1), F.linear(x, w)) raises the same ValueError from inside the engine,
where the message names no function (PyTorch's names it: a known difference).
"""
import inspect

from .. import dtypes as _dt
from .. import functions as _fn
from ..core.tensor import Size, make_tensor
from ..tensor_class import Tensor, _TensorType

__all__ = ["UninitializedParameter", "UninitializedBuffer", "is_lazy"]

_HINT = (". This error happens when you are using a `LazyModule` or explicitly manipulating "
         "`torch.nn.parameter.{}` objects. When using LazyModules Call `forward` with a dummy "
         "batch to initialize the parameters before calling torch functions")
_SHAPE = ("Can't access the shape of an uninitialized parameter or buffer. This error usually happens in "
          "`load_state_dict` when trying to load an uninitialized parameter into an initialized one. Call `forward` "
          "to initialize the parameters before accessing their attributes.")


def _use_error(where, kind="UninitializedParameter"):
    return ValueError(f"Attempted to use an uninitialized parameter in {where}" + _HINT.format(kind))


def _method(name):
    return f"<method '{name}' of 'torch._C.TensorBase' objects>"


class _Pending:
    """The array of a placeholder: its dtype, and an error for anything else the engine asks."""
    __slots__ = ("dtype",)

    def __init__(self, dtype):
        self.dtype = dtype

    def __getattr__(self, name):
        raise _use_error("a torch function")

    def __array__(self, *args, **kwargs):
        raise _use_error("a torch function")


def is_lazy(value):
    """torch.nn.parameter.is_lazy: whether `value` is a placeholder not yet materialized."""
    return isinstance(value, _Uninitialized)


class _UninitializedType(_TensorType):
    """Calling a placeholder class makes a placeholder (not Tensor's legacy constructor)."""

    def __call__(cls, *args, **kwargs):
        return cls.__new__(cls, *args, **kwargs)

    def __repr__(cls):
        return f"<class 'torch.nn.parameter.{cls.__name__}'>"


class _Uninitialized(Tensor, metaclass=_UninitializedType):
    """What both placeholders share (PyTorch's UninitializedTensorMixin)."""
    __slots__ = ()
    __hash__ = Tensor.__hash__
    _become_parameter = False

    def __getattribute__(self, name):
        if name in _BLOCKED:
            raise _use_error(_method(name), type(self).__name__)
        return object.__getattribute__(self, name)

    @property
    def shape(self):
        raise RuntimeError(_SHAPE)

    def size(self, dim=None):
        return Size((0,)) if dim is None else Size((0,))[dim]

    def is_complex(self):
        return False

    def materialize(self, shape, device=None, dtype=None):
        """Give the placeholder an (uninitialised) array of `shape`, and make it an ordinary tensor --
        a Parameter for UninitializedParameter -- in place."""
        data = _fn.empty(*((shape,) if isinstance(shape, int) else tuple(shape)),
                         dtype=self.dtype if dtype is None else dtype,
                         device=self.device if device is None else device)
        self.array, self.device = data.array, data.device
        object.__setattr__(self, "__class__", Tensor)

    def to(self, *args, **kwargs):
        """Another placeholder, in the dtype and on the device Tensor.to would give (self if the same)."""
        target = _fn.empty(0, dtype=self.dtype, device=self.device).to(*args, **kwargs)
        if target.dtype == self.dtype and target.device == self.device:
            return self
        return _placeholder(type(self), target.dtype, target.device, self.requires_grad,
                            self.__dict__.get("_is_parameter", False))

    def float(self, memory_format=None):
        return self.to(_dt.float32)

    def double(self, memory_format=None):
        return self.to(_dt.float64)

    def half(self, memory_format=None):
        return self.to(_dt.float16)

    def cpu(self):
        return self.to("cpu")

    def cuda(self, device=None):
        return self.to("cuda" if device is None else f"cuda:{device}")

    @property
    def data(self):
        return self

    @data.setter
    def data(self, value):  # Module.to: `p.data = p.data.to(...)`, the new placeholder's dtype kept
        if not is_lazy(value):
            raise _use_error(_method("set_"), type(self).__name__)
        self.array, self.device = value.array, value.device

    def __repr__(self):
        return f"<{type(self).__name__}>"

    __str__ = __repr__

    def __array_ufunc__(self, *args, **kwargs):  # where the engine hands the tensor itself to numpy
        raise _use_error("a torch function", type(self).__name__)

    def __array__(self, *args, **kwargs):
        raise _use_error(_method("__array__"), type(self).__name__)

    def __reduce_ex__(self, protocol):  # copy / pickle: another placeholder of the same kind
        return _placeholder, (type(self), self.dtype, self.device, self.requires_grad,
                              self.__dict__.get("_is_parameter", False))

    def __deepcopy__(self, memo):
        copied = memo[id(self)] = _placeholder(type(self), self.dtype, self.device, self.requires_grad,
                                               self.__dict__.get("_is_parameter", False))
        return copied


def _refuse(where):
    def refuse(self, *args, **kwargs):
        raise _use_error(where, type(self).__name__)
    return refuse


# the operators, named as PyTorch's message names them
for _names, _where in ((("__add__", "__radd__", "__iadd__"), _method("add")),
                       (("__sub__", "__rsub__", "__isub__"), _method("sub")),
                       (("__mul__", "__rmul__", "__imul__"), _method("mul")),
                       (("__truediv__", "__rtruediv__", "__itruediv__"), _method("div")),
                       (("__matmul__", "__rmatmul__"), _method("matmul")),
                       (("__pow__", "__rpow__", "__ipow__"), _method("pow")),
                       (("__neg__",), _method("neg")), (("__abs__",), _method("abs")),
                       (("__gt__",), _method("gt")), (("__lt__",), _method("lt")), (("__ge__",), _method("ge")),
                       (("__le__",), _method("le")), (("__ne__",), _method("ne")),
                       (("__eq__",), _method("__eq__")), (("__float__",), _method("__float__")),
                       (("__int__",), _method("__int__")), (("__bool__",), _method("__bool__")),
                       (("__getitem__",), "<slot wrapper '__getitem__' of 'torch._C.TensorBase' objects>"),
                       (("__setitem__",), "<slot wrapper '__setitem__' of 'torch._C.TensorBase' objects>"),
                       (("__len__",), "<function Tensor.__len__>"), (("__iter__",), "<function Tensor.__iter__>")):
    for _name in _names:
        setattr(_Uninitialized, _name, _refuse(_where))

_ALLOWED = {"size", "is_complex", "is_floating_point", "to", "float", "double", "half", "cpu", "cuda", "materialize",
            "get_device", "requires_grad", "grad", "dtype", "device", "is_leaf", "grad_fn", "data"}
# every public method of Tensor but PyTorch's allowed ones (properties such as dtype stay readable)
_BLOCKED = frozenset(name for name, value in inspect.getmembers(Tensor)
                     if not name.startswith("_") and name not in _ALLOWED and callable(value)
                     and not isinstance(inspect.getattr_static(Tensor, name), property))


class UninitializedParameter(_Uninitialized):
    """A parameter whose shape is not known yet (a Lazy layer's weight before its first call).

    It prints as <UninitializedParameter>, counts as a Parameter, and becomes one when materialized."""
    __slots__ = ()

    def __new__(cls, requires_grad=True, device=None, dtype=None):
        return _placeholder(cls, dtype, device, requires_grad, True)


class UninitializedBuffer(_Uninitialized):
    """A buffer whose shape is not known yet (a LazyBatchNorm's running_mean before its first call).

    It becomes an ordinary tensor when materialized."""
    __slots__ = ()

    def __new__(cls, requires_grad=False, device=None, dtype=None):
        return _placeholder(cls, dtype, device, requires_grad, False)


def _placeholder(cls, dtype, device, requires_grad, parameter):
    like = _fn.empty(0, dtype=dtype, device=device)
    t = make_tensor(_Pending(like.array.dtype), like.device, requires_grad=requires_grad)
    if parameter:
        t.__dict__["_is_parameter"] = True
    object.__setattr__(t, "__class__", cls)
    return t
