"""Op cases of the torch.nn.functional rows (see tests/engine/ops/op_cases.py for what a case is):
softplus, gelu, silu, leaky_relu, hardtanh (also relu6), elu (also selu and celu), log_sigmoid, mish,
hardswish, hardsigmoid, threshold, prelu, glu; mse_loss,
binary_cross_entropy, binary_cross_entropy_with_logits, nll_loss (also through
cross_entropy); scalar_arith (the MulBackward1/DivBackward1 of cross_entropy's
decompositions). Node names are PyTorch 2.13's for the same calls."""
import math
import warnings

import numpy as np

import autodiff.engine as ad
from op_cases import C, away, gen_each, on_copy, uniform

F = ad.nn.functional
_erf = np.vectorize(math.erf, otypes=[np.float64])

# ------------------------------------------------------------ numpy references


def np_sigmoid(x):
    return 1 / (1 + np.exp(-x))


def np_softplus(x, beta=1.0, threshold=20.0):
    return np.where(x * beta > threshold, x, np.log1p(np.exp(np.minimum(x * beta, threshold))) / beta)


def np_gelu(x):
    return 0.5 * x * (1 + _erf(x / math.sqrt(2)))


def np_gelu_tanh(x):
    return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))


def np_elu(x, alpha=1.0, scale=1.0, input_scale=1.0):
    return np.where(x > 0, scale * x, scale * alpha * (np.exp(np.minimum(x, 0) * input_scale) - 1))


_SELU_ALPHA, _SELU_SCALE = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


def np_selu_slope(x):
    return np.where(x > 0, _SELU_SCALE, _SELU_SCALE * _SELU_ALPHA * np.exp(x))


def np_gelu_tanh_slope(x):
    b, k = math.sqrt(2 / math.pi), 0.044715
    t = np.tanh(b * (x + k * x ** 3))
    return 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * b * (1 + 3 * k * x * x)


def np_reduce(loss, reduction):
    return loss if reduction == "none" else loss.sum() if reduction == "sum" else loss.mean()


def np_bce(x, t, w=None, reduction="mean"):
    loss = -(t * np.log(x) + (1 - t) * np.log(1 - x))
    return np_reduce(loss if w is None else loss * w, reduction)


def np_bce_logits(x, t, w=None, pw=None, reduction="mean"):
    p = np_sigmoid(x)
    pw = 1.0 if pw is None else pw
    loss = -(pw * t * np.log(p) + (1 - t) * np.log(1 - p))
    return np_reduce(loss if w is None else loss * w, reduction)


def np_nll(x, t, w=None, ignore=-100, reduction="mean", dim=1):
    classes = x.shape[dim]
    w = np.ones(classes) if w is None else w
    keep = t != ignore
    idx = np.where(keep, t, 0)
    picked = np.squeeze(np.take_along_axis(x, np.expand_dims(idx, dim), axis=dim), axis=dim)
    wt = np.where(keep, w[idx], 0.0)
    loss = -picked * wt
    if reduction == "none":
        return loss
    return loss.sum() if reduction == "sum" else loss.sum() / wt.sum()


def np_log_softmax(x, axis):
    s = x - x.max(axis=axis, keepdims=True)
    return s - np.log(np.exp(s).sum(axis=axis, keepdims=True))


# ------------------------------------------------------------------ generators

kinked = away(0.0, margin=0.2, lo=-3.0, hi=3.0)   # leaky_relu, elu: a kink at 0
hard_kinked = away(-1.0, 1.0, margin=0.2, lo=-3.0, hi=3.0)   # hardtanh: kinks at -1 and 1
probabilities = uniform(0.1, 0.9)                  # binary_cross_entropy's input, away from 0 and 1


def classes(*targets):
    """A float input of the case's shape, then the fixed class targets."""
    return lambda rng, shapes: [rng.standard_normal(shapes[0]), np.array(targets, dtype=np.int64)]


def probs_and_targets(rng, shapes):
    return [rng.uniform(0.1, 0.9, shapes[0]), rng.uniform(0.0, 1.0, shapes[1])]


def logits_and_targets(rng, shapes):
    return [rng.standard_normal(shapes[0]) * 2, rng.uniform(0.0, 1.0, shapes[1])]


W4 = np.array([0.5, 1.0, 2.0, 0.25])
PW4 = np.array([3.0, 0.5, 1.0, 2.0])

# =============================================================== activations

C("softplus", "default", lambda x: F.softplus(x), [(2, 3)], np_softplus, "SoftplusBackward0")
C("softplus", "beta_threshold", lambda x: F.softplus(x, beta=2.0, threshold=1.5), [(3, 4)],
  lambda x: np_softplus(x, 2.0, 1.5), "SoftplusBackward0", gen=gen_each(away(0.75, margin=0.1, lo=-3, hi=3)))
C("softplus", "scalar", lambda x: F.softplus(x, 0.5), [()], lambda x: np_softplus(x, 0.5), "SoftplusBackward0")
C("gelu", "none", lambda x: F.gelu(x), [(2, 3)], np_gelu, "GeluBackward0")
C("gelu", "tanh", lambda x: F.gelu(x, approximate="tanh"), [(3, 2)], np_gelu_tanh, "GeluBackward0")
C("silu", "fn", lambda x: F.silu(x), [(2, 3)], lambda x: x * np_sigmoid(x), "SiluBackward0")
C("silu", "large", lambda x: F.silu(x * 10.0), [(4,)], lambda x: 10 * x * np_sigmoid(10 * x), "SiluBackward0")
C("silu", "inplace", on_copy(lambda y: F.silu(y, inplace=True)), [(2, 2)], lambda x: x * np_sigmoid(x),
  "SiluBackward0")
C("leaky_relu", "default", lambda x: F.leaky_relu(x), [(2, 3)], lambda x: np.where(x > 0, x, 0.01 * x),
  "LeakyReluBackward0", gen=gen_each(kinked))
C("leaky_relu", "slope", lambda x: F.leaky_relu(x, 0.2), [(3, 3)], lambda x: np.where(x > 0, x, 0.2 * x),
  "LeakyReluBackward0", gen=gen_each(kinked))
C("leaky_relu", "inplace", on_copy(lambda y: F.leaky_relu_(y, 0.3)), [(2, 3)],
  lambda x: np.where(x > 0, x, 0.3 * x), "LeakyReluBackward1", gen=gen_each(kinked))
C("leaky_relu_backward", "direct",
  lambda g, x: ad.core.apply(ad.OPS["leaky_relu_backward"], g, x, negative_slope=0.2), [(2, 3), (2, 3)],
  lambda g, x: np.where(x > 0, g, 0.2 * g), "LeakyReluBackwardBackward0", gen=gen_each(kinked, kinked))
C("leaky_relu_backward", "grad",
  lambda x, w: ad.autograd.grad((F.leaky_relu(x, 0.1) * w).sum(), x, create_graph=True)[0], [(3, 2), (3, 2)],
  lambda x, w: np.where(x > 0, w, 0.1 * w), "LeakyReluBackwardBackward0", gen=gen_each(kinked, kinked))
C("hardtanh", "default", lambda x: F.hardtanh(x), [(2, 3)], lambda x: np.clip(x, -1.0, 1.0), "HardtanhBackward0",
  gen=gen_each(hard_kinked))
C("hardtanh", "bounds", lambda x: F.hardtanh(x, -0.5, 2.0), [(3, 3)], lambda x: np.clip(x, -0.5, 2.0),
  "HardtanhBackward0", gen=gen_each(away(-0.5, 2.0, margin=0.1, lo=-3.0, hi=3.0)))
C("hardtanh", "relu6", lambda x: F.relu6(x * 4.0), [(4,)], lambda x: np.clip(x * 4.0, 0.0, 6.0),
  "HardtanhBackward0", gen=gen_each(away(0.0, 1.5, margin=0.05, lo=-3.0, hi=3.0)))
C("hardtanh", "inplace", on_copy(lambda y: F.hardtanh_(y, -0.5, 0.5)), [(2, 3)], lambda x: np.clip(x, -0.5, 0.5),
  "HardtanhBackward0", gen=gen_each(away(-0.5, 0.5, margin=0.1, lo=-2.0, hi=2.0)))
C("hardtanh", "scalar", lambda x: F.hardtanh(x), [()], lambda x: np.clip(x, -1.0, 1.0), "HardtanhBackward0",
  gen=gen_each(hard_kinked))
C("hardtanh_backward", "direct",
  lambda g, x: ad.core.apply(ad.OPS["hardtanh_backward"], g, x, min_val=-1.0, max_val=1.0), [(2, 3), (2, 3)],
  lambda g, x: np.where((x <= -1.0) | (x >= 1.0), 0.0, g), "HardtanhBackwardBackward0",
  gen=gen_each(hard_kinked, hard_kinked))
C("hardtanh_backward", "grad",
  lambda x, w: ad.autograd.grad((F.relu6(x) * w).sum(), x, create_graph=True)[0], [(3, 2), (3, 2)],
  lambda x, w: np.where((x <= 0.0) | (x >= 6.0), 0.0, w), "HardtanhBackwardBackward0",
  gen=gen_each(away(0.0, 6.0, margin=0.2, lo=-2.0, hi=8.0), hard_kinked))
C("elu", "default", lambda x: F.elu(x), [(2, 3)], np_elu, "EluBackward0", gen=gen_each(kinked))
C("elu", "alpha", lambda x: F.elu(x, alpha=2.5), [(4,)], lambda x: np_elu(x, 2.5), "EluBackward0",
  gen=gen_each(kinked))
C("elu", "inplace", on_copy(lambda y: F.elu(y, 0.5, inplace=True)), [(2, 2)], lambda x: np_elu(x, 0.5),
  "EluBackward1", gen=gen_each(kinked))
C("elu", "selu", lambda x: F.selu(x), [(2, 3)],
  lambda x: np_elu(x, 1.6732632423543772848170429916717, 1.0507009873554804934193349852946), "EluBackward0",
  gen=gen_each(kinked))
C("elu", "celu", lambda x: F.celu(x, alpha=0.5), [(2, 3)], lambda x: np_elu(x, 0.5, 1.0, 2.0), "CeluBackward0",
  gen=gen_each(kinked))
# ---- the activations' gradient rows (softplus_backward ...): called directly, and reached as the
# gradient of the activation under create_graph (PyTorch's node for each is its *BackwardBackward0)
_apply = ad.core.apply
_CELU_S = 1 / float(np.float32(1.7))  # PyTorch's celu gradient takes 1/alpha with alpha rounded to float32
_grad_of = lambda f: (lambda x, w: ad.autograd.grad((f(x) * w).sum(), x, create_graph=True)[0])  # noqa: E731
C("softplus_backward", "direct", lambda g, x: _apply(ad.OPS["softplus_backward"], g, x, beta=2.0, threshold=3.0),
  [(2, 3), (2, 3)], lambda g, x: np.where(2 * x > 3, g, g * np_sigmoid(2 * x)), "SoftplusBackwardBackward0",
  gen=gen_each(uniform(-2, 2), away(1.5, margin=0.1, lo=-3, hi=3)))
C("softplus_backward", "grad", _grad_of(F.softplus), [(3, 2), (3, 2)], lambda x, w: w * np_sigmoid(x),
  "SoftplusBackwardBackward0")
C("gelu_backward", "direct", lambda g, x: _apply(ad.OPS["gelu_backward"], g, x), [(2, 3), (2, 3)],
  lambda g, x: g * (0.5 * (1 + _erf(x / math.sqrt(2))) + x * np.exp(-x * x / 2) / math.sqrt(2 * math.pi)),
  "GeluBackwardBackward0")
C("gelu_backward", "grad_tanh", _grad_of(lambda x: F.gelu(x, approximate="tanh")), [(3, 2), (3, 2)],
  lambda x, w: w * np_gelu_tanh_slope(x), "GeluBackwardBackward0")
C("elu_backward", "direct", lambda g, x: _apply(ad.OPS["elu_backward"], g, x, alpha=1.5, scale=2.0, input_scale=0.5),
  [(2, 3), (2, 3)], lambda g, x: np.where(x > 0, 2 * g, g * 0.5 * 1.5 * 2 * np.exp(0.5 * x)), "EluBackwardBackward0",
  gen=gen_each(uniform(-2, 2), kinked))
C("elu_backward", "grad_selu", _grad_of(F.selu), [(3, 2), (3, 2)], lambda x, w: w * np_selu_slope(x),
  "EluBackwardBackward0", gen=gen_each(kinked, uniform(-2, 2)))
C("elu_backward", "grad_celu", _grad_of(lambda x: F.celu(x, alpha=1.7)), [(4,), (4,)],
  lambda x, w: w * np.where(x > 0, 1.0, _CELU_S * 1.7 * np.exp(x * _CELU_S)), "EluBackwardBackward0",
  gen=gen_each(kinked, uniform(-2, 2)))
C("log_sigmoid_backward", "direct", lambda g, x: _apply(ad.OPS["log_sigmoid_backward"], g, x), [(2, 3), (2, 3)],
  lambda g, x: g * np_sigmoid(-x), "LogSigmoidBackwardBackward0")
C("log_sigmoid_backward", "grad", _grad_of(F.logsigmoid), [(3, 2), (3, 2)], lambda x, w: w * np_sigmoid(-x),
  "LogSigmoidBackwardBackward0")
C("log_sigmoid", "fn", lambda x: F.logsigmoid(x), [(2, 3)], lambda x: np.log(np_sigmoid(x)), "LogSigmoidBackward0")
C("log_sigmoid", "wide", lambda x: F.logsigmoid(x * 8.0), [(5,)], lambda x: np.log(np_sigmoid(8 * x)),
  "LogSigmoidBackward0")

# mish, hardswish, hardsigmoid, threshold, prelu, glu (values here from numpy; PyTorch's bits in
# tests/engine/ops/test_functional_ops.py)
hard_edges = away(-3.0, 3.0, margin=0.2, lo=-5.0, hi=5.0)   # hardswish, hardsigmoid: kinks at -3 and 3


def np_mish(x):
    return x * np.tanh(np.log1p(np.exp(x)))


def np_hardsigmoid(x):
    return np.clip(x + 3.0, 0.0, 6.0) / 6.0


C("mish", "fn", lambda x: F.mish(x), [(2, 3)], np_mish, "MishBackward0", gen=gen_each(uniform(-5.0, 5.0)))
C("mish", "inplace", on_copy(lambda y: F.mish(y, inplace=True)), [(4,)], np_mish, "MishBackward0")
C("hardswish", "fn", lambda x: F.hardswish(x), [(3, 4)], lambda x: x * np_hardsigmoid(x), "HardswishBackward0",
  gen=gen_each(hard_edges))
C("hardswish", "inplace", on_copy(lambda y: F.hardswish(y, inplace=True)), [(2, 3)],
  lambda x: x * np_hardsigmoid(x), "HardswishBackward0", gen=gen_each(hard_edges))
C("hardswish_backward", "direct",
  lambda g, x: ad.core.apply(ad.OPS["hardswish_backward"], g, x), [(2, 4), (2, 4)],
  lambda g, x: np.where(x <= -3, 0.0, np.where(x < 3, g * (x / 3 + 0.5), g)), "HardswishBackwardBackward0",
  gen=gen_each(uniform(-2.0, 2.0), hard_edges))
C("hardswish_backward", "grad",
  lambda x, w: ad.autograd.grad((F.hardswish(x) * w).sum(), x, create_graph=True)[0], [(3, 3), (3, 3)],
  lambda x, w: np.where(x <= -3, 0.0, np.where(x < 3, w * (x / 3 + 0.5), w)), "HardswishBackwardBackward0",
  gen=gen_each(hard_edges, uniform(-2.0, 2.0)))
C("hardsigmoid", "fn", lambda x: F.hardsigmoid(x), [(3, 4)], np_hardsigmoid, "HardsigmoidBackward0",
  gen=gen_each(hard_edges))
C("hardsigmoid", "inplace", on_copy(lambda y: F.hardsigmoid(y, inplace=True)), [(2, 3)], np_hardsigmoid,
  "HardsigmoidBackward0", gen=gen_each(hard_edges))
C("hardsigmoid_backward", "grad",
  lambda x, w: ad.autograd.grad((F.hardsigmoid(x) * w).sum(), x, create_graph=True)[0], [(3, 3), (3, 3)],
  lambda x, w: np.where((x > -3) & (x < 3), w / 6, 0.0),
  "HardsigmoidBackwardBackward0", gen=gen_each(hard_edges, uniform(-2.0, 2.0)))
C("threshold", "fn", lambda x: F.threshold(x, 0.5, -2.0), [(3, 4)], lambda x: np.where(x <= 0.5, -2.0, x),
  "ThresholdBackward0", gen=gen_each(away(0.5, margin=0.1, lo=-3.0, hi=3.0)))
C("threshold", "inplace", on_copy(lambda y: F.threshold_(y, -0.25, 4.0)), [(2, 3)],
  lambda x: np.where(x <= -0.25, 4.0, x), "ThresholdBackward1", gen=gen_each(away(-0.25, margin=0.1)))
C("prelu", "one_weight", lambda x, w: F.prelu(x, w), [(2, 3), (1,)], lambda x, w: np.where(x > 0, x, w * x),
  "PreluKernelBackward0", gen=gen_each(kinked, uniform(0.1, 0.5)))
C("prelu", "channels", lambda x, w: F.prelu(x, w), [(2, 3, 2), (3,)],
  lambda x, w: np.where(x > 0, x, w.reshape(3, 1) * x), "PreluKernelBackward0", gen=gen_each(kinked, uniform(-1.0, 1.0)))
C("glu", "last", lambda x: F.glu(x), [(3, 4)], lambda x: x[:, :2] * np_sigmoid(x[:, 2:]), "GluBackward0")
C("glu", "dim0", lambda x: F.glu(x, 0), [(2, 3)], lambda x: x[:1] * np_sigmoid(x[1:]), "GluBackward0")

# ==================================================================== losses

for _r in ("mean", "sum", "none"):
    C("mse_loss", _r, lambda x, t, r=_r: F.mse_loss(x, t, reduction=r), [(3, 4), (3, 4)],
      lambda x, t, r=_r: np_reduce((x - t) ** 2, r), "MseLossBackward0")
    C("binary_cross_entropy", _r, lambda x, t, r=_r: F.binary_cross_entropy(x, t, reduction=r),
      [(3, 4), (3, 4)], lambda x, t, r=_r: np_bce(x, t, reduction=r), "BinaryCrossEntropyBackward0",
      gen=probs_and_targets)
    C("binary_cross_entropy_with_logits", _r,
      lambda x, t, r=_r: F.binary_cross_entropy_with_logits(x, t, reduction=r), [(3, 4), (3, 4)],
      lambda x, t, r=_r: np_bce_logits(x, t, reduction=r), "BinaryCrossEntropyWithLogitsBackward0",
      gen=logits_and_targets)
    C("nll_loss", _r, lambda x, t, r=_r: F.nll_loss(x, t, reduction=r), [(3, 4), (3,)],
      lambda x, t, r=_r: np_nll(x, t, reduction=r), "NllLossBackward0", gen=classes(1, 0, 3))

    # mse_loss_backward (PyTorch's MseLossBackwardBackward0): g is the loss's gradient, 0-d when reduced
    C("mse_loss_backward", _r,
      lambda g, x, t, r=_r: ad.core.apply(ad.OPS["mse_loss_backward"], g, x, t, reduction=r),
      [(3, 4) if _r == "none" else (), (3, 4), (3, 4)],
      lambda g, x, t, r=_r: (2.0 / 12 if r == "mean" else 2.0) * (x - t) * g, "MseLossBackwardBackward0")
C("mse_loss_backward", "grad", lambda x, t: ad.autograd.grad(F.mse_loss(x, t), [x, t], create_graph=True)[1],
  [(2, 3), (2, 3)], lambda x, t: (2.0 / 6) * (t - x), "MseLossBackwardBackward0")


def _quiet(f):
    """f with its warnings (mse_loss's broadcasting warning) silenced."""
    def run(*args):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return f(*args)
    return run


C("mse_loss", "broadcast_target", _quiet(lambda x, t: F.mse_loss(x, t)), [(3, 4), (4,)],
  lambda x, t: np.mean((x - t) ** 2), "MseLossBackward0")
C("mse_loss", "input_only", lambda x, t: F.mse_loss(x, t), [(2, 3), (2, 3)], lambda x, t: np.mean((x - t) ** 2),
  "MseLossBackward0", requires=(True, False))
C("binary_cross_entropy", "weight", lambda x, t: F.binary_cross_entropy(x, t, weight=ad.tensor(W4)),
  [(3, 4), (3, 4)], lambda x, t: np_bce(x, t, W4), "BinaryCrossEntropyBackward0", gen=probs_and_targets)
C("binary_cross_entropy", "weight_sum", lambda x, t: F.binary_cross_entropy(x, t, ad.tensor(W4), reduction="sum"),
  [(2, 4), (2, 4)], lambda x, t: np_bce(x, t, W4, "sum"), "BinaryCrossEntropyBackward0", gen=probs_and_targets)
C("binary_cross_entropy_with_logits", "weight_pos_weight",
  lambda x, t: F.binary_cross_entropy_with_logits(x, t, weight=ad.tensor(W4), pos_weight=ad.tensor(PW4)),
  [(3, 4), (3, 4)], lambda x, t: np_bce_logits(x, t, W4, PW4), "BinaryCrossEntropyWithLogitsBackward0",
  gen=logits_and_targets)
C("binary_cross_entropy_with_logits", "pos_weight_none",
  lambda x, t: F.binary_cross_entropy_with_logits(x, t, pos_weight=ad.tensor(PW4), reduction="none"),
  [(2, 4), (2, 4)], lambda x, t: np_bce_logits(x, t, None, PW4, "none"), "BinaryCrossEntropyWithLogitsBackward0",
  gen=logits_and_targets)
C("nll_loss", "weight_ignore", lambda x, t: F.nll_loss(x, t, weight=ad.tensor(W4), ignore_index=2),
  [(4, 4), (4,)], lambda x, t: np_nll(x, t, W4, 2), "NllLossBackward0", gen=classes(1, 2, 3, 0))
C("nll_loss", "one_sample", lambda x, t: F.nll_loss(x, t), [(4,), ()], lambda x, t: np_nll(x, t, dim=0),
  "NllLossBackward0", gen=lambda rng, s: [rng.standard_normal(4), np.array(2)])
C("nll_loss", "spatial", lambda x, t: F.nll_loss(x, t, reduction="sum"), [(2, 3, 2), (2, 2)],
  lambda x, t: np_nll(x, t, reduction="sum"), "NllLoss2DBackward0",
  gen=lambda rng, s: [rng.standard_normal(s[0]), np.array([[0, 2], [1, 1]])])
C("nll_loss", "spatial_4d_none", lambda x, t: F.nll_loss(x, t, reduction="none"), [(2, 3, 2, 1), (2, 2, 1)],
  lambda x, t: np_nll(x, t, reduction="none"), "NllLoss2DBackward0",
  gen=lambda rng, s: [rng.standard_normal(s[0]), np.array([[[0], [2]], [[1], [1]]])])
C("nll_loss", "cross_entropy", lambda x, t: F.cross_entropy(x, t), [(3, 4), (3,)],
  lambda x, t: np_nll(np_log_softmax(x, 1), t), "NllLossBackward0", gen=classes(2, 0, 3))
C("nll_loss", "cross_entropy_weight_none",
  lambda x, t: F.cross_entropy(x, t, weight=ad.tensor(W4), reduction="none"), [(3, 4), (3,)],
  lambda x, t: np_nll(np_log_softmax(x, 1), t, W4, reduction="none"), "NllLossBackward0", gen=classes(2, 0, 3))

C("scalar_arith", "cross_entropy_probabilities", lambda x, p: F.cross_entropy(x, p), [(3, 4), (3, 4)],
  lambda x, p: -(np_log_softmax(x, 1) * p).sum() / 3, "DivBackward1")
C("scalar_arith", "label_smoothing",
  lambda x: F.cross_entropy(x, ad.tensor([1, 0, 3]), label_smoothing=0.2), [(3, 4)],
  lambda x: 0.8 * np_nll(np_log_softmax(x, 1), np.array([1, 0, 3]))
  + 0.2 / 4 * (-np_log_softmax(x, 1).sum(axis=1)).mean(), "AddBackward0")

# ============================================================== legacy spellings

C("alias", "legacy_Tensor", lambda x: ad.Tensor(x), [(2, 3)], lambda x: x, "AliasBackward0")
C("alias", "legacy_DoubleTensor", lambda x: ad.DoubleTensor(x) * 2.0, [(3,)], lambda x: x * 2.0, "MulBackward0")
