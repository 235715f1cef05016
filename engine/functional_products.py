"""torch.autograd.functional's products of a derivative with a vector, without the whole matrix:
vjp (v^T J), jvp (J v), vhp (v^T H) and hvp (H v), for a function and its inputs.

vjp is one backward. jvp runs in forward mode (engine/functional_forward.py: func on dual
inputs); inside a dual level already open it is the derivative of a vjp with respect to its
(zero) cotangent -- the backward of the backward, linear in the cotangent, so its gradient there
is J v (what torch.autograd.functional.jvp itself does). vhp is one backward through the gradient
made with create_graph; hvp is forward-over-reverse, the tangent of that gradient along v (inside
an open level, vhp's way: the Hessian of a twice-differentiable function is symmetric)."""
from .core.autograd import grad
from .core.tensor import make_tensor, array_module
from .functional import _inputs_tuple, _outputs_tuple, _call, _check_outputs_require_grad, check_first_gradients
from .functional_forward import level_open, jvp_forward, hvp_forward
from .tensor_class import Tensor

__all__ = ["vjp", "jvp", "vhp", "hvp"]


def _vectors(v, like, single, what):
    """v as a tuple matching `like` (tensors), with PyTorch's checks; ones where v is None and
    `like` is one tensor of one element."""
    if v is None:
        if len(like) != 1 or like[0].array.size != 1:
            raise RuntimeError(f"The vector v can only be None if the {what} a single Tensor with a single "
                               f"element.")
        return (make_tensor(array_module(like[0].device).ones(like[0].array.shape, like[0].array.dtype),
                            like[0].device),)
    vs, _ = _inputs_tuple(v, "vjp", lists=False)
    if len(vs) != len(like):
        raise RuntimeError(f"v is a tuple of invalid length: should be {len(like)} but got {len(vs)}." if not single
                           else "The given v should contain a single Tensor.")
    for i, (a, b) in enumerate(zip(vs, like)):
        if tuple(a.shape) != tuple(b.shape):
            where = "" if single else f"Entry {i} in "
            raise RuntimeError(f"{where}v has invalid size: should be {b.shape} but got {a.shape}.")
    return vs


def _filled(grads, like, strict, kind):
    """Gradients with zeros where none flowed (an error under strict)."""
    out = []
    for i, (g, x) in enumerate(zip(grads, like)):
        if g is None:
            if strict:
                raise RuntimeError(f"The {kind} of the user-provided function is independent of input {i}. This "
                                   f"is not allowed in strict mode.")
            g = make_tensor(array_module(x.device).zeros(x.array.shape, x.array.dtype), x.device)
        out.append(g)
    return tuple(out)


def _second_backward(firsts, wrt, vs, create_graph):
    """The gradient, with respect to `wrt`, of the sum of <first_i, v_i> over the first gradients
    that have a graph (None for each of `wrt` where none does)."""
    pairs = [(f, w) for f, w in zip(firsts, vs) if f is not None and f.requires_grad]
    if not pairs:
        return (None,) * len(wrt)
    return grad([f for f, _ in pairs], wrt, [w for _, w in pairs], create_graph=create_graph, allow_unused=True)


def _finished(values, create_graph, single):
    values = tuple(values) if create_graph else tuple(t.detach() for t in values)
    return values[0] if single else values


def _scalar_output(func, xs, create_graph, strict, name):
    out, leaves = _call(func, xs, create_graph)
    return _checked_scalar(out, strict, name), leaves


def _checked_scalar(out, strict, name):
    """The user's function's output, checked as PyTorch checks a Hessian product's."""
    if not isinstance(out, Tensor):
        _outputs_tuple(out, name)
        raise RuntimeError(f"The function given to {name} should return a single Tensor")
    if out.array.size != 1:
        raise RuntimeError(f"The Tensor returned by the function given to {name} should contain a single element")
    _check_outputs_require_grad((out,), strict)
    return out


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), v^T J): the gradient of func(inputs) . v with respect to the inputs."""
    xs, single_in = _inputs_tuple(inputs, "vjp", lists=False)
    out, leaves = _call(func, xs, create_graph)
    outputs, single_out = _outputs_tuple(out, "vjp")
    _check_outputs_require_grad(outputs, strict)
    vs = _vectors(v, outputs, single_out, "user-provided function returns")
    wanted = [i for i, o in enumerate(outputs) if o.requires_grad]
    grads = grad([outputs[i] for i in wanted], leaves, [vs[i] for i in wanted], create_graph=create_graph,
                 allow_unused=True) if wanted else (None,) * len(leaves)
    return _finished(outputs, create_graph, single_out), _finished(_filled(grads, leaves, strict, "output"),
                                                                   create_graph, single_in)


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), J v): the directional derivative of func along v, in forward mode (the outputs'
    tangents, func called on dual inputs). Inside a dual level already open (one at a time), as the
    gradient, with respect to a zero cotangent u, of the vjp u^T J (linear in u: its gradient is J v)."""
    xs, single_in = _inputs_tuple(inputs, "jvp", lists=False)
    vs = _vectors(v, xs, single_in, "input to the user-provided function is")
    if not level_open():  # forward mode: the outputs' tangents (functional_forward.py)
        out, primals, tangents = jvp_forward(func, xs, vs, create_graph, strict)
        outputs, single_out = _outputs_tuple(out, "jvp")
        _check_outputs_require_grad(outputs, strict)
        return _finished(primals, create_graph, single_out), _finished(_filled(tangents, outputs, strict, "jvp"),
                                                                       create_graph, single_out)
    out, leaves = _call(func, xs, create_graph)
    outputs, single_out = _outputs_tuple(out, "jvp")
    _check_outputs_require_grad(outputs, strict)
    cotangents = tuple(make_tensor(array_module(o.device).zeros(o.array.shape, o.array.dtype), o.device)
                       .requires_grad_(True) for o in outputs)
    wanted = [i for i, o in enumerate(outputs) if o.requires_grad]
    firsts = grad([outputs[i] for i in wanted], leaves, [cotangents[i] for i in wanted], create_graph=True,
                  allow_unused=True) if wanted else (None,) * len(leaves)
    result = _second_backward(firsts, cotangents, vs, create_graph)
    return _finished(outputs, create_graph, single_out), _finished(_filled(result, outputs, strict, "jvp"),
                                                                   create_graph, single_out)


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), v^T H) for a function with one scalar output: the gradient of (grad func) . v."""
    return _hessian_product(func, inputs, v, create_graph, strict, "vhp")


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), H v) for a function with one scalar output (H symmetric: the same as vhp)."""
    return _hessian_product(func, inputs, v, create_graph, strict, "hvp")


def _hessian_product(func, inputs, v, create_graph, strict, name):
    xs, single_in = _inputs_tuple(inputs, name, lists=False)
    vs = _vectors(v, xs, single_in, "input to the user-provided function is")
    if name == "hvp" and not level_open():  # forward-over-reverse (functional_forward.py)
        out, result, firsts = hvp_forward(func, xs, vs, create_graph, lambda y: _checked_scalar(y, strict, name))
        if strict:
            check_first_gradients(firsts)
        return _finished((out,), create_graph, True), _finished(_filled(result, xs, strict, "output"),
                                                                create_graph, single_in)
    out, leaves = _scalar_output(func, xs, create_graph, strict, name)
    firsts = grad(out, leaves, create_graph=True, allow_unused=True) if out.requires_grad \
        else (None,) * len(leaves)
    if strict:
        check_first_gradients(firsts)
    result = _second_backward(firsts, leaves, vs, create_graph)
    return _finished((out,), create_graph, True), _finished(_filled(result, leaves, strict, "output"),
                                                            create_graph, single_in)
