"""Programs for tests/golden/gen_forward_ad.py (PyTorch) and tests/engine/test_forward_ad.py (ours).

Each is Python text run with `T` (torch, or autodiff.engine), `fwAD` (T.autograd.forward_ad) and
`AF` (T.autograd.functional) in scope, float64 the default dtype; it leaves what it observes in
the dict `result` (tensors, tuples of them, None). A program whose name ends in "!" is expected to
raise: the exception's type and message are what is compared.
"""

PROGRAMS = {
    "jvp_elementwise": """
x = T.tensor([0.3, -1.2, 2.0])
v = T.tensor([1.0, 0.5, -2.0])
with fwAD.dual_level():
    y = fwAD.make_dual(x, v)
    out = (y.sin() * y.exp() + y ** 3 / (1 + y * y)).tanh()
    p, t = fwAD.unpack_dual(out)
    result["primal"], result["tangent"] = p, t
""",
    "jvp_matrix": """
a = T.tensor([[1.0, 2.0], [3.0, -1.0], [0.5, 0.25]])
b = T.tensor([[0.5, -1.5, 2.0], [1.0, 0.0, -0.5]])
va = T.tensor([[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]])
with fwAD.dual_level():
    da = fwAD.make_dual(a, va)
    m = da @ b
    s = T.softmax(m, dim=1)
    n = T.linalg.norm(s @ da, dim=0)
    result["mm"] = fwAD.unpack_dual(m).tangent
    result["softmax"] = fwAD.unpack_dual(s).tangent
    result["norm"] = fwAD.unpack_dual(n).tangent
""",
    "jvp_reductions_views": """
x = T.tensor([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]])
v = T.tensor([[1.0, 0.0, -1.0], [2.0, 1.0, 0.5]])
with fwAD.dual_level():
    d = fwAD.make_dual(x, v)
    result["sum"] = fwAD.unpack_dual(d.sum(dim=1)).tangent
    result["max"] = fwAD.unpack_dual(d.max(dim=0).values).tangent
    result["t"] = fwAD.unpack_dual(d.t()[1:]).tangent
    result["cat"] = fwAD.unpack_dual(T.cat([d, d * 2], dim=0)).tangent
    result["logsumexp"] = fwAD.unpack_dual(T.logsumexp(d, dim=1)).tangent
    result["cumprod"] = fwAD.unpack_dual(T.cumprod(d, dim=1)).tangent
""",
    "jvp_linalg": """
a = T.tensor([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]])
v = T.tensor([[0.1, -0.2, 0.3], [0.0, 0.5, -0.1], [0.2, 0.1, 0.4]])
with fwAD.dual_level():
    d = fwAD.make_dual(a, v)
    result["det"] = fwAD.unpack_dual(T.linalg.det(d)).tangent
    result["inv"] = fwAD.unpack_dual(T.linalg.inv(d)).tangent
    result["cholesky"] = fwAD.unpack_dual(T.linalg.cholesky(d @ d.T)).tangent
""",
    "inplace_and_views": """
x = T.tensor([1.0, 2.0, 3.0])
v = T.tensor([1.0, 1.0, 1.0])
with fwAD.dual_level():
    d = fwAD.make_dual(x.clone(), v.clone())
    d[1:].mul_(3)
    result["after_view_write"] = fwAD.unpack_dual(d).tangent
    z = T.zeros(4)
    z[:3] = d * d
    result["written_into_plain"] = fwAD.unpack_dual(z).tangent
    w = T.ones(3)
    w.copy_(d.exp())
    result["copy_"] = fwAD.unpack_dual(w).tangent
""",
    "views_and_primals": """
with fwAD.dual_level():
    d = fwAD.make_dual(T.tensor([1.0, 2.0]), T.tensor([5.0, 7.0]))
    y = T.zeros(4)
    w = y[1:3]                      # a view made before its base has a tangent
    y.add_(T.cat([d, d]))
    result["view_made_before"] = fwAD.unpack_dual(w).tangent
    z = T.zeros(2, 3)
    z.t()[0].copy_(d)               # written through a view of a plain tensor
    result["written_through_view"] = fwAD.unpack_dual(z).tangent
    p = fwAD.unpack_dual(d * 2).primal
    result["primal"] = fwAD.unpack_dual(p).tangent
    result["view_of_primal"] = fwAD.unpack_dual(p[0]).tangent
    result["op_of_primal"] = fwAD.unpack_dual(p * 3).tangent
""",
    "forward_over_reverse": """
x = T.tensor([0.5, -1.0, 2.0], requires_grad=True)
v = T.tensor([1.0, 2.0, -0.5])
with fwAD.dual_level():
    d = fwAD.make_dual(x, v)
    y = (d.sin() * d.pow(2)).sum() + d.prod()
    g, = T.autograd.grad(y, d)
    result["grad"], result["hvp"] = fwAD.unpack_dual(g)
""",
    "custom_function_jvp": """
class Cube(T.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_forward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, g):
        return g

    @staticmethod
    def jvp(ctx, t):
        x, = ctx.saved_tensors
        return 3 * x * x * t

x = T.tensor([1.0, -2.0])
with fwAD.dual_level():
    d = fwAD.make_dual(x, T.tensor([0.5, 1.0]))
    result["cube"] = fwAD.unpack_dual(Cube.apply(d).sin()).tangent
""",
    "functional": """
def f(x, y):
    return (x * y.sum()).exp(), (x ** 2).sum() * y

x = T.tensor([0.2, -0.4, 0.1])
y = T.tensor([1.0, 0.5])
result["jvp"] = AF.jvp(f, (x, y), (T.tensor([1.0, 0.0, -1.0]), T.tensor([0.5, 0.5])))
result["jacobian_forward"] = AF.jacobian(f, (x, y), strategy="forward-mode", vectorize=True)
result["hvp"] = AF.hvp(lambda x: (x.sin() ** 2).sum() * x.sum(), x, T.tensor([1.0, 2.0, 3.0]))
result["hessian_forward"] = AF.hessian(lambda x: (x.exp() * x).sum(), x, outer_jacobian_strategy="forward-mode",
                                       vectorize=True)
""",
    "make_dual_outside_level!": """
fwAD.make_dual(T.ones(2), T.ones(2))
""",
    "make_dual_wrong_size!": """
with fwAD.dual_level():
    fwAD.make_dual(T.ones(2), T.ones(3))
""",
    "make_dual_integer_primal!": """
with fwAD.dual_level():
    fwAD.make_dual(T.tensor([1, 2]), T.ones(2))
""",
    "make_dual_integer_tangent!": """
with fwAD.dual_level():
    fwAD.make_dual(T.ones(2), T.tensor([1, 2]))
""",
    "make_dual_of_dual!": """
with fwAD.dual_level():
    d = fwAD.make_dual(T.ones(2), T.ones(2))
    fwAD.make_dual(d, T.ones(2))
""",
    "nested_level!": """
with fwAD.dual_level():
    with fwAD.dual_level():
        pass
""",
    "exit_without_level!": """
fwAD.exit_dual_level()
""",
    "function_without_jvp!": """
class Double(T.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2

with fwAD.dual_level():
    Double.apply(fwAD.make_dual(T.ones(2), T.ones(2)))
""",
    "jvp_wrong_count!": """
class Two(T.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2

    @staticmethod
    def jvp(ctx, t):
        return t, t

with fwAD.dual_level():
    Two.apply(fwAD.make_dual(T.ones(2), T.ones(2)))
""",
    "gradcheck_forward_mismatch!": """
class Exp(T.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_forward(x)
        return x.exp()

    @staticmethod
    def backward(ctx, g):
        return g

    @staticmethod
    def jvp(ctx, t):
        x, = ctx.saved_tensors
        return t * x.exp() * 2

x = T.tensor([0.5, 1.0], requires_grad=True)
T.autograd.gradcheck(Exp.apply, (x,), check_forward_ad=True, check_backward_ad=False)
""",
    "hvp_strict_linear!": """
AF.hvp(lambda a: a.sum(), T.ones(2), T.ones(2), strict=True)
""",
    "hvp_strict_independent!": """
AF.hvp(lambda a, b: (a ** 2).sum(), (T.ones(2), T.ones(2)), (T.ones(2), T.ones(2)), strict=True)
""",
    "jvp_strict_independent!": """
AF.jvp(lambda a: T.ones(2), T.ones(2), T.ones(2), strict=True)
""",
    "jvp_v_wrong_size!": """
AF.jvp(lambda a: a * 2, T.ones(2), T.ones(3))
""",
    "jacobian_forward_strict!": """
AF.jacobian(lambda a: a, T.ones(2), strategy="forward-mode", vectorize=True, strict=True)
""",
    "jacobian_forward_needs_vectorize!": """
AF.jacobian(lambda x: x * 2, T.ones(2), strategy="forward-mode")
""",
}
