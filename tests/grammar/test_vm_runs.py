"""A hot code object's straight runs of instructions, each one generated function (grammar/vm_runs.py),
do what the interpreter's loop does instruction by instruction: the same output, the same errors at
the same line and column, the same steps counted, an `except` taking an error raised inside a run,
a program's function called from inside a run, and the step budget ending inside one exactly where
the loop would. Each program runs twice -- with runs made at the first loop turn or call (HOT = 1)
and with none (HOT beyond reach) -- and the two must agree to the character."""
import io
import json

import pytest

from autodiff.grammar import vm_runs
from autodiff.grammar.compiler import compile_program
from autodiff.grammar.parser import parse
from autodiff.grammar.program import Session
import locations
from programs import run_counted

NEVER = 10 ** 12


def _run(source, hot, monkeypatch, max_steps=100_000_000):
    """(stdout, the error as `autodiff run` words it or None, steps) with runs made after `hot` turns."""
    monkeypatch.setattr(vm_runs, "HOT", hot)
    return run_counted(source, max_steps=max_steps)


def _both(source, monkeypatch, **kw):
    with_runs = _run(source, 1, monkeypatch, **kw)
    without = _run(source, NEVER, monkeypatch, **kw)
    assert with_runs == without
    return with_runs


PROGRAMS = {
    "poly step": """
import torch
x = torch.linspace(-1, 1, 50)
y = torch.sin(x)
a = torch.tensor(0.1, requires_grad=True)
b = torch.tensor(-0.2, requires_grad=True)
for t in range(6):
    loss = (a + b * x - y).pow(2).sum()
    loss.backward()
    with torch.no_grad():
        a -= 0.01 * a.grad
        b -= 0.01 * b.grad
        a.grad = None
        b.grad = None
    print(t, loss.item(), a.item(), b.item())
""",
    "a program's function inside an expression (the run leaves for its frame)": """
def sq(v):
    return v * v
def pair(u, w=3):
    return [u, w]
total = 0
for i in range(5):
    total = total + sq(i) * 2 + len(pair(i, w=i)) - sq(sq(1))
    print(i, total, pair(sq(i)), max(sq(i), 3), sq(i) + sq(i + 1))
print(total)
""",
    "classes, methods and an instance without __init__": """
class Empty:
    pass
class Counter:
    def __init__(self, start):
        self.n = start
    def bump(self, k=1):
        self.n = self.n + k
        return self.n
c = Counter(10)
for i in range(4):
    e = Empty()
    e.value = i * 2
    print(c.bump(i) + e.value, c.n, isinstance(Empty(), Empty))
""",
    "errors caught inside a hot loop": """
import torch
values = [1, 0, 2, 'a', None, 4]
for v in values:
    try:
        r = 10 / v + undefined_name if v == 2 else 10 / v
        print('ok', r)
    except ZeroDivisionError as e:
        print('zero', e)
    except NameError as e:
        print('name', e)
    except TypeError as e:
        print('type', e)
    try:
        torch.ones(2).no_such_attribute
    except AttributeError as e:
        print('attr', str(e)[:40])
""",
    "numbers, strings, lists, items and unpacking": """
s = "quote ' and \\" and newline \\n end"
acc = []
d = {}
for i in range(6):
    a, b = i, i * 2
    acc += [a + b]
    d[i] = s[i:i + 3] * 2
    x = -a ** 2 + (b // 3) % 4 - (a < b <= 10)
    acc[0] = acc[0] + x
    print(f"{i}: {x!r} {acc[-1]} {d[i]!r} {not a} {(a, b)} {[a] * 2}")
print(len(s), acc)
""",
    "closures, globals and comprehensions": """
g = 0
def outer(k):
    scale = k
    def inner(v):
        nonlocal scale
        scale = scale + 1
        return v * scale
    return [inner(j) for j in range(3)]
def bump():
    global g
    g = g + 1
    return g
for i in range(4):
    print(outer(i), bump(), sum(v * v for v in range(i)), {k: k + i for k in range(2)})
""",
    "while, break, continue and else": """
n = 0
total = 0
while n < 20:
    n = n + 1
    if n % 3 == 0:
        continue
    if n > 15:
        break
    total = total + n * 2 - 1
else:
    print('never')
print(n, total)
""",
    "augmented operators on tensors, numbers and lists": """
import torch
m = torch.eye(2)
k = 3
xs = [1]
for i in range(4):
    m @= torch.eye(2) * 2
    m += 1
    m *= 0.5
    m -= torch.ones(2, 2)
    m /= 2
    m **= 2
    k += i
    k *= 2
    k //= 3
    xs += [k]
    print(m.tolist(), k, xs)
""",
    "tensors in place, views and grad mode": """
import torch
w = torch.zeros(3, requires_grad=True)
for i in range(4):
    out = (w * torch.tensor([1.0, 2.0, 3.0]) + i).sum()
    out.backward()
    with torch.no_grad():
        w -= 0.5 * w.grad
        w[0] = w[0] + 1
    w.grad = None
    print(w.tolist(), w.requires_grad, out.item())
""",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_programs_run_the_same_with_and_without_runs(name, monkeypatch):
    stdout, error, steps = _both(PROGRAMS[name], monkeypatch)
    assert error is None, error
    assert stdout and steps > 50


def _golden_programs():
    python = json.loads((locations.GOLDEN / "language_python.json").read_text("utf-8"))["cases"]
    semantics = json.loads((locations.GOLDEN / "semantics.json").read_text("utf-8"))["cases"]
    seeds = sorted(locations.SEEDS.glob("*.ad"))
    return ([(c["name"], c["source"]) for c in python] + [(c["name"], c["program"]) for c in semantics]
            + [(p.name, p.read_text("utf-8")) for p in seeds])


GOLDEN_PROGRAMS = dict(_golden_programs())


@pytest.mark.filterwarnings("ignore:The .grad attribute")  # (seeds that read a non-leaf's .grad, as theirs do)
@pytest.mark.parametrize("name", sorted(GOLDEN_PROGRAMS))
def test_the_golden_programs_and_seeds_run_the_same_with_and_without_runs(name, monkeypatch):
    _both(GOLDEN_PROGRAMS[name], monkeypatch)


ERRORS = {
    "a name undefined on the loop's fourth turn": ("for i in range(6):\n    y = i * 2\n    if i == 3:\n"
                                                   "        del y\n    print(y + 1)\n", "'y'"),
    "a type error inside an expression": ("xs = [1, 2, 3, 'a']\nt = 0\nfor v in xs:\n    t = t + v * 2 - 1\n",
                                          "unsupported operand"),
    "an attribute no tensor has": ("import torch\nfor i in range(3):\n    z = torch.ones(2) * i\n"
                                   "    print(z.sum().item())\n    q = z.sum().nothing\n", "nothing"),
    "calling what is not a function": ("for i in range(4):\n    k = i + 1\n    print(k)\n    v = k(k + 1)\n",
                                       "not callable"),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_an_error_inside_a_run_is_reported_where_the_loop_reports_it(name, monkeypatch):
    source, words = ERRORS[name]
    _, error, _ = _both(source, monkeypatch)
    assert error is not None and words in error and "line" in error and "^" in error


@pytest.mark.parametrize("budget", [40, 57, 58, 59, 60, 61, 75, 123, 200, 333])
def test_the_step_budget_ends_where_the_loop_ends_it(budget, monkeypatch):
    source = "t = 0\nfor i in range(100):\n    t = t + i * 2 - (i % 3)\n    print(i, t)\n"
    stdout, error, _ = _both(source, monkeypatch, max_steps=budget)
    assert "stopped after" in error and stdout.count("\n") < 100


def test_a_hot_loop_gets_runs_and_a_cold_program_none(monkeypatch):
    monkeypatch.setattr(vm_runs, "HOT", 2)
    source = "t = 0\nfor i in range(5):\n    t = t + i * 2\nprint(t)\n"
    code = compile_program(parse(source), source)
    session = Session(out=io.StringIO())
    try:
        session.interpreter.run(code)
    finally:
        session.close()
    assert code.dispatch is not code.instructions
    assert any(op == vm_runs.RUN for op, _, _ in code.dispatch)
    cold = compile_program(parse("t = 1\nu = t * 2 + 3\nprint(u)\n"), "t = 1\nu = t * 2 + 3\nprint(u)\n")
    session = Session(out=io.StringIO())
    try:
        session.interpreter.run(cold)
    finally:
        session.close()
    assert cold.dispatch is cold.instructions


def test_the_generated_source_holds_no_text_of_the_program(monkeypatch):
    """A program's strings and numbers are read from its instructions; only names (identifiers, as
    repr literals) and the operators' symbols are written into the source."""
    sources = []
    monkeypatch.setattr(vm_runs, "compile", lambda text, *a: sources.append(text) or compile(text, *a),
                        raising=False)
    marker = "__import__('os').system('echo hacked')"
    program = f"s = 0\nfor i in range(3):\n    s = str(i) + {marker!r} + \"'\\\"\"\n    print(len(s))\n"
    stdout, error, _ = _both(program, monkeypatch)
    assert error is None and stdout == "41\n41\n41\n"  # (1 + 38 + 2 characters)
    assert sources and not any("hacked" in text or "__import__" in text for text in sources)


@pytest.mark.parametrize("hot", [1, NEVER])
def test_nodes_made_inside_a_run_carry_their_operations_spans(hot, monkeypatch):
    """The interpreter moves its span cursor (engine/core/graph.py SpanCursor) from operation to operation;
    each node the engine records carries the text of the operation that made it, with runs or without."""
    monkeypatch.setattr(vm_runs, "HOT", hot)
    source = ("import torch\na = torch.tensor(2.0, requires_grad=True)\nx = torch.tensor(3.0)\n"
              "for i in range(4):\n    y = (a * x) + torch.sin(a)\n    z = y.sum()\n")
    session = Session(out=io.StringIO())
    try:
        session.run(source)
        names = session.interpreter.globals
        y, z = names["y"], names["z"]
    finally:
        session.close()

    def text(node):
        return source[node.span.start:node.span.end]
    assert text(y.grad_fn) == "(a * x) + torch.sin(a)"
    assert [text(n) for n, _ in y.grad_fn.next_functions] == ["a * x", "torch.sin(a)"]
    assert text(z.grad_fn) == "y.sum()"


def test_a_recording_interpreter_gets_the_runs_that_record(monkeypatch):
    """eval --formula and --graph hand each value to the interpreter's `record`: a hot function's runs
    then take their recording form, and the formula is the loop's."""
    from autodiff.grammar.job import JobOptions, _run_job
    from autodiff.engine.state import isolated
    source = "def sq(v): return v * v + 1\nsq(sq(sq(sq(x))))"
    formulas = []
    for hot in (1, NEVER):
        monkeypatch.setattr(vm_runs, "HOT", hot)
        r = isolated(_run_job, source, (("x", "0.5"),), JobOptions(formula=True))
        values = sorted(t.item() for t in r.produced.values())  # (what `autodiff graph` shows at each node)
        formulas.append((r.formula, float(r.value), float(r.grad["x"]), values))
    assert formulas[0] == formulas[1]
    assert "x" in formulas[0][0]["x"] and len(formulas[0][3]) == 8  # (a product and a sum each call)


def test_ctrl_c_inside_a_run_says_where_the_program_was(monkeypatch):
    """Ctrl-C (a KeyboardInterrupt raised by whatever Python code the instruction runs) ends the
    program at the operation it was in, with the steps the loop would have counted (a run's rest not)."""
    import operator
    from autodiff.grammar import arithmetic
    from autodiff.grammar.errors import Interrupted

    def add(a, b):
        if a >= 30:
            raise KeyboardInterrupt
        return operator.add(a, b)
    monkeypatch.setitem(arithmetic._BINARY, "+", add)
    source = "t = 0\nfor i in range(100):\n    u = i * 2\n    t = t + i\n    w = u - 1\n"
    seen = []
    for hot in (1, NEVER):
        monkeypatch.setattr(vm_runs, "HOT", hot)
        session = Session(out=io.StringIO())
        try:
            with pytest.raises(Interrupted) as stop:
                session.run(source)
            seen.append((source[stop.value.start:stop.value.end], session.interpreter.steps))
        finally:
            session.close()
    assert seen[0] == seen[1] and seen[0][0] == "t + i"


def test_every_allow_listed_tensor_attribute_can_be_written_out():
    """Runs read and set a tensor's allow-listed attributes as attribute syntax: each must be a plain
    identifier (a name that is not one would stop the run's making)."""
    from autodiff.grammar.names import TENSOR_ATTRIBUTES, TENSOR_SETTABLE
    for name in TENSOR_ATTRIBUTES | TENSOR_SETTABLE:
        assert vm_runs._attribute("t", name) == f"t.{name}"
    with pytest.raises(ValueError):
        vm_runs._attribute("t", "__class__")
