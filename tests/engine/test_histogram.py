"""torch.histogram and torch.histogramdd against numpy.histogram / numpy.histogramdd (same bins: the
last edge counts in the last bin, points outside the edges are left out), with weights and density,
and PyTorch's refusals in its words."""
import numpy as np
import pytest

import autodiff.engine as E

RNG = np.random.default_rng(7)
DATA = RNG.normal(size=40)  # (no value on an edge, where numpy's edges and PyTorch's may differ in the last bit)


@pytest.mark.parametrize("bins, range_", [(5, None), (3, (-1.0, 1.0)), (1, None), (7, (0.0, 0.5))])
@pytest.mark.parametrize("density", [False, True])
def test_histogram_int_bins_matches_numpy(bins, range_, density):
    w = RNG.uniform(0.5, 2.0, DATA.size)
    got = E.histogram(E.tensor(DATA.reshape(5, 8)), bins, range=range_, weight=E.tensor(w.reshape(5, 8)),
                      density=density)
    hist, edges = np.histogram(DATA, bins, range=range_, weights=w, density=density)
    np.testing.assert_allclose(got.bin_edges.numpy(), edges, atol=1e-14)
    np.testing.assert_allclose(got.hist.numpy(), hist, rtol=1e-12)
    assert type(got).__name__ == "histogram" and got.hist.dtype == E.float64 and not got.hist.requires_grad


def test_histogram_edges_tensor_and_float32():
    edges = np.array([-2.0, -0.5, 0.0, 0.3, 2.5], dtype=np.float32)
    x = DATA.astype(np.float32)
    hist, bin_edges = E.histogram(E.tensor(x), E.tensor(edges))
    want, _ = np.histogram(x, edges)
    assert hist.dtype == E.float32 and hist.tolist() == want.tolist() and bin_edges.tolist() == edges.tolist()


def test_histogram_edge_cases():
    # equal min and max: one unit wide, centred; NaN is left out only where a range is given
    assert E.histogram(E.tensor([1.0, 1.0]), 2).bin_edges.tolist() == [0.5, 1.0, 1.5]
    assert E.histogram(E.tensor([]), 2).bin_edges.tolist() == [0.0, 0.5, 1.0]  # no data: [0, 1]
    got = E.histogram(E.tensor([0.2, float("nan"), 0.9]), 2, range=(0.0, 1.0))
    assert got.hist.tolist() == [1.0, 1.0]


@pytest.mark.parametrize("bins", [3, [2, 4]])
def test_histogramdd_matches_numpy(bins):
    pts = RNG.normal(size=(30, 2))
    w = RNG.uniform(size=30)
    got = E.histogramdd(E.tensor(pts), bins, weight=E.tensor(w), density=True)
    hist, edges = np.histogramdd(pts, bins if isinstance(bins, list) else [bins] * 2, weights=w, density=True)
    np.testing.assert_allclose(got.hist.numpy(), hist, rtol=1e-12)
    assert len(got.bin_edges) == 2
    for ours, theirs in zip(got.bin_edges, edges):
        np.testing.assert_allclose(ours.numpy(), theirs, atol=1e-14)


def test_histogramdd_edge_tensors_and_range():
    pts = np.array([[0.0, 1], [1, 2], [2, 2.5], [3, 0]])
    got = E.histogramdd(E.tensor(pts), [E.tensor([0.0, 1, 3]), E.tensor([0.0, 3])])
    assert got.hist.tolist() == [[1.0], [3.0]]
    got = E.histogramdd(E.tensor(pts), [2, 3], range=[0.0, 3.0, 0.0, 3.0])
    want, _ = np.histogramdd(pts, [2, 3], range=[(0, 3), (0, 3)])
    assert got.hist.tolist() == want.tolist()
    empty = E.histogramdd(E.zeros(4, 0), bins=[])  # no dims: PyTorch's 0-d zero and no edges
    assert tuple(empty.hist.shape) == () and empty.hist.item() == 0 and empty.bin_edges == ()


X = E.tensor([1.0, 2.0, 4.0], dtype=E.float32)


@pytest.mark.parametrize("call, error, message", [
    (lambda: E.histogram(X, 0), RuntimeError, "torch.histogram(): bins must be > 0, but got 0 for dimension 0"),
    (lambda: E.histogram(X, E.tensor([2.0], dtype=E.float32)), RuntimeError,
     "torch.histogram(): bins must be > 0, but got 0 for dimension 0"),
    (lambda: E.histogram(X, 3, range=(2.0, 1.0)), RuntimeError,
     "torch.histogramdd: min should not exceed max, but got min 2 max 1 for dimension 0"),
    (lambda: E.histogram(X, 3, range=(0.0, float("inf"))), RuntimeError,
     "torch.histogramdd: dimension 0's range [0, inf] is not finite"),
    (lambda: E.histogram(E.tensor([1.0, float("nan")]), 3), RuntimeError,
     "torch.histogramdd: dimension 0's range [nan, nan] is not finite"),
    (lambda: E.histogram(X, 3, range=(0.0, 1.0, 2.0)), RuntimeError,
     "torch.histogramdd: for a 1-dimensional histogram range should have 2 elements, but got 3"),
    (lambda: E.histogram(X, E.tensor([[0.0, 1.0]], dtype=E.float32)), RuntimeError,
     "torch.histogramdd: bins tensor should have one dimension, but got 2 dimensions in the bins tensor for "
     "dimension 0"),
    (lambda: E.histogram(X, E.tensor([0.0, 1.0], dtype=E.float64)), RuntimeError,
     "torch.histogramdd: input tensor and bins tensors should have the same dtype, but got input with dtype float "
     "and bins for dimension 0 with dtype double"),
    (lambda: E.histogram(X, 3, weight=E.ones(2, dtype=E.float32)), RuntimeError,
     "torch.histogramdd: if weight tensor is provided it should have the same shape as the input tensor excluding "
     "its innermost dimension, but got input with shape [3, 1] and weight with shape [2]"),
    (lambda: E.histogram(X, 3, weight=E.ones(3, dtype=E.float64)), RuntimeError,
     "torch.histogramdd: if weight tensor is provided, input tensor and weight tensor should have the same dtype, "
     "but got input(float), and weight(double)"),
    (lambda: E.histogram(E.tensor([1, 2]), 3), NotImplementedError, "\"histogramdd\" not implemented for 'Long'"),
    (lambda: E.histogram(E.tensor([1, 2]), 3, range=(0.0, 1.0)), NotImplementedError,
     "\"histogram_cpu\" not implemented for 'Long'"),
    (lambda: E.histogramdd(X, 2), RuntimeError, "torch.histogramdd: input tensor should have at least 2 dimensions"),
    (lambda: E.histogramdd(E.zeros(4, 2), [2]), RuntimeError,
     "histogramdd: The size of bins must be equal to the innermost dimension of the input."),
    (lambda: E.histogramdd(E.zeros(4, 2), [E.tensor([0.0, 1.0])]), RuntimeError,
     "torch.histogramdd: expected 2 sequences of bin edges for a 2-dimensional histogram but got 1"),
    (lambda: E.histogramdd(E.zeros(4, 2), [E.tensor([0.0, 1.0]), E.zeros(0)]), RuntimeError,
     "torch.histogramdd: bins tensor should have at least 1 element, but got 0 elements in the bins tensor for "
     "dimension 1"),
    (lambda: E.histogramdd(E.zeros(4, 2), [2, 3], range=[0.0, 1.0]), RuntimeError,
     "torch.histogramdd: for a 2-dimensional histogram range should have 4 elements, but got 2"),
])
def test_refusals(call, error, message):
    with pytest.raises(error) as e:
        call()
    assert str(e.value) == message


def test_histogram_is_a_tensor_method_too():
    """x.histogram(...) is torch.histogram(x, ...), as PyTorch's Tensor has it (histogramdd it has not)."""
    data = np.array([1.0, 2.0, 1.0, 4.0, 3.5])
    hist, edges = E.tensor(data).histogram(3)
    expected, expected_edges = np.histogram(data, 3)
    assert hist.tolist() == expected.tolist() and np.allclose(edges.numpy(), expected_edges)
    assert not hasattr(E.Tensor, "histogramdd")
