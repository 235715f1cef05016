"""`autodiff repl`: an interactive prompt. Names live on between lines, blocks
span lines (end them with an empty line), errors are shown and the session
goes on, and history is kept in ~/.autodiff_history when readline exists."""
import os
import re
import sys

import click

from ..grammar.budget import over_budget
from .options import budget_options
from .output import report_error, report_interrupt, warning_printer

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
@budget_options("repl")
def repl_command(dtype, device, seed, **budgets):
    """An interactive session: type statements, see values. Ctrl-D or `exit` leaves."""
    from ..grammar.errors import LanguageError
    from ..grammar.program import Session
    interactive = sys.stdin.isatty()
    if hasattr(sys.stdin, "reconfigure"):  # a byte that is not UTF-8 is a character the parser refuses
        sys.stdin.reconfigure(errors="replace")
    history = _setup_history() if interactive else None
    out = sys.stdout
    printer = click.get_current_context().with_resource(warning_printer())
    reader = _Reader(interactive, budgets["max_line_length"])
    try:
        session = Session(out=out, device=device, dtype=dtype, seed=seed, **budgets)
    except LanguageError as e:
        report_error(e, None)
        sys.exit(1)
    if interactive:
        click.echo("autodiff repl -- PyTorch-style statements; an empty line ends a block; `help` lists the "
                   "functions (`help NAME` shows one); Ctrl-D leaves.")
    try:
        while True:
            try:
                source = reader.statement()
            except LanguageError as e:  # a line past the line budget, or binary input
                report_error(e, None)
                if reader.ended:
                    sys.exit(1)
                continue
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
            except KeyboardInterrupt as stop:  # the statement stops; the session goes on
                report_interrupt(stop, source)
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


class _Reader:
    """The statements typed (or piped in): a line, or several for a block or an open bracket.
    Piped input is read a line at a time, never more than the line budget of it: a longer
    line is an error (its rest skipped), and a line too long with a NUL byte in it is binary
    data, which ends the session."""

    def __init__(self, interactive, max_line_length):
        self.interactive = interactive
        self.limit = max_line_length
        self.ended = False

    def statement(self):
        """One statement's text; None at the end of the input."""
        lines = []
        while True:
            prompt = (">>> " if not lines else "... ") if self.interactive else ""
            try:
                line = input(prompt) if self.interactive else self._piped_line()
            except EOFError:
                if self.interactive:
                    click.echo("")  # Ctrl-D: end the prompt's line, as Python's REPL does
                line = None
            except KeyboardInterrupt:
                click.echo("")
                return ""
            if line is None:
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

    def _piped_line(self):
        """The next line of piped input (None at its end), read at most the line budget at a time."""
        line = sys.stdin.readline(self.limit + 1)
        if not line:
            return None
        if len(line) <= self.limit or line.endswith("\n") and len(line) == self.limit + 1:
            return line
        size, binary = len(line), "\0" in line
        while not binary and not line.endswith("\n"):  # skip the rest of it
            line = sys.stdin.readline(1 << 16)
            if not line:
                break
            size += len(line)
            binary = "\0" in line
        if binary:
            self.ended = True
            raise _input_error(f"this is binary data, not text (a NUL byte in a line of more than {size:,} "
                               f"characters) {over_budget('max_line_length', self.limit)}")
        raise _input_error(f"this line of {size:,} characters is too long to read "
                           f"{over_budget('max_line_length', self.limit)}")


def _input_error(message):
    """An error about the input itself, with no place in a statement."""
    from ..grammar.errors import SyntaxProblem
    error = SyntaxProblem(message, 0)
    error.start = error.end = None
    return error


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
