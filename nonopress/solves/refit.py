"""``nonopress calibrate --from-solves``: the minutes' coefficients refitted on real solves.

The model is the one ``grader/minutes.py`` computes and ``bench/calibrate_times.py`` fits: a
line in log minutes over the terms the current ``scoring.yaml`` names. An audience is
fitted as a shift and a scale of that line (least squares of its solves' log minutes on the
model's: how much slower, how much more the harder puzzles slow it down), which is the same
line with its intercept moved and every coefficient scaled, written back in the same form;
the range is refitted from the residuals. Two numbers, not one per term: a publisher's few
dozen puzzles cannot fit the sixteen to nineteen terms the griddlers.net fits chose, but
they can measure their audience. What it is fitted to is each puzzle's median active
minutes over its clean solves (completed, no reveal, no hint accepted), for puzzles with at least
``min_clean`` of them; the features come from grading the puzzle again, as
stored in the catalogue, with the grader installed.

**Solves are unauthenticated**, so they are counted as ``library solves`` counts them
(``reports.counted``: one a solver, at most ``reports.PER_ADDRESS`` solvers an address) and a
puzzle's measured minutes are the median over addresses (``reports.address_median``), for
puzzles whose clean solves come from at least ``reports.MIN_ADDRESSES`` addresses. A refit
that moves any puzzle's minutes by more than :data:`MAX_CHANGE` (a factor) is shown, never
written without ``--force``; :func:`Refit.largest_change` says by how much it moves them.

**Held out means never seen** (:func:`held_out`, by the rule of ``grader/held_out.py``,
the one place it is written, which the benches' fits ask too): a puzzle whose numeric id
ends in 7 is never fitted. The numeric id is the one its source file
is named by (griddlers.net ``98947_Holly.non``, webpbn ``1234.non``); a puzzle whose file
name does not begin with digits (most of a publisher's own) uses the decimal value of the
SHA-256 of its key instead, which ends in 7 for about one puzzle in ten and never changes.
The report sets the minutes before and after the refit against the held-out puzzles only.

One time model a run (``--kind``): black and white (the ``minutes`` block) by default, or
colour (``colour_minutes``); a puzzle whose minutes come from the other model
(``grader.minutes.model_kind``) is left out, before it is graded.
"""

from __future__ import annotations

import hashlib
import math
import re
import statistics
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import sqlalchemy as sa

from grader.held_out import file_id
from grader.held_out import held_out as is_held_out
from grader.minutes import ClueFacts, TimeModel, model_kind
from grader.scoring import RATED_LEVELS, Weights, WorkTerms
from nonopress.catalogue import schema
from nonopress.catalogue.database import Catalogue
from nonopress.solves.reports import MIN_ADDRESSES, address_median, counted, read_solves

#: the time model refitted unless another is asked for (``grader.minutes.MODEL_BLOCKS``)
REFITTED = "black-and-white"
#: the note that heads each model's block in ``scoring.yaml`` (as bench/calibrate_times.py
#: writes them), so a refit replaces the note with the block
HEADINGS = {"black-and-white": "# Minutes fitted", "colour": "# Colour minutes fitted"}
#: clean solves a puzzle needs before its median is a measurement
MIN_CLEAN = 5
#: puzzles to fit the shift and scale on (three for each of the two, and some to spare)
MIN_PUZZLES = 10
#: the largest factor a refit may move a puzzle's minutes by and be written without --force
MAX_CHANGE = 1.5


def numeric_id(file: str) -> int | None:
    """The id a puzzle's source file is named by (its name's leading digits), if any."""
    return file_id(file) if file else None


def held_out(key: str, file: str = "") -> bool:
    """True for a puzzle no fit may read (see the module's note)."""
    number = numeric_id(file)
    if number is None:
        number = int(hashlib.sha256(key.encode()).hexdigest(), 16)
    return is_held_out(number)


@dataclass(frozen=True)
class Observed:
    """A puzzle with enough clean solves: what was measured and what the model reads."""

    id: int
    key: str
    title: str
    size: str
    measured: float  # median over addresses of the clean solves' active minutes
    clean: int
    held_out: bool
    terms: WorkTerms
    clues: ClueFacts
    addresses: int = 0  # the addresses the median is over


def refitted_clues(puzzle: Any, model: str = REFITTED) -> ClueFacts | None:
    """The clue facts the time model reads, as the puzzle's kind gives them; None for a
    puzzle another model than ``model`` times."""
    from grader.kinds import kind_of

    kind = kind_of(puzzle)
    clues = kind.clue_facts(kind.sweep_passes())
    return clues if model_kind(clues) == model else None


def features(puzzle: Any, seconds: float, clues: ClueFacts | None = None,
             model: str = REFITTED) -> tuple[WorkTerms, ClueFacts] | None:
    """The step log's terms and the clue facts (``refitted_clues``, unless given) of a
    puzzle ``model`` times, graded unique at a rated level; None otherwise."""
    from grader import scoring
    from grader.kinds import kind_of
    from grader.results import Budget

    clues = clues or refitted_clues(puzzle, model)
    if clues is None:
        return None
    kind = kind_of(puzzle)
    grade = kind.grade(None, Budget(seconds=seconds))
    if grade.verdict != "unique" or grade.level not in RATED_LEVELS:
        return None
    terms = scoring.step_terms(grade.steps, puzzle.width, puzzle.height)
    shape = kind.solve_shape(grade)
    return terms, clues if shape is None else clues.with_shape(shape)


def observations(catalogue: Catalogue, since: str | None = None, min_clean: int = MIN_CLEAN,
                 seconds: float = 60.0, model: str = REFITTED
                 ) -> tuple[list[Observed], Counter[str]]:
    """Every puzzle ``model`` times with at least ``min_clean`` clean solves, graded again
    for its features; and a count of the puzzles left out, by why."""
    from grader.kinds import read_puzzles

    clean: dict[str, list[Any]] = defaultdict(list)
    for solve in counted(read_solves(catalogue, since)):
        if solve.clean:
            clean[solve.puzzle_key].append(solve)
    left_out: Counter[str] = Counter()
    medians = {k: address_median(v) for k, v in clean.items()}
    enough = {k: v for k, v in clean.items() if len(v) >= min_clean
              and medians[k][0] is not None}
    few = sum(len(v) < min_clean for v in clean.values())
    left_out[f"fewer than {min_clean} clean solves"] += few
    left_out[f"clean solves from fewer than {MIN_ADDRESSES} addresses"] += \
        len(clean) - len(enough) - few
    p = schema.puzzles
    with catalogue.reading() as connection:
        rows = connection.execute(
            sa.select(p.c.id, p.c.key, p.c.title, p.c.width, p.c.height, p.c.kind,
                      p.c.file, p.c.puzzle).where(p.c.key.in_(list(enough)))
            .order_by(p.c.id)).all() if enough else []
    found = []
    for row in rows:
        puzzle = read_puzzles(row.puzzle.encode("utf-8"), "yaml", name=f"catalogue:{row.id}")[0]
        clues = refitted_clues(puzzle, model)
        if clues is None:
            left_out["timed by another model"] += 1
            continue
        facts = features(puzzle, seconds, clues, model)
        if facts is None:
            left_out["not unique at a rated level"] += 1
            continue
        measured, addresses = medians[row.key]
        assert measured is not None
        found.append(Observed(row.id, row.key, row.title, f"{row.width}x{row.height}",
                              measured, len(enough[row.key]), held_out(row.key, row.file),
                              *facts, addresses=addresses))
    return found, left_out


def log_line(x: Sequence[float], measured: Sequence[float], against: str,
             things: str) -> tuple[float, float, float, float]:
    """Least squares of the measured log minutes on ``x``: (intercept, scale) and the
    residuals' quartiles (the range); NoFit when the minutes do not grow with ``x``."""
    y = np.log([max(m, 1e-6) for m in measured])
    design = np.column_stack([np.ones(len(y)), np.asarray(x, dtype=float)])
    (intercept, scale), *_ = np.linalg.lstsq(design, y, rcond=None)
    if not scale > 0:
        raise NoFit(f"the measured minutes do not grow with {against} (scale {scale:+.2f} "
                    f"over {len(y)} {things}): no fit; more {things}, or {things} further "
                    "apart in size and difficulty, would measure it")
    residuals = y - design @ np.array([intercept, scale])
    low, high = np.percentile(residuals, [25, 75])
    return float(intercept), float(scale), float(low), float(high)


def refit(train: Sequence[Observed], before: TimeModel, weights: Weights) -> TimeModel:
    """``before`` shifted and scaled to ``train`` (least squares of the measured log
    minutes on ``before``'s; see the module's note), the range from the residuals'
    quartiles."""
    x = [before.log_minutes(o.terms, o.clues, weights) for o in train]
    shift, scale, low, high = log_line(x, [o.measured for o in train], "the model's",
                                       "puzzles")
    return TimeModel(
        intercept=round(float(shift + scale * before.intercept), 4),
        coefficients={n: round(float(scale * c), 4) for n, c in before.coefficients.items()},
        low=round(float(min(low, 0.0)), 4), high=round(float(max(high, 0.0)), 4),
    )


def predicted(model: TimeModel, observed: Observed, weights: Weights) -> float:
    """The model's minutes, unrounded (a tenth of a minute is a large error at 0.3)."""
    return math.exp(min(max(model.log_minutes(observed.terms, observed.clues, weights),
                            -5.0), 12.0))


@dataclass(frozen=True)
class Agreement:
    """How a model's minutes meet the measured medians of a group of puzzles."""

    n: int
    log_error: float  # median |ln(predicted / measured)|
    within_10: float  # share within 10 %
    within_2: float  # share within a factor of 2

    def to_json(self) -> dict[str, Any]:
        return {"puzzles": self.n, "median_abs_ln": round(self.log_error, 4),
                "within_10_percent": round(self.within_10, 4),
                "within_factor_2": round(self.within_2, 4)}


def agreement(model: TimeModel, group: Sequence[Observed], weights: Weights) -> Agreement:
    if not group:
        return Agreement(0, float("nan"), float("nan"), float("nan"))
    errors = [abs(math.log(predicted(model, o, weights) / max(o.measured, 1e-6)))
              for o in group]
    return Agreement(len(group), statistics.median(errors),
                     sum(e <= math.log(1.1) for e in errors) / len(errors),
                     sum(e <= math.log(2.0) for e in errors) / len(errors))


@dataclass(frozen=True)
class Refit:
    """The result of ``calibrate --from-solves``."""

    model: str  # the kind whose time model was refitted (grader.minutes.MODEL_BLOCKS)
    before: TimeModel
    after: TimeModel
    train: list[Observed]
    held: list[Observed]
    left_out: Counter[str]
    weights: Weights

    def table(self, group: Sequence[Observed] | None = None) -> list[dict[str, Any]]:
        """One row a puzzle (the held-out ones unless ``group``): what backs its measured
        minutes (clean solves, addresses), measured, before, after."""
        return [{"id": o.id, "key": o.key, "title": o.title, "size": o.size,
                 "clean_solves": o.clean, "addresses": o.addresses,
                 "measured": round(o.measured, 2),
                 "before": round(predicted(self.before, o, self.weights), 2),
                 "after": round(predicted(self.after, o, self.weights), 2)}
                for o in (self.held if group is None else group)]

    def largest_change(self) -> tuple[float, Observed | None]:
        """The largest factor (>= 1) by which the refit moves a puzzle's minutes, fitted or
        held out, and that puzzle."""
        worst, which = 1.0, None
        for o in (*self.train, *self.held):
            factor = math.exp(abs(math.log(predicted(self.after, o, self.weights)
                                           / predicted(self.before, o, self.weights))))
            if factor > worst:
                worst, which = factor, o
        return worst, which

    def to_json(self) -> dict[str, Any]:
        def model(m: TimeModel) -> dict[str, Any]:
            return {"intercept": m.intercept, "terms": dict(m.coefficients),
                    "range": [m.low, m.high]}

        change, which = self.largest_change()
        return {
            "model": self.model,
            "training_puzzles": len(self.train), "held_out_puzzles": len(self.held),
            "left_out": {why: n for why, n in self.left_out.items() if n},
            "largest_change": {"factor": round(change, 4),
                               "puzzle": None if which is None else which.id,
                               "written_without_force_up_to": MAX_CHANGE},
            "training": self.table(self.train),
            "before": model(self.before), "after": model(self.after),
            "held_out": {"before": agreement(self.before, self.held, self.weights).to_json(),
                         "after": agreement(self.after, self.held, self.weights).to_json(),
                         "puzzles": self.table()},
        }


class TooFewSolves(ValueError):
    """Not enough puzzles with clean solves to fit (or to hold out)."""


class NoFit(ValueError):
    """The solves do not rank with the model: a scale of zero or below would be nonsense."""


def from_solves(catalogue: Catalogue, since: str | None = None, min_clean: int = MIN_CLEAN,
                seconds: float = 60.0, model: str = REFITTED) -> Refit:
    """``model``'s time model (``black-and-white`` or ``colour``) refitted to the solves."""
    from grader.minutes import default_model
    from grader.scoring import default_weights

    weights = default_weights()
    before = default_model(model)
    found, left_out = observations(catalogue, since, min_clean, seconds, model)
    train = [o for o in found if not o.held_out]
    held = [o for o in found if o.held_out]
    needed = MIN_PUZZLES
    if len(train) < needed or not held:
        raise TooFewSolves(
            f"{len(train)} puzzle(s) to fit and {len(held)} held out with at least "
            f"{min_clean} clean solves each: the fit needs {needed} to fit and one held out")
    return Refit(model, before, refit(train, before, weights), train, held, left_out, weights)


def write_minutes(model: TimeModel, note: str, path: Path, kind: str = REFITTED) -> Path:
    """``path``'s (a ``scoring.yaml``) block of ``kind``'s minutes and its note replaced,
    atomically (the note must begin as :data:`HEADINGS` says, to be found again)."""
    from grader.atomic import atomic_write
    from grader.minutes import MODEL_BLOCKS

    name, heading = MODEL_BLOCKS[kind], HEADINGS[kind]
    pattern = re.compile(rf"(?m)^{heading}.*\n(?:#.*\n)*{name}:\n(?:[ ]+.*\n)*")
    text = path.read_text(encoding="utf-8")
    terms = "".join(f"    {term}: {value}\n" for term, value in model.coefficients.items())
    block = (f"{note}{name}:\n  intercept: {model.intercept}\n  terms:\n{terms}"
             f"  range: [{model.low}, {model.high}]\n")
    if not pattern.search(text):
        raise ValueError(f"{path} has no {name} block with its '{heading}' note")
    atomic_write(path, pattern.sub(lambda _: block, text, count=1).encode("utf-8"))
    return path


def note_of(result: Refit, catalogue_name: str, since: str | None) -> str:
    after = agreement(result.after, result.held, result.weights)
    return (
        f"{HEADINGS[result.model]} by `nonopress calibrate --from-solves` to the web player's "
        f"clean solves\n#   (completed, no reveal, no hint accepted) in {catalogue_name}"
        f"{f' since {since}' if since else ''}: {len(result.train)} training puzzles, "
        f"{len(result.held)} held out\n#   (numeric id ending in 7, nonopress/solves/refit.py; "
        f"each puzzle's median over at least {MIN_ADDRESSES} addresses); "
        f"held out: median |ln(predicted / measured)| {after.log_error:.3f},\n"
        f"#   {after.within_10:.0%} within 10 %, {after.within_2:.0%} within a factor of 2.\n"
        "# ln(minutes) = intercept + sum of terms (grader/minutes.py FEATURES names them, "
        "each also as name^2\n#   or name*size); the griddlers.net fit's terms, shifted and "
        "scaled to this audience;\n"
        "# minutes_low/high = minutes * exp(range): the quartiles of the training residuals.\n"
    )


def scoring_table() -> Path:
    """The installed ``grader/scoring.yaml`` (``--write`` replaces it only when named)."""
    from importlib import resources

    return Path(str(resources.files("grader").joinpath("scoring.yaml")))
