"""Results that never require grad: comparisons, logic, bitwise ops, argmax/argmin, all/any, floor_divide."""
from .. import dtypes as _dt
from .table import Op


class Compare(Op):
    """Comparisons and other ops whose results never require grad: no backward."""
    differentiable = False
    wrapper = "binary"
    method = True


class Lt(Compare):
    name = "lt"
    names = ("lt", "less")
    def forward(xp, a, b):
        return a < b


class Le(Compare):
    name = "le"
    names = ("le", "less_equal")
    def forward(xp, a, b):
        return a <= b


class Gt(Compare):
    name = "gt"
    names = ("gt", "greater")
    def forward(xp, a, b):
        return a > b


class Ge(Compare):
    name = "ge"
    names = ("ge", "greater_equal")
    def forward(xp, a, b):
        return a >= b


class Eq(Compare):
    name = "eq"
    names = ("eq",)
    def forward(xp, a, b):
        return a == b


class Ne(Compare):
    name = "ne"
    names = ("ne", "not_equal")
    def forward(xp, a, b):
        return a != b


class LogicalAnd(Compare):
    name = "logical_and"
    names = ("logical_and",)
    def forward(xp, a, b):
        return xp.logical_and(a, b)


class LogicalOr(Compare):
    name = "logical_or"
    names = ("logical_or",)
    def forward(xp, a, b):
        return xp.logical_or(a, b)


class LogicalXor(Compare):
    name = "logical_xor"
    names = ("logical_xor",)
    def forward(xp, a, b):
        return xp.logical_xor(a, b)


class LogicalNot(Compare):
    name = "logical_not"
    names = ("logical_not",)
    wrapper = "unary"
    def forward(xp, x):
        return xp.logical_not(x)


def _integral(kernel, *operands):
    """PyTorch's refusal of floating operands (after promotion) to a bitwise kernel."""
    for v in operands:
        dtype = getattr(v, "dtype", None)
        if dtype is not None and dtype.kind in "fc":
            name = _dt.scalar_name(_dt.as_dtype(dtype))
            break
    else:
        if not any(v.__class__ is float for v in operands):
            return
        name = _dt.scalar_name(_dt.get_default_dtype())  # an integer tensor and a float: the default dtype
    raise NotImplementedError(f'"{kernel}_cpu" not implemented for \'{name}\'')


class BitwiseAnd(Compare):
    """a & b: of booleans, logical and; of integers, bit by bit (PyTorch's `&`)."""
    name = "bitwise_and"
    names = ("bitwise_and",)
    inplace = True

    def forward(xp, a, b):
        _integral("bitwise_and", a, b)
        return xp.bitwise_and(a, b)


class BitwiseOr(Compare):
    name = "bitwise_or"
    names = ("bitwise_or",)
    inplace = True

    def forward(xp, a, b):
        _integral("bitwise_or", a, b)
        return xp.bitwise_or(a, b)


class BitwiseXor(Compare):
    name = "bitwise_xor"
    names = ("bitwise_xor",)
    inplace = True

    def forward(xp, a, b):
        _integral("bitwise_xor", a, b)
        return xp.bitwise_xor(a, b)


class BitwiseNot(Compare):
    """~x: of booleans, logical not; of integers, every bit flipped."""
    name = "bitwise_not"
    names = ("bitwise_not",)
    wrapper = "unary"
    inplace = True

    def forward(xp, x):
        _integral("bitwise_not", x)
        return xp.invert(x)


class BitwiseLeftShift(Compare):
    name = "bitwise_left_shift"
    names = ("bitwise_left_shift",)
    inplace = True

    def forward(xp, a, b):
        _integral("lshift", a, b)
        return xp.left_shift(a, b)


class BitwiseRightShift(Compare):
    name = "bitwise_right_shift"
    names = ("bitwise_right_shift",)
    inplace = True

    def forward(xp, a, b):
        _integral("rshift", a, b)
        return xp.right_shift(a, b)


class FloorDivide(Compare):
    """a // b: piecewise constant, so it has no gradient (its result never requires grad)."""
    name = "floor_divide"
    names = ("floor_divide",)

    def forward(xp, a, b):
        return xp.floor_divide(a, b)


class Isfinite(Compare):
    name = "isfinite"
    names = ("isfinite",)
    wrapper = "unary"
    def forward(xp, x):
        return xp.isfinite(x)


class Argmax(Compare):
    name = "argmax"
    names = ("argmax",)
    wrapper = None
    def forward(xp, x, dim=None, keepdim=False):
        if dim is None:
            return xp.argmax(x)
        return xp.argmax(x, axis=dim, keepdims=keepdim)


class Argmin(Compare):
    name = "argmin"
    names = ("argmin",)
    wrapper = None
    def forward(xp, x, dim=None, keepdim=False):
        if dim is None:
            return xp.argmin(x)
        return xp.argmin(x, axis=dim, keepdims=keepdim)


class All(Compare):
    name = "all"
    names = ("all",)
    wrapper = None
    def forward(xp, x, dim=None, keepdim=False):
        return xp.all(x, axis=dim, keepdims=keepdim)


class Any(Compare):
    name = "any"
    names = ("any",)
    wrapper = None
    def forward(xp, x, dim=None, keepdim=False):
        return xp.any(x, axis=dim, keepdims=keepdim)
