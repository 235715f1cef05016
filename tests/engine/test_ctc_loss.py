"""torch.ctc_loss, F.ctc_loss and nn.CTCLoss (engine/ops/ctc.py) against a brute-force reference:
every alignment enumerated (tests/support/ctc_reference.py), not the alpha-beta recursion. Also the
reductions ('mean' divides each loss by its target length, clamped to 1, before the batch mean),
zero_infinity, the target layouts, PyTorch 2.13's nodes, its gradient convention (exp(log_probs)
minus the occupation), the missing second derivative and its argument errors (words as PyTorch's)."""
import json
import math

import numpy as np
import pytest

import autodiff.engine as ad
import locations
from ctc_reference import collapse, ctc_batch

F = ad.nn.functional


def log_softmax(x, axis=-1):
    shifted = x - x.max(axis=axis, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True))


def log_probs(shape, seed=0):
    return log_softmax(np.random.default_rng(seed).standard_normal(shape), -1)


TARGETS = np.array([[1, 2, 2], [3, 1, 0], [2, 2, 2]])
INS, OUTS = [5, 4, 5], [3, 2, 1]


def test_collapse_merges_runs_then_drops_blanks():
    assert collapse((0, 1, 1, 0, 1, 2, 2), 0) == (1, 1, 2)
    assert collapse((3, 3, 3), 3) == ()


@pytest.mark.parametrize("reduction", ["none", "sum", "mean"])
def test_values_against_every_alignment(reduction):
    lp = log_probs((5, 3, 4))
    want, _ = ctc_batch(lp, TARGETS, INS, OUTS)
    got = F.ctc_loss(ad.tensor(lp), ad.tensor(TARGETS), INS, OUTS, reduction=reduction)
    if reduction == "sum":
        want = want.sum()
    elif reduction == "mean":
        want = (want / np.maximum(OUTS, 1)).mean()
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)


def test_mean_clamps_an_empty_target_length_to_one():
    lp = log_probs((4, 2, 3), seed=1)
    want, _ = ctc_batch(lp, np.array([[1, 2], [0, 0]]), [4, 3], [2, 0])
    got = F.ctc_loss(ad.tensor(lp), ad.tensor([[1, 2], [0, 0]]), [4, 3], [2, 0])
    assert math.isclose(got.item(), (want[0] / 2 + want[1] / 1) / 2, rel_tol=1e-12)


def test_concatenated_targets_and_tensor_lengths_are_the_padded_ones():
    lp = ad.tensor(log_probs((5, 3, 4), seed=2))
    padded = F.ctc_loss(lp, ad.tensor(TARGETS), INS, OUTS, reduction="none")
    flat = F.ctc_loss(lp, ad.tensor([1, 2, 2, 3, 1, 2]), ad.tensor(INS), ad.tensor(OUTS, dtype=ad.int32),
                      reduction="none")
    np.testing.assert_array_equal(padded.numpy(), flat.numpy())


def test_blank_other_than_zero_and_repeated_labels():
    lp = log_probs((5, 2, 4), seed=3)
    targets = np.array([[1, 1, 0], [0, 3, 3]])
    want, _ = ctc_batch(lp, targets, [5, 5], [3, 3], blank=2)
    got = F.ctc_loss(ad.tensor(lp), ad.tensor(targets), [5, 5], [3, 3], blank=2, reduction="none")
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)


def test_unbatched_input():
    lp = log_probs((5, 4), seed=4)
    want, _ = ctc_batch(lp[:, None], np.array([[1, 2]]), [5], [2])
    got = F.ctc_loss(ad.tensor(lp, requires_grad=True), ad.tensor([1, 2]), [5], [2], reduction="none")
    assert got.shape == () and got.grad_fn.name() == "SqueezeBackward1"
    np.testing.assert_allclose(got.item(), want[0], rtol=1e-12)


def test_impossible_alignment_is_infinite_and_zero_infinity_zeroes_it():
    lp = ad.tensor(log_probs((3, 1, 3), seed=5), requires_grad=True)
    targets = ad.tensor([[1, 1, 1]])  # needs 5 steps at least (blanks between the repeats)
    loss = F.ctc_loss(lp, targets, [3], [3], reduction="none")
    assert loss.item() == math.inf
    (g,) = ad.autograd.grad(loss.sum(), lp)
    assert np.isnan(g.numpy()).all()  # PyTorch's too
    zeroed = F.ctc_loss(lp, targets, [3], [3], reduction="none", zero_infinity=True)
    assert zeroed.item() == 0.0 and zeroed.grad_fn.name() == "WhereBackward0"
    (g,) = ad.autograd.grad(zeroed.sum(), lp)
    assert (g.numpy() == 0).all()


def test_empty_input_length():
    lp = ad.tensor(log_probs((3, 2, 3), seed=6))
    got = F.ctc_loss(lp, ad.tensor([[1], [1]]), [0, 0], [0, 1], reduction="none").numpy()
    assert got[0] == 0.0 and math.copysign(1.0, got[0]) == -1.0 and got[1] == math.inf  # -0 and inf, as PyTorch


def test_gradient_is_pytorchs_exp_minus_occupation():
    lp = log_probs((5, 3, 4), seed=7)
    x = ad.tensor(lp, requires_grad=True)
    weights = np.array([0.5, -1.0, 2.0])
    loss = F.ctc_loss(x, ad.tensor(TARGETS), INS, OUTS, reduction="none")
    (g,) = ad.autograd.grad(loss, x, ad.tensor(weights))
    _, want = ctc_batch(lp, TARGETS, INS, OUTS)
    np.testing.assert_allclose(g.numpy(), want * weights[None, :, None], atol=1e-12)


def test_gradient_through_log_softmax_is_the_true_derivative():
    x = ad.tensor(np.random.default_rng(8).standard_normal((5, 3, 4)), requires_grad=True)
    fn = lambda t: F.ctc_loss(ad.log_softmax(t, 2), ad.tensor(TARGETS), INS, OUTS)  # noqa: E731
    assert ad.autograd.gradcheck(fn, (x,))


def test_float32():
    lp = log_probs((5, 3, 4), seed=9)
    got = F.ctc_loss(ad.tensor(lp, dtype=ad.float32), ad.tensor(TARGETS), INS, OUTS, reduction="none")
    assert got.dtype == ad.float32
    np.testing.assert_allclose(got.numpy(), ctc_batch(lp, TARGETS, INS, OUTS)[0], rtol=1e-5)


@pytest.mark.parametrize("reduction, zero_infinity, nodes", [
    ("mean", False, ["MeanBackward0", "DivBackward0", "CtcLossBackward0"]),
    ("sum", True, ["SumBackward0", "WhereBackward0", "CtcLossBackward0"]),
    ("none", False, ["CtcLossBackward0"])])
def test_nodes_are_pytorchs(reduction, zero_infinity, nodes):
    lp = ad.tensor(log_probs((5, 3, 4)), requires_grad=True)
    node = F.ctc_loss(lp, ad.tensor(TARGETS), INS, OUTS, reduction=reduction, zero_infinity=zero_infinity).grad_fn
    for name in nodes:
        assert node.name() == name
        node = next(n for n, _ in node.next_functions if n is not None)


def test_no_second_derivative_as_pytorch():
    lp = ad.tensor(log_probs((5, 3, 4)), requires_grad=True)
    (g,) = ad.autograd.grad(F.ctc_loss(lp, ad.tensor(TARGETS), INS, OUTS), lp, create_graph=True)
    assert g.requires_grad and g.grad_fn.name() == "NotImplemented"
    with pytest.raises(RuntimeError, match="derivative for aten::_ctc_loss_backward is not implemented"):
        ad.autograd.grad(g.sum(), lp)


def test_torch_ctc_loss_takes_the_reduction_as_a_number():
    lp = ad.tensor(log_probs((5, 3, 4)))
    args = (lp, ad.tensor(TARGETS), INS, OUTS)
    per_sample = ad.ctc_loss(*args)  # PyTorch 2.13's default acts as 0 ('none')
    assert per_sample.shape == (3,)
    np.testing.assert_allclose(ad.ctc_loss(*args, 0, 2).item(), per_sample.sum().item(), rtol=1e-12)
    np.testing.assert_allclose(ad.ctc_loss(*args, reduction=1).item(), F.ctc_loss(*args).item(), rtol=1e-12)


def test_layer():
    lp = ad.tensor(log_probs((5, 3, 4)))
    layer = ad.nn.CTCLoss(blank=0, reduction="sum", zero_infinity=True)
    assert (layer.blank, layer.reduction, layer.zero_infinity) == (0, "sum", True)
    np.testing.assert_allclose(layer(lp, ad.tensor(TARGETS), ad.tensor(INS), ad.tensor(OUTS)).item(),
                               ctc_batch(lp.numpy(), TARGETS, INS, OUTS)[0].sum(), rtol=1e-12)


def test_forward_mode_is_refused_as_pytorch():
    fwad = ad.autograd.forward_ad
    lp = ad.tensor(log_probs((5, 3, 4)))
    with fwad.dual_level():
        dual = fwad.make_dual(lp, ad.ones_like(lp))
        with pytest.raises(NotImplementedError, match="forward AD with _ctc_loss"):
            F.ctc_loss(dual, ad.tensor(TARGETS), INS, OUTS)


LP = ad.tensor(log_probs((5, 2, 4)))
TG = ad.tensor([[1, 2, 2], [3, 1, 0]])
ALLOC = r" \(while checking arguments for ctc_loss_allocate_outputs\)"


@pytest.mark.parametrize("call, error, message", [
    (lambda: F.ctc_loss(LP, TG, [5, 4], [3, 2], blank=4), RuntimeError, "blank must be in label range"),
    (lambda: F.ctc_loss(LP, TG, [6, 4], [3, 2]), RuntimeError,
     "Expected input_lengths to have value at most 5, but got value 6" + ALLOC),
    (lambda: F.ctc_loss(LP, TG, [5, 4], [4, 2]), RuntimeError,
     "Expected tensor to have size at least 4 at dimension 1, but got size 3 for argument #2 'targets'" + ALLOC),
    (lambda: F.ctc_loss(LP, TG, [5], [3, 2]), RuntimeError, "input_lengths must be of size batch_size"),
    (lambda: F.ctc_loss(LP, TG, [5, 4], [3]), RuntimeError, "target_lengths must be of size batch_size"),
    (lambda: F.ctc_loss(LP, TG, [5, 4], [-1, 2]), RuntimeError,
     "Expected target_lengths to have value at least 0, but got value -1" + ALLOC),
    (lambda: F.ctc_loss(LP, ad.tensor([1, 2, 2, 3]), [5, 4], [3, 2]), RuntimeError,
     "Expected tensor to have size 5 at dimension 0, but got size 4 for argument #2 'targets'" + ALLOC),
    (lambda: F.ctc_loss(LP[None], TG, [5, 4], [3, 2]), RuntimeError,
     "Expected 3-dimensional tensor, but got 5-dimensional tensor for argument #1 'log_probs'" + ALLOC),
    (lambda: F.ctc_loss(LP[:, :0], TG[:0], [], []), RuntimeError, "log_probs tensor must not be empty"),
    (lambda: F.ctc_loss(TG, TG, [5, 4], [3, 2]), NotImplementedError, "\"ctc_loss_cpu\" not implemented for 'Long'"),
    (lambda: F.ctc_loss(LP, TG, ad.tensor([5., 4.]), ad.tensor([3, 2])), RuntimeError,
     "input_lengths must be integral"),
    (lambda: F.ctc_loss(LP, TG, [5, 4], ad.tensor([3, 2])), TypeError,
     r"ctc_loss\(\) received an invalid combination of arguments - got \(Tensor, Tensor, list, Tensor, int, int, "
     r"bool\)"),
    (lambda: F.ctc_loss(LP, TG, [5, 4], [3, 2], reduction="bad"), ValueError, "bad is not a valid value for reduction"),
])
def test_errors_in_pytorchs_words(call, error, message):
    with pytest.raises(error, match=message):
        call()


def _number(v):
    return float(v) if isinstance(v, str) else v


@pytest.mark.parametrize("case", range(7))
def test_pytorchs_losses_and_gradients(case):
    """PyTorch 2.13's own numbers (tests/golden/nn_ctc_fractional.json, by gen_nn_ctc_fractional.py):
    impossible targets, empty inputs, zero_infinity, another blank, unnormalized scores."""
    c = json.loads((locations.GOLDEN / "nn_ctc_fractional.json").read_text())["ctc"][case]
    lp = ad.tensor(np.array(c["log_probs"]).reshape(c["shape"]), requires_grad=True)
    loss = ad.ctc_loss(lp, ad.tensor(c["targets"]), c["input_lengths"], c["target_lengths"], c["blank"], 0,
                       c["zero_infinity"])
    np.testing.assert_allclose(loss.detach().numpy(), [_number(v) for v in c["loss"]], rtol=1e-12)
    (g,) = ad.autograd.grad(loss, lp, ad.tensor(c["cotangent"]))
    np.testing.assert_allclose(g.numpy().reshape(-1), [_number(v) for v in c["grad"]], rtol=1e-10, atol=1e-12)
