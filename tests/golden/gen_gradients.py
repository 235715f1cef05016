"""Regenerate tests/golden/gradients.json: PyTorch 2.13's values and first derivatives of everyday
elementwise ops, activations and losses, and the sign of zero gradients (which shows when
printed) -- so tests/engine/ops/test_gradients_golden.py can check the op table's backward formulas
without PyTorch.

Run with a Python that has PyTorch 2.13 (`pip install torch==2.13.0`; not a dependency of the
test suite):

    python tests/golden/gen_gradients.py

Each case's inputs are drawn here with numpy's generator (fixed seed) and stored as hex;
the weights w make the gradient of (f(x) * w).sum() differ element by element."""
import json
import pathlib

import numpy

N = 96

# name -> (number of inputs, domain of each input)
UNARY = {
    "tanh": (-3, 3), "sigmoid": (-6, 6), "tan": (-1.3, 1.3), "asin": (-0.95, 0.95), "acos": (-0.95, 0.95),
    "atan": (-4, 4), "log1p": (-0.9, 4), "log2": (0.1, 5), "log10": (0.1, 5), "reciprocal": (0.2, 4),
    "sqrt": (0.1, 5), "rsqrt": (0.1, 5), "expm1": (-3, 3), "exp2": (-3, 3), "atanh": (-0.9, 0.9), "sinc": (-3, 3),
    "deg2rad": (-300, 300), "rad2deg": (-4, 4),
}
BINARY = ["div", "pow", "atan2", "hypot", "maximum", "minimum"]
# the sign of zero: (f(x) * -3).sum() where parts of f's gradient are zero
ZEROS = ["clamp", "clamp_min", "clamp_max", "maximum0", "minimum0", "sign", "floor", "round", "trunc",
         "max", "min", "median", "pow0", "fill", "copy"]
ZERO_INPUT = [-1.5, -0.2, 0.4, 2.0, 7.0]
# torch.nn.functional's activations (name -> domain, call) and losses (call of input x in (0, 1) or
# logits, target t, weight v): their gradients come from PyTorch's compiled kernels
ACTIVATIONS = {
    "softplus": ((-5, 5), lambda F, x: F.softplus(x)),
    "softplus_beta": ((-12, 12), lambda F, x: F.softplus(x, beta=2.0, threshold=15.0)),
    "gelu": ((-3, 3), lambda F, x: F.gelu(x)),
    "gelu_tanh": ((-3, 3), lambda F, x: F.gelu(x, approximate="tanh")),
    "silu": ((-4, 4), lambda F, x: F.silu(x)),
    "mish": ((-4, 4), lambda F, x: F.mish(x)),
    "elu": ((-3, 3), lambda F, x: F.elu(x, alpha=0.7)),
    "selu": ((-3, 3), lambda F, x: F.selu(x)),
    "celu": ((-3, 3), lambda F, x: F.celu(x, alpha=1.7)),
    "logsigmoid": ((-5, 5), lambda F, x: F.logsigmoid(x)),
    # along the last dim: PyTorch's vector sum (summation.lane_sum), the reciprocal, the fused backward
    "softmax": ((-3, 3), lambda F, x: F.softmax(x.reshape(8, 12), dim=1).reshape(-1)),
    "log_softmax": ((-3, 3), lambda F, x: F.log_softmax(x.reshape(8, 12), dim=-1).reshape(-1)),
}
LOSSES = {
    "bce": lambda F, x, t, v: F.binary_cross_entropy(x, t, reduction="none"),
    "bce_mean": lambda F, x, t, v: F.binary_cross_entropy(x, t),
    "bce_mean_weight": lambda F, x, t, v: F.binary_cross_entropy(x, t, weight=v),
    "bce_logits_mean": lambda F, x, t, v: F.binary_cross_entropy_with_logits(x, t),
    "bce_logits_sum_weight": lambda F, x, t, v: F.binary_cross_entropy_with_logits(x, t, weight=v, reduction="sum"),
    "bce_logits_pos_weight": lambda F, x, t, v: F.binary_cross_entropy_with_logits(x, t, pos_weight=v),
}


def inputs():
    rng = numpy.random.default_rng(20261123)
    data = {"w": rng.uniform(-2, 2, N)}
    for name, (lo, hi) in UNARY.items():
        data[name] = rng.uniform(lo, hi, N)
    data["a"] = rng.uniform(0.1, 3, N)
    data["b"] = rng.uniform(0.2, 3, N)
    data["b"][:8] = data["a"][:8]  # ties: maximum and minimum share the gradient there
    for name, ((lo, hi), _) in ACTIVATIONS.items():
        data["act_" + name] = rng.uniform(lo, hi, N)
    data["p"] = rng.uniform(0.02, 0.98, N)   # a loss's probabilities
    data["z"] = rng.uniform(-4, 4, N)        # its logits
    data["t"] = rng.uniform(0, 1, N)         # its targets
    data["v"] = rng.uniform(0.5, 2, N)       # its weights
    return data


def zero_case(T, name, x):
    zeros = T.zeros(5, dtype=T.float64)
    return {"clamp": lambda: x.clamp(0, 1), "clamp_min": lambda: x.clamp(min=0), "clamp_max": lambda: x.clamp(max=0),
            "maximum0": lambda: T.maximum(x, zeros), "minimum0": lambda: T.minimum(x, zeros),
            "sign": lambda: x.sign(), "floor": lambda: x.floor(), "round": lambda: x.round(), "trunc": lambda: x.trunc(),
            "max": lambda: x.max(), "min": lambda: x.min(), "median": lambda: x.median(),
            "pow0": lambda: x ** 0, "fill": lambda: x.clone().fill_(2.0), "copy": lambda: x.clone().copy_(zeros)}[name]()


def binary_case(T, name, a, b):
    return {"div": lambda: a / b, "pow": lambda: a ** b, "atan2": lambda: T.atan2(a, b), "hypot": lambda: T.hypot(a, b),
            "maximum": lambda: T.maximum(a, b), "minimum": lambda: T.minimum(a, b)}[name]()


def _hex(values):
    return [float(v).hex() for v in values]


def main():
    import torch
    data = inputs()
    w = torch.tensor(data["w"], dtype=torch.float64)
    out = {"w": _hex(data["w"]), "unary": {}, "binary": {}, "zeros": {}}
    for name in UNARY:
        x = torch.tensor(data[name], dtype=torch.float64, requires_grad=True)
        y = getattr(torch, name)(x)
        (y * w).sum().backward()
        out["unary"][name] = {"x": _hex(data[name]), "y": _hex(y.tolist()), "grad": _hex(x.grad.tolist())}
    out["a"], out["b"] = _hex(data["a"]), _hex(data["b"])
    for name in BINARY:
        a = torch.tensor(data["a"], dtype=torch.float64, requires_grad=True)
        b = torch.tensor(data["b"], dtype=torch.float64, requires_grad=True)
        y = binary_case(torch, name, a, b)
        (y * w).sum().backward()
        out["binary"][name] = {"y": _hex(y.tolist()), "grad_a": _hex(a.grad.tolist()), "grad_b": _hex(b.grad.tolist())}
    for name in ZEROS:
        x = torch.tensor(ZERO_INPUT, dtype=torch.float64, requires_grad=True)
        (zero_case(torch, name, x) * -3).sum().backward()
        out["zeros"][name] = _hex(x.grad.tolist())
    import torch.nn.functional as F
    out["activations"] = {}
    for name, (_, call) in ACTIVATIONS.items():
        x = torch.tensor(data["act_" + name], dtype=torch.float64, requires_grad=True)
        y = call(F, x)
        (y * w).sum().backward()
        out["activations"][name] = {"x": _hex(data["act_" + name]), "y": _hex(y.tolist()), "grad": _hex(x.grad.tolist())}
    for key in "pztv":
        out[key] = _hex(data[key])
    out["losses"] = {}
    v = torch.tensor(data["v"], dtype=torch.float64)
    for name, call in LOSSES.items():
        x = torch.tensor(data["z" if "logits" in name else "p"], dtype=torch.float64, requires_grad=True)
        t = torch.tensor(data["t"], dtype=torch.float64, requires_grad=True)
        y = call(F, x, t, v)
        (y * w if y.dim() else y).sum().backward()
        out["losses"][name] = {"y": _hex(y.reshape(-1).tolist()), "grad_x": _hex(x.grad.tolist()),
                               "grad_t": _hex(t.grad.tolist())}
    path = pathlib.Path(__file__).with_name("gradients.json")
    path.write_text(json.dumps(out, separators=(",", ":")) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
