"""The studio over a catalogue holding both kinds (issue 46, item 1): every puzzle is listed
with its thumbnail, a colour one with its palette, found by title and by tag, in the API and
in a real Chromium; on SQLite, and on PostgreSQL when NONOPRESS_TEST_POSTGRES_URL names a
server. The puzzles are made by the test: seeded pictures of each kind."""

from __future__ import annotations

import io
import random
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("uvicorn")
httpx = pytest.importorskip("httpx")

from studio_support import client, running_studio  # noqa: E402
from test_catalogue import _postgres_database  # noqa: E402

from grader.colour.model import ColourPuzzle  # noqa: E402
from grader.colour.palette import Colour, Palette  # noqa: E402
from grader.formats import write_any  # noqa: E402
from grader.model import Metadata, Puzzle  # noqa: E402
from nonopress.catalogue import ImportOptions, add_files, open_catalogue  # noqa: E402
from nonopress.studio.config import StudioConfig  # noqa: E402

BW, COLOUR = 7, 6
#: the colour puzzles' palettes: a pale yellow and a light blue among them (the colours a
#: reader could not read as clue digits on the light clue background)
PALETTES = (
    Palette((Colour("red", (200, 30, 40), "r"), Colour("yellow", (250, 236, 120), "y"))),
    Palette((Colour("navy", (20, 40, 110), "n"), Colour("skyblue", (150, 205, 240), "s"),
             Colour("green", (30, 140, 60), "g"))),
)
SHOTS = Path(tempfile.gettempdir()) / "nonopress-studio-shots"


def _blobs(rng: random.Random, width: int, height: int, colours: int) -> np.ndarray:
    """A picture of a few rectangles of ``colours`` colours on paper, no edge line empty."""
    picture = np.zeros((height, width), dtype=np.uint8)
    for _ in range(5):
        top, left = rng.randrange(height - 2), rng.randrange(width - 2)
        bottom, right = rng.randrange(top + 2, height + 1), rng.randrange(left + 2, width + 1)
        picture[top:bottom, left:right] = rng.randrange(1, colours + 1)
    picture[0, 0] = picture[-1, -1] = 1  # the frame's corners: no empty edge
    return picture


def make_mixed_stock(location: str, base: Path) -> dict[str, Any]:
    """A catalogue of BW black-and-white puzzles ("Shape N") and COLOUR colour ones
    ("Paint N", tagged paint); the puzzles by title."""
    rng = random.Random(46)
    stock = base / "mixed-stock"
    stock.mkdir()
    paints = base / "paints"
    paints.mkdir()
    made: dict[str, Any] = {}
    for n in range(1, BW + 1):
        width, height = rng.randrange(8, 13), rng.randrange(8, 13)
        picture = _blobs(rng, width, height, 1).astype(bool)
        puzzle: Any = Puzzle.from_picture(picture, Metadata(title=f"Shape {n}"))
        (stock / f"shape-{n}.yaml").write_bytes(write_any(puzzle, "yaml"))
        made[f"Shape {n}"] = puzzle
    for n in range(1, COLOUR + 1):
        palette = PALETTES[n % len(PALETTES)]
        width, height = rng.randrange(8, 13), rng.randrange(8, 13)
        picture = _blobs(rng, width, height, palette.size)
        puzzle = ColourPuzzle.from_picture(picture, palette, Metadata(title=f"Paint {n}"))
        (paints / f"paint-{n}.yaml").write_bytes(write_any(puzzle, "yaml"))
        made[f"Paint {n}"] = puzzle
    with open_catalogue(location) as catalogue:
        add_files(catalogue, [str(stock)], ImportOptions(jobs=1, timeout_s=60))
        add_files(catalogue, [str(paints)], ImportOptions(jobs=1, timeout_s=60,
                                                          tags=("paint",)))
    return made


@pytest.fixture(scope="module", autouse=True)
def compiled_kernels() -> None:
    """Both kinds' kernels compiled before an import grades under its budget."""
    from grader.colour.solver import warm_up
    from grader.solver import ensure_compiled

    ensure_compiled()
    warm_up()


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def stock(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
          ) -> Iterator[tuple[str, dict[str, Any]]]:
    base = tmp_path_factory.mktemp(f"mixed-{request.param}")
    if request.param == "sqlite":
        url = str(base / "stock.sqlite")
        yield url, make_mixed_stock(url, base)
    else:
        for url in _postgres_database():
            yield url, make_mixed_stock(url, base)


@pytest.fixture(scope="module")
def studio(stock: tuple[str, dict[str, Any]], tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[StudioConfig]:
    folder = tmp_path_factory.mktemp("mixed-work")
    with running_studio(StudioConfig(folder=folder, catalogue=stock[0])) as config:
        yield config


def test_every_puzzle_of_both_kinds_is_listed_with_its_thumbnail(
        studio: StudioConfig, stock: tuple[str, dict[str, Any]]) -> None:
    made = stock[1]
    with client(studio) as http:
        record = http.get("/api/puzzles").json()
        entries = {entry["title"]: entry for entry in record["entries"]}
        assert set(entries) == set(made)
        for title, puzzle in made.items():
            entry = entries[title]
            # the thumbnail is the picture itself (colour: the palette's characters)
            assert entry["thumbnail"] == list(puzzle.solution), title
            if isinstance(puzzle, ColourPuzzle):
                assert entry["kind"] == "colour"
                assert [(c["char"], c["rgb"]) for c in entry["palette"]] == \
                    [(c.char, c.hex) for c in puzzle.palette.colours]
            else:
                assert entry["kind"] == "bw" and entry["palette"] is None
        tagged = http.get("/api/puzzles", params={"tag": "paint"}).json()["entries"]
        assert {e["title"] for e in tagged} == {t for t in made if t.startswith("Paint")}
        assert all(e["palette"] for e in tagged)
        named = http.get("/api/puzzles", params={"title": "Paint 3"}).json()["entries"]
        assert [e["title"] for e in named] == ["Paint 3"]


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed")
def test_chromium_shows_every_card_with_its_thumbnail(
        studio: StudioConfig, stock: tuple[str, dict[str, Any]],
        request: pytest.FixtureRequest) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    from PIL import Image

    made = stock[1]
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM)
        page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(studio.url)
        page.wait_for_function("() => window.__studio !== undefined")
        page.click("button[data-tab=library]")
        total = len(made)
        page.wait_for_function(f"() => document.querySelectorAll('.card').length === {total}")
        assert f"{total} of {total} puzzles" in page.inner_text("#lib-summary")
        SHOTS.mkdir(exist_ok=True)
        kind = request.node.callspec.id.split("-")[0]
        shot = Image.open(io.BytesIO(page.screenshot(
            path=str(SHOTS / f"46-mixed-catalogue-{kind}.png"), full_page=True))).convert("RGB")
        cards = page.locator(".card")
        for i in range(total):
            card = cards.nth(i)
            title = card.locator(".name").inner_text()
            puzzle = made[title]
            canvas = card.locator("canvas")
            # drawn: a canvas the picture's size, holding more than paper
            size = page.evaluate("c => [c.width, c.height]", canvas.element_handle())
            assert size[0] >= puzzle.width and size[1] >= puzzle.height, title
            card.scroll_into_view_if_needed()
            box = canvas.bounding_box()
            crop = Image.open(io.BytesIO(page.screenshot(clip=box))).convert("RGB")
            seen: set[tuple[int, int, int]] = {
                rgb for _, rgb in crop.getcolors(1 << 16) or []}  # type: ignore[misc]
            if isinstance(puzzle, ColourPuzzle):
                assert "col" in card.locator(".meta").first.inner_text()
                used = set("".join(puzzle.solution or ()))
                for colour in puzzle.palette.colours:  # every colour of the picture shows
                    shown = any(_near(rgb, colour.rgb) for rgb in seen)
                    assert colour.char not in used or shown, (title, colour)
            else:
                assert any(max(rgb) < 80 for rgb in seen), title  # the ink
        page.fill("#lib-filter", "paint 4")  # found by its title
        page.wait_for_function("() => document.querySelectorAll('.card').length === 1")
        assert page.locator(".card .name").inner_text() == "Paint 4"
        page.fill("#lib-filter", "")
        page.fill("#lib-tags", "paint")  # and by its tag, asked of the catalogue
        page.wait_for_function(
            f"() => document.querySelectorAll('.card').length === {COLOUR}")
        page.locator(".card").first.click()  # opens in the editor in its colours
        page.wait_for_function("() => document.getElementById('tab-editor')"
                               ".classList.contains('active')")
        page.wait_for_function("() => !document.getElementById('palette').hidden")
        browser.close()
        assert shot.size[0] > 0
    assert errors == []


def _near(rgb: tuple[int, int, int], wanted: tuple[int, int, int], slack: int = 12) -> bool:
    return all(abs(a - b) <= slack for a, b in zip(rgb, wanted, strict=True))
