"""Source text to syntax tree, with the grammar in `autodiff.lark`.

lark compiles the grammar into LALR(1) tables once (cached on disk by lark,
so a cold start does not pay for it). Parsing then runs those tables with a
small driver of our own, fed by a single-regex tokenizer that also tracks
indentation: for the one-line jobs of a batch this is several times faster
than lark's general-purpose lexer and parser loop, and it never recurses, so
deeply nested input parses too. lark's own child filters decide what each
rule keeps and `SyntaxBuilder` shapes the tree, so the grammar file stays the
one definition of the language.

The driver needs lark's non-public parser internals; `lark_seam` is the one
module that reads them, and on a lark version it was not verified against it
hands the same tokens to lark's public LALR parser instead (`_run_public`):
same trees, same errors, only slower.

Syntax errors carry the offset of the bad spot and a hint from a table of
known mistakes (`2x`, `x +* 3`, unbalanced brackets, ...).
"""
import itertools
import operator
import os
import re

from . import lark_seam
from .unicode_maths import ascii_operators, hint_for
from .errors import SyntaxProblem
from .budget import check_memory
from .limits import check_source
from .syntax import Tok, SyntaxBuilder, _OrderError, _Misplaced

__all__ = ["parse", "parse_expression"]

_GRAMMAR = os.path.join(os.path.dirname(__file__), "autodiff.lark")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_WORD_PROBES = ("or", "and", "not", "True", "None", "is", "in")
_SYMBOL_PROBES = ("+", "-", "*", "/", "//", "%", "@", "**", "^", "==", "<", "+=", "**=", "<<", "&=", "<<=")
_OPEN = {"(": ")", "[": "]", "{": "}"}
_CLOSE = {")": "(", "]": "[", "}": "{"}

_tables = {}


class _Tables:
    """What parsing needs from lark (through `lark_seam`): the LALR states and
    reductions for the fast driver, or lark's public parser; and the
    terminals, arranged for the tokenizer.

    `path` is "fast" or "public" (`why` says why); `path=None` lets the seam
    decide by lark's version."""

    def __init__(self, path=None):
        builder = SyntaxBuilder()

        def reduction(shape):  # what the driver needs to reduce a rule: see _run_tables
            return shape.size, shape.origin, _reducer(shape, builder), _passes_through(shape)
        grammar = lark_seam.load(_GRAMMAR, builder, reduction, path)
        self.grammar = grammar
        self.path = grammar.path
        self.why = grammar.why
        self.chains = {}  # (state below, top state, token) -> top state after one-child reductions
        if grammar.table is not None:
            # state -> {symbol: (True, next state) for a shift/goto, (False, rule info) for a reduce}
            self.states = grammar.table.states
            self.start = grammar.table.start
            self.end = grammar.table.end
            self.run = _run_tables
        else:
            self.run = _run_public
        self.keywords = {}        # word -> terminal ("if" -> IF)
        self.word_terminals = []  # regex terminals that match words: CONST, _OR, COMP_OP's "is not"
        punct = []                # (priority, length, name, regex) of symbol terminals
        values = {}               # NAME, NUMBER, STRING, FSTRING: the grammar's own regexes
        skip = {"COMMENT", "_NEWLINE"}
        for t in grammar.terminals:
            if t.name in skip or t.name.startswith("__IGNORE"):
                continue
            if t.name in ("NAME", "NUMBER", "STRING", "FSTRING"):
                values[t.name] = t.regexp
                continue
            if t.kind == "str":
                if _WORD.match(t.value):
                    self.keywords[t.value] = t.name
                else:
                    punct.append((t.priority, len(t.value), t.name, re.escape(t.value)))
                continue
            regex = t.regexp
            if any(re.fullmatch(regex, w) for w in _WORD_PROBES):
                self.word_terminals.append((t.name, re.compile(regex)))
            if any(re.fullmatch(regex, s) for s in _SYMBOL_PROBES):
                punct.append((t.priority, 3, t.name, regex))
        punct.sort(key=lambda p: (-p[0], -p[1]))
        symbols = "|".join(f"(?P<{name}>{rx})" for _, _, name, rx in punct)
        # one regex for every token; value terminals first (f"..." and r"..." before the names f and r),
        # then symbols
        self.master = re.compile(
            r"(?P<_WS>[ \t\f]+)|(?P<_CONT>\\[ \t\f]*\r?\n)|(?P<COMMENT>#[^\n]*)|(?P<_NL>\r?\n)|"
            + "|".join(f"(?P<{name}>{values[name]})" for name in ("FSTRING", "STRING", "NUMBER", "NAME"))
            + "|" + symbols)
        self.word_cache = {}
        # which terminal a word may also be when the parser cannot take its first reading
        # `in` is the keyword of `for x in xs` and the membership operator of `x in xs`
        # `@` starts a decorator where a statement starts, and is matmul elsewhere
        self.alternatives = {("COMP_OP", "in"): "IN", ("IN", "in"): "COMP_OP", ("DECORATOR", "@"): "MUL_OP"}

    def word_type(self, word, text, pos):
        """The terminal of a NAME-shaped word at `pos` (and its end): keyword, constant or name."""
        if word in ("is", "not"):
            for name, rx in self.word_terminals:
                m = rx.match(text, pos)
                if m and m.end() > pos + len(word):
                    return name, m.end()
        kind = self.word_cache.get(word)
        if kind is None:
            kind = self.keywords.get(word)
            if kind is None:
                for name, rx in self.word_terminals:
                    m = rx.fullmatch(word)
                    if m:
                        kind = name
                        break
            if kind is None:
                kind = "NAME"
            self.word_cache[word] = kind
        return kind, pos + len(word)


def _passes_through(shape):
    """Whether a reduction by `shape` just hands its one child up: a one-symbol
    `?rule` expansion that keeps that symbol as it is."""
    return shape.size == 1 and shape.expand1 and not shape.trailing and shape.include in (None, ((0, False, 0),))


class _Inlined:
    """What a `_rule` (or a repetition lark made up) reduces to: its children,
    spliced into the rule that contains it."""

    __slots__ = ("children",)

    def __init__(self, children):
        self.children = children


def _reducer(shape, builder):
    """The function that reduces a rule of `shape` (a lark_seam.RuleShape):
    keep the children lark would keep (no anonymous tokens; None for a missing
    [optional]; `_rule` children spliced in), then call the SyntaxBuilder
    method named for the rule (or its alias).

    This is lark's own child filter (computed by lark for the rule), applied
    here without lark's three wrapper calls per reduction."""
    include, trailing, expand1 = shape.include, shape.trailing, shape.expand1
    name = shape.name
    method = None if name.startswith("_") else getattr(builder, name, None)
    plain = include is not None and not trailing and not any(x or n for _, x, n in include)
    if include is None or plain and len(include) == shape.size:
        keep = None  # every child is kept as it is
    elif plain:
        keep = [i for i, _, _ in include]
    else:
        return _general_reducer(include, trailing, expand1, method)
    # the common shapes, each as a small function (reductions run dozens of times per line)
    if method is not None and not expand1:
        if keep is None:
            return lambda children: method(*children)
        if not keep:
            return lambda children: method()
        if len(keep) == 1:
            k = keep[0]
            return lambda children: method(children[k])
        pick = operator.itemgetter(*keep)
        return lambda children: method(*pick(children))
    if keep is not None and not keep:
        return lambda children: method() if method is not None else _Inlined([])
    if keep is not None:
        pick = operator.itemgetter(*keep)
        one = len(keep) == 1

        def reduce_kept(children):
            kept = [pick(children)] if one else list(pick(children))
            if expand1 and len(kept) == 1:
                return kept[0]
            return method(*kept) if method is not None else _Inlined(kept)
        return reduce_kept

    def reduce_all(children):
        if expand1 and len(children) == 1:
            return children[0]
        return method(*children) if method is not None else _Inlined(children)
    return reduce_all


def _general_reducer(include, trailing, expand1, method):
    """A reduction with [optional] placeholders or spliced `_rule` children."""
    def reduce(children):
        kept = []
        for i, expand, nones in include:
            if nones:
                kept.extend([None] * nones)
            if expand:
                if kept:
                    kept.extend(children[i].children)
                else:  # take the list over: a long left-recursive repetition stays linear
                    kept = children[i].children
            else:
                kept.append(children[i])
        if trailing:
            kept.extend([None] * trailing)
        if expand1 and len(kept) == 1:
            return kept[0]
        if method is None:
            return _Inlined(kept)
        return method(*kept)
    return reduce


def tables(path=None):
    """The parser tables (built once): the way lark_seam picks by lark's
    version, or `path` "fast" / "public" when asked for."""
    t = _tables.get(path)
    if t is None:
        t = _tables[path] = _Tables(path)
    return t


def tokenize(text, t):
    """Tokens of `text`, with _NEWLINE, _INDENT and _DEDENT as the grammar expects: made as
    the parser takes them (a generator), so that a token lives only until its rule is
    reduced -- parsing a long input never holds all its tokens at once."""
    master = t.master.match
    last = None   # the type of the token made last
    count = 0
    indents = [0]
    brackets = []
    pos = 0
    n = len(text)
    at_line_start = True
    while pos < n:
        if at_line_start and not brackets:
            pos, marks = _line_start(text, pos, indents)
            if marks is None:  # a blank or comment-only line: no tokens, no indentation change
                continue
            at_line_start = False
            for mark in marks:
                last = mark.type
                yield mark
        m = master(text, pos)
        if m is None:
            ch = text[pos]
            message = "a string is not closed" if ch in "'\"" else f"unexpected character {ch!r}"
            raise SyntaxProblem(message, pos, hint=_character_hint(ch))
        kind = m.lastgroup
        end = m.end()
        if kind == "_WS" or kind == "COMMENT" or kind == "_CONT":
            pos = end
            continue
        if kind == "_NL":
            if not brackets:  # inside brackets a line break is just space
                if last is not None and last != "_NEWLINE":
                    last = "_NEWLINE"
                    yield Tok("_NEWLINE", "\n", pos, pos)
                at_line_start = True
            pos = end
            continue
        value = m.group()
        if kind == "NAME":
            if value in _UNSUPPORTED_WORDS:
                message, hint = _UNSUPPORTED_WORDS[value]
                raise SyntaxProblem(message, pos, hint=hint)
            kind, end = t.word_type(value, text, pos)
            value = text[pos:end]
        elif value in _OPEN or value in _CLOSE:
            _track_bracket(value, pos, brackets)
        last = kind
        yield Tok(kind, value, pos, end)
        pos = end
        count += 1
        if not count & 0xFFFF:  # a long program: within the memory budget? (budget.check_memory)
            check_memory()
    if brackets:
        opener, where = brackets[-1]
        raise SyntaxProblem(f"{opener!r} was never closed", where,
                            hint=f"add {_OPEN[opener]!r} at the end", at_end=True)
    if last is not None and last not in ("_NEWLINE", "_DEDENT"):
        yield Tok("_NEWLINE", "\n", n, n)
    while len(indents) > 1:
        indents.pop()
        yield Tok("_DEDENT", "", n, n)


def _line_start(text, pos, indents):
    """At the start of a line outside brackets: (where its code starts, the _INDENT / _DEDENT tokens
    its indentation makes against the `indents` in force, which it updates), or (the next line's
    start, None) for a blank or comment-only line."""
    j = pos
    width = 0
    n = len(text)
    while j < n and text[j] in " \t\f":
        width = (width // 8 + 1) * 8 if text[j] == "\t" else width + 1
        j += 1
    if j >= n or text[j] in "\r\n#":
        k = text.find("\n", j)
        return (n if k < 0 else k + 1), None
    marks = []
    if width > indents[-1]:
        indents.append(width)
        marks.append(Tok("_INDENT", "", j, j))
    elif width < indents[-1]:
        while width < indents[-1]:
            indents.pop()
            marks.append(Tok("_DEDENT", "", j, j))
        if width != indents[-1]:
            raise SyntaxProblem("this line's indentation matches no enclosing block", j,
                                hint="indent it exactly like the lines of the block it belongs to")
    return j, marks


def _track_bracket(value, pos, brackets):
    """An opening bracket pushed, a closing one checked against the last opened."""
    if value in _OPEN:
        brackets.append((value, pos))
        return
    if not brackets:
        raise SyntaxProblem(f"unmatched {value!r}", pos, hint=f"there is no {_CLOSE[value]!r} for it to close")
    opener, where = brackets.pop()
    if _CLOSE[value] != opener:
        raise SyntaxProblem(f"{value!r} does not match {opener!r}", pos,
                            hint=f"the {opener!r} at offset {where} needs {_OPEN[opener]!r}")


# Python's keywords for what the language does not do: each a clear error where it stands (as a
# name, which Python never allows them to be, it would only lead to a misleading one)
_UNSUPPORTED_WORDS = {
    "yield": ("generators are not supported: `yield` has no meaning here",
              "build a list and return it, or write a class with __iter__ and __next__"),
    "async": ("asynchronous code is not supported: `async` has no meaning here", "write a plain def"),
    "await": ("asynchronous code is not supported: `await` has no meaning here", "call the function directly"),
}


def _character_hint(ch):
    if not ch.isascii():
        return hint_for(ch)
    if ch in "'\"":
        return "this string has no closing quote (a string ends on the line it starts, unless it is triple-quoted)"
    if ch in "{}":
        return "braces are not part of the language; use [ ] for lists and tensors"
    if ch in "$`?":
        return f"{ch!r} has no meaning here"
    if ch == "!":
        return "use `not x` for negation (`!=` compares)"
    return None


class _End:
    type = "$END"
    value = ""

    def __init__(self, pos):
        self.start_pos = self.end_pos = pos


def _pass_through(states, key):
    """The top state after every one-child reduction that `key`'s token triggers in a row."""
    below, top, kind = key
    while True:
        step = states[top].get(kind)
        if step is None or step[0] or not step[1][3]:
            return top
        top = states[below][step[1][1]][1]


def _run_tables(tokens, t, text):
    """The LALR(1) driver: shift tokens, reduce rules (see `_reducer`)."""
    states = t.states
    chains = t.chains
    end_state = t.end
    state_stack = [t.start]
    values = []
    prev = None
    for tok in itertools.chain(tokens, (_End(len(text)),)):
        while True:
            actions = states[state_stack[-1]]
            step = actions.get(tok.type)
            if step is None:
                alt = t.alternatives.get((tok.type, tok.value))
                if alt is not None and alt in actions:
                    tok.type = alt
                    step = actions[alt]
                else:
                    raise _unexpected(tok, prev, actions, text)
            shift, arg = step
            if shift:
                state_stack.append(arg)
                values.append(tok)
                break
            # a reduce; a one-symbol `?rule` expansion (the precedence levels
            # atom -> power -> ... -> test) hands its child up without a callback
            size, origin, callback, passthrough = arg
            if passthrough:
                # a run of such reductions depends only on the two top states and the token: remembered
                key = (state_stack[-2], state_stack[-1], tok.type)
                final = chains.get(key)
                if final is None:
                    final = chains[key] = _pass_through(states, key)
                state_stack[-1] = final
                continue
            if size:
                children = values[-size:]
                del values[-size:]
                del state_stack[-size:]
            else:
                children = []
            try:
                value = callback(children)
            except (_OrderError, _Misplaced) as e:
                raise _order_problem(e) from None
            state_stack.append(states[state_stack[-1]][origin][1])
            values.append(value)
            if tok.type == "$END" and state_stack[-1] == end_state:
                return values[-1]
        prev = tok
    raise SyntaxProblem("unexpected end of input", len(text))


def _run_public(tokens, t, text):
    """The same parse through lark's public LALR parser (see lark_seam): the
    same tokens in, the same SyntaxBuilder calls, the same errors out."""
    feed = t.grammar.start()
    prev = None
    try:
        for tok in itertools.chain(tokens, (_End(len(text)),)):
            try:
                try:
                    result = feed(tok)
                except lark_seam.Rejected as e:
                    alt = t.alternatives.get((tok.type, tok.value))
                    if alt is None or alt not in e.expected:
                        raise
                    tok.type = alt
                    result = feed(tok)
            except lark_seam.Rejected as e:
                raise _unexpected(tok, prev, e.expected, text) from None
            prev = tok
    except (_OrderError, _Misplaced) as e:
        raise _order_problem(e) from None
    return result


def _order_problem(e):
    if isinstance(e, _Misplaced):
        return SyntaxProblem(f"unexpected {e.tok.value!r}", e.tok.start_pos,
                             hint="only * and ** unpack arguments (*args, **kwargs), and @ starts a decorator")
    return SyntaxProblem("a positional argument after a keyword argument", e.node.start,
                         hint="put positional arguments first: f(x, y, dim=0)")


_OPERATOR_TYPES = {"ADD_OP", "MUL_OP", "DECORATOR", "POW_OP", "COMP_OP", "AUGOP", "EQUAL", "_AND", "_OR", "NOT",
                   "BITOR_OP", "BITAND_OP", "SHIFT_OP", "INVERT_OP"}
_VALUE_TYPES = {"NAME", "NUMBER", "STRING", "FSTRING", "CONST", "RPAR", "RSQB"}


def _unexpected(tok, prev, actions, text):
    """A syntax error for `tok`, with a hint from the table of known mistakes."""
    if tok.type == "DECORATOR":  # not where a decorator can be: the operator @
        tok.type = "MUL_OP"
    pos = tok.start_pos
    ptype = prev.type if prev is not None else None
    if tok.type == "$END" or tok.type == "_NEWLINE" or tok.type == "_DEDENT":
        if ptype in _OPERATOR_TYPES or ptype == "COMMA":
            return SyntaxProblem(f"the expression ends with {prev.value!r}", prev.start_pos,
                                 hint=f"something is missing after {prev.value!r}")
        if ptype == "COLON":
            return SyntaxProblem("a block is missing after ':'", prev.start_pos,
                                 hint="put the block's statements on the next lines, indented")
        return SyntaxProblem("the statement is incomplete", pos, at_end=tok.type == "$END")
    if tok.type == "_INDENT":
        return SyntaxProblem("unexpected indentation", pos, hint="only the lines of a block (after ':') are indented")
    if ptype in _VALUE_TYPES and tok.type in ("NAME", "NUMBER", "LPAR", "CONST"):
        if ptype == "NUMBER" and tok.type in ("NAME", "LPAR"):
            return SyntaxProblem(f"missing operator between {prev.value} and {tok.value}", pos,
                                 hint=f"did you mean {prev.value}*{tok.value}?")
        if ptype == "NAME" and tok.type == "NAME" and prev.value in _TYPO_KEYWORDS:
            return SyntaxProblem(f"unexpected name {tok.value!r}", pos, hint=_TYPO_KEYWORDS[prev.value])
        return SyntaxProblem(f"missing operator before {tok.value!r}", pos,
                             hint=f"did you mean {prev.value}*{tok.value} or {prev.value}, {tok.value}?")
    if tok.type in _OPERATOR_TYPES and tok.type not in ("ADD_OP", "NOT", "INVERT_OP") \
            and ptype in _OPERATOR_TYPES | {"LPAR", "COMMA", None}:
        if ptype in _OPERATOR_TYPES:
            return SyntaxProblem(f"two operators in a row: {prev.value!r} then {tok.value!r}", pos,
                                 hint=f"remove one, or put a value between {prev.value!r} and {tok.value!r}")
        return SyntaxProblem(f"{tok.value!r} needs a value on its left", pos, hint="something is missing before it")
    if tok.type == "EQUAL" and ptype is not None:
        return SyntaxProblem("'=' can't be used here", pos,
                             hint="use '==' to compare; '=' assigns only at the start of a statement "
                                  "or names a keyword argument")
    if tok.type == "COLON" and "COLON" not in actions:
        return SyntaxProblem("unexpected ':'", pos, hint="slices like x[1:3] go inside [ ]")
    shown = tok.value if tok.value else tok.type
    return SyntaxProblem(f"unexpected {shown!r}", pos, hint=_expected_hint(actions))


_TYPO_KEYWORDS = {"def": "def NAME(PARAMS): ...", "lambda": "lambda x: x*2"}


def _expected_hint(actions):
    names = {"NAME": "a name", "NUMBER": "a number", "RPAR": "')'", "RSQB": "']'", "COMMA": "','",
             "COLON": "':'", "_NEWLINE": "the end of the line", "ADD_OP": "an operator", "EQUAL": "'='"}
    wanted = [names[k] for k in actions if k in names]
    if not wanted:
        return None
    return "expected " + ", ".join(sorted(set(wanted))[:5])


def parse(text, t=None):
    """The program (a syntax tree) of `text`; SyntaxProblem on bad input (a program or line
    past its length budget included, refused before any work).
    `t`: the tables to use (`tables()` when not given)."""
    check_source(text)
    if t is None:
        t = tables()
    tokens = tokenize(ascii_operators(text), t)
    first = next(tokens, None)
    if first is None:
        from .syntax import Node
        return Node("program", (), 0, 0)
    return t.run(itertools.chain((first,), tokens), t, text)


def parse_expression(text):
    """The single expression of `text` (used for f-string fields and bindings)."""
    program = parse(text)
    stmts = program.args
    if len(stmts) != 1 or stmts[0].kind != "expr":
        raise SyntaxProblem("expected a single expression", 0)
    return stmts[0].args[0]
