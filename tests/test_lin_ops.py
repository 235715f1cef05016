"""vdot, inner, addmv, addr, matrix_power, logdet, slogdet, cdist, pdist, pairwise_distance,
layer_norm, embedding and the layers LayerNorm, Embedding, PairwiseDistance, ModuleDict and
ParameterList against PyTorch 2.13's own output: tests/golden/lin_ops.json, recorded by
tests/golden/gen_lin_ops.py from the programs of tests/golden/lin_ops_cases.py.

As tests/test_functional_ops.py: each case's outputs, node and next functions' names, warnings,
first and second derivatives (PyTorch's bits unless TOLERANCE says otherwise), each bad call's
exception type and message, and what each layer prints as."""
import json
import pathlib
import sys

import pytest

import autodiff.engine as ad

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "golden"))
from lin_ops_cases import CASES, ERRORS, REPRS  # noqa: E402
from functional_ops_cases import record, run_error  # noqa: E402
from test_functional_ops import assert_as_pytorch, namespace, within  # noqa: E402

GOLDEN = json.loads((HERE / "golden" / "lin_ops.json").read_text())

# {"out" | "grad" | "grad2": (ulps, atol)}, where our numbers round differently from PyTorch's
TOLERANCE = {
    # PyTorch's layer-norm backward kernel sums its terms in another order (rstd * g * w + b * x + c,
    # b and c from row sums): elements that nearly cancel differ by an ulp of their terms
    "layer_norm_affine": {"out": (4, 0.0), "grad": (0, 1e-14), "grad2": (0, 1e-14)},
}

# Measured distances from PyTorch's bits, in units in the last place (at most 64):
# matrix_power's inverse and slogdet/logdet (MKL's LAPACK, not numpy's),
# cdist/pdist/pairwise_distance (PyTorch's kernels sum their powers in another order), layer_norm
# (its statistics by Welford's running mean), embedding's scaled gradient, module_dict.
# Until tests/test_functional_ops._ulps counted exactly (it went through float64, which rounds a gap
# of a few units between large bit patterns to nothing), these passed as bit-equal.
TOLERANCE.update({
    "matrix_power_minus_1": {"out": (1, 0.0), "grad": (5, 0.0), "grad2": (5, 0.0)},
    "matrix_power_minus_2": {"out": (2, 0.0), "grad": (8, 0.0), "grad2": (9, 0.0)},
    "matrix_power_minus_3": {"out": (3, 0.0), "grad": (14, 0.0), "grad2": (7, 0.0)},
    "matrix_power_batched_minus_1": {"grad2": (1, 0.0)},
    "slogdet": {"grad2": (5, 0.0)},
    "slogdet_negative": {"out": (2, 0.0), "grad2": (2, 0.0)},
    "slogdet_batched_method": {"out": (2, 0.0), "grad2": (2, 0.0)},
    "logdet": {"grad2": (5, 0.0)},
    "logdet_negative_is_nan": {"grad2": (1, 0.0)},
    "pdist_p3": {"grad": (1, 0.0)},
    "cdist_p_half": {"grad": (16, 0.0)},
    "pdist_p_half": {"out": (2, 0.0), "grad": (3, 0.0)},
    "cdist_many_rows": {"out": (1, 0.0), "grad": (32, 0.0), "grad2": (64, 0.0)},
    "cdist_many_rows_right_batched": {"out": (1, 0.0), "grad": (8, 0.0), "grad2": (8, 0.0)},
    "cdist_mm_mode": {"grad": (2, 0.0), "grad2": (2, 0.0)},
    "cdist_donot_use_mm": {"grad": (14, 0.0)},
    "torch_pdist": {"grad": (4, 0.0)},
    "pairwise_distance": {"grad": (1, 0.0)},
    "pairwise_distance_p3_vectors": {"grad": (1, 0.0)},
    "pairwise_distance_module": {"grad": (1, 0.0), "grad2": (6, 0.0)},
    "layer_norm": {"out": (4, 0.0), "grad": (31, 0.0), "grad2": (36, 0.0)},
    "layer_norm_two_dims_weight_only": {"out": (4, 0.0), "grad": (25, 0.0), "grad2": (16, 0.0)},
    "layer_norm_bias_only": {"out": (2, 0.0), "grad": (31, 0.0)},
    "layer_norm_module": {"out": (4, 0.0), "grad": (31, 0.0), "grad2": (25, 0.0)},
    "layer_norm_module_no_affine": {"out": (27, 0.0), "grad": (1, 0.0), "grad2": (24, 0.0)},
    "embedding_scale_grad_by_freq": {"grad": (3, 0.0)},
    "module_dict": {"grad": (1, 0.0), "grad2": (1, 0.0)},
})


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
