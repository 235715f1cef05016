"""max_pool2d's indices where the windows tile the plane take a shortcut (one argmax over tiles,
nn/functional_conv.py's _tiled_max_indices): it must pick what the general window search picks --
the first maximum of each window, ties and infinities and signed zeros included -- and a NaN
input keeps the general search (PyTorch's scan takes the last NaN)."""
import numpy as np
import pytest

import autodiff.engine as E
import autodiff.engine.nn.functional as F
from autodiff.engine.nn import functional_conv as fc

CASES = [((4, 4, 6, 6), (2, 2)), ((2, 3, 7, 9), (2, 3)), ((3, 5, 5), (2, 2)), ((2, 2, 9, 9), (3, 3)),
         ((2, 8, 8), (1, 1))]


@pytest.mark.parametrize("shape, kernel", CASES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64, np.int8])
def test_tiles_pick_what_the_window_search_picks(shape, kernel, dtype):
    rng = np.random.default_rng(7)
    for trial in range(6):
        a = rng.integers(-2, 2, shape).astype(dtype)   # few values: many ties
        if trial == 1 and a.dtype.kind == "f":
            a[...] = -np.inf
        if trial == 2 and a.dtype.kind == "f":
            a = np.where(a > 0, -0.0, 0.0).astype(dtype)
        general = fc._max_indices(np, a, kernel, kernel, [[0, 0], [0, 0]], (1, 1))  # (a list: not the shortcut)
        assert np.array_equal(fc._tiled_max_indices(np, a, kernel), general)


def test_by_hand_and_nan_takes_the_last_nan():
    x = E.tensor([[[[1.0, 3.0, 3.0, 0.0], [2.0, 0.0, 5.0, 5.0], [7.0, 7.0, 1.0, float("nan")],
                    [0.0, 7.0, float("nan"), 2.0]]]])
    y, idx = F.max_pool2d(x, 2, return_indices=True)
    # windows: [1,3;2,0] -> 3 at 1; [3,0;5,5] -> first 5 at 6; [7,7;0,7] -> first 7 at 8; NaNs -> the last, 14
    assert idx.tolist() == [[[[1, 6], [8, 14]]]]
    y, idx = F.max_pool2d(x[..., :2, :], 2, return_indices=True)   # no NaN: the shortcut
    assert idx.tolist() == [[[[1, 6]]]] and y.tolist() == [[[[3.0, 5.0]]]]
