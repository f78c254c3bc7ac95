"""Issue 36, item 12: an issue says when clue digits print under a legible size."""

from __future__ import annotations

import re
from pathlib import Path

from layout.draw import ClueText
from layout.manifest import Manifest
from layout.plan import plan_issue
from layout.synthetic import issue_of, random_puzzle

PLAIN_A4 = Manifest(source=Path("m.yaml"), puzzles=())


def _digit_sizes(side: int) -> tuple[list[float], list[str]]:
    plan = plan_issue(issue_of([random_puzzle(side, side, 1)], PLAIN_A4))
    sizes = [op.size for page in plan.pages for op in page.ops if isinstance(op, ClueText)]
    return sizes, plan.warnings


def test_digits_under_seven_points_are_named_with_their_size() -> None:
    sizes, warnings = _digit_sizes(30)
    assert sizes and min(sizes) < 7.0  # the plan prints them small: the warning must say so
    (warning,) = [w for w in warnings if "clue digits" in w]
    assert warning.startswith("puzzle 1 (30x30")
    printed = float(re.search(r"at (\d+\.\d) pt", warning).group(1))  # type: ignore[union-attr]
    assert abs(printed - min(sizes)) < 0.05 and "under the 7 pt" in warning


def test_a_puzzle_printed_at_a_comfortable_size_is_not_warned_about() -> None:
    sizes, warnings = _digit_sizes(15)
    assert min(sizes) >= 7.0
    assert not [w for w in warnings if "clue digits" in w]
