"""Rung 5, cell branching: suppose an unknown cell filled, then empty, and propagate.

A supposition that breaks a line decides the cell the other way; cells both suppositions
agree on are decided as well.
"""

from __future__ import annotations

import time
from dataclasses import replace

import numpy as np

from grader.errors import BudgetExceeded, Contradiction
from grader.model import CellArray, Puzzle
from grader.techniques.base import EMPTY, FILLED, UNKNOWN, UNPLACED, GridContext, Step
from grader.techniques.propagation import propagate, settle


def _suppose(puzzle: Puzzle, cells: CellArray, r: int, c: int, state: int,
             settled: bool) -> CellArray | None:
    """The grid after propagating the supposition, or None when it breaks a line.

    From a grid ``settled`` by line logic (the engine hands grid rungs one), line-solving
    outward from the supposed cell (compiled) reaches what settling the whole grid
    would, at a fraction of the cost; any other grid is settled whole.
    """
    if not settled:
        trial = cells.copy()
        trial[r, c] = state
        return settle(puzzle, trial)
    from grader.solver.propagation import follow  # compiled: loaded when first needed

    grid, broke, _, _ = follow(puzzle, cells, r, c, state, puzzle.height * puzzle.width + 1)
    return None if broke else grid


def is_settled(puzzle: Puzzle, cells: CellArray) -> bool:
    """Whether line logic over the whole grid decides nothing more."""
    after = settle(puzzle, cells)
    return after is not None and bool(np.array_equal(after, cells))


def describe(puzzle: Puzzle, cells: CellArray, step: Step) -> Step:
    """The step with the facts its sentence needs that finding it did not compute.

    For a failed supposition: the first line it breaks and how many cells it had decided
    by then (replayed with the reference propagation, once, for the chosen step only).
    """
    if step.technique != "contradiction" or step.cell is None:
        return step
    r, c = step.cell
    trial = cells.copy()
    trial[r, c] = step.facts["supposed"]
    broken = propagate(puzzle, trial, (r,), (c,))
    facts = dict(step.facts, broken_line=broken)
    return replace(step, facts=facts)


def probe(puzzle: Puzzle, cells: CellArray, r: int, c: int, settled: bool = False) -> Step | None:
    """The deduction from branching on cell (r, c), if any (``settled``: see _suppose)."""
    filled = _suppose(puzzle, cells, r, c, FILLED, settled)
    empty = _suppose(puzzle, cells, r, c, EMPTY, settled)
    if filled is None or empty is None:
        return _contradiction(r, c, filled is None, empty is None)
    agree = (filled == empty) & (cells == UNKNOWN) & (filled != UNKNOWN)
    if not agree.any():
        return None
    rows, cols = np.nonzero(agree)
    changes = tuple(
        (int(i), int(j), int(filled[i, j]))
        for i, j in zip(rows.tolist(), cols.tolist(), strict=False)
    )
    return _both_ways(r, c, changes)


def _contradiction(r: int, c: int, filled_broke: bool, empty_broke: bool) -> Step:
    """The step when a supposition broke (one of them did): the cell takes the other value."""
    if filled_broke and empty_broke:
        raise Contradiction(f"cell ({r + 1}, {c + 1}) can be neither filled nor empty")
    keep = EMPTY if filled_broke else FILLED
    supposed = FILLED if keep == EMPTY else EMPTY
    return Step(UNPLACED, "contradiction", ((r, c, keep),), cell=(r, c),
                facts={"supposed": supposed})


def _both_ways(r: int, c: int, changes: tuple[tuple[int, int, int], ...]) -> Step:
    return Step(UNPLACED, "both-ways", changes, cell=(r, c), facts={})


def find(puzzle: Puzzle, cells: CellArray, context: GridContext | None = None) -> list[Step]:
    """Probe every unknown cell both ways (row by row); every productive probe is a Step.

    From a settled grid the probes run compiled, many cells a call (one call from Python
    per supposition cost more than following it on a 99x59 grid)."""
    deadline = context.deadline if context is not None else None
    found: list[Step] = []
    settled = is_settled(puzzle, cells)
    targets = np.flatnonzero(cells == UNKNOWN)
    if settled and targets.size:
        from grader.solver.propagation import branch_many  # compiled: loaded when needed

        width = puzzle.width
        for target, filled_broke, empty_broke, agreed in branch_many(puzzle, cells, targets):
            if deadline is not None and time.monotonic() > deadline:
                raise BudgetExceeded("cell branching ran out of time")
            r, c = divmod(target, width)
            if filled_broke or empty_broke:
                found.append(_contradiction(r, c, bool(filled_broke), bool(empty_broke)))
            elif agreed:
                changes = tuple((v // 4 // width, v // 4 % width, v % 4) for v in agreed)
                found.append(_both_ways(r, c, changes))
        _note_probed(context, cells, found)
        return found
    for target in targets.tolist():
        if deadline is not None and time.monotonic() > deadline:
            raise BudgetExceeded("cell branching ran out of time")
        r, c = divmod(target, puzzle.width)
        step = probe(puzzle, cells, r, c, settled)
        if step is not None:
            found.append(step)
    _note_probed(context, cells, found)
    return found


def _note_probed(context: GridContext | None, cells: CellArray, found: list[Step]) -> None:
    """Tell the context a grid every unknown cell of which was tried, to no avail: the
    complete solver need not probe it again (GridContext.prove)."""
    if context is not None and not found:
        context.probed = cells.copy()
