"""torch.masked (engine/masked.py): every function against numpy written another way (np.where and
numpy.ma, with the empty slices' answers PyTorch 2.13 gives: amax -inf, sum 0, prod 1, mean/var/std/
median/softmax NaN, ...), gradcheck and gradgradcheck in float64 with a mask and without, the node
names of PyTorch's composition, its dtype rules, its refusals in its words, and the language's
torch.masked namespace."""
import math

import numpy as np
import pytest

import autodiff.engine as ad
from autodiff.engine.autograd import gradcheck, gradgradcheck
from tolerance import assert_close

M = ad.masked
RNG = np.random.default_rng(20240613)
X = RNG.standard_normal((2, 3, 4))
Y = RNG.standard_normal((2, 3, 4))
# a mask leaving the slices [0, 1, :] (along dim 2) and [:, :, 3] of batch 1 ... empty
MASK = RNG.random((2, 3, 4)) > 0.4
MASK[0, 1, :] = False
MASK[1, :, 2] = False
FULL = np.ones_like(MASK)  # what mask=None means
# a mask with no empty slice along any dim (for gradcheck where an empty slice gives inf or NaN)
DENSE = np.ones((2, 3, 4), dtype=bool)
DENSE[0, 0, 1] = DENSE[0, 2, 3] = DENSE[1, 1, 0] = DENSE[1, 2, 2] = False


def t(a, grad=False, dtype=None):
    a = np.asarray(a)
    if dtype is None:
        dtype = ad.bool_ if a.dtype == bool else ad.float64
    return ad.tensor(a, dtype=dtype, requires_grad=grad)


def mask_arg(m):
    return None if m is FULL else t(m)


# ------------------------------------------------------------------ numpy references

def count(m, axis, keepdims=False):
    return np.sum(m, axis=axis, keepdims=keepdims)


def ref_sum(x, m, axis):
    return np.sum(np.where(m, x, 0.0), axis=axis)


def ref_prod(x, m, axis):
    return np.prod(np.where(m, x, 1.0), axis=axis)


def filled(value, fill):
    """A numpy.ma result (a masked array, or a plain number for a whole-array reduction) with `fill` for
    the masked-out answers."""
    return np.ma.filled(np.ma.asarray(value), fill)


def ref_amax(x, m, axis):
    return filled(np.ma.masked_array(x, ~m).max(axis=axis), -np.inf)


def ref_amin(x, m, axis):
    return filled(np.ma.masked_array(x, ~m).min(axis=axis), np.inf)


def ref_mean(x, m, axis):
    with np.errstate(invalid="ignore", divide="ignore"):
        return filled(np.ma.masked_array(x, ~m).mean(axis=axis), np.nan)


def ref_var(x, m, axis, ddof=1, root=False):
    n = count(m, axis)
    mean = filled(np.ma.masked_array(x, ~m).mean(axis=axis, keepdims=True), np.nan)
    squares = np.sum(np.where(m, (x - mean) ** 2, 0.0), axis=axis)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = squares / np.maximum(n - ddof, 0)
    return np.sqrt(out) if root else out


def ref_median(x, m, axis):
    """The lower middle of the unmasked values (nanmedian's choice for an even count), NaN if none."""
    n = count(m, axis, keepdims=True)
    ordered = np.sort(np.where(m, x, np.inf), axis=axis)
    lower = np.take_along_axis(ordered, np.maximum(n - 1, 0) // 2, axis=axis)
    return np.squeeze(np.where(n > 0, lower, np.nan), axis=axis)


def ref_logsumexp(x, m, axis):
    with np.errstate(divide="ignore"):
        return np.log(np.sum(np.where(m, np.exp(x), 0.0), axis=axis))


def ref_norm(x, m, axis, ord):
    a = np.abs(np.where(m, x, 0.0))
    if ord == math.inf:
        return a.max(axis=axis)
    if ord == -math.inf:
        return np.where(m, a, np.inf).min(axis=axis)
    return np.sum(a ** ord, axis=axis) ** (1.0 / ord)


def ref_softmax(x, m, axis):
    e = np.where(m, np.exp(x), 0.0)
    with np.errstate(invalid="ignore"):
        return e / e.sum(axis=axis, keepdims=True)


def ref_log_softmax(x, m, axis):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.log(ref_softmax(x, m, axis))


def ref_softmin(x, m, axis):
    return ref_softmax(-x, m, axis)


def ref_normalize(x, m, axis, ord, eps=1e-12):
    size = ref_norm(x, m, axis, ord)
    return np.where(m, x, 0.0) / np.maximum(np.expand_dims(size, axis), eps)


REDUCTIONS = [  # (name, our call of (x, mask, dim), numpy reference of (x, mask, axis))
    ("sum", lambda x, m, d: M.sum(x, d, mask=m), ref_sum),
    ("prod", lambda x, m, d: M.prod(x, d, mask=m), ref_prod),
    ("amax", lambda x, m, d: M.amax(x, d, mask=m), ref_amax),
    ("amin", lambda x, m, d: M.amin(x, d, mask=m), ref_amin),
    ("mean", lambda x, m, d: M.mean(x, d, mask=m), ref_mean),
    ("var", lambda x, m, d: M.var(x, d, mask=m), ref_var),
    ("var_biased", lambda x, m, d: M.var(x, d, False, mask=m), lambda x, m, a: ref_var(x, m, a, ddof=0)),
    ("var_correction2", lambda x, m, d: M.var(x, d, correction=2, mask=m), lambda x, m, a: ref_var(x, m, a, ddof=2)),
    ("std", lambda x, m, d: M.std(x, d, mask=m), lambda x, m, a: ref_var(x, m, a, root=True)),
    ("logsumexp", lambda x, m, d: M.logsumexp(x, d, mask=m), ref_logsumexp),
    ("norm2", lambda x, m, d: M.norm(x, 2.0, d, mask=m), lambda x, m, a: ref_norm(x, m, a, 2.0)),
    ("norm1", lambda x, m, d: M.norm(x, 1, d, mask=m), lambda x, m, a: ref_norm(x, m, a, 1)),
    ("norm3", lambda x, m, d: M.norm(x, 3.0, d, mask=m), lambda x, m, a: ref_norm(x, m, a, 3.0)),
    ("norm_inf", lambda x, m, d: M.norm(x, math.inf, d, mask=m), lambda x, m, a: ref_norm(x, m, a, math.inf)),
    ("norm_ninf", lambda x, m, d: M.norm(x, -math.inf, d, mask=m), lambda x, m, a: ref_norm(x, m, a, -math.inf)),
]
ALONG_A_DIM = [  # functions of one dim, keeping the shape except median
    ("median", lambda x, m, d: M.median(x, d, mask=m), ref_median),
    ("cumsum", lambda x, m, d: M.cumsum(x, d, mask=m), lambda x, m, a: np.cumsum(np.where(m, x, 0.0), axis=a)),
    ("cumprod", lambda x, m, d: M.cumprod(x, d, mask=m), lambda x, m, a: np.cumprod(np.where(m, x, 1.0), axis=a)),
    ("softmax", lambda x, m, d: M.softmax(x, d, mask=m), ref_softmax),
    ("log_softmax", lambda x, m, d: M.log_softmax(x, d, mask=m), ref_log_softmax),
    ("softmin", lambda x, m, d: M.softmin(x, d, mask=m), ref_softmin),
    ("normalize2", lambda x, m, d: M.normalize(x, 2.0, d, mask=m), lambda x, m, a: ref_normalize(x, m, a, 2.0)),
    ("normalize1", lambda x, m, d: M.normalize(x, 1, d, mask=m), lambda x, m, a: ref_normalize(x, m, a, 1)),
]


# ------------------------------------------------------------------ forward values

@pytest.mark.parametrize("mask", [MASK, FULL, DENSE], ids=["empty-slices", "none", "dense"])
@pytest.mark.parametrize("dim", [2, 1, (0, 2), None, -1])
@pytest.mark.parametrize("name,ours,ref", REDUCTIONS, ids=[r[0] for r in REDUCTIONS])
def test_reductions_match_numpy(name, ours, ref, dim, mask):
    axis = tuple(dim) if isinstance(dim, tuple) else dim
    got = ours(t(X), mask_arg(mask), dim)
    assert got.dtype == ad.float64
    assert_close(got.numpy(), np.asarray(ref(X, mask, axis)), what=name)


@pytest.mark.parametrize("mask", [MASK, FULL], ids=["empty-slices", "none"])
@pytest.mark.parametrize("dim", [0, 1, 2, -1])
@pytest.mark.parametrize("name,ours,ref", ALONG_A_DIM, ids=[r[0] for r in ALONG_A_DIM])
def test_functions_along_a_dim_match_numpy(name, ours, ref, dim, mask):
    got = ours(t(X), mask_arg(mask), dim)
    assert_close(got.numpy(), ref(X, mask, dim % 3), what=name)


@pytest.mark.parametrize("mask", [MASK, FULL], ids=["empty-slices", "none"])
@pytest.mark.parametrize("dim", [None, 0, 2, -2])
def test_argmax_argmin_match_numpy(dim, mask):
    for ours, fill, pick in ((M.argmax, -np.inf, np.argmax), (M.argmin, np.inf, np.argmin)):
        got = ours(t(X), dim, mask=mask_arg(mask))
        want = pick(np.where(mask, X, fill), axis=dim)  # an empty slice: index 0, the first of the ties
        assert got.dtype == ad.float64  # the input's dtype, as PyTorch gives it
        assert_close(got.numpy(), np.asarray(want, dtype=np.float64))


def test_logaddexp_matches_numpy():
    other_mask = ~MASK
    other_mask[0, 1, :2] = False  # both sides masked out there: -inf
    got = M.logaddexp(t(X), t(Y), input_mask=t(MASK), other_mask=t(other_mask))
    with np.errstate(invalid="ignore"):
        want = np.logaddexp(np.where(MASK, X, -np.inf), np.where(other_mask, Y, -np.inf))
    assert_close(got.numpy(), want)
    assert_close(M.logaddexp(t(X), t(Y)).numpy(), np.logaddexp(X, Y))
    assert_close(M.logaddexp(t(X), t(Y), other_mask=t(MASK[0, 0])).numpy(),
                 np.logaddexp(X, np.where(MASK[0, 0], Y, -np.inf)))


def test_keepdim_and_broadcast_masks():
    m = MASK[:, :1, :]  # (2, 1, 4): broadcast over dim 1
    mm = np.broadcast_to(m, X.shape)
    assert_close(M.sum(t(X), (1, 2), keepdim=True, mask=t(m)).numpy(),
                 np.sum(np.where(mm, X, 0.0), axis=(1, 2), keepdims=True))
    assert_close(M.mean(t(X), 0, keepdim=True, mask=t(MASK[1])).numpy(),
                 ref_mean(X, np.broadcast_to(MASK[1], X.shape), 0)[None])
    assert tuple(M.var(t(X), [0, 2], keepdim=True, mask=t(MASK)).shape) == (1, 3, 1)
    assert tuple(M.amax(t(X), -1, keepdim=True).shape) == (2, 3, 1)
    assert tuple(M.median(t(X), 1, keepdim=True, mask=t(MASK)).shape) == (2, 1, 4)


def test_nonbool_mask_is_taken_as_bool():
    """PyTorch converts a mask of another dtype with .to(bool): nonzero keeps the element."""
    weights = np.where(MASK, RNG.uniform(0.5, 3.0, MASK.shape), 0.0)
    for f in (M.sum, M.mean, M.amax, M.var):
        assert_close(f(t(X), 2, mask=t(weights)).numpy(), f(t(X), 2, mask=t(MASK)).numpy())
    as_ints = ad.tensor(MASK.astype(np.int64))
    assert_close(M.softmax(t(X), 1, mask=as_ints).numpy(), ref_softmax(X, MASK, 1))


def test_empty_slices_follow_pytorch():
    """A fully masked row: PyTorch 2.13's answers (printed by it for this input)."""
    x = t([[1.0, -2.0, 3.0], [4.0, 5.0, 6.0]])
    m = t([[True, False, True], [False, False, False]])
    nan, inf = math.nan, math.inf
    expected = {
        "sum": [4.0, 0.0], "prod": [3.0, 1.0], "amax": [3.0, -inf], "amin": [1.0, inf], "mean": [2.0, nan],
        "median": [1.0, nan], "var": [2.0, nan], "std": [math.sqrt(2.0), nan], "logsumexp": [math.log(math.e + math.e ** 3), -inf],
        "argmax": [2.0, 0.0], "argmin": [0.0, 0.0],
    }
    calls = {"sum": M.sum, "prod": M.prod, "amax": M.amax, "amin": M.amin, "mean": M.mean, "var": M.var,
             "std": M.std, "logsumexp": M.logsumexp, "argmax": M.argmax, "argmin": M.argmin,
             "median": M.median}
    for name, want in expected.items():
        assert_close(calls[name](x, 1, mask=m).numpy(), np.array(want), what=name)
    assert_close(M.norm(x, 2.0, 1, mask=m).numpy(), np.array([math.sqrt(10.0), 0.0]))
    assert_close(M.norm(x, -inf, 1, mask=m).numpy(), np.array([1.0, inf]))
    sm = M.softmax(x, 1, mask=m).numpy()
    assert sm[0, 1] == 0.0 and np.isnan(sm[1]).all()
    lsm = M.log_softmax(x, 1, mask=m).numpy()
    assert lsm[0, 1] == -inf and np.isnan(lsm[1]).all()
    assert np.isnan(M.softmin(x, 1, mask=m).numpy()[1]).all()
    assert_close(M.normalize(x, 2.0, 1, mask=m).numpy()[1], np.zeros(3))
    assert_close(M.cumsum(x, 1, mask=m).numpy(), np.array([[1.0, 1.0, 4.0], [0.0, 0.0, 0.0]]))
    assert_close(M.cumprod(x, 1, mask=m).numpy(), np.array([[1.0, 1.0, 3.0], [1.0, 1.0, 1.0]]))
    assert_close(M.logaddexp(x, x, input_mask=m, other_mask=m).numpy()[1], np.full(3, -inf))


def test_gradient_is_zero_at_masked_elements_even_where_the_row_is_nan():
    x = t([[1.0, -2.0, 3.0], [4.0, 5.0, 6.0]], grad=True)
    m = t([[True, False, True], [False, False, False]])
    for f in (M.softmax, M.log_softmax, M.softmin):
        g, = ad.autograd.grad(f(x, 1, mask=m)[:, 0].sum(), x)
        assert (g.numpy()[1] == 0).all() and g.numpy()[0, 1] == 0.0
    g, = ad.autograd.grad(M.amax(x, 1, mask=m).sum(), x)
    assert_close(g.numpy(), np.array([[0.0, 0.0, 1.0], [0.0, 0.0, 0.0]]))
    g, = ad.autograd.grad(M.mean(x, 1, mask=m)[0], x)  # d mean / dx = 1 / count on the unmasked
    assert_close(g.numpy(), np.array([[0.5, 0.0, 0.5], [0.0, 0.0, 0.0]]))
    g, = ad.autograd.grad(M.prod(x, 1, mask=m).sum(), x)
    assert_close(g.numpy(), np.array([[3.0, 0.0, 1.0], [0.0, 0.0, 0.0]]))


# ------------------------------------------------------------------ dtypes

def test_dtype_rules():
    ints = ad.tensor([[1, 7, 3], [4, 5, 6]], dtype=ad.int32)
    m = t([[True, False, True], [False, False, False]])
    s = M.sum(ints, 1, mask=m)
    assert s.dtype == ad.int64 and s.tolist() == [4, 0]
    assert M.prod(ad.tensor([[2, 3]], dtype=ad.uint8), 1).dtype == ad.int64
    assert M.sum(ad.tensor([[True, True, False]]), 1).tolist() == [2]
    assert M.cumsum(ints, 1, mask=m).dtype == ad.int32  # no widening for the scans
    assert M.amax(ints, 1, mask=m).tolist() == [3, -2 ** 31]  # the least int32 for an empty row
    assert M.amin(ad.tensor([[1, 7, 3], [4, 5, 6]], dtype=ad.uint8), 1, mask=m).tolist() == [1, 255]
    am = M.argmax(ints, 1, mask=m)
    assert am.dtype == ad.int32 and am.tolist() == [2, 0]
    assert M.median(ints, 1, mask=t([[True, True, True], [False, True, True]])).tolist() == [3, 5]
    v = M.var(ints, 1, mask=m)
    assert v.dtype == ad.float32 and v.tolist()[0] == 2.0 and math.isnan(v.tolist()[1])
    assert M.mean(ints, 1, dtype=ad.float64, mask=m).dtype == ad.float64
    assert M.logsumexp(ad.tensor([[0, 0]], dtype=ad.int64), 1).tolist() == [0]  # log 2, back to int64
    x32 = ad.tensor(X, dtype=ad.float32)
    assert M.sum(x32, 2, dtype=ad.float64).dtype == ad.float64
    assert M.amax(t(X), 2, dtype=ad.float32).dtype == ad.float32
    assert M.softmax(x32, 2, dtype=ad.float64).dtype == ad.float64


# ------------------------------------------------------------------ node names

def chain(y):
    names, node = [], y.grad_fn
    while node is not None:
        names.append(node.name())
        node = next((n for n, _ in node.next_functions if n is not None), None)
    return names


def test_node_names_are_pytorchs():
    x = t(X[0], grad=True)
    m = t(MASK[0])
    leaf = "torch::autograd::AccumulateGrad"
    assert chain(M.sum(x, 1, mask=m)) == ["SumBackward1", "WhereBackward0", leaf]
    assert chain(M.sum(x, 1)) == ["SumBackward1", leaf]
    assert chain(M.prod(x, mask=m)) == ["ProdBackward1", "ProdBackward1", "WhereBackward0", leaf]
    assert chain(M.amax(x, 1, mask=m))[:2] == ["AmaxBackward0", "WhereBackward0"]
    assert chain(M.amin(x, 1, mask=m))[0] == "AminBackward0"
    assert chain(M.cumsum(x, 1, mask=m))[0] == "CumsumBackward0"
    assert chain(M.cumprod(x, 1, mask=m))[0] == "CumprodBackward0"
    assert chain(M.logsumexp(x, 1, mask=m))[0] == "LogsumexpBackward0"
    assert chain(M.logaddexp(x, x, input_mask=m))[:2] == ["LogaddexpBackward0", "WhereBackward0"]
    assert chain(M.mean(x, 1, mask=m)) == ["DivBackward0", "SumBackward1", "WhereBackward0", leaf]
    assert chain(M.median(x, 1, mask=m))[:2] == ["NanmedianBackward1", "WhereBackward0"]
    assert chain(M.norm(x, 2.0, 1, mask=m))[:2] == ["LinalgVectorNormBackward0", "WhereBackward0"]
    assert chain(M.normalize(x, 2.0, 1, mask=m)) == ["DivBackward0", "WhereBackward0", leaf]
    assert chain(M.var(x, 1, mask=m))[:5] == ["DivBackward0", "SumBackward1", "WhereBackward0", "MulBackward0",
                                              "SubBackward0"]
    assert chain(M.std(x, 1))[:5] == ["SqrtBackward0", "DivBackward0", "SumBackward1", "MulBackward0", "SubBackward0"]
    assert chain(M.softmax(x, 1, mask=m))[:2] == ["SoftmaxBackward0", "WhereBackward0"]
    assert chain(M.log_softmax(x, 1, mask=m))[0] == "LogSoftmaxBackward0"
    assert chain(M.softmin(x, 1, mask=m))[:3] == ["SoftmaxBackward0", "NegBackward0", "WhereBackward0"]
    s = t(1.5, grad=True)
    assert chain(M.sum(s)) == ["SumBackward1", leaf]  # dim () is every dim: still the dim form
    assert M.prod(s) is s  # no dim to reduce and no mask: PyTorch hands back the input itself
    assert not M.argmax(x, 1, mask=m).requires_grad


# ------------------------------------------------------------------ derivatives

DIFFERENTIABLE = [  # (name, function of the float64 inputs and a mask or None)
    ("sum", lambda x, m: M.sum(x, 1, mask=m)),
    ("sum_all", lambda x, m: M.sum(x, mask=m)),
    ("prod", lambda x, m: M.prod(x, (0, 2), keepdim=True, mask=m)),
    ("amax", lambda x, m: M.amax(x, 2, mask=m)),
    ("amin", lambda x, m: M.amin(x, (0, 1), mask=m)),
    ("cumsum", lambda x, m: M.cumsum(x, 1, mask=m)),
    ("cumprod", lambda x, m: M.cumprod(x, 2, mask=m)),
    ("mean", lambda x, m: M.mean(x, -1, keepdim=True, mask=m)),
    ("median", lambda x, m: M.median(x, 2, mask=m)),
    ("logsumexp", lambda x, m: M.logsumexp(x, (1, 2), mask=m)),
    ("norm", lambda x, m: M.norm(x, 2.0, 2, mask=m)),
    ("norm3", lambda x, m: M.norm(x, 3.0, (0, 1), mask=m)),
    ("normalize", lambda x, m: M.normalize(x, 2.0, 1, mask=m)),
    ("std", lambda x, m: M.std(x, 2, mask=m)),
    ("var", lambda x, m: M.var(x, (0, 2), correction=0, mask=m)),
    ("softmax", lambda x, m: M.softmax(x, 2, mask=m)),
    # (log_softmax is -inf at the masked-out elements, where finite differences cannot go: those are left out)
    ("log_softmax", lambda x, m: M.log_softmax(x, 1, mask=m) if m is None
     else ad.where(m, M.log_softmax(x, 1, mask=m), 0.0)),
    ("softmin", lambda x, m: M.softmin(x, 0, mask=m)),
]


@pytest.mark.parametrize("masked", [True, False], ids=["mask", "no-mask"])
@pytest.mark.parametrize("name,f", DIFFERENTIABLE, ids=[d[0] for d in DIFFERENTIABLE])
def test_gradcheck_and_gradgradcheck(name, f, masked):
    x = t(X, grad=True)
    m = t(DENSE) if masked else None
    assert gradcheck(lambda a: f(a, m), (x,))
    assert gradgradcheck(lambda a: f(a, m), (x,))


@pytest.mark.parametrize("masked", [True, False], ids=["mask", "no-mask"])
def test_logaddexp_gradcheck_and_gradgradcheck(masked):
    x, y = t(X, grad=True), t(Y, grad=True)
    kwargs = {"input_mask": t(DENSE), "other_mask": t(~DENSE | MASK)} if masked else {}
    assert gradcheck(lambda a, b: M.logaddexp(a, b, **kwargs), (x, y))
    if not masked:  # (with a mask see the next test: the second derivative is NaN where one side is -inf)
        assert gradgradcheck(lambda a, b: M.logaddexp(a, b, **kwargs), (x, y))


def test_logaddexp_second_derivative_with_masks():
    """d2/da db log(e^a + e^b) = -s(a - b) s(b - a) (s the logistic function), by hand; where one side is
    masked out (-inf) PyTorch 2.13's logaddexp double backward gives NaN to the other side (printed by
    it for these values), and so does ours: the same composition."""
    a, b = t([0.3, -0.5, 1.2], grad=True), t([0.1, 0.4, -2.0], grad=True)
    g = t([1.0, 2.0, 3.0])
    out = M.logaddexp(a, b, input_mask=t([True, True, False]), other_mask=t([False, True, True]))
    ga, gb = ad.autograd.grad(out, (a, b), g, create_graph=True)
    s = 1.0 / (1.0 + math.exp(-(-0.5 - 0.4)))
    assert_close(ga.detach().numpy(), np.array([1.0, 2.0 * s, 0.0]))
    assert_close(gb.detach().numpy(), np.array([0.0, 2.0 * (1 - s), 3.0]))
    daa, dab = ad.autograd.grad(ga.sum(), (a, b), retain_graph=True)
    assert_close(daa.numpy(), np.array([0.0, 2.0 * s * (1 - s), 0.0]))
    assert_close(dab.numpy(), np.array([0.0, -2.0 * s * (1 - s), math.nan]))


def test_gradient_with_a_broadcast_mask():
    x = t(X, grad=True)
    m = t(DENSE[0, :, :1])  # (3, 1)
    assert gradcheck(lambda a: M.var(a, 0, mask=m), (x,))
    assert gradgradcheck(lambda a: M.mean(a, (0, 1), mask=m), (x,))


# ------------------------------------------------------------------ refusals

def test_mask_not_broadcastable_in_pytorchs_words():
    with pytest.raises(RuntimeError, match=r"^The expanded size of the tensor \(4\) must match the existing size "
                                           r"\(3\) at non-singleton dimension 2\.  Target sizes: \[2, 3, 4\]\.  "
                                           r"Tensor sizes: \[3\]$"):
        M.sum(t(X), 1, mask=ad.ones(3, dtype=ad.bool_))
    with pytest.raises(IndexError, match=r"^_input_mask expected broadcastable mask \(got mask dimensionality "
                                         r"higher than of the input\)$"):
        M.mean(t(X[0]), mask=t(MASK))
    with pytest.raises(RuntimeError, match="must match the existing size"):
        M.logaddexp(t(X), t(Y), other_mask=ad.ones(5, dtype=ad.bool_))


def test_mask_that_is_not_a_tensor():
    with pytest.raises(TypeError, match="argument 'mask' must be Tensor, not list"):
        M.softmax(t(X), 1, mask=[True, False, True, True])
    with pytest.raises(TypeError, match="argument 'input' must be Tensor, not list"):
        M.sum([1.0, 2.0])


def test_other_refusals_in_pytorchs_words():
    x = t(X)
    with pytest.raises(IndexError, match=r"^Dimension out of range \(expected to be in range of \[-3, 2\], "
                                         r"but got 3\)$"):
        M.sum(x, 3)
    with pytest.raises(IndexError, match=r"^Dimension out of range \(expected to be in range of \[-3, 2\], "
                                         r"but got -4\)$"):
        M.softmax(x, -4)
    with pytest.raises(RuntimeError, match=r"^dim=1 appears multiple times in the list of dims$"):
        M.amax(x, (1, 1))
    ints = ad.tensor([[1, 2], [3, 4]], dtype=ad.int64)
    with pytest.raises(ValueError, match=r"^mean\(\): Could not infer output dtype\. Input dtype must be either a "
                                         r"floating point or complex dtype\. Got: torch\.int64$"):
        M.mean(ints, 1)
    with pytest.raises(ValueError, match=r"Optional dtype must be .* Got: torch\.int32$"):
        M.mean(x, dtype=ad.int32)
    with pytest.raises(ValueError, match=r"^masked median expects no fully masked out rows if dtype is not "
                                         r"floating point$"):
        M.median(ints, 1, mask=t([[True, False], [False, False]]))
    with pytest.raises(AssertionError, match=r"^Only one of unbiased and correction may be given$"):
        M.var(x, 1, True, correction=1)
    with pytest.raises(NotImplementedError, match=r"^identity of amax on torch\.bool input$"):
        M.amax(ad.tensor([[True, False]]), 1, mask=t([[True, False]]))


# ------------------------------------------------------------------ the language

def test_language_masked_sum(cli):
    out = cli.run_ok("""
        x = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
        m = torch.tensor([[True, False, True], [False, False, False]])
        s = torch.masked.sum(x, 1, mask=m)
        print(s)
        s.sum().backward()
        print(x.grad)
        print(torch.masked.amax(x, 1, mask=m))
    """)
    assert out == ("tensor([4., 0.], grad_fn=<SumBackward1>)\n"
                   "tensor([[1., 0., 1.],\n        [0., 0., 0.]])\n"
                   "tensor([3., -inf], grad_fn=<AmaxBackward0>)\n")


def test_language_refuses_a_bad_mask(cli):
    err = cli.run_fails("""
        x = torch.ones(2, 3)
        print(torch.masked.sum(x, 1, mask=torch.ones(2, dtype=torch.bool)))
    """)
    assert "The expanded size of the tensor (3) must match the existing size (2)" in err
