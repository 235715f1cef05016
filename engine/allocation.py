"""The allocation budget: the largest tensor the engine makes, checked before it makes one, so an
absurd request (zeros(10**10)) is an error and not a machine brought to a halt; and how the C
allocator treats the memory of large arrays once they are freed (keep_freed_memory)."""
import os

__all__ = ["allocation_limit", "set_allocation_limit", "current_allocation_limit", "check_allocation",
           "human_bytes", "AllocationRefused", "keep_freed_memory", "LARGE_BYTES"]

allocation_limit = [1 << 34]  # bytes; an absurd request is an error, not a frozen machine


class AllocationRefused(MemoryError):
    """A tensor larger than the allocation limit was asked for (its size, shape and the limit
    are kept, so a caller with a budget of its own can word the error in its terms)."""

    def __init__(self, nbytes, shape, limit):
        super().__init__(f"refusing to allocate {human_bytes(nbytes)} for a tensor of shape {list(shape)} "
                         f"(limit {human_bytes(limit)})")
        self.nbytes, self.shape, self.limit = nbytes, tuple(shape), limit


def set_allocation_limit(nbytes):
    """The largest tensor creation functions will make, in bytes."""
    allocation_limit[0] = int(nbytes)


def current_allocation_limit():
    return allocation_limit[0]


def check_allocation(shape, dtype):
    n = 1
    for s in shape:
        n *= s
    nbytes = n * dtype.itemsize
    if nbytes > allocation_limit[0]:
        raise AllocationRefused(nbytes, shape, allocation_limit[0])
    if nbytes >= LARGE_BYTES and not _freed_memory_kept[0]:
        keep_freed_memory()


# glibc's malloc hands out a large block (over M_MMAP_THRESHOLD, 128 KiB at first) as fresh pages
# from the kernel, and gives the top of its heap back once more than M_TRIM_THRESHOLD of it is free.
# Its own rule raises both after large frees, but not far enough for a step that frees its arrays
# and makes them again: a script's training loop on 10^5-10^7 elements then faults in every page of
# every new array, every step (200,000 float32: ~750 faults, 2.3 ms a step of 0.66 ms of maths).
# Set once, on the first large tensor, at the values glibc's rule itself reaches after freeing a
# 32 MiB array, so freed blocks are kept for the next step's arrays (a process holds up to 64 MiB
# of free heap more). Left alone where the user has tuned malloc, and off glibc.
LARGE_BYTES = 1 << 18            # an array this large is worth the C allocator's attention (numpy's elision threshold)
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3          # mallopt's parameters (malloc.h)
_MMAP_THRESHOLD = 32 << 20       # glibc's largest (DEFAULT_MMAP_THRESHOLD_MAX on 64-bit)
_TRIM_THRESHOLD = 2 * _MMAP_THRESHOLD                  # what glibc sets beside it
_USER_TUNED = ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "MALLOC_TOP_PAD_", "GLIBC_TUNABLES")
_freed_memory_kept = [False]     # asked already (whatever the answer)


def keep_freed_memory():
    """Have glibc's malloc keep the memory of freed large arrays for the next ones (see above).
    Returns whether it was set, now or before; once per process, on the first large tensor or
    operation."""
    if _freed_memory_kept[0]:
        return _freed_memory_kept[0] is True
    _freed_memory_kept[0] = "declined"
    if any(name in os.environ for name in _USER_TUNED):
        return False
    try:
        libc_version = os.confstr("CS_GNU_LIBC_VERSION") or ""
    except (AttributeError, ValueError, OSError):  # not a POSIX system, or no such name here
        return False
    if not libc_version.startswith("glibc"):
        return False
    import ctypes  # (here: 2 ms of import that a small job never needs)
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    if mallopt(_M_MMAP_THRESHOLD, _MMAP_THRESHOLD) != 1 or mallopt(_M_TRIM_THRESHOLD, _TRIM_THRESHOLD) != 1:
        return False
    _freed_memory_kept[0] = True
    return True


def human_bytes(n):
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if n < 1024 or unit == "PiB":
            return f"{n:.1f} {unit}" if unit != "B" else f"{n} B"
        n /= 1024
    return f"{n} B"
