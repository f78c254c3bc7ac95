"""The player at home (issue 56, the second half): a schedule that withdraws what is not yet
due, an embed its host page cannot restyle, habits kept on the device (statistics, a
streak, a spoiler-free share card, an optional error signal) and printing from the page; in
a real headless Chromium on the sample issue's site."""

from __future__ import annotations

import functools
import http.server
import json
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api")

from nonopress.app.play import reveal  # noqa: E402
from nonopress.cli import main  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed")
ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"
#: screenshots of what the tests saw, to look at after a run
SHOTS = Path(tempfile.gettempdir()) / "nonopress-web-shots"


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Callable[[Path], str]]:
    """``served(folder)``: the folder over HTTP on loopback (the element fetches its JSON)."""
    servers: list[http.server.ThreadingHTTPServer] = []

    def serve(folder: Path) -> str:
        handler = functools.partial(_Quiet, directory=str(folder))
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}"

    yield serve
    for server in servers:
        server.shutdown()


def _solution(site: Path, stem: str) -> tuple[int, list[int]]:
    record = json.loads((site / f"{stem}.json").read_text())
    return record["width"], [int(ch, 36) for ch in reveal(record["solution"], record["key"])]


def _axe(page: Any) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [f"{v['id']}: {v['help']} ({len(v['nodes'])} nodes)"
            for v in results.response["violations"]]


# -- item 6: the schedule --------------------------------------------------------------------
def test_a_page_withdrawn_by_an_earlier_until_is_gone_from_the_browser(
        context: Any, tmp_path: Path) -> None:
    (tmp_path / "daily.yaml").write_text(
        "title: Daily\ndate: 2026-12-01\npuzzles:\n"
        f"  - file: {PUZZLES / 'house.yaml'}\n"
        f"  - file: {PUZZLES / 'heart.yaml'}\n    date: 2026-12-02\n")
    out = tmp_path / "site"
    args = ["web", str(tmp_path / "daily.yaml"), "-o", str(out), "-q", "--cache-dir",
            str(tmp_path)]
    assert main(args) == 0
    page = context.new_page()
    page.goto((out / "puzzle-02.html").as_uri())
    page.wait_for_selector(".np-cell")
    assert main([*args, "--until", "2026-12-01"]) == 0
    with pytest.raises(sync_api.Error, match="ERR_FILE_NOT_FOUND"):
        page.goto((out / "puzzle-02.html").as_uri())
    page = context.new_page()
    page.goto((out / "index.html").as_uri())
    assert page.locator("a[href='puzzle-02.html']").count() == 0
    assert page.locator("a[href='puzzle-01.html']").count() == 1


# -- item 4: the embed in its shadow root ------------------------------------------------------
HOSTILE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>A hostile host</title>
<style>
div { border: 7px solid #8b0000 !important; padding: 13px; }
* { font-size: 40px; color: #8b0000; line-height: 3; font-family: serif; letter-spacing: 3px; }
button { background: #ffd0e0; }
p { margin: 50px; }
</style></head><body><main><h1>Today's puzzle</h1>
<div class="np-toolbar" id="own-toolbar">
<button type="button" id="own">The host's button</button></div>
<p class="np-status" id="own-status">The host's paragraph</p>
<script src="player.js" defer></script>
<nonopress-puzzle src="puzzle-01.json"></nonopress-puzzle>
</main></body></html>
"""

#: computed styles of the player's parts, read inside its shadow root (or the light DOM)
LOOKS = """(scheme) => {
  const element = document.querySelector('nonopress-puzzle');
  const root = element.shadowRoot || document;
  const look = (selector, names) => {
    const node = root.querySelector(selector);
    const style = getComputedStyle(node);
    return Object.fromEntries(names.map((name) => [name, style[name]]));
  };
  return {
    cell: look('.np-cell', ['borderTopWidth', 'borderRightWidth', 'padding', 'width']),
    scroller: look('.np-scroller', ['borderTopWidth', 'paddingTop']),
    status: look('.np-status', ['fontSize', 'lineHeight', 'marginTop', 'fontFamily']),
    title: look('.np-title', ['fontSize', 'color', 'letterSpacing']),
    button: look('.np-toolbar button', ['backgroundColor', 'fontSize', 'color']),
    clue: look('.np-rowclue', ['fontSize', 'color', 'borderTopWidth']),
  };
}"""


def test_a_hostile_host_page_cannot_restyle_the_player_nor_it_the_page(
        context: Any, sample: Path, tmp_path: Path, served: Callable[[Path], str]) -> None:
    """Issue 56 item 4: `div{border}`, `*{font-size}`, `p{margin}` on the host reach
    nothing inside the element (its parts look as on the site's own page), and the player's
    style sheet reaches nothing of the host's (its own .np-toolbar and .np-status)."""
    folder = tmp_path / "host"
    shutil.copytree(sample, folder)
    (folder / "hostile.html").write_text(HOSTILE)
    base = served(folder)
    page = context.new_page()
    page.goto(f"{base}/puzzle-01.html")
    page.wait_for_selector(".np-cell")
    reference = page.evaluate(LOOKS)
    page.goto(f"{base}/hostile.html")
    page.wait_for_selector(".np-cell")
    page.wait_for_function(  # the shadow root's own style sheet has applied
        "() => getComputedStyle((document.querySelector('nonopress-puzzle').shadowRoot"
        " || document).querySelector('.np-cell')).touchAction === 'none'")
    embedded = page.evaluate(LOOKS)
    assert embedded["cell"]["borderTopWidth"] != "7px"
    assert embedded["scroller"] == reference["scroller"]
    assert embedded["status"] == reference["status"]
    assert embedded["title"] == reference["title"]
    assert embedded["button"] == reference["button"]
    assert embedded["clue"]["fontSize"] == embedded["clue"]["fontSize"] != "40px"
    # the player's sheet is the shadow root's: the host's look-alike parts keep the host's
    host = page.evaluate("""() => ({
      toolbar: getComputedStyle(document.getElementById('own-toolbar')).display,
      status: getComputedStyle(document.getElementById('own-status')).fontWeight,
      button: getComputedStyle(document.getElementById('own')).backgroundColor,
      sheets: Array.from(document.styleSheets).map((s) => s.href || 'inline')})""")
    assert host == {"toolbar": "block", "status": "400", "button": "rgb(255, 208, 224)",
                    "sheets": ["inline"]}
    # it plays: a click paints, reveal all solves
    solution = _solution(folder, "puzzle-01")[1]
    first = solution.index(1)
    cell = page.locator(f'.np-cell[data-i="{first}"]')
    cell.click()
    assert page.evaluate("document.querySelector('nonopress-puzzle').player.cells"
                         f"[{first}]") == 1
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.querySelector('nonopress-puzzle').player.board.active") \
        == first + 1
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "embed-hostile-host.png"), full_page=True)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_violation_on_the_hostile_host_page(
        browser: Any, sample: Path, tmp_path: Path, served: Callable[[Path], str],
        scheme: str) -> None:
    pytest.importorskip("axe_playwright_python")
    folder = tmp_path / "host"
    shutil.copytree(sample, folder)
    page_text = HOSTILE
    if scheme == "dark":  # the host's own colours readable on its own dark background
        page_text = page_text.replace("#8b0000", "#ffb0b0").replace("#ffd0e0", "#402030") \
            .replace("<body>", "<body style='background: #101010'>")
    (folder / "hostile.html").write_text(page_text)
    ctx = browser.new_context(color_scheme=scheme)
    try:
        page = ctx.new_page()
        page.goto(f"{served(folder)}/hostile.html")
        page.wait_for_selector(".np-cell")
        page.locator(".np-cell").first.click()
        assert _axe(page) == []
    finally:
        ctx.close()


def test_a_refused_embed_says_why_through_its_shadow_root(
        context: Any, tmp_path: Path, served: Callable[[Path], str], sample: Path) -> None:
    folder = tmp_path / "host"
    shutil.copytree(sample, folder)
    record = json.loads((folder / "puzzle-01.json").read_text())
    record["width"] = 9999
    (folder / "bad.json").write_text(json.dumps(record))
    (folder / "bad.html").write_text(HOSTILE.replace("puzzle-01.json", "bad.json"))
    page = context.new_page()
    page.goto(f"{served(folder)}/bad.html")
    refused = page.locator("nonopress-puzzle")
    page.wait_for_function("() => /could not be loaded/.test("
                           "document.querySelector('nonopress-puzzle').textContent)")
    assert refused.is_visible() and "width" in refused.inner_text()


# -- habits: statistics, streak, share card, error signal --------------------------------------
class Play:
    """A puzzle page of the site, opened from disk."""

    def __init__(self, page: Any, site: Path, stem: str):
        self.page = page
        self.record = json.loads((site / f"{stem}.json").read_text())
        self.width, self.solution = _solution(site, stem)
        self.height = len(self.solution) // self.width
        page.goto((site / f"{stem}.html").as_uri())
        page.wait_for_selector(".np-cell")
        page.wait_for_selector(".np-extras button")  # the extras have joined

    def cell(self, i: int) -> Any:
        return self.page.locator(f'.np-cell[data-i="{i}"]')

    def click(self, i: int) -> None:
        box = self.cell(i).bounding_box()
        self.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)

    def solve(self) -> None:
        for i, value in enumerate(self.solution):
            if value and self.cells()[i] != value:
                self.click(i)

    def cells(self) -> list[int]:
        return list(self.page.evaluate(
            "() => Array.from(document.querySelector('nonopress-puzzle').player.cells)"))

    def status(self) -> str:
        self.page.wait_for_timeout(60)
        return str(self.page.locator(".np-status").inner_text())


def _days_ago(page: Any, days: int) -> str:
    return str(page.evaluate(f"""() => {{ const t = new Date(); t.setDate(t.getDate() - {days});
      return NonopressHabits.today(t); }}"""))


def test_a_solve_counts_on_the_device_and_shows_solved_streak_and_best(
        context: Any, sample: Path) -> None:
    """Habits: solved, the streak of days (two earlier days kept, today's solve makes
    three), best and median times by level, on the solved panel and on the index."""
    page = context.new_page()
    play = Play(page, sample, "puzzle-01")
    earlier = {"old-1": {"d": _days_ago(page, 1), "s": 300, "l": "easy", "h": 0},
               "old-2": {"d": _days_ago(page, 2), "s": 100, "l": "easy", "h": 0},
               "old-9": {"d": _days_ago(page, 9), "s": 900, "l": "hard", "h": 2}}
    page.evaluate("(solves) => localStorage.setItem('nonopress-habits', "
                  "JSON.stringify({v: 1, solves}))", earlier)
    play.solve()
    panel = page.locator(".np-solved")
    panel.wait_for()
    text = panel.inner_text()
    assert "Solved: 4" in text and "Streak: 3 days" in text, text
    # easy: 100 s, 300 s and this solve (seconds): best 1:40 unless this one was faster
    assert "easy: best 0:" in text or "easy: best 1:40" in text
    assert "hard: best 15:00, median 15:00 (1 solved)" in text
    # a replay, "Play again", solved again: still one solve of this puzzle
    page.get_by_role("button", name="Play again").click()
    play.solve()
    assert "Solved: 4" in page.locator(".np-solved").inner_text()
    page.goto((sample / "index.html").as_uri())
    stats = page.locator(".np-habits")
    stats.wait_for()
    assert "Solved: 4" in stats.inner_text() and "Streak: 3 days" in stats.inner_text()
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "index-statistics.png"), full_page=True)


def test_the_index_shows_no_statistics_before_a_solve(context: Any, sample: Path) -> None:
    page = context.new_page()
    page.goto((sample / "index.html").as_uri())
    page.wait_for_load_state("load")
    assert page.locator(".np-habits").count() == 0
    assert page.locator("[data-np-habits]").is_hidden()


def test_share_copies_a_card_that_gives_nothing_away(browser: Any, sample: Path) -> None:
    """The card: the heading, the time, the hints, one square a row (green by yourself,
    yellow with a hint, red where a mistake was found); never the title or the picture."""
    ctx = browser.new_context(viewport={"width": 1100, "height": 900})
    ctx.grant_permissions(["clipboard-read", "clipboard-write"])
    try:
        page = ctx.new_page()
        play = Play(page, sample, "puzzle-01")
        # a wrong mark in the last row found by Check, then cleared
        last = (play.height - 1) * play.width + play.solution[-play.width:].index(0)
        play.click(last)
        page.get_by_role("button", name="Check").click()
        play.click(last)
        play.click(last)  # filled -> dot? clear whatever it is back to blank
        page.evaluate(f"document.querySelector('nonopress-puzzle').player.apply([[{last}, 0]])")
        page.get_by_role("button", name="Hint").click()
        for _ in range(3):
            page.get_by_role("button", name=re_more()).click()
        page.get_by_role("button", name="Accept").click()
        hinted = {i // play.width for i, v in enumerate(play.cells()) if v}
        play.solve()
        page.get_by_role("button", name="Share").click()
        card = page.locator(".np-card").inner_text()
        copied = page.evaluate("navigator.clipboard.readText()")
        assert copied == card
        lines = card.split("\n")
        assert lines[0].startswith(play.record["heading"])
        assert "Hints: 1" in lines[1] and "checks: 1" in lines[1]
        squares = "".join(lines[2:])
        assert len(squares) == play.height  # one square a row, five rows a line
        assert all(len(line) <= 5 for line in lines[2:])
        assert squares[-1] == "\U0001f7e5"  # the mistake's row
        assert all(squares[r] in "\U0001f7e8\U0001f7e5" for r in hinted)
        assert "\U0001f7e9" in squares
        title = reveal(play.record["veiled_title"], play.record["key"][8:])
        assert title not in card and "\u2b1b" not in card and "#" not in card
        assert "Copied" in play.status()
    finally:
        ctx.close()


def re_more() -> Any:
    import re

    return re.compile("more", re.IGNORECASE)


def test_the_error_signal_is_off_by_default_and_marks_a_contradicting_line(
        context: Any, sample: Path) -> None:
    page = context.new_page()
    play = Play(page, sample, "puzzle-01")
    clue = play.record["rows"][0]
    assert sum(clue) + len(clue) - 1 < play.width  # row 1 cannot be full
    for i in range(play.width):
        play.click(i)
    heads = page.locator("[role=rowheader]")
    assert page.locator(".np-contradicts").count() == 0  # off by default
    checks = "document.querySelector('nonopress-puzzle').player.stats.checks"
    assert page.evaluate(checks) == 0
    page.get_by_label("Mark lines that contradict their clue as I go").check()
    assert "np-contradicts" in (heads.first.get_attribute("class") or "")
    assert page.evaluate(checks) == 1  # counted as a check
    page.get_by_role("button", name="Undo").click()
    play.click(play.width * 2 + 1)  # another row's cell: row 1 is still wrong
    assert "np-contradicts" in (heads.first.get_attribute("class") or "")
    for _ in range(play.width + 1):
        page.keyboard.press("Control+z")
    assert page.locator(".np-contradicts").count() == 0
    # a row painted wrong while the signal is on is announced
    for i in range(play.width):
        play.click(i)
    assert "Row 1 cannot fit its clue" in play.status()
    assert page.evaluate(checks) == 2
    page.wait_for_timeout(500)  # saved after a quiet moment
    page.reload()
    page.wait_for_selector(".np-contradicts")  # the setting and the mark come back
    assert page.evaluate(checks) == 2  # drawn again, not counted again


def test_the_line_check_agrees_with_every_clue_of_a_solved_grid(context: Any,
                                                               sample: Path) -> None:
    """The signal never marks a right line: every row and column of every sample answer
    fits its clue, and a line one cell off does not."""
    page = context.new_page()
    Play(page, sample, "puzzle-03")
    for stem in ("puzzle-03", "puzzle-07"):
        record = json.loads((sample / f"{stem}.json").read_text())
        width, solution = _solution(sample, stem)
        rows = [solution[k:k + width] for k in range(0, len(solution), width)]
        bad = page.evaluate("""([rows, clues]) => rows.map((row, k) =>
            NonopressHabits.fits(row.map((v) => v || 255), clues[k].map((x) => [x, 1])))""",
                            [rows, record["rows"]])
        assert all(bad)
        off = page.evaluate("""([rows, clues]) => rows.map((row, k) => {
            const r = row.map((v) => v || 255); const j = r.indexOf(255);
            if (j < 0) return false; r[j] = 1;
            return NonopressHabits.fits(r, clues[k].map((x) => [x, 1])); })""",
                            [rows, record["rows"]])
        assert not any(off)


# -- printing ------------------------------------------------------------------------------------
VISIBLE = """() => {
  const shown = (node) => node.getClientRects().length > 0
    && getComputedStyle(node).visibility !== 'hidden';
  const all = (selector) => Array.from(document.querySelectorAll(selector)).filter(shown);
  const grids = all('.np-grid');
  return {buttons: all('button, select, input').length, grids: grids.length,
          filled: grids.length ? grids[grids.length - 1].querySelectorAll('.np-filled').length : -1,
          clues: grids.length ? grids[grids.length - 1].querySelectorAll('.np-clue').length : -1,
          title: all('.np-title').length, status: all('.np-status, .np-toolbar').length,
          cell: grids.length ? grids[grids.length - 1].querySelector('.np-cell')
            .getBoundingClientRect().width : 0,
          clueSize: grids.length ? parseFloat(getComputedStyle(
            grids[grids.length - 1].querySelector('.np-rowclue')).fontSize) : 0};
}"""


def _pdf_text(pdf: Path) -> str:
    return subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                          text=True, check=True).stdout


def test_print_shows_the_grid_and_clues_at_print_sizes_and_no_control(
        context: Any, sample: Path) -> None:
    """The Print control prints the grid as it is, a blank grid or the answer (chosen
    beside it): in print media no button shows, and the grid shown holds what was chosen."""
    page = context.new_page()
    play = Play(page, sample, "puzzle-06")  # 15x15
    page.evaluate("() => { window.print = () => { window.printed = (window.printed || 0) + 1; }; }")
    mine = [i for i, v in enumerate(play.solution) if v][:7]
    for i in mine:
        play.click(i)
    ones = sum(1 for v in play.solution if v)
    screen = page.evaluate(VISIBLE)
    assert screen["buttons"] > 5 and screen["grids"] == 1
    page.get_by_role("button", name="Print").click()
    assert page.evaluate("window.printed") == 1
    page.emulate_media(media="print")
    progress = page.evaluate(VISIBLE)
    assert progress["buttons"] == 0 and progress["status"] == 0 and progress["title"] == 1
    assert progress["grids"] == 1 and progress["filled"] == len(mine)
    assert progress["clues"] == play.width + play.height
    # at print sizes: a cell of 3 to 8 mm (11 to 30 px), clues of at least 8 pt
    assert 11 <= progress["cell"] <= 31 and progress["clueSize"] >= 10.6
    pdf = SHOTS / "print-progress.pdf"
    SHOTS.mkdir(exist_ok=True)
    page.pdf(path=str(pdf), format="A4")
    text = _pdf_text(pdf)
    assert "Print" not in text and "Hint" not in text and "Undo" not in text
    assert play.record["heading"] in text
    page.emulate_media(media="screen")
    page.get_by_label("What to print").select_option("blank")
    page.emulate_media(media="print")
    blank = page.evaluate(VISIBLE)
    assert blank["grids"] == 1 and blank["filled"] == 0 and blank["clues"] == progress["clues"]
    assert play.cells().count(1) == len(mine)  # the solver's grid untouched
    page.pdf(path=str(SHOTS / "print-blank.pdf"), format="A4")
    page.emulate_media(media="screen")
    page.get_by_label("What to print").select_option("answer")
    page.emulate_media(media="print")
    answer = page.evaluate(VISIBLE)
    assert answer["grids"] == 1 and answer["filled"] == ones and answer["title"] == 0
    page.pdf(path=str(SHOTS / "print-answer.pdf"), format="A4")
    assert "Answer" in _pdf_text(SHOTS / "print-answer.pdf")
    page.emulate_media(media="screen")
    assert page.evaluate(VISIBLE)["filled"] == len(mine)  # on screen: the solver's grid
    if shutil.which("pdftoppm"):
        for name in ("print-progress", "print-blank", "print-answer"):
            subprocess.run(["pdftoppm", "-png", "-r", "60", "-singlefile",
                            str(SHOTS / f"{name}.pdf"), str(SHOTS / name)], check=True)


def test_a_large_grid_prints_on_one_page_width(context: Any, sample: Path) -> None:
    page = context.new_page()
    play = Play(page, sample, "puzzle-10")  # 30x29
    page.emulate_media(media="print")
    grid = page.evaluate("""() => {
        const g = document.querySelector('.np-grid').getBoundingClientRect();
        return [g.width, g.height]; }""")
    # A4 less Chromium's default margins is about 718 px wide at 96 px an inch
    assert grid[0] <= 718, grid
    assert play.width == 30


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_violation_on_the_solved_panel_and_the_index_statistics(
        browser: Any, sample: Path, scheme: str) -> None:
    pytest.importorskip("axe_playwright_python")
    ctx = browser.new_context(color_scheme=scheme, viewport={"width": 1100, "height": 900})
    try:
        page = ctx.new_page()
        play = Play(page, sample, "puzzle-02")
        page.get_by_label("Mark lines that contradict their clue as I go").check()
        row = next(r for r, clue in enumerate(play.record["rows"])
                   if sum(clue) + len(clue) - 1 < play.width)
        for c in range(play.width):  # a row painted full, against its clue
            play.click(row * play.width + c)
        assert page.locator(".np-contradicts").count() == 1
        assert _axe(page) == []
        for _ in range(play.width):
            page.keyboard.press("Control+z")
        play.solve()
        page.get_by_role("button", name="Share").click()
        page.locator(".np-card").wait_for()
        assert _axe(page) == []
        page.screenshot(path=str(SHOTS / f"solved-panel-{scheme}.png"), full_page=True)
        page.goto((sample / "index.html").as_uri())
        page.locator(".np-habits").wait_for()
        assert _axe(page) == []
    finally:
        ctx.close()


@pytest.mark.parametrize("cells, runs, fits", [
    ([1, 2, 0], [[1, 1], [1, 2]], True),      # two colours may touch
    ([1, 1, 0], [[1, 1], [1, 1]], False),     # one colour needs a gap
    ([1, 0, 1], [[1, 1], [1, 1]], True),
    ([255, 255, 1], [[2, 1]], False),         # the dots leave no room
    ([0, 0, 0, 0], [[2, 1], [1, 1]], True),
    ([1, 1, 1, 0], [[2, 1], [1, 1]], False),  # a run too long
    ([0, 2, 0, 0], [[2, 1]], False),          # a colour the clue lacks
    ([255, 255, 255], [], True),
    ([0, 1, 0], [], False),
])
def test_the_line_check_on_colours_gaps_and_dots(context: Any, sample: Path,
                                                 cells: list[int], runs: list[list[int]],
                                                 fits: bool) -> None:
    page = context.new_page()
    page.goto((sample / "index.html").as_uri())
    page.wait_for_function("() => typeof NonopressHabits !== 'undefined'")
    assert page.evaluate("([c, r]) => NonopressHabits.fits(c, r)", [cells, runs]) is fits
