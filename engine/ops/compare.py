"""Results that never require grad: comparisons, logic, bitwise ops, the tests isfinite, isnan,
isinf, isposinf, isneginf and signbit, argmax/argmin, all/any, floor_divide."""
from .. import dtypes as _dt
from .table import Op


class Compare(Op):
    """Comparisons and other ops whose results never require grad: no backward."""
    differentiable = False
    method = True


class Lt(Compare):
    """Input < other, elementwise (bool)."""
    name = "lt"
    signature = "lt(Tensor input, Tensor other) -> Tensor"
    names = ("lt", "less")
    def forward(xp, a, b):
        return a < b


class Le(Compare):
    """Input <= other, elementwise (bool)."""
    name = "le"
    signature = "le(Tensor input, Tensor other) -> Tensor"
    names = ("le", "less_equal")
    def forward(xp, a, b):
        return a <= b


class Gt(Compare):
    """Input > other, elementwise (bool)."""
    name = "gt"
    signature = "gt(Tensor input, Tensor other) -> Tensor"
    names = ("gt", "greater")
    def forward(xp, a, b):
        return a > b


class Ge(Compare):
    """Input >= other, elementwise (bool)."""
    name = "ge"
    signature = "ge(Tensor input, Tensor other) -> Tensor"
    names = ("ge", "greater_equal")
    def forward(xp, a, b):
        return a >= b


class Eq(Compare):
    """Input == other, elementwise (bool)."""
    name = "eq"
    signature = "eq(Tensor input, Tensor other) -> Tensor"
    names = ("eq",)
    def forward(xp, a, b):
        return a == b


class Ne(Compare):
    """Input != other, elementwise (bool)."""
    name = "ne"
    signature = "ne(Tensor input, Tensor other) -> Tensor"
    names = ("ne", "not_equal")
    def forward(xp, a, b):
        return a != b


class LogicalAnd(Compare):
    """Logical and of the elements' truth values."""
    name = "logical_and"
    signature = "logical_and(Tensor input, Tensor other) -> Tensor"
    names = ("logical_and",)
    def forward(xp, a, b):
        return xp.logical_and(a, b)


class LogicalOr(Compare):
    """Logical or of the elements' truth values."""
    name = "logical_or"
    signature = "logical_or(Tensor input, Tensor other) -> Tensor"
    names = ("logical_or",)
    def forward(xp, a, b):
        return xp.logical_or(a, b)


class LogicalXor(Compare):
    """Logical exclusive or of the elements' truth values."""
    name = "logical_xor"
    signature = "logical_xor(Tensor input, Tensor other) -> Tensor"
    names = ("logical_xor",)
    def forward(xp, a, b):
        return xp.logical_xor(a, b)


class LogicalNot(Compare):
    """Logical not of each element's truth value."""
    name = "logical_not"
    signature = "logical_not(Tensor input) -> Tensor"
    names = ("logical_not",)
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


class _Bitwise(Compare):
    """PyTorch's bitwise ops (& | ^ ~ << >>): of booleans the logical ones, of integers bit by
    bit; floats refused as PyTorch refuses them. A row names its ufunc and PyTorch's kernel."""
    inplace = True

    def __init_subclass__(cls, **kw):
        if cls.name is not None:
            cls.names = (cls.name,)
        super().__init_subclass__(**kw)


def _bitwise_forward(ufunc, kernel):
    def forward(xp, *operands):
        _integral(kernel, *operands)
        return getattr(xp, ufunc)(*operands)
    return forward


class BitwiseAnd(_Bitwise):
    """Input & other: and of bool elements, bit by bit of whole numbers."""
    name = "bitwise_and"
    signature = "bitwise_and(Tensor input, Tensor other) -> Tensor"
    forward = _bitwise_forward("bitwise_and", "bitwise_and")


class BitwiseOr(_Bitwise):
    """Input | other: or of bool elements, bit by bit of whole numbers."""
    name = "bitwise_or"
    signature = "bitwise_or(Tensor input, Tensor other) -> Tensor"
    forward = _bitwise_forward("bitwise_or", "bitwise_or")


class BitwiseXor(_Bitwise):
    """Exclusive or of bool elements, bit by bit of whole numbers (`^` is the power)."""
    name = "bitwise_xor"
    signature = "bitwise_xor(Tensor input, Tensor other) -> Tensor"
    forward = _bitwise_forward("bitwise_xor", "bitwise_xor")


class BitwiseNot(_Bitwise):
    """~input: not of bool elements, every bit flipped of whole numbers."""
    name = "bitwise_not"
    signature = "bitwise_not(Tensor input) -> Tensor"
    forward = _bitwise_forward("invert", "bitwise_not")


class BitwiseLeftShift(_Bitwise):
    """Input << other: whole numbers shifted left by other bits."""
    name = "bitwise_left_shift"
    signature = "bitwise_left_shift(Tensor input, Tensor other) -> Tensor"
    forward = _bitwise_forward("left_shift", "lshift")


class BitwiseRightShift(_Bitwise):
    """Input >> other: whole numbers shifted right by other bits."""
    name = "bitwise_right_shift"
    signature = "bitwise_right_shift(Tensor input, Tensor other) -> Tensor"
    forward = _bitwise_forward("right_shift", "rshift")


class FloorDivide(Compare):
    """Input // other, rounded down (no gradient).

    a // b: piecewise constant, so it has no gradient (its result never requires grad)."""
    name = "floor_divide"
    signature = "floor_divide(Tensor input, Tensor other) -> Tensor"
    names = ("floor_divide",)

    def forward(xp, a, b):
        return xp.floor_divide(a, b)


class Isfinite(Compare):
    """True where an element is neither infinite nor NaN."""
    name = "isfinite"
    signature = "isfinite(Tensor input) -> Tensor"
    names = ("isfinite",)
    def forward(xp, x):
        return xp.isfinite(x)


class _Predicate(Compare):
    """A test of each element (isnan, isinf, ...): a bool tensor of the input's shape, every dtype."""

    def __init_subclass__(cls, **kw):
        cls.names = (cls.name,)
        super().__init_subclass__(**kw)


class Isnan(_Predicate):
    """True where an element is NaN."""
    name = "isnan"
    signature = "isnan(Tensor input) -> Tensor"
    def forward(xp, x):
        return xp.isnan(x)


class Isinf(_Predicate):
    """True where an element is infinite (either sign)."""
    name = "isinf"
    signature = "isinf(Tensor input) -> Tensor"
    def forward(xp, x):
        return xp.isinf(x)


class Isposinf(_Predicate):
    """True where an element is +inf."""
    name = "isposinf"
    signature = "isposinf(Tensor input) -> Tensor"
    def forward(xp, x):
        return xp.isinf(x) & (x > 0)


class Isneginf(_Predicate):
    """True where an element is -inf."""
    name = "isneginf"
    signature = "isneginf(Tensor input) -> Tensor"
    def forward(xp, x):
        return xp.isinf(x) & (x < 0)


class Signbit(_Predicate):
    """True where an element's sign bit is set (-0.0 too).

    True where the sign bit is set: -0.0 and a NaN with its sign bit too; False for bools."""
    name = "signbit"
    signature = "signbit(Tensor input) -> Tensor"
    def forward(xp, x):
        if x.dtype.kind == "b":
            return xp.zeros(x.shape, dtype=bool)
        return xp.signbit(x)


class Argmax(Compare):
    """The index of the largest element (of all, or along dim).

    The index of the largest element (of the flattened input, or along `dim`)."""
    name = "argmax"
    signature = "argmax(Tensor input, int? dim=None, bool keepdim=False) -> Tensor"

    def forward(xp, x, dim=None, keepdim=False):
        if dim is None:
            return xp.argmax(x)
        return xp.argmax(x, axis=dim, keepdims=keepdim)


class Argmin(Compare):
    """The index of the smallest element (of all, or along dim).

    The index of the smallest element (of the flattened input, or along `dim`)."""
    name = "argmin"
    signature = "argmin(Tensor input, int? dim=None, bool keepdim=False) -> Tensor"

    def forward(xp, x, dim=None, keepdim=False):
        if dim is None:
            return xp.argmin(x)
        return xp.argmin(x, axis=dim, keepdims=keepdim)


class All(Compare):
    """True when every element is true (of all, or along dim).

    Whether every element is true (nonzero), over every dim or along `dim`."""
    name = "all"
    signature = "all(Tensor input, int[1]? dim=None, bool keepdim=False) -> Tensor"

    def forward(xp, x, dim=None, keepdim=False):
        return xp.all(x, axis=dim, keepdims=keepdim)


class Any(Compare):
    """True when some element is true (of all, or along dim).

    Whether any element is true (nonzero), over every dim or along `dim`."""
    name = "any"
    signature = "any(Tensor input, int[1]? dim=None, bool keepdim=False) -> Tensor"

    def forward(xp, x, dim=None, keepdim=False):
        return xp.any(x, axis=dim, keepdims=keepdim)
