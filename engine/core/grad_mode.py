"""Grad modes: `no_grad`, `enable_grad`, `set_grad_enabled`, `inference_mode`.

Each is a context manager and a decorator, as in PyTorch 2.x
(torch/autograd/grad_mode.py over torch/utils/_contextlib.py):

    with no_grad(): ...          @no_grad()        @no_grad        no_grad()(fn)   no_grad(fn)
    with enable_grad(): ...      @enable_grad()    @enable_grad
    with set_grad_enabled(b):    @set_grad_enabled(b)              set_grad_enabled(b)  (alone: sets it)
    with inference_mode():       @inference_mode() @inference_mode @inference_mode(False)

A decorated function runs in the mode and the caller's mode comes back after
it. A decorated generator function runs in the mode at every step -- each
`next`, `send`, `throw` and `close` -- and the caller's mode holds between
steps (PyTorch's `_wrap_generator`).

The modes live in context variables, so threads and async tasks each have
their own, as PyTorch's are thread-local.

Inference mode turns grad mode off too (and `inference_mode(False)` turns it
on); tensors made while it is on are *inference tensors* (PyTorch's): the
engine gives them an `InferenceVersion` as their version counter, shared by
every view of them, so `is_inference(t)` is a look at the counter's class.
"""
import contextvars
import functools
import inspect
import warnings

__all__ = ["is_grad_enabled", "no_grad", "enable_grad", "set_grad_enabled", "inference_mode",
           "is_inference_mode_enabled", "is_inference"]

grad_enabled_var = contextvars.ContextVar("autodiff_grad_enabled", default=True)
_inference = contextvars.ContextVar("autodiff_inference_mode", default=False)

is_grad_enabled = grad_enabled_var.get
is_inference_mode_enabled = _inference.get

# Whether inference mode was ever turned on in this process. While it is False
# the engine need not read `_inference` for each tensor it makes (see
# `new_version`). It never goes back: a context copied from one in inference
# mode (an asyncio task, copy_context().run) may turn up at any time later.
inference_used = [False]


class InferenceVersion(list):
    """The version counter of an inference tensor (a tensor made in inference
    mode) and of every view of one. PyTorch's inference tensors have none; this
    one counts like any other, its class is the mark."""

    __slots__ = ()


def new_version():
    """A fresh version counter for a tensor made now (not a view): an inference
    tensor's when inference mode is on. Called only once `inference_used[0]`."""
    return InferenceVersion((0,)) if _inference.get() else [0]


def is_inference(tensor):
    """Whether `tensor` was made in inference mode (or is a view of such a tensor)."""
    return tensor._vc.__class__ is InferenceVersion


# ---------------------------------------------------------------- decorators

def _wrap_generator(make_context, gen_fn):
    """A generator function whose every step runs inside a fresh `make_context()`."""

    @functools.wraps(gen_fn)
    def generator_in_mode(*args, **kwargs):
        gen = gen_fn(*args, **kwargs)
        try:
            with make_context():
                response = gen.send(None)
            while True:
                try:
                    request = yield response
                except GeneratorExit:
                    with make_context():
                        gen.close()
                    raise
                except BaseException as thrown:  # thrown in by our caller: pass it on
                    with make_context():
                        response = gen.throw(thrown)
                else:
                    with make_context():
                        response = gen.send(request)
        except StopIteration as stop:
            return stop.value

    return generator_in_mode


def _context_decorator(make_context, fn):
    if inspect.isclass(fn):
        raise RuntimeError(
            "Cannot decorate classes; it is ambiguous whether or not only the constructor or all methods "
            "should have the context manager applied; additionally, decorating a class at definition-site "
            "will prevent use of the identifier as a conventional type.  To specify which methods to "
            "decorate, decorate each of them individually.")
    if inspect.isgeneratorfunction(fn):
        return _wrap_generator(make_context, fn)

    @functools.wraps(fn)
    def in_mode(*args, **kwargs):
        with make_context():
            return fn(*args, **kwargs)

    return in_mode


class _DecoratorContextManager:
    """A context manager that is also a decorator: each call of the decorated
    function enters a fresh copy (`clone`), so one decorator serves every call,
    in every thread, recursion included."""

    def __call__(self, fn):
        if inspect.isclass(fn):
            warnings.warn(
                "Decorating classes is deprecated and will be disabled in future versions. You should only "
                "decorate functions or methods. To preserve the current behavior of class decoration, you can "
                "directly decorate the `__init__` method and nothing else.", FutureWarning, stacklevel=2)
            cls = fn

            def fn(*args, **kwargs):
                return cls(*args, **kwargs)
        return _context_decorator(self.clone, fn)

    def clone(self):
        return self.__class__()


class _NoParamDecoratorContextManager(_DecoratorContextManager):
    """Also a decorator without parentheses: `@no_grad` is `@no_grad()`."""

    def __new__(cls, fn=None):
        if fn is None:
            return super().__new__(cls)
        return cls()(fn)


class _SwitchGrad(_NoParamDecoratorContextManager):
    """Sets grad mode to `mode` inside; the mode from before comes back after."""

    mode = True

    def __init__(self):
        self._prev = []  # a stack: one instance may be entered again while inside

    def __enter__(self):
        self._prev.append(grad_enabled_var.get())
        grad_enabled_var.set(self.mode)
        return None

    def __exit__(self, *exc):
        grad_enabled_var.set(self._prev.pop())
        return False


class no_grad(_SwitchGrad):
    """Results made inside do not require grad and record no graph (factory
    functions given `requires_grad=True` still make leaves that require grad)."""

    mode = False


class enable_grad(_SwitchGrad):
    """Recording on, even inside `no_grad`."""

    mode = True


def _check_bool(mode, function):
    if mode.__class__ is not bool:
        raise TypeError(f"{function}(): argument 'enabled' (position 1) must be bool, not "
                        f"{type(mode).__name__}")


class set_grad_enabled(_DecoratorContextManager):
    """`set_grad_enabled(b)` sets grad mode at once (called alone, that is all);
    as a context manager the mode from before it was made comes back after the
    block; as a decorator it leaves the mode as it was and sets `b` per call."""

    def __init__(self, mode):
        _check_bool(mode, "set_grad_enabled")
        self.prev = grad_enabled_var.get()
        self.mode = mode
        grad_enabled_var.set(mode)

    def __call__(self, fn):
        grad_enabled_var.set(self.prev)  # making the decorator changes nothing
        return super().__call__(fn)

    def __enter__(self):
        grad_enabled_var.set(self.mode)
        return None

    def __exit__(self, *exc):
        grad_enabled_var.set(self.prev)
        return False

    def __repr__(self):
        return f"{type(self).__module__}.{type(self).__qualname__}(mode={self.mode})"

    __str__ = __repr__

    def clone(self):
        return self.__class__(self.mode)


class inference_mode(_DecoratorContextManager):
    """`inference_mode()` (or `inference_mode(True)`): grad mode off, and tensors
    made inside are inference tensors -- they may not be saved for backward by a
    recorded op, nor changed in place outside inference mode. Ops inside record
    nothing, even under `enable_grad`. `inference_mode(False)`: inference mode
    off and grad mode on inside. `@inference_mode` (a function, not a bool)
    decorates it with inference mode on."""

    def __new__(cls, mode=True):
        if isinstance(mode, bool):
            return super().__new__(cls)
        return cls()(mode)

    def __init__(self, mode=True):
        self.mode = mode
        self._prev = []

    def __enter__(self):
        mode = self.mode
        self._prev.append((grad_enabled_var.get(), _inference.get()))
        if mode:
            inference_used[0] = True
        _inference.set(mode)
        grad_enabled_var.set(not mode)
        return None

    def __exit__(self, *exc):
        grad, inference = self._prev.pop()
        _inference.set(inference)
        grad_enabled_var.set(grad)
        return False

    def clone(self):
        return self.__class__(self.mode)
