"""The records of check, grade and fill: what ``check --json``, ``grade --json`` and
``fill --json`` print and what the studio's ``POST /api/check`` and
``/api/grade`` answer, built here once. (Make and repair answer the authoring result's own
record, :meth:`grader.authoring.BwAuthored.to_json`.)

Each record starts with :func:`~nonopress.app.loading.puzzle_summary` (where the puzzle
came from, its size and, for colour, its palette) and asks the puzzle's kind contract for
the rest, so either kind gives the same fields.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from grader.kinds import kind_of
from grader.results import Budget, SolveResult
from nonopress.app.loading import LoadedPuzzle, puzzle_summary

if TYPE_CHECKING:
    from grader.kinds import KindGrade, NoSolution
    from words.fill import FillResult
    from words.grid import Grid
    from words.report import WeakEntry


@dataclass(frozen=True)
class Checked:
    """One puzzle's check: the proof, the warnings (an empty border), the CPU time it took
    and, for ``none``, what breaks (the line or cell, as the kind's diagnosis found it)."""

    result: SolveResult
    warnings: list[str]
    cpu_s: float
    broken: NoSolution | None = None

    @property
    def why(self) -> str:
        """Why there is no solution, '' for any other verdict."""
        return self.broken.why if self.broken is not None else ""

    def record(self, loaded: LoadedPuzzle) -> dict[str, Any]:
        """The check record of ``loaded`` (this check's puzzle)."""
        record = result_record(loaded, self.result, self.why)
        # beside the wall-clock time the budget counts: what benchmarks on a busy machine need
        record["cpu_s"] = round(self.cpu_s, 6)
        record["warnings"] = list(self.warnings)
        return record


def check_puzzle(loaded: LoadedPuzzle, budget: Budget) -> Checked:
    """Count the solutions of a puzzle of either kind, up to two."""
    kind = kind_of(loaded.puzzle)
    result = kind.solve(2, budget)
    broken = kind.no_solution() if result.verdict == "none" else None
    # the puzzle's own CPU (the solving thread's), with no compiling or loading in it
    return Checked(result, kind.warnings(), result.cpu_s, broken)


def result_record(loaded: LoadedPuzzle, result: SolveResult, why: str = "") -> dict[str, Any]:
    """The record of one solve's verdict (``why``: what breaks, for ``none``)."""
    record = puzzle_summary(loaded)
    record["verdict"] = result.verdict
    record["time_s"] = round(result.time_s, 6)
    record["nodes"] = result.nodes
    if result.verdict in ("unique", "multiple"):
        record["solutions"] = kind_of(loaded.puzzle).solution_rows(result)[:2]
        record["differing_cells"] = [list(cell) for cell in result.differing_cells]
    if why:
        record["reason"] = why
    elif result.reason:
        record["reason"] = result.reason
    return record


def grade_record(
    loaded: LoadedPuzzle, max_rung: str | None, budget: Budget
) -> tuple[dict[str, Any], KindGrade]:
    """The grade record of one puzzle of either kind, and the grade itself (``max_rung``:
    the ladder cut off above that rung)."""
    puzzle = loaded.puzzle
    kind = kind_of(puzzle)
    result = kind.grade(max_rung, budget)
    record = puzzle_summary(loaded)
    record.update(result.to_json())
    record["title"] = puzzle.title
    record["warnings"] = kind.warnings()
    return record, result


def fill_record(file: str, source: Grid, result: FillResult, words: str, seed: int,
                weakest: Sequence[WeakEntry] | None = None) -> dict[str, Any]:
    """The record of a crossword fill of ``source`` (the grid read from ``file``) from the
    word list named ``words``; ``weakest``: its weakest entries and their rewrites, when
    asked."""
    record: dict[str, Any] = {
        "file": file, "size": source.size, "slots": len(source.slots),
        "status": result.status, "time_s": round(result.time_s, 4),
        "nodes": result.nodes, "restarts": result.restarts, "seed": seed, "words": words,
    }
    if result.status == "filled":
        record.update(score=result.score, min_score=result.min_score,
                      grid=list(result.grid.rows),
                      entries={s.short: w for s, w in zip(result.grid.slots, result.entries,
                                                           strict=True)})
        if weakest is not None:
            record["weakest"] = [
                {"slot": e.slot.short, "word": e.word, "score": e.score,
                 "rewrites": [[{"slot": s.short, "word": w, "score": v}
                               for s, w, v in r.changes] for r in e.rewrites]}
                for e in weakest]
    else:
        record["reason"] = result.reason
        if result.failed_slot is not None:
            record["slot"] = result.failed_slot.short
    return record
