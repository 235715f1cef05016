"""The public functions made from the op table's rows (a row with a `wrapper`), and their in-place
variants: engine/functions/__init__.py gathers them with the hand-written ones."""
import numpy

from .. import dtypes as _dt
from ..core.inplace import inplace
from ..core.op import TABLE
from ..core.tensor import TensorBase, run_op, NO_PARAMS
from .arguments import tensor_in, operands

Tensor = TensorBase  # (every tensor is one: the public class derives from it)


def _unary_wrapper(op, name):
    if op.to_float:
        def function(input):
            if not isinstance(input, Tensor):
                input = tensor_in(input)
            x = input.array
            if x.__class__ is not _FLOAT64 and x.dtype.kind in "biu":
                input = input.to(dtype=_dt.get_default_dtype())  # sin(int tensor): the default dtype, as PyTorch
            return run_op(op, (input,), NO_PARAMS)
    else:
        def function(input):
            return run_op(op, (input if isinstance(input, Tensor) else tensor_in(input),), NO_PARAMS)
    function._row = op  # the one row it applies (the eval lean lane reads it)
    return _named(function, name, f"{name}(input): elementwise {name}, as torch.{name}.")


def _binary_wrapper(op, name):
    def function(input, other):
        return run_op(op, operands(input, other), NO_PARAMS)
    return _named(function, name, f"{name}(input, other), as torch.{name} (tensors or numbers; they broadcast).")


def _inplace_variant(function, name):
    def variant(input, *args, **kwargs):
        return inplace(input, function, *args, **kwargs)
    return _named(variant, name, f"In-place {function.__name__}: the result is written into input.")


def _named(f, name, doc):
    f.__name__ = f.__qualname__ = name
    f.__doc__ = doc
    return f


_FLOAT64 = numpy.float64
_WRAPPERS = {"unary": _unary_wrapper, "binary": _binary_wrapper}
_made = {}  # public name -> the function made for it (one object, whoever asks)


def made(name):
    """The function a row with a wrapper gives under public `name`, made once (None where the row
    has none: a hand-written one stands for it)."""
    function = _made.get(name)
    if function is None:
        op = _rows_by_name().get(name)
        if op is None or op.wrapper is None:
            return None
        function = _made[name] = _WRAPPERS[op.wrapper](op, name)
    return function


def _rows_by_name():
    return {name: op for op in TABLE.values() for name in op.names}


def inplace_variant(function, name):
    """`name` (an in-place variant, x.exp_()): the out-of-place `function` written back into its input."""
    return _inplace_variant(function, name)
