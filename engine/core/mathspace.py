"""The two meanings of `F` in the op table's backward formulas.

`ArrayMath` runs each op's forward directly on raw arrays: an ordinary
backward pass, no graph, no Tensor objects. `TensorMath` applies the ops as
engine ops on Tensors, so the backward pass is itself recorded
(`create_graph=True`) and can be differentiated again. Both are generated
from the same table, so a formula is written once.
"""
from functools import partial

from ..backend import backend_for
from .op import TABLE
from .tensor import apply, make_tensor

__all__ = ["array_math", "tensor_math"]


class ArrayMath:
    """Table ops as plain functions on arrays of one backend."""

    graph = False

    def __init__(self, device):
        xp = backend_for(device).xp
        self.xp = xp
        for name, op in TABLE.items():
            if name != "where":  # where(cond, a, b) below: cond first, as in formulas
                setattr(self, name, _bind_forward(op.forward, xp))

    def __getattr__(self, name):
        """A row registered after this F was made (engine/ops loads its families as they are needed)."""
        forward = _bind_forward(_row(name).forward, self.xp)
        setattr(self, name, forward)
        return forward

    def where(self, cond, a, b):
        return self.xp.where(cond, a, b)

    def eye_mask(self, n):
        return self.xp.eye(n, dtype=bool)

    def zeros_like(self, a):
        return self.xp.zeros_like(a)


def _row(name):
    """The row `name` (loading the families not loaded yet); AttributeError where there is none."""
    if name.startswith("__"):
        raise AttributeError(name)
    try:
        return TABLE[name]
    except KeyError:
        raise AttributeError(f"the op table has no row {name!r}") from None


def _bind_forward(forward, xp):
    return partial(forward, xp)


class TensorMath:
    """Table ops as differentiable engine ops on Tensors of one device."""

    graph = True

    def __init__(self, device):
        self.device = device
        self.make_tensor = make_tensor
        self.xp = backend_for(device).xp
        for name, op in TABLE.items():
            if name != "where":
                setattr(self, name, _bind_apply(apply, op))
        self._where = _bind_apply(apply, TABLE["where"])

    def __getattr__(self, name):
        """A row registered after this F was made (engine/ops loads its families as they are needed)."""
        function = _bind_apply(apply, _row(name))
        setattr(self, name, function)
        return function

    def where(self, cond, a, b):
        if hasattr(cond, "array"):
            cond = cond.array
        return self._where(a, b, cond=cond)

    def eye_mask(self, n):
        return self.make_tensor(self.xp.eye(n, dtype=bool), self.device)

    def zeros_like(self, a):
        """Zeros of a's shape and dtype that require no grad (PyTorch's zeros_like(grad) in a formula)."""
        return self.make_tensor(self.xp.zeros_like(a.array), self.device)


def _bind_apply(apply, op):
    return partial(apply, op)


_array_math = {}
_tensor_math = {}


def array_math(device):
    """The raw-array F of a device's backend (made once per backend: one registered anew is another)."""
    b = device.backend or backend_for(device)
    m = _array_math.get((device, b))
    if m is None:
        m = _array_math[(device, b)] = ArrayMath(device)
    return m


def tensor_math(device):
    b = device.backend or backend_for(device)
    m = _tensor_math.get((device, b))
    if m is None:
        m = _tensor_math[(device, b)] = TensorMath(device)
    return m
