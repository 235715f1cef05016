"""Regenerate tests/golden/edges.json: PyTorch 2.13's answers at the edges where this engine once
crashed or answered otherwise (issue 29's list): 0-d tensors reduced along their one dim, empty dims,
ties of clamp's tensor bounds, xlogy at x = 0, norms of every p and their second derivatives at zero,
div's rounding modes, pad's modes, adaptive pooling to sizes that do not divide, Tensor.new...

Every case is a function of the library (`torch`, or `autodiff.engine` in the test) that returns
plain Python data; the test (tests/engine/test_edges.py) runs the same functions on the engine and
compares within the float64 tolerance, except the cases it names with the reason they differ.

Run with a Python that has PyTorch 2.13 (`pip install torch==2.13.0`; not a dependency of the test
suite): python tests/golden/gen_edges.py
"""
import json
import math
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from edges_cases import CASES, outcome  # noqa: E402


def main():
    import torch
    torch.set_default_dtype(torch.float64)
    golden = {name: outcome(torch, fn) for name, fn in CASES.items()}
    path = HERE / "edges.json"
    path.write_text(json.dumps({"torch": torch.__version__, "cases": golden}, indent=1, allow_nan=True) + "\n")
    print(f"wrote {len(golden)} cases to {path}")


if __name__ == "__main__":
    main()
