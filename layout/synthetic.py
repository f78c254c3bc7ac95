"""Issues made from random pictures, with grades given rather than computed: for the layout
benchmark and tests, where the renderers are measured without the grader."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from grader.model import Metadata, Puzzle
from layout.issue import GradeInfo, Issue, IssueEntry
from layout.manifest import Manifest


def random_puzzle(width: int, height: int, seed: int, density: float = 0.55) -> Puzzle:
    picture = np.random.default_rng(seed).random((height, width)) < density
    return Puzzle.from_picture(picture, Metadata(title=f"Random {width}x{height} #{seed}"))


def issue_of(
    puzzles: Sequence[Puzzle], manifest: Manifest | None = None, *, hide_titles: bool = True
) -> Issue:
    """An issue of ``puzzles`` (which must carry their solutions), graded 'medium'."""
    manifest = manifest or Manifest(source=Path("synthetic.yaml"), puzzles=())
    entries = []
    for number, puzzle in enumerate(puzzles, start=1):
        solution = puzzle.solution_array()
        if solution is None:
            raise ValueError("synthetic issues need puzzles with known solutions")
        grade = GradeInfo("medium", 2.5, 1 + number % 5, rungs={"simple-boxes": 10})
        entries.append(
            IssueEntry(number, puzzle, grade, solution, title=puzzle.title, hide_title=hide_titles)
        )
    return Issue(manifest, tuple(entries))
