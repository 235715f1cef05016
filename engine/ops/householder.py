"""The Householder-QR rows: geqrf (LAPACK's compact QR, one row per result: a and tau),
householder_product (torch.orgqr and torch.linalg.householder_product: Q's first columns from the
reflectors) and ormqr (Q or Q^T times a matrix, from either side).

A reflector H_i = I - tau_i v_i v_i^T has v_i = e_i plus column i of `input` below the diagonal
(LAPACK's storage: the diagonal and what is above it are R's). Both products are written as the
reflectors applied one after another to a matrix -- to the first columns of the identity for
householder_product, to `other` (transposed when Q multiplies from the right) for ormqr -- each
step a whole-matrix update over the batch, X <- X - tau_i v_i (v_i^T X).

The gradient runs the same chain backwards: at a step X' = H X with cotangent G' of X',
    G = H^T G',   d tau = -(v^T G')(v^T X)^T,   d v = -tau (G' (v^T X)^T + X (v^T G')^T),
with the states X recomputed forward through the engine's ops, so that under create_graph every
quantity is differentiable and higher derivatives follow. The gradient of `input` is d v below the
diagonal (LAPACK reads nothing else). PyTorch has no derivative for geqrf, and no forward-mode one
for ormqr: so here.
"""
import numpy

from ..core.tensor import NO_PARAMS, array_module, run_op
from .decomp import Factors, _T, _cols, _const, _raw
from .numbers import _kernel
from .table import Op, call, refuse_dtype, tensor_argument, type_name


# ---------------------------------------------------------------------------- kernels

def geqrf_kernel(xp, a):
    """(a, tau) of LAPACK's geqrf: R on and above the diagonal, the reflectors' vectors below it
    (numpy's raw QR gives the same, transposed)."""
    h, tau = xp.linalg.qr(a, mode="raw")
    return xp.ascontiguousarray(xp.swapaxes(h, -1, -2)), tau


def reflector_matrix(xp, a, k):
    """The reflectors' vectors as the columns of an m x k matrix: a's first k columns below the
    diagonal, ones on it, zeros above it."""
    m = a.shape[-2]
    return xp.tril(a[..., :, :k], -1) + xp.eye(m, k, dtype=a.dtype)


def reflect(xp, v, tau, x, descending):
    """H_i X for each reflector in turn, the last one first when descending (H_1 ... H_k X) or the
    first one first (H_k ... H_1 X)."""
    k = tau.shape[-1]
    for i in (range(k - 1, -1, -1) if descending else range(k)):
        vi = v[..., :, i:i + 1]
        x = x - tau[..., i, None, None] * xp.matmul(vi, xp.matmul(xp.swapaxes(vi, -1, -2), x))
    return x


def _descending(left, transpose):
    """Whether the last reflector comes first: op(Q) C (left) is H_1 ... H_k C for Q, H_k ... H_1 C
    for Q^T; C op(Q) is (op(Q)^T C^T)^T, the other order."""
    return bool(left) != bool(transpose)


# ----------------------------------------------------------------------- the chain's gradient

def _reflector_pieces(F, v, tau, i):
    """v_i (m x 1) and tau_i (1 x 1) over the batch, in F's kind of value."""
    return _cols(F, v, i, i + 1), F.unsqueeze(_cols(F, tau, i, i + 1), dim=-1)


def _reflect_step(F, vi, ti, x):
    return x - ti * F.matmul(vi, F.matmul(_T(F, vi), x))


def reflect_grads(F, v, tau, c, g, descending):
    """The gradients (of v, m x k; of tau, k; of c) of reflect(v, tau, c, descending) given g, the
    gradient of its result: the chain's states forward, then the steps' adjoints backward."""
    k = _raw(F, tau).shape[-1]
    order = list(range(k - 1, -1, -1) if descending else range(k))
    pieces = {i: _reflector_pieces(F, v, tau, i) for i in order}
    states = [c]
    for i in order[:-1]:
        states.append(_reflect_step(F, *pieces[i], states[-1]))
    gv, gtau = [None] * k, [None] * k
    for i, x in zip(reversed(order), reversed(states)):
        vi, ti = pieces[i]
        vt = _T(F, vi)
        a, b = F.matmul(vt, g), F.matmul(vt, x)  # v^T G', v^T X: 1 x c
        gtau[i] = -F.getitem(F.matmul(a, _T(F, b)), key=(Ellipsis, 0))  # (... 1)
        gv[i] = -ti * (F.matmul(g, _T(F, b)) + F.matmul(x, _T(F, a)))
        g = g - ti * F.matmul(vi, a)  # H^T G'
    return F.cat(*gv, dim=-1), F.cat(*gtau, dim=-1), g


def _reflectors_of(F, a, k):
    """reflector_matrix in F's ops (differentiable in a under create_graph)."""
    m = _raw(F, a).shape[-2]
    eye = _const(F, F.xp.eye(m, k, dtype=_raw(F, a).dtype))
    return F.tril(_cols(F, a, 0, k), diagonal=-1) + eye


def _input_grad(F, gv, n):
    """The gradient of `input` (... x m x n) from that of the reflectors' matrix (m x k): below the
    diagonal, zero columns after the k-th."""
    ga = F.tril(gv, diagonal=-1)
    shape = _raw(F, ga).shape
    if shape[-1] < n:
        zeros = _const(F, F.xp.zeros(shape[:-1] + (n - shape[-1],), dtype=_raw(F, ga).dtype))
        ga = F.cat(ga, zeros, dim=-1)
    return ga


def _no_reflectors(F, ctx, g, out_dims):
    """The gradients of input and tau where tau is empty (the product is the identity): zeros,
    with g's leading batch dim where a batched backward gives one (g beyond the result's out_dims)."""
    raw = _raw(F, g)
    lead = raw.shape[:raw.ndim - out_dims]

    def zeros(i):
        return _const(F, F.xp.zeros(lead + tuple(ctx.shapes[i]), dtype=raw.dtype)) if ctx.needs[i] else None
    return zeros(0), zeros(1)


# ------------------------------------------------------------------------------- checks

def _dims_at_least_two(t, fname, what):
    if t.array.ndim < 2:
        raise RuntimeError(f"{fname}: {what} must have at least 2 dimensions.")


def _last(t):
    """t.shape[-1], or PyTorch's IndexError for a 0-d tensor."""
    if t.array.ndim == 0:
        raise IndexError("Dimension specified as -1 but tensor has no dimensions")
    return t.array.shape[-1]


def _same_layout(fname, input, tau, other=None):
    """PyTorch's checks that tau has one dim less than input and other as many, both with input's batch."""
    nd = input.array.ndim
    if tau.array.ndim != nd - 1:
        raise RuntimeError(f"{fname}: Expected tau to have one dimension less than input, but got tau.ndim equal to "
                           f"{tau.array.ndim} and input.ndim is equal to {nd}")
    if other is not None and other.array.ndim != nd:
        raise RuntimeError(f"{fname}: Expected other to have the same number of dimensions as input, but got "
                           f"other.ndim equal to {other.array.ndim} and input.ndim is equal to {nd}")
    batch = input.array.shape[:-2]
    given = [("tau", tau.array.shape[:-1])] + ([("other", other.array.shape[:-2])] if other is not None else [])
    for name, got in given:
        if tuple(got) != tuple(batch):
            raise RuntimeError(f"{fname}: Expected batch dimensions of {name} to be equal to input.shape[:-2], but got "
                               f"[{', '.join(str(s) for s in got)}]")


def _floating(xp, t, kernel):
    """LAPACK's kernels have float and double versions (complex too in PyTorch, not here)."""
    if t.array.dtype not in (numpy.float32, numpy.float64):
        refuse_dtype(_kernel(xp, kernel), t.array.dtype)


def householder_product_checked(input, tau):
    """torch.linalg.householder_product's (and torch.orgqr's) checks, in PyTorch's order and words,
    then the row."""
    fname = "torch.linalg.householder_product"
    _dims_at_least_two(input, fname, "input")
    m, n = input.array.shape[-2:]
    if m < n:
        raise RuntimeError(f"{fname}: input.shape[-2] must be greater than or equal to input.shape[-1]")
    if n < _last(tau):
        raise RuntimeError(f"{fname}: input.shape[-1] must be greater than or equal to tau.shape[-1]")
    _same_layout(fname, input, tau)
    if tau.array.dtype != input.array.dtype:
        raise RuntimeError(f"{fname}: tau dtype {type_name(tau.array.dtype)} does not match input dtype "
                           f"{type_name(input.array.dtype)}")
    _floating(array_module(input.device), input, "orgqr")
    return run_op(LinalgHouseholderProduct, (input, tau), NO_PARAMS)


# --------------------------------------------------------------------------------- rows

class _GeqrfResult(Op):
    """What geqrf's two rows share: PyTorch's one node, which has no derivative."""
    node = "GeqrfBackward0"
    formula = call()

    def backward(F, ctx, g, **params):
        raise NotImplementedError("the derivative for 'geqrf' is not implemented.")

    def jvp(F, ctx, tangents, *saved, **params):
        raise NotImplementedError("Trying to use forward AD with geqrf that does not support it because it has not "
                                  "been implemented yet.")


class Geqrf(_GeqrfResult):
    """LAPACK's compact QR: (a, tau) with R on and above a's diagonal, Householder vectors below.

    a holds R on and above its diagonal and the Householder vectors below it; tau the reflectors'
    scalars (Q = H_1 ... H_k, H_i = I - tau_i v_i v_i^T). Batches over leading dims. No derivative,
    as PyTorch: backward through either result raises. This row is a; tau is the next."""
    name = "geqrf"
    signature = "geqrf(Tensor input) -> (Tensor a, Tensor tau)"
    method = True

    def forward(xp, x, factors=None):
        return factors[0].copy() if factors is not None else geqrf_kernel(xp, x)[0]

    def call(input):
        _dims_at_least_two(input, "torch.geqrf", "input")
        xp = array_module(input.device)
        _floating(xp, input, "geqrf")
        params = {"factors": Factors(geqrf_kernel(xp, input.array))}  # (one factorisation for both rows)
        return run_op(Geqrf, (input,), params), run_op(GeqrfTau, (input,), params)


class GeqrfTau(_GeqrfResult):
    """geqrf's tau (the reflectors' scalars)."""
    name = "geqrf_tau"
    names = ()

    def forward(xp, x, factors=None):
        return factors[1].copy() if factors is not None else geqrf_kernel(xp, x)[1]


class LinalgHouseholderProduct(Op):
    """The first n columns of the product of Householder reflectors (geqrf's a and tau).

    Q = H_1 H_2 ... H_k, H_i = I - tau_i v_i v_i^T, v_i = e_i plus input's column i below the
    diagonal; input m x n with m >= n >= k = tau.shape[-1]. Batches over leading dims (also
    torch.linalg.householder_product)."""
    name = "linalg_householder_product"
    names = ("orgqr",)
    signature = "orgqr(Tensor input, Tensor input2) -> Tensor"
    method = True
    node = "LinalgHouseholderProductBackward0"
    formula = call()
    saves = (0, 1)
    batched = True  # (g's leading batch dim broadcasts through every step of the chain)

    def forward(xp, a, tau):
        m, n = a.shape[-2:]
        k = tau.shape[-1]
        eye = xp.eye(m, n, dtype=a.dtype)
        if k == 0:  # the identity's columns, for every matrix of the batch
            return xp.array(xp.broadcast_to(eye, a.shape))
        return reflect(xp, reflector_matrix(xp, a, k), tau, eye, descending=True)

    def backward(F, ctx, g, a, tau):
        m, n = ctx.shapes[0][-2:]
        k = ctx.shapes[1][-1]
        if k == 0:
            return _no_reflectors(F, ctx, g, len(ctx.shapes[0]))
        eye = _const(F, F.xp.eye(m, n, dtype=_raw(F, a).dtype))
        gv, gtau, _ = reflect_grads(F, _reflectors_of(F, a, k), tau, eye, g, descending=True)
        return (_input_grad(F, gv, n) if ctx.needs[0] else None), (gtau if ctx.needs[1] else None)

    def call(input, input2):
        return householder_product_checked(tensor_argument(input, "orgqr", "input", 1),
                                           tensor_argument(input2, "orgqr", "input2", 2))


class Ormqr(Op):
    """op(Q) times other, or other times op(Q), Q a product of Householder reflectors.

    Q = H_1 H_2 ... H_k (mn x mn) is given by reflectors (input, tau) as geqrf gives them; left:
    op(Q) @ other, else other @ op(Q); transpose: op(Q) = Q^T. Batches over leading dims."""
    name = "ormqr"
    signature = "ormqr(Tensor input, Tensor input2, Tensor input3, bool left=True, bool transpose=False) -> Tensor"
    method = True
    node = "OrmqrBackward0"
    formula = call("left", "transpose")
    saves = (0, 1, 2)
    save_for = ((0, 1, 2), (0, 1, 2), (0, 1))
    batched = True

    def forward(xp, a, tau, c, left=True, transpose=False):
        v = reflector_matrix(xp, a, tau.shape[-1])
        x = reflect(xp, v, tau, c if left else xp.swapaxes(c, -1, -2), _descending(left, transpose))
        return xp.array(x if left else xp.swapaxes(x, -1, -2), order="C")  # (its own memory, also for k = 0)

    def backward(F, ctx, g, a, tau, c, left=True, transpose=False):
        k = ctx.shapes[1][-1]
        if k == 0:
            return _no_reflectors(F, ctx, g, len(ctx.shapes[2])) + (g if ctx.needs[2] else None,)
        if not (ctx.needs[0] or ctx.needs[1]):  # other's alone: op(Q)^T G (G op(Q)^T), no chain kept
            return None, None, F.ormqr(a, tau, g, left=left, transpose=not transpose)
        if not left:
            c, g = _T(F, c), _T(F, g)
        gv, gtau, gc = reflect_grads(F, _reflectors_of(F, a, k), tau, c, g, _descending(left, transpose))
        ga = _input_grad(F, gv, ctx.shapes[0][-1]) if ctx.needs[0] else None
        gc = (gc if left else _T(F, gc)) if ctx.needs[2] else None
        return ga, (gtau if ctx.needs[1] else None), gc

    def jvp(F, ctx, tangents, *saved, **params):
        raise NotImplementedError("Trying to use forward AD with ormqr that does not support it because it has not "
                                  "been implemented yet.")

    def call(input, input2, input3, left, transpose):
        fname = "torch.ormqr"
        input = tensor_argument(input, "ormqr", "input", 1)
        tau = tensor_argument(input2, "ormqr", "input2", 2)
        other = tensor_argument(input3, "ormqr", "input3", 3)
        _dims_at_least_two(input, fname, "input")
        _dims_at_least_two(other, fname, "other")
        side = -2 if left else -1
        if other.array.shape[side] != input.array.shape[-2]:
            raise RuntimeError(f"{fname}: other.shape[{side}] must be equal to input.shape[-2]")
        if _last(tau) != min(other.array.shape[side], input.array.shape[-1]):
            raise RuntimeError(f"{fname}: tau.shape[-1] must be equal to min(other.shape[{side}], input.shape[-1])")
        _same_layout(fname, input, tau, other)
        for name, t in (("tau", tau), ("other", other)):
            if t.array.dtype != input.array.dtype:
                raise RuntimeError(f"{fname}: Expected input and {name} to have the same dtype, but input has dtype"
                                   f"{type_name(input.array.dtype)} and {name} has dtype {type_name(t.array.dtype)}")
        _floating(array_module(input.device), input, "ormqr")
        return run_op(Ormqr, (input, tau, other), {"left": bool(left), "transpose": bool(transpose)})
