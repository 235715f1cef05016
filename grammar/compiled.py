"""The compiled form of one-line scalar eval jobs: a template's straight-line program over the
op table's rows -- the stage of eval's pipeline that takes most batch jobs.

Most batch jobs are one line such as `x = 0.37; 1.3*x**2 + sin(0.8*x) - 2`: number bindings,
then a formula of + - * / **, unary minus and calls of elementwise functions. A line's
*template* -- the line with every number literal as a slot -- is read once, by an
operator-precedence pass, into a program: a straight line of forward steps over registers (the
numbers first, then each step's result) and the rows' backward formulas for the reverse pass.
A line whose template was seen before goes straight to running the program on its own
numbers; a template in heavy use (HOT runs) is written out as straight-line Python, the same calls
in the same order with the registers as local variables (Python's compile() costs as much as a few
hundred runs of a program save, so a batch of distinct lines never pays it).

It is not a second engine: every value comes from the op table's `forward` and every derivative
from its `backward` (through the same raw-array `F` the engine's backward uses), applied in the
engine's order -- the engine runs nodes newest first, which on a tape is reverse order, and adds
gradients in that order -- so results are bit-identical to the interpreter's. The rows an
operator reaches are the ones the engine's operators reach (`2 / x` is reciprocal then mul,
`x ** 2` is pow_scalar, ...), and the functions are the language's own names whose engine
function is one elementwise row (its `_row`). Arithmetic between plain numbers is the
interpreter's own `binary`/`unary`. A variable is a float64 numpy scalar here where the engine's
leaf holds a 0-d array: the rows compute through numpy's ufuncs (never Python's `**`), which give
a scalar and a 0-d array the same bits.

--wrt picks among the gradients the lane computes (a name f does not use: a zero, as the
pipeline's), and --jacobian of a scalar f by scalar variables is its gradient (the same backward,
one row). --order 2 takes grammar/compiled_second.py: the lane's steps and its recording of the
first backward. The options that differentiate f further (--order 3 and up, --weights of a list,
--hessian, --check, and tensors bound on the command line) take `evaluate`: the same template read into a program of the
language's own operations -- the interpreter's `binary` and `unary`, the functions' calls, its
variables and stores, in its order -- run on engine tensors, which leaves the very values, graph
and names the interpreter would; grammar/job.py then differentiates f with the one step every job
takes (_differentiate).

Anything else -- another statement form, a name that is not a bound variable, a function of a
number, --formula or --graph, any error at all -- returns None, and the job takes the
interpreter (which then gives the exact message, column and hint). tests/grammar/test_compiled_jobs.py
and test_compiled_options.py check both agree bit for bit on generated jobs, and that this form
really takes them.
"""
import functools
import inspect
import keyword
import operator
import re
import sys

import numpy

from ..engine.core.autograd import quiet_numpy, ALREADY_QUIET
from .results import JobResult

__all__ = ["run", "evaluate", "constant", "forget_programs", "taken", "lane_for"]

MAX_TOKENS = 1000         # longer lines take the full pipeline (its step budget then applies as usual)
MIN_STEPS = 10_000        # a --max-steps below this: the full pipeline, which counts steps
MIN_MEMORY = 64 << 20     # a --max-memory below this: the full pipeline, which enforces it
CACHE_SIZE = 4096         # compiled templates kept (the oldest is dropped first)
MAX_TENSOR = 4096          # elements of a tensor bound on the command line that the lane takes: a line's
                          # few hundred arrays of it stay far within MIN_MEMORY, which the lane does not
                          # watch (larger: the engine form, under the job's memory budget)
HOT = 256                 # a template run this often gets straight-line Python: Python's compile() costs
                          # ~0.8 ms, which its ~3 us a run less pays back after some 270 runs

# The tokenizer: operators get spaces around them ("**" is read as "^"; a line holding "^" itself is
# declined) and str.split does the rest -- chained str.replace costs a quarter of a regular expression.
_ALLOWED = frozenset("0123456789.eE_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ ()+-*/;=")
_OPERATORS = frozenset("()+-*/;=^")
_DIGITS = frozenset("0123456789.")

# A number literal as the tokenizer reads one, not touching a name or another digit or point:
# (?<![\w.])((?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)(?![\w.]). A line's template is the line split
# around these; a template is only kept when this finds exactly the literals the tokenizer read, so
# any line with that template reads the same way. Written here with the first character taken before
# the look back (a digit or a point that nothing of a name or number precedes), so that the regular
# expression engine can skip straight to candidate characters; and, where Python reads them (3.11),
# with possessive quantifiers, which match the same (nothing after one can start with what it took)
# without keeping backtracking state: the two together split a line in 30% less time.
_LITERAL_PATTERN = r"((?:\d(?<![\w.]\d)\d*\.?\d*|\.(?<![\w.]\.)\d+)(?:[eE][-+]?\d+)?)(?![\w.])"
_LITERAL_POSSESSIVE = r"((?:\d(?<![\w.]\d)\d*+\.?+\d*+|\.(?<![\w.]\.)\d++)(?:[eE][-+]?+\d++)?+)(?![\w.])"
_LITERAL = re.compile(_LITERAL_POSSESSIVE if sys.version_info >= (3, 11) else _LITERAL_PATTERN)

# binary operators: precedence; ** (here ^) is the right-associative one
_PREC = {"+": 1, "-": 1, "*": 2, "/": 2, "^": 4}
_UNARY_PREC = 3  # between * and **: -x**2 is -(x**2), 2**-x is 2**(-x)
_UNARY = {"-": ("u-", _UNARY_PREC), "+": ("u+", _UNARY_PREC)}
_OPEN = ("(", 0)

# what a value is, while compiling: a Python number, a tensor made by a row, or a variable (a leaf)
_NUMBER, _TENSOR, _LEAF = 0, 1, 2

# what a step of a program does; registers hold the numbers first, then each step's result
_T2, _T1, _NUM2, _MAKE_LEAF, _NUM1, _CALL, _STORE = range(7)


class _Decline(Exception):
    """This job is not for the lane: run the full pipeline."""


# what a compiled form meets where its job is not for it (the pipeline then says why, where)
DECLINED = (_Decline, ArithmeticError, ValueError, TypeError, AttributeError, MemoryError, RecursionError, KeyError,
            IndexError)


class _Ctx:
    """What a row's backward reads of its node: which inputs want a gradient, and their shapes. (Its
    parameters too, in the engine; here a row gets its one parameter positionally, after its saved
    values, as the table's backward formulas take them. A formula that reads anything else of its
    node meets an AttributeError, and the job takes the interpreter.)"""
    __slots__ = ("needs", "shapes")

    def __init__(self, needs, shapes):
        self.needs = needs
        self.shapes = shapes


# A register holds a Python number (numbers stay numbers, as in the language) or a tensor's value:
# a float64 numpy scalar for a variable, else exactly the object the engine's tensor would hold (a
# numpy scalar, or the 0-d array numpy.where makes). A tensor's gradient goes in the same index of
# the job's list of gradients.

# the node of an op without parameters, by which inputs are tensors (numbers: no gradient, no shape);
# backward formulas only read it, so one serves every op alike
_ONE = _Ctx((True,), ((),))
_BOTH = _Ctx((True, True), ((), ()))
_FIRST = _Ctx((True, False), ((), None))
_SECOND = _Ctx((False, True), (None, ()))


class _Lane:
    """The tables the lane needs, built once from the engine and the language."""

    @functools.cached_property
    def builtins(self):
        """The language's names (the engine form's calls): imported when a job first needs them."""
        from .names import BUILTINS
        return BUILTINS

    @functools.cached_property
    def functions(self):
        """The language's functions that are one elementwise row applied to a tensor (name -> row):
        found when a job first calls a function (reading the rows' signatures costs a start)."""
        functions = _row_functions(self._table)
        for row in functions.values():
            self.parts.setdefault(row, parts_of(row))
        return functions

    def __init__(self):
        from ..engine.core.op import TABLE
        from ..engine.ops import arithmetic  # noqa: F401  (its rows: the lane's own; the rest load when met)
        from ..engine.dtypes import float64
        from ..engine.core.mathspace import array_math
        from ..engine.backend import CPU
        from .arithmetic import binary, unary
        self.F = array_math(CPU)
        self.binary = binary
        self.unary = unary
        t = TABLE
        self.rows = {"+": t["add"], "-": t["sub"], "*": t["mul"], "/": t["div"], "^": t["pow"]}
        self.neg, self.reciprocal, self.mul = t["neg"], t["reciprocal"], t["mul"]
        self.pow_scalar, self.rpow_scalar = t["pow_scalar"], t["rpow_scalar"]
        rows = list(self.rows.values()) + [self.neg, self.reciprocal, self.pow_scalar, self.rpow_scalar]
        for row in rows:
            if not _lean_row(row):
                raise AssertionError(f"op row {row.name} no longer fits the compiled form")
        for row, param in ((self.pow_scalar, "exponent"), (self.rpow_scalar, "base")):
            if not (_argument(row.forward, 2) == param and  # after xp and the tensor
                     _argument(row.backward, 3 + len(row.saves)) == param):
                raise AssertionError(f"op row {row.name}: its {param} no longer follows its tensors")
        # what the compiler reads of a row, looked up once (an attribute of a row class is a slow
        # lookup): its forward, its backward, and how many values that takes after g, picked how
        # (the functions' rows join when `functions` is first read)
        self.parts = {row: parts_of(row, row in (self.pow_scalar, self.rpow_scalar)) for row in rows}
        self._table = t
        self.float64 = float64
        from ..engine.dtypes import _default as default_dtype
        from ..engine.backend import _default_device as default_device
        self.default_dtype, self.default_device = default_dtype, default_device  # E.get_default_*'s cells
        self.JobResult = JobResult


# the names the language gives a meaning of its own over the engine's function (grammar/names.py's
# BUILTINS: Python's abs and round on numbers, which take a tensor too)
_LANGUAGE_OWN = frozenset({"abs", "round"})


def _row_functions(table):
    """The language's functions that are one lean elementwise row applied to a tensor: name -> row.
    Read from the op table, not from the language's BUILTINS, whose import is most of the engine's
    Python API (the lane starts without it); tests/grammar/test_compiled.py checks that the two
    agree. A name that several rows share is an overload (not one row); torch.special's own rows
    (special_erfcx: torch.special.erfcx) are not the language's functions."""
    rows = {}
    for row in table.complete().values():
        if getattr(row, "parsed", None) is None:
            continue
        for name in row.names:
            rows.setdefault(name, []).append(row)
    return {name: found[0] for name, found in rows.items()
            if len(found) == 1 and name not in _LANGUAGE_OWN and not name.startswith("special_")
            and _lean_row(found[0]) and _one_input(found[0].parsed)}  # (lean first: parsing costs)


def _one_input(signature):
    """A signature of one tensor and nothing else but keyword options (clone(input, *, memory_format=None)),
    and one result (frexp's row is its mantissa, but the function gives (mantissa, exponent))."""
    return signature.params[0].is_tensor and all(p.keyword_only and not p.required for p in signature.params[1:]) \
        and len(signature.returns) == 1


def _lean_row(row):
    """A row whose node the lane can stand in for: elementwise, no view, no device move,
    nothing kept but its inputs and output."""
    return (row.elementwise and row.differentiable and not row.is_view and not row.moves_device
            and not row.saves_params and all(s == "out" or isinstance(s, int) for s in row.saves))


def _argument(function, index):
    """The name of a function's positional parameter `index` (None past the last)."""
    names = list(inspect.signature(function).parameters)
    return names[index] if index < len(names) else None


def parts_of(row, has_param=False):
    """What the compiler reads of a row, looked up once (an attribute of a row class is a slow
    lookup): its forward, its backward, and how many values that takes after g, picked how."""
    return (row.forward, row.backward) + _picker(row.saves, has_param)


def _picker(saves, has_param):
    """(n, pick): how many values a row's backward takes after g -- what it saves, then its
    parameter, which comes in the second input's place --, and a function (first input, second
    input, output, None) -> the registers of the first two (None for none), or (the tuple of all,
    None) past two (the compiler picks registers with it)."""
    index = [2 if s == "out" else s for s in saves] + ([1] if has_param else [])
    n = len(index)
    if n > 2:
        get = operator.itemgetter(*index)
        return n, lambda registers: (get(registers), None)
    return n, operator.itemgetter(*(index + [3] * (2 - n)))


_lane = None
_programs = {}   # a line's template -> its compiled program


def forget_programs():
    """Drop every compiled template (a benchmark timing a batch as if its lines were new)."""
    _programs.clear()


def _get_lane():
    global _lane
    if _lane is None:
        _lane = _Lane()
    return _lane


def run(source, bindings, options):
    """The JobResult of `source` from its template's compiled form, or None when the job is not one
    this form takes (the pipeline then runs it through the interpreter, or `evaluate` its program)."""
    lane = lane_for(source, options, 0)
    if lane is None:
        return None
    try:
        program, registers = _prepared(lane, source, bindings, _Compiler, arrays=True)
        if registers and registers[0].__class__ is _NDARRAY:  # tensors bound on the command line
            return _tensor_result(lane, program, registers, source, options)
        root = _ROOT_GRAD if options.weights is None else _weight(options.weights)
        code = program.code
        if code is not None:  # a template in use: its straight-line Python
            quiet = quiet_numpy()  # the backward's inf and nan come out silently, as in the engine's
            value, grad = code(registers, None if quiet is ALREADY_QUIET else quiet, root)
        else:
            program.runs += 1
            if program.runs == HOT:
                program.code = _generate(program)
            value, grad = _result(lane, program, _execute(program.steps, registers), root)
        if options.wrt:
            grad = _chosen(program, grad, options.wrt)
        taken["lane"] += 1
        result = JobResult.scalar(source, value, grad)
        if options.jacobian:  # of a scalar f by each scalar variable: its gradient (the same backward, one row)
            result.jacobian = {name: numpy.array(g) for name, g in grad.items()}
        return result
    except DECLINED:
        return None


def _tensor_result(lane, program, registers, source, options):
    """The JobResult of a job whose variables are tensors of one shape bound on the command line
    (`--set x=[...]`), f weighted by a number or by weights of f's shape: the rows on the arrays, the
    backward from the weights -- a number as one number, as the engine's backward takes a uniform
    gradient through elementwise rows (one number until a row makes it an array), each variable's
    spread to its shape at the end (--wrt's names that f does not use: zeros of it). The same values
    as the engine form's; _Decline where the job is not one of these (a variable of another shape, f
    not weighted, weights of another shape, --jacobian: the engine form)."""
    shape = registers[0].shape
    if options.weights is None or options.jacobian or registers[0].size == 1 or registers[0].size > MAX_TENSOR:
        raise _Decline  # (one element: the engine's backward takes its weight as an array, not one number)
    weights = constant(options.weights)
    if weights.__class__ is list:
        root = _float64_array(weights)
        if root.shape != shape:
            raise _Decline  # (spread by the engine form)
    else:
        root = _number_weight(weights)
    _execute(program.steps, registers, shape=shape)
    for _, r in program.variables:
        v = registers[r]
        if v.__class__ is not _NDARRAY or v.shape != shape:
            raise _Decline  # a number variable among tensors: its gradient is a sum (the engine form)
    value, grad = _result(lane, program, registers, root, shape)
    for g in grad.values():
        if numpy.isnan(g).any():  # a NaN's sign bit: the engine's array loops' where it spreads the weight
            raise _Decline  # as a broadcast array, not this one number's (x86's default NaN differs)
    grad = {name: g if g.__class__ is _NDARRAY and g.shape == shape else numpy.full(shape, g)
            for name, g in grad.items()}
    if options.wrt:
        grad = _chosen(program, grad, options.wrt, numpy.zeros(shape))
    result = JobResult.scalar(source, value, grad)
    result.shape = shape
    taken["lane"] += 1
    return result


def checked(source, bindings, options, check):
    """A --check job by the lane: f and its gradient as `run` gives them (with a number --weights w,
    w f's), then the finite differences of `check(number of names, {name: variable's value}, grad,
    value_at)` (job.py's: the check's three dicts, or None to decline) with value_at(names, values)
    f's value (w f) where the variables of those names hold those values -- the lane's forward again,
    which gives the engine form's bits. None where the lane does not take the job."""
    lane = lane_for(source, options, 4)
    if lane is None:
        return None
    try:
        program, registers = _prepared(lane, source, bindings, _Compiler)
        if sum(step[0] == _MAKE_LEAF for step in program.steps) != len(program.variables):
            raise _Decline  # a name bound twice: the engine form's runs hold it at each binding
        numbers = registers[:]
        weight = None if options.weights is None else _weight(options.weights)
        value, grad = _result(lane, program, _execute(program.steps, registers),
                              _ROOT_GRAD if weight is None else weight)
        if not grad:
            raise _Decline  # (f depends on no variable: the engine form's message)
        held = dict(program.variables)
        if options.wrt:
            grad = _chosen(program, grad, options.wrt)
            held = {name: variable_of(program, name)[1] for name in options.wrt}
        steps, f = program.steps, program.f

        def value_at(names, values):  # (weighted: f * w, as the engine form's (f * w).sum() of a scalar f)
            value = _execute(steps, numbers[:], {held[n]: _FLOAT64(v) for n, v in zip(names, values)})[f]
            return value if weight is None else value * weight

        result = JobResult.scalar(source, value, grad)
        with quiet_numpy():  # (the runs' inf and nan as the engine form's)
            checked = check(len(program.names), {name: registers[held[name]] for name in grad}, grad, value_at)
        if checked is None:
            raise _Decline
        result.check, result.check_ok, result.check_notes = checked
        taken["lane"] += 1
        return result
    except DECLINED:
        return None


def lane_for(source, options, form):
    """The lane's tables where a job of `source` with these options may take `form` (0: the lane,
    1: `evaluate`, 2: --order 2's lane, 3: --hessian's, compiled_second.py, 4: `checked`), else None:
    the defaults must hold (CPU, float64) and the line be one the tokenizer reads ("^", the language's
    other spelling of **: the full pipeline)."""
    fit = options.compiled_fit
    if fit is None:
        fit = options.compiled_fit = _options_fit(options)
    if not fit[form] or len(source) > 8 * MAX_TOKENS or not _ALLOWED.issuperset(source) or "^" in source:
        return None
    lane = _lane or _get_lane()
    if lane.default_dtype[0] is not lane.float64 or lane.default_device[0].type != "cpu":
        return None
    return lane


# how many jobs each form of this module took, by form (a test's way to see the route a job took)
taken = {"lane": 0, "engine": 0}


def _prepared(lane, source, bindings, compiler, arrays=False):
    """(the program of the line's template read by `compiler`, its registers of numbers): the
    command line's values first, then the line's literals. _Decline where it has none. `arrays`:
    the lane takes tensors bound on the command line as float64 arrays (run's, all of one shape)."""
    # the command line's values first: one that is not a number declines before any compiling
    # (a tensor bound on the command line: the lane's other forms decline at once)
    read = _binding_array if arrays else _binding_number if compiler is _Compiler else _binding_value
    bound = [read(lane, name, text) for name, text in bindings] if bindings else []
    if arrays and bound and any(v.__class__ is _NDARRAY for v in bound):
        if not all(v.__class__ is _NDARRAY and v.shape == bound[0].shape for v in bound):
            raise _Decline  # numbers and tensors, or tensors of two shapes: the engine form
    pieces = _LITERAL.split(source)   # text, literal, text, literal, ..., text
    literals = pieces[1::2]
    names = tuple(name for name, _ in bindings) if bindings else ()
    key = ("#".join(pieces[0::2]), names, compiler)
    program = _programs.get(key)
    if program is None:
        program = _compile(lane, names, _tokens(source), literals, compiler)
        if len(_programs) >= CACHE_SIZE:
            del _programs[next(iter(_programs))]
        _programs[key] = program
    # the commonest literals read inline: with a point, a float; digits alone, an int (unless
    # 0-led: _value_of declines 007)
    registers = [float(t) if "." in t else int(t) if t.isdigit() and t[0] != "0" else _value_of(t)
                 for t in literals]
    if bound:
        registers[:0] = bound
    return program, registers


def _weight(text):
    """--weights of a scalar f, a number: the gradient its backward starts with (the engine's: the
    number as a float64 0-d tensor holds it); _Decline for anything else (a list: the pipeline)."""
    return _number_weight(constant(text))


def _number_weight(value):
    """A weight read from --weights (constant()), a number, as the backward's float64 starting gradient."""
    if value.__class__ is not int and value.__class__ is not float:
        raise _Decline
    return _FLOAT64(numpy.array(value, dtype=_FLOAT64))


def _chosen(program, grad, wrt, zero=None):
    """The gradients by the --wrt names, in their order: each must name a variable (a name holding
    one that the program made, as the pipeline's choice reads them), and one f does not depend on
    has a zero gradient (as the pipeline's); _Decline for any other name (the pipeline says why)."""
    chosen = {}
    for name in wrt:
        g = grad.get(variable_of(program, name)[0])
        chosen[name] = (numpy.zeros(()) if zero is None else zero.copy()) if g is None else g
    return chosen


def variable_of(program, name):
    """(the variable, its register) that --wrt `name` holds at the end of the program, as the pipeline's
    choice reads the names; _Decline where it holds none (the pipeline then says why)."""
    held = program.names.get(name)
    if held is None or held[1] != _LEAF:
        raise _Decline
    for variable, register in program.variables:
        if register == held[0]:
            return variable, register
    raise _Decline  # an earlier variable of a name bound again: the pipeline


def evaluate(source, bindings, options, leaf, overrides=None):
    """The job's program run as its template's compiled form on engine tensors, the interpreter's
    operations in its order -- its values, graph and names as the interpreter leaves them --: (f,
    {name: variable} in binding order, {name: value}); `leaf(number or list)` makes a variable, as
    the interpreter's binding does; `overrides` as _operations takes them. None where this form does
    not take the job (or the program fails: the pipeline then says why, where)."""
    lane = lane_for(source, options, 1)
    if lane is None:
        return None
    try:
        program, registers = _prepared(lane, source, bindings, _Operations)
        return _operations(lane, program, registers, leaf, overrides)
    except Exception:  # any error at all: the pipeline's, with its line and column
        return None


def _operations(lane, program, registers, leaf, overrides=None):
    """Run an _Operations program: (f, variables, names). `overrides` {name: tensor}: what each of
    these names holds wherever the program binds it (from the start, as the interpreter's
    overrides: --check's runs at perturbed values)."""
    binary, unary = lane.binary, lane.unary
    variables, names = {}, {}
    if overrides:
        for name, value in overrides.items():
            _bind(variables, names, name, value)
    append = registers.append
    for code, what, ra, rb in program.steps:
        if code == _NUM2:
            append(binary(what, registers[ra], registers[rb]))
        elif code == _NUM1:
            append(unary(what, registers[ra]))
        elif code == _CALL:
            append(what(registers[ra]))
        elif overrides and what in overrides:  # _MAKE_LEAF or _STORE of a name overridden
            append(_bind(variables, names, what, overrides[what]))
        else:  # a number bound to a name (a new variable), or a tensor stored
            append(_bind(variables, names, what, leaf(registers[ra]) if code == _MAKE_LEAF else registers[ra]))
    return registers[program.f], variables, names


def _bind(variables, names, name, value):
    """`name` holds tensor `value`, which is a variable of that name when it is one (a leaf that
    requires grad) that no other name has made a variable already, as the interpreter binds."""
    if value.grad_fn is None and value.requires_grad and all(v is not value for v in variables.values()):
        variables[name] = value
    names[name] = value
    return value


def _options_fit(options):
    """(whether a job with these options may take the lane, `evaluate`, --order 2's lane, the Hessian's
    lane, the lane's --check): the lane serves the defaults, --wrt, --jacobian and --weights of a
    number; --order 2's lane (compiled_second.py) --order 2 and 3 with those but --jacobian; the
    Hessian's (compiled_second.py too) --hessian with --wrt and --weights of a number; `checked`
    --check with those; `evaluate` every option that differentiates f (not --formula or --graph,
    which read the interpreter's record of each value); each on the CPU in float64, within the
    budgets a one-line program cannot reach."""
    engine = not (options.formula or options.graph or options.device not in (None, "cpu")
                  or options.dtype not in (None, "float64")
                  or options.max_steps < MIN_STEPS or options.max_memory < MIN_MEMORY)
    lane = engine and not (options.order != 1 or options.hessian or options.check
                           or options.weights is not None and options.jacobian  # (a Jacobian is not weighted)
                           or options.jacobian and options.jacobian_mode == "forward")  # (its gradient: reverse)
    second = engine and options.order in (2, 3) and not (options.hessian or options.check or options.jacobian)
    hessian = engine and options.order == 1 and options.hessian and not (options.check or options.jacobian)
    check = engine and options.order == 1 and options.check and not (options.hessian or options.jacobian)
    return lane, engine, second, hessian, check


def _number(text):
    """A number token as the language reads it, or _Decline."""
    if not _LITERAL.fullmatch(text):
        raise _Decline
    return _value_of(text)


def _value_of(literal):
    """A literal the pattern found, as the language reads it: float with a point or an exponent,
    else int -- but a whole number with a leading 0 other than zeros (007) the language refuses,
    as Python does: the pipeline says so."""
    if "." in literal or "e" in literal or "E" in literal:
        return float(literal)
    if literal[0] == "0" and literal.strip("0"):
        raise _Decline
    return int(literal)


def _tokens(source):
    """The line's tokens; an exponent's sign (1e-5) is put back into its number, and a name's "("
    stays on it ("sin(": a call, to the reader)."""
    parts = (source.replace("**", " ^ ").replace("(", "( ").replace(")", " ) ").replace("+", " + ")
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


def _binding_number(lane, name, text):
    """The number of a command-line binding `name=text`."""
    if not name.isidentifier() or keyword.iskeyword(name):
        raise _Decline
    parts = _tokens(text)
    negative = parts[0] == "-"
    if len(parts) != 1 + negative:
        raise _Decline
    number = _number(parts[-1])
    return lane.unary("-", number) if negative else number


_EXACT_INT = 2 ** 53


def _binding_array(lane, name, text):
    """A command-line binding as the lane takes it: a number, or a list of numbers (nested lists
    too) as the float64 array of it the engine's binding makes; _Decline for anything else (a ragged
    list, an empty one, a whole number that float64 would round)."""
    if text[0] != "[":
        return _binding_number(lane, name, text)
    return _float64_array(_binding_value(lane, name, text))


def _float64_array(value):
    """Nested lists of numbers as the float64 array the engine makes of them; _Decline for a ragged
    or empty list, or a whole number that float64 would round."""
    stack = [value]
    while stack:
        v = stack.pop()
        if v.__class__ is list:
            stack.extend(v)
        elif v.__class__ is int:
            if not -_EXACT_INT < v < _EXACT_INT:
                raise _Decline
        elif v.__class__ is not float:
            raise _Decline
    try:
        array = numpy.array(value, dtype=numpy.float64)
    except ValueError:  # ragged
        raise _Decline from None
    if not array.shape or not array.size:
        raise _Decline
    return array


def _binding_value(lane, name, text):
    """The value of a command-line binding `name=text` as the language reads it: a number, or a
    list of numbers (nested lists too) -- read without recursion; _Decline for anything else."""
    if text[0] != "[":
        return _binding_number(lane, name, text)
    if not name.isidentifier() or keyword.iskeyword(name):
        raise _Decline
    stack = [[]]
    expect_item = True   # after "[" or ",": an item (or, after "[", its "]")
    for tok in text.replace("[", " [ ").replace("]", " ] ").replace(",", " , ").split():
        if tok == "[" and expect_item:
            stack.append([])
        elif tok == "]" and (expect_item and not stack[-1] or not expect_item) and len(stack) > 1:
            items = stack.pop()
            stack[-1].append(items)
            expect_item = False
        elif tok == "," and not expect_item:
            expect_item = True
        elif expect_item and tok not in "[],":
            number = _number(tok[1:] if tok[0] == "-" else tok)
            stack[-1].append(lane.unary("-", number) if tok[0] == "-" else number)
            expect_item = False
        else:
            raise _Decline
    if len(stack) != 1 or len(stack[0]) != 1:
        raise _Decline
    return stack[0][0]


def constant(text):
    """A value given on the command line (--weights) as the language reads it when it is a number or
    a list of numbers; None for anything else."""
    try:
        return _binding_value(_lane or _get_lane(), "value", text.strip())
    except (_Decline, ArithmeticError, ValueError, TypeError, IndexError):
        return None


# ------------------------------------------------------------------------------------------- compiling

class _Compiler:
    """Reads a line's tokens into a program: a straight line of steps over registers that hold
    the numbers first (the command line's, then the line's literals, in order), then each step's
    result; and, for the backward, each row step's formula with the registers it reads and the
    registers its gradients go to. While reading, an operand is (register, kind)."""

    def __init__(self, lane, n_bound, n_literals):
        self.lane = lane
        self.parts = lane.parts
        self.steps = []
        self.backward = []   # in the steps' order; run reversed
        self.literals = []   # the number literals read, in order
        self.n_bound = n_bound                   # numbers from the command line, before the literals
        self.n_numbers = n_bound + n_literals
        self.variables = {}  # name -> the register of its variable, in binding order

    def emit(self, step, kind=_TENSOR):
        """Add a step (code, what, first input, second input): its result's operand."""
        self.steps.append(step)
        return self.n_numbers + len(self.steps) - 1, kind

    def variable(self, name, number):
        """A number bound to a name: a variable."""
        out = self.emit((_MAKE_LEAF, None, number, None), _LEAF)
        self.variables[name] = out[0]
        return out

    def unary(self, row, a):
        """`row` applied to tensor a: its forward step, and its backward step as _backward reads it."""
        forward, backward, n, pick = self.parts[row]
        va = a[0]
        steps = self.steps
        steps.append((_T1, forward, va, None))
        out = self.n_numbers + len(steps) - 1
        s0, s1 = pick((va, va, out, None))
        self.backward.append((n, backward, _ONE, out, s0, s1, va, -1))
        return out, _TENSOR

    def binary(self, row, a, b):
        """`row` applied to a and b (two tensors, or a tensor and a number either way round): its
        forward step, and its backward step as _backward reads it."""
        forward, backward, n, pick = self.parts[row]
        va, kind_a = a
        vb, kind_b = b
        steps = self.steps
        steps.append((_T2, forward, va, vb))
        out = self.n_numbers + len(steps) - 1
        s0, s1 = pick((va, vb, out, None))
        if kind_a == _NUMBER:
            self.backward.append((n, backward, _SECOND, out, s0, s1, -1, vb))
        elif kind_b == _NUMBER:
            self.backward.append((n, backward, _FIRST, out, s0, s1, va, -1))
        else:
            self.backward.append((n, backward, _BOTH, out, s0, s1, va, vb))
        return out, _TENSOR

    def sign(self, op, x):
        """Unary minus or plus of tensor x: neg's row, or x itself."""
        return self.unary(self.lane.neg, x) if op == "u-" else x

    def call(self, marker, x):
        """A function (marker: its row, its name) of tensor x."""
        return self.unary(marker[0], x)

    def store(self, name, value):
        """`name = value`, a tensor: the name holds it (an alias of a variable stays that variable)."""
        return value

    def operator(self, op, a, b):
        """`a op b`, a tensor among them, by the rows the engine's operators reach."""
        lane = self.lane
        if a[1] != _NUMBER:
            if op != "^":
                return self.binary(lane.rows[op], a, b)
            if b[1] == _NUMBER:
                return self.power_row(lane.pow_scalar, a, b, "exponent")
            return self.power_row(lane.rows[op], a, b)
        if op == "/":  # number / tensor is reciprocal(tensor) * number, as the engine computes it
            return self.binary(lane.mul, self.unary(lane.reciprocal, b), a)
        if op == "^":
            return self.power_row(lane.rpow_scalar, b, a, "base")
        return self.binary(lane.rows[op], a, b)

    def power_row(self, row, a, b, param=None):
        """A ** row of tensor a and tensor b, or of tensor a and its number parameter `param`
        ("exponent" or "base") b."""
        forward, backward, n, pick = self.parts[row]
        va, vb = a[0], b[0]
        steps = self.steps
        steps.append((_T2, forward, va, vb))  # a parameter goes in the second input's place (_Lane checks)
        out = self.n_numbers + len(steps) - 1
        s0, s1 = pick((va, vb, out, None))
        if param:
            self.backward.append((n, backward, _ONE, out, s0, s1, a[0], -1))
        else:
            self.backward.append((n, backward, _BOTH, out, s0, s1, a[0], b[0]))
        return out, _TENSOR


class _Program:
    """A template's compiled form: its steps (the numbers' registers first, then each step's
    result), its backward steps newest first, f's register, its variables' and the names' at the
    end ({name: (register, kind)}) -- and, once the template is in use (HOT runs), the same steps
    as straight-line Python (`code`)."""
    __slots__ = ("steps", "backward", "f", "variables", "names", "n_numbers", "runs", "code", "second")

    def __init__(self, c, f, names):
        self.steps, self.backward, self.f, self.n_numbers = c.steps, c.backward[::-1], f, c.n_numbers
        self.variables = tuple(c.variables.items())
        self.names = names
        self.runs = 0
        self.code = None
        self.second = None  # --order 2's recordings of the first backward (compiled_second.py)


def _compile(lane, names, parts, literals, compiler=_Compiler):
    """The program of a line (its tokens) whose number literals are `literals`, with `names`
    bound on the command line first, read by `compiler` (_Compiler: over the rows; _Operations:
    over the language's operators, for the engine)."""
    c = compiler(lane, len(names), len(literals))
    f, values = _read(c, names, parts, literals)
    return _Program(c, f[0], values)


def _read(c, names, parts, literals):
    """Read a line's statements into compiler `c`: (f's operand, {name: operand} at the end)."""
    values = {}      # name -> operand, as the program's globals
    for k, name in enumerate(names):
        values[name] = c.variable(name, k)
    statements = []
    start = 0
    for _ in range(parts.count(";")):
        end = parts.index(";", start)
        statements.append(parts[start:end])
        start = end + 1
    statements.append(parts[start:])
    last = len(statements) - 1
    f = None
    for k, stmt in enumerate(statements):
        if len(stmt) >= 3 and stmt[1] == "=":
            name = stmt[0]
            if k == last or not name.isidentifier() or keyword.iskeyword(name):
                raise _Decline
            value = _expression(c, stmt[2:], values)
            if value[1] == _NUMBER:  # a number: eval makes it a variable
                value = c.variable(name, value[0])
            else:                    # a tensor: stored (an alias of a variable stays that variable)
                value = c.store(name, value)
            values[name] = value
        elif k == last:
            f = _expression(c, stmt, values)
        else:
            raise _Decline
    if f[1] != _TENSOR or c.literals != literals:
        # f a number or a bare variable (the full pipeline says what that means); or literals the
        # template's pattern reads otherwise than the tokenizer (as in 2x): the pipeline's error
        raise _Decline
    return f, values


class _Operations(_Compiler):
    """Reads a line's tokens into a program of the language's own operations -- the interpreter's
    `binary` and `unary`, the functions' calls, its variables and stores -- in the interpreter's
    order, for `evaluate` to run on engine tensors: the very graph the interpreter builds, for the
    options that differentiate it further (--order, --jacobian, ...). A step: (code, what, first
    register, second register)."""

    def variable(self, name, number):
        out = self.emit((_MAKE_LEAF, name, number, None), _LEAF)
        self.variables[name] = out[0]
        return out

    def sign(self, op, x):
        return self.emit((_NUM1, op[1], x[0], None))

    def call(self, marker, x):
        return self.emit((_CALL, self.lane.builtins[marker[1]], x[0], None))

    def store(self, name, value):
        return self.emit((_STORE, name, value[0], None), value[1])

    def operator(self, op, a, b):
        return self.emit((_NUM2, "**" if op == "^" else op, a[0], b[0]))


def _expression(c, tokens, values):
    """Read one expression's tokens (operator precedence, no recursion): its operand."""
    operands = []
    # (what, precedence): a binary operator, a unary one ("u-", "u+"), or -- at precedence 0, which
    # stops every reduction -- an open parenthesis ("(", 0) or a call's (row, 0)
    operators = []
    expect_operand = True
    literals = c.literals
    k = c.n_bound + len(literals)  # the register of the next number literal
    for tok in tokens:
        if expect_operand:
            if tok in _OPERATORS:
                if tok == "(":
                    operators.append(_OPEN)
                elif tok == "-" or tok == "+":
                    operators.append(_UNARY[tok])
                else:
                    raise _Decline
            elif tok[0] in _DIGITS:  # a number literal: its register follows the earlier ones'
                literals.append(tok)
                operands.append((k, _NUMBER))
                k += 1
                expect_operand = False
            elif tok[-1] == "(":  # a call: the tokenizer keeps a name's "(" on it
                row = c.lane.functions.get(tok[:-1])
                if row is None or tok[:-1] in values:
                    raise _Decline
                operators.append(((row, tok[:-1]), 0))
            else:
                value = values.get(tok)
                if value is None:
                    raise _Decline  # a builtin constant, a function or a NameError: the full pipeline
                operands.append(value)
                expect_operand = False
        elif (prec := _PREC.get(tok)) is not None:
            while operators:
                top = operators[-1][1]
                if top < prec or (top == prec and prec == 4):  # ** is right-associative
                    break
                _reduce(c, operators.pop()[0], operands)
            operators.append((tok, prec))
            expect_operand = True
        elif tok == ")":
            while operators and operators[-1][1]:
                _reduce(c, operators.pop()[0], operands)
            if not operators:
                raise _Decline
            marker = operators.pop()[0]
            if marker.__class__ is not str:  # a call's (row, name), not "("
                x = operands.pop()
                if x[1] == _NUMBER:
                    raise _Decline  # a function of a number: the full pipeline
                operands.append(c.call(marker, x))
        else:
            raise _Decline  # two operands in a row, '=' or '(' after an operand, ...
    if expect_operand:
        raise _Decline
    while operators:
        op, prec = operators.pop()
        if not prec:
            raise _Decline  # a parenthesis left open
        _reduce(c, op, operands)
    return operands[0]


def _reduce(c, op, operands):
    """One operator on the operands on top of the stack, as the language applies it: numbers
    by the interpreter's own arithmetic, tensors by the compiler's `sign` and `operator`."""
    if op[0] == "u":
        x = operands.pop()
        if x[1] == _NUMBER:
            operands.append(c.emit((_NUM1, op[1], x[0], None), _NUMBER))
        else:
            operands.append(c.sign(op, x))
        return
    b = operands.pop()
    a = operands.pop()
    if a[1] == _NUMBER and b[1] == _NUMBER:
        operands.append(c.emit((_NUM2, "**" if op == "^" else op, a[0], b[0]), _NUMBER))
    else:
        operands.append(c.operator(op, a, b))


# ------------------------------------------------------------------------------------------- running

_FLOAT64 = numpy.float64
_NDARRAY = numpy.ndarray
_ROOT_GRAD = _FLOAT64(1.0)  # what the engine starts a scalar's backward with (ones_like(f)), as a scalar


def _execute(steps, registers, leaves=None, shape=()):
    """Run a program's steps, appending each result to the registers (`leaves`: {register: value} of
    variables that hold another value than their number, --check's runs at perturbed values;
    `shape`: the tensors' shape, where tensors bound on the command line make the variables)."""
    append = registers.append
    np, float64, ndarray = numpy, _FLOAT64, _NDARRAY
    for code, what, ra, rb in steps:
        if code == 0:  # _T2
            out = what(np, registers[ra], registers[rb])
        elif code == 1:  # _T1
            out = what(np, registers[ra])
        elif code == _MAKE_LEAF:
            number = registers[ra]
            append(number if number.__class__ is ndarray else _FLOAT64(float(number))
                   if leaves is None or len(registers) not in leaves else leaves[len(registers)])
            continue
        elif code == _NUM2:
            append(_lane.binary(what, registers[ra], registers[rb]))
            continue
        else:
            append(_lane.unary(what, registers[ra]))
            continue
        if out.__class__ is not float64 and (out.__class__ is not ndarray or out.shape != shape
                                             or out.dtype != float64) or shape and out.__class__ is float64:
            raise _Decline  # a 0-d array (numpy.where's result) is kept as it is, as the engine keeps it
        append(out)
    return registers


def _result(lane, program, registers, root=_ROOT_GRAD, shape=()):
    """Backward over the row steps, newest first (the engine's order): (f, {name: gradient}).
    `shape`: the tensors' (_tensor_result's); a gradient is then an array of it or one number."""
    backward, f, variables = program.backward, program.f, program.variables
    F = lane.F
    grads = [None] * len(registers)
    grads[f] = root
    quiet = quiet_numpy()  # inf and nan come out silently, as in the engine's backward
    if quiet is ALREADY_QUIET:  # a batch: numpy is quiet already, no context to enter
        _backward(F, backward, registers, grads, shape)
    else:
        with quiet:
            _backward(F, backward, registers, grads, shape)
    if len(variables) == 1:  # the commonest: one variable (no comprehension's frame)
        (name, r), = variables
        g = grads[r]
        grad = {} if g is None else {name: g}
    else:
        grad = {name: grads[r] for name, r in variables if grads[r] is not None}
    return registers[f], grad


def _backward(F, backward, registers, grads, shape=()):
    """The row steps' formulas, newest first, adding each tensor input's gradient into `grads`.
    A step: (how many values its formula takes after g, formula, node, the register of its
    output's gradient, the registers of its first two values -- or, past two, the tuple of them --,
    the registers its inputs' gradients go to, -1 for a number). `shape`: the tensors' shape, where
    a gradient is an array of it or one number (the same everywhere)."""
    float64, ndarray = _FLOAT64, _NDARRAY
    for n, bwd, ctx, out, s0, s1, ia, ib in backward:
        g = grads[out]
        if g is None:
            continue  # not on f's graph
        # calls with a fixed number of arguments stay in the interpreter's fast path
        if n == 1:
            res = bwd(F, ctx, g, registers[s0])
        elif n == 2:
            res = bwd(F, ctx, g, registers[s0], registers[s1])
        elif n == 0:
            res = bwd(F, ctx, g)
        else:
            res = bwd(F, ctx, g, *[registers[s] for s in s0])
        # each tensor input's gradient, first input then second (x*x: both to x, in that order)
        if ia >= 0 and (gi := res[0]) is not None:
            if gi.__class__ is not float64 and (gi.__class__ is not ndarray or gi.dtype != float64
                                                or gi.shape and gi.shape != shape):
                raise _Decline
            prev = grads[ia]
            grads[ia] = gi if prev is None else prev + gi
        if ib >= 0 and (gi := res[1]) is not None:
            if gi.__class__ is not float64 and (gi.__class__ is not ndarray or gi.dtype != float64
                                                or gi.shape and gi.shape != shape):
                raise _Decline
            prev = grads[ib]
            grads[ib] = gi if prev is None else prev + gi


# ------------------------------------------------------------------------------------------- code

def _generate(program):
    """The program as straight-line Python: the very calls _execute and _backward make, in their
    order, with the registers as local variables -- no loop, no dispatch. Returns a function of
    (registers, errstate, root) -> (f, {name: gradient}); errstate, where given, makes numpy quiet for
    the backward (a batch has made it quiet already); root: the gradient f's backward starts with."""
    names = {}

    def name_of(obj):
        return names.setdefault(obj, f"c{len(names)}")

    forward = [f"    r{k} = R[{k}]" for k in range(program.n_numbers)]
    out = program.n_numbers
    for code, what, ra, rb in program.steps:
        if code == _T2 or code == _T1:
            args = f"r{ra}, r{rb}" if code == _T2 else f"r{ra}"
            forward += [f"    r{out} = {name_of(what)}(np, {args})", f"    if r{out}.__class__ is not float64:",
                        f"        _scalar(r{out})"]
        elif code == _MAKE_LEAF:
            forward.append(f"    r{out} = float64(float(r{ra}))")
        elif code == _NUM2:
            forward.append(f"    r{out} = binary({what!r}, r{ra}, r{rb})")
        else:
            forward.append(f"    r{out} = unary({what!r}, r{ra})")
        out += 1
    backward, graded = _backward_lines(program, name_of)
    lines = ["def program(R, errstate, ROOT):"] + forward + \
        ["    if errstate is not None:", "        errstate.__enter__()", "    try:"] + \
        [f"        g{k} = None" for k in sorted(graded - {program.f})] + [f"        g{program.f} = ROOT"] + \
        ["    " + line for line in backward] + ["        grad = {}"]
    for name, k in program.variables:
        if k in graded:
            lines += [f"        if g{k} is not None:", f"            grad[{name!r}] = g{k}"]
    lines += [f"        return r{program.f}, grad", "    finally:", "        if errstate is not None:",
              "            errstate.__exit__(None, None, None)"]
    source = "\n".join(lines) + "\n"
    namespace = {v: k for k, v in names.items()}
    namespace.update(np=numpy, F=_lane.F, float64=_FLOAT64, _scalar=_scalar,
                     binary=_lane.binary, unary=_lane.unary)
    exec(compile(source, "<compiled template>", "exec"), namespace)
    function = namespace["program"]
    function.__source__ = source
    return function


def _backward_lines(program, name_of):
    """The backward steps as lines (newest first), and the registers that may get a gradient."""
    lines = []
    f = program.f
    graded = {f}
    for n, bwd, ctx, out, s0, s1, ia, ib in program.backward:
        if out not in graded:
            continue  # not on f's graph
        values = [f"r{s}" for s in s0] if n > 2 else [f"r{s}" for s in (s0, s1)[:n]]
        pad = "    "
        if out != f:
            lines.append(f"    if g{out} is not None:")
            pad = "        "
        lines.append(f"{pad}res = {name_of(bwd)}(F, {name_of(ctx)}, g{out}" + "".join(f", {v}" for v in values) + ")")
        for i, k in ((0, ia), (1, ib)):  # first input then second (x*x: both to x, in that order)
            if k < 0:
                continue
            lines += [f"{pad}gi = res[{i}]", f"{pad}if gi is not None:",
                      f"{pad}    if gi.__class__ is not float64:", f"{pad}        _scalar(gi)",
                      f"{pad}    g{k} = gi" if k not in graded else f"{pad}    g{k} = gi if g{k} is None else g{k} + gi"]
            graded.add(k)
    return lines, graded


def _scalar(v):
    """What _backward and _execute accept of a result: a float64 scalar, or the 0-d float64 array
    numpy.where makes (kept as it is, as the engine keeps it); _Decline for anything else."""
    if v.__class__ is not _NDARRAY or v.shape or v.dtype != _FLOAT64:
        raise _Decline
    return v
