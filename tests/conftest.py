"""Shared test fixtures: where the public corpus and the project's library live, the bundled
issues' sites, and one headless Chromium a browser module."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

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


@pytest.fixture(scope="module")
def sample(issue_site: Callable[[str], Path]) -> Path:
    """The bundled sample issue's site."""
    return issue_site("sample.yaml")


@pytest.fixture(scope="module")
def colour_site(issue_site: Callable[[str], Path]) -> Path:
    return issue_site("colour-sample.yaml")


@pytest.fixture(scope="module")
def words_site(issue_site: Callable[[str], Path]) -> Path:
    return issue_site("words-and-pictures.yaml")


@pytest.fixture(scope="module")
def mosaic_site(issue_site: Callable[[str], Path]) -> Path:
    return issue_site("mosaic-sample.yaml")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's headless ``chromium`` driven by Playwright, one a module (skips without it)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    executable = shutil.which("chromium") or shutil.which("chromium-browser")
    if executable is None:
        pytest.skip("Chromium is not installed (Debian package chromium)")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=executable)
        yield chromium
        chromium.close()


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    """A desktop browser context (1100x900) whose pages may raise no script error: any
    uncaught one fails the test that used it."""
    ctx = browser.new_context(viewport={"width": 1100, "height": 900})
    errors: list[str] = []
    ctx.on("weberror", lambda error: errors.append(str(error.error)))
    yield ctx
    ctx.close()
    assert errors == []
