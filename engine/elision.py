"""Temporary elision: a large elementwise operator between two tensors writes
its result into the memory of an operand that nobody can see any more, as
numpy does for its own temporaries -- `a * x**2 + b * x + c` over big arrays
then makes two new arrays, not five, and touches that much less fresh memory.

An operand qualifies when it is a temporary of the expression being
evaluated: a plain Tensor (no view; no leaf that wants a gradient, which the
graph can still show) held only by the operator using it, over an array held
only by that Tensor, of the result's shape and dtype, that the op does not
save for its backward.

"Held only by the operator" is read from reference counts, and those differ
between Python versions (3.14 pushes some locals without counting them), so
no number is written down here: the first large operation measures them by
running the real operators on known temporaries and known variables
(`_calibrate`), and elision stays off wherever the two cannot be told apart.
Calling the method itself (`x.__mul__(y)`) holds its operands just as the
operator does, so the caller must also stand at a binary-operator instruction.
"""
import dis
import sys

import numpy

MIN_BYTES = 1 << 18  # numpy's own threshold: below it a new array costs less than the checks

_BINARY_OPCODES = frozenset(dis.opmap[name] for name in
                            ("BINARY_OP", "BINARY_ADD", "BINARY_SUBTRACT", "BINARY_MULTIPLY", "BINARY_TRUE_DIVIDE")
                            if name in dis.opmap)
_ndarray = numpy.ndarray

OPERATORS = set()  # the code of Tensor's operator methods, filled in by tensor.py
_counts = [None]   # per operand position, (tensor count, array count) of a temporary; False: off
_probe = [None]    # a list while calibrating: into() records what it sees there


def into(op, args, arrays, requires):
    """The array of `args` (two Tensors, `arrays` theirs) that `op`'s result may be
    written into, or None. `requires`: some input wants a gradient, so the op may
    save inputs for its backward."""
    a0, a1 = arrays
    if a0.__class__ is not _ndarray or a1.__class__ is not _ndarray:
        return None
    probing = _probe[0]
    if probing is None:
        if a0.nbytes < MIN_BYTES and a1.nbytes < MIN_BYTES:
            return None
        counts = _counts[0]
        if counts is None:
            counts = _calibrate()
        if counts is False:
            return None
    caller = sys._getframe(3)  # into <- _run_any <- run_op <- Tensor's operator <- its caller
    if caller.f_code not in OPERATORS:
        at_operator = False
    else:
        user = caller.f_back
        at_operator = user is not None and user.f_code.co_code[user.f_lasti] in _BINARY_OPCODES
    # read before any other name is bound to an operand, so the counts never depend on the path
    t0, t1 = args
    seen = ((sys.getrefcount(t0), sys.getrefcount(a0)), (sys.getrefcount(t1), sys.getrefcount(a1)))
    if probing is not None:
        probing.append((seen, at_operator))
        return None
    if not at_operator:
        return None
    for i, t, arr, other in ((0, t0, a0, a1), (1, t1, a1, a0)):
        if seen[i] != counts[i]:
            continue
        if (arr.nbytes < MIN_BYTES or arr is not t.array or t._base is not None or (t._rg and t._fn is None)
                or arr.base is not None or not arr.flags.writeable or arr.dtype.kind not in "fc"):
            continue
        if other.dtype != arr.dtype or not _fits(other.shape, arr.shape):
            continue
        if requires and i in _kept_inputs(op, args):
            continue
        return arr
    return None


def _fits(shape, into_shape):
    """Whether `shape` broadcasts to `into_shape` without enlarging it."""
    if len(shape) > len(into_shape):
        return False
    return all(s == 1 or s == d for s, d in zip(reversed(shape), reversed(into_shape)))


def _kept_inputs(op, args):
    """The positions of the inputs a node of `op` over `args` would keep for backward."""
    if not op.saves:
        return ()
    needs = tuple(a._rg for a in args)
    plan = op.keeps.get(needs)
    if plan is None:
        from .tensor import _save_plan  # (tensor imports this module)
        plan = op.keeps[needs] = _save_plan(op, needs)
    return plan


def _calibrate():
    """Measure, through the real operators, what into() sees for temporaries, for
    variables, and for an array held elsewhere too; elision is on only where a
    temporary is told apart from both at every operand position."""
    from .tensor import _make  # (tensor imports this module)
    from .backend import CPU
    seen = _probe[0] = []
    try:
        def fresh():
            return _make(numpy.zeros(2), CPU)
        fresh() + fresh()                   # two temporaries
        u, v = fresh(), fresh()
        u + v                               # two variables
        shared = numpy.zeros(2)
        _make(shared, CPU) + _make(shared.copy(), CPU)  # array 0 held here as well
        del u, v, shared
    finally:
        _probe[0] = None
    counts = False
    if len(seen) == 3:
        (temp, at_operator), (var, _), (shared_array, _) = seen
        if (at_operator and all(temp[i][0] < var[i][0] for i in (0, 1))
                and shared_array[0][1] > temp[0][1] and shared_array[1] == temp[1]):
            counts = temp
    _counts[0] = counts
    return counts


def enabled():
    """Whether this Python lets a temporary be told apart (measuring it if not yet done)."""
    counts = _counts[0]
    if counts is None:
        counts = _calibrate()
    return counts is not False

