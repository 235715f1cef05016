"""Regenerate tests/golden/det.json: PyTorch 2.13's determinants of batches of
1x1 to 16x16 matrices, plus
two sizes past 16 recorded for the record. The matrices come from Python's own generator (its
stream is fixed across versions), so the JSON holds only PyTorch's answers.

Run with a Python that has PyTorch 2.13 (`pip install torch==2.13.0`; not a dependency of the
test suite):

    python tests/golden/gen_det.py
"""
import json
import pathlib
import random

SIZES = list(range(1, 17))
BATCH = 4


def matrices(n, kind):
    """BATCH matrices of n rows: 'normal' draws, or small integers (ties and singular ones)."""
    rng = random.Random(1000 * n + (kind == "int"))
    if kind == "int":
        return [[[float(rng.randint(-3, 3)) for _ in range(n)] for _ in range(n)] for _ in range(BATCH)]
    return [[[rng.gauss(0, 1) for _ in range(n)] for _ in range(n)] for _ in range(BATCH)]


def main():
    import torch
    out = {}
    for dtype in ("float64", "float32"):
        for kind in ("normal", "int"):
            for n in SIZES:
                det = torch.linalg.det(torch.tensor(matrices(n, kind), dtype=getattr(torch, dtype)))
                out[f"{dtype}/{kind}/{n}"] = [float(v).hex() for v in det.tolist()]
    path = pathlib.Path(__file__).with_name("det.json")
    path.write_text(json.dumps({"torch": torch.__version__, "det": out}, indent=0) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
