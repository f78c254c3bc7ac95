"""Where a press's time goes: the renderer main thread's work between a ``pointerdown`` and
the frame that shows the cell, split into script, style, layout, paint and the rest, from a
Chromium trace (``devtools.timeline``), with the CPU throttled.

    python bench/trace_player.py [PUZZLE] [--profile phone|desktop] [--rate 4] [--clicks 40]
                                 [--against COMMIT] [--rounds 2]

The presses are bench_player.py's (each cell brought to the middle of the grid's box, then
clicked or tapped); a press's window runs from its pointerdown's dispatch to the second
animation frame after the cell changed (bench_player.py's paint time). Each event's self time
(its duration less its children's) inside a window is counted under its kind; the figures
are medians over the presses, with the press time's median and p95 beside them. With
``--against`` the player of COMMIT takes turns with this tree on the same site.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench_player import (  # noqa: E402
    CHROMIUM,
    PROFILES,
    baseline_site,
    percentile,
    press_cells,
    serve,
    throttled_page,
)
from playwright.sync_api import sync_playwright  # noqa: E402

from nonopress.cli import main  # noqa: E402

#: the trace event names counted under each kind (the rest of the main thread's self time
#: is "other": task scheduling, input handling, the throttle's pauses inside a task)
KINDS = {
    "script": {"FunctionCall", "EventDispatch", "TimerFire", "FireAnimationFrame",
               "v8.callFunction", "V8.Execute", "EvaluateScript", "MajorGC", "MinorGC",
               "V8.GC_SCAVENGER", "BlinkGC.AtomicPhase", "RunMicrotasks", "v8.run"},
    "style": {"UpdateLayoutTree", "RecalculateStyles", "ScheduleStyleRecalculation",
              "ParseAuthorStyleSheet", "InvalidateLayout", "Document::recalcStyle",
              "Document::updateStyle"},
    "layout": {"Layout", "UpdateLayerTree", "IntersectionObserverController::computeIntersections"},
    "paint": {"PrePaint", "Paint", "PaintSetup", "PaintImage", "Layerize", "UpdateLayer",
              "CompositeLayers", "Commit", "RasterTask", "Decode Image", "ScrollLayer",
              "PaintArtifactCompositor::Update", "CullRectUpdate"},
    "hit test": {"HitTest", "LayoutView::HitTest"},
}
#: Blink's own timers around a lifecycle phase, by the start of their names
PREFIXES = {"Blink.Style": "style", "Blink.ForcedStyle": "style", "Blink.Layout": "layout",
            "Blink.PrePaint": "paint", "Blink.Paint": "paint", "Blink.CompositingInputs": "paint",
            "LocalFrameView::RunPaint": "paint", "LocalFrameView::RunCompositing": "paint",
            "Blink.HitTest": "hit test"}
CATEGORIES = "devtools.timeline,disabled-by-default-devtools.timeline,blink,v8"


def kind_of(name: str) -> str:
    for kind, names in KINDS.items():
        if name in names:
            return kind
    for prefix, kind in PREFIXES.items():
        if name.startswith(prefix):
            return kind
    return "other"


def self_times(events: list[dict[str, Any]]) -> list[tuple[float, float, str]]:
    """(start, self time, name) of each complete event of one thread, in microseconds."""
    spans = sorted(((e["ts"], e["ts"] + e.get("dur", 0), e["name"]) for e in events
                    if e.get("ph") == "X" and "dur" in e), key=lambda s: (s[0], -s[1]))
    out: list[tuple[float, float, str]] = []
    stack: list[list[Any]] = []   # [start, end, name, children's time]
    for start, end, name in spans:
        while stack and stack[-1][1] <= start:
            s = stack.pop()
            out.append((s[0], s[1] - s[0] - s[3], s[2]))
        if stack:
            stack[-1][3] += min(end, stack[-1][1]) - start
        stack.append([start, end, name, 0.0])
    while stack:
        s = stack.pop()
        out.append((s[0], s[1] - s[0] - s[3], s[2]))
    return out


def split(trace: dict[str, Any], paints: list[float]) -> list[dict[str, float]]:
    """Each press's milliseconds by kind, its window from the trace's pointerdown dispatch."""
    events = trace["traceEvents"]
    main_threads = {(e["pid"], e["tid"]) for e in events
                    if e.get("ph") == "M" and e.get("name") == "thread_name"
                    and e["args"].get("name") == "CrRendererMain"}
    downs = sorted((e for e in events if e.get("name") == "EventDispatch"
                    and e.get("args", {}).get("data", {}).get("type") == "pointerdown"
                    and (e["pid"], e["tid"]) in main_threads), key=lambda e: e["ts"])
    if not downs:
        raise SystemExit("trace_player: no pointerdown in the trace")
    thread = (downs[0]["pid"], downs[0]["tid"])
    mine = [e for e in events if (e["pid"], e["tid"]) == thread]
    spans = self_times(mine)
    rows = []
    for down, ms in zip(downs, paints, strict=False):  # a press the probe missed ends it
        start, end = down["ts"], down["ts"] + ms * 1000
        row: dict[str, float] = defaultdict(float)
        for ts, own, name in spans:
            if start <= ts < end:
                row[kind_of(name)] += own / 1000
                row[f"event:{name}"] += own / 1000
        row["press"] = ms
        rows.append(row)
    return rows


def traced(browser: Any, url: str, profile: str, rate: int, clicks: int) -> list[dict[str, float]]:
    context, page = throttled_page(browser, url, PROFILES[profile], rate)
    browser.start_tracing(page=page, categories=CATEGORIES.split(","))
    try:
        paints = press_cells(page, clicks, touch=profile == "phone")
    except TimeoutError:  # a press the probe missed: the trace splits those it caught
        paints = list(page.evaluate("window.__paints"))
    trace = json.loads(browser.stop_tracing())
    context.close()
    return split(trace, paints)


def report(label: str, rows: list[dict[str, float]], names: int = 0) -> None:
    presses = [r["press"] for r in rows]
    kinds = ["script", "style", "layout", "paint", "hit test", "other"]
    medians = "  ".join(f"{k} {statistics.median(r.get(k, 0.0) for r in rows):5.1f}" for k in kinds)
    busy = [sum(r.get(k, 0.0) for k in kinds) for r in rows]
    print(f"{label}press p50 {percentile(presses, 0.5):5.1f} "
          f"p95 {percentile(presses, 0.95):5.1f} ms;"
          f" main thread median ms: {medians}  (busy {statistics.median(busy):5.1f},"
          f" p95 {percentile(busy, 0.95):5.1f}) over {len(rows)} presses")
    events = {key for row in rows for key in row if key.startswith("event:")}
    means = sorted(((sum(r.get(e, 0.0) for r in rows) / len(rows), e) for e in events),
                   reverse=True)
    for mean, event in means[:names]:
        print(f"    {mean:6.2f} ms  {event[6:]} ({kind_of(event[6:])})")


def run(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("puzzle", nargs="?", default=str(ROOT / "puzzles" / "night-sky.yaml"))
    parser.add_argument("--profile", choices=sorted(PROFILES), default="phone")
    parser.add_argument("--rate", type=int, default=4)
    parser.add_argument("--clicks", type=int, default=40)
    parser.add_argument("--against", metavar="COMMIT")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--names", type=int, default=0,
                        help="also the N trace events of most self time a press (mean)")
    parser.add_argument("--site", type=Path, action="append", default=[],
                        help="a site already built (skips nonopress web); given more than once,"
                        " the sites take turns")
    args = parser.parse_args(argv)
    if CHROMIUM is None:
        print("trace_player: Chromium is not installed", file=sys.stderr)
        return 2
    results: dict[str, list[dict[str, float]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        site = args.site[0] if args.site else Path(tmp) / "site"
        if not args.site and main(["web", args.puzzle, "-o", str(site), "-q",
                                   "--cache-dir", tmp]) != 0:
            return 2
        folders = {"": site}
        if len(args.site) > 1:
            folders = {f"{path}: ": path for path in args.site}
        if args.against:
            folders = {f"{args.against}: ": baseline_site(site, Path(tmp) / "before", args.against),
                       "this tree: ": site}
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM)
            for _ in range(args.rounds if len(folders) > 1 else 1):
                for label, folder in folders.items():
                    server, base = serve(folder)
                    try:
                        results.setdefault(label, []).extend(traced(
                            browser, f"{base}/puzzle-01.html", args.profile, args.rate,
                            args.clicks))
                    finally:
                        server.shutdown()
            browser.close()
    print(f"puzzle: {args.puzzle}; {args.profile}, CPU {args.rate}x")
    for label, rows in results.items():
        report(label, rows, args.names)
    return 0


if __name__ == "__main__":
    sys.exit(run())
