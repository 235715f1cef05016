"""The engine loads what a process uses, no more: `import autodiff.engine` binds its public names
(engine/public.py) on first read, the op table's families load as they are met (engine/ops), and
an `autodiff eval` job of the compiled lane starts without the Python API (cold start). Each test
runs a fresh interpreter, since what is checked is what the first use imports."""
import subprocess
import sys
import textwrap

import pytest


def _python(code):
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


# what an `autodiff eval` job of the compiled lane never needs: the public surface, the Tensor class,
# the language's names and interpreter, the parser (lark)
_API = ("autodiff.engine.public", "autodiff.engine.functions", "autodiff.engine.tensor_class",
        "autodiff.engine.optim", "autodiff.engine.nn", "autodiff.grammar.names", "autodiff.grammar.vm", "lark")


def _eval_modules(source, *bindings):
    out = _python(f"""
        import atexit, sys
        from autodiff.cli.main import main
        atexit.register(lambda: print(sorted(m for m in sys.modules if m.startswith(("autodiff", "lark")))))
        main(["eval", {source!r}, *{list(bindings)!r}, "--json"])
    """)
    first, last = out.strip().splitlines()
    return first, set(eval(last))


def test_a_polynomial_job_loads_no_api_and_one_op_family():
    result, modules = _eval_modules("a*x**2+b*x+c", "a=1", "b=-2", "c=1", "x=0")
    assert '"value": 1.0' in result and '"grad": {"a": 0.0, "b": 0.0, "c": 1.0, "x": -2.0}' in result
    assert not modules & set(_API), modules & set(_API)
    assert {m for m in modules if m.startswith("autodiff.engine.ops.")} == {
        "autodiff.engine.ops.arithmetic", "autodiff.engine.ops.table"}


def test_a_job_that_calls_a_function_loads_the_table_but_no_api():
    result, modules = _eval_modules("sin(x)*y", "x=0", "y=2")
    assert '"grad": {"x": 2.0, "y": 0.0}' in result
    assert not modules & set(_API), modules & set(_API)
    assert "autodiff.engine.ops.decomp" in modules  # the lane reads every row to find the functions


def test_the_public_names_load_on_first_read():
    out = _python("""
        import sys
        import autodiff.engine as torch
        before = "autodiff.engine.public" in sys.modules
        import autodiff.engine.tensor_class, autodiff.engine.derivative_check  # (once named tensor, gradcheck)
        t = torch.tensor([1.0, 2.0])
        print(before, "autodiff.engine.public" in sys.modules, type(t).__name__, callable(torch.gradcheck),
              torch.float is torch.float32, torch.linalg.__name__, "tensor" in dir(torch), torch.pi)
        from autodiff.engine import *
        print(tensor is torch.tensor, "grad" in torch.__all__, "public" in torch.__all__)
        try:
            torch.no_such_name
        except AttributeError as e:
            print(e)
    """)
    assert out.splitlines() == [
        "False True Tensor True True autodiff.engine.linalg True 3.141592653589793",
        "True True False",
        "module 'autodiff.engine' has no attribute 'no_such_name'"]


def test_a_row_not_loaded_yet_loads_every_family():
    out = _python("""
        import importlib
        from autodiff.engine.ops import arithmetic
        from autodiff.engine.core.op import TABLE
        from autodiff.engine.core.mathspace import array_math
        from autodiff.engine.backend import CPU
        F = array_math(CPU)
        before = len(TABLE), TABLE.is_complete
        print(before[1], "sin" in TABLE, float(F.sin(0.5)) == float(__import__("numpy").sin(0.5)))
        print(TABLE.is_complete, TABLE["sin"].__module__, len(TABLE) > 5 * before[0])
        try:
            TABLE["no_such_row"]
        except KeyError as e:
            print("KeyError", e)
        ops = importlib.import_module("autodiff.engine.ops")
        print(sorted({row.__module__ for row in TABLE.values()}) == sorted(f"autodiff.engine.ops.{f}" for f in ops.FAMILIES))
    """)
    assert out.splitlines() == ["False False True", "True autodiff.engine.ops.unary True",
                                "KeyError 'no_such_row'", "True"]


@pytest.mark.parametrize("order", ["lane first", "engine first"])
def test_the_table_is_the_same_however_it_was_loaded(order):
    first = "from autodiff.engine.ops import arithmetic" if order == "lane first" else "import autodiff.engine"
    out = _python(f"""
        {first}
        from autodiff.engine.ops import TABLE
        print(list(TABLE))
    """)
    reference = _python("""
        import autodiff.engine as E
        E.tensor(1.0)
        print(list(E.OPS))
    """)
    assert out == reference and len(eval(out)) > 250


def test_every_family_module_is_named_in_families():
    # a family missing from FAMILIES would register its rows only when something else imports it
    import pkgutil
    from autodiff.engine import ops
    modules = {m.name for m in pkgutil.iter_modules(ops.__path__)} - {"table"}
    assert sorted(modules) == sorted(ops.FAMILIES)
