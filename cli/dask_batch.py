"""`autodiff eval --dask ADDRESS`: a batch sharded over a Dask cluster, its
output byte for byte what one process writes with --json, in input order.

The client reads the jobs as it goes and cuts them into ordered partitions
(PARTITION lines each). Each partition is one Dask task: a worker imports
autodiff and runs it through eval's own per-job code (`run_chunk_captured` in
job_report.py, stdout and stderr caught) and sends back (stdout text, stderr
text, how many failed). The client writes the partitions' text in input order.
At most a few partitions per worker thread are submitted and not yet written,
so memory stays bounded however long the input is.

A worker lost mid-partition costs nothing: the scheduler runs the partition
again elsewhere (and `retries` covers a partition that raised), and the client
writes only the one result each partition's future ends with, so no line is
lost or written twice. A worker process runs one partition at a time (the
engine's settings and a job's memory budget belong to the process), so
workers are best started with one thread each.

Dask is optional: it is imported here, and only when --dask is given.
"""
import collections
import contextlib
import dataclasses
import gc
import logging
import signal
import threading
import uuid

import click

from .parallel import chunks, restored, write_output

__all__ = ["run_batch_on_dask", "check_usage", "PARTITION", "INSTALL_HINT"]

PARTITION = 256        # jobs per Dask task
IN_FLIGHT = 2          # partitions per worker thread submitted and not yet written
MIN_IN_FLIGHT = 4
RETRIES = 3            # a partition that raised on a worker runs again this many times
CONNECT_TIMEOUT = 10   # seconds to reach the scheduler
INSTALL_HINT = "pip install 'autodiff-cli[dask]'"


class DaskBatchError(click.ClickException):
    """The cluster could not be reached or could not run a partition: `error: ...`
    on stderr, exit 1 (whatever was written before it stays written)."""
    exit_code = 1

    def show(self, file=None):
        click.echo(f"error: {self.format_message()}", err=True)


def check_usage(ctx, address, batch):
    """The usage errors of --dask (exit 2), before anything is read or imported."""
    if not batch:
        raise click.UsageError("--dask runs a batch: give '-' to read jobs from stdin, or -f FILE")
    source = ctx.get_parameter_source
    if ctx.params.get("fmt") == "text" and source("fmt") != click.core.ParameterSource.DEFAULT:
        raise click.UsageError("--dask writes JSON Lines (one object per job): leave out --format text")
    if address != "local" and source("jobs") != click.core.ParameterSource.DEFAULT:
        raise click.UsageError("--jobs sets the workers of `--dask local` only; a cluster has its own")
    _import_distributed()


def _import_distributed():
    try:
        import distributed
    except Exception:  # ImportError, or an installation broken some other way
        raise click.UsageError(f"--dask needs Dask (dask and distributed), which is not installed here: "
                               f"{INSTALL_HINT}") from None
    return distributed


def run_batch_on_dask(address, jobs, chunk_args, local_workers=None, progress=None, written=None):
    """Run `jobs` (an iterator of (line, text, error)) on the Dask cluster at
    `address` ('local': one started here, of `local_workers` processes, else one
    per core): each partition through `run_chunk_captured(partition, **chunk_args)`
    on a worker, its output written here to sys.stdout/sys.stderr in input order.
    Returns how many jobs failed. `progress` (a cli.progress.Progress, or None)
    is updated as partitions are written, and `written(last line)` called."""
    distributed = _import_distributed()
    options = chunk_args["options"]
    chunk_args = dict(chunk_args, options=dataclasses.replace(options, out=None))  # the worker sets its own
    with _client(distributed, address, local_workers) as (client, where):
        failed = _run(client, where, jobs, chunk_args, progress.update if progress is not None else None, written)
    if progress is not None:
        progress.close()
    return failed


@contextlib.contextmanager
def _client(distributed, address, local_workers):
    with contextlib.ExitStack() as stack:
        if address == "local":
            try:
                # Ctrl-C is this process's to handle: its cluster goes with it. Its processes' own logs stay
                # quiet below CRITICAL: what goes wrong reaches the user as this command's message (a worker
                # lost, a scheduler gone); a worker that loses its scheduler as the cluster closes on
                # Ctrl-C logs an ERROR with a traceback, which the terminal would show
                with _without_interrupts(), _blas_threads_as_here():
                    cluster = distributed.LocalCluster(n_workers=local_workers, threads_per_worker=1, processes=True,
                                                       dashboard_address=":0", silence_logs=logging.CRITICAL)
            except Exception as e:
                raise DaskBatchError(f"could not start a local Dask cluster: {_reason(e)}") from None
            stack.callback(_quietly, cluster.close)
            address = cluster.scheduler_address
        client = problem = None
        try:
            client = distributed.Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
        except ValueError as e:  # not an address (tcp://host:8786)
            problem = click.BadParameter(str(e), param_hint="--dask")
        except Exception as e:
            problem = DaskBatchError(f"cannot reach the Dask scheduler at {address}: {_reason(e)}")
        if problem is not None:
            gc.collect()  # the half-made client closes now, while its event loop runs (not at exit, with a traceback)
            raise problem
        stack.callback(_quietly, client.close, timeout=CONNECT_TIMEOUT)
        yield client, address


# The variables by which Dask's nannies start every worker with one BLAS thread (and an OpenMP one)
_BLAS_THREADS = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")


@contextlib.contextmanager
def _blas_threads_as_here():
    """Within: a local cluster's workers start with this process's BLAS thread settings, not Dask's
    one thread. OpenBLAS's matrix products give other bits on another number of threads (a 64x784
    by 784x128 product already), and a batch on the local cluster must write what one process writes."""
    import dask.config
    key = "distributed.nanny.pre-spawn-environ"
    environ = {k: v for k, v in (dask.config.get(key, None) or {}).items() if k not in _BLAS_THREADS}
    with dask.config.set({key: environ}):
        yield


@contextlib.contextmanager
def _without_interrupts():
    """Within: SIGINT ignored, so that the processes started here ignore it too (an ignored signal
    stays ignored in a new program, and Python then installs no KeyboardInterrupt of its own). The
    terminal's Ctrl-C goes to every process of its group: the local cluster's would print their
    tracebacks while this process closes them."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _quietly(close, **kwargs):
    try:
        close(**kwargs)
    except Exception:  # a scheduler already gone: nothing left to close
        pass


def _reason(error):
    if isinstance(error, OSError) and str(error):
        return str(error)
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


def _in_flight(client):
    threads = sum(client.nthreads().values())
    if threads == 0:
        click.echo("warning: the Dask cluster has no workers yet; the batch waits for some", err=True)
    return max(MIN_IN_FLIGHT, IN_FLIGHT * threads)


def _run(client, where, jobs, chunk_args, progress, written=None):
    batch = uuid.uuid4().hex[:12]
    limit = _in_flight(client)
    pending = collections.deque()
    failed = done = 0
    try:
        for index, chunk in chunks(jobs, PARTITION):
            future = client.submit(_run_partition, index, chunk, chunk_args, key=f"autodiff-eval-{batch}-{index}",
                                   retries=RETRIES, pure=False)
            pending.append((chunk[0][0], chunk[-1][0], len(chunk), future))
            while pending and (len(pending) >= limit or pending[0][3].done()):
                failed, done = _write(pending.popleft(), where, failed, done, progress, written)
        while pending:
            failed, done = _write(pending.popleft(), where, failed, done, progress, written)
    finally:
        if pending:  # stopped early (an error, a closed pipe, Ctrl-C): the rest is not wanted
            _quietly(client.cancel, futures=[entry[3] for entry in pending])
    return failed


def _write(entry, where, failed, done, progress, written=None):
    first_line, last_line, count, future = entry
    try:
        result = future.result()
    except Exception as e:
        hint = " (is autodiff-cli installed on every worker?)" if isinstance(e, ImportError) else ""
        raise DaskBatchError(f"the Dask cluster at {where} could not run the jobs on lines {first_line}-{last_line}: "
                             f"{_reason(e)}{hint}") from None
    parts, chunk_failed = result
    return write_output(parts, count, failed, done, progress, chunk_failed, written, last_line)


# ------------------------------------------------------------------ on a worker

_ONE_AT_A_TIME = threading.Lock()  # a worker process's partitions, one after another


def _run_partition(index, jobs, chunk_args):
    """A Dask task: one partition of the batch through eval's own code; (its stdout
    and stderr in the order written, how many jobs failed)."""
    from .job_report import run_chunk_captured
    with _ONE_AT_A_TIME:
        return run_chunk_captured(restored(jobs), first=index == 0, **chunk_args)
