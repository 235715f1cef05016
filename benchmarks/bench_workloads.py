#!/usr/bin/env python
"""The workloads users run, each side by side with its peers in one run (SPEC §6, issue 30 point 3).

Steps (µs per iteration; float32, as the tutorials):
  poly        PyTorch's polynomial_autograd step at n = 10^2, 2*10^3, 2*10^4, 2*10^5, 2*10^6:
              x = linspace(-pi, pi, n), y = sin(x), a, b, c, d 0-d parameters requiring grad;
              `y_pred = a + b*x + c*x**2 + d*x**3; loss = (y_pred - y).pow(2).sum(); loss.backward()`,
              then under no_grad `p -= lr * p.grad; p.grad = None` for the four.
              Peers: PyTorch on one thread, and the same maths written by hand in numpy.
  mlp         an MLP 784-128-10 training step, batch 64 (Linear-ReLU-Linear, cross_entropy, SGD step)
  softmax_ce  F.cross_entropy of (1000, 1000) logits requiring grad with integer targets, backward
  cnn         the small CNN of tests/golden/conv_cnn_program.ad (Conv2d-BatchNorm2d-ReLU-MaxPool2d-Linear,
              batch 4 of 1x6x6, cross_entropy, SGD step)
Batches (jobs/s, as processes, including their start):
  batch_default, batch_wrt, batch_order2, batch_jacobian, batch_hessian, batch_check, batch_order3,
  batch_tensors
              10,000 distinct seeded one-line jobs (benchmarks/bench_cli.py's generator: depth-3 formulas
              in x and y, numbers bound inline) through `autodiff eval - --json` with no option, `--wrt x`,
              `--order 2`, `--jacobian`, `--hessian`, `--check`, `--order 3`, against PyTorch + Python's
              eval() doing the same jobs in one process (the Hessian's rows by a backward from each first
              derivative; --check's central differences by eval() at x +- 1e-6, each variable in turn);
              batch_tensors: the jobs' formulas alone with x and y bound on the command line as 4-element
              tensors (`--set x=[...] --set y=[...] --weights 1`), PyTorch's gradients of f weighted by ones.
Fresh processes (µs per iteration; every library in processes of its own, as a user's script runs, so that
nothing this process imported or allocated shapes its heap; the minor page faults per step are reported too):
  poly_alone  the poly step at n = 2*10^5, 2*10^6, each library in a fresh process per size (this script
              with --alone-child: ours, numpy by hand without autodiff imported, PyTorch on one thread),
              timed inside it as the steps above
  poly_script the poly step as users run it from the command line: an `autodiff run` script of K steps
              (float32 tensors, the update under `with torch.no_grad():`), against the same text run by
              PyTorch's python on one thread and numpy by hand, at n = 2*10^3, 2*10^5; a step costs
              (time of a run of K2 steps - time of a run of K1 steps) / (K2 - K1), each run a whole
              process, so the start-up cancels. Our script's loss and parameters after K1 steps are
              checked against our Python API's (float32 rounding: 1e-5) and the peers' against ours.

Every timing: the libraries take turns (one sample of each, then the next round), one warm-up round,
then the best and median of the repeats (time.perf_counter, the garbage collector off while timing).
Before timing, each step workload runs two steps from the same seeded start in every library and the
losses, gradients and parameters are compared (a broken engine cannot look fast); the batches compare every
job's value and derivatives with PyTorch's.

Ours runs in this interpreter (`autodiff.engine`, installed or straight from this checkout). PyTorch
runs in this interpreter when it can import torch, else in a subprocess of --torch-python (default
/work/torchenv/bin/python when it exists), which needs only numpy and torch; without either, the
PyTorch column is left blank.

    python benchmarks/bench_workloads.py                       # everything
    python benchmarks/bench_workloads.py --quick               # small sizes, few repeats: a smoke run
    python benchmarks/bench_workloads.py --only poly,mlp       # some workloads (names above; `batch`: all four)
    python benchmarks/bench_workloads.py --json out.json       # the figures as JSON too
    python benchmarks/bench_workloads.py --torch-python /path/to/python-with-torch

A script, not a test: nothing asserts a time.
"""
import argparse
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

THREAD_VARS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
if __name__ == "__main__":     # numpy's BLAS on one thread, as PyTorch's (set_num_threads(1)): before numpy
    for _var in THREAD_VARS:
        os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench_cli  # noqa: E402  (the batch jobs, their process runner and the PyTorch+eval() driver)
from bench_engine import _import_engine, best_time_once  # noqa: E402

F32 = np.float32
DEFAULT_TORCH_PYTHON = "/work/torchenv/bin/python"
POLY_SIZES = {"full": (100, 2_000, 20_000, 200_000, 2_000_000), "quick": (100, 2_000, 20_000)}
CE_SHAPE = {"full": (1000, 1000), "quick": (200, 500)}
BATCH_JOBS = {"full": 10_000, "quick": 500}
REPEATS = {"full": 9, "quick": 3}             # step samples after the warm-up round
BATCH_REPEATS = {"full": 3, "quick": 2}
SAMPLE_S = {"full": 0.05, "quick": 0.01}      # a step sample runs about this long (steps per sample calibrated)
CHECK_STEPS = 2
CHECK_RTOL = 1e-4                             # largest |ours - peer| / max(max|peer|, CHECK_FLOOR) per array
CHECK_FLOOR = 1e-2                            # an array of rounding noise (a conv bias before BatchNorm: its
                                              # gradient is 0 up to ~1e-7) is held to 1e-6 absolute

BATCH_OPTIONS = {"batch_default": [], "batch_wrt": ["--wrt", "x"], "batch_order2": ["--order", "2"],
                 "batch_jacobian": ["--jacobian"], "batch_hessian": ["--hessian"], "batch_check": ["--check"],
                 "batch_order3": ["--order", "3"]}
# batch_tensors: the jobs' formulas alone, x and y bound on the command line as 4-element tensors, f weighted
TENSORS = {"x": [0.3, 0.7, 1.1, 1.9], "y": [0.5, 0.25, 1.5, 2.0]}
BATCH_OPTIONS["batch_tensors"] = [arg for name, v in TENSORS.items() for arg in ("--set", f"{name}={v}")] + \
    ["--weights", "1"]
CHECK_EPS = 1e-6  # --check's step in float64 (grammar/job.py), which the PyTorch peer takes too
CHECK_ABS = 1e-6  # how far ours and PyTorch's --check differences may be apart (relative to the gradient)
STEP_CASES = ("poly", "mlp", "softmax_ce", "cnn")
FRESH_CASES = ("poly_alone", "poly_script")    # every library in fresh processes of its own
CASES = STEP_CASES + FRESH_CASES + tuple(BATCH_OPTIONS)
POLY_CASES = ("poly",) + FRESH_CASES

ALONE_SIZES = {"full": (200_000, 2_000_000), "quick": (20_000,)}
# (n, K1, K2): a script run of K1 steps and one of K2; a step costs the difference / (K2 - K1). PyTorch's
# start-up alone moves by ~30 ms from run to run: over 2,000 steps that was 15 us a step at n = 2,000
# (its figure swung 103-168 us), over 10,000 it is 3 us
SCRIPT_SIZES = {"full": ((2_000, 10, 10_010), (200_000, 10, 1_510)), "quick": ((2_000, 5, 1_005),)}
SCRIPT_REPEATS = {"full": 5, "quick": 2}      # script runs of each length after the warm-up round
SCRIPT_WARMUP = 1                             # rounds run first and not counted (the disk cache, the .pyc)
SCRIPT_RTOL = 1e-5                            # our script against our Python API: float32 rounding at most


# --------------------------------------------------------------------------- the step workloads
# Each maker takes the library's module (autodiff.engine or torch), the size and the seed and returns
# (step, state): step() runs one iteration, state() the figures to compare ({name: numpy array}).

def _np(t):
    """A numpy copy of a tensor, in its dtype."""
    return np.array(t.detach().numpy() if hasattr(t, "detach") else t)


def poly_inputs(n, seed):
    """The four initial parameters and the learning rate (the tutorial's 1e-6 at n = 2,000, scaled by
    2,000 / n so that the sum of squares stays stable at every n)."""
    init = np.random.RandomState(seed).randn(4).astype(F32)
    return [float(v) for v in init], 1e-6 * 2000 / n


def poly_lib(T, n, seed):
    init, lr = poly_inputs(n, seed)
    x = T.linspace(-math.pi, math.pi, n, dtype=T.float32)
    y = T.sin(x)
    a, b, c, d = (T.tensor(v, dtype=T.float32, requires_grad=True) for v in init)
    box = [None, None]

    def step():
        nonlocal a, b, c, d
        y_pred = a + b * x + c * x ** 2 + d * x ** 3
        loss = (y_pred - y).pow(2).sum()
        loss.backward()
        box[:] = loss, (a.grad, b.grad, c.grad, d.grad)
        with T.no_grad():
            a -= lr * a.grad
            b -= lr * b.grad
            c -= lr * c.grad
            d -= lr * d.grad
            a.grad = None
            b.grad = None
            c.grad = None
            d.grad = None

    return step, lambda: {"loss": _np(box[0]), "grads": np.array([_np(g) for g in box[1]]),
                          "abcd": np.array([_np(p) for p in (a, b, c, d)])}


def poly_numpy(n, seed):
    """The same step by hand: forward, the four gradients of the sum of squares, the update."""
    init, lr = poly_inputs(n, seed)
    x = np.linspace(-math.pi, math.pi, n, dtype=F32)
    y = np.sin(x)
    p = [F32(v) for v in init]
    lr = F32(lr)
    box = [None, None]

    def step():
        a, b, c, d = p
        x2 = x * x
        x3 = x2 * x
        r = a + b * x + c * x2 + d * x3 - y
        loss = np.dot(r, r)
        g = r + r
        grads = g.sum(), np.dot(g, x), np.dot(g, x2), np.dot(g, x3)
        p[:] = [v - lr * gv for v, gv in zip(p, grads)]
        box[:] = loss, grads

    return step, lambda: {"loss": np.array(box[0]), "grads": np.array(box[1]), "abcd": np.array(p)}


def _load(T, params, arrays):
    with T.no_grad():
        for prm, arr in zip(params, arrays):
            prm.copy_(T.from_numpy(arr))


def _train_step(T, model, x, t, lr):
    """(step, state) of `opt.zero_grad(); loss = cross_entropy(model(x), t); loss.backward(); opt.step()`."""
    F = T.nn.functional
    opt = T.optim.SGD(model.parameters(), lr=lr)
    box = [None]

    def step():
        opt.zero_grad()
        loss = F.cross_entropy(model(x), t)
        loss.backward()
        opt.step()
        box[0] = loss

    def state():
        out = {"loss": _np(box[0])}
        for name, p in model.named_parameters():
            out[name], out[name + ".grad"] = _np(p), _np(p.grad)
        return out
    return step, state


def _uniform(rs, fan_in, *shape):
    bound = 1 / math.sqrt(fan_in)
    return rs.uniform(-bound, bound, shape).astype(F32)


def _float32_layers(T, make):
    """make(), with float32 as the default dtype while it runs (ours defaults to float64, PyTorch to float32)."""
    before = T.get_default_dtype()
    T.set_default_dtype(T.float32)
    try:
        return make()
    finally:
        T.set_default_dtype(before)


def mlp_lib(T, batch, seed):
    rs = np.random.RandomState(seed)
    nn = T.nn
    model = _float32_layers(T, lambda: nn.Sequential(nn.Linear(784, 128), nn.ReLU(), nn.Linear(128, 10)))
    _load(T, model.parameters(), [_uniform(rs, 784, 128, 784), _uniform(rs, 784, 128),
                                  _uniform(rs, 128, 10, 128), _uniform(rs, 128, 10)])
    x = T.from_numpy(rs.randn(batch, 784).astype(F32))
    t = T.from_numpy(rs.randint(0, 10, batch).astype(np.int64))
    return _train_step(T, model, x, t, 0.01)


def softmax_ce_lib(T, shape, seed):
    rs = np.random.RandomState(seed)
    logits = T.tensor(rs.randn(*shape).astype(F32) * 3, requires_grad=True)
    t = T.from_numpy(rs.randint(0, shape[1], shape[0]).astype(np.int64))
    F = T.nn.functional
    box = [None, None]

    def step():
        loss = F.cross_entropy(logits, t)
        loss.backward()
        box[:] = [loss, logits.grad]
        logits.grad = None

    return step, lambda: {"loss": _np(box[0]), "grad": _np(box[1])}


def cnn_lib(T, batch, seed):
    """tests/golden/conv_cnn_program.ad's network, input and optimiser; the initial weights drawn here."""
    rs = np.random.RandomState(seed)
    nn, F = T.nn, T.nn.functional

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(1, 4, 3, padding=1)
            self.bn = nn.BatchNorm2d(4)
            self.pool = nn.MaxPool2d(2)
            self.fc = nn.Linear(4 * 3 * 3, 3)

        def forward(self, x):
            x = self.pool(F.relu(self.bn(self.conv1(x))))
            return self.fc(T.flatten(x, 1))

    net = _float32_layers(T, Net)
    _load(T, [net.conv1.weight, net.conv1.bias, net.fc.weight, net.fc.bias],
          [_uniform(rs, 9, 4, 1, 3, 3), _uniform(rs, 9, 4), _uniform(rs, 36, 3, 36), _uniform(rs, 36, 3)])
    x = T.arange(batch * 36.0, dtype=T.float32).reshape(batch, 1, 6, 6).sin()
    t = T.tensor(([0, 1, 2, 1] * batch)[:batch])
    return _train_step(T, net, x, t, 0.1)


STEP_MAKERS = {"poly": poly_lib, "mlp": mlp_lib, "softmax_ce": softmax_ce_lib, "cnn": cnn_lib}


def step_sizes(case, mode):
    """The sizes one step workload runs at: [(label, size)]."""
    if case == "poly":
        return [(f"n = {n:,}", n) for n in POLY_SIZES[mode]]
    if case == "mlp":
        return [("784-128-10, batch 64", 64)]
    if case == "softmax_ce":
        shape = CE_SHAPE[mode]
        return [(f"{shape[0]}x{shape[1]} logits", shape)]
    return [("batch 4 of 1x6x6", 4)]


# --------------------------------------------------------------------------- the libraries
class Local:
    """A library run in this process: `lib` is 'ours', 'torch' or 'numpy'."""

    def __init__(self, lib):
        self.lib = lib
        self.python = sys.executable
        if lib == "ours":
            self.T = _import_engine()
        elif lib == "torch":
            import torch
            torch.set_num_threads(1)
            self.T = torch
        else:
            self.T = None
        self.step = self._state = None

    def info(self):
        if self.lib == "torch":
            return f"torch {self.T.__version__}, {self.T.get_num_threads()} thread(s), in this process"
        return ""

    def setup(self, case, size, seed):
        if self.lib == "numpy":
            self.step, self._state = poly_numpy(size, seed)
        else:
            self.step, self._state = STEP_MAKERS[case](self.T, size, seed)

    def sample(self, number):
        step = self.step

        def run():
            for _ in range(number):
                step()
        return best_time_once(run)[0] / number

    def state(self):
        return self._state()

    def close(self):
        pass


class Remote:
    """PyTorch run by another interpreter (this script with --peer-server), driven over a pipe."""

    def __init__(self, python):
        self.python = python
        self.proc = subprocess.Popen([python, os.path.abspath(__file__), "--peer-server"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, bufsize=1)
        self.tmp = tempfile.mkdtemp(prefix="bench-workloads-")
        self.description = self._call(op="info")["info"]

    def _call(self, **msg):
        self.proc.stdin.write(json.dumps(msg) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the PyTorch peer process ended (exit {self.proc.poll()})")
        reply = json.loads(line)
        if "error" in reply:
            raise RuntimeError(f"PyTorch peer: {reply['error']}")
        return reply

    def info(self):
        return self.description

    def setup(self, case, size, seed):
        self._call(op="setup", case=case, size=size, seed=seed)

    def sample(self, number):
        return self._call(op="sample", number=number)["seconds"]

    def state(self):
        path = os.path.join(self.tmp, "state.npz")
        self._call(op="state", path=path)
        with np.load(path) as z:
            return {k: z[k] for k in z.files}

    def close(self):
        try:
            self.proc.stdin.close()
            self.proc.wait(timeout=30)
        finally:
            import shutil
            shutil.rmtree(self.tmp, ignore_errors=True)


def peer_server():
    """`--peer-server`: PyTorch on one thread, answering setup/sample/state requests on stdin."""
    lib = Local("torch")
    for line in sys.stdin:
        msg = json.loads(line)
        try:
            op = msg["op"]
            if op == "info":
                reply = {"info": f"torch {lib.T.__version__}, {lib.T.get_num_threads()} thread(s), "
                                 f"in a subprocess of {sys.executable}"}
            elif op == "setup":
                size = tuple(msg["size"]) if isinstance(msg["size"], list) else msg["size"]
                lib.setup(msg["case"], size, msg["seed"])
                reply = {}
            elif op == "sample":
                reply = {"seconds": lib.sample(msg["number"])}
            else:
                np.savez(msg["path"], **lib.state())
                reply = {}
        except Exception as e:          # reported by the parent, which leaves the column blank
            reply = {"error": f"{type(e).__name__}: {e}"}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
    return 0


def can_import_torch(python):
    try:
        return subprocess.run([python, "-c", "import torch, numpy"], capture_output=True).returncode == 0
    except OSError:
        return False


def torch_peer(torch_python, echo):
    """A Local or Remote PyTorch, or None (its column left blank) with the reason echoed."""
    if torch_python is None:
        if bench_cli.have("torch"):
            return Local("torch")
        torch_python = DEFAULT_TORCH_PYTHON if os.path.exists(DEFAULT_TORCH_PYTHON) else None
    if torch_python is None or not can_import_torch(torch_python):
        echo(f"  PyTorch: not importable{' by ' + torch_python if torch_python else ''}: its columns are blank")
        return None
    if os.path.abspath(torch_python) == os.path.abspath(sys.executable):    # not realpath: venvs link one python
        return Local("torch")
    return Remote(torch_python)


# --------------------------------------------------------------------------- timing and checks
def compare_states(ours, peer):
    """Largest |ours - peer| / max(max|peer|, CHECK_FLOOR) over the arrays of two states, and the worst
    array's name."""
    worst, where = 0.0, None
    for name, ref in peer.items():
        got = np.asarray(ours[name], dtype=np.float64)
        ref = np.asarray(ref, dtype=np.float64)
        if got.shape != ref.shape:
            return math.inf, f"{name}: shape {got.shape} vs {ref.shape}"
        d = float(np.max(np.abs(got - ref))) / max(float(np.max(np.abs(ref))), CHECK_FLOOR) if ref.size else 0.0
        if not d <= worst:          # NaN counts as worst
            worst, where = d, name
    return worst, where


def new_row(case, label, unit="µs"):
    return {"case": case, "label": label, "unit": unit, "times": {}, "checks": {}, "problems": []}


def check_states(row, states, steps, rtol=CHECK_RTOL):
    """Compares every state of {library: state} with ours (the first key) into the row's checks and
    problems."""
    (ref, ours), *peers = states.items()
    for name, state in peers:
        worst, where = compare_states(ours, state)
        row["checks"][name] = worst
        if not worst <= rtol:
            row["problems"].append(f"{ref} vs {name}: {where} differs by {worst:.2e} of its largest value "
                                   f"after {steps} steps (tolerance {rtol:g})")


def steps_per_sample(first, sample_s):
    """How many steps make a sample of about sample_s seconds, from the time of one step."""
    return max(1, min(10_000, round(sample_s / max(first, 1e-7))))


def run_step_case(case, label, size, libs, mode, seed):
    """One row: check every library against ours, then time them in turns. Returns the row's dict."""
    row = new_row(case, label)
    states = {}
    for name, lib in list(libs.items()):
        try:
            lib.setup(case, size, seed)
            for _ in range(CHECK_STEPS):
                lib.sample(1)
            states[name] = lib.state()
            lib.setup(case, size, seed)
        except Exception as e:
            row["problems"].append(f"{name}: {type(e).__name__}: {e}")
            del libs[name]
    if "ours" not in libs:
        return row
    check_states(row, states, CHECK_STEPS)
    number = steps_per_sample(libs["ours"].sample(1), SAMPLE_S[mode])
    samples = {name: [] for name in libs}
    for r in range(1 + REPEATS[mode]):
        for name, lib in list(libs.items()):
            try:
                t = lib.sample(number)
            except Exception as e:      # a peer that dies midway: its column is left blank
                row["problems"].append(f"{name}: {type(e).__name__}: {e}")
                del libs[name], samples[name]
                continue
            if r:
                samples[name].append(t * 1e6)
    row["times"] = {name: (min(v), statistics.median(v)) for name, v in samples.items() if v}
    row["steps_per_sample"] = number
    return row


def batch_torch_driver(option):
    """A function lines -> iterator of JSON lines: PyTorch + eval() doing what `eval - --json <option>` does."""
    import torch
    if option == "batch_default":
        return bench_cli.torch_driver()
    ns = bench_cli.torch_namespace(torch)
    f64, dumps, grad = torch.float64, json.dumps, torch.autograd.grad

    def second(g, v):
        if not g.requires_grad:         # the first derivative is a constant
            return 0.0
        (h,) = grad(g, v, retain_graph=True, allow_unused=True)
        return h.item() if h is not None else 0.0

    def third(g, v):
        if not g.requires_grad:
            return 0.0
        (h,) = grad(g, v, create_graph=True, allow_unused=True)
        return second(h, v) if h is not None else 0.0

    def central(expr, binds, name):
        """(f(x + eps) - f(x - eps)) / (2 eps) at the bindings, the other variables held."""
        with torch.no_grad():
            ends = []
            for step in (CHECK_EPS, -CHECK_EPS):
                at = {n: torch.tensor(v + step if n == name else v, dtype=f64) for n, v in binds.items()}
                ends.append(eval(expr, ns, at).item())
        return (ends[0] - ends[1]) / (2 * CHECK_EPS)

    def run(lines):
        for i, line in enumerate(lines, 1):
            if option == "batch_tensors":  # the formula alone, on the tensors; the weighted sum's gradients
                xs = {name: torch.tensor(v, dtype=f64, requires_grad=True) for name, v in TENSORS.items()}
                f = eval(line, ns, xs)
                gs = grad(f, list(xs.values()), grad_outputs=torch.ones_like(f), allow_unused=True)
                yield dumps({"line": i, "expr": line, "value": f.tolist(),
                             "grad": {name: g.tolist() for name, g in zip(xs, gs) if g is not None}})
                continue
            binds, expr = bench_cli.split_job(line)
            xs = {name: torch.tensor(v, dtype=f64, requires_grad=True) for name, v in binds.items()}
            f = eval(expr, ns, xs)
            out = {"line": i, "expr": line, "value": f.item()}
            if option == "batch_wrt":
                out["grad"] = {"x": grad(f, xs["x"])[0].item()}
            elif option in ("batch_order2", "batch_order3"):
                gs = grad(f, list(xs.values()), create_graph=True)
                nth = second if option == "batch_order2" else third
                out["grad"] = {name: nth(g, v) for (name, v), g in zip(xs.items(), gs)}
            elif option == "batch_hessian":
                gs = grad(f, list(xs.values()), create_graph=True)
                out["grad"] = {name: g.item() for name, g in zip(xs, gs)}
                out["hessian"] = {}
                for name, g in zip(xs, gs):
                    row = grad(g, list(xs.values()), retain_graph=True, allow_unused=True) if g.requires_grad \
                        else (None,) * len(xs)
                    out["hessian"][name] = {n: h.item() if h is not None else 0.0 for n, h in zip(xs, row)}
            elif option == "batch_check":
                gs = grad(f, list(xs.values()))
                out["grad"] = {name: g.item() for name, g in zip(xs, gs)}
                out["check"] = {name: abs(out["grad"][name] - central(expr, binds, name)) for name in xs}
            else:                       # the gradient, then the Jacobian: one backward per element of f
                gs = grad(f, list(xs.values()), retain_graph=True)
                out["grad"] = {name: g.item() for name, g in zip(xs, gs)}
                rows = [grad(fi, list(xs.values()), retain_graph=True) for fi in f.reshape(-1)]
                out["jacobian"] = {name: rows[0][k].item() for k, name in enumerate(xs)}
            yield dumps(out)
    return run


def batch_child(option):
    """`--batch-child OPTION`: the PyTorch + eval() peer of one batch variant, stdin to stdout."""
    lines = [s.strip() for s in sys.stdin if s.strip()]
    out = sys.stdout
    for obj in batch_torch_driver(option)(lines):
        out.write(obj + "\n")
    return 0


def compare_batch(ours, peer, option):
    """(largest relative difference, jobs compared, first problem) of two batches' JSON lines."""
    problems = []
    if len(ours) != len(peer):
        problems.append(f"{len(ours)} lines of ours for {len(peer)} of PyTorch's")
    worst, n, bad = bench_cli.compare(ours, peer, "PyTorch")
    for a, b in zip(ours, peer):
        if option == "batch_jacobian":
            pairs = [(a.get("jacobian", {}).get(k, math.nan), v) for k, v in b["jacobian"].items()]
        elif option == "batch_hessian":
            pairs = [(a.get("hessian", {}).get(k, {}).get(j, math.nan), v)
                     for k, row in b["hessian"].items() for j, v in row.items()]
        elif option == "batch_check":
            # each is the rounding of f's two values over 2 eps (~1e-10 |f|), which the two libraries' last
            # bits of f move: alike within CHECK_ABS of the gradient's size, not to 1e-9
            for k, v in b["check"].items():
                u = a.get("check", {}).get(k, math.nan)
                if not abs(u - v) <= CHECK_ABS * max(1.0, abs(b["grad"][k])) and len(problems) < 3:
                    problems.append(f"line {a.get('line')}: check d/d{k}: ours {u!r}, PyTorch's {v!r}")
            continue
        else:
            continue
        for u, v in pairs:
            d = bench_cli.relative_difference(u, v)
            worst = d if not d <= worst else worst
    return worst, n, bad, problems


def run_batch_case(case, torch_python, mode, seed):
    jobs = bench_cli.make_jobs(BATCH_JOBS[mode], seed)
    warm = bench_cli.make_jobs(20, seed + 1000)
    if case == "batch_tensors":  # each line the formula alone (its variables bound on the command line)
        jobs, warm = ([(expr, binds, expr) for _, binds, expr in j] for j in (jobs, warm))
    text = "\n".join(j[0] for j in jobs) + "\n"
    warm = "\n".join(j[0] for j in warm) + "\n"
    (ours_argv, _), _ = bench_cli.our_commands()
    argv = {"ours": ours_argv + ["eval", "-", "--json"] + BATCH_OPTIONS[case]}
    if torch_python:
        argv["torch"] = [torch_python, os.path.abspath(__file__), "--batch-child", case]
    row = new_row(case, f"{len(jobs):,} jobs, eval - --json {' '.join(BATCH_OPTIONS[case])}".rstrip(), "jobs/s")
    probe = subprocess.run(ours_argv + ["--version"], capture_output=True, text=True)
    if probe.returncode != 0:       # e.g. the engine came from the checkout, the command is not installed
        row["problems"].append(f"our command does not run: {probe.stderr.strip()[-200:]} "
                               f"(pip install -e . into {sys.executable})")
        return row
    samples, outs = {name: [] for name in argv}, {}
    for r in range(1 + BATCH_REPEATS[mode]):
        for name, cmd in argv.items():
            dt, proc = bench_cli.run_process(cmd, text if r else warm)
            if proc.returncode != 0:
                row["problems"].append(f"{name}: exit {proc.returncode}: {proc.stderr.strip()[-300:]}")
                continue
            if r:
                samples[name].append(len(jobs) / dt)
                outs[name] = bench_cli.parse_json_lines(proc.stdout)
    row["times"] = {name: (max(v), statistics.median(v)) for name, v in samples.items() if v}
    if "ours" in outs:
        wrt = [(line, {"x": binds["x"]}, expr) for line, binds, expr in jobs] if case == "batch_wrt" else jobs
        row["problems"] += bench_cli.check_ours(outs["ours"], wrt, "ours")
    if "ours" in outs and "torch" in outs:
        worst, n, bad, problems = compare_batch(outs["ours"], outs["torch"], case)
        row["checks"]["torch"] = worst
        row["problems"] += problems
        if not worst <= 1e-9:
            row["problems"].append(f"ours vs PyTorch: largest relative difference {worst:.1e} over {n} jobs"
                                   + (f" ({bad})" if bad else ""))
    return row


# --------------------------------------------------------------------------- fresh processes
# poly_alone and poly_script run every library in processes of its own, as a user's script runs: nothing
# this process imported or allocated shapes their heap (a fresh glibc malloc hands large freed arrays back
# to the kernel, and the next step faults their pages in again).

def child_env():
    """The environment of a fresh process: this one's, with BLAS and OpenMP on one thread."""
    env = dict(bench_cli.CHILD_ENV or os.environ)
    for var in THREAD_VARS:
        env.setdefault(var, "1")
    return env


def run_child(argv):
    """(wall seconds, minor page faults, stdout) of one fresh process; RuntimeError if it fails."""
    import resource
    f0 = resource.getrusage(resource.RUSAGE_CHILDREN).ru_minflt
    wall, proc = bench_cli.run_process(argv, env=child_env())
    faults = resource.getrusage(resource.RUSAGE_CHILDREN).ru_minflt - f0
    if proc.returncode != 0:
        raise RuntimeError(f"exit {proc.returncode}: {proc.stderr.strip()[-300:]}")
    return wall, faults, proc.stdout


def poly_numbers(state):
    """The loss and the four parameters of a polynomial step's state, as the line a script prints."""
    return " ".join(repr(float(v)) for v in [state["loss"], *state["abcd"]])


def parse_poly_numbers(stdout):
    """The state ({loss, abcd}) in the last line a polynomial script printed."""
    lines = stdout.strip().splitlines()
    values = [float(v) for v in (lines[-1].split() if lines else [])]
    if len(values) != 5:
        raise ValueError(f"expected the loss and four parameters, got {stdout.strip()[-200:]!r}")
    return {"loss": np.array(values[0]), "abcd": np.array(values[1:])}


def alone_child(lib, n, seed, repeats, sample_s, steps=None):
    """`--alone-child LIB N SEED`: the polynomial step of one library in this fresh process. With --steps K,
    runs K steps and prints the loss and parameters (numpy's peer of a script). Else prints one JSON line:
    the state after CHECK_STEPS steps, then, after a warm-up sample, `repeats` timed samples (µs per step)
    and the minor page faults per timed step."""
    import resource
    here = Local(lib)
    here.setup("poly", n, seed)
    if steps is not None:           # as a script runs them: the garbage collector on
        for _ in range(steps):
            here.step()
        print(poly_numbers(here.state()))
        return 0
    here.sample(CHECK_STEPS)
    state = {k: v.tolist() for k, v in here.state().items()}
    number = steps_per_sample(here.sample(1), sample_s)
    here.sample(number)
    f0 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    samples = [here.sample(number) * 1e6 for _ in range(repeats)]
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - f0
    print(json.dumps({"samples": samples, "steps_per_sample": number, "faults_per_step": faults / (repeats * number),
                      "state": state, "autodiff_imported": "autodiff" in sys.modules}))
    return 0


def fresh_pythons(torch_python):
    """{library: interpreter} of the fresh-process workloads."""
    return dict(ours=sys.executable, **({"torch": torch_python} if torch_python else {}), numpy=sys.executable)


def run_alone_case(n, torch_python, mode, seed):
    """poly_alone at one n: each library's child process, its samples, faults and state."""
    row = new_row("poly_alone", f"n = {n:,}")
    states, row["faults"] = {}, {}
    for name, python in fresh_pythons(torch_python).items():
        argv = [python, os.path.abspath(__file__), "--alone-child", name, str(n), str(seed),
                "--repeats", str(REPEATS[mode]), "--sample-s", str(SAMPLE_S[mode])]
        try:
            out = json.loads(run_child(argv)[2].strip().splitlines()[-1])
        except (RuntimeError, ValueError, IndexError) as e:
            row["problems"].append(f"{name}: {type(e).__name__}: {e}")
            continue
        if name == "numpy" and out["autodiff_imported"]:
            row["problems"].append("numpy: its process imported autodiff")
        row["times"][name] = (min(out["samples"]), statistics.median(out["samples"]))
        row["faults"][name] = out["faults_per_step"]
        states[name] = out["state"]
    if "ours" in states:
        check_states(row, states, CHECK_STEPS)
    return row


SCRIPT_TEXT = """import math
import torch
{header}x = torch.linspace(-math.pi, math.pi, {n}, dtype=torch.float32)
y = torch.sin(x)
a = torch.tensor({init[0]!r}, dtype=torch.float32, requires_grad=True)
b = torch.tensor({init[1]!r}, dtype=torch.float32, requires_grad=True)
c = torch.tensor({init[2]!r}, dtype=torch.float32, requires_grad=True)
d = torch.tensor({init[3]!r}, dtype=torch.float32, requires_grad=True)
lr = {lr!r}
for t in range({steps}):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = (y_pred - y).pow(2).sum()
    loss.backward()
    with torch.no_grad():
        a -= lr * a.grad
        b -= lr * b.grad
        c -= lr * c.grad
        d -= lr * d.grad
        a.grad = None
        b.grad = None
        c.grad = None
        d.grad = None
print(loss.item(), a.item(), b.item(), c.item(), d.item())
"""


def script_commands(n, seed, torch_python, folder):
    """{library: function K -> argv of a fresh process running K polynomial steps}: ours an `autodiff run`
    script, PyTorch the same text as a Python script on one thread, numpy by hand through --alone-child."""
    init, lr = poly_inputs(n, seed)

    def script(name, python_argv, header=""):
        def argv(steps):
            path = os.path.join(folder, f"poly_{name}_{n}_{steps}.{'ad' if name == 'ours' else 'py'}")
            if not os.path.exists(path):
                with open(path, "w") as f:
                    f.write(SCRIPT_TEXT.format(header=header, n=n, init=init, lr=lr, steps=steps))
            return python_argv + [path]
        return argv

    this = os.path.abspath(__file__)
    commands = {"ours": script("ours", [sys.executable, "-m", "autodiff.cli.main", "run"])}
    if torch_python:
        commands["torch"] = script("torch", [torch_python], "torch.set_num_threads(1)\n")
    commands["numpy"] = lambda steps: [sys.executable, this, "--alone-child", "numpy", str(n), str(seed),
                                       "--steps", str(steps)]
    return commands


def run_script_case(n, k1, k2, torch_python, mode, seed, E):
    """poly_script at one n: runs of K1 and K2 steps of each library in turns; the state after K1 steps
    checked against our Python API's (E: our engine) and ours against the peers'."""
    row = new_row("poly_script", f"n = {n:,}")
    row["steps"] = (k1, k2)
    runs_of, states = {}, {}
    with tempfile.TemporaryDirectory(prefix="bench-workloads-") as folder:
        commands = script_commands(n, seed, torch_python, folder)
        for r in range(SCRIPT_WARMUP + SCRIPT_REPEATS[mode]):
            for name, argv in list(commands.items()):
                try:
                    runs = {k: run_child(argv(k)) for k in (k1, k2)}
                    states.setdefault(name, parse_poly_numbers(runs[k1][2]))
                except (RuntimeError, ValueError) as e:
                    row["problems"].append(f"{name}: {type(e).__name__}: {e}")
                    del commands[name]
                    continue
                if r >= SCRIPT_WARMUP:
                    runs_of.setdefault(name, []).append(runs)

    def per_step(name, pick, i):        # (pick of the K2 runs' figure i - pick of the K1 runs') / (K2 - K1)
        return (pick(rs[k2][i] for rs in runs_of[name]) - pick(rs[k1][i] for rs in runs_of[name])) / (k2 - k1)
    row["times"] = {name: (per_step(name, min, 0) * 1e6, per_step(name, statistics.median, 0) * 1e6)
                    for name in runs_of}
    row["faults"] = {name: per_step(name, statistics.median, 1) for name in runs_of}     # may be < 0: noise
    if "ours" in states:
        step, state = poly_lib(E, n, seed)
        for _ in range(k1):
            step()
        api = {k: v for k, v in state().items() if k in ("loss", "abcd")}
        check_states(row, {"ours": states["ours"], "ours (API)": api}, k1, SCRIPT_RTOL)
        check_states(row, states, k1)
    return row


# --------------------------------------------------------------------------- report
GOALS = {"poly": "<= 1.0x PyTorch; <= 2x numpy for n >= 20,000", "mlp": "<= 1.1x PyTorch",
         "cnn": "<= 1.1x PyTorch", "softmax_ce": "-"}
GOALS.update({case: ">= 3x PyTorch + eval()" for case in BATCH_OPTIONS})
GOALS.update(poly_alone=GOALS["poly"] + " (each library alone)", poly_script=GOALS["poly"] + " (as scripts)")


def ratios(row):
    """{peer: (best ratio, median ratio)}: time ours / peer for steps, jobs/s ours / peer for batches."""
    t = row["times"]
    if "ours" not in t:
        return {}
    return {peer: (t["ours"][0] / t[peer][0], t["ours"][1] / t[peer][1]) for peer in ("torch", "numpy") if peer in t}


def goal_met(row, r):
    """Whether the row meets its goal (never when a check failed), None where it has none."""
    case = row["case"]
    if row["problems"] and GOALS[case] != "-":
        return False
    if case in BATCH_OPTIONS:
        return "torch" in r and r["torch"][0] >= 3
    if case in ("mlp", "cnn"):
        return "torch" in r and r["torch"][0] <= 1.1
    if case in POLY_CASES:
        ok = "torch" in r and r["torch"][0] <= 1.0
        if row["size"] >= 20_000:
            ok = ok and "numpy" in r and r["numpy"][0] <= 2
        return ok
    return None


def _fmt(v):
    return "" if v is None else f"{v:,.0f}" if v >= 100 else f"{v:.1f}" if v >= 10 else f"{v:.2f}"


def format_table(rows):
    head = ["workload", "size", "unit", "ours", "PyTorch", "numpy", "ours/PyTorch", "ours/numpy", "goal", "met"]
    body = []
    for row in rows:
        t, r = row["times"], ratios(row)
        cells = [row["case"], row["label"], row["unit"] + " best (median)"]
        cells += [f"{_fmt(t[k][0])} ({_fmt(t[k][1])})" if k in t else "" for k in ("ours", "torch", "numpy")]
        cells += [f"{r[k][0]:.2f}x ({r[k][1]:.2f}x)" if k in r else "" for k in ("torch", "numpy")]
        met = goal_met(row, r)
        cells += [GOALS[row["case"]], "" if met is None or not r else "yes" if met else "NO"]
        body.append(cells)
    widths = [max(len(x[i]) for x in [head] + body) for i in range(len(head))]
    return ["  ".join(c.ljust(w) if i < 3 or i > 7 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))
            for cells in [head, ["-" * w for w in widths]] + body]


def fresh_note(row):
    """The page faults per step of a fresh-process row, and its script runs' lengths."""
    if "faults" not in row:
        return ""
    faults = ", ".join(f"{LABELS[k]} {v:,.1f}" for k, v in row["faults"].items())
    runs = f"; runs of {row['steps'][0]:,} and {row['steps'][1]:,} steps" if "steps" in row else ""
    return f"; minor page faults per step: {faults}{runs}"


LABELS = {"ours": "ours", "torch": "PyTorch", "numpy": "numpy"}


def machine_info(peer):
    lines = [f"python {platform.python_version()} at {sys.executable}, {platform.system()} {platform.machine()}, "
             f"{os.cpu_count()} CPUs, numpy {np.__version__}"]
    lines.append("PyTorch: " + (peer.info() if peer else "none (columns blank)"))
    return lines


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="small sizes and few repeats: a smoke run")
    p.add_argument("--only", help="comma-separated workloads: " + ", ".join(CASES) + ", or batch (all four)")
    p.add_argument("--json", metavar="OUT", help="also write the figures to this JSON file")
    p.add_argument("--torch-python", help="an interpreter that can import torch, for the PyTorch columns "
                   f"(default: this one if it can, else {DEFAULT_TORCH_PYTHON})")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--peer-server", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--batch-child", choices=sorted(BATCH_OPTIONS), help=argparse.SUPPRESS)
    p.add_argument("--alone-child", nargs=3, metavar=("LIB", "N", "SEED"), help=argparse.SUPPRESS)
    p.add_argument("--repeats", type=int, default=REPEATS["full"], help=argparse.SUPPRESS)
    p.add_argument("--sample-s", type=float, default=SAMPLE_S["full"], help=argparse.SUPPRESS)
    p.add_argument("--steps", type=int, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.peer_server:
        return peer_server()
    if args.batch_child:
        return batch_child(args.batch_child)
    if args.alone_child:
        lib, n, seed = args.alone_child
        return alone_child(lib, int(n), int(seed), args.repeats, args.sample_s, args.steps)
    only = CASES
    if args.only:
        names = [s.strip() for s in args.only.split(",") if s.strip()]
        names = [c for n in names for c in (tuple(BATCH_OPTIONS) if n == "batch" else (n,))]
        unknown = sorted(set(names) - set(CASES))
        if unknown:
            p.error(f"unknown workload(s) {', '.join(unknown)}; choose from {', '.join(CASES)}, batch")
        only = tuple(c for c in CASES if c in names)
    rows, machine = run(only, args.quick, args.torch_python, args.seed)
    if args.json:
        for row in rows:
            r = ratios(row)
            row.update(ratios=r, goal=GOALS[row["case"]], met=goal_met(row, r) if r else None)
        with open(args.json, "w") as f:
            json.dump({"quick": args.quick, "seed": args.seed, "machine": machine, "rows": rows},
                      f, indent=1, default=list)
    return 1 if any(row["problems"] for row in rows) else 0


def run(only, quick=False, torch_python=None, seed=0, echo=print):
    mode = "quick" if quick else "full"
    echo("autodiff workload benchmarks" + (" (--quick)" if quick else ""))
    peer = torch_peer(torch_python, echo)
    machine = machine_info(peer)
    for line in machine:
        echo("  " + line)
    echo("")
    rows = []
    try:
        libs = {"ours": Local("ours")}
        if peer:
            libs["torch"] = peer
        for case in (c for c in STEP_CASES if c in only):
            for label, size in step_sizes(case, mode):
                case_libs = dict(libs, numpy=Local("numpy")) if case == "poly" else dict(libs)
                t0 = time.perf_counter()
                row = run_step_case(case, label, size, case_libs, mode, seed)
                row["size"] = size
                rows.append(row)
                echo(f"[{case} {label}: {time.perf_counter() - t0:.1f} s]")
    finally:
        if peer:
            peer.close()
    torch_python = peer.python if peer else None
    fresh = [(run_alone_case, n, torch_python, mode, seed) for n in ALONE_SIZES[mode] if "poly_alone" in only]
    fresh += [(run_script_case, n, k1, k2, torch_python, mode, seed, libs["ours"].T)
              for n, k1, k2 in SCRIPT_SIZES[mode] if "poly_script" in only]
    for fn, n, *fn_args in fresh:
        t0 = time.perf_counter()
        row = fn(n, *fn_args)
        row["size"] = n
        rows.append(row)
        echo(f"[{row['case']} {row['label']}: {time.perf_counter() - t0:.1f} s]")
    for case in (c for c in BATCH_OPTIONS if c in only):
        t0 = time.perf_counter()
        rows.append(run_batch_case(case, torch_python, mode, seed))
        echo(f"[{case}: {time.perf_counter() - t0:.1f} s]")
    echo("")
    for line in format_table(rows):
        echo(line)
    echo("")
    echo("checks:")
    for row in rows:
        checks = ", ".join(f"vs {'PyTorch' if k == 'torch' else k} {v:.1e}" for k, v in row["checks"].items())
        status = "; ".join(row["problems"]) if row["problems"] else "ok"
        echo(f"  {row['case']} {row['label']}: {status}"
             + (f" (largest relative difference {checks})" if checks else "") + fresh_note(row))
    return rows, machine


if __name__ == "__main__":
    sys.exit(main())
