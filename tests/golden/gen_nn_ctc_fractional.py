"""Regenerate tests/golden/nn_ctc_fractional.json from PyTorch itself: F.fractional_max_pool2d/3d on
fixed inputs with given _random_samples (values, indices, the gradient for a fixed cotangent, the
node names), and torch.ctc_loss's per-sample losses and gradients (PyTorch's gradient convention:
exp(log_probs) minus the occupation) on fixed log-probabilities, edge cases included.

Run with a Python that has PyTorch 2.13 (not a dependency of the test suite):

    python tests/golden/gen_nn_ctc_fractional.py
"""
import json
import math
import os

import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "nn_ctc_fractional.json")


def wave(shape, phase=0.0, scale=1.0):
    """sin(0, 1, 2, ... + phase) * scale in `shape` (float64): fixed, tie-free data."""
    n = math.prod(shape)
    return (torch.sin(torch.arange(n, dtype=torch.float64) * 1.37 + phase) * scale).reshape(shape)


def samples(shape, phase):
    """Fixed random samples in [0, 1)."""
    return (torch.sin(torch.arange(math.prod(shape), dtype=torch.float64) * 2.11 + phase) * 0.4999 + 0.5).reshape(shape)


def listed(t):
    return t.detach().reshape(-1).tolist()


# (dims, input shape, kernel, output size, dtype)
POOLS = [
    (2, (2, 3, 7, 9), (2, 3), (3, 4), "float64"),
    (2, (2, 3, 7, 9), (3, 3), (5, 7), "float64"),
    (2, (2, 3, 7, 9), (2, 2), (6, 8), "float64"),
    (2, (1, 2, 10, 10), (2, 2), (4, 7), "float32"),
    (2, (3, 11, 6), (3, 2), (9, 1), "float64"),
    (3, (2, 2, 6, 7, 8), (2, 2, 3), (3, 3, 3), "float64"),
    (3, (1, 2, 9, 8, 7), (2, 3, 2), (4, 5, 4), "float32"),
    (3, (2, 6, 7, 8), (2, 1, 3), (2, 4, 5), "float64"),
]


def pools():
    out = []
    for k, (dims, shape, kernel, size, dtype) in enumerate(POOLS):
        dt = getattr(torch, dtype)
        x = wave(shape, k).to(dt).requires_grad_()
        batch = shape[0] if len(shape) == dims + 2 else 1
        channels = shape[-dims - 1]
        u = samples((batch, channels, dims), k).to(dt)
        fn = F.fractional_max_pool2d if dims == 2 else F.fractional_max_pool3d
        y, idx = fn(x, kernel, output_size=size, return_indices=True, _random_samples=u)
        cot = wave(tuple(y.shape), 0.5 + k).to(dt)
        (g,) = torch.autograd.grad(y, x, cot)
        out.append(dict(dims=dims, shape=list(shape), kernel=list(kernel), size=list(size), dtype=dtype,
                        input=listed(x), samples=listed(u), out=listed(y), indices=listed(idx),
                        cotangent=listed(cot), grad=listed(g), node=y.grad_fn.name()))
    return out


# (T, N, C, padded targets, input lengths, target lengths, blank, zero_infinity, scale)
CTCS = [
    (6, 3, 5, [[1, 2, 2], [3, 1, 0], [4, 4, 4]], [6, 5, 6], [3, 2, 3], 0, False, 1.0),
    (6, 3, 5, [[1, 0, 3], [3, 1, 0], [4, 4, 4]], [6, 5, 6], [3, 2, 1], 2, False, 1.0),
    (4, 2, 4, [[1, 1, 1], [1, 2, 1]], [4, 4], [3, 3], 0, False, 1.0),
    (4, 2, 4, [[1, 1, 1], [1, 2, 1]], [4, 4], [3, 3], 0, True, 1.0),
    (4, 3, 4, [[1, 1], [1, 2], [3, 3]], [0, 0, 4], [0, 1, 2], 0, False, 1.0),
    (12, 2, 6, [[1, 2, 3, 3, 5], [5, 4, 1, 0, 0]], [12, 9], [5, 3], 0, False, 1.0),
    (20, 2, 5, [[1, 2, 2, 3], [3, 1, 4, 4]], [20, 18], [4, 4], 0, False, 40.0),
]


def ctcs():
    out = []
    for k, (steps, n, classes, targets, ins, outs, blank, zero_inf, scale) in enumerate(CTCS):
        logits = wave((steps, n, classes), k, scale)
        lp = (logits.log_softmax(2) if scale == 1.0 else logits).requires_grad_()
        loss = torch.ctc_loss(lp, torch.tensor(targets), ins, outs, blank, 0, zero_inf)
        cot = wave((n,), 1.5 + k)
        (g,) = torch.autograd.grad(loss, lp, cot)
        out.append(dict(log_probs=listed(lp), shape=[steps, n, classes], targets=targets, input_lengths=ins,
                        target_lengths=outs, blank=blank, zero_infinity=zero_inf,
                        loss=[v if math.isfinite(v) else str(v) for v in listed(loss)], cotangent=listed(cot),
                        grad=[v if math.isfinite(v) else str(v) for v in listed(g)]))
    return out


def main():
    with open(OUT, "w") as f:
        json.dump({"torch": torch.__version__, "fractional": pools(), "ctc": ctcs()}, f)
        f.write("\n")


if __name__ == "__main__":
    main()
