"""Regenerate tests/golden/kernel_runs.json: what PyTorch gives for add and sub with alpha, lerp
(number and tensor weights, both ends), whole-tensor sums and means of many lengths, uniform draws
and a new Linear layer's weights after manual_seed, and 40 steps of SGD and Adam in their
variants fed the same gradients -- so tests/engine/test_kernel_runs.py can check the engine's within
tolerance without PyTorch.

Run with a Python that has PyTorch 2.13 (`pip install torch==2.13.0`; not a dependency of the
test suite):

    python tests/golden/gen_kernel_runs.py

The inputs come from numpy's generator with fixed seeds; the test imports `inputs` and
`gradients` from here (torch is imported only to write the file)."""
import json
import pathlib

import numpy

N = 1003  # lengths that are and are not multiples of a vector

OPTIMISERS = [("SGD", dict(lr=0.1)), ("SGD", dict(lr=0.05, momentum=0.9)),
              ("SGD", dict(lr=0.05, momentum=0.9, nesterov=True)),
              ("SGD", dict(lr=0.05, momentum=0.5, dampening=0.3, weight_decay=0.01)),
              ("SGD", dict(lr=0.1, maximize=True)), ("Adam", dict(lr=0.01)),
              ("Adam", dict(lr=0.003, betas=(0.8, 0.99), weight_decay=0.01)), ("Adam", dict(lr=0.01, amsgrad=True)),
              ("Adam", dict(lr=0.01, maximize=True, eps=1e-6))]
STEPS = 40


def inputs(dtype):
    rng = numpy.random.default_rng(11)
    return [rng.standard_normal(N).astype(dtype) for _ in range(3)]


def gradients():
    return numpy.random.default_rng(0).standard_normal((STEPS, 7))


def values(arr):
    """An array's values as a flat list of floats (exact: JSON keeps a double's shortest repr)."""
    return [float(v) for v in numpy.asarray(arr, dtype=numpy.float64).reshape(-1)]


def kernels(lib, dtype):
    """The kernel cases, computed by `lib` (torch, or the engine with torch's API)."""
    a, b, w = (lib.from_numpy(x) for x in inputs(getattr(numpy, dtype)))
    return {
        **seeded(lib, dtype),
        "add alpha -0.1": lib.add(a, b, alpha=-0.1), "add alpha 3": lib.add(a, b, alpha=3),
        "sub alpha 0.3": lib.sub(a, b, alpha=0.3), "lerp 0.1": lib.lerp(a, b, 0.1),
        "lerp 0.7": lib.lerp(a, b, 0.7), "lerp -2.5": lib.lerp(a, b, -2.5),
        "lerp tensor": lib.lerp(a, b, w),
        **{f"sum {n}": a[:n].sum() for n in (1, 5, 7, 8, 13, 100, 257, 1003)},
        **{f"mean {n}": b[:n].mean() for n in (3, 6, 31, 1003)},
        "sum of a transpose": a[:999].reshape(27, 37).t().sum(),
        "sum of a times b": (a * b).sum(),
    }


def seeded(lib, dtype):
    """Uniform draws and a new layer's weights after manual_seed: PyTorch's generator."""
    out = {}
    for seed in (0, 1234, 2 ** 40 + 7):
        lib.manual_seed(seed)
        out[f"rand seed {seed}"] = lib.rand(37, dtype=getattr(lib, dtype))
        layer = lib.nn.Linear(9, 4, dtype=getattr(lib, dtype))
        out[f"linear weight seed {seed}"] = layer.weight.detach()
        out[f"linear bias seed {seed}"] = layer.bias.detach()
    return out


def train(lib, optimisers, dtype, name, settings):
    """A parameter of 7 after STEPS steps of optimiser `name` fed the same gradients."""
    dtype = getattr(lib, dtype)
    p = lib.tensor(numpy.linspace(-1, 1, 7), dtype=dtype, requires_grad=True)
    opt = getattr(optimisers, name)([p], **settings)
    for g in gradients():
        opt.zero_grad()
        p.grad = lib.tensor(g * (1 + p.detach().numpy().astype(numpy.float64)), dtype=dtype)
        opt.step()
    return p.detach().numpy()


def main():
    import torch
    cases = []
    for dtype in ("float32", "float64"):
        for name, t in kernels(torch, dtype).items():
            cases.append({"kind": "kernel", "name": name, "dtype": dtype, "values": values(t.numpy())})
        for name, settings in OPTIMISERS:
            cases.append({"kind": "optimiser", "name": name, "settings": settings, "dtype": dtype,
                          "values": values(train(torch, torch.optim, dtype, name, settings))})
    path = pathlib.Path(__file__).with_name("kernel_runs.json")
    lines = ",\n".join(json.dumps(case) for case in cases)  # one case a line
    path.write_text(f'{{"torch": {json.dumps(torch.__version__)}, "n": {N}, "steps": {STEPS}, "cases": [\n{lines}\n]}}\n',
                    encoding="utf-8")
    print(f"wrote {len(cases)} cases to {path}")


if __name__ == "__main__":
    main()
