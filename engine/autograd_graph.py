"""torch.autograd.graph: the backward graph's node type, for isinstance checks and annotations
(`isinstance(y.grad_fn, torch.autograd.graph.Node)`), as PyTorch's abstract Node -- every node the
engine hands out is one: an op's, a leaf's AccumulateGrad, a custom Function's -- and the hooks on
what ops save for their backward: saved_tensors_hooks (pack when saved, unpack when the backward
needs it), save_on_cpu and disable_saved_tensors_hooks."""
import collections

from .core.autograd import GRAPH_TASKS as _GRAPH_TASKS
from .core.grad_mode import no_grad as _no_grad
from .core.graph import (Node as _OpNode, AccumulateGrad as _AccumulateGrad, RemovableHandle, named as _named,
                         accumulator_of as _accumulator_of)
from .core.saving import SAVED_HOOKS as _SAVED_HOOKS
from .core.tensor import TensorBase as _TensorBase
from .custom_function import FunctionNode as _FunctionNode

__all__ = ["Node", "saved_tensors_hooks", "save_on_cpu", "disable_saved_tensors_hooks", "GradientEdge",
           "get_gradient_edge", "increment_version", "register_multi_grad_hook", "RemovableHandle",
           "allow_mutation_on_saved_tensors"]

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


GradientEdge = collections.namedtuple("GradientEdge", ("node", "output_nr", "ownership_token"), defaults=(None,))
GradientEdge.__doc__ = "Where a tensor's gradient enters the backward graph: its node and which output of it."


def get_gradient_edge(tensor):
    """The GradientEdge of `tensor`: its grad_fn (a leaf's AccumulateGrad) and its output number."""
    if not tensor.requires_grad:
        raise RuntimeError("It is not possible to get the gradient edge for a Tensor that does not require gradients")
    node = tensor.grad_fn
    if node is None:
        return GradientEdge(_accumulator_of(tensor), 0)
    return GradientEdge(_named(node), node.output_nr)


def increment_version(tensor):
    """Bump the version counter of `tensor` (or of each tensor of an iterable), as an in-place write
    that autograd did not see would: a node that saved it then refuses to run its backward."""
    for t in (tensor,) if isinstance(tensor, _TensorBase) else tensor:
        t._vc[0] += 1


class _MultiHandle(RemovableHandle):
    """The handle of register_multi_grad_hook: remove() takes off the hook of every tensor."""
    __slots__ = ("handles",)

    def __init__(self, handles):
        super().__init__({})
        self.handles = handles

    def remove(self):
        for handle in self.handles:
            handle.remove()


def _will_run(tensor, task):
    """Whether the backward `task` (an entry of GRAPH_TASKS) runs the node of `tensor`."""
    _task_id, roots, deps, needed = task
    node = tensor.grad_fn if tensor.grad_fn is not None else _accumulator_of(tensor)
    return node in roots or (node in deps and (needed is None or node in needed))


def register_multi_grad_hook(tensors, fn, *, mode="all"):
    """A hook over several tensors, once per backward. mode="all": fn(grads) after the gradient of
    every tensor of `tensors` this backward computes has arrived, grads a tuple with None for those it
    does not reach; mode="any": fn(grad) with the first of their gradients to arrive. Returns a handle
    whose remove() takes it off every tensor."""
    if mode not in ("all", "any"):
        raise ValueError(f"Expects mode to be one of ('all', 'any') but got {mode}")
    tensors = tuple(tensors)
    state = {"task": None, "grads": None, "left": 0}

    def hook_of(i):
        def hook(grad):
            task = _GRAPH_TASKS[-1]
            if state["task"] != task[0]:  # the first of these gradients in this backward
                state["task"] = task[0]
                if mode == "any":
                    fn(grad)
                    return None
                state["grads"] = [None] * len(tensors)
                state["left"] = sum(_will_run(t, task) for t in tensors if t.requires_grad)
            elif mode == "any":
                return None
            state["grads"][i] = grad
            state["left"] -= 1
            if state["left"] == 0:
                fn(tuple(state["grads"]))
            return None
        return hook

    return _MultiHandle([t.register_hook(hook_of(i)) for i, t in enumerate(tensors) if t.requires_grad])


_mutation_contexts = []  # the allow_mutation_on_saved_tensors context open now (they do not nest)
OUTSIDE_MUTATION_CONTEXT = ("Trying to backward outside of the 'allow_mutation_on_saved_tensors' contextin which "
                            "the graph was originally recorded.")  # (PyTorch's words, its missing space too)


class _AllowMutationOnSavedContext:
    """What `with allow_mutation_on_saved_tensors() as ctx` gives: whether its block is still open."""

    def __init__(self):
        self.open = True


class allow_mutation_on_saved_tensors:
    """Inside, a tensor saved for backward may be changed in place afterwards: the backward uses the
    values it had when saved, where it would otherwise refuse with the modified-by-an-inplace-operation
    error. The graph must be run (backward) inside the same block.

    A difference from PyTorch: PyTorch copies a saved tensor only when an in-place op is about to
    change it; we copy each tensor saved inside the block as it is saved (a saved_tensors_hooks pair),
    and the backward takes the copy where the tensor's version moved on -- the same gradients, more
    memory while the graph lives."""

    def __enter__(self):
        if _mutation_contexts:
            raise RuntimeError("allow_mutation_on_saved_tensors contexts cannot be nested")
        context = _AllowMutationOnSavedContext()

        def pack(tensor):
            with _no_grad():
                return tensor, tensor._version, tensor.detach().clone()

        def unpack(kept):
            if not context.open:
                raise AssertionError(OUTSIDE_MUTATION_CONTEXT)
            tensor, version, copy = kept
            return tensor if tensor._version == version else copy

        self._hooks = saved_tensors_hooks(pack, unpack)
        self._hooks.__enter__()
        _mutation_contexts.append(context)
        return context

    def __exit__(self, *exc):
        self._hooks.__exit__(*exc)
        _mutation_contexts.pop().open = False
        return False
