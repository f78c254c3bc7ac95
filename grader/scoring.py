"""From a step log to a level, a score (the difficulty) and 1-5 stars.

The level is the hardest rung used, named: editors want it. The score does not come from
the level's band but from the work, the way people feel it (fitted to human votes; the
weights are data: each rung's level and step weight are columns of the ladder table,
``ladder.yaml``, the rest of the model is ``scoring.yaml``):

* each step costs its rung's weight, heavier when few deductions of its rung were open
  (one opening at a time is harder than many to choose from); a whole line whose clue
  fits it exactly is nearly free, and counting a small overlap in a long clue costs a
  little more for every block;
* the work per line, the length of the longest chain of dependent steps (a step depends
  on the steps that decided the cells of its line before it), the number of lines and
  the share of the cells that only a look-ahead rung (owner branching and up) decided
  combine, on a log scale, into a rating: a predicted webpbn vote minus one (0-4).

The score a reader sees is banded by level: easy 0-1, medium 1-2, hard 2-3, fiendish 3-4,
needs guessing 4-5, the rating placing a puzzle within its level's band, so a score never
falls as the level rises. The stars are read off the score: how hard the reasoning is.
How long a puzzle takes is another model, fitted to solving times: ``grader/minutes.py``
(it reads the same work terms; its coefficients are the ``minutes`` block of
``scoring.yaml``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

import yaml

from grader.ladder import Ladder, default_ladder
from grader.techniques.base import Step

#: the step category of a line whose clue fits it exactly (or an empty clue): no counting
EXACT_FIT = "exact-fit"
#: rungs whose steps count along the clue (so longer clues cost more)
COUNTING_RUNGS = ("simple-boxes", "extreme-owners")
#: levels that carry no rating of their own: the puzzle is not fit to print as it is
UNRATED_SCORE = 5.0
RATED_LEVELS = frozenset({"easy", "medium", "hard", "fiendish", "needs-guessing"})
MAX_SCORE = 4.999
#: rungs of this family and up try alternatives (look-ahead): the cells they decide are the
#: part of the grid a person cannot fill by reading lines one at a time
LOOK_AHEAD_FAMILY = 3


@dataclass(frozen=True)
class Weights:
    levels: Mapping[str, str]
    step_weights: Mapping[str, float]
    scarcity: float
    counting: float
    intercept: float
    per_line_work: float
    chain: float
    lines: float
    look_ahead: float
    stars: tuple[float, ...]
    #: how far (in rating) the score moves from the bottom to the top of its level's band
    band_spread: float = 0.25

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], ladder: Ladder | None = None) -> Weights:
        """``scoring.yaml``'s model, with each rung's level and step weight from ``ladder``."""
        ladder = ladder or default_ladder()
        missing = [key for key in ("exact_fit", "scarcity", "counting", "score", "stars")
                   if key not in data]
        if missing:
            raise ValueError(f"scoring.yaml lacks {', '.join(missing)}")
        levels = {r.name: r.level for r in ladder.rungs}
        unrated = sorted(set(levels.values()) - RATED_LEVELS)
        if unrated:
            raise ValueError(f"the ladder's levels have no rating: {', '.join(unrated)}")
        weights = {r.name: r.weight for r in ladder.rungs}
        weights[EXACT_FIT] = float(data["exact_fit"])
        if min(weights.values()) < 0:
            raise ValueError("step weights must not be negative")
        stars = tuple(float(v) for v in data["stars"])
        if len(stars) != 4 or list(stars) != sorted(stars):
            raise ValueError("stars must be four increasing thresholds")
        model = data["score"]
        return cls(
            levels=levels,
            step_weights=weights,
            scarcity=float(data["scarcity"]),
            counting=float(data["counting"]),
            intercept=float(model["intercept"]),
            per_line_work=float(model["per_line_work"]),
            chain=float(model["chain"]),
            lines=float(model["lines"]),
            # a term added later: a table without it gives it no weight
            look_ahead=float(model.get("look_ahead", 0.0)),
            stars=stars,
            band_spread=float(data.get("band_spread", 0.25)),
        )


@lru_cache(maxsize=1)
def default_weights() -> Weights:
    text = resources.files("grader").joinpath("scoring.yaml").read_text(encoding="utf-8")
    return Weights.from_mapping(yaml.safe_load(text))


def rung_counts(steps: Iterable[Step]) -> dict[str, int]:
    """Rung name -> number of steps, in ladder order, rungs not used left out."""
    counts = dict.fromkeys(default_ladder().names, 0)
    for step in steps:
        counts[step.rung] += 1
    return {rung: n for rung, n in counts.items() if n}


def hardest_rung(steps: Iterable[Step]) -> str | None:
    used = {step.rung for step in steps}
    return max(used, key=default_ladder().index) if used else None


def ladder_level(steps: Iterable[Step], weights: Weights | None = None) -> str:
    """The level named after the hardest rung used ("easy" for a puzzle with no steps)."""
    weights = weights or default_weights()
    rung = hardest_rung(steps)
    return weights.levels[rung] if rung else "easy"


# -- the work of a step log ---------------------------------------------------------------------
def compact_step(step: Step) -> list[Any]:
    """A step as plain JSON data: [rung, technique, openings, axis, line, clue, cells].

    Axis is "row", "column" or "" (grid steps), clue None when the step names none (colour
    lines), cells a flat list r0, c0, r1, c1, ...
    """
    axis = step.line.axis if step.line is not None else ""
    index = step.line.index if step.line is not None else -1
    cells = [value for row, column, _ in step.changes for value in (row, column)]
    clue = list(step.clue) if step.clue is not None else None
    return [step.rung, step.technique, step.openings, axis, index, clue, cells]


@dataclass(frozen=True)
class WorkTerms:
    """What the score needs from a step log, linear in the step weights.

    ``steps[c]`` counts the steps of category c (a rung, or exact-fit), ``scarce[c]`` sums
    1/openings over them, ``blocks`` the blocks beyond the first of every counting step's
    clue, ``chain`` is the longest chain of lines handing cells on to one another,
    ``look_ahead`` the cells decided by rungs of :data:`LOOK_AHEAD_FAMILY` and up (the
    *hard* steps). For the time model (grader/minutes.py): ``hardest`` names the hardest
    rung used ("" for none), ``hard_steps`` counts the hard steps, ``episodes`` the times
    a person got stuck (a hard step right after an easier one: the runs of hard steps),
    ``hard_single`` the hard steps taken when no other of their rung was open (each
    chained to the one before: no choice of where to look), ``widest`` the share of the
    cells no step had touched yet when the first hard step was needed (the widest point of
    the search: how much of the grid a person must hold open while looking ahead).
    """

    steps: Mapping[str, float]
    scarce: Mapping[str, float]
    blocks: float
    chain: int
    width: int
    height: int
    look_ahead: float = 0.0
    hardest: str = ""
    hard_steps: int = 0
    episodes: int = 0
    hard_single: int = 0
    widest: float = 0.0

    def work(self, weights: Weights) -> float:
        total = weights.counting * self.blocks
        for category, count in self.steps.items():
            scarce = self.scarce.get(category, 0.0)
            total += weights.step_weights[category] * (count + weights.scarcity * scarce)
        return total


def _fits_exactly(clue: Sequence[int], length: int) -> bool:
    blocks = [b for b in clue if b > 0]
    return not blocks or sum(blocks) + len(blocks) - 1 == length


#: where a step's cells are counted in :class:`_Reach` (anything else: a grid step)
_AXIS_KINDS: Mapping[str, int] = {"row": 0, "column": 1}


class _Reach:
    """The chain length that decided the cells of each line, as the highest value among
    the cells decided by rows, by columns and by grid steps (kept as cells are decided:
    a cell is decided once, so the maxima are exact and a step costs its cells, not its
    lines; looking at every cell of the line made a 512x512 grade spend seconds here)."""

    def __init__(self, width: int, height: int) -> None:
        self.rows = [[0, 0, 0] for _ in range(height)]
        self.columns = [[0, 0, 0] for _ in range(width)]

    def step(self, axis: str, index: int, cells: Sequence[Sequence[int]]) -> int:
        """The chain length of one step (a step on a line reaches one further than the
        cells of that line decided across it, and no less than its own axis reached
        there; a grid step leans on the row and the column of its cell). ``cells``:
        (row, column, ...) of each cell the step decided."""
        kind = _AXIS_KINDS.get(axis, 2)
        if kind == 0:
            seen = self.rows[index]
            level = max(1 + max(seen[1], seen[2]), seen[0])
        elif kind == 1:
            seen = self.columns[index]
            level = max(1 + max(seen[0], seen[2]), seen[1])
        elif cells:
            level = 1 + max(max(self.rows[cells[0][0]]), max(self.columns[cells[0][1]]))
        else:
            level = 1
        if not cells:
            return level
        # a line step's cells all lie on its line: that line is raised once, the crossing
        # lines each (the cauldron's 40,000 steps decide 262,144 cells)
        if kind < 2:
            seen[kind] = max(seen[kind], level)
            crossing_lines, at = (self.columns, 1) if kind == 0 else (self.rows, 0)
            for cell in cells:
                crossing = crossing_lines[cell[at]]
                if crossing[kind] < level:
                    crossing[kind] = level
        else:
            for cell in cells:
                row, column = self.rows[cell[0]], self.columns[cell[1]]
                row[kind] = max(row[kind], level)
                column[kind] = max(column[kind], level)
        return level


#: what the work terms read of one step: rung, openings, axis ("" for a grid step), line
#: index, clue (None when the step names none), and (row, column, ...) of each cell decided
TermsRow = tuple[str, int, str, int, Sequence[int] | None, Sequence[Sequence[int]]]


def work_terms(compact: Iterable[Sequence[Any]], width: int, height: int) -> WorkTerms:
    """Work terms of a step log given as :func:`compact_step` lists.

    The chain counts only hand-overs between lines: a step on a line reaches one further
    than the cells of that line decided by steps across it (or by grid steps); a line's
    own earlier steps are part of the same look at it and add nothing.
    """
    return _terms(((rung, openings, axis, index, clue,
                    list(zip(cells[::2], cells[1::2], strict=True)))
                   for rung, _technique, openings, axis, index, clue, cells in compact),
                  width, height)


def _terms(rows: Iterable[TermsRow], width: int, height: int) -> WorkTerms:
    steps: dict[str, float] = {}
    scarce: dict[str, float] = {}
    blocks = 0.0
    look_ahead = 0.0
    ladder = default_ladder()
    looks_ahead = {r.name for r in ladder.rungs if r.family >= LOOK_AHEAD_FAMILY}
    reach = _Reach(width, height)
    chain = 0
    position = {name: i for i, name in enumerate(ladder.names)}
    hardest = -1
    hard_steps = episodes = hard_single = 0
    after_hard = False
    widest = -1.0
    touched = bytearray(width * height)
    touched_count = 0
    # per line of the puzzle (a log is one puzzle's): -1 when its clue fits exactly, else
    # its blocks beyond the first (a 512-cell line's clue has dozens of blocks to count)
    line_counts: dict[tuple[str, int], int] = {}
    for rung, openings, axis, index, clue, cells in rows:
        category = rung
        if axis and clue is not None and rung in COUNTING_RUNGS:
            extra = line_counts.get((axis, index))
            if extra is None:
                length = width if axis == "row" else height
                extra = line_counts[(axis, index)] = (
                    -1 if _fits_exactly(clue, length)
                    else max(len([b for b in clue if b > 0]) - 1, 0))
            if extra < 0:
                category = EXACT_FIT
            else:
                blocks += extra
        steps[category] = steps.get(category, 0.0) + 1.0
        hardest = max(hardest, position[rung])
        if rung in looks_ahead:
            if widest < 0:
                widest = 1.0 - touched_count / max(width * height, 1)
            look_ahead += len(cells)
            hard_steps += 1
            hard_single += int(openings) <= 1
            episodes += not after_hard
        after_hard = rung in looks_ahead
        scarce[category] = scarce.get(category, 0.0) + 1.0 / max(int(openings), 1)
        chain = max(chain, reach.step(axis, index, cells))
        for cell in cells:
            at = cell[0] * width + cell[1]
            if not touched[at]:
                touched[at] = 1
                touched_count += 1
    return WorkTerms(steps, scarce, blocks, chain, width, height, look_ahead,
                     ladder.names[hardest] if hardest >= 0 else "", hard_steps, episodes,
                     hard_single, max(widest, 0.0))


def step_terms(steps: Iterable[Step], width: int, height: int) -> WorkTerms:
    """Work terms of a step log (as :func:`work_terms` of its compact lists)."""
    return _terms(((step.rung, step.openings,
                    step.line.axis if step.line is not None else "",
                    step.line.index if step.line is not None else -1,
                    step.clue, step.changes) for step in steps), width, height)


# -- the figures ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Figures:
    """Difficulty (0-5: the score, banded by level). Minutes: grader/minutes.py."""

    difficulty: float


def rating(terms: WorkTerms, weights: Weights) -> float:
    """The fitted score before rounding and clipping: a predicted vote minus one."""
    lines = terms.width + terms.height
    per_line = terms.work(weights) / lines
    return (
        weights.intercept
        + weights.per_line_work * math.log1p(per_line)
        + weights.chain * math.log1p(terms.chain)
        + weights.lines * math.log(lines)
        + weights.look_ahead * look_ahead_share(terms)
    )


def look_ahead_share(terms: WorkTerms) -> float:
    """Square root of the share of the cells decided by look-ahead rungs (the first few
    such cells matter most: they are where a person gets stuck)."""
    return math.sqrt(min(terms.look_ahead / max(terms.width * terms.height, 1), 1.0))


def fitted(terms: WorkTerms, weights: Weights | None = None) -> float:
    """The fitted rating clipped to 0-5: what the stars' thresholds and the calibration
    read (the score a page shows is :func:`banded` from it)."""
    weights = weights or default_weights()
    return round(min(max(rating(terms, weights), 0.0), MAX_SCORE), 3)


#: the levels on the score's scale, easiest first: level i owns the scores [i, i + 1)
SCORE_BANDS: tuple[str, ...] = ("easy", "medium", "hard", "fiendish", "needs-guessing")


def banded(level: str, value: float, weights: Weights | None = None) -> float:
    """The score a reader sees: the level's band [i, i + 1) (so a harder level always
    scores higher: a 10x10 hard above a 25x25 medium, a puzzle that needs guessing above
    every fiendish one) plus where the fitted rating ``value`` places it within the band,
    a logistic curve whose middle is the rating that earns the level's upper star (so the
    stars read off the score are the fitted stars kept within the level's two)."""
    weights = weights or default_weights()
    band = SCORE_BANDS.index(level)
    middle = weights.stars[LEVEL_STARS[level][1] - 2]
    within = 1.0 / (1.0 + math.exp(-(value - middle) / weights.band_spread))
    return round(band + min(max(within, 0.0), 0.999), 3)


def figures(level: str, terms: WorkTerms, weights: Weights | None = None) -> Figures:
    """The figures of a graded puzzle; levels that are not fit to print get no rating of
    their own (difficulty UNRATED_SCORE)."""
    weights = weights or default_weights()
    if level not in RATED_LEVELS:
        return Figures(UNRATED_SCORE)
    return Figures(banded(level, fitted(terms, weights), weights))


def stars(value: float, weights: Weights | None = None) -> int:
    """The fitted rating's own stars (1-5), before the level bounds them."""
    weights = weights or default_weights()
    return 1 + sum(value >= threshold for threshold in weights.stars)


def level_stars(level: str, value: float, weights: Weights | None = None) -> int:
    """The stars of a grade, on the one scale every face shows and a page prints, read off
    its (banded) score: the level's lower star in the lower half of its band, the upper in
    the upper half (:data:`LEVEL_STARS`); stars rise with the score."""
    low, high = LEVEL_STARS.get(level, (1, 5))
    if level not in SCORE_BANDS:
        return stars(value, weights)
    within = value - SCORE_BANDS.index(level)
    return high if within >= 0.5 else low


#: the stars a level may show in print: one scale, so a hard puzzle never shows fewer stars
#: than a medium one (the score places a puzzle within its level's two)
LEVEL_STARS: dict[str, tuple[int, int]] = {
    "easy": (1, 2), "medium": (2, 3), "hard": (3, 4), "fiendish": (4, 5),
    "needs-guessing": (5, 5),
}


def printed_stars(level: str, stars: int | None) -> int | None:
    """The stars printed for a grade: the grader's stars (from the score alone) kept within
    the level's two, so that level and stars never disagree on a page."""
    if stars is None or level not in LEVEL_STARS:
        return stars
    low, high = LEVEL_STARS[level]
    return min(max(stars, low), high)
