"""torch.autograd.graph's view of a node, by hand: isinstance of graph.Node, a node's metadata kept,
post-hooks (Node.register_hook) seeing and replacing the gradients a node passes on, pre-hooks
(register_prehook) with PyTorch's tuple of gradients, and what a node saved (_saved_self,
_saved_other, _saved_result, saved parameters), freed after backward."""
import math

import pytest

import autodiff.engine as ad


def test_every_node_is_a_graph_node():
    a = ad.tensor([1.0, 2.0], requires_grad=True)
    y = (a * 2).sum()
    assert isinstance(y.grad_fn, ad.autograd.graph.Node)
    leaf = y.grad_fn.next_functions[0][0].next_functions[0][0]
    assert isinstance(leaf, ad.autograd.graph.Node) and leaf.name() == "torch::autograd::AccumulateGrad"
    assert not isinstance(a, ad.autograd.graph.Node)


def test_metadata_is_kept_with_the_node():
    y = ad.tensor([1.0], requires_grad=True).exp()
    y.grad_fn.metadata["k"] = 1
    assert y.grad_fn.metadata == {"k": 1}


def test_post_hook_sees_and_replaces_the_gradients_passed_on():
    a = ad.tensor([1.0, 2.0], requires_grad=True)
    b = ad.tensor([3.0, 4.0], requires_grad=True)
    y = a * b   # d/da = b, d/db = a
    seen = []

    def hook(grad_inputs, grad_outputs):
        seen.append(([g.tolist() for g in grad_inputs], grad_outputs[0].tolist()))
        return (grad_inputs[0] * 10, None)
    handle = y.grad_fn.register_hook(hook)
    y.backward(ad.tensor([1.0, 0.5]))
    assert seen == [([[3.0, 2.0], [1.0, 1.0]], [1.0, 0.5])]
    assert a.grad.tolist() == [30.0, 20.0] and b.grad is None
    handle.remove()
    a.grad = None
    (a * b).backward(ad.tensor([1.0, 1.0]))
    assert a.grad.tolist() == [3.0, 4.0]


def test_post_hook_sees_gradients_summed_back_to_broadcast_inputs():
    a = ad.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    s = ad.tensor(2.0, requires_grad=True)
    y = a * s
    shapes = []
    y.grad_fn.register_hook(lambda gi, go: shapes.append([tuple(g.shape) for g in gi]))
    y.sum().backward()
    assert shapes == [[(2, 2), ()]] and s.grad.item() == 10.0


def test_post_hook_returning_the_wrong_number_is_an_error():
    a = ad.tensor([1.0], requires_grad=True)
    y = a.exp()
    y.grad_fn.register_hook(lambda gi, go: (gi[0], gi[0]))
    with pytest.raises(RuntimeError, match="incorrect number of values"):
        y.backward()


def test_prehook_gets_and_may_replace_the_tuple_of_gradients():
    a = ad.tensor([1.0, 2.0], requires_grad=True)
    y = a * 3
    got = []

    def pre(grad_outputs):
        got.append(type(grad_outputs).__name__)
        return (grad_outputs[0] * 2,)
    y.grad_fn.register_prehook(pre)
    y.sum().backward()
    assert got == ["tuple"] and a.grad.tolist() == [6.0, 6.0]


def test_saved_values_as_pytorch_names_them():
    a = ad.tensor([1.0, 2.0], requires_grad=True)
    b = a * 3                      # saves the number 3 for a's gradient, not a
    c = b.exp()                    # saves its result
    assert b.grad_fn._saved_self is None and b.grad_fn._saved_other.item() == 3
    assert [round(v, 6) for v in c.grad_fn._saved_result.tolist()] == [round(math.exp(3), 6), round(math.exp(6), 6)]
    s = a.sum(dim=0, keepdim=True)
    assert s.grad_fn._saved_dim == (0,) and s.grad_fn._saved_keepdim is True
    m = a * b                      # each saves the other
    assert m.grad_fn._saved_self is a and m.grad_fn._saved_other is b
    with pytest.raises(AttributeError):
        c.grad_fn._saved_nothing_of_that_name
    c.sum().backward()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        c.grad_fn._saved_result


def test_saved_tensors_hooks_pack_at_save_and_unpack_at_backward():
    log = []

    def pack(t):
        log.append(("pack", tuple(t.shape)))
        return t.detach() * 1   # a copy: what the backward gets back must be its values

    def unpack(t):
        log.append("unpack")
        return t
    x = ad.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with ad.autograd.graph.saved_tensors_hooks(pack, unpack):
        y = (x * x).sum()       # mul saves both of its inputs
        z = x.exp()             # exp saves its result
    assert log == [("pack", (3,))] * 3
    y.backward()
    z.sum().backward()
    assert log[3:] == ["unpack"] * 3
    e = [math.exp(v) for v in (1.0, 2.0, 3.0)]
    assert [round(g, 9) for g in x.grad.tolist()] == [round(2 * v + ev, 9) for v, ev in zip((1, 2, 3), e)]
    w = x * 3
    assert w.grad_fn._saved_other.item() == 3   # numbers are not packed


def test_saved_tensors_hooks_reach_custom_functions_and_nest():
    log = []

    class Square(ad.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a * a

        @staticmethod
        def backward(ctx, g):
            (a,) = ctx.saved_tensors
            return 2 * a * g
    x = ad.tensor([1.0, 2.0], requires_grad=True)
    outer = ad.autograd.graph.saved_tensors_hooks(lambda t: log.append("outer") or t, lambda t: t)
    inner = ad.autograd.graph.saved_tensors_hooks(lambda t: log.append("inner") or t, lambda t: t)
    with outer:
        with inner:
            y = Square.apply(x).sum()
        v = x.sin().sum()
    assert log == ["inner", "outer"]
    y.backward()
    assert x.grad.tolist() == [2.0, 4.0]


def test_unpack_must_give_a_tensor_and_disabling_refuses_hooks():
    x = ad.tensor([1.0, 2.0], requires_grad=True)
    with ad.autograd.graph.saved_tensors_hooks(lambda t: "kept", lambda kept: kept):
        y = x.exp().sum()
    with pytest.raises(TypeError, match="unpack_hook expected to be a Tensor"):
        y.backward()
    with ad.autograd.graph.disable_saved_tensors_hooks("not with this library"):
        with pytest.raises(RuntimeError, match="not with this library"):
            with ad.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
                pass
    with ad.autograd.graph.save_on_cpu():
        z = (x * x).sum()
    z.backward()
    assert x.grad.tolist() == [2.0, 4.0]
