"""Garbage collection set for a batch of jobs.

Every job allocates many short-lived containers (token lists, steps, tuples of
values). CPython collects its youngest generation after 700 net allocations --
every few jobs -- and its older generations then walk every object the imports
made. Freezing what exists when the batch starts, and collecting the youngest
generation after 10,000 instead, takes about 4% off a batch's instructions
(callgrind, benchmarks/bench_cli.py's jobs). Garbage cycles still go, a little
later; everything is put back when the batch ends.
"""
import contextlib
import gc

YOUNG_THRESHOLD = 10_000


@contextlib.contextmanager
def batch_collection():
    """Within: collect less often, and never walk the objects that existed on entry."""
    before = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(max(YOUNG_THRESHOLD, before[0]), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()
