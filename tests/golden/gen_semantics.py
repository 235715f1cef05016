"""Regenerate tests/golden/semantics.json from PyTorch itself.

Run with a Python that has PyTorch 2.13 (`pip install torch==2.13.0`; not a dependency of the
test suite):

    python tests/golden/gen_semantics.py

Same mechanism as tests/golden/gen_engine.py: each case is a small program
written against a namespace `T` that means the same for PyTorch and for our
engine, leaving its observations in a dict `result`. Here `T` is torch (default
dtype float64, as ours) plus this shim, which tests/engine/test_golden_semantics.py
mirrors on the engine side:

    T.grad           torch.autograd.grad               (engine: ad.grad)
    T.backward       torch.autograd.backward           (engine: ad.backward)
    T.gradcheck      torch.autograd.gradcheck          (engine: ad.gradcheck)
    T.gradgradcheck  torch.autograd.gradgradcheck      (engine: ad.gradgradcheck)
    T.GradcheckError torch.autograd.gradcheck.GradcheckError (engine: ad.GradcheckError)

Every other name is torch's own (`T.no_grad`, `T.inference_mode`, `T.linalg.solve`, ...),
so on the engine side it is the engine's name of the same spelling.

Beside `T`, every program sees the two helpers of tests/golden/semantics_shim.py
(shared by both sides): `catch(fn)` (fn's value, or the exception it raised)
and `warns(fn)` (the warnings fn raised).

The cases are about PyTorch's autograd *semantics*: views and in-place ops
with the version counter, backward/grad corner cases, dtypes of gradients,
graph structure and printing, grad modes, gradcheck, and (group "api") ops and
functions the engine is to gain. Each case carries:

    group     "semantics": uses only API our engine already has, so a failure is
              a semantic difference; "api": the ops and functions the issue asks the
              engine to gain (inference_mode, narrow/unbind/split/..., linalg), some of
              which exist already; kept apart so that a missing one hides no semantic check
    loose     how error/warning messages and strings may differ (default: exact), a
              list of: "first_line" (messages: first lines only),
              "no_triggered_internally" (drop PyTorch's " (Triggered internally at
              <C++ file>:<line>.)" suffix), "no_torch_autograd_prefix" (drop
              "torch::autograd::" from node names and messages); each use says why
    exact     float tensors compared bit for bit (dtype cases), not to a tolerance

Encoding (extends gen_engine's): an exception recorded by `catch` is
    {"kind": "error", "type": <class name as PyTorch raises it>, "message": str(e)}
a warning recorded by `warns` is {"kind": "warning", "type": <category>, "message": ...},
a dtype is {"kind": "dtype", "value": "float32"}.
"""
import json
import os
import sys
import textwrap
import warnings

import torch
from torch.autograd.gradcheck import GradcheckError, gradcheck, gradgradcheck

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "semantics.json")
sys.path.insert(0, HERE)

from gen_engine import encode_floats  # noqa: E402
from semantics_shim import PROGRAM_HELPERS, Caught, Warned  # noqa: E402


class TorchNamespace:
    """`T` for PyTorch: torch itself, plus the shim names listed above."""

    grad = staticmethod(torch.autograd.grad)
    backward = staticmethod(torch.autograd.backward)
    gradcheck = staticmethod(gradcheck)
    gradgradcheck = staticmethod(gradgradcheck)
    GradcheckError = GradcheckError

    def __getattr__(self, name):
        return getattr(torch, name)


def encode(v):
    if isinstance(v, torch.Tensor):
        return {"kind": "tensor", "dtype": str(v.dtype).replace("torch.", ""),
                "shape": list(v.shape), "values": encode_floats(v.detach().tolist())}
    if isinstance(v, Caught):
        return {"kind": "error", "type": v.type, "message": v.message}
    if isinstance(v, Warned):
        return {"kind": "warning", "type": v.type, "message": v.message}
    if isinstance(v, torch.dtype):
        return {"kind": "dtype", "value": str(v).replace("torch.", "")}
    if v is None:
        return {"kind": "none"}
    if isinstance(v, bool):
        return {"kind": "bool", "value": v}
    if isinstance(v, int):
        return {"kind": "int", "value": v}
    if isinstance(v, float):
        return {"kind": "float", "value": encode_floats(v)}
    if isinstance(v, str):
        return {"kind": "str", "value": v}
    if isinstance(v, tuple):  # torch.Size and namedtuples included
        return {"kind": "tuple", "items": [encode(x) for x in v]}
    if isinstance(v, list):
        return {"kind": "list", "items": [encode(x) for x in v]}
    raise TypeError(f"cannot record {type(v).__name__}: {v!r}")


CASES = []
LOOSE_MODES = {"first_line", "no_triggered_internally", "no_torch_autograd_prefix"}


def case(name, program, group="semantics", loose=(), exact=False):
    assert group in ("semantics", "api"), group
    assert set(loose) <= LOOSE_MODES, loose
    CASES.append({"name": name, "group": group, "loose": list(loose), "exact": exact,
                  "program": textwrap.dedent(program).strip() + "\n"})


# Why a case is loose (each use below names one of these):
# PREFIX: PyTorch's C++ node CopySlices (and AccumulateGrad) report name() as
#   "torch::autograd::CopySlices"; its error messages quote that name. The
#   "torch::autograd::" namespace is a C++ artefact, so the case accepts the
#   name with or without it (the JSON keeps PyTorch's text).
PREFIX = ["no_torch_autograd_prefix"]
# TRIGGERED: warnings raised from C++ end in " (Triggered internally at
#   /__w/pytorch/.../TensorBody.h:493.)", a path in PyTorch's build tree.
TRIGGERED = ["no_triggered_internally"]


# =========================================================================
# 1. Views and in-place ops: the view + version-counter design
# =========================================================================
case("view_inplace_base_then_view", """
    r = T.ones(3, requires_grad=True)
    x = r.clone()
    v = x[0:2]
    x.mul_(3)
    v.sum().backward()
    result = {'r.grad': r.grad, 'v': v, 'x._version': x._version, 'v._version': v._version,
              'v.grad_fn': v.grad_fn.name(), 'x.grad_fn': x.grad_fn.name(), 'v._base is x': v._base is x}
""")

case("view_inplace_column_slice_imul", """
    w = T.tensor([2.0], requires_grad=True)
    x = T.ones(3, 2)
    x[:, 0] *= w
    x.sum().backward()
    result = {'w.grad': w.grad, 'x': x, 'x.requires_grad': x.requires_grad, 'x.is_leaf': x.is_leaf,
              'x.grad_fn': x.grad_fn.name(), 'x._version': x._version}
""", loose=PREFIX)

case("view_inplace_view_then_base", """
    r = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x = r.clone()
    v = x[1:]
    v.mul_(2)
    (x * T.tensor([1.0, 10.0, 100.0])).sum().backward()
    result = {'r.grad': r.grad, 'x': x, 'v': v, 'x.grad_fn': x.grad_fn.name(),
              'x.grad_fn type': type(x.grad_fn).__name__, 'v.grad_fn': v.grad_fn.name(),
              'x._version': x._version, 'v._version': v._version}
""", loose=PREFIX)

# one case per view-making op: a tensor-valued in-place op on the view, then backward through the base
_VIEW_KINDS = [
    ("view_as", "x.view_as(T.zeros(3))"),
    ("view", "x.view(-1)"),
    ("reshape_alias", "x.reshape(3)"),
    ("t", "x.t()"),
    ("transpose", "x.transpose(0, 1)"),
    ("permute", "x.permute(1, 0)"),
    ("T", "x.T"),
    ("unsqueeze", "x.unsqueeze(0)"),
    ("squeeze", "x.squeeze(0)"),
    ("select_int", "x[0]"),
    ("ellipsis_slice", "x[..., 1:]"),
    ("nested_slices", "x[:, 1:][:, 1:]"),
]
for _kind, _expr in _VIEW_KINDS:
    case(f"view_inplace_through_{_kind}", f"""
        r = T.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
        w = T.tensor(2.0, requires_grad=True)
        x = r.clone()
        v = {_expr}
        before = v.grad_fn.name()
        v.mul_(w)
        (x * T.tensor([[1.0, 10.0, 100.0]])).sum().backward()
        result = {{'x': x, 'v': v, 'r.grad': r.grad, 'w.grad': w.grad, 'v.grad_fn before': before,
                  'v.grad_fn after': v.grad_fn.name(), 'x.grad_fn': x.grad_fn.name(),
                  'v._base is x': v._base is x, 'x._version': x._version, 'v._version': v._version}}
    """, loose=PREFIX)

case("view_inplace_view_of_view", """
    r = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    w = T.tensor([5.0], requires_grad=True)
    x = r.clone()
    v = x.view(3, 1)
    vv = v[1:]
    vv.mul_(w)
    names = [x.grad_fn.name(), v.grad_fn.name(), vv.grad_fn.name()]
    (x * T.tensor([1.0, 10.0, 100.0])).sum().backward()
    result = {'x': x, 'v': v, 'vv': vv, 'r.grad': r.grad, 'w.grad': w.grad, 'names': names,
              'versions': [x._version, v._version, vv._version], 'vv._base is x': vv._base is x}
""", loose=PREFIX)

case("view_inplace_backward_through_view_and_base", """
    r = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x = r.clone()
    v = x[:2]
    v.mul_(2)
    (v.sum() * 10.0 + (x * x).sum()).backward()
    result = {'r.grad': r.grad, 'x': x, 'v': v}
""")

case("view_inplace_old_values_kept", """
    r = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x = r.clone()
    v = x[:2]
    a = v * 1.0
    x.mul_(3)
    b = v.sum()
    (a.sum() + b * 10.0).backward()
    result = {'a': a, 'b': b, 'r.grad': r.grad}
""")

case("view_inplace_chain_view_base_view", """
    r = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x = r.clone()
    v = x[:2]
    v.mul_(2)
    x.add_(1)
    v.mul_(3)
    (x * T.tensor([1.0, 10.0, 100.0])).sum().backward()
    result = {'x': x, 'v': v, 'r.grad': r.grad, 'versions': [x._version, v._version]}
""")

case("view_inplace_copy_into_non_requiring_base", """
    w = T.tensor([2.0, 3.0], requires_grad=True)
    x = T.zeros(3)
    v = x[1:]
    v.copy_(w * 1.0)
    flags = {'x.requires_grad': x.requires_grad, 'x.is_leaf': x.is_leaf, 'v.requires_grad': v.requires_grad,
             'v.is_leaf': v.is_leaf, 'x.grad_fn': x.grad_fn.name(), 'v.grad_fn': v.grad_fn.name()}
    (x * T.tensor([1.0, 10.0, 100.0])).sum().backward()
    result = dict(flags, **{'x': x, 'w.grad': w.grad})
""", loose=PREFIX)

case("view_setitem_tensor_into_plain_tensor", """
    w = T.tensor([1.0, 2.0], requires_grad=True)
    x = T.zeros(2, 2)
    x[0] = w
    x[1, 1] = w[0] * 3.0
    (x * T.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
    result = {'x': x, 'w.grad': w.grad, 'x.grad_fn': x.grad_fn.name(), 'x._version': x._version}
""", loose=PREFIX)

case("view_setitem_on_graph_tensor", """
    r = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    w = T.tensor(4.0, requires_grad=True)
    y = r * 1.0
    y[1] = w * 2.0
    (y * y).sum().backward()
    result = {'y': y, 'r.grad': r.grad, 'w.grad': w.grad}
""")

case("view_augmented_setitem_version", """
    r = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    w = T.tensor(0.5, requires_grad=True)
    x = r.clone()
    x[0] += w
    version = x._version
    (x * T.tensor([1.0, 10.0, 100.0])).sum().backward()
    result = {'x': x, 'x._version': version, 'r.grad': r.grad, 'w.grad': w.grad}
""")

case("view_base_identity", """
    r = T.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    x = r.clone()
    v = x[1:]
    result = {
        'slice': v._base is x,
        'slice of slice is root': v[:, 1:]._base is x,
        'slice of slice not middle': v[:, 1:]._base is v,
        'view of slice': v.view(3)._base is x,
        'view_as': x.view_as(x)._base is x,
        't': x.t()._base is x,
        'select': x[0]._base is x,
        'expand': x[0:1].expand(4, 3)._base is x,
        'leaf slice': r[0]._base is r,
        'base has no base': x._base is None,
        'detach has no base': x.detach()._base is None,
        'data has no base': x.data._base is None,
        'reshape copy has no base': x.t().reshape(6)._base is None,
        'clone has no base': v.clone()._base is None,
    }
""")

case("view_version_counter_shared", """
    x = T.zeros(4)
    v = x[1:]
    vv = v[0:2]
    d = x.detach()
    seen = []
    def note():
        seen.append((x._version, v._version, vv._version, d._version))
    note()
    v.add_(1.0); note()
    x.mul_(2.0); note()
    vv.zero_(); note()
    d.fill_(3.0); note()
    x[0] = 5.0; note()
    x[0] += 1.0; note()
    with T.no_grad():
        v.mul_(2.0)
    note()
    x.data.add_(1.0); note()
    x.requires_grad_(); note()
    result = {'versions': seen, 'x': x}
""")

case("view_version_of_ops", """
    x = T.zeros(3)
    seen = [x._version]
    x.add_(1.0).mul_(2.0); seen.append(x._version)
    x += 1.0; seen.append(x._version)
    x.copy_(T.ones(3)); seen.append(x._version)
    x.zero_(); seen.append(x._version)
    y = x + 1.0; seen.append((x._version, y._version))
    x.clamp_(0.0, 1.0); seen.append(x._version)
    result = {'versions': seen}
""")

case("view_flags_of_views", """
    r = T.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    p = T.tensor([[1.0, 2.0], [3.0, 4.0]])
    out = {}
    for label, v in [('leaf slice', r[0:1]), ('leaf select', r[1]), ('leaf view', r.view(4)),
                     ('leaf t', r.t()), ('leaf detach', r.detach()), ('plain slice', p[0:1]),
                     ('plain t', p.t())]:
        out[label] = [v.is_leaf, v.requires_grad, None if v.grad_fn is None else v.grad_fn.name()]
    result = out
""")

case("view_grad_fn_names_after_base_inplace", """
    r = T.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    x = r.clone()
    a = x[1:]
    b = x.view(2, 2)
    c = b.t()
    before = [a.grad_fn.name(), b.grad_fn.name(), c.grad_fn.name()]
    x.mul_(2.0)
    after = [x.grad_fn.name(), a.grad_fn.name(), b.grad_fn.name(), c.grad_fn.name()]
    (c * T.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
    result = {'before': before, 'after': after, 'r.grad': r.grad, 'c': c}
""")

case("view_inplace_view_created_in_no_grad", """
    r = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x = r.clone()
    with T.no_grad():
        v = x[0:2]
    flags = [v.requires_grad, v.is_leaf]
    err = catch(lambda: v.mul_(2.0))
    result = {'flags': flags, 'err': err, 'x._version': x._version}
""")

case("view_inplace_both_in_no_grad", """
    r = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with T.no_grad():
        v = r[0:2]
        v.mul_(2.0)
        r[2] = 7.0
    y = (r * r).sum()
    y.backward()
    result = {'r': r, 'r._version': r._version, 'r.is_leaf': r.is_leaf, 'r.grad_fn': r.grad_fn,
              'r.grad': r.grad, 'v.requires_grad': v.requires_grad}
""")

case("view_inplace_on_leaf_errors", """
    l = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    def set_item():
        l[0] = 5.0
    def iadd():
        l[1:] += 1.0
    result = {
        'leaf mul_': catch(lambda: l.mul_(2.0)),
        'leaf view mul_': catch(lambda: l[0:2].mul_(2.0)),
        'leaf setitem': catch(set_item),
        'leaf view iadd': catch(iadd),
        'leaf t add_': catch(lambda: l.view(3, 1).t().add_(1.0)),
        'versions': l._version,
        'l': l,
    }
""")

case("view_made_before_requires_grad", """
    b = T.ones(3)
    bv = b[:2]
    b.requires_grad = True
    flags = [bv.requires_grad, bv.is_leaf, bv.grad_fn]
    err = catch(lambda: bv.mul_(2.0))
    result = {'flags': flags, 'err': err, 'b._version': b._version}
""")

case("view_expand_inplace_error", """
    x = T.tensor([1.0, 2.0], requires_grad=True).clone()
    e = x.expand(3, 2)
    result = {'e._base is x': e._base is x, 'err': catch(lambda: e.add_(1.0)), 'x': x}
""")

case("view_reshape_copy_is_not_a_view", """
    r = T.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    x = r.clone()
    v = x.t().reshape(4)
    name = v.grad_fn.name()
    v.mul_(2.0)
    (x.sum() + v.sum()).backward()
    result = {'name': name, 'x': x, 'v': v, 'x._version': x._version, 'v._version': v._version,
              'x.grad_fn': x.grad_fn.name(), 'r.grad': r.grad}
""")

case("view_detach_inplace_on_view_error", """
    r = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x = r.clone()
    v = x[1:]
    err = catch(lambda: v.detach_())
    y = r * 2.0
    y.detach_()
    result = {'err': err, 'v.requires_grad': v.requires_grad,
              'y': [y.requires_grad, y.is_leaf, y.grad_fn]}
""")

case("view_retain_grad_then_inplace", """
    r = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = r * 2.0
    y.retain_grad()
    y.mul_(3.0)
    (y * y).sum().backward()
    result = {'y.grad': y.grad, 'r.grad': r.grad, 'retains': y.retains_grad, 'y.grad_fn': y.grad_fn.name()}
""")

case("view_retain_grad_after_inplace", """
    r = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = r * 2.0
    y.mul_(3.0)
    y.retain_grad()
    (y * y).sum().backward()
    result = {'y.grad': y.grad, 'r.grad': r.grad}
""")

case("view_retain_grad_on_view_then_base_inplace", """
    r = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x = r.clone()
    v = x[:2]
    v.retain_grad()
    x.mul_(2.0)
    (v * T.tensor([1.0, 10.0])).sum().backward()
    result = {'v.grad': v.grad, 'r.grad': r.grad}
""")

case("view_retain_grad_on_base_then_view_inplace", """
    r = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x = r.clone()
    x.retain_grad()
    v = x[:2]
    v.mul_(2.0)
    (x * T.tensor([1.0, 10.0, 100.0])).sum().backward()
    result = {'x.grad': x.grad, 'r.grad': r.grad}
""")

case("view_hook_then_inplace", """
    r = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    seen = []
    y = r * 2.0
    y.register_hook(lambda g: seen.append(g.clone()))
    y.mul_(3.0)
    (y * y).sum().backward()
    first = r.grad.clone()
    r.grad = None
    z = r * 2.0
    z.register_hook(lambda g: g * 10.0)
    z.mul_(3.0)
    (z * z).sum().backward()
    result = {'seen': seen, 'first': first, 'scaled': r.grad}
""")

case("view_hook_on_view_then_base_inplace", """
    r = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    seen = []
    x = r.clone()
    v = x[:2]
    v.register_hook(lambda g: seen.append(('v', g.clone())))
    x.mul_(2.0)
    (v * T.tensor([1.0, 10.0])).sum().backward()
    result = {'seen': seen, 'r.grad': r.grad, 'v.grad_fn': v.grad_fn.name()}
""")

case("view_hook_on_base_then_view_inplace", """
    r = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    seen = []
    x = r.clone()
    v = x[:2]
    x.register_hook(lambda g: seen.append(('x', g.clone())))
    v.register_hook(lambda g: seen.append(('v', g.clone())))
    v.mul_(2.0)
    (x * T.tensor([1.0, 10.0, 100.0])).sum().backward()
    result = {'seen': seen, 'r.grad': r.grad}
""")

case("view_hook_registered_after_inplace", """
    r = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    seen = []
    x = r.clone()
    v = x[:2]
    v.mul_(2.0)
    v.register_hook(lambda g: seen.append(('v', g.clone())))
    x.register_hook(lambda g: seen.append(('x', g.clone())))
    (x * T.tensor([1.0, 10.0, 100.0])).sum().backward()
    result = {'seen': seen, 'r.grad': r.grad}
""")

case("view_saved_view_modified_through_base", """
    r = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x = r.clone()
    v = x[:2]
    z = v * v
    x.add_(1.0)
    result = {'err': catch(lambda: z.sum().backward()), 'v._version': v._version}
""")

case("view_saved_base_modified_through_view", """
    r = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x = r.clone()
    z = x.sin()
    x[0] = 5.0
    result = {'err': catch(lambda: z.sum().backward())}
""", loose=PREFIX)

case("view_saved_output_modified", """
    r = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    z = (r * 1.0).sigmoid()
    z.mul_(2.0)
    result = {'err': catch(lambda: z.sum().backward())}
""")

case("view_saved_input_augmented_assign", """
    r = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x = r.clone()
    z = x.sin()
    x += 1.0
    result = {'err': catch(lambda: z.sum().backward())}
""")

case("view_saved_float32_matrix_message", """
    r = T.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=T.float32, requires_grad=True)
    x = r.clone()
    z = x.cos()
    x.zero_()
    result = {'err': catch(lambda: z.sum().backward())}
""")

case("view_saved_modified_through_detach", """
    r = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x = r.clone()
    z = x.sin()
    x.detach().zero_()
    result = {'err': catch(lambda: z.sum().backward()), 'x._version': x._version}
""")

case("view_saved_output_not_checked_for_input_change", """
    r = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x = r.clone()
    z = x.exp()
    x.zero_()
    z.sum().backward()
    result = {'r.grad': r.grad, 'z': z}
""")

case("view_data_inplace_not_tracked", """
    r = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x = r.clone()
    z = x.sin()
    x.data.zero_()
    z.sum().backward()
    result = {'r.grad': r.grad, 'x._version': x._version}
""")

# =========================================================================
# 2. Backward core
# =========================================================================
case("roots_dependent", """
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2.0
    z = y * 3.0
    T.backward([y, z], [T.ones(2), T.ones(2)])
    result = {'x.grad': x.grad}
""")

case("roots_dependent_weighted", """
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x * x
    z = y.sum() * 3.0
    T.backward([z, y], [T.tensor(2.0), T.tensor([1.0, -1.0])])
    result = {'x.grad': x.grad}
""")

case("roots_duplicate", """
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2.0
    T.backward([y, y], [T.ones(2), T.tensor([1.0, 3.0])], retain_graph=True)
    g = T.grad([y, y], x, [T.ones(2), T.tensor([1.0, 3.0])])
    result = {'x.grad': x.grad, 'g': g}
""")

case("roots_are_leaves", """
    x = T.tensor([1.0, 2.0], requires_grad=True)
    T.backward([x], [T.tensor([1.0, 3.0])])
    first = x.grad.clone()
    x.backward(T.tensor([5.0, 6.0]))
    g = T.grad(x, x, T.tensor([7.0, 8.0]))
    s = T.tensor(2.0, requires_grad=True)
    s.backward()
    result = {'first': first, 'x.grad': x.grad, 'g': g, 's.grad': s.grad}
""")

case("roots_leaf_and_nonleaf", """
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3.0
    T.backward([x, y], [T.tensor([1.0, 1.0]), T.tensor([1.0, 2.0])])
    result = {'x.grad': x.grad}
""")

case("grad_unused_input_error", """
    x = T.tensor([1.0, 2.0], requires_grad=True)
    u = T.tensor([3.0, 4.0], requires_grad=True)
    y = (x * 2.0).sum()
    z = (x * 3.0).sum()
    result = {'err': catch(lambda: T.grad(y, [x, u])),
              'err first': catch(lambda: T.grad(z, [u, x]))}
""")

case("grad_unused_input_allowed", """
    x = T.tensor([1.0, 2.0], requires_grad=True)
    u = T.tensor([3.0, 4.0], requires_grad=True)
    y = (x * 2.0).sum()
    result = {'g': T.grad(y, [x, u], allow_unused=True)}
""")

case("grad_input_not_requiring_grad", """
    x = T.tensor([1.0, 2.0], requires_grad=True)
    p = T.tensor([3.0, 4.0])
    y = (x * p).sum()
    result = {'err': catch(lambda: T.grad(y, [x, p])),
              'err allow_unused': catch(lambda: T.grad(y, [x, p], allow_unused=True))}
""")

case("backward_inputs_unused_leaf", """
    x = T.tensor([1.0, 2.0], requires_grad=True)
    w = T.tensor([1.0, 1.0], requires_grad=True)
    y = (x * 2.0).sum()
    y.backward(inputs=[w])
    result = {'w.grad': w.grad, 'x.grad': x.grad}
""")

case("backward_inputs_errors", """
    x = T.tensor([1.0, 2.0], requires_grad=True)
    result = {'empty': catch(lambda: (x * 2.0).sum().backward(inputs=[])),
              'not requiring grad': catch(lambda: (x * 2.0).sum().backward(inputs=[T.ones(2)]))}
""")

case("backward_inputs_nonleaf_accumulates", """
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    h = x * x
    y = (h * 2.0).sum()
    y.backward(inputs=[h], retain_graph=True)
    first = h.grad.clone()
    y.backward(inputs=[h, x])
    result = {'first': first, 'h.grad': h.grad, 'x.grad': x.grad, 'h.retains_grad': h.retains_grad}
""")

case("backward_inputs_single_tensor", """
    x = T.tensor([1.0, 2.0], requires_grad=True)
    w = T.tensor(3.0, requires_grad=True)
    (x * w).sum().backward(inputs=x)
    T.backward((x * w).sum(), inputs=w)
    result = {'x.grad': x.grad, 'w.grad': w.grad}
""")

case("second_backward_through_index", """
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    s = x[[0, 2]].sum()
    s.backward()
    result = {'err': catch(lambda: s.backward()), 'x.grad': x.grad}
""")

case("second_backward_through_index_put", """
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    w = T.tensor([5.0, 6.0], requires_grad=True)
    y = x.clone()
    y[T.tensor([0, 2])] = w
    s = y.sum()
    s.backward()
    result = {'name': y.grad_fn.name(), 'err': catch(lambda: s.backward()), 'x.grad': x.grad, 'w.grad': w.grad}
""")

case("second_backward_through_mul_by_scalar", """
    x = T.tensor([1.0, 2.0], requires_grad=True)
    s = (x * 2.0).sum()
    s.backward()
    result = {'err': catch(lambda: s.backward()), 'x.grad': x.grad}
""")

case("second_backward_nothing_saved", """
    x = T.tensor([1.0, 2.0], requires_grad=True)
    s = (x + 1.0).sum()
    s.backward()
    again = catch(lambda: s.backward())
    result = {'again': again, 'x.grad': x.grad}
""")

case("second_grad_without_retain", """
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    g1 = T.grad(y, x)
    result = {'g1': g1, 'err': catch(lambda: T.grad(y, x))}
""")

case("retain_graph_accumulates", """
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward(retain_graph=True)
    first = x.grad.clone()
    y.backward(retain_graph=True)
    second = x.grad.clone()
    y.backward()
    result = {'first': first, 'second': second, 'third': x.grad, 'again': catch(lambda: y.backward())}
""")

case("create_graph_retains_graph", """
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = (x ** 3).sum()
    g, = T.grad(y, x, create_graph=True)
    again, = T.grad(y, x)
    result = {'g': g, 'again': again, 'repr g': repr(g)}
""")

case("grad_of_non_requiring_output", """
    x = T.tensor([1.0, 2.0], requires_grad=True)
    c = T.ones(2).sum()
    result = {'grad': catch(lambda: T.grad(c, x)),
              'grad second': catch(lambda: T.grad([x.sum(), c], x)),
              'backward': catch(lambda: c.backward()),
              'module backward': catch(lambda: T.backward([x.sum(), c]))}
""")

case("backward_nonscalar_without_gradient", """
    x = T.tensor([1.0, 2.0], requires_grad=True)
    result = {'backward': catch(lambda: (x * 2.0).backward()),
              'grad': catch(lambda: T.grad(x * 2.0, x)),
              'module backward, None weight': catch(lambda: T.backward([x * 2.0], [None]))}
""")

case("grad_outputs_shape_mismatch", """
    x = T.tensor([1.0, 2.0], requires_grad=True)
    result = {'grad': catch(lambda: T.grad(x.sum(), x, T.ones(2))),
              'backward': catch(lambda: (x * 2.0).backward(T.ones(3)))}
""")

case("backward_count_mismatch", """
    x = T.tensor([1.0, 2.0], requires_grad=True)
    result = {'err': catch(lambda: T.backward([x * 2.0, x * 3.0], [T.ones(2)]))}
""")

case("grad_does_not_touch_dot_grad", """
    x = T.tensor([1.0, 2.0], requires_grad=True)
    h = x * 3.0
    h.retain_grad()
    g = T.grad((h * h).sum(), [x, h])
    result = {'g': g, 'x.grad': x.grad, 'h.grad': h.grad}
""")

case("grad_outputs_none_entries", """
    x = T.tensor([1.0, 2.0], requires_grad=True)
    a = (x * x).sum()
    b = x * 3.0
    g = T.grad([a, b], x, grad_outputs=[None, T.tensor([1.0, -1.0])])
    result = {'g': g}
""")

case("grad_nonleaf_input", """
    x = T.tensor([1.0, 2.0], requires_grad=True)
    h = x * 2.0
    y = (h ** 2).sum()
    gh, gx = T.grad(y, [h, x])
    result = {'gh': gh, 'gx': gx}
""")

case("backward_accumulates_across_calls", """
    x = T.tensor([1.0, 2.0], requires_grad=True)
    (x * x).sum().backward()
    (x * 3.0).sum().backward()
    first = x.grad.clone()
    x.grad.zero_()
    (x ** 3).sum().backward()
    result = {'first': first, 'x.grad': x.grad}
""")

# =========================================================================
# 3. dtypes of gradients; .data / .grad assignment
# =========================================================================
case("dtype_cast_before_accumulation", """
    a = T.tensor([1.0, 1.0, 1.0], dtype=T.float32, requires_grad=True)
    b1 = T.tensor([-0.982, -0.907, -0.638])
    b2 = T.tensor([0.91, -0.607, 0.511])
    ((a * b1) + (a * b2)).sum().backward()
    result = {'a.grad': a.grad}
""", exact=True)

case("dtype_cast_before_expand_reduction", """
    a = T.tensor([1.0], dtype=T.float32, requires_grad=True)
    b = T.tensor([-0.524, 0.088, -0.26, 0.208])
    (a.expand(4) * b).sum().backward()
    result = {'a.grad': a.grad}
""", exact=True)

case("dtype_broadcast_reduced_then_cast", """
    a = T.tensor([1.0], dtype=T.float32, requires_grad=True)
    b = T.tensor([-0.524, 0.088, -0.26, 0.208])
    (a * b).sum().backward()
    result = {'a.grad': a.grad, 'y dtype': (a * b).dtype}
""", exact=True)

case("dtype_cast_through_double", """
    a = T.tensor([0.1, 0.2, 0.3], dtype=T.float32, requires_grad=True)
    b = T.tensor([1.0 / 3.0, 2.0 / 3.0, 1.0 / 7.0])
    y = a.double() * b
    y.sum().backward()
    result = {'a.grad': a.grad, 'y': y, 'name': y.grad_fn.next_functions[0][0].name()}
""", exact=True)

case("dtype_mixed_graph_values", """
    a = T.tensor([0.1, 0.7, -1.3], dtype=T.float32, requires_grad=True)
    b = T.tensor([2.0, -0.5, 0.25], requires_grad=True)
    y = (a.exp() * b).sum() + (a * a).sum()
    y.backward()
    result = {'y': y, 'a.grad': a.grad, 'b.grad': b.grad}
""", exact=True)

case("dtype_grad_output_cast", """
    xf = T.tensor([1.0, 2.0], dtype=T.float32, requires_grad=True)
    x = T.tensor([1.0, 2.0], requires_grad=True)
    result = {'f32 with f64 weight': T.grad((xf * 2.0).sum(), xf, T.tensor(1.0)),
              'f64 with f32 weight': T.grad((x * 2.0).sum(), x, T.tensor(1.0, dtype=T.float32))}
""")

case("data_assign_other_dtype_and_shape", """
    a = T.ones(3, requires_grad=True)
    a.data = T.zeros(2, 2, dtype=T.float32)
    flags = [a.requires_grad, a.is_leaf, a.dtype, list(a.shape), a._version]
    (a * 2.0).sum().backward()
    result = {'flags': flags, 'a.grad': a.grad, 'a': a}
""")

case("data_assign_keeps_graph_of_old", """
    a = T.tensor([1.0, 2.0], requires_grad=True)
    y = (a * a).sum()
    a.data = T.tensor([10.0, 20.0])
    y.backward()
    result = {'a.grad': a.grad, 'a': a}
""")

case("grad_assign_checks", """
    a = T.ones(3, requires_grad=True)
    def assign(v):
        a.grad = v
    result = {
        'self': catch(lambda: assign(a)),
        'dtype': catch(lambda: assign(T.ones(3, dtype=T.float32))),
        'int dtype': catch(lambda: assign(T.ones(3, dtype=T.int64))),
        'shape': catch(lambda: assign(T.ones(2))),
        'not a tensor': catch(lambda: assign([1.0, 2.0, 3.0])),
        'ok': catch(lambda: assign(T.tensor([1.0, 2.0, 3.0]))),
        'a.grad': a.grad,
    }
""")

case("grad_assign_then_accumulate", """
    a = T.tensor([1.0, 2.0], requires_grad=True)
    a.grad = T.tensor([10.0, 20.0])
    (a * a).sum().backward()
    result = {'a.grad': a.grad}
""")

case("requires_grad_integer_errors", """
    b = T.ones(3, dtype=T.int64)
    def set_flag():
        b.requires_grad = True
    result = {'setter': catch(set_flag),
              'method': catch(lambda: b.requires_grad_()),
              'factory': catch(lambda: T.ones(3, dtype=T.int64, requires_grad=True))}
""")

case("requires_grad_of_nonleaf_errors", """
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2.0
    def set_flag():
        y.requires_grad = False
    result = {'err': catch(set_flag), 'ok': catch(lambda: y.requires_grad_(True).requires_grad)}
""")

case("nonleaf_grad_warning", """
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2.0
    w_nonleaf = warns(lambda: y.grad)
    w_leaf = warns(lambda: x.grad)
    y.retain_grad()
    w_retained = warns(lambda: y.grad)
    result = {'nonleaf': w_nonleaf, 'leaf': w_leaf, 'retained': w_retained}
""", loose=TRIGGERED)

# =========================================================================
# 4. Graph structure and printing
# =========================================================================
case("next_functions_scalar_on_left", """
    b = T.tensor(1.0, requires_grad=True)
    def names(t):
        return [None if n is None else type(n).__name__ for n, _ in t.grad_fn.next_functions]
    result = {'2*b': names(2 * b), 'b*2': names(b * 2), '2+b': names(2 + b), '2-b': names(2 - b),
              '2/b': names(2 / b), '2**b': names(2 ** b), 'b/2': names(b / 2),
              'name 2*b': (2 * b).grad_fn.name(), 'name 2-b': (2 - b).grad_fn.name(),
              'name 2/b': (2 / b).grad_fn.name()}
""")

case("next_functions_non_requiring_operand", """
    b = T.tensor(1.0, requires_grad=True)
    c = T.tensor(3.0)
    def names(t):
        return [None if n is None else type(n).__name__ for n, _ in t.grad_fn.next_functions]
    result = {'b+c': names(b + c), 'c*b': names(c * b), 'c-b': names(c - b),
              'indices': [i for _, i in (c * b).grad_fn.next_functions]}
""")

case("next_functions_tutorial_walk", """
    x = T.ones(2, 2, requires_grad=True)
    y = x + 2
    z = y * y * 3
    out = z.mean()
    walk = []
    node = out.grad_fn
    while node is not None:
        walk.append(type(node).__name__)
        node = node.next_functions[0][0] if node.next_functions else None
    result = {'walk': walk, 'names': [out.grad_fn.name(), out.grad_fn.next_functions[0][0].name(),
                                      out.grad_fn.next_functions[0][0].next_functions[0][0].name()],
              'leaf node variable is x': out.grad_fn.next_functions[0][0].next_functions[0][0]
                  .next_functions[0][0].next_functions[0][0].variable is x}
""")

case("next_functions_accumulate_grad_name", """
    x = T.tensor(1.0, requires_grad=True)
    node = (x * 2.0).grad_fn.next_functions[0][0]
    result = {'name': node.name(), 'type': type(node).__name__, 'next': node.next_functions}
""", loose=PREFIX)

case("next_functions_shared_accumulate_grad", """
    x = T.tensor(1.0, requires_grad=True)
    a = x * 2.0
    b = x + 1.0
    result = {'same node': a.grad_fn.next_functions[0][0] is b.grad_fn.next_functions[0][0]}
""")

case("higher_order_keeps_graph", """
    x = T.tensor(3.0, requires_grad=True)
    g1, = T.grad(x ** 2, x, create_graph=True)
    g2, = T.grad(g1, x, create_graph=True)
    g3, = T.grad(g2, x)
    result = {'g1': repr(g1), 'g2': repr(g2), 'g3': repr(g3), 'g3 value': g3,
              'g2.requires_grad': g2.requires_grad, 'g3.requires_grad': g3.requires_grad,
              'g1 name': g1.grad_fn.name(), 'g2 name': g2.grad_fn.name()}
""")

case("higher_order_third_with_create_graph", """
    x = T.tensor(3.0, requires_grad=True)
    g1, = T.grad(x ** 3, x, create_graph=True)
    g2, = T.grad(g1, x, create_graph=True)
    g3, = T.grad(g2, x, create_graph=True)
    g4, = T.grad(g3, x, allow_unused=True, create_graph=True)
    result = {'reprs': [repr(g1), repr(g2), repr(g3)], 'g4': g4,
              'g4 requires_grad': None if g4 is None else g4.requires_grad}
""")

case("materialize_grads_unused_create_graph", """
    x = T.tensor([1.0, 2.0], requires_grad=True)
    w = T.ones(2, requires_grad=True)
    gx, gw = T.grad((x * x).sum(), [x, w], allow_unused=True, materialize_grads=True, create_graph=True)
    result = {'gx': gx, 'gw': gw, 'reprs': [repr(gx), repr(gw)],
              'requires_grad': [gx.requires_grad, gw.requires_grad], 'gw.grad_fn': gw.grad_fn}
""")

case("materialize_grads_without_create_graph", """
    x = T.tensor([1.0, 2.0], requires_grad=True)
    w = T.ones(2, requires_grad=True)
    gx, gw = T.grad((x * x).sum(), [x, w], materialize_grads=True)
    result = {'gx': gx, 'gw': gw, 'requires_grad': [gx.requires_grad, gw.requires_grad]}
""")

case("materialize_grads_with_allow_unused_false", """
    x = T.tensor([1.0, 2.0], requires_grad=True)
    w = T.ones(2, requires_grad=True)
    result = {'err': catch(lambda: T.grad((x * x).sum(), [x, w], allow_unused=False, materialize_grads=True))}
""")

case("backward_create_graph_grad_repr", """
    x = T.tensor([1.0, 2.0], requires_grad=True)
    (x ** 3).sum().backward(create_graph=True)
    result = {'repr': repr(x.grad), 'name': x.grad.grad_fn.name()}
""")

# =========================================================================
# 5. Grad mode
# =========================================================================
case("grad_mode_context_managers", """
    x = T.tensor([1.0, 2.0], requires_grad=True)
    seen = {}
    with T.no_grad():
        y = x * 2.0
        seen['no_grad'] = [T.is_grad_enabled(), y.requires_grad, y.is_leaf, y.grad_fn]
        with T.enable_grad():
            z = x * 2.0
            seen['enable inside no_grad'] = [T.is_grad_enabled(), z.requires_grad, z.grad_fn.name()]
        seen['back in no_grad'] = T.is_grad_enabled()
    with T.set_grad_enabled(False):
        seen['set False'] = [T.is_grad_enabled(), (x * 2.0).requires_grad]
    with T.set_grad_enabled(True):
        seen['set True'] = [T.is_grad_enabled(), (x * 2.0).requires_grad]
    seen['after'] = T.is_grad_enabled()
    result = seen
""")

case("grad_mode_decorators", """
    x = T.tensor([1.0, 2.0], requires_grad=True)
    def probe():
        return [T.is_grad_enabled(), (x * 2.0).requires_grad]
    @T.no_grad()
    def a():
        return probe()
    @T.enable_grad()
    def c():
        return probe()
    @T.set_grad_enabled(False)
    def e():
        return probe()
    wrapped = T.no_grad()(probe)
    out = {'no_grad()': a(), 'no_grad()(fn)': wrapped(), 'set_grad_enabled(False)': e(),
           'after': T.is_grad_enabled()}
    with T.no_grad():
        out['enable_grad() in no_grad'] = c()
    out['names'] = [a.__name__, wrapped.__name__, e.__name__]
    result = out
""")

case("grad_mode_decorators_without_parentheses", """
    x = T.tensor([1.0, 2.0], requires_grad=True)
    def probe():
        return [T.is_grad_enabled(), (x * 2.0).requires_grad]
    @T.no_grad
    def b():
        return probe()
    @T.enable_grad
    def d():
        return probe()
    out = {'no_grad': b(), 'after': T.is_grad_enabled()}
    with T.no_grad():
        out['enable_grad in no_grad'] = d()
    out['names'] = [b.__name__, d.__name__]
    result = out
""")

case("grad_mode_set_grad_enabled_as_function", """
    x = T.tensor([1.0, 2.0], requires_grad=True)
    T.set_grad_enabled(False)
    off = [T.is_grad_enabled(), (x * 2.0).requires_grad]
    T.set_grad_enabled(True)
    on = [T.is_grad_enabled(), (x * 2.0).requires_grad]
    with T.set_grad_enabled(False) as v:
        inside = T.is_grad_enabled()
    with T.no_grad() as u:
        pass
    result = {'off': off, 'on': on, 'inside': inside, 'as value': v, 'no_grad as value': u}
""")

case("grad_mode_generator_functions", """
    x = T.tensor([1.0, 2.0], requires_grad=True)
    @T.no_grad()
    def gen():
        yield T.is_grad_enabled()
        yield (x * 2.0).requires_grad
    @T.enable_grad()
    def gen3():
        yield T.is_grad_enabled()
    it = gen()
    first = next(it)
    between = T.is_grad_enabled()
    second = next(it)
    with T.no_grad():
        it3 = gen3()
        c = next(it3)
        c_outside = T.is_grad_enabled()
    result = {'first': first, 'between': between, 'second': second,
              'gen3 in no_grad': [c, c_outside], 'after': T.is_grad_enabled()}
""")

case("grad_mode_generator_bare_decorator", """
    x = T.tensor([1.0, 2.0], requires_grad=True)
    @T.no_grad
    def gen2():
        yield T.is_grad_enabled()
        yield T.is_grad_enabled()
    it2 = gen2()
    a = next(it2)
    mid = (x * 2.0).requires_grad
    b = next(it2)
    result = {'gen2': [a, mid, b], 'after': T.is_grad_enabled()}
""")

case("grad_mode_factory_requires_grad_in_no_grad", """
    with T.no_grad():
        x = T.ones(2, requires_grad=True)
        y = T.tensor([1.0, 2.0], requires_grad=True)
        z = x * y
    result = {'x': [x.requires_grad, x.is_leaf], 'y': [y.requires_grad, y.is_leaf],
              'z': [z.requires_grad, z.is_leaf]}
""")

case("grad_mode_no_grad_inplace_on_leaf", """
    x = T.tensor([1.0, 2.0], requires_grad=True)
    with T.no_grad():
        x.mul_(3.0)
        x += 1.0
    (x * x).sum().backward()
    result = {'x': x, 'x.grad': x.grad, 'leaf': x.is_leaf, 'version': x._version}
""")

case("grad_mode_exception_restores", """
    def boom():
        with T.no_grad():
            raise ValueError('boom')
    err = catch(boom)
    @T.no_grad()
    def boom2():
        raise KeyError('k')
    err2 = catch(boom2)
    result = {'err': err, 'err2': err2, 'enabled': T.is_grad_enabled()}
""")

# ---------------------------------------------------------------- reductions of NaN input
case("nan_reductions_all_nan", """
    out = {}
    for name in ['max', 'min', 'amax', 'amin', 'sum', 'mean', 'prod']:
        x = T.tensor([float('nan'), float('nan'), float('nan')], requires_grad=True)
        y = getattr(x, name)()
        y.backward()
        out[name] = [y, y.grad_fn.name(), x.grad]
    result = out
""")

case("nan_reductions_some_nan", """
    out = {}
    for name in ['max', 'min', 'amax', 'amin', 'sum', 'mean']:
        x = T.tensor([1.0, float('nan'), 3.0, float('nan')], requires_grad=True)
        y = getattr(x, name)()
        y.backward()
        out[name] = [y, x.grad]
    result = out
""")

case("nan_reductions_max_dim", """
    x = T.tensor([[1.0, float('nan')], [2.0, 0.5]], requires_grad=True)
    m = x.max(dim=1)
    m.values.sum().backward()
    y = T.tensor([[float('nan'), float('nan')], [2.0, 0.5]], requires_grad=True)
    n = y.min(dim=1)
    n.values.sum().backward()
    result = {'values': m.values, 'indices': m.indices, 'x.grad': x.grad,
              'all-nan row values': n.values, 'all-nan row indices': n.indices, 'y.grad': y.grad}
""")

# =========================================================================
# 7. gradcheck / gradgradcheck
# =========================================================================
# WRONG_BACKWARD_LINES: for a wrong backward PyTorch's message goes on, after its
#   first line, with both Jacobians printed from the finite-difference run
#   (whose last digits depend on evaluation order); the brief asks for the first line.
WRONG_BACKWARD_LINES = ["first_line"]

case("gradcheck_true", """
    x = T.tensor([0.5, -1.0, 2.0], requires_grad=True)
    y = T.tensor([[1.0, 2.0], [0.5, -0.5]], requires_grad=True)
    result = {'tuple': T.gradcheck(lambda t: t.sin() * t, (x,)),
              'bare tensor': T.gradcheck(lambda t: t.exp(), x),
              'list': T.gradcheck(lambda a, b: (a.sum() * b).tanh(), [x, y]),
              'two outputs': T.gradcheck(lambda a: (a * 2.0, a.sum()), (x,)),
              'non-requiring input': T.gradcheck(lambda a, b: a * b, (x, T.tensor([1.0, 2.0, 3.0])))}
""")

case("gradcheck_signature", """
    x = T.tensor([0.5, -1.0, 2.0], requires_grad=True)
    f = lambda t: t.sin() * t
    # each call caught, so that one keyword the engine lacks does not hide the others
    result = {
        'all keywords': catch(lambda: T.gradcheck(f, (x,), eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True,
                                                  fast_mode=False, check_undefined_grad=True, nondet_tol=0.0)),
        'positional': catch(lambda: T.gradcheck(f, (x,), 1e-6, 1e-5, 1e-3)),
        'fast_mode': catch(lambda: T.gradcheck(f, (x,), fast_mode=True)),
        'check_undefined_grad': catch(lambda: T.gradcheck(f, (x,), check_undefined_grad=False)),
        'nondet_tol': catch(lambda: T.gradcheck(f, (x,), nondet_tol=1e-12)),
        'eps 1e-3': catch(lambda: T.gradcheck(f, (x,), eps=1e-3)),
        'gradgradcheck keywords': catch(lambda: T.gradgradcheck(f, (x,), eps=1e-6, atol=1e-5, rtol=1e-3,
                                                                raise_exception=True, fast_mode=False,
                                                                nondet_tol=0.0)),
        'gradgradcheck fast_mode': catch(lambda: T.gradgradcheck(f, (x,), fast_mode=True)),
    }
""")

case("gradcheck_error_is_runtime_error", """
    result = {'subclass': issubclass(T.GradcheckError, RuntimeError),
              'name': T.GradcheckError.__name__}
""")

case("gradcheck_wrong_backward", """
    def bad(t):
        y = t * 1.0
        y.register_hook(lambda g: g * 2)
        return y.sin()
    x = T.tensor([0.5, -1.0, 2.0], requires_grad=True)
    result = {'err': catch(lambda: T.gradcheck(bad, (x,))),
              'no raise': T.gradcheck(bad, (x,), raise_exception=False)}
""", loose=WRONG_BACKWARD_LINES)

case("gradcheck_wrong_backward_fast_mode", """
    def bad(t):
        y = t * 1.0
        y.register_hook(lambda g: g * 2)
        return y.sin()
    x = T.tensor([0.5, -1.0, 2.0], requires_grad=True)
    result = {'err': catch(lambda: T.gradcheck(bad, (x,), fast_mode=True)),
              'no raise': T.gradcheck(bad, (x,), fast_mode=True, raise_exception=False)}
""", loose=WRONG_BACKWARD_LINES)

case("gradgradcheck_wrong_backward", """
    def bad(t):
        y = t * 1.0
        y.register_hook(lambda g: g * 2)
        return y.sin()
    x = T.tensor([0.5, -1.0, 2.0], requires_grad=True)
    result = {'err': catch(lambda: T.gradgradcheck(bad, (x,))),
              'no raise': T.gradgradcheck(bad, (x,), raise_exception=False)}
""", loose=WRONG_BACKWARD_LINES)

case("gradcheck_output_shape_changes", """
    x = T.tensor([1e-8, 1.0, -2.0], requires_grad=True)
    result = {'err': catch(lambda: T.gradcheck(lambda t: t[t > 0], (x,)))}
""")

case("gradcheck_no_differentiable_outputs", """
    x = T.tensor([0.5, -1.0, 2.0], requires_grad=True)
    result = {'float mask': catch(lambda: T.gradcheck(lambda t: (t > 0).double(), (x,))),
              'constant': catch(lambda: T.gradcheck(lambda t: T.zeros(2), (x,))),
              'empty tuple': catch(lambda: T.gradcheck(lambda t: (), (x,))),
              'detached sign': catch(lambda: T.gradcheck(lambda t: t.detach().sign(), (x,))),
              'argmax': catch(lambda: T.gradcheck(lambda t: t.argmax(), (x,)))}
""")

case("gradcheck_detached_output_that_varies", """
    x = T.tensor([0.5, -1.0, 2.0], requires_grad=True)
    result = {'err': catch(lambda: T.gradcheck(lambda t: t.detach() * 2.0, (x,))),
              'no raise': catch(lambda: T.gradcheck(lambda t: t.detach() * 2.0, (x,), raise_exception=False))}
""")

case("gradcheck_bool_output", """
    x = T.tensor([0.5, -1.0, 2.0], requires_grad=True)
    result = {'err': catch(lambda: T.gradcheck(lambda t: t > 0, (x,)))}
""")

case("gradcheck_no_input_requires_grad", """
    result = {'err': catch(lambda: T.gradcheck(lambda t: t * 2.0, (T.tensor([1.0, 2.0]),)))}
""")

case("gradcheck_float32_input_warns", """
    x = T.tensor([1.0, 2.0], dtype=T.float32, requires_grad=True)
    out = []
    w = warns(lambda: out.append(catch(lambda: T.gradcheck(lambda t: t * 2.0, (x,)))))
    result = {'warnings': w, 'err': out[0]}
""", loose=WRONG_BACKWARD_LINES)

case("gradcheck_kink_at_zero", """
    x = T.tensor([0.0, 1.0], requires_grad=True)
    result = {'abs': T.gradcheck(lambda t: t.abs(), (x,)), 'relu': catch(lambda: T.gradcheck(lambda t: t.relu(), (x,)))}
""", loose=WRONG_BACKWARD_LINES)

case("gradgradcheck_true", """
    x = T.tensor([0.5, -1.0, 2.0], requires_grad=True)
    y = T.tensor([1.5, 0.25, -0.75], requires_grad=True)
    result = {'one input': T.gradgradcheck(lambda t: t.sin() * t ** 2, (x,)),
              'two inputs': T.gradgradcheck(lambda a, b: (a * b.exp()).sum() * a, (x, y)),
              'grad_outputs': T.gradgradcheck(lambda t: t ** 3, (x,), (T.tensor([1.0, -2.0, 0.5]),))}
""")

# =========================================================================
# Cases added from the audit of PyTorch's test/test_autograd.py (the test
# each one follows is named in its comment)
# =========================================================================

# test_accumulate_grad
case("accumulate_grad_in_place_identity", """
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x + 2.0
    y.backward(T.ones(2), retain_graph=True)
    g = x.grad
    y.backward(T.ones(2))
    same_without_create_graph = x.grad is g
    value_of_old_reference = g.clone()
    z = T.tensor([1.0, 2.0], requires_grad=True)
    w = z + 2.0
    w.backward(T.ones(2), retain_graph=True)
    h = z.grad
    w.backward(T.ones(2), create_graph=True)
    result = {'same without create_graph': same_without_create_graph, 'old reference': value_of_old_reference,
              'same with create_graph': z.grad is h, 'old reference with create_graph': h, 'z.grad': z.grad}
""")

# test_accumulate_grad_with_zero_numel_grad
case("backward_zero_numel_broadcast", """
    a = T.ones(4, 0, requires_grad=True)
    b = T.ones(4, 1, requires_grad=True)
    c = a + b
    c.sum().backward()
    result = {'c shape': list(c.shape), 'a.grad': a.grad, 'b.grad': b.grad}
""")

# test_hook_with_no_name
case("hook_callable_object", """
    class Doubler:
        def __call__(self, g):
            return g * 2.0
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x.clone()
    y.register_hook(Doubler())
    y.sum().backward()
    result = {'x.grad': x.grad}
""")

# test_retains_grad_can_always_observe_tensor_prehook
case("hook_retain_grad_observes_all_hooks", """
    a = T.tensor(1.0, requires_grad=True)
    b = a.clone()
    b.register_hook(lambda g: g * 2)
    b.retain_grad()
    b.register_hook(lambda g: g * 2)
    b.clone().backward()
    first = b.grad
    c = a.clone()
    c.retain_grad()
    c.register_hook(lambda g: g * 2)
    c.clone().backward()
    result = {'registered around retain_grad': first, 'registered after retain_grad': c.grad, 'a.grad': a.grad}
""")

# test_hook_edge_case_when_called_with_grad (tensor hooks only)
case("hook_counts_with_grad_and_backward", """
    a = T.tensor(1.0, requires_grad=True)
    b = a * 2
    c = b * 2
    count = [0]
    def hook(g):
        count[0] += 1
    a.register_hook(hook)
    b.register_hook(hook)
    T.grad(c, inputs=(b,), retain_graph=True)
    only_b = count[0]
    count[0] = 0
    T.grad(c, inputs=(a, b), retain_graph=True)
    both = count[0]
    count[0] = 0
    c.backward(retain_graph=True)
    full = count[0]
    count[0] = 0
    c.backward(inputs=(a, b), retain_graph=True)
    result = {'grad wrt b': only_b, 'grad wrt a, b': both, 'backward': full, 'backward inputs a, b': count[0]}
""")

# test_grad_empty_inputs
case("grad_empty_inputs", """
    x = T.tensor([1.0], requires_grad=True)
    result = {'err': catch(lambda: T.grad(2 * x, [], grad_outputs=T.tensor([1.0])))}
""")

# test_retain_grad
case("retain_grad_twice_and_on_leaf", """
    inp = T.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
    h1 = inp * 3
    out = (h1 * h1).sum()
    h1.retain_grad()
    h1.retain_grad()
    out.backward(retain_graph=True)
    first = h1.grad.clone()
    out.backward(retain_graph=True)
    second = h1.grad.clone()
    inp.grad = None
    inp.retain_grad()
    inp.retain_grad()
    out.backward()
    result = {'first': first, 'second': second, 'inp.grad': inp.grad, 'leaf retains_grad': inp.retains_grad}
""")

# test_retain_grad_inplace_over_view
case("view_retain_grad_two_views_inplace", """
    base = T.tensor([1.0], requires_grad=True).clone()
    view = base[:]
    view2 = base[:]
    view.retain_grad()
    view2.retain_grad()
    view.mul_(2)
    (view + view2).sum().backward()
    result = {'view.grad': view.grad, 'view2.grad': view2.grad}
""")

# test_tensor_hooks_inplace
case("hook_before_and_after_inplace", """
    seen = []
    def fn1(g):
        seen.append(('fn1', g.clone()))
        return g * 2
    def fn2(g):
        seen.append(('fn2', g.clone()))
        return g * 2
    a = T.tensor([1.0], requires_grad=True)
    b = a.clone()
    b.register_hook(fn1)
    b.mul_(2)
    b.register_hook(fn2)
    b.sum().backward()
    first = a.grad.clone()
    a2 = T.tensor([1.0], requires_grad=True)
    c = a2.clone()
    c.register_hook(fn1)
    c.mul_(2)
    c.mul_(2)
    c.sum().backward()
    result = {'seen': seen, 'a.grad': first, 'a2.grad': a2.grad}
""")

# test_tensor_hooks_inplace_over_view
case("view_hook_registered_after_regeneration", """
    seen = []
    base = T.tensor([1.0], requires_grad=True).clone()
    view = base[:]
    view2 = base[:]
    view.register_hook(lambda g: seen.append(('view', g.clone())))
    view2.register_hook(lambda g: seen.append(('view2 before', g.clone())))
    view.mul_(2)
    view2.grad_fn
    view2.register_hook(lambda g: seen.append(('view2 after', g.clone())))
    (view + view2).sum().backward()
    result = {'seen': seen}
""")

# test_no_unnecessary_save
case("inplace_no_unnecessary_save", """
    mu = T.ones(1, requires_grad=True)
    x = T.zeros(1)
    loss = 0
    for i in range(3):
        x.detach_()
        x.copy_(mu + i)
        ft = T.tensor([float(i)])
        multiplied = x * ft
        s = multiplied.sum()
        loss += s
    result = {'backward': catch(lambda: loss.backward()), 'mu.grad': mu.grad, 'loss': loss}
""")

# test_set_grad_generator_functions_recursive
case("grad_mode_recursive_decorators", """
    log = []
    @T.enable_grad()
    def up(depth):
        log.append(('up', T.is_grad_enabled()))
        if depth > 0:
            down(depth - 1)
            log.append(('up after', T.is_grad_enabled()))
    @T.no_grad()
    def down(depth):
        log.append(('down', T.is_grad_enabled()))
        if depth > 0:
            up(depth - 1)
            log.append(('down after', T.is_grad_enabled()))
    with T.no_grad():
        up(3)
        log.append(('caller', T.is_grad_enabled()))
    result = {'log': log, 'after': T.is_grad_enabled()}
""")

# test_set_grad_coroutines, _benign_exceptions, _critical_exceptions, _exit
case("grad_mode_generator_send_throw_close", """
    log = []
    @T.no_grad()
    def coro():
        try:
            r = yield T.is_grad_enabled()
            log.append(('sent', r, T.is_grad_enabled()))
            try:
                yield 1
            except KeyError:
                log.append(('caught', T.is_grad_enabled()))
            yield 2
        except GeneratorExit:
            log.append(('exit', T.is_grad_enabled()))
            raise
    c = coro()
    first = next(c)
    log.append(('outside', T.is_grad_enabled()))
    c.send('hello')
    log.append(('outside', T.is_grad_enabled()))
    c.throw(KeyError('k'))
    log.append(('outside', T.is_grad_enabled()))
    c.close()
    log.append(('outside', T.is_grad_enabled()))
    result = {'first': first, 'log': log}
""")

# test_index_backward_does_not_save_tensor
case("index_backward_does_not_save_self", """
    a = T.tensor([1.0, 0.0, 0.0])
    b = T.zeros(3, requires_grad=True)
    t = b + 0
    t[a != 0] = t[a != 0]
    result = {'backward': catch(lambda: t.backward(T.ones_like(t))), 'b.grad': b.grad}
""")

# test_requires_grad_
case("requires_grad_method_returns_self", """
    x = T.tensor([1.0, 2.0])
    y = T.tensor([3.0, 4.0], requires_grad=True)
    out = [x.requires_grad_() is x, x.requires_grad, y.requires_grad_(True) is y]
    z = x * y
    out += [z.requires_grad_() is z, z.requires_grad, x.requires_grad_(False) is x, x.requires_grad]
    result = {'flags': out, 'err': catch(lambda: z.requires_grad_(False))}
""")

# test_requires_grad_inplace
case("inplace_plain_tensor_becomes_requiring", """
    a = T.tensor([1.0, 2.0])
    b = T.tensor([3.0, 4.0], requires_grad=True)
    a += b
    c = T.tensor([1.0, 2.0]) + 0
    c += b
    (a * c).sum().backward()
    result = {'a': [a.requires_grad, a.is_leaf, a.grad_fn.name()], 'c': [c.requires_grad, c.is_leaf], 'b.grad': b.grad}
""")

# test_no_requires_grad_inplace
case("inplace_before_requires_grad", """
    a = T.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    a.add_(5)
    a.requires_grad = True
    a.sum().backward()
    first = a.grad
    b = T.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    v = b[:]
    v.add_(5)
    b.requires_grad = True
    b.sum().backward()
    c = T.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    w = c[:]
    c.requires_grad = True
    result = {'first': first, 'b.grad': b.grad, 'b._version': b._version,
              'base add_': catch(lambda: c.add_(5)), 'view add_': catch(lambda: w.add_(5))}
""")

# test_attribute_deletion
case("attribute_deletion", """
    x = T.tensor([1.0, 2.0], requires_grad=True)
    (x * 2.0).sum().backward()
    def del_grad():
        del x.grad
    def del_data():
        del x.data
    def set_data_none():
        x.data = None
    def del_requires_grad():
        del x.requires_grad
    result = {'del grad': catch(del_grad), 'grad after': x.grad, 'del data': catch(del_data),
              'data = None': catch(set_data_none), 'del requires_grad': catch(del_requires_grad)}
""")

# test_next_functions
case("next_functions_identity", """
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = T.tensor([3.0, 4.0], requires_grad=True)
    a = x + y
    nf = a.grad_fn.next_functions
    b = a + 5
    nb = b.grad_fn.next_functions
    result = {'len a': len(nf), 'a types': [type(n).__name__ for n, _ in nf], 'a indices': [i for _, i in nf],
              'len b': len(nb), 'b first is a.grad_fn': nb[0][0] is a.grad_fn, 'b second': nb[1][0],
              'accumulators distinct': nf[0][0] is not nf[1][0]}
""")

# test_inplace
case("inplace_only_saved_inputs_checked", """
    x = T.ones(2, 2, requires_grad=True)
    y = (T.ones(2, 2) * 4).requires_grad_(True)
    z = x * y
    q = z + y
    w = z * y
    z.add_(2)
    out = {'add needs no inputs': catch(lambda: q.backward(T.ones(2, 2), retain_graph=True)),
           'mul saved z': catch(lambda: w.backward(T.ones(2, 2)))}
    z = x * y
    q = z * y
    r = z + y
    w = z.add_(y)
    out['w is z'] = w is z
    out['w'] = catch(lambda: w.backward(T.ones(2, 2), retain_graph=True))
    out['r'] = catch(lambda: r.backward(T.ones(2, 2), retain_graph=True))
    out['q'] = catch(lambda: q.backward(T.ones(2, 2)))
    out['x.grad'] = x.grad
    leaf = T.ones(2, 2, requires_grad=True)
    x2 = leaf.clone()
    x2.add_(10)
    y2 = x2 + 2
    y2.backward(T.ones(2, 2))
    out['leaf.grad'] = leaf.grad
    z2 = x2 * y2
    x2.add_(2)
    out['z2'] = catch(lambda: z2.backward(T.ones(2, 2)))
    result = out
""")

# test_inplace (exp_ saves its result)
case("inplace_exp_result_saved", """
    x = T.ones(2, 2, requires_grad=True)
    y = (T.ones(2, 2) * 4).requires_grad_(True)
    m = x / 2
    z = m + y / 8
    q = z * y
    r = z + y
    prev = z._version
    w = z.exp_()
    out = {'version bumped': z._version != prev, 'name': w.grad_fn.name()}
    r.backward(T.ones(2, 2), retain_graph=True)
    out['after r'] = x.grad.clone()
    w.backward(T.ones(2, 2), retain_graph=True)
    out['after w'] = x.grad.clone()
    out['q'] = catch(lambda: q.backward(T.ones(2, 2)))
    result = out
""")

# test_setitem, _test_setitem_tensor
case("setitem_advanced_and_broadcast", """
    x = T.ones(5, 5, requires_grad=True)
    y = x + 2
    v0 = y._version
    y[[0, 4], [2, 2]] = 2.0
    y.backward(T.ones(5, 5))
    g1 = x.grad
    x2 = T.ones(5, 5, requires_grad=True)
    y2 = x2 + 2
    value = T.full((2,), 7.0, requires_grad=True)
    y2[[0, 1], [1, 0]] = value
    y2.backward(T.ones(5, 5))
    x3 = T.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    y3 = T.zeros(2, 3, 4)
    y3[1] = x3
    y3.backward(T.tensor([[[1.0, 2.0, 3.0, 4.0], [0.5, 0.5, 0.5, 0.5], [1.0, 0.0, -1.0, 2.0]],
                          [[1.0, 1.0, 1.0, 1.0], [2.0, 2.0, 2.0, 2.0], [3.0, -3.0, 0.0, 1.0]]]))
    x4 = T.ones(2, 3, requires_grad=True)
    y4 = x4 + 2
    y4[T.tensor([[True, False, True], [False, False, True]])] = 0.5
    y4.backward(T.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))
    result = {'version bumped': y._version != v0, 'x.grad': g1, 'x2.grad': x2.grad, 'value.grad': value.grad,
              'mask': [y4, x4.grad],
              'x3.grad': x3.grad, 'names': [y.grad_fn.name(), y3.grad_fn.name()]}
""", loose=PREFIX)

# test_select_expanded_v, test_slice_expanded_v
case("grad_outputs_expanded", """
    a = T.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    v = T.tensor([0.5, -1.0, 2.0]).expand(2, 3)
    g1, = T.grad(a[0] * 1.0, a, v[0])
    g2, = T.grad(a[0:2] * 1.0, a, v)
    s = T.tensor(3.0).expand(3)
    g3, = T.grad(a[1], a, s)
    result = {'select': g1, 'slice': g2, 'expanded scalar': g3}
""")

# test_detach_base
case("detach_inplace_base_keeps_view", """
    x = T.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    view = x[0:1]
    x.detach_()
    result = {'x.requires_grad': x.requires_grad, 'view.requires_grad': view.requires_grad,
              'view.grad_fn': view.grad_fn.name(), 'view._base is x': view._base is x, 'x.is_leaf': x.is_leaf}
""")

# test_numpy_requires_grad
case("numpy_requires_grad_error", """
    x = T.tensor([1.0, 2.0], requires_grad=True)
    with T.no_grad():
        in_no_grad = catch(lambda: x.numpy().tolist())
    result = {'err': catch(lambda: x.numpy()), 'no_grad': in_no_grad,
              'detached': x.detach().numpy().tolist(), 'plain': T.tensor([3.0]).numpy().tolist()}
""")

# test_no_grad_modifies_version
case("no_grad_inplace_still_bumps_version", """
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = T.tensor([3.0, 4.0], requires_grad=True)
    z = (x * y).sum()
    with T.no_grad():
        x *= 2
    result = {'err': catch(lambda: z.backward()), 'x._version': x._version}
""")

# test_backward_copy
case("backward_shared_grad_buffers", """
    x = T.ones(2, 2, requires_grad=True)
    y = T.ones(2, 2, requires_grad=True)
    a = x + 2
    b = y + 2
    c = x + 2
    add1 = a + b
    add2 = add1 + c
    for _ in range(4):
        a = a * 2
        b = b * 2
        c = c * 2
    branch = a + b + c
    out = add2 + branch
    out.backward(T.ones(2, 2))
    result = {'x.grad': x.grad, 'y.grad': y.grad}
""")

# test_set_grad_enabled
case("grad_mode_set_grad_enabled_inside_context", """
    x = T.tensor([1.0], requires_grad=True)
    with T.set_grad_enabled(False):
        T.set_grad_enabled(True)
        y = x * 2
        inside = T.is_grad_enabled()
    result = {'y.requires_grad': y.requires_grad, 'inside': inside, 'after': T.is_grad_enabled()}
""")

# test_set_grad_enabled_wraps
case("grad_mode_set_grad_enabled_wraps", """
    out = {}
    with T.enable_grad():
        obj = T.set_grad_enabled(False)
        out['after constructing'] = T.is_grad_enabled()
        def inner(x):
            return x.sin()
        inner = obj(inner)
        out['after wrapping'] = T.is_grad_enabled()
        x = T.zeros(1, requires_grad=True)
        out['wrapped result requires_grad'] = inner(x).requires_grad
        out['after call'] = T.is_grad_enabled()
    result = out
""")

# test_gradcheck_validates_inputs (dense parts)
case("gradcheck_validates_inputs", """
    x = T.tensor([1.0, 2.0])
    f32 = T.ones(1, dtype=T.float32, requires_grad=True)
    res = []
    w = warns(lambda: res.append(T.gradcheck(lambda t: t, (f32,), atol=1e-1)))
    e = T.ones(1, requires_grad=True).expand(2, 2)
    result = {'none require grad, raise_exception=False': catch(lambda: T.gradcheck(lambda t: t, (x,), raise_exception=False)),
              'float32 identity': res, 'float32 warnings': w,
              'stride 0 input': catch(lambda: T.gradcheck(lambda t: t, (e,), raise_exception=False))}
""")

# test_gradcheck_backward_mul_by_grad_output (dense part)
case("gradcheck_backward_not_multiplied_by_grad_output", """
    def fn2(x):
        y = x.clone()
        y.register_hook(lambda g: g + 1e-2)
        return y
    x = T.ones(1, requires_grad=True)
    result = {'err': catch(lambda: T.gradcheck(fn2, (x,), atol=1e-1)),
              'no raise': T.gradcheck(fn2, (x,), atol=1e-1, raise_exception=False)}
""")

# test_gradcheck_output_shape_or_dtype_depend_on_values
case("gradcheck_output_dtype_changes", """
    def fn2(x):
        if bool((x >= 1).all()):
            return x.to(T.float32)
        return x
    def fn(x):
        if bool((x >= 1).all()):
            return T.cat([x, x])
        return x
    a = T.ones(1, requires_grad=True)
    result = {'dtype': catch(lambda: T.gradcheck(fn2, (a,))), 'shape': catch(lambda: T.gradcheck(fn, (a,)))}
""")

# test_gradcheck_custom_error
case("gradcheck_other_errors_propagate", """
    def fn2(x):
        raise RuntimeError('Not a GradcheckError!')
    x = T.ones(2, 2, requires_grad=True)
    result = {'err': catch(lambda: T.gradcheck(fn2, (x,), raise_exception=False))}
""")

# test_version_counter, test_set_data_self_requires_grad
case("data_assign_preserves_version_counter", """
    x = T.tensor([[1.0, 2.0]])
    x.add_(1).add_(1)
    xz = x[:]
    seen = [(x._version, xz._version)]
    xz.add_(1)
    seen.append((x._version, xz._version))
    x.data = T.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    seen.append((x._version, xz._version))
    x.add_(1)
    seen.append((x._version, xz._version))
    xz.add_(1)
    seen.append((x._version, xz._version))
    a = T.tensor(1.0, requires_grad=True)
    def set_int():
        a.data = T.tensor(3)
    def set_float():
        a.data = T.tensor(2.0)
    result = {'versions': seen, 'float': catch(set_float), 'int': catch(set_int), 'a': a, 'xz': xz}
""")

# test_reentrant_with_leaf_variable_hook / test_reentrant_with_non_leaf_variable_hook
case("hook_runs_backward_inside", """
    param = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    handle = [None]
    def manual_increase_gradient(grad):
        handle[0].remove()
        with T.enable_grad():
            g = grad.detach().requires_grad_()
            out = ((g * 2) + 5).sum()
            out.backward()
        return g.grad + grad
    tmp = param * param
    handle[0] = tmp.register_hook(manual_increase_gradient)
    loss = tmp.sum()
    loss.backward()
    result = {'param.grad': param.grad}
""")

# test_autograd_views_codegen (view_as part)
case("view_grad_mode_view_as_inplace", """
    out = {}
    for grad_mode in (True, False):
        for requires_grad in (True, False):
            inp = T.tensor([1.0, 2.0], requires_grad=requires_grad).clone()
            with T.set_grad_enabled(grad_mode):
                v = inp.view_as(inp)
            out[f'grad_mode={grad_mode} requires_grad={requires_grad}'] = [
                v._base is inp, catch(lambda: v.add_(1) is v)]
    result = out
""")

# test_autograd_print_tensor
case("view_repr_after_no_grad_inplace", """
    a = T.ones(1, requires_grad=True)
    a_clone = a.clone()
    with T.no_grad():
        b = a[:]
        b *= 2
    result = {'a': repr(a), 'a_clone': repr(a_clone), 'b': repr(b)}
""")

# test_autograd_inplace_view_of_view
case("view_of_no_grad_view_inplace_error", """
    x = T.zeros(2)
    with T.no_grad():
        y = x.view(2)
    y.requires_grad_(True)
    z = y.view(2)
    def div():
        z.div_(2)
    result = {'err': catch(div), 'flags': [y.requires_grad, y.is_leaf, z.requires_grad, z.is_leaf]}
""")

# test_power_function
case("pow_zero_base_tensor_exponent", """
    a = T.tensor([0.0, 0.0, 0.0])
    b = T.tensor([-1.0, 0.0, 1.0], requires_grad=True)
    T.sum(a ** b).backward()
    first = b.grad
    c = T.tensor([-1.0, 0.0, 1.0], requires_grad=True)
    T.sum(0 ** c).backward()
    result = {'tensor base': first, 'python base': c.grad}
""")

# test_input_buffer_accum (dense part)
case("backward_does_not_modify_given_grads", """
    leaf = T.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    out1 = leaf.clone()
    out2 = leaf * 2.0
    g1 = T.tensor([[1.0, 1.0], [1.0, 1.0]])
    g2 = T.tensor([[0.5, 0.5], [0.5, 0.5]])
    T.backward((out1, out2), (g1, g2))
    result = {'g1': g1, 'g2': g2, 'leaf.grad': leaf.grad}
""")

# test_saved_variable_saved_original_inplace_detach
case("detach_inplace_saved_input_error", """
    a = T.tensor(1.0, requires_grad=True).clone()
    b = a.sin()
    a.detach_()
    a2 = T.tensor(1.0, requires_grad=True).clone()
    b2 = a2.exp()
    a2.detach_()
    result = {'saved input': catch(lambda: b.backward()), 'saved output': catch(lambda: b2.backward())}
""")

# test_requires_grad_factory
case("factory_like_requires_grad", """
    x = T.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=T.float32)
    a = T.ones_like(x, requires_grad=True)
    b = T.zeros_like(x, dtype=T.float64, requires_grad=False)
    c = T.full_like(x, 2.5, requires_grad=True)
    result = {'a': [a.requires_grad, a.dtype, a.is_leaf], 'b': [b.requires_grad, b.dtype], 'c': [c.requires_grad, c.dtype]}
""")

# test_copy_
case("copy_into_other_dtype", """
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = T.zeros(3, dtype=T.float32)
    y.copy_(x)
    flags = [y.requires_grad, y.dtype, y.grad_fn.name(), y._version]
    (y * T.tensor([1.0, 2.0, 3.0], dtype=T.float32)).sum().backward()
    result = {'flags': flags, 'x.grad': x.grad, 'z': x.to(T.float32).requires_grad}
""", loose=PREFIX)

# test_inplace_on_view_backprop_view_of_view
case("view_inplace_sibling_view", """
    root = T.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    x = root.clone()
    v1 = x[0:1]
    v2 = x[0:1]
    v1.mul_(2)
    v2.sum().backward()
    result = {'root.grad': root.grad, 'v2': v2, 'v2.grad_fn': v2.grad_fn.name()}
""")

# test_inplace_on_view_then_no_grad
case("view_grad_fn_regenerated_in_no_grad", """
    a = T.ones(3, 1, requires_grad=True)
    b = a * 2
    c = b.view_as(b)
    c[0][0] = 3
    with T.no_grad():
        name = c.grad_fn.name()
    c.sum().backward()
    result = {'name': name, 'a.grad': a.grad}
""")

# test_inplace_on_view_gradcheck (narrow written as slices)
case("view_inplace_gradcheck", """
    a = T.tensor([[0.5, -1.0, 2.0, 1.5], [3.0, 0.25, -2.5, 1.0], [-0.75, 4.0, 0.1, -1.2], [1.0, 2.0, 3.0, 4.0]],
                 requires_grad=True)
    b = T.tensor([[1.5, -0.5], [0.25, 2.0]], requires_grad=True)
    def func(root, b):
        x = root.clone()
        x[:, 2:4][1:3].mul_(b)
        x[:, 0:2][1:3].mul_(b)
        return x
    go = T.tensor([[1.0, 2.0, 3.0, 4.0], [-1.0, 0.5, 2.0, 1.0], [0.25, -2.0, 1.5, 3.0], [2.0, 1.0, 0.0, -1.0]],
                  requires_grad=True)
    result = {'value': func(a, b), 'gradcheck': catch(lambda: T.gradcheck(func, (a, b))),
              'gradgradcheck': catch(lambda: T.gradgradcheck(func, (a, b), (go,)))}
""")

# test_inplace_on_view_backprop_view (narrow written as a slice)
case("view_inplace_backprop_through_view_of_plain", """
    a = T.tensor([2.0, 5.0])
    b = T.tensor([3.0], requires_grad=True)
    res = a[1:2].mul_(b)
    res.sum().backward()
    result = {'b.grad': b.grad, 'a.grad': a.grad, 'a': a, 'res.grad_fn': res.grad_fn.name(),
              'a.grad_fn': a.grad_fn.name()}
""", loose=PREFIX)

# test_inplace_on_view_modify_base (select written as x[1])
case("view_inplace_on_base_makes_view_require_grad", """
    r = T.tensor([2.0], requires_grad=True)
    def fn(r):
        x = T.ones(5)
        v = x[1]
        before = [v.requires_grad, v.grad_fn]
        x.add_(r)
        return v, before
    v, before = fn(r)
    after = [v.requires_grad, v.grad_fn.name()]
    v.backward()
    result = {'before': before, 'after': after, 'v': v, 'r.grad': r.grad,
              'gradcheck': catch(lambda: T.gradcheck(lambda t: fn(t)[0], (r,))),
              'gradgradcheck': catch(lambda: T.gradgradcheck(lambda t: fn(t)[0], (r,)))}
""")

# test_inplace_on_view_non_contig (narrow written as slices)
case("view_inplace_non_contiguous_base", """
    root = T.ones(2, 3, 2)[:, :, 1].t().requires_grad_(True)
    x = root.clone()
    v1 = x[0:1]
    v2 = v1[:, 1:2]
    v2.mul_(2)
    x.sum().backward()
    result = {'root.grad': root.grad, 'root.is_leaf': root.is_leaf, 'x': x}
""")

# test_mv_grad_stride_0
case("gradcheck_expand_inside", """
    mat = T.tensor([[1.0, 2.0], [-0.5, 3.0]])
    vec = T.tensor([0.7], requires_grad=True)
    def fn(v):
        v = v.expand(2)
        return (mat @ v).sum()
    result = {'gradcheck': T.gradcheck(fn, (vec,)), 'gradgradcheck': T.gradgradcheck(fn, (vec,))}
""")

# test_per_dispatch_key_input_saving (dense part)
case("sum_dim_does_not_save_input", """
    inp = T.tensor([1.0, 2.0], requires_grad=True)
    x = inp.clone()
    res = x.sum(-1, keepdim=True)
    x.add_(x)
    result = {'backward': catch(lambda: res.backward(T.ones(1))), 'inp.grad': inp.grad}
""")

# test_set_requires_grad_only_for_floats (the False half)
case("requires_grad_false_on_integer_ok", """
    a = T.ones(1, dtype=T.int64)
    a.requires_grad = False
    r = a.requires_grad_(False)
    result = {'flag': a.requires_grad, 'same': r is a}
""")

# test_unrelated_inputs
case("gradcheck_unrelated_input", """
    x = T.tensor([0.5, 1.5, -2.0], requires_grad=True)
    y = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    result = {'gradcheck': T.gradcheck(lambda a, b: a * a, (x, y)),
              'gradgradcheck': T.gradgradcheck(lambda a, b: a * a, (x, y))}
""")

# =========================================================================
# "api" group: API the engine is to gain. Kept apart so that one missing
# function does not hide a semantic check above.
# =========================================================================

# ---------------------------------------------------------------- inference_mode
case("inference_mode_context_and_decorators", """
    x = T.tensor([1.0, 2.0], requires_grad=True)
    def probe():
        y = x * 2.0
        return [T.is_grad_enabled(), y.requires_grad, y.grad_fn is None]
    out = {}
    with T.inference_mode():
        out['context'] = probe()
        with T.inference_mode(False):
            out['inference_mode(False) inside'] = probe()
    @T.inference_mode()
    def a():
        return probe()
    @T.inference_mode
    def b():
        return probe()
    out['decorator()'] = a()
    out['decorator'] = b()
    out['call'] = T.inference_mode()(probe)()
    out['after'] = probe()
    result = out
""", group="api")

case("inference_mode_generator", """
    @T.inference_mode()
    def gen():
        yield T.is_grad_enabled()
        yield T.is_grad_enabled()
    it = gen()
    a = next(it)
    between = T.is_grad_enabled()
    b = next(it)
    result = {'inside': [a, b], 'between': between}
""", group="api")

case("inference_mode_tensor_errors", """
    x = T.tensor([1.0, 2.0], requires_grad=True)
    with T.inference_mode():
        t = T.ones(2)
    result = {'saved for backward': catch(lambda: (t * x).sum().backward()),
              'inplace outside': catch(lambda: t.mul_(2.0)),
              'requires_grad': t.requires_grad}
""", group="api")

# ---------------------------------------------------------------- views made by new API
case("view_api_multi_output_inplace_errors", """
    r = T.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    x = r.clone()
    result = {'unbind': catch(lambda: x.unbind(0)[0].mul_(2.0)),
              'split': catch(lambda: x.split(2)[1].mul_(2.0)),
              'chunk': catch(lambda: x.chunk(2)[0].mul_(2.0)),
              'x._version': x._version}
""", group="api")

case("view_api_multi_output_inplace_no_grad_ok", """
    x = T.tensor([1.0, 2.0, 3.0, 4.0])
    a, b = x.split(2)
    a.mul_(2.0)
    u = x.unbind(0)
    u[3].add_(10.0)
    result = {'x': x, 'x._version': x._version, 'a._base is x': a._base is x, 'u3._base is x': u[3]._base is x}
""", group="api")

case("view_api_narrow_select_diagonal_inplace", """
    r = T.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]], requires_grad=True)
    w = T.tensor(2.0, requires_grad=True)
    x = r.clone()
    n = x.narrow(1, 1, 2)
    s = x.select(0, 2)
    d = x.diagonal()
    names = [n.grad_fn.name(), s.grad_fn.name(), d.grad_fn.name()]
    d.mul_(w)
    n.add_(1.0)
    s.mul_(w)
    (x * T.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]])).sum().backward()
    result = {'x': x, 'names': names, 'r.grad': r.grad, 'w.grad': w.grad,
              'bases': [n._base is x, s._base is x, d._base is x],
              'versions': [x._version, n._version, s._version, d._version]}
""", group="api", loose=PREFIX)

case("view_api_unbind_output_nr", """
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    u = x.unbind(0)
    y = u[2] * 2.0
    node, nr = y.grad_fn.next_functions[0]
    result = {'node': node.name(), 'nr': nr, 'u names': [t.grad_fn.name() for t in u],
              'split nr': [t.grad_fn.next_functions for t in [x.split(1)[1] * 1.0]][0][0][1]}
""", group="api")

case("view_api_unbind_backward", """
    x = T.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], requires_grad=True)
    a, b, c = x.unbind(0)
    (a * 2.0 + c * c).sum().backward()
    result = {'a': a, 'c': c, 'x.grad': x.grad}
""", group="api")

# ---------------------------------------------------------------- ops: value, node name, first derivative
# Each op case weights its output with the fixed, non-uniform
#     w = (T.arange(y.numel()) * 1.3 + 0.4).sin().reshape(y.shape)
# and records y, y.grad_fn.name() and the leaves' gradients from y.backward(w).
_W = "(T.arange(y.numel()) * 1.3 + 0.4).sin().reshape(y.shape)"


def op_case(name, setup, expr, leaves=("x",), extra=None):
    grads = ", ".join(f"'{v}.grad': {v}.grad" for v in leaves)
    more = f", **{extra}" if extra else ""
    case(name, f"""
        {setup}
        y = {expr}
        w = {_W}
        y.backward(w)
        result = dict({{'y': y, 'name': y.grad_fn.name(), {grads}}}{more})
    """, group="api")


M34 = "x = T.tensor([[0.5, -1.0, 2.0, 1.5], [3.0, 0.25, -2.5, 1.0], [-0.75, 4.0, 0.1, -1.2]], requires_grad=True)"
V5 = "x = T.tensor([0.5, -1.0, 2.0, 1.5, 3.0], requires_grad=True)"
SQ = "x = T.tensor([[2.0, -1.0, 0.5], [1.0, 3.0, -0.25], [0.5, 1.5, 4.0]], requires_grad=True)"

op_case("op_narrow", M34, "x.narrow(1, 1, 2)", extra="{'fn': T.narrow(x, 0, 1, 2).grad_fn.name()}")
op_case("op_select", M34, "x.select(1, 2)", extra="{'fn': T.select(x, 0, -1)}")
case("op_unbind", f"""
    {M34}
    parts = x.unbind(1)
    y = T.stack([p * float(i + 1) for i, p in enumerate(parts)])
    y.backward({_W})
    result = {{'parts': parts, 'names': [p.grad_fn.name() for p in parts], 'x.grad': x.grad,
              'fn': len(T.unbind(x, 0))}}
""", group="api")
case("op_split", f"""
    {M34}
    parts = x.split(3, dim=1)
    sizes = x.split([1, 2], dim=0)
    y = parts[0].sum() * 2.0 + parts[1].sum() * 3.0 + (sizes[1] ** 2).sum()
    y.backward()
    result = {{'parts': parts, 'sizes': sizes, 'names': [p.grad_fn.name() for p in parts + sizes],
              'x.grad': x.grad, 'fn': T.split(x, 2)}}
""", group="api")
case("op_chunk", f"""
    {M34}
    parts = x.chunk(2, dim=1)
    rows = T.chunk(x, 2)
    y = parts[0].sum() * 2.0 + (parts[1] * rows[1][:, :2]).sum()
    y.backward()
    result = {{'parts': parts, 'rows': rows, 'names': [p.grad_fn.name() for p in parts], 'x.grad': x.grad}}
""", group="api")
op_case("op_diagonal", M34, "x.diagonal()",
        extra="{'offset': x.diagonal(1), 'neg offset': T.diagonal(x, -1), 'dims': x.diagonal(0, 1, 0)}")
op_case("op_repeat", "x = T.tensor([[1.0, -2.0], [0.5, 3.0]], requires_grad=True)", "x.repeat(2, 3)",
        extra="{'new dim': x.repeat(2, 1, 1).shape}")
op_case("op_flip", M34, "x.flip(1)", extra="{'both': T.flip(x, [0, 1])}")
op_case("op_roll", M34, "x.roll(1, 1)", extra="{'flat': T.roll(x, 2), 'dims': x.roll((1, -1), (0, 1))}")
op_case("op_gather", M34, "x.gather(1, T.tensor([[0, 0], [3, 1], [2, 2]]))",
        extra="{'fn': T.gather(x, 0, T.tensor([[2, 1, 0, 0]]))}")
op_case("op_scatter", "x = T.tensor([[0.5, -1.0, 2.0], [3.0, 0.25, -2.5]], requires_grad=True)\n"
        "        src = T.tensor([[10.0, 20.0], [30.0, 40.0]], requires_grad=True)",
        "x.scatter(1, T.tensor([[2, 0], [1, 2]]), src)", leaves=("x", "src"),
        extra="{'value form': T.scatter(x, 1, T.tensor([[0], [2]]), 7.5)}")
op_case("op_index_select", M34, "x.index_select(1, T.tensor([3, 0, 3]))",
        extra="{'fn': T.index_select(x, 0, T.tensor([2, 2]))}")
op_case("op_masked_fill", M34, "x.masked_fill(x > 1.0, -5.0)",
        extra="{'tensor value': T.masked_fill(x, x < 0, T.tensor(0.5))}")
op_case("op_masked_select", M34, "x.masked_select(x > 0.3)", extra="{'fn': T.masked_select(x, x < 0)}")
op_case("op_where_method", M34 + "\n        z = T.tensor([[1.0, 2.0, 3.0, 4.0]], requires_grad=True)",
        "x.where(x > 0.3, z)", leaves=("x", "z"), extra="{'scalar other': x.where(x > 0, 0.0)}")
op_case("op_clone", M34, "x.clone()", extra="{'fn': T.clone(x).grad_fn.name()}")
op_case("op_flatten", "x = T.tensor([[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]], requires_grad=True)",
        "x.flatten(1)", extra="{'all': T.flatten(x), 'range': x.flatten(0, 1).shape}")
op_case("op_permute", "x = T.tensor([[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]], requires_grad=True)", "x.permute(2, 0, 1)",
        extra="{'fn': T.permute(x, (1, 2, 0)).shape, 'neg': x.permute(-1, -2, -3).shape}")
op_case("op_movedim", "x = T.tensor([[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]], requires_grad=True)", "x.movedim(0, 2)",
        extra="{'fn': T.movedim(x, (0, 1), (2, 0)).shape, 'moveaxis': T.moveaxis(x, 2, 0).shape}")
op_case("op_tril", SQ, "x.tril()", extra="{'k': T.tril(x, -1), 'k pos': x.tril(1)}")
op_case("op_triu", SQ, "x.triu()", extra="{'k': T.triu(x, 1), 'k neg': x.triu(-1)}")
op_case("op_cumsum", M34, "x.cumsum(1)", extra="{'dim0': T.cumsum(x, dim=0)}")
op_case("op_cumprod", "x = T.tensor([[0.5, -1.0, 2.0], [3.0, 0.0, -2.5]], requires_grad=True)", "x.cumprod(1)",
        extra="{'dim0': T.cumprod(x, dim=0)}")
case("op_cumprod_second_order", """
    x = T.tensor([0.5, -1.0, 2.0, 1.5], requires_grad=True)
    g, = T.grad(x.cumprod(0).sum(), x, create_graph=True)
    h, = T.grad((g * T.tensor([1.0, -2.0, 0.5, 3.0])).sum(), x)
    result = {'g': g, 'h': h}
""", group="api")
op_case("op_median", V5, "x.median()", extra="{'even count': T.tensor([1.0, 4.0, 2.0, 3.0]).median()}")
case("op_median_dim", f"""
    {M34}
    m = x.median(dim=1)
    m.values.backward(T.tensor([1.0, 2.0, 3.0]))
    result = {{'values': m.values, 'indices': m.indices, 'name': m.values.grad_fn.name(), 'x.grad': x.grad,
              'keepdim': T.median(x, 0, keepdim=True).values.shape}}
""", group="api")
op_case("op_var", M34, "x.var(1)",
        extra="{'all': x.var(), 'correction 0': T.var(x, 0, correction=0), 'unbiased False': x.var(unbiased=False), "
              "'keepdim': x.var(1, keepdim=True).shape}")
op_case("op_std", M34, "x.std(0)",
        extra="{'all': x.std(), 'correction 0': T.std(x, 1, correction=0), 'unbiased False': x.std(unbiased=False)}")
case("op_var_std_second_order", """
    x = T.tensor([0.5, -1.0, 2.0, 1.5], requires_grad=True)
    g, = T.grad(x.var() + x.std(), x, create_graph=True)
    h, = T.grad((g * T.tensor([1.0, -2.0, 0.5, 3.0])).sum(), x)
    result = {'g': g, 'h': h}
""", group="api")
case("op_sort", f"""
    {M34}
    s = x.sort(1)
    d = T.sort(x, dim=0, descending=True)
    (s.values * {_W.replace('y.', 's.values.')}).sum().backward()
    result = {{'values': s.values, 'indices': s.indices, 'name': s.values.grad_fn.name(), 'x.grad': x.grad,
              'desc values': d.values, 'desc indices': d.indices, 'tuple': len(s)}}
""", group="api")
case("op_topk", f"""
    {M34}
    t = x.topk(2, dim=1)
    s = T.topk(x, 1, dim=0, largest=False)
    (t.values * T.tensor([[1.0, -2.0], [0.5, 3.0], [2.0, 1.0]])).sum().backward()
    result = {{'values': t.values, 'indices': t.indices, 'name': t.values.grad_fn.name(), 'x.grad': x.grad,
              'smallest': s.values, 'smallest indices': s.indices}}
""", group="api")
case("op_argmax_argmin", f"""
    {M34}
    result = {{'argmax': x.argmax(), 'argmax dim': x.argmax(dim=1), 'argmin dim keepdim': T.argmin(x, dim=0, keepdim=True),
              'argmin': T.argmin(x), 'requires_grad': x.argmax(dim=1).requires_grad,
              'ties first': T.tensor([1.0, 3.0, 3.0, 0.0, 0.0]).argmax(), 'ties min': T.tensor([1.0, 0.0, 0.0]).argmin()}}
""", group="api")
op_case("op_clamp_min", V5, "x.clamp_min(1.5)", extra="{'fn': T.clamp_min(x, 0.0)}")
op_case("op_clamp_max", V5, "x.clamp_max(1.5)", extra="{'fn': T.clamp_max(x, 0.0)}")
op_case("op_sign", V5 + "\n        x0 = T.tensor([0.0, -0.0], requires_grad=True)", "x.sign() * x",
        extra="{'sign name': x.sign().grad_fn.name(), 'zero': T.sign(x0)}")
case("op_sign_floor_ceil_round_zero_grad", """
    x = T.tensor([0.5, -1.5, 2.5, 1.4, -0.6], requires_grad=True)
    outs = {'sign': x.sign(), 'floor': x.floor(), 'ceil': T.ceil(x), 'round': x.round(), 'round fn': T.round(x),
            'floor fn': T.floor(x), 'ceil m': x.ceil()}
    grads = {}
    for k, v in outs.items():
        g, = T.grad(v.sum(), x)
        grads[k] = [v, v.grad_fn.name(), g]
    result = grads
""", group="api")
op_case("op_lerp", "x = T.tensor([0.5, -1.0, 2.0], requires_grad=True)\n"
        "        e = T.tensor([1.5, 3.0, -2.0], requires_grad=True)\n"
        "        k = T.tensor([0.25, 0.5, 0.9], requires_grad=True)",
        "x.lerp(e, k)", leaves=("x", "e", "k"), extra="{'scalar weight': T.lerp(x, e, 0.3)}")
op_case("op_addmm", "x = T.tensor([[1.0, -1.0], [0.5, 2.0]], requires_grad=True)\n"
        "        a = T.tensor([[1.0, 2.0, 0.5], [-1.0, 0.0, 3.0]], requires_grad=True)\n"
        "        b = T.tensor([[0.5, 1.0], [-2.0, 0.25], [1.5, -1.0]], requires_grad=True)",
        "T.addmm(x, a, b)", leaves=("x", "a", "b"),
        extra="{'scaled': T.addmm(x, a, b, beta=0.5, alpha=2.0), 'method': x.addmm(a, b).grad_fn.name(), "
              "'broadcast bias': T.addmm(T.tensor([1.0, 2.0]), a, b)}")
op_case("op_bmm", "x = T.tensor([[[1.0, 2.0], [3.0, 4.0]], [[0.5, -1.0], [2.0, 0.0]]], requires_grad=True)\n"
        "        b = T.tensor([[[1.0, 0.0, 2.0], [-1.0, 1.0, 0.5]], [[2.0, 1.0, 0.0], [0.0, -1.0, 1.5]]], requires_grad=True)",
        "T.bmm(x, b)", leaves=("x", "b"), extra="{'method': x.bmm(b).shape}")
op_case("op_einsum", "x = T.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)\n"
        "        b = T.tensor([[0.5, -1.0], [2.0, 0.0], [1.0, 1.5]], requires_grad=True)",
        "T.einsum('ij,jk->ik', x, b)", leaves=("x", "b"),
        extra="{'trace': T.einsum('ii', x[:, :2]), 'outer': T.einsum('i,j->ij', x[0], b[:, 0]), "
              "'sum': T.einsum('ij->j', x), 'list form': T.einsum('ij,jk', [x, b]).shape}")
op_case("op_outer", "x = T.tensor([1.0, -2.0, 0.5], requires_grad=True)\n"
        "        b = T.tensor([3.0, 0.25], requires_grad=True)",
        "x.outer(b)", leaves=("x", "b"), extra="{'fn': T.outer(b, x).shape}")
op_case("op_kron", "x = T.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)\n"
        "        b = T.tensor([[0.5, -1.0, 0.0]], requires_grad=True)",
        "T.kron(x, b)", leaves=("x", "b"), extra="{'method': x.kron(b).shape}")
op_case("op_trace", SQ, "x.trace()", extra="{'fn': T.trace(x), 'rect': T.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]).trace()}")
op_case("op_det", SQ, "x.det()", extra="{'fn': T.det(x), 'linalg': T.linalg.det(x), 'batched': T.det(T.stack([x, x * 2.0]))}")
case("op_det_second_order", f"""
    {SQ}
    g, = T.grad(T.det(x), x, create_graph=True)
    h, = T.grad((g * T.tensor([[1.0, 0.5, 0.0], [0.0, 2.0, -1.0], [1.0, 0.0, 1.0]])).sum(), x)
    result = {{'g': g, 'h': h}}
""", group="api")
op_case("op_inverse", SQ, "x.inverse()", extra="{'fn': T.inverse(x), 'linalg': T.linalg.inv(x)}")
op_case("op_linalg_solve", SQ + "\n        b = T.tensor([[1.0, 0.5], [-2.0, 1.0], [0.0, 3.0]], requires_grad=True)",
        "T.linalg.solve(x, b)", leaves=("x", "b"),
        extra="{'vector rhs': T.linalg.solve(x, T.tensor([1.0, 2.0, 3.0]))}")
op_case("op_cross", "x = T.tensor([[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0]], requires_grad=True)\n"
        "        b = T.tensor([[0.5, -1.0, 2.0], [3.0, 1.0, 0.0]], requires_grad=True)",
        "T.cross(x, b, dim=1)", leaves=("x", "b"),
        extra="{'linalg': T.linalg.cross(x, b), 'method': x.cross(b, dim=1)}")

case("op_new_tensor_family", """
    x = T.tensor([[1.0, 2.0]], dtype=T.float32, requires_grad=True)
    d = T.tensor([1.0, 2.0])
    a = x.new_zeros(2, 3)
    b = x.new_ones((2,))
    c = x.new_full((2, 2), 3.5)
    e = x.new_empty(4, 1)
    f = x.new_tensor([1, 2])
    g = x.new_tensor([1.5, 2.5])
    h = d.new_ones(3, dtype=T.int64)
    k = x.new_zeros(2, requires_grad=True)
    result = {'zeros': a, 'ones': b, 'full': c, 'empty shape': [list(e.shape), e.dtype], 'new_tensor ints': f,
              'new_tensor floats': g, 'dtype kw': h, 'requires_grad': [a.requires_grad, f.requires_grad, k.requires_grad],
              'leaf': [a.is_leaf, k.is_leaf], 'f64 base': d.new_tensor([3.0])}
""", group="api")

case("op_bernoulli", """
    T.manual_seed(0)
    p = T.tensor([[0.0, 1.0, 0.0], [1.0, 1.0, 0.0]])
    b = T.bernoulli(p)
    q = p.bernoulli()
    r = T.bernoulli(T.full((2, 5), 0.5))
    pf = T.tensor([0.0, 1.0], dtype=T.float32)
    result = {'deterministic': b, 'method': q, 'shape': list(r.shape), 'dtype': r.dtype,
              'binary': bool(((r == 0) | (r == 1)).all()), 'f32': T.bernoulli(pf),
              'requires_grad': T.bernoulli(T.tensor([0.5], requires_grad=True)).requires_grad}
""", group="api")

case("op_randint", """
    T.manual_seed(0)
    a = T.randint(5, (3, 4))
    b = T.randint(2, 7, (10,))
    c = T.randint(3, size=(2,))
    d = T.randint(0, 2, (2, 2), dtype=T.float64)
    result = {'a': [list(a.shape), a.dtype, bool(((a >= 0) & (a < 5)).all())],
              'b': [list(b.shape), b.dtype, bool(((b >= 2) & (b < 7)).all())],
              'c': [list(c.shape), c.dtype], 'd': [list(d.shape), d.dtype],
              'requires_grad': a.requires_grad}
""", group="api")

case("op_inplace_functions", """
    x = T.tensor([0.5, -1.0, 2.0])
    out = {}
    for name in ['sin_', 'cos_', 'exp_', 'tanh_', 'sigmoid_', 'relu_', 'abs_', 'neg_', 'square_']:
        t = x.clone()
        r = getattr(T, name)(t)
        out[name] = [t, r is t, t._version]
    t = T.tensor([0.25, 4.0])
    out['sqrt_'] = [T.sqrt_(t), t._version]
    t = T.tensor([0.25, 4.0])
    out['log_'] = [T.log_(t), t._version]
    t = T.tensor([0.5, -1.0, 2.0])
    out['clamp_'] = [T.clamp_(t, -0.5, 1.0), t._version]
    leaf = T.tensor([1.0], requires_grad=True)
    out['leaf error'] = catch(lambda: T.sin_(leaf))
    y = leaf * 2.0
    T.exp_(y)
    y.backward()
    out['graph'] = [y.grad_fn.name(), leaf.grad]
    result = out
""", group="api")

case("op_set_default_device", """
    before = str(T.get_default_device())
    T.set_default_device('cpu')
    a = T.ones(2)
    during = str(T.get_default_device())
    T.set_default_device(None)
    after = str(T.get_default_device())
    result = {'before': before, 'during': during, 'after': after, 'a.device': str(a.device),
              'tensor device': str(T.tensor([1.0]).device)}
""", group="api")

case("nan_median", """
    out = {}
    for label, values in [('all nan', [float('nan'), float('nan'), float('nan')]),
                          ('some nan', [1.0, float('nan'), 3.0, float('nan')])]:
        x = T.tensor(values, requires_grad=True)
        y = x.median()
        y.backward()
        out[label] = [y, y.grad_fn.name(), x.grad]
    result = out
""", group="api")


# ---------------------------------------------------------------- from the audit of test_autograd.py
# test_grad_nonleaf_many_outputs
case("view_api_grad_wrt_chunks", """
    x = T.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]], requires_grad=True)
    a, b = x.chunk(2)
    called = [False]
    def hook(*grads):
        called[0] = True
    x.register_hook(hook)
    go = T.tensor([[1.0, -1.0], [0.5, 2.0]])
    ga, gb = T.grad(a + 2 * b, [a, b], grad_outputs=go, create_graph=True)
    result = {'ga': ga, 'gb': gb, 'hook called': called[0], 'x.grad': x.grad}
""", group="api")

# test_grad_nonleaf_register_hook
case("view_api_unbind_hook_backward_each", """
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    parts = x.unbind()
    seen = []
    parts[0].register_hook(lambda g: seen.append(None if g is None else g.clone()))
    parts[0].backward()
    first = x.grad.clone()
    for p in parts[1:]:
        p.backward()
    result = {'seen': seen, 'first': first, 'x.grad': x.grad}
""", group="api")

# test_inplace_not_requires_grad, test_inplace_on_view_of_multiple_output_view,
# test_inplace_multiple_output_view_of_view, test_autograd_views_codegen (unbind part)
case("view_api_multi_output_more_errors", """
    b = T.tensor([1.0], requires_grad=True)
    plain = T.tensor([[1.0, 2.0]])
    view_a = plain.unbind()[0]
    copy_err = catch(lambda: view_a.copy_(b))
    ok = T.tensor([[1.0, 2.0]])
    ok.select(1, 0).copy_(b)
    r = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x = r.clone()
    u = x.unbind(0)
    view_of_output = catch(lambda: u[0].view_as(u[0]).mul_(2))
    x2 = r.clone()
    output_of_view = catch(lambda: x2.view_as(x2).unbind(0)[0].mul_(2))
    x3 = r.clone()
    with T.no_grad():
        u3 = x3.unbind()
    in_no_grad = catch(lambda: u3[1].add_(1))
    result = {'copy_ into unbind output': copy_err, 'select copy_ ok': [ok.requires_grad, ok.grad_fn.name()],
              'view of output': view_of_output, 'output of view': output_of_view, 'made in no_grad': in_no_grad}
""", group="api", loose=PREFIX)

# test_isolated_node
case("op_isolated_integer_branch", """
    x = T.tensor([[1.0, 5.0], [3.0, 2.0]], requires_grad=True)
    y = T.tensor([[0.5, 0.5], [1.0, -1.0]], requires_grad=True)
    a = x + y
    b = T.max(a, 1, True)[1].repeat(1, 2).double()
    o = (b + a).sum()
    o.backward()
    result = {'b': b, 'b.requires_grad': b.requires_grad, 'x.grad': x.grad}
""", group="api")

# TestAutogradInferenceMode (test_inference_mode_context_manager, _decorator, _tensor_creation,
# _existing_autograd_session, _handle_direct_view_on_rebase, test_mix_inference_and_normal_tensor_functional_op)
case("inference_mode_more", """
    out = {'enabled outside': T.is_inference_mode_enabled()}
    with T.inference_mode():
        out['enabled inside'] = T.is_inference_mode_enabled()
        with T.inference_mode(False):
            out['enabled in inference_mode(False)'] = T.is_inference_mode_enabled()
        c = T.ones(2, requires_grad=True)
        out['created with requires_grad'] = [c.requires_grad, c.is_leaf]
    def func(t):
        return t * t
    d = T.inference_mode(mode=True)(func)(T.ones(2, requires_grad=True))
    e = T.inference_mode(False)(func)(T.ones(2, requires_grad=True))
    out['decorated results requires_grad'] = [d.requires_grad, e.requires_grad]
    s = T.ones(2, requires_grad=True)
    a = s.clone()
    prod = a * a
    with T.inference_mode():
        a.add_(2)
    out['version bumped in inference mode'] = a._version
    out['saved tensor error'] = catch(lambda: prod.backward(T.ones(2)))
    s2 = T.ones(2, requires_grad=True)
    a2 = s2.clone()
    with T.inference_mode():
        view_out = a2.view_as(a2)
    out['view made in inference mode'] = catch(lambda: view_out.add_(2))
    s3 = T.ones(2, requires_grad=True)
    total = c.add(s3)
    total.backward(T.ones(2))
    out['inference leaf grad'] = c.grad
    result = out
""", group="api")

# test_trace_backward_nonsquare_171704
case("op_trace_rectangular_backward", """
    out = {}
    for shape in [(3, 2), (2, 4), (1, 3)]:
        x = T.ones(*shape, requires_grad=True)
        T.trace(x).backward()
        out[str(shape)] = x.grad
    result = out
""", group="api")


# ---------------------------------------------------------------- torch.nn.functional (issue 10)
# Values, node names and first derivatives of the activations and losses, each loss with each
# reduction; second derivatives through T.grad(create_graph=True); PyTorch's argument errors.
_FX = "x = T.tensor([[0.5, -1.0, 2.0, 1.5], [3.0, 0.25, -2.5, 1.0], [-0.75, 4.0, 0.1, -1.2]], requires_grad=True)"
_FT = "t = T.tensor([[0.2, 0.9, 0.0, 1.0], [0.5, 0.1, 0.7, 0.3], [1.0, 0.6, 0.4, 0.05]], requires_grad=True)"
_FP = "p = T.tensor([[0.3, 0.8, 0.6, 0.85], [0.6, 0.12, 0.45, 0.7], [0.15, 0.35, 0.9, 0.25]], requires_grad=True)"


def nn_case(name, setup, expr, leaves, second=True):
    """y = expr; its value, node and next nodes, y.backward(w) grads, and the grads of the sum
    of the first-order grads (second derivatives) for the float leaves: zeros where a leaf gets
    none (PyTorch's first derivatives of relu, leaky_relu or nll_loss require grad though they
    are constant in x; ours do not) and cloned (PyTorch's zero second derivatives are
    storage-less zero tensors). second=False leaves them out: binary_cross_entropy's, where
    PyTorch's double backward adds 1e-12 to x and 1 - x in its denominator, so it differs from
    the exact second derivative by more than the 1e-10 tolerance near cancellations (our second
    derivatives are checked by finite differences in tests/engine/ops/test_ops.py)."""
    grads = ", ".join(f"'{v}.grad': {v}.grad" for v in leaves)
    leaf_list = ", ".join(leaves)
    setup = setup.replace("\n", "\n        ")
    more = ", 'second': second" if second else ""
    case(name, f"""
        F = T.nn.functional
        {setup}
        y = {expr}
        w = {_W}
        first = T.grad(y, [{leaf_list}], w, create_graph=True, allow_unused=True)
        total = sum(g.sum() for g in first if g is not None and g.requires_grad)
        leaves = [{leaf_list}]
        second = T.grad(total, leaves, retain_graph=True, allow_unused=True) \
            if isinstance(total, T.Tensor) and total.requires_grad else [None] * len(leaves)
        second = [T.zeros_like(v) if g is None else g.clone() for g, v in zip(second, leaves)]
        y.backward(w)
        result = dict({{'y': y, 'name': y.grad_fn.name(),
                       'next': [n.name() if n is not None else None for n, _ in y.grad_fn.next_functions],
                       {grads}{more}}})
    """, group="api", loose=PREFIX)


for _name, _expr in [("softplus", "F.softplus(x)"), ("softplus_beta", "F.softplus(x, beta=2.0, threshold=3.0)"),
                     ("gelu", "F.gelu(x)"), ("gelu_tanh", "F.gelu(x, approximate='tanh')"),
                     ("silu", "F.silu(x)"), ("leaky_relu", "F.leaky_relu(x)"),
                     ("leaky_relu_slope", "F.leaky_relu(x, negative_slope=0.2)"), ("elu", "F.elu(x)"),
                     ("elu_alpha", "F.elu(x, alpha=0.5)"), ("selu", "F.selu(x)"), ("celu", "F.celu(x, alpha=2.0)"),
                     ("logsigmoid", "F.logsigmoid(x)"), ("relu", "F.relu(x)"), ("sigmoid", "F.sigmoid(x)"),
                     ("tanh", "F.tanh(x)"), ("softmax", "F.softmax(x, dim=1)"),
                     ("log_softmax", "F.log_softmax(x, dim=0)"),
                     ("leaky_relu_inplace", "F.leaky_relu(x * 1.0, 0.1, inplace=True)"),
                     ("elu_inplace", "F.elu(x * 1.0, inplace=True)"), ("relu_inplace", "F.relu(x * 1.0, inplace=True)"),
                     # hardtanh: x holds -1.0 and 1.0, the default bounds themselves (a zero gradient there)
                     ("hardtanh", "F.hardtanh(x)"), ("hardtanh_bounds", "F.hardtanh(x, -0.75, 2.0)"),
                     ("hardtanh_inplace", "F.hardtanh(x * 1.0, 0.0, 1.5, inplace=True)"),
                     ("hardtanh_", "F.hardtanh_(x * 2.0)"), ("relu6", "F.relu6(x * 2.0)"),
                     ("relu6_inplace", "F.relu6(x * 3.0, inplace=True)")]:
    nn_case(f"nn_{_name}", _FX, _expr, ("x",))

for _r in ("mean", "sum", "none"):
    nn_case(f"nn_mse_loss_{_r}", f"{_FX}\n{_FT}", f"F.mse_loss(x, t, reduction='{_r}')", ("x", "t"))
    nn_case(f"nn_l1_loss_{_r}", f"{_FX}\n{_FT}", f"F.l1_loss(x, t, reduction='{_r}')", ("x", "t"))
    nn_case(f"nn_bce_{_r}", f"{_FP}\n{_FT}", f"F.binary_cross_entropy(p, t, reduction='{_r}')", ("p", "t"),
            second=False)
    nn_case(f"nn_bce_weight_{_r}", f"{_FP}\n{_FT}\nwt = T.tensor([0.5, 1.0, 2.0, 0.25])",
            f"F.binary_cross_entropy(p, t, weight=wt, reduction='{_r}')", ("p", "t"), second=False)
    nn_case(f"nn_bce_logits_{_r}", f"{_FX}\n{_FT}", f"F.binary_cross_entropy_with_logits(x, t, reduction='{_r}')",
            ("x", "t"))
    nn_case(f"nn_bce_logits_weights_{_r}",
            f"{_FX}\n{_FT}\nwt = T.tensor([0.5, 1.0, 2.0, 0.25])\npw = T.tensor([3.0, 0.5, 1.0, 2.0])",
            f"F.binary_cross_entropy_with_logits(x, t, weight=wt, pos_weight=pw, reduction='{_r}')", ("x", "t"))
    nn_case(f"nn_nll_loss_{_r}", f"{_FX}\nc = T.tensor([1, 0, 3])", f"F.nll_loss(x, c, reduction='{_r}')", ("x",))
    nn_case(f"nn_nll_loss_weight_ignore_{_r}", f"{_FX}\nc = T.tensor([1, -100, 3])\nwt = T.tensor([0.5, 1.0, 2.0, 0.25])",
            f"F.nll_loss(x, c, weight=wt, reduction='{_r}')", ("x",))
    nn_case(f"nn_cross_entropy_{_r}", f"{_FX}\nc = T.tensor([1, 0, 3])", f"F.cross_entropy(x, c, reduction='{_r}')",
            ("x",))
    nn_case(f"nn_cross_entropy_weight_ignore_{_r}",
            f"{_FX}\nc = T.tensor([1, 2, 3])\nwt = T.tensor([0.5, 1.0, 2.0, 0.25])",
            f"F.cross_entropy(x, c, weight=wt, ignore_index=2, reduction='{_r}')", ("x",))
    nn_case(f"nn_cross_entropy_probs_{_r}", f"{_FX}\n{_FT}", f"F.cross_entropy(x, t.softmax(1), reduction='{_r}')",
            ("x", "t"))
    nn_case(f"nn_cross_entropy_probs_weight_smooth_{_r}", f"{_FX}\n{_FT}\nwt = T.tensor([0.5, 1.0, 2.0, 0.25])",
            f"F.cross_entropy(x, t.softmax(1), weight=wt, label_smoothing=0.1, reduction='{_r}')", ("x", "t"))
    nn_case(f"nn_cross_entropy_smoothing_{_r}", f"{_FX}\nc = T.tensor([1, -100, 3])",
            f"F.cross_entropy(x, c, label_smoothing=0.2, reduction='{_r}')", ("x",))
    nn_case(f"nn_cross_entropy_smoothing_weight_{_r}",
            f"{_FX}\nc = T.tensor([1, 0, 3])\nwt = T.tensor([0.5, 1.0, 2.0, 0.25])",
            f"F.cross_entropy(x, c, weight=wt, label_smoothing=0.3, reduction='{_r}')", ("x",))

nn_case("nn_mse_loss_broadcast", f"{_FX}\nt = T.tensor([0.5, -0.5, 1.0, 2.0], requires_grad=True)",
        "F.mse_loss(x, t)", ("x", "t"))
nn_case("nn_l1_loss_broadcast", f"{_FX}\nt = T.tensor([[0.5], [-0.5], [1.0]], requires_grad=True)",
        "F.l1_loss(x, t, reduction='sum')", ("x", "t"))
nn_case("nn_mse_loss_weight", f"{_FX}\n{_FT}\nwt = T.tensor([[1.0, 2.0, 0.5, 0.0]] * 3, requires_grad=True)",
        "F.mse_loss(x, t, weight=wt)", ("x", "t", "wt"))
nn_case("nn_nll_loss_spatial", "x = T.tensor([[[0.5, -1.0], [2.0, 1.5], [3.0, 0.25]], [[-2.5, 1.0], [-0.75, 4.0], "
        "[0.1, -1.2]]], requires_grad=True)\nc = T.tensor([[0, 2], [1, -100]])", "F.nll_loss(x, c)", ("x",))
nn_case("nn_nll_loss_spatial_none", "x = T.tensor([[[0.5, -1.0], [2.0, 1.5], [3.0, 0.25]], [[-2.5, 1.0], [-0.75, 4.0], "
        "[0.1, -1.2]]], requires_grad=True)\nc = T.tensor([[0, 2], [1, -100]])", "F.nll_loss(x, c, reduction='none')",
        ("x",))
nn_case("nn_cross_entropy_spatial_4d", "x = T.tensor([[[[0.5], [-1.0]], [[2.0], [1.5]], [[3.0], [0.25]]]], "
        "requires_grad=True)\nc = T.tensor([[[2], [0]]])", "F.cross_entropy(x, c, reduction='sum')", ("x",))
nn_case("nn_cross_entropy_one_sample", "x = T.tensor([0.5, -1.0, 2.0, 1.5], requires_grad=True)\nc = T.tensor(2)",
        "F.cross_entropy(x, c)", ("x",))
nn_case("nn_nll_loss_all_ignored", f"{_FX}\nc = T.tensor([-100, -100, -100])", "F.nll_loss(x, c)", ("x",))

case("nn_functional_errors", """
    F = T.nn.functional
    x = T.tensor([[0.5, -1.0, 2.0, 1.5], [3.0, 0.25, -2.5, 1.0], [-0.75, 4.0, 0.1, -1.2]], requires_grad=True)
    q = T.tensor([0.5, 1.5])
    out = {}
    out['nll out of bounds'] = catch(lambda: F.nll_loss(x, T.tensor([0, 5, 1])))
    out['nll negative'] = catch(lambda: F.nll_loss(x, T.tensor([0, -1, 1])))
    out['nll float target'] = catch(lambda: F.nll_loss(x, T.tensor([0.0, 1.0, 1.0])))
    out['nll batch'] = catch(lambda: F.nll_loss(x, T.tensor([0, 1])))
    out['nll weight size'] = catch(lambda: F.nll_loss(x, T.tensor([0, 1, 1]), weight=T.ones(3)))
    out['nll weight grad'] = catch(lambda: F.nll_loss(x, T.tensor([0, 1, 1]), weight=T.ones(4, requires_grad=True)))
    out['nll reduction'] = catch(lambda: F.nll_loss(x, T.tensor([0, 1, 1]), reduction='avg'))
    out['bce range'] = catch(lambda: F.binary_cross_entropy(q, T.tensor([0.0, 1.0])))
    out['bce size'] = catch(lambda: F.binary_cross_entropy(T.tensor([0.5, 0.5]), T.tensor([[0.0, 1.0]])))
    out['bce weight grad'] = catch(lambda: F.binary_cross_entropy(T.tensor([0.5, 0.5]), T.tensor([0.0, 1.0]),
                                                                  weight=T.ones(2, requires_grad=True)))
    out['bce logits size'] = catch(lambda: F.binary_cross_entropy_with_logits(T.tensor([0.5, 0.5]),
                                                                              T.tensor([[0.0, 1.0]])))
    out['bce logits pos_weight grad'] = catch(lambda: F.binary_cross_entropy_with_logits(
        T.tensor([0.5, 0.5]), T.tensor([0.0, 1.0]), pos_weight=T.ones(2, requires_grad=True)))
    out['mse reduction'] = catch(lambda: F.mse_loss(q, T.tensor([0.0, 1.0]), reduction='avg'))
    out['mse shapes'] = catch(lambda: F.mse_loss(q, T.tensor([0.0, 1.0, 2.0])))
    out['mse broadcast warning'] = warns(lambda: F.mse_loss(q, T.tensor([[0.0, 1.0]])))
    out['l1 broadcast warning'] = warns(lambda: F.l1_loss(q, T.tensor([[0.0, 1.0]])))
    out['mse weight size'] = catch(lambda: F.mse_loss(q, T.tensor([0.0, 1.0]), weight=T.ones(3)))
    out['gelu approximate'] = catch(lambda: F.gelu(x, approximate='fast'))
    out['hardtanh bounds'] = catch(lambda: F.hardtanh(x, 2.0, 1.0))
    out['hardtanh bool'] = catch(lambda: F.hardtanh(T.tensor([True, False])))
    out['hardtanh long'] = F.hardtanh(T.tensor([1, 2, -3]))
    out['relu6 long'] = F.relu6(T.tensor([1, 2, -3, 9]))
    n = T.tensor([float('nan'), 0.5, -3.0], requires_grad=True)
    out['hardtanh nan'] = F.hardtanh(n)
    out['hardtanh nan grad'] = T.grad(F.hardtanh(n).sum(), n)[0]
    out['softplus long'] = catch(lambda: F.softplus(T.tensor([1, 2])))
    out['ce smoothing'] = catch(lambda: F.cross_entropy(x, T.tensor([0, 1, 1]), label_smoothing=1.5))
    out['ce probs ignore_index'] = catch(lambda: F.cross_entropy(x, T.rand(3, 4), ignore_index=1))
    out['ce probs shape'] = catch(lambda: F.cross_entropy(x, T.rand(3, 5)))
    out['softmax implicit dim'] = warns(lambda: F.softmax(x))
    out['softmax implicit value'] = F.softmax(x)
    out['log_softmax implicit 1-d'] = F.log_softmax(x[0])
    out['legacy size_average'] = F.mse_loss(x, T.zeros(3, 4), size_average=False)
    out['legacy reduce'] = F.l1_loss(x, T.zeros(3, 4), reduce=False)
    out['legacy warning'] = warns(lambda: F.mse_loss(x, T.zeros(3, 4), size_average=False))
    result = out
""", group="api")

case("bitwise_ops", """
    b = T.tensor([True, False, True])
    i = T.tensor([5, 3, -2])
    f = T.tensor([1.5, 2.0])
    out = {}
    out['and'] = b & T.tensor([True, True, False])
    out['or int'] = i | T.tensor([2, 2, 2], dtype=T.int32)
    out['xor'] = i ^ 3
    out['not'] = (~b, ~i, T.bitwise_not(i))
    out['shifts'] = (i << 2, i >> 1, 1 << i.abs())
    out['mixed bool int'] = b & i
    out['float'] = catch(lambda: f & f)
    out['float number'] = catch(lambda: i & 1.5)
    out['invert float'] = catch(lambda: ~f)
    out['not float'] = catch(lambda: T.bitwise_not(f))
    out['shift float'] = catch(lambda: f << 1)
    out['mask grad'] = catch(lambda: T.autograd.grad(((f > 1.8) & (f < 3)).sum(), f))
    out['no grad, not scalar'] = catch(lambda: T.autograd.grad(f, f))
    out['no grad, backward'] = catch(lambda: f.backward())
    out['no grad, batched'] = catch(lambda: T.autograd.grad(f, f, is_grads_batched=True))
    c = b.clone()
    c |= T.tensor([False, True, False])
    out['in place'] = c
    result = out
""", group="api")

case("nn_legacy_constructors", """
    out = {}
    out['Tensor list'] = T.Tensor([1, 2, 3])
    out['Tensor nested'] = T.Tensor([[1.5, 2], [3, 4]])
    out['Tensor sizes'] = T.Tensor(2, 3).shape
    out['Tensor empty'] = T.Tensor()
    out['Tensor of tensor'] = T.Tensor(T.tensor([1, 2]))
    out['FloatTensor'] = T.FloatTensor([1, 2])
    out['DoubleTensor'] = T.DoubleTensor([[1, 2]])
    out['LongTensor'] = T.LongTensor([1.7, -2.2])
    out['LongTensor size'] = T.LongTensor(3).shape
    out['FloatTensor of long'] = catch(lambda: T.FloatTensor(T.tensor([1, 2])))
    out['Tensor float'] = catch(lambda: T.Tensor(2.5))
    out['Tensor str'] = catch(lambda: T.Tensor('a'))
    out['Tensor negative'] = catch(lambda: T.Tensor(2, -1))
    v = T.autograd.Variable(T.tensor([1.0, 2.0]), requires_grad=True)
    out['Variable'] = v
    out['Variable leaf'] = v.is_leaf
    out['Variable requires_grad'] = v.requires_grad
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = T.autograd.Variable(x * 2)
    out['Variable of non-leaf'] = (y.is_leaf, y.requires_grad, y.grad_fn)
    out['Variable list'] = catch(lambda: T.autograd.Variable([1.0, 2.0]))
    out['Variable long'] = catch(lambda: T.autograd.Variable(T.tensor([1, 2]), requires_grad=True))
    out['aliases'] = [T.float, T.double, T.half, T.long, T.int]
    out['constants'] = [T.e, T.pi, T.inf]
    out['nan'] = T.nan != T.nan
    result = out
""", group="api")

case("nn_tensor_format", """
    out = {}
    for spec in ['', '.3f', '10', '>8', '+.2e']:
        for name, t in [('0-d', T.tensor(2.5)), ('0-d int', T.tensor(3)), ('0-d bool', T.tensor(True)),
                        ('1-d', T.tensor([2.5])), ('2-d', T.tensor([[1.0, 2.0]])),
                        ('0-d grad', T.tensor(2.5, requires_grad=True) * 2)]:
            out[name + ' ' + repr(spec)] = catch(lambda: format(t, spec))
    out['fstring'] = f"{T.tensor(2.5)} {T.tensor(1.0 / 3):.4f} {T.tensor([1.0, 2.0])}"
    out['s on 0-d'] = catch(lambda: format(T.tensor(2.5), 's'))
    result = out
""", group="api")


def run_case(program):
    torch.manual_seed(0)  # gradgradcheck draws random grad_outputs: same record on every run
    namespace = {"T": TorchNamespace(), **PROGRAM_HELPERS}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(compile(program, "<case>", "exec"), namespace)
    return {key: encode(value) for key, value in namespace["result"].items()}


def main():
    torch.set_default_dtype(torch.float64)
    torch.manual_seed(0)
    names = [c["name"] for c in CASES]
    assert len(names) == len(set(names)), "duplicate case names"
    out = []
    for c in CASES:
        try:
            result = run_case(c["program"])
        except Exception as exc:
            raise SystemExit(f"case {c['name']!r} failed under PyTorch: {type(exc).__name__}: {exc}")
        assert torch.is_grad_enabled(), f"case {c['name']!r} left grad mode off"
        out.append(dict(c, result=result))
    document = {
        "generator": "tests/golden/gen_semantics.py",
        "torch_version": torch.__version__,
        "default_dtype": "float64",
        "cases": out,
    }
    with open(OUT, "w") as f:
        json.dump(document, f, indent=1)
        f.write("\n")
    print(f"wrote {len(out)} cases to {os.path.relpath(OUT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
