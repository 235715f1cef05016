"""Regenerate tests/golden/reductions.json: PyTorch 2.13's sums and means over dims, var and std,
logsumexp, vector norms, and gradients summed back over broadcast dims. The inputs come from
Python's own generator (its stream is fixed across versions), so the JSON holds only PyTorch's
answers.

Run with a Python that has PyTorch 2.13 (`pip install torch==2.13.0`; not a dependency of the
test suite):

    python tests/golden/gen_reductions.py
"""
import json
import pathlib
import random

# (shape, dims): inner reductions, outer ones, several dims, size-1 dims, a 1-d tensor
CASES = [((100,), 0), ((7, 300), 1), ((300, 7), 0), ((50, 60), 1), ((50, 60), 0), ((4, 5, 6), 1), ((3, 4097), 1),
         ((33, 17), 1), ((33, 17), 0), ((2, 3), 1), ((3, 2), 0), ((5, 40, 21), 1), ((9, 35, 17), 2), ((9, 35, 17), 0),
         ((257, 33), 0), ((6, 2, 70), 1), ((30, 1, 40), 0), ((3, 40, 7), (0, 2)), ((4, 5, 6, 7), (0, 2, 3)),
         ((2, 3, 4, 5), (1, 3)), ((6, 7, 8), (0, 1)), ((2, 3, 4, 5, 6), (0, 2, 4))]
# var and std: shape, dtype, keyword arguments
SPREADS = [((100,), "float64", {}), ((1000,), "float64", {}), ((50, 60), "float64", {}), ((3, 4), "float32", {}),
           ((2, 3, 4), "float64", {"unbiased": False}), ((200, 3), "float32", {"correction": 0}), ((7,), "float64", {}),
           # along dims
           ((7, 30), "float64", {"dim": 1}), ((30, 7), "float64", {"dim": 0}), ((4, 5, 6), "float32", {"dim": 1}),
           ((3, 40, 7), "float64", {"dim": (0, 2), "keepdim": True}), ((64, 10), "float32", {"dim": 0, "unbiased": False}),
           ((5, 1, 9), "float64", {"dim": 1}), ((6, 8), "float64", {"dim": -1, "correction": 2})]
# logsumexp
LOGSUMEXP = [((30, 100), 1), ((100, 30), 0), ((5, 7, 9), (0, 2))]
# vector norms: (shape, dtype, p, dim)
NORMS = [((100,), "float64", 2, None), ((30, 100), "float64", 2, 1), ((100, 30), "float64", 2, 0),
         ((5, 7, 9), "float32", 2, (1, 2)), ((5, 7, 9), "float64", 2, 1), ((50,), "float64", 1, None),
         ((2, 300), "float32", 3, -1), ((20, 20), "float64", 0.5, None)]
# (input shape, broadcast operand shape): the operand's gradient is the sum over the broadcast dims
BROADCASTS = [((64, 5), (5,)), ((64, 5), (64, 1)), ((3, 40, 7), (1, 40, 1)), ((8, 3, 5, 5), (3, 1, 1))]


def values(shape, seed):
    rng = random.Random(seed)
    n = 1
    for s in shape:
        n *= s
    return [rng.gauss(0, 1) for _ in range(n)]


def main():
    import torch
    out = {"sums": [], "broadcasts": []}
    for k, (shape, dims) in enumerate(CASES):
        for dtype in ("float64", "float32"):
            x = torch.tensor(values(shape, k), dtype=getattr(torch, dtype)).reshape(shape)
            out["sums"].append({"case": k, "dtype": dtype,
                                "sum": [float(v).hex() for v in x.sum(dim=dims).reshape(-1).tolist()],
                                "mean": [float(v).hex() for v in x.mean(dim=dims).reshape(-1).tolist()]})
    out["spreads"] = []
    for k, (shape, dtype, kwargs) in enumerate(SPREADS):
        x = torch.tensor(values(shape, 500 + k), dtype=getattr(torch, dtype)).reshape(shape)
        out["spreads"].append({"var": [float(v).hex() for v in x.var(**kwargs).reshape(-1).tolist()],
                               "std": [float(v).hex() for v in x.std(**kwargs).reshape(-1).tolist()]})
    out["logsumexp"] = []
    for k, (shape, dims) in enumerate(LOGSUMEXP):
        x = torch.tensor(values(shape, 700 + k), dtype=torch.float64).reshape(shape)
        out["logsumexp"].append([float(v).hex() for v in torch.logsumexp(x, dims).reshape(-1).tolist()])
    out["norms"] = []
    for k, (shape, dtype, p, dim) in enumerate(NORMS):
        x = torch.tensor(values(shape, 800 + k), dtype=getattr(torch, dtype)).reshape(shape)
        out["norms"].append([float(v).hex() for v in x.norm(p=p, dim=dim).reshape(-1).tolist()])
    for k, (shape, bshape) in enumerate(BROADCASTS):
        a = torch.tensor(values(shape, 100 + k), dtype=torch.float64).reshape(shape)
        w = torch.tensor(values(shape, 200 + k), dtype=torch.float64).reshape(shape)
        b = torch.tensor(values(bshape, 300 + k), dtype=torch.float64).reshape(bshape).requires_grad_()
        ((a + b) * w).sum().backward()
        out["broadcasts"].append({"shape": list(shape), "bshape": list(bshape),
                                  "grad": [float(v).hex() for v in b.grad.reshape(-1).tolist()]})
    path = pathlib.Path(__file__).with_name("reductions.json")
    path.write_text(json.dumps({"torch": torch.__version__, **out}) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
