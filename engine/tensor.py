"""The Tensor: an array with PyTorch's autograd attributes, and `apply`, the
one path by which a row of the op table runs and records its backward node.

A tensor holds its backend array (`.array`, numpy or cupy), its `device`,
whether it requires grad, its backward node (`grad_fn`; None for leaves),
its accumulated `.grad`, and a version counter, bumped by every in-place op
so the backward pass can tell when a saved value was changed.

A view (the result of a view row that shares memory with its input: `x[0]`,
`x.t()`, `x.view(6)`, ...) shares its base's version counter and knows its
base (`_base`, always the tensor that owns the memory) and the chain of view
steps that selects it. When the base or another of its views is changed in
place, the view's node is re-derived from the base's new graph the next time
it is used (PyTorch's AsStridedBackward0), so no view ever keeps a stale
history.
"""
import re
import weakref
import warnings

import numpy as _np

from . import backend as _backend
from . import dtypes as _dt
from . import elision as _elision
from .grad_mode import is_grad_enabled, is_inference_mode_enabled, inference_used, InferenceVersion
from .graph import Node, named, accumulator_of, RemovableHandle, _tracing, _next_seq, _get_span, spans_used
from .ops import TABLE

__all__ = ["Tensor", "Size", "apply", "run_op"]

_grad_enabled = is_grad_enabled
_inference_on = is_inference_mode_enabled
_np_generic = _np.generic
_np_ndarray = _np.ndarray
_ELIDE_BYTES = _elision.MIN_BYTES  # below it no operand is worth reusing: not even asked
_load_backend = _backend.backend_for

# How a saved value is kept (see Node.saved).
SAVED_VALUE, SAVED_TENSOR, SAVED_OUTPUT = 0, 1, 2

# How a view came to be (PyTorch's CreationMeta): only an ordinary view may be
# written through with its history recorded.
VIEW_DEFAULT, VIEW_NO_GRAD, VIEW_MULTI_OUTPUT = "default", "no_grad", "multi_output"
VIEW_INFERENCE = "inference"  # a view of a normal tensor made in inference mode
VIEW_IN_CUSTOM_FUNCTION = "in_custom_function"  # an output of a custom Function that is a view (custom_function.py)

SCALAR_OF_GRAD_WARNING = ("Converting a tensor with requires_grad=True to a scalar may lead to unexpected "
                          "behavior.\nConsider using tensor.detach() first.")
NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad "
    "field to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. "
    "If you access the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. "
    "See github.com/pytorch/pytorch/pull/30531 for more information."
)

NO_GRAD_VIEW_REBASED = (
    "A view was created in no_grad mode and its base or another view of its base has been modified "
    "inplace with grad mode enabled. Given that this use case is ambiguous and error-prone, it is "
    "forbidden. You can clarify your code by moving both the view and the inplace either both inside "
    "the no_grad block (if you don't want the inplace to be tracked) or both outside (if you want the "
    "inplace to be tracked).")

INFERENCE_VIEW_REBASED = (
    "A view was created in inference mode and its base or another view of its base has been modified "
    "inplace in normal mode. Given that this use case is ambiguous and error-prone, it is forbidden. You "
    "can clarify your code by moving both the view and the inplace either both inside the inference_mode "
    "block (if you don't want the inplace to be tracked) or both outside (if you want the inplace to be "
    "tracked).")

INFERENCE_SAVED = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in inference mode "
    "in computation tracked by autograd. To work around this, you can make a clone to get a normal tensor "
    "and use it in autograd, or use `torch.no_grad()` instead of `torch.inference_mode()`.")


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


class ViewInfo:
    """How a view selects its elements from its base, and whether its node is current."""

    __slots__ = ("chain", "meta", "version", "output", "base_fn", "epoch")

    def __init__(self, chain, meta, version, output=0, base_fn=None, epoch=0):
        self.chain = chain      # ((view row, params), ...) from the base to the view
        self.epoch = epoch      # how many of the base's in-place reshapes `chain` starts after (view_chain)
        self.meta = meta        # VIEW_DEFAULT, VIEW_NO_GRAD, VIEW_INFERENCE or VIEW_MULTI_OUTPUT
        self.version = version  # the version counter's value when the view's node was made
        self.output = output    # which output of a multi-output view function (unbind, split)
        self.base_fn = base_fn  # for a view made under no_grad: the base's node then


def _xp(device):
    return (device.backend or _load_backend(device)).xp


def _make(array, device, requires_grad=False, grad_fn=None, vc=None):
    """A tensor over `array` (no copy). The one constructor the engine uses.
    A new tensor (no `vc` given) made in inference mode is an inference tensor."""
    t = _new_tensor()
    t.array = array
    t.device = device
    t._rg = requires_grad
    t._fn = grad_fn
    if vc is None:
        vc = InferenceVersion((0,)) if inference_used[0] and _inference_on() else [0]
    t._vc = vc
    t._base = None
    return t


def _storage(t):
    """The tensor's array as a writable, shareable array: a numpy scalar (what
    numpy returns for 0-d results) is boxed into a 0-d array in place, so
    aliases made afterwards share its memory."""
    arr = t.array
    if isinstance(arr, _np_generic):
        arr = t.array = _np.array(arr)
    return arr


def _data_address(arr):
    """The address of an array's first element (numpy's or CuPy's)."""
    interface = getattr(arr, "__array_interface__", None) or arr.__cuda_array_interface__
    return interface["data"][0]


def _mixed_devices(a, b):
    return RuntimeError(
        f"Expected all tensors to be on the same device, but found at least two devices, {a} and {b}!")


def apply(op, *args, **params):
    """Run `op` (a table row) on tensors and numbers; record a node when recording.

    A result requires grad when grad mode is on and any tensor argument does.
    A view row's result that shares memory with its input becomes a view of it.
    """
    return run_op(op, args, params)


def run_op(op, args, params):
    """apply() with the arguments as a tuple and the parameters as a dict: the
    one path every op takes (the operators call it directly).

    The commonest call -- one tensor that is not a view, maybe with a number,
    through a differentiable row that makes a new array (Op.straight) -- runs here in one straight line,
    the result and its node filled in directly (no call but the row's forward:
    this is most of an op's cost in a chain of small ops); `_run_any` takes
    every other call."""
    a = args[0]
    n = len(args)
    if n == 2:
        if a.__class__ is Tensor:
            if args[1].__class__ is Tensor:
                return _run_any(op, args, params)
            t = a
        elif args[1].__class__ is Tensor:
            t = args[1]
        else:
            return _run_any(op, args, params)
    elif n == 1 and a.__class__ is Tensor:
        t = a
    else:
        return _run_any(op, args, params)
    if t._base is not None or not op.straight:
        return _run_any(op, args, params)
    device = t.device
    b = device.backend or _load_backend(device)
    x = t.array
    if n == 1:
        out = op.forward(b.xp, x, **params) if params else op.forward(b.xp, x)
    elif x.__class__ is not _np_ndarray or op.ufunc is None or x.nbytes < _ELIDE_BYTES \
            or (into := _elision.into_one(op, args, x, t is a, t._rg)) is None:
        if t is a:
            out = op.forward(b.xp, x, args[1], **params) if params else op.forward(b.xp, x, args[1])
        else:
            out = op.forward(b.xp, a, x, **params) if params else op.forward(b.xp, a, x)
    else:  # a temporary's memory takes the result (elision.py): the row's ufunc, bit for bit
        out = getattr(b.xp, op.ufunc)(x, args[1], out=into) if t is a else getattr(b.xp, op.ufunc)(a, x, out=into)
    if out.__class__ not in b.native:
        out = b.xp.asarray(out)
    result = _new_tensor()
    result.array = out
    result.device = device
    result._base = None
    if inference_used[0] and _inference_on():
        result._vc = InferenceVersion((0,))
        result._rg = False
        result._fn = None
        return result
    result._vc = [0]
    if not (t._rg and _grad_enabled()):
        result._rg = False
        result._fn = None
        return result
    # record the node (as _record does for any call)
    result._rg = True
    node = result._fn = Node()
    node.op = op
    node.params = params or _NO_PARAMS
    node.pre_hooks = node.retain = None
    edge = t._fn
    if edge is None:
        edge = accumulator_of(t)  # a leaf (not a view): its AccumulateGrad
    if n == 1:
        node.inputs = (edge,)
        needs = node.needs = _ONE_WANTED
        at = 0
    elif t is a:
        node.inputs = (edge, None)
        needs = node.needs = _FIRST_WANTED
        at = 1
    else:
        node.inputs = (None, edge)
        needs = node.needs = _SECOND_WANTED
        at = 2
    # a numpy scalar's shape and dtype are its class's: the node's tuples made once (an array's are read)
    meta = _SCALAR_META.get(x.__class__) if out.__class__ is x.__class__ else None
    if meta is not None:
        node.shapes, node.dtypes, node.out_shape, node.out_dtype = meta[at]
    else:
        shape, dtype = x.shape, x.dtype
        node.shapes, node.dtypes = ((shape,), (dtype,)) if at == 0 else \
            ((shape, None), (dtype, None)) if at == 1 else ((None, shape), (None, dtype))
        node.out_shape = out.shape
        node.out_dtype = out.dtype
    if op.saves:
        plan = op.keeps.get(needs)
        if plan is None:
            plan = op.keeps[needs] = _save_plan(op, needs)
        if plan.__class__ is _ValuesPlan:  # only numbers of the call: kept as they are (see saved_entries)
            saved = []
            for s in plan:
                saved.append(None if s is None else args[s])
            node.saved = tuple(saved)
        else:
            node.saved = _saved(plan, args, result)
    else:
        node.saved = None
    node.seq = _next_seq()
    node.device = device
    if spans_used[0]:
        span = _get_span()
        if span is not None:
            node.span = span
    if _tracing[0]:
        node.args = args
    return result


def _scalar_meta(zero):
    """What run_op records of a numpy scalar input of zero's type whose output is a scalar of that
    type too: (shapes, dtypes, out_shape, out_dtype) as the node keeps them for a call of it alone,
    of it then a number, and of a number then it."""
    shape, dtype = zero.shape, zero.dtype
    return (((shape,), (dtype,), shape, dtype), ((shape, None), (dtype, None), shape, dtype),
            ((None, shape), (None, dtype), shape, dtype))


_SCALAR_META = {t: _scalar_meta(t(0)) for t in set(_np.sctypeDict.values())
                if issubclass(t, _np_generic) and _np.dtype(t).kind in "biufc"}


def _run_any(op, args, params):
    """run_op for any call: the common shapes of a call -- one tensor; a tensor
    and a number -- sorted out inline, anything else by `_gather`."""
    a = args[0]
    n = len(args)
    if n == 1 and a.__class__ is Tensor:
        if a._base is not None:
            _refresh(a)
        device, requires, arrays = a.device, a._rg, (a.array,)
    elif n == 2 and (a.__class__ is Tensor) is not (args[1].__class__ is Tensor):
        t = a if a.__class__ is Tensor else args[1]
        if t._base is not None:
            _refresh(t)
        device, requires = t.device, t._rg
        arrays = (a.array, args[1]) if t is a else (a, t.array)
    else:
        device, requires, arrays = _gather(op, args)
    b = device.backend or _load_backend(device)
    if op.special and op.is_view and isinstance(arrays[0], _np_generic):
        arrays = (_storage(args[0]),) + tuple(arrays[1:])  # a view must share memory: box a numpy scalar
    # a call with a fixed number of arguments stays in the interpreter's fast path (no *args)
    if params:
        out = op.forward(b.xp, *arrays, **params)
    elif n == 2:
        into = _elision.into(op, args, arrays, requires) if op.ufunc is not None else None
        if into is None:
            out = op.forward(b.xp, arrays[0], arrays[1])
        else:  # a temporary operand's memory takes the result (elision.py): the row's ufunc, bit for bit
            out = getattr(b.xp, op.ufunc)(arrays[0], arrays[1], out=into)
    elif n == 1:
        out = op.forward(b.xp, arrays[0])
    else:
        out = op.forward(b.xp, *arrays)
    parent = None
    if op.special:
        if op.moves_device:
            device = params["device"]
            b = device.backend or _load_backend(device)
        elif b.xp.may_share_memory(out, arrays[0]):
            parent = args[0]  # a view row whose result shares memory: a view of args[0]
    if out.__class__ not in b.native:
        out = b.xp.asarray(out)
    result = _make(out, device) if parent is None else _make(out, device, False, None, parent._vc)
    if requires and op.differentiable and _grad_enabled() and not (inference_used[0] and _inference_on()):
        result._rg = True
        result._fn = _record(op, args, params, result)
    if parent is not None:
        _link_view(result, parent, op, params)
    elif op.is_view and result._fn is not None:
        result._fn.copied = True
    return result


def _gather(op, args):
    """(device, requires grad, arrays) of any arguments: one device, one dtype
    (PyTorch's promotion), shapes that broadcast together (PyTorch's message)."""
    device = dtype = shape = None
    requires = promote = broadcast = False
    arrays = []
    for a in args:
        if a.__class__ is Tensor:
            arr = a.array
            if device is None:
                device, dtype, shape = a.device, arr.dtype, arr.shape
            else:
                if a.device is not device:
                    raise _mixed_devices(device, a.device)
                if arr.dtype is not dtype:
                    promote = True
                if arr.shape != shape:
                    broadcast = True
            if a._base is not None:
                _refresh(a)
            if a._rg:
                requires = True
            arrays.append(arr)
        else:
            arrays.append(a)
    if device is None:
        device = _backend.CPU
    if promote:
        if op.check_mixed is not None:
            op.check_mixed(arrays)
        arrays = _promoted(args, arrays)
    if broadcast and op.elementwise:
        _broadcast_shapes([x.shape for x, a in zip(arrays, args) if a.__class__ is Tensor])
    return device, requires, arrays


def _link_view(view, parent, op, params, meta=None, output=0):
    """Make `view` a view of `parent`'s base, selected by parent's chain plus this step."""
    if parent._base is None:
        base, chain, inherited = parent, (), VIEW_DEFAULT
    else:
        base, chain, inherited = parent._base, view_chain(parent), parent._view.meta
    if meta is None:
        if inference_used[0] and _inference_on():
            meta = VIEW_INFERENCE
        elif _grad_enabled() or inherited == VIEW_INFERENCE:
            meta = inherited
        else:
            meta = VIEW_NO_GRAD
    view._base = base
    view._view = ViewInfo(chain + ((op, params),), meta, view._vc[0], output, base._fn, len(base._reshaped))
    if (meta == VIEW_NO_GRAD or meta == VIEW_INFERENCE) and base._rg:
        view._rg = True  # as PyTorch: it requires grad, but no gradient flows through it


def _refresh(t):
    """Re-derive a view's node from its base when either was changed in place
    since the view's node was made (PyTorch's AsStridedBackward0). A view made
    under no_grad, or one of several outputs of unbind/split, may not be: that
    is PyTorch's error."""
    info = t._view
    base = t._base
    if info.version == t._vc[0]:
        if not t._rg and base._rg:
            t._rg = True  # the base came to require grad after the view was made: so does the view
        return
    if t._fn is None and not base._rg:
        info.version = t._vc[0]
        return
    if info.meta == VIEW_NO_GRAD:
        raise RuntimeError(NO_GRAD_VIEW_REBASED)
    if info.meta == VIEW_INFERENCE:
        raise RuntimeError(INFERENCE_VIEW_REBASED)
    if info.meta == VIEW_MULTI_OUTPUT or info.meta == VIEW_IN_CUSTOM_FUNCTION:
        raise RuntimeError(multi_output_message(t, "its base or another view of its base has been"))
    old = t._fn
    t._fn = _record(_AS_STRIDED, (base,), {"chain": view_chain(t)}, t)
    t._rg = True
    if t._retains:
        _move_retain(t, old, t._fn)
    info.version = t._vc[0]


def view_chain(view):
    """The view's chain of steps from its base as the base is shaped now. A base reshaped in
    place (x.t_()) logs the step that undoes it (`_reshaped`); the chains of views made before
    start from its old shape, so they get those steps put in front, latest first."""
    info = view._view
    undo = view._base._reshaped
    if info.epoch != len(undo):
        info.chain = tuple(reversed(undo[info.epoch:])) + info.chain
        info.epoch = len(undo)
    return info.chain


def multi_output_message(view, modified):
    """PyTorch's error for writing to (or through) one of several views returned by
    one call, or a view a custom Function returned; `modified` is "is being" (the view
    itself) or "its base or another view of its base has been"."""
    fn = view._fn
    if fn is None:
        head = f"A view was created in no_grad mode and {modified} modified inplace with grad mode enabled."
    else:
        head = f"Output {view._view.output} of {short_name(fn)} is a view and {modified} modified inplace."
    if view._view.meta == VIEW_IN_CUSTOM_FUNCTION:
        return (head + " This view was created inside a custom Function (or because an input was returned as-is) "
                "and the autograd logic to handle view+inplace would override the custom backward associated with "
                "the custom Function, leading to incorrect gradients. This behavior is forbidden. You can fix this "
                "by cloning the output of the custom Function.")
    return (head + " This view is the output of a function that returns multiple views. Such functions do "
            "not allow the output views to be modified inplace. You should replace the inplace operation by an "
            "out-of-place one.")


_BACKWARD_SUFFIX = re.compile(r"Backward\d*$")


def short_name(fn):
    """A node as PyTorch's messages name it: MulBackward0 -> Mul; CopySlices with its C++ namespace."""
    name = fn.name()
    return "torch::autograd::" + name if name in ("CopySlices", "CopyBackwards") else _BACKWARD_SUFFIX.sub("", name)


def _move_retain(t, old, new):
    """A retained grad follows the tensor's current value (PyTorch 2.x)."""
    if old is not None and old.retain is not None and old.retain() is t:
        old.retain = None
    new.retain = weakref.ref(t)


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


_NOT_KEPT = (SAVED_VALUE, None, 0, None)
_NO_PARAMS = {}  # shared by every node without parameters: never written to
_NUMBER_INPUT = (None, None, None, False)


def _input_meta(a):
    """(edge, shape, dtype, needs grad) of one argument of a recorded op."""
    if a.__class__ is Tensor:
        arr = a.array
        if a._rg:
            fn = a._fn
            return (fn if fn is not None else _edge_of_leaf(a)), arr.shape, arr.dtype, True
        return None, arr.shape, arr.dtype, False
    return _NUMBER_INPUT


def _edge_of_leaf(a):
    """Where the gradient of a tensor without a node goes: its AccumulateGrad
    (None for a view made under no_grad or in inference mode, which passes no gradient)."""
    if a._base is None or (a._view.meta != VIEW_NO_GRAD and a._view.meta != VIEW_INFERENCE):
        return accumulator_of(a)
    return None


_ONE_WANTED, _FIRST_WANTED, _SECOND_WANTED = (True,), (True, False), (False, True)
_NEEDS = {True: _ONE_WANTED, False: (False,)}
_NEEDS_FIRST = {True: _FIRST_WANTED, False: (False, False)}
_NEEDS_SECOND = {True: _SECOND_WANTED, False: (False, False)}


def _record(op, args, params, result):
    """The backward node of one op application whose output is `result`.

    The node keeps what `op.saves` names -- an input tensor (checked against
    its version when used) or the output's array and version counter (not
    the tensor: no cycle) -- except what no wanted gradient uses (`save_for`).
    Every node is made here (this runs once per recorded op, so the fields
    are filled in directly rather than through a constructor call)."""
    node = Node()
    node.op = op
    node.params = params or _NO_PARAMS
    node.pre_hooks = node.retain = None
    a = args[0]
    n = len(args)
    if n <= 2 and (a.__class__ is Tensor) is not (n == 2 and args[1].__class__ is Tensor):
        # one tensor, maybe with a number: the usual shapes of a call, straight-line
        t = a if a.__class__ is Tensor else args[1]
        arr = t.array
        edge = None
        if t._rg:
            edge = t._fn
            if edge is None:
                edge = _edge_of_leaf(t)
        if n == 1:
            node.inputs, node.shapes, node.dtypes = (edge,), (arr.shape,), (arr.dtype,)
            needs = _NEEDS[t._rg]
        elif t is a:
            node.inputs, node.shapes, node.dtypes = (edge, None), (arr.shape, None), (arr.dtype, None)
            needs = _NEEDS_FIRST[t._rg]
        else:
            node.inputs, node.shapes, node.dtypes = (None, edge), (None, arr.shape), (None, arr.dtype)
            needs = _NEEDS_SECOND[t._rg]
    else:
        node.inputs, node.shapes, node.dtypes, needs = zip(*map(_input_meta, args))
    node.needs = needs
    node.saved = _saved(_plan_of(op, needs), args, result) if op.saves else None
    node.seq = _next_seq()
    out = result.array
    node.out_shape = out.shape
    node.out_dtype = out.dtype
    node.device = result.device
    if spans_used[0]:
        span = _get_span()
        if span is not None:
            node.span = span
    if _tracing[0]:
        node.args = args
    return node


def _saved(plan, args, result):
    """What a node keeps of its row's saves, by `plan` (_save_plan): each entry (kind, value,
    version, producer)."""
    saved = []
    for s in plan:
        if s is None:
            saved.append(_NOT_KEPT)
        elif s is _OUT:
            vc = result._vc
            saved.append((SAVED_OUTPUT, (result.array, vc), vc[0], None))
        else:
            a = args[s]
            if a.__class__ is Tensor:
                vc = a._vc
                if vc.__class__ is not list:  # an InferenceVersion
                    raise RuntimeError(INFERENCE_SAVED)
                saved.append((SAVED_TENSOR, a, vc[0], a._fn))
            else:
                saved.append((SAVED_VALUE, a, 0, None))
    return saved


_OUT = "out"


def _save_plan(op, needs):
    """op.saves as a call with len(needs) arguments keeps it: None where no input that wants a
    gradient uses the entry, or where it names an argument the call left out (both keep
    _NOT_KEPT); _OUT (this very object) for the output; else the argument's index. A _ValuesPlan
    when it keeps no output and no argument that wants a gradient: in run_op's straight line
    (one tensor, which wants one) it keeps only numbers."""
    users = op.save_for or ((),) * len(op.saves)
    plan = tuple(_OUT if s == "out" else
                 None if s >= len(needs) or (op.save_for is not None and not any(needs[j] for j in u)) else s
                 for s, u in zip(op.saves, users))
    return _ValuesPlan(plan) if all(s is None or (s is not _OUT and not needs[s]) for s in plan) else plan


def _plan_of(op, needs):
    """op's save plan for a call whose inputs want gradients as `needs` says, made once."""
    plan = op.keeps.get(needs)
    if plan is None:
        plan = op.keeps[needs] = _save_plan(op, needs)
    return plan


class _ValuesPlan(tuple):
    """A save plan that run_op's straight line fills with numbers only."""
    __slots__ = ()


def saved_entries(saved):
    """A node's saved entries (kind, value, version, producer). A node whose row keeps only
    numbers of its call keeps them as a plain tuple of the values, the commonest case in a
    chain of small ops, which the backward then takes as they are."""
    if saved.__class__ is tuple:
        return [(SAVED_VALUE, v, 0, None) for v in saved]
    return saved


def _broadcast_shapes(shapes):
    """The shape `shapes` broadcast to; PyTorch's message (about the last mismatching dimension) if none."""
    out = ()
    for s in shapes:
        n = max(len(out), len(s))
        a, b = (1,) * (n - len(out)) + out, (1,) * (n - len(s)) + tuple(s)
        for i in range(n - 1, -1, -1):
            x, y = a[i], b[i]
            if x != y and x != 1 and y != 1:
                raise RuntimeError(f"The size of tensor a ({x}) must match the size of tensor b ({y}) at "
                                   f"non-singleton dimension {i}")
        out = tuple(y if x == 1 else x for x, y in zip(a, b))
    return out


def _broadcast_check(sa, sb):
    _broadcast_shapes((sa, sb))


class _TensorType(type):
    """Tensor's metaclass (PyTorch's is torch._C._TensorMeta). Calling the class is the legacy
    constructor torch.Tensor(...) (see `_legacy_new`); the engine makes its tensors with `_new_tensor`,
    type's own call, which runs no Python __new__ or __init__ and costs a quarter less than
    object.__new__(Tensor) -- every op makes one."""

    def __call__(cls, *args, device=None):
        return _legacy_new(None, "new", args, device)


class Tensor(metaclass=_TensorType):
    """An n-dimensional array that can record how it was computed."""

    # Every tensor sets the slots; the rest are class defaults until a tensor
    # gets a grad, hooks, a retained grad, a leaf node or a view base.
    __slots__ = ("array", "device", "_rg", "_fn", "_vc", "_base", "__dict__", "__weakref__")
    _grad = None
    _accum = None
    _hooks = None
    _retains = False
    _view = None
    _reshaped = ()  # the steps undoing each in-place reshape of this base (t_, squeeze_, ...): view_chain
    # numpy defers to our reflected operators: ndarray * Tensor -> Tensor.__rmul__
    __array_ufunc__ = None
    __hash__ = object.__hash__

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

    # ------------------------------------------------------------ memory layout (numpy's strides, in elements)
    def stride(self, dim=None):
        """The step in elements from one index to the next along each dim (or along `dim`)."""
        arr = self.array
        size = arr.itemsize
        strides = tuple(s // size for s in getattr(arr, "strides", ()))
        return strides if dim is None else strides[_dim(dim, arr.ndim)]

    def is_contiguous(self, memory_format=None):
        """Row-major without gaps (size-1 dims and empty tensors count as contiguous, as in PyTorch)."""
        flags = getattr(self.array, "flags", None)  # a Python number (no array) is one element
        return flags is None or bool(flags.c_contiguous)

    def contiguous(self, memory_format=None):
        """self when already row-major, else a row-major copy (CloneBackward0, as PyTorch's)."""
        return self if self.is_contiguous() else self.clone()

    def storage_offset(self):
        """Where the first element sits in the memory the tensor shares with its base, in elements."""
        arr = _storage(self)
        root = arr
        while isinstance(root.base, arr.__class__):
            root = root.base
        return (_data_address(arr) - _data_address(root)) // arr.itemsize

    def data_ptr(self):
        """The memory address of the first element: equal for tensors that start at the same place."""
        return _data_address(_storage(self))

    def is_floating_point(self):
        return self.array.dtype.kind == "f"

    @property
    def is_cuda(self):
        return self.device.type == "cuda"

    @property
    def grad_fn(self):
        if self._base is not None:
            _refresh(self)
        fn = self._fn
        return fn if fn is None or fn.__class__ is not Node else named(fn)

    @property
    def requires_grad(self):
        if self._base is not None:  # a view requires grad when its base does (it may have no node yet)
            return self._rg or self._base._rg
        return self._rg

    @requires_grad.setter
    def requires_grad(self, value):
        if value.__class__ is not bool:
            raise RuntimeError("requires_grad must be a bool")
        self._set_requires_grad(value, "only Tensors of floating point and complex dtype can require gradients")

    @requires_grad.deleter
    def requires_grad(self):
        raise RuntimeError("requires_grad must be a bool")

    def _set_requires_grad(self, value, not_float_message):
        if self.grad_fn is not None:
            if not value:
                raise RuntimeError(
                    "you can only change requires_grad flags of leaf variables. If you want to use a "
                    "computed variable in a subgraph that doesn't require differentiation use "
                    "var_no_grad = var.detach().")
            return
        if value and self.array.dtype.kind != "f":
            raise RuntimeError(not_float_message)
        if value and self._vc.__class__ is InferenceVersion and not _inference_on():
            raise RuntimeError("Setting requires_grad=True on inference tensor outside InferenceMode is not allowed.")
        self._rg = value

    def requires_grad_(self, requires_grad=True):
        self._set_requires_grad(bool(requires_grad), "only Tensors of floating point dtype can require gradients")
        return self

    @property
    def is_leaf(self):
        return self.grad_fn is None

    @property
    def grad(self):
        if self._grad is None and not self._retains and self.grad_fn is not None:
            warnings.warn(NON_LEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value):
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError(f"assigned grad expected to be a Tensor or None but got grad of type "
                                f"{type(value).__name__}")
            if value is self:
                raise RuntimeError("can't assign Variable as its own grad")
            if value.array.dtype != self.array.dtype:
                raise RuntimeError(
                    f"attempting to assign a gradient with dtype '{_dt.cpp_name(value.dtype)}' to a tensor with "
                    f"grad_dtype '{_dt.scalar_name(self.dtype)}'. The gradient must match the tensor's grad_dtype "
                    f"(defaults to the tensor's dtype). You can set the tensor's grad_dtype attribute with a "
                    f"specific dtype, or None to allow any dtype. Set grad_dtype with caution. Diverging the dtypes "
                    f"of a tensor and its gradient may break downstream systems that assume they match.")
            if value.device is not self.device:
                raise RuntimeError("assigned grad has data located on a different device")
            if value.array.shape != self.array.shape:
                raise RuntimeError(f"attempting to assign a gradient of size '{list(value.array.shape)}' to a "
                                   f"tensor of size '{list(self.array.shape)}'. Please ensure that the gradient "
                                   f"and the tensor are the same size")
        self._grad = value

    @grad.deleter
    def grad(self):
        self._grad = None

    @property
    def retains_grad(self):
        return self._retains

    def is_inference(self):
        """Whether this tensor was made in inference mode (or is a view of one that was)."""
        return self._vc.__class__ is InferenceVersion

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
            raise TypeError(f"Variable data has to be a tensor, but got {type(value).__name__}")
        if value.device is not self.device:
            raise RuntimeError("data set to a tensor on another device")
        if self._rg and value.array.dtype.kind != "f":
            raise RuntimeError("data set to a tensor that requires gradients must be floating point or complex "
                               "dtype")
        self.array = _storage(value)

    @data.deleter
    def data(self):
        raise RuntimeError("Deleting tensor data is not allowed. Delete tensor instead!")

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
        if not self.requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        fn = self.grad_fn
        if fn is None:
            return
        self._retains = True
        fn.retain = weakref.ref(self)

    def register_hook(self, hook):
        """Call `hook(grad)` when this tensor's gradient is computed; a returned
        tensor replaces the gradient. Returns a handle with `remove()`."""
        if not self.requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if not callable(hook):
            raise TypeError("register_hook expects a function of one argument (the gradient)")
        fn = self.grad_fn
        if fn is not None:
            return fn.register_prehook(hook)
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
        if self._base is not None:
            raise RuntimeError("Can't detach views in-place. Use detach() instead. If you are using "
                               "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view "
                               "is set as True, gradients are views of DDP buckets, and hence detach_() "
                               "cannot be called on these gradients. To fix this error, please refer to "
                               "the Optimizer.zero_grad() function in torch/optim/optimizer.py as the "
                               "solution.")
        self._fn = None
        self._rg = False
        return self

    # ------------------------------------------------------------ conversion
    def item(self):
        if self.array.size != 1:
            raise RuntimeError(f"a Tensor with {self.array.size} elements cannot be converted to Scalar")
        return self.array.item()

    def tolist(self):
        return _host(self).tolist()

    def numpy(self, *, force=False):
        if force:  # PyTorch's force=True: detached, on the host, a copy where it must be
            return _np.asarray(_host(self.detach()))
        if self.requires_grad and is_grad_enabled():
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

    def type_as(self, other):
        """This tensor in other's dtype (itself when it has it already), as PyTorch's type_as."""
        return self.to(other.dtype)

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

    def __repr__(self):
        from .printing import tensor_repr
        if self.__dict__.get("_is_parameter"):  # nn.Parameter, as PyTorch prints one
            return "Parameter containing:\n" + tensor_repr(self)
        return tensor_repr(self)

    __str__ = __repr__

    def __format__(self, spec):
        """PyTorch's: a 0-d tensor formats as its Python number (`f"{t:.3f}"`, and `f"{t}"` is
        `2.5`); any other tensor only with an empty spec (its str), as object.__format__."""
        if self.array.ndim == 0:
            return self.item().__format__(spec)
        if spec:
            raise TypeError("unsupported format string passed to Tensor.__format__")
        return str(self)

    def __bool__(self):
        if self.array.size != 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(self.array.item())

    def __deepcopy__(self, memo):
        """PyTorch's: only a leaf copies (a graph's inner tensors raise), into memory of its own (a
        view's copy is no view), with its requires_grad, a deep copy of its grad and of the Python
        attributes set on it (an nn.Parameter stays one); not its hooks."""
        import copy  # (only a copy needs it: not at start-up)
        if not self.is_leaf:
            raise RuntimeError(DEEPCOPY_NON_LEAF)
        done = memo.get(id(self))
        if done is not None:
            return done
        new = _make(self.array.copy(), self.device, self._rg)
        memo[id(self)] = new
        if self._grad is not None:
            new._grad = copy.deepcopy(self._grad, memo)
        for key, value in self.__dict__.items():
            if key not in _ENGINE_ATTRIBUTES:
                new.__dict__[key] = copy.deepcopy(value, memo)
        return new

    def __float__(self):
        if self._rg:  # PyTorch 2.13's warning (once a process there; here once a place, as Python shows it)
            warnings.warn(SCALAR_OF_GRAD_WARNING, UserWarning, stacklevel=2)
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
    # Python's operators. The common operand types (a tensor or a Python
    # number) go straight to the row; anything else through the public
    # function, which converts it.
    def __add__(self, other):
        if other.__class__ in _FAST:
            return run_op(_ADD, (self, other), _NO_PARAMS)
        return _fn.add(self, other)

    def __radd__(self, other):
        if other.__class__ in _FAST:
            return run_op(_ADD, (other, self), _NO_PARAMS)
        return _fn.add(other, self)

    def __sub__(self, other):
        if other.__class__ in _FAST:
            return run_op(_SUB, (self, other), _NO_PARAMS)
        return _fn.sub(self, other)

    def __rsub__(self, other):
        if other.__class__ in _FAST:
            return run_op(_SUB, (other, self), _NO_PARAMS)
        return _fn.sub(other, self)

    def __mul__(self, other):
        if other.__class__ in _FAST:
            return run_op(_MUL, (self, other), _NO_PARAMS)
        return _fn.mul(self, other)

    def __rmul__(self, other):
        if other.__class__ in _FAST:
            return run_op(_MUL, (other, self), _NO_PARAMS)
        return _fn.mul(other, self)

    def __truediv__(self, other):
        if other.__class__ in _FAST:
            return run_op(_DIV, (self, other), _NO_PARAMS)
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
        return _fn.pow(self, other)

    def __rpow__(self, other):
        return _fn.pow(other, self)

    def __matmul__(self, other):
        return _fn.matmul(self, other)

    def __rmatmul__(self, other):
        return _fn.matmul(other, self)

    def __neg__(self):
        return run_op(_NEG, (self,), _NO_PARAMS)

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

    # & | ^ ~ << >>: PyTorch's bitwise ops (of bool tensors, the logical ones)
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

    # ---------------------------------------------------- methods with their own shape
    # (the methods that only forward to a public function of the same name,
    # and their in-place variants, come from the op table: see functions.py)
    def where(self, condition, other):
        return _fn.where(condition, self, other)

    def view_as(self, other):
        return _fn.view(self, other.shape)

    def reshape_as(self, other):
        return _fn.reshape(self, other.shape)

    def expand_as(self, other):
        return _fn.expand(self, other.shape)

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

    # in-place views (methods only, as in PyTorch): engine/inplace_views.py
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
        draws = _load_backend(self.device).from_host(_fn._uniform_draws(self.array.shape, a, b, self.array.dtype))
        return _fn._refill(self, draws, "UniformBackward0")

    def normal_(self, mean=0.0, std=1.0):
        """Fill with normal draws of the given mean and std (not PyTorch's numbers for a seed)."""
        if std < 0:
            raise RuntimeError(f"normal expects std >= 0.0, but found std {std}")
        draws = _fn.randn(*self.array.shape, dtype=self.dtype, device=self.device) * std + mean
        return _fn._refill(self, draws.array, "NormalBackward0")


_FAST = frozenset((Tensor, float, int))
# what the engine keeps in a tensor's __dict__ about its graph: not copied by deepcopy
_ENGINE_ATTRIBUTES = frozenset(("_grad", "_accum", "_hooks", "_retains", "_view", "_reshaped"))
DEEPCOPY_NON_LEAF = ("Only Tensors created explicitly by the user (graph leaves) support the deepcopy protocol at the "
                     "moment.  If you were attempting to deepcopy a module, this may be because of a "
                     "torch.nn.utils.weight_norm usage, see https://github.com/pytorch/pytorch/pull/103001")
_new_tensor = type.__call__.__get__(Tensor)  # a bare Tensor, its slots unset (see _TensorType)
# PyTorch's ScalarType names, as its kernels' "not implemented for 'Long'" messages say them
_SCALAR_TYPE_NAMES = {"int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte",
                      "bool": "Bool"}
_ADD, _SUB, _MUL, _DIV, _NEG = TABLE["add"], TABLE["sub"], TABLE["mul"], TABLE["div"], TABLE["neg"]
_AS_STRIDED = TABLE["as_strided"]
_elision.OPERATORS.update(f.__code__ for f in (Tensor.__add__, Tensor.__radd__, Tensor.__sub__, Tensor.__rsub__,
                                                Tensor.__mul__, Tensor.__rmul__, Tensor.__truediv__))


def _dim(dim, ndim):
    n = max(ndim, 1)
    if not -n <= dim < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})")
    return dim % n


def _host(t):
    b = t.device.backend or _load_backend(t.device)
    return b.to_host(t.array)


from . import functions as _fn  # noqa: E402  (functions builds on Tensor)
from . import inplace_views as _views  # noqa: E402


# ------------------------------------------------------------------ legacy constructors

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
    if isinstance(first, (bool, int, float, _np.number, _np.bool_)):
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
