"""gradcheck / gradgradcheck beyond the golden cases (tests/golden/semantics.json).

Every expected message, number and outcome here was taken from PyTorch 2.13's
torch.autograd.gradcheck on the same program (float64 default dtype); where the
engine cannot behave as PyTorch (vmap does not exist here),
the test says so.
"""
import itertools
import warnings

import pytest

import autodiff.engine as ad


@pytest.fixture(autouse=True)
def _float64():
    previous = ad.get_default_dtype()
    ad.set_default_dtype(ad.float64)
    yield
    ad.set_default_dtype(previous)


def leaf(values):
    return ad.tensor(values, requires_grad=True)


def first_line(excinfo):
    return str(excinfo.value).split("\n", 1)[0]


def doubled_sin(t):
    """sin(t) whose backward is twice too large."""
    y = t * 1.0
    y.register_hook(lambda g: g * 2)
    return y.sin()


# ----------------------------------------------------------------- signature

def test_keywords_only_after_inputs_and_grad_outputs():
    x = leaf([0.5, -1.0, 2.0])
    with pytest.raises(TypeError, match=r"gradgradcheck\(\) takes from 2 to 3 positional arguments but 4 were given"):
        ad.gradgradcheck(lambda t: t * 2, (x,), None, 1e-6)
    # every keyword of PyTorch's, at values this engine can honour
    assert ad.gradcheck(lambda t: t.sin(), x, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True,
                        nondet_tol=0.0, check_undefined_grad=True, check_grad_dtypes=True,
                        check_batched_grad=False, check_batched_forward_grad=False, check_forward_ad=False,
                        check_backward_ad=True, fast_mode=True, masked=False) is True
    assert ad.gradgradcheck(lambda t: t.sin(), (x,), None, eps=1e-6, atol=1e-5, rtol=1e-3,
                            gen_non_contig_grad_outputs=True, raise_exception=True, nondet_tol=0.0,
                            check_undefined_grad=True, check_grad_dtypes=True, check_batched_grad=False,
                            check_fwd_over_rev=False, check_rev_over_rev=True, fast_mode=True,
                            masked=False) is True


@pytest.mark.parametrize("call, message", [
    (lambda f, x: ad.gradcheck(f, x, check_backward_ad=False),
     "Expected at least one of check_forward_ad or check_backward_ad to be True"),
    (lambda f, x: ad.gradcheck(f, x, check_batched_grad=True, check_backward_ad=False, check_forward_ad=True),
     "Setting check_batched_grad=True requires check_backward_ad to be True"),
    (lambda f, x: ad.gradcheck(f, x, check_batched_forward_grad=True),
     "Setting check_batched_forward_grad=True requires check_forward_ad to be True"),
    (lambda f, x: ad.gradgradcheck(f, x, check_rev_over_rev=False),
     "Expected at least one of check_fwd_over_rev or check_rev_over_rev to be True"),
    (lambda f, x: ad.gradgradcheck(f, x, check_rev_over_rev=False, check_fwd_over_rev=True),
     "Setting check_undefined_grad=True requires check_rev_over_rev to be True"),
])
def test_pytorchs_keyword_assertions(call, message):
    with pytest.raises(AssertionError) as e:
        call(lambda t: t * 2, (leaf([1.0, 2.0]),))
    assert str(e.value) == message


@pytest.mark.parametrize("call", [
    lambda f, x: ad.gradcheck(f, x, check_batched_grad=True),
    lambda f, x: ad.gradcheck(f, x, check_forward_ad=True, check_batched_forward_grad=True),
    lambda f, x: ad.gradgradcheck(f, x, check_batched_grad=True),
])
def test_checks_needing_vmap_refuse_clearly(call):
    # PyTorch runs these; this engine has no vmap, so it says so
    # (check_forward_ad and check_fwd_over_rev run: tests/engine/test_forward_ad.py)
    # (NotImplementedError is a RuntimeError) instead of passing without checking
    with pytest.raises(NotImplementedError, match="not supported") as e:
        call(lambda t: t * 2, (leaf([1.0, 2.0]),))
    assert isinstance(e.value, RuntimeError)
    with pytest.raises(NotImplementedError):  # raise_exception=False does not hide it
        ad.gradcheck(lambda t: t * 2, (leaf([1.0, 2.0]),), check_batched_grad=True, raise_exception=False)


# --------------------------------------------------------------- fast mode

def test_fast_mode_projects_on_pytorchs_random_vectors():
    x = leaf([0.5, -1.0, 2.0])
    with pytest.raises(ad.GradcheckError) as e:
        ad.gradcheck(doubled_sin, (x,), fast_mode=True)
    lines = str(e.value).split("\n")
    assert lines[0] == "Jacobian mismatch for output 0 with respect to input 0,"
    # PyTorch 2.13: numerical:0.29016293275763927, analytical:0.5803258655791006
    assert float(lines[1].removeprefix("numerical:")) == pytest.approx(0.29016293275763927, rel=1e-9)
    assert float(lines[2].removeprefix("analytical:")) == pytest.approx(0.5803258655791006, rel=1e-12)
    assert "Below, we recompute numerical and analytical jacobians in slow mode" in str(e.value)
    assert "The max per-element difference (slow mode) is: 0.8775825618" in str(e.value)
    assert ad.gradcheck(doubled_sin, (x,), fast_mode=True, raise_exception=False) is False


def test_fast_mode_says_when_slow_mode_would_pass():
    def nearly(t):
        y = t * 1.0
        y.register_hook(lambda g: g * (1 + 1e-4))
        return y.sin()
    with pytest.raises(ad.GradcheckError) as e:
        ad.gradcheck(nearly, (leaf([0.5, -1.0, 2.0]),), fast_mode=True, atol=1e-9, rtol=1e-7)
    text = str(e.value)
    assert text.startswith("Jacobian mismatch for output 0 with respect to input 0,\n")
    assert "Fast gradcheck failed but element-wise differences are small" not in text  # 1e-4 > rtol
    # (PyTorch needs check_undefined_grad=False here: it calls the hook with None)
    assert ad.gradcheck(nearly, (leaf([0.5, -1.0, 2.0]),), fast_mode=True, check_undefined_grad=False) is True


def test_fast_mode_passes_correct_functions():
    x = leaf([0.5, -1.0, 2.0])
    y = leaf([[1.0, 2.0], [0.5, -0.5]])
    xt = ad.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]).t().requires_grad_()  # not contiguous
    assert ad.gradcheck(lambda a, b: ((a.sum() * b).tanh(), a.exp(), b.sum()), (x, y), fast_mode=True)
    assert ad.gradcheck(lambda t: t.sin() @ t.t(), (xt,), fast_mode=True)
    assert ad.gradcheck(lambda t: t.sin(), (xt,))
    assert ad.gradcheck(lambda t: t * 3, (leaf(0.25),), fast_mode=True)
    assert ad.gradgradcheck(lambda a, b: (a * b.exp()).sum() * a, (x, leaf([1.5, 0.25, -0.75])), fast_mode=True)


def test_fast_mode_misuse_messages():
    x = leaf([0.5, -1.0, 2.0])
    with pytest.raises(ad.GradcheckError, match="^Numerical gradient for function expected to be zero$"):
        ad.gradcheck(lambda t: t.detach() * 2.0, (x,), fast_mode=True)
    assert ad.gradcheck(lambda t: t.detach().sign(), (x,), fast_mode=True) is True
    with pytest.raises(AssertionError) as e:
        ad.gradcheck(lambda t: t[t > 0.5], (leaf([0.5, 1.0]),), fast_mode=True)
    assert str(e.value) == ("Expected `func` to return outputs with the same shape when inputs are perturbed "
                            "by 1e-06, but got: shapes torch.Size([1]) and torch.Size([2]).")


def test_fast_mode_fails_at_a_kink_as_slow_mode_does():
    with pytest.raises(ad.GradcheckError) as e:
        ad.gradcheck(lambda t: t.relu(), (leaf([0.0, 1.0]),), fast_mode=True)
    assert first_line(e) == "Jacobian mismatch for output 0 with respect to input 0,"


# ------------------------------------------------------- indices in messages

def test_indices_count_differentiable_inputs_and_outputs_only():
    x = leaf([0.5, -1.0, 2.0])

    def constant_first(a, b):
        return (a * 2).detach(), doubled_sin(b), a * b
    with pytest.raises(ad.GradcheckError) as e:
        ad.gradcheck(constant_first, (ad.tensor([1.0, 2.0, 3.0]), x))
    assert first_line(e) == "Jacobian mismatch for output 0 with respect to input 0,"

    def second_wrong(a, b):
        return a * b, doubled_sin(b)
    for fast in (False, True):
        with pytest.raises(ad.GradcheckError) as e:
            ad.gradcheck(second_wrong, (leaf([1.0, 2.0, 3.0]), x), fast_mode=fast)
        assert first_line(e) == "Jacobian mismatch for output 1 with respect to input 1,"


def test_gradgradcheck_finds_a_cut_second_derivative_in_both_modes():
    def cut(t):
        y = t ** 2
        y.register_hook(lambda g: g.detach() if g is not None else g)  # PyTorch may pass None
        return y
    x = leaf([0.5, -1.0, 2.0])
    assert ad.gradcheck(cut, (x,)) is True
    for fast in (False, True):
        with pytest.raises(ad.GradcheckError) as e:
            ad.gradgradcheck(cut, (x,), fast_mode=fast)
        # the inputs of the checked vjp are (x, grad_output): input 1 is the grad_output
        assert first_line(e) == "Jacobian mismatch for output 0 with respect to input 1,"


# ------------------------------------------------- the checks after the Jacobians

def test_nondeterministic_backward_is_not_reentrant():
    counter = itertools.count()

    def nondet(t):
        y = t.clone()
        y.register_hook(lambda g: g * (1 + 1e-9 * next(counter)))
        return y
    x = leaf([0.5, -1.0, 2.0])
    for fast in (False, True):
        with pytest.raises(ad.GradcheckError) as e:
            ad.gradcheck(nondet, (x,), fast_mode=fast)
        assert first_line(e) == (
            "Backward is not reentrant, i.e., running backward with same input and grad_output multiple "
            "times gives different values, although analytical gradient matches numerical gradient.The "
            "tolerance for nondeterminism was 0.0.")
        # (PyTorch needs check_undefined_grad=False here: it calls the hook with None)
        assert ad.gradcheck(nondet, (x,), nondet_tol=1e-6, check_undefined_grad=False, fast_mode=fast)


def test_masked_compares_backwards_zeros_with_a_tolerance():
    def tiny(t):
        y = t.clone()
        y.register_hook(lambda g: g + 1e-12)
        return y
    x = leaf([0.5, -1.0, 2.0])
    with pytest.raises(ad.GradcheckError, match="^backward not multiplied by grad_output$"):
        ad.gradcheck(tiny, (x,), check_undefined_grad=False)
    assert ad.gradcheck(tiny, (x,), masked=True, check_undefined_grad=False) is True


def test_several_outputs_with_undefined_gradients():
    x = leaf([0.5, -1.0, 2.0])
    assert ad.gradcheck(lambda t: (t * 2, t.sin(), t.detach()), (x,)) is True
    assert ad.gradcheck(lambda t: [t * 2, t * 3], (x,)) is True
    assert ad.gradgradcheck(lambda a, b: (a * b, (a * a).sum()), (x, leaf([1.0, 2.0, 3.0]))) is True


# ----------------------------------------------------------- inputs and outputs

def test_nan_in_a_jacobian_is_a_mismatch():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for fast in (False, True):
            with pytest.raises(ad.GradcheckError) as e:
                ad.gradcheck(lambda t: t.sqrt(), (leaf([-1.0, 1.0]),), fast_mode=fast)
            assert first_line(e) == "Jacobian mismatch for output 0 with respect to input 0,"


def test_inputs_keep_their_values_when_the_function_fails_midway():
    # (the engine's own care: PyTorch leaves the element it was perturbing perturbed)
    calls = itertools.count()
    x = leaf([0.5, -1.0, 2.0])

    def flaky(t):
        if next(calls) == 3:
            raise ValueError("boom")
        return t * 2
    with pytest.raises(ValueError, match="boom"):
        ad.gradcheck(flaky, (x,))
    assert x.tolist() == [0.5, -1.0, 2.0]


def test_non_contiguous_grad_outputs():
    x = leaf([[0.5, -1.0], [2.0, 0.25]])
    assert ad.gradgradcheck(lambda t: (t.sin() * t).exp(), (x,), gen_non_contig_grad_outputs=True) is True


def test_float32_warning_names_the_input():
    x = ad.tensor([1.0, 2.0])
    f32 = ad.tensor([1.0, 2.0], dtype=ad.float32, requires_grad=True)
    with warnings.catch_warnings(record=True) as records:
        warnings.simplefilter("always")
        assert ad.gradcheck(lambda a, b: a * b, (x, f32), atol=1e-1)
    assert [str(r.message) for r in records] == [
        "Input #1 requires gradient and is not a double precision floating point or complex. This check will "
        "likely fail if all the inputs are not of double precision floating point or complex. "]
    assert all(r.category is UserWarning for r in records)


def test_numerical_jacobian_runs_f_twice_per_element_and_once_when_nothing_is_perturbed():
    import math
    import numpy
    from autodiff.engine.derivative_check import numerical_jacobian
    calls = []

    def f(x, y):
        calls.append(1)
        return ad.stack([x[0] * y, ad.sin(x[1])]), x.sum()

    x = ad.tensor([0.5, -1.25], dtype=ad.float64, requires_grad=True)
    y = ad.tensor(2.0, dtype=ad.float64)
    (jx, jy), (sx, sy) = numerical_jacobian(f, (x, y))
    assert len(calls) == 4  # x's two elements, each at +eps and -eps; y is not perturbed
    assert numpy.allclose(jx, [[2.0, 0.0], [0.0, math.cos(-1.25)]], atol=1e-8) and numpy.allclose(sx, [[1.0, 1.0]])
    assert jy.shape == (2, 1) and not jy.any() and sy.shape == (1, 1)
    assert x.detach().numpy().tolist() == [0.5, -1.25]  # put back as it was
    calls.clear()
    (jx, jy), _ = numerical_jacobian(f, (x.detach(), y))  # nothing to perturb: zeros of the outputs' sizes
    assert len(calls) == 1 and jx.shape == (2, 2) and not jx.any()
