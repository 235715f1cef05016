"""A whole-tensor sum in the order PyTorch's CPU kernel adds (aten/src/ATen/native/cpu/SumKernel.cpp).

Floating-point addition depends on its order, and numpy's pairwise sum is not PyTorch's: a
tutorial's `loss.item()` printed in full came out a bit off. PyTorch sums a contiguous run
in AVX2 vectors (8 floats or 4 doubles), four vectors at a time, through a cascade of four
accumulator levels (each level takes 2**k steps of the one below), then adds the leftover
vectors, the four accumulators, the leftover elements one by one and last the vector's
lanes; a run shorter than one vector goes the same way element by element. Reproduced here
with numpy, every addition in the dtype, for runs under 32,768 elements -- longer ones PyTorch
splits between its threads, and so depend on how many there are (numpy's sum then).
"""
import numpy

LARGEST = 32767       # PyTorch sums fewer than GRAIN_SIZE = 32768 elements on one thread
VECTOR_BYTES = 32     # AVX2
_ILP = 4              # vectors summed side by side
_LEVELS = 4           # cascade levels


def exact_sum(x):
    """PyTorch's sum of every element of numpy array `x` (float32 or float64, fewer than
    32,768 elements, laid out contiguously in some order), or None where it does not apply."""
    if x.__class__ is not numpy.ndarray or x.dtype not in _FLOATS or x.size > LARGEST:
        return None
    if not (x.flags.c_contiguous or x.flags.f_contiguous):
        return None
    flat = x.ravel(order="K")  # memory order, as PyTorch's iterator walks it
    lanes = VECTOR_BYTES // x.dtype.itemsize
    n = flat.size
    dtype = x.dtype.type
    if n < lanes:  # the element-by-element form of the same cascade
        return dtype(_row_sum(flat.reshape(n, 1))[0])
    whole = n // lanes
    vector_sum = _row_sum(flat[:whole * lanes].reshape(whole, lanes))
    total = dtype(0)
    for v in flat[whole * lanes:]:   # the elements after the last whole vector, in turn
        total = dtype(total + v)
    for v in vector_sum:              # then the lanes, in turn
        total = dtype(total + v)
    return total


_FLOATS = (numpy.dtype(numpy.float32), numpy.dtype(numpy.float64))


def _row_sum(items):
    """PyTorch's row_sum over `items` (size, lanes): four side by side through the cascade,
    the leftovers into the first, then the other three into it."""
    size = items.shape[0]
    groups = size // _ILP
    partial = _cascade(items[:groups * _ILP].reshape(groups, _ILP, items.shape[1]))
    first = partial[0]
    for r in range(groups * _ILP, size):
        first = first + items[r]
    for k in range(1, _ILP):
        first = first + partial[k]
    return first


def _cascade(rows):
    """PyTorch's multi_row_sum: (size, ILP, lanes) summed into (ILP, lanes) through four levels."""
    size = rows.shape[0]
    power = max(4, _ceil_log2(size) // _LEVELS)
    step = 1 << power
    acc = [numpy.zeros(rows.shape[1:], rows.dtype) for _ in range(_LEVELS)]
    whole = size // step * step
    if whole:
        # level 0 restarts from zero for each run of `step` rows: sequential sums, all runs at once
        runs = numpy.add.accumulate(rows[:whole].reshape(whole // step, step, *rows.shape[1:]), axis=1)[:, -1]
        for c, run in enumerate(runs):
            i = (c + 1) * step
            acc[0] = run
            for j in range(1, _LEVELS):
                acc[j] = acc[j] + acc[j - 1]
                acc[j - 1] = numpy.zeros_like(acc[j - 1])
                if i & ((step - 1) << (j * power)):
                    break
    for r in range(whole, size):
        acc[0] = acc[0] + rows[r]
    for j in range(1, _LEVELS):
        acc[0] = acc[0] + acc[j]
    return acc[0]


def _ceil_log2(x):
    return 0 if x <= 1 else int(x - 1).bit_length()
