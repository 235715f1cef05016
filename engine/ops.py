"""The op table: every differentiable op, its forward and its backward, and
the public surface it gives -- all in one row.

How to read (and extend) this table
-----------------------------------
Each op is a class deriving from `Op`; defining it registers it in `TABLE`
under its ``name``. A row has:

``name``
    The table key: how backward formulas call the op (``F.exp``), and the
    name of the public function unless ``names`` says otherwise.

``node``
    The name of its backward node, as PyTorch names it (``MulBackward0``), or
    a function of the node returning the name when it depends on the
    arguments (``SumBackward0`` for a whole-tensor sum, ``SumBackward1`` with
    ``dim``).

``saves``
    What the backward needs, by position: input indices (``0``, ``1``) and/or
    ``"out"`` for the result. Only these are kept alive by the graph, and each
    is checked against the version it had when saved.

``save_for`` (optional)
    For each entry of ``saves``, the inputs whose gradient needs it: the
    entry is kept only when one of them wants a gradient (``a * x`` with a
    constant ``a`` keeps ``a`` but not ``x``), so the graph holds no more
    memory than its backward will use.

``forward(xp, *inputs, **params)``
    Computes the result on raw arrays with the array module ``xp`` (numpy or
    cupy). Inputs in tensor positions are arrays, or Python numbers where the
    user passed a number. ``params`` are the non-tensor arguments (``dim=``).

``backward(F, ctx, g, *saved, **params)``
    Returns one gradient per input (``None`` where there is none), given
    ``g``, the gradient of the result. It is written in the ops of this very
    table through ``F`` and the arithmetic operators: ``F`` is the raw array
    math for an ordinary backward and the differentiable engine ops under
    ``create_graph=True`` -- which is what gives second and higher
    derivatives for free. ``ctx`` is the node: ``ctx.shapes`` holds the
    input shapes, ``ctx.needs[i]`` says whether input ``i`` wants a gradient.

A gradient may come back with the *broadcast* shape, or in another float
dtype: the autograd core sums it back to the input's shape (``sum_to``) and
casts it to the input's dtype, in one place, for every op.

Flags
    ``elementwise = True``: the result has the broadcast shape of the inputs,
    and the formulas stay right when ``g`` is a single number (the core hands
    them that number when the gradient is the same everywhere -- the gradient
    of a sum, or weights of 1 -- so no full-size arrays of ones are made).
    ``differentiable = False``: results never require grad (comparisons); no
    backward. ``is_view = True``: the result may share memory with input 0
    (it then shares its version counter and can be written through).
    ``moves_device = True``: the result lives on ``params["device"]``.

The public surface (what users call)
    ``names``: the public functions this row stands behind (``torch.<name>``
    in the language), the first being the row's own; ``()`` marks an internal
    row (reached only from other rows' formulas or from hand-written
    functions). ``wrapper``: ``"unary"`` or ``"binary"`` when `functions.py`
    should make the function itself (``f(input)``; ``f(input, other)`` taking
    tensors or numbers); ``None`` when the argument handling is special and
    `functions.py` writes it by hand. ``method``: `Tensor` gets a method of
    each name (``x.exp()``). ``inplace``: and an in-place variant of each,
    ``exp_``, as a method and as a function. ``formula``: how ``eval
    --formula`` prints the op -- ``infix("+")``, ``prefix("-")``,
    ``call("dim")`` (a function call, with those parameters as keywords),
    ``SAME`` (it prints as its input) or ``custom("index")`` (a renderer in
    grammar/formula.py).

Adding an op: one row here and one case in ``tests/op_cases.py``. A unary
elementwise op with PyTorch's name needs nothing else: the function, the
method, the in-place variant, the language and the formula printer all come
from the row (tests/test_op_surface.py checks that each part exists).
"""
import math

from .backend import backend_for, special

__all__ = ["Op", "TABLE", "infix", "prefix", "call", "custom", "SAME"]

TABLE = {}


# ------------------------------------------------------- how formulas print ops

def infix(symbol, left=None, right=None):
    """`a symbol b`; `left`/`right` name a parameter that stands in for a missing operand."""
    return ("infix", symbol, left, right)


def prefix(symbol):
    return ("prefix", symbol)


def call(*keywords):
    """`name(args, k=v, ...)` with the named parameters (those not None) as keywords."""
    return ("call", keywords)


PARAMS_ELIDED = ("call", None)  # `name(args, k=..., ...)`: what a row that declares nothing prints


def custom(kind):
    return ("custom", kind)


SAME = ("same",)


class Op:
    name = None
    node = None
    saves = ()
    save_for = None
    differentiable = True
    moves_device = False  # the result lives on params["device"], not on the inputs' device
    elementwise = False   # the result has the inputs' broadcast shape, and so does each gradient formula
    is_view = False       # the result may share memory (and so a version counter) with input 0
    view_overlaps = False  # a view whose elements repeat the input's (expand)
    reflected = False     # `2 * b` is PyTorch's b.__rmul__(2): next_functions lists b first
    # the public surface
    names = ()
    wrapper = None
    method = False
    inplace = False
    formula = PARAMS_ELIDED

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        cls.keeps = {}  # which saves a node keeps, by which inputs want a gradient (tensor.py)
        cls.special = cls.is_view or cls.moves_device  # apply() takes its longer way
        if cls.name is not None:
            TABLE[cls.name] = cls


class Elementwise(Op):
    """A unary elementwise op with PyTorch's name: function, method and in-place variant from the row."""
    elementwise = True
    formula = call()
    wrapper = "unary"
    method = True
    inplace = True

    def __init_subclass__(cls, **kw):
        if cls.name is not None and "names" not in cls.__dict__:
            cls.names = (cls.name,)
        super().__init_subclass__(**kw)


def _normalize_dims(dim, ndim):
    """A tuple of non-negative axes from an int, a sequence or None (all)."""
    if dim is None:
        return tuple(range(ndim))
    if isinstance(dim, int):
        dim = (dim,)
    return tuple(sorted(d % ndim if ndim else 0 for d in dim))


def _keepdim_shape(shape, dim):
    """`shape` with the reduced axes kept as 1."""
    axes = _normalize_dims(dim, len(shape))
    return tuple(1 if i in axes else s for i, s in enumerate(shape))


def _unreduce(F, ctx, g, dim, keepdim):
    """A reduction's gradient reshaped so it broadcasts against the input."""
    if dim is not None and not keepdim:
        g = F.reshape(g, shape=_keepdim_shape(ctx.shapes[0], dim))
    return g


def _reduced_count(shape, dim):
    n = 1
    for a in _normalize_dims(dim, len(shape)):
        n *= shape[a]
    return n


# ----------------------------------------------------------------- arithmetic

class Add(Op):
    name = "add"
    reflected = True
    names = ("add",)
    method = inplace = True
    formula = infix("+")
    elementwise = True
    node = "AddBackward0"

    def forward(xp, a, b):
        return a + b

    def backward(F, ctx, g):
        return g, g


class Sub(Op):
    name = "sub"
    reflected = True
    names = ("sub", "subtract")
    method = inplace = True
    formula = infix("-")
    elementwise = True
    node = staticmethod(lambda ctx: "RsubBackward1" if ctx.shapes[0] is None else "SubBackward0")

    def forward(xp, a, b):
        return a - b

    def backward(F, ctx, g):
        return g, (-g if ctx.needs[1] else None)


class Mul(Op):
    name = "mul"
    reflected = True
    names = ("mul", "multiply")
    wrapper = "binary"
    method = inplace = True
    formula = infix("*")
    elementwise = True
    node = "MulBackward0"
    saves = (0, 1)
    save_for = ((1,), (0,))

    def forward(xp, a, b):
        return a * b

    def backward(F, ctx, g, a, b):
        return (g * b if ctx.needs[0] else None), (g * a if ctx.needs[1] else None)


class Div(Op):
    name = "div"
    names = ("div", "divide", "true_divide")
    method = inplace = True
    formula = infix("/")
    elementwise = True
    node = "DivBackward0"  # number / tensor is reciprocal(tensor) * number, as in PyTorch
    saves = (0, 1)
    save_for = ((1,), (0, 1))

    def forward(xp, a, b):
        return a / b

    def backward(F, ctx, g, a, b):
        ga = g / b if ctx.needs[0] else None
        gb = -g * a / (b * b) if ctx.needs[1] else None
        return ga, gb


class Remainder(Op):
    """a % b (Python's sign convention, as torch.remainder)."""
    name = "remainder"
    names = ("remainder",)
    wrapper = "binary"
    method = inplace = True
    elementwise = True
    node = "RemainderBackward0"
    saves = (0, 1)
    save_for = ((1,), (1,))

    def forward(xp, a, b):
        return xp.remainder(a, b)

    def backward(F, ctx, g, a, b):
        gb = None
        if ctx.needs[1]:
            gb = -g * F.floor_divide(a, b)
        return (g if ctx.needs[0] else None), gb


class Atan2(Op):
    name = "atan2"
    names = ("atan2", "arctan2")
    node = "Atan2Backward0"
    wrapper = "binary"
    method = inplace = elementwise = True
    saves = (0, 1)

    def forward(xp, a, b):
        return xp.arctan2(a, b)

    def backward(F, ctx, g, a, b):
        r = g / (a * a + b * b)
        return (r * b if ctx.needs[0] else None), (-r * a if ctx.needs[1] else None)


class Hypot(Op):
    name = "hypot"
    names = ("hypot",)
    node = "HypotBackward0"
    wrapper = "binary"
    method = inplace = elementwise = True
    saves = (0, 1, "out")

    def forward(xp, a, b):
        return xp.hypot(a, b)

    def backward(F, ctx, g, a, b, out):
        r = g / out
        return (r * a if ctx.needs[0] else None), (r * b if ctx.needs[1] else None)


class Neg(Elementwise):
    name = "neg"
    names = ("neg", "negative")
    formula = prefix("-")
    node = "NegBackward0"

    def forward(xp, x):
        return -x

    def backward(F, ctx, g):
        return (-g,)


class Reciprocal(Elementwise):
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
        if exponent == 2:
            return x * x
        return x ** exponent

    def backward(F, ctx, g, x, exponent):
        # PyTorch's pow_backward: grad * (exponent * x ** (exponent - 1)), zeros for exponent 0.
        # Recorded (create_graph) it keeps x ** (exponent - 1) even when that is x ** 0, so the
        # derivative of x**2 is differentiable twice more (to 0) as in PyTorch.
        if exponent == 0:
            return (g * 0,)
        if not F.graph:
            if exponent == 1:
                return (g,)
            if exponent == 2:
                return (g * 2 * x,)  # the same bits as g * (2 * x): doubling is exact
        return (g * (exponent * F.pow_scalar(x, exponent=exponent - 1)),)


class Pow(Op):
    """tensor ** tensor"""
    name = "pow"
    names = ("pow", "square")
    method = inplace = True
    formula = infix("**")
    elementwise = True
    node = "PowBackward1"
    saves = (0, 1, "out")

    def forward(xp, a, b):
        return a ** b

    def backward(F, ctx, g, a, b, out):
        # d(a**b)/da = b a**(b-1), taken as 0 where b == 0 (as PyTorch)
        ga = F.where(b == 0, 0.0, g * b * a ** (b - 1)) if ctx.needs[0] else None
        gb = None
        if ctx.needs[1]:
            # d(a**b)/db = a**b log a, taken as 0 where a == 0 and b >= 0 (as PyTorch)
            gb = F.where((a == 0) & (b >= 0), 0.0, g * out * F.log(a))
        return ga, gb


class RpowScalar(Op):
    """number ** tensor"""
    name = "rpow_scalar"
    formula = infix("**", left="base")
    elementwise = True
    node = "PowBackward2"
    saves = ("out",)

    def forward(xp, x, base):
        return base ** x

    def backward(F, ctx, g, out, base):
        if base == 0:
            return (g * 0,)
        return (g * out * math.log(base),)


class Maximum(Op):
    name = "maximum"
    names = ("maximum",)
    method = True
    elementwise = True
    node = "MaximumBackward0"
    saves = (0, 1)

    def forward(xp, a, b):
        return xp.maximum(a, b)

    def backward(F, ctx, g, a, b):
        tie = (a == b) * 0.5
        ga = g * ((a > b) + tie) if ctx.needs[0] else None
        gb = g * ((a < b) + tie) if ctx.needs[1] else None
        return ga, gb


class Minimum(Op):
    name = "minimum"
    names = ("minimum",)
    method = True
    elementwise = True
    node = "MinimumBackward0"
    saves = (0, 1)

    def forward(xp, a, b):
        return xp.minimum(a, b)

    def backward(F, ctx, g, a, b):
        tie = (a == b) * 0.5
        ga = g * ((a < b) + tie) if ctx.needs[0] else None
        gb = g * ((a > b) + tie) if ctx.needs[1] else None
        return ga, gb


class Where(Op):
    """where(cond, a, b); `cond` is a parameter (a bool array), not differentiated."""
    name = "where"
    names = ("where",)
    method = True  # Tensor.where(condition, other) puts self second: tensor.py writes that one by hand
    formula = custom("where")
    elementwise = True
    node = "WhereBackward0"

    def forward(xp, a, b, cond):
        return xp.where(cond, a, b)

    def backward(F, ctx, g, cond):
        ga = F.where(cond, g, 0.0) if ctx.needs[0] else None
        gb = F.where(cond, 0.0, g) if ctx.needs[1] else None
        return ga, gb


# ------------------------------------------------------------------ unary math

class Abs(Elementwise):
    name = "abs"
    names = ("abs", "absolute")
    node = "AbsBackward0"
    saves = (0,)

    def forward(xp, x):
        return xp.abs(x)

    def backward(F, ctx, g, x):
        return (g * F.sign(x),)


class Sign(Elementwise):
    name = "sign"
    node = "SignBackward0"

    def forward(xp, x):
        return xp.sign(x)

    def backward(F, ctx, g):
        return (g * 0,)


class Exp(Elementwise):
    name = "exp"
    node = "ExpBackward0"
    saves = ("out",)

    def forward(xp, x):
        return xp.exp(x)

    def backward(F, ctx, g, out):
        return (g * out,)


class Log(Elementwise):
    name = "log"
    node = "LogBackward0"
    saves = (0,)

    def forward(xp, x):
        return xp.log(x)

    def backward(F, ctx, g, x):
        return (g / x,)


class Sqrt(Elementwise):
    name = "sqrt"
    node = "SqrtBackward0"
    saves = ("out",)

    def forward(xp, x):
        return xp.sqrt(x)

    def backward(F, ctx, g, out):
        return (g / (out * 2),)


class Sin(Elementwise):
    name = "sin"
    node = "SinBackward0"
    saves = (0,)

    def forward(xp, x):
        return xp.sin(x)

    def backward(F, ctx, g, x):
        return (g * F.cos(x),)


class Cos(Elementwise):
    name = "cos"
    node = "CosBackward0"
    saves = (0,)

    def forward(xp, x):
        return xp.cos(x)

    def backward(F, ctx, g, x):
        return (-(g * F.sin(x)),)


class Tan(Elementwise):
    name = "tan"
    node = "TanBackward0"
    saves = ("out",)

    def forward(xp, x):
        return xp.tan(x)

    def backward(F, ctx, g, out):
        return (g * (out * out + 1),)


class Tanh(Elementwise):
    name = "tanh"
    node = "TanhBackward0"
    saves = ("out",)

    def forward(xp, x):
        return xp.tanh(x)

    def backward(F, ctx, g, out):
        return (g * (1 - out * out),)


class Sigmoid(Elementwise):
    name = "sigmoid"
    node = "SigmoidBackward0"
    saves = ("out",)

    def forward(xp, x):
        # split by sign so that exp never overflows
        e = xp.exp(-xp.abs(x))
        return xp.where(x >= 0, 1 / (1 + e), e / (1 + e))

    def backward(F, ctx, g, out):
        return (g * (out * (1 - out)),)


class Relu(Elementwise):
    name = "relu"
    node = "ReluBackward0"
    saves = ("out",)

    def forward(xp, x):
        return xp.maximum(x, 0)

    def backward(F, ctx, g, out):
        return (g * (out > 0),)


class Sinh(Elementwise):
    name = "sinh"
    node = "SinhBackward0"
    saves = (0,)

    def forward(xp, x):
        return xp.sinh(x)

    def backward(F, ctx, g, x):
        return (g * F.cosh(x),)


class Cosh(Elementwise):
    name = "cosh"
    node = "CoshBackward0"
    saves = (0,)

    def forward(xp, x):
        return xp.cosh(x)

    def backward(F, ctx, g, x):
        return (g * F.sinh(x),)


class Log1p(Elementwise):
    name = "log1p"
    node = "Log1PBackward0"
    saves = (0,)

    def forward(xp, x):
        return xp.log1p(x)

    def backward(F, ctx, g, x):
        return (g / (x + 1),)


class Expm1(Elementwise):
    name = "expm1"
    node = "Expm1Backward0"
    saves = ("out",)

    def forward(xp, x):
        return xp.expm1(x)

    def backward(F, ctx, g, out):
        return (g * (out + 1),)


class Atan(Elementwise):
    name = "atan"
    names = ("atan", "arctan")
    node = "AtanBackward0"
    saves = (0,)

    def forward(xp, x):
        return xp.arctan(x)

    def backward(F, ctx, g, x):
        return (g / (x * x + 1),)


class Asin(Elementwise):
    name = "asin"
    names = ("asin", "arcsin")
    node = "AsinBackward0"
    saves = (0,)

    def forward(xp, x):
        return xp.arcsin(x)

    def backward(F, ctx, g, x):
        return (g / F.sqrt(1 - x * x),)


class Acos(Elementwise):
    name = "acos"
    names = ("acos", "arccos")
    node = "AcosBackward0"
    saves = (0,)

    def forward(xp, x):
        return xp.arccos(x)

    def backward(F, ctx, g, x):
        return (-g / F.sqrt(1 - x * x),)


class Erf(Elementwise):
    name = "erf"
    node = "ErfBackward0"
    saves = (0,)

    def forward(xp, x):
        return special(xp, "erf")(x)

    def backward(F, ctx, g, x):
        return (g * (2 / math.sqrt(math.pi)) * F.exp(-(x * x)),)


class Clamp(Op):
    """clamp(x, min, max) with number bounds (either may be None)."""
    name = "clamp"
    names = ("clamp", "clip", "clamp_min", "clamp_max")
    method = inplace = True
    formula = call("min", "max")
    elementwise = True
    node = staticmethod(lambda ctx: ctx.params.get("name") or "ClampBackward1")
    saves = (0,)

    def forward(xp, x, min=None, max=None, name=None):
        return xp.clip(x, min, max)

    def backward(F, ctx, g, x, min=None, max=None, name=None):
        if min is not None and max is not None:
            return (g * ((x >= min) & (x <= max)),)
        if min is not None:
            return (g * (x >= min),)
        return (g * (x <= max),)


# ----------------------------------------------------------------- reductions

def _reduction_name(base):
    """PyTorch's names: ...Backward0 for a whole-tensor reduction, ...Backward1 with dim or keepdim."""
    return staticmethod(lambda ctx: f"{base}Backward0" if ctx.params.get("dim") is None
                        and not ctx.params.get("keepdim") else f"{base}Backward1")


class Sum(Op):
    name = "sum"
    names = ("sum",)
    method = True
    formula = custom("reduction")
    node = _reduction_name("Sum")

    def forward(xp, x, dim=None, keepdim=False):
        return xp.sum(x, axis=dim, keepdims=keepdim)

    def backward(F, ctx, g, dim=None, keepdim=False):
        return (F.expand(_unreduce(F, ctx, g, dim, keepdim), shape=ctx.shapes[0]),)


class Mean(Op):
    name = "mean"
    names = ("mean",)
    method = True
    formula = custom("reduction")
    node = _reduction_name("Mean")

    def forward(xp, x, dim=None, keepdim=False):
        return xp.mean(x, axis=dim, keepdims=keepdim)

    def backward(F, ctx, g, dim=None, keepdim=False):
        n = _reduced_count(ctx.shapes[0], dim)
        return (F.expand(_unreduce(F, ctx, g, dim, keepdim) / n, shape=ctx.shapes[0]),)


class SumTo(Op):
    """Sum a broadcast gradient back to a shape: the one place broadcasting is undone."""
    name = "sum_to"
    formula = custom("sum_to")
    node = "SumToBackward0"

    def forward(xp, x, shape):
        return sum_to_array(x, shape)

    def backward(F, ctx, g, shape):
        return (F.expand(g, shape=ctx.shapes[0]),)


def sum_to_array(x, shape):
    """Sum the leading and the stretched axes of array `x` so it has `shape`."""
    if x.shape == shape:
        return x
    lead = x.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(i + lead for i, s in enumerate(shape)
                                      if s == 1 and x.shape[i + lead] != 1)
    if axes:
        x = x.sum(axis=axes, keepdims=True)
    return x.reshape(shape) if lead else x


class Prod(Op):
    name = "prod"
    names = ("prod",)
    method = True
    formula = custom("reduction")
    node = staticmethod(lambda ctx: "ProdBackward0" if ctx.params.get("dim") is None else "ProdBackward1")
    saves = (0,)

    def forward(xp, x, dim=None, keepdim=False):
        return xp.prod(x, axis=dim, keepdims=keepdim)

    def backward(F, ctx, g, x, dim=None, keepdim=False):
        g = _unreduce(F, ctx, g, dim, keepdim)
        return (g * F.prod_others(x, dim=dim),)


class ProdOthers(Op):
    """For each element, the product of the others along `dim` (all, if None).

    The derivative of `prod`; computed with exclusive cumulative products so
    zeros are exact, and itself differentiable for higher orders."""
    name = "prod_others"
    node = "ProdBackward1"
    saves = (0,)

    def forward(xp, x, dim=None):
        if dim is None:
            return ProdOthers.forward(xp, x.reshape(-1), 0).reshape(x.shape)
        x = xp.moveaxis(x, dim, -1)
        ones = xp.ones(x.shape[:-1] + (1,), dtype=x.dtype)
        before = xp.cumprod(xp.concatenate([ones, x[..., :-1]], axis=-1), axis=-1)
        after = xp.flip(xp.cumprod(xp.concatenate([ones, xp.flip(x, -1)[..., :-1]], axis=-1), axis=-1), -1)
        return xp.moveaxis(before * after, -1, dim)

    def backward(F, ctx, g, x, dim=None):
        # d others_i / d x_j = product of all but i and j (i != j), 0 on i == j:
        # the others-products of the rows of a matrix whose row i has x_i set to 1.
        shape = ctx.shapes[0]
        if dim is None:
            flat = F.reshape(x, shape=(-1,))
            gf = F.reshape(g, shape=(-1,))
            return (F.reshape(ProdOthers._backward_last(F, gf, flat), shape=shape),)
        nd = len(shape)
        dim = dim % nd
        xl = F.transpose(x, dim0=dim, dim1=nd - 1)
        gl = F.transpose(g, dim0=dim, dim1=nd - 1)
        return (F.transpose(ProdOthers._backward_last(F, gl, xl), dim0=dim, dim1=nd - 1),)

    @staticmethod
    def _backward_last(F, g, x):
        n = x.shape[-1]
        eye = F.eye_mask(n)
        rows = F.where(eye, 1.0, F.unsqueeze(x, dim=-2))       # (..., n, n)
        pairs = F.where(eye, 0.0, F.prod_others(rows, dim=-1))  # (..., i, j)
        return F.sum(F.unsqueeze(g, dim=-1) * pairs, dim=-2)


class Amax(Op):
    """amax(x, dim): the largest values; tied elements share the gradient evenly."""
    name = "amax"
    names = ("amax",)
    method = True
    formula = custom("reduction")
    node = "AmaxBackward0"
    saves = (0, "out")

    def forward(xp, x, dim=None, keepdim=False):
        return xp.max(x, axis=dim, keepdims=keepdim)

    def backward(F, ctx, g, x, out, dim=None, keepdim=False):
        return (_share_among_ties(F, ctx, g, x, out, dim, keepdim),)


class Amin(Op):
    name = "amin"
    names = ("amin",)
    method = True
    formula = custom("reduction")
    node = "AminBackward0"
    saves = (0, "out")

    def forward(xp, x, dim=None, keepdim=False):
        return xp.min(x, axis=dim, keepdims=keepdim)

    def backward(F, ctx, g, x, out, dim=None, keepdim=False):
        return (_share_among_ties(F, ctx, g, x, out, dim, keepdim),)


def _share_among_ties(F, ctx, g, x, out, dim, keepdim):
    """The gradient of a largest (smallest) value, shared evenly among the elements tied for it."""
    g = _unreduce(F, ctx, g, dim, keepdim)
    out = _unreduce(F, ctx, out, dim, keepdim)
    mask = x == out
    return g * mask / F.sum(mask * 1.0, dim=dim, keepdim=True)


class MaxAll(Op):
    name = "max_all"
    names = ("max",)  # max(x); max(x, dim) and max(x, y) are other rows
    method = True
    formula = custom("extreme")
    node = "MaxBackward1"
    saves = (0, "out")

    def forward(xp, x):
        return xp.max(x)

    def backward(F, ctx, g, x, out):
        return (_share_among_ties(F, ctx, g, x, out, None, False),)


class MinAll(Op):
    name = "min_all"
    names = ("min",)
    method = True
    formula = custom("extreme")
    node = "MinBackward1"
    saves = (0, "out")

    def forward(xp, x):
        return xp.min(x)

    def backward(F, ctx, g, x, out):
        return (_share_among_ties(F, ctx, g, x, out, None, False),)


class ExtremeDim(Op):
    """max(x, dim) / min(x, dim) values; `indices` (from argmax/argmin) is a parameter."""
    name = "extreme_dim"
    node = staticmethod(lambda ctx: ctx.params["name"])

    def forward(xp, x, dim, keepdim, indices, name):
        idx = xp.expand_dims(indices, dim) if not keepdim else indices
        out = xp.take_along_axis(x, idx, axis=dim)
        return out if keepdim else xp.squeeze(out, axis=dim)

    def backward(F, ctx, g, dim, keepdim, indices, name):
        if not keepdim:
            g = F.unsqueeze(g, dim=dim)
            indices = indices.reshape(_keepdim_shape(ctx.shapes[0], dim))
        return (F.put_along(g, indices=indices, dim=dim, shape=ctx.shapes[0]),)


class TakeAlong(Op):
    """x gathered at `indices` along `dim` (same ndim)."""
    name = "take_along"
    node = "GatherBackward0"

    def forward(xp, x, indices, dim):
        return xp.take_along_axis(x, indices, axis=dim)

    def backward(F, ctx, g, indices, dim):
        return (F.put_along(g, indices=indices, dim=dim, shape=ctx.shapes[0]),)


class PutAlong(Op):
    """Zeros of `shape` with `g` added at `indices` along `dim`: the inverse of take_along."""
    name = "put_along"
    node = "ScatterAddBackward0"

    def forward(xp, g, indices, dim, shape):
        out = xp.zeros(shape, dtype=g.dtype)
        where = list(xp.indices(indices.shape, sparse=True))
        where[dim] = indices
        scatter_add(xp, out, tuple(where), g)  # repeated indices add up
        return out

    def backward(F, ctx, g, indices, dim, shape):
        return (F.take_along(g, indices=indices, dim=dim),)


class Norm(Op):
    """The p-norm over everything or over `dim`: p = 2 (default), 1, inf, or any p > 0."""
    name = "norm"
    names = ("norm",)
    method = True
    formula = custom("norm")
    node = "LinalgVectorNormBackward0"
    saves = (0, "out")

    def forward(xp, x, p=2, dim=None, keepdim=False):
        a = xp.abs(x)
        if p == 2:
            return xp.sqrt(xp.sum(a * a, axis=dim, keepdims=keepdim))
        if p == 1:
            return xp.sum(a, axis=dim, keepdims=keepdim)
        if p == math.inf:
            return xp.max(a, axis=dim, keepdims=keepdim)
        return xp.sum(a ** p, axis=dim, keepdims=keepdim) ** (1.0 / p)

    def backward(F, ctx, g, x, out, p=2, dim=None, keepdim=False):
        g = _unreduce(F, ctx, g, dim, keepdim)
        out = _unreduce(F, ctx, out, dim, keepdim)
        if p == 1:
            return (g * F.sign(x),)
        if p == math.inf:
            a = F.abs(x)
            mask = a == out
            count = F.sum(mask * 1.0, dim=dim, keepdim=True)
            return (g * F.sign(x) * mask / count,)
        if p == 2:
            return (F.where(out == 0, 0.0, g * x / out),)
        a = F.abs(x)
        return (F.where(out == 0, 0.0, g * x * F.pow_scalar(a, exponent=p - 2) /
                        F.pow_scalar(out, exponent=p - 1)),)


class Logsumexp(Op):
    name = "logsumexp"
    names = ("logsumexp",)
    method = True
    formula = custom("reduction")
    node = "LogsumexpBackward0"
    saves = (0, "out")

    def forward(xp, x, dim, keepdim=False):
        m = xp.max(x, axis=dim, keepdims=True)
        m = xp.where(xp.isfinite(m), m, 0)
        out = xp.log(xp.sum(xp.exp(x - m), axis=dim, keepdims=True)) + m
        return out if keepdim else xp.squeeze(out, axis=dim)

    def backward(F, ctx, g, x, out, dim, keepdim=False):
        g = _unreduce(F, ctx, g, dim, keepdim)
        out = _unreduce(F, ctx, out, dim, keepdim)
        return (g * F.exp(x - out),)


class Softmax(Op):
    name = "softmax"
    names = ("softmax",)
    method = True
    formula = call("dim")
    node = "SoftmaxBackward0"
    saves = ("out",)

    def forward(xp, x, dim):
        e = xp.exp(x - xp.max(x, axis=dim, keepdims=True))
        return e / xp.sum(e, axis=dim, keepdims=True)

    def backward(F, ctx, g, out, dim):
        gs = g * out
        return (gs - out * F.sum(gs, dim=dim, keepdim=True),)


class LogSoftmax(Op):
    name = "log_softmax"
    names = ("log_softmax",)
    method = True
    formula = call("dim")
    node = "LogSoftmaxBackward0"
    saves = ("out",)

    def forward(xp, x, dim):
        s = x - xp.max(x, axis=dim, keepdims=True)
        return s - xp.log(xp.sum(xp.exp(s), axis=dim, keepdims=True))

    def backward(F, ctx, g, out, dim):
        return (g - F.exp(out) * F.sum(g, dim=dim, keepdim=True),)


# ---------------------------------------------------------------- linear algebra

def _matmul_name(ctx):
    a, b = len(ctx.shapes[0]), len(ctx.shapes[1])
    if a == 2 and b == 2:
        return "MmBackward0"
    if a == 1 and b == 1:
        return "DotBackward0"
    if a == 2 and b == 1:
        return "MvBackward0"
    if a == 3 and b == 3 and ctx.shapes[0][0] == ctx.shapes[1][0]:
        return "BmmBackward0"
    return "MatmulBackward0"


class Matmul(Op):
    name = "matmul"
    names = ("matmul", "mm", "mv", "dot")
    method = True
    formula = infix("@")
    node = staticmethod(_matmul_name)
    saves = (0, 1)
    save_for = ((1,), (0,))

    def forward(xp, a, b):
        return xp.matmul(a, b)

    def backward(F, ctx, g, a, b):
        na, nb = len(ctx.shapes[0]), len(ctx.shapes[1])
        ga = gb = None
        if na == 1 and nb == 1:
            return (g * b if ctx.needs[0] else None), (g * a if ctx.needs[1] else None)
        if na == 1:  # (n) @ (..., n, p) -> (..., p); the core sums batch axes away
            if ctx.needs[0]:
                ga = F.reshape(F.matmul(b, F.unsqueeze(g, dim=-1)), shape=tuple(g.shape[:-1]) + ctx.shapes[0])
            if ctx.needs[1]:
                gb = F.unsqueeze(a, dim=-1) * F.unsqueeze(g, dim=-2)
            return ga, gb
        if nb == 1:  # (..., m, n) @ (n) -> (..., m)
            if ctx.needs[0]:
                ga = F.unsqueeze(g, dim=-1) * b
            if ctx.needs[1]:
                gb = F.reshape(F.matmul(F.unsqueeze(g, dim=-2), a), shape=tuple(g.shape[:-1]) + ctx.shapes[1])
            return ga, gb
        if ctx.needs[0]:
            ga = F.matmul(g, F.transpose(b, dim0=-1, dim1=-2))
        if ctx.needs[1]:
            gb = F.matmul(F.transpose(a, dim0=-1, dim1=-2), g)
        return ga, gb


class Linear(Op):
    """linear(x, W, b) = x @ W.T + b, as torch.nn.functional.linear."""
    name = "linear"
    names = ("linear",)
    node = staticmethod(lambda ctx: "LinearBackward0" if len(ctx.shapes[0]) != 2 else
                        "AddmmBackward0" if len(ctx.shapes) == 3 else "MmBackward0")
    saves = (0, 1)
    save_for = ((1,), (0,))

    def forward(xp, x, w, b=None):
        out = xp.matmul(x, w.T)
        return out if b is None else out + b

    def backward(F, ctx, g, x, w):
        gx = F.matmul(g, w) if ctx.needs[0] else None
        gw = None
        if ctx.needs[1]:
            if len(ctx.shapes[0]) == 1:
                gw = F.unsqueeze(g, dim=-1) * x
            else:
                g2 = F.reshape(g, shape=(-1, ctx.shapes[1][0]))
                x2 = F.reshape(x, shape=(-1, ctx.shapes[1][1]))
                gw = F.matmul(F.transpose(g2, dim0=0, dim1=1), x2)
        if len(ctx.shapes) == 3:
            return gx, gw, (g if ctx.needs[2] else None)
        return gx, gw


# ---------------------------------------------------------------------- shapes

class Reshape(Op):
    name = "reshape"
    names = ("reshape", "view", "flatten")
    method = True
    formula = custom("reshape")
    node = "ViewBackward0"
    is_view = True

    def forward(xp, x, shape):
        return xp.reshape(x, shape)

    def backward(F, ctx, g, shape):
        return (F.reshape(g, shape=ctx.shapes[0]),)


class Unsqueeze(Op):
    name = "unsqueeze"
    names = ("unsqueeze",)
    method = True
    formula = custom("reshape")
    node = "UnsqueezeBackward0"
    is_view = True

    def forward(xp, x, dim):
        return xp.expand_dims(x, dim)

    def backward(F, ctx, g, dim):
        return (F.reshape(g, shape=ctx.shapes[0]),)


class Squeeze(Op):
    name = "squeeze"
    names = ("squeeze",)
    method = True
    formula = custom("reshape")
    node = staticmethod(lambda ctx: "SqueezeBackward0" if ctx.params.get("dim") is None else "SqueezeBackward1")
    is_view = True

    def forward(xp, x, dim=None):
        if dim is None:
            return xp.squeeze(x)
        return xp.squeeze(x, axis=dim) if x.shape[dim] == 1 else x

    def backward(F, ctx, g, dim=None):
        return (F.reshape(g, shape=ctx.shapes[0]),)


class Transpose(Op):
    name = "transpose"
    names = ("transpose", "swapaxes", "t")
    method = True
    formula = custom("transpose")
    node = staticmethod(lambda ctx: ctx.params.get("name") or "TransposeBackward0")
    is_view = True

    def forward(xp, x, dim0, dim1, name=None):
        return xp.swapaxes(x, dim0, dim1)

    def backward(F, ctx, g, dim0, dim1, name=None):
        return (F.transpose(g, dim0=dim0, dim1=dim1),)


class Permute(Op):
    name = "permute"
    names = ("permute",)
    method = True
    formula = custom("permute")
    node = "PermuteBackward0"
    is_view = True

    def forward(xp, x, dims):
        return xp.transpose(x, dims)

    def backward(F, ctx, g, dims):
        inverse = [0] * len(dims)
        for i, d in enumerate(dims):
            inverse[d] = i
        return (F.permute(g, dims=tuple(inverse)),)


class Expand(Op):
    """Broadcast to `shape` (a read-only view); the core sums the gradient back."""
    name = "expand"
    names = ("expand", "broadcast_to")
    method = True
    formula = custom("reshape")
    elementwise = True
    node = "ExpandBackward0"
    is_view = True
    view_overlaps = True

    def forward(xp, x, shape):
        return xp.broadcast_to(x, shape)

    def backward(F, ctx, g, shape):
        return (g,)


class Cat(Op):
    name = "cat"
    names = ("cat", "concat", "concatenate")
    formula = custom("join")
    node = "CatBackward0"

    def forward(xp, *xs, dim=0):
        return xp.concatenate(xs, axis=dim)

    def backward(F, ctx, g, dim=0):
        grads, start = [], 0
        nd = len(ctx.shapes[0])
        d = dim % nd
        for shape, need in zip(ctx.shapes, ctx.needs):
            stop = start + shape[d]
            grads.append(F.getitem(g, key=(slice(None),) * d + (slice(start, stop),)) if need else None)
            start = stop
        return tuple(grads)


class Stack(Op):
    name = "stack"
    names = ("stack",)
    formula = custom("join")
    node = "StackBackward0"

    def forward(xp, *xs, dim=0):
        return xp.stack(xs, axis=dim)

    def backward(F, ctx, g, dim=0):
        d = dim % (len(ctx.shapes[0]) + 1)
        return tuple(F.getitem(g, key=(slice(None),) * d + (i,)) if need else None
                     for i, need in enumerate(ctx.needs))


_FULL_SLICE = slice(None)


def _index_name(ctx):
    """PyTorch names an indexing result by the last step it applies (x[0, 1:3] is a slice)."""
    key = ctx.params["key"]
    if not is_basic_key(key):
        return "IndexBackward0"
    for k in reversed(key):
        if k is Ellipsis or k == _FULL_SLICE:
            continue
        if k is None:
            return "UnsqueezeBackward0"
        return "SelectBackward0" if isinstance(k, int) else "SliceBackward0"
    return "SliceBackward0" if _FULL_SLICE in key else "AliasBackward0"


class Getitem(Op):
    """x[key]; `key` is a tuple of ints, slices, None, Ellipsis and index arrays."""
    name = "getitem"  # x[key]; the language and Tensor.__getitem__ reach it
    formula = custom("index")
    node = staticmethod(_index_name)
    is_view = True

    def forward(xp, x, key):
        if not any(k is Ellipsis for k in key):
            key = key + (Ellipsis,)  # x[1, 2] as a 0-d view, not a copied number
        return x[key]

    def backward(F, ctx, g, key):
        return (F.index_grad(g, key=key, shape=ctx.shapes[0]),)


def is_basic_key(key):
    return all(k is None or k is Ellipsis or isinstance(k, (int, slice)) for k in key)


class IndexGrad(Op):
    """Zeros of `shape` with `g` added at `key` (repeated indices accumulate)."""
    name = "index_grad"
    node = "IndexPutBackward0"

    def forward(xp, g, key, shape):
        out = xp.zeros(shape, dtype=g.dtype)
        if is_basic_key(key):
            out[key] = g
        else:
            scatter_add(xp, out, key, g)
        return out

    def backward(F, ctx, g, key, shape):
        return (F.getitem(g, key=key),)


def scatter_add(xp, target, key, values):
    if hasattr(xp.add, "at"):
        xp.add.at(target, key, values)
    else:  # cupy
        import cupyx
        cupyx.scatter_add(target, key, values)


class IndexPut(Op):
    """x with x[key] = v, out of place, for a key with index arrays (a basic key
    makes a view, and writing through a view is CopySlices below)."""
    name = "index_put"
    node = "IndexPutBackward0"

    def forward(xp, x, v, key):
        out = xp.array(x, copy=True)
        out[key] = v
        return out

    def backward(F, ctx, g, key):
        gx = F.index_put(g, 0.0, key=key) if ctx.needs[0] else None
        gv = F.getitem(g, key=key) if ctx.needs[1] else None
        return gx, gv


# ------------------------------------------------- views written through in place
#
# A view records how it was made from its base as a `chain`: a tuple of
# (view row, params) steps. Replaying the chain on an array shaped like the
# base selects the same elements. That is all three rows below need: the
# view's own node once its base changed (AsStrided), the gradient that node
# sends back (ViewScatter), and the base's node after an in-place op on the
# view (CopySlices).

def view_region(xp, array, chain):
    """The elements of `array` (shaped like the base) that `chain` selects: a
    writable alias where the steps alias, else None and an index array into
    `array.reshape(-1)` (when a reshape step had to copy, or a step
    repeats elements, as expand does)."""
    region = array
    overlapping = False
    for op, params in chain:
        region = op.forward(xp, region, **params)
        overlapping = overlapping or op.view_overlaps
    if not overlapping and xp.may_share_memory(region, array):
        return region, None
    flat = xp.arange(array.size).reshape(array.shape)
    for op, params in chain:
        flat = op.forward(xp, flat, **params)
    return None, flat


def _write_region(xp, array, chain, value, add=False):
    """array[chain] = value (or += value, repeated elements adding up); `array` is C-contiguous."""
    region, index = view_region(xp, array, chain)
    if region is not None:
        if add:
            region += value
        else:
            region[...] = value
    elif add:
        scatter_add(xp, array.reshape(-1), index, xp.broadcast_to(value, index.shape))
    else:
        array.reshape(-1)[index] = value


class AsStrided(Op):
    """A view re-derived from its base (after either was changed in place)."""
    name = "as_strided"
    node = "AsStridedBackward0"

    def forward(xp, x, chain):
        for op, params in chain:
            x = op.forward(xp, x, **params)
        return x

    def backward(F, ctx, g, chain):
        return (F.view_scatter(g, chain=chain, shape=ctx.shapes[0]),)


class ViewScatter(Op):
    """Zeros shaped like the base, with `g` added where the view's elements are."""
    name = "view_scatter"
    node = "AsStridedScatterBackward0"

    def forward(xp, g, chain, shape):
        out = xp.zeros(shape, dtype=g.dtype)
        _write_region(xp, out, chain, g, add=True)
        return out

    def backward(F, ctx, g, chain, shape):
        return (F.as_strided(g, chain=chain),)


class CopySlices(Op):
    """The base after an in-place op on one of its views: `value` (the op's
    result) written over the view's elements."""
    name = "copy_slices"
    node = "CopySlices"

    def forward(xp, base, value, chain):
        out = xp.array(base, copy=True)
        _write_region(xp, out, chain, value)
        return out

    def backward(F, ctx, g, chain):
        gb = F.copy_slices(g, 0.0, chain=chain) if ctx.needs[0] else None
        gv = F.as_strided(g, chain=chain) if ctx.needs[1] else None
        return gb, gv


class Clone(Op):
    name = "clone"
    names = ("clone",)
    wrapper = "unary"
    method = True
    formula = SAME
    elementwise = True
    node = "CloneBackward0"

    def forward(xp, x):
        return x.copy()

    def backward(F, ctx, g):
        return (g,)


class Fill(Op):
    """What `x.fill_(v)` / `x.zero_()` record: the old values no longer matter."""
    name = "fill"  # x.fill_(v), x.zero_(): in-place only, written in tensor.py
    formula = custom("fill")
    node = staticmethod(lambda ctx: ctx.params.get("name") or "FillBackward2")

    def forward(xp, x, value, name=None):
        return xp.full_like(x, value)

    def backward(F, ctx, g, value, name=None):
        return (g * 0,)


class Copy(Op):
    """What `x.copy_(src)` records: the gradient goes to `src`."""
    name = "copy"  # x.copy_(src)
    node = staticmethod(lambda ctx: ctx.params.get("name") or "CopyBackwards")

    def forward(xp, x, src, name=None):
        return xp.broadcast_to(xp.asarray(src, dtype=x.dtype), x.shape)

    def backward(F, ctx, g, name=None):
        return (g * 0 if ctx.needs[0] else None), (g if ctx.needs[1] else None)


class ToDevice(Op):
    """A copy on another device; the gradient goes back to the source device."""
    name = "to_device"
    formula = SAME
    node = "ToCopyBackward0"
    moves_device = True

    def forward(xp, x, device, source):
        return backend_for(device).from_host(backend_for(source).to_host(x))

    def backward(F, ctx, g, device, source):
        return (F.to_device(g, device=source, source=device),)


class ToDtype(Op):
    name = "to_dtype"
    formula = SAME
    elementwise = True
    node = "ToCopyBackward0"

    def forward(xp, x, dtype):
        return x.astype(dtype)

    def backward(F, ctx, g, dtype):
        return (g,)  # the core casts the gradient to the input's dtype


# ------------------------------------------------- non-differentiable results

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



