"""`class Net(nn.Module): ...` in a program: a real torch.nn layer class whose methods are
the program's functions.

The engine's Module then does the registering, the walking and the printing -- one
implementation, not a second one for programs -- and a program's layer goes wherever a
layer goes: into nn.Sequential, through an optimiser, printed as PyTorch prints it. Each
method the class body defines runs in the interpreter when Python calls it (Module's
__call__ calling forward), as a hook does.

What a program sees of such a layer stays behind the allow-list: the names its classes
defined, what was assigned to it (`self.fc1 = nn.Linear(2, 3)`, registered by Module's
own __setattr__), and the layer methods of names.py -- never a name with an underscore
in front."""
from .. import engine as E
from .classes import staticmethod_, classmethod_, property_

__all__ = ["is_layer_class", "layer_class", "LayerSuper", "program_names"]


def is_layer_class(value):
    """Whether `value` is torch.nn's Module or a class deriving from it (the engine's or a program's)."""
    nn = E.nn_if_loaded()
    return nn is not None and isinstance(value, type) and issubclass(value, nn.Module)


def layer_class(name, bases, namespace, function_class):
    """The Python class for `class name(bases): namespace` where a base is a layer class.
    `function_class`: the interpreter's function type (its methods bind to the instance)."""
    if not all(is_layer_class(b) for b in bases):
        raise TypeError(f"class {name} can derive from torch.nn layers or from classes the program defines, "
                        "not from both")
    attributes = {"__module__": "__main__", "__qualname__": name,
                  "_program_names": frozenset(n for n in namespace if not n.startswith("_"))}
    for key, value in namespace.items():
        if key.startswith("__") and key != "__doc__" and not (
                key in _SPECIAL_METHODS and value.__class__ is function_class):
            raise TypeError(f"class {name}: a layer class of the program may define methods, plain values and "
                            f"{', '.join(sorted(_SPECIAL_METHODS))}, not '{key}'")
        attributes[key] = _member(value, function_class)
    cls = type(name, tuple(bases), attributes)
    for value in namespace.values():
        if value.__class__ is function_class and value.owner is None:
            value.owner = cls
    return cls


# the operator methods a program's layer class may define: each runs only when the program itself
# (or printing) asks for it -- never inside Python's attribute lookup or at garbage collection
_SPECIAL_METHODS = frozenset({"__init__", "__repr__", "__str__", "__len__", "__getitem__"})


def _member(value, function_class):
    """A class-body value as the Python class holds it: functions run in the interpreter, and
    @staticmethod, @classmethod and @property as Python's own."""
    c = value.__class__
    if c is function_class:
        return _method(value)
    if c is staticmethod_:  # (a decorator's result, once_differentiable's, is a Python function already)
        function = value.function
        return staticmethod(_plain(function) if function.__class__ is function_class else function)
    if c is classmethod_:
        return classmethod(_method(value.function))
    if c is property_:
        return property(_method(value.function))
    return value


def _plain(function):
    def call(*args, **kwargs):
        return function(*args, **kwargs)
    call.__name__ = call.__qualname__ = function.code.name
    return call


def _method(function):
    """A Python method that runs the program's function (self first) in the interpreter."""
    def method(self, *args, **kwargs):
        return function(self, *args, **kwargs)
    method.__name__ = method.__qualname__ = function.code.name
    return method


def program_names(layer):
    """The names the program's classes along the class hierarchy of `layer` (a layer or a
    layer class) defined."""
    names = set()
    for c in (layer if isinstance(layer, type) else type(layer)).__mro__:
        names.update(c.__dict__.get("_program_names", ()))
    return names


class LayerSuper:
    """`super()` in a method of a program's layer class: Python's super() of that class, read
    through the same allow-list (so `super().__init__()` and `super().forward(x)` work)."""
    __slots__ = ("owner", "instance")

    def __init__(self, owner, instance):
        if not isinstance(instance, owner):
            raise TypeError("super(type, obj): obj must be an instance or subtype of type")
        self.owner = owner
        self.instance = instance

    def lookup(self, name, allowed):
        if name != "__init__" and name not in allowed:
            raise AttributeError(f"'super' object has no attribute '{name}'")
        return getattr(super(self.owner, self.instance), name)

    def __repr__(self):
        return f"<super: <class '{self.owner.__name__}'>, <{type(self.instance).__name__} object>>"
