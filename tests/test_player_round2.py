"""Issue 56 (the player, round two) in a real headless Chromium, on the bundled sample
issue's site opened from disk: hint stage 4 tells filled from empty and names its cells, a
hinted line is scrolled into view, colour keys choose without painting, Reveal all asks
first, the phone layout keeps its clues in view, and the wording."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api")

from test_web_browser import CHROMIUM, DOT, SHOTS, Tab, _axe  # noqa: E402

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed")
#: a phone as the issue tried it: 390x844 CSS px, touch, a coarse pointer
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 3,
         "is_mobile": True, "has_touch": True}


#: where the player's nodes are: its element's shadow root when it has one, else the page
ROOT_SCRIPT = ("window.npRoot = () => "
               "(document.querySelector('nonopress-puzzle') || {}).shadowRoot || document;")


def _watched(ctx: Any) -> Iterator[Any]:
    ctx.add_init_script(ROOT_SCRIPT)
    errors: list[str] = []
    ctx.on("weberror", lambda error: errors.append(str(error.error)))
    yield ctx
    ctx.close()
    assert errors == []


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    yield from _watched(browser.new_context(viewport={"width": 1100, "height": 900}))


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    yield from _watched(browser.new_context(**PHONE))


def screen(page: Any, name: str) -> None:
    """What the screen shows (a full-page shot would resize a phone's viewport)."""
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def player(page: Any, expression: str) -> Any:
    return page.evaluate(f"() => document.querySelector('nonopress-puzzle').player{expression}")


def to_stage_four(page: Any) -> None:
    page.get_by_role("button", name="Hint", exact=True).click()
    for _ in range(3):
        page.get_by_role("button", name=re.compile("more")).click()


def test_hint_stage_four_tells_filled_from_empty_keeps_the_sentence_and_names_cells(
        context: Any, sample: Path) -> None:
    tab = Tab(context.new_page(), sample, "puzzle-02.html")
    page = tab.page
    seen = set()
    for _ in range(12):
        to_stage_four(page)
        panel = page.locator(".np-hint").inner_text()
        assert "Hint 3:" in panel and "Hint 4:" in panel  # the technique's sentence stays
        index = player(page, ".hint.index")
        decided = player(page, f".data.hints.steps[{index}].c")
        spoken = tab.status()
        fills = page.locator(".np-show-fill")
        empties = page.locator(".np-show-empty")
        shown = {int(x) for x in fills.evaluate_all("els => els.map(e => e.dataset.i)")}
        blank = {int(x) for x in empties.evaluate_all("els => els.map(e => e.dataset.i)")}
        cells = set()
        for part in decided.split(","):
            a, _, b = part.partition("-")
            cells.update(range(int(a), int(b or a) + 1))
        assert shown | blank == cells and not shown & blank
        for i in cells:
            r, c = divmod(i, tab.width)
            assert (i in shown) == bool(tab.solution[i])
            assert f"row {r + 1}, column {c + 1}" in spoken, spoken
        if shown:
            assert "Filled: row" in spoken
            seen.add("filled")
        if blank:
            assert "Empty: row" in spoken
            seen.add("empty")
        if blank and not shown:  # a step that only empties cells is not named "boxes"
            assert "[simple-boxes]" not in panel and "[simple-spaces]" in panel, panel
        tab.shot("hint-stage-four")
        page.get_by_role("button", name="Accept").click()
        if seen == {"filled", "empty"}:
            break
    assert seen == {"filled", "empty"}


def test_a_hinted_line_outside_the_scroll_box_is_scrolled_into_view(browser: Any,
                                                                    sample: Path) -> None:
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    context.add_init_script(ROOT_SCRIPT)
    try:
        tab = Tab(context.new_page(), sample, "puzzle-11.html")
        page = tab.page
        for _ in range(9):
            to_stage_four(page)
            page.get_by_role("button", name="Accept").click()
        moved = 0
        for _ in range(6):  # the next hints, each to its line
            page.get_by_role("button", name="Hint", exact=True).click()
            page.get_by_role("button", name=re.compile("more")).click()
            page.wait_for_timeout(100)
            inside = page.evaluate("""() => {
              const box = npRoot().querySelector('.np-scroller').getBoundingClientRect();
              const view = {top: Math.max(box.top, 0), bottom: Math.min(box.bottom, innerHeight),
                            left: Math.max(box.left, 0), right: Math.min(box.right, innerWidth)};
              return [...npRoot().querySelectorAll('.np-show')].some((c) => {
                const r = c.getBoundingClientRect();
                return r.top >= view.top - 1 && r.bottom <= view.bottom + 1
                  && r.left >= view.left - 1 && r.right <= view.right + 1;
              });
            }""")
            assert inside, "the hinted line is out of view"
            moved += page.evaluate("npRoot().querySelector('.np-scroller').scrollTop") > 0
            to_stage = page.get_by_role("button", name=re.compile("more"))
            while to_stage.count():
                to_stage.click()
            page.get_by_role("button", name="Accept").click()
        assert moved, "no hint needed a scroll: the test proves nothing"
    finally:
        context.close()


def test_a_colour_key_chooses_the_colour_and_paints_nothing(context: Any,
                                                            colour_site: Path) -> None:
    """Item 5: a key 1-9 chooses the colour; Space then paints the focused cell with it (it
    painted too, so the following Space cleared the cell)."""
    tab = Tab(context.new_page(), colour_site, "puzzle-01.html")
    page = tab.page
    tab.cell(0, 0).click(button="right")  # focus the first cell, marking it empty
    page.keyboard.press("Backspace")
    assert tab.marks()[0] == 0
    page.keyboard.press("2")
    assert tab.marks()[0] == 0, "the colour key painted the cell"
    assert page.locator('.np-tool[aria-checked="true"]').get_attribute("data-value") == "2"
    page.keyboard.press("Space")
    assert tab.marks()[0] == 2
    page.keyboard.press("1")
    assert tab.marks()[0] == 2
    page.keyboard.press("Space")
    assert tab.marks()[0] == 1


def test_reveal_all_asks_first_and_cancel_keeps_the_grid(context: Any, sample: Path) -> None:
    """Item 7: Reveal all opens a dialog; Cancel (or Escape) leaves every cell as it was,
    Reveal reveals and the panel says the attempt was given up."""
    tab = Tab(context.new_page(), sample, "puzzle-03.html")
    page = tab.page
    page.mouse.click(*tab.centre(0, 0))
    before = tab.marks()
    page.get_by_role("button", name="Reveal all").click()
    dialog = page.get_by_role("dialog")
    assert dialog.is_visible() and "Reveal the whole answer" in dialog.inner_text()
    dialog.get_by_role("button", name="Cancel").click()
    assert not page.get_by_role("dialog").count() and tab.marks() == before
    page.get_by_role("button", name="Reveal all").click()
    page.keyboard.press("Escape")
    assert not page.get_by_role("dialog").count() and tab.marks() == before
    assert not page.locator(".np-solved").is_visible()
    page.get_by_role("button", name="Reveal all").click()
    page.get_by_role("dialog").get_by_role("button", name="Reveal", exact=True).click()
    panel = page.locator(".np-solved").inner_text()
    assert "given up" in panel and "reveals: 1" in panel
    record = page.evaluate(
        "() => { const p = document.querySelector('nonopress-puzzle').player;"
        " return p.record(!p.gaveUp); }")
    assert record["completed"] is False and record["finish"] == "revealed"


# -- phones (item 1) -----------------------------------------------------------------------------
def scroll_box(page: Any) -> dict[str, float]:
    return dict(page.evaluate(
        "() => { const r = npRoot().querySelector('.np-scroller').getBoundingClientRect();"
        " return {top: r.top, bottom: r.bottom, left: r.left, right: r.right,"
        " onPage: r.top + scrollY}; }"))


def test_on_a_phone_the_clues_stay_in_view_while_the_grid_scrolls(phone: Any,
                                                                  sample: Path) -> None:
    """The 30x29 of the issue at 390x844: cells of at least 24 px, the grid starting in
    the screen's first third, and scrolled right and down its row and column clues are
    still beside and above the cells shown."""
    tab = Tab(phone.new_page(), sample, "puzzle-10.html")
    page = tab.page
    assert tab.cell(0, 0).bounding_box()["width"] >= 24
    box = scroll_box(page)
    assert box["top"] < 844 / 3 and box["bottom"] <= 844
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for i, value in enumerate(tab.solution[: len(tab.solution) // 2]):  # mid-solve
        if value:
            page.evaluate(f"() => document.querySelector('nonopress-puzzle').player"
                          f".apply([[{i}, {value}]])")
    page.evaluate("() => { const s = npRoot().querySelector('.np-scroller');"
                  " s.scrollLeft = s.scrollWidth; s.scrollTop = s.scrollHeight; }")
    page.wait_for_timeout(100)
    seen = page.evaluate("""() => {
      const box = npRoot().querySelector('.np-scroller').getBoundingClientRect();
      const inside = (r) => r.bottom > box.top + 1 && r.top < box.bottom - 1
        && r.right > box.left + 1 && r.left < box.right - 1;
      const rows = [...npRoot().querySelectorAll('[role=rowheader]')]
        .map((h) => h.getBoundingClientRect())
        .filter((r) => r.bottom > box.top && r.top < box.bottom);
      const cols = [...npRoot().querySelectorAll('[role=columnheader]')]
        .map((h) => h.getBoundingClientRect())
        .filter((r) => r.right > box.left && r.left < box.right);
      const cells = npRoot().querySelectorAll('.np-cell');
      const last = cells[cells.length - 1].getBoundingClientRect();
      return {rows: rows.map((r) => [r.left - box.left, r.right - box.left]),
              cols: cols.map((r) => [r.top - box.top, r.bottom - box.top]),
              lastCell: inside(last)};
    }""")
    assert seen["lastCell"], "not scrolled to the last cell"
    assert len(seen["rows"]) >= 10 and all(left <= 1 and right > 30 for left, right in
                                            seen["rows"]), seen["rows"]
    assert len(seen["cols"]) >= 8 and all(top <= 1 and bottom > 30 for top, bottom in
                                           seen["cols"]), seen["cols"]
    screen(page, "phone-30x29-scrolled")


def test_a_long_press_marks_a_cell_empty_and_a_tap_still_fills(phone: Any,
                                                               sample: Path) -> None:
    tab = Tab(phone.new_page(), sample, "puzzle-03.html")
    page = tab.page
    cdp = phone.new_cdp_session(page)
    x, y = tab.centre(1, 1)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    page.wait_for_timeout(800)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    assert tab.marks()[tab.width + 1] == DOT
    page.get_by_role("button", name="Undo").click()
    assert tab.marks()[tab.width + 1] == 0  # one undo step, not two
    page.touchscreen.tap(x, y)
    assert tab.marks()[tab.width + 1] == 1


def test_nothing_moves_while_painting_on_a_phone(phone: Any, sample: Path) -> None:
    """Taps, a check, a hint read out and its stages: the grid does not move on the page
    (the page itself may scroll to a control), and the page reports no layout shift."""
    tab = Tab(phone.new_page(), sample, "puzzle-08.html")
    page = tab.page
    page.evaluate("() => { window.__shift = 0; new PerformanceObserver((l) => {"
                  " for (const e of l.getEntries()) window.__shift += e.value; })"
                  ".observe({type: 'layout-shift', buffered: false}); }")
    top = scroll_box(page)["onPage"]
    tops = []
    for k in range(6):
        page.touchscreen.tap(*tab.centre(k, k))
        tops.append(scroll_box(page)["onPage"])
    page.get_by_role("button", name="Check").click()
    page.wait_for_timeout(100)
    tops.append(scroll_box(page)["onPage"])
    page.get_by_role("button", name="Hint", exact=True).click()
    page.wait_for_timeout(100)
    tops.append(scroll_box(page)["onPage"])
    page.get_by_role("button", name=re.compile("more")).click()
    page.wait_for_timeout(100)
    tops.append(scroll_box(page)["onPage"])
    page.touchscreen.tap(*tab.centre(7, 2))
    page.wait_for_timeout(100)
    tops.append(scroll_box(page)["onPage"])
    assert tops == [top] * len(tops)
    assert page.evaluate("window.__shift") == 0


#: the hinted cells the screen shows: each cell marked by the hint whose centre lies in the
#: grid's box clear of its sticky clue bars, and whether the point there is the cell itself
#: (not the hint panel drawn over it); with the panel's box
UNCOVERED = """() => {
  const root = npRoot(), box = root.querySelector('.np-scroller').getBoundingClientRect();
  const head = root.querySelector('.np-head').getBoundingClientRect();
  const side = root.querySelector('.np-rowclue').getBoundingClientRect();
  const panel = root.querySelector('.np-hint').getBoundingClientRect();
  const cells = [...root.querySelectorAll('.np-show')].map((c) => {
    const r = c.getBoundingClientRect(), x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;
    if (x < side.right || x > Math.min(box.right, innerWidth) || y < head.bottom
        || y > Math.min(box.bottom, innerHeight)) return null;
    const hit = root.elementFromPoint(x, y);
    return {i: Number(c.dataset.i), seen: hit === c || c.contains(hit)};
  }).filter(Boolean);
  return {cells, panel: {top: panel.top, bottom: panel.bottom}};
}"""


def test_on_a_phone_the_hint_panel_hides_none_of_the_cells_it_talks_about(
        phone: Any, sample: Path) -> None:
    """Every row but the last solved on the 30x29, so the hint is about the bottom row: at
    each stage the hinted cells the grid's box shows are not under the panel (held at the
    screen's foot, it covered the box's lower rows), and the last row's are among them."""
    tab = Tab(phone.new_page(), sample, "puzzle-10.html")
    page = tab.page
    width, height = tab.width, tab.height
    changes = [[i, value or DOT] for i, value in enumerate(tab.solution[: width * (height - 1)])]
    player(page, f".apply({changes})")
    page.get_by_role("button", name="Hint", exact=True).click()
    for stage in (2, 3, 4):
        page.get_by_role("button", name=re.compile("more")).click()
        page.wait_for_timeout(100)
        if stage == 3:
            continue  # a sentence only: no cell marked
        seen = page.evaluate(UNCOVERED)
        assert 0 <= seen["panel"]["top"] < seen["panel"]["bottom"] <= 844, seen["panel"]
        assert seen["cells"], f"stage {stage}: no hinted cell in the grid's box"
        covered = [c["i"] for c in seen["cells"] if not c["seen"]]
        assert covered == [], f"stage {stage}: cells {covered} under the hint panel"
        if stage == 4:
            assert any(c["i"] >= width * (height - 1) for c in seen["cells"])
            screen(page, "phone-hint-bottom-row")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_violation_on_a_phone_mid_solve_with_a_hint_and_the_dialog(
        browser: Any, sample: Path, scheme: str) -> None:
    """The 30x29 on a phone, mid-solve, scrolled, hint stage 4 showing, then the Reveal all
    dialog open: axe-core finds nothing, in light and dark."""
    pytest.importorskip("axe_playwright_python")
    ctx = browser.new_context(color_scheme=scheme, **PHONE)
    ctx.add_init_script(ROOT_SCRIPT)
    try:
        tab = Tab(ctx.new_page(), sample, "puzzle-10.html")
        page = tab.page
        for _ in range(3):
            to_stage_four(page)
            page.get_by_role("button", name="Accept").click()
        to_stage_four(page)
        page.evaluate("() => { const s = npRoot().querySelector('.np-scroller');"
                      " s.scrollLeft = s.scrollWidth; s.scrollTop = s.scrollHeight / 2; }")
        assert _axe(page) == []
        page.evaluate("() => scrollTo(0, 0)")
        screen(page, f"phone-hint-{scheme}")
        page.get_by_role("button", name="Reveal all").click()
        assert _axe(page) == []
        screen(page, f"phone-dialog-{scheme}")
    finally:
        ctx.close()


# -- wording and the favicon (item 9) --------------------------------------------------------------
def test_the_solved_panel_says_one_minute_and_no_empty_range(context: Any, sample: Path,
                                                               tmp_path: Path) -> None:
    site = tmp_path / "site"
    shutil.copytree(sample, site)
    page_file = site / "puzzle-01.html"
    text = page_file.read_text(encoding="utf-8")
    text, count = re.subn(r'"minutes":[\d.]+,"minutes_low":[\d.]+,"minutes_high":[\d.]+',
                          '"minutes":1.2,"minutes_low":0.6,"minutes_high":1.4', text)
    assert count == 1
    page_file.write_text(text, encoding="utf-8")
    tab = Tab(context.new_page(), site, "puzzle-01.html")
    page = tab.page
    page.get_by_role("button", name="Reveal all").click()
    page.get_by_role("dialog").get_by_role("button", name="Reveal", exact=True).click()
    panel = page.locator(".np-solved").inner_text()
    assert "People take about 1 minute (0.6-1)." in panel, panel
    other = site / "puzzle-02.html"  # a page not played yet
    text, count = re.subn(r'"minutes":[\d.]+,"minutes_low":[\d.]+,"minutes_high":[\d.]+',
                          '"minutes":2.2,"minutes_low":1.8,"minutes_high":2.4',
                          other.read_text(encoding="utf-8"))
    assert count == 1
    other.write_text(text, encoding="utf-8")
    tab = Tab(page, site, "puzzle-02.html")
    page.get_by_role("button", name="Reveal all").click()
    page.get_by_role("dialog").get_by_role("button", name="Reveal", exact=True).click()
    panel = page.locator(".np-solved").inner_text()
    assert "People take about 2 minutes." in panel and "(2-2)" not in panel, panel


def test_a_fillin_reports_no_hints_and_a_crossed_off_clue_is_announced(
        context: Any, words_site: Path, sample: Path) -> None:
    index = (words_site / "index.html").read_text()
    page = context.new_page()
    for name in re.findall(r'href="(puzzle-\d+\.html)"', index):
        tab = Tab(page, words_site, name)
        if tab.record["kind"] != "fillin":
            continue
        page.get_by_role("button", name="Reveal all").click()
        page.get_by_role("dialog").get_by_role("button", name="Reveal", exact=True).click()
        panel = page.locator(".np-solved").inner_text()
        assert "Hints" not in panel and "Checks: 0, reveals: 1" in panel, panel
        break
    else:
        raise AssertionError("no fill-in in the words issue")
    tab = Tab(page, sample, "puzzle-01.html")  # the House: row 3 is "5"
    for c in range(tab.width):
        if tab.solution[2 * tab.width + c]:
            page.mouse.click(*tab.centre(2, c))
    assert "Clue of row 3" in tab.status() and "crossed off" in tab.status()
    assert page.get_by_role("rowheader", name=re.compile(r"^row 3, clue 5, crossed off$")).count()


def test_every_page_has_an_icon_the_policy_allows(context: Any, sample: Path) -> None:
    page = context.new_page()
    for name in ("index.html", "archive.html", "puzzle-01.html"):
        page.goto((sample / name).as_uri())
        href = page.locator('link[rel="icon"]').get_attribute("href")
        assert href and href.startswith("data:image/png;base64,")
        # the icon draws: an image of it loads under the page's own policy
        assert page.evaluate("""(href) => new Promise((ok) => { const img = new Image();
          img.onload = () => ok(img.naturalWidth > 0); img.onerror = () => ok(false);
          img.src = href; })""", href)
