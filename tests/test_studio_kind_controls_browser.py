"""The studio offers what a puzzle's kind supports, as its registry entry says, in a real
headless Chromium: "Use givens instead" stands aside on a mosaic (its entry: ``givens``
False) and comes back on a nonogram; a kind whose entry says ``editor=False`` is listed in
the library but not opened in the editor, and the API refuses to open it."""

from __future__ import annotations

import dataclasses
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("playwright.sync_api")

from studio_support import client, running_studio, studio_tab
from test_studio_browser import CHROMIUM, wait_verdict

from grader.kinds import registry
from nonopress.studio.config import StudioConfig

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed")

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def studio(tmp_path_factory: pytest.TempPathFactory) -> Iterator[StudioConfig]:
    folder = tmp_path_factory.mktemp("studio-kinds") / "work"
    folder.mkdir()
    shutil.copy(ROOT / "puzzles" / "heart.yaml", folder / "heart.yaml")
    shutil.copy(ROOT / "puzzles" / "mosaic" / "heart.yaml", folder / "heart-mosaic.yaml")
    with running_studio(StudioConfig(folder=folder)) as config:
        yield config


@pytest.fixture
def page(browser: Any, studio: StudioConfig) -> Iterator[Any]:
    with studio_tab(browser, studio.url) as tab:
        yield tab


def open_card(page: Any, label: str) -> None:
    page.click("button[data-tab=library]")
    page.click(f".card[data-label='{label}']")
    wait_verdict(page, "unique")


@pytest.fixture
def mosaic_not_edited(monkeypatch: pytest.MonkeyPatch) -> None:
    """The mosaic's registry entry with ``editor=False`` (the server runs in this process)."""
    mosaic = registry.BY_TAG["mosaic"]
    closed = dataclasses.replace(mosaic, editor=False)
    monkeypatch.setattr(registry, "KINDS",
                        tuple(closed if entry is mosaic else entry for entry in registry.KINDS))
    monkeypatch.setitem(registry.BY_TAG, "mosaic", closed)


def test_use_givens_stands_aside_on_a_mosaic_and_returns_on_a_nonogram(page: Any) -> None:
    givens = page.locator("#use-givens")
    open_card(page, "heart.yaml")
    assert givens.is_visible() and givens.is_enabled()
    open_card(page, "heart-mosaic.yaml")
    page.wait_for_function("() => __studio.cellClues !== null")
    assert not givens.is_visible()
    # nor do the keys the page lists offer them
    assert page.locator("#key-unique").inner_text() == "U"
    assert page.locator("#key-unique-does").inner_text() == "make unique"
    page.keyboard.press("g")  # its key proposes nothing either: the proposal stays shut
    assert page.locator("#proposal").is_hidden()
    open_card(page, "heart.yaml")
    assert givens.is_visible() and givens.is_enabled()
    assert page.locator("#key-unique").inner_text() == "U / G"


def test_a_kind_whose_entry_says_no_editor_is_listed_but_not_opened(
        page: Any, studio: StudioConfig, mosaic_not_edited: None) -> None:
    open_card(page, "heart.yaml")
    page.click("button[data-tab=library]")
    card = page.locator(".card[data-label='heart-mosaic.yaml']")
    card.wait_for()
    assert "not-editable" in (card.get_attribute("class") or "")
    assert "not edited in the studio" in card.inner_text()
    card.click()
    page.wait_for_timeout(500)
    # the library stays in front, and the editor still holds the nonogram
    assert page.locator("#tab-library").evaluate("e => e.classList.contains('active')")
    assert page.evaluate("__studio.cellClues") is None
    assert page.locator(".card[data-label='heart.yaml']").get_attribute("class") == "card"
    with client(studio) as http:
        listed = {e["label"]: e for e in http.get("/api/puzzles").json()["entries"]}
        assert listed["heart-mosaic.yaml"]["editable"] is False
        assert listed["heart.yaml"]["editable"] is True
        refused = http.get("/api/puzzle", params={"path": "heart-mosaic.yaml"})
        assert refused.status_code == 400
        assert "heart-mosaic.yaml" in refused.json()["error"]
        sent = http.post("/api/check", json={"kind": "mosaic", "clues": ["1.", ".."]})
        assert sent.status_code == 400 and "mosaic" in sent.json()["error"]
