"""Manifest -> Issue: read every puzzle, grade it (or take the cached grade), find its
solution, number it. Puzzles that cannot be printed (unreadable, several solutions, none,
uniqueness not proved, far too big) are errors, all of them named in one message."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Sequence
from dataclasses import replace
from typing import Any, cast

from grader.colour.model import AnyPuzzle
from grader.errors import FormatError, ManyProblems, NonopressError, NotPublishable
from grader.i18n import N_, _, rung_name
from grader.kinds import KINDS, cache_key, kind_of
from grader.minutes import about_text
from grader.results import Budget
from grader.techniques.base import Step
from grader.wording import title_warnings
from layout.gradecache import MAX_STEPS, GradeCache
from layout.issue import Entry, GradeInfo, Issue, IssueEntry
from layout.kinds import ROUTINE_RUNGS, drawing_module, drawing_of
from layout.manifest import Manifest, PuzzleRef
from layout.puzzlefiles import PuzzleFiles

Grader = Callable[[AnyPuzzle], GradeInfo]
#: what a face keeps of a fresh grade beside what print needs (the player's hint table),
#: made from the one grade so that nothing is graded twice
Keep = Callable[[AnyPuzzle, Any], dict[str, Any]]


#: Solves this short are worked through step by step in full (over as many pages as
#: they need): an easy 10x10 takes about 50 steps.
FULL_WORKED_STEPS = 100
#: How many routine steps open a long solve in full, to show how it starts.
OPENING_STEPS = 3
#: The largest puzzle an issue prints: a bigger "puzzle" is a photo or a drawing that
#: needs turning into a puzzle first (``nonopress make``), not a page of 1 mm cells.
MAX_PRINT_SIDE = 100


#: how a run of routine steps is summarised, for one step and for several
LINE_SUMMARY = (N_("Step {n}: routine line logic ({counts})."),
                N_("Steps {first}-{last}: routine line logic ({counts})."))


def worked_lines(steps: Sequence[Any], puzzle: Any, routine: Collection[str] = ROUTINE_RUNGS,
                 summary: tuple[str, str] = LINE_SUMMARY) -> tuple[str, ...]:
    """Numbered lines for a worked solution, each step in the words of the puzzle's kind.

    A short solve is given in full. In a long one, the steps a reader needs to see (owner
    branching and harder) stay in full, while runs of ``routine`` steps (the rungs of the
    kind's lowest level) are summarised in one line each (``summary``), after the first few
    that show how the solve starts.
    """
    say = _sentences(puzzle)
    if len(steps) <= FULL_WORKED_STEPS:
        return tuple(f"{k}. {say(s)}" for k, s in enumerate(steps, start=1))
    lines: list[str] = []
    run: list[int] = []  # step numbers of the current routine run
    run_rungs: Counter[str] = Counter()

    def close_run() -> None:
        if run:
            # "simple boxes 12": the summary always spelt the rung's name with spaces
            counts = _(", ").join(f"{rung_name(name).replace('-', ' ')} {n}"
                                  for name, n in run_rungs.items())
            if len(run) == 1:
                lines.append(_(summary[0], n=run[0], counts=counts))
            else:
                lines.append(_(summary[1], first=run[0], last=run[-1], counts=counts))
            run.clear()
            run_rungs.clear()

    for k, step in enumerate(steps, start=1):
        if step.rung in routine and k > OPENING_STEPS:
            run.append(k)
            run_rungs[step.rung] += 1
            continue
        close_run()
        lines.append(f"{k}. {say(step)}")
    close_run()
    if len(lines) > MAX_STEPS:  # said, never silent: the whole solve is one command away
        cut = len(lines) - MAX_STEPS + 1
        lines = lines[: MAX_STEPS - 1]
        lines.append(_(
            "... {cut} more lines of this solve are not printed; "
            "`nonopress grade --explain` gives every step.", cut=cut
        ))
    return tuple(lines)


def _sentences(puzzle: Any) -> Callable[[Any], str]:
    """The sentence of each step, in the words of the puzzle's kind (a kind with no line
    clues, the mosaic, says its steps through the same slot)."""
    return kind_of(puzzle).sentence


def worked_grids(steps: Sequence[Step], puzzle: AnyPuzzle, lines: Sequence[str]
                 ) -> tuple[tuple[int, tuple[str, ...]], ...]:
    """The small grids of a worked solution, as the puzzle's kind draws them
    (:meth:`layout.kinds.KindDrawing.worked_grids`)."""
    return drawing_of(puzzle).worked_grids(kind_of(puzzle), steps, lines)


def grade_with_ladder(puzzle: AnyPuzzle, budget: Budget, keep: Keep | None = None
                      ) -> GradeInfo:
    """Grade with the puzzle's kind's ladder: the record an issue prints, with the
    solution the grade proved (layout never solves a puzzle itself) and its worked
    solution's lines and grids as the kind's drawing describes them; ``keep`` adds what a
    face makes of the same grade (the hint table)."""
    kind = kind_of(puzzle)
    result = kind.grade(None, budget)
    lines = worked_lines(result.steps, puzzle)
    drawing = drawing_of(puzzle)
    info = GradeInfo.from_grade(result, lines, drawing.worked_grids(kind, result.steps, lines),
                                drawing.solution_record(puzzle, kind.proved_rows(result)))
    return info if keep is None else replace(info, hints=keep(puzzle, result))


def solution_of(puzzle: AnyPuzzle, grade: GradeInfo, label: str) -> Any:
    """The picture printed with the solutions: the file's own, else the one the grade
    proved (the grader never solves a puzzle twice, and layout never solves one)."""
    known = puzzle.solution_array()
    if known is not None:
        return known
    picture = None if grade.solution is None else drawing_of(puzzle).picture(puzzle,
                                                                          grade.solution)
    if picture is None:
        raise NotPublishable(f"{label}: its grade ({grade.verdict}) holds no solution to "
                             "print; grade it afresh (--no-cache)")
    return picture


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
        puzzles = files.read_any(ref.path)
    except NonopressError:  # the black-and-white reader's message describes it best
        puzzles = files.read(ref.path)
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
    keep: Keep | None = None,
) -> Issue:
    """Load, grade and number the puzzles of ``manifest``.

    ``files`` holds the puzzle files this build has read (each is read once, however many
    entries name it); a fresh one is made when not given.

    ``grader`` replaces the ladder (tests use it to pin grades); grades come from ``cache``
    when it has them, and new ones are put in it (the caller saves it). Every puzzle that
    blocks the issue is found before the one error that names them all. ``keep`` makes
    what a face keeps of each fresh grade (cached with it); a cached grade without it is
    graded again.
    """
    budget = budget or Budget(seconds=30.0)
    files = files if files is not None else PuzzleFiles()
    grade_puzzle = grader or (lambda p: grade_with_ladder(p, budget, keep))
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
            # kept apart by the kind's tag (a colour puzzle's hash is of its clues and
            # colours, never a black-and-white one's)
            key = cache_key(puzzle)
            grade = cache.get(key, budget) if cache else None
            if grade is None or (keep is not None and grade.hints is None):
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
                solution = solution_of(puzzle, grade, label)
            except NonopressError as exc:
                blockers.append(str(exc))
                errors.append(exc)
                continue
            warnings.extend(f"{label}: {said}" for said in kind_of(puzzle).warnings())
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
                    about=about_text(grade.minutes, puzzle.size)
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
    _warn_silent_changes(manifest, entries, warnings)
    if cache and cache.warning:
        warnings.insert(0, cache.warning)
    built: list[Entry] = list(entries)
    for kind in KINDS:  # the kinds read from a list of their own, numbered after the puzzles
        items = manifest.sections.get(kind.manifest_key, ())
        if not items:
            continue
        if progress:
            progress(f"making {len(items)} {kind.name}(s)")
        built += drawing_module(kind.drawing).build_entries(items, len(built) + 1, budget)
    return Issue(manifest, tuple(_mark_worked(manifest, built)), tuple(warnings))


def _has_worked(entry: Entry) -> bool:
    """Whether the entry's kind prints worked solutions (a kind whose grade logs no steps
    has none: its paged drawing gives no ``worked``)."""
    paged = entry.paged
    return paged is None or paged.worked is not None


def _mark_worked(manifest: Manifest, built: list[Entry]) -> list[Entry]:
    """The entries with ``worked`` set where the manifest's ``worked`` names them (``all``:
    every entry whose kind has worked solutions, mosaics too)."""
    worked = manifest.worked
    numbers = set(range(1, len(built) + 1)) if worked == "all" else set(worked)
    beyond = sorted(n for n in numbers if n > len(built))
    if beyond:
        raise FormatError(
            f"worked: no puzzle number {beyond[0]} (the issue has {len(built)})",
            str(manifest.source),
        )
    if worked != "all":
        for entry in built:
            if entry.number in numbers and not _has_worked(entry):
                raise FormatError(f"worked: puzzle {entry.number} is a {entry.noun}, which "
                                  "has no worked solution", str(manifest.source))
    return [replace(cast(Any, entry), worked=entry.number in numbers and _has_worked(entry))
            for entry in built]


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
        font = next(iter(font_files().values())).name
        warnings.append(f"the PDF font ({font}) has no {listed}{more}: printed as '?'")


def _warn_silent_changes(manifest: Manifest, entries: list[IssueEntry],
                         warnings: list[str]) -> None:
    """Say what the build changes or prints that the editor did not write: colour puzzles
    greyed for a black-ink interior, titles that two puzzles share or that look like a file
    name (they reach the solutions, the feed and the site)."""
    rules = manifest.profile.rules
    greyed = [e.number for e in entries if e.grey and kind_of(e.puzzle).in_colour() is not None]
    if greyed and rules.grey_unless_asked and not manifest.colour_asked:
        named = ", ".join(str(n) for n in greyed)
        warnings.append(
            f"colour puzzle{'s' * (len(greyed) != 1)} {named} printed in grey tints with "
            f"symbols: a {rules.printer} interior is black ink unless the manifest says "
            "ink: colour")
    warnings.extend(title_warnings([(f"puzzle {e.number}", e.title) for e in entries],
                                   "the solutions and the site"))


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
