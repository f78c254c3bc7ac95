"""Grade a puzzle: run the ladder, take the solver's verdict, score the step log."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import numpy as np

from grader import diagnose, minutes, scoring, solve_shape, sweeps
from grader.engine import Engine, LineBroken
from grader.errors import BudgetExceeded, Contradiction
from grader.ladder import Ladder, default_ladder, rung_names
from grader.model import (
    EMPTY,
    FILLED,
    BoolArray,
    CellArray,
    Grid,
    Puzzle,
    as_row_strings,
    format_clue,
)
from grader.results import Budget, SolveResult, Verdict
from grader.techniques.base import GridContext, SeveralSolutions, Step

__all__ = ["GRADED_LEVELS", "LEVELS", "RUNGS", "UNGRADED_LEVELS", "Grade", "grade"]

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
#: the levels of puzzles that get a score and stars (a difficulty, not a defect)
GRADED_LEVELS: tuple[str, ...] = LEVELS[:5]
#: what a puzzle is called when it gets no score: a defect, a budget that ran out, or a
#: cut-down ladder (--max-rung) that got stuck
UNGRADED_LEVELS: tuple[str, ...] = ("ambiguous", "contradictory", "undecided", "stuck")


#: what a kind's grader leaves in the grid (a Grid, or a colour grid of bit sets)
GridT = TypeVar("GridT")


@dataclass(frozen=True)
class GradeFigures(Generic[GridT]):
    """What a grade says of a puzzle of either kind (black-and-white :class:`Grade`, colour
    ``ColourGrade``): one set of fields, one meaning."""

    verdict: Verdict
    level: str
    score: float | None  # None: a defect or a cut-short grade, not a difficulty
    stars: int | None
    rungs: dict[str, int]
    steps: tuple[Step, ...]
    grid: GridT
    time_s: float
    title: str = ""
    size: str = ""
    solved: bool = False
    problem: str = ""  # what keeps the puzzle from a score, when it has none
    #: predicted minutes for experienced online solvers and the range around them
    #: (grader/minutes.py says what the range means); None without a score
    minutes: float | None = None
    minutes_low: float | None = None
    minutes_high: float | None = None

    @property
    def effort_minutes(self) -> float:
        """The old name of :attr:`minutes` (0.0 without a score), for older callers."""
        return self.minutes or 0.0

    @property
    def graded(self) -> bool:
        """True when the puzzle has a score: one solution, reached within the budget."""
        return self.score is not None


@dataclass(frozen=True)
class Grade(GradeFigures[Grid]):
    """The grade of one puzzle: everything the grader learned, so nothing is solved twice.

    ``verdict`` comes from the complete solver (or from the ladder, when it finished the
    grid or found two solutions); ``level`` is one of GRADED_LEVELS or UNGRADED_LEVELS.
    A puzzle with several solutions or none, or whose grade the budget or ``max_rung`` cut
    short, is not a difficulty: its ``score`` and ``stars`` are None and ``problem`` says
    what is wrong. ``solved`` tells whether the allowed rungs finished the grid;
    ``solution`` is the unique solution whenever the verdict is ``unique`` (from the
    ladder's grid or the solver's proof). ``budget`` is what the grade was allowed.
    """

    solution: BoolArray | None = None
    budget: Budget | None = None

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
            "minutes": self.minutes,
            "minutes_low": self.minutes_low,
            "minutes_high": self.minutes_high,
            "stars": self.stars,
            "problem": self.problem or None,
            "rungs": dict(self.rungs),
            "steps": len(self.steps),
            "solved": self.solved,
            "time_s": round(self.time_s, 4),
            "grid": self.grid.to_rows(),
        }

    def solution_rows(self) -> tuple[str, ...] | None:
        """The solution as row strings of '#' and '.', when the verdict is unique."""
        return None if self.solution is None else as_row_strings(self.solution)


#: Above this many cells (50x50) the complete solver is asked for its verdict, with a
#: quarter of the budget, before the ladder's first grid rung (or once the line rungs have
#: run for a quarter of the budget): on a 200x200 grid with several solutions cell
#: branching alone outlasted the default budget, where the solver needs 0.03-5 s to show
#: two solutions. A puzzle the line rungs finish needs no proof (the 512x512 cauldron's
#: grade: 0.2 s less). Lowered from 10,000 on the 351 corpus and webpbn puzzles of
#: 2,501-10,000 cells (bench/results/grading-2026-11-26b.md, in-process CPU): the 25
#: ambiguous ones took 5.8 s against 15.2 s (Gettys, 99x59: 2.90 s against 4.09 s), the
#: 124 unique ones that need grid rungs 37.9 s against 37.3 s (at most 0.21 s more a
#: puzzle; their steps are the same), all 351 132.3 s against 141.2 s. Magazine sizes
#: are left alone.
SOLVER_FIRST_CELLS = 2_500
#: the time the sweep count (for the minutes) gets even when the grade used its budget up
SWEEPS_MIN_S = 0.5


def _solver_question(
    puzzle: Puzzle, budget: Budget,
) -> Callable[[CellArray, GridContext], None] | None:
    """For a big puzzle, what the engine asks the solver (from the grid so far): its proof
    is kept for recursion and the verdict; several solutions or none end the ladder
    (SeveralSolutions, Contradiction); an undecided search leaves it to go on."""
    if puzzle.width * puzzle.height <= SOLVER_FIRST_CELLS:
        return None

    def ask(cells: CellArray, context: GridContext) -> None:
        from grader.solver import solve

        share = None if budget.seconds is None else budget.seconds / 4
        if share is not None and context.deadline is not None:
            share = max(min(share, context.deadline - time.monotonic()), 0.001)
        result = solve(puzzle, budget=Budget(seconds=share, nodes=budget.nodes), start=cells)
        if result.verdict == "undecided":
            return
        context.proof = result
        if result.verdict == "multiple":
            first, second = (np.where(s, FILLED, EMPTY).astype(np.uint8)
                             for s in result.solutions[:2])
            raise SeveralSolutions((first, second))
        if result.verdict == "none":
            raise Contradiction("no solution: the solver found none")

    return ask


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
    from grader.solver import compile_if_needed

    compile_if_needed()  # compiling the solver is nobody's difficulty: before the clock
    budget = budget or Budget()
    started = time.perf_counter()
    # big puzzles: the solver's verdict before the grid rungs; its proof then serves
    # recursion and the verdict
    engine = Engine(puzzle, max_rung=max_rung, budget=budget, ladder=ladder,
                    ask_solver=_solver_question(puzzle, budget),
                    ask_after=None if budget.seconds is None else budget.seconds / 4)
    verdict: Verdict | None = None
    proof: SolveResult | None = None
    outcome: str
    solution: BoolArray | None = None
    problem = ""
    extra: list[Step] = []
    try:
        outcome = engine.run().outcome
        if outcome == "solved":
            verdict = "unique"
            solution = engine.grid.picture()
        elif outcome == "stuck":  # the allowed rungs stopped short of the grid: the solver
            proof = engine.context.prove(puzzle, engine.grid.cells)
            verdict = proof.verdict
            if verdict == "unique":
                solution = proof.solutions[0]
        elif verdict is None:
            verdict = "multiple"
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
        known = engine.context.proof
        verdict = known.verdict if known is not None else "undecided"
        if verdict == "unique" and known is not None:
            solution = known.solutions[0]

    if verdict == "none" and not problem:
        step, problem = _diagnosis_step(puzzle, engine.grid)
        extra.extend([step] if step is not None else [])
    steps = (*engine.steps, *extra)
    if proof is None:
        proof = engine.context.proof
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
    timing = None
    if value is not None:
        # the sweep count takes a few milliseconds at magazine sizes; past the budget the
        # passes so far are counted (a lower bound)
        left = None if budget.seconds is None else budget.seconds - (time.perf_counter() - started)
        deadline = None if left is None else time.monotonic() + max(left, SWEEPS_MIN_S)
        passes = sweeps.sweeps_of(puzzle.rows, puzzle.columns, deadline=deadline)
        clues = minutes.ClueFacts.of_counts(puzzle.rows, puzzle.columns, passes.count,
                                            first_sweep=passes.first)
        if solution is not None:
            clues = clues.with_shape(solve_shape.shape_of(solution, solve_shape.step_rows(steps)))
        timing = minutes.estimate(terms, clues, weights)
    return Grade(
        verdict=verdict,
        level=level,
        score=value,
        stars=None if value is None else scoring.level_stars(level, value, weights),
        rungs=scoring.rung_counts(steps),
        steps=steps,
        grid=engine.grid,
        time_s=time.perf_counter() - started,
        title=puzzle.title,
        size=puzzle.size,
        solved=solved,
        solution=solution,
        budget=budget,
        problem=problem,
        minutes=None if timing is None else timing.minutes,
        minutes_low=None if timing is None else timing.low,
        minutes_high=None if timing is None else timing.high,
    )
