"""Issue 60, item 4: the studio's grid stays where it is while drawing lengthens the clues
(a 15x15's top edge moved 42 -> 78 -> 114 px, so strokes landed a row low). In a real
headless Chromium, as tests/test_studio_browser.py drives it."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")

from studio_support import puzzle_folder, running_studio, studio_tab  # noqa: E402

from nonopress.studio.config import StudioConfig  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed")
SHOTS = Path(tempfile.gettempdir()) / "nonopress-studio-shots"


@pytest.fixture
def page(browser: Any, tmp_path: Path) -> Iterator[Any]:
    folder = puzzle_folder(tmp_path)
    with running_studio(StudioConfig(folder=folder)) as config, \
            studio_tab(browser, config.url) as tab:
        yield tab


def grid_corner(page: Any) -> tuple[float, float, float]:
    """Where the grid's top-left cell is on the screen, and the cell size."""
    box = page.locator("#grid").bounding_box()
    board = page.evaluate("({left: __studio.board.left, top: __studio.board.top, "
                          "cell: __studio.board.cell})")
    return box["x"] + board["left"], box["y"] + board["top"], board["cell"]


@pytest.mark.parametrize("size", [15, 12])
def test_the_grid_does_not_move_while_the_clues_grow(page: Any, size: int) -> None:
    page.fill("#width", str(size))
    page.fill("#height", str(size))
    page.click("#resize")
    page.wait_for_function(f"() => __studio.picture.width === {size}")
    start = grid_corner(page)
    corners = [start]
    # every other cell of a row, then of a column: each stroke lengthens a clue by one
    strokes = [(0, c) for c in range(0, size, 2)] + [(r, size - 1) for r in range(2, size, 2)]
    for k, (r, c) in enumerate(strokes, 1):
        x, y, cell = corners[-1]
        page.mouse.click(x + (c + 0.5) * cell, y + (r + 0.5) * cell)
        page.wait_for_function(f"() => __studio.picture.get({r}, {c}) !== 0")
        page.wait_for_timeout(60)
        corners.append(grid_corner(page))
        if k in (1, len(strokes)):
            SHOTS.mkdir(exist_ok=True)
            page.screenshot(path=str(SHOTS / f"still-{size}-{k}.png"))
    # the verdict and its legend arrive: still nothing moves
    page.wait_for_timeout(1500)
    corners.append(grid_corner(page))
    drawn = page.evaluate(f"[...Array({size * size}).keys()].filter("
                          f"i => __studio.picture.get(Math.floor(i / {size}), i % {size}))")
    assert sorted(drawn) == sorted(r * size + c for r, c in strokes)  # each stroke where aimed
    moved = max(max(abs(x - start[0]), abs(y - start[1])) for x, y, _ in corners)
    assert moved <= 2.0, corners
    assert all(cell == start[2] for _, _, cell in corners)
