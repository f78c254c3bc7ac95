"""Grade a puzzle: run the ladder, take the solver's verdict, score the step log."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from grader import diagnose, scoring
from grader.engine import Engine, LineBroken
from grader.errors import BudgetExceeded, Contradiction
from grader.model import EMPTY, FILLED, Grid, Puzzle, format_clue
from grader.results import Budget, SolveResult, Verdict
from grader.techniques import recursion
from grader.techniques.base import RUNGS, Step, rung_index

__all__ = ["GRADED_LEVELS", "LEVELS", "RUNGS", "UNGRADED_LEVELS", "Grade", "grade"]

LEVELS: tuple[str, ...] = (
    "easy",
    "medium",
    "hard",
    "fiendish",
    "needs-guessing",
    "ambiguous",
    "contradictory",
)
#: the levels of puzzles that get a score and stars (a difficulty, not a defect)
GRADED_LEVELS: tuple[str, ...] = LEVELS[:5]
#: what a puzzle is called when it gets no score: a defect, a budget that ran out, or a
#: cut-down ladder (--max-rung) that got stuck
UNGRADED_LEVELS: tuple[str, ...] = ("ambiguous", "contradictory", "undecided", "stuck")


@dataclass(frozen=True)
class Grade:
    """The grade of one puzzle.

    ``verdict`` comes from the complete solver (or, without it, from the ladder's own
    search); ``level`` is one of GRADED_LEVELS or UNGRADED_LEVELS. A puzzle with several
    solutions or none, or whose grade the budget or ``max_rung`` cut short, is not a
    difficulty: its ``score`` and ``stars`` are None and ``problem`` says what is wrong.
    ``solved`` tells whether the allowed rungs finished the grid.
    """

    verdict: Verdict
    level: str
    score: float | None
    stars: int | None
    rungs: dict[str, int]
    steps: tuple[Step, ...]
    grid: Grid
    time_s: float
    title: str = ""
    size: str = ""
    solved: bool = False
    problem: str = ""
    #: expected minutes for an average solver (the score is the difficulty: how hard)
    effort_minutes: float = 0.0

    @property
    def graded(self) -> bool:
        """True when the puzzle has a score: one solution, reached within the budget."""
        return self.score is not None

    @property
    def difficulty(self) -> float | None:
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
            "problem": self.problem or None,
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


def _broken_step(broken: LineBroken) -> Step:
    """The last step of a solve that ran into a line no arrangement fits."""
    facts = {"cells": broken.cells}
    return Step(broken.rung, "broken-line", (), line=broken.line, clue=broken.clue, facts=facts)


def _diagnosis_step(puzzle: Puzzle, grid: Grid) -> tuple[Step | None, str]:
    """Why a puzzle the ladder did not break has no solution (a step, when one shows it)."""
    found, message = diagnose.why_no_solution(puzzle, grid.cells)
    facts: dict[str, object]
    if isinstance(found, diagnose.BrokenLine):
        facts = {"cells": found.cells}
        step = Step("line-analysis", "broken-line", (), line=found.line, clue=found.clue,
                    facts=facts)
        return step, message
    if isinstance(found, diagnose.BrokenCell):
        facts = {"if_filled": found.if_filled, "if_empty": found.if_empty}
        return Step("cell-branching", "broken-cell", (), cell=found.cell, facts=facts), message
    return None, message


def _several_text(proof: SolveResult | None, steps: tuple[Step, ...]) -> str:
    if proof is not None and len(proof.solutions) >= 2:
        cells = proof.differing_cells
    else:
        cells = next((list(s.facts.get("differ", ())) for s in steps
                      if s.technique == "several-solutions"), [])
    return f"several solutions: two of them differ in {diagnose.differing_text(cells)}"


def grade(puzzle: Puzzle, *, max_rung: str | None = None, budget: Budget | None = None) -> Grade:
    """Grade ``puzzle`` with the ladder (up to ``max_rung``) within ``budget``."""
    if max_rung is not None:
        rung_index(max_rung)  # ValueError for an unknown name, before any work
    from grader.solver import ensure_compiled

    ensure_compiled()  # compiling the solver is nobody's difficulty: before the clock
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
    proof: SolveResult | None = None
    outcome: str
    problem = ""
    extra: list[Step] = []
    early = _solver_first(puzzle, budget)
    try:
        if early is not None and early.verdict in ("multiple", "none"):
            # not worth a ladder run: the level says ambiguous or contradictory
            verdict, proof = early.verdict, early
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
    except LineBroken as broken:
        outcome, verdict = "contradiction", "none"
        extra.append(_broken_step(broken))
        problem = broken.line.label.lower() + (
            f" (clue {format_clue(broken.clue)}) cannot be satisfied given the cells "
            "decided before it"
        )
    except Contradiction:
        outcome, verdict = "contradiction", "none"
    except BudgetExceeded:
        outcome = "budget"
        verdict = verdict or "undecided"

    if verdict == "none" and not problem:
        step, problem = _diagnosis_step(puzzle, engine.grid)
        extra.extend([step] if step is not None else [])
    steps = (*engine.steps, *extra)
    weights = scoring.default_weights()
    solved = outcome == "solved"
    level: str
    if verdict == "multiple":
        level, problem = "ambiguous", _several_text(proof, steps)
    elif verdict == "none":
        level, problem = "contradictory", f"no solution: {problem}"
    elif verdict == "undecided" or outcome == "budget":
        limit = "" if budget.seconds is None else f" of {budget.seconds:g} s"
        unfinished = (
            "the solver proved one solution" if verdict == "undecided" else "the grade was done"
        )
        level = "undecided"
        problem = f"undecided: the time budget{limit} ran out before {unfinished}"
    elif solved:
        level = scoring.ladder_level(steps, weights)
    else:  # unique, but beyond the allowed ladder
        assert max_rung is not None
        unknown = engine.grid.unknown_count()
        level = "stuck"
        problem = (
            f"stuck: needs more than {max_rung} "
            f"({unknown} cell{'s' * (unknown != 1)} left undecided)"
        )
    terms = scoring.step_terms(steps, puzzle.width, puzzle.height)
    figures = scoring.figures(level, terms, weights)
    # a defect is not a difficulty: no score (the table's 5.0 for unrated levels unused)
    value = figures.difficulty if level in GRADED_LEVELS else None
    return Grade(
        verdict=verdict,
        level=level,
        score=value,
        stars=None if value is None else scoring.stars(value, weights),
        rungs=scoring.rung_counts(steps),
        steps=steps,
        grid=engine.grid,
        time_s=time.perf_counter() - started,
        title=puzzle.title,
        size=puzzle.size,
        solved=solved,
        problem=problem,
        effort_minutes=figures.effort_minutes,
    )
