"""The language's arithmetic on values: `a op b`, `-a`, `a op= b` and comparisons as the language
means them (Python's, with lists of numbers read as tensors, the size budgets on big whole numbers,
strings and lists, and a program's class named in a TypeError). The interpreter and eval's compiled
lane share it; it imports nothing of the interpreter (the lane starts without it).
"""
import operator
import re

from .. import engine as E
from .classes import UserInstance
from .limits import check_items, checked_power, checked_product, checked_shift, check_percent_format

__all__ = ["binary", "unary", "inplace", "compare", "truth", "operand"]

_BINARY = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv, "@": operator.matmul,
    "**": operator.pow, "^": operator.pow, "//": operator.floordiv, "%": operator.mod,
    "&": operator.and_, "|": operator.or_, "<<": operator.lshift, ">>": operator.rshift,
}
_INPLACE = {
    "+": operator.iadd, "-": operator.isub, "*": operator.imul, "/": operator.itruediv,
    "@": operator.matmul, "**": operator.ipow, "//": operator.floordiv, "%": operator.mod,
    "&": operator.iand, "|": operator.ior, "<<": operator.ilshift, ">>": operator.irshift,
}
_COMPARE = {
    "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge, "==": operator.eq,
    "!=": operator.ne, "is": operator.is_, "is not": operator.is_not,
    "in": lambda a, b: a in b, "not in": lambda a, b: a not in b,
}
_UNARY = {"-": operator.neg, "+": operator.pos, "~": lambda a: ~int(a) if a.__class__ is bool else ~a}


def _tensor_like_list(v):
    return v.__class__ is list and v and all(isinstance(x, (int, float, list)) for x in v)


def operand(v):
    """Lists of numbers are tensors in arithmetic (a calculator's reading of [1, 2] * 2)."""
    if v.__class__ is list and _tensor_like_list(v):
        return E.tensor(v)
    return v


_CHECKED = frozenset((list, str, tuple, UserInstance))  # operands binary() looks at before Python's operator


def binary(op, a, b):
    """`a op b` as the language means it."""
    ca, cb = a.__class__, b.__class__
    if ca not in _CHECKED and cb not in _CHECKED and not (ca is int and cb is int):
        return _BINARY[op](a, b)  # tensors and numbers (not two whole numbers): nothing to check
    if (ca is list or cb is list) and (isinstance(a, E.Tensor) or isinstance(b, E.Tensor)):
        a, b = operand(a), operand(b)
        ca, cb = a.__class__, b.__class__
    elif ca is list and cb is int or cb is list and ca is int:
        n, items = (b, a) if ca is list else (a, b)
        if op == "*":
            check_items(n * len(items))
    if ca is int and cb is int:
        if op in ("**", "^"):
            if b > 0:
                return checked_power(a, b)
        elif op == "*":
            return checked_product(a, b)
        elif op == "<<":
            return checked_shift(a, b)
    elif ca is str and op == "%":
        check_percent_format(a, b)
    elif (ca is str or cb is str) and op == "*":
        n = b if ca is str else a
        if isinstance(n, int):
            check_items(n * len(a if ca is str else b), "string")
    elif op == "+" and ca is cb and ca in (str, list, tuple):
        check_items(len(a) + len(b), "string" if ca is str else ca.__name__)
    fn = _BINARY.get(op)
    if ca is UserInstance or cb is UserInstance:
        return _with_class_names(fn, a, b)
    return fn(a, b)


def _with_class_names(fn, a, b):
    """fn(a, b) where an operand is an object of a class of the program: Python's TypeError
    names that class, not the interpreter's own (as Python does)."""
    try:
        return fn(a, b)
    except TypeError as e:
        names = iter([v.cls.name for v in (a, b) if v.__class__ is UserInstance])
        message = re.sub("'UserInstance'", lambda m: f"'{next(names, 'object')}'", str(e))
        raise TypeError(message) from None


def inplace(op, a, b):
    """`a op= b`: in place for tensors (PyTorch's +=, views included), a new value otherwise."""
    if isinstance(a, E.Tensor):
        if b.__class__ is list:
            b = operand(b)
        return _INPLACE[op](a, b)
    return binary(op, a, b)


def unary(op, a):
    if a.__class__ is list:
        a = operand(a)
    return _UNARY[op](a)


def compare(ops, operands):
    """Python's chained comparison: a < b < c is (a < b) and (b < c)."""
    value = True
    for i, op in enumerate(ops):
        a, b = operands[i], operands[i + 1]
        if op in ("in", "not in") and isinstance(b, E.Tensor):
            hit = bool((b == a).any())
            value = hit if op == "in" else not hit
        else:
            if a.__class__ is list and op not in ("is", "is not", "==", "!="):
                a = operand(a)
            if b.__class__ is list and op not in ("is", "is not", "==", "!="):
                b = operand(b)
            value = _with_class_names(_COMPARE[op], a, b) if UserInstance in (a.__class__, b.__class__) \
                else _COMPARE[op](a, b)
        if len(ops) > 1 and not truth(value):
            return value
    return value


def truth(value):
    return bool(value)
