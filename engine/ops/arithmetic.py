"""Arithmetic: + - * / % **, fmod, atan2, hypot, copysign, logaddexp(2), xlogy, neg, reciprocal,
maximum/minimum, where, lerp, addcmul/addcdiv."""
import math

import numpy

from .. import dtypes as _dt
from .. import kernels
from ..backend import get_default_device
from ..core.tensor import NO_PARAMS, TensorBase, run_op
from ..host_data import is_number
from .table import Elementwise, Op, call, custom, infix, prefix, refuse_dtype, result_dtype, tensor_of


class Add(Op):
    """Input + alpha * other, elementwise with broadcasting.

    input + alpha * other, one node (AddBackward0), alpha in the result's dtype."""
    name = "add"
    signature = "add(Tensor input, Tensor other, *, Scalar alpha=1) -> Tensor"
    number_left = "swap"
    method = inplace = True
    formula = infix("+")
    elementwise = True
    ufunc = "add"
    node = "AddBackward0"

    def forward(xp, a, b, alpha=1):
        return a + b if alpha == 1 else _plus_scaled(xp, a, b, alpha)

    def backward(F, ctx, g, alpha=1):
        return g, (g if alpha == 1 else g * alpha)

    def call(input, other, alpha):
        return _scaled(Add, input, other, alpha)


class Sub(Op):
    """Input - alpha * other, elementwise with broadcasting.

    input - alpha * other, one node (SubBackward0), alpha in the result's dtype."""
    name = "sub"
    signature = "sub(Tensor input, Tensor other, *, Scalar alpha=1) -> Tensor"
    number_left = "drop"
    names = ("sub", "subtract")
    method = inplace = True
    formula = infix("-")
    elementwise = True
    ufunc = "subtract"
    node = staticmethod(lambda ctx: "RsubBackward1" if ctx.shapes[0] is None else "SubBackward0")

    def check_mixed(arrays):
        """PyTorch refuses a bool operand, tensor or Python bool, whatever the other one is."""
        a, b = arrays
        if _is_bool(a) or _is_bool(b):
            if _is_bool(a) and _is_bool(b):
                raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. "
                                   "Use the `^` or `logical_xor()` operator instead.")
            raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not supported. "
                               f"If you are trying to invert a mask, {_INVERT}")

    def forward(xp, a, b, alpha=1):
        # a tensor and a number: nothing was cast, so check here (a float is asked no further)
        if (a.__class__ not in _NEVER_BOOL and _is_bool(a)) or (b.__class__ not in _NEVER_BOOL and _is_bool(b)):
            Sub.check_mixed((a, b))
        return a - b if alpha == 1 else _plus_scaled(xp, a, b, -alpha)

    def backward(F, ctx, g, alpha=1):
        if not ctx.needs[1]:
            return g, None
        return g, (-g if alpha == 1 else -g * alpha)

    def call(input, other, alpha):
        return _scaled(Sub, input, other, alpha)


def _scaled(row, a, b, alpha):
    """add or sub with an alpha: PyTorch's alpha_check on the result's dtype, then one node."""
    if alpha.__class__ is int and alpha == 1:
        return run_op(row, (a, b), NO_PARAMS)
    alpha = number_argument(row.name, "alpha", alpha)
    if alpha.__class__ is not bool and alpha == 1:
        return run_op(row, (a, b), NO_PARAMS)
    dtype = numpy.result_type(*(x.array if isinstance(x, TensorBase) else x for x in (a, b)))
    if alpha.__class__ is bool and dtype.kind != "b":
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if dtype.kind not in "fc" and isinstance(alpha, float):
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating point number.")
    if dtype.kind != "c" and isinstance(alpha, complex):
        raise RuntimeError("For non-complex input tensors, argument alpha must not be a complex number.")
    return run_op(row, (a, b), {"alpha": alpha})


def _plus_scaled(xp, a, b, alpha):
    """a + alpha * b, alpha taken in the result's dtype (as PyTorch takes a Scalar)."""
    dtype = xp.result_type(a, b)
    if dtype.kind in "fc":
        alpha = dtype.type(alpha)
    return a + b * alpha


_INVERT = "use the `~` or `logical_not()` operator instead."


_NEVER_BOOL = frozenset((int, float, numpy.float64, numpy.float32, numpy.float16))


def _is_bool(v):
    """Whether an operand (an array or a Python number) is boolean."""
    dtype = getattr(v, "dtype", None)
    return v.__class__ is bool if dtype is None else dtype.kind == "b"


class Mul(Op):
    """Input * other, elementwise with broadcasting."""
    name = "mul"
    signature = "mul(Tensor input, Tensor other) -> Tensor"
    number_left = "swap"
    names = ("mul", "multiply")
    method = inplace = True
    formula = infix("*")
    elementwise = True
    ufunc = "multiply"
    node = "MulBackward0"
    saves = (0, 1)
    save_for = ((1,), (0,))

    def forward(xp, a, b):
        return a * b

    def backward(F, ctx, g, a, b):
        return (g * b if ctx.needs[0] else None), (g * a if ctx.needs[1] else None)

    batched = False

    def batched_backward(F, ctx, g, a, b):
        # The backward of a sum multiplies by the expand of its weight, most often 1: a factor of
        # one number, 1, passes a batch of gradients on as it is (g * 1 is g, bit for bit)
        ga = (g if _is_one(b) else g * b) if ctx.needs[0] else None
        gb = (g if _is_one(a) else g * a) if ctx.needs[1] else None
        return ga, gb


def _is_one(v):
    """Whether `v` (a number, an array or a Tensor) is a constant 1 everywhere, seen cheaply: a
    number, or an array whose elements all share one memory cell (a broadcast or 0-d), that is
    1 -- and, a Tensor (create_graph), that is no function of anything that wants a gradient."""
    if v.__class__ in (int, float, bool):
        return v == 1
    if getattr(v, "requires_grad", False):
        return False
    arr = getattr(v, "array", v)
    strides = getattr(arr, "strides", None)
    if strides is None or any(strides) or arr.size == 0:
        return False
    return bool(arr.reshape(-1)[0] == 1)


class Div(Op):
    """Input / other (true division), elementwise with broadcasting.

    input / other, elementwise (they broadcast)."""
    name = "div"
    signature = "div(Tensor input, Tensor other, *, str? rounding_mode=None) -> Tensor"
    names = ("div", "divide", "true_divide")
    method = inplace = True
    formula = infix("/")
    elementwise = True
    ufunc = "divide"
    node = "DivBackward0"  # number / tensor is reciprocal(tensor) * number, as in PyTorch
    saves = (0, 1)
    save_for = ((1,), (0, 1))

    def forward(xp, a, b):
        return a / b

    def backward(F, ctx, g, a, b):
        ga = g / b if ctx.needs[0] else None
        gb = -g * ((a / b) / b) if ctx.needs[1] else None  # PyTorch's rounding
        return ga, gb

    def call(input, other, rounding_mode):
        if rounding_mode is not None:
            return DivRounded.call(input, other, rounding_mode)
        if is_number(input) and isinstance(other, TensorBase):
            # number / tensor is reciprocal(tensor) * number, as in PyTorch (same rounding, same graph)
            return run_op(Mul, (run_op(Reciprocal, (other,), NO_PARAMS), input), NO_PARAMS)
        return run_op(Div, (input, other), NO_PARAMS)


class DivRounded(Op):
    """div with rounding_mode 'trunc' (towards zero) or 'floor' (down, as Python's //); integers
    stay integers. Piecewise constant: its gradient is zero (PyTorch's DivBackward2)."""
    name = "div_rounded"
    names = ()
    elementwise = True
    node = "DivBackward2"
    formula = call("rounding_mode")

    def forward(xp, a, b, rounding_mode):
        if rounding_mode == "floor":
            return xp.floor_divide(a, b)
        q = a / b
        if getattr(q, "dtype", numpy.dtype(float)).kind == "f" and xp.result_type(a, b).kind in "iu":
            q = xp.floor_divide(a, b)  # integers: floored, then one up where the remainder and b differ in sign
            return q + ((a - q * b != 0) & ((q < 0))).astype(q.dtype)
        return xp.trunc(q)

    def backward(F, ctx, g, rounding_mode):
        return tuple(F.zeros_like(g) if need else None for need in ctx.needs)

    def call(input, other, rounding_mode):
        if rounding_mode not in ("trunc", "floor"):
            raise RuntimeError("div expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
                               f"'{rounding_mode}'")
        input, other = tensor_operands(input, other)
        return run_op(DivRounded, (input, other), {"rounding_mode": rounding_mode})


class Remainder(Op):
    """Input % other: the remainder with the divisor's sign (of floored division).

    a % b (Python's sign convention, as torch.remainder)."""
    name = "remainder"
    signature = "remainder(Tensor input, Tensor other) -> Tensor"
    names = ("remainder",)
    method = inplace = True
    elementwise = True
    node = staticmethod(lambda ctx: "RemainderBackward0" if ctx.shapes[1] is None else "RemainderBackward1")
    saves = (0, 1)
    save_for = ((1,), (1,))

    def forward(xp, a, b):
        return xp.remainder(a, b)

    def backward(F, ctx, g, a, b):
        gb = None
        if ctx.needs[1]:
            gb = -g * F.floor_divide(a, b)
        return (g if ctx.needs[0] else None), gb


class Fmod(Op):
    """The remainder of input / other rounded toward zero (the dividend's sign).

    C's fmod: the remainder of a / b truncated toward zero, so its sign is the dividend's (unlike
    remainder's). A number b is PyTorch's Scalar overload (FmodBackward0, one edge)."""
    name = "fmod"
    signature = "fmod(Tensor input, Tensor other) -> Tensor"
    method = inplace = elementwise = True
    node = staticmethod(lambda ctx: "FmodBackward0" if ctx.shapes[1] is None else "FmodBackward1")
    number_right = "drop"
    saves = (0, 1)
    save_for = ((1,), (1,))

    def forward(xp, a, b):
        if getattr(a, "dtype", None) is not None and a.dtype.kind in "iub" and not isinstance(b, float) \
                and bool(xp.any(xp.asarray(b) == 0)):
            raise RuntimeError("ZeroDivisionError")  # PyTorch's integer kernel
        with numpy.errstate(all="ignore"):
            return xp.fmod(a, b)

    def backward(F, ctx, g, a, b):
        # PyTorch's: grad for a, -grad * a.div(b, rounding_mode="trunc") for b
        return (g if ctx.needs[0] else None), (-g * F.trunc(a / b) if ctx.needs[1] else None)

    def call(input, other):
        scalar_overloads("fmod", input, other)
        dtype = result_dtype(input, other)
        if dtype.kind == "b":
            refuse_dtype(f"fmod_{input.device.type}", dtype)
        if dtype.kind == "f" and input.array.dtype.kind in "iu" and not isinstance(other, TensorBase):
            input = input.to(dtype=_dt.get_default_dtype())  # an integer tensor and a float: the default dtype
        return run_op(Fmod, (input, other), NO_PARAMS)


class Atan2(Op):
    """The angle of the point (other, input): the arctangent of input / other, by quadrant."""
    name = "atan2"
    signature = "atan2(Tensor input, Tensor other) -> Tensor"
    names = ("atan2", "arctan2")
    node = "Atan2Backward0"
    method = inplace = elementwise = True
    saves = (0, 1)

    def forward(xp, a, b):
        return xp.arctan2(a, b)

    def backward(F, ctx, g, a, b):
        # PyTorch's atan2_backward: one reciprocal, then grad * other * recip and grad * -self * recip
        recip = F.reciprocal(a * a + b * b)
        return (g * b * recip if ctx.needs[0] else None), (g * -a * recip if ctx.needs[1] else None)


class Hypot(Op):
    """Sqrt(input**2 + other**2), elementwise."""
    name = "hypot"
    signature = "hypot(Tensor input, Tensor other) -> Tensor"
    names = ("hypot",)
    node = "HypotBackward0"
    method = inplace = elementwise = True
    saves = (0, 1, "out")

    def forward(xp, a, b):
        return xp.hypot(a, b)

    def backward(F, ctx, g, a, b, out):
        return (g * a / out if ctx.needs[0] else None), (g * b / out if ctx.needs[1] else None)  # PyTorch's order



class Copysign(Op):
    """|input| with the sign of other (-0.0 counts as negative).

    |a| with b's sign bit (-0.0 and -NaN count as negative). A number b is PyTorch's Scalar
    overload (CopysignBackward1, one edge)."""
    name = "copysign"
    signature = "copysign(Tensor input, Tensor other) -> Tensor"
    node = staticmethod(lambda ctx: "CopysignBackward1" if ctx.shapes[1] is None else "CopysignBackward0")
    number_right = "drop"
    method = inplace = elementwise = True
    saves = (0, "out")
    save_for = ((0,), (0, 1))

    def forward(xp, a, b):
        return xp.copysign(a, b)

    def backward(F, ctx, g, a, out):
        # PyTorch's copysign_tensor_self_backward: grad * (result / self), 0 where self is 0;
        # b gets zeros (a tensor, not None)
        ga = g * F.where(a == 0, 0.0, out / a) if ctx.needs[0] else None
        gb = F.zeros_like(out if getattr(g, "shape", None) is None else g) \
            if ctx.shapes[1] is not None and ctx.needs[1] else None
        return ga, gb

    def call(input, other):
        """Integers and bools give the default float."""
        scalar_overloads("copysign", input, other)
        if result_dtype(input, other).kind in "biu":
            input, other = (x.to(dtype=_dt.get_default_dtype()) if isinstance(x, TensorBase) else x
                            for x in (input, other))
        return run_op(Copysign, (input, other), NO_PARAMS)


class Logaddexp(Op):
    """Log(exp(input) + exp(other)) without overflow.

    log(exp(a) + exp(b)) without overflow (kernels.log_add_exp)."""
    name = "logaddexp"
    signature = "logaddexp(Tensor input, Tensor other) -> Tensor"
    node = "LogaddexpBackward0"
    method = elementwise = True
    saves = (0, 1)

    def forward(xp, a, b):
        return kernels.log_add_exp(xp, a, b)

    def backward(F, ctx, g, a, b):
        return (g / (1 + F.exp(b - a)) if ctx.needs[0] else None), (g / (1 + F.exp(a - b)) if ctx.needs[1] else None)

    def call(input, other):
        return _log_add_exp(Logaddexp, input, other)


class Logaddexp2(Op):
    """Log2(2**input + 2**other) without overflow.

    log2(2**a + 2**b) without overflow (kernels.log_add_exp)."""
    name = "logaddexp2"
    signature = "logaddexp2(Tensor input, Tensor other) -> Tensor"
    node = "Logaddexp2Backward0"
    method = elementwise = True
    saves = (0, 1)

    def forward(xp, a, b):
        return kernels.log_add_exp(xp, a, b, base2=True)

    def backward(F, ctx, g, a, b):
        return (g / (1 + F.exp2(b - a)) if ctx.needs[0] else None), (g / (1 + F.exp2(a - b)) if ctx.needs[1] else None)

    def call(input, other):
        return _log_add_exp(Logaddexp2, input, other)


def _log_add_exp(row, input, other):
    """logaddexp's and logaddexp2's checks: other a tensor, a floating result."""
    tensor_argument(row.name, "other", other, 2)
    input, other = tensor_operands(input, other)
    dtype = result_dtype(input, other)
    if dtype.kind != "f":
        refuse_dtype(f"{row.name}_{input.device.type}", dtype)
    return run_op(row, (input, other), NO_PARAMS)


class Xlogy(Op):
    """x log(y), 0 where x is 0 (NaN where y is); kl_div's xlogy(target, target)."""
    name = "xlogy"
    signature = "xlogy(Tensor input, Tensor other) -> Tensor"
    names = ("xlogy",)
    # PyTorch's Scalar overloads: XlogyBackward1 for a number x, XlogyBackward2 for a number y, one edge
    node = staticmethod(lambda ctx: "XlogyBackward1" if ctx.shapes[0] is None else
                        "XlogyBackward2" if ctx.shapes[1] is None else "XlogyBackward0")
    number_left = number_right = "drop"
    method = inplace = elementwise = True
    saves = (0, 1)

    def forward(xp, x, y):
        if not hasattr(y, "dtype"):
            y = xp.asarray(y, dtype=xp.result_type(x, y))  # a number takes x's float type, as in x * y
        with numpy.errstate(divide="ignore", invalid="ignore"):
            out = x * xp.log(y)
        return xp.where((x == 0) & ~xp.isnan(y), 0.0, out)

    def backward(F, ctx, g, x, y):
        # PyTorch's: g * log(y) for x, but 0 where x is 0 and y is not positive (xlogy of the mask); g * x / y for y
        gx = g * F.xlogy((x != 0) | (y > 0), y) if ctx.needs[0] else None
        return gx, (g * x / y if ctx.needs[1] else None)


def _log_number(y):
    """log(y) of a Python number as PyTorch's double: -inf at 0, NaN below."""
    with numpy.errstate(divide="ignore", invalid="ignore"):
        return float(numpy.log(numpy.float64(y)))

class Neg(Elementwise):
    """-input, elementwise."""
    name = "neg"
    jvp = "linear"  # forward mode: the row applied to the tangents
    names = ("neg", "negative")
    formula = prefix("-")
    node = "NegBackward0"

    def forward(xp, x):
        try:
            return -x
        except TypeError:  # numpy refuses to negate bools, as PyTorch does, in its own words
            raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. "
                               f"If you are trying to invert a mask, {_INVERT}") from None

    def backward(F, ctx, g):
        return (-g,)


class Reciprocal(Elementwise):
    """1 / input, elementwise."""
    name = "reciprocal"
    node = "ReciprocalBackward0"
    saves = ("out",)
    formula = infix("**", right=-1)

    def forward(xp, x):
        return 1 / x

    def backward(F, ctx, g, out):
        return (-g * (out * out),)


class PowScalar(Op):
    """tensor ** number"""
    name = "pow_scalar"
    formula = infix("**", right="exponent")
    elementwise = True
    node = "PowBackward0"
    saves = (0,)

    def forward(xp, x, exponent):
        return kernels.power(xp, x, exponent)

    def backward(F, ctx, g, x, exponent):
        # PyTorch's pow_backward: grad * (exponent * x ** (exponent - 1)), zeros for exponent 0.
        # Recorded (create_graph) it keeps x ** (exponent - 1) even when that is x ** 0, so the
        # derivative of x**2 is differentiable twice more (to 0) as in PyTorch.
        if exponent == 0:
            return (F.zeros_like(g),)
        if not F.graph:
            if exponent == 1:
                return (g,)
            if exponent == 2:
                return (g * 2 * x,)  # the same bits as g * (2 * x): doubling is exact
        return (g * (exponent * F.pow_scalar(x, exponent=exponent - 1)),)

    batched = False

    def batched_backward(F, ctx, g, x, exponent):
        # as backward, with the factor made first: one pass over the batch, not two
        if exponent == 2 and not F.graph:
            return (g * (2 * x),)
        return PowScalar.backward(F, ctx, g, x, exponent)


class Pow(Op):
    """input to the power exponent (tensors or numbers, broadcast together)."""
    name = "pow"
    signature = "pow(Tensor input, Tensor exponent) -> Tensor"
    names = ("pow", "square")
    method = inplace = True
    formula = infix("**")
    elementwise = True
    node = "PowBackward1"
    saves = (0, 1, "out")

    def forward(xp, a, b):
        return xp.power(a, b)

    def backward(F, ctx, g, a, b, out):
        # d(a**b)/da = b a**(b-1), taken as 0 where b == 0 (as PyTorch); b a number (a derivative
        # of pow_scalar's, or of a formula's F.pow) is decided here, not by a where on a bool
        ga = None
        if ctx.needs[0] and is_number(b):
            ga = F.zeros_like(g) if b == 0 else g * (b * F.pow(a, b - 1))
        elif ctx.needs[0]:
            ga = F.where(b == 0, 0.0, g * (b * F.pow(a, b - 1)))
        gb = None
        if ctx.needs[1]:
            # d(a**b)/db = a**b log a, taken as 0 where a == 0 and b >= 0 (as PyTorch)
            gb = g * F.where((a == 0) & (b >= 0), 0.0, out * F.log(a))
        return ga, gb

    def call(input, exponent):
        # the row by what is a tensor: tensor ** number (PowBackward0), number ** tensor (PowBackward2)
        if is_number(exponent):
            if input.array.dtype.kind in "iub" and exponent < 0 and isinstance(exponent, (int, numpy.integer)):
                raise RuntimeError("Integers to negative integer powers are not allowed.")
            return run_op(PowScalar, (input,), {"exponent": exponent})
        if is_number(input):
            return run_op(RpowScalar, (exponent,), {"base": input})
        return run_op(Pow, (input, exponent), NO_PARAMS)


class RpowScalar(Op):
    """number ** tensor"""
    name = "rpow_scalar"
    formula = infix("**", left="base")
    elementwise = True
    node = "PowBackward2"
    saves = (0, "out")
    save_for = ((0,), (0,))

    def forward(xp, x, base):
        return xp.power(base, x)

    def backward(F, ctx, g, x, out, base):
        # PyTorch's pow_backward_exponent: grad * (out * log(base)); for base 0, taken as 0 where the
        # exponent is >= 0 (0 ** -1 is inf, so its derivative there is -inf)
        if base == 0:
            return (g * F.where(x >= 0, 0.0, out * -math.inf),)
        return (g * (out * _log_number(base)),)  # a negative base: NaN, as PyTorch's


def _pick_gradients(F, ctx, g, a, b, a_loses, b_loses):
    """maximum's and minimum's gradients as PyTorch's: half of g each at a tie, g to the one picked,
    +0 to the other (a masked fill, not a product: no -0, and no NaN from an infinite g)."""
    shared = F.where(a == b, g / 2, g)
    return (F.where(a_loses, 0.0, shared) if ctx.needs[0] else None,
            F.where(b_loses, 0.0, shared) if ctx.needs[1] else None)


class Maximum(Op):
    """The larger of two tensors, elementwise.

    The larger of input and other, elementwise; at a tie each gets half the gradient."""
    name = "maximum"
    signature = "maximum(Tensor input, Tensor other) -> Tensor"
    names = ("maximum", "max")  # max(x, y) too: one of max's overloads
    method = True
    elementwise = True
    node = "MaximumBackward0"
    saves = (0, 1)

    def forward(xp, a, b):
        return xp.maximum(a, b)

    def backward(F, ctx, g, a, b):
        return _pick_gradients(F, ctx, g, a, b, a < b, a > b)

    def call(input, other):
        return run_op(Maximum, tensor_operands(input, other), NO_PARAMS)


class Minimum(Op):
    """The smaller of two tensors, elementwise.

    The smaller of input and other, elementwise; at a tie each gets half the gradient."""
    name = "minimum"
    signature = "minimum(Tensor input, Tensor other) -> Tensor"
    names = ("minimum", "min")  # max(x, y) too: one of max's overloads
    method = True
    elementwise = True
    node = "MinimumBackward0"
    saves = (0, 1)

    def forward(xp, a, b):
        return xp.minimum(a, b)

    def backward(F, ctx, g, a, b):
        return _pick_gradients(F, ctx, g, a, b, a > b, a < b)

    def call(input, other):
        return run_op(Minimum, tensor_operands(input, other), NO_PARAMS)


class Where(Op):
    """Where(condition, a, b): a where condition is true, else b.

    where(cond, a, b); `cond` is a parameter (a bool array), not differentiated."""
    name = "where"
    signature = "where(Tensor condition, Tensor input, Tensor other) -> Tensor"
    saves_params = True
    method = True  # Tensor.where(condition, other) puts self second: tensor_class.py writes that one by hand
    formula = custom("where")
    elementwise = True
    node = "WhereBackward0"

    def forward(xp, a, b, cond):
        return xp.where(cond, a, b)

    def backward(F, ctx, g, cond):
        ga = F.where(cond, g, 0.0) if ctx.needs[0] else None
        gb = F.where(cond, 0.0, g) if ctx.needs[1] else None
        return ga, gb

    def call(condition, input, other):
        if not isinstance(condition, TensorBase):
            condition = tensor_of(condition, get_default_device())
        if condition.array.dtype.kind != "b":
            raise RuntimeError(f"where expected condition to be a boolean tensor, but got a tensor with dtype "
                               f"{condition.dtype.name}")
        if not isinstance(input, TensorBase) and not isinstance(other, TensorBase):
            input = tensor_of(input, condition.device)
            if input.array.dtype.kind in "iub" and isinstance(other, float):  # the default dtype, as PyTorch
                input = tensor_of(float(input.item()), condition.device)
        for x in (input, other):
            if isinstance(x, TensorBase) and x.device is not condition.device:
                raise RuntimeError(f"Expected all tensors to be on the same device, but found at least two "
                                   f"devices, {condition.device} and {x.device}!")
        return run_op(Where, (input, other), {"cond": condition.array})


class Lerp(Op):
    """Linear interpolation: input + weight * (end - input).

    input + weight * (end - input), from the nearer end (kernels.lerp)."""
    name = "lerp"
    signature = "lerp(Tensor input, Tensor end, Tensor weight) -> Tensor"
    method = inplace = elementwise = True
    node = staticmethod(lambda ctx: "LerpBackward0" if ctx.shapes[2] is None else "LerpBackward1")
    number_right = "drop"  # lerp(end, 0.3) is PyTorch's Scalar overload: two edges
    saves = (0, 1, 2)
    save_for = ((2,), (2,), (0, 1))

    def forward(xp, a, b, w):
        if w.__class__ in (float, int, bool):  # a number weight in the tensors' dtype
            w = xp.result_type(a, b).type(w)
        return kernels.lerp(xp, a, b, w)

    def backward(F, ctx, g, a, b, w):
        ga = g * (1 - w) if ctx.needs[0] else None
        gb = g * w if ctx.needs[1] else None
        gw = g * (b - a) if ctx.needs[2] else None
        return ga, gb, gw

    def call(input, end, weight):
        if not isinstance(end, TensorBase):
            end = tensor_of(end, input.device)
        return run_op(Lerp, (input, end, weight), NO_PARAMS)


class Addcmul(Op):
    """Input + value * tensor1 * tensor2.

    input + value * tensor1 * tensor2."""
    name = "addcmul"
    signature = "addcmul(Tensor input, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor"
    method = inplace = elementwise = True
    node = "AddcmulBackward0"
    saves = (1, 2)
    save_for = ((2,), (1,))

    def forward(xp, a, t1, t2, value=1):
        return a + (t1 if value == 1 else _in_dtype(xp, value, a, t1, t2) * t1) * t2

    def backward(F, ctx, g, t1, t2, value=1):
        return (g if ctx.needs[0] else None, g * (t2 * value) if ctx.needs[1] else None,
                g * (t1 * value) if ctx.needs[2] else None)

    def call(input, tensor1, tensor2, value):
        return _add_combined(Addcmul, input, tensor1, tensor2, value)


class Addcdiv(Op):
    """Input + value * tensor1 / tensor2.

    input + value * tensor1 / tensor2."""
    name = "addcdiv"
    signature = "addcdiv(Tensor input, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor"
    method = inplace = elementwise = True
    node = "AddcdivBackward0"
    saves = (1, 2)
    save_for = ((2,), (1, 2))

    def forward(xp, a, t1, t2, value=1):
        with numpy.errstate(all="ignore"):  # x / 0 is inf or NaN, as in PyTorch, without numpy's warning
            return a + (t1 if value == 1 else _in_dtype(xp, value, a, t1, t2) * t1) / t2

    def backward(F, ctx, g, t1, t2, value=1):
        # PyTorch's: grad * (value / t2) and -grad * (value * t1 / (t2 * t2))
        return (g if ctx.needs[0] else None, g * (value / t2) if ctx.needs[1] else None,
                -g * (t1 * value / (t2 * t2)) if ctx.needs[2] else None)

    def call(input, tensor1, tensor2, value):
        return _add_combined(Addcdiv, input, tensor1, tensor2, value)


_ADDCDIV_INTEGERS = (
    "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform a "
    "true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as (input + value "
    "* torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as (input + value * tensor1 / "
    "tensor2) for float inputs. The future addcdiv behavior is just the latter implementation: (input + value "
    "* tensor1 / tensor2), for all dtypes.")


def _add_combined(row, input, tensor1, tensor2, value):
    """addcmul's and addcdiv's checks: tensor1 and tensor2 tensors, value a number (addcdiv: not both
    integral), no bool result; one node, with value only where it is not 1."""
    tensor_argument(row.name, "tensor1", tensor1, 2)
    tensor_argument(row.name, "tensor2", tensor2, 3)
    value = number_argument(row.name, "value", value)
    if row is Addcdiv and tensor1.array.dtype.kind in "biu" and tensor2.array.dtype.kind in "biu":
        raise RuntimeError(_ADDCDIV_INTEGERS)
    input, tensor1, tensor2 = tensor_operands(input, tensor1, tensor2)
    dtype = result_dtype(input, tensor1, tensor2)
    if dtype.kind == "b":
        refuse_dtype(f"{row.name}_{input.device.type}_out", dtype)
    if value.__class__ is not bool and value == 1:
        return run_op(row, (input, tensor1, tensor2), NO_PARAMS)
    return run_op(row, (input, tensor1, tensor2), {"value": value})


def _in_dtype(xp, value, *arrays):
    """A Python number as PyTorch's kernels take a Scalar: in the result's dtype (an int truncated)."""
    return xp.result_type(*arrays).type(value)


class Heaviside(Op):
    """The step function: 0 below zero, values at zero, 1 above.

    0 where x < 0, values where x == 0, 1 where x > 0 (NaN: 0). PyTorch has no derivative: its
    node is NotImplemented and backward through it fails, as here."""
    name = "heaviside"
    signature = "heaviside(Tensor input, Tensor values) -> Tensor"
    method = inplace = elementwise = True
    node = "NotImplemented"

    def forward(xp, x, values):
        return xp.where(x == 0, values, x > 0).astype(xp.result_type(x, values), copy=False)

    def backward(F, ctx, g):
        raise RuntimeError("derivative for aten::heaviside is not implemented")

    def jvp(F, ctx, tangents, **params):
        raise NotImplementedError("Trying to use forward AD with aten::heaviside that does not support it.")

    def call(input, values):
        tensor_argument("heaviside", "values", values, 2)
        input, values = tensor_operands(input, values)
        if input.array.dtype != values.array.dtype:
            raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes.")
        return run_op(Heaviside, (input, values), NO_PARAMS)


class Bernoulli(Op):
    """1 where the uniform `draws` fall below the probabilities `p`, else 0 (no gradient reaches p)."""
    name = "bernoulli"
    batched = True
    names = ("bernoulli",)
    method = inplace = True
    node = "BernoulliBackward0"

    def forward(xp, p, draws):
        return (draws < p).astype(p.dtype)

    def backward(F, ctx, g, draws):
        return (F.zeros_like(g),)


# ------------------------------------------- the arguments PyTorch's overloads take, in its words

def tensor_operands(*values):
    """Operands a row takes as tensors only: a number that a signature's function left a number
    (PyTorch's wrapped scalar, beside a tensor) made a 0-d tensor on the first tensor's device."""
    device = next(v.device for v in values if isinstance(v, TensorBase))
    return tuple(v if isinstance(v, TensorBase) else tensor_of(v, device) for v in values)


def tensor_argument(fname, what, value, position):
    """A tensor argument, refused in PyTorch's words when it is anything else."""
    if not isinstance(value, TensorBase):
        raise not_a_tensor(value, fname, what, position)


def not_a_tensor(value, fname, what, position):
    """PyTorch's TypeError for a value that cannot stand for the tensor parameter `what`."""
    return TypeError(f"{fname}(): argument '{what}' (position {position}) must be Tensor, not {type(value).__name__}")


def number_argument(fname, what, value, position=None):
    """A Scalar argument as a number (a 0-d tensor's item), refused in PyTorch's words otherwise (naming
    its position, from 1, where given)."""
    if isinstance(value, TensorBase) and value.array.ndim == 0:
        value = value.item()
    if not is_number(value):
        where = f" (position {position})" if position is not None else ""
        raise TypeError(f"{fname}(): argument '{what}'{where} must be Number, not {type(value).__name__}")
    return value


def invalid_combination(fname, args, signatures):
    """PyTorch's message for arguments that match none of a function's overloads."""
    got = ", ".join("Tensor" if isinstance(a, TensorBase) else type(a).__name__ for a in args)
    lines = "".join(f" * ({s}, *, Tensor out = None)\n" for s in signatures)
    return TypeError(f"{fname}() received an invalid combination of arguments - got ({got}), "
                     f"but expected one of:\n{lines}")


def scalar_overloads(fname, input, other):
    """(input, other) of an op with a Tensor and a Scalar overload: input a tensor, other either."""
    if not isinstance(input, TensorBase) or not (isinstance(other, TensorBase) or is_number(other)):
        raise invalid_combination(fname, (input, other), ("Tensor input, Tensor other", "Tensor input, Number other"))
