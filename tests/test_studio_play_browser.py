"""The studio's Play button in a real headless Chromium: the puzzle being edited opens in the
web player (the same script, style sheet and JSON as `nonopress web` pages), and solving it
there says so. The studio's own clues come from the player's clueOf."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")

from studio_support import puzzle_folder, running_studio, studio_tab  # noqa: E402

from nonopress.app.play import reveal  # noqa: E402
from nonopress.studio.config import StudioConfig  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed")


@pytest.fixture(scope="module")
def studio(tmp_path_factory: pytest.TempPathFactory) -> Iterator[StudioConfig]:
    folder = puzzle_folder(tmp_path_factory.mktemp("studio-play"))
    with running_studio(StudioConfig(folder=folder)) as config:
        yield config


@pytest.fixture
def page(browser: Any, studio: StudioConfig) -> Iterator[Any]:
    with studio_tab(browser, studio.url, height=900) as tab:
        yield tab


@pytest.mark.parametrize("name", ["heart.yaml", "colour/ladybird.yaml"])
def test_play_opens_the_puzzle_in_the_web_player(page: Any, name: str, tmp_path: Path) -> None:
    page.click("button[data-tab=library]")
    page.wait_for_selector(f".card[data-label='{name}']")
    page.click(f".card[data-label='{name}']")
    page.wait_for_timeout(500)
    page.click("#play")
    page.wait_for_selector("#play-dialog[open] .np-cell", timeout=60_000)
    player = page.locator("#play-dialog nonopress-puzzle")
    record = player.evaluate("(el) => el.player.data")
    solution = [int(ch, 36) for ch in reveal(record["solution"], record["key"])]
    assert record["hints"]["steps"], "the studio's player has the grader's hints"
    palette = record.get("palette") or [{"name": "filled"}]
    for value in range(1, len(palette) + 1):
        if record["kind"] == "colour":
            page.get_by_role("radio", name=re.compile(f"Paint {palette[value - 1]['name']}")
                             ).click()
        for i, want in enumerate(solution):
            if want == value:
                cell = page.locator(f'#play-dialog .np-cell[data-i="{i}"]')
                cell.scroll_into_view_if_needed()  # the dialog scrolls a tall player
                box = cell.bounding_box()
                page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    # the status is written on the frame after the last paint: waited for, not slept on
    status = page.locator("#play-dialog .np-status")
    page.wait_for_function("(el) => el.innerText.includes('Solved')", arg=status.element_handle(),
                           timeout=10_000)
    assert "Solved" in status.inner_text()
    page.screenshot(path=str(tmp_path / "play.png"))
    page.click("#play-close")
    # the studio's own clue bar still draws (its clueOf is the player's)
    assert page.evaluate("typeof NonopressPlayer.clueOf") == "function"
