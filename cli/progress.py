"""A batch's progress line on a terminal's stderr: a bar when the input's size is
known (a file), a count otherwise (a pipe), with the rate either way. Redrawn at
most ten times a second in place, and wiped at the end, so nothing of it stays
in the terminal's scrollback or reaches a redirected stream."""
import os
import stat
import sys
import time

__all__ = ["Progress"]

WIDTH = 30          # characters of the bar
INTERVAL = 0.1      # seconds between redraws


class Progress:
    """Counts the bytes read from the input (`reader` wraps it) and draws
    `[=====>      ]  42%  12,345 jobs  3,210 jobs/s` as `update(done)` is called."""

    def __init__(self, stream, out=None, clock=time.monotonic):
        self.out = out if out is not None else sys.stderr
        self.total = _size(stream)
        self.read = 0
        self.clock = clock
        self.start = self.last = clock()
        self.drawn = False

    def reader(self, stream):
        """The stream, its bytes counted as they are read (read and read1, as job_lines reads)."""
        return _Counted(stream, self)

    def update(self, done, force=False):
        now = self.clock()
        if not force and now - self.last < INTERVAL:
            return
        self.last = now
        elapsed = now - self.start
        rate = f"  {done / elapsed:,.0f} jobs/s" if elapsed > 0 else ""
        if self.total:
            fraction = min(1.0, self.read / self.total)
            filled = int(fraction * WIDTH)
            bar = "=" * filled + (">" if filled < WIDTH else "") + " " * (WIDTH - filled - 1)
            text = f"[{bar}] {fraction:4.0%}  {done:,} jobs{rate}"
        else:
            text = f"{done:,} jobs{rate}"
        self.out.write("\r" + text + "\033[K")
        self.out.flush()
        self.drawn = True

    def close(self):
        if self.drawn:
            self.out.write("\r\033[K")
            self.out.flush()


class _Counted:
    """A binary stream whose reads add to a Progress's count of bytes read."""

    def __init__(self, stream, progress):
        self.stream, self.progress = stream, progress
        self.name = getattr(stream, "name", "<stdin>")

    def read(self, size=-1):
        data = self.stream.read(size)
        self.progress.read += len(data)
        return data

    def read1(self, size=-1):
        read1 = getattr(self.stream, "read1", None) or self.stream.read
        data = read1(size)
        self.progress.read += len(data)
        return data

    def fileno(self):
        return self.stream.fileno()


def _size(stream):
    """The input's size in bytes when it is a regular file (else None: a pipe or a terminal)."""
    try:
        info = os.fstat(stream.fileno())
    except (AttributeError, OSError, ValueError):
        return None
    return info.st_size if stat.S_ISREG(info.st_mode) and info.st_size > 0 else None


def wanted():
    """A progress line helps where stderr is a terminal and the results go elsewhere."""
    return sys.stderr.isatty() and not sys.stdout.isatty()
