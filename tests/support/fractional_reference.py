"""Fractional max pooling by plain loops, written from PyTorch's interval formula (start_i =
int((i + u) alpha) - int(u alpha), alpha = (n - k) / (out - 1) in the input's float type, the last
n - k) and its scan (the first maximum; a NaN takes over wherever it is met): a reference for the
engine's vectorised kernel, which it shares nothing with."""
import itertools

import numpy as np

__all__ = ["loop_starts", "loop_pool", "loop_unpool"]


def loop_starts(u, n, k, out, dtype):
    """The window starts along one dim, one at a time, in the input's float type."""
    f = np.dtype(dtype).type
    alpha = f(n - k) / f(out - 1) if out > 1 else f(0)
    starts = [int(f(f(i) + f(u)) * alpha) - int(f(u) * alpha) for i in range(out - 1)]
    return starts + [n - k] if out else []


def loop_pool(x, samples, kernel, out):
    """Fractional max pooling by loops: each window scanned in order, the first maximum (a NaN
    taking over wherever it is met, as PyTorch's scan): (values, flat indices), x (N, C, size...)."""
    k = len(kernel)
    size = x.shape[2:]
    order = [1, 0] if k == 2 else [0, 1, 2]  # which sample each dim reads
    values = np.zeros(x.shape[:2] + tuple(out), dtype=x.dtype)
    indices = np.zeros(x.shape[:2] + tuple(out), dtype=np.int64)
    for n, c in itertools.product(range(x.shape[0]), range(x.shape[1])):
        starts = [loop_starts(samples[n, c, order[d]], size[d], kernel[d], out[d], x.dtype) for d in range(k)]
        for o in itertools.product(*(range(v) for v in out)):
            best, where = -np.inf, None
            for w in itertools.product(*(range(v) for v in kernel)):
                p = tuple(starts[d][o[d]] + w[d] for d in range(k))
                flat = int(np.ravel_multi_index(p, size))
                v = x[(n, c) + p]
                if where is None:
                    where = flat
                if v > best or np.isnan(v):
                    best, where = v, flat
            values[(n, c) + o], indices[(n, c) + o] = best, where
    return values, indices


def loop_unpool(g, indices, shape):
    """The gradient of the pooling: g added at each window's maximum of a (N, C, size...) input."""
    out = np.zeros(shape)
    flat = out.reshape(shape[0], shape[1], -1)
    for n, c in itertools.product(range(shape[0]), range(shape[1])):
        for value, where in zip(g[n, c].reshape(-1), indices[n, c].reshape(-1)):
            flat[n, c, where] += value
    return out
