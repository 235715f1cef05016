"""Errors a user can cause, and how they are shown: a message, the line and
column, the source line with a caret under the spot, and a hint.

Every error the language raises is a `LanguageError`; nothing else should
reach the command line (and if it does, it is still shown this way).
"""
import bisect
import codecs

__all__ = ["LanguageError", "SyntaxProblem", "ScriptError", "Interrupted", "Location", "locate", "format_error",
           "decode_source"]


class Location:
    """Where in the source: 1-based line and column, and the span's text."""

    __slots__ = ("line", "column", "end_column", "source_line", "text")

    def __init__(self, line, column, end_column, source_line, text):
        self.line = line
        self.column = column
        self.end_column = end_column
        self.source_line = source_line
        self.text = text


def locate(source, start, end=None):
    """The Location of offsets [start, end) in `source`."""
    if source is None:
        return None
    start = max(0, min(start, len(source)))
    end = start if end is None else max(start, min(end, len(source)))
    starts = [0]
    i = source.find("\n")
    while i >= 0:
        starts.append(i + 1)
        i = source.find("\n", i + 1)
    line = bisect.bisect_right(starts, start) - 1
    line_start = starts[line]
    line_end = source.find("\n", line_start)
    if line_end < 0:
        line_end = len(source)
    column = start - line_start + 1
    end_column = min(end, line_end) - line_start + 1
    return Location(line + 1, column, max(end_column, column + 1), source[line_start:line_end],
                    source[start:end])


class LanguageError(Exception):
    """A user-facing error with an optional place in the source and a hint."""

    kind = "Error"

    def __init__(self, message, start=None, end=None, hint=None):
        super().__init__(message)
        self.message = message
        self.start = start
        self.end = end
        self.hint = hint
        self.notes = []

    def location(self, source):
        if self.start is None or source is None:
            return None
        return locate(source, self.start, self.end)


class SyntaxProblem(LanguageError):
    """The text is not a program."""

    kind = "SyntaxError"

    def __init__(self, message, pos, hint=None, at_end=False):
        super().__init__(message, pos, pos + 1, hint)
        self.at_end = at_end


class ScriptError(LanguageError):
    """Running the program failed (an engine error, a name that isn't bound, ...).

    `kind` names the underlying error (RuntimeError, NameError, ...)."""

    def __init__(self, message, start=None, end=None, hint=None, kind="RuntimeError"):
        super().__init__(message, start, end, hint)
        self.kind = kind


SHOWN_WIDTH = 100  # characters of a source line an error shows at most (around the spot)


class Interrupted(KeyboardInterrupt):
    """Ctrl-C while a program ran, with where it was (offsets in its source, when known): still a
    KeyboardInterrupt -- it ends the program and any batch -- shown as an error is."""

    message = "interrupted"
    hint = None
    notes = ()

    def __init__(self, start=None, end=None):
        super().__init__()
        self.start, self.end = start, end

    def location(self, source):
        if self.start is None or source is None:
            return None
        return locate(source, self.start, self.end)


def format_error(error, source, filename=None, first_line=1, job_line=None):
    """The text shown for `error`: message, place, source line, caret, hint, notes.

    `first_line` is the line of the file that `source` starts at (a batch job's line);
    `job_line`, a batch job's line, is given as the place of an error that has none in it."""
    lines = ["interrupted" if isinstance(error, Interrupted) else f"error: {error.message}"]
    loc = error.location(source)
    if loc is not None:
        where = f"line {loc.line + first_line - 1}, column {loc.column}"
        if filename:
            where = f"{filename}, {where}"
        lines.append(f"  at {where}:")
        shown = loc.source_line.rstrip("\r").expandtabs(1)
        column, end = loc.column, min(loc.end_column, len(shown) + 2)
        if len(shown) > SHOWN_WIDTH:  # a long line: the part around the spot
            first = max(0, min(column - 1 - SHOWN_WIDTH // 2, len(shown) - SHOWN_WIDTH))
            last = first + SHOWN_WIDTH
            lead = "..." if first else ""
            shown = lead + shown[first:last] + ("..." if last < len(shown) else "")
            column, end = column - first + len(lead), min(end, last + 1) - first + len(lead)
        width = max(1, end - column)
        lines.append(f"    {shown}")
        lines.append("    " + " " * (column - 1) + "^" * width)
    elif job_line is not None:  # a batch job's error with no place in it: its line
        lines.append(f"  at {filename}, line {job_line}" if filename else f"  at line {job_line}")
    if error.hint:
        lines.append(f"  hint: {error.hint}")
    for note in error.notes:
        lines.append(f"  note: {note}")
    return "\n".join(lines)


def decode_source(raw, first=False):
    """(text, error): the text of `raw` bytes, and a SyntaxProblem placed at the
    first byte that is not UTF-8 (None when all of it is)."""
    if first and raw.startswith(codecs.BOM_UTF8):
        raw = raw[len(codecs.BOM_UTF8):]
    try:
        return raw.decode("utf-8"), None
    except UnicodeDecodeError as e:
        text = raw.decode("utf-8", errors="replace")
        at = len(raw[:e.start].decode("utf-8", errors="replace"))
        return text, SyntaxProblem(f"this is not UTF-8 text (byte 0x{raw[e.start]:02x})", at,
                                   hint="save the file as UTF-8; the other lines still run")
