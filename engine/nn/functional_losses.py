"""torch.nn.functional's composite losses: margin_ranking_loss, hinge_embedding_loss,
cosine_embedding_loss, poisson_nll_loss, gaussian_nll_loss, triplet_margin_loss (and
triplet_margin_with_distance_loss), multilabel_soft_margin_loss, huber_loss with `weight`, and
ctc_loss (torch.ctc_loss with the reduction named: engine/ops/ctc.py).

PyTorch builds each of these from other ops (in ATen's Loss.cpp or in torch/nn/functional.py), so
they are composed here in the same order from the same ops, and the graph ends in PyTorch's nodes:
ClampMinBackward0 for the margin losses' unreduced result, MeanBackward0 / SumBackward0 once
reduced, and so on. The kernels PyTorch has for soft_margin_loss, multi_margin_loss and
multilabel_margin_loss are rows of engine/ops/losses.py.
"""
import math
import warnings

import numpy as _numpy

from ..functions.arguments import tensor_in
from ..functions import (where as _where, zeros_like as _zeros_like, log as _log, exp as _exp,
                         minimum as _minimum, clamp_min as _clamp_min, unsqueeze as _unsqueeze,
                         ones_like as _ones_like, pairwise_distance as _pairwise_distance, any as _any)
from ..functions import ctc_loss as _ctc_loss
from ..functions import expand as _expand
from ..core.grad_mode import no_grad as _no_grad, is_grad_enabled
from ..core.tensor import apply, broadcast_shapes, array_module
from .. import dtypes as _dt
from ..ops import TABLE as _op

__all__ = ["margin_ranking_loss", "hinge_embedding_loss", "cosine_embedding_loss", "poisson_nll_loss",
           "gaussian_nll_loss", "triplet_margin_loss", "triplet_margin_with_distance_loss",
           "multilabel_soft_margin_loss", "soft_margin_loss", "multi_margin_loss", "multilabel_margin_loss", "ctc_loss"]

_EPSILON = 1e-12  # ATen's EPSILON in cosine_embedding_loss


def _legacy(reduction, size_average=None, reduce=None):
    """PyTorch's _Reduction: the legacy size_average/reduce flags override `reduction`, with its
    deprecation warning; then the name is checked. (nn.functional's losses use it too.)"""
    if size_average is not None or reduce is not None:
        size_average = True if size_average is None else size_average
        reduce = True if reduce is None else reduce
        reduction = "mean" if size_average and reduce else "sum" if reduce else "none"
        warnings.warn(f"size_average and reduce args will be deprecated, please use reduction='{reduction}' "
                      f"instead.", stacklevel=3)
    if reduction == "elementwise_mean":
        warnings.warn("reduction='elementwise_mean' is deprecated. Please use reduction='mean' instead.",
                      stacklevel=3)
        reduction = "mean"
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return reduction


def _apply_reduction(loss, reduction):
    """ATen's apply_loss_reduction: mean() or sum() of the whole, or the loss itself."""
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


def _scalar_name(t):
    return _dt.scalar_name(_dt.as_dtype(t.array.dtype))


def _sizes(t):
    return f"torch.Size({list(t.shape)})"


def margin_ranking_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean"):
    """max(0, -target * (input1 - input2) + margin), target 1 or -1 saying which input should rank
    higher; reduced."""
    reduction = _legacy(reduction, size_average, reduce)
    input1, input2, target = tensor_in(input1, "input1"), tensor_in(input2, "input2"), tensor_in(target, "target")
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError(f"margin_ranking_loss : All input tensors should have same dimension but got sizes: "
                           f"input1: {_sizes(input1)}, input2: {_sizes(input2)}, target: {_sizes(target)} ")
    loss = (-target * (input1 - input2) + margin).clamp_min_(0)
    return _apply_reduction(loss, reduction)


def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None, reduction="mean"):
    """input where target is 1, max(0, margin - input) where target is -1 (both terms where the
    target is neither, as PyTorch); reduced."""
    reduction = _legacy(reduction, size_average, reduce)
    input, target = tensor_in(input), tensor_in(target, "target")
    broadcast_shapes([target.array.shape, input.array.shape])  # PyTorch's message where they don't
    zeros = _zeros_like(input)
    margin_clamp = (margin - input).clamp_min_(0)
    output_margin = _where(target != 1, margin_clamp, zeros)
    output_self = _where(target != -1, input, zeros)
    return _apply_reduction(output_margin + output_self, reduction)


def cosine_embedding_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean"):
    """1 - cos(input1, input2) where target is 1, max(0, cos(input1, input2) - margin) where it is
    -1, the cosine taken along the last dim (rows of 2-d inputs, or two vectors with a 0-d target);
    reduced."""
    reduction = _legacy(reduction, size_average, reduce)
    input1, input2, target = tensor_in(input1, "input1"), tensor_in(input2, "input2"), tensor_in(target, "target")
    tdim = target.dim()
    if tdim not in (0, 1):
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if tdim == 1 and not (input1.dim() == 2 and input2.dim() == 2):
        raise RuntimeError(f"1D target tensor expects 2D input tensors, but found inputs with sizes "
                           f"{list(input1.shape)} and {list(input2.shape)}.")
    if tdim == 0 and not (input1.dim() == 1 and input2.dim() == 1):
        raise RuntimeError(f"0D target tensor expects 1D input tensors, but found inputs with sizes "
                           f"{list(input1.shape)} and {list(input2.shape)}.")
    prod_sum = (input1 * input2).sum(tdim)
    mag_square1 = (input1 * input1).sum(tdim) + _EPSILON
    mag_square2 = (input2 * input2).sum(tdim) + _EPSILON
    denom = (mag_square1 * mag_square2).sqrt_()
    cos = prod_sum / denom
    zeros = _zeros_like(cos)
    pos = 1 - cos
    neg = (cos - margin).clamp_min_(0)
    output = _where(target == 1, pos, zeros) + _where(target == -1, neg, zeros)
    return _apply_reduction(output, reduction)


def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None,
                     reduction="mean"):
    """The negative log-likelihood of target under Poisson(rate): exp(input) - target * input with
    log_input (input is the log-rate), else input - target * log(input + eps); full adds Stirling's
    term target log target - target + log(2 pi target)/2 where target > 1. Reduced."""
    reduction = _legacy(reduction, size_average, reduce)
    input, target = tensor_in(input), tensor_in(target, "target")
    if log_input:
        loss = _exp(input) - target * input
    else:
        loss = input - target * _log(input + eps)
    if full:
        stirling = target * _log(target) - target + 0.5 * _log(2 * math.pi * target)
        loss += stirling.masked_fill(target <= 1, 0)
    return _apply_reduction(loss, reduction)


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction="mean"):
    """The negative log-likelihood of target under Normal(input, var): (log(var) + (input -
    target)**2 / var) / 2 (plus log(2 pi) / 2 with full), var held at eps or more (no gradient
    through the clamp, as PyTorch); var may have input's shape, or one dim of size 1 or the last
    dim left out. Reduced."""
    input, target = tensor_in(input), tensor_in(target, "target")
    if isinstance(var, float):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = var * _ones_like(input)
    else:
        var = tensor_in(var, "var")
        if bool(_any(var < 0)):
            raise ValueError("var has negative entry/entries")
    if var.shape != input.shape:
        if tuple(input.shape[:-1]) == tuple(var.shape):
            var = _unsqueeze(var, -1)
        elif input.dim() == var.dim() and sum(v for i, v in zip(input.shape, var.shape) if i != v) == 1:
            pass
        else:
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    var = var.clone()
    with _no_grad():
        var.clamp_(min=eps)
    loss = 0.5 * (_log(var) + (input - target) ** 2 / var)
    if full:
        loss += 0.5 * math.log(2 * math.pi)
    return _apply_reduction(loss, reduction)


def _same_dims(anchor, positive, negative):
    a, p, n = anchor.dim(), positive.dim(), negative.dim()
    if not (a == p and p == n):
        raise RuntimeError(f"The anchor, positive, and negative tensors are expected to have the same number "
                           f"of dimensions, but got: anchor {a}D, positive {p}D, and negative {n}D inputs")


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False, size_average=None,
                        reduce=None, reduction="mean"):
    """max(0, margin + d(anchor, positive) - d(anchor, negative)), d the p-norm pairwise_distance
    (with eps); swap takes d(positive, negative) instead where smaller. Reduced."""
    reduction = _legacy(reduction, size_average, reduce)
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    anchor, positive, negative = (tensor_in(anchor, "anchor"), tensor_in(positive, "positive"),
                                  tensor_in(negative, "negative"))
    _same_dims(anchor, positive, negative)
    dist_pos = _pairwise_distance(anchor, positive, p, eps)
    dist_neg = _pairwise_distance(anchor, negative, p, eps)
    if swap:
        dist_neg = _minimum(dist_neg, _pairwise_distance(positive, negative, p, eps))
    return _apply_reduction(_clamp_min(margin + dist_pos - dist_neg, 0), reduction)


def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None, margin=1.0,
                                      swap=False, reduction="mean"):
    """triplet_margin_loss with any distance_function(x, y) (pairwise_distance by default)."""
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    anchor, positive, negative = (tensor_in(anchor, "anchor"), tensor_in(positive, "positive"),
                                  tensor_in(negative, "negative"))
    _same_dims(anchor, positive, negative)
    distance = _pairwise_distance if distance_function is None else distance_function
    dist_pos = distance(anchor, positive)
    dist_neg = distance(anchor, negative)
    if swap:
        dist_neg = _minimum(dist_neg, distance(positive, negative))
    return _apply_reduction(_clamp_min(margin + dist_pos - dist_neg, 0), reduction)


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    """-(target log sigmoid(input) + (1 - target) log sigmoid(-input)), times weight, averaged
    over the classes (last dim); then reduced over the samples."""
    if size_average is not None or reduce is not None:
        reduction = _legacy(reduction, size_average, reduce)
    input, target = tensor_in(input), tensor_in(target, "target")
    logsigmoid = _op["log_sigmoid"]
    loss = -(target * apply(logsigmoid, input) + (1 - target) * apply(logsigmoid, -input))
    if weight is not None:
        loss = loss * tensor_in(weight, "weight")
    class_dim = input.dim() - 1
    loss = loss.sum(dim=class_dim) / input.shape[class_dim]
    if reduction == "none":
        return loss
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    raise ValueError(reduction + " is not valid")


def weighted_huber(loss, weight, input, reduction):
    """huber_loss's tail with `weight` (PyTorch's Python form): the unreduced loss times weight,
    then summed or averaged over the elements."""
    weight = tensor_in(weight, "weight")
    if weight.shape != input.shape:
        raise ValueError("Weights and input must have the same size.")
    loss = loss * weight
    if reduction == "none":
        return loss
    if reduction == "sum":
        return loss.sum()
    if reduction == "mean":
        return loss.mean()
    raise ValueError(f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', 'sum'.")


# ------------------------------------------------------------- the kernels' losses (rows)

def _long_target(target):
    if target.array.dtype != _numpy.int64:
        raise RuntimeError(f"expected scalar type Long but found {_scalar_name(target)}")


def _vector_or_matrix(input):
    nd = input.dim()
    if not ((nd == 2 and input.shape[1] != 0) or (nd == 1 and input.shape[0] != 0) or nd == 0):
        raise RuntimeError(f"Expected non-empty vector or matrix with optional 0-dim batch size, but got: "
                           f"{list(input.shape)}")
    rows = (1 if nd <= 1 else input.shape[0], 1 if nd == 0 else input.shape[-1])
    return rows


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """log(1 + exp(-target * input)), target 1 or -1 (the two-class logistic loss); reduced."""
    reduction = _legacy(reduction, size_average, reduce)
    input, target = tensor_in(input), tensor_in(target, "target")
    if target.requires_grad and is_grad_enabled():
        raise RuntimeError("The function 'soft_margin_loss' is not differentiable with respect to argument "
                           "'target'. This input cannot have requires_grad True.")
    if not input.dtype.is_floating_point:
        raise RuntimeError(f"result type Float can't be cast to the desired output type {_scalar_name(input)}")
    shape = broadcast_shapes([input.array.shape, target.array.shape])
    x = input if input.array.shape == shape else _expand(input, shape)
    t = target if target.array.shape == shape else _expand(target, shape)
    return apply(_op["soft_margin_loss"], x, t, reduction=reduction)


def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None, reduce=None,
                      reduction="mean"):
    """The multi-class hinge loss: for each sample, the sum over classes i other than its target y
    of max(0, margin - input[y] + input[i]) ** p (p 1 or 2), times weight[y], over the number of
    classes; reduced over the samples."""
    reduction = _legacy(reduction, size_average, reduce)
    if p != 1 and p != 2:
        raise ValueError("only p == 1 and p == 2 supported")
    input, target = tensor_in(input), tensor_in(target, "target")
    if weight is not None:
        weight = tensor_in(weight, "weight")
        if weight.dim() != 1:
            raise ValueError("weight must be one-dimensional")
    rows = _vector_or_matrix(input)
    if target.dim() > 1 or target.numel() != rows[0]:
        raise RuntimeError(f"multi_margin_loss: target tensor should be 1-D with size equal to the number of "
                           f"input samples (batch size). Expected target size [{rows[0]}], but got "
                           f"{list(target.shape)}. Input has shape {list(input.shape)}.")
    _long_target(target)
    xp = array_module(input.device)
    dtype = input.array.dtype
    if weight is not None:
        if weight.numel() != rows[1]:
            raise RuntimeError(f"inconsistent weight size, expected {rows[1]} but got {list(weight.shape)}")
        if weight.array.dtype != dtype:
            raise RuntimeError(f"expected scalar type {_scalar_name(input)} but found {_scalar_name(weight)}")
        if weight.requires_grad and is_grad_enabled():
            raise RuntimeError("The function 'multi_margin_loss' is not differentiable with respect to argument "
                               "'weight'. This input cannot have requires_grad True.")
    y = target.array.reshape(-1)
    if y.size and (int(y.min()) < 0 or int(y.max()) >= rows[1]):
        raise RuntimeError("target out of range")
    onehot = y[:, None] == xp.arange(rows[1])
    w = xp.ones(rows[1], dtype=dtype) if weight is None else weight.array
    coef = (w[y] / rows[1]).astype(dtype)
    out_shape = tuple(target.shape) if input.dim() <= 1 else (rows[0],)
    return apply(_op["multi_margin_loss"], input, onehot=onehot, coef=coef, p=int(p), margin=float(margin),
                 rows=rows, out_shape=out_shape, reduction=reduction)


def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """The multi-label hinge loss: for each sample, the sum over its target classes j (the indices
    in target before the first -1) and its other classes i of max(0, 1 - (input[j] - input[i])),
    over the number of classes; reduced over the samples."""
    reduction = _legacy(reduction, size_average, reduce)
    input, target = tensor_in(input), tensor_in(target, "target")
    rows = _vector_or_matrix(input)
    if input.dim() <= 1:
        consistent = target.dim() <= 1 and target.numel() == rows[1]
    else:
        consistent = target.dim() == 2 and tuple(target.shape) == rows
    if not consistent:
        raise RuntimeError(f"inconsistent target size: {list(target.shape)} for input of size: {list(input.shape)}")
    _long_target(target)
    y = target.array.reshape(rows)
    if y.size and (int(y.min()) < -1 or int(y.max()) >= rows[1]):
        raise RuntimeError("argument #2 'target' is out of range")
    xp = array_module(input.device)
    # the targets before each row's first -1, counted per class
    kept = xp.cumsum(y < 0, axis=1) == 0
    count = (((y[:, :, None] == xp.arange(rows[1])) & kept[:, :, None]).sum(1)).astype(input.array.dtype)
    out_shape = (rows[0],) if input.dim() == 2 else ()
    return apply(_op["multilabel_margin_loss"], input, count=count, rows=rows, out_shape=out_shape,
                 reduction=reduction)


_REDUCTION_ENUM = {"none": 0, "mean": 1, "sum": 2}


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean", zero_infinity=False):
    """The connectionist temporal classification loss of log_probs (T, N, C) or (T, C) against
    targets padded (N, S) or concatenated, each sample's alignments within its input length summed
    (torch.ctc_loss, engine/ops/ctc.py); 'mean' divides each loss by its target length (at least 1)
    before the batch mean; zero_infinity zeroes the infinite losses and their gradients."""
    return _ctc_loss(log_probs, targets, input_lengths, target_lengths, blank, _REDUCTION_ENUM[_legacy(reduction)],
                     zero_infinity)
