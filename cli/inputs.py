"""Reading what users feed the command line: files and stdin as bytes,
decoded here, so that a bad byte costs one job (or gets a located error)
rather than the whole batch, and a UTF-8 byte-order mark is skipped."""
import codecs

__all__ = ["decode", "job_lines", "read_source"]


def decode(raw, first=False):
    """(text, error): the text of `raw` bytes, and a SyntaxProblem placed at the
    first byte that is not UTF-8 (None when all of it is)."""
    if first and raw.startswith(codecs.BOM_UTF8):
        raw = raw[len(codecs.BOM_UTF8):]
    try:
        return raw.decode("utf-8"), None
    except UnicodeDecodeError as e:
        from ..grammar.errors import SyntaxProblem
        text = raw.decode("utf-8", errors="replace")
        at = len(raw[:e.start].decode("utf-8", errors="replace"))
        return text, SyntaxProblem(f"this is not UTF-8 text (byte 0x{raw[e.start]:02x})", at,
                                   hint="save the file as UTF-8; the other lines still run")


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
