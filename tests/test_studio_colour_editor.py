"""The studio repairs, steers and imports colour puzzles (issue 46, item 7), as the CLI's
``make --colours`` does, and draws a colour clue's digits in the ink that reads on its
colour (WCAG contrast): through the API and in a real Chromium. The puzzles and pictures
are made by the test."""

from __future__ import annotations

import base64
import io
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image, ImageDraw

pytest.importorskip("uvicorn")
httpx = pytest.importorskip("httpx")

from studio_support import client, running_studio  # noqa: E402

from grader.colour.model import ColourPuzzle  # noqa: E402
from grader.colour.palette import Colour, Palette  # noqa: E402
from grader.colour.solver import solve_colour  # noqa: E402
from grader.formats import write_any  # noqa: E402
from grader.kinds import palette_record  # noqa: E402
from grader.model import Metadata  # noqa: E402
from nonopress.studio.config import StudioConfig  # noqa: E402

YELLOW, NAVY = (250, 236, 120), (20, 40, 110)
PALETTE = Palette((Colour("navy", NAVY, "n"), Colour("yellow", YELLOW, "y")))
#: two yellow squares in a diagonal (either diagonal fits the clues) beside a navy frame
AMBIGUOUS = ("nnnnnnnn",
             "n......n",
             "n.y....n",
             "n..y...n",
             "n......n",
             "n..yyy.n",
             "n......n",
             "nnnnnnnn")
SHOTS = Path(tempfile.gettempdir()) / "nonopress-studio-shots"


def _ambiguous() -> ColourPuzzle:
    lookup = {".": 0, "n": 1, "y": 2}
    picture = np.array([[lookup[ch] for ch in row] for row in AMBIGUOUS], dtype=np.uint8)
    return ColourPuzzle.from_picture(picture, PALETTE, Metadata(title="Two squares"))


@pytest.fixture(scope="module", autouse=True)
def compiled_kernels() -> None:
    from grader.colour.solver import warm_up

    warm_up()


@pytest.fixture(scope="module")
def studio(tmp_path_factory: pytest.TempPathFactory) -> Iterator[StudioConfig]:
    folder = tmp_path_factory.mktemp("colour-editor")
    (folder / "two-squares.yaml").write_bytes(write_any(_ambiguous(), "yaml"))
    with running_studio(StudioConfig(folder=folder)) as config:
        yield config


def test_the_drawn_puzzle_is_ambiguous() -> None:
    assert solve_colour(_ambiguous()).verdict == "multiple"


def test_a_colour_puzzle_is_made_unique_and_steered(studio: StudioConfig) -> None:
    body = {"grid": list(AMBIGUOUS), "palette": palette_record(_ambiguous()), "seconds": 30}
    with client(studio) as http:
        answer = http.post("/api/repair", json={**body, "mode": "flips"})
        assert answer.status_code == 200, answer.text
        record = answer.json()
        assert record["unique"] and record["palette"][1]["char"] == "y"
        assert record["original"] == list(AMBIGUOUS)
        assert 0 < len(record["flips"]) <= 4
        grid = record["grid"]
        lookup = {".": 0, "n": 1, "y": 2}
        fixed = ColourPuzzle.from_picture(
            np.array([[lookup[ch] for ch in row] for row in grid], dtype=np.uint8), PALETTE)
        assert solve_colour(fixed).verdict == "unique"
        steered = http.post("/api/repair", json={**body, "stars": 1}).json()
        assert steered["unique"] and steered["report"]["target"] == "1 star"
        refused = http.post("/api/repair", json={**body, "mode": "givens"})
        assert refused.status_code == 400 and "colour" in refused.json()["error"]


def _picture_png() -> str:
    image = Image.new("RGB", (120, 90), (120, 180, 230))  # a sky
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 60, 120, 90), fill=(40, 140, 50))  # grass
    draw.ellipse((40, 15, 80, 55), fill=(240, 200, 30))  # the sun
    out = io.BytesIO()
    image.save(out, format="PNG")
    return "data:image/png;base64," + base64.b64encode(out.getvalue()).decode()


def test_a_picture_is_imported_as_a_colour_puzzle(studio: StudioConfig) -> None:
    with client(studio) as http:
        answer = http.post("/api/make", json={"picture": _picture_png(), "width": 16,
                                              "height": 12, "colours": 2, "seconds": 30})
        assert answer.status_code == 200, answer.text
        record = answer.json()
        assert record["unique"] and len(record["palette"]) == 2
        chars = {c["char"] for c in record["palette"]}
        assert set("".join(record["grid"])) <= chars | {"."}
        assert "." in "".join(record["grid"])  # the sky is the background
        refused = http.post("/api/make", json={"picture": _picture_png(), "width": 16,
                                               "colours": 2, "edges": True})
        assert refused.status_code == 400


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed")
def test_chromium_clue_digits_read_and_make_unique_works_on_colour(
        studio: StudioConfig) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM)
        page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(studio.url)
        page.wait_for_function("() => window.__studio !== undefined")
        page.click("button[data-tab=library]")
        page.click(".card[data-label='two-squares.yaml']")
        page.wait_for_function(
            "() => document.getElementById('verdict').dataset.verdict === 'multiple'",
            timeout=60_000)
        SHOTS.mkdir(exist_ok=True)
        shot = _shot(page, "46-colour-clues")
        board = page.evaluate("({left: __studio.board.left, top: __studio.board.top, "
                              "cell: __studio.board.cell})")
        box = page.locator("#grid").bounding_box()
        # row 3's clue (1 navy, 1 yellow, 1 navy): its yellow chip holds a dark digit
        y = int(box["y"] + board["top"] + 2.5 * board["cell"])
        strip: list[tuple[int, int, int]] = [
            shot.getpixel((x, y + dy))  # type: ignore[misc]
            for x in range(int(box["x"]), int(box["x"] + board["left"])) for dy in range(-3, 4)]
        assert any(_near(p, YELLOW) for p in strip)  # the chip
        assert any(max(p) < 90 and not _near(p, NAVY, 30) for p in strip)  # a black digit
        assert page.evaluate("async () => (await import('/static/board.js'))"
                             ".readableInk('#faec78')") == "#000000"
        page.click("#make-unique")
        page.wait_for_function("() => !document.getElementById('proposal').hidden",
                               timeout=60_000)
        assert "Make unique: unique" in page.inner_text("#proposal-text")
        _shot(page, "46-colour-make-unique")
        page.click("#accept")
        page.wait_for_function(
            "() => document.getElementById('verdict').dataset.verdict === 'unique'",
            timeout=60_000)
        assert not page.locator("#palette").is_hidden()
        browser.close()
    assert errors == []


def _shot(page: Any, name: str) -> Image.Image:
    data = page.screenshot(path=str(SHOTS / f"{name}.png"))
    return Image.open(io.BytesIO(data)).convert("RGB")


def _near(rgb: Any, wanted: tuple[int, int, int], slack: int = 16) -> bool:
    return all(abs(a - b) <= slack for a, b in zip(rgb, wanted, strict=True))
