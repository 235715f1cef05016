"""A job's memory budget and a GPU's driver: CUDA reserves address space of its own as it starts,
so a program that first puts a tensor on 'cuda' under `autodiff run`'s default budget (set for the
CPU) must start the driver with the kernel's limit lifted -- it failed with "no CUDA GPU is
available" on a real GPU before. The loader here is the engine's real one (backend._cupy_backend),
given a stand-in `cupy` module that records the limit in force when the driver is asked to start."""
import sys
import types

import numpy
import pytest

resource = pytest.importorskip("resource")

from autodiff.engine import backend  # noqa: E402
from autodiff.grammar.budget import MemoryBudget  # noqa: E402
from programs import run_program  # noqa: E402


@pytest.fixture
def recording_cupy(monkeypatch):
    """A `cupy` whose getDeviceCount records RLIMIT_AS's soft limit; the real loader behind 'cuda'."""
    seen = []

    def device_count():
        seen.append(resource.getrlimit(resource.RLIMIT_AS)[0])
        return 1

    fake = types.ModuleType("cupy")
    fake.cuda = types.SimpleNamespace(runtime=types.SimpleNamespace(getDeviceCount=device_count))
    fake.ndarray, fake.asnumpy, fake.asarray = numpy.ndarray, numpy.asarray, numpy.asarray
    monkeypatch.setitem(sys.modules, "cupy", fake)
    previous = backend.register_backend("cuda", backend._cupy_backend)
    try:
        yield seen
    finally:
        backend.register_backend("cuda", previous)


def test_the_driver_starts_with_the_budgets_limit_lifted(recording_cupy):
    unlimited = resource.getrlimit(resource.RLIMIT_AS)
    with MemoryBudget(1 << 30) as budget:
        assert resource.getrlimit(resource.RLIMIT_AS)[0] != unlimited[0]  # the budget holds until then
        assert backend.cuda_is_available()
        assert recording_cupy == [unlimited[0]]
        assert resource.getrlimit(resource.RLIMIT_AS) == unlimited and not budget.enforce
    assert resource.getrlimit(resource.RLIMIT_AS) == unlimited


def test_no_limit_is_set_while_a_driver_is_loaded(recording_cupy):
    unlimited = resource.getrlimit(resource.RLIMIT_AS)
    assert backend.cuda_is_available()
    with MemoryBudget(1 << 30), MemoryBudget(1 << 29):
        assert resource.getrlimit(resource.RLIMIT_AS) == unlimited
    assert recording_cupy == [unlimited[0]]


def test_nested_budgets_are_all_lifted_and_restored(recording_cupy):
    unlimited = resource.getrlimit(resource.RLIMIT_AS)
    with MemoryBudget(1 << 30):
        with MemoryBudget(1 << 29):
            backend.cuda_is_available()
        assert resource.getrlimit(resource.RLIMIT_AS) == unlimited
    assert resource.getrlimit(resource.RLIMIT_AS) == unlimited and recording_cupy == [unlimited[0]]


def test_a_program_that_first_asks_for_cuda_under_run_s_budget(recording_cupy):
    out, error = run_program("print(torch.cuda.is_available())\n")
    assert (out, error) == ("True\n", None)
    assert recording_cupy == [resource.getrlimit(resource.RLIMIT_AS)[0]]


def test_a_budget_without_a_driver_still_limits():
    unlimited = resource.getrlimit(resource.RLIMIT_AS)
    with MemoryBudget(1 << 30):
        soft = resource.getrlimit(resource.RLIMIT_AS)[0]
        assert soft != resource.RLIM_INFINITY and (unlimited[0] == resource.RLIM_INFINITY or soft < unlimited[0])
    assert resource.getrlimit(resource.RLIMIT_AS) == unlimited
