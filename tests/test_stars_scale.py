"""One difficulty scale in print (issue 36, item 10): the stars an issue prints stay within
the level's two, so a hard puzzle never shows fewer stars than a medium one."""

from __future__ import annotations

import itertools
from pathlib import Path

from grader import formats
from grader.grading import grade
from grader.scoring import LEVEL_STARS, printed_stars
from layout.build import build_issue
from layout.manifest import load_manifest

ROOT = Path(__file__).resolve().parents[1]
ORDER = ("easy", "medium", "hard", "fiendish", "needs-guessing")


def test_printed_stars_never_disagree_with_the_level() -> None:
    shown = {(level, raw): printed_stars(level, raw) for level in ORDER for raw in range(1, 6)}
    for (level, raw), stars in shown.items():
        low, high = LEVEL_STARS[level]
        assert stars is not None and low <= stars <= high
        if low <= raw <= high:
            assert stars == raw  # the score still places a puzzle within its level
    # a harder level never prints fewer stars, whatever the scores
    for easier, harder in itertools.pairwise(ORDER):
        assert max(shown[(easier, r)] or 0 for r in range(1, 6)) <= min(
            shown[(harder, r)] or 0 for r in range(1, 6))
    assert printed_stars("ambiguous", None) is None


def test_an_issue_prints_the_level_consistent_stars(tmp_path: Path) -> None:
    names = ("owl", "clock", "heart", "moon")
    for name in names:
        (tmp_path / f"{name}.yaml").write_bytes((ROOT / "puzzles" / f"{name}.yaml").read_bytes())
    (tmp_path / "issue.yaml").write_text(
        "puzzles: [" + ", ".join(f"{n}.yaml" for n in names) + "]\n")
    issue = build_issue(load_manifest(tmp_path / "issue.yaml"))
    for name, entry in zip(names, issue.entries, strict=True):
        (puzzle,) = formats.read(ROOT / "puzzles" / f"{name}.yaml")
        raw = grade(puzzle)
        assert entry.grade.stars == printed_stars(raw.level, raw.stars), name
        low, high = LEVEL_STARS[entry.grade.level]
        assert entry.grade.stars is not None and low <= entry.grade.stars <= high
