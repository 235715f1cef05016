"""Fixtures for code on 'cuda': the stand-in GPU everywhere, and the real one where CuPy sees it.

Loaded for every test file (conftest.py's `pytest_plugins`):

    fake_cuda  'cuda' served by the stand-in (tests/support/fakecuda.py) for the test's duration
    cuda       the test runs twice, 'cuda' on the stand-in and on the real GPU (skipped
               where there is none); the fixture's value is the device name, "cuda"
    device     the test runs on "cpu", then as `cuda` does

`cuda_array_type()` is the array class a 'cuda' tensor holds in the running test
(FakeCudaArray or cupy.ndarray): a result that slipped off the device has another.
"""
import importlib.util

import pytest

import fakecuda


def _real_gpu():
    """CuPy's array type when CuPy is installed and sees a CUDA device, else None."""
    if importlib.util.find_spec("cupy") is None:
        return None
    try:
        import cupy
        return cupy.ndarray if cupy.cuda.runtime.getDeviceCount() > 0 else None
    except Exception:  # no driver, no device: CuPy raises its own CUDA errors
        return None


REAL_GPU = _real_gpu()
_serving = [fakecuda.FakeCudaArray]


def cuda_array_type():
    return _serving[0]


@pytest.fixture
def fake_cuda():
    """'cuda' served by the stand-in array module; the real loader restored afterwards."""
    previous = fakecuda.install()
    _serving[0] = fakecuda.FakeCudaArray
    try:
        yield
    finally:
        fakecuda.uninstall(previous)


def _serve(request, kind):
    if kind == "standin":
        request.getfixturevalue("fake_cuda")
    elif REAL_GPU is None:
        pytest.skip("no CUDA GPU with CuPy here")
    else:
        _serving[0] = REAL_GPU
    return "cuda"


@pytest.fixture(params=["standin", "gpu"])
def cuda(request):
    """'cuda' on the stand-in, then on the real GPU."""
    return _serve(request, request.param)


@pytest.fixture(params=["cpu", "cuda-standin", "cuda-gpu"])
def device(request):
    """The device a test body runs on: numpy, the stand-in GPU, the real GPU."""
    if request.param == "cpu":
        return "cpu"
    return _serve(request, request.param.split("-")[1])
