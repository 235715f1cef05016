"""The language accepts the Python that PyTorch autograd tutorials are written
in (issue 10): comprehensions and generator expressions, dicts and sets,
*args/**kwargs, keyword-only parameters and defaults, for/while...else,
try/except/else/finally and raise, decorators, global/nonlocal, imports of
torch, math and numpy, and Python's string formatting.

1. Golden: every snippet of tests/golden/language_python.json prints what
   real CPython 3.11 + PyTorch 2.13 printed for it (the same text, and numbers
   within float32's tolerance at their print precision: tests/support/tolerance.py)
   (tests/golden/gen_language_python.py made the file; tests never import torch).
2. Refusals where Python refuses (nonlocal at module level, a name assigned
   before its global declaration ...), and imports outside the allow-list
   refused at the import line, with a caret and the supported modules.
3. Budgets stay budgets: the step limit, the memory and size limits and the
   call depth are not caught by `except Exception` nor a bare `except`.
4. Deep nesting (300 nested comprehensions, 500 nested try blocks, 2000
   nested dict displays) works: nothing recurses.
"""
import json

import pytest

from autodiff.grammar import parser
from tolerance import assert_output_close
from programs import run_program
import locations

GOLDEN = json.loads((locations.GOLDEN / "language_python.json").read_text("utf-8"))
CASES = {case["name"]: case for case in GOLDEN["cases"]}

# formatting a 0-d tensor without a spec is Tensor.__format__'s (the engine's) part


def run(source, max_steps=100_000_000, max_depth=200):
    """(stdout, error text or None) of a program, run as `autodiff run --dtype float32` runs it."""
    return run_program(source, "float32", max_steps, max_depth)


def test_golden_file_is_complete():
    assert len(CASES) >= 25
    assert GOLDEN["torch"].startswith("2.13")


@pytest.mark.parametrize("name", sorted(CASES))
def test_snippet_prints_what_python_prints(name):
    case = CASES[name]
    out, error = run(case["source"])
    assert error is None, error
    assert_output_close(out, case["stdout"], what=name)


# ------------------------------------------------------------- scoping

def test_comprehension_variables_do_not_leak():
    out, error = run("i = 'kept'\nxs = [i for i in range(3)]\nys = {j: j for j in range(2)}\nprint(i, xs)\nprint(j)")
    assert out == "kept [0, 1, 2]\n"
    assert "name 'j' is not defined" in error


def test_comprehension_first_iterable_is_evaluated_outside():
    # Python evaluates the first iterable in the enclosing scope, the rest inside
    out, error = run("def f():\n    n = 3\n    return [[i for i in range(n)] for n in range(n)]\nprint(f())")
    assert error is None and out == "[[], [0], [0, 1]]\n"


def test_generator_expression_is_an_iterator_used_once():
    out, _ = run("g = (x * 2 for x in range(3))\nprint(sum(g), sum(g))")
    assert out == "6 0\n"


def test_unbound_local_like_python():
    out, error = run("x = 1\ndef f():\n    print(x)\n    x = 2\nf()")
    assert "cannot access local variable 'x' where it is not associated with a value" in error
    assert "line 3, column 11" in error


# ------------------------------------------------- Python's refusals

@pytest.mark.parametrize("source,message,line", [
    ("nonlocal x", "nonlocal declaration not allowed at module level", 1),
    ("def f():\n    x = 1\n    global x", "name 'x' is assigned to before global declaration", 3),
    ("def f():\n    print(x)\n    global x", "name 'x' is used prior to global declaration", 3),
    ("def f(a):\n    global a", "name 'a' is parameter and global", 2),
    ("def f():\n    nonlocal q", "no binding for nonlocal 'q' found", 2),
    ("def f():\n    def g():\n        nonlocal v\n    v = 1\ng = 2\nglobal g", "assigned to before global", 6),
    ("def f():\n    from math import *", "import * only allowed at module level", 2),
    ("def f(a, a):\n    pass", "duplicate argument 'a' in function definition", 1),
    ("def f(a=1, b):\n    pass", "non-default argument follows default argument", 1),
    ("f(x for x in y, 1)", "Generator expression must be parenthesized", 1),
    ("try:\n    pass\nexcept:\n    pass\nexcept ValueError:\n    pass", "default 'except:' must be last", 3),
])
def test_refused_before_running(source, message, line):
    out, error = run("print('ran')\n" + source)
    assert out == "", "a refused program does not start"
    assert message in error, error
    assert f"at line {line + 1}, column " in error and "^" in error


# ---------------------------------------------------------------- imports

@pytest.mark.parametrize("source,column,width", [
    ("import os", 8, 2),
    ("x = 1\nimport sys", 8, 3),
    ("from os import path", 6, 2),
    ("import numpy.linalg as la", 8, 12),
    ("from torch import optimizer_that_doesnt_exist", 19, 27),
    ("from torch.nn import Conv4d", 22, 6),
    ("import torch.utils.tensorboard", 8, 23),
])
def test_import_refused_at_its_line(source, column, width):
    out, error = run(source + "\nprint('after')")
    assert out == ""
    line = source.count("\n") + 1
    assert f"at line {line}, column {column}:" in error
    assert "\n    " + " " * (column - 1) + "^" * width + "\n" in error
    assert "hint: what can be imported: import torch" in error and "import numpy as np" in error


def test_refused_import_is_an_import_error_python_can_catch():
    out, error = run("try:\n    import os\nexcept ImportError as e:\n    print(type(e).__name__, e)")
    assert error is None and out == "ModuleNotFoundError No module named 'os' in this language\n"


def test_imports_bind_real_namespaces():
    out, error = run("import torch.nn.functional\nprint(torch.nn.functional.relu(torch.tensor(-1.)))\n"
                     "from torch.nn import functional as F\nprint(F.relu)\nimport math as m\nprint(m.pi)")
    assert error is None, error
    assert out.startswith("tensor(0.)\n<built-in function relu>\n3.14159")


def test_numpy_random_is_seeded_per_program():
    src = "import numpy as np\nprint(np.random.rand(2))"
    assert run(src)[0] == run(src)[0]


# ------------------------------------------------------------ the budgets

@pytest.mark.parametrize("body,message", [
    ("while True:\n        pass", "stopped after 100,000 steps"),
    ("x = [0] * 10**9", "too long"),
    ("y = 3 ** 10**8", "too large to compute"),
    ("x = 'a' * 10**10", "too long"),
    ("'%*d' % (10**9, 1)", "too long"),
    ("'{:{w}}'.format(1, w=10**9)", "too long"),
    ("f'{1:{10**9}}'", "too long"),
    ("import numpy as np\n    np.zeros(10**12)", "refusing to allocate"),
    ("import numpy as np\n    np.ones((10**6, 10**6))", "refusing to allocate"),
    ("import math\n    math.factorial(10**6)", "too large to compute"),
    ("list(range(10**9))", "too long"),
    ("def r(n):\n        return r(n + 1)\n    r(0)", "calls nested more than 200 deep"),
    ("d = {}\n    for i in range(10**9):\n        d[i] = i", "stopped after 100,000 steps"),
])
@pytest.mark.parametrize("handler", ["except Exception as e", "except", "except BaseException",
                                     "except (MemoryError, RecursionError, OverflowError, RuntimeError)"])
def test_budget_errors_are_not_caught(body, message, handler):
    if "MemoryError" in handler:
        handler = "except (OverflowError, RuntimeError, ZeroDivisionError)"
    src = f"try:\n    {body}\n{handler}:\n    print('escaped')\nfinally:\n    print('finally')\nprint('after')"
    out, error = run(src, max_steps=100_000)
    assert "escaped" not in out and "after" not in out
    assert message in error, error


def test_memoryerror_and_recursionerror_are_not_names():
    out, error = run("try:\n    pass\nexcept MemoryError:\n    pass")
    assert error is None  # the handler is never reached, so its class is never looked up
    assert "not defined" in run("print(MemoryError)")[1]


def test_uncaught_raise_is_a_located_error():
    out, error = run("def check(v):\n    if v < 0:\n        raise ValueError(f'negative: {v}')\ncheck(1)\ncheck(-2)")
    assert "error: ValueError: negative: -2\n  at line 3, column 9:" in error
    assert "        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^" in error


def test_uncaught_engine_error_keeps_its_report_after_a_reraise():
    src = ("import torch\nx = torch.ones(2, requires_grad=True)\ny = (x * x).sum()\ny.backward()\n"
           "try:\n    y.backward()\nexcept RuntimeError:\n    print('once')\n    raise")
    out, error = run(src)
    assert out == "once\n"
    assert "Trying to backward through the graph a second time" in error and "line 6, column 5" in error


def test_grad_mode_restored_when_an_exception_leaves_a_with_block():
    src = ("import torch\ntry:\n    with torch.no_grad():\n        raise ValueError('x')\nexcept ValueError:\n"
           "    pass\nprint(torch.is_grad_enabled())")
    assert run(src) == ("True\n", None)


def test_return_and_break_through_with_and_finally():
    src = ("import torch\ndef f():\n    for i in range(3):\n        with torch.no_grad():\n            try:\n"
           "                if i == 1:\n                    break\n            finally:\n"
           "                print('fin', i, torch.is_grad_enabled())\n    with torch.no_grad():\n"
           "        return torch.is_grad_enabled()\nprint(f(), torch.is_grad_enabled())")
    assert run(src) == ("fin 0 False\nfin 1 False\nFalse True\n", None)


# --------------------------------------------------------------- nesting

def test_300_nested_comprehensions():
    n = 300
    src = "x = " + "[" * n + "1" + "".join(f" for a{i} in range(1)]" for i in range(n)) + "\nprint(len(x))"
    assert run(src) == ("1\n", None)


def test_500_nested_try_blocks():
    n = 500
    lines = [" " * i + "try:" for i in range(n)] + [" " * n + "x = 1 / 0"]
    for i in reversed(range(n)):
        lines += [" " * i + "except ZeroDivisionError:", " " * (i + 1) + ("print('caught')" if i == n - 1 else "pass")]
    assert run("\n".join(lines)) == ("caught\n", None)
    lines = [" " * i + "try:" for i in range(n)] + [" " * n + "x = 1"]
    for i in reversed(range(n)):
        lines += [" " * i + "finally:", " " * (i + 1) + "pass"]
    assert run("\n".join(lines) + "\nprint(x)") == ("1\n", None)


def test_deeply_nested_dicts_and_lambdas():
    assert run("d = " + "{'a': " * 2000 + "1" + "}" * 2000 + "\nprint(len(d))") == ("1\n", None)
    assert run("f = " + "lambda: " * 1000 + "1\nprint(f()()())")[1] is None


# ------------------------------------------------------ the sandbox holds

@pytest.mark.parametrize("source", [
    "'{0.__class__}'.format(1)",
    "'{0.__init__.__globals__}'.format(print)",
    "{1: 2}.__class__",
    "type(1).__mro__",
    "type(1).__subclasses__()",
    "ValueError.__subclasses__()",
    "e = ValueError('x')\ne.__traceback__",
    "import numpy as np\nnp.array([1]).tofile('x')",
    "import numpy as np\nnp.load('x')",
    "f = lambda: 0\nf.__code__",
    "(x for x in []).gi_frame",
])
def test_new_values_do_not_reach_python(source):
    out, error = run(source)
    assert error is not None and "at line" in error


# ---------------------------------------------------------- the parsers agree

PROGRAMS = [case["source"] for case in GOLDEN["cases"]] + [
    "@dec\n@torch.no_grad()\ndef f(a, /, b=1, *args, c, d=2, **kw):\n    return a\n",
    "x = a @ b\nx @= c\n",
    "try:\n    pass\nexcept (A, B) as e:\n    raise C('x') from e\nexcept:\n    raise\nelse:\n    pass\nfinally:\n    del d[k], e\n",
    "f(*a, *b, k=1, **c, **d)\n{**a, 'b': 1, **c}\n{1, 2,}\n{}\n{k: v for k, v in d.items() if v for _ in x}\n",
    "from torch import (nn, autograd as ag,)\nfrom numpy import *\nimport torch.nn.functional as F, math\n",
    "for i, (a, [b, c]) in z:\n    continue\nelse:\n    pass\nwhile x:\n    break\nelse:\n    nonlocal_ = 1\n",
]


@pytest.mark.parametrize("index", range(len(PROGRAMS)))
def test_fast_and_public_parsers_agree(index):
    from test_parser_seam import outcome
    text = PROGRAMS[index]
    fast, public = parser.tables("fast"), parser.tables("public")
    assert outcome(text, fast) == outcome(text, public)
    assert outcome(text, fast)[0] == "tree"


def test_type_shows_what_python_and_pytorch_show():
    # CPython 3.11 + PyTorch 2.13 print exactly these lines for the same code
    out, error = run("import numpy as np\n"
                     "print(type(print), type(lambda: 0), type(type(1)), type(torch.float32), "
                     "type(torch.device('cpu')), type(torch.Size([1])))\n"
                     "print(type(np), type(np.zeros(2)), type(np.float64(1)))\n")
    assert error is None, error
    assert out == ("<class 'builtin_function_or_method'> <class 'function'> <class 'type'> <class 'torch.dtype'> "
                   "<class 'torch.device'> <class 'torch.Size'>\n"
                   "<class 'module'> <class 'numpy.ndarray'> <class 'numpy.float64'>\n")


@pytest.mark.parametrize("name", ["run_op", "getitem", "setitem"])
def test_engine_plumbing_is_not_reachable(name):
    # PyTorch has no torch.run_op/getitem/setitem: the language does not either
    for source in (f"print({name})\n", f"print(torch.{name})\n"):
        out, error = run(source)
        assert error is not None and name in error, (source, out)


def test_a_missing_attribute_of_a_class_reads_as_python_says_it():
    # CPython 3.11: AttributeError: type object 'int' has no attribute 'join'
    out, error = run("print(type(1).join)\n")
    assert error is not None and "type object 'int' has no attribute 'join'" in error
    assert "TypeView" not in error


# ---------------------------------------------------------------- torch.nn layers: the sandbox

LAYER = "import torch.nn as nn\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n" \
        "        self.fc = nn.Linear(2, 2)\nnet = Net()\n"


@pytest.mark.parametrize("source, message", [
    ("print(net._parameters)", "'Net' object has no attribute '_parameters'"),
    ("print(net.fc._modules)", "'Linear' object has no attribute '_modules'"),
    ("print(net.__dict__)", "'__dict__' is not available"),
    ("print(getattr(net, '__class__'))", "'__class__' is not available"),
    ("net._modules = 3", "can't set '_modules' here"),
    ("print(Net.__init__)", "'__init__' is not available"),
    ("print(Net.mro)", "type object 'Net' has no attribute 'mro'"),
    ("class A:\n    pass\nclass B(nn.Module, A):\n    pass", "not from both"),
    ("class C(nn.Module):\n    def __getattr__(self, name):\n        return 1", "not '__getattr__'"),
    ("class C(nn.Module):\n    def __del__(self):\n        pass", "not '__del__'"),
    ("class C(Net):\n    def forward(self):\n        return super().__class__\nC().forward()",
     "'super' object has no attribute '__class__'"),
    ("class C(Net):\n    def forward(self):\n        return super()._apply\nC().forward()",
     "'super' object has no attribute '_apply'"),
])
def test_a_programs_layer_shows_only_its_public_names(source, message):
    out, error = run(LAYER + source)
    assert error is not None and message in error, error
    assert "Traceback" not in error


def test_an_error_inside_forward_points_at_the_programs_line():
    source = LAYER.replace("        self.fc = nn.Linear(2, 2)\n",
                           "        self.fc = nn.Linear(2, 2)\n    def forward(self, x):\n        return self.fc(x) @ x\n")
    out, error = run(source + "net(torch.ones(1, 2))")
    assert "at line 7, column 16:" in error and "return self.fc(x) @ x" in error, error


# ------------------------------------------------------------- iter and next

@pytest.mark.parametrize("source, message", [
    ("next([1])", "a list is not an iterator"),                       # CPython: 'list' object is not an iterator
    ("next(5)", "a whole number is not an iterator"),
    ("iter(5)", "a whole number is not iterable"),                    # CPython: 'int' object is not iterable
    ("next(iter([1]), 1, 2)", "next expected at most 2 arguments, got 3"),
    ("iter(len, 0)", "iter(callable, sentinel) is not supported here"),
    ("it = iter([1])\nnext(it)\nnext(it)", "StopIteration"),
])
def test_iter_and_next_refuse_what_python_refuses(source, message):
    out, error = run(source)
    assert error is not None and message in error, error
    line = source.count("\n") + 1
    assert f"line {line}, column 1" in error


def test_next_on_an_exhausted_iterator_gives_the_default_each_time():
    out, error = run("it = iter(range(1))\nprint(next(it, -1), next(it, -1), next(it, -1))")
    assert error is None and out == "0 -1 -1\n"
