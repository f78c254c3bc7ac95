"""``nonopress calibrate --from-solves --kind mosaic``: the mosaic's minutes fitted to the
player's collected solves of mosaics.

The mosaic has no term-by-term time model to refit (grader/mosaic/minutes.py): its minutes
are the ladder's assumed seconds a step, summed. The fit is the same two numbers as the
nonograms' refit (nonopress/solves/refit.py), a shift and a scale in log minutes, here of
the measured minutes on the assumed ones, with the same rules: solves counted once a solver
and bounded per address (``reports.counted``), a puzzle's minutes the median over addresses
of its clean solves, held-out puzzles (``refit.held_out``) never fitted and used to show
before and after, and a refit that moves some puzzle's minutes by more than
``refit.MAX_CHANGE`` not written without ``--force``.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from grader.mosaic.minutes import MosaicTimeModel, time_model
from grader.scoring import RATED_LEVELS
from nonopress.catalogue import schema
from nonopress.catalogue.database import Catalogue
from nonopress.solves.refit import (
    MIN_CLEAN,
    MIN_PUZZLES,
    TooFewSolves,
    held_out,
    log_line,
)
from nonopress.solves.reports import MIN_ADDRESSES, address_median, counted, read_solves

#: the name ``calibrate --kind`` gives the mosaic's minutes
MODEL = "mosaic"


@dataclass(frozen=True)
class MosaicObserved:
    id: int
    key: str
    title: str
    size: str
    measured: float
    clean: int
    held_out: bool
    assumed: float  # the ladder's assumed minutes, unrounded
    addresses: int = 0


def observations(catalogue: Catalogue, since: str | None = None, min_clean: int = MIN_CLEAN,
                 seconds: float = 60.0) -> tuple[list[MosaicObserved], Counter[str]]:
    """Every mosaic with at least ``min_clean`` clean solves from enough addresses, graded
    again for its assumed minutes; and a count of those left out, by why."""
    from grader import mosaic
    from grader.mosaic.formats import read_yaml
    from grader.results import Budget

    clean: dict[str, list[Any]] = defaultdict(list)
    for solve in counted(read_solves(catalogue, since)):
        if solve.clean:
            clean[solve.puzzle_key].append(solve)
    medians = {k: address_median(v) for k, v in clean.items()}
    enough = {k: v for k, v in clean.items()
              if len(v) >= min_clean and medians[k][0] is not None}
    left_out: Counter[str] = Counter()
    few = sum(len(v) < min_clean for v in clean.values())
    left_out[f"fewer than {min_clean} clean solves"] += few
    left_out[f"clean solves from fewer than {MIN_ADDRESSES} addresses"] += \
        len(clean) - len(enough) - few
    p = schema.puzzles
    rows = []
    if enough:
        with catalogue.reading() as connection:
            rows = connection.execute(
                sa.select(p.c.id, p.c.key, p.c.title, p.c.width, p.c.height, p.c.kind,
                          p.c.file, p.c.puzzle).where(p.c.key.in_(list(enough)))
                .order_by(p.c.id)).all()
    found = []
    for row in rows:
        if row.kind != MODEL:
            left_out["not a mosaic"] += 1
            continue
        (puzzle,) = read_yaml(row.puzzle.encode("utf-8"), f"catalogue:{row.id}")
        grade = mosaic.grade(puzzle, Budget(seconds=seconds))
        if (grade.verdict != "unique" or grade.level not in RATED_LEVELS
                or grade.assumed_minutes is None):
            left_out["not unique at a rated level"] += 1
            continue
        measured, addresses = medians[row.key]
        assert measured is not None
        found.append(MosaicObserved(row.id, row.key, row.title, f"{row.width}x{row.height}",
                                    measured, len(enough[row.key]),
                                    held_out(row.key, row.file), grade.assumed_minutes,
                                    addresses))
    return found, left_out


def fit(train: list[MosaicObserved]) -> MosaicTimeModel:
    """Least squares of the measured log minutes on the assumed log minutes; the range
    from the residuals' quartiles."""
    x = [math.log(max(o.assumed, 1e-3)) for o in train]
    intercept, scale, low, high = log_line(x, [o.measured for o in train], "the assumed ones",
                                           "mosaics")
    return MosaicTimeModel(round(float(intercept), 4), round(float(scale), 4),
                           round(float(min(low, 0.0)), 4), round(float(max(high, 0.0)), 4),
                           fitted=True)


def log_error(model: MosaicTimeModel, group: list[MosaicObserved]) -> float:
    """The median |ln(predicted / measured)| over ``group`` (NaN for none)."""
    if not group:
        return float("nan")
    return statistics.median(abs(math.log(model.minutes(o.assumed) / max(o.measured, 1e-6)))
                             for o in group)


@dataclass(frozen=True)
class MosaicRefit:
    before: MosaicTimeModel
    after: MosaicTimeModel
    train: list[MosaicObserved]
    held: list[MosaicObserved]
    left_out: Counter[str]
    model: str = MODEL

    def table(self, group: list[MosaicObserved]) -> list[dict[str, Any]]:
        return [{"id": o.id, "key": o.key, "title": o.title, "size": o.size,
                 "clean_solves": o.clean, "addresses": o.addresses,
                 "measured": round(o.measured, 2), "assumed": round(o.assumed, 2),
                 "before": round(self.before.minutes(o.assumed), 2),
                 "after": round(self.after.minutes(o.assumed), 2)} for o in group]

    def largest_change(self) -> tuple[float, MosaicObserved | None]:
        worst, which = 1.0, None
        for o in (*self.train, *self.held):
            factor = math.exp(abs(math.log(self.after.minutes(o.assumed)
                                           / self.before.minutes(o.assumed))))
            if factor > worst:
                worst, which = factor, o
        return worst, which

    def to_json(self) -> dict[str, Any]:
        from nonopress.solves.refit import MAX_CHANGE

        change, which = self.largest_change()
        return {
            "model": self.model, "training_puzzles": len(self.train),
            "held_out_puzzles": len(self.held),
            "left_out": {why: n for why, n in self.left_out.items() if n},
            "largest_change": {"factor": round(change, 4),
                               "puzzle": None if which is None else which.id,
                               "written_without_force_up_to": MAX_CHANGE},
            "training": self.table(self.train),
            "before": {**self.before.to_mapping(), "fitted": self.before.fitted},
            "after": {**self.after.to_mapping(), "fitted": True},
            "held_out": {"before": {"median_abs_ln": round(log_error(self.before, self.held), 4)},
                         "after": {"median_abs_ln": round(log_error(self.after, self.held), 4)},
                         "puzzles": self.table(self.held)},
        }


def from_solves(catalogue: Catalogue, since: str | None = None, min_clean: int = MIN_CLEAN,
                seconds: float = 60.0) -> MosaicRefit:
    found, left_out = observations(catalogue, since, min_clean, seconds)
    train = [o for o in found if not o.held_out]
    held = [o for o in found if o.held_out]
    if len(train) < MIN_PUZZLES or not held:
        raise TooFewSolves(
            f"{len(train)} mosaic(s) to fit and {len(held)} held out with at least "
            f"{min_clean} clean solves each: the fit needs {MIN_PUZZLES} to fit and one "
            "held out")
    return MosaicRefit(time_model(), fit(train), train, held, left_out)


def note_of(result: MosaicRefit, catalogue_name: str, since: str | None) -> str:
    return (f"# Mosaic minutes fitted by `nonopress calibrate --from-solves --kind mosaic` to "
            f"the web player's\n# clean solves in {catalogue_name}"
            f"{f' since {since}' if since else ''}: {len(result.train)} training mosaics, "
            f"{len(result.held)} held out\n# (median |ln(predicted/measured)| "
            f"{log_error(result.before, result.held):.3f} before, "
            f"{log_error(result.after, result.held):.3f} after).\n"
            "# ln(minutes) = intercept + scale * ln(the ladder's assumed minutes)\n")


def installed_table() -> Path:
    """The mosaic minutes table grading reads (written only when ``--write`` names it)."""
    from grader.mosaic.minutes import MINUTES_FILE

    return MINUTES_FILE


def write_minutes(result: MosaicRefit, catalogue_name: str, since: str | None,
                  path: Path) -> Path:
    """The fitted model as a minutes table at ``path``, headed by what it was fitted to."""
    from grader.mosaic.minutes import write_model

    return write_model(result.after, note_of(result, catalogue_name, since), path)


__all__ = ["MODEL", "MosaicObserved", "MosaicRefit", "fit", "from_solves", "installed_table",
           "log_error", "note_of", "observations", "write_minutes"]
