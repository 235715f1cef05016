"""The seeds' code cells, run as `autodiff run` scripts (tests/seeds/*.ad).

Each `tests/seeds/<seed>_<cell>.ad` holds one code cell of a tutorial in
shared/seeds/ (000..004), with only mechanical edits, each said in a comment
at the top of the file, and the earlier cells' state it depends on. Next to it:

- `<name>.out`: what the seed shows for the cell, exactly (stdout must equal it;
  an empty file for a cell that prints nothing: it must run, exit 0, print nothing);
- or `<name>.err`: for a cell whose seed output is an error, the start of the
  message: stderr must begin `error: ` and it, then name the script's line; exit status 1.

Directives in the script's leading comments:

- `# autodiff: OPTIONS` -- extra options for `autodiff run` (`--dtype float32` where
  the seed's output is float32, PyTorch's default);
- `# autodiff-requires: cuda` -- the cell needs a GPU; without one it runs on the
  fake CuPy backend of tests/support/fakecuda.py (so the device seam and the printing of
  `device='cuda:0'` are checked everywhere);
- `# autodiff-warns: TEXT` -- stderr must contain TEXT (the seed shows a warning);
  without it, stderr must be empty.

Seed cells not covered, and why:

- seed 001, second block (`out = model(x); loss = criterion(out, y);
  optimizer.zero_grad(); loss.backward(); optimizer.step()`): a pattern with
  undefined `model`, `criterion`, `optimizer`, `x`, `y`, not a runnable cell; it
  prints nothing. (The same loop, runnable, is seed 004's SGD cell, 004_code6.)
- seed 002, In [15] (`A = np.array(...); print(A + [[2], [3]])`): plain numpy,
  printed as numpy prints an int array (`[[3 4 5]\n [7 8 9]]`); numpy is not part
  of the language (nothing reaches Python), so there is nothing of ours to run.
- seed 002, In [66]/[67] use `torch.randn(2, device='cuda')`: PyTorch's CUDA random
  stream cannot be replayed, so the scripts hold the drawn values (which In [67]
  shows in full) as a literal; 002_in67cpu runs the same on the CPU.
- seed 003, the fifth block prints with PyTorch 0.3's format
  (` 3  5\n[torch.FloatTensor of size 1x2]`); the expected output is PyTorch 2.x's
  repr of the same values, `tensor([[3., 5.]])`. Likewise seed 002, In [69]'s
  `<ExpBackward>` is PyTorch 2.x's `<ExpBackward0>`.
- seed 004's last three blocks show no output in the seed; their expected output
  is what PyTorch 2.x prints for them (randn in the `while` cell replaced by fixed
  values so that x.grad is deterministic).
"""
import pathlib
import re
import shlex

import pytest
from autodiff import engine as E

SEEDS = pathlib.Path(__file__).parent / "seeds"
SCRIPTS = sorted(SEEDS.glob("*.ad"))

_MULTILINE_BRACKETS = ("bug: a statement whose brackets span lines swallows the newline after the closing "
                       "bracket, so the next statement is 'missing operator before ...' (grammar/parser.py "
                       "tokenize: at_line_start stays True inside brackets)")
_TRIPLE_QUOTES = ("bug: triple-quoted strings (the seed's \"\"\" ... \"\"\" docstring statements) are not "
                  "accepted: \"unexpected character '\\\"'\"")

# Known bugs in the code under test (see the report); each xfail is strict, so a fix shows up.
KNOWN_BUGS = {
}


def _params():
    out = []
    for path in SCRIPTS:
        marks = []
        if path.stem in KNOWN_BUGS:
            marks.append(pytest.mark.xfail(strict=True, reason=KNOWN_BUGS[path.stem]))
        out.append(pytest.param(path, id=path.stem, marks=marks))
    return out


def directives(path):
    """The `# autodiff...:` lines among the script's leading comments."""
    found = {"options": [], "requires": [], "warns": []}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            break
        m = re.match(r"#\s*autodiff(-requires|-warns)?:\s*(.*)$", line)
        if not m:
            continue
        kind, value = m.group(1), m.group(2).strip()
        if kind is None:
            found["options"] += shlex.split(value)
        elif kind == "-requires":
            found["requires"].append(value)
        else:
            found["warns"].append(value)
    return found


@pytest.fixture
def cuda_backend():
    """A real GPU if there is one, else the fake CuPy backend for the test's duration."""
    if E.cuda_is_available():
        yield "cuda"
        return
    import fakecuda
    previous = fakecuda.install()
    try:
        yield "fakecuda"
    finally:
        fakecuda.uninstall(previous)


def test_every_script_has_an_expectation():
    assert SCRIPTS, "no seed scripts found"
    for path in SCRIPTS:
        out, err = path.with_suffix(".out"), path.with_suffix(".err")
        assert out.exists() != err.exists(), f"{path.name} needs exactly one of .out or .err"


def test_every_seed_has_scripts():
    seeds = sorted(p.name[:3] for p in (SEEDS.parent.parent.parent / "shared" / "seeds").glob("*.txt")) \
        if (SEEDS.parent.parent.parent / "shared" / "seeds").exists() else ["000", "001", "002", "003", "004"]
    for seed in seeds:
        assert list(SEEDS.glob(f"{seed}_*.ad")), f"seed {seed} has no scripts"


@pytest.mark.parametrize("path", _params())
def test_seed_script(cli, path, request):
    d = directives(path)
    if "cuda" in d["requires"]:
        request.getfixturevalue("cuda_backend")
    dtype_before = E.get_default_dtype()
    result = cli.run(None, *d["options"], script=path)
    assert E.get_default_dtype() == dtype_before, "the run changed the default dtype for what follows"
    expected_out = path.with_suffix(".out")
    if expected_out.exists():
        assert result.stdout == expected_out.read_text(encoding="utf-8"), result.stderr
        assert result.exit_code == 0, result.stderr
        if d["warns"]:
            for text in d["warns"]:
                assert text in result.stderr
        else:
            assert result.stderr == ""
    else:
        expected = path.with_suffix(".err").read_text(encoding="utf-8").strip()
        assert result.exit_code == 1, (result.stdout, result.stderr)
        assert result.stderr.startswith(f"error: {expected}"), result.stderr
        assert f"\n  at {path}, line " in result.stderr  # the error names the script and its line
