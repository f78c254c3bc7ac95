"""Worked solutions with step grids (issue 46, item 9): the steps stand in columns rather
than one narrow column beside an empty page, and a step's sentence is never parted from its
grid (a grid never opens a column or a page). Grades made by the test, not the grader."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np

from layout.draw import Page, Rects, Text
from layout.issue import GradeInfo
from layout.manifest import Manifest
from layout.plan import IssuePlan, plan_issue
from layout.synthetic import issue_of, random_puzzle
from layout.units import PAGE_SIZES


def _grid(rng: np.random.Generator, size: int) -> tuple[str, ...]:
    marks = rng.choice(list("#.?F"), size=(size, size), p=[0.4, 0.3, 0.28, 0.02])
    return tuple("".join(row) for row in marks)


def _worked_issue(page: str, steps: int, size: int = 20
                  ) -> tuple[list[tuple[int, tuple[str, ...]]], IssuePlan]:
    rng = np.random.default_rng(46)
    puzzle = random_puzzle(size, size, seed=3)
    lines = tuple(f"{n + 1}. Cell (row {n % size + 1}, column 3): supposing it filled, line "
                  "logic on its row and column leaves no arrangement for row 4; so it is empty"
                  for n in range(steps))
    grids = [(k, _grid(rng, size)) for k in range(0, steps, 2)]  # every other step
    manifest = Manifest(source=Path("worked.yaml"), puzzles=(), worked=(1,),
                        page=PAGE_SIZES[page])
    issue = issue_of([puzzle], manifest)
    entry = issue.entries[0]
    grade = GradeInfo("hard", 1.5, 4, rungs={"simple-boxes": 40, "short-look-ahead": steps},
                      steps=lines, grids=tuple(grids))
    issue = replace(issue, entries=(replace(entry, grade=grade, worked=True),))
    return grids, plan_issue(issue)


def _grids_on(page: Page) -> list[tuple[float, float]]:
    """(left, top) of each step grid on a page: its not-yet-known tint, inked and step
    cells are three Rects in a row, the last in the step role."""
    ops = page.ops
    found = []
    for k, op in enumerate(ops):
        if isinstance(op, Rects) and op.role == "step" and k >= 2:
            rects = [r for o in ops[k - 2:k + 1] if isinstance(o, Rects) for r in o.rects]
            if rects:
                found.append((min(r[0] for r in rects), max(r[1] + r[3] for r in rects)))
    return found


def test_step_grids_stand_in_columns_each_under_its_sentence() -> None:
    grids, plan = _worked_issue("a4", 24)
    worked = [p for p in plan.pages if p.kind == "worked"]
    placed = [(page, grid) for page in worked for grid in _grids_on(page)]
    assert len(placed) == len(grids)
    # columns: grids side by side on a page, not one narrow column
    assert any(len({round(x) for x, _ in _grids_on(page)}) >= 2 for page in worked)
    for page, (x, top) in placed:
        # the sentence's last line (hung under its first words) stands just above the
        # grid, in its column
        above = [t for t in page.ops if isinstance(t, Text) and x - 5 < t.x < x + 40
                 and 0 < t.y - top < 3 * t.size]
        assert above, f"a grid at ({x:.0f}, {top:.0f}) opens a column without its sentence"


def test_a_small_page_keeps_each_sentence_with_its_grid() -> None:
    grids, plan = _worked_issue("a5", 30, size=25)
    worked = [p for p in plan.pages if p.kind == "worked"]
    placed = [(page, grid) for page in worked for grid in _grids_on(page)]
    assert len(placed) == len(grids) and len(worked) > 2
    for page, (x, top) in placed:
        assert any(isinstance(t, Text) and x - 5 < t.x < x + 40 and 0 < t.y - top < 3 * t.size
                   for t in page.ops)
