"""Steve Simpson's ``.non`` format, with the mikix extension.

``width``/``height`` come before ``rows``, ``columns`` and ``goal``; each of ``rows`` and
``columns`` is followed by one clue per line, numbers by commas. Metadata keys: ``title``,
``by``, ``copyright``, ``license``, ``catalogue`` (strings quoted, HTML escapes allowed),
``goal`` (the solution, ``0`` = empty). Several puzzles may be bundled, separated by a
``====`` line. Lines a reader does not recognise are ignored, as the format asks.

Colour, as webpbn's and griddlers.net's exports write it: one ``color NAME RRGGBB [CHAR]``
line a colour (the background among them: the first colour no clue uses), and each clue a
line of colour-count pairs, ``b 2 c 9 b 1`` (a count after a colour name; a bare count is
the default colour, black when there is one; ``2b`` is read too). The goal of a colour
puzzle is its picture in the palette's characters.
"""

from __future__ import annotations

import difflib
import html
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from grader.colour.model import Block, ColourClue, ColourPuzzle
from grader.colour.palette import Colour, Palette, parse_rgb
from grader.errors import FormatError
from grader.formats._base import (
    MAX_DIGITS,
    ColourFormat,
    FormatSpec,
    build_colour_puzzle,
    build_puzzle,
    check_header,
    clue_words,
    decode_text,
    free_char,
    head_text,
    make_palette,
    parse_clue,
    parse_number,
    single_line,
)
from grader.model import MAX_SIDE, Clue, Metadata, Puzzle

#: a goal's byte to its solution cell: '0' empty, anything else filled
_GOAL_CELLS = bytes(ord(".") if i == ord("0") else ord("#") for i in range(256))

SEPARATOR = "===="
_META_KEYS = {"title": "title", "by": "author", "copyright": "copyright",
              "license": "license", "catalogue": "source"}
_KEY = re.compile(r"^([a-z]+)\b\s*(.*)$")
_SPDX = re.compile(r"^[A-Za-z0-9.+-]+$")
_CLUE_LINE = re.compile(r"^\d+(?:[\s,]+\d+)*$")
_COLOURED_CLUE = re.compile(r"\d+[a-zA-Z]")


@dataclass
class _Draft:
    start: int
    width: int | None = None
    height: int | None = None
    header_line: int | None = None
    rows: list[Clue] | None = None
    columns: list[Clue] | None = None
    goal: str | None = None
    goal_line: int | None = None
    meta: dict[str, str] = field(default_factory=dict)
    #: words the reader did not know, with their lines: a typo of a section name
    #: (``colums``) is named when that section turns out to be missing
    unknown: list[tuple[str, int]] = field(default_factory=list)


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] == '"':
        value = value[1:-1]
    return html.unescape(value)


def read(data: bytes, source: str) -> list[Puzzle]:
    lines = decode_text(data, source).splitlines()
    puzzles: list[Puzzle] = []
    draft = _Draft(start=1)
    number = 0
    last_section: tuple[str, int] | None = None
    while number < len(lines):
        line_no = number + 1
        stripped = lines[number].strip()
        number += 1
        if stripped == SEPARATOR:
            puzzles.append(_finish(draft, source))
            draft = _Draft(start=line_no + 1)
            continue
        match = _KEY.match(stripped)
        if not match:
            if _CLUE_LINE.match(stripped):  # e.g. one row more than 'height' says
                _raise_misspelt_heading(draft, source)  # clues after a 'colums' heading
                if last_section is None:
                    raise FormatError(f"clue line {stripped[:40]!r} before any rows or "
                                      "columns section", source, line_no)
                section, size = last_section
                what = "height" if section == "rows" else "width"
                raise FormatError(
                    f"clue line {stripped[:40]!r} after the {section} section, which "
                    f"{what} {size} ends after {size} clues", source, line_no,
                )
            continue  # blank or unrecognised: ignored
        key, value = match.group(1), match.group(2)
        if key in ("width", "height"):
            setattr(draft, key, parse_number(value, source, line_no, key))
            draft.header_line = line_no
            if draft.width is not None and draft.height is not None:
                check_header(draft.width, draft.height, source, line_no)
        elif key in ("rows", "columns") and not value:
            count = draft.height if key == "rows" else draft.width
            if count is None or draft.width is None or draft.height is None:
                raise FormatError(f"{key} before width and height", source, line_no)
            if number + count > len(lines):
                raise FormatError(f"{key}: file ends before {count} clues", source, line_no)
            clues = []
            length = draft.width if key == "rows" else draft.height
            for offset in range(count):
                text = lines[number + offset]
                at = number + offset + 1
                _check_not_a_heading(text, key, offset, count, source, at)
                if _COLOURED_CLUE.search(text):
                    raise FormatError(
                        "colour puzzles are not supported (only black and white)",
                        source, at,
                    )
                clue = parse_clue(text, source, at, key[:-1])
                _check_fits(clue, length, key, offset, source, at)
                clues.append(clue)
            number += count
            setattr(draft, key, clues)
            last_section = (key, count)
        elif key == "goal":
            draft.goal, draft.goal_line = _unquote(value), line_no
        elif key == "color":
            raise FormatError(
                "colour puzzles are not supported (only black and white)", source, line_no
            )
        elif key in _META_KEYS:
            draft.meta[_META_KEYS[key]] = _unquote(value)
        else:
            draft.unknown.append((key, line_no))
    if draft.width is not None or draft.rows is not None or not puzzles:
        puzzles.append(_finish(draft, source))
    return puzzles


def _check_not_a_heading(text: str, key: str, offset: int, count: int, source: str,
                         line: int) -> None:
    """A section shorter than the size says ends at the next heading: say how many came."""
    match = _KEY.match(text.strip())
    headings = {"rows", "columns", "width", "height", "goal", "color", *_META_KEYS}
    if match and match.group(1) in headings:
        what = "height" if key == "rows" else "width"
        raise FormatError(f"{offset} {key} given, but {what} says {count}", source, line)


def _check_fits(clue: Clue, length: int, key: str, offset: int, source: str,
                line: int) -> None:
    """A clue longer than its line, named at its own line."""
    need = sum(clue) + max(len(clue) - 1, 0)
    if need > length:
        what = "row" if key == "rows" else "column"
        raise FormatError(f"{what} {offset + 1} clue {clue_words(clue, ' ')} needs {need} "
                          f"cells but the {what} has {length}", source, line)


def _raise_misspelt_heading(draft: _Draft, source: str) -> None:
    """A section still missing whose name an unknown word nearly spells: say so there."""
    missing = [name for name, got in (("rows", draft.rows), ("columns", draft.columns))
               if got is None]
    for name in missing:
        close = difflib.get_close_matches(name, [word for word, _ in draft.unknown], n=1,
                                          cutoff=0.6)
        if close:
            line = next(n for word, n in draft.unknown if word == close[0])
            raise FormatError(
                f"no {name} section: {close[0]!r} is not a heading .non knows; "
                f"did you mean {name!r}?",
                source, line,
            )


def _finish(draft: _Draft, source: str) -> Puzzle:
    if draft.width is None or draft.height is None:
        raise FormatError("no width and height (not a .non puzzle?)", source, draft.start)
    if draft.rows is None or draft.columns is None:
        missing = "rows" if draft.rows is None else "columns"
        _raise_misspelt_heading(draft, source)
        raise FormatError(f"no {missing} section", source, draft.header_line)
    solution = None
    if draft.goal is not None:
        goal = draft.goal.replace(" ", "")
        if len(goal) != draft.width * draft.height:
            raise FormatError(
                f"goal has {len(goal)} cells, expected {draft.width * draft.height}",
                source, draft.goal_line,
            )
        # '0' is empty, anything else filled; one byte a cell, at C speed without numpy
        cells = goal.encode("latin-1", "replace").translate(_GOAL_CELLS).decode("ascii")
        solution = [cells[i : i + draft.width] for i in range(0, len(cells), draft.width)]
    return build_puzzle(
        draft.rows, draft.columns, source, draft.goal_line or draft.header_line,
        solution=solution, meta=Metadata(**draft.meta),
    )


def _quoted(value: str) -> str:
    return '"' + html.escape(single_line(value), quote=True) + '"'


def _one(puzzle: Puzzle) -> list[str]:
    meta = puzzle.meta
    lines = []
    for key, value in (("catalogue", meta.source), ("title", meta.title), ("by", meta.author),
                       ("copyright", meta.copyright)):
        if value:
            lines.append(f"{key} {_quoted(value)}")
    if meta.license:
        spdx = _SPDX.match(meta.license)
        lines.append(f"license {meta.license if spdx else _quoted(meta.license)}")
    lines += [f"width {puzzle.width}", f"height {puzzle.height}", "", "rows"]
    lines += [clue_words(c, ",") for c in puzzle.rows]
    lines += ["", "columns"]
    lines += [clue_words(c, ",") for c in puzzle.columns]
    if puzzle.solution is not None:
        goal = "".join(puzzle.solution).replace(".", "0").replace("#", "1")
        lines += ["", f'goal "{goal}"']
    return lines


def write(puzzles: Sequence[Puzzle]) -> bytes:
    blocks = ["\n".join(_one(p)) for p in puzzles]
    return ("\n" + SEPARATOR + "\n").join(blocks).encode("utf-8") + b"\n"


def sniff(data: bytes) -> bool:
    text = head_text(data)
    keys = {line.split(maxsplit=1)[0] for line in text.splitlines() if line.strip()}
    return {"width", "height"} <= keys


# -- colour ------------------------------------------------------------------------------------
_COLOR_LINE = re.compile(r"(?m)^\s*color\s")
_SUFFIXED = re.compile(r"^([0-9]+)([^0-9\s]\S*)$")


@dataclass
class _ColourDraft:
    start: int
    width: int | None = None
    height: int | None = None
    header_line: int | None = None
    #: declared colours in order: name -> (rgb, char or "", line)
    colours: dict[str, tuple[tuple[int, int, int], str, int]] = field(default_factory=dict)
    #: each clue as (colour name or "" for the default, count) pairs, with its line
    rows: list[tuple[list[tuple[str, int]], int]] | None = None
    columns: list[tuple[list[tuple[str, int]], int]] | None = None
    goal: str | None = None
    goal_line: int | None = None
    meta: dict[str, str] = field(default_factory=dict)


def read_colour(data: bytes, source: str) -> list[ColourPuzzle]:
    """Colour ``.non``: ``color`` lines and colour-count clues (see the module's note)."""
    lines = decode_text(data, source).splitlines()
    puzzles: list[ColourPuzzle] = []
    draft = _ColourDraft(start=1)
    number = 0
    while number < len(lines):
        line_no = number + 1
        stripped = lines[number].strip()
        number += 1
        if stripped == SEPARATOR:
            puzzles.append(_finish_colour(draft, source))
            draft = _ColourDraft(start=line_no + 1)
            continue
        match = _KEY.match(stripped)
        if not match:
            continue
        key, value = match.group(1), match.group(2)
        if key in ("width", "height"):
            setattr(draft, key, parse_number(value, source, line_no, key))
            draft.header_line = line_no
            if draft.width is not None and draft.height is not None:
                check_header(draft.width, draft.height, source, line_no)
        elif key == "color":
            _declare(draft, value, source, line_no)
        elif key in ("rows", "columns") and not value:
            count = draft.height if key == "rows" else draft.width
            if count is None or draft.width is None or draft.height is None:
                raise FormatError(f"{key} before width and height", source, line_no)
            if number + count > len(lines):
                raise FormatError(f"{key}: file ends before {count} clues", source, line_no)
            clues = []
            for offset in range(count):
                at = number + offset + 1
                _check_not_a_heading(lines[number + offset], key, offset, count, source, at)
                clues.append((_colour_pairs(lines[number + offset], source, at, key[:-1]), at))
            number += count
            setattr(draft, key, clues)
        elif key == "goal":
            draft.goal, draft.goal_line = _unquote(value), line_no
        elif key in _META_KEYS:
            draft.meta[_META_KEYS[key]] = _unquote(value)
    if draft.width is not None or draft.rows is not None or not puzzles:
        puzzles.append(_finish_colour(draft, source))
    return puzzles


def _declare(draft: _ColourDraft, value: str, source: str, line: int) -> None:
    """One ``color NAME RRGGBB [CHAR]`` line."""
    words = value.split()
    if len(words) not in (2, 3):
        raise FormatError("a color line is 'color NAME RRGGBB [CHAR]'", source, line)
    name, hex_text = words[0], words[1]
    rgb = parse_rgb(hex_text)
    if rgb is None:
        raise FormatError(f"colour {name!r}: cannot read {hex_text!r} as RGB", source, line)
    char = words[2] if len(words) == 3 else ""
    if char and (len(char) != 1 or char.isdigit()):
        raise FormatError(f"colour {name!r}: {char!r} is not one character (not a digit)",
                          source, line)
    if name in draft.colours:
        raise FormatError(f"colour {name!r} declared twice", source, line)
    draft.colours[name] = (rgb, char, line)


def _colour_pairs(text: str, source: str, line: int, what: str) -> list[tuple[str, int]]:
    """``b 2 c 9 b 1`` (or ``2b 9c 1b``, or bare counts) as (colour name, count) pairs."""
    tokens = text.replace(",", " ").split()
    if tokens in ([], ["0"]):
        return []
    pairs: list[tuple[str, int]] = []
    name: str | None = None
    for token in tokens:
        plain = token.isascii() and token.isdigit()
        suffixed = None if plain else _SUFFIXED.match(token)
        if plain or suffixed is not None:
            if suffixed is not None:
                if name is not None:
                    raise FormatError(f"{what}: colour {name!r} has no count", source, line)
                digits, colour = suffixed.group(1), suffixed.group(2)
            else:
                digits, colour = token, name or ""
            if len(digits) > MAX_DIGITS:
                raise FormatError(f"{what}: number {digits[:12]}... is absurdly large",
                                  source, line)
            if int(digits) == 0:
                raise FormatError(f"{what}: 0 can only stand alone, for an empty line",
                                  source, line)
            pairs.append((colour, int(digits)))
            name = None
            if len(pairs) > MAX_SIDE:
                raise FormatError(f"{what}: more than {MAX_SIDE} blocks", source, line)
        elif name is not None:
            raise FormatError(f"{what}: colour {name!r} has no count", source, line)
        else:
            name = token
    if name is not None:
        raise FormatError(f"{what}: colour {name!r} has no count", source, line)
    return pairs


def _finish_colour(draft: _ColourDraft, source: str) -> ColourPuzzle:
    if draft.width is None or draft.height is None:
        raise FormatError("no width and height (not a .non puzzle?)", source, draft.start)
    if draft.rows is None or draft.columns is None:
        missing = "rows" if draft.rows is None else "columns"
        raise FormatError(f"no {missing} section", source, draft.header_line)
    every = [*draft.rows, *draft.columns]
    used = {name for pairs, _ in every for name, _count in pairs}
    default = _default_colour(draft)
    for pairs, line in every:
        for name, _count in pairs:
            if name not in draft.colours and not (name == "" and default):
                what = f"colour {name!r}" if name else "a count without a colour"
                raise FormatError(f"{what}: no color line declares it", source, line)
    if default and "" in used:
        used.add(default)
    # the background: the first declared colour no clue uses (both sites declare it first)
    unused = [name for name in draft.colours if name not in used]
    chars: set[str] = {char for _, char, _ in draft.colours.values() if char}
    if unused:
        name = unused[0]
        rgb, char, _ = draft.colours[name]
        background = _colour(name, rgb, char or free_char(chars, "."))
    else:
        background = Colour("white", (255, 255, 255), free_char(chars, "."))
    chars.add(background.char)
    kept = []
    for name, (rgb, char, _) in draft.colours.items():
        if name in used:
            kept.append(_colour(name, rgb, char or free_char(chars, name[0])))
            chars.add(kept[-1].char)
    palette = make_palette(kept, background, source, draft.header_line)
    index = {colour.name: i for i, colour in enumerate(kept, 1)}
    if "" in used:  # bare counts: the default colour
        index[""] = index[default]

    def clue(pairs: list[tuple[str, int]]) -> ColourClue:
        blocks: list[Block] = [(count, index[name]) for name, count in pairs]
        return tuple(blocks)

    rows = [clue(pairs) for pairs, _ in draft.rows]
    columns = [clue(pairs) for pairs, _ in draft.columns]
    solution = _colour_goal(draft, palette, source)
    return build_colour_puzzle(rows, columns, palette, source,
                               draft.goal_line or draft.header_line, solution=solution,
                               meta=Metadata(**draft.meta))


def _default_colour(draft: _ColourDraft) -> str:
    """What a bare count means: the colour named black or of RGB 000000, else none."""
    for name, (rgb, _, _) in draft.colours.items():
        if name.lower() == "black" or rgb == (0, 0, 0):
            return name
    return ""


def _colour(name: str, rgb: tuple[int, int, int], char: str) -> Colour:
    try:
        return Colour(name, rgb, char)
    except Exception as exc:  # PuzzleError: the message names the colour
        raise FormatError(str(exc)) from None


def _colour_goal(draft: _ColourDraft, palette: Palette, source: str) -> list[str] | None:
    if draft.goal is None or draft.width is None or draft.height is None:
        return None
    goal = draft.goal.replace(" ", "")
    if len(goal) != draft.width * draft.height:
        raise FormatError(f"goal has {len(goal)} cells, expected {draft.width * draft.height}",
                          source, draft.goal_line)
    allowed = {palette[i].char for i in range(palette.size + 1)}
    bad = set(goal) - allowed
    if bad:
        raise FormatError(f"goal holds {sorted(bad)[0]!r}, not a colour's character",
                          source, draft.goal_line)
    return [goal[i : i + draft.width] for i in range(0, len(goal), draft.width)]


def _one_colour(puzzle: ColourPuzzle) -> list[str]:
    meta, palette = puzzle.meta, puzzle.palette
    lines = []
    for key, value in (("catalogue", meta.source), ("title", meta.title), ("by", meta.author),
                       ("copyright", meta.copyright)):
        if value:
            lines.append(f"{key} {_quoted(value)}")
    if meta.license:
        spdx = _SPDX.match(meta.license)
        lines.append(f"license {meta.license if spdx else _quoted(meta.license)}")
    lines += [f"width {puzzle.width}", f"height {puzzle.height}", ""]
    lines += [f"color {palette[i].name} {palette[i].hex} {palette[i].char}"
              for i in range(palette.size + 1)]

    def clue(blocks: ColourClue) -> str:
        return " ".join(f"{palette[c].name} {n}" for n, c in blocks) if blocks else "0"

    lines += ["", "rows", *map(clue, puzzle.rows), "", "columns", *map(clue, puzzle.columns)]
    if puzzle.solution is not None:
        lines += ["", f'goal "{"".join(puzzle.solution)}"']
    return lines


def write_colour(puzzles: Sequence[ColourPuzzle]) -> bytes:
    blocks = ["\n".join(_one_colour(p)) for p in puzzles]
    return ("\n" + SEPARATOR + "\n").join(blocks).encode("utf-8") + b"\n"


def looks_colour(data: bytes) -> bool:
    """A ``color`` line, or a count with a colour after it (``2b``)."""
    text = head_text(data, 1 << 16)
    return bool(_COLOR_LINE.search(text) or _COLOURED_CLUE.search(text))


SPEC = FormatSpec(
    name="non",
    description="Simpson .non (with goal, title, by, copyright, license, catalogue)",
    suffixes=(".non", ".nonpack"),
    reader=read,
    writer=write,
    holds_many=True,
    colour=ColourFormat(read_colour, write_colour, looks_colour),
    sniff=sniff,
)
