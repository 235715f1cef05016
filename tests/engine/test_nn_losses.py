"""The losses, scaled_dot_product_attention and embedding_bag of issue 29 from Python and from the
language: PyTorch's error types and words for bad input (taken from PyTorch 2.13), the loss modules'
settings (positional in PyTorch's order, keyword-only where PyTorch's are), EmbeddingBag, and the
names reaching `autodiff run`. Values, gradients and node names are op cases
(tests/engine/ops/op_cases_losses.py)."""
import warnings

import numpy as np
import pytest

import autodiff.engine as E
from autodiff.engine import nn

F = nn.functional
X = E.tensor(np.arange(12.0).reshape(3, 4) / 10)
V5 = E.tensor(np.linspace(-1, 1, 5))
S3 = E.tensor([1.0, -1.0, 1.0])
Q = E.zeros(2, 4, 3, 5, dtype=E.float64)
K2 = E.zeros(2, 2, 6, 5, dtype=E.float64)
IDX = E.tensor([1, 2, 4, 5, 4, 3, 2, 9])
W = E.zeros(10, 3, dtype=E.float64)

BAD = [
    (lambda: F.margin_ranking_loss(V5, V5, V5[None]), RuntimeError,
     "margin_ranking_loss : All input tensors should have same dimension but got sizes: input1: torch.Size([5]), "
     "input2: torch.Size([5]), target: torch.Size([1, 5]) "),
    (lambda: F.margin_ranking_loss(V5, V5, V5, reduction="avg"), ValueError, "avg is not a valid value for reduction"),
    (lambda: F.hinge_embedding_loss(X, S3), RuntimeError,
     "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1"),
    (lambda: F.cosine_embedding_loss(X, X, X), RuntimeError,
     "0D or 1D target tensor expected, multi-target not supported"),
    (lambda: F.cosine_embedding_loss(V5, V5, S3), RuntimeError,
     "1D target tensor expects 2D input tensors, but found inputs with sizes [5] and [5]."),
    (lambda: F.cosine_embedding_loss(X, X, E.tensor(1.0)), RuntimeError,
     "0D target tensor expects 1D input tensors, but found inputs with sizes [3, 4] and [3, 4]."),
    (lambda: F.poisson_nll_loss(X, X, reduction="x"), ValueError, "x is not a valid value for reduction"),
    (lambda: F.gaussian_nll_loss(X, X, -0.5), ValueError, "var has negative entry/entries"),
    (lambda: F.gaussian_nll_loss(X, X, -E.ones(3, 4)), ValueError, "var has negative entry/entries"),
    (lambda: F.gaussian_nll_loss(X, X, E.ones(2, 4)), ValueError, "var is of incorrect size"),
    (lambda: F.gaussian_nll_loss(X, X, E.ones(3, 4), reduction="x"), ValueError, "x is not valid"),
    (lambda: F.triplet_margin_loss(X, X, X, margin=0), ValueError, "margin must be greater than 0, got 0"),
    (lambda: F.triplet_margin_loss(X, X, V5), RuntimeError,
     "The anchor, positive, and negative tensors are expected to have the same number of dimensions, but got: "
     "anchor 2D, positive 2D, and negative 1D inputs"),
    (lambda: F.triplet_margin_with_distance_loss(X, X, X, reduction="x"), ValueError,
     "x is not a valid value for reduction"),
    (lambda: F.multilabel_soft_margin_loss(X, X, reduction="x"), ValueError, "x is not valid"),
    (lambda: F.huber_loss(X, X, weight=V5), ValueError, "Weights and input must have the same size."),
    (lambda: F.huber_loss(X, X, weight=X, reduction="x"), ValueError,
     "Invalid reduction mode: x. Expected one of 'none', 'mean', 'sum'."),
    (lambda: F.soft_margin_loss(X, E.ones(2, 4)), RuntimeError,
     "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0"),
    (lambda: F.soft_margin_loss(X, X.clone().requires_grad_()), RuntimeError,
     "The function 'soft_margin_loss' is not differentiable with respect to argument 'target'. This input cannot "
     "have requires_grad True."),
    (lambda: F.multi_margin_loss(X, E.tensor([0, 3, 1]), p=3), ValueError, "only p == 1 and p == 2 supported"),
    (lambda: F.multi_margin_loss(X, E.tensor([0.0, 3, 1])), RuntimeError, "expected scalar type Long but found Double"),
    (lambda: F.multi_margin_loss(X, E.tensor([0, 4, 1])), RuntimeError, "target out of range"),
    (lambda: F.multi_margin_loss(X, E.tensor([0, 1])), RuntimeError,
     "multi_margin_loss: target tensor should be 1-D with size equal to the number of input samples (batch size). "
     "Expected target size [3], but got [2]. Input has shape [3, 4]."),
    (lambda: F.multi_margin_loss(X, E.tensor([0, 1, 1]), weight=E.ones(2, 2)), ValueError,
     "weight must be one-dimensional"),
    (lambda: F.multi_margin_loss(X, E.tensor([0, 1, 1]), weight=E.ones(3, dtype=E.float64)), RuntimeError,
     "inconsistent weight size, expected 4 but got [3]"),
    (lambda: F.multi_margin_loss(X[None], E.tensor([0, 1, 1])), RuntimeError,
     "Expected non-empty vector or matrix with optional 0-dim batch size, but got: [1, 3, 4]"),
    (lambda: F.multilabel_margin_loss(X, E.tensor([[0, 1, -1, 0]] * 2)), RuntimeError,
     "inconsistent target size: [2, 4] for input of size: [3, 4]"),
    (lambda: F.multilabel_margin_loss(X, E.tensor([[0, 4, -1, 0]] * 3)), RuntimeError,
     "argument #2 'target' is out of range"),
    (lambda: F.scaled_dot_product_attention(Q, K2, K2), RuntimeError,
     "The size of tensor a (4) must match the size of tensor b (2) at non-singleton dimension 1"),
    (lambda: F.scaled_dot_product_attention(Q[:, :3], K2, K2, enable_gqa=True), RuntimeError,
     "Number of heads in key and value must divide the number of heads in "),
    (lambda: F.scaled_dot_product_attention(Q, Q, Q, attn_mask=E.ones(3, 3, dtype=E.bool), is_causal=True),
     RuntimeError, "_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True"),
    (lambda: F.scaled_dot_product_attention(Q, Q.float(), Q), RuntimeError,
     "Expected query, key, and value to have the same dtype, but got query.dtype: double key.dtype: float and "
     "value.dtype: double instead."),
    (lambda: F.scaled_dot_product_attention(Q[0, 0, 0], Q, Q), RuntimeError,
     "Expected query, key, and value to all be  at least 2 dimensional, but got query.dim: 1 key.dim: 4 and "
     "value.dim: 4 instead."),
    (lambda: F.scaled_dot_product_attention(Q, Q, Q, attn_mask=E.ones(3, 3, dtype=E.int64)), RuntimeError,
     "Expected attn_mask dtype to be bool or float or to match query dtype, but got attn_mask.dtype: long int and  "
     "query.dtype: double instead."),
    (lambda: F.scaled_dot_product_attention(Q, Q, Q, dropout_p=1.5), RuntimeError,
     "dropout probability has to be between 0 and 1, but got 1.5"),
    (lambda: F.embedding_bag(IDX, W, E.tensor([1, 4])), RuntimeError,
     "offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from position 0. However, "
     "got 1"),
    (lambda: F.embedding_bag(IDX, W, E.tensor([0, 9])), RuntimeError,
     "offsets[-1] can not be greater than input's length 8 but got offsets[-1] of 9"),
    (lambda: F.embedding_bag(E.tensor([1, 10]), W, E.tensor([0])), RuntimeError,
     "embedding_bag: Expected idx >= 0 && idx < num_embeddings but found idx to be 10"),
    (lambda: F.embedding_bag(IDX, W, E.tensor([0, 4]), padding_idx=10), RuntimeError,
     "padding_idx must be within the number of embeddings, -10 through 9, but got 10"),
    (lambda: F.embedding_bag(IDX * 1.0, W, E.tensor([0, 4])), RuntimeError,
     "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got "
     "torch.DoubleTensor instead (while checking arguments for embedding_bag)"),
    (lambda: F.embedding_bag(IDX, W, E.tensor([0, 4]), mode="max", per_sample_weights=E.ones(8, dtype=E.float64)),
     NotImplementedError, "embedding_bag: per_sample_weights was not None. per_sample_weights is only supported "
     "for mode='sum' (got mode='max'). Please open a feature request on GitHub."),
    (lambda: F.embedding_bag(IDX, W, E.tensor([0, 4]), mode="sum", per_sample_weights=E.ones(8, dtype=E.float32)),
     RuntimeError,
     "Expected tensor for argument #1 'weight' to have the same type as tensor for argument #1 "
     "'per_sample_weights'; but type torch.DoubleTensor does not equal torch.FloatTensor (while checking "
     "arguments for embedding_bag)"),
    (lambda: F.embedding_bag(IDX, W, E.tensor([0, 4]), mode="sum", per_sample_weights=E.ones(7)), ValueError,
     "embedding_bag: If per_sample_weights (torch.Size([7])) is not None, then it must have the same shape as the "
     "input (torch.Size([8]))"),
    (lambda: F.embedding_bag(IDX, W, E.tensor([0, 4]), mode="min"), ValueError, "mode has to be one of sum, mean or max"),
    (lambda: F.embedding_bag(IDX.reshape(2, 4), W, E.tensor([0, 4])), ValueError,
     "if input is 2D, then offsets has to be None, as input is treated is a mini-batch of fixed length sequences. "
     "However, found offsets of type <class 'torch.Tensor'>"),
    (lambda: F.embedding_bag(IDX.reshape(2, 2, 2), W), ValueError,
     "input has to be 1D or 2D Tensor, but got Tensor of dimension 3"),
    (lambda: F.embedding_bag(IDX, W), ValueError, "offsets has to be a 1D Tensor but got None"),
    (lambda: F.embedding_bag(IDX, W[0], E.tensor([0, 4])), ValueError,
     "weight has to be a 2D Tensor, but got Tensor of dimension 1"),
    (lambda: F.embedding_bag(IDX, W, E.tensor([0, 4]), mode="max", scale_grad_by_freq=True), ValueError,
     "max mode does not support scaling the gradient by the frequency"),
]


@pytest.mark.parametrize("call, kind, message", BAD, ids=[m[:40] for _, _, m in BAD])
def test_bad_input_is_refused_in_pytorchs_words(call, kind, message):
    with pytest.raises(kind) as caught:
        call()
    assert str(caught.value) == message


def test_the_legacy_flags_warn_and_pick_the_reduction():
    a, b = E.tensor([0.5, -1.0], requires_grad=True), E.tensor([0.0, 0.0])
    with pytest.warns(UserWarning, match="size_average and reduce args will be deprecated, please use "
                                         "reduction='sum' instead."):
        out = F.margin_ranking_loss(a, b, E.tensor([1.0, -1.0]), 0.2, size_average=False)
    # -t (a - b) + 0.2: -0.3 and 0.2 - 1, both held at 0
    assert out.item() == 0.0 and out.grad_fn.name() == "SumBackward0"


def test_loss_modules_take_pytorchs_positional_settings():
    loss = nn.MarginRankingLoss(0.5)
    assert loss.margin == 0.5 and loss.reduction == "mean" and repr(loss) == "MarginRankingLoss()"
    trip = nn.TripletMarginLoss(2.0, 1, 1e-3, True, reduction="sum")
    assert (trip.margin, trip.p, trip.eps, trip.swap, trip.reduction) == (2.0, 1, 1e-3, True, "sum")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert nn.PoissonNLLLoss(False, True, False).reduction == "sum"  # legacy size_average=False
    multi = nn.MultiMarginLoss(2, 0.5, E.ones(4, dtype=E.float64))
    assert multi.p == 2 and multi.margin == 0.5 and multi.weight.shape == (4,)
    with pytest.raises(TypeError, match=r"GaussianNLLLoss.__init__\(\) takes 1 positional argument but 2 were given"):
        nn.GaussianNLLLoss(True)
    with pytest.raises(TypeError, match="unexpected keyword argument 'delta'"):
        nn.SoftMarginLoss(delta=1.0)
    a, b = E.tensor([[1.0, 0.0]]), E.tensor([[0.0, 1.0]])
    assert float(nn.CosineEmbeddingLoss()(a, b, E.tensor([1.0]))) == pytest.approx(1.0)
    assert float(nn.GaussianNLLLoss(reduction="sum")(a, b, E.ones(1, 2))) == pytest.approx(1.0)


def test_embedding_bag_module():
    bag = nn.EmbeddingBag(10, 3, mode="sum", padding_idx=-1)
    assert repr(bag) == "EmbeddingBag(10, 3, mode='sum', padding_idx=9)"
    assert np.all(bag.weight[9].detach().numpy() == 0)
    out = bag(E.tensor([[1, 2], [9, 9]]))
    assert out.shape == (2, 3) and out.grad_fn.name() == "EmbeddingBagBackward0"
    assert np.allclose(out[1].detach().numpy(), 0)
    out.sum().backward()
    grad = bag.weight.grad.numpy()
    assert np.allclose(grad[[1, 2]], 1) and np.allclose(np.delete(grad, [1, 2], axis=0), 0)
    with pytest.raises(AssertionError, match="padding_idx must be within num_embeddings"):
        nn.EmbeddingBag(10, 3, padding_idx=10)


def test_second_order_where_pytorch_raises():
    """multi_margin_loss p=2: the second derivative PyTorch does not implement exists here -- a
    diagonal 2 * weight[y] / C on each active class, checked against a hand computation."""
    x = E.tensor([[0.1, 0.4, -0.2]], dtype=E.float64, requires_grad=True)
    (g,) = E.autograd.grad(F.multi_margin_loss(x, E.tensor([0]), p=2), [x], create_graph=True)
    hess = np.stack([E.autograd.grad(g[0, i], [x], retain_graph=True)[0].numpy()[0] for i in range(3)])
    # z_i = 1 - x_0 + x_i for i = 1, 2 (both > 0); loss = (z_1^2 + z_2^2) / 3
    expected = np.array([[4, -2, -2], [-2, 2, 0], [-2, 0, 2]]) / 3
    assert np.allclose(hess, expected)


def test_the_names_reach_the_language(cli):
    out = cli.run_ok("""
x = torch.tensor([[0.5, -1.0], [2.0, 0.0]], requires_grad=True)
y = torch.tensor([[0.0, 1.0], [1.0, 1.0]])
print(F.margin_ranking_loss(x[0], x[1], torch.tensor([1.0, -1.0]), margin=0.1).grad_fn.name())
print(nn.CosineEmbeddingLoss()(x, y, torch.tensor([1.0, -1.0])).grad_fn.name())
print(F.scaled_dot_product_attention(x, x, y).grad_fn.name())
print(nn.EmbeddingBag(4, 2, mode='max')(torch.tensor([[0, 3]])).shape)
print(nn.HuberLoss(delta=0.5)(x, y).grad_fn.name())
print(F.multi_margin_loss(x, torch.tensor([0, 1])).grad_fn.name())
""")
    assert out.split("\n")[:6] == ["MeanBackward0", "MeanBackward0", "MmBackward0", "torch.Size([1, 2])",
                                   "HuberLossBackward0", "MultiMarginLossBackward0"]


def test_a_formula_with_an_infinite_constant_prints(cli):
    """scaled_dot_product_attention's causal mask holds -inf: eval --formula prints it as -inf
    (the number printer took int() of every constant, which fails on inf)."""
    out = cli.ok("eval", "F.scaled_dot_product_attention(q, q, q, is_causal=True).sum()", "q=[[0.1,0.5],[0.3,0.2]]",
                 "--formula").stdout
    assert "tensor([[0, -inf], [0, 0]])" in out


# nll_loss's commonest call (no weight, every target a class, ignore_index outside the classes)
# skips the general preparation (engine/nn/functional.py); with a weight of ones the general lines
# run, and must give the same bits, values and gradients alike
@pytest.mark.parametrize("shape", [(6, 4), (4,), (3, 4, 5), (2, 4, 3, 2), (2, 4, 1, 2, 3)])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("dtype", [E.float32, E.float64])
def test_nll_loss_commonest_call_is_the_general_one(shape, reduction, dtype):
    rng = np.random.default_rng(len(shape))
    classes = shape[0] if len(shape) == 1 else shape[1]
    target_shape = () if len(shape) == 1 else (shape[0],) + shape[2:]
    target = E.tensor(rng.integers(0, classes, target_shape))
    results = []
    for weight in (None, E.ones(classes, dtype=dtype)):
        x = E.tensor(rng.standard_normal(shape) if not results else results[0][2], dtype=dtype, requires_grad=True)
        loss = F.nll_loss(F.log_softmax(x, dim=0 if len(shape) == 1 else 1), target, weight=weight, reduction=reduction)
        (loss.sum() if reduction == "none" else loss).backward()
        results.append((loss.detach().numpy(), x.grad.numpy(), x.detach().numpy()))
    (fast, fast_grad, _), (general, general_grad, _) = results
    assert np.array_equal(fast, general) and np.array_equal(fast_grad, general_grad)


def test_nll_loss_targets_out_of_range_and_ignored_take_the_general_lines():
    x = E.tensor(np.zeros((3, 4)))
    with pytest.raises(IndexError, match="Target 4 is out of bounds."):
        F.nll_loss(x, E.tensor([0, 4, 1]))
    with pytest.raises(IndexError, match="Target -1 is out of bounds."):
        F.nll_loss(x, E.tensor([0, -1, 1]))
    logp = F.log_softmax(E.tensor(np.arange(12.0).reshape(3, 4)), dim=1)
    kept = F.nll_loss(logp, E.tensor([1, 2, 3]), ignore_index=2)  # the middle one ignored: mean of two
    assert kept.item() == pytest.approx(-(logp[0, 1] + logp[2, 3]).item() / 2)
