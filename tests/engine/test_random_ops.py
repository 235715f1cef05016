"""The random samplers (torch.normal, poisson, multinomial, randint_like; Tensor.exponential_, cauchy_,
geometric_, log_normal_, random_) and byte/char/short: each draw's distribution against its known
moments or probabilities, with a fixed seed (so the checks are deterministic) and bounds of 6
standard errors; supports, shapes, dtypes, node names, gradients and messages as PyTorch 2.13's.
The draws are the engine's generator's, not PyTorch's numbers for a seed."""
import math

import numpy as np
import pytest

import autodiff.engine as ad

N = 200_000
SIGMAS = 6.0


def values(t):
    return np.asarray(t.detach(), dtype=np.float64)


def assert_mean_var(x, mean, var, axis=None):
    """Sample mean and variance of x within 6 standard errors of the distribution's mean and var. The
    variance's standard error is var * sqrt((kurtosis - 1) / n): bounded here for a kurtosis up to 9 (the
    exponential's; the normal's is 3, geometric(0.3)'s 9.1, Poisson's 3 + 1 / rate)."""
    n = x.size if axis is None else x.shape[axis]
    got_mean, got_var = x.mean(axis=axis), x.var(axis=axis, ddof=1)
    assert np.all(np.abs(got_mean - mean) <= SIGMAS * np.sqrt(var / n)), (got_mean, mean)
    assert np.all(np.abs(got_var - var) <= SIGMAS * 2 * np.sqrt(2.0 / n) * var), (got_var, var)


def assert_frequencies(samples, probs):
    """The frequency of each category k (0..len(probs)-1) within 6 binomial standard errors of probs[k]."""
    samples = np.asarray(samples).ravel()
    n = samples.size
    freq = np.bincount(samples, minlength=len(probs)) / n
    probs = np.asarray(probs, dtype=np.float64)
    assert np.all(np.abs(freq - probs) <= SIGMAS * np.sqrt(probs * (1 - probs) / n) + 1e-12), (freq, probs)


def assert_fraction_below(x, q, p):
    """The fraction of x below q (the distribution's p-quantile) within 6 standard errors of p."""
    frac = np.mean(np.asarray(x) < q)
    assert abs(frac - p) <= SIGMAS * math.sqrt(p * (1 - p) / np.asarray(x).size), (frac, p)


# ------------------------------------------------------------------------ torch.normal

def test_normal_of_tensors_has_their_means_and_stds_broadcast():
    ad.manual_seed(0)
    mean = ad.tensor([[-2.0], [0.5], [10.0]])
    std = ad.tensor([0.5, 1.0, 3.0, 0.0])
    x = ad.normal(mean.expand(3, 4).unsqueeze(0).expand(N // 10, 3, 4).contiguous(), std)
    assert tuple(x.shape) == (N // 10, 3, 4) and x.dtype == ad.float64
    v = values(x)
    m, s = np.broadcast_to(values(mean), (3, 4)), np.broadcast_to(values(std), (3, 4))
    assert_mean_var(v, m, s ** 2, axis=0)
    assert np.all(v[:, :, 3] == m[:, 3])  # std 0: the mean itself


def test_normal_overloads():
    ad.manual_seed(1)
    a = values(ad.normal(3.0, 2.0, (N,)))
    assert_mean_var(a, 3.0, 4.0)
    assert_fraction_below(a, 3.0 - 2.0, 0.15865525393145707)  # a quantile too: Phi(-1)
    b = values(ad.normal(ad.full((N,), -1.0), 0.5))
    assert_mean_var(b, -1.0, 0.25)
    c = values(ad.normal(4.0, ad.full((N,), 2.0)))
    assert_mean_var(c, 4.0, 4.0)
    d = values(ad.normal(ad.zeros(N)))  # std 1 by default
    assert_mean_var(d, 0.0, 1.0)
    assert tuple(ad.normal(0.0, 1.0, size=[2, 3]).shape) == (2, 3)


def test_normal_dtypes():
    f32, f64 = ad.zeros(2, dtype=ad.float32), ad.ones(2, dtype=ad.float64)
    assert ad.normal(f32, f64).dtype == ad.float32  # mean's, as PyTorch
    assert ad.normal(f64, f32).dtype == ad.float64
    assert ad.normal(1.0, f32).dtype == ad.float32
    assert ad.normal(f32, 2.0).dtype == ad.float32
    assert ad.normal(0.0, 1.0, (2,)).dtype == ad.get_default_dtype()
    assert ad.normal(0.0, 1.0, (2,), dtype=ad.float32).dtype == ad.float32
    assert ad.normal(0.0, 1.0, (2,), requires_grad=True).requires_grad


def test_normal_is_reproducible_under_manual_seed():
    mean, std = ad.zeros(5), ad.ones(5)
    ad.manual_seed(42)
    first = (values(ad.normal(mean, std)), values(ad.normal(1.0, 2.0, (5,))))
    ad.manual_seed(42)
    second = (values(ad.normal(mean, std)), values(ad.normal(1.0, 2.0, (5,))))
    assert all(np.array_equal(p, q) for p, q in zip(first, second))
    assert not np.array_equal(first[0], values(ad.normal(mean, std)))


@pytest.mark.parametrize("make, node", [
    (lambda m, s: ad.normal(m, s), "NormalBackward3"),
    (lambda m, s: ad.normal(m, 2.0), "NormalBackward1"),
    (lambda m, s: ad.normal(m), "NormalBackward1"),
    (lambda m, s: ad.normal(0.5, s), "NormalBackward2"),
])
def test_normal_passes_zero_gradients_as_pytorch(make, node):
    """PyTorch's normal is not reparameterised: its gradients are zeros (derivatives.yaml), of the
    inputs' shapes (here broadcast: mean (2, 1), std (3,))."""
    mean = ad.tensor([[1.0], [2.0]], requires_grad=True)
    std = ad.tensor([0.5, 1.0, 2.0], requires_grad=True)
    out = make(mean, std)
    assert out.grad_fn.name() == node
    (out * ad.arange(1.0, out.numel() + 1).reshape(out.shape)).sum().backward()
    for t in (mean, std):
        if t.grad is not None:
            assert t.grad.shape == t.shape and not values(t.grad).any()
    assert (mean.grad is not None) == (node != "NormalBackward2")
    assert (std.grad is not None) == (node in ("NormalBackward2", "NormalBackward3"))


def test_normal_without_grad_records_nothing():
    out = ad.normal(ad.zeros(2), ad.ones(2))
    assert not out.requires_grad and out.grad_fn is None


@pytest.mark.parametrize("call, error, message", [
    (lambda: ad.normal(ad.zeros(2), -ad.ones(2)), RuntimeError, "normal expects all elements of std >= 0.0"),
    (lambda: ad.normal(ad.zeros(2), ad.tensor([1.0, math.nan])), RuntimeError,
     "normal expects all elements of std >= 0.0"),
    (lambda: ad.normal(ad.zeros(2), -1.0), RuntimeError, "normal expects std >= 0.0, but found std -1"),
    (lambda: ad.normal(ad.zeros(2), math.nan), RuntimeError, "normal expects std >= 0.0, but found std nan"),
    (lambda: ad.normal(1.0, -1.0, (2,)), RuntimeError, "normal expects std >= 0.0, but found std -1"),
    (lambda: ad.normal(ad.zeros(2), ad.ones(3)), RuntimeError,
     "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0"),
    (lambda: ad.normal(ad.zeros(2, dtype=ad.int64), 1.0), NotImplementedError,
     "\"normal_kernel_cpu\" not implemented for 'Long'"),
    (lambda: ad.normal(0.0, 1.0, (2,), dtype=ad.int64), NotImplementedError,
     "\"normal_kernel_cpu\" not implemented for 'Long'"),
    (lambda: ad.normal(1.0, 2.0), TypeError, "normal() received an invalid combination of arguments"),
    (lambda: ad.normal(1.0, 2.0, 3), TypeError, "must be tuple of ints, not int"),
])
def test_normal_refusals(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert message in str(info.value)


# ------------------------------------------------------------------------ in-place samplers

def fresh(dtype=ad.float64, n=N):
    return ad.zeros(n, dtype=dtype)


def test_exponential_():
    ad.manual_seed(2)
    x = values(fresh().exponential_(2.0))
    assert np.all(x >= 0)
    assert_mean_var(x, 0.5, 0.25)
    assert_fraction_below(x, math.log(2) / 2.0, 0.5)  # the median
    assert values(fresh(n=3).exponential_(math.inf)).tolist() == [0.0, 0.0, 0.0]
    assert fresh(ad.float32, 3).exponential_().dtype == ad.float32


def test_cauchy_():
    """No moments: its quartiles are median -+ sigma."""
    ad.manual_seed(3)
    x = values(fresh().cauchy_(1.5, 0.5))
    for q, p in ((1.0, 0.25), (1.5, 0.5), (2.0, 0.75)):
        assert_fraction_below(x, q, p)


@pytest.mark.parametrize("dtype", [ad.float64, ad.int64, ad.int32])
def test_geometric_(dtype):
    ad.manual_seed(4)
    p = 0.3
    t = fresh(dtype).geometric_(p)
    assert t.dtype == dtype
    x = values(t)
    assert np.all(x >= 1) and np.all(x == np.round(x))  # trials up to the first success: 1, 2, ...
    assert_mean_var(x, 1 / p, (1 - p) / p ** 2)
    assert_frequencies(np.minimum(x, 4).astype(int) - 1, [p, p * (1 - p), p * (1 - p) ** 2, (1 - p) ** 3])


def test_log_normal_():
    ad.manual_seed(5)
    x = values(fresh().log_normal_(0.5, 0.25))
    assert np.all(x > 0)
    assert_mean_var(np.log(x), 0.5, 0.0625)
    ad.manual_seed(5)
    default = values(fresh().log_normal_())  # mean 1, std 2 by default
    assert_mean_var(np.log(default), 1.0, 4.0)


def test_random_with_bounds():
    ad.manual_seed(6)
    x = values(fresh().random_(2, 5))
    assert set(np.unique(x)) == {2.0, 3.0, 4.0}
    assert_frequencies(x.astype(int) - 2, [1 / 3] * 3)
    y = values(fresh(ad.int64).random_(3))  # random_(to)
    assert_frequencies(y.astype(int), [1 / 3] * 3)
    z = values(fresh(ad.int64).random_(-3, 1))
    assert z.min() == -3 and z.max() == 0
    w = values(fresh(ad.int64).random_(to=4))
    assert set(np.unique(w)) == {0, 1, 2, 3}
    v = values(fresh(ad.int64, 1000).random_(3, to=5))  # from positional, to by name
    assert set(np.unique(v)) == {3, 4}


@pytest.mark.parametrize("dtype, top", [(ad.uint8, 255), (ad.int8, 127), (ad.bool_, 1), (ad.float16, 2 ** 11),
                                        (ad.int16, 2 ** 15 - 1)])
def test_random_without_bounds_covers_the_dtype(dtype, top):
    """random_(): 0 .. the dtype's largest value (2**mantissa for a float), both included."""
    ad.manual_seed(7)
    t = fresh(dtype).random_()
    assert t.dtype == dtype
    x = values(t)
    assert x.min() == 0 and x.max() == top
    assert_mean_var(x, top / 2, ((top + 1) ** 2 - 1) / 12)


def test_random_large_ranges():
    ad.manual_seed(8)
    f = values(fresh(ad.float32, 1000).random_())
    assert f.max() <= 2 ** 24 and f.max() > 2 ** 23 and np.all(f == np.round(f))
    big = values(fresh(ad.float64, 1000).random_(2, None))  # from 2 up to 2**53
    assert big.min() >= 2 and big.max() <= 2 ** 53 and big.max() > 2 ** 52
    longs = np.asarray(fresh(ad.int64, 1000).random_())
    assert longs.min() >= 0 and longs.max() > 2 ** 62


@pytest.mark.parametrize("fill, node", [
    (lambda t: t.exponential_(), "ExponentialBackward0"), (lambda t: t.cauchy_(), "CauchyBackward0"),
    (lambda t: t.geometric_(0.5), "GeometricBackward0"), (lambda t: t.log_normal_(), "LogNormalBackward0"),
    (lambda t: t.random_(2, 5), "RandomBackward0"), (lambda t: t.random_(5), "RandomBackward1"),
    (lambda t: t.random_(), "RandomBackward2"),
])
def test_inplace_samplers_under_autograd(fill, node):
    """As PyTorch's: refused on a leaf that requires grad; on a non-leaf, a node of that name that
    passes nothing back to the old values; the tensor itself is returned."""
    leaf = ad.ones(3, requires_grad=True)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place"):
        fill(leaf)
    y = leaf * 2
    assert fill(y) is y
    assert y.grad_fn.name() == node and y._version == 1
    y.sum().backward()
    assert not values(leaf.grad).any()


def test_inplace_samplers_are_reproducible():
    def draws():
        ad.manual_seed(9)
        return [values(fresh(n=4).exponential_()), values(fresh(n=4).cauchy_()), values(fresh(n=4).geometric_(0.2)),
                values(fresh(n=4).log_normal_()), values(fresh(n=4).random_(100))]
    assert all(np.array_equal(a, b) for a, b in zip(draws(), draws()))


@pytest.mark.parametrize("call, error, message", [
    (lambda: fresh(n=2).exponential_(0), RuntimeError, "exponential_ expects lambda > 0.0, but found lambda=0"),
    (lambda: fresh(n=2).exponential_(-1), RuntimeError, "exponential_ expects lambda > 0.0, but found lambda=-1"),
    (lambda: fresh(ad.int64, 2).exponential_(), RuntimeError,
     "Exponential distribution is a continuous probability distribution. dtype must be a floating point but you "
     "specified Long"),
    (lambda: fresh(n=2).cauchy_(0, 0), RuntimeError, "cauchy_ expects sigma > 0.0, but found sigma=0"),
    (lambda: fresh(ad.int64, 2).cauchy_(), RuntimeError,
     "Cauchy distribution is a continuous probability distribution. dtype must be a floating point but you "
     "specified long int"),
    (lambda: fresh(n=2).geometric_(0), RuntimeError, "geometric_ expects p to be in (0, 1), but got p=0"),
    (lambda: fresh(n=2).geometric_(1), RuntimeError, "geometric_ expects p to be in (0, 1), but got p=1"),
    (lambda: fresh(n=2).geometric_(1.5), RuntimeError, "geometric_ expects p to be in (0, 1), but got p=1.5"),
    (lambda: fresh(ad.bool_, 2).geometric_(0.5), NotImplementedError, "\"geometric_cpu\" not implemented for 'Bool'"),
    (lambda: fresh(n=2).log_normal_(0, 0), RuntimeError, "log_normal_ expects std > 0.0, but found std=0"),
    (lambda: fresh(ad.int64, 2).log_normal_(), NotImplementedError, "\"log_normal_cpu\" not implemented for 'Long'"),
    (lambda: fresh(n=2).random_(5, 2), RuntimeError,
     "random_ expects 'from' to be less than 'to', but got from=5 >= to=2"),
    (lambda: fresh(n=2).random_(0), RuntimeError,
     "random_ expects 'from' to be less than 'to', but got from=0 >= to=0"),
    (lambda: fresh(ad.uint8, 2).random_(-3, 1), RuntimeError, "from is out of bounds for unsigned char"),
    (lambda: fresh(ad.uint8, 2).random_(0, 300), RuntimeError, "to - 1 is out of bounds for unsigned char"),
    (lambda: fresh(ad.bool_, 2).random_(0, 3), RuntimeError, "to - 1 is out of bounds for bool"),
    (lambda: fresh(ad.float16, 2).random_(0, 2 ** 20), RuntimeError, "to - 1 is out of bounds for c10::Half"),
    (lambda: fresh(n=2).random_(2.5), TypeError, "random_() received an invalid combination of arguments"),
    (lambda: fresh(n=2).random_(**{"from": 2}), TypeError, "random_() received an invalid combination of arguments"),
])
def test_inplace_sampler_refusals(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert message in str(info.value)


# ------------------------------------------------------------------------ multinomial

def test_multinomial_with_replacement_follows_the_weights():
    ad.manual_seed(10)
    weights = ad.tensor([1.0, 0.0, 3.0, 6.0])  # weights: normalised by their sum
    s = ad.multinomial(weights, N, replacement=True)
    assert s.dtype == ad.int64 and tuple(s.shape) == (N,)
    assert_frequencies(np.asarray(s), [0.1, 0.0, 0.3, 0.6])


def test_multinomial_with_replacement_draws_each_row_from_its_own_weights():
    ad.manual_seed(18)
    weights = [[0.2, 0.8, 0.0], [0.0, 0.5, 0.5], [0.0, 0.0, 7.0]]
    s = np.asarray(ad.multinomial(ad.tensor(weights), N // 4, replacement=True))
    assert s.shape == (3, N // 4)
    for row, w in zip(s, weights):
        assert_frequencies(row, np.asarray(w) / sum(w))


def test_multinomial_without_replacement():
    """Each row's draws distinct; the first follows the weights, the second the weights of the rest
    renormalised (p = (0.1, 0.2, 0.7): P(second = 0) = 0.2 * 0.1 / 0.8 + 0.7 * 0.1 / 0.3)."""
    ad.manual_seed(11)
    p = np.array([0.1, 0.2, 0.7])
    s = np.asarray(ad.multinomial(ad.tensor(np.tile(p, (N, 1))), 2))
    assert s.shape == (N, 2) and np.all(s[:, 0] != s[:, 1])
    assert_frequencies(s[:, 0], p)
    second = [sum(p[i] * p[k] / (1 - p[i]) for i in range(3) if i != k) for k in range(3)]
    assert_frequencies(s[:, 1], second)
    perms = np.asarray(ad.multinomial(ad.ones(1000, 5), 5))
    assert np.all(np.sort(perms, axis=1) == np.arange(5))


def test_multinomial_zero_weights_come_last_without_replacement():
    ad.manual_seed(12)
    s = np.asarray(ad.multinomial(ad.tensor([[0.0, 2.0, 0.0, 1.0]] * 500), 4))
    assert np.all(np.isin(s[:, :2], [1, 3])) and np.all(np.isin(s[:, 2:], [0, 2]))
    with_replacement = np.asarray(ad.multinomial(ad.tensor([0.0, 1.0, 0.0]), 1000, True))
    assert np.all(with_replacement == 1)


def test_multinomial_shapes_and_method():
    ad.manual_seed(13)
    x = ad.ones(2, 3, requires_grad=True)
    s = x.multinomial(2)
    assert tuple(s.shape) == (2, 2) and not s.requires_grad
    assert tuple(ad.multinomial(ad.ones(0, 3), 2).shape) == (0, 2)
    assert ad.multinomial(ad.ones(3, dtype=ad.float32), 1).dtype == ad.int64
    ad.manual_seed(13)
    again = ad.multinomial(ad.ones(2, 3), 2)
    assert np.array_equal(np.asarray(s), np.asarray(again))


@pytest.mark.parametrize("call, message", [
    (lambda: ad.multinomial(ad.ones(3), 4), "cannot sample n_sample > prob_dist.size(-1) samples without replacement"),
    (lambda: ad.multinomial(ad.ones(3), 0), "cannot sample n_sample <= 0 samples"),
    (lambda: ad.multinomial(ad.zeros(3), 1), "invalid multinomial distribution (sum of probabilities <= 0)"),
    (lambda: ad.multinomial(ad.tensor([1.0, -1.0]), 1),
     "probability tensor contains either `inf`, `nan` or element < 0"),
    (lambda: ad.multinomial(ad.tensor([1.0, math.inf]), 1), "probability tensor contains either `inf`, `nan`"),
    (lambda: ad.multinomial(ad.tensor([1.0, math.nan]), 1), "probability tensor contains either `inf`, `nan`"),
    (lambda: ad.multinomial(ad.ones(2, 2, 2), 1), "prob_dist must be 1 or 2 dim"),
    (lambda: ad.multinomial(ad.ones(3, dtype=ad.int64), 1),
     "multinomial only supports floating-point dtypes for input, got: Long"),
])
def test_multinomial_refusals(call, message):
    with pytest.raises(RuntimeError) as info:
        call()
    assert message in str(info.value)


# ------------------------------------------------------------------------ poisson

def test_poisson_counts():
    ad.manual_seed(14)
    rates = np.array([0.0, 0.5, 4.0, 30.0])
    x = values(ad.poisson(ad.tensor(np.tile(rates, (N, 1)))))
    assert np.all(x >= 0) and np.all(x == np.round(x))
    assert np.all(x[:, 0] == 0)
    assert_mean_var(x[:, 1:], rates[1:], rates[1:], axis=0)
    assert_frequencies(np.minimum(x[:, 1], 2).astype(int), [math.exp(-0.5), 0.5 * math.exp(-0.5),
                                                             1 - 1.5 * math.exp(-0.5)])


def test_poisson_gradient_dtype_and_refusals():
    rate = ad.tensor([0.5, 2.0], dtype=ad.float32, requires_grad=True)
    out = ad.poisson(rate)
    assert out.dtype == ad.float32 and out.grad_fn.name() == "PoissonBackward0"
    out.sum().backward()
    assert rate.grad.shape == rate.shape and not values(rate.grad).any()  # PyTorch's zeros
    with pytest.raises(RuntimeError, match="invalid Poisson rate, expected rate to be non-negative"):
        ad.poisson(ad.tensor([1.0, -0.5]))
    with pytest.raises(RuntimeError, match="invalid Poisson rate"):
        ad.poisson(ad.tensor([math.nan]))
    with pytest.raises(NotImplementedError, match="\"poisson_cpu\" not implemented for 'Long'"):
        ad.poisson(ad.ones(2, dtype=ad.int64))
    ad.manual_seed(15)
    first = values(ad.poisson(ad.full((5,), 3.0)))
    ad.manual_seed(15)
    assert np.array_equal(first, values(ad.poisson(ad.full((5,), 3.0))))


# ------------------------------------------------------------------------ randint_like

def test_randint_like():
    ad.manual_seed(16)
    like = ad.zeros(N // 4, 4, dtype=ad.float32)
    x = ad.randint_like(like, 2, 7)
    assert tuple(x.shape) == (N // 4, 4) and x.dtype == ad.float32 and not x.requires_grad
    v = values(x)
    assert np.all(v == np.round(v))
    assert_frequencies(v.astype(int) - 2, [0.2] * 5)
    y = values(ad.randint_like(like, 3))  # randint_like(input, high): from 0
    assert set(np.unique(y)) == {0.0, 1.0, 2.0}
    assert set(np.unique(values(ad.randint_like(like, high=2)))) == {0.0, 1.0}
    assert ad.randint_like(like, 5, dtype=ad.int64).dtype == ad.int64
    assert ad.randint_like(like, 5, requires_grad=True).requires_grad
    assert ad.randint_like(ad.zeros(3, dtype=ad.bool_), 2).dtype == ad.bool_


@pytest.mark.parametrize("call, error, message", [
    (lambda: ad.randint_like(ad.zeros(3), 5, 2), RuntimeError,
     "random_ expects 'from' to be less than 'to', but got from=5 >= to=2"),
    (lambda: ad.randint_like(ad.zeros(3, dtype=ad.uint8), 300), RuntimeError,
     "to - 1 is out of bounds for unsigned char"),
    (lambda: ad.randint_like(ad.zeros(3, dtype=ad.int64), 3, requires_grad=True), RuntimeError,
     "Only Tensors of floating point and complex dtype can require gradients"),
    (lambda: ad.randint_like(ad.zeros(3), 2.5), TypeError, "must be int, not float"),
    (lambda: ad.randint_like(ad.zeros(3)), TypeError, "high"),
])
def test_randint_like_refusals(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert message in str(info.value)


# ------------------------------------------------------------------------ byte, char, short

@pytest.mark.parametrize("method, dtype", [("byte", ad.uint8), ("char", ad.int8), ("short", ad.int16)])
def test_integer_conversions(method, dtype):
    x = ad.tensor([[1.7, -0.0], [3.0, 100.9]])
    out = getattr(x, method)()
    assert out.dtype == dtype and np.asarray(out).tolist() == [[1, 0], [3, 100]]
    with pytest.raises(RuntimeError, match="required rank 4 tensor to use channels_last format"):
        getattr(x, method)(memory_format=ad.channels_last)


# ------------------------------------------------------------------------ on a device

def test_samplers_on_a_device(cuda):
    """Every sampler draws on the host generator and leaves its result on the tensors' device."""
    ad.manual_seed(17)
    x = ad.zeros(4, 3, device=cuda)
    results = [ad.normal(x, ad.ones(3, device=cuda)), ad.normal(x, 2.0), ad.normal(1.0, ad.ones(3, device=cuda)),
               ad.normal(0.0, 1.0, (2,), device=cuda), ad.poisson(x + 2.0), ad.multinomial(x + 1.0, 2),
               ad.multinomial(x + 1.0, 5, True), ad.randint_like(x, 4),
               x.clone().exponential_(), x.clone().cauchy_(), x.clone().geometric_(0.5), x.clone().log_normal_(),
               x.clone().random_(3), x.clone().random_(), x.short(), x.byte(), x.char()]
    for r in results:
        assert r.device == x.device
    m = ad.ones(3, device=cuda, requires_grad=True)
    out = ad.normal(m, 1.0)
    out.sum().backward()
    assert m.grad.device == m.device and not values(m.grad.cpu()).any()
