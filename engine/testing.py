"""torch.testing.assert_close: are two results close, and if not, a message that
says how far apart and where -- PyTorch's defaults and PyTorch's words, so a
script's checks read the same in both."""
import math

import numpy

from .tensor_class import Tensor

__all__ = ["assert_close", "default_tolerances"]

# (rtol, atol) by dtype, as torch.testing's defaults
_TOLERANCES = {"float16": (1e-3, 1e-5), "bfloat16": (1.6e-2, 1e-5), "float32": (1.3e-6, 1e-5),
               "float64": (1e-7, 1e-7)}


def default_tolerances(*dtype_names):
    """The loosest default (rtol, atol) of the dtypes named (0, 0 for exact types)."""
    pairs = [_TOLERANCES.get(name, (0.0, 0.0)) for name in dtype_names]
    return max(p[0] for p in pairs), max(p[1] for p in pairs)


def _type_name(value):
    return "<class 'torch.Tensor'>" if isinstance(value, Tensor) else repr(type(value))


def _is_number(value):
    return isinstance(value, (bool, int, float, numpy.number, numpy.bool_))


def assert_close(actual, expected, *, allow_subclasses=True, rtol=None, atol=None, equal_nan=False,
                 check_device=True, check_dtype=True, check_layout=True, check_stride=False, msg=None):
    """Raise AssertionError unless `actual` and `expected` are close:
    |actual - expected| <= atol + rtol * |expected| elementwise (exact for
    integers and bools), with the same shape, dtype and device. Tensors, Python
    numbers, and lists/tuples of them (compared item by item)."""
    if (rtol is None) != (atol is None):
        raise ValueError(f"Both 'rtol' and 'atol' must be either specified or omitted, "
                         f"but got no {'rtol' if rtol is None else 'atol'}.")
    pairs = [(actual, expected, "")]
    while pairs:  # sequences are walked with a stack, not recursion
        a, e, where = pairs.pop()
        if isinstance(a, (list, tuple)) and isinstance(e, (list, tuple)):
            if len(a) != len(e):
                _fail(f"The length of the sequences mismatch: {len(a)} != {len(e)}", msg, where)
            pairs.extend((x, y, f"{where}[{i}]") for i, (x, y) in reversed(list(enumerate(zip(a, e)))))
            continue
        if isinstance(a, Tensor) and isinstance(e, Tensor):
            _compare_tensors(a, e, rtol, atol, equal_nan, check_device, check_dtype, msg, where)
        elif _is_number(a) and _is_number(e):
            _compare_numbers(a, e, rtol, atol, equal_nan, msg, where)
        else:
            raise TypeError(f"No comparison pair was able to handle inputs of type {_type_name(a)} "
                            f"and {_type_name(e)}.")


def _fail(message, msg, where):
    if msg is not None:
        message = msg(message) if callable(msg) else str(msg)
    elif where:
        message += f"\n\nThe failure occurred for item {where}"
    raise AssertionError(message)


def _compare_tensors(a, e, rtol, atol, equal_nan, check_device, check_dtype, msg, where):
    if tuple(a.shape) != tuple(e.shape):
        _fail(f"The values for attribute 'shape' do not match: {a.shape} != {e.shape}.", msg, where)
    if check_device and a.device != e.device:
        _fail(f"The values for attribute 'device' do not match: {a.device} != {e.device}.", msg, where)
    if check_dtype and a.dtype != e.dtype:
        _fail(f"The values for attribute 'dtype' do not match: {a.dtype} != {e.dtype}.", msg, where)
    if rtol is None:
        rtol, atol = default_tolerances(a.dtype.name, e.dtype.name)
    host_a = numpy.asarray(a.detach().cpu())
    host_e = numpy.asarray(e.detach().cpu())
    exact = not (a.is_floating_point() or e.is_floating_point())
    if host_a.ndim == 0:
        _compare_numbers(host_a.item(), host_e.item(), rtol, atol, equal_nan, msg, where, exact=exact)
        return
    common = numpy.result_type(host_a.dtype, host_e.dtype)
    if common == numpy.bool_ or common.kind in "iu":
        va, ve = host_a.astype(numpy.int64), host_e.astype(numpy.int64)
        rel_type = numpy.float32  # PyTorch divides in the default float type
    else:
        va, ve = host_a.astype(common), host_e.astype(common)
        rel_type = common
    with numpy.errstate(all="ignore"):
        diff = numpy.abs(va - ve)
        close = diff <= (0 if exact else atol + rtol * numpy.abs(ve))
        if equal_nan and not exact:
            close |= numpy.isnan(va) & numpy.isnan(ve)
        if close.all():
            return
        rel = diff.astype(rel_type) / numpy.abs(ve).astype(rel_type)
    mismatched = int((~close).sum())
    total = close.size
    abs_at = _argmax(diff)
    rel_at = _argmax(rel)
    abs_value = diff[abs_at].item()
    rel_value = float(rel[rel_at])
    if exact:
        lines = [f"Tensor-likes are not equal!", "",
                 f"Mismatched elements: {mismatched} / {total} ({mismatched / total:.1%})",
                 f"Greatest absolute difference: {abs_value} at index {abs_at}",
                 f"Greatest relative difference: {rel_value} at index {rel_at}"]
    else:
        lines = ["Tensor-likes are not close!", "",
                 f"Mismatched elements: {mismatched} / {total} ({mismatched / total:.1%})",
                 f"Greatest absolute difference: {float(abs_value)} at index {abs_at} (up to {atol} allowed)",
                 f"Greatest relative difference: {rel_value} at index {rel_at} (up to {rtol} allowed)"]
    _fail("\n".join(lines), msg, where)


def _argmax(values):
    """The index (a tuple) of the largest value, nan counting as largest (as torch.max)."""
    flat = values.reshape(-1)
    nans = numpy.flatnonzero(numpy.isnan(flat)) if flat.dtype.kind == "f" else []
    k = int(nans[0]) if len(nans) else int(numpy.argmax(flat))
    return tuple(int(i) for i in numpy.unravel_index(k, values.shape))


def _compare_numbers(a, e, rtol, atol, equal_nan, msg, where, exact=None):
    if exact is None:
        exact = not (isinstance(a, (float, numpy.floating)) or isinstance(e, (float, numpy.floating)))
    if rtol is None:
        rtol, atol = (0.0, 0.0) if exact else _TOLERANCES["float64"]
    if isinstance(a, (bool, numpy.bool_)):
        a, e = int(a), int(e)
    diff = abs(a - e)
    if exact:
        if diff == 0:
            return
    else:
        a, e, diff = float(a), float(e), float(diff)
        if diff <= atol + rtol * abs(e) or (equal_nan and math.isnan(a) and math.isnan(e)):
            return
    rel = diff / abs(e) if e != 0 else (math.inf if diff != 0 else math.nan)
    if exact:
        message = (f"Scalars are not equal!\n\nExpected {e} but got {a}.\n"
                   f"Absolute difference: {diff}\nRelative difference: {rel}")
    else:
        message = (f"Scalars are not close!\n\nExpected {e} but got {a}.\n"
                   f"Absolute difference: {diff} (up to {atol} allowed)\n"
                   f"Relative difference: {rel} (up to {rtol} allowed)")
    _fail(message, msg, where)
