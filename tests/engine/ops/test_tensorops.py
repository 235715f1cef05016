"""The everyday tensor ops of issue 29 beyond their op cases (op_cases_tensorops.py): what finite
differences cannot check -- ties of scatter_reduce's amax/amin and zeros of its prod, against
PyTorch 2.13's numbers (written here from `torch` runs of the same expressions) -- the integer
results (tril_indices, triu_indices, integral scatter_reduce mean), meshgrid's warning, which
results are views or the very input, bad input refused in PyTorch's types and words, and each
name reached from the scripting language."""
import warnings

import numpy as np
import pytest

import autodiff.engine as ad

D = ad.float64


def _t(data, grad=False):
    return ad.tensor(data, dtype=D, requires_grad=grad)


# ----------------------------------------------------------- scatter_reduce, as PyTorch defines it

@pytest.mark.parametrize("reduce", ["amax", "amin"])
@pytest.mark.parametrize("include_self", [True, False])
def test_scatter_reduce_ties_share_the_gradient_as_pytorch(reduce, include_self):
    x, s = _t([[1., 3, 3]], True), _t([[3., 3, 1]], True)
    y = x.scatter_reduce(1, ad.tensor([[1, 1, 0]]), s, reduce, include_self=include_self)
    y.backward(_t([[1., 2, 3]]))
    assert y.tolist() == [[1.0, 3.0, 3.0]]
    want_x = [[0.5, 2 / 3, 3.0]] if include_self else [[0.0, 0.0, 3.0]]
    np.testing.assert_allclose(x.grad.numpy(), want_x, rtol=1e-15)
    np.testing.assert_allclose(s.grad.numpy(), [[2 / 3, 2 / 3, 0.5]], rtol=1e-15)


@pytest.mark.parametrize("include_self, want_s", [(True, [[0.0, 0.0, 4.0], [0.0, 0.0, 0.0]]),
                                                  (False, [[5.0, 0.0, 2.0], [0.0, 36.0, 0.0]])])
def test_scatter_reduce_prod_with_zeros_as_pytorch(include_self, want_s):
    x = _t([[0., 2, 3], [1, 0, 0]], True)
    s = _t([[0., 5, 0], [2, 0, 3]], True)
    y = x.scatter_reduce(1, ad.tensor([[0, 0, 1], [2, 2, 2]]), s, "prod", include_self=include_self)
    y.backward(_t([[1., 2, 3], [4, 5, 6]]))
    assert y.tolist() == [[0.0, 0.0, 3.0], [1.0, 0.0, 0.0]]
    assert x.grad.tolist() == [[0.0, 0.0, 3.0], [4.0, 5.0, 0.0]]
    assert s.grad.tolist() == want_s


def test_scatter_reduce_integral_mean_rounds_down():
    x, i, s = ad.tensor([1, 2]), ad.tensor([0, 0]), ad.tensor([3, 4])
    assert x.scatter_reduce(0, i, s, "mean").tolist() == [2, 2]
    assert x.scatter_reduce(0, i, s, "mean", include_self=False).tolist() == [3, 2]
    assert _t([1., 2]).scatter_reduce(0, i, _t([3., 4]), "mean", include_self=False).tolist() == [3.5, 2.0]


# ------------------------------------------------------------------------------- integer results

@pytest.mark.parametrize("row, col, offset", [(3, 3, 0), (3, 4, 1), (4, 3, -1), (4, 3, 1), (0, 3, 0), (3, 4, -5)])
def test_triangle_indices_match_numpy(row, col, offset):
    lower = ad.tril_indices(row, col, offset)
    upper = ad.triu_indices(row, col, offset)
    assert lower.dtype == ad.int64 and not lower.requires_grad
    assert lower.tolist() == np.stack(np.tril_indices(row, offset, col)).tolist()
    assert upper.tolist() == np.stack(np.triu_indices(row, offset, col)).tolist()
    assert ad.tril_indices(row, col, offset, dtype=ad.int32).dtype == ad.int32


def test_cartesian_prod_of_integers_and_of_one_tensor():
    assert ad.cartesian_prod(ad.tensor([1, 2]), ad.tensor([3, 4, 5])).tolist() == \
        [[1, 3], [1, 4], [1, 5], [2, 3], [2, 4], [2, 5]]
    a = _t([1., 2.])
    assert ad.cartesian_prod(a) is a


def test_block_diag_promotes_and_takes_empty_blocks():
    out = ad.block_diag(ad.tensor([1., 2.], dtype=ad.float32), ad.tensor([[3]]))
    assert out.dtype == ad.float32 and out.tolist() == [[1, 2, 0], [0, 0, 3]]
    assert tuple(ad.block_diag(ad.zeros(0, 2), ad.zeros(2, 0)).shape) == (2, 2)


# ------------------------------------------------------------------------- views, the same tensor

def test_broadcast_tensors_and_atleast_keep_a_tensor_that_fits():
    b = _t(np.ones((2, 3)), True)
    assert ad.broadcast_tensors(b, _t([1., 2, 3]))[0] is b
    assert ad.atleast_1d(b) is b and ad.atleast_2d(b) is b
    assert isinstance(ad.atleast_1d([b]), tuple) and isinstance(ad.atleast_1d(b, b), tuple)


def test_unfold_is_a_view_of_its_input():
    x = ad.arange(6.).reshape(2, 3)
    u = x.unfold(1, 2, 1)
    assert u.tolist() == [[[0, 1], [1, 2]], [[3, 4], [4, 5]]]
    x[0, 1] = 10.0
    assert u[0, 0, 1].item() == 10.0 and u[0, 1, 0].item() == 10.0
    assert ad.tensor(3.).unfold(0, 1, 1).tolist() == [3.0]
    assert tuple(x.unfold(1, 0, 1).shape) == (2, 4, 0)


def test_writing_into_overlapping_windows_is_refused():
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
        (_t(np.ones((2, 4)), True) * 1).unfold(1, 2, 1).mul_(2)


def test_meshgrid_without_indexing_warns_as_pytorch_and_is_ij():
    a, b = _t([1., 2., 3.]), _t([4., 5.])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        x, y = ad.meshgrid(a, b)
    assert [str(w.message) for w in caught] == [
        "torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument."]
    assert caught[0].category is UserWarning
    assert tuple(x.shape) == (3, 2) and tuple(ad.meshgrid(a, b, indexing="xy")[0].shape) == (2, 3)


def test_new_constructors():
    x = _t([1., 2.], True)
    for made in (x.new_empty(2, 3), x.new_empty((2, 3)), x.new_zeros(2, 3), x.new_ones((2, 3)),
                 x.new_full((2, 3), 1.5), x.new(2, 3)):
        assert tuple(made.shape) == (2, 3) and made.dtype == D and not made.requires_grad
    assert x.new_empty(2, dtype=ad.int32).dtype == ad.int32
    assert x.new_empty(2, requires_grad=True).requires_grad
    assert x.new_tensor([1, 2]).dtype == D and x.new([1., 2.]).tolist() == [1.0, 2.0]


# ------------------------------------------------------------------------ bad input, PyTorch's words

F32 = ad.float32  # (the suite's default dtype is float64)
_A, _B, _I = ad.randn(3, dtype=F32), ad.randn(2, 3, dtype=F32), ad.tensor([[0, 1, 0], [1, 1, 1]])

REFUSALS = [
    (lambda: ad.broadcast_tensors(_A, ad.randn(2)), RuntimeError,
     "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0"),
    (lambda: ad.broadcast_tensors(_A, 2), TypeError, "expected Tensor as element 1 in argument 0, but got int"),
    (lambda: ad.meshgrid(_A, _B, indexing="ij"), RuntimeError,
     "torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: "),
    (lambda: ad.meshgrid(_A, _A, indexing="foo"), RuntimeError,
     'torch.meshgrid: indexing must be one of "xy" or "ij", but received: foo'),
    (lambda: ad.meshgrid(indexing="ij"), RuntimeError, "meshgrid expects a non-empty TensorList"),
    (lambda: ad.meshgrid(_A, _A.double(), indexing="ij"), RuntimeError,
     "meshgrid expects all tensors to have the same dtype"),
    (lambda: ad.atleast_2d(1.5), TypeError, "atleast_2d() received an invalid combination of arguments - got (float)"),
    (lambda: ad.atleast_1d(_A, [_A]), TypeError, "expected Tensor as element 1 in argument 0, but got list"),
    (lambda: ad.hstack([]), RuntimeError, "hstack expects a non-empty TensorList"),
    (lambda: ad.column_stack([]), RuntimeError, "column_stack expects a non-empty TensorList"),
    (lambda: ad.hstack(_A), TypeError, "hstack(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor"),
    (lambda: ad.vstack([_A, _B[:, :2]]), RuntimeError,
     "Sizes of tensors must match except in dimension 0. Expected size 3 but got size 2 for tensor number 1 in the list."),
    (lambda: ad.dstack([_A, ad.randn(2)]), RuntimeError,
     "Sizes of tensors must match except in dimension 2. Expected size 3 but got size 2 for tensor number 1 in the list."),
    (lambda: ad.column_stack([ad.randn(2, 2, 2), ad.randn(2)]), RuntimeError,
     "Tensors must have same number of dimensions: got 3 and 2"),
    (lambda: _B.unfold(1, 4, 1), RuntimeError, "maximum size for tensor at dimension 1 is 3 but size is 4"),
    (lambda: _B.unfold(1, 2, 0), RuntimeError, "step is 0 but must be > 0"),
    (lambda: _B.unfold(1, -1, 1), RuntimeError, "size is -1 but must be >= 0"),
    (lambda: _B.unfold(2, 2, 1), IndexError, "Dimension out of range (expected to be in range of [-2, 1], but got 2)"),
    (lambda: ad.tensor(1.).unfold(0, 2, 1), RuntimeError, "maximum size for tensor at dimension 0 is 1 but size is 2"),
    (lambda: ad.take(_B, ad.tensor([6])), IndexError, "out of range: tried to access index 6 on a tensor of 6 elements."),
    (lambda: ad.take(_B, ad.tensor([-7])), IndexError, "out of range: tried to access index -7 on a tensor of 6 elements."),
    (lambda: ad.take(_B, ad.tensor([1.], dtype=F32)), RuntimeError, "take(): Expected a long tensor for index, but got Float"),
    (lambda: ad.take(_B, ad.tensor([1], dtype=ad.int32)), RuntimeError,
     "take(): Expected a long tensor for index, but got Int"),
    (lambda: ad.cartesian_prod(_B), RuntimeError, "Expect a 1D vector, but got shape [2, 3]"),
    (lambda: ad.cartesian_prod(), RuntimeError, "meshgrid expects a non-empty TensorList"),
    (lambda: ad.block_diag(ad.randn(2, 2, 2)), RuntimeError,
     "torch.block_diag: Input tensors must have 2 or fewer dimensions. Input 0 has 3 dimensions"),
    (lambda: ad.tril_indices(3, 3, dtype=ad.float32), NotImplementedError,
     "\"tril_indices\" not implemented for 'Float'"),
    (lambda: ad.tril_indices(-1, 3), RuntimeError, "row must be non-negative, got-1"),
    (lambda: ad.triu_indices(3, -2), RuntimeError, "col must be non-negative, got-2"),
    (lambda: ad.rsub(ad.tensor([True]), ad.tensor([True])), RuntimeError,
     "Subtraction, the `-` operator, with two bool tensors is not supported."),
    (lambda: ad.rsub(ad.tensor([1, 2]), ad.tensor([3]), alpha=1.5), RuntimeError,
     "For integral input tensors, argument alpha must not be a floating point number."),
    (lambda: ad.rsub(2, _A), TypeError,
     "rsub() received an invalid combination of arguments - got (int, Tensor), but expected one of:\n"
     " * (Tensor input, Tensor other, *, Number alpha = 1)\n * (Tensor input, Number other, Number alpha = 1)\n"),
    (lambda: ad.renorm(_B, 0, 0, 1), RuntimeError, "renorm: non-positive-norm not supported"),
    (lambda: ad.renorm(_B, 2, 0, -1), RuntimeError, "renorm: expected maxnorm to be >= 0 but got -1"),
    (lambda: ad.renorm(_A, 2, 0, 1), RuntimeError, "renorm: input needs at least 2 dimensions, got 1 dimensions"),
    (lambda: ad.renorm(ad.tensor([[1, 2]]), 2, 0, 1), RuntimeError,
     "linalg.vector_norm: Expected a floating point or complex tensor as input. Got Long"),
    (lambda: _B.index_put((ad.tensor([3]),), ad.tensor(1., dtype=F32)), IndexError,
     "index 3 is out of bounds for dimension 0 with size 2"),
    (lambda: _B.index_put((ad.tensor([1]),), ad.tensor(1., dtype=D)), RuntimeError,
     "Index put requires the source and destination dtypes match, got Float for the destination and Double for "
     "the source."),
    (lambda: _B.index_put((ad.tensor([1.]),), ad.tensor(1., dtype=F32)), IndexError,
     "tensors used as indices must be long, int, byte or bool tensors"),
    (lambda: _B.index_put((ad.tensor([1]),) * 3, ad.tensor(1., dtype=F32)), IndexError,
     "too many indices for tensor of dimension 2 (got 3)"),
    (lambda: _B.index_put((ad.tensor([1]),), ad.randn(4, dtype=F32)), RuntimeError,
     "shape mismatch: value tensor of shape [4] cannot be broadcast to indexing result of shape [1, 3]"),
    (lambda: _B.index_put((None, ad.tensor([1])), ad.randn(2, dtype=F32)), TypeError,
     "expected Tensor as element 0 in argument 0, but got NoneType"),
    (lambda: _B.scatter_reduce(1, _I, _B, "max"), RuntimeError,
     "reduce argument must be either sum, prod, mean, amax or amin, got max"),
    (lambda: _B.scatter_reduce(1, _I.float(), _B, "sum"), RuntimeError, "scatter(): Expected dtype int32/int64 for index"),
    (lambda: _B.scatter_reduce(1, _I, _B.double(), "sum"), RuntimeError,
     "scatter(): Expected self.dtype to be equal to src.dtype"),
    (lambda: _B.scatter_reduce(1, _I + 5, _B, "sum"), RuntimeError, "index 5 is out of bounds for dimension 1 with size 3"),
    (lambda: _B.scatter_reduce(1, _I, _B[:, :2], "sum"), RuntimeError,
     "Expected index [2, 3] to be no larger than self [2, 3] apart from dimension 1 and to be no larger size than "
     "src [2, 2]"),
]


@pytest.mark.parametrize("call, kind, words", REFUSALS, ids=range(len(REFUSALS)))
def test_bad_input_is_refused_in_pytorchs_words(call, kind, words):
    with pytest.raises(kind) as caught:
        call()
    assert type(caught.value) is kind
    assert str(caught.value).startswith(words), str(caught.value)


# --------------------------------------------------------------------------------- the language

def test_every_name_runs_in_the_language(cli):
    out = cli.run_ok("""
        a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        b = torch.tensor([[4.0, 5.0, 6.0]], requires_grad=True)
        print(torch.hstack([a, a]).grad_fn.name(), torch.vstack([a, b]).shape, torch.row_stack([a, a]).shape)
        print(torch.dstack([a, a]).shape, torch.column_stack([a, a]).shape)
        x, y = torch.meshgrid(a, a[:2], indexing='xy')
        print(x.shape, torch.broadcast_tensors(a, b)[0].grad_fn.name())
        print(torch.atleast_1d(a[0]).shape, torch.atleast_2d(a).shape, torch.atleast_3d(a).shape)
        print(a.unfold(0, 2, 1).grad_fn.name(), torch.take(b, torch.tensor([0, 2])).tolist())
        print(torch.cartesian_prod(a, a).shape, torch.block_diag(a, b).grad_fn.name())
        print(torch.tril_indices(3, 3).tolist(), torch.triu_indices(2, 3, 1).tolist())
        print(torch.rsub(a, b).grad_fn.name(), torch.renorm(b, 2, 0, 1.0).grad_fn.name(), b.take(torch.tensor([1])))
        z = b.index_put((torch.tensor([0]), torch.tensor([1])), torch.tensor(9.0))
        w = torch.scatter_reduce(b, 1, torch.tensor([[0, 0, 1]]), b, reduce='amax')
        print(z.tolist(), w.grad_fn.name(), torch.index_put(b, (torch.tensor([0]),), torch.tensor(1.0)).shape)
        c = b * 1
        c.index_put_((torch.tensor([0]),), torch.tensor([1.0, 2.0, 3.0]), accumulate=True)
        c.scatter_reduce_(1, torch.tensor([[0, 0, 1]]), b, 'sum')
        c.renorm_(2, 0, 1.0)
        print(c.grad_fn.name(), a.new_empty(2).shape, torch.index_put_(c, (torch.tensor([0]),), torch.tensor(0.0)).shape)
        """).splitlines()
    assert out == [
        "CatBackward0 torch.Size([2, 3]) torch.Size([2, 3])",
        "torch.Size([1, 3, 2]) torch.Size([3, 2])",
        "torch.Size([2, 3]) ExpandBackward0",
        "torch.Size([1]) torch.Size([1, 3]) torch.Size([1, 3, 1])",
        "UnfoldBackward0 [4.0, 6.0]",
        "torch.Size([9, 2]) BlockDiagBackward0",
        "[[0, 1, 1, 2, 2, 2], [0, 0, 1, 0, 1, 2]] [[0, 0, 1], [1, 2, 2]]",
        "RsubBackward0 RenormBackward0 tensor([5.], grad_fn=<TakeBackward0>)",
        "[[4.0, 9.0, 6.0]] ScatterReduceBackward0 torch.Size([1, 3])",
        "RenormBackward0 torch.Size([2]) torch.Size([1, 3])",
    ]


def test_block_diag_result_type_is_pytorchs():
    assert ad.block_diag(ad.tensor([1., 2.], dtype=ad.float16), ad.tensor([[3]])).dtype == ad.float16
    assert ad.block_diag(ad.tensor([1, 2], dtype=ad.int32), ad.tensor([[3]], dtype=ad.uint8)).dtype == ad.int32
    assert ad.block_diag(ad.tensor([True]), ad.tensor([[3]], dtype=ad.int8)).dtype == ad.int8
