"""The lark seam (grammar/lark_seam.py): the fast LALR driver, which reads
lark's internals, and the fallback through lark's public parser give the same
syntax trees and the same syntax errors.

1. Differential: every seed script (tests/seeds/*.ad) and several hundred
   generated programs (valid ones built from the grammar's pieces, and the
   same with a token broken) parse to equal trees -- kind, args and source
   offsets of every node -- or fail with equal errors, on both paths.
2. The version check: with lark's version made unknown, the tables go the
   public way (and say so), `parse` gives the same trees, and the syntax
   errors of the error table (as in test_language_errors.py) have the same
   message, column and hint -- through the command line too.
3. Missing internals and AUTODIFF_LARK_FAST=0 also take the public way.
4. lark's grammar cache: written to the user's cache folder, and parsing
   still works, silently, where it cannot be written or read.
"""
import pathlib
import random
import sys
import types

import lark
import pytest
from click.testing import CliRunner

from autodiff.cli.main import cli
from autodiff.grammar import lark_seam, parser
from autodiff.grammar.errors import SyntaxProblem
from autodiff.grammar.syntax import Node
import locations

SEEDS = sorted(locations.SEEDS.glob("*.ad"))


@pytest.fixture(scope="module")
def cache_home(tmp_path_factory):
    return tmp_path_factory.mktemp("cache-home")


@pytest.fixture(autouse=True)
def default_environment(monkeypatch, cache_home):
    """The tests here choose the path themselves (the whole suite may run with AUTODIFF_LARK_FAST=0),
    with a cache folder of their own and no fast-way cache in it: one left by another test would
    spare the tables the lark that a test has changed (lark's own cache is kept: it is lark's)."""
    monkeypatch.delenv("AUTODIFF_LARK_FAST", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache_home))
    for stale in cache_home.glob("autodiff/*.fast"):
        stale.unlink()


@pytest.fixture(scope="module")
def fast():
    t = parser.tables("fast")
    assert t.path == "fast" and t.run is parser._run_tables
    return t


@pytest.fixture(scope="module")
def public():
    t = parser.tables("public")
    assert t.path == "public" and t.run is parser._run_public
    return t


# ----------------------------------------------------------- tree equality

def canon(x):
    """A plain, comparable form of a parse result: a Node by its kind, args
    and offsets; a token by its type, text and offsets (our Tok on the fast
    path, a lark Token on the public one); a spliced `_rule` by its children."""
    if x.__class__ is Node:
        return ("Node", x.kind, canon(x.args), x.start, x.end)
    if isinstance(x, (tuple, list)):
        return (type(x).__name__, tuple(canon(a) for a in x))
    if hasattr(x, "start_pos") and hasattr(x, "type"):
        return ("Tok", x.type, str(x.value), x.start_pos, x.end_pos)
    if hasattr(x, "children"):
        return ("children", tuple(canon(a) for a in x.children))
    return (type(x).__name__, x)


def outcome(text, t):
    """The tree of `text` on tables `t`, or its syntax error's every detail."""
    try:
        return ("tree", canon(parser.parse(text, t)))
    except SyntaxProblem as e:
        return ("error", e.message, e.start, e.end, e.hint, e.at_end)


def test_canon_tells_trees_apart(fast):
    """The comparison is not vacuous: offsets, values and kinds all count."""
    assert outcome("x + 1", fast) != outcome("x +  1", fast)  # same shape, other offsets
    assert outcome("x + 1", fast) != outcome("x + 2", fast)
    assert outcome("x + 1", fast) != outcome("x - 1", fast)
    assert outcome("1", fast) != outcome("1.0", fast)  # 1 == 1.0, but an int is not a float
    assert outcome("x + 1", fast) == outcome("x + 1", fast)


# -------------------------------------------------------------- the seeds

def test_there_are_seed_scripts():
    assert len(SEEDS) >= 40


@pytest.mark.parametrize("path", SEEDS, ids=lambda p: p.name)
def test_seed_script_same_tree_on_both_paths(path, fast, public):
    text = path.read_text(encoding="utf-8")
    assert outcome(text, fast) == outcome(text, public)


# ------------------------------------------------- generated programs

class Programs:
    """Random programs over the grammar (grammar/autodiff.lark): every
    operator and precedence level, calls with keyword arguments, indexing and
    slicing, lists and tuples, lambdas, conditionals, strings and f-strings,
    and every statement, with blocks nested by indentation."""

    NAMES = ["x", "y", "z", "w", "torch", "F", "a_1", "_b", "ifx", "notable", "isa", "inner", "format"]
    NUMBERS = ["0", "1", "2", "10", "3.5", "0.5", ".5", "1.", "1e3", "2.5E-2", "00", "007.5"]  # 007 is refused, as in Python
    STRINGS = ["'a'", '"b"', "'it\\'s'", '"tab\\t"', "''", "'''tri'''", '"""q"""']
    FSTRINGS = ["f'{x}'", 'f"{x + 1} and {y}"', "F'{x:.2f}'", "f''"]
    CONSTS = ["True", "False", "None", "true", "false", "none"]
    BINOPS = ["+", "-", "*", "/", "//", "%", "@", "**", "^"]
    COMPARE = ["==", "!=", "<", ">", "<=", ">=", "is", "is not", "not in"]
    AUGOPS = ["+=", "-=", "*=", "/=", "//=", "%=", "@=", "**="]
    SPACES = ["", " ", " ", "  "]

    def __init__(self, seed):
        self.r = random.Random(seed)

    def pick(self, items):
        return self.r.choice(items)

    def sp(self):
        return self.pick(self.SPACES)

    def atom(self):
        return self.pick(self.pick([self.NAMES, self.NAMES, self.NUMBERS, self.STRINGS, self.FSTRINGS,
                                    self.CONSTS, ["..."]]))

    def items(self, depth, lo=0, hi=3):
        return [self.expr(depth) for _ in range(self.r.randint(lo, hi))]

    def args(self, depth):
        positional = self.items(depth, 0, 2)
        keywords = [f"{self.pick(['dim', 'keepdim', 'out', 'x'])}{self.sp()}={self.sp()}{self.expr(depth)}"
                    for _ in range(self.r.randint(0, 2))]
        parts = positional + keywords
        trailing = "," if parts and self.r.random() < 0.15 else ""
        return f",{self.sp()}".join(parts) + trailing

    def subscript(self, depth):
        kind = self.r.randint(0, 6)
        e = lambda: self.expr(depth)  # noqa: E731
        opt = lambda: self.expr(depth) if self.r.random() < 0.6 else ""  # noqa: E731
        if kind == 0:
            return f"{opt()}:{opt()}"
        if kind == 1:
            return f"{opt()}:{opt()}:{opt()}"
        if kind == 2:
            return f"{e()}, {opt()}:{opt()}"
        if kind == 3:
            return f"{e()},"
        if kind == 4:
            return f"..., {e()}"
        return e()

    def primary(self, depth):
        if depth <= 0:
            return self.atom()
        kind = self.r.randint(0, 9)
        if kind == 0:
            return f"({self.expr(depth - 1)})"
        if kind == 1:
            items = self.items(depth - 1, 0, 3)
            trailing = "," if len(items) == 1 or (items and self.r.random() < 0.3) else ""
            return "(" + ", ".join(items) + trailing + ")"
        if kind == 2:
            items = self.items(depth - 1, 0, 3)
            return "[" + ", ".join(items) + ("," if items and self.r.random() < 0.2 else "") + "]"
        if kind in (3, 4, 5):
            base = self.primary(depth - 1)
            if base[:1].isdigit() or base[:1] == ".":
                base = f"({base})"  # 1.x would be the number 1. then a name
            if kind == 3:
                return f"{base}({self.args(depth - 1)})"
            if kind == 4:
                return f"{base}[{self.subscript(depth - 1)}]"
            return f"{base}.{self.pick(self.NAMES)}"
        if kind == 6:
            return f"{self.pick(['sum', 'torch.exp', 'F.relu'])}({self.args(depth - 1)})"
        return self.atom()

    # precedence levels of the grammar: test (lambda, conditional) 0, or 1, and 2,
    # not 3, comparison 4, arith 5, term 6, factor (unary) 7, power 8, primary 9
    OPS = {"+": 5, "-": 5, "*": 6, "/": 6, "//": 6, "%": 6, "@": 6, "**": 8, "^": 8}

    def at(self, level, depth):
        """An expression that can stand where the grammar wants `level` or higher."""
        text, prec = self.level_expr(depth)
        return text if prec >= level else f"({text})"

    def expr(self, depth=3):
        return self.level_expr(depth)[0]

    def level_expr(self, depth):
        """(text, its precedence level)."""
        if depth <= 0:
            return self.primary(0), 9
        kind = self.r.randint(0, 12)
        d = depth - 1
        if kind <= 2:
            op = self.pick(self.BINOPS)
            level = self.OPS[op]
            if level == 8:  # power: primary ** factor
                return f"{self.at(9, d)}{self.sp()}{op}{self.sp()}{self.at(7, d)}", 8
            return f"{self.at(level, d)}{self.sp()}{op}{self.sp()}{self.at(level + 1, d)}", level
        if kind == 3:
            return f"{self.pick(['-', '+', '- -', '-+'])}{self.at(7, d)}", 7
        if kind == 4:
            return f"{self.at(5, d)} {self.pick(self.COMPARE)} {self.at(5, d)}", 4
        if kind == 5:
            chain = [self.at(5, d) for _ in range(3)]
            return f" {self.pick(['<', '<='])} ".join(chain), 4
        if kind == 6:
            op = self.pick(["and", "or"])
            level = 2 if op == "and" else 1
            return f"{self.at(level, d)} {op} {self.at(level + 1, d)}", level
        if kind == 7:
            return f"not {self.at(3, d)}", 3
        if kind == 8:
            return f"{self.at(1, d)} if {self.at(1, d)} else {self.at(0, d)}", 0
        if kind == 9:
            params = [self.pick(self.NAMES) + (f"={self.expr(0)}" if self.r.random() < 0.3 else "")
                      for _ in range(self.r.randint(0, 2))]
            return f"lambda{' ' if params else ''}{', '.join(params)}: {self.at(0, d)}", 0
        return self.primary(depth), 9

    def target(self):
        kind = self.r.randint(0, 4)
        if kind == 0:
            return f"{self.pick(self.NAMES)}, {self.pick(self.NAMES)}"
        if kind == 1:
            return f"{self.pick(self.NAMES)}[{self.subscript(1)}]"
        if kind == 2:
            return f"{self.pick(self.NAMES)}.{self.pick(self.NAMES)}"
        return self.pick(self.NAMES)

    def small(self):
        kind = self.r.randint(0, 16)
        if kind <= 3:
            return self.expr()
        if kind <= 6:
            targets = [self.target() for _ in range(self.r.randint(1, 2))]
            return "".join(f"{t}{self.sp()}={self.sp()}" for t in targets) + self.expr()
        if kind == 7:
            return f"{self.target()} {self.pick(self.AUGOPS)} {self.expr()}"
        if kind == 8:
            return f"assert {self.expr()}" + (f", {self.pick(self.STRINGS)}" if self.r.random() < 0.5 else "")
        if kind == 9:
            return self.pick(["pass", "break", "continue", "return", f"return {self.expr(2)}",
                              f"return {self.expr(1)}, {self.expr(1)}"])
        if kind == 10:
            return f"global {', '.join(self.pick(self.NAMES) for _ in range(self.r.randint(1, 3)))}"
        if kind == 11:
            return self.pick(["import torch", "import torch.nn as nn, numpy", "from torch import nn",
                              "from torch.nn import functional as F, init"])
        if kind == 12:
            return f"print({self.args(2)})"
        return self.expr()

    def simple_line(self):
        parts = [self.small() for _ in range(self.r.choice([1, 1, 1, 2, 3]))]
        line = f"{self.sp()};{self.sp()}".join(parts)
        if self.r.random() < 0.1:
            line += ";"
        if self.r.random() < 0.1:
            line += f"  # {self.pick(['note', 'x = 1', 'if:'])}"
        return line

    def block(self, indent, depth):
        """Lines of a block at `indent` (a string of spaces)."""
        lines = []
        for _ in range(self.r.randint(1, 3)):
            lines.extend(self.statement(indent, depth))
            if self.r.random() < 0.1:
                lines.append(self.pick(["", "   ", "# a comment", indent + "# indented comment"]))
        return lines

    def suite(self, head, indent, depth):
        """A compound statement's header and body: on the same line or indented below."""
        if depth <= 0 or self.r.random() < 0.3:
            return [f"{indent}{head}: {self.simple_line()}"]
        inner = indent + self.pick(["  ", "    ", "\t"])
        return [f"{indent}{head}:"] + self.block(inner, depth - 1)

    def statement(self, indent="", depth=2):
        kind = self.r.randint(0, 12)
        if kind <= 5 or depth <= 0:
            return [indent + self.simple_line()]
        if kind == 6:
            lines = self.suite(f"if {self.expr(2)}", indent, depth)
            for _ in range(self.r.randint(0, 2)):
                lines += self.suite(f"elif {self.expr(2)}", indent, depth)
            if self.r.random() < 0.5:
                lines += self.suite("else", indent, depth)
            return lines
        if kind == 7:
            return self.suite(f"while {self.expr(2)}", indent, depth)
        if kind == 8:
            target = self.pick(["i", "i, j", "i,", "a, b, c"])
            return self.suite(f"for {target} in {self.expr(2)}", indent, depth)
        if kind == 9:
            head = f"with {self.expr(1)}" + (f" as {self.pick(self.NAMES)}" if self.r.random() < 0.6 else "")
            return self.suite(head, indent, depth)
        if kind == 10:
            params = [self.pick(self.NAMES) + (f"={self.expr(1)}" if self.r.random() < 0.3 else "")
                      for _ in range(self.r.randint(0, 3))]
            trailing = "," if params and self.r.random() < 0.2 else ""
            return self.suite(f"def {self.pick(self.NAMES)}({', '.join(params)}{trailing})", indent, depth)
        # a statement continued: over a backslash, or inside brackets
        if self.r.random() < 0.5:
            return [f"{indent}{self.pick(self.NAMES)} = {self.at(5, 1)} + \\", f"{indent}    {self.at(6, 1)}"]
        return [f"{indent}{self.pick(self.NAMES)} = [{self.expr(1)},", f"{indent}     {self.expr(1)}]"]

    def program(self):
        lines = []
        for _ in range(self.r.randint(1, 4)):
            lines.extend(self.statement())
        text = "\n".join(lines)
        return text + self.pick(["", "\n", "\n\n", "\r\n"])

    BREAKERS = ["(", ")", "[", "]", ",", ":", "=", "+", "*", "**", ".", "2x", "$", "'", ";", "\n", "  ",
                "\n  ", "lambda", "if", "else", "not", "in", "is", "def", "return", "@", "!", "{", "\\",
                "1.2.3", "+=", "==", "f'", "...", "\t"]

    def broken(self):
        """A program with a token inserted, removed or replaced: mostly a syntax error."""
        text = self.program()
        for _ in range(self.r.randint(1, 2)):
            pos = self.r.randint(0, len(text))
            action = self.r.randint(0, 2)
            if action == 0:
                text = text[:pos] + self.pick(self.BREAKERS) + text[pos:]
            elif action == 1:
                text = text[:pos] + text[pos + self.r.randint(1, 3):]
            else:
                text = text[:pos] + self.pick(self.BREAKERS) + text[pos + 1:]
        return text


VALID = [Programs(seed).program() for seed in range(300)]
BROKEN = [Programs(10_000 + seed).broken() for seed in range(200)]


def _kinds(x, out):
    if x.__class__ is Node:
        out.add(x.kind)
        _kinds(x.args, out)
    elif isinstance(x, (tuple, list)):
        for a in x:
            _kinds(a, out)
    return out


def test_generated_programs_exercise_the_grammar(fast):
    """The valid programs parse and make every kind of node; most broken ones
    are syntax errors."""
    kinds = set()
    for text in VALID:
        _kinds(parser.parse(text, fast), kinds)
    expected = {"program", "expr", "assign", "augassign", "assert", "pass", "break", "continue", "return",
                "global", "import", "if", "while", "for", "with", "def", "param", "block", "tuple", "cond",
                "lambda", "or", "and", "not", "compare", "binop", "unary", "call", "index", "slice", "attr",
                "name", "const", "fstring", "group", "list"}
    assert expected <= kinds, expected - kinds
    errors = [outcome(text, fast)[0] == "error" for text in BROKEN]
    assert sum(errors) >= 0.5 * len(BROKEN), sum(errors)


@pytest.mark.parametrize("chunk", range(10))
def test_generated_programs_same_tree_on_both_paths(chunk, fast, public):
    for text in VALID[chunk::10] + BROKEN[chunk::10]:
        assert outcome(text, fast) == outcome(text, public), text


# ------------------------------------------------------ the version check

# (input, message, column) of syntax errors: first those of test_language_errors.py
BAD_INPUTS = [
    ("2x", "missing operator between 2 and x", 2),
    ("1 + 3y", "missing operator", 6),
    ("exp(", "was never closed", 4),
    ("log(x", "was never closed", 4),
    ("x.sum(dim=0", "was never closed", 6),
    ("[1,2", "was never closed", 1),
    ("x[0", "was never closed", 2),
    ("sin(cos(x)", "was never closed", 4),
    ("(1+2))", "unmatched ')'", 6),
    ("x)", "unmatched ')'", 2),
    ("]", "unmatched ']'", 1),
    ("x +* 3", "two operators in a row: '+' then '*'", 4),
    ("x +", "the expression ends with '+'", 3),
    ("x**", "the expression ends with '**'", 2),
    ("x * 2 -", "the expression ends with '-'", 7),
    ("*x", "'*' needs a value on its left", 1),
    ("x $ 2", "unexpected character '$'", 3),
    ("sin x", "missing operator before 'x'", 5),
    ("x\n  + 1", "unexpected indentation", 3),
    ("y = x**2\nz = y +* 1\nz", "two operators in a row", 8),
    # more of the hint table
    ("f(dim=0, x)", "a positional argument after a keyword argument", 10),
    ("if x:\n", "the statement is incomplete", 1),
    ("if x:", "the statement is incomplete", 6),
    ("while x\n  y", "the statement is incomplete", 8),
    ("x = = 1", "two operators in a row: '=' then '='", 5),
    ("f(x) = 2 = = 3", "two operators in a row: '=' then '='", 12),
    ("x[1:2:3:4]", "unexpected ':'", 8),
    ("def (x): x", "unexpected '('", 5),
    ("lambda x x", "missing operator before 'x'", 10),
    ("def f x", "missing operator before 'x'", 7),
    ("for i in : x", "unexpected ':'", 10),
    ("x = 1,,", "unexpected ','", 7),
    ("a b", "missing operator before 'b'", 3),
    ("if x:\n  y\n else: z", "this line's indentation matches no enclosing block", 2),
    ("x = 'abc", "a string is not closed", 5),
    ("assert", "the statement is incomplete", 7),
]


@pytest.fixture
def unknown_lark(monkeypatch):
    """lark claims a version the fast parser was not verified against; fresh tables."""
    monkeypatch.setattr(lark, "__version__", "99.0.0")
    monkeypatch.setattr(parser, "_tables", {})
    t = parser.tables()
    assert t.path == "public"
    assert "99.0.0" in t.why
    return t


def test_verified_version_takes_the_fast_path(monkeypatch):
    monkeypatch.setattr(parser, "_tables", {})
    assert lark.__version__ in lark_seam.VERIFIED, "verify this lark version and add it to lark_seam.VERIFIED"
    t = parser.tables()
    assert t.path == "fast" and t.why is None and t.run is parser._run_tables


def test_unknown_version_parses_through_lark_public_parser(unknown_lark, monkeypatch):
    starts = []
    real_start = lark_seam.Grammar.start

    def counting_start(self):
        starts.append(self)
        return real_start(self)
    monkeypatch.setattr(lark_seam.Grammar, "start", counting_start)

    def no_fast_driver(*args):
        raise AssertionError("the fast driver ran")
    monkeypatch.setattr(parser, "_run_tables", no_fast_driver)
    assert not hasattr(unknown_lark, "states")  # the internals were not even read
    tree = parser.parse("y = x**2 + f(a, dim=1)[0]\ny")
    assert starts == [unknown_lark.grammar]
    assert tree.kind == "program" and [s.kind for s in tree.args] == ["assign", "expr"]
    assert parser.parse_expression("x[1:, ::2].sum(dim=0)").kind == "call"


def test_unknown_version_same_trees(unknown_lark, fast):
    for text in [p.read_text(encoding="utf-8") for p in SEEDS] + VALID[:50]:
        assert outcome(text, unknown_lark) == outcome(text, fast), text


@pytest.mark.parametrize("text,message,column", BAD_INPUTS, ids=[b[0] for b in BAD_INPUTS])
def test_unknown_version_same_syntax_errors(unknown_lark, fast, text, message, column):
    got = outcome(text, unknown_lark)
    assert got[0] == "error", got
    assert got == outcome(text, fast)
    assert message in got[1]
    if column is not None:
        line_start = text.rfind("\n", 0, got[2]) + 1
        assert got[2] - line_start + 1 == column, got


@pytest.mark.parametrize("args", [["2x", "x=1"], ["x +* 3", "x=1"], ["f(dim=0, x)"], ["x\n  + 1", "x=1"],
                                  ["y = x**2; y.sum()", "x=[1, 2]"], ["[1, 2", "--json"]])
def test_unknown_version_same_command_line_output(args, monkeypatch):
    def run():
        result = CliRunner().invoke(cli, ["eval", *args])
        return result.exit_code, result.stdout, result.stderr
    monkeypatch.setattr(parser, "_tables", {})
    with_fast = run()
    assert parser.tables().path == "fast"
    monkeypatch.setattr(lark, "__version__", "99.0.0")
    monkeypatch.setattr(parser, "_tables", {})
    assert run() == with_fast
    assert parser.tables().path == "public"


def without_child_filters(monkeypatch):
    """lark.parse_tree_builder as a later lark might have it: no child filter
    functions (lark's own code keeps the ones it imported)."""
    monkeypatch.setitem(sys.modules, "lark.parse_tree_builder", types.ModuleType("lark.parse_tree_builder"))


def test_missing_internals_take_the_public_path(monkeypatch):
    without_child_filters(monkeypatch)
    t = parser._Tables()
    assert t.path == "public" and "internals" in t.why and "ImportError" in t.why
    assert outcome("x[0] + f(1, b=2)", t) == outcome("x[0] + f(1, b=2)", parser.tables("public"))


def test_changed_internals_take_the_public_path(monkeypatch, fast):
    """lark reorganised its parser objects: the table is not where the seam
    looks, while lark's public interface still works."""
    class Reorganised:
        def __init__(self, inner):
            self._inner = inner

        def __getattr__(self, name):
            if name == "parser":
                raise AttributeError(name)
            return getattr(self._inner, name)
    real_lark = lark.Lark

    def compiled_with_other_internals(*args, **kwargs):
        compiled = real_lark(*args, **kwargs)
        compiled.parser.parser = Reorganised(compiled.parser.parser)
        return compiled
    monkeypatch.setattr(lark, "Lark", compiled_with_other_internals)
    t = parser._Tables()
    assert t.path == "public" and "AttributeError" in t.why
    for text in ("x[0] + f(1, b=2)", "if x:\n  y = 1\nz", "2x"):
        assert outcome(text, t) == outcome(text, fast)


def test_asking_for_the_fast_path_does_not_fall_back(monkeypatch):
    without_child_filters(monkeypatch)
    with pytest.raises(ImportError):
        parser._Tables("fast")


def test_environment_turns_the_fast_path_off(monkeypatch):
    monkeypatch.setenv("AUTODIFF_LARK_FAST", "0")
    t = parser._Tables()
    assert t.path == "public" and "AUTODIFF_LARK_FAST" in t.why


# --------------------------------------------------------- lark's cache

def cache_file(tmp_path, monkeypatch):
    """With XDG_CACHE_HOME at tmp_path: where lark_seam puts the cache file."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    grammar = pathlib.Path(parser._GRAMMAR).read_text(encoding="utf-8")
    path = pathlib.Path(lark_seam._cache_path(grammar, lark.__version__))
    assert path.parent == tmp_path / "autodiff"
    return path


def fast_cache_file(path):
    """The fast way's cache beside lark's (`path`)."""
    grammar = pathlib.Path(parser._GRAMMAR).read_text(encoding="utf-8")
    fast = pathlib.Path(lark_seam._fast_cache_path(grammar, lark.__version__))
    assert fast.parent == path.parent and fast != path
    return fast


def test_cache_is_written_to_the_user_cache_folder_and_reused(tmp_path, monkeypatch):
    path = cache_file(tmp_path, monkeypatch)
    fast = fast_cache_file(path)
    assert not path.exists()
    t = parser._Tables()
    assert sorted(path.parent.iterdir()) == sorted([path, fast]) and path.stat().st_size > 10_000
    stamps = path.stat().st_mtime_ns, fast.stat().st_mtime_ns
    again = parser._Tables()  # loaded from the fast way's cache, neither rewritten
    assert (path.stat().st_mtime_ns, fast.stat().st_mtime_ns) == stamps
    assert t.grammar.lark is not None and again.grammar.lark is None and again.path == "fast"
    assert outcome("a, b = f(x)[1:]", again) == outcome("a, b = f(x)[1:]", t)


def plain(t):
    """A table's states with each reduce as (pops, rule name, passes its child through)."""
    return {state: {symbol: a if a[0] else (a[1][0], a[1][1], a[1][3]) for symbol, a in row.items()}
            for state, row in t.states.items()}


def test_tables_from_the_fast_cache_are_lark_s(tmp_path, monkeypatch):
    cache_file(tmp_path, monkeypatch)
    built, cached = parser._Tables(), parser._Tables()
    assert built.grammar.lark is not None and cached.grammar.lark is None
    assert plain(cached) == plain(built) and (cached.start, cached.end) == (built.start, built.end)
    assert cached.grammar.terminals == built.grammar.terminals
    for text in [p.read_text(encoding="utf-8") for p in SEEDS] + VALID[:100] + [b[1] for b in BAD_INPUTS]:
        assert outcome(text, cached) == outcome(text, built), text


def test_a_process_with_the_fast_cache_parses_without_lark(tmp_path):
    import os
    import subprocess
    code = ("import sys; from autodiff.grammar import parser; tree = parser.parse('y = f(x)[0] ** 2'); "
            "print(tree.kind, 'lark' in sys.modules)")
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "fresh"))
    env.pop("AUTODIFF_LARK_FAST", None)
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
            for _ in range(2)]
    assert [r.stdout.split() for r in runs] == [["program", "True"], ["program", "False"]], runs


def test_corrupt_fast_cache_is_rebuilt(tmp_path, monkeypatch, capfd):
    path = cache_file(tmp_path, monkeypatch)
    fast = fast_cache_file(path)
    fast.parent.mkdir(parents=True, exist_ok=True)
    for junk in (b"", b"\xdb\x02\x00", b"garbage" * 100):
        fast.write_bytes(junk)
        t = parser._Tables()
        assert t.path == "fast" and t.grammar.lark is not None  # built again from lark
        assert outcome("x*2", t) == outcome("x*2", parser.tables())
        assert fast.stat().st_size > 10_000  # and written again, whole
    assert capfd.readouterr() == ("", "")


def test_no_cache_when_the_cache_folder_cannot_be_made(tmp_path, monkeypatch, capfd):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    t = parser._Tables()
    assert outcome("x*2", t) == outcome("x*2", parser.tables())
    assert capfd.readouterr() == ("", "")


def test_cache_file_that_cannot_be_read_or_written(tmp_path, monkeypatch, capfd):
    """The cache path is taken (a folder sits there): lark neither reads nor
    writes it, and parsing goes on without a word on stdout or stderr."""
    path = cache_file(tmp_path, monkeypatch)
    path.mkdir()
    t = parser._Tables()
    assert outcome("x*2", t) == outcome("x*2", parser.tables())
    assert capfd.readouterr() == ("", "")
    assert path.is_dir()


def test_read_only_cache_folder(tmp_path, monkeypatch, capfd):
    folder = tmp_path / "autodiff"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
        t = parser._Tables()
        assert outcome("x*2", t) == outcome("x*2", parser.tables())
        assert capfd.readouterr() == ("", "")
    finally:
        folder.chmod(0o755)


def test_corrupt_cache_file_is_rebuilt(tmp_path, monkeypatch, capfd):
    path = cache_file(tmp_path, monkeypatch)
    path.write_bytes(b"0123abcd\n\x80\x04garbage")  # as if a concurrent write was cut short
    t = parser._Tables()
    assert outcome("x*2", t) == outcome("x*2", parser.tables())
    assert capfd.readouterr() == ("", "")
    assert path.stat().st_size > 10_000  # written again, whole
