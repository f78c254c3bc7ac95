"""The authoring pipeline: a picture -> a unique puzzle at the difficulty asked for."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from grader.authoring.clock import Clock, Progress, quiet
from grader.authoring.picture import SIDES, Fit, picture_from_file
from grader.authoring.result import Authored, BwAuthored
from grader.authoring.steer import MAX_CHANGE, grade_edit, steer
from grader.authoring.target import Target
from grader.authoring.unique import Edit, Mode, make_unique
from grader.model import BoolArray, Metadata
from grader.solver import compile_if_needed

#: why a hard target is so often missed: the level is named after the hardest rung needed,
#: and a puzzle that needs full line analysis yet no cell branching is one where owner
#: branching (with the rungs below it) stalls while line analysis goes on, which is rare
HARD_IS_RARE = ("hard means full line analysis is needed somewhere but cell branching "
                "nowhere; owner branching finds nearly all that line analysis finds, so "
                "such puzzles are rare (try --stars, or the level next to it)")


@dataclass(frozen=True)
class MakeOptions:
    """How to turn a picture into a puzzle (see ``nonopress make --help``)."""

    width: int
    height: int
    fit: Fit = "pad"
    threshold: float | None = None
    invert: bool = False
    edges: bool = False
    #: sides whose empty margins are trimmed (all four by default; () keeps the size)
    trim: tuple[str, ...] = SIDES
    mode: Mode = "flips"
    target: Target = field(default_factory=Target)
    seconds: float | None = 60.0
    seed: int = 0
    meta: Metadata = field(default_factory=Metadata)
    #: most cells steering may change, as a percentage of all cells
    max_change: float = MAX_CHANGE


def author(
    picture: BoolArray,
    *,
    mode: Mode = "flips",
    target: Target | None = None,
    seconds: float | None = 60.0,
    seed: int = 0,
    meta: Metadata | None = None,
    method: str = "",
    progress: Progress = quiet,
    givens: dict[tuple[int, int], bool] | None = None,
    max_change: float = MAX_CHANGE,
) -> BwAuthored:
    """Make ``picture`` (True = filled) a unique puzzle, steered to ``target``.

    ``mode`` "flips" changes pixels; "givens" prints cells instead and leaves the picture
    alone. Within ``seconds`` (None: no limit) the result is proved unique by the complete
    solver, or its verdict says why not. Steering changes at most ``max_change`` percent
    of the cells (counting the flips uniqueness needed); past that the nearest puzzle
    found stands.
    """
    target = target or Target()
    # compiling (once after installing) is not the job's time, and is announced where it
    # happens; a warm cache is left to load each kernel when first called (no message)
    compile_if_needed()
    clock = Clock(seconds, progress)
    edit = Edit.of(picture, givens)
    clock.say(f"making {picture.shape[1]}x{picture.shape[0]} unique by {mode}")
    make_unique(edit, mode, clock, seed)
    graded = None
    if edit.verdict == "unique":
        if target.wanted:
            clock.say(f"unique with {len(edit.flips)} flips, {len(edit.givens)} givens; "
                      f"steering to {target.describe()}")
            graded = steer(edit, target, mode, clock, seed, max_change=max_change)
        else:
            graded = grade_edit(edit, clock)
    note = ""
    if mode == "givens" and graded is not None and target.direction(target.measure(graded)) > 0:
        note = "givens only make a puzzle easier; without --givens, flips can make it harder"
    elif edit.capped and graded is not None and target.direction(target.measure(graded)) != 0:
        note = (f"steering stopped at {max_change:g}% of the cells changed (--max-change); "
                "more changes would spoil the picture")
    elif target.level == "hard" and graded is not None and graded.level != "hard":
        note = HARD_IS_RARE
    puzzle = edit.puzzle()
    if meta is not None:
        puzzle = puzzle.with_meta(**meta.as_dict())
    return Authored(
        puzzle=puzzle,
        original=edit.original,
        flips=tuple(sorted(edit.flips)),
        verdict=edit.verdict,
        grade=graded,
        target=target,
        time_s=clock.elapsed(),
        method=method,
        note=note,
    )


def make(source: str | os.PathLike[str] | bytes, options: MakeOptions,
         progress: Progress = quiet) -> BwAuthored:
    """Read a picture file and author a puzzle from it. Without --invert or --edges, the
    threshold, inverted and outline renderings are measured and the first that reads as
    the picture is made (:mod:`grader.authoring.likeness`); a warning says when none
    does."""
    from dataclasses import replace

    from grader.authoring.likeness import WAYS, Way, choose, renderings, unreadable
    from grader.authoring.picture import load_grey
    from grader.errors import FormatError, PuzzleError

    label = str(source) if not isinstance(source, bytes) else "<picture>"
    grey = load_grey(source)
    asked: Way | None = "outlines" if options.edges else "inverted" if options.invert \
        else None
    try:
        found = renderings(grey, options.width, options.height, fit=options.fit,
                           threshold=options.threshold, trim=options.trim,
                           ways=WAYS if asked is None else (asked,))
        if not found or (asked is None and found[0].way != "threshold"):
            # nothing to choose from, or a blank picture (whose negative is all ink): the
            # plain rendering as asked, with binarise's error or warning naming the picture
            plain = picture_from_file(source, options.width, options.height, fit=options.fit,
                                      threshold=options.threshold, invert=options.invert,
                                      edges=options.edges, trim=options.trim)
            found = []
    except PuzzleError as exc:
        raise FormatError(str(exc), label) from None
    if not found:
        return author(plain.picture, mode=options.mode, target=options.target,
                      seconds=options.seconds, seed=options.seed, meta=options.meta,
                      method=plain.method, progress=progress, max_change=options.max_change)
    chosen = choose(found)
    method = chosen.binarised.method
    if asked is None and chosen.way != "threshold":
        method = f"{method} (the threshold did not read as the picture: {chosen.way} does)"
    result = author(
        chosen.binarised.picture, mode=options.mode, target=options.target,
        seconds=options.seconds, seed=options.seed, meta=options.meta, method=method,
        progress=progress, max_change=options.max_change,
    )
    warning = unreadable(chosen, found)
    return replace(result, likeness=chosen.likeness, picture_ink=chosen.ink,
                   warnings=result.warnings + ((warning,) if warning else ()))
