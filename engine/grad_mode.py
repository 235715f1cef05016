"""Whether ops record a graph: `no_grad`, `enable_grad`, `set_grad_enabled`.

The switch lives in a context variable so threads and async tasks each have
their own, as PyTorch's is thread-local.
"""
import contextvars
import functools

__all__ = ["is_grad_enabled", "no_grad", "enable_grad", "set_grad_enabled"]

_enabled = contextvars.ContextVar("autodiff_grad_enabled", default=True)
is_grad_enabled = _enabled.get


class _GradMode:
    """A context manager and decorator that sets the mode and restores it."""

    mode = True

    def __enter__(self):
        self._token = _enabled.set(self.mode)
        return None

    def __exit__(self, *exc):
        _enabled.reset(self._token)
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self.__class__():
                return fn(*args, **kwargs)
        return wrapper


class no_grad(_GradMode):
    """Results made inside do not require grad and record no graph."""
    mode = False


class enable_grad(_GradMode):
    """Recording on, even inside `no_grad`."""
    mode = True


class set_grad_enabled(_GradMode):
    """`set_grad_enabled(False)` as a context manager, or called alone to set the mode."""

    def __init__(self, mode):
        self.mode = bool(mode)
        self._token = _enabled.set(self.mode)

    def __enter__(self):
        return None

    def __call__(self, fn):
        # used as a decorator: undo the switch made by __init__, apply it per call
        _enabled.reset(self._token)
        mode = self.mode

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            token = _enabled.set(mode)
            try:
                return fn(*args, **kwargs)
            finally:
                _enabled.reset(token)
        return wrapper
