"""The allocation budget: the largest tensor the engine makes, checked before it makes one, so an
absurd request (zeros(10**10)) is an error and not a machine brought to a halt."""

__all__ = ["allocation_limit", "set_allocation_limit", "current_allocation_limit", "check_allocation",
           "human_bytes", "AllocationRefused"]

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


def human_bytes(n):
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if n < 1024 or unit == "PiB":
            return f"{n:.1f} {unit}" if unit != "B" else f"{n} B"
        n /= 1024
    return f"{n} B"
