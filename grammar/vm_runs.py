"""A hot code object's straight runs of instructions, each made one generated Python function.

The interpreter (vm.py) runs one instruction at a time: fetching it, counting the step, finding its
handler and calling it cost ~0.2 us an instruction -- a quarter of a script's training step on
small tensors, where the engine does the rest. Once a code object is hot (its loop has turned
HOT times, or it has been called HOT times), each maximal run of instructions that never jump or
switch frames -- names, constants, operators, attributes, calls, stores; a loop's FOR_ITER at its
start and the jump back at its end, so that a loop turn is one call -- becomes one function
that does their work in order with the stack in Python locals: the handlers' own helpers
(arithmetic's binary, names' attribute reading, vm's _call), each operation's span set and value
recorded as its handler does, and `frame.pc` kept at the next instruction before anything that can
fail, so that an error, a try block, Ctrl-C and the step budget see what the loop would. An
instruction it does not write out itself runs its handler, with the stack spilled first. A call of
a program's function needs a frame: the run leaves there (its rest runs instruction by instruction).

The source is ours alone: templates, register names, indices, the operators' symbols and names as
string literals (repr); a program's values are read from the instructions' own tuples.
"""
import keyword

from . import compiler as C

__all__ = ["HOT", "RUN", "dispatch_of"]

# loop turns (or calls) of a code object before its runs are made: Python's compile() of a run costs
# ~25 us an instruction (4 ms for the polynomial script's 159), a run saves ~0.2 us an instruction run
HOT = 50
MIN_RUN = 3     # a shorter run is left to the loop
MAX_RUN = 500   # instructions in one function at most (a longer straight line: several)
RUN = len(C.OPCODES)  # the opcode of a run in a dispatch list (the compiler never emits it)

# what a run writes out itself
_INLINE = frozenset({C.CONST, C.LOAD, C.LOAD_FAST, C.STORE, C.STORE_FAST, C.POP, C.BINARY, C.INPLACE, C.ATTR,
                     C.CALL})
# what it runs through the handler (each takes and leaves the stack, never jumps or switches frames)
_BY_HANDLER = frozenset({C.DUP, C.ROT2, C.UNARY, C.NOT, C.COMPARE, C.STORE_ATTR, C.INDEX, C.STORE_INDEX,
                         C.SLICE, C.TUPLE, C.LIST, C.LIST_TO_TUPLE, C.BUILD_MAP, C.BUILD_SET, C.FORMAT,
                         C.FSTRING, C.UNPACK, C.STORE_GLOBAL, C.LOAD_DEREF, C.STORE_DEREF,
                         C.WITH_ENTER, C.WITH_EXIT})
RUNNABLE = _INLINE | _BY_HANDLER
# the language's operators that are Python's own on tensors and numbers (arithmetic.py's _BINARY/_INPLACE)
_PYTHON_OPERATORS = {"+": "+", "-": "-", "*": "*", "/": "/", "@": "@", "**": "**", "^": "**"}
_PYTHON_INPLACE = frozenset({"+", "-", "*", "/", "**"})  # (those _INPLACE applies in place: its @ is matmul's)


class Run:
    """One run: its function, its length and first instruction, and -- made when first asked for -- the
    function that also hands each value to the interpreter's `record` (autodiff graph's)."""

    __slots__ = ("function", "n", "start", "_recording", "_code", "_helpers")

    def __init__(self, code, start, end, helpers):
        self.function = _function(code, start, end, helpers, False)
        self.n, self.start = end - start, start
        self._recording, self._code, self._helpers = None, code, helpers

    def recording(self):
        if self._recording is None:
            self._recording = _function(self._code, self.start, self.start + self.n, self._helpers, True)
        return self._recording


def dispatch_of(code, helpers):
    """The list the loop dispatches from for `code`: its instructions, with the first of each run
    replaced by (RUN, Run, node). `helpers`: what the generated functions call (vm.py's _RUN_HELPERS)."""
    instructions = code.instructions
    dispatch = list(instructions)
    start = 0
    n = len(instructions)
    while start < n:
        first = instructions[start][0]
        if first not in RUNNABLE and first != C.FOR_ITER:
            start += 1
            continue
        end = start + 1  # (a loop's FOR_ITER only begins a run: where the loop ends, the run leaves)
        while end < n and end - start < MAX_RUN and instructions[end][0] in RUNNABLE:
            end += 1
        if end < n and instructions[end][0] == C.JUMP:  # (a jump only ends one: a loop turn's last)
            end += 1
        if end - start >= MIN_RUN:
            dispatch[start] = (RUN, Run(code, start, end, helpers), instructions[start][2])
        start = end
    return dispatch


class _Writer:
    """The body of one run's function over `instructions`: lines, and the stack's top part as the locals
    that hold it (below them, whatever `S`, the frame's stack, held when the run began)."""

    def __init__(self, instructions):
        self.instructions = instructions
        self.lines = []
        self.stack = []
        self.count = 0

    def emit(self, line):
        self.lines.append("    " + line)

    def fresh(self):
        self.count += 1
        return f"v{self.count}"

    def push(self, expression):
        self.stack.append(expression)

    def pop(self):
        if self.stack:
            return self.stack.pop()
        name = self.fresh()
        self.emit(f"{name} = S.pop()")
        return name

    def spill(self):
        """Put the locals' part of the stack back on the frame's stack."""
        if self.stack:
            self.emit(_spill_line(self.stack))
        self.stack.clear()

    def load(self, i, table, missing):
        """Push the value of instruction i's name in `table` (G or L); `missing`: the value (or the raise)
        where the table has no such name."""
        v = self.fresh()
        self.emit("try:")
        self.emit(f"    {v} = {table}[{self.instructions[i][1]!r}]")
        self.emit("except KeyError:")
        self.emit(f"    frame.pc = {i + 1}")
        self.emit(f"    {missing}" if missing.startswith("raise ") else f"    {v} = {missing}")
        self.push(v)

    def at(self, i):
        """Before an instruction that can fail (or call out): the frame's pc past it, as the loop keeps it."""
        self.emit(f"frame.pc = {i + 1}")


def _function(code, start, end, helpers, recording):
    instructions = code.instructions
    module = code.name == "<program>"  # (a program's own frame keeps its names in the globals)
    w = _Writer(instructions)
    for i in range(start, end):
        op, arg, _ = instructions[i]
        if op == C.FOR_ITER:  # (first: the loop fetched it, its pc is past it already)
            v = w.fresh()
            w.emit("try:")
            w.emit(f"    {v} = next(S[-1])")
            w.emit("except StopIteration:  # the loop is over: the iterator goes, the rest of the run does not run")
            w.emit("    S.pop()")
            w.emit(f"    frame.pc = {arg}")
            w.emit(f"    vm.steps -= {end - i - 1}")
            w.emit("    return None")
            w.push(v)
        elif op == C.JUMP:  # (last)
            w.spill()
            w.emit(f"frame.pc = {arg}")
            w.emit("return None")
        elif op == C.CONST:
            w.push(f"I[{i}][1]")  # (a constant: read where it is used)
        elif op == C.LOAD:  # a global (or a built-in: the handler's lookup, which says when there is none)
            w.load(i, "G", f"vm._load(frame, {arg!r}, I[{i}][2])")
        elif op == C.LOAD_FAST:
            w.load(i, "L", f"raise unbound_local({arg!r}, I[{i}][2]) from None")
        elif op == C.STORE:
            value = w.pop()
            if arg in code.globals_declared or module:
                w.emit(f"G[{arg!r}] = {value}")
            else:
                w.emit(f"(G if L is None else L)[{arg!r}] = {value}")
        elif op == C.STORE_FAST:
            w.emit(f"L[{arg!r}] = {w.pop()}")
        elif op == C.POP:
            if w.stack:
                w.stack.pop()
            else:
                w.emit("S.pop()")
        elif op == C.BINARY or op == C.INPLACE:
            b = w.pop()
            a = w.pop()
            v = w.fresh()
            w.at(i)
            w.emit(f"C.span = I[{i}][2]")
            symbol = _PYTHON_OPERATORS.get(arg) if op == C.BINARY or arg in _PYTHON_INPLACE else None
            if symbol is None:
                w.emit(f"{v} = {'binary' if op == C.BINARY else 'inplace'}({arg!r}, {a}, {b})")
            elif op == C.BINARY:  # a tensor and a tensor or a number: binary() would apply Python's operator
                w.emit(f"{v} = {a} {symbol} {b} if ({a}.__class__ is Tensor and {b}.__class__ in PLAIN or "
                       f"{b}.__class__ is Tensor and {a}.__class__ in PLAIN) else binary({arg!r}, {a}, {b})")
            else:  # a tensor in place by a tensor or a number: inplace() would apply Python's operator
                w.emit(f"if {a}.__class__ is Tensor and {b}.__class__ in PLAIN:")
                w.emit(f"    {v} = {a}")
                w.emit(f"    {v} {symbol}= {b}")
                w.emit("else:")
                w.emit(f"    {v} = inplace({arg!r}, {a}, {b})")
            if recording:
                w.emit(f"rec({v})")
            w.push(v)
        elif op == C.ATTR:
            obj = w.pop()
            v = w.fresh()
            w.at(i)
            w.emit(f"C.span = I[{i}][2]")  # (reading .grad of a non-leaf warns: say where)
            if arg in helpers["TENSOR_ATTRIBUTES"]:  # (a tensor's public names: identifiers, read directly)
                w.emit(f"{v} = {_attribute(obj, arg)} if {obj}.__class__ is Tensor "
                       f"else get_attribute({obj}, {arg!r}, I[{i}][2])")
            else:
                w.emit(f"{v} = get_attribute({obj}, {arg!r}, I[{i}][2])")
            w.push(v)
        elif op == C.CALL:
            npos, names = arg
            values = [w.pop() for _ in range(npos + len(names))][::-1]
            function = w.pop()
            args = values[:npos]
            kwargs = ", ".join(f"{name!r}: {value}" for name, value in zip(names, values[npos:]))
            w.at(i)
            v = w.fresh()
            # a function of Python's (an engine function, a tensor's method, a class of the engine's): called
            # here as _call calls it; anything else (a program's function, class or method) by _call itself
            w.emit(f"if {function}.__class__ in PYTHON_CALLABLES:")
            w.emit(f"    C.span = I[{i}][2]")
            w.emit(f"    {v} = {function}({', '.join(args)}{', ' if args and kwargs else ''}"
                   f"{'**{' + kwargs + '}' if kwargs else ''})")
            if recording:
                w.emit(f"    rec({v})")
            w.emit("else:")
            w.emit(f"    switched = call(vm, frames, frame, {function}, [{', '.join(args)}], {{{kwargs}}}, I[{i}][2])")
            w.emit("    if switched is not None:  # a program's function: its frame runs next, then the loop goes on")
            if w.stack:  # (what the run holds below the call goes back on the frame's stack, in order)
                w.emit("        " + _spill_line(w.stack))
            w.emit(f"        vm.steps -= {end - i - 1}  # (the steps of the run's rest: the loop counts them)")
            w.emit("        return switched")
            w.emit(f"    {v} = S.pop()")  # (the call's value, which _call left on the frame's stack)
            w.push(v)
        elif op == C.STORE_ATTR and arg in helpers["TENSOR_SETTABLE"]:
            obj = w.pop()
            value = w.pop()
            w.spill()
            w.at(i)
            w.emit(f"if {obj}.__class__ is Tensor:  # (settable: what the handler would check)")
            w.emit(f"    {_attribute(obj, arg)} = {value}")
            w.emit("else:")
            w.emit(f"    S.append({value})")
            w.emit(f"    S.append({obj})")
            w.emit(f"    H[{op}](vm, frames, frame, I[{i}][1], I[{i}][2])")
        else:  # a handler's own work, on the frame's stack
            w.spill()
            w.at(i)
            w.emit(f"H[{op}](vm, frames, frame, I[{i}][1], I[{i}][2])")
    if instructions[end - 1][0] != C.JUMP:
        w.spill()
        w.emit(f"frame.pc = {end}")
    source = (f"def run_{start}(vm, frames, frame):\n"
              "    S = frame.stack\n    G = vm.globals\n    L = frame.locals\n    C = vm.cursor\n"
              + ("    rec = vm.record\n" if recording else "")
              + "\n".join(w.lines) + "\n")
    namespace = dict(helpers, I=instructions)
    exec(compile(source, f"<run {start}-{end} of {code.qualname}>", "exec"), namespace)
    return namespace[f"run_{start}"]


def _attribute(obj, name):
    """`obj.name` as source text, to read or assign, for one of the engine's attribute names
    (TENSOR_ATTRIBUTES, TENSOR_SETTABLE: our own identifiers, never a program's text)."""
    if not name.isidentifier() or keyword.iskeyword(name) or name.startswith("__"):
        raise ValueError(f"not one of the engine's attribute names: {name!r}")
    return f"{obj}.{name}"


def _spill_line(items):
    return f"S.append({items[0]})" if len(items) == 1 else f"S.extend(({', '.join(items)},))"
