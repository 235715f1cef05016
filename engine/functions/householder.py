"""torch.linalg.householder_product (engine/linalg.py gives it to the namespace): torch.orgqr's row
(engine/ops/householder.py) under torch.linalg's name, its parameters input and tau. torch.geqrf,
torch.orgqr and torch.ormqr are the rows' own functions."""
from ..ops.householder import householder_product_checked
from ..ops.table import tensor_argument

__all__ = []  # (nothing at torch's top level: the family's functions there come from its rows)


def householder_product(input, tau):
    """The first n columns of the product of Householder reflectors (geqrf's a and tau).

    Q = H_1 H_2 ... H_k, H_i = I - tau_i v_i v_i^T, v_i = e_i plus input's column i below the
    diagonal; input m x n with m >= n >= k = tau.shape[-1]. Batches over leading dims."""
    return householder_product_checked(tensor_argument(input, "linalg_householder_product", "input", 1),
                                       tensor_argument(tau, "linalg_householder_product", "tau", 2))
