"""The backward pass: `backward()` and `grad()`, as PyTorch's.

One engine serves both. It finds the nodes reachable from the roots with an
explicit stack, counts each node's incoming edges, then runs nodes in Kahn
order -- a node runs once every node that feeds it has run, so its gradient
is complete -- taking the newest node first among the ready ones (PyTorch's
order, so hooks fire in the same sequence). Nothing recurses, so graphs of
any depth work. Broadcast gradients are summed back to each input's shape
here, once, for every op.
"""
import contextlib
import contextvars
import heapq
import itertools
import os
import sys
from weakref import ref as _weak_ref
import warnings

from numpy import errstate as _errstate, geterr as _geterr

from numpy import generic as _np_generic, ndarray as _np_ndarray, broadcast_to as _broadcast_to
import numpy as _numpy

from .. import dtypes as _dt
from .grad_mode import grad_enabled_var, no_grad
from .graph import AccumulateGrad, accumulator_of, FREED_MESSAGE, RELEASED, SAVED_READER, parameter_names, named
from .mathspace import array_math, tensor_math
from .op import TABLE, is_basic_key
from ..backend import backend_for, CPU as _CPU
from ..host_data import host_array_of
from ..kernels import broadcast_to as _spread_number
from .saving import SAVED_VALUE, SAVED_TENSOR, SAVED_OUTPUT, SAVED_PACKED, saved_entries
from .tensor import (dual_run, dual_hooks, TensorBase, Size, apply, make_tensor, array_module, short_name,
                     SCALAR_META, refresh_view)

__all__ = ["backward", "grad", "InplaceModifiedError", "retains_graph"]

# Whether the backward pass now running keeps its graph (retain_graph): a custom Function's node
# frees what its ctx saved after its backward only when not (custom_function.py)
_retaining = contextvars.ContextVar("autodiff_retain_graph", default=False)
retains_graph = _retaining.get


class InplaceModifiedError(RuntimeError):
    """A value saved for backward was changed in place afterwards."""

    def __init__(self, message, node):
        super().__init__(message)
        self.node = node  # the node whose backward needed the value (it has .span)


def _as_tuple(x):
    if x is None:
        return ()
    if isinstance(x, TensorBase):
        return (x,)
    return tuple(x)


def _check_tensor(x, what):
    if not isinstance(x, TensorBase):
        raise TypeError(f"{what} must be tensors, got {type(x).__name__}")
    return x


def _root_grads(outputs, grad_outputs, create_graph, batched=False):
    """The gradient each output starts with: the given weights, or 1 for a scalar.
    `batched`: each given weight has a leading batch dim (grad's is_grads_batched)."""
    if grad_outputs is None or isinstance(grad_outputs, TensorBase) or not isinstance(grad_outputs, (list, tuple)):
        grad_outputs = [grad_outputs] * len(outputs) if len(outputs) == 1 or grad_outputs is None \
            else [grad_outputs]
    elif len(outputs) == 1 and len(grad_outputs) != 1 and not any(isinstance(g, TensorBase) for g in grad_outputs):
        # backward(gradient=[1., 2.]) on one output: the list is the weights themselves
        grad_outputs = [grad_outputs]
    if len(grad_outputs) != len(outputs):
        raise RuntimeError(f"got {len(outputs)} tensors and {len(grad_outputs)} gradients")
    grads = []
    for i, (out, g) in enumerate(zip(outputs, grad_outputs)):
        xp = array_module(out.device)
        if g is None and not out.requires_grad:
            if batched:  # PyTorch's vmap then meets a None where a batch of weights should be
                raise ValueError("vmap(vjp, in_dims=0, ...)(<inputs>): Got in_dim=0 for an input but the input is "
                                 "of type <class 'NoneType'>. We cannot vmap over non-Tensor arguments, please use "
                                 "None as the respective in_dim")
            grads.append(None)  # as PyTorch: no implicit gradient; the pass refuses the output itself
            continue
        if g is None:
            if batched and out.array.size == 1:
                # PyTorch makes ones shaped like the output, then maps over their first dim
                if out.array.ndim == 0:
                    raise ValueError("vmap(vjp, in_dims=0, ...)(<inputs>): Got in_dim=0 for some input, but that "
                                     "input is a Tensor of dimensionality 0 so expected in_dim to satisfy "
                                     "0 <= in_dim < 0.")
                raise RuntimeError(f"invalid gradient at index {i} - got [] but expected shape compatible "
                                   f"with {list(out.array.shape)}")
            if out.array.size != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            if out.array.dtype.kind != "f":
                raise RuntimeError("grad can be implicitly created only for real scalar outputs "
                                   f"but got {out.dtype}")
            arr = out.array
            # (numpy's array() of one number is a C call; its ones_like goes through Python)
            arr = _numpy.array(1, arr.dtype) if xp is _numpy and not arr.ndim else xp.ones_like(arr)
            grads.append(make_tensor(arr, out.device) if create_graph else arr)
            continue
        if not isinstance(g, TensorBase):  # numbers or lists: a tensor of the output's dtype and device
            g = make_tensor(backend_for(out.device).from_host(_numpy.array(host_array_of(g), dtype=out.array.dtype)),
                            out.device)
        if batched:
            _check_batched_grad(g, out, i)
        elif g.array.shape != out.array.shape:
            raise RuntimeError(f"Mismatch in shape: grad_output[{i}] has a shape of {g.shape} and "
                               f"output[{i}] has a shape of {out.shape}.")
        if g.device is not out.device:
            raise RuntimeError(f"grad_output[{i}] is on {g.device} but output[{i}] is on {out.device}")
        if g.array.dtype != out.array.dtype:
            g = g.to(dtype=out.dtype)
        grads.append(g if create_graph else g.array)
    if batched:
        sizes = [g.shape[0] for g in grads]
        if any(b != sizes[0] for b in sizes):
            raise ValueError(f"vmap: Expected all tensors to have the same size in the mapped dimension, got "
                             f"sizes {sizes} for the mapped dimension")
    return grads


def _check_batched_grad(g, out, i):
    """A batched grad_output is (B,) + the output's shape, as PyTorch checks it (PyTorch takes
    element 0 of the batch first, and then prints that element's shape less its first dim)."""
    shape = g.array.shape
    if not shape:
        raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` "
                         "in C++ to convert a 0-dim tensor to a number")
    if shape[0] == 0:
        raise IndexError("index 0 is out of bounds for dimension 0 with size 0")
    if shape[1:] != out.array.shape:
        raise RuntimeError("If `is_grads_batched=True`, we interpret the first dimension of each grad_output as "
                           "the batch dimension. The sizes of the remaining dimensions are expected to match the "
                           f"shape of corresponding output, but a mismatch was detected: grad_output[{i}] has a "
                           f"shape of {Size(shape[2:])} and output[{i}] has a shape of {out.shape}. If you only "
                           "want some tensors in `grad_output` to be considered batched, consider using vmap.")


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, grad_variables=None,
             inputs=None):
    """Accumulate d(tensors)/d(leaf) into each leaf's `.grad` (weighted by grad_tensors)."""
    if grad_variables is not None:
        grad_tensors = grad_variables
    outputs = tuple(_check_tensor(t, "backward's tensors") for t in _as_tuple(tensors))
    if inputs is not None:
        inputs = tuple(_check_tensor(t, "backward's inputs") for t in _as_tuple(inputs))
        if not inputs:
            raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
        for t in inputs:
            t.retain_grad()  # as PyTorch: a non-leaf input keeps (and accumulates) its grad
    if retain_graph is None:
        retain_graph = create_graph
    if create_graph:  # with inputs= too, as PyTorch
        warnings.warn(CREATE_GRAPH_CYCLE, UserWarning, stacklevel=_caller_level())
    grads = _root_grads(outputs, grad_tensors, create_graph)
    _run(outputs, grads, retain_graph, create_graph, inputs, accumulate=True)


# PyTorch's words for a backward that builds a graph into the leaves' .grad
CREATE_GRAPH_CYCLE = (
    "Using backward() with create_graph=True will create a reference cycle between the parameter and its gradient "
    "which can cause a memory leak. We recommend using autograd.grad when creating the graph to avoid this. If you "
    "have to use this function, make sure to reset the .grad fields of your parameters to None after use to break "
    "the cycle and avoid the leak.")


_ENGINE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _caller_level():
    """The stack level of the user's call of backward (through Tensor.backward or not)."""
    frame, level = sys._getframe(2), 2
    while frame is not None and frame.f_code.co_filename.startswith(_ENGINE_DIR):
        frame, level = frame.f_back, level + 1
    return level


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         allow_unused=None, is_grads_batched=False, materialize_grads=False):
    """The gradients of the (summed) outputs with respect to each input, as a tuple.

    Leaves' `.grad` is left alone. `is_grads_batched=True`: each grad_output has a leading
    batch dim B, and so has each result -- B vector-Jacobian products from one backward pass,
    whose gradients carry that batch dim through every node (PyTorch's vmap over the
    backward). Hooks then see one batch element at a time; retain_grad() tensors are not
    filled (PyTorch leaves a vmap-internal value there)."""
    outputs = tuple(_check_tensor(t, "grad's outputs") for t in _as_tuple(outputs))
    inputs = tuple(_check_tensor(t, "grad's inputs") for t in _as_tuple(inputs))
    if not outputs:
        raise RuntimeError("grad requires at least one output")
    if not inputs:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    if materialize_grads and allow_unused is False:
        raise ValueError("Expected allow_unused to be True or not passed when materialize_grads=True, "
                         "but got: allow_unused=False.")
    if allow_unused is None:
        allow_unused = materialize_grads
    if dual_run[0] and not create_graph and not is_grads_batched:  # forward AD: the gradients carry tangents
        return dual_hooks["grad"](grad, outputs, inputs, grad_outputs, retain_graph, allow_unused, materialize_grads)
    if retain_graph is None:
        retain_graph = create_graph
    grads = _root_grads(outputs, grad_outputs, create_graph, bool(is_grads_batched))
    results = _run(outputs, grads, retain_graph, create_graph, inputs, accumulate=False,
                   batch=grads[0].shape[0] if is_grads_batched else None)
    final = []
    for i, (t, r) in enumerate(zip(inputs, results)):
        if r is None:
            if not allow_unused:
                raise RuntimeError(f"The differentiated Tensor at index {i} appears to not have been used in "
                                   f"the graph. Set allow_unused=True if this is the desired behavior.")
            if materialize_grads:
                r = make_tensor(array_module(t.device).zeros_like(t.array), t.device, bool(create_graph))
        final.append(r)
    return tuple(final)


def _discover(roots, post_order):
    """Edge counts of every node reachable from `roots` and, if asked, a
    post-order (each node after every node its gradient goes on to). A root
    may feed another root."""
    deps = {}
    seen = set()
    order = []
    if not post_order:
        # a node is walked when it first gets an edge count; the roots start at 0, so that one fed by
        # another is not walked twice (_run starts the roots still at 0)
        stack = list(dict.fromkeys(roots))
        deps = dict.fromkeys(stack, 0)
        push = stack.append
        get = deps.get
        while stack:
            node = stack.pop()
            while node is not None:  # follow a chain of single new inputs without the stack
                inputs = node.inputs
                node = None
                for nxt in inputs:
                    if nxt is not None:
                        d = get(nxt)
                        if d is None:
                            deps[nxt] = 1
                            if node is None:
                                node = nxt
                            else:
                                push(nxt)
                        else:
                            deps[nxt] = d + 1
        return deps, order
    for root in roots:
        if root in seen:
            continue
        seen.add(root)
        stack = [(root, iter(root.inputs))]
        while stack:
            node, edges = stack[-1]
            for nxt in edges:
                if nxt is None:
                    continue
                deps[nxt] = deps.get(nxt, 0) + 1
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, iter(nxt.inputs)))
                    break
            else:
                stack.pop()
                order.append(node)
    return deps, order


def _needed(order, targets):
    """Nodes from which some target is reachable: the only ones worth running."""
    needed = set()
    for node in order:  # children come before parents
        if node in targets or any(n in needed for n in node.inputs if n is not None):
            needed.add(node)
    return needed


def _run(outputs, root_grads, retain_graph, create_graph, inputs, accumulate, batch=None):
    roots = []
    for i, t in enumerate(outputs):
        if t._base is not None:
            refresh_view(t)  # (a view re-derives its node from its base's graph)
        if not (t._rg or (t._base is not None and t._base._rg)):
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
        roots.append(t._fn if t._fn is not None else accumulator_of(t))

    targets = None
    if inputs is not None:
        targets = {}
        for i, t in enumerate(inputs):
            if not t.requires_grad:
                raise RuntimeError("One of the differentiated Tensors does not require grad")
            node = t.grad_fn if t.grad_fn is not None else accumulator_of(t)
            targets.setdefault(node, []).append(i)

    deps, order = _discover(roots, targets is not None)
    needed = _needed(order, targets) if targets is not None else None
    captured = [None] * len(inputs) if inputs is not None else None

    buffers = {}
    borrowed = {}  # the arrays others may hold too (_borrow): copied before being stored or written into
    for node, g in zip(roots, root_grads):
        if not create_graph and batch is None:
            g = _uniform_root(g)
        prev = buffers.get(node)
        buffers[node] = g if prev is None else prev + g
        _borrow(borrowed, g)
    heap = []
    for node in dict.fromkeys(roots):
        if not deps.get(node):  # fed by no other root
            heap.append((-node.seq, node))
    heapq.heapify(heap)

    token = grad_enabled_var.set(bool(create_graph))
    retaining = _retaining.set(bool(retain_graph))
    GRAPH_TASKS.append((next(_task_ids), roots, deps, needed))
    try:
        with quiet_numpy():  # inf and nan come out silently, as in PyTorch
            if batch is None:
                _execute(heap, buffers, deps, needed, targets, inputs, captured, borrowed,
                         retain_graph, create_graph, accumulate, _checked if ANOMALY[0] else None)
            else:
                _execute_batched(heap, buffers, deps, needed, targets, inputs, captured, borrowed,
                                 retain_graph, create_graph, batch)
    finally:
        GRAPH_TASKS.pop()
        grad_enabled_var.reset(token)
        _retaining.reset(retaining)
    return captured


def quiet_numpy():
    """numpy's errstate(all="ignore") -- or nothing where numpy already ignores every
    floating-point error (the command line sets that for its whole run). Entering errstate
    costs a few microseconds, much of a small backward: numpy 2 keeps its error state in a
    context variable, so the quiet state made from the current one is kept and swapped in."""
    if _numpy_error_state is None:
        return _errstate(all="ignore")
    state = _numpy_error_state.get()
    if state is _seen_quiet[0]:
        return ALREADY_QUIET
    if state is _quiet_of[0]:
        return _Quiet(_quiet_of[1])
    if all(v == "ignore" for v in _geterr().values()):
        _seen_quiet[0] = state
        return ALREADY_QUIET
    with _errstate(all="ignore"):
        _quiet_of[:] = [state, _numpy_error_state.get()]
    return _Quiet(_quiet_of[1])


class _Quiet:
    """errstate(all="ignore") as a swap of numpy's context variable to a quiet state made once."""
    __slots__ = ("state", "token")

    def __init__(self, state):
        self.state = state

    def __enter__(self):
        self.token = _numpy_error_state.set(self.state)

    def __exit__(self, *exc):
        _numpy_error_state.reset(self.token)


_UINT_OF_SIZE = {2: _numpy.uint16, 4: _numpy.uint32, 8: _numpy.uint64}
ALREADY_QUIET = contextlib.nullcontext()
_seen_quiet = [None]  # numpy's error-state object last seen to ignore everything
_quiet_of = [None, None]  # numpy's error-state object last seen not to, and its quiet twin
try:  # numpy 2 keeps its error state in a context variable: its object changes with the state
    from numpy._core._ufunc_config import _extobj_contextvar as _numpy_error_state
except ImportError:
    _numpy_error_state = None


def _execute(heap, buffers, deps, needed, targets, inputs, captured, borrowed,
             retain_graph, create_graph, accumulate, check=None):
    """The Kahn loop: pop the newest ready node, run its backward, pass gradients on (`check`:
    anomaly mode's look at each node's gradients)."""
    math_for = tensor_math if create_graph else array_math  # (each keeps one F per device)
    pop, push = heapq.heappop, heapq.heappush
    take = buffers.pop
    arrays = not create_graph  # the gradients are arrays, not Tensors
    last_device = F = None
    node = pop(heap)[1] if heap else None
    g = take(node, None)
    while node is not None:
        # a node this one made ready, and its gradient (complete: no buffer): it runs next,
        # without the heap, if it is the newest ready node
        ready = ready_g = None
        if node.__class__ is AccumulateGrad:
            if g is not None:
                _at_leaf(node, g, targets, inputs, captured, create_graph, borrowed, accumulate)
            node = pop(heap)[1] if heap else None
            g = take(node, None)
            continue
        nexts = node.inputs
        uniform = False
        hooked = None
        if g is None:
            grads = (None,) * len(nexts)
        else:
            if node.pre_hooks or node.retain is not None or targets is not None:
                hooked = node.pre_hooks
                g = _before_node(node, g, targets, inputs, captured, create_graph, borrowed)
                if targets is not None and node in targets and not any(c in needed for c in nexts if c is not None):
                    node = pop(heap)[1] if heap else None  # a target whose inputs want nothing: done with it
                    g = take(node, None)
                    continue
            if node.device is not last_device:
                last_device = node.device
                F = math_for(last_device)
            if arrays and g.__class__ not in SCALAR_META and node.op.elementwise and getattr(g, "ndim", 0) \
                    and g.size > 1 and not any(g.strides):
                g = g.reshape(-1)[0]  # the same value everywhere: work with that one number
                uniform = True
            # the gradients of the node's inputs by its row's backward, from what it saved (checked:
            # unchanged since), freed after unless the graph is retained
            op, params, saved = node.op, node.params, node.saved
            if params:
                keeps = op.saves_params  # (index data is always a parameter: a row without any keeps none)
                if keeps and (keeps is True or keeps(params)):
                    _use_saved_params(node, retain_graph)
            if saved is None:  # the row saves nothing (add, the commonest)
                grads = op.backward(F, node, g, **params) if params else op.backward(F, node, g)
            else:
                if saved.__class__ is tuple:  # numbers only, kept as they are
                    pass
                elif arrays and saved.__class__ is list:
                    # _unpack's arrays, the common cases inline; where it would raise, it does
                    values = []
                    for kind, v, version, producer in saved:
                        if kind == SAVED_VALUE:
                            values.append(v)
                        elif kind == SAVED_TENSOR and v._vc[0] == version and (
                                producer is None or v._fn is not None or v._rg):
                            values.append(v.array)
                        elif kind == SAVED_OUTPUT and v[1][0] == version:  # an output, unchanged
                            values.append(v[0])
                        else:
                            values = _unpack(node, False)
                            break
                    saved = values
                else:
                    saved = _unpack(node, create_graph)
                if params:
                    grads = op.backward(F, node, g, *saved, **params)
                elif (k := len(saved)) == 1:  # a fixed-argument call stays in the interpreter's fast path
                    grads = op.backward(F, node, g, saved[0])
                elif k == 2:
                    grads = op.backward(F, node, g, saved[0], saved[1])
                else:
                    grads = op.backward(F, node, g, *saved)
                if not retain_graph:
                    node.saved = RELEASED  # freed (Node.release, inline)
            if hooked is not None and hooked.post:
                grads = _after_node(node, F, g, grads, uniform, create_graph, borrowed)
                uniform = False
        if check is not None:
            grads = check(node, F, g, grads)
        for child, gi, shape, dtype in zip(nexts, grads, node.shapes, node.dtypes):
            if child is None or (needed is not None and child not in needed):
                continue
            if gi is not None:
                if gi is g and g.__class__ not in SCALAR_META:  # (a numpy scalar is never written into)
                    borrowed[id(g)] = _weak_ref(g) if g.__class__ is _np_ndarray else True  # (_borrow)
                # (a numpy scalar of its 0-d input's dtype, the commonest gradient of a small op, or an array
                # of its input's shape and dtype, is right as it is)
                if uniform or not arrays or (gi.__class__ is not dtype.type and (gi.shape != shape or
                                                                               gi.dtype is not dtype)):
                    gi = _fitted(F, gi, node, shape, dtype, uniform, create_graph)
            d = deps[child] - 1
            deps[child] = d
            if d == 0 and ready is None:
                ready = child
                prev = take(child, None) if buffers else None
                ready_g = prev if gi is None else gi if prev is None else _sum_gradients(prev, gi, create_graph,
                                                                                         borrowed)
                continue
            if gi is not None:
                prev = buffers.get(child)
                buffers[child] = gi if prev is None else _sum_gradients(prev, gi, create_graph, borrowed)
            if d == 0:
                push(heap, (-child.seq, child))
        # the newest ready node runs next (PyTorch's order): in a chain, the one just made ready
        if ready is not None and (not heap or heap[0][0] > -ready.seq):
            node, g = ready, ready_g
        else:
            if ready is not None:
                push(heap, (-ready.seq, ready))
                if ready_g is not None:
                    buffers[ready] = ready_g
            node = pop(heap)[1] if heap else None
            g = take(node, None)


# Anomaly detection (torch.autograd.anomaly_mode): [on, check_nan]. A backward started while it is on
# gives _execute `_checked`, which looks at every gradient a node returns for NaN (after its backward
# and post-hooks, where PyTorch's engine checks); otherwise the loop's one test per node is `check is None`.
ANOMALY = [False, True]


def _checked(node, F, g, grads):
    """`grads`, a node's gradients, after PyTorch's anomaly-mode check: an error where its backward
    returned NaN; outputs are counted over the node's tensor inputs (its next_functions)."""
    if g is None or not ANOMALY[1]:
        return grads
    k = 0
    for gi, shape, child in zip(grads, node.shapes, node.inputs):
        if shape is None:
            continue
        if gi is not None and child is not None:  # (a gradient nothing receives is not one PyTorch computes)
            a = gi.array if isinstance(gi, TensorBase) else gi
            if getattr(a, "dtype", None) is None or a.dtype.kind in "fc":
                if bool(F.xp.isnan(a).any()):
                    raise RuntimeError(f"Function '{node.name()}' returned nan values in its {k}th output.")
        k += 1
    return grads


# The backward passes running now, innermost last: (an id of its own, its root nodes, the nodes it
# reaches with their edge counts, the nodes worth running or None for all) -- what the multi-grad
# hooks of torch.autograd.graph ask (will this node run in this backward?)
GRAPH_TASKS = []
_task_ids = itertools.count()


def _at_leaf(node, g, targets, inputs, captured, create_graph, borrowed, accumulate):
    """A leaf's gradient: through its hooks, then kept (grad()'s inputs) or added to its .grad."""
    hooks = node.variable._hooks
    if hooks:
        g = _run_hooks(hooks, g, node.variable.device, create_graph, borrowed)
    if targets is not None:
        if node in targets:
            _capture(node, g, targets, inputs, captured, create_graph, borrowed, accumulate)
    elif accumulate:
        _accumulate(node.variable, g, create_graph, borrowed)


def _before_node(node, g, targets, inputs, captured, create_graph, borrowed):
    """A node's gradient through its pre-hooks, retained where a tensor asked, kept where it is one of
    grad()'s inputs (a non-leaf input of backward(inputs=) retains its grad: no second add here)."""
    if node.pre_hooks:
        g = _run_hooks(node.pre_hooks, g, node.device, create_graph, borrowed)
    if node.retain is not None:
        _retain(node, g, create_graph)
    if targets is not None and node in targets:
        _capture(node, g, targets, inputs, captured, create_graph, borrowed, False)
    return g


def _after_node(node, F, g, grads, uniform, create_graph, borrowed):
    """A node's gradients through its post-hooks (Node.register_hook): each hook sees the gradients
    the node passes on, fitted to its tensor inputs (None where no gradient flows on), and the one
    it received; a tuple it returns replaces them."""
    device = node.device
    positions = [i for i, shape in enumerate(node.shapes) if shape is not None]
    grads = list(grads)
    for i in positions:
        if grads[i] is not None and node.inputs[i] is not None:
            grads[i] = _fitted(F, grads[i], node, node.shapes[i], node.dtypes[i], uniform, create_graph)
    received = F.xp.broadcast_to(g, node.out_shape) if uniform else g
    grad_inputs = tuple(None if grads[i] is None or node.inputs[i] is None else _as_tensor(grads[i], device, create_graph)
                        for i in positions)
    grad_outputs = (_as_tensor(received, device, create_graph),)
    for hook in list(node.pre_hooks.post.values()):
        result = hook(grad_inputs, grad_outputs)
        if result is None:
            continue
        result = tuple(result) if isinstance(result, (tuple, list)) else (result,)
        if len(result) != len(grad_inputs):
            raise RuntimeError(f"hook '{getattr(hook, '__name__', 'hook')}' has returned an incorrect number of "
                               f"values (got {len(result)}, but expected {len(grad_inputs)})")
        grad_inputs = result
    for i, t in zip(positions, grad_inputs):
        if t is None:
            grads[i] = None
        else:
            grads[i] = t if create_graph else t.array
            _borrow(borrowed, grads[i])  # the hook's tensor: never written into
    return grads


def _fitted(F, gi, node, shape, dtype, uniform, create_graph):
    """A gradient made to fit its input: spread from one number where it is the same everywhere,
    summed back to the input's shape where it was broadcast, in the input's dtype (PyTorch's
    validate_outputs)."""
    if uniform:
        if gi.shape != shape or shape != node.out_shape:
            gi = _spread(F, gi, node.out_shape, shape)
    elif gi.shape != shape:
        gi = F.sum_to(gi, shape=shape)
    if create_graph:
        if gi.array.dtype is not dtype and gi.array.dtype != dtype:
            gi = F.to_dtype(gi, dtype=dtype)
    elif gi.dtype is not dtype and gi.dtype != dtype:
        gi = gi.astype(dtype)
    return gi


def _execute_batched(heap, buffers, deps, needed, targets, inputs, captured, borrowed,
                     retain_graph, create_graph, batch):
    """The Kahn loop of a batched backward (grad's is_grads_batched): every gradient is
    (batch,) + the shape it has in an ordinary backward. Each node runs once, for the whole
    batch: through its row's own backward where that broadcasts over the batch dim
    (`batched`), its batch rule (`batched_backward`), or else once per batch element."""
    math_for = tensor_math if create_graph else array_math
    maths = {}
    pop, push = heapq.heappop, heapq.heappush
    take = buffers.pop
    while heap:
        node = pop(heap)[1]
        g = take(node, None)
        if node.__class__ is AccumulateGrad:
            if g is not None:
                hooks = node.variable._hooks
                if hooks:
                    g = _run_hooks_batched(hooks, g, node.variable.device, create_graph, borrowed)
                if node in targets:
                    _capture(node, g, targets, inputs, captured, create_graph, borrowed, False)
            continue
        nexts = node.inputs
        if g is None:
            grads = (None,) * len(nexts)
        else:
            if node.pre_hooks:
                g = _run_hooks_batched(node.pre_hooks, g, node.device, create_graph, borrowed)
            if node in targets:
                _capture(node, g, targets, inputs, captured, create_graph, borrowed, False)
                if not any(c in needed for c in nexts if c is not None):
                    continue
            device = node.device
            F = maths.get(device)
            if F is None:
                F = maths[device] = math_for(device)
            op = node.op
            keeps = op.saves_params
            if keeps and (keeps is True or keeps(node.params)):
                _use_saved_params(node, retain_graph)
            saved = _unpack(node, create_graph) if op.saves else ()
            params = node.params
            if op.batched:
                grads = op.backward(F, node, g, *saved, **params)
            elif op.name == "getitem" and not create_graph and _add_into_buffer(node, g, params["key"],
                                                                                 buffers, borrowed, needed):
                grads = (None,)  # added where it belongs in the input's gradient: nothing more to pass on
            else:
                grads = NotImplemented
                rule = op.batched_backward
                if rule is not None:
                    grads = rule(F, node, g, *saved, **params)
                if grads is NotImplemented:
                    grads = _per_sample(F, op, node, g, saved, params)
            if op.saves and not retain_graph:
                node.saved = RELEASED
        for child, gi, shape, dtype in zip(nexts, grads, node.shapes, node.dtypes):
            if child is None or child not in needed:
                continue
            if gi is not None:
                if gi is g:
                    _borrow(borrowed, g)
                gshape = gi.shape
                if gshape[1:] != shape or gshape[0] != batch:
                    gi = _sum_to_batched(F, gi, shape, batch)
                if create_graph:
                    if gi.array.dtype is not dtype and gi.array.dtype != dtype:
                        gi = F.to_dtype(gi, dtype=dtype)
                elif gi.dtype is not dtype and gi.dtype != dtype:
                    gi = gi.astype(dtype)
                prev = buffers.get(child)
                buffers[child] = gi if prev is None else _sum_gradients(prev, gi, create_graph, borrowed)
            d = deps[child] - 1
            deps[child] = d
            if d == 0:
                push(heap, (-child.seq, child))


def _add_into_buffer(node, g, key, buffers, borrowed, needed):
    """A batched x[key]'s gradient added straight into x's gradient where the engine holds that
    already (and nobody else does): in place at [:, key], not zeros of x's shape with g at key
    and then a sum. False where that does not apply (the row's batch rule does the work)."""
    child = node.inputs[0]
    if child is None or child not in needed or not is_basic_key(key):
        return False
    prev = buffers.get(child)
    if prev is None or prev.dtype != g.dtype or prev.dtype != node.dtypes[0] or not _owned(prev, borrowed):
        return False
    prev[(slice(None),) + tuple(key)] += g  # the caller's loop still counts the edge (None there)
    return True


def _sum_to_batched(F, gi, shape, batch):
    """A batched gradient (batch,) + S, S broadcast from `shape`, summed to (batch,) + shape:
    the axes S has in front of `shape`'s come after the batch dim, so they are summed first."""
    lead = len(gi.shape) - 1 - len(shape)
    if lead > 0:
        gi = F.sum(gi, dim=tuple(range(1, 1 + lead)))
    target = (batch,) + tuple(shape)
    if tuple(gi.shape) != target:
        gi = F.sum_to(gi, shape=target)
    return gi


def _per_sample(F, op, node, g, saved, params):
    """A row's backward without a batch rule: once per batch element, the results stacked."""
    parts = None
    for b in range(g.shape[0]):
        grads = op.backward(F, node, g[b], *saved, **params)
        if parts is None:
            parts = [None if gi is None else [] for gi in grads]
        for k, gi in enumerate(grads):
            if parts[k] is not None:
                parts[k].append(gi)
    return tuple(None if p is None else F.stack(*p) for p in parts)


def _run_hooks_batched(hooks, g, device, create_graph, borrowed):
    """Tensor hooks in a batched backward: called with one batch element at a time (what they
    see under PyTorch's vmap), the results stacked again where a hook replaced one."""
    parts = []
    replaced = False
    for b in range(g.shape[0]):
        gb = g[b] if create_graph else g[b].copy()
        r = _run_hooks(hooks, gb, device, create_graph, borrowed)
        replaced = replaced or r is not gb
        parts.append(r)
    if not replaced:
        return g
    if create_graph:
        return apply(TABLE["stack"], *parts)
    return array_module(device).stack(parts)


def _spread(F, gi, out_shape, shape):
    """A gradient computed from a one-number `g`, as it would be from the full one:
    broadcast over the output, summed back to the input's shape -- without
    materialising anything when the gradient is itself one number."""
    xp = F.xp
    if gi.shape == shape == out_shape:
        return gi
    if gi.size == 1:
        n_out = n_in = 1
        for s in out_shape:
            n_out *= s
        for s in shape:
            n_in *= s
        value = gi.reshape(())
        if n_out != n_in:
            value = value * (n_out // n_in)
        return _spread_number(xp, value, shape)
    return F.sum_to(gi if gi.shape == out_shape else xp.broadcast_to(gi, out_shape), shape=shape)


def _use_saved_params(node, retain_graph):
    """Index data a backward needs is "saved" too: freed like saved tensors (a second
    backward through it is an error)."""
    if node.released:
        raise RuntimeError(FREED_MESSAGE)
    if not retain_graph:
        node.released = True


def _sum_gradients(prev, gi, create_graph, borrowed):
    """prev + gi, added in place into whichever of the two only this backward pass
    holds (no new array); a new array where neither is."""
    if create_graph or prev.shape != gi.shape or prev.dtype != gi.dtype:
        return prev + gi
    if _owned(prev, borrowed):
        prev += gi
        return prev
    if _owned(gi, borrowed):  # prev is borrowed or a broadcast (a sum's gradient): keep gi's memory
        gi += prev
        return gi
    return prev + gi


UNIFORM_CHECK = 1 << 15  # elements from which a root gradient is looked at for being one number repeated


def _uniform_root(g):
    """A large root gradient whose elements all have the same bits (weights of
    ones_like(y)) as a broadcast of that number: the backward then takes the
    one-number path a sum's gradient takes -- the same values, without passes over
    arrays of ones. Anything else as it is (most fail on the first few elements)."""
    if g.__class__ is not _np_ndarray or g.size < UNIFORM_CHECK or not g.flags.c_contiguous \
            or g.dtype.kind != "f" or not any(g.strides):
        return g
    bits = g.reshape(-1).view(_UINT_OF_SIZE[g.dtype.itemsize])
    first = bits[0]
    if not (bits[:1024] == first).all() or not (bits == first).all():
        return g
    return _broadcast_to(g.reshape(-1)[0], g.shape)


def _writeable(a):
    """Whether array `a` may be written in place. CuPy arrays have no read-only flag:
    a view with a zero stride there (a broadcast) stands for one number and is not."""
    writeable = getattr(a.flags, "writeable", None)
    return writeable if writeable is not None else (a.size <= 1 or all(a.strides))


def _borrow(borrowed, a):
    """Mark `a` as held by others too (a backward pass copies it before storing or writing into it).

    `borrowed` maps id -> a weak reference to the array (True where there can be none: a Tensor of
    create_graph, a CuPy array), so that the mark lasts only while the array lives: CPython gives a
    new array the id of a dead one, and a set of ids took such a fresh gradient for borrowed and
    copied it (a Linear's weight gradient, every training step). Weakly: a borrowed gradient is
    freed as soon as its consumers are done with it. (The hot site writes this inline.)"""
    borrowed[id(a)] = _weak_ref(a) if a.__class__ is _np_ndarray else True


def _is_borrowed(borrowed, a):
    ref = borrowed.get(id(a))
    return ref is not None and (ref is True or ref() is a)


def _owned(a, borrowed):
    """Whether array `a` was made by this backward pass and is held by nobody else."""
    return (not isinstance(a, _np_generic)
            and a.base is None and not _is_borrowed(borrowed, a) and _writeable(a))


def _capture(node, g, targets, inputs, captured, create_graph, borrowed, accumulate):
    """Keep the gradient of a tensor asked for by grad() or backward(inputs=)."""
    for i in targets[node]:
        captured[i] = _captured(inputs[i], g, create_graph, borrowed)
    if accumulate:
        _accumulate(inputs[targets[node][0]], g, create_graph, borrowed)


def _unpack(node, graph):
    """The saved values for a node's backward: arrays, or Tensors under create_graph."""
    saved = node.saved
    if saved is RELEASED:  # freed by an earlier backward
        raise RuntimeError(FREED_MESSAGE)
    values = []
    for kind, v, version, producer in saved_entries(saved):
        if kind == SAVED_VALUE:
            values.append(v)
        elif kind == SAVED_TENSOR:
            if v._vc[0] != version:
                raise modified_error(node, v.array, v.grad_fn, v._vc[0], version)
            if producer is not None and v._fn is None and not v._rg:
                raise RuntimeError(DETACHED_MESSAGE)
            values.append(v if graph else v.array)
        elif kind == SAVED_PACKED:
            t = _unpacked_by_hook(v)
            values.append(t if graph else t.array)
        else:
            arr, vc = v
            if vc[0] != version:
                raise modified_error(node, arr, node, vc[0], version)
            t = make_tensor(arr, node.device, True, node, vc) if graph else arr
            if graph and dual_run[0]:
                dual_hooks["saved_output"](node, t)  # forward AD: the output's tangent
            values.append(t)
    return values


def _unpacked_by_hook(entry):
    """The tensor a saved_tensors_hooks unpack hook gives back for what its pack hook kept."""
    kept, unpack = entry
    t = unpack(kept)
    if not isinstance(t, TensorBase):
        raise TypeError(f"Output of saved tensor unpack_hook expected to be a Tensor but got result of type "
                        f"{type(t).__name__}")
    return t


DETACHED_MESSAGE = ("Trying to use a saved tensor that has been detached in-place, i.e. with .detach_().This "
                    "is not supported, please use out-of-place `.detach()` instead")
def modified_error(node, array, grad_fn, now, expected):
    """PyTorch's message for a saved value changed in place; `grad_fn` is the
    node the value is now the output of (none for a leaf)."""
    kind = _dt.as_dtype(array.dtype).tensor_type
    where = f", which is output {grad_fn.output_nr} of {short_name(grad_fn)}," if grad_fn is not None else ""
    message = (f"one of the variables needed for gradient computation has been modified by an inplace "
               f"operation: [torch.{kind} {list(array.shape)}]{where} is at version {now}; expected "
               f"version {expected} instead. Hint: enable anomaly detection to find the operation that "
               f"failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).")
    return InplaceModifiedError(message, node)


def _as_tensor(g, device, create_graph):
    if create_graph:
        return g
    return make_tensor(g, device)


def _run_hooks(hooks, g, device, create_graph, borrowed):
    """Call tensor hooks in registration order; a returned tensor replaces the gradient."""
    if not create_graph and getattr(g, "ndim", 0) and not _writeable(g):
        g = g.copy()  # a hook gets a real array it may change, not a broadcast view
    for hook in list(hooks.values()):
        result = hook(_as_tensor(g, device, create_graph))
        if result is not None:
            if not isinstance(result, TensorBase):
                raise TypeError(f"a hook must return a tensor or None, not {type(result).__name__}")
            if tuple(result.array.shape) != tuple(g.shape):
                raise RuntimeError(f"hook returned a gradient of shape {list(result.array.shape)} "
                                   f"where {list(g.shape)} was expected")
            g = result if create_graph else result.array
            _borrow(borrowed, g)
    return g


def _owned_array(tensor, g, borrowed):
    """`g` as an array of the tensor's dtype that nobody else holds (borrowed None: a copy in any case)."""
    if g.dtype != tensor.array.dtype:
        return g.astype(tensor.array.dtype)
    if isinstance(g, _np_generic):  # immutable: nothing to copy
        return g
    if borrowed is None or _is_borrowed(borrowed, g) or g.base is not None or not _writeable(g):
        return g.copy()
    return g


def _graph_grad(tensor, g):
    """A create_graph gradient in the tensor's dtype."""
    if g.array.dtype != tensor.array.dtype:
        g = g.to(dtype=tensor.dtype)
    return g


def _accumulate(tensor, g, create_graph, borrowed):
    """Add `g` into `tensor.grad`, in place unless the graph of the sum is wanted."""
    current = tensor._grad
    if create_graph:
        g = _graph_grad(tensor, g)
        # the first grad is a copy of the incoming one (PyTorch's CopyBackwards), later ones add
        tensor._grad = apply(TABLE["copy"], make_tensor(array_module(g.device).zeros_like(g.array), g.device), g) \
            if current is None else current + g
        return
    if current is None:
        g = _owned_array(tensor, g, borrowed)
        if g.strides != tensor.array.strides and g.ndim > 1 and GRAD_LAYOUT[0]:
            g = _laid_out(tensor, g)
        tensor._grad = make_tensor(g, tensor.device)
    elif current._rg:
        with no_grad():
            tensor._grad = current + make_tensor(array_module(tensor.device).asarray(g), tensor.device)
    else:
        current.array += g  # in place (a numpy scalar is rebound: nobody else holds it)
        current._vc[0] += 1


# torch.autograd.grad_mode.enforce_grad_layout_policy: whether a leaf's first .grad is laid out as the
# leaf is (its strides, where the leaf is dense and non-overlapping) or else row-major -- PyTorch's
# gradient layout contract -- rather than kept as the backward made it.
GRAD_LAYOUT = [True]


def _laid_out(tensor, g):
    """`g` (an array the leaf's .grad may own) in the layout of PyTorch's gradient layout contract."""
    a = tensor.array
    xp = array_module(tensor.device)
    dims = sorted(range(a.ndim), key=lambda d: a.strides[d])
    dense, step = True, a.itemsize
    for d in dims:
        if a.shape[d] > 1 and a.strides[d] != step:
            dense = False
        step *= a.shape[d]
    if not dense:
        return xp.ascontiguousarray(g)
    out = xp.empty_like(a)  # (order "K": the leaf's own order of dims)
    out[...] = g
    return out


def _retain(node, g, create_graph):
    """A retained non-leaf gets (and accumulates) the gradient flowing into it."""
    t = node.retain()
    if t is None:
        return
    if create_graph:
        g = _graph_grad(t, g)
        t._grad = g if t._grad is None else t._grad + g
    elif t._grad is None:
        t._grad = make_tensor(_owned_array(t, g, None), t.device)  # (None: a copy, the pass may still write g)
    else:
        t._grad = make_tensor(t._grad.array + g, t.device)


def _captured(tensor, g, create_graph, borrowed):
    if create_graph:
        return _graph_grad(tensor, g)
    return make_tensor(_owned_array(tensor, g, borrowed), tensor.device)


def saved_attribute(node, key):
    """node._saved_<key>: the tensor or number the node keeps for its backward (None where this call
    keeps none), or the parameter of that name; the graph's freed-values error once a backward freed
    them."""
    op = node.op
    names = parameter_names(op)
    if key == "result" and "out" in op.saves:
        position = op.saves.index("out")
    elif key in names and names.index(key) in op.saves:
        position = op.saves.index(names.index(key))
    elif node.params and key in node.params:
        value = node.params[key]
        parsed = getattr(op, "parsed", None)
        listed = parsed is not None and any(p.name == key and "[" in p.type for p in parsed.params)
        return (value,) if listed and isinstance(value, int) else value  # an int[] argument: a tuple
    elif key in names:
        return None  # an argument this row's backward does not need
    else:
        raise AttributeError(f"'{type(node).__name__}' object has no attribute '_saved_{key}'")
    saved = node.saved
    if saved is RELEASED or node.released:
        raise RuntimeError(FREED_MESSAGE)
    if saved is None:
        return None
    kind, value, _version, _producer = saved_entries(saved)[position]
    if kind == SAVED_TENSOR:
        return value
    if kind == SAVED_PACKED:
        return _unpacked_by_hook(value)
    if kind == SAVED_VALUE:
        if value is None or isinstance(value, TensorBase):
            return value
        if isinstance(value, (int, float, bool)) or getattr(value, "ndim", None) is not None:
            return make_tensor(_numpy.asarray(value), _CPU)  # a number: a 0-d tensor, as PyTorch wraps it
        return value
    # the output, as it was saved: its node is this one and its version counter the output's (PyTorch's)
    return make_tensor(value[0], node.device, True, named(node), value[1])


SAVED_READER.append(saved_attribute)


class SavedTensor:
    """What `grad_fn._raw_saved_<name>` gives (torch._C._autograd.SavedTensor): a tensor a node
    keeps for its backward, on which register_hooks(pack_hook, unpack_hook) works as a
    saved_tensors_hooks pair for this one tensor -- pack_hook(tensor) runs at once and what it returns
    is kept instead; the backward and _saved_<name> get unpack_hook(kept)."""

    __slots__ = ("_node", "_position")

    def __init__(self, node, position):
        self._node = node
        self._position = position

    def register_hooks(self, pack_hook, unpack_hook):
        if not callable(pack_hook) or not callable(unpack_hook):
            raise TypeError("register_hooks(): incompatible function arguments: pack_hook and unpack_hook "
                            "must be callables")
        node = self._node
        if node.saved is RELEASED or node.released:
            raise RuntimeError("Calling register_hooks on a saved tensor after it has been freed. "
                               + FREED_MESSAGE[FREED_MESSAGE.index("Saved intermediate"):]
                               .replace("saved tensors after", "saved variables after"))
        kind, value, _version, _producer = node.saved[self._position]
        if kind == SAVED_PACKED:
            raise RuntimeError("Calling register_hooks on a saved tensor whose hooks have already been set. "
                               "Hint: only one pair of hooks is allowed at a time.")
        tensor = value if kind == SAVED_TENSOR else make_tensor(value[0], node.device, True, named(node), value[1])
        node.saved[self._position] = (SAVED_PACKED, (pack_hook(tensor), unpack_hook), 0, None)


def raw_saved_attribute(node, key):
    """node._raw_saved_<key>: a SavedTensor where the node keeps a tensor of that name, None where it
    keeps nothing for it (a number or an argument its backward does not need)."""
    value = saved_attribute(node, key)  # (the same errors: an unknown name, a freed graph)
    if not isinstance(value, TensorBase) or not isinstance(node.saved, list):
        return None
    saves = node.op.saves
    position = saves.index("out") if key == "result" and "out" in saves else \
        saves.index(parameter_names(node.op).index(key))
    return SavedTensor(node, position) if node.saved[position][0] != SAVED_VALUE else None


SAVED_READER.append(raw_saved_attribute)
