"""The syntax tree the parser builds, and the lark callbacks that build it.

A `Node` has a `kind` (what it is: "binop", "call", "assign", ...), its
`args`, and the character offsets `start`/`end` of the source it came from,
which every later error and every graph node points back to.
"""
from .literals import number_value, string_value, string_body, unescape

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
            if parts[0].__class__ is Node and parts[0].kind == "starred":  # a lone *x: most likely a typo
                from .errors import SyntaxProblem
                raise SyntaxProblem("'*' needs a value on its left", parts[0].start,
                                    hint="something is missing before it (*x unpacks only in a list, a tuple "
                                         "or a call's arguments)")
            return _node("expr", (parts[0],), parts[0], parts[0])
        return _node("assign", (parts[:-1], parts[-1]), parts[0], parts[-1])

    def ann_assign(self, target, annotation, value):
        """x: T = v assigns v to x (the annotation T is read past: nothing checks a type); x: T alone
        binds nothing. Only one target may be annotated, a name, x.attribute or x[key], as Python's."""
        inner = target
        while inner.__class__ is Node and inner.kind == "group":
            inner = inner.args[0]
        if inner.__class__ is not Node or inner.kind not in ("name", "attr", "index"):
            from .errors import SyntaxProblem
            what = "tuple" if inner.__class__ is Node and inner.kind in ("tuple", "list") else "expression"
            raise SyntaxProblem(f"only a single name, attribute or subscript can be annotated (not a {what})",
                                _start(target), hint="annotate one target: x: int = 1")
        # ("annotated": the statement, and the name it annotates -- a class body's fields, which
        # @dataclass reads -- or None for x.attribute and x[key])
        field = inner.args[0] if inner.kind == "name" else None
        if value is None:
            statement = Node("pass", (), _start(target), _end(annotation))
        else:
            statement = _node("assign", ((target,), value), target, value)
        return Node("annotated", (field, statement), statement.start, statement.end)

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

    def nonlocal_stmt(self, *names):
        return _node("nonlocal", tuple(n.value for n in names), names[0], names[-1])

    def raise_stmt(self, keyword, exc, cause):
        return _node("raise", (exc, cause), keyword, cause or exc or keyword)

    def del_stmt(self, targets):
        items = targets.args if targets.kind == "tuple" else (targets,)
        return _node("del", tuple(items), targets, targets)

    def import_name(self, *aliases):
        # import a.b [as c], ...: ((module, bound name or None, node of the module), ...)
        aliases = _present(aliases)
        return _node("import", tuple(a.args for a in aliases), aliases[0], aliases[-1])

    def import_as(self, dotted, name):
        return _node("alias", (dotted.args[0], name.value if name is not None else None, dotted), dotted,
                     name or dotted)

    def import_from(self, dotted, *aliases):
        # from a.b import c [as d], ...: (module, ((name, bound name or None, node of the name), ...), node)
        aliases = [a for a in aliases if a.__class__ is Node]
        return _node("importfrom", (dotted.args[0], tuple(a.args for a in aliases), dotted), dotted, aliases[-1])

    def import_alias(self, name, asname):
        node = Node("name", (name.value,), name.start_pos, name.end_pos)
        return _node("alias", (name.value, asname.value if asname is not None else None, node), name,
                     asname or name)

    def import_star(self, star):
        if star.value != "*":
            raise _Misplaced(star)
        node = Node("name", ("*",), star.start_pos, star.end_pos)
        return Node("alias", ("*", None, node), star.start_pos, star.end_pos)

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

    def while_stmt(self, test, body, orelse):
        return _node("while", (test, body, orelse.args[0] if orelse is not None else None), test, body)

    def for_stmt(self, target, iterable, body, orelse):
        return _node("for", (target, iterable, body, orelse.args[0] if orelse is not None else None), target, body)

    def for_target(self, *items):
        # names, or nested targets; a single name without a comma is that name
        comma = items[-1]
        items = [x for x in items[:-1] if x is not None]
        kept = tuple(Node("name", (x.value,), x.start_pos, x.end_pos) if x.__class__ is not Node else x
                     for x in items)
        if len(kept) == 1 and comma is None:
            return kept[0]
        return _node("tuple", kept, kept[0], comma or kept[-1])

    def with_stmt(self, *parts):
        items, body = [p for p in parts[:-1] if p is not None], parts[-1]
        return _node("with", (tuple(i.args for i in items), body), items[0], body)

    def with_item(self, context, name):
        return _node("withitem", (context, name.value if name is not None else None), context, name or context)

    def try_stmt(self, body, *rest):
        handlers = tuple(r for r in rest if r is not None and r.kind == "except")
        orelse = next((r.args[0] for r in rest if r is not None and r.kind == "else"), None)
        final = next((r.args[0] for r in rest if r is not None and r.kind == "finally"), None)
        return _node("try", (body, handlers, orelse, final), body, body)

    def try_finally(self, body, final):
        return _node("try", (body, (), None, final.args[0]), body, body)

    def except_clause(self, keyword, test, name, body):
        return _node("except", (test, name.value if name is not None else None, body), keyword, test or keyword)

    def finally_clause(self, body):
        return _node("finally", (body,), body, body)

    def decorated(self, *parts):
        decorators, func = parts[:-1], parts[-1]
        if func.kind == "class":  # @dataclass over a class
            name, bases, body, fields, _ = func.args
            return Node("class", (name, bases, body, fields, tuple(decorators)), func.start, func.end)
        name, params, body, _ = func.args
        return Node("def", (name, params, body, tuple(decorators)), func.start, func.end)

    def decorator(self, at, expression):
        return expression

    def funcdef(self, name, params, arrow, returns, body):
        # (the return annotation, -> T, is read past: nothing checks a type)
        return _node("def", (name.value, params.args if params is not None else (), body, ()), name, body)

    def classdef(self, name, arguments, body):
        bases = []
        for a in (arguments.args if arguments is not None else ()):
            if a.__class__ is Node and a.kind in ("keyword", "starred", "dstarred", "genexp_arg"):
                from .errors import SyntaxProblem
                raise SyntaxProblem("a class takes only base classes here (no keywords, *args or metaclass=)",
                                    a.start)
            bases.append(a)
        # the names its body annotates, in order (x: int = 0): a dataclass's fields
        fields = tuple(dict.fromkeys(st.args[0] for st in body.args if st.kind == "annotated" and st.args[0]))
        return _node("class", (name.value, tuple(bases), body, fields, ()), name, body)

    def parameters(self, *params):
        params = _present(params)
        return _node("params", tuple(params), params[0], params[-1])

    lambda_params = parameters

    def param(self, name, default):
        return _node("param", (name.value, default), name, default or name)

    # annotated parameters: the annotation is read past, as Python leaves it unchecked
    def typed_param(self, name, annotation, default):
        return self.param(name, default)

    def typed_star_param(self, star, name, annotation):
        return self.star_param(star, name)

    def typed_dstar_param(self, stars, name, annotation):
        return self.dstar_param(stars, name)

    def annotation(self, type_):
        return type_

    def star_param(self, star, name):
        if star.value == "/" and name is None:
            return Node("slashparam", (), star.start_pos, star.end_pos)
        if star.value != "*":
            raise _Misplaced(star)
        return _node("starparam", (name.value if name is not None else None,), star, name or star)

    def dstar_param(self, stars, name):
        if stars.value != "**":
            raise _Misplaced(stars)
        return _node("dstarparam", (name.value,), stars, name)

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

    def lambdef(self, keyword, params, body):
        return _node("lambda", (params.args if params is not None else (), body), keyword, body)

    def or_test(self, *items):
        return _node("or", items, items[0], items[-1])

    def and_test(self, *items):
        return _node("and", items, items[0], items[-1])

    def not_op(self, keyword, operand):
        return _node("not", (operand,), keyword, operand)

    def comparison(self, first, *rest):
        pairs = tuple((" ".join(rest[i].value.split()), rest[i + 1]) for i in range(0, len(rest), 2))
        return _node("compare", (first, pairs), first, rest[-1])

    def arith(self, first, *rest):
        left = first
        for i in range(0, len(rest), 2):
            right = rest[i + 1]
            left = Node("binop", (rest[i].value, left, right), _start(first), _end(right))
        return left

    term = bitor = bitand = shift = arith

    def unary(self, op, operand):
        return Node("unary", (op.value, operand), op.start_pos, _end(operand))

    def power(self, base, op, exponent):
        return _node("binop", ("**", base, exponent), base, exponent)

    def call(self, func, arguments):
        args, kwargs = [], []
        if arguments is not None:
            unpacked = False  # a **mapping was given
            for a in arguments.args:
                if a.kind == "genexp_arg":
                    if len(arguments.args) > 1:
                        from .errors import SyntaxProblem
                        raise SyntaxProblem("Generator expression must be parenthesized", a.start,
                                            hint="write f((x for x in xs), y)")
                    args.append(Node("genexp", a.args, a.start, a.end))
                elif a.kind == "keyword":
                    kwargs.append(a.args)
                elif a.kind == "dstarred":
                    unpacked = True
                    kwargs.append((None, a.args[0]))
                elif a.kind == "starred":
                    if unpacked:
                        from .errors import SyntaxProblem
                        raise SyntaxProblem("iterable argument unpacking follows keyword argument unpacking",
                                            a.start)
                    args.append(a)
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

    def star_arg(self, star, value):
        if star.value != "*":
            raise _Misplaced(star)
        return _node("starred", (value,), star, value)

    star_item = star_arg

    def star_target(self, star, name):
        return self.star_arg(star, Node("name", (name.value,), name.start_pos, name.end_pos))

    def walrus(self, name, value):
        return Node("walrus", (name.value, value), name.start_pos, _end(value))

    def dstar_arg(self, stars, value):
        if stars.value != "**":
            raise _Misplaced(stars)
        return _node("dstarred", (value,), stars, value)

    def genexp_arg(self, element, clauses):
        return _node("genexp_arg", (element, clauses.args), element, clauses)

    # ---------------------------------------------------- comprehensions
    def genexp(self, element, clauses):
        return Node("genexp", (element, clauses.args), _start(element) - 1, _end(clauses) + 1)

    def listcomp(self, element, clauses):
        return Node("listcomp", (element, clauses.args), _start(element) - 1, _end(clauses) + 1)

    def setcomp(self, element, clauses):
        return Node("setcomp", (element, clauses.args), _start(element) - 1, _end(clauses) + 1)

    def dictcomp(self, key, value, clauses):
        return Node("dictcomp", (key, value, clauses.args), _start(key) - 1, _end(clauses) + 1)

    def comp_clauses(self, *clauses):
        return _node("clauses", clauses, clauses[0], clauses[-1])

    def comp_for(self, target, iterable):
        return _node("compfor", (target, iterable), target, iterable)

    def comp_if(self, test):
        return _node("compif", (test,), test, test)

    def dict_display(self, *items):
        items = _present(items)
        return Node("dict", tuple(i.args for i in items), _start(items[0]) - 1, _end(items[-1]) + 1)

    def dict_item(self, key, value):
        return _node("item", (key, value), key, value)

    def dict_unpack(self, stars, value):
        if stars.value != "**":
            raise _Misplaced(stars)
        return _node("item", (None, value), stars, value)

    def set_display(self, *items):
        items = _present(items)
        return Node("set", tuple(items), _start(items[0]) - 1, _end(items[-1]) + 1)

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
        return Node("const", (number_value(tok.value, tok.start_pos),), tok.start_pos, tok.end_pos)

    def string(self, tok):
        return Node("const", (string_value(tok.value, tok.start_pos),), tok.start_pos, tok.end_pos)

    def fstring(self, tok):
        prefix, body = string_body(tok.value)
        start = tok.start_pos + len(prefix) + 1
        return Node("fstring", (body if "r" in prefix else unescape(body, start), start), tok.start_pos, tok.end_pos)

    def constant(self, tok):
        return Node("const", (_CONSTANTS[tok.value.lower()],), tok.start_pos, tok.end_pos)

    def group(self, lpar, inner, rpar):
        # kept as a node so that (w+x)*(w+1) spans its parentheses (its operands keep their own spans)
        return Node("group", (inner,), lpar.start_pos, rpar.end_pos)

    def tuple_display(self, *items):
        items = _present(items)
        return _node("tuple", tuple(items), items[0], items[-1])

    def list_display(self, *items):
        items = _present(items)
        return Node("list", tuple(items), _start(items[0]) - 1, _end(items[-1]) + 1)

    def empty_tuple(self, opening, closing):
        return _node("tuple", (), opening, closing)

    def empty_list(self, opening, closing):
        return _node("list", (), opening, closing)

    def empty_dict(self, opening, closing):
        return _node("dict", (), opening, closing)

    def ellipsis(self):
        return Node("const", (Ellipsis,), 0, 0)


class _Misplaced(Exception):
    """An operator token where the grammar takes it only as a marker (`*args`,
    `**kw`, `@decorator`) but spelled otherwise (`/x`, `^kw`): reported as the
    parser's own "unexpected" error."""

    def __init__(self, tok):
        super().__init__(f"unexpected {tok.value!r}")
        self.tok = tok


class _OrderError(Exception):
    """A positional argument after a keyword argument (reported as a syntax error)."""

    def __init__(self, node):
        super().__init__("positional argument follows keyword argument")
        self.node = node
