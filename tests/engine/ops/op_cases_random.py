"""Op cases of the random rows whose values are not random in the inputs that carry a gradient
(see tests/engine/ops/op_cases.py for what a case is).

normal and poisson pass zeros back, as PyTorch's (NormalBackward1/2/3, PoissonBackward0): not the
derivative of their draws. Their cases apply the row with the draws given, chosen so that the result
does not move with the inputs (normal: draws = (C - mean) / std, so the result is C; poisson: fixed
counts), so finite differences see zero too -- and any gradient the row passed back would show."""
import numpy as np  # noqa: F401

import autodiff.engine as ad  # noqa: F401
from op_cases import C, gen_each, positive  # noqa: F401

_TARGET = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]])  # what the normal cases' draws make of any mean, std
_COUNTS = np.array([[0.0, 3.0, 1.0], [2.0, 5.0, 0.0]])  # the poisson cases' counts


def _detached(x):
    return x.detach() if isinstance(x, ad.Tensor) else x


def _normal_to_target(mean, std):
    """The normal row on the draws that take mean + std * draws to _TARGET (its shape: the inputs broadcast),
    made on the inputs' device."""
    device = (mean if isinstance(mean, ad.Tensor) else std).device
    draws = (ad.tensor(_TARGET, device=device) - _detached(mean)) / _detached(std)
    return ad.core.apply(ad.OPS["normal"], mean, std, draws=draws.array)


def _poisson_counts(rate):
    """The poisson row on the fixed counts, on the rates' device."""
    return ad.core.apply(ad.OPS["poisson"], rate, samples=ad.tensor(_COUNTS, device=rate.device).array)


_normal, _positive = (lambda rng, s: rng.standard_normal(s)), positive()
C("normal", "tensors", _normal_to_target, [(2, 3), (3,)], lambda m, s: _TARGET.copy(), "NormalBackward3",
  gen=gen_each(_normal, _positive))
C("normal", "tensor_mean", lambda m: _normal_to_target(m, 2.0), [(2, 3)], lambda m: _TARGET.copy(),
  "NormalBackward1")
C("normal", "tensor_std", lambda s: _normal_to_target(0.5, s), [(2, 1)], lambda s: _TARGET.copy(),
  "NormalBackward2", gen=gen_each(_positive))
C("poisson", "given_counts", _poisson_counts, [(2, 3)],
  lambda r: _COUNTS.copy(), "PoissonBackward0", gen=gen_each(_positive))
