"""Backward-graph nodes: what an op leaves behind for the backward pass.

A `Node` is a plain object one can inspect: the op (a row of the table in
`ops/`), its parameters, the edges to the nodes of its inputs
(`inputs`; `next_functions` shows them as PyTorch does: `(node, 0)` or
`(None, 0)`), the input
shapes (the core sums broadcast gradients back to them), and the values the
op's backward needs, saved with the version of the tensor they came from.
Leaves that require grad are reached through an `AccumulateGrad` node.
"""
import contextvars
import itertools
import weakref

from .saving import SAVED_VALUE, SAVED_TENSOR, SAVED_PACKED, saved_entries

__all__ = ["Node", "AccumulateGrad", "RemovableHandle", "current_span", "source_span", "trace_inputs",
           "SavedValue", "op_name", "node_op", "node_inputs", "node_params", "node_args", "leaf_tensor",
           "saved_values", "tensor_grad", "retains_grad", "view_base", "accumulator_of"]

_sequence = itertools.count()
next_sequence = _sequence.__next__


def peek_sequence():
    """A sequence number lower than that of every node made from now on."""
    return next_sequence()
# AccumulateGrad nodes run as soon as they are ready, as in PyTorch.
_ACCUMULATE_PRIORITY = 1 << 62

# The span of source text being evaluated; the language sets it so that every
# node can say which sub-expression made it. None when driven from Python. The
# interpreter sets a SpanCursor once per run and moves it from operation to
# operation (an attribute's store, where setting the variable made a context each time).
current_span = contextvars.ContextVar("autodiff_current_span", default=None)


class SpanCursor:
    """A span the language moves as it runs: `span`, the operation's (what get_span gives)."""

    __slots__ = ("span",)

    def __init__(self, span=None):
        self.span = span


def get_span():
    """The span nodes made now carry (a cursor's current one), or None."""
    span = current_span.get()
    return span.span if span.__class__ is SpanCursor else span
# Whether anything set a span in this process (the language does, through use_spans): until then
# a new node need not read the context variable, which is a tenth of a small op's recording.
spans_used = [False]


def use_spans():
    """Say that spans will be set from now on (before the first current_span.set)."""
    spans_used[0] = True


class source_span:
    """Context manager: nodes made inside carry `span`."""

    __slots__ = ("span", "_token")

    def __init__(self, span):
        self.span = span

    def __enter__(self):
        spans_used[0] = True
        self._token = current_span.set(self.span)

    def __exit__(self, *exc):
        current_span.reset(self._token)
        return False


# While on, every node also keeps all its arguments (constants included) as
# `node.args`, so a graph can be read back as a formula. Off by default: it
# keeps constants alive.
tracing = [False]


class trace_inputs:
    """Context manager: nodes made inside remember all their arguments (`node.args`)."""

    def __enter__(self):
        self._previous = tracing[0]
        tracing[0] = True

    def __exit__(self, *exc):
        tracing[0] = self._previous
        return False


class RemovableHandle:
    """Returned by `register_hook`; `remove()` unregisters the hook."""

    __slots__ = ("_hooks", "id")
    _ids = itertools.count()

    def __init__(self, hooks):
        self._hooks = hooks
        self.id = next(RemovableHandle._ids)

    def remove(self):
        self._hooks.pop(self.id, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


class FreedGraphError(RuntimeError):
    pass


FREED_MESSAGE = (
    "Trying to backward through the graph a second time (or directly access saved tensors "
    "after they have already been freed). Saved intermediate values of the graph are freed "
    "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
    "backward through the graph a second time or if you need to access saved tensors after "
    "calling backward."
)


class _Released(tuple):
    """The type of RELEASED."""
    __slots__ = ()


# What a node's `saved` becomes once a backward freed it: empty and false like "nothing saved", yet
# told apart by identity. (A mark in the slot itself, not a `released` attribute: writing that would
# give every node an instance dict in every backward, 8% of a chain of small ops.)
RELEASED = _Released()


class Node:
    """One op application in the backward graph. Nodes are made by the one
    op-recording path, `tensor._record`, which fills in:

    op         the op-table row
    params     its non-tensor arguments (dim=, key=, ...)
    inputs     the nodes of the inputs (None where no gradient flows)
    shapes     the input shapes (None for numbers): gradients are summed back to them
    dtypes     the input dtypes: a gradient is cast to its input's dtype
    needs      whether each input wants a gradient
    saved      what the backward needs, with versions (None: nothing; RELEASED once freed)
    seq        creation order: backward runs the newest ready node first
    out_shape, out_dtype, device   of the result
    pre_hooks, retain   its hooks and the weak reference to a tensor that retains its grad (None: none)
    """

    # What every node has lives in slots -- the hooks and the retained tensor too, None unless set,
    # since every backward reads them (a class default read through an instance is a slow lookup);
    # what few nodes get (a source span, the mark that index data was freed) overrides these class
    # defaults.
    __slots__ = ("op", "params", "inputs", "shapes", "dtypes", "needs", "saved", "seq", "out_shape",
                 "out_dtype", "device", "pre_hooks", "retain", "__dict__", "__weakref__")
    released = False
    span = None
    output_nr = 0  # which output of a multi-output function (unbind, split) this node stands for
    copied = False  # a view row's result that could not share memory with its input (a copying reshape)

    def name(self):
        node = self.op.node
        return node if node.__class__ is str else node(self)

    @property
    def next_functions(self):
        inputs = self.inputs
        if self.op.holds_op_node and getattr(inputs[1], "op", None) is not None:
            # the base's edge, then the in-place op's node's edges after the first (see Op.holds_op_node)
            return ((None, 0) if inputs[0] is None else (named(inputs[0]), inputs[0].output_nr),) \
                + inputs[1].next_functions[1:]
        if self.shapes[0] is None and self.op.number_left:
            # `2 * b` is b.__rmul__(2) in PyTorch: the tensor's edge comes first (or alone: rsub)
            inputs = inputs[1:] + inputs[:1] if self.op.number_left == "swap" else inputs[1:]
        elif self.op.number_right and self.shapes[-1] is None:
            inputs = inputs[:-1]
        return tuple((None, 0) if n is None else (named(n), n.output_nr) for n in inputs)

    def __repr__(self):  # the class name, as Python writes an object: CopySlices, not its torch::autograd:: name()
        return f"<{self.name().replace('torch::autograd::', '')} object at {id(self):#x}>"

    @property
    def metadata(self):
        """A dict of the user's own, kept with the node (PyTorch's Node.metadata)."""
        table = self.__dict__.get("_metadata")
        if table is None:
            table = self.__dict__["_metadata"] = {}
        return table

    def register_prehook(self, fn):
        """fn(grad_outputs) before the node's backward, grad_outputs a tuple of the one gradient it
        receives; a tuple it returns replaces them (PyTorch's Node.register_prehook)."""
        def on_gradient(grad):
            result = fn((grad,))
            return None if result is None else result[0]
        return self.add_gradient_hook(on_gradient)

    def add_gradient_hook(self, fn):
        """fn(grad) -> grad or None before the node's backward: a non-leaf tensor's register_hook."""
        if self.pre_hooks is None:
            self.pre_hooks = HookTable()
        handle = RemovableHandle(self.pre_hooks)
        self.pre_hooks[handle.id] = fn
        return handle

    def register_hook(self, fn):
        """fn(grad_inputs, grad_outputs) after the node's backward: grad_inputs are the gradients it
        passes on (one per edge of next_functions, None where none flows), grad_outputs those it
        received; a tuple it returns replaces grad_inputs."""
        if self.pre_hooks is None:
            self.pre_hooks = HookTable()
        handle = RemovableHandle(self.pre_hooks.post)
        self.pre_hooks.post[handle.id] = fn
        return handle


    def release(self):
        """Free the saved values (called after a backward without retain_graph)."""
        if self.saved:
            self.saved = RELEASED


class HookTable(dict):
    """A node's pre-hooks (handle id -> fn) with its post-hooks beside them (`post`): kept in the one
    slot the backward loop reads for every node anyway, so a node without hooks costs nothing more."""

    __slots__ = ("post",)

    def __init__(self):
        super().__init__()
        self.post = {}

    def __bool__(self):
        return bool(len(self) or self.post)


def parameter_names(op):
    """The names PyTorch gives a row's arguments in its saved attributes: the signature's, its first
    tensor called `self` (as derivatives.yaml does); `self`, `other` for a row without one."""
    parsed = getattr(op, "parsed", None)
    names = [p.name for p in parsed.params] if parsed is not None else ["self", "other"]
    if names and names[0] == "input":
        names[0] = "self"
    return names


# node._saved_<name> is read by engine/core/autograd.py's saved_attribute, which knows tensors (this
# module is below it): it puts itself here when it loads
SAVED_READER = []


_node_classes = {}


def _saved_attribute(node, name):
    """PyTorch's view of what a node saved: `_saved_self`, `_saved_other`, `_saved_result`, and its
    saved parameters (`_saved_dim`, `_saved_keepdim`). The __getattr__ of the named node classes
    handed to users only: a class with a __getattr__ of Python's loses the interpreter's fast
    attribute loads, which the engine's own plain Nodes keep (13% of a chain of small ops)."""
    if name.startswith("_saved_"):
        return SAVED_READER[0](node, name[len("_saved_"):])
    if name.startswith("_raw_saved_"):  # a SavedTensor (engine/core/autograd.py)
        return SAVED_READER[1](node, name[len("_raw_saved_"):])
    raise AttributeError(f"'{type(node).__name__}' object has no attribute '{name}'")


def named(node):
    """`node`, now an instance of a Node subclass named after it, so that
    `type(y.grad_fn).__name__` reads as in PyTorch ('MulBackward0'). Done when a
    node is handed to the user (grad_fn, next_functions): inside the engine
    nodes stay plain `Node`s, whose attribute lookups the interpreter keeps fast."""
    if node.__class__ is Node:
        name = node.name().replace("torch::autograd::", "")
        cls = _node_classes.get(name)
        if cls is None:
            cls = _node_classes[name] = type(name, (Node,), {"__slots__": (), "__getattr__": _saved_attribute})
        node.__class__ = cls
    return node


class AccumulateGrad:
    """The node of a leaf that requires grad: backward adds into `variable.grad`."""

    __slots__ = ("variable", "seq", "__weakref__")
    next_functions = ()
    params = None
    inputs = ()
    pre_hooks = None
    retain = None
    released = False
    span = None
    op = None
    output_nr = 0

    def __init__(self, variable):
        self.variable = variable
        self.seq = _ACCUMULATE_PRIORITY + next_sequence()

    def name(self):
        return "torch::autograd::AccumulateGrad"  # PyTorch's name(), with its C++ namespace

    def __repr__(self):
        return f"<AccumulateGrad object at {id(self):#x}>"

    @property
    def metadata(self):
        return {}

    def release(self):
        pass


def accumulator_of(tensor):
    """The leaf's AccumulateGrad node, made on first use and shared while alive."""
    ref = tensor._accum
    node = ref() if ref is not None else None
    if node is None:
        node = AccumulateGrad(tensor)
        tensor._accum = weakref.ref(node)
    return node


# --------------------------------------------------------------- inspection
# What the CLI and the language read off a graph, without reaching into the
# engine's private attributes.

class SavedValue:
    """One value a node saved for its backward: `of` is "input N" or "output";
    for a tensor, its shape, the version it was saved at and its version now;
    for a number or other parameter, `value`."""

    __slots__ = ("of", "shape", "version", "current_version", "value")

    def __init__(self, of, shape=None, version=None, current_version=None, value=None):
        self.of = of
        self.shape = shape
        self.version = version
        self.current_version = current_version
        self.value = value


def op_name(node):
    """The op-table name of the op that made `node` ("mul", "getitem"); "accumulate_grad" for a leaf."""
    return "accumulate_grad" if node.op is None else node.op.name


def node_op(node):
    """The op-table row that made `node` (None for a leaf's AccumulateGrad)."""
    return node.op


def node_inputs(node):
    """The nodes the gradient goes on to, one per input (None where none flows)."""
    return node.inputs


def node_params(node):
    """The non-tensor arguments the op was called with (dim=, key=, ...)."""
    return getattr(node, "params", None) or {}


def node_args(node):
    """Every argument of the op (constants included), when the graph was made under trace_inputs."""
    return getattr(node, "args", None)


def leaf_tensor(node):
    """The leaf tensor of an AccumulateGrad node (None for other nodes)."""
    return node.variable if isinstance(node, AccumulateGrad) else None


def saved_values(node):
    """The values `node` keeps for its backward; None once a backward freed them."""
    saved = getattr(node, "saved", None)
    if saved is RELEASED or node.released:
        return None
    if saved is None:
        return []
    out = []
    for which, (kind, value, version, _producer) in zip(node.op.saves, saved_entries(saved)):
        of = "output" if which == "out" else f"input {which}"
        if kind == SAVED_VALUE:
            if value is not None:
                out.append(SavedValue(of, value=value))
        elif kind == SAVED_TENSOR:
            out.append(SavedValue(of, tuple(value.array.shape), version, value._vc[0]))
        elif kind == SAVED_PACKED:  # kept by a saved_tensors_hooks pack hook: what it returned
            out.append(SavedValue(of, value=value[0]))
        else:
            array, vc = value
            out.append(SavedValue(of, tuple(array.shape), version, vc[0]))
    return out


def tensor_grad(t):
    """`t.grad` without the warning PyTorch gives for a non-leaf that does not retain it."""
    return t._grad


def retains_grad(t):
    return t._retains


def view_base(t):
    """The tensor whose memory view `t` shares (None when `t` is not a view)."""
    return t._base
