#!/usr/bin/env python
"""Side-by-side benchmarks of the `autodiff` command line (SPEC §6, issue 3 point 6).

Measures, in one run and with one Python interpreter (`sys.executable`) for everything:

1. Cold start: `autodiff eval "a*x**2+b*x+c" a=1 b=-2 c=1 x=0 --json` as a new
   process (best and median of 15 runs after 2 warm-ups), next to
   `python -c pass`, `python -c "import numpy, lark, click"` (the reference:
   target ours <= 1.5x), `python -c "import torch"` and `python -c "import sympy"`
   when those are installed. Our CLI runs as `sys.executable <bindir>/autodiff ...`,
   the console script installed next to the interpreter (what a user's `autodiff`
   executes, minus any shell shim such as pyenv's); a second row runs it as
   `sys.executable -m autodiff.cli.main ...`. If no console script sits next to
   the interpreter, the first row falls back to `-m` and says so. The commands
   are run round-robin, so drift in the machine's load hits every column alike;
   a row of best CPU times (user+sys of the child) is less disturbed by other
   load than the wall times. Every measured process runs with Python's bytecode
   cache on, kept in a temporary PYTHONPYCACHEPREFIX folder (filled by the
   warm-ups, removed at the end; nothing is written into the checkout). Where
   the environment sets PYTHONDONTWRITEBYTECODE and our package has no
   __pycache__ (so every start compiles our sources), one more row measures
   our cold start that way too.

2. Batch throughput: 10,000 distinct one-line jobs (polynomials and
   transcendental expressions with varying constants and operators, each binding
   its variables inline: `x = 0.37; 1.3*x**2 + sin(0.8*x) - 2`, a quarter of them
   with a second variable `y`), first derivatives, JSON out:
   - ours as one process, `autodiff eval - --json` with the jobs on stdin (wall
     time including the process start; target >= 10,000 jobs/s), and in-process
     (click's CliRunner on the same command, imports and parser tables warm);
   - PyTorch driven by Python's own eval(): each line's bindings become float64
     tensors requiring grad, the expression is eval()'d in a namespace of torch
     functions, then backward() and json.dumps of the value and gradients; as a
     process reading stdin (including `import torch`) and in-process;
   - SymPy (when importable): sympify, diff, evalf at the point, json.dumps; on
     the first --sympy-jobs jobs only (it is ~100x slower), in-process.
   Throughputs are also given by CPU time, and, when PyTorch is there, as a
   machine-free reading of the target (issue 3: 10,000 jobs/s where PyTorch
   did ~18,700/s, i.e. ours >= 0.53x PyTorch's jobs/s).
   Checks: our output has one JSON line per job, in order, with no errors; every
   value and gradient agrees with PyTorch's (when installed); a sample of
   gradients agrees with central finite differences computed with Python's math.

3. Where the time goes: the cold start's imports (`python -X importtime`, grouped
   by package), then our batch run once in-process under cProfile: time per
   phase (parse, compile, interpreter + engine forward, backward, JSON, ...),
   time by module, and the top 25 functions by cumulative and by total time.

Running (a script, not a test: nothing asserts a time):

    python3 benchmarks/bench_cli.py                       # our numbers (+ SymPy if installed)
    /work/torchenv/bin/python benchmarks/bench_cli.py     # with the PyTorch column
    python3 benchmarks/bench_cli.py --quick               # 1,000 jobs, 5 cold runs: a smoke run
    python3 benchmarks/bench_cli.py --jobs 20000          # another batch size
    python3 benchmarks/bench_cli.py --no-profile          # the table and checks only

The interpreter that runs this script is the one measured: `autodiff` must be
installed in it (`pip install -e .`), since the cold start and the batch run
the installed command. Other flags: --cold-runs N, --repeat N (best of N batch
runs), --sympy-jobs N, --seed N, --top N (rows in the profile lists).
A full run takes about a minute or two on a 2-CPU machine.
"""
import argparse
import io
import json
import math
import os
import platform
import random
import re
import statistics
import subprocess
import sys
import time

try:
    import resource
except ImportError:         # not on Windows: no CPU times
    resource = None

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

COLD_EXPR = ["eval", "a*x**2+b*x+c", "a=1", "b=-2", "c=1", "x=0", "--json"]
COLD_EXPECT = {"value": 1.0, "grad": {"x": -2.0, "a": 0.0, "b": 0.0, "c": 1.0}}


def have(module):
    """Whether `module` is importable here, without importing it."""
    import importlib.util
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


# --------------------------------------------------------------------------- jobs
FUNCS = ("sin", "cos", "tanh", "sigmoid")
_VAR = re.compile(r"\b[xy]\b")


def _const(r):
    return f"{r.uniform(0.1, 3.0):.3g}"


def _leaf(r, var):
    k = r.random()
    if k < 0.25:
        return var, True
    if k < 0.4:
        return _const(r), True
    if k < 0.7:
        return f"{_const(r)}*{var}", False
    if k < 0.85:
        return f"{var}**{r.randint(2, 5)}", False
    return f"{_const(r)}*{var}**{r.randint(2, 4)}", False


def _wrap(s, atom):
    return s if atom else f"({s})"


def _tree(r, depth, names, root=True):
    """(text, is_atom) of a random smooth expression, finite for variables in [0.1, 2]."""
    if depth == 0 or (not root and r.random() < 0.2):
        return _leaf(r, r.choice(names))
    k = r.random()
    a, aa = _tree(r, depth - 1, names, False)
    if k >= 0.55 and not _VAR.search(a):       # no function of a constant: torch.sin(0.5) is an error
        a, aa = f"{_const(r)}*{r.choice(names)}", False
    if k < 0.45:
        b, ba = _tree(r, depth - 1, names, False)
        op = r.choice(("+", "-", "*", "+", "-", "*"))
        if op == "*":
            return f"{_wrap(a, aa)}*{_wrap(b, ba)}", False
        if op == "-" and not ba and ("+" in b or "-" in b):
            b = f"({b})"
        return f"{a} {op} {b}", False
    if k < 0.55:
        b, ba = _tree(r, depth - 1, names, False)
        return f"{_wrap(a, aa)}/({_const(r)} + {_wrap(b, ba)}**2)", False
    if k < 0.75:
        return f"{r.choice(FUNCS)}({a})", True
    if k < 0.83:
        return f"exp(-{_wrap(a, aa)}**2)", True
    if k < 0.9:
        return f"log({_const(r)} + {_wrap(a, aa)}**2)", True
    if k < 0.95:
        return f"sqrt({_const(r)} + {_wrap(a, aa)}**2)", True
    return f"{_wrap(a, aa)}**{r.randint(2, 3)}", False


def _poly(r, var):
    degree = r.randint(2, 6)
    terms = []
    for p in range(degree, -1, -1):
        if p < degree and r.random() < 0.3:
            continue
        c = _const(r)
        terms.append(c if p == 0 else f"{c}*{var}" if p == 1 else f"{c}*{var}**{p}")
    out = terms[0]
    for t in terms[1:]:
        out += f" {r.choice('+-')} {t}"
    return out


def make_jobs(n, seed=0):
    """`n` distinct job lines `x = 0.37; <expr>` (a quarter also bind y), and for
    each a (bindings, expression) pair: bindings a dict name -> float."""
    r = random.Random(seed)
    seen, jobs = set(), []
    while len(jobs) < n:
        names = ("x", "y") if r.random() < 0.25 else ("x",)
        k = r.random()
        if k < 0.3:
            expr = _poly(r, "x")
            if len(names) == 2:
                expr += f" + {_const(r)}*sin(y)"
        elif k < 0.45:
            expr = f"{_const(r)}*x**2 {r.choice('+-')} {_const(r)}*x {r.choice('+-')} " \
                   f"{r.choice(FUNCS + ('exp',))}({_const(r)}*x)"
            if len(names) == 2:
                expr += f" {r.choice('+-')} x*y"
        else:
            expr, _ = _tree(r, r.randint(2, 3), names)
        for name in names:
            if name not in expr.replace("exp", "").replace("sqrt", ""):
                expr += f" + {_const(r)}*{name}"
        binds = {name: float(f"{r.uniform(0.1, 2.0):.4g}") for name in names}
        line = "; ".join(f"{name} = {v!r}" for name, v in binds.items()) + "; " + expr
        if line in seen:
            continue
        seen.add(line)
        jobs.append((line, binds, expr))
    return jobs


def split_job(line):
    """'x = 0.37; y = 1; expr' -> ({'x': 0.37, 'y': 1.0}, 'expr') (the baselines' only parsing)."""
    *stmts, expr = line.split(";")
    binds = {}
    for s in stmts:
        name, _, value = s.partition("=")
        binds[name.strip()] = float(value)
    return binds, expr.strip()


# --------------------------------------------------------------------------- baselines
def torch_namespace(torch):
    """The names the jobs call, as PyTorch's functions (the namespace of the eval() baselines)."""
    return {"__builtins__": {}, "sin": torch.sin, "cos": torch.cos, "tanh": torch.tanh,
            "sigmoid": torch.sigmoid, "exp": torch.exp, "log": torch.log, "sqrt": torch.sqrt}


def torch_driver():
    """A function lines -> iterator of JSON lines: PyTorch driven by Python's eval()."""
    import torch
    ns = torch_namespace(torch)
    f64 = torch.float64
    dumps = json.dumps

    def run(lines):
        for i, line in enumerate(lines, 1):
            binds, expr = split_job(line)
            xs = {name: torch.tensor(v, dtype=f64, requires_grad=True) for name, v in binds.items()}
            f = eval(expr, ns, xs)
            f.backward()
            grad = {name: (t.grad.item() if t.grad is not None else 0.0) for name, t in xs.items()}
            yield dumps({"line": i, "expr": line, "value": f.item(), "grad": grad})
    return run


def sympy_driver():
    """A function lines -> iterator of JSON lines: SymPy's sympify, diff and evalf."""
    import sympy
    syms = {"x": sympy.Symbol("x"), "y": sympy.Symbol("y")}
    local = dict(syms, sigmoid=lambda a: 1 / (1 + sympy.exp(-a)))
    dumps = json.dumps

    def run(lines):
        for i, line in enumerate(lines, 1):
            binds, expr = split_job(line)
            f = sympy.sympify(expr, locals=local)
            at = {syms[n]: v for n, v in binds.items()}
            grad = {n: float(sympy.diff(f, syms[n]).evalf(subs=at)) for n in binds}
            yield dumps({"line": i, "expr": line, "value": float(f.evalf(subs=at)), "grad": grad})
    return run


DRIVERS = {"torch": torch_driver, "sympy": sympy_driver}


def child(lib):
    """`--child LIB`: run a baseline driver over stdin, JSON Lines on stdout (a process of its own)."""
    run = DRIVERS[lib]()
    lines = [line.strip() for line in sys.stdin if line.strip() and not line.lstrip().startswith("#")]
    out = sys.stdout
    for obj in run(lines):
        out.write(obj + "\n")
    return 0


def math_eval(binds, expr):
    ns = {"__builtins__": {}, "sin": math.sin, "cos": math.cos, "tanh": math.tanh, "exp": math.exp,
          "log": math.log, "sqrt": math.sqrt, "sigmoid": lambda a: 1.0 / (1.0 + math.exp(-a))}
    return eval(expr, ns, dict(binds))


def finite_difference(binds, expr, name, h=1e-5):
    plus, minus = dict(binds), dict(binds)
    plus[name] += h
    minus[name] -= h
    return (math_eval(plus, expr) - math_eval(minus, expr)) / (2 * h)


# --------------------------------------------------------------------------- our CLI
def our_commands():
    """(argv prefix of our CLI as the user runs it, description), and the `-m` form."""
    exe = sys.executable
    bindir = os.path.dirname(exe)
    script = os.path.join(bindir, "autodiff")
    dash_m = [exe, "-m", "autodiff.cli.main"]
    if os.path.isfile(script):
        return ([exe, script], f"{exe} {script}"), (dash_m, " ".join(dash_m))
    return (dash_m, " ".join(dash_m) + " (no console script next to the interpreter)"), None


# The environment of every measured process: Python's bytecode cache on, in a folder of its own
# (PYTHONPYCACHEPREFIX, set up by `bytecode_env`), so that no column pays for compiling its
# sources at each start and nothing is written into the checkout or site-packages.
CHILD_ENV = None


def bytecode_env(prefix):
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = prefix
    return env


def no_bytecode_for_ours():
    """Whether this environment runs our modules without a .pyc (compiled at every start)."""
    if not os.environ.get("PYTHONDONTWRITEBYTECODE") or os.environ.get("PYTHONPYCACHEPREFIX"):
        return False
    import importlib.util
    spec = importlib.util.find_spec("autodiff.engine")
    folder = os.path.dirname(spec.origin) if spec and spec.origin else None
    return bool(folder) and not os.path.isdir(os.path.join(folder, "__pycache__"))


def run_process(argv, stdin_text=None, env=None):
    """(wall seconds, CompletedProcess) of one new process; proc.cpu_s is its user+sys CPU time
    (less disturbed than the wall time when other work shares the machine)."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN) if resource else None
    t0 = time.perf_counter()
    proc = subprocess.run(argv, input=stdin_text, capture_output=True, text=True,
                          env=env if env is not None else CHILD_ENV)
    wall = time.perf_counter() - t0
    if resource:
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        proc.cpu_s = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    else:
        proc.cpu_s = None
    return wall, proc


# --------------------------------------------------------------------------- cold start
def cold_start(runs, warmups=2, echo=print):
    exe = sys.executable
    (ours, ours_desc), dash_m = our_commands()
    cmds = {"ours": (ours + COLD_EXPR, None)}
    if dash_m is not None:
        cmds["ours -m"] = (dash_m[0] + COLD_EXPR, None)
    if no_bytecode_for_ours():
        cmds["ours as is"] = (ours + COLD_EXPR, dict(os.environ))
    cmds["python"] = ([exe, "-c", "pass"], None)
    cmds["numpy+lark+click"] = ([exe, "-c", "import numpy, lark, click"], None)
    if have("torch"):
        cmds["torch"] = ([exe, "-c", "import torch"], None)
    if have("sympy"):
        cmds["sympy"] = ([exe, "-c", "import sympy"], None)
    times = {k: [] for k in cmds}
    cpu = {k: [] for k in cmds}
    problems = []
    for i in range(warmups + runs):
        for key, (argv, env) in cmds.items():
            dt, proc = run_process(argv, env=env)
            if proc.returncode != 0:
                problems.append(f"{key}: exit {proc.returncode}: {proc.stderr.strip()[-300:]}")
                continue
            if key.startswith("ours"):
                try:
                    got = json.loads(proc.stdout)
                    ok = got["value"] == COLD_EXPECT["value"] and got["grad"] == COLD_EXPECT["grad"]
                except (ValueError, KeyError, TypeError):
                    ok = False
                if not ok:
                    problems.append(f"{key}: unexpected output {proc.stdout.strip()[:200]!r}")
            if i >= warmups:
                times[key].append(dt * 1e3)
                if proc.cpu_s is not None:
                    cpu[key].append(proc.cpu_s * 1e3)
    stats = {k: (min(v), statistics.median(v), min(cpu[k]) if cpu[k] else None)
             for k, v in times.items() if v}
    return dict(stats=stats, runs=runs, ours_desc=ours_desc,
                dash_m_desc=dash_m[1] if dash_m else None, problems=sorted(set(problems)))


def import_profile(top=12):
    """Our cold start under `-X importtime`: self time grouped by top-level package, and
    the slowest single modules (ms, inflated somewhat by the measuring itself)."""
    (ours, _), _ = our_commands()
    proc = subprocess.run([sys.executable, "-X", "importtime"] + ours[1:] + COLD_EXPR,
                          capture_output=True, text=True, env=CHILD_ENV)
    groups, mods = {}, []
    for line in proc.stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        try:
            _, rest = line.split(":", 1)
            self_us, cum_us, name = rest.split("|")
            self_us, cum_us = int(self_us), int(cum_us)
        except ValueError:
            continue
        name = name.strip()
        mods.append((self_us, cum_us, name))
        group = name.split(".")[0]
        if group == "autodiff":
            group = ".".join(name.split(".")[:2])
        groups[group] = groups.get(group, 0) + self_us
    total = sum(m[0] for m in mods)
    return dict(total_ms=total / 1e3, groups=sorted(groups.items(), key=lambda kv: -kv[1])[:top],
                mods=sorted(mods, reverse=True)[:top])


# --------------------------------------------------------------------------- batch
def batch_process(argv, text, repeats):
    """(best wall s, last CompletedProcess, best CPU s) of `repeats` runs of a process reading `text`."""
    best, proc, cpu = float("inf"), None, float("inf")
    for _ in range(repeats):
        dt, proc = run_process(argv, text)
        best = min(best, dt)
        cpu = min(cpu, proc.cpu_s if proc.cpu_s is not None else float("inf"))
    return best, proc, cpu


def _cli_runner():
    from click.testing import CliRunner
    from autodiff.cli.main import cli
    try:
        runner = CliRunner(mix_stderr=False)
    except TypeError:           # click >= 8.2 keeps stderr apart already
        runner = CliRunner()
    return runner, cli


def ours_in_process(text, repeats, warm_text):
    """Best wall time of our eval command run in this process by CliRunner, and its output.
    Each run starts with no compiled templates, as a new process would: a repeat must not
    find the batch's own lines already compiled."""
    from autodiff.grammar.compiled import forget_programs
    runner, cli = _cli_runner()
    runner.invoke(cli, ["eval", "-", "--json"], input=warm_text)     # imports, parser tables
    best, out, cpu = float("inf"), None, float("inf")
    for _ in range(repeats):
        forget_programs()
        c0, t0 = time.process_time(), time.perf_counter()
        res = runner.invoke(cli, ["eval", "-", "--json"], input=text)
        dt, dc = time.perf_counter() - t0, time.process_time() - c0
        best, cpu = min(best, dt), min(cpu, dc)
        out = res
    return best, out, cpu


def baseline_in_process(lib, lines, repeats, warm_lines):
    run = DRIVERS[lib]()
    for _ in run(warm_lines):
        pass
    best, out, cpu = float("inf"), None, float("inf")
    for _ in range(repeats):
        buf = io.StringIO()
        c0, t0 = time.process_time(), time.perf_counter()
        for obj in run(lines):
            buf.write(obj + "\n")
        dt, dc = time.perf_counter() - t0, time.process_time() - c0
        best, cpu = min(best, dt), min(cpu, dc)
        out = buf.getvalue()
    return best, out, cpu


def parse_json_lines(text):
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def check_ours(out_lines, jobs, label):
    """Problems with our JSON Lines output: count, order, errors, keys."""
    problems = []
    if len(out_lines) != len(jobs):
        problems.append(f"{label}: {len(out_lines)} JSON lines for {len(jobs)} jobs")
    errors = [o for o in out_lines if "error" in o]
    if errors:
        e = errors[0]
        problems.append(f"{label}: {len(errors)} jobs failed, e.g. line {e.get('line')}: {e['error']}")
    for i, (o, (line, binds, _)) in enumerate(zip(out_lines, jobs), 1):
        if "error" in o:
            continue
        if o.get("line") != i or o.get("expr") != line:
            problems.append(f"{label}: output {i} is line {o.get('line')} ({o.get('expr')!r}), expected {line!r}")
            break
        if set(o.get("grad", {})) != set(binds):
            problems.append(f"{label}: line {i}: gradients by {sorted(o.get('grad', {}))}, expected {sorted(binds)}")
            break
    return problems


def _flat(v):
    """A number, or nested lists of numbers, as a flat list (without recursion)."""
    out, stack = [], [v]
    while stack:
        x = stack.pop()
        if isinstance(x, list):
            stack.extend(reversed(x))
        else:
            out.append(x)
    return out


def relative_difference(u, v):
    """The largest |u - v| / max(1, |v|) of two numbers or two arrays as JSON lists (of one shape:
    inf where they are not; nan where either has one)."""
    if isinstance(u, list) or isinstance(v, list):
        if not (isinstance(u, list) and isinstance(v, list)) or _shape(u) != _shape(v):
            return math.inf
        worst = 0.0
        for x, y in zip(_flat(u), _flat(v)):
            d = relative_difference(x, y)
            worst = d if not d <= worst else worst  # (a nan stays)
        return worst
    if u is None:
        return math.inf
    return abs(u - v) / max(1.0, abs(v))


def _shape(v):
    shape = []
    while isinstance(v, list):
        shape.append(len(v))
        v = v[0] if v else None
    return shape


def compare(ours, other, label):
    """(max relative difference of values and gradients, count compared, first mismatch)."""
    worst, bad = 0.0, None
    n = 0
    for a, b in zip(ours, other):
        if "error" in a:
            continue
        pairs = [("value", a["value"], b["value"])] + [(f"d/d{k}", a["grad"].get(k), b["grad"][k]) for k in b["grad"]]
        for what, u, v in pairs:
            d = relative_difference(u, v)
            if not d <= worst:
                worst = d
            if d > 1e-9 and bad is None:
                bad = f"{label}: line {a['line']} {what}: ours {u!r}, {label} {v!r}"
        n += 1
    return worst, n, bad


def spot_check(out_lines, jobs, count, seed):
    """Gradients of `count` random jobs against central finite differences (Python's math)."""
    r = random.Random(seed)
    idx = sorted(r.sample(range(min(len(out_lines), len(jobs))), min(count, len(jobs), len(out_lines))))
    rows = []
    for i in idx:
        o = out_lines[i]
        line, binds, expr = jobs[i]
        if "error" in o:
            rows.append((i + 1, line, None, None, None, False))
            continue
        value = math_eval(binds, expr)
        for name in binds:
            fd = finite_difference(binds, expr, name)
            g = o["grad"][name]
            tol = 1e-6 * (1 + abs(g) + abs(value))
            ok = abs(g - fd) <= tol and abs(o["value"] - value) <= 1e-12 * (1 + abs(value))
            rows.append((i + 1, line, name, g, fd, ok))
    return rows


# --------------------------------------------------------------------------- profile
def profile_batch(text, n_jobs, top, warm_text):
    """Our batch, in-process under cProfile; a list of report lines."""
    import cProfile
    import pstats
    runner, cli = _cli_runner()
    runner.invoke(cli, ["eval", "-", "--json"], input=warm_text)
    from autodiff.grammar.compiled import forget_programs
    forget_programs()   # as a new process: no template compiled yet
    prof = cProfile.Profile()
    prof.enable()
    res = runner.invoke(cli, ["eval", "-", "--json"], input=text)
    prof.disable()
    st = pstats.Stats(prof)
    entries = st.stats            # (file, line, func) -> (primitive calls, calls, tottime, cumtime, callers)
    total = st.total_tt
    out = [f"profiled: {n_jobs} jobs in {total:.2f} s under cProfile = {total / n_jobs * 1e6:.0f} µs/job "
           f"(exit {res.exit_code}; the profiler inflates Python-heavy code: read the shares)"]

    def where(key):
        file, line, func = key
        if file == "~":
            return func                              # a builtin: "<built-in method ...>"
        norm = file.replace("\\", "/")
        for marker, prefix in ((ROOT.replace("\\", "/") + "/", ""), ("/site-packages/", ""),
                               ("/lib/python", "")):
            if marker in norm:
                rest = norm.split(marker, 1)[1]
                if marker == "/lib/python":
                    rest = "py:" + rest.split("/", 1)[1] if "/" in rest else rest
                norm = prefix + rest
                break
        return f"{norm}:{line}({func})"

    def cum_of(file_suffix, func):
        found = [v[3] for (f, _, fn), v in entries.items()
                 if fn == func and f.replace("\\", "/").endswith(file_suffix)]
        return max(found) if found else None

    def engine_calls_from(caller_files, caller_funcs):
        """Cumulative time of engine functions entered straight from the given callers."""
        def direct(key):
            cf = key[0].replace("\\", "/")
            return cf.endswith(caller_files) or (cf.endswith("grammar/job.py") and key[2] in caller_funcs)
        # the interpreter reaches the engine straight or through a C function (operator.mul -> Tensor.__mul__)
        frontier = {k for k in entries if direct(k)}
        frontier |= {k for k, v in entries.items() if k[0] == "~" and any(direct(c) for c in v[4])}
        total_ct = 0.0
        for (f, _, fn), v in entries.items():
            if "/engine/" not in f.replace("\\", "/"):
                continue
            for ck, cv in v[4].items():
                if ck in frontier:
                    total_ct += cv[3]
        return total_ct

    # phases: cumulative time of the functions that bound each step of a job
    phases = [
        ("read stdin + click dispatch + run_job setup (rest)", None, None),
        ("parse (grammar/parser.py parse)", "grammar/parser.py", "parse"),
        ("compile (grammar/compiler.py compile_program)", "grammar/compiler.py", "compile_program"),
        ("run program: interpreter + engine forward (vm run)", "grammar/vm.py", "run"),
        ("choose --wrt (walk graph to leaves)", "grammar/job.py", "_choose_wrt"),
        ("backward (job._derivatives: engine grad)", "grammar/job.py", "_derivatives"),
        ("results to numpy (job._host)", "grammar/job.py", "_host"),
        ("JSON object (eval_cmd._job_json)", "cli/eval_cmd.py", "_job_json"),
        ("JSON text (output.dumps)", "cli/output.py", "dumps"),
    ]
    rows, accounted = [], 0.0
    for label, suffix, func in phases[1:]:
        c = cum_of(suffix, func)
        rows.append((label, c))
        accounted += c or 0.0
        if func == "run" and c is not None:
            fwd = engine_calls_from(("grammar/vm.py", "grammar/names.py"), ("_calculator_value",))
            rows.append(("  of which engine calls made by the interpreter (forward, ≈)", fwd))
            rows.append(("  of which the interpreter itself (vm run - those calls)", c - fwd))
    batch_total = cum_of("cli/eval_cmd.py", "eval_command") or total
    rows.insert(0, (phases[0][0], max(0.0, total - accounted)))
    out.append("")
    out.append(f"phases (cumulative time of the function that bounds each step; eval_command itself "
               f"{batch_total:.2f} s):")
    out.append(f"  {'phase':<62} {'s':>7} {'µs/job':>8} {'share':>6}")
    for label, c in rows:
        if c is None:
            out.append(f"  {label:<62} {'-':>7} {'-':>8} {'-':>6}  (function not found)")
        else:
            out.append(f"  {label:<62} {c:7.3f} {c / n_jobs * 1e6:8.1f} {c / total * 100:5.1f}%")

    # self time grouped by module
    groups = {}
    for key, (_, nc, tt, ct, _) in entries.items():
        file = key[0].replace("\\", "/")
        if file == "~":
            name = key[2]              # "<built-in method math.sin>", "<method 'append' of 'list' objects>"
            g = "C: numpy" if "numpy" in name else "C: builtins and methods"
        elif ROOT.replace("\\", "/") + "/" in file:
            g = file.split(ROOT.replace("\\", "/") + "/", 1)[1]
        elif "/site-packages/" in file:
            parts = file.split("/site-packages/", 1)[1].split("/")
            g = parts[0] if len(parts) > 1 else parts[0]
            if g == "numpy":
                g = "numpy (Python parts)"
        elif "/lib/python" in file:
            g = "stdlib: " + file.rsplit("/", 1)[1]
        else:
            g = file
        groups[g] = groups.get(g, 0.0) + tt
    out.append("")
    out.append("self time by module (top 20):")
    out.append(f"  {'module':<46} {'s':>7} {'µs/job':>8} {'share':>6}")
    for g, tt in sorted(groups.items(), key=lambda kv: -kv[1])[:20]:
        out.append(f"  {g:<46} {tt:7.3f} {tt / n_jobs * 1e6:8.1f} {tt / total * 100:5.1f}%")

    def listing(index, title):
        out.append("")
        out.append(title)
        out.append(f"  {'ncalls':>9} {'/job':>6} {'tottime':>8} {'cumtime':>8} {'cum µs/job':>10}  function")
        ranked = sorted(entries.items(), key=lambda kv: -kv[1][index])[:top]
        for key, (cc, nc, tt, ct, _) in ranked:
            calls = f"{nc}" if nc == cc else f"{nc}/{cc}"
            out.append(f"  {calls:>9} {nc / n_jobs:6.1f} {tt:8.3f} {ct:8.3f} {ct / n_jobs * 1e6:10.1f}  {where(key)}")

    listing(3, f"top {top} functions by cumulative time:")
    listing(2, f"top {top} functions by total (self) time:")
    return out


# --------------------------------------------------------------------------- report
def _fmt(v):
    if v is None:
        return "-"
    if v >= 100:
        return f"{v:,.0f}"
    if v >= 10:
        return f"{v:.1f}"
    return f"{v:.2f}"


def format_table(rows, cols):
    head = ["case", "unit"] + cols + ["ratio", "target", "met"]
    body = [[r["label"], r["unit"]] + [_fmt(r["v"].get(c)) for c in cols] +
            [r.get("ratio", "-"), r.get("target", "-"), r.get("met", "-")] for r in rows]
    widths = [max(len(str(x[i])) for x in [head] + body) for i in range(len(head))]

    def line(cells):
        return "  ".join(str(v).ljust(w) if i < 2 else str(v).rjust(w)
                         for i, (v, w) in enumerate(zip(cells, widths)))
    return [line(head), "  ".join("-" * w for w in widths)] + [line(b) for b in body]


def machine_info():
    lines = [f"python {platform.python_version()} ({platform.python_implementation()}) at {sys.executable}, "
             f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs"]
    try:
        from importlib.metadata import version
        vs = []
        for dist in ("autodiff-cli", "numpy", "lark", "click", "torch", "sympy"):
            try:
                vs.append(f"{dist} {version(dist)}")
            except Exception:
                vs.append(f"{dist}: not installed")
        lines.append(", ".join(vs))
    except ImportError:
        pass
    return lines


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="1,000 jobs, 5 cold runs, one batch repeat")
    p.add_argument("--jobs", type=int, help="number of batch jobs (default 10,000; 1,000 with --quick)")
    p.add_argument("--cold-runs", type=int, help="timed cold starts per command (default 15; 5 with --quick)")
    p.add_argument("--repeat", type=int, help="batch runs per column, best taken (default 3; 1 with --quick)")
    p.add_argument("--sympy-jobs", type=int, help="jobs given to SymPy (default 500; 200 with --quick)")
    p.add_argument("--seed", type=int, default=0, help="seed of the job generator")
    p.add_argument("--top", type=int, default=25, help="rows in each profile list")
    p.add_argument("--no-profile", action="store_true", help="skip the import and cProfile summaries")
    p.add_argument("--child", choices=sorted(DRIVERS) + ["profile"], help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child == "profile":           # our batch under cProfile, in a process that imported nothing else
        text = sys.stdin.read()
        n = sum(1 for line in text.splitlines() if line.strip())
        warm_text = "\n".join(j[0] for j in make_jobs(50, args.seed + 1000)) + "\n"
        for line in profile_batch(text, n, args.top, warm_text):
            print(line)
        return 0
    if args.child:
        return child(args.child)

    n_jobs = args.jobs or (1000 if args.quick else 10_000)
    cold_runs = args.cold_runs or (5 if args.quick else 15)
    repeats = args.repeat or (1 if args.quick else 3)
    n_sympy = min(n_jobs, args.sympy_jobs or (200 if args.quick else 500))
    has_torch, has_sympy = have("torch"), have("sympy")
    err = lambda s: print(s, file=sys.stderr, flush=True)    # noqa: E731

    if not have("autodiff.cli.main"):
        raise SystemExit("autodiff is not installed in this interpreter: pip install -e . first")
    (ours_argv, ours_desc), dash_m = our_commands()

    print("autodiff CLI benchmarks" + (" (--quick)" if args.quick else ""))
    for line in machine_info():
        print("  " + line)
    print(f"  our CLI run as: {ours_desc}")
    if not has_torch:
        print("  torch: not importable here (PyTorch columns skipped; run with /work/torchenv/bin/python)")
    if not has_sympy:
        print("  sympy: not importable here (SymPy column skipped)")
    print(flush=True)

    global CHILD_ENV
    import shutil
    import tempfile
    pyc_dir = tempfile.mkdtemp(prefix="autodiff-bench-pyc-")
    CHILD_ENV = bytecode_env(pyc_dir)
    try:
        return _bench(args, n_jobs, cold_runs, repeats, n_sympy, has_torch, has_sympy, ours_argv, err)
    finally:
        shutil.rmtree(pyc_dir, ignore_errors=True)


def _bench(args, n_jobs, cold_runs, repeats, n_sympy, has_torch, has_sympy, ours_argv, err):
    # 1. cold start
    t0 = time.perf_counter()
    cold = cold_start(cold_runs)
    err(f"[cold start done in {time.perf_counter() - t0:.1f} s]")

    # 2. batch
    jobs = make_jobs(n_jobs, args.seed)
    lines = [j[0] for j in jobs]
    text = "\n".join(lines) + "\n"
    warm = make_jobs(50, args.seed + 1000)
    warm_lines = [j[0] for j in warm]
    warm_text = "\n".join(warm_lines) + "\n"
    avg_len = sum(len(s) for s in lines) / len(lines)
    n_two = sum(1 for j in jobs if len(j[1]) == 2)

    t0 = time.perf_counter()
    t_ours_proc, proc, c_ours_proc = batch_process(ours_argv + ["eval", "-", "--json"], text, repeats)
    err(f"[ours as a process done in {time.perf_counter() - t0:.1f} s]")
    problems = []
    if proc.returncode != 0:
        problems.append(f"ours (process): exit {proc.returncode}; stderr: {proc.stderr.strip()[-300:]}")
    notes = []
    if proc.returncode == 0 and proc.stderr.strip():
        notes.append(f"ours (process) wrote to stderr: {proc.stderr.strip()[:300]}")
    ours_out = parse_json_lines(proc.stdout)
    problems += check_ours(ours_out, jobs, "ours (process)")

    t0 = time.perf_counter()
    t_ours_jobs2, proc2, _ = batch_process(ours_argv + ["eval", "-", "--json", "--jobs", "2"], text, repeats)
    err(f"[ours --jobs 2 done in {time.perf_counter() - t0:.1f} s]")
    if proc2.returncode != 0 or proc2.stdout != proc.stdout:
        problems.append("ours --jobs 2: " + (f"exit {proc2.returncode}" if proc2.returncode != 0 else
                                             "its output differs from one process's"))

    t0 = time.perf_counter()
    t_ours_inproc, res, c_ours_inproc = ours_in_process(text, repeats, warm_text)
    err(f"[ours in-process done in {time.perf_counter() - t0:.1f} s]")
    inproc_out = parse_json_lines(res.stdout)      # click >= 8.2: .output mixes in stderr
    if res.exit_code != 0:
        problems.append(f"ours (in-process): exit {res.exit_code} {res.exception!r}")
    problems += check_ours(inproc_out, jobs, "ours (in-process)")

    v_proc, v_inproc = {"ours": n_jobs / t_ours_proc}, {"ours": n_jobs / t_ours_inproc}
    cpu_rates = {"ours, as a process": n_jobs / c_ours_proc, "ours, in-process": n_jobs / c_ours_inproc}
    comparisons = []
    if has_torch:
        t0 = time.perf_counter()
        t, tproc, c = batch_process([sys.executable, os.path.abspath(__file__), "--child", "torch"], text, repeats)
        cpu_rates["PyTorch, as a process"] = n_jobs / c
        if tproc.returncode == 0:
            v_proc["PyTorch"] = n_jobs / t
        else:
            problems.append(f"PyTorch (process): exit {tproc.returncode}: {tproc.stderr.strip()[-300:]}")
        t, tout, c = baseline_in_process("torch", lines, repeats, warm_lines)
        cpu_rates["PyTorch, in-process"] = n_jobs / c
        v_inproc["PyTorch"] = n_jobs / t
        comparisons.append(("PyTorch", compare(ours_out, parse_json_lines(tout), "PyTorch")))
        err(f"[PyTorch done in {time.perf_counter() - t0:.1f} s]")
    if has_sympy:
        t0 = time.perf_counter()
        t, sout, c = baseline_in_process("sympy", lines[:n_sympy], 1, warm_lines[:5])
        cpu_rates["SymPy, in-process"] = n_sympy / c
        v_inproc["SymPy"] = n_sympy / t
        comparisons.append(("SymPy", compare(ours_out[:n_sympy], parse_json_lines(sout), "SymPy")))
        err(f"[SymPy done in {time.perf_counter() - t0:.1f} s]")

    spot = spot_check(ours_out, jobs, 12, args.seed + 1)

    # the table
    s = cold["stats"]
    ref = s.get("numpy+lark+click")
    cols = ["ours", "python -c pass", "numpy+lark+click", "PyTorch", "SymPy"]
    rows = []
    for which, idx in (("best", 0), ("median", 1), ("CPU time user+sys, best", 2)):
        if idx == 2 and (s.get("ours") or (0, 0, None))[2] is None:
            continue
        v = {"ours": s["ours"][idx] if "ours" in s else None,
             "python -c pass": s["python"][idx] if "python" in s else None,
             "numpy+lark+click": ref[idx] if ref else None,
             "PyTorch": s["torch"][idx] if "torch" in s else None,
             "SymPy": s["sympy"][idx] if "sympy" in s else None}
        label = f"cold start, one eval job ({which} of {cold['runs']})" if idx < 2 else f"cold start, {which}"
        row = dict(label=label, unit="ms", v=v,
                   target="ours <= 1.5x numpy+lark+click")
        if v["ours"] and v["numpy+lark+click"]:
            r = v["ours"] / v["numpy+lark+click"]
            row["ratio"] = f"{r:.2f}x"
            row["met"] = "yes" if r <= 1.5 else "NO"
        rows.append(row)
    if "ours -m" in s:
        v = {"ours": s["ours -m"][0]}
        row = dict(label="cold start via python -m autodiff.cli.main (best)", unit="ms", v=v,
                   target="ours <= 1.5x numpy+lark+click")
        if ref:
            r = v["ours"] / ref[0]
            row.update(ratio=f"{r:.2f}x", met="yes" if r <= 1.5 else "NO")
        rows.append(row)
    if "ours as is" in s:
        v = {"ours": s["ours as is"][0]}
        row = dict(label="cold start, no .pyc for our modules (env as is, best)", unit="ms", v=v,
                   target="ours <= 1.5x numpy+lark+click")
        if ref:
            r = v["ours"] / ref[0]
            row.update(ratio=f"{r:.2f}x", met="yes" if r <= 1.5 else "NO")
        rows.append(row)
    for label, v in ((f"batch {n_jobs:,} jobs, stdin -> JSON, as a process (incl. start)", v_proc),
                     (f"batch {n_jobs:,} jobs, in-process (warm)", v_inproc)):
        row = dict(label=label, unit="jobs/s", v=v, target="ours >= 10,000 jobs/s",
                   met="yes" if v["ours"] >= 10_000 else "NO")
        if "PyTorch" in v:
            row["ratio"] = f"{v['ours'] / v['PyTorch']:.2f}x"
        rows.append(row)
    rate2 = n_jobs / t_ours_jobs2
    rows.append(dict(label=f"batch {n_jobs:,} jobs, --jobs 2, as a process (incl. start)", unit="jobs/s",
                     v={"ours": rate2}, ratio=f"{rate2 / v_proc['ours']:.2f}x", target="ours >= 10,000 jobs/s",
                     met="yes" if rate2 >= 10_000 else "NO"))
    for line in format_table(rows, cols):
        print(line)
    print()
    print("notes:")
    print("  ratio: cold start = ours / numpy+lark+click; batch = our jobs/s / PyTorch's jobs/s; --jobs 2 = its "
          "jobs/s / one process's (the two outputs are checked to be the same bytes)")
    print("  every measured process runs with the bytecode cache on, in a temporary PYTHONPYCACHEPREFIX "
          "(filled by the warm-ups)" + (" -- this environment sets PYTHONDONTWRITEBYTECODE=1 and our package has "
                                        "no __pycache__, so as the environment runs it (row 'no .pyc') every start "
                                        "compiles our sources" if "ours as is" in s else ""))
    print("  cold-start columns: python -c pass | python -c 'import numpy, lark, click' | "
          "python -c 'import torch' | python -c 'import sympy', same interpreter, run round-robin")
    print("  batch, as a process: ours = `autodiff eval - --json` < jobs; PyTorch = this script's --child torch "
          f"(imports torch, then the eval() loop); best of {repeats}")
    print("  batch, in-process: ours = click CliRunner on the same command; PyTorch = the eval() loop; "
          f"best of {repeats}" + (f"; SymPy on the first {n_sympy:,} jobs only, once" if has_sympy else ""))
    print(f"  jobs: {n_jobs:,} distinct lines, {avg_len:.0f} characters on average, {n_two:,} with two variables; "
          f"e.g.")
    for line in lines[:4]:
        print(f"    {line}")
    t_cold = s["ours"][1] / 1e3 if "ours" in s else 0.0
    if t_cold > 0 and t_ours_proc - t_cold > 0.5 * t_ours_proc:
        print(f"  ours as a process minus one median cold start: {n_jobs / (t_ours_proc - t_cold):,.0f} jobs/s; "
              f"{t_ours_inproc / n_jobs * 1e6:.0f} µs per job in-process")
    if "PyTorch" in v_inproc:
        # issue 3 measured PyTorch+eval at ~18,700 jobs/s where it set our target at 10,000: a machine-free reading
        share = 10_000 / 18_700
        print(f"  machine-independent reading of the target: issue 3 set 10,000 jobs/s where PyTorch+eval did "
              f"~18,700/s, i.e. ours >= {share:.2f}x PyTorch; "
              f"here: in-process {v_inproc['ours'] / v_inproc['PyTorch']:.2f}x"
              + (f", as a process {v_proc['ours'] / v_proc['PyTorch']:.2f}x" if "PyTorch" in v_proc else "")
              + f" (so the issue's 10,000 jobs/s corresponds to {share * v_inproc['PyTorch']:,.0f} jobs/s "
              f"in-process on this machine)")
    print("  jobs/s by CPU time (user+sys) instead of wall time, less disturbed by other load: " +
          "; ".join(f"{k} {v:,.0f}" for k, v in cpu_rates.items() if v != 0))
    if not has_torch:
        print("  PyTorch: not importable in this interpreter, columns left empty")
    if not has_sympy:
        print("  SymPy: not importable in this interpreter, column left empty")

    print()
    print("checks:")
    for line in cold["problems"]:
        print(f"  cold start PROBLEM: {line}")
    if not cold["problems"]:
        print("  cold start: every run of ours printed value 1.0 and grad {x: -2, a: 0, b: 0, c: 1}")
    if problems:
        for line in problems:
            print(f"  batch PROBLEM: {line}")
    else:
        print(f"  batch: {len(ours_out):,} JSON lines, in input order, no errors, exit 0 "
              f"(as a process and in-process)")
    for line in notes:
        print(f"  batch WARNING: {line}")
    for name, (worst, n, bad) in comparisons:
        print(f"  vs {name}: {n:,} jobs, largest relative difference of value/gradients {worst:.1e}"
              + (f" (first above 1e-9: {bad})" if bad else ""))
    n_ok = sum(1 for r in spot if r[5])
    print(f"  finite differences (h=1e-5, Python math), {len(spot)} gradients of "
          f"{len({r[0] for r in spot})} random jobs: {n_ok} agree within 1e-6*(1+|g|+|f|)")
    for line_no, line, name, g, fd, ok in spot[:6] + [r for r in spot[6:] if not r[5]]:
        if name is None:
            print(f"    line {line_no}: job failed: {line}")
        else:
            print(f"    line {line_no:>5} d/d{name}: ours {g:+.12g}  fd {fd:+.12g}  {'ok' if ok else 'MISMATCH'}"
                  f"   {line[:70]}")
    sys.stdout.flush()

    if args.no_profile:
        return 0
    print()
    print("=" * 100)
    print("where the cold start goes: python -X importtime on our cold-start command (self time, ms)")
    imp = import_profile()
    print(f"  all imports: {imp['total_ms']:.0f} ms self time in total")
    print("  by package:   " + ", ".join(f"{g} {us / 1e3:.1f}" for g, us in imp["groups"]))
    print("  slowest modules (self / cumulative ms):")
    for self_us, cum_us, name in imp["mods"]:
        print(f"    {self_us / 1e3:7.1f} {cum_us / 1e3:8.1f}  {name}")
    print()
    print("=" * 100)
    print(f"where the batch goes: {n_jobs:,} jobs through `eval - --json` in-process (CliRunner) under cProfile, "
          f"in a process of its own")
    t0 = time.perf_counter()
    prof = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", "profile", "--top", str(args.top),
                           "--seed", str(args.seed)], input=text, capture_output=True, text=True, env=CHILD_ENV)
    print(prof.stdout.rstrip("\n"))
    if prof.returncode != 0:
        print(f"profile run failed (exit {prof.returncode}): {prof.stderr.strip()[-500:]}")
    err(f"[profile done in {time.perf_counter() - t0:.1f} s]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
