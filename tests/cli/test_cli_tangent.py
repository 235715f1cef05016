"""`autodiff eval --tangent NAME=VALUE`: f's directional derivative along the variables' tangents,
computed in forward mode (the program runs in a dual level), in the text and JSON outputs
("jvp"), with the option's errors located as --wrt's and --weights' are."""
import math

import numpy


def eq(a, b):
    numpy.testing.assert_allclose(numpy.asarray(a, dtype=float), numpy.asarray(b, dtype=float), rtol=1e-12,
                                  atol=1e-12)


def test_a_scalar_jvp_beside_the_gradient(cli):
    out = cli.job("a*x**2+b*x", "a=2", "b=3", "x=1", "--tangent", "x=1", "--tangent", "a=0.5")
    assert out["grad"] == {"a": 1.0, "b": 1.0, "x": 7.0}
    eq(out["jvp"], 7.0 * 1 + 1.0 * 0.5)  # df/dx * 1 + df/da * 0.5; b's tangent is 0


def test_a_tensor_tangent_and_a_non_scalar_f_need_no_weights(cli):
    out = cli.job("sin(x) * y", "x=[0, 1]", "y=2", "--tangent", "x=[1, 0]", "--tangent", "y=1")
    assert out["grad"] == {}
    eq(out["jvp"], [2 * math.cos(0.0) + math.sin(0.0), math.sin(1.0)])
    assert out["shape"] == [2]


def test_a_number_is_the_same_tangent_everywhere(cli):
    out = cli.job("sum(x**2)", "x=[1, 2, 3]", "--tangent", "x=1")
    eq(out["jvp"], 2 * (1 + 2 + 3))


def test_a_variable_the_program_assigns_takes_its_tangent(cli):
    out = cli.job("x = 3; x**2", "--tangent", "x=1")
    eq(out["jvp"], 6.0)


def test_f_that_does_not_depend_on_the_tangents_has_a_zero_jvp(cli):
    out = cli.job("y * 2", "x=1", "y=3", "--tangent", "x=1")
    eq(out["jvp"], 0.0)


def test_text_output(cli):
    lines = cli.ok("eval", "x**3", "x=2", "--tangent", "x=0.5").stdout.splitlines()
    assert lines == ["f = 8", "df/dx = 12", "jvp (df along the tangent) = 6"]


def test_help_documents_the_option(cli):
    help_text = cli.ok("eval", "--help").stdout
    assert "--tangent NAME=VALUE" in help_text and "forward mode" in help_text


def test_a_tangent_of_an_unknown_variable_is_the_jobs_error(cli):
    err = cli.failed_job("x**3", "x=2", "--tangent", "z=1")
    assert err["type"] == "NameError" and err["message"] == "--tangent z: no variable named 'z'"
    assert err["column"] == 1


def test_a_tangent_of_the_wrong_shape_points_at_f(cli):
    text = cli.error_text("eval", "x**3", "x=[1, 2]", "--tangent", "x=[1, 2, 3]")
    assert text.startswith("error: --tangent x has shape [3], which doesn't fit x's shape [2]\n")
    assert "at line 1, column 1:" in text and "hint: give one number" in text


def test_a_tangent_that_does_not_parse_is_located_too(cli):
    text = cli.error_text("eval", "x**3", "x=1", "--tangent", "x=[1, 2")
    assert text.startswith("error: in --tangent x: ") and "at line 1, column 1:" in text


def test_a_tangent_without_a_name_is_a_usage_error(cli):
    message = cli.usage_error("eval", "x**3", "x=1", "--tangent", "1")
    assert message.startswith("Invalid value for --tangent: expected NAME=VALUE")


SCRIPT = """
import torch
import torch.autograd.forward_ad as fwAD

class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_forward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, g):
        return g

    @staticmethod
    def jvp(ctx, t):
        x, = ctx.saved_tensors
        return 3 * x * x * t

x = torch.tensor([1.0, 2.0])
with fwAD.dual_level():
    d = fwAD.make_dual(x, torch.tensor([1.0, 0.5]))
    out = fwAD.unpack_dual((d * d).sum())
    print(out.primal, out.tangent)
    print(fwAD.unpack_dual(Cube.apply(d)).tangent)
    print(d)
print(fwAD.unpack_dual(d).tangent)
"""


def test_forward_ad_in_a_script(cli):
    out = cli.ok("run", "-c", SCRIPT).stdout.splitlines()
    assert out == ["tensor(5.) tensor(4.)", "tensor([3., 6.])", "tensor([1., 2.], tangent=tensor([1.0000, 0.5000]))",
                   "None"]
