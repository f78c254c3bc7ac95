"""webpbn / pbnsolve XML with colours::

    <puzzle type="grid" defaultcolor="black" backgroundcolor="white">
      <color name="white" char=".">fff</color>
      <color name="black" char="X">000</color> <color name="red" char="r">f00</color>
      <clues type="rows"><line><count color="red">2</count><count>1</count></line>...
      <solution type="goal"><image>|rrX.|...</image></solution>

A ``<count>`` without ``color`` has the puzzle's default colour. Parsed with defusedxml.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from xml.etree.ElementTree import Element

from grader.colour.formats._base import (
    ColourFormat,
    build_colour_puzzle,
    free_char,
    make_palette,
)
from grader.colour.model import Block, ColourClue, ColourPuzzle
from grader.colour.palette import Colour, Palette, parse_rgb
from grader.errors import FormatError
from grader.formats._base import check_count, check_header, parse_number
from grader.formats.webpbn import (
    _meta,
    _parse_xml,
    _text,
    _xml_text,
    default_and_background,
    licence_xml,
    meta_xml,
    puzzleset_xml,
)


def read(data: bytes, source: str) -> list[ColourPuzzle]:
    root = _parse_xml(data, source)
    elements = [root] if root.tag == "puzzle" else root.findall("puzzle")
    if root.tag not in ("puzzle", "puzzleset"):
        raise FormatError(f"expected <puzzleset> or <puzzle>, found <{root.tag}>", source)
    if not elements:
        raise FormatError("no <puzzle> in the <puzzleset>", source)
    return [_puzzle(element, source, i) for i, element in enumerate(elements, 1)]


def _colour(element: Element, source: str, where: str, used: set[str]) -> Colour:
    name = element.get("name", "").strip()
    if not name:
        raise FormatError(f"{where}a <color> without a name", source)
    rgb = parse_rgb(_text(element)) or parse_rgb(name)
    if rgb is None:
        raise FormatError(f"{where}colour {name!r}: cannot read {_text(element)!r} as RGB",
                          source)
    char = element.get("char") or free_char(used, name[0])
    used.add(char)
    # "symbol" is ours (grey print); other readers of webpbn XML ignore the attribute
    return Colour(name.replace(" ", "_"), rgb, char, element.get("symbol", ""))


def _puzzle(element: Element, source: str, number: int) -> ColourPuzzle:
    where = f"puzzle {number}: "
    if element.get("type", "grid") != "grid":
        raise FormatError(f"{where}only grid puzzles are supported", source)
    declared: dict[str, Colour] = {}
    used: set[str] = set()
    for item in element.findall("color"):
        colour = _colour(item, source, where, used)
        declared[item.get("name", "").strip()] = colour
    default, background_name = default_and_background(element, declared, source, where)
    background = declared.pop(background_name, None) or Colour(
        background_name, parse_rgb(background_name) or (255, 255, 255), ".")
    if default not in declared:
        declared[default] = Colour(default, parse_rgb(default) or (0, 0, 0),
                                   free_char(used | {background.char}, "X"))
    order = list(declared)
    # the clues may use fewer colours than declared: keep those used, in declared order
    raw: dict[str, list[list[tuple[int, str]]]] = {}
    for block in element.findall("clues"):
        kind = block.get("type", "")
        if kind not in ("rows", "columns"):
            raise FormatError(f"{where}<clues type={kind!r}> is not rows or columns", source)
        lines = block.findall("line")
        check_count(len(lines), kind, source, None)
        raw[kind] = [[(parse_number(_text(c), source, None, "count"), c.get("color", default))
                      for c in line.findall("count")] for line in lines]
    for kind in ("rows", "columns"):
        if kind not in raw:
            raise FormatError(f"{where}no <clues type=\"{kind}\">", source)
    check_header(len(raw["columns"]), len(raw["rows"]), source, None)
    used_names = {name for lines in raw.values() for line in lines for n, name in line if n}
    unknown = used_names - set(order)
    if unknown:
        raise FormatError(f"{where}count of undeclared colour {sorted(unknown)[0]!r}", source)
    kept = [name for name in order if name in used_names] or [default]
    palette = make_palette([declared[n] for n in kept], background, source)
    index = {name: i for i, name in enumerate(kept, 1)}

    def clue(line: list[tuple[int, str]]) -> ColourClue:
        blocks: list[Block] = [(n, index[name]) for n, name in line if n]
        if len(blocks) != len(line) and len(line) > 1:
            raise FormatError(f"{where}0 can only stand alone, for an empty line", source)
        return tuple(blocks)

    rows = [clue(line) for line in raw["rows"]]
    columns = [clue(line) for line in raw["columns"]]
    solution = _solution(element, len(columns), len(rows), source, where, palette)
    return build_colour_puzzle(rows, columns, palette, source, solution=solution,
                               meta=_meta(element))


def _solution(element: Element, width: int, height: int, source: str, where: str,
              palette: Palette) -> list[str] | None:
    for solution in element.findall("solution"):
        if solution.get("type", "goal") != "goal":
            continue
        image = _text(solution.find("image"))
        rows = [r.strip().strip("|") for r in image.splitlines() if r.strip()]
        if len(rows) != height or any(len(r) != width for r in rows):
            raise FormatError(f"{where}the solution image is not {width}x{height}", source)
        allowed = {palette[i].char for i in range(palette.size + 1)}
        for row in rows:
            bad = set(row) - allowed
            if bad:
                raise FormatError(f"{where}the solution image holds {sorted(bad)[0]!r}",
                                  source)
        return rows
    return None


def _puzzle_xml(puzzle: ColourPuzzle) -> list[str]:
    meta = puzzle.meta
    palette = puzzle.palette
    default = palette[1].name
    out = [f'<puzzle type="grid" defaultcolor="{_xml_text(default)}" '
           f'backgroundcolor="{_xml_text(palette.background.name)}">']
    out.extend(meta_xml(meta))
    for i in range(palette.size + 1):
        colour = palette[i]
        symbol = f' symbol="{_xml_text(colour.symbol)}"' if colour.symbol else ""
        out.append(f'<color name="{_xml_text(colour.name)}" char="{_xml_text(colour.char)}"'
                   f"{symbol}>{colour.hex}</color>")
    for kind, clues in (("columns", puzzle.columns), ("rows", puzzle.rows)):
        out.append(f'<clues type="{kind}">')
        for line in clues:
            counts = "".join(
                f"<count>{n}</count>" if c == 1 else
                f'<count color="{_xml_text(palette[c].name)}">{n}</count>' for n, c in line)
            out.append(f"<line>{counts}</line>")
        out.append("</clues>")
    if puzzle.solution is not None:
        out.append('<solution type="goal"><image>')
        out.extend("|" + _xml_text(row) + "|" for row in puzzle.solution)
        out.append("</image></solution>")
    out.extend(licence_xml(meta))
    out.append("</puzzle>")
    return out


def write(puzzles: Sequence[ColourPuzzle]) -> bytes:
    return puzzleset_xml(_puzzle_xml(puzzle) for puzzle in puzzles)


_COLOURED_COUNT = re.compile(rb"<count[^>]*\scolor\s*=")
_COLOUR_NAME = re.compile(rb"<color[^>]*\sname\s*=\s*[\"']([^\"']*)")


def looks_colour(data: bytes) -> bool:
    """Coloured counts, or a colour other than black and white declared."""
    names = {name.strip().lower() for name in _COLOUR_NAME.findall(data)}
    return bool(_COLOURED_COUNT.search(data)) or bool(names - {b"black", b"white"})


FORMAT = ColourFormat("xml", read, write, looks_colour, holds_many=True)
