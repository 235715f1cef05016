"""The cases of nnlayers.json: interpolate, conv_transpose1d/2d, max_pool1d, avg_pool1d, group_norm,
instance_norm, rms_norm and their layers, run by gen_nnlayers.py under PyTorch and by
tests/engine/ops/test_nnlayers.py under our engine, recorded by functional_ops_cases.record and
run_error. REPRS are programs that set `text` to what a layer prints as (or its state, seeded
weights included)."""
from program_cases import registry

CASES, ERRORS, case, error = registry()
REPRS, _, text, _ = registry()

# inputs built from arange so both engines see the same numbers
X3 = "((T.arange(2 * 4 * 5) % 7 - 3.0).reshape(2, 4, 5) * 0.25 + T.arange(5) * 0.01)"
X4 = "((T.arange(2 * 4 * 5 * 6) % 7 - 3.0).reshape(2, 4, 5, 6) * 0.25 + T.arange(6) * 0.01)"
W1 = "(((T.arange(4 * 3 * 3) % 5) - 2.0).reshape(4, 3, 3) * 0.3)"
W2 = "(((T.arange(4 * 3 * 3 * 2) % 5) - 2.0).reshape(4, 3, 3, 2) * 0.3)"
B = "T.tensor([0.5, -1.0, 0.25, 2.0, -0.75, 0.125])"
G = "T.tensor([1.5, -0.5, 0.75, 2.0])"

# ============================================================================ interpolate

for name, call in [
        ("nearest_scale", "F.interpolate(x, scale_factor=2)"),
        ("nearest_size_down", "F.interpolate(x, size=3)"),
        ("nearest_fraction", "F.interpolate(x, scale_factor=1.7)"),
        ("nearest_recompute", "F.interpolate(x, scale_factor=1.7, recompute_scale_factor=True)"),
        ("nearest_exact", "F.interpolate(x, size=12, mode='nearest-exact')"),
        ("linear", "F.interpolate(x, size=7, mode='linear')"),
        ("linear_down", "F.interpolate(x, size=3, mode='linear')"),
        ("linear_align_corners", "F.interpolate(x, size=7, mode='linear', align_corners=True)"),
        ("linear_align_corners_one", "F.interpolate(x, size=1, mode='linear', align_corners=True)"),
        ("linear_scale", "F.interpolate(x, scale_factor=2.3, mode='linear')"),
        ("linear_scale_down", "F.interpolate(x, scale_factor=0.6, mode='linear')"),
        ("area_1d", "F.interpolate(x, size=2, mode='area')"),
        ("upsample_module_linear", "nn.Upsample(size=8, mode='linear', align_corners=True)(x)")]:
    case(f"interpolate_{name}", f"""
        x = leaf({X3}.tolist())
        inputs = [x]
        def f(): return {call}
    """)
for name, call in [
        ("bilinear", "F.interpolate(x, size=(3, 8), mode='bilinear')"),
        ("bilinear_align_corners", "F.interpolate(x, scale_factor=(1.5, 0.5), mode='bilinear', align_corners=True)"),
        ("nearest_2d", "F.interpolate(x, scale_factor=(3, 0.5))"),
        ("area_2d", "F.interpolate(x, scale_factor=0.5, mode='area')"),
        ("upsample_module", "nn.Upsample(scale_factor=2, mode='bilinear')(x)"),
        ("bicubic", "F.interpolate(x, size=(3, 8), mode='bicubic')"),
        ("bicubic_align_corners", "F.interpolate(x, scale_factor=(2.5, 0.5), mode='bicubic', align_corners=True)")]:
    case(f"interpolate_{name}", f"""
        x = leaf({X4}.tolist())
        inputs = [x]
        def f(): return {call}
    """)
case("interpolate_trilinear", f"""
    x = leaf({X4}.reshape(1, 2, 4, 5, 6).tolist())
    inputs = [x]
    def f(): return F.interpolate(x, size=(3, 4, 7), mode='trilinear')
""")
case("interpolate_nearest_3d", f"""
    x = leaf({X4}.reshape(1, 2, 4, 5, 6).tolist())
    inputs = [x]
    def f(): return F.interpolate(x, scale_factor=(1.5, 1, 0.5))
""")
case("interpolate_inf", """
    x = leaf([[[1.0, float("inf"), 3.0, -2.0]]])
    inputs = [x]
    def f(): return F.interpolate(x, size=6, mode='linear')
""")

# ============================================================================ conv_transpose

case("conv_transpose1d", f"""
    x, w, b = leaf({X3}.tolist()), leaf({W1}.tolist()), leaf({B}[:3].tolist())
    inputs = [x, w, b]
    def f(): return F.conv_transpose1d(x, w, b)
""")
case("conv_transpose1d_stride_padding_output_padding", f"""
    x, w, b = leaf({X3}.tolist()), leaf({W1}.tolist()), leaf({B}[:3].tolist())
    inputs = [x, w, b]
    def f(): return F.conv_transpose1d(x, w, b, stride=2, padding=1, output_padding=1)
""")
case("conv_transpose1d_groups_dilation", f"""
    x, w, b = leaf({X3}.tolist()), leaf({W1}[:, :1].repeat(1, 3, 1).tolist()), leaf({B}.tolist())
    inputs = [x, w, b]
    def f(): return F.conv_transpose1d(x, w, b, stride=3, padding=2, output_padding=2, groups=2, dilation=2)
""")
case("conv_transpose1d_unbatched", f"""
    x, w = leaf({X3}[0].tolist()), leaf({W1}.tolist())
    inputs = [x, w]
    def f(): return F.conv_transpose1d(x, w, stride=2)
""")
case("conv_transpose2d", f"""
    x, w, b = leaf({X4}.tolist()), leaf({W2}.tolist()), leaf({B}[:3].tolist())
    inputs = [x, w, b]
    def f(): return F.conv_transpose2d(x, w, b, stride=(2, 1), padding=(1, 0), output_padding=(1, 0))
""")
case("conv_transpose2d_groups", f"""
    x, w = leaf({X4}.tolist()), leaf({W2}.tolist())
    inputs = [x, w]
    def f(): return F.conv_transpose2d(x, w, None, stride=2, padding=1, dilation=(1, 2), groups=2)
""")
case("conv_transpose2d_module_seeded_output_size", f"""
    T.manual_seed(0)
    m = nn.ConvTranspose2d(4, 2, 3, stride=2, padding=1)
    x = leaf({X4}.tolist())
    inputs = [x, m.weight, m.bias]
    def f(): return m(x, output_size=[10, 12])
""")
case("conv_transpose1d_module_seeded", f"""
    T.manual_seed(5)
    m = nn.ConvTranspose1d(4, 6, 2, groups=2, bias=False)
    x = leaf({X3}.tolist())
    inputs = [x, m.weight]
    def f(): return m(x)
""")

# ============================================================================ 1-d pooling

case("max_pool1d", f"""
    x = leaf({X3}.tolist())
    inputs = [x]
    def f(): return F.max_pool1d(x, 2)
""")
case("max_pool1d_indices_padding_ceil", f"""
    x = leaf({X3}.tolist())
    inputs = [x]
    def f(): return F.max_pool1d(x, 3, 2, 1, ceil_mode=True, return_indices=True)
""")
case("max_pool1d_module_dilation_unbatched", f"""
    x = leaf({X3}[1].tolist())
    m = nn.MaxPool1d(2, 1, dilation=2)
    inputs = [x]
    def f(): return m(x)
""")
case("avg_pool1d", f"""
    x = leaf({X3}.tolist())
    inputs = [x]
    def f(): return F.avg_pool1d(x, 2)
""")
case("avg_pool1d_exclude_pad", f"""
    x = leaf({X3}.tolist())
    inputs = [x]
    def f(): return F.avg_pool1d(x, 3, 2, 1, ceil_mode=True, count_include_pad=False)
""")
case("avg_pool1d_module_unbatched", f"""
    x = leaf({X3}[0].tolist())
    m = nn.AvgPool1d(2, 1, 1)
    inputs = [x]
    def f(): return m(x)
""")

# ============================================================================ normalization

case("group_norm", f"""
    x = leaf({X3}.tolist())
    inputs = [x]
    def f(): return F.group_norm(x, 2)
""")
case("group_norm_affine", f"""
    x, w, b = leaf({X4}.tolist()), leaf({G}.tolist()), leaf({B}[:4].tolist())
    inputs = [x, w, b]
    def f(): return F.group_norm(x, 4, w, b, eps=0.1)
""")
case("group_norm_module", f"""
    x = leaf({X4}.tolist())
    m = nn.GroupNorm(1, 4)
    inputs = [x, m.weight, m.bias]
    def f(): return m(x)
""")
case("instance_norm", f"""
    x = leaf({X3}.tolist())
    inputs = [x]
    def f(): return F.instance_norm(x)
""")
case("instance_norm_affine", f"""
    x, w, b = leaf({X4}.tolist()), leaf({G}.tolist()), leaf({B}[:4].tolist())
    inputs = [x, w, b]
    def f(): return F.instance_norm(x, weight=w, bias=b, eps=0.01)
""")
case("instance_norm_running_stats", f"""
    x = leaf({X3}.tolist())
    rm, rv = T.zeros(4), T.ones(4)
    inputs = [x]
    def f(): return F.instance_norm(x, rm, rv, momentum=0.3), rm, rv
""")
case("instance_norm_eval", f"""
    x, w = leaf({X3}.tolist()), leaf({G}.tolist())
    rm, rv = T.tensor([0.5, -0.25, 0.0, 1.0]), T.tensor([2.0, 0.75, 1.5, 0.5])
    inputs = [x, w]
    def f(): return F.instance_norm(x, rm, rv, w, use_input_stats=False)
""")
case("instance_norm2d_module_tracking", f"""
    x = leaf({X4}.tolist())
    m = nn.InstanceNorm2d(4, affine=True, track_running_stats=True)
    inputs = [x, m.weight, m.bias]
    def f(): return m(x), m.running_mean, m.running_var, m.num_batches_tracked
""")
case("instance_norm1d_module_unbatched", f"""
    x = leaf({X3}[0].tolist())
    m = nn.InstanceNorm1d(4)
    inputs = [x]
    def f(): return m(x)
""")
case("instance_norm1d_module_mismatch_warns", f"""
    x = leaf({X3}.tolist())
    m = nn.InstanceNorm1d(3)
    inputs = [x]
    def f(): return m(x)
""")
case("rms_norm", f"""
    x = leaf({X3}.tolist())
    inputs = [x]
    def f(): return F.rms_norm(x, (5,))
""")
case("rms_norm_weight_eps", f"""
    x, w = leaf({X4}.tolist()), leaf(({X4})[0, 0].tolist())
    inputs = [x, w]
    def f(): return F.rms_norm(x, [5, 6], w, eps=0.01)
""")
case("rms_norm_module", f"""
    x = leaf({X3}.tolist())
    m = nn.RMSNorm([4, 5])
    inputs = [x, m.weight]
    def f(): return m(x)
""")

# ============================================================================ printing

text("layers", "text = repr(nn.ConvTranspose1d(2, 4, 3)) + repr(nn.ConvTranspose2d(2, 4, 3, stride=2, output_padding=1, "
     "groups=2, dilation=2, bias=False)) + repr(nn.ConvTranspose2d(3, 3, (2, 3), padding=1)) + repr(nn.MaxPool1d(2)) "
     "+ repr(nn.AvgPool1d(3, 2, 1)) + repr(nn.GroupNorm(2, 4)) + repr(nn.GroupNorm(2, 4, affine=False)) "
     "+ repr(nn.InstanceNorm1d(3)) + repr(nn.InstanceNorm2d(3, affine=True, track_running_stats=True)) "
     "+ repr(nn.RMSNorm(4)) + repr(nn.RMSNorm([2, 3], eps=1e-3, elementwise_affine=False)) "
     "+ repr(nn.Upsample(scale_factor=2)) + repr(nn.Upsample(size=(3, 4), mode='bilinear')) "
     "+ repr(nn.Upsample(scale_factor=(2, 3)))")
text("state", """
    layers = [nn.ConvTranspose2d(2, 4, 3, groups=2), nn.GroupNorm(2, 4), nn.InstanceNorm2d(3, affine=True,
              track_running_stats=True), nn.InstanceNorm1d(3), nn.RMSNorm([2, 3]), nn.MaxPool1d(2), nn.Upsample(size=3)]
    text = repr([[(k, tuple(v.shape)) for k, v in m.state_dict().items()] for m in layers])
    text += repr([(m.weight.tolist(), m.bias.tolist()) for m in layers[1:3]]) + repr(layers[4].weight.tolist())
""")
text("conv_transpose_seeded_weights", """
    T.manual_seed(0)
    m = nn.ConvTranspose2d(2, 3, 2)
    c = nn.ConvTranspose1d(4, 2, 3, groups=2)
    text = repr([round(v, 12) for v in m.weight.flatten().tolist() + m.bias.tolist() + c.weight.flatten().tolist()
                 + c.bias.tolist()])
""")
text("conv_transpose_attributes", """
    m = nn.ConvTranspose2d(2, 4, 3, padding=(1, 0), output_padding=1, stride=2)
    text = repr((m.kernel_size, m.stride, m.padding, m.output_padding, m.dilation, m.groups, m.transposed,
                 m.in_channels, m.out_channels, m.padding_mode, tuple(m.weight.shape), tuple(m.bias.shape)))
""")
text("max_pool1d_indices", """
    y, i = F.max_pool1d(T.tensor([[[1.0, 5.0, 2.0, 4.0, 3.0, 6.0, 0.0]]]), 3, 2, 1, return_indices=True)
    text = repr(y) + repr(i)
""")

# ============================================================================ bad calls

error('group_norm_3_1', 'F.group_norm(T.ones(3),1)')
error('group_norm_1_4_4', 'F.group_norm(T.ones(1,4),4)')
error('group_norm_2_4_3_3', 'F.group_norm(T.ones(2,4,3),3)')
error('group_norm_2_4_3_2_3', 'F.group_norm(T.ones(2,4,3),2,T.ones(3))')
error('group_norm_2_4_3_2_none_3', 'F.group_norm(T.ones(2,4,3),2,None,T.ones(3))')
error('group_norm_2_4_3_0', 'F.group_norm(T.ones(2,4,3),0)')
error('group_norm_t_arange_8_reshape_2_4_2', 'F.group_norm(T.arange(8).reshape(2,4),2)')
error('instance_norm_2_4_1', 'F.instance_norm(T.ones(2,4,1))')
error('instance_norm_2_4_3_t_zeros_3_4', 'F.instance_norm(T.ones(2,4,3),T.zeros(3),T.ones(4))')
error('instance_norm_2_4_3_use_input_stats_false', 'F.instance_norm(T.ones(2,4,3),use_input_stats=False)')
error('instance_norm_2_4_3_weight_3', 'F.instance_norm(T.ones(2,4,3),weight=T.ones(3))')
error('rms_norm_2_3_4', 'F.rms_norm(T.ones(2,3),(4,))')
error('rms_norm_2_3_3_2', 'F.rms_norm(T.ones(2,3),(3,),T.ones(2))')
error('rms_norm_2_3_3', 'F.rms_norm(T.ones(2,3),3)')
error('rms_norm_2_3', 'F.rms_norm(T.ones(2,3),[])')
error('max_pool1d_2_3_4_5_2', 'F.max_pool1d(T.ones(2,3,4,5),2)')
error('max_pool1d_5_2', 'F.max_pool1d(T.ones(5),2)')
error('max_pool1d_1_5_7', 'F.max_pool1d(T.ones(1,5),7)')
error('max_pool1d_1_5_2_padding_2', 'F.max_pool1d(T.ones(1,5),2,padding=2)')
error('max_pool1d_1_5_0', 'F.max_pool1d(T.ones(1,5),0)')
error('max_pool1d_1_5_2_stride_0', 'F.max_pool1d(T.ones(1,5),2,stride=0)')
error('max_pool1d_1_5_2_2', 'F.max_pool1d(T.ones(1,5),(2,2))')
error('max_pool1d_1_5_2_1_1', 'F.max_pool1d(T.ones(1,5),2,(1,1))')
error('max_pool1d_1_5_2_padding_1', 'F.max_pool1d(T.ones(1,5),2,padding=-1)')
error('max_pool1d_1_5_2_dilation_0', 'F.max_pool1d(T.ones(1,5),2,dilation=0)')
error('max_pool1d_1_5_7_return_indices_true', 'F.max_pool1d(T.ones(1,5),7,return_indices=True)')
error('max_pool1d_1_5_2_padding_2_return_indices_true', 'F.max_pool1d(T.ones(1,5),2,padding=2,return_indices=True)')
error('max_pool1d_1_0_5_2', 'F.max_pool1d(T.ones(1,0,5),2)')
error('avg_pool1d_2_3_4_5_2', 'F.avg_pool1d(T.ones(2,3,4,5),2)')
error('avg_pool1d_5_2', 'F.avg_pool1d(T.ones(5),2)')
error('avg_pool1d_1_5_7', 'F.avg_pool1d(T.ones(1,5),7)')
error('avg_pool1d_1_5_2_padding_2', 'F.avg_pool1d(T.ones(1,5),2,padding=2)')
error('avg_pool1d_1_5_0', 'F.avg_pool1d(T.ones(1,5),0)')
error('avg_pool1d_1_5_2_2', 'F.avg_pool1d(T.ones(1,5),(2,2))')
error('avg_pool1d_1_5_2_1_1', 'F.avg_pool1d(T.ones(1,5),2,(1,1))')
error('conv_transpose1d_1_2_5_3_2_3', 'F.conv_transpose1d(T.ones(1,2,5),T.ones(3,2,3))')
error('conv_transpose1d_1_2_5_2_2_3_output_padding_2_stride_2', 'F.conv_transpose1d(T.ones(1,2,5),T.ones(2,2,3),output_padding=2,stride=2)')
error('conv_transpose1d_1_2_5_2_2_3_output_padding_1', 'F.conv_transpose1d(T.ones(1,2,5),T.ones(2,2,3),output_padding=1)')
error('conv_transpose2d_1_2_5_2_2_3_3', 'F.conv_transpose2d(T.ones(1,2,5),T.ones(2,2,3,3))')
error('conv_transpose2d_2_5_2_2_3_3', 'F.conv_transpose2d(T.ones(2,5),T.ones(2,2,3,3))')
error('conv_transpose1d_1_4_5_4_2_3_3_groups_2', 'F.conv_transpose1d(T.ones(1,4,5),T.ones(4,2,3),T.ones(3),groups=2)')
error('conv_transpose1d_1_4_5_4_2_3_groups_3', 'F.conv_transpose1d(T.ones(1,4,5),T.ones(4,2,3),groups=3)')
error('conv_transpose1d_1_2_5_2_2_3_stride_0', 'F.conv_transpose1d(T.ones(1,2,5),T.ones(2,2,3),stride=0)')
error('conv_transpose1d_1_2_5_2_2_3_padding_1', 'F.conv_transpose1d(T.ones(1,2,5),T.ones(2,2,3),padding=-1)')
error('conv_transpose1d_1_2_1_2_2_3_padding_3', 'F.conv_transpose1d(T.ones(1,2,1),T.ones(2,2,3),padding=3)')
error('conv_transpose1d_1_2_5_2_2_3_padding_same', "F.conv_transpose1d(T.ones(1,2,5),T.ones(2,2,3),padding='same')")
error('conv_transpose2d_1_2_2_2_2_2_3_3_padding_3_0', 'F.conv_transpose2d(T.ones(1,2,2,2),T.ones(2,2,3,3),padding=(3,0))')
error('conv_transpose2d_1_2_2_2_2_2_3_3_stride_2_output_padding_1_2', 'F.conv_transpose2d(T.ones(1,2,2,2),T.ones(2,2,3,3),stride=2,output_padding=(1,2))')
error('conv_transpose1d_1_2_5_2_2_3_output_padding_1_2', 'F.conv_transpose1d(T.ones(1,2,5),T.ones(2,2,3),output_padding=-1)')
error('conv_transpose1d_1_2_5_2_2_3_dilation_0', 'F.conv_transpose1d(T.ones(1,2,5),T.ones(2,2,3),dilation=0)')
error('conv_transpose1d_1_2_5_2_2_3_groups_0', 'F.conv_transpose1d(T.ones(1,2,5),T.ones(2,2,3),groups=0)')
error('conv_transpose1d_1_2_5_2_2_3_3', 'F.conv_transpose1d(T.ones(1,2,5),T.ones(2,2,3,3))')
error('conv_transpose1d_1_2_5_2_2_3_dtype_t_float32', 'F.conv_transpose1d(T.ones(1,2,5),T.ones(2,2,3,dtype=T.float32))')
error('conv_transpose1d_1_2_5_2_2_3_stride_1_1', 'F.conv_transpose1d(T.ones(1,2,5),T.ones(2,2,3),stride=(1,1))')
error('interpolate_1_1_4', 'F.interpolate(T.ones(1,1,4))')
error('interpolate_1_1_4_size_3_scale_factor_2', 'F.interpolate(T.ones(1,1,4),size=3,scale_factor=2)')
error('interpolate_1_1_4_size_3_3', 'F.interpolate(T.ones(1,1,4),size=(3,3))')
error('interpolate_1_1_4_scale_factor_2_2', 'F.interpolate(T.ones(1,1,4),scale_factor=(2,2))')
error('interpolate_1_1_4_size_3_align_corners_true', 'F.interpolate(T.ones(1,1,4),size=3,align_corners=True)')
error('interpolate_1_1_4_size_3_mode_bilinear', "F.interpolate(T.ones(1,1,4),size=3,mode='bilinear')")
error('interpolate_bicubic_3d', "F.interpolate(T.ones(1,1,4),size=3,mode='bicubic')")
error('interpolate_bicubic_integers', "F.interpolate(T.ones(1,1,4,4,dtype=T.int64),size=3,mode='bicubic')")
error('interpolate_1_1_4_4_size_3_mode_linear', "F.interpolate(T.ones(1,1,4,4),size=3,mode='linear')")
error('interpolate_4_size_3', 'F.interpolate(T.ones(4),size=3)')
error('interpolate_1_1_4_size_3_mode_foo', "F.interpolate(T.ones(1,1,4),size=3,mode='foo')")
error('interpolate_1_1_4_size_3_recompute_scale_factor_true', 'F.interpolate(T.ones(1,1,4),size=3,recompute_scale_factor=True)')
error('interpolate_1_1_4_size_0', 'F.interpolate(T.ones(1,1,4),size=0)')
error('interpolate_1_1_4_scale_factor_0_1', 'F.interpolate(T.ones(1,1,4),scale_factor=0.1)')
error('interpolate_1_1_4_scale_factor_1_0', 'F.interpolate(T.ones(1,1,4),scale_factor=-1.0)')
error('interpolate_1_1_4_size_2_5', 'F.interpolate(T.ones(1,1,4),size=(2.5,))')
error('interpolate_1_1_4_size_3_antialias_true', 'F.interpolate(T.ones(1,1,4),size=3,antialias=True)')
error('interpolate_1_0_4_size_3_mode_linear', "F.interpolate(T.ones(1,0,4),size=3,mode='linear')")
error('interpolate_1_1_0_size_3_mode_linear', "F.interpolate(T.ones(1,1,0),size=3,mode='linear')")
error('interpolate_1_1_4_4_size_0_3_mode_bilinear', "F.interpolate(T.ones(1,1,4,4),size=(0,3),mode='bilinear')")
error('interpolate_1_1_2_4_4_size_0_3_1', 'F.interpolate(T.ones(1,1,2,4,4),size=(0,3,1))')
error('interpolate_t_arange_4_reshape_1_1_4_size_3', 'F.interpolate(T.arange(4).reshape(1,1,4),size=3)')
error('interpolate_t_arange_4_reshape_1_1_4_size_3_mode_linear', "F.interpolate(T.arange(4).reshape(1,1,4),size=3,mode='linear')")
error('interpolate_1_0_4_4_size_3_mode_bilinear', "F.interpolate(T.ones(1,0,4,4),size=3,mode='bilinear')")
error('interpolate_1_0_4_size_3', 'F.interpolate(T.ones(1,0,4),size=3)')
error('interpolate_1_1_4_4_4_size_3_mode_bilinear', "F.interpolate(T.ones(1,1,4,4,4),size=3,mode='bilinear')")
error('interpolate_1_1_4_4_size_3_mode_trilinear', "F.interpolate(T.ones(1,1,4,4),size=3,mode='trilinear')")
error("conv_transpose_output_size", "nn.ConvTranspose1d(3, 2, 3, stride=2)(T.ones(2, 3, 5), output_size=[14])")
error("conv_transpose_output_size_length", "nn.ConvTranspose1d(3, 2, 3)(T.ones(2, 3, 5), output_size=[1, 2, 3, 4])")
error("conv_transpose_padding_mode", "nn.ConvTranspose1d(2, 2, 3, padding_mode='reflect')")
error("group_norm_module_groups", "nn.GroupNorm(3, 4)")
error("instance_norm_module_affine_channels", "nn.InstanceNorm1d(3, affine=True)(T.ones(2, 2, 5))")
error("instance_norm2d_module_dims", "nn.InstanceNorm2d(3)(T.ones(3, 5))")

# ============================================================================ empty batches

for name, call in [("interpolate", "F.interpolate(x, size=3, mode='linear')"),
                   ("conv_transpose1d", "F.conv_transpose1d(x, T.ones(2, 1, 2), stride=2)"),
                   ("max_pool1d", "F.max_pool1d(x, 2)"), ("avg_pool1d", "F.avg_pool1d(x, 2)"),
                   ("group_norm", "F.group_norm(x, 2)"), ("rms_norm", "F.rms_norm(x, [4])")]:
    case(f"{name}_empty_batch", f"""
        x = leaf(T.ones(0, 2, 4).tolist()).reshape(0, 2, 4)
        inputs = [x]
        first_order_only = {name == "conv_transpose1d"}  # PyTorch's empty second derivative there: None
        def f(): return {call}
    """)
