"""The cases of shape_ops.json: the in-place view methods (t_, transpose_, swapdims_, swapaxes_,
squeeze_, unsqueeze_) on plain tensors, on views and on bases with views, and the rearranging
functions (ravel, tile, diff, fliplr, flipud, rot90, unflatten, tensor_split, repeat_interleave,
take_along_dim, diag_embed), with their bad calls. Run by gen_shape_ops.py under PyTorch and by
tests/engine/ops/test_shape_ops.py under our engine; each program is recorded as in functional_ops_cases
(`record`, `run_error`). Outputs after the first are not differentiated: the in-place cases
return the version counters there (`V(...)`, an int64 tensor)."""
from program_cases import registry
from functional_ops_cases import record, run_error

__all__ = ["CASES", "ERRORS", "record", "run_error"]  # (the generator and the test take record, run_error from here)

CASES, ERRORS, case, error = registry()

# ====================================================================== in-place views

case("t_", """
    x = leaf([[1.0, -2.0, 3.0], [0.5, 4.0, -1.5]])
    inputs = [x]
    def f():
        y = x * 2
        z = y.t_()
        return y, V(y._version, int(z is y), y.dim())
""")
case("t_vector", """
    x = leaf([1.0, -2.0, 3.0])
    inputs = [x]
    def f():
        y = x * 2
        y.t_()
        return y, V(y._version)
""")
case("transpose_negative_dims", """
    x = leaf([[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], [[-1.0, -2.0], [-3.0, -4.0], [-5.0, -6.0]]])
    inputs = [x]
    def f():
        y = x * x
        y.transpose_(-1, 0)
        return y, V(y._version, *y.shape)
""")
case("transpose_same_dim", """
    x = leaf([[1.0, 2.0], [3.0, 4.0]])
    inputs = [x]
    def f():
        y = x * x
        y.transpose_(1, -1)
        return y, V(y._version)
""")
case("swapdims_then_swapaxes_", """
    x = leaf([[[1.0, 2.0, 0.5, 1.5], [3.0, 4.0, 2.5, 3.5], [5.0, 6.0, 4.5, 5.5]],
              [[-1.0, -2.0, 0.0, 1.0], [-3.0, -4.0, 2.0, 3.0], [-5.0, -6.0, 4.0, 5.0]]])
    inputs = [x]
    def f():
        y = x * 3
        y.swapdims_(0, 2).swapaxes_(1, 2)
        return y, V(y._version, *y.shape)
""")
case("swapdims_swapaxes_functions", """
    x = leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    inputs = [x]
    def f(): return T.swapdims(x * x, 0, 1), T.swapaxes(x, axis0=-1, axis1=0), x.swapaxes(1, 0)
""")
case("t_and_transpose_of_small_tensors", """
    x = leaf(2.0)
    v = leaf([1.0, 2.0, 3.0])
    inputs = [x, v]
    def f(): return (x * 3).t() + (x * 3).transpose(0, -1) + v.t().sum() * x
""")
case("squeeze_all", """
    x = leaf([[[1.0], [2.0], [3.0]]])
    inputs = [x]
    def f():
        y = x * 3
        y.squeeze_()
        return y, V(y._version, *y.shape)
""")
case("squeeze_dim", """
    x = leaf([[[1.0], [2.0], [3.0]], [[4.0], [5.0], [6.0]]])
    inputs = [x]
    def f():
        y = x * 3
        y.squeeze_(-1)
        return y, V(y._version, *y.shape)
""")
case("squeeze_dim_not_one", """
    x = leaf([[1.0, 2.0], [3.0, 4.0]])
    inputs = [x]
    def f():
        y = x * 3
        y.squeeze_(0)
        return y, V(y._version, *y.shape)
""")
case("squeeze_dims", """
    x = leaf([[[[1.0]], [[2.0]], [[3.0]]]])
    inputs = [x]
    def f():
        y = x * 3
        y.squeeze_((0, -1, 1))
        return y, V(y._version, *y.shape)
""")
case("squeeze_dims_function", """
    x = leaf([[[1.0], [2.0]]])
    inputs = [x]
    def f(): return x.squeeze((0, 2)) * 2, x.squeeze(()), T.squeeze(x * 1, [-1])
""")
case("squeeze_scalar_dim", """
    x = leaf(1.5)
    inputs = [x]
    def f(): return (x * 2).squeeze(0), (x * 2).squeeze(-1)
""")
case("unsqueeze_", """
    x = leaf([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    inputs = [x]
    def f():
        y = x.sin()
        y.unsqueeze_(-2)
        return y, V(y._version, *y.shape)
""")
case("unsqueeze_scalar", """
    x = leaf(0.75)
    inputs = [x]
    def f():
        y = x * x
        y.unsqueeze_(0).unsqueeze_(-1)
        return y, V(y._version, *y.shape)
""")
case("t_on_view", """
    x = leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    inputs = [x]
    def f():
        y = x * x
        v = y[:, 1:]
        v.t_()
        return v, V(v._version, y._version, int(v._base is y))
""")
case("t_on_view_then_written", """
    x = leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    w = leaf([[0.5, -1.0], [2.0, 3.0]])
    inputs = [x, w]
    def f():
        y = x * x
        v = y[:, 1:]
        v.t_()
        v.mul_(w)
        return y, V(v._version, y._version)
""")
case("view_read_after_t_on_view", """
    x = leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    w = leaf([[0.5, -1.0], [2.0, 3.0]])
    inputs = [x, w]
    def f():
        y = x * x
        v = y[:, 1:]
        v.t_()
        v.mul_(w)
        return v
""")
case("view_after_base_t_", """
    x = leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    inputs = [x]
    def f():
        y = x * x
        v = y[0]
        y.t_()
        return v, V(v._version, y._version)
""")
case("view_written_after_base_squeeze_", """
    x = leaf([[[1.0, 2.0, 3.0]], [[4.0, 5.0, 6.0]]])
    w = leaf([2.0, -1.0, 0.5])
    inputs = [x, w]
    def f():
        y = x * x
        v = y[1, 0]
        y.squeeze_(1)
        y.t_()
        v.mul_(w)
        return y, V(v._version, y._version)
""")
case("sibling_view_after_unsqueeze_", """
    x = leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    inputs = [x]
    def f():
        y = x * x
        v1, v2 = y[0], y[1]
        v2.unsqueeze_(0)
        return v1 * 1, V(v1._version, v2._version, *v2.shape)
""")
case("squeeze_on_view_then_written", """
    x = leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    w = leaf([[2.0], [-1.0], [0.5]])
    inputs = [x, w]
    def f():
        y = x * x
        v = y[1:]
        v.squeeze_(0)
        v.unsqueeze_(-1)
        v.add_(w)
        return y, V(v._version, *v.shape)
""")
case("t_of_expanded", """
    x = leaf([[1.0], [2.0]])
    inputs = [x]
    def f():
        e = (x * 2).expand(2, 3)
        e.t_()
        return e * 1, V(e._version, *e.shape)
""")
case("t_of_plain_leaf", """
    x = leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    inputs = [x]
    def f():
        c = T.tensor([[1.0, 0.0, 2.0], [3.0, 1.0, 1.0]])
        c.t_()
        return c.matmul(x), V(c._version)
""")
case("t_of_leaf_under_no_grad", """
    x = leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    inputs = [x]
    def f():
        with T.no_grad():
            x.t_()
        return x * x, V(x._version, int(x.is_leaf), int(x.requires_grad))
""")

error("t_leaf", "T.ones(2, 3, requires_grad=True).t_()")
error("transpose_leaf", "T.ones(2, 3, requires_grad=True).transpose_(0, 1)")
error("squeeze_leaf", "T.ones(2, 1, requires_grad=True).squeeze_()")
error("unsqueeze_view_of_leaf", "T.ones(2, 3, requires_grad=True)[0].unsqueeze_(0)")
error("t_split_output", """
    p, q = (T.ones(2, 3, requires_grad=True) * 1).split(1)
    p.t_()
""")
error("t_no_grad_view", """
    y = T.ones(2, 3, requires_grad=True) * 1
    with T.no_grad():
        v = y[0:1]
    v.t_()
""")
error("t_3d", "T.ones(2, 3, 4).t_()")
error("transpose_dim_range", "T.ones(2, 3, 4).transpose_(0, 5)")
error("swapdims_dim_range", "T.ones(2, 3, 4).swapdims_(0, -4)")
error("squeeze_dim_range", "T.ones(2, 3, 4).squeeze_(4)")
error("squeeze_dims_repeated", "T.ones(2, 1, 4).squeeze_((1, -2))")
error("squeeze_dims_repeated_function", "T.ones(2, 1, 4).squeeze((0, 2, -1))")
error("sum_dims_repeated", "T.ones(2, 3).sum((0, -2))")
error("unsqueeze_dim_range", "T.ones(2, 3, 4).unsqueeze_(5)")
error("t_of_saved_output", """
    x = T.ones(2, 3, requires_grad=True)
    y = x.exp()
    y.t_()
    y.sum().backward()
""")
error("t_inference_tensor", """
    with T.inference_mode():
        i = T.ones(2, 3)
    i.t_()
""")

# ====================================================================== rearranging

case("ravel", """
    x = leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    inputs = [x]
    def f(): return (x * 1).ravel(), T.ravel(x)
""")
case("ravel_transposed", """
    x = leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    inputs = [x]
    def f(): return T.ravel((x * 1).t())
""")
case("ravel_expanded_and_scalar", """
    x = leaf([[1.0], [2.0]])
    s = leaf(3.0)
    inputs = [x, s]
    def f(): return (x * 1).expand(2, 3).ravel() * (s * 1).ravel()
""")
case("ravel_empty", """
    x = leaf([[], []])
    inputs = [x]
    def f(): return (x * 1).ravel()
""")
case("tile_padded", """
    x = leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    inputs = [x]
    def f(): return (x * 1).tile((2,))
""")
case("tile_longer_and_method_ints", """
    x = leaf([[1.0, -2.0], [0.5, 4.0]])
    inputs = [x]
    def f(): return T.tile(x * 1, (2, 1, 3)), x.tile(2, 1), T.tile(x, dims=()), x.tile((0, 1))
""")
case("diff", """
    x = leaf([[1.0, 4.0, 9.0, 16.0], [2.0, -3.0, 5.0, 0.5]])
    inputs = [x]
    def f(): return T.diff(x * 1)
""")
case("diff_n2_dim0", """
    x = leaf([[1.0, 4.0, 9.0], [16.0, 2.0, -3.0], [5.0, 0.5, 7.0], [1.0, 1.0, 8.0]])
    inputs = [x]
    def f(): return (x * x).diff(n=2, dim=0)
""")
case("diff_prepend_append", """
    x = leaf([[1.0, 4.0, 9.0], [2.0, -3.0, 5.0]])
    p = leaf([[0.5], [1.5]])
    a = leaf([[2.0, 3.0], [-1.0, 0.0]])
    inputs = [x, p, a]
    def f(): return T.diff(x * 1, dim=1, prepend=p, append=a)
""")
case("diff_n0", """
    x = leaf([1.0, 4.0, 9.0])
    inputs = [x]
    def f(): return T.diff(x * 1, n=0)
""")
case("diff_n_past_size", """
    x = leaf([[1.0, 4.0, 9.0], [2.0, -3.0, 5.0]])
    inputs = [x]
    def f(): return T.diff(x * 1, n=5), T.diff(x * 1, n=3)
""")
case("diff_empty_dim", """
    x = leaf([[], []])
    inputs = [x]
    def f(): return (x * 1).diff(n=2)
""")
case("diff_bool_and_int", """
    inputs = []
    def f():
        return (T.diff(T.tensor([True, False, False, True])), T.diff(T.tensor([1, 5, 2, 2]), n=2),
                T.diff(T.tensor([1.0, 2.0]), prepend=T.tensor([3])))
""")
case("fliplr_flipud", """
    x = leaf([[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], [[7.0, 8.0], [9.0, 10.0], [11.0, 12.0]]])
    inputs = [x]
    def f(): return (x * 1).fliplr(), T.flipud(x * 1), T.flipud(T.ones(3))
""")
case("rot90", """
    x = leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    inputs = [x]
    def f(): return (x * x).rot90(), T.rot90(x, 2), T.rot90(x, -1), x.rot90(3), T.rot90(x, 4), T.rot90(x, -7, [1, 0])
""")
case("rot90_dims", """
    x = leaf([[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], [[7.0, 8.0], [9.0, 10.0], [11.0, 12.0]]])
    inputs = [x]
    def f(): return T.rot90(x * x, 1, [2, 0]), x.rot90(3, (-1, -2))
""")
case("rot90_empty", """
    x = leaf([[], []])
    inputs = [x]
    def f(): return T.rot90(x * 1)
""")
case("unflatten", """
    x = leaf([[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [7.0, 8.0, 9.0, 10.0, 11.0, 12.0]])
    inputs = [x]
    def f(): return (x * 1).unflatten(1, (2, -1)), T.unflatten(x, -1, [3, 1, 2]), x.unflatten(0, (1, 2, 1))
""")
case("unflatten_module", """
    x = leaf([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]])
    inputs = [x]
    m = nn.Unflatten(1, (2, 2))
    def f(): return m(x * 1), V(*m(x).shape), V(*nn.Unflatten(-1, T.Size([4, 1]))(x).shape), V(len(repr(m)))
""")
case("tensor_split_sections", """
    x = leaf([[1.0, 2.0, 3.0, 4.0, 5.0], [6.0, 7.0, 8.0, 9.0, 10.0]])
    inputs = [x]
    def f(): return (x * 1).tensor_split(3, dim=1)
""")
case("tensor_split_sections_second", """
    x = leaf([[1.0, 2.0, 3.0, 4.0, 5.0], [6.0, 7.0, 8.0, 9.0, 10.0]])
    inputs = [x]
    def f():
        a, b, c = T.tensor_split(x * 1, 3, -1)
        return b * c, a
""")
case("tensor_split_more_sections_than_size", """
    x = leaf([1.0, 2.0, 3.0])
    inputs = [x]
    def f(): return x.tensor_split(5)
""")
case("tensor_split_indices", """
    x = leaf([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]])
    inputs = [x]
    def f():
        parts = T.tensor_split(x * 1, [1, -1])
        return (parts[1] * 2,) + parts + x.tensor_split([3, 1]) + x.tensor_split((-1, 7))
""")
case("tensor_split_index_tensors", """
    x = leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    inputs = [x]
    def f(): return x.tensor_split(T.tensor([1, 2]), 1) + T.tensor_split(x, T.tensor(2), dim=1)
""")
case("tensor_split_written", """
    x = leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    inputs = [x]
    def f():
        y = x * 1
        a, b = y.tensor_split(2, dim=1)
        a.mul_(3.0)
        return y, a
""")
case("tensor_split_empty", """
    x = leaf([[], []])
    inputs = [x]
    def f(): return T.tensor_split(x * 1, 2, dim=1)
""")
case("repeat_interleave_flat", """
    x = leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    inputs = [x]
    def f(): return (x * 1).repeat_interleave(2)
""")
case("repeat_interleave_dim", """
    x = leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    inputs = [x]
    def f(): return T.repeat_interleave(x * x, 3, dim=-2), x.repeat_interleave(0, dim=1)
""")
case("repeat_interleave_vector_and_scalar", """
    x = leaf([1.0, 2.0])
    s = leaf(3.0)
    inputs = [x, s]
    def f(): return (x * 1).repeat_interleave(2) * (s * 1).repeat_interleave(4)
""")
case("repeat_interleave_tensor", """
    x = leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    inputs = [x]
    def f(): return (x * 1).repeat_interleave(T.tensor([2, 0, 1]), dim=1), x.repeat_interleave(T.tensor([1, 3]), dim=0)
""")
case("repeat_interleave_one_count", """
    x = leaf([[1.0, 2.0], [3.0, 4.0]])
    inputs = [x]
    def f(): return T.repeat_interleave(x * 1, T.tensor([2])), x.repeat_interleave(T.tensor(2), dim=1)
""")
case("repeat_interleave_output_size", """
    x = leaf([[1.0, 2.0], [3.0, 4.0]])
    inputs = [x]
    def f(): return T.repeat_interleave(x, 2, dim=0, output_size=4), x.repeat_interleave(T.tensor([1, 2]), 1, output_size=3)
""")
case("repeat_interleave_counts_only", """
    inputs = []
    def f(): return T.repeat_interleave(T.tensor([2, 0, 3, 1])), T.repeat_interleave(T.tensor([True, False]), 2)
""")
case("take_along_dim", """
    x = leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    inputs = [x]
    def f(): return T.take_along_dim(x * x, T.tensor([[2, 0], [1, 1]]), 1), x.take_along_dim(T.tensor([[1, 0, 1]]), 0)
""")
case("take_along_dim_broadcast", """
    x = leaf([[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [[7.0, 8.0, 9.0], [10.0, 11.0, 12.0]]])
    inputs = [x]
    def f(): return (x * 1).take_along_dim(T.tensor([[[0], [2]]]), dim=-1), T.take_along_dim(x[:1], T.zeros(3, 2, 1, dtype=T.int64), 2)
""")
case("take_along_dim_flat", """
    x = leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    inputs = [x]
    def f(): return T.take_along_dim(x * 1, T.tensor([5, 0, 5])), x.take_along_dim(T.tensor([[1], [2]]))
""")
case("diag_embed", """
    x = leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    inputs = [x]
    def f(): return T.diag_embed(x * x), x.diag_embed(1, 0, 2), T.diag_embed(x, -1, -1, -3)
""")
case("diag_embed_vector", """
    x = leaf([1.0, -2.0, 3.0])
    inputs = [x]
    def f(): return (x * x).diag_embed(-2, dim1=-1, dim2=-2), T.diag_embed(x, 2)
""")
case("diag_embed_empty", """
    x = leaf([[], []])
    inputs = [x]
    def f(): return T.diag_embed(x * 1, 1)
""")

error("tile_negative", "T.ones(2, 3, 4).tile((-1,))")
error("repeat_negative", "T.ones(2, 3, 4).repeat(1, -1, -1)")
error("diff_scalar", "T.diff(T.tensor(1.0))")
error("diff_negative_n", "T.diff(T.ones(3), n=-1)")
error("diff_n_float", "T.diff(T.ones(3), n=1.0)")
error("diff_dim_range", "T.diff(T.ones(2, 3), dim=2)")
error("diff_prepend_ndim", "T.diff(T.ones(2, 3), prepend=T.ones(3))")
error("diff_prepend_shape", "T.diff(T.ones(2, 3), prepend=T.ones(3, 1))")
error("diff_append_shape", "T.diff(T.ones(2, 3), dim=0, append=T.ones(1, 2))")
error("diff_prepend_number", "T.diff(T.ones(2, 3), prepend=2.0)")
error("fliplr_vector", "T.fliplr(T.ones(3))")
error("flipud_scalar", "T.flipud(T.tensor(1.0))")
error("rot90_one_dim", "T.rot90(T.ones(2, 3), 1, [0])")
error("rot90_three_dims", "T.rot90(T.ones(2, 3, 4), 1, [0, 1, 2])")
error("rot90_vector", "T.rot90(T.ones(3), 1, [0, 0])")
error("rot90_same_dims", "T.rot90(T.ones(2, 3), 1, [0, -2])")
error("rot90_same_dims_negative", "T.rot90(T.ones(2, 3, 4), 1, [-1, 2])")
error("rot90_dim_range", "T.rot90(T.ones(2, 3, 4), 1, [0, 3])")
error("rot90_k_float", "T.rot90(T.ones(2, 3), 1.5)")
error("unflatten_product", "T.ones(2, 3).unflatten(1, (2, 2))")
error("unflatten_product_inferred", "T.ones(2, 3).unflatten(1, (2, -1))")
error("unflatten_zero_inferred", "T.ones(2, 3).unflatten(1, (0, -1))")
error("unflatten_empty_sizes", "T.ones(2, 3).unflatten(1, ())")
error("unflatten_dim_range", "T.ones(2, 3).unflatten(2, (3, 1))")
error("unflatten_module_size_int", "nn.Unflatten(1, 3)")
error("unflatten_module_size_str", "nn.Unflatten(1, (2, 'a'))")
error("tensor_split_zero_sections", "T.ones(2, 3).tensor_split(0)")
error("tensor_split_scalar", "T.tensor_split(T.tensor(1.0), 2)")
error("tensor_split_float_tensor", "T.ones(2, 3).tensor_split(T.tensor([1.0]), 1)")
error("tensor_split_2d_tensor", "T.ones(2, 3).tensor_split(T.tensor([[1]]), 1)")
error("tensor_split_dim_range", "T.ones(2, 3).tensor_split(2, dim=2)")
error("repeat_interleave_negative", "T.ones(2, 3).repeat_interleave(-1)")
error("repeat_interleave_counts_size", "T.ones(2, 3).repeat_interleave(T.tensor([1, 2, 3]), dim=0)")
error("repeat_interleave_counts_negative", "T.ones(2, 3).repeat_interleave(T.tensor([1, -2]), dim=0)")
error("repeat_interleave_counts_float", "T.ones(2, 3).repeat_interleave(T.tensor([1.0, 2.0]), dim=0)")
error("repeat_interleave_counts_2d", "T.ones(2, 3).repeat_interleave(T.tensor([[1, 2]]), dim=0)")
error("repeat_interleave_flat_counts_size", "T.ones(2, 3).repeat_interleave(T.tensor([1, 2]))")
error("repeat_interleave_dim_range", "T.ones(2, 3).repeat_interleave(2, dim=2)")
error("repeat_interleave_scalar_dim", "T.repeat_interleave(T.tensor(2.0), 3, dim=0)")
error("repeat_interleave_only_2d", "T.repeat_interleave(T.tensor([[1, 2]]))")
error("repeat_interleave_only_float", "T.repeat_interleave(T.tensor([1.0, 2.0]))")
error("repeat_interleave_output_size", "T.ones(2, 3).repeat_interleave(2, output_size=5)")
error("take_along_dim_float_indices", "T.take_along_dim(T.ones(2, 3), T.tensor([[0.0]]), 1)")
error("take_along_dim_int32_indices", "T.take_along_dim(T.ones(2, 3), T.tensor([[0]], dtype=T.int32), 1)")
error("take_along_dim_ndim", "T.take_along_dim(T.ones(2, 3), T.tensor([0]), 1)")
error("take_along_dim_broadcast", "T.take_along_dim(T.ones(2, 3, 4), T.zeros(3, 3, 1, dtype=T.int64), 2)")
error("take_along_dim_dim_range", "T.take_along_dim(T.ones(2, 3), T.tensor([[0]]), 2)")
error("take_along_dim_flat_view", "T.take_along_dim(T.ones(2, 3).t(), T.tensor([0]))")
error("diag_embed_scalar", "T.diag_embed(T.tensor(1.0))")
error("diag_embed_same_dims", "T.diag_embed(T.ones(2, 3), 0, 1, 1)")
error("diag_embed_same_dims_negative", "T.diag_embed(T.ones(2, 3), 0, -1, 2)")
error("diag_embed_dim_range", "T.diag_embed(T.ones(2, 3), 0, 0, 3)")
