"""The op table's registry and the base class of its rows.

A row (a class deriving from Op, in engine/ops/) registers itself in TABLE under its `name` when
it is defined; the core runs rows (run_op), records their nodes and runs their backward, and
looks up the few rows it uses itself (as_strided, copy_slices, sum_to, ...) by name when it
needs them -- so the core imports no row, and the rows import the core. The full specification
of a row is the docstring of the `ops` package.
"""

from ..signature import Signature

__all__ = ["TABLE", "Op", "is_basic_key"]

class _Registry(dict):
    """name -> row. The op families register as they load (engine/ops); a name no loaded family
    has registered loads every family before the lookup decides (`load_all`, set by engine/ops),
    so a reader of one row needs no family of its own loaded. Whoever walks the whole table
    calls `complete()` first."""

    load_all = None
    is_complete = False

    def __missing__(self, name):
        if self.load_all is not None and not self.is_complete:
            return self.complete()[name]
        raise KeyError(name)

    def complete(self):
        """Every family loaded: the whole table (itself)."""
        if not self.is_complete and self.load_all is not None:
            self.load_all()
            self.is_complete = True
        return self


TABLE = _Registry()


class _Parsed:
    """A row's parsed signature (None without one), parsed on first use: parsing all ~300 at import
    was a third of the op table's import, which every `autodiff eval` pays before its first job."""

    def __get__(self, row, cls):
        for owner in cls.__mro__:  # the class that holds this descriptor: the one whose signature it is
            if owner.__dict__.get("parsed") is self:
                break
        text = owner.__dict__.get("signature")
        parsed = Signature.parse(text) if isinstance(text, str) else None
        owner.parsed = parsed  # its own from now on
        return parsed


_PARSED = _Parsed()


class Op:
    parsed = _PARSED
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
    # Forward mode (core/forward.py): None derives the row's Jacobian-vector product from its backward
    # (elementwise rows: backward given g = the tangent; others: the backward of the backward);
    # "linear" (forward.LINEAR): the row is linear in its float tensor inputs, J v is the row applied
    # to their tangents; or a function jvp(F, ctx, tangents, *saved, **params) -> the result's tangent
    jvp = None
    # the public surface
    signature = None  # "sum(Tensor input, int[1]? dim=None, bool keepdim=False) -> Tensor": its public function
    call = None       # call(*arguments): the function's work after the signature's checks, where it is more than
    #                   applying this row to the tensors with the rest as parameters
    wrap_dims = True  # the function wraps a `dim` (int or int[]) against its first tensor's dims before `call`
    names = ()
    method = False
    inplace = False
    formula = ("call", None)  # ops/table.py's PARAMS_ELIDED: `name(args, k=..., ...)`
    to_float = False  # the unary wrapper takes an integral or bool input in the default dtype (PyTorch's floating ops)
    ufunc = None  # the xp ufunc that forward is, for two tensors: a temporary's memory may take the result

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        cls.keeps = {}  # which saves a node keeps, by which inputs want a gradient (core/tensor.py)
        if "batched" not in cls.__dict__ and cls.elementwise:
            cls.batched = True  # g (B,) + out broadcasts against the saved inputs as it is
        cls.special = cls.is_view or cls.moves_device  # apply() takes its longer way
        cls.straight = not cls.special and cls.differentiable  # run_op's straight line may take it
        if isinstance(cls.__dict__.get("signature"), str):
            cls.parsed = _PARSED  # its own, not a base's (parsed on first use)
            if "names" not in cls.__dict__:
                cls.names = (cls.signature[:cls.signature.index("(")].strip(),)  # the signature's name
        if cls.name is not None and "name" in cls.__dict__:  # (a base for several rows has none of its own)
            TABLE[cls.name] = cls


def is_basic_key(key):
    """Whether an index key (a tuple) selects a view: only ints, slices, None and Ellipsis."""
    return all(k is None or k is Ellipsis or isinstance(k, (int, slice)) for k in key)
