"""The rest of torch.autograd's public API, by hand (values worked out below; messages are PyTorch
2.13's, looked up with it): every public name PyTorch has in torch.autograd and torch.autograd.graph
exists here or is listed as left out in the README; anomaly detection (PyTorch's warning, its NaN
error naming the node and output, check_nan=False, set_detect_anomaly as call and context);
SavedTensor hooks on _raw_saved_*; _saved_result carrying its grad_fn; register_multi_grad_hook in
both modes; GradientEdge; increment_version; allow_mutation_on_saved_tensors; the grad_mode switches;
and the language's `torch.autograd.detect_anomaly()`."""
import math
import re
import warnings

import pytest

import autodiff.engine as ad
from programs import run_program

G = ad.autograd.graph

# PyTorch 2.13's public names (dir() without the typing and module imports torch's files make)
TORCH_AUTOGRAD = ["DeviceType", "Function", "NestedIOFunction", "ProfilerActivity", "ProfilerConfig",
                  "ProfilerEvent", "ProfilerState", "SavedTensor", "Variable", "anomaly_mode", "backward",
                  "detect_anomaly", "enable_grad", "enforce_grad_layout_policy", "forward_ad", "function",
                  "functional", "grad", "grad_mode", "gradcheck", "gradgradcheck", "graph", "inference_mode",
                  "is_multithreading_enabled", "is_tensor_like", "is_view_replay_enabled", "kineto_available",
                  "no_grad", "profiler", "profiler_legacy", "profiler_util", "set_detect_anomaly",
                  "set_grad_enabled", "set_multithreading_enabled", "variable"]
TORCH_GRAPH = ["saved_tensors_hooks", "save_on_cpu", "disable_saved_tensors_hooks", "register_multi_grad_hook",
               "allow_mutation_on_saved_tensors", "Node", "GradientEdge", "get_gradient_edge", "increment_version",
               "RemovableHandle", "region_activation_memory_budget", "set_warn_on_accumulate_grad_stream_mismatch",
               "set_override_stale_capture_stream"]
LEFT_OUT = {"NestedIOFunction", "ProfilerActivity", "ProfilerConfig", "ProfilerEvent", "ProfilerState", "profiler",
            "profiler_legacy", "profiler_util", "region_activation_memory_budget",
            "set_warn_on_accumulate_grad_stream_mismatch", "set_override_stale_capture_stream"}
README = __import__("pathlib").Path(__file__).resolve().parents[2] / "README.md"


@pytest.fixture(autouse=True)
def _anomaly_off():
    yield
    ad.set_anomaly_enabled(False, True)


def test_every_public_name_exists_or_is_listed_as_left_out():
    readme = README.read_text("utf-8")
    section = readme[readme.index("### torch.autograd"):]
    for name in TORCH_AUTOGRAD:
        if name in LEFT_OUT:
            assert not hasattr(ad.autograd, name) and f"`{name}`" in section, name
        else:
            assert hasattr(ad.autograd, name), name
    for name in TORCH_GRAPH:
        if name in LEFT_OUT:
            assert not hasattr(G, name) and f"`{name}`" in section, name
        else:
            assert hasattr(G, name), name
    for name in ("jacobian", "hessian", "vjp", "jvp", "vhp", "hvp"):
        assert hasattr(ad.autograd.functional, name)
    for name in ("detect_anomaly", "set_detect_anomaly"):
        assert getattr(ad.autograd.anomaly_mode, name) is getattr(ad.autograd, name)
    assert ad.autograd.grad_mode.no_grad is ad.no_grad
    assert ad.autograd.grad_mode.set_multithreading_enabled is ad.autograd.set_multithreading_enabled


# ------------------------------------------------------------------ anomaly detection

WARNING = ("Anomaly Detection has been enabled. This mode will increase the runtime and should only be enabled "
           "for debugging.")


def test_detect_anomaly_warns_and_switches_on_inside_only():
    assert (ad.is_anomaly_enabled(), ad.is_anomaly_check_nan_enabled()) == (False, True)
    with pytest.warns(UserWarning, match=re.escape(WARNING)):
        context = ad.autograd.detect_anomaly(check_nan=False)
    assert not ad.is_anomaly_enabled()  # (made, not entered)
    with context:
        assert (ad.is_anomaly_enabled(), ad.is_anomaly_check_nan_enabled()) == (True, False)
    assert (ad.is_anomaly_enabled(), ad.is_anomaly_check_nan_enabled()) == (False, True)


def _backward_error(f, x):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with ad.autograd.detect_anomaly():
            with pytest.raises(RuntimeError) as info:
                f(x).backward()
    return str(info.value)


def test_nan_gradient_raises_pytorchs_error_naming_node_and_output():
    x = ad.tensor([0.0, 2.0], requires_grad=True)
    # d(x*x)/dx = 2x is fine; sqrt's backward g / (2 sqrt(x*x)) = 1/0 = inf; Mul's then gives inf * 0 = nan
    assert _backward_error(lambda x: (x * x).sqrt().sum(), x) == \
        "Function 'MulBackward0' returned nan values in its 0th output."
    # x / x: d/d(numerator) = 1/x = inf (not nan); d/d(denominator) = -x/x^2 = -0/0 = nan: output 1
    assert _backward_error(lambda x: (x / x).sum(), x) == \
        "Function 'DivBackward0' returned nan values in its 1th output."


def test_inf_is_no_anomaly_and_check_nan_false_lets_nan_through():
    x = ad.tensor([0.0, 4.0], requires_grad=True)
    with pytest.warns(UserWarning):
        with ad.autograd.detect_anomaly():
            x.sqrt().sum().backward()  # 1 / (2 sqrt(x)): inf at 0, not nan
    assert math.isinf(x.grad[0].item()) and x.grad[1].item() == pytest.approx(0.25)
    x.grad = None
    ad.autograd.set_detect_anomaly(True, check_nan=False)
    (x / x).sum().backward()
    assert math.isnan(x.grad[0].item()) and x.grad[1].item() == pytest.approx(0.0)


def test_nan_check_also_in_grad_and_create_graph():
    x = ad.tensor([0.0, 1.0], requires_grad=True)
    with ad.autograd.set_detect_anomaly(True):
        with pytest.raises(RuntimeError, match=r"^Function 'DivBackward0' returned nan values in its 1th output\.$"):
            ad.autograd.grad((x / x).sum(), x)
        with pytest.raises(RuntimeError, match="DivBackward0"):
            ad.autograd.grad((x / x).sum(), x, create_graph=True)
        # an input no gradient goes to is not checked: d/d(y) of x / y where y wants none
        y = ad.tensor([0.0, 1.0])
        (g,) = ad.autograd.grad((x / (y + 1)).sum(), x)
        assert g.tolist() == [1.0, 0.5]
    assert not ad.is_anomaly_enabled()


def test_set_detect_anomaly_sets_at_once_and_the_context_restores():
    ad.autograd.set_detect_anomaly(True)
    assert ad.is_anomaly_enabled()
    with ad.autograd.set_detect_anomaly(False):
        assert not ad.is_anomaly_enabled()
    assert ad.is_anomaly_enabled()
    ad.set_anomaly_enabled(False)
    assert not ad.is_anomaly_enabled()


# ------------------------------------------------------------------ saved tensors

def test_saved_result_carries_the_nodes_grad_fn_and_version():
    x = ad.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    r = y.grad_fn._saved_result
    assert r.grad_fn is y.grad_fn and r is not y and r.requires_grad
    assert r.tolist() == pytest.approx([math.e, math.e ** 2])
    with ad.no_grad():
        y.add_(1)
    assert r._version == y._version == 1


def test_raw_saved_tensor_hooks_pack_at_once_and_unpack_when_used():
    x = ad.tensor([1.0, 2.0], requires_grad=True)
    y = x.pow(2)
    saved = y.grad_fn._raw_saved_self
    assert isinstance(saved, ad.autograd.SavedTensor)
    log = []
    saved.register_hooks(lambda t: log.append(("pack", t.tolist())) or t * 10, lambda k: log.append("unpack") or k)
    assert log == [("pack", [1.0, 2.0])]
    with pytest.raises(RuntimeError, match=r"^Calling register_hooks on a saved tensor whose hooks have already "
                                           r"been set\. Hint: only one pair of hooks is allowed at a time\.$"):
        saved.register_hooks(lambda t: t, lambda t: t)
    assert y.grad_fn._saved_self.tolist() == [10.0, 20.0] and log[-1] == "unpack"
    y.sum().backward()  # 2 * (what unpack gave: 10x)
    assert x.grad.tolist() == [20.0, 40.0] and log == [("pack", [1.0, 2.0]), "unpack", "unpack"]
    with pytest.raises(RuntimeError, match="^Calling register_hooks on a saved tensor after it has been freed. "
                                           "Saved intermediate values"):
        saved.register_hooks(lambda t: t, lambda t: t)


def test_raw_saved_result_hooks_and_a_bad_unpack():
    x = ad.tensor([0.0, 1.0], requires_grad=True)
    y = x.exp()
    y.grad_fn._raw_saved_result.register_hooks(lambda t: t * 0 + 7, lambda k: k)
    y.sum().backward()  # exp's backward: g * result, the result now 7
    assert x.grad.tolist() == [7.0, 7.0]
    y = x.pow(2)
    y.grad_fn._raw_saved_self.register_hooks(lambda t: 5, lambda k: k)
    with pytest.raises(TypeError, match="^Output of saved tensor unpack_hook expected to be a Tensor but got "
                                        "result of type int$"):
        y.sum().backward()
    with pytest.raises(TypeError):
        x.pow(2).grad_fn._raw_saved_self.register_hooks(1, 2)
    with G.saved_tensors_hooks(lambda t: t, lambda t: t):
        z = x.exp()
    with pytest.raises(RuntimeError, match="hooks have already been set"):
        z.grad_fn._raw_saved_result.register_hooks(lambda t: t, lambda t: t)


# ------------------------------------------------------------------ torch.autograd.graph

def _values(grads):
    return [None if g is None else g.item() for g in grads]


def test_multi_grad_hook_all_once_per_backward_with_none_for_the_unreached():
    a, b, c = (ad.tensor(v, requires_grad=True) for v in (1.0, 2.0, 3.0))
    log = []
    handle = G.register_multi_grad_hook((a, b, c), lambda grads: log.append(_values(grads)))
    (a * b).backward()        # d/da = b = 2, d/db = a = 1; c is not in this graph
    (a * b * c).backward()    # bc = 6, ac = 3, ab = 2
    assert log == [[2.0, 1.0, None], [6.0, 3.0, 2.0]]
    handle.remove()
    (a * b).backward()
    assert len(log) == 2
    y1, y2 = a * 2, a * 3
    G.register_multi_grad_hook((y1, y2), lambda grads: log.append(_values(grads)))
    (y1 + y2 * 2).backward()
    assert log[2:] == [[1.0, 2.0]]


def test_multi_grad_hook_any_gets_the_first_gradient_only():
    a, b = ad.tensor(1.0, requires_grad=True), ad.tensor(2.0, requires_grad=True)
    log = []
    G.register_multi_grad_hook((a, b), lambda g: log.append(g.item()), mode="any")
    (a * 3 + b * 5).backward()  # b's leaf runs first (PyTorch's order): 5
    assert log == [5.0]
    (a * 3).backward()
    assert log == [5.0, 3.0]
    with pytest.raises(ValueError, match=r"^Expects mode to be one of \('all', 'any'\) but got x$"):
        G.register_multi_grad_hook((a,), print, mode="x")


def test_gradient_edge_and_increment_version():
    a = ad.tensor(1.0, requires_grad=True)
    y = a * 2
    edge = G.get_gradient_edge(y)
    assert isinstance(edge, G.GradientEdge) and edge.node is y.grad_fn and edge.output_nr == 0
    assert edge.ownership_token is None and edge._fields == ("node", "output_nr", "ownership_token")
    assert G.get_gradient_edge(a).node.name() == "torch::autograd::AccumulateGrad"
    parts = ad.ones(2, requires_grad=True).unbind()
    assert G.get_gradient_edge(parts[1]).output_nr == 1
    with pytest.raises(RuntimeError, match="^It is not possible to get the gradient edge for a Tensor that does "
                                           "not require gradients$"):
        G.get_gradient_edge(ad.tensor(1.0))
    t = ad.ones(2)
    G.increment_version(t)
    assert t._version == 1
    G.increment_version([t, t])
    assert t._version == 3
    x = ad.tensor([1.0, 2.0], requires_grad=True)
    z = x.clone()
    w = z * z
    G.increment_version(z)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        w.sum().backward()
    assert G.RemovableHandle is ad.RemovableHandle and isinstance(x.register_hook(lambda g: g), G.RemovableHandle)


def test_allow_mutation_on_saved_tensors_uses_the_values_as_saved():
    with G.allow_mutation_on_saved_tensors() as context:
        a = ad.tensor([1.0, 2.0], requires_grad=True)
        b = a.clone()
        out = (b ** 2).sum()
        b.sin_()
        out.backward()  # 2b with b as saved, not its sine
        assert a.grad.tolist() == [2.0, 4.0]
        c = a.exp()
        d = c * c
        c.mul_(2)
        d.sum().backward()  # + 2 e^{2a}
        assert a.grad.tolist() == pytest.approx([2 + 2 * math.exp(2), 4 + 2 * math.exp(4)])
        with pytest.raises(RuntimeError, match="^allow_mutation_on_saved_tensors contexts cannot be nested$"):
            with G.allow_mutation_on_saved_tensors():
                pass
    assert not context.open
    with G.allow_mutation_on_saved_tensors():
        out = (a.clone() ** 2).sum()
    with pytest.raises(AssertionError, match="^Trying to backward outside of the 'allow_mutation_on_saved_tensors' "
                                             "contextin which the graph was originally recorded.$"):
        out.backward()


# ------------------------------------------------------------------ grad_mode's switches and the rest

def test_multithreading_and_view_replay_flags():
    A = ad.autograd
    assert A.is_multithreading_enabled() and not A.is_view_replay_enabled()
    switch = A.set_multithreading_enabled(False)  # set at once
    assert not A.is_multithreading_enabled()
    with switch:
        assert not A.is_multithreading_enabled()
    assert A.is_multithreading_enabled()

    @A.set_multithreading_enabled(False)
    def inside():
        return A.is_multithreading_enabled()
    assert A.is_multithreading_enabled() and inside() is False and A.is_multithreading_enabled()
    with A._force_original_view_tracking(True):
        assert A.is_view_replay_enabled()
    assert not A.is_view_replay_enabled()


def test_grad_layout_policy():
    p = ad.empty(2, 3, 4).permute(2, 0, 1).requires_grad_()
    (p * 2).sum().backward()
    assert p.grad.stride() == p.stride() == (1, 12, 4)  # laid out as the leaf
    p.grad = None
    with ad.autograd.enforce_grad_layout_policy(False):
        (p * 2).sum().backward()
    assert p.grad.stride() == (6, 3, 1)  # as the backward made it
    q = ad.ones(4, 3).t().requires_grad_()
    (q * ad.ones(3, 4)).sum().backward()
    assert q.grad.stride() == (1, 3) and q.grad.tolist() == [[1.0] * 4] * 3


def test_is_tensor_like_device_type_kineto_and_variable():
    A = ad.autograd
    assert A.is_tensor_like(ad.ones(1)) and A.is_tensor_like(ad.nn.Parameter(ad.ones(1)))
    assert not A.is_tensor_like(1.0) and not A.is_tensor_like([ad.ones(1)])
    assert int(A.DeviceType.CPU) == 0 and int(A.DeviceType.CUDA) == 1 and repr(A.DeviceType.CPU) == "<DeviceType.CPU: 0>"
    assert A.kineto_available() is False
    with pytest.raises(RuntimeError, match=r"^torch.autograd.variable\(...\) is deprecated, use torch.tensor\(...\) "
                                           r"instead$"):
        A.variable(ad.ones(1))


# ------------------------------------------------------------------ the language

def test_language_detect_anomaly_and_graph_names():
    source = ("x = torch.tensor([0.0, 2.0], requires_grad=True)\n"
              "print(torch.is_anomaly_enabled())\n"
              "with torch.autograd.detect_anomaly():\n"
              "    print(torch.is_anomaly_enabled())\n"
              "    y = (x / x).sum()\n"
              "    y.backward()\n")
    with pytest.warns(UserWarning):
        out, error = run_program(source)
    assert out == "False\nTrue\n"
    assert "Function 'DivBackward0' returned nan values in its 1th output." in error
    assert "line 6" in error
    out, error = run_program("a = torch.tensor(1.0, requires_grad=True)\n"
                      "with torch.autograd.set_detect_anomaly(True):\n"
                      "    (a * 3).backward()\n"
                      "print(a.grad.item(), torch.is_anomaly_enabled(), torch.autograd.is_multithreading_enabled())\n"
                      "with torch.autograd.graph.allow_mutation_on_saved_tensors():\n"
                      "    b = a.clone()\n"
                      "    c = (b * b).sum()\n"
                      "    b.mul_(5)\n"
                      "    c.backward()\n"
                      "print(a.grad.item())\n")
    assert error is None and out == "3.0 False True\n5.0\n"


def test_language_graph_edges_saved_tensor_hooks_and_versions():
    out, error = run_program("a = torch.tensor([1.0, 2.0], requires_grad=True)\n"
                      "y = a.pow(2)\n"
                      "e = torch.autograd.graph.get_gradient_edge(y)\n"
                      "print(e.node.name(), e.output_nr, y.grad_fn._saved_self.tolist())\n"
                      "y.grad_fn._raw_saved_self.register_hooks(lambda t: t * 10, lambda k: k)\n"
                      "log = []\n"
                      "h = torch.autograd.graph.register_multi_grad_hook([a, y], lambda gs: log.append(len(gs)))\n"
                      "y.sum().backward()\n"
                      "print(a.grad.tolist(), log)\n"
                      "torch.autograd.graph.increment_version(a)\n"
                      "print(a._version)\n")
    # pow's backward 2 * self, self now 10a: [20, 40]; the hook once, with both gradients
    assert error is None and out == "PowBackward0 0 [1.0, 2.0]\n[20.0, 40.0] [2]\n1\n"
