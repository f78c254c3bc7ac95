"""The web player in a real headless Chromium (Debian's ``chromium``, driven by Playwright),
on the pages `nonopress web` writes, opened from disk as a reader who downloaded the site
would: solving by mouse, keyboard and touch, every hint stage, check, resume, colour,
fill-in typing, and axe-core on the index and a puzzle page."""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api")

from grader.formats import read_any  # noqa: E402
from grader.kinds import kind_of  # noqa: E402
from grader.results import Budget  # noqa: E402
from nonopress.app.play import reveal  # noqa: E402
from nonopress.cli import main  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed")
ROOT = Path(__file__).resolve().parent.parent
ISSUES = ROOT / "puzzles" / "issues"
#: screenshots of what the tests saw, to look at after a run
SHOTS = Path(tempfile.gettempdir()) / "nonopress-web-shots"
DOT = 255


class Tab:
    """A page of the site and what the tests ask of it."""

    def __init__(self, page: Any, site: Path, name: str):
        self.page = page
        self.record = json.loads((site / name.replace(".html", ".json")).read_text())
        text = reveal(self.record["solution"], self.record["key"])
        self.width, self.height = self.record["width"], self.record["height"]
        self.solution = list(text) if self.record["kind"] == "fillin" else [int(ch, 36)
                                                                              for ch in text]
        page.goto((site / name).as_uri())
        page.wait_for_selector(".np-cell")

    def cell(self, r: int, c: int) -> Any:
        return self.page.locator(f'.np-cell[data-i="{r * self.width + c}"]')

    def centre(self, r: int, c: int) -> tuple[float, float]:
        box = self.cell(r, c).bounding_box()
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    def status(self) -> str:
        self.page.wait_for_timeout(60)  # the live region is re-set after 20 ms
        return str(self.page.locator(".np-status").inner_text())

    def marks(self) -> list[int]:
        return list(self.page.evaluate(
            "() => Array.from(document.querySelector('nonopress-puzzle').player.cells)"))

    def shot(self, name: str) -> None:
        SHOTS.mkdir(exist_ok=True)
        self.page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def test_solve_by_clicks_shows_solved_with_the_grades_figures(context: Any, sample: Path
                                                              ) -> None:
    tab = Tab(context.new_page(), sample, "puzzle-01.html")
    for i, value in enumerate(tab.solution):
        if value:
            tab.page.mouse.click(*tab.centre(*divmod(i, tab.width)))
    assert tab.page.locator(".np-solved").is_visible()
    panel = tab.page.locator(".np-solved").inner_text()
    assert "Solved" in panel and "Hints: 0, checks: 0, reveals: 0" in panel
    # the title, veiled in the page until now (it may give the picture away)
    assert "Solved: House" in panel
    assert re.search(r"People take about [\d.]+ minutes", panel) and "Level: easy" in panel
    assert "Solved in" in tab.status()
    # every row and column clue is crossed off
    assert tab.page.locator(".np-clue.np-done").count() == tab.width + tab.height
    tab.shot("solved-by-clicks")


def test_solve_by_keyboard_alone(context: Any, sample: Path) -> None:
    tab = Tab(context.new_page(), sample, "puzzle-02.html")
    page = tab.page
    for _ in range(40):  # Tab from the top of the page to the grid
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.getAttribute('role')") == "gridcell":
            break
    assert page.evaluate("document.activeElement.dataset.i") == "0"
    for r in range(tab.height):
        for c in range(tab.width):
            value = tab.solution[r * tab.width + c]
            page.keyboard.press("Space" if value else "x")
            if c < tab.width - 1:
                page.keyboard.press("ArrowRight")
        if r < tab.height - 1:
            page.keyboard.press("ArrowDown")
            page.keyboard.press("Home")
    assert "Solved" in tab.status()
    label = page.locator('.np-cell[data-i="0"]').get_attribute("aria-label")
    assert re.fullmatch(r"row 1, column 1, (filled|marked empty)", label or "")
    assert page.get_by_role("grid").count() == 1
    assert page.get_by_role("gridcell").count() == tab.width * tab.height


def _explained_lines(path: Path) -> list[str]:
    puzzle = read_any(path)[0]
    kind = kind_of(puzzle)
    text = kind.explain(kind.grade(None, Budget(seconds=30)), "x")
    return [re.sub(r"^\s*\d+\. ", "", line) for line in text.splitlines()
            if re.match(r"\s*\d+\. ", line)]


def test_every_hint_stage_names_the_rung_in_grade_explain_words(context: Any, sample: Path
                                                                 ) -> None:
    tab = Tab(context.new_page(), sample, "puzzle-01.html")
    page = tab.page
    hint = page.get_by_role("button", name=re.compile("Hint"))
    assert hint.count() == 1
    explained = _explained_lines(ROOT / "puzzles" / "house.yaml")
    hint.click()
    assert "Hint 1: A step in the rows (easy)" in tab.status()
    page.get_by_role("button", name="Hint: tell me more").click()
    assert "Hint 2: Row 3" in tab.status()
    assert page.locator(".np-cell.np-show").count() == tab.width  # the line is shown
    page.get_by_role("button", name="Hint: tell me more").click()
    stage3 = tab.status()
    assert stage3 == f"Hint 3: {explained[0]}"
    assert stage3.startswith("Hint 3: [simple-boxes] Row 3 (5)")
    page.get_by_role("button", name="Hint: tell me more").click()
    assert "Hint 4" in tab.status()
    shown = page.locator(".np-cell.np-show")
    assert shown.count() == 5  # row 3's five cells
    tab.shot("hint-stage-4")
    page.get_by_role("button", name="Accept").click()
    assert tab.marks()[10:15] == [1, 1, 1, 1, 1]
    # the next hint follows the log from the new position: step 2, column 2
    hint.click()
    page.get_by_role("button", name="Hint: tell me more").click()
    assert "Hint 2: Column 2" in tab.status()


def test_hint_is_valid_on_the_current_marks(context: Any, sample: Path) -> None:
    """With step 1's cells already on the board, the first hint is a later step."""
    tab = Tab(context.new_page(), sample, "puzzle-01.html")
    for c in range(5):
        tab.page.mouse.click(*tab.centre(2, c))
    tab.page.get_by_role("button", name=re.compile("Hint")).click()
    tab.page.get_by_role("button", name="Hint: tell me more").click()
    assert "Hint 2: Column 2" in tab.status()


def test_a_wrong_mark_is_found_by_check_and_by_the_hint(context: Any, sample: Path) -> None:
    tab = Tab(context.new_page(), sample, "puzzle-03.html")
    page = tab.page
    wrong = tab.solution.index(0)
    r, c = divmod(wrong, tab.width)
    page.mouse.click(*tab.centre(r, c))
    page.get_by_role("button", name="Check").click()
    assert "1 wrong mark" in tab.status()
    assert page.locator(".np-cell.np-wrong").count() == 1
    page.get_by_role("button", name=re.compile("Hint")).click()
    assert "One of your marks is wrong" in tab.status()
    page.get_by_role("button", name="Hint: tell me more").click()
    assert f"Row {r + 1}, column {c + 1} is wrong" in tab.status()
    tab.shot("wrong-mark")
    page.get_by_role("button", name="Clear it").click()
    assert tab.marks()[wrong] == 0
    # rewind undoes the moves back to before the first error
    page.mouse.click(*tab.centre(r, c))
    page.get_by_role("button", name="Rewind to the first error").click()
    assert tab.marks()[wrong] == 0 and "Rewound" in tab.status()


def test_reload_resumes_marks_and_time(context: Any, sample: Path) -> None:
    tab = Tab(context.new_page(), sample, "puzzle-04.html")
    page = tab.page
    page.mouse.click(*tab.centre(0, 0))
    page.mouse.click(*tab.centre(1, 1), button="right")
    page.wait_for_timeout(1200)
    before = tab.marks()
    assert before[0] == 1 and before[tab.width + 1] == DOT
    page.reload()
    page.wait_for_selector(".np-cell")
    assert tab.marks() == before
    assert page.locator('.np-cell[data-i="0"]').get_attribute("aria-label") == \
        "row 1, column 1, filled"


def test_timer_pauses_while_the_page_is_hidden(context: Any, sample: Path) -> None:
    tab = Tab(context.new_page(), sample, "puzzle-04.html")
    page = tab.page
    page.evaluate("""() => {
        Object.defineProperty(document, 'hidden', {value: true, configurable: true});
        document.dispatchEvent(new Event('visibilitychange')); }""")
    start = page.evaluate("document.querySelector('nonopress-puzzle').player.stats.seconds")
    page.wait_for_timeout(2300)
    after = page.evaluate("document.querySelector('nonopress-puzzle').player.stats.seconds")
    assert after == start


def test_phone_tap_and_drag(browser: Any, sample: Path) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                              is_mobile=True, device_scale_factor=2)
    try:
        tab = Tab(ctx.new_page(), sample, "puzzle-03.html")
        page = tab.page
        page.touchscreen.tap(*tab.centre(0, 0))
        assert tab.marks()[0] == 1
        # a drag along row 4 paints a run, as one undo step
        cdp = ctx.new_cdp_session(page)
        x0, y = tab.centre(3, 1)
        x1, _ = tab.centre(3, 6)
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart",
                                              "touchPoints": [{"x": x0, "y": y}]})
        for k in range(1, 7):
            cdp.send("Input.dispatchTouchEvent", {
                "type": "touchMove", "touchPoints": [{"x": x0 + (x1 - x0) * k / 6, "y": y}]})
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        marks = tab.marks()
        assert marks[3 * tab.width + 1: 3 * tab.width + 7] == [1] * 6
        page.get_by_role("button", name="Undo").click()
        assert tab.marks()[3 * tab.width + 1: 3 * tab.width + 7] == [0] * 6
        assert tab.marks()[0] == 1
        # the page fits the phone: nothing wider than the screen but the scrolling grid
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        tab.shot("phone")
    finally:
        ctx.close()


def test_a_colour_puzzle_plays_with_the_colour_picker(context: Any, colour_site: Path
                                                      ) -> None:
    tab = Tab(context.new_page(), colour_site, "puzzle-01.html")
    page = tab.page
    palette = tab.record["palette"]
    assert len(palette) >= 2
    for value in range(1, len(palette) + 1):
        page.get_by_role("radio", name=re.compile(f"Paint {palette[value - 1]['name']}")).click()
        for i, want in enumerate(tab.solution):
            if want == value:
                page.mouse.click(*tab.centre(*divmod(i, tab.width)))
    first = tab.solution.index(2)
    label = page.locator(f'.np-cell[data-i="{first}"]').get_attribute("aria-label")
    assert label is not None and label.endswith(palette[1]["name"])
    assert "Solved" in tab.status()
    tab.shot("colour-solved")


def test_a_colour_hint_names_its_rung(context: Any, colour_site: Path) -> None:
    tab = Tab(context.new_page(), colour_site, "puzzle-01.html")
    page = tab.page
    for _ in range(3):
        page.get_by_role("button", name=re.compile("Hint")).first.click()
    text = tab.status()
    rungs = tab.record["hints"]["rungs"]
    assert text.startswith("Hint 3: ") and any(f"{rung}: " in text for rung in rungs)


def test_a_fillin_is_solved_by_typing(context: Any, words_site: Path) -> None:
    name = next(p.name for p in sorted(words_site.glob("puzzle-*.json"))
                if json.loads(p.read_text())["kind"] == "fillin")
    tab = Tab(context.new_page(), words_site, name.replace(".json", ".html"))
    page = tab.page
    blocks = tab.record["blocks"]
    for r in range(tab.height):
        c = 0
        while c < tab.width:
            i = r * tab.width + c
            if blocks[i] == "1":
                c += 1
                continue
            page.mouse.click(*tab.centre(r, c))
            across = "document.querySelector('nonopress-puzzle').player.board.across"
            if page.evaluate(across) is False:
                page.mouse.click(*tab.centre(r, c))  # a second click turns to across
            word = ""
            while c < tab.width and blocks[r * tab.width + c] == "0":
                word += tab.solution[r * tab.width + c]
                c += 1
            page.keyboard.type(word.lower())
    assert "Solved" in tab.status()
    assert page.locator(".np-words li.np-done").count() == page.locator(".np-words li").count()
    tab.shot("fillin-solved")


def test_a_mosaic_is_solved_by_clicking_its_cells(context: Any, mosaic_site: Path) -> None:
    """Every cell, clue cells too, is a grid cell named by its row and column: a click fills
    it, a second marks it empty, a third clears it; clues grey as their blocks complete and
    the status says solved when the grid is right."""
    tab = Tab(context.new_page(), mosaic_site, "puzzle-03.html")  # the heart, 7x5
    assert tab.record["kind"] == "mosaic"
    page = tab.page

    def cell(r: int, c: int) -> Any:
        return page.get_by_role("gridcell", name=re.compile(rf"^row {r + 1}, column {c + 1},"))

    # the 5 at row 1, column 6 shows its digit in its own cell
    assert cell(0, 5).inner_text() == "5" and "clue 5" in str(cell(0, 5).get_attribute(
        "aria-label"))
    cell(0, 0).click()
    assert tab.marks()[0] == 1
    cell(0, 0).click()
    assert tab.marks()[0] == DOT and "marked empty" in str(cell(0, 0).get_attribute("aria-label"))
    cell(0, 0).click()
    assert tab.marks()[0] == 0
    clues = [(r, c) for r, row in enumerate(tab.record["clues"])
             for c, ch in enumerate(row) if ch != "."]
    for i, value in enumerate(tab.solution):
        if value:
            cell(*divmod(i, tab.width)).click()
    assert "Solved" in tab.status() and tab.page.locator(".np-solved").is_visible()
    assert "Solved: Heart" in page.locator(".np-solved").inner_text()
    assert page.locator(".np-digit.np-done").count() == len(clues)
    tab.shot("mosaic-solved")


def test_a_mosaic_is_solved_by_keyboard_alone(context: Any, mosaic_site: Path) -> None:
    """The black-and-white board's keys: arrows, Home, Space fills, x marks empty."""
    tab = Tab(context.new_page(), mosaic_site, "puzzle-03.html")
    page = tab.page
    for _ in range(40):  # Tab from the top of the page to the grid
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.getAttribute('role')") == "gridcell":
            break
    assert page.evaluate("document.activeElement.dataset.i") == "0"
    for r in range(tab.height):
        for c in range(tab.width):
            page.keyboard.press("Space" if tab.solution[r * tab.width + c] else "x")
            if c < tab.width - 1:
                page.keyboard.press("ArrowRight")
        if r < tab.height - 1:
            page.keyboard.press("ArrowDown")
            page.keyboard.press("Home")
    assert "Solved" in tab.status()
    assert page.get_by_role("gridcell").count() == tab.width * tab.height
    # every clue greyed, the 0s included once their blocks are marked
    assert page.locator(".np-digit.np-done").count() == page.locator(".np-digit").count()


def test_a_mosaic_hint_names_its_technique_and_is_accepted(context: Any, mosaic_site: Path
                                                           ) -> None:
    tab = Tab(context.new_page(), mosaic_site, "puzzle-03.html")
    page = tab.page
    hint = page.locator(".np-hint-stage")
    page.get_by_role("button", name="Hint", exact=True).click()
    assert "A step from one clue (easy)" in hint.inner_text()
    page.get_by_role("button", name="Hint: tell me more").click()
    assert "The 9 at row 3, column 4" in hint.inner_text()
    assert page.locator(".np-show").count() == 9  # the 9's block
    page.get_by_role("button", name="Hint: tell me more").click()
    assert "[zeros-and-nines] the 9 at row 3, column 4 fills its whole block" in hint.inner_text()
    page.get_by_role("button", name="Hint: tell me more").click()
    page.get_by_role("button", name="Accept").click()
    marks = tab.marks()
    block = [r * tab.width + c for r in (1, 2, 3) for c in (2, 3, 4)]
    assert [marks[i] for i in block] == [1] * 9 and sum(1 for m in marks if m) == 9
    assert page.locator(".np-digit.np-done").count() >= 1  # the 9 is met


def test_titles_are_text_and_only_the_players_script_runs(browser: Any, tmp_path: Path) -> None:
    puzzle = tmp_path / "evil.non"
    puzzle.write_text('title "<script>window.pwned=1</script><b>x</b>"\nby "<img src=x '
                      'onerror=window.pwned=2>"\nwidth 2\nheight 2\nrows\n2\n1\ncolumns\n2\n1\n')
    out = tmp_path / "site"
    manifest = tmp_path / "evil.yaml"
    manifest.write_text("title: '<script>window.pwned=3</script>'\npuzzles:\n"
                        "  - file: evil.non\n    hide_title: false\n"
                        "    note: '<img src=x onerror=window.pwned=4>'\n")
    assert main(["web", str(manifest), "-o", str(out), "-q", "--cache-dir", str(tmp_path)]) == 0
    ctx = browser.new_context()
    requests: list[str] = []
    ctx.on("request", lambda request: requests.append(request.url))
    try:
        page = ctx.new_page()
        page.goto((out / "puzzle-01.html").as_uri())
        page.wait_for_selector(".np-cell")
        assert page.evaluate("window.pwned") is None
        assert "<script>window.pwned=1</script>" in page.locator("h1").inner_text()
        assert "onerror" in page.locator(".np-author").inner_text()
        page.goto((out / "index.html").as_uri())
        assert "<script>" in page.locator("h1").inner_text()
        # the policy is in force: an inline script slipped into a page does not run
        tampered = out / "tampered.html"
        tampered.write_text((out / "puzzle-01.html").read_text().replace(
            "<main>", "<main><script>window.pwned=5</script>"))
        page.goto(tampered.as_uri())
        page.wait_for_selector(".np-cell")
        assert page.evaluate("window.pwned") is None
        assert all(url.startswith("file://") for url in requests)
    finally:
        ctx.close()


def _axe(page: Any) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [f"{v['id']}: {v['help']} ({len(v['nodes'])} nodes)"
            for v in results.response["violations"]]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_violation_on_the_index_and_a_puzzle_page(browser: Any, sample: Path,
                                                                scheme: str) -> None:
    pytest.importorskip("axe_playwright_python")
    ctx = browser.new_context(color_scheme=scheme)
    try:
        page = ctx.new_page()
        page.goto((sample / "index.html").as_uri())
        assert _axe(page) == []
        page.goto((sample / "puzzle-03.html").as_uri())
        page.wait_for_selector(".np-cell")
        page.mouse.click(10, 10)
        assert _axe(page) == []
        Tab(page, sample, "puzzle-03.html").shot(f"puzzle-{scheme}")
    finally:
        ctx.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_violation_on_a_mosaic_mid_solve(browser: Any, mosaic_site: Path,
                                                      scheme: str) -> None:
    """The clue digits keep their contrast on open, filled, marked and greyed cells."""
    pytest.importorskip("axe_playwright_python")
    ctx = browser.new_context(color_scheme=scheme)
    try:
        tab = Tab(ctx.new_page(), mosaic_site, "puzzle-03.html")
        for i in range(2 * tab.width):  # the first two rows: filled, marked and met clues
            if tab.solution[i]:
                tab.cell(*divmod(i, tab.width)).click()
            elif i % 2:
                tab.cell(*divmod(i, tab.width)).click(button="right")
        assert _axe(tab.page) == []
        tab.shot(f"mosaic-{scheme}")
    finally:
        ctx.close()


class Collector:
    """A solve collector on loopback: records each POST's body and content type; answers
    500 to the first ``fail`` of them."""

    def __init__(self, fail: int = 0):
        import http.server
        import threading

        self.posts: list[tuple[str, dict[str, Any]]] = []
        self.fail = fail
        owner = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_OPTIONS(self) -> None:  # a preflight would land here: none is expected
                owner.posts.append(("OPTIONS", {}))
                self.send_response(204)
                self.end_headers()

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                owner.posts.append((self.headers.get("Content-Type", ""), json.loads(body)))
                status = 500 if owner.fail > 0 else 201
                owner.fail -= 1
                self.send_response(status)
                self.send_header("Access-Control-Allow-Origin", "*")
                self.send_header("Content-Length", "0")
                self.end_headers()

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1/solves"

    def wait(self, page: Any, count: int) -> list[dict[str, Any]]:
        for _ in range(100):
            if len(self.posts) >= count:
                break
            page.wait_for_timeout(50)
        return [body for _, body in self.posts]


@pytest.fixture
def collector() -> Iterator[Collector]:
    found = Collector(fail=1)
    yield found
    found.server.shutdown()


def _collecting_site(tmp_path: Path, url: str) -> Path:
    out = tmp_path / "site"
    assert main(["web", str(ROOT / "puzzles" / "house.yaml"), "-o", str(out), "-q",
                 "--cache-dir", str(tmp_path), "--collect", url]) == 0
    return out


def _solve(tab: Tab) -> None:
    for i, value in enumerate(tab.solution):
        if value:
            tab.page.mouse.click(*tab.centre(*divmod(i, tab.width)))


RECORD_FIELDS = {"v", "record_id", "solver_id", "puzzle_key", "grader_version",
                 "seconds_active", "completed", "checks", "reveals", "errors_found", "hints",
                 "hint_rungs", "device", "started_at", "player", "finish"}


def test_a_solve_is_reported_once_and_retried_with_the_same_record_id(
        context: Any, tmp_path: Path, collector: Collector) -> None:
    from grader import __version__
    from grader.ladder import grader_version

    site = _collecting_site(tmp_path, collector.url)
    tab = Tab(context.new_page(), site, "puzzle-01.html")
    page = tab.page
    page.get_by_role("button", name=re.compile("Hint")).click()
    page.get_by_role("button", name="Check").click()
    _solve(tab)
    first = collector.wait(page, 1)[0]
    assert collector.posts[0][0].startswith("text/plain")  # a simple request: no preflight
    assert set(first) == RECORD_FIELDS
    assert first["v"] == 1 and first["completed"] is True
    assert first["puzzle_key"] == read_any(ROOT / "puzzles" / "house.yaml")[0].key()
    assert first["grader_version"] == grader_version()
    assert first["player"] == f"nonopress-player/{__version__}"
    assert first["hints"] == {"1": 1, "2": 0, "3": 0, "4": 0}
    assert first["hint_rungs"] == ["simple-boxes"] and first["checks"] == 1
    assert first["finish"] == "unaided"  # a hint read, none accepted
    assert first["device"] == "desktop"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\dZ", first["started_at"])
    assert page.evaluate("localStorage.getItem('nonopress-solver-id')") == first["solver_id"]
    # the collector answered 500: the next visit sends the same record again
    page.reload()
    page.wait_for_selector(".np-cell")
    bodies = collector.wait(page, 2)
    assert len(bodies) == 2 and bodies[1] == first
    page.reload()
    page.wait_for_selector(".np-cell")
    page.wait_for_timeout(500)
    assert len(collector.posts) == 2  # acknowledged: never again
    assert all(kind != "OPTIONS" for kind, _ in collector.posts)


def test_leaving_mid_solve_sends_an_abandoned_record_by_beacon(
        context: Any, tmp_path: Path, collector: Collector) -> None:
    collector.fail = 0
    site = _collecting_site(tmp_path, collector.url)
    tab = Tab(context.new_page(), site, "puzzle-01.html")
    tab.page.mouse.click(*tab.centre(2, 0))
    tab.page.goto("about:blank")
    bodies = collector.wait(tab.page, 1)
    assert len(bodies) == 1 and bodies[0]["completed"] is False


def test_the_toggle_turns_reporting_off_on_this_device(
        context: Any, tmp_path: Path, collector: Collector) -> None:
    site = _collecting_site(tmp_path, collector.url)
    tab = Tab(context.new_page(), site, "puzzle-01.html")
    toggle = tab.page.get_by_label("Send anonymous solve statistics")
    assert toggle.is_checked()
    toggle.uncheck()
    _solve(tab)
    tab.page.goto("about:blank")
    tab.page.wait_for_timeout(500)
    assert collector.posts == []


def test_the_element_embeds_a_puzzle_with_one_script_tag(context: Any, sample: Path,
                                                         tmp_path: Path) -> None:
    """The embed snippet on another page, served over HTTP: the element fetches the JSON
    and brings its own style sheet."""
    import functools
    import http.server
    import threading

    folder = tmp_path / "host"
    shutil.copytree(sample, folder)
    (folder / "embed.html").write_text(
        "<!doctype html><html lang='en'><head><meta charset='utf-8'><title>Our puzzle</title>"
        "</head><body><main><h1>Today's puzzle</h1>\n"
        '<script src="player.js" defer></script>\n'
        '<nonopress-puzzle src="puzzle-01.json"></nonopress-puzzle>\n</main></body></html>\n')
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(folder))
    handler.log_message = lambda *args: None  # type: ignore[method-assign]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{server.server_address[1]}/embed.html")
        page.wait_for_selector(".np-cell")
        assert page.locator("link[data-nonopress]").count() == 1
        assert page.locator(".np-cell").first.evaluate(
            "(cell) => getComputedStyle(cell).touchAction") == "none"  # styled
        tab = Tab.__new__(Tab)
        tab.page, tab.record = page, json.loads((folder / "puzzle-01.json").read_text())
        tab.width = tab.record["width"]
        tab.solution = [int(ch) for ch in reveal(tab.record["solution"], tab.record["key"])]
        _solve(tab)
        assert "Solved" in tab.status()
    finally:
        server.shutdown()


def test_every_puzzle_of_the_sample_issue_plays(context: Any, sample: Path) -> None:
    """Each page mounts its grid with every clue, and reveal-all ends in "Solved" (the
    answer the page carries is the puzzle's solution: every clue crossed off)."""
    index = (sample / "index.html").read_text()
    pages = re.findall(r'href="(puzzle-\d+\.html)"', index)
    assert len(pages) == 11
    page = context.new_page()
    for name in pages:
        tab = Tab(page, sample, name)
        assert page.locator(".np-cell").count() == tab.width * tab.height
        page.get_by_role("button", name="Reveal all").click()
        page.get_by_role("button", name="Reveal", exact=True).click()  # the confirmation
        assert "Solved" in page.locator(".np-solved").inner_text(), name
        assert page.locator(".np-clue.np-done").count() == tab.width + tab.height, name


def test_move_lets_a_finger_pan_instead_of_paint(browser: Any, sample: Path) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                              is_mobile=True)
    try:
        tab = Tab(ctx.new_page(), sample, "puzzle-08.html")  # 23x23: wider than the phone
        page = tab.page
        move = page.get_by_role("button", name="Move the grid instead of painting")
        move.click()
        page.touchscreen.tap(*tab.centre(0, 0))
        assert tab.marks()[0] == 0 and move.get_attribute("aria-pressed") == "true"
        assert page.locator(".np-cell").first.evaluate(
            "(cell) => getComputedStyle(cell).touchAction") in (
                "manipulation", "pan-x pan-y pinch-zoom")  # the same, as Chromium names it
        assert page.evaluate("document.querySelector('.np-scroller').scrollWidth") > \
            page.evaluate("document.querySelector('.np-scroller').clientWidth")
        move.click()
        page.touchscreen.tap(*tab.centre(0, 0))
        assert tab.marks()[0] == 1
    finally:
        ctx.close()


def test_a_mosaics_thick_rules_fall_every_5_cells(context: Any, mosaic_site: Path) -> None:
    """As printed: a thicker rule after every 5th row and column, none after the first
    (where a nonogram's clue row and column end, and the mosaic has none)."""
    tab = Tab(context.new_page(), mosaic_site, "puzzle-04.html")  # the fish, 20x15
    assert tab.record["kind"] == "mosaic"

    def width(r: int, c: int, side: str) -> str:
        return str(tab.cell(r, c).evaluate(
            f"e => getComputedStyle(e).getPropertyValue('border-{side}-width')"))

    assert width(0, 0, "left") == "2px" and width(0, 0, "top") == "2px"  # the border
    assert width(0, 1, "left") == "0px" and width(1, 0, "top") == "0px"
    assert width(0, 4, "right") == "2px" and width(0, 3, "right") == "1px"
    assert width(4, 0, "bottom") == "2px" and width(3, 0, "bottom") == "1px"
    assert width(0, 19, "right") == "2px" and width(14, 0, "bottom") == "2px"
