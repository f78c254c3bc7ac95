"""Grade a puzzle: run the ladder, take the solver's verdict, score the step log."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from grader import scoring
from grader.engine import Engine
from grader.errors import BudgetExceeded, Contradiction
from grader.model import EMPTY, FILLED, Grid, Puzzle
from grader.results import Budget, SolveResult, Verdict
from grader.techniques import recursion
from grader.techniques.base import RUNGS, Step, rung_index

__all__ = ["LEVELS", "RUNGS", "Grade", "grade"]

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
    """The grade of one puzzle.

    ``verdict`` comes from the complete solver (or, without it, from the ladder's own
    search); ``level`` is one of LEVELS, or "undecided" when the budget ran out first.
    ``solved`` tells whether the allowed rungs finished the grid.
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
    #: expected minutes for an average solver (the score is the difficulty: how hard)
    effort_minutes: float = 0.0

    @property
    def difficulty(self) -> float:
        return self.score

    def to_json(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "size": self.size,
            "verdict": self.verdict,
            "level": self.level,
            "score": self.score,
            "difficulty": self.difficulty,
            "effort_minutes": self.effort_minutes,
            "stars": self.stars,
            "rungs": dict(self.rungs),
            "steps": len(self.steps),
            "solved": self.solved,
            "time_s": round(self.time_s, 4),
            "grid": self.grid.to_rows(),
        }


def _solver_result(puzzle: Puzzle, deadline: float | None) -> SolveResult | None:
    """What the complete solver proves within the time left (None if it cannot decide)."""
    from grader.solver import solve

    seconds = None if deadline is None else max(deadline - time.monotonic(), 0.001)
    result = solve(puzzle, budget=Budget(seconds=seconds))
    return None if result.verdict == "undecided" else result


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


def _search_verdict(puzzle: Puzzle, grid: Grid, deadline: float | None) -> Verdict:
    """Count solutions below a grid the restricted ladder could not finish."""
    try:
        found = recursion.search(puzzle, grid.cells, limit=2, deadline=deadline)
    except BudgetExceeded:
        return "undecided"
    return ("none", "unique", "multiple")[min(len(found.solutions), 2)]  # type: ignore[return-value]


def grade(puzzle: Puzzle, *, max_rung: str | None = None, budget: Budget | None = None) -> Grade:
    """Grade ``puzzle`` with the ladder (up to ``max_rung``) within ``budget``."""
    if max_rung is not None:
        rung_index(max_rung)  # ValueError for an unknown name, before any work
    budget = budget or Budget()
    started = time.perf_counter()
    deadline = None if budget.seconds is None else time.monotonic() + budget.seconds
    top = rung_index(max_rung) if max_rung is not None else len(RUNGS) - 1
    # Recursion only runs once the solver has ruled out several solutions (its search is
    # far faster at telling an ambiguous puzzle than guessing in Python).
    engine = Engine(
        puzzle, max_rung=RUNGS[min(top, rung_index("cell-branching"))], deadline=deadline
    )
    verdict: Verdict | None = None
    outcome: str
    early = _solver_first(puzzle, budget)
    try:
        if early is not None and early.verdict in ("multiple", "none"):
            # not worth a ladder run: the level says ambiguous or contradictory
            verdict = early.verdict
            outcome = "multiple" if verdict == "multiple" else "contradiction"
        else:
            outcome = engine.run().outcome
        if outcome == "stuck":
            proof = early if early is not None else _solver_result(puzzle, deadline)
            verdict = None if proof is None else proof.verdict
            if verdict in (None, "unique") and top == len(RUNGS) - 1:
                if proof is not None:
                    solution = np.where(proof.solutions[0], FILLED, EMPTY).astype(np.uint8)
                    engine.known_solution = (solution, proof.nodes)
                engine.rungs = RUNGS
                outcome = engine.run().outcome
        if verdict is None:
            if outcome == "solved":
                verdict = "unique"
            elif outcome == "multiple":
                verdict = "multiple"
            else:
                verdict = _search_verdict(puzzle, engine.grid, deadline)
    except Contradiction:
        outcome, verdict = "contradiction", "none"
    except BudgetExceeded:
        outcome = "budget"
        verdict = verdict or "undecided"

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
        level = weights.levels[RUNGS[min(rung_index(max_rung) + 1, len(RUNGS) - 1)]]
    terms = scoring.step_terms(steps, puzzle.width, puzzle.height)
    figures = scoring.figures(level, terms, weights)
    value = figures.difficulty
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
        effort_minutes=figures.effort_minutes,
    )
