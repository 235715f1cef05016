"""The cases of optim.json and how each is recorded: run by gen_optim.py under PyTorch and by
tests/engine/test_optim_parity.py under our engine (see gen_optim.py).

A case is a program written against `T` (torch / autodiff.engine), `optim` (T.optim) and `sched`
(T.optim.lr_scheduler), with the helpers below (`make_params`, `feed`, `train`); it defines `run()`,
whose result -- tensors, numbers, strings, dicts, lists, in any nesting -- is recorded exactly:
floats as float.hex, tensors with dtype, shape and values, dicts as their (key, value) pairs in
order, tuples apart from lists. The warnings the case gives are recorded too.
PROGRAMS are whole scripts in the command-line language that are Python too: gen_optim.py
records what Python + PyTorch print for them, the test what `autodiff run` prints.
"""
import warnings

from program_cases import registry
from functional_ops_cases import run_error  # the errors are recorded as there

__all__ = ["CASES", "ERRORS", "PROGRAMS", "helpers", "observe", "record", "run_error"]

CASES, ERRORS, case, error = registry()
PROGRAMS = {}

STEPS = 8


# ------------------------------------------------------------------ recording

def observe(value):
    """A JSON form of `value` that keeps everything a comparison needs (see the module docstring)."""
    if isinstance(value, bool) or value is None or isinstance(value, int) and not hasattr(value, "dtype"):
        return value
    if isinstance(value, float):
        return {"float": short_hex(value)}
    if isinstance(value, str):
        return {"str": value}
    if isinstance(value, tuple):
        return {"tuple": [observe(v) for v in value]}
    if isinstance(value, list):
        return [observe(v) for v in value]
    if isinstance(value, dict):
        return {"dict": [[observe(k), observe(v)] for k, v in value.items()], "type": type(value).__name__}
    if hasattr(value, "grad_fn"):  # a tensor: dtype, shape, requires_grad, values
        t = value.detach()
        return {"tensor": [str(t.dtype), list(t.shape), value.requires_grad, _hex(t.tolist())]}
    raise TypeError(f"cannot record a {type(value).__name__}")


def _hex(values):
    if isinstance(values, list):
        return [_hex(v) for v in values]
    return short_hex(values) if isinstance(values, float) else values


def short_hex(x):
    """float.hex without the mantissa's trailing zeros (a float32's has 29 of its 52 bits zero)."""
    text = x.hex()
    if "p" not in text:
        return text
    mantissa, exponent = text.split("p")
    return mantissa.rstrip("0").rstrip(".") + "p" + exponent


def record(program, ns):
    """{'result': observe(run()), 'warnings': [[category, message], ...]} of one case; the default
    dtype is float64 during the case (a case may change it) and after it."""
    T = ns["T"]
    T.set_default_dtype(T.float64)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            exec(program, ns)
            result = observe(ns["run"]())
    finally:
        T.set_default_dtype(T.float64)
    return {"result": result, "warnings": [[w.category.__name__, str(w.message)] for w in caught]}


# ------------------------------------------------------------------ fixed parameters and gradients

def _numbers(seed, n, zeros=False):
    """n fixed numbers of mixed signs and sizes (a linear congruential sequence, the same in both runs)."""
    out, state = [], seed
    for i in range(n):
        state = (state * 6364136223846793005 + 1442695040888963407) % 2 ** 64
        u = (state >> 11) / 2 ** 53
        scale = 10.0 ** ((state >> 5) % 5 - 3)  # 1e-3 .. 10
        v = (u - 0.5) * 4.0 * scale
        out.append(0.0 if zeros and i % 7 == 3 else v)
    return out


SHAPES = [(), (5,), (3, 7)]  # a 0-d parameter, a short one, one longer than a vector register with a tail


def _shaped(T, values, shape, dtype):
    t = T.tensor(values, dtype=dtype)
    return t.reshape(shape)


def make_params(T, dtype, seed=1):
    """The three fixed parameters (leaves that require grad) in `dtype`."""
    ps = []
    for i, shape in enumerate(SHAPES):
        n = 1
        for s in shape:
            n *= s
        ps.append(_shaped(T, _numbers(seed * 100 + i, n), shape, dtype).requires_grad_(True))
    return ps


def feed(T, ps, k, skip=None):
    """Step k's fixed gradients (some exactly zero); the parameter at index `skip` gets none."""
    for i, p in enumerate(ps):
        p.grad = None if i == skip else _shaped(T, _numbers(7919 * (k + 1) + i, p.numel(), zeros=True),
                                                tuple(p.shape), p.dtype)


def train(T, opt, ps, steps=STEPS, skip=None):
    """`steps` steps of `opt` fed the fixed gradients: the parameters' values after each step."""
    seen = []
    for k in range(steps):
        opt.zero_grad()
        feed(T, ps, k, skip)
        opt.step()
        seen.append([p.detach().clone() for p in ps])
    return seen


def helpers():
    return {"make_params": make_params, "feed": feed, "train": train, "STEPS": STEPS}


# ====================================================================== every optimiser, both dtypes

OPTIMISERS = {
    "sgd": "optim.SGD(ps, lr=0.1)",
    "sgd_momentum": "optim.SGD(ps, lr=0.05, momentum=0.9)",
    "sgd_nesterov": "optim.SGD(ps, lr=0.05, momentum=0.9, nesterov=True, weight_decay=0.01)",
    "sgd_dampening": "optim.SGD(ps, lr=0.05, momentum=0.5, dampening=0.3, weight_decay=0.02)",
    "sgd_maximize": "optim.SGD(ps, lr=0.1, momentum=0.2, maximize=True)",
    "sgd_foreach": "optim.SGD(ps, lr=0.05, momentum=0.9, weight_decay=0.01, foreach=True)",
    "adam": "optim.Adam(ps, lr=0.01)",
    "adam_amsgrad": "optim.Adam(ps, lr=0.01, amsgrad=True, weight_decay=0.1)",
    "adam_options": "optim.Adam(ps, lr=0.003, betas=(0.8, 0.99), eps=1e-6, maximize=True)",
    "adam_decoupled": "optim.Adam(ps, lr=0.01, weight_decay=0.1, decoupled_weight_decay=True)",
    "adam_foreach": "optim.Adam(ps, lr=0.01, weight_decay=0.1, amsgrad=True, foreach=True)",
    "adamw": "optim.AdamW(ps, lr=0.01)",
    "adamw_amsgrad": "optim.AdamW(ps, lr=0.02, weight_decay=0.3, amsgrad=True, maximize=True)",
    "adamw_foreach": "optim.AdamW(ps, lr=0.02, weight_decay=0.3, foreach=True)",
    "rmsprop": "optim.RMSprop(ps, lr=0.01)",
    "rmsprop_centered": "optim.RMSprop(ps, lr=0.01, alpha=0.9, eps=1e-6, centered=True)",
    "rmsprop_momentum": "optim.RMSprop(ps, lr=0.01, momentum=0.9, weight_decay=0.05)",
    "rmsprop_all": "optim.RMSprop(ps, lr=0.02, alpha=0.8, momentum=0.5, centered=True, weight_decay=0.1, "
                   "maximize=True)",
    "rmsprop_foreach": "optim.RMSprop(ps, lr=0.02, momentum=0.5, centered=True, foreach=True)",
    "adagrad": "optim.Adagrad(ps, lr=0.1)",
    "adagrad_options": "optim.Adagrad(ps, lr=0.1, lr_decay=0.05, weight_decay=0.1, initial_accumulator_value=0.5, "
                       "eps=1e-6)",
    "adagrad_maximize": "optim.Adagrad(ps, lr=0.3, maximize=True)",
    "adagrad_foreach": "optim.Adagrad(ps, lr=0.1, lr_decay=0.05, weight_decay=0.1, foreach=True)",
    "adamax": "optim.Adamax(ps)",
    "adamax_options": "optim.Adamax(ps, lr=0.01, betas=(0.7, 0.9), eps=1e-4, weight_decay=0.1, maximize=True)",
    "adamax_foreach": "optim.Adamax(ps, lr=0.01, weight_decay=0.1, foreach=True)",
    "nadam": "optim.NAdam(ps)",
    "nadam_options": "optim.NAdam(ps, lr=0.01, betas=(0.8, 0.95), weight_decay=0.1, momentum_decay=0.01)",
    "nadam_decoupled": "optim.NAdam(ps, lr=0.01, weight_decay=0.1, decoupled_weight_decay=True, maximize=True)",
    "nadam_foreach": "optim.NAdam(ps, lr=0.01, weight_decay=0.1, foreach=True)",
    "radam": "optim.RAdam(ps, lr=0.01)",
    "radam_options": "optim.RAdam(ps, lr=0.01, betas=(0.5, 0.6), weight_decay=0.1)",
    "radam_decoupled": "optim.RAdam(ps, lr=0.01, betas=(0.5, 0.6), weight_decay=0.1, decoupled_weight_decay=True, "
                       "maximize=True)",
    "radam_foreach": "optim.RAdam(ps, lr=0.01, betas=(0.5, 0.6), foreach=True)",
    "adadelta": "optim.Adadelta(ps)",
    "adadelta_options": "optim.Adadelta(ps, lr=0.5, rho=0.7, eps=1e-4, weight_decay=0.1, maximize=True)",
    "adadelta_foreach": "optim.Adadelta(ps, lr=0.5, rho=0.7, foreach=True)",
}

for _name, _make in OPTIMISERS.items():
    for _dtype in ("float64", "float32"):
        # eight steps, then the state_dict, the versions (one bump per in-place op on a
        # parameter) and the repr
        case(f"{_name}_{_dtype}", f"""
            def run():
                ps = make_params(T, T.{_dtype})
                opt = {_make}
                seen = train(T, opt, ps)
                return {{"params": [seen[0], seen[3], seen[-1]], "state_dict": opt.state_dict(),
                         "versions": [p._version for p in ps], "repr": repr(opt)}}
        """)

# the default dtype float32: 'step' (and NAdam's mu_product) are float32 tensors then
for _name in ("adam", "nadam_options", "radam", "adagrad_options", "rmsprop_centered"):
    case(f"{_name}_default_float32", f"""
        def run():
            T.set_default_dtype(T.float32)
            ps = make_params(T, T.float32)
            opt = {OPTIMISERS[_name]}
            seen = train(T, opt, ps)
            return {{"params": seen[-1], "state_dict": opt.state_dict()}}
    """)

# a parameter without a gradient is skipped (and gets no state)
for _name in ("sgd_momentum", "adam", "rmsprop_momentum", "adadelta", "nadam"):
    case(f"{_name}_skips_a_parameter", f"""
        def run():
            ps = make_params(T, T.float64)
            opt = {OPTIMISERS[_name]}
            seen = train(T, opt, ps, steps=3, skip=1)
            return {{"params": seen, "state_dict": opt.state_dict()}}
    """)


# ====================================================================== the Optimizer base

case("param_groups_per_group_options", """
    def run():
        ps = make_params(T, T.float64)
        opt = optim.SGD([{"params": [ps[0], ps[1]], "lr": 0.5, "momentum": 0.9},
                         {"params": ps[2], "weight_decay": 0.1}], lr=0.01, momentum=0.3)
        seen = train(T, opt, ps, steps=3)
        return {"params": seen, "groups": [{k: v for k, v in g.items() if k != "params"} for g in opt.param_groups],
                "state_dict": opt.state_dict(), "repr": repr(opt)}
""")
case("param_groups_lr_edit_takes_effect", """
    def run():
        ps = make_params(T, T.float32)
        opt = optim.Adam(ps, lr=0.01)
        seen = train(T, opt, ps, steps=2)
        opt.param_groups[0]["lr"] = 0.2
        opt.param_groups[0]["betas"] = (0.5, 0.9)
        seen += train(T, opt, ps, steps=2)
        return {"params": seen, "state_dict": opt.state_dict()}
""")
case("add_param_group_later", """
    def run():
        ps = make_params(T, T.float64)
        opt = optim.RMSprop(ps[:2], lr=0.01, momentum=0.5)
        seen = train(T, opt, ps, steps=2)
        opt.add_param_group({"params": [ps[2]], "lr": 0.1, "centered": True})
        seen += train(T, opt, ps, steps=2)
        return {"params": seen, "state_dict": opt.state_dict(), "repr": repr(opt)}
""")
case("adagrad_state_before_any_step", """
    def run():
        ps = make_params(T, T.float32)
        opt = optim.Adagrad(ps, initial_accumulator_value=0.25)
        return {"state_dict": opt.state_dict(), "state": [opt.state[p] for p in ps]}
""")
case("state_keyed_by_parameter", """
    def run():
        ps = make_params(T, T.float64)
        opt = optim.Adamax(ps)
        train(T, opt, ps, steps=2, skip=0)
        return {"state": [opt.state[p] for p in ps], "defaults": opt.defaults, "keys": len(opt.state)}
""")
case("state_dict_shares_the_state_tensors", """
    def run():
        ps = make_params(T, T.float64)
        opt = optim.SGD(ps, lr=0.1, momentum=0.9)
        train(T, opt, ps, steps=1)
        sd = opt.state_dict()
        train(T, opt, ps, steps=1)
        return sd
""")
case("zero_grad_to_none_and_to_zero", """
    def run():
        ps = make_params(T, T.float64)
        opt = optim.SGD(ps, lr=0.1)
        feed(T, ps, 0)
        opt.zero_grad(set_to_none=False)
        zeros = [p.grad for p in ps]
        opt.zero_grad()
        return {"zeros": zeros, "none": [p.grad for p in ps]}
""")
case("step_with_closure", """
    def run():
        x = T.tensor([1.5, -0.5, 2.0], requires_grad=True)
        opt = optim.Adagrad([x], lr=0.5)
        calls = []
        def closure():
            opt.zero_grad()
            loss = (x * x).sum() + x.sum()
            loss.backward()
            calls.append(loss.detach())
            return loss
        losses = [opt.step(closure) for _ in range(4)]
        return {"losses": losses, "x": x, "calls": calls, "none": opt.step()}
""")
case("step_on_a_real_loss", """
    def run():
        w = T.tensor([[0.5, -1.0], [2.0, 0.25]], requires_grad=True)
        b = T.tensor([0.1, -0.2], requires_grad=True)
        xs = T.tensor([[1.0, 2.0], [-1.0, 0.5], [3.0, -2.0]])
        ys = T.tensor([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]])
        opt = optim.AdamW([w, b], lr=0.05)
        losses = []
        for _ in range(6):
            opt.zero_grad()
            loss = ((xs @ w + b - ys) ** 2).mean()
            loss.backward()
            opt.step()
            losses.append(loss.item())
        return {"losses": losses, "w": w, "b": b}
""")
case("load_state_dict_continues_the_run", """
    def run():
        ps = make_params(T, T.float64)
        opt = optim.NAdam(ps, lr=0.01)
        train(T, opt, ps, steps=3)
        saved = opt.state_dict()
        qs = [p.detach().clone().requires_grad_(True) for p in ps]
        opt2 = optim.NAdam(qs, lr=0.5, betas=(0.1, 0.2))
        opt2.load_state_dict(saved)
        return {"before": opt2.state_dict(), "a": train(T, opt, ps, steps=3), "b": train(T, opt2, qs, steps=3),
                "after": opt2.state_dict()}
""")
case("load_state_dict_casts_to_the_parameters_dtype", """
    def run():
        ps = make_params(T, T.float64)
        opt = optim.Adam(ps, lr=0.01)
        train(T, opt, ps, steps=2)
        qs = [p.detach().float().requires_grad_(True) for p in ps]
        opt2 = optim.Adam(qs)
        opt2.load_state_dict(opt.state_dict())
        return opt2.state_dict()
""")
case("adamw_keeps_decoupled_after_load", """
    def run():
        ps = make_params(T, T.float64)
        opt = optim.Adam(ps, weight_decay=0.1)
        train(T, opt, ps, steps=1)
        opt2 = optim.AdamW(ps)
        opt2.load_state_dict(opt.state_dict())
        return opt2.state_dict()["param_groups"]
""")
case("named_parameters", """
    def run():
        ps = make_params(T, T.float64)
        opt = optim.SGD([("a", ps[0]), ("b", ps[1])], lr=0.1)
        train(T, opt, ps[:2], steps=1)
        return {"state_dict": opt.state_dict(), "repr": repr(opt)}
""")
case("duplicate_parameters_warn", """
    def run():
        ps = make_params(T, T.float64)
        opt = optim.SGD([ps[0], ps[0]], lr=0.1)
        return len(opt.param_groups[0]["params"])
""")
case("a_retained_non_leaf_may_be_optimised", """
    def run():
        x = T.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        y.retain_grad()
        opt = optim.SGD([y], lr=0.5)
        y.sum().backward()
        opt.step()
        return y
""")
for _name in ("SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adamax", "NAdam", "RAdam", "Adadelta"):
    case(f"repr_{_name}", f"""
        def run():
            ps = make_params(T, T.float64)
            return repr(optim.{_name}([{{"params": ps[:1]}}, {{"params": ps[1:], "lr": 0.5}}]))
    """)

# ====================================================================== lr_scheduler

def _schedule(name, make, epochs=12, optimiser="optim.SGD(ps, lr=0.1, momentum=0.9)"):
    """`epochs` epochs of optimiser step then scheduler step: the lr each epoch, get_last_lr, the
    parameters, the scheduler's state_dict and the optimiser's param_groups."""
    case(f"schedule_{name}", f"""
        def run():
            ps = make_params(T, T.float64)
            opt = {optimiser}
            s = {make}
            lrs, last = [], []
            for k in range({epochs}):
                feed(T, ps, k % STEPS)
                opt.step()
                s.step()
                lrs.append([g["lr"] for g in opt.param_groups])
                last.append(s.get_last_lr())
            return {{"lrs": lrs, "last": last, "params": ps, "state_dict": s.state_dict(),
                     "groups": opt.state_dict()["param_groups"]}}
    """)


_schedule("step", "sched.StepLR(opt, step_size=3, gamma=0.5)")
_schedule("step_default_gamma", "sched.StepLR(opt, 4)")
_schedule("multistep", "sched.MultiStepLR(opt, milestones=[2, 5, 5, 9], gamma=0.3)")
_schedule("exponential", "sched.ExponentialLR(opt, gamma=0.9)")
_schedule("lambda", "sched.LambdaLR(opt, lambda epoch: 0.95 ** epoch + 0.01 * epoch)")
_schedule("multiplicative", "sched.MultiplicativeLR(opt, lambda epoch: 0.9)")
_schedule("cosine", "sched.CosineAnnealingLR(opt, T_max=5, eta_min=0.001)", epochs=16)
_schedule("cosine_to_zero", "sched.CosineAnnealingLR(opt, T_max=7)", epochs=16)
_schedule("linear", "sched.LinearLR(opt, start_factor=0.25, end_factor=1.0, total_iters=6)")
_schedule("linear_down", "sched.LinearLR(opt, start_factor=1.0, end_factor=0.1, total_iters=4)")
_schedule("constant", "sched.ConstantLR(opt, factor=0.5, total_iters=3)")
_schedule("polynomial", "sched.PolynomialLR(opt, total_iters=6, power=2.0)")
_schedule("two_groups", "sched.LambdaLR(opt, [lambda e: 1.0 / (e + 1), lambda e: 0.5 ** e])",
          optimiser='optim.Adam([{"params": ps[:2]}, {"params": ps[2:], "lr": 0.02}], lr=0.001)')
_schedule("adamw_cosine", "sched.CosineAnnealingLR(opt, T_max=10, eta_min=1e-4)", optimiser="optim.AdamW(ps, lr=0.01)")

case("two_schedulers_chain", """
    def run():
        ps = make_params(T, T.float64)
        opt = optim.SGD(ps, lr=1.0)
        a = sched.LinearLR(opt, start_factor=0.5, total_iters=3)
        b = sched.ExponentialLR(opt, gamma=0.9)
        lrs = []
        for k in range(6):
            feed(T, ps, k)
            opt.step()
            a.step()
            b.step()
            lrs.append(opt.param_groups[0]["lr"])
        return {"lrs": lrs, "a": a.get_last_lr(), "b": b.get_last_lr(), "initial": opt.param_groups[0]["initial_lr"]}
""")
case("scheduler_before_optimizer_warns", """
    def run():
        ps = make_params(T, T.float64)
        opt = optim.SGD(ps, lr=0.1)
        s = sched.StepLR(opt, step_size=1, gamma=0.5)
        s.step()
        s.step()
        return s.get_last_lr()
""")
case("scheduler_step_with_epoch_is_closed_form", """
    def run():
        ps = make_params(T, T.float64)
        opt = optim.SGD(ps, lr=0.1)
        s = sched.StepLR(opt, step_size=2, gamma=0.5)
        opt.step()
        s.step(5)
        out = [s.get_last_lr(), s.last_epoch]
        c = sched.CosineAnnealingLR(opt, T_max=10)
        c.step(3)
        return out + [c.get_last_lr()]
""")
case("get_lr_outside_step_warns", """
    def run():
        ps = make_params(T, T.float64)
        opt = optim.SGD(ps, lr=0.1)
        s = sched.ExponentialLR(opt, gamma=0.5)
        opt.step()
        s.step()
        return s.get_lr()
""")
case("scheduler_load_state_dict", """
    def run():
        ps = make_params(T, T.float64)
        opt = optim.SGD(ps, lr=0.1)
        s = sched.MultiStepLR(opt, milestones=[1, 3], gamma=0.5)
        for _ in range(2):
            opt.step()
            s.step()
        saved = s.state_dict()
        opt2 = optim.SGD(ps, lr=0.1)
        s2 = sched.MultiStepLR(opt2, milestones=[7], gamma=0.9)
        s2.load_state_dict(saved)
        opt2.step()
        s2.step()
        opt2.step()
        s2.step()
        return {"saved": saved, "loaded": s2.state_dict(), "lr": opt2.param_groups[0]["lr"]}
""")
case("resume_with_last_epoch", """
    def run():
        ps = make_params(T, T.float64)
        opt = optim.SGD(ps, lr=0.1)
        opt.param_groups[0]["initial_lr"] = 0.4
        s = sched.StepLR(opt, step_size=2, gamma=0.5, last_epoch=3)
        opt.step()
        s.step()
        return {"lr": s.get_last_lr(), "base": s.base_lrs, "state_dict": s.state_dict()}
""")
case("lambda_state_dict_of_a_callable_object", """
    class Halve:
        def __init__(self):
            self.factor = 0.5
        def __call__(self, epoch):
            return self.factor ** epoch
    def run():
        ps = make_params(T, T.float64)
        opt = optim.SGD(ps, lr=0.1)
        s = sched.LambdaLR(opt, [Halve()])
        opt.step()
        s.step()
        return s.state_dict()
""")

for _name, _metrics, _options in [
    ("min_rel", [1.0, 0.9, 0.95, 0.95, 0.95, 0.8, 0.85, 0.85, 0.85, 0.85, 0.85, 0.85], "patience=2"),
    ("min_abs_cooldown", [1.0, 0.99, 0.995, 0.98, 0.98, 0.98, 0.98, 0.98, 0.97, 0.98, 0.98, 0.98],
     "threshold=0.05, threshold_mode='abs', patience=1, cooldown=2, factor=0.5"),
    ("max_rel_min_lr", [0.1, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2],
     "mode='max', patience=0, factor=0.3, min_lr=0.004"),
    ("max_abs_groups", [0.5, 0.6, 0.61, 0.62, 0.7, 0.7, 0.7, 0.7, 0.7, 0.7, 0.7, 0.7],
     "mode='max', threshold=0.05, threshold_mode='abs', patience=1, min_lr=[0.01, 0.0]"),
]:
    case(f"plateau_{_name}", f"""
        def run():
            ps = make_params(T, T.float64)
            opt = optim.SGD([{{"params": ps[:1]}}, {{"params": ps[1:], "lr": 0.05}}], lr=0.1)
            s = sched.ReduceLROnPlateau(opt, {_options})
            lrs = []
            for m in {_metrics}:
                opt.step()
                s.step(T.tensor(m))
                lrs.append(s.get_last_lr())
            return {{"lrs": lrs, "state_dict": s.state_dict()}}
    """)


# ====================================================================== errors

for _name, _call in [
    ("sgd_negative_lr", "optim.SGD(ps, lr=-0.1)"),
    ("sgd_negative_momentum", "optim.SGD(ps, momentum=-0.5)"),
    ("sgd_negative_weight_decay", "optim.SGD(ps, weight_decay=-1e-4)"),
    ("sgd_nesterov_without_momentum", "optim.SGD(ps, lr=0.1, nesterov=True)"),
    ("sgd_nesterov_with_dampening", "optim.SGD(ps, lr=0.1, momentum=0.9, dampening=0.1, nesterov=True)"),
    ("sgd_fused_and_differentiable", "optim.SGD(ps, fused=True, differentiable=True)"),
    ("sgd_fused_and_foreach", "optim.SGD(ps, fused=True, foreach=True)"),
    ("adam_negative_lr", "optim.Adam(ps, lr=-1.0)"),
    ("adam_negative_eps", "optim.Adam(ps, eps=-1e-8)"),
    ("adam_beta1", "optim.Adam(ps, betas=(1.0, 0.999))"),
    ("adam_beta2", "optim.Adam(ps, betas=(0.9, -0.1))"),
    ("adam_negative_weight_decay", "optim.Adam(ps, weight_decay=-0.1)"),
    ("adam_integer_betas", "optim.Adam(ps, betas=(0, 0.5))"),
    ("adam_positional_maximize", "optim.Adam(ps, 0.1, (0.9, 0.999), 1e-8, 0, False, True)"),
    ("adamw_beta1", "optim.AdamW(ps, betas=(-0.1, 0.999))"),
    ("adamw_fused_and_foreach", "optim.AdamW(ps, fused=True, foreach=True)"),
    ("rmsprop_negative_lr", "optim.RMSprop(ps, lr=-0.01)"),
    ("rmsprop_negative_eps", "optim.RMSprop(ps, eps=-1.0)"),
    ("rmsprop_negative_momentum", "optim.RMSprop(ps, momentum=-0.1)"),
    ("rmsprop_negative_weight_decay", "optim.RMSprop(ps, weight_decay=-0.1)"),
    ("rmsprop_negative_alpha", "optim.RMSprop(ps, alpha=-0.9)"),
    ("adagrad_negative_lr", "optim.Adagrad(ps, lr=-0.01)"),
    ("adagrad_negative_lr_decay", "optim.Adagrad(ps, lr_decay=-0.01)"),
    ("adagrad_negative_weight_decay", "optim.Adagrad(ps, weight_decay=-0.01)"),
    ("adagrad_negative_accumulator", "optim.Adagrad(ps, initial_accumulator_value=-1)"),
    ("adagrad_negative_eps", "optim.Adagrad(ps, eps=-1e-10)"),
    ("adamax_beta2", "optim.Adamax(ps, betas=(0.9, 1.5))"),
    ("adamax_negative_eps", "optim.Adamax(ps, eps=-1.0)"),
    ("nadam_negative_momentum_decay", "optim.NAdam(ps, momentum_decay=-0.004)"),
    ("nadam_beta1", "optim.NAdam(ps, betas=(1.0, 0.999))"),
    ("radam_negative_weight_decay", "optim.RAdam(ps, weight_decay=-0.1)"),
    ("radam_beta2", "optim.RAdam(ps, betas=(0.9, 1.0))"),
    ("adadelta_rho", "optim.Adadelta(ps, rho=1.1)"),
    ("adadelta_negative_lr", "optim.Adadelta(ps, lr=-1.0)"),
    ("adadelta_negative_eps", "optim.Adadelta(ps, eps=-1e-6)"),
    ("adamax_no_fused_keyword", "optim.Adamax(ps, fused=True)"),
    ("empty_parameter_list", "optim.SGD([], lr=0.1)"),
    ("a_tensor_not_a_list", "optim.Adam(ps[0])"),
    ("a_number_in_the_list", "optim.SGD([ps[0], 1.5], lr=0.1)"),
    ("a_non_leaf", "optim.SGD([ps[0] * 2], lr=0.1)"),
    ("a_set_of_params", "optim.SGD([{'params': {ps[0]}}], lr=0.1)"),
    ("a_parameter_in_two_groups", "optim.SGD([{'params': ps[:2]}, {'params': ps[1:]}], lr=0.1)"),
    ("names_on_some_params", "optim.SGD([('a', ps[0]), ps[1]], lr=0.1)"),
    ("groups_with_and_without_names", "optim.SGD([{'params': [('a', ps[0])]}, {'params': [ps[1]]}], lr=0.1)"),
    ("add_param_group_not_a_dict", "optim.SGD(ps[:1], lr=0.1).add_param_group([ps[1]])"),
    ("add_param_group_overlap", "optim.SGD(ps[:2], lr=0.1).add_param_group({'params': ps[1]})"),
    ("load_state_dict_other_group_count",
     "optim.SGD(ps, lr=0.1).load_state_dict(optim.SGD([{'params': ps[:1]}, {'params': ps[1:]}]).state_dict())"),
    ("load_state_dict_other_group_size", "optim.SGD(ps, lr=0.1).load_state_dict(optim.SGD(ps[1:]).state_dict())"),
    ("adam_capturable_on_cpu", "o = optim.Adam(ps, capturable=True); feed(T, ps, 0); o.step()"),
    ("nadam_capturable_on_cpu", "o = optim.NAdam(ps, capturable=True); feed(T, ps, 0); o.step()"),
    ("adadelta_capturable_on_cpu", "o = optim.Adadelta(ps, capturable=True); feed(T, ps, 0); o.step()"),
    ("scheduler_of_a_non_optimizer", "sched.StepLR([1, 2], step_size=2)"),
    ("plateau_of_a_non_optimizer", "sched.ReduceLROnPlateau('sgd')"),
    ("plateau_factor", "sched.ReduceLROnPlateau(optim.SGD(ps), factor=1.0)"),
    ("plateau_mode", "sched.ReduceLROnPlateau(optim.SGD(ps), mode='lowest')"),
    ("plateau_threshold_mode", "sched.ReduceLROnPlateau(optim.SGD(ps), threshold_mode='relative')"),
    ("plateau_min_lrs", "sched.ReduceLROnPlateau(optim.SGD(ps), min_lr=[0.1, 0.2])"),
    ("lambda_count", "sched.LambdaLR(optim.SGD(ps), [lambda e: 1.0, lambda e: 2.0])"),
    ("multiplicative_not_callable", "sched.MultiplicativeLR(optim.SGD(ps), 0.9)"),
    ("linear_start_factor", "sched.LinearLR(optim.SGD(ps), start_factor=0)"),
    ("linear_end_factor", "sched.LinearLR(optim.SGD(ps), end_factor=1.5)"),
    ("constant_factor", "sched.ConstantLR(optim.SGD(ps), factor=2.0)"),
    ("resume_without_initial_lr", "sched.StepLR(optim.SGD(ps), step_size=2, last_epoch=4)"),
]:
    error(_name, f"""
        ps = make_params(T, T.float64)
        {_call}
    """)


# ====================================================================== whole programs (the language)

PROGRAMS["sgd_nesterov_steplr"] = """\
import torch
import torch.optim as optim
from torch.optim.lr_scheduler import StepLR

torch.set_default_dtype(torch.float64)
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
b = torch.tensor(0.1, requires_grad=True)
xs = torch.tensor([[1.0, 2.0, 0.5], [-1.0, 0.5, 1.5], [3.0, -2.0, 0.25], [0.5, 0.5, -1.0]])
ys = torch.tensor([1.0, 0.0, 0.5, -0.5])
opt = optim.SGD([{'params': [w]}, {'params': [b], 'lr': 0.05}], lr=0.1, momentum=0.9, nesterov=True)
sched = StepLR(opt, step_size=3, gamma=0.5)
for epoch in range(7):
    opt.zero_grad()
    pred = xs[:, 0] * w[0] + xs[:, 1] * w[1] + xs[:, 2] * w[2] + b
    loss = ((pred - ys) ** 2).mean()
    loss.backward()
    opt.step()
    sched.step()
    print(epoch, repr(loss.item()), sched.get_last_lr())
print(w.tolist(), b.item())
print(opt)
print(opt.state_dict()['param_groups'])
print(sched.state_dict())
print(opt.state[b])
"""

PROGRAMS["adamw_cosine_and_edits"] = """\
import torch
from torch import optim
from torch.optim import lr_scheduler

torch.manual_seed(0)
w = torch.tensor([1.5, -0.5, 2.0], requires_grad=True)
opt = optim.AdamW([w], lr=0.1, weight_decay=0.05)
sched = lr_scheduler.CosineAnnealingLR(opt, T_max=4, eta_min=0.01)
for epoch in range(6):
    opt.zero_grad()
    loss = (w ** 2).sum() + w.sum()
    loss.backward()
    opt.step()
    sched.step()
    print(epoch, loss, [round(lr, 12) for lr in sched.get_last_lr()])
opt.param_groups[0]['lr'] = 0.5
opt.param_groups[0]['betas'] = (0.5, 0.9)
opt.zero_grad()
(w ** 2).sum().backward()
opt.step()
print(w)
print(opt.state[w]['step'], sorted(opt.state[w].keys()))
state = opt.state_dict()
print(state['param_groups'][0]['lr'], state['param_groups'][0]['params'], list(state['state'].keys()))
v = torch.tensor([0.0, 1.0, -1.0], requires_grad=True)
opt.add_param_group({'params': [v], 'weight_decay': 0.0})
print(len(opt.param_groups), opt.param_groups[1]['lr'], opt.param_groups[1]['betas'])
print(opt)
"""

PROGRAMS["rmsprop_plateau_closure"] = """\
import torch

x = torch.tensor([2.0, -3.0], requires_grad=True)
opt = torch.optim.RMSprop([x], lr=0.01, momentum=0.5, centered=True)
plateau = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode='min', factor=0.5, patience=1)
def closure():
    opt.zero_grad()
    loss = (x[0] - 1) ** 2 + 10 * (x[1] + 1) ** 2
    loss.backward()
    return loss
for metric in [5.0, 4.0, 4.5, 4.5, 4.2, 4.4, 4.4]:
    loss = opt.step(closure)
    plateau.step(metric)
    print(round(loss.item(), 3), plateau.get_last_lr(), plateau.num_bad_epochs)
print(plateau.state_dict())
print(opt.state_dict()['param_groups'])
adagrad = torch.optim.Adagrad([x], lr=0.5, lr_decay=0.01)
print(adagrad.state_dict()['state'])
lam = torch.optim.lr_scheduler.LambdaLR(adagrad, lambda epoch: 1.0 / (epoch + 1))
for _ in range(3):
    adagrad.step(closure)
    lam.step()
print(lam.get_last_lr(), lam.state_dict()['lr_lambdas'], lam.last_epoch)
"""

PROGRAMS["scheduler_warnings_and_errors"] = """\
import torch

p = torch.tensor([1.0], requires_grad=True)
opt = torch.optim.SGD([p], lr=1.0)
s = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.5)
s.step()
print(s.get_last_lr())
for bad in [lambda: torch.optim.Adam([p], lr=-1.0), lambda: torch.optim.RMSprop([p], alpha=-0.5),
            lambda: torch.optim.SGD([p * 2]), lambda: torch.optim.Adagrad([]),
            lambda: torch.optim.lr_scheduler.LinearLR(opt, start_factor=0.0),
            lambda: torch.optim.SGD(p), lambda: torch.optim.SGD([p], lr=0.1, nesterov=True)]:
    try:
        bad()
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)
"""
