"""Custom autograd functions (torch.autograd.Function, engine/custom_function.py) against PyTorch
2.13's own output: tests/golden/custom_function.json, recorded by tests/golden/gen_custom_function.py
from the programs of tests/golden/custom_function_cases.py.

1. Engine cases: outputs (values, requires_grad, node names), the first output's node name, next
   functions and output numbers, what forward and backward were given (needs_input_grad,
   materialized or None gradients, ...), the warnings, first and second derivatives -- within the
   dtype's tolerance of PyTorch's (tests/support/tolerance.py); each bad call's exception type and message.
2. Programs of the language, through `autodiff run`: what they print, as Python and PyTorch print it
   (the tutorial's LegendrePolynomial3 number by number, see TUTORIAL_RTOL).
3. What differs by design, and errors in a program's forward or backward reported at their line.
"""
import json
import re
import textwrap

import numpy as np
import pytest

import autodiff.engine as ad

from custom_function_cases import CASES, ERRORS, PROGRAMS, namespace, record, run_error
from tolerance import assert_close
import locations

GOLDEN = json.loads((locations.GOLDEN / "custom_function.json").read_text())

# The tutorial trains in float32 for 2000 steps: each step's loss is a float32 sum of 2000 squares,
# which numpy and PyTorch round differently in the last bits (the same program with P3 written as
# plain operations differs from PyTorch just as much): the losses within this relative distance,
# the two coefficients that go to zero within TUTORIAL_ATOL.
TUTORIAL_RTOL = 2e-6
TUTORIAL_ATOL = 1e-8

# Cases whose gradients' node names are not PyTorch's, for a reason outside custom functions: a 0-d
# weight times a vector (b * P3(...)) has its gradient summed back to the 0-d shape by the engine's
# sum_to (SumToBackward0) where PyTorch's MulBackward0 formula calls sum (SumBackward0) -- the same
# for any op; the values and second derivatives are PyTorch's, within tolerance.
GRAD_NODES_DIFFER = {"legendre_tutorial_model"}


def ours():
    return namespace(ad, ad.Function, ad.once_differentiable)


def _floats(values):
    return np.array([float.fromhex(v) if isinstance(v, str) else v for v in np.ravel(np.array(values, dtype=object))],
                    dtype=np.float64)


def _same(got, want, what):
    """Recorded values equal: tensors with the same dtype, shape and node, their values within the
    dtype's tolerance of PyTorch's (tests/support/tolerance.py: NaN where PyTorch has it)."""
    if isinstance(want, dict):
        assert isinstance(got, dict) and set(got) == set(want), (what, got, want)
        for key in want:
            if key == "values" and "float" in want["dtype"]:
                assert_close(_floats(got["values"]), _floats(want["values"]), want["dtype"].rpartition(".")[2],
                             what=what)
            else:
                assert got[key] == want[key], (what, key, got[key], want[key])
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), (what, got, want)
        for i, (g, w) in enumerate(zip(got, want)):
            _same(g, w, f"{what}[{i}]")
    elif isinstance(want, float) and isinstance(got, float):
        assert_close(_floats([got]), _floats([want]), "float64", what=what)
    else:
        assert got == want, (what, got, want)


@pytest.mark.parametrize("name, program", CASES, ids=[name for name, _ in CASES])
def test_as_pytorch(name, program):
    want = GOLDEN["cases"][name]
    got = record(program, ours())
    assert set(got) == set(want), (sorted(got), sorted(want))
    if name in GRAD_NODES_DIFFER:
        for g in got["grad"]:
            g["node"] = "SumBackward0" if g["node"] == "SumToBackward0" else g["node"]
    for key in sorted(want):
        _same(got[key], want[key], key)


@pytest.mark.parametrize("name, program", ERRORS, ids=[name for name, _ in ERRORS])
def test_bad_calls_as_pytorch(name, program):
    assert run_error(program, ours()) == GOLDEN["errors"][name]


def test_the_golden_file_has_every_case():
    assert GOLDEN["torch"].startswith("2.13")
    assert set(GOLDEN["cases"]) == {name for name, _ in CASES}
    assert set(GOLDEN["errors"]) == {name for name, _ in ERRORS}
    assert set(GOLDEN["programs"]) == {name for name, _ in PROGRAMS}


# ------------------------------------------------------------------ programs of the language

SOURCES = dict(PROGRAMS)


@pytest.mark.parametrize("name", sorted(set(SOURCES) - {"tutorial_legendre"}))
def test_program_prints_what_pytorch_prints(cli, name):
    assert cli.run_ok(SOURCES[name]) == GOLDEN["programs"][name]


def test_the_tutorials_legendre_polynomial_trains_as_in_pytorch(cli, tmp_path):
    script = tmp_path / "legendre.py"
    script.write_text(SOURCES["tutorial_legendre"])
    proc = cli.console("run", str(script), timeout=300)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    want = GOLDEN["programs"]["tutorial_legendre"].splitlines()
    got = proc.stdout.splitlines()
    assert len(got) == len(want) == 21
    for g, w in zip(got[:-1], want[:-1]):  # "t loss"
        (gt, gl), (wt, wl) = g.split(), w.split()
        assert gt == wt and abs(float(gl) - float(wl)) <= TUTORIAL_RTOL * float(wl), (g, w)
    result = re.compile(r"Result: y = (\S+) \+ (\S+) \* P3\((\S+) \+ (\S+) x\)$")
    (ga, gb, gc, gd), (wa, wb, wc, wd) = [[float(v) for v in result.match(line).groups()]
                                          for line in (got[-1], want[-1])]
    assert abs(ga - wa) <= TUTORIAL_ATOL and abs(gc - wc) <= TUTORIAL_ATOL
    assert abs(gb - wb) <= TUTORIAL_RTOL * abs(wb) and abs(gd - wd) <= TUTORIAL_RTOL * abs(wd)


_FAILING = """
    import torch

    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.k = 2
            return x * ctx.{forward}

        @staticmethod
        def backward(ctx, g):
            return g * ctx.{backward}

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = F.apply(x)
    y.sum().backward()
"""


def test_an_error_in_forward_is_reported_at_its_line(cli):
    err = cli.run_fails(_FAILING.format(forward="nope", backward="k"))
    assert err.startswith("error: 'FBackward' object has no attribute 'nope'\n  at <code>, line 7, column 20:\n"), err
    assert "return x * ctx.nope" in err


def test_an_error_in_backward_is_reported_at_its_line(cli):
    err = cli.run_fails(_FAILING.format(forward="k", backward="nope"))
    assert err.startswith("error: 'FBackward' object has no attribute 'nope'\n  at <code>, line 11, column 20:\n"), err
    assert "return g * ctx.nope" in err


def test_a_wrong_backward_is_reported_where_backward_was_called(cli):
    err = cli.run_fails("""
        import torch
        class F(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, y):
                return x * y
            @staticmethod
            def backward(ctx, g):
                return g
        x = torch.tensor([1.0], requires_grad=True)
        z = F.apply(x, x)
        z.sum().backward()
    """)
    assert err.startswith("error: function FBackward returned an incorrect number of gradients (expected 2, "
                          "got 1)\n  at <code>, line 11, column 1:\n"), err


def test_a_program_reaches_only_the_allowed_names(cli):
    base = textwrap.dedent("""
        import torch
        class F(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                ctx.scale = 2
                return x * 2
            @staticmethod
            def backward(ctx, g):
                return g * 2
        y = F.apply(torch.tensor([1.0], requires_grad=True))
    """)
    assert cli.run_ok(base + "print(y.grad_fn.scale, F.apply is not None, len(y.grad_fn.saved_tensors))") == \
        "2 True 1\n"
    for reach in ("F._backward_cls", "F.__subclasses__", "y.grad_fn._ctx", "y.grad_fn.inputs", "F.mro"):
        assert "error:" in cli.run(base + f"print({reach})").stderr, reach


def test_a_program_can_set_ctx_attributes_but_not_its_methods(cli):
    err = cli.run_fails("""
        import torch
        class F(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward = 3
                return x
            @staticmethod
            def backward(ctx, g):
                return g
        F.apply(torch.tensor([1.0], requires_grad=True))
    """)
    assert "can't set 'save_for_backward'" in err


def test_eval_differentiates_through_a_custom_function(cli):
    source = ("class P3(torch.autograd.Function):\n"
              "    @staticmethod\n"
              "    def forward(ctx, input):\n"
              "        ctx.save_for_backward(input)\n"
              "        return 0.5 * (5 * input ** 3 - 3 * input)\n"
              "    @staticmethod\n"
              "    def backward(ctx, grad_output):\n"
              "        input, = ctx.saved_tensors\n"
              "        return grad_output * 1.5 * (5 * input ** 2 - 1)\n"
              "P3.apply(x)")
    # P3(0.5) = -0.4375; P3'(x) = 1.5 (5x^2 - 1) = 0.375 there; P3''(x) = 15x = 7.5
    proc = cli.console("eval", source, "x=0.5", "--order", "2", "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["value"] == -0.4375 and out["grad"] == {"x": 7.5}


# ------------------------------------------------------------------ by design

def test_several_outputs_have_one_node_each_that_reads_as_the_functions():
    # PyTorch has one node for both (s.grad_fn is c.grad_fn); here each output has its own, with the
    # same name, next functions and ctx, and its output number
    class SinCos(ad.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.tag = "t"
            return x.sin(), x.cos()

        @staticmethod
        def backward(ctx, gs, gc):
            return gs * x.cos() - gc * x.sin()

    x = ad.tensor([0.5, 1.0], requires_grad=True)
    s, c = SinCos.apply(x)
    assert s.grad_fn is not c.grad_fn
    assert s.grad_fn.name() == c.grad_fn.name() == "SinCosBackward"
    assert s.grad_fn.next_functions == c.grad_fn.next_functions
    assert s.grad_fn.context() is c.grad_fn.context() and c.grad_fn.tag == "t"
    assert [i for _, i in (s + c).grad_fn.next_functions] == [0, 1]


# ------------------------------------------------------------------ numerically, and at scale

class _Legendre(ad.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return 0.5 * (5 * x ** 3 - 3 * x)

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * 1.5 * (5 * x ** 2 - 1)


class _PolarToXY(ad.Function):
    """Two inputs, two outputs, one saved output: x = r cos t, y = r sin t."""

    @staticmethod
    def forward(ctx, r, t):
        x, y = r * t.cos(), r * t.sin()
        ctx.save_for_backward(r, t, x, y)
        return x, y

    @staticmethod
    def backward(ctx, gx, gy):
        r, t, x, y = ctx.saved_tensors
        return gx * t.cos() + gy * t.sin(), -gx * y + gy * x


def test_first_and_second_derivatives_against_finite_differences():
    x = ad.tensor([-1.3, -0.2, 0.4, 1.7], dtype=ad.float64, requires_grad=True)
    assert ad.gradcheck(_Legendre.apply, (x,)) and ad.gradgradcheck(_Legendre.apply, (x,))
    r = ad.tensor([0.5, 2.0, 1.5], dtype=ad.float64, requires_grad=True)
    t = ad.tensor([0.3, -1.2, 2.5], dtype=ad.float64, requires_grad=True)
    assert ad.gradcheck(_PolarToXY.apply, (r, t)) and ad.gradgradcheck(_PolarToXY.apply, (r, t))


def test_a_wrong_backward_fails_gradcheck():
    class Wrong(ad.Function):
        @staticmethod
        def forward(ctx, x):
            return x ** 2

        @staticmethod
        def backward(ctx, g):
            return g * 3

    x = ad.tensor([0.5, 1.5], dtype=ad.float64, requires_grad=True)
    assert not ad.gradcheck(Wrong.apply, (x,), raise_exception=False)


def test_batched_gradients_are_the_rows_of_the_jacobian():
    r = ad.tensor([0.5, 2.0], dtype=ad.float64, requires_grad=True)
    t = ad.tensor([0.3, -1.2], dtype=ad.float64, requires_grad=True)
    x, y = _PolarToXY.apply(r, t)
    eye = ad.eye(2, dtype=ad.float64)
    gr, gt = ad.grad([x, y], [r, t], [eye, 2 * eye], is_grads_batched=True, retain_graph=True)
    for i in range(2):
        want = ad.grad([x, y], [r, t], [eye[i], 2 * eye[i]], retain_graph=True)
        assert gr[i].tolist() == want[0].tolist() and gt[i].tolist() == want[1].tolist()


def test_a_long_chain_of_custom_functions_needs_no_recursion():
    class Scale(ad.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1.00001

        @staticmethod
        def backward(ctx, g):
            return g * 1.00001

    x = ad.tensor(0.5, dtype=ad.float64, requires_grad=True)
    y = x
    for _ in range(5000):  # (past Python's recursion limit)
        y = Scale.apply(y)
    y.backward()
    want = 1.0
    for _ in range(5000):  # the backward's multiplications, in its order
        want *= 1.00001
    assert x.grad.item() == want


def test_on_each_device_the_gradients_stay_there(device):
    from cuda_fixtures import cuda_array_type
    r = ad.tensor([0.5, 2.0], dtype=ad.float64, device=device, requires_grad=True)
    t = ad.tensor([0.3, -1.2], dtype=ad.float64, device=device, requires_grad=True)
    x, y = _PolarToXY.apply(r, t)
    z = _Legendre.apply(x * y)
    gr, gt = ad.grad(z.sum(), [r, t], create_graph=True)
    hr, = ad.grad((gr + gt).sum(), [r])
    kind = np.ndarray if device == "cpu" else cuda_array_type()
    assert all(isinstance(v.array, kind) for v in (x, y, z, gr, gt, hr))
    with ad.no_grad():  # d/dr of (xy = r^2 sin t cos t) through P3: P3'(xy) * 2 r sin t cos t
        s, c = t.sin(), t.cos()
        u = r * r * s * c
        want = 1.5 * (5 * u ** 2 - 1) * 2 * r * s * c
    assert np.allclose(ad.tensor(gr.tolist()).numpy(), ad.tensor(want.tolist()).numpy(), rtol=1e-12)


def test_formula_names_the_function(cli):
    source = ("class E(torch.autograd.Function):\n"
              "    @staticmethod\n"
              "    def forward(ctx, x):\n"
              "        y = x.exp()\n"
              "        ctx.save_for_backward(y)\n"
              "        return y\n"
              "    @staticmethod\n"
              "    def backward(ctx, g):\n"
              "        y, = ctx.saved_tensors\n"
              "        return g * y\n"
              "E.apply(x * 2) * x")
    proc = cli.console("eval", source, "x=0.5", "--formula", "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["formula"] == {"x": "2*x*E.apply(2*x) + E.apply(2*x)"}
