"""Option types shared by the commands: each checks its value and fails as a
usage error (exit 2) that names the option."""
import difflib
import os

import click

__all__ = ["MemorySize", "OutputPath", "unwritable", "write_failed", "SEED", "Jobs", "ExpressionCommand",
           "JsonUsageError", "expression_first", "budget_options", "JOBS_HELP", "most_jobs"]


JOBS_PER_CORE = 4  # the most worker processes per core --jobs starts: more would only share the cores


def most_jobs():
    return JOBS_PER_CORE * (os.cpu_count() or 1)


class Jobs(click.ParamType):
    """A number of worker processes, or `auto` for one per core; at most JOBS_PER_CORE per core
    (a larger number is taken as that many)."""

    name = "N|auto"

    def convert(self, value, param, ctx):
        if isinstance(value, int):
            return min(value, most_jobs())
        if str(value).strip().lower() == "auto":
            return os.cpu_count() or 1
        try:
            n = int(value)
        except ValueError:
            self.fail(f"{value!r} is not a number of processes or 'auto'", param, ctx)
        if n < 1:
            self.fail(f"{n} is not at least 1", param, ctx)
        return min(n, most_jobs())


JOBS_HELP = (f"at most {JOBS_PER_CORE} per core ({most_jobs()} here), and never more processes than there is work "
             "for")


class OutputPath(click.ParamType):
    """A file to write, checked before any work is done: its folder exists and may be written in,
    and it is not a folder itself. `-` (stdout) passes as it is."""

    name = "file"

    def convert(self, value, param, ctx):
        if value == "-":
            return value
        problem = unwritable(value)
        if problem:
            self.fail(f"cannot write {value!r}: {problem}", param, ctx)
        return value


def unwritable(path):
    """Why `path` cannot be written ('no such folder ...'), or None when it looks writable."""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        return "it is a folder"
    if not os.path.isdir(folder):
        return f"there is no folder {os.path.dirname(path) or '.'!r}"
    if os.path.exists(path):
        if not os.access(path, os.W_OK):
            return "permission denied"
    elif not os.access(folder, os.W_OK | os.X_OK):
        return f"the folder {os.path.dirname(path) or '.'!r} cannot be written in"
    return None


def write_failed(error, path, option):
    """The usage error (exit 2) for an output file that could not be written after all."""
    return click.BadParameter(f"cannot write {path!r}: {error.strerror or error}", param_hint=option)


# a seed as torch.manual_seed takes it: negative ones included
SEED = click.IntRange(-(1 << 63), (1 << 64) - 1)


class MemorySize(click.ParamType):
    """A number of bytes written as 4G, 512M, 100000000."""

    name = "size"

    def convert(self, value, param, ctx):
        if isinstance(value, int):
            return value
        from ..grammar.budget import parse_size
        try:
            return parse_size(value)
        except ValueError as e:
            self.fail(str(e), param, ctx)


def _size_text(n):
    """4294967296 as 4G: how --help shows a memory default."""
    for unit, size in (("T", 1 << 40), ("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if n % size == 0:
            return f"{n // size}{unit}"
    return str(n)


def budget_options(command):
    """Decorator: the budget options a command takes (--max-steps, --max-memory, ...), each
    made from its row of the table in grammar/budget.py, with the command's default."""
    from ..grammar.budget import BUDGETS, default as default_of

    def decorate(f):
        for b in reversed(BUDGETS):
            if command not in b.commands:
                continue
            default = default_of(b, command)
            if b.kind == "size":
                kind, default = MemorySize(), _size_text(default)
            elif b.kind == "seconds":
                kind = click.FloatRange(0, min_open=True)
            else:
                kind = click.IntRange(1, b.most)
            f = click.option(b.option, b.key, type=kind, default=default, show_default=True,
                             help=b.what[0].upper() + b.what[1:] + ".")(f)
        return f
    return decorate


# ------------------------------------------------------------ expression commands

def _option_table(command, ctx):
    """{'--lr': True, '--json': False, ...}: each option string and whether it takes a value."""
    table = {}
    for param in command.get_params(ctx):
        if isinstance(param, click.Option):
            takes_value = not (param.is_flag or param.count)
            for name in param.opts + param.secondary_opts:
                table[name] = takes_value
    return table


def expression_first(args, table, ctx=None):
    """args with every option before a `--` and every argument after it, so an
    expression that starts with '-' (`-x**2`) is an argument, not an option.

    A word is an option when it is one of the command's (or `--name=value`, or a
    short option with its value attached, `-ofile`); a word of the form `--name`
    that the command lacks stays an option too, so click says it does not exist.
    Any other word that starts with '-' is an expression. Option values are left
    with their options (`--lr -0.1`); an option that takes a value but comes last,
    without one, is a usage error here (click would take the `--` for its value)."""
    options, arguments = [], []
    i = 0
    while i < len(args):
        word = args[i]
        i += 1
        if word == "--":
            arguments.extend(args[i:])
            break
        if not word.startswith("-") or word == "-":
            arguments.append(word)
            continue
        name = word.split("=", 1)[0] if word.startswith("--") else word[:2]
        if name in table:
            options.append(word)
            attached = "=" in word if word.startswith("--") else len(word) > 2
            if table[name] and not attached:
                if i >= len(args):
                    raise click.BadOptionUsage(name, f"Option '{name}' requires an argument.", ctx)
                options.append(args[i])
                i += 1
        elif word.startswith("--") and name[2:3].isalpha():
            options.append(word)  # an unknown long option: click's "No such option"
        else:
            arguments.append(word)
    return options + ["--"] + arguments


def _wants_json(args):
    for i, word in enumerate(args):
        if word == "--":
            return False
        if word in ("--json", "--format=json") or (word == "--format" and args[i + 1:i + 2] == ["json"]):
            return True
    return False


class JsonUsageError(click.UsageError):
    """A usage error shown as one JSON object on stdout (the command was asked for
    --json, so whatever reads its output reads this too); exit 2."""

    def __init__(self, error):
        super().__init__(error.format_message(), getattr(error, "ctx", None))
        param = getattr(error, "param", None)
        hint = getattr(error, "param_hint", None)
        if hint is None and param is not None and getattr(error, "ctx", None) is not None:
            hint = param.get_error_hint(error.ctx)
        if hint is None:
            hint = getattr(error, "option_name", None)  # an option without its value
        self.option = hint.replace("'", "") if isinstance(hint, str) else None

    def show(self, file=None):
        import json
        error = {"type": "UsageError", "message": self.format_message()}
        if self.option:
            error["option"] = self.option
        click.echo(json.dumps({"error": error}))


_NEAR_MISS = 0.7  # how alike a mistyped option and a real one must be for "did you mean"


class ExpressionCommand(click.Command):
    """A command whose first argument is an expression: an expression may start
    with '-' (see `expression_first`), and with --json a usage error is JSON."""

    def prepare_args(self, ctx, args):
        """Hook for a command's own rewriting of its words, before the split."""
        return args

    def parse_args(self, ctx, args):
        args = self.prepare_args(ctx, list(args))
        json_wanted = _wants_json(args)
        try:
            return super().parse_args(ctx, expression_first(args, _option_table(self, ctx), ctx))
        except click.UsageError as e:
            if isinstance(e, click.NoSuchOption) and e.possibilities:
                # click suggests any option 60% alike (--bogus: "did you mean --jobs?"); only near misses
                e.possibilities = [p for p in e.possibilities
                                   if difflib.SequenceMatcher(None, e.option_name, p).ratio() >= _NEAR_MISS]
            if json_wanted:
                raise JsonUsageError(e) from None
            raise

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except click.UsageError as e:
            if ctx.params.get("as_json") or ctx.params.get("fmt") == "json":
                raise JsonUsageError(e) from None
            raise
