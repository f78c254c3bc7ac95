"""The mosaic engine's small API: what the kind's entry will wrap."""

from __future__ import annotations

import subprocess
import sys

import numpy as np

import grader.mosaic as mosaic
from grader.results import Budget

HEART = np.array([[c == "#" for c in row] for row in
                  [".##.##.", "#######", ".#####.", "..###..", "...#..."]], dtype=bool)


def test_read_check_grade_make_write_round() -> None:
    made = mosaic.make(HEART, stars=3)
    assert made.level_asked == "medium"
    text = mosaic.write(made.puzzle, "yaml")
    (puzzle,) = mosaic.read(text, name="heart.yaml")
    assert puzzle == made.puzzle
    result = mosaic.check(puzzle, budget=Budget(seconds=5))
    assert result.verdict == "unique" and np.array_equal(result.solutions[0], HEART)
    graded = mosaic.grade(puzzle)
    assert graded.verdict == "unique" and graded.stars in (1, 2, 3)
    assert all(mosaic.explain(step, puzzle.width) for step in graded.steps)


def test_naming_the_kind_loads_no_solver() -> None:
    code = ("import sys, grader.mosaic; "
            "print(any(m.startswith(('grader.mosaic.solver', 'grader.mosaic.grading', "
            "'pysat')) for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


def test_the_engine_imports_no_layout_kinds_or_colour() -> None:
    code = ("import sys, grader.mosaic.making, grader.mosaic.sentences, grader.mosaic.formats; "
            "print(sorted({m.split('.')[0] + '.' + m.split('.')[1] for m in sys.modules "
            "if m.startswith(('layout', 'grader.kinds', 'grader.colour.solver', "
            "'grader.colour.grading', 'nonopress'))}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"
