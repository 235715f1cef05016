"""`autodiff graph`: the graph of one job, as text, JSON, Graphviz DOT, SVG or PNG."""
import re
import shutil
import subprocess
import sys

import click

from .options import OutputPath, budget_options, unwritable, write_failed
from .output import report_error, report_interrupt, warning_printer, dumps

__all__ = ["graph_command"]

GRAPHVIZ_HINT = ("install Graphviz (Debian/Ubuntu: apt-get install graphviz; macOS: brew install graphviz; "
                 "conda: conda install graphviz), or use --format dot and render the source elsewhere")


@click.command("graph")
@click.version_option(package_name="autodiff-cli", prog_name="autodiff")
@click.argument("expr")
@click.argument("bindings", nargs=-1)
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help="Bind a variable.")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "dot", "svg", "png"]), default="text",
              show_default=True)
@click.option("-o", "--output", "output", type=OutputPath(), default=None, metavar="FILE",
              help="Write to FILE instead of stdout; `-` is stdout for every format (svg/png go to "
                   "graph.svg/graph.png when not given).")
@click.option("--backward", is_flag=True, help="Run backward first and show each node's grad.")
@click.option("--dtype", type=click.Choice(["float64", "float32"]), default=None)
@click.option("--seed", type=int, default=None)
@budget_options("graph")
def graph_command(expr, bindings, sets, fmt, output, backward, dtype, seed, **budgets):
    """The forward and backward graph of EXPR: nodes (MulBackward0, AccumulateGrad), edges, values.

    \b
    autodiff graph "y = (w + x) * (w + 1); y" w=1 x=2 --backward
    autodiff graph "a*x**2+b*x+c" a=1 b=-2 c=1 x=0 --format dot | dot -Tpng > graph.png
    autodiff graph "a*x**2+b*x+c" a=1 b=-2 c=1 x=0 --format svg -o graph.svg
    autodiff graph "x*2+1" x=3 --format png -o - > graph.png
    """
    from ..engine.graph import trace_inputs
    from ..grammar.errors import LanguageError
    from ..grammar.job import JobOptions, parse_binding, run_graph_job
    from .graphview import describe_graph, render
    try:
        pairs = [parse_binding(t) for t in tuple(bindings) + tuple(sets)]
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="NAME=VALUE")
    printer = click.get_current_context().with_resource(warning_printer())
    printer.source = expr
    dot = None
    if fmt in ("svg", "png"):
        dot = shutil.which("dot")
        if dot is None:
            click.echo(f"error: --format {fmt} needs Graphviz's `dot` program, which is not installed", err=True)
            click.echo(f"  hint: {GRAPHVIZ_HINT}", err=True)
            sys.exit(1)
    to_stdout = output in (None, "-") if fmt in ("text", "json", "dot") else output == "-"
    try:
        with trace_inputs():  # every node keeps its arguments: the text view lists its constants too
            result = run_graph_job(expr, pairs, backward=backward,
                                   options=JobOptions(dtype=dtype, seed=seed, **budgets))
    except LanguageError as e:
        report_error(e, expr)
        sys.exit(1)
    except KeyboardInterrupt as stop:
        report_interrupt(stop, expr)
        sys.exit(130)
    graph = describe_graph(result.graph, result.variables, expr, result.produced, result.names)
    if fmt in ("text", "json", "dot"):
        text = dumps(graph) + "\n" if fmt == "json" else render(graph, fmt)
        if not to_stdout:
            _write_file(output, text.encode("utf-8"))
        else:
            sys.stdout.write(text)
        return
    source = render(graph, "dot")
    target = output or f"graph.{fmt}"
    if not to_stdout and output is None and unwritable(target):
        raise click.BadParameter(f"cannot write {target!r}: {unwritable(target)}", param_hint="-o/--output")
    try:
        done = subprocess.run([dot, f"-T{fmt}"], input=source.encode(), capture_output=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        click.echo(f"error: running Graphviz failed: {e}", err=True)
        sys.exit(1)
    complaint = done.stderr.decode(errors="replace").strip()
    if done.returncode != 0:
        click.echo(f"error: Graphviz could not render the graph: {complaint}", err=True)
        sys.exit(1)
    scaled = _SHRUNK.search(complaint)
    if fmt == "png" and scaled:  # a picture shrunk to fit PNG's limit is one nobody can read
        click.echo(f"error: the graph has {len(graph['nodes']):,} nodes: as a PNG, Graphviz would shrink it to "
                   f"{float(scaled.group(1)):.0%} to fit its largest picture, too small to read", err=True)
        click.echo("  hint: use --format svg (a picture of any size, to zoom into), --format text, or a "
                   "smaller expression", err=True)
        sys.exit(1)
    if to_stdout:  # the image itself (binary for png) on stdout
        sys.stdout.flush()
        stream = getattr(sys.stdout, "buffer", None)
        if stream is None:  # a text-only stdout: svg is text, png cannot go there
            if fmt == "png":
                click.echo("error: stdout takes no binary data here; give -o FILE for a png", err=True)
                sys.exit(1)
            sys.stdout.write(done.stdout.decode("utf-8", errors="replace"))
            return
        stream.write(done.stdout)
        stream.flush()
        return
    _write_file(target, done.stdout)


# Graphviz's words when a picture is past what its bitmap renderer makes (32,767 pixels a side)
_SHRUNK = re.compile(r"too large for cairo-renderer bitmaps\. Scaling by ([0-9.]+)")


def _write_file(path, data):
    """Write the picture or text to `path` (a usage error naming -o if that fails after all)."""
    try:
        with open(path, "wb") as f:
            f.write(data)
    except OSError as e:
        raise write_failed(e, path, "-o/--output") from None
    click.echo(f"wrote {path}", err=True)
