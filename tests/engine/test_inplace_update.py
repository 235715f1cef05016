"""An update that records nothing (`p -= lr * p.grad` under no_grad, `x += 1` on a tensor that wants
no gradient) runs its ufunc in the tensor's own memory, one pass and no new array
(core/inplace.py's update), where the general path computes a new array and writes it back. Both
must leave the same bits, the same version counter and the same errors: each case here runs the
method and the general path (core/inplace.py's inplace with the out-of-place function) side by side."""
import sys
import tracemalloc

import numpy
import pytest

import autodiff.engine as E

inplace = sys.modules[E.ones(1).sub_.__func__.__module__].inplace  # the general path (functions/surface.py's)

RNG = numpy.random.default_rng(7)
F32 = numpy.float32


def _pair(array, requires_grad=False):
    return (E.tensor(array, requires_grad=requires_grad), E.tensor(array, requires_grad=requires_grad))


def _other(kind, shape, dtype):
    if kind == "float":
        return 0.37
    if kind == "int":
        return 3
    if kind == "0-d":
        return E.tensor(numpy.asarray(RNG.standard_normal(), dtype=dtype))
    if kind == "0-d op":  # a 0-d result holds a numpy scalar, not an array
        return E.tensor(numpy.asarray(2.5, dtype=dtype)) * 1e-3
    if kind == "same shape":
        return E.tensor(RNG.standard_normal(shape).astype(dtype))
    if kind == "row":  # broadcast: the general path's
        return E.tensor(RNG.standard_normal(shape[-1:]).astype(dtype))
    if kind == "other dtype":  # promoted, then cast back: the general path's
        return E.tensor(RNG.standard_normal(shape).astype(numpy.float64 if dtype == F32 else F32))
    raise AssertionError(kind)


@pytest.mark.parametrize("method,function", [("add_", E.add), ("sub_", E.sub), ("mul_", E.mul)])
@pytest.mark.parametrize("kind", ["float", "int", "0-d", "0-d op", "same shape", "row", "other dtype"])
@pytest.mark.parametrize("dtype", [F32, numpy.float64])
@pytest.mark.parametrize("shape", [(), (5,), (3, 4)])
def test_an_unrecorded_update_leaves_what_the_general_path_leaves(method, function, kind, dtype, shape):
    if kind == "row" and not shape:
        pytest.skip("a 0-d tensor has no row")
    fast, general = _pair(RNG.standard_normal(shape).astype(dtype) * 1e3)
    other = _other(kind, shape, dtype)
    versions = fast._version, general._version
    out = getattr(fast, method)(other)
    inplace(general, function, other)
    assert out is fast
    assert fast.dtype == general.dtype and fast.shape == general.shape
    assert numpy.array_equal(fast.numpy(), general.numpy()), (fast, general)  # the same bits
    assert fast._version - versions[0] == general._version - versions[1] == 1


def test_the_update_writes_into_the_tensors_memory_in_one_pass():
    n = 1 << 16
    w = E.from_numpy(numpy.ones(n))
    shared = w.numpy()            # the user's numpy view of the same memory sees the update
    g = E.from_numpy(numpy.full(n, 0.5))
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        with E.no_grad():
            w -= g
            w *= 2.0
            w += 1
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    assert peak < n * 8 / 4, peak  # no array of w's size was made (the general path makes one per update)
    assert numpy.array_equal(shared, numpy.full(n, 2.0))


def test_a_parameter_update_under_no_grad_keeps_its_graph_state():
    p = E.tensor([1.0, 2.0], requires_grad=True)
    (p * p).sum().backward()
    with E.no_grad():
        p -= 0.1 * p.grad
    assert p.requires_grad and p.grad_fn is None and p.is_leaf
    assert p.tolist() == [1.0 - 0.1 * 2.0, 2.0 - 0.1 * 4.0]
    (p * 3).sum().backward()  # still a leaf that accumulates
    assert p.grad.tolist() == [2.0 + 3.0, 4.0 + 3.0]


def test_errors_are_the_general_paths():
    leaf = E.ones(3, requires_grad=True)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place"):
        leaf -= 1.0
    with E.inference_mode():
        frozen, frozen2 = E.ones(3), E.ones(3)
    with pytest.raises(RuntimeError, match="Inplace update to inference tensor outside InferenceMode"):
        frozen += 1.0
    with pytest.raises(RuntimeError, match="Inplace update to inference tensor outside InferenceMode"):
        inplace(frozen2, E.add, 1.0)
    assert numpy.array_equal(frozen.numpy(), frozen2.numpy())  # written before the check, as PyTorch does
    wide = E.ones(3)
    with pytest.raises(RuntimeError, match="doesn't match the broadcast shape"):
        wide += E.ones(2, 3)
    whole = E.ones(3, dtype=E.int64)
    with pytest.raises(RuntimeError, match="can't be cast to the desired output type"):
        whole += 0.5


def test_a_recorded_update_still_records():
    x = E.tensor([1.0, 2.0], requires_grad=True)
    y = x * 1.0
    y -= 3.0
    assert y.grad_fn.name() == "SubBackward0"
    y.sum().backward()
    assert x.grad.tolist() == [1.0, 1.0]


def test_a_view_and_its_base_see_one_update():
    base = E.zeros(2, 3)
    row = base[1]
    base += 1.0           # the base's memory, written in place: the view sees it
    row *= 4.0            # a view takes the general path
    assert base.tolist() == [[1.0, 1.0, 1.0], [4.0, 4.0, 4.0]]
    assert row._version == base._version == 2
