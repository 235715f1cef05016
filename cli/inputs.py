"""Reading what users feed the command line: files and stdin as bytes,
decoded here, so that a bad byte costs one job (or gets a located error)
rather than the whole batch, and a UTF-8 byte-order mark is skipped.

A batch's lines are read a chunk at a time, and never kept past the line
budget (--max-line-length): a longer line is reported as one failed job, its
rest skipped as it comes, and the batch goes on. A line too long that holds a
NUL byte is binary data with no line structure (`-f /dev/zero`), whose end
may never come: it is reported, and the batch stops there.
"""
from ..grammar.budget import current, over_budget, raise_hint
from ..grammar.errors import SyntaxProblem, decode_source as decode

__all__ = ["decode", "job_lines", "SHOWN_PREFIX"]

SHOWN_PREFIX = 60  # characters of a line too long to read that its report shows


def job_lines(stream, before_wait=None):
    """(line number, text, error) for every line of a binary stream that holds a
    job (not blank, not a # comment); read a chunk at a time. A byte-order
    mark is skipped at the start of any line (files joined with `cat` bring
    theirs along), so a job means the same wherever it stands. `before_wait`
    runs before each read that may wait for more input: a batch flushes its
    output there, so a program feeding it a line at a time gets each answer.
    A line past the line budget comes with its first characters and an error;
    a line with a NUL byte comes with an error, and is the last."""
    limit = current.max_line_length
    for n, raw in enumerate(_lines(stream, before_wait or _nothing, 4 * limit), 1):
        if raw.__class__ is _TooLong:
            text, _ = decode(raw.start, first=True)
            if raw.binary:
                yield n, _shown(text.replace("\0", "\u2400")), _binary(raw.size, limit)
                return
            yield n, _shown(text), _too_long(raw.size, limit)
            continue
        text, error = decode(raw, first=True)
        if len(text) > limit and len(text.rstrip("\r\n")) > limit:
            yield n, _shown(text.strip()), _too_long(len(text.rstrip("\r\n")), limit)
            continue
        stripped = text.strip()
        if stripped and not stripped.startswith("#"):
            if error is not None:  # place it in the stripped line
                lead = len(text) - len(text.lstrip())
                error.start, error.end = error.start - lead, error.end - lead
            yield n, stripped, error


def _nothing():
    pass


def _shown(text):
    return text[:SHOWN_PREFIX] + "..." if len(text) > SHOWN_PREFIX else text


def _too_long(size, limit):
    """The error of a line past the line budget (no place in it: the line was not kept)."""
    what = f"{size:,} bytes" if size > 4 * limit else f"{size:,} characters"
    error = SyntaxProblem(f"this line of {what} is too long to read {over_budget('max_line_length', limit)}", 0,
                          hint=f"{raise_hint('max_line_length')}, or split the job; the batch goes on")
    error.start = error.end = None
    return error


def _binary(size, limit):
    error = SyntaxProblem(f"this is binary data, not a line of text: more than {size:,} bytes without a line end, "
                          f"NUL bytes among them {over_budget('max_line_length', limit)}; the batch stops here", 0,
                          hint="give a text file of jobs, one a line")
    error.start = error.end = None
    return error


class _TooLong:
    """A line that was not kept whole: its first bytes, how many bytes it had (so far), and
    whether NUL bytes showed it to be binary data."""

    __slots__ = ("start", "size", "binary")

    def __init__(self, start, size, binary=False):
        self.start, self.size, self.binary = start, size, binary


_KEPT_START = 4 * SHOWN_PREFIX  # bytes kept of a line too long to read: enough for SHOWN_PREFIX characters


def _long(line):
    return _TooLong(line[:_KEPT_START], len(line))


def _lines(stream, before_wait, most, size=1 << 16):
    """The lines of a binary stream (each with its newline), calling `before_wait` before each
    read; a read returns what is there (read1), up to `size`. A line longer than `most` bytes
    is not kept: it comes as a _TooLong once its end is read (its bytes are dropped as they
    come) -- or at once, marked binary, when a part of it being dropped holds a NUL byte (then
    the reading stops)."""
    read = getattr(stream, "read1", None) or stream.read
    pending = []   # the pieces of a line not yet ended: joined once, so a long line costs its length
    kept = 0       # bytes in pending
    dropped = None  # a _TooLong while the rest of a long line is skipped
    while True:
        before_wait()
        chunk = read(size)
        if not chunk:
            break
        lines = chunk.split(b"\n")
        last = lines.pop()   # the start of a line not ended yet (b"" after a newline)
        if dropped is not None:  # the rest of a long line: up to its end, dropped
            head = lines[0] if lines else last
            dropped.size += len(head)
            if len(dropped.start) < _KEPT_START:  # its first bytes, however the reads fell
                dropped.start += head[:_KEPT_START - len(dropped.start)]
            if b"\0" in head:
                dropped.binary = True
                yield dropped
                return
            if not lines:
                continue
            yield dropped
            dropped = None
            complete = lines[1:]
        elif lines:
            pending.append(lines[0])
            complete = [b"".join(pending)] + lines[1:]
            pending, kept = [], 0
        else:
            complete = []
        for line in complete:
            yield _long(line) if len(line) > most else line + b"\n"
        if last:
            pending.append(last)
            kept += len(last)
            if kept > most:  # too long already: dropped from here on
                whole = b"".join(pending)
                dropped, pending, kept = _long(whole), [], 0
                if b"\0" in whole:
                    dropped.binary = True
                    yield dropped
                    return
    if dropped is not None:
        yield dropped
        return
    rest = b"".join(pending)
    if rest:
        yield _long(rest) if len(rest) > most else rest
