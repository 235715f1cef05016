"""vdot, inner, addmv, addr, matrix_power, logdet, slogdet, cdist, pdist, pairwise_distance,
layer_norm, embedding and the layers LayerNorm, Embedding, PairwiseDistance, ModuleDict and
ParameterList against PyTorch 2.13's own output: tests/golden/lin_ops.json, recorded by
tests/golden/gen_lin_ops.py from the programs of tests/golden/lin_ops_cases.py.

As tests/engine/ops/test_functional_ops.py: each case's outputs, node and next functions' names, warnings,
first and second derivatives (within their dtype's tolerance unless TOLERANCE says otherwise), each bad call's
exception type and message, and what each layer prints as."""
import json

import pytest

import autodiff.engine as ad

from lin_ops_cases import CASES, ERRORS, REPRS
from functional_ops_cases import record, run_error
from test_functional_ops import assert_as_pytorch, namespace, within
import locations

GOLDEN = json.loads((locations.GOLDEN / "lin_ops.json").read_text())

# {"out" | "grad" | "grad2": (rtol, atol)}: where a case's numbers may be further from PyTorch's
# than their dtype's tolerance (tests/support/tolerance.py), and why.
TOLERANCE = {}


@pytest.mark.parametrize("name, program", CASES, ids=[name for name, _ in CASES])
def test_as_pytorch(name, program):
    want = GOLDEN["cases"][name]
    got = record(program, namespace())
    # no second derivative where PyTorch has none (_cdist_backward, _pdist_backward; layer_norm's with
    # a bias and no weight): ours is checked against finite differences in op_cases_lin
    assert_as_pytorch(got, want, within(TOLERANCE, name), second_order="grad2_error" not in want)


@pytest.mark.parametrize("name, program", ERRORS, ids=[name for name, _ in ERRORS])
def test_bad_calls_as_pytorch(name, program):
    assert run_error(program, namespace()) == GOLDEN["errors"][name]


@pytest.mark.parametrize("name, program", REPRS, ids=[name for name, _ in REPRS])
def test_prints_as_pytorch(name, program):
    ns = namespace()
    exec(program, ns)
    assert ns["text"] == GOLDEN["reprs"][name]


def test_the_golden_file_has_every_case():
    assert set(GOLDEN["cases"]) == {name for name, _ in CASES}
    assert set(GOLDEN["errors"]) == {name for name, _ in ERRORS}
    assert set(GOLDEN["reprs"]) == {name for name, _ in REPRS}


def test_the_sign_of_slogdet_passes_a_zero_gradient():
    # PyTorch ignores the gradient reaching the sign (its backward returns nothing for it, so a
    # loss of the sign alone is "not used in the graph" there); here it is zeros
    a = ad.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    (g,) = ad.grad(ad.slogdet(a).sign, a)
    assert g.tolist() == [[0.0, 0.0], [0.0, 0.0]]


def test_the_gradient_of_logdet_at_a_singular_matrix_is_infinite_not_an_error():
    # PyTorch's LU solve divides by the zero pivot: [[-inf, inf], [inf, -inf]] for this matrix and
    # NaNs (an inf) for the zero matrix; ours divides the cofactors by a zero whose sign may be
    # the other one, so only "not finite" is PyTorch's here
    a = ad.tensor([[[1.0, 2.0], [2.0, 4.0]], [[0.0, 0.0], [0.0, 0.0]]], requires_grad=True)
    ad.slogdet(a).logabsdet.sum().backward()
    assert not ad.isfinite(a.grad).any().item()
    b = ad.tensor([[1.0, 2.0], [2.0, 4.0]], requires_grad=True)
    ad.logdet(b).backward()
    assert [[abs(v) for v in row] for row in b.grad.tolist()] == [[float("inf")] * 2] * 2
