"""Shared test fixtures: where the public corpus and the project's library live."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: The public corpus beside the repository (``../shared/corpus``); tests skip without it.
CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
LIBRARY = ROOT / "puzzles"


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    if not CORPUS.is_dir():
        pytest.skip(f"the public corpus is not at {CORPUS}")
    return CORPUS


#: the bundled issues (``nonopress web`` publishes each as a site)
ISSUES = LIBRARY / "issues"


@pytest.fixture(scope="session")
def issue_site(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """``issue_site("sample.yaml")``: the bundled issue's site, built once a session (with
    one grade cache) for every test that reads or plays it."""
    from nonopress.cli import main

    folder = tmp_path_factory.mktemp("issue-sites")
    built: dict[str, Path] = {}

    def site(manifest: str) -> Path:
        if manifest not in built:
            out = folder / manifest.removesuffix(".yaml")
            assert main(["web", str(ISSUES / manifest), "-o", str(out), "-q",
                         "--cache-dir", str(folder)]) == 0
            built[manifest] = out
        return built[manifest]

    return site
