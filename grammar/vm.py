"""The interpreter: runs compiled code on the engine.

A stack machine with an explicit frame stack: calling a function defined in
the program pushes a frame instead of recursing in Python, so only a call
made *from* the engine (a hook, a lambda passed to jacobian) nests a run.
Each instruction tells the engine which source span is being evaluated, so
every graph node records the sub-expression that made it. A step budget and
a call-depth limit stop runaway programs with a clear error.
"""
import difflib
import operator
import re

from .. import engine as E
from ..engine.autograd import InplaceModifiedError
from ..engine.graph import current_span
from . import compiler as C
from .errors import ScriptError, LanguageError
from .budget import DEFAULT_MAX_MEMORY
from .words import show, plain_words
from .limits import TooLarge, check_items, checked_power, checked_product
from .names import BUILTINS, attribute, settable, is_context_manager, attribute_names, describe

__all__ = ["Interpreter", "UserFunction"]

DEFAULT_MAX_STEPS = 10_000_000
DEFAULT_MAX_DEPTH = 200

_BINARY = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv, "@": operator.matmul,
    "**": operator.pow, "^": operator.pow, "//": operator.floordiv, "%": operator.mod,
}
_INPLACE = {
    "+": operator.iadd, "-": operator.isub, "*": operator.imul, "/": operator.itruediv,
    "@": operator.matmul, "**": operator.ipow, "//": operator.floordiv, "%": operator.mod,
}
_COMPARE = {
    "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge, "==": operator.eq,
    "!=": operator.ne, "is": operator.is_, "is not": operator.is_not,
    "in": lambda a, b: a in b, "not in": lambda a, b: a not in b,
}
_UNARY = {"-": operator.neg, "+": operator.pos}


class UserFunction:
    """A function or lambda defined in the program; callable from the engine too."""

    __slots__ = ("code", "defaults", "enclosing", "interpreter", "__weakref__")

    def __init__(self, code, defaults, enclosing, interpreter):
        self.code = code
        self.defaults = defaults
        self.enclosing = enclosing
        self.interpreter = interpreter

    def bind(self, args, kwargs):
        """The new frame's locals: parameters from positional and keyword arguments."""
        params = self.code.params
        if len(args) > len(params):
            raise ScriptError(f"{self.code.name}() takes {len(params)} argument(s) but {len(args)} were given",
                              kind="TypeError")
        local = dict(zip(params, args))
        for name, value in kwargs.items():
            if name not in params:
                raise ScriptError(f"{self.code.name}() got an unexpected keyword argument '{name}'",
                                  kind="TypeError")
            if name in local:
                raise ScriptError(f"{self.code.name}() got multiple values for argument '{name}'",
                                  kind="TypeError")
            local[name] = value
        first_default = len(params) - len(self.defaults)
        for i, name in enumerate(params):
            if name not in local:
                if i >= first_default:
                    local[name] = self.defaults[i - first_default]
                else:
                    raise ScriptError(f"{self.code.name}() missing required argument '{name}'", kind="TypeError")
        return local

    def __call__(self, *args, **kwargs):
        return self.interpreter.call_from_python(self, args, kwargs)

    def __repr__(self):
        return f"<function {self.code.name}>"


class Frame:
    __slots__ = ("code", "pc", "stack", "locals", "enclosing", "withs")

    def __init__(self, code, local, enclosing):
        self.code = code
        self.pc = 0
        self.stack = []
        self.locals = local          # None at the top level: names live in globals
        self.enclosing = enclosing   # the locals of the function this one was defined in
        self.withs = []


class Interpreter:
    """Holds a program's global names and runs code in them."""

    def __init__(self, out=None, max_steps=DEFAULT_MAX_STEPS, max_depth=DEFAULT_MAX_DEPTH,
                 unbound_hint=None):
        self.globals = {}
        # the shared table; only `print` is this interpreter's own (it writes to `out`)
        self.builtins = _BuiltinsWithPrint(self._print)
        self.out = out
        self.max_steps = max_steps
        self.max_depth = max_depth
        self.max_memory = DEFAULT_MAX_MEMORY  # the budget its job runs under (named in errors)
        self.steps = 0
        self.depth = 0
        self.result = None
        self.source = None
        self.record = None
        self.unbound_hint = unbound_hint  # how to bind a missing name ("x=VALUE" in eval)

    # ---------------------------------------------------------------- public
    def run(self, code):
        """Run a program's code; the value of its final expression (if kept) is `self.result`."""
        self.result = None
        self.source = code.source
        token = current_span.set(None)
        try:
            self._execute([Frame(code, None, None)])
        finally:
            current_span.reset(token)
        return self.result

    def call_from_python(self, function, args, kwargs):
        """Run a program function for the engine (hooks, functions given to jacobian)."""
        if self.depth >= self.max_depth:
            raise ScriptError(f"calls nested more than {self.max_depth} deep", kind="RecursionError",
                              hint="is a function calling itself without end?")
        self.depth += 1
        token = current_span.get()
        try:
            return self._execute([Frame(function.code, function.bind(args, kwargs), function.enclosing)])
        finally:
            self.depth -= 1
            current_span.set(token)

    def _print(self, *args, sep=" ", end="\n", flush=False):
        text = sep.join(show(a) for a in args) + end
        if self.out is not None:
            self.out.write(text)

    # ------------------------------------------------------------ the loop
    def _execute(self, frames):
        """Run frames until the bottom one returns; returns its value."""
        frame = frames[0]
        code = frame.code.instructions
        stack = frame.stack
        set_span = current_span.set
        max_steps = self.max_steps
        record = self.record  # a function shown every computed value (graph views), or None
        instr = None
        while True:
            try:
                while True:
                    if frame.pc >= len(code):
                        value = None
                        # falling off the end: return None
                        instr = None
                        frame, code, stack, done, value = self._return(frames, None)
                        if done:
                            return value
                        continue
                    instr = code[frame.pc]
                    frame.pc += 1
                    self.steps += 1
                    if self.steps > max_steps:
                        raise ScriptError(f"stopped after {max_steps} steps (--max-steps)", kind="StepLimit",
                                          hint="is there a loop that never ends? raise --max-steps if not")
                    op, arg, node = instr
                    if op == C.LOAD:
                        stack.append(self._load(frame, arg, node))
                    elif op == C.CONST:
                        stack.append(arg)
                    elif op == C.BINARY:
                        b = stack.pop()
                        a = stack.pop()
                        set_span(node)
                        stack.append(binary(arg, a, b))
                        if record is not None:
                            record(stack[-1])
                    elif op == C.CALL:
                        npos, kwnames = arg
                        if kwnames:
                            kwvalues = stack[-len(kwnames):]
                            del stack[-len(kwnames):]
                            kwargs = dict(zip(kwnames, kwvalues))
                        else:
                            kwargs = {}
                        if npos:
                            args = stack[-npos:]
                            del stack[-npos:]
                        else:
                            args = []
                        func = stack.pop()
                        if func.__class__ is UserFunction:
                            if len(frames) + self.depth >= self.max_depth:
                                raise ScriptError(f"calls nested more than {self.max_depth} deep",
                                                  kind="RecursionError",
                                                  hint="is a function calling itself without end?")
                            frame = Frame(func.code, func.bind(args, kwargs), func.enclosing)
                            frames.append(frame)
                            code = frame.code.instructions
                            stack = frame.stack
                            continue
                        set_span(node)
                        stack.append(self._call(func, args, kwargs, node))
                        if record is not None:
                            record(stack[-1])
                    elif op == C.STORE:
                        self._store(frame, arg, stack.pop())
                    elif op == C.POP:
                        stack.pop()
                    elif op == C.ATTR:
                        set_span(node)  # reading .grad of a non-leaf warns: say where
                        stack.append(get_attribute(stack.pop(), arg, node))
                    elif op == C.UNARY:
                        set_span(node)
                        stack.append(unary(arg, stack.pop()))
                        if record is not None:
                            record(stack[-1])
                    elif op == C.INDEX:
                        key = stack.pop()
                        obj = stack.pop()
                        if arg == "keep":
                            stack.append(obj)
                            stack.append(key)
                        set_span(node)
                        stack.append(index(obj, key))
                        if record is not None:
                            record(stack[-1])
                    elif op == C.JUMP:
                        frame.pc = arg
                    elif op == C.JUMP_IF_FALSE:
                        if not truth(stack.pop()):
                            frame.pc = arg
                    elif op == C.JUMP_IF_FALSE_KEEP:
                        if truth(stack[-1]):
                            stack.pop()
                        else:
                            frame.pc = arg
                    elif op == C.JUMP_IF_TRUE_KEEP:
                        if truth(stack[-1]):
                            frame.pc = arg
                        else:
                            stack.pop()
                    elif op == C.COMPARE:
                        n = len(arg) + 1
                        operands = stack[-n:]
                        del stack[-n:]
                        set_span(node)
                        stack.append(compare(arg, operands))
                    elif op == C.NOT:
                        stack.append(not truth(stack.pop()))
                    elif op == C.TUPLE:
                        items = tuple(stack[-arg:]) if arg else ()
                        if arg:
                            del stack[-arg:]
                        stack.append(items)
                    elif op == C.LIST:
                        items = stack[-arg:] if arg else []
                        if arg:
                            del stack[-arg:]
                        stack.append(items)
                    elif op == C.SLICE:
                        step = stack.pop()
                        stop = stack.pop()
                        start = stack.pop()
                        stack.append(slice(start, stop, step))
                    elif op == C.INPLACE:
                        b = stack.pop()
                        a = stack.pop()
                        set_span(node)
                        stack.append(inplace(arg, a, b))
                        if record is not None:
                            record(stack[-1])
                    elif op == C.STORE_ATTR:
                        obj = stack.pop()
                        value = stack.pop()
                        if not settable(obj, arg):
                            raise AttributeError(f"can't set '{arg}' here (only a tensor's grad, requires_grad "
                                                 f"and data can be set)")
                        setattr(obj, arg, value)
                    elif op == C.STORE_INDEX:
                        if arg == "kept":
                            value = stack.pop()
                            key = stack.pop()
                            obj = stack.pop()
                        else:
                            key = stack.pop()
                            obj = stack.pop()
                            value = stack.pop()
                        set_span(node)
                        store_index(obj, key, value)
                    elif op == C.DUP:
                        stack.append(stack[-1])
                    elif op == C.ROT2:
                        stack[-1], stack[-2] = stack[-2], stack[-1]
                    elif op == C.UNPACK:
                        stack.extend(reversed(unpack(stack.pop(), arg)))
                    elif op == C.GET_ITER:
                        stack.append(iterate(stack.pop()))
                    elif op == C.FOR_ITER:
                        try:
                            stack.append(next(stack[-1]))
                        except StopIteration:
                            stack.pop()
                            frame.pc = arg
                    elif op == C.RETURN:
                        value = stack.pop()
                        frame, code, stack, done, value = self._return(frames, value)
                        if done:
                            return value
                    elif op == C.KEEP:
                        self.result = stack.pop()
                    elif op == C.MAKE_FUNCTION:
                        fcode, has_default = arg
                        ndefaults = sum(has_default)
                        defaults = tuple(stack[-ndefaults:]) if ndefaults else ()
                        if ndefaults:
                            del stack[-ndefaults:]
                        enclosing = frame.locals if frame.locals is not None else None
                        if enclosing is not None and frame.enclosing is not None:
                            enclosing = _Chain(enclosing, frame.enclosing)
                        stack.append(UserFunction(fcode, defaults, enclosing, self))
                    elif op == C.FORMAT:
                        stack.append(format_value(stack.pop(), arg))
                    elif op == C.FSTRING:
                        stack.append(join_strings(stack, arg))
                    elif op == C.WITH_ENTER:
                        manager = stack.pop()
                        if not is_context_manager(manager):
                            raise TypeError("`with` works with no_grad(), enable_grad() and "
                                            "set_grad_enabled(...) here")
                        entered = manager.__enter__()
                        frame.withs.append(manager)
                        if arg is not None:
                            self._store(frame, arg, entered)
                    elif op == C.WITH_EXIT:
                        frame.withs.pop().__exit__(None, None, None)
                    elif op == C.ASSERT:
                        message = stack.pop() if arg else None
                        if not truth(stack.pop()):
                            text = "assertion failed" + (f": {message}" if message is not None else "")
                            raise ScriptError(text, node.start, node.end, kind="AssertionError")
                    elif op == C.IMPORT:
                        check_import(arg, node)
                    else:  # pragma: no cover - the compiler emits only the opcodes above
                        raise ScriptError(f"internal error: unknown instruction {op}")
            except LanguageError as e:
                if e.start is None and instr is not None:
                    e.start, e.end = instr[2].start, instr[2].end
                self._unwind(frames)
                raise
            except InplaceModifiedError as e:
                self._unwind(frames)
                raise _inplace_error(e, instr) from None
            except BrokenPipeError:  # print()'s reader went away (`| head`): not the program's error
                self._unwind(frames)
                raise
            except Exception as e:  # an engine or Python error inside one instruction
                self._unwind(frames)
                raise script_error(e, instr, self) from None

    def _return(self, frames, value):
        """Pop a frame; hand `value` to the caller (or finish when it was the bottom one)."""
        done = frames.pop()
        while done.withs:
            done.withs.pop().__exit__(None, None, None)
        if not frames:
            return None, None, None, True, value
        frame = frames[-1]
        frame.stack.append(value)
        return frame, frame.code.instructions, frame.stack, False, value

    def _unwind(self, frames):
        """Leave every open `with` block (grad mode comes back) after an error."""
        while frames:
            f = frames.pop()
            while f.withs:
                try:
                    f.withs.pop().__exit__(None, None, None)
                except Exception:  # leaving no_grad cannot really fail; never mask the first error
                    pass

    # ---------------------------------------------------------------- names
    def _load(self, frame, name, node):
        if frame.locals is not None:
            local = frame.locals
            if name in local:
                return local[name]
            enclosing = frame.enclosing
            if enclosing is not None and name in enclosing:
                return enclosing[name]
        g = self.globals
        if name in g:
            return g[name]
        b = self.builtins
        if name in b:
            return b[name]
        raise self._unbound(name, node)

    def _store(self, frame, name, value):
        if frame.locals is not None and name not in frame.code.globals_declared:
            frame.locals[name] = value
        else:
            self.globals[name] = value

    def _unbound(self, name, node):
        called = node.kind == "call"  # the compiler gives a called name its call's node
        if called:
            node = node.args[0]
        if name in _PYTHON_ONLY or name.startswith("__"):
            return ScriptError(f"'{name}' is not available: programs can't reach Python itself", node.start,
                               node.end, hint="only the language's own functions exist (run `autodiff functions` to list them, "
                               "or `help` in the REPL)",
                               kind="NameError")
        known = list(self.globals) + list(self.builtins)
        if called:
            functions = [n for n in known if callable(self.globals.get(n, self.builtins.get(n)))]
            close = difflib.get_close_matches(name, functions, n=3, cutoff=0.6)
            hint = ("did you mean " + " or ".join(close) + "?") if close else \
                "run `autodiff functions` to list the functions the language knows"
            return ScriptError(f"unknown function '{name}'", node.start, node.end, hint=hint, kind="NameError")
        close = difflib.get_close_matches(name, known, n=3, cutoff=0.7)
        if close:
            hint = "did you mean " + " or ".join(close) + "?"
        elif self.unbound_hint:
            hint = self.unbound_hint(name)
        else:
            hint = f"assign it first ({name} = ...)"
        return ScriptError(f"name '{name}' is not defined", node.start, node.end, hint=hint, kind="NameError")

    def _call(self, func, args, kwargs, node):
        if not callable(func):
            raise ScriptError(f"{_describe(func)} is not callable", node.start, node.end, kind="TypeError",
                              hint=_multiplication_hint(func, node, self.source))
        return func(*args, **kwargs)


def _multiplication_hint(func, node, source):
    """For `x(x+1)` or `2(x+1)`, a calculator's implied product: write `x*(x+1)`."""
    if not isinstance(func, (int, float, E.Tensor)) or isinstance(func, bool):
        return None
    callee = node.args[0]
    if source is not None and callee.end is not None and node.end is not None:
        return f"to multiply, write {source[callee.start:callee.end]}*{source[callee.end:node.end]}"
    return "to multiply, write * before the parenthesis: x*(x+1)"


_PYTHON_ONLY = frozenset({"open", "eval", "exec", "compile", "getattr", "setattr", "delattr", "hasattr",
                          "globals", "locals", "vars", "dir", "input", "exit", "quit", "type", "object",
                          "help", "breakpoint", "memoryview", "bytearray", "bytes", "classmethod",
                          "staticmethod", "property", "super", "issubclass", "callable", "iter", "next"})


class _BuiltinsWithPrint(dict):
    """BUILTINS with this interpreter's print, without copying the table for every run."""

    __slots__ = ("print_function",)

    def __init__(self, print_function):
        super().__init__()
        self.print_function = print_function

    def __contains__(self, name):
        return name in BUILTINS

    def __getitem__(self, name):
        return self.print_function if name == "print" else BUILTINS[name]

    def get(self, name, default=None):
        return self[name] if name in BUILTINS else default

    def __iter__(self):
        return iter(BUILTINS)


class _Chain(dict):
    """Nested functions see the locals of every function around them (read-only)."""

    def __init__(self, inner, outer):
        super().__init__()
        self.inner = inner
        self.outer = outer

    def __contains__(self, name):
        return name in self.inner or name in self.outer

    def __getitem__(self, name):
        if name in self.inner:
            return self.inner[name]
        return self.outer[name]


# ----------------------------------------------------------------- semantics

def get_attribute(obj, name, node):
    """obj.name through the allow-list, with the closest names as a hint when it fails."""
    try:
        return attribute(obj, name)
    except AttributeError as e:
        close = difflib.get_close_matches(name, attribute_names(obj), n=3, cutoff=0.6)
        hint = ("did you mean " + " or ".join(close) + "?") if close else None
        raise ScriptError(str(e), node.start, node.end, hint=hint, kind="AttributeError") from None


def _tensor_like_list(v):
    return v.__class__ is list and v and all(isinstance(x, (int, float, list)) for x in v)


def _operand(v):
    """Lists of numbers are tensors in arithmetic (a calculator's reading of [1, 2] * 2)."""
    if v.__class__ is list and _tensor_like_list(v):
        return E.tensor(v)
    return v


def binary(op, a, b):
    """`a op b` as the language means it."""
    ca, cb = a.__class__, b.__class__
    if (ca is list or cb is list) and (isinstance(a, E.Tensor) or isinstance(b, E.Tensor)):
        a, b = _operand(a), _operand(b)
        ca, cb = a.__class__, b.__class__
    elif ca is list and cb is int or cb is list and ca is int:
        n, items = (b, a) if ca is list else (a, b)
        if op == "*":
            check_items(n * len(items))
    if ca is int and cb is int:
        if op in ("**", "^"):
            if b > 0:
                return checked_power(a, b)
        elif op == "*":
            return checked_product(a, b)
    elif (ca is str or cb is str) and op == "*":
        n = b if ca is str else a
        if isinstance(n, int):
            check_items(n * len(a if ca is str else b), "string")
    elif op == "+" and ca is cb and ca in (str, list, tuple):
        check_items(len(a) + len(b), "string" if ca is str else ca.__name__)
    fn = _BINARY.get(op)
    return fn(a, b)


def inplace(op, a, b):
    """`a op= b`: in place for tensors (PyTorch's +=, views included), a new value otherwise."""
    if isinstance(a, E.Tensor):
        if b.__class__ is list:
            b = _operand(b)
        return _INPLACE[op](a, b)
    return binary(op, a, b)


def unary(op, a):
    if a.__class__ is list:
        a = _operand(a)
    return _UNARY[op](a)


def compare(ops, operands):
    """Python's chained comparison: a < b < c is (a < b) and (b < c)."""
    value = True
    for i, op in enumerate(ops):
        a, b = operands[i], operands[i + 1]
        if op in ("in", "not in") and isinstance(b, E.Tensor):
            hit = bool((b == a).any())
            value = hit if op == "in" else not hit
        else:
            if a.__class__ is list and op not in ("is", "is not", "==", "!="):
                a = _operand(a)
            if b.__class__ is list and op not in ("is", "is not", "==", "!="):
                b = _operand(b)
            value = _COMPARE[op](a, b)
        if len(ops) > 1 and not truth(value):
            return value
    return value


def truth(value):
    return bool(value)


def index(obj, key):
    if isinstance(obj, E.Tensor):
        return obj[key]
    if isinstance(obj, (list, tuple, str, range)):
        if isinstance(key, E.Tensor):
            key = key.__index__()
        return obj[key]
    raise TypeError(f"{_describe(obj)} can't be indexed")


def store_index(obj, key, value):
    if isinstance(obj, E.Tensor):
        obj[key] = value
    elif obj.__class__ is list:
        obj[key] = value
    else:
        raise TypeError(f"{_describe(obj)} does not support item assignment")


def unpack(value, n):
    if isinstance(value, E.Tensor):
        items = list(value)
    elif isinstance(value, (tuple, list, range, str)) or hasattr(value, "_fields"):
        items = list(value)
    else:
        raise TypeError(f"cannot unpack {_describe(value)}")
    if len(items) != n:
        raise ValueError(f"expected {n} values to unpack, got {len(items)}")
    return items


def iterate(value):
    if isinstance(value, (list, tuple, range, str, E.Tensor, zip, enumerate, reversed)) \
            or hasattr(value, "_fields") or value.__class__.__name__ == "list_reverseiterator":
        return iter(value)
    raise TypeError(f"{_describe(value)} can't be looped over")


def format_value(value, spec):
    """One f-string field: format(value, spec), a tensor's repr when there is no spec."""
    if not spec:
        return show(value)
    if isinstance(value, E.Tensor) and value.numel() == 1:
        return format(value.item(), spec)
    return format(value, spec)


def join_strings(stack, n):
    pieces = stack[-n:] if n else []
    if n:
        del stack[-n:]
    return "".join(pieces)


def check_import(names, node):
    for name in names:
        root = name.split(".")[0]
        if root not in ("torch", "math", "numpy", "autograd"):
            raise ScriptError(f"can't import {name}: only `import torch` lines are accepted (they do nothing)",
                              node.start, node.end, kind="ImportError")


def _describe(value):
    if isinstance(value, UserFunction):
        return f"function {value.code.name}"
    return describe(value)


_LOCALS = re.compile(r"\b\w+\.<locals>\.")

_KINDS = {MemoryError: "MemoryError", ZeroDivisionError: "ZeroDivisionError", IndexError: "IndexError",
          TypeError: "TypeError", ValueError: "ValueError", KeyError: "KeyError", AttributeError: "AttributeError",
          RecursionError: "RecursionError", OverflowError: "OverflowError", RuntimeError: "RuntimeError",
          AssertionError: "AssertionError"}


def script_error(e, instr, interpreter):
    """An engine or Python exception raised by one instruction, as a ScriptError at its span."""
    node = instr[2] if instr is not None else None
    kind = next((name for cls, name in _KINDS.items() if isinstance(e, cls)), "RuntimeError")
    message = str(e) or kind
    message = plain_words(_LOCALS.sub("", message))
    if isinstance(e, KeyError):
        message = f"no {e.args[0]!r}" if e.args else "key not found"
    hint = None
    if isinstance(e, MemoryError) and (not str(e) or message.startswith("Unable to allocate")):
        from .budget import budget_message, BUDGET_HINT
        detail = f" ({message[0].lower() + message[1:]})" if str(e) else ""
        message, hint = budget_message(interpreter.max_memory) + detail, BUDGET_HINT
    if isinstance(e, E.DeviceError):
        kind = "DeviceError"
    if isinstance(e, RecursionError):
        message = "the program nests too deeply"
    elif isinstance(e, OverflowError) and not isinstance(e, TooLarge):
        message = "a number is too large to represent (overflow)"
    err = ScriptError(message, node.start if node is not None else None, node.end if node is not None else None,
                      hint=hint, kind=kind)
    return err


def _inplace_error(e, instr):
    node = instr[2] if instr is not None else None
    err = ScriptError(str(e), node.start if node else None, node.end if node else None, kind="RuntimeError",
                      hint="compute the gradient before changing the tensor, or change a clone() of it")
    needed_by = getattr(e.node, "span", None)
    if needed_by is not None:
        err.needed_by = needed_by
    return err
