"""The decomposition cases whose PyTorch results tests/golden/gen_decomp.py records (in
tests/golden/decomp.json) and tests/engine/ops/test_decomp_golden.py replays on the engine.

Each case is a scalar loss of its inputs, written once for both libraries: `L` is torch.linalg or
autodiff.engine.linalg, `lib` torch or autodiff.engine. A result with sign freedom (U, Vh, the
eigenvectors: LAPACK builds may choose other signs) enters squared, so the loss is the same whatever
the choice. The weights make every entry count differently."""
import numpy as np


def w(lib, y):
    """sum(y * c) with weights c = 1, 2, ..., 5, 1, 2, ... over y's entries."""
    c = (lib.arange(y.numel(), dtype=y.dtype) % 5 + 1).reshape(tuple(y.shape))
    return (y * c).sum()


def tt(x):
    return x.transpose(-1, -2)


def _spd(rng, shape):
    x = rng.standard_normal(shape)
    return x @ np.swapaxes(x, -1, -2) + shape[-1] * np.eye(shape[-1])


def _dominant(rng, shape):
    return rng.standard_normal(shape) + max(shape[-2:]) * np.eye(*shape[-2:])


def _normal(rng, shape):
    return rng.standard_normal(shape)


def _big(rng, shape):
    return 3.0 * rng.standard_normal(shape)


KINDS = {"spd": _spd, "dominant": _dominant, "normal": _normal, "big": _big}

# name: (loss(L, lib, *inputs), [(kind, shape) of each input])
CASES = {
    "cholesky": (lambda L, lib, a: w(lib, L.cholesky(a)), [("spd", (3, 3))]),
    "cholesky_upper_batched": (lambda L, lib, a: w(lib, L.cholesky(a, upper=True)), [("spd", (2, 3, 3))]),
    "qr_tall": (lambda L, lib, a: w(lib, L.qr(a).Q) + w(lib, L.qr(a).R), [("normal", (5, 3))]),
    "qr_wide": (lambda L, lib, a: w(lib, L.qr(a).Q) + w(lib, L.qr(a).R), [("normal", (3, 5))]),
    "qr_complete_square_batched": (lambda L, lib, a: w(lib, L.qr(a, mode="complete").Q)
                                   + w(lib, L.qr(a, mode="complete").R), [("normal", (2, 3, 3))]),
    "svdvals": (lambda L, lib, a: w(lib, L.svdvals(a)), [("normal", (4, 3))]),
    "svd_squares_tall": (lambda L, lib, a: w(lib, L.svd(a, full_matrices=False).U ** 2)
                         + w(lib, L.svd(a, full_matrices=False).Vh ** 2) + w(lib, L.svd(a).S), [("normal", (5, 3))]),
    "svd_squares_wide_batched": (lambda L, lib, a: w(lib, L.svd(a, full_matrices=False).U ** 2)
                                 + w(lib, L.svd(a, full_matrices=False).Vh ** 2), [("normal", (2, 3, 4))]),
    "svd_full_product": (lambda L, lib, a: w(lib, L.svd(a).U[..., :, :3] @ L.svd(a).Vh), [("normal", (4, 3))]),
    "eigh": (lambda L, lib, a: w(lib, L.eigh(a).eigenvalues) + w(lib, L.eigh(a).eigenvectors ** 2),
             [("normal", (4, 4))]),
    "eigh_upper_batched": (lambda L, lib, a: w(lib, L.eigvalsh(a, UPLO="U")) + w(lib, L.eigh(a, UPLO="U")[1] ** 2),
                           [("normal", (2, 3, 3))]),
    "solve_triangular": (lambda L, lib, a, b: w(lib, L.solve_triangular(a, b, upper=True)),
                         [("dominant", (3, 3)), ("normal", (3, 2))]),
    "solve_triangular_right_unit": (lambda L, lib, a, b: w(lib, L.solve_triangular(a, b, upper=False, left=False,
                                                                                    unitriangular=True)),
                                    [("dominant", (2, 3, 3)), ("normal", (2, 3))]),
    "lu_factor_square": (lambda L, lib, a: w(lib, L.lu_factor(a).LU), [("normal", (4, 4))]),
    "lu_factor_tall_batched": (lambda L, lib, a: w(lib, L.lu_factor(a).LU), [("normal", (2, 5, 3))]),
    "lu_wide": (lambda L, lib, a: w(lib, L.lu(a).L) + w(lib, L.lu(a).U), [("normal", (3, 5))]),
    "lu_solve": (lambda L, lib, a, b: w(lib, L.lu_solve(*L.lu_factor(a), b)), [("dominant", (3, 3)), ("normal", (3, 2))]),
    "lu_solve_adjoint_right": (lambda L, lib, a, b: w(lib, L.lu_solve(*L.lu_factor(a), b, adjoint=True, left=False)),
                               [("dominant", (2, 3, 3)), ("normal", (2, 3))]),
    "matrix_exp": (lambda L, lib, a: w(lib, L.matrix_exp(a)), [("normal", (3, 3))]),
    "matrix_exp_squared_batched": (lambda L, lib, a: w(lib, lib.matrix_exp(a)), [("big", (2, 3, 3))]),
    "pinv_tall": (lambda L, lib, a: w(lib, L.pinv(a)), [("normal", (5, 3))]),
    "pinv_wide_batched": (lambda L, lib, a: w(lib, lib.pinverse(a)), [("normal", (2, 3, 4))]),
    "pinv_hermitian": (lambda L, lib, a: w(lib, L.pinv(a + tt(a), hermitian=True)), [("normal", (3, 3))]),
    "lstsq": (lambda L, lib, a, b: w(lib, L.lstsq(a, b).solution), [("normal", (5, 3)), ("normal", (5, 2))]),
    "lstsq_residuals": (lambda L, lib, a, b: w(lib, L.lstsq(a, b, driver="gelsd").residuals),
                        [("normal", (5, 3)), ("normal", (5, 2))]),
    "multi_dot": (lambda L, lib, a, b, c: w(lib, L.multi_dot([a, b, c])),
                  [("normal", (3,)), ("normal", (3, 4)), ("normal", (4, 2))]),
    "vecdot": (lambda L, lib, a, b: w(lib, L.vecdot(a, b)), [("normal", (2, 3)), ("normal", (3,))]),
    "cond": (lambda L, lib, a: L.cond(a) + L.cond(a, -2), [("normal", (3, 3))]),
    "matrix_norms": (lambda L, lib, a: w(lib, L.matrix_norm(a, 2)) + w(lib, L.matrix_norm(a, "nuc"))
                     + w(lib, L.matrix_norm(a, -2)), [("normal", (2, 4, 3))]),
}


def make_inputs(name):
    """The case's inputs (float64 arrays), drawn with a seed of its own."""
    rng = np.random.default_rng(sum(map(ord, name)) * 7919)
    return [KINDS[kind](rng, shape) for kind, shape in CASES[name][1]]


def directions(grads):
    """The fixed directions v of the second-order products d/dx sum(grad * v)."""
    return [np.cos(np.arange(g.size) + 0.5 * i).reshape(g.shape) for i, g in enumerate(grads)]
