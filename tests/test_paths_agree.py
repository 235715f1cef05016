"""Every path of ours gives the same bits for the same job on one machine (the README's contract):
generated batch jobs -- number bindings and formulas the lean lane takes, tensor bindings it does not,
every elementwise function and operator -- give byte-identical JSON through

- the lean lane and the full pipeline (the lane switched off),
- a batch and each line on its own (`autodiff eval LINE`),
- one process, `--jobs 2` and `--dask` (a local cluster of two worker processes),
- `eval`, `autodiff run` printing the same numbers, and the Python API,
- a 0-d variable and a one-element one (`x=0.3` and `x=[0.3]`),
- and a second run of the same batch;

with the defaults, and again with each option the lean lane takes (--wrt, --jacobian, --weights of a
number, a number bound by --set, --order 2 and 3, --hessian, --check) and those its engine form takes
(--order 4, --check of a second derivative).

CI runs this file under numpy's AVX-512 code and again with it switched off
(NPY_DISABLE_CPU_FEATURES): within each machine and dispatch every path must agree; across them only
tolerances hold (tests/support/tolerance.py)."""
import json
import math
import random
import re

import pytest

import autodiff.engine as ad
from autodiff.grammar import compiled as lean_lane, compiled_second

FUNCTIONS = ["sin", "cos", "exp", "log", "tanh", "sqrt", "sigmoid", "atan", "asinh", "expm1", "log1p", "erf",
             "abs", "relu", "softplus", "cosh", "sinh", "exp2", "log2", "rsqrt", "erfc"]
POSITIVE = {"log", "sqrt", "log1p", "log2", "rsqrt"}  # applied to (...)**2 + 0.5 so the job has a value
OPERATORS = ["+", "-", "*", "/"]
EXPONENTS = ["2", "3", "0.5", "-1", "-2", "1.5", "2.7", "-0.5"]


def _formula(r, names, depth):
    """A random formula over `names`, built without recursion (a stack of open slots)."""
    def leaf():
        return r.choice(names) if r.random() < 0.7 else f"{r.uniform(0.1, 3):.{r.randint(1, 6)}g}"

    parts = [leaf()]
    for _ in range(depth):
        kind = r.random()
        inner = parts.pop()
        if kind < 0.35:
            f = r.choice(FUNCTIONS)
            parts.append(f"{f}(({inner})**2 + 0.5)" if f in POSITIVE else f"{f}({inner})")
        elif kind < 0.55:
            parts.append(f"({inner})**{r.choice(EXPONENTS)}" if "**" not in inner else f"({inner})**2")
        elif kind < 0.6:
            parts.append(f"{r.choice(['2', '0.5', '3.1'])}**({inner})")
        else:
            op = r.choice(OPERATORS)
            other = leaf()
            parts.append(f"({inner} {op} {other})" if r.random() < 0.5 else f"({other} {op} {inner})")
    return parts[0]


def scalar_job(r):
    """A one-line job of number bindings and a formula: the lean lane's kind."""
    names = ["x", "y", "z"][:r.randint(1, 3)]
    bindings = [f"{n} = {r.choice(['', '-'])}{r.uniform(0.2, 2.5):.{r.randint(1, 8)}g}" for n in names]
    expr = _formula(r, names, r.randint(1, 5))
    if not any(re.search(rf"\b{n}\b", expr) for n in names):
        expr = f"({expr}) * {names[0]}"
    return "; ".join(bindings + [expr])


def tensor_job(r):
    """A job over tensor bindings (the full pipeline's kind): reduced to a number with sum()."""
    n = r.randint(1, 4)
    names = ["x", "y"][:r.randint(1, 2)]
    bindings = [f"{v} = [{', '.join(f'{r.uniform(-2, 2):.5g}' for _ in range(n))}]" for v in names]
    expr = _formula(r, names, r.randint(1, 4))
    if not any(re.search(rf"\b{v}\b", expr) for v in names):
        expr = f"({expr}) * {names[0]}"
    return "; ".join(bindings + [f"({expr}).sum()"])


def _jobs(seed, n_scalar, n_tensor):
    r = random.Random(seed)
    return [scalar_job(r) for _ in range(n_scalar)] + [tensor_job(r) for _ in range(n_tensor)]


JOBS = _jobs(2026, 260, 60)
BATCH = "\n".join(JOBS) + "\n"


def _objects(stdout):
    """The batch's JSON objects, each without its line number (a line alone is line 1)."""
    out = []
    for text in stdout.splitlines():
        obj = json.loads(text)
        obj.pop("line")
        out.append(obj)
    return out


@pytest.fixture(scope="module")
def batch_output(cli):
    result = cli.invoke("eval", "-", "--json", input=BATCH)
    assert result.exit_code in (0, 1)
    objects = _objects(result.stdout)
    assert len(objects) == len(JOBS)
    valued = [o for o in objects if "value" in o]
    assert len(valued) >= 0.9 * len(JOBS), [o for o in objects if "error" in o][:3]  # the jobs really run
    return result.stdout


def test_the_lean_lane_takes_most_scalar_jobs(cli, monkeypatch):
    taken = []
    real = lean_lane.run
    monkeypatch.setattr(lean_lane, "run", lambda *a: taken.append(r) or r if (r := real(*a)) is not None else None)
    cli.invoke("eval", "-", "--json", input=BATCH)
    assert len(taken) >= 200  # (the rest call functions the lane has no row for: abs, softplus)


def test_lean_lane_and_full_pipeline(cli, batch_output, monkeypatch):
    monkeypatch.setattr(lean_lane, "run", lambda *a: None)
    monkeypatch.setattr(lean_lane, "evaluate", lambda *a, **k: None)  # (its other compiled forms)
    monkeypatch.setattr(compiled_second, "run", lambda *a: None)
    assert cli.invoke("eval", "-", "--json", input=BATCH).stdout == batch_output


def test_a_batch_line_and_the_same_line_alone(cli, batch_output):
    objects = _objects(batch_output)
    for k in range(0, len(JOBS), 7):
        alone = cli.invoke("eval", JOBS[k], "--json")
        assert _objects(alone.stdout) == [objects[k]], JOBS[k]


def test_one_process_and_worker_processes(cli, batch_output):
    assert cli.invoke("eval", "-", "--json", "--jobs", "2", input=BATCH).stdout == batch_output


def test_the_console_script_and_a_second_run(cli, batch_output):
    # a process of its own, as a shell runs it: the same bytes as in this process, twice
    first = cli.console("eval", "-", "--json", input=BATCH)
    second = cli.console("eval", "-", "--json", input=BATCH)
    assert first.stdout == second.stdout == batch_output


def test_dask_workers(cli, batch_output):
    distributed = pytest.importorskip("distributed")
    import logging
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                                  silence_logs=logging.ERROR) as cluster:
        got = cli.invoke("eval", "-", "--json", "--dask", cluster.scheduler_address, input=BATCH)
    assert got.stdout == batch_output


def _engine_namespace(variables):
    names = {f: getattr(ad, f) for f in FUNCTIONS if hasattr(ad, f)}
    names.update(softplus=ad.nn.functional.softplus, relu=ad.relu, abs=ad.abs)
    names.update(variables)
    return names


def _split(job):
    *bindings, expr = [part.strip() for part in job.split(";")]
    return [tuple(b.split(" = ")) for b in bindings], expr


def _same(number, json_value):
    """A float and eval's JSON for it (a number, or "nan"/"inf"/"-inf" as text): the same bits."""
    if isinstance(json_value, str):
        return repr(float(number)) == json_value or (math.isnan(number) and json_value == "nan")
    return float(number) == json_value and math.copysign(1, float(number)) == math.copysign(1, json_value)


def test_the_python_api_and_autodiff_run(cli, batch_output):
    """The Python API and `autodiff run --dtype float64` compute the same numbers as eval's JSON
    (JSON writes each float as Python's repr, which reads back to the same bits)."""
    objects = _objects(batch_output)
    script = []
    checked = []
    for k in range(0, 260, 5):  # scalar jobs
        if "value" not in objects[k]:
            continue
        bindings, expr = _split(JOBS[k])
        leaves = {name: ad.tensor(float(value), dtype=ad.float64, requires_grad=True) for name, value in bindings}
        f = eval(expr, {"__builtins__": {}}, _engine_namespace(leaves))  # the test's own formula text
        grads = ad.autograd.grad(f, list(leaves.values()), allow_unused=True)
        want = objects[k]
        assert _same(f.item(), want["value"]), JOBS[k]
        for (name, leaf), g in zip(leaves.items(), grads):
            if name in want["grad"]:
                assert _same(g.item(), want["grad"][name]), JOBS[k]
        script.append("; ".join(f"{n} = torch.tensor({float(v)!r}, requires_grad=True)" for n, v in bindings))
        script.append(f"f = {expr}; gs = torch.autograd.grad(f, [{', '.join(n for n, _ in bindings)}], allow_unused=True)")
        script.append("print(repr(f.item()), [None if g is None else repr(g.item()) for g in gs])")
        checked.append(k)
    assert len(checked) >= 40
    run = cli.invoke("run", "--dtype", "float64", "-c", "\n".join(script))
    assert run.exit_code == 0, run.stderr
    for line, k in zip(run.stdout.splitlines(), checked):
        value, grads = line.split(" ", 1)
        want = objects[k]
        assert _same(float(value), want["value"]), JOBS[k]
        names = [n for n, _ in _split(JOBS[k])[0]]
        for name, g in zip(names, eval(grads)):
            if name in want["grad"]:
                assert _same(float(g), want["grad"][name]), JOBS[k]


def test_a_0d_variable_and_a_one_element_one(cli, batch_output):
    """x=0.3 (0-d: the lean lane) and x=[0.3] (one element: the full pipeline) give the same bits."""
    objects = _objects(batch_output)
    compared = 0
    for k in range(0, 260, 3):
        if "value" not in objects[k]:
            continue
        bindings, expr = _split(JOBS[k])
        listed = "; ".join([f"{n} = [{v}]" for n, v in bindings] + [f"({expr}).sum()"])
        one = _objects(cli.invoke("eval", listed, "--json").stdout)[0]
        assert one["value"] == objects[k]["value"], JOBS[k]
        assert {n: g[0] for n, g in one["grad"].items()} == objects[k]["grad"], JOBS[k]
        compared += 1
    assert compared >= 60


# ---------------------------------------------------------------- the options the compiled forms take
# The lean lane takes --wrt, --jacobian and --weights of a number, --order 2 and 3 and --hessian (with
# those) its recorded backward passes (compiled_second.py), --check (with those) its finite differences
# (compiled.checked) (grammar/compiled.py _options_fit); --order 4 and --check of a second derivative
# take its engine form (compiled.evaluate). Each with the same generated batch, through every path above that a
# command line can name.
LANE_OPTIONS = [("--wrt", "x"), ("--wrt", "y,x"), ("--jacobian",), ("--weights", "0.5"), ("--wrt", "x", "--jacobian"),
                ("--order", "2"), ("--order", "2", "--wrt", "x", "--weights", "-1.5"), ("--order", "3"),
                ("--hessian",), ("--hessian", "--wrt", "x"), ("--hessian", "--weights", "2"), ("--check",),
                ("--check", "--wrt", "x"), ("--check", "--weights", "-0.5")]
ENGINE_FORM_OPTIONS = [("--order", "4"), ("--check", "--order", "2")]


def _lane_entry(options):
    """(module, function) of the compiled form a batch with `options` takes."""
    if "--hessian" in options or "--order" in options and options[options.index("--order") + 1] in ("2", "3"):
        return compiled_second, "run"
    return lean_lane, "checked" if "--check" in options else "run"


@pytest.fixture(scope="module")
def dask_cluster():
    distributed = pytest.importorskip("distributed")
    import logging
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                                  silence_logs=logging.ERROR) as cluster:
        yield cluster.scheduler_address


def _unwrapped(value):
    """A one-element tensor's JSON ([g], [[h]]) as the 0-d one's (g), in any nesting of dicts."""
    stack = [value]
    while stack:
        d = stack.pop()
        for k, v in d.items():
            while isinstance(v, list) and len(v) == 1:
                v = v[0]
            d[k] = v
            if isinstance(v, dict):
                stack.append(v)
    return value


@pytest.mark.parametrize("options", LANE_OPTIONS + ENGINE_FORM_OPTIONS, ids=" ".join)
def _process_paths(cli, batch_input, options, dask_cluster, monkeypatch):
    """The batch's stdout, checked equal through --jobs 2, --dask, a process of its own and the full
    pipeline (both compiled forms off)."""
    batch = cli.invoke("eval", "-", "--json", *options, input=batch_input)
    assert cli.invoke("eval", "-", "--json", "--jobs", "2", *options, input=batch_input).stdout == batch.stdout
    assert cli.invoke("eval", "-", "--json", "--dask", dask_cluster, *options, input=batch_input).stdout == batch.stdout
    assert cli.console("eval", "-", "--json", *options, input=batch_input).stdout == batch.stdout
    with monkeypatch.context() as m:
        m.setattr(lean_lane, "run", lambda *a: None)
        m.setattr(lean_lane, "evaluate", lambda *a, **k: None)
        m.setattr(lean_lane, "checked", lambda *a: None)
        m.setattr(compiled_second, "run", lambda *a: None)
        assert cli.invoke("eval", "-", "--json", *options, input=batch_input).stdout == batch.stdout
    return batch.stdout


def _same_as_one_element(objects, one_element_objects, lines):
    """A one-element variable's results ([g], [[h]]) are the 0-d one's (g, h), bit for bit."""
    for obj, one, line in zip(objects, one_element_objects, lines):
        one = _unwrapped(one)
        assert one.pop("expr") == line
        assert one == {key: v for key, v in obj.items() if key != "expr"}, line


@pytest.mark.parametrize("options", LANE_OPTIONS + ENGINE_FORM_OPTIONS, ids=" ".join)
def test_every_option_through_every_path(cli, options, monkeypatch, dask_cluster):
    objects = _objects(_process_paths(cli, BATCH, options, dask_cluster, monkeypatch))
    assert len(objects) == len(JOBS)
    assert sum("value" in o for o in objects) >= (0.5 if "y,x" in options else 0.9) * len(JOBS)  # (y: not in every job)
    for k in range(0, len(JOBS), 11):
        assert _objects(cli.invoke("eval", JOBS[k], "--json", *options).stdout) == [objects[k]], JOBS[k]
    picked = [k for k in range(0, 260, 4) if "value" in objects[k]]  # a 0-d variable and a one-element one
    assert len(picked) >= 30
    listed = ["; ".join([f"{n} = [{v}]" for n, v in _split(JOBS[k])[0]] + [f"({_split(JOBS[k])[1]}).sum()"])
              for k in picked]
    ones = [_objects(cli.invoke("eval", line, "--json", *options).stdout)[0] for line in listed]
    _same_as_one_element([objects[k] for k in picked], ones, listed)


# The scalar jobs with x bound on the command line instead (--set x=0.37: a number the lane takes)
SET_JOBS = [job.split("; ", 1)[1] for job in JOBS[:260]]


def test_a_number_bound_on_the_command_line_through_every_path(cli, monkeypatch, dask_cluster):
    assert all(job.startswith("x = ") for job in JOBS[:260])
    batch_input = "\n".join(SET_JOBS) + "\n"
    taken = []
    real = lean_lane.run
    monkeypatch.setattr(lean_lane, "run", lambda *a: taken.append(r) or r if (r := real(*a)) is not None else None)
    stdout = _process_paths(cli, batch_input, ("--set", "x=0.37"), dask_cluster, monkeypatch)
    assert len(taken) >= 150  # the lane took them (in this process's runs)
    objects = _objects(stdout)
    assert len(objects) == len(SET_JOBS) and sum("value" in o for o in objects) >= 0.9 * len(SET_JOBS)
    for k in range(0, len(SET_JOBS), 11):
        assert _objects(cli.invoke("eval", SET_JOBS[k], "--json", "--set", "x=0.37").stdout) == [objects[k]]
    picked = [k for k in range(0, len(SET_JOBS), 3) if "value" in objects[k]]
    assert len(picked) >= 60
    summed = [f"({SET_JOBS[k].rsplit('; ', 1)[-1]}).sum()" if "; " not in SET_JOBS[k] else
              f"{SET_JOBS[k].rsplit('; ', 1)[0]}; ({SET_JOBS[k].rsplit('; ', 1)[1]}).sum()" for k in picked]
    ones = _objects(cli.invoke("eval", "-", "--json", "--set", "x=[0.37]", input="\n".join(summed) + "\n").stdout)
    _same_as_one_element([objects[k] for k in picked], ones, summed)


def test_the_compiled_forms_take_the_options(cli, monkeypatch):
    """The options above really reach the lean lane (LANE_OPTIONS) and its engine form (the others)."""
    for options, (module, form) in [(o, _lane_entry(o)) for o in LANE_OPTIONS] + \
            [(o, (lean_lane, "evaluate")) for o in ENGINE_FORM_OPTIONS]:
        taken = []
        real = getattr(module, form)
        monkeypatch.setattr(module, form, lambda *a, real=real, **k: taken.append(r) or r
                            if (r := real(*a, **k)) is not None else None)
        cli.invoke("eval", "-", "--json", *options, input=BATCH)
        monkeypatch.setattr(module, form, real)
        assert len(taken) >= 120, (options, form, len(taken))
