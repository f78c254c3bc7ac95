"""Puzzles from 5x5 to 100x100 lay out without clipped clues, overlapping numbers or
overlapping puzzles; big ones get a page of their own or a larger page with a warning."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from grader.model import Metadata, Puzzle
from layout.draw import Block, ClueText, Page, Text
from layout.fonts import DIGIT_HEIGHT, text_width
from layout.geometry import BlockGeometry, shown_clue
from layout.manifest import Manifest
from layout.plan import MIN_CELL, content_area, number_ranges, plan_issue
from layout.synthetic import issue_of, random_puzzle
from layout.units import MM, PageSize, parse_page_size


def awkward_100() -> Puzzle:
    """100x100 with a full row (a three-digit clue) and alternating rows (50-number clues)."""
    rng = np.random.default_rng(7)
    picture = rng.random((100, 100)) < 0.5
    picture[0, :] = True
    picture[1, :] = np.arange(100) % 2 == 0
    picture[:, 3] = np.arange(100) % 2 == 1
    return Puzzle.from_picture(picture, Metadata(title="awkward"))


PUZZLES = [random_puzzle(s, s, seed=s) for s in (5, 10, 15, 20, 30, 50)] + [
    random_puzzle(30, 5, seed=1),
    random_puzzle(8, 40, seed=2),
    awkward_100(),
]


def block_rect(block: Block) -> tuple[float, float, float, float]:
    g = block.geometry
    return (block.x, block.top - g.total_height * block.cell,
            block.x + g.total_width * block.cell, block.top)


def overlaps(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] - 1e-6 and b[0] < a[2] - 1e-6 and a[1] < b[3] - 1e-6 and b[1] < a[3] - 1e-6


def check_clues(page: Page) -> int:
    """Every clue number inside its own clue cell, with air around it; returns the count."""
    clue_ops = [op for op in page.ops if isinstance(op, ClueText)]
    blocks = [b for b in page.blocks if not b.solution_shown]
    assert len(clue_ops) == len(blocks)
    checked = 0
    for op, block in zip(clue_ops, blocks, strict=True):
        g, c = block.geometry, block.cell
        grid_x = block.x + g.row_slots * c
        grid_top = block.top - g.col_slots * c
        used: Counter[tuple[int, int]] = Counter()
        for x, y, number in op.items:
            half_w = text_width(number, op.size) / 2
            half_h = DIGIT_HEIGHT * op.size / 2
            col = int((x - block.x) // c)
            row = int((block.top - y) // c)
            used[(row, col)] += 1
            left, right = block.x + col * c, block.x + (col + 1) * c
            top, bottom = block.top - row * c, block.top - (row + 1) * c
            # inside its cell with at least 5 % of the cell free on each side
            assert left + 0.05 * c <= x - half_w and x + half_w <= right - 0.05 * c, number
            assert bottom + 0.05 * c <= y - half_h and y + half_h <= top - 0.05 * c, number
            in_column_clues = x > grid_x and y > grid_top
            in_row_clues = x < grid_x and y < grid_top
            assert in_column_clues or in_row_clues, (number, x, y)
            checked += 1
        assert max(used.values()) == 1, "two numbers share a cell"
        assert 0.45 <= op.size / c <= 0.70
    return checked


def test_every_size_lays_out_without_overlaps() -> None:
    issue = issue_of(PUZZLES)
    plan = plan_issue(issue)
    numbers = 0
    for page in plan.pages:
        numbers += check_clues(page)
        rects = [block_rect(b) for b in page.blocks]
        for i, a in enumerate(rects):
            assert a[0] >= 0 and a[2] <= page.width and a[1] >= 0 and a[3] <= page.height
            for b in rects[i + 1:]:
                assert not overlaps(a, b)
        for op in page.ops:
            if isinstance(op, Text):
                width = text_width(op.text, op.size, op.bold)
                start = {"left": op.x, "right": op.x - width, "center": op.x - width / 2}
                assert start[op.anchor] >= 0 and start[op.anchor] + width <= page.width + 0.01
        for block in page.blocks:
            if not block.solution_shown:
                assert block.cell >= MIN_CELL - 1e-9
    expected = sum(len(shown_clue(c)) for p in PUZZLES for c in p.rows + p.columns)
    assert numbers == expected


def test_a_100x100_gets_a_larger_page_with_a_warning() -> None:
    plan = plan_issue(issue_of([random_puzzle(10, 10, 1), awkward_100()]))
    puzzle_pages = [p for p in plan.pages if p.kind == "puzzles"]
    big = [p for p in puzzle_pages if any(b.number == 2 for b in p.blocks)]
    assert len(big) == 1 and len(big[0].blocks) == 1
    a4 = parse_page_size("A4")
    assert big[0].width > a4.width and big[0].height > a4.height
    assert any("puzzle 2 (100x100)" in w and "larger page" in w for w in plan.warnings)


def test_a_40x40_gets_its_own_page_at_a4() -> None:
    coarse = np.random.default_rng(5).random((10, 10)) < 0.6
    blocky = Puzzle.from_picture(np.kron(coarse, np.ones((4, 4), dtype=bool)))  # few clues
    plan = plan_issue(issue_of([random_puzzle(10, 10, 1), blocky, random_puzzle(10, 10, 2)]))
    pages = [p for p in plan.pages if p.kind == "puzzles"]
    alone = [p for p in pages if [b.number for b in p.blocks] == [2]]
    assert alone and alone[0].width == pytest.approx(parse_page_size("A4").width)
    # the two 10x10s share a page rather than leave one half empty, and the report says so
    assert [[b.number for b in p.blocks] for p in pages] == [[1, 3], [2]]
    assert plan.warnings[0] == ("puzzle 3 printed beside puzzle 1, ahead of puzzle 2, so that "
                                "their page is not half empty")
    # and that the 40x40's digits print under 7 pt on A4 (issue 36, item 12)
    assert len(plan.warnings) == 2 and plan.warnings[1].startswith(
        "puzzle 2 (40x40) prints its clue digits at 5.8 pt, under the 7 pt")


@pytest.mark.parametrize("per_page", [1, 2, 4, 6])
def test_fixed_per_page(per_page: int) -> None:
    manifest = Manifest(source=Path("m.yaml"), puzzles=(), per_page=per_page)
    plan = plan_issue(issue_of([random_puzzle(10, 10, k) for k in range(12)], manifest))
    counts = [len(p.blocks) for p in plan.pages if p.kind == "puzzles"]
    assert counts == [per_page] * (12 // per_page)


def test_auto_puts_small_puzzles_together_and_keeps_cells_legible() -> None:
    plan = plan_issue(issue_of([random_puzzle(10, 10, k) for k in range(8)]))
    pages = [p for p in plan.pages if p.kind == "puzzles"]
    assert len(pages) < 8
    for page in pages:
        cells = {round(b.cell, 6) for b in page.blocks}
        assert len(cells) == 1  # one cell size per page
        assert min(cells) >= 5 * MM - 1e-6


def test_clue_digits_follow_the_print_conventions() -> None:
    one = BlockGeometry.of(Puzzle.from_picture(["#.#", "###", "..."]))
    two = BlockGeometry.of(random_puzzle(12, 12, 3, density=0.95))
    assert 0.55 <= one.digit_ratio <= 0.70
    assert two.max_digits == 2 and 0.45 <= two.digit_ratio <= 0.55


def test_solutions_are_small_and_many_per_page() -> None:
    plan = plan_issue(issue_of([random_puzzle(15, 15, k) for k in range(20)]))
    solution_pages = [p for p in plan.pages if p.kind == "solutions"]
    assert len(solution_pages) == 1
    blocks = solution_pages[0].blocks
    assert len(blocks) == 20 and all(b.solution_shown for b in blocks)
    rects = [block_rect(b) for b in blocks]
    assert not any(overlaps(a, b) for i, a in enumerate(rects) for b in rects[i + 1:])
    area = content_area(PageSize("A4", solution_pages[0].width, solution_pages[0].height),
                        issue_of([]).manifest)
    assert all(area.left - 1e-6 <= r[0] and r[2] <= area.right + 1e-6 for r in rects)
    assert all(r[1] >= area.bottom - 1e-6 for r in rects)


def test_number_ranges_for_credits() -> None:
    assert number_ranges([1, 2, 3, 5, 7, 8]) == "1-3, 5, 7-8"
    assert number_ranges([4]) == "4"


def test_worked_pages_drop_clues_that_would_be_unreadable() -> None:
    issue = issue_of([random_puzzle(10, 10, 1), awkward_100()])
    issue = replace(issue, entries=tuple(replace(e, worked=True) for e in issue.entries))
    plan = plan_issue(issue)
    small_page, big_page = (p for p in plan.pages if p.kind == "worked")
    small, big = small_page.blocks[0], big_page.blocks[0]
    assert small.geometry.row_slots > 0 and small.cell >= MIN_CELL
    assert any(isinstance(op, ClueText) for op in small_page.ops)
    assert big.geometry.row_slots == 0 and big.geometry.col_slots == 0
    assert not any(isinstance(op, ClueText) for op in big_page.ops)


def test_worked_steps_wrap_and_flow_over_pages_within_the_margins() -> None:
    issue = issue_of([random_puzzle(15, 15, 4)])
    sentence = "Row 7 (3 1 4): the 4 must cover cells 12-13 wherever it lies " * 3
    lines = tuple(f"{k}. {sentence}" for k in range(1, 301))
    grade = replace(issue.entries[0].grade, steps=lines)
    issue = replace(issue, entries=(replace(issue.entries[0], grade=grade, worked=True),))
    plan = plan_issue(issue)
    pages = [p for p in plan.pages if p.kind == "worked"]
    assert len(pages) > 3  # 300 long steps: never cut, they run on
    texts = [
        op for page in pages for op in page.ops
        if isinstance(op, Text) and op.size == 8 and op.role == "ink"
    ]
    area = content_area(parse_page_size("A4"), issue.manifest)
    shown = [int(m.group(1)) for t in texts if (m := re.match(r"(\d+)\. Row 7", t.text))]
    assert shown == list(range(1, 301))  # every step, in order
    assert len(texts) > 2 * len(shown)  # every sentence took several lines
    assert not any("more lines" in t.text for t in texts)
    assert all(t.y >= area.bottom and text_width(t.text, 8) <= area.width for t in texts)


def test_fixed_per_page_keeps_its_grid_and_warns_when_it_cannot() -> None:
    manifest = Manifest(source=Path("m.yaml"), puzzles=(), per_page=4)
    plan = plan_issue(issue_of([random_puzzle(10, 10, k) for k in range(6)], manifest))
    first, last = (p for p in plan.pages if p.kind == "puzzles")
    assert len(first.blocks) == 4 and len(last.blocks) == 2
    assert last.blocks[0].cell == pytest.approx(first.blocks[0].cell)
    assert not plan.warnings
    crowded = Manifest(source=Path("m.yaml"), puzzles=(), per_page=6)
    plan = plan_issue(issue_of([random_puzzle(30, 30, k) for k in range(3)], crowded))
    assert any(w.startswith("per_page 6: puzzle(s) 1") for w in plan.warnings)
    assert all(b.cell >= MIN_CELL for p in plan.pages for b in p.blocks if not b.solution_shown)


def test_contents_lists_the_page_of_every_puzzle() -> None:
    plan = plan_issue(issue_of([random_puzzle(12, 12, k) for k in range(70)]))
    contents = [p for p in plan.pages if p.kind == "contents"]
    assert len(contents) >= 2
    page_of = {b.number: p.number for p in plan.pages if p.kind == "puzzles" for b in p.blocks}
    listed = {}
    for page in contents:
        numbers = {op.y: int(op.text) for op in page.ops
                   if isinstance(op, Text) and op.bold and op.anchor == "right"}
        folios = {op.y: int(op.text) for op in page.ops if isinstance(op, Text)
                  and not op.bold and op.anchor == "right" and op.role == "ink" and op.text}
        listed.update({numbers[y]: folios[y] for y in numbers})
    assert listed == page_of


def test_margins_that_leave_no_room_are_an_error() -> None:
    from grader.errors import NonopressError
    from layout.manifest import Margins

    wide = Manifest(source=Path("m.yaml"), puzzles=(), page=parse_page_size("A5"),
                    margins=Margins(20 * MM, 20 * MM, 70 * MM, 70 * MM))
    with pytest.raises(NonopressError, match="margins leave too little room on the A5 page"):
        plan_issue(issue_of([random_puzzle(5, 5, 1)], wide))
