"""Worked-solution lines: short solves in full, long ones with routine runs summarised."""

from __future__ import annotations

import re
from pathlib import Path

from grader.formats import read
from grader.grading import grade
from layout.build import FULL_WORKED_STEPS, OPENING_STEPS, ROUTINE_RUNGS, worked_lines

LIBRARY = Path(__file__).resolve().parents[1] / "puzzles"


def test_a_short_solve_is_worked_through_in_full() -> None:
    (puzzle,) = read(LIBRARY / "heart.yaml")
    steps = grade(puzzle).steps
    assert len(steps) <= FULL_WORKED_STEPS
    lines = worked_lines(steps, puzzle)
    assert [int(line.split(".")[0]) for line in lines] == list(range(1, len(steps) + 1))


def test_a_long_solve_keeps_its_hard_steps_and_summarises_the_routine() -> None:
    # moon.yaml served here until the capped-runs rule made it all routine logic
    (puzzle,) = read(LIBRARY / "clock.yaml")
    steps = grade(puzzle).steps
    assert len(steps) > FULL_WORKED_STEPS
    lines = worked_lines(steps, puzzle)
    numbered = [int(m.group(1)) for line in lines if (m := re.match(r"(\d+)\. ", line))]
    hard = [k for k, s in enumerate(steps, start=1) if s.rung not in ROUTINE_RUNGS]
    assert hard and set(hard) <= set(numbered)  # every step beyond routine logic, in full
    assert numbered[:OPENING_STEPS] == list(range(1, OPENING_STEPS + 1))
    spans = [m.groups() for line in lines if (m := re.match(r"Steps? (\d+)(?:-(\d+))?: ", line))]
    # The summaries and the numbered lines together account for every step exactly once.
    covered = sum(int(last or first) - int(first) + 1 for first, last in spans)
    assert spans and covered + len(numbered) == len(steps)
    assert len(lines) < len(steps) / 4
