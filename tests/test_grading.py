"""grade(): verdicts, levels in disjoint bands, stars, JSON shape, restricted ladders."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from grader.grading import LEVELS, RUNGS, grade
from grader.model import Puzzle
from grader.results import Budget
from grader.scoring import default_weights

SMALL = Puzzle.from_picture([".##..", "#####", ".#.#.", "##.##", "#...#"])
# Found by grading random pictures: each needs exactly the rung its name says.
EXTREME = Puzzle.from_picture(["....#", ".####", "##.#.", "....#", ".##.#"])
OWNERS = Puzzle.from_picture(["#..#.", "#.#..", ".#.#.", "#...#", "#.#.#", ".###.", "..#.#"])
# Needed owner branching until the capped-runs rule (rung 2 family) took its one step.
CAPPED = Puzzle.from_picture(
    ["##.##..", "...#..#", "###....", "#...###", "..#..#.", ".#####.", "..#..##", "#..#..#"]
)
FIENDISH = Puzzle.from_picture(
    [".##.#.#", "#...###", "###.###", "...##..", ".#####.", "#####.#", "#..#..#"]
)
TWO_SOLUTIONS = Puzzle.from_picture(["#.", ".#"])
IMPOSSIBLE = Puzzle(rows=((2,), ()), columns=((1,), (), (1,)))


def test_easy_puzzle_is_solved_unique_and_easy() -> None:
    result = grade(SMALL)
    assert result.verdict == "unique"
    assert result.solved
    assert result.level == "easy"
    assert result.grid.to_rows() == list(SMALL.solution or ())
    assert 0 <= result.score < 1
    assert result.stars == 1
    assert sum(result.rungs.values()) == len(result.steps)


def test_several_solutions_are_ambiguous_whatever_the_ladder_did() -> None:
    result = grade(TWO_SOLUTIONS)
    assert result.verdict == "multiple"
    assert result.level == "ambiguous"
    assert not result.solved


def test_impossible_clues_are_contradictory() -> None:
    result = grade(IMPOSSIBLE)
    assert result.verdict == "none"
    assert result.level == "contradictory"


def test_json_has_the_documented_keys() -> None:
    data = grade(SMALL).to_json()
    for key in ("title", "verdict", "level", "score", "stars", "rungs", "steps", "time_s", "grid"):
        assert key in data
    assert data["grid"] == list(SMALL.solution or ())
    assert data["steps"] == sum(data["rungs"].values())
    assert set(data["rungs"]) <= set(RUNGS)


def test_grading_is_deterministic() -> None:
    first, second = grade(SMALL), grade(SMALL)
    assert (first.score, first.rungs, first.steps) == (second.score, second.rungs, second.steps)


def test_max_rung_restricts_the_ladder() -> None:
    assert grade(OWNERS).level == "medium"
    restricted = grade(OWNERS, max_rung="capped-runs")
    assert set(restricted.rungs) <= set(RUNGS[: RUNGS.index("capped-runs") + 1])
    assert not restricted.solved
    assert restricted.verdict == "unique"
    assert restricted.level == "medium"  # at least as hard as the first rung not allowed
    assert "?" in "".join(restricted.grid.to_rows())


@pytest.mark.parametrize(
    ("puzzle", "level"),
    [
        (SMALL, "easy"),
        (EXTREME, "easy"),
        (CAPPED, "easy"),
        (OWNERS, "medium"),
        (FIENDISH, "fiendish"),
    ],
)
def test_level_is_named_after_the_hardest_rung(puzzle: Puzzle, level: str) -> None:
    result = grade(puzzle)
    rung = max(result.rungs, key=RUNGS.index)
    assert default_weights().levels[rung] == level
    assert result.level == level
    assert result.solved
    assert result.grid.to_rows() == list(puzzle.solution or ())
    band = default_weights().bands[level]
    assert band <= result.score < band + 1


def test_unknown_rung_name_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown rung"):
        grade(SMALL, max_rung="telepathy")


def test_levels_occupy_disjoint_bands_in_ladder_order() -> None:
    bands = default_weights().bands
    ordered = [bands[level] for level in LEVELS]
    assert ordered == sorted(ordered)
    assert all(b - a >= 1 for a, b in itertools.pairwise(ordered))


def test_an_exhausted_budget_gives_undecided_not_a_hang() -> None:
    result = grade(FIENDISH, budget=Budget(seconds=0.0))
    assert result.level == "undecided"
    assert not result.solved


def test_explain_sentence_for_an_overlap_names_block_cells_and_range() -> None:
    from grader.explain import sentence
    from grader.model import UNKNOWN
    from grader.techniques import simple
    from grader.techniques.base import LineRef, Step

    clue = (3, 1, 4)
    found = simple.find(clue, [UNKNOWN] * 11)
    ref = LineRef("row", 6)
    texts = [
        sentence(
            Step(
                "simple-boxes",
                d.technique,
                tuple((6, p, s) for p, s in d.changes),
                line=ref,
                clue=clue,
                facts=d.facts,
            )
        )
        for d in found
    ]
    assert texts == [
        "Row 7 (3 1 4): the 3 must cover cells 2-3 wherever it lies "
        "(it fits only within cells 1-4)",
        "Row 7 (3 1 4): the 4 must cover cells 8-10 wherever it lies "
        "(it fits only within cells 7-11)",
    ]


def test_explain_text_numbers_steps_and_ends_with_the_solved_grid() -> None:
    from grader.explain import explain_text

    result = grade(OWNERS)
    text = explain_text(OWNERS, result.steps)
    numbered = [line for line in text.splitlines() if line.strip()[:1].isdigit()]
    assert len(numbered) == len(result.steps)
    assert any("[owner-branching]" in line and "belong" in line for line in numbered)
    assert text.rstrip().endswith("\n".join("      " + row for row in OWNERS.solution or ()))


def test_a_puzzle_needing_full_line_analysis_is_hard(corpus_dir: Path) -> None:
    from grader import formats

    (puzzle,) = formats.read(corpus_dir / "pynogram" / "einstein.txt")
    result = grade(puzzle)
    assert result.level == "hard"
    assert "line-analysis" in result.rungs
    assert "cell-branching" not in result.rungs


def test_fewer_openings_make_the_same_work_weigh_more() -> None:
    from grader.scoring import work
    from grader.techniques.base import Step

    many = [Step("simple-boxes", "t", ((0, 0, 2),), openings=10)] * 20
    few = [Step("simple-boxes", "t", ((0, 0, 2),), openings=1)] * 20
    assert work(few, 10, 10) > work(many, 10, 10)
    harder = [Step("cell-branching", "t", ((0, 0, 2),), openings=10)] * 20
    assert work(harder, 10, 10) > work(many, 10, 10)


def test_score_rises_with_work_but_never_leaves_its_band() -> None:
    from grader.scoring import score

    values = [score("medium", w) for w in (0.0, 1.0, 10.0, 1e9)]
    assert values == sorted(values)
    assert values[0] == 1.0 and values[-1] < 2.0


def test_every_ladder_level_needs_a_score_band() -> None:
    import yaml

    from grader.scoring import Weights

    with pytest.raises(ValueError, match="no score band"):
        Weights.from_mapping(
            yaml.safe_load(
                "bands: {easy: 0}\nscarcity: 1\nhalf_work: {easy: 5}\nstars: [1, 2, 3, 4]\n"
            )
        )


def test_a_ladder_row_must_give_level_and_weight() -> None:
    from grader.ladder import Ladder

    row = {"name": "x", "family": 1, "scope": "line", "level": "easy", "finder": "m"}
    with pytest.raises(ValueError, match="lacks weight"):
        Ladder.from_mapping({"rungs": [row]})
