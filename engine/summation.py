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
    if n < lanes:  # the element-by-element form of the same cascade
        return x.dtype.type(_row_sum(flat.reshape(n, 1))[0])
    whole = n // lanes
    vector_sum = _row_sum(flat[:whole * lanes].reshape(whole, lanes))
    # the elements after the last whole vector, then the vector's lanes, one by one from zero
    return _in_turn(numpy.concatenate((flat[whole * lanes:], vector_sum)))


_FLOATS = (numpy.dtype(numpy.float32), numpy.dtype(numpy.float64))


def _followed(x):
    """Whether the reductions below follow PyTorch's order for `x`: a C-contiguous numpy float32
    or float64 array of at least one dim and fewer than 32,768 elements (one thread's share)."""
    return x.__class__ is numpy.ndarray and x.dtype in _FLOATS and x.size <= LARGEST \
        and x.flags.c_contiguous and x.ndim > 0


def _axes(x, axes):
    """`axes` (an int, a tuple, or None: all) as a sorted list of non-negative axes of x."""
    if axes is None:
        return list(range(x.ndim))
    return sorted({a % x.ndim for a in ((axes,) if isinstance(axes, int) else axes)})


def _reduced_last(x, axes):
    """x with the reduced `axes` moved last, as (outputs, reduced elements) rows in memory order,
    and the kept dims' shape."""
    kept = [d for d in range(x.ndim) if d not in axes]
    rows = numpy.moveaxis(x, axes, range(x.ndim - len(axes), x.ndim))
    count = 1
    for a in axes:
        count *= x.shape[a]
    return rows.reshape(-1, count) if count else rows.reshape(0, 0), [x.shape[d] for d in kept]


def full_variance(x, correction):
    """PyTorch's var of every element of numpy array `x` (std_var_all_cpu), in double, or None
    where it does not apply: the mean as torch.mean gives it (this module's sum over the count,
    in the dtype), then the squared deviations in double added one by one from zero, over
    max(0, n - correction)."""
    if not _followed(x) or x.size == 0:
        return None
    mean = numpy.float64(exact_sum(x) / x.dtype.type(x.size))
    dx = x.reshape(-1).astype(numpy.float64) - mean
    with numpy.errstate(divide="ignore", invalid="ignore"):
        return _in_turn(dx * dx) / max(0.0, x.size - correction)


def lane_sum(x):
    """PyTorch's vec::reduce_all sum over the last axis of numpy array `x` (softmax's and
    log_softmax's denominators along the last dim), keepdims, or None where it does not apply.

    AVX2 vectors of `lanes` elements: the first vector, the next ones added lane by lane, the
    leftover elements into the first lanes; then the lanes folded in halves (lane 0 of the result
    is ((l0 + l2) + (l1 + l3)) for doubles). A row shorter than a vector is added in turn."""
    if x.__class__ is not numpy.ndarray or x.dtype not in _FLOATS or x.ndim == 0 or not x.shape[-1]:
        return None
    lanes = VECTOR_BYTES // x.dtype.itemsize
    n = x.shape[-1]
    if n < lanes:
        total = x[..., 0]
        for k in range(1, n):
            total = total + x[..., k]
        return total[..., None]
    whole = n // lanes
    acc = x[..., :lanes]
    for k in range(1, whole):
        acc = acc + x[..., k * lanes:(k + 1) * lanes]
    rest = n - whole * lanes
    if rest:
        acc = numpy.concatenate((acc[..., :rest] + x[..., whole * lanes:], acc[..., rest:]), axis=-1)
    while acc.shape[-1] > 1:  # fold: the upper half onto the lower, as the shuffles do
        half = acc.shape[-1] // 2
        acc = acc[..., :half] + acc[..., half:]
    return acc


def norm_sum(a, p, dims):
    """PyTorch's sum of a**p for a vector norm (`a` the absolute values, a numpy float array,
    C-contiguous, fewer than 32,768 elements) over `dims` (None: all), the reduced axes dropped;
    None where that does not apply. The 2-norm over trailing dims is its vectorised kernel: squares
    added vector by vector, the lanes in turn, then the leftover elements; every other norm adds
    its terms one by one in memory order."""
    if not _followed(a) or a.size == 0:
        return None
    axes = _axes(a, dims)
    rows, kept = _reduced_last(a, axes)
    with numpy.errstate(all="ignore"):
        if p == 2 and axes == list(range(a.ndim - len(axes), a.ndim)):
            lanes = VECTOR_BYTES // a.dtype.itemsize
            whole = rows.shape[1] // lanes
            acc = numpy.zeros((rows.shape[0], lanes), a.dtype)
            for k in range(whole):
                chunk = rows[:, k * lanes:(k + 1) * lanes]
                acc = acc + chunk * chunk
            total = acc[:, 0]
            for j in range(1, lanes):
                total = total + acc[:, j]
            for d in range(whole * lanes, rows.shape[1]):
                total = total + rows[:, d] * rows[:, d]
        else:
            terms = rows * rows if p == 2 else rows if p == 1 else rows ** a.dtype.type(p)
            total = _in_turn(terms, axis=1)
    return total.reshape(kept)


WELFORD_LARGEST = 1024  # reduced elements per output followed one by one (a loop step each)


def dim_variance(x, axes, correction):
    """PyTorch's var of numpy array `x` over some of its `axes` (std_var_kernel: Welford's running
    mean and sum of squared deviations, in double, each output's elements one by one in memory
    order), the reduced axes dropped, in double; None where it does not apply (more than
    WELFORD_LARGEST elements per output, or an array dim_sum would not take)."""
    if not _followed(x):
        return None
    rows, kept = _reduced_last(x, _axes(x, axes))
    count = rows.shape[1]
    if not count or count > WELFORD_LARGEST:
        return None
    values = rows.T.astype(numpy.float64)
    mean = numpy.zeros(values.shape[1])
    m2 = numpy.zeros(values.shape[1])
    for i in range(count):
        v = values[i]
        delta = v - mean
        mean = mean + delta / numpy.float64(i + 1)
        m2 = m2 + delta * (v - mean)
    with numpy.errstate(divide="ignore", invalid="ignore"):
        var = m2 / (count - correction if count > correction else 0.0)
    return var.reshape(kept)


def dim_sum(x, axes):
    """PyTorch's sum of numpy array `x` over `axes` (an int or a tuple; C-contiguous, float32 or
    float64, fewer than 32,768 elements), the reduced axes dropped, or None where that does not
    apply.

    PyTorch's iterator drops size-1 dims, merges neighbours that are both summed or both kept,
    and walks the two innermost as one 2-D chunk, the rest in order, each chunk added into the
    outputs (which start at zero). In a chunk whose inner dim is summed, each output is a row
    summed as the whole-tensor sum above; otherwise the outputs are columns: the first whole
    blocks of four vectors' worth (four columns when fewer than a vector) each run through the
    cascade alone, the rest through row_sum's four interleaved partial sums."""
    if not _followed(x):
        return None
    axes = set(_axes(x, axes))
    out_shape = tuple(n for d, n in enumerate(x.shape) if d not in axes)
    dims = []  # innermost first: [size, summed]
    for d in reversed(range(x.ndim)):
        n = x.shape[d]
        if n == 1:
            continue
        if dims and dims[-1][1] == (d in axes):
            dims[-1][0] *= n
        else:
            dims.append([n, d in axes])
    zero = x.dtype.type(0)
    if x.size == 0 or not any(summed for _, summed in dims):
        return (x.reshape(out_shape) + zero) if not any(x.shape[a] == 0 for a in axes) \
            else numpy.zeros(out_shape, x.dtype)
    if len(dims) == 1:  # everything summed: the whole-tensor sum
        return numpy.full(out_shape, zero + exact_sum(x), x.dtype)
    (n0, summed0), (n1, _) = dims[0], dims[1]
    outer = x.size // (n0 * n1)
    chunks = x.reshape(outer, n1, n0)  # (outer dims in order, d1, d0)
    lanes = VECTOR_BYTES // x.dtype.itemsize
    partial = _rows(chunks, lanes) if summed0 else _columns(chunks, lanes)
    # the outer dims: a summed one adds its chunks into the same outputs one after another
    summed_axes, shape = [], []
    for n, summed in reversed(dims[2:]):
        shape.append(n)
        if summed:
            summed_axes.append(len(shape) - 1)
    partial = partial.reshape(shape + [partial.shape[-1]])
    total = numpy.zeros(tuple(n for a, n in enumerate(shape) if a not in summed_axes) + (partial.shape[-1],),
                        x.dtype)
    if summed_axes:
        moved = numpy.moveaxis(partial, summed_axes, range(len(summed_axes)))
        for index in numpy.ndindex(*moved.shape[:len(summed_axes)]):
            total = total + moved[index]
    else:
        total = total + partial
    return total.reshape(out_shape)


def _rows(chunks, lanes):
    """(outer, rows, size) -> (outer, rows): each row summed as the whole-tensor sum."""
    outer, m, size = chunks.shape
    rows = chunks.reshape(outer * m, size)
    if size < lanes:
        return _row_sum(rows.T).reshape(outer, m)  # row_sum of the scalars, every row at once
    whole = size // lanes
    vectors = rows[:, :whole * lanes].reshape(-1, whole, lanes).transpose(1, 0, 2).reshape(whole, -1)
    vector_sum = _row_sum(vectors).reshape(-1, lanes)
    return _in_turn(numpy.concatenate((rows[:, whole * lanes:], vector_sum), axis=1), axis=1).reshape(outer, m)


def _columns(chunks, lanes):
    """(outer, size, columns) -> (outer, columns): each column summed down, as vectorized_outer_sum
    or scalar_outer_sum do."""
    outer, size, inner = chunks.shape
    columns = chunks.transpose(1, 0, 2)  # (size, outer, inner)
    block = 4 * lanes if inner >= lanes else 4
    alone = inner // block * block
    out = numpy.empty((outer, inner), chunks.dtype)
    if alone:
        out[:, :alone] = _cascade(columns[:, :, :alone].reshape(size, 1, -1)).reshape(outer, alone)
    if alone < inner:
        out[:, alone:] = _row_sum(columns[:, :, alone:].reshape(size, -1)).reshape(outer, inner - alone)
    return out


def _in_turn(values, axis=0):
    """0 + v0 + v1 + ... left to right (an accumulator that starts at zero, as PyTorch's do)."""
    if values.ndim == 1 and values.shape[0] <= 32:  # a few numbers: one by one is quicker
        add = values.dtype.type
        total = add(0)
        for v in values:
            total = add(total + v)
        return total
    n = values.shape[axis]
    if not n:
        return numpy.zeros(values.shape[:axis] + values.shape[axis + 1:], values.dtype)
    if n <= 8:  # a few rows: added one by one (each row's lanes at once)
        rows = numpy.moveaxis(values, axis, 0)
        total = rows[0] + values.dtype.type(0)
        for r in range(1, n):
            total = total + rows[r]
        return total
    zero = numpy.zeros_like(values.take([0], axis=axis))
    return numpy.add.accumulate(numpy.concatenate((zero, values), axis=axis), axis=axis).take(-1, axis=axis)


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
    """PyTorch's multi_row_sum: (size, ILP, lanes) into (ILP, lanes) through four levels.
    Level 0 sums runs of `step` rows from zero; level 1 adds up run sums and passes its total
    up every `step` runs; level 2 likewise every `step` squared; level 3 keeps everything.
    Each level is a left-to-right sum, so all of a level's groups are summed at once."""
    size = rows.shape[0]
    step = 1 << max(4, _ceil_log2(size) // _LEVELS)
    whole = size // step * step
    if not whole:  # fewer rows than one run: level 0 only (plus the empty levels' zeros, as PyTorch adds them)
        return _in_turn(rows) + rows.dtype.type(0)
    runs = _in_turn(rows[:whole].reshape(whole // step, step, *rows.shape[1:]), axis=1)
    level = [_in_turn(rows[whole:])]                  # what is left in each accumulator at the end
    for _ in range(_LEVELS - 2):                      # levels 1 and 2 pass totals up per `step`
        full = len(runs) // step * step
        level.append(_in_turn(runs[full:]))
        runs = _in_turn(runs[:full].reshape(full // step, step, *rows.shape[1:]), axis=1)
    level.append(_in_turn(runs))                      # level 3
    total = level[0]
    for j in range(1, _LEVELS):
        total = total + level[j]
    return total


def _ceil_log2(x):
    return 0 if x <= 1 else int(x - 1).bit_length()
