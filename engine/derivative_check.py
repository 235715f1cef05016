"""Check derivatives against finite differences, to first and second order, as
PyTorch's `torch.autograd.gradcheck` and `gradgradcheck` do.

`gradcheck(func, inputs)` compares, for every differentiable output and every
input that requires grad, the Jacobian that backward computes (one
vector-Jacobian product per output element, computed twice to check that
backward is deterministic) with central differences (each input element
perturbed by +-eps in turn). With `fast_mode=True` it compares one number per
pair instead: v^T J u for random unit vectors u and v, with J u taken by one
central difference along u and v^T J by one backward call. Then, as PyTorch,
it checks that backward multiplies by grad_output (zero grad_outputs give zero
gradients) and that outputs without a gradient are treated as zeros.

`gradgradcheck` runs gradcheck on the vector-Jacobian product itself (with
create_graph), so second derivatives are checked.

A failed comparison raises `GradcheckError` (a RuntimeError) in PyTorch's
words, or makes the call return False with `raise_exception=False`; misuse
(no input requiring grad, an input with stride 0, outputs changing shape or
dtype under perturbation) raises PyTorch's ValueError, RuntimeError or
AssertionError whatever `raise_exception` says.

Use float64 inputs: float32 has too few digits for differences (and warns).
`check_forward_ad=True` also compares the Jacobian forward mode computes (one
dual call per input element; under fast_mode too, with slow mode's message);
`check_backward_ad=False` leaves the backward out; gradgradcheck's
`check_fwd_over_rev=True` so checks the vector-Jacobian product's forward-mode
derivative. Checks that need vmap (`check_batched_grad`,
`check_batched_forward_grad`) cannot run on this engine: asking for them raises
NotImplementedError (a RuntimeError); `masked` only matters for sparse tensors, which the engine has
not, except that `masked=True` compares backward's zeros with a tolerance.
"""
import warnings

import numpy

from . import dtypes as _dt
from .core.autograd import grad
from .backend import CPU
from .core.grad_mode import enable_grad
from .core.tensor import Size, make_tensor, array_module, storage_of, host_array
from .tensor_class import Tensor

__all__ = ["gradcheck", "gradgradcheck", "GradcheckError", "numerical_jacobian", "analytical_jacobian"]


class GradcheckError(RuntimeError):
    """Error raised by `gradcheck` and `gradgradcheck` (PyTorch's
    torch.autograd.gradcheck.GradcheckError)."""


# PyTorch's error for `b - a` on two bool tensors, which its finite differences
# of a bool output run into
_BOOL_SUBTRACTION = ("Subtraction, the `-` operator, with two bool tensors is not supported. "
                     "Use the `^` or `logical_xor()` operator instead.")

_FAILED_NONDET = """\n
NOTE: If your op relies on non-deterministic operations i.e., it is listed here:
https://pytorch.org/docs/stable/generated/torch.use_deterministic_algorithms.html
this failure might be expected.

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck.
If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `nondet_tol=<tol>` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `gradcheck_nondet_tol=<tol>`.
- is a Module test (e.g., in common_nn.py), then modify the corresponding
  module_test entry to have `gradcheck_nondet_tol=<tol>`
"""

_FAST_FAIL_SLOW_OK = """
Fast gradcheck failed but element-wise differences are small. This means that the
test might've passed in slow_mode!

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck:

If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `fast_mode=False` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `gradcheck_fast_mode=False`
- is a Module test (e.g., in common_nn.py), then modify the corresponding
  module_test entry to have `gradcheck_fast_mode=False`
""".strip()

_UNDEFINED_BC_WARNING = (
    "Backwards compatibility: New undefined gradient support checking feature is enabled by default, "
    "but it may break existing callers of this function. If this is true for you, you can call this "
    'function with "check_undefined_grad=False" to disable the feature')

# gradgradcheck's random grad_outputs come from a generator of their own with a fixed
# seed, so that a check gives the same answer every time and leaves every other random
# stream alone (PyTorch draws them from its global generator)
_GRAD_OUTPUTS_SEED = 0


def _unsupported(keyword, what):
    return NotImplementedError(
        f"{keyword}=True is not supported: it checks {what}, which this engine does not have; "
        f"leave {keyword} at its default, False")


# ------------------------------------------------------------------- helpers

def _as_tuple(x):
    """PyTorch's: a tuple as is, a list as a tuple, anything else as a 1-tuple."""
    if isinstance(x, tuple):
        return x
    if isinstance(x, list):
        return tuple(x)
    return (x,)


def _is_float(array):
    return array.dtype.kind in "fc"


def _diff_inputs(inputs):
    """(position, tensor) of each input tensor that requires grad."""
    return [(i, t) for i, t in enumerate(inputs) if isinstance(t, Tensor) and t.requires_grad]


def _differentiable_outputs(out):
    return tuple(o for o in _as_tuple(out) if o.requires_grad)


def _snapshot(t):
    """A host copy of a tensor's values, taken now (the next evaluation may reuse its memory)."""
    return numpy.array(host_array(t), copy=True)


def _host_array(t):
    """A tensor's values as a host array (maybe shared: read it, do not keep it)."""
    return numpy.asarray(host_array(t))


def _evaluate(fn, inputs):
    return [_snapshot(o) for o in _as_tuple(fn(*inputs))]


def _difference(minus, plus, eps, index):
    """(f(x + eps) - f(x - eps)) / 2 eps, flattened, in the output's dtype, after PyTorch's
    check that the output kept its shape and dtype (`index`: the perturbed element, or None
    when the whole input moved)."""
    on_index = f"on index {index} " if index is not None else ""
    if minus.shape != plus.shape:
        raise AssertionError(
            f"Expected `func` to return outputs with the same shape when inputs are perturbed {on_index}"
            f"by {eps}, but got: shapes {Size(minus.shape)} and {Size(plus.shape)}.")
    if minus.dtype != plus.dtype:
        raise AssertionError(
            f"Expected `func` to return outputs with the same dtype when inputs are perturbed {on_index}"
            f"by {eps}, but got: dtypes {_dt.dtype_of(minus)} and {_dt.dtype_of(plus)}.")
    if minus.dtype.kind == "b":
        raise RuntimeError(_BOOL_SUBTRACTION)
    return ((plus - minus) / (2 * eps)).reshape(-1)


def _shown(array):
    """A host array as PyTorch prints a tensor in gradcheck's messages."""
    return repr(make_tensor(array, CPU))


def _allclose(a, b, rtol, atol):
    """torch.allclose after type promotion: |a - b| <= atol + rtol * |b|, NaN never close."""
    dtype = numpy.result_type(a.dtype, b.dtype)
    return bool(numpy.allclose(a.astype(dtype, copy=False), b.astype(dtype, copy=False), rtol, atol))


def _max_abs(array):
    return numpy.max(numpy.abs(array)) if array.size else 0.0


# ------------------------------------------------------------ the numerical side

def _numerical(fn, inputs, diff, eps, func_out):
    """jac[k][o]: the Jacobian of output o of `func_out` by the k-th input requiring grad, as a
    (input numel, output numel) host array in the output's dtype (PyTorch's layout), by central
    differences, one input element at a time; None for outputs that are not floating point."""
    jacobians = []
    for _, x in diff:
        arr = storage_of(x)  # written in place: the function sees the perturbed values
        n = arr.size
        jac = [numpy.zeros((n, o.numel()), dtype=o.array.dtype) if _is_float(o.array) else None
               for o in func_out]
        for r, index in enumerate(numpy.ndindex(arr.shape)):
            # a scalar of the input's dtype (x +- eps rounds as PyTorch's does); a copy, as CuPy's
            # arr[index] is a 0-d view that the writes below would change
            orig = arr[index].copy()
            try:
                arr[index] = orig - eps
                minus = _evaluate(fn, inputs)
                arr[index] = orig + eps
                plus = _evaluate(fn, inputs)
            finally:
                arr[index] = orig
            for o, (a, b) in enumerate(zip(minus, plus)):
                column = _difference(a, b, eps, index)
                if o < len(jac) and jac[o] is not None:
                    jac[o][r] = column
        jacobians.append(jac)
    return jacobians


def _directional(fn, inputs, x, u, eps):
    """(f(x + eps u) - f(x - eps u)) / 2 eps for every output of fn, flattened: J u."""
    arr = storage_of(x)
    xp = array_module(x.device)
    orig = arr.copy()
    delta = xp.asarray(u.reshape(arr.shape)) * eps
    try:
        arr[...] = orig - delta
        minus = _evaluate(fn, inputs)
        arr[...] = orig + delta
        plus = _evaluate(fn, inputs)
    finally:
        arr[...] = orig
    return [_difference(a, b, eps, None) for a, b in zip(minus, plus)]


# ----------------------------------------------------------- the analytical side

def _vjps(output, diff_tensors, weights, count, check_grad_dtypes):
    """v^T J for each of the `count` grad_outputs v that `weights` yields (host arrays of the
    output's shape, read before the next is made): per input requiring grad, a host array
    (count, input numel) in the input's dtype. Gradients of the wrong size or (when asked)
    dtype raise PyTorch's GradcheckError."""
    xp = array_module(output.device)
    rows = [numpy.zeros((count, t.numel()), dtype=t.array.dtype) for t in diff_tensors]
    sizes_ok = types_ok = True
    for r, w in enumerate(weights):
        g_out = make_tensor(xp.asarray(w), output.device)
        grads = grad(output, diff_tensors, grad_outputs=g_out, retain_graph=True, allow_unused=True)
        for k, (g, t) in enumerate(zip(grads, diff_tensors)):
            if g is None:
                continue
            if g.shape != t.shape:
                sizes_ok = False
                continue
            if g.array.dtype != t.array.dtype:
                types_ok = False
            rows[k][r] = _host_array(g).reshape(-1)
    if not types_ok and check_grad_dtypes:
        raise GradcheckError("Gradient has dtype mismatch")
    if not sizes_ok:
        raise GradcheckError("Analytical gradient has incorrect size")
    return rows


def _unit_rows(output):
    """The grad_outputs that pick each element of `output` in turn (one buffer, rewritten)."""
    n = output.numel()
    eye = numpy.zeros(n, dtype=output.array.dtype)
    shaped = eye.reshape(output.array.shape)
    for r in range(n):
        if r:
            eye[r - 1] = 0
        eye[r] = 1
        yield shaped


def _analytical(output, diff_tensors, nondet_tol, check_grad_dtypes, weights=None):
    """Per input requiring grad: the Jacobian of `output` in PyTorch's (input numel, output
    numel) layout -- or, given `weights` (one grad_output), v^T J as (input numel, 1) --
    computed twice, the two runs within nondet_tol of each other (PyTorch's reentrancy check)."""
    def run():
        if weights is not None:
            return _vjps(output, diff_tensors, (weights,), 1, check_grad_dtypes)
        return _vjps(output, diff_tensors, _unit_rows(output), output.numel(), check_grad_dtypes)

    first = run()
    second = run()
    for a, b in zip(first, second):
        if a.size and _max_abs(a - b) > nondet_tol:  # NaN compares False: PyTorch lets it pass
            raise GradcheckError(
                "Backward is not reentrant, i.e., running backward with same input and grad_output "
                "multiple times gives different values, although analytical gradient matches numerical "
                f"gradient.The tolerance for nondeterminism was {nondet_tol}." + _FAILED_NONDET)
    return [rows.T for rows in first]


# -------------------------------------------------------------------- checks

def _check_inputs(inputs):
    """PyTorch's: warn of inputs that are not float64, refuse overlapping ones, and
    insist that some input requires grad."""
    any_requires_grad = False
    for idx, inp in enumerate(inputs):
        if isinstance(inp, Tensor) and inp.requires_grad:
            if inp.array.dtype != numpy.float64:
                warnings.warn(
                    f"Input #{idx} requires gradient and is not a double precision floating point or "
                    "complex. This check will likely fail if all the inputs are not of double precision "
                    "floating point or complex. ", stacklevel=4)
            arr = inp.array
            if any(st == 0 and sz > 1 for st, sz in zip(getattr(arr, "strides", ()), arr.shape)):
                raise RuntimeError(
                    f"The {idx}th input has a dimension with stride 0. gradcheck only supports inputs "
                    "that are non-overlapping to be able to compute the numerical gradients correctly. "
                    "You should call .contiguous on the input before passing it to gradcheck.")
            any_requires_grad = True
    if not any_requires_grad:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, "
                         "but none of them have requires_grad=True.")


def _mismatch(a, n, out_idx, in_idx):
    return (f"Jacobian mismatch for output {out_idx:d} with respect to input {in_idx:d},\n"
            f"numerical:{n}\nanalytical:{a}\n")


def _slow_gradcheck(func, func_out, inputs, outputs, eps, rtol, atol, check_grad_dtypes, nondet_tol):
    diff = _diff_inputs(inputs)
    numerical = _numerical(func, inputs, diff, eps, func_out)
    if not outputs:
        # nothing is differentiable: then nothing may change either
        for per_output in numerical:
            for jac in per_output:
                if jac is not None and numpy.count_nonzero(jac != 0):
                    raise GradcheckError("Numerical gradient for function expected to be zero")
        return True
    positions = [p for p, o in enumerate(func_out) if o.requires_grad]
    diff_tensors = [t for _, t in diff]
    for i, (o, p) in enumerate(zip(outputs, positions)):
        analytical = _analytical(o, diff_tensors, nondet_tol, check_grad_dtypes)
        for j, a in enumerate(analytical):
            n = numerical[j][p]
            if not _allclose(a, n, rtol, atol):
                raise GradcheckError(_mismatch(_shown(a), _shown(n), i, j))
    return True


class _TorchCPUGenerator:
    """The numbers of a fresh `torch.Generator()` (CPU, default seed 67280421310721): the
    32-bit Mersenne Twister seeded with the seed's low 32 bits (numpy's legacy RandomState
    is that generator), turned into uniform [0, 1) values as torch.rand does -- 24 bits of
    one draw for float32, 53 bits of two (the first the high word) for float64. So fast
    mode projects on the very vectors PyTorch's does."""

    DEFAULT_SEED = 67280421310721

    def __init__(self, seed=DEFAULT_SEED):
        self._mt = numpy.random.RandomState(seed & 0xFFFFFFFF)

    def _words(self, n):
        return self._mt.randint(0, 2 ** 32, size=n, dtype=numpy.uint32).astype(numpy.uint64)

    def rand(self, n, dtype):
        if numpy.dtype(dtype) == numpy.float64:
            words = self._words(2 * n)
            bits = ((words[0::2] << numpy.uint64(32)) | words[1::2]) & numpy.uint64((1 << 53) - 1)
            return bits.astype(numpy.float64) * 2.0 ** -53
        bits = self._words(n) & numpy.uint64((1 << 24) - 1)
        return bits.astype(numpy.float32) * numpy.float32(2.0 ** -24)


def _unit_vector(gen, n, dtype):
    """PyTorch's fast-mode vector for a tensor of n elements and this dtype: torch.rand(n)
    in the default dtype, cast to the tensor's, scaled to norm 1."""
    v = gen.rand(n, _dt.get_default_dtype().np).astype(dtype)
    return v / numpy.sqrt(numpy.dot(v, v))


def _fast_gradcheck(func, func_out, inputs, outputs, eps, rtol, atol, check_grad_dtypes, nondet_tol):
    diff = _diff_inputs(inputs)
    diff_tensors = [t for _, t in diff]
    gen = _TorchCPUGenerator()
    all_u = [_unit_vector(gen, t.numel(), t.array.dtype) for t in diff_tensors]
    all_v = [_unit_vector(gen, o.numel(), o.array.dtype) for o in outputs]
    # J u by one central difference along u, per input requiring grad
    all_ju = [_directional(func, inputs, t, u, eps) for t, u in zip(diff_tensors, all_u)]
    if not outputs:
        for jus in all_ju:
            for ju in jus:
                if ju.size and _max_abs(ju) > nondet_tol:
                    raise GradcheckError("Numerical gradient for function expected to be zero")
        return True
    positions = [p for p, o in enumerate(func_out) if o.requires_grad]
    numerical = [[numpy.dot(v, jus[p]) for v, p in zip(all_v, positions)] for jus in all_ju]
    # v^T J by one backward call per output, then (v^T J) u
    analytical = []
    for o, v in zip(outputs, all_v):
        vjs = _analytical(o, diff_tensors, nondet_tol, check_grad_dtypes, weights=v.reshape(o.array.shape))
        analytical.append([numpy.dot(vj[:, 0], u) for vj, u in zip(vjs, all_u)])
    for i, u in enumerate(all_u):
        for j, v in enumerate(all_v):
            a, n = numpy.asarray(analytical[j][i]), numpy.asarray(numerical[i][j])
            tol = atol * float(u.sum()) * float(v.sum())
            if not _allclose(a, n, rtol, tol):
                raise GradcheckError(_mismatch(float(a), float(n), j, i) + _slow_mode_report(
                    func, inputs, func_out, outputs, diff, i, j, positions[j], rtol, atol, eps))
    return True


def _slow_mode_report(func, inputs, func_out, outputs, diff, i, j, position, rtol, atol, eps):
    """PyTorch's account of a fast-mode failure: both full Jacobians of the pair."""
    slow_numerical = _numerical(func, inputs, [diff[i]], eps, func_out)[0][position]
    slow_analytical = _analytical(outputs[j], [t for _, t in diff], float("inf"), False)[i]
    dtype = numpy.result_type(slow_numerical.dtype, slow_analytical.dtype)
    max_diff = float(_max_abs(slow_numerical.astype(dtype) - slow_analytical.astype(dtype)))
    msg = ("\nThe above quantities relating the numerical and analytical jacobians are computed \n"
           "in fast mode. See: https://github.com/pytorch/pytorch/issues/53876 for more background \n"
           "about fast mode. Below, we recompute numerical and analytical jacobians in slow mode:\n\n"
           f"Numerical:\n {_shown(slow_numerical)}\n"
           f"Analytical:\n{_shown(slow_analytical)}\n\n"
           f"The max per-element difference (slow mode) is: {max_diff}.\n")
    if _allclose(slow_analytical, slow_numerical, rtol, atol):
        msg += _FAST_FAIL_SLOW_OK
    return msg


def _zeros_like(t):
    return make_tensor(array_module(t.device).zeros(t.array.shape, dtype=t.array.dtype), t.device)


def _test_backward_mul_by_grad_output(outputs, inputs, masked):
    """Zero grad_outputs must give zero gradients (PyTorch's check)."""
    diff_tensors = [t for _, t in _diff_inputs(inputs)]
    if not outputs:
        return True
    grads = grad(outputs, diff_tensors, [_zeros_like(o) for o in outputs], allow_unused=True)
    for gi, di in zip(grads, diff_tensors):
        if gi is None:
            continue
        values = _host_array(gi)
        if masked:
            if not numpy.allclose(values, 0):
                raise GradcheckError("backward not multiplied by grad_output")
        elif not (values == 0).all():
            raise GradcheckError("backward not multiplied by grad_output")
        if gi.array.dtype != di.array.dtype:
            raise GradcheckError("grad is incorrect type")
        if gi.device != di.device:
            raise GradcheckError("grad is incorrect device")
        if gi.shape != di.shape:
            raise GradcheckError("grad is incorrect size")
    return True


def _test_undefined_backward_mode(func, outputs, inputs):
    """PyTorch's check that backward copes with outputs whose gradient is undefined, and
    gives zero or no gradients when every other output's gradient is zero. In this engine
    an undefined gradient is one never given: a node that receives no gradient passes none
    on and its backward does not run. So with every output's gradient undefined nothing
    runs at all; with several outputs, each one in turn is left out of a backward call
    that gives the others zero gradients."""
    diff_tensors = [t for _, t in _diff_inputs(inputs)]
    if len(outputs) < 2:
        return True
    for undefined in range(len(outputs)):
        fresh = _differentiable_outputs(func(*inputs))
        kept = [o for k, o in enumerate(fresh) if k != undefined]
        if not kept:
            continue
        try:
            grads = grad(kept, diff_tensors, [_zeros_like(o) for o in kept], allow_unused=True)
        except RuntimeError as e:
            warnings.warn(_UNDEFINED_BC_WARNING, stacklevel=4)
            raise GradcheckError(
                "Expected backward function to handle undefined output grads. Please look at "
                '"Notes about undefined output gradients" in "tools/autograd/derivatives.yaml"') from e
        for gi in grads:
            if gi is not None and not (_host_array(gi) == 0).all():
                warnings.warn(_UNDEFINED_BC_WARNING, stacklevel=4)
                raise GradcheckError(
                    "Expected all input grads to be undefined or zero when all output grads are undefined "
                    'or zero. Please look at "Notes about undefined output gradients" in '
                    '"tools/autograd/derivatives.yaml"')
    return True


# ------------------------------------------------------------ the public checks

def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True, nondet_tol=0.0,
              check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
              check_batched_forward_grad=False, check_forward_ad=False, check_backward_ad=True,
              fast_mode=False, masked=None):
    """True when the gradients backward computes match finite differences, for every
    differentiable output and every input that requires grad (PyTorch's gradcheck).

    A mismatch raises GradcheckError, or returns False when raise_exception is False."""
    if not (check_forward_ad or check_backward_ad):
        raise AssertionError("Expected at least one of check_forward_ad or check_backward_ad to be True")
    if check_batched_grad and not check_backward_ad:
        raise AssertionError("Setting check_batched_grad=True requires check_backward_ad to be True")
    if check_batched_forward_grad and not check_forward_ad:
        raise AssertionError("Setting check_batched_forward_grad=True requires check_forward_ad to be True")
    if check_batched_grad:
        raise _unsupported("check_batched_grad", "batched gradients computed with vmap")
    if check_batched_forward_grad:
        raise _unsupported("check_batched_forward_grad", "batched forward-mode gradients computed with vmap")
    try:
        return _gradcheck_helper(func, inputs, eps, atol, rtol, nondet_tol, check_undefined_grad,
                                 check_grad_dtypes, fast_mode, bool(masked), check_forward_ad, check_backward_ad)
    except GradcheckError:
        if raise_exception:
            raise
        return False


def _gradcheck_helper(func, inputs, eps, atol, rtol, nondet_tol, check_undefined_grad, check_grad_dtypes,
                      fast_mode, masked, check_forward_ad=False, check_backward_ad=True):
    tupled_inputs = _as_tuple(inputs)
    _check_inputs(tupled_inputs)
    func_out = _as_tuple(func(*tupled_inputs))
    outputs = _differentiable_outputs(func_out)
    if check_backward_ad:
        check = _fast_gradcheck if fast_mode else _slow_gradcheck
        check(func, func_out, tupled_inputs, outputs, eps, rtol, atol, check_grad_dtypes, nondet_tol)
        _test_backward_mul_by_grad_output(outputs, tupled_inputs, masked)
        if check_undefined_grad:
            _test_undefined_backward_mode(func, outputs, tupled_inputs)
    if check_forward_ad:
        _forward_gradcheck(func, func_out, tupled_inputs, eps, rtol, atol)
    return True


def _forward_gradcheck(func, func_out, inputs, eps, rtol, atol):
    """check_forward_ad: the Jacobian forward mode computes -- one dual call of func per element of
    each input that requires grad, its unit tangent -- against central differences (slow mode's
    comparison, also under fast_mode)."""
    diff = _diff_inputs(inputs)
    numerical = _numerical(func, inputs, diff, eps, func_out)
    positions = [p for p, o in enumerate(func_out) if isinstance(o, Tensor) and _is_float(o.array)]
    for j, (pos, x) in enumerate(diff):
        forward = _forward_jacobian(func, inputs, pos, x, func_out, positions)
        for i, p in enumerate(positions):
            a, n = forward[p], numerical[j][p]
            if not _allclose(a, n, rtol, atol):
                raise GradcheckError(f"Jacobian computed with forward mode mismatch for output {i:d} with respect to "
                                     f"input {j:d},\nnumerical:{_shown(n)}\nanalytical:{_shown(a)}\n")


def _forward_jacobian(func, inputs, pos, x, func_out, positions):
    """{output position: (x numel, output numel) host array}: each row the outputs' tangents for
    the unit tangent of one element of x (the input at `pos`)."""
    from .forward_ad import dual_level, make_dual, unpack_dual
    xp = array_module(x.device)
    n = x.array.size
    rows = {p: numpy.zeros((n, func_out[p].numel()), dtype=func_out[p].array.dtype) for p in positions}
    for k in range(n):
        unit = xp.zeros(n, x.array.dtype)
        unit[k] = 1
        with dual_level():
            args = list(inputs)
            args[pos] = make_dual(x, make_tensor(unit.reshape(x.array.shape), x.device))
            outs = _as_tuple(func(*args))
            for p in positions:
                tangent = unpack_dual(outs[p]).tangent
                if tangent is not None:
                    rows[p][k] = _host_array(tangent).reshape(-1)
    return rows


def _random_grad_output(rng, out, noncontiguous):
    """PyTorch's make_tensor(low=-1, high=1, requires_grad=True) of the output's shape and
    dtype, made non-contiguous (every other element of a buffer twice as long in the
    last dimension) if asked."""
    xp = array_module(out.device)
    shape = out.array.shape
    dtype = out.array.dtype if _is_float(out.array) else numpy.float64
    values = xp.asarray(rng.uniform(-1, 1, shape).astype(dtype))
    if noncontiguous and values.size > 1:
        buf = xp.repeat(values, 2, axis=-1)
        values = buf[..., ::2]
    return make_tensor(values, out.device, True)


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3,
                  gen_non_contig_grad_outputs=False, raise_exception=True, nondet_tol=0.0,
                  check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
                  check_fwd_over_rev=False, check_rev_over_rev=True, fast_mode=False, masked=False):
    """gradcheck of the vector-Jacobian product of `func` with `grad_outputs` (random,
    uniform in [-1, 1), when not given): checks second derivatives (PyTorch's gradgradcheck) --
    reverse-over-reverse, and with check_fwd_over_rev forward-over-reverse."""
    if not (check_fwd_over_rev or check_rev_over_rev):
        raise AssertionError("Expected at least one of check_fwd_over_rev or check_rev_over_rev to be True")
    if check_undefined_grad and not check_rev_over_rev:
        raise AssertionError("Setting check_undefined_grad=True requires check_rev_over_rev to be True")
    if check_batched_grad and not check_rev_over_rev:
        raise AssertionError("Setting check_batched_grad=True requires check_rev_over_rev to be True")
    if check_batched_grad:
        raise _unsupported("check_batched_grad", "batched gradients computed with vmap")
    tupled_inputs = _as_tuple(inputs)
    if grad_outputs is None:
        rng = numpy.random.default_rng(_GRAD_OUTPUTS_SEED)
        outputs = _differentiable_outputs(func(*tupled_inputs))
        tupled_grad_outputs = tuple(_random_grad_output(rng, o, gen_non_contig_grad_outputs) for o in outputs)
    else:
        tupled_grad_outputs = _as_tuple(grad_outputs)
    n_inputs = len(tupled_inputs)
    diff_input_indices = [i for i, x in enumerate(tupled_inputs) if isinstance(x, Tensor) and x.requires_grad]

    def new_func(*args):
        input_args, grad_outs = args[:n_inputs], args[n_inputs:]
        outs = _differentiable_outputs(func(*input_args))
        diff_input_args = tuple(input_args[i] for i in diff_input_indices)
        grad_inputs = grad(outs, diff_input_args, grad_outs, create_graph=True, allow_unused=True)
        return tuple(g for g in grad_inputs if g is not None)

    return gradcheck(new_func, tupled_inputs + tupled_grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception, nondet_tol=nondet_tol,
                     check_undefined_grad=check_undefined_grad, check_grad_dtypes=check_grad_dtypes,
                     fast_mode=fast_mode, masked=masked, check_forward_ad=check_fwd_over_rev,
                     check_backward_ad=check_rev_over_rev)


# --------------------------------------- plain Jacobians (grammar/job.py uses these)

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
    columns stay zero). fn runs at the perturbed points only (and once as it is where
    nothing is perturbed, for the outputs' sizes)."""
    inputs = _tuple(inputs)
    # evaluate with grad on (a function may itself differentiate), and read only the values
    jac = None
    with enable_grad():
        for j, x in enumerate(inputs):
            if not x.requires_grad:
                continue
            flat = storage_of(x).reshape(-1)  # a view: writes go into x
            count = flat.size if max_elements is None else min(flat.size, max_elements)
            for k in range(count):
                orig = flat[k].item()
                flat[k] = orig + eps
                plus = [_host(o.detach()).reshape(-1) for o in _outputs(fn, inputs)]
                flat[k] = orig - eps
                minus = [_host(o.detach()).reshape(-1) for o in _outputs(fn, inputs)]
                flat[k] = orig
                if jac is None:
                    jac = [[numpy.zeros((p.size, t.numel())) for t in inputs] for p in plus]
                for i in range(len(plus)):
                    jac[i][j][:, k] = (plus[i] - minus[i]) / (2 * eps)
        if jac is None:
            jac = [[numpy.zeros((o.numel(), x.numel())) for x in inputs] for o in _outputs(fn, inputs)]
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
        xp = array_module(o.device)
        for r in range(o.numel()):
            w = xp.zeros(o.numel(), dtype=o.array.dtype)
            w[r] = 1
            grads = grad(o, diff, grad_outputs=make_tensor(w.reshape(o.array.shape), o.device),
                         retain_graph=True, allow_unused=True)
            for j, g in zip(index, grads):
                if g is not None:
                    jac[i][j][r, :] = _host(g).reshape(-1)
    return jac
