"""`nonopress web`: an issue manifest (or loose puzzle files) -> a static site.

The site: ``index.html`` (the issue: each puzzle with its level, stars and minutes),
``archive.html`` (every published puzzle by date), one ``puzzle-NN.html`` a puzzle with its
data in the page, the same data as ``puzzle-NN.json`` (for ``<nonopress-puzzle src=...>``),
``latest.json`` (today's puzzle), the player: its shell's script, a board script per kind
(``boards/``), its extras (habits, printing) and its style sheets, and ``.nonopress-site.json``
(what the build wrote, so a rebuild withdraws only its own files: ``ledger``). Grades and
their hint tables come through the issue's grade cache: each puzzle is graded once.
"""

from __future__ import annotations

import datetime as dt
import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from grader.atomic import atomic_write, refuse_links
from grader.errors import NonopressError
from grader.i18n import _, current, kind_label, level_name, shown_day
from grader.kinds import SECTION_KEYS, entry_of
from grader.ladder import grader_version
from grader.results import Budget
from layout.issue import Entry, IssueEntry
from layout.manifest import Manifest, PuzzleRef
from nonopress.app import CACHE_NAME
from nonopress.app.play import (
    PLAYER,
    clue_cell_record,
    compute_hints,
    nonogram_record,
    paged_record,
)
from nonopress.app.words import player_words
from nonopress.assets import BOARDS, FILES, asset_bytes, board_file
from nonopress.web.ledger import LEDGER, digest, read_ledger, remove_stale, write_ledger
from nonopress.web.pages import PageLink, archive_page, index_page, puzzle_page

if TYPE_CHECKING:
    from nonopress.catalogue.issue_link import IssueLibrary

GRADE_CACHE = CACHE_NAME


@dataclass(frozen=True)
class SiteOptions:
    output: Path
    cache_dir: Path | None  # None: grade afresh, keep nothing
    budget: Budget = field(default_factory=lambda: Budget(seconds=30.0))
    until: dt.date | None = None  # leave out what is dated later
    collect: str | None = None  # the solve collector's URL (issue 49), off without it


@dataclass(frozen=True)
class SiteReport:
    written: tuple[str, ...]
    published: int
    held_back: int
    warnings: tuple[str, ...]
    removed: tuple[str, ...] = ()  # what an earlier build wrote and this one withdrew


def is_manifest(path: Path) -> bool:
    """True when ``path`` is an issue manifest (a YAML mapping with puzzles or another
    kind's list), not a puzzle file."""
    if path.suffix.lower() not in (".yaml", ".yml") or not path.is_file():
        return False
    from grader import safe_yaml

    try:
        data = safe_yaml.load(path.read_text(encoding="utf-8-sig"))
    except Exception:  # not this function's to report: the puzzle reader will
        return False
    return isinstance(data, dict) and any(
        key in data for key in ("puzzles", *SECTION_KEYS, "from_library"))


def manifest_of(paths: Sequence[str]) -> Manifest:
    """The manifest named, or one made of loose puzzle files (titles hidden, as in an
    issue: they would give the picture away)."""
    from layout.manifest import load_manifest

    if len(paths) == 1 and is_manifest(Path(paths[0])):
        return load_manifest(paths[0])
    refs = []
    for name in paths:
        real = Path(os.path.realpath(name))
        refs.append(PuzzleRef(path=real, missing="" if real.exists() else name))
    return Manifest(source=Path(paths[0]), puzzles=tuple(refs), title="Nonograms")


def parse_day(text: str, what: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise NonopressError(f"{what}: expected a day as YYYY-MM-DD, got {text!r}") from None


def _day_of(text: str) -> dt.date | None:
    try:
        return dt.date.fromisoformat(text) if text else None
    except ValueError:  # a print date such as "November 2026": not a day to schedule by
        return None


def _heading(number: int, size: str, shown_title: str, kind: str = "") -> str:
    parts = [_("No. {number}", number=number), f"{kind_label(kind)}{size}"]
    if shown_title:
        parts.append(shown_title)
    return " \u00b7 ".join(parts)


def _facts(record: dict[str, Any]) -> str:
    grade = record["grade"]
    parts = [level_name(grade["level"])]
    if grade.get("stars"):
        parts.append("\u2605" * int(grade["stars"]))
    if grade.get("minutes") is not None:
        minutes = grade["minutes"]
        parts.append(_("about {minutes} min", minutes=round(minutes) if minutes >= 1 else "<1"))
    return " \u00b7 ".join(parts)


def build_site(manifest: Manifest, options: SiteOptions,
               progress: Callable[[str], None] | None = None,
               library: IssueLibrary | None = None) -> SiteReport:
    """Grade (or take from the caches), then write every file of the site. A manifest's
    ``from_library`` section is read from ``library``, as ``issue`` picked it."""
    from nonopress.app.issue import IssueOptions, Voice, grade_issue

    out = options.output
    if out.exists() and not out.is_dir():
        raise NonopressError(f"{out}: not a folder (the site is a folder of pages)")
    try:  # before any grading: a site that cannot be written costs no time
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise NonopressError(f"{out}: cannot make the folder ({exc.strerror or exc})") from None
    cache_dir = options.cache_dir
    # the issue pipeline of the application layer (graded, not paginated), with the grade
    # cache `issue` uses
    planned = grade_issue(manifest, IssueOptions(
        grade_seconds=options.budget.seconds or 30.0,
        cache=cache_dir / GRADE_CACHE if cache_dir else None),
        library=library, voice=Voice(say=progress or (lambda text: None)))
    issue = planned.issue
    version = grader_version()
    site = {"collect": options.collect, "player": PLAYER}
    issue_day = manifest.date
    records: list[tuple[str, dict[str, Any]]] = []
    held_back = 0
    for entry in issue.entries:
        day = entry.date or issue_day
        if not _due(day, options.until):
            held_back += 1
            continue
        records.append((f"puzzle-{entry.number:02d}", _with_words(
            _record(entry, options.budget, version, day, site, progress))))
    before = read_ledger(out)
    hashes = _write(out, manifest, records, options)
    # a puzzle no longer due (an earlier --until) is withdrawn: its page and data, when
    # they are still what a build of this site wrote
    removed = remove_stale(out, before, hashes)
    write_ledger(out, hashes)
    # the pipeline's warnings (the build's, an unsaved grade cache)
    warnings = [w for w in planned.warnings if w]
    return SiteReport(tuple(hashes), len(records), held_back, tuple(warnings),
                      tuple(removed))


def _due(day: str, until: dt.date | None) -> bool:
    when = _day_of(day)
    return until is None or when is None or when <= until


def _record(entry: Entry, budget: Budget, version: str, day: str, site: dict[str, Any],
            progress: Callable[[str], None] | None) -> dict[str, Any]:
    """The player's JSON of an entry of any kind: a puzzle block with the hint table its
    grade kept, or the record of a kind that lays out its own pages."""
    board = entry_of(entry.puzzle).board
    if board_file(board) is None:  # a kind the player has no board for yet
        raise NonopressError(f"puzzle {entry.number} ({entry.noun}): the web player has no "
                             f"board for it yet (nonopress/assets/boards/{board}.js)")
    block = entry.block()
    if block is None:
        meta = {"number": entry.number,
                "heading": _heading(entry.number, entry.size, entry.title,
                                    entry_of(entry.puzzle).label),
                "title": entry.title, "note": entry.note, "date": day,
                "solved_title": entry.title, "site": site}
        rows = entry.grade.solution
        if entry_of(entry.puzzle).hints and rows is not None:  # clues in the cells
            # a picture's title gives it away, as a nonogram's does: veiled until solved
            meta.update(heading=_heading(entry.number, entry.size, "",
                                         entry_of(entry.puzzle).label), title="")
            if progress:
                progress(f"hints for puzzle {entry.number}")
            return clue_cell_record(entry.puzzle, rows, entry.grade,
                                    compute_hints(entry.puzzle, budget), version, meta)
        return paged_record(entry.puzzle, entry.grade, version, meta)
    if progress:
        progress(f"hints for puzzle {entry.number}")
    hints = block.grade.hints
    if hints is None:  # a grade made without them (a grader of its own)
        hints = compute_hints(block.puzzle, budget)
    return _nonogram(block, hints, version, day, site)


def _with_words(record: dict[str, Any]) -> dict[str, Any]:
    """The record with the player's words in the reader's language (none in English)."""
    hints, grade = record.get("hints") or {}, record.get("grade") or {}
    words = player_words(current().language, hints.get("rungs", ()), grade.get("level", ""))
    return {**record, "catalogue": words} if words else record


def _nonogram(entry: IssueEntry, hints: dict[str, Any], version: str, day: str,
              site: dict[str, Any]) -> dict[str, Any]:
    puzzle = entry.puzzle
    kind = entry_of(puzzle).label
    meta = {
        "number": entry.number,
        "heading": _heading(entry.number, entry.size, entry.shown_title, kind),
        "title": entry.shown_title,
        "solved_title": entry.title,  # shown once solved, veiled until then (veiled_meta)
        "author": puzzle.meta.author,
        "note": entry.note,
        "date": day,
        "size_label": entry.size,
        "site": site,
    }
    return nonogram_record(puzzle, entry.solution, entry.grade, hints, version, meta)


def _write(out: Path, manifest: Manifest, records: list[tuple[str, dict[str, Any]]],
           options: SiteOptions) -> dict[str, str]:
    """Write every file; returns each name written with the SHA-256 of what it holds."""
    written: dict[str, str] = {}
    # a link planted in the site's folder is refused before any file is written, and no
    # file is written through one (a page replacing a file elsewhere, a site half written)
    refuse_links(out, [*FILES, *(f"{stem}.{ext}" for stem, _ in records
                                 for ext in ("json", "html")),
                       "index.html", "archive.html", "latest.json", LEDGER])

    def put(name: str, data: str | bytes) -> None:
        atomic_write(out / name, data, links=False)
        written[name] = digest(data)

    boards = out / BOARDS
    if boards.is_symlink() or (boards.exists() and not boards.is_dir()):
        raise NonopressError(f"{boards}: not a folder of this site (the player's boards go there)")
    try:
        boards.mkdir(exist_ok=True)
    except OSError as exc:
        raise NonopressError(f"{boards}: cannot make the folder ({exc.strerror or exc})") from None
    for name in FILES:
        put(name, asset_bytes(name))
    title = manifest.title
    links = []
    for stem, record in records:
        put(f"{stem}.json", json.dumps(record, ensure_ascii=False, separators=(",", ":")))
        put(f"{stem}.html", puzzle_page(record, title, options.collect))
        links.append(PageLink(f"{stem}.html", record["heading"], _facts(record),
                              record.get("date", "")))
    subtitle = " \u00b7 ".join(p for p in (_("Issue {issue}", issue=manifest.issue)
                                           if manifest.issue else "",
                                           shown_day(manifest.date)) if p)
    put("index.html", index_page(title, subtitle, links, options.collect, manifest.author,
                                 player_words(current().language)))
    put("archive.html", archive_page(title, links, options.collect))
    put("latest.json", json.dumps(_latest(records, options.until), indent=1) + "\n")
    return written


def _latest(records: list[tuple[str, dict[str, Any]]], until: dt.date | None
            ) -> dict[str, Any]:
    """Today's puzzle: the newest published one dated on or before today (``until``)."""
    today = until or dt.date.today()
    dated = [(day, stem, record) for stem, record in records
             if (day := _day_of(record.get("date", ""))) is not None and day <= today]
    if dated:
        day, stem, record = max(dated, key=lambda item: (item[0], item[2]["number"]))
    elif records:
        stem, record = records[-1]
    else:
        return {"page": None}
    return {"date": record.get("date", ""), "page": f"{stem}.html", "data": f"{stem}.json",
            "heading": record["heading"]}


__all__ = ["SiteOptions", "SiteReport", "build_site", "manifest_of", "parse_day"]
