"""`autodiff functions [FILTER] [--json]` (issue 10): the language's names, each
with a one-line summary, generated from the tables the language resolves names
with -- so every name listed (and each of its other spellings) resolves in a
program, every public name of the op table and of the README's op list is
there, and no summary or signature shows Python's insides."""
import json
import pathlib
import re
import subprocess
import sys
import sysconfig

import pytest

from autodiff import engine as ad
from autodiff.grammar.errors import LanguageError
from autodiff.grammar.program import Session
from locations import README


def listing(cli, *args):
    return json.loads(cli.ok("functions", *args, "--json").stdout)


@pytest.fixture(scope="module")
def entries(cli):
    """Every entry of `autodiff functions --json`."""
    return listing(cli)


@pytest.fixture(scope="module")
def by_name(entries):
    return {e["name"]: e for e in entries}


def spellings(entry):
    return [entry["name"]] + entry.get("also", [])


# ------------------------------------------------------------------ the list is the language's

def program_for(spelling):
    """A tiny program whose last line refers to `spelling` (Tensor.X is a tensor's X)."""
    if spelling.startswith("Tensor."):
        return f"x = ones(2, 2, requires_grad=True)\nx.{spelling[len('Tensor.'):]}"
    return spelling


def test_every_listed_spelling_resolves_in_the_language(entries):
    session = Session()
    unresolved = []
    try:
        for entry in entries:
            for spelling in spellings(entry):
                try:
                    session.run(program_for(spelling), echo=True)
                except LanguageError as e:
                    unresolved.append(f"{spelling}: {e}")
    finally:
        session.close()
    assert not unresolved, unresolved


def test_a_name_that_does_not_resolve_is_caught_by_the_check():
    session = Session()
    try:
        with pytest.raises(LanguageError):
            session.run(program_for("Tensor.no_such_method"), echo=True)
        with pytest.raises(LanguageError):
            session.run(program_for("torch.linalg.no_such_function"), echo=True)
    finally:
        session.close()


def test_every_public_name_of_the_op_table_is_listed(entries):
    bare = {s for e in entries for s in spellings(e)}
    # (PyTorch's special_erfcx is torch.special.erfcx: listed under that name)
    missing = sorted(n for op in ad.OPS.values() for n in op.names
                     if n not in bare and not (n.startswith("special_") and f"torch.special.{n[8:]}" in bare))
    assert not missing


def test_every_name_of_the_readmes_op_list_is_listed(entries):
    section = README.read_text(encoding="utf-8").split("\n## Ops\n", 1)[1].split("\n## ", 1)[0]
    names = set(re.findall(r"`([a-z_][a-z0-9_]*)`", section))
    names |= {"torch.linalg." + n for n in re.findall(r"`linalg\.([a-z_]+)`", section)}
    special = {"torch.special." + n for n in re.findall(r"`special\.([a-z0-9_]+)`", section)}
    assert names
    listed = {s for e in entries for s in spellings(e)}
    assert sorted(names - listed) == []
    # torch.special's names: each a spelling of an entry (its own, or the bare function it is: special.erf
    # is one of erf's), so `autodiff functions special` shows them all
    assert special and sorted(special - listed) == []


def test_methods_and_in_place_forms_are_folded_into_the_function(by_name):
    sin = by_name["sin"]
    assert sin["kind"] == "function" and sin["signature"] == "sin(input)"
    assert set(sin["also"]) == {"torch.sin", "Tensor.sin", "sin_", "torch.sin_", "Tensor.sin_"}
    assert "Tensor.sin" not in by_name and "sin_" not in by_name
    # same name, different things: kept apart
    assert by_name["grad"]["kind"] == "function" and by_name["Tensor.grad"]["kind"] == "attribute"
    assert by_name["float"]["group"] == "Python built-ins" and by_name["torch.float"]["kind"] == "dtype"
    assert by_name["Tensor.float"]["kind"] == "method" and "float32" in by_name["Tensor.float"]["summary"]


def test_namespaces_and_their_own_functions(by_name):
    assert {"torch", "torch.linalg", "torch.nn.functional", "torch.autograd", "torch.optim"} <= set(by_name)
    assert all(by_name[n]["kind"] == "namespace" for n in ("torch.linalg", "torch.nn.functional"))
    assert by_name["torch.nn.functional"]["also"] == ["F"]
    for n in ("det", "inv", "solve", "cross", "norm", "vector_norm", "matrix_norm"):
        assert by_name[f"torch.linalg.{n}"]["group"] == "Linear algebra"
    assert by_name["torch.linalg.solve"]["signature"] == "torch.linalg.solve(A, B, *, left=True)"


# ------------------------------------------------------------------ the summaries

def test_sin_is_described_as_the_sine(cli, by_name):
    assert "sine" in by_name["sin"]["summary"]
    text = cli.ok("functions").stdout
    line = next(l for l in text.splitlines() if re.match(r"\s+sin\s", l))
    assert "sine" in line and "m_" in line


def test_every_entry_has_a_summary_of_one_line_without_python_insides(entries):
    # the word "module" (Python's); PyTorch's own parameter `modules` (nn.ModuleList) is fine
    leaks = re.compile(r"\bself\b|autodiff|engine|__|<[a-z]|\bctx\b|\bxp\b|numpy\.|\bmodule\b")
    for e in entries:
        assert e["summary"] and e["summary"] != "(no description)", e
        assert "\n" not in e["summary"] and len(e["summary"]) <= 110, e
        assert not leaks.search(e["summary"]), e
        if "signature" in e:
            assert not leaks.search(e["signature"]), e
            assert "*args, **kwargs" not in e["signature"], e


def test_json_entries_have_the_documented_keys(entries):
    assert isinstance(entries, list) and len(entries) > 250
    for e in entries:
        assert {"name", "kind", "summary"} <= set(e) <= {"name", "kind", "group", "signature", "summary", "also"}
        assert e["kind"] in {"function", "in-place function", "method", "attribute", "namespace", "constant",
                             "dtype", "class", "context manager"}
    assert len({e["name"] for e in entries}) == len(entries)


# ------------------------------------------------------------------ the command line

def test_text_is_grouped_with_a_legend(cli):
    text = cli.ok("functions").stdout
    lines = text.splitlines()
    assert lines[0].startswith("A function is also torch.NAME, save for Python's built-ins.")
    headings = [l for l in lines if l and not l.startswith(" ")][1:]
    assert headings[:3] == ["Creation", "Arithmetic", "Elementwise maths"]
    assert "Linear algebra" in headings and "Tensor attributes" in headings and "Namespaces" in headings
    assert re.search(r"^  torch\.linalg\.det\s+the determinant", text, re.M)


def test_filter_is_a_substring_of_any_spelling(cli, by_name):
    names = [e["name"] for e in listing(cli, "sin")]
    assert {"sin", "asin", "sinh", "arcsin"} <= set(names)
    assert all("sin" in " ".join(spellings(e)).lower() for e in listing(cli, "sin"))
    assert sorted(e["name"] for e in listing(cli, "linalg.")) == sorted(n for n in by_name
                                                                      if n.startswith("torch.linalg."))
    # a capital letter makes case matter: F is torch.nn.functional, not every name with an f
    found = [e["name"] for e in listing(cli, "F")]
    assert "torch.nn.functional" in found and "FloatTensor" in found and "sin" not in found
    assert all("F" in " ".join(spellings(e)) for e in listing(cli, "F"))


def test_an_exact_name_is_shown_in_full(cli):
    text = cli.ok("functions", "torch.linalg.solve").stdout  # (solve_triangular matches too: listed first)
    assert "\ntorch.linalg.solve(A, B, *, left=True)\n" in text
    text = cli.ok("functions", "torch.linalg.det").stdout
    assert text.splitlines()[0] == "torch.linalg.det(A)"
    text = cli.ok("functions", "x.item").stdout
    assert text.splitlines()[0] == "x.item()" and "Python number" in text
    text = cli.ok("functions", "F.relu").stdout  # another spelling of relu
    assert text.splitlines()[0] == "relu(input)" and "also: torch.relu, x.relu(), relu_" in text


def test_no_match_says_so_suggests_and_exits_1(cli):
    result = cli.fails("functions", "sinus")
    assert result.stdout == ""
    assert result.stderr.startswith("no name contains 'sinus'") and "sinh" in result.stderr
    assert json.loads(cli.fails("functions", "zzzz", "--json").stdout) == []


def test_help_and_version(cli):
    assert "FILTER" in cli.ok("functions", "--help").stdout
    assert "functions" in cli.ok("--help").stdout
    assert cli.ok("functions", "--version").stdout.startswith("autodiff")


def test_piping_to_head_is_quiet():
    script = pathlib.Path(sysconfig.get_path("scripts")) / "autodiff"
    cmd = f"'{script}' functions | head -n 2" if script.exists() else \
        f"'{sys.executable}' -m autodiff.cli.main functions | head -n 2"
    done = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], capture_output=True, text=True, timeout=120)
    assert done.stderr == ""
    assert done.stdout.splitlines()[0].startswith("A function is also torch.NAME, save for Python's built-ins.")
    assert done.returncode in (0, 141)


def test_from_the_shell(cli):
    done = cli.console("functions", "cummax")  # a name no other contains (torch.masked.cumprod contains cumprod)
    assert done.returncode == 0 and done.stdout.startswith("cummax(input, dim")


def test_everything_the_language_resolves_is_listed(entries):
    """What a program can name bare, after `torch.`, or on a tensor: all listed (but the engine's plumbing)."""
    from autodiff.grammar import names
    listed = {s for e in entries for s in spellings(e)}
    plumbing = {"run_op", "getitem", "setitem"}
    assert sorted(set(names.BUILTINS) - plumbing - listed) == []
    assert sorted(f"torch.{n}" for n in names.TORCH if f"torch.{n}" not in listed and n not in listed
                  and n not in plumbing) == []
    assert sorted(f"Tensor.{n}" for n in names.TENSOR_ATTRIBUTES if f"Tensor.{n}" not in listed) == []
    import importlib
    importlib.import_module("autodiff.grammar.vm")  # the interpreter adds getattr, hasattr, callable
    from autodiff.grammar import modules
    assert sorted(set(modules.EXTRA_BUILTINS) - {"__name__"} - listed) == []   # Python's built-ins, exceptions
    assert {"divmod", "getattr", "isinstance", "ValueError"} <= listed


def test_tensor_dot_lists_a_tensors_methods_and_attributes(cli):
    found = listing(cli, "Tensor.")
    assert {"sin", "sum", "Tensor.item", "Tensor.shape", "Tensor.grad"} <= {e["name"] for e in found}
    assert "arange" not in {e["name"] for e in found}
