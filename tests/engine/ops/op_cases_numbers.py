"""Op cases of the number rows (see tests/engine/ops/op_cases.py for what a case is): sgn, gcd,
lcm, ldexp, nextafter, frexp, isreal, argwhere and fill's tensor-value row. The references are
computed another way than the kernels: gcd and lcm by Python's math.gcd / math.lcm, nextafter by
stepping the float's bit pattern, frexp's mantissa from log2. Node names are PyTorch 2.13's."""
import math

import numpy as np

import autodiff.engine as ad  # noqa: F401
from op_cases import C, away, gen_each, on_copy, uniform

_math_gcd = np.vectorize(math.gcd, otypes=[np.int64])
_math_lcm = np.vectorize(math.lcm, otypes=[np.int64])


def np_nextafter(x, y):
    """The float64 next to x toward y: x's bit pattern one step away from zero (x moving outward)
    or toward it (x moving inward); y where they are equal. x must not be 0."""
    outward = (y > x) == (x > 0)
    stepped = (x.view(np.int64) + np.where(outward, 1, -1)).view(np.float64)
    return np.where(x == y, y, stepped)


def np_mantissa(x):
    """x / 2**e with e = floor(log2 |x|) + 1, so |mantissa| is in [0.5, 1) (x not 0)."""
    return x / 2.0 ** (np.floor(np.log2(np.abs(x))) + 1)


def _ints(lo, hi):
    return lambda rng, shape: rng.integers(lo, hi, shape)


def _int_pairs(rng, shapes):
    """Whole numbers with common factors (multiples of 2 and 3), signs and zeros among them."""
    a, b = (rng.choice([0, 1, -2, 3, 4, -6, 8, 9, 12, -18, 35], size=s) for s in shapes)
    return [a, b]


# away from the jumps of frexp's mantissa (the powers of two) and from 0
_between_powers = away(-4.0, -2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, 4.0, margin=0.08, lo=-6.0, hi=6.0)
_nonzero = away(0.0, margin=0.3)

C("sgn", "fn", lambda x: ad.sgn(x), [(2, 3)], np.sign, "SgnBackward0", gen=gen_each(_nonzero))
C("sgn", "method", lambda x: x.sgn(), [(5,)], np.sign, "SgnBackward0", gen=gen_each(_nonzero))
C("sgn", "inplace", on_copy(lambda y: y.sgn_()), [(4,)], np.sign, "SgnBackward0", gen=gen_each(_nonzero))

C("gcd", "fn", lambda a, b: ad.gcd(a, b), [(2, 3), (2, 3)], _math_gcd, gen=_int_pairs)
C("gcd", "method_bcast", lambda a, b: a.gcd(b), [(3, 1), (4,)], _math_gcd, gen=_int_pairs)
C("gcd", "inplace", lambda a, b: a.clone().gcd_(b), [(2, 3), (3,)], _math_gcd, gen=_int_pairs)
C("lcm", "fn", lambda a, b: ad.lcm(a, b), [(2, 3), (2, 3)], _math_lcm, gen=_int_pairs)
C("lcm", "method_bcast", lambda a, b: a.lcm(b), [(3, 1), (4,)], _math_lcm, gen=_int_pairs)
C("lcm", "inplace", lambda a, b: a.clone().lcm_(b), [(2, 3), (3,)], _math_lcm, gen=_int_pairs)

C("ldexp", "fn", lambda x, e: ad.ldexp(x, e), [(2, 3), (2, 3)], lambda x, e: x * 2.0 ** e, "LdexpBackward0",
  gen=gen_each(uniform(-2, 2), uniform(-3, 3)))
C("ldexp", "method_bcast", lambda x, e: x.ldexp(e), [(2, 3), (3,)], lambda x, e: x * 2.0 ** e, "LdexpBackward0")
C("ldexp", "int_exponent", lambda x, e: ad.ldexp(x, e), [(2, 3), (3,)], lambda x, e: x * 2.0 ** e, "LdexpBackward0",
  gen=gen_each(uniform(-2, 2), _ints(-4, 5)))
C("ldexp", "inplace", on_copy(lambda y, e: y.ldexp_(e)), [(4,), (4,)], lambda x, e: x * 2.0 ** e, "LdexpBackward0")

C("nextafter", "fn", lambda x, y: ad.nextafter(x, y), [(2, 3), (2, 3)], np_nextafter, "NextafterBackward0",
  gen=gen_each(_nonzero, _nonzero))
C("nextafter", "method_bcast", lambda x, y: x.nextafter(y), [(2, 3), (3,)], np_nextafter, "NextafterBackward0",
  gen=gen_each(_nonzero, _nonzero))
C("nextafter", "inplace", on_copy(lambda x, y: x.nextafter_(y)), [(4,), (4,)], np_nextafter, "NextafterBackward0",
  gen=gen_each(_nonzero, _nonzero))

C("frexp", "mantissa", lambda x: ad.frexp(x).mantissa, [(2, 3)], np_mantissa, "FrexpBackward0",
  gen=gen_each(_between_powers))
C("frexp", "method", lambda x: x.frexp()[0], [(5,)], np_mantissa, "FrexpBackward0", gen=gen_each(_between_powers))

C("isreal", "fn", lambda x: ad.isreal(x), [(2, 3)], lambda x: np.ones(x.shape, dtype=bool))
C("isreal", "method_int", lambda x: x.isreal(), [(4,)], lambda x: np.ones(x.shape, dtype=bool),
  gen=gen_each(_ints(-3, 3)))

_sparse = lambda rng, shape: rng.integers(-1, 2, shape) * rng.standard_normal(shape)  # noqa: E731  zeros among them
C("argwhere", "fn", lambda x: ad.argwhere(x), [(3, 4)], lambda x: np.stack(np.nonzero(x), axis=1),
  gen=gen_each(_sparse))
C("argwhere", "method_3d", lambda x: x.argwhere(), [(2, 3, 2)], lambda x: np.stack(np.nonzero(x), axis=1),
  gen=gen_each(_sparse))

C("fill_value", "tensor_value", lambda x, v: ad.fill(x, v), [(2, 3), ()], lambda x, v: np.full(x.shape, v),
  "FillBackward1")
C("fill_value", "value_only", lambda x, v: ad.fill(x, v), [(4,), ()], lambda x, v: np.full(x.shape, v),
  "FillBackward1", requires=(False, True))
