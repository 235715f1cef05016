"""`autodiff repl` driven through piped stdin: state between lines, values
echoed as PyTorch reprs, blocks ended by an empty line, open brackets continued,
errors that don't end the session, `exit`."""
import textwrap


def test_state_kept_and_values_echoed(cli):
    result = cli.repl("""
        x = torch.tensor(2., requires_grad=True)
        y = x**3
        y
        y.backward()
        x.grad
        x.grad.item()
        (x.is_leaf, y.is_leaf)
        torch.ones(2, 2)
    """)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == textwrap.dedent("""\
        tensor(8., grad_fn=<PowBackward0>)
        tensor(12.)
        12.0
        (True, False)
        tensor([[1., 1.],
                [1., 1.]])
    """)
    assert result.stderr == ""


def test_assignments_and_none_echo_nothing(cli):
    result = cli.repl("a = 1\nb = a + 1\nNone\nprint(b)\n")
    assert result.exit_code == 0
    assert result.stdout == "2\n"


def test_multi_line_for_block_ended_by_empty_line(cli):
    result = cli.repl("""
        total = 0
        for i in range(4):
            total += i
            print(i)

        total
    """)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "0\n1\n2\n3\n6\n"


def test_multi_line_def_then_call(cli):
    result = cli.repl("""
        def square(t):
            return t * t

        square(torch.tensor([3.]))
    """)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "tensor([9.])\n"


def test_open_bracket_continues_on_the_next_line(cli):
    result = cli.repl("""
        m = torch.tensor([[1., 2.],
                          [3., 4.]])
        m.sum()
        s = (1 +
             2)
        s
    """)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "tensor(10.)\n3\n"


def test_error_does_not_end_the_session(cli):
    result = cli.repl("""
        x = 5
        undefined_thing
        print("after", x)
        x = 2x
        1 + 1
        torch.ones(2) + torch.ones(3)
        x
    """)
    assert result.exit_code == 0
    assert result.stdout == "after 5\n2\n5\n"
    err = result.stderr
    assert "'undefined_thing' is not defined" in err
    assert "did you mean 2*x?" in err
    assert "must match the size" in err


def test_warnings_go_to_stderr(cli):
    result = cli.repl("""
        xr = torch.tensor(1., requires_grad=True)
        yr = xr * 2
        print(yr.grad)
    """)
    assert result.exit_code == 0
    assert result.stdout == "None\n"
    assert "not a leaf Tensor" in result.stderr


def test_exit_ends_the_session_with_status_0(cli):
    result = cli.repl("""
        print("before")
        exit
        print("never")
    """)
    assert result.exit_code == 0
    assert result.stdout == "before\n"


def test_exit_call_and_quit(cli):
    for word in ("exit()", "quit", "quit()"):
        result = cli.repl(f"print(1)\n{word}\nprint(2)\n")
        assert result.exit_code == 0
        assert result.stdout == "1\n"


def test_end_of_input_ends_the_session(cli):
    result = cli.repl("print(1)")  # no newline, no exit
    assert result.exit_code == 0
    assert result.stdout == "1\n"


def test_dtype_option(cli):
    result = cli.repl("torch.tensor([1.5])\ntorch.get_default_dtype()\n", "--dtype", "float32")
    assert result.exit_code == 0
    assert result.stdout == "tensor([1.5000])\ntorch.float32\n"


def test_repl_subprocess_piped(cli):
    p = cli.console("repl", input="a = torch.tensor([1., 2.], requires_grad=True)\n(a * a).sum()\nnope\nexit\n")
    assert p.returncode == 0
    assert p.stdout == "tensor(5., grad_fn=<SumBackward0>)\n"
    assert "'nope' is not defined" in p.stderr
    assert "Traceback" not in p.stderr


def test_if_else_block(cli):
    result = cli.repl("""
        x = 3
        if x > 5:
            print("big")
        else:
            print("small")

        x
    """)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "small\n3\n"


# ------------------------------------------------------------------ help (issue 10)

def test_help_lists_the_catalogue_and_the_session_goes_on(cli):
    result = cli.repl("""
        help
        x = 2
        x + 1
    """)
    assert result.exit_code == 0 and result.stderr == ""
    lines = result.stdout.splitlines()
    assert lines[0].startswith("A function is also torch.NAME")
    assert any(line.startswith("  sin ") and "sine" in line for line in lines)
    assert "Linear algebra" in lines and "Tensor attributes" in lines
    assert lines[-1] == "3"


def test_help_of_one_name_in_each_spelling(cli):
    result = cli.repl("""
        help sin
        help(torch.linalg.det)
        help("x.item")
        help(F.relu)
        help()
    """)
    assert result.exit_code == 0 and result.stderr == ""
    out = result.stdout
    assert out.startswith("sin(input)\n  the sine (radians), elementwise\n")
    assert "also: torch.sin, x.sin(), sin_, torch.sin_, x.sin_()" in out
    assert "\ntorch.linalg.det(A)\n  the determinant" in out
    assert "\nx.item()\n  the value of a one-element tensor" in out
    assert "\nrelu(input)\n" in out
    assert out.count("A function is also torch.NAME") == 1  # help() is plain help


def test_help_of_an_unknown_name_suggests_close_ones(cli):
    result = cli.repl("""
        help sinus
        1
    """)
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0].startswith("no name contains 'sinus' (did you mean ")
    assert result.stdout.splitlines()[-1] == "1"


def test_a_name_called_help_is_still_the_programs(cli):
    result = cli.repl("""
        help = 3
        help * 2
    """)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "6\n"
