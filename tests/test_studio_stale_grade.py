"""The studio never acts on the grade of a puzzle it no longer shows (issue 46, item 3):
opening another puzzle clears the grade shown, Easier and Harder ask for the grade of the
picture on the board, and an answer for an older picture is dropped. In real Chromium."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")

from studio_support import running_studio  # noqa: E402

from grader.formats import write  # noqa: E402
from grader.grading import grade  # noqa: E402
from grader.model import Metadata, Puzzle  # noqa: E402
from nonopress.studio.config import StudioConfig  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed")


def _puzzle(seed: int, title: str) -> Puzzle:
    # seeded random 12x12 grids, unique as they are: seed 57 is hard (4 stars), 0 easy (2)
    picture = np.random.default_rng(seed).random((12, 12)) < 0.55
    return Puzzle.from_picture(picture, meta=Metadata(title=title))


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    for seed, name in ((57, "hard"), (0, "easy")):
        (tmp_path / f"{name}.non").write_bytes(write(_puzzle(seed, name.title()), "non"))
    # a wide one (40x25, a staircase: unique) as the bicycle is
    rows, columns = np.indices((25, 40))
    wide = Puzzle.from_picture(columns < rows * 40 // 25 + 5, meta=Metadata(title="Wide"))
    (tmp_path / "wide.non").write_bytes(write(wide, "non"))
    return tmp_path


def test_easier_right_after_opening_uses_the_new_puzzles_stars(folder: Path) -> None:
    hard, easy = grade(_puzzle(57, "Hard")), grade(_puzzle(0, "Easy"))
    assert hard.stars == 4 and easy.stars == 2  # the data the test is built on
    with running_studio(StudioConfig(folder=folder)) as config, \
            sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        errors: list[str] = []
        asked: list[dict[str, Any]] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("request", lambda request: asked.append(json.loads(request.post_data or "{}"))
                if request.url.endswith("/api/repair") else None)
        page.goto(config.url)
        page.wait_for_function("() => window.__studio !== undefined")
        page.click("button[data-tab=library]")
        page.wait_for_selector(".card[data-label='hard.non']")
        page.click(".card[data-label='hard.non']")
        page.wait_for_function("() => document.getElementById('stars').textContent"
                               ".split('★').length - 1 === 4", timeout=60_000)
        page.click("button[data-tab=library]")
        page.click(".card[data-label='easy.non']")
        # opened (the editor shows it: its title) and its grade not back yet
        page.wait_for_function("() => document.getElementById('title').value === 'Easy'")
        with page.expect_request("**/api/repair", timeout=120_000):
            page.keyboard.press("[")  # Easier, before the easy puzzle's grade is back
        # the grade shown and the steering asked for are the easy puzzle's
        page.wait_for_function("() => document.getElementById('stars').textContent"
                               ".split('★').length - 1 === 2", timeout=60_000)
        assert [body.get("stars") for body in asked] == [1]
        browser.close()
        assert errors == []


@pytest.mark.parametrize("size", [(1024, 700), (1280, 800)])
def test_the_grade_is_above_the_fold_and_the_minutes_on_one_line(
        folder: Path, size: tuple[int, int]) -> None:
    width, height = size
    with running_studio(StudioConfig(folder=folder)) as config, \
            sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM)
        page = browser.new_page(viewport={"width": width, "height": height})
        page.goto(config.url)
        page.wait_for_function("() => window.__studio !== undefined")
        page.click("button[data-tab=library]")
        page.click(".card[data-label='wide.non']")
        page.wait_for_function("() => document.getElementById('level').textContent !== '–'",
                               timeout=120_000)
        for name in ("level", "stars", "minutes", "grade-box", "rungs"):  # the whole grade
            box = page.locator(f"#{name}").bounding_box()
            assert box is not None and box["y"] + box["height"] <= height, (name, box)
        minutes = page.locator("#minutes")
        size = page.evaluate("parseFloat(getComputedStyle(document.getElementById('minutes'))"
                             ".fontSize)")
        box = minutes.bounding_box()
        assert box is not None and box["height"] < 2 * size  # one line, not wrapped
        grid = page.locator("#grid").bounding_box()
        assert grid is not None and grid["width"] > 300
        page.screenshot(path=str(folder / f"studio-{width}x{height}.png"))
        browser.close()


def test_one_replay_heading() -> None:
    from grader.explain_html import explain_html
    from grader.kinds import kind_of
    from grader.results import Budget

    puzzle = _puzzle(0, "Easy")
    kind = kind_of(puzzle)
    graded = kind.grade(None, Budget(seconds=10))
    page = explain_html([kind.replay(puzzle.title, graded)], title=puzzle.title)
    assert "<h1>" not in page  # the replay's own heading names it once
    two = explain_html([kind.replay("a", graded), kind.replay("b", graded)], title="Both")
    assert two.count("<h1>") == 1


def test_the_heat_map_legend_names_every_tint_it_draws(folder: Path) -> None:
    with running_studio(StudioConfig(folder=folder)) as config, \
            sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM)
        page = browser.new_page(viewport={"width": 320, "height": 900})
        page.goto(config.url)
        page.wait_for_function("() => window.__studio !== undefined")
        page.click("button[data-tab=library]")
        page.click(".card[data-label='hard.non']")
        page.wait_for_function("() => window.__studio.lastGrade !== null", timeout=120_000)
        page.keyboard.press("h")  # the heat map
        drawn = page.evaluate("""() => {
            const s = window.__studio, names = s.lastGrade.rung_order;
            return [...new Set(s.lastGrade.heat.flat())].filter((r) => r > 0)
                .map((r) => names[r]).sort(); }""")
        assert len(drawn) >= 2  # the hard puzzle's look-ahead and more
        width = page.evaluate("document.documentElement.clientWidth")
        shown = [item for item in page.locator("#legend span").all()
                 if (box := item.bounding_box()) is not None
                 and box["x"] >= 0 and box["x"] + box["width"] <= width]
        assert sorted(item.inner_text().strip() for item in shown) == drawn
        browser.close()
