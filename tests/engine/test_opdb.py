"""PyTorch's op database as our oracle: the sample inputs of every OpInfo of PyTorch's op_db
(tests/golden/opdb, written by tests/golden/gen_opdb.py), replayed on autodiff.engine through our
public API (the function, Tensor method or namespace function of the same name) and compared with
PyTorch's outputs, a vector-Jacobian product with a fixed cotangent and a second-order product,
within tests/support/tolerance.py's per-dtype bounds, NaN where PyTorch has NaN. The samples
include copies with edge values (nan, +-inf, +-0, ties), where PyTorch's error type is compared too.

Every op of op_db has a golden file; an op we do not have (no such name in our API) is skipped,
and tests/golden/opdb/missing.txt lists them (kept current by test_missing_list; rewrite it with
`python tests/engine/test_opdb.py --write-missing`). So an op added to our API later is replayed
without regenerating anything. tests/golden/opdb/skipped.txt (written and checked the same way) lists
the samples of our ops that are not replayed, with the generator's reason.

Where we knowingly differ, KNOWN names the op key, the parts (fnmatch patterns over
"<dtype>#<sample index>[:<edge>]/<out|vjp|vjp2>") and the reason; UNSUPPORTED names the samples
whose argument form we do not take (a sample we cannot even build, e.g. of a dtype we lack, fails
unless it is listed there). Both are run, and each entry must still match a failing part
(an entry that matches none makes the test fail, so the table cannot go stale).
`python tests/engine/test_opdb.py --tally` prints the counts.
"""
import fnmatch
import gzip
import json
import math
import os
import sys
import warnings

import numpy
import pytest

import autodiff.engine as T

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "support"))
sys.path.insert(0, os.path.join(HERE, "..", "golden"))
from tolerance import assert_close  # noqa: E402
import opdb_walk as walk  # noqa: E402  (how the generator walked the same samples)

GOLDEN = os.path.normpath(os.path.join(HERE, "..", "golden", "opdb"))
MISSING = os.path.join(GOLDEN, "missing.txt")
SKIPPED = os.path.join(GOLDEN, "skipped.txt")

TIE = ("ties (and +0 against -0): which of equal elements is picked (its index, and the gradient with it) "
       "is PyTorch's implementation's choice, not a documented rule; ours is another")
NAN_BRANCH = ("the gradient at a NaN input: PyTorch's own answer depends on the tensor's size (its vectorised "
              "and scalar kernels take other branches at NaN: 5 elements give g, 25 give 0 or NaN); ours is one "
              "answer for every size")
TRIGAMMA_F32 = ("float32 trigamma near a pole, the normal sample's x = -7.9506 (0.049 from -8; polygamma's 5 x 5 "
                "sample also -3.9730 and -3.0337): PyTorch's float32 kernel reflects x < 0.5 through pi^2 / sin^2(pi x) "
                "with pi and pi x rounded to float32, an angle error of 1.6e-6 on a sine of 0.15, 2e-5 relative in "
                "the result (that formula in float32 gives PyTorch's numbers to the last digit); ours is within 4e-8 "
                "of the exact values (60-digit decimal recurrence and asymptotic series): trigamma(-7.9506) "
                "412.744223 exact, ours 412.744232, PyTorch's 412.752594; float64 agrees")
WELFORD_MEAN = ("the mean half (out[1]) of a slice holding +-inf (and no NaN): ours is that +-inf, the mean "
                "(torch.mean's answer too); PyTorch's var_mean/std_mean take the mean from Welford's running "
                "update, where inf - inf makes it NaN")
POLY_NAN = ("x = NaN (the nonfinite copy's first element, n = 7): ours NaN, the polynomial of NaN; PyTorch "
            "2.13's CPU kernel leaves that element uninitialised: a lone NaN gives 6.95e-310, and after "
            "U_4(-3) in the same call 1189 (chebyshev_polynomial_u(tensor([-3., nan]), tensor([4., 2.])) is "
            "[1189., 1189.]); here 0. Its T, V, shifted V and Hermite answer NaN")
# op key -> [(pattern over "<dtype>#<index>[:<edge>]/<part>", reason)]: we differ, knowingly.
KNOWN = {
    **{f"special.{k}": [("float64#2:nonfinite/out", POLY_NAN)] for k in (
        "chebyshev_polynomial_u", "chebyshev_polynomial_w", "laguerre_polynomial_l", "legendre_polynomial_p",
        "shifted_chebyshev_polynomial_t", "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_w")},
    "addbmm": [("float32#1/out", "float32 rounding with cancellation (products up to 367 in size summing to 0.81): "
                                 "against the float64 value of the same input, 0.8067303, ours is 0.8067274, PyTorch's "
                                 "0.8067398 (PyTorch adds each batch's product into the result in turn; ours sums "
                                 "them); float64 agrees")],
    "kthvalue": [(f"float64#{i}:{e}/{p}", TIE) for i, e in ((0, "zeros"), (0, "ties"), (1, "zeros"))
                 for p in ("out", "vjp")],
    "topk": [(f"float64#{i}:zeros/{p}", TIE) for i in (0, 1) for p in ("out", "vjp")],
    "mode": [(f"float64#{i}:nonfinite/{p}", "a NaN in the slice: PyTorch counts NaNs as equal and answers NaN "
              "when no other value is more frequent (mode([nan, 1, 2]) is nan); ours never answers NaN (1)")
             for i in (0, 1) for p in ("out", "vjp")],
    "linalg.norm.subgradients_at_zero": [
        ("*/vjp2", "second derivative of a norm at zero (its kink; every sample of this variant is there): ours 0, "
                   "PyTorch NaN")],
    "linalg.det": [
        ("float64#2:zeros/vjp", "a singular matrix of rank n-1: the gradient is the cofactor matrix, 4 nonzero "
                                "entries here (checked against the cofactors by hand); ours has them, PyTorch gives 0"),
        ("float64#7:nonfinite/vjp", "1 x 1 matrices holding NaN and inf: d det/dx = 1, PyTorch's; ours NaN (our "
                                    "gradient solves with the matrix)")],
    "linalg.slogdet": [
        ("float64#2:zeros/vjp", "a singular matrix (log|det| = -inf): the gradient is infinite or NaN in both; "
                                "ours has inf where PyTorch has NaN"),
        ("float64#7:zeros/vjp", "1 x 1 matrices [[-0.]]: d log|x|/dx = 1/x, ours +inf, PyTorch -inf")],
    "logdet": [
        ("float64#2:zeros/vjp", "a singular matrix (logdet = -inf): the gradient is infinite or NaN in both; ours "
                                "has inf where PyTorch has NaN"),
        ("float64#7:zeros/vjp", "1 x 1 matrices [[-0.]]: d log x/dx = 1/x, ours +inf, PyTorch -inf")],
    "logit": [("float64#0:zeros/vjp", "at x = -0 our gradient is -inf (1/(x(1-x)) with x = -0), PyTorch's +inf")],
    "nn.functional.celu": [("float64#0:nonfinite/vjp", NAN_BRANCH + " (PyTorch: the x > 0 branch, ours NaN)")],
    "nn.functional.elu": [("float64#0:nonfinite/vjp", NAN_BRANCH + " (PyTorch: the x > 0 branch, ours NaN)")],
    "nn.functional.selu": [("float64#0:nonfinite/vjp", NAN_BRANCH + " (PyTorch: the x > 0 branch, ours NaN)")],
    "nn.functional.hardswish": [(f"float64#{i}:nonfinite/vjp", NAN_BRANCH + " (PyTorch NaN, ours the "
                                                                           "pass-through branch)") for i in (0, 1)],
    "nn.functional.hardshrink": [(f"float64#{i}:nonfinite/vjp", NAN_BRANCH + " (PyTorch 0, ours the "
                                                                            "pass-through branch)") for i in (0, 1)],
    "nn.functional.softshrink": [(f"float64#{i}:nonfinite/vjp", NAN_BRANCH + " (PyTorch 0, ours the "
                                                                            "pass-through branch)") for i in (0, 1)],
    "nn.functional.hardtanh": [(f"float64#{i}:nonfinite/vjp", NAN_BRANCH + " (PyTorch 0, ours the "
                                                                          "pass-through branch)") for i in (0, 1)],
    "nn.functional.layer_norm": [("float32#2/vjp", "one element normalised (variance 0): the exact gradient "
                                                   "is 0, ours is 0, PyTorch's float32 is rounding noise (-1.2e-4)")],
    "nn.functional.normalize": [("float32#2/vjp2", "p=0.5 in float32: one second-order element 1.2e-4 from "
                                                   "PyTorch's (both are float32 rounding; float64 agrees)")],
    "linalg.cond": [
        ("float64#1:zeros/out", "a singular matrix (the 2nd of the batch has a zero singular value): PyTorch's LAPACK "
                                "gives that singular value as -0.0, so its cond is 9.55 / -0 = -inf; ours +0, +inf "
                                "(a condition number is at least 1)"),
        ("float32#[0-2]/vjp", "float32 rounding: against the float64 gradient of the same input ours errs by 5e-7, "
                              "PyTorch's by 2.7e-5 (of 7.3)")],
    "linalg.lstsq": [
        ("float64#[01]:nonfinite/out", "A holding NaN and inf: PyTorch's LAPACK call fails an internal assert "
                                       "(RuntimeError: 'Argument 5 has illegal value ... a bug'), ours raises "
                                       "LinAlgError (a RuntimeError): the SVD did not converge (non-finite values)"),
        ("float32#2/vjp2", "float32 rounding: against the float64 second-order product of the same input ours errs "
                           "by 2.4e-5, PyTorch's by 6.8e-5 (of 117)")],
    "linalg.lstsq.grad_oriented": [
        ("float64#[01]:nonfinite/out", "A holding NaN and inf: PyTorch's LAPACK call fails an internal assert "
                                       "(RuntimeError: 'Argument 5 has illegal value ... a bug'), ours raises "
                                       "LinAlgError (a RuntimeError): the SVD did not converge (non-finite values)"),
        ("float32#2/vjp2", "float32 rounding: against the float64 second-order product of the same input ours errs "
                           "by 2.4e-5, PyTorch's by 6.8e-5 (of 117)")],
    "linalg.qr": [
        ("float64#0:nonfinite/out", "a first column holding NaN, inf and -inf: R[0, 0] (its norm) is NaN in ours, "
                                    "1.19 in PyTorch's (its LAPACK's norm of a non-finite column); the rest NaN in both"),
        ("float64#[01]:zeros/vjp", "R singular (the zeros copy leaves a 0 on its diagonal): the gradient solves with "
                                   "R^T, inf/NaN in both; ours NaN where PyTorch's has +-inf")],
    "qr": [
        ("float64#0:nonfinite/out", "a first column holding NaN, inf and -inf: R[0, 0] (its norm) is NaN in ours, "
                                    "1.19 in PyTorch's (its LAPACK's norm of a non-finite column); the rest NaN in both"),
        ("float64#[01]:zeros/vjp", "R singular (the zeros copy leaves a 0 on its diagonal): the gradient solves with "
                                   "R^T, inf/NaN in both; ours NaN where PyTorch's has +-inf")],
    "matrix_exp": [(pattern, "float32 exponentials with entries up to 9e4 (norm ~10, squared several times): "
                             "PyTorch's float32 scaling and squaring errs by up to 5e-2 there (5e-7 of the largest "
                             "entry, up to 2e-6 relative on the smaller ones; its VJP 3e-2), ours is worked in float64 "
                             "and rounded (errs by 2e-3, its VJP 4e-3, against the float64 values)")
                   for pattern in ("float32#0/vjp2", "float32#1/*")],
    "norm.nuc": [("float64#1:zeros/vjp", "the nuclear norm's gradient U Vh where a matrix of the batch (the 5th) "
                                         "has a zero singular value: its pair of singular vectors is LAPACK's choice "
                                         "up to sign and both gradients hold it (they differ by 2 u v^T, rank 1); each "
                                         "is a subgradient there")],
    "prod": [(f"float64#{i}:nonfinite/vjp", "the gradient at the NaN and +-inf elements themselves: ours is the "
                                            "product of the others (exact: finite, or -inf), PyTorch's "
                                            "result / x there (NaN)") for i in (0, 1)],
    "nn.functional.multi_head_attention_forward": [("*", "the sample has dropout_p=0.5 with training=True: the "
                                                         "dropout mask comes from PyTorch's generator, ours from the "
                                                         "engine's (with dropout off the same samples match)")],
    "geqrf": [("float64#0:nonfinite/out", "geqrf of a column whose diagonal entry is NaN (the others finite): "
                                          "PyTorch's LAPACK gives a[0, 0] = sqrt(2) * |x[1:]| (its dlapy2 drops the "
                                          "NaN), the rest NaN; ours (numpy's LAPACK) NaN there too")],
    "as_strided_scatter": [("*/vjp", "PyTorch 2.13's gradient of input is wrong: its as_strided_scatter_backward "
                                     "copies the gradient into the written slice and zeros the rest, where the "
                                     "derivative is the opposite (1 where input is kept, 0 where src is written); "
                                     "PyTorch's own gradcheck fails there and its OpInfo skips the gradient tests; "
                                     "ours passes gradcheck")],
    "as_strided.partial_views": [(p, "the sample's input is a view base[5:15] of a 20-element tensor (storage "
                                     "offset 5); the golden file holds only the view's 10 values, rebuilt here as a "
                                     "tensor of its own, so an explicit storage_offset reads other memory (#1) or is "
                                     "out of bounds (#2)") for p in ("*#1/out", "*#1/vjp", "*#2/out")],
    "masked.prod": [(f"float64#{i}:nonfinite/vjp", "as prod's (masked.prod is prod of the where): the gradient "
                                                   "at the NaN and +-inf elements themselves") for i in (8, 9)],
    "digamma": [("float32#0/vjp", "the gradient is trigamma(x) * g: " + TRIGAMMA_F32 + " (this element: exact "
                                  "224.645077, ours 224.645081, PyTorch's 224.649628)")],
    "lgamma": [("float32#0/vjp2", "the second-order product is trigamma(x) * g * g': " + TRIGAMMA_F32 + " (this "
                                  "element: exact 198.647333, ours 198.647339, PyTorch's 198.651367)")],
    **{key: [("float32#0/out", "polygamma(1, x): " + TRIGAMMA_F32 + " (x = -3.9730: exact 1377.050613, ours "
                               "1377.050659, PyTorch's 1377.060303)")]
       for key in [f"polygamma.polygamma_n_{n}" for n in range(5)] + ["special.polygamma.special_polygamma_n_0"]},
    **{f"mvlgamma.mvlgamma_p_{p}": [
        ("float64#[01]:zeros/vjp", "the gradient at x = -0 (these samples take p = 1 and 2): the digamma(x) term, "
                                   "-1/x near 0, is +inf at -0 in ours, as PyTorch's own lgamma gradient (mvlgamma "
                                   "with p = 1 is lgamma); PyTorch's mvlgamma backward adds the offset 0 to x first, "
                                   "turning -0 into +0, and answers -inf")] for p in (1, 3, 5)},
    "special.log_ndtr": [
        ("float64#0:nonfinite/vjp", "the gradient at x = -inf: d/dx log Phi(x) = phi(x) / Phi(x), about -x far left, "
                                    "tends to +inf; ours +inf, PyTorch's NaN (its exp(-x^2 / 2 - log_ndtr(x)) is "
                                    "exp(-inf + inf))"),
        ("float32#0/vjp2", "float32 second derivative -r (x + r), r = phi(x) / Phi(x), at x = -7.9506 where x + r "
                           "cancels to 0.12 of 8: exact -0.47431106 (60-digit decimal continued fraction of erfcx), "
                           "ours -0.47431186 (1.7e-6 relative), PyTorch's -0.47434235 (6.6e-5)")],
    "var_mean": [("float64#1:nonfinite/out", WELFORD_MEAN)],
    "std_mean": [("float64#1:nonfinite/out", WELFORD_MEAN)],
    "nn.functional.soft_margin_loss": [
        (f"float64#{i}:nonfinite/vjp", "the gradient at input = +inf with a negative target (-target * input = "
                                       "+inf): ours is the limit -norm * target * g (sigmoid(+inf) = 1), PyTorch's "
                                       "NaN (its exp(z) / (1 + exp(z)) is inf / inf there)") for i in (1, 2)],
}

# op key -> [(pattern, reason)]: argument forms we do not take (the call raises).
UNSUPPORTED = {
}


# op key -> the OpInfo's op where it is a lambda around the function it is named after (the generator
# records that function as the call form but the lambda's results): the same lambda on our API.
LAMBDAS = {
    "linalg.pinv.singular": lambda a, b: T.linalg.pinv(a @ b.mT),
    "linalg.lstsq.grad_oriented": lambda a, b, driver: T.linalg.lstsq(a, b, driver=driver)[:2],
}


def eigenvector_signs(y, want):
    """Each eigenvector is defined up to its sign, which is LAPACK's choice (PyTorch's and numpy's
    pick differently; PyTorch's own test compares |eigenvectors|): ours are flipped to PyTorch's (the
    sign of each column's dot product with PyTorch's), in the graph, so that the VJP and the
    second-order product are compared too."""
    values, vectors = y
    theirs = array(want["tuple"][1])
    signs = numpy.sign((vectors.detach().numpy() * theirs).sum(axis=-2, keepdims=True))
    return values, vectors * T.tensor(numpy.where(signs == 0, 1.0, signs), dtype=vectors.dtype)


# op key -> f(our result, PyTorch's JSON one): ours in PyTorch's gauge where the result is defined
# only up to a choice that LAPACK makes, before anything is compared.
GAUGES = {"linalg.eigh": eigenvector_signs}

def weights(n, salt):
    """The generator's fixed values in [-1, 1) (tests/golden/gen_opdb.py)."""
    return (numpy.arange(n) * 0.6180339887498949 + 0.3 + 0.17 * salt) % 1.0 * 2.0 - 1.0


def files():
    return sorted(f[:-len(".json.gz")] for f in os.listdir(GOLDEN) if f.endswith(".json.gz"))


def load(key):
    with gzip.open(os.path.join(GOLDEN, key + ".json.gz"), "rb") as f:
        return json.loads(f.read())


class CannotBuild(Exception):
    """A value of the sample that our engine has no form for (a dtype we lack)."""


def number(v):
    if isinstance(v, dict) and "f" in v:
        return {"nan": math.nan, "inf": math.inf, "-inf": -math.inf, "-0": -0.0}[v["f"]]
    return v


def array(d):
    dtype = d["T"] if d["T"] != "bool" else "bool"
    try:
        kind = numpy.dtype(dtype)
    except TypeError:
        raise CannotBuild(f"dtype {dtype}") from None
    return numpy.array([number(v) for v in d["v"]], dtype=kind).reshape(d["s"])


def build(v):
    """A sample's JSON value as our engine's."""
    if isinstance(v, list):
        return [build(x) for x in v]
    if not isinstance(v, dict):
        return v
    if "T" in v:
        dtype = getattr(T, v["T"] if v["T"] != "bool" else "bool_", None)
        if dtype is None:
            raise CannotBuild(f"dtype {v['T']}")
        return T.tensor(array(v), dtype=dtype, requires_grad=v["g"])
    if "f" in v:
        return number(v)
    if "tuple" in v:
        return tuple(build(x) for x in v["tuple"])
    if "dict" in v:
        return {k: build(x) for k, x in v["dict"].items()}
    if "dtype" in v:
        dtype = getattr(T, v["dtype"] if v["dtype"] != "bool" else "bool_", None)
        if dtype is None:
            raise CannotBuild(f"dtype {v['dtype']}")
        return dtype
    if "memory_format" in v:
        return getattr(T, v["memory_format"])
    if "device" in v:
        return T.device(v["device"])
    if "ellipsis" in v:
        return Ellipsis
    if "slice" in v:
        return slice(*(build(x) for x in v["slice"]))
    raise CannotBuild(f"value {sorted(v)}")


def resolve(entry):
    """(how, target) of the first call form of the op that our API has, or None."""
    for how, name in entry["calls"]:
        if how in ("function", "function_swapped"):
            target = T
            for part in name.split(".")[1:]:
                target = getattr(target, part, None)
                if target is None:
                    break
            if target is not None:
                return how, target
        elif hasattr(T.Tensor, name):
            return how, name
    return None


def call(how, target, x, args, kwargs):
    if how == "function":
        return target(x, *args, **kwargs)
    if how == "function_swapped":
        return target(args[0], x, *args[1:], **kwargs)
    if how == "method":
        return getattr(x, target)(*args, **kwargs)
    return getattr(x, target)


def compare(got, want, dtype, tol, what):
    """Our value against PyTorch's JSON one (a tensor, a tuple/list of them, a number)."""
    if isinstance(want, dict) and "T" in want:
        assert isinstance(got, T.Tensor), f"{what}: {type(got).__name__}, PyTorch's a tensor"
        assert str(got.dtype).replace("torch.", "") == want["T"], f"{what}: dtype {got.dtype}, PyTorch's {want['T']}"
        expected = array(want)
        rtol, atol = tol if want["T"].startswith("float") else (None, None)
        assert_close(got.detach().numpy(), expected, dtype=want["T"], rtol=rtol, atol=atol, what=what)
    elif isinstance(want, dict) and "tuple" in want or isinstance(want, list):
        items = want["tuple"] if isinstance(want, dict) else want
        assert isinstance(got, (tuple, list)) and len(got) == len(items), \
            f"{what}: {type(got).__name__} of {len(got) if isinstance(got, (tuple, list)) else '-'}, " \
            f"PyTorch's {len(items)}"
        for k, (g, w) in enumerate(zip(got, items)):
            compare(g, w, dtype, tol, f"{what}[{k}]")
    else:
        w = number(want)
        if isinstance(got, T.Tensor) and got.dim() == 0:
            got = got.item()
        if isinstance(w, float) and isinstance(got, (int, float)):
            assert (math.isnan(w) and math.isnan(got)) or got == w or abs(got - w) <= 1e-7 + 1e-7 * abs(w), \
                f"{what}: {got!r}, PyTorch's {w!r}"
        else:
            assert got == w, f"{what}: {got!r}, PyTorch's {w!r}"


def compare_grads(got, want, dtype, tol, what):
    """Gradients: a list (one per leaf), None where unused; None and zeros are the same."""
    assert len(got) == len(want), f"{what}: {len(got)} gradients, PyTorch's {len(want)}"
    for k, (g, w) in enumerate(zip(got, want)):
        if w is None and g is None:
            continue
        if g is None:   # unused: zeros of PyTorch's shape
            want = array(w)
            assert_close(numpy.zeros_like(want), want, dtype=w["T"], rtol=tol[0], atol=tol[1],
                         what=f"{what}[{k}] (None)")
        elif w is None:
            assert_close(g.detach().numpy(), numpy.zeros(tuple(g.shape)), dtype=dtype, rtol=tol[0], atol=tol[1],
                         what=f"{what}[{k}] (PyTorch's None)")
        else:
            compare(g, w, dtype, tol, f"{what}[{k}]")


def run_sample(how, target, sample, tol, gauge=None):
    """Replay one sample; {part: error message} for the parts that differ from PyTorch's (ours put
    in PyTorch's gauge first, where one is given)."""
    failures = {}
    x, args, kwargs = build(sample["input"]), build(sample["args"]), build(sample["kwargs"])
    xs = walk.leaves([x, args, kwargs], T.Tensor)
    want = sample["out"]
    dtype = sample["dtype"]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            y = call(how, target, x, args, kwargs)
    except Exception as e:  # noqa: BLE001
        if isinstance(want, dict) and "error" in want:
            if type(e).__name__ != want["error"]:
                failures["out"] = f"raises {type(e).__name__}, PyTorch {want['error']}"
            return failures
        failures["out"] = f"raises {type(e).__name__}: {str(e)[:200]}"
        return failures
    if isinstance(want, dict) and "error" in want:
        failures["out"] = f"answers, PyTorch raises {want['error']}"
        return failures
    if gauge is not None:
        y = gauge(y, want)
    try:
        compare(y, want, dtype, tol, "out")
    except AssertionError as e:
        failures["out"] = str(e)[:400]
    if "vjp" not in sample:
        return failures
    ys = [t for t in walk.outputs(y, T.Tensor) if t.requires_grad and t.dtype.is_floating_point]
    if isinstance(sample["vjp"], dict):   # PyTorch raised
        return failures
    if not ys:
        failures["vjp"] = "no output requires grad"
        return failures
    second = "vjp2" in sample and isinstance(sample["vjp2"], list)
    ws = [T.tensor(weights(t.numel(), 0), dtype=t.dtype).reshape(t.shape) for t in ys]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            gs = T.autograd.grad(ys, xs, ws, create_graph=second, allow_unused=True)
    except Exception as e:  # noqa: BLE001
        failures["vjp"] = f"raises {type(e).__name__}: {str(e)[:200]}"
        return failures
    try:
        compare_grads(gs, sample["vjp"], dtype, tol, "vjp")
    except AssertionError as e:
        failures["vjp"] = str(e)[:400]
    if not second:
        return failures
    terms = [(g * T.tensor(weights(g.numel(), 1), dtype=g.dtype).reshape(g.shape)).sum()
             for g in gs if g is not None and g.requires_grad]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            gg = T.autograd.grad(sum(terms), xs, allow_unused=True) if terms else [None] * len(xs)
    except Exception as e:  # noqa: BLE001
        failures["vjp2"] = f"raises {type(e).__name__}: {str(e)[:200]}"
        return failures
    try:
        compare_grads(gg, sample["vjp2"], dtype, tol, "vjp2")
    except AssertionError as e:
        failures["vjp2"] = str(e)[:400]
    return failures


def sample_id(sample):
    return f"{sample['dtype']}#{sample['index']}" + (f":{sample['edge']}" if "edge" in sample else "")


def expected(table, key, part_id, used):
    """The reason of the first entry of table[key] whose pattern matches part_id (noted in `used`)."""
    for pattern, reason in table.get(key, ()):
        if fnmatch.fnmatchcase(part_id, pattern):
            used.add(pattern)
            return reason
    return None


def replay(key):
    """Counts and problems of one op: (tally dict, [unexpected failures], [entries that no longer fail])."""
    entry = load(key)
    resolved = resolve(entry)
    tally = {"run": 0, "passed": 0, "known": 0, "unsupported": 0}
    if resolved is None:
        return tally, [], []
    how, target = ("function", LAMBDAS[key]) if key in LAMBDAS else resolved
    tol = (None, None)   # tests/support/tolerance.py's defaults for every op
    problems, used = [], set()
    for sample in entry["samples"]:
        sid = sample_id(sample)
        try:
            failures = run_sample(how, target, sample, tol, GAUGES.get(key))
        except CannotBuild as e:  # a value we have no form for: listed in UNSUPPORTED, or a failure
            failures = {"out": f"cannot build the sample: {e}"}
        tally["run"] += 1
        outcome = "passed"
        for part in failures:
            pid = f"{sid}/{part}"
            if expected(UNSUPPORTED, key, pid, used):
                outcome = "unsupported"
            elif expected(KNOWN, key, pid, used):
                outcome = "known" if outcome != "unsupported" else outcome
            else:
                problems.append(f"{pid}: {failures[part]}")
                outcome = "failed"
        if outcome != "failed":
            tally[outcome] += 1
    stale = [f"{pattern} fails no more: remove it from the table ({reason})"
             for table in (KNOWN, UNSUPPORTED) for pattern, reason in table.get(key, ()) if pattern not in used]
    return tally, problems, stale


def ops_we_lack():
    return [key for key in files() if resolve(load(key)) is None]


@pytest.mark.parametrize("key", files())
def test_opdb(key):
    entry = load(key)
    if resolve(entry) is None:
        pytest.skip(f"{key}: not in our API (tests/golden/opdb/missing.txt)")
    if not entry["samples"]:
        pytest.skip(f"{key}: no sample serialised ({entry['skipped']})")
    tally, problems, stale = replay(key)
    assert not problems and not stale, f"{key}: {len(problems)} parts differ from PyTorch's:\n" + \
        "\n".join(problems[:12] + stale[:12])


def test_missing_list():
    """missing.txt names exactly the op_db ops our API lacks (one per line)."""
    with open(MISSING) as f:
        listed = [line.split()[0] for line in f if line.strip() and not line.startswith("#")]
    lacking = ops_we_lack()
    assert listed == lacking, ("tests/golden/opdb/missing.txt is out of date: run "
                               "`python tests/engine/test_opdb.py --write-missing`; now have "
                               f"{sorted(set(listed) - set(lacking))}, newly lacking "
                               f"{sorted(set(lacking) - set(listed))}")


def skipped_lines():
    """One line for each reason a sample of one of our ops was left out (by the generator, or because
    the op has none to replay): `key: count x reason`."""
    lines = []
    for key in files():
        entry = load(key)
        if resolve(entry) is None:
            continue
        for reason, n in sorted(entry["skipped"].items()):
            lines.append(f"{key}: {n} x {reason}")
    return lines


def test_skipped_list():
    """skipped.txt lists every sample of our ops that is not replayed, with its reason."""
    with open(SKIPPED) as f:
        listed = [line.rstrip("\n") for line in f if line.strip() and not line.startswith("#")]
    assert listed == skipped_lines(), ("tests/golden/opdb/skipped.txt is out of date: run "
                                       "`python tests/engine/test_opdb.py --write-missing`")


def test_tables_name_real_ops():
    for table in (KNOWN, UNSUPPORTED, LAMBDAS, GAUGES):
        for key in table:
            assert os.path.exists(os.path.join(GOLDEN, key + ".json.gz")), key


def write_missing():
    lines = ["# op_db OpInfos (name[.variant]) that autodiff's API lacks; written by",
             "# `python tests/engine/test_opdb.py --write-missing` (tests/engine/test_opdb.py checks it)"]
    lines += ops_we_lack()
    with open(MISSING, "w") as f:
        f.write("\n".join(lines) + "\n")
    lines = ["# samples of the op_db OpInfos we have that tests/engine/test_opdb.py does not replay, by op and",
             "# reason (`key: count x reason`; written with missing.txt by --write-missing, checked by test_skipped_list)"]
    with open(SKIPPED, "w") as f:
        f.write("\n".join(lines + skipped_lines()) + "\n")


def print_tally():
    total = {"run": 0, "passed": 0, "known": 0, "unsupported": 0, "failed": 0}
    skipped = {}
    have = 0
    keys = files()
    for key in keys:
        entry = load(key)
        if resolve(entry) is None:
            continue
        have += 1
        tally, problems, _ = replay(key)
        for k in ("run", "passed", "known", "unsupported"):
            total[k] += tally[k]
        total["failed"] += tally["run"] - tally["passed"] - tally["known"] - tally["unsupported"]
        for reason, n in entry["skipped"].items():
            skipped[reason] = skipped.get(reason, 0) + n
        if problems:
            print(f"FAIL {key}: " + " | ".join(problems[:3]))
    print(f"OpInfos in op_db: {len(keys)}; ours: {have}")
    print("samples:", total)
    print("samples of our ops the generator left out, by reason:", json.dumps(skipped, indent=1))


if __name__ == "__main__":
    if "--write-missing" in sys.argv:
        write_missing()
    if "--tally" in sys.argv:
        print_tally()
