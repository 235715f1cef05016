"""The values of number and string literals, read as Python reads them.

Numbers: 2, 2.5, .5, 1e-3, 1_000, 0x1F, 0o17, 0b101 (the grammar's NUMBER takes
the letters, digits and underscores a literal may hold greedily; what is not a
literal of Python's is refused here, with Python's words and the column of the
bad character). Strings: '...', "...", '''...''', with backslash escapes, or
raw (r'...'), whose backslashes stay.
"""
import unicodedata

from .budget import current, over_budget
from .errors import SyntaxProblem

__all__ = ["number_value", "string_value", "string_body"]

_BASES = {"x": (16, "hexadecimal", "0123456789abcdefABCDEF"), "o": (8, "octal", "01234567"),
          "b": (2, "binary", "01")}
_DECIMAL = "0123456789"


def number_value(text, start):
    """The int or float a NUMBER token `text` at offset `start` stands for."""
    if text[:2].lower() in ("0x", "0o", "0b"):
        base, word, digits = _BASES[text[1].lower()]
        body = text[2:]
        _check_digits(body, digits, word, start + 2, base_prefix=True)
        if not body:
            raise SyntaxProblem(f"invalid {word} literal", start, hint=f"write digits after {text[:2]}")
        _check_length(body.replace("_", ""), start, base)
        return int(body.replace("_", ""), base)
    if "_" in text:
        _check_underscores(text, start)
        text = text.replace("_", "")
    if any(ch in text for ch in ".eE"):
        return float(text)
    _check_length(text, start, 10)
    if text[0] == "0" and text.strip("0"):  # 007, as Python refuses it; 00 and 007.5 are fine
        digits = text.lstrip("0")  # (0o... only where they are octal digits: 08 is no octal number)
        octal = f", or 0o{digits} for an octal number" if digits.strip("01234567") == "" else ""
        raise SyntaxProblem("leading zeros in decimal integer literals are not permitted", start,
                            hint=f"write {digits}{octal}")
    return int(text)


def _check_digits(body, digits, word, start, base_prefix=False):
    """Every character of a base-prefixed literal's body is a digit of its base or an underscore
    between two digits (Python allows one right after the prefix too: 0x_1F)."""
    for i, ch in enumerate(body):
        if ch == "_":
            after = body[i + 1:i + 2]
            before_ok = i > 0 and body[i - 1] != "_" or i == 0 and base_prefix
            if not before_ok or not after or after == "_":
                raise SyntaxProblem(f"invalid {word} literal", start + i,
                                    hint="an underscore goes between two digits, as in 0x_FF_FF")
        elif ch not in digits:
            message = f"invalid digit '{ch}' in {word} literal" if ch in _DECIMAL else f"invalid {word} literal"
            raise SyntaxProblem(message, start + i)


def _check_underscores(text, start):
    """Python's rule for a decimal literal's underscores: each between two digits."""
    for i, ch in enumerate(text):
        if ch == "_" and not (0 < i < len(text) - 1 and text[i - 1] in _DECIMAL and text[i + 1] in _DECIMAL):
            raise SyntaxProblem("invalid decimal literal", start + i,
                                hint="an underscore goes between two digits, as in 1_000_000")


def _check_length(digits, start, base):
    """A whole number written with more digits than --max-digits allows is refused before it is
    read (reading one costs time that grows with the square of its length)."""
    decimal_digits = len(digits) if base == 10 else int(len(digits) * {16: 1.2042, 8: 0.9031, 2: 0.30103}[base]) + 1
    if decimal_digits > current.max_digits:
        raise SyntaxProblem(f"a whole number written with {len(digits):,} digits is too long to read "
                            f"{over_budget('max_digits')}", start, hint="write it as a float (1e5000 is inf)")


def string_body(text):
    """(prefix letters in lower case, the text between the quotes) of a string token."""
    i = 0
    while text[i] not in "'\"":
        i += 1
    quotes = 3 if text[i:i + 3] in ('"""', "'''") else 1
    return text[:i].lower(), text[i + quotes:len(text) - quotes]


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "'": "'", '"': '"', "a": "\a", "b": "\b",
            "f": "\f", "v": "\v", "\n": ""}
_HEX = {"x": 2, "u": 4, "U": 8}  # \xhh, \uXXXX, \UXXXXXXXX: that many hex digits
_OCTAL = "01234567"


def string_value(text, start=0):
    """The value of a string token (its prefix and quotes included) at offset `start`: escapes
    read, unless raw."""
    prefix, body = string_body(text)
    if "r" in prefix or "\\" not in body:
        return body
    quotes = 3 if text[len(prefix):len(prefix) + 3] in ('"""', "'''") else 1
    return unescape(body, start + len(prefix) + quotes)


def unescape(body, start=0):
    """A string body's backslash escapes read as Python reads them (\\n, \\x41, \\u00e9, \\101,
    \\N{DEGREE SIGN}, ...); an unknown one stays as written, as in Python, and a malformed one
    (\\x4) is Python's error, placed at it (`start`: the body's offset in the source)."""
    out = []
    i = 0
    n = len(body)
    while i < n:
        ch = body[i]
        if ch != "\\" or i + 1 >= n:
            out.append(ch)
            i += 1
            continue
        code = body[i + 1]
        if code in _HEX:
            digits = body[i + 2:i + 2 + _HEX[code]]
            if len(digits) < _HEX[code] or not all(c in "0123456789abcdefABCDEF" for c in digits):
                raise _bad_escape(f"truncated \\{code}{'X' * _HEX[code]} escape", start + i)
            if int(digits, 16) > 0x10FFFF:
                raise _bad_escape("illegal Unicode character", start + i)
            out.append(chr(int(digits, 16)))
            i += 2 + _HEX[code]
        elif code == "N":
            close = body.find("}", i + 3)
            name = body[i + 3:close] if body[i + 2:i + 3] == "{" and close > 0 else None
            try:
                out.append(unicodedata.lookup(name))
            except (KeyError, TypeError):
                raise _bad_escape("malformed \\N character escape" if name is None else
                                  "unknown Unicode character name", start + i) from None
            i = close + 1
        elif code in _OCTAL:
            j = i + 1
            while j < n and j < i + 4 and body[j] in _OCTAL:
                j += 1
            out.append(chr(int(body[i + 1:j], 8)))
            i = j
        else:
            out.append(_ESCAPES.get(code, "\\" + code))
            i += 2
    return "".join(out)


def _bad_escape(what, at):
    return SyntaxProblem(f"(unicode error) 'unicodeescape' codec can't decode this escape: {what}", at,
                         hint="write \\\\ for a backslash, or use a raw string r'...'")
