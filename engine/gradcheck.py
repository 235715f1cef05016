"""Check derivatives against central finite differences, to first and second order.

`gradcheck(f, inputs)` compares the Jacobian that backward computes with one
from perturbing each input element by +-eps; `gradgradcheck` does the same for
the vector-Jacobian product itself (so second derivatives are checked).
Use float64 inputs: float32 has too few digits for differences.
"""
import numpy

from .autograd import grad
from .grad_mode import enable_grad
from .tensor import Tensor, _make, _xp, _storage

__all__ = ["gradcheck", "gradgradcheck", "GradcheckError", "numerical_jacobian", "analytical_jacobian"]


class GradcheckError(AssertionError):
    """Backward disagrees with finite differences."""


def _tuple(x):
    return (x,) if isinstance(x, Tensor) else tuple(x)


def _outputs(fn, inputs):
    out = fn(*inputs)
    return _tuple(out)


def _host(t):
    return numpy.asarray(t, dtype=numpy.float64)


def numerical_jacobian(fn, inputs, eps=1e-6, max_elements=None):
    """J[out][in] as 2-D host arrays (out.numel x in.numel), by central differences
    (of the first `max_elements` elements of each input, if given; the other
    columns stay zero)."""
    inputs = _tuple(inputs)
    # evaluate with grad on (a function may itself differentiate, as gradgradcheck's does),
    # and read only the values
    with enable_grad():
        outs = _outputs(fn, inputs)
        jac = [[numpy.zeros((o.numel(), x.numel())) for x in inputs] for o in outs]
        for j, x in enumerate(inputs):
            if not x.requires_grad:
                continue
            flat = _storage(x).reshape(-1)  # a view: writes go into x
            count = flat.size if max_elements is None else min(flat.size, max_elements)
            for k in range(count):
                orig = flat[k].item()
                flat[k] = orig + eps
                plus = [_host(o.detach()).reshape(-1) for o in _outputs(fn, inputs)]
                flat[k] = orig - eps
                minus = [_host(o.detach()).reshape(-1) for o in _outputs(fn, inputs)]
                flat[k] = orig
                for i in range(len(outs)):
                    jac[i][j][:, k] = (plus[i] - minus[i]) / (2 * eps)
    return jac


def analytical_jacobian(fn, inputs):
    """J[out][in] from one vector-Jacobian product per output element."""
    inputs = _tuple(inputs)
    with enable_grad():
        outs = _outputs(fn, inputs)
    jac = [[numpy.zeros((o.numel(), x.numel())) for x in inputs] for o in outs]
    diff = [x for x in inputs if x.requires_grad]
    index = [j for j, x in enumerate(inputs) if x.requires_grad]
    for i, o in enumerate(outs):
        if not o.requires_grad:
            continue
        xp = _xp(o.device)
        for r in range(o.numel()):
            w = xp.zeros(o.numel(), dtype=o.array.dtype)
            w[r] = 1
            grads = grad(o, diff, grad_outputs=_make(w.reshape(o.array.shape), o.device),
                         retain_graph=True, allow_unused=True)
            for j, g in zip(index, grads):
                if g is not None:
                    jac[i][j][r, :] = _host(g).reshape(-1)
    return jac


def gradcheck(fn, inputs, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True):
    """True when backward matches finite differences for every output/input pair."""
    inputs = _tuple(inputs)
    numeric = numerical_jacobian(fn, inputs, eps)
    analytic = analytical_jacobian(fn, inputs)
    if not numeric or len(numeric) != len(analytic):
        raise GradcheckError("the function returned no outputs to check")
    for i, (nrow, arow) in enumerate(zip(numeric, analytic)):
        for j, (n, a) in enumerate(zip(nrow, arow)):
            if not numpy.allclose(a, n, rtol=rtol, atol=atol, equal_nan=True):
                if not raise_exception:
                    return False
                err = numpy.max(numpy.abs(a - n)) if a.size else 0.0
                raise GradcheckError(
                    f"Jacobian mismatch for output {i} with respect to input {j} (largest error {err:.3g}):\n"
                    f"numerical:\n{n}\nanalytical:\n{a}")
    return True


def gradgradcheck(fn, inputs, grad_outputs=None, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True,
                  seed=0):
    """gradcheck of the vector-Jacobian product of `fn`: checks second derivatives."""
    inputs = _tuple(inputs)
    with enable_grad():
        outs = _outputs(fn, inputs)
    if grad_outputs is None:
        rng = numpy.random.default_rng(seed)
        grad_outputs = tuple(
            _make(_xp(o.device).asarray(rng.standard_normal(o.array.shape)).astype(o.array.dtype),
                  o.device).requires_grad_(True)
            for o in outs)
    grad_outputs = _tuple(grad_outputs)
    n = len(inputs)
    diff_index = [j for j, x in enumerate(inputs) if x.requires_grad]

    def vjp(*args):
        xs, ws = args[:n], args[n:]
        ys = _outputs(fn, xs)
        pairs = [(y, w) for y, w in zip(ys, ws) if y.requires_grad]
        if not pairs:
            return tuple()
        gs = grad([y for y, _ in pairs], [xs[j] for j in diff_index], grad_outputs=[w for _, w in pairs],
                  create_graph=True, allow_unused=True)
        return tuple(g if g is not None else _make(_xp(xs[j].device).zeros_like(xs[j].array), xs[j].device)
                     for j, g in zip(diff_index, gs))

    return gradcheck(vjp, inputs + grad_outputs, eps, atol, rtol, raise_exception)
