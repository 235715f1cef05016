"""Formatting, in one place: numbers and arrays as text, results as JSON,
errors and warnings on stderr."""
import json
import math
import sys
import warnings

import click
import numpy

__all__ = ["format_number", "format_array", "json_value", "dumps", "job_json", "job_json_line", "report_error",
           "report_interrupt", "error_json", "warning_printer"]


def format_number(v, precision=6):
    """A float as a person writes it: 2 not 2.0, 0.333333 at the default precision."""
    if isinstance(v, (bool, numpy.bool_)):
        return "True" if v else "False"
    if isinstance(v, (int, numpy.integer)):
        return str(int(v))
    v = float(v)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    if v == int(v) and abs(v) < 1e15:
        return str(int(v)) if v != 0 else "0"
    return f"{v:.{precision}g}"


def format_array(a, precision=6, prefix=""):
    """An array as nested brackets aligned after `prefix` (a scalar as a number)."""
    a = numpy.asarray(a)
    if a.ndim == 0:
        return format_number(a.item(), precision)
    if a.size == 0:
        return f"[] (shape {list(a.shape)})"
    width = max(len(format_number(v, precision)) for v in a.reshape(-1)[:1000])
    return numpy.array2string(a, separator=", ", prefix=prefix, max_line_width=100, threshold=200,
                              formatter={"all": lambda v: format_number(v, precision).rjust(width)})


def _fix_nonfinite(value):
    """JSON has no nan/inf: they become the strings "nan", "inf", "-inf"."""
    if isinstance(value, float):
        if math.isfinite(value):
            return value
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    if not isinstance(value, list):
        return value
    stack = [value]
    while stack:
        items = stack.pop()
        for i, v in enumerate(items):
            if isinstance(v, list):
                stack.append(v)
            elif isinstance(v, float) and not math.isfinite(v):
                items[i] = "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")
    return value


def json_value(a):
    """A number or nested lists of numbers for an array."""
    if isinstance(a, (int, float, bool)):
        return _fix_nonfinite(a)
    if getattr(a, "ndim", 1) == 0:  # a scalar result: no array round trip
        return _fix_nonfinite(a.item())
    a = numpy.asarray(a)
    value = a.tolist()
    if a.dtype.kind == "f" and not numpy.isfinite(a).all():
        value = _fix_nonfinite(value)
    return value


_ENCODER = json.JSONEncoder(separators=(", ", ": "), allow_nan=False)


def dumps(obj):
    return _ENCODER.encode(obj)


def job_json(line, text, r, graph=None):
    """An eval job's result (a JobResult) as the JSON object the spec gives, `graph` its graph's data."""
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
    if r.jvp is not None:
        obj["jvp"] = json_value(r.jvp)
    if graph is not None:
        obj["graph"] = graph
    return obj


def job_json_line(line, text, r, graph=None):
    """One job's JSON line: dumps(job_json(...)). A float64 scalar result whose gradients -- and
    Hessian and check, if asked -- are float64 scalars (the usual batch job) is written straight
    out: the same bytes at a third of the cost."""
    if graph is None and not r.shape and r.dtype == "float64" and r.jacobian is None and r.formula is None \
            and r.jvp is None:
        value = _json_float(r.value)
        grad = _json_floats(r.grad)
        if value is not None and grad is not None:
            out = (f'{{"line": {line}, "expr": {_json_string(text)}, "value": {value}, "shape": [], '
                    f'"dtype": "float64", "device": {_json_string(r.device)}, "order": {r.order}, "grad": {grad}')
            if r.hessian is not None:
                rows = [(a, _json_floats(row)) for a, row in r.hessian.items()]
                if any(row is None for _, row in rows):
                    return dumps(job_json(line, text, r, graph))
                out += ', "hessian": {' + ", ".join(f"{_json_string(a)}: {row}" for a, row in rows) + "}"
            if r.check is not None:
                check = _json_floats(r.check)
                if check is None:
                    return dumps(job_json(line, text, r, graph))
                out += f', "check": {check}'
            return out + "}"
    return dumps(job_json(line, text, r, graph))


_json_string = json.encoder.encode_basestring_ascii  # as the encoder writes strings (ensure_ascii)
_FLOAT64 = numpy.dtype(numpy.float64)
_F64, _NDARRAY = numpy.float64, numpy.ndarray


def _json_float(v):
    """A float64 scalar, 0-d array or Python float as our JSON writes it (nan and infinities as
    strings), or None for anything else."""
    if v.__class__ is not _F64 and v.__class__ is not float and \
            not (v.__class__ is _NDARRAY and v.dtype == _FLOAT64 and not v.shape):
        return None
    f = float(v)
    if f - f == 0:
        return float.__repr__(f)
    return '"nan"' if f != f else ('"inf"' if f > 0 else '"-inf"')


def _json_floats(d):
    """A dict of names to what _json_float writes, as our JSON writes it; None if any is not one."""
    items = []
    for name, v in d.items():
        v = _json_float(v)
        if v is None:
            return None
        items.append(f"{_json_string(name)}: {v}")
    return "{" + ", ".join(items) + "}"


def error_json(error, source):
    """The "error" object of a failed job."""
    loc = error.location(source) if hasattr(error, "location") else None
    out = {"type": getattr(error, "kind", type(error).__name__), "message": getattr(error, "message", str(error)),
           "column": loc.column if loc else None}
    if loc is not None and loc.line != 1:
        out["source_line"] = loc.line
    hint = getattr(error, "hint", None)
    if hint:
        out["hint"] = hint
    return out


def report_error(error, source, where=None, first_line=1, job_line=None):
    """Print a language error to stderr: message, place, caret, hint (`job_line`: see format_error)."""
    from ..grammar.errors import format_error
    click.echo(format_error(error, source, where, first_line, job_line), err=True)


def report_interrupt(stop, source=None, where=None):
    """Ctrl-C stopped a program: `interrupted`, and where it was when the program knows (the
    line, column and caret of the statement it was running)."""
    from ..grammar.errors import Interrupted, format_error
    sys.stdout.flush()
    if sys.stderr.isatty():  # past the ^C the terminal shows
        click.echo("", err=True)
    if isinstance(stop, Interrupted):
        click.echo(format_error(stop, source, where), err=True)
    else:
        click.echo("interrupted", err=True)


class _WarningPrinter:
    """Prints engine warnings on stderr as `warning: ...`, every time, with the
    source place being evaluated when there is one."""

    def __init__(self):
        self.source = None
        self.where = None
        self.job_line = None  # a batch job's line in its file (set per job; the text is made only to warn)
        self.shown = set()

    def show(self, message, category, filename, lineno, file=None, line=None):
        sys.stdout.flush()
        text = f"warning: {message}"
        from ..engine.graph import get_span
        node = get_span()
        if node is not None and self.source is not None and getattr(node, "start", None) is not None:
            from ..grammar.errors import locate
            loc = locate(self.source, node.start, node.end)
            place = f"line {loc.line}, column {loc.column}"
            if self.where:
                job = f", job on line {self.job_line}" if self.job_line is not None else ""
                place = f"{self.where}{job}, {place}"
            text = f"warning ({place}): {message}"
        if text in self.shown:  # once per place, as Python shows a warning once per line
            return
        self.shown.add(text)
        print(text, file=sys.stderr)


WARNINGS = _WarningPrinter()


class warning_printer:
    """Context manager for a command's run: engine warnings printed by WARNINGS
    (every place once), numpy silent about inf and nan (as PyTorch is); the
    process's previous settings come back afterwards."""

    def __enter__(self):
        self._catch = warnings.catch_warnings()
        self._catch.__enter__()
        self._numpy = numpy.seterr(all="ignore")
        WARNINGS.shown.clear()
        WARNINGS.source = WARNINGS.where = WARNINGS.job_line = None
        warnings.simplefilter("always")
        warnings.showwarning = WARNINGS.show
        return WARNINGS

    def __exit__(self, *exc):
        numpy.seterr(**self._numpy)
        self._catch.__exit__(*exc)
        return False
