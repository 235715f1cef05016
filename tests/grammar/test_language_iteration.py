"""Python's iteration protocols and literals in the language (issue 27, item 11), with Python
itself as the oracle: each program prints under `autodiff run` exactly what it prints under
`exec`. And none of it opens a way out of the sandbox."""
import contextlib
import io
import textwrap
import warnings

import pytest

# n, n - 1, ..., 1 by the iterator protocol (test_fuzz.py's scripts use it too)
COUNTDOWN = """
class Countdown:
    def __init__(self, n):
        self.n = n
    def __iter__(self):
        return self
    def __next__(self):
        if self.n <= 0:
            raise StopIteration
        self.n -= 1
        return self.n + 1
"""

PROGRAMS = {
    "iterator protocol": """
        print(list(Countdown(3)))
        for v in Countdown(2):
            print(v)
        it = iter(Countdown(2))
        print(next(it), next(it), next(it, "done"))
        a, b = Countdown(2)
        print(a, b, max(Countdown(4)), sum(Countdown(3)), sorted(Countdown(3)))
        print([v * 10 for v in Countdown(3) if v != 2], dict(enumerate(Countdown(2))))
        print(3 in Countdown(5), 7 in Countdown(5), tuple(zip(Countdown(2), Countdown(3))))
        try:
            next(it)
        except StopIteration:
            print("stopped")
    """,
    "__iter__ giving another iterator": """
        class Box:
            def __init__(self, items):
                self.items = items
            def __iter__(self):
                return iter(self.items)
        class Pair:
            def __iter__(self):
                return Countdown(2)
        print([x * 2 for x in Box([1, 2, 3])], list(Box("ab")), list(Pair()), [*Box((4, 5))])
        for i, c in enumerate(Box("xy")):
            print(i, c)
    """,
    "__getitem__ iteration": """
        class Squares:
            def __getitem__(self, i):
                if i >= 4:
                    raise IndexError(i)
                return i * i
        print(list(Squares()), sum(Squares()), 9 in Squares(), 5 in Squares())
        for s in Squares():
            print(s)
        it = iter(Squares())
        print(next(it), next(it), list(it), next(it, None))
        class Letters:
            def __getitem__(self, i):
                return "abc"[i]
        print(list(Letters()), "".join(Letters()))
    """,
    "iteration errors": """
        class Plain:
            pass
        class Bad:
            def __iter__(self):
                return 5
        class NoNext:
            def __iter__(self):
                return self
        for obj in (Plain(), Bad(), NoNext()):
            try:
                iter(obj)
                print("iterable")
            except TypeError as e:
                print(e)
        try:
            next(Plain())
        except TypeError as e:
            print(e)
    """,
    "literals": r"""
        print(0x1F, 0X1f, 0o17, 0O17, 0b101, 0B101, 1_000, 1_000.5, 1e1_0, 0x_FF_FF, 0b_1_0, .5_5, 00, 0.0)
        print(0x1F + 0o17 * 0b11, -0x10, 10_000 // 3)
        print(r'a\nb', R"c\d", len(r'\\'), r'\'' == "\\'", r"\"")
        print('\x41\u00e9\101', len('\0'), 'a\qb', 'tab\tend', '\U0001F600', '\N{DEGREE SIGN}')
        x = 3
        print(rf"{x}\n", fr'{x + 1}\t', f"{0x10}")
    """,
}


def _python_prints(source):
    out = io.StringIO()
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # ('\q' kept as written, as Python warns)
        exec(compile(source, "<test>", "exec"), {})
    return out.getvalue()


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_prints_what_python_prints(cli, name):
    source = COUNTDOWN.lstrip("\n") + textwrap.dedent(PROGRAMS[name]).lstrip("\n")
    result = cli.run(source)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == _python_prints(source)


def test_an_endless_iterator_meets_the_step_budget(cli):
    err = cli.run_fails("""
        class Forever:
            def __iter__(self):
                return self
            def __next__(self):
                return 1
        for x in Forever():
            pass
        """, "--max-steps", "20000")
    assert err.startswith("error: stopped after 20,000 steps (its limit; raise it with --max-steps)\n")


@pytest.mark.parametrize("literal, message, column", [
    ("1__0", "invalid decimal literal", 2),
    ("1_", "invalid decimal literal", 2),
    ("1_.5", "invalid decimal literal", 2),
    ("0o19", "invalid digit '9' in octal literal", 4),
    ("0b12", "invalid digit '2' in binary literal", 4),
    ("0x", "invalid hexadecimal literal", 1),
    ("0xG1", "invalid hexadecimal literal", 3),
    ("007", "leading zeros in decimal integer literals are not permitted", 1),
])
def test_bad_literals_get_pythons_message_at_their_column(cli, literal, message, column):
    text = cli.error_text("eval", f"x*{literal}", "x=1")
    assert text.startswith(f"error: {message}\n  at line 1, column {column + 2}:\n")


@pytest.mark.parametrize("literal, column", [(r"'ab\x4'", 4), (r"'\u12'", 2), (r"'\N'", 2),
                                             (r"'\N{NO SUCH NAME}'", 2), (r"'\U00110000'", 2),
                                             ("'''a" + "\\x'''", 5)])
def test_a_malformed_escape_is_pythons_error_at_its_column(cli, literal, column):
    text = cli.error_text("run", "-c", f"s = {literal}")
    assert text.startswith("error: (unicode error) 'unicodeescape' codec can't decode this escape: ")
    assert f"at <code>, line 1, column {column + 4}:" in text


def test_literals_in_a_job(cli):
    assert cli.job("x*0x10 + 1_000", "x=2")["value"] == 1032.0


@pytest.mark.parametrize("source", ["yield 1", "def f():\n    yield 1", "x = (yield)"])
def test_yield_says_generators_are_not_supported(cli, source):
    text = cli.error_text("run", "-c", source)
    assert text.startswith("error: generators are not supported: `yield` has no meaning here\n")
    assert "hint: build a list and return it, or write a class with __iter__ and __next__" in text


@pytest.mark.parametrize("source, column", [("x = 1; [].foo", 8), ("x = 1\n().__class__", 1),
                                            ("y = {}.nope", 5)])
def test_an_error_on_an_empty_literal_points_at_it(cli, source, column):
    text = cli.error_text("run", "-c", source)
    assert f", column {column}:" in text


# ------------------------------------------------------------- the sandbox holds

SQUARES = ("class Squares:\n    def __getitem__(self, i):\n        if i >= 4:\n            raise IndexError(i)\n"
           "        return i * i\nit = iter(Squares())\n")
COUNT = ("class C:\n    def __iter__(self):\n        return self\n    def __next__(self):\n"
         "        raise StopIteration\nc = C()\n")


@pytest.mark.parametrize("prelude, attempt", [
    (SQUARES, "it.target"),
    (SQUARES, "it.__next__"),
    (SQUARES, "it.__class__"),
    (SQUARES, "getattr(it, 'target')"),
    (SQUARES, "getattr(it, '\\x5f\\x5fclass\\x5f\\x5f')"),
    (SQUARES, "getattr(it, r'__class__')"),
    (SQUARES, "type(it).__mro__"),
    (SQUARES, "Squares().__iter__"),
    (SQUARES, "vars(it)"),
    (COUNT, "c.__next__.__func__"),
    (COUNT, "iter(c).__class__.__bases__"),
    (COUNT, "next.__self__"),
    (COUNT, "iter.__self__"),
    ("", "'\\x5f\\x5fimport\\x5f\\x5f'"),
    ("", "getattr(0x1F, '\\x5f\\x5fclass\\x5f\\x5f')"),
    ("", "eval(r'1')"),
    ("", "(1_0).__class__"),
])
def test_the_new_features_open_no_way_out(cli, prelude, attempt):
    result = cli.run(prelude + f"v = {attempt}\nprint(type(v) if isinstance(v, str) else v)")
    if result.exit_code == 0:  # only a harmless value (a string that is just text)
        assert result.stdout.strip() in ("<class 'str'>",), result.stdout
    else:
        assert result.exit_code == 1 and result.stderr.startswith("error: "), result.stderr
        for leak in ("Traceback", "autodiff.", "site-packages", "SequenceIterator", "UserInstance"):
            assert leak not in result.stderr, result.stderr
