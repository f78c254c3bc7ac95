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
        page.keyboard.press("[")  # Easier, before the easy puzzle's grade is back
        page.wait_for_selector("#proposal:not([hidden])", timeout=120_000)
        # the grade shown and the steering asked for are the easy puzzle's
        assert page.inner_text("#stars").count("★") == 2
        assert [body.get("stars") for body in asked] == [1]
        assert "hard" not in page.inner_text("#proposal-text").lower()
        browser.close()
        assert errors == []
