"""What the audience did with each puzzle: ``nonopress library solves`` and the studio's
library card.

For each puzzle (and each level, each size): the solve attempts reported, the share
completed, the median active minutes of the *clean* solves (completed without a reveal or
an accepted hint, ``record.FINISHES``: a revealed or hinted cell is not solved) beside the
grade's predicted minutes and range, the share of attempts that asked for a hint, and the
rungs hinted most. The puzzles whose audience disagrees most with their grade are those
whose clean median is furthest from the predicted minutes, as a factor (at least
:data:`MIN_CLEAN` clean solves, so that one slow solver is not a disagreement).

A record is unauthenticated (anyone can send one, with any solver id), so what is counted
is bounded by sender, the one thing a sender cannot invent cheaply (:func:`counted`): one
attempt a solver a puzzle (its completed one, else its longest), at most
:data:`PER_ADDRESS` solvers an address a puzzle, and the median is a median over
addresses: each address's clean solves give one figure (their median), and the puzzle's
minutes are the median of those, shown only when at least :data:`MIN_ADDRESSES` addresses
give one. A median of per-address figures is the most trimmed of means: one address, with
any number of records, moves it by at most one place among the others. A completed solve
under ``record.MIN_COMPLETED_SECONDS`` is not counted clean (records stored before the floor).
"""

from __future__ import annotations

import datetime as dt
import json
import math
import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa

from nonopress.catalogue import schema
from nonopress.catalogue.database import Catalogue
from nonopress.solves.record import MIN_COMPLETED_SECONDS

#: clean solves a puzzle needs before its median is set against its grade
MIN_CLEAN = 5
#: addresses whose clean solves a median needs before it is shown at all
MIN_ADDRESSES = 3
#: solvers counted from one address for one puzzle (a household, an office, a class)
PER_ADDRESS = 3
#: the rungs named per row
TOP_RUNGS = 3
#: puzzles listed as disagreeing most
DISAGREEMENTS = 10


@dataclass(frozen=True)
class Solve:
    """One stored attempt, as the reports read it."""

    puzzle_key: str
    minutes: float  # active minutes
    completed: bool
    reveals: int
    hinted: bool
    rungs: tuple[str, ...]
    solver: str = ""
    #: the sender's digest; a record stored without one is a sender of its own
    sender: str = ""
    order: int = 0  # the order the records were stored in
    #: how it was finished (record.FINISHES); None for a record stored before issue 56
    finish: str | None = None

    @property
    def clean(self) -> bool:
        # finished by the solver alone: a hinted or revealed finish measures the hints
        return (self.completed and self.reveals == 0 and self.finish in (None, "unaided")
                and self.minutes * 60.0 >= MIN_COMPLETED_SECONDS)


@dataclass
class Stats:
    """The figures of a group of attempts (a puzzle, a level, a size)."""

    solves: int = 0
    completed: int = 0
    clean: int = 0
    solvers: int = 0  # distinct solvers counted
    addresses: int = 0  # distinct addresses counted
    clean_addresses: int = 0  # addresses with a clean solve (the median's votes)
    median_minutes: float | None = None  # of the clean solves, over addresses
    predicted: float | None = None  # the grade's minutes (a group: median over clean solves)
    low: float | None = None
    high: float | None = None
    hint_rate: float = 0.0
    rungs: list[tuple[str, int]] = field(default_factory=list)

    @property
    def completion(self) -> float:
        return self.completed / self.solves if self.solves else 0.0

    @property
    def ratio(self) -> float | None:
        """Measured over predicted minutes, when both are known."""
        if self.median_minutes is None or not self.predicted:
            return None
        return self.median_minutes / self.predicted

    def to_json(self) -> dict[str, Any]:
        ratio = self.ratio
        return {
            "solves": self.solves, "completed": self.completed,
            "completion": round(self.completion, 4), "clean": self.clean,
            "solvers": self.solvers, "addresses": self.addresses,
            "clean_addresses": self.clean_addresses,
            "median_minutes": _round(self.median_minutes), "predicted_minutes": self.predicted,
            "predicted_low": self.low, "predicted_high": self.high,
            "ratio": None if ratio is None else round(ratio, 3),
            "hint_rate": round(self.hint_rate, 4),
            "rungs_hinted": [{"rung": name, "hints": n} for name, n in self.rungs],
        }


@dataclass(frozen=True)
class PuzzleRow:
    id: int
    key: str
    title: str
    size: str
    level: str | None
    stats: Stats

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "key": self.key, "title": self.title, "size": self.size,
                "level": self.level, **self.stats.to_json()}


@dataclass(frozen=True)
class Report:
    since: str | None
    puzzles: list[PuzzleRow]
    levels: dict[str, Stats]
    sizes: dict[str, Stats]
    disagreements: list[PuzzleRow]

    def to_json(self) -> dict[str, Any]:
        return {
            "since": self.since,
            "solves": sum(p.stats.solves for p in self.puzzles),
            "counting": {"per_solver": 1, "per_address": PER_ADDRESS,
                         "min_addresses": MIN_ADDRESSES, "min_clean": MIN_CLEAN,
                         "min_completed_seconds": MIN_COMPLETED_SECONDS},
            "puzzles": [p.to_json() for p in self.puzzles],
            "levels": {k: v.to_json() for k, v in self.levels.items()},
            "sizes": {k: v.to_json() for k, v in self.sizes.items()},
            "disagreements": [p.to_json() for p in self.disagreements],
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1, ensure_ascii=False)


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 2)


def since_text(text: str | None) -> str | None:
    """``--since 2026-11-01`` as the stored ``started_at`` compares (ValueError if not a
    date)."""
    if text is None or not text.strip():
        return None
    return dt.date.fromisoformat(text.strip()).isoformat()


def read_solves(catalogue: Catalogue, since: str | None = None,
                keys: Sequence[str] | None = None) -> list[Solve]:
    """The stored attempts (started on or after ``since``; of ``keys`` only, when given)."""
    s = schema.solves
    query = sa.select(s.c.id, s.c.puzzle_key, s.c.seconds_active, s.c.completed, s.c.reveals,
                      s.c.hints_1, s.c.hints_2, s.c.hints_3, s.c.hints_4, s.c.hint_rungs,
                      s.c.solver_id, s.c.sender, s.c.finish)
    if since is not None:
        query = query.where(s.c.started_at >= since)
    if keys is not None:
        query = query.where(s.c.puzzle_key.in_(list(keys)))
    with catalogue.reading() as connection:
        rows = connection.execute(query.order_by(s.c.id)).all()
    return [Solve(r.puzzle_key, r.seconds_active / 60.0, bool(r.completed), r.reveals,
                  r.hints_1 + r.hints_2 + r.hints_3 + r.hints_4 > 0,
                  tuple(json.loads(r.hint_rungs)), r.solver_id,
                  r.sender or f"record:{r.id}", r.id, r.finish) for r in rows]


def counted(attempts: Iterable[Solve]) -> list[Solve]:
    """The attempts that count (see the module's note): one a solver a puzzle (its
    completed one, else its longest; the first stored of equals), at most
    :data:`PER_ADDRESS` solvers an address a puzzle (the first stored)."""
    best: dict[tuple[str, str], Solve] = {}
    for attempt in attempts:
        mine = (attempt.puzzle_key, attempt.solver)
        held = best.get(mine)
        if held is None or (not held.completed and (
                attempt.completed or attempt.minutes > held.minutes)):
            best[mine] = attempt
    per_address: Counter[tuple[str, str]] = Counter()
    kept = []
    for attempt in sorted(best.values(), key=lambda a: a.order):
        where = (attempt.puzzle_key, attempt.sender)
        if per_address[where] < PER_ADDRESS:
            per_address[where] += 1
            kept.append(attempt)
    return kept


def address_median(clean: Iterable[Solve]) -> tuple[float | None, int]:
    """The median over addresses of each address's median clean minutes, and how many
    addresses gave one (None below :data:`MIN_ADDRESSES`)."""
    by_address: dict[str, list[float]] = defaultdict(list)
    for attempt in clean:
        by_address[attempt.sender].append(attempt.minutes)
    if len(by_address) < MIN_ADDRESSES:
        return None, len(by_address)
    return statistics.median(statistics.median(v) for v in by_address.values()), \
        len(by_address)


def stats(attempts: Iterable[Solve], predicted: dict[str, tuple[float | None, float | None,
                                                                 float | None]]) -> Stats:
    """The figures of ``attempts``; ``predicted``: key -> (minutes, low, high)."""
    group = counted(attempts)
    clean = [a for a in group if a.clean]
    rungs: Counter[str] = Counter(r for a in group for r in a.rungs)
    median, voters = address_median(clean)
    result = Stats(
        solves=len(group), completed=sum(a.completed for a in group), clean=len(clean),
        solvers=len({a.solver for a in group}), addresses=len({a.sender for a in group}),
        clean_addresses=voters, median_minutes=median,
        hint_rate=sum(a.hinted for a in group) / len(group) if group else 0.0,
        rungs=rungs.most_common(TOP_RUNGS),
    )
    keys = {a.puzzle_key for a in group}
    if len(keys) == 1:
        result.predicted, result.low, result.high = predicted.get(next(iter(keys)),
                                                                  (None, None, None))
    else:  # a group: the prediction each clean solve had, as its median
        known = [minutes for a in clean
                 if (minutes := predicted.get(a.puzzle_key, (None, None, None))[0])
                 is not None]
        result.predicted = statistics.median(known) if known else None
    return result


def solves_report(catalogue: Catalogue, since: str | None = None) -> Report:
    """Every puzzle with a reported attempt, by level and by size, and the disagreements."""
    attempts = read_solves(catalogue, since)
    by_key: dict[str, list[Solve]] = defaultdict(list)
    for attempt in attempts:
        by_key[attempt.puzzle_key].append(attempt)
    p = schema.puzzles
    with catalogue.reading() as connection:
        rows = connection.execute(
            sa.select(p.c.id, p.c.key, p.c.title, p.c.width, p.c.height, p.c.level,
                      p.c.minutes, p.c.minutes_low, p.c.minutes_high)
            .where(p.c.key.in_(list(by_key)))).all() if by_key else []
    info = {r.key: r for r in rows}
    predicted = {r.key: (r.minutes, r.minutes_low, r.minutes_high) for r in rows}
    puzzles = [PuzzleRow(r.id, r.key, r.title, f"{r.width}x{r.height}", r.level,
                         stats(by_key[r.key], predicted))
               for r in sorted(rows, key=lambda r: r.id)]
    levels: dict[str, list[Solve]] = defaultdict(list)
    sizes: dict[str, list[Solve]] = defaultdict(list)
    for key, group in by_key.items():
        if key in info:
            levels[info[key].level or "-"].extend(group)
            sizes[f"{info[key].width}x{info[key].height}"].extend(group)
    disagreeing = [row for row in puzzles
                   if row.stats.clean >= MIN_CLEAN and row.stats.ratio is not None]
    disagreeing.sort(key=lambda row: -abs(math.log(row.stats.ratio or 1.0)))
    return Report(
        since=since, puzzles=puzzles,
        levels={k: stats(v, predicted) for k, v in sorted(levels.items())},
        sizes={k: stats(v, predicted) for k, v in sorted(sizes.items(), key=_area)},
        disagreements=disagreeing[:DISAGREEMENTS],
    )


def _area(item: tuple[str, Any]) -> tuple[int, str]:
    width, _, height = item[0].partition("x")
    return (int(width) * int(height) if width.isdigit() and height.isdigit() else 0, item[0])


def puzzle_stats(catalogue: Catalogue, keys: Sequence[str]) -> dict[str, Stats]:
    """The figures of each of ``keys`` that has attempts (the studio's library cards)."""
    if not keys:
        return {}
    attempts = read_solves(catalogue, keys=keys)
    by_key: dict[str, list[Solve]] = defaultdict(list)
    for attempt in attempts:
        by_key[attempt.puzzle_key].append(attempt)
    return {key: stats(group, {}) for key, group in by_key.items()}
