"""The install ships every package: a folder of code left out of pyproject.toml's
package list works in an editable checkout and breaks `pip install .`."""
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    tomllib = pytest.importorskip("tomli")


def test_every_code_folder_is_a_listed_package():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = dict(config["package-dir"])
    assert sorted(config["packages"]) == sorted(listed)
    folders = {str(p.parent.relative_to(ROOT)) for top in ("engine", "grammar", "cli")
               for p in (ROOT / top).rglob("__init__.py") if "__pycache__" not in p.parts}
    assert folders == set(listed.values())


def test_the_pytest_plugin_is_registered():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert config["entry-points"]["pytest11"] == {"autodiff": "autodiff.cli.pytest_plugin"}
