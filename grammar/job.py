"""One `eval` job: run a program, take its final value f, and differentiate it.

This is where eval's meaning lives (the command line only formats what comes
back): bindings become variables, `--wrt` picks them (by default every bound
float variable f depends on), `--order` chains grad with create_graph,
`--weights` weights a non-scalar f, `--tangent` gives variables tangents and f's
directional derivative comes from forward mode (the program run in a dual
level), the Jacobian from forward mode (the program run again per input
element) or reverse mode, as --jacobian-mode says or f's and the variables'
sizes pick, and the Hessian and a finite-difference check from the same
engine. Results are plain numpy arrays and Python values, ready to print.
"""
import contextlib
import dataclasses
import functools
import math
import os

import numpy

from .. import engine as E
from ..engine.state import isolated
from ..engine import generator
from ..engine.graph import AccumulateGrad, trace_inputs
from ..engine.core import InplaceModifiedError
from ..engine.core.forward import set_tangent
from .budget import BUDGET_HINT, MemoryBudget, current, format_size, in_force, \
    memory_error_message, over_budget
from .errors import LanguageError, ScriptError, SyntaxProblem
from . import compiled, compiled_second
from .results import JobOptions, JobResult, host_value as _host

__all__ = ["JobOptions", "JobResult", "run_job", "parse_binding"]


def parse_binding(text):
    """'NAME=VALUE' -> (name, value text); ValueError with a message otherwise."""
    name, sep, value = text.partition("=")
    name = name.strip()
    if not sep or not name.isidentifier() or not value.strip():
        raise ValueError(f"expected NAME=VALUE, got {text!r}")
    return name, value.strip()


def _calculator_value(value, in_program=False):
    """eval's reading of a bound value: numbers and lists of numbers are float
    tensors that require grad (x=0 is differentiable, as on a calculator). A
    NAME=VALUE binding is a variable whatever its VALUE (`linspace(-1, 1, 5)`);
    a tensor assigned inside the program follows PyTorch's rules (ones(2, 2)
    does not require grad; ones(2, 2, requires_grad=True) does)."""
    if isinstance(value, bool):
        return value
    try:
        if isinstance(value, (int, float)):
            return E.tensor(float(value), requires_grad=True)
        if isinstance(value, list):
            t = E.tensor(value)
            if t.dtype.is_floating_point or t.dtype.name.startswith(("int", "uint")):
                t = t.to(dtype=E.get_default_dtype()).detach()
                t.requires_grad_(True)
            return t
    except OverflowError:
        raise ScriptError("a number is too large to represent (overflow)", kind="OverflowError") from None
    except (ValueError, TypeError) as e:
        raise ScriptError(str(e), kind=type(e).__name__) from None
    if isinstance(value, E.Tensor) and value.is_floating_point() and not in_program:
        return value.requires_grad_(True) if value.grad_fn is None else value.detach().clone().requires_grad_(True)
    return value


def _eval_interpreter(**kw):
    """eval's interpreter (its class made on first use: a job its compiled form takes never
    loads the parser, compiler or interpreter)."""
    global _EvalInterpreter
    if _EvalInterpreter is None:
        _EvalInterpreter = _make_eval_interpreter()
    return _EvalInterpreter(**kw)


_EvalInterpreter = None


def _make_eval_interpreter():
    from .vm import Interpreter

    class EvalInterpreter(Interpreter):
        """eval's interpreter: top-level assignments of numbers make variables."""

        def __init__(self, overrides=None, **kw):
            super().__init__(**kw)
            self.variables = {}       # name -> leaf tensor, in binding order
            self.overrides = overrides or {}
            self.tangents = {}        # name -> the value of its --tangent (attached when it is bound)

        def bind(self, name, value, in_program=False):
            if name in self.overrides:
                value = self.overrides[name]
            else:
                value = _calculator_value(value, in_program)
            if isinstance(value, E.Tensor) and value.is_leaf and value.requires_grad \
                    and all(v is not value for v in self.variables.values()):  # `s = x` is not a new variable
                self.variables[name] = value
                if in_program and name in self.tangents:  # (the command line's: once all are bound)
                    _attach_tangent(name, value, self.tangents.pop(name))
            self.globals[name] = value

        def _store(self, frame, name, value):
            if frame.locals is None and (isinstance(value, (int, float, list)) and not isinstance(value, bool)
                                         or name in self.overrides
                                         or isinstance(value, E.Tensor) and value.grad_fn is None
                                         and value.requires_grad):
                self.bind(name, value, in_program=True)
            else:
                super()._store(frame, name, value)

    return EvalInterpreter


def _unbound_hint(name):
    if len(name) > 40:  # (a long name, of a hostile input: its message holds it once, not the hint three times)
        return "bind it: add NAME=VALUE or --set NAME=VALUE"
    return f"bind it: add {name}=VALUE (e.g. {name}=1) or --set {name}=VALUE"


def _evaluate_value(interp, text, what):
    from .compiler import compile_program
    from .parser import parse_expression
    try:
        expr = parse_expression(text)
    except SyntaxProblem as e:
        raise ScriptError(f"in {what}: {e.message}", hint=e.hint, kind="SyntaxError") from None
    from .syntax import Node
    program = Node("program", (Node("expr", (expr,), expr.start, expr.end),), expr.start, expr.end)
    try:
        return interp.run(compile_program(program, text, keep_last=True))
    except LanguageError as e:
        raise ScriptError(f"in {what}: {e.message}", hint=e.hint, kind=e.kind) from None


def _execute(source, bindings, options, overrides=None, tangents=None):
    """Run the job's program; (interpreter, f). `tangents` {name: tensor}: the variables of those names
    carry them (forward mode's runs for --jacobian, in a dual level, silent as --check's runs are)."""
    from .compiler import compile_program
    from .parser import parse
    program = parse(source)
    if not program.args or program.args[-1].kind != "expr":
        last = program.args[-1] if program.args else None
        raise ScriptError("eval needs an expression at the end: the value f to differentiate",
                          start=last.start if last is not None else 0, end=last.end if last is not None else 1,
                          hint="end the program with an expression, e.g. `y = x**2; y`", kind="SyntaxError")
    code = compile_program(program, source, keep_last=True)
    interp = _eval_interpreter(overrides=overrides, unbound_hint=_unbound_hint, max_steps=options.max_steps,
                              max_depth=options.max_depth,
                              out=options.out if overrides is None and tangents is None else None)
    interp.max_memory = options.max_memory
    if options.graph or options.formula:
        produced = interp.produced = {}

        def record(value):
            if isinstance(value, E.Tensor) and value.grad_fn is not None:
                produced[value.grad_fn] = value
        interp.record = record
    interp.seed, interp.drew = options.seed, None
    if options.seed is None and options.jacobian and overrides is None and tangents is None:
        interp.seed, interp.drew = _replayable(options.jacobian_mode)
    if interp.seed is not None:
        E.manual_seed(interp.seed)
    last = program.args[-1]
    with _pointing_at(last):  # (an option's error points at f, as --wrt's and --weights' do)
        for name, text in options.tangent:
            interp.tangents[name] = _evaluate_value(interp, text, f"--tangent {name}")
    interp.tangents.update(tangents or {})
    for name in interp.overrides:
        interp.bind(name, None)
    for name, text in bindings:
        value = _evaluate_value(interp, text, f"the value of {name}")
        try:
            interp.bind(name, value)
        except ScriptError as e:
            raise ScriptError(f"in the value of {name}: {e.message}", hint=e.hint, kind=e.kind) from None
    with _pointing_at(last):
        for name in [n for n in interp.tangents if n in interp.variables]:
            _attach_tangent(name, interp.variables[name], interp.tangents.pop(name))
    interp.steps = 0  # the step budget is the program's
    interp.final_span = (last.start, last.end)
    f = interp.run(code)
    if interp.drew is not None:
        interp.drew = interp.drew()
    if isinstance(f, (int, float)) and not isinstance(f, bool):
        try:
            f = E.tensor(float(f))
        except OverflowError:
            raise ScriptError("the result is too large to represent (overflow)", start=last.start, end=last.end,
                              kind="OverflowError") from None
    elif isinstance(f, (list, tuple)):
        f = _list_as_tensor(f, last)
    if not isinstance(f, E.Tensor):
        raise ScriptError(f"the final expression is {_describe(f)}, not a number or tensor",
                          start=program.args[-1].start, end=program.args[-1].end, kind="TypeError")
    return interp, f


def _replayable(jacobian_mode):
    """(seed, drew) for a --jacobian job without --seed, whose program forward mode would run again
    drawing the same random numbers: --jacobian-mode forward gives it a fresh seed (as random as
    none); auto sets the generators aside, so that `drew()` after the run says whether it drew any
    (from generators made afresh: auto then takes reverse mode) and puts them back where it drew none."""
    if jacobian_mode == "forward":
        return int.from_bytes(os.urandom(8), "little"), None
    if jacobian_mode == "reverse":
        return None, None
    saved = generator.numpy_generator[0], generator.uniform_generator[0]
    generator.numpy_generator[0] = generator.uniform_generator[0] = None

    def drew():
        if generator.numpy_generator[0] is None and generator.uniform_generator[0] is None:
            generator.numpy_generator[0], generator.uniform_generator[0] = saved
            return False
        return True
    return None, drew


@contextlib.contextmanager
def _pointing_at(node):
    """A ScriptError raised inside with no place of its own points at `node` (f's statement)."""
    try:
        yield
    except ScriptError as e:
        if e.start is None:
            e.start, e.end = node.start, node.end
        raise


def _list_as_tensor(items, last):
    """f written as a list (or tuple): numbers become a tensor; tensors are stacked
    (as torch.stack would), so their graphs are kept and --jacobian sees every entry."""
    stacked = any(isinstance(v, E.Tensor) for v in items)
    try:
        if stacked:
            dtype = E.get_default_dtype()
            return E.stack([v if isinstance(v, E.Tensor) else E.tensor(v, dtype=dtype) for v in items])
        return E.tensor(items, dtype=E.get_default_dtype())
    except (ValueError, TypeError, RuntimeError) as e:
        hint = ("its entries must have one shape (f is stacked, as torch.stack([...]) would)" if stacked else
                "a nested list is a tensor when its rows have one length")
        raise ScriptError(f"f is a list that is not one tensor: {e}", start=last.start, end=last.end,
                          hint=hint, kind=type(e).__name__) from None


def _describe(v):
    """What a value is, in the language's words (an error's text: the namespace is loaded only then)."""
    from .names import describe
    return describe(v)


def _leaves(f):
    """The leaf tensors f's graph reaches (walked with a stack)."""
    found = set()
    if f.grad_fn is None:
        if f.requires_grad:
            found.add(id(f))
        return found
    seen = {f.grad_fn}
    stack = [f.grad_fn]
    while stack:
        node = stack.pop()
        if node.__class__ is AccumulateGrad:
            found.add(id(node.variable))
            continue
        for nxt in node.inputs:
            if nxt is not None and nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return found


def _choose_wrt(interp, f, wanted):
    if wanted:
        chosen = {}
        for name in wanted:
            value = interp.globals.get(name)
            if value is None:
                raise ScriptError(f"--wrt {name}: no variable named {name!r}",
                                  hint=_unbound_hint(name), kind="NameError")
            if not isinstance(value, E.Tensor) or not value.is_floating_point():
                raise ScriptError(f"--wrt {name}: {name} is {_describe(value)}, not a floating-point tensor",
                                  kind="TypeError")
            if not value.requires_grad:
                raise ScriptError(f"--wrt {name}: f was computed from {name} before it required grad, so f has "
                                  f"no derivative by it", hint=f"bind it as {name}=VALUE, or create it with "
                                  "requires_grad=True", kind="RuntimeError")
            chosen[name] = value
        return chosen
    reached = _leaves(f)
    return {name: t for name, t in interp.variables.items() if id(t) in reached}


def _attach_tangent(name, variable, value):
    """--tangent NAME=VALUE: `variable` (a leaf bound to NAME) carries VALUE as its tangent (a number is
    that number everywhere); a tangent that does not fit is the option's error."""
    if not variable.is_floating_point():
        raise ScriptError(f"--tangent {name}: {name} is {_describe(variable)}, not a floating-point tensor",
                          kind="TypeError")
    t = value.detach().to(dtype=variable.dtype) if isinstance(value, E.Tensor) else \
        E.tensor(value, dtype=variable.dtype) if isinstance(value, (int, float, list, tuple)) else None
    if t is None or not t.is_floating_point():
        raise ScriptError(f"--tangent {name}: the tangent is {_describe(value)}, not a number or tensor",
                          kind="TypeError")
    if tuple(t.shape) != tuple(variable.shape):
        try:
            t = E.expand(t, tuple(variable.shape))
        except RuntimeError:
            raise ScriptError(f"--tangent {name} has shape {list(t.shape)}, which doesn't fit {name}'s shape "
                              f"{list(variable.shape)}", hint=f"give one number (the same everywhere) or one per "
                              f"element of {name}", kind="RuntimeError") from None
    set_tangent(variable, t.clone())


def _check_tangents_bound(interp):
    """A --tangent for a name the job never bound as a variable is the option's error."""
    for name in interp.tangents:
        raise ScriptError(f"--tangent {name}: no variable named {name!r}", hint=_unbound_hint(name),
                          kind="NameError")


def _weights(interp, f, text):
    if text is None:
        if f.numel() != 1:
            start, end = getattr(interp, "final_span", (None, None))
            raise ScriptError(f"f is not a scalar (its shape is {list(f.shape)}), so it has no single gradient",
                              start=start, end=end, hint="pass --weights 1 to sum its gradients (or W for a "
                              "weighted sum), differentiate sum(f), or ask for --jacobian", kind="RuntimeError")
        return None
    w = interp.constant(text) if interp.__class__ is _Evaluated else _evaluate_value(interp, text, "--weights")
    w = E.tensor(w, dtype=f.dtype) if not isinstance(w, E.Tensor) else w.to(dtype=f.dtype)
    if tuple(w.shape) != tuple(f.shape):
        try:
            w = E.expand(w, tuple(f.shape))  # a broadcast view: one number repeated costs no memory
        except RuntimeError:
            raise ScriptError(f"--weights has shape {list(w.shape)}, which doesn't fit f's shape {list(f.shape)}",
                              hint="give one weight (all the same) or one per element of f",
                              kind="RuntimeError") from None
    return w


def _zeros_like(t):
    return E.zeros_like(t).detach()


def _derivatives(f, weights, variables, order, keep_graph):
    """{name: the order-th derivative of f by that variable (engine tensors)}."""
    names = list(variables)
    if not names:
        return {}
    tensors = [variables[n] for n in names]
    need_graph = keep_graph or order > 1
    if f.requires_grad:
        first = E.grad(f, tensors, grad_outputs=weights, retain_graph=True, create_graph=need_graph,
                       allow_unused=True)
    else:
        first = [None] * len(tensors)
    out = {}
    for name, x, g in zip(names, tensors, first):
        for k in range(1, order):
            if g is None or not g.requires_grad:
                g = None
                break
            _check_graph_growth(g, k, order)
            # Unless the graph is kept (--formula prints it), the last pass records none (nothing
            # differentiates its result again) and a 0-d g is its own sum: the same values, since
            # the same rows run on the same arrays and a 0-d root's gradient is 1 either way
            root = g if g.ndim == 0 and not keep_graph else g.sum()
            (g,) = E.grad(root, x, retain_graph=True, create_graph=keep_graph or k < order - 1, allow_unused=True)
        out[name] = g if g is not None else _zeros_like(x)
    return out


MAX_MATRIX_ROWS = 100_000  # rows of a Jacobian or Hessian (each a backward pass), or columns of a forward-mode one


def _check_matrix_size(what, rows, columns, itemsize, max_memory, forward=False):
    """Refuse a Jacobian or Hessian too big to hold or too long to compute, before starting it (a
    `forward` one takes a pass per column, else per row)."""
    nbytes = rows * columns * itemsize
    if nbytes > max_memory:
        raise ScriptError(f"{what} would hold {rows * columns:,} numbers ({format_size(nbytes)}), past the job's "
                          f"memory budget {over_budget('max_memory', max_memory)}",
                          hint=BUDGET_HINT + " (or fewer --wrt)", kind="MemoryError")
    passes = columns if forward else rows
    if passes > MAX_MATRIX_ROWS:
        raise ScriptError(f"{what} would take {passes:,} " + ("forward passes, one per column" if forward else
                          "backward passes, one per row") + f" (the limit is {MAX_MATRIX_ROWS:,})",
                          hint="ask for --weights and the gradient, or a smaller f" if not forward else
                          "ask for fewer --wrt, or --jacobian-mode auto", kind="ResourceError")


JACOBIAN_MODES = ("auto", "forward", "reverse")

# how many Jacobians each mode computed (a test's way to see the mode a job took)
jacobian_taken = {"forward": 0, "reverse": 0}


def _jacobian(source, bindings, options, interp, f, variables):
    """--jacobian: {name: J of shape f.shape + x.shape}. In forward mode (--jacobian-mode forward, or
    auto where the variables have fewer elements in all than f and the program drew no random numbers
    unseeded) one run of the program per element of the variables, that element's unit tangent giving
    a column; else in reverse mode, rows from batched backward passes over f's graph. The two are different sums: equal to rounding, not to
    the bit -- so the mode is a function of the job alone (its option and shapes)."""
    inputs = sum(x.numel() for x in variables.values())
    mode = options.jacobian_mode
    if mode == "auto":  # (a program that drew random numbers unseeded cannot be run again to the same f)
        mode = "forward" if inputs < f.numel() and not getattr(interp, "drew", False) else "reverse"
    forward = mode == "forward" and _forward_ready(interp, variables, options.jacobian_mode == "forward")
    _check_matrix_size("the Jacobian", f.numel(), inputs, f.array.itemsize, options.max_memory, forward)
    blocks = _jacobian_forward(source, bindings, options, interp, f, variables) if forward else None
    if blocks is None:  # reverse mode (also auto's, where the program binds a variable again)
        if forward:
            forward = False
            _check_matrix_size("the Jacobian", f.numel(), inputs, f.array.itemsize, options.max_memory)
        blocks = {name: _host(E.jacobian(f, x)) if f.requires_grad else numpy.zeros(tuple(f.shape) + tuple(x.shape))
                  for name, x in variables.items()}
    jacobian_taken["forward" if forward else "reverse"] += 1
    return blocks


def _not_forward(name, why, forced):
    """False (auto takes reverse mode), or --jacobian-mode forward's error: `name` cannot carry a tangent."""
    if not forced:
        return False
    raise ScriptError(f"--jacobian-mode forward: {name} {why}, so forward mode cannot give it a tangent",
                      hint="use --jacobian-mode reverse (or auto)", kind="RuntimeError")


def _forward_ready(interp, variables, forced):
    """Whether forward mode can give each variable a tangent: each is one the job binds (not a value
    computed from others, which --wrt may name)."""
    for name, x in variables.items():
        if interp.variables.get(name) is not x:
            return _not_forward(name, "is computed from other variables, not bound", forced)
    return True


def _jacobian_forward(source, bindings, options, interp, f, variables):
    """{name: J} in forward mode: the program run again in a dual level for each element of each
    variable, with that element's unit tangent (the other variables' tangents 0); f's tangent is the
    column. None where a run shows the program binding a variable again after the tangent went to its
    first binding (auto then takes reverse mode; --jacobian-mode forward's error)."""
    shape = tuple(f.shape)
    if not f.requires_grad:
        return {name: numpy.zeros(shape + tuple(x.shape)) for name, x in variables.items()}
    # the same program, silent, drawing the same random numbers (the first run's seed), nothing else asked
    again = dataclasses.replace(options, tangent=(), jacobian=False, hessian=False, check=False, formula=False,
                                graph=False, seed=getattr(interp, "seed", options.seed))
    dual = E.autograd.forward_ad
    blocks = {}
    for name, x in variables.items():
        columns = []
        for k in range(x.numel()):
            unit = E.zeros(x.numel(), dtype=x.dtype, device=x.device)
            unit[k] = 1
            with dual.dual_level():
                rerun, f_k = _execute(source, bindings, again, tangents={name: unit.reshape(tuple(x.shape))})
                bound = rerun.variables.get(name)
                if bound is None or dual.unpack_dual(bound).tangent is None:
                    return _not_forward(name, "is bound again after its first binding", 
                                        options.jacobian_mode == "forward") or None
                tangent = dual.unpack_dual(f_k).tangent
            columns.append(numpy.zeros(shape, f.array.dtype) if tangent is None else _host(tangent))
        block = numpy.stack(columns, axis=-1) if columns else numpy.zeros(shape + (0,), f.array.dtype)
        blocks[name] = block.reshape(shape + tuple(x.shape)).astype(numpy.dtype(x.array.dtype), copy=False)
    return blocks


MAX_ORDER_GRAPH = 200_000  # nodes: a derivative's graph past this grows a few-fold with every further order


def _check_graph_growth(g, k, order):
    """Refuse an --order whose next derivative would take too long to make: the graph
    of each derivative is typically a few times the size of the one before."""
    nodes = 0
    seen = set()
    stack = [g.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        nodes += 1
        if nodes > MAX_ORDER_GRAPH:
            raise ScriptError(f"--order {order}: the graph of derivative {k} already has more than "
                              f"{MAX_ORDER_GRAPH:,} nodes, and each further order multiplies it",
                              hint=f"ask for a lower --order (this f allows about {k})", kind="ResourceError")
        stack.extend(node.inputs)


@contextlib.contextmanager
def engine_settings(dtype=None, device=None):
    """The engine's default dtype and device set for a while, then put back."""
    if not dtype and not device:
        yield
        return
    previous = (E.get_default_dtype(), E.get_default_device())
    try:
        if dtype:
            E.set_default_dtype(dtype)
        if device:
            E.set_default_device("cuda" if device == "gpu" else device)
        yield
    finally:
        E.set_default_dtype(previous[0])
        E.set_default_device(previous[1])


def run_job(source, bindings=(), options=None):
    """Run one eval job; a JobResult, or a LanguageError raised. Whatever engine
    settings the job changes (grad mode, default dtype, print options, the
    random generator...) are put back afterwards: a job cannot change another's.
    A one-line scalar job with default options or --wrt runs as its template's compiled form
    (compiled.py: the same op rows without the parser and interpreter); a one-line job with other
    options, or tensors bound, has its program run by that form on engine tensors, then differentiated
    here as any job (_run_compiled); anything else through the interpreter."""
    options = options or JobOptions()
    if options.max_items != current.max_items or options.max_digits != current.max_digits or \
            options.max_line_length != current.max_line_length or \
            options.max_program_length != current.max_program_length:  # (a command sets them once for all)
        with in_force(**size_budgets(options)):
            return run_job(source, bindings, options)
    if len(source) <= current.max_line_length and not options.tangent:  # (longer: the parser refuses it)
        result = compiled.run(source, bindings, options)
        if result is None and (options.order in (2, 3) or options.hessian):
            result = compiled_second.run(source, bindings, options)
        if result is None and options.check:
            result = compiled.checked(source, bindings, options, functools.partial(_lane_check, source, options))
        if result is None:  # (a program of the language's operations changes no engine setting: --check's
            # runs through the pipeline seed the random generator, which `isolated` puts back)
            result = isolated(_run_compiled, source, bindings, options) if options.check else \
                _run_compiled(source, bindings, options)
        if result is not None:
            return result
    return isolated(_run_job, source, bindings, options)


_SIZES = ("max_items", "max_digits", "max_line_length", "max_program_length")


def size_budgets(options):
    """{key: value} of the size budgets in `options` (JobOptions or any object with them)."""
    return {key: getattr(options, key) for key in _SIZES}


def _run_job(source, bindings, options):
    if options.check and options.seed is None:
        options.seed = 0  # re-runs for finite differences must draw the same random numbers
    with engine_settings(options.dtype, options.device), \
            MemoryBudget(options.max_memory, enforce=options.device != "cuda"):
        try:
            return _run(source, bindings, options)
        except LanguageError:
            raise
        except MemoryError as e:
            raise out_of_memory(e, options.max_memory) from None
        except InplaceModifiedError as e:
            raise _inplace_script_error(e) from None
        except (RuntimeError, ValueError, TypeError, OverflowError, IndexError, ZeroDivisionError) as e:
            # raised while differentiating f, after the program ran: point at f
            raise ScriptError(str(e), kind=type(e).__name__) from None


class _Evaluated:
    """What differentiating f reads of the interpreter that ran the program, for a program its
    compiled form ran (compiled.evaluate): the names' values, the variables in binding order, the
    steps taken (none counted: _run_compiled takes a --check job only where no run can reach the
    step budget) -- and --weights, read as a command-line value is (a number or a list of them)."""

    steps = 0
    final_span = (None, None)

    def __init__(self, variables, names):
        self.variables, self.globals = variables, names

    def constant(self, text):
        value = compiled.constant(text)
        if value is None:
            raise ScriptError("not a constant")  # (never shown: _run_compiled gives the job to the pipeline)
        return value


def _run_compiled(source, bindings, options):
    """The job's result with its program run as its template's compiled form on engine tensors, then
    differentiated as any job (_differentiate, the same steps, the same results); None where that
    form does not take it or anything fails (the pipeline then runs it and gives the error, where)."""
    if options.check and options.seed is None:
        options.seed = 0  # as _run_job
    # numbers alone, differentiated at most twice: a one-line job then holds a few thousand nodes of
    # 0-d tensors, far within any budget the compiled form takes (MIN_MEMORY), and only the engine's
    # cap on a tensor's size is set, not the process's limit (that costs more than the job)
    small = options.order <= 2 and not any(text.lstrip().startswith("[") for _, text in bindings)
    try:
        with engine_settings(options.dtype, options.device), \
                MemoryBudget(options.max_memory, enforce=options.device != "cuda" and not small):
            evaluated = compiled.evaluate(source, bindings, options, _calculator_value)
            if evaluated is None:
                return None
            f, variables, names = evaluated
            if options.check and _check_runs([v.numel() if isinstance(v, E.Tensor) else None for v in names.values()],
                                             options) > options.max_steps:
                return None
            result = _differentiate(source, bindings, options, _Evaluated(variables, names), f)
    except Exception:
        return None
    compiled.taken["engine"] += 1
    return result


def _check_runs(sizes, options):
    """More steps than --check's runs of a one-line job can take (the pipeline counts them against
    the budget): at most every token an instruction, the program run again twice for every element
    checked of every variable it may be asked about, and three times more for a note, per variable.
    `sizes`: the elements of each name the program binds (None for what is not a tensor)."""
    per_run = (compiled.MIN_STEPS // compiled.MAX_TOKENS) * (compiled.MAX_TOKENS + len(options.weights or ""))
    elements = sum(min(n, _CHECK_LIMIT) for n in sizes if n is not None)
    return per_run * (1 + len(sizes) * (2 * elements + 4))


def _lane_check(source, options, n_names, values, grads, value_at):
    """--check of a job the lane ran (compiled.checked): _check's three dicts, its runs at perturbed
    values the lane's forward (`value_at`); None where the pipeline could count more steps than the
    budget (it then runs the job and counts them)."""
    if _check_runs([1] * n_names, options) > options.max_steps:
        return None
    variables = {name: E.from_numpy(numpy.array(v, dtype=numpy.float64)) for name, v in values.items()}
    return _check(source, (), options, None, variables, grads, value_at)


def out_of_memory(e, max_memory):
    """A MemoryError as the job's error: past its budget (an allocation that failed), or one
    of the language's own size limits (its message says which)."""
    message, hint = memory_error_message(e, max_memory)
    return ScriptError(message, hint=hint, kind="MemoryError")


def _inplace_script_error(e):
    span = getattr(e.node, "span", None)
    err = ScriptError(str(e), span.start if span is not None else None, span.end if span is not None else None,
                      hint="the value was changed in place after this expression used it; change a clone() "
                           "instead, or compute the gradient first", kind="RuntimeError")
    return err


def _run(source, bindings, options):
    if options.formula or options.graph:
        with trace_inputs():  # the graph keeps every argument: formulas read back, constants show in --graph
            return _run_traced(source, bindings, options)
    return _run_traced(source, bindings, options)


def _run_traced(source, bindings, options):
    if options.tangent:  # forward mode: the program runs with its variables' tangents in a dual level
        with E.autograd.forward_ad.dual_level():
            interp, f = _execute(source, bindings, options)
            jvp = E.autograd.forward_ad.unpack_dual(f).tangent
    else:
        interp, f = _execute(source, bindings, options)
    try:
        if options.tangent:
            _check_tangents_bound(interp)
        result = _differentiate(source, bindings, options, interp, f)
        if options.tangent:
            result.jvp = _host(jvp) if jvp is not None else numpy.zeros(tuple(f.shape), f.array.dtype)
        return result
    except LanguageError as e:
        if e.start is None:  # raised while differentiating f: point at f
            e.start, e.end = interp.final_span
        raise
    except InplaceModifiedError:
        raise
    except MemoryError as e:
        err = out_of_memory(e, options.max_memory)
        err.start, err.end = interp.final_span
        raise err from None
    except (RuntimeError, ValueError, TypeError, OverflowError, IndexError, ZeroDivisionError) as e:
        start, end = interp.final_span
        raise ScriptError(str(e), start, end, kind=type(e).__name__) from None


def _differentiate(source, bindings, options, interp, f):
    variables = _choose_wrt(interp, f, options.wrt)
    result = JobResult(source=source, order=options.order, variables=variables)
    result.set_output(f)
    jacobian_only = (options.jacobian or options.tangent) and options.weights is None and f.numel() != 1
    weights = _weights(interp, f, options.weights) if variables and not jacobian_only else None
    # a non-scalar f with --jacobian (or --tangent) and no --weights: the Jacobian (the jvp) is the answer
    derivs = {} if jacobian_only else _derivatives(f, weights, variables, options.order, options.formula)
    result.grad = {name: _host(g) for name, g in derivs.items()}
    result.names = {id(v): name for name, v in interp.globals.items() if isinstance(v, E.Tensor)}
    result.produced = getattr(interp, "produced", None)
    if options.formula:
        from .formula import formula_of
        result.formula = {name: formula_of(g, result.names, source) for name, g in derivs.items()}
    if options.jacobian:
        result.jacobian = _jacobian(source, bindings, options, interp, f, variables)
    if options.hessian:
        if jacobian_only:
            raise ScriptError("the Hessian needs a scalar f", hint="add --weights 1, or use sum(f)")
        n = sum(x.numel() for x in variables.values())
        _check_matrix_size("the Hessian", n, n, f.array.itemsize, options.max_memory)
        result.hessian = _hessian(f, weights, variables)
    if options.check:
        result.check, result.check_ok, result.check_notes = _check(source, bindings, options, interp, variables,
                                                                   result.grad)
    if options.graph:
        result.graph = f
    result.f = f
    return result


def _hessian(f, weights, variables):
    scalar = f if weights is None else (f * weights).sum()
    if scalar.numel() != 1:
        raise ScriptError("the Hessian needs a scalar f", hint="add --weights 1, or use sum(f)")
    names = list(variables)
    tensors = [variables[n] for n in names]
    out = {a: {} for a in names}
    if not scalar.requires_grad:
        for a, xa in zip(names, tensors):
            for b, xb in zip(names, tensors):
                out[a][b] = numpy.zeros(tuple(xa.shape) + tuple(xb.shape))
        return out
    blocks = E.hessian(scalar, tuple(tensors))
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            out[a][b] = _host(blocks[i][j])
    return out


_CHECK_LIMIT = 2000  # elements per variable checked by finite differences


# (atol, rtol) of a derivative against its central difference, by the default dtype
_CHECK_TOLERANCE = {"float64": (1e-5, 1e-4), "float32": (1e-2, 1e-2)}


def _check(source, bindings, options, interp, variables, grads, value_at=None):
    """({name: largest |derivative - central difference|}, {name: within tolerance},
    {name: note}), the differences taken by the engine's gradcheck (of the job re-run
    with perturbed bindings; `value_at(names, values)`: f's value so, where the lane ran
    the job). Where a derivative disagrees, its worst element is
    looked at from each side: if the one-sided slopes differ (a kink, as relu's at 0)
    or one side is undefined (sqrt's at 0), f is not differentiable there and the
    note says so -- the derivative is then PyTorch's convention, not a limit."""
    from ..engine.derivative_check import numerical_jacobian
    wide = E.get_default_dtype() is E.float64
    eps = 1e-6 if wide else 1e-3
    atol, rtol = _CHECK_TOLERANCE["float64" if wide else "float32"]
    oks, notes = {}, {}
    names = list(variables)
    # fresh leaves holding the bindings' values: the differences perturb these in place
    inputs = [E.tensor(_host(variables[n]), dtype=variables[n].dtype) for n in names]
    errors = {}
    steps_left = [options.max_steps - (interp.steps if interp is not None else 0)]  # one budget for all runs
    for k, name in enumerate(names):
        def target(*values, name=name):
            """The scalar whose gradient by `name` is the reported derivative."""
            if value_at is not None:  # (order 1 on the CPU: f itself, or f * w by a number --weights)
                return E.from_numpy(numpy.array(float(value_at(names, [_host(v) for v in values]))))
            overrides = {n: E.tensor(_host(v), dtype=v.dtype, requires_grad=True) for n, v in zip(names, values)}
            sub = JobOptions(order=1, weights=options.weights, seed=options.seed, max_steps=max(steps_left[0], 1),
                             max_memory=options.max_memory, max_depth=options.max_depth)
            interp2, f2 = _run_again(source, bindings, sub, overrides, interp)
            steps_left[0] -= interp2.steps
            w = _weights(interp2, f2, options.weights)
            if options.order == 1:
                return E.tensor(float((f2 if w is None else f2 * w).sum().item()), dtype=E.float64)
            derivs = _derivatives(f2, w, {name: overrides[name]}, options.order - 1, False)
            return E.tensor(float(derivs[name].sum().item()), dtype=E.float64)

        for j, x in enumerate(inputs):
            x.requires_grad_(j == k)  # perturb this variable only
        numeric = numerical_jacobian(target, inputs, eps, max_elements=_CHECK_LIMIT)[0][k].reshape(-1)
        numeric = numeric[:_CHECK_LIMIT]
        analytic = grads[name].reshape(-1)[:numeric.size].astype(numpy.float64)
        diff = numpy.abs(analytic - numeric)
        errors[name] = float(numpy.max(diff)) if diff.size else 0.0
        if not math.isfinite(errors[name]):
            errors[name] = float("nan")
        scale = float(numpy.abs(analytic).max()) if analytic.size else 0.0
        oks[name] = errors[name] <= atol + rtol * scale
        if not oks[name]:
            worst = int(numpy.argmax(numpy.where(numpy.isnan(diff), numpy.inf, diff)))
            note = _kink_note(target, inputs, k, worst, eps, 2 * (atol + rtol * scale), name)
            if note:
                notes[name] = note
    return errors, oks, notes


def _run_again(source, bindings, options, overrides, interp):
    """(interpreter, f) of the job's program run again with `overrides`, by the form that ran it first."""
    if interp.__class__ is _Evaluated:
        evaluated = compiled.evaluate(source, bindings, options, _calculator_value, overrides)
        if evaluated is not None:
            return _Evaluated(evaluated[1], evaluated[2]), evaluated[0]
    return _execute(source, bindings, options, overrides=overrides)


def _kink_note(target, inputs, k, index, eps, tolerance, name):
    """Why variable k's derivative may disagree at its element `index`: f not
    differentiable there (one-sided slopes that differ, or f undefined on one
    side); None when f looks smooth there."""
    def at(delta):
        values = []
        for j, t in enumerate(inputs):
            a = numpy.array(_host(t), copy=True)
            if j == k:
                a.reshape(-1)[index] += delta
            values.append(E.tensor(a, dtype=t.dtype))
        return float(target(*values).item())

    f0, right, left = at(0.0), at(eps), at(-eps)
    where = f"{name}" + (f"[{index}]" if inputs[k].numel() > 1 else "")
    point = float(_host(inputs[k]).reshape(-1)[index])
    if not all(math.isfinite(v) for v in (f0, right, left)):
        return (f"f is not defined on both sides of {where} = {point:g}, so it is not differentiable there; "
                f"the derivative shown is PyTorch's value at that point")
    slopes = (f0 - left) / eps, (right - f0) / eps
    if abs(slopes[1] - slopes[0]) > tolerance:
        return (f"f is not differentiable at {where} = {point:g} (its slope is {slopes[0]:.6g} from the left "
                f"and {slopes[1]:.6g} from the right); the derivative shown is PyTorch's choice there")
    return None


def run_graph_job(source, bindings=(), backward=False, options=None):
    """Run a job for `autodiff graph`: the result f with every intermediate tensor
    recorded; with `backward`, f.backward() (weights of 1 for a non-scalar f) has
    run with every intermediate retaining its grad, so each node can show it."""
    options = options or JobOptions()
    options.graph = True
    with engine_settings(options.dtype, options.device), in_force(**size_budgets(options)), \
            MemoryBudget(options.max_memory, enforce=options.device != "cuda"):
        try:
            return _graph_job(source, bindings, backward, options)
        except MemoryError as e:
            raise out_of_memory(e, options.max_memory) from None


def _graph_job(source, bindings, backward, options):
    interp, f = _execute(source, bindings, options)
    result = JobResult(source=source, variables=dict(interp.variables))
    result.names = {id(v): name for name, v in interp.globals.items() if isinstance(v, E.Tensor)}
    result.produced = interp.produced
    if backward and f.requires_grad:
        for t in interp.produced.values():
            if t.requires_grad and t.grad_fn is not None:
                t.retain_grad()
        weights = None if f.numel() == 1 else E.ones_like(f)
        f.backward(weights, retain_graph=True)
    result.set_output(f)
    result.graph = f
    return result
