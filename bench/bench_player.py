"""Web player bench: what a 30x30 puzzle page weighs, how soon it answers, how fast a click
paints, in a real headless Chromium (Debian's ``chromium`` through Playwright).

    python bench/bench_player.py [PUZZLE] [--runs 7] [--clicks 120] [--against COMMIT --rounds 2]

Builds the site of one puzzle (default: the bundled 30x30 ``night-sky.yaml``) with
``nonopress web``, serves it over loopback HTTP and measures:

- page weight: the bytes of every response the page loads (HTML with its data, script,
  style sheet), uncompressed; the target is at most 150 KB;
- time to interactive with the CPU throttled 4x (CDP ``Emulation.setCPUThrottlingRate``):
  from navigation start to the player's ``nonopress-interactive`` mark (the grid built, its
  handlers bound), median and worst of ``--runs`` cold loads, on a desktop (1280x1000) and on
  a phone profile (390x844 CSS px, 3x pixels, touch, a mobile viewport); the target is at
  most 1 s;
- click (desktop, a real mouse click) or tap (phone, a touch tap) to paint: from the
  ``pointerdown`` to the next animation frame after the cell changed (the frame that shows
  it), p50 and p95 over ``--clicks`` presses on different cells, each brought to the middle
  of the grid's box first (clear of its sticky clue bars); on the desktop unthrottled and
  throttled 4x, on the phone throttled 4x; the target is at most 50 ms at p95.

``--against COMMIT``: the same site with the player of COMMIT (its ``nonopress/assets``
scripts) measured too, the two taking turns ``--rounds`` times, so that a busy machine
weighs on both alike; the figures of each pooled over its rounds.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from nonopress.cli import main  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

#: installed before the page's scripts: each pointerdown's time, and the frame after the
#: cell it hit changed class
PROBE = """
window.__paints = [];
addEventListener('pointerdown', (e) => {
  // the cell itself, also when the player sits in a shadow root (e.target is then its host)
  const t0 = e.timeStamp, cell = e.composedPath()[0];
  const before = cell.className;
  const wait = () => requestAnimationFrame(() => {
    if (cell.className === before) return wait();
    requestAnimationFrame(() => window.__paints.push(performance.now() - t0));
  });
  wait();
}, true);
"""


def serve(folder: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    handler = functools.partial(_Quiet, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")  # every run loads cold
        super().end_headers()


def poll(page: Any, condition: str, seconds: float = 30.0) -> None:
    """Wait until ``condition`` holds (wait_for_function would need eval, which the page's
    content security policy refuses)."""
    for _ in range(int(seconds * 20)):
        if page.evaluate(condition):
            return
        page.wait_for_timeout(50)
    raise TimeoutError(condition)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


#: the profiles measured: a desktop and a phone as the issue tried it (issue 56)
PROFILES: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1280, "height": 1000}},
    "phone": {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 3,
              "is_mobile": True, "has_touch": True},
}
#: the CPU rates each profile's presses are measured at
RATES = {"desktop": (1, 4), "phone": (4,)}


def measure(url: str, runs: int, clicks: int) -> dict[str, Any]:
    figures: dict[str, Any] = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM)
        # page weight: every response of one load
        context = browser.new_context()
        page = context.new_page()
        sizes: dict[str, int] = {}
        page.on("response", lambda r: sizes.__setitem__(r.url, len(r.body())))
        page.goto(url, wait_until="load")
        page.wait_for_selector(".np-cell")
        figures["weight"] = sizes
        context.close()
        for profile, options in PROFILES.items():
            # time to interactive, throttled
            ttis = []
            for _ in range(runs):
                context = browser.new_context(**options)
                page = context.new_page()
                cdp = context.new_cdp_session(page)
                cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
                page.goto(url)
                poll(page, "performance.getEntriesByName('nonopress-interactive').length > 0")
                ttis.append(page.evaluate(
                    "performance.getEntriesByName('nonopress-interactive')[0].startTime"))
                context.close()
            figures[f"tti/{profile}"] = ttis
            # press to paint
            for rate in RATES[profile]:
                figures[f"paint/{profile}@{rate}x"] = presses(browser, url, options, rate,
                                                              clicks, profile == "phone")
        browser.close()
    return figures


def throttled_page(browser: Any, url: str, options: dict[str, Any], rate: int
                   ) -> tuple[Any, Any]:
    """(context, page): the puzzle page at ``url`` with the press probe, its CPU ``rate``
    times slower."""
    context = browser.new_context(**options)
    page = context.new_page()
    page.add_init_script(PROBE)
    page.goto(url)
    page.wait_for_selector(".np-cell")
    cdp = context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
    return context, page


def press_cells(page: Any, clicks: int, touch: bool) -> list[float]:
    """Press-to-paint times of ``clicks`` presses (taps when ``touch``), each cell brought to
    the middle of the grid's box first."""
    cells = page.locator(".np-cell")
    count = cells.count()
    for k in range(clicks):
        cell = cells.nth((k * 37) % count)
        cell.evaluate("(c) => c.scrollIntoView({block: 'center', inline: 'center'})")
        box = cell.bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        if touch:
            page.touchscreen.tap(x, y)
        else:
            page.mouse.click(x, y)
        page.wait_for_timeout(30)
    poll(page, f"window.__paints.length >= {clicks}")
    return list(page.evaluate("window.__paints"))


def presses(browser: Any, url: str, options: dict[str, Any], rate: int, clicks: int,
            touch: bool) -> list[float]:
    """Press-to-paint times of ``clicks`` presses (taps when ``touch``) at CPU ``rate``."""
    context, page = throttled_page(browser, url, options, rate)
    paints = press_cells(page, clicks, touch)
    context.close()
    return paints


def baseline_site(site: Path, folder: Path, commit: str) -> Path:
    """``site`` with the player files of ``commit`` in place of today's; a board script the
    commit does not have is left out of the page."""
    shutil.copytree(site, folder)
    listed = subprocess.run(["git", "-C", str(ROOT), "ls-tree", "-r", "--name-only", commit,
                             "nonopress/assets/"], capture_output=True, text=True, check=True)
    old = {name.removeprefix("nonopress/assets/") for name in listed.stdout.split()
           if name.endswith((".js", ".css"))}
    for path in list(folder.rglob("*.js")) + list(folder.rglob("*.css")):
        name = path.relative_to(folder).as_posix()
        if name not in old:
            path.unlink()
    for name in old:
        data = subprocess.run(["git", "-C", str(ROOT), "show", f"{commit}:nonopress/assets/{name}"],
                              capture_output=True, check=True).stdout
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    for page in folder.glob("puzzle-*.html"):
        text = page.read_text(encoding="utf-8")
        for src in re.findall(r'<script src="([^"]+)" defer></script>\n', text):
            if src not in old:
                text = text.replace(f'<script src="{src}" defer></script>\n', "")
        page.write_text(text, encoding="utf-8")
    return folder


def report(label: str, runs: list[dict[str, Any]]) -> None:
    weight = runs[0]["weight"]
    total = sum(weight.values())
    print(f"{label}page weight (uncompressed):")
    for url, size in sorted(weight.items()):
        print(f"  {url.split('/', 3)[-1]:<20} {size / 1024:7.1f} KB")
    print(f"  {'total':<20} {total / 1024:7.1f} KB   (target <= 150 KB)")
    for profile in PROFILES:
        tti = [t for run in runs for t in run[f"tti/{profile}"]]
        print(f"time to interactive, {profile}, CPU 4x slower: median "
              f"{statistics.median(tti):.0f} ms, worst {max(tti):.0f} ms over {len(tti)} loads"
              "   (target <= 1000 ms)")
    for profile in PROFILES:
        for rate in RATES[profile]:
            paints = [p for run in runs for p in run[f"paint/{profile}@{rate}x"]]
            press = "tap" if profile == "phone" else "click"
            print(f"{press} to paint, {profile}, CPU {rate}x: p50 {percentile(paints, 0.5):.1f} "
                  f"ms, p95 {percentile(paints, 0.95):.1f} ms, max {max(paints):.1f} ms over "
                  f"{len(paints)} presses   (target p95 <= 50 ms)")


def run(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("puzzle", nargs="?", default=str(ROOT / "puzzles" / "night-sky.yaml"))
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--clicks", type=int, default=120)
    parser.add_argument("--against", metavar="COMMIT",
                        help="measure the player of COMMIT on the same site, taking turns")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args(argv)
    if CHROMIUM is None:
        print("bench_player: Chromium is not installed", file=sys.stderr)
        return 2
    sites: dict[str, list[dict[str, Any]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        if main(["web", args.puzzle, "-o", str(site), "-q", "--cache-dir", tmp]) != 0:
            return 2
        folders = {"": site}
        if args.against:
            folders = {f"{args.against}: ": baseline_site(site, Path(tmp) / "before",
                                                          args.against),
                       "this tree: ": site}
        for _ in range(args.rounds if args.against else 1):
            for label, folder in folders.items():
                server, base = serve(folder)
                try:
                    sites.setdefault(label, []).append(
                        measure(f"{base}/puzzle-01.html", args.runs, args.clicks))
                finally:
                    server.shutdown()
    print(f"puzzle: {args.puzzle}")
    for label, runs in sites.items():
        report(label, runs)
    return 0

if __name__ == "__main__":
    sys.exit(run())
