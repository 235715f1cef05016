"""Temporary elision: a large + - * / between two tensors, or a tensor and a
Python number, writes its result into the memory of an operand that nobody
can see any more, as numpy does for its own temporaries -- `a * x**2 + b * x
+ c` over big arrays then makes two new arrays, not five, and touches that
much less fresh memory.

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

from ..allocation import keep_freed_memory
from ..backend import CPU
from .saving import save_plan_of

MIN_BYTES = 1 << 18  # numpy's own threshold: below it a new array costs less than the checks

_BINARY_OPCODES = frozenset(dis.opmap[name] for name in
                            ("BINARY_OP", "BINARY_ADD", "BINARY_SUBTRACT", "BINARY_MULTIPLY", "BINARY_TRUE_DIVIDE")
                            if name in dis.opmap)
_ndarray = numpy.ndarray

OPERATORS = set()  # the code of Tensor's operator methods, filled in by engine/tensor_class.py
# Per entry ("pair": two tensors; "one": a tensor and a number) and operand position, the
# (tensor count, array count) a temporary shows there. None: not measured yet; False: off.
_counts = [None]
_probe = [None]    # a list while calibrating: the entries record what they see there
_maker = [None]    # make_tensor(array, device): core/tensor.py hands it over (use_maker), as it imports this module


def use_maker(make_tensor):
    """How the calibration makes its tensors (core/tensor.py's make_tensor)."""
    _maker[0] = make_tensor
_WEAK_NUMBERS = int(numpy.__version__.split(".")[0]) >= 2  # numpy 2: a Python number never widens an array


def into(op, args, arrays, requires):
    """The array of `args` (two Tensors, `arrays` theirs) that `op`'s result may be
    written into, or None. `requires`: some input wants a gradient, so the op may
    save inputs for its backward. (Called by run_op, through _forward_of_many.)"""
    a0, a1 = arrays
    if a0.__class__ is not _ndarray or a1.__class__ is not _ndarray:
        return None
    probing = _probe[0]
    if probing is None:
        if a0.nbytes < MIN_BYTES and a1.nbytes < MIN_BYTES:
            return None
        counts = _measured()
        if counts is False:
            return None
    at_operator = _at_operator(sys._getframe(3))  # into <- _forward_of_many <- run_op <- operator <- caller
    # read before any other name is bound to an operand, so the counts never depend on the path
    t0, t1 = args
    seen = ((sys.getrefcount(t0), sys.getrefcount(a0)), (sys.getrefcount(t1), sys.getrefcount(a1)))
    if probing is not None:
        probing.append(("pair", seen, at_operator))
        return None
    if not at_operator:
        return None
    for i, t, arr, other in ((0, t0, a0, a1), (1, t1, a1, a0)):
        if (seen[i] == counts["pair"][i] and _free(t, arr) and other.dtype == arr.dtype
                and _fits(other.shape, arr.shape) and not (requires and i in _kept_inputs(op, args))):
            return arr
    return None


def into_one(op, args, x, first, requires):
    """As into(), for a tensor (whose array `x` is, first or not) and a Python number.
    (Called by run_op.)"""
    probing = _probe[0]
    if probing is None:  # (run_op asks only about operands of MIN_BYTES or more)
        counts = _measured()
        if counts is False:
            return None
    at_operator = _at_operator(sys._getframe(2))  # into_one <- run_op <- operator <- caller
    t = args[0] if first else args[1]
    seen = (sys.getrefcount(t), sys.getrefcount(x))
    if probing is not None:
        probing.append(("one", seen, at_operator))
        return None
    number = args[1] if first else args[0]
    if (at_operator and seen == counts["one"][not first] and _free(t, x)
            and (number.__class__ is float or number.__class__ is int)
            and (_WEAK_NUMBERS or x.dtype == numpy.float64)
            and not (requires and (0 if first else 1) in _kept_inputs(op, args))):
        return x
    return None


def _at_operator(caller):
    """Whether `caller` is one of Tensor's operators, called by a binary-operator instruction."""
    if caller.f_code not in OPERATORS:
        return False
    user = caller.f_back
    return user is not None and user.f_code.co_code[user.f_lasti] in _BINARY_OPCODES


def _free(t, arr):
    """Whether tensor `t`, held by nobody else, may give up its array `arr` to a result."""
    return (arr.nbytes >= MIN_BYTES and arr is t.array and t._base is None and not (t._rg and t._fn is None)
            and arr.base is None and arr.flags.writeable and arr.dtype.kind in "fc")


def _fits(shape, into_shape):
    """Whether `shape` broadcasts to `into_shape` without enlarging it."""
    if len(shape) > len(into_shape):
        return False
    return all(s == 1 or s == d for s, d in zip(reversed(shape), reversed(into_shape)))


def _kept_inputs(op, args):
    """The positions of the inputs a node of `op` over `args` would keep for backward."""
    if not op.saves:
        return ()
    return save_plan_of(op, tuple(getattr(a, "_rg", False) is True for a in args))  # a number wants none


def _calibrate():
    """Measure, through the real operators, what each entry sees for temporaries, for
    variables, and for an array held elsewhere too; elision is on only where a
    temporary is told apart from both at every operand position."""
    make_tensor = _maker[0]
    seen = _probe[0] = []
    try:
        def fresh(array=None):  # as large as an operand worth reusing: run_op asks only about those
            return make_tensor(numpy.zeros(MIN_BYTES // 8) if array is None else array, CPU)
        shared = numpy.zeros(MIN_BYTES // 8)
        u, v = fresh(), fresh()
        fresh() + fresh()                   # pair: two temporaries,
        u + v                               # two variables,
        fresh(shared) + fresh()             # the first one's array held here as well
        fresh() * 2.0                       # one: a temporary, first and second
        2.0 * fresh()
        u * 2.0                             # a variable, first and second
        2.0 * u
        fresh(shared) * 2.0                 # an array held here as well, first and second
        2.0 * fresh(shared)
        del u, v, shared
    finally:
        _probe[0] = None
    counts = False
    kinds = [kind for kind, _, _ in seen]
    if kinds == ["pair"] * 3 + ["one"] * 6 and all(at for _, _, at in seen):
        (temp, var, shared), one = [s for _, s, _ in seen[:3]], [s for _, s, _ in seen[3:]]
        pair_ok = all(temp[i][0] < var[i][0] for i in (0, 1)) and shared[0][1] > temp[0][1] \
            and shared[1] == temp[1]
        one_ok = all(one[i][0] < one[2 + i][0] and one[i][1] < one[4 + i][1] for i in (0, 1))
        if pair_ok and one_ok:
            counts = {"pair": temp, "one": (one[0], one[1])}
    _counts[0] = counts
    return counts


def _measured():
    counts = _counts[0]
    if counts is None:  # the first large operation: its arrays' memory is worth keeping when freed
        keep_freed_memory()
        counts = _calibrate()
    return counts


def enabled():
    """Whether this Python lets a temporary be told apart (measuring it if not yet done)."""
    return _measured() is not False

