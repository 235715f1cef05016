"""The Python API's reductions are quiet where PyTorch's are: a sum, mean or product (or a
determinant) that meets inf - inf, NaN or an overflow gives nan or inf and prints nothing (numpy's RuntimeWarning, with numpy's
file and line, reached a user's stderr through the arrays' methods). Run as a user runs it: a fresh
interpreter with Python's default warning filters; and kernels' quiet reductions are numpy's sums
bit for bit."""
import subprocess
import sys

import numpy as np
import pytest

from autodiff.engine import kernels

_SCRIPT = r"""
import numpy as np, autodiff.engine as ad
x = ad.tensor([np.inf, -np.inf, 1.0], requires_grad=True)
print(x.sum().item(), x.mean().item(), x.prod().item())
print(ad.tensor([[np.inf, -np.inf]]).sum(dim=1).tolist(), ad.tensor([[np.inf], [-np.inf]], dtype=ad.float32).mean(dim=0).tolist())
b = ad.tensor(1.0, requires_grad=True)
(b * ad.tensor([np.inf, -np.inf])).sum().backward()
w = ad.tensor([[1.0, 2.0]], requires_grad=True)
(w + ad.tensor([[np.inf, 1.0], [-np.inf, 1.0]])).sum().backward()
print(b.grad.item(), w.grad.tolist(), ad.tensor([1e200, 1e200]).prod().item())
print(ad.linalg.det(ad.eye(400, dtype=ad.float64) * 10).item())
nan = ad.tensor(np.full((5, 5), np.nan))
print(ad.det(nan).item(), ad.logdet(nan).item(), ad.linalg.slogdet(nan)[0].item(), ad.linalg.slogdet(nan)[1].item())
u, v = ad.tensor(np.r_[np.inf, -np.inf, np.zeros(9998)]), ad.tensor(np.ones(10000))  # a long dot product
print(ad.dot(u, v).item(), ad.einsum("i,i->", u, v).item())
"""


def test_reductions_meeting_inf_print_no_warning():
    out = subprocess.run([sys.executable, "-c", _SCRIPT], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stderr == "", out.stderr
    assert out.stdout.split("\n")[:6] == ["nan nan -inf", "[nan] [nan]", "nan [[2.0, 2.0]] inf", "inf",
                                         "nan nan 0.0 nan", "nan nan"]


def _count(shape, axis):
    """How many elements each mean over `axis` takes."""
    axes = range(len(shape)) if axis is None else (axis,) if isinstance(axis, int) else axis
    return int(np.prod([shape[a] for a in axes]))


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # (numpy's own float16 products overflow here)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, np.int32, np.bool_])
@pytest.mark.parametrize("axis", [None, 0, -1, (0, 1)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_the_quiet_reductions_are_numpys_bits(dtype, axis, keepdims):
    x = (np.abs(np.random.default_rng(4).standard_normal((9, 13))) * 5).astype(dtype)
    pairs = [(x.sum(axis=axis, keepdims=keepdims), kernels.total(np, x, axis, keepdims)),
             (np.prod(x, axis=axis, keepdims=keepdims), kernels.product(np, x, axis, keepdims))]
    if dtype in (np.float32, np.float64, np.float16):
        pairs.append((x.mean(axis=axis, keepdims=keepdims), kernels.mean(np, x, axis, keepdims, _count(x.shape, axis))))
    for want, got in pairs:
        assert type(got) is type(want) and got.dtype == want.dtype and np.shape(got) == np.shape(want)
        assert np.asarray(got).tobytes() == np.asarray(want).tobytes()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_the_quiet_mean_of_a_number(dtype):
    x = dtype(3.7)
    got, want = kernels.mean(np, x, None, False, 1), x.mean()
    assert type(got) is type(want) and got.tobytes() == want.tobytes()
