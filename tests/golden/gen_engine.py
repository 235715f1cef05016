"""Regenerate tests/golden/engine.json from PyTorch itself.

Run with a Python that has PyTorch 2.13 (`pip install torch==2.13.0`; not a dependency of the
test suite):

    python tests/golden/gen_engine.py

Each case is a small program written against a namespace `T` that means the
same thing for PyTorch and for our engine; it leaves its observations in a
dict `result`. Here `T` is torch (default dtype float64, as ours) plus a small
shim:

    T.grad        torch.autograd.grad            (engine: ad.grad)
    T.backward    torch.autograd.backward        (engine: ad.backward)
    T.jacobian_f  torch.autograd.functional.jacobian   (engine: ad.jacobian(f, x))
    T.hessian_f   torch.autograd.functional.hessian    (engine: ad.hessian(f, x))
    T.SGD, T.Adam torch.optim.SGD / torch.optim.Adam   (engine: ad.SGD / ad.Adam)
    T.linear      torch.nn.functional.linear     (engine: ad.linear)

tests/engine/test_golden_engine.py runs the same program text with `T` built from
`autodiff.engine` and compares every recorded value.

Encoding of a recorded value (see `encode`):
    tensor -> {"kind": "tensor", "dtype": "float64", "shape": [...], "values": nested lists}
    tuple/list -> {"kind": "tuple"|"list", "items": [...]}
    None -> {"kind": "none"}; bool/int/float/str -> {"kind": ..., "value": v}
Floats are written with repr (shortest round-trip, i.e. full float64
precision); nan/inf as the strings "nan", "inf", "-inf".
"""
import json
import math
import os
import sys
import textwrap
import warnings

import torch
import torch.nn.functional
import torch.autograd.functional

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "engine.json")


class TorchNamespace:
    """`T` for PyTorch: torch itself, plus the shim names listed above."""

    grad = staticmethod(torch.autograd.grad)
    backward = staticmethod(torch.autograd.backward)
    jacobian_f = staticmethod(torch.autograd.functional.jacobian)
    hessian_f = staticmethod(torch.autograd.functional.hessian)
    SGD = torch.optim.SGD
    Adam = torch.optim.Adam
    linear = staticmethod(torch.nn.functional.linear)

    def __getattr__(self, name):
        return getattr(torch, name)


def encode_floats(values):
    if isinstance(values, list):
        return [encode_floats(v) for v in values]
    if isinstance(values, float):
        if math.isnan(values):
            return "nan"
        if math.isinf(values):
            return "inf" if values > 0 else "-inf"
    return values


def encode(v):
    if isinstance(v, torch.Tensor):
        return {"kind": "tensor", "dtype": str(v.dtype).replace("torch.", ""),
                "shape": list(v.shape), "values": encode_floats(v.detach().tolist())}
    if v is None:
        return {"kind": "none"}
    if isinstance(v, bool):
        return {"kind": "bool", "value": v}
    if isinstance(v, int):
        return {"kind": "int", "value": v}
    if isinstance(v, float):
        return {"kind": "float", "value": encode_floats(v)}
    if isinstance(v, str):
        return {"kind": "str", "value": v}
    if isinstance(v, tuple):  # torch.Size and namedtuples included
        return {"kind": "tuple", "items": [encode(x) for x in v]}
    if isinstance(v, list):
        return {"kind": "list", "items": [encode(x) for x in v]}
    raise TypeError(f"cannot record {type(v).__name__}: {v!r}")


CASES = []


def case(name, program):
    CASES.append((name, textwrap.dedent(program).strip() + "\n"))


# ---------------------------------------------------------------- arithmetic
case("arith_composite", """
    x = T.tensor([[0.5, -1.2], [2.0, 0.3]], requires_grad=True)
    y = T.tensor([[1.5, 0.25], [-0.7, 3.0]], requires_grad=True)
    z = (x + y) * x - y / (x + 2.0) + 3.0 - x * 0.5
    w = 2.0 - z / 4.0 + 1.0 / (y * y + 1.0) - (-x)
    loss = (w * w).sum()
    loss.backward()
    result = {'z': z, 'w': w, 'loss': loss, 'x.grad': x.grad, 'y.grad': y.grad}
""")

case("arith_second_order", """
    x = T.tensor([0.3, -1.1, 2.5], requires_grad=True)
    y = T.tensor([1.2, 0.4, -0.8], requires_grad=True)
    f = (x * y / (1.0 + x * x) - y / (x - 3.0)).sum()
    gx, gy = T.grad(f, (x, y), create_graph=True)
    hxx, hxy = T.grad(gx.sum(), (x, y), retain_graph=True)
    hyy, = T.grad(gy.sum(), y, allow_unused=True)
    result = {'f': f, 'gx': gx, 'gy': gy, 'hxx': hxx, 'hxy': hxy, 'hyy': hyy}
""")

case("arith_same_leaf_many_uses", """
    x = T.tensor(1.7, requires_grad=True)
    y = x * x * x - x / x + (x + x) * (x - 1.0)
    y.backward()
    result = {'y': y, 'x.grad': x.grad}
""")

# ---------------------------------------------------------------- pow
case("pow_scalar_exponents", """
    x = T.tensor([0.5, 1.5, 2.0, 3.25], requires_grad=True)
    a = x ** 3
    b = x ** 0.5
    c = x ** -1.5
    d = T.pow(x, 2)
    e = x.pow(0)
    f = (a + b + c + d + e).sum()
    g, = T.grad(f, x, create_graph=True)
    h, = T.grad(g.sum(), x, create_graph=True)
    k, = T.grad(h.sum(), x)
    result = {'f': f, 'g': g, 'h': h, 'k': k}
""")

case("pow_tensor_exponent", """
    x = T.tensor([0.5, 1.5, 2.0], requires_grad=True)
    p = T.tensor([2.0, -0.5, 1.3], requires_grad=True)
    y = x ** p
    s = y.sum()
    gx, gp = T.grad(s, (x, p), create_graph=True)
    hxx, hxp = T.grad(gx.sum(), (x, p), retain_graph=True)
    hpx, hpp = T.grad(gp.sum(), (x, p))
    result = {'y': y, 'gx': gx, 'gp': gp, 'hxx': hxx, 'hxp': hxp, 'hpx': hpx, 'hpp': hpp}
""")

case("pow_scalar_base", """
    x = T.tensor([-1.0, 0.0, 0.5, 2.0], requires_grad=True)
    y = 2.0 ** x + 0.5 ** (x * 2.0)
    g, = T.grad(y.sum(), x, create_graph=True)
    h, = T.grad(g.sum(), x)
    result = {'y': y, 'g': g, 'h': h}
""")

case("pow_zero_base", """
    x = T.tensor([0.0, 0.0, 2.0], requires_grad=True)
    p = T.tensor([2.0, 0.0, 3.0], requires_grad=True)
    y = x ** p
    y.sum().backward()
    z = T.tensor([0.0, 1.0], requires_grad=True)
    w = (z ** 2).sum() + (z ** 0.0).sum()
    w.backward()
    result = {'y': y, 'x.grad': x.grad, 'p.grad': p.grad, 'w': w, 'z.grad': z.grad}
""")

# ---------------------------------------------------------------- unary
case("exp_log_sqrt", """
    x = T.tensor([[0.25, 1.0], [2.5, 4.0]], requires_grad=True)
    y = T.exp(-x) * T.log(x + 1.0) + T.sqrt(x) / x.exp() + x.log() * x.sqrt()
    g, = T.grad(y.sum(), x, create_graph=True)
    h, = T.grad(g.sum(), x)
    result = {'y': y, 'g': g, 'h': h}
""")

case("trig_third_order", """
    x = T.tensor([-0.7, 0.1, 0.9, 1.3], requires_grad=True)
    y = T.sin(x) * T.cos(2.0 * x) + T.tan(x / 2.0)
    g1, = T.grad(y.sum(), x, create_graph=True)
    g2, = T.grad(g1.sum(), x, create_graph=True)
    g3, = T.grad(g2.sum(), x)
    result = {'y': y, 'g1': g1, 'g2': g2, 'g3': g3}
""")

case("tanh_sigmoid_higher", """
    x = T.tensor([-2.0, -0.3, 0.0, 0.8, 3.0], requires_grad=True)
    y = T.tanh(x) + T.sigmoid(2.0 * x) * x.tanh() + x.sigmoid()
    g1, = T.grad(y.sum(), x, create_graph=True)
    g2, = T.grad(g1.sum(), x, create_graph=True)
    g3, = T.grad(g2.sum(), x)
    result = {'y': y, 'g1': g1, 'g2': g2, 'g3': g3}
""")

case("relu_abs_neg", """
    x = T.tensor([-2.0, -0.5, 0.0, 0.7, 3.0], requires_grad=True)
    y = T.relu(x) * 2.0 + T.abs(x) * x - (-x).relu() + x.abs() + T.neg(x) * 0.25
    y.sum().backward()
    result = {'y': y, 'x.grad': x.grad}
""")

case("relu_abs_second_order", """
    x = T.tensor([-1.5, 0.5, 2.0], requires_grad=True)
    y = (T.relu(x) ** 3 + T.abs(x) ** 3).sum()
    g, = T.grad(y, x, create_graph=True)
    h, = T.grad(g.sum(), x)
    result = {'y': y, 'g': g, 'h': h}
""")

case("clamp_variants", """
    x = T.tensor([-2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0], requires_grad=True)
    a = T.clamp(x, -1.0, 1.0)
    b = x.clamp(min=-0.5)
    c = T.clamp(x, max=0.5)
    d = T.clamp_min(x, 0.0) + T.clamp_max(x, 0.0)
    y = (a * 1.0 + b * 10.0 + c * 100.0 + d * 1000.0).sum()
    y.backward()
    result = {'a': a, 'b': b, 'c': c, 'd': d, 'x.grad': x.grad}
""")

case("clamp_second_order", """
    x = T.tensor([-2.0, 0.3, 0.9, 2.0], requires_grad=True)
    y = (T.clamp(x * x, 0.1, 1.0) * x).sum()
    g, = T.grad(y, x, create_graph=True)
    h, = T.grad(g.sum(), x)
    result = {'y': y, 'g': g, 'h': h}
""")

case("maximum_minimum_where", """
    x = T.tensor([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]], requires_grad=True)
    y = T.tensor([[0.0, -1.0, 5.0], [2.0, 1.0, -3.0]], requires_grad=True)
    a = T.maximum(x, y)
    b = T.minimum(x, y * 2.0)
    c = T.where(x > y, x * x, -y)
    d = x.maximum(y) * y.minimum(x)
    loss = (a + 2.0 * b + 3.0 * c + d).sum()
    loss.backward()
    result = {'a': a, 'b': b, 'c': c, 'd': d, 'x.grad': x.grad, 'y.grad': y.grad}
""")

case("maximum_minimum_ties", """
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = T.tensor([1.0, 0.0, 3.0], requires_grad=True)
    loss = (T.maximum(x, y) * T.tensor([1.0, 2.0, 4.0])).sum() + (T.minimum(x, y) * 10.0).sum()
    loss.backward()
    result = {'loss': loss, 'x.grad': x.grad, 'y.grad': y.grad}
""")

case("where_broadcast_scalar_branch", """
    x = T.tensor([[-1.0, 2.0], [3.0, -4.0]], requires_grad=True)
    b = T.tensor([0.5, -0.5], requires_grad=True)
    y = T.where(x > 0, x * b, b)
    y.backward(T.tensor([[1.0, 2.0], [3.0, 4.0]]))
    result = {'y': y, 'x.grad': x.grad, 'b.grad': b.grad}
""")

# ---------------------------------------------------------------- reductions
case("sum_mean_dims", """
    x = T.tensor([[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [[-1.0, 0.5, 2.5], [3.5, -2.0, 0.25]]], requires_grad=True)
    a = x.sum()
    b = x.sum(dim=1)
    c = T.sum(x, dim=(0, 2), keepdim=True)
    d = x.mean()
    e = x.mean(dim=-1, keepdim=True)
    f = T.mean(x, dim=(1, 2))
    loss = a + (b ** 2).sum() + (c * 3.0).sum() + d * 5.0 + (e ** 3).sum() + (f * f).sum()
    loss.backward()
    result = {'a': a, 'b': b, 'c': c, 'd': d, 'e': e, 'f': f, 'x.grad': x.grad}
""")

case("prod_with_zeros", """
    x = T.tensor([[2.0, 3.0, 0.5], [0.0, 4.0, -1.0], [0.0, 0.0, 2.0]], requires_grad=True)
    p = x.prod()
    r = x.prod(dim=1)
    c = T.prod(x, dim=0, keepdim=True)
    loss = p + (r * T.tensor([1.0, 2.0, 3.0])).sum() + c.sum()
    loss.backward()
    result = {'p': p, 'r': r, 'c': c, 'x.grad': x.grad}
""")

case("prod_second_order", """
    x = T.tensor([1.5, -2.0, 0.5, 3.0], requires_grad=True)
    y = x.prod()
    g, = T.grad(y, x, create_graph=True)
    h, = T.grad(g.sum(), x)
    z = T.tensor([0.0, 2.0, 3.0], requires_grad=True)
    gz, = T.grad(z.prod(), z, create_graph=True)
    hz, = T.grad(gz.sum(), z)
    result = {'y': y, 'g': g, 'h': h, 'gz': gz, 'hz': hz}
""")

case("max_min_whole_and_dim", """
    x = T.tensor([[1.0, 5.0, -2.0], [3.0, 0.5, 4.0]], requires_grad=True)
    m = x.max()
    n = T.min(x)
    md = x.max(dim=1)
    nd = T.min(x, dim=0, keepdim=True)
    loss = m * 2.0 + n * 3.0 + (md.values * T.tensor([1.0, 10.0])).sum() + (nd.values ** 2).sum()
    loss.backward()
    result = {'m': m, 'n': n, 'md.values': md.values, 'md.indices': md.indices,
              'nd.values': nd.values, 'nd.indices': nd.indices, 'x.grad': x.grad}
""")

case("max_ties", """
    x = T.tensor([[2.0, 7.0, 7.0], [7.0, 1.0, 1.0]], requires_grad=True)
    m = x.max()
    m.backward()
    g_whole = x.grad.clone()
    x.grad = None
    n = x.min(dim=1)
    n.values.sum().backward()
    result = {'m': m, 'g_whole': g_whole, 'n.values': n.values, 'n.indices': n.indices, 'g_dim': x.grad}
""")

case("norm_variants", """
    x = T.tensor([[3.0, -4.0, 1.0], [0.5, 2.0, -2.0]], requires_grad=True)
    a = x.norm()
    b = T.norm(x, dim=1)
    c = x.norm(dim=0, keepdim=True)
    d = x.norm(p=1)
    e = T.norm(x, p=3, dim=1)
    loss = a + (b * T.tensor([1.0, 2.0])).sum() + c.sum() + d + e.sum()
    g, = T.grad(loss, x, create_graph=True)
    h, = T.grad(g.sum(), x)
    result = {'a': a, 'b': b, 'c': c, 'd': d, 'e': e, 'g': g, 'h': h}
""")

case("normalize_rows_jacobian", """
    def f(v):
        return v / v.norm(dim=-1, keepdim=True)
    x = T.tensor([[1.0, 2.0, 2.0], [0.0, 3.0, -4.0]])
    J = T.jacobian_f(f, x)
    result = {'f': f(x), 'J': J}
""")

# ---------------------------------------------------------------- softmax family
case("softmax_log_softmax_logsumexp", """
    x = T.tensor([[1.0, 2.0, 0.5], [-1.0, 0.0, 3.0]], requires_grad=True)
    s = T.softmax(x, dim=1)
    ls = T.log_softmax(x, dim=-1)
    s0 = x.softmax(0)
    lse = T.logsumexp(x, dim=1)
    lsek = x.logsumexp(dim=0, keepdim=True)
    w = T.tensor([[1.0, -2.0, 3.0], [0.5, 0.25, -1.0]])
    loss = (s * w).sum() + (ls * w).sum() + (s0 * w).sum() + lse.sum() + (lsek ** 2).sum()
    g, = T.grad(loss, x, create_graph=True)
    h, = T.grad((g * w).sum(), x)
    result = {'s': s, 'ls': ls, 's0': s0, 'lse': lse, 'lsek': lsek, 'loss': loss, 'g': g, 'h': h}
""")

case("softmax_large_values", """
    x = T.tensor([1000.0, 1001.0, 999.0, -1000.0], requires_grad=True)
    s = T.softmax(x, dim=0)
    lse = T.logsumexp(x, dim=0)
    ls = T.log_softmax(x, dim=0)
    loss = s[1] + lse + ls[0]
    loss.backward()
    result = {'s': s, 'lse': lse, 'ls': ls, 'x.grad': x.grad}
""")

case("cross_entropy_manual", """
    logits = T.tensor([[2.0, 1.0, 0.1], [0.5, 2.5, 0.3], [1.2, 0.2, 3.1], [0.0, 0.0, 0.0]], requires_grad=True)
    target = T.tensor([0, 1, 2, 1])
    lp = T.log_softmax(logits, dim=1)
    loss = -lp[T.tensor([0, 1, 2, 3]), target].mean()
    loss.backward()
    result = {'loss': loss, 'logits.grad': logits.grad}
""")

# ---------------------------------------------------------------- linear algebra
case("mm_matmul_dot", """
    A = T.tensor([[1.0, 2.0, -1.0], [0.5, -3.0, 2.0]], requires_grad=True)
    B = T.tensor([[2.0, 0.0], [1.0, -1.0], [0.5, 4.0]], requires_grad=True)
    v = T.tensor([1.0, -2.0, 0.5], requires_grad=True)
    u = T.tensor([3.0, 0.25, -1.0], requires_grad=True)
    C = T.mm(A, B)
    D = A @ B
    mv = T.matmul(A, v)
    d = T.dot(v, u)
    vm = T.matmul(v, B)
    loss = (C * D).sum() + (mv ** 2).sum() + d * 3.0 + vm.sum()
    loss.backward()
    result = {'C': C, 'mv': mv, 'd': d, 'vm': vm, 'A.grad': A.grad, 'B.grad': B.grad,
              'v.grad': v.grad, 'u.grad': u.grad}
""")

case("matmul_batched_broadcast", """
    X = T.tensor([[[1.0, 2.0], [3.0, 4.0], [0.5, -1.0]], [[-2.0, 1.0], [0.0, 1.5], [2.0, 2.0]]], requires_grad=True)
    W = T.tensor([[0.5, -1.0, 2.0, 0.25], [1.5, 0.0, -0.5, 1.0]], requires_grad=True)
    Y = T.matmul(X, W)
    Z = Y @ W.t()
    loss = (Z * Z).mean()
    loss.backward()
    result = {'Y': Y, 'Z': Z, 'loss': loss, 'X.grad': X.grad, 'W.grad': W.grad}
""")

case("linear_layer", """
    x = T.tensor([[1.0, -1.0, 2.0], [0.5, 0.5, -0.5]], requires_grad=True)
    W = T.tensor([[0.1, 0.2, 0.3], [-0.4, 0.5, -0.6]], requires_grad=True)
    b = T.tensor([0.05, -0.05], requires_grad=True)
    y = T.linear(x, W, b)
    z = T.linear(x, W)
    v = T.linear(x[0], W, b)
    loss = (y.tanh() * z).sum() + v.sum()
    loss.backward()
    result = {'y': y, 'z': z, 'v': v, 'x.grad': x.grad, 'W.grad': W.grad, 'b.grad': b.grad}
""")

case("quadratic_form_hessian", """
    A = T.tensor([[2.0, 1.0, 0.0], [1.0, 3.0, -1.0], [0.5, -1.0, 4.0]])
    x = T.tensor([1.0, -2.0, 0.5], requires_grad=True)
    f = x @ A @ x + (x ** 3).sum()
    g, = T.grad(f, x, create_graph=True)
    rows = [T.grad(g[i], x, retain_graph=True)[0] for i in range(3)]
    H = T.stack(rows)
    result = {'f': f, 'g': g, 'H': H}
""")

case("mlp_two_layer", """
    x = T.tensor([[0.2, -0.4, 1.0], [1.5, 0.3, -0.7], [-1.0, 0.8, 0.1], [0.0, -0.2, 0.6]])
    t = T.tensor([1, 0, 1, 1])
    W1 = T.tensor([[0.3, -0.1, 0.5], [0.2, 0.4, -0.3], [-0.6, 0.1, 0.2], [0.05, -0.25, 0.15]], requires_grad=True)
    b1 = T.tensor([0.01, -0.02, 0.03, 0.0], requires_grad=True)
    W2 = T.tensor([[0.2, -0.3, 0.1, 0.4], [-0.1, 0.25, 0.3, -0.2]], requires_grad=True)
    b2 = T.tensor([0.0, 0.1], requires_grad=True)
    h = T.relu(T.linear(x, W1, b1))
    out = T.linear(h, W2, b2)
    loss = -T.log_softmax(out, dim=1)[T.tensor([0, 1, 2, 3]), t].mean() + 0.01 * (W1 ** 2).sum()
    loss.backward()
    result = {'h': h, 'out': out, 'loss': loss, 'W1.grad': W1.grad, 'b1.grad': b1.grad,
              'W2.grad': W2.grad, 'b2.grad': b2.grad}
""")

# ---------------------------------------------------------------- shapes
case("transpose_reshape_view", """
    x = T.tensor([0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0]).reshape(3, 4).requires_grad_()
    a = x.t()
    b = T.transpose(x, 0, 1)
    c = x.reshape(2, 6)
    d = x.view(4, 3)
    e = x.reshape(-1)
    f = x.permute(1, 0).reshape(6, 2)
    w = T.tensor([-5.0, -4.0, -3.0, -2.0, -1.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    loss = (a * b).sum() + (c * w.reshape(2, 6)).sum() + (d ** 2).mean() + (e * w).sum() + (f * w.view(6, 2)).sum()
    loss.backward()
    result = {'a': a, 'c': c, 'f': f, 'loss': loss, 'x.grad': x.grad, 'shape_f': list(f.shape)}
""")

case("squeeze_unsqueeze_expand", """
    x = T.tensor([[1.0], [2.0], [-3.0]], requires_grad=True)
    a = x.squeeze()
    b = x.squeeze(1)
    c = T.unsqueeze(a, 0)
    d = x.expand(3, 4)
    e = c.expand(2, 3)
    f = T.squeeze(x.unsqueeze(-1), dim=2)
    w = T.tensor([[1.0, 2.0, 3.0, 4.0], [0.5, 0.5, 0.5, 0.5], [-1.0, 0.0, 1.0, 2.0]])
    loss = (a * b).sum() + (d * w).sum() + (e ** 2).sum() + (f * 7.0).sum()
    loss.backward()
    result = {'a': a, 'c': c, 'd': d, 'e': e, 'f': f, 'x.grad': x.grad,
              'shapes': [list(a.shape), list(b.shape), list(c.shape), list(f.shape)]}
""")

case("cat_stack", """
    x = T.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    y = T.tensor([[5.0, 6.0]], requires_grad=True)
    k = T.tensor([[0.5, 0.5]])
    a = T.cat([x, y, k], dim=0)
    b = T.cat((x, x * 2.0), dim=1)
    c = T.stack([x, x.t()], dim=0)
    d = T.stack([x[0], y[0]], dim=1)
    loss = (a * T.tensor([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0], [6.0, 7.0]])).sum() + (b ** 2).sum() + (c * T.tensor([[[0.0, 1.0], [2.0, 3.0]], [[4.0, 5.0], [6.0, 7.0]]])).sum() + d.prod()
    loss.backward()
    result = {'a': a, 'b': b, 'c': c, 'd': d, 'x.grad': x.grad, 'y.grad': y.grad}
""")

case("indexing_basic", """
    x = T.tensor([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]], requires_grad=True)
    a = x[0]
    b = x[:, 1:3]
    c = x[-1, ::2]
    d = x[1, 2]
    e = x[..., -1]
    f = x[None, 1:, :2]
    loss = (a * 2.0).sum() + (b ** 2).sum() + c.sum() * 3.0 + d * 5.0 + e.prod() + f.sum()
    loss.backward()
    result = {'a': a, 'b': b, 'c': c, 'd': d, 'e': e, 'f': f, 'x.grad': x.grad}
""")

case("indexing_advanced", """
    x = T.tensor([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0], [0.5, 0.25, 2.0]], requires_grad=True)
    a = x[[0, 2, 0]]
    b = x[x > 1.0]
    c = x[T.tensor([2, 1]), T.tensor([0, 0])]
    d = x[:, [2, 2]]
    loss = (a * 2.0).sum() + (b ** 2).sum() + c.sum() * 10.0 + d.sum()
    loss.backward()
    result = {'a': a, 'b': b, 'c': c, 'd': d, 'x.grad': x.grad}
""")

case("indexing_second_order", """
    x = T.tensor([0.5, -1.0, 2.0, 1.5], requires_grad=True)
    y = x[1:] * x[:-1] + x[[0, 0, 3]] ** 2
    g, = T.grad(y.sum(), x, create_graph=True)
    h, = T.grad((g * x).sum(), x)
    result = {'y': y, 'g': g, 'h': h}
""")

# ---------------------------------------------------------------- broadcasting
case("broadcast_binary", """
    a = T.tensor([[1.0], [2.0], [3.0]], requires_grad=True)
    b = T.tensor([[0.5, -1.0, 2.0, 4.0]], requires_grad=True)
    c = T.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    s = T.tensor(2.0, requires_grad=True)
    y = (a + b) * c - s / (b * b + a) + s ** c
    y.backward(T.ones(3, 4))
    result = {'y': y, 'a.grad': a.grad, 'b.grad': b.grad, 'c.grad': c.grad, 's.grad': s.grad}
""")

case("broadcast_3d", """
    x = T.tensor([[[1.0, 2.0]], [[3.0, -1.0]]], requires_grad=True)
    y = T.tensor([[0.5, 1.0], [2.0, -2.0], [1.0, 0.0]], requires_grad=True)
    z = T.maximum(x * y, y - x)
    loss = (z * T.tensor([[[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]], [[6.0, 7.0], [8.0, 9.0], [10.0, 11.0]]])).sum()
    loss.backward()
    result = {'z': z, 'x.grad': x.grad, 'y.grad': y.grad}
""")

case("broadcast_second_order", """
    x = T.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
    y = T.tensor([[0.5], [-1.0]], requires_grad=True)
    f = (T.exp(x * y) / (1.0 + x)).sum()
    gx, gy = T.grad(f, (x, y), create_graph=True)
    hxy, = T.grad(gx.sum(), y)
    result = {'f': f, 'gx': gx, 'gy': gy, 'hxy': hxy}
""")

# ---------------------------------------------------------------- higher order
case("seed_x_squared", """
    x = T.tensor(3.0, requires_grad=True)
    y = x ** 2
    g, = T.grad(y, x, create_graph=True)
    h, = T.grad(g, x)
    result = {'g': g, 'h': h, 'g.requires_grad': g.requires_grad, 'h.requires_grad': h.requires_grad}
""")

case("third_order_sin_exp", """
    x = T.tensor([[0.5, -1.2], [2.0, 0.3]], requires_grad=True)
    y = (T.sin(x) * x.exp()).sum()
    g, = T.grad(y, x, create_graph=True)
    h, = T.grad(g.sum(), x, create_graph=True)
    k, = T.grad(h.sum(), x)
    result = {'y': y, 'g': g, 'h': h, 'k': k}
""")

case("mixed_partials", """
    x = T.tensor(0.7, requires_grad=True)
    y = T.tensor(-1.3, requires_grad=True)
    f = x * y ** 2 + T.exp(x * y) + T.log(x * x + y * y)
    fx, fy = T.grad(f, (x, y), create_graph=True)
    fxx, fxy = T.grad(fx, (x, y), create_graph=True)
    fyx, fyy = T.grad(fy, (x, y), create_graph=True)
    fxyy, = T.grad(fxy, y)
    result = {'f': f, 'fx': fx, 'fy': fy, 'fxx': fxx, 'fxy': fxy, 'fyx': fyx, 'fyy': fyy, 'fxyy': fxyy}
""")

case("backward_create_graph", """
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = (x ** 3).sum()
    y.backward(create_graph=True)
    g = x.grad
    z = (g * g).sum()
    x.grad = None
    z.backward()
    result = {'g': g, 'g.requires_grad': g.requires_grad, 'x.grad': x.grad}
""")

case("fourth_order_tanh", """
    x = T.tensor(0.4, requires_grad=True)
    y = T.tanh(x)
    ds = []
    for _ in range(4):
        y, = T.grad(y, x, create_graph=True)
        ds.append(y)
    result = {'d': tuple(ds)}
""")

# ---------------------------------------------------------------- backward API
case("weighted_backward", """
    x = T.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    y = x ** 2 + 3.0 * x
    y.backward(gradient=T.tensor([[1.0, 0.5], [-1.0, 2.0]]))
    result = {'y': y, 'x.grad': x.grad}
""")

case("seed_cat_weighted", """
    w = T.tensor([1.0], requires_grad=True)
    x = T.tensor([2.0], requires_grad=True)
    a = w + x
    b = w + 1.0
    y0 = a * b
    y1 = a + b
    loss = T.cat([y0, y1])
    loss.backward(gradient=T.tensor([1.0, 2.0]))
    result = {'loss': loss, 'w.grad': w.grad, 'x.grad': x.grad}
""")

case("seed_mm_weighted_twice", """
    x = T.tensor([[1.0, 2.0]], requires_grad=True)
    y = T.tensor([[3.0, 4.0], [5.0, 6.0]], requires_grad=True)
    loss = T.mm(x, y)
    loss.backward(T.tensor([[1.0, 0.0]]), retain_graph=True)
    first = x.grad.clone()
    x.grad.zero_()
    loss.backward(T.tensor([[0.0, 1.0]]))
    result = {'loss': loss, 'first': first, 'second': x.grad, 'y.grad': y.grad}
""")

case("module_backward_several_roots", """
    x = T.tensor([1.0, -2.0, 0.5], requires_grad=True)
    w = T.tensor(1.5, requires_grad=True)
    y1 = x * w
    y2 = (x ** 2).sum()
    y3 = T.exp(x * 0.5)
    T.backward([y1, y2, y3], [T.tensor([1.0, 2.0, 3.0]), T.tensor(0.5), T.tensor([-1.0, 0.0, 1.0])])
    result = {'x.grad': x.grad, 'w.grad': w.grad}
""")

case("module_backward_default_grads", """
    x = T.tensor([1.0, 3.0], requires_grad=True)
    a = (x * x).sum()
    b = x.prod()
    T.backward([a, b])
    result = {'x.grad': x.grad}
""")

case("grad_several_outputs_summed", """
    x1 = T.tensor(1.0, requires_grad=True)
    x2 = T.tensor(2.0, requires_grad=True)
    y1 = x1 * x2
    y2 = x1 + x2
    g1 = T.grad(y1, [x1, x2], retain_graph=True)
    g2 = T.grad([y1, y2], [x1, x2])
    result = {'g1': g1, 'g2': g2, 'x1.grad': x1.grad}
""")

case("grad_outputs_weights", """
    x = T.tensor([0.5, 1.0, 2.0], requires_grad=True)
    y = T.tensor([1.0, -1.0], requires_grad=True)
    a = x * 3.0
    b = y.exp()
    ga, gb = T.grad([a, b.sum() * x], [x, y], grad_outputs=[T.tensor([1.0, 2.0, 3.0]), T.tensor([1.0, 0.0, -1.0])])
    result = {'ga': ga, 'gb': gb}
""")

case("grad_allow_unused", """
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = T.tensor([3.0, 4.0], requires_grad=True)
    z = T.tensor(5.0, requires_grad=True)
    out = (x * 2.0).sum()
    gx, gy, gz = T.grad(out, (x, y, z), allow_unused=True, retain_graph=True)
    try:
        T.grad(out, (x, y))
        raised = False
    except RuntimeError:
        raised = True
    result = {'gx': gx, 'gy': gy, 'gz': gz, 'raised': raised, 'x.grad': x.grad}
""")

case("backward_inputs_restricted", """
    a = T.tensor([1.0, 2.0], requires_grad=True)
    b = T.tensor([3.0, -1.0], requires_grad=True)
    c = T.tensor(0.5, requires_grad=True)
    y = (a * b * c).sum()
    y.backward(inputs=[a, c], retain_graph=True)
    ga, gb, gc = a.grad, b.grad, c.grad
    y.backward(inputs=[b])
    result = {'ga': ga, 'gb': gb, 'gc': gc, 'a.grad': a.grad, 'b.grad': b.grad, 'c.grad': c.grad}
""")

case("backward_inputs_nonleaf", """
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    h = x * x
    y = (h * 2.0).sum()
    y.backward(inputs=[h])
    result = {'h.grad': h.grad, 'x.grad': x.grad}
""")

case("seed_retain_grad_accumulate", """
    w = T.tensor([1.0], requires_grad=True)
    x = T.tensor([2.0], requires_grad=True)
    a = T.add(w, x)
    a.retain_grad()
    b = T.add(w, 1.0)
    y = T.mul(a, b)
    y.backward(retain_graph=True)
    first = (w.grad.clone(), x.grad.clone(), a.grad.clone())
    y.backward()
    result = {'first': first, 'w.grad': w.grad, 'x.grad': x.grad, 'a.grad': a.grad,
              'is_leaf': [w.is_leaf, x.is_leaf, a.is_leaf, b.is_leaf, y.is_leaf],
              'names': [a.grad_fn.name(), b.grad_fn.name(), y.grad_fn.name()],
              'retains': [a.retains_grad, b.retains_grad]}
""")

case("seed_mean_network_retained", """
    inp = T.ones(2, 2, requires_grad=True)
    w1 = T.tensor(2.0, requires_grad=True)
    w2 = T.tensor(3.0, requires_grad=True)
    w3 = T.tensor(4.0, requires_grad=True)
    l1 = inp * w1
    l2 = l1 + w2
    l3 = l1 * w3
    l4 = l2 * l3
    loss = l4.mean()
    for t in (l1, l2, l3, l4, loss):
        t.retain_grad()
    loss.backward()
    result = {'loss': loss, 'w1.grad': w1.grad, 'w2.grad': w2.grad, 'w3.grad': w3.grad,
              'inp.grad': inp.grad, 'l1.grad': l1.grad, 'l2.grad': l2.grad, 'l3.grad': l3.grad,
              'l4.grad': l4.grad, 'loss.grad': loss.grad}
""")

case("seed_quadratic", """
    a, b, c = T.tensor(1.0), T.tensor(-2.0), T.tensor(1.0)
    x = T.tensor(0.0, requires_grad=True)
    f = a * x ** 2 + b * x + c
    f.backward()
    g0 = x.grad
    X = T.tensor([[0.0, 0.0], [1.0, 2.0]], requires_grad=True)
    F = a * X ** 2 + b * X + c
    F.backward(T.ones_like(F))
    s = T.tensor(0.0, requires_grad=True)
    ds, = T.grad(a * s ** 2 + b * s + c, s, create_graph=True)
    d2, = T.grad(ds, s)
    result = {'f': f, 'g0': g0, 'F': F, 'X.grad': X.grad, 'd2': d2}
""")

case("seed_mean_of_square", """
    x = T.ones(2, 2, requires_grad=True)
    y = x + 2
    z = y * y * 3
    out = z.mean()
    out.backward()
    result = {'z': z, 'out': out, 'x.grad': x.grad, 'names': [y.grad_fn.name(), z.grad_fn.name(), out.grad_fn.name()]}
""")

# ---------------------------------------------------------------- hooks
case("hook_leaf_doubles", """
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    h = x.register_hook(lambda g: g * 2)
    y = (x ** 2).sum()
    y.backward()
    first = x.grad.clone()
    h.remove()
    x.grad = None
    (x ** 2).sum().backward()
    result = {'first': first, 'after_remove': x.grad}
""")

case("hook_nonleaf_modifies_upstream", """
    x = T.tensor([1.0, -1.0], requires_grad=True)
    m = x * 3.0
    m.register_hook(lambda g: g * 2)
    m.retain_grad()
    seen = []
    m.register_hook(lambda g: seen.append(g.clone()))
    y = (m ** 2).sum()
    y.backward()
    result = {'m.grad': m.grad, 'x.grad': x.grad, 'seen': tuple(seen)}
""")

case("hook_chain_and_observe", """
    w1 = T.tensor(2.0, requires_grad=True)
    inp = T.ones(2, 2, requires_grad=True)
    l1 = inp * w1
    l2 = l1 + 3.0
    seen = []
    l1.register_hook(lambda g: seen.append(('l1', g.clone())))
    l2.register_hook(lambda g: g + 1.0)
    w1.register_hook(lambda g: seen.append(('w1', g.clone())))
    loss = (l1 * l2).mean()
    loss.backward()
    result = {'seen': seen, 'w1.grad': w1.grad, 'inp.grad': inp.grad}
""")

case("hook_with_grad_api", """
    x = T.tensor([0.5, 2.0], requires_grad=True)
    m = x.exp()
    m.register_hook(lambda g: g * 10.0)
    y = (m * x).sum()
    g, = T.grad(y, x)
    result = {'g': g, 'x.grad': x.grad}
""")

# ---------------------------------------------------------------- jacobian / hessian
case("jacobian_function", """
    def f(x):
        return T.stack([x[0] * x[1], T.sin(x[1]) + x[2] ** 2, T.exp(x[0] - x[2])])
    x = T.tensor([0.5, -1.0, 2.0])
    J = T.jacobian_f(f, x)
    result = {'J': J}
""")

case("jacobian_two_inputs", """
    def f(a, b):
        return T.mm(a, b).tanh()
    a = T.tensor([[1.0, 0.5], [-0.5, 2.0]])
    b = T.tensor([[0.3, -0.2, 0.1], [0.0, 0.4, -0.5]])
    Ja, Jb = T.jacobian_f(f, (a, b))
    result = {'Ja': Ja, 'Jb': Jb}
""")

case("hessian_function", """
    def f(x):
        return (x[0] ** 2 * x[1] + T.sin(x[2]) * x[0] + (x ** 4).sum()) / 2.0
    x = T.tensor([1.0, -2.0, 0.5])
    H = T.hessian_f(f, x)
    result = {'H': H}
""")

case("hessian_two_inputs", """
    def f(x, y):
        return (x * y.exp()).sum() + (x ** 2).sum() * y[0]
    x = T.tensor([1.0, 2.0])
    y = T.tensor([0.5, -0.5])
    H = T.hessian_f(f, (x, y))
    result = {'H': H}
""")

case("hessian_matrix_input", """
    def f(W):
        return T.logsumexp(W @ T.tensor([1.0, -1.0]), dim=0)
    W = T.tensor([[0.5, 1.0], [2.0, -1.0], [0.0, 0.5]])
    H = T.hessian_f(f, W)
    result = {'H': H, 'shape': list(H.shape)}
""")

# ---------------------------------------------------------------- optimisers
case("sgd_momentum_20_steps", """
    x = T.tensor([3.0, -2.0], requires_grad=True)
    opt = T.SGD([x], lr=0.05, momentum=0.9)
    losses = []
    for _ in range(20):
        opt.zero_grad()
        loss = (x[0] - 1.0) ** 2 + 3.0 * (x[1] + 0.5) ** 2 + x[0] * x[1]
        loss.backward()
        opt.step()
        losses.append(loss.item())
    result = {'x': x, 'losses': losses, 'grad_after_zero': (opt.zero_grad(), x.grad)[1]}
""")

case("sgd_nesterov_weight_decay", """
    x = T.tensor([1.5, -0.5, 2.0], requires_grad=True)
    opt = T.SGD([x], lr=0.1, momentum=0.5, nesterov=True, weight_decay=0.01)
    for _ in range(20):
        opt.zero_grad()
        loss = (T.sin(x) * x).sum() + (x ** 2).sum() * 0.1
        loss.backward()
        opt.step()
    result = {'x': x, 'loss': loss}
""")

case("adam_20_steps", """
    w = T.tensor([[0.5, -1.0], [2.0, 0.25]], requires_grad=True)
    b = T.tensor([0.1, -0.1], requires_grad=True)
    opt = T.Adam([w, b], lr=0.05)
    X = T.tensor([[1.0, 2.0], [-1.0, 0.5], [0.3, -0.7]])
    Y = T.tensor([[0.0, 1.0], [1.0, 0.0], [0.5, 0.5]])
    losses = []
    for _ in range(20):
        opt.zero_grad()
        loss = ((X @ w + b - Y) ** 2).mean()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    result = {'w': w, 'b': b, 'losses': losses}
""")

case("adam_betas_weight_decay", """
    x = T.tensor([2.0, -3.0], requires_grad=True)
    opt = T.Adam([x], lr=0.1, betas=(0.8, 0.99), eps=1e-6, weight_decay=0.05)
    for _ in range(20):
        opt.zero_grad()
        loss = x[0] ** 4 + (x[1] - 1.0) ** 2 + x[0] * x[1]
        loss.backward()
        opt.step()
    result = {'x': x, 'loss': loss}
""")

case("sgd_seed_minimise", """
    x = T.tensor(0.0, requires_grad=True)
    opt = T.SGD([x], lr=0.01)
    for _ in range(500):
        opt.zero_grad()
        f = x ** 2 - 2 * x + 1
        f.backward()
        opt.step()
    result = {'x': x, 'f': f}
""")

# ---------------------------------------------------------------- modes, dtypes, flags
case("no_grad_detach", """
    x = T.tensor([1.0, 2.0], requires_grad=True)
    with T.no_grad():
        a = x * 2.0
    d = x.detach()
    y = (x * d * 3.0 + a).sum()
    y.backward()
    with T.enable_grad():
        e = x * 1.0
    result = {'a.requires_grad': a.requires_grad, 'a.grad_fn': a.grad_fn, 'a.is_leaf': a.is_leaf,
              'd.requires_grad': d.requires_grad, 'e.requires_grad': e.requires_grad,
              'x.grad': x.grad, 'y': y}
""")

case("float32_grads", """
    x = T.tensor([0.1, 0.2, 0.3], dtype=T.float32, requires_grad=True)
    y = (T.exp(x) * T.sin(x) / (1.0 + x)).sum()
    y.backward()
    result = {'y': y, 'x.grad': x.grad}
""")

case("int_and_bool_results", """
    x = T.tensor([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]], requires_grad=True)
    am = x.argmax(dim=1)
    mask = x > 0.7
    n = x.numel()
    it = x.sum().item()
    lst = x.detach().tolist()
    result = {'am': am, 'mask': mask, 'n': n, 'it': it, 'lst': lst,
              'any': bool((x < -1.5).any()), 'all': bool((x > -3.0).all())}
""")

case("errors_raised", """
    out = {}
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2.0
    try:
        y.backward()
        out['nonscalar'] = False
    except RuntimeError:
        out['nonscalar'] = True
    z = (x * x).sum()
    z.backward()
    try:
        z.backward()
        out['second_backward'] = False
    except RuntimeError:
        out['second_backward'] = True
    try:
        x.add_(1.0)
        out['inplace_leaf'] = False
    except RuntimeError:
        out['inplace_leaf'] = True
    a = T.tensor([1.0, 2.0], requires_grad=True)
    b = a + 2.0
    loss = (b * b).mean()
    b[0] = 1000.0
    try:
        loss.backward()
        out['version'] = False
    except RuntimeError:
        out['version'] = True
    result = out
""")

case("creation_arange_linspace", """
    a = T.arange(5)
    b = T.arange(1.0, 2.0, 0.25)
    c = T.arange(2, 11, 3)
    d = T.linspace(-1.0, 1.0, 5)
    e = T.arange(6.0).reshape(2, 3).requires_grad_()
    (e * e).sum().backward()
    result = {'a': a, 'b': b, 'c': c, 'd': d, 'e.grad': e.grad}
""")

case("creation_like_full_eye", """
    x = T.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    o = T.ones_like(x)
    z = T.zeros(2, 3)
    f = T.full((2, 3), 2.5)
    e = T.eye(3)
    y = ((x * o + z) * f) @ e
    y.backward(T.ones(2, 3))
    result = {'o': o, 'z': z, 'f': f, 'e': e, 'y': y, 'x.grad': x.grad,
              'leafs': [o.is_leaf, o.requires_grad, x.is_leaf, y.is_leaf]}
""")


case("dtype_promotion", """
    a = T.tensor([0.5, 1.5], dtype=T.float32, requires_grad=True)
    b = T.tensor([2.0, -1.0], requires_grad=True)
    i = T.tensor([1, 2])
    c = a * b
    d = a * 2.0 + i
    e = i * 0.5
    f = i / T.tensor([2, 4])
    s = i.sum()
    (c.sum() + d.sum()).backward()
    result = {'c': c, 'd': d, 'e': e, 'f': f, 's': s, 'a.grad': a.grad, 'b.grad': b.grad}
""")

case("inplace_on_nonleaf", """
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2.0
    y.mul_(3.0)
    y.add_(x)
    z = x.sin() + 1.0
    z[1] = x[0] * 5.0
    w = x.clone()
    w += 1.0
    with T.no_grad():
        x2 = x.detach().clone()
        x2[0] = 7.0
    loss = (y * y).sum() + z.sum() + (w ** 2).sum()
    loss.backward()
    result = {'y': y, 'z': z, 'w': w, 'x2': x2, 'x.grad': x.grad, 'names': [y.grad_fn.name(), w.grad_fn.name()]}
""")

case("mv_outer_flatten_permute", """
    A = T.tensor([[[1.0, 2.0], [3.0, -1.0]], [[0.5, 0.0], [2.0, 1.5]]], requires_grad=True)
    v = T.tensor([0.5, -2.0], requires_grad=True)
    m = T.mv(A[0], v)
    o = T.outer(v, m)
    p = A.permute(2, 0, 1).flatten()
    q = A.flatten(1)
    r = v.expand_as(A[1]) * A[1]
    loss = (m ** 2).sum() + (o * T.tensor([[1.0, 2.0], [3.0, 4.0]])).sum() + (p * p).sum() + q.sum(0).prod() + r.sum()
    loss.backward()
    result = {'m': m, 'o': o, 'p': p, 'q': q, 'A.grad': A.grad, 'v.grad': v.grad}
""")

case("jacobian_hessian_scalar_input", """
    x = T.tensor(2.0)
    Jx = T.jacobian_f(lambda t: t ** 3, x)
    Hx = T.hessian_f(lambda t: t ** 3, x)
    Jv = T.jacobian_f(lambda t: t * T.tensor([1.0, 2.0, 3.0]), x)
    result = {'Jx': Jx, 'Hx': Hx, 'Jv': Jv}
""")

case("jacobian_tuple_output", """
    a = T.tensor([1.0, 2.0])
    J = T.jacobian_f(lambda t: (t * 2.0, t.sum()), a)
    result = {'J': J}
""")

case("sgd_dampening", """
    x = T.tensor([1.0, -2.0], requires_grad=True)
    opt = T.SGD([x], lr=0.1, momentum=0.8, dampening=0.3)
    for _ in range(20):
        opt.zero_grad()
        loss = (x ** 2 * T.tensor([1.0, 4.0])).sum() + T.sin(x).sum()
        loss.backward()
        opt.step()
    result = {'x': x, 'loss': loss}
""")

case("adam_amsgrad", """
    x = T.tensor([1.0, -2.0, 0.5], requires_grad=True)
    opt = T.Adam([x], lr=0.2, amsgrad=True)
    for _ in range(20):
        opt.zero_grad()
        loss = (x ** 2).sum() + 3.0 * T.cos(x).sum()
        loss.backward()
        opt.step()
    result = {'x': x, 'loss': loss}
""")

case("requires_grad_flags", """
    x = T.tensor([1.0, 2.0])
    a = x * 2.0
    x.requires_grad_()
    b = x * 2.0
    c = b.detach()
    c.requires_grad_(True)
    d = (c * b).sum()
    d.backward()
    result = {'a.rg': a.requires_grad, 'a.leaf': a.is_leaf, 'b.rg': b.requires_grad, 'b.leaf': b.is_leaf,
              'c.leaf': c.is_leaf, 'c.grad': c.grad, 'x.grad': x.grad, 'b.grad': b.grad}
""")


# ---------------------------------------------------------------- node names
case("names_arith", """
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = T.tensor([3.0, 4.0], requires_grad=True)
    result = {
        'add': (x + y).grad_fn.name(), 'add_scalar': (x + 2.0).grad_fn.name(),
        'radd': (2.0 + x).grad_fn.name(), 'sub': (x - y).grad_fn.name(),
        'sub_scalar': (x - 2.0).grad_fn.name(), 'rsub': (2.0 - x).grad_fn.name(),
        'mul': (x * y).grad_fn.name(), 'mul_scalar': (x * 2.0).grad_fn.name(),
        'div': (x / y).grad_fn.name(), 'div_scalar': (x / 2.0).grad_fn.name(),
        'rdiv': (2.0 / x).grad_fn.name(), 'neg': (-x).grad_fn.name(),
        'pow_scalar': (x ** 2).grad_fn.name(), 'pow_tensor': (x ** y).grad_fn.name(),
        'rpow': (2.0 ** x).grad_fn.name(),
    }
""")

case("names_unary", """
    x = T.tensor([1.0, 2.0], requires_grad=True)
    result = {
        'exp': T.exp(x).grad_fn.name(), 'log': T.log(x).grad_fn.name(), 'sqrt': T.sqrt(x).grad_fn.name(),
        'sin': T.sin(x).grad_fn.name(), 'cos': T.cos(x).grad_fn.name(), 'tan': T.tan(x).grad_fn.name(),
        'tanh': T.tanh(x).grad_fn.name(), 'sigmoid': T.sigmoid(x).grad_fn.name(),
        'relu': T.relu(x).grad_fn.name(), 'abs': T.abs(x).grad_fn.name(),
        'clamp': T.clamp(x, 0.0, 1.5).grad_fn.name(), 'clamp_min': T.clamp(x, min=0.0).grad_fn.name(),
        'maximum': T.maximum(x, x * 2.0).grad_fn.name(), 'minimum': T.minimum(x, x * 2.0).grad_fn.name(),
        'where': T.where(x > 1.5, x, x * 2.0).grad_fn.name(),
    }
""")

case("names_reductions", """
    x = T.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    result = {
        'sum': x.sum().grad_fn.name(), 'sum_dim': x.sum(dim=0).grad_fn.name(),
        'mean': x.mean().grad_fn.name(), 'mean_dim': x.mean(dim=1).grad_fn.name(),
        'prod': x.prod().grad_fn.name(), 'prod_dim': x.prod(dim=0).grad_fn.name(),
        'max': x.max().grad_fn.name(), 'max_dim': x.max(dim=1).values.grad_fn.name(),
        'min': x.min().grad_fn.name(), 'min_dim': x.min(dim=0).values.grad_fn.name(),
        'norm': x.norm().grad_fn.name(), 'norm_dim': x.norm(dim=1).grad_fn.name(),
        'softmax': T.softmax(x, dim=1).grad_fn.name(), 'log_softmax': T.log_softmax(x, dim=1).grad_fn.name(),
        'logsumexp': T.logsumexp(x, dim=1).grad_fn.name(),
    }
""")

case("names_linalg_shape", """
    x = T.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    v = T.tensor([1.0, -1.0], requires_grad=True)
    b = T.tensor([0.5, 0.5], requires_grad=True)
    result = {
        'mm': T.mm(x, x).grad_fn.name(), 'matmul_2d': T.matmul(x, x).grad_fn.name(),
        'matmul_mv': T.matmul(x, v).grad_fn.name(), 'dot': T.dot(v, v).grad_fn.name(),
        'linear_bias': T.linear(x, x, b).grad_fn.name(), 'linear_nobias': T.linear(x, x).grad_fn.name(),
        't': x.t().grad_fn.name(), 'transpose': x.transpose(0, 1).grad_fn.name(),
        'reshape': x.reshape(4).grad_fn.name(), 'view': x.view(4).grad_fn.name(),
        'squeeze': x[None].squeeze(0).grad_fn.name(), 'unsqueeze': x.unsqueeze(0).grad_fn.name(),
        'expand': v.expand(3, 2).grad_fn.name(), 'cat': T.cat([x, x]).grad_fn.name(),
        'stack': T.stack([x, x]).grad_fn.name(), 'select': x[0].grad_fn.name(),
        'slice': x[:, 1:].grad_fn.name(), 'index': x[[0, 1, 0]].grad_fn.name(),
    }
""")

case("names_more", """
    x = T.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    X = T.tensor([[[1.0, 2.0], [3.0, 4.0]]], requires_grad=True)
    v = T.tensor([1.0, -1.0], requires_grad=True)
    result = {
        'sum_keepdim': x.sum(dim=1, keepdim=True).grad_fn.name(), 'sum_dims': x.sum(dim=(0, 1)).grad_fn.name(),
        'mean_keepdim': x.mean(dim=0, keepdim=True).grad_fn.name(),
        'T': x.T.grad_fn.name(), 'permute': x.permute(1, 0).grad_fn.name(),
        'flatten': x.flatten().grad_fn.name(), 'clone': x.clone().grad_fn.name(),
        'squeeze_all': X.squeeze().grad_fn.name(), 'view_neg': x.view(-1).grad_fn.name(),
        'reshape_noncontig': x.t().reshape(4).grad_fn.name(),
        'square': T.square(x).grad_fn.name(), 'sign': T.sign(x).grad_fn.name(),
        'matmul_3d_2d': T.matmul(X, x).grad_fn.name(), 'matmul_vm': T.matmul(v, x).grad_fn.name(),
        'matmul_3d_3d': T.matmul(X, X).grad_fn.name(),
        'mv': T.mv(x, v).grad_fn.name(), 'outer': T.outer(v, v).grad_fn.name(),
        'index_none': x[None].grad_fn.name(), 'index_ellipsis': x[..., 0].grad_fn.name(),
        'index_two_ints': x[0, 1].grad_fn.name(), 'index_mask': x[x > 2.0].grad_fn.name(),
        'expand_as': v.expand_as(x).grad_fn.name(), 'linear_1d': T.linear(v, x, v).grad_fn.name(),
        'clamp_min_fn': T.clamp_min(x, 0.0).grad_fn.name(), 'clamp_max_kw': T.clamp(x, max=1.0).grad_fn.name(),
        'max_binary': T.max(x, x * 2.0).grad_fn.name(),
    }
""")

case("names_next_functions", """
    w = T.tensor(1.0, requires_grad=True)
    x = T.tensor(2.0, requires_grad=True)
    a = w + x
    y = a * T.tensor(3.0)
    first = [None if n is None else n.name() for n, _ in y.grad_fn.next_functions]
    second = [type(n).__name__ for n, _ in a.grad_fn.next_functions]
    result = {'y': y.grad_fn.name(), 'first': first, 'second': second,
              'leaf_grad_fn': w.grad_fn, 'variable_is_w': a.grad_fn.next_functions[0][0].variable is w}
""")

case("names_accumulate_grad", """
    w = T.tensor(1.0, requires_grad=True)
    a = w * 2.0
    result = {'name': a.grad_fn.next_functions[0][0].name()}
""")


def run_case(program):
    namespace = {"T": TorchNamespace()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(compile(program, "<case>", "exec"), namespace)
    return {key: encode(value) for key, value in namespace["result"].items()}


def main():
    torch.set_default_dtype(torch.float64)
    torch.manual_seed(0)
    names = [name for name, _ in CASES]
    assert len(names) == len(set(names)), "duplicate case names"
    out = []
    for name, program in CASES:
        out.append({"name": name, "program": program, "result": run_case(program)})
    document = {
        "generator": "tests/golden/gen_engine.py",
        "torch_version": torch.__version__,
        "default_dtype": "float64",
        "cases": out,
    }
    with open(OUT, "w") as f:
        json.dump(document, f, indent=1)
        f.write("\n")
    print(f"wrote {len(out)} cases to {os.path.relpath(OUT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
