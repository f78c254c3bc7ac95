"""The mosaic ladder: every rung fires on a puzzle that needs it, and not where it must not."""

from __future__ import annotations

import numpy as np
import pytest

from grader.model import FILLED
from grader.mosaic.grading import MosaicGrade, grade
from grader.mosaic.ladder import mosaic_ladder
from grader.mosaic.sentences import explain
from grader.mosaic.solver import solve
from grader.mosaic_model import MosaicPuzzle
from grader.results import Budget

#: rung -> a puzzle whose hardest rung it is (found by grading random small mosaics)
NEEDS = {
    "zeros-and-nines": ["...", ".9.", "..."],
    "corners-and-edges": ["4.", ".."],
    "completing-clues": ["1.0"],
    "overlapping-clues": ["1243", "12.4", "2454", "1.22"],
    "clue-chains": [".211", "13.2", ".3.3", "1.22"],
    "trial": [".2..2", "23.4.", "..2.2", ".11..", "..133"],
    "guess": ["22.132", "....53", "3.54..", "2.66.3", "35.65.", ".43432"],
}


def graded(rows: list[str], max_rung: str | None = None) -> tuple[MosaicPuzzle, MosaicGrade]:
    puzzle = MosaicPuzzle.from_rows(rows)
    # a budget no loaded test machine runs out of: the verdicts here are what is tested
    return puzzle, grade(puzzle, Budget(seconds=300), max_rung=max_rung)


def test_the_table_names_every_rung_in_order() -> None:
    assert mosaic_ladder().names == tuple(NEEDS)


@pytest.mark.parametrize("rung", list(NEEDS))
def test_each_rung_is_the_hardest_its_puzzle_needs(rung: str) -> None:
    ladder = mosaic_ladder()
    puzzle, result = graded(NEEDS[rung])
    assert result.verdict == "unique" and result.solved
    assert max(result.rungs, key=ladder.index) == rung
    assert result.level == ladder[rung].level
    # each step is sound: it agrees with the one solution
    truth = solve(puzzle).solutions[0]
    for step in result.steps:
        for r, c, state in step.changes:
            assert bool(truth[r, c]) == (state == FILLED)
    position = ladder.index(rung)
    if position > 0:  # without the rung the ladder cannot finish
        _, cut = graded(NEEDS[rung], max_rung=ladder.names[position - 1])
        assert cut.level == "stuck" and not cut.solved and cut.score is None
        assert rung not in cut.rungs


def test_harder_rungs_do_not_fire_where_cheaper_ones_finish() -> None:
    rng = np.random.default_rng(9)
    picture = rng.random((12, 12)) < 0.5
    _, result = graded(MosaicPuzzle.from_picture(picture).rows_text())
    assert result.verdict == "unique"
    assert not {"trial", "guess"} & set(result.rungs)
    _, chained = graded(NEEDS["clue-chains"])
    assert not {"trial", "guess"} & set(chained.rungs)


def test_a_zero_empties_its_block_and_a_nine_fills_it() -> None:
    _, zero = graded(["...", ".0.", "..."])
    assert zero.rungs == {"zeros-and-nines": 1}
    assert zero.solution is not None and not zero.solution.any()
    _, nine = graded(NEEDS["zeros-and-nines"])
    assert nine.rungs == {"zeros-and-nines": 1}
    assert nine.solution is not None and nine.solution.all()


def test_corners_and_edges_fill_blocks_at_the_border() -> None:
    _, edge = graded([".6.", "..."])
    assert [s.technique for s in edge.steps] == ["full-edge"]
    _, corner = graded(NEEDS["corners-and-edges"])
    assert [s.technique for s in corner.steps] == ["full-corner"]


def test_an_ambiguous_mosaic_names_two_solutions_and_their_differences() -> None:
    _, result = graded(["0...", "...."])
    assert result.verdict == "multiple" and result.level == "ambiguous"
    assert result.score is None and result.stars is None
    assert result.differing_cells


def test_contradictory_clues_are_found() -> None:
    _, result = graded(["04", ".."])
    assert result.verdict == "none" and result.level == "contradictory"


def test_scores_and_stars_sit_on_the_one_scale_with_unfitted_minutes() -> None:
    easy = graded(MosaicPuzzle.from_picture(np.eye(8, dtype=bool)).rows_text())[1]
    hard = graded(NEEDS["guess"])[1]
    assert easy.stars is not None and 1 <= easy.stars <= 2
    assert hard.stars == 5
    for result in (easy, hard):
        data = result.to_json()
        assert data["minutes_fitted"] is False and "not fitted" in data["minutes_note"]
        assert data["minutes_low"] < data["minutes"] < data["minutes_high"]
        assert {"verdict", "level", "stars", "rungs", "cpu_s"} <= set(data)


@pytest.mark.parametrize("rung", list(NEEDS))
def test_the_score_is_banded_by_level_as_a_nonograms_is(rung: str) -> None:
    """A harder level always scores higher (level i owns the scores [i, i + 1)), the rating
    places a mosaic within its band against the ladder's own middles, and the stars are read
    off the score: before the bands, a medium scored 0.14-0.9, below many easy ones, and
    every mosaic showed its level's lower star."""
    from grader import scoring
    from grader.mosaic.grading import work_figures

    ladder = mosaic_ladder()
    puzzle, result = graded(NEEDS[rung])
    assert result.score is not None and result.stars is not None
    band = scoring.SCORE_BANDS.index(result.level)
    assert band <= result.score < band + 1
    rating, _ = work_figures(puzzle, result.steps, ladder)
    middle = ladder.bands.thresholds()[min(band, 3)]
    assert (result.score - band >= 0.5) == (rating >= middle)
    assert result.stars == scoring.LEVEL_STARS[result.level][result.score - band >= 0.5]


def test_the_score_bands_must_not_fall_as_the_level_rises() -> None:
    from grader.mosaic.ladder import ScoreBands

    good = {"middles": {"easy": 0.6, "medium": 0.6, "hard": 0.7, "fiendish": 1.0},
            "spread": 0.2}
    assert ScoreBands.from_mapping(good).thresholds() == (0.6, 0.6, 0.7, 1.0)
    for bad, message in (
            ({**good, "middles": {**good["middles"], "hard": 0.5}}, "must not fall"),
            ({**good, "middles": {"easy": 0.6, "medium": 0.7}}, "easy, medium"),
            ({**good, "spread": 0}, "above 0"), ({"spread": 0.2}, "lacks middles")):
        with pytest.raises(ValueError, match=message):
            ScoreBands.from_mapping(bad)


@pytest.mark.parametrize("rung", list(NEEDS))
def test_every_step_reads_as_a_sentence(rung: str) -> None:
    puzzle, result = graded(NEEDS[rung])
    decided: set[tuple[int, int, int]] = set()
    for step in result.steps:
        text = explain(step, puzzle.width)
        assert "{" not in text and "row " in text
        # a step's premises are on the board before it: what a hint shows first
        assert set(step.premises) <= decided
        decided.update(step.changes)


def test_finders_stay_silent_where_their_rule_does_not_hold() -> None:
    from grader.mosaic.techniques import (
        Clues,
        completing_clues,
        corners_and_edges,
        overlapping_clues,
        zeros_and_nines,
    )

    inner_six = Clues(MosaicPuzzle.from_rows(["...", ".6.", "..."]))
    assert corners_and_edges(inner_six) == [] and zeros_and_nines(inner_six) == []
    assert completing_clues(inner_six) == []
    corner_four = Clues(MosaicPuzzle.from_rows(["4..", "...", "..."]))
    assert zeros_and_nines(corner_four) == [] and len(corners_and_edges(corner_four)) == 1
    # two 4s side by side in a 3x4 grid tell nothing until a cell is known
    apart = Clues(MosaicPuzzle.from_rows(["....", ".44.", "...."]))
    assert overlapping_clues(apart) == []


def test_the_budget_bounds_a_grade_and_its_verdict_says_so() -> None:
    import time

    from grader.results import Budget

    rng = np.random.default_rng(3)
    puzzle = MosaicPuzzle.from_picture(rng.random((30, 30)) < 0.5, rng.random((30, 30)) < 0.45)
    began = time.monotonic()
    result = grade(puzzle, Budget(seconds=0.5))
    assert time.monotonic() - began < 4.0
    assert result.verdict == "undecided" and result.score is None


def _turned(puzzle: MosaicPuzzle) -> list[MosaicPuzzle]:
    """The clue grid's 8 turns and mirror images (its solution turned with it)."""
    clues = puzzle.clue_array()
    found = []
    for turns in range(4):
        for mirror in (False, True):
            image = np.rot90(clues, turns)
            image = image[:, ::-1] if mirror else image
            found.append(MosaicPuzzle.from_rows(
                ["".join("." if v < 0 else str(v) for v in row) for row in image]))
    return found


@pytest.mark.parametrize("name", ["fish", "snail", *[f"needs-{rung}" for rung in
                                                      ("overlapping-clues", "clue-chains",
                                                       "trial", "guess")]])
def test_a_mosaic_grades_the_same_turned_or_mirrored(name: str) -> None:
    """Level, rungs, steps, score (exactly: no tolerance), stars and minutes are the same
    for all 8 turns and mirror images: the grade takes a round's steps, the trial's cell
    and the guess's cell in the reading order of the clue grid's canonical orientation, not
    the grid's own (the heart scored 0.233 one way and 0.296 turned when it was)."""
    from pathlib import Path

    from grader import mosaic

    if name.startswith("needs-"):
        puzzle = MosaicPuzzle.from_rows(NEEDS[name.removeprefix("needs-")])
    else:
        root = Path(__file__).resolve().parents[1]
        (puzzle,) = mosaic.read(root / "puzzles" / "mosaic" / f"{name}.yaml")
    figures = set()
    for turned in _turned(puzzle):
        result = grade(turned, Budget(seconds=300))
        assert result.verdict == "unique"
        figures.add((result.level, result.score, result.stars, result.minutes,
                     tuple(sorted(result.rungs.items())), len(result.steps)))
    assert len(figures) == 1, sorted(figures)


def test_a_german_overlap_names_its_clues_as_the_ones_that_see() -> None:
    """German inflects the clue after "gesehen von": "nur von der 7 ... gesehen", never
    "von die 7" (the clue's own form names it where it is the subject)."""
    from grader import i18n

    puzzle, result = graded(NEEDS["overlapping-clues"])
    step = next(s for s in result.steps if s.technique == "overlap")
    with i18n.use("de"):
        text = explain(step, puzzle.width)
    assert "vergleichen Sie die " in text and " und die " in text
    assert "von der " in text and "von die " not in text
