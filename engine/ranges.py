"""arange, linspace and logspace element for element as PyTorch's CPU kernels make them.

numpy's arange and linspace round differently from PyTorch's kernels: a tutorial's
`torch.linspace(-1, 1, 20)` came out one bit off in a third of its elements, and so did
everything computed from it. PyTorch's kernels (aten/src/ATen/native/cpu/
RangeFactoriesKernel.cpp, built for AVX2 with the compiler fusing `a + b * c` into one
fused multiply-add):

- linspace, element by element: the first half `start + step * i`, the second half
  `end - step * (steps - 1 - i)`, in the dtype's own arithmetic (double for integers);
- arange, in double (PyTorch's accumulate type for float and double): pairs of vector
  blocks (32 bytes each) from their first element `start + step * i` (rounded to the
  dtype) plus `k * step`, then the remaining elements one by one.

- logspace (RangeFactories.cpp, compiled without fused multiply-adds): start and end in the
  dtype, then in double the exponents, each half as linspace's but `start + step * i` rounded
  twice, and the powers, rounded (or truncated) to the dtype.

Each `x + y * z` of the first two is rounded once, as a fused multiply-add is (fma.py). An arange of more than 32,768
elements is split between PyTorch's threads, which moves where its blocks start; this
follows one thread.
"""
import numpy

from .fma import fma, fma32

VECTOR_BYTES = 32  # AVX2's register: PyTorch's default CPU kernels on x86


def linspace(start, end, steps, np_dtype):
    """torch.linspace(start, end, steps) in `np_dtype` (a numpy dtype)."""
    dtype = numpy.dtype(np_dtype)
    if steps == 0:
        return numpy.empty(0, dtype)
    if dtype.kind == "c" or (dtype.kind == "f" and dtype.itemsize < 4):  # no kernel of ours to match
        return numpy.linspace(start, end, steps).astype(dtype)
    t = dtype.type
    lo, hi = t(start), t(end)
    if steps == 1:
        return numpy.full(1, lo, dtype)
    i = numpy.arange(steps, dtype=numpy.int64)
    up = i < steps // 2
    down_count = steps - 1 - i
    with numpy.errstate(all="ignore"):
        if dtype == numpy.float32:
            step = (hi - lo) / numpy.float32(steps - 1)
            counts = numpy.where(up, i, down_count).astype(numpy.float32)
            return fma32(numpy.where(up, step, -step), counts, numpy.where(up, lo, hi))
        # double, and integers through double (PyTorch's step type for them)
        step = (numpy.float64(hi) - numpy.float64(lo)) / numpy.float64(steps - 1)
        values = fma(numpy.where(up, step, -step), numpy.where(up, i, down_count).astype(numpy.float64),
                     numpy.where(up, numpy.float64(lo), numpy.float64(hi)))
    return values.astype(dtype)


def arange(start, step, n, np_dtype):
    """torch.arange's n elements from `start` by `step` in a floating `np_dtype`."""
    dtype = numpy.dtype(np_dtype)
    start, step = numpy.float64(start), numpy.float64(step)
    if dtype.itemsize < 4:  # float16: no kernel of ours to match, one by one in double
        return fma(step, numpy.arange(n, dtype=numpy.float64), start).astype(dtype)
    width = VECTOR_BYTES // dtype.itemsize
    tail = (n // (2 * width)) * (2 * width)
    out = numpy.empty(n, dtype)
    if tail:
        firsts = numpy.arange(0, tail, width, dtype=numpy.float64)
        base = fma(step, firsts, start).astype(dtype).astype(numpy.float64)  # each block's first element
        k = numpy.arange(width, dtype=numpy.float64)
        out[:tail] = fma(k[None, :], step, base[:, None]).astype(dtype).reshape(-1)
    out[tail:] = fma(step, numpy.arange(tail, n, dtype=numpy.float64), start).astype(dtype)
    return out


def logspace(start, end, steps, base, np_dtype):
    """torch.logspace(start, end, steps, base) in a real `np_dtype`: start and end in the dtype,
    then exponents and powers in double (PyTorch's kernel promotes), rounded to the dtype."""
    dtype = numpy.dtype(np_dtype)
    if steps == 0:
        return numpy.empty(0, dtype)
    f64 = numpy.float64
    if steps == 1:  # PyTorch fills with the double power
        return numpy.full(1, numpy.power(f64(base), f64(start)), f64).astype(dtype)
    lo, hi = dtype.type(start), dtype.type(end)
    with numpy.errstate(all="ignore"):
        step = f64(hi - lo) / f64(steps - 1)
        i = numpy.arange(steps)
        up = i < steps // 2
        exponents = numpy.where(up, f64(lo) + step * i, f64(hi) - step * (steps - 1 - i))
        return numpy.power(f64(base), exponents).astype(dtype)
