"""What the tests of eval's compiled forms share: a job's outcome by one form (its numbers by their
bits), the three forms side by side (the lane, the engine form with the lane's entry switched off,
the full pipeline), and generated one-line jobs over every function the lane takes."""
import numpy

from autodiff.cli.output import job_json_line
from autodiff.engine.state import isolated
from autodiff.grammar import compiled
from autodiff.grammar.job import JobOptions, _run_job, run_job

FUNCTIONS = sorted(compiled._get_lane().functions)


def bits(v):
    """A value's bits and shape (a NaN's sign bit too)."""
    return numpy.asarray(v, dtype=numpy.float64).tobytes(), numpy.shape(v)


def outcome(run, source, bindings, options):
    """A job's result by `run` -- every number by its bits, and its JSON line -- or the pipeline's
    error (the same from every form)."""
    with numpy.errstate(all="ignore"):  # as the command line runs jobs
        try:
            r = run(source, bindings, options)
        except Exception as e:
            return type(e).__name__, str(e)
    hessian = [(a, [(b, bits(h)) for b, h in row.items()]) for a, row in (r.hessian or {}).items()]
    check = [(n, bits(v), r.check_ok[n], r.check_notes.get(n)) for n, v in (r.check or {}).items()]
    return (bits(r.value), tuple(r.shape), r.dtype, r.order, [(n, bits(g)) for n, g in r.grad.items()], hessian,
            check, job_json_line(1, source, r))


def three_forms(source, entry, bindings=(), **kw):
    """(the lane's outcome, whether the lane took it, the engine form's, the full pipeline's); `entry`:
    (module, function name) of the lane's form, switched off for the engine form's run."""
    before = compiled.taken["lane"]
    lane = outcome(run_job, source, bindings, JobOptions(**kw))
    took = compiled.taken["lane"] - before
    module, name = entry
    real = getattr(module, name)
    setattr(module, name, lambda *a: None)
    try:
        engine = outcome(run_job, source, bindings, JobOptions(**kw))
    finally:
        setattr(module, name, real)
    full = outcome(lambda *a: isolated(_run_job, *a), source, bindings, JobOptions(**kw))
    return lane, took, engine, full


def generated_job(r, more_forms=()):
    """A one-line job `x = ...; [y = ...;] f` of random numbers and functions; `more_forms`: functions
    (f, a, b, e, v) -> text of further formulas to choose among."""
    names = ["x", "y"][:r.randint(1, 2)]
    f = r.choice(FUNCTIONS)
    a, b = (f"{r.uniform(-2, 2):.4g}" for _ in range(2))
    e = r.choice(["0", "1", "2", "3", "0.5", "-1", "2.5", f"{r.uniform(0.1, 3):.3g}"])
    v = r.choice(names)
    body = r.choice([f"{f}({a}*{v}) * x + x**{e}", f"{f}(x*{v}) / {v} - {b}/x", f"{f}(x)**{e} + {v}",
                     f"-{f}(x - {v})**2 + {b}*{v}*x", f"z = {f}(x); z*z*{v} - x**{e}",
                     f"{f}({f}(x)) - x/{b} + {v}**{e}", f"({a} - x*{v})**{e} * {f}({v})"]
                    + [form(f, a, b, e, v) for form in more_forms])
    bindings = [f"{n} = {r.uniform(-1.5, 2.5):.4g}" for n in names]
    return "; ".join(bindings + [body])
