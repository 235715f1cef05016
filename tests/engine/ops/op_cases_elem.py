"""Op cases of the rows added to close elementwise gaps (see tests/engine/ops/op_cases.py for what a case is):
isnan, isinf, isposinf, isneginf, signbit; addcmul, addcdiv, logaddexp, logaddexp2, copysign,
fmod, nan_to_num, logit, heaviside (and float_power through the pow rows)."""
import numpy as np

import autodiff.engine as ad
from op_cases import C, away, distinct, gen_all, gen_each, normal, on_copy, positive, uniform

# ------------------------------------------------------------ numpy references


def np_logit(x, eps=None):
    if eps is not None:
        x = np.clip(x, eps, 1 - eps)
    return np.log(x / (1 - x))


def np_heaviside(x, v):
    return np.heaviside(x, v)


_SPECIAL = np.array([[1.5, -0.0, 0.0, np.inf], [-np.inf, np.nan, -np.nan, -2.0]])
_special = lambda rng, s: [_SPECIAL]  # noqa: E731
_ints = lambda rng, s: [rng.integers(-9, 10, sh) for sh in s]  # noqa: E731

# ====================================================================== tests of each element

for _name in ("isnan", "isinf", "isposinf", "isneginf", "signbit"):
    _ref = getattr(np, _name)
    C(_name, "fn_special", lambda x, _n=_name: getattr(ad, _n)(x), [(2, 4)], _ref, gen=_special)
    C(_name, "method_int", lambda x, _n=_name: getattr(x, _n)(), [(2, 3)], _ref, gen=_ints)
C("signbit", "bool", lambda x: ad.signbit(x), [(3,)], lambda x: np.zeros(3, dtype=bool),
  gen=lambda rng, s: [np.array([True, False, True])])

# ====================================================================== pointwise

_three = [(2, 3), (2, 3), (2, 3)]
C("addcmul", "fn", lambda x, a, b: ad.addcmul(x, a, b), _three, lambda x, a, b: x + a * b, "AddcmulBackward0")
C("addcmul", "value_bcast", lambda x, a, b: ad.addcmul(x, a, b, value=-0.37), [(2, 1), (3,), (2, 3)],
  lambda x, a, b: x - 0.37 * a * b, "AddcmulBackward0")
C("addcmul", "method_one_grad", lambda x, a, b: x.addcmul(a, b, value=2), _three, lambda x, a, b: x + 2 * a * b,
  "AddcmulBackward0", requires=[False, True, False])
C("addcmul", "inplace", on_copy(lambda y, a, b: y.addcmul_(a, b, value=0.5)), _three,
  lambda x, a, b: x + 0.5 * a * b, "AddcmulBackward0")
_away0 = away(0.0, margin=0.4)
C("addcdiv", "fn", lambda x, a, b: ad.addcdiv(x, a, b), _three, lambda x, a, b: x + a / b, "AddcdivBackward0",
  gen=gen_each(normal, normal, _away0))
C("addcdiv", "value_bcast", lambda x, a, b: x.addcdiv(a, b, value=3), [(3,), (2, 1), (2, 3)],
  lambda x, a, b: x + 3 * a / b, "AddcdivBackward0", gen=gen_all(_away0))
C("addcdiv", "inplace", on_copy(lambda y, a, b: y.addcdiv_(a, b, value=-0.5)), _three,
  lambda x, a, b: x - 0.5 * a / b, "AddcdivBackward0", gen=gen_all(_away0))
C("logaddexp", "fn", lambda a, b: ad.logaddexp(a, b), [(2, 3), (2, 3)], np.logaddexp, "LogaddexpBackward0")
C("logaddexp", "method_bcast", lambda a, b: a.logaddexp(b), [(2, 1), (3,)], np.logaddexp, "LogaddexpBackward0",
  gen=gen_all(uniform(-30.0, 30.0)))
C("logaddexp2", "fn", lambda a, b: ad.logaddexp2(a, b), [(2, 3), (2, 3)], np.logaddexp2, "Logaddexp2Backward0")
C("logaddexp2", "method_bcast", lambda a, b: a.logaddexp2(b), [(3,), (2, 3)], np.logaddexp2,
  "Logaddexp2Backward0", gen=gen_all(uniform(-30.0, 30.0)))
C("copysign", "fn", lambda a, b: ad.copysign(a, b), [(2, 3), (2, 3)], np.copysign, "CopysignBackward0",
  gen=gen_all(_away0))
C("copysign", "number", lambda a: a.copysign(-0.0), [(2, 3)], lambda a: np.copysign(a, -0.0), "CopysignBackward1",
  gen=gen_all(_away0))
C("copysign", "inplace_bcast", on_copy(lambda y, b: y.copysign_(b)), [(2, 3), (3,)], np.copysign,
  "CopysignBackward0", gen=gen_all(_away0))


def _off_jumps(rng, shapes):
    """a and b with a / b at least 0.1 from a whole number (fmod jumps there)."""
    b = rng.uniform(0.8, 1.6, shapes[1]) * rng.choice([-1.0, 1.0], shapes[1])
    q = rng.integers(-3, 4, shapes[0]) + rng.uniform(0.1, 0.9, shapes[0])
    return [q * np.broadcast_to(b, np.broadcast_shapes(shapes[0], shapes[1])).reshape(shapes[0]), b]


C("fmod", "fn", lambda a, b: ad.fmod(a, b), [(2, 3), (2, 3)], np.fmod, "FmodBackward1", gen=_off_jumps)
C("fmod", "number", lambda a: a.fmod(1.5), [(2, 3)], lambda a: np.fmod(a, 1.5), "FmodBackward0",
  gen=lambda rng, s: [(rng.integers(-3, 4, s[0]) + rng.uniform(0.1, 0.9, s[0])) * 1.5])
C("fmod", "inplace", on_copy(lambda y, b: y.fmod_(b)), [(2, 3), (2, 3)], np.fmod, "FmodBackward1", gen=_off_jumps)
# float_power is pow after a cast to float64: the pow rows' nodes
C("pow", "float_power", lambda a, b: ad.float_power(a, b), [(2, 3), (2, 3)], np.power, "PowBackward1",
  gen=gen_each(positive(), normal))
C("pow_scalar", "float_power", lambda a: a.float_power(3), [(2, 3)], lambda a: a ** 3.0, "PowBackward0")
C("rpow_scalar", "float_power", lambda b: ad.float_power(1.5, b), [(2, 3)], lambda b: 1.5 ** b, "PowBackward2")
C("nan_to_num", "fn", lambda x: ad.nan_to_num(x), [(2, 3)], np.nan_to_num, "NanToNumBackward0")
C("nan_to_num", "method_values", lambda x: x.nan_to_num(nan=1.0, posinf=2.0), [(2, 3)], np.nan_to_num,
  "NanToNumBackward0")
C("nan_to_num", "inplace", on_copy(lambda y: y.nan_to_num_()), [(3,)], np.nan_to_num, "NanToNumBackward0")
C("logit", "fn", lambda x: ad.logit(x), [(2, 3)], np_logit, "LogitBackward0", gen=gen_all(uniform(0.1, 0.9)))
C("logit", "eps", lambda x: x.logit(eps=0.2), [(2, 4)], lambda x: np_logit(x, 0.2), "LogitBackward0",
  gen=lambda rng, s: [np.array([[0.05, 0.1, 0.3, 0.5], [0.6, 0.7, 0.9, 0.95]])])
C("logit", "inplace", on_copy(lambda y: y.logit_()), [(3,)], np_logit, "LogitBackward0",
  gen=gen_all(uniform(0.1, 0.9)))
_NO_DERIVATIVE = ("PyTorch has no derivative of heaviside (its node is NotImplemented): backward raises its error, "
                  "as PyTorch's (tests/engine/ops/test_elem_ops.py checks the message)")
C("heaviside", "fn", lambda x, v: ad.heaviside(x, v), [(2, 3), (3,)], np_heaviside, "NotImplemented",
  gen=lambda rng, s: [np.array([[-1.0, 0.0, 2.0], [0.0, -0.0, -3.0]]), np.array([0.5, 0.25, 0.75])],
  xfail={"grad": _NO_DERIVATIVE, "gradgrad": _NO_DERIVATIVE})

# ====================================================================== NaN-aware reductions and scans


def _with_nan(rng, shape):
    a = rng.standard_normal(shape)
    a.reshape(-1)[::3] = np.nan
    return a


def np_running(x, axis, largest):
    return (np.maximum if largest else np.minimum).accumulate(x, axis=axis)


def np_logcumsumexp(x, axis):
    return np.logaddexp.accumulate(x, axis=axis)


C("nansum", "all", lambda x: ad.nansum(x), [(2, 3)], np.nansum, "NansumBackward0")
C("nansum", "dim_keepdim_nan", lambda x: x.nansum(dim=1, keepdim=True), [(2, 3)],
  lambda x: np.nansum(x, axis=1, keepdims=True), "NansumBackward0", gen=gen_all(_with_nan))
C("nansum", "dims_nan", lambda x: ad.nansum(x, (0, 2)), [(2, 3, 2)], lambda x: np.nansum(x, axis=(0, 2)),
  "NansumBackward0", gen=gen_all(_with_nan))
C("nansum", "nanmean", lambda x: ad.nanmean(x, dim=0), [(3, 2)], lambda x: np.nanmean(x, axis=0), "DivBackward0",
  gen=gen_all(_with_nan))
# aminmax is amin and amax under PyTorch's node name (distinct values: no ties)
C("amin", "aminmax", lambda x: ad.aminmax(x).min, [(2, 3)], np.min, "AminmaxBackward0", gen=gen_all(distinct))
C("amax", "aminmax_dim", lambda x: x.aminmax(dim=1, keepdim=True).max, [(2, 3)],
  lambda x: np.max(x, axis=1, keepdims=True), "AminmaxBackward0", gen=gen_all(distinct))
C("cummax", "dim0", lambda x: ad.cummax(x, 0).values, [(4, 2)], lambda x: np_running(x, 0, True), "CummaxBackward0",
  gen=gen_all(distinct))
C("cummax", "method_dim1", lambda x: x.cummax(dim=1)[0], [(2, 5)], lambda x: np_running(x, 1, True),
  "CummaxBackward0", gen=gen_all(distinct))
C("cummin", "dim0", lambda x: ad.cummin(x, 0).values, [(5,)], lambda x: np_running(x, 0, False), "CumminBackward0",
  gen=gen_all(distinct))
C("cummin", "method_dim_last", lambda x: x.cummin(-1)[0], [(2, 2, 3)], lambda x: np_running(x, -1, False),
  "CumminBackward0", gen=gen_all(distinct))
C("logcumsumexp", "dim0", lambda x: ad.logcumsumexp(x, 0), [(4, 2)], lambda x: np_logcumsumexp(x, 0),
  "LogcumsumexpBackward0")
C("logcumsumexp", "method_dim1", lambda x: x.logcumsumexp(dim=1), [(2, 5)], lambda x: np_logcumsumexp(x, 1),
  "LogcumsumexpBackward0", gen=gen_all(uniform(-20.0, 20.0)))
C("logcumsumexp", "scalar", lambda x: ad.logcumsumexp(x, 0), [()], lambda x: x, "LogcumsumexpBackward0")

# ====================================================================== shrinking activations

F = ad.nn.functional
_off_05 = away(-0.5, 0.5, margin=0.1)  # the kinks of hardshrink and softshrink with lambd = 0.5
_off_03 = away(-0.3, 0.3, margin=0.08)


def np_hardshrink(x, lambd=0.5):
    return np.where(np.abs(x) > lambd, x, 0.0)


def np_softshrink(x, lambd=0.5):
    return np.where(x > lambd, x - lambd, np.where(x < -lambd, x + lambd, 0.0))


C("hardshrink", "F", lambda x: F.hardshrink(x), [(2, 4)], np_hardshrink, "HardshrinkBackward0", gen=gen_all(_off_05))
C("hardshrink", "torch_method", lambda x: x.hardshrink(0.3), [(3, 3)], lambda x: np_hardshrink(x, 0.3),
  "HardshrinkBackward0", gen=gen_all(_off_03))
C("hardshrink_backward", "grad",
  lambda x, w: ad.autograd.grad((F.hardshrink(x) * w).sum(), x, create_graph=True)[0], [(3, 2), (3, 2)],
  lambda x, w: np.where(np.abs(x) > 0.5, w, 0.0), "HardshrinkBackwardBackward0", gen=gen_all(_off_05))
C("softshrink", "F", lambda x: F.softshrink(x), [(2, 4)], np_softshrink, "SoftshrinkBackward0", gen=gen_all(_off_05))
C("softshrink", "module", lambda x: ad.nn.Softshrink(0.3)(x), [(3, 3)], lambda x: np_softshrink(x, 0.3),
  "SoftshrinkBackward0", gen=gen_all(_off_03))
C("softshrink_backward", "grad",
  lambda x, w: ad.autograd.grad((F.softshrink(x, 0.3) * w).sum(), x, create_graph=True)[0], [(3, 2), (3, 2)],
  lambda x, w: np.where(np.abs(x) > 0.3, w, 0.0), "SoftshrinkBackwardBackward0", gen=gen_all(_off_03))
# softsign and tanhshrink are composed as PyTorch composes them: their last rows' nodes
C("div", "softsign", lambda x: F.softsign(x), [(2, 3)], lambda x: x / (np.abs(x) + 1), "DivBackward0",
  gen=gen_all(_away0))
C("sub", "tanhshrink_module", lambda x: ad.nn.Tanhshrink()(x), [(2, 3)], lambda x: x - np.tanh(x), "SubBackward0")
