"""`autodiff run`: every statement kind, printing as Python and PyTorch print,
stdin and -c, warnings on stderr, and each error path (exit 1 with file, line,
column and message; never a Python traceback)."""
import re
import textwrap
import time

import pytest

from cuda_fixtures import REAL_GPU


def lines(text):
    return textwrap.dedent(text).lstrip("\n")


# ------------------------------------------------------------------ statements

def test_assignment_and_lone_expression(cli):
    assert cli.run_ok("x = 2\ny = x * 3\nprint(y)\nx + 1\n") == "6\n"  # a lone expression prints nothing


def test_tuple_unpacking(cli):
    assert cli.run_ok("""
        a, b = 1, 2
        (c, d) = [3, 4]
        x1 = torch.tensor(1.0, requires_grad=True)
        x2 = torch.tensor(2.0, requires_grad=True)
        g1, g2 = torch.autograd.grad(x1 * x2, [x1, x2])
        print(a, b, c, d, g1, g2)
    """) == "1 2 3 4 tensor(2.) tensor(1.)\n"


def test_augmented_assignment_is_in_place_on_tensors(cli):
    assert cli.run_ok("""
        x = torch.tensor([1., 2.])
        y = x
        v = x._version
        x += 1
        x *= 2
        print(y, x is y, x._version - v)
    """) == "tensor([4., 6.]) True 2\n"


def test_augmented_assignment_rebinds_numbers(cli):
    assert cli.run_ok("""
        n = 1
        m = n
        n += 1
        n *= 10
        print(n, m)
    """) == "20 1\n"


def test_item_assignment_is_in_place(cli):
    assert cli.run_ok("""
        a = torch.tensor([3.0, 1.0])
        b = a
        a[0] = 10
        m = torch.zeros(2, 3)
        m[:, 1] = 5
        print(b, a._version)
        print(m)
    """) == lines("""
        tensor([10.,  1.]) 1
        tensor([[0., 5., 0.],
                [0., 5., 0.]])
    """)


def test_print_sep_and_end(cli):
    assert cli.run_ok("""
        print(1, 2, 3, sep="-", end="!\\n")
        print("a", end="")
        print("b")
        print("x", "y", sep="")
        print()
    """) == "1-2-3!\nab\nxy\n\n"


def test_assert_passes(cli):
    assert cli.run_ok('assert 1 + 1 == 2, "arithmetic"\nassert torch.ones(2).sum() == 2\nprint("ok")') == "ok\n"


def test_assert_fails_with_file_line_column_and_message(cli, tmp_path):
    script = tmp_path / "checks.ad"
    script.write_text('print("before")\nx = 2\nassert x == 3, "x should be 3"\nprint("after")\n')
    result = cli.run(script=script)
    assert result.exit_code == 1
    assert result.stdout == "before\n"  # what ran before the failure is kept, nothing after
    assert result.stderr == (
        "error: assertion failed: x should be 3\n"
        f"  at {script}, line 3, column 8:\n"
        '    assert x == 3, "x should be 3"\n'
        "           ^^^^^^^^^^^^^^^^^^^^^^^\n")


def test_assert_without_message_fails(cli):
    assert cli.run_fails("assert False") == (
        "error: assertion failed\n"
        "  at <code>, line 1, column 8:\n"
        "    assert False\n"
        "           ^^^^^\n")


def test_no_grad_enable_grad_set_grad_enabled(cli):
    assert cli.run_ok("""
        w = torch.tensor(2., requires_grad=True)
        with torch.no_grad():
            a = w * 2
            with torch.enable_grad():
                b = w * 2
            print(torch.is_grad_enabled())
        with torch.set_grad_enabled(False):
            c = w * 2
        with no_grad():
            d = w * 2
        e = w * 2
        print(a.requires_grad, b.requires_grad, c.requires_grad, d.requires_grad, e.requires_grad)
        print(a.grad_fn, a.is_leaf, e.grad_fn.name())
    """) == "False\nFalse True False False True\nNone True MulBackward0\n"


def test_for_over_range_list_tensor_zip_enumerate(cli):
    assert cli.run_ok("""
        for i in range(3):
            print(i)
        for i in range(5, 1, -2):
            print(i)
        for v in [1, 'two']:
            print(v)
        for r in torch.tensor([[1., 2.], [3., 4.]]):
            print(r)
        for p, q in zip([1, 2], [3, 4]):
            print(p, q)
        for i, v in enumerate([5, 6]):
            print(i, v)
    """) == lines("""
        0
        1
        2
        5
        3
        1
        two
        tensor([1., 2.])
        tensor([3., 4.])
        1 3
        2 4
        0 5
        1 6
    """)


def test_while_break_continue(cli):
    assert cli.run_ok("""
        i = 0
        while i < 10:
            i += 1
            if i == 2:
                continue
            if i > 4:
                break
            print(i)
        print("done", i)
        for j in range(10):
            if j % 2 == 0:
                continue
            if j > 5:
                break
            print("j", j)
    """) == "1\n3\n4\ndone 5\nj 1\nj 3\nj 5\n"


def test_if_elif_else(cli):
    assert cli.run_ok("""
        def sign(v):
            if v > 0:
                return 1
            elif v < 0:
                return -1
            else:
                return 0
        print(sign(3), sign(-2), sign(0))
        if torch.tensor(1.) > 0: print("tensor condition")
    """) == "1 -1 0\ntensor condition\n"


def test_def_with_defaults_and_keyword_arguments(cli):
    assert cli.run_ok("""
        def scale(t, k=2, shift=0):
            return t * k + shift
        print(scale(1), scale(1, 3), scale(1, shift=10), scale(t=2, k=5, shift=1))
        def nothing():
            return
        def no_return(v):
            v = v + 1
        print(nothing(), no_return(1))
    """) == "2 3 12 11\nNone None\n"


def test_return_from_inside_a_loop(cli):
    assert cli.run_ok("""
        def first_over(xs, limit):
            for v in xs:
                if v > limit:
                    return v
            return -1
        print(first_over([1, 5, 9], 4), first_over([1], 4))
    """) == "5 -1\n"


def test_recursion(cli):
    assert cli.run_ok("""
        def fact(n):
            if n <= 1:
                return 1
            return n * fact(n - 1)
        def fib(n):
            return n if n < 2 else fib(n - 1) + fib(n - 2)
        print(fact(10), fib(15))
    """) == "3628800 610\n"


def test_closures(cli):
    assert cli.run_ok("""
        def make_adder(k):
            def add(v):
                return v + k
            return add
        add3 = make_adder(3)
        add5 = make_adder(5)
        print(add3(4), add5(4))
        def counter():
            total = [0]
            def bump():
                total[0] = total[0] + 1
                return total[0]
            return bump
        c = counter()
        c(); c()
        print(c())
    """) == "7 9\n3\n"


def test_lambda_for_register_hook(cli):
    assert cli.run_ok("""
        x = torch.tensor(2., requires_grad=True)
        y = x * 3
        y.register_hook(lambda g: print("hook", g))
        h = x.register_hook(lambda g: g * 10)
        y.backward()
        print(x.grad)
        f = lambda a, b=1: a + b
        print(f(1), f(1, 2))
    """) == "hook tensor(1.)\ntensor(30.)\n2 3\n"


def test_comparisons_and_boolean_operators(cli):
    assert cli.run_ok("""
        print(1 < 2, 2 <= 1, 1 == 1.0, 1 != 2, 3 > 2 > 1, 2 >= 3)
        print(True and False, True or False, not True, not 0, 1 and 2, 0 or 3, None or "x")
        t = torch.tensor([1., 2., 3.])
        print(t > 1.5, (t > 1.5).any(), (t < 0).all(), t == 2)
        print(1 < 2 and not (2 < 1) or False)
    """) == lines("""
        True False True True True False
        False True False True 2 3 x
        tensor([False,  True,  True]) tensor(True) tensor(False) tensor([False,  True, False])
        True
    """)


def test_import_torch_lines_are_no_ops(cli):
    assert cli.run_ok("import torch\nimport torch\nx = torch.ones(1)\nprint(x)") == "tensor([1.])\n"


def test_f_strings_with_format_specs(cli):
    assert cli.run_ok("""
        z = torch.tensor(1.23456)
        print(f"{z.item():.3f}", f"{3.14159:.2f}", f"{42:5d}|", f"{'s':>3}", f"{1e-5:.2e}", f"{{}}")
        print(f"z = {z}; twice {2 * z.item():.1f}")
    """) == "1.235 3.14    42|   s 1.00e-05 {}\nz = 1.2345600128173828; twice 2.5\n"  # PyTorch 2.13: a 0-d tensor formats as its number


def test_semicolons_and_comments(cli):
    assert cli.run_ok("a = 1; b = 2  # two statements\n# a comment line\nprint(a + b);\n") == "3\n"


# ------------------------------------------------------------------ input sources

def test_stdin_dash(cli):
    result = cli.run(stdin="x = torch.tensor(2., requires_grad=True)\ny = x**3\ny.backward()\nprint(x.grad)\n")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "tensor(12.)\n"


def test_dash_c_code(cli):
    assert cli.run_ok("x = tensor(2., requires_grad=True); y = x**3; y.backward(); print(x.grad)") == "tensor(12.)\n"


def test_script_file(cli, tmp_path):
    script = tmp_path / "s.ad"
    script.write_text("x = torch.ones(2, 2, requires_grad=True)\nout = ((x + 2) * (x + 2) * 3).mean()\n"
                      "out.backward()\nprint(x.grad)\n")
    result = cli.run(script=script)
    assert result.exit_code == 0
    assert result.stdout == "tensor([[4.5000, 4.5000],\n        [4.5000, 4.5000]])\n"


def test_usage_errors_exit_2(cli):
    assert cli.usage_error("run") == "give a SCRIPT file ('-' for stdin) or -c CODE"
    assert cli.usage_error("run", "-c", "1", "-", input="1\n") == "give a SCRIPT file or -c CODE, not both"
    assert cli.usage_error("run", "does-not-exist.ad") == \
        "Invalid value for '[SCRIPT]': 'does-not-exist.ad': No such file or directory"


def test_console_script_subprocess(cli):
    """The installed console script itself: stdout, stderr and exit status kept apart."""
    p = cli.console("run", "-c", "print(1)\nassert 1 == 2, 'no'")
    assert p.returncode == 1
    assert p.stdout == "1\n"
    assert p.stderr.startswith("error: assertion failed: no\n  at <code>, line 2, column 8:\n")


# ------------------------------------------------------------------ printing

def test_python_values_print_as_python(cli):
    assert cli.run_ok("""
        print(None, True, False, 1, -7, 2.5, 1.0, 1e20, 0.1 + 0.2, -0.0, 10**20)
        print((1, 2), [1, 2.0], (1,), [], (), "text", 'single')
        print((None, True), [None, [1, (2, 'a')]])
    """) == lines("""
        None True False 1 -7 2.5 1.0 1e+20 0.30000000000000004 -0.0 100000000000000000000
        (1, 2) [1, 2.0] (1,) [] () text single
        (None, True) [None, [1, (2, 'a')]]
    """)


def test_tensors_print_as_pytorch(cli):
    assert cli.run_ok("""
        print(torch.tensor([5.]))
        print(torch.exp(torch.tensor(2., requires_grad=True)))
        print(torch.tensor([1e-5, 1e5]))
        print(torch.tensor([[1.5, -2.0], [3.25, 100.0]]))
        print(torch.zeros(2, 2, requires_grad=True))
        print(torch.tensor([1, 2]), torch.tensor(3), torch.tensor([True, False]))
        print(torch.tensor([1.5], dtype=torch.float32))
        print((torch.tensor([1.], requires_grad=True) * 2,))
    """) == lines("""
        tensor([5.])
        tensor(7.3891, grad_fn=<ExpBackward0>)
        tensor([1.0000e-05, 1.0000e+05])
        tensor([[  1.5000,  -2.0000],
                [  3.2500, 100.0000]])
        tensor([[0., 0.],
                [0., 0.]], requires_grad=True)
        tensor([1, 2]) tensor(3) tensor([ True, False])
        tensor([1.5000])
        (tensor([2.], grad_fn=<MulBackward0>),)
    """)


def test_long_tensor_wraps_as_pytorch(cli):
    out = cli.run_ok("print(torch.ones(30))")
    assert out == ("tensor([1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1.,\n"
                   "        1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1., 1.])\n")


def test_dtype_is_pytorchs_float32_unless_asked(cli):
    # PyTorch 2.13 prints: tensor([1.5000]) tensor([1.5000], dtype=torch.float64) torch.float32
    assert cli.run_ok("print(torch.tensor([1.5]), torch.tensor([1.5], dtype=torch.float64), torch.get_default_dtype())"
                      ) == "tensor([1.5000]) tensor([1.5000], dtype=torch.float64) torch.float32\n"
    assert cli.run_ok("print(torch.tensor([1.5]), torch.tensor([1.5], dtype=torch.float32), torch.get_default_dtype())",
                      "--dtype", "float64") == "tensor([1.5000]) tensor([1.5000], dtype=torch.float32) torch.float64\n"
    # a script's own set_default_dtype changes it, and the next run starts from float32 again
    assert cli.run_ok("torch.set_default_dtype(torch.float64); print(torch.tensor([1.5]).dtype)") == "torch.float64\n"
    assert cli.run_ok("print(torch.tensor([1.5], dtype=torch.float64))") == "tensor([1.5000], dtype=torch.float64)\n"


def test_grad_fn_prints_as_pytorch_node(cli):
    out = cli.run_ok("y = torch.tensor(1., requires_grad=True) * 2\n"
                     "print(y.grad_fn.name(), y.grad_fn.next_functions[0][0].name())")
    assert out == "MulBackward0 torch::autograd::AccumulateGrad\n"  # PyTorch 2.13's name() of a leaf's node
    out = cli.run_ok("y = torch.tensor(1., requires_grad=True) * 2\nprint(y.grad_fn)")
    assert re.fullmatch(r"<MulBackward0 object at 0x[0-9a-f]+>\n", out)


# ------------------------------------------------------------------ warnings

def test_non_leaf_grad_warning_goes_to_stderr(cli):
    result = cli.run("""
        xw = torch.tensor([1., 2.], requires_grad=True)
        yw = (xw * 2).sum()
        yw.backward()
        print(yw.grad)
    """)
    assert result.exit_code == 0
    assert result.stdout == "None\n"
    assert result.stderr.startswith("warning (<code>, line 4, column 7): The .grad attribute of a Tensor that is "
                                    "not a leaf Tensor is being accessed.")
    assert "retain_grad()" in result.stderr


def test_warning_shown_again_in_a_second_run_in_process(cli):
    code = "xq = torch.tensor(1., requires_grad=True)\nyq = xq * 2\nprint(yq.grad)"
    first, second = cli.run(code), cli.run(code)
    assert first.exit_code == second.exit_code == 0
    assert "not a leaf Tensor" in first.stderr
    assert "not a leaf Tensor" in second.stderr


# ------------------------------------------------------------------ errors

def head(err):
    """The first two lines of an error report: `error: MESSAGE` and `  at WHERE, line L, column C:`."""
    return err.split("\n")[:2]


def test_syntax_error_with_caret_and_hint(cli):
    err = cli.run_fails("y = 1\nx = 2x\n")
    assert head(err) == ["error: missing operator between 2 and x", "  at <code>, line 2, column 6:"]
    assert "x = 2x" in err
    assert re.search(r"\n\s+\^", err)  # the caret line
    assert "did you mean 2*x?" in err


def test_unclosed_bracket_is_a_syntax_error(cli):
    err = cli.run_fails("x = (1, 2")
    assert head(err) == ["error: '(' was never closed", "  at <code>, line 1, column 5:"]


def test_name_error_with_hint(cli):
    err = cli.run_fails("prnt(1)")
    assert head(err) == ["error: unknown function 'prnt'", "  at <code>, line 1, column 1:"]
    assert "did you mean print?" in err
    err = cli.run_fails("value = 1\nprint(valeu)")
    assert head(err) == ["error: name 'valeu' is not defined", "  at <code>, line 2, column 7:"]


def test_shape_mismatch_names_the_sub_expression_column(cli):
    err = cli.run_fails("""
        z = torch.ones(2) * 3
        y = torch.tensor([1., 2., 3.])
        w = torch.exp(z) * (z + y)
    """)
    # the sub-expression `z + y` inside the parentheses (as eval points at it), not the whole line
    assert err == ("error: The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0\n"
                   "  at <code>, line 3, column 21:\n"
                   "    w = torch.exp(z) * (z + y)\n"
                   "                        ^^^^^\n")


def test_mm_shape_error(cli):
    err = cli.run_fails("x = torch.ones(2, 3)\nz = torch.mm(x, x)")
    assert head(err) == ["error: mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)",
                         "  at <code>, line 2, column 5:"]


def test_in_place_version_error(cli, tmp_path):
    script = tmp_path / "inplace.ad"
    script.write_text("a = torch.tensor([1.0, 3.0], requires_grad=True)\nb = a.exp()\n"
                      "loss = (b * b).mean()\nb.add_(1)\nloss.backward()\n")
    err = cli.run_fails(None, script=script)
    message, where = head(err)
    assert message.startswith("error: one of the variables needed for gradient computation has been modified "
                              "by an inplace operation: ")
    assert "is at version 1; expected version 0 instead" in message
    assert where == f"  at {script}, line 5, column 1:"


def test_in_place_on_leaf_error(cli):
    # PyTorch's words: x[0] = v writes through a view of x, x[[0]] = v into x itself
    err = cli.run_fails("x = torch.tensor([1., 2.], requires_grad=True)\nx[0] = 5.")
    assert head(err) == ["error: a view of a leaf Variable that requires grad is being used in an in-place "
                         "operation.", "  at <code>, line 2, column 1:"]
    err = cli.run_fails("x = torch.tensor([1., 2.], requires_grad=True)\nx.add_(1)")
    assert head(err) == ["error: a leaf Variable that requires grad is being used in an in-place operation.",
                         "  at <code>, line 2, column 1:"]
    # ... but allowed under no_grad, as in PyTorch
    assert cli.run_ok("x = torch.tensor([1., 2.], requires_grad=True)\nwith torch.no_grad():\n    x[0] = 5.\n"
                      "print(x)") == "tensor([5., 2.], requires_grad=True)\n"


def test_second_backward_names_retain_graph(cli):
    err = cli.run_fails("x = torch.tensor(1., requires_grad=True)\ny = x * x\ny.backward()\ny.backward()")
    message, where = head(err)
    assert message.startswith("error: Trying to backward through the graph a second time ")
    assert "retain_graph=True" in message and where == "  at <code>, line 4, column 1:"


def test_step_budget_stops_endless_loop(cli):
    start = time.perf_counter()
    err = cli.run_fails("while True: pass", "--max-steps", "10000")
    assert time.perf_counter() - start < 10
    assert head(err) == ["error: stopped after 10,000 steps (its limit; raise it with --max-steps)",
                         "  at <code>, line 1, column 7:"]


def test_call_depth_limit_stops_endless_recursion(cli):
    err = cli.run_fails("""
        def f(n):
            return f(n + 1)
        f(0)
    """)
    message, where = head(err)
    assert re.fullmatch(r"error: calls nested more than \d+ deep \(its limit; raise it with --max-depth\)", message), \
        err
    assert where == "  at <code>, line 2, column 12:"


def test_absurd_allocation_fails_fast(cli):
    start = time.perf_counter()
    err = cli.run_fails("x = torch.zeros(10**6, 10**6)")
    assert time.perf_counter() - start < 5
    message, where = head(err)
    assert message.startswith("error: refusing to allocate 3.6 TiB for a tensor of shape [1000000, 1000000] "
                              "(limit 4 GiB; raise it with --max-memory)")
    assert where == "  at <code>, line 1, column 5:"


def test_python_is_out_of_reach(cli):
    for code, first in [("x = torch.ones(1)\nx.__class__", "'__class__' is not available in this language"),
                        ("open('f')", "'open' is not available: programs can't reach Python itself"),
                        ("eval('1')", "'eval' is not available: programs can't reach Python itself"),
                        ("__import__('os')", "'__import__' is not available: programs can't reach Python itself")]:
        err = cli.run_fails(code)
        assert err.startswith(f"error: {first}\n"), (code, err)


def test_runtime_errors_are_clean(cli):
    for code, text in [("print(1/0)", "division by zero"), ("print([1, 2][5])", "out of range"),
                       ("x = None + 1", "unsupported operand"),
                       ("x = torch.ones(3, requires_grad=True)\n(x * 2).backward()", "only for scalar outputs"),
                       # as PyTorch: an output that does not require grad is refused before its shape
                       ("x = torch.ones(3)\nx.backward()", "does not require grad"),
                       ("x = torch.ones(3)[5]", "out of bounds"),
                       ("print(torch.ones(1).foo)", "no attribute 'foo'")]:
        err = cli.run_fails(code)
        assert text in err.split("\n")[0], (code, err)
        assert re.search(r"\n  at <code>, line \d+, column \d+:\n", err), (code, err)


def test_indentation_errors(cli):
    err = cli.run_fails("x = 1\n  y = 2")
    assert head(err) == ["error: unexpected indentation", "  at <code>, line 2, column 3:"]
    cli.run_fails("for i in range(3):\nprint(i)")


@pytest.mark.xfail(strict=True, reason="product bug: a block header with no indented body reports "
                                       "\"unexpected 'print'\", not that an indented block is expected")
def test_missing_indented_block_says_so(cli):
    err = cli.run_fails("for i in range(3):\nprint(i)")
    assert "indent" in err.split("\n")[0] and "\n  at <code>, line 2, column 1:\n" in err


def test_output_before_an_error_is_kept(cli):
    result = cli.run("print('one')\nprint(undefined)\nprint('two')")
    assert result.exit_code == 1
    assert result.stdout == "one\n"


def test_manual_gradient_descent_and_in_place_rules(cli):
    result = cli.run("""
        x = torch.tensor(2., requires_grad=True)
        y = x * 2
        y += 1
        print(y, y.is_leaf)
        for i in range(100):
            loss = (x - 3) ** 2
            loss.backward()
            with torch.no_grad():
                x -= 0.1 * x.grad
            x.grad.zero_()
        print(f"{x.item():.4f}", x.requires_grad, x.is_leaf)
        x.grad = None
        print(x.grad)
        x = x + 1
        print(x.is_leaf)
        z = torch.tensor(1., requires_grad=True)
        z += 1
    """)
    assert result.exit_code == 1
    assert result.stdout == "tensor(5., grad_fn=<AddBackward0>) False\n3.0000 True True\nNone\nFalse\n"
    assert head(result.stderr) == ["error: a leaf Variable that requires grad is being used in an in-place operation.",
                                   "  at <code>, line 17, column 1:"]


def test_attributes_print_as_pytorch(cli):
    assert cli.run_ok("""
        x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
        print(x.shape, x.dtype, x.device, x.size(), x.shape[0], len(x), x.numel(), x.dim())
        print(x.sum(dim=0), x.mean(), x.max())
        print(x.tolist(), x[0, 1].item(), [torch.tensor(1.)])
        print(torch.arange(12.).reshape(3, 4))
        print(torch.tensor([0.1, 0.25, 123456.]))
    """) == lines("""
        torch.Size([2, 2]) torch.float32 cpu torch.Size([2, 2]) 2 2 4 2
        tensor([4., 6.], grad_fn=<SumBackward1>) tensor(2.5000, grad_fn=<MeanBackward0>) tensor(4., grad_fn=<MaxBackward1>)
        [[1.0, 2.0], [3.0, 4.0]] 2.0 [tensor(1.)]
        tensor([[ 0.,  1.,  2.,  3.],
                [ 4.,  5.,  6.,  7.],
                [ 8.,  9., 10., 11.]])
        tensor([1.0000e-01, 2.5000e-01, 1.2346e+05])
    """)


def test_brackets_spanning_lines(cli):
    assert cli.run_ok("""
        y = torch.tensor([[3., 4.],
                          [5., 6.]])
        print(y.sum())
        total = (1 +
                 2)
        print(total)
    """) == "tensor(18.)\n3\n"


def test_triple_quoted_string_statement(cli):
    assert cli.run_ok('"""\nA docstring, as PyTorch snippets have.\n"""\nprint(1)\n') == "1\n"


def test_dropout_in_a_program_as_tutorials_write_it(cli):
    # nn.Dropout inside a Module, model.eval() turning it off, F.dropout with training=...
    out = cli.run_ok("import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
                     "class Net(nn.Module):\n"
                     "    def __init__(self):\n"
                     "        super().__init__()\n"
                     "        self.fc = nn.Linear(4, 2)\n"
                     "        self.drop = nn.Dropout(0.5)\n"
                     "    def forward(self, x):\n"
                     "        return self.fc(self.drop(x))\n"
                     "net = Net()\nprint(net)\nx = torch.ones(3, 4)\nnet.eval()\n"
                     "print(torch.equal(net(x), net.fc(x)), net.drop.training)\n"
                     "print(torch.equal(F.dropout(x, 0.5, training=False), x), F.dropout(x, p=1.0).sum().item())\n")
    assert out == ("Net(\n  (fc): Linear(in_features=4, out_features=2, bias=True)\n"
                   "  (drop): Dropout(p=0.5, inplace=False)\n)\nTrue False\nTrue 0.0\n")


# ------------------------------------------------------------- a real GPU

FIT_ON = """
x = torch.linspace(-1, 1, 2000, device={device!r})
y = torch.sin(x)
a = torch.zeros((), device={device!r}, requires_grad=True)
b = torch.zeros((), device={device!r}, requires_grad=True)
for t in range(50):
    loss = (a + b*x - y).pow(2).sum()
    loss.backward()
    with torch.no_grad():
        a -= 1e-4 * a.grad
        b -= 1e-4 * b.grad
        a.grad = None
        b.grad = None
print(a.device.type, round(loss.item(), 9), round(b.item(), 9))
"""


@pytest.mark.skipif(REAL_GPU is None, reason="no CUDA GPU with CuPy here")
def test_a_script_that_puts_tensors_on_a_real_gpu(cli, tmp_path):
    """As a user runs it: `autodiff run script` under the default (CPU) memory budget, the script
    asking for 'cuda' itself; the budget's limit on address space used to keep CUDA from starting."""
    script = tmp_path / "fit.ad"
    results = {}
    for device in ("cpu", "cuda"):
        script.write_text(FIT_ON.format(device=device))
        proc = cli.console("run", str(script))
        assert proc.returncode == 0 and proc.stderr == "", proc.stderr
        results[device] = proc.stdout.split()
    assert results["cuda"][0] == "cuda" and results["cpu"][0] == "cpu"
    assert [float(v) for v in results["cuda"][1:]] == pytest.approx([float(v) for v in results["cpu"][1:]],
                                                                    rel=1e-5)  # float32 sums
