"""Grade a colour puzzle the way a person solves it, on the same ladder and scoring table
as black and white.

Rungs used (the rows of grader/ladder.yaml whose ``kinds`` column names colour, with the
colour techniques their ``colour`` column lists): simple-boxes (colour absent from a line /
colour at the intersection, overlap per colour with touching blocks of different colours,
reach), extreme-owners (block ranges over the placements that cover every known colour),
line-analysis (the complete line solve), cell-branching (suppose each colour a cell may take, follow
line logic across the grid; a contradiction rules it out), recursion (a guess, taken
from the solver's proven solution). Each sweep finds every deduction of the cheapest rung
that has one, applies them all (``openings`` = how many were found) and starts again at
the bottom. The level, score and stars come from :mod:`grader.scoring`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from grader import minutes, scoring, solve_shape
from grader.colour import techniques
from grader.colour.lines import full_mask, solve_line
from grader.colour.model import ColourClue, ColourPuzzle
from grader.colour.solver import solve_colour, warm_up
from grader.colour.techniques import ColourDeduction
from grader.colour.workspace import ColourWorkspace, MaskArray
from grader.diagnose import differing_text
from grader.errors import BudgetExceeded, Contradiction
from grader.explain import cells_text
from grader.grading import GRADED_LEVELS, SWEEPS_MIN_S, GradeFigures
from grader.i18n import _, ngettext
from grader.ladder import COLOUR, Rung, default_ladder
from grader.results import Budget, Verdict
from grader.sweeps import Sweeps, sweeps_of
from grader.techniques.base import LineRef, Step

LineTechnique = Callable[[ColourClue, list[int]], ColourDeduction | None]

def colour_rungs() -> tuple[Rung, ...]:
    """The rungs that serve colour puzzles, cheapest first (the ladder table says which)."""
    return default_ladder().serving(COLOUR)


def _template(technique: str) -> str:
    return default_ladder().colour_templates[technique]


@dataclass(frozen=True)
class ColourGrade(GradeFigures[MaskArray]):
    """The grade of one colour puzzle (the fields of :class:`GradeFigures`); ``grid``
    holds the bit sets the allowed rungs reached. Its minutes come from the colour time
    model (grader/minutes.py, fitted to griddlers.net members' colour solves)."""

    colours: int = 1
    #: the solution the solver proved unique (colour indices, 0 = background), None
    #: without a unique verdict: what an issue prints, whether or not the ladder finished
    proved: npt.NDArray[np.uint8] | None = None

    def to_json(self) -> dict[str, Any]:
        return {"title": self.title, "size": self.size, "colours": self.colours,
                "verdict": self.verdict, "level": self.level, "score": self.score,
                "stars": self.stars, "problem": self.problem or None,
                "rungs": dict(self.rungs), "steps": len(self.steps),
                "solved": self.solved, "time_s": round(self.time_s, 4),
                "minutes": self.minutes, "minutes_low": self.minutes_low,
                "minutes_high": self.minutes_high}


class _Grader:
    def __init__(self, puzzle: ColourPuzzle, top: int, deadline: float | None):
        self.puzzle = puzzle
        self.k = puzzle.palette.size
        self.top = top
        self.deadline = deadline
        self.grid: MaskArray = np.full((puzzle.height, puzzle.width), full_mask(self.k),
                                       dtype=np.uint32)
        self.steps: list[Step] = []
        self.ws = ColourWorkspace(puzzle)
        self.solution: MaskArray | None = None

    def lines(self) -> list[tuple[LineRef, ColourClue]]:
        rows = [(LineRef("row", i), c) for i, c in enumerate(self.puzzle.rows)]
        cols = [(LineRef("column", i), c) for i, c in enumerate(self.puzzle.columns)]
        return rows + cols

    def cells(self, ref: LineRef) -> list[int]:
        line = self.grid[ref.index] if ref.axis == "row" else self.grid[:, ref.index]
        return [int(v) for v in line]

    def technique(self, name: str) -> LineTechnique:
        if name == "colour-absent":
            return lambda clue, cells: techniques.colour_absent(clue, cells, self.k)
        functions: dict[str, LineTechnique] = {
            "colour-overlap": techniques.colour_overlap,
            "colour-reach": techniques.colour_reach,
            "colour-extreme-owners": techniques.colour_extreme_owners,
            "colour-line-analysis": techniques.colour_line_analysis,
        }
        return functions[name]

    def apply(self, step: Step) -> None:
        self.steps.append(step)
        for row, column, value in step.changes:
            kept = int(self.grid[row, column]) & value
            if kept == 0:
                raise Contradiction(f"row {row + 1}, column {column + 1} can take no value")
            self.grid[row, column] = kept

    def line_sweep(self, rung: str) -> bool:
        """One pass over every line with the rung's cheapest productive technique; each
        deduction is applied as found, so later lines of the pass see it (a cell emptied
        by its row's and then its column's colours is *colour at the intersection*)."""
        start = len(self.steps)
        for name in default_ladder()[rung].colour_techniques:
            technique = self.technique(name)
            for ref, clue in self.lines():
                deduction = technique(clue, self.cells(ref))
                if deduction is None:
                    continue
                changes = tuple((*ref.cell(p), v) for p, v in deduction.changes)
                # the deduction names its sentence (colour-absent: or the empty line...)
                self.apply(Step(rung, deduction.technique, changes, line=ref, facts={
                    **deduction.facts, "clue": clue}))
            if len(self.steps) > start:
                break  # the cheaper technique of the rung first, then start again
        found = len(self.steps) - start
        for i in range(start, len(self.steps)):
            self.steps[i] = _with_openings(self.steps[i], found)
        return found > 0

    def probe_sweep(self) -> bool:
        """One cell, one value ruled out by following line logic across the grid."""
        found: list[Step] = []
        h, w = self.grid.shape
        for cell in range(h * w):
            row, column = divmod(cell, w)
            mask = int(self.grid[row, column])
            if mask & (mask - 1) == 0:
                continue
            self.check_clock()
            for value in range(self.k + 1):
                if not mask >> value & 1:
                    continue
                trial = self.grid.copy()
                trial[row, column] = 1 << value
                self.ws.clear_queue()
                self.ws.enqueue_cell(row, column)
                if self.ws.propagate(trial, everything=False) < 0:
                    found.append(Step("cell-branching", "colour-probe",
                                      ((row, column, mask & ~(1 << value)),),
                                      cell=(row, column), facts={"value": value}))
                    break
            if found:
                break  # one at a time: each makes line logic worth trying again
        for step in found:
            self.apply(step)
        return bool(found)

    def guess(self) -> bool:
        """Take one cell from the proven solution (a person would have to guess it)."""
        if self.solution is None:
            return False
        undecided = np.argwhere((self.grid & (self.grid - 1)) != 0)
        if not len(undecided):
            return False
        row, column = (int(v) for v in undecided[0])
        value = int(self.solution[row, column])
        self.apply(Step("recursion", "colour-guess", ((row, column, value),),
                        cell=(row, column), facts={"value": value.bit_length() - 1}))
        return True

    def grid_sweep(self, names: tuple[str, ...]) -> bool:
        """The rung's grid techniques in order, until one finds something."""
        sweeps: dict[str, Callable[[], bool]] = {"colour-probe": self.probe_sweep,
                                                 "colour-guess": self.guess}
        return any(sweeps[name]() for name in names)

    def check_clock(self) -> None:
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise BudgetExceeded("time budget spent")

    def solved(self) -> bool:
        return not bool(((self.grid & (self.grid - 1)) != 0).any())

    def run(self) -> str:
        while not self.solved():
            self.check_clock()
            progress = False
            for rung in colour_rungs():
                if default_ladder().index(rung.name) > self.top:
                    break
                if not rung.enabled:
                    continue
                progress = (self.line_sweep(rung.name) if rung.scope == "line"
                            else self.grid_sweep(rung.colour_techniques))
                if progress:
                    break
            if not progress:
                return "stuck"
        return "solved"


def _with_openings(step: Step, openings: int) -> Step:
    return Step(step.rung, step.technique, step.changes, line=step.line, clue=None,
                cell=step.cell, facts=step.facts, openings=openings)


def grade_colour(puzzle: ColourPuzzle, *, max_rung: str | None = None,
                 budget: Budget | None = None) -> ColourGrade:
    """Grade ``puzzle`` with the colour ladder (up to ``max_rung``) within ``budget``."""
    ladder = default_ladder()
    top = ladder.index(max_rung) if max_rung is not None else len(ladder.names) - 1
    budget = budget or Budget()
    warm_up()  # compiling the kernels is nobody's difficulty: before the clock
    started = time.perf_counter()
    deadline = None if budget.seconds is None else time.monotonic() + budget.seconds
    proof = solve_colour(puzzle, budget=budget)
    verdict: Verdict = proof.verdict
    grader = _Grader(puzzle, top, deadline)
    outcome = "stuck"
    if verdict == "unique":
        grader.solution = (np.uint32(1) << proof.solutions[0].astype(np.uint32))
        try:
            outcome = grader.run()
        except BudgetExceeded:
            outcome = "budget"
    steps = tuple(grader.steps)
    weights = scoring.default_weights()
    # A defect is not a difficulty (as grader.grading): no score for these.
    problem = ""
    if verdict == "multiple":
        level = "ambiguous"
        problem = ("several solutions: two of them differ in "
                   f"{differing_text(proof.differing_cells)}")
    elif verdict == "none":
        level, problem = "contradictory", "no solution: the clues contradict each other"
    elif verdict == "undecided" or outcome == "budget":
        level = "undecided"
        problem = f"undecided: the time budget of {budget.seconds:g} s ran out" if (
            budget.seconds is not None) else "undecided"
    elif outcome == "solved":
        level = scoring.ladder_level(steps, weights)
    else:  # unique, but beyond the allowed ladder
        level, problem = "stuck", f"stuck: needs more than {max_rung}"
    terms = scoring.step_terms(steps, puzzle.width, puzzle.height)
    figures = scoring.figures(level, terms)
    value = figures.difficulty if level in GRADED_LEVELS else None
    timing = None
    if value is not None:
        passes = colour_sweep_passes(puzzle, deadline=None if deadline is None
                                     else max(deadline, time.monotonic() + SWEEPS_MIN_S))
        clues = minutes.ClueFacts.of_colour_clues(puzzle.rows, puzzle.columns,
                                                  puzzle.palette.size, passes.count,
                                                  first_sweep=passes.first)
        clues = clues.with_shape(solve_shape.shape_of(proof.solutions[0],
                                                      solve_shape.step_rows(steps)))
        timing = minutes.estimate(terms, clues, weights)
    return ColourGrade(
        verdict=verdict, level=level, score=value, problem=problem,
        stars=None if value is None else scoring.level_stars(level, value, weights),
        rungs=scoring.rung_counts(steps), steps=steps, grid=grader.grid,
        time_s=time.perf_counter() - started, title=puzzle.title, size=puzzle.size,
        solved=outcome == "solved", colours=puzzle.palette.size,
        minutes=None if timing is None else timing.minutes,
        minutes_low=None if timing is None else timing.low,
        minutes_high=None if timing is None else timing.high,
        proved=np.asarray(proof.solutions[0], dtype=np.uint8) if verdict == "unique" else None)


def block_lengths(puzzle: ColourPuzzle) -> tuple[list[list[int]], list[list[int]]]:
    """The lengths of the blocks of each row and column clue, colours left out."""
    return ([[n for n, _ in c] for c in puzzle.rows], [[n for n, _ in c] for c in puzzle.columns])


def colour_sweep_passes(puzzle: ColourPuzzle, deadline: float | None = None) -> Sweeps:
    """Passes of the complete colour line solve over all rows, then all columns, ... that
    changed something, and what the first settled (what the minutes read, as
    grader/sweeps.py counts for black and white)."""
    start = np.full((puzzle.height, puzzle.width), full_mask(puzzle.palette.size),
                    dtype=np.uint32)
    return sweeps_of(puzzle.rows, puzzle.columns, solve=solve_line, start=start,
                     deadline=deadline)


def colour_sweeps(puzzle: ColourPuzzle, deadline: float | None = None) -> int:
    """How many passes :func:`colour_sweep_passes` counts."""
    return colour_sweep_passes(puzzle, deadline).count


# -- sentences ----------------------------------------------------------------------------
# Each step's sentence is its technique's template in the ladder table (the ``colour``
# column's ``explain``), filled with the phrases below, as grader/explain.py fills the
# black-and-white ones with its FIELDS.
def clue_words(clue: ColourClue, puzzle: ColourPuzzle) -> str:
    """``2 red, 1 blue``: a clue with its colours named, for sentences."""
    return _(", ").join(f"{n} {puzzle.palette[c].name}" for n, c in clue) or _("0 (empty)")


def _either(names: list[str]) -> str:
    """``red``, ``red or blue``, ``red, blue or green``."""
    if len(names) == 1:
        return names[0]
    return _("{first} or {last}", first=_(", ").join(names[:-1]), last=names[-1])


def _values(mask: int, puzzle: ColourPuzzle) -> str:
    names = [puzzle.palette[v].name for v in range(1, puzzle.palette.size + 1) if mask >> v & 1]
    if mask & 1:
        names.insert(0, _("empty"))
    return _either(names) if names else _("nothing")


def _is_are(count: int) -> str:
    return ngettext("is", "are", count)


def _positions(step: Step) -> list[int]:
    """The changed cells' positions along the step's line."""
    assert step.line is not None
    index = 1 if step.line.axis == "row" else 0
    return [change[index] for change in step.changes]


def _by_value(step: Step, positions: list[int], puzzle: ColourPuzzle) -> str:
    """"cells 4, 8-9 are empty; cell 3 is red or blue": changes grouped by what they leave."""
    groups: dict[int, list[int]] = {}
    for position, (_row, _column, value) in zip(positions, step.changes, strict=True):
        groups.setdefault(value, []).append(position)
    return _("; ").join(ngettext("{cells} is {values}", "{cells} are {values}", len(cells),
                                 cells=cells_text(cells), values=_values(value, puzzle))
                        for value, cells in groups.items())


def _head(step: Step, puzzle: ColourPuzzle) -> str:
    assert step.line is not None
    clue = step.facts.get("clue", ())
    assert isinstance(clue, tuple)
    return _("{line}, clue {clue}: ", line=step.line.label, clue=clue_words(clue, puzzle))


def _absent(step: Step, puzzle: ColourPuzzle) -> str:
    absent = step.facts.get("absent", [])
    assert isinstance(absent, list)
    return _either([puzzle.palette[c].name for c in absent])


def _emptied(step: Step) -> list[int]:
    return [p for p, change in zip(_positions(step), step.changes, strict=True)
            if change[2] == 1]


def _overlaps(step: Step, puzzle: ColourPuzzle) -> str:
    parts = []
    for block in step.facts.get("blocks", []):  # type: ignore[attr-defined]
        first, last = block["cells"]
        parts.append(_("the {length} {colour} overlaps itself in {cells}",
                       length=block["length"], colour=puzzle.palette[block["colour"]].name,
                       cells=cells_text(range(first, last + 1))))
    return _("; ").join(parts)


def _pushed(step: Step, puzzle: ColourPuzzle) -> str:
    """Each block's range and the cells it must cover, then the rest of what the line
    decides."""
    palette = puzzle.palette
    positions = _positions(step)
    parts = []
    covered: set[int] = set()
    for block in step.facts.get("blocks", []):  # type: ignore[attr-defined]
        first, last = block["range"]
        a, b = block["cells"]
        covered.update(range(a, b + 1))
        name = palette[block["colour"]].name
        parts.append(ngettext("the {length} {colour} lies in {range}, so {cells} is {colour}",
                              "the {length} {colour} lies in {range}, so {cells} are {colour}",
                              b - a + 1, length=block["length"], colour=name,
                              range=cells_text(range(first, last + 1)),
                              cells=cells_text(range(a, b + 1))))
    rest = [i for i, p in enumerate(positions) if p not in covered]
    if rest:
        others = Step(step.rung, step.technique, tuple(step.changes[i] for i in rest))
        parts.append(_by_value(others, [positions[i] for i in rest], puzzle))
    return _("; ").join(parts)


def _reaches(step: Step, puzzle: ColourPuzzle) -> str:
    """"no red block reaches cells 1-2; no block at all reaches cell 9, so it is empty"."""
    removed = step.facts.get("removed", {})
    assert isinstance(removed, dict)
    groups: dict[tuple[int, bool], list[int]] = {}
    for position, (_row, _column, value) in zip(_positions(step), step.changes, strict=True):
        groups.setdefault((removed.get(position, 0), value == 1), []).append(position)
    parts = []
    for (mask, empty), cells in groups.items():
        if empty:
            parts.append(ngettext("no block reaches {cells}, so it is empty",
                                  "no block reaches {cells}, so they are empty", len(cells),
                                  cells=cells_text(cells)))
        else:
            parts.append(_("no {values} block reaches {cells}", values=_values(mask, puzzle),
                           cells=cells_text(cells)))
    return _("; ").join(parts)


def _supposed(step: Step, puzzle: ColourPuzzle) -> str:
    value = step.facts.get("value", 0)
    assert isinstance(value, int)
    return _("empty") if value == 0 else puzzle.palette[value].name


def _where(step: Step) -> str:
    assert step.cell is not None
    return _("Row {row}, column {column}", row=step.cell[0] + 1, column=step.cell[1] + 1)


#: The phrases a colour sentence template (the ``colour`` column's ``explain`` in
#: ladder.yaml) may use, each built from a step and its puzzle.
COLOUR_FIELDS: dict[str, Callable[[Step, ColourPuzzle], str]] = {
    # line steps
    "head": _head,
    "cells": lambda s, p: cells_text(_positions(s)),
    "is_are": lambda s, p: _is_are(len(s.changes)),
    "absent": _absent,
    "emptied": lambda s, p: cells_text(_emptied(s)),
    "emptied_is_are": lambda s, p: _is_are(len(_emptied(s))),
    "axis": lambda s, p: s.line.axis if s.line else "",
    "other_axis": lambda s, p: "column" if s.line and s.line.axis == "row" else "row",
    # the colour-at-intersection reason whole (a sentence is never built from "row")
    "crossing": lambda s, p: (
        _("their column allows none of this row's colours") if s.line and s.line.axis == "row"
        else _("their row allows none of this column's colours")),
    "overlaps": _overlaps,
    "pushed": _pushed,
    "reaches": _reaches,
    "decides": lambda s, p: _by_value(s, _positions(s), p),
    # grid steps
    "where": lambda s, p: _where(s),
    "supposed": _supposed,
    "actual": lambda s, p: _values(s.changes[0][2], p),
}


class _Phrases(Mapping[str, str]):
    """A step's phrases, each built only when its template asks for it."""

    def __init__(self, step: Step, puzzle: ColourPuzzle):
        self.step = step
        self.puzzle = puzzle

    def __getitem__(self, name: str) -> str:
        return COLOUR_FIELDS[name](self.step, self.puzzle)

    def __iter__(self) -> Iterator[str]:
        return iter(COLOUR_FIELDS)

    def __len__(self) -> int:
        return len(COLOUR_FIELDS)


def sentence(step: Step, puzzle: ColourPuzzle) -> str:
    """One step as a sentence that names the colours: its technique's template in the
    ladder table, filled with :data:`COLOUR_FIELDS`."""
    return _(_template(step.technique)).format_map(_Phrases(step, puzzle))


def explain_colour(puzzle: ColourPuzzle, result: ColourGrade, heading: str) -> str:
    lines = [heading]
    lines.extend(f"{n:4d}. {sentence(step, puzzle)}" for n, step in
                 enumerate(result.steps, 1))
    return "\n".join(lines)
