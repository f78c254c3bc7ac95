"""Colour grading: each human technique is sound (never removes what the complete line
solve keeps), fires where a person would, the grader ends on the solver's solution, and
levels and sentences name the colours."""

from __future__ import annotations

import random

import numpy as np
import pytest

from grader.colour import techniques
from grader.colour.grading import explain_colour, grade_colour, sentence
from grader.colour.lines import full_mask, solve_line
from grader.colour.model import ColourPuzzle, clue_of_line
from grader.colour.palette import Colour, Palette
from grader.colour.solver import solve_colour
from grader.errors import Contradiction

PALETTE = Palette((Colour("red", (220, 30, 30), "r"), Colour("blue", (30, 60, 200), "b"),
                   Colour("green", (40, 150, 60), "g")))
R, B, G, E = 2, 4, 8, 1  # bits of red, blue, green, background


def test_techniques_never_remove_a_possible_value() -> None:
    rng = random.Random(11)
    checked = 0
    for _ in range(2000):
        k = rng.randint(1, 3)
        n = rng.randint(1, 12)
        line = [rng.choice([0, 0, *range(1, k + 1)]) for _ in range(n)]
        clue = clue_of_line(line)
        cells = [full_mask(k) if rng.random() < 0.7 else rng.randint(1, full_mask(k))
                 for _ in range(n)]
        exact = solve_line(clue, cells)
        for find in (lambda c, x, k=k: techniques.colour_absent(c, x, k), techniques.colour_overlap,
                     techniques.colour_reach, techniques.colour_extreme_owners,
                     techniques.colour_line_analysis):
            try:
                deduction = find(clue, cells)
            except Contradiction:
                assert exact is None, (clue, cells)
                continue
            if deduction is None or exact is None:
                continue
            for position, value in deduction.changes:
                assert exact[position] & ~value == 0, (clue, cells, deduction)
                checked += 1
    assert checked > 1000


def test_touching_blocks_of_different_colours_need_no_gap() -> None:
    # 2 red and 1 blue in 3 cells: red touches blue, the overlap decides every cell
    deduction = techniques.colour_overlap(((2, 1), (1, 2)), [15, 15, 15])
    assert deduction is not None
    assert deduction.changes == ((0, R), (1, R), (2, B))
    assert deduction.facts["touching"] is True
    # two reds in 3 cells keep their gap: red, empty... the overlap fixes both reds
    deduction = techniques.colour_overlap(((1, 1), (1, 1)), [15, 15, 15])
    assert deduction is not None and dict(deduction.changes) == {0: R, 2: R}


def test_colour_absent_from_a_line() -> None:
    deduction = techniques.colour_absent(((1, 1),), [15, 15], 3)
    assert deduction is not None
    assert deduction.changes == ((0, R | E), (1, R | E))
    assert deduction.facts["absent"] == [2, 3]
    assert techniques.colour_absent(((1, 1), (1, 2), (1, 3)), [15] * 3, 3) is None


def random_unique(rng: np.random.Generator, count: int) -> list[ColourPuzzle]:
    out = []
    while len(out) < count:
        h, w = int(rng.integers(3, 9)), int(rng.integers(3, 9))
        picture = np.where(rng.random((h, w)) < 0.7, rng.integers(1, 4, size=(h, w)),
                           0).astype(np.uint8)
        puzzle = ColourPuzzle.from_picture(picture, PALETTE)
        if solve_colour(puzzle).verdict == "unique":
            out.append(puzzle)
    return out


def test_grader_ends_on_the_solvers_solution() -> None:
    rng = np.random.default_rng(4)
    levels = set()
    for puzzle in random_unique(rng, 60):
        result = grade_colour(puzzle)
        assert result.verdict == "unique" and result.solved
        solution = solve_colour(puzzle).solutions[0]
        assert np.array_equal(result.grid, np.uint32(1) << solution.astype(np.uint32))
        levels.add(result.level)
        assert result.rungs and 1 <= result.stars <= 5
    assert "easy" in levels and levels <= {"easy", "medium", "hard", "fiendish",
                                           "needs-guessing"}


def test_levels_follow_the_hardest_technique() -> None:
    from pathlib import Path

    from grader.formats import read_any

    library = Path(__file__).resolve().parents[1] / "puzzles" / "colour"
    (ladybird,) = read_any(library / "ladybird.yaml")
    assert isinstance(ladybird, ColourPuzzle)
    easy = grade_colour(ladybird)
    assert easy.level == "easy" and set(easy.rungs) <= {"simple-boxes", "extreme-owners"}
    shuttle = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "olsak" / \
        "spaceShuttle.g"
    if not shuttle.is_file():
        pytest.skip("corpus not present")
    (puzzle,) = read_any(shuttle)
    assert isinstance(puzzle, ColourPuzzle)
    hard = grade_colour(puzzle)
    assert hard.level == "hard" and "line-analysis" in hard.rungs
    assert hard.score > easy.score and hard.stars > easy.stars


def test_levels_for_ambiguous_and_contradictory() -> None:
    two = ColourPuzzle((((1, 1),), ((1, 1),)), (((1, 1),), ((1, 1),)), PALETTE)
    ambiguous = grade_colour(two)
    assert ambiguous.level == "ambiguous"
    # a defect is not a difficulty: no score, no stars, and what is wrong
    assert (ambiguous.score, ambiguous.stars) == (None, None)
    assert ambiguous.problem.startswith("several solutions: two of them differ in")
    none = ColourPuzzle((((1, 1), (1, 2)), ((1, 1), (1, 2))),
                        (((1, 2), (1, 1)), ((1, 2), (1, 1))), PALETTE)
    contradictory = grade_colour(none)
    assert contradictory.level == "contradictory"
    assert (contradictory.score, contradictory.stars) == (None, None)


def test_sentences_name_the_colours() -> None:
    picture = np.array([[1, 1, 2], [0, 3, 3], [2, 2, 0]], dtype=np.uint8)
    puzzle = ColourPuzzle.from_picture(picture, PALETTE)
    result = grade_colour(puzzle)
    text = explain_colour(puzzle, result, "heading")
    assert text.splitlines()[0] == "heading"
    assert "Row 1, clue 2 red, 1 blue: the 2 red overlaps itself in cells 1-2" in text
    assert "may touch" in text
    assert all(sentence(step, puzzle) for step in result.steps)


@pytest.mark.parametrize("rung", ["simple-boxes", "line-analysis"])
def test_max_rung_cuts_the_ladder(rung: str) -> None:
    rng = np.random.default_rng(9)
    for puzzle in random_unique(rng, 20):
        full = grade_colour(puzzle)
        cut = grade_colour(puzzle, max_rung=rung)
        if not cut.solved:
            # beyond the cut: stuck, which is no level of difficulty (no score, no stars)
            assert (cut.level, cut.score, cut.stars) == ("stuck", None, None)
            assert cut.problem == f"stuck: needs more than {rung}"
            assert cut.verdict == "unique"
        else:
            assert cut.level == full.level


def test_a_puzzle_that_needs_cell_branching_is_fiendish() -> None:
    rows = ("rrrb.r.b.r.b", "brbrb.bbbbbb", ".r.b.rrrb.r.", "...b.r.rbbr.", ".brbrb.rb.r.",
            ".b.r...r.r..", "r..b.r.r...r", "...rr.b..r..", "bb.bbbrbbb.r", "b...b..r.brr",
            ".r..rrbrrr..", ".b.....rrr.r")
    palette = Palette((Colour("red", (220, 30, 30), "r"), Colour("blue", (30, 60, 200), "b")))
    from grader.colour.model import rows_to_colour_array

    puzzle = ColourPuzzle.from_picture(rows_to_colour_array(rows, palette), palette)
    result = grade_colour(puzzle)
    assert result.verdict == "unique" and result.solved
    assert result.level == "fiendish" and "cell-branching" in result.rungs
    probe = next(step for step in result.steps if step.rung == "cell-branching")
    text = sentence(probe, puzzle)
    assert "suppose it is" in text and "contradiction" in text
    # cut below cell branching, the same puzzle is left unsolved
    assert not grade_colour(puzzle, max_rung="line-analysis").solved


def test_colour_at_the_intersection_is_explained() -> None:
    from pathlib import Path

    from grader.formats import read_any

    (puzzle,) = read_any(Path(__file__).resolve().parents[1] / "puzzles" / "colour" /
                         "flowerpot.yaml")
    assert isinstance(puzzle, ColourPuzzle)
    result = grade_colour(puzzle)
    text = explain_colour(puzzle, result, "")
    assert ("Column 2, clue 2 green: no yellow, pink or terracotta block" in text
            and "are empty (colour at the intersection: their row allows none of this "
            "column's colours)" in text)
