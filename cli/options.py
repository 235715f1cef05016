"""Option types shared by the commands: each checks its value and fails as a
usage error (exit 2) that names the option."""
import difflib
import os

import click

__all__ = ["MemorySize", "DEFAULT_MAX_MEMORY_TEXT", "SEED", "Jobs", "ExpressionCommand", "JsonUsageError",
           "expression_first"]

DEFAULT_MAX_MEMORY_TEXT = "4G"


class Jobs(click.ParamType):
    """A number of worker processes, or `auto` for one per core."""

    name = "N|auto"

    def convert(self, value, param, ctx):
        if isinstance(value, int):
            return value
        if str(value).strip().lower() == "auto":
            return os.cpu_count() or 1
        try:
            n = int(value)
        except ValueError:
            self.fail(f"{value!r} is not a number of processes or 'auto'", param, ctx)
        if n < 1:
            self.fail(f"{n} is not at least 1", param, ctx)
        return n


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


def expression_first(args, table):
    """args with every option before a `--` and every argument after it, so an
    expression that starts with '-' (`-x**2`) is an argument, not an option.

    A word is an option when it is one of the command's (or `--name=value`, or a
    short option with its value attached, `-ofile`); a word of the form `--name`
    that the command lacks stays an option too, so click says it does not exist.
    Any other word that starts with '-' is an expression. Option values are left
    with their options (`--lr -0.1`)."""
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
            if table[name] and not attached and i < len(args):
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
            return super().parse_args(ctx, expression_first(args, _option_table(self, ctx)))
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
