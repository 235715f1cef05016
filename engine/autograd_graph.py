"""torch.autograd.graph: the backward graph's node type, for isinstance checks and annotations
(`isinstance(y.grad_fn, torch.autograd.graph.Node)`), as PyTorch's abstract Node -- every node the
engine hands out is one: an op's, a leaf's AccumulateGrad, a custom Function's -- and the hooks on
what ops save for their backward: saved_tensors_hooks (pack when saved, unpack when the backward
needs it), save_on_cpu and disable_saved_tensors_hooks."""
from .core.graph import Node as _OpNode, AccumulateGrad as _AccumulateGrad
from .core.saving import SAVED_HOOKS as _SAVED_HOOKS
from .custom_function import FunctionNode as _FunctionNode

__all__ = ["Node", "saved_tensors_hooks", "save_on_cpu", "disable_saved_tensors_hooks"]

_disabled = []  # the messages of the disable_saved_tensors_hooks contexts open now


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


class saved_tensors_hooks:
    """Inside, every tensor an op saves for its backward goes to pack_hook(tensor) and what that
    returns is kept instead; the backward (or a node's _saved_* attribute) gets
    unpack_hook(kept), which must give a tensor of the same values back. Nested contexts: the
    innermost one's hooks. PyTorch's semantics (memory-saving tricks, offloading, logging)."""

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self):
        if _disabled:
            raise RuntimeError(_disabled[-1])
        _SAVED_HOOKS.append((self.pack_hook, self.unpack_hook))
        return self

    def __exit__(self, *exc):
        _SAVED_HOOKS.pop()
        return False


class save_on_cpu(saved_tensors_hooks):
    """Saved tensors kept on the CPU and moved back to their device when the backward needs them (GPU
    memory for host memory); on the CPU they stay as they are."""

    def __init__(self, pin_memory=False, device_type="cuda"):
        def pack(tensor):
            return tensor.device, tensor.cpu()

        def unpack(kept):
            device, tensor = kept
            return tensor.to(device)
        super().__init__(pack, unpack)


class disable_saved_tensors_hooks:
    """Inside, opening a saved_tensors_hooks context is an error with `error_message` (a library
    that cannot work with them says so)."""

    def __init__(self, error_message):
        self.error_message = error_message

    def __enter__(self):
        _disabled.append(self.error_message)
        return self

    def __exit__(self, *exc):
        _disabled.pop()
        return False
