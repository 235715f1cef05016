"""`autodiff repl`: an interactive prompt. Names live on between lines, blocks
span lines (end them with an empty line), errors are shown and the session
goes on, and history is kept in ~/.autodiff_history when readline exists."""
import os
import re
import sys

import click

from .output import report_error, warning_printer

__all__ = ["repl_command"]

_EXIT_WORDS = {"exit", "quit", "exit()", "quit()"}
# `help`, `help()`, `help sin`, `help(sin)`, `help("torch.linalg.det")`, `help(x.sum)`: the catalogue
_HELP = re.compile(r"""help(?:\s*\(\s*(['"]?)([\w.]*)\1\s*\)|\s+(['"]?)([\w.]+)\3)?\s*;?""")


@click.command("repl")
@click.version_option(package_name="autodiff-cli", prog_name="autodiff")
@click.option("--dtype", type=click.Choice(["float32", "float64"]), default="float32", show_default=True,
              help="The default floating dtype (PyTorch's unless set, as in `autodiff run`).")
@click.option("--device", type=click.Choice(["cpu", "cuda", "gpu"]), default=None)
@click.option("--seed", type=int, default=None)
@click.option("--max-steps", type=click.IntRange(1), default=100_000_000, show_default=True)
def repl_command(dtype, device, seed, max_steps):
    """An interactive session: type statements, see values. Ctrl-D or `exit` leaves."""
    from ..grammar.errors import LanguageError
    from ..grammar.program import Session
    interactive = sys.stdin.isatty()
    history = _setup_history() if interactive else None
    out = sys.stdout
    printer = click.get_current_context().with_resource(warning_printer())
    try:
        session = Session(out=out, max_steps=max_steps, device=device, dtype=dtype, seed=seed)
    except LanguageError as e:
        report_error(e, None)
        sys.exit(1)
    if interactive:
        click.echo("autodiff repl -- PyTorch-style statements; an empty line ends a block; `help` lists the "
                   "functions (`help NAME` shows one); Ctrl-D leaves.")
    try:
        while True:
            source = _read_statement(interactive)
            if source is None:
                break
            if source.strip() in _EXIT_WORDS:
                break
            if not source.strip():
                continue
            asked = _help_request(source)
            if asked is not None:
                from .functions_cmd import help_text
                out.write(help_text(asked))
                out.flush()
                continue
            printer.source, printer.where = source, "<repl>"
            try:
                value = session.run(source, echo=True)
            except LanguageError as e:
                out.flush()
                report_error(e, source)
                continue
            except MemoryError as e:
                click.echo(f"error: out of memory ({e})", err=True)
                continue
            except KeyboardInterrupt:
                click.echo("interrupted", err=True)
                continue
            if value is not None:
                out.write(repr(value) + "\n")
            out.flush()
    finally:
        session.close()
        if history:
            history()


def _help_request(source):
    """The name `help NAME` / `help(NAME)` asks about ("" for plain `help`); None when the line is not help."""
    match = _HELP.fullmatch(source.strip())
    if match is None:
        return None
    return match.group(2) or match.group(4) or ""


def _read_statement(interactive):
    """One statement's text: a line, or several for a block or an open bracket; None at the end."""
    lines = []
    while True:
        prompt = (">>> " if not lines else "... ") if interactive else ""
        try:
            line = input(prompt) if interactive else sys.stdin.readline()
        except EOFError:
            line = None
        except KeyboardInterrupt:
            click.echo("")
            return ""
        if line is None or (not interactive and line == ""):
            return "\n".join(lines) if lines else None
        line = line.rstrip("\n")
        lines.append(line)
        text = "\n".join(lines)
        if lines[0].rstrip().endswith(":"):
            if line.strip() == "":  # an empty line ends a block
                return text
            continue
        if _unfinished(text):
            continue
        return text


def _unfinished(text):
    """True while brackets are open (the statement goes on on the next line)."""
    from ..grammar.errors import SyntaxProblem
    from ..grammar.parser import parse
    try:
        parse(text)
    except SyntaxProblem as e:
        return e.at_end
    return False


def _setup_history():
    try:
        import readline
    except ImportError:
        return None
    path = os.path.join(os.path.expanduser("~"), ".autodiff_history")
    try:
        readline.read_history_file(path)
    except OSError:
        pass
    readline.set_history_length(1000)

    def save():
        try:
            readline.write_history_file(path)
        except OSError:
            pass
    return save
