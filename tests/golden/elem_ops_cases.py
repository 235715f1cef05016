"""The cases of elem_ops.json: the elementwise tests (isnan, isinf, isposinf, isneginf, signbit),
pointwise ops (addcmul, addcdiv, logaddexp(2), copysign, fmod, float_power, nan_to_num, logit,
heaviside, positive), sorting, counting and scans (argsort, nonzero, count_nonzero, nansum,
nanmean, aminmax, cummax, cummin, logcumsumexp) and the shrinking activations (F.hardshrink,
F.softshrink, F.softsign, F.tanhshrink and their modules). Recorded under PyTorch by
gen_elem_ops.py and replayed under our engine by tests/engine/ops/test_elem_ops.py, with the recording of
functional_ops_cases.py (the same names: T, F, nn, leaf). Tensors are kept under 8 elements
along their last dim where PyTorch's kernels would otherwise take their vectorised path, whose
exp and log round differently from the C library's."""
from program_cases import registry
from functional_ops_cases import record, run_error  # the recording is functional_ops'

__all__ = ["CASES", "ERRORS", "record", "run_error"]

CASES, ERRORS, case, error = registry()

SPECIAL = "[1.5, -0.0, 0.0, float('inf'), -float('inf'), float('nan'), -float('nan'), -2.0]"

# ====================================================================== tests of each element

for _name in ("isnan", "isinf", "isposinf", "isneginf", "signbit"):
    case(f"{_name}_float", f"""
        x = leaf({SPECIAL})
        inputs = [x]
        def f(): return T.{_name}(x)
    """)
    case(f"{_name}_method_float32", f"""
        inputs = []
        def f(): return T.tensor({SPECIAL}, dtype=T.float32).{_name}()
    """)
    case(f"{_name}_long", f"""
        inputs = []
        def f(): return T.{_name}(T.tensor([[-3, 0], [2, 7]]))
    """)
    case(f"{_name}_empty", f"""
        inputs = []
        def f(): return T.{_name}(T.ones(0, 3))
    """)
for _name in ("isnan", "isinf", "isposinf", "isneginf"):
    case(f"{_name}_bool", f"""
        inputs = []
        def f(): return T.{_name}(T.tensor([True, False]))
    """)
case("signbit_bool", """
    inputs = []
    def f(): return T.signbit(T.tensor([True, False]))
""")
case("isnan_scalar", """
    inputs = []
    def f(): return T.isnan(T.tensor(float('nan')))
""")

# ====================================================================== pointwise

case("addcmul", """
    x, a, b = leaf([1.5, -2.0, 0.5]), leaf([0.3, 2.0, -1.5]), leaf([0.7, -0.4, 1.1])
    inputs = [x, a, b]
    def f(): return T.addcmul(x, a, b)
""")
case("addcmul_value_broadcast", """
    x, a, b = leaf([[1.5], [-2.0]]), leaf([0.3, 2.0, -1.5]), leaf([[0.7, -0.4, 1.1], [0.1, 0.2, 0.3]])
    inputs = [x, a, b]
    def f(): return T.addcmul(x, a, b, value=-0.37)
""")
case("addcmul_method_inplace", """
    x, a, b = leaf([1.5, -2.0, 0.5]), leaf([0.3, 2.0, -1.5]), leaf([0.7, -0.4, 1.1])
    inputs = [x, a, b]
    def f(): return (x * 1.0).addcmul_(a, b, value=3)
""")
case("addcmul_long_float_value", """
    inputs = []
    def f(): return T.addcmul(T.tensor([1, 2]), T.tensor([1, 2]), T.tensor([3, 4]), value=0.5)
""")
case("addcmul_mixed", """
    a = leaf([1.0, 2.0])
    inputs = [a]
    def f(): return T.addcmul(T.tensor([1, 2]), a, T.tensor([3, 4], dtype=T.float32))
""")
case("addcdiv", """
    x, a, b = leaf([1.5, -2.0, 0.5]), leaf([0.3, 2.0, -1.5]), leaf([0.7, -0.4, 1.1])
    inputs = [x, a, b]
    def f(): return T.addcdiv(x, a, b)
""")
case("addcdiv_value", """
    x, a, b = leaf([1.5, -2.0, 0.5]), leaf([0.3, 2.0, -1.5]), leaf([[0.7, -0.4, 1.1], [3.0, 0.0, -7.0]])
    inputs = [x, a, b]
    def f(): return x.addcdiv(a, b, value=0.3)
""")
case("addcdiv_inplace", """
    x, a, b = leaf([1.5, -2.0, 0.5]), leaf([0.3, 2.0, -1.5]), leaf([0.7, -0.4, 1.1])
    inputs = [x, a, b]
    def f(): return (x * 1.0).addcdiv_(a, b, value=-2)
""")
case("logaddexp", """
    a, b = leaf([1.5, -2.0, 0.5, 30.0, -1.0, 3.0]), leaf([0.3, 2.0, -1.5, -30.0, -1.0, 3.5])
    inputs = [a, b]
    def f(): return T.logaddexp(a, b)
""")
case("logaddexp_special", """
    a = leaf([float('inf'), -float('inf'), float('nan'), 1.0, -float('inf'), float('inf')])
    b = leaf([float('inf'), -float('inf'), 1.0, float('nan'), 2.0, -float('inf')])
    inputs = []
    def f(): return T.logaddexp(a.detach(), b.detach())
""")
case("logaddexp_broadcast_method", """
    a, b = leaf([[1.5], [-2.0]]), leaf([0.3, 2.0, -1.5])
    inputs = [a, b]
    def f(): return a.logaddexp(b)
""")
case("logaddexp2", """
    a, b = leaf([1.5, -2.0, 0.5, 30.0, -1.0, 3.0]), leaf([0.3, 2.0, -1.5, -30.0, -1.0, 3.5])
    inputs = [a, b]
    def f(): return T.logaddexp2(a, b)
""")
case("logaddexp2_special", """
    a = T.tensor([float('inf'), -float('inf'), float('nan'), 1.0, -float('inf'), 3.0])
    b = T.tensor([float('inf'), -float('inf'), 1.0, float('nan'), 2.0, 3.0])
    inputs = []
    def f(): return a.logaddexp2(b)
""")
case("logaddexp_float32", """
    a = leaf([1.5, -2.0, 0.5])
    inputs = [a]
    def f(): return T.logaddexp(a.float(), T.tensor([0.25, 1.0, -3.0], dtype=T.float32))
""")
case("copysign", """
    a, b = leaf([1.5, -2.0, 0.5, -0.0, 0.0, 3.0]), leaf([-0.3, 2.0, -1.5, 1.0, -1.0, 0.0])
    inputs = [a, b]
    def f(): return T.copysign(a, b)
""")
case("copysign_number", """
    a = leaf([1.5, -2.0, 0.5, -0.0])
    inputs = [a]
    def f(): return a.copysign(-0.0)
""")
case("copysign_special", """
    inputs = []
    def f(): return T.copysign(T.tensor([1.0, -2.0, float('nan'), float('inf')]), T.tensor([-0.0, 0.0, -1.0, -float('nan')]))
""")
case("copysign_long", """
    inputs = []
    def f(): return T.copysign(T.tensor([1, -2, 0]), T.tensor([-1, 2, -3]))
""")
case("copysign_inplace", """
    a, b = leaf([1.5, -2.0, 0.5]), leaf([-0.3, 2.0, -1.5])
    inputs = [a, b]
    def f(): return (a * 1.0).copysign_(b)
""")
case("fmod", """
    a, b = leaf([5.5, -5.5, 5.5, -5.5, 0.25, 3.0]), leaf([3.0, 3.0, -3.0, -3.0, 2.0, 0.7])
    inputs = [a, b]
    def f(): return T.fmod(a, b)
""")
case("fmod_number", """
    a = leaf([5.5, -5.5, 0.25, -0.0])
    inputs = [a]
    def f(): return a.fmod(1.5)
""")
case("fmod_special", """
    inputs = []
    def f(): return T.fmod(T.tensor([5.0, -5.0, float('inf'), 1.0, float('nan'), -0.0]), T.tensor([0.0, float('inf'), 2.0, -float('inf'), 1.0, 3.0]))
""")
case("fmod_long", """
    inputs = []
    def f(): return T.fmod(T.tensor([5, -5, 7, -7]), T.tensor([3, 3, -2, -2]))
""")
case("fmod_long_float", """
    inputs = []
    def f(): return T.fmod(T.tensor([5, -5]), 2.5)
""")
case("fmod_inplace", """
    a = leaf([5.5, -5.5, 0.25])
    inputs = [a]
    def f(): return (a * 1.0).fmod_(-2.0)
""")
case("remainder_beside_fmod", """
    a = leaf([5.5, -5.5, 5.5, -5.5])
    inputs = [a]
    def f(): return T.remainder(a, T.tensor([3.0, 3.0, -3.0, -3.0]))
""")
case("float_power", """
    a, b = leaf([1.5, 2.0, 0.5]), leaf([0.3, 2.0, -1.5])
    inputs = [a, b]
    def f(): return T.float_power(a, b)
""")
case("float_power_number", """
    a = leaf([1.5, -2.0, 0.5])
    inputs = [a]
    def f(): return a.float_power(3)
""")
case("float_power_base_number", """
    b = leaf([1.5, -2.0, 0.5])
    inputs = [b]
    def f(): return T.float_power(2, b)
""")
case("float_power_float32", """
    a = leaf([1.5, 2.0, 0.5])
    inputs = [a]
    def f(): return T.float_power(a.float(), 2)
""")
case("float_power_long", """
    inputs = []
    def f(): return T.float_power(T.tensor([2, 3, -1]), T.tensor([2, -1, 3], dtype=T.int32))
""")
case("float_power_inplace", """
    a = leaf([1.5, 2.0, 0.5])
    inputs = [a]
    def f(): return (a * 1.0).float_power_(T.tensor([2.0, 0.5, 3.0], dtype=T.float32))
""")
case("nan_to_num", """
    x = leaf([float('nan'), float('inf'), -float('inf'), 1.5, -0.0])
    inputs = [x]
    def f(): return T.nan_to_num(x)
""")
case("nan_to_num_values", """
    x = leaf([float('nan'), float('inf'), -float('inf'), 1.5])
    inputs = [x]
    def f(): return x.nan_to_num(nan=2.0, posinf=1e300, neginf=-7)
""")
case("nan_to_num_float32", """
    inputs = []
    def f(): return T.nan_to_num(T.tensor([float('nan'), float('inf'), -float('inf'), 1.5], dtype=T.float32), 3, posinf=1e300)
""")
case("nan_to_num_long_bool", """
    inputs = []
    def f(): return T.nan_to_num(T.tensor([1, 2]), nan=2.0), T.nan_to_num(T.tensor([True]))
""")
case("nan_to_num_inplace", """
    x = leaf([float('nan'), float('inf'), 0.5])
    inputs = [x]
    def f(): return (x * 1.0).nan_to_num_(posinf=9.0)
""")
case("logit", """
    x = leaf([0.25, 0.5, 0.75, 0.01, 0.999])
    inputs = [x]
    def f(): return T.logit(x)
""")
case("logit_outside", """
    x = leaf([0.0, 1.0, -0.5, 1.5, float('nan'), 0.3])
    inputs = [x]
    first_order_only = True
    def f(): return T.logit(x)
""")
case("logit_eps", """
    x = leaf([0.0, 0.05, 0.1, 0.5, 0.9, 0.95, 1.0])
    inputs = [x]
    def f(): return x.logit(eps=0.1)
""")
case("logit_eps_positional", """
    x = leaf([0.0, 0.25, -0.5, 1.5, float('nan')])
    inputs = [x]
    def f(): return T.logit(x, 0.2)
""")
case("logit_long_bool", """
    inputs = []
    def f(): return T.logit(T.tensor([0, 1])), T.logit(T.tensor([True]))
""")
case("logit_inplace", """
    x = leaf([0.25, 0.5, 0.75])
    inputs = [x]
    def f(): return (x * 1.0).logit_(1e-3)
""")
case("heaviside", """
    inputs = []
    def f(): return T.heaviside(T.tensor([-1.0, 0.0, float('nan'), -0.0, 2.0, float('inf')]), T.tensor([7.0]))
""")
case("heaviside_long_bool", """
    inputs = []
    def f(): return T.heaviside(T.tensor([-1, 0, 2]), T.tensor([7])), T.heaviside(T.tensor([True, False]), T.tensor(True))
""")
case("heaviside_method_inplace", """
    inputs = []
    def f(): return T.tensor([[-1.0, 0.0], [0.0, 3.0]]).heaviside_(T.tensor([0.5, 0.25]))
""")
case("positive", """
    x = leaf([1.5, -2.0])
    inputs = [x]
    def f(): return T.positive(x) * 2.0
""")
case("positive_method_long", """
    inputs = []
    def f(): return T.tensor([1, -2]).positive()
""")

error("addcmul_number", "T.addcmul(T.ones(2), T.ones(2), 3.0)")
error("addcmul_positional_value", "T.addcmul(T.ones(2), T.ones(2), T.ones(2), 2)")
error("addcmul_shapes", "T.addcmul(T.ones(2), T.ones(2), T.ones(3))")
error("addcmul_bool", "T.addcmul(T.tensor([True]), T.tensor([True]), T.tensor([True]))")
error("addcmul_value_str", "T.addcmul(T.ones(2), T.ones(2), T.ones(2), value='a')")
error("addcmul_inplace_broadcast", "T.ones(2).addcmul_(T.ones(2, 2), T.ones(2))")
error("addcmul_inplace_cast", "T.tensor([1, 2]).addcmul_(T.ones(2), T.ones(2))")
error("addcdiv_integers", "T.addcdiv(T.ones(2), T.tensor([1, 2]), T.tensor([3, 4]))")
error("logaddexp_long", "T.logaddexp(T.tensor([1, 2]), T.tensor([3, 4]))")
error("logaddexp_number", "T.logaddexp(T.ones(2), 3.0)")
error("logaddexp2_bool", "T.logaddexp2(T.tensor([True]), T.tensor([True]))")
error("copysign_number_first", "T.copysign(2.0, T.ones(1))")
error("fmod_zero_long", "T.fmod(T.tensor([5, -5]), T.tensor([0, 3]))")
error("fmod_zero_long_number", "T.fmod(T.tensor([5, -5]), 0)")
error("fmod_bool", "T.fmod(T.tensor([True]), T.tensor([True]))")
error("fmod_number_first", "T.fmod(5, T.tensor([3]))")
error("float_power_numbers", "T.float_power(2, 3)")
error("float_power_inplace_float32", "T.tensor([2.0], dtype=T.float32).float_power_(2)")
error("nan_to_num_str", "T.nan_to_num(T.ones(1), nan='a')")
error("logit_eps_str", "T.logit(T.tensor([0.5]), eps='a')")
error("logit_inplace_long", "T.tensor([0, 1]).logit_()")
error("heaviside_number", "T.heaviside(T.ones(2), 0.5)")
error("heaviside_dtypes", "T.heaviside(T.tensor([-1, 0, 2]), T.tensor([7.0]))")
error("heaviside_shapes", "T.heaviside(T.ones(2), T.ones(3))")
error("heaviside_backward", """
    x = T.tensor([1.0, -1.0], requires_grad=True)
    T.heaviside(x, T.tensor([0.5])).sum().backward()
""")
error("positive_bool", "T.positive(T.tensor([True]))")

# ====================================================================== sorting, counting, scans

case("argsort", """
    inputs = []
    def f(): return T.argsort(T.tensor([3.0, 1.0, 2.0, 1.0, float('nan'), 0.0, -0.0]))
""")
case("argsort_descending", """
    inputs = []
    def f(): return T.tensor([3.0, 1.0, 2.0, 1.0, float('nan'), 0.0]).argsort(descending=True)
""")
case("argsort_stable_dim0", """
    inputs = []
    def f(): return T.argsort(T.tensor([[3, 1, 1], [0, 5, 1], [3, 1, 0]]), dim=0, stable=True), T.argsort(T.tensor(3.0))
""")
case("argsort_bool_empty", """
    inputs = []
    def f(): return T.argsort(T.tensor([True, False, True, False])), T.argsort(T.ones(2, 0))
""")
case("nonzero", """
    inputs = []
    def f(): return T.nonzero(T.tensor([[0.0, 1.0, float('nan')], [2.0, -0.0, 0.0]]))
""")
case("nonzero_as_tuple", """
    inputs = []
    def f(): return T.tensor([[0, 1], [2, 0]]).nonzero(as_tuple=True)
""")
case("nonzero_scalars_empty", """
    inputs = []
    def f(): return (T.nonzero(T.tensor(3.0)), T.nonzero(T.tensor(0.0)), T.nonzero(T.zeros(0, 3)),
                     *T.nonzero(T.tensor(3.0), as_tuple=True), *T.nonzero(T.tensor(False), as_tuple=True))
""")
case("count_nonzero", """
    inputs = []
    def f(): return (T.count_nonzero(T.tensor([[0.0, 1.0], [2.0, float('nan')]])),
                     T.tensor([[0, 1], [2, 3]]).count_nonzero(dim=0), T.count_nonzero(T.ones(2, 3), dim=(0, 1)),
                     T.count_nonzero(T.ones(2, 3), 1), T.count_nonzero(T.tensor(2.0), dim=0),
                     T.count_nonzero(T.ones(2, 3), dim=[]))
""")
case("nansum", """
    x = leaf([1.5, float('nan'), -2.0, 0.25])
    inputs = [x]
    def f(): return T.nansum(x)
""")
case("nansum_dim_keepdim", """
    x = leaf([[1.5, float('nan'), -2.0], [float('nan'), 0.5, 4.0]])
    inputs = [x]
    def f(): return x.nansum(dim=1, keepdim=True)
""")
case("nansum_dims_float32", """
    x = leaf([[1.5, float('nan'), -2.0], [float('nan'), 0.5, 4.0]])
    inputs = [x]
    def f(): return T.nansum(x, (0, 1), dtype=T.float32)
""")
case("nansum_integers", """
    inputs = []
    def f(): return T.nansum(T.tensor([1, 2, 3])), T.nansum(T.tensor([True, True])), T.nansum(T.tensor([1, 2]), dtype=T.float32)
""")
case("nanmean", """
    x = leaf([1.5, float('nan'), -2.0, 0.25])
    inputs = [x]
    def f(): return T.nanmean(x)
""")
case("nanmean_dim", """
    x = leaf([[1.5, float('nan'), -2.0], [float('nan'), float('nan'), float('nan')]])
    inputs = [x]
    def f(): return x.nanmean(1, True)
""")
case("nanmean_float32", """
    x = leaf([[1.5, float('nan'), -2.0], [float('nan'), 0.5, 4.0]])
    inputs = [x]
    def f(): return T.nanmean(x.float(), dim=0)
""")
case("aminmax", """
    x = leaf([[1.5, 5.0, -2.0], [-2.0, 0.5, 5.0]])
    inputs = [x]
    def f(): return T.aminmax(x)
""")
case("aminmax_max_first", """
    x = leaf([[1.5, 5.0, -2.0], [-2.0, 0.5, 5.0]])
    inputs = [x]
    def f(): mn, mx = T.aminmax(x); return mx, mn
""")
case("aminmax_dim", """
    x = leaf([[1.5, 5.0, -2.0], [-2.0, 0.5, 5.0], [1.5, 1.5, 0.0]])
    inputs = [x]
    def f(): r = x.aminmax(dim=1, keepdim=True); return r.min + 2.0 * r.max
""")
case("aminmax_dim0", """
    x = leaf([[1.5, 5.0, -2.0], [-2.0, 0.5, 5.0], [1.5, 1.5, 0.0]])
    inputs = [x]
    def f(): return T.aminmax(x, dim=0)
""")
case("aminmax_special", """
    inputs = []
    def f(): return (*T.aminmax(T.tensor([1.0, float('nan')])), *T.aminmax(T.tensor([[1, 5], [2, 3]])),
                     *T.aminmax(T.tensor([True, False])), *T.aminmax(T.tensor(2.0), dim=0), *T.aminmax(T.zeros(0, 3), dim=1))
""")
case("cummax", """
    x = leaf([1.0, 3.0, 2.0, 3.0, -1.0, 5.0, 5.0])
    inputs = [x]
    def f(): return T.cummax(x, 0)
""")
case("cummax_nan", """
    x = leaf([1.0, 3.0, float('nan'), 5.0, float('nan'), 0.0])
    inputs = [x]
    def f(): return x.cummax(dim=0)
""")
case("cummin_dim1", """
    x = leaf([[1.0, 3.0, 0.0, 0.0, -1.0], [2.0, 2.0, 2.0, -3.0, 4.0]])
    inputs = [x]
    def f(): return T.cummin(x, 1)
""")
case("cummin_dim0_zeros", """
    x = leaf([[1.0, -0.0], [0.0, 0.0], [-0.0, 3.0]])
    inputs = [x]
    def f(): return T.cummin(x, dim=0)
""")
case("cummax_integers_empty", """
    inputs = []
    def f(): return (*T.cummax(T.tensor([[1, 3], [2, 2]]), dim=1), *T.cummax(T.tensor([True, False, True]), 0),
                     *T.cummin(T.tensor(2.0), 0), *T.cummax(T.zeros(0), 0))
""")
case("logcumsumexp", """
    x = leaf([1.0, 2.0, -3.0, 0.5, 2.0, 30.0, -30.0])
    inputs = [x]
    def f(): return T.logcumsumexp(x, 0)
""")
case("logcumsumexp_dim0", """
    x = leaf([[1.0, -2.0, 0.0], [0.5, 3.0, -1.0]])
    inputs = [x]
    def f(): return x.logcumsumexp(dim=0)
""")
case("logcumsumexp_special", """
    inputs = []
    def f(): return (T.logcumsumexp(T.tensor([1.0, 2.0, float('inf'), 3.0, -float('inf')]), 0),
                     T.logcumsumexp(T.tensor([-float('inf'), -float('inf'), 1.0, float('nan'), 2.0]), 0),
                     T.logcumsumexp(T.tensor(2.0), 0))
""")
case("logcumsumexp_float32", """
    x = leaf([1.0, 2.0, -3.0, 0.5])
    inputs = [x]
    def f(): return T.logcumsumexp(x.float(), 0)
""")

error("argsort_dim", "T.argsort(T.ones(2), dim=2)")
error("nonzero_positional", "T.nonzero(T.tensor([True, False]), True)")
error("count_nonzero_repeated", "T.count_nonzero(T.ones(2, 2), dim=(0, 0))")
error("count_nonzero_dim", "T.count_nonzero(T.ones(2, 2), dim=2)")
error("nanmean_long", "T.nanmean(T.tensor([1, 2]))")
error("aminmax_empty", "T.aminmax(T.zeros(0))")
error("aminmax_empty_dim", "T.aminmax(T.zeros(2, 0), dim=1)")
error("aminmax_positional", "T.aminmax(T.ones(2, 2), 1)")
error("cummax_no_dim", "T.cummax(T.ones(2))")
error("cummin_dim", "T.cummin(T.ones(2), 1)")
error("logcumsumexp_long", "T.logcumsumexp(T.tensor([1, 2]), 0)")
error("logcumsumexp_bool", "T.logcumsumexp(T.tensor([True]), 0)")
error("logcumsumexp_no_dim", "T.logcumsumexp(T.ones(2))")

# ====================================================================== shrinking activations

case("hardshrink", """
    x = leaf([-1.0, -0.5, -0.2, 0.0, 0.5, 0.7, -0.0])
    inputs = [x]
    def f(): return F.hardshrink(x)
""")
case("hardshrink_torch_method", """
    x = leaf([[-1.0, -0.3, 0.2], [0.31, 2.0, -0.29]])
    inputs = [x]
    def f(): return T.hardshrink(x, 0.3) + x.hardshrink(lambd=0.25)
""")
case("hardshrink_special", """
    inputs = []
    def f(): return F.hardshrink(T.tensor([float('nan'), float('inf'), -float('inf'), 0.4])), F.hardshrink(T.tensor([-1.0, 0.3]), -1.0)
""")
case("softshrink", """
    x = leaf([-1.0, -0.5, -0.2, 0.0, 0.5, 0.7, -0.0])
    inputs = [x]
    def f(): return F.softshrink(x)
""")
case("softshrink_lambd", """
    x = leaf([[-1.0, -0.3, 0.2], [0.31, 2.0, -0.29]])
    inputs = [x]
    def f(): return F.softshrink(x, 0.3)
""")
case("softshrink_special", """
    inputs = []
    def f(): return F.softshrink(T.tensor([float('nan'), float('inf'), -float('inf'), 0.4]), lambd=0), F.softshrink(T.tensor([float('nan'), -float('inf')]))
""")
case("softsign", """
    x = leaf([-3.0, -0.5, 0.0, 0.25, 4.0])
    inputs = [x]
    def f(): return F.softsign(x)
""")
case("softsign_special_long", """
    inputs = []
    def f(): return F.softsign(T.tensor([1.0, float('inf'), -float('inf'), float('nan')])), F.softsign(T.tensor([1, -2]))
""")
case("tanhshrink", """
    x = leaf([-3.0, -0.5, 0.0, 0.25, 4.0])
    inputs = [x]
    def f(): return F.tanhshrink(x)
""")
case("shrink_modules", """
    x = leaf([[-1.0, -0.3, 0.2], [0.31, 2.0, -0.29]])
    inputs = [x]
    def f(): return nn.Hardshrink(0.3)(x) + nn.Softshrink()(x) * nn.Softsign()(x) - nn.Tanhshrink()(x)
""")
case("shrink_modules_repr", """
    inputs = []
    def f(): return T.tensor([ord(c) for c in repr(nn.Sequential(nn.Hardshrink(), nn.Softshrink(lambd=0.2), nn.Softsign(), nn.Tanhshrink()))])
""")

error("hardshrink_long", "F.hardshrink(T.tensor([1, 2]))")
error("hardshrink_bool", "T.hardshrink(T.tensor([True]))")
error("hardshrink_lambd_str", "F.hardshrink(T.tensor([1.0]), 'a')")
error("softshrink_negative", "F.softshrink(T.tensor([-1.0, 0.3]), -1.0)")
error("softshrink_negative_float32", "F.softshrink(T.tensor([-1.0], dtype=T.float32), -0.5)")
error("softshrink_long", "F.softshrink(T.tensor([1, 2]))")
error("softshrink_module_negative", "nn.Softshrink(-1)(T.ones(1))")
