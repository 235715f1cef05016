"""Size limits checked before a single step does its work.

One interpreter step may be one Python operation that runs for minutes or
grows memory without bound (`3 ** 10**8`, `s * 10**9`, `sum(lists, [])`,
`'x'.center(10**10)`): the step budget cannot interrupt it and the memory
budget only stops it late. These checks refuse such a step up front, with a
message in the language's terms that names the budget it met (--max-items,
--max-digits: budget.py's table, whose values in force these read).
"""
import math
import re

from .budget import current, over_budget

__all__ = ["TooLarge", "check_items", "bounded_list", "checked_power", "checked_product", "checked_shift",
           "check_width", "check_format_spec", "check_percent_format", "check_bits", "check_source", "read_source"]


def check_items(n, what="list"):
    """Refuse to make a `what` of `n` items (elements of a list, characters of a string)."""
    if n > current.max_items:
        unit = "characters" if what == "string" else "items"
        going = " to go through" if what == "range" else ""
        raise MemoryError(f"a {what} of {n:,} {unit} is too long{going} {over_budget('max_items')}")


def bounded_list(iterable=()):
    """The items of `iterable` as a new list, refused as soon as there are too many
    (a range by its length, before any item is made)."""
    if isinstance(iterable, range):
        check_items(len(iterable))
    out = []
    for item in iterable:
        out.append(item)
        if len(out) > current.max_items:
            check_items(len(out))
    return out


class TooLarge(OverflowError):
    """A number the language refuses to make (its message says how large it would be)."""


def _too_large(bits):
    raise TooLarge(f"the result would be a whole number of about {int(bits * 0.30103) + 1:,} digits, "
                   f"too large to compute {over_budget('max_digits')}")


def check_bits(bits):
    """Refuse a whole number of about `bits` bits, past the digits budget."""
    if bits > current.max_int_bits:
        _too_large(bits)


def checked_power(a, b):
    """a ** b for whole numbers, refused when the result would be huge (a negative b gives a float)."""
    if b > 0 and abs(a) > 1:
        bits = b * math.log2(abs(a))
        if bits > current.max_int_bits:
            _too_large(bits)
    return a ** b


def checked_product(a, b):
    if a.bit_length() + b.bit_length() > current.max_int_bits:
        _too_large(a.bit_length() + b.bit_length())
    return a * b


def checked_shift(a, b):
    """a << b for whole numbers, refused when the result would be huge."""
    if a and b > 0 and a.bit_length() + b > current.max_int_bits:
        _too_large(a.bit_length() + b)
    return a << b


def check_width(width):
    """A width or count argument (str.center, ljust, zfill, format's width)."""
    if isinstance(width, int) and width > current.max_items:
        check_items(width, "string")


_SPEC_WIDTH = re.compile(r"\d+")


def check_format_spec(spec):
    """format(v, spec): the width and precision may not ask for a huge string."""
    for number in _SPEC_WIDTH.findall(spec or ""):
        if len(number) > 12 or int(number) > current.max_items:
            check_items(int(number), "string")


_PERCENT_SPEC = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(\*|\d+)?(?:\.(\*|\d+))?[hlL]?(.)", re.S)


def check_percent_format(fmt, args):
    """`fmt % args`: no width or precision (written, or given by `*`) may ask for a huge string."""
    if "%" not in fmt:
        return
    values = args if isinstance(args, tuple) else (args,)
    position = 0
    for m in _PERCENT_SPEC.finditer(fmt):
        if m.group(3) == "%" and not m.group(1) and not m.group(2):
            continue
        for part in (m.group(1), m.group(2)):
            if part == "*":
                if position < len(values) and isinstance(values[position], int):
                    check_width(abs(values[position]))
                position += 1
            elif part:
                check_format_spec(part)
        position += 1


# ---------------------------------------------------------------- the size of a program

def check_source(text):
    """Refuse a program longer than --max-program-length, or with a line longer than
    --max-line-length, before it is parsed (parsing costs time and memory in proportion).
    The error points at the first character past the limit."""
    from .errors import SyntaxProblem
    limit = current.max_program_length
    if len(text) > limit:
        raise SyntaxProblem(f"the program is {len(text):,} characters long, too long to read "
                            f"{over_budget('max_program_length')}", limit)
    limit = current.max_line_length
    if len(text) <= limit:
        return
    lengths = list(map(len, text.split("\n")))
    if max(lengths) <= limit:
        return
    start = 0
    for n in lengths:
        if n > limit:
            raise SyntaxProblem(f"this line is {n:,} characters long, too long to read "
                                f"{over_budget('max_line_length')}", start + limit,
                                hint="split it into shorter lines")
        start += n + 1


_READ_CHUNK = 1 << 20


def read_source(stream):
    """(text, error) of a whole program read from a binary stream: at most what
    --max-program-length allows (so /dev/zero or a runaway file is refused, not read
    whole), and never a NUL byte (binary data, not a program). `error` is a
    SyntaxProblem placed in `text` (its first bad byte) or None."""
    from .errors import SyntaxProblem, decode_source
    most = 4 * current.max_program_length  # bytes: a character takes at most four in UTF-8
    pieces, size = [], 0
    while True:
        chunk = stream.read(_READ_CHUNK)
        if not chunk:
            break
        nul = chunk.find(b"\0")
        if nul >= 0:
            text, _ = decode_source(b"".join(pieces) + chunk[:nul], first=True)
            return text, SyntaxProblem("this is binary data, not a program (a NUL byte)", len(text),
                                       hint="give the path of a text file of statements")
        pieces.append(chunk)
        size += len(chunk)
        if size > most:
            error = SyntaxProblem(f"the program is more than {current.max_program_length:,} characters long, too "
                                  f"long to read {over_budget('max_program_length')}", 0)
            error.start = error.end = None
            return "", error
    text, error = decode_source(b"".join(pieces), first=True)
    if error is not None:
        error.hint = "save the file as UTF-8"
    return text, error
