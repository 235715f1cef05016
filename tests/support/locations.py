"""Where the tests' data and the repository's own files are, for a test file at any depth of tests/."""
import pathlib

TESTS = pathlib.Path(__file__).resolve().parent.parent  # tests/
ROOT = TESTS.parent                                      # the repository: engine/, grammar/, cli/, README.md
GOLDEN = TESTS / "golden"                                # PyTorch's recorded results and their generators
SEEDS = TESTS / "seeds"                                  # the seeds' code cells (.ad) and what they print
README = ROOT / "README.md"
