"""Pointwise functions that are no row's own: float_power (pow after a cast to float64) and positive
(the input itself). The other pointwise functions are their rows' signatures (engine/ops/arithmetic.py,
unary.py, shrink.py), with PyTorch's checks in the rows' `call`.
"""
import numpy

from .. import dtypes as _dt
from ..core.tensor import TensorBase as Tensor
from ..host_data import is_number as _is_number
from ..core.inplace import inplace as _inplace
from ..ops.arithmetic import invalid_combination
from ..ops.table import type_name
from .arguments import tensor_in
from .basic import pow as _pow

__all__ = ["float_power", "float_power_", "positive"]


_FLOAT_POWER = ("Tensor input, Tensor exponent", "Number self, Tensor exponent", "Tensor input, Number exponent")


def float_power(input, exponent):
    """input ** exponent in double precision: both cast to float64 first (ToCopyBackward0), then pow."""
    if not isinstance(input, Tensor) and not isinstance(exponent, Tensor):
        raise invalid_combination("float_power", (input, exponent), _FLOAT_POWER)
    if isinstance(input, Tensor) and input.array.dtype != numpy.float64:
        input = input.to(dtype=_dt.float64)
    if isinstance(exponent, Tensor):
        if exponent.array.dtype != numpy.float64:
            exponent = exponent.to(dtype=_dt.float64)
    elif not _is_number(exponent):
        raise invalid_combination("float_power", (input, exponent), _FLOAT_POWER)
    else:
        exponent = float(exponent)
    return _pow(input, exponent)


def float_power_(input, exponent):
    """float_power in place: only a float64 input can hold the result."""
    if input.array.dtype != numpy.float64:
        raise RuntimeError(f"the base given to float_power_ has dtype {type_name(input.array.dtype)} but the "
                           f"operation's result requires dtype Double")
    return _inplace(input, float_power, exponent)


def positive(input):
    """input itself (torch.positive is +input, which returns its argument); bools are refused."""
    input = tensor_in(input)
    if input.array.dtype.kind == "b":
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return input


Tensor.positive = positive  # methods too (no rows: float_power is pow after a cast)
Tensor.float_power = float_power
Tensor.float_power_ = float_power_
