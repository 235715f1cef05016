"""How tests/golden/gen_opdb.py (on PyTorch's tensors) and tests/engine/test_opdb.py (on ours) walk a
sample's arguments and an op's result: one definition, so the two find the tensors in the same order
(the golden VJPs are stored in that order)."""

__all__ = ["leaves", "outputs"]


def leaves(x, tensor_type):
    """The tensors of a sample that require grad, depth first, in argument order."""
    found, stack = [], [x]
    while stack:
        v = stack.pop()
        if isinstance(v, tensor_type):
            if v.requires_grad:
                found.append(v)
        elif isinstance(v, (list, tuple)):
            stack.extend(reversed(v))
        elif isinstance(v, dict):
            stack.extend(reversed(list(v.values())))
    return found


def outputs(y, tensor_type):
    """The tensors of an op's result, depth first."""
    found, stack = [], [y]
    while stack:
        v = stack.pop()
        if isinstance(v, tensor_type):
            found.append(v)
        elif isinstance(v, (list, tuple)):
            stack.extend(reversed(v))
    return found
