"""A training loop on large tensors reuses the memory its last step freed (engine/allocation.py's
keep_freed_memory): glibc's malloc, left as it starts, gives a step's freed arrays back to the
kernel and faults every page of the next step's in again. What is checked is the effect a user's
script sees -- minor page faults per step, read from getrusage -- each in a fresh interpreter, since
the setting is the process's and made once."""
import os
import subprocess
import sys
import textwrap

import pytest

glibc_only = pytest.mark.skipif(
    not sys.platform.startswith("linux") or not (os.confstr("CS_GNU_LIBC_VERSION") or "").startswith("glibc"),
    reason="the setting is glibc's malloc's")

_TUNING = ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "MALLOC_TOP_PAD_", "GLIBC_TUNABLES")

# a step that makes six arrays of 800 KB, keeps them to its end and frees them (a forward's
# activations): with malloc as it starts, the heap's top is given back after every step (~1,100
# faults a step here); the polynomial step of benchmarks/bench_workloads.py faults ~750 times a
# step in some processes and not in others, by where its small blocks land
_STEPS = """
    import resource
    import autodiff.engine as torch
    x = torch.ones(200_000, dtype=torch.float32)

    def step():
        return [x * float(i) for i in range(6)]

    for _ in range(3):
        step()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(10):
        step()
    print((resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) / 10)
"""


def _python(code, **env):
    clean = {k: v for k, v in os.environ.items() if k not in _TUNING}
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=120, env={**clean, **env})
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.split()


@glibc_only
def test_a_loop_on_large_tensors_does_not_fault_its_memory_in_every_step():
    faults_per_step = float(_python(_STEPS)[-1])
    assert faults_per_step < 20, faults_per_step


@glibc_only
def test_the_setting_is_made_on_the_first_large_tensor_and_not_for_small_jobs():
    small, large, again = _python("""
        import autodiff.engine as torch
        from autodiff.engine import allocation
        torch.ones(3) * torch.ones(3)
        print(allocation._freed_memory_kept[0])
        torch.zeros(allocation.LARGE_BYTES // 4, dtype=torch.float32)
        print(allocation._freed_memory_kept[0], allocation.keep_freed_memory())
    """)
    assert (small, large, again) == ("False", "True", "True")


@glibc_only
def test_a_large_operation_on_arrays_made_elsewhere_makes_it_too():
    out = _python("""
        import numpy, autodiff.engine as torch
        from autodiff.engine import allocation
        x = torch.from_numpy(numpy.ones(allocation.LARGE_BYTES // 8))
        print(allocation._freed_memory_kept[0])
        x * 2.0 + x
        print(allocation._freed_memory_kept[0])
    """)
    assert out == ["False", "True"]


@glibc_only
@pytest.mark.parametrize("tuning", ["MALLOC_TRIM_THRESHOLD_=131072", "GLIBC_TUNABLES=glibc.malloc.trim_threshold=131072"])
def test_malloc_tuned_by_the_user_is_left_as_it_is(tuning):
    name, value = tuning.split("=", 1)
    out = _python("""
        from autodiff.engine import allocation
        print(allocation.keep_freed_memory(), allocation.keep_freed_memory())
    """, **{name: value})
    assert out == ["False", "False"]
