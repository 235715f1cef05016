"""`autodiff run`: run a script of statements; print what it prints.

Exit 0 when it finishes, 1 with the file, line, column and message when it
fails (a failed assert included) -- so scripts serve as regression tests.
"""
import sys

import click

from .options import budget_options
from .output import report_error, report_interrupt, warning_printer

__all__ = ["run_command"]


@click.command("run")
@click.version_option(package_name="autodiff-cli", prog_name="autodiff")
@click.argument("script", type=click.File("rb"), required=False)
@click.option("-c", "--code", "code", metavar="CODE", help="Run CODE instead of a file.")
@click.option("--device", type=click.Choice(["cpu", "cuda", "gpu"]), default=None,
              help="Where tensors are created by default.")
@click.option("--dtype", type=click.Choice(["float32", "float64"]), default="float32", show_default=True,
              help="The default floating dtype, PyTorch's unless set (so pasted code prints what PyTorch prints); "
                   "torch.set_default_dtype in the script changes it too.")
@click.option("--seed", type=int, default=None, help="Seed rand/randn before running.")
@budget_options("run")
def run_command(script, code, device, dtype, seed, **budgets):
    """Run SCRIPT ('-' for stdin) or -c CODE: PyTorch-style statements, printing as PyTorch prints.

    \b
    autodiff run checks.ad
    autodiff run -c "x = tensor(2., requires_grad=True); y = x**3; y.backward(); print(x.grad)"
    """
    from ..grammar.budget import in_force
    from ..grammar.limits import read_source
    if script is None and code is None:
        raise click.UsageError("give a SCRIPT file ('-' for stdin) or -c CODE")
    if script is not None and code is not None:
        raise click.UsageError("give a SCRIPT file or -c CODE, not both")
    if code is not None:
        source, name = code, "<code>"
    else:
        name = getattr(script, "name", "<stdin>")
        name = "<stdin>" if name in ("<stdin>", "-") or not isinstance(name, str) else name
        with in_force(max_program_length=budgets["max_program_length"]):
            source, bad_bytes = read_source(script)
        if bad_bytes is not None:
            report_error(bad_bytes, source, name)
            sys.exit(1)
    sys.exit(run_source(source, name, device=device, dtype=dtype, seed=seed, **budgets))


def run_source(source, name, device=None, dtype="float32", seed=None, out=None, **budgets):
    """Run a script; the exit status (0 ok, 1 failed, 130 Ctrl-C). Output goes to `out` (stdout).
    `dtype`: the default floating dtype while it runs (PyTorch's float32 unless given);
    `budgets`: as Session takes them."""
    from ..grammar.errors import LanguageError
    from ..grammar.program import Session
    stdout = out if out is not None else sys.stdout
    with warning_printer() as printer:
        printer.source, printer.where = source, name
        try:
            session = Session(out=stdout, device=device, dtype=dtype, seed=seed, **budgets)
        except LanguageError as e:
            report_error(e, None)
            return 1
        try:
            session.run(source)
        except LanguageError as e:
            stdout.flush()
            report_error(e, source, name)
            return 1
        except KeyboardInterrupt as stop:
            report_interrupt(stop, source, name)
            return 130
        finally:
            session.close()
            stdout.flush()
    return 0
