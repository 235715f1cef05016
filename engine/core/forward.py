"""Forward-mode AD: dual tensors and the forward rule of every row (torch.autograd.forward_ad's engine).

While a dual level is open (core/tensor.py's `dual_run[0]` is then `run_dual`), a tensor may carry a
tangent (its `_fw` attribute, a tensor of its shape), and run_op hands every op to `run_dual`:
the op runs on the primals as ever, and where an input carries a tangent and the result is
floating point, the result gets the Jacobian-vector product J v as its tangent. Code that
opens no level pays one list-index test in run_op and nothing else. Only one level at a time
(PyTorch's error for a nested one).

The forward rule of a row, first that applies:

- `op.jvp = LINEAR` ("linear"): the row is linear in its floating-point tensor inputs (a view, a
  reduction like sum, cat, indexing): the tangent is the row applied to the inputs' tangents
  (zeros where an input has none; integer tensors, indices, are passed as they are). A view's
  tangent is so a view of its input's tangent, and writing through either keeps them paired.
- `op.jvp` a function `jvp(F, ctx, tangents, *saved, **params)`: the row's own rule (tangents
  in input order, None where an input has none).
- an elementwise row: its Jacobian is diagonal, so J_i v_i is its backward given g = v_i.
- any other differentiable row: its backward is linear in g, so J v is the gradient, with
  respect to a dummy g, of <backward(g), v> -- the backward of the backward.

Every tangent is computed with engine ops (the table's rows through TensorMath), with forward AD
off (one level: no tangents of tangents) and grad mode as the caller has it, so reverse mode
runs through them: a gradient of a tangent (reverse-over-forward) or a tangent of a gradient
made with a dual input (forward-over-reverse, Hessian-vector products).
"""
import weakref

from .grad_mode import grad_enabled_var, is_grad_enabled
from .graph import Node
from .op import TABLE
from .mathspace import tensor_math
from .tensor import TensorBase, run_op, make_tensor, array_module, view_chain, storage_of, dual_run, dual_hooks

__all__ = ["LINEAR", "tangent_of", "set_tangent", "mark_primal", "run_dual", "enter_level", "exit_level",
           "current_level"]

LINEAR = "linear"  # a row's `jvp`: the row applied to the tangents

_state = {"level": None}  # the open level's number: 0 (PyTorch numbers levels by depth), None: none
_duals = weakref.WeakSet()  # the tensors given a tangent in this level: dropped when it exits


NESTED_MESSAGE = "Nested forward mode AD is not supported at the moment"


def current_level():
    return _state["level"]


def enter_level():
    """Open a dual level (only one at a time, as PyTorch) and return its number."""
    if _state["level"] is not None:
        raise RuntimeError(NESTED_MESSAGE)
    _state["level"] = 0
    dual_run[0] = run_dual
    return _state["level"]


def exit_level(level=None):
    """Close the open level; every tangent of it is dropped."""
    current = _state["level"]
    if current is None:
        raise RuntimeError("Dual level must be a positive number.")  # (PyTorch's words, with none open)
    if level is not None and level != current:
        raise RuntimeError("Trying to exit a forward AD level that was not the last one that was created. "
                           "This is not supported.")
    dual_run[0] = None
    _state["level"] = None
    for t in list(_duals):
        t.__dict__.pop("_fw", None)
        t.__dict__.pop("_fw_primal", None)
    _duals.clear()


def tangent_of(t):
    """A tensor's tangent at the open level (None: none)."""
    return _tangent(t) if isinstance(t, TensorBase) and _state["level"] is not None else None


def mark_primal(t):
    """t (unpack_dual's primal, a view of a dual tensor) and the views made of it have no tangent."""
    t.__dict__["_fw_primal"] = True
    _duals.add(t)


def _tangent(t):
    """t's tangent; a view made before its base got one has the same view of the base's (made now),
    unless it is a primal's (mark_primal)."""
    v = t.__dict__.get("_fw")
    if v is None and t._base is not None and "_fw_primal" not in t.__dict__:
        bt = t._base.__dict__.get("_fw")
        if bt is not None:
            run = dual_run[0]
            dual_run[0] = None
            try:
                v = _view_like(bt, t)
            finally:
                dual_run[0] = run
    return v


def _view_like(base_tangent, view):
    """The view of `base_tangent` that `view` is of its base, kept as view's tangent."""
    t = base_tangent
    for step, params in view_chain(view):
        t = run_op(step, (t,), params)
    set_tangent(view, t)
    return t


def set_tangent(t, tangent):
    t.__dict__["_fw"] = tangent
    _duals.add(t)


def run_dual(op, args, params):
    """run_op while a level is open: the op on the primals, and the result's tangent (J v)."""
    tangents = [_tangent(a) if isinstance(a, TensorBase) else None for a in args]
    dual_run[0] = None
    try:
        out = run_op(op, args, params)
        if op.is_view and isinstance(args[0], TensorBase) and "_fw_primal" in args[0].__dict__:
            mark_primal(out)
        if op.differentiable and any(v is not None for v in tangents) and out.array.dtype.kind in "fc":
            t = _jvp(op, args, params, tangents, out)
            if t is not None:
                t = _fitted(t, out)
                set_tangent(out, t)
                if "out" in op.saves and out._fn is not None:
                    out._fn.fw_out = t  # for a backward that unpacks the saved output (forward-over-reverse)
    finally:
        dual_run[0] = run_dual
    return out


def _fitted(t, out):
    """A tangent with its primal's shape (its dtype is the computation's: a float64 tangent of a
    float32 primal stays float64, as PyTorch's)."""
    if t.array.shape != out.array.shape:
        t = run_op(TABLE["expand"], (t,), {"shape": out.array.shape})
    return t


def _jvp(op, args, params, tangents, out):
    rule = op.jvp
    if rule == LINEAR:
        return run_op(op, tuple(_tangent_or_zero(a, v) for a, v in zip(args, tangents)), params)
    F = tensor_math(out.device)
    ctx = _context(op, args, params, tangents, out)
    saved = _saved_values(op, args, out)
    if rule is not None:
        return rule(F, ctx, tangents, *saved, **params)
    if op.elementwise:
        return _elementwise_jvp(op, F, ctx, tangents, saved, params, out)
    return _backward_of_backward(op, F, ctx, tangents, saved, params, out)


def _tangent_or_zero(a, v):
    if v is not None:
        return v
    if isinstance(a, TensorBase):
        if a.array.dtype.kind not in "fc":
            return a  # an index: as it is
        return make_tensor(array_module(a.device).zeros_like(a.array), a.device)
    if isinstance(a, (bool, int, float)):
        return 0.0 if isinstance(a, float) else 0
    return a


def _context(op, args, params, tangents, out):
    """A node standing for the op's call, as its backward reads one (`ctx`): needs are the dual inputs."""
    ctx = Node()
    ctx.op, ctx.params = op, params
    ctx.inputs = tuple(None for _ in args)
    ctx.shapes = tuple(a.array.shape if isinstance(a, TensorBase) else None for a in args)
    ctx.dtypes = tuple(a.array.dtype if isinstance(a, TensorBase) else None for a in args)
    ctx.needs = tuple(v is not None for v in tangents)
    ctx.out_shape, ctx.out_dtype, ctx.device = out.array.shape, out.array.dtype, out.device
    ctx.pre_hooks = ctx.retain = ctx.saved = None
    ctx.seq = 0
    return ctx


def _saved_values(op, args, out):
    return [out if s == "out" else args[s] for s in op.saves]


def _is_tensor(x):
    return isinstance(x, TensorBase)


def _elementwise_jvp(op, F, ctx, tangents, saved, params, out):
    """J v of a row with a diagonal Jacobian: for each dual input, its backward given g = its tangent."""
    total = None
    needs = ctx.needs
    for i, v in enumerate(tangents):
        if v is None:
            continue
        if v.array.shape != out.array.shape:
            v = run_op(TABLE["expand"], (v,), {"shape": out.array.shape})
        ctx.needs = tuple(j == i for j in range(len(needs)))
        part = op.backward(F, ctx, v, *saved, **params)[i]
        if part is None or not _is_tensor(part):
            continue
        total = part if total is None else total + part
    ctx.needs = needs
    return total


def _backward_of_backward(op, F, ctx, tangents, saved, params, out):
    """J v as the gradient, with respect to a dummy cotangent g, of sum_i <backward(g)_i, v_i>."""
    from .autograd import grad  # (autograd imports tensor: not at import time)
    xp = array_module(out.device)
    g = make_tensor(xp.ones(out.array.shape, out.array.dtype), out.device, True)  # (any g: linear in it)
    keep = is_grad_enabled() and (any(v.requires_grad for v in tangents if v is not None) or
                                  any(_is_tensor(s) and s.requires_grad for s in saved))
    token = grad_enabled_var.set(True)
    try:
        grads = op.backward(F, ctx, g, *saved, **params)
        total = None
        for gi, v, shape in zip(grads, tangents, ctx.shapes):
            if v is None or gi is None or not _is_tensor(gi) or not gi.requires_grad:
                continue
            if gi.array.shape != shape:
                gi = F.sum_to(gi, shape=shape)
            term = F.sum(gi * v)
            total = term if total is None else total + term
        if total is None:
            return None
        result = grad(total, g, create_graph=keep, allow_unused=True)[0]
    finally:
        grad_enabled_var.reset(token)
    return result


def share_tangent(target, old):
    """inplace(): the target's old value, as the op sees it, carries the target's tangent."""
    v = _tangent(target)
    if v is not None:
        set_tangent(old, v)


def write_tangent(target, result):
    """inplace(): after `result` was written into `target`, its tangent is written into target's
    tangent (a view's being a view of its base's: the base gets zeros first where it had none)."""
    v = result.__dict__.get("_fw")
    mine = _tangent(target)
    if v is None and mine is None:
        return
    dual_run[0] = None
    try:
        if v is None:
            v = make_tensor(array_module(result.device).zeros_like(mine.array), result.device)
        if mine is None:
            mine = _new_tangent_of(target)
        if mine is None:
            set_tangent(target, make_tensor(v.array.copy(), v.device, v.requires_grad, v._fn))
            return
        if v.array.dtype != mine.array.dtype:
            v = run_op(TABLE["to_dtype"], (v,), {"dtype": mine.array.dtype})
        if v.requires_grad and is_grad_enabled():
            from .inplace import inplace
            inplace(mine, _take, v)
        else:
            storage_of(mine)[...] = v.array
            mine._vc[0] += 1
    finally:
        dual_run[0] = run_dual


def _take(old, new):
    return new


def _new_tangent_of(target):
    """A view without a tangent written with one: its base gets a zero tangent, and the view the
    same view of it. None for a tensor that is no view (its tangent is simply set)."""
    base = target._base
    if base is None:
        return None
    bt = base.__dict__.get("_fw")
    if bt is None:
        bt = make_tensor(array_module(base.device).zeros_like(base.array), base.device)
        set_tangent(base, bt)
    return _view_like(bt, target)


def saved_output_tangent(node, t):
    """autograd's unpacking of a saved output under create_graph: the output's tangent comes with it."""
    v = node.__dict__.get("fw_out")
    if v is not None:
        set_tangent(t, v)


def grad_keeping_tangents(grad, outputs, inputs, grad_outputs, retain_graph, allow_unused, materialize_grads):
    """grad() without create_graph while a level is open: PyTorch's gradients then carry the tangents
    the backward's ops give them (forward-over-reverse), so the backward runs with a graph and the
    results are its values without one, each with its tangent (also without one)."""
    results = grad(outputs, inputs, grad_outputs, retain_graph=bool(retain_graph), create_graph=True,
                   allow_unused=allow_unused, materialize_grads=materialize_grads)
    final = []
    for r in results:
        if r is not None:
            v = r.__dict__.get("_fw")
            r = make_tensor(r.array, r.device)
            if v is not None:
                set_tangent(r, make_tensor(v.array, v.device))
        final.append(r)
    return tuple(final)


dual_hooks.update(share=share_tangent, write=write_tangent, grad=grad_keeping_tangents,
                  saved_output=saved_output_tangent)
