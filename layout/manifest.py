"""The issue manifest: a short YAML file naming the puzzles of an issue and how to print it.

Parsed with the safe loader after a look at its shape (:mod:`grader.safe_yaml`); every key
is checked, and an unknown key is a :class:`FormatError` naming the manifest, the line
and the key. A missing puzzle file is recorded on its item (``missing``) so that the build
reports it beside every other problem of the issue, at its line.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import yaml

from grader import safe_yaml
from grader.errors import FormatError, NonopressError
from grader.inputs import read_input_bytes
from grader.kinds import KINDS, SECTION_KEYS
from grader.text import clean
from layout.frontmatter import FrontMatter, parse_front_matter
from layout.kinds import drawing_module
from layout.profiles import (
    PLAIN,
    Profile,
    parse_output_condition,
    parse_profile_name,
)
from layout.units import MM, PageSize, parse_length, parse_page_size

TOP_KEYS = (
    "title", "issue", "date", "author", "page", "margins", "bleed", "crop_marks", "per_page",
    "solutions", "worked", "puzzles", "hide_titles", "ink", "booklet",
    "profile", "large_print", "output_condition", "pad_pages", *SECTION_KEYS, "minutes",
    "from_library",  # puzzles picked from the catalogue: kept as read, resolved by nonopress
    "front_matter",
    "language",  # the reader's language, a BCP 47 tag (grader/i18n.py)
)
PUZZLE_KEYS = ("file", "title", "note", "hide_title", "index", "date")
MARGIN_SIDES = ("top", "bottom", "left", "right")
MAX_PER_PAGE = 12


@dataclass(frozen=True)
class Margins:
    top: float
    bottom: float
    left: float
    right: float


@dataclass(frozen=True)
class PuzzleRef:
    """One item of the manifest's ``puzzles`` list, its path resolved against the manifest."""

    path: Path
    title: str | None = None
    note: str = ""
    hide_title: bool = True
    index: int | None = None  # 1-based position in a file holding several puzzles
    line: int | None = None  # where the item is in the manifest, for error messages
    #: the path as written, when no file is there: the build names it with every other
    #: problem of the issue instead of stopping at the first
    missing: str = ""
    #: the day the puzzle is published on the web (``nonopress web``), "" for the issue's
    date: str = ""


@dataclass(frozen=True)
class Manifest:
    source: Path
    puzzles: tuple[PuzzleRef, ...]
    title: str = "Nonograms"
    issue: str = ""
    date: str = ""
    author: str = ""
    page: PageSize = field(default_factory=lambda: parse_page_size("A4"))
    margins: Margins = Margins(15 * MM, 15 * MM, 15 * MM, 15 * MM)
    bleed: float = 0.0
    crop_marks: bool = False
    per_page: int | None = None  # None = auto
    solutions: bool = True
    #: issue numbers (1-based) that get worked-solution pages, or "all"
    worked: tuple[int, ...] | Literal["all"] = ()
    grey: bool = False
    booklet: bool = False  # pad the page count to a multiple of 4
    impose: bool = False  # and print sheet sides of two pages in saddle-stitch order
    #: the items of each kind's own list (grader.kinds.SECTION_KEYS), numbered after the
    #: puzzles
    sections: dict[str, tuple[Any, ...]] = field(default_factory=dict, hash=False)
    #: the printer's rules the layout follows (see layout.profiles)
    profile: Profile = PLAIN
    #: ``ink: colour`` was written out (a KDP book is grey unless asked)
    colour_asked: bool = False
    #: ``bleed: true``: the profile's own bleed (KDP 0.125 in, otherwise 3 mm)
    bleed_default: bool = False
    #: pad a book to the printer's least page count with puzzle-free pages
    pad_pages: bool = False
    #: print "about N min" under each puzzle (the grade's minutes)
    minutes: bool = False
    #: the ``from_library`` section as written (None: there is none): the layout never
    #: sees the catalogue, it keeps the section so that the manifest is read only once
    from_library: Any = field(default=None, hash=False)
    #: title, copyright and how-to-solve pages, a back page (layout.frontmatter)
    front_matter: FrontMatter | None = None
    #: the reader's language (``language: de``), a shipped one (grader.i18n.resolve)
    language: str = "en"


def _key_lines(text: str) -> tuple[dict[str, int], list[int]]:
    """1-based lines of the top-level keys and of the items of ``puzzles``."""
    try:
        root = safe_yaml.compose(text)
    except (yaml.YAMLError, RecursionError):
        return {}, []
    keys: dict[str, int] = {}
    items: list[int] = []
    if isinstance(root, yaml.MappingNode):
        for key_node, value_node in root.value:
            keys[str(key_node.value)] = key_node.start_mark.line + 1
            if key_node.value == "puzzles" and isinstance(value_node, yaml.SequenceNode):
                items = [item.start_mark.line + 1 for item in value_node.value]
    return keys, items


def section_reader(key: str) -> Any:
    """How the items of the manifest's list ``key`` (a kind's own list, SECTION_KEYS) are
    read: the ``parse_refs`` of the drawing module of the kind whose list it is."""
    kind = next(kind for kind in KINDS if kind.manifest_key == key)
    return drawing_module(kind.drawing).parse_refs


def load_manifest(path: str | Path) -> Manifest:
    source = Path(path)
    if not source.exists():
        raise FormatError("manifest not found", str(source))
    data = read_input_bytes(source)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise FormatError("not UTF-8 text", str(source), line) from None
    return parse_manifest(text, source)


def parse_manifest(text: str, source: Path) -> Manifest:
    name = str(source)
    try:
        data = safe_yaml.load(text)
    except safe_yaml.ShapeError as exc:
        raise FormatError(f"YAML {exc.message}", name, exc.line) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        raise FormatError(f"not valid YAML: {getattr(exc, 'problem', exc)}", name, line) from None
    except (ValueError, OverflowError) as exc:  # date: 2024-13-45, an int of 5,000 digits
        reason = str(exc)[:80]
        raise FormatError(f"not a valid value: {reason}", name, safe_yaml.bad_scalar_line(text)) \
            from None
    if not isinstance(data, dict):
        raise FormatError("a manifest is a YAML mapping with at least a 'puzzles' list", name)
    key_lines, item_lines = _key_lines(text)

    def fail(message: str, key: str | None = None, line: int | None = None) -> FormatError:
        return FormatError(message, name, line if line is not None else key_lines.get(key or ""))

    for key in data:
        if key not in TOP_KEYS:
            raise fail(f"unknown key {key!r} (known keys: {', '.join(TOP_KEYS)})", str(key))

    def value(key: str, convert: Any, default: Any) -> Any:
        if key not in data or data[key] is None:
            return default
        try:
            return convert(data[key])
        except NonopressError as exc:
            raise fail(str(exc), key) from None

    sections = {key: value(key, lambda v, key=key: section_reader(key)(v, source.parent), ())
                for key in SECTION_KEYS}
    if "puzzles" not in data and data.get("from_library"):
        data["puzzles"] = []  # every puzzle comes from the catalogue (added by the caller)
    elif not any(sections.values()) and "puzzles" not in data:
        raise fail("'puzzles' must be a non-empty list of puzzle files", "puzzles")
    if "puzzles" not in data:  # an issue of another kind's entries only
        data["puzzles"] = []
    elif not isinstance(data["puzzles"], list) or (not data["puzzles"]
                                                   and not data.get("from_library")):
        raise fail("'puzzles' must be a non-empty list of puzzle files", "puzzles")
    hide_default = value("hide_titles", lambda v: _boolean(v, "hide_titles"), True)
    refs = tuple(
        _puzzle_ref(
            item, source.parent, fail, item_lines[i] if i < len(item_lines) else None, hide_default
        )
        for i, item in enumerate(data["puzzles"])
    )
    ink = value("ink", _ink, "colour")
    booklet = value("booklet", _booklet, "no")
    profile = Profile(
        name=value("profile", parse_profile_name, PLAIN.name),
        large_print=value("large_print", lambda v: _boolean(v, "large_print"), False),
        output_condition=value("output_condition", parse_output_condition, "FOGRA39"),
    )
    bleed_value = data.get("bleed")
    return Manifest(
        source=source,
        puzzles=refs,
        title=value("title", _text, "Nonograms"),
        issue=value("issue", _text, ""),
        date=value("date", _date, ""),
        author=value("author", _text, ""),
        page=value("page", parse_page_size, parse_page_size("A4")),
        margins=value("margins", _margins, Margins(15 * MM, 15 * MM, 15 * MM, 15 * MM)),
        bleed=value("bleed", _bleed, 0.0),
        crop_marks=value("crop_marks", lambda v: _boolean(v, "crop_marks"), False),
        per_page=value("per_page", _per_page, None),
        solutions=value("solutions", lambda v: _boolean(v, "solutions"), True),
        worked=value("worked", _worked, ()),
        grey=ink == "grey",
        booklet=booklet != "no",
        impose=booklet == "impose",
        sections={key: items for key, items in sections.items() if items},
        profile=profile,
        colour_asked="ink" in data and ink == "colour",
        bleed_default=bleed_value is True,
        pad_pages=value("pad_pages", lambda v: _boolean(v, "pad_pages"), False),
        minutes=value("minutes", lambda v: _boolean(v, "minutes"), False),
        from_library=data.get("from_library"),
        front_matter=value("front_matter", parse_front_matter, None),
        language=value("language", _language, "en"),
    )


def _language(value: object) -> str:
    from grader.i18n import resolve

    if not isinstance(value, str):
        raise NonopressError("language: expected a language tag such as de or ja")
    return resolve(value)


def _puzzle_ref(
    item: object, base: Path, fail: Any, line: int | None, hide_default: bool
) -> PuzzleRef:
    if isinstance(item, str):
        item = {"file": item}
    if not isinstance(item, dict):
        raise fail("a puzzles item is a file path or a mapping with 'file'", line=line)
    for key in item:
        if key not in PUZZLE_KEYS:
            raise fail(
                f"unknown puzzle key {key!r} (known keys: {', '.join(PUZZLE_KEYS)})", line=line
            )
    file = item.get("file")
    if not isinstance(file, str) or not file.strip():
        raise fail("a puzzles item needs 'file': the path of a puzzle file", line=line)
    # realpath, not resolve(): a symlink loop must be a message, not a RuntimeError
    path = Path(os.path.realpath(base / file))
    missing = "" if path.exists() else file
    index = item.get("index")
    if index is not None and (isinstance(index, bool) or not isinstance(index, int) or index < 1):
        raise fail(f"index must be a whole number from 1, got {index!r}", line=line)
    title = item.get("title")
    try:
        return PuzzleRef(
            path=path,
            title=_text(title) if title is not None else None,
            note=_text(item.get("note") or ""),
            hide_title=_boolean(item.get("hide_title", hide_default), "hide_title"),
            index=index,
            line=line,
            missing=missing,
            date=_day(item["date"]) if item.get("date") is not None else "",
        )
    except NonopressError as exc:
        raise fail(str(exc), line=line) from None


def _text(value: object) -> str:
    if isinstance(value, (dict, list)):
        raise NonopressError(f"expected text, got {type(value).__name__}")
    return clean(str(value)).strip()


def _date(value: object) -> str:
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    return _text(value)


def _day(value: object) -> str:
    """A puzzle's own date: a day, YYYY-MM-DD (the web schedule compares them)."""
    text = _date(value)
    try:
        return dt.date.fromisoformat(text).isoformat()
    except ValueError:
        raise NonopressError(f"date: expected a day as YYYY-MM-DD, got {text!r}") from None


def _boolean(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise NonopressError(f"{what}: expected true or false, got {value!r}")
    return value


def _bleed(value: object) -> float:
    """A length, or true/false: true stands for 3 mm until a profile says otherwise."""
    if isinstance(value, bool):
        return 3 * MM if value else 0.0
    return parse_length(value, "bleed")


def _ink(value: object) -> str:
    if value not in ("grey", "gray", "colour", "color"):
        raise NonopressError(f"ink: expected grey or colour, got {value!r}")
    return "grey" if value in ("grey", "gray") else "colour"


def _booklet(value: object) -> str:
    if value == "impose":
        return "impose"
    return "yes" if _boolean(value, "booklet (true, false or impose)") else "no"


def _per_page(value: object) -> int | None:
    if value == "auto":
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_PER_PAGE:
        raise NonopressError(f"per_page: expected auto or a number from 1 to {MAX_PER_PAGE}")
    return value


def _margins(value: object) -> Margins:
    if isinstance(value, Mapping):
        unknown = set(value) - set(MARGIN_SIDES)
        if unknown:
            raise NonopressError(f"margins: unknown side {sorted(map(str, unknown))[0]!r}")
        sides = {s: parse_length(value.get(s, 15), f"margins.{s}") for s in MARGIN_SIDES}
        return Margins(**sides)
    size = parse_length(value, "margins")
    return Margins(size, size, size, size)


def _worked(value: object) -> tuple[int, ...] | Literal["all"]:
    if value is True or value == "all":
        return "all"
    if value is False:
        return ()
    numbers = value if isinstance(value, list) else [value]
    for number in numbers:
        if isinstance(number, bool) or not isinstance(number, int) or number < 1:
            raise NonopressError(f"worked: {number!r} is not a puzzle number (1, 2, ...) or all")
    return tuple(sorted(set(numbers)))
