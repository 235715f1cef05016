"""Regenerate tests/golden/eval.json: what `autodiff eval --json` must print,
computed by PyTorch itself.

Run with a Python that has PyTorch 2.13 (`pip install torch==2.13.0`; not a dependency of the
test suite):

    python tests/golden/gen_eval.py

Each case is one eval job: a program (`expr`, in the autodiff language, whose
last statement is the value f), its bindings (NAME=VALUE texts exactly as they
go on the command line) and eval's options. The same text runs here as Python
with the names of `NS` (torch's functions) in scope: the few cases whose
spelling differs between the two give a separate `torch` text.

eval's meaning, reproduced with torch (float64 throughout):
  * every binding is a float64 leaf that requires grad (eval's calculator rule);
  * f's first derivative by each variable is torch.autograd.grad(f, x,
    grad_outputs=weights, create_graph=True); the N-th (--order N) chains
    grad(g.sum(), x, create_graph=True); a derivative that is identically zero
    (grad returns None) is zeros of x's shape;
  * the default --wrt is every bound variable f's graph reaches (allow_unused
    gives None for the others, which are left out);
  * --jacobian: J[i..., j...] = d f[i...] / d x[j...], shape f.shape + x.shape;
  * --hessian: of f (or of sum(f * weights)), blocks H[a][b] of shape
    a.shape + b.shape.

Output: {"generator", "torch_version", "cases": [{"name", "expr", "bindings",
"options", "expect": {"value", "shape", "grad", "jacobian"?, "hessian"?}}]}.
Floats are written with repr (full float64 precision).
"""
import json
import os

import torch
import torch.nn.functional as F

torch.set_default_dtype(torch.float64)

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "eval.json")

NS = {name: getattr(torch, name) for name in (
    "exp", "log", "sin", "cos", "tan", "tanh", "sigmoid", "relu", "sqrt", "abs", "sum", "mean", "prod",
    "max", "min", "norm", "clamp", "maximum", "minimum", "where", "mm", "matmul", "dot", "cat", "stack",
    "softmax", "log_softmax", "logsumexp", "ones", "zeros", "linspace", "arange", "eye", "tensor", "pow",
    "reshape", "transpose")}
NS["linear"] = F.linear

# (name, expr, bindings, options, torch text or None)
CASES = [
    ("quadratic_at_0", "a*x**2+b*x+c", ["a=1", "b=-2", "c=1", "x=0"], [], None),
    ("quadratic_matrix_weights1", "a*x**2+b*x+c", ["a=1", "b=-2", "c=1", "x=[[0,0],[1,2]]"],
     ["--weights", "1"], None),
    ("quadratic_order2", "a*x**2+b*x+c", ["a=1", "b=-2", "c=1", "x=0"], ["--order", "2"], None),
    ("square_then_order2", "y=x**2; y", ["x=3"], ["--order", "2"], None),
    ("seed_w_x", "a=w+x; b=w+1; y=a*b; y", ["w=1", "x=2"], [], None),
    ("mean_of_square", "mean(3*(x+2)**2)", ["x=ones(2,2)"], [], None),
    ("l1_to_l4", "inp=ones(2,2); l1=inp*w1; l2=l1+w2; l3=l1*w3; l4=l2*l3; loss=l4.mean(); loss",
     ["w1=2", "w2=3", "w3=4"], ["--hessian"], None),
    ("cat_weighted", "a=w+x; b=w+1; cat([(a*b).reshape(1), (a+b).reshape(1)])", ["w=1", "x=2"],
     ["--weights", "[1., 2.]", "--jacobian"], None),
    ("sin_exp_order3", "sin(x)*exp(y)", ["x=0.5", "y=-0.3"], ["--order", "3"], None),
    ("tanh_vector_order2", "tanh(x)", ["x=[-1.5, 0.2, 0.7]"], ["--weights", "[1, -2, 0.5]", "--order", "2"], None),
    ("sigmoid_log_jacobian", "sigmoid(x)*log(y)", ["x=[0.3, -0.8]", "y=[1.5, 2.5]"],
     ["--weights", "1", "--jacobian"], None),
    ("matmul_jacobian", "x@y", ["x=[[1, 2], [3, 4], [5, 6]]", "y=[[0.5, -1], [2, 0.25]]"],
     ["--weights", "[[1, 0], [0, 1], [1, 1]]", "--jacobian"], None),
    ("cubic_prod_hessian", "sum(x**3) + x.prod()", ["x=[1.5, -0.5, 2.0]"], ["--hessian"], None),
    ("softmax_jacobian", "softmax(x, dim=0)", ["x=[1, 2, 3]"], ["--weights", "[1, 2, 3]", "--jacobian"], None),
    ("log_softmax_2d", "log_softmax(x, dim=-1)", ["x=[[1, 2, 0.5], [-1, 0, 3]]"],
     ["--weights", "[[1, 0, 2], [0.5, -1, 1]]", "--jacobian"], None),
    ("logsumexp_order2", "logsumexp(x, dim=0)", ["x=[1, 5, 3]"], ["--order", "2"], None),
    ("sum_dim_weights", "(x**2).sum(dim=1)", ["x=[[1, 2, 3], [-1, 0.5, 4]]"], ["--weights", "[1, -1]"],
     "(x**2).sum(dim=1)"),
    ("sqrt_order4", "sqrt(x*x+1)", ["x=0.7"], ["--order", "4"], None),
    ("relu_times_x", "relu(x)*x", ["x=[-1, 0.5, 2]"], ["--weights", "1", "--jacobian"], None),
    ("max_no_ties", "x.max()*y", ["x=[1, 5, 3]", "y=2"], ["--hessian"], None),
    ("stack_jacobian", "stack([x*y, x+y, x/y])", ["x=[1, 2]", "y=[3, -4]"],
     ["--weights", "1", "--jacobian"], None),
    ("norm_hessian", "norm(x)", ["x=[1, 2, 3]"], ["--hessian"], None),
    ("clamp_square", "clamp(x, -1, 1)**2", ["x=[-2, -0.5, 0.25, 3]"], ["--weights", "1"], None),
    ("where_piecewise", "where(x > 0, x**2, -x)", ["x=[1, -2, 3]"], ["--weights", "[1, 2, 3]"], None),
    ("maximum_pair", "maximum(x, y) * minimum(x, y)**2", ["x=[1, -2, 3]", "y=[0.5, 1, 4]"],
     ["--weights", "1", "--jacobian"], None),
    ("gram_matrix", "x.t() @ x", ["x=[[1, 2, 3], [4, 5, 6]]"], ["--weights", "1", "--jacobian"], None),
    ("abs_cos_order3", "abs(x)**1.5 + cos(x)", ["x=[-0.7, 1.3]"], ["--weights", "1", "--order", "3"], None),
    ("gaussian_hessian", "exp(-(x**2).sum()/2)", ["x=[0.5, -1, 0.25]"], ["--hessian"], None),
    ("pow_tensor_tensor", "x**y", ["x=2", "y=3"], ["--hessian", "--order", "2"], None),
    ("logistic_blocks", "1/(1+exp(-(dot(w, x) + b)))", ["w=[0.5, -1]", "x=[2, 1]", "b=0.3"],
     ["--hessian", "--jacobian"], None),
    ("linear_layer", "linear(x, W, b)", ["x=[1, 2]", "W=[[1, 2], [3, 4], [5, 6]]", "b=[0.5, 0.1, 0.2]"],
     ["--weights", "[1, -1, 2]", "--jacobian"], None),
    ("slice_index", "x[:, 1:3].sum() * y[0] + x[1, 0]*y[1]", ["x=[[1, 2, 3], [4, 5, 6]]", "y=[2, 3]"],
     ["--hessian"], None),
    ("reshape_transpose", "(x.reshape(3, 2).transpose(0, 1))**3", ["x=[1, 2, 3, 4, 5, 6]"],
     ["--weights", "[[1, 2, 3], [4, 5, 6]]", "--order", "2"], None),
    ("mean_keepdim_jacobian", "mean(x**2, dim=0, keepdim=True)", ["x=[[1, 2], [3, 4], [5, -6]]"],
     ["--weights", "1", "--jacobian"], None),
    ("wrt_subset", "x*y + y*z", ["x=2", "y=3", "z=4"], ["--wrt", "x,z", "--hessian"], None),
    ("unused_binding", "x**3", ["x=2", "u=5"], ["--order", "2"], None),
    ("identically_zero_order3", "x*y + y", ["x=[1, 2]", "y=3"], ["--weights", "1", "--order", "3"], None),
]


def run_program(text, env):
    """Run `text` (statements separated by ';', the last an expression) as Python."""
    parts = [p.strip() for p in text.split(";") if p.strip()]
    for stmt in parts[:-1]:
        exec(stmt, env)
    return eval(parts[-1], env)


def option(options, name, default=None):
    if name in options:
        return options[options.index(name) + 1]
    return default


def flag(options, name):
    return name in options


def as_list(t):
    return t.detach().tolist()


def grads_of(f, x, weights):
    """d f / d x weighted (create_graph); None when f doesn't reach x."""
    if not f.requires_grad:
        return None
    return torch.autograd.grad(f, x, grad_outputs=weights, retain_graph=True, create_graph=True,
                               allow_unused=True)[0]


def reaches(f, x):
    return f.requires_grad and torch.autograd.grad(f, x, grad_outputs=torch.ones_like(f), retain_graph=True,
                                                   allow_unused=True)[0] is not None


def jacobian(f, x):
    rows = []
    flat = f.reshape(-1)
    for i in range(flat.numel()):
        g = torch.autograd.grad(flat[i], x, retain_graph=True, allow_unused=True)[0]
        rows.append(torch.zeros_like(x) if g is None else g)
    return torch.stack(rows).reshape(tuple(f.shape) + tuple(x.shape))


def hessian_block(g_a, xa, xb):
    if g_a is None:
        return torch.zeros(tuple(xa.shape) + tuple(xb.shape))
    rows = []
    flat = g_a.reshape(-1)
    for i in range(flat.numel()):
        h = torch.autograd.grad(flat[i], xb, retain_graph=True, allow_unused=True)[0] if flat[i].requires_grad \
            else None
        rows.append(torch.zeros_like(xb) if h is None else h)
    return torch.stack(rows).reshape(tuple(xa.shape) + tuple(xb.shape))


def compute(name, expr, bindings, options, torch_text):
    env = dict(NS)
    variables = {}
    for b in bindings:
        key, value = b.split("=", 1)
        v = eval(value, dict(NS))
        t = (v if isinstance(v, torch.Tensor) else torch.tensor(v)).to(torch.float64).detach().clone()
        t.requires_grad_(True)
        variables[key] = t
        env[key] = t
    f = run_program(torch_text or expr, env)
    if not isinstance(f, torch.Tensor):
        f = torch.tensor(float(f))
    weights_text = option(options, "--weights")
    weights = None
    if weights_text is not None:
        w = eval(weights_text, dict(NS))
        w = (w if isinstance(w, torch.Tensor) else torch.tensor(w)).to(torch.float64)
        weights = w.expand(f.shape).clone()
    order = int(option(options, "--order", "1"))
    wrt_texts = [option(options, "--wrt")] if flag(options, "--wrt") else []
    if wrt_texts:
        names = [n for w in wrt_texts for n in w.split(",")]
    else:
        names = [n for n, t in variables.items() if reaches(f, t)]
    grad = {}
    for n in names:
        x = variables[n]
        g = grads_of(f, x, weights)
        for _ in range(order - 1):
            if g is None or not g.requires_grad:
                g = None
                break
            g = torch.autograd.grad(g.sum(), x, retain_graph=True, create_graph=True, allow_unused=True)[0]
        grad[n] = as_list(torch.zeros_like(x) if g is None else g)
    expect = {"value": as_list(f), "shape": list(f.shape), "grad": grad}
    if flag(options, "--jacobian"):
        expect["jacobian"] = {n: as_list(jacobian(f, variables[n])) for n in names}
    if flag(options, "--hessian"):
        scalar = f if weights is None else (f * weights).sum()
        firsts = {n: grads_of(scalar, variables[n], None) for n in names}
        expect["hessian"] = {a: {b: as_list(hessian_block(firsts[a], variables[a], variables[b])) for b in names}
                             for a in names}
    return {"name": name, "expr": expr, "bindings": bindings, "options": options, "expect": expect}


def main():
    cases = [compute(*c) for c in CASES]
    doc = {"generator": "tests/golden/gen_eval.py", "torch_version": torch.__version__,
           "default_dtype": "float64", "cases": cases}
    with open(OUT, "w") as fh:
        json.dump(doc, fh, indent=1)
        fh.write("\n")
    print(f"wrote {len(cases)} cases to {OUT}")


if __name__ == "__main__":
    main()
