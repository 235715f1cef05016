"""Every kind of user error in the language (issue 3, point 3), through
`autodiff eval`: the message, the line and column, the source line with a
caret under the spot, the hint, the exit code, and never a Python traceback.
Also the sandbox (nothing reaches Python itself) and the parser's robustness
on deeply nested and very long input."""
import re

import pytest


def parts(stderr):
    """{'message', 'where', 'source', 'caret', 'hint'} of a one-error report."""
    lines = stderr.rstrip("\n").split("\n")
    out = {"message": lines[0][len("error: "):]}
    rest = lines[1:]
    if rest and rest[0].startswith("  at "):
        out["where"] = rest[0].strip()
        out["source"] = rest[1][4:]
        out["caret"] = rest[2][4:]
        rest = rest[3:]
    for line in rest:
        if line.startswith("  hint: "):
            out["hint"] = line[len("  hint: "):]
    return out


def caret_column(caret):
    return len(caret) - len(caret.lstrip(" ")) + 1


def check(cli, expr, bindings, message, column, hint=None, kind=None, line=1, caret_width=None):
    text = cli.error_text("eval", expr, *bindings)
    p = parts(text)
    assert message in p["message"], p
    assert p["where"] == f"at line {line}, column {column}:", p
    assert p["source"] == expr.split("\n")[line - 1]
    assert caret_column(p["caret"]) == column
    assert set(p["caret"].strip()) == {"^"}
    if caret_width is not None:
        assert len(p["caret"].strip()) == caret_width
    if hint is not None:
        assert hint in p.get("hint", ""), p
    err = cli.failed_job(expr, *bindings)
    assert err["column"] == column
    assert message in err["message"]
    if hint is not None:
        assert hint in err["hint"]
    if kind is not None:
        assert err["type"] == kind
    if line != 1:
        assert err["source_line"] == line
    return p


# --------------------------------------------------------------- syntax errors

def test_number_then_name(cli):
    p = check(cli, "2x", ["x=1"], "missing operator between 2 and x", 2, "did you mean 2*x?", "SyntaxError")
    assert p["caret"] == " ^"


@pytest.mark.parametrize("expr, column, hint", [("x = 007; x*2", 5, "write 7, or 0o7 for an octal number"),
                                                 ("x*0100", 3, "write 100, or 0o100 for an octal number"),
                                                 ("x = 08; x*2", 5, "write 8"), ("x*0129", 3, "write 129")])
def test_a_whole_number_with_leading_zeros_is_refused_as_python_refuses_it(cli, expr, column, hint):
    # (Python's own hint is "use an 0o prefix for octal integers"; 0o8 and 0o129 would be errors too)
    check(cli, expr, ["x=1"] if expr.startswith("x*") else [],
          "leading zeros in decimal integer literals are not permitted", column, hint, "SyntaxError")
    assert cli.error_text("eval", expr, "x=1").rstrip("\n").endswith(f"\n  hint: {hint}")  # the whole hint


@pytest.mark.parametrize("expr, value", [("x = 00; x + 1", 1.0), ("x = 007.5; x*2", 15.0),
                                         ("x = 007e1; x + 0", 70.0), ("x = 0e0; x - 1", -1.0)])
def test_zeros_python_allows_are_read(cli, expr, value):
    assert cli.job(expr)["value"] == value


def test_number_then_name_inside_expression(cli):
    check(cli, "1 + 3y", ["y=1"], "missing operator", 6, "did you mean 3*y?", "SyntaxError")


@pytest.mark.parametrize("expr,column,closer", [
    ("exp(", 4, ")"),
    ("log(x", 4, ")"),
    ("x.sum(dim=0", 6, ")"),
    ("[1,2", 1, "]"),
    ("x[0", 2, "]"),
    ("sin(cos(x)", 4, ")"),
])
def test_bracket_never_closed(cli, expr, column, closer):
    check(cli, expr, ["x=1"], "was never closed", column, f"add '{closer}'", "SyntaxError")


@pytest.mark.parametrize("expr,column,closer", [
    ("(1+2))", 6, ")"),
    ("x)", 2, ")"),
    ("]", 1, "]"),
])
def test_unmatched_closer(cli, expr, column, closer):
    check(cli, expr, ["x=1"], f"unmatched '{closer}'", column, "no ", "SyntaxError")


def test_two_operators_in_a_row(cli):
    check(cli, "x +* 3", ["x=1"], "two operators in a row: '+' then '*'", 4, "remove one", "SyntaxError")


@pytest.mark.parametrize("expr,op,column", [("x +", "+", 3), ("x**", "**", 2), ("x * 2 -", "-", 7)])
def test_trailing_operator(cli, expr, op, column):
    check(cli, expr, ["x=1"], f"the expression ends with '{op}'", column, f"missing after '{op}'", "SyntaxError")


def test_leading_binary_operator(cli):
    check(cli, "*x", ["x=1"], "'*' needs a value on its left", 1, kind="SyntaxError")


def test_unexpected_character(cli):
    check(cli, "x $ 2", ["x=1"], "unexpected character '$'", 3, kind="SyntaxError")


def test_two_values_side_by_side(cli):
    check(cli, "sin x", ["x=1"], "missing operator before 'x'", 5, "sin*x", "SyntaxError")


def test_unexpected_indentation_on_line_2(cli):
    check(cli, "x\n  + 1", ["x=1"], "unexpected indentation", 3, line=2, kind="SyntaxError")


def test_error_on_later_line_names_that_line(cli):
    check(cli, "y = x**2\nz = y +* 1\nz", ["x=1"], "two operators in a row", 8, line=2)


# ---------------------------------------------------------------- name errors

def test_unknown_function_suggests_closest_names(cli):
    p = check(cli, "sine(x)", ["x=1"], "sine", 1, "sin", caret_width=4)
    assert "did you mean" in p["hint"]


def test_unknown_method_suggests_closest_names(cli):
    p = check(cli, "x.sume()", ["x=[1,2]"], "sume", 1)
    assert "sum" in p.get("hint", "")


def test_unbound_variable_suggests_binding_it(cli):
    check(cli, "x + y", ["x=1"], "name 'y' is not defined", 5, "y=VALUE", "NameError", caret_width=1)


def test_unbound_variable_without_any_binding(cli):
    check(cli, "a*x**2", [], "name 'a' is not defined", 1, "a=VALUE", "NameError")


def test_error_in_binding_value_is_named(cli):
    assert cli.error_text("eval", "x**2", "x=(1") == \
        "error: in the value of x: '(' was never closed\n  hint: add ')' at the end\n"
    assert cli.error_text("eval", "x**2", "x=y") == \
        "error: in the value of x: name 'y' is not defined\n  hint: bind it: add y=VALUE (e.g. y=1) or --set y=VALUE\n"


# -------------------------------------------------------------- runtime errors

def test_shape_mismatch_names_the_subexpression(cli):
    # the failing sub-expression is `x + y`, inside the brackets
    p = check(cli, "sum(x) + (x + y)", ["x=[1,2]", "y=[1,2,3]"], "must match the size", 11, kind="RuntimeError",
              caret_width=5)
    assert "(2)" in p["message"] and "(3)" in p["message"]


def test_shape_mismatch_on_a_later_line(cli):
    check(cli, "y = x**2\nz = y.sum()\nq = z + [1,2,3] @ y\nq", ["x=[1,2]"], "size mismatch", 9, line=3)


def test_shape_mismatch_of_parenthesised_operand(cli):
    check(cli, "(x+1)*y", ["x=[1,2]", "y=[1,2,3]"], "must match the size", 1, caret_width=7)


def test_nonscalar_output_message_and_hint(cli):
    text = cli.error_text("eval", "y = x*2; y", "x=[1,2]")
    p = parts(text)
    assert "not a scalar" in p["message"] and "[2]" in p["message"]
    assert "--weights 1" in p["hint"] and "sum(" in p["hint"]
    err = cli.failed_job("y = x*2; y", "x=[1,2]")
    assert err["type"] == "RuntimeError"


def test_nonscalar_output_names_the_final_expression(cli):
    check(cli, "y = x*2; y", ["x=[1,2]"], "not a scalar", 10)


INPLACE = "b = x + 2; loss = (b*b).mean(); b[0] = 1000.; loss.backward(); x.grad"


def test_inplace_version_error_in_backward(cli):
    p = check(cli, INPLACE, ["x=[1,2]"], "modified by an inplace operation", 47, "clone()", "RuntimeError",
              caret_width=len("loss.backward()"))
    assert "version 1" in p["message"] and "version 0" in p["message"]
    assert "torch::autograd::CopySlices" in p["message"] and "[2]" in p["message"]


def test_inplace_add_on_leaf(cli):
    check(cli, "x.add_(10.); x", ["x=1"], "a leaf Variable that requires grad is being used in an in-place", 1,
          kind="RuntimeError")


def test_inplace_version_error_when_eval_differentiates(cli):
    expr = "b = x + 2; loss = (b*b).mean(); b[0] = 1000.; loss"
    text = cli.error_text("eval", expr, "x=[1,2]")
    assert "modified by an inplace operation" in text
    err = cli.failed_job(expr, "x=[1,2]")
    assert err["type"] == "RuntimeError" and err["column"] is not None


def test_inplace_version_error_when_eval_differentiates_is_reported_without_traceback(cli):
    text = cli.error_text("eval", "b = x + 2; loss = (b*b).mean(); b[0] = 1000.; loss", "x=[1,2]")
    assert "modified by an inplace operation" in text


def test_wrong_arguments_to_a_function(cli):
    text = cli.error_text("eval", "exp()", "x=1")
    assert text.startswith("error: exp() missing 1 required positional argument: 'input'\n  at line 1, column 1:\n")


def test_final_value_not_a_tensor(cli):
    check(cli, '"abc"', ["x=1"], "the final expression is a string, not a number or tensor", 1)
    check(cli, "None", ["x=1"], "the final expression is None", 1)
    # in the language's words, never Python's class names (UserFunction, builtin_function_or_method)
    check(cli, "lambda t: t", ["x=1"], "the final expression is a function, not a number or tensor", 1)
    check(cli, "len", ["x=1"], "the final expression is a function, not a number or tensor", 1)
    check(cli, "class A:\n    pass\nA()", ["x=1"], "the final expression is an object of class A, not a number", 1,
          line=3)


def test_keyword_expressions_are_marked_from_their_keyword(cli):
    """A `not` or lambda expression's span starts at its keyword, however far its operand is."""
    check(cli, "not    x", ["x=1"], "the final expression is a boolean", 1, caret_width=8)
    check(cli, "lambda t: t", ["x=1"], "the final expression is a function", 1, caret_width=11)
    check(cli, "1 + (lambda:  x)", ["x=1"], "unsupported operand types for +: a whole number and a function", 1)


def test_wrt_names_what_the_variable_is(cli):
    text = cli.error_text("eval", "x**2", "--wrt", "y", "x=1", "y=len")
    assert "--wrt y: y is a function, not a floating-point tensor" in text


def test_program_with_no_final_expression(cli):
    text = cli.error_text("eval", "y = x**2", "x=1")
    assert "expression at the end" in text


def test_max_steps_error(cli):
    expr = "while True:\n    pass\nx"
    p = parts(cli.error_text("eval", expr, "x=1", "--max-steps", "100"))
    assert p["message"] == "stopped after 100 steps (its limit; raise it with --max-steps)"
    assert p["where"].startswith("at line 1, column ") and p["source"] == "while True:"
    assert "--max-steps" in p["hint"]
    err = cli.failed_job(expr, "x=1", "--max-steps", "100")
    assert err["column"] is not None and "--max-steps" in err["message"]


def test_max_steps_error_with_option(cli):
    text = cli.error_text("eval", "while True:\n    pass\nx", "x=1", "--max-steps", "100")
    assert text.startswith("error: stopped after 100 steps (its limit; raise it with --max-steps)\n")


def test_absurd_allocation_is_refused(cli):
    text = cli.error_text("eval", "ones(10**6, 10**6).sum()*x", "x=1")
    assert "refusing to allocate" in text


def test_absurd_string_is_refused(cli):
    text = cli.error_text("eval", 'len("a"*10**10)*x', "x=1")
    assert "too long" in text


# ---------------------------------------------------------------------- sandbox

@pytest.mark.parametrize("expr", [
    "x.__class__",
    '__import__("os")',
    'open("f")',
    'eval("1")',
    'exec("1")',
    'getattr(x, "a")',
    "().__class__",
    "x.array",
    "x.numpy()",
    "x.__dict__",
    "sin.__globals__",
    "x.grad_fn.__init__",
    "print.__self__",
    "globals()",
    "type(x)",
    "x._data",
    "'{0.__class__}'.format(x)",
    "[].__class__.__base__",
    "x.backward.__func__",
    "import os; x",
    "from os import path; x",
])
def test_sandbox_is_a_clean_error(cli, expr):
    assert "\n  at line 1, column " in cli.error_text("eval", expr, "x=1")
    err = cli.failed_job(expr, "x=1")
    assert err["column"] is not None


@pytest.mark.parametrize("expr", ['getattr(x, "__class__")', 'getattr(getattr, "__globals__")',
                                  'getattr(torch, "__builtins__")'])
def test_getattr_reads_only_what_dot_reads(cli, expr):
    """getattr goes through the same allow-list as `x.name`: no dunder, no Python internals."""
    text = cli.error_text("eval", expr, "x=1")
    assert "is not available in this language" in text and "Traceback" not in text


def test_hasattr_and_a_default_see_no_dunder(cli):
    assert cli.job('1.0 * hasattr(x, "__class__") + 2.0 * hasattr(x, "grad")', "x=1")["value"] == 2.0
    assert cli.job('getattr(x, "__dict__", 0) + 1', "x=1")["value"] == 1.0   # missing, as any unknown name


@pytest.mark.parametrize("name", ["__import__", "open", "eval", "setattr", "vars"])
def test_python_builtins_are_not_available(cli, name):
    text = cli.error_text("eval", f'{name}("x")', "x=1")
    assert f"'{name}' is not available" in text


def test_dunder_attribute_is_not_available(cli):
    text = cli.error_text("eval", "x.__class__", "x=1")
    assert "'__class__' is not available" in text


def test_hidden_tensor_attributes(cli):
    assert "no attribute 'array'" in cli.error_text("eval", "x.array", "x=1")
    # numpy() is PyTorch's (the language has numpy arrays): refused as PyTorch refuses it
    assert "Can't call numpy() on Tensor that requires grad" in cli.error_text("eval", "x.numpy()", "x=1")


# -------------------------------------------------------------- robustness

def test_deeply_nested_parentheses(cli):
    n = 10_000
    out = cli.job("(" * n + "x" + ")" * n + "*2", "x=3")
    assert out["value"] == 6.0 and out["grad"] == {"x": 2.0}


def test_deeply_nested_calls(cli):
    n = 2_000
    out = cli.job("relu(" * n + "x" + ")" * n, "x=3")
    assert out["grad"] == {"x": 1.0}


def test_long_unary_chain(cli):
    out = cli.job("(" + "-" * 10_000 + "x)", "x=0.5")
    assert out["value"] == 0.5 and out["grad"] == {"x": 1.0}


def test_long_right_assoc_power_chain(cli):
    n = 3_000
    out = cli.job("x" + "**1" * n, "x=2")
    assert out["value"] == 2.0 and out["grad"] == {"x": 1.0}


def test_very_long_sum(cli):
    n = 100_000
    out = cli.job("+".join(["x"] * n), "x=2")
    assert out["value"] == 2.0 * n and out["grad"] == {"x": float(n)}


def test_deeply_nested_unclosed_is_a_clean_error(cli):
    n = 10_000
    text = cli.error_text("eval", "(" * n + "x", "x=1")
    assert "never closed" in text


# ------------------------------------------------- huge Python integers

def test_huge_integer_result_is_a_located_error(cli):
    err = cli.failed_job("7**777")
    assert err["type"] == "OverflowError" and err["column"] == 1
    assert err["message"] == "the result is too large to represent (overflow)"


def test_huge_integer_binding_is_a_clean_error(cli):
    err = cli.failed_job("x**2", "x=2**2000")
    assert err["type"] == "OverflowError"
    assert err["message"] == "in the value of x: a number is too large to represent (overflow)"


def test_huge_integer_errors_have_no_traceback(cli):
    for args, message in ((["7**777"], "the result is too large to represent (overflow)"),
                          (["x**2", "x=2**2000"], "in the value of x: a number is too large to represent (overflow)"),
                          (["10**10**10*x", "x=1"], "the result would be a whole number of about "
                                                    "10,000,000,145 digits, too large to compute (limit 30,000 "
                                                    "digits; raise it with --max-digits)")):
        assert cli.error_text("eval", *args).startswith(f"error: {message}\n")


# ------------------------------------------- work that escapes the step budget

def _finishes_cleanly_within(cli, seconds, *args):
    """Run the console script; it must end by itself, exit 1, with a clean error; that error."""
    proc = cli.console("eval", *args, timeout=seconds)
    assert proc.returncode == 1 and proc.stdout == "", (proc.stdout, proc.stderr)
    assert proc.stderr.startswith("error: "), proc.stderr
    return proc.stderr


def test_huge_builtin_loop_is_stopped(cli):
    err = _finishes_cleanly_within(cli, 5, "sum(range(10**9))*x", "x=1", "--max-steps", "100000")
    assert err.startswith("error: a range of 1,000,000,000 items is too long to go through (limit 10,000,000 items; "
                          "raise it with --max-items)")


def test_huge_expanded_view_is_refused(cli):
    err = _finishes_cleanly_within(cli, 5, "x.expand(10**6, 10**6).sum()", "x=1")
    assert err.startswith("error: refusing to allocate 7.3 TiB for a tensor of shape [1000000, 1000000] ")


# -------------------------------------------------------------- classes

@pytest.mark.parametrize("source, message", [
    ("class X:\n    pass\nprint(X.__class__)", "type object 'X' has no attribute '__class__'"),
    ("class X:\n    pass\nprint(X().__dict__)", "'X' object has no attribute '__dict__'"),
    ("class X:\n    def f(self): pass\nprint(X().f.__func__)", "'__func__' is not available"),
    ("class X:\n    pass\nx = X()\nx.__class__ = int", "can't set '__class__' here"),
    ("class X(int):\n    pass", "class X can only derive from classes the program defines"),
    ("class A:\n    def __init__(self):\n        A()\nA()", "calls nested more than"),
    ("class K(metaclass=type):\n    pass", "a class takes only base classes here"),
    ("class E(Exception):\n    def f(self): pass", "an exception class of the program has no methods"),
    ("class A:\n    pass\nclass E(A, Exception):\n    pass", "not from both"),
    ("class E(Exception):\n    pass\nprint(E.__subclasses__)", "'__subclasses__' is not available"),
    ("class P:\n    pass\nprint(1 + P())", "unsupported operand types for +: a whole number and an object of class P"),
    ("class P:\n    pass\nprint(len(P()))", "an object of class P has no len()"),
    ("class P:\n    pass\nP()[0]", "an object of class P is not subscriptable"),
])
def test_classes_reach_nothing_of_python(cli, source, message):
    """A class of the program is the interpreter's own object: its Python insides are missing
    attributes, its bases are the program's classes, and its recursion is bounded."""
    assert message in cli.error_text("run", "-", input=source)


# ------------------------------------------------- messages without Python's insides (issue 27)

@pytest.mark.parametrize("source, message", [
    ("property(1, 2, 3, 4, 5)", "property() takes 2 positional arguments but 6 were given"),
    ("nn.Conv2d()", "nn.Conv2d() missing 3 required positional arguments: 'in_channels', 'out_channels', "
                    "and 'kernel_size'"),
    ("torch.optim.SGD()", "torch.optim.SGD() missing 1 required positional argument: 'params'"),
    ("torch.optim.Optimizer([ones(1)])", "torch.optim.Optimizer() missing 1 required positional argument: "
                                         "'defaults'"),
    ("tensor([[1], 2])", "expected a sequence of length 1 at dim 1 (got a number)"),
    ("tensor([1, [2]])", "expected a number at dim 1 (got a sequence of length 1)"),
])
def test_a_constructors_error_names_what_the_program_called(cli, source, message):
    err = cli.run_fails(f"y = {source}")
    assert err.startswith(f"error: {message}\n  at <code>, line 1, column 5:"), err
    assert "__init__" not in err and "_ConvNd" not in err and "property_" not in err


def test_an_engine_object_prints_without_its_module(cli):
    out = cli.run_ok("x = tensor(1., requires_grad=True)\nh = x.register_hook(lambda g: g)\nprint(h, [h])")
    assert re.fullmatch(r"<RemovableHandle object at 0x[0-9a-f]+> \[<RemovableHandle object at 0x[0-9a-f]+>\]\n",
                        out), out
