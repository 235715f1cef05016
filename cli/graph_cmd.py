"""`autodiff graph`: the graph of one job, as text, JSON, Graphviz DOT, SVG or PNG."""
import shutil
import subprocess
import sys

import click

from .output import report_error, warning_printer, dumps

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
@click.option("-o", "--output", "output", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Write to FILE instead of stdout (svg/png go to graph.svg/graph.png when not given).")
@click.option("--backward", is_flag=True, help="Run backward first and show each node's grad.")
@click.option("--dtype", type=click.Choice(["float64", "float32"]), default=None)
@click.option("--seed", type=int, default=None)
def graph_command(expr, bindings, sets, fmt, output, backward, dtype, seed):
    """The forward and backward graph of EXPR: nodes (MulBackward0, AccumulateGrad), edges, values.

    \b
    autodiff graph "y = (w + x) * (w + 1); y" w=1 x=2 --backward
    autodiff graph "a*x**2+b*x+c" a=1 b=-2 c=1 x=0 --format dot | dot -Tpng > graph.png
    autodiff graph "a*x**2+b*x+c" a=1 b=-2 c=1 x=0 --format svg -o graph.svg
    """
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
    try:
        result = run_graph_job(expr, pairs, backward=backward, options=JobOptions(dtype=dtype, seed=seed))
    except LanguageError as e:
        report_error(e, expr)
        sys.exit(1)
    graph = describe_graph(result.graph, result.variables, expr, result.produced, result.names)
    if fmt in ("text", "json", "dot"):
        text = dumps(graph) + "\n" if fmt == "json" else render(graph, fmt)
        if output:
            with open(output, "w", encoding="utf-8") as f:
                f.write(text)
            click.echo(f"wrote {output}", err=True)
        else:
            sys.stdout.write(text)
        return
    source = render(graph, "dot")
    target = output or f"graph.{fmt}"
    try:
        done = subprocess.run([dot, f"-T{fmt}", "-o", target], input=source.encode(), capture_output=True,
                              timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        click.echo(f"error: running Graphviz failed: {e}", err=True)
        sys.exit(1)
    if done.returncode != 0:
        click.echo(f"error: Graphviz could not render the graph: {done.stderr.decode(errors='replace').strip()}",
                   err=True)
        sys.exit(1)
    click.echo(f"wrote {target}", err=True)
