"""The technique rungs: regression cases per technique, and properties against the
complete line solve (rungs 1-4) and against every solution (cell branching)."""

from __future__ import annotations

from collections.abc import Callable
from itertools import product
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grader.engine import Engine
from grader.errors import Contradiction
from grader.ladder import default_ladder
from grader.lines import solve_line
from grader.model import EMPTY, FILLED, UNKNOWN, Clue, Puzzle, clue_of
from grader.techniques import cell_branching, line_analysis, short_look_ahead
from grader.techniques.base import LineDeduction
from grader.techniques.ranges import apply_line

#: one regression file per line rung of the ladder table, named after the rung
DATA = Path(__file__).parent / "data" / "techniques"
LINE_RUNGS = [r for r in default_ladder().rungs if r.scope == "line"]
FINDERS: dict[str, Callable[[Clue, list[int]], list[LineDeduction]]] = {
    r.name: r.finder() for r in LINE_RUNGS
}
#: the line rungs below the complete line solve (the last line rung)
PARTIAL = [r.name for r in LINE_RUNGS[:-1]]
CHAR = {"#": FILLED, ".": EMPTY, "?": UNKNOWN}
TEXT = {FILLED: "#", EMPTY: ".", UNKNOWN: "?"}


def _cases() -> list[tuple[str, Clue, str, str]]:
    cases = []
    for name in FINDERS:
        for number, raw in enumerate((DATA / f"{name}.txt").read_text().splitlines(), 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            clue_text, before, after = (part.strip() for part in line.split("|"))
            clue = () if clue_text == "0" else tuple(int(x) for x in clue_text.split())
            cases.append(pytest.param(name, clue, before, after, id=f"{name}:{number}"))
    return cases


def _apply(name: str, clue: Clue, before: str) -> str:
    cells = [CHAR[ch] for ch in before]
    try:
        return "".join(TEXT[s] for s in apply_line(cells, FINDERS[name](clue, cells)))
    except Contradiction:
        return "contradiction"


@pytest.mark.parametrize(("name", "clue", "before", "after"), _cases())
def test_regression_case(name: str, clue: Clue, before: str, after: str) -> None:
    assert _apply(name, clue, before) == after


def test_every_data_file_has_cases_where_the_technique_must_and_must_not_fire() -> None:
    for name in FINDERS:
        cases = [c.values for c in _cases() if c.values[0] == name]
        assert any(before == after for _, _, before, after in cases), name
        assert any(before != after != "contradiction" for _, _, before, after in cases), name


def test_every_data_file_belongs_to_a_line_rung_of_the_ladder() -> None:
    assert sorted(p.stem for p in DATA.glob("*.txt")) == sorted(FINDERS)


# -- properties ------------------------------------------------------------------------


@st.composite
def consistent_lines(draw: st.DrawFn) -> tuple[Clue, list[int]]:
    """A clue from a random picture line, with some of its cells revealed."""
    picture = draw(st.lists(st.booleans(), min_size=1, max_size=14))
    revealed = draw(st.lists(st.booleans(), min_size=len(picture), max_size=len(picture)))
    cells = [
        (FILLED if filled else EMPTY) if shown else UNKNOWN
        for filled, shown in zip(picture, revealed, strict=True)
    ]
    return clue_of(picture), cells


@st.composite
def any_lines(draw: st.DrawFn) -> tuple[Clue, list[int]]:
    """Any clue that fits, with any cell states: often a line that cannot be solved."""
    length = draw(st.integers(1, 12))
    clue = clue_of(draw(st.lists(st.booleans(), min_size=length, max_size=length)))
    cells = draw(
        st.lists(
            st.sampled_from([EMPTY, FILLED, UNKNOWN, UNKNOWN]), min_size=length, max_size=length
        )
    )
    return clue, cells


@settings(max_examples=400, deadline=None)
@given(consistent_lines() | any_lines())
def test_every_line_deduction_is_implied_by_the_complete_line_solve(
    case: tuple[Clue, list[int]],
) -> None:
    clue, cells = case
    complete = solve_line(clue, cells)
    for name, find in FINDERS.items():
        try:
            found = find(clue, cells)
        except Contradiction:
            assert complete is None, f"{name} saw a contradiction that is not there"
            continue
        if complete is None:
            continue  # a weaker rung may miss a contradiction; rung 4 may not
        for deduction in found:
            for position, state in deduction.changes:
                assert cells[position] == UNKNOWN
                assert complete[position] == state, (name, deduction)
    if complete is None:
        with pytest.raises(Contradiction):
            line_analysis.find(clue, cells)


def _ladder_on_line(clue: Clue, cells: list[int]) -> list[int]:
    """Rungs 1-4 on one line, cheapest first, restarting after progress, as the engine does."""
    current = list(cells)
    while True:
        for find in FINDERS.values():
            found = find(clue, current)
            if found:
                current = apply_line(current, found[:1])
                break
        else:
            return current


@settings(max_examples=300, deadline=None)
@given(consistent_lines())
def test_rungs_one_to_four_together_reach_exactly_the_complete_line_solve(
    case: tuple[Clue, list[int]],
) -> None:
    clue, cells = case
    assert _ladder_on_line(clue, cells) == solve_line(clue, cells)


@settings(max_examples=300, deadline=None)
@given(consistent_lines())
def test_rungs_below_line_analysis_never_go_beyond_the_line_solve(
    case: tuple[Clue, list[int]],
) -> None:
    clue, cells = case
    current = list(cells)
    for _ in range(len(cells) + 1):
        found = [d for name in PARTIAL for d in FINDERS[name](clue, current)]
        if not found:
            break
        current = apply_line(current, found)
    complete = solve_line(clue, cells)
    assert complete is not None
    assert all(c in (UNKNOWN, s) for c, s in zip(current, complete, strict=True))


def _all_solutions(puzzle: Puzzle) -> list[np.ndarray]:
    width, height = puzzle.width, puzzle.height
    solutions = []
    for bits in product((False, True), repeat=width * height):
        picture = np.array(bits, dtype=bool).reshape(height, width)
        if all(
            clue_of(row) == clue for row, clue in zip(picture.tolist(), puzzle.rows, strict=True)
        ) and all(
            clue_of(col) == clue
            for col, clue in zip(picture.T.tolist(), puzzle.columns, strict=True)
        ):
            solutions.append(picture)
    return solutions


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(2, 4).flatmap(
        lambda h: st.integers(2, 4).flatmap(
            lambda w: st.lists(
                st.lists(st.booleans(), min_size=w, max_size=w), min_size=h, max_size=h
            )
        )
    )
)
def test_cell_branching_deductions_hold_in_every_solution(picture: list[list[bool]]) -> None:
    puzzle = Puzzle.from_picture(np.array(picture, dtype=bool))
    solutions = _all_solutions(puzzle)
    engine = Engine(puzzle, max_rung="line-analysis")
    engine.run()  # the grid cell branching starts from: line logic exhausted
    steps = cell_branching.find(puzzle, engine.grid.cells)
    steps += short_look_ahead.find(puzzle, engine.grid.cells)
    for step in steps:
        for r, c, state in step.changes:
            assert all(bool(s[r, c]) == (state == FILLED) for s in solutions), step


def test_cell_branching_finds_the_contradiction_of_a_fiendish_puzzle() -> None:
    puzzle = Puzzle.from_picture(
        [".##.#.#", "#...###", "###.###", "...##..", ".#####.", "#####.#", "#..#..#"]
    )
    engine = Engine(puzzle, max_rung="line-analysis")
    assert engine.run().outcome == "stuck"
    steps = cell_branching.find(puzzle, engine.grid.cells)
    assert steps
    solution = puzzle.solution_array()
    assert solution is not None
    for step in steps:
        for r, c, state in step.changes:
            assert bool(solution[r, c]) == (state == FILLED)


#: needs one short look-ahead: cell (row 5, column 1) filled breaks row 7 two rounds on
SHORT = Puzzle.from_picture(
    [".##.#.#", "#...###", "###.###", "...##..", ".#####.", "#####.#", "#..#..#"]
)
#: needs cell branching whose contradictions lie beyond the short look-ahead's reach
DEEP = Puzzle.from_picture(
    ["#...#....", "###....#.", "..###..##", "..#.#.#.#", "#...#.#..", "##...#..#",
     "....###.#", ".#.##.###", "..##....#"]
)


def test_short_look_ahead_must_fire_where_two_rounds_break_a_line() -> None:
    engine = Engine(SHORT, max_rung="line-analysis")
    assert engine.run().outcome == "stuck"
    steps = short_look_ahead.find(SHORT, engine.grid.cells)
    assert [(s.cell, s.changes) for s in steps][:1] == [((4, 0), ((4, 0, EMPTY),))]
    first = steps[0]
    assert first.facts["supposed"] == FILLED
    assert first.facts["rounds"] == 2
    assert first.facts["broken_line"].label == "Row 7"
    # the break is real: the supposition leaves row 7 with no arrangement
    broken = short_look_ahead.follow(SHORT, engine.grid.cells, 4, 0, FILLED)
    assert broken is not None and broken.line == first.facts["broken_line"]
    assert short_look_ahead.follow(SHORT, engine.grid.cells, 4, 0, FILLED, rounds=1) is None


def test_short_look_ahead_must_not_fire_where_only_deep_branching_decides() -> None:
    engine = Engine(DEEP, max_rung="short-look-ahead")
    assert engine.run().outcome == "stuck"
    cells = engine.grid.cells
    assert not short_look_ahead.find(DEEP, cells)
    assert cell_branching.find(DEEP, cells), "cell branching proper still decides cells here"
    # every contradiction cell branching finds here is more than the short reach away
    for step in cell_branching.find(DEEP, cells):
        if step.technique == "contradiction":
            r, c = step.cell or (0, 0)
            deep = short_look_ahead.follow(DEEP, cells, r, c, step.facts["supposed"], rounds=50)
            assert deep is not None and deep.round > short_look_ahead.ROUNDS


@pytest.mark.parametrize("puzzle", [SHORT, DEEP], ids=["short", "deep"])
def test_grid_rungs_probing_many_cells_a_call_find_what_probing_each_finds(
    puzzle: Puzzle, monkeypatch: pytest.MonkeyPatch,
) -> None:
    from grader.solver import propagation

    engine = Engine(puzzle, max_rung="line-analysis")
    assert engine.run().outcome == "stuck"
    cells = engine.grid.cells
    unknown = [(int(r), int(c)) for r, c in zip(*np.nonzero(cells == UNKNOWN), strict=True)]
    one_by_one = {
        short_look_ahead: [short_look_ahead.probe(puzzle, cells, r, c) for r, c in unknown],
        cell_branching: [cell_branching.probe(puzzle, cells, r, c, True) for r, c in unknown],
    }
    # room for one grid's pairs a call: cell branching's calls stop and resume
    monkeypatch.setattr(propagation, "BRANCH_ROOM", 1)
    monkeypatch.setattr(short_look_ahead, "CHUNK", 3)
    for rung, probed in one_by_one.items():
        expected = [step for step in probed if step is not None]
        assert rung.find(puzzle, cells) == expected
        assert expected or rung is short_look_ahead
    if puzzle is DEEP:  # the agreed cells are compared too
        assert any(s.technique == "both-ways" for s in cell_branching.find(puzzle, cells))


def test_short_look_ahead_is_explained_with_its_reach() -> None:
    from grader.explain import sentence
    from grader.grading import grade

    result = grade(SHORT)
    assert result.level == "hard"
    [step] = [s for s in result.steps if s.rung == "short-look-ahead"]
    assert sentence(step, SHORT) == (
        "Cell (row 5, column 1): supposing it filled, line logic on its row and column, "
        "then the lines they change leaves no arrangement for row 7 after deciding 7 cells; "
        "so it is empty"
    )


def _follow_reference(puzzle: Puzzle, cells: np.ndarray, r: int, c: int, state: int,
                      rounds: int) -> tuple[int, str, int] | None:
    """The short look-ahead's rounds, readably: a first-in first-out queue of lines, a line
    waiting is not queued again, each round the lines queued by the round before."""
    from collections import deque

    from grader.lines import solve_line as reference_solve

    trial = cells.copy()
    trial[r, c] = state
    queue = deque([("row", r), ("column", c)])
    decided = 0
    for number in range(1, rounds + 1):
        if not queue:
            return None
        for _ in range(len(queue)):
            axis, index = queue.popleft()
            view = trial[index] if axis == "row" else trial[:, index]
            clue = (puzzle.rows if axis == "row" else puzzle.columns)[index]
            solved = reference_solve(clue, [int(v) for v in view])
            if solved is None:
                return number, f"{axis} {index}", decided
            for position, (old, new) in enumerate(zip(view.tolist(), solved, strict=True)):
                if old != new:
                    view[position] = new
                    decided += 1
                    cross = ("column" if axis == "row" else "row", position)
                    if cross not in queue:
                        queue.append(cross)
    return None


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(5, 9), st.integers(5, 9), st.integers(0, 2**32 - 1))
def test_short_look_ahead_rounds_match_the_readable_reference(
    height: int, width: int, seed: int
) -> None:
    rng = np.random.default_rng(seed)
    puzzle = Puzzle.from_picture(rng.random((height, width)) < 0.55)
    engine = Engine(puzzle, max_rung="line-analysis")
    engine.run()  # a fixpoint of line logic, as the grid rungs get it
    cells = engine.grid.cells
    for r, c in zip(*np.nonzero(cells == UNKNOWN), strict=True):
        for state in (FILLED, EMPTY):
            for rounds in (short_look_ahead.ROUNDS, 40):
                expected = _follow_reference(puzzle, cells, int(r), int(c), state, rounds)
                got = short_look_ahead.follow(puzzle, cells, int(r), int(c), state, rounds)
                if expected is None:
                    assert got is None
                else:
                    assert got is not None
                    assert (got.round, f"{got.line.axis} {got.line.index}", got.decided) == (
                        expected
                    )


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(5, 9), st.integers(5, 9), st.integers(0, 2**32 - 1))
def test_cell_branching_from_the_cell_equals_settling_the_whole_grid(
    height: int, width: int, seed: int
) -> None:
    rng = np.random.default_rng(seed)
    puzzle = Puzzle.from_picture(rng.random((height, width)) < 0.55)
    engine = Engine(puzzle, max_rung="line-analysis")
    engine.run()
    cells = engine.grid.cells
    assert cell_branching.is_settled(puzzle, cells)
    for r, c in zip(*np.nonzero(cells == UNKNOWN), strict=True):
        try:
            whole = cell_branching.probe(puzzle, cells, int(r), int(c), settled=False)
        except Contradiction:
            with pytest.raises(Contradiction):
                cell_branching.probe(puzzle, cells, int(r), int(c), settled=True)
            continue
        assert cell_branching.probe(puzzle, cells, int(r), int(c), settled=True) == whole


def test_many_follows_remembered_across_changing_grids_equal_fresh_ones() -> None:
    # follow_many remembers each supposition with the lines it solved, and reuses it while
    # none of them changed: over grids that gain and lose known cells (and a change of
    # rounds), its answers equal those of a workspace that never saw an earlier grid
    from grader.model import EMPTY, FILLED, clues_of_picture
    from grader.solver import propagation
    from grader.solver.workspace import Workspace

    rng = np.random.default_rng(5)
    picture = rng.random((14, 40)) < 0.55
    puzzle = Puzzle(*clues_of_picture(picture))
    truth = np.where(picture, FILLED, EMPTY).astype(np.uint8)
    grids = []
    known = np.zeros(picture.shape, dtype=bool)
    for _ in range(8):
        known |= rng.random(picture.shape) < 0.04
        grids.append(np.where(known, truth, UNKNOWN).astype(np.uint8))
    grids += [grids[2], grids[6], grids[6], grids[0]]  # back to fewer known cells, and again
    for number, grid in enumerate(grids):
        rounds = 2 if number in (9, 10) else 3
        targets = np.flatnonzero(grid == UNKNOWN)
        workspace = propagation._workspace(puzzle)
        solves_before = workspace.line_solves
        remembered = propagation.follow_many(puzzle, grid, targets, rounds)
        fresh = Workspace(puzzle).follow_cells(grid, targets, rounds)
        assert np.array_equal(remembered, fresh), number
        if number == 10:  # the same grid and rounds again: nothing is followed anew
            assert workspace.line_solves == solves_before
    assert (grids[0] == UNKNOWN).sum() > 300
