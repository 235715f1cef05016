"""The public functions the op table's rows give by themselves: each row with a `signature` gets
the function written from it (engine/signature.py's make_function) under each of its names, and
each in-place row its in-place variant. engine/functions/__init__.py gathers them with the
hand-written ones, which take precedence where a name has both."""
import numpy

from .. import dtypes as _dt
from ..core.inplace import inplace, update
from ..core.op import TABLE
from ..core.tensor import TensorBase, run_op, wrap_dim, NO_PARAMS
from ..signature import make_function, call_signature
from .arguments import as_tensor_like, checked, not_a_tensor, operands, reduction_dims, tensor_in, tensor_list

__all__ = ["made", "inplace_variant"]


def _as_np_dtype(dtype):
    return _dt.as_dtype(dtype).np


# the names the functions make_function writes use
_HELPERS = {"Tensor": TensorBase, "tensor_in": tensor_in, "operands": operands, "as_tensor_like": as_tensor_like,
            "tensor_list": tensor_list, "wrap_dim": wrap_dim, "reduction_dims": reduction_dims,
            "as_np_dtype": _as_np_dtype, "run_op": run_op, "NO_PARAMS": NO_PARAMS,
            "default_dtype": _dt.get_default_dtype, "float64": numpy.float64, "checked": checked,
            "__name__": "autodiff.engine.functions"}  # (the module the functions say they are of)

_made = {}  # public name -> the function made for it (one object, whoever asks)


def made(name):
    """The function the row with public `name` gives, made once (None where no row with a signature
    has that name: a hand-written function stands for it). A row's other names share its function;
    where several rows' signatures have the same name (max(x), max(x, dim)), the function is their
    overloads, as PyTorch's argument parser picks one."""
    function = _made.get(name)
    if function is None:
        rows = [op for op in _rows_by_name().get(name, ()) if getattr(op, "parsed", None) is not None]
        rows.sort(key=lambda op: op.parsed.name != name)  # its own rows first, then those it is an alias of
        if not rows:
            return None
        if len(rows) == 1:
            op = rows[0]
            first = op.names[0]
            function = _made.get(first) or make_function(op, first, op.parsed, _HELPERS)
            function._row = op  # the one row it applies (the eval lean lane reads it)
            _made[first] = function
        else:
            function = _overloads(name, [(op, make_function(op, name, op.parsed, _HELPERS)) for op in rows])
        _made[name] = function
    return function


_by_name = [0, {}]  # (the table's size when made, public name -> its rows)


def _rows_by_name():
    """Public name -> the rows with that name, made once for the table as it stands (rows register
    when their modules load; made() runs for every name at import: a walk of the table each time
    cost the import 20 ms)."""
    if _by_name[0] != len(TABLE.complete()):
        by_name = {}
        for op in TABLE.values():
            for name in op.names:
                by_name.setdefault(name, []).append(op)
        _by_name[:] = [len(TABLE), by_name]
    return _by_name[1]


def _overloads(name, cases):
    """One function over several rows' functions of the same name: the first whose signature the
    arguments bind to, with the types it declares, runs (else PyTorch's list of what it takes)."""
    tests = [(_accepts(call_signature(fn), op.parsed), fn) for op, fn in cases]

    def function(*args, **kwargs):
        for accepts, fn in tests:
            if accepts(args, kwargs):
                return fn(*args, **kwargs)
        got = ", ".join([type(a).__name__ for a in args] + [f"{k}={type(v).__name__}" for k, v in kwargs.items()])
        expected = "\n".join(f" * ({_parameters_text(op.parsed.text)})" for op, _ in cases)
        raise TypeError(f"{name}() received an invalid combination of arguments - got ({got}), but expected one "
                        f"of:\n{expected}")
    function.__name__ = function.__qualname__ = name
    # its signatures, then each one's summary: the first alone (what the catalogue shows), the others by their call
    shown = [f"{name}({_parameters_text(op.parsed.text)})" for op, _ in cases]
    summaries = [(fn.__doc__.split("\n\n", 1) + [""])[1] for _, fn in cases]
    function.__doc__ = "\n".join(f"{call}{op.parsed.text[op.parsed.text.rindex(') ->') + 1:]}" for call, (op, _) in
                                 zip(shown, cases)) + "\n\n" + summaries[0] + "".join(
        f"\n\n{call}: {summary}" for call, summary in zip(shown[1:], summaries[1:]) if summary)
    function.__module__ = _HELPERS["__name__"]
    function.__overloads__ = tuple(fn for _, fn in cases)
    return function


def _parameters_text(text):
    """`Tensor input, int dim` of `max(Tensor input, int dim) -> ...`"""
    return text[text.index("(") + 1:text.rindex(") ->")]


def _accepts(python_signature, parsed):
    """A test of whether call arguments bind to a signature with the types it declares: a tensor
    where a tensor goes (the first one may be data: max([1, 2])), a whole number where an int goes."""
    types = {p.name: p for p in parsed.params}
    first_tensor = next((p.name for p in parsed.params if p.is_tensor), None)

    def accepts(args, kwargs):
        try:
            bound = python_signature.bind(*args, **kwargs)
        except TypeError:
            return False
        for pname, value in bound.arguments.items():
            p = types.get(pname)
            if p is None or (value is None and (p.optional or p.default is None)):
                continue
            if p.is_tensor and pname != first_tensor and not isinstance(value, TensorBase):
                return False
            if p.type == "int" and (isinstance(value, (bool, TensorBase)) or not _whole(value)):
                return False
        return True
    return accepts


def _whole(value):
    return isinstance(value, (int, numpy.integer))


def inplace_variant(function, name, ufunc=None):
    """`name` (an in-place variant, x.exp_()): the out-of-place `function` written back into its input.
    `ufunc`: numpy's ufunc that the function's row is, for one operand (add_, sub_, mul_): an update
    that records nothing then runs it in the input's memory (core/inplace.py's update)."""
    if ufunc is None:
        def variant(input, *args, **kwargs):
            if not isinstance(input, TensorBase):  # (only a tensor has memory to write into)
                raise not_a_tensor(input, name, "input", 1)
            return inplace(input, function, *args, **kwargs)
    else:
        def variant(input, *args, **kwargs):
            if not isinstance(input, TensorBase):
                raise not_a_tensor(input, name, "input", 1)
            if len(args) == 1 and not kwargs and update(input, ufunc, args[0]):
                return input
            return inplace(input, function, *args, **kwargs)
    variant.__name__ = variant.__qualname__ = name
    variant.__doc__ = f"In-place {function.__name__}: the result is written into input."
    return variant
