"""The determinant as PyTorch's CPU build computes it, for small matrices.

numpy's det is sign * exp(log|det|) from LAPACK's LU, which rounds where a product of the LU's
diagonal need not: numpy gives det([[1, 2], [3, 4]]) = -2.0000000000000004, PyTorch -2. PyTorch
factors the transpose (LAPACK's column-major view of a row-major array) with MKL's getrf and
multiplies the diagonal in order, times the pivots' sign. Reproduced here with numpy for up to
16 rows, where MKL's factorisation is the textbook right-looking elimination: partial pivoting
on the first largest |value|, the column below a pivot scaled by the pivot's reciprocal (divided
by it in the last two steps of a matrix of up to 4 rows), and rank-1 updates each rounded on its
own. Checked bit for bit against PyTorch 2.13 on random and integer matrices of 1 to 16 rows;
larger matrices go through MKL's blocked code, which this does not follow (numpy's det then).
"""
import numpy

LARGEST = 16
_FLOATS = (numpy.dtype(numpy.float32), numpy.dtype(numpy.float64))


def lu_det(a):
    """det of numpy array `a` (..., n, n), float32 or float64, n <= LARGEST, or None where the
    emulation does not apply."""
    if a.__class__ is not numpy.ndarray or a.dtype not in _FLOATS or not 0 < a.shape[-1] <= LARGEST:
        return None
    n = a.shape[-1]
    batch = a.shape[:-2]
    lu = numpy.swapaxes(a, -1, -2).reshape((-1, n, n)).copy()
    rows = numpy.arange(lu.shape[0])
    sign = numpy.ones(lu.shape[0], dtype=a.dtype)
    one = a.dtype.type(1)
    with numpy.errstate(all="ignore"):
        for k in range(n - 1):
            # LAPACK's idamax: the first of the largest |values| (a NaN is never larger)
            column = numpy.abs(lu[:, k:, k])
            p = k + numpy.argmax(numpy.where(numpy.isnan(column), -1, column), axis=1)
            swap = p != k
            if swap.any():
                top = lu[rows, k].copy()
                lu[rows, k] = lu[rows, p]
                lu[rows, p] = top
                sign[swap] = -sign[swap]
            pivot = lu[:, k, k:k + 1]
            nonzero = pivot != 0
            below = lu[:, k + 1:, k]
            scaled = below / pivot if n <= 4 and n - k <= 2 else below * (one / pivot)
            lu[:, k + 1:, k] = numpy.where(nonzero, scaled, below)
            update = lu[:, k + 1:, k + 1:] - lu[:, k + 1:, k:k + 1] * lu[:, k:k + 1, k + 1:]
            lu[:, k + 1:, k + 1:] = numpy.where(nonzero[:, :, None], update, lu[:, k + 1:, k + 1:])
        det = lu[:, 0, 0].copy()
        for k in range(1, n):
            det = det * lu[:, k, k]
        det = det * sign
    return det.reshape(batch) if batch else det[0]
