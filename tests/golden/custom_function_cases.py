"""The cases of custom_function.json and how each is recorded: run by gen_custom_function.py under
PyTorch and by tests/engine/test_custom_function.py under our engine. The names a program uses: T (torch /
autodiff.engine), Function, once_differentiable, leaf(data) (a float64 tensor that requires grad)
and note(value), which appends what a forward or backward saw (tensors, None, numbers, flags) to
the case's log.

A case defines `inputs` (the tensors to differentiate by) and `f()` (the call: a tensor or a tuple).
`record` keeps, for each output, its values, requires_grad and node name, and, for the first output
that has a node, the node's name and its next functions (name and output number); the warnings the
call gave; g = d sum(out_i * W_i) / d inputs (create_graph) and d sum(g * V) / d inputs, for fixed
weights; and the log. Error cases record the exception's type (the first built-in class it is an
instance of) and message."""
import re
import warnings

from functional_ops_cases import _tensor, _weights
from program_cases import registry

CASES, ERRORS, case, error = registry()


def _seen(value):
    """What note() keeps of a value, in a form both engines write alike."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (tuple, list)):
        return [_seen(v) for v in value]
    if hasattr(value, "grad_fn"):
        return dict(_tensor(value), requires_grad=value.requires_grad,
                    node=None if value.grad_fn is None else value.grad_fn.name())
    return type(value).__name__


def namespace(T, Function, once_differentiable):
    log = []
    return {"T": T, "Function": Function, "once_differentiable": once_differentiable,
            "leaf": lambda data: T.tensor(data, dtype=T.float64, requires_grad=True),
            "note": lambda *values: log.append(_seen(values[0] if len(values) == 1 else values)), "log": log}


def _next(fn):
    return [None if f is None else [type(f).__name__, i] for f, i in fn.next_functions]


def _grads(T, outputs, inputs, create_graph):
    pairs = [(o, w) for o, w in outputs if o.requires_grad]
    if not pairs:
        return None
    total = sum((o * w).sum() for o, w in pairs)
    return T.autograd.grad(total, inputs, create_graph=create_graph, allow_unused=True)


def record(program, ns):
    """What PyTorch (or our engine) gives for one case."""
    exec(program, ns)
    T, inputs, log = ns["T"], ns["inputs"], ns["log"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = ns["f"]()
    items = list(out) if isinstance(out, tuple) else [out]
    # (PyTorch's C++ warnings end with where in its sources they were raised: not part of the message)
    result = {"out": [_seen(t) for t in items],
              "warnings": [re.sub(r" \(Triggered internally at .*\)$", "", str(w.message)) for w in caught]}
    tensors = [t for t in items if hasattr(t, "grad_fn")]
    first = next((t for t in tensors if t.grad_fn is not None), None)
    if first is not None:
        result["node"] = first.grad_fn.name()
        result["next"] = _next(first.grad_fn)
        result["output_nr"] = [None if t.grad_fn is None else _next((t * 1).grad_fn)[0][1] for t in tensors]
    result["forward_log"] = list(log)
    del log[:]
    grads = _grads(T, [(t, _weights(T, t, 1.0)) for t in tensors if t.dtype.is_floating_point], inputs, True) \
        if inputs else None
    if grads is None:
        return result
    result["grad"] = [None if g is None else _seen(g) for g in grads]
    result["backward_log"] = list(log)
    del log[:]
    seconds = [(g, _weights(T, g, 0.5)) for g in grads if g is not None]
    try:
        grads2 = _grads(T, seconds, inputs, False)
    except RuntimeError as e:  # a backward that is not differentiable again (once_differentiable)
        result["grad2_error"] = str(e)
        return result
    result["grad2"] = None if grads2 is None else [None if g is None else _seen(g) for g in grads2]
    result["double_backward_log"] = list(log)
    return result


def run_error(program, ns):
    """[type name, message] of the exception the program raises (None if it raises nothing): the type
    as the first built-in class of the exception's (ours may be a subclass, InplaceModifiedError)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(program, ns)
    except Exception as e:  # noqa: BLE001  (any exception is the observation)
        kind = next(c for c in type(e).__mro__ if c.__module__ == "builtins")
        return [kind.__name__, str(e)]
    return None


# ============================================================== the tutorial's function

_LEGENDRE = """
    class LegendrePolynomial3(Function):
        @staticmethod
        def forward(ctx, input):
            ctx.save_for_backward(input)
            return 0.5 * (5 * input ** 3 - 3 * input)

        @staticmethod
        def backward(ctx, grad_output):
            input, = ctx.saved_tensors
            return grad_output * 1.5 * (5 * input ** 2 - 1)
"""
case("legendre", _LEGENDRE + """
    x = leaf([-1.5, -0.3, 0.0, 0.7, 2.0])
    inputs = [x]
    def f(): return LegendrePolynomial3.apply(x)
""")
case("legendre_tutorial_model", _LEGENDRE + """
    a = leaf(0.25)
    b = leaf(-1.0)
    c = leaf(0.125)
    d = leaf(0.3)
    x = T.linspace(-3.0, 3.0, 7)
    inputs = [a, b, c, d]
    def f(): return a + b * LegendrePolynomial3.apply(c + d * x)
""")
case("legendre_twice", _LEGENDRE + """
    x = leaf([[0.5, -0.25], [1.25, 0.1]])
    inputs = [x]
    P3 = LegendrePolynomial3.apply
    def f(): return P3(P3(x) * 2.0)
""")
case("legendre_scalar", _LEGENDRE + """
    x = leaf(0.8)
    inputs = [x]
    def f(): return LegendrePolynomial3.apply(x)
""")

# ============================================================== inputs, ctx and saved values

case("constant_argument_and_needs_input_grad", """
    class MulConstant(Function):
        @staticmethod
        def forward(ctx, tensor, constant):
            note(ctx.needs_input_grad)
            ctx.constant = constant
            return tensor * constant

        @staticmethod
        def backward(ctx, grad_output):
            note(ctx.needs_input_grad, grad_output)
            return grad_output * ctx.constant, None
    x = leaf([1.0, -2.0, 3.0])
    inputs = [x]
    def f(): return MulConstant.apply(x, 2.5)
""")
case("an_input_without_grad", """
    class Linear(Function):
        @staticmethod
        def forward(ctx, input, weight, bias):
            note(ctx.needs_input_grad)
            ctx.save_for_backward(input, weight, bias)
            return input.mm(weight.t()) + bias

        @staticmethod
        def backward(ctx, grad_output):
            input, weight, bias = ctx.saved_tensors
            grad_input = grad_weight = grad_bias = None
            if ctx.needs_input_grad[0]:
                grad_input = grad_output.mm(weight)
            if ctx.needs_input_grad[1]:
                grad_weight = grad_output.t().mm(input)
            if ctx.needs_input_grad[2]:
                grad_bias = grad_output.sum(0)
            note(grad_input, grad_weight, grad_bias)
            return grad_input, grad_weight, grad_bias
    x = T.tensor([[1.0, 2.0], [3.0, -1.0], [0.5, 0.25]], dtype=T.float64)
    w = leaf([[0.5, -1.0], [2.0, 1.5]])
    b = leaf([0.1, -0.2])
    inputs = [w, b]
    def f(): return Linear.apply(x, w, b)
""")
case("saved_output_is_differentiated_again", """
    class Exp(Function):
        @staticmethod
        def forward(ctx, i):
            result = i.exp()
            ctx.save_for_backward(result)
            return result

        @staticmethod
        def backward(ctx, grad_output):
            result, = ctx.saved_tensors
            note(result.requires_grad, result.grad_fn is not None)
            return grad_output * result
    x = leaf([0.5, -1.0, 2.0])
    inputs = [x]
    def f(): return Exp.apply(x * 1.5)
""")
case("saved_intermediate_and_ctx_attributes", """
    class Cube(Function):
        @staticmethod
        def forward(ctx, x, scale):
            square = x * x
            ctx.save_for_backward(x, square, None)
            ctx.scale = scale
            ctx.shape = x.shape
            return square * x * scale

        @staticmethod
        def backward(ctx, g):
            x, square, nothing = ctx.saved_tensors
            note(nothing, list(ctx.shape))
            return g * 3 * square * ctx.scale, None
    x = leaf([[1.0, -2.0], [0.5, 3.0]])
    inputs = [x]
    def f():
        y = Cube.apply(x, 0.5)
        note(y.grad_fn.scale, len(y.grad_fn.saved_tensors))
        return y
""")
case("keyword_argument_old_style", """
    class Scale(Function):
        @staticmethod
        def forward(ctx, x, k=2.0, shift=0.0):
            return x * k + shift

        @staticmethod
        def backward(ctx, g):
            return (g * 3.0,) + (None,) * 2
    x = leaf([1.0, 2.0])
    inputs = [x]
    def f(): return Scale.apply(x, 3.0, shift=1.0)
""")
case("setup_context_style", """
    class Exp(Function):
        @staticmethod
        def forward(x, scale=2.0):
            note(T.is_grad_enabled())
            return (x * scale).exp()

        @staticmethod
        def setup_context(ctx, inputs, output):
            x, scale = inputs
            note(T.is_grad_enabled(), scale)
            ctx.scale = scale
            ctx.save_for_backward(output)

        @staticmethod
        def backward(ctx, g):
            out, = ctx.saved_tensors
            return g * out * ctx.scale, None
    x = leaf([0.5, -0.25])
    inputs = [x]
    def f(): return Exp.apply(x)
""")
case("no_input_requires_grad", """
    class Double(Function):
        @staticmethod
        def forward(ctx, x):
            note(ctx.needs_input_grad)
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2
    x = T.tensor([1.0, 2.0], dtype=T.float64)
    inputs = []
    def f(): return Double.apply(x)
""")
case("under_no_grad", """
    class Double(Function):
        @staticmethod
        def forward(ctx, x):
            note(ctx.needs_input_grad)
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2
    x = leaf([1.0, 2.0])
    inputs = []
    def f():
        with T.no_grad():
            return Double.apply(x)
""")

# ============================================================== outputs

case("two_outputs", """
    class SinCos(Function):
        @staticmethod
        def forward(ctx, x):
            s, c = x.sin(), x.cos()
            ctx.save_for_backward(s, c)
            return s, c

        @staticmethod
        def backward(ctx, gs, gc):
            s, c = ctx.saved_tensors
            return gs * c - gc * s
    x = leaf([0.5, 1.0, -2.0])
    inputs = [x]
    def f(): return SinCos.apply(x)
""")
case("two_outputs_one_used_materialized", """
    class SinCos(Function):
        @staticmethod
        def forward(ctx, x):
            return x.sin(), x.cos()

        @staticmethod
        def backward(ctx, gs, gc):
            note(gs, gc)
            return gs * x.cos() - gc * x.sin()
    x = leaf([0.5, 1.0])
    inputs = [x]
    def f(): return SinCos.apply(x)[1]
""")
case("two_outputs_not_materialized", """
    class Pair(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, g1, g2):
            note(g1, g2)
            return (g1 * 2 if g1 is not None else 0) + (g2 * 3 if g2 is not None else 0)
    x = leaf([0.5, 1.0])
    inputs = [x]
    def f(): return Pair.apply(x)[1]
""")
case("non_differentiable_output", """
    class Sort(Function):
        @staticmethod
        def forward(ctx, x):
            values, idx = x.sort()
            ctx.mark_non_differentiable(idx)
            ctx.save_for_backward(idx)
            return values, idx

        @staticmethod
        def backward(ctx, g, g_idx):
            note(g_idx)
            idx, = ctx.saved_tensors
            out = T.zeros_like(g)
            out[idx] = g
            return out
    x = leaf([3.0, -1.0, 2.0, 0.5])
    inputs = [x]
    def f(): return Sort.apply(x)
""")
case("marked_non_differentiable_float_output", """
    class Two(Function):
        @staticmethod
        def forward(ctx, x):
            a, b = x * 2, x * 3
            ctx.mark_non_differentiable(b)
            return a, b

        @staticmethod
        def backward(ctx, ga, gb):
            note(gb)
            return ga * 2
    x = leaf([1.0, 2.0])
    inputs = [x]
    def f(): return Two.apply(x)
""")
case("integer_output_only", """
    class Argmax(Function):
        @staticmethod
        def forward(ctx, x):
            return x.argmax()

        @staticmethod
        def backward(ctx, g):
            return None
    x = leaf([1.0, 3.0, 2.0])
    inputs = []
    def f(): return Argmax.apply(x)
""")
case("input_returned_as_is", """
    class Identity(Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 5
    x = leaf([1.0, 2.0])
    inputs = [x]
    def f():
        y = Identity.apply(x)
        note(y is x, y._version)
        return y
""")
case("non_tensor_outputs", """
    class Mixed(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2, 3, None

        @staticmethod
        def backward(ctx, g, g3, gnone):
            note(g3, gnone)
            return g * 2
    x = leaf([1.0, -1.0])
    inputs = [x]
    def f(): return Mixed.apply(x)
""")
case("list_output_is_not_differentiable", """
    class AsList(Function):
        @staticmethod
        def forward(ctx, x):
            return [x * 2, x * 3]

        @staticmethod
        def backward(ctx, g):
            return g
    x = leaf([1.0, -1.0])
    inputs = []
    def f():
        out = AsList.apply(x)
        note(out)
        return out[0]
""")
case("dirty_input", """
    class MulInPlace(Function):
        @staticmethod
        def forward(ctx, x):
            x.mul_(2)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 2
    x = leaf([1.0, 2.0])
    inputs = [x]
    def f():
        y = x * 1
        z = MulInPlace.apply(y)
        note(z is y, y._version)
        return z
""")
case("dirty_input_that_did_not_require_grad", """
    class AddInPlace(Function):
        @staticmethod
        def forward(ctx, a, b):
            a.add_(b)
            ctx.mark_dirty(a)
            return a

        @staticmethod
        def backward(ctx, g):
            return g, g
    a = T.tensor([1.0, 2.0], dtype=T.float64)
    b = leaf([0.5, -0.5])
    inputs = [b]
    def f():
        out = AddInPlace.apply(a, b)
        note(out is a, a._version)
        return out
""")
case("dirty_view", """
    class MulInPlace(Function):
        @staticmethod
        def forward(ctx, x):
            x.mul_(3)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 3
    x = leaf([1.0, 2.0, 4.0])
    inputs = [x]
    def f():
        base = x * 1
        MulInPlace.apply(base[1:])
        return base * 1
""")
case("dirty_output_not_an_input_warns", """
    class Marked(Function):
        @staticmethod
        def forward(ctx, x):
            y = x * 2
            ctx.mark_dirty(y)
            return y

        @staticmethod
        def backward(ctx, g):
            return g * 2
    x = leaf([1.0, 2.0])
    inputs = [x]
    def f(): return Marked.apply(x)
""")

# ============================================================== the gradients backward returns

case("gradient_summed_to_its_input", """
    class Broadcast(Function):
        @staticmethod
        def forward(ctx, x):
            return x.sum()

        @staticmethod
        def backward(ctx, g):
            return g * T.ones(4, 2, dtype=T.float64)
    x = leaf([1.0, 2.0])
    inputs = [x]
    def f(): return Broadcast.apply(x)
""")
case("gradient_of_another_dtype", """
    class Halve(Function):
        @staticmethod
        def forward(ctx, x):
            return x / 2

        @staticmethod
        def backward(ctx, g):
            return (g / 2).float()
    x = leaf([1.0, 3.0])
    inputs = [x]
    def f(): return Halve.apply(x)
""")
case("integer_and_bool_gradients", """
    class Ints(Function):
        @staticmethod
        def forward(ctx, x, y):
            return x + y

        @staticmethod
        def backward(ctx, g):
            return T.tensor([1, 2]), T.tensor([True, False])
    x = leaf([1.0, 3.0])
    y = leaf([0.5, 0.5])
    inputs = [x, y]
    def f(): return Ints.apply(x, y)
""")
case("extra_nones_are_dropped", """
    class Extra(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2, None, None
    x = leaf([1.0, 3.0])
    inputs = [x]
    def f(): return Extra.apply(x)
""")
case("unneeded_gradient_not_checked", """
    class Loose(Function):
        @staticmethod
        def forward(ctx, x, y):
            return x * y

        @staticmethod
        def backward(ctx, g):
            return g * 2, T.ones(7, dtype=T.float64)
    x = leaf([1.0, 3.0])
    y = T.tensor([2.0, 2.0], dtype=T.float64)
    inputs = [x]
    def f(): return Loose.apply(x, y)
""")
case("backward_written_with_a_custom_function", """
    class Square(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return Twice.apply(g * x)

    class Twice(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2
    x = leaf([1.0, -3.0])
    inputs = [x]
    def f(): return Square.apply(x) * x
""")
case("vjp_instead_of_backward", """
    class Triple(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 3

        @staticmethod
        def vjp(ctx, g):
            return g * 3
    x = leaf([1.0, 3.0])
    inputs = [x]
    def f(): return Triple.apply(x)
""")
case("once_differentiable", """
    class Cube(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        @once_differentiable
        def backward(ctx, g):
            x, = ctx.saved_tensors
            note(T.is_grad_enabled())
            return g * 3 * x ** 2
    x = leaf([1.0, 2.0])
    inputs = [x]
    def f(): return Cube.apply(x)
""")
case("hooks_and_retained_grads_on_outputs", """
    class SinCos(Function):
        @staticmethod
        def forward(ctx, x):
            return x.sin(), x.cos()

        @staticmethod
        def backward(ctx, gs, gc):
            return gs * x.cos() - gc * x.sin()
    x = leaf([0.5, 1.0])
    inputs = [x]
    def f():
        s, c = SinCos.apply(x)
        s.register_hook(lambda g: note("s", g))
        c.register_hook(lambda g: note("c", g))
        s.retain_grad()
        (s * 2 + c * 3).sum().backward(retain_graph=True)
        note(s.grad, x.grad)
        return s, c
""")

# ============================================================== errors (PyTorch's messages)

_TWO = """
    class Few(Function):
        @staticmethod
        def forward(ctx, x, y):
            return x * y

        @staticmethod
        def backward(ctx, g):
            return g
"""
error("too_few_gradients", _TWO + """
    x = leaf([1.0, 2.0])
    Few.apply(x, x).sum().backward()
""")
error("too_many_gradients", """
    class Many(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g, g
    Many.apply(leaf([1.0, 2.0])).sum().backward()
""")
error("gradient_for_a_number", """
    class K(Function):
        @staticmethod
        def forward(ctx, x, k):
            return x * k

        @staticmethod
        def backward(ctx, g):
            return g, g
    K.apply(leaf([1.0, 2.0]), 2).sum().backward()
""")
error("gradient_not_a_tensor", """
    class Num(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return 2.0
    Num.apply(leaf([1.0, 2.0])).sum().backward()
""")
error("gradient_as_a_list", """
    class AsList(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return [g]
    AsList.apply(leaf([1.0, 2.0])).sum().backward()
""")
error("gradient_of_the_wrong_shape", """
    class Wrong(Function):
        @staticmethod
        def forward(ctx, x):
            return x.sum()

        @staticmethod
        def backward(ctx, g):
            return T.ones(3, dtype=T.float64)
    Wrong.apply(leaf([1.0, 2.0])).backward()
""")
error("gradient_of_the_wrong_shape_counts_tensor_inputs", """
    class Wrong(Function):
        @staticmethod
        def forward(ctx, k, x):
            return x * k

        @staticmethod
        def backward(ctx, g):
            return None, g.sum()
    Wrong.apply(2, leaf([1.0, 2.0])).sum().backward()
""")
error("saved_input_modified", """
    class Saver(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x.exp()

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return g * x.exp()
    x = leaf([1.0, 2.0])
    h = x * 1
    y = Saver.apply(h)
    h.add_(1)
    y.sum().backward()
""")
error("saved_leaf_modified", """
    class Saver(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x.exp()

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return g * x.exp()
    x = leaf([1.0, 2.0])
    y = Saver.apply(x)
    with T.no_grad():
        x.mul_(2)
    y.sum().backward()
""")
error("saved_output_modified", """
    class Saver(Function):
        @staticmethod
        def forward(ctx, x):
            y = x.exp()
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, g):
            y, = ctx.saved_tensors
            return g * y
    y = Saver.apply(leaf([1.0, 2.0]) * 1)
    with T.no_grad():
        y.add_(1)
    y.sum().backward()
""")
error("second_output_saved_and_modified", """
    class SinCos(Function):
        @staticmethod
        def forward(ctx, x):
            s, c = x.sin(), x.cos()
            ctx.save_for_backward(s, c)
            return s, c

        @staticmethod
        def backward(ctx, gs, gc):
            s, c = ctx.saved_tensors
            return gs * c - gc * s
    s, c = SinCos.apply(leaf([1.0, 2.0]))
    with T.no_grad():
        c.mul_(2)
    s.sum().backward()
""")
error("saved_tensors_after_backward", """
    class Saver(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2
    y = Saver.apply(leaf([1.0, 2.0]))
    y.sum().backward()
    y.grad_fn.saved_tensors
""")
error("backward_twice_reading_saved_tensors", """
    class Saver(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * 2

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return g * 2
    y = Saver.apply(leaf([1.0, 2.0]))
    y.sum().backward()
    y.sum().backward()
""")
error("dirty_leaf", """
    class MulInPlace(Function):
        @staticmethod
        def forward(ctx, x):
            x.mul_(2)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 2
    MulInPlace.apply(leaf([1.0, 2.0]))
""")
error("dirty_view_of_a_leaf", """
    class MulInPlace(Function):
        @staticmethod
        def forward(ctx, x):
            x.mul_(2)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 2
    MulInPlace.apply(leaf([1.0, 2.0])[:1])
""")
error("dirty_but_not_returned", """
    class MulInPlace(Function):
        @staticmethod
        def forward(ctx, x):
            x.mul_(2)
            ctx.mark_dirty(x)
            return x * 1

        @staticmethod
        def backward(ctx, g):
            return g * 2
    MulInPlace.apply(leaf([1.0, 2.0]) * 1)
""")
error("dirty_view_with_two_outputs", """
    class MulInPlace(Function):
        @staticmethod
        def forward(ctx, x):
            x.mul_(2)
            ctx.mark_dirty(x)
            return x, x * 3

        @staticmethod
        def backward(ctx, g, g2):
            return g * 2
    MulInPlace.apply((leaf([1.0, 2.0]) * 1)[:1])
""")
error("mark_dirty_not_a_tensor", """
    class Bad(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_dirty(3)
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g
    Bad.apply(leaf([1.0]))
""")
error("mark_non_differentiable_not_a_tensor", """
    class Bad(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_non_differentiable("x")
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g
    Bad.apply(leaf([1.0]))
""")
error("set_materialize_grads_not_a_bool", """
    class Bad(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(1)
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g
    Bad.apply(leaf([1.0]))
""")
error("save_a_number", """
    class Bad(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x, 3)
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g
    Bad.apply(leaf([1.0]))
""")
error("setup_context_saves_an_input_returned_as_is", """
    class Bad(Function):
        @staticmethod
        def forward(x):
            return x

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(inputs[0])

        @staticmethod
        def backward(ctx, g):
            return g
    Bad.apply(leaf([1.0]))
""")
error("unexpected_keyword", """
    class Kw(Function):
        @staticmethod
        def forward(ctx, x, k=2.0):
            return x * k

        @staticmethod
        def backward(ctx, g):
            return g, None
    Kw.apply(leaf([1.0]), w=3)
""")
error("keyword_given_twice", """
    class Kw(Function):
        @staticmethod
        def forward(ctx, x, k=2.0):
            return x * k

        @staticmethod
        def backward(ctx, g):
            return g, None
    Kw.apply(leaf([1.0]), 1.0, k=3)
""")
error("keyword_after_a_gap", """
    class Kw(Function):
        @staticmethod
        def forward(ctx, x, k=2.0, j=1.0):
            return x * k * j

        @staticmethod
        def backward(ctx, g):
            return g, None, None
    Kw.apply(leaf([1.0]), j=3)
""")
error("no_forward", """
    class Nothing(Function):
        pass
    Nothing.apply(leaf([1.0]))
""")
error("no_backward", """
    class OnlyForward(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2
    OnlyForward.apply(leaf([1.0])).sum().backward()
""")
error("the_base_class_applied", """
    Function.apply(leaf([1.0]))
""")
error("both_vjp_and_backward", """
    class Both(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def vjp(ctx, g):
            return g * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2
    Both.apply(leaf([1.0])).sum().backward()
""")
error("called_as_a_legacy_function", """
    class Legacy(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2
    Legacy()(leaf([1.0]))
""")
error("returned_input_written_in_place", """
    class Identity(Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, g):
            return g
    Identity.apply(leaf([1.0, 2.0]) * 1).mul_(2)
""")
error("returned_view_written_in_place", """
    class First(Function):
        @staticmethod
        def forward(ctx, x):
            return x[0]

        @staticmethod
        def backward(ctx, g):
            return T.ones(2, dtype=T.float64) * g
    First.apply(leaf([1.0, 2.0]) * 1).mul_(2)
""")
error("returned_view_whose_base_changed", """
    class First(Function):
        @staticmethod
        def forward(ctx, x):
            return x[0]

        @staticmethod
        def backward(ctx, g):
            return T.ones(2, dtype=T.float64) * g
    base = leaf([1.0, 2.0]) * 1
    r = First.apply(base)
    base.mul_(2)
    r * 1
""")
error("one_of_two_returned_views_written_in_place", """
    class Halves(Function):
        @staticmethod
        def forward(ctx, x):
            return x[0], x[1]

        @staticmethod
        def backward(ctx, g1, g2):
            return T.stack([g1, g2])
    Halves.apply(leaf([1.0, 2.0]) * 1)[0].mul_(2)
""")
error("once_differentiable_differentiated_twice", """
    class Cube(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        @once_differentiable
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return g * 3 * x ** 2
    x = leaf([1.0, 2.0])
    v = leaf([1.0, 1.0])
    g, = T.autograd.grad(Cube.apply(x), x, v, create_graph=True)
    g.sum().backward()
""")
error("error_in_backward_propagates", """
    class Raises(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            raise ValueError("my backward failed")
    Raises.apply(leaf([1.0])).sum().backward()
""")


# ============================================================== programs of the language
# Whole programs as a user writes them (`import torch`, `class F(torch.autograd.Function)`), run by
# `autodiff run` in the test and by Python itself in the generator: their stdout. The tutorial's is
# compared number by number (float32 sums of 2000 elements round differently in the last bits, as
# the same program with P3 written as plain operations does); the others exactly.

PROGRAMS, _, program, _ = registry()

program("tutorial_legendre", """
    import torch
    import math


    class LegendrePolynomial3(torch.autograd.Function):
        \"\"\"
        We can implement our own custom autograd Functions by subclassing
        torch.autograd.Function and implementing the forward and backward passes
        which operate on Tensors.
        \"\"\"

        @staticmethod
        def forward(ctx, input):
            \"\"\"
            In the forward pass we receive a Tensor containing the input and return
            a Tensor containing the output. ctx is a context object that can be used
            to stash information for backward computation. You can cache arbitrary
            objects for use in the backward pass using the ctx.save_for_backward method.
            \"\"\"
            ctx.save_for_backward(input)
            return 0.5 * (5 * input ** 3 - 3 * input)

        @staticmethod
        def backward(ctx, grad_output):
            \"\"\"
            In the backward pass we receive a Tensor containing the gradient of the loss
            with respect to the output, and we need to compute the gradient of the loss
            with respect to the input.
            \"\"\"
            input, = ctx.saved_tensors
            return grad_output * 1.5 * (5 * input ** 2 - 1)


    dtype = torch.float
    device = torch.device("cpu")
    # device = torch.device("cuda:0")  # Uncomment this to run on GPU

    # Create Tensors to hold input and outputs.
    # By default, requires_grad=False, which indicates that we do not need to
    # compute gradients with respect to these Tensors during the backward pass.
    x = torch.linspace(-math.pi, math.pi, 2000, device=device, dtype=dtype)
    y = torch.sin(x)

    # Create random Tensors for weights. For this example, we need
    # 4 weights: y = a + b * P3(c + d * x), these weights need to be initialized
    # not too far from the correct result to ensure convergence.
    # Setting requires_grad=True indicates that we want to compute gradients with
    # respect to these Tensors during the backward pass.
    a = torch.full((), 0.0, device=device, dtype=dtype, requires_grad=True)
    b = torch.full((), -1.0, device=device, dtype=dtype, requires_grad=True)
    c = torch.full((), 0.0, device=device, dtype=dtype, requires_grad=True)
    d = torch.full((), 0.3, device=device, dtype=dtype, requires_grad=True)

    learning_rate = 5e-6
    for t in range(2000):
        # To apply our Function, we use Function.apply method. We alias this as 'P3'.
        P3 = LegendrePolynomial3.apply

        # Forward pass: compute predicted y using operations; we compute
        # P3 using our custom autograd operation.
        y_pred = a + b * P3(c + d * x)

        # Compute and print loss
        loss = (y_pred - y).pow(2).sum()
        if t % 100 == 99:
            print(t, loss.item())

        # Use autograd to compute the backward pass.
        loss.backward()

        # Update weights using gradient descent
        with torch.no_grad():
            a -= learning_rate * a.grad
            b -= learning_rate * b.grad
            c -= learning_rate * c.grad
            d -= learning_rate * d.grad

            # Manually zero the gradients after updating weights
            a.grad = None
            b.grad = None
            c.grad = None
            d.grad = None

    print(f'Result: y = {a.item()} + {b.item()} * P3({c.item()} + {d.item()} x)')
""")
program("ctx_nodes_and_outputs", """
    import torch
    from torch.autograd import Function

    class MulConstant(Function):
        @staticmethod
        def forward(ctx, tensor, constant):
            print("forward: grad enabled", torch.is_grad_enabled(), "needs", ctx.needs_input_grad)
            ctx.constant = constant
            ctx.save_for_backward(tensor)
            return tensor * constant

        @staticmethod
        def backward(ctx, grad_output):
            saved, = ctx.saved_tensors
            print("backward: grad enabled", torch.is_grad_enabled(), "got", grad_output, "saved", saved)
            return grad_output * ctx.constant, None

    x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
    y = MulConstant.apply(x, 2.5)
    print(y)
    print(y.grad_fn.name(), type(y.grad_fn).__name__, y.grad_fn.constant, y.requires_grad, y.is_leaf)
    print([type(f).__name__ for f, _ in y.grad_fn.next_functions])
    z = (y * y).sum()
    print([(type(f).__name__, i) for f, i in z.grad_fn.next_functions[0][0].next_functions])
    z.backward()
    print(x.grad)

    class SinCos(Function):
        @staticmethod
        def forward(ctx, x):
            return x.sin(), x.cos()

        @staticmethod
        def backward(ctx, gs, gc):
            print("sincos got", gs, gc)
            return gs * x.cos() - gc * x.sin()

    s, c = SinCos.apply(x)
    print(s.grad_fn.name(), c.grad_fn.name(), [i for _, i in (s + c).grad_fn.next_functions])
    x.grad = None
    c.sum().backward()
    print(x.grad)

    class Sort(Function):
        @staticmethod
        def forward(ctx, x):
            values, idx = x.sort()
            ctx.mark_non_differentiable(idx)
            ctx.save_for_backward(idx)
            return values, idx

        @staticmethod
        def backward(ctx, g, g_idx):
            idx, = ctx.saved_tensors
            out = torch.zeros_like(g)
            out[idx] = g
            return out

    v, i = Sort.apply(x)
    print(v, i, i.requires_grad)
    x.grad = None
    (v * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
    print(x.grad)
    with torch.no_grad():
        print(MulConstant.apply(x, 3).requires_grad)
""")
program("second_order_and_setup_context", """
    import torch
    from torch.autograd.function import once_differentiable

    class Exp(torch.autograd.Function):
        @staticmethod
        def forward(x, scale=1.0):
            return (x * scale).exp()

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.scale = inputs[1]
            ctx.save_for_backward(output)

        @staticmethod
        def backward(ctx, g):
            out, = ctx.saved_tensors
            return g * out * ctx.scale, None

    class Cube(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        @once_differentiable
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return g * 3 * x ** 2

    x = torch.tensor([0.5, -1.0], dtype=torch.float64, requires_grad=True)
    y = Exp.apply(x, scale=2.0)
    g, = torch.autograd.grad(y.sum(), x, create_graph=True)
    print(y, g)
    print(torch.autograd.grad(g.sum(), x))
    print(torch.autograd.gradcheck(Exp.apply, (x,)), torch.autograd.gradgradcheck(Exp.apply, (x,)))
    g, = torch.autograd.grad(Cube.apply(x).sum(), x, create_graph=True)
    print(g, g.requires_grad)
    g, = torch.autograd.grad(Cube.apply(x), x, torch.ones(2, dtype=torch.float64, requires_grad=True),
                             create_graph=True)
    print(g.grad_fn.name())
    try:
        g.sum().backward()
    except RuntimeError as e:
        print("RuntimeError:", e)
""")
program("errors_a_program_catches", """
    import torch

    class Few(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            return x * y

        @staticmethod
        def backward(ctx, g):
            return g

    class Saver(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x.exp()

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return g * x.exp()

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    try:
        Few.apply(x, x).sum().backward()
    except RuntimeError as e:
        print(e)
    h = x * 1
    y = Saver.apply(h)
    h.add_(1)
    try:
        y.sum().backward()
    except RuntimeError as e:
        print(e)
    try:
        Saver.apply(x).sum().backward()
        Few.apply(x)
    except TypeError as e:
        print("TypeError")
""")
