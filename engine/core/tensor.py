"""The core of a tensor: an array with PyTorch's autograd attributes (TensorBase), and `run_op`,
the one path by which a row of the op table runs and records its backward node.

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

from .. import backend as _backend
from .. import dtypes as _dt
from . import elision as _elision
from .grad_mode import is_grad_enabled, is_inference_mode_enabled, inference_used, InferenceVersion
from .graph import Node, named, accumulator_of, RemovableHandle, tracing, next_sequence, get_span, spans_used
from .saving import SAVED_VALUE, SAVED_TENSOR, SAVED_OUTPUT, NOT_KEPT, OUT, ValuesPlan, save_plan_of, SAVED_HOOKS, \
    packed
from .op import TABLE

__all__ = ["TensorBase", "Size", "apply", "run_op"]

_grad_enabled = is_grad_enabled
_inference_on = is_inference_mode_enabled
_np_generic = _np.generic
_np_ndarray = _np.ndarray
_ELIDE_BYTES = _elision.MIN_BYTES  # below it no operand is worth reusing: not even asked
_load_backend = _backend.backend_for

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


def array_module(device):
    return (device.backend or _load_backend(device)).xp


def make_tensor(array, device, requires_grad=False, grad_fn=None, vc=None):
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


_elision.use_maker(make_tensor)


def storage_of(t):
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


# Forward-mode AD (core/forward.py): while a dual level is open, dual_run[0] is the function that runs
# an op with its tangents (run_op's one test) and dual_hooks hold its other entries into the core
dual_run = [None]
dual_hooks = {}


def run_op(op, args, params):
    """apply() with the arguments as a tuple, the parameters as a dict: the one path of every op. A call of
    one tensor (and a number), the commonest, is run and recorded with no call but the row's forward."""
    if dual_run[0]:
        return dual_run[0](op, args, params)
    if op.special:  # a view row, or one that moves to another device
        out, device, requires, x, _ = _forward_of_many(op, args, params, True)
        return _special_result(op, args, params, out, x, device, requires)
    a = args[0]
    n = len(args)
    t = None  # the one tensor of a call of one (maybe with a number), at 0 (alone), 1 (first) or 2 (second)
    if n == 2:
        if a.__class__ is Tensor:
            if args[1].__class__ is not Tensor:
                t, at = a, 1
        elif args[1].__class__ is Tensor:
            t, at = args[1], 2
    elif n == 1 and a.__class__ is Tensor:
        t, at = a, 0
    if t is None:  # several tensors (or none)
        out, device, requires, x, b = _forward_of_many(op, args, params, False)
    else:
        if t._base is not None:
            refresh_view(t)
        device = t.device
        requires, x = t._rg, t.array
        b = device.backend or _load_backend(device)
        if params:
            out = op.forward(b.xp, x, **params) if at == 0 else op.forward(b.xp, x, args[1], **params) \
                if at == 1 else op.forward(b.xp, a, x, **params)
        elif at == 0:
            out = op.forward(b.xp, x)
        elif x.__class__ is not _np_ndarray or op.ufunc is None or x.nbytes < _ELIDE_BYTES \
                or (into := _elision.into_one(op, args, x, at == 1, requires)) is None:
            out = op.forward(b.xp, x, args[1]) if at == 1 else op.forward(b.xp, a, x)
        else:  # a temporary's memory takes the result (elision.py, which counts this frame's references)
            out = getattr(b.xp, op.ufunc)(x, args[1], out=into) if at == 1 else getattr(b.xp, op.ufunc)(a, x, out=into)
    if out.__class__ not in b.native:
        out = b.xp.asarray(out)
    result = _new_tensor()
    result.array, result.device = out, device
    result._base = result._fn = None
    if inference_used[0] and _inference_on():
        return _inference_result(result)
    result._vc = [0]
    if not (requires and op.differentiable and _grad_enabled()):
        result._rg = False
        return result
    result._rg = True
    if t is None:
        result._fn = record_node(op, args, params, result)
        return result
    node = result._fn = Node()  # a one-tensor call's node, straight-line (record_node makes the others)
    node.op, node.params = op, params or NO_PARAMS
    node.pre_hooks = node.retain = None
    edge = t._fn or (accumulator_of(t) if t._base is None else edge_of_leaf(t))
    node.inputs = (edge, None) if at == 1 else (edge,) if at == 0 else (None, edge)
    needs = node.needs = _WANTED[at]
    meta = SCALAR_META.get(x.__class__) if out.__class__ is x.__class__ else None  # (a numpy scalar's, made once)
    if meta is not None:
        node.shapes, node.dtypes, node.out_shape, node.out_dtype = meta[at]
    else:
        node.shapes, node.dtypes = _input_shapes(x, at)
        node.out_shape, node.out_dtype = out.shape, out.dtype
    if op.saves:
        plan = op.keeps.get(needs) or save_plan_of(op, needs)
        if plan.__class__ is ValuesPlan:  # only numbers of the call: kept as they are (saving.saved_entries)
            saved = []
            for s in plan:
                saved.append(None if s is None else args[s])
            node.saved = tuple(saved)
        else:
            node.saved = _saved(plan, args, result)
    else:
        node.saved = None
    node.seq, node.device = next_sequence(), device
    if spans_used[0] or tracing[0]:
        _annotate(node, args)
    return result


def _inference_result(result):
    """A result made in inference mode: no gradient, no version counting (PyTorch's inference tensors)."""
    result._rg = False
    result._vc = InferenceVersion((0,))
    return result


def _input_shapes(x, at):
    """A one-tensor call's (shapes, dtypes) of its inputs: the tensor's array `x` alone (at 0), first (1)
    or second (2), beside a number."""
    shape, dtype = x.shape, x.dtype
    return ((shape,), (dtype,)) if at == 0 else ((shape, None), (dtype, None)) if at == 1 else \
        ((None, shape), (None, dtype))


def _forward_of_many(op, args, params, special):
    """run_op's operands and forward for a call of several tensors (or none): (result array,
    device, whether any input wants a gradient, the first input's array, backend)."""
    device, requires, arrays = _gather(op, args)
    b = device.backend or _load_backend(device)
    if special and op.is_view and isinstance(arrays[0], _np_generic):
        arrays = (storage_of(args[0]),) + tuple(arrays[1:])
    try:
        if params:
            out = op.forward(b.xp, *arrays, **params)
        elif len(args) == 2 and op.ufunc is not None and (into := _elision.into(op, args, arrays, requires)) is not None:
            out = getattr(b.xp, op.ufunc)(arrays[0], arrays[1], out=into)
        else:
            out = op.forward(b.xp, *arrays)
    except ValueError:
        if op.elementwise:  # shapes that do not broadcast: PyTorch's message (the array module's words otherwise)
            broadcast_shapes([x.shape for x, a in zip(arrays, args) if a.__class__ is Tensor])
        raise
    return out, device, requires, arrays[0], b


def _special_result(op, args, params, out, x, device, requires):
    """run_op's result of a view row -- a view of args[0] where it shares its memory -- or of a row
    that moves its input to another device."""
    parent = None
    if op.moves_device:
        device = params["device"]
    elif (device.backend or _load_backend(device)).xp.may_share_memory(out, x):
        parent = args[0]
    b = device.backend or _load_backend(device)
    if out.__class__ not in b.native:
        out = b.xp.asarray(out)
    result = make_tensor(out, device) if parent is None else make_tensor(out, device, False, None, parent._vc)
    if requires and op.differentiable and _grad_enabled() and not (inference_used[0] and _inference_on()):
        result._rg = True
        result._fn = record_node(op, args, params, result)
    if parent is not None:
        _link_view(result, parent, op, params)
    elif op.is_view and result._fn is not None:
        result._fn.copied = True
    return result


def _gather(op, args):
    """(device, requires grad, arrays) of any arguments: one device, one dtype (PyTorch's
    promotion). Shapes are the forward's to check (its ValueError becomes PyTorch's message)."""
    device = dtype = None
    requires = promote = False
    arrays = []
    for a in args:
        if a.__class__ is Tensor:
            arr = a.array
            if device is None:
                device, dtype = a.device, arr.dtype
            else:
                if a.device is not device:
                    raise _mixed_devices(device, a.device)
                if arr.dtype is not dtype:
                    promote = True
            if a._base is not None:
                refresh_view(a)
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


def refresh_view(t):
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
    t._fn = record_node(TABLE["as_strided"], (base,), {"chain": view_chain(t)}, t)
    t._rg = True
    if t._retains:
        move_retain(t, old, t._fn)
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


def move_retain(t, old, new):
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


NO_PARAMS = {}  # shared by every node without parameters: never written to
_NUMBER_INPUT = (None, None, None, False)


def _input_meta(a):
    """(edge, shape, dtype, needs grad) of one argument of a recorded op."""
    if a.__class__ is Tensor:
        arr = a.array
        if a._rg:
            fn = a._fn
            return (fn if fn is not None else edge_of_leaf(a)), arr.shape, arr.dtype, True
        return None, arr.shape, arr.dtype, False
    return _NUMBER_INPUT


def edge_of_leaf(a):
    """Where the gradient of a tensor without a node goes: its AccumulateGrad
    (None for a view made under no_grad or in inference mode, which passes no gradient)."""
    if a._base is None or (a._view.meta != VIEW_NO_GRAD and a._view.meta != VIEW_INFERENCE):
        return accumulator_of(a)
    return None


# which inputs of a one-tensor call want a gradient: the tensor alone (at 0), first (1), second (2)
_WANTED = ((True,), (True, False), (False, True))




def _scalar_meta(zero):
    """What a node keeps of a numpy scalar input of zero's type whose output is a scalar of that
    type too: (shapes, dtypes, out_shape, out_dtype) for a call of it alone, of it then a number,
    and of a number then it."""
    shape, dtype = zero.shape, zero.dtype
    return (((shape,), (dtype,), shape, dtype), ((shape, None), (dtype, None), shape, dtype),
            ((None, shape), (None, dtype), shape, dtype))


SCALAR_META = {t: _scalar_meta(t(0)) for t in set(_np.sctypeDict.values())
               if issubclass(t, _np_generic) and _np.dtype(t).kind in "biufc"}


def record_node(op, args, params, result):
    """The backward node of one op application whose output is `result`.

    The node keeps what `op.saves` names -- an input tensor (checked against
    its version when used) or the output's array and version counter (not
    the tensor: no cycle) -- except what no wanted gradient uses (`save_for`).
    Every node is made here or, for a call with one tensor, in run_op (once per
    recorded op, so the fields are filled in directly rather than through a
    constructor call)."""
    node = Node()
    node.op = op
    node.params = params or NO_PARAMS
    node.pre_hooks = node.retain = None
    if len(args) == 2:  # (the commonest: a binary op's two tensors, each one's _input_meta written out,
        # as run_op writes out a one-tensor call's)
        t0, t1 = args
        if t0.__class__ is Tensor:
            x0 = t0.array
            s0, d0 = x0.shape, x0.dtype
            if t0._rg:
                n0, e0 = True, t0._fn or (accumulator_of(t0) if t0._base is None else edge_of_leaf(t0))
            else:
                n0, e0 = False, None
        else:
            e0, s0, d0, n0 = _NUMBER_INPUT
        if t1.__class__ is Tensor:
            x1 = t1.array
            s1, d1 = x1.shape, x1.dtype
            if t1._rg:
                n1, e1 = True, t1._fn or (accumulator_of(t1) if t1._base is None else edge_of_leaf(t1))
            else:
                n1, e1 = False, None
        else:
            e1, s1, d1, n1 = _NUMBER_INPUT
        node.inputs, node.shapes, node.dtypes, needs = (e0, e1), (s0, s1), (d0, d1), (n0, n1)
    else:
        node.inputs, node.shapes, node.dtypes, needs = zip(*map(_input_meta, args))
    node.needs = needs
    node.saved = _saved(save_plan_of(op, needs), args, result) if op.saves else None
    out = result.array
    node.out_shape, node.out_dtype = out.shape, out.dtype
    node.seq = next_sequence()
    node.device = result.device
    if spans_used[0] or tracing[0]:
        _annotate(node, args)
    return node


def _annotate(node, args):
    """The user's line (a span) where one is known, and the arguments where a trace wants them."""
    if spans_used[0]:
        span = get_span()
        if span is not None:
            node.span = span
    if tracing[0]:
        node.args = args


def _saved(plan, args, result):
    """What a node keeps of its row's saves, by `plan` (saving.save_plan_of): each entry (kind, value,
    version, producer)."""
    saved = []
    for s in plan:
        if s is None:
            saved.append(NOT_KEPT)
        elif s is OUT:
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
    return packed(saved, result) if SAVED_HOOKS else saved


def broadcast_shapes(shapes):
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


def check_broadcastable(sa, sb):
    broadcast_shapes((sa, sb))


class TensorBase:
    """The data and autograd state of a tensor, and what the core itself needs of one.

    The class users see is engine/tensor_class.py's Tensor, which derives from this one with the methods
    of the op table and the operators; the core makes its tensors of that class, which it is told
    of when that class is made (__init_subclass__), so nothing here imports upwards."""

    __slots__ = ("array", "device", "_rg", "_fn", "_vc", "_base", "__dict__", "__weakref__")

    _grad = None

    _accum = None

    _hooks = None

    _retains = False

    _view = None

    _reshaped = ()  # the steps undoing each in-place reshape of this base (t_, squeeze_, ...): view_chain

    __array_ufunc__ = None

    __hash__ = object.__hash__

    @property
    def dtype(self):
        return _dt.dtype_of(self.array)

    @property
    def shape(self):
        return Size(self.array.shape)

    def size(self, dim=None):
        if dim is None:
            return Size(self.array.shape)
        return self.array.shape[wrap_dim(dim, self.array.ndim)]

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

    def stride(self, dim=None):
        """The step in elements from one index to the next along each dim (or along `dim`)."""
        arr = self.array
        size = arr.itemsize
        strides = tuple(s // size for s in getattr(arr, "strides", ()))
        return strides if dim is None else strides[wrap_dim(dim, arr.ndim)]

    def is_contiguous(self, memory_format=None):
        """Row-major without gaps (size-1 dims and empty tensors count as contiguous, as in PyTorch)."""
        flags = getattr(self.array, "flags", None)  # a Python number (no array) is one element
        return flags is None or bool(flags.c_contiguous)

    def storage_offset(self):
        """Where the first element sits in the memory the tensor shares with its base, in elements."""
        arr = storage_of(self)
        root = arr
        while isinstance(root.base, arr.__class__):
            root = root.base
        return (_data_address(arr) - _data_address(root)) // arr.itemsize

    def data_ptr(self):
        """The memory address of the first element: equal for tensors that start at the same place."""
        return _data_address(storage_of(self))

    def is_floating_point(self):
        return self.array.dtype.kind == "f"

    @property
    def is_cuda(self):
        return self.device.type == "cuda"

    @property
    def grad_fn(self):
        if self._base is not None:
            refresh_view(self)
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
            if not isinstance(value, TensorBase):
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
        return make_tensor(storage_of(self), self.device)

    @data.setter
    def data(self, value):
        if not isinstance(value, TensorBase):
            raise TypeError(f"Variable data has to be a tensor, but got {type(value).__name__}")
        if value.device is not self.device:
            raise RuntimeError("data set to a tensor on another device")
        if self._rg and value.array.dtype.kind != "f":
            raise RuntimeError("data set to a tensor that requires gradients must be floating point or complex "
                               "dtype")
        self.array = storage_of(value)

    @data.deleter
    def data(self):
        raise RuntimeError("Deleting tensor data is not allowed. Delete tensor instead!")

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
            return fn.add_gradient_hook(hook)
        if self._hooks is None:
            self._hooks = {}
        handle = RemovableHandle(self._hooks)
        self._hooks[handle.id] = hook
        return handle

    def detach(self):
        """The same values, cut from the graph (shares memory and version counter)."""
        return make_tensor(storage_of(self), self.device, False, None, self._vc)

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

    def item(self):
        if self.array.size != 1:
            raise RuntimeError(f"a Tensor with {self.array.size} elements cannot be converted to Scalar")
        return self.array.item()

    def tolist(self):
        return host_array(self).tolist()

    def numpy(self, *, force=False):
        if force:  # PyTorch's force=True: detached, on the host, a copy where it must be
            return _np.asarray(host_array(self.detach()))
        if self.requires_grad and is_grad_enabled():
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. "
                               "Use tensor.detach().numpy() instead.")
        if self.device.type != "cpu":
            raise TypeError(f"can't convert {self.device} device type tensor to numpy. "
                            "Use Tensor.cpu() to copy the tensor to host memory first.")
        return storage_of(self)

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
        new = make_tensor(self.array.copy(), self.device, self._rg)
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

    def __array__(self, dtype=None, copy=None):
        a = _np.asarray(host_array(self))
        return a if dtype is None else a.astype(dtype)

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        if cls.__bases__ == (TensorBase,):  # the public class (not nn.Parameter, which derives from it)
            _bind(cls)


# TensorBase's methods are Tensor's to a user: Python names a method by its qualified name in its
# messages (x.item(3): "Tensor.item() takes 1 positional argument but 2 were given")
for _name, _member in vars(TensorBase).items():
    if callable(_member) and getattr(_member, "__qualname__", "").startswith("TensorBase."):
        _member.__qualname__ = "Tensor." + _member.__qualname__[len("TensorBase."):]


# what the engine keeps in a tensor's __dict__ about its graph: not copied by deepcopy
_ENGINE_ATTRIBUTES = frozenset(("_grad", "_accum", "_hooks", "_retains", "_view", "_reshaped"))
DEEPCOPY_NON_LEAF = ("Only Tensors created explicitly by the user (graph leaves) support the deepcopy protocol at the "
                     "moment.  If you were attempting to deepcopy a module, this may be because of a "
                     "torch.nn.utils.weight_norm usage, see https://github.com/pytorch/pytorch/pull/103001")


def _bind(cls):
    """Make `cls` the class of the tensors the core makes (see TensorBase.__init_subclass__)."""
    global Tensor, _new_tensor
    Tensor = cls
    _new_tensor = type.__call__.__get__(cls)  # a bare tensor, its slots unset: no __new__ or __init__ runs
    for listener in _class_listeners:
        listener(cls)


Tensor = None       # the public class, once engine/tensor_class.py has made it
_new_tensor = None
_class_listeners = []


def when_tensor_class_made(listener):
    """Call `listener(cls)` once the public Tensor class exists (now, if it does): for a core module
    that makes tensors or tests for them in a hot path and so keeps the class in a global of its own."""
    _class_listeners.append(listener)
    if Tensor is not None:
        listener(Tensor)


def wrap_dim(dim, ndim):
    """`dim` in [0, ndim) (a negative one counts from the end), PyTorch's errors otherwise."""
    if dim.__class__ is not int:  # (a numpy integer, an integer tensor of one element: what has __index__)
        if isinstance(dim, bool) or not hasattr(dim, "__index__"):
            raise TypeError(f"argument 'dim' must be int, not {type(dim).__name__}")
        dim = dim.__index__()
    n = max(ndim, 1)
    if not -n <= dim < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})")
    return dim % n


def host_array(t):
    b = t.device.backend or _load_backend(t.device)
    return b.to_host(t.array)
