"""The op table defines the public surface: every row's declared parts exist.

A row of the op table (engine/ops/) declares its public function names, whether Tensor
has a method of each and an in-place variant (`exp_`), and how `eval
--formula` prints it. These tests fail when any declared part is missing --
the function, the method, the in-place method and function, the formula
renderer, the language's name for it, or the row's case in tests/engine/ops/op_cases.py
-- and when the README's op list names something the language does not know
(`autodiff functions`, built from the table, is the complete list: tests/cli/test_cli_functions.py).
"""
import re

import pytest

import autodiff.engine as ad
from autodiff.engine import functions
from autodiff.engine.graph import trace_inputs
from autodiff.grammar import formula, names

from locations import README
from op_cases import CASES

FORMULA_KINDS = {"infix", "prefix", "call", "same", "custom"}


def _in_a_namespace(function):
    """Whether one of torch's namespaces in the language (torch.special, torch.linalg) holds `function`."""
    return function is not None and any(
        any(member is function for member in ns.table.values())
        for ns in names.TORCH.values() if isinstance(ns, names.Namespace))


def surface_problems(op, cases=frozenset(c.op for c in CASES)):
    """What of its declared surface row `op` lacks, in words (empty when complete)."""
    problems = []
    if op.name not in ad.OPS or ad.OPS[op.name] is not op:
        problems.append(f"not registered in the table under its name {op.name!r}")
    for name in op.names:
        if not callable(getattr(functions, name, None)):
            problems.append(f"no function {name}() in autodiff.engine.functions")
        if (name not in names.BUILTINS or name not in names.TORCH) and not _in_a_namespace(getattr(functions, name, None)):
            problems.append(f"the language does not know {name} (bare or as torch.{name}, or in a namespace of "
                            f"torch's: special_erfcx is torch.special.erfcx)")
        if op.method:
            if not callable(getattr(ad.Tensor, name, None)):
                problems.append(f"no Tensor method {name}")
            elif name not in names.TENSOR_ATTRIBUTES:
                problems.append(f"the language does not allow the method x.{name}()")
        if op.inplace:
            if not callable(getattr(ad.Tensor, name + "_", None)):
                problems.append(f"no in-place method {name}_")
            if not callable(getattr(functions, name + "_", None)):
                problems.append(f"no in-place function {name}_()")
    spec = op.formula
    if not isinstance(spec, tuple) or not spec or spec[0] not in FORMULA_KINDS:
        problems.append(f"formula {spec!r} is not one of {sorted(FORMULA_KINDS)}")
    elif spec[0] == "infix" and spec[1] not in formula._INFIX:
        problems.append(f"no infix renderer for {spec[1]!r} in grammar/formula.py")
    elif spec[0] == "custom" and spec[1] not in formula._CUSTOM:
        problems.append(f"no custom renderer {spec[1]!r} in grammar/formula.py")
    if op.signature is not None and op.parsed.name != op.names[0]:
        problems.append(f"signature {op.signature!r} names another function than {op.names[0]!r}")
    if op.name not in cases:
        problems.append("no case in tests/engine/ops/op_cases.py")
    return problems


@pytest.mark.parametrize("name", sorted(ad.OPS))
def test_row_has_its_whole_surface(name):
    assert surface_problems(ad.OPS[name]) == []


def test_a_row_missing_parts_is_reported():
    class Half(ad.ops.Op):  # not registered: no name
        names = ("halve_it",)
        method = inplace = True
        formula = ad.ops.custom("no_such_renderer")

    Half.name = "halve_it"
    problems = surface_problems(Half)
    assert "not registered in the table under its name 'halve_it'" in problems
    assert "no function halve_it() in autodiff.engine.functions" in problems
    assert "no Tensor method halve_it" in problems
    assert "no in-place method halve_it_" in problems
    assert "no in-place function halve_it_()" in problems
    assert "no custom renderer 'no_such_renderer' in grammar/formula.py" in problems
    assert "no case in tests/engine/ops/op_cases.py" in problems


UNARY_CALLS = sorted(name for name, op in ad.OPS.items()
                     if op.signature is not None and [p.type for p in op.parsed.params] == ["Tensor"]
                     and len(op.parsed.returns) == 1 and op.differentiable and op.formula[0] == "call")


@pytest.mark.parametrize("name", UNARY_CALLS)
def test_unary_rows_print_as_calls_in_formulas(name):
    op = ad.OPS[name]
    x = ad.tensor([[0.25, 0.5], [0.5, 0.25]], requires_grad=True)  # (a matrix: det, inverse and trace take one)
    with trace_inputs():
        y = getattr(ad, op.names[0])(x)
    assert formula.formula_of(y, {id(x): "x"}) == f"{op.names[0]}(x)"


def test_formula_folds_numbers_with_the_rows_own_forward():
    b = formula._Builder()
    assert b.call("exp", [b.num(0.0)], row=ad.OPS["exp"]).a == 1.0
    assert b.call("erf", [b.num(0.0)], row=ad.OPS["erf"]).a == 0.0


def _readme_op_names():
    text = README.read_text(encoding="utf-8")
    section = text.split("\n## Ops\n", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"`([a-z_][a-z0-9_]*)`", section))
    assert listed, "the README's Ops section lists no names"
    return listed


def test_every_name_in_the_readme_op_list_resolves_in_the_language():
    probe = ad.tensor([1.0])
    unknown = []
    for name in sorted(_readme_op_names()):
        if name in names.BUILTINS:
            continue
        try:
            names.attribute(probe, name)
        except AttributeError:
            unknown.append(name)
    assert not unknown, f"the README lists names the language does not know: {unknown}"

