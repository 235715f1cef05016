"""The interpreter: runs compiled code on the engine.

A stack machine with an explicit frame stack: calling a function defined in
the program pushes a frame instead of recursing in Python, so only a call
made *from* the engine (a hook, a lambda passed to jacobian) nests a run.
Each instruction tells the engine which source span is being evaluated, so
every graph node records the sub-expression that made it. A step budget and
a call-depth limit stop runaway programs with a clear error.
"""
import collections
import difflib
import re
import types
import string
from _string import formatter_field_name_split as _formatter_field_name_split

import numpy as _np

from .. import engine as E
from ..engine.core import InplaceModifiedError
from ..engine.graph import current_span, use_spans, SpanCursor
from . import compiler as C
from . import vm_runs
from .errors import ScriptError, LanguageError, SyntaxProblem, Interrupted
from . import modules
from .budget import DEFAULT_MAX_MEMORY, check_memory, memory_error_message, over_budget
from .words import show, plain_words, _CALLED, _PUBLIC as _WORD_NAMES
from .budget import current as _budgets
from .limits import TooLarge, bounded_list, check_items, check_format_spec
from .names import BUILTINS, TENSOR_ATTRIBUTES, TENSOR_SETTABLE, Namespace, attribute, settable, is_context_manager, attribute_names, describe, layer_attributes
from .module_classes import is_layer_class, layer_class, LayerSuper
from .function_classes import is_function_class, function_class
from .arithmetic import binary, unary, inplace, compare, truth
from .classes import UserClass, UserInstance, BoundMethod, SuperProxy, call_target, constructed, class_attribute, \
    set_class_attribute, delete_class_attribute, is_program_object, MISSING, SequenceIterator

__all__ = ["Interpreter", "UserFunction"]

DEFAULT_MAX_STEPS = 10_000_000
DEFAULT_MAX_DEPTH = 200
_MEMORY_EVERY = 8192  # steps between two looks at the memory budget (budget.check_memory)



class UserFunction:
    """A function or lambda defined in the program; callable from the engine too."""

    __slots__ = ("code", "defaults", "kwdefaults", "scopes", "interpreter", "owner", "__weakref__")

    def __init__(self, code, defaults, scopes, interpreter, kwdefaults=None):
        self.owner = None             # the class whose body defined it (its super())
        self.code = code
        self.defaults = defaults      # values of the last positional parameters' defaults (made at `def`)
        self.kwdefaults = kwdefaults or {}
        self.scopes = scopes          # the locals of the functions it is defined in, innermost first
        self.interpreter = interpreter

    def __copy__(self):  # copy.copy / copy.deepcopy in a program: this is one of the language's own, shared
        return self

    def __deepcopy__(self, memo):
        return self

    @property
    def enclosing(self):
        return self.scopes[0] if self.scopes else None

    def bind(self, args, kwargs):
        """The new frame's locals from positional and keyword arguments, by
        Python's rules and with Python's TypeError messages."""
        code = self.code
        params = code.params
        n = len(params)
        name = code.qualname
        local = {}
        given = len(args)
        if given > n:
            if code.varargs is not None:
                local[code.varargs] = tuple(args[n:])
            args = args[:n]
        elif code.varargs is not None:
            local[code.varargs] = ()
        for p, v in zip(params, args):
            local[p] = v
        extra = {} if code.varkw is not None else None
        posonly_as_keyword = []
        kwonly_given = 0
        for key, value in kwargs.items():
            if key in params:
                if params.index(key) < code.posonly:
                    if extra is not None:
                        extra[key] = value
                    else:
                        posonly_as_keyword.append(key)
                    continue
                if key in local:
                    raise TypeError(f"{name}() got multiple values for argument '{key}'")
                local[key] = value
            elif key in code.kwonly:
                local[key] = value
                kwonly_given += 1
            elif extra is not None:
                extra[key] = value
            else:
                raise TypeError(f"{name}() got an unexpected keyword argument '{key}'")
        if posonly_as_keyword:
            raise TypeError(f"{name}() got some positional-only arguments passed as keyword arguments: "
                            f"'{', '.join(posonly_as_keyword)}'")
        if given > n and code.varargs is None:
            ndefaults = len(self.defaults)
            if ndefaults:
                sig, plural = f"from {n - ndefaults} to {n}", True
            else:
                sig, plural = str(n), n != 1
            kw = ""
            if kwonly_given:
                kw = (f" positional argument{'s' if given != 1 else ''} (and {kwonly_given} keyword-only "
                      f"argument{'s' if kwonly_given != 1 else ''})")
            raise TypeError(f"{name}() takes {sig} positional argument{'s' if plural else ''} but {given}{kw} "
                            f"{'was' if given == 1 and not kwonly_given else 'were'} given")
        first_default = n - len(self.defaults)
        missing = []
        for i, p in enumerate(params):
            if p not in local:
                if i >= first_default:
                    local[p] = self.defaults[i - first_default]
                else:
                    missing.append(p)
        if missing:
            raise TypeError(f"{name}() missing {len(missing)} required positional argument"
                            f"{'s' if len(missing) != 1 else ''}: {_name_list(missing)}")
        missing = []
        for p in code.kwonly:
            if p not in local:
                if p in self.kwdefaults:
                    local[p] = self.kwdefaults[p]
                else:
                    missing.append(p)
        if missing:
            raise TypeError(f"{name}() missing {len(missing)} required keyword-only argument"
                            f"{'s' if len(missing) != 1 else ''}: {_name_list(missing)}")
        if extra is not None:
            local[code.varkw] = extra
        return local

    def __call__(self, *args, **kwargs):
        """Run the function for the engine (a hook, a key, a function given to jacobian, a class's operator):
        a run of its own, nested in the one that called the engine. (Here, not in an Interpreter method: a
        run nested through the engine is as many Python frames deep as the language lets it be.)"""
        vm = self.interpreter
        if vm.depth >= vm.max_depth:
            raise _too_deep(vm.max_depth)
        try:
            local = self.bind(args, kwargs)
        except TypeError as e:
            err = ScriptError(str(e), kind="TypeError")
            err.exception = e
            raise err from None
        vm.depth += 1
        cursor = vm.cursor
        span = cursor.span
        try:
            return vm._execute([Frame(self.code, local, self.scopes, self)])
        finally:
            vm.depth -= 1
            cursor.span = span

    def __repr__(self):
        return f"<function {self.code.name}>"


def _name_list(names):
    quoted = [f"'{n}'" for n in names]
    if len(quoted) == 1:
        return quoted[0]
    if len(quoted) == 2:
        return f"{quoted[0]} and {quoted[1]}"
    return ", ".join(quoted[:-1]) + f", and {quoted[-1]}"


# kinds of blocks a frame has open (try, finally, with, an except handler running)
_TRY, _FINALLY, _WITH, _HANDLER, _FINALLY_BODY = range(5)


class Frame:
    __slots__ = ("code", "pc", "stack", "locals", "scopes", "blocks", "function", "constructs")

    def __init__(self, code, local, scopes, function=None, constructs=None):
        self.function = function      # the program function it runs (None: the program, a comprehension)
        self.constructs = constructs  # the instance an __init__ frame makes: what the call gives
        self.code = code
        self.pc = 0
        self.stack = []
        self.locals = local          # None at the top level: names live in globals
        self.scopes = scopes         # the locals of the enclosing functions, innermost first
        self.blocks = []             # (kind, handler pc, stack depth, context manager or None)


class _Pending:
    """What a `finally` block does when it ends: raise on, return or jump (or nothing: None)."""

    __slots__ = ("kind", "value")

    def __init__(self, kind, value):
        self.kind = kind
        self.value = value


class _Finished:
    """The value of a run's bottom frame, once it has returned (what _execute gives)."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


class _Raise(Exception):
    """A program's exception on its way through the interpreter (raise, re-raise)."""

    def __init__(self, exc):
        super().__init__(str(exc))
        self.exc = exc


# errors that stop a program whatever it says: budgets and limits (an `except` must not outlive its budget)
_UNCATCHABLE_KINDS = frozenset({"StepLimit", "MemoryError", "RecursionError", "ResourceError", "SyntaxError"})


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
        self.cursor = SpanCursor()  # the span of the operation running: the nodes it makes carry it
        self.unbound_hint = unbound_hint  # how to bind a missing name ("x=VALUE" in eval)
        self.handling = []   # the exceptions whose `except` blocks are running (a bare `raise` re-raises the last)
        # this program's imported modules (numpy's random state is its own), and its print (pprint's)
        self.modules = {modules.PRINT: self._print}

    # ---------------------------------------------------------------- public
    def run(self, code):
        """Run a program's code; the value of its final expression (if kept) is `self.result`."""
        self.result = None
        self.source = code.source
        use_spans()
        self.cursor.span = None
        token = current_span.set(self.cursor)
        try:
            self._execute([Frame(code, None, ())])
        finally:
            current_span.reset(token)
        return self.result

    def _print(self, *args, sep=" ", end="\n", flush=False):
        sep = " " if sep is None else sep
        end = "\n" if end is None else end
        text = sep.join(show(a) for a in args) + end
        if self.out is not None:
            self.out.write(text)

    # ------------------------------------------------------------ the loop
    def _execute(self, frames):
        """Run frames until the bottom one returns; returns its value.

        Each instruction runs in its opcode's handler (`_HANDLERS`, at the end of
        the module); a handler that calls or returns gives the frame to run next,
        so a program's calls never recurse here."""
        handlers = _HANDLERS
        max_steps = self.max_steps
        check_at = min(max_steps, self.steps + _MEMORY_EVERY)  # the next step that looks at the budgets
        instr = frame = None
        while True:
            try:
                # the frame that runs: the bottom one, or after an error the one whose `except` takes it.
                # (Set inside the try, so that the inner loop's head is not the try's first instruction:
                # Python 3.11 checks for Ctrl-C at a jump back as if at the instruction before its target.)
                frame = frames[-1]
                code = frame.code.dispatch
                while True:
                    if frame.pc < len(code):
                        instr = code[frame.pc]
                        frame.pc += 1
                        self.steps += 1
                        if self.steps > check_at:  # (one comparison a step: both budgets behind it)
                            check_at = self._check_budgets(max_steps)
                        op, arg, node = instr
                        switched = handlers[op](self, frames, frame, arg, node)
                        if switched is None:
                            continue
                    else:  # falling off the end: return None
                        instr = None
                        switched = self._return(frames, None)
                    if switched.__class__ is _Finished:
                        return switched.value
                    frame = switched
                    code = frame.code.dispatch
            except BrokenPipeError:  # print()'s reader went away (`| head`): not the program's error
                self._unwind(frames)
                raise
            except KeyboardInterrupt as stop:  # Ctrl-C: the program ends here, and says where it was
                instr = _running(frame, instr)
                self._unwind(frames)
                if isinstance(stop, Interrupted) and stop.start is not None:
                    raise
                node = instr[2] if instr is not None else None
                raise Interrupted(node.start if node is not None else None,
                                  node.end if node is not None else None) from None
            except Exception as raw:  # an engine or Python error inside one instruction, or a raise
                instr = _running(frame, instr)
                exc = self._catchable(raw, instr)
                if exc is not None and self._find_handler(frames, exc):
                    continue
                self._unwind(frames)
                raise self._uncaught(raw, exc, instr) from None

    def _check_budgets(self, max_steps):
        """Stop at the step budget, or when the job's memory is over its own; the step of the next look."""
        if self.steps > max_steps:
            raise ScriptError(f"stopped after {max_steps:,} steps "
                              f"{over_budget('max_steps', said=True)}", kind="StepLimit",
                              hint="is there a loop that never ends? raise --max-steps if not")
        check_memory()
        return min(max_steps, self.steps + _MEMORY_EVERY)

    def _leave_blocks(self, frame, depth):
        """Leave the frame's blocks down to `depth` (a return, break or continue):
        `with` blocks exit, handlers end. At a `finally` block: stop there and
        give the pc of its code (the caller pushes what to do after it)."""
        blocks = frame.blocks
        low = None
        while len(blocks) > depth:
            kind, pc, stack_depth, manager = blocks.pop()
            low = stack_depth
            if kind == _WITH:
                manager.__exit__(None, None, None)
            elif kind == _HANDLER:
                self.handling.pop()
            elif kind == _FINALLY:
                del frame.stack[stack_depth:]
                return pc
        if low is not None:
            del frame.stack[low:]
        return None

    def _find_handler(self, frames, exc):
        """Unwind to the innermost try block that can take `exc` (a `finally`
        runs and raises it on); frames without one are left. True if found."""
        while frames:
            frame = frames[-1]
            blocks = frame.blocks
            while blocks:
                kind, pc, depth, manager = blocks.pop()
                if kind == _WITH:
                    try:
                        manager.__exit__(type(exc), exc, None)
                    except Exception:  # leaving no_grad cannot really fail; never mask the first error
                        pass
                elif kind == _HANDLER:
                    self.handling.pop()
                elif kind == _FINALLY_BODY:  # an error in a finally block replaces what it was to do
                    continue
                else:
                    del frame.stack[depth:]
                    frame.stack.append(exc if kind == _TRY else _Pending("raise", exc))
                    frame.pc = pc
                    return True
            frames.pop()
        return False

    def _catchable(self, raw, instr):
        """The exception a program's `except` sees for `raw` (an instruction's
        error), or None for errors it may not catch: the step, memory and
        depth budgets and the language's size limits."""
        if raw.__class__ is _Raise:
            return raw.exc
        if isinstance(raw, LanguageError):
            exc = getattr(raw, "exception", None)
            if exc is not None:
                return exc
            kind = getattr(raw, "kind", "SyntaxError")
            if kind in _UNCATCHABLE_KINDS or isinstance(raw, SyntaxProblem):
                return None
            cls = modules.EXCEPTIONS.get(kind, RuntimeError)
            exc = cls(raw.message)
            exc._ad_origin = (raw, instr)
            raw.exception = exc
            return exc
        if isinstance(raw, (MemoryError, RecursionError, TooLarge)):
            return None
        cls = type(raw)
        if cls in _EXPOSED:
            exc = raw
        else:
            cls = next((c for c in cls.__mro__ if c in _EXPOSED), RuntimeError)
            exc = cls(*raw.args) if cls is KeyError else cls(plain_names(str(raw), instr, self.source))
        if getattr(exc, "_ad_origin", None) is None:
            exc._ad_origin = (raw, instr)
        return exc

    def _uncaught(self, raw, exc, instr):
        """The ScriptError of an exception no `except` took: the error as the
        language always reported it (where it was first raised)."""
        origin = getattr(exc, "_ad_origin", None) if exc is not None else None
        if origin is not None:
            first, where = origin
            if first == "raised":  # the program's own raise: Python's last traceback line
                name = type(exc).__name__
                text = str(exc)
                node = where[2] if where is not None else None
                err = ScriptError(f"{name}: {text}" if text else name, node.start if node else None,
                                  node.end if node else None, kind=name)
                err.exception = exc
                return err
            raw, instr = first, where
        if isinstance(raw, LanguageError):
            if raw.start is None and instr is not None:
                raw.start, raw.end = instr[2].start, instr[2].end
            return raw
        if isinstance(raw, InplaceModifiedError):
            return _inplace_error(raw, instr)
        err = script_error(raw, instr, self)
        if exc is not None:
            err.exception = exc
        return err

    def _return(self, frames, value):
        """Pop a frame and hand `value` to its caller: the caller's frame, which
        runs next, or _Finished(value) when it was the bottom one."""
        done = frames.pop()
        if done.blocks:
            self._leave_blocks(done, 0)
        if done.code.class_body:
            value = done.locals  # a class body gives its names: the class's dict
        elif done.constructs is not None:
            value = constructed(value, done.constructs)
        if not frames:
            return _Finished(value)
        frame = frames[-1]
        frame.stack.append(value)
        return frame

    def _unwind(self, frames):
        """Leave every open `with` block (grad mode comes back) after an error."""
        while frames:
            f = frames.pop()
            while f.blocks:
                kind, _, _, manager = f.blocks.pop()
                if kind == _WITH:
                    try:
                        manager.__exit__(None, None, None)
                    except Exception:  # leaving no_grad cannot really fail; never mask the first error
                        pass
                elif kind == _HANDLER and self.handling:
                    self.handling.pop()

    # ---------------------------------------------------------------- names
    def _load(self, frame, name, node):
        g = self.globals
        if name in g:
            return g[name]
        b = self.builtins
        if name in b:
            return b[name]
        extra = modules.EXTRA_BUILTINS.get(name, _NONE)
        if extra is not _NONE:
            return extra
        raise self._unbound(name, node)

    def _store(self, frame, name, value):
        if frame.locals is not None and name not in frame.code.globals_declared:
            frame.locals[name] = value
        else:
            self.globals[name] = value

    def _delete(self, frame, kind, name, depth, node):
        if kind == "fast":
            if frame.locals.pop(name, _NONE) is _NONE:
                raise _unbound_local(name, node)
        elif kind == "deref":
            if frame.scopes[depth - 1].pop(name, _NONE) is _NONE:
                raise _unbound_free(name, node)
        elif self.globals.pop(name, _NONE) is _NONE:
            err = ScriptError(f"name '{name}' is not defined", node.start, node.end, kind="NameError")
            err.exception = NameError(f"name '{name}' is not defined")
            raise err

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
            err = ScriptError(f"unknown function '{name}'", node.start, node.end, hint=hint, kind="NameError")
        else:
            close = difflib.get_close_matches(name, known, n=3, cutoff=0.7)
            if close:
                hint = "did you mean " + " or ".join(close) + "?"
            elif self.unbound_hint:
                hint = self.unbound_hint(name)
            else:
                hint = f"assign it first ({name} = ...)" if len(name) <= 40 else "assign it first"  # (a long
                # name, of a hostile input: its message holds it once, as Python's does, not its hint again)
            err = ScriptError(f"name '{name}' is not defined", node.start, node.end, hint=hint, kind="NameError")
        exc = NameError(f"name '{name}' is not defined")
        exc._ad_origin = (err, None)
        err.exception = exc
        return err


def _too_deep(max_depth):
    return ScriptError(f"calls nested more than {max_depth:,} deep {over_budget('max_depth', said=True)}",
                       kind="RecursionError", hint="is a function calling itself without end?")


def _multiplication_hint(func, node, source):
    """For `x(x+1)` or `2(x+1)`, a calculator's implied product: write `x*(x+1)`."""
    if not isinstance(func, (int, float, E.Tensor)) or isinstance(func, bool):
        return None
    callee = node.args[0]
    if source is not None and callee.end is not None and node.end is not None:
        return f"to multiply, write {source[callee.start:callee.end]}*{source[callee.end:node.end]}"
    return "to multiply, write * before the parenthesis: x*(x+1)"


_NONE = object()


def _unbound_local(name, node):
    message = f"cannot access local variable '{name}' where it is not associated with a value"
    err = ScriptError(message, node.start, node.end, kind="UnboundLocalError",
                      hint=f"assign {name} before this line, or declare it `global {name}`")
    err.exception = UnboundLocalError(message)
    err.exception._ad_origin = (err, None)
    return err


def _unbound_free(name, node):
    message = f"cannot access free variable '{name}' where it is not associated with a value in enclosing scope"
    err = ScriptError(message, node.start, node.end, kind="NameError")
    err.exception = NameError(message)
    err.exception._ad_origin = (err, None)
    return err


_EXPOSED = frozenset(modules.EXCEPTIONS.values())


def make_exception(value):
    """What `raise value` raises: an exception class is instantiated."""
    if isinstance(value, type) and (value in _EXPOSED or modules.is_exception_class(value)):
        return value()
    if isinstance(value, BaseException):
        return value
    raise TypeError("exceptions must derive from BaseException")


def exception_matches(exc, spec):
    """`except spec`: a class or a tuple of classes."""
    classes = spec if isinstance(spec, tuple) else (spec,)
    for cls in classes:
        if not (isinstance(cls, type) and issubclass(cls, BaseException)):
            raise TypeError("catching classes that do not inherit from BaseException is not allowed")
    return isinstance(exc, classes)


def _python_type(value):
    if isinstance(value, E.Tensor):
        return "Tensor"
    if isinstance(value, UserFunction):
        return "function"
    return type(value).__name__


def _callee(func):
    if isinstance(func, UserFunction):
        return f"{func.code.name}()"
    name = getattr(func, "__name__", None)
    return f"{_PUBLIC_NAMES.get(name, name)}()" if name else "the call"


_PUBLIC_NAMES = dict(_WORD_NAMES)


def plain_names(message, instr=None, source=None):
    """Python's message with the language's names for its own functions (`_as_int()` is `int()`),
    and a class's `Name.__init__()` as the call the program wrote (`nn.Conv2d()`, not the
    `_ConvNd.__init__()` of the class it derives from)."""
    message = _CALLED.sub(lambda m: f"{_WORD_NAMES.get(m.group(1), m.group(1).lstrip('_'))}()", message)
    init = _INIT.match(message)
    if init is not None:
        node = instr[2] if instr is not None else None
        if node is not None and node.kind == "call" and source is not None:
            callee = node.args[0]
            called = source[callee.start:callee.end]
        else:
            called = init.group(1).strip("_")
        message = f"{called}(){message[init.end():]}"
    return message


_INIT = re.compile(r"([A-Za-z_][\w]*)\.__init__\(\)")


def _bounded(items):
    """The items to unpack or extend with: a list or tuple as it is, anything else read under the limit."""
    return items if isinstance(items, (list, tuple)) else bounded_list(items)


_PYTHON_ONLY = frozenset({"open", "eval", "exec", "compile", "setattr", "delattr",
                          "globals", "locals", "vars", "dir", "input", "exit", "quit", "object",
                          "help", "breakpoint", "memoryview", "bytearray", "bytes", "classmethod",
                          "staticmethod", "property", "super", "issubclass", "iter", "next"})


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


# ----------------------------------------------------------------- semantics

def is_program_call(func):
    c = func.__class__
    return c is BoundMethod or c is UserClass or c is UserInstance


def _is_function(value):
    return value.__class__ is UserFunction


def get_attribute(obj, name, node):
    """obj.name through the allow-list, with the closest names as a hint when it fails."""
    try:
        return lookup_attribute(obj, name)
    except AttributeError as e:
        hint = None
        if not is_program_object(obj):
            close = difflib.get_close_matches(name, attribute_names(obj), n=3, cutoff=0.6)
            hint = ("did you mean " + " or ".join(close) + "?") if close else None
        raise ScriptError(str(e), node.start, node.end, hint=hint, kind="AttributeError") from None


def lookup_attribute(obj, name):
    """obj.name through the allow-list: the one way a program reads an attribute (`obj.name`,
    getattr, hasattr). AttributeError, with Python's message, where there is none to read."""
    cls = obj.__class__
    if cls is E.Tensor or cls is Namespace:  # the commonest, read from their tables alone (names.attribute)
        return attribute(obj, name)
    if is_program_object(obj):
        return class_attribute(obj, name, _is_function)
    if cls is LayerSuper:
        return obj.lookup(name, layer_attributes(obj.instance))
    if obj.__class__ is str and name == "format":
        return _str_format(obj)
    try:
        value = modules.extra_attribute(obj, name)
        return attribute(obj, name) if value is modules._MISSING else value
    except AttributeError:
        if isinstance(obj, modules.TypeView):  # as Python says it of a class
            raise AttributeError(f"type object '{obj.name}' has no attribute '{name}'") from None
        raise


_NO_DEFAULT = object()
_ABSENT = object()  # hasattr's default: a value no attribute can be


def _getattr(obj, name, default=_NO_DEFAULT):
    """Python's getattr, through the language's attribute rules."""
    if name.__class__ is not str:
        raise TypeError(f"attribute name must be string, not '{type(name).__name__}'")
    try:
        return lookup_attribute(obj, name)
    except AttributeError:
        if default is _NO_DEFAULT:
            raise
        return default


def _hasattr(obj, name):
    """Python's hasattr, through the language's attribute rules."""
    return _getattr(obj, name, _ABSENT) is not _ABSENT


def _callable(obj):
    """Python's callable: an instance of a program's class only when its class has __call__."""
    if obj.__class__ is UserInstance:
        return obj.cls.lookup("__call__") is not MISSING
    return callable(obj)


def _iter(obj, *sentinel):
    """Python's iter(x): an iterator over what a for loop may walk (an iterator gives itself)."""
    if sentinel:
        raise TypeError("iter(callable, sentinel) is not supported here: write a while loop")
    return iterate(obj)


def _next(it, *default):
    """Python's next(it[, default]): the iterator's next item; once it is used up, the default,
    or StopIteration where none is given."""
    if len(default) > 1:
        raise TypeError(f"next expected at most 2 arguments, got {1 + len(default)}")
    if it.__class__ is UserInstance:  # its class's __next__ (without a call of its __iter__)
        return next(it, *default)
    if not hasattr(type(it), "__next__") or iterate(it) is not it:  # iterate: only what a for loop may walk
        raise TypeError(f"'{_python_type(it)}' object is not an iterator")
    return next(it, *default)


for _f, _name in ((_getattr, "getattr"), (_hasattr, "hasattr"), (_callable, "callable"), (_iter, "iter"),
                  (_next, "next")):
    _f.__name__ = _f.__qualname__ = _name
    modules.EXTRA_BUILTINS[_name] = _f


def index(obj, key):
    if isinstance(obj, E.Tensor):
        return obj[key]
    if isinstance(obj, (list, tuple, str, range)):
        if isinstance(key, E.Tensor):
            key = key.__index__()
        return obj[key]
    if obj.__class__ is dict or obj.__class__ is _np.ndarray or obj.__class__ is UserInstance \
            or obj.__class__ in _INDEXABLE:
        return obj[key]
    if _layer_types_added():
        return index(obj, key)
    raise TypeError(f"{_describe(obj)} can't be indexed")


def store_index(obj, key, value):
    if isinstance(obj, E.Tensor):
        obj[key] = value
    elif obj.__class__ in (list, dict, _np.ndarray, UserInstance) or obj.__class__ in _ITEM_ASSIGNABLE:
        obj[key] = value
    elif _layer_types_added():
        store_index(obj, key, value)
    else:
        raise TypeError(f"{_describe(obj)} does not support item assignment")


def delete_index(obj, key):
    """`del obj[key]` for lists, dicts and nn.ModuleDict."""
    if obj.__class__ is list or obj.__class__ is dict or obj.__class__ in _DELETABLE \
            or obj.__class__ in _ITEM_ASSIGNABLE and isinstance(obj, dict):
        if isinstance(key, E.Tensor):
            key = key.__index__()
        del obj[key]
    elif _layer_types_added():
        delete_index(obj, key)
    else:
        raise TypeError(f"'{_python_type(obj)}' object does not support item deletion")


def _unpacked(value):
    if isinstance(value, E.Tensor):
        return list(value)
    if isinstance(value, (tuple, list)):
        return value
    try:
        return _bounded(iterate(value))
    except TypeError:
        raise TypeError(f"cannot unpack non-iterable {_python_type(value)} object") from None


def unpack_starred(value, before, after):
    """`a, *rest, z = value`: the first `before` items, a list of the middle ones, the last `after`."""
    items = _unpacked(value)
    if len(items) < before + after:
        raise ValueError(f"not enough values to unpack (expected at least {before + after}, got {len(items)})")
    return list(items[:before]) + [list(items[before:len(items) - after])] + list(items[len(items) - after:])


def unpack(value, n):
    items = _unpacked(value)
    if len(items) != n:
        if len(items) > n:
            raise ValueError(f"too many values to unpack (expected {n})")
        raise ValueError(f"not enough values to unpack (expected {n}, got {len(items)})")
    return items


# a generator reaches a program only from the engine (module.parameters()): the language has no yield
_ITERABLE = (list, tuple, range, str, E.Tensor, zip, enumerate, reversed, types.GeneratorType, UserInstance,
             SequenceIterator, E.data.DataLoader, E.data.TensorDataset) + modules.ITERABLE_TYPES
# the dicts an optimiser and a scheduler hold: opt.state (a defaultdict), MultiStepLR.milestones (a Counter)
_INDEXABLE = frozenset({E.data.TensorDataset, collections.defaultdict, collections.Counter, collections.OrderedDict,
                        modules.TypingName})
_ITEM_ASSIGNABLE = frozenset({collections.OrderedDict, collections.defaultdict, collections.Counter})
_DELETABLE = frozenset()
_layer_types = []  # torch.nn's containers, once added to the tables above


def _layer_types_added():
    """Whether torch.nn's containers (Sequential, ModuleList, ModuleDict, ParameterList) have just been
    added to the tables above. torch.nn is imported when a program first reads it (engine.__getattr__),
    and until then no value can be one of its layers: the tables take them at the first value they
    refuse after that, and the refusing check asks again."""
    global _ITERABLE, _INDEXABLE, _ITEM_ASSIGNABLE, _DELETABLE
    nn = E.nn_if_loaded()
    if nn is None or _layer_types:
        return False
    _layer_types.extend((nn.Sequential, nn.ModuleList, nn.ModuleDict, nn.ParameterList))
    _ITERABLE += tuple(_layer_types)
    _INDEXABLE |= frozenset(_layer_types)
    _ITEM_ASSIGNABLE |= {nn.ModuleList, nn.ModuleDict, nn.ParameterList}  # layers registered as assigned
    _DELETABLE = frozenset({nn.ModuleDict})
    return True


def iterate(value):
    if isinstance(value, _ITERABLE) or hasattr(value, "_fields") \
            or value.__class__.__name__ == "list_reverseiterator":
        return iter(value)
    if _layer_types_added():
        return iterate(value)
    raise TypeError(f"'{_python_type(value)}' object is not iterable")


def format_value(value, spec, conversion=None):
    """One formatted field (f-strings, str.format): Python's format(value,
    spec) after !r / !s / !a, with the spec's width checked first; a value
    that is not a tensor or number shows in the language's words."""
    if conversion == "r" or conversion == "a":
        value = show(value, as_repr=True)
        if conversion == "a":
            value = value.encode("ascii", "backslashreplace").decode("ascii")
    elif conversion == "s":
        value = show(value)
    if not spec and not isinstance(value, (E.Tensor, _np.ndarray, _np.generic)):
        return show(value)
    check_format_spec(spec)
    return format(value, spec)


class _Formatter(string.Formatter):
    """str.format with the language's rules: {0.attr} and {0[key]} go through
    the allow-list (no dunders), fields format as f-string fields do."""

    def get_field(self, field_name, args, kwargs):
        first, rest = _formatter_field_name_split(field_name)
        obj = self.get_value(first, args, kwargs)
        for is_attr, key in rest:
            obj = get_attribute(obj, key, _NO_NODE) if is_attr else index(obj, key)
        return obj, first

    def format_field(self, value, format_spec):
        return format_value(value, format_spec)

    def convert_field(self, value, conversion):
        if conversion is None:
            return value
        if conversion not in ("r", "s", "a"):
            raise ValueError(f"Unknown conversion specifier {conversion}")
        return format_value(value, "", conversion)


class _NoNode:
    start = end = None


_NO_NODE = _NoNode()
_FORMATTER = _Formatter()


def _str_format(text):
    def format(*args, **kwargs):  # noqa: A001 - shown as the str method it is
        return _FORMATTER.vformat(text, args, kwargs)
    return format


def _describe(value):
    if isinstance(value, UserFunction):
        return f"function {value.code.name}"
    return describe(value)


_LOCALS = re.compile(r"(?:(?:\b\w+|<\w+>)\.<locals>\.|<(?:listcomp|genexpr|setcomp|dictcomp)>\.)+")

_KINDS = {MemoryError: "MemoryError", RecursionError: "RecursionError", E.GradcheckError: "GradcheckError"}
_KINDS.update((cls, name) for name, cls in modules.EXCEPTIONS.items() if cls not in (BaseException, Exception))


def _kind(e):
    """The name of the Python or PyTorch class an error is (an engine error's base: RuntimeError...)."""
    return next((_KINDS[c] for c in type(e).__mro__ if c in _KINDS), "RuntimeError")


def script_error(e, instr, interpreter):
    """An engine or Python exception raised by one instruction, as a ScriptError at its span."""
    node = instr[2] if instr is not None else None
    kind = _kind(e)
    message = str(e) or kind
    message = plain_words(plain_names(_LOCALS.sub("", message), instr, interpreter.source))
    if isinstance(e, KeyError):
        message = f"no {e.args[0]!r}" if e.args else "key not found"
    hint = None
    if isinstance(e, MemoryError):
        message, hint = memory_error_message(e, interpreter.max_memory)
    if isinstance(e, E.DeviceError):
        kind = "DeviceError"
    if isinstance(e, ImportError):
        hint = f"what can be imported: {modules.SUPPORTED}"
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


# ------------------------------------------------------------ the instructions
# A handler an opcode (those alike share helpers): handler(vm, frames, frame, arg, node) runs an
# instruction `(opcode, arg, node)` of `frame`, the innermost of `frames`, for the
# interpreter `vm`. It gives None to go on in that frame, or the frame that runs next (a
# call's, a comprehension's, a caller's after a return) or _Finished (the bottom frame
# returned): what Interpreter._return gives. The loop looks the handler up by its opcode
# in _HANDLERS, a tuple made once below.

_BY_OPCODE = {}


def _handles(opcode):
    """Make the decorated function the handler of `opcode`."""
    def register(handler):
        _BY_OPCODE[opcode] = handler
        return handler
    return register


def _take(stack, n):
    """The top `n` items of the stack in order, taken off it."""
    if not n:
        return []
    items = stack[-n:]
    del stack[-n:]
    return items


def _take_keywords(stack, names):
    """The values of keyword `names` (the last on top), taken off the stack, as a dict."""
    return dict(zip(names, _take(stack, len(names))))


def _enclosing_scopes(frame):
    """The scopes a function or comprehension made in `frame` sees: the frame's locals, then its own scopes."""
    return (frame.locals,) + frame.scopes if frame.locals is not None else ()


def _instruction(frame):
    """The instruction the frame is running (its pc has moved on): an error raised by the program keeps it."""
    return frame.code.instructions[frame.pc - 1]


def _running(frame, instr):
    """The instruction that raised, where the loop last fetched `instr`: in a run (vm_runs.py), the one
    its pc is past."""
    if instr is None or instr[0] != vm_runs.RUN:
        return instr
    return frame.code.instructions[frame.pc - 1]


# ---- names

@_handles(C.LOAD_FAST)
def _op_load_fast(vm, frames, frame, arg, node):
    """A function's own variable; UnboundLocalError before it is assigned."""
    try:
        frame.stack.append(frame.locals[arg])
    except KeyError:
        raise _unbound_local(arg, node) from None


@_handles(C.LOAD)
def _op_load(vm, frames, frame, arg, node):
    """A global or built-in name."""
    try:
        frame.stack.append(vm.globals[arg])  # (the commonest: a script's variable)
    except KeyError:
        frame.stack.append(vm._load(frame, arg, node))


@_handles(C.LOAD_DEREF)
def _op_load_deref(vm, frames, frame, arg, node):
    """A variable of an enclosing function, `arg` (name, how many scopes out)."""
    name, depth = arg
    scope = frame.scopes[depth - 1]
    if name in scope:
        frame.stack.append(scope[name])
    else:
        raise _unbound_free(name, node)


@_handles(C.CONST)
def _op_const(vm, frames, frame, arg, node):
    """A literal value."""
    frame.stack.append(arg)


@_handles(C.STORE_FAST)
def _op_store_fast(vm, frames, frame, arg, node):
    """Assign a function's own variable."""
    frame.locals[arg] = frame.stack.pop()


@_handles(C.STORE)
def _op_store(vm, frames, frame, arg, node):
    """Assign a name where the frame keeps its names (a declared global: the globals)."""
    vm._store(frame, arg, frame.stack.pop())


@_handles(C.STORE_DEREF)
def _op_store_deref(vm, frames, frame, arg, node):
    """Assign an enclosing function's variable (`nonlocal`)."""
    frame.scopes[arg[1] - 1][arg[0]] = frame.stack.pop()


@_handles(C.STORE_GLOBAL)
def _op_store_global(vm, frames, frame, arg, node):
    """Assign a global from inside a function (`global`)."""
    vm.globals[arg] = frame.stack.pop()


@_handles(C.DELETE)
def _op_delete(vm, frames, frame, arg, node):
    """`del name`, `arg` (which scope, name, how many scopes out)."""
    kind, name, depth = arg
    vm._delete(frame, kind, name, depth, node)


# ---- the stack

@_handles(C.POP)
def _op_pop(vm, frames, frame, arg, node):
    """Drop the top value (an expression statement's)."""
    frame.stack.pop()


@_handles(C.DUP)
def _op_dup(vm, frames, frame, arg, node):
    """The top value twice (chained assignment, augmented targets)."""
    stack = frame.stack
    stack.append(stack[-1])


@_handles(C.ROT2)
def _op_rot2(vm, frames, frame, arg, node):
    """Swap the two top values."""
    stack = frame.stack
    stack[-1], stack[-2] = stack[-2], stack[-1]


# ---- operators, attributes, items

def _operator(apply):
    """The handler of an operator of two operands, `apply(symbol, a, b)`: at the operator's span, its value
    recorded."""
    def handler(vm, frames, frame, arg, node):
        stack = frame.stack
        b = stack.pop()
        a = stack.pop()
        vm.cursor.span = node
        stack.append(apply(arg, a, b))
        if vm.record is not None:
            vm.record(stack[-1])
    handler.__name__ = handler.__qualname__ = f"_op_{apply.__name__}"  # as a profile shows it
    return handler


_op_binary = _handles(C.BINARY)(_operator(binary))     # a + b
_op_inplace = _handles(C.INPLACE)(_operator(inplace))  # a += b: in place for a tensor


@_handles(C.UNARY)
def _op_unary(vm, frames, frame, arg, node):
    """-a, +a, ~a; its value recorded."""
    stack = frame.stack
    vm.cursor.span = node
    stack.append(unary(arg, stack.pop()))
    if vm.record is not None:
        vm.record(stack[-1])


@_handles(C.NOT)
def _op_not(vm, frames, frame, arg, node):
    """`not a`."""
    stack = frame.stack
    stack.append(not truth(stack.pop()))


@_handles(C.COMPARE)
def _op_compare(vm, frames, frame, arg, node):
    """A comparison, chained or not: `arg` the operators, their operands on the stack."""
    stack = frame.stack
    operands = _take(stack, len(arg) + 1)
    vm.cursor.span = node
    stack.append(compare(arg, operands))


@_handles(C.ATTR)
def _op_attr(vm, frames, frame, arg, node):
    """obj.name."""
    stack = frame.stack
    vm.cursor.span = node  # reading .grad of a non-leaf warns: say where
    obj = stack.pop()
    if obj.__class__ is E.Tensor and arg in TENSOR_ATTRIBUTES:  # the commonest: what names.attribute reads
        stack.append(getattr(obj, arg))
    else:
        stack.append(get_attribute(obj, arg, node))


@_handles(C.STORE_ATTR)
def _op_store_attr(vm, frames, frame, arg, node):
    """obj.name = value: any attribute of a program's object, only the settable ones of the engine's."""
    stack = frame.stack
    obj = stack.pop()
    value = stack.pop()
    if is_program_object(obj):
        set_class_attribute(obj, arg, value)
        return
    if not settable(obj, arg):
        raise AttributeError(f"can't set '{arg}' here (only a tensor's grad, requires_grad "
                             f"and data can be set)")
    setattr(obj, arg, value)


@_handles(C.DELETE_ATTR)
def _op_delete_attr(vm, frames, frame, arg, node):
    """del obj.name: a program object's attribute, or one the engine lets a program set (a tensor's
    grad, an nn layer's parameter or sub-layer)."""
    obj = frame.stack.pop()
    vm.cursor.span = node
    if is_program_object(obj):
        delete_class_attribute(obj, arg)
    elif settable(obj, arg) and hasattr(obj, arg):
        delattr(obj, arg)
    elif not hasattr(obj, arg):
        raise AttributeError(f"'{type(obj).__name__}' object has no attribute '{arg}'")
    else:
        raise AttributeError(f"can't delete '{arg}' here (only a tensor's grad and an nn layer's "
                             f"parameters and sub-layers can be deleted)")


@_handles(C.INDEX)
def _op_index(vm, frames, frame, arg, node):
    """obj[key]; its value recorded. With `arg` "keep", obj and key stay below it (for obj[key] += ...)."""
    stack = frame.stack
    key = stack.pop()
    obj = stack.pop()
    if arg == "keep":
        stack.append(obj)
        stack.append(key)
    vm.cursor.span = node
    stack.append(index(obj, key))
    if vm.record is not None:
        vm.record(stack[-1])


@_handles(C.STORE_INDEX)
def _op_store_index(vm, frames, frame, arg, node):
    """obj[key] = value; with `arg` "kept", the value is on top of what INDEX "keep" left."""
    stack = frame.stack
    if arg == "kept":
        value = stack.pop()
        key = stack.pop()
        obj = stack.pop()
    else:
        key = stack.pop()
        obj = stack.pop()
        value = stack.pop()
    vm.cursor.span = node
    store_index(obj, key, value)


@_handles(C.DELETE_INDEX)
def _op_delete_index(vm, frames, frame, arg, node):
    """`del obj[key]`."""
    stack = frame.stack
    key = stack.pop()
    obj = stack.pop()
    vm.cursor.span = node
    delete_index(obj, key)


@_handles(C.SLICE)
def _op_slice(vm, frames, frame, arg, node):
    """start:stop:step (as an index)."""
    stack = frame.stack
    step = stack.pop()
    stop = stack.pop()
    start = stack.pop()
    stack.append(slice(start, stop, step))


# ---- jumps

@_handles(C.JUMP)
def _op_jump(vm, frames, frame, arg, node):
    """Go to instruction `arg` (back: a loop's turn, which may make its code hot)."""
    back = arg < frame.pc
    frame.pc = arg
    if back and frame.code.dispatch is frame.code.instructions and _heated(frame.code):
        return frame  # (the loop takes up the code's new dispatch list)


def _heated(code):
    """Count a loop turn or a call of `code`; once it is hot, its runs are made (vm_runs.py). Whether they
    were, just now."""
    code.heat += 1
    if code.heat < vm_runs.HOT:
        return False
    code.dispatch = vm_runs.dispatch_of(code, _RUN_HELPERS)
    return True


@_handles(vm_runs.RUN)
def _op_run(vm, frames, frame, arg, node):
    """A run of instructions as one function (vm_runs.py); where the step budget ends inside it, its
    first instruction by its handler instead (and the rest one by one, as the loop counts them)."""
    n = arg.n
    if vm.steps + n - 1 > vm.max_steps:
        first = frame.code.instructions[arg.start]
        return _BY_OPCODE[first[0]](vm, frames, frame, first[1], first[2])
    vm.steps += n - 1
    try:
        return (arg.function if vm.record is None else arg.recording())(vm, frames, frame)
    except BaseException:
        vm.steps -= arg.start + n - frame.pc  # (the steps of the instructions it did not reach)
        raise


@_handles(C.JUMP_IF_FALSE)
def _op_jump_if_false(vm, frames, frame, arg, node):
    """if / while: go to `arg` when the condition (taken off) is false."""
    if not truth(frame.stack.pop()):
        frame.pc = arg


@_handles(C.JUMP_IF_FALSE_KEEP)
def _op_jump_if_false_keep(vm, frames, frame, arg, node):
    """`a and b`: a false `a` is the value (kept, go to `arg`); a true one is dropped for b."""
    stack = frame.stack
    if truth(stack[-1]):
        stack.pop()
    else:
        frame.pc = arg


@_handles(C.JUMP_IF_TRUE_KEEP)
def _op_jump_if_true_keep(vm, frames, frame, arg, node):
    """`a or b`: a true `a` is the value (kept, go to `arg`); a false one is dropped for b."""
    stack = frame.stack
    if truth(stack[-1]):
        frame.pc = arg
    else:
        stack.pop()


@_handles(C.JUMP_UNWIND)
def _op_jump_unwind(vm, frames, frame, arg, node):
    """break or continue out of blocks, `arg` (target, how many blocks stay open): a `finally` on the way
    runs first, then jumps on."""
    target, depth = arg
    fin = vm._leave_blocks(frame, depth)
    if fin is not None:
        frame.stack.append(_Pending("jump", arg))
        frame.pc = fin
    else:
        frame.pc = target


# ---- tuples, lists, dicts, sets, strings

@_handles(C.TUPLE)
def _op_tuple(vm, frames, frame, arg, node):
    """A tuple of the top `arg` values."""
    stack = frame.stack
    stack.append(tuple(_take(stack, arg)))


@_handles(C.LIST)
def _op_list(vm, frames, frame, arg, node):
    """A list of the top `arg` values."""
    stack = frame.stack
    stack.append(_take(stack, arg))


@_handles(C.LIST_TO_TUPLE)
def _op_list_to_tuple(vm, frames, frame, arg, node):
    """A tuple display with *items, built as a list."""
    stack = frame.stack
    stack.append(tuple(stack.pop()))


@_handles(C.BUILD_MAP)
def _op_build_map(vm, frames, frame, arg, node):
    """An empty dict (a display or comprehension fills it)."""
    frame.stack.append({})


@_handles(C.BUILD_SET)
def _op_build_set(vm, frames, frame, arg, node):
    """An empty set (a display or comprehension fills it)."""
    frame.stack.append(set())


@_handles(C.LIST_APPEND)
def _op_list_append(vm, frames, frame, arg, node):
    """Append the top value to the list `arg` below it, within the item limit."""
    stack = frame.stack
    value = stack.pop()
    target = stack[-arg - 1]
    target.append(value)
    if len(target) > _budgets.max_items:
        check_items(len(target))


@_handles(C.SET_ADD)
def _op_set_add(vm, frames, frame, arg, node):
    """Add the top value to the set `arg` below it."""
    stack = frame.stack
    value = stack.pop()
    stack[-arg - 1].add(value)


@_handles(C.MAP_ADD)
def _op_map_add(vm, frames, frame, arg, node):
    """Put the key and value on top into the dict `arg` below them."""
    stack = frame.stack
    value = stack.pop()
    key = stack.pop()
    stack[-arg - 1][key] = value


@_handles(C.MAP_UPDATE)
def _op_map_update(vm, frames, frame, arg, node):
    """{**mapping} in a dict display."""
    stack = frame.stack
    mapping = stack.pop()
    if not isinstance(mapping, dict):
        raise TypeError(f"'{_python_type(mapping)}' object is not a mapping")
    stack[-1].update(mapping)


@_handles(C.UNPACK)
def _op_unpack(vm, frames, frame, arg, node):
    """a, b = value: its `arg` items, the first on top."""
    stack = frame.stack
    stack.extend(reversed(unpack(stack.pop(), arg)))


@_handles(C.UNPACK_EX)
def _op_unpack_ex(vm, frames, frame, arg, node):
    """a, *rest, z = value, `arg` (targets before the star, after it)."""
    stack = frame.stack
    stack.extend(reversed(unpack_starred(stack.pop(), *arg)))


@_handles(C.FORMAT)
def _op_format(vm, frames, frame, arg, node):
    """An f-string's field, `arg` (conversion, spec; a spec of None was computed: it is on top)."""
    stack = frame.stack
    conversion, spec = arg
    if spec is None:
        spec = stack.pop()
    stack.append(format_value(stack.pop(), spec, conversion))


@_handles(C.FSTRING)
def _op_fstring(vm, frames, frame, arg, node):
    """An f-string: its `arg` pieces joined."""
    stack = frame.stack
    stack.append("".join(_take(stack, arg)))


# ---- iteration

@_handles(C.GET_ITER)
def _op_get_iter(vm, frames, frame, arg, node):
    """The iterator a for loop walks."""
    stack = frame.stack
    stack.append(iterate(stack.pop()))


@_handles(C.FOR_ITER)
def _op_for_iter(vm, frames, frame, arg, node):
    """The iterator's next item; once it is used up, the iterator goes and the loop ends (go to `arg`)."""
    stack = frame.stack
    try:
        stack.append(next(stack[-1]))
    except StopIteration:
        stack.pop()
        frame.pc = arg


# ---- calls, functions, returns

@_handles(C.CALL)
def _op_call(vm, frames, frame, arg, node):
    """f(a, k=b), `arg` (how many positional values, the keywords' names): the callee, then the values."""
    stack = frame.stack
    npos, kwnames = arg
    kwargs = _take_keywords(stack, kwnames) if kwnames else {}
    args = _take(stack, npos)
    return _call(vm, frames, frame, stack.pop(), args, kwargs, node)


@_handles(C.CALL_EX)
def _op_call_ex(vm, frames, frame, arg, node):
    """f(*args, **kwargs): the callee, then the arguments built as a list and a dict."""
    stack = frame.stack
    kwargs = stack.pop()
    args = stack.pop()
    return _call(vm, frames, frame, stack.pop(), args, kwargs, node)


def _call(vm, frames, frame, func, args, kwargs, node):
    """Call `func`. A program's function (a class's __init__, a method) gets a new frame, which runs next;
    anything else is called here, its value pushed and recorded."""
    constructs = None
    if func.__class__ is not UserFunction and is_program_call(func):
        func, args, constructs = call_target(func, args, kwargs)
        if func is None:  # a class without __init__: the instance itself
            frame.stack.append(constructs)
            return None
    if func.__class__ is UserFunction:
        if len(frames) + vm.depth >= vm.max_depth:
            raise _too_deep(vm.max_depth)
        if func.code.dispatch is func.code.instructions:
            _heated(func.code)
        callee = Frame(func.code, func.bind(args, kwargs), func.scopes, func, constructs)
        frames.append(callee)
        return callee
    stack = frame.stack
    vm.cursor.span = node
    if not callable(func):
        raise _not_callable(func, node, vm.source)
    value = func(*args, **kwargs)
    # (an __init__ of ours, a dataclass's, ran here: the call gives the instance)
    stack.append(value if constructs is None else constructed(value, constructs))
    if vm.record is not None:
        vm.record(stack[-1])
    return None


def _not_callable(func, node, source):
    """The error of a call of what is not a function, with a hint where it reads as a product: x(x+1)."""
    return ScriptError(f"{_describe(func)} is not callable", node.start, node.end, kind="TypeError",
                       hint=_multiplication_hint(func, node, source))


@_handles(C.ARGS_EXTEND)
def _op_args_extend(vm, frames, frame, arg, node):
    """*items into a call's list of arguments, or into a display (`arg` "display")."""
    stack = frame.stack
    items = stack.pop()
    try:
        iterate(items)
    except TypeError:
        where = "Value" if arg == "display" else f"{_callee(stack[-2])} argument"
        raise TypeError(f"{where} after * must be an iterable, not "
                        f"{_python_type(items)}") from None
    target = stack[-1]  # a list (of arguments, or a display's items) or a set display
    (target.update if target.__class__ is set else target.extend)(_bounded(items))
    check_items(len(target))


def _add_keyword(stack, key, value):
    """One keyword argument into the call's dict (on top; the callee two below it), given once only."""
    kwargs = stack[-1]
    if key in kwargs:
        raise TypeError(f"{_callee(stack[-3])} got multiple values for keyword argument '{key}'")
    kwargs[key] = value


@_handles(C.KW_SET)
def _op_kw_set(vm, frames, frame, arg, node):
    """k=value, keyword `arg`, in a call with **kwargs."""
    stack = frame.stack
    _add_keyword(stack, arg, stack.pop())


@_handles(C.KW_MERGE)
def _op_kw_merge(vm, frames, frame, arg, node):
    """**mapping in a call."""
    stack = frame.stack
    mapping = stack.pop()
    if not isinstance(mapping, dict):
        raise TypeError(f"{_callee(stack[-3])} argument after ** must be a mapping, not "
                        f"{_python_type(mapping)}")
    for key, value in mapping.items():
        if not isinstance(key, str):
            raise TypeError("keywords must be strings")
        _add_keyword(stack, key, value)


@_handles(C.MAKE_FUNCTION)
def _op_make_function(vm, frames, frame, arg, node):
    """def or lambda, `arg` (code, how many defaults, keyword-only defaults' names): the defaults' values on
    the stack."""
    stack = frame.stack
    fcode, ndefaults, kwnames = arg
    kwdefaults = _take_keywords(stack, kwnames) if kwnames else None
    defaults = tuple(_take(stack, ndefaults))
    # a method does not see its class body's names
    scopes = frame.scopes if frame.code.class_body else _enclosing_scopes(frame)
    stack.append(UserFunction(fcode, defaults, scopes, vm, kwdefaults))


@_handles(C.COMPREHENSION)
def _op_comprehension(vm, frames, frame, arg, node):
    """Run a comprehension's code, `arg` (code, kind), in a frame of its own, given the iterator on top."""
    fcode, kind = arg
    iterator = frame.stack.pop()
    inner = Frame(fcode, {C.COMPREHENSION_ARG: iterator}, _enclosing_scopes(frame))
    frames.append(inner)
    return inner


@_handles(C.RETURN)
def _op_return(vm, frames, frame, arg, node):
    """return value."""
    value = frame.stack.pop()
    if arg == "genexp":
        # a generator expression is run at once (see compiler._comprehension_body);
        # what it gives is an iterator over its items, used once, as a generator is
        value = iter(value)
    return _return_through_finally(vm, frames, frame, value)


def _return_through_finally(vm, frames, frame, value):
    """Return `value` from the frame; a `finally` block still open runs first (and returns it at its end)."""
    if frame.blocks:
        fin = vm._leave_blocks(frame, 0)
        if fin is not None:
            frame.stack.append(_Pending("return", value))
            frame.pc = fin
            return None
    return vm._return(frames, value)


@_handles(C.KEEP)
def _op_keep(vm, frames, frame, arg, node):
    """The program's final expression: its value is the run's result."""
    vm.result = frame.stack.pop()


# ---- classes

@_handles(C.BUILD_CLASS)
def _op_build_class(vm, frames, frame, arg, node):
    """class `arg`(bases): from its bases and its body's names (an exception, a layer, an autograd Function
    or a class of the program's own)."""
    stack = frame.stack
    namespace = stack.pop()
    bases = stack.pop()
    arg, fields = arg if arg.__class__ is tuple else (arg, ())  # (the names its body annotates)
    if any(modules.is_exception_class(b) for b in bases):
        stack.append(modules.exception_class(arg, bases, namespace))
        return
    # torch.utils.data.Dataset asks nothing of a subclass: a program's class of its own
    bases = [b for b in bases if b is not E.data.Dataset]
    if any(is_layer_class(b) for b in bases):  # class Net(nn.Module)
        stack.append(layer_class(arg, bases, namespace, UserFunction))
        return
    if any(is_function_class(b) for b in bases):  # class F(torch.autograd.Function)
        stack.append(function_class(arg, bases, namespace, UserFunction))
        return
    cls = UserClass(arg, bases, namespace, fields)
    for value in namespace.values():
        if value.__class__ is UserFunction and value.owner is None:
            value.owner = cls
    stack.append(cls)


@_handles(C.SUPER)
def _op_super(vm, frames, frame, arg, node):
    """super() in a method, or super(Class, obj) (`arg` "explicit")."""
    stack = frame.stack
    if arg == "explicit":  # super(Class, obj)
        instance = stack.pop()
        owner = stack.pop()
        if owner.__class__ is not UserClass and not is_layer_class(owner):
            raise TypeError(f"super() argument 1 must be a type, not {_python_type(owner)}")
        stack.append(instance)
    else:
        owner = frame.function.owner if frame.function is not None else None
    if owner is None:
        raise RuntimeError("super(): __class__ cell not found")
    stack.append(SuperProxy(owner, stack.pop()) if owner.__class__ is UserClass
                 else LayerSuper(owner, stack.pop()))


# ---- with, try, except, finally, raise, assert

@_handles(C.WITH_ENTER)
def _op_with_enter(vm, frames, frame, arg, node):
    """with manager: enter it; its block is open until WITH_EXIT (or an error leaves it)."""
    stack = frame.stack
    manager = stack.pop()
    if not is_context_manager(manager):
        raise TypeError("`with` works with no_grad(), enable_grad(), set_grad_enabled(...), "
                        "inference_mode() and a hook's handle here")
    entered = manager.__enter__()
    frame.blocks.append((_WITH, None, len(stack), manager))
    stack.append(entered)


@_handles(C.WITH_EXIT)
def _op_with_exit(vm, frames, frame, arg, node):
    """The end of a with block: exit its manager."""
    frame.blocks.pop()[3].__exit__(None, None, None)


@_handles(C.SETUP_TRY)
def _op_setup_try(vm, frames, frame, arg, node):
    """try (with except clauses): an error goes to the handlers at `arg`."""
    frame.blocks.append((_TRY, arg, len(frame.stack), None))


@_handles(C.SETUP_FINALLY)
def _op_setup_finally(vm, frames, frame, arg, node):
    """try (with finally): an error, return or jump out runs the finally block at `arg` first."""
    frame.blocks.append((_FINALLY, arg, len(frame.stack), None))


@_handles(C.POP_BLOCK)
def _op_pop_block(vm, frames, frame, arg, node):
    """The end of a try block's body."""
    frame.blocks.pop()


@_handles(C.EXC_MATCH)
def _op_exc_match(vm, frames, frame, arg, node):
    """`except spec`: whether the exception under it is one."""
    stack = frame.stack
    cls = stack.pop()
    stack.append(exception_matches(stack.pop(), cls))


@_handles(C.BEGIN_HANDLER)
def _op_begin_handler(vm, frames, frame, arg, node):
    """An except clause starts: its exception is the one a bare `raise` raises again."""
    exc = frame.stack.pop()
    vm.handling.append(exc)
    frame.blocks.append((_HANDLER, None, len(frame.stack), None))


@_handles(C.END_HANDLER)
def _op_end_handler(vm, frames, frame, arg, node):
    """An except clause ends."""
    frame.blocks.pop()
    vm.handling.pop()


@_handles(C.RAISE)
def _op_raise(vm, frames, frame, arg, node):
    """raise exc, or raise exc from cause (`arg` true)."""
    stack = frame.stack
    cause = stack.pop() if arg else None
    exc = make_exception(stack.pop())
    if arg:
        if cause is not None:
            cause = make_exception(cause)
        exc.__cause__ = cause
    if getattr(exc, "_ad_origin", None) is None:
        exc._ad_origin = ("raised", _instruction(frame))
    raise _Raise(exc)


@_handles(C.RERAISE)
def _op_reraise(vm, frames, frame, arg, node):
    """A bare `raise` (the exception being handled), or `arg` "pending": no except clause matched."""
    if arg == "pending":  # no except clause matched: the exception goes on
        raise _Raise(frame.stack.pop())
    if not vm.handling:
        raise RuntimeError("No active exception to reraise")
    raise _Raise(vm.handling[-1])


@_handles(C.BEGIN_FINALLY)
def _op_begin_finally(vm, frames, frame, arg, node):
    """A finally block starts; what it is to do at its end (a _Pending, or None) is on the stack."""
    frame.blocks.append((_FINALLY_BODY, None, len(frame.stack) - 1, None))


@_handles(C.END_FINALLY)
def _op_end_finally(vm, frames, frame, arg, node):
    """A finally block ends: what was pending goes on (raise, return, jump), or nothing was."""
    frame.blocks.pop()
    pending = frame.stack.pop()
    if pending is None:
        return None
    if pending.kind == "raise":
        raise _Raise(pending.value)
    if pending.kind == "return":
        return _return_through_finally(vm, frames, frame, pending.value)
    return _op_jump_unwind(vm, frames, frame, pending.value, node)


@_handles(C.ASSERT)
def _op_assert(vm, frames, frame, arg, node):
    """assert test, or assert test, message (`arg` true)."""
    stack = frame.stack
    message = stack.pop() if arg else None
    if not truth(stack.pop()):
        text = "assertion failed" + (f": {show(message)}" if message is not None else "")
        err = ScriptError(text, node.start, node.end, kind="AssertionError")
        exc = AssertionError(message) if message is not None else AssertionError()
        exc._ad_origin = (err, _instruction(frame))
        err.exception = exc
        raise err


# ---- imports

@_handles(C.IMPORT)
def _op_import(vm, frames, frame, arg, node):
    """import a.b, `arg` (module, whole): the module, or its top package (bound to `a`)."""
    module, whole = arg
    found = modules.resolve(module, vm.modules)
    frame.stack.append(found if whole else modules.resolve(module.split(".")[0], vm.modules))


@_handles(C.IMPORT_FROM)
def _op_import_from(vm, frames, frame, arg, node):
    """from module import name, `arg` (module, name): the module stays on the stack for the next name."""
    module, name = arg
    stack = frame.stack
    try:
        stack.append(modules.import_from(stack[-1], name))
    except ImportError:
        try:  # a submodule: from torch.nn import functional
            stack.append(modules.resolve(f"{module}.{name}", vm.modules))
        except ImportError:
            raise ImportError(f"cannot import name '{name}' from '{module}'") from None


@_handles(C.IMPORT_STAR)
def _op_import_star(vm, frames, frame, arg, node):
    """from module import *: its public names."""
    module = frame.stack.pop()
    for name, value in module.table.items():
        if not name.startswith("_"):
            vm._store(frame, name, value)


# the handlers by opcode (a KeyError here: an opcode without one)
_HANDLERS = tuple(_BY_OPCODE[op] for op in range(len(C.OPCODES) + 1))  # (+ vm_runs.RUN)
# what a run's generated function calls: the handlers' own helpers (vm_runs.py)
_RUN_HELPERS = {"binary": binary, "inplace": inplace, "get_attribute": get_attribute, "Tensor": E.Tensor,
                "TENSOR_ATTRIBUTES": TENSOR_ATTRIBUTES, "TENSOR_SETTABLE": TENSOR_SETTABLE,
                "call": _call, "unbound_local": _unbound_local, "H": _HANDLERS,
                # operands arithmetic.binary hands to Python's operator beside a tensor as they are
                "PLAIN": frozenset({E.Tensor, float, int, bool}),
                # what _call calls as it is: never a program's function, class or method
                "PYTHON_CALLABLES": frozenset({types.FunctionType, types.MethodType, types.BuiltinFunctionType,
                                               types.BuiltinMethodType, type})}
