"""Reading what users feed the command line: files and stdin as bytes,
decoded here, so that a bad byte costs one job (or gets a located error)
rather than the whole batch, and a UTF-8 byte-order mark is skipped."""
from ..grammar.errors import decode_source as decode

__all__ = ["decode", "job_lines", "read_source"]


def job_lines(stream, before_wait=None):
    """(line number, text, error) for every line of a binary stream that holds a
    job (not blank, not a # comment); read a chunk at a time. A byte-order
    mark is skipped at the start of any line (files joined with `cat` bring
    theirs along), so a job means the same wherever it stands. `before_wait`
    runs before each read that may wait for more input: a batch flushes its
    output there, so a program feeding it a line at a time gets each answer."""
    for n, raw in enumerate(stream if before_wait is None else _lines(stream, before_wait), 1):
        text, error = decode(raw, first=True)
        stripped = text.strip()
        if stripped and not stripped.startswith("#"):
            if error is not None:  # place it in the stripped line
                lead = len(text) - len(text.lstrip())
                error.start, error.end = error.start - lead, error.end - lead
            yield n, stripped, error


def read_source(stream):
    """(text, error) of a whole script read from a binary stream."""
    return decode(stream.read(), first=True)


def _lines(stream, before_wait, size=1 << 16):
    """The lines of a binary stream (each with its newline, as iterating the stream gives them),
    calling `before_wait` before each read; a read returns what is there (read1), up to `size`."""
    read = getattr(stream, "read1", stream.read)
    pending = []   # the pieces of a line not yet ended: joined once, so a long line costs its length
    while True:
        before_wait()
        chunk = read(size)
        if not chunk:
            break
        lines = chunk.split(b"\n")
        if len(lines) == 1:
            pending.append(chunk)
            continue
        pending.append(lines[0])
        lines[0] = b"".join(pending)
        pending = [lines.pop()]
        for line in lines:
            yield line + b"\n"
    rest = b"".join(pending)
    if rest:
        yield rest
