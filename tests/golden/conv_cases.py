"""The cases of conv.json: conv1d, conv2d, max_pool2d, avg_pool2d, adaptive_avg_pool2d,
batch_norm, dropout2d and their layers, run by gen_conv.py under PyTorch and by tests/engine/ops/test_conv.py
under our engine, recorded by functional_ops_cases.record and run_error. REPRS are programs that
set `text` to what a layer prints as (or its state, seeded weights included)."""
from program_cases import registry

CASES, ERRORS, case, error = registry()
REPRS, _, text, _ = registry()

# inputs built from arange so both engines see the same numbers
X = "(T.arange(2 * 4 * 5 * 6) % 7 - 3.0).reshape(2, 4, 5, 6) * 0.25 + T.arange(6) * 0.01"
W = "((T.arange(6 * 2 * 3 * 2) % 5) - 2.0).reshape(6, 2, 3, 2) * 0.3"
B = "T.tensor([0.5, -1.0, 0.25, 2.0, -0.75, 0.125])"

# ============================================================================ convolution

case("conv2d", f"""
    x, w, b = leaf(({X}).tolist()), leaf(({W})[:, :, :, :].repeat(1, 2, 1, 1).tolist()), leaf({B}.tolist())
    inputs = [x, w, b]
    def f(): return F.conv2d(x, w, b)
""")
case("conv2d_stride_padding_dilation_groups", f"""
    x, w, b = leaf(({X}).tolist()), leaf(({W}).tolist()), leaf({B}.tolist())
    inputs = [x, w, b]
    def f(): return F.conv2d(x, w, b, stride=(2, 1), padding=(1, 2), dilation=(1, 2), groups=2)
""")
case("conv2d_no_bias_valid", f"""
    x, w = leaf(({X}).tolist()), leaf(({W})[:4].tolist())
    inputs = [x, w]
    def f(): return F.conv2d(x, w, None, 1, "valid", 1, 2)
""")
case("conv2d_same_odd", f"""
    x, w = leaf(({X}).tolist()), leaf(({W})[:, :, :, :1].repeat(1, 2, 1, 3).tolist())
    inputs = [x, w]
    def f(): return F.conv2d(x, w, padding="same", dilation=2)
""")
case("conv2d_same_even_warns", f"""
    x, w, b = leaf(({X}).tolist()), leaf(({W})[:, :, :2, :].tolist()), leaf({B}.tolist())
    inputs = [x, w, b]
    def f(): return F.conv2d(x, w, b, padding="same", groups=2)
""")
case("conv2d_unbatched", f"""
    x, w = leaf(({X})[0].tolist()), leaf(({W})[:3].repeat(1, 2, 1, 1).tolist())
    inputs = [x, w]
    def f(): return F.conv2d(x, w, stride=2)
""")
case("conv2d_depthwise", f"""
    x, w = leaf(({X}).tolist()), leaf(({W})[:4, :1].tolist())
    inputs = [x, w]
    def f(): return F.conv2d(x, w, groups=4, padding=1)
""")
case("conv1d", f"""
    x, w, b = leaf(({X})[:, :, 0].tolist()), leaf(({W})[:, :, :, 0].tolist()), leaf({B}.tolist())
    inputs = [x, w, b]
    def f(): return F.conv1d(x, w, b, padding=1, groups=2, stride=2)
""")
case("conv1d_unbatched_same", f"""
    x, w = leaf(({X})[0, :2, 0].tolist()), leaf(({W})[:3, :, :, 0].tolist())
    inputs = [x, w]
    def f(): return F.conv1d(x, w, padding="same")
""")
case("conv2d_module_seeded", f"""
    T.manual_seed(0)
    m = nn.Conv2d(4, 3, 3, padding=1)
    x = leaf(({X}).tolist())
    inputs = [x, m.weight, m.bias]
    def f(): return m(x)
""")
case("conv1d_module_seeded_no_bias", f"""
    T.manual_seed(3)
    m = nn.Conv1d(4, 2, 2, bias=False, dilation=2)
    x = leaf(({X})[:, :, 1].tolist())
    inputs = [x, m.weight]
    def f(): return m(x)
""")
case("conv2d_integers", """
    inputs = []
    def f(): return F.conv2d(T.arange(32).reshape(1, 2, 4, 4), T.arange(8).reshape(1, 2, 2, 2) - 3, T.tensor([5]))
""")

# ============================================================================ pooling

case("max_pool2d", f"""
    x = leaf(({X}).tolist())
    inputs = [x]
    def f(): return F.max_pool2d(x, 2)
""")
case("max_pool2d_indices_ceil_padding", f"""
    x = leaf(({X}).tolist())
    inputs = [x]
    def f(): return F.max_pool2d(x, 3, 2, 1, ceil_mode=True, return_indices=True)
""")
case("max_pool2d_dilation_overlap_unbatched", f"""
    x = leaf(({X})[1].tolist())
    inputs = [x]
    def f(): return F.max_pool2d(x, (2, 3), stride=1, padding=(1, 1), dilation=(2, 1), return_indices=True)
""")
case("max_pool2d_nan", """
    x = leaf([[[1.0, float("nan"), 3.0], [4.0, 5.0, float("nan")], [7.0, 8.0, 9.0]]])
    inputs = [x]
    first_order_only = True
    def f(): return F.max_pool2d(x, 2, 1, return_indices=True)
""")
case("max_pool2d_module", f"""
    x = leaf(({X}).tolist())
    m = nn.MaxPool2d(2, stride=(1, 2))
    inputs = [x]
    def f(): return m(x)
""")
case("avg_pool2d", f"""
    x = leaf(({X}).tolist())
    inputs = [x]
    def f(): return F.avg_pool2d(x, 2)
""")
case("avg_pool2d_padding_ceil", f"""
    x = leaf(({X}).tolist())
    inputs = [x]
    def f(): return F.avg_pool2d(x, 3, 2, 1, ceil_mode=True)
""")
case("avg_pool2d_exclude_pad", f"""
    x = leaf(({X}).tolist())
    inputs = [x]
    def f(): return F.avg_pool2d(x, (3, 2), (2, 3), (1, 1), ceil_mode=True, count_include_pad=False)
""")
case("avg_pool2d_divisor_unbatched", f"""
    x = leaf(({X})[0].tolist())
    inputs = [x]
    def f(): return F.avg_pool2d(x, 2, 1, divisor_override=3)
""")
case("avg_pool2d_module", f"""
    x = leaf(({X}).tolist())
    m = nn.AvgPool2d(2, 1, 1, count_include_pad=False)
    inputs = [x]
    def f(): return m(x)
""")
case("avg_pool2d_integers", """
    inputs = []
    def f(): return F.avg_pool2d(T.arange(-8, 17).reshape(1, 5, 5), 2)
""")
case("adaptive_avg_pool2d", f"""
    x = leaf(({X})[:, :, :4].tolist())
    inputs = [x]
    def f(): return F.adaptive_avg_pool2d(x, (2, 3))
""")
case("adaptive_avg_pool2d_one", f"""
    x = leaf(({X}).tolist())
    inputs = [x]
    def f(): return nn.AdaptiveAvgPool2d(1)(x)
""")

# ============================================================================ batch norm

case("batch_norm_training", f"""
    x, w, b = leaf(({X}).tolist()), leaf([1.5, -0.5, 2.0, 0.25]), leaf([0.1, 0.2, -0.3, 0.0])
    rm, rv = T.tensor([0.5, 0.0, -1.0, 2.0]), T.tensor([1.0, 2.0, 0.5, 1.5])
    inputs = [x, w, b]
    def f(): return F.batch_norm(x, rm, rv, w, b, training=True, momentum=0.2, eps=1e-3), rm, rv
""")
case("batch_norm_training_no_stats_1d", f"""
    x = leaf(({X})[:, :, 0, 0].tolist())
    inputs = [x]
    def f(): return F.batch_norm(x, None, None, training=True)
""")
case("batch_norm_eval", f"""
    x, w, b = leaf(({X}).tolist()), leaf([1.5, -0.5, 2.0, 0.25]), leaf([0.1, 0.2, -0.3, 0.0])
    rm, rv = T.tensor([0.5, 0.0, -1.0, 2.0]), T.tensor([1.0, 2.0, 0.5, 1.5])
    inputs = [x, w, b]
    def f(): return F.batch_norm(x, rm, rv, w, b)
""")
case("batch_norm2d_module_steps", f"""
    x = leaf(({X}).tolist())
    m = nn.BatchNorm2d(4)
    m(x * 2.0)
    m(x + 1.0)
    inputs = [x, m.weight, m.bias]
    def f(): return m(x), m.running_mean, m.running_var, m.num_batches_tracked
""")
case("batch_norm2d_module_cumulative_then_eval", f"""
    x = leaf(({X}).tolist())
    m = nn.BatchNorm2d(4, momentum=None, affine=False)
    m(x * 2.0)
    m(x - 1.0)
    m.eval()
    inputs = [x]
    def f(): return m(x), m.running_mean, m.running_var, m.num_batches_tracked
""")
case("batch_norm1d_module_3d_no_tracking", f"""
    x = leaf(({X})[:, :, :, 0].tolist())
    m = nn.BatchNorm1d(4, track_running_stats=False, eps=0.1)
    m.eval()
    inputs = [x, m.weight, m.bias]
    def f(): return m(x)
""")
case("cnn_step", f"""
    T.manual_seed(0)
    net = nn.Sequential(nn.Conv2d(4, 3, 3, padding=1), nn.BatchNorm2d(3), nn.ReLU(), nn.MaxPool2d(2),
                        nn.Flatten(), nn.Linear(18, 2))
    x = leaf(({X}).tolist())
    inputs = [x] + list(net.parameters())
    def f(): return F.cross_entropy(net(x), T.tensor([1, 0]))
""")
case("dropout2d_eval_and_zero", f"""
    x = leaf(({X}).tolist())
    inputs = [x]
    def f(): return F.dropout2d(x, 0.5, training=False) + nn.Dropout2d(0.0)(x)
""")

# ============================================================================ printing and state

text("conv2d", "text = repr(nn.Conv2d(1, 32, 3))")
text("conv2d_options", "text = repr(nn.Conv2d(2, 4, (3, 5), stride=2, padding=1, dilation=2, groups=2, bias=False))")
text("conv2d_same", "text = repr(nn.Conv2d(4, 4, 2, padding='same')) + repr(nn.Conv2d(4, 4, 2, padding='valid'))")
text("conv1d", "text = repr(nn.Conv1d(1, 2, 3)) + repr(nn.Conv1d(2, 2, 3, padding=2))")
text("conv2d_attributes", """
    m = nn.Conv2d(2, 4, 3, padding=(1, 0))
    text = repr((m.kernel_size, m.stride, m.padding, m.dilation, m.groups, m.in_channels, m.out_channels,
                 m.padding_mode, tuple(m.weight.shape), tuple(m.bias.shape)))
""")
text("conv_seeded_weights", """
    T.manual_seed(0)
    m = nn.Conv2d(2, 3, 2)
    c = nn.Conv1d(3, 2, 4, groups=1)
    text = repr([round(v, 12) for v in m.weight.flatten().tolist() + m.bias.tolist() + c.weight.flatten().tolist()])
""")
text("pools", "text = repr(nn.MaxPool2d(2)) + repr(nn.MaxPool2d((2, 3), stride=1, padding=1, dilation=2, "
     "return_indices=True, ceil_mode=True)) + repr(nn.AvgPool2d(2)) + repr(nn.AvgPool2d(3, 2, 1, True, False, 2))"
     " + repr(nn.AdaptiveAvgPool2d((2, 3))) + repr(nn.AdaptiveAvgPool2d(1))")
text("batch_norm", "text = repr(nn.BatchNorm2d(3)) + repr(nn.BatchNorm1d(4, eps=1e-3, momentum=None, affine=False, "
     "track_running_stats=False)) + repr(nn.BatchNorm2d(2, bias=False))")
text("batch_norm_state", """
    m = nn.BatchNorm2d(3)
    n = nn.BatchNorm1d(3, affine=False, track_running_stats=False)
    text = repr(list(m.state_dict())) + repr([k for k, _ in m.named_buffers()]) + repr(m.num_batches_tracked) \\
        + repr(m.running_mean) + repr(m.running_var) + repr(list(n.state_dict())) + repr(n.running_mean)
""")
text("cnn_state_dict", """
    net = nn.Sequential(nn.Conv2d(1, 2, 3), nn.BatchNorm2d(2), nn.ReLU(), nn.MaxPool2d(2), nn.Dropout2d(0.25))
    text = repr(list(net.state_dict())) + repr(net) + repr(len(list(net.parameters())))
""")
text("max_pool_indices", """
    y, i = F.max_pool2d(T.tensor([[[[1.0, 5.0, 2.0], [4.0, 3.0, 6.0], [0.0, 8.0, 7.0]]]]), 2, 1, return_indices=True)
    text = repr(y) + repr(i)
""")

# ============================================================================ bad calls

error("conv2d_2d_input", "F.conv2d(T.ones(2, 3), T.ones(4, 3, 3, 3))")
error("conv2d_channels", "F.conv2d(T.ones(1, 2, 5, 5), T.ones(4, 3, 3, 3))")
error("conv2d_kernel_too_big", "F.conv2d(T.ones(1, 3, 2, 2), T.ones(4, 3, 3, 3))")
error("conv2d_groups_channels", "F.conv2d(T.ones(1, 4, 5, 5), T.ones(4, 3, 3, 3), groups=2)")
error("conv2d_groups_weight", "F.conv2d(T.ones(1, 4, 5, 5), T.ones(4, 2, 3, 3), groups=3)")
error("conv2d_stride_zero", "F.conv2d(T.ones(1, 3, 5, 5), T.ones(4, 3, 3, 3), stride=0)")
error("conv2d_negative_padding", "F.conv2d(T.ones(1, 3, 5, 5), T.ones(4, 3, 3, 3), padding=-1)")
error("conv2d_same_strided", "F.conv2d(T.ones(1, 3, 5, 5), T.ones(4, 3, 3, 3), padding='same', stride=2)")
error("conv2d_bad_padding_string", "F.conv2d(T.ones(1, 3, 5, 5), T.ones(4, 3, 3, 3), padding='foo')")
error("conv2d_bias_size", "F.conv2d(T.ones(1, 3, 5, 5), T.ones(4, 3, 3, 3), T.ones(3))")
error("conv2d_3d_weight", "F.conv2d(T.ones(1, 3, 5, 5), T.ones(4, 3, 3))")
error("conv2d_dtypes", "F.conv2d(T.ones(1, 3, 5, 5), T.ones(4, 3, 3, 3, dtype=T.float32))")
error("conv2d_dilation_zero", "F.conv2d(T.ones(1, 3, 5, 5), T.ones(4, 3, 3, 3), dilation=0)")
error("conv2d_stride_length", "F.conv2d(T.ones(1, 3, 5, 5), T.ones(4, 3, 3, 3), stride=(1, 1, 1))")
error("conv2d_groups_zero", "F.conv2d(T.ones(1, 3, 5, 5), T.ones(4, 3, 3, 3), groups=0)")
error("conv1d_4d_input", "F.conv1d(T.ones(2, 3, 5, 5), T.ones(4, 3, 3))")
error("conv2d_module_in_groups", "nn.Conv2d(3, 4, 3, groups=2)")
error("conv2d_module_out_groups", "nn.Conv2d(4, 3, 3, groups=2)")
error("conv2d_module_same_strided", "nn.Conv2d(3, 4, 3, padding='same', stride=2)")
error("conv2d_module_input", "nn.Conv2d(3, 4, 3)(T.ones(2, 3))")
error("max_pool2d_2d", "F.max_pool2d(T.ones(2, 3), 2)")
error("max_pool2d_padding", "F.max_pool2d(T.ones(1, 1, 5, 5), 2, padding=2)")
error("max_pool2d_kernel_zero", "F.max_pool2d(T.ones(1, 1, 5, 5), 0)")
error("max_pool2d_stride_zero", "F.max_pool2d(T.ones(1, 1, 5, 5), 2, stride=0)")
error("max_pool2d_too_small", "F.max_pool2d(T.ones(1, 1, 5, 5), 7)")
error("max_pool2d_dilation_zero", "F.max_pool2d(T.ones(1, 1, 5, 5), 2, dilation=0)")
error("max_pool2d_kernel_triple", "F.max_pool2d(T.ones(1, 1, 5, 5), (2, 2, 2))")
error("avg_pool2d_2d", "F.avg_pool2d(T.ones(2, 3), 2)")
error("avg_pool2d_padding", "F.avg_pool2d(T.ones(1, 1, 5, 5), 2, padding=2)")
error("avg_pool2d_too_small", "F.avg_pool2d(T.ones(1, 1, 5, 5), 7)")
error("avg_pool2d_kernel_triple", "F.avg_pool2d(T.ones(1, 1, 5, 5), (2, 2, 2))")
error("adaptive_avg_pool2d_2d", "F.adaptive_avg_pool2d(T.ones(2, 3), 2)")
error("batch_norm_one_value", "F.batch_norm(T.ones(1, 3), None, None, training=True)")
error("batch_norm_running_size", "F.batch_norm(T.ones(2, 3), T.zeros(4), T.ones(4))")
error("batch_norm_eval_no_stats", "F.batch_norm(T.ones(2, 3), None, None)")
error("batch_norm_weight_size", "F.batch_norm(T.ones(2, 3), T.zeros(3), T.ones(3), weight=T.ones(4))")
error("batch_norm2d_3d", "nn.BatchNorm2d(3)(T.ones(2, 3, 4))")
error("batch_norm1d_4d", "nn.BatchNorm1d(3)(T.ones(2, 3, 4, 5))")
error("batch_norm2d_channels", "nn.BatchNorm2d(3)(T.ones(2, 4, 4, 4))")
error("batch_norm2d_one_value", "nn.BatchNorm2d(3)(T.ones(1, 3, 1, 1))")
error("dropout2d_p", "nn.Dropout2d(1.5)")
error("buffer_assign", "m = nn.BatchNorm2d(3)\nm.running_mean = 3")
