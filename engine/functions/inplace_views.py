"""In-place view methods: t_, transpose_, swapdims_/swapaxes_, squeeze_, unsqueeze_.

They change a tensor's shape, not its values or memory. As PyTorch records them: the checks
of any in-place op (a leaf that requires grad, a view of one, ...), the version counter
bumped, and the view's own node on top of the tensor's history under its in-place name
(TBackward1, TransposeBackward1, SqueezeBackward3/4/5, UnsqueezeBackward1). A view stays a
view of its base with the step added to its chain; a base logs the step that undoes it, so
the views made of it before still select the same elements (tensor.view_chain).
"""
from .arguments import checked, t_dims
from ..ops.shapes import squeeze_dims
from ..core.tensor import wrap_dim
from ..core.grad_mode import is_grad_enabled, is_inference_mode_enabled, inference_used
from ..core.inplace import check_inplace, INFERENCE_INPLACE_MESSAGE
from ..ops import TABLE
from ..core.tensor import make_tensor, refresh_view, apply, view_chain, dual_run

__all__ = ["t_", "transpose_", "swapdims_", "squeeze_", "unsqueeze_"]

_TRANSPOSE, _SQUEEZE, _UNSQUEEZE, _RESHAPE = TABLE["transpose"], TABLE["squeeze"], TABLE["unsqueeze"], TABLE["reshape"]


def t_(input):
    return _reshape_in_place(input, _TRANSPOSE, None, dict(t_dims(input, "t_"), name="TBackward1"))


def transpose_(input, dim0, dim1):
    nd = input.array.ndim
    params = {"dim0": wrap_dim(dim0, nd), "dim1": wrap_dim(dim1, nd), "name": "TransposeBackward1"}
    return _reshape_in_place(input, _TRANSPOSE, None, params)


swapdims_ = swapaxes_ = transpose_


def squeeze_(input, dim=None):
    dim = squeeze_dims(dim, input.array.ndim)
    name = "SqueezeBackward3" if dim is None else "SqueezeBackward5" if isinstance(dim, tuple) else "SqueezeBackward4"
    return _reshape_in_place(input, _SQUEEZE, (_RESHAPE, {"shape": input.array.shape}), {"dim": dim, "name": name})


def unsqueeze_(input, dim):
    params = {"dim": wrap_dim(checked(dim, "int", "unsqueeze_", "dim"), input.array.ndim + 1), "name": "UnsqueezeBackward1"}
    return _reshape_in_place(input, _UNSQUEEZE, (_RESHAPE, {"shape": input.array.shape}), params)


def _reshape_in_place(target, op, undo, params):
    """target <- op(target, **params), a view of itself; `undo` is the step back (None: the step itself)."""
    check_inplace(target, ())
    if target._base is not None:
        refresh_view(target)  # its node, current before the step goes on top
    recording = target.requires_grad and is_grad_enabled() and not (inference_used[0] and is_inference_mode_enabled())
    old = make_tensor(target.array, target.device, recording, target._fn if recording else None, [target._vc[0]])
    result = apply(op, old, **params)
    step = (op, params)
    if target._base is not None:
        chain = view_chain(target) + (step,)
    target.array = result.array
    vc = target._vc
    if vc.__class__ is not list and not is_inference_mode_enabled():
        raise RuntimeError(INFERENCE_INPLACE_MESSAGE)  # PyTorch's check is in bumping the version, after the change
    vc[0] += 1
    if target._base is not None:
        target._view.chain, target._view.version = chain, vc[0]
    else:
        target._reshaped += (undo or step,)
    if result._fn is not None:
        target._fn = result._fn  # a retained grad stays with the old node, as in PyTorch
        target._rg = True
    if dual_run[0] and "_fw" in target.__dict__:  # forward AD: the tangent takes the same step
        _reshape_in_place(target._fw, op, undo, params)
    return target
