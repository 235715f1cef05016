"""The language's `dataclasses`: @dataclass on a class of the program (its annotated names, in
order, are the fields; a value in the class body is a field's default), field(default=,
default_factory=), fields, asdict, astuple, replace and is_dataclass -- as Python's, for the
classes programs write (order= and frozen= are not available).

The methods a dataclass gets (__init__, __repr__, __eq__) are functions of this module put in the
class's namespace; the class machinery (classes.py) calls them as it calls a program's own."""
import weakref

from .classes import UserClass, UserInstance, MISSING
from .words import show

__all__ = ["dataclasses_table", "Field"]

_FIELDS = weakref.WeakKeyDictionary()  # a dataclass -> its fields, each a Field


class Field:
    """One field: its name, default (MISSING: none) and default factory (None: none)."""
    __slots__ = ("name", "default", "default_factory", "init", "repr", "compare")

    def __init__(self, default=MISSING, default_factory=None, init=True, repr=True, compare=True):
        if default is not MISSING and default_factory is not None:
            raise ValueError("cannot specify both default and default_factory")
        self.name = None
        self.default, self.default_factory = default, default_factory
        self.init, self.repr, self.compare = init, repr, compare

    def __repr__(self):
        return f"Field(name={self.name!r})"


def field(*, default=MISSING, default_factory=None, init=True, repr=True, compare=True, hash=None, metadata=None,
          kw_only=False):
    if kw_only:
        raise NotImplementedError("field(kw_only=True) is not available here")
    return Field(default, default_factory, init, repr, compare)


def _collect(cls):
    """The fields of `cls` and its bases, base classes' first (Python's order), with Python's
    checks: a mutable default, a field without default after one with."""
    found = {}
    for c in reversed(cls.mro):
        for name in c.fields:
            value = c.dict.get(name, MISSING)
            f = value if value.__class__ is Field else Field(default=value)
            if f.default.__class__ in (list, dict, set):
                raise ValueError(f"mutable default {type(f.default)} for field {name} is not allowed: use "
                                 f"default_factory")
            f.name = name
            found[name] = f
            if value.__class__ is Field:  # the class attribute is the default itself, or nothing
                if f.default is MISSING:
                    c.dict.pop(name, None)
                else:
                    c.dict[name] = f.default
    seen_default = False
    for f in found.values():
        if not f.init:
            continue
        has_default = f.default is not MISSING or f.default_factory is not None
        if seen_default and not has_default:
            raise TypeError(f"non-default argument '{f.name}' follows default argument")
        seen_default = seen_default or has_default
    return tuple(found.values())


def dataclass(cls=None, *, init=True, repr=True, eq=True, order=False, unsafe_hash=False, frozen=False,
              match_args=True, kw_only=False, slots=False):
    """@dataclass or @dataclass(...): the class gets __init__, __repr__ and __eq__ from its fields
    (each only where the class does not define its own)."""
    def wrap(c):
        if c.__class__ is not UserClass:
            raise TypeError("dataclass() should be called on a class the program defines")
        if order or frozen or unsafe_hash or kw_only or slots:
            raise NotImplementedError("dataclass(order=, frozen=, unsafe_hash=, kw_only=, slots=) is not available "
                                      "here")
        fields_ = _collect(c)
        _FIELDS[c] = fields_
        if init and "__init__" not in c.dict:
            c.dict["__init__"] = _init_of(c, fields_)
        if repr and "__repr__" not in c.dict:
            c.dict["__repr__"] = _repr_of(c, fields_)
        if eq and "__eq__" not in c.dict:
            c.dict["__eq__"] = _eq_of(c, fields_)
        return c
    return wrap if cls is None else wrap(cls)


def _init_of(cls, fields_):
    params = [f for f in fields_ if f.init]

    def __init__(self, *args, **kwargs):
        if len(args) > len(params):
            required = 1 + sum(f.default is MISSING and f.default_factory is None for f in params)
            takes = f"{len(params) + 1}" if required == len(params) + 1 else f"from {required} to {len(params) + 1}"
            raise TypeError(f"{cls.name}.__init__() takes {takes} positional argument"
                            f"{'s' if len(params) else ''} but {len(args) + 1} were given")
        values = dict(zip((f.name for f in params), args))
        for key, value in kwargs.items():
            if key not in {f.name for f in params}:
                raise TypeError(f"{cls.name}.__init__() got an unexpected keyword argument '{key}'")
            if key in values:
                raise TypeError(f"{cls.name}.__init__() got multiple values for argument '{key}'")
            values[key] = value
        missing = [f.name for f in params if f.name not in values and f.default is MISSING
                   and f.default_factory is None]
        if missing:
            names = " and ".join(f"'{n}'" for n in missing) if len(missing) <= 2 else \
                ", ".join(f"'{n}'" for n in missing[:-1]) + f", and '{missing[-1]}'"
            plural = "s" if len(missing) > 1 else ""
            raise TypeError(f"{cls.name}.__init__() missing {len(missing)} required positional argument{plural}: "
                            f"{names}")
        for f in fields_:
            if f.name in values:
                self.dict[f.name] = values[f.name]
            elif f.default_factory is not None:
                self.dict[f.name] = f.default_factory()
            elif f.default is not MISSING:
                self.dict[f.name] = f.default
        post = self.cls.lookup("__post_init__")
        if post is not MISSING:
            post(self)
    return __init__


def _repr_of(cls, fields_):
    def __repr__(self):
        parts = ", ".join(f"{f.name}={show(self.dict.get(f.name), as_repr=True)}" for f in fields_ if f.repr)
        return f"{self.cls.name}({parts})"
    return __repr__


def _eq_of(cls, fields_):
    names = [f.name for f in fields_ if f.compare]

    def __eq__(self, other):
        if other.__class__ is not UserInstance or other.cls is not self.cls:
            return NotImplemented
        return all(self.dict.get(n) == other.dict.get(n) for n in names) if names else True
    return __eq__


def _fields_of(obj):
    cls = obj.cls if obj.__class__ is UserInstance else obj
    found = _FIELDS.get(cls) if cls.__class__ is UserClass else None
    if found is None:
        raise TypeError("must be called with a dataclass type or instance")
    return found


def fields(class_or_instance):
    return tuple(_fields_of(class_or_instance))


def is_dataclass(obj):
    cls = obj.cls if obj.__class__ is UserInstance else obj
    return cls.__class__ is UserClass and cls in _FIELDS


def _opened(value, as_dict):
    """(an empty container, its (key, child) pairs, whether it ends as a tuple) for a dataclass
    instance, list, tuple or dict; None for any other value (kept as it is)."""
    if value.__class__ is UserInstance and value.cls in _FIELDS:
        names = [f.name for f in _FIELDS[value.cls]]
        if as_dict:
            return {}, [(n, value.dict.get(n)) for n in names], False
        return [None] * len(names), list(enumerate(value.dict.get(n) for n in names)), True
    if isinstance(value, dict):
        return {}, list(value.items()), False
    if isinstance(value, (list, tuple)):
        return [None] * len(value), list(enumerate(value)), isinstance(value, tuple)
    return None


def _converted(obj, as_dict):
    """asdict / astuple: dataclass instances inside lists, tuples and dicts converted too, with a
    stack of open containers rather than recursion."""
    result = [None]
    container, children, as_tuple = _opened(obj, as_dict)
    stack = [(container, iter(children), as_tuple, result, 0)]
    while stack:
        container, children, as_tuple, parent, key = stack[-1]
        for k, child in children:
            opened = _opened(child, as_dict)
            if opened is None:
                container[k] = child
                continue
            stack.append((opened[0], iter(opened[1]), opened[2], container, k))
            break
        else:
            stack.pop()
            parent[key] = tuple(container) if as_tuple else container
    return result[0]


def asdict(obj):
    if not (obj.__class__ is UserInstance and obj.cls in _FIELDS):
        raise TypeError("asdict() should be called on dataclass instances")
    return _converted(obj, True)


def astuple(obj):
    if not (obj.__class__ is UserInstance and obj.cls in _FIELDS):
        raise TypeError("astuple() should be called on dataclass instances")
    return _converted(obj, False)


def replace(obj, **changes):
    """A new instance of obj's dataclass with `changes` over obj's field values."""
    values = {f.name: obj.dict.get(f.name) for f in _fields_of(obj) if f.init}
    values.update(changes)
    instance = UserInstance(obj.cls)
    obj.cls.lookup("__init__")(instance, **values)
    return instance


def dataclasses_table():
    return {"dataclass": dataclass, "field": field, "fields": fields, "asdict": asdict, "astuple": astuple,
            "replace": replace, "is_dataclass": is_dataclass, "Field": Field}
