"""The part of a grade an issue prints and its grade cache keeps, of any kind of puzzle."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from grader.scoring import printed_stars

if TYPE_CHECKING:
    from grader.kinds import KindGrade


@dataclass(frozen=True)
class GradeInfo:
    """The part of a grade an issue prints (and caches)."""

    level: str
    score: float | None  # None: no difficulty (a defect, or a grade the budget cut short)
    stars: int | None
    verdict: str = "unique"
    rungs: dict[str, int] = field(default_factory=dict)
    time_s: float = 0.0
    steps: tuple[str, ...] = ()  # numbered worked-solution lines (see build.worked_lines)
    solution: tuple[str, ...] | None = None  # rows of '#' and '.', when the grade proved it
    problem: str = ""  # what keeps the puzzle from a score, when it has none
    #: predicted minutes of experienced solvers and their range (None without a score)
    minutes: float | None = None
    minutes_low: float | None = None
    minutes_high: float | None = None
    #: small grids for a worked solution: (index of the step line, the grid after that
    #: step as rows of '#' filled, '.' empty, '?' not yet known, 'F'/'E' filled/emptied by
    #: the step itself)
    grids: tuple[tuple[int, tuple[str, ...]], ...] = ()
    #: the player's hint table made from the same grade (``nonopress web``), None when the
    #: build did not ask for it
    hints: dict[str, Any] | None = None

    @property
    def effort_minutes(self) -> float:
        """The old name of :attr:`minutes` (0.0 without a score), for older callers."""
        return self.minutes or 0.0

    @classmethod
    def from_grade(cls, grade: KindGrade, steps: tuple[str, ...] = (),
                   grids: tuple[tuple[int, tuple[str, ...]], ...] = (),
                   solution: tuple[str, ...] | None = None) -> GradeInfo:
        """The printed part of the grader's record, of either kind (``steps``: its
        worked-solution lines, ``grids``: the grids shown after its hard steps,
        ``solution``: the proved solution as the record keeps it)."""
        return cls(
            level=grade.level,
            score=None if grade.score is None else float(grade.score),
            stars=printed_stars(grade.level, None if grade.stars is None else int(grade.stars)),
            verdict=str(grade.verdict),
            rungs={str(name): int(count) for name, count in grade.rungs.items()},
            time_s=float(grade.time_s),
            steps=steps,
            solution=solution,
            problem=grade.problem,
            minutes=grade.minutes,
            minutes_low=grade.minutes_low,
            minutes_high=grade.minutes_high,
            grids=grids,
        )

    def to_json(self, max_steps: int | None = None) -> dict[str, Any]:
        """A plain record for the grade cache (worked lines cut to ``max_steps``)."""
        data = asdict(self)
        data["steps"] = list(self.steps[:max_steps])
        data["solution"] = None if self.solution is None else list(self.solution)
        data["grids"] = [[index, list(rows)] for index, rows in self.grids
                         if max_steps is None or index < max_steps]
        return data

    @classmethod
    def from_json(cls, record: dict[str, Any]) -> GradeInfo:
        """The record :meth:`to_json` wrote; KeyError, TypeError or ValueError when it is not
        one (a cache written by hand or by an older version)."""
        solution = record.get("solution")
        return cls(
            level=str(record["level"]),
            score=None if record["score"] is None else float(record["score"]),
            stars=None if record["stars"] is None else int(record["stars"]),
            verdict=str(record["verdict"]),
            rungs=_ladder_order({str(k): int(v) for k, v in record["rungs"].items()}),
            time_s=float(record["time_s"]),
            steps=tuple(str(s) for s in record["steps"]),
            solution=None if solution is None else tuple(str(row) for row in solution),
            problem=str(record.get("problem", "")),
            minutes=_optional(record.get("minutes")),
            minutes_low=_optional(record.get("minutes_low")),
            minutes_high=_optional(record.get("minutes_high")),
            grids=tuple((int(index), tuple(str(row) for row in rows))
                        for index, rows in record.get("grids", [])),
            hints=_hints(record.get("hints")),
        )


def _ladder_order(rungs: dict[str, int]) -> dict[str, int]:
    """Rung counts cheapest first, as a grade lists them: the cache is written with sorted
    keys, and a rebuild from it must print "Techniques used" as the first build did."""
    from grader.ladder import default_ladder

    names = default_ladder().names
    return dict(sorted(rungs.items(),
                       key=lambda item: names.index(item[0]) if item[0] in names else len(names)))


def _hints(value: Any) -> dict[str, Any] | None:
    if value is not None and not isinstance(value, dict):
        raise TypeError("hints: not a table")
    return value


def _optional(value: Any) -> float | None:
    return None if value is None else float(value)
