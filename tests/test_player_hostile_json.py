"""The player embedded on a page, playing a puzzle JSON that another host serves, in a real
headless Chromium (issue 57, item 10): a JSON that would steer the page is refused in one line
naming the field, makes no request to a third host, and leaves the page answering a click
within a second; a good JSON from another host still plays."""

from __future__ import annotations

import functools
import http.server
import json
import shutil
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api")

from grader.formats import read_any  # noqa: E402
from grader.results import Budget  # noqa: E402
from nonopress.app.play import play_record  # noqa: E402
from nonopress.assets import FILES, asset_bytes  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed")
ROOT = Path(__file__).resolve().parent.parent

#: the host page: the player's one script tag, the element, and a button of the page's own
EMBED = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host</title>
<script src="player.js" defer></script><script src="ping.js" defer></script></head><body>
<button id="ping" type="button">Ping</button>
<nonopress-puzzle src="{src}"></nonopress-puzzle>
</body></html>
"""
PING = "document.getElementById('ping').addEventListener('click', () => { window.pinged = 1; });"
#: installed before the page's scripts: how long each task kept the page from answering
LONG_TASKS = """
window.__long = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) window.__long.push(entry.duration);
}).observe({type: 'longtask', buffered: true});
"""


class _Handler(http.server.SimpleHTTPRequestHandler):
    """Serves a folder to any origin, and notes every path asked for."""

    seen: list[str]

    def log_message(self, format: str, *args: Any) -> None:
        self.seen.append(self.path)

    def end_headers(self) -> None:
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def do_POST(self) -> None:  # a solve record, were one sent
        self.seen.append(f"POST {self.path}")
        self.send_response(204)
        self.end_headers()


class Host:
    def __init__(self, folder: Path):
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        self.seen: list[str] = []
        handler = functools.partial(type("H", (_Handler,), {"seen": self.seen}),
                                    directory=str(folder))
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"


@pytest.fixture
def hosts(tmp_path: Path) -> Iterator[tuple[Host, Host, Host]]:
    """The page's host (with the player), the host of the JSON, and a third host."""
    page, data, third = Host(tmp_path / "page"), Host(tmp_path / "data"), Host(tmp_path / "third")
    for name in FILES:
        target = page.folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(asset_bytes(name))
    (page.folder / "ping.js").write_text(PING)
    try:
        yield page, data, third
    finally:
        for host in (page, data, third):
            host.server.shutdown()


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    """A colour puzzle with a hint table, as the studio's Play button answers it."""
    puzzle = read_any(ROOT / "puzzles" / "colour" / "ladybird.yaml")[0]
    return play_record(puzzle, Budget(seconds=30))


def _open(browser: Any, hosts: tuple[Host, Host, Host], data: dict[str, Any]) -> Any:
    page_host, data_host, _ = hosts
    (data_host.folder / "puzzle.json").write_text(json.dumps(data))
    (page_host.folder / "embed.html").write_text(EMBED.format(src=f"{data_host.url}/puzzle.json"))
    context = browser.new_context()
    page = context.new_page()
    page.add_init_script(LONG_TASKS)
    page.goto(f"{page_host.url}/embed.html")
    page.wait_for_function(
        "() => document.querySelector('nonopress-puzzle').shadowRoot?.querySelector('.np-cell')"
        " || /could not be loaded/.test("
        "document.querySelector('nonopress-puzzle').textContent)", timeout=15000)
    return page


def _longest_wait(page: Any) -> float:
    """A solver's first try at the puzzle (a hint, where there is a Hint button), then a
    click on the page's own button: it must be answered, and the longest the page's main
    thread was busy (a long task, as Chromium times it in the page), in seconds, is how long
    a click could have waited."""
    hint = page.locator(".np-hint-button")
    if hint.count():
        hint.click(timeout=30000)
    page.locator("#ping").click(timeout=30000)
    page.wait_for_function("() => window.pinged === 1", timeout=30000)
    return float(page.evaluate("Math.max(0, ...window.__long)")) / 1000


def _third_host(record: dict[str, Any], third: Host) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(json.dumps(record))
    data["palette"][0]["rgb"] = f"url({third.url}/steered.png)"
    return data


def _frozen(record: dict[str, Any], third: Host) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(json.dumps(record))
    for step in data["hints"]["steps"]:
        step["c"] = "0-200000000"
    return data


def _steered_words(record: dict[str, Any], third: Host) -> dict[str, Any]:
    """A catalogue whose plural rule would run code (words.js parses it: no eval)."""
    data: dict[str, Any] = json.loads(json.dumps(record))
    data["catalogue"] = {"language": "de", "messages": {"Undo": "Rückgängig"},
                         "plural": f"n != 1; fetch('{third.url}/steered')"}
    return data


@pytest.mark.parametrize(("make", "field"), [
    (_third_host, "palette[0].rgb"),
    (_frozen, "hints.steps[0].c"),
    (_steered_words, "catalogue.plural"),
])
def test_a_hostile_json_is_refused_and_the_page_answers(
        browser: Any, hosts: tuple[Host, Host, Host], record: dict[str, Any],
        make: Callable[[dict[str, Any], Host], dict[str, Any]], field: str) -> None:
    page = _open(browser, hosts, make(record, hosts[2]))
    try:
        assert _longest_wait(page) < 1.0
        page.wait_for_timeout(300)
        assert hosts[2].seen == []  # nothing asked of the third host
        text = page.locator("nonopress-puzzle").inner_text()
        assert "could not be loaded" in text and field in text
    finally:
        page.context.close()


def test_a_good_json_from_another_host_plays_and_names_no_collector(
        browser: Any, hosts: tuple[Host, Host, Host], record: dict[str, Any]) -> None:
    """Solve records go where the page's own puzzles send them: a collector named by a JSON
    from another host is dropped, and the puzzle plays."""
    data: dict[str, Any] = json.loads(json.dumps(record))
    data["site"]["collect"] = f"{hosts[2].url}/solves"
    page = _open(browser, hosts, data)
    try:
        assert page.locator(".np-cell").count() == data["width"] * data["height"]
        assert page.locator(".np-collect").count() == 0
        page.get_by_role("button", name="Reveal all").click()
        page.get_by_role("button", name="Reveal", exact=True).click()  # the confirmation
        assert "Solved" in page.locator(".np-solved").inner_text()
        page.goto("about:blank")  # leaving would send an abandoned record, were one due
        page.wait_for_timeout(300)
        assert hosts[2].seen == []
    finally:
        page.context.close()
