"""The studio's editor on a mosaic, in a real headless Chromium (as test_studio_browser.py):
a bundled mosaic opens with its digits in its cells, a clue is changed by the keys and the
live verdict follows, Make unique shows clues until the puzzle is unique (proved again
here by the engine, not only read off the page), and Easier and Harder steer it by its
clues. Screenshots land in the same folder as the other studio tests'."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")

from studio_support import running_studio, studio_tab  # noqa: E402
from test_studio_browser import (  # noqa: E402
    AMBER,
    CHROMIUM,
    DARK_AMBER,
    WHITE,
    near,
    screenshot,
    wait_verdict,
)

from grader import mosaic  # noqa: E402
from grader.mosaic_model import MosaicPuzzle  # noqa: E402
from nonopress.studio.config import StudioConfig  # noqa: E402

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed")

ROOT = Path(__file__).resolve().parents[1]
HEART = ROOT / "puzzles" / "mosaic" / "heart.yaml"
PALE = (174, 182, 198)   # a filled cell under a digit: the picture pale, the digit readable


@pytest.fixture(scope="module")
def studio(tmp_path_factory: pytest.TempPathFactory) -> Iterator[StudioConfig]:
    folder = tmp_path_factory.mktemp("studio-mosaic") / "work"
    folder.mkdir()
    shutil.copy(HEART, folder / "heart-mosaic.yaml")
    with running_studio(StudioConfig(folder=folder)) as config:
        yield config


@pytest.fixture
def page(browser: Any, studio: StudioConfig) -> Iterator[Any]:
    with studio_tab(browser, studio.url) as tab:
        yield tab


def open_heart(page: Any) -> None:
    page.click("button[data-tab=library]")
    page.click(".card[data-label='heart-mosaic.yaml']")
    wait_verdict(page, "unique")


def clue_rows(page: Any) -> list[str]:
    rows: list[str] = page.evaluate("__studio.clueRows()")
    return rows


def pick(page: Any, r: int, c: int) -> None:
    box = page.locator("#grid").bounding_box()
    g = page.evaluate("({left: __studio.board.left, top: __studio.board.top, "
                      "cell: __studio.board.cell})")
    page.mouse.click(box["x"] + g["left"] + (c + 0.5) * g["cell"],
                     box["y"] + g["top"] + (r + 0.5) * g["cell"])


def corner(shot: Any, page: Any, r: int, c: int) -> tuple[int, int, int]:
    """The colour near a cell's top left corner, clear of its digit and its rules."""
    box = page.locator("#grid").bounding_box()
    g = page.evaluate("({left: __studio.board.left, top: __studio.board.top, "
                      "cell: __studio.board.cell})")
    x = box["x"] + g["left"] + (c + 0.22) * g["cell"]
    y = box["y"] + g["top"] + (r + 0.22) * g["cell"]
    value: tuple[int, int, int] = shot.getpixel((int(x), int(y)))
    return value


def wait_proposal(page: Any) -> str:
    page.wait_for_selector("#proposal:not([hidden])", timeout=120_000)
    text: str = page.inner_text("#proposal-text")
    return text


def wait_graded(page: Any) -> None:
    page.wait_for_function("() => document.getElementById('level').textContent !== '–' && "
                           "!document.getElementById('grade-box').classList.contains('stale')",
                           timeout=60_000)


def test_edit_a_clue_see_multiple_make_unique(page: Any) -> None:
    open_heart(page)
    (heart,) = mosaic.read(HEART)
    assert isinstance(heart, MosaicPuzzle)
    assert clue_rows(page) == heart.rows_text()
    assert page.locator("#clue-pad").is_visible()
    wait_graded(page)
    shot = screenshot(page, "mosaic-1-heart")
    # the picture pale under the digits (a corner of each cell: the digit is in the middle)
    for r, c, colour in ((0, 1, PALE), (0, 0, WHITE), (1, 1, PALE), (4, 4, WHITE)):
        assert near(corner(shot, page, r, c), colour), (r, c, corner(shot, page, r, c))

    # the 1 at row 4, column 7 taken away: the corner cell below it can go either way
    pick(page, 3, 6)
    page.keyboard.press("Delete")
    wait_verdict(page, "multiple")
    edited = clue_rows(page)
    assert edited[3] == ".36...."
    differing = page.evaluate("[...__studio.board.overlay.differ]")
    assert differing == [4 * 7 + 6]
    page.wait_for_timeout(200)
    shot = screenshot(page, "mosaic-2-multiple")
    colour = corner(shot, page, 4, 6)
    assert near(colour, AMBER) or near(colour, DARK_AMBER), colour

    page.click("#make-unique")
    proposal = wait_proposal(page)
    assert "unique" in proposal and "shown:" in proposal
    added = page.evaluate("__studio.board.overlay.added")
    assert added, proposal
    screenshot(page, "mosaic-3-proposal")
    page.keyboard.press("Enter")  # accept
    wait_verdict(page, "unique")
    wait_graded(page)
    screenshot(page, "mosaic-4-unique")
    rows = clue_rows(page)
    assert rows != edited
    # every clue the editor kept is still there; the ones shown are the proposal's
    assert all(new == old for row_new, row_old in zip(rows, edited, strict=True)
               for new, old in zip(row_new, row_old, strict=True) if old != ".")
    for r, c in added:
        assert edited[r][c] == "." and rows[r][c] != "."
    # unique by the engine itself, not only by the page's word
    assert mosaic.check(MosaicPuzzle.from_rows(rows)).verdict == "unique"

    # a typed digit that no picture fits: none, and the page says so
    pick(page, 0, 0)
    page.keyboard.press("9")  # a corner's block has 4 cells: the server refuses it
    page.wait_for_function("() => ['error', 'none'].includes("
                           "document.getElementById('verdict').dataset.verdict)",
                           timeout=60_000)
    assert "row 1, column 1" in page.inner_text("#verdict-detail")
    page.keyboard.press("Control+z")
    wait_verdict(page, "unique")
    assert clue_rows(page) == rows


def test_easier_and_harder_steer_by_clues(page: Any) -> None:
    open_heart(page)
    wait_graded(page)
    score = float(page.inner_text("#score"))
    level = page.inner_text("#level").lower()
    assert level == "medium"

    page.click("#harder")
    proposal = wait_proposal(page)
    assert "unique" in proposal
    page.keyboard.press("Enter")
    wait_verdict(page, "unique")
    wait_graded(page)
    harder = float(page.inner_text("#score"))
    assert harder > score, (harder, score)
    rows = clue_rows(page)
    assert mosaic.check(MosaicPuzzle.from_rows(rows)).verdict == "unique"
    screenshot(page, "mosaic-5-harder")

    page.click("#easier")
    proposal = wait_proposal(page)
    page.keyboard.press("Enter")
    wait_verdict(page, "unique")
    wait_graded(page)
    # no clue set of the heart is easy (every clue shown still needs two compared): the
    # level stays and the score falls, with more clues shown
    assert "out of reach" in proposal
    assert page.inner_text("#level").lower() == "medium"
    assert float(page.inner_text("#score")) < harder
    easier = clue_rows(page)
    assert mosaic.check(MosaicPuzzle.from_rows(easier)).verdict == "unique"
    assert sum(ch != "." for row in easier for ch in row) > sum(
        ch != "." for row in rows for ch in row)
