"""The cases of idx_ops.json: index_add (alpha=, repeated indices, int32 indices, float32, 0-d),
index_copy, index_fill (a number, a 0-d tensor), scatter_add and masked_scatter (and scatter and
gather, which share scatter_add's index checks), out of place,
in place (the version counters returned as `V(...)`), in place on a view (the base's CopySlices,
the view's AsStridedBackward0), and their bad calls. Run by gen_idx_ops.py under PyTorch and by
tests/engine/ops/test_idx_ops.py under our engine; each program is recorded as in functional_ops_cases
(`record`, `run_error`). Outputs after the first are not differentiated.

The names a program uses: T, leaf(data) (a float64 tensor that requires grad), V(*ints) (an int64
tensor of the numbers given) and R(*shape): nested lists of numbers that are not round in binary
((37 k mod 23 - 11) / 7 for the k-th element), so that sums and products round and their bits say
in which order and how often a kernel rounds."""
from program_cases import registry
from functional_ops_cases import record, run_error

__all__ = ["CASES", "ERRORS", "record", "run_error", "values"]

CASES, ERRORS, case, error = registry()


def values(*shape):
    """R(*shape): nested lists of (37 k mod 23 - 11) / 7, k the flat position."""
    rows = [((37 * k) % 23 - 11) / 7 for k in range(_numel(shape))]
    if not shape:
        return rows[0]
    for k in range(len(shape) - 1, 0, -1):  # group the innermost dim first (sizes of 0 too)
        n = shape[k]
        rows = [rows[i * n:(i + 1) * n] for i in range(_numel(shape[:k]))]
    return rows


def _numel(shape):
    n = 1
    for s in shape:
        n *= s
    return n


# ====================================================================== index_add

case("index_add_rows_repeated_alpha", """
    x = leaf(R(5, 7))
    s = leaf(R(9, 7))
    inputs = [x, s]
    def f(): return T.index_add(x, 0, T.tensor([4, 0, 4, 4, 2, 0, 1, 4, 3]), s, alpha=0.37)
""")
case("index_add_squares_cols_alpha", """
    x = leaf(R(4, 6))
    s = leaf(R(4, 5))
    inputs = [x, s]
    def f(): return (x * x).index_add(1, T.tensor([5, 5, 0, 2, 5], dtype=T.int32), s * s, alpha=-1.3)
""")
case("index_add_no_alpha_middle_dim", """
    x = leaf(R(2, 3, 4))
    s = leaf(R(2, 5, 4))
    inputs = [x, s]
    def f(): return x.index_add(-2, T.tensor([1, 1, 0, 2, 1]), s)
""")
case("index_add_vector_alpha", """
    x = leaf(R(6))
    s = leaf(R(12))
    inputs = [x, s]
    def f(): return T.index_add(x * x, 0, T.tensor([5, 0, 5, 1, 5, 3, 2, 0, 4, 5, 1, 5]), s * s, alpha=0.37)
""")
case("index_add_float32_alpha", """
    x = T.tensor(R(4, 9), dtype=T.float32, requires_grad=True)
    s = T.tensor(R(6, 9), dtype=T.float32, requires_grad=True)
    inputs = [x, s]
    def f(): return T.index_add(x, 0, T.tensor([3, 1, 3, 3, 0, 1]), s, alpha=0.3)
""")
case("index_add_float32_vector_alpha", """
    x = T.tensor(R(5), dtype=T.float32, requires_grad=True)
    s = T.tensor(R(8), dtype=T.float32, requires_grad=True)
    inputs = [x, s]
    def f(): return T.index_add(x, 0, T.tensor([4, 4, 0, 1, 4, 2, 3, 4]), s, alpha=-0.7)
""")
case("index_add_scalar", """
    x = leaf(1.25)
    s = leaf(-0.3)
    inputs = [x, s]
    def f(): return T.index_add(x * x, 0, T.tensor([0]), s * s, alpha=3)
""")
case("index_add_integers", """
    inputs = []
    def f():
        x = T.tensor([[1, 2], [3, 4], [5, 6]])
        return (T.index_add(x, 0, T.tensor([2, 2, 0]), T.tensor([[10, 20], [30, 40], [-5, 7]]), alpha=2.7),
                T.index_add(x, 1, T.tensor([1]), T.tensor([[1], [2], [3]]), alpha=-3))
""")
case("index_add_bool", """
    inputs = []
    def f():
        x = T.tensor([False, True, False])
        return T.index_add(x, 0, T.tensor([0, 0]), T.tensor([True, False]))
""")
case("index_add_empty_index", """
    x = leaf(R(2, 3))
    s = leaf(R(2, 0))
    inputs = [x, s]
    def f(): return x.index_add(1, T.tensor([], dtype=T.int64), s)
""")
case("index_add_", """
    x = leaf(R(3, 4))
    s = leaf(R(4, 4))
    inputs = [x, s]
    def f():
        y = x * 2
        z = y.index_add_(0, T.tensor([2, 0, 2, 1]), s, alpha=0.37)
        return y, V(y._version, int(z is y))
""")
case("index_add_on_view", """
    x = leaf(R(3, 4))
    s = leaf(R(2, 2))
    inputs = [x, s]
    def f():
        y = x * 1
        v = y[1:, 1:3]
        v.index_add_(1, T.tensor([0, 0]), s * s, alpha=0.5)
        return y, V(y._version, v._version)
""")
case("index_add_on_view_read_through_the_view", """
    x = leaf(R(3, 4))
    s = leaf(R(3, 1))
    inputs = [x, s]
    def f():
        y = x * 1
        v = y[:, 2:]
        v.index_add_(1, T.tensor([1]), s)
        return v, V(y._version, v._version)
""")

# ===================================================================== index_copy

case("index_copy_rows", """
    x = leaf(R(4, 3))
    s = leaf(R(2, 3))
    inputs = [x, s]
    def f(): return T.index_copy(x * x, 0, T.tensor([3, 1]), s * s)
""")
case("index_copy_repeated", """
    x = leaf(R(3, 4))
    s = leaf(R(3, 4))
    inputs = [x, s]
    def f(): return x.index_copy(0, T.tensor([1, 1, 2]), s)
""")
case("index_copy_last_dim", """
    x = leaf(R(2, 3, 4))
    s = leaf(R(2, 3, 2))
    inputs = [x, s]
    def f(): return x.index_copy(-1, T.tensor([3, 0]), s)
""")
case("index_copy_scalar_source", """
    x = leaf(R(4))
    s = leaf(2.5)
    inputs = [x, s]
    def f(): return T.index_copy(x, 0, T.tensor(2), s)
""")
case("index_copy_scalar_self", """
    x = leaf(1.5)
    s = leaf([-2.0])
    inputs = [x, s]
    def f(): return T.index_copy(x, 0, T.tensor([0]), s)
""")
case("index_copy_", """
    x = leaf(R(3, 2))
    s = leaf(R(1, 2))
    inputs = [x, s]
    def f():
        y = x * 3
        y.index_copy_(0, T.tensor([1]), s)
        return y, V(y._version)
""")
case("index_copy_on_view", """
    x = leaf(R(3, 4))
    s = leaf(R(3, 1))
    inputs = [x, s]
    def f():
        y = x * 1
        v = y[:, 1:]
        v.index_copy_(1, T.tensor([2]), s * s)
        return y, V(y._version, v._version)
""")

# ===================================================================== index_fill

case("index_fill_number", """
    x = leaf(R(3, 4))
    inputs = [x]
    def f(): return T.index_fill(x * x, 1, T.tensor([1, -1, 1]), -2.5)
""")
case("index_fill_number_leaf", """
    x = leaf(R(3, 4))
    inputs = [x]
    def f(): return x.index_fill(0, T.tensor(2), 7)
""")
case("index_fill_tensor_value", """
    x = leaf(R(3, 4))
    v = leaf(0.75)
    inputs = [x, v]
    def f(): return x.index_fill(0, T.tensor([2, 0, 2]), v * v)
""")
case("index_fill_tensor_value_leaf", """
    x = leaf(R(2, 3, 4))
    v = leaf(-1.5)
    inputs = [x, v]
    def f(): return T.index_fill(x, 1, T.tensor([0, 2]), v)
""")
case("index_fill_tensor_value_without_grad", """
    x = leaf(R(2, 3))
    inputs = [x]
    def f(): return x.index_fill(1, T.tensor([0]), T.tensor(4.0))
""")
case("index_fill_float32_value_into_float64", """
    x = leaf(R(2, 3))
    v = T.tensor(0.1, dtype=T.float32, requires_grad=True)
    inputs = [x, v]
    def f(): return x.index_fill(1, T.tensor([2]), v)
""")
case("index_fill_value_gradient_sums_in_order", """
    x = leaf(R(4, 5, 9))
    v = leaf(0.5)
    inputs = [x, v]
    def f():
        w = T.tensor(R(4, 5, 9)) / 3.0
        y = T.index_fill(x, 1, T.tensor([3, 0, 4, 3]), v)
        (g,) = T.autograd.grad((y * w).sum(), [v], create_graph=True)
        return g * x.sum()
""")
case("index_fill_scalar_self", """
    x = leaf(3.0)
    v = leaf(2.0)
    inputs = [x, v]
    def f(): return x.index_fill(0, T.tensor([0, 0]), v)
""")
case("index_fill_integers", """
    inputs = []
    def f():
        x = T.tensor([[1, 2, 3], [4, 5, 6]])
        return (x.index_fill(1, T.tensor([0, 2]), -2.7), x.index_fill(0, T.tensor([1]), T.tensor(9.9)),
                T.tensor([True, False, True]).index_fill(0, T.tensor([1]), 2.0))
""")
case("index_fill_", """
    x = leaf(R(3, 4))
    inputs = [x]
    def f():
        y = x * x
        y.index_fill_(1, T.tensor([3]), 0.5)
        return y, V(y._version)
""")
case("index_fill_tensor_on_view", """
    x = leaf(R(3, 4))
    v = leaf(-0.25)
    inputs = [x, v]
    def f():
        y = x * 1
        w = y[1]
        w.index_fill_(0, T.tensor([0, 3]), v)
        return y, V(y._version, w._version)
""")
case("index_fill_number_on_view", """
    x = leaf(R(3, 4))
    inputs = [x]
    def f():
        y = x * 1
        w = y[:, 1:]
        w.index_fill_(1, T.tensor([0]), 3.0)
        return y, V(y._version, w._version)
""")

# ==================================================================== scatter_add

case("scatter_add_repeated", """
    x = leaf(R(3, 5))
    s = leaf(R(4, 5))
    inputs = [x, s]
    def f(): return T.scatter_add(x, 0, T.tensor([[2, 0, 1, 1, 2], [2, 0, 0, 1, 2], [2, 2, 0, 1, 0], [1, 2, 0, 1, 2]]), s)
""")
case("scatter_add_squares_dim1_int32", """
    x = leaf(R(2, 4))
    s = leaf(R(2, 6))
    inputs = [x, s]
    def f():
        index = T.tensor([[3, 3, 0, 3, 1, 3], [0, 0, 0, 2, 2, 1]], dtype=T.int32)
        return (x * x).scatter_add(1, index, s * s)
""")
case("scatter_add_index_smaller_than_self", """
    x = leaf(R(3, 4))
    s = leaf(R(2, 2))
    inputs = [x, s]
    def f(): return x.scatter_add(0, T.tensor([[0, 2], [2, 2]]), s)
""")
case("scatter_add_3d", """
    x = leaf(R(2, 3, 4))
    s = leaf(R(2, 3, 3))
    inputs = [x, s]
    def f(): return x.scatter_add(2, T.tensor([[[0, 0, 3], [1, 1, 1], [2, 3, 0]], [[3, 3, 3], [0, 1, 2], [1, 0, 1]]]), s)
""")
case("scatter_add_src_larger_than_index", """
    x = leaf(R(3, 4))
    inputs = [x]  # (PyTorch's backward refuses to give src a gradient here: see tests/engine/ops/test_idx_ops.py)
    def f(): return x.scatter_add(1, T.tensor([[3, 3], [0, 1]]), T.tensor(R(3, 5)))
""")
case("scatter_add_float32", """
    x = T.tensor(R(2, 3), dtype=T.float32, requires_grad=True)
    s = T.tensor(R(5, 3), dtype=T.float32, requires_grad=True)
    inputs = [x, s]
    def f(): return T.scatter_add(x, 0, T.tensor([[1, 0, 1], [1, 1, 1], [0, 1, 1], [1, 1, 0], [1, 0, 1]]), s)
""")
case("scatter_add_scalar", """
    x = leaf(0.5)
    s = leaf([1.25, -0.375])
    inputs = [x, s]
    def f(): return x.scatter_add(0, T.tensor([0, 0]), s)
""")
case("scatter_add_integers", """
    inputs = []
    def f():
        return T.scatter_add(T.tensor([[1, 2], [3, 4]]), 1, T.tensor([[1, 1], [0, 1]]), T.tensor([[10, 20], [30, 40]]))
""")
case("scatter_add_empty_index", """
    x = leaf(R(2, 3))
    inputs = [x]
    def f(): return x.scatter_add(0, T.tensor([], dtype=T.int64).reshape(0, 3), T.tensor(R(2, 3)))
""")
case("scatter_add_", """
    x = leaf(R(3, 3))
    s = leaf(R(2, 3))
    inputs = [x, s]
    def f():
        y = x * 2
        z = y.scatter_add_(0, T.tensor([[1, 1, 0], [1, 2, 0]]), s)
        return y, V(y._version, int(z is y))
""")
case("scatter_add_on_view", """
    x = leaf(R(3, 4))
    s = leaf(R(2, 2))
    inputs = [x, s]
    def f():
        y = x * 1
        v = y[1:, :2]
        v.scatter_add_(1, T.tensor([[1, 1], [0, 1]]), s * s)
        return y, V(y._version, v._version)
""")

# ================================================================= masked_scatter

case("masked_scatter", """
    x = leaf(R(3, 4))
    s = leaf(R(12))
    inputs = [x, s]
    def f():
        m = T.tensor([[True, False, True, True], [False, False, True, False], [True, True, False, True]])
        return x.masked_scatter(m, s)
""")
case("masked_scatter_squares_source_2d", """
    x = leaf(R(2, 3))
    s = leaf(R(2, 4))
    inputs = [x, s]
    def f(): return T.masked_scatter(x * x, x > 0, s * s)
""")
case("masked_scatter_broadcast_self", """
    x = leaf(R(9))
    s = leaf(R(40))
    inputs = [x, s]
    def f():
        m = (T.tensor(R(5, 9)) > -0.5)
        return T.masked_scatter(x, m, s)
""")
case("masked_scatter_broadcast_self_gradient_sums_in_order", """
    x = leaf(R(7))
    s = leaf(R(60))
    inputs = [x, s]
    def f():
        m = (T.tensor(R(8, 7)) > 0.3)
        w = T.tensor(R(8, 7)) / 3.0
        (g,) = T.autograd.grad((T.masked_scatter(x, m, s) * w).sum(), [x], create_graph=True)
        return g * s.sum()
""")
case("masked_scatter_broadcast_mask", """
    x = leaf(R(3, 4))
    s = leaf(R(3, 3))
    inputs = [x, s]
    def f(): return x.masked_scatter(T.tensor([True, False, True, False]), s)
""")
case("masked_scatter_no_true", """
    x = leaf(R(2, 2))
    s = leaf(R(3))
    inputs = [x, s]
    def f(): return x.masked_scatter(T.zeros(2, 2, dtype=T.bool), s)
""")
case("masked_scatter_scalar_source", """
    x = leaf(R(3))
    s = leaf(4.5)
    inputs = [x, s]
    def f(): return x.masked_scatter(T.tensor([False, True, False]), s)
""")
case("masked_scatter_float32", """
    x = T.tensor(R(2, 3), dtype=T.float32, requires_grad=True)
    s = T.tensor(R(4), dtype=T.float32, requires_grad=True)
    inputs = [x, s]
    def f(): return x.masked_scatter(x < 0.2, s)
""")
case("masked_scatter_", """
    x = leaf(R(3, 4))
    s = leaf(R(10))
    inputs = [x, s]
    def f():
        y = x * 2
        z = y.masked_scatter_(T.tensor([True, True, False, True]), s * s)
        return y, V(y._version, int(z is y))
""")
case("masked_scatter_on_view", """
    x = leaf(R(3, 4))
    s = leaf(R(4))
    inputs = [x, s]
    def f():
        y = x * 1
        v = y[:, 1:3]
        v.masked_scatter_(v > 0, s)
        return y, V(y._version, v._version)
""")

# ============================================= scatter and gather: the same index conventions

case("scatter_index_smaller_than_self", """
    x = leaf(R(3, 4))
    s = leaf(R(2, 2))
    inputs = [x, s]
    def f(): return T.scatter(x * x, 0, T.tensor([[2, 0], [1, 2]]), s * s)
""")
case("scatter_value_index_smaller_than_self_int32", """
    x = leaf(R(3, 4))
    inputs = [x]
    def f(): return x.scatter(1, T.tensor([[3], [0]], dtype=T.int32), 5.0)
""")
case("gather_int32_index_smaller_than_self", """
    x = leaf(R(3, 4))
    inputs = [x]
    def f(): return T.gather(x * x, 1, T.tensor([[3, 3, 0], [1, 0, 1]], dtype=T.int32))
""")

# ============================================================ in place on a leaf, saved values

error("index_add_on_a_leaf", """
    x = leaf([1.0, 2.0])
    x.index_add_(0, T.tensor([0]), T.tensor([1.0]))
""")
error("masked_scatter_on_a_view_of_a_leaf", """
    x = leaf([[1.0, 2.0], [3.0, 4.0]])
    x[0].masked_scatter_(T.tensor([True, False]), T.tensor([5.0]))
""")

error("index_add__source_is_self", """
    y = T.ones(3)
    y.index_add_(0, T.tensor([0, 1, 2]), y)
""")
error("index_copy__source_overlaps_self", """
    y = T.ones(4)
    y.index_copy_(0, T.tensor([0, 1]), y[1:3])
""")
error("scatter_add__src_is_self", """
    y = T.ones(2, 2)
    y.scatter_add_(1, T.tensor([[1, 0], [0, 0]]), y)
""")
case("index_add__interleaved_views_of_one_tensor", """
    x = T.tensor(R(6))
    inputs = []
    def f():
        y = x * 1
        y[0::2].index_add_(0, T.tensor([0, 2]), y[1::2][:2])
        return y, V(y._version)
""")

# ======================================================================= bad calls: index_add

error("index_add_float_index", "T.index_add(T.zeros(3, 4), 0, T.tensor([0.0, 2.0]), T.ones(2, 4))")
error("index_add_int16_index", "T.index_add(T.zeros(3, 4), 0, T.tensor([0, 2], dtype=T.int16), T.ones(2, 4))")
error("index_add_2d_index", "T.index_add(T.zeros(3, 4), 0, T.tensor([[0, 2]]), T.ones(2, 4))")
error("index_add_index_out_of_range", "T.index_add(T.zeros(3, 4), 0, T.tensor([0, 3]), T.ones(2, 4))")
error("index_add_negative_index", "T.index_add(T.zeros(3, 4), 1, T.tensor([-1, 0]), T.ones(3, 2))")
error("index_add_vector_index_out_of_range", "T.index_add(T.zeros(3), 0, T.tensor([0, 3]), T.ones(2))")
error("index_add_scalar_index_out_of_range", "T.index_add(T.tensor(1.0), 0, T.tensor([1]), T.tensor(5.0))")
error("index_add_number_of_indices", "T.index_add(T.zeros(3, 4), 0, T.tensor([0, 1, 2]), T.ones(2, 4))")
error("index_add_scalar_index_vector_source", "T.index_add(T.zeros(3, 4), 0, T.tensor(1), T.ones(4))")
error("index_add_source_shape", "T.index_add(T.zeros(3, 4), 0, T.tensor([0, 2]), T.ones(2, 3))")
error("index_add_source_more_dims", "T.index_add(T.zeros(3, 4), 0, T.tensor([0, 2]), T.ones(2, 4, 1))")
error("index_add_indexing_dim_of_source", "T.index_add(T.zeros(3, 4), -1, T.tensor([0, 1]), T.ones(2))")
error("index_add_scalar_source_two_indices",
      "T.index_add(T.zeros(3), 0, T.tensor([1, 2]), T.tensor(2.0))")
error("index_add_dim_out_of_range", "T.zeros(3, 4).index_add(2, T.tensor([0, 2]), T.ones(2, 4))")
error("index_add_dtypes", "T.index_add(T.zeros(3, 4), 0, T.tensor([0, 2]), T.ones(2, 4, dtype=T.float32))")
error("index_add_dtypes_long_self", "T.index_add(T.zeros(3, dtype=T.int64), 0, T.tensor([0]), T.ones(1))")
error("index_add_list_index", "T.index_add(T.zeros(3, 4), 0, [0, 2], T.ones(2, 4))")
error("index_add_number_source", "T.index_add(T.zeros(3, 4), 0, T.tensor([0, 2]), 1.0)")
error("index_add_alpha_positional", "T.index_add(T.zeros(3, 4), 0, T.tensor([0, 2]), T.ones(2, 4), 2)")
error("index_add_float_dim", "T.index_add(T.zeros(3, 4), 0.5, T.tensor([0, 2]), T.ones(2, 4))")
error("index_add_checks_dim_first", "T.index_add(T.zeros(3, 4), 5, T.ones(1, 2), T.ones(2, 4))")
error("index_add_checks_index_dims_before_dtype", "T.index_add(T.zeros(3, 4), 0, T.ones(1, 2), T.ones(2, 4))")

# ====================================================================== bad calls: index_copy

error("index_copy_int32_index", "T.index_copy(T.zeros(3, 4), 0, T.tensor([0, 2], dtype=T.int32), T.ones(2, 4))")
error("index_copy_2d_index", "T.index_copy(T.zeros(3, 4), 0, T.tensor([[0, 2]]), T.ones(2, 4))")
error("index_copy_index_out_of_range", "T.index_copy(T.zeros(3, 4), 0, T.tensor([0, 3]), T.ones(2, 4))")
error("index_copy_negative_index", "T.index_copy(T.zeros(3), 0, T.tensor([1, -1]), T.ones(2))")
error("index_copy_number_of_indices", "T.index_copy(T.zeros(3, 4), 0, T.tensor([0, 1, 2]), T.ones(2, 4))")
error("index_copy_slice_shapes", "T.index_copy(T.zeros(2, 3, 4), 1, T.tensor([0]), T.ones(2, 1, 5))")
error("index_copy_dimensionality", "T.index_copy(T.zeros(3, 4), 0, T.tensor([0, 2]), T.ones(2, 4, 1))")
error("index_copy_scalar_source_two_indices", "T.index_copy(T.zeros(3), 0, T.tensor([1, 2]), T.tensor(2.0))")
error("index_copy_dtypes", "T.index_copy(T.zeros(3, 4), 0, T.tensor([0, 2]), T.ones(2, 4, dtype=T.float32))")
error("index_copy_dim_out_of_range", "T.zeros(3, 4).index_copy(-3, T.tensor([0, 2]), T.ones(2, 4))")
error("index_copy_checks_index_dims_before_dtype", "T.index_copy(T.zeros(3, 4), 0, T.ones(1, 2), T.ones(2, 4))")
error("index_copy_list_index", "T.index_copy(T.zeros(3, 4), 0, [0, 2], T.ones(2, 4))")

# ====================================================================== bad calls: index_fill

error("index_fill_int32_index", "T.index_fill(T.zeros(3, 4), 0, T.tensor([0, 2], dtype=T.int32), 1.0)")
error("index_fill_2d_index", "T.index_fill(T.zeros(3, 4), 0, T.tensor([[0, 2]]), 1.0)")
error("index_fill_index_out_of_range", "T.index_fill(T.zeros(3, 4), 1, T.tensor([5, -7]), 1.0)")
error("index_fill_negative_index_out_of_range", "T.index_fill(T.zeros(3, 4), 0, T.tensor([0, -4]), 1.0)")
error("index_fill_scalar_self_out_of_range", "T.index_fill(T.tensor(1.0), 0, T.tensor([1]), 5.0)")
error("index_fill_value_not_0d", "T.index_fill(T.zeros(3, 4), 0, T.tensor([0]), T.tensor([1.0]))")
error("index_fill_value_checked_first", "T.index_fill(T.zeros(3, 4), 0, T.ones(2), T.ones(1))")
error("index_fill_dtype_before_dim", "T.index_fill(T.zeros(3, 4), 4, T.ones(2), 1.0)")
error("index_fill_dim_out_of_range", "T.zeros(3, 4).index_fill(4, T.tensor([[0]]), 1.0)")
error("index_fill_complex_value", "T.index_fill(T.zeros(3, 4), 0, T.tensor([0]), 1j)")
error("index_fill_none_value", "T.index_fill(T.zeros(3, 4), 0, T.tensor([0]), None)")
error("index_fill_integer_self_value_requires_grad",
      "T.index_fill(T.zeros(3, dtype=T.int64), 0, T.tensor([0]), T.tensor(2.5, requires_grad=True))")

# ===================================================================== bad calls: scatter_add

error("scatter_add_float_index", "T.scatter_add(T.zeros(3, 4), 0, T.ones(2, 4), T.ones(2, 4))")
error("scatter_add_dtypes", "T.scatter_add(T.zeros(3, 4), 0, T.zeros(2, 4, dtype=T.int64), T.ones(2, 4, dtype=T.float32))")
error("scatter_add_index_dims", "T.scatter_add(T.zeros(3, 4), 0, T.tensor([0, 1]), T.ones(2, 4))")
error("scatter_add_src_dims_fewer", "T.scatter_add(T.zeros(3, 4), 0, T.tensor([[0, 1], [1, 1]]), T.ones(4))")
error("scatter_add_src_dims_more", "T.scatter_add(T.zeros(3, 4), 0, T.tensor([[0, 1]]), T.ones(2, 3, 4))")
error("scatter_add_index_larger_than_src", "T.scatter_add(T.zeros(3, 4), 0, T.zeros(2, 4, dtype=T.int64), T.ones(2, 3))")
error("scatter_add_index_larger_than_self", "T.scatter_add(T.zeros(3, 3), 0, T.zeros(2, 4, dtype=T.int64), T.ones(2, 4))")
error("scatter_add_index_out_of_range", "T.scatter_add(T.zeros(3, 4), 1, T.tensor([[0, 1], [7, -1]]), T.ones(2, 4))")
error("scatter_add_negative_index", "T.scatter_add(T.zeros(3, 4), 0, T.tensor([[0, 1], [-1, 0]]), T.ones(2, 4))")
error("scatter_add_scalar_self_out_of_range", "T.scatter_add(T.tensor(0.0), 0, T.tensor([0, 1]), T.tensor([2.0, 3.0]))")
error("scatter_add_dim_out_of_range", "T.zeros(3, 4).scatter_add(2, T.zeros(2, 4, dtype=T.int64), T.ones(2, 4))")
error("scatter_add_number_src", "T.scatter_add(T.zeros(3, 4), 0, T.zeros(2, 4, dtype=T.int64), 1.0)")
error("scatter_add__dtypes", "T.zeros(3, 4).scatter_add_(0, T.zeros(2, 4, dtype=T.int64), T.ones(2, 4, dtype=T.int64))")

# ============================================================ bad calls: scatter and gather

error("scatter_index_out_of_range", "T.scatter(T.zeros(3, 4), 0, T.tensor([[0, 3]]), 1.0)")
error("scatter_negative_index", "T.scatter(T.zeros(3, 4), 1, T.tensor([[0, -1]]), T.ones(1, 2))")
error("scatter_float_index", "T.scatter(T.zeros(3, 4), 0, T.ones(1, 2), 1.0)")
error("scatter_index_dims", "T.scatter(T.zeros(3, 4), 0, T.tensor([0, 1]), 1.0)")
error("scatter_index_larger_than_src", "T.scatter(T.zeros(3, 4), 0, T.zeros(2, 4, dtype=T.int64), T.ones(2, 3))")
error("scatter_value_index_larger_than_self", "T.scatter(T.zeros(3, 3), 0, T.zeros(2, 4, dtype=T.int64), 2.0)")
error("scatter_dtypes", "T.scatter(T.zeros(3, 4), 0, T.zeros(2, 4, dtype=T.int64), T.ones(2, 4, dtype=T.float32))")
error("gather_index_out_of_range", "T.gather(T.zeros(3, 4), 0, T.tensor([[0, 3]]))")
error("gather_negative_index", "T.gather(T.zeros(3, 4), 1, T.tensor([[0, -1]]))")
error("gather_float_index", "T.gather(T.zeros(3, 4), 0, T.ones(1, 2))")
error("gather_index_larger_than_self", "T.gather(T.zeros(3, 3), 0, T.zeros(2, 4, dtype=T.int64))")

# ================================================================== bad calls: masked_scatter

error("masked_scatter_source_too_small", "T.masked_scatter(T.zeros(3, 4), T.ones(3, 4, dtype=T.bool), T.ones(5))")
error("masked_scatter_float_mask", "T.masked_scatter(T.zeros(3, 4), T.ones(3, 4), T.ones(12))")
error("masked_scatter_uint8_mask", "T.masked_scatter(T.zeros(3, 4), T.ones(3, 4, dtype=T.uint8), T.ones(12))")
error("masked_scatter_dtypes", "T.masked_scatter(T.zeros(3, 4), T.ones(3, 4, dtype=T.bool), T.ones(12, dtype=T.float32))")
error("masked_scatter_dtypes_before_mask", "T.masked_scatter(T.zeros(3, 4), T.ones(3, 4), T.ones(12, dtype=T.float32))")
error("masked_scatter_broadcast", "T.masked_scatter(T.zeros(3, 4), T.ones(3, 3, dtype=T.bool), T.ones(12))")
error("masked_scatter_broadcast_before_dtypes",
      "T.masked_scatter(T.zeros(3, 4), T.ones(3, 3, dtype=T.bool), T.ones(12, dtype=T.float32))")
error("masked_scatter__self_does_not_broadcast",
      "T.zeros(4).masked_scatter_(T.ones(3, 4, dtype=T.bool), T.ones(12))")
error("masked_scatter__mask_shape", "T.zeros(3, 4).masked_scatter_(T.ones(3, 3, dtype=T.bool), T.ones(12))")
error("masked_scatter__mask_shape_before_mask_dtype", "T.zeros(3, 4).masked_scatter_(T.ones(3, 3), T.ones(12))")
error("masked_scatter__dtypes_first", "T.zeros(3, 4).masked_scatter_(T.ones(3, 3), T.ones(3, dtype=T.float32))")
error("masked_scatter__source_too_small", "T.zeros(3, 4).masked_scatter_(T.ones(4, dtype=T.bool), T.ones(11))")
error("masked_scatter_list_mask", "T.masked_scatter(T.zeros(3), [True, False, True], T.ones(3))")
