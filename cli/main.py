"""The `autodiff` command: a click group with one module per command.

Exit codes: 0 success, 1 a job failed (an evaluation error or a failed
assert), 2 a usage error. Results go to stdout; errors, warnings and progress
to stderr. No Python traceback ever reaches the user: anything unexpected is
reported as an internal error in one line.
"""
import errno
import gc
import os
import sys

import click

from .commands import LazyGroup

__all__ = ["main", "cli"]

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


@click.group(cls=LazyGroup, context_settings=CONTEXT, commands={
    "eval": ("autodiff.cli.eval_cmd", "eval_command"),
    "run": ("autodiff.cli.run_cmd", "run_command"),
    "graph": ("autodiff.cli.graph_cmd", "graph_command"),
    "minimize": ("autodiff.cli.minimize_cmd", "minimize_command"),
    "repl": ("autodiff.cli.repl_cmd", "repl_command"),
    "test": ("autodiff.cli.test_cmd", "test_command"),
    "functions": ("autodiff.cli.functions_cmd", "functions_command"),
})
@click.version_option(package_name="autodiff-cli", prog_name="autodiff")
def cli():
    """Differentiate expressions and run autograd scripts (PyTorch's semantics, numpy or cupy).

    \b
    autodiff eval "a*x**2+b*x+c" a=1 b=-2 c=1 x=0
    autodiff eval "sin(x)*exp(x)" x=0.5 --order 2
    cat jobs.txt | autodiff eval - --json
    autodiff run checks.ad
    """


SIGPIPE_STATUS = 141  # 128 + SIGPIPE: what a shell reports for a writer whose reader went away
WRITE_FAILED_STATUS = 74  # EX_IOERR (sysexits.h): the output could not be written
_WRITE_FAILURES = {errno.ENOSPC, errno.EIO, errno.EBADF, errno.EFBIG, errno.EDQUOT, errno.EROFS}


class _ClosedStream:
    """stdout when the process started with it closed: every write fails, as a write to a closed
    descriptor does."""

    def write(self, text):
        raise OSError(errno.EBADF, "stdout is closed")

    def flush(self):
        pass

    def isatty(self):
        return False


def _reader_gone():
    """stdout's reader closed the pipe (`| head`): stop quietly, as command-line tools do."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so the final flush at exit has nowhere to fail
    except (OSError, ValueError):
        pass
    return SIGPIPE_STATUS


def main(argv=None):
    """Entry point of the console script."""
    if sys.stdout is None:  # started with stdout closed (>&-): writing fails as it does for any tool
        sys.stdout = _ClosedStream()
    try:
        try:
            code = cli.main(args=argv, prog_name="autodiff", standalone_mode=False)
            sys.stdout.flush()
        except SystemExit as e:
            if type(sys.stdout).__name__ == "PacifyFlushWrapper":  # (by name: reading the class off
                # click.utils is deprecated in newer Clicks, a warning on every command)
                raise BrokenPipeError from None  # click met EPIPE and would exit 1; we exit as tools do
            code = e.code
    except click.exceptions.Exit as e:
        code = e.exit_code
    except click.ClickException as e:
        e.show()
        code = e.exit_code
    except click.exceptions.Abort as e:  # click's form of Ctrl-C (or of the end of input at a prompt)
        click.echo("interrupted" if isinstance(e.__cause__, KeyboardInterrupt) else "aborted", err=True)
        code = 130
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        code = 130
    except BrokenPipeError:
        code = _reader_gone()
    except OSError as e:
        if e.errno not in _WRITE_FAILURES:
            click.echo(f"error: internal error ({type(e).__name__}: {e}); please report this", err=True)
            code = 70
        else:  # the disk is full, the output closed...: say so, as other tools do
            click.echo(f"error: cannot write the output ({e.strerror or e})", err=True)
            code = WRITE_FAILED_STATUS
    except Exception as e:  # never a traceback: one line, and where to report it
        click.echo(f"error: internal error ({type(e).__name__}: {e}); please report this", err=True)
        code = 70
    if argv is None:
        _leave(code or 0)
    sys.exit(code or 0)


def _leave(code):
    """End the process now, without the interpreter's teardown, when that teardown has nothing left
    to do but free memory: the output flushed, no exit handler registered, no thread to wait for.
    Tearing down a batch's heap (every compiled template, every module) is 4% of a 10,000-job batch.
    Otherwise this returns and the caller exits as usual, with every object there is now frozen: the
    teardown's last garbage collections then skip the heap it is about to free anyway (with an exit
    handler registered -- some site packages register one at start-up -- those collections over an
    --order 3 batch's recordings were 30% of its time). Exit handlers still run; only objects in
    reference cycles are no longer finalized at exit, which Python never promises."""
    ncallbacks = getattr(__import__("atexit"), "_ncallbacks", None)
    threading = sys.modules.get("threading")
    if (ncallbacks is None or ncallbacks() or not isinstance(code, int) or not 0 <= code <= 255
            or threading is not None and any(not t.daemon for t in threading.enumerate()
                                             if t is not threading.main_thread())):
        gc.freeze()
        return
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except BrokenPipeError:
        code = _reader_gone()
    except (OSError, ValueError, AttributeError):
        return  # let the usual exit report it
    os._exit(code)


if __name__ == "__main__":
    main()
