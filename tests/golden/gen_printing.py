"""Regenerate tests/golden/printing.json from PyTorch itself.

Run with a Python that has PyTorch 2.13 (`pip install torch==2.13.0`; not a dependency of the
test suite):

    python tests/golden/gen_printing.py

Each case records the tensor's values (nested lists; nan/inf as the strings
"nan", "inf", "-inf"), shape, dtype name, requires_grad, grad_fn name (or
null), the print options and default dtype in force, and PyTorch's repr.
PyTorch's default dtype is set to float64 first, as ours is, so its suffix
rules (which omit the default dtype) match the engine's.
"""
import json
import math
import os

import torch

DEFAULT_OPTS = dict(precision=4, threshold=1000, edgeitems=3, linewidth=80)

torch.manual_seed(0)
torch.set_default_dtype(torch.float64)

cases = []


def encode(values):
    if isinstance(values, list):
        return [encode(v) for v in values]
    if isinstance(values, float):
        if math.isnan(values):
            return "nan"
        if math.isinf(values):
            return "inf" if values > 0 else "-inf"
    return values


def add(name, t, options=None, default_dtype="float64"):
    """Record `t` (built and printed under `options` and `default_dtype`)."""
    options = options or {}
    torch.set_default_dtype(getattr(torch, default_dtype))
    torch.set_printoptions(**{**DEFAULT_OPTS, **options})
    try:
        expected = repr(t)
    finally:
        torch.set_printoptions(profile="default", sci_mode=None)
        torch.set_default_dtype(torch.float64)
    grad_fn = type(t.grad_fn).__name__ if t.grad_fn is not None else None
    cases.append({
        "name": name,
        "values": encode(t.detach().tolist()),
        "shape": list(t.shape),
        "dtype": str(t.dtype).replace("torch.", ""),
        "requires_grad": t.requires_grad,
        "grad_fn": grad_fn,
        "options": options,
        "default_dtype": default_dtype,
        "expected": expected,
    })


T = torch.tensor
f32, f64, f16 = torch.float32, torch.float64, torch.float16
nan, inf = float("nan"), float("inf")

# --- 0-d tensors
add("scalar_int_mode", T(5.))
add("scalar_frac", T(7.38905609893065))
add("scalar_f32", T(3.14159, dtype=f32))
add("scalar_neg", T(-2.5))
add("scalar_zero", T(0.))
add("scalar_neg_zero", T(-0.))
add("scalar_nan", T(nan))
add("scalar_inf", T(-inf))
add("scalar_tiny_sci", T(1.5e-7))
add("scalar_huge_sci", T(123456789012.0))
add("scalar_int64", T(42))
add("scalar_int32", T(-7, dtype=torch.int32))
add("scalar_bool", T(True))
add("scalar_requires_grad", T(2., requires_grad=True))

# --- 1-d
add("vec_one", T([5.]))
add("vec_int_mode_pad", T([10., 1.]))
add("vec_frac", T([0.25, -1.5, 3.125]))
add("vec_f32_rounding", T([0.1, 0.2, 0.3], dtype=f32))
add("vec_f16", T([1.5, -2.25, 1000.0], dtype=f16))
add("vec_neg_zero_mix", T([-0., 0., 1.5]))
add("vec_neg_zero_int", T([-0., 0.]))
add("vec_all_zero", torch.zeros(4))
add("vec_nan_inf", T([nan, inf, -inf, 1.0]))
add("vec_nan_inf_frac", T([nan, 1.25, -inf, 2.5]))
add("vec_only_nonfinite", T([nan, inf, -inf]))
add("vec_sci_ratio", T([1e-3, 10.0, 2.0]))
add("vec_sci_small", T([1e-5, 2e-5]))
add("vec_sci_big", T([1e9, 2.0]))
add("vec_sci_int_mode", T([1e10, 3.0]))
add("vec_sci_nan", T([1e-6, nan, inf, 1.0]))
add("vec_tiny_values", T([0.0001, 0.0002, 0.00015]))
add("vec_boundary_1000", T([1.0, 1000.0, 0.5]))
add("vec_boundary_1001", T([1.0, 1001.0, 0.5]))
add("vec_int64", T([1, -20, 300, 4000]))
add("vec_int64_extremes", T([9223372036854775807, -9223372036854775807 - 1]))
add("vec_int32", T([1, 2, 3], dtype=torch.int32))
add("vec_int16", T([-100, 7], dtype=torch.int16))
add("vec_int8", T([-128, 127, 0], dtype=torch.int8))
add("vec_uint8", T([0, 255, 17], dtype=torch.uint8))
add("vec_bool", T([True, False, True]))
add("vec_bool_all_true", T([True, True]))
add("vec_random_f64", torch.randn(7))
add("vec_random_f32", torch.randn(6, dtype=f32))
add("vec_wide_wrap", torch.randn(30))
add("vec_wide_wrap_f32", torch.randn(25, dtype=f32) * 100)
add("vec_wide_int_wrap", torch.arange(60))
add("vec_wide_bool_wrap", torch.arange(40) % 3 == 0)
add("vec_wide_sci_wrap", torch.logspace(-6, 6, 20))
add("vec_summarized", torch.arange(2000.) / 8)
add("vec_summarized_int", torch.arange(1500) - 700)
add("vec_summarized_f32", torch.linspace(-1, 1, 1500, dtype=f32))
add("vec_summarized_outer_only_measured", torch.cat([T([1e-9]), torch.ones(1200), T([5.0])]))

# --- 2-d
add("mat_ones2", T([[2., 2.], [2., 2.]], requires_grad=True))
add("mat_quarter", T([[0.25, 0.25], [0.25, 0.25]]))
add("mat_signed_pad", T([[-2., -2.], [0., 2.]]))
add("mat_random", torch.randn(3, 4))
add("mat_random_f32", torch.randn(4, 3, dtype=f32))
add("mat_int", T([[1, 22], [-333, 4]]))
add("mat_bool", T([[True, False], [False, True]]))
add("mat_mixed_magnitude", T([[1e-8, 1.0], [100.0, -3e5]]))
add("mat_wide_rows", torch.randn(3, 20))
add("mat_wide_rows_f32_grad", (torch.randn(2, 15, dtype=f32, requires_grad=True) * 3))
add("mat_summarized_rows", torch.arange(3000.).reshape(1000, 3))
add("mat_summarized_both", torch.arange(1600).reshape(40, 40) * 37 - 20000)
add("mat_summarized_cols", torch.randn(2, 600))
add("mat_nan_row", T([[nan, nan], [1.5, -inf]]))
add("mat_column", T([[1.], [2.], [3.]]))

# --- 3-d and more
add("cube_small", torch.arange(24.).reshape(2, 3, 4))
add("cube_random", torch.randn(2, 2, 3))
add("cube_summarized", torch.arange(1728.).reshape(12, 12, 12) / 4)
add("cube_int", torch.arange(12).reshape(3, 2, 2) - 6)
add("hyper_4d", torch.arange(16.).reshape(2, 2, 2, 2) * 0.5)
add("hyper_5d_single", torch.ones(1, 1, 1, 1, 2))

# --- empty shapes
add("empty_1d", torch.empty(0))
add("empty_2d", torch.empty(0, 3))
add("empty_2d_trailing", torch.empty(2, 0))
add("empty_3d", torch.empty(2, 0, 1))
add("empty_int", torch.empty(0, dtype=torch.int64))
add("empty_bool", torch.empty(0, 2, dtype=torch.bool))
add("empty_f32", torch.empty(0, dtype=f32))
add("empty_requires_grad", torch.empty(0, 3, requires_grad=True))

# --- autograd suffixes
x = T([1., 2., 3.], requires_grad=True)
add("leaf_requires_grad", x)
add("grad_fn_mul", x * 2)
add("grad_fn_exp_scalar", T(2., requires_grad=True).exp())
add("grad_fn_exp", x.exp())
add("grad_fn_sum", (x * x).sum())
add("grad_fn_add", x + 1)
add("grad_fn_mean", x.mean())
add("grad_fn_pow", x ** 2)
add("grad_fn_div", x / 3)
add("grad_fn_neg", -x)
add("grad_fn_sin", x.sin())
add("grad_fn_matmul", torch.randn(3, 3, requires_grad=True) @ torch.randn(3, 2))
add("grad_fn_f32", T([0.5, 1.5], dtype=f32, requires_grad=True) * 2)
add("leaf_f32_requires_grad", T([0.5, 1.5], dtype=f32, requires_grad=True))
add("grad_fn_long_last_line", torch.randn(15, requires_grad=True, dtype=f32) * 1000)
add("grad_fn_summarized", torch.randn(1100, requires_grad=True) * 2)

# --- print options
add("opt_precision_2", T([1.12345, 2.5]), {"precision": 2})
add("opt_precision_8", T([1.0 / 3.0, 2.0 / 3.0]), {"precision": 8})
add("opt_threshold_5", torch.arange(10), {"threshold": 5})
add("opt_threshold_5_2d", torch.arange(64.).reshape(8, 8), {"threshold": 5})
add("opt_edgeitems_1", torch.arange(2000.), {"edgeitems": 1})
add("opt_edgeitems_0_1d", torch.arange(2000.), {"edgeitems": 0})
add("opt_edgeitems_0_2d", torch.arange(2000.).reshape(40, 50), {"edgeitems": 0})
add("opt_linewidth_40", torch.randn(12), {"linewidth": 40})
add("opt_linewidth_40_suffix", torch.randn(5, dtype=f32, requires_grad=True) * 2, {"linewidth": 40})
add("opt_sci_true", T([1.0, 2.0, 3.5]), {"sci_mode": True})
add("opt_sci_false", T([1e-8, 1e8]), {"sci_mode": False})

# --- a float32 default dtype (set_default_dtype(float32))
add("default_f32_plain", T([1.5, 2.5], dtype=f32), default_dtype="float32")
add("default_f32_shows_f64", T([1.5, 2.5], dtype=f64), default_dtype="float32")
add("default_f32_empty_f64", torch.empty(0, dtype=f64), default_dtype="float32")

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "printing.json")
with open(out, "w") as f:
    # one case a line: reviewable diffs without a line per number
    f.write('{"torch_version": %s,\n "cases": [\n' % json.dumps(torch.__version__))
    f.write(",\n".join("  " + json.dumps(c) for c in cases))
    f.write("\n ]}\n")
print(f"wrote {len(cases)} cases to {out}")
