"""Pointwise functions whose arguments need PyTorch's own handling before their rows run
(engine/ops/arithmetic.py, unary.py, compare.py): addcmul, addcdiv, logaddexp(2), copysign,
fmod, float_power, nan_to_num, logit, heaviside, positive, hardshrink -- which operands must be tensors,
which dtypes a kernel refuses, and what integers are promoted to.
"""
import numpy

from .. import dtypes as _dt
from ..ops import TABLE as _op
from ..core.tensor import TensorBase as Tensor, apply
from .arguments import tensor_in, result_dtype
from .basic import pow as _pow
from ..host_data import is_number as _is_number
from ..core.inplace import inplace as _inplace

__all__ = ["addcmul", "addcdiv", "logaddexp", "logaddexp2", "copysign", "fmod", "float_power", "float_power_",
           "nan_to_num", "logit", "heaviside", "positive", "hardshrink"]


# ------------------------------------------------------------ argument checks

def _tensor_arg(fname, what, value, position):
    """A tensor argument, refused in PyTorch's words when it is anything else."""
    if not isinstance(value, Tensor):
        raise TypeError(f"{fname}(): argument '{what}' (position {position}) must be Tensor, "
                        f"not {type(value).__name__}")
    return value


def _number_arg(fname, what, value, kind="Number"):
    if isinstance(value, Tensor) and value.array.ndim == 0:
        value = value.item()
    if not _is_number(value) or (kind == "float" and isinstance(value, (bool, numpy.bool_))):
        raise TypeError(f"{fname}(): argument '{what}' must be {kind}, not {type(value).__name__}")
    return value


def _invalid_combination(fname, args, signatures):
    """PyTorch's message for arguments that match none of a function's overloads."""
    got = ", ".join("Tensor" if isinstance(a, Tensor) else type(a).__name__ for a in args)
    lines = "".join(f" * ({s}, *, Tensor out = None)\n" for s in signatures)
    return TypeError(f"{fname}() received an invalid combination of arguments - got ({got}), "
                     f"but expected one of:\n{lines}")


_TENSOR_OR_NUMBER = ("Tensor input, Tensor other", "Tensor input, Number other")


def _binary_in(fname, input, other):
    """(input, other) of an op with a Tensor and a Scalar overload: input a tensor, other either."""
    if not isinstance(input, Tensor) or not (isinstance(other, Tensor) or _is_number(other)):
        raise _invalid_combination(fname, (input, other), _TENSOR_OR_NUMBER)
    return input, other


def _type_name(dtype):
    """PyTorch's ScalarType name (Long, Bool...) of a numpy dtype, as its kernels' messages say it."""
    return _dt.scalar_name(_dt.as_dtype(numpy.dtype(dtype)))


def _refuse(kernel, dtype):
    raise NotImplementedError(f"\"{kernel}\" not implemented for '{_type_name(dtype)}'")


def _to_default_float(*operands):
    """Operands of an op that computes integers and bools in the default float dtype (PyTorch's
    promote-integer-inputs-to-float ops): tensors cast when the result would be integral."""
    arrays = [x.array if isinstance(x, Tensor) else x for x in operands]
    if numpy.result_type(*arrays).kind not in "biu":
        return operands
    default = _dt.get_default_dtype()
    return tuple(x.to(dtype=default) if isinstance(x, Tensor) else x for x in operands)


# ----------------------------------------------------------------- arithmetic

def addcmul(input, tensor1, tensor2, *, value=1):
    """input + value * tensor1 * tensor2 (all broadcast): one node, AddcmulBackward0."""
    return _addc("addcmul", input, tensor1, tensor2, value)


def addcdiv(input, tensor1, tensor2, *, value=1):
    """input + value * tensor1 / tensor2; integer tensor1 and tensor2 are refused, as in PyTorch."""
    return _addc("addcdiv", input, tensor1, tensor2, value)


_ADDCDIV_INTEGERS = (
    "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform a "
    "true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as (input + value "
    "* torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as (input + value * tensor1 / "
    "tensor2) for float inputs. The future addcdiv behavior is just the latter implementation: (input + value "
    "* tensor1 / tensor2), for all dtypes.")


def _addc(name, input, tensor1, tensor2, value):
    input = tensor_in(input)
    t1 = _tensor_arg(name, "tensor1", tensor1, 2)
    t2 = _tensor_arg(name, "tensor2", tensor2, 3)
    value = _number_arg(name, "value", value)
    if name == "addcdiv" and t1.array.dtype.kind in "biu" and t2.array.dtype.kind in "biu":
        raise RuntimeError(_ADDCDIV_INTEGERS)
    dtype = numpy.result_type(input.array, t1.array, t2.array)
    if dtype.kind == "b":
        _refuse(f"{name}_{input.device.type}_out", dtype)
    if value.__class__ is not bool and value == 1:
        return apply(_op[name], input, t1, t2)
    return apply(_op[name], input, t1, t2, value=value)


def logaddexp(input, other):
    """log(exp(input) + exp(other)), without overflow; floating tensors only."""
    return _logaddexp("logaddexp", input, other)


def logaddexp2(input, other):
    """log2(2**input + 2**other), without overflow; floating tensors only."""
    return _logaddexp("logaddexp2", input, other)


def _logaddexp(name, input, other):
    input = tensor_in(input)
    other = _tensor_arg(name, "other", other, 2)
    dtype = result_dtype(input, other)
    if dtype.kind != "f":
        _refuse(f"{name}_{input.device.type}", dtype)
    return apply(_op[name], input, other)


def copysign(input, other):
    """|input| with the sign of other (a tensor or a number); integers and bools give the default float."""
    input, other = _binary_in("copysign", input, other)
    return apply(_op["copysign"], *_to_default_float(input, other))


def fmod(input, other):
    """The remainder of input / other truncated toward zero: its sign is input's (remainder's is other's)."""
    input, other = _binary_in("fmod", input, other)
    dtype = result_dtype(input, other)
    if dtype.kind == "b":
        _refuse(f"fmod_{input.device.type}", dtype)
    if dtype.kind == "f" and input.array.dtype.kind in "iu" and not isinstance(other, Tensor):
        input = input.to(dtype=_dt.get_default_dtype())  # an integer tensor and a float: the default dtype
    return apply(_op["fmod"], input, other)


_FLOAT_POWER = ("Tensor input, Tensor exponent", "Number self, Tensor exponent", "Tensor input, Number exponent")


def float_power(input, exponent):
    """input ** exponent in double precision: both cast to float64 first (ToCopyBackward0), then pow."""
    if not isinstance(input, Tensor) and not isinstance(exponent, Tensor):
        raise _invalid_combination("float_power", (input, exponent), _FLOAT_POWER)
    if isinstance(input, Tensor) and input.array.dtype != numpy.float64:
        input = input.to(dtype=_dt.float64)
    if isinstance(exponent, Tensor):
        if exponent.array.dtype != numpy.float64:
            exponent = exponent.to(dtype=_dt.float64)
    elif not _is_number(exponent):
        raise _invalid_combination("float_power", (input, exponent), _FLOAT_POWER)
    else:
        exponent = float(exponent)
    return _pow(input, exponent)


def float_power_(input, exponent):
    """float_power in place: only a float64 input can hold the result."""
    if input.array.dtype != numpy.float64:
        raise RuntimeError(f"the base given to float_power_ has dtype {_type_name(input.array.dtype)} but the "
                           f"operation's result requires dtype Double")
    return _inplace(input, float_power, exponent)


# ------------------------------------------------------------------ one input

def nan_to_num(input, nan=0.0, posinf=None, neginf=None):
    """NaN -> nan, +inf -> posinf, -inf -> neginf (by default the dtype's largest and lowest)."""
    input = tensor_in(input)
    params = {}
    for what, v in (("nan", nan), ("posinf", posinf), ("neginf", neginf)):
        if v is not None:
            params[what] = float(_number_arg("nan_to_num", what, v, "float"))
    return apply(_op["nan_to_num"], input, **params)


def logit(input, eps=None):
    """log(p / (1 - p)), with p clamped to [eps, 1 - eps] when eps is given; integers give the default float."""
    input = tensor_in(input)
    (input,) = _to_default_float(input)
    if eps is None:
        return apply(_op["logit"], input)
    return apply(_op["logit"], input, eps=float(_number_arg("logit", "eps", eps, "float")))


def heaviside(input, values):
    """0 where input < 0, values where it is 0, 1 where it is > 0 (NaN gives 0): input and values of
    one dtype. PyTorch has no derivative for it: a result that requires grad fails in backward."""
    input = tensor_in(input)
    values = _tensor_arg("heaviside", "values", values, 2)
    if input.array.dtype != values.array.dtype:
        raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes.")
    return apply(_op["heaviside"], input, values)


def hardshrink(input, lambd=0.5):
    """input where |input| > lambd, 0 elsewhere (torch.hardshrink, F.hardshrink); floating tensors only."""
    input = tensor_in(input)
    if input.array.dtype.kind != "f":
        _refuse(f"hardshrink_{input.device.type}", input.array.dtype)
    if isinstance(lambd, Tensor) and lambd.array.ndim == 0:
        lambd = lambd.item()
    if isinstance(lambd, bool) or not _is_number(lambd):
        raise TypeError(f"hardshrink(): argument 'lambd' (position 2) must be Number, not {type(lambd).__name__}")
    return apply(_op["hardshrink"], input, lambd=float(lambd))


def positive(input):
    """input itself (torch.positive is +input, which returns its argument); bools are refused."""
    input = tensor_in(input)
    if input.array.dtype.kind == "b":
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return input


Tensor.positive = positive  # methods too (no rows: float_power is pow after a cast)
Tensor.float_power = float_power
Tensor.float_power_ = float_power_
