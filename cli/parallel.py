"""A batch of eval jobs over several worker processes, its output exactly as
one process writes it.

Lines are read lazily and handed to the workers in chunks; each worker runs a
chunk through the very code a single process uses (`run_chunk`, its stdout
and stderr caught in the order they were written), and the parent writes the
chunks' output in input order. Each worker has a socket of its own to the
parent and one chunk at a time: no lock or queue is shared, so a worker that
dies (killed, out of memory) costs only its chunk -- reported as failed jobs --
and can never leave the parent waiting on a lock it held. Memory stays
bounded however long the input is (a stream of 10^7 lines is never read
whole: at most AHEAD chunks per worker are out, or done, ahead of the next
one to write).

Workers are forked as work arrives -- never more than `workers`, nor more
than there are chunks -- after the parent has imported the engine and made
the compiled form's tables, so each starts warm; a worker builds the parser only
when one of its jobs needs the full pipeline. They die with the parent
(grammar/workers.py) and ignore Ctrl-C: on an interrupt the parent stops
reading, kills them at once (SIGKILL: no shared state can be left broken) and
reaps them, so the command ends within a second or two.
"""
import contextlib
import io
import itertools
import multiprocessing
import multiprocessing.connection
import os
import signal
import socket
import sys
import warnings

__all__ = ["run_batch_in_workers", "chunks", "restored", "write_output", "Recorder", "CHUNK"]

CHUNK = 64          # jobs per message to a worker: large enough that pickling costs little
WAIT = 0.5          # seconds the parent waits for a result before it looks around again
AHEAD = 2           # chunks per worker that may be handed out or done ahead of the next one to write

# Python 3.12+ warns at every fork of a process with more than one thread, and numpy's BLAS keeps
# idle threads from import on: the workers run only our single-threaded jobs, so the warning says
# nothing to a user and must not land in the batch's output
_FORK_WARNING = r"This process \(pid=\d+\) is multi-threaded, use of fork\(\) may lead to deadlocks"


def _portable(jobs):
    """Jobs as plain tuples (a bad line's SyntaxProblem as its fields), to send to a worker."""
    out = []
    for line, text, bad in jobs:
        out.append((line, text, None if bad is None else (bad.message, bad.start, bad.hint)))
    return out


def restored(jobs):
    """Jobs sent by `_portable`, as `job_lines` gave them (a bad line's SyntaxProblem rebuilt)."""
    from ..grammar.errors import SyntaxProblem
    out = []
    for line, text, bad in jobs:
        if bad is not None:
            message, start, hint = bad
            bad = SyntaxProblem(message, start or 0, hint=hint)
            if start is None:
                bad.start = bad.end = None
        out.append((line, text, bad))
    return out


class Recorder:
    """stdout and stderr of a chunk, caught as one sequence of (stream, text), so that they are
    written out in the order they were written (`2>&1` shows an error after the lines before it)."""

    def __init__(self):
        self.parts = []
        self.out = _Part(self, 1)
        self.err = _Part(self, 2)

    @contextlib.contextmanager
    def caught(self):
        with contextlib.redirect_stdout(self.out), contextlib.redirect_stderr(self.err):
            yield self


class _Part(io.TextIOBase):
    def __init__(self, recorder, stream):
        self.recorder, self.stream = recorder, stream

    def writable(self):
        return True

    def write(self, text):
        if text.__class__ is not str:  # (as a text stream refuses bytes: click.echo asks that way)
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        parts = self.recorder.parts
        if parts and parts[-1][0] == self.stream:
            parts[-1] = (self.stream, parts[-1][1] + text)
        else:
            parts.append((self.stream, text))
        return len(text)


def _chunk_in_worker(run_chunk, index, jobs):
    recorder = Recorder()
    with recorder.caught():
        failed = run_chunk(restored(jobs), first=index == 0)
    return recorder.parts, failed


def chunks(jobs, size=CHUNK):
    """(index, portable jobs) of consecutive pieces of `size` jobs, read as they are needed."""
    iterator = iter(jobs)
    for index in itertools.count():
        chunk = list(itertools.islice(iterator, size))
        if not chunk:
            return
        yield index, _portable(chunk)


class _Worker:
    """A forked worker and the parent's end of its socket."""

    def __init__(self, pid, conn):
        self.pid, self.conn = pid, conn
        self.chunk = None   # (index, jobs) it is running, or None when idle

    def kill(self):
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    def reap(self):
        """The worker's end: its exit status (or -signal), waiting for it (it has been told to go)."""
        self.conn.close()
        try:
            _, status = os.waitpid(self.pid, 0)
        except ChildProcessError:
            return None
        return os.waitstatus_to_exitcode(status) if hasattr(os, "waitstatus_to_exitcode") else status


def _serve(conn, run_chunk):
    """A worker's life: chunks in, their output out, until the parent closes its end."""
    while True:
        try:
            index, jobs = conn.recv()
        except (EOFError, OSError):
            return
        try:
            conn.send((index,) + _chunk_in_worker(run_chunk, index, jobs))
        except (BrokenPipeError, ConnectionResetError):
            return


def _start(run_chunk, others):
    """Fork a worker; `others`: the workers already running (the new one closes their sockets, so
    that each worker's socket ends when the parent's end does)."""
    parent_end, child_end = multiprocessing.Pipe(duplex=True)
    parent = os.getpid()
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", _FORK_WARNING, DeprecationWarning)
        pid = os.fork()
    if pid == 0:
        code = 0
        try:
            from ..grammar.workers import die_with_parent
            die_with_parent(parent)
            parent_end.close()
            for w in others:
                w.conn.close()
            _serve(child_end, run_chunk)
        except BaseException:  # noqa: B036 - whatever happens, a worker never returns into the parent's code
            code = 1
        finally:
            os._exit(code)
    child_end.close()
    return _Worker(pid, parent_end)


def run_batch_in_workers(jobs, run_chunk, workers, progress=None, written=None, lost=None):
    """Run `jobs` (an iterator of (line, text, error)) in at most `workers` processes:
    `run_chunk(jobs, first=...)` runs a list of them and returns how many failed,
    writing to sys.stdout/sys.stderr as it goes. Returns the total failed.
    `progress(done)` is called as jobs finish (for a terminal's counter),
    `written(last line)` after each chunk's output is written, and `lost(jobs, why)`
    writes the report of a chunk whose worker died (each job failed)."""
    if "fork" not in multiprocessing.get_all_start_methods() or not hasattr(socket, "socketpair"):
        return _in_this_process(jobs, run_chunk, written)
    from ..grammar import compiled
    compiled._get_lane()  # the engine and the compiled form's tables, made once here for every forked worker;
    # the parser is built by a worker only if one of its jobs needs the full pipeline (most batches never do)
    pool = []
    ready = {}          # chunk index -> (parts, failed, its jobs): done, waiting for the ones before it
    next_out = 0
    failed = done = 0
    source = chunks(jobs)
    exhausted = False
    issued = 0          # chunks handed out so far (at most AHEAD per worker beyond the next to write)
    try:
        while True:
            idle = [w for w in pool if w.chunk is None]
            while not exhausted and (idle or len(pool) < workers) and issued - next_out < AHEAD * workers:
                item = next(source, None)
                if item is None:
                    exhausted = True
                    break
                worker = idle.pop() if idle else None
                if worker is None:
                    sys.stdout.flush()  # (nothing of the parent's buffers may be left to a worker)
                    worker = _start(run_chunk, pool)
                    pool.append(worker)
                worker.chunk = item
                worker.conn.send(item)
                issued += 1
            busy = [w for w in pool if w.chunk is not None]
            if not busy:
                break
            for conn in multiprocessing.connection.wait([w.conn for w in busy], timeout=WAIT):
                worker = next(w for w in busy if w.conn is conn)
                ready.update([_receive(worker, pool, lost)])
            while next_out in ready:
                parts, chunk_failed, chunk_jobs = ready.pop(next_out)
                failed, done = write_output(parts, len(chunk_jobs), failed, done, progress, chunk_failed,
                                            written, chunk_jobs[-1][0])
                next_out += 1
    finally:
        for w in pool:
            w.kill()
        for w in pool:
            w.reap()
    return failed


def _receive(worker, pool, lost):
    """(index, (parts, failed, jobs)) of the chunk `worker` finished -- or, when it died, that chunk
    reported as failed jobs (and the worker gone from the pool)."""
    index, jobs = worker.chunk
    worker.chunk = None
    try:
        got, parts, chunk_failed = worker.conn.recv()
        return got, (parts, chunk_failed, jobs)
    except (EOFError, OSError):
        pool.remove(worker)
        worker.kill()
        status = worker.reap()
        how = f"signal {-status}" if isinstance(status, int) and status < 0 else f"exit status {status}"
        recorder = Recorder()
        if lost is not None:
            with recorder.caught():
                lost(restored(jobs), f"the worker process running this job ended unexpectedly ({how})")
        return index, (recorder.parts, len(jobs), jobs)


def _in_this_process(jobs, run_chunk, written=None):
    """Where processes cannot fork: the same chunks, one after another, here."""
    failed = 0
    iterator = iter(jobs)
    first = True
    while True:
        chunk = list(itertools.islice(iterator, CHUNK))
        if not chunk:
            return failed
        failed += run_chunk(chunk, first=first)
        if written is not None:
            written(chunk[-1][0])
        first = False


def write_output(parts, count, failed, done, progress, chunk_failed, written=None, last_line=None):
    """A chunk's caught output (a Recorder's parts), written here in the order it was written;
    the totals (failed, done) after it. Each piece is written whole (Ctrl-C waits for it), and
    `written(last_line)` is told within the same block: a Ctrl-C held back until the write ends
    then never leaves a chunk written but not counted ("the results of lines up to N")."""
    from .interrupts import whole
    with whole():
        for stream, text in parts:
            if stream == 2:
                sys.stdout.flush()
                sys.stderr.write(text)
                sys.stderr.flush()
            else:
                sys.stdout.write(text)
        sys.stdout.flush()
        if written is not None:
            written(last_line)
    done += count
    if progress is not None:
        progress(done)
    return failed + chunk_failed, done
