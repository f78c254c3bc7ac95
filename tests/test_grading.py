"""grade(): verdicts, levels, scores from the work, stars, JSON shape, restricted ladders."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.grading import RUNGS, grade
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
# one supposition that breaks two rounds of line logic later (a short look-ahead)
HARD = Puzzle.from_picture(
    [".##.#.#", "#...###", "###.###", "...##..", ".#####.", "#####.#", "#..#..#"]
)
# suppositions whose contradiction lies further than three rounds of line logic away
FIENDISH = Puzzle.from_picture(
    ["#...#....", "###....#.", "..###..##", "..#.#.#.#", "#...#.#..", "##...#..#",
     "....###.#", ".#.##.###", "..##....#"]
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
    # a defect is not a difficulty: no score, no stars, and what is wrong
    assert (result.score, result.stars, result.graded) == (None, None, False)
    assert result.problem.startswith("several solutions: two of them differ in 4 cells")
    data = result.to_json()
    assert (data["score"], data["stars"]) == (None, None)


def test_impossible_clues_are_contradictory() -> None:
    result = grade(IMPOSSIBLE)
    assert result.verdict == "none"
    assert result.level == "contradictory"
    assert (result.score, result.stars) == (None, None)
    # the row of 2 over three columns whose clues put nothing in the middle
    assert result.problem == (
        "no solution: row 1 (clue 2) cannot be satisfied given the cells decided before it"
    )
    last = result.steps[-1]
    assert last.technique == "broken-line" and last.line is not None
    assert (last.line.axis, last.line.index) == ("row", 0)


def test_a_contradiction_found_by_search_still_names_a_line() -> None:
    # Rows 1 1 force #.# twice: column 1 then holds 2 cells against its clue 1. The
    # ladder never runs into it when line logic stops first: the diagnosis still names it.
    from grader.diagnose import why_no_solution

    puzzle = Puzzle(rows=((1, 1), (1, 1)), columns=((1,), (2,), (1,)))
    found, message = why_no_solution(puzzle)
    assert found is not None
    assert message == (
        "column 1 (clue 1) cannot be satisfied given the cells decided before it (##)"
    )


def test_json_has_the_documented_keys() -> None:
    data = grade(SMALL).to_json()
    for key in ("title", "verdict", "level", "score", "difficulty", "minutes", "minutes_low",
                "minutes_high", "stars", "rungs", "steps", "time_s", "grid"):
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
    # stuck is not a level of difficulty: no score, no stars, and it says so
    assert restricted.level == "stuck"
    assert (restricted.score, restricted.stars) == (None, None)
    assert restricted.problem.startswith("stuck: needs more than capped-runs (")
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
    assert 0 <= result.score < 5
    assert result.minutes is not None and result.minutes > 0


def test_unknown_rung_name_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown rung"):
        grade(SMALL, max_rung="telepathy")


def test_one_hard_step_costs_a_step_not_a_band() -> None:
    """The fitted rating grows by a step for one look-ahead; the score shown is banded by
    level (issue 60: fiendish scores above easy, whatever the work)."""
    from grader.scoring import figures, fitted, step_terms
    from grader.techniques.base import LineRef, Step

    easy = [
        Step("simple-boxes", "t", ((r, c, 2),), LineRef("row", r), (3, 4))
        for r in range(20)
        for c in range(2, 20)
    ]
    one_hard = [*easy, Step("cell-branching", "t", ((0, 0, 2),), cell=(0, 0))]
    many_hard = easy + [Step("cell-branching", "t", ((r, 0, 2),), cell=(r, 0)) for r in range(20)]
    scores = [figures(level, step_terms(s, 20, 20)).difficulty
              for level, s in (("easy", easy), ("fiendish", one_hard), ("fiendish", many_hard))]
    assert scores[0] < 1.0 <= 3.0 <= scores[1] < scores[2] < 4.0
    ratings = [fitted(step_terms(s, 20, 20)) for s in (easy, one_hard, many_hard)]
    assert ratings[0] < ratings[1] < ratings[2]
    assert ratings[1] - ratings[0] < 1.0  # one look-ahead does not lift the work a whole band


def test_an_exhausted_budget_gives_undecided_not_a_hang() -> None:
    result = grade(FIENDISH, budget=Budget(seconds=0.0))
    assert result.level == "undecided"
    assert not result.solved
    assert (result.score, result.stars) == (None, None)
    assert result.problem.startswith("undecided: the time budget of 0 s ran out before")


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
    from grader.scoring import step_terms
    from grader.techniques.base import Step

    weights = default_weights()
    many = [Step("simple-boxes", "t", ((0, 0, 2),), openings=10)] * 20
    few = [Step("simple-boxes", "t", ((0, 0, 2),), openings=1)] * 20
    assert step_terms(few, 10, 10).work(weights) > step_terms(many, 10, 10).work(weights)
    harder = [Step("cell-branching", "t", ((0, 0, 2),), openings=10)] * 20
    assert step_terms(harder, 10, 10).work(weights) > step_terms(many, 10, 10).work(weights)


def test_an_exact_fit_is_cheaper_than_counting_a_long_clue() -> None:
    from grader.scoring import step_terms
    from grader.techniques.base import LineRef, Step

    weights = default_weights()
    row = LineRef("row", 0)
    exact = Step("simple-boxes", "simple-boxes", ((0, 0, 2),), row, (4, 5))  # 4+1+5 = 10
    counted = Step("simple-boxes", "simple-boxes", ((0, 0, 2),), row, (1, 1, 1, 3))  # 9 of 10
    short = Step("simple-boxes", "simple-boxes", ((0, 0, 2),), row, (7,))
    cost = [step_terms([s], 10, 10).work(weights) for s in (exact, short, counted)]
    assert cost[0] <= cost[1] < cost[2]  # the fit found exact fits no cheaper than overlaps


def test_a_chain_of_dependent_steps_counts() -> None:
    from grader.scoring import figures, step_terms
    from grader.techniques.base import LineRef, Step

    # Twenty steps on twenty separate rows, against a staircase where each row or column
    # step leans on the cell the step across it has just decided.
    apart = [Step("simple-boxes", "t", ((r, r, 2),), LineRef("row", r), (3,)) for r in range(20)]
    chained = [
        Step("simple-boxes", "t", ((k // 2, k // 2, 2),), LineRef("row", k // 2), (3,))
        if k % 2 == 0
        else Step("simple-boxes", "t", ((k // 2 + 1, k // 2, 2),), LineRef("column", k // 2), (3,))
        for k in range(20)
    ]
    assert step_terms(apart, 20, 20).chain == 1
    assert step_terms(chained, 20, 20).chain == 20
    assert (figures("easy", step_terms(chained, 20, 20)).difficulty
            >= figures("easy", step_terms(apart, 20, 20)).difficulty)


def test_every_ladder_level_needs_a_rating() -> None:
    import yaml

    from grader.ladder import Ladder, table_text
    from grader.scoring import Weights

    table = yaml.safe_load(table_text())
    table["rungs"][0]["level"] = "trivial"
    data = yaml.safe_load(
        "exact_fit: 1\nscarcity: 1\ncounting: 0\nstars: [1, 2, 3, 4]\n"
        "score: {intercept: 0, per_line_work: 1, chain: 0, lines: 0}\n"
    )
    with pytest.raises(ValueError, match="no rating: trivial"):
        Weights.from_mapping(data, Ladder.from_mapping(table))
    with pytest.raises(ValueError, match="lacks exact_fit"):
        Weights.from_mapping({k: v for k, v in data.items() if k != "exact_fit"})


def test_a_ladder_row_must_give_level_and_weight() -> None:
    from grader.ladder import Ladder

    row = {"name": "x", "family": 1, "scope": "line", "level": "easy", "finder": "m"}
    with pytest.raises(ValueError, match="lacks weight"):
        Ladder.from_mapping({"rungs": [row]})


def test_cells_decided_by_a_look_ahead_raise_the_score() -> None:
    from grader.scoring import figures, step_terms
    from grader.techniques.base import LineRef, Step

    easy = [
        Step("simple-boxes", "t", ((r, c, 2),), LineRef("row", r), (3, 4))
        for r in range(20)
        for c in range(2, 20)
    ]
    one_cell = [*easy, Step("cell-branching", "t", ((0, 0, 2),), cell=(0, 0))]
    whole_row = [*easy, Step("cell-branching", "t", ((0, 0, 2), (0, 1, 2)), cell=(0, 0))]
    terms = [step_terms(s, 20, 20) for s in (easy, one_cell, whole_row)]
    assert [t.look_ahead for t in terms] == [0, 1, 2]
    scores = [figures(level, t).difficulty
              for level, t in zip(("easy", "fiendish", "fiendish"), terms, strict=True)]
    assert scores[0] < scores[1] < scores[2]


def test_no_beginner_rule_weighs_more_than_the_first_look_ahead() -> None:
    from grader.ladder import default_ladder

    weights = default_weights().step_weights
    ladder = default_ladder()
    first_look_ahead = min(r.weight for r in ladder.rungs if r.family >= 3)
    assert all(weights[r.name] <= first_look_ahead for r in ladder.rungs if r.family <= 2)
