"""`autodiff minimize`: find the variables that make f smallest, with SGD or Adam."""
import sys

import click

from .options import ExpressionCommand, SEED, budget_options
from .output import format_array, json_value, dumps, report_error, warning_printer

__all__ = ["minimize_command"]


@click.command("minimize", cls=ExpressionCommand)
@click.version_option(package_name="autodiff-cli", prog_name="autodiff")
@click.argument("expr")
@click.argument("bindings", nargs=-1)
@click.option("--init", "inits", multiple=True, metavar="NAME=VALUE", required=True,
              help="A variable to optimise and its starting value (repeatable).")
@click.option("--optimizer", type=click.Choice(["sgd", "adam"]), default="sgd", show_default=True)
@click.option("--lr", type=click.FloatRange(0),  default=0.01, show_default=True, help="Learning rate.")
@click.option("--steps", type=click.IntRange(0), default=1000, show_default=True, help="The most updates made.")
@click.option("--tol", type=click.FloatRange(0), default=1e-10, show_default=True,
              help="Stop once the largest |gradient| is at most this.")
@click.option("--momentum", type=click.FloatRange(0), default=0.0, show_default=True, help="SGD momentum.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Same as --format json.")
@click.option("--precision", type=click.IntRange(1, 17), default=6, show_default=True)
@click.option("--dtype", type=click.Choice(["float64", "float32"]), default=None)
@click.option("--seed", type=SEED, default=None, help="Seed rand/randn (as torch.manual_seed) for f and --init.")
@budget_options("minimize")
def minimize_command(expr, bindings, inits, optimizer, lr, steps, tol, momentum, fmt, as_json, precision, dtype,
                     seed, **budgets):
    """Minimise EXPR over the --init variables using the engine's gradients.

    \b
    autodiff minimize "x**2 - 2*x + 1" --init x=0 --lr 0.01 --steps 500
    autodiff minimize "(a-3)**2 + (b+1)**2" --init a=0 --init b=0 --optimizer adam --lr 0.1
    """
    from .. import engine as E
    from ..grammar.errors import LanguageError
    from ..grammar.job import parse_binding
    from ..grammar.minimize import minimize
    expr = expr.strip()
    try:
        init_pairs = [parse_binding(t) for t in inits]
        pairs = [parse_binding(t) for t in bindings]
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="NAME=VALUE")
    as_json = as_json or fmt == "json"
    printer = click.get_current_context().with_resource(warning_printer())
    printer.source = expr
    previous = E.get_default_dtype()
    if dtype:
        E.set_default_dtype(dtype)
    bar = None
    try:
        if sys.stderr.isatty() and steps > 0:
            bar = click.progressbar(length=steps, label="minimizing", file=sys.stderr)
            bar.__enter__()

        def progress(k, f):
            bar.update(1)

        result = minimize(expr, init_pairs, pairs, optimizer=optimizer, lr=lr, steps=steps, tol=tol,
                          momentum=momentum, on_step=progress if bar is not None else None, seed=seed, **budgets)
    except LanguageError as e:
        if bar is not None:
            bar.__exit__(None, None, None)
        if as_json:
            from .output import error_json
            click.echo(dumps({"expr": expr, "error": error_json(e, expr)}))
        else:
            report_error(e, expr)
        sys.exit(1)
    finally:
        E.set_default_dtype(previous)
    if bar is not None:
        bar.__exit__(None, None, None)
    if as_json:
        obj = {"expr": expr, "minimizer": {k: json_value(v) for k, v in result.minimizer.items()},
               "value": json_value(result.value), "steps": result.steps, "converged": result.converged,
               "optimizer": optimizer, "lr": lr}
        if result.stopped is not None:
            obj["stopped"] = result.stopped
        click.echo(dumps(obj))
    else:
        for name, v in result.minimizer.items():
            prefix = f"{name} = "
            click.echo(prefix + format_array(v, precision, prefix=prefix))
        click.echo(f"f = {format_array(result.value, precision)}")
        state = _STATES[result.stopped] if result.stopped else \
            "converged" if result.converged else "step limit reached"
        click.echo(f"steps = {result.steps} ({optimizer}, lr {lr}; {state})")
    if result.stopped in ("nan", "inf"):
        what = "nan" if result.stopped == "nan" else "infinite"
        click.echo(f"error: f or its gradient became {what} after {result.steps} steps (at the point shown), "
                   f"so minimize stopped", err=True)
        click.echo("  hint: try a smaller --lr, or a starting point where f is finite", err=True)
        sys.exit(1)
    if result.stopped == "interrupted":
        sys.exit(130)


_STATES = {"nan": "f became nan", "inf": "f became infinite", "interrupted": "interrupted"}
