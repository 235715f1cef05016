"""The op test table: OpInfo-style cases for every row of the engine's op table.

Each `Case` names the row of `ad.OPS` (the op table of engine/ops/) it covers and
gives:

``fn``
    A callable built from the public API (``lambda a, b: a * b``); its inputs
    are tensors made from the arrays below (float arrays require grad).
``shapes``
    The input shapes (broadcasting pairs included).
``gen``
    Optional: ``gen(rng, shapes) -> [arrays]``, for inputs with a domain
    (positive for log/sqrt, away from kinks for abs/relu/clamp, distinct
    values for max, a zero for prod, bool masks, index arrays). The default
    draws standard normals.
``ref``
    A numpy function computing the expected forward value from the arrays.
``sign_gauge``
    Optional: for an output made of vectors each defined only up to its sign (singular
    vectors, eigenvectors), the axis that numbers them (-1: columns, -2: rows). Another
    solver (a GPU's) may give other signs, as valid: tests/engine/ops/test_ops_on_gpu.py
    compares such outputs up to those signs, and derivatives of a function blind to them.
``node``
    The expected ``grad_fn.name()`` of the result, taken from PyTorch 2.13
    (the same expression run on torch tensors; CopySlices and CopyBackwards
    keep the ``torch::autograd::`` namespace PyTorch's ``name()`` gives them). Internal rows that PyTorch has no op for (sum_to, prod_others,
    index_grad, put_along) carry the engine's own name.

Rows that are only reached inside other ops' derivatives (index_grad,
put_along, take_along, prod_others, sum_to, to_device) are also called
directly through ``ad.core.apply`` so their own derivatives are checked.
`tests/engine/ops/test_ops.py` runs every case (forward, gradcheck, gradgradcheck, node
name) and fails when a row of the table has no case.

Adding an op: add its row in engine/ops/, then cases here.
"""
import math
import zlib

import numpy as np

import autodiff.engine as ad

__all__ = ["Case", "CASES", "make_arrays", "INTERNAL_ROWS"]

# Rows with no PyTorch counterpart of their own: their node name is the engine's.
INTERNAL_ROWS = ("sum_to", "prod_others", "index_grad", "put_along", "view_scatter")

class Case:
    """One op test case (see the module docstring)."""

    def __init__(self, op, id, fn, shapes, ref, node=None, gen=None, requires=None, gradgrad=True,
                 check_kw=None, xfail=None, internal=False, sign_gauge=None):
        self.op = op
        self.id = f"{op}-{id}"
        self.fn = fn
        self.shapes = tuple(tuple(s) for s in shapes)
        self.ref = ref
        self.node = node
        self.gen = gen
        # per float input: whether it requires grad (default: all float inputs do)
        self.requires = requires
        # False, or a reason string, where the second derivative can't be checked by differences
        self.gradgrad = gradgrad
        self.check_kw = dict(check_kw or {})
        # {"forward"|"grad"|"gradgrad"|"node"|"runs": reason}: known engine bugs, marked
        # xfail(strict=True) until fixed (see KNOWN_BUGS at the end)
        self.xfail = dict(xfail or {})
        # built with ad.core.apply on an internal row: no PyTorch expression to compare with
        self.internal = internal
        # the axis numbering vectors defined only up to sign (see the module docstring), or None
        self.sign_gauge = sign_gauge

    @property
    def differentiable(self):
        return ad.OPS[self.op].differentiable

    def __repr__(self):
        return f"Case({self.id})"


def make_arrays(case):
    """The case's input arrays, drawn with a seed fixed by the case id."""
    rng = np.random.default_rng(zlib.crc32(case.id.encode()))
    if case.gen is not None:
        arrays = case.gen(rng, case.shapes)
    else:
        arrays = [rng.standard_normal(s) for s in case.shapes]
    return [np.asarray(a) for a in arrays]


CASES = []


def C(op, id, fn, shapes, ref, node=None, **kw):
    CASES.append(Case(op, id, fn, shapes, ref, node, **kw))


# ------------------------------------------------------------------ generators

def _normal(rng, shape):
    return rng.standard_normal(shape)


def _away(rng, shape, kinks=(0.0,), margin=0.2, lo=-2.0, hi=2.0):
    """Uniform values at least `margin` away from every kink."""
    out = rng.uniform(lo, hi, shape)
    flat = out.reshape(-1)
    for i in range(flat.size):
        while any(abs(flat[i] - k) < margin for k in kinks):
            flat[i] = rng.uniform(lo, hi)
    return out


def _distinct(rng, shape, lo=-2.0, hi=2.0):
    """Values at least (hi - lo) / (2n) apart, shuffled: no ties for max/min/sort."""
    n = int(np.prod(shape)) if shape else 1
    grid = np.linspace(lo, hi, max(n, 2))[:n] + rng.uniform(-0.2, 0.2, n) * (hi - lo) / max(n, 2)
    return rng.permutation(grid).reshape(shape)


def _distinct_abs(rng, shape):
    """Distinct absolute values, random signs, none near 0 (for norm p=inf and p=1)."""
    a = np.abs(_distinct(rng, shape, 0.3, 2.0))
    return a * rng.choice([-1.0, 1.0], size=shape)


def gen_each(*makers):
    """A generator from one maker per input: maker(rng, shape) -> array."""
    return lambda rng, shapes: [m(rng, s) for m, s in zip(makers, shapes)]


def gen_all(maker):
    return lambda rng, shapes: [maker(rng, s) for s in shapes]


def positive(lo=0.5, hi=2.0):
    return lambda rng, shape: rng.uniform(lo, hi, shape)


def away(*kinks, margin=0.2, lo=-2.0, hi=2.0):
    kinks = kinks or (0.0,)
    return lambda rng, shape: _away(rng, shape, kinks, margin, lo, hi)


def uniform(lo, hi):
    return lambda rng, shape: rng.uniform(lo, hi, shape)


normal, distinct, distinct_abs = _normal, _distinct, _distinct_abs


def mask(p=0.5):
    """A boolean array with both values present (when it has two elements or more)."""
    def make(rng, shape):
        m = rng.random(shape) < p
        flat = m.reshape(-1)
        if flat.size >= 2:
            flat[0], flat[-1] = True, False
        return m
    return make


def with_zeros(*flat_positions):
    """Standard normals with exact zeros at the given flat positions."""
    def make(rng, shape):
        a = away(0.0, margin=0.3)(rng, shape)
        a.reshape(-1)[list(flat_positions)] = 0.0
        return a
    return make


def eighths(rng, shape):
    """Multiples of 1/8: exact in float32 and float64, and so are x +- 1/8."""
    return rng.integers(-16, 17, shape) / 8.0


def eighths32(rng, shape):
    return eighths(rng, shape).astype(np.float32)


def ties_with(other_index):
    """Second input equal to the first at some positions (ties for maximum/minimum)."""
    def gen(rng, shapes):
        a = _distinct(rng, shapes[0])
        b = a + rng.choice([-0.5, 0.5], size=shapes[0])
        b.reshape(-1)[::2] = a.reshape(-1)[::2]
        return [a, b] if other_index == 1 else [b, a]
    return gen


def separated(rng, shapes):
    """Two broadcastable inputs whose broadcast values never come closer than 0.1."""
    while True:
        a, b = _normal(rng, shapes[0]), _normal(rng, shapes[1])
        if np.min(np.abs(a - b)) > 0.1:
            return [a, b]


# ------------------------------------------------------------ numpy helpers

def _erfinv_by_bisection(y):
    """erfinv(y) by bisection on the C library's erf (math.erf): 80 halvings of [-6, 6]."""
    lo, hi = -6.0, 6.0
    for _ in range(80):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if math.erf(mid) < y else (lo, mid)
    return (lo + hi) / 2


def np_softmax(x, axis):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def np_log_softmax(x, axis):
    s = x - np.max(x, axis=axis, keepdims=True)
    return s - np.log(np.sum(np.exp(s), axis=axis, keepdims=True))


def np_logsumexp(x, axis, keepdims=False):
    m = np.max(x, axis=axis, keepdims=True)
    out = np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True)) + m
    return out if keepdims else np.squeeze(out, axis=axis)


def np_norm(x, p=2, axis=None, keepdims=False):
    a = np.abs(x)
    if p == math.inf:
        return np.max(a, axis=axis, keepdims=keepdims)
    return np.sum(a ** p, axis=axis, keepdims=keepdims) ** (1.0 / p)


def np_prod_others(x, axis=None):
    """For each element the product of the others along `axis` (all if None), by brute force."""
    if axis is None:
        flat = x.reshape(-1)
        return np.array([np.prod(np.delete(flat, i)) for i in range(flat.size)]).reshape(x.shape)
    moved = np.moveaxis(x, axis, -1)
    out = np.empty_like(moved)
    for i in range(moved.shape[-1]):
        out[..., i] = np.prod(np.delete(moved, i, axis=-1), axis=-1)
    return np.moveaxis(out, -1, axis)


def np_sum_to(x, shape):
    lead = x.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(i + lead for i, s in enumerate(shape) if s == 1 and x.shape[i + lead] != 1)
    return np.sum(x, axis=axes, keepdims=True).reshape(shape)


def np_index_add(g, key, shape):
    out = np.zeros(shape, dtype=g.dtype)
    np.add.at(out, key, g)
    return out


def np_put_along(g, idx, axis, shape):
    """Zeros of `shape` with g *added* at idx along axis (repeated indices accumulate)."""
    out = np.zeros(shape, dtype=g.dtype)
    moved_out = np.moveaxis(out, axis, -1)
    moved_g = np.moveaxis(g, axis, -1)
    moved_i = np.moveaxis(idx, axis, -1)
    for pos in np.ndindex(moved_g.shape[:-1]):
        for k in range(moved_g.shape[-1]):
            moved_out[pos + (moved_i[pos + (k,)],)] += moved_g[pos + (k,)]
    return out


def np_linear(x, w, b=None):
    out = x @ w.T
    return out if b is None else out + b


def on_copy(f):
    """fn(x, *rest): y = x * 1 (a non-leaf), f(y, *rest) in place, return y.

    `f` works on numpy arrays as well as on tensors when it only uses
    indexing; give a separate numpy version otherwise."""
    def run(x, *rest):
        y = x * 1
        f(y, *rest)
        return y
    return run


def np_on_copy(f):
    def run(x, *rest):
        y = x.copy()
        f(y, *rest)
        return y
    return run


def apply(name, *args, **params):
    """An internal row, applied directly."""
    return ad.core.apply(ad.OPS[name], *args, **params)


CPU = ad.device("cpu")
INF = math.inf
NAME = "engine bug: node name differs from PyTorch's"

# ================================================================== arithmetic

# ---- add
C("add", "same", lambda a, b: a + b, [(2, 3), (2, 3)], np.add, "AddBackward0")
C("add", "bcast_3x1_1x4", lambda a, b: a + b, [(3, 1), (1, 4)], np.add, "AddBackward0")
C("add", "bcast_2x3_3", lambda a, b: a + b, [(2, 3), (3,)], np.add, "AddBackward0")
C("add", "bcast_scalar_2x2", lambda a, b: a + b, [(), (2, 2)], np.add, "AddBackward0")
C("add", "scalars", lambda a, b: ad.add(a, b), [(), ()], np.add, "AddBackward0")
C("add", "python_number", lambda a: a + 2.5, [(2, 3)], lambda a: a + 2.5, "AddBackward0")
C("add", "radd_number", lambda a: 2.5 + a, [(2, 3)], lambda a: 2.5 + a, "AddBackward0")
C("add", "alpha", lambda a, b: ad.add(a, b, alpha=2), [(2, 3), (3,)], lambda a, b: a + 2 * b, "AddBackward0")
C("add", "alpha_fraction", lambda a, b: ad.add(a, b, alpha=-0.37), [(2, 3), (2, 3)], lambda a, b: a - 0.37 * b,
  "AddBackward0")
C("add", "alpha_method", lambda a, b: a.add(b, alpha=1.5), [(3,), (2, 3)], lambda a, b: a + 1.5 * b, "AddBackward0")
C("sub", "alpha_fraction_bcast", lambda a, b: ad.sub(a, b, alpha=0.5), [(2, 3), (3,)], lambda a, b: a - 0.5 * b, "SubBackward0")
C("add", "same_tensor", lambda a: a + a, [(2, 3)], lambda a: a + a, "AddBackward0")
C("add", "one_requires", lambda a, b: a + b, [(2, 3), (2, 1)], np.add, "AddBackward0", requires=(False, True))
C("add", "inplace_add_", on_copy(lambda y, b: y.add_(b)), [(2, 3), (3,)], np.add, "AddBackward0")
C("add", "inplace_iadd", on_copy(lambda y, b: y.__iadd__(b)), [(2, 3), (2, 3)], np.add, "AddBackward0")

# ---- sub
C("sub", "same", lambda a, b: a - b, [(2, 3), (2, 3)], np.subtract, "SubBackward0")
C("sub", "bcast_3x1_1x4", lambda a, b: a - b, [(3, 1), (1, 4)], np.subtract, "SubBackward0")
C("sub", "bcast_2x3_3", lambda a, b: a - b, [(2, 3), (3,)], np.subtract, "SubBackward0")
C("sub", "bcast_scalar_2x2", lambda a, b: a - b, [(), (2, 2)], np.subtract, "SubBackward0")
C("sub", "python_number", lambda a: a - 1.5, [(2, 3)], lambda a: a - 1.5, "SubBackward0")
C("sub", "rsub_number", lambda a: 1.5 - a, [(2, 3)], lambda a: 1.5 - a, "RsubBackward1")
C("sub", "alpha", lambda a, b: ad.sub(a, b, alpha=2), [(2, 3), (2, 3)], lambda a, b: a - 2 * b, "SubBackward0")
C("sub", "second_only", lambda a, b: a - b, [(2, 3), (2, 3)], np.subtract, "SubBackward0", requires=(False, True))
C("sub", "inplace_sub_alpha", on_copy(lambda y, b: y.sub_(b, alpha=2)), [(2, 3), (2, 3)],
  lambda a, b: a - 2 * b, "SubBackward0")

# ---- mul
C("mul", "same", lambda a, b: a * b, [(2, 3), (2, 3)], np.multiply, "MulBackward0")
C("mul", "bcast_3x1_1x4", lambda a, b: a * b, [(3, 1), (1, 4)], np.multiply, "MulBackward0")
C("mul", "bcast_2x3_3", lambda a, b: a * b, [(2, 3), (3,)], np.multiply, "MulBackward0")
C("mul", "bcast_scalar_2x2", lambda a, b: a * b, [(), (2, 2)], np.multiply, "MulBackward0")
C("mul", "bcast_2x3_scalar", lambda a, b: a * b, [(2, 3), ()], np.multiply, "MulBackward0")
C("mul", "bcast_1x1_3x2", lambda a, b: a * b, [(1, 1), (3, 2)], np.multiply, "MulBackward0")
C("mul", "bcast_3d", lambda a, b: ad.mul(a, b), [(2, 1, 4), (3, 1)], np.multiply, "MulBackward0")
C("mul", "python_number", lambda a: a * 3.0, [(2, 3)], lambda a: a * 3.0, "MulBackward0")
C("mul", "rmul_number", lambda a: 3.0 * a, [(2, 3)], lambda a: 3.0 * a, "MulBackward0")
C("mul", "same_tensor", lambda a: a * a, [(2, 3)], lambda a: a * a, "MulBackward0")
C("mul", "first_only", lambda a, b: a * b, [(2, 3), (3,)], np.multiply, "MulBackward0", requires=(True, False))
C("mul", "outer", lambda a, b: ad.outer(a, b), [(3,), (4,)], np.outer, "MulBackward0")
C("mul", "inplace_mul_", on_copy(lambda y, b: y.mul_(b)), [(2, 3), (3,)], np.multiply, "MulBackward0")

# ---- div
_nz = gen_all(away(0.0, margin=0.5))
C("div_rounded", "trunc", lambda a, b: ad.div(a, b, rounding_mode="trunc"), [(2, 3), (2, 3)],
  lambda a, b: np.trunc(a / b), "DivBackward2",
  gen=lambda rng, s: [np.array([[-3.3, 2.2, 7.1], [1.6, -2.2, 0.4]]), np.array([[2.0, -1.5, 2.0], [0.5, 3.0, -4.0]])])
C("div_rounded", "floor_number", lambda a: a.div(2, rounding_mode="floor"), [(4,)], lambda a: np.floor(a / 2),
  "DivBackward2", gen=lambda rng, s: [np.array([-3.3, 2.2, 7.1, -0.4])])
C("div", "same", lambda a, b: a / b, [(2, 3), (2, 3)], np.divide, "DivBackward0", gen=_nz)
# remainder: away from the jumps of a % b (where a/b is a whole number)
_rem = lambda rng, s: [np.array([[0.3, 2.6, -1.2], [4.4, -3.7, 1.1]]).reshape(s[0]),
                       np.array([[1.5, 1.1, 0.9], [1.6, 1.3, 0.8]]).reshape(s[1])]
C("remainder", "op", lambda a, b: a % b, [(2, 3), (2, 3)], np.remainder, "RemainderBackward1", gen=_rem)
C("remainder", "number", lambda a: ad.remainder(a, 1.5), [(2, 3)], lambda a: np.remainder(a, 1.5),
  "RemainderBackward0", gen=lambda rng, s: [np.array([[0.3, 2.6, -1.2], [4.4, -3.7, 1.1]])])
C("div", "bcast_3x1_1x4", lambda a, b: a / b, [(3, 1), (1, 4)], np.divide, "DivBackward0", gen=_nz)
C("div", "bcast_2x3_3", lambda a, b: ad.div(a, b), [(2, 3), (3,)], np.divide, "DivBackward0", gen=_nz)
C("div", "bcast_scalar_2x2", lambda a, b: a / b, [(), (2, 2)], np.divide, "DivBackward0", gen=_nz)
C("div", "python_number", lambda a: a / 2.0, [(2, 3)], lambda a: a / 2.0, "DivBackward0")
C("reciprocal", "rdiv_number", lambda a: 2.0 / a, [(2, 3)], lambda a: 2.0 / a, "MulBackward0", gen=_nz)
C("reciprocal", "fn", lambda a: ad.reciprocal(a), [(2, 3)], np.reciprocal, "ReciprocalBackward0", gen=_nz)
C("reciprocal", "inplace_reciprocal_", on_copy(lambda y: y.reciprocal_()), [(3,)], np.reciprocal,
  "ReciprocalBackward0", gen=_nz)
C("div", "denominator_only", lambda a, b: a / b, [(2, 3), (2, 3)], np.divide, "DivBackward0", gen=_nz,
  requires=(False, True))
C("div", "inplace_div_", on_copy(lambda y, b: y.div_(b)), [(2, 3), (2, 3)], np.divide, "DivBackward0", gen=_nz)

# ---- neg
C("neg", "op", lambda x: -x, [(2, 3)], np.negative, "NegBackward0")
C("neg", "fn_scalar", lambda x: ad.neg(x), [()], np.negative, "NegBackward0")
C("neg", "inplace_neg_", on_copy(lambda y: y.neg_()), [(2, 3)], np.negative, "NegBackward0")

# ---- pow_scalar (tensor ** number)
C("pow_scalar", "exp2", lambda x: x ** 2, [(2, 3)], lambda x: x ** 2, "PowBackward0")
C("pow_scalar", "exp3", lambda x: x ** 3, [(2, 3)], lambda x: x ** 3, "PowBackward0")
C("pow_scalar", "exp0.5", lambda x: x ** 0.5, [(2, 3)], np.sqrt, "PowBackward0", gen=gen_all(positive()))
C("pow_scalar", "exp-1", lambda x: x ** -1, [(2, 3)], lambda x: 1 / x, "PowBackward0",
  gen=gen_all(away(0.0, margin=0.5)))
C("pow_scalar", "exp-2", lambda x: ad.pow(x, -2), [(2, 2)], lambda x: x ** -2.0, "PowBackward0",
  gen=gen_all(away(0.0, margin=0.5)))
C("pow_scalar", "exp2.5", lambda x: x ** 2.5, [(3,)], lambda x: x ** 2.5, "PowBackward0", gen=gen_all(positive()))
C("pow_scalar", "exp0", lambda x: x ** 0, [(2, 3)], np.ones_like, "PowBackward0")
C("pow_scalar", "exp1", lambda x: x ** 1, [(2, 3)], lambda x: x, "PowBackward0")
C("pow_scalar", "scalar_input", lambda x: x ** 3, [()], lambda x: x ** 3, "PowBackward0")
C("pow_scalar", "square", lambda x: ad.square(x), [(2, 3)], np.square, "PowBackward0")
C("pow_scalar", "inplace_pow_", on_copy(lambda y: y.pow_(2)), [(2, 3)], np.square, "PowBackward0")

# ---- pow (tensor ** tensor)
_pow_gen = gen_each(positive(0.5, 2.0), uniform(-1.5, 2.5))
C("pow", "same", lambda a, b: a ** b, [(2, 3), (2, 3)], np.power, "PowBackward1", gen=_pow_gen)
C("pow", "bcast_3x1_1x4", lambda a, b: a ** b, [(3, 1), (1, 4)], np.power, "PowBackward1", gen=_pow_gen)
C("pow", "bcast_scalar_exponent", lambda a, b: ad.pow(a, b), [(2, 3), ()], np.power, "PowBackward1", gen=_pow_gen)
C("pow", "bcast_scalar_base", lambda a, b: a ** b, [(), (2, 2)], np.power, "PowBackward1", gen=_pow_gen)
C("pow", "exponent_only", lambda a, b: a ** b, [(2, 3), (2, 3)], np.power, "PowBackward1", gen=_pow_gen,
  requires=(False, True))
C("pow", "base_only", lambda a, b: a ** b, [(2, 3), (2, 3)], np.power, "PowBackward1", gen=_pow_gen,
  requires=(True, False))
C("pow", "zero_base", lambda a, b: a ** b, [(2, 2), (2, 2)], np.power, "PowBackward1",
  gen=lambda rng, s: [np.array([[0.0, 1.5], [0.7, 0.0]]), np.array([[2.0, -0.5], [1.5, 3.0]])],
  gradgrad="a zero base: a ** (b +- eps) with a negative a is NaN, no differences to compare with")

# ---- rpow_scalar (number ** tensor)
C("rpow_scalar", "base2", lambda x: 2 ** x, [(2, 3)], lambda x: 2.0 ** x, "PowBackward2")
C("rpow_scalar", "base_half", lambda x: 0.5 ** x, [(2, 3)], lambda x: 0.5 ** x, "PowBackward2")
C("rpow_scalar", "base_e_fn", lambda x: ad.pow(math.e, x), [(3,)], np.exp, "PowBackward2")
C("rpow_scalar", "scalar_input", lambda x: 3.0 ** x, [()], lambda x: 3.0 ** x, "PowBackward2")

# ---- maximum / minimum
C("maximum", "same", lambda a, b: ad.maximum(a, b), [(2, 3), (2, 3)], np.maximum, "MaximumBackward0", gen=separated)
C("maximum", "bcast_3x1_1x4", lambda a, b: ad.maximum(a, b), [(3, 1), (1, 4)], np.maximum, "MaximumBackward0",
  gen=separated)
C("maximum", "bcast_scalar", lambda a, b: ad.maximum(a, b), [(2, 3), ()], np.maximum, "MaximumBackward0",
  gen=separated)
C("maximum", "ties", lambda a, b: ad.maximum(a, b), [(2, 3), (2, 3)], np.maximum, "MaximumBackward0",
  gen=ties_with(1), gradgrad="ties: the first derivative jumps there")
C("maximum", "max_two_tensors", lambda a, b: ad.max(a, b), [(2, 3), (2, 3)], np.maximum, "MaximumBackward0",
  gen=separated)
C("clamp_tensors", "min_only", lambda x, lo: ad.clamp(x, min=lo), [(2, 3), (2, 3)], np.maximum,
  "ClampBackward0", gen=separated)
C("minimum", "same", lambda a, b: ad.minimum(a, b), [(2, 3), (2, 3)], np.minimum, "MinimumBackward0", gen=separated)
C("minimum", "bcast_2x3_3", lambda a, b: ad.minimum(a, b), [(2, 3), (3,)], np.minimum, "MinimumBackward0",
  gen=separated)
C("minimum", "ties", lambda a, b: ad.minimum(a, b), [(2, 3), (2, 3)], np.minimum, "MinimumBackward0",
  gen=ties_with(0), gradgrad="ties: the first derivative jumps there")
C("minimum", "min_two_tensors", lambda a, b: ad.min(a, b), [(3, 1), (1, 2)], np.minimum, "MinimumBackward0",
  gen=separated)

# ---- where
_where_gen = gen_each(mask(), normal, normal)
C("where", "same", lambda c, a, b: ad.where(c, a, b), [(2, 3), (2, 3), (2, 3)], np.where, "WhereBackward0",
  gen=_where_gen)
C("where", "bcast", lambda c, a, b: ad.where(c, a, b), [(2, 1), (1, 3), ()], np.where, "WhereBackward0",
  gen=_where_gen)
C("where", "bcast_cond", lambda c, a, b: ad.where(c, a, b), [(2, 3), (3,), (2, 1)], np.where, "WhereBackward0",
  gen=_where_gen)
C("where", "number_other", lambda c, a: ad.where(c, a, 0.0), [(2, 3), (2, 3)], lambda c, a: np.where(c, a, 0.0),
  "WhereBackward0", gen=gen_each(mask(), normal))
C("where", "number_input", lambda c, b: ad.where(c, 1.5, b), [(2, 3), (2, 3)], lambda c, b: np.where(c, 1.5, b),
  "WhereBackward0", gen=gen_each(mask(), normal))
C("where", "cond_from_compare", lambda a, b: ad.where(a > 0, a, b), [(2, 3), (2, 3)],
  lambda a, b: np.where(a > 0, a, b), "WhereBackward0", gen=gen_all(away(0.0)))

# ================================================================== unary math

C("abs", "op", lambda x: ad.abs(x), [(2, 3)], np.abs, "AbsBackward0", gen=gen_all(away(0.0)))
C("abs", "method_scalar", lambda x: x.abs(), [()], np.abs, "AbsBackward0", gen=gen_all(away(0.0)))
C("abs", "builtin", lambda x: abs(x), [(4,)], np.abs, "AbsBackward0", gen=gen_all(away(0.0)))
C("abs", "inplace_abs_", on_copy(lambda y: y.abs_()), [(2, 3)], np.abs, "AbsBackward0", gen=gen_all(away(0.0)))
C("sign", "op", lambda x: ad.sign(x), [(2, 3)], np.sign, "SignBackward0", gen=gen_all(away(0.0)))
C("sign", "method", lambda x: x.sign(), [(4,)], np.sign, "SignBackward0", gen=gen_all(away(0.0)))
C("exp", "op", lambda x: ad.exp(x), [(2, 3)], np.exp, "ExpBackward0")
C("exp", "method_scalar", lambda x: x.exp(), [()], np.exp, "ExpBackward0")
C("exp", "inplace_exp_", on_copy(lambda y: y.exp_()), [(2, 3)], np.exp, "ExpBackward0")
C("log", "op", lambda x: ad.log(x), [(2, 3)], np.log, "LogBackward0", gen=gen_all(positive(0.3, 3.0)))
C("log", "method_scalar", lambda x: x.log(), [()], np.log, "LogBackward0", gen=gen_all(positive()))
C("log", "inplace_log_", on_copy(lambda y: y.log_()), [(2, 3)], np.log, "LogBackward0",
  gen=gen_all(positive(0.3, 3.0)))
C("sqrt", "op", lambda x: ad.sqrt(x), [(2, 3)], np.sqrt, "SqrtBackward0", gen=gen_all(positive(0.3, 3.0)))
C("sqrt", "method_scalar", lambda x: x.sqrt(), [()], np.sqrt, "SqrtBackward0", gen=gen_all(positive()))
C("sqrt", "inplace_sqrt_", on_copy(lambda y: y.sqrt_()), [(2, 3)], np.sqrt, "SqrtBackward0",
  gen=gen_all(positive(0.3, 3.0)))
C("rsqrt", "op", lambda x: ad.rsqrt(x), [(2, 3)], lambda x: 1 / np.sqrt(x), "RsqrtBackward0",
  gen=gen_all(positive(0.3, 3.0)))
C("rsqrt", "method_scalar", lambda x: x.rsqrt(), [()], lambda x: 1 / np.sqrt(x), "RsqrtBackward0",
  gen=gen_all(positive()))
C("rsqrt", "inplace_rsqrt_", on_copy(lambda y: y.rsqrt_()), [(2, 3)], lambda x: 1 / np.sqrt(x), "RsqrtBackward0",
  gen=gen_all(positive(0.3, 3.0)))
C("sin", "op", lambda x: ad.sin(x), [(2, 3)], np.sin, "SinBackward0")
C("sin", "method_scalar", lambda x: x.sin(), [()], np.sin, "SinBackward0")
C("cos", "op", lambda x: ad.cos(x), [(2, 3)], np.cos, "CosBackward0")
C("cos", "method_scalar", lambda x: x.cos(), [()], np.cos, "CosBackward0")
C("cos", "inplace_cos_", on_copy(lambda y: y.cos_()), [(2, 3)], np.cos, "CosBackward0")
C("tan", "op", lambda x: ad.tan(x), [(2, 3)], np.tan, "TanBackward0", gen=gen_all(uniform(-1.2, 1.2)))
C("tan", "method_scalar", lambda x: x.tan(), [()], np.tan, "TanBackward0", gen=gen_all(uniform(-1.2, 1.2)))
C("tanh", "op", lambda x: ad.tanh(x), [(2, 3)], np.tanh, "TanhBackward0")
C("tanh", "method_scalar", lambda x: x.tanh(), [()], np.tanh, "TanhBackward0")
C("tanh", "inplace_tanh_", on_copy(lambda y: y.tanh_()), [(2, 3)], np.tanh, "TanhBackward0")
C("sigmoid", "op", lambda x: ad.sigmoid(x), [(2, 3)], lambda x: 1 / (1 + np.exp(-x)), "SigmoidBackward0")
C("sigmoid", "large", lambda x: x.sigmoid(), [(6,)], lambda x: 1 / (1 + np.exp(-x)), "SigmoidBackward0",
  gen=lambda rng, s: [np.array([-40.0, -8.0, -0.5, 0.5, 8.0, 40.0])])
C("sigmoid", "inplace_sigmoid_", on_copy(lambda y: y.sigmoid_()), [(2, 3)], lambda x: 1 / (1 + np.exp(-x)),
  "SigmoidBackward0")
C("relu", "op", lambda x: ad.relu(x), [(2, 3)], lambda x: np.maximum(x, 0), "ReluBackward0", gen=gen_all(away(0.0)))
C("relu", "method", lambda x: x.relu(), [(4,)], lambda x: np.maximum(x, 0), "ReluBackward0", gen=gen_all(away(0.0)))
C("relu", "inplace_relu_", on_copy(lambda y: y.relu_()), [(2, 3)], lambda x: np.maximum(x, 0), "ReluBackward0",
  gen=gen_all(away(0.0)))
# ---- threshold_backward (relu's gradient as a row: reached through a create_graph gradient of relu)
C("threshold_backward", "direct", lambda g, x: apply("threshold_backward", g, x), [(2, 3), (2, 3)],
  lambda g, x: np.where(x > 0, g, 0.0), "ThresholdBackwardBackward0", gen=gen_each(_normal, away(0.0)))
C("threshold_backward", "relu_grad",
  lambda x, w: ad.autograd.grad((ad.relu(x) * w).sum(), x, create_graph=True)[0], [(2, 3), (2, 3)],
  lambda x, w: np.where(x > 0, w, 0.0), "ThresholdBackwardBackward0", gen=gen_each(away(0.0), _normal))
C("sinh", "op", lambda x: ad.sinh(x), [(2, 3)], np.sinh, "SinhBackward0")
C("cosh", "method", lambda x: x.cosh(), [(2, 3)], np.cosh, "CoshBackward0")
C("log1p", "op", lambda x: ad.log1p(x), [(2, 3)], np.log1p, "Log1PBackward0", gen=gen_all(uniform(-0.7, 2.0)))
C("expm1", "inplace_expm1_", on_copy(lambda y: y.expm1_()), [(2, 3)], np.expm1, "Expm1Backward0")
C("atan", "op", lambda x: ad.atan(x), [(2, 3)], np.arctan, "AtanBackward0")
C("asin", "method", lambda x: x.asin(), [(2, 3)], np.arcsin, "AsinBackward0", gen=gen_all(uniform(-0.8, 0.8)))
C("acos", "op", lambda x: ad.arccos(x), [(2, 3)], np.arccos, "AcosBackward0", gen=gen_all(uniform(-0.8, 0.8)))
C("atan2", "bcast", lambda a, b: ad.atan2(a, b), [(2, 3), (3,)], np.arctan2, "Atan2Backward0", gen=_nz)
C("hypot", "method", lambda a, b: a.hypot(b), [(2, 3), (2, 3)], np.hypot, "HypotBackward0", gen=_nz)
C("xlogy", "fn", lambda a, b: ad.xlogy(a, b), [(2, 3), (2, 3)], lambda a, b: a * np.log(b), "XlogyBackward0",
  gen=gen_each(normal, positive(0.3, 3.0)))
C("xlogy", "method_bcast", lambda a, b: a.xlogy(b), [(2, 3), (3,)], lambda a, b: a * np.log(b), "XlogyBackward0",
  gen=gen_each(normal, positive(0.3, 3.0)))
C("xlogy", "x_at_zero", lambda a, b: ad.xlogy(a, b), [(3,), (3,)], lambda a, b: a * np.log(b), "XlogyBackward0",
  gen=lambda rng, s: [np.array([0.0, 0.5, 0.0]), np.array([2.0, 3.0, 0.7])])  # d/dx at 0 is log(y), as PyTorch's
C("xlogy", "number_y", lambda a: ad.xlogy(a, 2.5), [(4,)], lambda a: a * np.log(2.5), "XlogyBackward2")
C("xlogy", "number_x", lambda b: ad.xlogy(1.5, b), [(4,)], lambda b: 1.5 * np.log(b), "XlogyBackward1",
  gen=gen_each(positive(0.3, 3.0)))
C("xlogy", "inplace", on_copy(lambda y, b: y.xlogy_(b)), [(2, 3), (2, 3)], lambda a, b: a * np.log(b),
  "XlogyBackward0", gen=gen_each(normal, positive(0.3, 3.0)))
C("erf", "op", lambda x: ad.erf(x), [(2, 3)], np.vectorize(math.erf), "ErfBackward0")
C("acosh", "op", lambda x: ad.acosh(x), [(2, 3)], np.arccosh, "AcoshBackward0", gen=gen_all(uniform(1.3, 3.0)))
C("acosh", "arccosh_method", lambda x: x.arccosh(), [()], np.arccosh, "AcoshBackward0", gen=gen_all(uniform(1.3, 3.0)))
C("asinh", "op", lambda x: ad.asinh(x), [(2, 3)], np.arcsinh, "AsinhBackward0")
C("asinh", "inplace_asinh_", on_copy(lambda y: y.asinh_()), [(2, 3)], np.arcsinh, "AsinhBackward0")
C("atanh", "op", lambda x: ad.atanh(x), [(2, 3)], np.arctanh, "AtanhBackward0", gen=gen_all(uniform(-0.8, 0.8)))
C("log2", "op", lambda x: ad.log2(x), [(2, 3)], np.log2, "Log2Backward0", gen=gen_all(positive(0.3, 3.0)))
C("log10", "method", lambda x: x.log10(), [(2, 3)], np.log10, "Log10Backward0", gen=gen_all(positive(0.3, 3.0)))
C("exp2", "op", lambda x: ad.exp2(x), [(2, 3)], np.exp2, "Exp2Backward0")
C("erfinv", "op", lambda x: ad.erfinv(x), [(2, 3)], lambda y: np.vectorize(_erfinv_by_bisection)(y), "ErfinvBackward0",
  gen=gen_all(uniform(-0.9, 0.9)))
C("erfc", "op", lambda x: ad.erfc(x), [(2, 3)], np.vectorize(math.erfc), "ErfcBackward0")
C("sinc", "op", lambda x: ad.sinc(x), [(2, 3)], np.sinc, "SincBackward0")
C("sinc", "at_zero", lambda x: ad.sinc(x * 0 + x.detach() * 0) + ad.sinc(x), [(3,)], lambda x: 1 + np.sinc(x),
  "AddBackward0", gradgrad="PyTorch's second derivative at 0 is nan (0/0 inside its where), so is ours: "
  "test_autograd.test_sinc_derivatives_at_zero_as_pytorch")
C("deg2rad", "op", lambda x: ad.deg2rad(x), [(2, 3)], np.deg2rad, "Deg2RadBackward0")
C("rad2deg", "method", lambda x: x.rad2deg(), [(2, 3)], np.rad2deg, "Rad2DegBackward0")
# ---- tanh_backward / sigmoid_backward (the gradients of tanh and sigmoid, reached under create_graph)
C("tanh_backward", "direct", lambda g, y: apply("tanh_backward", g, y), [(2, 3), (2, 3)],
  lambda g, y: g * (1 - y * y), "TanhBackwardBackward0", gen=gen_each(_normal, uniform(-0.9, 0.9)))
C("tanh_backward", "tanh_grad", lambda x, w: ad.autograd.grad((ad.tanh(x) * w).sum(), x, create_graph=True)[0],
  [(2, 3), (2, 3)], lambda x, w: w * (1 - np.tanh(x) ** 2), "TanhBackwardBackward0")
C("sigmoid_backward", "direct", lambda g, y: apply("sigmoid_backward", g, y), [(2, 3), (2, 3)],
  lambda g, y: g * (1 - y) * y, "SigmoidBackwardBackward0", gen=gen_each(_normal, uniform(0.1, 0.9)))
C("sigmoid_backward", "sigmoid_grad", lambda x, w: ad.autograd.grad((ad.sigmoid(x) * w).sum(), x, create_graph=True)[0],
  [(2, 3), (2, 3)], lambda x, w: w * np.exp(-x) / (1 + np.exp(-x)) ** 2, "SigmoidBackwardBackward0")

# ---- clamp (number bounds)
_clamp_gen = gen_all(away(-0.5, 0.5, margin=0.15))
C("clamp", "min_max", lambda x: ad.clamp(x, -0.5, 0.5), [(2, 3)], lambda x: np.clip(x, -0.5, 0.5),
  "ClampBackward1", gen=_clamp_gen)
C("clamp", "min_only", lambda x: ad.clamp(x, min=-0.5), [(2, 3)], lambda x: np.maximum(x, -0.5),
  "ClampBackward1", gen=_clamp_gen)
C("clamp", "max_only", lambda x: x.clamp(max=0.5), [(2, 3)], lambda x: np.minimum(x, 0.5),
  "ClampBackward1", gen=_clamp_gen)
C("clamp", "clamp_min", lambda x: ad.clamp_min(x, 0.5), [(2, 3)], lambda x: np.maximum(x, 0.5),
  "ClampMinBackward0", gen=_clamp_gen)
C("clamp", "clamp_max", lambda x: ad.clamp_max(x, -0.5), [(2, 3)], lambda x: np.minimum(x, -0.5),
  "ClampMaxBackward0", gen=_clamp_gen)
C("clamp", "clip_scalar_input", lambda x: ad.clip(x, -0.5, 0.5), [()], lambda x: np.clip(x, -0.5, 0.5),
  "ClampBackward1", gen=_clamp_gen)
C("clamp", "inplace_clamp_", on_copy(lambda y: y.clamp_(-0.5, 0.5)), [(2, 3)], lambda x: np.clip(x, -0.5, 0.5),
  "ClampBackward1", gen=_clamp_gen)

# ---- clamp (tensor bounds: the gradient to x within them, to a bound where it is the result)
def _x_and_bounds(rng, shapes):
    """x, a lower bound and an upper one, x never within 0.1 of either (no tie for differences)."""
    while True:
        x, lo, hi = _normal(rng, shapes[0]), rng.uniform(-0.8, -0.3, shapes[1]), rng.uniform(0.3, 0.8, shapes[2])
        if min(np.min(np.abs(x - lo)), np.min(np.abs(x - hi))) > 0.1:
            return [x, lo, hi]


C("clamp_tensors", "both", lambda x, lo, hi: ad.clamp(x, lo, hi), [(2, 3), (2, 3), (3,)],
  lambda x, lo, hi: np.minimum(np.maximum(x, lo), hi), "ClampBackward0", gen=_x_and_bounds)
C("clamp_tensors", "clamp_min", lambda x, lo, hi: ad.clamp_min(x, lo) + 0 * hi, [(2, 3), (2, 3), (2, 3)],
  lambda x, lo, hi: np.maximum(x, lo), "AddBackward0", gen=_x_and_bounds)
C("clamp_tensors", "clip_max", lambda x, lo, hi: x.clip(max=hi) + 0 * lo, [(2, 3), (2, 3), (2, 3)],
  lambda x, lo, hi: np.minimum(x, hi), "AddBackward0", gen=_x_and_bounds)


# ================================================================== reductions

# ---- sum
C("sum", "all", lambda x: ad.sum(x), [(2, 3)], np.sum, "SumBackward0")
C("sum", "all_method", lambda x: x.sum(), [(2, 3, 4)], np.sum, "SumBackward0")
C("sum", "scalar_input", lambda x: x.sum(), [()], np.sum, "SumBackward0")
C("sum", "dim1", lambda x: ad.sum(x, dim=1), [(2, 3)], lambda x: np.sum(x, axis=1), "SumBackward1")
C("sum", "dim0_keepdim", lambda x: ad.sum(x, dim=0, keepdim=True), [(2, 3)],
  lambda x: np.sum(x, axis=0, keepdims=True), "SumBackward1")
C("sum", "dim1_keepdim", lambda x: ad.sum(x, dim=1, keepdim=True), [(2, 3)],
  lambda x: np.sum(x, axis=1, keepdims=True), "SumBackward1")
C("sum", "dim_neg", lambda x: x.sum(-1), [(2, 3, 4)], lambda x: np.sum(x, axis=-1), "SumBackward1")
C("sum", "dims_tuple", lambda x: x.sum(dim=(0, 2)), [(2, 3, 4)], lambda x: np.sum(x, axis=(0, 2)), "SumBackward1")
C("sum", "dims_tuple_keepdim", lambda x: x.sum(dim=(0, 2), keepdim=True), [(2, 3, 4)],
  lambda x: np.sum(x, axis=(0, 2), keepdims=True), "SumBackward1")
C("sum", "dim_none_keepdim", lambda x: ad.sum(x, dim=None, keepdim=True), [(2, 3)],
  lambda x: np.sum(x, keepdims=True), "SumBackward1")

# ---- mean
C("mean", "all", lambda x: ad.mean(x), [(2, 3)], np.mean, "MeanBackward0")
C("mean", "scalar_input", lambda x: x.mean(), [()], np.mean, "MeanBackward0")
C("mean", "dim1", lambda x: x.mean(1), [(2, 3)], lambda x: np.mean(x, axis=1), "MeanBackward1")
C("mean", "dim0_keepdim", lambda x: ad.mean(x, dim=0, keepdim=True), [(2, 3)],
  lambda x: np.mean(x, axis=0, keepdims=True), "MeanBackward1")
C("mean", "dims_tuple", lambda x: x.mean(dim=(-1, 0)), [(2, 3, 4)], lambda x: np.mean(x, axis=(0, 2)),
  "MeanBackward1")

# ---- sum_to (internal: reached through every broadcasting backward)
C("sum_to", "rows", lambda x: apply("sum_to", x, shape=(1, 3)), [(2, 3)], lambda x: np_sum_to(x, (1, 3)),
  "SumToBackward0", internal=True)
C("sum_to", "leading", lambda x: apply("sum_to", x, shape=(3,)), [(4, 2, 3)], lambda x: np_sum_to(x, (3,)),
  "SumToBackward0", internal=True)
C("sum_to", "mixed", lambda x: apply("sum_to", x, shape=(2, 1)), [(3, 2, 4)], lambda x: np_sum_to(x, (2, 1)),
  "SumToBackward0", internal=True)
C("sum_to", "to_scalar", lambda x: apply("sum_to", x, shape=()), [(2, 3)], lambda x: np_sum_to(x, ()),
  "SumToBackward0", internal=True)
C("sum_to", "same_shape", lambda x: apply("sum_to", x, shape=(2, 3)), [(2, 3)], lambda x: x.copy(),
  "SumToBackward0", internal=True)

# ---- prod
C("prod", "all", lambda x: ad.prod(x), [(2, 3)], np.prod, "ProdBackward0")
C("prod", "all_one_zero", lambda x: x.prod(), [(2, 3)], np.prod, "ProdBackward0", gen=gen_all(with_zeros(4)))
C("prod", "all_two_zeros", lambda x: x.prod(), [(2, 3)], np.prod, "ProdBackward0", gen=gen_all(with_zeros(1, 4)))
C("prod", "scalar_input", lambda x: x.prod(), [()], np.prod, "ProdBackward0")
C("prod", "dim1", lambda x: ad.prod(x, dim=1), [(2, 3)], lambda x: np.prod(x, axis=1), "ProdBackward1")
C("prod", "dim1_zero", lambda x: x.prod(1), [(3, 3)], lambda x: np.prod(x, axis=1), "ProdBackward1",
  gen=gen_all(with_zeros(1, 3, 5, 8)))
C("prod", "dim0_keepdim", lambda x: x.prod(0, keepdim=True), [(3, 2)], lambda x: np.prod(x, axis=0, keepdims=True),
  "ProdBackward1", gen=gen_all(with_zeros(2)))
C("prod", "dim_neg_3d", lambda x: x.prod(dim=-1), [(2, 2, 3)], lambda x: np.prod(x, axis=-1), "ProdBackward1")

# ---- prod_others (internal: the derivative of prod)
C("prod_others", "all", lambda x: apply("prod_others", x, dim=None), [(2, 3)], np_prod_others, "ProdBackward1",
  internal=True)
C("prod_others", "all_zero", lambda x: apply("prod_others", x, dim=None), [(2, 2)], np_prod_others,
  "ProdBackward1", gen=gen_all(with_zeros(2)), internal=True)
C("prod_others", "dim1", lambda x: apply("prod_others", x, dim=1), [(2, 3)],
  lambda x: np_prod_others(x, 1), "ProdBackward1", internal=True)
C("prod_others", "dim0_zeros", lambda x: apply("prod_others", x, dim=0), [(3, 2)],
  lambda x: np_prod_others(x, 0), "ProdBackward1", gen=gen_all(with_zeros(0, 3, 5)), internal=True)

# ---- max / min over everything
C("max_all", "fn", lambda x: ad.max(x), [(2, 3)], np.max, "MaxBackward1", gen=gen_all(distinct))
C("max_all", "method_3d", lambda x: x.max(), [(2, 2, 3)], np.max, "MaxBackward1", gen=gen_all(distinct))
C("max_all", "two_way_tie", lambda x: x.max(), [(2, 2)], np.max, "MaxBackward1",
  gen=lambda rng, s: [np.array([[0.5, 1.5], [1.5, -1.0]])],
  gradgrad="a tie: the first derivative jumps there")
C("amax", "all", lambda x: ad.amax(x), [(2, 3)], np.max, "AmaxBackward0", gen=gen_all(distinct))
C("min_all", "fn", lambda x: ad.min(x), [(2, 3)], np.min, "MinBackward1", gen=gen_all(distinct))
C("min_all", "method_scalar", lambda x: x.min(), [()], np.min, "MinBackward1")
C("min_all", "two_way_tie", lambda x: x.min(), [(3,)], np.min, "MinBackward1",
  gen=lambda rng, s: [np.array([-0.25, 1.0, -0.25])], gradgrad="a tie: the first derivative jumps there")

# ---- max / min along a dim (values; indices from argmax/argmin)
C("max_dim", "max_dim1", lambda x: x.max(dim=1).values, [(2, 3)], lambda x: np.max(x, axis=1),
  "MaxBackward0", gen=gen_all(distinct))
C("max_dim", "max_dim0_keepdim", lambda x: ad.max(x, 0, keepdim=True)[0], [(3, 2)],
  lambda x: np.max(x, axis=0, keepdims=True), "MaxBackward0", gen=gen_all(distinct))
C("max_dim", "max_dim_neg_3d", lambda x: x.max(-1)[0], [(2, 3, 4)], lambda x: np.max(x, axis=-1),
  "MaxBackward0", gen=gen_all(distinct))
C("min_dim", "min_dim0", lambda x: x.min(dim=0).values, [(3, 4)], lambda x: np.min(x, axis=0),
  "MinBackward0", gen=gen_all(distinct))
C("min_dim", "min_dim1_keepdim_3d", lambda x: ad.min(x, dim=1, keepdim=True).values, [(2, 3, 2)],
  lambda x: np.min(x, axis=1, keepdims=True), "MinBackward0", gen=gen_all(distinct))
C("max_dim", "max_dim_1d", lambda x: x.max(0).values, [(4,)], lambda x: np.max(x, axis=0),
  "MaxBackward0", gen=gen_all(distinct))
C("amax", "dim", lambda x: ad.amax(x, dim=1), [(2, 3)], lambda x: np.max(x, axis=1),
  "AmaxBackward0", gen=gen_all(distinct))
C("amax", "dim_ties", lambda x: ad.amax(x, dim=1), [(2, 3)], lambda x: np.max(x, axis=1),
  "AmaxBackward0", gen=lambda rng, s: [np.array([[1.0, 5.0, 5.0], [-2.0, 0.5, -2.5]])],
  gradgrad="a tie: the first derivative jumps there")
C("amin", "dim0", lambda x: ad.amin(x, dim=0), [(3, 2)], lambda x: np.min(x, axis=0), "AminBackward0",
  gen=gen_all(distinct))
C("amin", "all_keepdim", lambda x: x.amin(keepdim=True), [(2, 2)], lambda x: np.min(x, keepdims=True),
  "AminBackward0", gen=gen_all(distinct))

# ---- take_along / put_along (internal: max(dim)'s derivative and its derivative)
_IDX = np.array([[2, 0, 2], [1, 1, 0]])
C("take_along", "dim1", lambda x: apply("take_along", x, indices=_IDX, dim=1), [(2, 3)],
  lambda x: np.take_along_axis(x, _IDX, axis=1), "GatherBackward0", internal=True)
C("take_along", "dim0_distinct", lambda x: apply("take_along", x, indices=np.array([[1, 0, 2]]), dim=0),
  [(3, 3)], lambda x: np.take_along_axis(x, np.array([[1, 0, 2]]), axis=0), "GatherBackward0", internal=True)
C("take_along", "gather", lambda x: x.gather(1, ad.tensor([[0, 2], [1, 1]])), [(2, 3)],
  lambda x: np.take_along_axis(x, np.array([[0, 2], [1, 1]]), 1), "GatherBackward0")
C("take_along", "gather_part", lambda x: ad.gather(x, 0, ad.tensor([[2, 1]])), [(3, 4)],
  lambda x: np.take_along_axis(x[:, :2], np.array([[2, 1]]), 0), "GatherBackward0")
C("put_along", "dim1", lambda g: apply("put_along", g, indices=np.array([[2], [0]]), dim=1, shape=(2, 3)),
  [(2, 1)], lambda g: np_put_along(g, np.array([[2], [0]]), 1, (2, 3)), "ScatterAddBackward0", internal=True)
C("put_along", "dim0", lambda g: apply("put_along", g, indices=np.array([[1, 0, 1]]), dim=0, shape=(2, 3)),
  [(1, 3)], lambda g: np_put_along(g, np.array([[1, 0, 1]]), 0, (2, 3)), "ScatterAddBackward0", internal=True)
C("put_along", "repeated", lambda g: apply("put_along", g, indices=_IDX, dim=1, shape=(2, 3)),
  [(2, 3)], lambda g: np_put_along(g, _IDX, 1, (2, 3)), "ScatterAddBackward0", internal=True)

# ---- norm
C("norm", "p2_all", lambda x: ad.norm(x), [(2, 3)], lambda x: np_norm(x), "LinalgVectorNormBackward0")
C("norm", "p2_method_1d", lambda x: x.norm(), [(4,)], lambda x: np_norm(x), "LinalgVectorNormBackward0")
C("norm", "p2_dim1", lambda x: ad.norm(x, dim=1), [(2, 3)], lambda x: np_norm(x, 2, 1),
  "LinalgVectorNormBackward0")
C("norm", "p2_dim0_keepdim", lambda x: ad.norm(x, 2, dim=0, keepdim=True), [(2, 3)],
  lambda x: np_norm(x, 2, 0, True), "LinalgVectorNormBackward0")
C("norm", "p2_zero_vector", lambda x: x.norm(), [(3,)], lambda x: np_norm(x), "LinalgVectorNormBackward0",
  gen=lambda rng, s: [np.zeros(3)], gradgrad="at the zero vector the first derivative jumps")
C("norm", "p1_all", lambda x: ad.norm(x, p=1), [(2, 3)], lambda x: np_norm(x, 1), "LinalgVectorNormBackward0",
  gen=gen_all(away(0.0)))
C("norm", "p1_dim1", lambda x: x.norm(p=1, dim=1), [(2, 3)], lambda x: np_norm(x, 1, 1),
  "LinalgVectorNormBackward0", gen=gen_all(away(0.0)))
C("norm", "pinf_all", lambda x: ad.norm(x, p=INF), [(2, 3)], lambda x: np_norm(x, INF),
  "LinalgVectorNormBackward0", gen=gen_all(distinct_abs))
C("norm", "pinf_dim0", lambda x: x.norm(p=INF, dim=0), [(3, 2)], lambda x: np_norm(x, INF, 0),
  "LinalgVectorNormBackward0", gen=gen_all(distinct_abs))
C("norm", "pinf_dim1_keepdim", lambda x: ad.norm(x, p=INF, dim=1, keepdim=True), [(2, 3)],
  lambda x: np_norm(x, INF, 1, True), "LinalgVectorNormBackward0", gen=gen_all(distinct_abs))
C("norm", "p3_all", lambda x: ad.norm(x, p=3), [(2, 3)], lambda x: np_norm(x, 3), "LinalgVectorNormBackward0",
  gen=gen_all(away(0.0)))
C("norm", "p3_dim1", lambda x: x.norm(p=3, dim=1), [(2, 3)], lambda x: np_norm(x, 3, 1),
  "LinalgVectorNormBackward0", gen=gen_all(away(0.0)))
C("norm", "p1.5_dims_keepdim", lambda x: x.norm(p=1.5, dim=(0, 2), keepdim=True), [(2, 2, 3)],
  lambda x: np_norm(x, 1.5, (0, 2), True), "LinalgVectorNormBackward0", gen=gen_all(away(0.0)))
# ---- dist: the norm of a - b (they broadcast); b's gradient is a's negated
C("dist", "p2", lambda a, b: ad.dist(a, b), [(2, 3), (2, 3)], lambda a, b: np_norm(a - b), "DistBackward0")
C("dist", "p1_broadcast", lambda a, b: a.dist(b, 1), [(2, 3), (3,)], lambda a, b: np_norm(a - b, 1), "DistBackward0",
  gen=lambda rng, s: [_away(rng, s[0], (-1.5, -0.5, 0.5, 1.5), 0.1), np.array([-1.0, 0.0, 1.0])])
C("dist", "p3", lambda a, b: ad.dist(a, b, 3), [(4,), (4,)], lambda a, b: np_norm(a - b, 3), "DistBackward0",
  gen=lambda rng, s: [rng.uniform(0.5, 2.0, 4), rng.uniform(-2.0, -0.5, 4)])
C("dist", "pinf", lambda a, b: ad.dist(a, b, INF), [(2, 3), (2, 3)], lambda a, b: np_norm(a - b, INF),
  "DistBackward0", gen=lambda rng, s: [_distinct_abs(rng, s[0]), np.zeros(s[1])])
C("dist", "pminus_inf", lambda a, b: ad.dist(a, b, -INF), [(2, 3), (2, 3)], lambda a, b: np.abs(a - b).min(),
  "DistBackward0", gen=lambda rng, s: [_distinct_abs(rng, s[0]), np.zeros(s[1])])

# ---- logsumexp / softmax / log_softmax
C("logsumexp", "dim1", lambda x: ad.logsumexp(x, dim=1), [(2, 3)], lambda x: np_logsumexp(x, 1),
  "LogsumexpBackward0")
C("logsumexp", "dim0_keepdim", lambda x: x.logsumexp(0, keepdim=True), [(2, 3)],
  lambda x: np_logsumexp(x, 0, True), "LogsumexpBackward0")
C("logsumexp", "dims_tuple", lambda x: ad.logsumexp(x, dim=(0, 1)), [(2, 3)], lambda x: np_logsumexp(x, (0, 1)),
  "LogsumexpBackward0")
C("logsumexp", "dim_neg_3d", lambda x: ad.logsumexp(x, dim=-1), [(2, 3, 4)], lambda x: np_logsumexp(x, -1),
  "LogsumexpBackward0")
C("logsumexp", "large", lambda x: ad.logsumexp(x, dim=1), [(2, 3)], lambda x: np_logsumexp(x, 1),
  "LogsumexpBackward0", gen=lambda rng, s: [rng.standard_normal(s[0]) + np.array([[800.0], [-800.0]])])
C("softmax", "dim1", lambda x: ad.softmax(x, dim=1), [(2, 3)], lambda x: np_softmax(x, 1), "SoftmaxBackward0")
C("softmax", "dim0", lambda x: x.softmax(0), [(3, 2)], lambda x: np_softmax(x, 0), "SoftmaxBackward0")
C("softmax", "dim_neg_3d", lambda x: ad.softmax(x, -1), [(2, 2, 3)], lambda x: np_softmax(x, -1),
  "SoftmaxBackward0")
C("softmax", "large", lambda x: ad.softmax(x, dim=1), [(2, 3)], lambda x: np_softmax(x, 1), "SoftmaxBackward0",
  gen=lambda rng, s: [rng.standard_normal(s[0]) + np.array([[800.0], [-800.0]])])
C("softmax", "1d", lambda x: ad.softmax(x, 0), [(4,)], lambda x: np_softmax(x, 0), "SoftmaxBackward0")
C("log_softmax", "dim1", lambda x: ad.log_softmax(x, dim=1), [(2, 3)], lambda x: np_log_softmax(x, 1),
  "LogSoftmaxBackward0")
C("log_softmax", "dim0", lambda x: x.log_softmax(0), [(3, 2)], lambda x: np_log_softmax(x, 0),
  "LogSoftmaxBackward0")
C("log_softmax", "dim_neg_3d", lambda x: ad.log_softmax(x, -1), [(2, 2, 3)], lambda x: np_log_softmax(x, -1),
  "LogSoftmaxBackward0")
C("log_softmax", "large", lambda x: ad.log_softmax(x, dim=1), [(2, 3)], lambda x: np_log_softmax(x, 1),
  "LogSoftmaxBackward0", gen=lambda rng, s: [rng.standard_normal(s[0]) + np.array([[800.0], [-800.0]])])

# ================================================================ linear algebra

C("matmul", "1d_1d", lambda a, b: a @ b, [(3,), (3,)], np.matmul, "DotBackward0")
C("matmul", "dot", lambda a, b: ad.dot(a, b), [(4,), (4,)], np.dot, "DotBackward0")
C("matmul", "2d_2d", lambda a, b: a @ b, [(2, 3), (3, 4)], np.matmul, "MmBackward0")
C("matmul", "mm", lambda a, b: ad.mm(a, b), [(3, 2), (2, 2)], np.matmul, "MmBackward0")
C("matmul", "2d_1d", lambda a, b: ad.matmul(a, b), [(2, 3), (3,)], np.matmul, "MvBackward0")
C("matmul", "mv", lambda a, b: ad.mv(a, b), [(3, 2), (2,)], np.matmul, "MvBackward0")
C("matmul", "1d_2d", lambda a, b: a @ b, [(3,), (3, 2)], np.matmul, "SqueezeBackward4",
  xfail={"node": NAME + " (1-D @ 2-D is SqueezeBackward4 in PyTorch)"})
C("matmul", "3d_3d", lambda a, b: a @ b, [(2, 3, 4), (2, 4, 2)], np.matmul, "UnsafeViewBackward0",
  xfail={"node": NAME + " (batched matmul is UnsafeViewBackward0 in PyTorch)"})
C("matmul", "3d_2d", lambda a, b: a @ b, [(2, 3, 4), (4, 2)], np.matmul, "UnsafeViewBackward0",
  xfail={"node": NAME + " (3-D @ 2-D is UnsafeViewBackward0 in PyTorch)"})
C("matmul", "2d_3d", lambda a, b: a @ b, [(3, 2), (2, 2, 3)], np.matmul, "CloneBackward0",
  xfail={"node": NAME + " (2-D @ 3-D is CloneBackward0 in PyTorch)"})
C("matmul", "3d_1d", lambda a, b: a @ b, [(2, 3, 4), (4,)], np.matmul, "UnsafeViewBackward0",
  xfail={"node": NAME + " (3-D @ 1-D is UnsafeViewBackward0 in PyTorch)"})
C("matmul", "1d_3d", lambda a, b: a @ b, [(3,), (2, 3, 2)], np.matmul, "UnsafeViewBackward0",
  xfail={"node": NAME + " (1-D @ 3-D is UnsafeViewBackward0 in PyTorch)"})
C("matmul", "4d_3d_bcast", lambda a, b: ad.matmul(a, b), [(2, 1, 2, 3), (3, 3, 2)], np.matmul,
  "UnsafeViewBackward0", xfail={"node": NAME + " (broadcast batched matmul is UnsafeViewBackward0 in PyTorch)"})
C("matmul", "2d_2d_second_only", lambda a, b: a @ b, [(2, 3), (3, 2)], np.matmul, "MmBackward0",
  requires=(False, True))
C("matmul", "3d_3d_first_only", lambda a, b: a @ b, [(2, 2, 3), (2, 3, 2)], np.matmul, "UnsafeViewBackward0",
  requires=(True, False), xfail={"node": NAME + " (batched matmul is UnsafeViewBackward0 in PyTorch)"})

C("linear", "2d_bias", lambda x, w, b: ad.linear(x, w, b), [(2, 3), (4, 3), (4,)], np_linear, "AddmmBackward0")
C("linear", "2d_no_bias", lambda x, w: ad.linear(x, w), [(2, 3), (4, 3)], np_linear, "MmBackward0")
C("linear", "1d_bias", lambda x, w, b: ad.linear(x, w, b), [(3,), (2, 3), (2,)], np_linear, "ViewBackward0",
  xfail={"node": NAME + " (linear on 1-D input with bias is ViewBackward0 in PyTorch)"})
C("linear", "1d_no_bias", lambda x, w: ad.linear(x, w), [(3,), (2, 3)], np_linear, "SqueezeBackward4",
  xfail={"node": NAME + " (linear on 1-D input without bias is SqueezeBackward4 in PyTorch)"})
C("linear", "3d_bias", lambda x, w, b: ad.linear(x, w, b), [(2, 2, 3), (4, 3), (4,)], np_linear, "ViewBackward0",
  xfail={"node": NAME + " (linear on 3-D input with bias is ViewBackward0 in PyTorch)"})
C("linear", "3d_no_bias", lambda x, w: ad.linear(x, w), [(2, 2, 3), (4, 3)], np_linear, "UnsafeViewBackward0",
  xfail={"node": NAME + " (linear on 3-D input without bias is UnsafeViewBackward0 in PyTorch)"})
C("linear", "2d_weight_only", lambda x, w, b: ad.linear(x, w, b), [(2, 3), (2, 3), (2,)], np_linear,
  "AddmmBackward0", requires=(False, True, False))
C("linear", "2d_input_only", lambda x, w, b: ad.linear(x, w, b), [(3, 3), (2, 3), (2,)], np_linear,
  "AddmmBackward0", requires=(True, False, False))

# ======================================================================= shapes

C("reshape", "2x3_to_3x2", lambda x: x.reshape(3, 2), [(2, 3)], lambda x: x.reshape(3, 2), "ViewBackward0")
C("reshape", "fn_flat", lambda x: ad.reshape(x, (6,)), [(2, 3)], lambda x: x.reshape(6), "ViewBackward0")
C("reshape", "view_infer", lambda x: x.view(-1, 2), [(2, 2, 3)], lambda x: x.reshape(-1, 2), "ViewBackward0")
C("reshape", "flatten", lambda x: x.flatten(), [(2, 3)], lambda x: x.reshape(-1), "ViewBackward0")
C("reshape", "scalar_to_1x1", lambda x: x.reshape(1, 1), [()], lambda x: x.reshape(1, 1), "ViewBackward0")
C("reshape", "to_scalar", lambda x: x.reshape(()), [(1,)], lambda x: x.reshape(()), "ViewBackward0")

C("unsqueeze", "dim0", lambda x: x.unsqueeze(0), [(2, 3)], lambda x: x[None], "UnsqueezeBackward0")
C("unsqueeze", "dim_neg", lambda x: ad.unsqueeze(x, -1), [(2, 3)], lambda x: x[..., None], "UnsqueezeBackward0")
C("unsqueeze", "middle", lambda x: x.unsqueeze(1), [(2, 3)], lambda x: x[:, None], "UnsqueezeBackward0")
C("unsqueeze", "scalar", lambda x: x.unsqueeze(0), [()], lambda x: x.reshape(1), "UnsqueezeBackward0")

C("squeeze", "all", lambda x: x.squeeze(), [(1, 3, 1)], np.squeeze, "SqueezeBackward0")
C("squeeze", "dim", lambda x: ad.squeeze(x, 1), [(2, 1, 3)], lambda x: np.squeeze(x, 1), "SqueezeBackward1")
C("squeeze", "dim_neg", lambda x: x.squeeze(-1), [(3, 1)], lambda x: np.squeeze(x, -1), "SqueezeBackward1")
C("squeeze", "dim_not_one", lambda x: x.squeeze(0), [(2, 3)], lambda x: x, "SqueezeBackward1")
C("squeeze", "all_nothing_to_squeeze", lambda x: x.squeeze(), [(2, 3)], lambda x: x, "SqueezeBackward0")

C("transpose", "3d_0_2", lambda x: x.transpose(0, 2), [(2, 3, 4)], lambda x: np.swapaxes(x, 0, 2),
  "TransposeBackward0")
C("transpose", "fn_neg", lambda x: ad.transpose(x, -1, -2), [(2, 3)], lambda x: x.T, "TransposeBackward0")
C("transpose", "t", lambda x: x.t(), [(2, 3)], lambda x: x.T, "TBackward0")
C("transpose", "fn_t", lambda x: ad.t(x), [(3, 2)], lambda x: x.T, "TBackward0")
C("transpose", "mT", lambda x: x.mT, [(2, 3, 4)], lambda x: np.swapaxes(x, -1, -2), "TransposeBackward0")
C("permute", "3d", lambda x: x.permute(2, 0, 1), [(2, 3, 4)], lambda x: np.transpose(x, (2, 0, 1)),
  "PermuteBackward0")
C("permute", "fn_tuple", lambda x: ad.permute(x, (1, 0, 2)), [(2, 3, 2)], lambda x: np.transpose(x, (1, 0, 2)),
  "PermuteBackward0")
C("permute", "T_2d", lambda x: x.T, [(2, 3)], lambda x: x.T, "PermuteBackward0")
C("permute", "T_3d", lambda x: ad.permute(x, (2, 1, 0)), [(2, 3, 4)], lambda x: x.T, "PermuteBackward0")

C("expand", "3x1_to_3x4", lambda x: x.expand(3, 4), [(3, 1)], lambda x: np.broadcast_to(x, (3, 4)),
  "ExpandBackward0")
C("expand", "leading", lambda x: x.expand(2, 3), [(3,)], lambda x: np.broadcast_to(x, (2, 3)), "ExpandBackward0")
C("expand", "scalar", lambda x: x.expand(2, 2), [()], lambda x: np.broadcast_to(x, (2, 2)), "ExpandBackward0")
C("expand", "minus_one", lambda x: x.expand(2, -1, 4), [(3, 1)], lambda x: np.broadcast_to(x, (2, 3, 4)),
  "ExpandBackward0")
C("expand", "expand_as", lambda x, y: x.expand_as(y), [(1, 3), (2, 3)], lambda x, y: np.broadcast_to(x, y.shape),
  "ExpandBackward0", requires=(True, False))
C("expand", "broadcast_to", lambda x: ad.broadcast_to(x, (2, 3)), [(2, 1)], lambda x: np.broadcast_to(x, (2, 3)),
  "ExpandBackward0")

C("cat", "dim0", lambda a, b: ad.cat([a, b]), [(2, 3), (1, 3)], lambda a, b: np.concatenate([a, b]),
  "CatBackward0")
C("cat", "dim1_three", lambda a, b, c: ad.cat([a, b, c], dim=1), [(2, 1), (2, 3), (2, 2)],
  lambda a, b, c: np.concatenate([a, b, c], axis=1), "CatBackward0")
C("cat", "dim_neg_3d", lambda a, b: ad.cat((a, b), -1), [(2, 2, 1), (2, 2, 3)],
  lambda a, b: np.concatenate([a, b], axis=-1), "CatBackward0")
C("cat", "1d", lambda a, b: ad.cat([a, b]), [(3,), (2,)], lambda a, b: np.concatenate([a, b]), "CatBackward0")
C("cat", "same_tensor_twice", lambda a: ad.cat([a, a], 1), [(2, 2)], lambda a: np.concatenate([a, a], 1),
  "CatBackward0")
C("cat", "second_only", lambda a, b: ad.cat([a, b]), [(1, 3), (2, 3)], lambda a, b: np.concatenate([a, b]),
  "CatBackward0", requires=(False, True))

C("stack", "dim0", lambda a, b: ad.stack([a, b]), [(2, 3), (2, 3)], lambda a, b: np.stack([a, b]),
  "StackBackward0")
C("stack", "dim1", lambda a, b, c: ad.stack([a, b, c], dim=1), [(2, 2), (2, 2), (2, 2)],
  lambda a, b, c: np.stack([a, b, c], axis=1), "StackBackward0")
C("stack", "dim_neg", lambda a, b: ad.stack((a, b), -1), [(3,), (3,)], lambda a, b: np.stack([a, b], -1),
  "StackBackward0")
C("stack", "scalars", lambda a, b: ad.stack([a, b]), [(), ()], lambda a, b: np.stack([a, b]), "StackBackward0")
C("stack", "first_only", lambda a, b: ad.stack([a, b], 2), [(2, 2), (2, 2)], lambda a, b: np.stack([a, b], 2),
  "StackBackward0", requires=(True, False))

# ===================================================================== indexing

C("getitem", "int", lambda x: x[0], [(2, 3)], lambda x: x[0], "SelectBackward0")
C("getitem", "int_neg", lambda x: x[-1], [(3, 2)], lambda x: x[-1], "SelectBackward0")
C("getitem", "two_ints", lambda x: x[1, 2], [(2, 3)], lambda x: x[1, 2], "SelectBackward0")
C("getitem", "slice_cols", lambda x: x[:, 1:3], [(2, 4)], lambda x: x[:, 1:3], "SliceBackward0")
C("getitem", "slice_step", lambda x: x[::2], [(4, 2)], lambda x: x[::2], "SliceBackward0")
C("getitem", "slice_all", lambda x: x[:], [(2, 3)], lambda x: x[:], "SliceBackward0")
C("getitem", "slice_then_int", lambda x: x[0:2, 0], [(3, 2)], lambda x: x[0:2, 0], "SelectBackward0")
C("getitem", "int_then_slice", lambda x: x[0, 1:3], [(2, 4)], lambda x: x[0, 1:3], "SliceBackward0")
C("getitem", "ellipsis_int", lambda x: x[..., 1], [(2, 2, 3)], lambda x: x[..., 1], "SelectBackward0")
C("getitem", "ellipsis", lambda x: x[...], [(2, 3)], lambda x: x[...], "AliasBackward0")
C("getitem", "none", lambda x: x[None], [(2, 3)], lambda x: x[None], "UnsqueezeBackward0")
C("getitem", "slice_none", lambda x: x[:, None], [(2, 3)], lambda x: x[:, None], "UnsqueezeBackward0")
C("getitem", "none_int", lambda x: x[None, 0], [(2, 3)], lambda x: x[None, 0], "SelectBackward0")
C("getitem", "slice_none_slice", lambda x: x[:, None, 1:], [(2, 3)], lambda x: x[:, None, 1:], "SliceBackward0")
C("getitem", "list_repeats", lambda x: x[[0, 2, 0]], [(3, 2)], lambda x: x[[0, 2, 0]], "IndexBackward0")
C("getitem", "int_tensor_repeats", lambda x: x[ad.tensor([1, 1, 0, 1])], [(2, 3)], lambda x: x[[1, 1, 0, 1]],
  "IndexBackward0")
C("getitem", "cols_list_repeats", lambda x: x[:, [2, 0, 2]], [(2, 3)], lambda x: x[:, [2, 0, 2]], "IndexBackward0")
C("getitem", "two_lists", lambda x: x[[0, 1, 1], [2, 0, 2]], [(2, 3)], lambda x: x[[0, 1, 1], [2, 0, 2]],
  "IndexBackward0")
C("getitem", "int_index_input", lambda x, i: x[i], [(3, 2), (2, 2)], lambda x, i: x[i], "IndexBackward0",
  gen=lambda rng, s: [rng.standard_normal(s[0]), np.array([[0, 2], [2, 2]])])
C("getitem", "bool_mask", lambda x, m: x[m], [(2, 3), (2, 3)], lambda x, m: x[m], "IndexBackward0",
  gen=gen_each(normal, mask()))
C("getitem", "bool_mask_rows", lambda x: x[ad.tensor([True, False, True])], [(3, 2)],
  lambda x: x[np.array([True, False, True])], "IndexBackward0")
C("getitem", "mask_from_compare", lambda x: x[x > 0], [(2, 3)], lambda x: x[x > 0], "IndexBackward0",
  gen=gen_all(away(0.0)))
C("getitem", "index_select", lambda x: ad.index_select(x, 1, ad.tensor([0, 2, 0])), [(2, 3)],
  lambda x: x[:, [0, 2, 0]], "IndexSelectBackward0")
C("getitem", "narrow", lambda x: x.narrow(1, 1, 2), [(2, 4)], lambda x: x[:, 1:3], "SliceBackward0")
C("getitem", "select", lambda x: ad.select(x, 0, -1), [(3, 2)], lambda x: x[-1], "SelectBackward0")
C("getitem", "unbind", lambda x: x.unbind(1)[2], [(2, 3)], lambda x: x[:, 2], "UnbindBackward0")
C("getitem", "split_size", lambda x: x.split(2, dim=1)[1], [(2, 3)], lambda x: x[:, 2:], "SplitBackward0")
C("getitem", "split_sizes", lambda x: ad.split(x, [1, 2])[1], [(3, 2)], lambda x: x[1:], "SplitWithSizesBackward0")
C("getitem", "chunk", lambda x: x.chunk(2)[0], [(3, 2)], lambda x: x[:2], "SplitBackward0")
C("getitem", "masked_select", lambda x: x.masked_select(x > 0), [(2, 3)], lambda x: x[x > 0],
  "MaskedSelectBackward0", gen=gen_all(away(0.0)))
C("getitem", "chained", lambda x: x[1][0:2], [(2, 3)], lambda x: x[1][0:2], "SliceBackward0")

# ---- index_grad (internal: getitem's derivative)
C("index_grad", "basic", lambda g: apply("index_grad", g, key=(slice(1, 3),), shape=(4, 2)), [(2, 2)],
  lambda g: np_index_add(g, (slice(1, 3),), (4, 2)), "IndexPutBackward0", internal=True)
C("index_grad", "int_key", lambda g: apply("index_grad", g, key=(slice(None), 1), shape=(2, 3)), [(2,)],
  lambda g: np_index_add(g, (slice(None), 1), (2, 3)), "IndexPutBackward0", internal=True)
C("index_grad", "repeats", lambda g: apply("index_grad", g, key=(np.array([0, 2, 0]),), shape=(3, 2)), [(3, 2)],
  lambda g: np_index_add(g, (np.array([0, 2, 0]),), (3, 2)), "IndexPutBackward0", internal=True)
C("index_grad", "two_arrays", lambda g: apply("index_grad", g, key=(np.array([1, 1]), np.array([0, 0])),
                                              shape=(2, 2)),
  [(2,)], lambda g: np_index_add(g, (np.array([1, 1]), np.array([0, 0])), (2, 2)), "IndexPutBackward0",
  internal=True)
C("index_grad", "bool_mask", lambda g: apply("index_grad", g, key=(np.array([[True, False], [True, True]]),),
                                             shape=(2, 2)),
  [(3,)], lambda g: np_index_add(g, (np.array([[True, False], [True, True]]),), (2, 2)), "IndexPutBackward0",
  internal=True)


# ---- index_put (x[key] = v on a non-leaf: CopySlices)
def _put_row(y, v):
    y[0] = v


def _put_col_number(y):
    y[:, 1] = 2.0


def _put_slice_bcast(y, v):
    y[1:3] = v


def _put_list(y, v):
    y[[0, 2]] = v


def _put_col(y, v):
    y[:, 1] = v


def _put_int_pair(y, v):
    y[1, 0] = v


C("copy_slices", "row", on_copy(_put_row), [(2, 3), (3,)], np_on_copy(_put_row), "torch::autograd::CopySlices")
C("copy_slices", "col_number", on_copy(_put_col_number), [(2, 3)], np_on_copy(_put_col_number), "torch::autograd::CopySlices")
C("copy_slices", "slice_bcast", on_copy(_put_slice_bcast), [(3, 2), (2,)], np_on_copy(_put_slice_bcast),
  "torch::autograd::CopySlices")
C("copy_slices", "col_tensor", on_copy(_put_col), [(2, 3), (2,)], np_on_copy(_put_col), "torch::autograd::CopySlices")
C("copy_slices", "int_pair_scalar_value", on_copy(_put_int_pair), [(2, 3), ()], np_on_copy(_put_int_pair),
  "torch::autograd::CopySlices")
C("copy_slices", "value_only", on_copy(_put_row), [(2, 3), (3,)], np_on_copy(_put_row), "torch::autograd::CopySlices",
  requires=(False, True))
C("index_put", "list_key", on_copy(_put_list), [(3, 2), (2, 2)], np_on_copy(_put_list), "IndexPutBackward0")
C("index_put", "mask_key", on_copy(lambda y, m: y.__setitem__(m, 0.0)), [(2, 3), (2, 3)],
  np_on_copy(lambda y, m: y.__setitem__(m, 0.0)), "IndexPutBackward0", gen=gen_each(normal, mask()))


# ---- views written through: CopySlices on the base, AsStrided for the view after
def _mul_view(y, w):
    y[0:2].mul_(w)


def _np_mul_view(y, w):
    y[0:2] *= w


def _view_after_base_changed(x):
    y = x * 1
    v = y[1:]
    y.mul_(1.5)
    return v


C("copy_slices", "view_mul_", on_copy(_mul_view), [(3, 2), (2,)], np_on_copy(_np_mul_view), "torch::autograd::CopySlices")
C("copy_slices", "transposed_view_add_", on_copy(lambda y, b: y.t().add_(b)), [(2, 3), (2,)],
  np_on_copy(lambda y, b: y.T.__iadd__(b)), "torch::autograd::CopySlices")
C("as_strided", "view_after_base_mul_", _view_after_base_changed, [(3, 2)], lambda x: x[1:] * 1.5,
  "AsStridedBackward0")
C("as_strided", "view_modified_in_place", lambda x: (lambda v: (v.mul_(2.0), v)[1])((x * 1)[:, 1]), [(2, 3)],
  lambda x: x[:, 1] * 2.0, "AsStridedBackward0")
_ROWS_1_2 = ((ad.OPS["getitem"], {"key": (slice(1, 3),)}),)
C("view_scatter", "rows", lambda g: apply("view_scatter", g, chain=_ROWS_1_2, shape=(4, 2)), [(2, 2)],
  lambda g: np.concatenate([np.zeros((1, 2)), g, np.zeros((1, 2))]), "AsStridedScatterBackward0", internal=True)
_EXPANDED = ((ad.OPS["expand"], {"shape": (3, 2)}),)
C("view_scatter", "expanded", lambda g: apply("view_scatter", g, chain=_EXPANDED, shape=(1, 2)), [(3, 2)],
  lambda g: g.sum(axis=0, keepdims=True), "AsStridedScatterBackward0", internal=True)

# ---- views and rearrangements
C("diagonal", "main", lambda x: x.diagonal(), [(3, 4)], lambda x: np.diagonal(x).copy(), "DiagonalBackward0")
C("diagonal", "offset_dims", lambda x: ad.diagonal(x, -1, 1, 2), [(2, 3, 3)],
  lambda x: np.diagonal(x, -1, 1, 2).copy(), "DiagonalBackward0")
C("diagonal", "written_through", on_copy(lambda y, w: y.diagonal().mul_(w)), [(3, 3), (3,)],
  np_on_copy(lambda y, w: np.fill_diagonal(y, np.diagonal(y) * w)), "torch::autograd::CopySlices")
# smooth_l1_loss / huber_loss: one row; points kept away from the band's edges (|d| = beta), where
# the derivative jumps
C("smooth_l1_loss", "mean", lambda x, t: ad.nn.functional.smooth_l1_loss(x, t), [(2, 3), (2, 3)],
  lambda x, t: np.mean(np.where(np.abs(x - t) < 1, 0.5 * (x - t) ** 2, np.abs(x - t) - 0.5)),
  "SmoothL1LossBackward0", gen=lambda rng, shapes: [np.array([[0.2, -1.5, 3.0], [0.9, 0.1, -0.4]]),
                                                     np.array([[0.0, 0.0, 1.0], [1.0, 0.5, 0.3]])])
C("smooth_l1_loss", "huber_sum", lambda x, t: ad.nn.functional.huber_loss(x, t, reduction="sum", delta=0.8),
  [(2, 3), (2, 3)],
  lambda x, t: np.sum(np.where(np.abs(x - t) < 0.8, 0.5 * (x - t) ** 2, 0.8 * (np.abs(x - t) - 0.4))),
  "HuberLossBackward0", gen=lambda rng, shapes: [np.array([[0.2, -1.5, 3.0], [0.9, 0.1, -0.4]]),
                                                 np.array([[0.0, 0.0, 1.0], [1.0, 0.5, 0.3]])])
C("smooth_l1_loss", "none_beta", lambda x, t: ad.nn.functional.smooth_l1_loss(x, t, reduction="none", beta=0.5),
  [(4,), (4,)], lambda x, t: np.where(np.abs(x - t) < 0.5, (x - t) ** 2, np.abs(x - t) - 0.25),
  "SmoothL1LossBackward0", gen=lambda rng, shapes: [np.array([0.1, -2.0, 1.3, 0.0]), np.array([0.3, 0.2, 0.1, -0.2])])
# F.pad, constant mode: widened by (before, after) per dim from the last; a negative amount narrows
C("constant_pad_nd", "widen", lambda x: ad.nn.functional.pad(x, (1, 2)), [(2, 3)],
  lambda x: np.pad(x, ((0, 0), (1, 2))), "ConstantPadNdBackward0")
C("constant_pad_nd", "narrow_and_value", lambda x: ad.nn.functional.pad(x, (1, -1, -1, 1), value=9.0), [(3, 3)],
  lambda x: np.pad(x[1:, :-1], ((0, 1), (1, 0)), constant_values=9.0), "ConstantPadNdBackward0")
C("constant_pad_nd", "two_dims_of_three", lambda x: ad.nn.functional.pad(x, (0, 1, 2, 0)), [(2, 2, 3)],
  lambda x: np.pad(x, ((0, 0), (2, 0), (0, 1))), "ConstantPadNdBackward0")
# torch.diag: a matrix's diagonal as a copy, or a vector as a square matrix (PyTorch 2.13's node names)
C("diag_copy", "main", lambda x: x.diag(), [(3, 3)], lambda x: np.diag(x).copy(), "DiagonalBackward0_copy")
C("diag_copy", "above", lambda x: ad.diag(x, 1), [(3, 4)], lambda x: np.diag(x, 1).copy(), "DiagonalBackward0_copy")
C("diag_copy", "below", lambda x: ad.diag(x, diagonal=-2), [(4, 3)], lambda x: np.diag(x, -2).copy(),
  "DiagonalBackward0_copy")
C("diag_matrix", "main", lambda v: ad.diag(v), [(3,)], lambda v: np.diag(v), "DiagEmbedBackward0")
C("diag_matrix", "offset", lambda v: v.diag(-1), [(2,)], lambda v: np.diag(v, -1), "DiagEmbedBackward0")
C("repeat", "2d", lambda x: x.repeat(2, 3), [(2, 2)], lambda x: np.tile(x, (2, 3)), "RepeatBackward0")
C("repeat", "new_dim", lambda x: ad.repeat(x, 2, 1, 2), [(3,)], lambda x: np.tile(x, (2, 1, 2)), "RepeatBackward0")
C("flip", "dims", lambda x: x.flip(0, 1) if False else ad.flip(x, [0, 1]), [(2, 3)], lambda x: np.flip(x, (0, 1)),
  "FlipBackward0")
C("roll", "dim", lambda x: x.roll(1, 1), [(2, 3)], lambda x: np.roll(x, 1, 1), "RollBackward0")
C("roll", "flat", lambda x: ad.roll(x, -2), [(2, 3)], lambda x: np.roll(x, -2), "RollBackward0")
C("roll", "two_dims", lambda x: x.roll((1, -1), (0, 1)), [(2, 3)], lambda x: np.roll(x, (1, -1), (0, 1)),
  "RollBackward0")
C("tril", "main", lambda x: x.tril(), [(3, 3)], np.tril, "TrilBackward0")
C("tril", "below", lambda x: ad.tril(x, -1), [(3, 4)], lambda x: np.tril(x, -1), "TrilBackward0")
C("triu", "above", lambda x: x.triu(1), [(3, 3)], lambda x: np.triu(x, 1), "TriuBackward0")
C("triu", "inplace_triu_", on_copy(lambda y: y.triu_()), [(2, 3)], np.triu, "TriuBackward0")
_SCATTER_IDX = np.array([[2, 0], [1, 2]])


def _np_scatter(x, src):
    out = x.copy()
    np.put_along_axis(out, _SCATTER_IDX, src[:, :2], axis=1)
    return out


C("scatter", "src", lambda x, s: x.scatter(1, ad.tensor(_SCATTER_IDX), s), [(2, 3), (2, 2)], _np_scatter,
  "ScatterBackward0")
C("scatter", "larger_src", lambda x, s: ad.scatter(x, 1, ad.tensor(_SCATTER_IDX), s), [(2, 3), (2, 3)], _np_scatter,
  "ScatterBackward0")
C("scatter", "value", lambda x: x.scatter(1, ad.tensor(_SCATTER_IDX), 7.5), [(2, 3)],
  lambda x: _np_scatter(x, np.full((2, 2), 7.5)), "ScatterBackward1")
C("masked_fill", "number", lambda x, m: x.masked_fill(m, -5.0), [(2, 3), (2, 3)], lambda x, m: np.where(m, -5.0, x),
  "MaskedFillBackward0", gen=gen_each(normal, mask()))
C("masked_fill", "tensor_value", lambda x, m, v: ad.masked_fill(x, m, v), [(2, 3), (3,), ()],
  lambda x, m, v: np.where(m, v, x), "MaskedFillBackward1", gen=gen_each(normal, mask(), normal))
C("permute", "movedim", lambda x: x.movedim(0, 2), [(1, 2, 3)], lambda x: np.moveaxis(x, 0, 2), "PermuteBackward0")
C("lerp", "tensor_weight", lambda a, b, w: a.lerp(b, w), [(3,), (3,), (3,)],
  lambda a, b, w: a + w * (b - a), "LerpBackward1", gen=gen_each(normal, normal, uniform(-1.0, 2.0)))
C("lerp", "number_weight", lambda a, b: ad.lerp(a, b, 0.3), [(2, 3), (3,)], lambda a, b: a + 0.3 * (b - a),
  "LerpBackward0")
# probabilities 0 and 1 and a fixed seed: the same draws at every difference step
C("bernoulli", "certain", lambda p: (ad.manual_seed(0), ad.bernoulli(p))[1], [(2, 3)], lambda p: p.copy(),
  "BernoulliBackward0", gen=gen_all(lambda rng, s: rng.integers(0, 2, s).astype(float)))

# ================================================================ copies, fills

C("clone", "method", lambda x: x.clone(), [(2, 3)], np.copy, "CloneBackward0")
C("clone", "fn_scalar", lambda x: ad.clone(x), [()], np.copy, "CloneBackward0")

C("fill", "fill_number", on_copy(lambda y: y.fill_(2.0)), [(2, 3)], lambda x: np.full_like(x, 2.0), "FillBackward2")
C("fill", "fill_zero_number", on_copy(lambda y: y.fill_(0.0)), [(2, 3)], np.zeros_like, "FillBackward2")
C("fill", "zero_", on_copy(lambda y: y.zero_()), [(2, 3)], np.zeros_like, "ZeroBackward0")
C("copy", "fill_0d_tensor", on_copy(lambda y, v: y.fill_(v)), [(2, 3), ()], lambda x, v: np.full_like(x, v),
  "FillBackward3")

C("copy", "same_shape", on_copy(lambda y, s: y.copy_(s)), [(2, 3), (2, 3)], lambda x, s: s.copy(), "torch::autograd::CopyBackwards")
C("copy", "bcast_src", on_copy(lambda y, s: y.copy_(s)), [(2, 3), (3,)],
  lambda x, s: np.broadcast_to(s, x.shape).copy(), "torch::autograd::CopyBackwards")
C("copy", "scalar_src", on_copy(lambda y, s: y.copy_(s)), [(2, 2), ()],
  lambda x, s: np.broadcast_to(s, x.shape).copy(), "torch::autograd::CopyBackwards")
C("copy", "src_only", on_copy(lambda y, s: y.copy_(s)), [(2, 3), (2, 3)], lambda x, s: s.copy(), "torch::autograd::CopyBackwards",
  requires=(False, True))

# ---- dtype and device moves
_POW2 = {"eps": 0.125}  # exact steps for float32 values that are multiples of 1/8
C("to_dtype", "to_float32", lambda x: x.to(ad.float32), [(2, 3)], lambda x: x.astype(np.float32),
  "ToCopyBackward0", gen=gen_all(eighths), check_kw=_POW2)
C("to_dtype", "float_method", lambda x: x.float(), [(3,)], lambda x: x.astype(np.float32), "ToCopyBackward0",
  gen=gen_all(eighths), check_kw=_POW2)
C("to_dtype", "float32_to_float64", lambda x: x.to(dtype=ad.float64), [(2, 2)], lambda x: x.astype(np.float64),
  "ToCopyBackward0", gen=gen_all(eighths32), check_kw=_POW2)
C("to_device", "cpu_to_cpu", lambda x: apply("to_device", x, device=CPU, source=CPU), [(2, 3)], np.copy,
  "ToCopyBackward0", internal=True)
C("to_device", "scalar", lambda x: apply("to_device", x, device=CPU, source=CPU), [()], np.copy,
  "ToCopyBackward0", internal=True)

# ============================================== non-differentiable (forward only)

_ties = lambda rng, s: [rng.integers(-1, 2, sh).astype(float) for sh in s]  # noqa: E731  equal values occur
C("floor_divide", "op", lambda a, b: a // b, [(2, 3), (2, 3)], np.floor_divide,
  gen=lambda rng, s: [rng.uniform(-5, 5, s[0]), rng.uniform(0.7, 2.0, s[1])])
C("floor_divide", "number", lambda a: a // 2, [(3,)], lambda a: np.floor_divide(a, 2))
C("lt", "op_bcast", lambda a, b: a < b, [(3, 1), (1, 4)], np.less, gen=_ties)
C("lt", "number", lambda a: ad.lt(a, 0.5), [(2, 3)], lambda a: a < 0.5)
C("le", "op_same", lambda a, b: a <= b, [(2, 3), (2, 3)], np.less_equal, gen=_ties)
C("le", "method", lambda a, b: a.le(b), [(2, 3), (3,)], np.less_equal, gen=_ties)
C("gt", "op_bcast", lambda a, b: a > b, [(2, 3), ()], np.greater, gen=_ties)
C("gt", "fn", lambda a, b: ad.gt(a, b), [(2, 3), (2, 3)], np.greater, gen=_ties)
C("ge", "op_same", lambda a, b: a >= b, [(2, 3), (2, 3)], np.greater_equal, gen=_ties)
C("ge", "number", lambda a: a >= 0, [(4,)], lambda a: a >= 0, gen=_ties)
C("eq", "op_same", lambda a, b: a == b, [(2, 3), (2, 3)], np.equal, gen=_ties)
C("eq", "method_bcast", lambda a, b: a.eq(b), [(3, 1), (1, 3)], np.equal, gen=_ties)
C("eq", "number", lambda a: ad.eq(a, 1.0), [(2, 3)], lambda a: a == 1.0, gen=_ties)
C("ne", "op_same", lambda a, b: a != b, [(2, 3), (2, 3)], np.not_equal, gen=_ties)
C("ne", "fn_bcast", lambda a, b: ad.ne(a, b), [(2, 3), (3,)], np.not_equal, gen=_ties)
C("logical_and", "fn_bool", lambda a, b: ad.logical_and(a, b), [(2, 3), (2, 3)], np.logical_and, gen=gen_all(mask()))
C("logical_and", "fn_float", lambda a, b: ad.logical_and(a, b), [(2, 3), (3,)], np.logical_and, gen=_ties)
C("logical_or", "fn_bcast", lambda a, b: ad.logical_or(a, b), [(3, 1), (1, 2)], np.logical_or, gen=gen_all(mask()))
C("logical_xor", "fn_float", lambda a, b: ad.logical_xor(a, b), [(2, 3), (2, 3)], np.logical_xor, gen=_ties)
C("logical_not", "fn_float", lambda a: ad.logical_not(a), [(2, 3)], np.logical_not, gen=_ties)
# & | ^ ~ << >> are PyTorch's bitwise ops: of bool tensors the logical ones, of integers bit by bit
_ints = gen_all(lambda rng, s: rng.integers(-9, 10, s))
_shifts = lambda rng, s: [rng.integers(-9, 10, s[0]), rng.integers(0, 5, s[1])]  # noqa: E731  no negative shift
C("bitwise_and", "op_bool", lambda a, b: a & b, [(2, 3), (2, 3)], np.logical_and, gen=gen_all(mask()))
C("bitwise_and", "op_int", lambda a, b: a & b, [(2, 3), (3,)], np.bitwise_and, gen=_ints)
C("bitwise_and", "number", lambda a: 6 & a, [(4,)], lambda a: np.bitwise_and(6, a), gen=_ints)
C("bitwise_or", "op_bool", lambda a, b: a | b, [(2, 3), (2, 3)], np.logical_or, gen=gen_all(mask()))
C("bitwise_or", "fn_int", lambda a, b: ad.bitwise_or(a, b), [(3, 1), (1, 2)], np.bitwise_or, gen=_ints)
C("bitwise_xor", "op_bool", lambda a, b: a ^ b, [(2, 3), (2, 3)], np.logical_xor, gen=gen_all(mask()))
C("bitwise_xor", "method_int", lambda a, b: a.bitwise_xor(b), [(2, 3), (2, 3)], np.bitwise_xor, gen=_ints)
C("bitwise_not", "op_bool", lambda m: ~m, [(2, 3)], np.logical_not, gen=gen_all(mask()))
C("bitwise_not", "op_int", lambda a: ~a, [(2, 3)], np.invert, gen=_ints)
C("bitwise_left_shift", "op", lambda a, b: a << b, [(2, 3), (2, 3)], np.left_shift, gen=_shifts)
C("bitwise_right_shift", "op", lambda a, b: a >> b, [(2, 3), (3,)], np.right_shift, gen=_shifts)
C("bitwise_right_shift", "number", lambda a: a >> 1, [(4,)], lambda a: np.right_shift(a, 1), gen=_ints)
C("isfinite", "fn", lambda x: ad.isfinite(x), [(5,)], np.isfinite,
  gen=lambda rng, s: [np.array([1.0, np.inf, -np.inf, np.nan, -2.0])])
C("isfinite", "method", lambda x: x.isfinite(), [(2, 3)], np.isfinite)
C("argmax", "all", lambda x: ad.argmax(x), [(2, 3)], np.argmax, gen=gen_all(distinct))
C("argmax", "dim1", lambda x: x.argmax(dim=1), [(2, 3)], lambda x: np.argmax(x, axis=1), gen=gen_all(distinct))
C("argmax", "dim0_keepdim", lambda x: ad.argmax(x, 0, keepdim=True), [(3, 2)],
  lambda x: np.argmax(x, axis=0, keepdims=True), gen=gen_all(distinct))
C("argmin", "all", lambda x: x.argmin(), [(2, 3)], np.argmin, gen=gen_all(distinct))
C("argmin", "dim_neg", lambda x: ad.argmin(x, dim=-1), [(2, 2, 3)], lambda x: np.argmin(x, axis=-1),
  gen=gen_all(distinct))
C("all", "bool", lambda m: ad.all(m), [(2, 3)], np.all, gen=gen_all(mask()))
C("all", "bool_true", lambda m: m.all(), [(2, 2)], np.all, gen=lambda rng, s: [np.ones(s[0], dtype=bool)])
C("all", "dim1", lambda m: ad.all(m, dim=1), [(2, 3)], lambda m: np.all(m, axis=1),
  gen=lambda rng, s: [np.array([[True, True, True], [True, False, True]])])
C("all", "float_keepdim", lambda x: x.all(dim=0, keepdim=True), [(2, 3)], lambda x: np.all(x, axis=0, keepdims=True),
  gen=_ties)
C("any", "bool", lambda m: ad.any(m), [(2, 3)], np.any, gen=gen_all(mask()))
C("any", "bool_false", lambda m: m.any(), [(3,)], np.any, gen=lambda rng, s: [np.zeros(s[0], dtype=bool)])
C("any", "dim0", lambda m: ad.any(m, dim=0), [(2, 3)], lambda m: np.any(m, axis=0),
  gen=lambda rng, s: [np.array([[False, True, False], [False, True, True]])])
C("any", "float_keepdim", lambda x: x.any(1, keepdim=True), [(2, 3)], lambda x: np.any(x, axis=1, keepdims=True),
  gen=_ties)


# the families kept in files of their own (they add to CASES through C)
import op_cases_linalg  # noqa: E402,F401
import op_cases_stats  # noqa: E402,F401
import op_cases_activations  # noqa: E402,F401
import op_cases_elem  # noqa: E402,F401
import op_cases_lin  # noqa: E402,F401
import op_cases_conv  # noqa: E402,F401

# ============================================================ known engine bugs
# Temporary: each entry marks the checks an engine bug breaks as
# xfail(strict=True), so the suite passes until the bug is fixed and then
# insists that the entry be deleted. Node names that differ from PyTorch's
# are marked on their cases above (NAME).

BUG_NORM_INF = "engine bug: norm(x, p=inf) raises OverflowError (functions.norm evaluates int(p) before p == inf)"
BUG_SETITEM = ("engine bug: x[key] = v checks v's shape against all of x instead of x[key] "
               "(functions.inplace broadcast check): y[[0, 2]] = v or y[:, 1] = v raise a size mismatch")
BUG_PUT_ALONG = ("engine bug: put_along uses put_along_axis, which overwrites at repeated indices instead of "
                 "adding (so take_along's derivative is wrong when indices repeat)")
BUG_AMAX_TIES = ("engine bug: amax(x, dim) is max(x, dim).values, so at ties the whole gradient goes to one "
                 "element; PyTorch's amax shares it evenly among the tied elements (as finite differences do)")
BUG_FILL_TENSOR = ("engine bug: y.fill_(v) with a 0-d tensor v that requires grad uses v.item(): no gradient "
                   "reaches v (PyTorch: FillBackward3, v.grad = grad.sum())")

_ALL = ("forward", "grad", "gradgrad", "node", "runs")
KNOWN_BUGS = {
}


def _mark_known_bugs():
    by_id = {c.id: c for c in CASES}
    for reason, kinds in KNOWN_BUGS.items():
        for kind, ids in kinds.items():
            for case_id in ids:
                case = by_id[case_id]
                if kind == "node" and not case.differentiable:
                    continue
                old = case.xfail.get(kind)
                case.xfail[kind] = reason if old is None else f"{old}; {reason}"


_mark_known_bugs()
import op_cases_shape  # noqa: E402,F401
import op_cases_idx  # noqa: E402,F401
import op_cases_statistics  # noqa: E402,F401
import op_cases_nnlayers  # noqa: E402,F401
import op_cases_tensorops  # noqa: E402,F401
import op_cases_losses  # noqa: E402,F401
import op_cases_special  # noqa: E402,F401
import op_cases_decomp  # noqa: E402,F401
import op_cases_numbers  # noqa: E402,F401
import op_cases_random  # noqa: E402,F401
import op_cases_nn_more  # noqa: E402,F401
import op_cases_householder  # noqa: E402,F401
import op_cases_strided  # noqa: E402,F401
