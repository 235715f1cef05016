"""torch.autograd.graph: the backward graph's node type, for isinstance checks and annotations
(`isinstance(y.grad_fn, torch.autograd.graph.Node)`), as PyTorch's abstract Node -- every node the
engine hands out is one: an op's, a leaf's AccumulateGrad, a custom Function's."""
from .core.graph import Node as _OpNode, AccumulateGrad as _AccumulateGrad
from .custom_function import FunctionNode as _FunctionNode

__all__ = ["Node"]


class _AbstractNode(type):
    def __instancecheck__(cls, obj):
        return isinstance(obj, (_OpNode, _AccumulateGrad, _FunctionNode))

    def __subclasscheck__(cls, sub):
        return isinstance(sub, type) and issubclass(sub, (_OpNode, _AccumulateGrad, _FunctionNode))


class Node(metaclass=_AbstractNode):
    """A node of the backward graph: name(), next_functions, metadata, register_hook,
    register_prehook (every node the engine makes has them; this class is for isinstance)."""

    def __init__(self):
        raise TypeError("torch.autograd.graph.Node is abstract: nodes are made by ops")
