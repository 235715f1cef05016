"""Long dot products give the same bits on any BLAS thread count (SPEC: the same bits on every path
of ours on one machine -- a Dask worker runs OpenBLAS on one thread, the process that started it on
every core), and are as exact as a sum. numpy hands vector @ vector, (1, n) @ (n, 1) and their
stacks to BLAS's dot, which OpenBLAS splits among threads above 10,000 elements; kernels.matmul
sums the products of one longer than kernels.LONG_DOT itself. Each case runs in fresh interpreters
with OPENBLAS_NUM_THREADS=1 and =2 (OpenBLAS reads it once, as it loads)."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import autodiff.engine as ad
from autodiff.engine import kernels

N = 50_000  # past OpenBLAS's 10,000-element threshold for threading a dot product

_CHILD = r"""
import json, sys
import numpy as np
import autodiff.engine as ad
n = int(sys.argv[1])
t = np.linspace(0.0, 3.0, n)
x, y = ad.tensor(t), ad.tensor(np.cos(t) + 1)
m = ad.tensor(np.sin(np.arange(2 * n).reshape(2, n) * 1e-3))
w = ad.tensor(np.cos(np.arange(n) * 1e-3).reshape(1, n))
cases = {
    "dot": lambda: ad.dot(x, y),
    "vdot": lambda: ad.vdot(x, y),
    "matmul": lambda: x @ y,
    "inner": lambda: ad.inner(x, y),
    "tensordot": lambda: ad.tensordot(x, y, dims=1),
    "einsum_i_i": lambda: ad.einsum("i,i->", x, y),
    "einsum_ij_ij": lambda: ad.einsum("ij,ij->", m, m),
    "row_at_column": lambda: w @ w.T,
    "stacked_rows": lambda: m.unsqueeze(1) @ m.unsqueeze(2),
    "linear_one_output": lambda: ad.nn.functional.linear(w, w),
    "addmm": lambda: ad.addmm(ad.tensor([[1.0]]), w, w.T),
    "addmv": lambda: ad.addmv(ad.tensor([1.0]), w, x),
    "cdist_by_products": lambda: ad.cdist(w, w * 0.5, compute_mode="use_mm_for_euclid_dist"),
    "dot_float32": lambda: ad.dot(x.float(), y.float()),
    "dot_gradient": lambda: ad.autograd.grad(ad.dot(x.requires_grad_(), y), x)[0].sum(),
}
print(json.dumps({name: f().detach().numpy().tobytes().hex() for name, f in cases.items()}))
"""


def _bits(threads, n=N):
    env = dict(os.environ, OPENBLAS_NUM_THREADS=str(threads))
    out = subprocess.run([sys.executable, "-c", _CHILD, str(n)], env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_long_dot_products_do_not_depend_on_the_thread_count():
    one, two = _bits(1), _bits(2)
    assert set(one) == set(two)
    differ = sorted(name for name in one if one[name] != two[name])
    assert not differ, f"bits depend on OPENBLAS_NUM_THREADS: {differ}"


@pytest.mark.parametrize("n", [kernels.LONG_DOT, kernels.LONG_DOT + 1, 2_000_000])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_a_dot_product_is_as_exact_as_a_sum(n, dtype):
    """The polynomial tutorial's kind of data (structured, large terms of one sign): within a few
    units in the last place of the float64 sum of the same products (OpenBLAS's float32 dot was
    1.4e-4 off at 2*10^6 with its Haswell kernel)."""
    t = np.linspace(-np.pi, np.pi, n).astype(dtype)
    u = (t * t * t).astype(dtype)
    want = np.dot(t.astype(np.float64), u.astype(np.float64))
    got = float(ad.dot(ad.tensor(t), ad.tensor(u)))
    rtol = 1e-6 if dtype == np.float32 else 1e-14
    assert abs(got - want) <= rtol * abs(want)


@pytest.mark.parametrize("shapes", [((N,), (N,)), ((1, N), (N, 1)), ((3, 1, N), (3, N, 1)), ((N,), (2, N, 1)),
                                    ((2, 1, N), (N,)), ((1, N), (N,)), ((N,), (N, 1))])
def test_the_long_dot_kernel_has_matmuls_shapes_and_values(shapes):
    rng = np.random.default_rng(7)
    a, b = rng.standard_normal(shapes[0]), rng.standard_normal(shapes[1])
    got, want = kernels.matmul(np, a, b), np.matmul(a, b)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12 * N)  # (terms of size ~1: sums of ~N)


def test_the_dot_products_derivatives_still_check():
    """dot, einsum and a (1, n) @ (n, 1) product past the threshold: first and second derivatives
    against finite differences."""
    rng = np.random.default_rng(1)
    n = kernels.LONG_DOT + 5
    x = ad.tensor(rng.standard_normal(n) * 0.1, requires_grad=True)
    y = ad.tensor(rng.standard_normal(n) * 0.1, requires_grad=True)
    for f in (lambda a, b: ad.dot(a, b) ** 2, lambda a, b: ad.einsum("i,i->", a, b) ** 2,
              lambda a, b: (a.unsqueeze(0) @ b.unsqueeze(1)).sum() ** 2):
        gx, gy = ad.autograd.grad(f(x, y), (x, y), create_graph=True)
        s = float(ad.dot(x, y).detach())
        np.testing.assert_allclose(gx.detach().numpy(), 2 * s * y.detach().numpy(), rtol=1e-10)
        np.testing.assert_allclose(gy.detach().numpy(), 2 * s * x.detach().numpy(), rtol=1e-10)
        # d/dx of sum(gx) = 2 (sum y) y: the second derivative through the long product
        hx, = ad.autograd.grad(gx.sum(), x)
        np.testing.assert_allclose(hx.numpy(), 2 * float(y.detach().sum()) * y.detach().numpy(), rtol=1e-10)
