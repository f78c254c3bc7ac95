"""Manifest -> Issue: read every puzzle, grade it (or take the cached grade), find its
solution, number it. Puzzles that cannot be printed (several solutions, none) are errors."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from grader.errors import FormatError, NonopressError
from grader.model import EMPTY, FILLED, BoolArray, Puzzle, format_clue
from grader.results import Budget
from layout.gradecache import MAX_STEPS, GradeCache
from layout.issue import GradeInfo, Issue, IssueEntry
from layout.manifest import Manifest, PuzzleRef

Grader = Callable[[Puzzle], GradeInfo]


def describe_step(step: Any) -> str:
    """One line for a worked solution: where, which technique, what it decided."""
    technique = str(getattr(step, "technique", "") or getattr(step, "rung", "deduction"))
    changes = tuple(getattr(step, "changes", ()))
    filled = sum(1 for change in changes if change[2] == FILLED)
    empty = sum(1 for change in changes if change[2] == EMPTY)
    where = ""
    line = getattr(step, "line", None)
    cell = getattr(step, "cell", None)
    if line is not None:
        where = str(getattr(line, "label", line))
        clue = getattr(step, "clue", None)
        if clue is not None:
            where += f" (clue {format_clue(tuple(clue))})"
    elif cell is not None:
        where = f"Cell r{cell[0] + 1} c{cell[1] + 1}"
    result = ", ".join(
        part for part in (f"{filled} filled" if filled else "", f"{empty} empty" if empty else "")
        if part
    )
    return f"{where}: {technique}" + (f" -> {result}" if result else "")


def explain_step(step: Any, puzzle: Puzzle) -> str:
    """The grader's own sentence for a step when it has one, else :func:`describe_step`."""
    try:
        from grader.explain import sentence  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return describe_step(step)
    try:
        return str(sentence(step, puzzle))
    except Exception:  # an explanation must never stop the issue: say less instead
        return describe_step(step)


def grade_with_ladder(puzzle: Puzzle, budget: Budget) -> GradeInfo:
    """Grade with the toolkit's grader (imported late: it is the slow, heavy part)."""
    from grader.grading import grade

    result = grade(puzzle, budget=budget)
    return GradeInfo(
        level=result.level,
        score=float(result.score),
        stars=int(result.stars),
        verdict=str(result.verdict),
        rungs={str(k): int(v) for k, v in result.rungs.items()},
        time_s=float(result.time_s),
        steps=tuple(explain_step(s, puzzle) for s in result.steps[:MAX_STEPS]),
    )


def solution_of(puzzle: Puzzle, budget: Budget, label: str) -> BoolArray:
    known = puzzle.solution_array()
    if known is not None:
        return known
    from grader.solver import solve

    result = solve(puzzle, budget=budget)
    if result.verdict != "unique" or not result.solutions:
        raise NonopressError(f"{label}: no unique solution to print ({result.verdict})")
    return result.solutions[0]


def _load(ref: PuzzleRef, manifest: Manifest) -> list[Puzzle]:
    from grader.formats import read

    puzzles = read(ref.path)
    if ref.index is None:
        return puzzles
    if ref.index > len(puzzles):
        raise FormatError(
            f"index {ref.index}: {ref.path.name} holds only {len(puzzles)} puzzle(s)",
            str(manifest.source),
            ref.line,
        )
    return [puzzles[ref.index - 1]]


def build_issue(
    manifest: Manifest,
    *,
    cache: GradeCache | None = None,
    budget: Budget | None = None,
    grader: Grader | None = None,
    progress: Callable[[str], None] | None = None,
) -> Issue:
    """Load, grade and number the puzzles of ``manifest``.

    ``grader`` replaces the ladder (tests use it to pin grades); grades come from ``cache``
    when it has them, and new ones are put in it (the caller saves it).
    """
    budget = budget or Budget(seconds=30.0)
    grade_puzzle = grader or (lambda p: grade_with_ladder(p, budget))
    warnings: list[str] = []
    entries: list[IssueEntry] = []
    for ref in manifest.puzzles:
        puzzles = _load(ref, manifest)
        for k, puzzle in enumerate(puzzles):
            number = len(entries) + 1
            label = f"{ref.path.name}" + (f" #{k + 1}" if len(puzzles) > 1 else "")
            label += f" (puzzle {number} of the issue)"
            grade = cache.get(puzzle.key()) if cache else None
            if grade is None:
                if progress:
                    progress(f"grading {label}")
                grade = grade_puzzle(puzzle)
                if cache:
                    cache.put(puzzle.key(), grade)
            _check_printable(grade, label, warnings)
            title = ref.title if ref.title is not None else puzzle.title
            entries.append(
                IssueEntry(
                    number=number,
                    puzzle=puzzle,
                    grade=grade,
                    solution=solution_of(puzzle, budget, label),
                    title=title,
                    note=ref.note,
                    hide_title=ref.hide_title,
                )
            )
    worked = manifest.worked
    numbers = set(range(1, len(entries) + 1)) if worked == "all" else set(worked)
    beyond = sorted(n for n in numbers if n > len(entries))
    if beyond:
        raise FormatError(
            f"worked: no puzzle number {beyond[0]} (the issue has {len(entries)})",
            str(manifest.source),
        )
    entries = [replace(e, worked=e.number in numbers) for e in entries]
    if cache and cache.warning:
        warnings.insert(0, cache.warning)
    return Issue(manifest, tuple(entries), tuple(warnings))


def _check_printable(grade: GradeInfo, label: str, warnings: list[str]) -> None:
    if grade.verdict == "multiple" or grade.level == "ambiguous":
        raise NonopressError(f"{label} has several solutions: fix it before printing")
    if grade.verdict == "none" or grade.level == "contradictory":
        raise NonopressError(f"{label} has no solution: its clues contradict each other")
    if grade.verdict != "unique":
        warnings.append(f"{label}: uniqueness not proved within the budget ({grade.verdict})")
    if grade.level == "needs-guessing":
        warnings.append(f"{label} needs guessing: logic alone does not solve it")
