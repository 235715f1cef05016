"""Option types shared by the commands: each checks its value and fails as a
usage error (exit 2) that names the option."""
import click

__all__ = ["MemorySize", "DEFAULT_MAX_MEMORY_TEXT"]

DEFAULT_MAX_MEMORY_TEXT = "4G"


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
