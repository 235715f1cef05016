"""`class MyFn(torch.autograd.Function): ...` in a program: a real subclass of the engine's
Function whose static methods are the program's functions -- the nn.Module pattern of
module_classes.py. The engine's `apply` then does everything (no second implementation for
programs): it calls the program's forward and, during backward, its backward, in the interpreter,
as it calls a hook; an error in either is reported as the program's own.

What a program sees of such a class stays behind the allow-list: `apply` and the names its body
defined; of the ctx, its methods (save_for_backward, saved_tensors, needs_input_grad, mark_dirty,
...) and the attributes the program set on it (names.py)."""
import inspect

from .. import engine as E
from .module_classes import _member

__all__ = ["is_function_class", "function_class"]


def is_function_class(value):
    """Whether `value` is torch.autograd.Function or a class deriving from it."""
    return isinstance(value, type) and issubclass(value, E.Function)


def function_class(name, bases, namespace, function_type):
    """The Python class for `class name(bases): namespace` where a base is an autograd Function.
    `function_type`: the interpreter's function type."""
    if not all(is_function_class(b) for b in bases):
        raise TypeError(f"class {name} can derive from torch.autograd.Function or from classes the program "
                        "defines, not from both")
    attributes = {"__module__": "__main__", "__qualname__": name,
                  "_program_names": frozenset(n for n in namespace if not n.startswith("_"))}
    for key, value in namespace.items():
        if key.startswith("__") and key != "__doc__":
            raise TypeError(f"class {name}: an autograd Function of the program may define static methods and "
                            f"plain values, not '{key}'")
        member = _member(value, function_type)
        if key == "forward":
            _sign(member, value, function_type)
        attributes[key] = member
    cls = type(name, tuple(bases), attributes)
    for value in namespace.values():
        if value.__class__ is function_type and value.owner is None:
            value.owner = cls
    return cls


def _sign(member, value, function_type):
    """Give the Python wrapper of a program's forward the program function's signature, so that
    `apply(x, k=2)` binds keywords to positions as PyTorch does."""
    function = getattr(value, "function", value)
    wrapper = getattr(member, "__func__", member)
    if function.__class__ is not function_type or not callable(wrapper):
        return
    code = function.code
    kind = inspect.Parameter
    defaults = dict(zip(code.params[len(code.params) - len(function.defaults):], function.defaults))
    parameters = [kind(p, kind.POSITIONAL_ONLY if i < code.posonly else kind.POSITIONAL_OR_KEYWORD,
                       default=defaults.get(p, kind.empty)) for i, p in enumerate(code.params)]
    if code.varargs is not None:
        parameters.append(kind(code.varargs, kind.VAR_POSITIONAL))
    parameters += [kind(p, kind.KEYWORD_ONLY, default=function.kwdefaults.get(p, kind.empty)) for p in code.kwonly]
    if code.varkw is not None:
        parameters.append(kind(code.varkw, kind.VAR_KEYWORD))
    wrapper.__signature__ = inspect.Signature(parameters)
