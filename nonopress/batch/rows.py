"""What a batch sends to a worker (a Task) and what comes back (a ResultRow).

Both are small frozen dataclasses so that they pickle cheaply to worker processes
and to Dask workers; the database and the reports only ever see ResultRows.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from grader.kinds import AnyPuzzle, entry_of, kind_of
from grader.ladder import grader_version

Status = Literal["graded", "failed", "undecided"]
STATUSES: tuple[Status, ...] = ("graded", "failed", "undecided")


@dataclass(frozen=True)
class Task:
    """One puzzle to grade: where it came from and how long it may take."""

    key: str  # Puzzle.key(): a content hash, the database key
    file: str
    index: int  # 1-based position in its file (bundles hold many puzzles)
    title: str
    puzzle: AnyPuzzle  # black-and-white or colour
    timeout_s: float

    def palette(self) -> dict[str, str]:
        """What a row of this puzzle stores of its colours: none for a kind whose solution
        rows are ``#``/``.`` (black and white, mosaic), which draw without a palette."""
        stored = entry_of(self.puzzle).stored
        if stored is None or not stored.rows_need_palette:
            return {}
        return kind_of(self.puzzle).cell_colours()

    @property
    def label(self) -> str:
        return f"{self.file}#{self.index}"


@dataclass(frozen=True)
class ResultRow:
    """One row of the results database: one puzzle, or one file that could not be read."""

    key: str
    file: str
    index: int
    title: str
    status: Status
    width: int | None = None
    height: int | None = None
    verdict: str | None = None
    level: str | None = None  # one of grader.grading.LEVELS, or "undecided"
    score: float | None = None
    stars: int | None = None
    rungs: dict[str, int] = field(default_factory=dict)
    steps: int | None = None
    time_s: float = 0.0
    error: str = ""
    solution: tuple[str, ...] | None = None  # row strings of '#', '.', '?' for thumbnails
    finished_at: str = ""
    #: predicted minutes of experienced solvers and their range (grader/minutes.py)
    minutes: float | None = None
    minutes_low: float | None = None
    minutes_high: float | None = None
    #: what graded it: package version + ladder and scoring tables' hash
    #: (grader.ladder.grader_version); a resumed batch grades again a row made by another,
    #: '' for a file that could not be read (reading does not depend on the grader)
    grader: str = ""
    #: the colour (``#rrggbb``) of each character of ``solution`` (grader.kinds'
    #: cell_colours: the palette of a colour puzzle); empty: black and white
    palette: dict[str, str] = field(default_factory=dict)
    #: the grader's whole record (``grade --json``'s fields, no grid), for whoever keeps more
    #: than the results database does (the catalogue); None for a row read back or failed
    grade_record: dict[str, Any] | None = field(default=None, compare=False)

    @property
    def label(self) -> str:
        """``file#N``; just ``file`` for a file that could not be read (index 0)."""
        return f"{self.file}#{self.index}" if self.index else self.file

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        del data["grade_record"]  # the results database's columns only
        data["solution"] = list(self.solution) if self.solution is not None else None
        return data


def utc_now() -> str:
    """A sortable UTC timestamp, e.g. ``2026-01-31T12:00:00Z``."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def failed_row(task: Task, error: str, *, time_s: float = 0.0) -> ResultRow:
    """The row recorded for a puzzle whose grading raised or whose worker died."""
    return _unfinished_row(task, "failed", None, error, time_s)


def out_of_time_row(task: Task, error: str, *, time_s: float) -> ResultRow:
    """The row recorded for a puzzle whose worker was stopped at the hard time limit."""
    return _unfinished_row(task, "undecided", "undecided", error, time_s)


def _unfinished_row(
    task: Task, status: Status, verdict: str | None, error: str, time_s: float
) -> ResultRow:
    return ResultRow(
        key=task.key,
        file=task.file,
        index=task.index,
        title=task.title,
        status=status,
        width=task.puzzle.width,
        height=task.puzzle.height,
        verdict=verdict,
        time_s=time_s,
        error=error,
        finished_at=utc_now(),
        grader=grader_version(),
        palette=task.palette(),
    )
