"""--order 2 in the compiled form: a template's first backward recorded once as steps, then each
job's second derivatives by the first-order lane's own backward over forward and recorded steps.

The engine form of an --order 2 job runs f's backward with create_graph=True -- the rows' backward
formulas applied as engine ops, each recording a node -- and then, for each variable, a backward
from that variable's first derivative. Here the first backward is run once per template on
stand-ins (`_Sym` for a tensor, `_SymNum` for a number the formulas read as a parameter, such as
pow_scalar's exponent): each table op a formula applies, each of Python's operators on a stand-in,
each addition of two gradients becomes a step of the template's straight line, through the same
_Compiler methods the forward's steps came from -- the rows the engine's operators reach, the same
operands in the same order. Python arithmetic on a parameter (exponent - 1) becomes a step of
Python's own arithmetic; a comparison of one (exponent == 0) is a guard: its outcome on the job that
recorded the steps is kept, and a job whose numbers answer otherwise gets (or records) steps of its
own. Anything else a formula does with a stand-in -- reading a tensor's value in Python, a table op
that is not elementwise, a parameter passed by keyword but pow_scalar's -- declines, and the job
takes the engine form.

The recorded steps are the nodes the engine's first backward records, in its order (a node per
op whose inputs need a gradient; `live` marks those); the second pass is compiled._backward over
forward and recorded steps newest first, which is the engine's order (each node newest first), with
each input's need as the engine's node has it. So the values are the engine form's, bit for bit
(tests/grammar/test_compiled_second.py checks generated jobs against it).

The same recording serves --hessian (each row a backward from one variable's first derivative, read
at every variable, seeded as the engine form's one batched backward over all of them is seeded) and
--order 3 (the backward from each variable's first derivative recorded in its turn, over the first
recording's steps, then a backward from the second derivative);
tests/grammar/test_compiled_hessian_check.py checks those.
"""
import operator

import numpy

from . import compiled as C
from .results import JobResult

__all__ = ["run"]

# step codes of recorded steps, after the forward's (compiled.py's _T2 .. _STORE)
_CONST, _ROOT, _PY2, _ZEROS = range(10, 14)
_TENSOR_CODES = (C._T1, C._T2, C._MAKE_LEAF, _ROOT, _ZEROS)
MAX_VARIANTS = 4  # recordings kept per template (one per outcome of its guards)
_ZERO = numpy.float64(0.0)

# The table ops the lane's rows' backward formulas apply, besides the lane's own rows (a formula that
# applies any other declines). As the lane's, each gives a float64 scalar and a 0-d array the same
# bits: tests/grammar/test_compiled_jobs.py checks them with the lane's rows.
FORMULA_ROWS = ("rsqrt", "sin", "cos", "sinh", "cosh", "exp", "sign", "special_i1", "log", "sigmoid_backward",
                "tanh_backward")
_parts = {}


def formula_parts(lane):
    """{row: what the compiler reads of it} for the lane's rows and FORMULA_ROWS."""
    if not _parts:
        from ..engine.ops import TABLE
        lane.functions  # (their rows join lane.parts when first read)
        parts = dict(lane.parts)
        for name in FORMULA_ROWS:
            row = TABLE[name]
            if not C._lean_row(row):
                raise AssertionError(f"op row {name} no longer fits the compiled form")
            parts.setdefault(row, C.parts_of(row))
        _parts.update(parts)
    return _parts


class _Sym:
    """A tensor register while the first backward is recorded: Python's operators on it are the
    engine's Tensor operators, recorded; reading its value in Python declines."""
    __slots__ = ("rec", "r")
    __array_ufunc__ = None  # (numpy hands a mixed operation back to these methods)

    def __init__(self, rec, r):
        self.rec, self.r = rec, r

    def __add__(self, o):
        return self.rec.operator("+", self, o)

    def __radd__(self, o):
        return self.rec.operator("+", o, self)

    def __sub__(self, o):
        return self.rec.operator("-", self, o)

    def __rsub__(self, o):
        return self.rec.operator("-", o, self)

    def __mul__(self, o):
        return self.rec.operator("*", self, o)

    def __rmul__(self, o):
        return self.rec.operator("*", o, self)

    def __truediv__(self, o):
        return self.rec.operator("/", self, o)

    def __rtruediv__(self, o):
        return self.rec.operator("/", o, self)

    def __pow__(self, o):
        return self.rec.operator("^", self, o)

    def __rpow__(self, o):
        return self.rec.operator("^", o, self)

    def __neg__(self):
        return self.rec.neg(self)

    def __pos__(self):
        return self

    def _decline(self, *args):
        raise C._Decline

    __bool__ = __float__ = __int__ = __index__ = __abs__ = _decline
    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = __and__ = __or__ = __invert__ = _decline
    __hash__ = object.__hash__


class _SymNum:
    """A number register a formula reads (a parameter): arithmetic with numbers is a recorded step
    of Python's arithmetic, with a tensor the engine's operator; a comparison is a guard."""
    __slots__ = ("rec", "r")

    def __init__(self, rec, r):
        self.rec, self.r = rec, r

    def _arith(symbol, function, swap=False):
        def method(self, o):
            a, b = (o, self) if swap else (self, o)
            if o.__class__ is _Sym:
                return self.rec.operator(symbol, a, b)
            return self.rec.number_step(function, a, b)
        return method

    __add__, __radd__ = _arith("+", operator.add), _arith("+", operator.add, True)
    __sub__, __rsub__ = _arith("-", operator.sub), _arith("-", operator.sub, True)
    __mul__, __rmul__ = _arith("*", operator.mul), _arith("*", operator.mul, True)
    __truediv__, __rtruediv__ = _arith("/", operator.truediv), _arith("/", operator.truediv, True)

    def _compare(function):
        def method(self, o):
            return self.rec.guard(function, self, o)
        return method

    __eq__, __ne__ = _compare(operator.eq), _compare(operator.ne)
    __lt__, __le__, __gt__, __ge__ = (_compare(operator.lt), _compare(operator.le), _compare(operator.gt),
                                      _compare(operator.ge))
    __hash__ = object.__hash__

    def _decline(self, *args):
        raise C._Decline

    __bool__ = __float__ = __int__ = __index__ = __neg__ = __pow__ = __rpow__ = __abs__ = _decline


class _RecordingF:
    """The `F` a backward formula gets while recorded: each table op a step (graph=True, as the
    engine's create_graph pass has it, so the formulas take their recorded form)."""
    graph = True

    def __init__(self, rec):
        self._rec = rec

    def zeros_like(self, a):
        return self._rec.zeros_like(a)

    def pow_scalar(self, x, exponent):
        return self._rec.power(x, exponent)

    def __getattr__(self, name):
        row = self._rec.table.get(name)
        if row not in self._rec.c.parts:
            raise C._Decline
        return lambda *args, **kwargs: self._rec.call(row, args, kwargs)


class _Recorder:
    """Emits the recorded steps through a _Compiler continuing the template's forward program, and
    keeps the value of each number register the formulas read or make (for guards); which
    registers are live (on the graph) is worked out after the recording (_live)."""

    def __init__(self, lane, program, registers):
        from ..engine.ops import TABLE
        c = C._Compiler(lane, 0, 0)
        c.parts = formula_parts(lane)
        c.n_numbers = program.n_numbers
        c.steps = list(program.steps)
        c.backward = program.backward[::-1]  # in the steps' order, as the compiler keeps them
        self.c, self.table, self.registers, self.numbers, self.constants = c, TABLE, registers, {}, {}
        self.guards = []
        self.forward_entries = len(c.backward)

    def is_number(self, r):
        return r < self.c.n_numbers or self.c.steps[r - self.c.n_numbers][0] not in _TENSOR_CODES

    def value_of(self, r):
        """A register's stand-in: a number's or a tensor's."""
        return _SymNum(self, r) if self.is_number(r) else _Sym(self, r)

    def number(self, r):
        """A number register's value for the job recording the steps."""
        return self.registers[r] if r < len(self.registers) else self.numbers[r]

    def operand(self, v):
        """A value as the compiler's operand (register, kind); a Python number gets a register."""
        if v.__class__ is _Sym:
            return v.r, C._TENSOR
        if v.__class__ is _SymNum:
            return v.r, C._NUMBER
        if v.__class__ is int or v.__class__ is float:
            key = (v.__class__, repr(v))  # (0.0 and -0.0 are two)
            r = self.constants.get(key)
            if r is None:
                r = self.constants[key] = self.emit((_CONST, v, -1, -1), v)
            return r, C._NUMBER
        raise C._Decline

    def emit(self, step, number=None):
        r = self.c.emit(step)[0]
        if number is not None:
            self.numbers[r] = number
        return r

    def operator(self, symbol, a, b):
        if a.__class__ is _Sym and b.__class__ is _Sym and symbol != "^":  # (the commonest: c.operator's first case)
            return _Sym(self, self.c.binary(self.c.lane.rows[symbol], (a.r, C._TENSOR), (b.r, C._TENSOR))[0])
        return _Sym(self, self.c.operator(symbol, self.operand(a), self.operand(b))[0])

    def neg(self, a):
        return _Sym(self, self.c.unary(self.c.lane.neg, self.operand(a))[0])

    def power(self, x, exponent):
        return _Sym(self, self.c.power_row(self.c.lane.pow_scalar, self.operand(x), self.operand(exponent),
                                           "exponent")[0])

    def call(self, row, args, kwargs):
        if kwargs or not 1 <= len(args) <= 2 or not all(a.__class__ is _Sym for a in args):
            raise C._Decline
        if len(args) == 1:
            return _Sym(self, self.c.unary(row, self.operand(args[0]))[0])
        return _Sym(self, self.c.binary(row, self.operand(args[0]), self.operand(args[1]))[0])

    def zeros_like(self, a):
        return _Sym(self, self.emit((_ZEROS, None, self.operand(a)[0], -1)))

    def number_step(self, function, a, b):
        (ra, _), (rb, _) = self.operand(a), self.operand(b)
        return _SymNum(self, self.emit((_PY2, function, ra, rb), function(self.number(ra), self.number(rb))))

    def guard(self, function, a, o):
        if o.__class__ is not int and o.__class__ is not float:
            raise C._Decline
        outcome = function(self.number(a.r), o)
        self.guards.append((a.r, function, o, outcome))
        return outcome


class _Second:
    """A template's recorded first backward: its steps (after the forward's), its guards, the
    backward entries of forward and recorded steps newest first, and (name, register, its first
    derivative's register: -1 where f is linear in it) of each variable f depends on."""
    __slots__ = ("steps", "guards", "backward", "first", "again", "live")

    def holds(self, registers):
        for r, function, o, outcome in self.guards:
            if function(registers[r], o) is not outcome:
                return False
        return True


def _record(lane, program, registers):
    """Record the engine's first backward of `program` (whose forward ran into `registers`)."""
    rec = _Recorder(lane, program, registers)
    F = _RecordingF(rec)
    root = _Sym(rec, rec.emit((_ROOT, None, -1, -1)))
    grads = {program.f: root}
    for n, bwd, ctx, out, s0, s1, ia, ib in program.backward:
        g = grads.get(out)
        if g is None:
            continue
        res = bwd(F, ctx, g, *[rec.value_of(s) for s in ((s0, s1)[:n] if n <= 2 else s0)])
        for i, k in ((0, ia), (1, ib)):
            if k >= 0 and (gi := res[i]) is not None:
                if gi.__class__ is not _Sym:
                    raise C._Decline
                prev = grads.get(k)
                grads[k] = gi if prev is None else prev + gi
    second = _Second()
    second.again = {}  # --order 3: {variable's register: recordings of the backward from its first derivative}
    first_step = len(program.steps)
    second.steps = rec.c.steps[first_step:]
    second.guards = tuple(rec.guards)
    base = getattr(program, "live", None)  # (an _Again's: its first recording's)
    live = second.live = _live(rec, base, first_step if base is not None else 0)
    second.backward = _entries(rec, live)
    second.first = [(name, r, -1 if grads[r].r not in live else grads[r].r) for name, r in program.variables
                    if r in grads]
    return second


_CTX = {}


def _live(rec, base=None, start=0):
    """The registers on the graph (a gradient flows to them): the forward's tensors, and each
    recorded step one of whose inputs is live -- the engine records a node for those alone. `base`:
    those of the steps before `start`, known already (a recording over a recording's steps)."""
    c = rec.c
    live = set() if base is None else set(base)
    n = c.n_numbers
    for k in range(start, len(c.steps)):
        code, _, ra, rb = c.steps[k]
        if code == C._MAKE_LEAF or (code == C._T1 and ra in live) or (code == C._T2 and (ra in live or rb in live)):
            live.add(n + k)
    return live


def _entries(rec, live):
    """The backward entries of forward and recorded steps, newest first: a recorded step's only
    where it is live, each input's need as the engine's node has it (whether that input is live)."""
    entries = rec.c.backward[:rec.forward_entries]
    for n, bwd, ctx, out, s0, s1, ia, ib in rec.c.backward[rec.forward_entries:]:
        if out not in live:
            continue
        ia, ib = (ia if ia in live else -1), (ib if ib in live else -1)
        needs = (ia >= 0,) if len(ctx.needs) == 1 else (ia >= 0, ib >= 0)
        key = (needs, ctx.shapes)
        if key not in _CTX:
            _CTX[key] = C._Ctx(needs, ctx.shapes)
        entries.append((n, bwd, _CTX[key], out, s0, s1, ia, ib))
    return entries[::-1]


def _run_steps(steps, registers, root):
    """The recorded steps on a job's registers (after its forward)."""
    append = registers.append
    np, float64, ndarray = numpy, C._FLOAT64, C._NDARRAY
    for code, what, ra, rb in steps:
        if code == C._T2:
            out = what(np, registers[ra], registers[rb])
        elif code == C._T1:
            out = what(np, registers[ra])
        elif code == _CONST:
            append(what)
            continue
        elif code == _PY2:
            append(what(registers[ra], registers[rb]))
            continue
        elif code == _ROOT:
            append(root)
            continue
        else:  # _ZEROS, as the engine's zeros_like of a 0-d float64 tensor
            append(np.zeros((), dtype=float64))
            continue
        if out.__class__ is not float64 and (out.__class__ is not ndarray or out.shape or out.dtype != float64):
            raise C._Decline
        append(out)


def run(source, bindings, options):
    """The JobResult of an --order 2 or 3 or a --hessian job by its template's recorded first backward,
    or None where this form does not take it (the engine form then does)."""
    hessian = options.hessian
    lane = C.lane_for(source, options, 3 if hessian else 2)
    if lane is None:
        return None
    try:
        program, registers = C._prepared(lane, source, bindings, C._Compiler)
        root = C._ROOT_GRAD if options.weights is None else C._weight(options.weights)
        C._execute(program.steps, registers)
        with C.quiet_numpy():  # the backward's inf and nan come out silently, as in the engine's
            form = _hessian if hessian else _third_derivatives if options.order == 3 else _derivatives
            result = form(lane, program, registers, root, options)
        result.source = source
        C.taken["lane"] += 1
        return result
    except C.DECLINED:
        return None


def _recorded(lane, program, registers, root):
    """The program's recording of its first backward whose guards hold for this job (`program.second`
    keeps them), its steps run on the job's registers (after its forward; recorded first where no
    recording's guards hold)."""
    forward = len(registers)
    variants = program.second
    if variants is None:
        variants = program.second = []
    for second in variants:
        _run_steps(second.steps, registers, root)
        if second.holds(registers):
            return second
        del registers[forward:]
    if len(variants) >= MAX_VARIANTS:
        raise C._Decline
    second = _record(lane, program, registers)
    variants.append(second)
    _run_steps(second.steps, registers, root)
    return second


def _derivatives(lane, program, registers, root, options):
    """Each variable's second derivative (a backward from its first derivative): the JobResult."""
    second = _recorded(lane, program, registers, root)
    # the variables f reaches (the engine form's choice without --wrt), or --wrt's
    grad = {name: _second_derivative(lane, second, registers, first, r) for name, r, first in second.first}
    if options.wrt:
        grad = C._chosen(program, grad, options.wrt)
    result = JobResult.scalar(None, registers[program.f], grad)
    result.order = 2
    return result


class _Again:
    """What _record and _recorded read of a program, for the backward from one variable's first
    derivative over forward and recorded steps (--order 3's second backward, recorded in its turn;
    `second` holds its recordings, kept in the first recording's `again` by variable)."""
    __slots__ = ("steps", "backward", "f", "variables", "n_numbers", "second", "live")

    def __init__(self, program, second, variable, first):
        self.steps, self.backward, self.f = program.steps + second.steps, second.backward, first
        self.variables, self.n_numbers, self.live = [variable], program.n_numbers, second.live
        self.second = second.again.setdefault(variable[1], [])


def _third_derivatives(lane, program, registers, root, options):
    """Each variable's third derivative, as the engine form chains them: the first backward recorded,
    then the backward from the variable's first derivative to it recorded in its turn (the engine form's
    create_graph pass by that variable alone), then a backward from its second derivative. The
    JobResult."""
    second = _recorded(lane, program, registers, root)
    grad = {}
    for name, r, first in second.first:
        g = None
        if first >= 0:
            base = len(registers)
            again = _Again(program, second, (name, r), first)
            third = _recorded(lane, again, registers, C._ROOT_GRAD)
            (_, _, h), = third.first or ((None, None, -1),)
            derivatives = _derivatives_of(lane, third, registers, h)
            g = None if derivatives is None else derivatives[r]
            del registers[base:]
        grad[name] = numpy.zeros(()) if g is None else g
    if options.wrt:
        grad = C._chosen(program, grad, options.wrt)
    result = JobResult.scalar(None, registers[program.f], grad)
    result.order = 3
    return result


def _hessian(lane, program, registers, root, options):
    """f's gradient by the lane's own backward (the engine form's first derivatives, made without a
    graph), then the Hessian's rows: a backward from each variable's first derivative over the
    recorded first backward, read at every variable (the rows of the engine form's Jacobian of the
    gradient). The JobResult."""
    value, grad = C._result(lane, program, registers, root)
    second = _recorded(lane, program, registers, root)
    columns = {name: (r, first) for name, r, first in second.first}
    if options.wrt:
        grad = C._chosen(program, grad, options.wrt)
        columns = {name: _held(program, second, name) for name in options.wrt}
    elif list(columns) != list(grad):
        raise C._Decline  # (the first backward reached other variables than the lane's: not met)
    hessian = {}
    firsts = [first for r, first in columns.values()]
    for i, (name, (r, first)) in enumerate(columns.items()):
        # the engine form's rows come from one backward over every first derivative at once, each
        # row's seed 1 at its own and 0 at the others': the zeros it carries along give its signs
        derivatives = _derivatives_of(lane, second, registers, first, firsts, i)
        row = hessian[name] = {other: numpy.zeros(()) if derivatives is None or derivatives[rc] is None
                               else derivatives[rc] for other, (rc, _) in columns.items()}
        for v in row.values():
            if v != v:  # a NaN: its sign bit is the array loops' in the engine form's batch, not these
                raise C._Decline  # scalars' (x86's default NaN differs between numpy's two), so it takes it
    result = JobResult.scalar(None, value, grad)
    result.hessian = hessian
    return result


def _held(program, second, name):
    """(the register of the variable --wrt `name` holds, that of its first derivative: -1 where f is
    linear in it or does not depend on it)."""
    register = C.variable_of(program, name)[1]
    for _, r, first in second.first:
        if r == register:
            return register, first
    return register, -1


def _derivatives_of(lane, second, registers, first, firsts=None, row=0):
    """The gradients (by register) of a backward from the first derivative in register `first`, over
    forward and recorded steps -- or, given `firsts`, from all of them, 1 into the one at position
    `row` (that is `first`) and 0 into the others, added in their order as the engine adds its roots'
    gradients (two variables may share a first derivative); None where `first` is no function of any
    variable (-1)."""
    if first < 0:
        return None
    grads = [None] * len(registers)
    for k, r in enumerate(firsts or (first,)):
        if r >= 0:
            seed = C._ROOT_GRAD if k == row else _ZERO
            grads[r] = seed if grads[r] is None else grads[r] + seed
    C._backward(lane.F, second.backward, registers, grads)
    return grads


def _second_derivative(lane, second, registers, first, variable):
    """d2f/dx2 of the variable in register `variable`: a backward from its first derivative's
    register `first` (zero where that does not depend on it, -1, as the engine form's)."""
    grads = _derivatives_of(lane, second, registers, first)
    g = None if grads is None else grads[variable]
    return numpy.zeros(()) if g is None else g
