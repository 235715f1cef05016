"""torch.geqrf, torch.linalg.householder_product (torch.orgqr) and torch.ormqr beyond their op cases
(tests/engine/ops/op_cases_householder.py): geqrf's layout checked by what it means -- Q built from
(a, tau) by explicit reflector products gives Q R = A and Q^T Q = I -- householder_product against
numpy's own Q of the same matrix, ormqr against that Q times a matrix from either side, the empty
product, PyTorch's checks and messages (looked up in PyTorch 2.13), the derivatives PyTorch has and
has not, and the language's names."""
import os
import sys

import numpy as np
import pytest

import autodiff.engine as ad
from autodiff.engine.autograd import forward_ad as fwAD
from autodiff.engine.autograd import gradcheck, gradgradcheck

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "ops"))
from op_cases_householder import np_full_q, np_geqrf  # noqa: E402  (the references, written out in numpy)

RNG = np.random.default_rng(20613)
SHAPES = [(5, 3), (3, 5), (4, 4), (1, 1), (2, 3, 4, 2), (3, 2, 3), (0, 3), (3, 0), (2, 0, 3)]


def _upper(a):
    """R of geqrf's a: its upper triangle, k x n."""
    k = min(a.shape[-2:])
    return np.triu(a[..., :k, :])


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_geqrf_layout_gives_q_r_equal_to_a(shape, dtype):
    A = RNG.standard_normal(shape).astype(dtype)
    a, tau = ad.geqrf(ad.tensor(A))
    a, tau = a.numpy(), tau.numpy()
    assert a.dtype == dtype and tau.dtype == dtype
    assert a.shape == shape and tau.shape == shape[:-2] + (min(shape[-2:]),)
    if A.size == 0:
        return
    q = np_full_q(a.astype(np.float64), tau.astype(np.float64))
    tol = 1e-12 if dtype == np.float64 else 2e-5
    k = min(shape[-2:])
    np.testing.assert_allclose(q[..., :, :k] @ _upper(a), A, atol=tol * 10)
    np.testing.assert_allclose(np.swapaxes(q, -1, -2) @ q, np.broadcast_to(np.eye(shape[-2]), q.shape), atol=tol * 10)


def test_geqrf_against_householder_qr_written_out():
    A = RNG.standard_normal((2, 6, 4))
    a, tau = ad.geqrf(ad.tensor(A))
    want_a, want_tau = np_geqrf(A)
    np.testing.assert_allclose(a.numpy(), want_a, rtol=1e-12, atol=1e-13)
    np.testing.assert_allclose(tau.numpy(), want_tau, rtol=1e-12, atol=1e-13)
    assert tau.numpy()[..., -1].tolist() != [0.0, 0.0]  # (tall: every reflector acts)
    assert ad.geqrf(ad.tensor(RNG.standard_normal((3, 3)))).tau.numpy()[-1] == 0.0  # (square: the last is I)


@pytest.mark.parametrize("shape", [(5, 3), (4, 4), (2, 6, 2)], ids=str)
def test_householder_product_is_numpys_q(shape):
    A = RNG.standard_normal(shape)
    a, tau = ad.geqrf(ad.tensor(A))
    q_reduced = np.linalg.qr(A, mode="reduced")[0]
    np.testing.assert_allclose(ad.linalg.householder_product(a, tau).numpy(), q_reduced, atol=1e-13)
    np.testing.assert_allclose(ad.orgqr(a, tau).numpy(), q_reduced, atol=1e-13)
    np.testing.assert_allclose(a.orgqr(tau).numpy(), q_reduced, atol=1e-13)


@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("transpose", [False, True])
def test_ormqr_is_q_times_other(left, transpose):
    A = RNG.standard_normal((2, 5, 3))
    a, tau = ad.geqrf(ad.tensor(A))
    q = np.linalg.qr(A, mode="complete")[0]  # numpy's Q of the same matrix (5 x 5)
    op = np.swapaxes(q, -1, -2) if transpose else q
    other = RNG.standard_normal((2, 5, 4) if left else (2, 4, 5))
    want = op @ other if left else other @ op
    got = ad.ormqr(a, tau, ad.tensor(other), left=left, transpose=transpose)
    np.testing.assert_allclose(got.numpy(), want, atol=1e-13)
    np.testing.assert_allclose(a.ormqr(tau, ad.tensor(other), left, transpose).numpy(), want, atol=1e-13)


def test_ormqr_of_the_identity_is_the_complete_q():
    A = RNG.standard_normal((5, 3))
    a, tau = ad.geqrf(ad.tensor(A))
    np.testing.assert_allclose(ad.ormqr(a, tau, ad.eye(5, dtype=ad.float64)).numpy(),
                               np.linalg.qr(A, mode="complete")[0], atol=1e-13)


def test_no_reflectors_give_the_identity_and_a_copy():
    a = ad.tensor(RNG.standard_normal((2, 4, 3)), requires_grad=True)
    tau = ad.zeros(2, 0, dtype=ad.float64, requires_grad=True)
    q = ad.linalg.householder_product(a, tau)
    np.testing.assert_array_equal(q.detach().numpy(), np.broadcast_to(np.eye(4, 3), (2, 4, 3)))
    q.sum().backward()
    np.testing.assert_array_equal(a.grad.numpy(), np.zeros((2, 4, 3)))
    assert tau.grad.shape == (2, 0)
    q = ad.linalg.householder_product(a, tau)
    batched = ad.autograd.grad(q, [a, tau], ad.ones(5, 2, 4, 3, dtype=ad.float64), is_grads_batched=True)
    assert [tuple(g.shape) for g in batched] == [(5, 2, 4, 3), (5, 2, 0)] and not batched[0].numpy().any()
    other = ad.tensor(RNG.standard_normal((4, 2)), requires_grad=True)
    b = ad.tensor(RNG.standard_normal((4, 0)), requires_grad=True)
    out = ad.ormqr(b, ad.zeros(0, dtype=ad.float64), other)
    np.testing.assert_array_equal(out.detach().numpy(), other.detach().numpy())
    out.detach()[0, 0] = 100.0  # its own memory
    assert other[0, 0].item() != 100.0
    (out * 3).sum().backward()
    np.testing.assert_array_equal(other.grad.numpy(), np.full((4, 2), 3.0))


def test_results_own_their_memory():
    A = ad.tensor(RNG.standard_normal((4, 3)))
    a, tau = ad.geqrf(A)
    a[0, 0] = 7.0
    tau[0] = 7.0
    again = ad.geqrf(A)
    assert again.a[0, 0].item() != 7.0 and again.tau[0].item() != 7.0


# ---------------------------------------------------------------------------- derivatives

def _reflectors(shape, k):
    return ad.tensor(RNG.standard_normal(shape), requires_grad=True), \
        ad.tensor(RNG.uniform(0.5, 1.5, shape[:-2] + (k,)), requires_grad=True)


def test_householder_product_derivatives_through_the_namespace():
    a, tau = _reflectors((2, 5, 3), 3)
    f = ad.linalg.householder_product
    assert gradcheck(f, (a, tau))
    assert gradgradcheck(f, (a, tau))


def test_householder_product_derivative_of_geqrf_factors():
    """Through geqrf's own (a, tau) -- a square matrix, whose last tau is 0 -- detached: the gradient
    is the reflectors', not geqrf's (which has none)."""
    a, tau = (t.detach().requires_grad_() for t in ad.geqrf(ad.tensor(RNG.standard_normal((4, 4)))))
    assert gradcheck(ad.orgqr, (a, tau))
    assert gradgradcheck(ad.orgqr, (a, tau))


@pytest.mark.parametrize("left,transpose", [(True, False), (False, True)])
def test_ormqr_derivatives(left, transpose):
    a, tau = _reflectors((2, 4, 5), 4)  # (wider than tall: the fifth column has no reflector)
    other = ad.tensor(RNG.standard_normal((2, 4, 3) if left else (2, 3, 4)), requires_grad=True)

    def f(a, tau, other):
        return ad.ormqr(a, tau, other, left=left, transpose=transpose)
    assert gradcheck(f, (a, tau, other))
    assert gradgradcheck(f, (a, tau, other))


def test_gradient_of_input_is_below_the_diagonal_of_the_reflectors_columns_only():
    a, tau = _reflectors((5, 4), 2)
    ad.orgqr(a, tau).sum().backward()
    g = a.grad.numpy()
    np.testing.assert_array_equal(np.triu(g), 0.0)
    np.testing.assert_array_equal(g[:, 2:], 0.0)  # (no reflector there)
    assert (np.tril(g, -1)[:, :2] != 0).sum() == 4 + 3


def test_geqrf_has_no_derivative():
    x = ad.tensor(RNG.standard_normal((4, 3)), requires_grad=True)
    a, tau = ad.geqrf(x)
    assert a.grad_fn.name() == tau.grad_fn.name() == "GeqrfBackward0"
    for result in (a, tau):
        with pytest.raises(NotImplementedError, match=r"^the derivative for 'geqrf' is not implemented\.$"):
            result.sum().backward()


def test_forward_mode_where_pytorch_has_it():
    with fwAD.dual_level():
        x = fwAD.make_dual(ad.tensor(RNG.standard_normal((4, 3))), ad.tensor(RNG.standard_normal((4, 3))))
        with pytest.raises(NotImplementedError, match="^Trying to use forward AD with geqrf that does not support it"):
            ad.geqrf(x)
        tau = ad.tensor(RNG.standard_normal(3))
        with pytest.raises(NotImplementedError, match="^Trying to use forward AD with ormqr that does not support it"):
            ad.ormqr(x, tau, ad.tensor(RNG.standard_normal((4, 2))))
        assert fwAD.unpack_dual(ad.linalg.householder_product(x, tau)).tangent is not None


# ----------------------------------------------------------------------------------- checks

def _t(*shape, dtype=ad.float32):
    return ad.ones(*shape, dtype=dtype)


HP = "torch.linalg.householder_product: "
OR = "torch.ormqr: "
ERRORS = [
    (lambda: ad.geqrf(_t(3)), RuntimeError, "torch.geqrf: input must have at least 2 dimensions."),
    (lambda: ad.geqrf(_t(3, 3, dtype=ad.int64)), NotImplementedError, "\"geqrf_cpu\" not implemented for 'Long'"),
    (lambda: ad.geqrf(_t(3, 3, dtype=ad.float16)), NotImplementedError, "\"geqrf_cpu\" not implemented for 'Half'"),
    (lambda: ad.linalg.householder_product(_t(3), _t(1)), RuntimeError, HP + "input must have at least 2 dimensions."),
    (lambda: ad.linalg.householder_product(_t(3, 4), _t(2, 2)), RuntimeError,
     HP + "input.shape[-2] must be greater than or equal to input.shape[-1]"),
    (lambda: ad.orgqr(_t(4, 3), _t(5, 5)), RuntimeError,
     HP + "input.shape[-1] must be greater than or equal to tau.shape[-1]"),
    (lambda: ad.orgqr(_t(4, 3), _t()), IndexError, "Dimension specified as -1 but tensor has no dimensions"),
    (lambda: ad.orgqr(_t(4, 3), _t(3, 2)), RuntimeError,
     HP + "Expected tau to have one dimension less than input, but got tau.ndim equal to 2 and input.ndim is equal "
          "to 2"),
    (lambda: ad.orgqr(_t(2, 3, 4, 3), _t(2, 2, 2)), RuntimeError,
     HP + "Expected batch dimensions of tau to be equal to input.shape[:-2], but got [2, 2]"),
    (lambda: ad.orgqr(_t(4, 3), _t(2, dtype=ad.float64)), RuntimeError,
     HP + "tau dtype Double does not match input dtype Float"),
    (lambda: ad.orgqr(_t(4, 3, dtype=ad.int64), _t(2, dtype=ad.int64)), NotImplementedError,
     "\"orgqr_cpu\" not implemented for 'Long'"),
    (lambda: ad.orgqr(_t(4, 3), 2.0), TypeError, "orgqr(): argument 'input2' (position 2) must be Tensor, not float"),
    (lambda: ad.linalg.householder_product(_t(4, 3), 2.0), TypeError,
     "linalg_householder_product(): argument 'tau' (position 2) must be Tensor, not float"),
    (lambda: ad.ormqr(_t(3), _t(3), _t(3, 2)), RuntimeError, OR + "input must have at least 2 dimensions."),
    (lambda: ad.ormqr(_t(4, 3), _t(3, 3), _t(4)), RuntimeError, OR + "other must have at least 2 dimensions."),
    (lambda: ad.ormqr(_t(2, 4, 3), _t(3, 4), _t(3, 5, 2)), RuntimeError,
     OR + "other.shape[-2] must be equal to input.shape[-2]"),
    (lambda: ad.ormqr(_t(4, 3), _t(3), _t(2, 5), left=False), RuntimeError,
     OR + "other.shape[-1] must be equal to input.shape[-2]"),
    (lambda: ad.ormqr(_t(4, 3), _t(2), _t(4, 2)), RuntimeError,
     OR + "tau.shape[-1] must be equal to min(other.shape[-2], input.shape[-1])"),
    (lambda: ad.ormqr(_t(3, 4), _t(4), _t(2, 3), left=False), RuntimeError,
     OR + "tau.shape[-1] must be equal to min(other.shape[-1], input.shape[-1])"),
    (lambda: ad.ormqr(_t(4, 3), _t(), _t(4, 2)), IndexError, "Dimension specified as -1 but tensor has no dimensions"),
    (lambda: ad.ormqr(_t(2, 4, 3), _t(3), _t(4, 2)), RuntimeError,
     OR + "Expected tau to have one dimension less than input, but got tau.ndim equal to 1 and input.ndim is equal "
          "to 3"),
    (lambda: ad.ormqr(_t(4, 3), _t(3), _t(2, 4, 2)), RuntimeError,
     OR + "Expected other to have the same number of dimensions as input, but got other.ndim equal to 3 and "
          "input.ndim is equal to 2"),
    (lambda: ad.ormqr(_t(2, 4, 3), _t(1, 3), _t(3, 4, 2)), RuntimeError,
     OR + "Expected batch dimensions of tau to be equal to input.shape[:-2], but got [1]"),
    (lambda: ad.ormqr(_t(2, 4, 3), _t(2, 3), _t(1, 4, 2)), RuntimeError,
     OR + "Expected batch dimensions of other to be equal to input.shape[:-2], but got [1]"),
    (lambda: ad.ormqr(_t(4, 3), _t(3, dtype=ad.float64), _t(4, 2, dtype=ad.float64)), RuntimeError,
     OR + "Expected input and tau to have the same dtype, but input has dtypeFloat and tau has dtype Double"),
    (lambda: ad.ormqr(_t(4, 3), _t(3), _t(4, 2, dtype=ad.float64)), RuntimeError,
     OR + "Expected input and other to have the same dtype, but input has dtypeFloat and other has dtype Double"),
    (lambda: ad.ormqr(*(_t(*s, dtype=ad.bool) for s in ((4, 3), (3,), (4, 2)))), NotImplementedError,
     "\"ormqr_cpu\" not implemented for 'Bool'"),
    (lambda: ad.ormqr(_t(4, 3), _t(3), 2.0), TypeError,
     "ormqr(): argument 'input3' (position 3) must be Tensor, not float"),
]


@pytest.mark.parametrize("call,error,message", ERRORS, ids=[e[2][:70] for e in ERRORS])
def test_pytorch_checks_and_messages(call, error, message):
    with pytest.raises(error) as caught:
        call()
    assert str(caught.value) == message


# --------------------------------------------------------------------------------- language

def test_the_language_reaches_the_functions(cli):
    out = cli.run_ok("""
        x = torch.tensor([[2.0, 1.0], [1.0, 3.0], [0.0, 1.0]])
        a, tau = torch.geqrf(x)
        q = torch.linalg.householder_product(a, tau)
        print(torch.allclose(q, torch.orgqr(a, tau)), torch.allclose(q, a.orgqr(tau)))
        print(torch.allclose(q @ a.triu()[:2], x, atol=1e-6))
        c = torch.ormqr(a, tau, torch.eye(3), transpose=True)
        print(torch.allclose(a.ormqr(tau, c), torch.eye(3), atol=1e-6), x.geqrf().tau.shape)
    """)
    assert out.split() == ["True", "True", "True", "True", "torch.Size([2])"]
