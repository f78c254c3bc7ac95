"""What an issue holds once its puzzles are loaded and graded: the input of both back ends."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from grader.model import BoolArray
from grader.scoring import printed_stars
from layout.geometry import BlockGeometry
from layout.kinddraw import KindDrawing, drawing_of
from layout.manifest import Manifest

if TYPE_CHECKING:
    from grader.colour.model import AnyPuzzle, ColourArray
    from grader.colour.palette import Palette
    from grader.kinds import KindGrade
    from layout.fillins import FillinEntry

LEVELS = ("easy", "medium", "hard", "fiendish", "needs-guessing", "ambiguous", "contradictory")


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
        )


def _ladder_order(rungs: dict[str, int]) -> dict[str, int]:
    """Rung counts cheapest first, as a grade lists them: the cache is written with sorted
    keys, and a rebuild from it must print "Techniques used" as the first build did."""
    from grader.ladder import default_ladder

    names = default_ladder().names
    return dict(sorted(rungs.items(),
                       key=lambda item: names.index(item[0]) if item[0] in names else len(names)))


def _optional(value: Any) -> float | None:
    return None if value is None else float(value)


@dataclass(frozen=True, eq=False)
class IssueEntry:
    """One puzzle of the issue, numbered, with its grade and solution picture."""

    number: int
    puzzle: AnyPuzzle
    grade: GradeInfo
    solution: BoolArray | ColourArray  # a colour puzzle's: colour indices, 0 = background
    title: str = ""
    note: str = ""
    hide_title: bool = True
    worked: bool = False
    #: a line printed under the puzzle ("about 12 min"), or ""
    about: str = ""
    #: grey print: a colour puzzle's colours as grey tints with symbols
    grey: bool = False
    #: the manifest item's own date (its day on the web), "" for the issue's
    date: str = ""

    @property
    def drawing(self) -> KindDrawing:
        """How the puzzle's kind is drawn (:mod:`layout.kinddraw`)."""
        return drawing_of(self.puzzle)

    @property
    def legend_palette(self) -> Palette | None:
        """The palette a legend names with the puzzle (its colours), None for no legend."""
        return self.drawing.legend_palette(self.puzzle)

    @property
    def size(self) -> str:
        return f"{self.puzzle.width}x{self.puzzle.height}"

    @cached_property
    def geometry(self) -> BlockGeometry:
        """The puzzle block's shape in cells (computed once: pagination asks often)."""
        return BlockGeometry.of(self.puzzle, symbols=self.drawing.symbols(self.puzzle,
                                                                          self.grey))

    @property
    def shown_title(self) -> str:
        """The title printed with the puzzle: empty when it would give the picture away."""
        return "" if self.hide_title else self.title

    @property
    def label(self) -> str:
        """A short name that never spoils the picture: for headers, contents and bookmarks."""
        text = f"No. {self.number} \u00b7 {self.size}"
        return f"{text} \u00b7 {self.shown_title}" if self.shown_title else text

    def credit(self) -> str:
        meta = self.puzzle.meta
        parts = [f"by {meta.author}" if meta.author else "", meta.copyright, meta.license]
        return ", ".join(p for p in parts if p)


@dataclass(frozen=True)
class Issue:
    manifest: Manifest
    entries: tuple[IssueEntry, ...]
    warnings: tuple[str, ...] = ()
    fillins: tuple[FillinEntry, ...] = ()  # numbered after the nonograms

    @property
    def heading(self) -> str:
        """Title, issue label and date, as one line."""
        parts = [self.manifest.title]
        if self.manifest.issue:
            parts.append(f"Issue {self.manifest.issue}")
        if self.manifest.date:
            parts.append(self.manifest.date)
        return " \u00b7 ".join(parts)

    def shorter_headings(self) -> list[str]:
        """The heading without the date, then the title alone (for narrow running heads)."""
        title = self.manifest.title
        shorter = [f"{title} \u00b7 Issue {self.manifest.issue}"] if self.manifest.issue else []
        return [*shorter, title]
