"""The language's own words for its values and its errors.

A program never sees Python's internals: `print(print)` shows `<built-in
function print>`, not a bound method of the interpreter; `repr(Tensor)` is
`<class 'torch.Tensor'>`; an error Python words with its class names
("'int' object is not iterable", "_as_int() takes ...") is reworded with the
language's ("a whole number is not iterable", "int() takes ...").
"""
import collections
import re
import types

__all__ = ["show", "plain_words", "TYPE_WORDS"]

TYPE_WORDS = {"int": "a whole number", "float": "a number", "str": "a string", "list": "a list",
              "tuple": "a tuple", "dict": "a dict", "NoneType": "None", "bool": "a boolean", "range": "a range",
              "Tensor": "a tensor", "function": "a function", "builtin_function_or_method": "a function",
              "method": "a function", "method-wrapper": "a function", "functools.partial": "a function",
              "Size": "a torch.Size", "UserFunction": "a function", "Namespace": "a module",
              "UserClass": "a class", "UserInstance": "an object of a class of the program",
              "BoundMethod": "a method", "SuperProxy": "super()", "iterator": "an iterator",
              "list_iterator": "an iterator", "tuple_iterator": "an iterator", "str_ascii_iterator": "an iterator",
              "range_iterator": "an iterator", "set": "a set", "frozenset": "a set", "complex": "a complex number",
              "slice": "a slice", "generator": "a generator", "bytes": "bytes", "numpy.ndarray": "a numpy array",
              "ndarray": "a numpy array"}

_names = {}  # id of a built-in callable or class -> the name the language knows it by


def register(table, prefix=""):
    """Learn the language's names for the callables and classes of a table (the builtins)."""
    for name, value in table.items():
        if callable(value):
            _names.setdefault(id(value), prefix + name)


def _named(value):
    name = _names.get(id(value))
    if name is None:
        name = getattr(value, "__name__", None) or type(value).__name__
    return name


def _show_one(value):
    """How one value shows, or None when Python's own text is right."""
    if isinstance(value, type):
        if value.__module__ == "__main__":  # an exception class the program defined
            return f"<class '__main__.{value.__name__}'>"
        return f"<class 'torch.{value.__name__}'>" if _names.get(id(value)) or value.__module__.startswith(
            "autodiff") else f"<class '{_named(value)}'>"
    if isinstance(value, types.MethodType) and not isinstance(value.__self__, type):
        owner = type(value.__self__).__name__
        func_name = getattr(value.__func__, "__name__", "")
        if func_name.startswith("_"):  # the interpreter's own print
            return f"<built-in function {_PUBLIC.get(func_name, func_name.lstrip('_'))}>"
        return f"<built-in method {value.__name__} of {owner} object>"
    if isinstance(value, (types.FunctionType, types.BuiltinFunctionType, types.BuiltinMethodType)) \
            or type(value).__name__ == "partial":
        return f"<built-in function {_named(value)}>"
    if type(value).__repr__ is object.__repr__:  # an object of the engine's with Python's own text: no module path
        return f"<{type(value).__name__} object at {id(value):#x}>"
    return None


def show(value, as_repr=False):
    """str(value) (or repr) in the language's words; lists, tuples and dicts shown through."""
    own = _show_one(value)
    if own is not None:
        return own
    if not isinstance(value, (list, tuple, dict)):
        return repr(value) if as_repr else str(value)
    # containers: walked with a stack, each element as its repr; one that holds itself shows as
    # Python shows it there ([1, [...]], {'a': {...}})
    pieces = []
    stack = [("value", value)]
    open_ids = set()  # the containers being shown (the path from the top one to here)
    while stack:
        kind, item = stack.pop()
        if kind == "text":
            pieces.append(item)
            continue
        if kind == "closed":
            open_ids.discard(item)
            continue
        if isinstance(item, (list, tuple, dict)) and id(item) in open_ids:
            pieces.append("{...}" if isinstance(item, dict) else "[...]" if isinstance(item, list) else "(...)")
            continue
        if isinstance(item, (list, tuple, dict)):
            if isinstance(item, dict):
                opened, closed, pairs = "{", "}", item.items()
                if isinstance(item, collections.Counter):  # Python's: Counter({...}), most common first
                    opened, closed, pairs = "Counter({", "})", item.most_common()
                elif isinstance(item, collections.defaultdict):  # an optimiser's state
                    opened, closed = f"defaultdict({item.default_factory!r}, {{", "})"
                ordered = isinstance(item, collections.OrderedDict)  # a state_dict: Python 3.11's text
                if ordered:
                    opened, closed = ("OrderedDict([", "])") if item else ("OrderedDict(", ")")
                parts = []
                for i, (k, v) in enumerate(pairs):
                    if i:
                        parts.append(("text", ", "))
                    if ordered:
                        parts += [("text", "("), ("value", k), ("text", ", "), ("value", v), ("text", ")")]
                    else:
                        parts += [("value", k), ("text", ": "), ("value", v)]
            else:
                opened, closed = ("[", "]") if isinstance(item, list) else ("(", ")")
                parts = []
                for i, v in enumerate(item):
                    if i:
                        parts.append(("text", ", "))
                    parts.append(("value", v))
                if isinstance(item, tuple) and len(item) == 1:
                    parts.append(("text", ","))
                if type(item) not in (list, tuple):  # a named tuple (torch.return_types...): Python's text
                    pieces.append(repr(item))
                    continue
            open_ids.add(id(item))
            stack.append(("closed", id(item)))
            stack.append(("text", closed))
            stack.extend(reversed(parts))
            stack.append(("text", opened))
            continue
        own = _show_one(item)
        pieces.append(own if own is not None else repr(item))
    return "".join(pieces)


_QUOTED_TYPE = re.compile(r"'([A-Za-z_][\w.-]*)' object")
_OF_TYPE = re.compile(r"object of type '([\w.-]+)'")
_BETWEEN = re.compile(r"instances of '([\w.-]+)' and '([\w.-]+)'")
_OPERANDS = re.compile(r"type\(s\) for ([^:]+): '([\w.-]+)' and '([\w.-]+)'")
_CALLED = re.compile(r"\b(_[a-z]\w*)\(\)")


def _word(python_type):
    """A type's name in Python's message, in the language's words: a class the program defined is
    named as one ('a P' would read as a typo)."""
    return TYPE_WORDS.get(python_type) or f"an object of class {python_type}"


def plain_words(message):
    """Python's error text with its class and function names replaced by the language's."""
    message = _OPERANDS.sub(lambda m: f"types for {m.group(1)}: {_word(m.group(2))} and {_word(m.group(3))}",
                            message)
    message = _BETWEEN.sub(lambda m: f"{_word(m.group(1))} and {_word(m.group(2))}", message)
    message = _OF_TYPE.sub(lambda m: _word(m.group(1)), message)
    message = _QUOTED_TYPE.sub(lambda m: _word(m.group(1)), message)
    message = _CALLED.sub(lambda m: f"{_PUBLIC.get(m.group(1), m.group(1).lstrip('_'))}()", message)
    return message


# the builtins' own function names, as the language spells them
_PUBLIC = {"_as_int": "int", "_as_float": "float", "_as_bool": "bool", "_str": "str", "_list": "list",
           "_tuple": "tuple", "_range": "range", "_sorted": "sorted", "_round": "round", "_format": "format",
           "_sum": "sum", "_pow": "pow", "_size": "Size", "_print": "print", "_repr": "repr"}
