"""`autodiff eval`: evaluate one job (or a batch, one per line) and print its
value and derivatives, as text or JSON. Options in, `run_job` called, results
formatted: the meaning of a job lives in autodiff.grammar.job."""
import contextlib
import sys

import click

from .inputs import job_lines
from .interrupts import deferred
from .job_report import JobReport
from .options import ExpressionCommand, Jobs, JOBS_HELP, OutputPath, SEED, budget_options, write_failed
from .output import dumps, report_interrupt, warning_printer
from .progress import Progress, wanted as progress_wanted

__all__ = ["eval_command"]


class _GraphFormat(click.Choice):
    name = "graph format"


class _EvalCommand(ExpressionCommand):
    """`--graph` takes an optional format: it takes the next word only when that
    is one (so `--graph "x*y"` leaves the expression alone)."""

    def prepare_args(self, ctx, args):
        for i, a in enumerate(args):
            if a == "--":
                break
            if a == "--graph" and (i + 1 == len(args) or args[i + 1] not in ("text", "json", "dot")):
                args[i] = "--graph=text"
        return args


@click.command("eval", cls=_EvalCommand)
@click.version_option(package_name="autodiff-cli", prog_name="autodiff")
@click.argument("expr", required=False)
@click.argument("bindings", nargs=-1)
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help="Bind a variable (VALUE is an expression).")
@click.option("--wrt", multiple=True, metavar="NAME",
              help="Differentiate by NAME (repeat, or a comma list). Default: every bound float variable f depends on.")
@click.option("--order", type=click.IntRange(1, 20), default=1, show_default=True,
              help="The N-th derivative (grad chained with create_graph, summing between steps).")
@click.option("--weights", metavar="W",
              help="Weights for a non-scalar f (a vector-Jacobian product); a number means all-W.")
@click.option("--tangent", "tangents", multiple=True, metavar="NAME=VALUE",
              help="Give variable NAME the tangent VALUE (a number: the same everywhere; a list: one per element) "
                   "and also print jvp, f's directional derivative along the tangents, computed in forward mode. "
                   "Repeat for several variables; the others' tangents are 0.")
@click.option("--jacobian", is_flag=True, help="Also print the full Jacobian of f by each variable.")
@click.option("--jacobian-mode", type=click.Choice(["auto", "forward", "reverse"]), default="auto", show_default=True,
              help="How --jacobian is computed: forward mode (one run of the program per element of the variables, "
                   "a column each), reverse mode (rows, from backward passes), or auto: forward where the variables "
                   "have fewer elements in all than f (and the program draws no random numbers without --seed), "
                   "else reverse. The two agree to rounding, not to the bit.")
@click.option("--hessian", is_flag=True, help="Also print the Hessian blocks.")
@click.option("--check", is_flag=True, help="Also check each derivative against central finite differences.")
@click.option("--formula", is_flag=True, help="Also print each derivative as a formula.")
@click.option("--graph", "graph_format", type=_GraphFormat(["text", "json", "dot"]), is_flag=False,
              flag_value="text", default=None, help="Also print the graph (text, json or dot).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Same as --format json.")
@click.option("--device", type=click.Choice(["cpu", "cuda", "gpu"]), default=None)
@click.option("--dtype", type=click.Choice(["float64", "float32"]), default=None)
@click.option("--seed", type=SEED, default=None, help="Seed for rand/randn (as torch.manual_seed).")
@click.option("--precision", type=click.IntRange(1, 17), default=6, show_default=True,
              help="Significant digits in text output.")
@click.option("-f", "--file", "jobs_file", type=click.File("rb"), default=None,
              help="Run every non-blank, non-# line of FILE as a job ('-' is stdin).")
@click.option("--jobs", "-j", type=Jobs(), default="1", show_default=True,
              help=f"Run a batch's jobs in N worker processes ('auto': one per core; {JOBS_HELP}); output "
                   "stays in input order.")
@click.option("--dask", "dask_address", metavar="ADDRESS", default=None,
              help="Run a batch on the Dask cluster at ADDRESS (tcp://host:8786; 'local': one started here, of "
                   "--jobs processes): JSON Lines out, in input order.")
@click.option("-o", "--output", type=OutputPath(), default=None,
              help="Write the results to FILE (default: stdout).")
@budget_options("eval")
def eval_command(expr, bindings, sets, wrt, order, weights, tangents, jacobian, jacobian_mode, hessian, check, formula,
                 graph_format, fmt, as_json, device, dtype, seed, precision, jobs_file, jobs, dask_address, output,
                 **budgets):
    """Evaluate EXPR (a program whose last statement is an expression f) and its derivatives.

    \b
    autodiff eval "a*x**2+b*x+c" a=1 b=-2 c=1 x=0
    autodiff eval "x**3" x=2 --order 2
    autodiff eval "a*x**2+b*x+c" a=1 b=-2 c=1 "x=[[0,0],[1,2]]" --weights 1
    autodiff eval "sin(x)*y" "x=[0,1]" y=2 --tangent "x=[1,0]"
    echo "sin(x)" | autodiff eval - x=1 --json

    EXPR '-' (or -f FILE) reads one job per line; trailing NAME=VALUE arguments and
    the options apply to every job. In eval, numbers and lists of numbers are float
    tensors that require grad.
    """
    from ..grammar.budget import in_force
    from ..grammar.job import JobOptions, size_budgets
    if expr is not None:
        expr = expr.strip() or None
    if expr is None and jobs_file is None:
        raise click.UsageError("give an expression, '-' to read jobs from stdin, or -f FILE")
    if expr is not None and jobs_file is not None and "=" in expr and expr.split("=")[0].isidentifier():
        bindings = (expr,) + bindings
        expr = None
    pairs = _bindings(tuple(bindings) + tuple(sets))
    names = tuple(n.strip() for w in wrt for n in w.split(",") if n.strip())
    options = JobOptions(wrt=names, order=order, weights=weights, tangent=_bindings(tangents, "--tangent"),
                         jacobian=jacobian, jacobian_mode=jacobian_mode, hessian=hessian,
                         check=check, formula=formula, graph=graph_format is not None,
                         device=None if device is None else ("cuda" if device == "gpu" else device),
                         dtype=dtype, seed=seed, **budgets)
    as_json = as_json or fmt == "json"
    ctx = click.get_current_context()
    batch = jobs_file is not None or expr == "-"
    if dask_address is not None:
        from .dask_batch import check_usage
        check_usage(ctx, dask_address, batch)
        as_json = True
    if output not in (None, "-"):
        try:
            ctx.with_resource(contextlib.redirect_stdout(ctx.with_resource(open(output, "w", encoding="utf-8"))))
        except OSError as e:
            raise write_failed(e, output, "-o/--output") from None
    ctx.with_resource(in_force(**size_budgets(options)))
    # a program's print() goes with the results in text, and out of the JSON stream
    options.out = sys.stderr if as_json else sys.stdout
    report = JobReport(as_json, graph_format, precision, pairs, options)
    if options.device == "cuda" and dask_address is None:  # (with Dask, the workers' devices count)
        _check_device(as_json)
    if not batch:
        try:
            with warning_printer() as printer:
                failed = report.jobs([(1, expr, None)], printer, None, batch=False)
        except KeyboardInterrupt as stop:
            report_interrupt(stop, expr)
            sys.exit(130)
        sys.exit(1 if failed else 0)
    _run_batch(ctx, jobs_file, report, jobs, dask_address)


def _bindings(texts, hint="NAME=VALUE"):
    """NAME=VALUE arguments as (name, text) pairs; a usage error for one that is not."""
    from ..grammar.job import parse_binding
    pairs = []
    for text in texts:
        try:
            pairs.append(parse_binding(text))
        except ValueError as e:
            raise click.BadParameter(f"{e} (bindings look like x=1 or \"x=[1, 2]\")", param_hint=hint)
    return pairs


def _run_batch(ctx, jobs_file, report, jobs, dask_address):
    """A batch: the jobs read line by line (a progress line on stderr where a terminal watches the
    results go elsewhere), run here, in worker processes or on a Dask cluster; exits with its status."""
    stream = jobs_file if jobs_file is not None else sys.stdin.buffer
    where = getattr(stream, "name", "<stdin>")
    where = "<stdin>" if where in ("<stdin>", "-") or not isinstance(where, str) else where
    progress = None
    if progress_wanted():  # results to a file or pipe, a terminal watching: a progress line on stderr
        progress = Progress(stream)
        stream = progress.reader(stream)
    try:
        with deferred():
            if dask_address is not None:  # the jobs run on the workers (their devices, their warnings), none here
                from .dask_batch import run_batch_on_dask
                chunk_args = dict(pairs=report.pairs, options=report.options, as_json=report.as_json,
                                  graph_format=report.graph_format, precision=report.precision, where=where)
                workers = None if ctx.get_parameter_source("jobs").name == "DEFAULT" else jobs
                failed = run_batch_on_dask(dask_address, job_lines(stream), chunk_args, workers, progress,
                                           written=report.written)
            else:
                with warning_printer() as printer:
                    if jobs > 1:
                        failed = _run_in_workers(job_lines(stream), jobs, report, printer, where, progress)
                    else:
                        failed = report.jobs(job_lines(stream, _flush_stdout), printer, where, batch=True,
                                             progress=progress)
    except KeyboardInterrupt:
        if progress is not None:
            progress.close()
        sys.stdout.flush()
        last = report.last_line
        done = f"the results of lines up to {last} are written" if last else "no result was written"
        click.echo(f"interrupted: the batch stopped ({done})", err=True)
        sys.exit(130)
    if progress is not None:
        progress.close()
    sys.exit(1 if failed else 0)


def _check_device(as_json):
    """Jobs on the GPU: stop before the first one when there is none."""
    from ..engine import backend
    try:
        backend.backend_for(backend.device("cuda"))
    except backend.DeviceError as e:
        if as_json:
            click.echo(dumps({"error": {"type": "DeviceError", "message": str(e)}}))
        else:
            click.echo(f"error: {e}", err=True)
        sys.exit(1)


def _flush_stdout():
    sys.stdout.flush()


def _run_in_workers(lines, jobs, report, printer, where, progress):
    """The batch over `jobs` worker processes: the same output, in input order."""
    from .parallel import run_batch_in_workers

    def run_chunk(chunk, first):
        report.options.out = sys.stderr if report.as_json else sys.stdout  # the worker's caught streams
        return report.jobs(chunk, printer, where, batch=True, first=first)

    return run_batch_in_workers(lines, run_chunk, jobs, progress.update if progress is not None else None,
                                written=report.written, lost=report.lost)


