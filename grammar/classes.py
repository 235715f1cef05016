"""Classes a program defines: `class Name(Base): ...`, their instances, bound methods and
`super()`, with Python's rules for what a program can see of them.

A class is a `UserClass`: its name, its bases (classes of the program only: nothing of
Python's own can be subclassed), the names its body assigned (`dict`) and its method
resolution order (Python's C3). An instance is a `UserInstance`: its class and its own
attributes. Reading `obj.name` looks in the instance, then along the class's MRO, and binds a
function found there to the instance (`BoundMethod`); @staticmethod, @classmethod and @property (read-only) work as
Python's, and so do the operator methods a class defines (__add__, __eq__, __len__,
__getitem__, ...), and so does iteration: `for x in obj` takes the iterator __iter__ gives (its
__next__ called until it raises StopIteration), or else calls __getitem__ with 0, 1, 2, ...
until IndexError. Every attribute lives in these dicts;
none of them is a Python attribute, so `obj.__class__` or `obj.__dict__` is just a missing
attribute, as everything else the program did not assign. Calling a class or an instance
(`__init__`, `__call__`) runs the program's own functions in the interpreter (vm.py)."""

from .errors import LanguageError

__all__ = ["UserClass", "UserInstance", "BoundMethod", "SuperProxy", "MISSING", "DESCRIPTORS", "call_target",
           "constructed", "class_attribute", "set_class_attribute", "is_program_object", "SequenceIterator"]


class UserClass:
    __slots__ = ("name", "bases", "dict", "mro", "fields", "__weakref__")

    def __init__(self, name, bases, namespace, fields=()):
        for b in bases:
            if b.__class__ is not UserClass:
                raise TypeError(f"class {name} can only derive from classes the program defines")
        self.name = name
        self.bases = tuple(bases)
        self.dict = dict(namespace)
        self.mro = (self,) + _c3(self.bases)
        self.fields = fields  # the names its body annotates, in order (a dataclass's fields)

    def lookup(self, name):
        """The value of `name` in the first class of the MRO that has it (or `MISSING`)."""
        for c in self.mro:
            value = c.dict.get(name, MISSING)
            if value is not MISSING:
                return value
        return MISSING

    def __repr__(self):
        return f"<class '__main__.{self.name}'>"

    def __copy__(self):  # copy.copy / copy.deepcopy in a program: this is one of the language's own, shared
        return self

    def __deepcopy__(self, memo):
        return self

    def __call__(self, *args, **kwargs):
        """A new instance, for a caller outside the interpreter (map(Point, xs), a sort key)."""
        return _called(self, args, kwargs)


class UserInstance:
    __slots__ = ("cls", "dict", "__weakref__")

    def __init__(self, cls):
        self.cls = cls
        self.dict = {}

    def __call__(self, *args, **kwargs):
        return _called(self, args, kwargs)

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


def _binary(name):
    def method(self, other):
        fn = self.cls.lookup(name)
        return NotImplemented if fn is MISSING else fn(self, other)
    method.__name__ = method.__qualname__ = name
    return method


def _unary(name, symbol):
    def method(self):
        fn = self.cls.lookup(name)
        if fn is MISSING:
            raise TypeError(f"bad operand type for unary {symbol}: '{self.cls.name}'")
        return fn(self)
    method.__name__ = method.__qualname__ = name
    return method


# A class of the program that defines an operator's method gets Python's operator: the
# interpreter's arithmetic, comparisons and builtins reach it through these (a missing one is
# NotImplemented, so Python's reflected method and its TypeError follow as in Python)
for _name in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and", "or", "lshift",
              "rshift"):
    setattr(UserInstance, f"__{_name}__", _binary(f"__{_name}__"))
    setattr(UserInstance, f"__r{_name}__", _binary(f"__r{_name}__"))
for _name in ("eq", "ne", "lt", "le", "gt", "ge"):
    setattr(UserInstance, f"__{_name}__", _binary(f"__{_name}__"))
for _name, _symbol in (("neg", "-"), ("pos", "+"), ("abs", "abs()"), ("invert", "~")):
    setattr(UserInstance, f"__{_name}__", _unary(f"__{_name}__", _symbol))


def _len(self):
    fn = self.cls.lookup("__len__")
    if fn is MISSING:
        raise TypeError(f"object of type '{self.cls.name}' has no len()")
    n = fn(self)
    if n.__class__ is not int or n < 0:
        raise TypeError("'__len__' should return a whole number >= 0")
    return n


def _bool(self):
    fn = self.cls.lookup("__bool__")
    if fn is not MISSING:
        value = fn(self)
        if value.__class__ is not bool:
            raise TypeError(f"__bool__ should return bool, returned {type(value).__name__}")
        return value
    return True if self.cls.lookup("__len__") is MISSING else _len(self) != 0


def _hash(self):
    """Python's rule: a class that defines __eq__ and not __hash__ is unhashable."""
    fn = self.cls.lookup("__hash__")
    if fn is MISSING:
        if self.cls.lookup("__eq__") is not MISSING:
            raise TypeError(f"unhashable type: '{self.cls.name}'")
        return object.__hash__(self)
    return fn(self)


def _getitem(self, key):
    fn = self.cls.lookup("__getitem__")
    if fn is MISSING:
        raise TypeError(f"'{self.cls.name}' object is not subscriptable")
    return fn(self, key)


def _setitem(self, key, value):
    fn = self.cls.lookup("__setitem__")
    if fn is MISSING:
        raise TypeError(f"'{self.cls.name}' object does not support item assignment")
    fn(self, key, value)


def _iter(self):
    """iter(obj), as Python's: the class's __iter__ (which must give an iterator), else the
    old protocol of __getitem__ with 0, 1, 2, ... until IndexError."""
    fn = self.cls.lookup("__iter__")
    if fn is not MISSING:
        it = fn(self)
        if not (it.__class__ is UserInstance and it.cls.lookup("__next__") is not MISSING
                or it.__class__ is not UserInstance and hasattr(type(it), "__next__")):
            name = it.cls.name if it.__class__ is UserInstance else type(it).__name__
            raise TypeError(f"iter() returned non-iterator of type '{name}'")
        return it
    if self.cls.lookup("__getitem__") is not MISSING:
        return SequenceIterator(self)
    raise TypeError(f"'{self.cls.name}' object is not iterable")


def _next(self):
    """next(obj): the class's __next__; a StopIteration the program raises there ends a loop."""
    fn = self.cls.lookup("__next__")
    if fn is MISSING:
        raise TypeError(f"'{self.cls.name}' object is not an iterator")
    try:
        return fn(self)
    except LanguageError as e:
        stop = getattr(e, "exception", None)
        if isinstance(stop, StopIteration):
            raise StopIteration(*stop.args) from None
        raise


class SequenceIterator:
    """The iterator of an object whose class has __getitem__ and no __iter__: items 0, 1, 2, ...
    until __getitem__ raises IndexError (or StopIteration), as Python's."""
    __slots__ = ("target", "index")

    def __init__(self, target):
        self.target, self.index = target, 0

    def __iter__(self):
        return self

    def __next__(self):
        if self.target is None:
            raise StopIteration
        try:
            value = _getitem(self.target, self.index)
        except (IndexError, StopIteration):
            self.target = None
            raise StopIteration from None
        except LanguageError as e:
            if not isinstance(getattr(e, "exception", None), (IndexError, StopIteration)):
                raise
            self.target = None
            raise StopIteration from None
        self.index += 1
        return value


SequenceIterator.__name__ = SequenceIterator.__qualname__ = "iterator"

UserInstance.__len__ = _len
UserInstance.__bool__ = _bool
UserInstance.__hash__ = _hash
UserInstance.__getitem__ = _getitem
UserInstance.__setitem__ = _setitem
UserInstance.__iter__ = _iter
UserInstance.__next__ = _next


class BoundMethod:
    """A function of a class read through an instance: calling it passes the instance first."""
    __slots__ = ("function", "instance")

    def __init__(self, function, instance):
        self.function = function
        self.instance = instance

    def __call__(self, *args, **kwargs):  # called from the engine (a hook): through the interpreter
        return _called(self, args, kwargs)

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


def call_target(func, args, kwargs):
    """What calling a class, an instance or a bound method runs: (the program function, its
    positional arguments, the new instance the call gives instead of the function's value, or
    None). A class without __init__ gives (None, args, the instance): nothing to run. The
    interpreter runs the function in a frame of its own; a caller outside it, through
    `_called`."""
    if func.__class__ is BoundMethod:
        return func.function, [func.instance] + list(args), None
    if func.__class__ is UserClass:
        instance = UserInstance(func)
        init = func.lookup("__init__")
        if init is MISSING:
            if args or kwargs:
                raise TypeError(f"{func.name}() takes no arguments")
            return None, args, instance
        return init, [instance] + list(args), instance
    call = func.cls.lookup("__call__")
    if call is MISSING:
        raise TypeError(f"'{func.cls.name}' object is not callable")
    return call, [func] + list(args), None


def constructed(value, instance):
    """What a call of a class gives once its __init__ returned `value` (Python's rule: None)."""
    if value is not None:
        raise TypeError(f"__init__() should return None, not '{type(value).__name__}'")
    return instance


def _called(func, args, kwargs):
    function, args, instance = call_target(func, args, kwargs)
    if function is None:
        return instance
    value = function(*args, **kwargs)
    return value if instance is None else constructed(value, instance)


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


def delete_class_attribute(obj, name):
    """del obj.name for a class or an instance, with Python's messages where there is none to
    delete (a name with two leading underscores is refused, as in set_class_attribute)."""
    if name.startswith("__") or obj.__class__ is SuperProxy:
        raise AttributeError(f"can't delete '{name}' here")
    if obj.__class__ is UserInstance and obj.cls.lookup(name).__class__ is property_:
        raise AttributeError(f"property '{name}' of '{obj.cls.name}' object has no deleter")
    if name not in obj.dict:
        owner = f"'{obj.cls.name}' object" if obj.__class__ is UserInstance else f"type object '{obj.name}'"
        raise AttributeError(f"{owner} has no attribute '{name}'")
    del obj.dict[name]


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
