"""Puzzles for a syndication partner: one file per puzzle and one per solution in each
format asked for (SVG, PDF, EPS, PNG), and a feed (JSON) describing them: title, date,
level, stars, minutes, size, author, licence and the files' names.

The puzzle's art is captioned with its size alone (its title would give the picture away,
unless ``SetOptions.title`` asks for it), the solution's with the title too. Every puzzle is
graded (level, stars and minutes come from the grade, never guessed) and its
solution is the file's own or the one the solver proves; a puzzle without one unique
solution is refused by name, since a partner cannot print it. Files are written atomically
and named after the title (else the file), so that a second run writes the same names.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from grader.atomic import atomic_write, refuse_links
from grader.errors import FormatError, NonopressError, PuzzleError
from grader.kinds import kind_of
from grader.results import Budget
from nonopress.app.loading import LoadedPuzzle

#: the formats a set may be drawn in
SET_FORMATS = ("svg", "pdf", "eps", "png")
FEED_VERSION = 1


@dataclass(frozen=True)
class SetOptions:
    formats: tuple[str, ...] = ("svg", "pdf", "eps")
    date: str = ""  #: YYYY-MM-DD the feed gives every item (default: today, UTC)
    cell: float = 14.0
    seconds: float = 10.0
    feed: str = "feed.json"  #: the feed's file name in the folder ("" for none)
    #: caption the puzzle's art with its title too (a title gives the picture away: the
    #: solution's art carries it, the puzzle's only when asked)
    title: bool = False


@dataclass
class SetResult:
    items: list[dict[str, Any]] = field(default_factory=list)
    written: list[Path] = field(default_factory=list)
    #: what the partner will see that the editor may not have meant (titles)
    warnings: list[str] = field(default_factory=list)

    @property
    def feed(self) -> dict[str, Any]:
        return {"version": FEED_VERSION, "items": self.items}


def slug(text: str) -> str:
    """A file name's stem from a title: ASCII letters, digits and hyphens."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")[:60]


def _names(puzzles: Sequence[LoadedPuzzle]) -> list[str]:
    """One stem per puzzle: its title's slug (else its file's and index), numbered when two
    would be the same."""
    stems: list[str] = []
    seen: dict[str, int] = {}
    for loaded in puzzles:
        base = slug(loaded.puzzle.title) or slug(Path(loaded.file).stem) or "puzzle"
        if loaded.count > 1 and not slug(loaded.puzzle.title):
            base = f"{base}-{loaded.index}"
        seen[base] = seen.get(base, 0) + 1
        stems.append(base if seen[base] == 1 else f"{base}-{seen[base]}")
    return stems


def render_set(puzzles: Sequence[LoadedPuzzle], folder: Path,
               options: SetOptions = SetOptions()) -> SetResult:
    """Draw every puzzle and its solution into ``folder`` and write the feed there."""
    from layout.render import caption_of, check_size, puzzle_page, render

    unknown = [f for f in options.formats if f not in SET_FORMATS]
    if unknown or not options.formats:
        raise NonopressError(f"formats: {', '.join(unknown) or 'none given'}; choose from "
                             f"{', '.join(SET_FORMATS)}")
    date = options.date or dt.datetime.now(dt.timezone.utc).date().isoformat()
    try:
        dt.date.fromisoformat(date)
    except ValueError:
        raise NonopressError(f"date {date!r} is not YYYY-MM-DD") from None
    feed = options.feed
    if feed and (feed in (".", "..") or Path(feed).name != feed or "\\" in feed):
        raise NonopressError(f"--feed {feed[:80]!r}: a file name in {folder}, not a path "
                             "(the feed is written beside the drawings)")
    if folder.exists() and not folder.is_dir():
        raise NonopressError(f"{folder}: not a folder")
    try:  # before any grading: a folder that cannot be made costs no time
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise NonopressError(f"{folder}: cannot make the folder: {exc.strerror or exc}") \
            from None
    from grader.wording import title_warnings

    result = SetResult(warnings=title_warnings(
        [(loaded.label, loaded.puzzle.title) for loaded in puzzles], "the feed and the solutions"))
    budget = Budget(seconds=options.seconds)
    for loaded in puzzles:  # every drawing within the bounds before any is graded
        for fmt in options.formats:
            try:
                check_size(loaded.puzzle, options.cell, fmt)
            except PuzzleError as exc:
                raise FormatError(str(exc), loaded.label) from None
    stems = _names(puzzles)
    # a link planted among the outputs stops the set before any file is drawn or written
    refuse_links(folder, [*(f"{stem}{part}.{fmt}" for stem in stems
                            for part in ("", "-solution") for fmt in options.formats),
                          *([feed] if feed else [])])
    for loaded, stem in zip(puzzles, stems, strict=True):
        puzzle = loaded.puzzle
        kind = kind_of(puzzle)
        graded = kind.grade(None, budget)
        solution = puzzle.solution_array()
        if solution is None:
            solved = kind.solve(2, budget)
            if solved.verdict == "unique" and solved.solutions:
                solution = solved.solutions[0]
        if graded.verdict != "unique" or solution is None:
            raise FormatError(f"not one unique solution ({graded.verdict}): a partner cannot "
                              "print it", loaded.label)
        files: dict[str, dict[str, str]] = {"puzzle": {}, "solution": {}}
        for part, drawn in (("puzzle", None), ("solution", solution)):
            caption = caption_of(puzzle, title=part == "solution" or options.title)
            page = puzzle_page(puzzle, drawn, caption, cell=options.cell)
            for fmt in options.formats:
                name = f"{stem}.{fmt}" if part == "puzzle" else f"{stem}-solution.{fmt}"
                path = folder / name
                try:
                    atomic_write(path, render(page, fmt), links=False)
                except OSError as exc:
                    raise NonopressError(f"cannot write {path}: {exc.strerror or exc}") \
                        from None
                files[part][fmt] = name
                result.written.append(path)
        meta = puzzle.meta
        result.items.append({
            "id": stem, "key": puzzle.key(), "title": puzzle.title, "date": date,
            "kind": kind.name, "width": puzzle.width, "height": puzzle.height,
            "level": graded.level, "score": graded.score, "stars": graded.stars,
            "minutes": graded.minutes, "author": meta.author, "licence": meta.license,
            "copyright": meta.copyright, "source": meta.source, "files": files,
        })
    if options.feed:
        path = folder / options.feed
        try:
            atomic_write(path, json.dumps(result.feed, indent=1, ensure_ascii=False) + "\n",
                         links=False)
        except OSError as exc:
            raise NonopressError(f"cannot write {path}: {exc.strerror or exc}") from None
        result.written.append(path)
    return result
