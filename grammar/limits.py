"""Size limits checked before a single step does its work.

One interpreter step may be one Python operation that runs for minutes or
grows memory without bound (`3 ** 10**8`, `s * 10**9`, `sum(lists, [])`,
`'x'.center(10**10)`): the step budget cannot interrupt it and the memory
budget only stops it late. These checks refuse such a step up front, with a
message in the language's terms.
"""
import math
import re

__all__ = ["TooLarge", "MAX_LIST", "MAX_INT_BITS", "check_items", "bounded_list", "checked_power", "checked_product", "check_width",
           "check_format_spec", "check_percent_format"]

MAX_LIST = 10_000_000     # the most items a list, tuple or string may get from one step
MAX_INT_BITS = 100_000    # the largest whole number a step may make (about 30,000 digits)


def check_items(n, what="list"):
    """Refuse to make a `what` of `n` items (elements of a list, characters of a string)."""
    if n > MAX_LIST:
        unit = "characters" if what == "string" else "items"
        raise MemoryError(f"a {what} of {n:,} {unit} is too long (the limit is {MAX_LIST:,})")


def bounded_list(iterable=()):
    """The items of `iterable` as a new list, refused as soon as there are too many
    (a range by its length, before any item is made)."""
    if isinstance(iterable, range):
        check_items(len(iterable))
    out = []
    for item in iterable:
        out.append(item)
        if len(out) > MAX_LIST:
            check_items(len(out))
    return out


class TooLarge(OverflowError):
    """A number the language refuses to make (its message says how large it would be)."""


def _too_large(bits):
    raise TooLarge(f"the result would be a whole number of about {int(bits * 0.30103) + 1:,} digits, "
                        f"too large to compute (the limit is about {int(MAX_INT_BITS * 0.30103):,} digits)")


def checked_power(a, b):
    """a ** b for whole numbers, refused when the result would be huge (a negative b gives a float)."""
    if b > 0 and abs(a) > 1:
        bits = b * math.log2(abs(a))
        if bits > MAX_INT_BITS:
            _too_large(bits)
    return a ** b


def checked_product(a, b):
    if a.bit_length() + b.bit_length() > MAX_INT_BITS:
        _too_large(a.bit_length() + b.bit_length())
    return a * b


def checked_shift(a, b):
    """a << b for whole numbers, refused when the result would be huge."""
    if a and b > 0 and a.bit_length() + b > MAX_INT_BITS:
        _too_large(a.bit_length() + b)
    return a << b


def check_width(width):
    """A width or count argument (str.center, ljust, zfill, format's width)."""
    if isinstance(width, int) and width > MAX_LIST:
        check_items(width, "string")


_SPEC_WIDTH = re.compile(r"\d+")


def check_format_spec(spec):
    """format(v, spec): the width and precision may not ask for a huge string."""
    for number in _SPEC_WIDTH.findall(spec or ""):
        if len(number) > 8 or int(number) > MAX_LIST:
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
