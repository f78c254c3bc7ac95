"""The complete solver's verdicts against the SAT peer, and its budget behaviour."""

from __future__ import annotations

import random

import numpy as np
import pytest

from grader.model import Puzzle, clues_of_picture
from grader.results import Budget
from grader.solver import solve

pytest.importorskip("pysat", reason="the SAT peer needs python-sat")
from grader.solver.sat_peer import count_solutions

EXPECTED = {0: "none", 1: "unique", 2: "multiple"}


def random_picture(rng: random.Random, height: int, width: int, density: float) -> np.ndarray:
    """Each cell filled with probability ``density``, row by row."""
    return np.array([[rng.random() < density for _ in range(width)] for _ in range(height)])


def random_puzzle(rng: random.Random, max_side: int) -> Puzzle:
    """A random picture's clues; a third get their row clues shuffled (often no solution)."""
    height, width = rng.randint(2, max_side), rng.randint(2, max_side)
    density = rng.uniform(0.2, 0.8)
    picture = random_picture(rng, height, width, density)
    rows, columns = clues_of_picture(picture)
    if rng.random() < 1 / 3:
        shuffled = list(rows)
        rng.shuffle(shuffled)
        rows = tuple(shuffled)
    return Puzzle(rows, columns)


def assert_solutions_valid(puzzle: Puzzle, solutions: tuple[np.ndarray, ...]) -> None:
    """Every reported solution satisfies every clue, checked without the solver."""
    for solution in solutions:
        assert clues_of_picture(solution) == (puzzle.rows, puzzle.columns)
    if len(solutions) == 2:
        assert not np.array_equal(solutions[0], solutions[1])


@pytest.mark.parametrize(
    ("seed", "count", "max_side"),
    [(0, 1500, 8), (1, 1500, 12), (2, 400, 20), (3, 60, 30)],
)
def test_verdicts_agree_with_sat(seed: int, count: int, max_side: int) -> None:
    rng = random.Random(seed)
    seen = {"none": 0, "unique": 0, "multiple": 0}
    for _ in range(count):
        puzzle = random_puzzle(rng, max_side)
        found, _ = count_solutions(puzzle, limit=2)
        result = solve(puzzle, budget=Budget(seconds=60))
        assert result.verdict == EXPECTED[found], (puzzle.rows, puzzle.columns)
        assert result.complete or result.verdict == "multiple"
        assert_solutions_valid(puzzle, result.solutions)
        seen[result.verdict] += 1
    if count >= 400:  # the mix really covers every verdict
        assert min(seen.values()) > count // 50, seen


def test_verdicts_agree_with_sat_with_lines_of_two_words() -> None:
    # rows of 63-100 cells: the conflict search solves them on word pairs
    rng = random.Random(7)
    seen = {"none": 0, "unique": 0, "multiple": 0}
    searched = 0
    for _ in range(30):
        height, width = rng.randint(3, 6), rng.randint(63, 100)
        density = rng.uniform(0.3, 0.7)
        picture = random_picture(rng, height, width, density)
        rows, columns = clues_of_picture(picture)
        if rng.random() < 1 / 4:
            rows = tuple(rng.sample(rows, len(rows)))
        puzzle = Puzzle(rows, columns)
        found, _ = count_solutions(puzzle, limit=2)
        result = solve(puzzle, budget=Budget(seconds=60))
        assert result.verdict == EXPECTED[found], (puzzle.rows, puzzle.columns)
        assert_solutions_valid(puzzle, result.solutions)
        seen[result.verdict] += 1
        searched += result.stats.get("learner_line_solves", 0) > 0
    assert searched >= 10 and min(seen.values()) >= 3, (searched, seen)


def test_the_tie_break_seed_changes_the_path_never_the_verdict(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # bench_solver --tie-break-seeds draws other search paths this way (a hard puzzle's
    # time varies tenfold between seeds): every path must end at the same verdict
    from grader.solver import learning

    rng = random.Random(11)
    searched = moved = 0
    for _ in range(30):
        # tournament-like pictures (17-22 cells a side, 35-50% filled) often need search
        side = rng.randint(17, 22)
        density = rng.uniform(0.35, 0.5)
        puzzle = Puzzle(*clues_of_picture(random_picture(rng, side, side, density)))
        found, _ = count_solutions(puzzle, limit=2)
        conflicts = set()
        for seed in (1, 2, 3):
            monkeypatch.setattr(learning, "TIE_BREAK_SEED", seed)
            result = solve(puzzle, budget=Budget(seconds=60))
            assert result.verdict == EXPECTED[found], (seed, puzzle.rows, puzzle.columns)
            assert_solutions_valid(puzzle, result.solutions)
            conflicts.add(result.stats.get("conflicts", 0))
        searched += max(conflicts) > 0
        moved += len(conflicts) > 1
    assert searched >= 10 and moved >= 5, (searched, moved)


def test_conflict_search_propagates_long_lines_as_line_logic_does() -> None:
    # the conflict search's own propagation (word pairs for 63-125 cells, bit sets
    # below) reaches the fixpoint of the plain line logic, from revealed cells
    from grader.model import EMPTY, FILLED, UNKNOWN
    from grader.solver.learning import ConflictSearch
    from grader.solver.workspace import Workspace

    rng = random.Random(3)
    decided = 0
    for _ in range(40):
        height, width = rng.randint(3, 6), rng.randint(63, 125)
        picture = random_picture(rng, height, width, 0.5)
        puzzle = Puzzle(*clues_of_picture(picture))
        start = np.full((height, width), UNKNOWN, dtype=np.uint8)
        revealed = random_picture(rng, height, width, 0.2)
        start[revealed] = np.where(picture, FILLED, EMPTY)[revealed]
        expected = start.copy()
        Workspace(puzzle).propagate_all(expected)
        ws = Workspace(puzzle)
        search = ConflictSearch(ws, start.copy())
        ws.enqueue_all()
        search.step(1 << 40, decision_limit=0)  # propagation at level 0, no decision
        assert np.array_equal(search.grid, expected), (puzzle.rows, puzzle.columns)
        decided += int((expected != start).sum())
    assert decided > 5_000


def test_enumerates_every_solution_to_the_limit() -> None:
    # one filled cell in every row and column of a 4x4: the 24 permutation matrices
    puzzle = Puzzle(((1,),) * 4, ((1,),) * 4)
    everything = solve(puzzle, limit=100)
    assert everything.verdict == "multiple" and everything.complete
    assert len(everything.solutions) == 24
    assert len({s.tobytes() for s in everything.solutions}) == 24
    assert_solutions_valid(puzzle, everything.solutions[:2])
    some = solve(puzzle, limit=5)
    assert len(some.solutions) == 5 and not some.complete


# A 10x10 with one solution that line logic alone cannot finish (found by a seeded random
# search): probing has to decide the rest.
HARD_UNIQUE = (
    "#####.####", ".##.#....#", ".###.#....", "..#.#....#", "##..##.##.",
    "#.##.###..", ".....##.#.", "####.##.##", "..##...#..", "#...#..##.",
)


def test_probing_decides_what_line_logic_cannot() -> None:
    from grader.solver import propagate

    puzzle = Puzzle.from_picture(HARD_UNIQUE)
    lines_only = propagate(puzzle, np.full((10, 10), 3, dtype=np.uint8))
    assert lines_only is not None and (lines_only == 3).any()
    result = solve(puzzle)
    assert result.verdict == "unique"
    assert [("".join("#" if v else "." for v in row)) for row in result.solutions[0]] == list(
        HARD_UNIQUE
    )


def test_search_from_the_grades_grid_finds_every_solution_once() -> None:
    """``start`` (a grid of cells every solution agrees with: where the ladder stopped,
    below recursion) and ``probed`` (cell branching found nothing on it) change the work,
    never the solutions: all of them, counted to a limit above their number, equal those
    from the blank grid. The probed root skips its probing cycle: less work."""
    from grader.engine import Engine
    from grader.errors import Contradiction

    rng = random.Random(11)
    compared = skipped = 0
    for _ in range(5000):  # (about 200 draws give the 25 puzzles)
        if compared == 25:
            break
        puzzle = random_puzzle(rng, 14)
        engine = Engine(puzzle, max_rung="cell-branching")
        try:
            if engine.run().outcome != "stuck":
                continue
        except Contradiction:  # (a shuffled clue with no solution)
            continue
        grid = engine.grid.cells
        assert engine.context.probed is not None and np.array_equal(engine.context.probed, grid)
        blank = solve(puzzle, limit=200)
        if not blank.complete:
            continue  # more solutions than the limit: nothing to compare in full
        compared += 1
        expected = {s.tobytes() for s in blank.solutions}
        results = {probed: solve(puzzle, limit=200, start=grid.copy(), probed=probed)
                   for probed in (False, True)}
        for result in results.values():
            assert result.verdict == blank.verdict and result.complete
            assert {s.tobytes() for s in result.solutions} == expected
            assert_solutions_valid(puzzle, result.solutions[:2])
        skipped += results[True].stats["line_solves"] < results[False].stats["line_solves"]
    assert compared == 25
    assert skipped == compared  # every probed root skipped a probing cycle


def test_a_wrong_probed_hint_costs_work_never_the_verdict() -> None:
    """``probed`` on a grid line logic still changes (here the blank grid of a puzzle
    probing must finish) is not trusted: the root is probed as usual."""
    puzzle = Puzzle.from_picture(HARD_UNIQUE)
    result = solve(puzzle, start=np.full((10, 10), 3, dtype=np.uint8), probed=True)
    assert result.verdict == "unique"
    assert result.nodes == 1  # probing, not the search, decided it


def test_tiny_budget_is_undecided_never_wrong() -> None:
    # 5 disjoint 2x2 diagonals on the diagonal of a 10x10: 32 solutions, needs branching
    picture = np.zeros((10, 10), dtype=bool)
    for i in range(5):
        picture[2 * i, 2 * i] = picture[2 * i + 1, 2 * i + 1] = True
    puzzle = Puzzle.from_picture(picture)
    assert solve(puzzle, budget=Budget(seconds=None, nodes=1)).verdict == "undecided"
    timed_out = solve(puzzle, budget=Budget(seconds=1e-9))
    assert timed_out.verdict == "undecided" and not timed_out.complete
    assert timed_out.reason == "time budget of 1e-09 s spent"
    assert solve(puzzle).verdict == "multiple"


@pytest.mark.parametrize(
    ("seconds", "said"),
    [(2.99633, "3"), (59.998, "60"), (0.5, "0.5"), (5399.996, "5400"), (120.0, "120")],
)
def test_a_spent_budget_is_said_as_the_user_gave_it(seconds: float, said: str) -> None:
    # check --timeout 3 spends a few milliseconds reading the file: the search gets the rest
    from grader.solver.search import _seconds

    assert _seconds(seconds) == said


def test_hard_puzzle_with_small_budget(corpus_dir: object) -> None:
    from pathlib import Path

    from grader import formats

    path = Path(str(corpus_dir)) / "domino" / "dom-7-Dom.non"
    puzzle = formats.read(path)[0]
    assert solve(puzzle, budget=Budget(seconds=None, nodes=3)).verdict == "undecided"
    assert solve(puzzle, budget=Budget(seconds=0.001)).verdict == "undecided"


def test_sat_peer_counts_independently() -> None:
    from grader.solver.sat_peer import iter_solutions

    # one filled cell in every row and column of a 3x3: the 6 permutation matrices
    puzzle = Puzzle(((1,),) * 3, ((1,),) * 3)
    solutions = list(iter_solutions(puzzle))
    assert len(solutions) == 6
    assert all(s.sum(axis=0).tolist() == [1, 1, 1] for s in solutions)
    assert count_solutions(Puzzle(((1, 1), (1, 1)), ((1,), (2,), (1,))))[0] == 0
