"""A book's front matter and back page, from the manifest's ``front_matter`` section::

    front_matter:
      subtitle: 100 picture puzzles     # under the title on the title page
      publisher: Nonopress Press        # at the foot of the title page
      copyright: (c) 2026 Nonopress Press. All rights reserved.
      edition: First edition, 2026
      isbn: 978-1-234567-89-7
      how_to_solve: true                # a page of the rules, with a worked 5x5
      barcode_space: true               # a back page keeping KDP's barcode box clear

A title page (the manifest's title, the subtitle, its author, the publisher), a copyright
page (the lines given, the credits of the puzzles' setters and the tool that checked them)
and, when asked, a page on how to solve a nonogram come before the contents; the pages
carry no running head or folio, as a book's front matter does not. ``barcode_space`` ends
the book with a back page whose lower outside corner (KDP's 2 x 1.2 in barcode box, a
quarter inch from the trim) stays white.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from grader.errors import NonopressError
from grader.i18n import N_, _, ngettext, shown_day
from grader.wording import STARS_AND_MINUTES
from layout.draw import Op, Text
from layout.fonts import fit_size, wrap_words
from layout.units import INCH


class Planner(Protocol):
    """What the front matter asks of the plan (layout.plan.Planner), named here so that
    the front matter, which the manifest reads, never imports the plan (no circle)."""

    @property
    def area(self) -> Any: ...
    @property
    def sizes(self) -> Any: ...
    @property
    def manifest(self) -> Any: ...
    @property
    def issue(self) -> Any: ...
    @property
    def profile(self) -> Any: ...
    @property
    def smallest_text(self) -> float: ...

    def page(self, kind: str) -> Any: ...

KEYS = ("subtitle", "publisher", "copyright", "edition", "isbn", "how_to_solve",
        "barcode_space")
#: KDP's barcode box on a back cover, and how far it stands from the trim
BARCODE_WIDTH, BARCODE_HEIGHT, BARCODE_INSET = 2.0 * INCH, 1.2 * INCH, 0.25 * INCH
#: the worked example of the how-to page: a small house (a roof, a door)
EXAMPLE = ("..#..", ".###.", "#####", "#.#.#", "###.#")
RULES = (
    N_("Each number beside a row or above a column is the length of a block of filled cells "
    "in that line, in order; blocks in the same line are parted by at least one empty cell."),
    N_("Fill cells you can prove from the numbers: a block longer than half its line always "
    "covers its middle; a line whose numbers add up to its length (with one gap between "
    "blocks) is filled exactly. Mark cells you know are empty with a dot."),
    N_("Work back and forth between rows and columns: each cell decided in a row tells its "
    "column something new."),
)
#: the levels a person reaches by reasoning alone (the grader's ladder finished the grid)
LOGIC_LEVELS = frozenset({"easy", "medium", "hard", "fiendish"})


def _numbers(numbers: list[int]) -> str:
    named = [_("No. {number}", number=n) for n in numbers]
    return named[0] if len(named) == 1 else _(
        "{first} and {last}", first=_(", ").join(named[:-1]), last=named[-1])


def _exception(level: str, numbers: list[int]) -> str:
    """Why the puzzles ``numbers`` of ``level`` fall outside the promise, as one clause."""
    named, count = _numbers(numbers), len(numbers)
    if level == "needs-guessing":
        return ngettext("{numbers} needs guessing", "{numbers} need guessing", count,
                        numbers=named)
    if level == "ambiguous":
        return ngettext("{numbers} has more than one solution",
                        "{numbers} have more than one solution", count, numbers=named)
    if level == "contradictory":
        return ngettext("{numbers} has no solution", "{numbers} have no solution", count,
                        numbers=named)
    return ngettext("{numbers} was not fully graded", "{numbers} were not fully graded",
                    count, numbers=named)


def promise(levels: list[tuple[int, str]], in_book: bool = True) -> str:
    """What the book may promise of its puzzles, true of each of them: ``levels`` holds
    (number, level) of every puzzle. The ones reasoning alone does not solve are named as
    exceptions ("Every puzzle but No. 2 ...; No. 2 needs guessing."). ``in_book`` False
    gives the copyright page's form, which says the promise was checked with nonopress.
    Each sentence is translated whole (grader/locale)."""
    odd = [(number, level) for number, level in levels if level not in LOGIC_LEVELS]
    if not odd:
        return (_("Every puzzle in this book has exactly one solution, found by reasoning "
                  "alone: no guessing is needed.") if in_book else
                _("Every puzzle has exactly one solution, found by reasoning alone: no "
                  "guessing is needed (checked with nonopress)."))
    but = _numbers([number for number, _level in odd])
    if len(odd) == len(levels):
        head = (_("Not every puzzle in this book can be solved by reasoning alone")
                if in_book else _("Not every puzzle can be solved by reasoning alone"))
    else:
        head = (_("Every puzzle in this book but {numbers} has exactly one solution, found "
                  "by reasoning alone", numbers=but) if in_book else
                _("Every puzzle but {numbers} has exactly one solution, found by reasoning "
                  "alone", numbers=but))
    by_level: dict[str, list[int]] = {}
    for number, level in odd:  # every level the ladder did not finish reads as one clause
        known = level in ("needs-guessing", "ambiguous", "contradictory")
        by_level.setdefault(level if known else "other", []).append(number)
    clauses = _("; ").join(_exception(level, numbers) for level, numbers in by_level.items())
    if in_book:
        return _("{head}; {clauses}.", head=head, clauses=clauses)
    return _("{head}; {clauses} (checked with nonopress).", head=head, clauses=clauses)


@dataclass(frozen=True)
class FrontMatter:
    subtitle: str = ""
    publisher: str = ""
    copyright: str = ""
    edition: str = ""
    isbn: str = ""
    how_to_solve: bool = False
    barcode_space: bool = False


def parse_front_matter(value: object) -> FrontMatter:
    """The section as written; a NonopressError naming what is wrong."""
    if value is True:
        return FrontMatter()
    if not isinstance(value, dict):
        raise NonopressError("front_matter: expected a mapping (subtitle, publisher, copyright, "
                             "edition, isbn, how_to_solve, barcode_space) or true")
    unknown = [key for key in value if key not in KEYS]
    if unknown:
        raise NonopressError(f"front_matter: unknown key {unknown[0]!r} (known keys: "
                             f"{', '.join(KEYS)})")
    fields: dict[str, Any] = {}
    for key, item in value.items():
        if key in ("how_to_solve", "barcode_space"):
            if not isinstance(item, bool):
                raise NonopressError(f"front_matter: {key}: expected true or false")
            fields[key] = item
        elif item is not None:
            if not isinstance(item, (str, int, float)) or isinstance(item, bool):
                raise NonopressError(f"front_matter: {key}: expected text")
            fields[key] = str(item).strip()
    return FrontMatter(**fields)


def front_pages(planner: Planner, front: FrontMatter) -> list[Any]:
    """The title page, the copyright page and (when asked) the how-to-solve page."""
    pages = [_title_page(planner, front), _copyright_page(planner, front)]
    if front.how_to_solve:
        pages.append(_how_to_page(planner, _issue_levels(planner)))
    return pages


def _issue_levels(planner: Planner) -> list[tuple[int, str]]:
    """(number, level) of each nonogram of the issue."""
    return [(entry.number, entry.grade.level) for entry in planner.issue.entries]


def _centred(planner: Planner, page: Any, text: str, y: float, size: float,
             bold: bool = False) -> float:
    """``text`` centred on the content area, wrapped when too wide; the baseline after it."""
    area = planner.area
    fitted = fit_size(text, size, area.width, bold, planner.smallest_text)
    lines = [text] if fitted is not None else wrap_words(text, planner.smallest_text,
                                                         area.width, bold)
    size = fitted or planner.smallest_text
    for line in lines:
        page.ops.append(Text(area.left + area.width / 2, y, line, size, bold=bold,
                             anchor="center"))
        y -= size * 1.3
    return y


def _title_page(planner: Planner, front: FrontMatter) -> Any:
    area, sizes = planner.area, planner.sizes
    manifest = planner.manifest
    page = planner.page("front")
    y = area.top - area.height / 3
    y = _centred(planner, page, manifest.title, y, sizes.pt(30), bold=True)
    if front.subtitle:
        y = _centred(planner, page, front.subtitle, y - sizes.band(6), sizes.pt(15))
    if manifest.author:
        _centred(planner, page, manifest.author, y - sizes.band(30), sizes.pt(13))
    if front.publisher:
        _centred(planner, page, front.publisher, area.bottom + sizes.band(20), sizes.pt(11))
    return page


def _copyright_page(planner: Planner, front: FrontMatter) -> Any:
    area, sizes = planner.area, planner.sizes
    manifest = planner.manifest
    page = planner.page("front")
    lines = [_("{title} \u00b7 Issue {issue}", title=manifest.title, issue=manifest.issue)
             if manifest.issue else manifest.title]
    lines += [text for text in (front.copyright, front.edition,
                                _("ISBN {isbn}", isbn=front.isbn) if front.isbn else "") if text]
    # a puzzle that names no setter is the manifest's author's (the book's own)
    credits = sorted({text for entry in planner.issue.entries
                      if (text := _credit(entry, manifest.author))})
    if credits:
        lines.append(_("Puzzles: {credits}.", credits=_("; ").join(credits)))
    lines.append(promise(_issue_levels(planner), in_book=False))
    size = sizes.pt(8)
    wrapped = [row for line in lines for row in wrap_words(line, size, area.width)]
    y = area.bottom + (len(wrapped) - 1) * size * 1.4  # set at the foot of the page
    for row in wrapped:
        page.ops.append(Text(area.left, y, row, size))
        y -= size * 1.4
    return page


def _credit(entry: Any, author: str) -> str:
    """A puzzle's credit line: its setter (or the book's ``author``), copyright, licence."""
    meta = entry.puzzle.meta
    setter = meta.author or author
    parts = [_("by {author}", author=setter) if setter else "", meta.copyright, meta.license]
    return ", ".join(p for p in parts if p)


def _how_to_page(planner: Planner, levels: list[tuple[int, str]]) -> Any:
    from grader.model import Puzzle
    from layout.geometry import BlockGeometry
    from layout.kinds import puzzle_ops

    area, sizes = planner.area, planner.sizes
    page = planner.page("front")
    heading = sizes.pt(16)
    page.ops.append(Text(area.left, area.top - heading, _("How to solve a nonogram"), heading,
                         bold=True))
    y = area.top - heading - sizes.band(24)
    body = sizes.pt(10)
    rules = [_(paragraph) for paragraph in RULES]
    rules[-1] += " " + promise(levels)
    for paragraph in (*rules, _(STARS_AND_MINUTES)):
        for line in wrap_words(paragraph, body, area.width):
            page.ops.append(Text(area.left, y, line, body))
            y -= body * 1.35
        y -= body * 0.8
    example = Puzzle.from_picture(list(EXAMPLE))
    geometry = BlockGeometry.of(example)
    cell = min(planner.sizes.max_cell * 1.5, (area.width / 2 - 12) / geometry.total_width)
    top = y - sizes.band(10)
    ops: list[Op] = []
    ops += puzzle_ops(example, geometry, area.left, top, cell, profile=planner.profile)
    right = area.left + area.width / 2 + 6
    ops += puzzle_ops(example, geometry, right, top, cell, solution=example.solution_array(),
                      profile=planner.profile)
    page.ops.extend(ops)
    below = top - geometry.total_height * cell - sizes.band(14)
    small = sizes.pt(9)
    page.ops.append(Text(area.left, below, _("A puzzle ..."), small))
    page.ops.append(Text(right, below, _("... and its solution."), small))
    return page


def back_page(planner: Planner) -> Any:
    """The last page, its barcode box left white: the issue's title and date at its head,
    nothing else (the running head and folio are not drawn on it)."""
    area, sizes = planner.area, planner.sizes
    page = planner.page("back")
    manifest = planner.manifest
    line = " \u00b7 ".join(p for p in (manifest.title, shown_day(manifest.date)) if p)
    page.ops.append(Text(area.left, area.top - sizes.pt(10), line, sizes.pt(10)))
    return page


def barcode_box(page_width: float) -> tuple[float, float, float, float]:
    """(left, bottom, width, height) of the barcode box on a back page of ``page_width``
    (trim coordinates: the lower outside corner, BARCODE_INSET from the trim)."""
    return (page_width - BARCODE_INSET - BARCODE_WIDTH, BARCODE_INSET, BARCODE_WIDTH,
            BARCODE_HEIGHT)
