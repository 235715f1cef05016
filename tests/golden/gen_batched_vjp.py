"""Regenerate tests/golden/batched_vjp.json from PyTorch itself: batched vector-Jacobian
products (torch.autograd.grad(..., is_grads_batched=True)) and the Jacobians and Hessians of
torch.autograd.functional.

Run with a Python that has PyTorch 2.13 (`pip install torch==2.13.0`; not a dependency of the
test suite):

    python tests/golden/gen_batched_vjp.py

Each case is a small program written against a namespace `T` that means the same thing for
PyTorch and for our engine (default dtype float64; `T.grad` is autograd.grad, `T.jacobian`
and `T.hessian` are torch.autograd.functional's) and a flag `V`, the `vectorize=` argument the
program passes on. It leaves its observations in a dict `result`. The recorded values are
PyTorch's with V=True; this script checks that V=False gives the same (to 1e-12) before
writing them. tests/engine/ops/test_batched_vjp.py runs the same text with `T` built from
autodiff.engine and V in (True, False, None) and compares every value.

Error cases record the exception's type and message instead (`raises`).

Encoding: tensor -> {"kind": "tensor", "shape": [...], "values": nested lists} (floats by
repr: full float64 precision); tuple/list -> {"kind": "tuple", "items": [...]};
None -> {"kind": "none"}; bool -> {"kind": "bool", "value": v}.
"""
import json
import os
import warnings

import torch
import torch.autograd.functional

from program_cases import registry  # this folder: the script's own

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "batched_vjp.json")


class TorchNamespace:
    grad = staticmethod(torch.autograd.grad)
    jacobian = staticmethod(torch.autograd.functional.jacobian)
    hessian = staticmethod(torch.autograd.functional.hessian)

    def __getattr__(self, name):
        return getattr(torch, name)


def encode(v):
    if isinstance(v, torch.Tensor):
        return {"kind": "tensor", "shape": list(v.shape), "values": v.detach().tolist()}
    if v is None:
        return {"kind": "none"}
    if isinstance(v, bool):
        return {"kind": "bool", "value": v}
    if isinstance(v, (tuple, list)):
        return {"kind": "tuple", "items": [encode(x) for x in v]}
    raise TypeError(f"cannot record {type(v).__name__}: {v!r}")


def same(a, b):
    if isinstance(a, torch.Tensor):
        return isinstance(b, torch.Tensor) and a.shape == b.shape and \
            bool(torch.allclose(a.detach(), b.detach(), rtol=1e-12, atol=1e-12))
    if isinstance(a, (tuple, list)):
        return isinstance(b, (tuple, list)) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


CASES, ERRORS, case, error = registry()


# --------------------------------------------------------------- Hessians
BENCH_F = """
    def f(x):
        return (T.sin(x) * x ** 2).sum() + (x[:-1] * x[1:]).sum()
"""

case("hessian_bench_f_10", BENCH_F + """    x = T.linspace(-2.0, 2.0, 10)
    result = {'H': T.hessian(f, x, vectorize=V)}
""")

case("hessian_bench_f_31", BENCH_F + """    x = T.sin(T.arange(31.0)) * 2.0
    result = {'H': T.hessian(f, x, vectorize=V)}
""")

case("hessian_matrix_input", """
    def f(w):
        v = T.tensor([0.5, -1.0, 2.0])
        return T.logsumexp(w @ v, dim=0) + (w.tanh() ** 2).mean() + w.t().reshape(-1)[::2].prod()
    w = T.tensor([[0.3, -0.8, 1.1], [0.7, 0.2, -0.4]])
    result = {'H': T.hessian(f, w, vectorize=V)}
""")

case("hessian_tuple_inputs", """
    def f(x, y):
        return (T.exp(x)[:, None] * T.sin(y)[None, :]).sum() + (x ** 3).sum() * y.prod() + (x @ x) / (1 + y @ y)
    x = T.tensor([0.2, -0.5, 0.9])
    y = T.tensor([1.1, 0.4, -0.3, 0.8])
    result = {'H': T.hessian(f, (x, y), vectorize=V)}
""")

case("hessian_scalar_input", """
    x = T.tensor(0.7)
    result = {'H': T.hessian(lambda t: T.sin(t) * T.exp(t) / (1 + t * t), x, vectorize=V)}
""")

case("hessian_reductions_and_views", """
    def f(x):
        s = T.softmax(x, dim=1)
        return (s * x).sum() + x.var(dim=0).sum() + T.cumsum(x, dim=1).pow(2).sum() \\
            + T.cat([x, x.flip(1)], dim=0).norm() + x.permute(1, 0)[1].sum() ** 2
    x = T.tensor([[0.1, -0.3, 0.5], [1.2, 0.4, -0.9]])
    result = {'H': T.hessian(f, x, vectorize=V)}
""")

case("hessian_indexing", """
    def f(x):
        idx = T.tensor([2, 0, 2, 3])
        return (x[idx] ** 3).sum() + (x[1:3] * x[[0, 3]]).sum() + T.stack([x, x * x]).max()
    x = T.tensor([0.4, -1.3, 0.8, 2.1])
    result = {'H': T.hessian(f, x, vectorize=V)}
""")

case("hessian_unused_input", """
    def f(x, y):
        return (x * x).sum() * 3.0
    x = T.tensor([1.0, 2.0])
    y = T.tensor([0.5, 0.5, 0.5])
    result = {'H': T.hessian(f, (x, y), vectorize=V)}
""")

case("hessian_linear_is_zero", """
    x = T.tensor([1.0, -2.0, 0.5])
    result = {'H': T.hessian(lambda t: (t * 3.0).sum(), x, vectorize=V)}
""")

case("hessian_create_graph", BENCH_F + """    x = T.tensor([0.3, -1.2, 0.8, 1.5], requires_grad=True)
    H = T.hessian(f, x, create_graph=True, vectorize=V)
    third, = T.grad((H * T.arange(16.0).reshape(4, 4)).sum(), x)
    result = {'H': H, 'requires_grad': H.requires_grad, 'third': third}
""")

# --------------------------------------------------------------- Jacobians
case("jacobian_softmax", """
    x = T.tensor([0.5, -1.0, 2.0, 0.1])
    result = {'J': T.jacobian(lambda t: T.softmax(t, dim=0), x, vectorize=V)}
""")

case("jacobian_tuple_in_tuple_out", """
    def f(a, x):
        y = T.tanh(a @ x)
        return y, (a * a).sum(dim=1) + x[:3], y.sum()
    a = T.tensor([[0.2, -0.4, 0.6, 0.1], [1.0, 0.3, -0.7, 0.5], [-0.2, 0.8, 0.4, -1.1]])
    x = T.tensor([0.9, -0.3, 0.2, 0.6])
    result = {'J': T.jacobian(f, (a, x), vectorize=V)}
""")

case("jacobian_matrix_output", """
    def f(x):
        m = x.reshape(2, 3)
        return m.t() @ m + T.cumsum(m, dim=0).t() @ m.flip(0)
    x = T.tensor([0.3, -0.7, 1.2, 0.5, -0.1, 0.8])
    result = {'J': T.jacobian(f, x, vectorize=V)}
""")

case("jacobian_indexing_and_sorting", """
    def f(x):
        return T.cat([x[[0, 2, 2]] * 2.0, T.sort(x).values, x.unsqueeze(0).expand(2, 4)[1]])
    x = T.tensor([0.4, -1.3, 0.8, 2.1])
    result = {'J': T.jacobian(f, x, vectorize=V)}
""")

case("jacobian_independent_output", """
    def f(x, y):
        return x * 2.0, T.ones(2)
    x = T.tensor([1.0, 2.0, 3.0])
    y = T.tensor([4.0, 5.0])
    result = {'J': T.jacobian(f, (x, y), vectorize=V)}
""")

case("jacobian_create_graph", """
    x = T.tensor([0.3, -0.6, 1.1], requires_grad=True)
    J = T.jacobian(lambda t: T.exp(t) * t.sum(), x, create_graph=True, vectorize=V)
    g, = T.grad((J * J).sum(), x)
    result = {'J': J, 'requires_grad': J.requires_grad, 'g': g}
""")

# --------------------------------------------------------------- is_grads_batched
case("grad_batched_matmul_chain", """
    a = T.tensor([[0.2, -0.4, 0.6], [1.0, 0.3, -0.7]], requires_grad=True)
    b = T.tensor([[0.5, 0.1], [-0.3, 0.9], [0.7, -0.2]], requires_grad=True)
    y = T.sigmoid(a @ b) * 3.0
    w = T.arange(12.0).reshape(3, 2, 2) / 7.0 - 0.5
    ga, gb = T.grad(y, (a, b), w, is_grads_batched=True)
    result = {'ga': ga, 'gb': gb}
""")

case("grad_batched_two_outputs", """
    x = T.tensor([0.3, -0.8, 1.4], requires_grad=True)
    y = x.sin() * x
    z = (x ** 2).sum(dim=0, keepdim=True)
    g, = T.grad((y, z), x, (T.eye(3)[:2] * 2.0, T.tensor([[1.0], [-2.0]])), is_grads_batched=True)
    result = {'g': g}
""")

case("grad_batched_create_graph", """
    x = T.tensor([0.3, -0.8, 1.4], requires_grad=True)
    g1, = T.grad((T.exp(x) * x).sum(), x, create_graph=True)
    H, = T.grad(g1, x, T.eye(3), is_grads_batched=True, create_graph=True)
    t, = T.grad((H * H).sum(), x)
    result = {'H': H, 'requires_grad': H.requires_grad, 't': t}
""")

case("grad_batched_materialize_and_unused", """
    x = T.tensor([0.3, -0.8], requires_grad=True)
    u = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2.0
    a = T.grad(y, (x, u), T.ones(4, 2), is_grads_batched=True, retain_graph=True, allow_unused=True)
    b = T.grad(y, (x, u), T.ones(4, 2), is_grads_batched=True, materialize_grads=True)
    result = {'a': a, 'b': b}
""")

error("grad_batched_shape_mismatch", """
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    T.grad(x * 2.0, x, T.ones(2, 4), is_grads_batched=True)
""")

error("grad_batched_missing_batch_dim", """
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    T.grad(x * 2.0, x, T.ones(3), is_grads_batched=True)
""")

error("grad_batched_0d", """
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    T.grad((x * 2.0).sum(), x, T.tensor(1.0), is_grads_batched=True)
""")

error("grad_batched_implicit", """
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    T.grad((x * 2.0).sum(), x, is_grads_batched=True)
""")

error("grad_batched_empty_batch", """
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    T.grad(x * 2.0, x, T.ones(0, 3), is_grads_batched=True)
""")

error("grad_batched_sizes_differ", """
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    T.grad((x * 2.0, x * 3.0), x, (T.ones(2, 3), T.ones(4, 3)), is_grads_batched=True)
""")

error("jacobian_strict_and_vectorize", """
    x = T.tensor([1.0, 2.0])
    T.jacobian(lambda t: t * 2.0, x, strict=True, vectorize=True)
""")

error("jacobian_strict_independent", """
    x = T.tensor([1.0, 2.0])
    y = T.tensor([1.0])
    T.jacobian(lambda a, b: a * 2.0, (x, y), strict=True)
""")

error("jacobian_strict_no_grad_output", """
    x = T.tensor([1.0, 2.0])
    T.jacobian(lambda t: T.ones(2), x, strict=True)
""")

error("jacobian_bad_strategy", """
    x = T.tensor([1.0, 2.0])
    T.jacobian(lambda t: t * 2.0, x, strategy="sideways")
""")

error("hessian_not_scalar", """
    x = T.tensor([1.0, 2.0])
    T.hessian(lambda t: t * 2.0, x)
""")

error("hessian_tuple_output", """
    x = T.tensor([1.0, 2.0])
    T.hessian(lambda t: (t.sum(), t.sum()), x)
""")

error("hessian_strict_linear", """
    x = T.tensor([1.0, 2.0])
    T.hessian(lambda t: (t * 2.0).sum(), x, strict=True)
""")

error("jacobian_inputs_not_tensors", """
    T.jacobian(lambda t: t * 2.0, (T.tensor([1.0]), 3.0))
""")


def run(program, vectorize):
    env = {"T": TorchNamespace(), "V": vectorize}
    exec(program, env)
    return env["result"]


def main():
    torch.set_default_dtype(torch.float64)
    warnings.simplefilter("ignore")
    cases = []
    for name, program in CASES:
        got = run(program, True)
        rows = run(program, False)
        for key in got:
            if not same(got[key], rows[key]):
                raise AssertionError(f"{name}: {key} differs between vectorize=True and False")
        cases.append({"name": name, "program": program, "result": {k: encode(v) for k, v in got.items()}})
    errors = []
    for name, program in ERRORS:
        try:
            run(program + "result = {}\n", True)
        except Exception as e:  # noqa: BLE001 -- recording what PyTorch raises
            errors.append({"name": name, "program": program, "type": type(e).__name__, "message": str(e)})
        else:
            raise AssertionError(f"{name}: PyTorch raised nothing")
    with open(OUT, "w") as fh:
        json.dump({"torch": torch.__version__, "cases": cases, "errors": errors}, fh, indent=1)
        fh.write("\n")
    print(f"wrote {len(cases)} cases and {len(errors)} error cases to {OUT}")


if __name__ == "__main__":
    main()
