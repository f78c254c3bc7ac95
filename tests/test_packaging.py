"""What ``pip install .`` (not editable) puts in site-packages: every package of the tree.

``grader.authoring`` was once missing from the list, so ``nonopress make`` worked from a
checkout and failed with ``No module named 'grader.authoring'`` after a plain install.
"""

from __future__ import annotations

from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib", reason="tomllib is Python 3.11+")

ROOT = Path(__file__).resolve().parents[1]
TOP_LEVEL = ("grader", "layout", "words", "nonopress")


def _configured() -> dict[str, object]:
    with (ROOT / "pyproject.toml").open("rb") as handle:
        return tomllib.load(handle)


def test_every_package_in_the_tree_is_installed() -> None:
    listed = set(_configured()["tool"]["setuptools"]["packages"])  # type: ignore[index]
    in_tree = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for top in TOP_LEVEL
        for init in (ROOT / top).rglob("__init__.py")
    }
    assert in_tree - listed == set()


def test_the_command_is_the_application_layers_entry_point() -> None:
    scripts = _configured()["project"]["scripts"]  # type: ignore[index]
    assert scripts == {"nonopress": "nonopress.cli:entry_point"}
    module, _, function = scripts["nonopress"].partition(":")
    namespace: dict[str, object] = {}
    exec(f"from {module} import {function}", namespace)
    assert callable(namespace[function])
