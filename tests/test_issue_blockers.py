"""Every blocker of an issue build in one run (issue 36, item 5): missing files at their
manifest line, defective puzzles, printer misfits with the largest grid that fits; a puzzle
listed twice is a warning (item 12)."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader import formats
from grader.errors import ManyProblems
from grader.model import Puzzle
from grader.results import Budget
from layout.build import build_issue
from layout.manifest import Manifest, load_manifest
from layout.plan import plan_issue
from layout.profiles import Profile
from layout.synthetic import issue_of, random_puzzle
from layout.units import parse_page_size

PLUS = ["..#..", "..#..", "#####", "..#..", "..#.."]
# one filled cell in each of two rows and two columns: two solutions
AMBIGUOUS = ["#.", ".#"]


def write_puzzle(path: Path, rows: list[str]) -> None:
    path.write_bytes(formats.write(Puzzle.from_picture(rows), "yaml"))


def test_missing_files_and_defects_are_all_named_in_one_run(tmp_path: Path) -> None:
    write_puzzle(tmp_path / "plus.yaml", PLUS)
    ambiguous = Puzzle.from_picture(AMBIGUOUS)
    (tmp_path / "twice.yaml").write_bytes(
        formats.write(Puzzle(ambiguous.rows, ambiguous.columns), "yaml"))
    (tmp_path / "issue.yaml").write_text(
        "title: Test\npuzzles:\n  - plus.yaml\n  - gone.non\n  - twice.yaml\n"
        "  - also-gone.yaml\n")
    manifest = load_manifest(tmp_path / "issue.yaml")  # a missing file no longer stops here
    with pytest.raises(ManyProblems) as caught:
        build_issue(manifest)
    problems = caught.value.problems
    assert len(problems) == 3, problems
    assert any("gone.non" in p and "issue.yaml:4" in p for p in problems)
    assert any("also-gone.yaml" in p and "issue.yaml:6" in p for p in problems)
    assert any("twice.yaml" in p and "puzzle 3" in p for p in problems)


def test_a_puzzle_listed_twice_is_a_warning(tmp_path: Path) -> None:
    write_puzzle(tmp_path / "plus.yaml", PLUS)
    (tmp_path / "issue.yaml").write_text("puzzles:\n  - plus.yaml\n  - plus.yaml\n")
    issue = build_issue(load_manifest(tmp_path / "issue.yaml"))
    assert any("same puzzle as puzzle 1" in w and "puzzle 2" in w for w in issue.warnings)


def test_every_puzzle_too_big_for_the_printer_is_named_with_what_fits() -> None:
    puzzles = [random_puzzle(10, 10, seed=1), random_puzzle(60, 60, seed=2),
               random_puzzle(10, 8, seed=3), random_puzzle(70, 55, seed=4)]
    manifest = Manifest(source=Path("m.yaml"), puzzles=(), page=parse_page_size("6x9in"),
                        profile=Profile("kdp", large_print=True))
    with pytest.raises(ManyProblems) as caught:
        plan_issue(issue_of(puzzles, manifest))
    problems = caught.value.problems
    assert len(problems) == 2, problems
    assert "puzzle 2 (60x60" in problems[0] and "puzzle 4 (70x55" in problems[1]
    assert all("largest grid that fits" in p for p in problems)


def test_a_colour_issue_names_every_blocker_at_once(tmp_path: Path) -> None:
    from layout.build import build_issue
    from layout.gradecache import GradeCache

    root = Path(__file__).resolve().parents[1] / "puzzles" / "colour"
    (tmp_path / "ladybird.yaml").write_bytes((root / "ladybird.yaml").read_bytes())
    (tmp_path / "issue.yaml").write_text(
        "puzzles:\n  - ladybird.yaml\n  - gone.yaml\n  - also-gone.yaml\n")
    manifest = load_manifest(tmp_path / "issue.yaml")
    with pytest.raises(ManyProblems) as caught:
        build_issue(manifest, cache=GradeCache(None), budget=Budget(seconds=30))
    problems = caught.value.problems
    assert len(problems) == 2
    assert "issue.yaml:3" in problems[0] and "gone.yaml" in problems[0]
    assert "issue.yaml:4" in problems[1] and "also-gone.yaml" in problems[1]
