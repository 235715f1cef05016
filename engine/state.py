"""The engine's settings a program can change, kept from leaking out of it.

A program may switch grad mode off (`set_grad_enabled(False)`), change the
default dtype or device, the print options or the random generator, or the
allocation limit. `isolated(fn)` runs `fn` so that none of that outlives it:
the context variables (grad and inference mode) live in a copy of the
current context, and the module-level settings are put back afterwards. So
every job of a batch, and every file of a test run, starts from the same
engine state.
"""
import contextvars

from . import backend, dtypes, printing
from . import allocation
from . import generator

__all__ = ["Settings", "isolated"]


class Settings:
    """The module-level settings, as they are now (`capture`) and back (`restore`)."""

    __slots__ = ("dtype", "device", "print_options", "rng", "uniform_rng", "allocation_limit")

    def __init__(self):
        self.dtype = dtypes.get_default_dtype()
        self.device = backend.get_default_device()
        self.print_options = printing.get_printoptions()
        self.rng = generator.numpy_generator[0]
        self.uniform_rng = generator.uniform_generator[0]
        self.allocation_limit = allocation.allocation_limit[0]

    def restore(self):
        dtypes.set_default_dtype(self.dtype)
        backend.set_default_device(self.device)
        for key, value in self.print_options.items():
            setattr(printing.PRINT_OPTS, key, value)
        generator.numpy_generator[0] = self.rng
        generator.uniform_generator[0] = self.uniform_rng
        allocation.allocation_limit[0] = self.allocation_limit


def isolated(fn, *args, **kwargs):
    """fn(*args, **kwargs), with every engine setting it changes put back afterwards."""
    saved = Settings()
    try:
        return contextvars.copy_context().run(fn, *args, **kwargs)
    finally:
        saved.restore()
