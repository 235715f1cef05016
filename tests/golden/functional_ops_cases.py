"""The cases of functional_ops.json and how each is recorded: run by gen_functional_ops.py under
PyTorch and by tests/engine/ops/test_functional_ops.py under our engine (see gen_functional_ops.py). The
names a program uses: T, F, nn and leaf(data), a float64 tensor that requires grad."""
import warnings

from program_cases import registry

CASES, ERRORS, case, error = registry()


def _hex(values):
    """Nested lists of floats (or ints, or bools) as float.hex strings (ints and bools as they are)."""
    if isinstance(values, list):
        return [_hex(v) for v in values]
    return values.hex() if isinstance(values, float) else values


def _weights(T, like, scale):
    """Fixed weights of like's shape: (-1)^i (1 + i/4) * scale, the same in both engines."""
    n = like.numel()
    values = [(-1.0) ** i * (1.0 + 0.25 * i) * scale for i in range(n)]
    return T.tensor(values, dtype=like.dtype).reshape(tuple(like.shape))


def _tensor(t):
    t = t.detach()
    if getattr(t, "_is_zerotensor", lambda: False)():  # PyTorch's zeros without memory (dist's p=1 2nd derivative)
        t = t.new_zeros(tuple(t.shape))
    return {"dtype": str(t.dtype), "shape": list(t.shape), "values": _hex(t.tolist())}


def _grads(T, outputs, inputs, create_graph):
    if not any(o.requires_grad for o in outputs):
        return None
    total = sum((o * w).sum() for o, w in outputs.items())
    return T.autograd.grad(total, inputs, create_graph=create_graph, allow_unused=True)


def record(program, ns):
    """What PyTorch (or our engine) gives for one case: see gen_functional_ops.py."""
    exec(program, ns)
    T, inputs = ns["T"], ns["inputs"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = ns["f"]()
    items = list(out) if isinstance(out, tuple) else [out]
    y = items[0]
    result = {"out": [_tensor(t) for t in items], "warnings": [str(w.message) for w in caught]}
    if y.grad_fn is not None:
        result["node"] = y.grad_fn.name()
        result["next"] = [None if fn is None else type(fn).__name__ for fn, _ in y.grad_fn.next_functions]
    first_only = ns.get("first_order_only")  # at a kink, PyTorch's 2nd derivative takes another side
    grads = _grads(T, {y: _weights(T, y, 1.0)}, inputs, create_graph=not first_only) if inputs else None
    if grads is None:
        return result
    result["grad"] = [None if g is None else _tensor(g) for g in grads]
    if first_only:
        return result
    seconds = {g: _weights(T, g, 0.5) for g in grads if g is not None}
    try:
        grads2 = _grads(T, seconds, inputs, create_graph=False)
    except RuntimeError as e:  # PyTorch has no double backward for some kernels (hardsigmoid's)
        result["grad2_error"] = str(e)
        return result
    result["grad2"] = None if grads2 is None else [None if g is None else _tensor(g) for g in grads2]
    return result


def run_error(program, ns):
    """[type name, message] of the exception the program raises (None if it raises nothing)."""
    try:
        exec(program, ns)
    except Exception as e:  # noqa: BLE001  (any exception is the observation)
        return [type(e).__name__, str(e)]
    return None


# ====================================================================== activations

case("mish", """
    x = leaf([[-30.0, -4.0, -1.2, -0.3, 0.0], [0.25, 1.0, 2.5, 19.0, 25.0]])
    inputs = [x]
    def f(): return F.mish(x)
""")
case("mish_inplace", """
    x = leaf([[-2.0, -0.5, 0.0], [0.5, 1.5, 3.0]])
    inputs = [x]
    def f(): return F.mish(x * 1.0, inplace=True)
""")
case("hardswish", """
    x = leaf([-5.0, -3.0, -2.5, -1.0, 0.0, 0.7, 2.9, 3.0, 4.0])
    inputs = [x]
    def f(): return F.hardswish(x)
""")
case("hardswish_inplace", """
    x = leaf([[-5.0, -2.5, 0.7], [1.3, 2.9, 4.0]])
    inputs = [x]
    def f(): return F.hardswish(x * 1.0, True)
""")
case("hardsigmoid", """
    x = leaf([-5.0, -3.0, -2.5, -1.0, 0.0, 0.7, 2.9, 3.0, 4.0])
    inputs = [x]
    def f(): return F.hardsigmoid(x)
""")
case("hardsigmoid_inplace", """
    x = leaf([[-5.0, -2.5, 0.7], [1.3, 2.9, 4.0]])
    inputs = [x]
    def f(): return F.hardsigmoid(x * 1.0, inplace=True)
""")
case("threshold", """
    x = leaf([[-1.0, 0.5, 0.50001, 3.0], [float("nan"), -7.5, 2.0, 0.4]])
    inputs = [x]
    def f(): return F.threshold(x, 0.5, -2.0)
""")
case("threshold_inplace", """
    x = leaf([-1.0, 0.5, 1.0, 3.0])
    inputs = [x]
    def f(): return F.threshold(x * 1.0, 0.5, 2.0, inplace=True)
""")
case("threshold_underscore", """
    x = leaf([-1.0, 0.5, 1.0, 3.0])
    inputs = [x]
    def f(): return F.threshold_(x * 1.0, 1, 7)
""")
case("threshold_integers", """
    inputs = []
    def f(): return F.threshold(T.tensor([[0, 1, -1], [5, 2, 3]]), -0.5, 9.7)
""")
case("prelu_one_weight", """
    x = leaf([[[-2.0, 1.5], [0.125, -0.25]], [[3.0, -1.0], [-4.0, 2.0]]])
    w = leaf([0.25])
    inputs = [x, w]
    def f(): return F.prelu(x, w)
""")
case("prelu_at_zero", """
    x = leaf([[0.0, -0.0, 1.0], [-1.0, 0.0, 2.0]])
    w = leaf([0.25, -0.5, 1.5])
    inputs = [x, w]
    first_order_only = True
    def f(): return F.prelu(x, w)
""")
case("prelu_channels", """
    x = leaf([[[-2.0, 1.5], [0.5, -0.25], [-1.0, -3.0]], [[3.0, -1.0], [-4.0, 2.0], [0.75, -0.5]]])
    w = leaf([0.25, -0.5, 1.5])
    inputs = [x, w]
    def f(): return F.prelu(x, w)
""")
case("prelu_4d", """
    x = leaf([[[[-1.0, 2.0]], [[-3.0, -0.5]]], [[[0.5, -2.5]], [[1.5, -1.5]]]])
    w = leaf([0.1, 0.3])
    inputs = [x, w]
    def f(): return F.prelu(x, w)
""")
case("prelu_vector", """
    x = leaf([-1.0, 2.0, -3.0])
    w = leaf([0.2])
    inputs = [x, w]
    def f(): return F.prelu(x, w)
""")
case("prelu_scalar", """
    x = leaf(-1.5)
    w = leaf(0.2)
    inputs = [x, w]
    def f(): return F.prelu(x, w)
""")
case("glu_last", """
    x = leaf([[0.5, -1.2, 2.0, -3.5], [0.1, 4.0, -0.7, 1.3]])
    inputs = [x]
    def f(): return F.glu(x)
""")
case("glu_dim0", """
    x = leaf([[0.5, -1.2, 2.0], [-3.5, 0.1, 4.0], [0.3, 0.3, -2.0], [1.0, -1.0, 0.0]])
    inputs = [x]
    def f(): return F.glu(x, 0)
""")
case("glu_middle", """
    x = leaf([[[0.5, -1.2], [2.0, -3.5]], [[0.1, 4.0], [-0.7, 1.3]]])
    inputs = [x]
    def f(): return F.glu(x, dim=1)
""")

# ============================================================================ cosine_similarity, kl_div, xlogy

case("cosine_similarity", """
    x = leaf([[0.5, -1.2, 2.0], [-3.5, 0.1, 4.0]])
    y = leaf([[0.3, 0.2, -1.0], [1.0, 0.5, 0.7]])
    inputs = [x, y]
    def f(): return F.cosine_similarity(x, y)
""")
case("cosine_similarity_dim0_eps", """
    x = leaf([[0.5, -1.2, 2.0], [-3.5, 0.1, 4.0]])
    y = leaf([[0.3, 0.2, -1.0], [1.0, 0.5, 0.7]])
    inputs = [x, y]
    def f(): return F.cosine_similarity(x, y, dim=0, eps=1e-6)
""")
case("cosine_similarity_broadcast", """
    x = leaf([[0.5, -1.2, 2.0], [-3.5, 0.1, 4.0]])
    y = leaf([0.3, 0.2, -1.0])
    inputs = [x, y]
    def f(): return F.cosine_similarity(x, y, -1)
""")
case("cosine_similarity_clamped", """
    x = leaf([[1e-9, -2e-9, 0.0], [0.0, 3e-10, 0.0], [1.0, 2.0, 2.0]])
    y = leaf([[0.3, 0.2, -1.0], [1.0, 0.5, 0.7], [0.0, 1e-10, 0.0]])
    inputs = [x, y]
    def f(): return F.cosine_similarity(x, y, eps=1e-3)
""")
case("cosine_similarity_integers", """
    x = leaf([[0.5, -1.2, 2.0], [-3.5, 0.1, 4.0]])
    inputs = [x]
    def f(): return F.cosine_similarity(T.tensor([[1, 2, 3], [4, 5, -6]]), x)
""")
case("kl_div_mean", """
    x = leaf([[-1.2, -0.5, -2.0], [-0.1, -3.0, -0.7]])
    t = leaf([[0.2, 0.5, 0.3], [0.0, 0.6, 0.4]])
    inputs = [x, t]
    def f(): return F.kl_div(x, t)
""")
case("kl_div_batchmean", """
    x = leaf([[-1.2, -0.5, -2.0], [-0.1, -3.0, -0.7]])
    t = leaf([[0.2, 0.5, 0.3], [0.0, 0.6, 0.4]])
    inputs = [x, t]
    def f(): return F.kl_div(x, t, reduction="batchmean")
""")
case("kl_div_sum", """
    x = leaf([[-1.2, -0.5, -2.0], [-0.1, -3.0, -0.7]])
    t = leaf([[0.2, 0.5, 0.3], [0.1, 0.6, 0.4]])
    inputs = [x, t]
    def f(): return F.kl_div(x, t, reduction="sum")
""")
case("kl_div_none", """
    x = leaf([[-1.2, -0.5, -2.0], [-0.1, -3.0, -0.7]])
    t = leaf([[0.2, 0.5, 0.3], [0.0, 0.6, 0.4]])
    inputs = [x, t]
    def f(): return F.kl_div(x, t, reduction="none")
""")
case("kl_div_log_target", """
    x = leaf([[-1.2, -0.5, -2.0], [-0.1, -3.0, -0.7]])
    t = leaf([[-1.6, -0.7, -1.2], [-2.3, -0.5, -0.9]])
    inputs = [x, t]
    def f(): return F.kl_div(x, t, reduction="batchmean", log_target=True)
""")
case("kl_div_legacy_flags", """
    x = leaf([[-1.2, -0.5, -2.0], [-0.1, -3.0, -0.7]])
    t = leaf([[0.2, 0.5, 0.3], [0.1, 0.6, 0.4]])
    inputs = [x, t]
    def f(): return F.kl_div(x, t, size_average=False, reduction="batchmean")
""")
case("kl_div_scalar_batchmean", """
    x = leaf(-0.5)
    t = leaf(0.3)
    inputs = [x, t]
    def f(): return F.kl_div(x, t, reduction="batchmean")
""")
case("xlogy", """
    x = leaf([0.0, 1.0, 2.0, -1.5, 0.0, 3.0])
    y = leaf([0.0, 3.0, 0.5, 2.0, float("nan"), 1e-3])
    inputs = [x, y]
    def f(): return T.xlogy(x, y)
""")
case("xlogy_number_left", """
    y = leaf([0.5, 3.0, 2.0])
    inputs = [y]
    def f(): return T.xlogy(2, y)
""")
case("xlogy_number_right", """
    x = leaf([0.0, 1.0, -2.0])
    inputs = [x]
    def f(): return x.xlogy(2.5)
""")

# ============================================================================= dist, baddbmm, tensordot

_A = "[[0.5, -1.2, 2.0], [-3.5, 0.1, 4.0]]"
_B = "[[0.3, 0.2, -1.0], [1.0, 0.5, 0.7]]"
for _name, _call in (("dist", "T.dist(a, b)"), ("dist_p1", "T.dist(a, b, 1)"), ("dist_p3", "a.dist(b, p=3)"),
                     ("dist_p_half", "T.dist(a, b, 0.5)"), ("dist_inf", "T.dist(a, b, float('inf'))"),
                     ("dist_minus_inf", "T.dist(a, b, float('-inf'))"), ("dist_p0", "T.dist(a, b, 0)"),
                     ("dist_negative_p", "T.dist(a, b, -1.5)"), ("dist_p_tensor", "T.dist(a, b, T.tensor(4.0))")):
    case(_name, f"""
        a = leaf({_A})
        b = leaf({_B})
        inputs = {"[]" if _name == "dist_p0" else "[a, b]"}  # PyTorch's p=0 backward fails (an undefined tensor)
        def f(): return {_call}
    """)
case("dist_broadcast", """
    a = leaf([[0.5, -1.2, 2.0], [-3.5, 0.1, 4.0]])
    b = leaf([0.3, 0.2, -1.0])
    inputs = [a, b]
    def f(): return T.dist(a, b)
""")
case("dist_ties_inf", """
    a = leaf([1.0, -3.0, 3.0, 0.5])
    b = leaf([0.0, 0.0, 0.0, 0.0])
    inputs = [a, b]
    def f(): return T.dist(a, b, float('inf'))
""")
_M = "[[[0.5, -1.0], [2.0, 0.25]], [[-1.5, 3.0], [0.125, -0.75]]]"
_X = "[[[1.0, 2.0, -0.5], [0.5, -1.0, 1.5]], [[-2.0, 0.25, 1.0], [3.0, 0.5, -1.0]]]"
_Y = "[[[0.5, 1.0], [-1.5, 2.0], [1.0, 0.0]], [[2.0, -0.5], [0.25, 1.0], [-1.0, 3.0]]]"
for _name, _call in (("baddbmm", "T.baddbmm(m, x, y)"), ("baddbmm_factors", "T.baddbmm(m, x, y, beta=0.5, alpha=-2.0)"),
                     ("baddbmm_method_beta0", "m.baddbmm(x, y, beta=0)"),
                     ("baddbmm_inplace", "(m * 1.0).baddbmm_(x, y, alpha=3)"),
                     ("baddbmm_broadcast", "T.baddbmm(m[0, 0], x, y, beta=2)")):
    case(_name, f"""
        m = leaf({_M})
        x = leaf({_X})
        y = leaf({_Y})
        inputs = [m, x, y]
        def f(): return {_call}
    """)
case("tensordot_pairs", """
    a = leaf([[[0.5, -1.0, 2.0, 0.25], [1.5, 0.5, -0.5, 1.0], [2.0, -2.0, 0.0, 3.0]],
              [[-1.0, 0.75, 1.25, -0.5], [0.0, 1.0, 2.0, -3.0], [0.5, 0.5, -1.5, 1.0]]])
    b = leaf([[[1.0, 0.5], [-1.0, 2.0], [0.25, 0.0]], [[2.0, -1.5], [0.5, 0.5], [1.0, 1.0]],
              [[-0.5, 1.0], [3.0, -2.0], [0.75, 0.25]], [[1.0, 1.0], [-1.0, 0.5], [2.0, -0.25]]])
    inputs = [a, b]
    def f(): return T.tensordot(a, b, dims=([1, 2], [1, 0]))
""")
case("tensordot_int", """
    a = leaf([[[0.5, -1.0], [2.0, 0.25], [1.5, 0.5]], [[-0.5, 1.0], [2.0, -2.0], [0.0, 3.0]]])
    b = leaf([[[1.0, 0.5, -1.0], [2.0, 0.25, 0.0]], [[2.0, -1.5, 0.5], [0.5, 1.0, 1.0]],
              [[-0.5, 1.0, 3.0], [-2.0, 0.75, 0.25]]])
    inputs = [a, b]
    def f(): return T.tensordot(a, b)
""")
case("tensordot_outer", """
    a = leaf([0.5, -1.0, 2.0])
    b = leaf([[1.0, 0.5], [-1.0, 2.0]])
    inputs = [a, b]
    def f(): return T.tensordot(a, b, dims=0)
""")
case("tensordot_size_one", """
    a = leaf([[0.5], [-1.0]])
    b = leaf([[1.0, 0.5], [-1.0, 2.0], [0.25, 3.0]])
    inputs = [a, b]
    def f(): return T.tensordot(a, b, dims=[[1], [0]])
""")
case("tensordot_tensor_dims", """
    a = leaf([[0.5, -1.0, 2.0], [1.5, 0.5, -0.5]])
    b = leaf([[1.0, 0.5], [-1.0, 2.0], [0.25, 0.0]])
    inputs = [a, b]
    def f(): return T.tensordot(a, b, dims=T.tensor([[1], [0]]))
""")

# ============================================================================= modules

case("nn_prelu", """
    m = nn.PReLU(3, init=0.1)
    x = leaf([[-1.0, 2.0, -3.0], [0.5, -0.5, -2.0]])
    inputs = [x, m.weight]
    def f(): return m(x)
""")
case("nn_kldivloss", """
    m = nn.KLDivLoss(reduction="batchmean", log_target=True)
    x = leaf([[-1.2, -0.5, -2.0], [-0.1, -3.0, -0.7]])
    t = leaf([[-1.6, -0.7, -1.2], [-2.3, -0.5, -0.9]])
    inputs = [x, t]
    def f(): return m(x, t)
""")
case("nn_cosine_similarity", """
    m = nn.CosineSimilarity(dim=0, eps=1e-6)
    x = leaf([[0.5, -1.2, 2.0], [-3.5, 0.1, 4.0]])
    y = leaf([[0.3, 0.2, -1.0], [1.0, 0.5, 0.7]])
    inputs = [x, y]
    def f(): return m(x, y)
""")
case("nn_threshold_glu", """
    x = leaf([[0.5, -1.2, 2.0, -3.5], [0.1, 4.0, -0.7, 1.3]])
    inputs = [x]
    def f(): return nn.Threshold(0.2, -1.0)(nn.GLU()(x))
""")

# ============================================================================ bad calls

error("mish_long", "F.mish(T.tensor([1, 2]))")
error("hardswish_bool", "F.hardswish(T.tensor([True]))")
error("hardsigmoid_long", "F.hardsigmoid(T.tensor([1, 2]))")
error("threshold_bool", "F.threshold(T.tensor([True, False]), 0, 1)")
error("threshold_str", "F.threshold(T.tensor([1.0]), 'a', 1.0)")
error("threshold_value_str", "F.threshold(T.tensor([1.0]), 0.5, None)")
error("prelu_mismatch", "F.prelu(T.ones(2, 3), T.tensor([0.1, 0.2]))")
error("prelu_vector_mismatch", "F.prelu(T.ones(3), T.tensor([0.1, 0.2, 0.3]))")
error("prelu_2d_weight", "F.prelu(T.ones(2, 3), T.ones(1, 3))")
error("prelu_dtypes", "F.prelu(T.ones(2, 3), T.ones(1, dtype=T.float32))")
error("prelu_scalar_input", "F.prelu(T.tensor(1.0), T.tensor([0.1, 0.2]))")
error("prelu_long", "F.prelu(T.tensor([1, 2]), T.tensor([2]))")
error("glu_scalar", "F.glu(T.tensor(1.0))")
error("glu_odd", "F.glu(T.ones(2, 3))")
error("glu_dim", "F.glu(T.ones(2, 4), 2)")
error("glu_long", "F.glu(T.ones(2, 4, dtype=T.int64))")
error("cosine_similarity_long", "F.cosine_similarity(T.tensor([1, 2]), T.tensor([3, 4]), dim=0)")
error("cosine_similarity_shapes", "F.cosine_similarity(T.ones(2, 3), T.ones(2, 4))")
error("cosine_similarity_dim", "F.cosine_similarity(T.ones(3), T.ones(3))")
error("kl_div_long", "F.kl_div(T.tensor([1, 2]), T.tensor([0.5, 0.5]), reduction='sum')")
error("kl_div_long_target", "F.kl_div(T.tensor([-1.0, -2.0]), T.tensor([1, 0]), reduction='sum')")
error("kl_div_reduction", "F.kl_div(T.ones(2), T.ones(2), reduction='foo')")
error("threshold_module_arguments", "nn.Threshold(0.5)")
error("dist_shapes", "T.dist(T.ones(2, 3), T.ones(4))")
error("dist_long", "T.dist(T.tensor([1, 2]), T.tensor([3, 4]))")
error("dist_p_str", "T.dist(T.ones(3), T.ones(3), 'fro')")
error("dist_number", "T.dist(T.ones(3), 1.0)")
error("tensordot_negative", "T.tensordot(T.ones(2, 3), T.ones(2, 3), dims=-1)")
error("tensordot_too_many", "T.tensordot(T.ones(2, 3), T.ones(2, 3), dims=3)")
error("tensordot_sizes", "T.tensordot(T.ones(2, 3), T.ones(2, 3), dims=([0], [1]))")
error("tensordot_sizes_int", "T.tensordot(T.ones(2, 3), T.ones(2, 3), dims=1)")
error("tensordot_lengths", "T.tensordot(T.ones(2, 3), T.ones(2, 3), dims=([0, 1], [1]))")
error("tensordot_dtypes", "T.tensordot(T.ones(2, 3), T.ones(3, 2, dtype=T.float32), dims=1)")
error("tensordot_range", "T.tensordot(T.ones(2, 3), T.ones(2, 3), dims=([2], [0]))")
error("tensordot_repeated", "T.tensordot(T.ones(3, 3), T.ones(3, 3), dims=([0, 0], [0, 1]))")
error("tensordot_ints", "T.tensordot(T.ones(2, 3), T.ones(3, 2), dims=(1, 0))")
error("tensordot_dims_str", "T.tensordot(T.ones(2, 3), T.ones(3, 2), dims='x')")
error("baddbmm_batches", "T.baddbmm(T.ones(2, 3, 5), T.ones(2, 3, 4), T.ones(3, 4, 5))")
error("baddbmm_inner", "T.baddbmm(T.ones(2, 3, 5), T.ones(2, 3, 4), T.ones(2, 3, 5))")
error("baddbmm_input", "T.baddbmm(T.ones(2, 3, 4), T.ones(2, 3, 4), T.ones(2, 4, 5))")
error("baddbmm_input_4d", "T.baddbmm(T.ones(1, 2, 3, 5), T.ones(2, 3, 4), T.ones(2, 4, 5))")
error("baddbmm_dtypes", "T.baddbmm(T.ones(2, 3, 5), T.ones(2, 3, 4), T.ones(2, 4, 5, dtype=T.float32))")
error("baddbmm_input_dtype", "T.baddbmm(T.ones(2, 3, 5, dtype=T.float32), T.ones(2, 3, 4), T.ones(2, 4, 5))")
error("baddbmm_bool", "T.baddbmm(T.ones(2, 3, 5).bool(), T.ones(2, 3, 4).bool(), T.ones(2, 4, 5).bool())")
error("baddbmm_inplace_broadcast", "T.ones(5).baddbmm_(T.ones(2, 3, 4), T.ones(2, 4, 5))")
