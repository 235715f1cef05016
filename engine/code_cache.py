"""Compiled code of the source the engine writes at import (the public functions made from the
rows' signatures), kept between runs the way Python keeps a module's bytecode in __pycache__.

Compiling ~190 generated functions cost every cold start 15 ms, a tenth of it; loading their code
objects back costs well under a millisecond. The cache is keyed by the source text itself, so a
changed signature or generator simply misses and compiles; the file is tagged with the
interpreter's bytecode magic number, so another Python version never reads it. It is written only
where Python would write bytecode (not under PYTHONDONTWRITEBYTECODE / -B, not into a read-only
install), atomically, and any problem reading or writing it only means compiling as before.
"""
import importlib.util
import marshal
import os
import sys

__all__ = ["compiled", "save"]

_PATH = os.path.join(os.path.dirname(__file__), "__pycache__",
                     f"generated-functions.{sys.implementation.cache_tag}.marshal")
_MAGIC = importlib.util.MAGIC_NUMBER

_loaded = None  # source -> code object, as read from the file
_used = {}      # source -> code object, what this run compiled or took (what save() writes)


def _load():
    global _loaded
    _loaded = {}
    try:
        with open(_PATH, "rb") as f:
            data = f.read()
        if data[:len(_MAGIC)] == _MAGIC:
            table = marshal.loads(data[len(_MAGIC):])
            if isinstance(table, dict):
                _loaded = table
    except (OSError, ValueError, EOFError, TypeError):
        pass


def compiled(source, filename):
    """The code object of module-level `source` (as compile(source, filename, "exec") gives)."""
    if _loaded is None:
        _load()
    key = (source, filename)
    code = _loaded.get(key)
    if code is None:
        code = compile(source, filename, "exec")
    _used[key] = code
    return code


def save():
    """Write what this run used, if anything was compiled anew (and Python writes bytecode here)."""
    if _loaded is None or sys.dont_write_bytecode or _used.keys() == _loaded.keys():
        return
    temporary = f"{_PATH}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(_PATH), exist_ok=True)
        with open(temporary, "wb") as f:
            f.write(_MAGIC + marshal.dumps(_used))
        os.replace(temporary, _PATH)
    except OSError:
        try:
            os.unlink(temporary)
        except OSError:
            pass
