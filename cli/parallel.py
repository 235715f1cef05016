"""A batch of eval jobs over several worker processes, its output exactly as
one process writes it.

Lines are read lazily and sent to the workers in small chunks; each worker
runs a chunk through the very code a single process uses (`run_chunk`, with
its stdout and stderr caught), and the parent writes the chunks' output in
input order. At most a few chunks per worker are in flight, so memory stays
bounded however long the input is (a stream of 10^7 lines is never read
whole). Workers are forked after the parent has imported the engine and made
the lean lane's tables, so each starts warm; a worker builds the parser only
when one of its jobs needs the full pipeline.
"""
import collections
import contextlib
import io
import itertools
import multiprocessing
import sys
import warnings

__all__ = ["run_batch_in_workers", "CHUNK"]

CHUNK = 64          # jobs per message to a worker: large enough that pickling costs little
IN_FLIGHT = 4       # chunks per worker waiting or running at any time

# Python 3.12+ warns at every fork of a process with more than one thread, and numpy's BLAS keeps
# idle threads from import on: the workers run only our single-threaded jobs, so the warning says
# nothing to a user and must not land in the batch's output
_FORK_WARNING = r"This process \(pid=\d+\) is multi-threaded, use of fork\(\) may lead to deadlocks"

_setup = {}  # the worker's copy of what every chunk needs (set by the fork, never pickled)


def _portable(jobs):
    """Jobs as plain tuples (a bad line's SyntaxProblem as its fields), to send to a worker."""
    out = []
    for line, text, bad in jobs:
        out.append((line, text, None if bad is None else (bad.message, bad.start, bad.hint)))
    return out


def restored(jobs):
    """Jobs sent by `_portable`, as `job_lines` gave them (a bad line's SyntaxProblem rebuilt)."""
    from ..grammar.errors import SyntaxProblem
    return [(line, text, None if bad is None else SyntaxProblem(bad[0], bad[1], hint=bad[2]))
            for line, text, bad in jobs]


def _chunk_in_worker(args):
    index, jobs = args
    out, err = io.StringIO(), io.StringIO()
    run_chunk = _setup["run_chunk"]
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        failed = run_chunk(restored(jobs), first=index == 0)
    return out.getvalue(), err.getvalue(), failed


def chunks(jobs, size=CHUNK):
    """(index, portable jobs) of consecutive pieces of `size` jobs, read as they are needed."""
    iterator = iter(jobs)
    for index in itertools.count():
        chunk = list(itertools.islice(iterator, size))
        if not chunk:
            return
        yield index, _portable(chunk)


def run_batch_in_workers(jobs, run_chunk, workers, progress=None):
    """Run `jobs` (an iterator of (line, text, error)) in `workers` processes:
    `run_chunk(jobs, first=...)` runs a list of them and returns how many failed,
    writing to sys.stdout/sys.stderr as it goes. Returns the total failed.
    `progress(done)` is called as jobs finish (for a terminal's counter)."""
    if "fork" not in multiprocessing.get_all_start_methods():  # the workers' setup travels by forking
        return _in_this_process(jobs, run_chunk)
    from ..grammar import lean_lane
    lean_lane._get_lane()  # the engine and the lean lane's tables, made once here for every forked worker;
    # the parser is built by a worker only if one of its jobs needs the full pipeline (most batches never do)
    _setup["run_chunk"] = run_chunk
    ctx = multiprocessing.get_context("fork")
    failed = done = 0
    pending = collections.deque()
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", _FORK_WARNING, DeprecationWarning)
        with ctx.Pool(workers) as pool:
            try:
                for item in chunks(jobs):
                    pending.append((len(item[1]), pool.apply_async(_chunk_in_worker, (item,))))
                    while len(pending) >= workers * IN_FLIGHT or (pending and pending[0][1].ready()):
                        failed, done = _write(pending.popleft(), failed, done, progress)
                while pending:
                    failed, done = _write(pending.popleft(), failed, done, progress)
            finally:
                pool.terminate()
    return failed


def _in_this_process(jobs, run_chunk):
    """Where processes cannot fork: the same chunks, one after another, here."""
    failed = 0
    iterator = iter(jobs)
    first = True
    while True:
        chunk = list(itertools.islice(iterator, CHUNK))
        if not chunk:
            return failed
        failed += run_chunk(chunk, first=first)
        first = False


def _write(entry, failed, done, progress):
    count, result = entry
    return write_output(result.get(), count, failed, done, progress)


def write_output(result, count, failed, done, progress):
    """A chunk's caught (stdout text, stderr text, jobs failed), written here in order;
    the totals (failed, done) after it."""
    out, err, chunk_failed = result
    if err:
        sys.stderr.write(err)
        sys.stderr.flush()
    if out:
        sys.stdout.write(out)
        sys.stdout.flush()
    done += count
    if progress is not None:
        progress(done)
    return failed + chunk_failed, done
