"""Window functions (torch.hann_window and its kin; torch.signal.windows builds on them).

torch.*_window are ATen factories: the window is made on arrays, a leaf (requires_grad= marks it),
`periodic=True` the first N of N + 1 points. torch.signal.windows (engine/signal.py) is Python in
PyTorch, composed of linspace and elementwise ops: they are composed the same way here, so with
requires_grad=True the result is not a leaf and carries PyTorch's node (exp's, sum's...).
"""
import math
from collections.abc import Iterable

import numpy

from .. import backend as _backend
from .. import dtypes as _dt
from ..ops import TABLE as _op
from .creation import arange, creation_dtype, empty, finish, linspace, ones, tensor

__all__ = ["hann_window", "hamming_window", "bartlett_window", "blackman_window", "kaiser_window"]


# ------------------------------------------------------------------ torch.*_window (ATen's)

def _length(name, window_length):
    """window_length as PyTorch's parser takes it: an int, not a bool or a float."""
    if isinstance(window_length, (bool, numpy.bool_)) or not isinstance(window_length, (int, numpy.integer)):
        raise TypeError(f"{name}(): argument 'window_length' (position 1) must be int, not "
                        f"{type(window_length).__name__}")
    return int(window_length)


def _window(name, window_length, periodic, dtype, device, requires_grad, shape):
    """ATen's window_function_checks, then `shape(xp, n)` over n = N (+1 when periodic) points
    (`shape` given arange(n) in the dtype), cut to N; N = 0 and 1 are the empty and the ones window."""
    n = _length(name, window_length)
    dt = creation_dtype(dtype)
    dev = _backend.device(device)
    if not dt.is_floating_point:
        raise RuntimeError(f"{name} expects floating point dtypes, got: TensorOptions(dtype={_dt.cpp_name(dt)}, "
                           f"device={dev}, layout=Strided (default), requires_grad=false (default), "
                           f"pinned_memory=false, memory_format=(nullopt))")
    if n < 0:
        raise RuntimeError(f"{name} requires non-negative window_length, got window_length={n}")
    xp = _backend.backend_for(dev).xp
    if n <= 1:
        w = xp.ones(n, dtype=dt.np)
    else:
        points = n + 1 if periodic else n
        w = shape(xp, xp.arange(points, dtype=dt.np), points)[:n]
    return finish(xp.ascontiguousarray(w), dev, requires_grad)


def _scaled(k, factor):
    """k * factor in k's dtype (as ATen's mul_ by a double scalar)."""
    return k * k.dtype.type(factor)


def hamming_window(window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype=None, device=None,
                   requires_grad=False):
    """alpha - beta cos(2 pi n / (N - 1)): the Hamming window (periodic: of N + 1 points, the last dropped)."""
    return _hamming("hamming_window", window_length, periodic, alpha, beta, dtype, device, requires_grad)


def _hamming(name, window_length, periodic, alpha, beta, dtype, device, requires_grad):
    def shape(xp, k, n):
        w = _scaled(xp.cos(_scaled(k, 2 * math.pi / (n - 1))), -beta)
        return w + w.dtype.type(alpha)
    return _window(name, window_length, periodic, dtype, device, requires_grad, shape)


def hann_window(window_length, periodic=True, *, dtype=None, device=None, requires_grad=False):
    """0.5 - 0.5 cos(2 pi n / (N - 1)): the Hann window (PyTorch's hamming_window with alpha = beta = 0.5)."""
    return _hamming("hann_window", window_length, periodic, 0.5, 0.5, dtype, device, requires_grad)


def bartlett_window(window_length, periodic=True, *, dtype=None, device=None, requires_grad=False):
    """1 - |2n / (N - 1) - 1|: the triangular window, up from 0 to 1 and down again."""
    def shape(xp, k, n):
        w = _scaled(k, 2.0 / (n - 1))
        half = ((n - 1) >> 1) + 1
        w[half:] = w.dtype.type(2) - w[half:]
        return w
    return _window("bartlett_window", window_length, periodic, dtype, device, requires_grad, shape)


def blackman_window(window_length, periodic=True, *, dtype=None, device=None, requires_grad=False):
    """0.42 - 0.5 cos(2 pi n / (N - 1)) + 0.08 cos(4 pi n / (N - 1)): the Blackman window."""
    def shape(xp, k, n):
        w = _scaled(k, math.pi / (n - 1))
        return _scaled(xp.cos(_scaled(w, 4)), 0.08) - _scaled(xp.cos(_scaled(w, 2)), 0.5) + w.dtype.type(0.42)
    return _window("blackman_window", window_length, periodic, dtype, device, requires_grad, shape)


def kaiser_window(window_length, periodic=True, beta=12.0, *, dtype=None, device=None, requires_grad=False):
    """i0(beta sqrt(1 - ((n - a) / a)^2)) / i0(beta), a = (N - 1) / 2: the Kaiser window."""
    def shape(xp, k, n):
        one, b = k.dtype.type(1), k.dtype.type(beta)
        a = k.dtype.type((n - 1) / 2.0)
        r = (k - a) / a
        i0 = _op["i0"].forward
        return i0(xp, b * xp.sqrt(xp.maximum(one - r * r, 0))) / i0(xp, b)
    return _window("kaiser_window", window_length, periodic, dtype, device, requires_grad, shape)


# ------------------------------------------------------------- torch.signal.windows (Python's)

def _checks(name, M, dtype):
    """torch.signal.windows' _window_function_checks: the dtype (float32 or float64) it settles on."""
    dt = creation_dtype(dtype)
    if M < 0:
        raise ValueError(f"{name} requires non-negative window length, got M={M}")
    if dt not in (_dt.float32, _dt.float64):
        raise ValueError(f"{name} expects float32 or float64 dtypes, got: {dt}")
    return dt


def _trivial(M, dt, device, requires_grad):
    """The window of 0 points, or of 1 (a single 1), as PyTorch returns them; None for longer ones."""
    if M == 0:
        return empty((0,), dtype=dt, device=device, requires_grad=requires_grad)
    if M == 1:
        return ones((1,), dtype=dt, device=device, requires_grad=requires_grad)
    return None


def _points(M, sym):
    """The length the window's formula spans: M - 1 for a symmetric window, M for a periodic one."""
    return M - 1 if sym else M


def exponential(M, *, center=None, tau=1.0, sym=True, dtype=None, device=None, requires_grad=False):
    """exp(-|n - center| / tau): the exponential (Poisson) window."""
    dt = _checks("exponential", M, dtype)
    if tau <= 0:
        raise ValueError(f"Tau must be positive, got: {tau} instead.")
    if sym and center is not None:
        raise ValueError("Center must be None for symmetric windows")
    if M == 0:
        return empty((0,), dtype=dt, device=device, requires_grad=requires_grad)
    if center is None:
        center = (M if not sym and M > 1 else M - 1) / 2.0
    constant = 1 / tau
    k = linspace(-center * constant, (-center + (M - 1)) * constant, M, dtype=dt, device=device,
                 requires_grad=requires_grad)
    return (-k.abs()).exp()


def cosine(M, *, sym=True, dtype=None, device=None, requires_grad=False):
    """sin(pi (n + 1/2) / M): the cosine (sine) window."""
    dt = _checks("cosine", M, dtype)
    if M == 0:
        return empty((0,), dtype=dt, device=device, requires_grad=requires_grad)
    constant = math.pi / (M + 1 if not sym and M > 1 else M)
    k = linspace(0.5 * constant, (0.5 + (M - 1)) * constant, M, dtype=dt, device=device,
                 requires_grad=requires_grad)
    return k.sin()


def gaussian(M, *, std=1.0, sym=True, dtype=None, device=None, requires_grad=False):
    """exp(-(n - (M - 1) / 2)^2 / (2 std^2)): the Gaussian window."""
    dt = _checks("gaussian", M, dtype)
    if std <= 0:
        raise ValueError(f"Standard deviation must be positive, got: {std} instead.")
    if M == 0:
        return empty((0,), dtype=dt, device=device, requires_grad=requires_grad)
    start = -(M if not sym and M > 1 else M - 1) / 2.0
    constant = 1 / (std * math.sqrt(2))
    k = linspace(start * constant, (start + (M - 1)) * constant, M, dtype=dt, device=device,
                 requires_grad=requires_grad)
    return (-(k ** 2)).exp()


def kaiser(M, *, beta=12.0, sym=True, dtype=None, device=None, requires_grad=False):
    """i0(beta sqrt(1 - (2n / (M - 1) - 1)^2)) / i0(beta): the Kaiser window."""
    dt = _checks("kaiser", M, dtype)
    if beta < 0:
        raise ValueError(f"beta must be non-negative, got: {beta} instead.")
    trivial = _trivial(M, dt, device, requires_grad)
    if trivial is not None:
        return trivial
    beta = tensor(beta, dtype=dt, device=device)  # (in the dtype: no NaN from rounding, as PyTorch's)
    start = -beta
    end = beta.minimum(start + (M - 1) * (2.0 * beta / _points(M, sym)))
    k = linspace(start, end, M, dtype=dt, device=device, requires_grad=requires_grad)
    return (beta * beta - k ** 2).sqrt().i0() / beta.i0()


def general_cosine(M, *, a, sym=True, dtype=None, device=None, requires_grad=False):
    """sum_i (-1)^i a_i cos(2 pi i n / (M - 1)): the generalised cosine window of coefficients a."""
    dt = _checks("general_cosine", M, dtype)
    trivial = _trivial(M, dt, device, requires_grad)
    if trivial is not None:
        return trivial
    if not isinstance(a, Iterable):
        raise TypeError("Coefficients must be a list/tuple")
    if not a:
        raise ValueError("Coefficients cannot be empty")
    constant = 2 * math.pi / _points(M, sym)
    k = linspace(0, (M - 1) * constant, M, dtype=dt, device=device, requires_grad=requires_grad)
    a_i = tensor([(-1) ** i * w for i, w in enumerate(a)], dtype=dt, device=device, requires_grad=requires_grad)
    i = arange(a_i.shape[0], dtype=dt, device=device, requires_grad=requires_grad)
    return (a_i.unsqueeze(-1) * (i.unsqueeze(-1) * k).cos()).sum(0)


def general_hamming(M, *, alpha=0.54, sym=True, dtype=None, device=None, requires_grad=False):
    """alpha - (1 - alpha) cos(2 pi n / (M - 1)): the generalised Hamming window."""
    return general_cosine(M, a=[alpha, 1.0 - alpha], sym=sym, dtype=dtype, device=device,
                          requires_grad=requires_grad)


def hamming(M, *, sym=True, dtype=None, device=None, requires_grad=False):
    """The Hamming window, general_hamming with alpha = 0.54."""
    return general_hamming(M, sym=sym, dtype=dtype, device=device, requires_grad=requires_grad)


def hann(M, *, sym=True, dtype=None, device=None, requires_grad=False):
    """The Hann window, general_hamming with alpha = 0.5."""
    return general_hamming(M, alpha=0.5, sym=sym, dtype=dtype, device=device, requires_grad=requires_grad)


def blackman(M, *, sym=True, dtype=None, device=None, requires_grad=False):
    """The Blackman window, general_cosine with a = [0.42, 0.5, 0.08]."""
    dt = _checks("blackman", M, dtype)
    return general_cosine(M, a=[0.42, 0.5, 0.08], sym=sym, dtype=dt, device=device, requires_grad=requires_grad)


def bartlett(M, *, sym=True, dtype=None, device=None, requires_grad=False):
    """1 - |2n / (M - 1) - 1|: the Bartlett (triangular) window."""
    dt = _checks("bartlett", M, dtype)
    trivial = _trivial(M, dt, device, requires_grad)
    if trivial is not None:
        return trivial
    k = linspace(-1, -1 + (M - 1) * (2 / _points(M, sym)), M, dtype=dt, device=device, requires_grad=requires_grad)
    return 1 - k.abs()


def nuttall(M, *, sym=True, dtype=None, device=None, requires_grad=False):
    """The Nuttall window, general_cosine with Nuttall's four coefficients."""
    return general_cosine(M, a=[0.3635819, 0.4891775, 0.1365995, 0.0106411], sym=sym, dtype=dtype, device=device,
                          requires_grad=requires_grad)


SIGNAL_WINDOWS = ("bartlett", "blackman", "cosine", "exponential", "gaussian", "general_cosine", "general_hamming",
                  "hamming", "hann", "kaiser", "nuttall")  # torch.signal.windows' names (engine/signal.py)
