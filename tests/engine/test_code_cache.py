"""The generated public functions' code is kept between runs (engine/code_cache.py): a second
import compiles nothing, and a damaged or foreign cache file only means compiling again."""
import os
import subprocess
import sys

import pytest

from autodiff.engine import code_cache

_REPORT = ("import autodiff.engine.code_cache as c, autodiff.engine as E; E.tensor; "  # (the public names load on first read)
           "print(len(c._used), sum(k in c._loaded for k in c._used))")


def _import_in_fresh_process():
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    out = subprocess.run([sys.executable, "-c", _REPORT], env=env, capture_output=True, text=True, check=True)
    used, cached = map(int, out.stdout.split())
    return used, cached


@pytest.fixture
def cache_file():
    """The real cache file, restored afterwards (these tests damage it on purpose)."""
    path = code_cache._PATH
    saved = open(path, "rb").read() if os.path.exists(path) else None
    yield path
    if saved is not None:
        with open(path, "wb") as f:
            f.write(saved)


def _writable(path):
    folder = os.path.dirname(path)
    return os.access(folder if os.path.isdir(folder) else os.path.dirname(folder), os.W_OK)


def test_second_import_compiles_nothing(cache_file):
    if not _writable(cache_file):
        pytest.skip("the package folder is read-only here: the cache is not written (as Python's bytecode)")
    _import_in_fresh_process()
    used, cached = _import_in_fresh_process()
    assert used > 150          # every public function written from a row's signature
    assert cached == used


@pytest.mark.parametrize("damage", [b"", b"not a cache", b"\x00" * 64])
def test_damaged_cache_is_rebuilt(cache_file, damage):
    if not _writable(cache_file):
        pytest.skip("the package folder is read-only here")
    with open(cache_file, "wb") as f:
        f.write(code_cache._MAGIC + damage if damage else damage)
    used, cached = _import_in_fresh_process()
    assert cached == 0 and used > 150
    assert _import_in_fresh_process() == (used, used)


def test_cached_code_is_the_compiled_code():
    source = "def twice(x):\n    return 2 * x\n"
    namespace = {}
    exec(code_cache.compiled(source, "<test>"), namespace)
    assert namespace["twice"](21) == 42
