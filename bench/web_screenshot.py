"""The web player's screenshots for docs/web.md, taken with Chromium on the sample issue:

    python bench/web_screenshot.py [--out docs]

docs/web.png: a desktop page of puzzle 3 of the sample issue part solved, with check's
wrong mark and the hint's third stage (the technique in `grade --explain`'s words) shown;
docs/web-phone.png: puzzle 8 (the 23x23 Moon) on a 390x844 phone, after a few taps.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from nonopress.app.play import reveal  # noqa: E402
from nonopress.cli import main  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def click(page: object, i: int, right: bool = False) -> None:
    cell = page.locator(f'.np-cell[data-i="{i}"]')  # type: ignore[attr-defined]
    box = cell.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2,  # type: ignore[attr-defined]
                     button="right" if right else "left")


def run(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs"))
    args = parser.parse_args(argv)
    out = Path(args.out)
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        if main(["web", str(ROOT / "puzzles" / "issues" / "sample.yaml"), "-o", str(site),
                 "-q", "--cache-dir", tmp]) != 0:
            return 2
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM)
            desk = browser.new_context(viewport={"width": 1000, "height": 860})
            page = desk.new_page()
            page.goto((site / "puzzle-03.html").as_uri())
            page.wait_for_selector(".np-cell")
            for i in (30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 60, 61, 62, 63):
                click(page, i)
            record = json.loads((site / "puzzle-03.json").read_text())
            empty = reveal(record["solution"], record["key"]).index("0")
            click(page, empty)  # a wrong mark, found by Check
            page.get_by_role("button", name="Check").click()
            click(page, empty)  # and cleared
            for _ in range(3):
                page.get_by_role("button", name="Hint", exact=True).click()
                page.wait_for_timeout(50)
            page.wait_for_timeout(300)
            page.screenshot(path=str(out / "web.png"))
            desk.close()
            phone = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                        is_mobile=True, device_scale_factor=2)
            page = phone.new_page()
            page.goto((site / "puzzle-08.html").as_uri())
            page.wait_for_selector(".np-cell")
            for i in range(23 * 11, 23 * 11 + 12):
                cell = page.locator(f'.np-cell[data-i="{i}"]')
                box = cell.bounding_box()
                page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            page.wait_for_timeout(400)
            page.screenshot(path=str(out / "web-phone.png"))
            browser.close()
    print(f"wrote {out / 'web.png'} and {out / 'web-phone.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(run())
