"""Syntax tree to a flat list of instructions for the interpreter (`vm.py`).

The walk uses an explicit work stack, never recursion, so an expression
nested ten thousand deep compiles like a short one. Every instruction keeps
the syntax node it came from: runtime errors and graph nodes point at it.

An instruction is `(opcode, argument, node)`. The stack machine they drive:
operands are pushed, operators pop them and push their result; jumps carry
the index they go to.
"""
from .errors import SyntaxProblem

__all__ = ["Code", "compile_program", "OPCODES"]

# The opcodes, numbered (the interpreter dispatches on these integers).
(CONST, LOAD, STORE, POP, DUP, ROT2, BINARY, INPLACE, UNARY, NOT, COMPARE, ATTR, STORE_ATTR, INDEX,
 STORE_INDEX, SLICE, TUPLE, LIST, FORMAT, FSTRING, UNPACK, CALL, MAKE_FUNCTION, RETURN, JUMP,
 JUMP_IF_FALSE, JUMP_IF_FALSE_KEEP, JUMP_IF_TRUE_KEEP, GET_ITER, FOR_ITER, WITH_ENTER, WITH_EXIT, ASSERT,
 IMPORT, KEEP) = range(35)
OPCODES = ["CONST", "LOAD", "STORE", "POP", "DUP", "ROT2", "BINARY", "INPLACE", "UNARY", "NOT", "COMPARE",
           "ATTR", "STORE_ATTR", "INDEX", "STORE_INDEX", "SLICE", "TUPLE", "LIST", "FORMAT", "FSTRING",
           "UNPACK", "CALL", "MAKE_FUNCTION", "RETURN", "JUMP", "JUMP_IF_FALSE", "JUMP_IF_FALSE_KEEP",
           "JUMP_IF_TRUE_KEEP", "GET_ITER", "FOR_ITER", "WITH_ENTER", "WITH_EXIT", "ASSERT", "IMPORT",
           "KEEP"]


class Code:
    """A compiled body: the instructions of a program, a function or a lambda."""

    __slots__ = ("instructions", "name", "params", "defaults", "globals_declared", "source")

    def __init__(self, instructions, name, params=(), defaults=(), globals_declared=(), source=None):
        self.instructions = instructions
        self.name = name
        self.params = params
        self.defaults = defaults      # syntax nodes of default values (evaluated at definition)
        self.globals_declared = frozenset(globals_declared)
        self.source = source


class _Label:
    __slots__ = ("index",)

    def __init__(self):
        self.index = None


class _Loop:
    """Where `break` and `continue` go, and how many `with` blocks they leave."""

    __slots__ = ("head", "end", "with_depth")

    def __init__(self, head, end, with_depth):
        self.head = head
        self.end = end
        self.with_depth = with_depth


class _FunctionState:
    __slots__ = ("loops", "with_depth", "globals", "in_function")

    def __init__(self, in_function):
        self.loops = []
        self.with_depth = 0
        self.globals = set()
        self.in_function = in_function


def compile_program(program, source=None, keep_last=False):
    """Compile a "program" node. With `keep_last`, the value of a final
    expression statement is kept as the result (eval's `f`)."""
    compiler = _Compiler(source)
    code = Code([], "<program>", source=source)
    compiler.compile_into(code, program.args, keep_last=keep_last)
    # function and lambda bodies met on the way are compiled after their
    # definer, one after another: nesting them deeply never recurses
    while compiler.pending:
        body, statements = compiler.pending.pop()
        compiler.compile_into(body, statements, in_function=True)
    return code


class _Compiler:
    def __init__(self, source):
        self.source = source
        self.pending = []  # (Code to fill, body statements) of functions defined in what was compiled

    def compile_into(self, code, statements, keep_last=False, in_function=False):
        """Fill `code` with the instructions of `statements`."""
        out = []
        state = _FunctionState(in_function)
        work = []  # items: ("node", node, context) | ("emit", instr) | ("label", label) | ("call", fn)
        stmts = list(statements)
        if keep_last and stmts and stmts[-1].kind == "expr":
            last = stmts.pop()
            work.append(("emit", (KEEP, None, last.args[0]), None))
            work.append(("node", last.args[0], None))
        for stmt in reversed(stmts):
            work.append(("stmt", stmt, None))
        self._run(work, out, state)
        instructions = []
        # resolve labels to indices
        for item in out:
            if item.__class__ is _Label:
                item.index = len(instructions)
            else:
                instructions.append(item)
        code.instructions = [(op, arg.index if arg.__class__ is _Label else arg, node)
                             for op, arg, node in instructions]
        code.globals_declared = frozenset(state.globals)

    def _run(self, work, out, state):
        """Drain the work stack: expand statements and expressions into instructions."""
        while work:
            kind, item, ctx = work.pop()
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

    # ----------------------------------------------------------- expressions
    def _expression(self, node, work):
        """Push, in reverse, the work that evaluates `node` onto the stack."""
        k = node.kind
        a = node.args
        seq = []
        if k == "group":
            seq.append(("node", a[0], None))
        elif k == "const":
            seq.append(("emit", (CONST, a[0], node), None))
        elif k == "name":
            seq.append(("emit", (LOAD, a[0], node), None))
        elif k == "binop":
            seq += [("node", a[1], None), ("node", a[2], None), ("emit", (BINARY, a[0], node), None)]
        elif k == "unary":
            seq += [("node", a[1], None), ("emit", (UNARY, a[0], node), None)]
        elif k == "not":
            seq += [("node", a[0], None), ("emit", (NOT, None, node), None)]
        elif k == "and" or k == "or":
            end = _Label()
            jump = JUMP_IF_FALSE_KEEP if k == "and" else JUMP_IF_TRUE_KEEP
            for i, operand in enumerate(a):
                seq.append(("node", operand, None))
                if i < len(a) - 1:
                    seq.append(("emit", (jump, end, node), None))
            seq.append(("label", end, None))
        elif k == "compare":
            first, pairs = a
            seq.append(("node", first, None))
            for op, operand in pairs:
                seq.append(("node", operand, None))
            seq.append(("emit", (COMPARE, tuple(op for op, _ in pairs), node), None))
        elif k == "cond":
            test, body, orelse = a
            other, end = _Label(), _Label()
            seq += [("node", test, None), ("emit", (JUMP_IF_FALSE, other, node), None), ("node", body, None),
                    ("emit", (JUMP, end, node), None), ("label", other, None), ("node", orelse, None),
                    ("label", end, None)]
        elif k == "tuple" or k == "list":
            for item in a:
                seq.append(("node", item, None))
            seq.append(("emit", (TUPLE if k == "tuple" else LIST, len(a), node), None))
        elif k == "call":
            func, args, kwargs = a
            if func.kind == "name":  # a called name: an unknown one is reported as an unknown function
                seq.append(("emit", (LOAD, func.args[0], node), None))
            else:
                seq.append(("node", func, None))
            for arg in args:
                seq.append(("node", arg, None))
            seen = set()
            for name, value in kwargs:
                if name in seen:
                    raise SyntaxProblem(f"keyword argument repeated: {name}", value.start,
                                        hint=f"give {name}= once")
                seen.add(name)
                seq.append(("node", value, None))
            seq.append(("emit", (CALL, (len(args), tuple(name for name, _ in kwargs)), node), None))
        elif k == "attr":
            seq += [("node", a[0], None), ("emit", (ATTR, a[1], node), None)]
        elif k == "index":
            seq += [("node", a[0], None), ("node", a[1], None), ("emit", (INDEX, None, node), None)]
        elif k == "slice":
            for part in a:
                seq.append(("node", part, None) if part is not None else ("emit", (CONST, None, node), None))
            seq.append(("emit", (SLICE, None, node), None))
        elif k == "fstring":
            seq.append(("call", self._fstring_emitter(node), None))
        elif k == "lambda":
            params, body = a
            ret = type(body)("return", (body,), body.start, body.end)
            seq.append(("call", self._function_emitter(node, "<lambda>", params, (ret,)), None))
        else:
            raise SyntaxProblem(f"'{k}' can't be used as a value here", node.start)
        work.extend(reversed(seq))

    def _fstring_emitter(self, node):
        text, offset = node.args
        pieces = _split_fstring(text, offset)

        def emit(work, state):
            from .parser import parse_expression
            seq = []
            for piece in pieces:
                if isinstance(piece, str):
                    seq.append(("emit", (CONST, piece, node), None))
                else:
                    expr_text, spec, start = piece
                    try:
                        expr = parse_expression(expr_text)
                    except SyntaxProblem as e:
                        raise SyntaxProblem(f"in an f-string field: {e.message}", start + (e.start or 0),
                                            hint=e.hint) from None
                    _shift(expr, start)
                    seq.append(("node", expr, None))
                    seq.append(("emit", (FORMAT, spec, node), None))
            seq.append(("emit", (FSTRING, len(pieces), node), None))
            work.extend(reversed(seq))
        return emit

    def _function_emitter(self, node, name, params, body_statements):
        def emit(work, state):
            names = tuple(p.args[0] for p in params)
            defaults = tuple(p.args[1] for p in params)
            seen_default = False
            for p in params:
                if p.args[1] is not None:
                    seen_default = True
                elif seen_default:
                    raise SyntaxProblem("a parameter without a default follows one with a default", p.start)
            if len(set(names)) != len(names):
                raise SyntaxProblem("a parameter name appears twice", node.start)
            code = Code([], name, names, (), (), self.source)  # filled once its definer is compiled
            self.pending.append((code, body_statements))
            seq = [("node", d, None) for d in defaults if d is not None]
            seq.append(("emit", (MAKE_FUNCTION, (code, tuple(d is not None for d in defaults)), node), None))
            work.extend(reversed(seq))
        return emit

    # ------------------------------------------------------------ statements
    def _statement(self, node, work, state):
        k = node.kind
        a = node.args
        seq = []
        if k == "expr":
            seq += [("node", a[0], None), ("emit", (POP, None, a[0]), None)]
        elif k == "assign":
            targets, value = a
            seq.append(("node", value, None))
            for i, target in enumerate(targets):
                if i < len(targets) - 1:
                    seq.append(("emit", (DUP, None, target), None))
                seq += self._store(target)
        elif k == "augassign":
            target, op, value = a
            seq += self._augmented(target, op, value, node)
        elif k == "assert":
            test, message = a
            seq.append(("node", test, None))
            if message is not None:
                seq.append(("node", message, None))
            seq.append(("emit", (ASSERT, message is not None, node), None))
        elif k == "pass" or k == "global" and self._declare_global(node, state):
            pass
        elif k == "import":
            seq.append(("emit", (IMPORT, a, node), None))
        elif k == "return":
            if not state.in_function:
                raise SyntaxProblem("'return' outside a function", node.start)
            if a[0] is None:
                seq.append(("emit", (CONST, None, node), None))
            else:
                seq.append(("node", a[0], None))
            seq.append(("emit", (RETURN, None, node), None))
        elif k == "break" or k == "continue":
            if not state.loops:
                raise SyntaxProblem(f"'{k}' outside a loop", node.start)
            loop = state.loops[-1]
            for _ in range(state.with_depth - loop.with_depth):
                seq.append(("emit", (WITH_EXIT, None, node), None))
            seq.append(("emit", (JUMP, loop.end if k == "break" else loop.head, node), None))
        elif k == "if":
            branches, orelse = a
            end = _Label()
            for test, body in branches:
                other = _Label()
                seq += [("node", test, None), ("emit", (JUMP_IF_FALSE, other, test), None)]
                seq += [("stmt", s, None) for s in body.args]
                seq += [("emit", (JUMP, end, test), None), ("label", other, None)]
            if orelse is not None:
                seq += [("stmt", s, None) for s in orelse.args]
            seq.append(("label", end, None))
        elif k == "while":
            test, body = a
            head, end = _Label(), _Label()
            loop = _Loop(head, end, state.with_depth)
            seq += [("label", head, None), ("node", test, None), ("emit", (JUMP_IF_FALSE, end, test), None),
                    ("call", _push_loop(loop), None)]
            seq += [("stmt", s, None) for s in body.args]
            seq += [("call", _pop_loop, None), ("emit", (JUMP, head, test), None), ("label", end, None)]
        elif k == "for":
            names, iterable, body = a
            head, end, exit_ = _Label(), _Label(), _Label()
            loop = _Loop(head, exit_, state.with_depth)
            seq += [("node", iterable, None), ("emit", (GET_ITER, None, iterable), None), ("label", head, None),
                    ("emit", (FOR_ITER, end, iterable), None)]
            if len(names) == 1:
                seq.append(("emit", (STORE, names[0], node), None))
            else:
                seq.append(("emit", (UNPACK, len(names), node), None))
                seq += [("emit", (STORE, n, node), None) for n in names]
            seq.append(("call", _push_loop(loop), None))
            seq += [("stmt", s, None) for s in body.args]
            # `break` leaves the iterator on the stack: exit_ pops it
            seq += [("call", _pop_loop, None), ("emit", (JUMP, head, node), None), ("label", exit_, None),
                    ("emit", (POP, None, node), None), ("label", end, None)]
        elif k == "with":
            context, name, body = a
            seq += [("node", context, None), ("emit", (WITH_ENTER, name, context), None),
                    ("call", _with_depth(+1), None)]
            seq += [("stmt", s, None) for s in body.args]
            seq += [("call", _with_depth(-1), None), ("emit", (WITH_EXIT, None, context), None)]
        elif k == "def":
            name, params, body = a
            seq.append(("call", self._function_emitter(node, name, params, body.args), None))
            seq.append(("emit", (STORE, name, node), None))
        else:
            raise SyntaxProblem(f"unsupported statement '{k}'", node.start)
        work.extend(reversed(seq))

    def _declare_global(self, node, state):
        state.globals.update(node.args)
        return True

    def _store(self, target):
        """The work that stores the value on top of the stack into `target`."""
        while target.kind == "group":
            target = target.args[0]
        k = target.kind
        if k == "name":
            return [("emit", (STORE, target.args[0], target), None)]
        if k == "attr":
            return [("node", target.args[0], None), ("emit", (STORE_ATTR, target.args[1], target), None)]
        if k == "index":
            return [("node", target.args[0], None), ("node", target.args[1], None),
                    ("emit", (STORE_INDEX, None, target), None)]
        if k == "tuple" or k == "list":
            seq = [("emit", (UNPACK, len(target.args), target), None)]
            for item in target.args:
                if item.kind not in ("name", "attr", "index"):
                    raise SyntaxProblem("can only unpack into names", item.start,
                                        hint="write g1, g2 = grad(y, [x1, x2])")
                seq += self._store(item)
            return seq
        raise SyntaxProblem("can't assign to this", target.start,
                            hint="the left of '=' must be a name, x.attribute, x[index] or a, b")

    def _augmented(self, target, op, value, node):
        """`t op= v`: in place where the value allows (tensors), then stored back."""
        k = target.kind
        if k == "name":
            return [("emit", (LOAD, target.args[0], target), None), ("node", value, None),
                    ("emit", (INPLACE, op, node), None), ("emit", (STORE, target.args[0], target), None)]
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


def _push_loop(loop):
    def push(work, state):
        state.loops.append(loop)
    return push


def _pop_loop(work, state):
    state.loops.pop()


def _with_depth(delta):
    def change(work, state):
        state.with_depth += delta
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


def _split_fstring(text, offset):
    """Literal text and ({expression}, format spec, offset) fields of an f-string body."""
    pieces = []
    literal = []
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "{":
            if i + 1 < n and text[i + 1] == "{":
                literal.append("{")
                i += 2
                continue
            depth = 1
            j = i + 1
            while j < n and depth:
                if text[j] in "([{":
                    depth += 1
                elif text[j] in ")]}":
                    depth -= 1
                j += 1
            if depth:
                raise SyntaxProblem("an f-string field is missing its '}'", offset + i)
            field = text[i + 1:j - 1]
            spec = ""
            colon = _top_level_colon(field)
            if colon >= 0:
                field, spec = field[:colon], field[colon + 1:]
            if field.endswith("="):
                literal.append(field)
                field = field[:-1]
            if literal:
                pieces.append("".join(literal))
                literal = []
            pieces.append((field, spec, offset + i + 1))
            i = j
        elif ch == "}":
            if i + 1 < n and text[i + 1] == "}":
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


def _top_level_colon(field):
    depth = 0
    for i, ch in enumerate(field):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == ":" and depth == 0:
            return i
    return -1
