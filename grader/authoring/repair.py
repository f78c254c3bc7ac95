"""Repair an existing puzzle that has several solutions (or is not proved unique).

With a known solution the repair keeps it as close as possible; without one, the solver
picks a solution and the repair works towards it. Either way the answer is a new puzzle
(new clues from the repaired picture, or printed givens) proved unique.
"""

from __future__ import annotations

from grader.authoring.clock import Progress, quiet
from grader.authoring.make import author
from grader.authoring.result import AnyAuthored, BwAuthored
from grader.authoring.target import Target
from grader.authoring.unique import Mode
from grader.errors import PuzzleError
from grader.kinds import AnyPuzzle
from grader.model import Puzzle
from grader.results import Budget
from grader.solver import solve


def repair(puzzle: Puzzle, *, mode: Mode = "flips", target: Target | None = None,
           seconds: float | None = 60.0, seed: int = 0,
           progress: Progress = quiet) -> BwAuthored:
    """A unique version of ``puzzle`` with the fewest changes to its (known or chosen)
    solution; the puzzle's own givens are kept."""
    picture = puzzle.solution_array()
    method = "its known solution"
    if picture is None:
        found = solve(puzzle, limit=2, budget=Budget(seconds=seconds))
        if not found.solutions:
            if found.verdict == "none":
                raise PuzzleError("the puzzle has no solution: there is nothing to repair")
            raise PuzzleError(f"no solution found within the budget ({found.reason})")
        picture = found.solutions[0]
        method = "a solution the solver picked (the puzzle gave none)"
    givens = {(r, c): f for r, c, f in puzzle.givens}
    return author(picture, mode=mode, target=target, seconds=seconds, seed=seed,
                  meta=puzzle.meta, method=f"repaired towards {method}", progress=progress,
                  givens=givens)


def repair_either(puzzle: AnyPuzzle, *, mode: Mode = "flips", target: Target | None = None,
                  seconds: float | None = 60.0, seed: int = 0,
                  progress: Progress = quiet) -> AnyAuthored:
    """:func:`repair` for a puzzle of either kind: a colour one is made unique by changing
    cells, as ``make --colours`` makes it (it has no givens)."""
    from grader.authoring.colour_make import repair_colour
    from grader.kinds import kind_of

    kind = kind_of(puzzle)
    colour = kind.in_colour()
    if colour is not None:
        if mode == "givens":
            raise PuzzleError("givens are printed on black-and-white puzzles; a colour puzzle "
                              "is made unique by changing cells")
        return repair_colour(colour, target=target, seconds=seconds, seed=seed,
                             progress=progress)
    plain = kind.black_and_white()
    assert plain is not None, "a puzzle is black and white or in colour"
    return repair(plain, mode=mode, target=target, seconds=seconds, seed=seed,
                  progress=progress)
