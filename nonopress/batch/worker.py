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

from grader.ladder import grader_version
from grader.results import Budget
from nonopress.batch.rows import ResultRow, Task, failed_row, utc_now

if TYPE_CHECKING:
    from grader.colour.grading import ColourGrade
    from grader.colour.model import ColourPuzzle
    from grader.grading import Grade


def grade_one(task: Task) -> ResultRow:
    """Grade and check ``task.puzzle`` within ``task.timeout_s`` seconds."""
    with contextlib.suppress(Exception):  # grade() below reports whatever is wrong, as a row
        from grader.solver import ensure_compiled

        ensure_compiled()  # loading (or compiling) the solver is not this puzzle's time
    start = time.perf_counter()
    try:
        from grader.colour.model import ColourPuzzle

        budget = Budget(seconds=task.timeout_s)
        if isinstance(task.puzzle, ColourPuzzle):
            from grader.colour.grading import grade_colour

            colour = grade_colour(task.puzzle, budget=budget)
            return row_from_colour_grade(task, colour, time.perf_counter() - start)
        from grader.grading import grade

        outcome = grade(task.puzzle, budget=budget)
        return row_from_grade(task, outcome, time.perf_counter() - start)
    except Exception as exc:  # any bug or bad puzzle is recorded, never fatal to the batch
        where = traceback.extract_tb(exc.__traceback__)[-1:] if exc.__traceback__ else []
        at = f" (at {where[0].filename.rsplit('/', 1)[-1]}:{where[0].lineno})" if where else ""
        message = f"{type(exc).__name__}: {exc}{at}"
        return failed_row(task, message, time_s=time.perf_counter() - start)


def row_from_grade(task: Task, outcome: Grade, elapsed_s: float) -> ResultRow:
    """The database row for a finished grade (``undecided`` when the budget ran out).

    The verdict is kept even when only the level is undecided: the solver may have
    proved uniqueness while the human-technique ladder was still working. A puzzle with
    several solutions or none is graded (it was looked at) but gets no score or stars:
    its ``error`` says what is wrong.
    """
    # the proved solution when there is one, else as far as the ladder got
    solution = outcome.solution_rows()
    if solution is None and outcome.grid is not None:
        solution = tuple(outcome.grid.to_rows())
    return _row(task, outcome, elapsed_s, solution)


def row_from_colour_grade(task: Task, outcome: ColourGrade, elapsed_s: float) -> ResultRow:
    """As :func:`row_from_grade`, for a colour puzzle: the solution rows hold the palette's
    chars (``?`` where the ladder left a cell open)."""
    from grader.colour.model import ColourPuzzle

    assert isinstance(task.puzzle, ColourPuzzle)
    return _row(task, outcome, elapsed_s, colour_grid_rows(task.puzzle, outcome))


def _row(task: Task, outcome: Grade | ColourGrade, elapsed_s: float,
         solution: tuple[str, ...] | None) -> ResultRow:
    """The result row of a grade of either kind, with its solution rows."""
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
        grader=grader_version(),
        palette=task.palette(),
        grade_record=_record(outcome.to_json()),
    )


def colour_grid_rows(puzzle: ColourPuzzle, outcome: ColourGrade) -> tuple[str, ...] | None:
    """The grid the colour ladder reached as rows of palette chars; None when it is empty."""
    grid = outcome.grid
    if grid is None or getattr(grid, "ndim", 0) != 2:
        return None
    palette = puzzle.palette
    chars = [palette[index].char for index in range(palette.size + 1)]  # 0: the background
    rows = []
    for line in grid.tolist():
        row = []
        for mask in line:
            value = int(mask)
            single = value and not value & (value - 1)
            index = value.bit_length() - 1
            row.append(chars[index] if single and index < len(chars) else "?")
        rows.append("".join(row))
    return tuple(rows)


def _record(data: dict[str, Any]) -> dict[str, Any]:
    """The grade record without the grid (the solution rows carry it)."""
    return {key: value for key, value in data.items() if key != "grid"}
