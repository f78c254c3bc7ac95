"""The README's studio screenshot: the bundled loaded die (two solutions) with "make unique"
proposed, in headless Chromium at 1280x800.

    python bench/studio_screenshot.py docs/studio.png
"""

from __future__ import annotations

import io
import shutil
import socket
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import uvicorn  # noqa: E402
from PIL import Image  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from nonopress.studio.app import create_app  # noqa: E402
from nonopress.studio.config import StudioConfig  # noqa: E402


def main(out: str) -> int:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.bind(("127.0.0.1", 0))
    config = StudioConfig(folder=ROOT / "puzzles", port=sock.getsockname()[1])
    server = uvicorn.Server(uvicorn.Config(create_app(config), log_level="warning"))
    threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=shutil.which("chromium"))
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(config.url)
        page.click("button[data-tab=library]")
        page.click(".card[data-label='loaded-die.yaml']")
        page.wait_for_function("() => document.getElementById('verdict').dataset.verdict "
                               "=== 'multiple'")
        page.keyboard.press("u")
        page.wait_for_selector("#proposal:not([hidden])", timeout=60_000)
        page.wait_for_timeout(300)
        shot = Image.open(io.BytesIO(page.screenshot())).convert("RGB")
        browser.close()
    # a palette of 64 colours keeps the file small and the interface sharp
    shot.quantize(64).save(out, optimize=True)
    server.should_exit = True
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "docs/studio.png"))
