"""Autograd semantics, as PyTorch 2.x has them, each case with hand-derived numbers.

backward/grad and their arguments, higher order, hooks, grad mode, detach and
.data, requires_grad rules, in-place ops on non-leaves, broadcasting, dtypes,
graph freeing, deep graphs, jacobian/hessian, optimisers and gradcheck.
"""
import gc
import math
import sys
import warnings

import re

import numpy
import pytest

import autodiff.engine as ad


def leaf(values, dtype=None):
    return ad.tensor(values, dtype=dtype, requires_grad=True)


def values(t):
    return None if t is None else t.tolist()


def no_warning(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return fn()


# ------------------------------------------------------------------ accumulation

def test_grad_accumulates_across_backward_calls():
    x = leaf(3.0)
    (x * x).backward()           # 2x = 6
    assert x.grad.item() == 6.0
    (x * x).backward()           # + 6
    assert x.grad.item() == 12.0
    (x * 5).backward()           # + 5
    assert x.grad.item() == 17.0


def test_accumulation_is_in_place_on_the_grad_tensor():
    x = leaf([1.0, 2.0])
    (x * 3).sum().backward()
    g = x.grad
    (x * 3).sum().backward()
    assert x.grad is g
    assert values(g) == [6.0, 6.0]


def test_grad_set_to_none_starts_fresh():
    x = leaf(2.0)
    (x ** 3).backward()          # 3x^2 = 12
    x.grad = None
    (x ** 3).backward()
    assert x.grad.item() == 12.0
    del x.grad
    assert x.grad is None


def test_retain_grad_accumulates_pytorch2():
    w = leaf(1.0)
    a = w * 3                    # a = 3
    a.retain_grad()
    assert a.retains_grad
    y = a * a                    # dy/da = 2a = 6
    y.backward(retain_graph=True)
    assert no_warning(lambda: a.grad.item()) == 6.0
    y.backward()
    assert a.grad.item() == 12.0
    assert w.grad.item() == 36.0  # 2 * (2a * 3)


def test_retain_grad_on_leaf_is_a_no_op():
    x = leaf(1.0)
    x.retain_grad()
    (x * 2).backward()
    assert x.grad.item() == 2.0


# ------------------------------------------------------------------ grad()

def test_grad_touches_no_grad_attribute():
    x = leaf([1.0, 2.0])
    y = (x * x).sum()
    (g,) = ad.grad(y, x)
    assert values(g) == [2.0, 4.0]
    assert x.grad is None


def test_grad_leaves_existing_grad_alone():
    x = leaf(2.0)
    (x * 10).backward()
    (g,) = ad.grad(x * x, x)
    assert g.item() == 4.0
    assert x.grad.item() == 10.0


def test_grad_returns_a_tuple_even_for_one_input():
    x = leaf(1.0)
    result = ad.grad(x * 2, x)
    assert isinstance(result, tuple) and len(result) == 1
    result = ad.grad(x * 2, [x])
    assert isinstance(result, tuple) and len(result) == 1


def test_grad_with_grad_outputs():
    x = leaf([1.0, 2.0, 3.0])
    y = x ** 2                   # dy_i/dx_i = 2 x_i
    (g,) = ad.grad(y, x, grad_outputs=ad.tensor([1.0, 0.5, -1.0]))
    assert values(g) == [2.0, 2.0, -6.0]


def test_grad_with_grad_outputs_for_several_outputs():
    x = leaf([1.0, 2.0])
    y1 = x * 3
    y2 = x * x
    (g,) = ad.grad([y1, y2], x, grad_outputs=[ad.tensor([1.0, 1.0]), ad.tensor([2.0, 0.0])])
    # 3*1 + 2x*2 = [7, 3]; 3*1 + 0 = 3
    assert values(g) == [7.0, 3.0]


def test_grad_several_outputs_are_summed():
    x1 = leaf(1.0)
    x2 = leaf(2.0)
    g = ad.grad([x1 * x2, x1 + x2, x1 * x1], [x1, x2])
    # d/dx1: x2 + 1 + 2x1 = 5; d/dx2: x1 + 1 = 2
    assert [t.item() for t in g] == [5.0, 2.0]


def test_grad_with_respect_to_intermediate():
    x = leaf(2.0)
    a = x * 3                    # 6
    y = a * a                    # dy/da = 12
    (ga, gx) = ad.grad(y, [a, x])
    assert (ga.item(), gx.item()) == (12.0, 36.0)


def test_grad_allow_unused_returns_none():
    x = leaf(1.0)
    z = leaf(5.0)
    gx, gz = ad.grad(x * 2, [x, z], allow_unused=True)
    assert gx.item() == 2.0 and gz is None


def test_grad_unused_without_allow_unused_is_an_error():
    x = leaf(1.0)
    z = leaf(5.0)
    with pytest.raises(RuntimeError, match="appears to not have been used in the graph"):
        ad.grad(x * 2, [x, z])


def test_grad_materialize_grads_gives_zeros():
    x = leaf(1.0)
    z = leaf([5.0, 6.0])
    gx, gz = ad.grad(x * 2, [x, z], materialize_grads=True)
    assert gx.item() == 2.0
    assert values(gz) == [0.0, 0.0] and gz.dtype is z.dtype


def test_grad_leaves_graph_freed_unless_retained():
    x = leaf(2.0)
    y = x * x
    ad.grad(y, x)
    with pytest.raises(RuntimeError, match="retain_graph=True"):
        ad.grad(y, x)
    y = x * x
    ad.grad(y, x, retain_graph=True)
    assert ad.grad(y, x)[0].item() == 4.0


# ------------------------------------------------------------------ backward(inputs=...)

def test_backward_inputs_restricts_leaves():
    x1 = leaf(2.0)
    x2 = leaf(3.0)
    y = x1 * x2
    y.backward(inputs=[x1], retain_graph=True)
    assert x1.grad.item() == 3.0
    assert x2.grad is None
    y.backward(inputs=[x2])
    assert x2.grad.item() == 2.0
    assert x1.grad.item() == 3.0


def test_backward_inputs_accumulates():
    x = leaf(2.0)
    y = leaf(1.0)
    (x * x * y).backward(inputs=[x])
    (x * x * y).backward(inputs=x)
    assert x.grad.item() == 8.0
    assert y.grad is None


def test_backward_inputs_non_leaf():
    x = leaf(2.0)
    a = x * 3                    # 6
    y = a * a                    # dy/da = 12
    y.backward(inputs=[a])
    assert x.grad is None
    assert a._grad is not None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert a.grad.item() == 12.0


def test_backward_inputs_non_leaf_grad_reads_without_warning():
    # PyTorch warns only when a non-leaf's .grad is undefined
    x = leaf(2.0)
    a = x * 3
    (a * a).backward(inputs=[a])
    assert no_warning(lambda: a.grad.item()) == 12.0


def test_backward_module_function_several_roots():
    x = leaf([1.0, 2.0])
    y1 = x * 2
    y2 = x * x
    ad.backward([y1, y2], [ad.tensor([1.0, 1.0]), ad.tensor([1.0, 3.0])])
    # 2*1 + 2x*w = [2 + 2, 2 + 12]
    assert values(x.grad) == [4.0, 14.0]


def test_backward_module_function_scalar_roots():
    x = leaf(3.0)
    ad.backward([x * 2, x * x])  # 2 + 6
    assert x.grad.item() == 8.0
    ad.backward(x * 4)
    assert x.grad.item() == 12.0


def test_backward_gradient_weights():
    x = leaf([1.0, 2.0, 3.0])
    y = x * x
    y.backward(gradient=ad.tensor([1.0, 0.1, 0.01]))
    assert values(x.grad) == pytest.approx([2.0, 0.4, 0.06])


# ------------------------------------------------------------------ higher order

def test_create_graph_third_order():
    x = leaf(2.0)
    y = x ** 4
    (g1,) = ad.grad(y, x, create_graph=True)    # 4x^3
    (g2,) = ad.grad(g1, x, create_graph=True)   # 12x^2
    (g3,) = ad.grad(g2, x)                      # 24x
    assert (g1.item(), g2.item(), g3.item()) == (32.0, 48.0, 48.0)
    assert g1.requires_grad and g2.requires_grad and not g3.requires_grad


def test_create_graph_through_backward_attr():
    x = leaf(3.0)
    y = x ** 3
    y.backward(create_graph=True)               # x.grad = 3x^2 = 27, with a graph
    assert x.grad.item() == 27.0
    assert x.grad.requires_grad
    g = x.grad
    x.grad = None
    g.backward()                                # 6x = 18
    assert x.grad.item() == 18.0


def test_create_graph_mixed_partials():
    x = leaf(2.0)
    y = leaf(3.0)
    f = x * x * y                               # f_x = 2xy, f_xy = 2x, f_xx = 2y
    (fx,) = ad.grad(f, x, create_graph=True)
    assert fx.item() == 12.0
    fxx, fxy = ad.grad(fx, [x, y])
    assert (fxx.item(), fxy.item()) == (6.0, 4.0)


def test_higher_order_of_linear_function_is_unused_or_zero():
    x = leaf(2.0)
    (g,) = ad.grad(x * 3, x, create_graph=True)
    assert g.item() == 3.0
    # g no longer depends on x
    if g.requires_grad:
        (h,) = ad.grad(g, x, allow_unused=True)
        assert h is None or h.item() == 0.0


def test_create_graph_exp_sin_fourth_order():
    x = leaf(0.5)
    y = ad.sin(x)
    derivatives = []
    g = y
    for _ in range(4):
        (g,) = ad.grad(g, x, create_graph=True)
        derivatives.append(g.item())
    assert derivatives == pytest.approx([math.cos(0.5), -math.sin(0.5), -math.cos(0.5), math.sin(0.5)])


# ------------------------------------------------------------------ hooks

def test_hook_on_leaf_sees_grad_and_can_replace_it():
    x = leaf([1.0, 2.0])
    seen = []
    x.register_hook(lambda g: seen.append(values(g)))
    x.register_hook(lambda g: g * 2)
    (x * 3).sum().backward()
    assert seen == [[3.0, 3.0]]
    assert values(x.grad) == [6.0, 6.0]


def test_hook_on_non_leaf_replaces_grad_flowing_on():
    x = leaf(1.0)
    a = x * 3
    a.register_hook(lambda g: g * 10)
    (a * 2).backward()           # da = 2 -> 20; dx = 20 * 3
    assert x.grad.item() == 60.0


def test_hook_returning_none_keeps_grad():
    x = leaf(1.0)
    a = x * 3
    calls = []
    a.register_hook(lambda g: calls.append(g.item()))
    (a * 2).backward()
    assert calls == [2.0]
    assert x.grad.item() == 6.0


def test_hook_handle_remove():
    x = leaf(1.0)
    calls = []
    handle = x.register_hook(lambda g: calls.append(1) or g * 100)
    (x * 2).backward()
    assert x.grad.item() == 200.0
    handle.remove()
    x.grad = None
    (x * 2).backward()
    assert x.grad.item() == 2.0
    assert calls == [1]


def test_non_leaf_hook_handle_remove():
    x = leaf(1.0)
    a = x * 3
    handle = a.register_hook(lambda g: g * 0)
    handle.remove()
    (a * 2).backward()
    assert x.grad.item() == 6.0


def test_hooks_run_in_registration_order_and_chain():
    x = leaf(1.0)
    order = []
    x.register_hook(lambda g: order.append(("first", g.item())) or g + 1)
    x.register_hook(lambda g: order.append(("second", g.item())) or g * 10)
    (x * 2).backward()
    assert order == [("first", 2.0), ("second", 3.0)]
    assert x.grad.item() == 30.0


def test_hook_call_order_follows_backward_order():
    inp = ad.ones([2, 2])
    w1 = leaf(2.0)
    w2 = leaf(3.0)
    w3 = leaf(4.0)
    l1 = inp * w1
    l2 = l1 + w2
    l3 = l1 * w3
    l4 = l2 * l3
    loss = l4.mean()
    order = []
    l1.register_hook(lambda g: order.append("l1"))
    l4.register_hook(lambda g: order.append("l4"))
    loss.register_hook(lambda g: order.append("loss"))
    loss.backward()
    assert order == ["loss", "l4", "l1"]


def test_hook_on_non_leaf_fires_once_with_total_grad():
    x = leaf(2.0)
    a = x * 1
    seen = []
    a.register_hook(lambda g: seen.append(g.item()))
    (a * a + a * 3).backward()   # 2a + 3 = 7, summed before the hook
    assert seen == [7.0]
    assert x.grad.item() == 7.0


def test_hook_with_retain_grad_sees_hooked_value():
    x = leaf(1.0)
    a = x * 3
    a.retain_grad()
    a.register_hook(lambda g: g * 2)
    (a * 5).backward()
    assert a.grad.item() == 10.0   # retain_grad's value is taken after the hook (PyTorch 2.x)
    assert x.grad.item() == 30.0


# ------------------------------------------------------------------ grad mode

def test_no_grad_context():
    x = leaf(1.0)
    with ad.no_grad():
        y = x * 2
        assert not ad.is_grad_enabled()
    assert ad.is_grad_enabled()
    assert y.requires_grad is False and y.grad_fn is None and y.is_leaf


def test_enable_grad_inside_no_grad():
    x = leaf(1.0)
    with ad.no_grad():
        with ad.enable_grad():
            y = x * 2
            assert ad.is_grad_enabled()
        z = x * 2
        assert not ad.is_grad_enabled()
    assert y.requires_grad and not z.requires_grad


def test_set_grad_enabled_context_nested():
    x = leaf(1.0)
    with ad.set_grad_enabled(False):
        a = x * 2
        with ad.set_grad_enabled(True):
            b = x * 2
        c = x * 2
    d = x * 2
    assert [t.requires_grad for t in (a, b, c, d)] == [False, True, False, True]


def test_set_grad_enabled_as_function():
    x = leaf(1.0)
    try:
        ad.set_grad_enabled(False)
        assert not ad.is_grad_enabled()
        assert not (x * 2).requires_grad
    finally:
        ad.set_grad_enabled(True)
    assert ad.is_grad_enabled()
    assert (x * 2).requires_grad


def test_grad_mode_decorators():
    x = leaf(1.0)

    @ad.no_grad()
    def off():
        return x * 2, ad.is_grad_enabled()

    @ad.enable_grad()
    def on():
        return x * 2

    @ad.set_grad_enabled(False)
    def off2():
        return x * 2

    assert ad.is_grad_enabled()   # making the decorators changed nothing
    y, enabled = off()
    assert not y.requires_grad and not enabled
    with ad.no_grad():
        assert on().requires_grad
        assert not ad.is_grad_enabled()
    assert not off2().requires_grad
    assert ad.is_grad_enabled()


def test_grad_mode_restored_after_exception():
    with pytest.raises(ValueError):
        with ad.no_grad():
            raise ValueError("boom")
    assert ad.is_grad_enabled()


def test_inplace_on_leaf_allowed_under_no_grad():
    x = leaf([1.0, 2.0])
    with ad.no_grad():
        x.mul_(2)
        x -= 1
    assert values(x) == [1.0, 3.0]
    assert x.is_leaf and x.requires_grad
    (x * x).sum().backward()
    assert values(x.grad) == [2.0, 6.0]


# ------------------------------------------------------------------ detach and .data

def test_detach_shares_memory_and_version_counter():
    x = leaf([1.0, 2.0])
    d = x.detach()
    assert not d.requires_grad and d.is_leaf and d.grad_fn is None
    d.add_(1)                     # allowed: d does not require grad
    assert values(x) == [2.0, 3.0]
    assert x._version == d._version == 1


def test_detach_then_modify_breaks_saved_value():
    x = leaf([1.0, 2.0])
    y = (x * x).sum()
    x.detach().mul_(2)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.backward()


def test_data_shares_memory_not_version():
    x = leaf([1.0, 2.0])
    d = x.data
    assert not d.requires_grad
    y = (x * x).sum()
    d.mul_(2)                     # x is now [2, 4]; its version is unchanged
    assert values(x) == [2.0, 4.0]
    assert x._version == 0
    y.backward()                  # no error: the saved x is read as it is now
    assert values(x.grad) == [4.0, 8.0]


def test_data_assignment_replaces_values():
    x = leaf([1.0, 2.0])
    x.data = ad.tensor([5.0, 6.0])
    assert values(x) == [5.0, 6.0] and x.requires_grad and x.is_leaf


# ------------------------------------------------------------------ requires_grad and is_leaf

def test_requires_grad_propagates():
    x = leaf(1.0)
    c = ad.tensor(2.0)
    assert (x * c).requires_grad
    assert not (c * c).requires_grad
    assert (c + x).requires_grad


def test_requires_grad_underscore_on_leaf():
    x = ad.tensor([1.0, 2.0])
    assert x.requires_grad_() is x
    assert x.requires_grad and x.is_leaf
    x.requires_grad_(False)
    assert not x.requires_grad


def test_requires_grad_on_int_tensor_is_an_error():
    # PyTorch's three wordings (method, factory, attribute)
    x = ad.tensor([1, 2])
    with pytest.raises(RuntimeError, match="^only Tensors of floating point dtype can require gradients$"):
        x.requires_grad_()
    with pytest.raises(RuntimeError, match="^Only Tensors of floating point and complex dtype can require "
                                           "gradients$"):
        ad.tensor([1, 2], requires_grad=True)
    with pytest.raises(RuntimeError, match="^only Tensors of floating point and complex dtype can require "
                                           "gradients$"):
        x.requires_grad = True


def test_requires_grad_false_on_non_leaf_is_an_error():
    x = leaf(1.0)
    y = x * 2
    with pytest.raises(RuntimeError, match="you can only change requires_grad flags of leaf variables"):
        y.requires_grad_(False)
    y.requires_grad_(True)        # a no-op, as in PyTorch
    assert y.requires_grad


def test_is_leaf_rules():
    x = leaf(1.0)
    c = ad.tensor(1.0)
    assert x.is_leaf and c.is_leaf
    assert not (x * 2).is_leaf
    assert (c * 2).is_leaf        # requires_grad=False: a leaf by convention
    with ad.no_grad():
        assert (x * 2).is_leaf
    assert (x * 2).detach().is_leaf
    assert ad.zeros(2, requires_grad=True).is_leaf
    assert ad.ones_like(x).is_leaf


def test_grad_assignment_validation():
    x = leaf([1.0, 2.0])
    x.grad = ad.tensor([0.5, 0.5])
    assert values(x.grad) == [0.5, 0.5]
    with pytest.raises(RuntimeError, match=re.escape("attempting to assign a gradient of size '[3]' to a "
                                                     "tensor of size '[2]'")):
        x.grad = ad.tensor([1.0, 2.0, 3.0])
    with pytest.raises(RuntimeError, match="attempting to assign a gradient with dtype 'float' to a tensor "
                                           "with grad_dtype 'Double'"):
        x.grad = ad.tensor([1.0, 2.0], dtype=ad.float32)
    with pytest.raises(TypeError):
        x.grad = [1.0, 2.0]
    assert values(x.grad) == [0.5, 0.5]
    (x * 2).sum().backward()      # accumulates into the assigned grad
    assert values(x.grad) == [2.5, 2.5]


# ------------------------------------------------------------------ in-place ops on non-leaves

def test_inplace_mul_on_non_leaf_records_node():
    a = leaf([1.0, 2.0, 3.0])
    b = a * 1
    b.mul_(2)
    assert b._version == 1
    assert b.grad_fn.name() == "MulBackward0"
    b.sum().backward()
    assert values(a.grad) == [2.0, 2.0, 2.0]


def test_inplace_chain_on_non_leaf():
    a = leaf([1.0, 2.0])
    b = a * 1
    b.mul_(3)
    b.add_(1)
    b.pow_(2)                     # b = (3a + 1)^2, db/da = 6(3a + 1)
    b.sum().backward()
    assert values(b.detach()) == [16.0, 49.0]
    assert values(a.grad) == [24.0, 42.0]


def test_inplace_add_of_tensor_requiring_grad_into_plain_tensor():
    b = ad.ones(3)
    x = leaf([1.0, 2.0, 3.0])
    b.add_(x)
    assert b.requires_grad and not b.is_leaf
    assert b.grad_fn.name() == "AddBackward0"
    (b * b).sum().backward()      # d/dx (1 + x)^2 = 2(1 + x)
    assert values(x.grad) == [4.0, 6.0, 8.0]


def test_iadd_operator_on_non_leaf():
    x = leaf(2.0)
    y = x * 1
    ident = id(y)
    y += x                        # y = 2x
    y *= x                        # y = 2x^2, dy/dx = 4x
    assert id(y) == ident
    y.backward()
    assert x.grad.item() == 8.0


def test_setitem_on_non_leaf_records_copy_slices():
    a = leaf([1.0, 2.0, 3.0])
    v = leaf(5.0)
    b = a * 2
    b[1] = v * 3
    assert b.grad_fn.name() == "torch::autograd::CopySlices"
    assert values(b.detach()) == [2.0, 15.0, 6.0]
    (b * ad.tensor([1.0, 2.0, 3.0])).sum().backward()
    assert values(a.grad) == [2.0, 0.0, 6.0]   # the overwritten slot gets nothing
    assert v.grad.item() == 6.0                # 3 * weight 2


def test_setitem_slice_with_number_blocks_gradient():
    a = leaf([[1.0, 2.0], [3.0, 4.0]])
    b = a * 1
    b[:, 0] = 0.0
    b.sum().backward()
    assert values(a.grad) == [[0.0, 1.0], [0.0, 1.0]]


def test_setitem_into_plain_tensor_of_value_requiring_grad():
    base = ad.zeros(3)
    v = leaf([1.0, 2.0])
    base[1:] = v
    assert base.requires_grad and base.grad_fn.name() == "torch::autograd::CopySlices"
    (base * ad.tensor([10.0, 20.0, 30.0])).sum().backward()
    assert values(v.grad) == [20.0, 30.0]


def test_inplace_on_view_of_plain_tensor_gives_base_history():
    base = ad.zeros(3)
    x = leaf([1.0, 2.0])
    base[1:].add_(x)
    assert values(base) == [0.0, 1.0, 2.0]
    assert base.requires_grad and base.grad_fn is not None
    (base * ad.tensor([10.0, 20.0, 30.0])).sum().backward()
    assert values(x.grad) == [20.0, 30.0]


def test_zero_on_non_leaf_blocks_gradient():
    a = leaf([1.0, 2.0])
    b = a * 2
    b.zero_()
    (b + a).sum().backward()
    assert values(a.grad) == [1.0, 1.0]


def test_inplace_on_view_of_non_leaf():
    a = leaf([1.0, 2.0, 3.0])
    b = a * 1
    b[0:2] *= 10          # through setitem of a recorded in-place result
    b.sum().backward()
    assert values(b.detach()) == [10.0, 20.0, 3.0]
    assert values(a.grad) == [10.0, 10.0, 1.0]


# ------------------------------------------------------------------ broadcasting

def test_broadcast_backward_column_times_row():
    a = leaf([[1.0], [2.0], [3.0]])          # (3, 1)
    b = leaf([[1.0, 2.0, 3.0, 4.0]])         # (1, 4)
    y = a * b
    assert y.shape == (3, 4)
    y.sum().backward()
    assert a.grad.shape == (3, 1) and b.grad.shape == (1, 4)
    assert values(a.grad) == [[10.0], [10.0], [10.0]]     # sum of b
    assert values(b.grad) == [[6.0, 6.0, 6.0, 6.0]]      # sum of a


def test_broadcast_backward_scalar_times_matrix():
    s = leaf(2.0)
    m = leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    (s * m).sum().backward()
    assert s.grad.shape == () and s.grad.item() == 21.0
    assert values(m.grad) == [[2.0] * 3] * 2


def test_broadcast_backward_leading_dims_and_weights():
    bias = leaf([1.0, 2.0])                  # (2,) against (3, 2)
    x = leaf([[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]])
    y = x + bias
    y.backward(gradient=ad.tensor([[1.0, 10.0], [1.0, 10.0], [1.0, 10.0]]))
    assert values(bias.grad) == [3.0, 30.0]
    assert values(x.grad) == [[1.0, 10.0]] * 3


def test_broadcast_with_size_one_dims_in_both():
    a = leaf([[[1.0, 2.0]]])                 # (1, 1, 2)
    b = leaf([[3.0], [4.0], [5.0]])          # (3, 1)
    y = a * b                                # (1, 3, 2)
    y.sum().backward()
    assert a.grad.shape == (1, 1, 2) and values(a.grad) == [[[12.0, 12.0]]]
    assert b.grad.shape == (3, 1) and values(b.grad) == [[3.0], [3.0], [3.0]]


# ------------------------------------------------------------------ dtypes

def test_float32_gives_float32_grads():
    x = leaf([1.0, 2.0], dtype=ad.float32)
    y = (x * x * 1.5).sum()
    assert y.dtype is ad.float32
    y.backward()
    assert x.grad.dtype is ad.float32
    assert values(x.grad) == [3.0, 6.0]


def test_float32_grad_through_create_graph():
    x = leaf(2.0, dtype=ad.float32)
    (g,) = ad.grad(x ** 3, x, create_graph=True)
    (h,) = ad.grad(g, x)
    assert g.dtype is ad.float32 and h.dtype is ad.float32
    assert (g.item(), h.item()) == (12.0, 12.0)


def test_mixed_precision_grads_keep_each_leaf_dtype():
    x32 = leaf([1.0, 2.0], dtype=ad.float32)
    x64 = leaf([3.0, 4.0])
    y = (x32 * x64).sum()
    assert y.dtype is ad.float64
    y.backward()
    assert x32.grad.dtype is ad.float32 and x64.grad.dtype is ad.float64
    assert values(x32.grad) == [3.0, 4.0] and values(x64.grad) == [1.0, 2.0]


def test_default_dtype_is_float64():
    assert ad.tensor(1.0).dtype is ad.float64
    assert ad.tensor([1, 2]).dtype is ad.int64
    assert ad.ones(2).dtype is ad.float64


# ------------------------------------------------------------------ graph freeing

def test_add_only_graph_can_backward_twice():
    x = leaf(1.0)
    y = x + 1
    z = y + x
    z.backward()
    z.backward()                 # nothing saved, nothing freed (as PyTorch)
    assert x.grad.item() == 4.0


def test_mul_graph_cannot_backward_twice():
    x = leaf(1.0)
    y = x * x
    y.backward()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        y.backward()


def test_backward_frees_saved_values_once_and_says_so():
    from autodiff.engine.graph import saved_values
    x = leaf(2.0)
    y = (x * x).sin()
    mul = y.grad_fn.next_functions[0][0]
    assert [v.of for v in saved_values(mul)] == ["input 0", "input 1"]
    y.backward(retain_graph=True)
    assert [v.of for v in saved_values(y.grad_fn)] == ["input 0"]   # kept
    y.backward()
    assert saved_values(y.grad_fn) is None and saved_values(mul) is None  # freed, not "nothing saved"
    assert not hasattr(mul, "__dict__") or not mul.__dict__  # freeing writes no per-node attribute
    assert x.grad.item() == 2 * (4 * math.cos(4.0))
    z = x + 1
    z.backward()
    assert saved_values(z.grad_fn) == []  # AddBackward0 saves nothing: nothing to free


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_a_0d_chain_records_and_casts_as_arrays_do(dtype):
    # 0-d values are numpy scalars: the node's shapes and dtypes, and each gradient's cast to its
    # input's dtype, must be what they are for arrays (PyTorch: the grad has the leaf's dtype)
    dt = getattr(ad, dtype)
    for shape in [(), (3,)]:
        x = ad.tensor(numpy.full(shape, 0.5), dtype=dt, requires_grad=True)
        y = x * 1.5
        z = (2.0 - y).sin()
        node = y.grad_fn
        assert node.shapes == (shape, None) and node.dtypes == (numpy.dtype(dtype), None)
        assert node.out_shape == shape and node.out_dtype == numpy.dtype(dtype)
        assert z.grad_fn.next_functions[0][0].shapes == (None, shape)
        z.sum().backward()
        assert x.grad.dtype == dt and tuple(x.grad.shape) == shape
        want = numpy.asarray(-1.5 * numpy.cos(2.0 - 0.75), dtype=dtype)
        assert numpy.allclose(numpy.asarray(x.grad.numpy(), dtype="float64"), want, rtol=1e-3)
    w = ad.tensor(0.5, dtype=ad.float32, requires_grad=True)
    v = ad.tensor(2.0, dtype=ad.float64, requires_grad=True)
    (w * v).backward()  # float32 * float64: the product is float64, w's gradient float32 again
    assert w.grad.dtype == ad.float32 and v.grad.dtype == ad.float64 and w.grad.item() == 2.0


def test_retain_graph_allows_many_backwards():
    x = leaf(3.0)
    y = x * x
    for _ in range(3):
        y.backward(retain_graph=True)
    assert x.grad.item() == 18.0


def test_shared_subgraph_freed_after_first_root():
    x = leaf(2.0)
    a = x * x
    y1 = a * 2
    y2 = a * 3
    y1.backward()
    with pytest.raises(RuntimeError, match="retain_graph=True"):
        y2.backward()


# ------------------------------------------------------------------ deep graphs

def test_chain_of_100000_ops_no_recursion():
    x = leaf(1.0)
    y = x
    for _ in range(50_000):
        y = y * 1.0000001 + 0.0   # two ops per step: 100,000 nodes
    y.backward()
    assert x.grad.item() == pytest.approx(1.0000001 ** 50_000, rel=1e-12)
    del y
    gc.collect()                  # freeing the chain does not recurse either


def test_deeply_nested_graph_fan_in():
    # every step reuses x: one leaf with 30,000 incoming edges and a 60,000-deep path
    x = leaf(0.5)
    y = x
    for _ in range(30_000):
        y = y * 0.5 + x          # y_{n+1} = y_n / 2 + x -> dy/dx = sum 0.5^k + 0.5^n ~ 2
    y.backward()
    assert x.grad.item() == pytest.approx(2.0, rel=1e-12)


def test_deep_chain_create_graph():
    x = leaf(1.0)
    y = x
    for _ in range(5_000):
        y = y * 1.0001           # y = x * c^n
    (g,) = ad.grad(y * x, x, create_graph=True)   # d(c^n x^2) = 2 c^n x
    (h,) = ad.grad(g, x)                         # 2 c^n
    c = 1.0001 ** 5_000
    assert g.item() == pytest.approx(2 * c) and h.item() == pytest.approx(2 * c)


def test_recursion_limit_is_not_what_saves_us():
    assert sys.getrecursionlimit() < 100_000


def test_dropping_intermediates_keeps_backprop_correct():
    x = leaf([0.0, 1.0])

    def build():
        return x.exp().exp().sum()    # only the root survives; exp saves its output

    y = build()
    gc.collect()
    y.backward()
    # d exp(exp x) = exp(exp x) exp x
    expected = [math.exp(math.exp(v)) * math.exp(v) for v in (0.0, 1.0)]
    assert values(x.grad) == pytest.approx(expected)


def test_dropping_intermediates_under_create_graph():
    x = leaf(0.3)
    y = ad.tanh(ad.sigmoid(x).exp())   # intermediates dropped
    gc.collect()
    (g,) = ad.grad(y, x, create_graph=True)
    (h,) = ad.grad(g, x)

    def f(v):
        return math.tanh(math.exp(1 / (1 + math.exp(-v))))

    eps = 1e-4
    num_g = (f(0.3 + eps) - f(0.3 - eps)) / (2 * eps)
    num_h = (f(0.3 + eps) - 2 * f(0.3) + f(0.3 - eps)) / eps ** 2
    assert g.item() == pytest.approx(num_g, rel=1e-6)
    assert h.item() == pytest.approx(num_h, rel=1e-4)


# ------------------------------------------------------------------ jacobian and hessian

def test_jacobian_elementwise():
    x = leaf([1.0, 2.0, 3.0])
    y = x ** 2
    J = ad.jacobian(y, x)
    assert J.shape == (3, 3)
    assert values(J) == [[2.0, 0.0, 0.0], [0.0, 4.0, 0.0], [0.0, 0.0, 6.0]]


def test_jacobian_matrix_vector():
    A = ad.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    x = leaf([1.0, 1.0, 1.0])
    J = ad.jacobian(ad.mv(A, x), x)
    assert J.shape == (2, 3) and values(J) == values(A)


def test_jacobian_shapes_for_matrix_input():
    x = leaf([[1.0, 2.0], [3.0, 4.0]])
    y = x.sum(dim=0)                         # (2,)
    J = ad.jacobian(y, x)
    assert J.shape == (2, 2, 2)
    assert values(J) == [[[1.0, 0.0], [1.0, 0.0]], [[0.0, 1.0], [0.0, 1.0]]]


def test_jacobian_tuple_of_inputs():
    x1 = leaf([1.0, 2.0])
    x2 = leaf([3.0, 4.0])
    J1, J2 = ad.jacobian(x1 * x2, (x1, x2))
    assert values(J1) == [[3.0, 0.0], [0.0, 4.0]]
    assert values(J2) == [[1.0, 0.0], [0.0, 2.0]]


def test_jacobian_function_form():
    x = ad.tensor([1.0, 2.0])
    J = ad.jacobian(lambda t: t ** 3, x)
    assert values(J) == [[3.0, 0.0], [0.0, 12.0]]
    J1, J2 = ad.jacobian(lambda a, b: a * b + a, (ad.tensor([1.0]), ad.tensor([5.0])))
    assert values(J1) == [[6.0]] and values(J2) == [[1.0]]


def test_function_form_takes_a_tensor_or_a_tuple_not_a_list():
    """torch.autograd.functional's _as_tuple: a list of inputs, or a function returning a list,
    is a TypeError (PyTorch 2.13's messages). The graph form, ours, takes a list as grad() does."""
    x = ad.tensor([1.0, 2.0])
    for fn, name in ((ad.jacobian, "jacobian"), (ad.hessian, "hessian")):
        with pytest.raises(TypeError) as info:
            fn(lambda t: (t * t).sum(), [x])
        assert str(info.value) == (f"The inputs given to {name} must be either a Tensor or a tuple of Tensors but "
                                   "the given inputs has type <class 'list'>.")
    with pytest.raises(TypeError) as info:
        ad.jacobian(lambda t: [t * 2], x)
    assert str(info.value) == ("The outputs of the user-provided function given to jacobian must be either a "
                               "Tensor or a tuple of Tensors but the given outputs of the user-provided function "
                               "has type <class 'list'>.")
    y = leaf([1.0, 2.0])
    (J,) = ad.jacobian(y * 2, [y])
    assert values(J) == [[2.0, 0.0], [0.0, 2.0]]


def test_jacobian_leaves_grad_alone():
    x = leaf([1.0, 2.0])
    ad.jacobian(x * 2, x)
    assert x.grad is None


def test_hessian_single_input():
    x = leaf([1.0, 2.0])
    f = (x ** 3).sum()                       # H = diag(6x)
    H = ad.hessian(f, x)
    assert H.shape == (2, 2)
    assert values(H) == [[6.0, 0.0], [0.0, 12.0]]


def test_hessian_quadratic_form():
    A = ad.tensor([[2.0, 1.0], [1.0, 3.0]])
    x = leaf([1.0, -1.0])
    f = ad.dot(x, ad.mv(A, x))               # H = A + A^T
    assert values(ad.hessian(f, x)) == [[4.0, 2.0], [2.0, 6.0]]


def test_hessian_tuple_of_inputs():
    x = leaf([1.0, 2.0])
    y = leaf([3.0, 4.0])
    f = (x * x * y).sum()
    (Hxx, Hxy), (Hyx, Hyy) = ad.hessian(f, (x, y))
    assert values(Hxx) == [[6.0, 0.0], [0.0, 8.0]]       # diag(2y)
    assert values(Hxy) == [[2.0, 0.0], [0.0, 4.0]]       # diag(2x)
    assert values(Hyx) == [[2.0, 0.0], [0.0, 4.0]]
    assert values(Hyy) == [[0.0, 0.0], [0.0, 0.0]]


def test_hessian_matrix_input_shape():
    x = leaf([[1.0, 2.0], [3.0, 4.0]])
    H = ad.hessian((x * x).sum(), x)
    assert H.shape == (2, 2, 2, 2)
    expected = numpy.zeros((2, 2, 2, 2))
    for i in range(2):
        for j in range(2):
            expected[i, j, i, j] = 2.0
    assert values(H) == expected.tolist()


def test_hessian_function_form():
    H = ad.hessian(lambda t: (t[0] ** 2) * t[1], ad.tensor([1.0, 3.0]))
    # f = a^2 b: f_aa = 2b = 6, f_ab = 2a = 2, f_bb = 0
    assert values(H) == [[6.0, 2.0], [2.0, 0.0]]


# ------------------------------------------------------------------ optimisers

def test_sgd_plain_two_steps():
    x = leaf(1.0)
    opt = ad.SGD([x], lr=0.1)
    for _ in range(2):
        opt.zero_grad()
        (x * x).backward()
        opt.step()
    # x1 = 1 - 0.1*2 = 0.8; x2 = 0.8 - 0.1*1.6 = 0.64
    assert x.item() == pytest.approx(0.64)


def test_sgd_momentum_two_steps():
    x = leaf(1.0)
    opt = ad.SGD([x], lr=0.1, momentum=0.9)
    seen = []
    for _ in range(2):
        opt.zero_grad()
        (x * x).backward()
        opt.step()
        seen.append(x.item())
    # g0 = 2, buf = 2, x1 = 0.8; g1 = 1.6, buf = 0.9*2 + 1.6 = 3.4, x2 = 0.8 - 0.34
    assert seen == pytest.approx([0.8, 0.46])


def test_sgd_nesterov_two_steps():
    x = leaf(1.0)
    opt = ad.SGD([x], lr=0.1, momentum=0.9, nesterov=True)
    seen = []
    for _ in range(2):
        opt.zero_grad()
        (x * x).backward()
        opt.step()
        seen.append(x.item())
    # g0 = 2, buf = 2, d = 2 + 0.9*2 = 3.8, x1 = 0.62
    # g1 = 1.24, buf = 1.8 + 1.24 = 3.04, d = 1.24 + 2.736 = 3.976, x2 = 0.62 - 0.3976
    assert seen == pytest.approx([0.62, 0.2224])


def test_adam_two_steps():
    x = leaf(1.0)
    opt = ad.Adam([x], lr=0.1)
    seen = []
    for _ in range(2):
        opt.zero_grad()
        (x * x).backward()
        opt.step()
        seen.append(x.item())
    b1, b2, eps, lr = 0.9, 0.999, 1e-8, 0.1
    # step 1: g = 2, m = 0.2, v = 0.004; m_hat = 2, v_hat = 4
    x1 = 1.0 - lr * 2.0 / (2.0 + eps)
    g = 2 * x1
    m = b1 * 0.2 + (1 - b1) * g
    v = b2 * 0.004 + (1 - b2) * g * g
    x2 = x1 - lr * (m / (1 - b1 ** 2)) / (math.sqrt(v / (1 - b2 ** 2)) + eps)
    assert seen == pytest.approx([x1, x2], rel=1e-12)
    assert seen == pytest.approx([0.9, 0.80041], abs=1e-5)


def test_adam_betas_and_vector_params():
    w = leaf([1.0, -2.0])
    opt = ad.adam([w], lr=0.5, betas=(0.5, 0.5))
    w.grad = ad.tensor([4.0, -1.0])
    opt.step()
    # first step of Adam moves each weight by lr * sign(g) (up to eps)
    assert values(w) == pytest.approx([0.5, -1.5])


def test_optimizer_step_bumps_version_and_keeps_leaf():
    x = leaf([1.0])
    opt = ad.SGD([x], lr=0.5)
    (x * 2).sum().backward()
    v = x._version
    opt.step()
    assert x._version == v + 1
    assert x.is_leaf and x.requires_grad and values(x) == [0.0]


def test_optimizer_skips_params_without_grad():
    x = leaf(1.0)
    y = leaf(1.0)
    opt = ad.SGD([x, y], lr=0.1)
    (x * 3).backward()
    opt.step()
    assert x.item() == pytest.approx(0.7) and y.item() == 1.0


def test_zero_grad_set_to_none():
    x = leaf([1.0, 2.0])
    opt = ad.SGD([x], lr=0.1)
    (x * 2).sum().backward()
    opt.zero_grad()               # PyTorch 2.x default: set_to_none=True
    assert x.grad is None
    (x * 2).sum().backward()
    opt.zero_grad(set_to_none=True)
    assert x.grad is None


def test_zero_grad_set_to_zero():
    x = leaf([1.0, 2.0])
    opt = ad.SGD([x], lr=0.1)
    (x * 2).sum().backward()
    g = x.grad
    opt.zero_grad(set_to_none=False)
    assert x.grad is g and values(g) == [0.0, 0.0]
    (x * 3).sum().backward()
    assert values(x.grad) == [3.0, 3.0]


# ------------------------------------------------------------------ gradcheck

def test_gradcheck_true_on_correct_function():
    x = leaf([0.3, -0.7, 1.2])
    y = leaf([1.5, 0.2, -0.4])
    assert ad.gradcheck(lambda a, b: (a * b).sin() + a.exp() / (1 + b * b), (x, y)) is True


def test_gradgradcheck_true_on_correct_function():
    x = leaf([0.3, -0.7, 1.2])
    assert ad.gradgradcheck(lambda a: a.tanh() * a ** 3, (x,)) is True


def _doubled_backward(t):
    """3t forward, but its backward doubles the gradient: wrong by a factor of 2."""
    y = t * 3
    if y.requires_grad:
        y.register_hook(lambda g: g * 2)
    return y


def test_gradcheck_detects_wrong_backward():
    x = leaf([0.5, 1.0])
    with pytest.raises(ad.GradcheckError):
        ad.gradcheck(_doubled_backward, (x,))
    assert ad.gradcheck(_doubled_backward, (x,), raise_exception=False) is False


def test_gradcheck_error_is_a_runtime_error():
    # PyTorch's torch.autograd.gradcheck.GradcheckError derives from RuntimeError
    assert issubclass(ad.GradcheckError, RuntimeError)
    assert not issubclass(ad.GradcheckError, AssertionError)


def _detached_second_order(t):
    """t**2 with a correct first derivative whose own graph is cut."""
    y = t ** 2
    if y.requires_grad:
        y.register_hook(lambda g: g.detach() if g.requires_grad else g)
    return y


def test_gradgradcheck_detects_wrong_second_order():
    x = leaf([0.5, 1.0])
    assert ad.gradcheck(_detached_second_order, (x,)) is True
    with pytest.raises(ad.GradcheckError):
        ad.gradgradcheck(_detached_second_order, (x,))


# ------------------------------------------------------------------ more PyTorch rules

def test_hook_on_leaf_used_twice_fires_once():
    x = leaf(2.0)
    seen = []
    x.register_hook(lambda g: seen.append(g.item()))
    (x * x + x).backward()         # 2x + 1
    assert seen == [5.0]
    assert x.grad.item() == 5.0


def test_grad_same_input_twice():
    x = leaf(3.0)
    g1, g2 = ad.grad(x * x, [x, x])
    assert g1.item() == 6.0 and g2.item() == 6.0


def test_grad_outputs_with_none_for_scalar_output():
    x = leaf([1.0, 2.0])
    y1 = (x * x).sum()            # scalar: its weight may be None
    y2 = x * 3
    (g,) = ad.grad([y1, y2], x, grad_outputs=[None, ad.tensor([1.0, 2.0])])
    assert values(g) == [2.0 + 3.0, 4.0 + 6.0]


def test_backward_on_a_leaf_itself():
    x = leaf(2.0)
    x.backward()
    assert x.grad.item() == 1.0


def test_comparisons_do_not_require_grad():
    x = leaf([1.0, -1.0])
    for r in (x > 0, x <= 0, x == 1, x != 1, x.eq(x)):
        assert r.requires_grad is False and r.grad_fn is None
        assert r.dtype is ad.bool_


def test_grad_of_leaf_not_requiring_grad_is_none_quietly():
    c = ad.tensor([1.0])
    assert no_warning(lambda: c.grad) is None


def test_detach_inplace_makes_a_leaf():
    x = leaf(1.0)
    y = x * 2
    assert y.detach_() is y
    assert y.is_leaf and not y.requires_grad and y.grad_fn is None


def test_retained_grad_under_create_graph_has_graph():
    x = leaf(2.0)
    a = x * x                     # 4
    a.retain_grad()
    (a * a).backward(create_graph=True)   # d/da = 2a = 8, as a function of x: 2x^2
    assert a.grad.item() == 8.0 and a.grad.requires_grad
    (gx,) = ad.grad(a.grad, x)    # d(2x^2)/dx = 4x
    assert gx.item() == 8.0


def test_broadcast_second_order():
    a = leaf([[1.0], [2.0], [3.0]])          # (3, 1)
    b = leaf([[1.0, 2.0, 3.0, 4.0]])         # (1, 4)
    (ga,) = ad.grad((a * b * a).sum(), a, create_graph=True)   # 2a * sum(b), shape (3, 1)
    assert ga.shape == (3, 1) and values(ga) == [[20.0], [40.0], [60.0]]
    (gb,) = ad.grad(ga.sum(), b)             # d/db sum_i 2 a_i sum_j b_j = 2 sum(a) per b_j
    assert gb.shape == (1, 4) and values(gb) == [[12.0] * 4]


def test_zero_dim_tensor_does_not_promote_float32():
    x = leaf([1.0, 2.0], dtype=ad.float32)
    s = leaf(2.0)                            # 0-d float64
    y = x * s
    assert y.dtype is ad.float32               # PyTorch: a 0-d tensor does not promote a dimensioned one
    y.sum().backward()
    assert x.grad.dtype is ad.float32 and s.grad.dtype is ad.float64
    assert values(x.grad) == [2.0, 2.0] and s.grad.item() == 3.0


def test_int_tensor_operand_with_float_leaf():
    x = leaf([1.0, 2.0])
    k = ad.tensor([3, 4])
    y = (x * k).sum()
    assert y.dtype is ad.float64
    y.backward()
    assert values(x.grad) == [3.0, 4.0]


def test_inplace_modified_constant_saved_for_backward():
    x = leaf([1.0, 2.0])
    c = ad.tensor([3.0, 4.0])
    y = (x * c).sum()
    c.add_(1)
    with pytest.raises(RuntimeError, match=r"\[torch\.DoubleTensor \[2\]\] is at version 1; expected version 0"):
        y.backward()


def test_sgd_weight_decay_and_maximize():
    x = leaf(1.0)
    opt = ad.SGD([x], lr=0.1, weight_decay=0.1)
    (x * x).backward()
    opt.step()                    # d = 2 + 0.1 * 1 = 2.1
    assert x.item() == pytest.approx(0.79)
    y = leaf(1.0)
    opt = ad.SGD([y], lr=0.1, maximize=True)
    (y * y).backward()
    opt.step()
    assert y.item() == pytest.approx(1.2)


def test_sgd_dampening():
    x = leaf(1.0)
    opt = ad.SGD([x], lr=0.1, momentum=0.5, dampening=0.5)
    x.grad = ad.tensor(1.0)
    opt.step()                    # buf = g = 1 (no dampening on the first step)
    opt.step()                    # buf = 0.5 * 1 + 0.5 * 1 = 1
    assert x.item() == pytest.approx(0.8)


def test_jacobian_of_unrelated_output_is_zero():
    x = leaf([1.0, 2.0])
    y = leaf([5.0, 6.0, 7.0])
    J = ad.jacobian(y * 2, x)
    assert J.shape == (3, 2) and values(J) == [[0.0, 0.0]] * 3


def test_hessian_of_linear_function_is_zero():
    x = leaf([1.0, 2.0])
    H = ad.hessian((x * 3).sum(), x)
    assert values(H) == [[0.0, 0.0], [0.0, 0.0]]


def test_jacobian_create_graph():
    x = leaf([1.0, 2.0])
    J = ad.jacobian(x ** 3, x, create_graph=True)   # diag(3x^2)
    assert J.requires_grad
    (g,) = ad.grad(J.sum(), x)                     # d/dx sum 3x^2 = 6x
    assert values(g) == [6.0, 12.0]


def test_relu_and_leaky_relu_gradients_can_be_differentiated_again():
    """As PyTorch: the create_graph gradient of relu (threshold_backward) and of leaky_relu
    depends on x with a zero derivative, so it requires grad, and its own gradient is zeros
    rather than an error (PyTorch 2.13 gives the same grad_fn names and values)."""
    x = leaf([-1.0, 2.0])
    for f, node, first in ((lambda t: ad.relu(t), "ThresholdBackwardBackward0", [0.0, 1.0]),
                           (lambda t: ad.nn.functional.leaky_relu(t, 0.25), "LeakyReluBackwardBackward0",
                            [0.25, 1.0])):
        (g,) = ad.autograd.grad(f(x).sum(), x, create_graph=True)
        assert g.requires_grad and g.grad_fn.name() == node and values(g) == first
        (h,) = ad.autograd.grad(g.sum(), x)
        assert values(h) == [0.0, 0.0]
    assert values(ad.hessian(lambda t: ad.relu(t).sum(), ad.tensor([-1.0, 2.0]))) == [[0.0, 0.0], [0.0, 0.0]]
    # a masked gradient is +0, whatever the sign of what flowed in (PyTorch's threshold_backward)
    y = leaf([-1.0, 2.0])
    (ad.relu(y) * ad.tensor([-3.0, -3.0])).sum().backward()
    assert [math.copysign(1.0, v) for v in values(y.grad)] == [1.0, -1.0]


# ------------------------------------------------------------ random fills in place (PyTorch 2.13's behaviour)

@pytest.mark.parametrize("method, args, node", [
    ("uniform_", (), "UniformBackward0"), ("normal_", (), "NormalBackward0"),
    ("bernoulli_", (), "BernoulliBackward2"), ("bernoulli_", (0.3,), "BernoulliBackward2"),
    ("bernoulli_", ("tensor",), "BernoulliBackward1")])
def test_a_random_fill_in_place_ends_the_old_values_history(method, args, node):
    # PyTorch: y = x * 2; y.<fill>(); the node is named after the fill, its one edge is the old
    # history, and no gradient flows back through it (x.grad is zeros, not the 6 of y*3's path)
    args = tuple(ad.tensor([0.0, 1.0, 0.0]) if a == "tensor" else a for a in args)
    x = ad.ones(3, requires_grad=True)
    y = x * 2
    getattr(y, method)(*args)
    assert type(y.grad_fn).__name__ == node
    assert [type(n).__name__ for n, _ in y.grad_fn.next_functions] == ["MulBackward0"]
    (y * 3).sum().backward()
    assert x.grad.tolist() == [0.0, 0.0, 0.0]


def test_the_fills_helpers_stay_out_of_the_public_surface():
    # torch has no refill_ or uniform_draws: the engine's helpers for the fills are not torch names
    from autodiff.grammar.names import TORCH
    for name in ("refill_", "uniform_draws", "_refill", "_uniform_draws"):
        assert not hasattr(ad, name) and name not in TORCH
    assert ad.Tensor.bernoulli_ is ad.functions.bernoulli_  # the written one serves as the method


def test_bernoulli_in_place_draws_with_p_one_half_unless_told():
    # PyTorch's Tensor.bernoulli_(p=0.5): the tensor's own values are not the probabilities
    ad.manual_seed(0)
    t = ad.full((200_000,), 0.9)
    t.bernoulli_()
    assert abs(t.mean().item() - 0.5) < 0.01 and set(numpy.unique(t.numpy())) == {0.0, 1.0}
    t = ad.ones(2, 3)
    t.bernoulli_(ad.tensor([0.0, 1.0, 0.0]))          # a tensor p broadcasts to the tensor
    assert t.tolist() == [[0.0, 1.0, 0.0], [0.0, 1.0, 0.0]]
    t = ad.ones(3, dtype=ad.int64)
    t.bernoulli_(1)
    assert t.dtype == ad.int64 and t.tolist() == [1, 1, 1]
    with pytest.raises(RuntimeError, match=re.escape("bernoulli_ expects p to be in [0, 1], but got p=1.5")):
        ad.ones(3).bernoulli_(1.5)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place"):
        ad.ones(3, requires_grad=True).bernoulli_(0.5)


def test_a_copy_nodes_repr_is_its_class_name():
    # PyTorch 2.13: repr(grad_fn) of a copy is "<CopyBackwards object at ...>" (the class name), while
    # name() keeps its namespace, "torch::autograd::CopyBackwards"; the same for CopySlices
    a = ad.zeros(3)
    a.copy_(ad.ones(3, requires_grad=True))
    assert repr(a.grad_fn).startswith("<CopyBackwards object at 0x")
    assert a.grad_fn.name() == "torch::autograd::CopyBackwards"
    b = ad.zeros(4, requires_grad=True).clone()
    b[1:3].mul_(2)
    assert repr(b.grad_fn).startswith("<CopySlices object at 0x") and b.grad_fn.name() == "torch::autograd::CopySlices"


def test_masked_fill_with_a_number_has_one_edge():
    # PyTorch 2.13: masked_fill(mask, 0.0) is its Scalar overload (one next function, the input);
    # with a 0-d tensor value, MaskedFillBackward1 has two
    x = ad.ones(2, 3, requires_grad=True)
    v = ad.tensor(2.0, requires_grad=True)
    y = x.masked_fill(x > 0, 0.0)
    assert type(y.grad_fn).__name__ == "MaskedFillBackward0"
    assert [type(n).__name__ for n, _ in y.grad_fn.next_functions] == ["AccumulateGrad"]
    z = x.masked_fill(x > 0, v)
    assert type(z.grad_fn).__name__ == "MaskedFillBackward1"
    assert [type(n).__name__ for n, _ in z.grad_fn.next_functions] == ["AccumulateGrad", "AccumulateGrad"]
    (y.sum() + z.sum()).backward()
    assert x.grad.tolist() == [[0.0] * 3] * 2 and v.grad.item() == 6.0


def test_rsqrt_is_one_over_sqrt_forward_and_backward():
    # rsqrt is 1 / sqrt(x) (two correctly rounded operations: the same bits on every CPU, written here
    # in numpy) and its gradient -0.5 * g * y**3 with y**3 as two products; PyTorch 2.13's values
    # (CPU, float.hex) within float64's tolerance
    from tolerance import assert_close
    w = [1.0, -2.0, 3.0, 0.5, 1.5, 1.0]
    x = ad.tensor([0.3, 1.7, 2.9, 1e-8, 123.456, 7.0], dtype=ad.float64, requires_grad=True)
    y = x.rsqrt()
    (y * ad.tensor(w, dtype=ad.float64)).sum().backward()
    want_y = 1.0 / numpy.sqrt(x.detach().numpy())
    assert numpy.array_equal(y.detach().numpy(), want_y)
    assert numpy.array_equal(x.grad.numpy(), (numpy.array(w) * -0.5) * (want_y * want_y * want_y))
    pytorch_y = ['0x1.d363d1848dcbfp+0', '0x1.88afa2908d8c4p-1', '0x1.2ca820ecbb2efp-1', '0x1.3880000000000p+13',
                 '0x1.70a424598b572p-4', '0x1.83091e6a7f7e6p-2']
    pytorch_grad = ['-0x1.857dd943cb7f5p+1', '0x1.cdfbce4fb595ep-2', '-0x1.370633b719e9fp-2', '-0x1.d1a94a2000000p+37',
                    '-0x1.1ea83f4d31d38p-11', '-0x1.ba539079b6473p-6']
    assert_close(y.detach().numpy(), numpy.array([float.fromhex(v) for v in pytorch_y]), "float64")
    assert_close(x.grad.numpy(), numpy.array([float.fromhex(v) for v in pytorch_grad]), "float64")


def test_relu_passes_the_gradient_at_nan_as_pytorch():
    # PyTorch 2.13: relu(x) for x = [nan, -1, 2], sum().backward() gives x.grad = [1, 0, 1]
    # (threshold_backward zeroes only where x <= 0, and NaN <= 0 is false)
    x = ad.tensor([math.nan, -1.0, 2.0], requires_grad=True)
    ad.relu(x).sum().backward()
    assert x.grad.tolist() == [1.0, 0.0, 1.0]


def test_float_of_a_tensor_that_requires_grad_warns_as_pytorch_2_13():
    # PyTorch 2.13: float() warns (item(), int() and a detached tensor do not)
    x = leaf([1.0, 2.0, 3.0])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert float(x.sum()) == 6.0
    assert [str(w.message) for w in caught] == [
        "Converting a tensor with requires_grad=True to a scalar may lead to unexpected behavior.\n"
        "Consider using tensor.detach() first."]
    assert no_warning(lambda: (x.sum().item(), int(x[1]), float(x.detach()[0]))) == (6.0, 2, 1.0)


def test_inf_and_nan_come_out_silently_as_in_pytorch():
    # numpy warns of 0/0, log(0), sqrt(-1), 1/0 and an overflowing exp; PyTorch does not, and nor
    # does the engine -- while numpy called by the program itself still warns. Run as a script runs
    # (a fresh interpreter: the engine's filter is set when it is imported, which pytest's own
    # warning capture would undo)
    import subprocess
    script = (
        "import math, numpy, warnings\n"
        "import autodiff.engine as ad\n"
        "a = ad.tensor([0.0, 1.0], requires_grad=True)\n"
        "y = (a / a).sum() + ad.log(a).sum() + ad.sqrt(-a - 1).sum() + (a ** -1).sum() + ad.exp(a * 1000).sum()\n"
        "y.backward()\n"
        "assert math.isnan(y.item()) and all(math.isnan(g) for g in a.grad.tolist())\n"
        "print('engine done', flush=True)\n"
        "numpy.array([0.0]) / 0.0\n")
    done = subprocess.run([sys.executable, "-W", "default", "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "engine done\n"
    assert done.stderr.count("RuntimeWarning") == 1 and "<string>:8" in done.stderr, done.stderr


def test_copy_slices_next_functions_are_pytorchs():
    # PyTorch's CopySlices holds the in-place op's node inside: the base's edge, then that node's
    # edges after the view's own (PyTorch 2.13's output for the same lines)
    x = leaf([1.0, 2.0, 3.0])
    y = leaf([5.0, 6.0])
    b = x.clone()
    b[0].mul_(2)
    assert [(None if f is None else f.name(), k) for f, k in b.grad_fn.next_functions] == [("CloneBackward0", 0),
                                                                                          (None, 0)]
    c = x.clone()
    c[1:].mul_(y)
    assert [f.name() for f, _ in c.grad_fn.next_functions] == ["CloneBackward0", "torch::autograd::AccumulateGrad"]
    assert c.grad_fn.next_functions[1][0].variable is y
    d = x.clone()
    d[0].exp_()
    assert [f.name() for f, _ in d.grad_fn.next_functions] == ["CloneBackward0"]
    (c.sum() + d.sum()).backward()
    assert x.grad.tolist() == [1.0 + math.exp(1.0), 5.0 + 1.0, 6.0 + 1.0] and y.grad.tolist() == [2.0, 3.0]


def test_sinc_derivatives_at_zero_as_pytorch():
    """PyTorch 2.13: sinc's gradient is 0 where x * x * pi is 0 (x = 0, or small enough to underflow), and
    its second derivative there is nan -- the 0/0 its sinc_backward keeps inside a where. Observed:
    torch.autograd.grad twice over sinc at [0, -0, 1e-200, 0.3] gives g = [0, 0, 0, -0.9020...] and
    [nan, nan, nan, -2.4585...]."""
    x = ad.tensor([0.0, -0.0, 1e-200, 0.3], dtype=ad.float64, requires_grad=True)
    g, = ad.autograd.grad(ad.sinc(x).sum(), x, create_graph=True)
    h, = ad.autograd.grad(g.sum(), x)
    assert g.detach().tolist()[:3] == [0.0, 0.0, 0.0]
    assert abs(g.detach().tolist()[3] - (-0.9020)) < 1e-4
    assert all(math.isnan(v) for v in h.tolist()[:3])
    assert abs(h.tolist()[3] - (-2.4585)) < 1e-4


def test_hooks_added_and_removed_between_backward_calls():
    # PyTorch's test_hooks, by hand: z = x**2 + 2x + xy + y, so dz/dy = x + 1 = 2 at x = 1
    x = ad.ones(5, 5, requires_grad=True)
    y = (ad.ones(5, 5) * 4).requires_grad_(True)
    counter = [0]

    def count(inc):
        return lambda grad: counter.__setitem__(0, counter[0] + inc)
    z = x ** 2 + x * 2 + x * y + y
    x.register_hook(count(0))
    first = z.register_hook(count(1))
    z.backward(ad.ones(5, 5), retain_graph=True)
    assert counter[0] == 1
    second = z.register_hook(count(2))
    z.backward(ad.ones(5, 5), retain_graph=True)
    assert counter[0] == 4
    second.remove()
    z.backward(ad.ones(5, 5), retain_graph=True)
    assert counter[0] == 5
    first.remove()
    z.register_hook(lambda grad: grad.mul(2))
    with ad.no_grad():
        y.grad.zero_()
    z.backward(ad.ones(5, 5), retain_graph=True)
    assert (y.grad == 4).all()
    y.register_hook(lambda grad: grad.mul(2))
    with ad.no_grad():
        y.grad.zero_()
    z.backward(ad.ones(5, 5))
    assert (y.grad == 8).all()


def test_hook_on_non_leaf_under_create_graph_stays_differentiable():
    # c = sum((2a)**2): dc/db = 4a, tripled by the hook, times db/da = 2 -> 24a. Differentiated
    # again, the gradient flows through b once more, so the hook triples it again: 3 * 12 * 2 = 72
    # (PyTorch 2.13 gives the same: a tensor's hook runs in every backward that reaches it)
    a = ad.tensor([1.0, 2.0], requires_grad=True)
    b = a * 2
    b.register_hook(lambda g: g * 3)
    with pytest.warns(UserWarning, match="reference cycle"):
        (b * b).sum().backward(create_graph=True)
    assert a.grad.tolist() == [24.0, 48.0]
    assert a.grad.grad_fn.name() == "torch::autograd::CopyBackwards"
    (second,) = ad.autograd.grad(a.grad.sum(), a)
    assert second.tolist() == [72.0, 72.0]
