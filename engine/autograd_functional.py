"""torch.autograd.functional: derivatives of a function of tensors -- the whole matrices (jacobian,
hessian: engine/functional.py) and their products with a vector (vjp, jvp, vhp, hvp:
engine/functional_products.py)."""
from .functional import jacobian, hessian
from .functional_products import vjp, jvp, vhp, hvp

__all__ = ["jacobian", "hessian", "vjp", "jvp", "vhp", "hvp"]
