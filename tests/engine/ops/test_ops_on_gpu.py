"""Every case of the op table on 'cuda': the same values, gradients and second
derivatives as on the CPU, and every result on the device.

The CPU results are themselves checked against numpy and finite differences
(tests/engine/ops/test_ops.py); here the device run must agree with them. Each case runs
on the stand-in GPU (tests/support/fakecuda.py, which behaves as CuPy does where the
engine could tell the difference) and, where CuPy sees a GPU, on the real one.
Weights for the vector-Jacobian products are drawn with a seed fixed by the
case, the same on both devices.

An output made of vectors defined only up to sign (singular vectors, eigenvectors: a case's
`sign_gauge`) is not unique: the GPU's solver may pick other signs than LAPACK's, as validly.
There the value is compared with each device vector's sign aligned to the CPU's, and the
derivatives are those of sum(w * out * out) instead of sum(w * out): a function blind to the
signs, so its derivatives are unique too (PyTorch's own tests check svd and eigh through such
gauge-invariant functions).
"""
import zlib

import numpy as np
import pytest

import autodiff.engine as ad
from op_cases import CASES, make_arrays
from cuda_fixtures import cuda_array_type

# The rtol between a device's result and the CPU's: the same formulas, but a GPU's maths library
# may round the last bit of a transcendental function differently.
RTOL, ATOL = 1e-9, 1e-12


# Internal rows applied directly with host (numpy) index arrays or a CPU target as parameters: on
# the device the engine passes them device arrays (their public forms -- gather, scatter, indexing,
# .to -- run here through other cases).
HOST_PARAMETERS = {"take_along-dim1", "take_along-dim0_distinct", "put_along-dim1", "put_along-dim0",
                   "put_along-repeated", "index_grad-repeats", "index_grad-two_arrays", "index_grad-bool_mask",
                   "to_device-cpu_to_cpu", "to_device-scalar", "max_pool_backward-spread", "max_pool_backward-adaptive",
                   "max_pool_backward-adaptive_3d", "max_pool_backward-3d", "avg_pool_backward-spread",
                   "upsample_backward-linear_taps", "upsample_backward-nearest_taps"}


# Rows that run on the CPU only (as_strided and its kin make views over the host array's buffer):
# on a device they refuse with a message (tests/engine/test_strided.py checks it)
CPU_ONLY = {"as_strided_view", "as_strided_overlap_view", "strided_gather", "strided_scatter", "as_strided_scatter"}


def _cases():
    out = []
    for c in CASES:
        marks = ()
        if "forward" in c.xfail or "runs" in c.xfail or "grad" in c.xfail:  # no CPU result to compare with
            marks = (pytest.mark.skip(reason=c.xfail.get("forward") or c.xfail.get("runs") or c.xfail["grad"]),)
        elif c.id in HOST_PARAMETERS:
            marks = (pytest.mark.skip(reason="an internal row given host parameters by the case"),)
        elif c.op in CPU_ONLY:
            marks = (pytest.mark.skip(reason="as_strided and its kin run on the CPU only"),)
        out.append(pytest.param(c, id=c.id, marks=marks))
    return out


def _inputs(case, device):
    tensors = []
    for i, a in enumerate(make_arrays(case)):
        wants = a.dtype.kind == "f" and (case.requires is None or case.requires[i])
        tensors.append(ad.tensor(a, device=device, requires_grad=bool(wants)))
    return tensors


def _host(t):
    return None if t is None else np.asarray(t.detach().cpu().numpy())


def _on(device, case):
    """The case's derivatives with `device` as the default device, so that the tensors a case
    makes itself (index tensors, class weights) live there too, as torch.set_default_device does."""
    before = ad.get_default_device()
    ad.set_default_device(device)
    try:
        return _derivatives(case, device)
    finally:
        ad.set_default_device(before)


def _derivatives(case, device):
    """(value, first derivatives, second derivatives, the tensors made) of the case on `device`."""
    inputs = _inputs(case, device)
    out = case.fn(*inputs)
    made = [out]
    if not (case.differentiable and out.requires_grad):
        return _host(out), [], [], made
    rng = np.random.default_rng(zlib.crc32(case.id.encode()) + 1)
    weights = ad.tensor(rng.standard_normal(out.shape), dtype=out.dtype, device=device)
    wanted = [t for t in inputs if t.requires_grad]
    seen = out * out if case.sign_gauge is not None else out  # (blind to the vectors' signs)
    first = ad.grad((seen * weights).sum(), wanted, create_graph=True, allow_unused=True)
    made += [g for g in first if g is not None]
    second = []
    live = [g for g in first if g is not None and g.requires_grad]
    if case.gradgrad is True and live:
        total = sum((g * ad.tensor(rng.standard_normal(g.shape), dtype=g.dtype, device=device)).sum()
                    for g in live)
        second = ad.grad(total, wanted, allow_unused=True)
        made += [g for g in second if g is not None]
    return _host(out), [_host(g) for g in first], [_host(g) for g in second], made


@pytest.mark.parametrize("case", _cases())
def test_op_on_cuda_matches_cpu(case, cuda):
    on_cpu = _on("cpu", case)
    on_gpu = _on(cuda, case)
    for t in on_gpu[3]:
        assert t.device.type == "cuda" and type(t.array) is cuda_array_type(), (t.device, type(t.array))
    for what, want, got in zip(("value", "first derivatives", "second derivatives"), on_cpu, on_gpu):
        if what == "value":
            if case.sign_gauge is not None:
                got = _signs_aligned(got, want, case.sign_gauge)
            want, got = [want], [got]
        assert len(got) == len(want), what
        for k, (w, g) in enumerate(zip(want, got)):
            assert (w is None) == (g is None), f"{what} {k}: {g} where the CPU gives {w}"
            if w is None:
                continue
            assert g.shape == w.shape and g.dtype == w.dtype, f"{what} {k}: {g.shape} {g.dtype}, {w.shape} {w.dtype}"
            if w.dtype.kind in "fc":
                np.testing.assert_allclose(g, w, rtol=RTOL, atol=ATOL, err_msg=f"{what} {k}")
            else:
                np.testing.assert_array_equal(g, w, err_msg=f"{what} {k}")


def _signs_aligned(got, want, axis):
    """`got`'s vectors (numbered along `axis`, -1 for columns or -2 for rows) each multiplied by
    the sign that turns it towards `want`'s: the sign of their inner product, which is +-1 up to
    rounding where both are the same unit vector up to sign (and 0 only where they differ)."""
    along = -2 if axis == -1 else -1
    sign = np.sign((got * want).sum(axis=along, keepdims=True))
    return got * np.where(sign == 0, 1, sign)
