"""Maths people paste from documents: Unicode operators read as Python's.

A formula copied from a paper or a web page brings `−` (the minus sign), `×`,
`·` or `÷` where Python has `-`, `*` and `/`. Each of those is one character
for one character, so they are rewritten before parsing and every column in
an error message stays true. Inside strings and comments nothing changes.
Characters that would need more than one (`²`, `√`, `π`) are not rewritten:
the parser's error for them carries the hint `hint_for` gives.
"""

__all__ = ["ascii_operators", "hint_for"]

_SAME_WIDTH = {
    "\u2212": "-",  # − minus sign
    "\u2013": "-",  # – en dash (word processors turn a minus into it)
    "\u00d7": "*",  # × multiplication sign
    "\u00b7": "*",  # · middle dot
    "\u22c5": "*",  # ⋅ dot operator
    "\u2217": "*",  # ∗ asterisk operator
    "\u00f7": "/",  # ÷ division sign
    "\u2215": "/",  # ∕ division slash
    "\u2044": "/",  # ⁄ fraction slash
    "\u00a0": " ",  # no-break space
}
_TABLE = str.maketrans(_SAME_WIDTH)

_SUPERSCRIPTS = {"\u00b2": "2", "\u00b3": "3", "\u00b9": "1", "\u2070": "0", "\u2074": "4", "\u2075": "5",
                 "\u2076": "6", "\u2077": "7", "\u2078": "8", "\u2079": "9"}
_HINTS = {
    "\u221a": "write sqrt(x) for a square root",
    "\u03c0": "write pi (or math.pi, torch.pi)",
    "\u2264": "write <=", "\u2265": "write >=", "\u2260": "write !=",
    "\u2248": "write isclose(a, b) or allclose(a, b) to compare approximately",
    "\u2211": "write sum(...)", "\u220f": "write prod(...)",
    "\u221e": "write inf (or math.inf)",
    "\u2018": "use plain quotes ' or \" around a string", "\u2019": "use plain quotes ' or \" around a string",
    "\u201c": "use plain quotes ' or \" around a string", "\u201d": "use plain quotes ' or \" around a string",
}


def ascii_operators(text):
    """`text` with the one-character Unicode operators outside strings and
    comments replaced by Python's (same length: offsets are unchanged)."""
    if text.isascii():
        return text
    out = []
    i, n = 0, len(text)
    start = 0  # start of the stretch of code not yet copied
    while i < n:
        ch = text[i]
        if ch == "#":
            out.append(text[start:i].translate(_TABLE))
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append(text[i:end])
            i = start = end
        elif ch in "'\"":
            out.append(text[start:i].translate(_TABLE))
            quote = text[i:i + 3] if text[i:i + 3] in ("'''", '"""') else ch
            j = i + len(quote)
            while j < n and not text.startswith(quote, j):
                if text[j] == "\\":
                    j += 1
                elif text[j] == "\n" and len(quote) == 1:
                    break
                j += 1
            j = min(n, j + len(quote))
            out.append(text[i:j])
            i = start = j
        else:
            i += 1
    out.append(text[start:].translate(_TABLE))
    return "".join(out)


def hint_for(ch):
    """What to write instead of the Unicode character `ch` (None if it is not maths)."""
    if ch in _SUPERSCRIPTS:
        return f"write x**{_SUPERSCRIPTS[ch]} for a power (** is Python's power operator)"
    return _HINTS.get(ch)
