"""torch.signal: its one namespace, torch.signal.windows (`autodiff.engine.signal.windows`, and
`torch.signal.windows` in the language): PyTorch's window functions of M points, `sym=False` the
periodic ones. They are written in engine/functions/windows.py, beside torch.hann_window and its kin.

`windows` is a module of its own (registered in sys.modules), so both `from autodiff.engine.signal
import windows` and `import autodiff.engine.signal.windows` give it, as torch's do.
"""
import sys
import types

from .functions import windows as _windows

__all__ = ["windows"]

windows = types.ModuleType(__name__ + ".windows", "torch.signal.windows: window functions of M points.")
windows.__all__ = list(_windows.SIGNAL_WINDOWS)
for _name in _windows.SIGNAL_WINDOWS:
    setattr(windows, _name, getattr(_windows, _name))
sys.modules[windows.__name__] = windows
