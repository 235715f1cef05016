"""The `autodiff` console script run under a real pseudo-terminal, for the tests
of what differs on a terminal (progress lines, the REPL, Ctrl-C).

`Terminal(args)` starts the command in a new session whose controlling
terminal is the pty (the standard library's `pty.fork`), so that `isatty()`
is really true for the streams left on it, and Ctrl-C typed as `\\x03` reaches
the command as the terminal driver sends it: SIGINT to the whole foreground
process group, workers included. Everything the terminal shows is collected;
`close()` kills whatever is left of the process group, so no test leaves a
process behind.
"""
import os
import pathlib
import pty
import select
import signal
import sys
import sysconfig
import time

__all__ = ["Terminal", "autodiff_command", "descendants", "alive"]


def autodiff_command():
    """argv of the installed console script for this Python (else `python -m autodiff.cli.main`)."""
    script = pathlib.Path(sysconfig.get_path("scripts")) / "autodiff"
    return [str(script)] if script.exists() else [sys.executable, "-m", "autodiff.cli.main"]


class Terminal:
    def __init__(self, args, cwd=None, env=None, stdin=None, stdout=None):
        """Run `autodiff ARGS` on a new pty. `stdin`/`stdout`: paths to redirect those streams to
        (a file, not the terminal: `eval -f jobs -o out` from a terminal leaves stderr on it)."""
        argv = autodiff_command() + list(args)
        environment = dict(os.environ, **(env or {}))
        environment.setdefault("TERM", "xterm")
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: the command, in the terminal's session
            try:
                if cwd:
                    os.chdir(cwd)
                if stdin is not None:
                    os.dup2(os.open(stdin, os.O_RDONLY), 0)
                if stdout is not None:
                    os.dup2(os.open(stdout, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644), 1)
                os.execve(argv[0], argv, environment)
            finally:
                os._exit(127)
        self.output = b""
        self.status = None
        self.started = time.monotonic()

    # ------------------------------------------------------------ reading
    def _pump(self, timeout):
        """Read what the terminal shows for up to `timeout` seconds; False once it is closed."""
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return True
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # EIO: the other side is gone
            return False
        if not data:
            return False
        self.output += data
        return True

    def text(self):
        return self.output.decode("utf-8", errors="replace")

    def mark(self):
        """Where the terminal's text ends now (for `expect(..., since=...)`)."""
        return len(self.text())

    def expect(self, needle, timeout=30, since=0):
        """Wait until the terminal has shown `needle` (str), after the first `since` characters of
        its text; the text so far. AssertionError on timeout."""
        deadline = time.monotonic() + timeout
        while needle not in self.text()[since:]:
            left = deadline - time.monotonic()
            if left <= 0 or not self._pump(min(left, 0.1)) and needle not in self.text()[since:]:
                if needle in self.text()[since:]:
                    break
                raise AssertionError(f"the terminal never showed {needle!r}; it shows:\n{self.text()}")
        return self.text()

    # ------------------------------------------------------------ typing
    def send(self, data):
        os.write(self.fd, data.encode() if isinstance(data, str) else data)

    def interrupt(self):
        """Ctrl-C, typed: the terminal driver sends SIGINT to the foreground process group."""
        self.send(b"\x03")

    # ------------------------------------------------------------ the end
    def wait(self, timeout=30):
        """The exit status (a negative number: killed by that signal), waiting at most `timeout`
        seconds while reading the terminal; AssertionError if it is still running."""
        deadline = time.monotonic() + timeout
        while self.status is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = os.waitstatus_to_exitcode(status)
                break
            if time.monotonic() > deadline:
                raise AssertionError(f"still running after {timeout} s; the terminal shows:\n{self.text()}")
            self._pump(0.05)
        while self._pump(0.05):  # what it wrote before it ended
            pass
        return self.status

    def close(self):
        """Kill whatever of the command's process group is left, and reap the command."""
        try:
            os.killpg(self.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        if self.status is None:
            try:
                _, status = os.waitpid(self.pid, 0)
                self.status = os.waitstatus_to_exitcode(status)
            except ChildProcessError:
                pass
        try:
            os.close(self.fd)
        except OSError:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


def descendants(pid):
    """The pids of every living process below `pid` (Linux: /proc)."""
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z":
            children.setdefault(int(fields[1]), []).append(int(entry))
    found, stack = [], [pid]
    while stack:
        for child in children.get(stack.pop(), []):
            found.append(child)
            stack.append(child)
    return found


def alive(pid):
    """Whether process `pid` still runs (a zombie, dead but not yet reaped, does not)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False
