"""The lean lane: one-line scalar eval jobs without the parser, compiler and interpreter.

Most batch jobs are one line such as `x = 0.37; 1.3*x**2 + sin(0.8*x) - 2`:
number bindings, then a formula of + - * / **, unary minus and calls of
elementwise functions. For those, the general pipeline (tokenize, LALR parse,
tree, compile, step the interpreter, record Tensor nodes, run the Kahn
backward) spends nearly all its time on generality. This lane reads such a
line with an operator-precedence pass straight into a flat tape of op-table
rows applied to numpy scalars, and runs the rows' own backward formulas over
the tape in reverse.

It is not a second engine: every value comes from the op table's `forward`
and every derivative from its `backward` (through the same raw-array `F` the
engine's backward uses), applied in the engine's order -- the engine runs
nodes newest first, which on a tape is reverse order, and adds gradients in
that order -- so results are bit-identical to the full pipeline's. The rows
an operator reaches are the ones the engine's operators reach (`2 / x` is
reciprocal then mul, `x ** 2` is pow_scalar, ...), and the functions are the
language's own names whose engine function is a plain wrapper of one
elementwise row. Arithmetic between plain numbers is the interpreter's own
`binary`/`unary`.

Anything else -- another statement form, a name that is not a bound
variable, a function of a number, options beyond the defaults, any error at
all -- returns None, and the job takes the full pipeline (which then gives
the exact message, column and hint). tests/test_lean_lane.py checks both
paths agree bit for bit on generated jobs, and that the lane really takes
them.
"""
import keyword

import numpy

from ..engine.autograd import quiet_numpy

__all__ = ["run"]

MAX_TOKENS = 1000         # longer lines take the full pipeline (its step budget then applies as usual)
MIN_STEPS = 10_000        # a --max-steps below this: the full pipeline, which counts steps
MIN_MEMORY = 64 << 20     # a --max-memory below this: the full pipeline, which enforces it

# The tokenizer: operators get spaces around them ("**" is read as "^"; a line holding "^" itself is
# declined) and str.split does the rest -- chained str.replace costs a quarter of a regular expression.
_ALLOWED = frozenset("0123456789.eE_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ ()+-*/;=")
_OPERATORS = frozenset("()+-*/;=^")
_DIGITS = frozenset("0123456789.")

# binary operators: precedence; ** (here ^) is the right-associative one
_PREC = {"+": 1, "-": 1, "*": 2, "/": 2, "^": 4}
_UNARY_PREC = 3  # between * and **: -x**2 is -(x**2), 2**-x is 2**(-x)
_OPEN = ("(", 0)


class _Decline(Exception):
    """This job is not for the lane: run the full pipeline."""


class _Ctx:
    """What a row's backward reads of its node."""
    __slots__ = ("needs", "shapes", "params")

    def __init__(self, needs, shapes, params):
        self.needs = needs
        self.shapes = shapes
        self.params = params


# A tensor on the tape is a pair (value, slot): its value -- exactly the object the engine's tensor
# would hold (a 0-d array for a leaf and for what numpy.where makes, a numpy scalar for other results),
# so every row takes numpy's same code path -- and the slot of its gradient. Numbers stay Python numbers, as in the language.
_T = tuple

# the node of an op without parameters, by which inputs are tensors (numbers: no gradient, no shape);
# backward formulas only read it, so one serves every op alike
_ONE = _Ctx((True,), ((),), None)
_BOTH = _Ctx((True, True), ((), ()), None)
_FIRST = _Ctx((True, False), ((), None), None)
_SECOND = _Ctx((False, True), (None, ()), None)


class _Lane:
    """The tables the lane needs, built once from the engine and the language."""

    def __init__(self):
        from .. import engine as E
        from ..engine.ops import TABLE
        from ..engine.mathspace import array_math
        from ..engine.backend import CPU
        from .names import BUILTINS
        from .vm import binary, unary
        self.E = E
        self.F = array_math(CPU)
        self.binary = binary
        self.unary = unary
        t = TABLE
        self.rows = {"+": t["add"], "-": t["sub"], "*": t["mul"], "/": t["div"], "^": t["pow"]}
        self.neg, self.reciprocal, self.mul = t["neg"], t["reciprocal"], t["mul"]
        self.pow_scalar, self.rpow_scalar = t["pow_scalar"], t["rpow_scalar"]
        # the language's functions that are one elementwise row applied to a tensor
        self.functions = {name: fn._row for name, fn in BUILTINS.items()
                          if getattr(fn, "_row", None) is not None and _lean_row(fn._row)}
        for row in list(self.rows.values()) + [self.neg, self.reciprocal, self.pow_scalar, self.rpow_scalar]:
            if not _lean_row(row):
                raise AssertionError(f"op row {row.name} no longer fits the lean lane")
        self.float64 = E.float64
        from .job import JobResult  # job.py imports this module: JobResult is taken once it exists
        self.JobResult = JobResult


def _lean_row(row):
    """A row whose node the lane can stand in for: elementwise, no view, no device move,
    nothing kept but its inputs and output."""
    return (row.elementwise and row.differentiable and not row.is_view and not row.moves_device
            and not row.saves_params and all(s == "out" or isinstance(s, int) for s in row.saves))


_lane = None


def _get_lane():
    global _lane
    if _lane is None:
        _lane = _Lane()
    return _lane


def run(source, bindings, options):
    """The JobResult of `source` through the lean lane, or None when the job is not
    one the lane takes (the caller then runs the full pipeline)."""
    if (options.wrt or options.order != 1 or options.weights is not None or options.jacobian or options.hessian
            or options.check or options.formula or options.graph or options.device not in (None, "cpu")
            or options.dtype not in (None, "float64") or options.max_steps < MIN_STEPS
            or options.max_memory < MIN_MEMORY or len(source) > 8 * MAX_TOKENS
            or not _ALLOWED.issuperset(source)):
        return None
    lane = _lane or _get_lane()
    E = lane.E
    if E.get_default_dtype() is not lane.float64 or E.get_default_device().type != "cpu":
        return None
    try:
        return _run(lane, source, bindings)
    except (_Decline, ArithmeticError, ValueError, TypeError, MemoryError, RecursionError, KeyError, IndexError):
        return None


def _number(text):
    """A number token as the language reads it (float with a point or an exponent, else int)."""
    if text[0] not in _DIGITS or "_" in text:
        raise _Decline
    if "." in text or "e" in text or "E" in text:
        return float(text)
    return int(text)


def _tokens(source):
    """The line's tokens; an exponent's sign (1e-5) is put back into its number."""
    parts = (source.replace("**", " ^ ").replace("(", " ( ").replace(")", " ) ").replace("+", " + ")
             .replace("-", " - ").replace("*", " * ").replace("/", " / ").replace(";", " ; ").replace("=", " = ")
             .split())
    if len(parts) > MAX_TOKENS:
        raise _Decline
    if "e-" in source or "e+" in source or "E-" in source or "E+" in source:
        return _join_exponents(parts)
    return parts


def _join_exponents(parts):
    out = []
    i = 0
    while i < len(parts):
        p = parts[i]
        if (p[-1] == "e" or p[-1] == "E") and p[0] in _DIGITS and i + 2 < len(parts) and parts[i + 1] in "+-":
            out.append(p + parts[i + 1] + parts[i + 2])
            i += 3
        else:
            out.append(p)
            i += 1
    return out


def _run(lane, source, bindings):
    if "^" in source:
        raise _Decline  # the language's other spelling of **: the full pipeline
    tape = []          # (row, args, params, out, ctx), in the order the engine would record them
    slots = []         # slot -> whether it holds a leaf
    values = {}        # name -> tensor, as the program's globals
    variables = {}     # name -> the tensor of a bound leaf, in binding order

    def new_leaf(name, number):  # a number read or folded here: int or float, never bool
        v = (numpy.array(float(number), dtype=_FLOAT64), len(slots))  # a 0-d array, as the engine's leaf holds
        slots.append(True)
        variables[name] = values[name] = v

    for name, text in bindings:
        if not name.isidentifier() or keyword.iskeyword(name):
            raise _Decline
        parts = _tokens(text)
        negative = parts[0] == "-"
        if len(parts) != 1 + negative:
            raise _Decline
        number = _number(parts[-1])
        new_leaf(name, lane.unary("-", number) if negative else number)
    parts = _tokens(source)
    if ";" in parts:
        statements = []
        start = 0
        for i, tok in enumerate(parts):
            if tok == ";":
                statements.append(parts[start:i])
                start = i + 1
        statements.append(parts[start:])
    else:
        statements = [parts]
    last = len(statements) - 1
    f = None
    for k, stmt in enumerate(statements):
        if len(stmt) >= 3 and stmt[1] == "=":
            name = stmt[0]
            if k == last or not name.isidentifier() or keyword.iskeyword(name):
                raise _Decline
            value = _expression(lane, stmt, 2, values, tape, slots)
            if value.__class__ is _T:
                values[name] = value  # a tensor: stored (an alias of a leaf stays that leaf)
            else:
                new_leaf(name, value)  # a number: eval makes it a variable
        elif k == last:
            f = _expression(lane, stmt, 0, values, tape, slots)
        else:
            raise _Decline
    if f.__class__ is not _T or slots[f[1]]:
        raise _Decline  # f a number or a bare variable: the full pipeline says what that means
    return _result(lane, source, f, tape, variables, len(slots))


def _expression(lane, tokens, i, values, tape, slots):
    """Evaluate one expression's tokens from i (operator precedence, no recursion): a tensor or a number."""
    operands = []
    # (what, precedence): a binary operator, a unary one ("u-", "u+"), or -- at precedence 0, which
    # stops every reduction -- an open parenthesis ("(", 0) or a call's (row, 0)
    operators = []
    expect_operand = True
    n = len(tokens)
    prec_of = _PREC
    while i < n:
        tok = tokens[i]
        i += 1
        if expect_operand:
            if tok in _OPERATORS:
                if tok == "-" or tok == "+":
                    operators.append(("u" + tok, _UNARY_PREC))
                elif tok == "(":
                    operators.append(_OPEN)
                else:
                    raise _Decline
            elif tok[0] in _DIGITS:
                operands.append(_number(tok))
                expect_operand = False
            elif i < n and tokens[i] == "(":
                row = lane.functions.get(tok)
                if row is None or tok in values:
                    raise _Decline
                operators.append((row, 0))
                i += 1
            else:
                value = values.get(tok)
                if value is None:
                    raise _Decline  # a builtin constant, a function or a NameError: the full pipeline
                operands.append(value)
                expect_operand = False
        elif tok in prec_of:
            prec = prec_of[tok]
            while operators:
                top = operators[-1][1]
                if top < prec or (top == prec and prec == 4):  # ** is right-associative
                    break
                _reduce(lane, operators.pop()[0], operands, tape, slots)
            operators.append((tok, prec))
            expect_operand = True
        elif tok == ")":
            while operators and operators[-1][1]:
                _reduce(lane, operators.pop()[0], operands, tape, slots)
            if not operators:
                raise _Decline
            marker = operators.pop()[0]
            if marker.__class__ is not str:  # a call's row, not "("
                x = operands.pop()
                if x.__class__ is not _T:
                    raise _Decline  # a function of a number: the full pipeline
                operands.append(_apply(marker, (x,), x[0], None, _ONE, tape, slots))
        else:
            raise _Decline  # two operands in a row, '=' or '(' after an operand, ...
    if expect_operand:
        raise _Decline
    while operators:
        op, prec = operators.pop()
        if not prec:
            raise _Decline  # a parenthesis left open
        _reduce(lane, op, operands, tape, slots)
    return operands[0]


def _reduce(lane, op, operands, tape, slots):
    """Apply one operator to the operands on top of the stack, as the language does:
    numbers by the interpreter's own arithmetic, tensors by the rows the engine's
    operators reach."""
    if op[0] == "u":
        x = operands.pop()
        if x.__class__ is not _T:
            operands.append(lane.unary(op[1], x))
        elif op == "u-":
            operands.append(_apply(lane.neg, (x,), x[0], None, _ONE, tape, slots))
        else:
            operands.append(x)  # +x is x itself
        return
    b = operands.pop()
    a = operands.pop()
    if a.__class__ is _T:
        if b.__class__ is _T:
            out = _apply(lane.rows[op], (a, b), (a[0], b[0]), None, _BOTH, tape, slots)
        elif op == "^":
            out = _apply_with(lane.pow_scalar, a, {"exponent": b}, tape, slots)
        else:
            out = _apply(lane.rows[op], (a, b), (a[0], b), None, _FIRST, tape, slots)
    elif b.__class__ is _T:
        if op == "/":  # number / tensor is reciprocal(tensor) * number, as the engine computes it
            r = _apply(lane.reciprocal, (b,), b[0], None, _ONE, tape, slots)
            out = _apply(lane.mul, (r, a), (r[0], a), None, _FIRST, tape, slots)
        elif op == "^":
            out = _apply_with(lane.rpow_scalar, b, {"base": a}, tape, slots)
        else:
            out = _apply(lane.rows[op], (a, b), (a, b[0]), None, _SECOND, tape, slots)
    else:
        out = lane.binary("**" if op == "^" else op, a, b)
    operands.append(out)


_FLOAT64 = numpy.float64
_NDARRAY = numpy.ndarray
_ROOT_GRAD = numpy.ones((), dtype=_FLOAT64)
_ROOT_GRAD.flags.writeable = False  # shared by every job: formulas never write into g (a write would raise)


def _apply(row, args, values, params, ctx, tape, slots):
    """One row's forward on the arguments' values (one value, or a pair); the result, put on the tape."""
    if values.__class__ is tuple:
        out = row.forward(numpy, *values, **params) if params else row.forward(numpy, values[0], values[1])
    else:
        out = row.forward(numpy, values, **params) if params else row.forward(numpy, values)
    if out.__class__ is not _FLOAT64 and (out.__class__ is not _NDARRAY or out.shape or out.dtype != _FLOAT64):
        raise _Decline  # a 0-d array (numpy.where's result) is kept as it is, as the engine keeps it
    v = (out, len(slots))
    slots.append(False)
    tape.append((row, args, params, v, ctx))
    return v


def _apply_with(row, x, params, tape, slots):
    """A one-tensor row with a number among its parameters (x ** 2: exponent=2)."""
    return _apply(row, (x,), x[0], params, _Ctx(_ONE.needs, _ONE.shapes, params), tape, slots)


def _result(lane, source, f, tape, variables, n):
    """Backward over the tape, newest first (the engine's order), then the JobResult."""
    F = lane.F
    grads = [None] * n
    grads[f[1]] = _ROOT_GRAD  # what the engine starts a scalar's backward with: ones_like(f), a 0-d array
    with quiet_numpy():  # inf and nan come out silently, as in the engine's backward
        for row, args, params, out, ctx in reversed(tape):
            g = grads[out[1]]
            if g is None:
                continue  # not on f's graph
            saves = row.saves
            if not saves:
                res = row.backward(F, ctx, g, **params) if params else row.backward(F, ctx, g)
            else:
                saved = [out[0] if s == "out" else (args[s][0] if args[s].__class__ is _T else args[s])
                         for s in saves]
                res = row.backward(F, ctx, g, *saved, **params) if params else row.backward(F, ctx, g, *saved)
            for a, gi in zip(args, res):
                if gi is not None and a.__class__ is _T:
                    if gi.__class__ is not _FLOAT64 and (gi.__class__ is not _NDARRAY or gi.shape
                                                         or gi.dtype != _FLOAT64):
                        raise _Decline
                    prev = grads[a[1]]
                    grads[a[1]] = gi if prev is None else prev + gi
    result = lane.JobResult(source=source, order=1, value=f[0], shape=(), dtype="float64", device="cpu")
    result.grad = {name: grads[v[1]] for name, v in variables.items() if grads[v[1]] is not None}
    return result
