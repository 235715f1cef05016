"""The shrinking activations of torch.nn.functional: hardshrink (x, 0 inside [-lambd, lambd];
also torch.hardshrink and x.hardshrink) and softshrink (x moved toward 0 by lambd, 0 inside),
each with its gradient as a row of its own, as PyTorch's hardshrink_backward and
softshrink_backward: under create_graph they depend on x with a zero derivative (their nodes,
HardshrinkBackwardBackward0 and SoftshrinkBackwardBackward0, are PyTorch's). softsign and
tanhshrink have no rows: PyTorch composes them (engine/nn/functional.py does the same).

`lambd` is taken in the input's dtype, as PyTorch's kernels take their Scalar; NaN stays NaN.
"""
from ..core.tensor import TensorBase, run_op
from ..host_data import is_number
from .table import MaskedGradient, Op, call, refuse_dtype


def _inside(x, lambd):
    lam = x.dtype.type(lambd)
    return (x >= -lam) & (x <= lam)


class Hardshrink(Op):
    """x where |x| > lambd, 0 elsewhere."""
    name = "hardshrink"
    signature = "hardshrink(Tensor input, Scalar lambd=0.5) -> Tensor"
    method = elementwise = True
    formula = call("lambd")
    node = "HardshrinkBackward0"
    saves = (0,)

    def forward(xp, x, lambd=0.5):
        return xp.where(_inside(x, lambd), x.dtype.type(0), x)

    def backward(F, ctx, g, x, lambd=0.5):
        return (F.hardshrink_backward(g, x, lambd=lambd),)

    def call(input, lambd):
        if input.array.dtype.kind != "f":
            refuse_dtype(f"hardshrink_{input.device.type}", input.array.dtype)
        if isinstance(lambd, TensorBase) and lambd.array.ndim == 0:
            lambd = lambd.item()
        if isinstance(lambd, bool) or not is_number(lambd):
            raise TypeError(f"hardshrink(): argument 'lambd' (position 2) must be Number, not {type(lambd).__name__}")
        return run_op(Hardshrink, (input,), {"lambd": float(lambd)})


class Softshrink(Op):
    """x - lambd where x > lambd, x + lambd where x < -lambd, +0 elsewhere (NaN stays)."""
    name = "softshrink"
    elementwise = True
    formula = call("lambd")
    node = "SoftshrinkBackward0"
    saves = (0,)

    def forward(xp, x, lambd=0.5):
        lam = x.dtype.type(lambd)
        return xp.where(x > lam, x - lam, xp.where(x < -lam, x + lam, xp.where(x != x, x, x.dtype.type(0))))

    def backward(F, ctx, g, x, lambd=0.5):
        return (F.softshrink_backward(g, x, lambd=lambd),)


class HardshrinkBackward(MaskedGradient):
    """hardshrink's gradient: g where |x| > lambd, 0 elsewhere."""
    name = "hardshrink_backward"
    node = "HardshrinkBackwardBackward0"

    def forward(xp, g, x, lambd=0.5):
        return xp.where(_inside(x, lambd), 0, g)


class SoftshrinkBackward(MaskedGradient):
    """softshrink's gradient: the same mask as hardshrink's."""
    name = "softshrink_backward"
    node = "SoftshrinkBackwardBackward0"

    def forward(xp, g, x, lambd=0.5):
        return xp.where(_inside(x, lambd), 0, g)
