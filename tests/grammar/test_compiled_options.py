"""Every eval option on the compiled form of a job (grammar/compiled.py, grammar/job.py _run_compiled):
for a table of jobs -- one statement and several, numbers and tensors bound on the command line --
times the options, the job takes the compiled form (compiled.taken counts it) and gives what the
full pipeline (parser, compiler, interpreter) gives: the same values, derivatives, Jacobians,
Hessians and checks bit for bit, the same JSON line, or the same error at the same place. A batch
(`eval -f FILE --json`) gives line by line what each job gives alone."""
import json
import random

import numpy
import pytest

from autodiff.cli.output import job_json_line
from autodiff.engine.state import isolated
from autodiff.grammar import compiled, compiled_second
from autodiff.grammar.errors import LanguageError
from autodiff.grammar.job import JobOptions, _run_job, run_job

# (source, bindings): one statement and several, numbers and tensors bound on the command line
JOBS = [
    ("x**3", (("x", "2"),)),
    ("x**2 - 1/x", (("x", "1.5"), ("y", "3"))),
    ("sin(x)*y + x**2/y - 2/x", (("x", "0.7"), ("y", "-1.3"))),
    ("a = 0.5; b = a*x; b**2 + exp(-a*x)", (("x", "1.2"),)),
    ("x = 0.3; y = -1.5; w = x*tanh(y); w/(1 + x**2) - y", ()),
    ("x = 1; a = x; x = 2; a*x + x**3", ()),
    ("sin(x)*y", (("x", "[1, 2, 3]"), ("y", "2"))),
    ("x*x - 2*x + sqrt(y)", (("x", "[[0.5, 1], [2, -1.5]]"), ("y", "1.5e-1"))),
    ("s = x; z = s*3; exp(z) - x", (("x", "[0.25, -0.5]"),)),
]

OPTIONS = [
    {},
    {"wrt": ("x",)},
    {"wrt": ("y", "x")},
    {"wrt": ("z",)},
    {"order": 2},
    {"order": 3, "wrt": ("x",)},
    {"weights": "1"},
    {"weights": "[1, -2, 0.5]"},
    {"jacobian": True},
    {"hessian": True},
    {"hessian": True, "weights": "2"},
    {"check": True},
    {"jacobian": True, "hessian": True, "order": 2, "weights": "1"},
]


def _options(kw):
    return JobOptions(**kw)


def _bits(v):
    v = numpy.asarray(v, dtype=numpy.float64)
    return numpy.where(numpy.isnan(v), numpy.nan, v).tobytes(), v.shape


def _same_values(a, b):
    """Two results' fields, numbers compared by their bits."""
    assert _bits(a.value) == _bits(b.value)
    assert (tuple(a.shape), a.dtype, a.device, a.order) == (tuple(b.shape), b.dtype, b.device, b.order)
    for field in ("grad", "jacobian", "check"):
        x, y = getattr(a, field), getattr(b, field)
        assert (x is None) == (y is None), field
        if x is not None:
            assert list(x) == list(y), field
            for name in x:
                assert _bits(x[name]) == _bits(y[name]), (field, name)
    assert (a.hessian is None) == (b.hessian is None)
    if a.hessian is not None:
        assert [(k, list(v)) for k, v in a.hessian.items()] == [(k, list(v)) for k, v in b.hessian.items()]
        for k, row in a.hessian.items():
            for j, h in row.items():
                assert _bits(h) == _bits(b.hessian[k][j]), (k, j)
    assert a.check_ok == b.check_ok and a.check_notes == b.check_notes


def _outcome(run, source, bindings, kw):
    if any(text.startswith("[") for _, text in bindings) and "weights" not in kw and kw != {"jacobian": True}:
        kw = dict(kw, weights="1")  # f is a tensor: weights make a gradient (without, the pipeline's error)
    with numpy.errstate(all="ignore"):  # as the command line runs jobs
        try:
            return run(source, bindings, _options(kw))
        except LanguageError as e:
            return e


def _full(source, bindings, options):
    return isolated(_run_job, source, bindings, options)


@pytest.mark.parametrize("kw", OPTIONS, ids=lambda kw: ",".join(f"{k}={v}" for k, v in kw.items()) or "defaults")
@pytest.mark.parametrize("source, bindings", JOBS, ids=[j[0] for j in JOBS])
def test_every_option_takes_the_compiled_form_with_the_pipelines_bits(source, bindings, kw):
    before = dict(compiled.taken)
    ours = _outcome(run_job, source, bindings, kw)
    took = {k: compiled.taken[k] - before[k] for k in before}
    full = _outcome(_full, source, bindings, kw)
    if isinstance(full, LanguageError):  # the same error, at the same place (the pipeline gives it)
        assert isinstance(ours, LanguageError), ours
        assert (type(ours), ours.message, ours.kind, ours.hint, ours.start, ours.end) == \
            (type(full), full.message, full.kind, full.hint, full.start, full.end)
        return
    assert not isinstance(ours, LanguageError), ours
    assert sum(took.values()) == 1, f"the job took the pipeline ({took})"
    _same_values(ours, full)
    assert job_json_line(3, source, ours) == job_json_line(3, source, full)


def test_the_table_takes_both_forms():
    """The defaults, --wrt, --order 2 and 3, --hessian and --check (weighted by a number too) of scalar
    jobs take the lane; tensors and the other options the engine form -- and the table above has jobs
    of each kind that succeed."""
    before = dict(compiled.taken)
    for source, bindings, kw, form in [("x**3", (("x", "2"),), {"wrt": ("x",)}, "lane"),
                                       ("x**3", (("x", "2"),), {}, "lane"),
                                       ("x**3", (("x", "2"),), {"jacobian": True}, "lane"),
                                       ("x**3", (("x", "2"),), {"weights": "-0.5"}, "lane"),
                                       ("x**3", (("x", "2"),), {"weights": "2", "jacobian": True}, "engine"),
                                       ("x**3", (("x", "2"),), {"order": 2}, "lane"),
                                       ("x**3", (("x", "2"),), {"order": 3}, "lane"),
                                       ("x**3", (("x", "2"),), {"hessian": True}, "lane"),
                                       ("x**3", (("x", "2"),), {"check": True}, "lane"),
                                       ("x**3", (("x", "2"),), {"order": 4}, "engine"),
                                       ("x**3", (("x", "2"),), {"hessian": True, "weights": "2"}, "lane"),
                                       ("x**3", (("x", "2"),), {"check": True, "weights": "-0.5"}, "lane"),
                                       ("x**3", (("x", "2"),), {"check": True, "order": 2}, "engine"),
                                       ("sin(x)*y", (("x", "[1, 2, 3]"), ("y", "2")), {"weights": "1"}, "engine")]:
        _outcome(run_job, source, bindings, kw)
        assert compiled.taken[form] == before[form] + 1, (source, kw)
        before[form] += 1


def _formula(r, names, depth):
    """A random formula of `names` (recursion only in this test's generator)."""
    if depth == 0:
        return r.choice(names) if r.random() < 0.7 else f"{r.uniform(0.1, 3):.3g}"
    a, b = _formula(r, names, depth - 1), _formula(r, names, depth - 1)
    k = r.random()
    if k < 0.5:
        return f"({a} {r.choice('+-*/')} {b})"
    if k < 0.7:
        return f"{r.choice(['sin', 'exp', 'tanh', 'sqrt', 'log1p', 'sigmoid'])}({a} + {r.choice(names)})"
    if k < 0.85:
        return f"({a})**{r.choice(['2', '3', '-1', '0.5'])}"
    return f"-{r.choice(names)}**2 + {a}"


GENERATED_OPTIONS = [{}, {"wrt": ("x",)}, {"wrt": ("y", "x")}, {"order": 2}, {"order": 2, "wrt": ("y",)},
                     {"jacobian": True}, {"jacobian": True, "wrt": ("x", "y")}, {"hessian": True},
                     {"weights": "0.5"}, {"check": True}, {"check": True, "order": 2, "wrt": ("x",)},
                     {"hessian": True, "weights": "-1.5"}, {"check": True, "weights": "2", "wrt": ("x",)}]


@pytest.mark.parametrize("seed", range(150))
def test_generated_jobs_with_every_option_agree_with_the_pipeline(seed):
    r = random.Random(seed)
    tensors = r.random() < 0.3
    names = ["x", "y"][:r.randint(1, 2)]
    bindings = tuple((n, f"[{r.uniform(0.2, 2):.3g}, {r.uniform(0.2, 2):.3g}]" if tensors
                      else f"{r.uniform(-2, 2):.4g}") for n in names)
    statements = [f"a = {r.uniform(0.1, 2):.3g}"] if r.random() < 0.3 else []
    if r.random() < 0.3:
        statements.append(f"w = {_formula(r, names, 1)}")
        names = names + ["w"]
    source = "; ".join(statements + [_formula(r, names + ["a"] * bool(statements[:1] and "a =" in statements[0]),
                                              r.randint(1, 3))])
    if not any(n in source.split(";")[-1] for n in names):
        source += f" * {names[0]}"
    for kw in GENERATED_OPTIONS:
        before = sum(compiled.taken.values())
        ours = _outcome(run_job, source, bindings, kw)
        took = sum(compiled.taken.values()) - before
        full = _outcome(_full, source, bindings, kw)
        if isinstance(full, LanguageError):
            assert isinstance(ours, LanguageError) and (ours.message, ours.start, ours.end) == \
                (full.message, full.start, full.end), (source, kw)
            continue
        assert took == 1 or not any(n in source for n in ("x", "y")), (source, kw)
        _same_values(ours, full)
        assert job_json_line(1, source, ours) == job_json_line(1, source, full)


def test_hand_derived_values():
    def job(source, bindings, **kw):
        with numpy.errstate(all="ignore"):
            return run_job(source, bindings, JobOptions(**kw))

    assert float(job("x**3", (("x", "2"),), order=2).grad["x"]) == 12.0      # 6x at 2
    assert float(job("x**3", (("x", "2"),), order=3).grad["x"]) == 6.0
    r = job("x*y", (("x", "2"), ("y", "3")), wrt=("y",), hessian=True)
    assert list(r.grad) == ["y"] and float(r.grad["y"]) == 2.0
    assert [[float(r.hessian[a][b]) for b in "y"] for a in "y"] == [[0.0]]
    r = job("x*y", (("x", "2"), ("y", "3")), hessian=True)
    assert [[float(r.hessian[a][b]) for b in "xy"] for a in "xy"] == [[0.0, 1.0], [1.0, 0.0]]
    r = job("sin(x)*y", (("x", "[1, 2, 3]"), ("y", "2")), jacobian=True)
    assert numpy.allclose(r.jacobian["x"], numpy.diag(2 * numpy.cos([1.0, 2.0, 3.0])), rtol=0, atol=1e-15)
    r = job("x**2", (("x", "[1, 2]"),), weights="[1, -1]")
    assert r.grad["x"].tolist() == [2.0, -4.0]
    assert float(job("x = 2; x**3", (), wrt=("x",)).grad["x"]) == 12.0


def test_a_tensor_f_without_weights_is_the_pipelines_error_at_f():
    with pytest.raises(LanguageError, match=r"f is not a scalar \(its shape is \[3\]\)") as caught:
        run_job("y = 2; sin(x)*y", (("x", "[1, 2, 3]"),), JobOptions())
    assert (caught.value.start, caught.value.end) == (7, 15)


def test_wrt_of_a_name_f_does_not_use_is_zero_and_of_an_unbound_one_the_pipelines_error():
    r = run_job("x**2", (("x", "1"), ("y", "3")), JobOptions(wrt=("y", "x")))
    assert list(r.grad) == ["y", "x"] and float(r.grad["y"]) == 0.0 and float(r.grad["x"]) == 2.0
    with pytest.raises(LanguageError, match="--wrt z: no variable named 'z'"):
        run_job("x**2", (("x", "1"),), JobOptions(wrt=("z",)))


def test_a_constant_as_the_command_line_reads_it():
    assert compiled.constant("[[1, -2.5], [3e-1, 4]]") == [[1, -2.5], [0.3, 4]]
    assert compiled.constant(" -7 ") == -7
    for text in ("[1, 2", "[1,, 2]", "[]]", "x", "[1, 2,]", "1 + 2", "[[1], 2"):
        assert compiled.constant(text) is None, text


BATCH = ["x = 0.5; x**3 - sin(x)", "x = 1.5; y = -0.25; x*y**2 + exp(y)/x", "x = 2; z = x*x; z/(1 + x)",
         "x = 0.3; tanh(x)*x", "x = 0; y = 1; 1/x + y", "x = 4; sqrt(x) + q"]


@pytest.mark.parametrize("args", [[], ["--wrt", "x"], ["--order", "2"], ["--jacobian"], ["--hessian"],
                                  ["--check"], ["--weights", "2"], ["--set", "s=[1, 2]", "--weights", "1"]])
def test_a_batch_gives_line_by_line_what_each_job_gives_alone(cli, tmp_path, args, monkeypatch):
    path = tmp_path / "jobs.txt"
    lines = [line + " + s*x" for line in BATCH] if "--set" in args else BATCH
    path.write_text("\n".join(lines) + "\n")
    batch = cli.invoke("eval", "-f", str(path), "--json", *args)
    out = [json.loads(line) for line in batch.stdout.splitlines()]
    assert len(out) == len(lines)
    for k, (line, obj) in enumerate(zip(lines, out), 1):
        alone = cli.invoke("eval", line, "--json", *args)
        expected = json.loads(alone.stdout.splitlines()[0])
        expected["line"] = k
        assert obj == expected, line
    full = [_outcome(_full, line, (("s", "[1, 2]"),) if "--set" in args else (), _cli_options(args))
            for line in lines]
    for k, (obj, r) in enumerate(zip(out, full), 1):
        if isinstance(r, LanguageError):
            assert obj["error"]["message"] == r.message
        else:
            assert json.loads(job_json_line(k, lines[k - 1], r)) == obj
    text = cli.invoke("eval", "-f", str(path), *args)
    monkeypatch.setattr(compiled, "run", lambda *a: None)   # the compiled forms off: the pipeline's output
    monkeypatch.setattr(compiled, "evaluate", lambda *a, **k: None)
    monkeypatch.setattr(compiled_second, "run", lambda *a: None)
    assert cli.invoke("eval", "-f", str(path), "--json", *args).stdout == batch.stdout
    pipeline = cli.invoke("eval", "-f", str(path), *args)
    assert (pipeline.stdout, pipeline.stderr, pipeline.exit_code) == (text.stdout, text.stderr, text.exit_code)


def _cli_options(args):
    kw = {}
    for flag, value in zip(args, args[1:] + [None]):
        if flag == "--wrt":
            kw["wrt"] = (value,)
        elif flag == "--order":
            kw["order"] = int(value)
        elif flag == "--weights":
            kw["weights"] = value
        elif flag in ("--jacobian", "--hessian", "--check"):
            kw[flag[2:]] = True
    return kw


@pytest.mark.parametrize("kw", [{"weights": "-0.5"}, {"wrt": ("y", "x"), "jacobian": True}])
def test_a_template_in_use_serves_the_options_with_the_same_bits(kw, monkeypatch):
    """Past HOT runs a template is straight-line Python (compiled._generate): its weighted root,
    chosen gradients and Jacobian are still the pipeline's."""
    monkeypatch.setattr(compiled, "_programs", {})
    source = "x = 0.75; y = -1.25; sin(x*y) / (1 + x**2) - exp(y)*x"
    for _ in range(compiled.HOT + 1):
        ours = _outcome(run_job, source, (), kw)
    assert next(iter(compiled._programs.values())).code is not None
    _same_values(ours, _outcome(_full, source, (), kw))
