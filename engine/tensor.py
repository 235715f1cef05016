"""The Tensor: an array with PyTorch's autograd attributes, and `apply`, which
runs a row of the op table and records the backward node.

A tensor holds its backend array (`.array`, numpy or cupy), its `device`,
whether it requires grad, its `grad_fn` (None for leaves), its accumulated
`.grad`, and a version counter shared with its views, bumped by every
in-place op so the backward pass can tell when a saved value was changed.
"""
import weakref
import warnings

import numpy as _np

from . import backend as _backend
from . import dtypes as _dt
from .grad_mode import is_grad_enabled

_grad_enabled = is_grad_enabled
_np_generic = _np.generic
from .graph import Node, accumulator_of, RemovableHandle, _tracing
from .ops import TABLE

__all__ = ["Tensor", "Size", "apply"]

_ops = TABLE
_new = object.__new__
_backends = _backend._backends
_load_backend = _backend.backend_for

# How a saved value is kept (see Node.saved).
SAVED_VALUE, SAVED_TENSOR, SAVED_OUTPUT = 0, 1, 2

NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad "
    "field to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. "
    "If you access the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead."
)


class Size(tuple):
    """A shape; prints as PyTorch's `torch.Size([2, 3])`."""

    __slots__ = ()

    def __repr__(self):
        return f"torch.Size({list(self)})"

    __str__ = __repr__

    def numel(self):
        n = 1
        for s in self:
            n *= s
        return n


def _xp(device):
    b = _backends.get(device.type)
    return (b if b is not None else _load_backend(device)).xp


def _make(array, device, requires_grad=False, grad_fn=None, vc=None):
    """A tensor over `array` (no copy). The one constructor the engine uses."""
    t = _new(Tensor)
    t.array = array
    t.device = device
    t._rg = requires_grad
    t.grad_fn = grad_fn
    t._vc = [0] if vc is None else vc
    return t


def _storage(t):
    """The tensor's array as a writable, shareable array: a numpy scalar (what
    numpy returns for 0-d results) is boxed into a 0-d array in place, so
    aliases made afterwards share its memory."""
    arr = t.array
    if isinstance(arr, _np_generic):
        arr = t.array = _np.array(arr)
    return arr


def _mixed_devices(a, b):
    return RuntimeError(
        f"Expected all tensors to be on the same device, but found at least two devices, {a} and {b}!")


def apply(op, *args, **params):
    """Run `op` (a table row) on tensors and numbers; record a node when recording.

    A result requires grad when grad mode is on and any tensor argument does.
    """
    device = None
    requires = False
    dtype = None
    promote = False
    arrays = []
    for a in args:
        if a.__class__ is Tensor:
            d = a.device
            if device is None:
                device = d
            elif d is not device:
                raise _mixed_devices(device, d)
            if a._rg:
                requires = True
            arr = a.array
            if dtype is None:
                dtype = arr.dtype
            elif arr.dtype is not dtype:
                promote = True
            arrays.append(arr)
        else:
            arrays.append(a)
    if device is None:
        device = _backend.CPU
    b = _backends.get(device.type) or _load_backend(device)
    xp = b.xp
    if promote:
        arrays = _promoted(args, arrays)
    if op.is_view and isinstance(arrays[0], _np_generic):
        arrays[0] = _storage(args[0])  # a view must share memory: box a numpy scalar first
    out = op.forward(xp, *arrays, **params)
    if op.moves_device:
        device = params["device"]
        b = _backends.get(device.type) or _load_backend(device)
        xp = b.xp
    if out.__class__ not in b.native:
        out = xp.asarray(out)
    base = None
    if op.is_view and xp.may_share_memory(out, arrays[0]):
        base = args[0]
    vc = None if base is None else base._vc
    if not (requires and op.differentiable and is_grad_enabled()):
        result = _make(out, device, False, None, vc)
    else:
        result = _make(out, device, True, None, vc)
        result.grad_fn = _record(op, args, params, result)
    if base is not None:
        result._base = base if base._base is None else base._base
    return result


def _promoted(args, arrays):
    """Cast tensor arguments to their common dtype, by PyTorch's rules."""
    best = None
    best_dim = 0
    for a in args:
        if a.__class__ is Tensor:
            d, nd = _dt.dtype_of(a.array), a.array.ndim
            if best is None:
                best, best_dim = d, nd
            else:
                best, best_dim = _dt.promote(best, best_dim, d, nd), max(best_dim, nd)
    target = best.np
    return [arr.astype(target) if a.__class__ is Tensor and arr.dtype != target else arr
            for a, arr in zip(args, arrays)]


def _saved_entry(s, args, result):
    if s == "out":
        # the output's array and version counter, not the tensor: no cycle
        return (SAVED_OUTPUT, (result.array, result._vc), result._vc[0], None)
    a = args[s] if s < len(args) else None
    if a.__class__ is Tensor:
        return (SAVED_TENSOR, a, a._vc[0], a.grad_fn)
    return (SAVED_VALUE, a, 0, None)


_NOT_KEPT = (SAVED_VALUE, None, 0, None)


def _saved_list(op, args, result, needs):
    """The entries of `op.saves`, skipping those no wanted gradient uses (`save_for`)."""
    save_for = op.save_for
    if save_for is None:
        return [_saved_entry(s, args, result) for s in op.saves]
    return [_saved_entry(s, args, result) if any(needs[j] for j in users) else _NOT_KEPT
            for s, users in zip(op.saves, save_for)]


def _record(op, args, params, result):
    """The backward node of one op application."""
    nexts = []
    needs = []
    shapes = []
    for a in args:
        if a.__class__ is Tensor:
            shapes.append(a.array.shape)
            if a._rg:
                fn = a.grad_fn
                nexts.append(fn if fn is not None else accumulator_of(a))
                needs.append(True)
                continue
        else:
            shapes.append(None)
        nexts.append(None)
        needs.append(False)
    saved = _saved_list(op, args, result, needs) if op.saves else None
    out = result.array
    node = Node(op, params, tuple(nexts), tuple(shapes), tuple(needs), saved, out.shape, out.dtype,
                result.device)
    if _tracing[0]:
        node.args = args
    return node


_TRUE1 = (True,)
_NEEDS2 = (((False, False), (False, True)), ((True, False), (True, True)))


def apply1(op, x):
    """apply() for one tensor and no parameters (not a view op): the unary hot path."""
    device = x.device
    b = _backends.get(device.type) or _load_backend(device)
    xp = b.xp
    out = op.forward(xp, x.array)
    if out.__class__ not in b.native:
        out = xp.asarray(out)
    if not (x._rg and op.differentiable and _grad_enabled()):
        return _make(out, device)
    result = _make(out, device, True)
    fn = x.grad_fn
    saves = op.saves
    saved = None
    if saves:
        if saves[0] == "out":
            saved = [(SAVED_OUTPUT, (out, result._vc), 0, None)]
        else:
            saved = [(SAVED_TENSOR, x, x._vc[0], fn)]
    result.grad_fn = node = Node(op, None, (fn if fn is not None else accumulator_of(x),),
                                 (x.array.shape,), _TRUE1, saved, out.shape, out.dtype, device)
    if _tracing[0]:
        node.args = (x,)
    return result


def apply2(op, a, b):
    """apply() for two operands (tensors or numbers) and no parameters: the binary hot path."""
    if a.__class__ is Tensor:
        device = a.device
        if b.__class__ is Tensor:
            if b.device is not device:
                raise _mixed_devices(device, b.device)
            x, y = a.array, b.array
            if x.dtype is not y.dtype:
                x, y = _promoted((a, b), (x, y))
            if x.shape != y.shape:
                _broadcast_check(x.shape, y.shape)
            requires = a._rg or b._rg
        else:
            x, y = a.array, b
            requires = a._rg
    else:
        device = b.device
        x, y = a, b.array
        requires = b._rg
    bk = _backends.get(device.type) or _load_backend(device)
    xp = bk.xp
    out = op.forward(xp, x, y)
    if out.__class__ not in bk.native:
        out = xp.asarray(out)
    if not (requires and op.differentiable and _grad_enabled()):
        return _make(out, device)
    result = _make(out, device, True)
    if a.__class__ is Tensor:
        sa = x.shape
        if a._rg:
            fn = a.grad_fn
            ea, na = (fn if fn is not None else accumulator_of(a)), True
        else:
            ea, na = None, False
    else:
        sa, ea, na = None, None, False
    if b.__class__ is Tensor:
        sb = y.shape
        if b._rg:
            fn = b.grad_fn
            eb, nb = (fn if fn is not None else accumulator_of(b)), True
        else:
            eb, nb = None, False
    else:
        sb, eb, nb = None, None, False
    saves = op.saves
    saved = _saved_list(op, (a, b), result, (na, nb)) if saves else None
    result.grad_fn = node = Node(op, None, (ea, eb), (sa, sb), _NEEDS2[na][nb], saved, out.shape, out.dtype,
                                 device)
    if _tracing[0]:
        node.args = (a, b)
    return result


def _broadcast_check(sa, sb):
    """PyTorch's message when two shapes don't broadcast."""
    for i in range(1, min(len(sa), len(sb)) + 1):
        x, y = sa[-i], sb[-i]
        if x != y and x != 1 and y != 1:
            raise RuntimeError(f"The size of tensor a ({x}) must match the size of tensor b ({y}) at "
                               f"non-singleton dimension {max(len(sa), len(sb)) - i}")


class Tensor:
    """An n-dimensional array that can record how it was computed."""

    # Every tensor sets the slots; the rest are class defaults until a tensor
    # gets a grad, hooks, a retained grad, a leaf node or a view base.
    __slots__ = ("array", "device", "_rg", "grad_fn", "_vc", "__dict__", "__weakref__")
    _grad = None
    _accum = None
    _hooks = None
    _retains = False
    _base = None
    # numpy defers to our reflected operators: ndarray * Tensor -> Tensor.__rmul__
    __array_ufunc__ = None
    __hash__ = object.__hash__

    def __init__(self, *args, **kwargs):
        raise TypeError("create tensors with tensor(data, ...), zeros(...), ones(...) and the like")

    # ------------------------------------------------------------ attributes
    @property
    def dtype(self):
        return _dt.dtype_of(self.array)

    @property
    def shape(self):
        return Size(self.array.shape)

    def size(self, dim=None):
        if dim is None:
            return Size(self.array.shape)
        return self.array.shape[_dim(dim, self.array.ndim)]

    def dim(self):
        return self.array.ndim

    @property
    def ndim(self):
        return self.array.ndim

    def numel(self):
        return int(self.array.size)

    nelement = numel

    def element_size(self):
        return self.array.itemsize

    def is_floating_point(self):
        return self.array.dtype.kind == "f"

    @property
    def is_cuda(self):
        return self.device.type == "cuda"

    @property
    def requires_grad(self):
        return self._rg

    @requires_grad.setter
    def requires_grad(self, value):
        value = bool(value)
        if self.grad_fn is not None:
            if not value:
                raise RuntimeError(
                    "you can only change requires_grad flags of leaf variables. If you want to use a "
                    "computed variable in a subgraph that doesn't require differentiation use "
                    "var_no_grad = var.detach().")
            return
        if value and self.array.dtype.kind != "f":
            raise RuntimeError("only Tensors of floating point dtype can require gradients "
                               f"(this one is {self.dtype.name})")
        self._rg = value

    def requires_grad_(self, requires_grad=True):
        self.requires_grad = requires_grad
        return self

    @property
    def is_leaf(self):
        return self.grad_fn is None

    @property
    def grad(self):
        if self.grad_fn is not None and not self._retains and self._grad is None:
            warnings.warn(NON_LEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value):
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError(f"assigned grad expected to be a Tensor or None but got {type(value).__name__}")
            if value.array.shape != self.array.shape:
                raise RuntimeError(f"assigned grad has data of a different size: grad is "
                                   f"{list(value.array.shape)}, tensor is {list(self.array.shape)}")
            if value.array.dtype != self.array.dtype:
                raise RuntimeError(f"assigned grad has data of a different type: grad is "
                                   f"{value.dtype.name}, tensor is {self.dtype.name}")
            if value.device is not self.device:
                raise RuntimeError(f"assigned grad has data located on a different device: "
                                   f"grad is on {value.device}, tensor is on {self.device}")
        self._grad = value

    @grad.deleter
    def grad(self):
        self._grad = None

    @property
    def retains_grad(self):
        return self._retains

    @property
    def _version(self):
        return self._vc[0]

    @property
    def data(self):
        """The same values with no history and a version counter of their own."""
        return _make(_storage(self), self.device)

    @data.setter
    def data(self, value):
        if not isinstance(value, Tensor):
            raise TypeError(f"data must be a Tensor, not {type(value).__name__}")
        if value.device is not self.device:
            raise RuntimeError("data set to a tensor on another device")
        self.array = _storage(value)

    @property
    def T(self):
        n = self.array.ndim
        if n < 2:
            return self
        return _fn.permute(self, tuple(range(n - 1, -1, -1)))

    @property
    def mT(self):
        return _fn.transpose(self, -2, -1)

    # ------------------------------------------------------------ autograd
    def retain_grad(self):
        """Keep (and accumulate) this non-leaf's gradient in `.grad` after backward."""
        if not self._rg:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self.grad_fn is None:
            return
        self._retains = True
        self.grad_fn.retain = weakref.ref(self)

    def register_hook(self, hook):
        """Call `hook(grad)` when this tensor's gradient is computed; a returned
        tensor replaces the gradient. Returns a handle with `remove()`."""
        if not self._rg:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if not callable(hook):
            raise TypeError("register_hook expects a function of one argument (the gradient)")
        if self.grad_fn is not None:
            return self.grad_fn.register_prehook(hook)
        if self._hooks is None:
            self._hooks = {}
        handle = RemovableHandle(self._hooks)
        self._hooks[handle.id] = hook
        return handle

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        from .autograd import backward
        backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    def detach(self):
        """The same values, cut from the graph (shares memory and version counter)."""
        return _make(_storage(self), self.device, False, None, self._vc)

    def detach_(self):
        self.grad_fn = None
        self._rg = False
        return self

    # ------------------------------------------------------------ conversion
    def item(self):
        if self.array.size != 1:
            raise RuntimeError(f"a Tensor with {self.array.size} elements cannot be converted to Scalar")
        return self.array.item()

    def tolist(self):
        return _host(self).tolist()

    def numpy(self):
        if self._rg:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. "
                               "Use tensor.detach().numpy() instead.")
        if self.device.type != "cpu":
            raise TypeError(f"can't convert {self.device} device type tensor to numpy. "
                            "Use Tensor.cpu() to copy the tensor to host memory first.")
        return _storage(self)

    def to(self, *args, **kwargs):
        return _fn.to(self, *args, **kwargs)

    def cpu(self):
        return _fn.to(self, "cpu")

    def cuda(self, device=None):
        return _fn.to(self, "cuda" if device is None else f"cuda:{device}")

    def type(self, dtype=None):
        if dtype is None:
            return f"torch.{self.dtype.tensor_type}"
        return _fn.to(self, dtype=dtype)

    def float(self):
        return _fn.to(self, dtype=_dt.float32)

    def double(self):
        return _fn.to(self, dtype=_dt.float64)

    def half(self):
        return _fn.to(self, dtype=_dt.float16)

    def long(self):
        return _fn.to(self, dtype=_dt.int64)

    def int(self):
        return _fn.to(self, dtype=_dt.int32)

    def bool(self):
        return _fn.to(self, dtype=_dt.bool_)

    def clone(self):
        return _fn.clone(self)

    def contiguous(self):
        return self

    def __repr__(self):
        from .printing import tensor_repr
        return tensor_repr(self)

    __str__ = __repr__

    def __format__(self, spec):
        if self.array.ndim == 0 and spec:
            return format(self.item(), spec)
        return format(repr(self), spec)

    def __bool__(self):
        if self.array.size != 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(self.array.item())

    def __float__(self):
        return float(self.item())

    def __int__(self):
        return int(self.item())

    def __index__(self):
        if self.array.dtype.kind not in "iub" or self.array.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self.item())

    def __len__(self):
        if self.array.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self.array.shape[0]

    def __iter__(self):
        if self.array.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return (self[i] for i in range(self.array.shape[0]))

    def __array__(self, dtype=None, copy=None):
        a = _np.asarray(_host(self))
        return a if dtype is None else a.astype(dtype)

    # ------------------------------------------------------------ operators
    # the common cases (tensor or Python number) go straight to apply2
    def __add__(self, other):
        if other.__class__ in _FAST:
            return apply2(_ADD, self, other)
        return _fn.add(self, other)

    def __radd__(self, other):
        if other.__class__ in _FAST:
            return apply2(_ADD, other, self)
        return _fn.add(other, self)

    def __sub__(self, other):
        if other.__class__ in _FAST:
            return apply2(_SUB, self, other)
        return _fn.sub(self, other)

    def __rsub__(self, other):
        if other.__class__ in _FAST:
            return apply2(_SUB, other, self)
        return _fn.sub(other, self)

    def __mul__(self, other):
        if other.__class__ in _FAST:
            return apply2(_MUL, self, other)
        return _fn.mul(self, other)

    def __rmul__(self, other):
        if other.__class__ in _FAST:
            return apply2(_MUL, other, self)
        return _fn.mul(other, self)

    def __truediv__(self, other):
        if other.__class__ in _FAST:
            return apply2(_DIV, self, other)
        return _fn.div(self, other)

    def __rtruediv__(self, other):
        if other.__class__ in _FAST:
            return apply2(_DIV, other, self)
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
        return _fn.pow(self, other)

    def __rpow__(self, other):
        return _fn.pow(other, self)

    def __matmul__(self, other):
        return _fn.matmul(self, other)

    def __rmatmul__(self, other):
        return _fn.matmul(other, self)

    def __neg__(self):
        return _fn.neg(self)

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

    def __eq__(self, other):
        return _fn.eq(self, other)

    def __ne__(self, other):
        return _fn.ne(self, other)

    def __and__(self, other):
        return _fn.logical_and(self, other)

    __rand__ = __and__

    def __or__(self, other):
        return _fn.logical_or(self, other)

    __ror__ = __or__

    def __xor__(self, other):
        return _fn.logical_xor(self, other)

    def __invert__(self):
        return _fn.logical_not(self)

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

    # ------------------------------------------------------------ math methods
    def add(self, other, alpha=1):
        return _fn.add(self, other, alpha=alpha)

    def sub(self, other, alpha=1):
        return _fn.sub(self, other, alpha=alpha)

    def mul(self, other):
        return _fn.mul(self, other)

    def div(self, other):
        return _fn.div(self, other)

    def pow(self, exponent):
        return _fn.pow(self, exponent)

    def remainder(self, other):
        return _fn.remainder(self, other)

    def floor_divide(self, other):
        return _fn.floor_divide(self, other)

    def neg(self):
        return _fn.neg(self)

    def abs(self):
        return _fn.abs(self)

    def sign(self):
        return _fn.sign(self)

    def exp(self):
        return _fn.exp(self)

    def log(self):
        return _fn.log(self)

    def sqrt(self):
        return _fn.sqrt(self)

    def square(self):
        return _fn.square(self)

    def sin(self):
        return _fn.sin(self)

    def cos(self):
        return _fn.cos(self)

    def tan(self):
        return _fn.tan(self)

    def tanh(self):
        return _fn.tanh(self)

    def sigmoid(self):
        return _fn.sigmoid(self)

    def relu(self):
        return _fn.relu(self)

    def clamp(self, min=None, max=None):
        return _fn.clamp(self, min, max)

    clip = clamp

    def maximum(self, other):
        return _fn.maximum(self, other)

    def minimum(self, other):
        return _fn.minimum(self, other)

    def sum(self, dim=None, keepdim=False):
        return _fn.sum(self, dim, keepdim)

    def mean(self, dim=None, keepdim=False):
        return _fn.mean(self, dim, keepdim)

    def prod(self, dim=None, keepdim=False):
        return _fn.prod(self, dim, keepdim)

    def max(self, dim=None, keepdim=False):
        return _fn.max(self, dim, keepdim)

    def min(self, dim=None, keepdim=False):
        return _fn.min(self, dim, keepdim)

    def amax(self, dim=None, keepdim=False):
        return _fn.amax(self, dim, keepdim)

    def amin(self, dim=None, keepdim=False):
        return _fn.amin(self, dim, keepdim)

    def norm(self, p="fro", dim=None, keepdim=False):
        return _fn.norm(self, p, dim, keepdim)

    def softmax(self, dim):
        return _fn.softmax(self, dim)

    def log_softmax(self, dim):
        return _fn.log_softmax(self, dim)

    def logsumexp(self, dim, keepdim=False):
        return _fn.logsumexp(self, dim, keepdim)

    def argmax(self, dim=None, keepdim=False):
        return _fn.argmax(self, dim, keepdim)

    def argmin(self, dim=None, keepdim=False):
        return _fn.argmin(self, dim, keepdim)

    def all(self, dim=None, keepdim=False):
        return _fn.all(self, dim, keepdim)

    def any(self, dim=None, keepdim=False):
        return _fn.any(self, dim, keepdim)

    def eq(self, other):
        return _fn.eq(self, other)

    def ne(self, other):
        return _fn.ne(self, other)

    def lt(self, other):
        return _fn.lt(self, other)

    def le(self, other):
        return _fn.le(self, other)

    def gt(self, other):
        return _fn.gt(self, other)

    def ge(self, other):
        return _fn.ge(self, other)

    def equal(self, other):
        return _fn.equal(self, other)

    def isfinite(self):
        return _fn.isfinite(self)

    def matmul(self, other):
        return _fn.matmul(self, other)

    def mm(self, other):
        return _fn.mm(self, other)

    def mv(self, other):
        return _fn.mv(self, other)

    def dot(self, other):
        return _fn.dot(self, other)

    def t(self):
        return _fn.t(self)

    def transpose(self, dim0, dim1):
        return _fn.transpose(self, dim0, dim1)

    def permute(self, *dims):
        return _fn.permute(self, *dims)

    def reshape(self, *shape):
        return _fn.reshape(self, *shape)

    def view(self, *shape):
        return _fn.reshape(self, *shape)

    def view_as(self, other):
        return _fn.reshape(self, other.shape)

    reshape_as = view_as

    def flatten(self, start_dim=0, end_dim=-1):
        return _fn.flatten(self, start_dim, end_dim)

    def squeeze(self, dim=None):
        return _fn.squeeze(self, dim)

    def unsqueeze(self, dim):
        return _fn.unsqueeze(self, dim)

    def expand(self, *sizes):
        return _fn.expand(self, *sizes)

    def expand_as(self, other):
        return _fn.expand(self, other.shape)

    # ------------------------------------------------------------ in place
    def add_(self, other, alpha=1):
        return _fn.inplace(self, "add", other, alpha=alpha)

    def sub_(self, other, alpha=1):
        return _fn.inplace(self, "sub", other, alpha=alpha)

    def mul_(self, other):
        return _fn.inplace(self, "mul", other)

    def div_(self, other):
        return _fn.inplace(self, "div", other)

    def pow_(self, exponent):
        return _fn.inplace(self, "pow", exponent)

    def neg_(self):
        return _fn.inplace(self, "neg")

    def abs_(self):
        return _fn.inplace(self, "abs")

    def exp_(self):
        return _fn.inplace(self, "exp")

    def log_(self):
        return _fn.inplace(self, "log")

    def sqrt_(self):
        return _fn.inplace(self, "sqrt")

    def sin_(self):
        return _fn.inplace(self, "sin")

    def cos_(self):
        return _fn.inplace(self, "cos")

    def tanh_(self):
        return _fn.inplace(self, "tanh")

    def sigmoid_(self):
        return _fn.inplace(self, "sigmoid")

    def relu_(self):
        return _fn.inplace(self, "relu")

    def clamp_(self, min=None, max=None):
        return _fn.inplace(self, "clamp", min, max)

    def zero_(self):
        return _fn.inplace(self, "fill", 0, name="ZeroBackward0")

    def fill_(self, value):
        return _fn.inplace(self, "fill", value)

    def copy_(self, src):
        return _fn.inplace(self, "copy", src)


_FAST = frozenset((Tensor, float, int))
_ADD, _SUB, _MUL, _DIV = _ops["add"], _ops["sub"], _ops["mul"], _ops["div"]


def _dim(dim, ndim):
    n = max(ndim, 1)
    if not -n <= dim < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})")
    return dim % n


def _host(t):
    b = _backends.get(t.device.type) or _load_backend(t.device)
    return b.to_host(t.array)


from . import functions as _fn  # noqa: E402  (functions builds on Tensor)
