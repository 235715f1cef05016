"""The rows of number-theoretic and floating-point-representation ops: sgn, gcd, lcm, ldexp,
nextafter, frexp, isreal, argwhere, and torch.fill's tensor-value row (its function is in
engine/functions/numbers.py)."""
import math

import numpy

from .. import dtypes as _dt
from ..core.tensor import NO_PARAMS, array_module, make_tensor, run_op
from .compare import Compare
from .table import Op, refuse_dtype, tensor_argument
from .unary import Sign


def _kernel(xp, name):
    """PyTorch's kernel name in its "not implemented" messages: name_cpu, or name_cuda on a GPU."""
    return f"{name}_{'cpu' if xp is numpy else 'cuda'}"


def _tensors(fname, input, other):
    """PyTorch's Tensor-only binary ops (gcd, ldexp, nextafter) refuse numbers in its words."""
    return tensor_argument(input, fname, "input", 1), tensor_argument(other, fname, "other", 2)


def _promoted(a, b):
    """PyTorch's result dtype of two tensors (a 0-d one widens a dimensioned one only across kinds)."""
    return _dt.promote(_dt.dtype_of(a.array), a.array.ndim, _dt.dtype_of(b.array), b.array.ndim)


class Sgn(Sign):
    """The sign of each element: sign(x) for real tensors (x / |x| of complex ones in PyTorch)."""
    name = "sgn"
    node = "SgnBackward0"


def _integral_forward(ufunc, kernel):
    def forward(xp, a, b):
        if a.dtype.kind not in "iu":  # (both have the promoted dtype here)
            refuse_dtype(_kernel(xp, kernel), a.dtype)
        return getattr(xp, ufunc)(a, b)
    return forward


class Gcd(Compare):
    """The greatest common divisor of whole numbers, elementwise (non-negative; gcd(0, 0) = 0)."""
    name = "gcd"
    signature = "gcd(Tensor input, Tensor other) -> Tensor"
    inplace = True
    forward = _integral_forward("gcd", "gcd")

    def call(input, other):
        return run_op(Gcd, _tensors("gcd", input, other), NO_PARAMS)


class Lcm(Compare):
    """The least common multiple of whole numbers, elementwise (non-negative; 0 where either is 0)."""
    name = "lcm"
    signature = "lcm(Tensor input, Tensor other) -> Tensor"
    inplace = True
    forward = _integral_forward("lcm", "lcm")

    def call(input, other):
        return run_op(Lcm, _tensors("lcm", input, other), NO_PARAMS)


class Ldexp(Op):
    """Input * 2 ** other, elementwise (integers give the default float dtype)."""
    name = "ldexp"
    signature = "ldexp(Tensor input, Tensor other) -> Tensor"
    node = "LdexpBackward0"
    method = inplace = elementwise = True
    saves = (0, 1)
    save_for = ((1,), (0, 1))

    def forward(xp, x, e):
        with numpy.errstate(all="ignore"):  # (overflow to inf, inf * 0: PyTorch's answers, silently)
            return x * xp.exp2(e)  # PyTorch's definition: the product, so 0.5 * 2 ** 1024 is inf too

    def backward(F, ctx, g, x, e):
        scale = F.exp2(e)
        return (g * scale if ctx.needs[0] else None), (g * x * math.log(2) * scale if ctx.needs[1] else None)

    def call(input, other):
        input, other = _tensors("ldexp", input, other)
        if _promoted(input, other).np.kind in "biu":
            input = input.to(dtype=_dt.get_default_dtype())
        return run_op(Ldexp, (input, other), NO_PARAMS)


class Nextafter(Op):
    """The next float after input in the direction of other, elementwise.

    The next representable float after input toward other. Its gradient is PyTorch's: the
    identity for input (the step is below rounding), zeros for other."""
    name = "nextafter"
    signature = "nextafter(Tensor input, Tensor other) -> Tensor"
    node = "NextafterBackward0"
    method = inplace = elementwise = True

    def forward(xp, a, b):
        if a.dtype.kind != "f":
            refuse_dtype(_kernel(xp, "nextafter"), a.dtype)
        return xp.nextafter(a, b)

    def backward(F, ctx, g):
        return g, (F.zeros_like(g) if ctx.needs[1] else None)

    def call(input, other):
        return run_op(Nextafter, _tensors("nextafter", input, other), NO_PARAMS)


class Frexp(Op):
    """(mantissa, exponent): input = mantissa * 2 ** exponent, |mantissa| in [0.5, 1).

    The mantissa is this row (0, +-inf and NaN are their own, with exponent 0); the exponent is
    int32 and has no gradient. d mantissa / d input is 2 ** -exponent, exact (ldexp, no power)."""
    name = "frexp"
    signature = "frexp(Tensor input) -> (Tensor mantissa, Tensor exponent)"
    node = "FrexpBackward0"
    method = elementwise = True
    saves = (0,)

    def forward(xp, x):
        return xp.frexp(x)[0]

    def backward(F, ctx, g, x):
        xp = F.xp
        raw = x.array if F.graph else x
        scale = xp.ldexp(xp.ones_like(raw), -xp.frexp(raw)[1])
        return (g * (make_tensor(scale, F.device) if F.graph else scale),)

    def call(input):
        if input.array.dtype.kind != "f":
            raise RuntimeError("torch.frexp() only supports floating-point dtypes")
        exponent = make_tensor(array_module(input.device).frexp(input.array)[1].astype(numpy.int32, copy=False),
                               input.device)
        return run_op(Frexp, (input,), NO_PARAMS), exponent


class Isreal(Compare):
    """True where an element has no imaginary part (every element of a real tensor)."""
    name = "isreal"
    signature = "isreal(Tensor input) -> Tensor"

    def forward(xp, x):
        return xp.isreal(x)


class Argwhere(Compare):
    """The indices of the nonzero elements (NaN counts), one row per element: nonzero(input)."""
    name = "argwhere"
    signature = "argwhere(Tensor input) -> Tensor"

    def forward(xp, x):
        return xp.argwhere(x).astype(numpy.int64, copy=False)  # (a 0-d input: (1, 0) or (0, 0), as PyTorch)


class FillValue(Op):
    """torch.fill(input, value) with a 0-d tensor value: input's shape and dtype, every element
    value; the gradient of value is the sum of the result's, input gets zeros (PyTorch's
    FillBackward1). Reached through engine/functions/numbers.py's fill."""
    name = "fill_value"
    node = "FillBackward1"
    batched = True  # (g of any leading shape: the core sums value's gradient back to 0-d)

    def forward(xp, x, value):
        return xp.broadcast_to(xp.asarray(value, dtype=x.dtype), x.shape).copy()  # (its own memory: writable)

    def backward(F, ctx, g):
        return (F.zeros_like(g) if ctx.needs[0] else None), (g if ctx.needs[1] else None)
