"""Reading what users feed the command line: files and stdin as bytes,
decoded here, so that a bad byte costs one job (or gets a located error)
rather than the whole batch, and a UTF-8 byte-order mark is skipped."""
from ..grammar.errors import decode_source as decode

__all__ = ["decode", "job_lines", "read_source"]


def job_lines(stream):
    """(line number, text, error) for every line of a binary stream that holds a
    job (not blank, not a # comment); read one line at a time. A byte-order
    mark is skipped at the start of any line (files joined with `cat` bring
    theirs along), so a job means the same wherever it stands."""
    for n, raw in enumerate(stream, 1):
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
