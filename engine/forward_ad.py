"""torch.autograd.forward_ad: forward-mode AD with dual tensors.

    with forward_ad.dual_level():
        x = forward_ad.make_dual(primal, tangent)    # a view of primal, carrying tangent
        y = f(x)
        value, jvp = forward_ad.unpack_dual(y)       # f(primal) and J_f(primal) @ tangent

Every op of the engine carries tangents through (engine/core/forward.py); custom Functions do
through their `jvp` staticmethod. Tangents are dropped when the level exits.

Differences from PyTorch: one level at a time (a nested one is PyTorch's own error, "Nested forward
mode AD is not supported at the moment"); levels are global, not per thread. `Tensor.backward()`
inside a level accumulates `.grad` without tangents (`torch.autograd.grad` gives them, as PyTorch).
"""
from collections import namedtuple

from .core import forward as _forward
from .core.tensor import TensorBase, dual_run, make_tensor, array_module

__all__ = ["UnpackedDualTensor", "enter_dual_level", "exit_dual_level", "make_dual", "unpack_dual", "dual_level"]


class UnpackedDualTensor(namedtuple("UnpackedDualTensor", ["primal", "tangent"])):
    """What unpack_dual returns: the primal (a view of the dual tensor, without its tangent) and
    the tangent (None where there is none)."""

    __slots__ = ()


def enter_dual_level():
    """Open a new forward AD level and return its number (use `dual_level` to have it closed)."""
    return _forward.enter_level()


def exit_dual_level(*, level=None):
    """Close the forward AD level `level` (the last one opened): its tangents are dropped."""
    _forward.exit_level(level)


class dual_level:
    """Context manager of a forward AD level: every dual tensor made inside it loses its tangent
    at the exit. `with dual_level() as level:` gives the level's number."""

    def __enter__(self):
        return enter_dual_level()

    def __exit__(self, *exc):
        exit_dual_level()


def _level(level, what):
    current = _forward.current_level()
    if level is None:
        level = current
    if level is None or level != current:
        raise RuntimeError(f"Invalid level given to {what}")
    return level


def make_dual(tensor, tangent, *, level=None):
    """A view of `tensor` that carries `tangent` (same shape) at the open level."""
    if _forward.current_level() is None and level is None:
        raise RuntimeError("Trying to create a dual Tensor for forward AD but no level exists, make sure to "
                           "enter_dual_level() first.")
    if not isinstance(tensor, TensorBase) or tensor.array.dtype.kind not in "fc":
        raise ValueError(f"Expected primal to be floating point or complex, but got: {_dtype_name(tensor)}")
    if not isinstance(tangent, TensorBase) or tangent.array.dtype.kind not in "fc":
        if not isinstance(tangent, TensorBase):
            raise AttributeError(f"'{type(tangent).__name__}' object has no attribute 'is_floating_point'")
        raise ValueError(f"Expected tangent to be floating point or complex, but got: {_dtype_name(tangent)}")
    _level(level, "_make_dual")
    if _forward.tangent_of(tensor) is not None:
        raise RuntimeError(f"Making a dual Tensor based on a Tensor that already has a forward gradient at the same "
                           f"level {_forward.current_level()} is not supported.")
    _check_tangent(tensor, tangent)
    if tangent.device is not tensor.device:
        raise RuntimeError(f"Trying to set a forward gradient that has a different device than that of the original "
                           f"Tensor, this is not supported. Tensor is on {tensor.device} while the given forward "
                           f"gradient is on {tangent.device}.")
    dual = _plain_view(tensor)
    _forward.set_tangent(dual, tangent)
    return dual


def unpack_dual(tensor, *, level=None):
    """(primal, tangent) of a dual tensor: the primal a view of it without the tangent, the tangent
    None where it has none (or where no level is open)."""
    if not isinstance(tensor, TensorBase):
        raise TypeError(f"_unpack_dual(): argument 'dual' (position 1) must be Tensor, not {type(tensor).__name__}")
    if _forward.current_level() is None:
        return UnpackedDualTensor(tensor, None)
    _level(level, "_fw_primal")
    tangent = _forward.tangent_of(tensor)
    if tangent is None:
        return UnpackedDualTensor(tensor, None)
    primal = _plain_view(tensor)
    _forward.mark_primal(primal)  # (it and its views take no tangent from the dual tensor later)
    return UnpackedDualTensor(primal, tangent)


def _plain_view(t):
    """t.view(t.shape) with no tangent (forward AD off while it is made)."""
    run = dual_run[0]
    dual_run[0] = None
    try:
        return t.view(t.shape)
    finally:
        dual_run[0] = run


def _dtype_name(t):
    return str(t.dtype) if isinstance(t, TensorBase) else type(t).__name__


def apply_with_tangents(cls, args, run, no_jvp):
    """A custom Function applied while a level is open: `run(ctx)` its forward on the primals
    (forward AD off inside), then `cls.jvp(ctx, *tangents)` -- zeros for a tensor input without
    one, None for what is no tensor -- gives the outputs' tangents."""
    tangents = [_forward.tangent_of(a) for a in args]
    ctx = cls._ctx_cls()
    if all(v is None for v in tangents):
        return run(ctx)
    if no_jvp:
        cls.jvp(ctx)  # PyTorch's NotImplementedError
    level = dual_run[0]
    dual_run[0] = None
    try:
        output = run(ctx)
        given = [v if v is not None else _zeros_like(a) if isinstance(a, TensorBase) else None
                 for a, v in zip(args, tangents)]
        saved = ctx.__dict__.pop("saved_for_forward", None)
        if saved is not None:
            ctx._jvp_saved = tuple(saved)  # what ctx.saved_tensors gives in jvp
        out_tangents = cls.jvp(ctx, *given)
    finally:
        ctx.__dict__.pop("_jvp_saved", None)
        dual_run[0] = level
    outputs = output if output.__class__ is tuple else (output,)
    out_tangents = out_tangents if isinstance(out_tangents, tuple) else (out_tangents,)
    if len(out_tangents) != len(outputs):
        raise RuntimeError(f"Function's jvp returned an invalid number of forward gradients (expected "
                           f"{len(outputs)} but got {len(out_tangents)})")
    for o, v in zip(outputs, out_tangents):
        if isinstance(o, TensorBase) and v is not None and o.array.dtype.kind in "fc":
            _check_tangent(o, v)
            _forward.set_tangent(o, v)
    return output


def _zeros_like(a):
    return make_tensor(array_module(a.device).zeros_like(a.array), a.device)


def _check_tangent(tensor, tangent):
    if tangent.array.shape != tensor.array.shape:
        raise RuntimeError(f"Trying to set a forward gradient that has a different size than that of the original "
                           f"Tensor, this is not supported. Tensor is of size {list(tensor.shape)} while the given "
                           f"forward gradient is of size {list(tangent.shape)}.")
