"""The syntax tree the parser builds, and the lark callbacks that build it.

A `Node` has a `kind` (what it is: "binop", "call", "assign", ...), its
`args`, and the character offsets `start`/`end` of the source it came from,
which every later error and every graph node points back to.
"""
__all__ = ["Node", "Tok", "SyntaxBuilder"]


class Tok:
    """A token: its grammar terminal name, text and place in the source."""

    __slots__ = ("type", "value", "start_pos", "end_pos")

    def __init__(self, type, value, start_pos, end_pos):
        self.type = type
        self.value = value
        self.start_pos = start_pos
        self.end_pos = end_pos

    def __repr__(self):
        return f"Tok({self.type}, {self.value!r}, {self.start_pos})"


class Node:
    """One syntax-tree node. `args` holds child Nodes and plain values."""

    __slots__ = ("kind", "args", "start", "end")

    def __init__(self, kind, args, start, end):
        self.kind = kind
        self.args = args
        self.start = start
        self.end = end

    def __repr__(self):
        return f"Node({self.kind}, {self.args!r})"


def _start(x):
    return x.start if x.__class__ is Node else x.start_pos


def _end(x):
    return x.end if x.__class__ is Node else x.end_pos


def _node(kind, args, first, last):
    return Node(kind, args, _start(first), _end(last))


def _present(children):
    return [c for c in children if c is not None]


def _number(text):
    if any(ch in text for ch in ".eE"):
        return float(text)
    return int(text)


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "'": "'", '"': '"', "0": "\0"}


def unquote(text):
    """The value of a quoted string literal (simple backslash escapes)."""
    body = text[3:-3] if text[:3] in ('"""', "'''") else text[1:-1]
    if "\\" not in body:
        return body
    out = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            out.append(_ESCAPES.get(body[i + 1], "\\" + body[i + 1]))
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


_CONSTANTS = {"true": True, "false": False, "none": None}


class SyntaxBuilder:
    """One method per grammar rule (or alias), each making a `Node` from the
    rule's kept children (the parser's `_reducer` calls them)."""

    # ------------------------------------------------------------ statements
    def start(self, *stmts):
        stmts = _present(stmts)
        if not stmts:
            return Node("program", (), 0, 0)
        return Node("program", tuple(stmts), _start(stmts[0]), _end(stmts[-1]))

    def expr_stmt(self, *parts):
        if len(parts) == 1:
            return _node("expr", (parts[0],), parts[0], parts[0])
        return _node("assign", (parts[:-1], parts[-1]), parts[0], parts[-1])

    def aug_assign(self, target, op, value):
        return _node("augassign", (target, op.value[:-1], value), target, value)

    def assert_stmt(self, test, message):
        return _node("assert", (test, message), test, message or test)

    def pass_stmt(self):
        return Node("pass", (), 0, 0)

    def break_stmt(self):
        return Node("break", (), 0, 0)

    def continue_stmt(self):
        return Node("continue", (), 0, 0)

    def return_stmt(self, value):
        if value is None:
            return Node("return", (None,), 0, 0)
        return _node("return", (value,), value, value)

    def global_stmt(self, *names):
        return _node("global", tuple(n.value for n in names), names[0], names[-1])

    def import_stmt(self, *parts):
        # `import a.b as c` and `from a.b import c`: only the modules (a.b) matter
        parts = [p for p in parts if p is not None]
        modules = tuple(p.args[0] for p in parts if p.__class__ is Node)
        return _node("import", modules, parts[0], parts[-1])

    def dotted_name(self, *names):
        return _node("dotted", (".".join(n.value for n in names),), names[0], names[-1])

    def if_stmt(self, test, body, *rest):
        branches = [(test, body)]
        orelse = None
        for r in rest:
            if r is None:
                continue
            if r.kind == "elif":
                branches.append(r.args)
            else:
                orelse = r.args[0]
        return _node("if", (tuple(branches), orelse), test, body)

    def elif_clause(self, test, body):
        return _node("elif", (test, body), test, body)

    def else_clause(self, body):
        return _node("else", (body,), body, body)

    def while_stmt(self, test, body):
        return _node("while", (test, body), test, body)

    def for_stmt(self, target, iterable, body):
        return _node("for", (target.args, iterable, body), target, body)

    def for_target(self, *names):
        names = _present(names)
        kept = tuple(n.value for n in names if n.type == "NAME")
        return _node("names", kept, names[0], names[-1])

    def with_stmt(self, context, name, body):
        return _node("with", (context, name.value if name is not None else None, body), context, body)

    def funcdef(self, name, params, body):
        return _node("def", (name.value, params.args if params is not None else (), body), name, body)

    def parameters(self, *params):
        params = _present(params)
        return _node("params", tuple(params), params[0], params[-1])

    lambda_params = parameters

    def param(self, name, default):
        return _node("param", (name.value, default), name, default or name)

    def suite(self, *stmts):
        stmts = [s for s in stmts if s is not None]
        flat = []
        for s in stmts:
            if s.__class__ is Node:
                flat.append(s)
            else:  # the statements of one line (a; b), spliced in by the parser
                flat.extend(c for c in s.children if c is not None)
        return Node("block", tuple(flat), _start(flat[0]), _end(flat[-1]))

    # ----------------------------------------------------------- expressions
    def testlist(self, *items):
        comma = items[-1]
        tests = items[:-1]
        if len(tests) == 1 and comma is None:
            return tests[0]
        return _node("tuple", tuple(tests), tests[0], comma or tests[-1])

    def conditional(self, body, test, orelse):
        return _node("cond", (test, body, orelse), body, orelse)

    def lambdef(self, params, body):
        return _node("lambda", (params.args if params is not None else (), body),
                     params or body, body)

    def or_test(self, *items):
        return _node("or", items, items[0], items[-1])

    def and_test(self, *items):
        return _node("and", items, items[0], items[-1])

    def not_op(self, operand):
        return Node("not", (operand,), operand.start - 4 if operand.__class__ is Node else _start(operand) - 4,
                    _end(operand))

    def comparison(self, first, *rest):
        pairs = tuple((" ".join(rest[i].value.split()), rest[i + 1]) for i in range(0, len(rest), 2))
        return _node("compare", (first, pairs), first, rest[-1])

    def arith(self, first, *rest):
        left = first
        for i in range(0, len(rest), 2):
            right = rest[i + 1]
            left = Node("binop", (rest[i].value, left, right), _start(first), _end(right))
        return left

    term = arith

    def unary(self, op, operand):
        return Node("unary", (op.value, operand), op.start_pos, _end(operand))

    def power(self, base, op, exponent):
        return _node("binop", ("**", base, exponent), base, exponent)

    def call(self, func, arguments):
        args, kwargs = [], []
        if arguments is not None:
            for a in arguments.args:
                if a.kind == "keyword":
                    kwargs.append(a.args)
                else:
                    if kwargs:
                        raise _OrderError(a)
                    args.append(a)
        end = _end(arguments.args[-1]) + 1 if arguments is not None else _end(func) + 2
        return Node("call", (func, tuple(args), tuple(kwargs)), _start(func), end)

    def arguments(self, *items):
        items = _present(items)
        return _node("arguments", tuple(items), items[0], items[-1])

    def keyword(self, name, value):
        return _node("keyword", (name.value, value), name, value)

    def subscript(self, obj, subscripts):
        return Node("index", (obj, subscripts), _start(obj), _end(subscripts) + 1)

    def subscripts(self, *items):
        comma = items[-1]
        items = items[:-1]
        if len(items) == 1 and comma is None:
            return items[0]
        return _node("tuple", tuple(items), items[0], comma or items[-1])

    def slice(self, lo, hi, step=None):
        present = [x for x in (lo, hi, step) if x is not None]
        if present:
            return Node("slice", (lo, hi, step), _start(present[0]) - (1 if lo is None else 0), _end(present[-1]))
        return Node("slice", (None, None, None), 0, 0)

    def attribute(self, obj, name):
        return _node("attr", (obj, name.value), obj, name)

    def name(self, tok):
        return Node("name", (tok.value,), tok.start_pos, tok.end_pos)

    def number(self, tok):
        if len(tok.value) > 4300 and not any(ch in tok.value for ch in ".eE"):
            from .errors import SyntaxProblem
            raise SyntaxProblem(f"a whole number written with {len(tok.value):,} digits is too long to read (the "
                                f"limit is 4,300 digits)", tok.start_pos, hint="write it as a float (1e5000 is inf)")
        return Node("const", (_number(tok.value),), tok.start_pos, tok.end_pos)

    def string(self, tok):
        return Node("const", (unquote(tok.value),), tok.start_pos, tok.end_pos)

    def fstring(self, tok):
        return Node("fstring", (unquote(tok.value[1:]), tok.start_pos + 2), tok.start_pos, tok.end_pos)

    def constant(self, tok):
        return Node("const", (_CONSTANTS[tok.value.lower()],), tok.start_pos, tok.end_pos)

    def group(self, lpar, inner, rpar):
        # kept as a node so that (w+x)*(w+1) spans its parentheses (its operands keep their own spans)
        return Node("group", (inner,), lpar.start_pos, rpar.end_pos)

    def tuple_display(self, *items):
        items = _present(items)
        if not items:
            return Node("tuple", (), 0, 0)
        return _node("tuple", tuple(items), items[0], items[-1])

    def list_display(self, *items):
        items = _present(items)
        if not items:
            return Node("list", (), 0, 0)
        return Node("list", tuple(items), _start(items[0]) - 1, _end(items[-1]) + 1)

    def ellipsis(self):
        return Node("const", (Ellipsis,), 0, 0)


class _OrderError(Exception):
    """A positional argument after a keyword argument (reported as a syntax error)."""

    def __init__(self, node):
        super().__init__("positional argument follows keyword argument")
        self.node = node
