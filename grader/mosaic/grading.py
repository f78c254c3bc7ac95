"""Grade a mosaic: climb the ladder (grader/mosaic/ladder.yaml), log every step, take the
complete solver's verdict where the ladder cannot finish, and score the log on the project's
one star scale.

The engine takes the cheapest rung that decides anything, applies each of its deductions
as one step (``openings``: how many that rung offered), and starts again from the bottom.
The score is the nonogram score model (grader/scoring.py: work per line, the longest chain
of steps handing cells on, the share of cells decided by look-ahead) read with the mosaic
rungs' weights, banded by level with the middles of the ladder's ``score_bands``; the stars
are read off the score, kept within the level's two as everywhere. The minutes are a
range from assumed seconds per step: marked as not fitted until ``calibrate --from-solves
--kind mosaic --write grader/mosaic/minutes.yaml`` has fitted them (grader/mosaic/minutes.py).
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from grader import scoring
from grader.model import EMPTY, FILLED, BoolArray, CellArray, as_row_strings
from grader.mosaic.ladder import MosaicLadder, mosaic_ladder
from grader.mosaic.minutes import time_model
from grader.mosaic.solver import UNSET, solve
from grader.mosaic.techniques import FINDERS, Clues, Contradiction, OutOfTime
from grader.mosaic_model import MosaicPuzzle
from grader.results import Budget, SolveResult, Verdict

#: a cell as (row, column, state), 0-based, state FILLED or EMPTY
CellState = tuple[int, int, int]
MINUTES_NOTE = "not fitted: assumed seconds per step (no timed mosaic solves yet)"


@dataclass(frozen=True)
class MosaicStep:
    """One deduction as applied: ``clues`` (row, column, digit) are the clues it read,
    ``premises`` the cells already decided in their blocks (what must be on the board for
    the step to be seen), ``changes`` the cells it decided."""

    rung: str
    technique: str
    clues: tuple[tuple[int, int, int], ...]
    changes: tuple[CellState, ...]
    premises: tuple[CellState, ...] = ()
    facts: Mapping[str, Any] = field(default_factory=dict, compare=False)
    openings: int = 1

    def to_json(self) -> dict[str, Any]:
        return {"rung": self.rung, "technique": self.technique,
                "clues": [list(c) for c in self.clues],
                "changes": [list(c) for c in self.changes],
                "premises": [list(c) for c in self.premises], "openings": self.openings}


@dataclass(frozen=True)
class MosaicGrade:
    """What grading a mosaic found; the fields of a nonogram grade's JSON, one meaning."""

    verdict: Verdict
    level: str
    score: float | None
    stars: int | None
    rungs: dict[str, int]
    steps: tuple[MosaicStep, ...]
    grid: CellArray
    time_s: float
    cpu_s: float
    solved: bool
    title: str = ""
    size: str = ""
    problem: str = ""
    solution: BoolArray | None = None
    solutions: tuple[BoolArray, ...] = ()
    minutes: float | None = None
    minutes_low: float | None = None
    minutes_high: float | None = None
    minutes_fitted: bool = False
    #: the minutes the ladder's assumed seconds a step give, unrounded (what
    #: ``calibrate --from-solves --kind mosaic`` fits the measured minutes on)
    assumed_minutes: float | None = None

    @property
    def graded(self) -> bool:
        return self.score is not None

    @property
    def effort_minutes(self) -> float:
        """The minutes' central figure (0 without one), as a nonogram grade names it (the
        studio's library lists it)."""
        return self.minutes if self.minutes is not None else 0.0

    @property
    def differing_cells(self) -> list[tuple[int, int]]:
        if len(self.solutions) < 2:
            return []
        rows, cols = np.nonzero(self.solutions[0] != self.solutions[1])
        return list(zip(rows.tolist(), cols.tolist(), strict=True))

    def grid_rows(self) -> list[str]:
        chars = np.array([" ", ".", "#", "?"])
        return ["".join(row) for row in chars[self.grid]]

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "mosaic", "title": self.title, "size": self.size,
            "verdict": self.verdict, "level": self.level, "score": self.score,
            "difficulty": self.score, "stars": self.stars,
            "minutes": self.minutes, "minutes_low": self.minutes_low,
            "minutes_high": self.minutes_high, "minutes_fitted": self.minutes_fitted,
            "minutes_note": (None if self.minutes is None or self.minutes_fitted
                             else MINUTES_NOTE),
            "problem": self.problem or None, "rungs": dict(self.rungs),
            "steps": len(self.steps), "solved": self.solved,
            "time_s": round(self.time_s, 4), "cpu_s": round(self.cpu_s, 4),
            "grid": self.grid_rows(),
            "solutions": [list(as_row_strings(s)) for s in self.solutions],
            "differing_cells": [list(c) for c in self.differing_cells],
        }


class _Engine:
    def __init__(self, puzzle: MosaicPuzzle, ladder: MosaicLadder, max_rung: str | None,
                 budget: Budget):
        self.puzzle = puzzle
        self.view = Clues(puzzle)
        self.rungs = ladder.up_to(max_rung)
        self.budget = budget
        self.began = time.monotonic()
        if budget.seconds is not None:
            self.view.deadline = self.began + budget.seconds
        self.steps: list[MosaicStep] = []
        self.proof: SolveResult | None = None

    def where(self, i: int) -> tuple[int, int]:
        return divmod(i, self.puzzle.width)

    def step(self, rung: str, technique: str, clues: tuple[int, ...], changes: Mapping[int, int],
             facts: Mapping[str, Any], openings: int) -> None:
        self.round(rung, [(technique, clues, changes, facts)], openings)

    def round(self, rung: str,
              found: Sequence[tuple[str, tuple[int, ...], Mapping[int, int], Mapping[str, Any]]],
              openings: int) -> None:
        """Log and apply the deductions of one round in the reading order of the clue grid's
        canonical orientation (by the places of their clues there), not the grid's own: a
        step takes the cells an earlier step of its round left open, and its premises are
        the cells decided before it, so the order decides the log and the score; taken in
        the canonical order, a mosaic turned or mirrored grades the same."""
        view = self.view
        board = view.board
        rank, width = view.rank, self.puzzle.width

        def place(deduction: tuple[str, tuple[int, ...], Mapping[int, int], Mapping[str, Any]]
                  ) -> list[int]:
            return sorted(rank[board.where[k][0] * width + board.where[k][1]]
                          for k in deduction[1])

        for technique, clues, changes, facts in sorted(found, key=place):
            todo = {i: v for i, v in changes.items() if view.value[i] == UNSET}
            if not todo:
                continue
            seen = sorted({i for k in clues for i in board.cells[k] if view.value[i] != UNSET})
            premises = tuple((*self.where(i), FILLED if view.value[i] else EMPTY) for i in seen)
            marks = tuple((*board.where[k], board.need[k]) for k in clues)
            decided = tuple((*self.where(i), FILLED if v else EMPTY)
                            for i, v in sorted(todo.items()))
            self.steps.append(MosaicStep(rung, technique, marks, decided, premises,
                                         {**facts, "clue_ids": list(clues)}, openings))
            for i, v in todo.items():
                view.set(i, v)

    def prove(self) -> SolveResult:
        if self.proof is None:
            seconds = None
            if self.budget.seconds is not None:
                seconds = max(self.budget.seconds - (time.monotonic() - self.began), 0.001)
            self.proof = solve(self.puzzle, 2, Budget(seconds, self.budget.nodes),
                               start=self.grid())
        return self.proof

    def grid(self) -> CellArray:
        return self.view.board.grid()

    def guess(self, rung: str) -> str:
        """The guess rung: '' after a step, else the verdict that ends the grade."""
        proof = self.prove()
        if proof.verdict != "unique":
            return proof.verdict
        solution = proof.solutions[0].ravel()
        board = self.view.board
        open_clues = [k for k, u in enumerate(board.unknown) if u]
        rank = self.view.rank  # ties broken in the canonical orientation's reading order
        if open_clues:
            width = self.puzzle.width
            tightest = min(open_clues, key=lambda k: (
                board.unknown[k], rank[board.where[k][0] * width + board.where[k][1]]))
            cell = min((i for i in board.cells[tightest] if board.value[i] == UNSET),
                       key=rank.__getitem__)
            clues: tuple[int, ...] = (tightest,)
        else:  # a cell no clue sees: only a second solution could leave it open
            cell = min((i for i, v in enumerate(board.value) if v == UNSET),
                       key=rank.__getitem__)
            clues = ()
        self.step(rung, "guess", clues, {cell: int(solution[cell])},
                  {"nodes": proof.nodes}, 1)
        return ""

    def run(self) -> tuple[str, str]:
        """(verdict or '', problem): '' verdict when the grid is complete."""
        try:
            while UNSET in self.view.value:
                if (self.budget.seconds is not None
                        and time.monotonic() - self.began > self.budget.seconds):
                    return "undecided", "the budget ran out before the grade finished"
                for rung in self.rungs:
                    if rung.name == "guess":
                        ended = self.guess(rung.name)
                        if ended:
                            return ended, ""
                        break
                    found = FINDERS[rung.name](self.view)
                    if found:
                        self.round(rung.name, [(d.technique, d.clues, d.changes, d.facts)
                                               for d in found], len(found))
                        break
                else:
                    return "stuck", f"the rungs up to {self.rungs[-1].name} decide no more cells"
        except Contradiction:
            return "none", ""
        except OutOfTime:
            return "undecided", "the budget ran out before the grade finished"
        return "", ""


LEVEL_OF_VERDICT = {"multiple": "ambiguous", "none": "contradictory", "undecided": "undecided",
                    "stuck": "stuck"}


def grade(puzzle: MosaicPuzzle, budget: Budget | None = None, max_rung: str | None = None,
          ladder: MosaicLadder | None = None) -> MosaicGrade:
    """Grade ``puzzle`` with the ladder (cut off above ``max_rung``) within ``budget``."""
    ladder = ladder or mosaic_ladder()
    budget = budget or Budget()
    began, cpu_began = time.monotonic(), time.thread_time()
    engine = _Engine(puzzle, ladder, max_rung, budget)
    ended, problem = engine.run()
    grid = engine.grid()
    steps = tuple(engine.steps)
    counts = {name: 0 for name in ladder.names}
    for s in steps:
        counts[s.rung] += 1
    rungs = {name: n for name, n in counts.items() if n}
    common: dict[str, Any] = {"title": puzzle.title, "size": puzzle.size}
    if ended == "stuck":
        proof = engine.prove()
        verdict: Verdict = proof.verdict if proof.verdict != "solved" else "undecided"
        problem = problem if verdict == "unique" else (problem or verdict)
        return MosaicGrade(verdict, "stuck", None, None, rungs, steps, grid,
                           time.monotonic() - began, time.thread_time() - cpu_began, False,
                           problem=problem, solutions=proof.solutions,
                           solution=proof.solutions[0] if verdict == "unique" else None,
                           **common)
    if ended:
        kept = engine.proof
        verdict = "none" if ended == "none" else ended  # type: ignore[assignment]
        level = LEVEL_OF_VERDICT.get(verdict, "undecided")
        messages = {"multiple": "the clues allow more than one picture",
                    "none": "the clues contradict each other: no picture fits",
                    "undecided": problem or "the budget ran out before a proof"}
        return MosaicGrade(verdict, level, None, None, rungs, steps, grid,
                           time.monotonic() - began, time.thread_time() - cpu_began, False,
                           problem=messages.get(verdict, problem),
                           solutions=kept.solutions if kept is not None else (), **common)
    picture: BoolArray = grid == FILLED
    level = ladder[max(rungs, key=ladder.index)].level if rungs else "easy"
    score, assumed = _figures(puzzle, steps, ladder, level)
    stars = scoring.level_stars(level, score)
    model = time_model()
    minutes, low, high = model.estimate(assumed)
    return MosaicGrade("unique", level, score, stars, rungs, steps, grid,
                       time.monotonic() - began, time.thread_time() - cpu_began, True,
                       solution=picture, solutions=(picture,), minutes=minutes,
                       minutes_low=low, minutes_high=high, minutes_fitted=model.fitted,
                       assumed_minutes=assumed, **common)


def _figures(puzzle: MosaicPuzzle, steps: tuple[MosaicStep, ...], ladder: MosaicLadder,
             level: str) -> tuple[float, float]:
    """(score 0-5, assumed minutes) of a finished log: the rating banded by level, as a
    nonogram's is, with the mosaic ladder's own middles (its rungs' work is rated on a
    lower range than a nonogram's: with the nonogram thresholds every mosaic would sit low
    in its band and show its level's lower star)."""
    value, minutes = work_figures(puzzle, steps, ladder)
    weights = replace(scoring.default_weights(), stars=ladder.bands.thresholds(),
                      band_spread=ladder.bands.spread)
    return scoring.banded(level, value, weights), minutes


def work_figures(puzzle: MosaicPuzzle, steps: Sequence[MosaicStep],
                 ladder: MosaicLadder) -> tuple[float, float]:
    """(rating 0-5, assumed minutes) of a finished log: the nonogram rating model read with
    the mosaic rungs' weights, before the level bands it."""
    weights = scoring.default_weights()
    weights = replace(weights, levels={r.name: r.level for r in ladder.rungs},
                      step_weights={r.name: r.weight for r in ladder.rungs})
    counts: dict[str, float] = {}
    scarce: dict[str, float] = {}
    depth = np.zeros((puzzle.height, puzzle.width), dtype=np.int64)
    chain = 0
    look_ahead = 0.0
    family = {r.name: r.family for r in ladder.rungs}
    seconds = 0.0
    for s in steps:
        counts[s.rung] = counts.get(s.rung, 0.0) + 1.0
        scarce[s.rung] = scarce.get(s.rung, 0.0) + 1.0 / max(s.openings, 1)
        reach = 1 + max((int(depth[r, c]) for r, c, _ in s.premises), default=0)
        for r, c, _ in s.changes:
            depth[r, c] = reach
        chain = max(chain, reach)
        if family[s.rung] >= 5:
            look_ahead += len(s.changes)
        seconds += ladder[s.rung].seconds
    terms = scoring.WorkTerms(counts, scarce, 0.0, chain, puzzle.width, puzzle.height,
                              look_ahead)
    value = scoring.rating(terms, weights)
    if not math.isfinite(value):
        value = 0.0
    rating = round(min(max(value, 0.0), scoring.MAX_SCORE), 3)
    # scanning the grid once for the clues to start from is work too
    seconds += 0.5 * puzzle.clue_count()
    return rating, seconds / 60.0


__all__ = ["MINUTES_NOTE", "MosaicGrade", "MosaicStep", "grade", "work_figures"]
