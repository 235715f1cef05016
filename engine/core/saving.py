"""What a backward node keeps of an op's inputs and output for its backward: the kinds of a saved
entry, and each row's save plan (which of its `saves` a call keeps, by which inputs want a
gradient), worked out once per row and call shape."""

__all__ = ["SAVED_VALUE", "SAVED_TENSOR", "SAVED_OUTPUT", "SAVED_PACKED", "NOT_KEPT", "OUT", "save_plan_of",
           "ValuesPlan", "saved_entries", "SAVED_HOOKS", "packed", "pack_all"]

# How a saved value is kept (see Node.saved): an entry is (kind, value, version, producer).
SAVED_VALUE, SAVED_TENSOR, SAVED_OUTPUT = 0, 1, 2
# a tensor given to a saved_tensors_hooks pack hook: (what it returned, the unpack hook) is kept
SAVED_PACKED = 3
NOT_KEPT = (SAVED_VALUE, None, 0, None)

OUT = "out"


def _save_plan(op, needs):
    """op.saves as a call with len(needs) arguments keeps it: None where no input that wants a
    gradient uses the entry, or where it names an argument the call left out (both keep
    NOT_KEPT); OUT (this very object) for the output; else the argument's index. A ValuesPlan
    when it keeps no output and no argument that wants a gradient: in run_op's straight line
    (one tensor, which wants one) it keeps only numbers."""
    users = op.save_for or ((),) * len(op.saves)
    plan = tuple(OUT if s == "out" else
                 None if s >= len(needs) or (op.save_for is not None and not any(needs[j] for j in u)) else s
                 for s, u in zip(op.saves, users))
    return ValuesPlan(plan) if all(s is None or (s is not OUT and not needs[s]) for s in plan) else plan


def save_plan_of(op, needs):
    """op's save plan for a call whose inputs want gradients as `needs` says, made once."""
    plan = op.keeps.get(needs)
    if plan is None:
        plan = op.keeps[needs] = _save_plan(op, needs)
    return plan


class ValuesPlan(tuple):
    """A save plan that run_op's straight line fills with numbers only."""
    __slots__ = ()


def saved_entries(saved):
    """A node's saved entries (kind, value, version, producer). A node whose row keeps only
    numbers of its call keeps them as a plain tuple of the values, the commonest case in a
    chain of small ops, which the backward then takes as they are."""
    if saved.__class__ is tuple:
        return [(SAVED_VALUE, v, 0, None) for v in saved]
    return saved


# The (pack, unpack) pairs of the saved_tensors_hooks contexts open now, innermost last
# (torch.autograd.graph.saved_tensors_hooks); ops that save a tensor while one is open keep what
# its pack hook returns instead, and the backward calls its unpack hook for the tensor.
SAVED_HOOKS = []


def pack_all(tensors):
    """(what the innermost pack hook keeps, its unpack hook) for each tensor, the hooks off while it
    runs (its own ops save nothing through it)."""
    pack, unpack = SAVED_HOOKS[-1]
    hooks = SAVED_HOOKS[:]
    SAVED_HOOKS.clear()
    try:
        return [(pack(t), unpack) for t in tensors]
    finally:
        SAVED_HOOKS[:] = hooks


def packed(saved, result):
    """A node's saved entries with each tensor (`result` for the output) kept by the pack hook."""
    tensors = [e[1] if e[0] == SAVED_TENSOR else result for e in saved if e[0] in (SAVED_TENSOR, SAVED_OUTPUT)]
    kept = iter(pack_all(tensors))
    return [(SAVED_PACKED, next(kept), 0, None) if e[0] in (SAVED_TENSOR, SAVED_OUTPUT) else e for e in saved]
