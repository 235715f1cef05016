"""The convolution's windows (ops/convolution.py's `windows`, im2col) made as one strided view and a
copy must be what the loop over kernel positions makes, and what numpy's sliding_window_view of the
padded input picks (an independent reference), for padding, stride and dilation in 1-3 dims."""
import numpy as np
import pytest

from autodiff.engine.ops import convolution as cv

CASES = [((2, 3, 6, 6), (3, 3), (1, 1), ((1, 1), (1, 1)), (1, 1)),
         ((2, 3, 7, 9), (2, 3), (2, 1), ((0, 0), (0, 0)), (1, 2)),
         ((1, 2, 10), (3,), (2,), ((2, 1),), (2,)),
         ((2, 1, 5, 5, 5), (2, 2, 2), (1, 2, 1), ((0, 1), (1, 0), (0, 0)), (1, 1, 2)),
         ((0, 1, 6, 6), (3, 3), (1, 1), ((1, 1), (1, 1)), (1, 1))]


def _reference(x, kernel, stride, padding, dilation):
    k = len(kernel)
    padded = np.pad(x, [(0, 0)] * (x.ndim - k) + list(padding))
    span = tuple(d * (n - 1) + 1 for n, d in zip(kernel, dilation))
    view = np.lib.stride_tricks.sliding_window_view(padded, span, axis=tuple(range(x.ndim - k, x.ndim)))
    # view: (lead..., positions..., span...): take every stride-th position and every dilation-th offset
    pos = tuple(slice(None, None, s) for s in stride)
    off = tuple(slice(None, None, d) for d in dilation)
    view = view[(Ellipsis,) + pos + off]
    lead = x.ndim - k
    order = tuple(range(lead)) + tuple(range(lead + k, lead + 2 * k)) + tuple(range(lead, lead + k))
    return view.transpose(order)


@pytest.mark.parametrize("shape, kernel, stride, padding, dilation", CASES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_windows_are_the_strided_reference(shape, kernel, stride, padding, dilation, dtype):
    x = np.random.default_rng(1).standard_normal(shape).astype(dtype)
    ref = _reference(x, kernel, stride, padding, dilation)
    fast = cv.windows(np, x, kernel, stride, padding, dilation)
    looped = cv.windows(np, np.repeat(x, 2, axis=-1)[..., ::2], kernel, stride, padding, dilation)  # (not contiguous)
    assert fast.shape == ref.shape and np.array_equal(fast, ref)
    assert looped.shape == ref.shape and np.array_equal(looped, ref)
    assert fast.flags.c_contiguous and fast.flags.writeable
