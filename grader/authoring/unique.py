"""Make a picture's puzzle unique with the fewest changes: pixel flips or printed givens.

Each round asks the complete solver for two solutions; the cells where they differ (its
witnesses) are where the ambiguity lives. Every candidate move there (flip a pixel, or print
the cell as a given) is ranked by how many cells line logic still leaves open afterwards,
plus, for flips, how much it spoils the look; the best is taken and the solver asked again.
A last pass undoes every move the puzzle stays unique without.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Literal

from grader.authoring.clock import Clock
from grader.authoring.measure import (
    Cell,
    differing,
    line_logic,
    line_unknowns,
    look_penalty,
    neighbourhood,
    puzzle_of,
    total_slack,
)
from grader.model import UNKNOWN, BoolArray, Given, Puzzle
from grader.results import Verdict
from grader.solver import solve

Mode = Literal["flips", "givens"]

#: candidate moves ranked per round (the rest of a large ambiguous region waits)
MAX_CANDIDATES = 48
#: cost of one cell of slack (free cells in a line) against one cell left open
SLACK_WEIGHT = 1.0
#: seconds one uniqueness proof may take before the round falls back on line logic
SOLVE_SECONDS = 3.0


@dataclass
class Edit:
    """A picture being changed: its cells now, the flips and givens made so far."""

    original: BoolArray
    picture: BoolArray
    flips: set[Cell] = field(default_factory=set)
    givens: dict[Cell, bool] = field(default_factory=dict)
    verdict: Verdict = "undecided"
    #: a steering move was refused because it would change more cells than allowed
    capped: bool = False

    @classmethod
    def of(cls, picture: BoolArray, givens: dict[Cell, bool] | None = None) -> Edit:
        return cls(picture.copy(), picture.copy(), givens=dict(givens or {}))

    def given_list(self) -> tuple[Given, ...]:
        return tuple((r, c, f) for (r, c), f in sorted(self.givens.items()))

    def puzzle(self) -> Puzzle:
        return puzzle_of(self.picture, self.given_list())

    def flip(self, cell: Cell) -> None:
        self.picture[cell] = not self.picture[cell]
        self.flips.symmetric_difference_update({cell})
        self.givens.pop(cell, None)

    def give(self, cell: Cell) -> None:
        self.givens[cell] = bool(self.picture[cell])


def _verdict(edit: Edit, clock: Clock) -> tuple[Verdict, list[Cell]]:
    """The solver's verdict and, when it is not unique, the cells where the ambiguity is."""
    puzzle = edit.puzzle()
    result = solve(puzzle, budget=clock.budget(SOLVE_SECONDS))
    if result.verdict == "multiple":
        return "multiple", differing(result.solutions[0], result.solutions[1])
    if result.verdict == "undecided":  # too slow to prove: open cells of line logic instead
        rows, columns = (line_logic(puzzle) == UNKNOWN).nonzero()
        return "undecided", list(zip(rows.tolist(), columns.tolist(), strict=True))
    return result.verdict, []


def _candidates(edit: Edit, witnesses: list[Cell], mode: Mode, rng: random.Random) -> list[Cell]:
    height, width = edit.picture.shape
    if mode == "givens":
        pool = [cell for cell in witnesses if cell not in edit.givens]
    else:
        near = neighbourhood(witnesses, height, width) if len(witnesses) < 40 else set(witnesses)
        pool = [cell for cell in near if cell not in edit.flips and cell not in edit.givens]
    pool.sort()
    rng.shuffle(pool)
    if mode == "flips":  # the least visible first, when there are too many to try
        pool.sort(key=lambda cell: look_penalty(edit.picture, *cell))
    return pool[:MAX_CANDIDATES]


def _cost(edit: Edit, cell: Cell, mode: Mode) -> float:
    cells = edit.picture.size
    if mode == "givens":
        edit.give(cell)
        open_cells = line_unknowns(edit.puzzle())
        del edit.givens[cell]
        return float(open_cells)
    penalty = look_penalty(edit.picture, *cell)
    edit.flip(cell)
    open_cells = line_unknowns(edit.puzzle())
    # where line logic is stuck everywhere (thin line art) open cells barely move: then
    # tighter lines (less slack) are what removes ambiguity, e.g. thickening a line
    slack = total_slack(edit.picture)
    edit.flip(cell)
    return open_cells + penalty * max(2.0, 0.004 * cells) + SLACK_WEIGHT * slack


def make_unique(edit: Edit, mode: Mode, clock: Clock, seed: int = 0, *,
                tidy: bool = True) -> Edit:
    """Move (flip or give) until the solver proves the puzzle unique, then (``tidy``) drop
    every move that is not needed. ``edit.verdict`` tells how it ended (``undecided`` when
    the budget ran out first)."""
    rng = random.Random(seed)
    rounds = 0
    while True:
        verdict, witnesses = _verdict(edit, clock)
        edit.verdict = verdict
        if verdict in ("unique", "none") or clock.out():
            break
        candidates = _candidates(edit, witnesses, mode, rng)
        if not candidates:
            break
        best = min(candidates, key=lambda cell: _cost(edit, cell, mode))
        if mode == "givens":
            edit.give(best)
        else:
            edit.flip(best)
        rounds += 1
        if rounds % 5 == 0:
            clock.say(f"{verdict}: {len(edit.flips)} flips, {len(edit.givens)} givens so far")
    if edit.verdict == "unique" and tidy:
        _drop_unneeded(edit, mode, clock)
    return edit


def _drop_unneeded(edit: Edit, mode: Mode, clock: Clock) -> None:
    """Undo each move the puzzle stays unique without (the most visible flips first)."""
    if mode == "givens":
        for cell in sorted(edit.givens):
            if clock.out():
                return
            value = edit.givens.pop(cell)
            if _verdict(edit, clock)[0] != "unique":
                edit.givens[cell] = value
        return
    order = sorted(edit.flips, key=lambda cell: -look_penalty(edit.original, *cell))
    for cell in order:
        if clock.out():
            return
        edit.flip(cell)
        if _verdict(edit, clock)[0] != "unique":
            edit.flip(cell)
