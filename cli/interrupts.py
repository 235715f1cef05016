"""Ctrl-C during a batch: stop at once, but never in the middle of writing a result.

While `deferred()` is in force (a batch), SIGINT raises KeyboardInterrupt as
usual -- in a job, while reading input, while waiting for workers -- except
inside `whole()`, the writing of a result: there it is noted, and raised when
the write is done. So an output file or pipe holds whole lines only, however
the batch was stopped.
"""
import contextlib
import signal
import threading

__all__ = ["deferred", "whole"]


class _State:
    writing = 0
    pending = False


_state = _State()


def _on_interrupt(signum, frame):
    if _state.writing:
        _state.pending = True
    else:
        raise KeyboardInterrupt


@contextlib.contextmanager
def deferred():
    """Within: Ctrl-C waits for a `whole()` write to end (installed only in the main thread,
    where Python runs signal handlers; elsewhere this does nothing)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, _on_interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        _state.writing, _state.pending = 0, False


class _Whole:
    """`with whole():` -- a Ctrl-C is held back until the block ends (then it is raised). A class,
    not a generator: a batch enters it once per job."""

    __slots__ = ()

    def __enter__(self):
        _state.writing += 1

    def __exit__(self, *exc):
        _state.writing -= 1
        if not _state.writing and _state.pending:
            _state.pending = False
            raise KeyboardInterrupt
        return False


_WHOLE = _Whole()


def whole():
    """Within: a Ctrl-C is held back until the block ends (then it is raised)."""
    return _WHOLE
