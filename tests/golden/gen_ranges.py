"""Regenerate tests/golden/ranges.json: torch.arange, torch.linspace and torch.logspace from PyTorch itself,
bit for bit, over starts, ends, steps and dtypes that exercise every part of its kernels
(the two halves of linspace, arange's vector blocks and its one-by-one tail).

Run with a Python that has PyTorch 2.13 (`pip install torch==2.13.0`; not a dependency of the
test suite):

    python tests/golden/gen_ranges.py

A case keeps every element's bits (as integers) when it has at most 64 elements, else the
SHA-256 of its bytes and a sample of elements; tests/engine/test_ranges.py compares exactly."""
import hashlib
import json
import pathlib
import random

import numpy
import torch

DTYPES = {"float32": (torch.float32, numpy.uint32), "float64": (torch.float64, numpy.uint64),
          "int64": (torch.int64, numpy.uint64), "int32": (torch.int32, numpy.uint32)}


def record(kind, args, dtype, tensor):
    arr = tensor.numpy()
    bits = arr.view(DTYPES[dtype][1])
    case = {"kind": kind, "args": args, "dtype": dtype, "n": int(arr.size)}
    if arr.size <= 64:
        case["bits"] = [int(b) for b in bits]
    else:
        case["sha256"] = hashlib.sha256(arr.tobytes()).hexdigest()
        picks = sorted({0, 1, arr.size // 2 - 1, arr.size // 2, arr.size - 17, arr.size - 1,
                        *random.Random(arr.size).sample(range(arr.size), 6)})
        case["sample"] = {str(i): int(bits[i]) for i in picks}
    return case


def main():
    rnd = random.Random(2026)
    cases = []
    lin = [(-1, 1, 20), (0, 1, 7), (-3.3, 7.1, 101), (0, 10, 11), (1e-3, 5, 33), (-1, 1, 2000), (0, 1, 16),
           (0, 1, 15), (0, 1, 17), (5, -5, 31), (0, 1, 1), (2, 2, 5), (-1e6, 1e6, 999), (0, 1, 0), (0, 1, 2),
           (-2.5, 2.5, 64), (3, 100, 40000)]
    lin += [(round(rnd.uniform(-100, 100), 3), round(rnd.uniform(-100, 100), 3), rnd.randint(2, 3000))
            for _ in range(40)]
    for a, b, n in lin:
        for dtype in DTYPES:
            cases.append(record("linspace", [a, b, n], dtype, torch.linspace(a, b, n, dtype=DTYPES[dtype][0])))
    ar = [(0, 1, 0.1), (-1, 1, 0.1), (0, 10, 0.3), (-3.3, 7.1, 0.01), (5, -5, -0.7), (0.1, 100, 0.7),
          (0, 2, 0.125), (0, 16 * 0.1, 0.1), (0, 1.7, 0.1), (1e-4, 1, 1e-3)]
    for _ in range(30):
        a = round(rnd.uniform(-50, 50), 4)
        st = rnd.choice([-1, 1]) * round(rnd.uniform(0.001, 3), 5)
        ar.append((a, round(a + st * rnd.randint(0, 3000), 4), st))
    for a, b, st in ar:
        for dtype in ("float32", "float64"):
            cases.append(record("arange", [a, b, st], dtype, torch.arange(a, b, st, dtype=DTYPES[dtype][0])))
    log = [(0, 2, 3, 10.0), (-1, 1, 7, 10.0), (0, 1, 5, 2.0), (-3, 3, 100, 10.0), (2, -2, 9, 10.0), (1, 1, 1, 10.0),
           (1.2, 4.4, 5, 2.718281828459045), (0.5, 3.5, 4, 2.0), (0, 1, 0, 10.0)]
    rlog = random.Random(7)
    log += [(round(rlog.uniform(-5, 5), 4), round(rlog.uniform(-5, 5), 4), rlog.randint(2, 300),
             rlog.choice([2.0, 10.0, 2.718281828459045, 3.0])) for _ in range(20)]
    for a, b, n, base in log:
        for dtype in DTYPES:
            cases.append(record("logspace", [a, b, n, base], dtype,
                                torch.logspace(a, b, n, base=base, dtype=DTYPES[dtype][0])))
    path = pathlib.Path(__file__).with_name("ranges.json")
    path.write_text(json.dumps({"torch": torch.__version__, "cases": cases}) + "\n", encoding="utf-8")
    print(f"wrote {len(cases)} cases to {path}")


if __name__ == "__main__":
    main()
