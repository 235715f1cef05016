"""Everything autodiff needs from lark, in one place.

lark compiles `autodiff.lark` into LALR(1) tables. Parsing then goes one of
two ways, picked once, when the tables are built (`load`):

* fast: the parser runs lark's tables with a small driver of its own
  (grammar/parser.py `_run_tables`). That needs lark's NON-PUBLIC parser
  internals, and this module is the only place that reads them:
    - `Lark.parser.parser.parser` (ParsingFrontend -> LALR_Parser -> _Parser),
      its `.parse_table` (`.states`: state -> {symbol: (action, arg)} with
      `action.name` "Shift" or "Reduce", `arg` the next state or the Rule;
      `.start_states` / `.end_states` by start symbol) and its `.callbacks`
      (keyed by every Rule of the grammar);
    - Rule objects: `.expansion` (symbols with `.is_term`, `.filter_out`,
      `.name`), `.origin.name`, `.alias`, `.options.expand1`,
      `.options.keep_all_tokens`, `.options.empty_indices`;
    - `lark.parse_tree_builder.maybe_create_child_filter(expansion,
      keep_all_tokens, ambiguous, empty_indices)`, returning None or a
      functools.partial of `ChildFilterLALR` (args: to_include as (index,
      splice?, Nones before it), Nones at the end) or
      `ChildFilterLALR_NoPlaceholders` (args: (index, splice?)): lark's own
      rule for which children a rule keeps, so both ways build the same tree.
  Verified against the lark versions in VERIFIED (the differential test,
  tests/test_parser_seam.py, passed on each).

* public: on any other lark version, or when the internals above are not
  what this module expects (AttributeError, ImportError, ... while reading
  them), the same tokens go through lark's documented LALR interface
  instead: `Lark(..., parser="lalr", transformer=...)`, `Lark.parse_interactive`,
  `InteractiveParser.feed_token(Token(...))`, `UnexpectedToken.expected`.
  The transformer calls the same `SyntaxBuilder` methods with the children
  lark keeps, so the tree, and every error and its column, are the same;
  only speed differs. A lark upgrade therefore costs speed, never
  correctness. `AUTODIFF_LARK_FAST=0` in the environment forces this way.

Both ways read the terminal definitions, to build the tokenizer, from
`Lark.terminals`: the TerminalDef objects that lark's documented
`get_terminal()` and `edit_terminals` option hand out (`.name`, `.priority`,
`.pattern.type` "str"/"re", `.pattern.value`, `.pattern.to_regexp()`).

The compiled grammar is cached with lark's own cache (`cache=` a file path;
lark keys it by the grammar, the options, its version and Python's, and
rebuilds on a mismatch or an unreadable file). The file lives in the user's
cache folder, not in the shared temporary folder that `cache=True` uses,
where another user could leave a file for lark to unpickle. Where that folder
cannot be made, or an old lark fails to write the file, parsing goes on
without a cache. Beside it, the fast way keeps its own tables, plain data
marshalled (`_fast_data`: ~1 ms to load, against ~40 ms for lark's parser from
lark's cache), keyed by the grammar, lark's version, Python's and this
module's code: a process that finds them neither builds lark's parser nor
imports lark. Nothing but lark's own tables, on a verified version, makes them.
"""
import collections
import hashlib
import logging
import os
import sys

__all__ = ["VERIFIED", "Grammar", "Rejected", "load"]

# lark versions whose internals (listed above) the fast way was checked against
VERIFIED = frozenset({"1.1.0", "1.1.5", "1.1.9", "1.2.1", "1.2.2", "1.3.0", "1.3.1"})

_log = logging.getLogger("autodiff.grammar")

# A terminal, as the tokenizer needs it: kind is "str" (a literal: value is
# the text) or "re" (value is None); regexp matches it either way.
Terminal = collections.namedtuple("Terminal", "name priority kind value regexp")

# How one rule reduces, in plain data: `size` symbols popped; `origin` the
# rule's name (for the goto); `name` the SyntaxBuilder method (alias or
# origin); `expand1` a `?rule` hands a single kept child up; `include` None
# (keep every child) or ((index, splice the child's children?, Nones
# before it), ...), and `trailing` Nones after the last.
RuleShape = collections.namedtuple("RuleShape", "size origin name expand1 include trailing")

# state -> {symbol: (True, next state) for a shift or goto, (False, reduction(RuleShape)) for a reduce}
FastTable = collections.namedtuple("FastTable", "states start end")


class Rejected(Exception):
    """The public parser could not take a token; `expected` are the terminals it could."""

    def __init__(self, expected):
        super().__init__("unexpected token")
        self.expected = expected


class Grammar:
    """The loaded grammar: `path` is "fast" (with `table`) or "public" (with
    `start`), `why` says why the public way was taken."""

    def __init__(self, lark, terminals, path, why=None, table=None):
        self.lark = lark
        self.terminals = terminals
        self.path = path
        self.why = why
        self.table = table

    def start(self):
        """A new public parse: a function taking our tokens one by one (then
        the end, type "$END") and returning the tree after the end; Rejected
        for a token the grammar cannot take there."""
        from lark import Token
        from lark.exceptions import UnexpectedToken
        feed_token = self.lark.parse_interactive().feed_token

        def feed(tok):
            try:
                return feed_token(Token(tok.type, tok.value, start_pos=tok.start_pos, end_pos=tok.end_pos))
            except UnexpectedToken as e:
                raise Rejected(frozenset(e.expected)) from None
        return feed


def load(grammar_file, builder, reduction, path=None):
    """Compile the grammar (or load it from lark's cache) and pick the way
    to parse: `path` "fast" or "public" asks for one; None decides by lark's
    version and the environment. Reductions call `builder`'s methods: on the
    public way through lark's Transformer, on the fast way through what
    `reduction(RuleShape)` makes (the table's reduce entries). The fast way's
    tables, once read from lark, are kept in a cache of their own (below):
    a later process parses without building lark's parser, or importing lark."""
    with open(grammar_file, encoding="utf-8") as f:
        text = f.read()
    fast_cache = None
    if path != "public" and not _fast_turned_off():
        version = _lark_version()
        if version in VERIFIED:
            fast_cache = _fast_cache_path(text, version)
            data = _read_fast_cache(fast_cache)
            if data is not None:
                return Grammar(None, [Terminal(*t) for t in data[0]], "fast", table=_table_of(data[1], reduction))
    import lark as lark_module
    from lark import Lark
    version = getattr(lark_module, "__version__", "unknown")
    options = dict(parser="lalr", lexer="basic", maybe_placeholders=True, transformer=_transformer(builder))
    cache = _cache_path(text, version)
    try:
        compiled = Lark(text, cache=cache or False, **options)
    except OSError:
        # an old lark that cannot read or write the cache file raises; go on without it
        compiled = Lark(text, **options)
    terminals = _terminals(compiled)

    if path is None:
        if _fast_turned_off():
            why = "AUTODIFF_LARK_FAST is off"
        elif version not in VERIFIED:
            why = f"lark {version} is not a version the fast parser was verified against"
        else:
            why = None
    elif path == "public":
        why = "asked for"
    elif path == "fast":
        why = None
    else:
        raise ValueError(f"no parser path {path!r}")
    if why is None:
        try:
            data = _fast_data(compiled)
        except (AttributeError, ImportError, KeyError, TypeError, ValueError, IndexError, AssertionError) as e:
            if path == "fast":
                raise
            why = f"lark {version}'s parser internals are not as expected ({type(e).__name__}: {e})"
        else:
            if fast_cache is not None:
                _write_fast_cache(fast_cache, (tuple(tuple(t) for t in terminals), data))
            return Grammar(compiled, terminals, "fast", table=_table_of(data, reduction))
    _log.debug("parsing with lark's public LALR parser: %s", why)
    return Grammar(compiled, terminals, "public", why=why)


def _cache_path(text, version):
    """Where lark caches the compiled grammar, or None for no cache. The name
    holds a hash of what the cache depends on, so installs side by side (other
    grammars, lark or Python versions) don't overwrite each other's."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "autodiff")
    key = hashlib.sha256(f"{text}\0{version}\0{sys.version_info[:2]}".encode("utf-8")).hexdigest()[:16]
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError:
        return None
    return os.path.join(folder, f"grammar-{key}.lark-cache")


def _transformer(builder):
    """A lark Transformer whose method for each rule (or alias) calls the
    SyntaxBuilder method of that name with the kept children; rules without
    one (`_rule`s, lark's repetition helpers) become lark Trees, whose
    `.children` the rule that contains them splices in."""
    from lark import Transformer

    def call(method):
        return lambda self, children: method(*children)
    methods = {name: call(getattr(builder, name)) for name in dir(builder)
               if not name.startswith("_") and callable(getattr(builder, name))}
    return type("SyntaxTransformer", (Transformer,), methods)()


def _terminals(compiled):
    out = []
    for t in compiled.terminals:
        kind = t.pattern.type
        out.append(Terminal(t.name, t.priority, kind, t.pattern.value if kind == "str" else None,
                            t.pattern.to_regexp()))
    return out


# ------------------------------------------------------- lark's internals
def _fast_data(compiled):
    """The parse table in plain data, read from lark's internals: (shapes, states, start, end) --
    `shapes` the distinct RuleShapes, as tuples; `states` state -> {symbol: next state for a shift or
    goto, -1 - i for a reduce by shapes[i]}."""
    from lark.parse_tree_builder import maybe_create_child_filter, ChildFilterLALR, ChildFilterLALR_NoPlaceholders
    inner = compiled.parser.parser.parser
    table = inner.parse_table
    shapes = {}   # RuleShape -> its index: equal shapes share one reduction
    by_rule = {}  # id(Rule) -> the shape's index (a Rule's own hash is slow)
    for rule in inner.callbacks:
        made = maybe_create_child_filter(rule.expansion, rule.options.keep_all_tokens, False,
                                         rule.options.empty_indices)
        if made is None:
            include, trailing = None, 0
        elif made.func is ChildFilterLALR:
            include, trailing = tuple(tuple(x) for x in made.args[0]), made.args[1]
        elif made.func is ChildFilterLALR_NoPlaceholders:
            include, trailing = tuple((i, expand, 0) for i, expand in made.args[0]), 0
        else:
            raise TypeError(f"unknown child filter {made.func!r}")
        for i, expand, nones in include or ():
            if not (0 <= i < len(rule.expansion)) or nones < 0:
                raise ValueError(f"child filter of {rule!r} out of range")
        name = rule.alias or getattr(rule.options, "template_source", None) or rule.origin.name
        shape = RuleShape(len(rule.expansion), str(rule.origin.name), str(name),  # (plain str, not lark's Tokens)
                          bool(rule.options.expand1) and rule.alias is None, include, trailing)
        by_rule[id(rule)] = shapes.setdefault(shape, len(shapes))
    states = {}
    for state, actions in table.states.items():
        row = states[state] = {}
        for symbol, (action, arg) in actions.items():
            name = action.name
            if name == "Shift":
                row[symbol] = arg
            elif name == "Reduce":
                row[symbol] = -1 - by_rule[id(arg)]
            else:
                raise ValueError(f"unknown parser action {name!r}")
    return tuple(tuple(shape) for shape in shapes), states, table.start_states["start"], table.end_states["start"]


def _table_of(data, reduction):
    """The FastTable of _fast_data's `data`, each reduce given as `reduction(RuleShape)` (made once
    per shape, one entry shared by every state that reduces by it)."""
    shapes, states, start, end = data
    reduces = [(False, reduction(RuleShape(*shape))) for shape in shapes]
    table = {state: {symbol: (True, a) if a >= 0 else reduces[-1 - a] for symbol, a in row.items()}
             for state, row in states.items()}
    return FastTable(table, start, end)


# ------------------------------------------------------- the fast way's own cache
# lark's cache still costs ~40 ms a process (its objects rebuilt, then our table read from them);
# the fast way's data alone, marshalled, loads in ~1 ms and needs no lark. Its name holds a hash of
# what it depends on: the grammar, lark's version, Python's, and this module's own code (which reads
# lark's internals); it is only ever made for a lark version in VERIFIED, only from lark's own tables.
_FAST_CACHE_FORMAT = 1


def _fast_turned_off():
    return os.environ.get("AUTODIFF_LARK_FAST", "1").strip() in ("0", "no", "false", "off")


def _lark_version():
    """lark's version: the module's, once it is imported; else read from its __init__ without
    importing it (the point of the fast cache). None where it cannot be told."""
    module = sys.modules.get("lark")
    if module is not None:
        return getattr(module, "__version__", None)
    try:
        import importlib.util
        spec = importlib.util.find_spec("lark")
        with open(spec.origin, encoding="utf-8") as f:
            head = f.read()
    except (ImportError, AttributeError, TypeError, ValueError, OSError):
        return None
    import re
    found = re.search(r"""^__version__\s*(?::[^=\n]*)?=\s*["']([^"']+)["']""", head, re.M)  # (maybe annotated)
    return found.group(1) if found else None


def _fast_cache_path(text, version):
    lark_cache = _cache_path(text, version)
    if lark_cache is None:
        return None
    try:
        with open(__file__, "rb") as f:
            own = f.read()
    except OSError:
        return None
    key = hashlib.sha256(own + f"\0{_FAST_CACHE_FORMAT}\0{lark_cache}".encode("utf-8")).hexdigest()[:16]
    return os.path.join(os.path.dirname(lark_cache), f"grammar-{key}.fast")


def _read_fast_cache(file):
    """The cached (terminals, data), or None: no file, or one that is not whole and well formed."""
    if file is None:
        return None
    import marshal
    try:
        with open(file, "rb") as f:
            data = marshal.load(f)
        terminals, (shapes, states, start, end) = data
        if not (isinstance(terminals, tuple) and isinstance(shapes, tuple) and isinstance(states, dict)
                and start in states and end in states and all(len(t) == 5 for t in terminals)
                and all(len(shape) == 6 for shape in shapes)):
            return None
        return data
    except (OSError, EOFError, ValueError, TypeError):
        return None


def _write_fast_cache(file, data):
    """Write the cache whole (a temporary file renamed over it), or not at all."""
    import marshal
    temporary = f"{file}.{os.getpid()}.tmp"
    try:
        with open(temporary, "wb") as f:
            marshal.dump(data, f)
        os.replace(temporary, file)
    except (OSError, ValueError):
        try:
            os.unlink(temporary)
        except OSError:
            pass
