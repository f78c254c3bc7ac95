"""Grade a puzzle: run the ladder, take the solver's verdict, score the step log."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from grader import scoring
from grader.engine import Engine
from grader.errors import BudgetExceeded, Contradiction
from grader.ladder import Ladder, default_ladder, rung_names
from grader.model import BoolArray, Grid, Puzzle, as_row_strings
from grader.results import Budget, SolveResult, Verdict
from grader.techniques.base import Step

__all__ = ["LEVELS", "RUNGS", "Grade", "grade"]

#: the rungs of the ladder table, cheapest first
RUNGS: tuple[str, ...] = rung_names()

LEVELS: tuple[str, ...] = (
    "easy",
    "medium",
    "hard",
    "fiendish",
    "needs-guessing",
    "ambiguous",
    "contradictory",
)


@dataclass(frozen=True)
class Grade:
    """The grade of one puzzle: everything the grader learned, so nothing is solved twice.

    ``verdict`` comes from the complete solver (or from the ladder, when it finished the
    grid or found two solutions); ``level`` is one of LEVELS, or "undecided" when the
    budget ran out first. ``solved`` tells whether the allowed rungs finished the grid;
    ``solution`` is the unique solution whenever the verdict is ``unique`` (from the
    ladder's grid or the solver's proof). ``budget`` is what the grade was allowed.
    """

    verdict: Verdict
    level: str
    score: float
    stars: int
    rungs: dict[str, int]
    steps: tuple[Step, ...]
    grid: Grid
    time_s: float
    title: str = ""
    size: str = ""
    solved: bool = False
    solution: BoolArray | None = None
    budget: Budget | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "size": self.size,
            "verdict": self.verdict,
            "level": self.level,
            "score": self.score,
            "stars": self.stars,
            "rungs": dict(self.rungs),
            "steps": len(self.steps),
            "solved": self.solved,
            "time_s": round(self.time_s, 4),
            "grid": self.grid.to_rows(),
        }

    def solution_rows(self) -> tuple[str, ...] | None:
        """The solution as row strings of '#' and '.', when the verdict is unique."""
        return None if self.solution is None else as_row_strings(self.solution)


#: Above this many cells the complete solver answers first, with a quarter of the budget:
#: on a 200x200 grid with several solutions the ladder's cell branching alone outlasted the
#: default minute, where the solver needs 0.03-5 s to show two solutions.
SOLVER_FIRST_CELLS = 10_000


def _solver_first(puzzle: Puzzle, budget: Budget) -> SolveResult | None:
    """The solver's verdict before the ladder, for big puzzles only (None: no verdict)."""
    from grader.solver import solve

    if puzzle.width * puzzle.height <= SOLVER_FIRST_CELLS:
        return None
    share = None if budget.seconds is None else budget.seconds / 4
    result = solve(puzzle, budget=Budget(seconds=share, nodes=budget.nodes))
    return None if result.verdict == "undecided" else result


def grade(
    puzzle: Puzzle,
    *,
    max_rung: str | None = None,
    budget: Budget | None = None,
    ladder: Ladder | None = None,
) -> Grade:
    """Grade ``puzzle`` with the ladder (up to ``max_rung``) within ``budget``.

    One pass of the engine: the complete solver runs at most once, when a rung (recursion)
    or the verdict needs it, and its proof is shared through the engine's context.
    """
    ladder = ladder or default_ladder()
    if max_rung is not None:
        ladder.index(max_rung)  # ValueError for an unknown name, before any work
    budget = budget or Budget()
    started = time.perf_counter()
    engine = Engine(puzzle, max_rung=max_rung, budget=budget, ladder=ladder)
    verdict: Verdict | None = None
    outcome: str
    solution: BoolArray | None = None
    # big puzzles: the solver first; its proof then serves recursion and the verdict
    early = _solver_first(puzzle, budget)
    engine.context.proof = early
    try:
        if early is not None and early.verdict in ("multiple", "none"):
            # not worth a ladder run: the level says ambiguous or contradictory
            verdict = early.verdict
            outcome = "multiple" if verdict == "multiple" else "contradiction"
        else:
            outcome = engine.run().outcome
        if outcome == "solved":
            verdict = "unique"
            solution = engine.grid.picture()
        elif outcome == "stuck":  # the allowed rungs stopped short of the grid: the solver
            proof = engine.context.prove(puzzle)
            verdict = proof.verdict
            if verdict == "unique":
                solution = proof.solutions[0]
        elif verdict is None:
            verdict = "multiple"
    except Contradiction:
        outcome, verdict = "contradiction", "none"
    except BudgetExceeded:
        outcome = "budget"
        known = engine.context.proof
        verdict = known.verdict if known is not None else "undecided"
        if verdict == "unique" and known is not None:
            solution = known.solutions[0]

    steps = tuple(engine.steps)
    weights = scoring.default_weights()
    solved = outcome == "solved"
    if verdict == "multiple":
        level = "ambiguous"
    elif verdict == "none":
        level = "contradictory"
    elif verdict == "undecided" or outcome == "budget":
        level = "undecided"
    elif solved:
        level = scoring.ladder_level(steps, weights)
    else:  # unique, but beyond the allowed ladder: at least as hard as the next rung up
        assert max_rung is not None
        above = ladder.rungs[min(ladder.index(max_rung) + 1, len(ladder.rungs) - 1)]
        level = weights.levels[above.name]
    value = scoring.score(level, scoring.work(steps, puzzle.width, puzzle.height, weights))
    return Grade(
        verdict=verdict,
        level=level,
        score=value,
        stars=scoring.stars(value, weights),
        rungs=scoring.rung_counts(steps),
        steps=steps,
        grid=engine.grid,
        time_s=time.perf_counter() - started,
        title=puzzle.title,
        size=puzzle.size,
        solved=solved,
        solution=solution,
        budget=budget,
    )
