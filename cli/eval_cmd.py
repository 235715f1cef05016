"""`autodiff eval`: evaluate one job (or a batch, one per line) and print its
value and derivatives, as text or JSON. Options in, `run_job` called, results
formatted: the meaning of a job lives in autodiff.grammar.job."""
import contextlib
import json
import sys

import click
import numpy

from .inputs import job_lines
from .interrupts import deferred, whole
from .options import ExpressionCommand, Jobs, JOBS_HELP, OutputPath, SEED, budget_options, write_failed
from .output import format_array, json_value, dumps, report_error, report_interrupt, error_json, warning_printer
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
@click.option("--jacobian", is_flag=True, help="Also print the full Jacobian of f by each variable.")
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
def eval_command(expr, bindings, sets, wrt, order, weights, jacobian, hessian, check, formula, graph_format,
                 fmt, as_json, device, dtype, seed, precision, jobs_file, jobs, dask_address, output, **budgets):
    """Evaluate EXPR (a program whose last statement is an expression f) and its derivatives.

    \b
    autodiff eval "a*x**2+b*x+c" a=1 b=-2 c=1 x=0
    autodiff eval "x**3" x=2 --order 2
    autodiff eval "a*x**2+b*x+c" a=1 b=-2 c=1 "x=[[0,0],[1,2]]" --weights 1
    echo "sin(x)" | autodiff eval - x=1 --json

    EXPR '-' (or -f FILE) reads one job per line; trailing NAME=VALUE arguments and
    the options apply to every job. In eval, numbers and lists of numbers are float
    tensors that require grad.
    """
    from ..grammar.budget import in_force
    from ..grammar.job import JobOptions, parse_binding, size_budgets
    if expr is not None:
        expr = expr.strip() or None
    if expr is None and jobs_file is None:
        raise click.UsageError("give an expression, '-' to read jobs from stdin, or -f FILE")
    if expr is not None and jobs_file is not None and "=" in expr and expr.split("=")[0].isidentifier():
        bindings = (expr,) + bindings
        expr = None
    pairs = []
    for text in tuple(bindings) + tuple(sets):
        try:
            pairs.append(parse_binding(text))
        except ValueError as e:
            raise click.BadParameter(f"{e} (bindings look like x=1 or \"x=[1, 2]\")", param_hint="NAME=VALUE")
    names = tuple(n.strip() for w in wrt for n in w.split(",") if n.strip())
    options = JobOptions(wrt=names, order=order, weights=weights, jacobian=jacobian, hessian=hessian,
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
    report = _Report(as_json, graph_format, precision, pairs, options)
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
                chunk_args = dict(pairs=pairs, options=options, as_json=as_json, graph_format=graph_format,
                                  precision=precision, where=where)
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


class _Report:
    """Runs jobs and writes what each gives, as text or JSON: the one place a job's
    result or error becomes output (a batch's workers and Dask's run this too)."""

    def __init__(self, as_json, graph_format, precision, pairs, options):
        self.as_json, self.graph_format, self.precision = as_json, graph_format, precision
        self.pairs, self.options = pairs, options
        self.last_line = None  # the line of the last job whose output is written (where Ctrl-C stopped)

    def jobs(self, jobs, printer, where, batch, first=True, progress=None):
        """Run and report each job in turn; how many failed. `first`: these are the
        batch's first jobs (text output puts a blank line between jobs). `progress`
        is told how many jobs are done."""
        from .batch_tuning import batch_settings
        with batch_settings() if batch else contextlib.nullcontext():
            return self._jobs(jobs, printer, where, batch, first, progress)

    def _jobs(self, jobs, printer, where, batch, first, progress):
        from ..grammar.job import run_job
        failed = 0
        printer.where = where
        for done, (line, text, bad_bytes) in enumerate(jobs):
            if progress is not None:
                progress.update(done)
            printer.source = text
            printer.job_line = line
            try:
                if bad_bytes is not None:
                    raise bad_bytes
                result = run_job(text, self.pairs, self.options)
            except BrokenPipeError:  # the reader of our output went away: stop (cli.main exits quietly)
                raise
            except Exception as e:  # one job's failure never ends the batch
                failed += 1
                with whole():
                    self.error(line, text, e, where if batch else None)
                continue
            with whole():
                failed += self.result(line, text, result, batch, first)
            first = False
            self.last_line = line
            if not batch:
                sys.stdout.flush()  # a batch flushes before it waits for input (job_lines)
        return failed

    def error(self, line, text, e, where):
        """A failed job's report: a JSON line, or the error on stderr after the results before it."""
        from ..grammar.errors import LanguageError
        out = sys.stdout
        if isinstance(e, LanguageError):
            if self.as_json:
                out.write(dumps({"line": line, "expr": text, "error": error_json(e, text)}) + "\n")
            else:
                out.flush()
                report_error(e, text, where, first_line=line, job_line=line if where is not None else None)
        elif isinstance(e, MemoryError):  # (one that escaped the job's own handling, at the very limit)
            from ..grammar.budget import memory_error_message
            _plain_error(out, self.as_json, line, text, "MemoryError",
                         memory_error_message(e, self.options.max_memory)[0])
        else:  # a job's internal failure: said as such, and the batch goes on
            _plain_error(out, self.as_json, line, text, "InternalError", f"{type(e).__name__}: {e}")
        self.last_line = line

    def result(self, line, text, result, batch, first):
        """Write a job's result; 1 if it counts as failed (--check found a mismatch), else 0."""
        out = sys.stdout
        mismatch = result.check_ok is not None and not all(result.check_ok.values())
        if mismatch and self.as_json:  # the JSON keeps the spec's keys; the verdict goes to stderr (and the status)
            out.flush()
            for name in (n for n, ok in result.check_ok.items() if not ok):
                note = result.check_notes.get(name)
                click.echo(f"warning (line {line}): d/d{name} disagrees with finite differences"
                           + (f"; {note}" if note else ""), err=True)
        graph_format = self.graph_format
        if self.as_json:
            out.write(_job_json_line(line, text, result, graph_format) + "\n")
        elif graph_format in ("dot", "json"):  # the graph alone on stdout, to pipe on; the values on stderr
            out.flush()
            sys.stderr.write((f"# line {line}: {text}\n" if batch else "")
                             + _job_text(result, None, self.precision))
            sys.stderr.flush()
            out.write(_graph(result, graph_format) if graph_format == "dot" else dumps(_graph(result, "json", True))
                      + "\n")
        else:
            if batch:
                out.write(("" if first else "\n") + f"# line {line}: {text}\n")
            out.write(_job_text(result, graph_format, self.precision))
        return 1 if mismatch else 0

    def written(self, line):
        """The output of the jobs up to `line` is written (by workers: --jobs, --dask)."""
        self.last_line = line

    def lost(self, jobs, why):
        """Each of `jobs` reported as failed for `why` (their worker process died)."""
        for line, text, _ in jobs:
            _plain_error(sys.stdout, self.as_json, line, text, "InternalError", why)
            self.last_line = line


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


def run_chunk_captured(jobs, pairs, options, as_json, graph_format, precision, where, first=True):
    """Part of a batch run as a single process runs it, its stdout and stderr caught in the order
    they were written: (a Recorder's parts, how many failed). A Dask worker runs this
    (cli/dask_batch.py)."""
    from .parallel import Recorder
    recorder = Recorder()
    with recorder.caught(), warning_printer() as printer:
        options.out = sys.stderr if as_json else sys.stdout
        failed = _Report(as_json, graph_format, precision, pairs, options).jobs(jobs, printer, where, batch=True,
                                                                                first=first)
    return recorder.parts, failed


def _plain_error(out, as_json, line, text, kind, message):
    if as_json:
        out.write(dumps({"line": line, "expr": text, "error": {"type": kind, "message": message,
                                                               "column": 1}}) + "\n")
    else:
        out.flush()
        click.echo(f"error: {message}" + (f" (line {line})" if line != 1 else ""), err=True)


def _label(name, order):
    return f"df/d{name}" if order == 1 else f"d{order}f/d{name}{order}"


def _job_json_line(line, text, r, graph_format):
    """One job's JSON line. A plain float64 scalar result (the usual batch job) is
    written directly -- the very bytes `dumps(_job_json(...))` writes, at a third of
    the cost; anything else goes through the encoder."""
    if r.lean and graph_format is None:  # (its text needs no escaping: see JobResult.lean)
        grad = r.grad
        if len(grad) == 1:
            (name, g), = grad.items()
            grads = f"{_json_string(name)}: {_json_number(g)}"
        else:
            grads = ", ".join([f"{_json_string(name)}: {_json_number(g)}" for name, g in grad.items()])
        return (f'{{"line": {line}, "expr": "{text}", "value": {_json_number(r.value)}, "shape": [], '
                f'"dtype": "float64", "device": "cpu", "order": 1, "grad": {{{grads}}}}}')
    if (not r.shape and r.dtype == "float64" and r.jacobian is None and r.hessian is None and r.formula is None
            and r.check is None and graph_format is None):
        value = _json_float(r.value)
        if value is not None:
            grads = []
            for name, g in r.grad.items():
                g = _json_float(g)
                if g is None:
                    break
                grads.append(f"{_json_string(name)}: {g}")
            else:
                return (f'{{"line": {line}, "expr": {_json_string(text)}, "value": {value}, "shape": [], '
                        f'"dtype": "float64", "device": {_json_string(r.device)}, "order": {r.order}, '
                        f'"grad": {{{", ".join(grads)}}}}}')
    return dumps(_job_json(line, text, r, graph_format))


_json_string = json.encoder.encode_basestring_ascii  # as the encoder writes strings (ensure_ascii)
_FLOAT64 = numpy.dtype(numpy.float64)


def _json_float(v):
    """A float64 scalar as our JSON writes it (nan and infinities as strings), or None."""
    if v.__class__ is not numpy.float64 and not (v.__class__ is numpy.ndarray and v.dtype == _FLOAT64
                                                 and not v.shape):
        return None
    return _json_number(v)


def _json_number(v):
    """A float64 scalar (or 0-d array) as our JSON writes it: nan and infinities as strings."""
    f = float(v)
    if f - f == 0:
        return float.__repr__(f)
    return '"nan"' if f != f else ('"inf"' if f > 0 else '"-inf"')


def _job_json(line, text, r, graph_format):
    obj = {"line": line, "expr": text, "value": json_value(r.value), "shape": list(r.shape), "dtype": r.dtype,
           "device": r.device, "order": r.order, "grad": {k: json_value(v) for k, v in r.grad.items()}}
    if r.jacobian is not None:
        obj["jacobian"] = {k: json_value(v) for k, v in r.jacobian.items()}
    if r.hessian is not None:
        obj["hessian"] = {a: {b: json_value(v) for b, v in row.items()} for a, row in r.hessian.items()}
    if r.formula is not None:
        obj["formula"] = dict(r.formula)
    if r.check is not None:
        obj["check"] = {k: json_value(v) for k, v in r.check.items()}
    if graph_format is not None:
        obj["graph"] = _graph(r, graph_format, as_data=True)
    return obj


def _graph(r, graph_format, as_data=False):
    """The job's graph rendered as text (`as_data`: the json format as a dict, to embed)."""
    from .graphview import describe_graph, render
    graph = describe_graph(r.graph, r.variables, r.source, r.produced, r.names)
    return graph if as_data and graph_format == "json" else render(graph, graph_format)


def _job_text(r, graph_format, precision):
    lines = []

    def put(label, value):
        prefix = f"{label} = "
        lines.append(prefix + format_array(value, precision, prefix=prefix))

    put("f", r.value)
    formulas = r.formula or {}
    for name, g in r.grad.items():
        label = _label(name, r.order)
        if name not in formulas:
            put(label, g)
        elif g.ndim == 0:  # the formula and its value on one line
            lines.append(f"{label} = {formulas[name]}  (= {format_array(g, precision)})")
        else:  # the value under it, its '=' under the formula's
            lines.append(f"{label} = {formulas[name]}")
            put(" " * len(label), g)
    if not r.grad and r.jacobian is None:
        lines.append("(f depends on no variable: nothing to differentiate)")
    if r.jacobian is not None:
        for name, j in r.jacobian.items():
            put(f"jacobian df/d{name}" + (f" {list(j.shape)}" if j.ndim else ""), j)
    if r.hessian is not None:
        for a, row in r.hessian.items():
            for b, h in row.items():
                put(f"d2f/d{a}2" if a == b else f"d2f/d{a}d{b}", h)
    if r.check is not None:
        for name, err in r.check.items():
            verdict = "ok" if r.check_ok[name] else "MISMATCH"
            lines.append(f"check {_label(name, r.order)}: largest difference from finite differences "
                         f"{err:.3g} ({verdict})")
            if name in r.check_notes:
                lines.append(f"  note: {r.check_notes[name]}")
    if graph_format is not None:
        lines.append(_graph(r, graph_format).rstrip("\n"))
    return "\n".join(lines) + "\n"
