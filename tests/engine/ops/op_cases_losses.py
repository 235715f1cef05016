"""Op cases of the composite losses of engine/nn/functional_losses.py (margin_ranking_loss,
hinge_embedding_loss, cosine_embedding_loss, poisson_nll_loss, gaussian_nll_loss,
triplet_margin_loss and triplet_margin_with_distance_loss, multilabel_soft_margin_loss, huber_loss
with weight) and of the margin-loss rows of engine/ops/losses.py. Each case names the row of the
last node PyTorch 2.13 gives the same call (MeanBackward0 and SumBackward0 once reduced); the
references are numpy written from the definitions; inputs are drawn away from the kinks (the
hinge of each max(0, .), |d| = delta)."""
import math
import warnings

import numpy as np

import autodiff.engine as ad
from op_cases import C, away, gen_each, positive

F = ad.nn.functional
REDUCTIONS = (("mean", "mean", "MeanBackward0"), ("sum", "sum", "SumBackward0"))


def np_reduce(loss, reduction):
    return loss if reduction == "none" else loss.sum() if reduction == "sum" else loss.mean()


def np_log_sigmoid(x):
    return -np.logaddexp(0, -x)


def np_pairwise(x, y, p=2.0, eps=1e-6):
    return (np.abs(x - y + eps) ** p).sum(-1) ** (1 / p)


# ---------------------------------------------------------------- margin_ranking_loss

S5 = np.array([1.0, -1.0, 1.0, -1.0, 1.0])


def ranking_inputs(margin):
    """input1, input2, target with -target * (input1 - input2) + margin at least 0.2 from 0."""
    def gen(rng, shapes):
        a = rng.standard_normal(shapes[0])
        z = away(0.0, margin=0.2)(rng, shapes[0])
        return [a, a - (margin - z) * S5, S5.copy()]
    return gen


def np_ranking(a, b, t, margin, reduction):
    return np_reduce(np.maximum(-t * (a - b) + margin, 0), reduction)


for _r, _op, _node in REDUCTIONS + (("none", "clamp", "ClampMinBackward0"),):
    C(_op, f"margin_ranking_loss_{_r}",
      lambda a, b, t, r=_r: F.margin_ranking_loss(a, b, t, margin=0.3, reduction=r), [(5,), (5,), (5,)],
      lambda a, b, t, r=_r: np_ranking(a, b, t, 0.3, r), _node, gen=ranking_inputs(0.3))
C("mean", "MarginRankingLoss", lambda a, b, t: ad.nn.MarginRankingLoss(0.3)(a, b, t), [(5,), (5,), (5,)],
  lambda a, b, t: np_ranking(a, b, t, 0.3, "mean"), "MeanBackward0", gen=ranking_inputs(0.3))

# -------------------------------------------------------------- hinge_embedding_loss


def np_hinge(x, t, margin, reduction):
    loss = np.where(t != 1, np.maximum(margin - x, 0), 0) + np.where(t != -1, x, 0)
    return np_reduce(loss, reduction)


_T34 = np.array([[1.0, -1.0, -1.0, 1.0], [-1.0, -1.0, 1.0, 1.0], [1.0, -1.0, 1.0, -1.0]])
_hinge_gen = gen_each(away(1.5, margin=0.2, lo=-1.0, hi=3.0), lambda rng, s: _T34.copy())
for _r, _op, _node in REDUCTIONS + (("none", "add", "AddBackward0"),):
    C(_op, f"hinge_embedding_loss_{_r}", lambda x, t, r=_r: F.hinge_embedding_loss(x, t, margin=1.5, reduction=r),
      [(3, 4), (3, 4)], lambda x, t, r=_r: np_hinge(x, t, 1.5, r), _node, gen=_hinge_gen, requires=(True, False))
C("mean", "HingeEmbeddingLoss", lambda x, t: ad.nn.HingeEmbeddingLoss()(x, t), [(3, 4), (3, 4)],
  lambda x, t: np_hinge(x, t, 1.0, "mean"), "MeanBackward0",
  gen=gen_each(away(1.0, margin=0.2), lambda rng, s: _T34.copy()), requires=(True, False))

# ------------------------------------------------------------- cosine_embedding_loss


def np_cos_embedding(x, y, t, margin, reduction):
    d = t.ndim
    cos = (x * y).sum(d) / np.sqrt(((x * x).sum(d) + 1e-12) * ((y * y).sum(d) + 1e-12))
    loss = np.where(t == 1, 1 - cos, 0) + np.where(t == -1, np.maximum(cos - margin, 0), 0)
    return np_reduce(loss, reduction)


def cos_inputs(rng, shapes):
    """Rows whose cosine is at least 0.15 from the margin (0.1)."""
    x, y = rng.standard_normal(shapes[0]), rng.standard_normal(shapes[1])
    d = len(shapes[2])
    while True:
        cos = (x * y).sum(d) / np.sqrt((x * x).sum(d) * (y * y).sum(d))
        if np.all(np.abs(cos - 0.1) > 0.15):
            return [x, y, np.array([1.0, -1.0, -1.0, 1.0][:shapes[2][0]]) if d else np.array(-1.0)]
        y = rng.standard_normal(shapes[1])


for _r, _op, _node in REDUCTIONS + (("none", "add", "AddBackward0"),):
    C(_op, f"cosine_embedding_loss_{_r}",
      lambda x, y, t, r=_r: F.cosine_embedding_loss(x, y, t, margin=0.1, reduction=r), [(4, 3), (4, 3), (4,)],
      lambda x, y, t, r=_r: np_cos_embedding(x, y, t, 0.1, r), _node, gen=cos_inputs, requires=(True, True, False))
C("mean", "cosine_embedding_loss_vectors", lambda x, y, t: ad.nn.CosineEmbeddingLoss(0.1)(x, y, t),
  [(5,), (5,), ()], lambda x, y, t: np_cos_embedding(x, y, t, 0.1, "mean"), "MeanBackward0", gen=cos_inputs,
  requires=(True, True, False))

# ------------------------------------------------------------------ poisson_nll_loss


def np_poisson(x, t, log_input, full, reduction, eps=1e-8):
    loss = np.exp(x) - t * x if log_input else x - t * np.log(x + eps)
    if full:
        loss = loss + np.where(t <= 1, 0, t * np.log(t) - t + 0.5 * np.log(2 * math.pi * t))
    return np_reduce(loss, reduction)


def counts(rng, shape):
    """Positive targets, none near 1 (where Stirling's term starts)."""
    return np.where(rng.uniform(size=shape) < 0.4, rng.uniform(0.2, 0.8, shape), rng.uniform(1.3, 4.0, shape))


for _r, _op, _node in REDUCTIONS + (("none", "sub", "SubBackward0"),):
    C(_op, f"poisson_nll_loss_{_r}", lambda x, t, r=_r: F.poisson_nll_loss(x, t, reduction=r), [(3, 4), (3, 4)],
      lambda x, t, r=_r: np_poisson(x, t, True, False, r), _node, gen=gen_each(np.random.Generator.standard_normal,
                                                                               counts))
C("add", "poisson_nll_loss_rate_full_none",
  lambda x, t: F.poisson_nll_loss(x, t, log_input=False, full=True, reduction="none"), [(3, 4), (3, 4)],
  lambda x, t: np_poisson(x, t, False, True, "none"), "AddBackward0", gen=gen_each(positive(0.3, 3.0), counts))
C("sum", "PoissonNLLLoss_full", lambda x, t: ad.nn.PoissonNLLLoss(full=True, reduction="sum")(x, t),
  [(2, 5), (2, 5)], lambda x, t: np_poisson(x, t, True, True, "sum"), "SumBackward0",
  gen=gen_each(np.random.Generator.standard_normal, counts))

# ----------------------------------------------------------------- gaussian_nll_loss


def np_gaussian(x, t, var, full, reduction, eps=1e-6):
    var = np.maximum(var, eps)
    loss = 0.5 * (np.log(var) + (x - t) ** 2 / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return np_reduce(loss, reduction)


_gauss_gen = gen_each(np.random.Generator.standard_normal, np.random.Generator.standard_normal, positive(0.3, 2.0))
for _r, _op, _node in REDUCTIONS + (("none", "mul", "MulBackward0"),):
    C(_op, f"gaussian_nll_loss_{_r}", lambda x, t, v, r=_r: F.gaussian_nll_loss(x, t, v, reduction=r),
      [(3, 4), (3, 4), (3, 4)], lambda x, t, v, r=_r: np_gaussian(x, t, v, False, r), _node, gen=_gauss_gen)
C("add", "gaussian_nll_loss_full_none", lambda x, t, v: F.gaussian_nll_loss(x, t, v, full=True, reduction="none"),
  [(3, 4), (3, 4), (3, 4)], lambda x, t, v: np_gaussian(x, t, v, True, "none"), "AddBackward0", gen=_gauss_gen)
C("mean", "gaussian_nll_loss_var_last_dim_left_out", lambda x, t, v: F.gaussian_nll_loss(x, t, v),
  [(3, 4), (3, 4), (3,)], lambda x, t, v: np_gaussian(x, t, v[:, None], False, "mean"), "MeanBackward0",
  gen=_gauss_gen)
C("sum", "GaussianNLLLoss_var_one_column", lambda x, t, v: ad.nn.GaussianNLLLoss(full=True, reduction="sum")(x, t, v),
  [(3, 4), (3, 4), (3, 1)], lambda x, t, v: np_gaussian(x, t, v, True, "sum"), "SumBackward0", gen=_gauss_gen)
C("mean", "gaussian_nll_loss_float_var", lambda x, t: F.gaussian_nll_loss(x, t, 0.7), [(3, 4), (3, 4)],
  lambda x, t: np_gaussian(x, t, 0.7, False, "mean"), "MeanBackward0")

# --------------------------------------------------------------- triplet_margin_loss


def np_triplet(a, p, n, margin, norm, swap, reduction, distance=np_pairwise):
    dp = distance(a, p) if distance is not np_pairwise else np_pairwise(a, p, norm)
    dn = distance(a, n) if distance is not np_pairwise else np_pairwise(a, n, norm)
    if swap:
        ds = distance(p, n) if distance is not np_pairwise else np_pairwise(p, n, norm)
        dn = np.minimum(dn, ds)
    return np_reduce(np.maximum(margin + dp - dn, 0), reduction)


def triplets(margin, norm, swap, distance=None):
    """anchor, positive, negative with margin + d(a, p) - d(a, n) at least 0.1 from 0 (and the swap's
    two distances at least 0.1 apart)."""
    def gen(rng, shapes):
        while True:
            a, p, n = (rng.standard_normal(s) for s in shapes)
            dist = distance or (lambda x, y: np_pairwise(x, y, norm))
            dp, dn, ds = dist(a, p), dist(a, n), dist(p, n)
            if swap and np.any(np.abs(dn - ds) < 0.1):
                continue
            if np.all(np.abs(margin + dp - (np.minimum(dn, ds) if swap else dn)) > 0.1):
                return [a, p, n]
    return gen


for _r, _op, _node in REDUCTIONS + (("none", "clamp", "ClampMinBackward0"),):
    C(_op, f"triplet_margin_loss_{_r}", lambda a, p, n, r=_r: F.triplet_margin_loss(a, p, n, reduction=r),
      [(4, 3), (4, 3), (4, 3)], lambda a, p, n, r=_r: np_triplet(a, p, n, 1.0, 2.0, False, r), _node,
      gen=triplets(1.0, 2.0, False))
C("clamp", "triplet_margin_loss_p1_swap_none",
  lambda a, p, n: F.triplet_margin_loss(a, p, n, margin=0.5, p=1, swap=True, reduction="none"),
  [(5, 3), (5, 3), (5, 3)], lambda a, p, n: np_triplet(a, p, n, 0.5, 1.0, True, "none"), "ClampMinBackward0",
  gen=triplets(0.5, 1.0, True))
C("mean", "TripletMarginLoss_p3", lambda a, p, n: ad.nn.TripletMarginLoss(margin=2.0, p=3)(a, p, n),
  [(4, 3), (4, 3), (4, 3)], lambda a, p, n: np_triplet(a, p, n, 2.0, 3.0, False, "mean"), "MeanBackward0",
  gen=triplets(2.0, 3.0, False))
C("clamp", "triplet_margin_with_distance_loss_none",
  lambda a, p, n: F.triplet_margin_with_distance_loss(a, p, n, swap=True, reduction="none"),
  [(4, 3), (4, 3), (4, 3)], lambda a, p, n: np_triplet(a, p, n, 1.0, 2.0, True, "none"), "ClampMinBackward0",
  gen=triplets(1.0, 2.0, True))


def _squared(x, y):
    return ((x - y) ** 2).sum(-1)


C("sum", "TripletMarginWithDistanceLoss_function",
  lambda a, p, n: ad.nn.TripletMarginWithDistanceLoss(
      distance_function=lambda x, y: ((x - y) ** 2).sum(-1), margin=0.5, reduction="sum")(a, p, n),
  [(4, 3), (4, 3), (4, 3)], lambda a, p, n: np_triplet(a, p, n, 0.5, None, False, "sum", _squared),
  "SumBackward0", gen=triplets(0.5, None, False, _squared))

# ------------------------------------------------------- multilabel_soft_margin_loss


def np_multilabel_soft_margin(x, t, w, reduction):
    loss = -(t * np_log_sigmoid(x) + (1 - t) * np_log_sigmoid(-x))
    if w is not None:
        loss = loss * w
    return np_reduce(loss.sum(-1) / x.shape[-1], reduction)


_W4 = np.array([0.5, 1.0, 2.0, 1.5])
_mlsm_gen = gen_each(np.random.Generator.standard_normal, lambda rng, s: rng.uniform(0.0, 1.0, s))
for _r, _op, _node in REDUCTIONS + (("none", "div", "DivBackward0"),):
    C(_op, f"multilabel_soft_margin_loss_{_r}", lambda x, t, r=_r: F.multilabel_soft_margin_loss(x, t, reduction=r),
      [(3, 4), (3, 4)], lambda x, t, r=_r: np_multilabel_soft_margin(x, t, None, r), _node, gen=_mlsm_gen)
C("mean", "MultiLabelSoftMarginLoss_weight",
  lambda x, t: ad.nn.MultiLabelSoftMarginLoss(weight=ad.tensor(_W4))(x, t), [(3, 4), (3, 4)],
  lambda x, t: np_multilabel_soft_margin(x, t, _W4, "mean"), "MeanBackward0", gen=_mlsm_gen)

# ------------------------------------------------------------- huber_loss with weight


def np_huber(x, t, delta, w, reduction):
    z = np.abs(x - t)
    return np_reduce(np.where(z < delta, 0.5 * z * z, delta * (z - 0.5 * delta)) * w, reduction)


def huber_inputs(delta):
    def gen(rng, shapes):
        t = rng.standard_normal(shapes[1])
        d = away(-delta, delta, margin=0.15, lo=-2.5, hi=2.5)(rng, shapes[0])
        return [t + d, t, rng.uniform(0.5, 2.0, shapes[2])]
    return gen


for _r, _op, _node in REDUCTIONS + (("none", "mul", "MulBackward0"),):
    C(_op, f"huber_loss_weight_{_r}", lambda x, t, w, r=_r: F.huber_loss(x, t, reduction=r, delta=0.7, weight=w),
      [(3, 4), (3, 4), (3, 4)], lambda x, t, w, r=_r: np_huber(x, t, 0.7, w, r), _node, gen=huber_inputs(0.7))

# ------------------------------------------------------------------ soft_margin_loss


def np_soft_margin(x, t, reduction):
    return np_reduce(np.log1p(np.exp(-t * x)), reduction)


def signs(rng, shape):
    return rng.choice([-1.0, 1.0], size=shape)


for _r in ("mean", "sum", "none"):
    C("soft_margin_loss", _r, lambda x, t, r=_r: F.soft_margin_loss(x, t, reduction=r), [(3, 4), (3, 4)],
      lambda x, t, r=_r: np_soft_margin(x, t, r), "SoftMarginLossBackward0",
      gen=gen_each(np.random.Generator.standard_normal, signs), requires=(True, False))
    # soft_margin_loss_backward (SoftMarginLossBackwardBackward0): g the loss's gradient, 0-d when reduced
    C("soft_margin_loss_backward", _r,
      lambda g, x, t, r=_r: ad.core.apply(ad.OPS["soft_margin_loss_backward"], g, x, t, reduction=r),
      [(3, 4) if _r == "none" else (), (3, 4), (3, 4)],
      lambda g, x, t, r=_r: -(1 / 12 if r == "mean" else 1) * t / (1 + np.exp(t * x)) * g,
      "SoftMarginLossBackwardBackward0", gen=gen_each(np.random.Generator.standard_normal,
                                                      np.random.Generator.standard_normal, signs),
      requires=(True, True, False))
C("soft_margin_loss", "broadcast_SoftMarginLoss", lambda x, t: ad.nn.SoftMarginLoss()(x, t), [(3, 4), (4,)],
  lambda x, t: np_soft_margin(x, t, "mean"), "SoftMarginLossBackward0",
  gen=gen_each(np.random.Generator.standard_normal, signs), requires=(True, False))
C("soft_margin_loss_backward", "grad",
  lambda x: ad.autograd.grad(F.soft_margin_loss(x, ad.tensor(_T34)), [x], create_graph=True)[0], [(3, 4)],
  lambda x: -_T34 / (1 + np.exp(_T34 * x)) / 12, "SoftMarginLossBackwardBackward0")

# ----------------------------------------------------------------- multi_margin_loss


def np_multi_margin(x, y, p, margin, w, reduction):
    x2 = x.reshape(-1, x.shape[-1] if x.ndim else 1)
    n, c = x2.shape
    shape = np.shape(y)
    y = np.asarray(y).reshape(-1)
    loss = np.zeros(n)
    for s in range(n):  # the definition, one sample and one class at a time
        for i in range(c):
            if i != y[s]:
                loss[s] += max(0.0, margin - x2[s, y[s]] + x2[s, i]) ** p
        loss[s] *= (1.0 if w is None else w[y[s]]) / c
    return loss.reshape(shape if x.ndim <= 1 else (n,)) if reduction == "none" else np_reduce(loss, reduction)


Y3 = np.array([0, 3, 1])


def margin_scores(target, margin):
    """Scores whose margin - x[y] + x[i] stay at least 0.2 from 0."""
    def gen(rng, shapes):
        x = away(0.0, margin=0.2, lo=-2.5, hi=2.5)(rng, shapes[0]).reshape(-1, shapes[0][-1])
        rows = np.arange(len(x))
        y = np.asarray(target).reshape(-1)
        x[rows, y] = 0.0
        x = x + margin  # now z[i] = margin - x[y] + x[i] = the draws
        x[rows, y] = margin
        return [x.reshape(shapes[0])]
    return gen


for _r in ("mean", "sum", "none"):
    C("multi_margin_loss", _r, lambda x, r=_r: F.multi_margin_loss(x, ad.tensor(Y3), reduction=r), [(3, 4)],
      lambda x, r=_r: np_multi_margin(x, Y3, 1, 1.0, None, r), "MultiMarginLossBackward0",
      gen=margin_scores(Y3, 1.0))
    C("multi_margin_loss", f"p2_weight_{_r}",
      lambda x, r=_r: F.multi_margin_loss(x, ad.tensor(Y3), p=2, margin=0.7, weight=ad.tensor(_W4), reduction=r),
      [(3, 4)], lambda x, r=_r: np_multi_margin(x, Y3, 2, 0.7, _W4, r), "MultiMarginLossBackward0",
      gen=margin_scores(Y3, 0.7))
C("multi_margin_loss", "one_sample_none", lambda x: F.multi_margin_loss(x, ad.tensor(2), reduction="none"), [(5,)],
  lambda x: np_multi_margin(x, np.array(2), 1, 1.0, None, "none"), "MultiMarginLossBackward0",
  gen=margin_scores([2], 1.0))
C("multi_margin_loss", "MultiMarginLoss_p2", lambda x: ad.nn.MultiMarginLoss(p=2, margin=0.5)(x, ad.tensor(Y3)),
  [(3, 4)], lambda x: np_multi_margin(x, Y3, 2, 0.5, None, "mean"), "MultiMarginLossBackward0",
  gen=margin_scores(Y3, 0.5))

# ------------------------------------------------------------ multilabel_margin_loss


def np_multilabel_margin(x, y, reduction):
    x2, y2 = np.atleast_2d(x), np.atleast_2d(y)
    n, c = x2.shape
    loss = np.zeros(n)
    for s in range(n):  # the definition: targets before the first -1, each against each other class
        targets = []
        for k in range(c):
            if y2[s, k] < 0:
                break
            targets.append(y2[s, k])
        others = [i for i in range(c) if i not in targets]
        for j in targets:
            for i in others:
                loss[s] += max(0.0, 1 - (x2[s, j] - x2[s, i]))
        loss[s] /= c
    if reduction == "none":
        return loss if x.ndim == 2 else loss.reshape(())
    return np_reduce(loss, reduction)


YM = np.array([[0, 3, -1, 2], [1, -1, 0, 0], [2, 1, 0, 3]])  # the last sample's targets are every class


def label_scores(rng, shapes):
    """Scores whose differences all stay at least 0.1 from 1 (the hinge of max(0, 1 - d))."""
    while True:
        x = rng.uniform(-2, 2, shapes[0])
        d = x[..., :, None] - x[..., None, :]
        if np.all(np.abs(d - 1) > 0.1):
            return [x]


for _r in ("mean", "sum", "none"):
    C("multilabel_margin_loss", _r, lambda x, r=_r: F.multilabel_margin_loss(x, ad.tensor(YM), reduction=r),
      [(3, 4)], lambda x, r=_r: np_multilabel_margin(x, YM, r), "MultilabelMarginLossBackward0", gen=label_scores)
C("multilabel_margin_loss", "one_sample_MultiLabelMarginLoss",
  lambda x: ad.nn.MultiLabelMarginLoss(reduction="none")(x, ad.tensor([4, 1, -1, 0, 0])), [(5,)],
  lambda x: np_multilabel_margin(x, np.array([4, 1, -1, 0, 0]), "none"), "MultilabelMarginLossBackward0",
  gen=label_scores)

# ------------------------------------------------------ scaled_dot_product_attention


def np_attention(q, k, v, mask=None, causal=False, scale=None, gqa=False):
    if gqa and q.ndim >= 3 and k.shape[-3] != q.shape[-3]:
        k = np.repeat(k, q.shape[-3] // k.shape[-3], axis=-3)
        v = np.repeat(v, q.shape[-3] // v.shape[-3], axis=-3)
    scale = 1 / math.sqrt(q.shape[-1]) if scale is None else scale
    s = q @ np.swapaxes(k, -1, -2) * scale
    if causal:
        mask = np.tril(np.ones((q.shape[-2], k.shape[-2]), dtype=bool))
    if mask is not None:
        s = s + (np.where(mask, 0.0, -np.inf) if mask.dtype == bool else mask)
    top = s.max(-1, keepdims=True)
    dead = np.isinf(top)  # a query the mask lets see no key: weights 0
    e = np.exp(s - np.where(dead, 0, top))
    w = np.where(dead, 0, e / np.where(dead, 1, e.sum(-1, keepdims=True)))
    return w @ v


_MASK = np.array([[True, False, True, True, False, True], [False] * 6, [True, True, False, False, True, True]])
_SHAPES = [(2, 2, 3, 5), (2, 2, 6, 5), (2, 2, 6, 4)]
C("unsafe_view", "sdpa", lambda q, k, v: F.scaled_dot_product_attention(q, k, v), _SHAPES,
  lambda q, k, v: np_attention(q, k, v), "UnsafeViewBackward0")
C("unsafe_view", "sdpa_bool_mask_a_row_masked",
  lambda q, k, v: F.scaled_dot_product_attention(q, k, v, attn_mask=ad.tensor(_MASK)), _SHAPES,
  lambda q, k, v: np_attention(q, k, v, _MASK), "UnsafeViewBackward0")
C("unsafe_view", "sdpa_float_mask", lambda q, k, v, m: F.scaled_dot_product_attention(q, k, v, attn_mask=m),
  _SHAPES + [(3, 6)], lambda q, k, v, m: np_attention(q, k, v, m), "UnsafeViewBackward0")
C("unsafe_view", "sdpa_causal_scale", lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True, scale=0.4),
  _SHAPES, lambda q, k, v: np_attention(q, k, v, causal=True, scale=0.4), "UnsafeViewBackward0")
C("unsafe_view", "sdpa_negative_scale", lambda q, k, v: F.scaled_dot_product_attention(q, k, v, scale=-0.6),
  _SHAPES, lambda q, k, v: np_attention(q, k, v, scale=-0.6), "UnsafeViewBackward0")
C("unsafe_view", "sdpa_gqa", lambda q, k, v: F.scaled_dot_product_attention(q, k, v, enable_gqa=True),
  [(1, 4, 3, 5), (1, 2, 6, 5), (1, 2, 6, 4)], lambda q, k, v: np_attention(q, k, v, gqa=True), "UnsafeViewBackward0")
C("unsafe_view", "sdpa_3d_broadcast", lambda q, k, v: F.scaled_dot_product_attention(q, k, v),
  [(3, 4, 5), (1, 6, 5), (1, 6, 2)], lambda q, k, v: np_attention(q, k, v), "UnsafeViewBackward0")
C("matmul", "sdpa_matrices_causal", lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True),
  [(4, 3), (2, 3), (2, 5)], lambda q, k, v: np_attention(q, k, v, causal=True), "MmBackward0")
C("unsafe_view", "direct", lambda x: ad.core.apply(ad.OPS["unsafe_view"], x, shape=(2, 3, 4)), [(6, 4)],
  lambda x: x.reshape(2, 3, 4), "UnsafeViewBackward0")
C("safe_softmax", "direct", lambda x: ad.core.apply(ad.OPS["safe_softmax"], x, dim=1), [(3, 4)],
  lambda x: np.exp(x) / np.exp(x).sum(1, keepdims=True), "SafeSoftmaxBackward0")

# --------------------------------------------------------------------- embedding_bag


def np_embedding_bag(w, idx, starts, mode, psw=None, padding_idx=None, last=False):
    """The definition, one bag at a time: bag b is idx[starts[b]:starts[b + 1]] (the last to the end)."""
    nbags = len(starts) - 1 if last else len(starts)
    out = np.zeros((nbags, w.shape[1]))
    for b in range(nbags):
        end = starts[b + 1] if b + 1 < nbags else len(idx)
        sel = [k for k in range(starts[b], end) if idx[k] != padding_idx]
        if not sel:
            continue
        rows = w[idx[sel]] * (1.0 if psw is None else psw[sel][:, None])
        out[b] = rows.sum(0) if mode == "sum" else rows.mean(0) if mode == "mean" else rows.max(0)
    return out


IDX = np.array([1, 2, 4, 5, 4, 3, 2, 0])
OFF = np.array([0, 4, 4, 6])  # bag 1 is empty


def distinct_rows(rng, shapes):
    """A table whose values are distinct (no tie for 'max'), and per-sample weights."""
    arrays = [np.random.default_rng(rng.integers(1 << 30)).permutation(
        np.linspace(-2, 2, int(np.prod(shapes[0])))).reshape(shapes[0])]
    return arrays + [rng.uniform(0.5, 1.5, s) for s in shapes[1:]]


for _m in ("sum", "mean", "max"):
    C("embedding_bag", _m, lambda w, m=_m: F.embedding_bag(ad.tensor(IDX), w, ad.tensor(OFF), mode=m), [(6, 3)],
      lambda w, m=_m: np_embedding_bag(w, IDX, OFF, m), "EmbeddingBagBackward0", gen=distinct_rows)
    C("embedding_bag", f"{_m}_padding_2d",
      lambda w, m=_m: F.embedding_bag(ad.tensor(IDX.reshape(2, 4)), w, mode=m, padding_idx=4), [(6, 3)],
      lambda w, m=_m: np_embedding_bag(w, IDX, [0, 4], m, padding_idx=4), "EmbeddingBagBackward0",
      gen=distinct_rows)
C("embedding_bag", "per_sample_weights",
  lambda w, p: F.embedding_bag(ad.tensor(IDX), w, ad.tensor(OFF), mode="sum", per_sample_weights=p, padding_idx=2),
  [(6, 3), (8,)], lambda w, p: np_embedding_bag(w, IDX, OFF, "sum", psw=p, padding_idx=2), "EmbeddingBagBackward0",
  gen=distinct_rows)
C("embedding_bag", "include_last_offset",  # the last bag runs to the end of input, as in PyTorch's kernel
  lambda w: F.embedding_bag(ad.tensor(IDX), w, ad.tensor([0, 3, 5]), mode="mean", include_last_offset=True),
  [(6, 3)], lambda w: np_embedding_bag(w, IDX, [0, 3, 5], "mean", last=True), "EmbeddingBagBackward0",
  gen=distinct_rows)
