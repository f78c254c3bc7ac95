"""A short padded KDP book (issue 46, item 9): a puzzle alone on its page stands centred,
not at the top over 40 % of blank paper. Puzzles made by the test."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from grader.formats import write
from grader.model import Metadata, Puzzle
from layout.build import build_issue
from layout.manifest import load_manifest
from layout.plan import content_area, kdp_margins, plan_issue


def _ink_extent(page, top: float, bottom: float) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    from layout.draw import ClueText, Lines, Rects, Text

    ys: list[float] = []
    for op in page.ops:
        if isinstance(op, Text):
            ys += [op.y, op.y + op.size]
        elif isinstance(op, Lines):
            ys += [v for s in op.segments for v in (s[1], s[3])]
        elif isinstance(op, Rects):
            ys += [v for r in op.rects for v in (r[1], r[1] + r[3])]
        elif isinstance(op, ClueText):
            ys += [y for _, y, _ in op.items]
    inside = [y for y in ys if bottom - 0.5 <= y <= top + 0.5]
    return max(inside), min(inside)


def test_a_padded_book_centres_a_lone_puzzle(tmp_path: Path) -> None:
    from grader.solver import solve

    names: list[str] = []
    seed = 10
    while len(names) < 4:  # unique random 10x10 pictures
        seed += 1
        picture = np.random.default_rng(seed).random((10, 10)) < 0.6
        if solve(Puzzle.from_picture(picture)).verdict != "unique":
            continue
        number = len(names)
        name = f"p{number}.yaml"
        (tmp_path / name).write_bytes(write(Puzzle.from_picture(
            picture, Metadata(title=f"P{number}")), "yaml"))
        names.append(name)
    (tmp_path / "book.yaml").write_text(
        "title: Short\nprofile: kdp\nlarge_print: true\npage: 8.5x11in\npad_pages: true\n"
        "puzzles: [" + ", ".join(names) + "]\n", encoding="utf-8")
    manifest = load_manifest(tmp_path / "book.yaml")
    plan = plan_issue(build_issue(manifest))
    assert any(page.kind == "notes" for page in plan.pages)  # padded
    lone = [page for page in plan.pages if page.kind == "puzzles" and len(page.blocks) == 1]
    assert lone
    from dataclasses import replace

    from layout.printsetup import apply_profile

    printed, _ = apply_profile(manifest)
    area = content_area(printed.page, replace(printed, margins=kdp_margins(
        printed, len(plan.pages))))
    for page in lone:
        high, low = _ink_extent(page, area.top, area.bottom)
        above, below = area.top - high, low - area.bottom
        assert abs(above - below) < 0.1 * area.height, (above, below)
