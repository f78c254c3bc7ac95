"""A big puzzle asks the complete solver for its verdict before the ladder's grid rungs.

Above grading.SOLVER_FIRST_CELLS the ladder's cell branching could outlast the budget on a
puzzle with several solutions, so the solver is asked first, from the grid the line rungs
left: once, before the first grid rung or once the line rungs have run a quarter of the
budget. A puzzle the line rungs finish is never searched.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

import grader.solver
from grader.engine import Engine
from grader.grading import SOLVER_FIRST_CELLS, grade
from grader.model import Puzzle
from grader.results import Budget


def count_solves(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The solves grading asks for from here on (the solver's answers unchanged)."""
    asked: list[object] = []
    real = grader.solver.solve

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        asked.append(kwargs.get("start"))
        return real(*args, **kwargs)

    monkeypatch.setattr(grader.solver, "solve", counted)
    return asked


def stripes(side: int) -> Puzzle:
    """Line logic alone fills it: every row's clue fits its line exactly."""
    return Puzzle.from_picture([("#." * side)[:side]] * side)


def test_a_big_puzzle_the_line_rungs_finish_is_never_searched(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    puzzle = stripes(110)
    assert puzzle.width * puzzle.height > SOLVER_FIRST_CELLS
    asked = count_solves(monkeypatch)
    result = grade(puzzle)
    assert (result.verdict, result.level) == ("unique", "easy")
    assert asked == []


def test_a_big_puzzle_with_several_solutions_is_asked_from_the_line_rungs_grid(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two filled cells on a diagonal of an empty 110x110 grid: line logic empties the
    rest, the corner has two solutions. The solver starts from the ladder's grid and ends
    the grade ambiguous."""
    picture = ["." * 110 for _ in range(110)]
    picture[0] = "#" + "." * 109
    picture[1] = ".#" + "." * 108
    puzzle = Puzzle.from_picture(picture)
    asked = count_solves(monkeypatch)
    result = grade(puzzle)
    assert (result.verdict, result.level) == ("multiple", "ambiguous")
    assert len(asked) == 1 and asked[0] is not None
    assert "differ in 4 cells" in result.problem
    assert result.steps and {s.rung for s in result.steps} <= {
        "simple-boxes", "simple-gaps", "extreme-owners", "capped-runs", "owner-branching",
        "line-analysis"}


def test_an_undecided_answer_leaves_the_ladder_to_go_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The question's search runs out of its share: no verdict yet, the grid rungs run and
    recursion asks the solver again (with the rest of the budget)."""
    picture = ["." * 110 for _ in range(110)]
    picture[0] = "#" + "." * 109
    picture[1] = ".#" + "." * 108
    puzzle = Puzzle.from_picture(picture)
    real = grader.solver.solve
    asked: list[str] = []

    def first_undecided(*args, **kwargs):  # type: ignore[no-untyped-def]
        result = real(*args, **kwargs)
        if not asked:
            result = replace(result, verdict="undecided", solutions=())
        asked.append(result.verdict)
        return result

    monkeypatch.setattr(grader.solver, "solve", first_undecided)
    result = grade(puzzle)
    assert asked == ["undecided", "multiple"]
    assert (result.verdict, result.level) == ("multiple", "ambiguous")


def test_a_big_puzzle_without_a_solution_is_contradictory(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two rows of a big random puzzle swap clues: the grade says contradictory, whether
    a line broke or the solver found no solution."""
    rng = random.Random(8)
    found = 0
    for _ in range(6):
        picture = ["".join(rng.choice("##.") for _ in range(105)) for _ in range(100)]
        good = Puzzle.from_picture(picture)
        rows = list(good.rows)
        if rows[3] == rows[40]:
            continue
        rows[3], rows[40] = rows[40], rows[3]
        result = grade(Puzzle(rows=tuple(rows), columns=good.columns))
        assert (result.verdict, result.level) == ("none", "contradictory")
        found += 1
    assert found >= 5


def test_the_question_is_asked_once_the_line_rungs_spent_their_share() -> None:
    """With ask_after 0 the question comes before the ladder's first step."""
    asked: list[int] = []
    puzzle = stripes(12)
    engine = Engine(puzzle, budget=Budget(seconds=60),
                    ask_solver=lambda cells, context: asked.append(len(engine.steps)),
                    ask_after=0.0)
    assert engine.run().outcome == "solved"
    assert asked == [0]
    once: list[int] = []
    late = Engine(puzzle, ask_solver=lambda cells, context: once.append(1))
    assert late.run().outcome == "solved"
    assert once == []  # no grid rung needed, and no time limit: never asked
