"""webpbn / pbnsolve XML (parsed with defusedxml: no entities, no external references).

::

    <puzzleset>
      <puzzle type="grid" defaultcolor="black">
        <source>webpbn.com</source> <id>#1</id> <title>..</title> <author>..</author>
        <copyright>..</copyright>
        <clues type="columns"><line><count>2</count><count>1</count></line>...</clues>
        <clues type="rows">...</clues>
        <solution type="goal"><image>|.XX..|...</image></solution>
      </puzzle>
    </puzzleset>

Colour puzzles are recognised and refused. A ``<note>`` of the form ``license: X``
carries the licence, which the DTD has no element for.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as fast_tree
from collections.abc import Iterable, Sequence
from xml.etree.ElementTree import Element, ParseError
from xml.parsers.expat import ExpatError

import defusedxml
import defusedxml.ElementTree as safe_tree

from grader.colour.model import Block, ColourClue, ColourPuzzle
from grader.colour.palette import Colour, Palette, parse_rgb
from grader.errors import FormatError
from grader.formats._base import (
    ColourFormat,
    FormatSpec,
    build_colour_puzzle,
    build_puzzle,
    check_count,
    check_header,
    free_char,
    head_text,
    make_palette,
    parse_number,
)
from grader.model import MAX_SIDE, Clue, Metadata, Puzzle

LICENSE_NOTE = "license: "
_COLOUR_MESSAGE = "colour puzzles are not supported (only black and white)"


#: the expat callbacks that build a tree: cleared on the gate, which only has to refuse
_TREE_HANDLERS = ("StartElementHandler", "EndElementHandler", "CharacterDataHandler",
                  "StartNamespaceDeclHandler", "EndNamespaceDeclHandler", "CommentHandler",
                  "ProcessingInstructionHandler", "DefaultHandler", "DefaultHandlerExpand")


def _parse_xml(data: bytes, source: str) -> Element:
    """The tree of a file that defusedxml let through.

    defusedxml's parser calls Python for every element: a 9 MB file of half a million
    elements took 2 CPU s a reading. So the file is read twice instead: once by defusedxml's
    own parser with its refusing handlers (entities, external references) and none of the
    tree-building ones, which runs at expat's speed, then by the C tree builder, which sees
    only a file the gate let through (0.8 s together)."""
    gate = safe_tree.DefusedXMLParser(forbid_dtd=False, forbid_entities=True,
                                      forbid_external=True)
    for handler in _TREE_HANDLERS:
        setattr(gate.parser, handler, None)
    try:
        gate.parser.Parse(data, True)
        root: Element = fast_tree.fromstring(data)
    except defusedxml.DefusedXmlException as exc:
        raise FormatError(f"refused unsafe XML ({type(exc).__name__})", source) from None
    except ExpatError as exc:
        raise FormatError(f"not well-formed XML: {exc}", source, exc.lineno) from None
    except ParseError as exc:
        line = exc.position[0] if getattr(exc, "position", None) else None
        raise FormatError(f"not well-formed XML: {exc}", source, line) from None
    except (ValueError, LookupError, RecursionError, UnicodeError) as exc:
        raise FormatError(f"not well-formed XML: {exc}", source) from None
    return root


#: Colours a webpbn file may name without a ``<color>`` element: the DTD's defaults.
IMPLICIT_COLOURS = frozenset(("black", "white"))


def default_and_background(element: Element, declared: Iterable[str], source: str,
                           where: str) -> tuple[str, str]:
    """The puzzle's ``defaultcolor`` and ``backgroundcolor``, each a declared colour (or
    an implicit black / white): a name that stands for nothing is refused, not guessed."""
    default = element.get("defaultcolor", "black")
    background = element.get("backgroundcolor", "white")
    known = IMPLICIT_COLOURS | set(declared)
    for attribute, name in (("defaultcolor", default), ("backgroundcolor", background)):
        if name not in known:
            raise FormatError(f"{where}{attribute} {name!r} is not a declared <color>", source)
    if default == background:
        raise FormatError(f"{where}defaultcolor and backgroundcolor are both {default!r}",
                          source)
    return default, background


def _text(element: Element | None) -> str:
    return "".join(element.itertext()).strip() if element is not None else ""


def read(data: bytes, source: str) -> list[Puzzle]:
    return [_puzzle(element, source, i)
            for i, element in enumerate(_puzzle_elements(data, source), 1)]


def _puzzle_elements(data: bytes, source: str) -> list[Element]:
    """The ``<puzzle>`` elements of the file (either kind)."""
    root = _parse_xml(data, source)
    if root.tag == "puzzle":
        elements = [root]
    elif root.tag == "puzzleset":
        elements = root.findall("puzzle")
    else:
        raise FormatError(f"expected <puzzleset> or <puzzle>, found <{root.tag}>", source)
    if not elements:
        raise FormatError("no <puzzle> in the <puzzleset>", source)
    return elements


def _clue_lines(element: Element, source: str, where: str) -> dict[str, list[Element]]:
    """The ``<line>`` elements of the row and column clues (either kind), both there and
    within the size limits."""
    found: dict[str, list[Element]] = {}
    for block in element.findall("clues"):
        kind = block.get("type", "")
        if kind not in ("rows", "columns"):
            raise FormatError(f"{where}<clues type={kind!r}> is not rows or columns", source)
        lines = block.findall("line")
        check_count(len(lines), kind, source, None)
        found[kind] = lines
    for kind in ("rows", "columns"):
        if kind not in found:
            raise FormatError(f"{where}no <clues type=\"{kind}\">", source)
    check_header(len(found["columns"]), len(found["rows"]), source, None)
    return found


def _counts(line: Element, most: int, source: str, where: str) -> list[Element]:
    """A line's ``<count>`` elements, at most ``most`` of them: no line of a grid within
    the size limit holds more blocks, so a longer one is refused before converting (a 9 MB
    file of single <count>s cost seconds of CPU in every command that read it)."""
    counts = line.findall("count")
    if len(counts) > most:
        raise FormatError(f"{where}a clue line of {len(counts)} blocks: more than a line of "
                          f"at most {MAX_SIDE} cells can hold", source)
    return counts


def _puzzle(element: Element, source: str, number: int) -> Puzzle:
    where = f"puzzle {number}: "
    kind = element.get("type", "grid")
    if kind != "grid":
        raise FormatError(f"{where}only grid puzzles are supported, not {kind!r}", source)
    colours = {c.get("name", "") for c in element.findall("color")}
    default, background = default_and_background(element, colours, source, where)
    if colours - {default, background, ""}:
        raise FormatError(where + _COLOUR_MESSAGE, source)
    clues = {kind: [_line(line, default, source, where) for line in lines]
             for kind, lines in _clue_lines(element, source, where).items()}
    meta = _meta(element)
    solution = _solution(element, len(clues["columns"]), len(clues["rows"]), source, where)
    return build_puzzle(clues["rows"], clues["columns"], source, None,
                        solution=solution, meta=meta)


def _line(line: Element, default: str, source: str, where: str) -> Clue:
    numbers = []
    for count in _counts(line, (MAX_SIDE + 1) // 2, source, where):
        if count.get("color", default) != default:
            raise FormatError(where + _COLOUR_MESSAGE, source)
        numbers.append(parse_number(_text(count), source, None, "count"))
    if numbers == [0]:
        return ()
    return tuple(numbers)


def _meta(element: Element) -> Metadata:
    source = " ".join(x for x in (_text(element.find("source")), _text(element.find("id"))) if x)
    license_ = ""
    for note in element.findall("note"):
        text = _text(note)
        if text.lower().startswith(LICENSE_NOTE):
            license_ = text[len(LICENSE_NOTE):].strip()
    return Metadata(
        title=_text(element.find("title")),
        author=_text(element.find("author")),
        copyright=_text(element.find("copyright")),
        license=license_,
        source=source,
    )


def goal_image(
    element: Element, width: int, height: int, source: str, where: str
) -> list[str] | None:
    """The rows of the puzzle's goal solution image as written (either kind), checked to
    be ``width`` x ``height``; None when there is none."""
    for solution in element.findall("solution"):
        if solution.get("type", "goal") != "goal":
            continue
        image = _text(solution.find("image"))
        rows = [r.strip().strip("|") for r in image.splitlines() if r.strip()]
        if len(rows) != height or any(len(r) != width for r in rows):
            raise FormatError(f"{where}the solution image is not {width}x{height}", source)
        return rows
    return None


def _solution(
    element: Element, width: int, height: int, source: str, where: str
) -> list[str] | None:
    rows = goal_image(element, width, height, source, where)
    if rows is None:
        return None
    empty = _background_char(element)
    return ["".join("." if c == empty else "#" for c in r) for r in rows]


def _background_char(element: Element) -> str:
    background = element.get("backgroundcolor", "white")
    for colour in element.findall("color"):
        if colour.get("name") == background:
            return colour.get("char", ".")
    return "."


_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _xml_text(value: str) -> str:
    """Escaped text without the control characters XML 1.0 cannot hold (escaped as
    xml.sax.saxutils.escape does, without importing it: it pulls in urllib.request, 30 ms
    of every command's start-up)."""
    text = _NOT_XML.sub("", value)
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _puzzle_xml(puzzle: Puzzle) -> list[str]:
    meta = puzzle.meta
    out = ['<puzzle type="grid" defaultcolor="black">']
    out.extend(meta_xml(meta))
    out.append('<color name="white" char=".">fff</color>')
    out.append('<color name="black" char="X">000</color>')
    for kind, clues in (("columns", puzzle.columns), ("rows", puzzle.rows)):
        out.append(f'<clues type="{kind}">')
        for clue in clues:
            counts = "".join(f"<count>{n}</count>" for n in clue)
            out.append(f"<line>{counts}</line>")
        out.append("</clues>")
    if puzzle.solution is not None:
        out.append('<solution type="goal"><image>')
        out.extend("|" + row.replace("#", "X") + "|" for row in puzzle.solution)
        out.append("</image></solution>")
    out.extend(licence_xml(meta))
    out.append("</puzzle>")
    return out


def meta_xml(meta: Metadata) -> list[str]:
    """The <source>, <title>, <author> and <copyright> elements the metadata has text for."""
    return [f"<{tag}>{_xml_text(value)}</{tag}>"
            for tag, value in (("source", meta.source), ("title", meta.title),
                               ("author", meta.author), ("copyright", meta.copyright))
            if value]


def licence_xml(meta: Metadata) -> list[str]:
    """The licence as a <note> (the format has no element of its own for it)."""
    return [f"<note>{_xml_text(LICENSE_NOTE + meta.license)}</note>"] if meta.license else []


def puzzleset_xml(puzzles: Iterable[list[str]]) -> bytes:
    """A whole file: the <puzzleset> of each puzzle's XML lines."""
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', "<puzzleset>"]
    for puzzle in puzzles:
        lines.extend(puzzle)
    lines.append("</puzzleset>")
    return ("\n".join(lines) + "\n").encode("utf-8")


def write(puzzles: Sequence[Puzzle]) -> bytes:
    return puzzleset_xml(_puzzle_xml(puzzle) for puzzle in puzzles)


def sniff(data: bytes) -> bool:
    start = head_text(data, 1024).lstrip()
    return start.startswith(("<?xml", "<!DOCTYPE", "<puzzle"))


# -- colour --------------------------------------------------------------------------------------
def read_colour(data: bytes, source: str) -> list[ColourPuzzle]:
    return [_colour_puzzle(element, source, i)
            for i, element in enumerate(_puzzle_elements(data, source), 1)]


def _palette_colour(element: Element, source: str, where: str, used: set[str]) -> Colour:
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


def _colour_puzzle(element: Element, source: str, number: int) -> ColourPuzzle:
    where = f"puzzle {number}: "
    if element.get("type", "grid") != "grid":
        raise FormatError(f"{where}only grid puzzles are supported", source)
    declared: dict[str, Colour] = {}
    used: set[str] = set()
    for item in element.findall("color"):
        colour = _palette_colour(item, source, where, used)
        declared[item.get("name", "").strip()] = colour
    default, background_name = default_and_background(element, declared, source, where)
    background = declared.pop(background_name, None) or Colour(
        background_name, parse_rgb(background_name) or (255, 255, 255), ".")
    if default not in declared:
        declared[default] = Colour(default, parse_rgb(default) or (0, 0, 0),
                                   free_char(used | {background.char}, "X"))
    order = list(declared)
    # the clues may use fewer colours than declared: keep those used, in declared order
    # blocks of different colours need no gap: a line may hold as many blocks as cells
    raw = {kind: [[(parse_number(_text(c), source, None, "count"), c.get("color", default))
                   for c in _counts(line, MAX_SIDE, source, where)] for line in lines]
           for kind, lines in _clue_lines(element, source, where).items()}
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
    solution = _colour_solution(element, len(columns), len(rows), source, where, palette)
    return build_colour_puzzle(rows, columns, palette, source, solution=solution,
                               meta=_meta(element))


def _colour_solution(element: Element, width: int, height: int, source: str, where: str,
                     palette: Palette) -> list[str] | None:
    rows = goal_image(element, width, height, source, where)
    allowed = {palette[i].char for i in range(palette.size + 1)}
    for row in rows or ():
        bad = set(row) - allowed
        if bad:
            raise FormatError(f"{where}the solution image holds {sorted(bad)[0]!r}", source)
    return rows


def _colour_puzzle_xml(puzzle: ColourPuzzle) -> list[str]:
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


def write_colour(puzzles: Sequence[ColourPuzzle]) -> bytes:
    return puzzleset_xml(_colour_puzzle_xml(puzzle) for puzzle in puzzles)


_COLOURED_COUNT = re.compile(rb"<count[^>]*\scolor\s*=")
_COLOUR_NAME = re.compile(rb"<color[^>]*\sname\s*=\s*[\"']([^\"']*)")


def looks_colour(data: bytes) -> bool:
    """Coloured counts, or a colour other than black and white declared."""
    names = {name.strip().lower() for name in _COLOUR_NAME.findall(data)}
    return bool(_COLOURED_COUNT.search(data)) or bool(names - {b"black", b"white"})


SPEC = FormatSpec(
    name="xml",
    description="webpbn / pbnsolve XML (<puzzleset> of <puzzle>)",
    suffixes=(".xml", ".pbn"),
    reader=read,
    writer=write,
    holds_many=True,
    colour=ColourFormat(read_colour, write_colour, looks_colour),
    sniff=sniff,
)
