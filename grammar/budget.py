"""A job's memory budget: past it, a clean error rather than a machine that
swaps or a process the kernel kills.

While a job runs, the process may not grow by more than the budget: the
limit on its address space (RLIMIT_AS) is set to what it uses now plus the
budget, and put back afterwards. Any allocation past that -- a tensor, a
list, a string, numpy's scratch space -- fails at once with MemoryError,
which the job reports as `past its memory budget`. Where the operating
system has no such limit (or the job runs on a GPU, whose driver reserves
address space of its own), the budget is not enforced this way; the
language's own size checks still apply.
"""
import re

try:
    import resource
except ImportError:  # not a POSIX system
    resource = None

__all__ = ["DEFAULT_MAX_MEMORY", "MemoryBudget", "parse_size", "format_size", "budget_message"]

DEFAULT_MAX_MEMORY = 4 << 30

_UNITS = {"": 1, "b": 1, "k": 1 << 10, "kb": 1 << 10, "kib": 1 << 10, "m": 1 << 20, "mb": 1 << 20,
          "mib": 1 << 20, "g": 1 << 30, "gb": 1 << 30, "gib": 1 << 30, "t": 1 << 40, "tb": 1 << 40,
          "tib": 1 << 40}
_SIZE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*\Z")


def parse_size(text):
    """Bytes from '4G', '512MiB', '1e9' or a plain number; ValueError otherwise."""
    m = _SIZE.match(str(text))
    if m is None or m.group(2).lower() not in _UNITS:
        raise ValueError(f"{text!r} is not a size (examples: 4G, 512M, 100000000)")
    size = int(float(m.group(1)) * _UNITS[m.group(2).lower()])
    if size <= 0:
        raise ValueError(f"{text!r}: a memory budget must be more than 0")
    return size


def format_size(n):
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if n < 1024 or unit == "TiB":
            return f"{n:g} {unit}" if unit == "B" else f"{n:.3g} {unit}"
        n /= 1024
    return f"{n} B"


def budget_message(max_bytes):
    return f"the job went past its memory budget of {format_size(max_bytes)}"


BUDGET_HINT = "raise it with --max-memory (e.g. --max-memory 8G), or work on smaller tensors"


def _address_space():
    """Bytes of address space the process uses now (Linux), or None."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[0]) * resource.getpagesize()
    except (OSError, ValueError, IndexError, AttributeError):
        return None


class MemoryBudget:
    """Context manager: while inside, the process may grow by at most `max_bytes`."""

    def __init__(self, max_bytes, enforce=True):
        self.max_bytes = max_bytes
        self.enforce = enforce and resource is not None
        self._previous = None

    def __enter__(self):
        if self.enforce:
            used = _address_space()
            if used is not None:
                try:
                    self._previous = resource.getrlimit(resource.RLIMIT_AS)
                    hard = self._previous[1]
                    limit = used + self.max_bytes
                    if hard != resource.RLIM_INFINITY:
                        limit = min(limit, hard)
                    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
                except (ValueError, OSError):
                    self._previous = None
        return self

    def __exit__(self, *exc):
        if self._previous is not None:
            try:
                resource.setrlimit(resource.RLIMIT_AS, self._previous)
            except (ValueError, OSError):
                pass
            self._previous = None
        return False
