"""In-place ops, as PyTorch's autograd records them.

`inplace(target, compute, *args)` runs `compute` -- an ordinary out-of-place
public function -- on the target's current value and writes the result back
into the target's memory. So every in-place variant (`exp_`, `add_(b,
alpha=2)`, `clamp_(min=t)`, `x[key] = v`) shares its out-of-place twin's
argument handling and derivative, and only the rebasing below is special:

- the target's version counter (shared with its base and every view of it)
  is bumped, so backward refuses values saved before the change;
- a plain tensor's node becomes the op's node (a retained grad follows it);
- a view's base gets a CopySlices node -- the base with the view's elements
  replaced by the op's result -- and every view of that base re-derives its
  own node from the base's new graph when next used (AsStridedBackward0).

The checks happen first, in PyTorch's order and with its messages: views of
multi-output functions and views made under no_grad may not be written with
history; neither may a leaf that requires grad, nor a view of one.
"""
from numpy import ndarray as _np_ndarray

from .graph import peek_sequence
from .grad_mode import is_grad_enabled, is_inference_mode_enabled, inference_used
from .op import TABLE
from .saving import SAVED_TENSOR, SAVED_OUTPUT, saved_entries
from .tensor import (dual_run, dual_hooks, TensorBase, make_tensor, storage_of, record_node, refresh_view,
                     move_retain, VIEW_DEFAULT, VIEW_NO_GRAD, VIEW_INFERENCE, multi_output_message, short_name,
                     view_chain)

__all__ = ["inplace", "assign"]


LEAF_MESSAGE = "a leaf Variable that requires grad is being used in an in-place operation."
VIEW_OF_LEAF_MESSAGE = "a view of a leaf Variable that requires grad is being used in an in-place operation."
NO_GRAD_VIEW_MESSAGE = (
    "A view was created in no_grad mode and is being modified inplace with grad mode enabled. Given that "
    "this use case is ambiguous and error-prone, it is forbidden. You can clarify your code by moving both "
    "the view and the inplace either both inside the no_grad block (if you don't want the inplace to be "
    "tracked) or both outside (if you want the inplace to be tracked).")
INFERENCE_VIEW_MESSAGE = (
    "A view was created in inference mode and is being modified inplace in normal mode. Given that this use "
    "case is ambiguous and error-prone, it is forbidden. You can clarify your code by moving both the view and "
    "the inplace either both inside the inference_mode block (if you don't want the inplace to be tracked) or "
    "both outside (if you want the inplace to be tracked).")
INFERENCE_INPLACE_MESSAGE = (
    "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone to get a "
    "normal tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 for more details.")
OVERLAP_MESSAGE = ("unsupported operation: more than one element of the written-to tensor refers to a single "
                   "memory location. Please clone() the tensor before performing the operation.")


def _no_grad_view_message(view):
    fn = view._fn
    if fn is None:
        return NO_GRAD_VIEW_MESSAGE
    return (f"Output {fn.output_nr} of {short_name(fn)} is a view of a view which was created in no_grad mode "
            f"and is being modified inplace with grad mode enabled." + NO_GRAD_VIEW_MESSAGE[NO_GRAD_VIEW_MESSAGE
                                                                        .index(" Given that"):])


def check_inplace(target, args):
    """PyTorch's check_inplace: refuse in-place ops that autograd could not record correctly.
    Whether the op is recorded at all (grad mode on, some tensor requiring grad)."""
    if not is_grad_enabled() or (inference_used[0] and is_inference_mode_enabled()):
        return False  # nothing is recorded
    if not (target.requires_grad or any(isinstance(a, TensorBase) and a.requires_grad for a in args)):
        return False
    if target._base is not None:
        meta = target._view.meta
        if meta == VIEW_NO_GRAD:
            raise RuntimeError(_no_grad_view_message(target))
        if meta == VIEW_INFERENCE:
            raise RuntimeError(INFERENCE_VIEW_MESSAGE)
        if meta != VIEW_DEFAULT:
            raise RuntimeError(multi_output_message(target, "is being"))
        if target.requires_grad and target._base._fn is None:
            raise RuntimeError(VIEW_OF_LEAF_MESSAGE)
    if target._rg and target._fn is None:
        raise RuntimeError(LEAF_MESSAGE)
    return True


def inplace(target, compute, *args, **kwargs):
    """`target` <- compute(target, *args, **kwargs), in place, with its history rebased."""
    recorded = check_inplace(target, args)
    if not _writable(target):
        raise RuntimeError(OVERLAP_MESSAGE)
    if not recorded and target._base is None:  # (an update under no_grad): no graph, no old value to keep
        _store(target, compute(target, *args, **kwargs))
        return target
    # the old value as a tensor of its own: same memory, same place in the graph, its own version counter
    old = make_tensor(target.array, target.device, target.requires_grad, target.grad_fn, [target._vc[0]])
    base = target._base
    if base is not None and base._rg and is_grad_enabled():
        # as PyTorch's CopySlices: the gradient of a view's old value goes straight into the base's
        # old graph (the view's own old node, and hooks on it, are not on that path)
        old._fn = record_node(TABLE["as_strided"], (base,), {"chain": view_chain(target)}, old)
        old._rg = True
    if dual_run[0]:
        dual_hooks["share"](target, old)  # forward AD: the old value's tangent is the target's
    mark = peek_sequence()
    result = compute(old, *args, **kwargs)
    if result.array is target.array:
        result = make_tensor(result.array.copy(), result.device, result._rg, result._fn)
    if _saved_by_new_nodes(old, result._fn, mark):
        old.array = old.array.copy()  # the op's backward needs the value from before the write
    _store(target, result)
    node = result._fn
    if node is not None:
        if target._base is not None:
            rebase_view(target, result)
        else:
            _rebase(target, node)
    return target


def update(target, ufunc, other):
    """`target` <- ufunc(target, other) in the target's own memory, in one pass, where that is
    what inplace()'s general path would leave there and nothing is recorded: an update under
    no_grad (`p -= lr * p.grad`), for a plain float tensor on the CPU and a Python number or a
    tensor of its dtype and shape (or 0-d). `ufunc`: the row's (a row's `ufunc` is exactly its
    forward, engine/core/op.py), numpy's add, subtract or multiply. False where it does not
    apply: the caller then takes the general path, which gives the same bits."""
    arr = target.array
    if (target._base is not None or arr.__class__ is not _np_ndarray or arr.dtype.kind != "f"
            or dual_run[0] or not arr.flags.writeable):
        return False
    cls = other.__class__
    if cls is float or cls is int:
        value = other
    elif isinstance(other, TensorBase) and other._base is None and other.device is target.device:
        value = other.array  # an array, or a 0-d tensor's numpy scalar
        if value.__class__ is not arr.dtype.type and (value.__class__ is not _np_ndarray or value.dtype != arr.dtype
                                                      or (value.shape != arr.shape and value.ndim)):
            return False
    else:
        return False
    if check_inplace(target, (other,)) or not _writable(target):
        return False  # recorded, or refused: the general path's
    ufunc(arr, value, out=arr)
    _bump(target)
    return True


def _store(target, result):
    """Write `result` into the target's memory (its shape, a dtype it may be cast to) and bump the
    version counter that the target shares with its base and views."""
    if result.array.shape != target.array.shape:
        raise RuntimeError(f"output with shape {list(target.shape)} doesn't match the broadcast shape "
                           f"{list(result.shape)}")
    _check_cast(result, target)
    assign(target, result.array)
    if dual_run[0]:
        dual_hooks["write"](target, result)  # forward AD: the target's tangent is the result's


def assign(target, array):
    """The target's memory takes `array` (of its shape; another dtype is cast as numpy assigns) and the
    version counter it shares with its base and views goes up by one: an in-place write that the graph
    does not record -- an update under no_grad, an optimiser's step, batch norm's running statistics --
    with none of an op's bookkeeping."""
    storage_of(target)[...] = array
    _bump(target)


def _bump(target):
    """One more write to the target's memory: the version counter it shares with its base and views
    goes up."""
    vc = target._vc
    if vc.__class__ is not list and not is_inference_mode_enabled():
        # PyTorch's check is in bumping the version counter, after the write
        raise RuntimeError(INFERENCE_INPLACE_MESSAGE)
    vc[0] += 1


def _writable(t):
    arr = storage_of(t)
    flags = getattr(arr, "flags", None)
    if flags is not None and not getattr(flags, "writeable", True):
        return False
    view = t._view
    return view is None or not any(op.view_overlaps for op, _ in view.chain)


def _check_cast(result, target):
    kind_t, kind_r = target.array.dtype.kind, result.array.dtype.kind
    order = "biuf"
    if order.index(kind_r) > order.index(kind_t):
        raise RuntimeError(f"result type {type_word(result.dtype)} can't be cast to the desired output type "
                           f"{type_word(target.dtype)}")


def type_word(d):
    return {"float32": "Float", "float64": "Double", "float16": "Half", "int64": "Long", "int32": "Int",
            "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool"}[d.name]


def _saved_by_new_nodes(old, root, mark):
    """Whether a node made by this in-place op (sequence number from `mark` on) saved `old`."""
    stack = [root] if root is not None else []
    seen = set()
    while stack:
        node = stack.pop()
        if node is None or node in seen or node.seq < mark or node.op is None:
            continue
        seen.add(node)
        for kind, value, _version, _producer in saved_entries(node.saved or ()):
            if kind == SAVED_TENSOR and value is old:
                return True
        stack.extend(node.inputs)
    return False


def _rebase(target, node):
    """The target's history is now the op's node."""
    if node.saved and node.saved.__class__ is not tuple:  # (a tuple keeps numbers only)
        # a saved output now lives in the target: follow its array and version counter
        node.saved = [(k, (target.array, target._vc), target._vc[0], p) if k == SAVED_OUTPUT else (k, v, ver, p)
                      for k, v, ver, p in node.saved]
    old = target._fn
    target._fn = node
    target._rg = True
    if target._retains:
        move_retain(target, old, node)


def rebase_view(view, result):
    """An in-place op on a view: the base's history becomes CopySlices (the base
    with the view's elements replaced by `result`); the view re-derives its own."""
    base = view._base
    before = make_tensor(base.array, base.device, base._rg, base._fn, [base._vc[0]])
    node = record_node(TABLE["copy_slices"], (before, result), {"chain": view_chain(view)}, base)
    _rebase(base, node)
    view._rg = True
    refresh_view(view)
