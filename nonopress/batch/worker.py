"""The function every worker runs: grade one puzzle and turn the outcome into a row.

It never raises for a puzzle: an exception becomes a ``failed`` row, a budget that runs
out an ``undecided`` one, so one bad puzzle cannot stop a batch. It must stay a plain
module-level function so that worker processes and Dask workers can import it.
"""

from __future__ import annotations

import contextlib
import time
import traceback
from typing import TYPE_CHECKING, Any

from grader.results import Budget
from nonopress.batch.rows import ResultRow, Task, failed_row, utc_now

if TYPE_CHECKING:
    from grader.kinds import KindGrade


def grade_one(task: Task) -> ResultRow:
    """Grade and check ``task.puzzle`` within ``task.timeout_s`` seconds."""
    with contextlib.suppress(Exception):  # grade() below reports whatever is wrong, as a row
        from grader.solver import ensure_compiled

        ensure_compiled()  # loading (or compiling) the solver is not this puzzle's time
    start = time.perf_counter()
    try:
        from grader.kinds import kind_of

        outcome = kind_of(task.puzzle).grade(None, Budget(seconds=task.timeout_s))
        return row_from_grade(task, outcome, time.perf_counter() - start)
    except Exception as exc:  # any bug or bad puzzle is recorded, never fatal to the batch
        where = traceback.extract_tb(exc.__traceback__)[-1:] if exc.__traceback__ else []
        at = f" (at {where[0].filename.rsplit('/', 1)[-1]}:{where[0].lineno})" if where else ""
        message = f"{type(exc).__name__}: {exc}{at}"
        return failed_row(task, message, time_s=time.perf_counter() - start)


def row_from_grade(task: Task, outcome: KindGrade, elapsed_s: float) -> ResultRow:
    """The database row for a finished grade of either kind (``undecided`` when the budget
    ran out).

    The verdict is kept even when only the level is undecided: the solver may have
    proved uniqueness while the human-technique ladder was still working. A puzzle with
    several solutions or none is graded (it was looked at) but gets no score or stars:
    its ``error`` says what is wrong. The solution rows are the proved solution when there
    is one, else the grid as far as the ladder got (``?`` where a cell is still open).
    """
    from grader.kinds import kind_of

    solution = kind_of(task.puzzle).grade_rows(outcome)
    # Out of budget either before the verdict or before the ladder finished the grade.
    undecided = outcome.verdict == "undecided" or outcome.level == "undecided"
    return ResultRow(
        key=task.key,
        file=task.file,
        index=task.index,
        title=task.title,
        status="undecided" if undecided else "graded",
        width=task.puzzle.width,
        height=task.puzzle.height,
        verdict=outcome.verdict,
        level=outcome.level,
        score=outcome.score,
        stars=outcome.stars,
        rungs={str(name): int(count) for name, count in outcome.rungs.items()},
        steps=len(outcome.steps),
        time_s=elapsed_s,
        error=outcome.problem,
        solution=solution,
        finished_at=utc_now(),
        minutes=outcome.minutes,
        minutes_low=outcome.minutes_low,
        minutes_high=outcome.minutes_high,
        grade_record=_record(outcome.to_json()),
    )


def _record(data: dict[str, Any]) -> dict[str, Any]:
    """The grade record without the grid (the solution rows carry it)."""
    return {key: value for key, value in data.items() if key != "grid"}
