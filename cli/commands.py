"""A click group that imports a command's module only when that command runs,
so `autodiff eval` does not pay for the imports of `graph` or `repl`."""
import importlib

import click

__all__ = ["LazyGroup"]


class LazyGroup(click.Group):
    def __init__(self, *args, commands=None, **kwargs):
        super().__init__(*args, **kwargs)
        self._lazy = dict(commands or {})

    def list_commands(self, ctx):
        import importlib.util
        present = {name for name, (module, _) in self._lazy.items() if importlib.util.find_spec(module)}
        return sorted(set(super().list_commands(ctx)) | present)

    def get_command(self, ctx, name):
        if name in self._lazy:
            module, attr = self._lazy[name]
            try:
                return getattr(importlib.import_module(module), attr)
            except ModuleNotFoundError as e:
                if e.name == module:
                    return None
                raise
        return super().get_command(ctx, name)
