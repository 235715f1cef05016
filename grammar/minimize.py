"""`minimize`: the value of the variables that make f smallest, found with the
engine's gradients and its SGD or Adam optimiser (the loop a PyTorch user
writes: zero_grad, evaluate, backward, step)."""
import math
from dataclasses import dataclass, field

import numpy

from .. import engine as E
from .errors import ScriptError
from .budget import MemoryBudget, in_force
from .job import JobOptions, _execute, _evaluate_value, _eval_interpreter, out_of_memory, size_budgets

__all__ = ["MinimizeResult", "minimize"]


@dataclass
class MinimizeResult:
    minimizer: dict = field(default_factory=dict)   # name -> numpy array
    value: float = float("nan")
    steps: int = 0
    converged: bool = False
    gradient_norm: float = float("nan")
    stopped: str = None   # why it stopped early: "nan", "inf" or "interrupted" (None: converged or step limit)


def minimize(source, inits, bindings=(), optimizer="sgd", lr=0.01, steps=1000, tol=1e-8, momentum=0.0,
             betas=(0.9, 0.999), on_step=None, seed=None, **budgets):
    """Minimise the scalar f of `source` over the variables in `inits` (name -> value text).

    Stops after `steps` updates, or earlier when the largest |gradient| is at most
    `tol`, when f or a gradient stops being finite (`stopped` says which: going on
    would only spread nan), or on Ctrl-C (`stopped` is "interrupted"; the result
    holds the iterate reached). `on_step(k, f)` is called after each update
    (progress). `seed` seeds rand/randn before the --init values and before each
    evaluation of f, so f is the same function at every step. `budgets`: as JobOptions
    takes them (each evaluation of f has the step budget; the whole run, the others)."""
    options = JobOptions(seed=seed, **budgets)
    with in_force(**size_budgets(options)), MemoryBudget(options.max_memory):
        try:
            return _minimize(source, inits, bindings, optimizer, lr, steps, tol, momentum, betas, on_step, seed,
                             options)
        except MemoryError as e:
            raise out_of_memory(e, options.max_memory) from None


def _minimize(source, inits, bindings, optimizer, lr, steps, tol, momentum, betas, on_step, seed, options):
    if seed is not None:
        E.manual_seed(seed)
    helper = _eval_interpreter(max_steps=options.max_steps, max_depth=options.max_depth)
    variables = {}
    for name, text in inits:
        value = _evaluate_value(helper, text, f"--init {name}")
        t = E.tensor(value, dtype=E.get_default_dtype()) if not isinstance(value, E.Tensor) \
            else value.detach().clone().to(dtype=E.get_default_dtype())
        variables[name] = t.requires_grad_(True)
    if not variables:
        raise ScriptError("minimize needs at least one --init NAME=VALUE", kind="UsageError")
    params = list(variables.values())
    if optimizer == "sgd":
        opt = E.SGD(params, lr=lr, momentum=momentum)
    elif optimizer == "adam":
        opt = E.Adam(params, lr=lr, betas=betas)
    else:
        raise ScriptError(f"unknown optimizer {optimizer!r}: use sgd or adam", kind="UsageError")

    def evaluate():
        _, f = _execute(source, bindings, options, overrides=variables)
        if f.numel() != 1:
            body = source.rstrip()
            raise ScriptError(f"minimize needs a scalar f, but f has shape {list(f.shape)}",
                              body.rfind("\n") + 1, len(body), hint="minimize sum(f) or mean(f)",
                              kind="RuntimeError")
        return f

    result = MinimizeResult()
    try:
        for k in range(steps + 1):
            opt.zero_grad()
            f = evaluate()
            if not f.requires_grad:
                raise ScriptError("f does not depend on the --init variables", kind="RuntimeError")
            f.backward()
            largest = max(float(numpy.abs(numpy.asarray(p.grad)).max())
                          if p.grad is not None else 0.0 for p in params)
            result.value = float(f.item())
            result.gradient_norm = largest
            if not (math.isfinite(result.value) and math.isfinite(largest)):
                result.stopped = "nan" if math.isnan(result.value) or math.isnan(largest) else "inf"
                break
            if largest <= tol:
                result.converged = True
                break
            if k == steps:
                break
            opt.step()
            result.steps = k + 1
            if on_step is not None:
                on_step(k + 1, result.value)
    except KeyboardInterrupt:
        result.stopped = "interrupted"
    if result.stopped is None:
        with E.no_grad():
            final = evaluate()
        result.value = float(final.item())
    result.minimizer = {name: numpy.asarray(t.detach()) for name, t in variables.items()}
    return result
