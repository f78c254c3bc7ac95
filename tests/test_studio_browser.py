"""The studio in a real headless Chromium (Debian's ``chromium``, driven by Playwright):
what an editor does and what they see, checked on screenshots, not only in the DOM."""

from __future__ import annotations

import io
import re
import shutil
import statistics
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")

from PIL import Image  # noqa: E402
from studio_support import puzzle_folder, running_studio, studio_tab  # noqa: E402

from nonopress.cli import main  # noqa: E402
from nonopress.studio.config import StudioConfig  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed")

AMBER = (245, 158, 11)       # an empty cell that differs between two solutions
DARK_AMBER = (180, 83, 9)    # a filled cell that differs
INK = (29, 35, 48)           # a filled cell
WHITE = (255, 255, 255)
#: every state's screenshot, to look at after a run
#: the minutes as `grade` prints them: ``12 (8-17)``, tenths under a minute
#: and the size beside them (issue 60): ``12 (8-17) · 15x15``
MINUTES = r"\d+(\.\d)? \(\d+(\.\d)?-\d+(\.\d)?\) \u00b7 \d+x\d+"
SHOTS = Path(tempfile.gettempdir()) / "nonopress-studio-shots"


@pytest.fixture(scope="module")
def studio(tmp_path_factory: pytest.TempPathFactory) -> Iterator[StudioConfig]:
    folder = puzzle_folder(tmp_path_factory.mktemp("studio-browser"))
    with running_studio(StudioConfig(folder=folder)) as config:
        yield config


@pytest.fixture
def page(browser: Any, studio: StudioConfig) -> Iterator[Any]:
    with studio_tab(browser, studio.url) as tab:
        yield tab


def geometry(page: Any) -> dict[str, float]:
    box = page.locator("#grid").bounding_box()
    board = page.evaluate("({left: __studio.board.left, top: __studio.board.top, "
                          "cell: __studio.board.cell})")
    return {"x": box["x"] + board["left"], "y": box["y"] + board["top"], "cell": board["cell"]}


def centre(page: Any, r: int, c: int) -> tuple[float, float]:
    g = geometry(page)
    return g["x"] + (c + 0.5) * g["cell"], g["y"] + (r + 0.5) * g["cell"]


def click_cell(page: Any, r: int, c: int) -> None:
    page.mouse.click(*centre(page, r, c))


def screenshot(page: Any, name: str) -> Image.Image:
    SHOTS.mkdir(exist_ok=True)
    data = page.screenshot(path=str(SHOTS / f"{name}.png"))
    return Image.open(io.BytesIO(data)).convert("RGB")


def pixel(image: Image.Image, page: Any, r: int, c: int) -> tuple[int, int, int]:
    x, y = centre(page, r, c)
    value: tuple[int, int, int] = image.getpixel((int(x), int(y)))  # type: ignore[assignment]
    return value


def near(colour: tuple[int, int, int], wanted: tuple[int, int, int], slack: int = 12) -> bool:
    return all(abs(a - b) <= slack for a, b in zip(colour, wanted, strict=True))


def wait_verdict(page: Any, word: str) -> None:
    page.wait_for_function(
        "word => document.getElementById('verdict').dataset.verdict === word", arg=word,
        timeout=60_000)


def test_draw_see_multiple_make_unique_see_a_level(page: Any) -> None:
    # a frame's top row and left column, and two cells on a diagonal: those two can swap
    # with the other diagonal, so the drawing has two solutions
    cells = [(0, c) for c in range(10)] + [(r, 0) for r in range(1, 10)] + [(4, 4), (5, 5)]
    for r, c in cells:
        click_cell(page, r, c)
    wait_verdict(page, "multiple")
    page.wait_for_timeout(200)
    shot = screenshot(page, "1-multiple")
    assert "Multiple" in page.inner_text("#verdict-word").title()
    assert "shaded cells differ" in page.inner_text("#verdict-detail")
    differing = page.evaluate("[...__studio.board.overlay.differ]")
    assert len(differing) >= 4
    assert near(pixel(shot, page, 4, 4), DARK_AMBER), pixel(shot, page, 4, 4)
    assert near(pixel(shot, page, 4, 5), AMBER), pixel(shot, page, 4, 5)
    assert near(pixel(shot, page, 0, 3), INK)  # a cell both solutions fill: plain ink
    assert near(pixel(shot, page, 8, 8), WHITE)

    page.click("#make-unique")
    page.wait_for_selector("#proposal:not([hidden])", timeout=60_000)
    proposal = page.inner_text("#proposal-text")
    assert "unique" in proposal and "flips:" in proposal
    screenshot(page, "2-proposal")
    page.keyboard.press("Enter")  # accept
    wait_verdict(page, "unique")
    page.wait_for_function("() => document.getElementById('level').textContent !== '–'",
                           timeout=60_000)
    shot = screenshot(page, "3-unique")
    assert page.inner_text("#verdict-word").lower() == "unique"
    assert page.inner_text("#level").lower() in ("easy", "medium", "hard", "fiendish")
    assert "★" in page.inner_text("#stars")
    assert re.fullmatch(MINUTES, page.inner_text("#minutes")), page.inner_text("#minutes")
    for r, c in ((4, 4), (4, 5), (5, 4), (5, 5)):  # no shading left
        colour = pixel(shot, page, r, c)
        assert near(colour, INK) or near(colour, WHITE), colour
    # undo brings the ambiguous drawing back
    page.keyboard.press("Control+z")
    wait_verdict(page, "multiple")


def test_open_a_bundled_puzzle_and_play_the_replay(page: Any) -> None:
    page.click("button[data-tab=library]")
    page.wait_for_selector(".card[data-label='heart.yaml']")
    page.click(".card[data-label='heart.yaml']")
    wait_verdict(page, "unique")
    assert page.input_value("#title") == "Heart"
    shot = screenshot(page, "4-heart")
    assert near(pixel(shot, page, 1, 0), INK) and near(pixel(shot, page, 0, 0), WHITE)
    page.keyboard.press("x")  # the replay
    page.wait_for_selector("#replay-dialog[open]", timeout=60_000)
    frame = page.frame_locator("#replay-frame")
    frame.locator("h2").wait_for()
    assert frame.locator("h2").inner_text() == "Heart"
    for _ in range(3):
        frame.locator("button", has_text=">").first.click()
    assert "step 3 of" in frame.locator("section").inner_text()
    assert frame.locator("td.hl").count() >= 1 and frame.locator("td.s2").count() >= 1
    screenshot(page, "5-replay")
    page.click("#replay-close")


def test_a_colour_puzzle_opens_in_its_colours(page: Any) -> None:
    page.click("button[data-tab=library]")
    page.click(".card[data-label='colour/ladybird.yaml']")
    wait_verdict(page, "unique")
    page.wait_for_timeout(200)
    shot = screenshot(page, "6-colour")
    red = pixel(shot, page, 2, 2)  # ladybird row 3: "..rrkkrr.."
    assert near(red, (0xD7, 0x26, 0x1E), 20), red
    assert page.locator("#palette .swatch").count() == 2
    page.wait_for_function("() => document.getElementById('level').textContent !== '–'",
                           timeout=60_000)
    assert page.inner_text("#minutes") == _cli_minutes("colour/ladybird.yaml") + " \u00b7 10x10"


def _cli_minutes(name: str) -> str:
    """The minutes column `nonopress grade` prints for a bundled puzzle."""
    from grader.kinds import kind_of, read_puzzles
    from grader.minutes import span_text
    from grader.results import Budget

    (puzzle,) = read_puzzles(Path(__file__).resolve().parents[1] / "puzzles" / name)
    grade = kind_of(puzzle).grade(None, Budget(seconds=30))
    assert grade.minutes is not None and grade.minutes_low is not None
    assert grade.minutes_high is not None
    return span_text(grade.minutes, grade.minutes_low, grade.minutes_high)


def test_build_a_two_puzzle_issue_that_passes_kdp_preflight(
        page: Any, studio: StudioConfig) -> None:
    page.click("button[data-tab=library]")
    for label in ("heart.yaml", "house.yaml"):
        page.click(f".card[data-label='{label}'] .pick")
    page.click("button[data-tab=issue]")
    assert page.inner_text("#issue-count") == "2"
    page.fill("#issue-name", "browser-issue")
    page.select_option("#issue-order", "level")
    page.select_option("#issue-profile", "kdp")
    from layout.profiles import profile_menu  # the menu is the profile table, via the API

    assert page.eval_on_selector_all("#issue-profile option", "os => os.map(o => o.value)") == [
        row["value"] for row in profile_menu()]
    page.click("#issue-build")
    page.wait_for_selector(".report", timeout=300_000)
    assert "passes" in page.inner_text(".report .passed")
    page.wait_for_function("() => [...document.querySelectorAll('#issue-pages img')]"
                           ".every(img => img.complete && img.naturalWidth > 0)")
    assert page.locator("#issue-pages img").count() >= 2
    screenshot(page, "7-issue")
    pdf = studio.folder / "browser-issue.pdf"
    assert pdf.read_bytes().startswith(b"%PDF")
    assert main(["preflight", "--profile", "kdp", str(pdf)]) == 0
    manifest = (studio.folder / "browser-issue.yaml").read_text()
    assert "heart.yaml" in manifest and "house.yaml" in manifest


def test_live_update_latency_on_a_30x30(page: Any, record_property: Any) -> None:
    page.fill("#width", "30")
    page.fill("#height", "30")
    page.click("#resize")
    page.wait_for_function("() => __studio.picture.width === 30")
    for i in range(24):
        before = page.evaluate("__studio.latencies.length")
        click_cell(page, (i * 7) % 30, (i * 11) % 30)
        page.wait_for_function("n => __studio.latencies.length > n", arg=before,
                               timeout=30_000)
    latencies = page.evaluate("__studio.latencies.slice(-20)")
    median = statistics.median(latencies)
    p95 = sorted(latencies)[int(0.95 * (len(latencies) - 1))]
    record_property("click_to_verdict_median_ms", round(median, 1))
    record_property("click_to_verdict_p95_ms", round(p95, 1))
    print(f"\nstudio 30x30 click-to-verdict: median {median:.0f} ms, p95 {p95:.0f} ms "
          f"over {len(latencies)} clicks")
    assert len(latencies) == 20


def test_usable_on_a_tablet_by_touch(browser: Any, studio: StudioConfig) -> None:
    context = browser.new_context(viewport={"width": 820, "height": 1180}, has_touch=True,
                                  is_mobile=True, device_scale_factor=1)
    tab = context.new_page()
    tab.goto(studio.url)
    tab.wait_for_function("() => window.__studio !== undefined")
    for r, c in ((0, 0), (0, 1), (1, 0)):
        tab.touchscreen.tap(*centre(tab, r, c))
    wait_verdict(tab, "unique")
    shot = screenshot(tab, "8-tablet")
    assert near(pixel(shot, tab, 0, 1), INK)
    assert tab.locator("#make-unique").is_visible()
    context.close()


def test_import_a_picture_accept_and_save_a_file_the_cli_reads(
        page: Any, studio: StudioConfig, tmp_path: Path) -> None:
    from PIL import ImageDraw

    image = Image.new("L", (300, 300), 255)
    ImageDraw.Draw(image).ellipse((40, 40, 260, 260), fill=0)
    picture = tmp_path / "disc.png"
    image.save(picture)
    page.fill("#width", "15")
    page.fill("#height", "15")
    page.set_input_files("#picture", str(picture))
    page.wait_for_selector("#proposal:not([hidden])", timeout=120_000)
    assert "Picture made into a puzzle: unique" in page.inner_text("#proposal-text")
    page.click("#accept")
    wait_verdict(page, "unique")
    shot = screenshot(page, "9-imported")
    assert near(pixel(shot, page, 7, 7), INK) and near(pixel(shot, page, 0, 0), WHITE)
    page.fill("#save-path", "disc.yaml")
    page.click("#save")
    page.wait_for_selector("#toast:not([hidden])")
    assert "Saved disc.yaml" in page.inner_text("#toast")
    assert main(["check", str(studio.folder / "disc.yaml")]) == 0
    assert page.input_value("#title") == "disc"


def test_a_puzzle_without_solution_shows_none_and_frames_the_broken_line(
        page: Any, studio: StudioConfig) -> None:
    # column 1 needs both rows to start there; then column 2 gets two cells, not one
    (studio.folder / "broken.yaml").write_text(
        "title: Broken\nrows: [[2], [2]]\ncolumns: [[2], [1], [1]]\n")
    page.click("button[data-tab=library]")
    page.click(".card[data-label='broken.yaml']")
    wait_verdict(page, "none")
    assert "cannot be satisfied" in page.inner_text("#verdict-detail")
    broken = page.evaluate("__studio.board.overlay.broken")
    shot = screenshot(page, "10-none")
    box = page.locator("#grid").bounding_box()
    g = geometry(page)
    if broken["axis"] == "row":
        x, y = box["x"] + 1, g["y"] + (broken["index"] + 0.5) * g["cell"]
    else:
        x, y = g["x"] + (broken["index"] + 0.5) * g["cell"], box["y"] + 1
    frame: tuple[int, int, int] = shot.getpixel((int(x), int(y)))  # type: ignore[assignment]
    assert near(frame, (0xC0, 0x26, 0x2D), 30), frame  # the red frame round the line
    (studio.folder / "broken.yaml").unlink()


def test_the_library_sorts_filters_and_flags_duplicates(
        page: Any, studio: StudioConfig) -> None:
    heart = (studio.folder / "heart.yaml").read_text()
    (studio.folder / "heart-copy.yaml").write_text(heart.replace("Heart", "Heart again"))
    page.click("button[data-tab=library]")
    # listed, and every grade in (the summary says "grading N" while some are pending)
    page.wait_for_function(
        "() => { const text = document.getElementById('lib-summary').textContent;"
        " return text.includes('puzzles') && !text.includes('grading') &&"
        " document.querySelector(\".card[data-label='heart-copy.yaml']\") !== null; }",
        timeout=120_000)
    page.fill("#lib-filter", "heart")
    assert page.locator(".card").count() == 2
    assert "same design as heart-copy.yaml" in page.inner_text(
        ".card[data-label='heart.yaml'] .dup")
    page.fill("#lib-filter", "")
    page.select_option("#lib-level", "ambiguous")
    assert [page.locator(".card").nth(i).get_attribute("data-label")
            for i in range(page.locator(".card").count())] == ["loaded-die.yaml"]
    page.select_option("#lib-level", "")
    page.select_option("#lib-sort", "size")
    first = page.locator(".card").first.get_attribute("data-label")
    assert first == "house.yaml"  # 5x5, the smallest
    shot = screenshot(page, "11-library")
    card = page.locator(".card[data-label='heart.yaml'] canvas").bounding_box()
    # the thumbnail shows the heart: its second row is filled right across
    x = int(card["x"] + card["width"] / 2)
    y = int(card["y"] + card["height"] * 0.3)
    assert near(shot.getpixel((x, y)), INK, 30)  # type: ignore[arg-type]
    (studio.folder / "heart-copy.yaml").unlink()


def test_open_a_file_from_this_computer(page: Any, tmp_path: Path) -> None:
    from grader import formats
    from grader.model import Puzzle

    rows = ["#.#", "###", ".#."]
    path = tmp_path / "plus.non"
    path.write_bytes(formats.write(Puzzle.from_picture(rows).with_meta(title="Plus"), "non"))
    page.set_input_files("#open-file", str(path))
    page.wait_for_function("() => document.getElementById('title').value === 'Plus'")
    wait_verdict(page, "unique")
    shot = screenshot(page, "12-opened")
    assert near(pixel(shot, page, 1, 1), INK) and near(pixel(shot, page, 0, 1), WHITE)
    assert "from this computer" in page.inner_text("#file-label")
    assert page.input_value("#save-path") == "plus.yaml"


def played_heart(location: str) -> None:
    """Two solve attempts at the Heart as the web player reports them: one finished in
    90 s with a hint, one abandoned."""
    import json
    import uuid

    from grader.formats import read_any
    from nonopress.catalogue import open_catalogue
    from nonopress.solves import parse_record, store_solve

    key = read_any(Path(__file__).resolve().parents[1] / "puzzles" / "heart.yaml")[0].key()
    with open_catalogue(location) as catalogue:
        for seconds, done in ((90.0, True), (30.0, False)):
            record = {"v": 1, "record_id": str(uuid.uuid4()), "solver_id": str(uuid.uuid4()),
                      "puzzle_key": key, "grader_version": "test", "seconds_active": seconds,
                      "completed": done, "checks": 0, "reveals": 0, "errors_found": 0,
                      "hints": {"1": 1, "2": 0, "3": 0, "4": 0},
                      "hint_rungs": ["simple-boxes"], "device": "desktop",
                      "started_at": "2026-11-28T03:00Z", "player": "nonopress-player/1"}
            store_solve(catalogue, parse_record(json.dumps(record).encode(), None))


def test_the_library_over_a_catalogue(browser: Any, tmp_path: Path) -> None:
    """`studio --db`: the catalogue's puzzles as cards (level, minutes, tags, last printed,
    the duplicate flagged), filtered by the catalogue's tag filter, opened in the editor."""
    from studio_support import make_stock

    make_stock(str(tmp_path / "stock.sqlite"), tmp_path)
    played_heart(str(tmp_path / "stock.sqlite"))
    folder = tmp_path / "work"
    folder.mkdir()
    config = StudioConfig(folder=folder, catalogue=str(tmp_path / "stock.sqlite"))
    with running_studio(config) as studio:
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(studio.url)
        page.wait_for_function("() => window.__studio !== undefined")
        page.click("button[data-tab=library]")
        page.wait_for_function("() => document.querySelectorAll('.card').length === 3")
        assert "3 of 3 puzzles in stock.sqlite" in page.inner_text("#lib-summary")
        assert page.locator("#lib-tags").is_visible()
        cards = {page.locator(".card").nth(i).locator(".name").inner_text():
                 page.locator(".card").nth(i) for i in range(3)}
        assert set(cards) == {"Heart", "House", "Mirror house"}
        heart = cards["Heart"]
        assert "last printed 2026-03-01" in heart.inner_text()
        assert "#love" in heart.inner_text() and "<1 min" in heart.inner_text()
        assert "never printed" in cards["House"].inner_text()
        assert "same design as Mirror house" in cards["House"].locator(".dup").inner_text()
        assert "same design as House" in cards["Mirror house"].locator(".dup").inner_text()
        assert heart.locator(".dup").count() == 0
        # what the web player's solvers did (issue 49): two solves of the Heart, one done;
        # no minutes from fewer than 3 addresses (one sender cannot set them: issue 57)
        assert heart.locator(".solves").inner_text() == (
            "2 solves · 50% done · hints 100%")
        assert cards["House"].locator(".solves").count() == 0
        assert heart.locator(".badge").inner_text() == "unique"
        shot = screenshot(page, "12-catalogue")
        box = heart.locator("canvas").bounding_box()
        # the heart's thumbnail: its second row is filled right across
        x, y = int(box["x"] + box["width"] / 2), int(box["y"] + box["height"] * 0.3)
        assert near(shot.getpixel((x, y)), INK, 30)  # type: ignore[arg-type]
        cards["House"].locator(".pick").click()  # into the issue, named by its title
        assert page.inner_text("#issue-count") == "1"
        page.click("button[data-tab=issue]")
        assert "House (catalogue:" in page.inner_text("#issue-list")
        page.click("button[data-tab=library]")
        page.wait_for_function("() => document.querySelectorAll('.card').length === 3")
        page.fill("#lib-tags", "love")  # asked of the catalogue (Filters.tags)
        page.wait_for_function("() => document.querySelectorAll('.card').length === 1")
        assert page.locator(".card .name").inner_text() == "Heart"
        page.locator(".card").first.click()
        page.wait_for_function("() => document.getElementById('tab-editor')"
                               ".classList.contains('active')")
        assert page.input_value("#title") == "Heart"
        wait_verdict(page, "unique")
        screenshot(page, "13-catalogue-heart")
        context.close()
        assert errors == []
