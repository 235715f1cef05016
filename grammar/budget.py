"""A program's budgets, in one table: what each bounds, the option that sets it, its default.

A budget is a limit a user can meet with reasonable input and may want to
raise: the commands take each as an option (cli/options.py makes the options
from this table), the README's table of budgets is this table, and every
error a budget raises ends with `(limit ...; raise it with --option)`
(`over_budget`). While a job runs, its size budgets are the values in force
(`in_force`), read by the checks in limits.py.

The memory budget: while a job runs, the process's address space may grow by
the budget. The job's growth is looked at every few thousand interpreter
steps, tokens or compiled items (`check_memory`) and stops it past the budget;
the operating system's limit (RLIMIT_AS) is the budget plus HEADROOM, so that
a single large allocation past it -- a tensor, numpy's scratch space -- fails
at once with MemoryError while there is still room to report it. Either way
the job reports that it went past its memory budget. The engine makes no
tensor larger than the budget (its allocation cap). Where the operating system
has no such limit (or the job runs on a GPU, whose driver reserves address
space of its own), only the engine's cap and the size budgets apply.
"""
import contextlib
import math
import os
import re
import sys
from typing import NamedTuple

from ..engine import allocation, backend

try:
    import resource
except ImportError:  # not a POSIX system
    resource = None

__all__ = ["Budget", "BUDGETS", "BY_KEY", "DEFAULT_MAX_MEMORY", "default", "defaults", "over_budget", "raise_hint",
           "in_force", "current", "MemoryBudget", "check_memory", "parse_size", "format_size", "budget_message",
           "memory_error_message", "BUDGET_HINT"]

PROGRAM_COMMANDS = ("eval", "run", "repl", "test", "graph", "minimize")


class Budget(NamedTuple):
    key: str            # the keyword JobOptions, Session and the commands take: "max_steps"
    option: str         # "--max-steps"
    default: object     # a number (bytes for memory, seconds for time)
    what: str           # what it bounds, as --help and the README say it
    kind: str = "count"  # "count", "size" (4G, 512M) or "seconds"
    commands: tuple = PROGRAM_COMMANDS
    unit: str = ""      # what it counts, in an error's `(limit 200 calls; ...)`
    job_default: object = None   # the default for one eval job (eval, graph, minimize), where it differs
    most: int = None    # the largest value the option takes


BUDGETS = (
    Budget("max_steps", "--max-steps", 100_000_000,
           "interpreter steps a program may take (a loop that never ends stops)", unit="steps",
           job_default=10_000_000),
    Budget("max_memory", "--max-memory", 4 << 30,
           "memory a job may add to the process: its tensors, lists and strings, parsing and compiling it",
           kind="size"),
    Budget("max_depth", "--max-depth", 200, "how deep calls of the program's functions may nest", unit="calls",
           most=10_000),
    Budget("max_items", "--max-items", 10_000_000,
           "items one step may put in a list, tuple, dict or string (characters)", unit="items"),
    Budget("max_digits", "--max-digits", 30_000, "digits of the largest whole number a program may make or print",
           unit="digits"),
    Budget("max_line_length", "--max-line-length", 1_000_000,
           "characters in one line of a program, and so in one job of a batch (checked before parsing)",
           unit="characters"),
    Budget("max_program_length", "--max-program-length", 10_000_000,
           "characters in a whole program or script (checked before parsing)", unit="characters"),
    Budget("timeout", "--timeout", 60.0, "seconds a test file may run", kind="seconds", commands=("test",)),
)
BY_KEY = {b.key: b for b in BUDGETS}
DEFAULT_MAX_MEMORY = BY_KEY["max_memory"].default


JOB_COMMANDS = ("eval", "graph", "minimize")  # the commands that run eval jobs


def default(budget, command):
    """A budget's default for `command`."""
    return budget.job_default if command in JOB_COMMANDS and budget.job_default is not None else budget.default


def defaults(command=None):
    """{key: default} of the budgets a command takes."""
    return {b.key: default(b, command) for b in BUDGETS if command is None or command in b.commands}


def raise_hint(key):
    """How to raise a budget: `raise it with --max-items`."""
    return f"raise it with {BY_KEY[key].option}"


def over_budget(key, limit=None, said=False):
    """The tail of a budget error: `(limit 10,000,000 items; raise it with --max-items)`, or with
    `said` (the message already gives the number), `(its limit; raise it with --max-steps)`."""
    if said:
        return f"(its limit; {raise_hint(key)})"
    if limit is None:
        limit = getattr(current, key)
    budget = BY_KEY[key]
    if budget.kind == "size":
        shown = format_size(limit)
    elif budget.kind == "seconds":
        shown = f"{limit:g} s"
    else:
        shown = f"{limit:,}" + (f" {budget.unit}" if budget.unit else "")
    return f"(limit {shown}; {raise_hint(key)})"


# ---------------------------------------------------------------- the values in force

class _Current:
    """The size budgets of the job running now (the defaults outside one)."""

    def __init__(self):
        self.max_items = BY_KEY["max_items"].default
        self.max_line_length = BY_KEY["max_line_length"].default
        self.max_program_length = BY_KEY["max_program_length"].default
        self.max_digits = BY_KEY["max_digits"].default

    @property
    def max_int_bits(self):
        """The bits of the largest whole number of `max_digits` digits."""
        return math.ceil(self.max_digits * math.log2(10))


current = _Current()

_SIZES = ("max_items", "max_digits", "max_line_length", "max_program_length")


@contextlib.contextmanager
def in_force(**budgets):
    """Within: the given size budgets (max_items, max_digits, ...; None keeps one) are the ones
    in force, and Python converts whole numbers of up to max_digits digits to and from text;
    the previous values come back afterwards."""
    previous = {key: getattr(current, key) for key in _SIZES}
    str_digits = getattr(sys, "get_int_max_str_digits", None)
    previous_digits = str_digits() if str_digits is not None else None
    try:
        for key in _SIZES:
            if budgets.get(key) is not None:
                setattr(current, key, int(budgets[key]))
        if previous_digits is not None:
            # Python's own guard (4,300 digits) becomes ours; a little over, so that our check,
            # with its message, is the one a program meets
            sys.set_int_max_str_digits(max(current.max_digits + 10, 640))
        yield current
    finally:
        for key, value in previous.items():
            setattr(current, key, value)
        if previous_digits is not None:
            sys.set_int_max_str_digits(previous_digits)


# ---------------------------------------------------------------- memory

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
            return f"{n:g} {unit}" if unit == "B" else f"{n:.3g} {unit}" if n < 1000 else f"{n:,.0f} {unit}"
        n /= 1024
    return f"{n} B"


def budget_message(max_bytes):
    return f"the job went past its memory budget {over_budget('max_memory', max_bytes)}"


BUDGET_HINT = "raise it with --max-memory (e.g. --max-memory 8G), or work on smaller tensors"

# numpy's words for an allocation that failed: "Unable to allocate 381. MiB for an array with shape
# (50000000,) and data type float64"
_NUMPY_ALLOCATION = re.compile(r"Unable to allocate ([\d.]+) ?(\w+) for an array with shape \(([^)]*)\) "
                               r"and data type (\w+)")
_BINARY_UNITS = {"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40, "PiB": 1 << 50,
                 "EiB": 1 << 60}


def memory_error_message(e, max_memory):
    """(message, hint) of a MemoryError in a job: an allocation past the budget (ours, numpy's or
    Python's), or one of the language's own size budgets (whose message already says which)."""
    if isinstance(e, allocation.AllocationRefused):  # the engine's words, with the budget that set its limit
        return f"{str(e).rsplit(' (limit', 1)[0]} {over_budget('max_memory', e.limit)}", None
    message = str(e)
    if message and not message.startswith("Unable to allocate"):
        return message, None
    m = _NUMPY_ALLOCATION.match(message)
    if m is not None:
        nbytes = float(m.group(1)) * _BINARY_UNITS.get(m.group(2), 1)
        shape = [int(s) for s in m.group(3).replace(" ", "").split(",") if s]
        detail = f" (an array of {format_size(nbytes)}, shape {shape}, {m.group(4)})"
        used = _address_space()
        if used is not None and used + nbytes <= max_memory:  # refused below the budget: by the machine
            return (f"the machine could not provide the memory for an array of {format_size(nbytes)}, shape "
                    f"{shape}, {m.group(4)} (the job's memory budget, {format_size(max_memory)}, is larger)",
                    "work on smaller tensors")
    elif message:
        detail = f" ({message[0].lower() + message[1:]})"
    else:
        detail = ""
    return budget_message(max_memory) + detail, BUDGET_HINT


def _address_space():
    """Bytes of address space the process uses now (Linux), or None. /proc/self/statm is opened once
    per process (a forked worker opens its own) and read again at offset 0: each read is the count now,
    at a seventh of an open's cost."""
    try:
        pid = os.getpid()
        if _statm[0] != pid:
            if _statm[1] is not None:
                os.close(_statm[1])  # (the parent's, inherited by fork)
            _statm[:] = [pid, os.open("/proc/self/statm", os.O_RDONLY)]
        return int(os.pread(_statm[1], 128, 0).split()[0]) * _PAGE
    except OSError:
        _statm[:] = [None, None]  # (a descriptor closed under us: the next read opens the file again)
        return None
    except (ValueError, IndexError):
        return None


_statm = [None, None]  # (the process it was opened in, the file descriptor of /proc/self/statm)


_PAGE = resource.getpagesize() if resource is not None else 4096

# The kernel's limit is the budget plus this much: room for the job to fail cleanly. At the very
# limit, CPython 3.11 can loop for good: an exception handler that needs a new int for its
# instruction offset retries that allocation without end when it fails. So the growth of many small
# objects (a program's steps, parsing, compiling) is checked against the budget itself now and then
# (`check_memory`), and stops with memory to spare; a single large allocation (a tensor) is refused
# by the engine's cap, or fails whole at the kernel's limit.
HEADROOM = 256 << 20


class _Watch:
    """The address-space limit of the job running now (None outside one), for check_memory."""
    limit = None


_watch = _Watch()


def check_memory():
    """MemoryError when the job has grown past its budget (a few microseconds: call it now and
    then, every few thousand steps)."""
    limit = _watch.limit
    if limit is not None:
        used = _address_space()
        if used is not None and used > limit:
            raise MemoryError()


class MemoryBudget:
    """Context manager: while inside, the process may grow by at most `max_bytes` (HEADROOM
    more at the kernel's limit), and the engine makes no tensor larger than that. A GPU's driver
    cannot work under a limit on address space: if one starts inside (a program's first tensor on
    'cuda'), the limit and the watch are lifted first, and none is set while one is loaded."""

    def __init__(self, max_bytes, enforce=True):
        self.max_bytes = max_bytes
        self.enforce = enforce and resource is not None
        self._previous = None
        self._cap = None
        self._watched = None
        self._forget = None

    def __enter__(self):
        self._cap = allocation.current_allocation_limit()
        allocation.set_allocation_limit(self.max_bytes)
        self.enforce = self.enforce and not backend.device_driver_loaded()
        if self.enforce:
            used = _address_space()
            if used is not None:
                self._watched = _watch.limit
                _watch.limit = used + self.max_bytes if self._watched is None else min(self._watched,
                                                                                       used + self.max_bytes)
                try:
                    self._previous = resource.getrlimit(resource.RLIMIT_AS)
                    hard = self._previous[1]
                    limit = used + self.max_bytes + HEADROOM
                    if hard != resource.RLIM_INFINITY:
                        limit = min(limit, hard)
                    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
                except (ValueError, OSError):
                    self._previous = None
            self._forget = backend.on_device_driver_start(self._lift)
        return self

    def _lift(self):
        """A device's driver is starting: this budget's kernel limit and watch stop here (the
        engine's cap on a tensor's size stays)."""
        self._restore_limit()
        _watch.limit = self._watched = None
        self.enforce = False

    def _restore_limit(self):
        if self._previous is not None:
            try:
                resource.setrlimit(resource.RLIMIT_AS, self._previous)
            except (ValueError, OSError):
                pass
            self._previous = None

    def __exit__(self, *exc):
        if self._forget is not None:
            self._forget()
            self._forget = None
        if self.enforce:
            _watch.limit = self._watched
        self._restore_limit()
        if self._cap is not None:
            allocation.set_allocation_limit(self._cap)
            self._cap = None
        return False
