"""A session: programs run one after another in the same names (a script, or
the lines of a REPL), with the engine's default device and dtype set for it,
under the budgets of grammar/budget.py's table."""
from .. import engine as E
from .compiler import compile_program
from .errors import ScriptError
from .budget import MemoryBudget, defaults, in_force
from .job import engine_settings, out_of_memory
from .parser import parse
from .vm import Interpreter

__all__ = ["Session"]

_DEFAULTS = defaults("run")


class Session:
    def __init__(self, out=None, device=None, dtype=None, seed=None, **budgets):
        """`budgets`: max_steps, max_memory, max_depth, max_items, max_digits, max_line_length,
        max_program_length (each as the table's default for `run` where not given or None)."""
        unknown = set(budgets) - set(_DEFAULTS)
        if unknown:
            raise TypeError(f"Session() got unexpected budgets {sorted(unknown)}")
        self.budgets = {key: budgets.get(key) if budgets.get(key) is not None else value
                        for key, value in _DEFAULTS.items() if key != "timeout"}
        self.max_memory = self.budgets["max_memory"]
        self.on_gpu = device in ("cuda", "gpu")
        self._settings = engine_settings(dtype, device)
        try:
            self._settings.__enter__()
        except E.DeviceError as e:
            raise ScriptError(str(e), kind="DeviceError") from None
        if seed is not None:
            E.manual_seed(seed)
        self.interpreter = Interpreter(out=out, max_steps=self.budgets["max_steps"],
                                       max_depth=self.budgets["max_depth"])
        self.interpreter.max_memory = self.max_memory

    def run(self, source, echo=False):
        """Run `source`; with `echo`, return the value of a final expression (the REPL shows it).
        Parsing and compiling count against the memory budget as running does."""
        b = self.budgets
        with in_force(max_items=b["max_items"], max_digits=b["max_digits"], max_line_length=b["max_line_length"],
                      max_program_length=b["max_program_length"]), \
                MemoryBudget(self.max_memory, enforce=not self.on_gpu):
            try:
                code = compile_program(parse(source), source, keep_last=echo)
                self.interpreter.steps = 0
                return self.interpreter.run(code)
            except MemoryError as e:  # outside an instruction (the VM places its own)
                raise out_of_memory(e, self.max_memory) from None

    def close(self):
        self._settings.__exit__(None, None, None)
