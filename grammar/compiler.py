"""Syntax tree to a flat list of instructions for the interpreter (`vm.py`).

The walk uses an explicit work stack, never recursion, so an expression
nested ten thousand deep compiles like a short one. Every instruction keeps
the syntax node it came from: runtime errors and graph nodes point at it.

An instruction is `(opcode, argument, node)`. The stack machine they drive:
operands are pushed, operators pop them and push their result; jumps carry
the index they go to.
"""
from .budget import check_memory
from .errors import SyntaxProblem
from .syntax import Node

__all__ = ["Code", "compile_program", "OPCODES"]

# The opcodes, numbered (the interpreter dispatches on these integers).
OPCODES = ["CONST", "LOAD", "STORE", "POP", "DUP", "ROT2", "BINARY", "INPLACE", "UNARY", "NOT", "COMPARE",
           "ATTR", "STORE_ATTR", "INDEX", "STORE_INDEX", "SLICE", "TUPLE", "LIST", "FORMAT", "FSTRING",
           "UNPACK", "CALL", "MAKE_FUNCTION", "RETURN", "JUMP", "JUMP_IF_FALSE", "JUMP_IF_FALSE_KEEP",
           "JUMP_IF_TRUE_KEEP", "GET_ITER", "FOR_ITER", "WITH_ENTER", "WITH_EXIT", "ASSERT", "IMPORT",
           "KEEP",
           # names by scope (Python's rules, decided here): a function's own, an enclosing function's, global
           "LOAD_FAST", "STORE_FAST", "LOAD_DEREF", "STORE_DEREF", "STORE_GLOBAL", "DELETE", "DELETE_INDEX",
           # dicts, sets, comprehensions
           "BUILD_MAP", "MAP_UPDATE", "BUILD_SET", "LIST_APPEND", "SET_ADD", "MAP_ADD", "COMPREHENSION",
           # calls with *args / **kwargs
           "ARGS_EXTEND", "KW_SET", "KW_MERGE", "CALL_EX",
           # try / except / finally / raise
           "SETUP_TRY", "SETUP_FINALLY", "POP_BLOCK", "EXC_MATCH", "BEGIN_HANDLER", "END_HANDLER", "RAISE",
           "RERAISE", "END_FINALLY", "JUMP_UNWIND",
           # imports
           "IMPORT_FROM", "IMPORT_STAR", "BEGIN_FINALLY",
           # *iterables in a tuple or list display, and a starred target (first, *rest = ...)
           "LIST_TO_TUPLE", "UNPACK_EX",
           # classes: make one from its bases and its body's names; super() in a method
           "BUILD_CLASS", "SUPER",
           # del obj.name
           "DELETE_ATTR"]
(CONST, LOAD, STORE, POP, DUP, ROT2, BINARY, INPLACE, UNARY, NOT, COMPARE, ATTR, STORE_ATTR, INDEX,
 STORE_INDEX, SLICE, TUPLE, LIST, FORMAT, FSTRING, UNPACK, CALL, MAKE_FUNCTION, RETURN, JUMP,
 JUMP_IF_FALSE, JUMP_IF_FALSE_KEEP, JUMP_IF_TRUE_KEEP, GET_ITER, FOR_ITER, WITH_ENTER, WITH_EXIT, ASSERT,
 IMPORT, KEEP,
 LOAD_FAST, STORE_FAST, LOAD_DEREF, STORE_DEREF, STORE_GLOBAL, DELETE, DELETE_INDEX,
 BUILD_MAP, MAP_UPDATE, BUILD_SET, LIST_APPEND, SET_ADD, MAP_ADD, COMPREHENSION,
 ARGS_EXTEND, KW_SET, KW_MERGE, CALL_EX,
 SETUP_TRY, SETUP_FINALLY, POP_BLOCK, EXC_MATCH, BEGIN_HANDLER, END_HANDLER, RAISE, RERAISE, END_FINALLY,
 JUMP_UNWIND, IMPORT_FROM, IMPORT_STAR, BEGIN_FINALLY, LIST_TO_TUPLE, UNPACK_EX, BUILD_CLASS,
 SUPER, DELETE_ATTR) = range(len(OPCODES))

COMPREHENSION_ARG = ".0"  # the iterator a comprehension's code is called with (no program can name it)


class Code:
    """A compiled body: the instructions of a program, a function, a lambda or a comprehension.

    Parameters as Python has them: `params` the positional ones (the first
    `posonly` of them positional-only), `varargs` the *name, `kwonly` the
    keyword-only names, `varkw` the **name (None where absent)."""

    __slots__ = ("instructions", "name", "params", "defaults", "globals_declared", "source", "posonly",
                 "varargs", "kwonly", "varkw", "comprehension", "qualname", "class_body", "dispatch", "heat")

    def __init__(self, instructions, name, params=(), defaults=(), globals_declared=(), source=None):
        self.instructions = instructions
        self.dispatch = instructions  # what the interpreter runs: the instructions, once hot with runs (vm_runs.py)
        self.heat = 0                 # loop turns and calls so far, until it is hot
        self.name = name
        self.params = params
        self.defaults = defaults      # syntax nodes of default values (evaluated at definition)
        self.globals_declared = frozenset(globals_declared)
        self.source = source
        self.posonly = 0
        self.varargs = None
        self.kwonly = ()
        self.varkw = None
        self.comprehension = False
        self.class_body = False       # a class statement's body: it returns its names (the class's dict)
        self.qualname = name          # Python's: outer.<locals>.inner, <listcomp>.<lambda>


def _qualname(parent, name):
    """Python's __qualname__ of `name` defined in the body of code `parent`."""
    if parent.name == "<program>":
        return name
    if parent.comprehension:
        return f"{parent.qualname}.{name}"
    return f"{parent.qualname}.<locals>.{name}"


class _Label:
    __slots__ = ("index",)

    def __init__(self):
        self.index = None


class _Loop:
    """Where `break` and `continue` go, and how many blocks (try, with, handler) were open at the loop."""

    __slots__ = ("head", "end", "blocks")

    def __init__(self, head, end, blocks):
        self.head = head
        self.end = end
        self.blocks = blocks


class _FunctionState:
    __slots__ = ("loops", "blocks", "in_function", "scope")

    def __init__(self, in_function, scope):
        self.loops = []
        self.blocks = 0   # try/with/handler blocks open at this point of the body
        self.in_function = in_function
        self.scope = scope


# ----------------------------------------------------------------- scopes

class Scope:
    """Which names a body binds, as Python decides it before running: a
    function's parameters and every name it assigns (=, for, with ... as,
    except ... as, def, import, del) are its locals, unless declared `global`
    or `nonlocal`; any other name is looked up in the enclosing functions,
    then in the globals and builtins. A comprehension is a function scope of
    its own (Python 3: its loop variables do not leak)."""

    __slots__ = ("kind", "parent", "bound", "globals", "nonlocals", "params", "uses", "declared_at")

    def __init__(self, kind, parent):
        self.kind = kind          # "module", "function" or "class" (a class statement's body)
        self.parent = parent
        self.bound = set()
        self.globals = set()
        self.nonlocals = set()
        self.params = set()
        self.uses = set()
        self.declared_at = {}  # nonlocal name -> its statement

    def is_local(self, name):
        return self.kind != "module" and name in self.bound and name not in self.globals \
            and name not in self.nonlocals

    def resolve(self, name):
        """("fast", 0) own local, ("deref", d) a local of the function d levels out, ("global", 0)."""
        if self.kind == "module" or name in self.globals:
            return "global", 0
        if self.is_local(name):
            return "fast", 0
        depth = 1
        scope = self.parent
        while scope is not None and scope.kind != "module":
            if scope.kind == "class":  # a class body's names are not seen from inside its methods
                scope = scope.parent
                continue
            if scope.is_local(name):
                return "deref", depth
            if name in scope.globals:
                return "global", 0
            scope = scope.parent
            depth += 1
        return "global", 0


def _target_names(target, out):
    """The names an assignment target binds (x, (a, b), [c, d]; not x.attr or x[i])."""
    stack = [target]
    while stack:
        t = stack.pop()
        while t.kind == "group":
            t = t.args[0]
        if t.kind == "name":
            out.append((t.args[0], t))
        elif t.kind in ("tuple", "list"):
            stack.extend(reversed(t.args))
        elif t.kind == "starred":  # first, *rest = ...: rest is bound too
            stack.append(t.args[0])
    return out


def _target_uses(target):
    """The expressions an assignment target reads (x in x.a = 1, d and k in d[k] = 1)."""
    out = []
    stack = [target]
    while stack:
        t = stack.pop()
        while t.kind == "group":
            t = t.args[0]
        if t.kind in ("tuple", "list"):
            stack.extend(t.args)
        elif t.kind == "starred":
            stack.append(t.args[0])
        elif t.kind != "name":
            out.append(t)
    return out


_EXPRESSION_SCOPES = ("lambda", "listcomp", "genexp", "setcomp", "dictcomp")


def _expression_uses(expr, scope):
    """Record the names an expression reads in `scope` (not inside lambdas'
    and comprehensions' own scopes, except what they evaluate outside)."""
    stack = [expr]
    while stack:
        n = stack.pop()
        if n is None or n.__class__ is not Node:
            continue
        k = n.kind
        if k == "name":
            scope.uses.add(n.args[0])
        elif k == "walrus":
            scope.bound.add(n.args[0])
            stack.append(n.args[1])
        elif k == "lambda":
            stack.extend(p.args[1] for p in n.args[0] if p.kind == "param")
        elif k in _EXPRESSION_SCOPES:  # a comprehension (lambdas are handled above)
            stack.append(n.args[-1][0].args[1])  # the first iterable
            _comprehension_walruses(n, scope)  # PEP 572: its := bind in the scope around it
        elif k == "fstring":
            continue
        else:
            stack.extend(_child_nodes(n))


def _child_nodes(n):
    """The syntax nodes among n's arguments, also inside tuples of them (two levels deep)."""
    for a in n.args:
        if a.__class__ is Node:
            yield a
        elif isinstance(a, tuple):
            for x in a:
                if x.__class__ is Node:
                    yield x
                elif isinstance(x, tuple):
                    yield from (y for y in x if y.__class__ is Node)


def _comprehension_walruses(comprehension, scope):
    """Bind in `scope` the names that := assigns inside a comprehension (nested ones too; not
    inside lambdas, which are scopes of their own)."""
    stack = [comprehension]
    while stack:
        n = stack.pop()
        if n.kind == "walrus":
            scope.bound.add(n.args[0])
        if n.kind != "lambda":
            stack.extend(_child_nodes(n))


def analyze(scope, statements, params=()):
    """Fill `scope` from a body's statements (nested function bodies are
    their own scopes, analyzed when they are compiled). SyntaxProblem where
    Python refuses a global or nonlocal declaration."""
    for p in params:
        scope.params.add(p)
        scope.bound.add(p)
    work = list(reversed(statements))
    while work:
        node = work.pop()
        k = node.kind
        a = node.args
        if k == "block":
            work.extend(reversed(a))
            continue
        if k == "global" or k == "nonlocal":
            _declare(scope, node, k)
            continue
        reads = _NAMES_OF.get(k)
        bound, uses, children = reads(scope, node, a) if reads is not None else ([], [], [])
        for u in uses:
            if u is not None:
                _expression_uses(u, scope)
        for name, where in bound:
            scope.bound.add(name)
        for c in reversed(children):
            if c is not None:
                work.append(c)
    if scope.kind == "function":
        for name in scope.nonlocals:
            if scope.parent is None or scope.parent.kind != "function" or \
                    scope.resolve(name)[0] != "deref":
                raise SyntaxProblem(f"no binding for nonlocal '{name}' found", scope.declared_at[name].start)
    return scope


# ---- what each kind of statement binds, uses and holds: (bound [(name, where)], used expressions,
# child blocks), for analyze()

def _names_of_expr(scope, node, a):
    return [], [a[0]], []


def _names_of_assign(scope, node, a):
    bound, uses = [], []
    for t in a[0]:
        _target_names(t, bound)
        uses += _target_uses(t)
    return bound, uses + [a[1]], []


def _names_of_augassign(scope, node, a):
    bound = []
    _target_names(a[0], bound)
    return bound, _target_uses(a[0]) + [a[2]], []


def _names_of_for(scope, node, a):
    bound = []
    _target_names(a[0], bound)
    return bound, _target_uses(a[0]) + [a[1]], [a[2], a[3]]


def _names_of_while(scope, node, a):
    return [], [a[0]], [a[1], a[2]]


def _names_of_if(scope, node, a):
    return [], [test for test, _ in a[0]], [body for _, body in a[0]] + [a[1]]


def _names_of_with(scope, node, a):
    return [(name, node) for _, name in a[0] if name is not None], [context for context, _ in a[0]], [a[1]]


def _names_of_try(scope, node, a):
    body, handlers, orelse, final = a
    bound = [(h.args[1], h) for h in handlers if h.args[1] is not None]
    return bound, [h.args[0] for h in handlers], [body] + [h.args[2] for h in handlers] + [orelse, final]


def _names_of_def(scope, node, a):
    name, params, body, decorators = a
    return [(name, node)], list(decorators) + [p.args[1] for p in params if p.kind == "param"], []


def _names_of_class(scope, node, a):
    return [(a[0], node)], list(a[1]) + list(a[4]), []


def _names_of_annotated(scope, node, a):
    """An annotated statement binds and uses what the statement under it does."""
    inner = a[1]
    reads = _NAMES_OF.get(inner.kind)
    return reads(scope, inner, inner.args) if reads is not None else ([], [], [])


def _names_of_import(scope, node, a):
    return [(asname or module.split(".")[0], where) for module, asname, where in a], [], []


def _names_of_importfrom(scope, node, a):
    bound = []
    for name, asname, where in a[1]:
        if name == "*":
            if scope.kind == "function":
                raise SyntaxProblem("import * only allowed at module level", where.start)
            continue
        bound.append((asname or name, where))
    return bound, [], []


def _names_of_del(scope, node, a):
    bound, uses = [], []
    for t in a:
        _target_names(t, bound)
        uses += _target_uses(t)
    return bound, uses, []


def _names_used(scope, node, a):
    return [], list(a), []  # return, assert, raise: only what they use


_NAMES_OF = {"expr": _names_of_expr, "assign": _names_of_assign, "augassign": _names_of_augassign,
             "for": _names_of_for, "while": _names_of_while, "if": _names_of_if, "with": _names_of_with,
             "try": _names_of_try, "def": _names_of_def, "class": _names_of_class, "import": _names_of_import,
             "importfrom": _names_of_importfrom, "del": _names_of_del, "return": _names_used,
             "assert": _names_used, "raise": _names_used, "annotated": _names_of_annotated}


def _declare(scope, node, k):
    for name in node.args:
        if k == "nonlocal" and scope.kind == "module":
            raise SyntaxProblem("nonlocal declaration not allowed at module level", node.start)
        if name in scope.params and scope.kind == "function":
            raise SyntaxProblem(f"name '{name}' is parameter and {k}", node.start)
        if name in scope.uses:
            raise SyntaxProblem(f"name '{name}' is used prior to {k} declaration", node.start)
        if name in scope.bound:
            raise SyntaxProblem(f"name '{name}' is assigned to before {k} declaration", node.start)
        if k == "global" and name in scope.nonlocals or k == "nonlocal" and name in scope.globals:
            raise SyntaxProblem(f"name '{name}' is nonlocal and global", node.start)
        (scope.globals if k == "global" else scope.nonlocals).add(name)
        if k == "nonlocal":
            scope.declared_at[name] = node


def compile_program(program, source=None, keep_last=False):
    """Compile a "program" node. With `keep_last`, the value of a final
    expression statement is kept as the result (eval's `f`)."""
    compiler = _Compiler(source)
    code = Code([], "<program>", source=source)
    scope = Scope("module", None)
    compiler.compile_into(code, program.args, keep_last=keep_last, scope=scope)
    # function, lambda and comprehension bodies met on the way are compiled
    # after their definer, one after another: nesting them deeply never recurses
    while compiler.pending:
        body, statements, scope = compiler.pending.pop()
        compiler.compile_into(body, statements, in_function=True, scope=scope)
    return code


class _Compiler:
    def __init__(self, source):
        self.source = source
        self.pending = []  # (Code to fill, body statements, its Scope) of bodies met in what was compiled

    def compile_into(self, code, statements, keep_last=False, in_function=False, scope=None):
        """Fill `code` with the instructions of `statements`."""
        out = []
        if scope is None:
            scope = Scope("function" if in_function else "module", None)
        if code.comprehension:
            analyze(scope, [], (COMPREHENSION_ARG,))
            for clause in statements[0].args[-1]:
                if clause.kind == "compfor":
                    for name, _ in _target_names(clause.args[0], []):
                        scope.bound.add(name)
        else:
            params = list(code.params) + list(code.kwonly) + [n for n in (code.varargs, code.varkw) if n]
            analyze(scope, statements, params)
        state = _FunctionState(in_function, scope)
        self.code = code
        work = []  # items: ("node", node, context) | ("emit", instr) | ("label", label) | ("call", fn)
        stmts = list(statements)
        if code.comprehension:
            work.append(("call", self._comprehension_body(stmts[0]), None))
        else:
            if keep_last and stmts and stmts[-1].kind == "expr":
                last = stmts.pop()
                work.append(("emit", (KEEP, None, last.args[0]), None))
                work.append(("node", last.args[0], None))
            for stmt in reversed(stmts):
                work.append(("stmt", stmt, None))
        self.state = state
        self._run(work, out, state)
        instructions = []
        # resolve labels to indices
        for item in out:
            if item.__class__ is _Label:
                item.index = len(instructions)
            else:
                instructions.append(item)

        def resolved(arg):
            if arg.__class__ is _Label:
                return arg.index
            if arg.__class__ is tuple and arg and arg[0].__class__ is _Label:
                return (arg[0].index,) + arg[1:]
            return arg
        code.instructions = code.dispatch = [(op, resolved(arg), node) for op, arg, node in instructions]
        code.globals_declared = frozenset(scope.globals)

    def _run(self, work, out, state):
        """Drain the work stack: expand statements and expressions into instructions."""
        count = 0
        while work:
            kind, item, ctx = work.pop()
            count += 1
            if not count & 0xFFFF:  # a long program: within the memory budget? (budget.check_memory)
                check_memory()
            if kind == "emit":
                out.append(item)
            elif kind == "label":
                out.append(item)
            elif kind == "node":
                self._expression(item, work)
            elif kind == "stmt":
                self._statement(item, work, state)
            elif kind == "call":
                item(work, state)

    # ----------------------------------------------------------------- names
    def _load(self, name, node):
        kind, depth = self.state.scope.resolve(name)
        if kind == "fast":
            return ("emit", (LOAD_FAST, name, node), None)
        if kind == "deref":
            return ("emit", (LOAD_DEREF, (name, depth), node), None)
        return ("emit", (LOAD, name, node), None)

    def _store_name(self, name, node):
        scope = self.state.scope
        kind, depth = scope.resolve(name)
        if kind == "fast":
            return ("emit", (STORE_FAST, name, node), None)
        if kind == "deref":
            return ("emit", (STORE_DEREF, (name, depth), node), None)
        if scope.kind == "function":
            return ("emit", (STORE_GLOBAL, name, node), None)
        return ("emit", (STORE, name, node), None)

    def _delete_name(self, name, node):
        kind, depth = self.state.scope.resolve(name)
        return ("emit", (DELETE, (kind, name, depth), node), None)

    # ----------------------------------------------------------- expressions
    def _expression(self, node, work):
        """Push, in reverse, the work that evaluates `node` onto the stack."""
        k = node.kind
        a = node.args
        if k == "group":
            seq = [("node", a[0], None)]
        elif k == "const":
            seq = [("emit", (CONST, a[0], node), None)]
        elif k == "name":
            seq = [self._load(a[0], node)]
        elif k == "binop":
            seq = [("node", a[1], None), ("node", a[2], None), ("emit", (BINARY, a[0], node), None)]
        elif k == "unary":
            seq = [("node", a[1], None), ("emit", (UNARY, a[0], node), None)]
        elif k == "walrus":  # (name := value): the value, also stored
            seq = [("node", a[1], None), ("emit", (DUP, None, node), None), self._store_name(a[0], node)]
        elif k == "not":
            seq = [("node", a[0], None), ("emit", (NOT, None, node), None)]
        elif k == "call":
            seq = self._call(node)
        elif k == "attr":
            seq = [("node", a[0], None), ("emit", (ATTR, a[1], node), None)]
        elif k == "index":
            seq = [("node", a[0], None), ("node", a[1], None), ("emit", (INDEX, None, node), None)]
        elif k == "fstring":
            seq = [("call", self._fstring_emitter(node), None)]
        else:
            compound = self._COMPOUND.get(k)
            if compound is None:
                if k == "starred":
                    raise SyntaxProblem("can't use starred expression here", node.start)
                raise SyntaxProblem(f"'{k}' can't be used as a value here", node.start)
            seq = compound(self, node)
        work.extend(reversed(seq))

    def _and_or(self, node):
        """a and b, a or b: each operand in turn, jumping to the end with the one that decides."""
        end = _Label()
        jump = JUMP_IF_FALSE_KEEP if node.kind == "and" else JUMP_IF_TRUE_KEEP
        seq = []
        for i, operand in enumerate(node.args):
            seq.append(("node", operand, None))
            if i < len(node.args) - 1:
                seq.append(("emit", (jump, end, node), None))
        return seq + [("label", end, None)]

    def _compare(self, node):
        first, pairs = node.args
        return [("node", first, None)] + [("node", operand, None) for _, operand in pairs] + \
            [("emit", (COMPARE, tuple(op for op, _ in pairs), node), None)]

    def _conditional(self, node):
        test, body, orelse = node.args
        other, end = _Label(), _Label()
        return [("node", test, None), ("emit", (JUMP_IF_FALSE, other, node), None), ("node", body, None),
                ("emit", (JUMP, end, node), None), ("label", other, None), ("node", orelse, None),
                ("label", end, None)]

    def _sequence_display(self, node):
        """(a, b) and [a, b]; with a *starred item, a list built item by item, each *iterable extending it."""
        k, a = node.kind, node.args
        if any(item.kind == "starred" for item in a):
            seq = [("emit", (LIST, 0, node), None)] + _gathered(a, LIST_APPEND, "display")
            return seq + [("emit", (LIST_TO_TUPLE, None, node), None)] if k == "tuple" else seq
        return [("node", item, None) for item in a] + [("emit", (TUPLE if k == "tuple" else LIST, len(a), node), None)]

    def _dict_display(self, node):
        seq = [("emit", (BUILD_MAP, 0, node), None)]
        for key, value in node.args:
            if key is None:
                seq += [("node", value, None), ("emit", (MAP_UPDATE, None, value), None)]
            else:
                seq += [("node", key, None), ("node", value, None), ("emit", (MAP_ADD, 0, node), None)]
        return seq

    def _set_display(self, node):
        return [("emit", (BUILD_SET, 0, node), None)] + _gathered(node.args, SET_ADD, "display")

    def _comprehension(self, node):
        """A comprehension is a function of its first iterable, compiled later (self.pending)."""
        k = node.kind
        first = node.args[-1][0]
        code = Code([], "<genexpr>" if k == "genexp" else f"<{k}>", source=self.source)
        code.qualname = _qualname(self.code, code.name)
        code.params = (COMPREHENSION_ARG,)
        code.comprehension = True
        self.pending.append((code, [node], Scope("function", self.state.scope)))
        return [("node", first.args[1], None), ("emit", (GET_ITER, None, first.args[1]), None),
                ("emit", (COMPREHENSION, (code, k), node), None)]

    def _slice(self, node):
        seq = [("node", part, None) if part is not None else ("emit", (CONST, None, node), None) for part in node.args]
        return seq + [("emit", (SLICE, None, node), None)]

    def _lambda(self, node):
        params, body = node.args
        ret = type(body)("return", (body,), body.start, body.end)
        return [("call", self._function_emitter(node, "<lambda>", params, (ret,)), None)]

    _COMPOUND = {"and": _and_or, "or": _and_or, "compare": _compare, "cond": _conditional,
                 "tuple": _sequence_display, "list": _sequence_display, "dict": _dict_display, "set": _set_display,
                 "listcomp": _comprehension, "genexp": _comprehension, "setcomp": _comprehension,
                 "dictcomp": _comprehension, "slice": _slice, "lambda": _lambda}

    def _call(self, node):
        func, args, kwargs = node.args
        seq = []
        scope = self.state.scope
        if func.kind == "name" and func.args[0] == "super" and not args and not kwargs and scope.kind == "function" \
                and scope.parent is not None and scope.parent.kind == "class" and self.code.params:
            # super() in a method: its class (known when the class is made) and its first argument
            return [self._load(self.code.params[0], node), ("emit", (SUPER, None, node), None)]
        if func.kind == "name" and func.args[0] == "super" and len(args) == 2 and not kwargs \
                and all(arg.kind != "starred" for arg in args):
            # super(Class, obj): Python 2's spelling, still in many tutorials
            return [("node", args[0], None), ("node", args[1], None), ("emit", (SUPER, "explicit", node), None)]
        if func.kind == "name":  # a called name: an unknown one is reported as an unknown function
            seq.append(self._load(func.args[0], node))
        else:
            seq.append(("node", func, None))
        seen = set()
        for name, value in kwargs:
            if name is None:
                continue
            if name in seen:
                raise SyntaxProblem(f"keyword argument repeated: {name}", value.start,
                                    hint=f"give {name}= once")
            seen.add(name)
        if all(arg.kind != "starred" for arg in args) and all(name is not None for name, _ in kwargs):
            for arg in args:
                seq.append(("node", arg, None))
            for name, value in kwargs:
                seq.append(("node", value, None))
            seq.append(("emit", (CALL, (len(args), tuple(name for name, _ in kwargs)), node), None))
            return seq
        # with *iterables or **mappings: a list of the positional arguments and a dict of the keywords
        seq.append(("emit", (LIST, 0, node), None))
        seq += _gathered(args, LIST_APPEND, None)
        seq.append(("emit", (BUILD_MAP, 0, node), None))
        for name, value in kwargs:
            seq.append(("node", value, None))
            seq.append(("emit", (KW_SET, name, value) if name is not None else (KW_MERGE, None, value), None))
        seq.append(("emit", (CALL_EX, None, node), None))
        return seq

    def _fstring_emitter(self, node):
        text, offset = node.args
        pieces = _split_fstring(text, offset)

        def emit(work, state):
            from .parser import parse_expression
            seq = []

            def field(expr_text, start):
                try:
                    expr = parse_expression(expr_text)
                except SyntaxProblem as e:
                    raise SyntaxProblem(f"in an f-string field: {e.message}", start + (e.start or 0),
                                        hint=e.hint) from None
                _shift(expr, start)
                return expr
            for piece in pieces:
                if isinstance(piece, str):
                    seq.append(("emit", (CONST, piece, node), None))
                else:
                    expr_text, conversion, spec, start = piece
                    seq.append(("node", field(expr_text, start), None))
                    if isinstance(spec, list):  # a spec with {fields} of its own: built at run time
                        for part in spec:
                            if isinstance(part, str):
                                seq.append(("emit", (CONST, part, node), None))
                            else:
                                seq.append(("node", field(part[0], part[3]), None))
                                seq.append(("emit", (FORMAT, (part[1], part[2]), node), None))
                        seq.append(("emit", (FSTRING, len(spec), node), None))
                        seq.append(("emit", (FORMAT, (conversion, None), node), None))
                    else:
                        seq.append(("emit", (FORMAT, (conversion, spec), node), None))
            seq.append(("emit", (FSTRING, len(pieces), node), None))
            work.extend(reversed(seq))
        return emit

    def _function_emitter(self, node, name, params, body_statements, decorators=()):
        def emit(work, state):
            positional, kwonly = [], []
            varargs = varkw = None
            posonly = 0
            star_seen = False
            seen_default = False
            names = []
            for p in params:
                if p.kind == "param":
                    names.append(p.args[0])
                    if star_seen:
                        kwonly.append(p)
                        continue
                    positional.append(p)
                    if p.args[1] is not None:
                        seen_default = True
                    elif seen_default:
                        raise SyntaxProblem("non-default argument follows default argument", p.start)
                elif p.kind == "slashparam":
                    if star_seen or posonly or not positional:
                        raise SyntaxProblem("invalid syntax: '/' must come after the parameters it makes "
                                            "positional-only", p.start)
                    posonly = len(positional)
                elif p.kind == "starparam":
                    if star_seen:
                        raise SyntaxProblem("* argument may appear only once", p.start)
                    star_seen = True
                    varargs = p.args[0]
                    if varargs is not None:
                        names.append(varargs)
                else:  # **kwargs: the last parameter
                    if p is not params[-1]:
                        raise SyntaxProblem("arguments cannot follow var-keyword argument", p.start)
                    varkw = p.args[0]
                    names.append(varkw)
            if star_seen and varargs is None and not kwonly:
                raise SyntaxProblem("named arguments must follow bare *", node.start)
            if len(set(names)) != len(names):
                dup = next(n for n in names if names.count(n) > 1)
                raise SyntaxProblem(f"duplicate argument '{dup}' in function definition", node.start)
            code = Code([], name, tuple(p.args[0] for p in positional), (), (), self.source)
            code.qualname = _qualname(self.code, name)
            code.posonly = posonly
            code.varargs = varargs
            code.kwonly = tuple(p.args[0] for p in kwonly)
            code.varkw = varkw
            # filled once its definer is compiled, in a scope inside the definer's
            self.pending.append((code, body_statements, Scope("function", state.scope)))
            seq = [("node", d, None) for d in decorators]
            seq += [("node", p.args[1], None) for p in positional if p.args[1] is not None]
            kwdefaults = tuple(p.args[0] for p in kwonly if p.args[1] is not None)
            seq += [("node", p.args[1], None) for p in kwonly if p.args[1] is not None]
            ndefaults = sum(p.args[1] is not None for p in positional)
            seq.append(("emit", (MAKE_FUNCTION, (code, ndefaults, kwdefaults), node), None))
            for d in reversed(decorators):
                seq.append(("emit", (CALL, (1, ()), d), None))
            work.extend(reversed(seq))
        return emit

    def _class_emitter(self, node, name, body):
        def emit(work, state):
            code = Code([], name, (), (), (), self.source)
            code.qualname = _qualname(self.code, name)
            code.class_body = True
            self.pending.append((code, body.args, Scope("class", state.scope)))
            work.append(("emit", (MAKE_FUNCTION, (code, 0, ()), node), None))
        return emit

    def _comprehension_body(self, node):
        """The code of a comprehension (called with the first iterator as `.0`):
        the result, then one loop per `for`, filters, the element added.

        A generator expression runs the same way, at once, into a list; the
        value it gives is an iterator over that list (used once, as a
        generator is). That prints what Python prints wherever the
        generator is consumed whole where it is made -- sum(...), any(...),
        list(...), torch.stack([...]), for loops -- but not where its
        elements' side effects interleave with the consumer's (print in
        both) or where the consumer stops early (any() evaluates every
        element here)."""
        def emit(work, state):
            k = node.kind
            a = node.args
            clauses = a[-1]
            seq = [("emit", ({"listcomp": LIST, "genexp": LIST, "setcomp": BUILD_SET, "dictcomp": BUILD_MAP}[k],
                              0, node), None)]
            ends = []
            innermost = None
            nfor = 0
            for i, clause in enumerate(clauses):
                if clause.kind == "compfor":
                    target, iterable = clause.args
                    head, end = _Label(), _Label()
                    if i == 0:
                        seq.append(("emit", (LOAD_FAST, COMPREHENSION_ARG, iterable), None))
                    else:
                        seq += [("node", iterable, None), ("emit", (GET_ITER, None, iterable), None)]
                    seq += [("label", head, None), ("emit", (FOR_ITER, end, iterable), None)]
                    seq += self._store(target)
                    ends.append((head, end, clause))
                    innermost = head
                    nfor += 1
                else:
                    seq += [("node", clause.args[0], None), ("emit", (JUMP_IF_FALSE, innermost, clause), None)]
            if k == "dictcomp":
                seq += [("node", a[0], None), ("node", a[1], None), ("emit", (MAP_ADD, nfor, node), None)]
            else:
                seq += [("node", a[0], None),
                        ("emit", (SET_ADD if k == "setcomp" else LIST_APPEND, nfor, node), None)]
            for head, end, clause in reversed(ends):
                seq += [("emit", (JUMP, head, clause), None), ("label", end, None)]
            seq.append(("emit", (RETURN, k, node), None))
            work.extend(reversed(seq))
        return emit

    # ------------------------------------------------------------ statements
    def _block(self, body):
        return [("stmt", s, None) for s in body.args] if body is not None else []

    def _statement(self, node, work, state):
        handler = self._STATEMENTS.get(node.kind)
        if handler is None:
            raise SyntaxProblem(f"unsupported statement '{node.kind}'", node.start)
        work.extend(reversed(handler(self, node, state)))

    def _expression_statement(self, node, state):
        return [("node", node.args[0], None), ("emit", (POP, None, node.args[0]), None)]

    def _assign(self, node, state):
        targets, value = node.args
        seq = [("node", value, None)]
        for i, target in enumerate(targets):
            if i < len(targets) - 1:
                seq.append(("emit", (DUP, None, target), None))
            seq += self._store(target)
        return seq

    def _augassign(self, node, state):
        target, op, value = node.args
        return self._augmented(target, op, value, node)

    def _assert(self, node, state):
        test, message = node.args
        seq = [("node", test, None)]
        if message is not None:
            seq.append(("node", message, None))
        seq.append(("emit", (ASSERT, message is not None, node), None))
        return seq

    def _nothing(self, node, state):
        return []  # pass, global, nonlocal (names are resolved when they are used)

    def _import(self, node, state):
        seq = []
        for module, asname, where in node.args:
            seq.append(("emit", (IMPORT, (module, asname is not None), where), None))
            seq.append(self._store_name(asname or module.split(".")[0], where))
        return seq

    def _import_from(self, node, state):
        module, aliases, where = node.args
        seq = [("emit", (IMPORT, (module, True), where), None)]
        for name, asname, name_node in aliases:
            if name == "*":
                seq.append(("emit", (IMPORT_STAR, module, name_node), None))
                break
            seq += [("emit", (IMPORT_FROM, (module, name), name_node), None),
                    self._store_name(asname or name, name_node)]
        else:
            seq.append(("emit", (POP, None, where), None))
        return seq

    def _del(self, node, state):
        seq = []
        for target in node.args:
            seq += self._delete(target)
        return seq

    def _return(self, node, state):
        if not state.in_function:
            raise SyntaxProblem("'return' outside a function", node.start)
        value = node.args[0]
        return [("emit", (CONST, None, node), None) if value is None else ("node", value, None),
                ("emit", (RETURN, None, node), None)]

    def _raise(self, node, state):
        exc, cause = node.args
        if exc is None:
            return [("emit", (RERAISE, None, node), None)]
        seq = [("node", exc, None)]
        if cause is not None:
            seq.append(("node", cause, None))
        seq.append(("emit", (RAISE, cause is not None, node), None))
        return seq

    def _break_or_continue(self, node, state):
        k = node.kind
        if not state.loops:
            raise SyntaxProblem(f"'{k}' outside a loop", node.start)
        loop = state.loops[-1]
        target = loop.end if k == "break" else loop.head
        if state.blocks > loop.blocks:
            return [("emit", (JUMP_UNWIND, (target, loop.blocks), node), None)]
        return [("emit", (JUMP, target, node), None)]

    def _if(self, node, state):
        branches, orelse = node.args
        end = _Label()
        seq = []
        for test, body in branches:
            other = _Label()
            seq += [("node", test, None), ("emit", (JUMP_IF_FALSE, other, test), None)]
            seq += self._block(body)
            seq += [("emit", (JUMP, end, test), None), ("label", other, None)]
        return seq + self._block(orelse) + [("label", end, None)]

    def _while(self, node, state):
        test, body, orelse = node.args
        head, otherwise, end = _Label(), _Label(), _Label()
        loop = _Loop(head, end, state.blocks)
        seq = [("label", head, None), ("node", test, None), ("emit", (JUMP_IF_FALSE, otherwise, test), None),
               ("call", _push_loop(loop), None)]
        seq += self._block(body)
        seq += [("call", _pop_loop, None), ("emit", (JUMP, head, test), None), ("label", otherwise, None)]
        return seq + self._block(orelse) + [("label", end, None)]

    def _for(self, node, state):
        target, iterable, body, orelse = node.args
        head, otherwise, exit_, end = _Label(), _Label(), _Label(), _Label()
        loop = _Loop(head, exit_, state.blocks)
        seq = [("node", iterable, None), ("emit", (GET_ITER, None, iterable), None), ("label", head, None),
               ("emit", (FOR_ITER, otherwise, iterable), None)]
        seq += self._store(target)
        seq.append(("call", _push_loop(loop), None))
        seq += self._block(body)
        # `break` leaves the iterator on the stack: exit_ pops it (and skips the else block)
        seq += [("call", _pop_loop, None), ("emit", (JUMP, head, node), None), ("label", exit_, None),
                ("emit", (POP, None, node), None), ("emit", (JUMP, end, node), None),
                ("label", otherwise, None)]
        return seq + self._block(orelse) + [("label", end, None)]

    def _with(self, node, state):
        items, body = node.args
        seq = []
        for context, name in items:
            seq += [("node", context, None), ("emit", (WITH_ENTER, None, context), None),
                    ("call", _blocks(+1), None)]
            if name is not None:
                seq.append(self._store_name(name, context))
            else:
                seq.append(("emit", (POP, None, context), None))
        seq += self._block(body)
        for context, name in reversed(items):
            seq += [("call", _blocks(-1), None), ("emit", (WITH_EXIT, None, context), None)]
        return seq

    def _try_statement(self, node, state):
        return self._try(node)

    def _def(self, node, state):
        name, params, body, decorators = node.args
        return [("call", self._function_emitter(node, name, params, body.args, decorators), None),
                self._store_name(name, node)]

    def _class(self, node, state):
        # the bases, then the body run as a function returning its names, then the class (with the
        # names its body annotates, for @dataclass)
        name, bases, body, fields, decorators = node.args
        seq = [("node", d, None) for d in decorators] + [("node", b, None) for b in bases]
        seq += [("emit", (TUPLE, len(bases), node), None), ("call", self._class_emitter(node, name, body), None),
                ("emit", (CALL, (0, ()), node), None),
                ("emit", (BUILD_CLASS, (name, fields) if fields else name, node), None)]
        seq += [("emit", (CALL, (1, ()), d), None) for d in reversed(decorators)]  # @dataclass
        return seq + [self._store_name(name, node)]

    def _annotated(self, node, state):
        inner = node.args[1]
        return self._STATEMENTS[inner.kind](self, inner, state)

    _STATEMENTS = {"expr": _expression_statement, "assign": _assign, "augassign": _augassign, "assert": _assert,
                   "pass": _nothing, "global": _nothing, "nonlocal": _nothing, "import": _import,
                   "importfrom": _import_from, "del": _del, "return": _return, "raise": _raise,
                   "break": _break_or_continue, "continue": _break_or_continue, "if": _if, "while": _while,
                   "for": _for, "with": _with, "try": _try_statement, "def": _def, "class": _class,
                   "annotated": _annotated}

    def _try(self, node):
        """try / except / else / finally as blocks: SETUP_FINALLY (around
        everything) and SETUP_TRY (around the body) name their handlers; an
        exception, a return, break or continue leaving the body goes through
        them (see the interpreter)."""
        body, handlers, orelse, final = node.args
        seq = []
        if final is not None:
            fin = _Label()
            seq += [("emit", (SETUP_FINALLY, fin, node), None), ("call", _blocks(+1), None)]
        if handlers:
            handler, done = _Label(), _Label()
            seq += [("emit", (SETUP_TRY, handler, node), None), ("call", _blocks(+1), None)]
            seq += self._block(body)
            seq += [("call", _blocks(-1), None), ("emit", (POP_BLOCK, None, node), None)]
            seq += self._block(orelse)
            seq += [("emit", (JUMP, done, node), None), ("label", handler, None)]
            # the exception is on the stack
            for i, h in enumerate(handlers):
                test, name, hbody = h.args
                if test is None and i != len(handlers) - 1:
                    raise SyntaxProblem("default 'except:' must be last", h.start)
                nxt = _Label()
                if test is not None:
                    seq += [("emit", (DUP, None, h), None), ("node", test, None), ("emit", (EXC_MATCH, None, test), None),
                            ("emit", (JUMP_IF_FALSE, nxt, h), None)]
                if name is not None:
                    seq += [("emit", (DUP, None, h), None), self._store_name(name, h)]
                seq += [("emit", (BEGIN_HANDLER, None, h), None), ("call", _blocks(+1), None)]
                seq += self._block(hbody)
                seq += [("call", _blocks(-1), None), ("emit", (END_HANDLER, None, h), None)]
                if name is not None:  # as Python: the name is unbound after the handler
                    seq += [("emit", (CONST, None, h), None), self._store_name(name, h), self._delete_name(name, h)]
                seq += [("emit", (JUMP, done, h), None), ("label", nxt, None)]
            seq += [("emit", (RERAISE, "pending", node), None), ("label", done, None)]
        else:
            seq += self._block(body)
        if final is not None:
            seq += [("call", _blocks(-1), None), ("emit", (POP_BLOCK, None, node), None),
                    ("emit", (CONST, None, node), None), ("label", fin, None),
                    # what to do after it (None, or a pending raise/return/jump) is on the stack: a block
                    # of its own, so that a break, continue or return in the finally body drops it
                    ("emit", (BEGIN_FINALLY, None, node), None), ("call", _blocks(+1), None)]
            seq += self._block(final)
            seq += [("call", _blocks(-1), None), ("emit", (END_FINALLY, None, node), None)]
        return seq

    def _store(self, target):
        """The work that stores the value on top of the stack into `target`."""
        while target.kind == "group":
            target = target.args[0]
        k = target.kind
        if k == "name":
            return [self._store_name(target.args[0], target)]
        if k == "attr":
            return [("node", target.args[0], None), ("emit", (STORE_ATTR, target.args[1], target), None)]
        if k == "index":
            return [("node", target.args[0], None), ("node", target.args[1], None),
                    ("emit", (STORE_INDEX, None, target), None)]
        if k == "tuple" or k == "list":
            stars = [i for i, item in enumerate(target.args) if item.kind == "starred"]
            if len(stars) > 1:
                raise SyntaxProblem("multiple starred expressions in assignment", target.args[stars[1]].start)
            if stars:  # a, *rest, z = ...: the starred name takes a list of what the others leave
                before = stars[0]
                seq = [("emit", (UNPACK_EX, (before, len(target.args) - before - 1), target), None)]
            else:
                seq = [("emit", (UNPACK, len(target.args), target), None)]
            for item in target.args:
                inner = item.args[0] if item.kind == "starred" else item
                while inner.kind == "group":
                    inner = inner.args[0]
                if inner.kind not in ("name", "attr", "index", "tuple", "list"):
                    raise SyntaxProblem("can only unpack into names", item.start,
                                        hint="write g1, g2 = grad(y, [x1, x2])")
                seq += [("call", _stored(self, inner), None)]
            return seq
        if k == "starred":
            raise SyntaxProblem("starred assignment target must be in a list or tuple", target.start,
                                hint="write first, *rest = values")
        raise SyntaxProblem("can't assign to this", target.start,
                            hint="the left of '=' must be a name, x.attribute, x[index] or a, b")

    def _delete(self, target):
        while target.kind == "group":
            target = target.args[0]
        k = target.kind
        if k == "name":
            return [self._delete_name(target.args[0], target)]
        if k == "index":
            return [("node", target.args[0], None), ("node", target.args[1], None),
                    ("emit", (DELETE_INDEX, None, target), None)]
        if k == "attr":
            return [("node", target.args[0], None), ("emit", (DELETE_ATTR, target.args[1], target), None)]
        if k in ("tuple", "list"):
            seq = []
            for item in target.args:
                seq.append(("call", _deleted(self, item), None))
            return seq
        raise SyntaxProblem("cannot delete this", target.start, hint="del takes names, x.attribute and x[key]")

    def _augmented(self, target, op, value, node):
        """`t op= v`: in place where the value allows (tensors), then stored back."""
        k = target.kind
        if k == "name":
            return [self._load(target.args[0], target), ("node", value, None),
                    ("emit", (INPLACE, op, node), None), self._store_name(target.args[0], target)]
        if k == "attr":
            obj, attr = target.args
            return [("node", obj, None), ("emit", (DUP, None, target), None), ("emit", (ATTR, attr, target), None),
                    ("node", value, None), ("emit", (INPLACE, op, node), None), ("emit", (ROT2, None, target), None),
                    ("emit", (STORE_ATTR, attr, target), None)]
        if k == "index":
            obj, key = target.args
            # evaluate obj and key once: obj, key -> obj, key, value -> store
            return [("node", obj, None), ("node", key, None), ("emit", (INDEX, "keep", target), None),
                    ("node", value, None), ("emit", (INPLACE, op, node), None),
                    ("emit", (STORE_INDEX, "kept", target), None)]
        raise SyntaxProblem("can't use an augmented assignment here", target.start)


def _gathered(items, add, star):
    """The work that puts `items` into the list or set on the stack: `add` (LIST_APPEND,
    SET_ADD) for a value, ARGS_EXTEND for a *iterable (`star`: "display", or None for a
    call's arguments, which its message names)."""
    seq = []
    for item in items:
        if item.kind == "starred":
            seq += [("node", item.args[0], None), ("emit", (ARGS_EXTEND, star, item), None)]
        else:
            seq += [("node", item, None), ("emit", (add, 0, item), None)]
    return seq


def _stored(compiler, target):
    def store(work, state):
        work.extend(reversed(compiler._store(target)))
    return store


def _deleted(compiler, target):
    def delete(work, state):
        work.extend(reversed(compiler._delete(target)))
    return delete


def _push_loop(loop):
    def push(work, state):
        state.loops.append(loop)
    return push


def _pop_loop(work, state):
    state.loops.pop()


def _blocks(delta):
    def change(work, state):
        state.blocks += delta
    return change


def _shift(node, offset):
    """Move the spans of a sub-tree parsed from an f-string field to where it sits."""
    stack = [node]
    while stack:
        n = stack.pop()
        n.start += offset
        n.end += offset
        for arg in n.args:
            if arg.__class__ is n.__class__:
                stack.append(arg)
            elif isinstance(arg, tuple):
                for x in arg:
                    if x.__class__ is n.__class__:
                        stack.append(x)
                    elif isinstance(x, tuple):
                        stack.extend(y for y in x if y.__class__ is n.__class__)


def _split_fstring(text, offset, nested=False):
    """Literal text and (expression, conversion, spec, offset) fields of an
    f-string body. A spec is text, or a list of such pieces where it has
    {fields} of its own (f"{x:.{n}f}")."""
    pieces = []
    literal = []
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "{":
            if i + 1 < n and text[i + 1] == "{" and not nested:
                literal.append("{")
                i += 2
                continue
            depth = 1
            j = i + 1
            quote = None
            while j < n and depth:
                c = text[j]
                if quote:
                    if c == quote:
                        quote = None
                elif c in "'\"":
                    quote = c
                elif c in "([{":
                    depth += 1
                elif c in ")]}":
                    depth -= 1
                j += 1
            if depth:
                raise SyntaxProblem("an f-string field is missing its '}'", offset + i)
            field = text[i + 1:j - 1]
            spec = ""
            colon = _top_level_colon(field)
            if colon >= 0:
                field, spec = field[:colon], field[colon + 1:]
                if "{" in spec:
                    if nested:
                        raise SyntaxProblem("f-string: expressions nested too deeply", offset + i)
                    spec = _split_fstring(spec, offset + i + 1 + colon + 1, nested=True)
            conversion = None
            bang = _conversion_mark(field)
            if bang >= 0:
                field, conversion = field[:bang], field[bang + 1:].strip()
                if conversion not in ("r", "s", "a"):
                    raise SyntaxProblem("f-string: invalid conversion character: expected 's', 'r', or 'a'",
                                        offset + i + 1 + bang)
            stripped = field.rstrip()
            if stripped.endswith("=") and not stripped.endswith(("==", "!=", "<=", ">=")):
                literal.append(field if conversion is None else field)
                field = stripped[:-1]
                if conversion is None and not spec:
                    conversion = "r"  # f"{x=}" shows repr(x), as Python
            if not field.strip():
                raise SyntaxProblem("f-string: empty expression not allowed", offset + i)
            if literal:
                pieces.append("".join(literal))
                literal = []
            pieces.append((field, conversion, spec, offset + i + 1))
            i = j
        elif ch == "}":
            if i + 1 < n and text[i + 1] == "}" and not nested:
                literal.append("}")
                i += 2
                continue
            raise SyntaxProblem("single '}' in an f-string", offset + i, hint="write '}}' for a literal brace")
        else:
            literal.append(ch)
            i += 1
    if literal:
        pieces.append("".join(literal))
    return pieces


def _conversion_mark(field):
    """Where a field's !r / !s / !a starts (not the ! of !=), or -1."""
    return _top_level(field, "!")


def _top_level_colon(field):
    """Where a field's format spec starts, or -1."""
    return _top_level(field, ":")


def _top_level(field, mark):
    """The first `mark` of `field` outside brackets and quotes (a `!` not of `!=`), or -1."""
    depth = 0
    quote = None
    for i, ch in enumerate(field):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == mark and depth == 0 and not (mark == "!" and field[i + 1:i + 2] == "="):
            return i
    return -1
