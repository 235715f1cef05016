"""How a job's result or error becomes output, in text or JSON: the one place for eval's jobs,
whoever runs them (one process, its worker processes, Dask's workers)."""
import contextlib
import sys

import click

from .interrupts import whole
from .output import format_array, dumps, job_json_line, report_error, error_json, warning_printer

__all__ = ["JobReport", "run_chunk_captured"]


class JobReport:
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
            with whole():  # (last_line within: a Ctrl-C held back is raised as the block ends)
                failed += self.result(line, text, result, batch, first)
                self.last_line = line
            first = False
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
            out.write(job_json_line(line, text, result, _graph(result, graph_format, True) if graph_format else None)
                      + "\n")
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


def run_chunk_captured(jobs, pairs, options, as_json, graph_format, precision, where, first=True):
    """Part of a batch run as a single process runs it, its stdout and stderr caught in the order
    they were written: (a Recorder's parts, how many failed). A Dask worker runs this
    (cli/dask_batch.py)."""
    from .parallel import Recorder
    recorder = Recorder()
    with recorder.caught(), warning_printer() as printer:
        options.out = sys.stderr if as_json else sys.stdout
        failed = JobReport(as_json, graph_format, precision, pairs, options).jobs(jobs, printer, where, batch=True,
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
    if not r.grad and r.jacobian is None and r.jvp is None:
        lines.append("(f depends on no variable: nothing to differentiate)")
    if r.jvp is not None:
        put("jvp (df along the tangent)", r.jvp)
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
