"""torch.autograd.functional in forward mode (engine/forward_ad.py's dual tensors):

- `jvp(func, inputs, v)`: one call of func on dual inputs -- J v is the outputs' tangents;
- `hvp(func, inputs, v)`: forward-over-reverse -- the tangent, along v, of the gradient made with
  create_graph on dual inputs is H v;
- `jacobian(..., strategy="forward-mode", vectorize=True)` and `hessian(...,
  outer_jacobian_strategy="forward-mode")`: column by column, one call of the function (of its
  gradient, for the Hessian) a column of the Jacobian, with that input element's unit tangent. The
  columns are not batched (PyTorch's vectorize=True batches them with vmap): n calls for n input
  elements, which pays where the function has fewer inputs than outputs.

Each runs in a dual level of its own; inside one already open (one level at a time) the callers
take their reverse-mode way instead (functional_products.py, functional.py).
"""
from .core import forward as _forward
from .core.autograd import grad
from .core.grad_mode import enable_grad
from .core.tensor import make_tensor, array_module
from .forward_ad import dual_level, make_dual, unpack_dual
from .functions import stack, reshape
from .tensor_class import Tensor

__all__ = ["level_open", "jvp_forward", "hvp_forward", "jacobian_forward", "hessian_forward"]


def level_open():
    return _forward.current_level() is not None


def _leaves(xs, create_graph, wants_graph):
    """What func is called on: under create_graph a view of each input that requires grad (the
    results stay differentiable with respect to it), else fresh tensors over the same values --
    requiring grad where `wants_graph` (a gradient inside, or strict's check of the outputs)."""
    out = []
    for t in xs:
        if create_graph and t.requires_grad:
            out.append(t.view_as(t))
        else:
            out.append(make_tensor(t.array, t.device, bool(wants_graph)))
    return tuple(out)


def _dual_call(func, xs, vs, create_graph, wants_graph):
    """(outputs of func on dual inputs, their primals, their tangents (None where none)); the level is
    open only while func runs."""
    with dual_level():
        leaves = _leaves(xs, create_graph, wants_graph)
        duals = tuple(make_dual(x, v) for x, v in zip(leaves, vs))
        with enable_grad():
            out = func(*duals)
        outputs = out if isinstance(out, tuple) else (out,)
        pairs = [unpack_dual(o) if isinstance(o, Tensor) else (o, None) for o in outputs]
    return out, leaves, [p for p, _ in pairs], [t for _, t in pairs]


def jvp_forward(func, xs, vs, create_graph, strict):
    """(what func returned, its outputs' primals, their tangents: J v) of one dual call."""
    out, _, primals, tangents = _dual_call(func, xs, vs, create_graph, wants_graph=strict or create_graph)
    return out, primals, tangents


def hvp_forward(func, xs, vs, create_graph, check_output):
    """(func(xs), H v, the gradient): H v the tangent along v of the gradient of func's scalar output."""
    def gradient(*duals):
        out = check_output(func(*duals))
        if not out.requires_grad:
            return out, (None,) * len(duals)
        return out, grad(out, duals, create_graph=True, allow_unused=True)

    with dual_level():
        leaves = _leaves(xs, create_graph, True)
        duals = tuple(make_dual(x, v) for x, v in zip(leaves, vs))
        with enable_grad():
            out, grads = gradient(*duals)
        value = unpack_dual(out).primal
        products = [None if g is None else unpack_dual(g).tangent for g in grads]
    return value, products, grads


def jacobian_forward(func, xs, wants_graph=False):
    """(what func returned, J[i][j]: shape out_i.shape + x_j.shape), one dual call of func per element
    of the inputs (which require grad inside where `wants_graph`: func takes a gradient)."""
    columns = None
    outputs = None
    for j, x in enumerate(xs):
        xp = array_module(x.device)
        n = x.array.size
        for k in range(n):
            unit = xp.zeros(n, x.array.dtype)
            unit[k] = 1
            vs = tuple(make_tensor(unit.reshape(x.array.shape) if i == j else xp.zeros_like(y.array), y.device)
                       for i, y in enumerate(xs))
            out, _, primals, tangents = _dual_call(func, xs, vs, False, wants_graph)
            if columns is None:
                outputs = out
                columns = [[[] for _ in xs] for _ in primals]
            for i, (p, t) in enumerate(zip(primals, tangents)):
                columns[i][j].append(t if t is not None else make_tensor(array_module(p.device).zeros_like(p.array),
                                                                         p.device))
    if columns is None:  # (inputs with no element: func called once for its outputs)
        out, _, primals, _ = _dual_call(func, xs, tuple(make_tensor(x.array, x.device) for x in xs), False, wants_graph)
        outputs, columns = out, [[[] for _ in xs] for _ in primals]
    blocks = []
    primals = outputs if isinstance(outputs, tuple) else (outputs,)
    for i, p in enumerate(primals):
        row = []
        for j, x in enumerate(xs):
            shape = tuple(p.shape) + tuple(x.shape)
            cols = columns[i][j]
            if cols:
                block = reshape(stack(cols, dim=-1), shape).detach()
            else:
                block = make_tensor(array_module(x.device).zeros(shape, p.array.dtype), x.device)
            row.append(block)
        blocks.append(row)
    return outputs, blocks


def hessian_forward(func, xs, check_output):
    """H[i][j] of func's scalar output: the forward-mode Jacobian of its gradient (forward-over-reverse)."""
    def gradient(*leaves):
        out = check_output(func(*leaves))
        return grad(out, leaves, create_graph=True, allow_unused=True, materialize_grads=True) \
            if out.requires_grad else tuple(make_tensor(array_module(x.device).zeros_like(x.array), x.device)
                                            for x in leaves)
    return jacobian_forward(gradient, xs, wants_graph=True)[1]
