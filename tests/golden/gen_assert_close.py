"""Record torch.testing.assert_close's outcome (OK, or the error and its message)
for each case of assert_close_cases.py into assert_close.json.

Run with a Python that has PyTorch 2.13 (`pip install torch==2.13.0`; not a dependency of the
test suite):

    python tests/golden/gen_assert_close.py
"""
import json
import pathlib
import sys

import torch

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE))
import assert_close_cases  # noqa: E402

if __name__ == "__main__":
    outcomes = assert_close_cases.run(torch, torch.testing.assert_close)
    document = {"torch": torch.__version__, "outcomes": outcomes}
    (HERE / "assert_close.json").write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n")
    print(f"{len(outcomes)} cases written")
