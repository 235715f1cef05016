"""A session: programs run one after another in the same names (a script, or
the lines of a REPL), with the engine's default device and dtype set for it."""
from .. import engine as E
from .compiler import compile_program
from .errors import ScriptError
from .budget import DEFAULT_MAX_MEMORY, MemoryBudget
from .job import engine_settings, out_of_memory
from .parser import parse
from .vm import Interpreter

__all__ = ["Session"]


class Session:
    def __init__(self, out=None, max_steps=100_000_000, max_depth=200, device=None, dtype=None, seed=None,
                 max_memory=None):
        self.max_memory = DEFAULT_MAX_MEMORY if max_memory is None else max_memory
        self.on_gpu = device in ("cuda", "gpu")
        self._settings = engine_settings(dtype, device)
        try:
            self._settings.__enter__()
        except E.DeviceError as e:
            raise ScriptError(str(e), kind="DeviceError") from None
        if seed is not None:
            E.manual_seed(seed)
        self.interpreter = Interpreter(out=out, max_steps=max_steps, max_depth=max_depth)
        self.interpreter.max_memory = self.max_memory

    def run(self, source, echo=False):
        """Run `source`; with `echo`, return the value of a final expression (the REPL shows it)."""
        program = parse(source)
        code = compile_program(program, source, keep_last=echo)
        self.interpreter.steps = 0
        with MemoryBudget(self.max_memory, enforce=not self.on_gpu):
            try:
                return self.interpreter.run(code)
            except MemoryError as e:  # outside an instruction (the VM places its own)
                raise out_of_memory(e, self.max_memory) from None

    def close(self):
        self._settings.__exit__(None, None, None)
