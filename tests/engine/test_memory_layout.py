"""Tensor memory layout as PyTorch 2.13 reports it (values taken from PyTorch itself for the same
calls): stride(), is_contiguous(), contiguous() (a row-major copy with CloneBackward0, or the
tensor itself), storage_offset() and data_ptr()."""
import autodiff.engine as ad


def test_stride_and_contiguity():
    x = ad.arange(6.).reshape(2, 3).requires_grad_()
    assert x.stride() == (3, 1) and x.stride(0) == 3 and x.stride(-1) == 1
    assert x.t().stride() == (1, 3) and not x.t().is_contiguous()
    assert not x[:, 1].is_contiguous() and x[1].is_contiguous()
    assert ad.tensor(1.).is_contiguous() and ad.tensor(1.).stride() == ()
    assert not x.expand(2, 2, 3).is_contiguous() and x.expand(2, 2, 3).stride() == (0, 3, 1)


def test_contiguous_copies_only_when_needed():
    x = ad.arange(6.).reshape(2, 3).requires_grad_()
    assert x.contiguous() is x
    y = x.t().contiguous()
    assert y.grad_fn.name() == "CloneBackward0" and y.is_contiguous() and y.stride() == (2, 1)
    assert y.view(-1).tolist() == [0., 3., 1., 4., 2., 5.]
    assert y.data_ptr() != x.data_ptr()
    y.sum().backward()
    assert x.grad.tolist() == [[1., 1., 1.], [1., 1., 1.]]
    assert x.expand(2, 2, 3).contiguous().stride() == (6, 3, 1)


def test_storage_offset_and_data_ptr():
    x = ad.arange(6.).reshape(2, 3)
    assert x.storage_offset() == 0 and x[:, 1].storage_offset() == 1 and x[1, 2:].storage_offset() == 5
    assert x[1].data_ptr() - x.data_ptr() == 3 * x.element_size()
    assert x.view(3, 2).data_ptr() == x.data_ptr()
