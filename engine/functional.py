"""Whole derivative matrices from the engine: `jacobian` and `hessian`.

Both work on a graph already built (`jacobian(y, x)`) or, as
torch.autograd.functional, on a function and its inputs (`jacobian(f, x)`).

By default (`vectorize=None`, or True) the rows come from one batched backward
pass -- `grad(..., is_grads_batched=True)` with the standard basis of the
outputs as the batch of weights, as torch.autograd.functional does with
`vectorize=True` -- in chunks of rows small enough that a batch of gradients
holds at most `BATCH_ELEMENTS` numbers per node (and, on the CPU without
create_graph, about `CACHE_ELEMENTS`: a batch that stays in cache is faster; on a
GPU, fewer and larger passes are). `vectorize=False` takes one
backward pass per row (PyTorch's default); the results are the same up to
rounding. The Hessian is the Jacobian of the gradient made with
create_graph=True, so one batched pass over that gradient's graph gives all
of it, every block of a tuple of inputs at once.
"""
from .core.autograd import grad
from .functions import cat, reshape, stack
from .core.grad_mode import enable_grad
from .core.graph import AccumulateGrad
from .core.tensor import make_tensor, array_module
from .tensor_class import Tensor
from .functional_forward import level_open, jacobian_forward, hessian_forward

__all__ = ["jacobian", "hessian"]

# The most numbers a batch of gradients may hold at one node: more rows than that are done in
# chunks, one batched backward each (at 8 bytes a number, 32 MiB per gradient).
BATCH_ELEMENTS = 1 << 22
# Without create_graph, chunks are cut smaller still, to about this many numbers a gradient
# (512 KiB of float64) but at least CHUNK_ROWS rows: a batch that stays in the processor's cache
# runs faster than one streamed through memory, and more passes cost little once each is that
# large (a 1000-variable Hessian: 16 passes of 65 rows beat one of 1000).
CACHE_ELEMENTS = 1 << 16
CHUNK_ROWS = 16

_STRATEGIES = ("forward-mode", "reverse-mode")


# ------------------------------------------------------------------ arguments

def _inputs_tuple(x, fn_name, lists):
    """(tensors, whether x was a tensor): a tensor or a tuple of tensors -- or a list, where
    `lists` (the graph form, ours: as grad() takes them; PyTorch's function form refuses one)."""
    return _tensors_tuple(tuple(x) if lists and isinstance(x, list) else x, fn_name, "inputs")


def _outputs_tuple(out, fn_name):
    """The outputs of the user's function, as torch.autograd.functional checks them."""
    return _tensors_tuple(out, fn_name, "outputs of the user-provided function")


def _tensors_tuple(x, fn_name, what):
    """PyTorch's _as_tuple: a tensor, or a tuple of tensors, with its messages."""
    if isinstance(x, Tensor):
        return (x,), True
    if not isinstance(x, tuple):
        raise TypeError(f"The {what} given to {fn_name} must be either a Tensor or a tuple of Tensors but the "
                        f"given {what} has type {type(x)}.")
    for i, t in enumerate(x):
        if not isinstance(t, Tensor):
            raise TypeError(f"The {what} given to {fn_name} must be either a Tensor or a tuple of Tensors but "
                            f"the value at index {i} has type {type(t)}.")
    return tuple(x), False


def _is_function(f):
    return callable(f) and not isinstance(f, Tensor)


def _leaves(inputs, create_graph):
    """What the user's function is called on (PyTorch's _grad_preprocess): under create_graph a
    view of each input that requires grad, so the result stays differentiable with respect to
    it; otherwise a fresh leaf over the same values."""
    out = []
    for t in inputs:
        if create_graph and t.requires_grad:
            out.append(t.view_as(t))
        else:
            out.append(make_tensor(t.array, t.device).requires_grad_(True))
    return tuple(out)


def _call(func, inputs, create_graph):
    leaves = _leaves(inputs, create_graph)
    with enable_grad():
        out = func(*leaves)
    return out, leaves


def _check_strategy(strategy, create_graph, strict, vectorize, hint=True):
    if strategy not in _STRATEGIES:
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".' +
                             (' Hint: If your function has more outputs than inputs, "forward-mode" tends to be '
                              'more performant. Otherwise, prefer to use "reverse-mode".' if hint else ""))
    if strategy == "forward-mode":
        if create_graph:
            raise NotImplementedError("torch.autograd.functional.jacobian: `create_graph=True` and "
                                      '`strategy="forward-mode"` are not supported together (yet). Please either '
                                      'set `create_graph=False` or `strategy="reverse-mode"`.')
        if strict:
            raise RuntimeError("torch.autograd.functional.jacobian: `strict=True` and "
                               '`strategy="forward-mode"` are not supported together (yet). Please either set '
                               '`strict=False` or `strategy="reverse-mode"`.')
        if vectorize is not True:
            raise NotImplementedError("Computing Jacobian using forward-AD or forward-over-reverse Hessian is"
                                      "only implemented for `vectorize=True`.")


def _check_outputs_require_grad(outputs, strict):
    if strict:
        for i, out in enumerate(outputs):
            if not out.requires_grad:
                raise RuntimeError(f"Output {i} of the user-provided function does not require gradients. The "
                                   "outputs must be computed in a differentiable manner from the input when "
                                   "running in strict mode.")


def _vectorized(vectorize, strict):
    """Whether to take the batched path: always unless asked not to (PyTorch's default is not
    to), or where strict=True asks for checks that only the row-by-row path makes."""
    if vectorize is None:
        return not strict
    if vectorize and strict:
        raise RuntimeError("torch.autograd.functional.jacobian: `strict=True` and `vectorized=True` are not "
                           "supported together. Please either set `strict=False` or `vectorize=False`.")
    return bool(vectorize)


# ------------------------------------------------------------------ blocks

def _zeros(shape, like):
    return make_tensor(array_module(like.device).zeros(shape, dtype=like.array.dtype), like.device)


def _shape(t):
    return tuple(t.array.shape)


def _largest_node(outputs):
    """The most elements any node reachable from `outputs` produces (no recursion)."""
    largest = 1
    stack = [o.grad_fn for o in outputs if o.grad_fn is not None]
    seen = set(stack)
    while stack:
        node = stack.pop()
        shape = node.out_shape
        if shape:
            n = 1
            for s in shape:
                n *= s
            if n > largest:
                largest = n
        for nxt in node.inputs:
            if nxt is not None and nxt not in seen and nxt.__class__ is not AccumulateGrad:
                seen.add(nxt)
                stack.append(nxt)
    return largest


def _jacobian_batched(outputs, xs, create_graph, retain_graph):
    """J[i][j] (shape out_i.shape + x_j.shape) for every output i and input j, from batched
    backward passes over the standard basis of all the outputs' elements together."""
    blocks = [[None] * len(xs) for _ in outputs]
    live = []
    for i, out in enumerate(outputs):
        if out.requires_grad and out.array.size:
            live.append(i)
        else:
            for j, x in enumerate(xs):
                blocks[i][j] = _zeros(_shape(out) + _shape(x), x)
    if not live:
        return blocks
    sizes = [outputs[i].array.size for i in live]
    total = sum(sizes)
    per_row = max([_largest_node([outputs[i] for i in live])] + sizes + [x.array.size for x in xs])
    chunk = BATCH_ELEMENTS // per_row
    if not create_graph and all(x.device.type == "cpu" for x in xs):  # a GPU has no such cache to fit
        chunk = min(chunk, max(CACHE_ELEMENTS // per_row, CHUNK_ROWS))
    chunk = max(1, min(total, chunk))
    pieces = [[] for _ in xs]
    for start in range(0, total, chunk):
        stop = min(total, start + chunk)
        rows = stop - start
        outs, weights = [], []
        offset = 0
        for i, n in zip(live, sizes):
            lo, hi = offset, offset + n
            offset = hi
            a, b = max(lo, start), min(hi, stop)
            if a >= b:
                continue
            out = outputs[i]
            # rows start..stop of the identity over all outputs' elements, this output's columns
            basis = array_module(out.device).eye(rows, n, k=start - lo, dtype=out.array.dtype)
            outs.append(out)
            weights.append(make_tensor(basis.reshape((rows,) + _shape(out)), out.device))
        last = stop == total
        grads = grad(outs, xs, weights, retain_graph=retain_graph or create_graph or not last,
                      create_graph=create_graph, allow_unused=True, is_grads_batched=True)
        for j, (x, g) in enumerate(zip(xs, grads)):
            pieces[j].append(g if g is not None else _zeros((rows,) + _shape(x), x))
    for j, x in enumerate(xs):
        parts = pieces[j]
        if len(parts) == 1:
            whole = parts[0]
        elif create_graph:
            whole = cat(parts)
        else:
            whole = make_tensor(array_module(x.device).concatenate([p.array for p in parts]), x.device)
        offset = 0
        for i, n in zip(live, sizes):
            rows = whole if n == total else whole[offset:offset + n]
            offset += n
            shape = _shape(outputs[i]) + _shape(x)
            blocks[i][j] = reshape(rows, shape) if create_graph else make_tensor(rows.array.reshape(shape), x.device)
    return blocks


def _jacobian_rows(y, xs, create_graph, strict=False, index=0):
    """J[j] for each x_j: shape y.shape + x_j.shape, one backward per element of y."""
    xp = array_module(y.device)
    n = y.array.size
    rows = [[] for _ in xs]
    if not y.requires_grad:
        return [_zeros(_shape(y) + _shape(x), x) for x in xs]
    for i in range(n):
        onehot = xp.zeros(n, dtype=y.array.dtype)
        onehot[i] = 1
        weights = make_tensor(onehot.reshape(y.array.shape), y.device)
        grads = grad(y, xs, grad_outputs=weights, retain_graph=True, create_graph=create_graph,
                     allow_unused=True)
        for k, (x, g) in enumerate(zip(xs, grads)):
            if g is None:
                if strict:
                    raise RuntimeError(f"Output {index} of the user-provided function is independent of input "
                                       f"{k}. This is not allowed in strict mode.")
                g = _zeros(x.array.shape, x)
            elif strict and create_graph and not g.requires_grad:
                raise RuntimeError(f"The jacobian of the user-provided function is independent of input {index}. "
                                   "This is not allowed in strict mode when create_graph=True.")
            rows[k].append(g)
    return [reshape(stack(r), _shape(y) + _shape(x)) for r, x in zip(rows, xs)]


def _blocks(outputs, xs, create_graph, strict, vectorize, retain_graph):
    if vectorize:
        return _jacobian_batched(outputs, xs, create_graph, retain_graph)
    return [_jacobian_rows(out, xs, create_graph, strict, i) for i, out in enumerate(outputs)]


def _unpack(blocks, single_out, single_in):
    rows = [r[0] if single_in else tuple(r) for r in blocks]
    return rows[0] if single_out else tuple(rows)


# ------------------------------------------------------------------ public

def jacobian(func, inputs, create_graph=False, strict=False, vectorize=None, strategy="reverse-mode"):
    """d y / d x with shape y.shape + x.shape, as torch.autograd.functional.jacobian: a tuple
    over the inputs when `inputs` is a tuple, over the outputs when the outputs are.

    `func` is a function of the inputs, or an output (or tuple of outputs) already computed
    from them -- then the graph is kept. `vectorize` (default: yes) takes every row from one
    batched backward; False, one backward per row. `strict`: an output that does not depend on
    an input is an error, not zeros (the row-by-row path). strategy="forward-mode" (with
    vectorize=True, as PyTorch asks) computes it column by column in forward mode
    (functional_forward.py) for a function; for outputs already computed, or inside an open dual
    level, in reverse mode."""
    _check_strategy(strategy, create_graph, strict, vectorize)
    xs, single_in = _inputs_tuple(inputs, "jacobian", lists=not _is_function(func))
    if strategy == "forward-mode" and _is_function(func) and not level_open():  # column by column
        out, blocks = jacobian_forward(func, xs)
        return _unpack(blocks, _outputs_tuple(out, "jacobian")[1], single_in)
    if _is_function(func):
        out, xs = _call(func, xs, create_graph)
        outputs, single_out = _outputs_tuple(out, "jacobian")
        retain = False  # the graph is our own
    else:
        outputs = (func,) if isinstance(func, Tensor) else tuple(func) if isinstance(func, (tuple, list)) else ()
        if not outputs or not all(isinstance(o, Tensor) for o in outputs):
            raise TypeError("jacobian(y, x) needs the output tensor y (or a function) first")
        single_out = isinstance(func, Tensor)
        retain = True  # the caller's graph stays usable
    _check_outputs_require_grad(outputs, strict)
    vectorize = _vectorized(vectorize, strict)
    blocks = _blocks(outputs, xs, create_graph, strict, vectorize, retain)
    return _unpack(blocks, single_out, single_in)


def check_first_gradients(first):
    """strict=True's checks of a scalar's gradients before a second derivative (hessian, vhp, hvp):
    each depends on the inputs (PyTorch's messages)."""
    for i, g in enumerate(first):
        if g is None:
            raise RuntimeError(f"The output of the user-provided function is independent of input {i}. This is "
                               "not allowed in strict mode.")
        if not g.requires_grad:
            raise RuntimeError("While computing the hessian, found that the jacobian of the user-provided "
                               f"function with respect to input {i} is independent of the input. This is not "
                               "allowed in strict mode. You should ensure that your function is twice "
                               "differentiable and that the jacobian depends on the inputs (this would be "
                               "violated by a linear function for example).")


def _hessian_output(y):
    """The user's function's output, checked as PyTorch's hessian checks it."""
    if not isinstance(y, Tensor):
        _outputs_tuple(y, "hessian")  # a TypeError for what is not a tensor or a tuple of them
        raise RuntimeError("The function given to hessian should return a single Tensor")
    if y.array.size != 1:
        raise RuntimeError("The Tensor returned by the function given to hessian should contain a single element")
    return y


def hessian(func, inputs, create_graph=False, strict=False, vectorize=None, outer_jacobian_strategy="reverse-mode"):
    """Second derivatives of a scalar: H[i][j] has shape x_i.shape + x_j.shape (a single
    tensor when `inputs` is one tensor), as torch.autograd.functional.hessian.

    `func` is a function of the inputs or a scalar output already computed from them. The
    Hessian is the Jacobian of the gradient (made with create_graph=True): by default from
    one batched backward over that gradient's graph (see `jacobian` for `vectorize`,
    `strict`; `create_graph=True` makes the result differentiable)."""
    _check_strategy(outer_jacobian_strategy, create_graph, strict, vectorize, hint=False)
    xs, single = _inputs_tuple(inputs, "hessian", lists=not _is_function(func))
    if outer_jacobian_strategy == "forward-mode" and _is_function(func) and not level_open():
        blocks = hessian_forward(func, xs, _hessian_output)  # forward-over-reverse, column by column
        return blocks[0][0] if single else tuple(tuple(row) for row in blocks)
    if _is_function(func):
        y, xs = _call(func, xs, create_graph)
        _check_outputs_require_grad((_hessian_output(y),), strict)
        retain = False
    else:
        y = func
        if not isinstance(y, Tensor):
            raise TypeError("hessian(y, x) needs the output tensor y (or a function) first")
        if y.array.size != 1:
            raise RuntimeError(f"hessian needs a scalar output, got shape {list(y.shape)}")
        retain = True
    if y.requires_grad:
        first = grad(y, xs, create_graph=True, allow_unused=True, retain_graph=True)
    else:
        first = (None,) * len(xs)
    if strict:
        check_first_gradients(first)
    firsts = [g if g is not None else _zeros(_shape(x), x) for x, g in zip(xs, first)]
    vectorize = _vectorized(vectorize, strict)
    blocks = _blocks(firsts, xs, create_graph, strict, vectorize, retain)
    if single:
        return blocks[0][0]
    return tuple(tuple(row) for row in blocks)
