"""Minutes: how long experienced online solvers take over a puzzle, with a range.

The models are fitted to solving times (``bench/calibrate_times.py``): griddlers.net
members' median times, one model for black-and-white puzzles (``minutes`` in
``scoring.yaml``) and one for colour puzzles (``colour_minutes``, which also reads the
colours and how many neighbouring blocks of two colours may touch). No puzzle whose id
ends in 7 was read by either fit (bench/held_out.py). It is a line in log minutes over
features of the puzzle's clues (its size, how much of it is ink, how many blocks its clues
hold and the room they leave), of the step log the ladder wrote (the summed work, the
steps, the sweeps, the hardest step, how often a solver gets stuck, guessing) and of the
solve's shape (grader/solve_shape.py: the picture's pieces, holes and symmetry, the mouse
strokes that paint it, how early the grid fills); a term may also be a feature's square
or the feature times the size. The coefficients are data, in the ``minutes`` blocks of
``grader/scoring.yaml``.

``minutes`` is the predicted median time of such solvers (they solve on a screen, with
a mouse, many puzzles a week). The data hold one median per puzzle, not each solver's
time, so ``minutes_low``..``minutes_high`` is what the data can show: the range that held
half of the measured medians of puzzles given the same prediction (the quartiles of the
fit's residuals). People slower or faster than the site's typical member fall outside it.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from importlib import resources
from typing import Any

import yaml

from grader.scoring import Weights, WorkTerms, default_weights, rating
from grader.solve_shape import SolveShape

#: the rung whose use means the puzzle needs guessing
GUESSING_RUNG = "recursion"


@dataclass(frozen=True)
class ClueFacts:
    """What the time model reads of the clues alone, whatever the ladder did.

    ``filled`` is the number of cells to fill (the sum of the row clues), ``blocks`` the
    number of blocks in all row and column clues (each one a number to read and place),
    ``sweeps`` Batenburg's count of alternating passes of line logic (grader/sweeps.py),
    ``first_sweep`` the share of the cells its first sweep settles. For colour:
    ``colours`` (1 for black and white), ``pairs`` the neighbouring blocks in the clues and
    ``same_pairs`` those of one colour (they need a gap between them, as in black and
    white; blocks of two colours may touch, which leaves more places open); ``ones`` the
    blocks of one cell (single cells are placed at once, without counting).
    ``row_blocks`` counts the blocks of the row clues alone, ``most_blocks`` the blocks of
    the longest clue, ``slack`` is the mean share of a line its blocks leave free (0 when
    every clue fills its line exactly). For colour, ``line_colours`` is the mean number
    of colours a line's clue holds and ``crossings`` the blocks of another colour lying
    between the first and last block of one colour in a clue, summed over the colours and
    lines (a clue of one colour read across the others' runs). ``shape`` is what the solve drew
    (grader/solve_shape.py): known once the puzzle is graded, empty before.
    """

    width: int
    height: int
    filled: int
    blocks: int
    sweeps: int = 0
    first_sweep: float = 0.0
    colours: int = 1
    pairs: int = 0
    same_pairs: int = 0
    ones: int = 0
    row_blocks: int = 0
    most_blocks: int = 0
    slack: float = 0.0
    line_colours: float = 1.0
    crossings: int = 0
    shape: SolveShape = field(default_factory=SolveShape)

    def with_shape(self, shape: SolveShape) -> ClueFacts:
        """These facts with the solve's shape (after grading)."""
        return replace(self, shape=shape)

    @classmethod
    def of_counts(cls, rows: Sequence[Sequence[int]], columns: Sequence[Sequence[int]],
                  sweeps: int = 0, *, first_sweep: float = 0.0) -> ClueFacts:
        """From black-and-white clues given as block lengths (every neighbouring pair of
        blocks is of one colour)."""
        lengths = [[n for n in clue if n > 0] for clue in (*rows, *columns)]
        pairs = sum(max(len(clue) - 1, 0) for clue in lengths)
        free = [_free_share(len(columns), clue, len(clue) - 1) for clue in lengths[:len(rows)]]
        free += [_free_share(len(rows), clue, len(clue) - 1) for clue in lengths[len(rows):]]
        return cls(
            width=len(columns),
            height=len(rows),
            filled=sum(sum(clue) for clue in lengths[:len(rows)]),
            blocks=sum(len(clue) for clue in lengths),
            sweeps=sweeps,
            first_sweep=first_sweep,
            pairs=pairs,
            same_pairs=pairs,
            ones=sum(1 for clue in lengths for n in clue if n == 1),
            row_blocks=sum(len(clue) for clue in lengths[:len(rows)]),
            most_blocks=max((len(clue) for clue in lengths), default=0),
            slack=sum(free) / max(len(free), 1),
        )

    @classmethod
    def of_colour_clues(cls, rows: Sequence[Sequence[tuple[int, int]]],
                        columns: Sequence[Sequence[tuple[int, int]]], colours: int,
                        sweeps: int = 0, *, first_sweep: float = 0.0) -> ClueFacts:
        """From colour clues of (length, colour) blocks."""
        clues = (*rows, *columns)

        def gaps(clue: Sequence[tuple[int, int]]) -> int:
            return sum(1 for a, b in itertools.pairwise(clue) if a[1] == b[1])

        free = [_free_share(len(columns), [n for n, _ in clue], gaps(clue)) for clue in rows]
        free += [_free_share(len(rows), [n for n, _ in clue], gaps(clue)) for clue in columns]
        inked = [clue for clue in clues if clue]
        return cls(
            width=len(columns),
            height=len(rows),
            filled=sum(n for clue in rows for n, _ in clue),
            blocks=sum(len(clue) for clue in clues),
            sweeps=sweeps,
            first_sweep=first_sweep,
            colours=colours,
            pairs=sum(max(len(clue) - 1, 0) for clue in clues),
            same_pairs=sum(gaps(clue) for clue in clues),
            ones=sum(1 for clue in clues for n, _ in clue if n == 1),
            row_blocks=sum(len(clue) for clue in rows),
            most_blocks=max((len(clue) for clue in clues), default=0),
            slack=sum(free) / max(len(free), 1),
            line_colours=sum(len({c for _, c in clue}) for clue in inked) / max(len(inked), 1),
            crossings=sum(_crossings([c for _, c in clue]) for clue in inked),
        )


def _crossings(colours: Sequence[int]) -> int:
    """For each colour of a clue, the blocks of other colours between its first and last
    block: what a solver reads across to place that colour's blocks."""
    total = 0
    for colour in set(colours):
        places = [i for i, c in enumerate(colours) if c == colour]
        total += sum(1 for c in colours[places[0]:places[-1]] if c != colour)
    return total


def _free_share(length: int, blocks: Sequence[int], gaps: int) -> float:
    """The share of a line its blocks and the gaps they need leave free."""
    return max(length - sum(blocks) - max(gaps, 0), 0) / max(length, 1)


Feature = Callable[[WorkTerms, ClueFacts, Weights], float]

#: the rungs of the colour ladder (grader/ladder.yaml's ``kinds`` column), each a feature
COLOUR_RUNGS = ("simple-boxes", "extreme-owners", "line-analysis", "cell-branching")


def _rung_steps(rung: str) -> Feature:
    return lambda t, c, w: math.log1p(t.steps.get(rung, 0.0))


def _techniques() -> tuple[str, ...]:
    """The techniques a step may name: those the ladder's sentences are kept under."""
    from grader.ladder import default_ladder

    ladder = default_ladder()
    return tuple(sorted({*ladder.templates, *ladder.colour_templates}))


def _technique_steps(name: str) -> Feature:
    return lambda t, c, w: math.log1p(c.shape.techniques.get(name, 0))


def _per_hard_step(terms: WorkTerms, value: float) -> float:
    return value / terms.hard_steps if terms.hard_steps else 0.0


def _hardest_weight(terms: WorkTerms, weights: Weights) -> float:
    """Sudoku Explainer's measure: the weight of the hardest rung used (its ladder weight)."""
    return weights.step_weights.get(terms.hardest, 1.0) if terms.hardest else 1.0


#: every feature the model may use, by the name ``scoring.yaml`` gives its coefficient
FEATURES: Mapping[str, Feature] = {
    # the size and the clues
    "cells": lambda t, c, w: math.log(max(c.width * c.height, 1)),
    "filled": lambda t, c, w: math.log1p(c.filled),
    "ink": lambda t, c, w: c.filled / max(c.width * c.height, 1),
    "ink_squared": lambda t, c, w: (c.filled / max(c.width * c.height, 1)) ** 2,
    "blocks": lambda t, c, w: math.log1p(c.blocks),
    "blocks_per_line": lambda t, c, w: math.log(max(c.blocks, 1) / max(c.width + c.height, 1)),
    "aspect": lambda t, c, w: math.log(max(c.width, c.height) / max(min(c.width, c.height), 1)),
    # the step log: the summed work, and what makes a solve stall
    "work": lambda t, c, w: math.log1p(t.work(w)),
    "work_squared": lambda t, c, w: math.log1p(t.work(w)) ** 2,
    "work_per_line": lambda t, c, w: math.log1p(t.work(w) / max(t.width + t.height, 1)),
    "steps": lambda t, c, w: math.log1p(sum(t.steps.values())),
    "score": lambda t, c, w: rating(t, w),
    "sweeps": lambda t, c, w: math.log1p(c.sweeps),
    "chain": lambda t, c, w: math.log1p(t.chain),
    "look_ahead": lambda t, c, w: math.sqrt(
        min(t.look_ahead / max(t.width * t.height, 1), 1.0)),
    "hardest": lambda t, c, w: math.log(max(_hardest_weight(t, w), 1e-6)),
    "hard_steps": lambda t, c, w: math.log1p(t.hard_steps),
    "cells_per_hard_step": lambda t, c, w: math.log1p(_per_hard_step(t, t.look_ahead)),
    "episodes": lambda t, c, w: math.log1p(t.episodes),
    "chained": lambda t, c, w: _per_hard_step(t, t.hard_single),
    "guessing": lambda t, c, w: float(bool(t.steps.get(GUESSING_RUNG))),
    # ranking within a size: the widest point of the search, what the first sweep leaves
    "widest": lambda t, c, w: t.widest,
    "first_sweep": lambda t, c, w: c.first_sweep,
    "left_by_first_sweep": lambda t, c, w: math.log1p(
        (1.0 - c.first_sweep) * c.width * c.height),
    "hardest_chain": lambda t, c, w: math.log(max(_hardest_weight(t, w), 1e-6))
    * math.log1p(t.chain),
    # colour: how many colours, and how many neighbouring blocks may touch
    "colours": lambda t, c, w: math.log(max(c.colours, 1)),
    "touching_pairs": lambda t, c, w: (c.pairs - c.same_pairs) / max(c.pairs, 1),
    "same_pairs": lambda t, c, w: math.log1p(c.same_pairs),
    "colour_changes": lambda t, c, w: math.log1p(c.pairs - c.same_pairs),
    "one_blocks": lambda t, c, w: c.ones / max(c.blocks, 1),
    "line_colours": lambda t, c, w: math.log(max(c.line_colours, 1.0)),
    "crossings": lambda t, c, w: math.log1p(c.crossings / max(c.width + c.height, 1)),
    "touching_cells": lambda t, c, w: c.shape.touching,
    # the colour rungs: how many steps of each rung the colour ladder took
    **{f"steps_{rung.replace('-', '_')}": _rung_steps(rung) for rung in COLOUR_RUNGS},
    # the clues' layout: the blocks of the rows, of the longest clue, the lines' free room
    "row_blocks": lambda t, c, w: math.log1p(c.row_blocks),
    "fewer_runs": lambda t, c, w: math.log1p(min(c.row_blocks, c.blocks - c.row_blocks)),
    "most_blocks": lambda t, c, w: math.log1p(c.most_blocks),
    "slack": lambda t, c, w: c.slack,
    # the picture the solve ends on (grader/solve_shape.py)
    "symmetry": lambda t, c, w: c.shape.symmetry,
    "pieces": lambda t, c, w: math.log1p(c.shape.pieces),
    "holes": lambda t, c, w: math.log1p(c.shape.holes),
    "edges": lambda t, c, w: c.shape.edges,
    "checker": lambda t, c, w: c.shape.checker,
    # the hand: strokes of the mouse, changes of colour
    "strokes": lambda t, c, w: math.log1p(c.shape.fill_strokes + c.shape.empty_strokes),
    "fill_strokes": lambda t, c, w: math.log1p(c.shape.fill_strokes),
    "empty_strokes": lambda t, c, w: math.log1p(c.shape.empty_strokes),
    "colour_picks": lambda t, c, w: math.log1p(c.shape.colour_picks),
    # the order: how early the grid fills, how many places were open, single cells
    "settled_quarter": lambda t, c, w: c.shape.settled_quarter,
    "settled_half": lambda t, c, w: c.shape.settled_half,
    "settled_mean": lambda t, c, w: c.shape.settled_mean,
    "openings": lambda t, c, w: math.log(max(c.shape.mean_openings, 1.0)),
    "one_cell_steps": lambda t, c, w: math.log1p(c.shape.one_cell_steps),
    "one_cell_share": lambda t, c, w: c.shape.one_cell_steps / max(c.shape.steps, 1),
    # how many steps of each technique (the names the ladder's sentences are kept under)
    **{f"technique_{name.replace('-', '_')}": _technique_steps(name) for name in _techniques()},
}

#: a term of the model: a feature, its square (``name^2``) or the feature times the size
#: (``name*size``: ln(cells / 400), 0 at 20x20), so a feature may weigh more on big grids
TERM = re.compile(r"^(?P<name>[a-z_0-9]+)(?P<how>\^2|\*size)?$")


def term_names(names: Sequence[str] = tuple(FEATURES)) -> tuple[str, ...]:
    """Every term the fit may choose: each feature, its square and its product with the
    size (the size's own square and product left out)."""
    size_like = {"cells"}
    return (*names, *(f"{n}^2" for n in names),
            *(f"{n}*size" for n in names if n not in size_like))


def term_value(term: str, terms: WorkTerms, clues: ClueFacts, weights: Weights) -> float:
    """The value of one term (see :data:`TERM`)."""
    match = TERM.match(term)
    if match is None or match["name"] not in FEATURES:
        raise KeyError(term)
    value = FEATURES[match["name"]](terms, clues, weights)
    if match["how"] == "^2":
        return value * value
    if match["how"] == "*size":
        return value * (math.log(max(clues.width * clues.height, 1)) - _SIZE_CENTRE)
    return value


_SIZE_CENTRE = math.log(400.0)


@dataclass(frozen=True)
class Minutes:
    """Predicted minutes and the range around them (see the module's note)."""

    minutes: float
    low: float
    high: float


@dataclass(frozen=True)
class TimeModel:
    """ln(minutes) = intercept + sum of coefficient * feature; the range multiplies the
    prediction by exp(low) and exp(high), the quartiles of the log residuals."""

    intercept: float
    coefficients: Mapping[str, float]
    low: float
    high: float

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> TimeModel:
        """The ``minutes`` block of ``scoring.yaml``."""
        missing = [key for key in ("intercept", "terms", "range") if key not in data]
        if missing:
            raise ValueError(f"scoring.yaml's minutes lacks {', '.join(missing)}")
        terms = data["terms"] or {}
        unknown = sorted(term for term in terms
                         if (match := TERM.match(term)) is None or match["name"] not in FEATURES)
        if unknown:
            raise ValueError(f"scoring.yaml's minutes has unknown terms: {', '.join(unknown)}; "
                             f"known: {', '.join(FEATURES)}, each also as name^2 or name*size")
        low, high = (float(v) for v in data["range"])
        if not low <= 0.0 <= high:
            raise ValueError("scoring.yaml's minutes range must be [low <= 0, high >= 0]")
        return cls(float(data["intercept"]), {k: float(v) for k, v in terms.items()}, low, high)

    def log_minutes(self, terms: WorkTerms, clues: ClueFacts, weights: Weights) -> float:
        return self.intercept + sum(
            coefficient * term_value(name, terms, clues, weights)
            for name, coefficient in self.coefficients.items()
        )

    def estimate(self, terms: WorkTerms, clues: ClueFacts, weights: Weights | None = None
                 ) -> Minutes:
        """Minutes, rounded for people (a tenth under ten minutes, whole minutes above)."""
        centre = self.log_minutes(terms, clues, weights or default_weights())
        centre = min(max(centre, -5.0), 12.0)  # 0.4 s .. 113 days: no overflow, no zero
        return Minutes(*(_round(math.exp(centre + shift))
                         for shift in (0.0, self.low, self.high)))


def _round(minutes: float) -> float:
    return max(round(minutes, 1), 0.1) if minutes < 10 else float(round(minutes))


#: the block of ``scoring.yaml`` holding each kind's time model
MODEL_BLOCKS = {"black-and-white": "minutes", "colour": "colour_minutes"}


@lru_cache(maxsize=2)
def default_model(kind: str = "black-and-white") -> TimeModel:
    """The time model of a kind of puzzle (``black-and-white`` or ``colour``): each is
    fitted to its own solving times, with the same meaning of the range."""
    text = resources.files("grader").joinpath("scoring.yaml").read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    block = MODEL_BLOCKS[kind]
    if block not in data:
        raise ValueError(f"scoring.yaml lacks {block}")
    return TimeModel.from_mapping(data[block])


def model_kind(clues: ClueFacts) -> str:
    """Which time model a puzzle's minutes come from: colour for two colours or more."""
    return "colour" if clues.colours > 1 else "black-and-white"


def estimate(terms: WorkTerms, clues: ClueFacts, weights: Weights | None = None) -> Minutes:
    """The minutes of a graded puzzle by its kind's model in ``scoring.yaml``."""
    return default_model(model_kind(clues)).estimate(terms, clues, weights)


def whole(minutes: float) -> str:
    """Minutes as people say them: whole minutes, tenths under one minute."""
    from grader.i18n import current

    return current().number(minutes, 1 if minutes < 0.95 else 0)


def span_text(minutes: float, low: float, high: float) -> str:
    """``12 (8-17)``: the minutes and their range, for tables."""
    return f"{whole(minutes)} ({whole(low)}-{whole(high)})"


def about_text(minutes: float, size: str = "") -> str:
    """``about 12 min``: what a printed issue says under a puzzle (never under a minute);
    with ``size``, ``about 12 min for 15x15``: minutes are the work, which grows with the
    size, so a face that shows them shows the size beside them."""
    from grader.i18n import _

    whole = max(round(minutes), 1)
    if size:
        return _("about {minutes} min for {size}", minutes=whole, size=size)
    return _("about {minutes} min", minutes=whole)
