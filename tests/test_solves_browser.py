"""Issue 49 in a real browser: the web player (``nonopress web --collect``), opened from disk
as a reader who downloaded the site would, reports its solve to a test studio, once, with the
figures of the solve; with collection turned off (on the page, or a site built without
``--collect``) nothing is sent.

Chromium through Playwright, as the studio's and the player's tests.
"""

from __future__ import annotations

import json
import re
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

sync_api = pytest.importorskip("playwright.sync_api")

from studio_support import running_studio  # noqa: E402

from grader.formats import read_any  # noqa: E402
from nonopress.catalogue import ImportOptions, add_files, open_catalogue, schema  # noqa: E402
from nonopress.cli import main  # noqa: E402
from nonopress.solves.record import MIN_COMPLETED_SECONDS  # noqa: E402
from nonopress.studio.config import StudioConfig  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed")
ROOT = Path(__file__).resolve().parents[1]
HOUSE = ROOT / "puzzles" / "house.yaml"


@pytest.fixture()
def studio(tmp_path: Path) -> Iterator[tuple[StudioConfig, str]]:
    """A studio over a catalogue holding the House, taking solves from pages opened from
    disk (their Origin is ``null``)."""
    db = str(tmp_path / "stock.sqlite")
    with open_catalogue(db) as catalogue:
        add_files(catalogue, [str(HOUSE)], ImportOptions(jobs=1))
    config = StudioConfig(folder=tmp_path, catalogue=db, collect_origins=("null",))
    with running_studio(config) as running:
        yield running, db


def site(folder: Path, collect: str | None) -> Path:
    """The House as a one-puzzle site; the page that plays it."""
    folder.mkdir(parents=True, exist_ok=True)
    out = folder / "site"
    extra = ["--collect", collect] if collect else []
    assert main(["web", str(HOUSE), "-o", str(out), "-q", "--cache-dir", str(folder),
                 *extra]) == 0
    key = read_any(HOUSE)[0].key()
    for data in sorted(out.glob("*.json")):  # latest.json names today's: not a page
        record = json.loads(data.read_text(encoding="utf-8"))
        page = data.with_suffix(".html")
        if isinstance(record, dict) and record.get("key") == key and page.is_file():
            return page
    raise AssertionError(f"no page for the House in {sorted(p.name for p in out.iterdir())}")


class Play:
    """The puzzle page in a fresh browser context, every request it makes remembered."""

    def __init__(self, browser: Any, page_file: Path):
        self.context = browser.new_context(viewport={"width": 1100, "height": 900})
        self.errors: list[str] = []
        self.context.on("weberror", lambda error: self.errors.append(str(error.error)))
        self.page = self.context.new_page()
        self.requests: list[str] = []
        self.page.on("request", lambda request: self.requests.append(request.url))
        self.page.goto(page_file.as_uri())
        self.page.wait_for_selector(".np-cell")
        self.solution = self.page.evaluate(
            "() => Array.from(document.querySelector('nonopress-puzzle').player.solution)")
        self.width = int(self.page.evaluate(
            "() => document.querySelector('nonopress-puzzle').player.W"))

    def click_cell(self, index: int) -> None:
        box = self.page.locator(f'.np-cell[data-i="{index}"]').bounding_box()
        self.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)

    def solve_with_two_hints_and_a_check(self) -> None:
        page = self.page
        page.get_by_role("button", name=re.compile("Hint")).first.click()
        page.get_by_role("button", name="Hint: tell me more").click()
        page.get_by_role("button", name="Check").click()
        # the collector refuses a completed solve quicker than a person could make it
        page.wait_for_timeout(1000 * (MIN_COMPLETED_SECONDS + 0.5))
        for index, value in enumerate(self.solution):
            if value:
                self.click_cell(index)
        assert page.locator(".np-solved").is_visible()
        panel = page.locator(".np-solved").inner_text()
        # one hint shown to its second stage is one hint (issue 56), not two
        assert "Hints: 1, checks: 1, reveals: 0" in panel

    def close(self) -> None:
        self.context.close()
        assert self.errors == []


def rows(db: str) -> list[Any]:
    with open_catalogue(db) as catalogue, catalogue.reading() as connection:
        return list(connection.execute(sa.select(schema.solves)).all())


def wait_rows(db: str, count: int, seconds: float = 15.0) -> list[Any]:
    deadline = time.monotonic() + seconds
    while True:
        found = rows(db)
        if len(found) >= count or time.monotonic() > deadline:
            return found
        time.sleep(0.2)


def test_a_solve_with_two_hints_and_a_check_arrives_once_with_those_figures(
        browser: Any, studio: tuple[StudioConfig, str], tmp_path: Path) -> None:
    config, db = studio
    collect = f"{config.origin}/api/solves"
    play = Play(browser, site(tmp_path, collect))
    assert play.page.get_by_label("Send anonymous solve statistics").is_checked()
    play.solve_with_two_hints_and_a_check()
    stored = wait_rows(db, 1)
    time.sleep(1.5)  # a second record (a retry stored twice) would arrive by now
    stored = rows(db)
    pending = play.page.evaluate("() => localStorage.getItem('nonopress-pending')")
    timer = float(play.page.evaluate(
        "() => document.querySelector('nonopress-puzzle').player.stats.seconds"))
    play.close()
    assert len(stored) == 1, stored
    solve = stored[0]
    assert solve.puzzle_key == read_any(HOUSE)[0].key()
    assert solve.completed is True or solve.completed == 1
    assert (solve.checks, solve.reveals) == (1, 0)
    assert (solve.hints_1, solve.hints_2, solve.hints_3, solve.hints_4) == (1, 1, 0, 0)
    assert solve.finish == "unaided"  # a hint read to its second stage places no cell
    assert json.loads(solve.hint_rungs) == ["simple-boxes"]  # the House's first step
    assert solve.device == "desktop" and solve.player.startswith("nonopress-player/")
    assert abs(solve.seconds_active - timer) <= 0.05  # the timer's seconds, as shown
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\dZ", solve.started_at)
    assert [u for u in play.requests if u.startswith(collect)]  # sent over HTTP, answered
    assert pending in (None, "[]", "null")  # the player holds nothing back to retry


def test_with_collection_turned_off_nothing_arrives(
        browser: Any, studio: tuple[StudioConfig, str], tmp_path: Path) -> None:
    config, db = studio
    collect = f"{config.origin}/api/solves"
    # the solver turns it off on the page
    play = Play(browser, site(tmp_path / "on", collect))
    play.page.get_by_label("Send anonymous solve statistics").uncheck()
    play.solve_with_two_hints_and_a_check()
    play.page.reload()  # a reload would send what was held back, if anything were
    play.page.wait_for_selector(".np-cell")
    play.page.wait_for_timeout(1500)
    sent = [u for u in play.requests if u.startswith("http")]
    play.close()
    # a site built without --collect
    bare = Play(browser, site(tmp_path / "off", None))
    assert bare.page.get_by_label("Send anonymous solve statistics").count() == 0
    bare.solve_with_two_hints_and_a_check()
    bare.page.wait_for_timeout(1500)
    sent += [u for u in bare.requests if u.startswith("http")]
    bare.close()
    assert sent == []
    assert rows(db) == []


def test_a_solve_finished_by_accepting_hints_arrives_hinted_never_clean(
        browser: Any, studio: tuple[StudioConfig, str], tmp_path: Path) -> None:
    """Issue 56 item 3: hints accepted to the end are one hint each on the solved panel, and
    the record says the solve was finished by hints, so the refit never reads it as clean."""
    from nonopress.catalogue import open_catalogue as reopen
    from nonopress.solves.reports import read_solves

    config, db = studio
    collect = f"{config.origin}/api/solves"
    play = Play(browser, site(tmp_path, collect))
    page = play.page
    page.wait_for_timeout(1000 * (MIN_COMPLETED_SECONDS + 0.5))
    accepted = 0
    for _ in range(200):
        if page.locator(".np-solved").is_visible():
            break
        page.get_by_role("button", name="Hint", exact=True).click()
        for _ in range(3):
            page.get_by_role("button", name=re.compile("more")).click()
        page.get_by_role("button", name="Accept").click()
        accepted += 1
    panel = page.locator(".np-solved").inner_text()
    assert accepted >= 2 and f"Hints: {accepted}," in panel, panel
    stored = wait_rows(db, 1)
    play.close()
    assert len(stored) == 1
    solve = stored[0]
    assert solve.completed and solve.finish == "hinted"
    assert (solve.hints_1, solve.hints_4) == (accepted, accepted)
    with reopen(db) as catalogue:
        assert [s.clean for s in read_solves(catalogue)] == [False]


def test_an_attempt_ended_by_reveal_all_arrives_given_up_not_completed(
        browser: Any, studio: tuple[StudioConfig, str], tmp_path: Path) -> None:
    """Issue 56 item 7: Reveal all, once confirmed, ends the attempt as given up: the record
    is not a completed solve (which would be final and counted) and says it was revealed."""
    config, db = studio
    collect = f"{config.origin}/api/solves"
    play = Play(browser, site(tmp_path, collect))
    page = play.page
    play.click_cell(0)
    page.get_by_role("button", name="Reveal all").click()
    page.get_by_role("dialog").get_by_role("button", name="Reveal", exact=True).click()
    assert page.locator(".np-solved").is_visible()
    stored = wait_rows(db, 1)
    play.close()
    assert len(stored) == 1
    assert not stored[0].completed and stored[0].finish == "revealed"
    assert stored[0].reveals == 1
