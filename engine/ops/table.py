"""The base of the op table: `TABLE`, the `Op` row class, how formulas print
rows, and the helpers several families of rows share. The specification of a
row is the docstring of the `ops` package."""

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
    # check(arrays): tensors of mixed dtypes are cast to a common one before forward; a row whose
    # PyTorch check looks at the dtypes as given (sub refuses a bool tensor) makes it here first
    check_mixed = None
    view_overlaps = False  # a view whose elements repeat the input's (expand)
    # A number on the left (`2 * b`) is PyTorch's reflected call (b.__rmul__(2)): "swap" lists b's
    # edge first in next_functions; "drop" lists b's alone (rsub has no edge for the number)
    number_left = None
    # A number in the last place that PyTorch takes as a parameter of a Scalar overload
    # (masked_fill(mask, 0.0)): "drop" leaves its empty edge out of next_functions
    number_right = None
    # The second input is the node of an in-place op that PyTorch keeps inside this one (CopySlices):
    # next_functions lists that node's edges after its first (the view's old value) instead of it
    holds_op_node = False
    saves_params = False  # True (or a test of the params) when params hold index data backward needs:
    #                       freed after a backward like saved tensors (a second backward is an error)
    # A batched backward (grad(..., is_grads_batched=True)) hands `g` with a leading batch dim B:
    # (B,) + the result's shape. `batched = True`: `backward` is right as it is then (it returns
    # gradients with that leading dim, broadcasting against (B,) + the input's shape after it) --
    # the default of elementwise rows. Else `batched_backward` (the same signature as `backward`)
    # is the row's batch rule, and may return NotImplemented for arguments it does not handle;
    # without a rule the engine calls `backward` once per batch element and stacks the results.
    batched = False
    batched_backward = None
    # the public surface
    names = ()
    wrapper = None
    method = False
    inplace = False
    formula = PARAMS_ELIDED
    to_float = False  # the unary wrapper takes an integral or bool input in the default dtype (PyTorch's floating ops)
    ufunc = None  # the xp ufunc that forward is, for two tensors: a temporary's memory may take the result

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        cls.keeps = {}  # which saves a node keeps, by which inputs want a gradient (tensor.py)
        if "batched" not in cls.__dict__ and cls.elementwise:
            cls.batched = True  # g (B,) + out broadcasts against the saved inputs as it is
        cls.special = cls.is_view or cls.moves_device  # apply() takes its longer way
        cls.straight = not cls.special and cls.differentiable  # run_op's straight line may take it
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


class MaskedGradient(Op):
    """The gradient of a piecewise-linear activation, g(gradient, x), as a row of its own (PyTorch's
    threshold_backward, leaky_relu_backward): under create_graph it depends on x too, with a zero
    derivative, so a gradient of relu requires grad and can be differentiated again -- to zeros,
    as in PyTorch. A subclass gives name, node and forward; its parameters pass through."""
    elementwise = True
    saves = (1,)
    formula = custom("masked_gradient")

    def backward(F, ctx, gg, x, **params):
        return (getattr(F, ctx.op.name)(gg, x, **params) if ctx.needs[0] else None,
                F.zeros_like(gg) if ctx.needs[1] else None)


def _normalize_dims(dim, ndim):
    """A tuple of non-negative axes from an int, a sequence or None (all)."""
    if dim is None:
        return tuple(range(ndim))
    if isinstance(dim, int):
        dim = (dim,)
    return tuple(sorted(d % ndim if ndim else 0 for d in dim))


def keepdim_shape(shape, dim):
    """`shape` with the reduced axes kept as 1."""
    axes = _normalize_dims(dim, len(shape))
    return tuple(1 if i in axes else s for i, s in enumerate(shape))


def unreduce(F, ctx, g, dim, keepdim):
    """A reduction's gradient reshaped so it broadcasts against the input."""
    if dim is not None and not keepdim:
        g = F.reshape(g, shape=keepdim_shape(ctx.shapes[0], dim))
    return g


def unreduce_batched(F, ctx, g, dim, keepdim):
    """unreduce for a batched `g`, (B,) + the reduced shape: (B,) + the keepdim shape."""
    shape = ctx.shapes[0]
    if keepdim:
        return g
    kept = keepdim_shape(shape, dim) if dim is not None else (1,) * len(shape)
    if tuple(g.shape[1:]) == kept:
        return g
    return F.reshape(g, shape=(g.shape[0],) + kept)


def batch_dim(dim, ndim):
    """Axis `dim` of an ndim-d array as an axis of the same array with a leading batch dim
    (negative axes stay as they are); None where ndim is 0 (a 0-d input has no axis to move)."""
    if ndim == 0:
        return None
    return dim if dim < 0 else dim + 1


def batch_key(key):
    """An indexing key for an array with a leading batch dim that selects, for every batch
    element, what `key` selects: `key` after a full slice. None where numpy would then move the
    batch dim (advanced indices, ints among them, not next to each other)."""
    if not is_basic_key(key):
        advanced = [i for i, k in enumerate(key)
                    if not (k is None or k is Ellipsis or isinstance(k, slice))]
        if advanced[-1] - advanced[0] + 1 != len(advanced):
            return None
    return (_ALL,) + tuple(key)


_ALL = slice(None)


def reduced_count(shape, dim):
    n = 1
    for a in _normalize_dims(dim, len(shape)):
        n *= shape[a]
    return n


def is_basic_key(key):
    return all(k is None or k is Ellipsis or isinstance(k, (int, slice)) for k in key)


def scatter_add(xp, target, key, values):
    if hasattr(xp.add, "at"):
        xp.add.at(target, key, values)
    else:  # cupy
        import cupyx
        cupyx.scatter_add(target, key, values)
