"""The engine: cheapest rung first, the only mutator, contradictions, and the corpus."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from grader import formats
from grader.engine import Engine
from grader.errors import Contradiction
from grader.grading import grade
from grader.ladder import default_ladder
from grader.model import UNKNOWN, Grid, Puzzle
from grader.results import Budget
from grader.solver import solve
from grader.techniques.base import Step

LADDER = default_ladder()
RUNGS = LADDER.names
LINE_FINDERS = {r.name: r.finder() for r in LADDER.rungs if r.scope == "line"}

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"

HARD = Puzzle.from_picture(
    ["##.##..", "...#..#", "###....", "#...###", "..#..#.", ".#####.", "..#..##", "#..#..#"]
)
FIENDISH = Puzzle.from_picture(
    ["#...#....", "###....#.", "..###..##", "..#.#.#.#", "#...#.#..", "##...#..#",
     "....###.#", ".#.##.###", "..##....#"]
)


def _lines(puzzle: Puzzle, cells: np.ndarray) -> list[tuple[tuple[int, ...], list[int]]]:
    rows = [(clue, [int(v) for v in cells[i]]) for i, clue in enumerate(puzzle.rows)]
    cols = [(clue, [int(v) for v in cells[:, j]]) for j, clue in enumerate(puzzle.columns)]
    return rows + cols


def _replay_checking_cheapest_first(puzzle: Puzzle, steps: list[Step]) -> np.ndarray:
    cells = np.full((puzzle.height, puzzle.width), UNKNOWN, dtype=np.uint8)
    for step in steps:
        level = RUNGS.index(step.rung)
        for rung in RUNGS[:level]:
            if rung not in LINE_FINDERS:
                continue
            for clue, line in _lines(puzzle, cells):
                if UNKNOWN in line:
                    assert not LINE_FINDERS[rung](clue, line), (step.rung, rung)
        assert step.openings >= 1
        for r, c, state in step.changes:
            assert cells[r, c] == UNKNOWN, "a step decides only open cells"
            cells[r, c] = state
    return cells


@pytest.mark.parametrize("puzzle", [HARD, FIENDISH], ids=["hard", "fiendish"])
def test_each_step_uses_the_cheapest_rung_that_makes_progress(puzzle: Puzzle) -> None:
    engine = Engine(puzzle)
    result = engine.run()
    assert result.outcome == "solved"
    cells = _replay_checking_cheapest_first(puzzle, result.steps)
    assert Grid(cells) == result.grid
    assert result.grid.to_rows() == list(puzzle.solution or ())


def test_max_rung_stops_where_the_ladder_ends() -> None:
    result = Engine(FIENDISH, max_rung="line-analysis").run()
    assert result.outcome == "stuck"
    assert {s.rung for s in result.steps} <= set(RUNGS[: RUNGS.index("line-analysis") + 1])
    assert not result.grid.is_complete()


def test_impossible_clues_raise_contradiction() -> None:
    puzzle = Puzzle(rows=((2,), ()), columns=((1,), (), (1,)))
    with pytest.raises(Contradiction):
        Engine(puzzle).run()


def test_apply_refuses_a_step_against_the_grid() -> None:
    engine = Engine(HARD)
    engine.apply(Step("simple-boxes", "test", ((0, 0, 2),)))
    with pytest.raises(Contradiction):
        engine.apply(Step("simple-boxes", "test", ((0, 0, 1),)))


def test_several_solutions_stop_the_engine_with_two_examples() -> None:
    puzzle = Puzzle.from_picture(["#.", ".#"])
    result = Engine(puzzle).run()
    assert result.outcome == "multiple"
    assert len(result.solutions) == 2
    assert result.solutions[0] != result.solutions[1]


# -- the corpus -------------------------------------------------------------------------

#: tournament puzzles with a unique solution, taken as a sample (the rest are ambiguous)
TOURNAMENT_SAMPLE = 3


def _unique_corpus_keys() -> list[str]:
    if not (CORPUS / "verdicts.json").is_file():
        return []
    verdicts = json.loads((CORPUS / "verdicts.json").read_text())
    unique = [k for k, v in verdicts.items() if v.get("solutions") == 1]
    ordinary = [k for k in unique if not k.startswith("tournaments/")]
    tournament = [k for k in unique if k.startswith("tournaments/")][:TOURNAMENT_SAMPLE]
    return sorted(ordinary) + tournament


@pytest.mark.slow
@pytest.mark.parametrize("key", _unique_corpus_keys() or ["<no corpus>"])
def test_final_grid_is_the_unique_solution(key: str) -> None:
    if key == "<no corpus>":
        pytest.skip(f"the public corpus is not at {CORPUS}")
    path, _, index = key.partition("#")
    puzzle = formats.read(CORPUS / path)[int(index or 1) - 1]
    result = grade(puzzle, budget=Budget(seconds=300))
    assert result.verdict == "unique"
    assert result.solved
    expected = puzzle.solution
    if expected is None:
        proof = solve(puzzle, budget=Budget(seconds=300))
        assert proof.verdict == "unique"
        expected = Grid.from_picture(proof.solutions[0]).to_rows()
    assert result.grid.to_rows() == list(expected)
