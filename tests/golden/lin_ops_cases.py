"""The cases of lin_ops.json: vdot, inner, addmv, addr, matrix_power, logdet, slogdet, cdist,
pdist, pairwise_distance, layer_norm, embedding and their modules (LayerNorm, Embedding,
PairwiseDistance, ModuleDict, ParameterList), run by gen_lin_ops.py under PyTorch and by
tests/engine/ops/test_lin_ops.py under our engine, recorded by functional_ops_cases.record and run_error.
REPRS are programs that set `text` to what a layer prints as."""
from program_cases import registry

CASES, ERRORS, case, error = registry()
REPRS, _, text, _ = registry()

M33 = "[[2.0, -1.0, 0.5], [0.25, 3.0, -1.5], [1.0, 0.5, 2.5]]"

# ============================================================================ vdot, inner

case("vdot", """
    a, b = leaf([1.5, -2.0, 0.25, 3.0]), leaf([0.5, 1.25, -4.0, 2.0])
    inputs = [a, b]
    def f(): return T.vdot(a, b)
""")
case("vdot_method", """
    a, b = leaf([1.5, -2.0]), T.tensor([0.5, 1.25])
    inputs = [a]
    def f(): return a.vdot(b)
""")
case("inner_vectors", """
    a, b = leaf([1.5, -2.0, 0.25]), leaf([0.5, 1.25, -4.0])
    inputs = [a, b]
    def f(): return T.inner(a, b)
""")
case("inner_matrices", """
    a, b = leaf([[1.5, -2.0, 0.25], [1.0, 2.0, 3.0]]), leaf([[0.5, 1.25, -4.0], [-1.0, 0.0, 2.0], [0.5, 0.5, 0.5]])
    inputs = [a, b]
    def f(): return T.inner(a, b)
""")
case("inner_3d_vector", """
    a, b = leaf([[[1.5, -2.0], [0.25, 1.0]], [[2.0, 3.0], [-1.0, 0.5]]]), leaf([0.5, -1.25])
    inputs = [a, b]
    def f(): return a.inner(b)
""")
case("inner_scalar", """
    a, b = leaf(2.5), leaf([[0.5, 1.25], [-4.0, 1.0]])
    inputs = [a, b]
    def f(): return T.inner(a, b)
""")

# ============================================================================ addmv, addr

case("addmv", """
    x, m, v = leaf([1.0, -2.0]), leaf([[1.5, -2.0, 0.25], [1.0, 2.0, 3.0]]), leaf([0.5, 1.25, -4.0])
    inputs = [x, m, v]
    def f(): return T.addmv(x, m, v)
""")
case("addmv_beta_alpha", """
    x, m, v = leaf([3.0]), leaf([[1.5, -2.0, 0.25], [1.0, 2.0, 3.0]]), leaf([0.5, 1.25, -4.0])
    inputs = [x, m, v]
    def f(): return T.addmv(x, m, v, beta=0.5, alpha=-2.0)
""")
case("addmv_beta_zero_nan", """
    x, m, v = leaf([float("nan"), 1.0]), leaf([[1.5, -2.0], [1.0, 2.0]]), leaf([0.5, 1.25])
    inputs = [x, m, v]
    def f(): return x.addmv(m, v, beta=0)
""")
case("addmv_inplace", """
    x, m, v = leaf([1.0, -2.0]), leaf([[1.5, -2.0, 0.25], [1.0, 2.0, 3.0]]), leaf([0.5, 1.25, -4.0])
    inputs = [x, m, v]
    def f(): return (x * 1.0).addmv_(m, v, alpha=3)
""")
case("addr", """
    x, a, b = leaf([[1.0, -2.0, 0.5], [0.0, 4.0, 1.5]]), leaf([1.5, -2.0]), leaf([0.5, 1.25, -4.0])
    inputs = [x, a, b]
    def f(): return T.addr(x, a, b)
""")
case("addr_beta_alpha_broadcast", """
    x, a, b = leaf([1.0, -2.0, 0.5]), leaf([1.5, -2.0]), leaf([0.5, 1.25, -4.0])
    inputs = [x, a, b]
    def f(): return T.addr(x, a, b, beta=2.0, alpha=0.1)
""")
case("addr_inplace", """
    x, a, b = leaf([[1.0, -2.0], [0.0, 4.0]]), leaf([1.5, -2.0]), leaf([0.5, 1.25])
    inputs = [x, a, b]
    def f(): return (x * 1.0).addr_(a, b, beta=0.5)
""")
case("addr_integers", """
    inputs = []
    def f(): return T.addr(T.tensor([[1, 2], [3, 4]]), T.tensor([1, -1]), T.tensor([2, 5]), beta=2, alpha=3)
""")

# ============================================================================ matrix_power

for _n in (0, 1, 2, 3, 4, 5, -1, -2, -3):
    case(f"matrix_power_{_n}".replace("-", "minus_"), f"""
        a = leaf({M33})
        inputs = [a]
        def f(): return T.matrix_power(a * 0.5, {_n})
    """)
case("matrix_power_linalg_method", """
    a = leaf([[0.5, -1.0], [0.25, 1.5]])
    inputs = [a]
    def f(): return T.linalg.matrix_power(a, 6) + a.matrix_power(2)
""")
case("matrix_power_batched_minus_1", """
    a = leaf([[[0.5, -1.0], [0.25, 1.5]], [[2.0, 1.0], [1.0, 2.0]]])
    inputs = [a]
    def f(): return T.matrix_power(a, -1)
""")
case("matrix_power_integers", """
    inputs = []
    def f(): return T.matrix_power(T.tensor([[1, 2], [3, 4]]), 3)
""")

# ============================================================================ slogdet, logdet

case("slogdet", """
    a = leaf(""" + M33 + """)
    inputs = [a]
    def f(): return tuple(T.slogdet(a))[::-1]
""")
case("slogdet_negative", """
    a = leaf([[1.0, 2.0], [3.0, 4.0]])
    inputs = [a]
    def f(): return T.linalg.slogdet(a).logabsdet, T.linalg.slogdet(a).sign
""")
case("slogdet_batched_method", """
    a = leaf([[[1.0, 2.0], [3.0, 4.0]], [[2.0, 0.5], [0.5, 1.0]]])
    inputs = [a]
    def f(): return a.slogdet()[1]
""")
case("slogdet_sign_node", """
    a = leaf([[1.0, 2.0], [3.0, 4.0]])
    inputs = []
    def f(): return T.slogdet(a).sign
""")
case("slogdet_singular", """
    inputs = []
    def f(): return tuple(T.slogdet(T.tensor([[1.0, 2.0], [2.0, 4.0]])))
""")
case("logdet", """
    a = leaf(""" + M33 + """)
    inputs = [a]
    def f(): return T.logdet(a)
""")
case("logdet_negative_is_nan", """
    a = leaf([[[1.0, 2.0], [3.0, 4.0]], [[2.0, 0.5], [0.5, 1.0]]])
    inputs = [a]
    def f(): return a.logdet()
""")
case("logdet_singular", """
    inputs = []
    def f(): return T.logdet(T.zeros(2, 2))
""")

# ============================================================================ distances

X43 = "[[0.5, -1.0, 2.0], [1.5, 0.25, -0.5], [-2.0, 1.0, 0.0], [0.75, 0.75, 1.25]]"
Y33 = "[[1.0, 0.0, -1.0], [0.25, 2.0, 0.5], [-1.5, -0.5, 3.0]]"
for _p in ("2", "1", "3.0", "0.5", "float('inf')", "0"):
    _name = {"2": "p2", "1": "p1", "3.0": "p3", "0.5": "p_half", "float('inf')": "inf", "0": "p0"}[_p]
    case(f"cdist_{_name}", f"""
        a, b = leaf({X43}), leaf({Y33})
        inputs = [a, b]
        def f(): return T.cdist(a, b, p={_p})
    """)
    case(f"pdist_{_name}", f"""
        a = leaf({X43})
        inputs = [a]
        def f(): return F.pdist(a, {_p})
    """)
case("cdist_batch_broadcast", """
    a, b = leaf([[[0.5, -1.0], [1.5, 0.25]], [[-2.0, 1.0], [0.75, 0.75]]]), leaf([[1.0, 0.0], [0.25, 2.0], [-1.5, -0.5]])
    inputs = [a, b]
    def f(): return T.cdist(a, b)
""")
case("cdist_equal_rows", """
    a, b = leaf([[0.5, -1.0], [1.5, 0.25]]), leaf([[0.5, -1.0], [2.0, 2.0]])
    inputs = [a, b]
    first_order_only = True
    def f(): return T.cdist(a, b)
""")
case("cdist_many_rows", """
    a = leaf([[0.25 * i - 3.0, (-1.0) ** i * 0.5 + 0.125 * i] for i in range(26)])
    b = leaf([[1.0, 0.0], [0.25, 2.0], [-1.5, -0.5]])
    inputs = [a, b]
    def f(): return T.cdist(a, b)
""")
case("cdist_many_rows_right_batched", """
    a = leaf([[[1.0, 0.0], [0.25, 2.0]], [[-1.5, -0.5], [0.5, 0.5]]])
    b = leaf([[0.25 * i - 3.0, (-1.0) ** i * 0.5 + 0.125 * i] for i in range(27)])
    inputs = [a, b]
    def f(): return T.cdist(a, b)
""")
case("cdist_mm_mode", """
    a, b = leaf(""" + X43 + """), leaf(""" + Y33 + """)
    inputs = [a, b]
    def f(): return T.cdist(a, b, compute_mode="use_mm_for_euclid_dist")
""")
case("cdist_donot_use_mm", """
    a = leaf([[0.25 * i - 3.0, (-1.0) ** i * 0.5 + 0.125 * i] for i in range(26)])
    b = leaf([[1.0, 0.0], [0.25, 2.0]])
    inputs = [a, b]
    def f(): return T.cdist(a, b, compute_mode="donot_use_mm_for_euclid_dist")
""")
case("pdist_one_row", """
    a = leaf([[0.5, -1.0, 2.0]])
    inputs = [a]
    def f(): return F.pdist(a)
""")
case("torch_pdist", """
    a = leaf(""" + X43 + """)
    inputs = [a]
    def f(): return T.pdist(a, p=1.5)
""")
case("pairwise_distance", """
    a, b = leaf(""" + X43 + """), leaf([[1.0, 0.0, -1.0], [0.25, 2.0, 0.5], [-1.5, -0.5, 3.0], [0.0, 1.0, 1.0]])
    inputs = [a, b]
    def f(): return F.pairwise_distance(a, b)
""")
case("pairwise_distance_p1_keepdim_broadcast", """
    a, b = leaf(""" + X43 + """), leaf([1.0, 0.0, -1.0])
    inputs = [a, b]
    def f(): return F.pairwise_distance(a, b, p=1.0, keepdim=True)
""")
case("pairwise_distance_inf_eps", """
    a, b = leaf(""" + X43 + """), leaf([1.0, 0.0, -1.0])
    inputs = [a, b]
    def f(): return T.pairwise_distance(a, b, float("inf"), 0.5)
""")
case("pairwise_distance_p3_vectors", """
    a, b = leaf([0.5, -1.0, 2.0]), leaf([1.0, 0.0, -1.0])
    inputs = [a, b]
    def f(): return F.pairwise_distance(a, b, 3)
""")
case("pairwise_distance_integers", """
    inputs = []
    def f(): return F.pairwise_distance(T.tensor([[1, 2], [3, 4]]), T.tensor([[1, 2], [0, 0]]))
""")
case("pairwise_distance_module", """
    a, b = leaf(""" + X43 + """), leaf([1.0, 0.0, -1.0])
    inputs = [a, b]
    def f(): return nn.PairwiseDistance(p=1.5, eps=0.0, keepdim=True)(a, b)
""")

# ============================================================================ layer_norm

X234 = "[[[0.5, -1.0, 2.0, 0.0], [1.5, 0.25, -0.5, 3.0], [-2.0, 1.0, 0.0, 0.5]], " \
       "[[0.75, 0.75, 1.25, -1.0], [1.0, 0.0, -1.0, 2.0], [0.25, 2.0, 0.5, -0.25]]]"
case("layer_norm", """
    x = leaf(""" + X234 + """)
    inputs = [x]
    def f(): return F.layer_norm(x, (4,))
""")
case("layer_norm_affine", """
    x, w, b = leaf(""" + X234 + """), leaf([1.5, -0.5, 2.0, 0.25]), leaf([0.1, 0.2, -0.3, 0.0])
    inputs = [x, w, b]
    def f(): return F.layer_norm(x, [4], w, b)
""")
case("layer_norm_two_dims_weight_only", """
    x, w = leaf(""" + X234 + """), leaf([[1.5, -0.5, 2.0, 0.25], [1.0, 1.0, 0.5, 0.5], [2.0, -1.0, 0.0, 1.0]])
    inputs = [x, w]
    def f(): return F.layer_norm(x, (3, 4), w, eps=1e-3)
""")
case("layer_norm_bias_only", """
    x, b = leaf(""" + X234 + """), leaf([0.1, 0.2, -0.3, 0.0])
    inputs = [x, b]
    def f(): return F.layer_norm(x, (4,), None, b)
""")
case("layer_norm_module", """
    x = leaf(""" + X234 + """)
    m = nn.LayerNorm(4)
    inputs = [x, m.weight, m.bias]
    def f(): return m(x)
""")
case("layer_norm_module_no_affine", """
    x = leaf(""" + X234 + """)
    m = nn.LayerNorm([3, 4], eps=0.5, elementwise_affine=False)
    inputs = [x]
    def f(): return m(x)
""")

# ============================================================================ embedding

W53 = "[[0.5, -1.0, 2.0], [1.5, 0.25, -0.5], [-2.0, 1.0, 0.0], [0.75, 0.75, 1.25], [1.0, 0.0, -1.0]]"
case("embedding", """
    w = leaf(""" + W53 + """)
    inputs = [w]
    def f(): return F.embedding(T.tensor([[0, 2], [4, 2]]), w)
""")
case("embedding_padding_idx", """
    w = leaf(""" + W53 + """)
    inputs = [w]
    def f(): return F.embedding(T.tensor([0, 2, 1, 2]), w, padding_idx=2)
""")
case("embedding_negative_padding_idx_int32", """
    w = leaf(""" + W53 + """)
    inputs = [w]
    def f(): return F.embedding(T.tensor([4, 2, 4], dtype=T.int32), w, padding_idx=-1)
""")
case("embedding_scale_grad_by_freq", """
    w = leaf(""" + W53 + """)
    inputs = [w]
    def f(): return F.embedding(T.tensor([[3, 1, 3], [3, 0, 1]]), w, scale_grad_by_freq=True)
""")
case("embedding_max_norm", """
    w = leaf(""" + W53 + """)
    inputs = [w]
    def f():
        v = w.detach().clone()
        out = F.embedding(T.tensor([0, 1, 3]), v, max_norm=1.5)
        return out, v
""")
case("embedding_from_pretrained", """
    w = leaf(""" + W53 + """)
    inputs = [w]
    def f(): return nn.Embedding.from_pretrained(w, freeze=False, padding_idx=0)(T.tensor([[0, 1], [1, 4]]))
""")
case("embedding_from_pretrained_frozen", """
    w = T.tensor(""" + W53 + """)
    inputs = []
    def f():
        e = nn.Embedding.from_pretrained(w)
        return e(T.tensor(3)), T.tensor(e.weight.requires_grad)
""")
case("embedding_module_padding_row", """
    inputs = []
    def f():
        e = nn.Embedding(4, 3, padding_idx=-2)
        return e.weight[2], T.tensor([e.padding_idx, e.weight.shape[0], e.weight.shape[1]])
""")

# ============================================================================ containers

case("module_dict", """
    T.manual_seed(0)
    d = nn.ModuleDict({"lin": nn.Linear(2, 2), "act": nn.Tanh()})
    d["out"] = nn.Sigmoid()
    x = leaf([[0.5, -1.0], [1.5, 2.0]])
    inputs = [x]
    def f():
        h = x
        for k in d:
            h = d[k](h)
        return h, T.tensor([len(d), "act" in d, len(list(d.parameters()))])
""")
case("module_dict_pairs_pop", """
    d = nn.ModuleDict([("a", nn.ReLU()), ("b", nn.Sigmoid())])
    d.update({"c": nn.Tanh(), "a": nn.Identity()})
    popped = d.pop("b")
    x = leaf([-1.0, 0.5])
    inputs = [x]
    def f(): return d["c"](d["a"](x)), T.tensor([len(d), list(d.keys()) == ["a", "c"], isinstance(popped, nn.Sigmoid)])
""")
case("parameter_list", """
    ps = nn.ParameterList([nn.Parameter(T.tensor([1.0, 2.0])), T.tensor([0.5, -0.5])])
    ps.append(nn.Parameter(T.tensor([3.0, 4.0])))
    inputs = list(ps)
    def f():
        total = ps[0] * ps[1]
        for p in ps[1:]:
            total = total + p
        return total, T.tensor([len(ps), isinstance(ps[1], nn.Parameter), ps[-1].requires_grad])
""")
case("parameter_list_in_module", """
    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.scales = nn.ParameterList([nn.Parameter(T.tensor([2.0])), nn.Parameter(T.tensor([-1.0]))])
            self.heads = nn.ModuleDict({"a": nn.Linear(1, 1)})
        def forward(self, x):
            return T.tanh(self.heads["a"](x * self.scales[0] + self.scales[1]))
    T.manual_seed(0)
    net = Net()
    x = leaf([[0.5], [1.5]])
    inputs = [x, net.scales[0], net.scales[1]]
    def f(): return net(x), T.tensor([len(list(net.parameters())), len(net.state_dict())])
""")

# ============================================================================ what layers print as

text("layer_norm", "text = repr(nn.LayerNorm(3))")
text("layer_norm_shape_eps", "text = repr(nn.LayerNorm([3, 4], eps=1e-3, elementwise_affine=False))")
text("layer_norm_no_bias", "text = repr(nn.LayerNorm((2,), bias=False))")
text("layer_norm_state_dict", "text = repr(list(nn.LayerNorm(3).state_dict())) + repr(list(nn.LayerNorm(3, bias=False).state_dict()))")
text("embedding", "text = repr(nn.Embedding(5, 3))")
text("embedding_options", "text = repr(nn.Embedding(5, 3, padding_idx=-1, max_norm=1.0, norm_type=1.0, scale_grad_by_freq=True))")
text("embedding_from_pretrained", "text = repr(nn.Embedding.from_pretrained(T.ones(2, 3), padding_idx=1))")
text("pairwise_distance", "text = repr(nn.PairwiseDistance()) + repr(nn.PairwiseDistance(p=1.0, eps=0, keepdim=True))")
text("module_dict", "text = repr(nn.ModuleDict({'a': nn.Linear(2, 3), 'b': nn.ReLU()}))")
text("module_dict_empty", "text = repr(nn.ModuleDict())")
text("parameter_list", "text = repr(nn.ParameterList([nn.Parameter(T.ones(2)), nn.Parameter(T.zeros(3, 2))]))")
text("parameter_list_one", "text = repr(nn.ParameterList([T.ones(2, 2, 2)]))")
text("parameter_list_empty", "text = repr(nn.ParameterList())")
text("nested", """
    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.p = nn.ParameterList([nn.Parameter(T.ones(2))])
            self.d = nn.ModuleDict({"x": nn.Linear(1, 1), "n": nn.LayerNorm(1)})
    text = repr(Net()) + repr(list(Net().state_dict()))
""")
text("slogdet_result", """
    text = repr(T.slogdet(T.tensor([[1.0, 2.0], [3.0, 4.0]]))) + repr(T.linalg.slogdet(T.eye(2)))
""")

# ============================================================================ bad calls

error("vdot_sizes", "T.vdot(T.ones(3), T.ones(2))")
error("vdot_2d", "T.vdot(T.ones(3, 1), T.ones(3))")
error("vdot_0d", "T.vdot(T.tensor(1.0), T.ones(1))")
error("vdot_dtypes", "T.vdot(T.ones(3), T.ones(3, dtype=T.float32))")
error("inner_last_dim", "T.inner(T.ones(2, 3), T.ones(2))")
error("inner_dtypes", "T.inner(T.ones(3), T.ones(3, dtype=T.float32))")
error("addmv_vec_size", "T.addmv(T.ones(2), T.ones(2, 3), T.ones(2))")
error("addmv_input_size", "T.addmv(T.ones(3), T.ones(2, 3), T.ones(3))")
error("addmv_3d_mat", "T.addmv(T.ones(2), T.ones(2, 3, 1), T.ones(3))")
error("addmv_2d_vec", "T.addmv(T.ones(2), T.ones(2, 3), T.ones(3, 1))")
error("addmv_2d_input", "T.addmv(T.ones(2, 2), T.ones(2, 3), T.ones(3))")
error("addmv_dtypes", "T.addmv(T.ones(2), T.ones(2, 3), T.ones(3, dtype=T.float32))")
error("addmv_inplace_broadcast", "T.ones(1).addmv_(T.ones(2, 3), T.ones(3))")
error("addr_expand", "T.addr(T.ones(2, 3), T.ones(2), T.ones(2))")
error("addr_2d_vec1", "T.addr(T.ones(2, 3), T.ones(2, 1), T.ones(3))")
error("addr_2d_vec2", "T.addr(T.ones(2, 3), T.ones(2), T.ones(3, 1))")
error("addr_rows", "T.addr(T.ones(3, 3), T.ones(2), T.ones(3))")
error("addr_inplace_1d", "T.ones(3).addr_(T.ones(2), T.ones(3))")
error("addr_integer_beta", "T.addr(T.ones(2, 3, dtype=T.int64), T.ones(2, dtype=T.int64), T.ones(3, dtype=T.int64), beta=0.5)")
error("addr_integer_alpha", "T.addr(T.ones(2, 3, dtype=T.int64), T.ones(2, dtype=T.int64), T.ones(3, dtype=T.int64), alpha=1.5)")
error("matrix_power_rectangular", "T.matrix_power(T.ones(2, 3), 2)")
error("matrix_power_vector", "T.matrix_power(T.ones(3), 2)")
error("matrix_power_singular", "T.matrix_power(T.zeros(2, 2), -1)")
error("matrix_power_singular_batch", "T.matrix_power(T.zeros(2, 2, 2), -2)")
error("matrix_power_integer_inverse", "T.matrix_power(T.ones(2, 2, dtype=T.int64), -1)")
error("matrix_power_float_n", "T.matrix_power(T.ones(2, 2), 2.0)")
error("linalg_matrix_power_rectangular", "T.linalg.matrix_power(T.ones(2, 3), 2)")
error("logdet_rectangular", "T.logdet(T.ones(2, 3))")
error("logdet_vector", "T.logdet(T.ones(3))")
error("logdet_integers", "T.logdet(T.ones(2, 2, dtype=T.int64))")
error("logdet_half", "T.logdet(T.ones(2, 2, dtype=T.float16))")
error("slogdet_rectangular", "T.slogdet(T.ones(2, 3))")
error("linalg_slogdet_vector", "T.linalg.slogdet(T.ones(3))")
error("slogdet_integers", "T.slogdet(T.ones(2, 2, dtype=T.int64))")
error("linalg_slogdet_half", "T.linalg.slogdet(T.ones(2, 2, dtype=T.float16))")
error("cdist_1d", "T.cdist(T.ones(3), T.ones(2, 3))")
error("cdist_1d_x2", "T.cdist(T.ones(2, 3), T.ones(3))")
error("cdist_columns", "T.cdist(T.ones(2, 3), T.ones(2, 4))")
error("cdist_negative_p", "T.cdist(T.ones(2, 3), T.ones(2, 3), p=-1)")
error("cdist_integers", "T.cdist(T.ones(2, 3, dtype=T.int64), T.ones(2, 3, dtype=T.int64))")
error("cdist_dtypes", "T.cdist(T.ones(2, 3), T.ones(2, 3, dtype=T.float32))")
error("cdist_batches", "T.cdist(T.ones(2, 2, 3), T.ones(3, 2, 3))")
error("cdist_compute_mode", "T.cdist(T.ones(2, 3), T.ones(2, 3), compute_mode='x')")
error("pdist_1d", "F.pdist(T.ones(3))")
error("pdist_3d", "F.pdist(T.ones(2, 3, 3))")
error("pdist_negative_p", "F.pdist(T.ones(3, 2), p=-1)")
error("pdist_integers", "F.pdist(T.ones(3, 2, dtype=T.int64))")
error("pairwise_distance_shapes", "F.pairwise_distance(T.ones(2, 3), T.ones(2, 4))")
error("layer_norm_shape", "F.layer_norm(T.ones(2, 3), (4,))")
error("layer_norm_too_many_dims", "F.layer_norm(T.ones(2, 3), (2, 3, 4))")
error("layer_norm_weight", "F.layer_norm(T.ones(2, 3), (3,), T.ones(4))")
error("layer_norm_bias", "F.layer_norm(T.ones(2, 3), (3,), None, T.ones(2))")
error("layer_norm_integers", "F.layer_norm(T.ones(2, 3, dtype=T.int64), (3,))")
error("layer_norm_int_shape", "F.layer_norm(T.ones(2, 3), 3)")
error("layer_norm_empty_shape", "F.layer_norm(T.ones(2, 3), [])")
error("layer_norm_module_input", "nn.LayerNorm(3)(T.ones(2, 4))")
error("embedding_index_high", "F.embedding(T.tensor([5]), T.ones(5, 3))")
error("embedding_index_negative", "F.embedding(T.tensor([-1]), T.ones(5, 3))")
error("embedding_float_indices", "F.embedding(T.tensor([1.0]), T.ones(5, 3))")
error("embedding_1d_weight", "F.embedding(T.tensor([1]), T.ones(5))")
error("embedding_padding_high", "F.embedding(T.tensor([1]), T.ones(5, 3), padding_idx=5)")
error("embedding_padding_low", "F.embedding(T.tensor([1]), T.ones(5, 3), padding_idx=-6)")
error("embedding_module_padding", "nn.Embedding(5, 3, padding_idx=5)")
error("embedding_from_pretrained_1d", "nn.Embedding.from_pretrained(T.ones(3))")
error("module_dict_not_module", "nn.ModuleDict({'a': 1})")
error("module_dict_missing", "nn.ModuleDict()['x']")
error("module_dict_dot", "nn.ModuleDict({'a.b': nn.ReLU()})")
error("module_dict_attribute", "nn.ModuleDict({'keys': nn.ReLU()})")
error("parameter_list_index", "nn.ParameterList()[0]")
error("parameter_list_extend_tensor", "nn.ParameterList().extend(T.ones(2))")
