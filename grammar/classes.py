"""Classes a program defines: `class Name(Base): ...`, their instances, bound methods and
`super()`, with Python's rules for what a program can see of them.

A class is a `UserClass`: its name, its bases (classes of the program only: nothing of
Python's own can be subclassed), the names its body assigned (`dict`) and its method
resolution order (Python's C3). An instance is a `UserInstance`: its class and its own
attributes. Reading `obj.name` looks in the instance, then along the class's MRO, and binds a
function found there to the instance (`BoundMethod`); @staticmethod, @classmethod and @property (read-only) work as
Python's. Every attribute lives in these dicts;
none of them is a Python attribute, so `obj.__class__` or `obj.__dict__` is just a missing
attribute, as everything else the program did not assign. Calling a class or an instance
(`__init__`, `__call__`) runs the program's own functions in the interpreter (vm.py)."""

__all__ = ["UserClass", "UserInstance", "BoundMethod", "SuperProxy", "MISSING", "DESCRIPTORS", "class_attribute",
           "set_class_attribute", "is_program_object"]


class UserClass:
    __slots__ = ("name", "bases", "dict", "mro", "__weakref__")

    def __init__(self, name, bases, namespace):
        for b in bases:
            if b.__class__ is not UserClass:
                raise TypeError(f"class {name} can only derive from classes the program defines")
        self.name = name
        self.bases = tuple(bases)
        self.dict = dict(namespace)
        self.mro = (self,) + _c3(self.bases)

    def lookup(self, name):
        """The value of `name` in the first class of the MRO that has it (or `MISSING`)."""
        for c in self.mro:
            value = c.dict.get(name, MISSING)
            if value is not MISSING:
                return value
        return MISSING

    def __repr__(self):
        return f"<class '__main__.{self.name}'>"

    def __call__(self, *args, **kwargs):
        """A new instance, for a caller outside the interpreter (map(Point, xs), a sort key):
        its __init__ runs in the interpreter as a call from the program would."""
        instance = UserInstance(self)
        init = self.lookup("__init__")
        if init is MISSING:
            if args or kwargs:
                raise TypeError(f"{self.name}() takes no arguments")
        elif init(instance, *args, **kwargs) is not None:
            raise TypeError("__init__() should return None")
        return instance


class UserInstance:
    __slots__ = ("cls", "dict", "__weakref__")

    def __init__(self, cls):
        self.cls = cls
        self.dict = {}

    def __call__(self, *args, **kwargs):
        call = self.cls.lookup("__call__")
        if call is MISSING:
            raise TypeError(f"'{self.cls.name}' object is not callable")
        return call(self, *args, **kwargs)

    def _own(self, name):
        """The text of the class's own __repr__/__str__ (run in the interpreter), or None."""
        method = self.cls.lookup(name)
        if method is MISSING or not callable(method):
            return None
        text = method(self)
        if text.__class__ is not str:
            raise TypeError(f"{name} returned non-string (type {type(text).__name__})")
        return text

    def __repr__(self):
        text = self._own("__repr__")
        return f"<__main__.{self.cls.name} object at {id(self):#x}>" if text is None else text

    def __str__(self):
        text = self._own("__str__")
        return repr(self) if text is None else text


class BoundMethod:
    """A function of a class read through an instance: calling it passes the instance first."""
    __slots__ = ("function", "instance")

    def __init__(self, function, instance):
        self.function = function
        self.instance = instance

    def __call__(self, *args, **kwargs):  # called from the engine (a hook): through the interpreter
        return self.function(self.instance, *args, **kwargs)

    def __repr__(self):
        owner = self.instance if self.instance.__class__ is UserClass else self.instance.cls
        return f"<bound method {owner.name}.{self.function.code.name} of {self.instance!r}>"


class SuperProxy:
    """`super()` in a method: looks up names after the method's class in the instance's MRO."""
    __slots__ = ("owner", "instance")

    def __init__(self, owner, instance):
        if not isinstance(instance, UserInstance) or owner not in instance.cls.mro:
            raise TypeError("super(type, obj): obj must be an instance or subtype of type")
        self.owner = owner
        self.instance = instance

    def __repr__(self):
        return f"<super: <class '{self.owner.name}'>, <{self.instance.cls.name} object>>"


MISSING = object()


class staticmethod_:
    """@staticmethod: read through a class or an instance, the function itself."""
    __slots__ = ("function",)

    def __init__(self, function):
        self.function = function


class classmethod_:
    """@classmethod: read through a class or an instance, bound to the class."""
    __slots__ = ("function",)

    def __init__(self, function):
        self.function = function


class property_:
    """@property: read through an instance, the getter's value (a read-only attribute)."""
    __slots__ = ("function",)

    def __init__(self, function):
        self.function = function


DESCRIPTORS = {"staticmethod": staticmethod_, "classmethod": classmethod_, "property": property_}
for _name, _cls in DESCRIPTORS.items():
    _cls.__name__ = _cls.__qualname__ = _name


def _through_class(value, owner, instance, is_function):
    """A value found in a class's dict, as reading it through `instance` (None: the class
    `owner` itself) gives it: functions bound, the three decorators applied."""
    c = value.__class__
    if c is staticmethod_:
        return value.function
    if c is classmethod_:
        return BoundMethod(value.function, owner if instance is None else instance.cls)
    if c is property_:
        return value if instance is None else value.function(instance)
    if instance is not None and is_function(value):
        return BoundMethod(value, instance)
    return value


def _no_init(*args, **kwargs):
    """object.__init__, reached through super().__init__() from a class with no base of its own."""
    return None


def class_attribute(obj, name, is_function):
    """obj.name for a class, an instance or super(); AttributeError with Python's message.
    `is_function(v)`: whether v is a function of the program (it binds to an instance)."""
    if obj.__class__ is UserInstance:
        value = obj.cls.lookup(name)
        if value.__class__ is property_:  # a property comes before the instance's own names
            return value.function(obj)
        own = obj.dict.get(name, MISSING)
        if own is not MISSING:
            return own
        if value is MISSING:
            raise AttributeError(f"'{obj.cls.name}' object has no attribute '{name}'")
        return _through_class(value, obj.cls, obj, is_function)
    if obj.__class__ is UserClass:
        if name == "__name__":
            return obj.name
        value = obj.lookup(name)
        if value is MISSING:
            raise AttributeError(f"type object '{obj.name}' has no attribute '{name}'")
        return _through_class(value, obj, None, is_function)
    # super(): the classes after the owner in the instance's MRO
    mro = obj.instance.cls.mro
    for c in mro[mro.index(obj.owner) + 1:]:
        value = c.dict.get(name, MISSING)
        if value is not MISSING:
            return _through_class(value, c, obj.instance, is_function)
    if name == "__init__":
        return _no_init
    raise AttributeError(f"'super' object has no attribute '{name}'")


def set_class_attribute(obj, name, value):
    """obj.name = value for a class or an instance (a name with two leading underscores is
    refused: nothing the program writes may look like Python's own)."""
    if name.startswith("__"):
        raise AttributeError(f"can't set '{name}' here")
    if obj.__class__ is UserInstance and obj.cls.lookup(name).__class__ is property_:
        raise AttributeError(f"property '{name}' of '{obj.cls.name}' object has no setter")
    obj.dict[name] = value


def is_program_object(obj):
    c = obj.__class__
    return c is UserInstance or c is UserClass or c is SuperProxy


def _c3(bases):
    """Python's C3 linearization of `bases` (without the class itself)."""
    sequences = [list(b.mro) for b in bases] + [list(bases)]
    out = []
    while True:
        sequences = [s for s in sequences if s]
        if not sequences:
            return tuple(out)
        for seq in sequences:
            head = seq[0]
            if not any(head in s[1:] for s in sequences):
                break
        else:
            raise TypeError("Cannot create a consistent method resolution order (MRO) for bases "
                            + ", ".join(b.name for b in bases))
        out.append(head)
        for s in sequences:
            if s[0] is head:
                del s[0]
