"""The compiled block ranges of long lines equal the Python reference, notes and all.

The grader narrows lines of ``ranges.COMPILED_FROM`` cells or more with
grader.solver.line_ranges; every rung from simple boxes to owner branching reads those
ranges, so a difference would change grades. Here both run on the same random lines
(and on broken ones), compared field by field, deduction by deduction, and a wide puzzle
is graded both ways, step log against step log.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from grader.errors import Contradiction
from grader.grading import grade
from grader.model import EMPTY, FILLED, UNKNOWN, Clue, Puzzle, clue_of, clue_table
from grader.solver import line_ranges
from grader.techniques import caps, extreme, gaps, owner_branching, ranges, simple
from grader.techniques.base import Step
from grader.techniques.ranges import Ranges, narrow


def reference(clue: Clue, cells: list[int], owners: bool) -> Ranges:
    found = Ranges.initial(clue, len(cells))
    narrow(clue, cells, found, owners=owners)
    return found


def compiled(clue: Clue, cells: list[int], owners: bool) -> tuple[int, Ranges]:
    status, lo, hi, starts, ends, firsts, lasts = line_ranges.narrow_line(
        np.array(clue, dtype=np.int64), np.array(cells, dtype=np.uint8), owners)
    notes = {(int(s), int(e)): (int(f), int(g))
             for s, e, f, g in zip(starts, ends, firsts, lasts, strict=True) if f >= 0}
    return int(status), Ranges(lo.tolist(), hi.tolist(), notes)


def random_line(rng: random.Random, length: int, broken: bool) -> tuple[Clue, list[int]]:
    """A clue of a random picture line with some cells revealed (from another picture
    when ``broken``, so that the line often cannot be filled)."""
    density = rng.choice((0.3, 0.5, 0.7))
    picture = [rng.random() < density for _ in range(length)]
    clue = clue_of(np.array(picture))
    if broken:
        picture = [rng.random() < density for _ in range(length)]
    reveal = rng.choice((0.0, 0.1, 0.3, 0.6, 0.9))
    cells = [(FILLED if filled else EMPTY) if rng.random() < reveal else UNKNOWN
             for filled in picture]
    return clue, cells


def lines(count: int, seed: int) -> list[tuple[Clue, list[int]]]:
    rng = random.Random(seed)
    return [random_line(rng, rng.choice((1, 2, 5, 17, 40, 120)), rng.random() < 0.4)
            for _ in range(count)]


@pytest.mark.parametrize("owners", [False, True])
def test_compiled_ranges_equal_the_reference_on_random_lines(owners: bool) -> None:
    broken = fine = 0
    for clue, cells in lines(3000, seed=11 + owners):
        status, got = compiled(clue, cells, owners)
        try:
            expected = reference(clue, cells, owners)
        except Contradiction:
            assert status < 0, (clue, cells)
            broken += 1
            continue
        assert status == 0, (clue, cells)
        assert (got.lo, got.hi, got.owner_notes) == (
            expected.lo, expected.hi, expected.owner_notes), (clue, cells)
        fine += 1
    assert broken > 100 and fine > 1000  # both kinds were really compared


def test_owner_notes_are_compared_on_lines_where_owner_rules_narrow() -> None:
    noted = sum(bool(reference(clue, cells, True).owner_notes)
                for clue, cells in lines(500, seed=5) if _fits(clue, cells))
    assert noted > 50


def _fits(clue: Clue, cells: list[int]) -> bool:
    try:
        reference(clue, cells, True)
    except Contradiction:
        return False
    return True


FINDERS = (simple, gaps, extreme, caps, owner_branching)


def outcome(find: object, clue: Clue, cells: list[int]) -> object:
    """The deductions with their facts (which LineDeduction's equality leaves out: the
    explanations are made from them), or the contradiction's words."""
    try:
        found = find.find(clue, cells)  # type: ignore[attr-defined]
        return [(d.technique, d.changes, dict(d.facts)) for d in found]
    except Contradiction as exc:
        return f"Contradiction: {exc}"


def test_every_range_rung_deduces_and_fails_alike_with_the_compiled_ranges(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cases = lines(1500, seed=3)
    expected = [[outcome(f, clue, cells) for f in FINDERS] for clue, cells in cases]
    ranges._narrowed.cache_clear()
    monkeypatch.setattr(ranges, "COMPILED_FROM", 1)
    try:
        got = [[outcome(f, clue, cells) for f in FINDERS] for clue, cells in cases]
    finally:
        ranges._narrowed.cache_clear()
    for case, want, have in zip(cases, expected, got, strict=True):
        assert have == want, case
    assert sum(isinstance(o, str) for row in expected for o in row) > 100
    assert sum(bool(o) and isinstance(o, list) for row in expected for o in row) > 1000


def test_a_long_line_takes_the_compiled_path_and_a_broken_one_is_named() -> None:
    clue: Clue = (3, 1) * 20  # 119 cells at least
    cells = [UNKNOWN] * 150
    assert len(cells) >= ranges.COMPILED_FROM
    assert extreme.find(clue, cells) == []  # 31 cells of slack: no overlap yet
    tight = [UNKNOWN] * 119
    found = simple.find(clue, tight)  # every block fixed in place, the 39 gaps empty
    assert [d.technique for d in found] == ["simple-boxes"] * 40 + ["simple-spaces"] * 39
    with pytest.raises(Contradiction, match="has no room"):
        extreme.find(clue, [UNKNOWN] * 119 + [FILLED] * 31)


def test_compiled_gaps_equal_the_reference(monkeypatch: pytest.MonkeyPatch) -> None:
    cases = [cells for _, cells in lines(1000, seed=8)]
    expected = [gaps.gaps(cells) for cells in cases]
    monkeypatch.setattr(ranges, "COMPILED_FROM", 1)
    assert [gaps.gaps(cells) for cells in cases] == expected
    assert sum(map(len, expected)) > 500


def test_a_wide_puzzle_grades_alike_through_either_narrowing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = random.Random(3)
    picture = ["".join(rng.choice("##.") for _ in range(ranges.COMPILED_FROM + 20))
               for _ in range(12)]
    puzzle = Puzzle.from_picture(picture)
    compiled = grade(puzzle)
    ranges._narrowed.cache_clear()
    monkeypatch.setattr(ranges, "COMPILED_FROM", 10**9)
    python = grade(puzzle)
    ranges._narrowed.cache_clear()

    def log(steps: tuple[Step, ...]) -> list[tuple[object, ...]]:
        return [(s.rung, s.technique, s.changes, s.line, s.openings, dict(s.facts))
                for s in steps]

    assert (compiled.level, compiled.score) == (python.level, python.score)
    assert log(compiled.steps) == log(python.steps) and len(compiled.steps) > 50


def sizes_or_broken(finder: object, clue: Clue, cells: list[int]) -> list[int] | None:
    try:
        return [len(d.changes) for d in finder.find(clue, cells)]  # type: ignore[attr-defined]
    except Contradiction:
        return None


@pytest.mark.parametrize("finder", [simple, extreme, gaps, owner_branching])
def test_many_lines_are_sized_in_one_call_as_their_finder_lists_them(
    finder: object, monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = random.Random(11)
    length = ranges.COMPILED_FROM + 6
    cases = [random_line(rng, length, rng.random() < 0.3) for _ in range(600)]
    grid = np.array([cells for _, cells in cases], dtype=np.uint8)
    # every line twice: as a row of the grid, and as a column of its transpose
    clues, nclues = clue_table([clue for clue, _ in cases] + [()] * length)
    tall = np.ascontiguousarray(grid.T)
    tall_clues, tall_nclues = clue_table([()] * length + [clue for clue, _ in cases])
    expected = [sizes_or_broken(finder, clue, cells) for clue, cells in cases]
    monkeypatch.setattr(ranges, "_SIZES_ROOM", 4 * length)  # several calls, as when big
    monkeypatch.setattr(ranges._buffers, "sizes", None, raising=False)
    kind = finder.SIZES_KIND  # type: ignore[attr-defined]
    rows = ranges.deduction_sizes_many(kind, clues, nclues, grid, list(range(len(cases))))
    columns = ranges.deduction_sizes_many(
        kind, tall_clues, tall_nclues, tall, [length + i for i in range(len(cases))])
    assert rows == expected and columns == expected
    assert sum(s is None for s in expected) > 5 or finder is gaps
    assert sum(bool(s) for s in expected) > (8 if finder is gaps else 60)


@pytest.mark.parametrize("finder", [simple, extreme, gaps, owner_branching])
def test_sizes_from_remembered_ranges_equal_fresh_ones_as_lines_fill_in(
    finder: object,
) -> None:
    """The engine keeps each line's last ranges (RangesMemo) and narrows the line from
    them once it gains cells; the sizes must be those of a fresh narrowing at every
    stage, also once a wrong cell breaks a line (it then starts afresh)."""
    rng = random.Random(21)
    length = ranges.COMPILED_FROM + 6
    count = 300
    pictures = [[rng.random() < rng.choice((0.3, 0.5, 0.7)) for _ in range(length)]
                for _ in range(count)]
    row_clues = [clue_of(np.array(picture)) for picture in pictures]
    clues, nclues = clue_table(row_clues + [()] * length)
    memo = ranges.RangesMemo.for_clues(clues)
    assert memo is not None
    grid = np.full((count, length), UNKNOWN, dtype=np.uint8)
    orders = [rng.sample(range(length), length) for _ in range(count)]
    broken = remembered = 0
    for stage in range(12):
        for row, (picture, order) in enumerate(zip(pictures, orders, strict=True)):
            for position in order[stage * 6:stage * 6 + 6]:
                right = FILLED if picture[position] else EMPTY
                grid[row, position] = right if rng.random() < 0.97 else FILLED + EMPTY - right
        remembered += int(memo.ok.sum())
        kind = finder.SIZES_KIND  # type: ignore[attr-defined]
        got = ranges.deduction_sizes_many(kind, clues, nclues, grid, list(range(count)), memo)
        expected = [sizes_or_broken(finder, clue, grid[row].tolist())
                    for row, clue in enumerate(row_clues)]
        assert got == expected, stage
        broken += sum(s is None for s in expected)
    assert remembered > 1000 and broken > 100
