"""Custom autograd functions: `torch.autograd.Function`, as PyTorch 2.13 has it.

    class Exp(Function):
        @staticmethod
        def forward(ctx, x):
            y = x.exp()
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, grad):
            y, = ctx.saved_tensors
            return grad * y

    y = Exp.apply(x)        # y.grad_fn.name() == "ExpBackward"

`apply` runs the user's forward under no_grad, then records one node in the graph the way
core/tensor.py records an op's -- a `Node` whose row (`_FunctionRow`) has, as its backward, a call of
the user's backward. Nothing else in the engine knows about custom functions: the Kahn loop runs
that row as any other, so hooks, retain_grad, `inputs=`, create_graph (the user's backward, run
with grad mode on, records its own graph: double backward works when it is written in tensor
ops) and is_grads_batched (one call per batch element) all apply.

The ctx is a `FunctionCtx`, not the node itself: attributes a user sets on it (`ctx.device = ...`)
can never clash with the node's fields; the node forwards reads of them (`y.grad_fn.constant`).

A node has one output here, so a function with several differentiable outputs gets one extra node
per output (`_OutputRow`, shown to the user as the function's node, with that output's number):
its backward leaves the output's gradient in a slot of the function's node and hands on, as the
gradient the core adds up, a one-hot vector that says which slot it filled -- so the function's
node, run once after all of them, knows which of its outputs got a gradient in this very pass
(slots left from a pass that failed midway are ignored).

PyTorch's checks and messages: the number and kind of the gradients backward returns, their
shapes (a gradient must broadcast to its input, and is then summed back), saved tensors changed
in place, saved tensors read after a backward freed them, mark_dirty on a leaf, inputs marked
dirty but not returned, views returned by a forward written to in place.
"""
import functools
import inspect
import warnings
import weakref

import numpy

from .core.autograd import modified_error, retains_graph, DETACHED_MESSAGE
from .core.grad_mode import no_grad, is_grad_enabled
from .core.graph import Node, FREED_MESSAGE, next_sequence, tracing
from .core.inplace import rebase_view
from .core.saving import SAVED_HOOKS, pack_all
from .ops.table import Op, custom
from .core.tensor import make_tensor, refresh_view, edge_of_leaf, move_retain, array_module, VIEW_IN_CUSTOM_FUNCTION, VIEW_MULTI_OUTPUT
from .core.tensor import dual_run
from . import forward_ad as _forward_ad
from .tensor_class import Tensor

__all__ = ["Function", "FunctionCtx", "once_differentiable"]

_LEAF_DIRTY = "a leaf Variable that requires grad has been used in an in-place operation."
_VIEW_OF_LEAF_DIRTY = "a view of a leaf Variable that requires grad is being used in an in-place operation."
_DIRTY_VIEW_MANY_OUTPUTS = (
    "If your Function modifies inplace an input that is a view of another Tensor, your Function cannot return "
    "more than one Tensor. This is not supported by the current autograd engine. You should either make sure "
    "the input is not a view (using .clone() for example) or make your Function only return one Tensor "
    "(potentially splitting it into two Functions: one doing the inplace that returns a single Tensor and a "
    "second one that does the other operations). You can ask on the forum https://discuss.pytorch.org/ if you "
    "need help to do this change.")
_DIRTY_NOT_RETURNED = (
    "Some elements marked as dirty during the forward method were not returned as output. The inputs that are "
    "modified inplace must all be outputs of the Function.")
_DIRTY_NOT_INPUT = (
    "ctx.mark_dirty() received a tensor that was not an input. Only input Tensors that have been mutated should "
    "be passed to ctx.mark_dirty().")
_RETURNED_AND_SAVED = (
    "An input that has been returned as-is as output is being saved for backward. This is not supported if you "
    "override setup_context. You should return and save a view of the input instead, e.g. with x.view_as(x) or "
    "setup ctx inside the forward function itself.")


class FunctionCtx:
    """What a forward leaves for its backward: saved tensors, flags, and any attribute the user sets."""

    needs_input_grad = None  # set by apply: whether each argument is a tensor that requires grad
    _materialize_grads = True

    def save_for_backward(self, *tensors):
        self.to_save = tensors

    def mark_dirty(self, *args):
        self.dirty_tensors = args

    def save_for_forward(self, *tensors):
        """Tensors for the Function's jvp (forward mode), read back there as ctx.saved_tensors."""
        self.saved_for_forward = tensors

    def mark_non_differentiable(self, *args):
        self.non_differentiable = args

    def set_materialize_grads(self, value):
        if value.__class__ is not bool:  # (PyTorch's words, "got ()" included)
            raise TypeError("set_materialize_grads received an invalid combination of arguments - got (), but "
                            "expected (bool)")
        self._materialize_grads = value

    @property
    def saved_tensors(self):
        """The tensors saved for backward, checked against the versions they had then (in a jvp: those
        saved for it with save_for_forward)."""
        if "_jvp_saved" in self.__dict__:
            return self._jvp_saved
        saved = self.__dict__.get("_saved", ())
        if saved is None:
            raise RuntimeError(FREED_MESSAGE)
        out = []
        for entry in saved:
            if entry is None:
                out.append(None)
            elif entry.__class__ is _Packed:
                kept, unpack = entry
                out.append(unpack(kept))
            elif entry.__class__ is tuple:  # an output: (array, version counter, version, output number)
                array, vc, version, k = entry
                node = self._node()
                holder = _output_node(node, k)
                if vc[0] != version:
                    raise modified_error(node, array, holder, vc[0], version)
                out.append(make_tensor(array, node.device, True, holder, vc))
            else:
                tensor, version = entry.tensor, entry.version
                if tensor._vc[0] != version:
                    raise modified_error(self._node(), tensor.array, tensor.grad_fn, tensor._vc[0], version)
                if entry.producer is not None and tensor._fn is None and not tensor._rg:
                    raise RuntimeError(DETACHED_MESSAGE)
                out.append(tensor)
        return tuple(out)

    def _free(self):
        self._saved = None


class _SavedInput:
    """A saved tensor that is not an output of the function: kept with its version and node then."""

    __slots__ = ("tensor", "version", "producer")

    def __init__(self, tensor):
        self.tensor = tensor
        self.version = tensor._vc[0]
        self.producer = tensor._fn


class FunctionNode(Node):
    """The node of a custom Function's application (a subclass per Function, named as PyTorch names it:
    `ExpBackward`). The function's own node runs its backward; an output's node (several outputs) stands
    for the function's node to the user: the same name, next functions and ctx attributes."""

    __slots__ = ()
    _module = "torch.autograd.function."

    def name(self):
        return self._node_name

    @property
    def next_functions(self):
        function = self.inputs[0] if self.op is _OutputRow else self
        return Node.next_functions.fget(function)

    def __repr__(self):
        return f"<{self._module}{type(self).__name__} object at {id(self):#x}>"

    def context(self):
        """The ctx its function's forward and backward were given."""
        function = self.inputs[0] if self.op is _OutputRow else self
        return function.__dict__["_ctx"]

    def __getattr__(self, name):
        """ctx's attributes read through the node (`y.grad_fn.saved_tensors`, `y.grad_fn.constant`)."""
        if name.startswith("_") or name == "args":
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
        return getattr(self.context(), name)


def _output_node(node, k):
    """The node output k hangs from: the function's own node when it is the one differentiable
    output, else that output's node (made again if it was freed)."""
    if node.__dict__.get("_pending") is None:
        return node
    ref = node._output_nodes.get(k)
    out = ref() if ref is not None else None
    if out is None:
        out = _new_output_node(node, k, node._ctx._outputs[k])
    return out


class _FunctionRow(Op):
    """The row of a custom Function's node (one subclass per Function, named after it, not in the
    op table): its backward calls the user's."""

    formula = ("call", None)

    def backward(F, node, g):
        pending = _take_pending(node)
        result = _call_backward(F, node, _grad_outputs(F, node, g, pending, None))
        if not retains_graph():
            node._ctx._free()
        return result

    def batched_backward(F, node, g):
        """One call of the user's backward per batch element (as PyTorch's vmap over it), stacked."""
        pending = _take_pending(node)
        parts = [_call_backward(F, node, _grad_outputs(F, node, g[b], pending, b)) for b in range(g.shape[0])]
        if not retains_graph():
            node._ctx._free()
        return tuple(None if parts[0][i] is None else F.stack(*[p[i] for p in parts])
                     for i in range(len(parts[0])))


class _OutputRow(Op):
    """The row of the node of one of several differentiable outputs: the gradient waits in the
    function node's slot; the one-hot vector of that slot goes on to the function node."""

    formula = custom("function_output")  # F.apply(x)[k]
    batched = True  # a batched gradient waits as it is; the function node takes it apart

    def backward(F, node, g):
        function = node.inputs[0]
        slot = node._slot
        function._pending[slot] = g
        xp = F.xp
        n = len(function._pending)
        batch = g.shape[:1] if node.out_shape != g.shape else ()
        token = xp.zeros(batch + (n,), dtype="float64")
        token[..., slot] = 1.0
        return (make_tensor(token, node.device) if F.graph else token,)


_OutputRow.name = "function_output"


def _take_pending(node):
    """The gradients waiting in the slots of a node of several outputs (None for one output); the slots emptied."""
    pending = node.__dict__.get("_pending")
    if pending is not None:
        node._pending = [None] * len(pending)
    return pending


def _grad_outputs(F, node, g, pending, b):
    """The gradients of every output of the function, as the user's backward takes them: the
    one arriving (or, for several outputs, those its slots got in this pass), zeros for an output
    none arrived at (None without materialize_grads, and for outputs that are not tensors).
    `b`: the batch element, in a batched backward."""
    ctx = node._ctx
    outputs = ctx._outputs
    grads = [None] * len(outputs)
    if pending is None:
        grads[node.output_nr] = g
    else:
        got = (g.array if F.graph else g).tolist()
        for slot, k in enumerate(node._slots):
            if got[slot]:
                grads[k] = pending[slot] if b is None else pending[slot][b]
    device = node.device
    for k, (gk, info) in enumerate(zip(grads, outputs)):
        if gk is not None:
            if not F.graph:
                grads[k] = make_tensor(gk, device)
        elif info is not None and ctx._materialize_grads:
            shape, dtype = info
            grads[k] = make_tensor(array_module(device).zeros(shape, dtype), device)
    return grads


def _call_backward(F, node, grads):
    """The user's backward on `grads`, its result checked as PyTorch checks it; one gradient per
    tensor input (arrays, or tensors under create_graph; None where none flows)."""
    result = _user_backward(node._forward_cls)(node._ctx, *grads)
    if result.__class__ is not tuple:
        result = (result,)
    tensor_input = node._ctx._tensor_input
    expected = len(tensor_input)
    if len(result) > expected and all(r is None for r in result[expected:]):
        result = result[:expected]
    name = node.name()
    if len(result) != expected:
        raise RuntimeError(f"function {name} returned an incorrect number of gradients (expected {expected}, got "
                           f"{len(result)})")
    grads = []
    for i, (r, is_tensor) in enumerate(zip(result, tensor_input)):
        if not is_tensor:
            if r is not None:
                raise RuntimeError(f"function {name} returned a gradient different than None at position {i + 1}, "
                                   f"but the corresponding forward input was not a Variable")
            continue
        if r is not None and not isinstance(r, Tensor):
            raise RuntimeError(f"expected Variable or None (got {type(r).__name__})")
        grads.append(r)
    out = []
    for j, (r, edge, shape) in enumerate(zip(grads, node.inputs, node.shapes)):
        if r is None or edge is None:
            out.append(None)
            continue
        got = tuple(r.array.shape)
        if got != shape and not _expandable(shape, got):
            raise RuntimeError(f"Function {name} returned an invalid gradient at index {j} - got {list(got)} but "
                               f"expected shape compatible with {list(shape)}")
        if F.graph:
            out.append(r)
        else:
            arr = r.array
            # a view: the core never adds into it in place (it may be a tensor the user still holds)
            out.append(arr if isinstance(arr, numpy.generic) else arr.view())
    return tuple(out)


def _expandable(shape, to):
    """Whether `shape` broadcasts to `to` (a gradient of shape `to` can be summed back to it)."""
    if len(shape) > len(to):
        return False
    return all(s == t or s == 1 for s, t in zip(reversed(shape), reversed(to)))


def _user_backward(cls):
    backward, vjp = cls.backward, cls.vjp
    if backward is not Function.backward and vjp is not Function.vjp and vjp is not backward:
        raise RuntimeError("Implementing both 'backward' and 'vjp' for a custom Function is not allowed. You should "
                           "only implement one of them.")
    return vjp if vjp is not Function.vjp and vjp is not backward else backward


# ---------------------------------------------------------------- apply

class Function(FunctionCtx):
    """Base class of custom autograd functions: subclass it with @staticmethod forward and backward,
    call `apply`."""

    _node_name = None

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        _function_classes(cls)

    def __init__(self, *args, **kwargs):
        warnings.warn(f"{self.__class__} should not be instantiated. Methods on autograd functions are all static, "
                      "so you should invoke them on the class itself. Instantiating an autograd function will raise an "
                      "error in a future version of PyTorch.", DeprecationWarning, stacklevel=2)

    def __call__(self, *args, **kwargs):
        raise RuntimeError("Legacy autograd function with non-static forward method is deprecated. Please use "
                           "new-style autograd function with static forward method. (Example: "
                           "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")

    @staticmethod
    def forward(*args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def setup_context(ctx, inputs, output):
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for your custom "
                                  "autograd.Function to use it with backward mode AD.")

    vjp = backward

    @staticmethod
    def jvp(ctx, *grad_inputs):
        raise NotImplementedError("You must implement the jvp function for custom autograd.Function to use it with "
                                  "forward mode AD.")

    @classmethod
    def apply(cls, *args, **kwargs):
        new_style = cls.setup_context is not Function.setup_context
        if new_style:  # the arguments bound to forward's parameters, defaults filled in
            bound = inspect.signature(cls.forward).bind(*args, **kwargs)
            bound.apply_defaults()
            args, kwargs = bound.args, bound.kwargs
        if kwargs:
            args = _positional(cls.forward, args, kwargs, skip_ctx=not new_style)
        if dual_run[0]:  # a forward AD level is open: the outputs' tangents from the Function's jvp
            return _forward_ad.apply_with_tangents(cls, args, lambda ctx: _apply(cls, args, new_style, ctx),
                                                   cls.jvp is Function.jvp)
        return _apply(cls, args, new_style)


def _function_classes(cls):
    """The classes a Function has of its own (PyTorch's FunctionMeta): its node's, named `<Name>Backward`,
    its ctx's (named alike, so that its errors read as PyTorch's), and its node's row."""
    name = cls.__dict__.get("_node_name") or cls.__name__ + "Backward"
    cls._backward_cls = type(cls.__name__ + "Backward", (FunctionNode,),
                             {"__slots__": (), "_node_name": name, "_forward_cls": cls,
                              "__module__": "torch.autograd.function"})
    cls._ctx_cls = type(cls.__name__ + "Backward", (FunctionCtx,), {"__module__": "torch.autograd.function"})
    row = type(cls.__name__ + "Row", (_FunctionRow,), {"names": (cls.__name__ + ".apply",)})
    row.name = cls.__name__ + ".apply"  # after the class is made: not a row of the op table
    cls._function_row = row


_function_classes(Function)


def _positional(forward, args, kwargs, skip_ctx):
    """Keyword arguments put in the places of forward's positional parameters, as PyTorch does it
    (keyword-only parameters are not among them)."""
    names = [p.name for p in inspect.signature(forward).parameters.values()
             if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)][1 if skip_ctx else 0:]
    last = len(args) - 1
    for key in kwargs:
        if key not in names:
            raise TypeError(f"forward() got an unexpected keyword argument '{key}'")
        i = names.index(key)
        if i < len(args):
            raise TypeError(f"forward() got multiple values for argument '{key}'")
        last = max(last, i)
    out = list(args) + [_MISSING] * (last + 1 - len(args))
    for key, value in kwargs.items():
        out[names.index(key)] = value
    for i, value in enumerate(out):
        if value is _MISSING:
            raise TypeError(f"forward() missing required argument: '{names[i]}' (position {i})")
    return tuple(out)


_MISSING = object()


def _apply(cls, args, new_style, ctx=None):
    if ctx is None:
        ctx = cls._ctx_cls()
    tensors = [a for a in args if isinstance(a, Tensor)]
    requires = [t.requires_grad for t in tensors]
    ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a.requires_grad for a in args)
    ctx._tensor_input = tuple(isinstance(a, Tensor) for a in args)
    executable = is_grad_enabled() and any(requires)
    edges = [_edge(t) for t in tensors] if executable else None
    metas = [(tuple(t.array.shape), t.array.dtype) for t in tensors]
    seq = next_sequence()
    traced = tracing[0]
    with no_grad():
        if new_style:
            output = cls.forward(*args)
            cls.setup_context(ctx, args, output)
        else:
            output = cls.forward(ctx, *args)
    single = output.__class__ is not tuple
    raw = (output,) if single else output
    outputs = _wrap_outputs(cls, ctx, tensors, raw, executable, edges, metas, requires, seq, new_style)
    _save(ctx, outputs, executable)
    if traced and executable:  # a formula of the graph reads the call back (trace_inputs)
        _trace(ctx._node(), args, outputs)
    return outputs[0] if single else outputs


def _edge(t):
    """Where a gradient for input t goes (collected before forward, which may change t in place)."""
    if not t.requires_grad:
        return None
    if t._base is not None:
        refresh_view(t)
    return t._fn if t._fn is not None else edge_of_leaf(t)


def _tensor_set(values, what):
    """The identities of the tensors given to mark_dirty / mark_non_differentiable (PyTorch's checks)."""
    out = set()
    for v in values or ():
        if not isinstance(v, Tensor):  # (PyTorch's messages end there: its type name is not printed)
            if what == "mark_dirty":
                raise RuntimeError("mark_dirty can only accept variables, but argument ")
            raise RuntimeError("mark_non_differentiable only accepts variable arguments, but got ")
        if what == "mark_dirty":
            v._vc[0] += 1  # PyTorch bumps the version of each, as it goes
        out.add(id(v))
    return out


def _wrap_outputs(cls, ctx, tensors, raw, executable, edges, metas, requires, seq, new_style):
    """The outputs as the user gets them, with their history set (PyTorch's _process_backward_mode_ad)."""
    non_diff = _tensor_set(ctx.__dict__.pop("non_differentiable", None), "mark_non_differentiable")
    dirty_tensors = ctx.__dict__.pop("dirty_tensors", None) or ()
    dirty = _tensor_set(dirty_tensors, "mark_dirty")
    inputs = {id(t) for t in tensors}
    to_save = {id(t) for t in ctx.__dict__.get("to_save", None) or () if isinstance(t, Tensor)} if new_style else ()
    out = list(raw)
    diff = [executable and isinstance(v, Tensor) and id(v) not in non_diff and v.array.dtype.kind in "fc"
            for v in out]
    ctx._outputs = [(tuple(v.array.shape), v.array.dtype) if isinstance(v, Tensor) else None for v in out]
    node = None
    if executable:
        device = next((v.device for v in out if isinstance(v, Tensor)), tensors[0].device)
        node = _function_node(cls, ctx, edges, metas, requires, seq, device)
    n_diff = sum(diff)
    nodes = {}  # the node each differentiable output hangs from
    if n_diff > 1:  # the gradient the core hands the node: which outputs' slots were filled
        node._pending = [None] * n_diff
        node._slots = [k for k, d in enumerate(diff) if d]
        node.out_shape, node.out_dtype = (n_diff,), _FLOAT64
        for k in reversed(node._slots):  # output 0's node the newest: the first to run (its hooks first)
            nodes[k] = _output_node(node, k)
    elif n_diff == 1:
        node.output_nr = diff.index(True)
        node.out_shape, node.out_dtype = ctx._outputs[node.output_nr]
        nodes[node.output_nr] = node
    for k, v in enumerate(out):
        if not isinstance(v, Tensor):
            continue
        is_input, is_dirty = id(v) in inputs, id(v) in dirty
        if is_input and not is_dirty and id(v) in to_save:
            raise RuntimeError(_RETURNED_AND_SAVED)
        if not diff[k]:
            if not v.requires_grad:
                if is_input and not is_dirty:
                    out[k] = _view_as_self(v)
            elif is_input:
                out[k] = v.detach()
            elif v._base is None:
                v.detach_()
        elif is_dirty:
            _rebase_dirty(v, is_input, nodes[k], len(out))
        else:
            if is_input:
                v = out[k] = _view_as_self(v)
            if v._base is not None:
                v._view.version = v._vc[0]
            v._fn = nodes[k]
            v._rg = True
        v = out[k]
        if v._base is not None and not (is_input and is_dirty):
            v._view.meta = VIEW_MULTI_OUTPUT if n_diff > 1 and v.requires_grad else VIEW_IN_CUSTOM_FUNCTION
            v._view.output = k
    returned = {id(v) for v in out}
    if any(id(t) not in returned for t in dirty_tensors):
        raise RuntimeError(_DIRTY_NOT_RETURNED)
    return tuple(out)


def _function_node(cls, ctx, edges, metas, requires, seq, device):
    node = Node.__new__(cls._backward_cls)
    node.op = cls._function_row
    node.params = {}
    node.pre_hooks = node.retain = None
    node.inputs = tuple(edges)
    node.shapes = tuple(shape for shape, _ in metas)
    node.dtypes = tuple(dtype for _, dtype in metas)
    node.needs = tuple(requires)
    node.saved = None
    node.seq = seq
    node.out_shape, node.out_dtype = (), None  # set once the outputs are known
    node.device = device
    node._ctx = ctx
    node._output_nodes = {}
    ctx._node = weakref.ref(node)
    return node


def _new_output_node(node, k, info):
    out = Node.__new__(type(node))
    out.op = _OutputRow
    out.params = {}
    out.pre_hooks = out.retain = None
    out.inputs = (node,)
    shape, dtype = info
    out.shapes = ((len(node._pending),),)
    out.dtypes = (_FLOAT64,)
    out.needs = (True,)
    out.saved = None
    out.seq = next_sequence()
    out.out_shape, out.out_dtype = shape, dtype
    out.device = node.device
    out.output_nr = k
    out._slot = node._slots.index(k)
    node._output_nodes[k] = weakref.ref(out)
    return out


def _trace(node, args, outputs):
    """The arguments every node of this call keeps under trace_inputs: the function's node, those of
    `apply`; an output's node, a tensor that stands for the function's outputs together."""
    node.args = args
    function_value = None
    for v in outputs:
        fn = v._fn if isinstance(v, Tensor) else None
        if fn is not None and fn.op is _OutputRow:
            if function_value is None:
                function_value = make_tensor(array_module(node.device).zeros(len(node._slots)), node.device, True, node)
            fn.args = (function_value,)


def _view_as_self(t):
    with no_grad():
        return t.view_as(t)


def _rebase_dirty(v, is_input, node, n_outputs):
    """An input the forward changed in place: its history is now the function's node (PyTorch's rebase_history)."""
    if v._base is None and v._fn is None and v._rg:
        raise RuntimeError(_LEAF_DIRTY)
    if not is_input:
        warnings.warn(_DIRTY_NOT_INPUT, UserWarning, stacklevel=5)
    if v._base is not None and n_outputs > 1:
        raise RuntimeError(_DIRTY_VIEW_MANY_OUTPUTS)
    v._grad = None
    v._hooks = None
    if v._base is None:
        old = v._fn
        v._fn = node
        v._rg = True
        if v._retains:
            move_retain(v, old, node)
        return
    if v._base._fn is None and v._base._rg:
        raise RuntimeError(_VIEW_OF_LEAF_DIRTY)
    rebase_view(v, make_tensor(v.array, v.device, True, node))


def _save(ctx, outputs, executable):
    """What save_for_backward named, kept as PyTorch keeps it: an output by its memory and version
    counter (no cycle through the node), anything else as the tensor, with its version now."""
    to_save = ctx.__dict__.pop("to_save", None)
    if to_save is None or not executable:
        return
    index = {id(v): k for k, v in enumerate(outputs) if isinstance(v, Tensor)}
    saved = []
    for i, t in enumerate(to_save):
        if t is None:
            saved.append(None)
        elif not isinstance(t, Tensor):
            raise TypeError(f"save_for_backward can only save variables, but argument {i} is of type "
                            f"{type(t).__name__}")
        elif id(t) in index and t._fn is not None:
            saved.append((t.array, t._vc, t._vc[0], index[id(t)]))
        else:
            saved.append(_SavedInput(t))
    ctx._saved = _packed_by_hooks(saved, to_save) if SAVED_HOOKS else saved


class _Packed(tuple):
    """A saved tensor as a saved_tensors_hooks pack hook kept it: (what it returned, the unpack hook)."""
    __slots__ = ()


def _packed_by_hooks(saved, to_save):
    """ctx.save_for_backward's tensors kept by the innermost pack hook (saving.pack_all)."""
    kept = iter(pack_all([t for entry, t in zip(saved, to_save) if entry is not None]))
    return [None if entry is None else _Packed(next(kept)) for entry in saved]


# ---------------------------------------------------------------- once_differentiable

class _DelayedError(Function):
    """once_differentiable's node under create_graph: differentiating it again is an error."""

    _node_name = "torch::autograd::Error"

    @staticmethod
    def forward(ctx, *values):
        return values

    @staticmethod
    def backward(ctx, *grads):
        raise RuntimeError("trying to differentiate twice a function that was marked with @once_differentiable")


_DelayedError._backward_cls.__name__ = "Error"
_DelayedError._backward_cls._module = ""


def once_differentiable(fn):
    """A backward that is run under no_grad: its gradients, under create_graph, cannot be differentiated."""

    @functools.wraps(fn)
    def wrapper(ctx, *args):
        with no_grad():
            outputs = fn(ctx, *args)
        if not is_grad_enabled() or not any(isinstance(a, Tensor) and a.requires_grad for a in args):
            return outputs
        single = outputs.__class__ is not tuple
        values = (outputs,) if single else outputs
        fakes = [v if v is None else v.detach().requires_grad_(True) for v in values]
        errors = _DelayedError.apply(*fakes)
        return errors[0] if single else errors

    return wrapper


_FLOAT64 = numpy.dtype("float64")
