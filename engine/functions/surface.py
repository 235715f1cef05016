"""The public functions the op table's rows give by themselves: each row with a `signature` gets
the function written from it (engine/signature.py's make_function) under each of its names, and
each in-place row its in-place variant. engine/functions/__init__.py gathers them with the
hand-written ones, which take precedence where a name has both."""
import numpy

from .. import dtypes as _dt
from ..core.inplace import inplace
from ..core.op import TABLE
from ..core.tensor import TensorBase, run_op, wrap_dim, NO_PARAMS
from ..signature import make_function
from .arguments import as_tensor_like, checked, operands, reduction_dims, tensor_in, tensor_list

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
    """The function the row with public `name` gives, made once (None where the row has no
    signature: a hand-written function stands for it). A row's other names share its function."""
    function = _made.get(name)
    if function is None:
        op = _rows_by_name().get(name)
        if op is None or getattr(op, "parsed", None) is None:
            return None
        first = op.names[0]
        function = _made.get(first) or make_function(op, first, op.parsed, _HELPERS)
        function._row = op  # the one row it applies (the eval lean lane reads it)
        _made[first] = _made[name] = function
    return function


def _rows_by_name():
    return {name: op for op in TABLE.values() for name in op.names}


def inplace_variant(function, name):
    """`name` (an in-place variant, x.exp_()): the out-of-place `function` written back into its input."""
    def variant(input, *args, **kwargs):
        return inplace(input, function, *args, **kwargs)
    variant.__name__ = variant.__qualname__ = name
    variant.__doc__ = f"In-place {function.__name__}: the result is written into input."
    return variant
