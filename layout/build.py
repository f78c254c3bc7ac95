"""Manifest -> Issue: read every puzzle, grade it (or take the cached grade), find its
solution, number it. Puzzles that cannot be printed (unreadable, several solutions, none,
uniqueness not proved, far too big) are errors, all of them named in one message."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import numpy.typing as npt

from grader.colour.model import AnyPuzzle, ColourArray, ColourPuzzle
from grader.diagnose import empty_borders
from grader.errors import FormatError, ManyProblems, NonopressError, NotPublishable
from grader.ladder import default_ladder
from grader.minutes import about_text
from grader.model import BoolArray, Puzzle, rows_to_array
from grader.results import Budget
from grader.techniques.base import Step
from layout.fillins import build_fillins
from layout.gradecache import MAX_STEPS, GradeCache
from layout.issue import GradeInfo, Issue, IssueEntry
from layout.manifest import Manifest, PuzzleRef
from layout.puzzlefiles import PuzzleFiles
from layout.stepgrid import INDEX_CHARS, STEP_MARKS

Grader = Callable[[AnyPuzzle], GradeInfo]


#: Rungs whose steps a worked solution may summarise: the routine line logic (the rungs
#: of the ladder table's lowest level).
ROUTINE_RUNGS = default_ladder().routine()
#: Solves this short are worked through step by step in full (over as many pages as
#: they need): an easy 10x10 takes about 50 steps.
FULL_WORKED_STEPS = 100
#: How many routine steps open a long solve in full, to show how it starts.
OPENING_STEPS = 3
#: The largest puzzle an issue prints: a bigger "puzzle" is a photo or a drawing that
#: needs turning into a puzzle first (``nonopress make``), not a page of 1 mm cells.
MAX_PRINT_SIDE = 100


def worked_lines(steps: Sequence[Step], puzzle: AnyPuzzle) -> tuple[str, ...]:
    """Numbered lines for a worked solution.

    A short solve is given in full. In a long one, the steps a reader needs to see (owner
    branching and harder) stay in full, while runs of routine steps are summarised in one
    line each, after the first few that show how the solve starts.
    """
    say = _sentences(puzzle)
    if len(steps) <= FULL_WORKED_STEPS:
        return tuple(f"{k}. {say(s)}" for k, s in enumerate(steps, start=1))
    lines: list[str] = []
    run: list[int] = []  # step numbers of the current routine run
    run_rungs: Counter[str] = Counter()

    def close_run() -> None:
        if run:
            counts = ", ".join(f"{name} {n}" for name, n in run_rungs.items())
            span = f"Step {run[0]}" if len(run) == 1 else f"Steps {run[0]}-{run[-1]}"
            lines.append(f"{span}: routine line logic ({counts}).")
            run.clear()
            run_rungs.clear()

    for k, step in enumerate(steps, start=1):
        if step.rung in ROUTINE_RUNGS and k > OPENING_STEPS:
            run.append(k)
            run_rungs[step.rung.replace("-", " ")] += 1
            continue
        close_run()
        lines.append(f"{k}. {say(step)}")
    close_run()
    if len(lines) > MAX_STEPS:  # said, never silent: the whole solve is one command away
        cut = len(lines) - MAX_STEPS + 1
        lines = lines[: MAX_STEPS - 1]
        lines.append(
            f"... {cut} more lines of this solve are not printed; "
            "`nonopress grade --explain` gives every step."
        )
    return tuple(lines)


def _sentences(puzzle: AnyPuzzle) -> Callable[[Step], str]:
    """The sentence of each step, in the words of the puzzle's kind."""
    if isinstance(puzzle, Puzzle):
        from grader.explain import sentence

        return lambda step: sentence(step, puzzle)
    from grader.colour.grading import sentence as colour_sentence

    return lambda step: colour_sentence(step, puzzle)


#: Grids drawn in a worked solution, after its first hard steps (a reader sees where the
#: solve stands when it needs more than routine line logic).
MAX_WORKED_GRIDS = 8
#: Puzzles wider or taller than this get no step grids (they would be unreadably small).
MAX_GRID_SIDE = 40


def worked_grids(steps: Sequence[Step], puzzle: Puzzle, lines: Sequence[str]
                 ) -> tuple[tuple[int, tuple[str, ...]], ...]:
    """The grid after each hard step (beyond routine line logic) that ``lines`` prints in
    full, as rows of '#', '.', '?' and 'F'/'E' for the cells the step itself decided."""
    from grader.model import EMPTY, FILLED

    def bw_mark(value: int, decided: bool) -> str:
        if decided:
            return "F" if value == FILLED else "E"
        return "#" if value == FILLED else "." if value == EMPTY else "?"

    if puzzle.width > MAX_GRID_SIDE or puzzle.height > MAX_GRID_SIDE:
        return ()
    where = {line.split(". ", 1)[0]: i for i, line in enumerate(lines) if ". " in line}
    cells = puzzle.start_cells().copy()
    grids: list[tuple[int, tuple[str, ...]]] = []
    for k, step in enumerate(steps, start=1):
        for row, column, state in step.changes:
            cells[row, column] = state
        if step.rung in ROUTINE_RUNGS or str(k) not in where:
            continue
        grids.append((where[str(k)], _step_rows(cells, step, bw_mark)))
        if len(grids) == MAX_WORKED_GRIDS:
            break
    return tuple(grids)


#: A colour solve with no hard step (line logic alone, as most colour puzzles) still shows
#: where it stands this many times, after evenly spaced steps.
COLOUR_ROUTINE_GRIDS = 6


def colour_worked_grids(steps: Sequence[Step], puzzle: ColourPuzzle, lines: Sequence[str]
                        ) -> tuple[tuple[int, tuple[str, ...]], ...]:
    """The grid after each hard step of a colour solve that ``lines`` prints in full (after
    evenly spaced steps when none is hard), as rows of ``STEP_MARKS``, INDEX_CHARS, '.'
    and '?'. A cell is known once one value (a colour, or empty) is left to it."""
    from grader.colour.lines import full_mask

    if (puzzle.width > MAX_GRID_SIDE or puzzle.height > MAX_GRID_SIDE
            or puzzle.palette.size >= len(STEP_MARKS)):
        return ()
    where = {line.split(". ", 1)[0]: i for i, line in enumerate(lines) if ". " in line}
    start = full_mask(puzzle.palette.size)
    cells = np.full((puzzle.height, puzzle.width), start, dtype=np.uint32)
    deciding = []  # printed steps that leave at least one cell known (a grid with a mark)
    for k, step in enumerate(steps, start=1):
        known = 0
        for row, column, value in step.changes:
            before = int(cells[row, column])
            cells[row, column] &= value
            after = int(cells[row, column])
            known += after != before and not after & (after - 1)
        if known and str(k) in where:
            deciding.append(k)
    chosen = [k for k in deciding if steps[k - 1].rung not in ROUTINE_RUNGS]
    if not chosen and deciding:
        count = min(COLOUR_ROUTINE_GRIDS, len(deciding))
        chosen = sorted({deciding[round((j + 1) * len(deciding) / count) - 1]
                         for j in range(count)})
    wanted = set(chosen[:MAX_WORKED_GRIDS])
    cells[:] = start
    grids: list[tuple[int, tuple[str, ...]]] = []
    for k, step in enumerate(steps, start=1):
        for row, column, value in step.changes:
            cells[row, column] &= value
        if k not in wanted:
            continue
        grids.append((where[str(k)], _step_rows(cells, step, _colour_mark)))
    return tuple(grids)


def _colour_mark(value: int, decided: bool) -> str:
    """A colour step grid's character for a cell's bit set of values left."""
    if value & (value - 1):  # more than one value left
        return "?"
    index = value.bit_length() - 1
    if decided:
        return STEP_MARKS[index]
    return "." if index == 0 else INDEX_CHARS[index]


def _step_rows(cells: npt.NDArray[Any], step: Step, mark: Callable[[int, bool], str]
               ) -> tuple[str, ...]:
    """The grid as rows of ``mark(value, decided by this step)`` characters."""
    changed = {(r, c) for r, c, _ in step.changes}
    height, width = cells.shape
    return tuple("".join(mark(int(cells[r, c]), (r, c) in changed) for c in range(width))
                 for r in range(height))


def grade_with_ladder(puzzle: AnyPuzzle, budget: Budget) -> GradeInfo:
    """Grade with the toolkit's grader (imported late: it is the slow, heavy part)."""
    if not isinstance(puzzle, Puzzle):
        return grade_colour_puzzle(puzzle, budget)
    from grader.grading import grade

    result = grade(puzzle, budget=budget)
    lines = worked_lines(result.steps, puzzle)
    return GradeInfo.from_grade(result, lines, worked_grids(result.steps, puzzle, lines))


#: A colour solution in a grade (and the grade cache): each cell's colour index as one
#: character, so that renaming a colour's char (the cache key ignores it) changes nothing.


def grade_colour_puzzle(puzzle: ColourPuzzle, budget: Budget) -> GradeInfo:
    """A colour puzzle graded by the colour ladder, as the record an issue prints: its
    solution as rows of colour indices (:data:`INDEX_CHARS`) and the grids of its worked
    solution (:func:`colour_worked_grids`)."""
    from grader.colour.grading import grade_colour
    from grader.scoring import printed_stars

    result = grade_colour(puzzle, budget=budget)
    solution = None
    if result.verdict == "unique" and result.solved:
        picture = np.log2(result.grid.astype(np.float64)).round().astype(np.uint8)
        solution = tuple("".join(INDEX_CHARS[v] for v in row) for row in picture.tolist())
    steps = worked_lines(result.steps, puzzle)
    return GradeInfo(
        level=result.level,
        score=None if result.score is None else float(result.score),
        stars=printed_stars(result.level, result.stars),
        verdict=str(result.verdict),
        rungs={str(name): int(count) for name, count in result.rungs.items()},
        time_s=float(result.time_s),
        steps=steps,
        grids=colour_worked_grids(result.steps, puzzle, steps),
        solution=solution,
        problem=result.problem,
        minutes=result.minutes,
        minutes_low=result.minutes_low,
        minutes_high=result.minutes_high,
    )


def colour_solution_of(puzzle: ColourPuzzle, grade: GradeInfo, budget: Budget, label: str
                       ) -> ColourArray:
    """A colour puzzle's printed picture: the file's own, else the grade's, else the
    colour solver's."""
    known = puzzle.solution_array()
    if known is not None:
        return known
    if grade.solution is not None and all(
            len(row) == puzzle.width and set(row) <= set(INDEX_CHARS[:puzzle.colours + 1])
            for row in grade.solution) and len(grade.solution) == puzzle.height:
        return np.array([[INDEX_CHARS.index(ch) for ch in row] for row in grade.solution],
                        dtype=np.uint8)
    from grader.colour.solver import solve_colour

    result = solve_colour(puzzle, budget=budget)
    if result.verdict != "unique" or not result.solutions:
        raise NotPublishable(f"{label}: no unique solution to print ({result.verdict})")
    return np.asarray(result.solutions[0], dtype=np.uint8)


def solution_of(puzzle: Puzzle, grade: GradeInfo, budget: Budget, label: str) -> BoolArray:
    """The picture printed with the solutions: the file's own, else the one the grade
    proved (the grader never solves a puzzle twice), else the solver's (for grades made
    by another grader)."""
    known = puzzle.solution_array()
    if known is not None:
        return known
    if grade.solution is not None:
        return rows_to_array(grade.solution)
    from grader.solver import solve

    result = solve(puzzle, budget=budget)
    if result.verdict != "unique" or not result.solutions:
        raise NotPublishable(f"{label}: no unique solution to print ({result.verdict})")
    return result.solutions[0]


def too_big(puzzle: AnyPuzzle) -> str:
    """Why a puzzle is too big to print ('' when it is not)."""
    if puzzle.width <= MAX_PRINT_SIDE and puzzle.height <= MAX_PRINT_SIDE:
        return ""
    return (
        f"is {puzzle.size}: larger than a printable puzzle (at most "
        f"{MAX_PRINT_SIDE}x{MAX_PRINT_SIDE}); a photo or drawing has to be made into a "
        "puzzle first: `nonopress make`"
    )


def _load(ref: PuzzleRef, manifest: Manifest, files: PuzzleFiles) -> Sequence[AnyPuzzle]:
    if ref.missing:
        raise FormatError(f"puzzle file not found: {ref.missing}", str(manifest.source),
                          ref.line)
    puzzles: Sequence[AnyPuzzle]
    try:
        puzzles = files.read(ref.path)
    except NonopressError as error:  # a colour file, or a file the black-and-white
        try:  # reader's message describes best
            puzzles = files.read_any(ref.path)
        except NonopressError:
            raise error from None
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
    files: PuzzleFiles | None = None,
) -> Issue:
    """Load, grade and number the puzzles of ``manifest``.

    ``files`` holds the puzzle files this build has read (each is read once, however many
    entries name it); a fresh one is made when not given.

    ``grader`` replaces the ladder (tests use it to pin grades); grades come from ``cache``
    when it has them, and new ones are put in it (the caller saves it). Every puzzle that
    blocks the issue is found before the one error that names them all.
    """
    budget = budget or Budget(seconds=30.0)
    files = files if files is not None else PuzzleFiles()
    grade_puzzle = grader or (lambda p: grade_with_ladder(p, budget))
    warnings: list[str] = []
    blockers: list[str] = []
    errors: list[NonopressError] = []  # the blockers that were errors, to raise a lone one
    bad_input = False  # a blocker that is the file's fault, not its puzzle's verdict
    entries: list[IssueEntry] = []
    seen: dict[str, int] = {}  # puzzle key -> the number it was first printed as
    number = 0
    for ref in manifest.puzzles:
        try:
            puzzles = _load(ref, manifest, files)
        except NonopressError as exc:
            blockers.append(str(exc))
            errors.append(exc)
            bad_input = bad_input or not isinstance(exc, NotPublishable)
            number += 1
            continue
        for k, puzzle in enumerate(puzzles):
            number += 1
            label = f"{ref.path.name}" + (f" #{k + 1}" if len(puzzles) > 1 else "")
            label += f" (puzzle {number} of the issue)"
            oversized = too_big(puzzle)
            if oversized:
                blockers.append(f"{label} {oversized}")
                bad_input = True
                continue
            # a colour puzzle's hash is of its clues and colours: kept apart from black
            # and white ones
            key = puzzle.key() if isinstance(puzzle, Puzzle) else f"colour-{puzzle.key()}"
            grade = cache.get(key, budget) if cache else None
            if grade is None:
                if progress:
                    progress(f"grading {label}")
                grade = grade_puzzle(puzzle)
                if cache:
                    cache.put(key, budget, grade)
            blocker = _check_printable(grade, label, warnings)
            if blocker:
                blockers.append(blocker)
                continue
            try:
                solution: BoolArray | ColourArray = (
                    solution_of(puzzle, grade, budget, label) if isinstance(puzzle, Puzzle)
                    else colour_solution_of(puzzle, grade, budget, label))
            except NonopressError as exc:
                blockers.append(str(exc))
                errors.append(exc)
                continue
            border = empty_borders(puzzle) if isinstance(puzzle, Puzzle) else ""
            if border:
                warnings.append(f"{label}: {border}")
            first = seen.setdefault(puzzle.key(), number)
            if first != number:
                warnings.append(f"{label} is the same puzzle as puzzle {first}: it is printed "
                                "twice (listed twice in the manifest?)")
            title = ref.title if ref.title is not None else puzzle.title
            entries.append(
                IssueEntry(
                    number=number,
                    puzzle=puzzle,
                    grade=grade,
                    solution=solution,
                    title=title,
                    note=ref.note,
                    hide_title=ref.hide_title,
                    about=about_text(grade.minutes)
                    if manifest.minutes and grade.minutes is not None else "",
                    grey=manifest.grey,
                    date=ref.date,
                )
            )
    if len(blockers) == 1 and errors:
        raise errors[0]
    if blockers:
        count = len(blockers)
        raise ManyProblems(
            f"{count} puzzle{'s' * (count != 1)} of {manifest.source} "
            f"block{'s' * (count == 1)} the issue; fix {'them' if count > 1 else 'it'} "
            "and build again:",
            blockers,
            # a puzzle too big is bad input; one that is not unique is not publishable
            exit_status=2 if bad_input else NotPublishable.exit_status,
        )
    _warn_missing_glyphs(manifest, entries, warnings)
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
    if manifest.fillins and progress:
        progress(f"making {len(manifest.fillins)} fill-in(s)")
    fillins = build_fillins(manifest.fillins, len(entries) + 1, budget)
    return Issue(manifest, tuple(entries), tuple(warnings), fillins)


def _warn_missing_glyphs(
    manifest: Manifest, entries: list[IssueEntry], warnings: list[str]
) -> None:
    """Say which characters of the texts the PDF font cannot print (they print as '?')."""
    from layout.fonts import font_files, missing_characters

    texts = [manifest.title, manifest.issue, manifest.date, manifest.author]
    texts += [text for entry in entries for text in (entry.title, entry.note)]
    missing = missing_characters("".join(texts))
    if missing:
        listed = ", ".join(f"{ch} (U+{ord(ch):04X})" for ch in missing[:12])
        more = f" and {len(missing) - 12} more" if len(missing) > 12 else ""
        font = font_files()["NonopressSans"].name
        warnings.append(f"the PDF font ({font}) has no {listed}{more}: printed as '?'")


def _check_printable(grade: GradeInfo, label: str, warnings: list[str]) -> str:
    """What keeps the puzzle out of the issue ('' when it can be printed); warnings for
    what the editor should know about a printable one."""
    if grade.verdict == "multiple" or grade.level == "ambiguous":
        return f"{label}: {grade.problem or 'several solutions'}"
    if grade.verdict == "none" or grade.level == "contradictory":
        return f"{label}: {grade.problem or 'no solution'}"
    if grade.verdict != "unique":
        return (
            f"{label}: uniqueness not proved within the budget ({grade.verdict}); raise "
            "--grade-seconds, or find out with `nonopress check`"
        )
    if grade.stars is None:
        warnings.append(
            f"{label}: its grade was not finished within the budget: printed without stars "
            "(raise --grade-seconds)"
        )
    if grade.level == "needs-guessing":
        warnings.append(f"{label} needs guessing: logic alone does not solve it")
    return ""
