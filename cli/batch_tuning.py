"""Process settings for the span of a batch of jobs, put back when it ends.

Garbage collection: every job allocates many short-lived containers (token
lists, steps, tuples of values). CPython collects its youngest generation after
700 net allocations -- every few jobs -- and its older generations then walk
every object the imports made. Freezing what exists when the batch starts, and
collecting the youngest generation after 10,000 instead, takes about 3% off a
batch's instructions (callgrind, benchmarks/bench_cli.py's jobs). A full
collection walks every compiled template (grammar/compiled.py) kept: after 100
collections of the middle generation rather than 10, another 1.2%. Garbage
cycles still go, a little later.

Output: where PYTHONUNBUFFERED is set (as in many container images) stdout
writes through, so every job's line costs a system call -- on a pipe, a wake-up
of the reader too: 0.1-0.2 s of system time in a 10,000-job batch on this
2-core machine. When stdout is not a terminal, a batch lets its lines gather
into chunks instead; it flushes them before each read that may wait for input
(cli/inputs.job_lines), so a program feeding it a line at a time still gets
each answer at once.
"""
import contextlib
import gc
import sys

YOUNG_THRESHOLD = 10_000
FULL_EVERY = 100  # collections of the middle generation between two full ones (CPython's default: 10)


@contextlib.contextmanager
def batch_collection():
    """Within: collect less often, and never walk the objects that existed on entry."""
    before = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(max(YOUNG_THRESHOLD, before[0]), before[1], max(FULL_EVERY, before[2]))
    try:
        yield
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()


@contextlib.contextmanager
def gathered_stdout():
    """Within: stdout (when not a terminal) writes in chunks, not a system call per write."""
    out = sys.stdout
    through = getattr(out, "write_through", False)
    reconfigure = getattr(out, "reconfigure", None)
    if not through or reconfigure is None or out.isatty():
        yield
        return
    reconfigure(write_through=False)
    try:
        yield
    finally:
        try:
            out.flush()
        finally:
            reconfigure(write_through=True)


@contextlib.contextmanager
def batch_settings():
    with batch_collection(), gathered_stdout():
        yield
