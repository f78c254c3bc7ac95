"""Colour issues: an issue manifest whose puzzles include colour ones, as PDF and LaTeX.

``nonopress issue`` hands a manifest here when one of its puzzles is colour (black-and-white
puzzles of the same issue print as one-colour puzzles). Each puzzle gets a page: a header
(number, size, colours, stars), a legend of its colours, the clues -- each number on a
square of its block's colour, white digits on dark colours -- and the grid. Solutions come
at the back, six to a page, in colour. With ``grey`` (manifest ``ink: grey`` or ``--grey``)
nothing needs colour ink: each colour is a light grey tint plus a printed symbol (A, B, ...)
beside every clue number and in every solution cell, and the legend says which is which.

The pages are built once as a display list in points (origin bottom-left of the trimmed
page); the PDF (reportlab) and LaTeX (jinja2, plain TikZ) back ends only translate it.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from grader import __version__
from grader.colour.io import read_any
from grader.colour.model import ColourArray, ColourPuzzle
from grader.colour.palette import RGB, Palette, luminance
from grader.errors import FormatError, ManyProblems, NonopressError, NotPublishable
from grader.model import Puzzle
from grader.results import Budget
from grader.scoring import printed_stars
from layout.manifest import Manifest, PuzzleRef
from layout.puzzlefiles import PuzzleFiles
from layout.units import MM

if TYPE_CHECKING:
    from grader.colour.grading import ColourGrade

Anchor = Literal["left", "center", "right"]
WHITE_RGB: RGB = (255, 255, 255)
BLACK_RGB: RGB = (0, 0, 0)
CLUE_TINT: RGB = (227, 227, 227)  # the clue area, 11 % grey (presses lose lighter tints)
#: grey print: tints (fractions of black) from the lightest colour's to the darkest's, all
#: light enough for black digits; the symbols tell close tints apart
GREY_LIGHTEST = 0.12
GREY_DARKEST = 0.48
SOLUTIONS_PER_PAGE = 6
MAX_CELL = 8 * MM
AUTO_CELL = 5 * MM  # several puzzles share a page only while their cells stay this big
MAX_PER_PAGE = 4
HEADER = 14 * MM  # header and legend above each puzzle
FOLIO = 6 * MM  # the page number's band at the foot of the text area


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    w: float
    h: float
    fill: RGB | None  # None: outline only
    stroke: float = 0.0  # outline width, 0 for none


@dataclass(frozen=True)
class Segment:
    x1: float
    y1: float
    x2: float
    y2: float
    width: float


@dataclass(frozen=True)
class Label:
    x: float
    y: float  # the centre line for "center", the baseline otherwise
    text: str
    size: float
    rgb: RGB = BLACK_RGB
    anchor: Anchor = "left"
    bold: bool = False


Op = Box | Segment | Label


@dataclass
class ColourPage:
    number: int
    kind: str  # "puzzle" or "solutions"
    ops: list[Op] = field(default_factory=list)


@dataclass(frozen=True)
class _Trimmed:
    """A trimmed page for :func:`layout.sheets.media_for` (size and folio)."""

    width: float
    height: float
    number: int


@dataclass(frozen=True)
class ColourEntry:
    number: int
    puzzle: ColourPuzzle
    title: str
    note: str
    grade: ColourGrade
    solution: ColourArray


# -- reading and grading -------------------------------------------------------------------
def _read_ref(ref: PuzzleRef, files: PuzzleFiles | None = None) -> ColourPuzzle | Puzzle:
    puzzles = files.read_any(ref.path) if files is not None else read_any(ref.path)
    if ref.index is not None:
        if ref.index > len(puzzles):
            raise FormatError(f"index {ref.index}, but the file holds {len(puzzles)}",
                              str(ref.path))
        return puzzles[ref.index - 1]
    if len(puzzles) > 1:
        raise FormatError(f"holds {len(puzzles)} puzzles: say which with index", str(ref.path))
    return puzzles[0]


def manifest_has_colour(manifest: Manifest, files: PuzzleFiles | None = None) -> bool:
    """Whether any puzzle of the issue is a colour puzzle (read errors are left to the
    black-and-white path, which reports them as it always has). ``files`` reads each file
    once for the whole build."""
    for ref in manifest.puzzles:
        if ref.missing:
            continue  # the build names it, with the rest
        try:
            if isinstance(_read_ref(ref, files), ColourPuzzle):
                return True
        except NonopressError:
            return False
    return False


def build_colour_issue(manifest: Manifest, budget: Budget,
                       progress: Callable[[str], None] = lambda _: None,
                       files: PuzzleFiles | None = None) -> list[ColourEntry]:
    from grader.colour.grading import grade_colour  # the compiled solver: only when printing

    entries = []
    blockers: list[str] = []  # every puzzle that keeps the issue from print, named at once
    bad_input = False  # a blocker that is a file's fault, not its puzzle's verdict
    for number, ref in enumerate(manifest.puzzles, 1):
        where = f"{manifest.source}:{ref.line}" if ref.line else str(manifest.source)
        if ref.missing:
            blockers.append(f"{where}: puzzle {number}: file not found: {ref.missing}")
            bad_input = True
            continue
        try:
            read = _read_ref(ref, files)
        except NonopressError as exc:
            blockers.append(f"puzzle {number}: {exc}")
            bad_input = bad_input or not isinstance(exc, NotPublishable)
            continue
        puzzle = read if isinstance(read, ColourPuzzle) else ColourPuzzle.from_black_and_white(
            read)
        grade = grade_colour(puzzle, budget=budget)
        if grade.verdict != "unique":
            blockers.append(f"puzzle {number} ({ref.path.name}): cannot print: the puzzle is "
                            f"{grade.level} (verdict {grade.verdict})")
            continue
        solution = np.log2(grade.grid.astype(np.float64)).round().astype(np.uint8)
        title = ref.title if ref.title is not None else puzzle.title
        entries.append(ColourEntry(number, puzzle, title or "", ref.note, grade, solution))
        k = puzzle.palette.size
        progress(f"{number}. {ref.path.name}: {puzzle.size}, {k} colour{'s' * (k > 1)}, "
                 f"{grade.level}")
    if blockers:
        count = len(blockers)
        raise ManyProblems(
            f"{count} puzzle{'s' * (count != 1)} of {manifest.source} "
            f"block{'s' * (count == 1)} the issue; fix {'them' if count > 1 else 'it'} "
            "and build again:", blockers,
            exit_status=2 if bad_input else NotPublishable.exit_status)
    return entries


# -- colours for ink ------------------------------------------------------------------------
def fill_of(palette: Palette, index: int, grey: bool) -> RGB:
    """The printed fill of colour ``index`` (0 = background): its RGB, or a grey tint."""
    if index == 0:
        return WHITE_RGB
    if not grey:
        return palette[index].rgb
    if palette.size == 1:
        return BLACK_RGB  # black and white needs no symbols
    # lighter colours get lighter tints, all light enough for black digits
    order = sorted(range(1, palette.size + 1), key=lambda i: -luminance(palette[i].rgb))
    rank = order.index(index)
    tint = GREY_LIGHTEST + rank * (GREY_DARKEST - GREY_LIGHTEST) / (palette.size - 1)
    level = round(255 * (1 - tint))
    return (level, level, level)


def digit_colour(fill: RGB) -> RGB:
    """White digits on dark fills, black on light ones."""
    return WHITE_RGB if luminance(fill) < 0.5 else BLACK_RGB


# -- page building --------------------------------------------------------------------------
@dataclass(frozen=True)
class _Frame:
    left: float
    bottom: float
    width: float
    height: float


def _frame(manifest: Manifest) -> _Frame:
    """The area puzzles may use: inside the margins, above the folio band."""
    m = manifest.margins
    return _Frame(m.left, m.bottom + FOLIO, manifest.page.width - m.left - m.right,
                  manifest.page.height - m.top - m.bottom - FOLIO)


def _stars(count: int | None) -> str:
    """Five marks, ``count`` of them filled; none for a grade without a score."""
    return "" if count is None else "*" * count + "." * (5 - count)


def _legend(ops: list[Op], palette: Palette, grey: bool, x: float, y: float,
            size: float) -> None:
    for index in range(1, palette.size + 1):
        colour = palette[index]
        fill = fill_of(palette, index, grey)
        ops.append(Box(x, y - 0.2 * size, size, size, fill, 0.5))
        if grey and colour.symbol:
            ops.append(Label(x + size / 2, y + 0.3 * size, colour.symbol, 0.7 * size,
                             digit_colour(fill), "center", True))
        words = f"{colour.symbol} = {colour.name}" if grey and colour.symbol else colour.name
        ops.append(Label(x + 1.4 * size, y, words, size))
        x += 1.4 * size + len(words) * 0.6 * size + 2 * size


def _grid_lines(ops: list[Op], x0: float, y_top: float, cell: float, width: int,
                height: int, left_extent: float, top_extent: float) -> None:
    """Thin rules between cells, thick every 5 (carried into the clue area), heavy border,
    with the widths the black-and-white layout uses for the same cell size."""
    from layout.draw import line_widths

    thin_w, thick_w, border_w = line_widths(cell)
    for c in range(width + 1):
        thick = c % 5 == 0
        ops.append(Segment(x0 + c * cell, y_top + (top_extent if thick else 0), x0 + c * cell,
                           y_top - height * cell,
                           border_w if c in (0, width) else thick_w if thick else thin_w))
    for r in range(height + 1):
        thick = r % 5 == 0
        ops.append(Segment(x0 - (left_extent if thick else 0), y_top - r * cell,
                           x0 + width * cell, y_top - r * cell,
                           border_w if r in (0, height) else thick_w if thick else thin_w))


def _clue_square(ops: list[Op], x: float, y: float, cell: float, length: int, colour: int,
                 palette: Palette, grey: bool) -> None:
    fill = fill_of(palette, colour, grey)
    ops.append(Box(x, y, cell, cell, fill, 0.3))
    digits = str(length)
    size = cell * (0.62 if len(digits) == 1 else 0.5)
    centre_x = x + cell / 2 - (0.1 * cell if grey else 0)
    ops.append(Label(centre_x, y + cell / 2, digits, size, digit_colour(fill), "center",
                     True))
    if grey and palette.size > 1:
        ops.append(Label(x + cell * 0.84, y + cell * 0.26, palette[colour].symbol,
                         cell * 0.3, digit_colour(fill), "center"))


def _cell_size(entry: ColourEntry, frame: _Frame) -> float:
    puzzle = entry.puzzle
    row_depth = max(1, max(len(c) for c in puzzle.rows))
    col_depth = max(1, max(len(c) for c in puzzle.columns))
    usable_h = frame.height - HEADER - (8 * MM if entry.note else 0)
    return min(MAX_CELL, frame.width / (row_depth + puzzle.width),
               usable_h / (col_depth + puzzle.height))


def draw_puzzle(ops: list[Op], entry: ColourEntry, manifest: Manifest, frame: _Frame) -> None:
    """Header, legend, clues and grid of one puzzle, centred in ``frame``."""
    puzzle, palette, grey = entry.puzzle, entry.puzzle.palette, manifest.grey
    top = frame.bottom + frame.height
    header = f"No. {entry.number}"
    if entry.title and not any(ref.hide_title for ref in manifest.puzzles[entry.number - 1:
                                                                          entry.number]):
        header += f"  {entry.title}"
    ops.append(Label(frame.left, top - 5 * MM, header, 13, bold=True))
    stars = printed_stars(entry.grade.level, entry.grade.stars)
    ops.append(Label(frame.left + frame.width, top - 5 * MM,
                     f"{puzzle.size}  {palette.size} colour{'s' * (palette.size > 1)}  "
                     f"{_stars(stars)}", 10, anchor="right"))
    _legend(ops, palette, grey, frame.left, top - 11 * MM, 3.2 * MM)
    row_depth = max(1, max(len(c) for c in puzzle.rows))
    col_depth = max(1, max(len(c) for c in puzzle.columns))
    cell = _cell_size(entry, frame)
    total_w = (row_depth + puzzle.width) * cell
    x0 = frame.left + (frame.width - total_w) / 2 + row_depth * cell  # grid's left edge
    y_top = top - HEADER - col_depth * cell  # grid's top edge
    # clue areas, tinted, then one square per block
    ops.append(Box(x0 - row_depth * cell, y_top - puzzle.height * cell, row_depth * cell,
                   puzzle.height * cell, CLUE_TINT))
    ops.append(Box(x0, y_top, puzzle.width * cell, col_depth * cell, CLUE_TINT))
    for r, clue in enumerate(puzzle.rows):
        for j, (length, colour) in enumerate(clue):
            x = x0 - (len(clue) - j) * cell
            _clue_square(ops, x, y_top - (r + 1) * cell, cell, length, colour, palette, grey)
    for c, clue in enumerate(puzzle.columns):
        for j, (length, colour) in enumerate(clue):
            y = y_top + (len(clue) - j - 1) * cell
            _clue_square(ops, x0 + c * cell, y, cell, length, colour, palette, grey)
    _grid_lines(ops, x0, y_top, cell, puzzle.width, puzzle.height, row_depth * cell,
                col_depth * cell)
    if entry.note:
        ops.append(Label(frame.left, y_top - puzzle.height * cell - 6 * MM, entry.note, 10))


def _slots(frame: _Frame, count: int) -> list[_Frame]:
    """1: the whole frame; 2: top and bottom halves; 3-4: a 2x2 grid (reading order)."""
    gap = 8 * MM
    if count == 1:
        return [frame]
    half_h = (frame.height - gap) / 2
    if count == 2:
        return [_Frame(frame.left, frame.bottom + half_h + gap, frame.width, half_h),
                _Frame(frame.left, frame.bottom, frame.width, half_h)]
    half_w = (frame.width - gap) / 2
    return [_Frame(frame.left + col * (half_w + gap), frame.bottom + (1 - row) * (half_h + gap),
                   half_w, half_h) for row in (0, 1) for col in (0, 1)]


def group_puzzles(entries: Sequence[ColourEntry], manifest: Manifest) -> list[list[ColourEntry]]:
    """Puzzles per page: ``per_page`` (1-4) if the manifest says, else as many (4, 2, 1) as
    fit with cells of at least AUTO_CELL."""
    frame = _frame(manifest)
    groups: list[list[ColourEntry]] = []
    index = 0
    while index < len(entries):
        if manifest.per_page is not None:
            count = min(manifest.per_page, MAX_PER_PAGE)
        else:
            count = 1
            for candidate in (4, 2):
                chunk = entries[index:index + candidate]
                slots = _slots(frame, candidate)
                if len(chunk) == candidate and all(
                        _cell_size(e, slot) >= AUTO_CELL for e, slot in zip(chunk, slots,
                                                                          strict=False)):
                    count = candidate
                    break
        groups.append(list(entries[index:index + count]))
        index += count
    return groups


def puzzle_page(entries: Sequence[ColourEntry], manifest: Manifest, page_number: int
                ) -> ColourPage:
    frame = _frame(manifest)
    page = ColourPage(page_number, "puzzle")
    slots = _slots(frame, len(entries) if len(entries) <= 2 else 4)
    for entry, slot in zip(entries, slots, strict=False):
        draw_puzzle(page.ops, entry, manifest, slot)
    page.ops.append(Label(frame.left + frame.width / 2, frame.bottom - FOLIO + 1 * MM,
                          str(page_number), 9, anchor="center"))
    return page


def solution_grid(ops: list[Op], entry: ColourEntry, grey: bool, x: float, y_top: float,
                  width: float, height: float) -> None:
    puzzle, palette = entry.puzzle, entry.puzzle.palette
    ops.append(Label(x, y_top - 4 * MM, f"No. {entry.number}"
                     + (f"  {entry.title}" if entry.title else ""), 10, bold=True))
    cell = min(width / puzzle.width, (height - 7 * MM) / puzzle.height, 5 * MM)
    top = y_top - 7 * MM
    for r in range(puzzle.height):
        for c in range(puzzle.width):
            value = int(entry.solution[r, c])
            if value == 0:
                continue
            fill = fill_of(palette, value, grey)
            ops.append(Box(x + c * cell, top - (r + 1) * cell, cell, cell, fill))
            if grey and palette.size > 1 and cell >= 2.2 * MM:
                ops.append(Label(x + (c + 0.5) * cell, top - (r + 0.5) * cell,
                                 palette[value].symbol, cell * 0.6, digit_colour(fill),
                                 "center"))
    ops.append(Box(x, top - puzzle.height * cell, puzzle.width * cell, puzzle.height * cell,
                   None, 0.8))


def solution_pages(entries: Sequence[ColourEntry], manifest: Manifest, first: int
                   ) -> list[ColourPage]:
    frame = _frame(manifest)
    pages: list[ColourPage] = []
    columns, rows = 2, SOLUTIONS_PER_PAGE // 2
    slot_w, slot_h = frame.width / columns, (frame.height - 10 * MM) / rows
    for start in range(0, len(entries), SOLUTIONS_PER_PAGE):
        page = ColourPage(first + len(pages), "solutions")
        top = frame.bottom + frame.height
        page.ops.append(Label(frame.left, top - 5 * MM, "Solutions", 13, bold=True))
        for slot, entry in enumerate(entries[start:start + SOLUTIONS_PER_PAGE]):
            col, row = slot % columns, slot // columns
            solution_grid(page.ops, entry, manifest.grey, frame.left + col * slot_w,
                          top - 10 * MM - row * slot_h, slot_w - 6 * MM, slot_h - 4 * MM)
        page.ops.append(Label(frame.left + frame.width / 2, frame.bottom - FOLIO + 1 * MM,
                              str(page.number), 9, anchor="center"))
        pages.append(page)
    return pages


def unsupported_options(manifest: Manifest) -> list[str]:
    """Manifest options the colour layout does not honour yet (said as warnings)."""
    ignored = []
    if manifest.worked:
        ignored.append("worked (worked-solution pages)")
    if manifest.impose:
        ignored.append("impose (sheet imposition)")
    if manifest.profile.name == "pdfx":
        ignored.append("profile pdfx (no PDF/X-1a output intent or CMYK conversion of "
                       "colours yet)")
    if manifest.per_page is not None and manifest.per_page > MAX_PER_PAGE:
        ignored.append(f"per_page above {MAX_PER_PAGE} (colour pages hold at most "
                       f"{MAX_PER_PAGE})")
    return ignored


def plan_colour_issue(entries: Sequence[ColourEntry], manifest: Manifest) -> list[ColourPage]:
    """The pages; under the KDP profile both side margins keep KDP's gutter for the page
    count (symmetric, so any page may be a recto or a verso)."""
    if manifest.profile.name != "kdp":
        return _plan(entries, manifest)
    from dataclasses import replace

    from layout.profiles import kdp_gutter

    count = len(_plan(entries, manifest))
    pages: list[ColourPage] = []
    for _ in range(4):  # the gutter grows with the count, which the margins may change
        gutter = kdp_gutter(count) + 3.0
        m = manifest.margins
        wider = replace(manifest, margins=replace(m, left=max(m.left, gutter),
                                                  right=max(m.right, gutter)))
        pages = _plan(entries, wider)
        if len(pages) == count:
            break
        count = len(pages)
    return pages


def _plan(entries: Sequence[ColourEntry], manifest: Manifest) -> list[ColourPage]:
    groups = group_puzzles(entries, manifest)
    pages = [puzzle_page(group, manifest, n) for n, group in enumerate(groups, 1)]
    if manifest.solutions:
        pages += solution_pages(entries, manifest, len(pages) + 1)
    if manifest.booklet:
        while len(pages) % 4:
            pages.append(ColourPage(len(pages) + 1, "blank"))
    return pages


# -- PDF --------------------------------------------------------------------------------------
def render_colour_pdf(pages: Sequence[ColourPage], manifest: Manifest) -> bytes:
    from reportlab.pdfgen.canvas import Canvas

    from layout.fonts import register_fonts

    regular, bold = register_fonts()
    buffer = io.BytesIO()
    canvas = Canvas(buffer, invariant=1, pageCompression=1, initialFontName=regular,
                    initialFontSize=10)
    canvas.setTitle(manifest.title)
    canvas.setAuthor(manifest.author or "Nonopress")
    canvas.setCreator(f"nonopress {__version__} (reportlab)")
    from layout.sheets import crop_marks, media_for

    def fill(rgb: RGB) -> None:
        if manifest.grey:  # pure K ink: nothing for the printer to mix
            canvas.setFillColorCMYK(0, 0, 0, 1 - rgb[0] / 255)
        else:
            canvas.setFillColorRGB(*(v / 255 for v in rgb))

    def stroke_black() -> None:
        if manifest.grey:
            canvas.setStrokeColorCMYK(0, 0, 0, 1)
        else:
            canvas.setStrokeColorRGB(0, 0, 0)

    for page in pages:
        bookmarks = manifest.profile.name != "kdp"  # KDP refuses bookmarks
        if bookmarks and (page.kind == "puzzle" or (
                page.kind == "solutions"
                and page is next(p for p in pages if p.kind == "solutions"))):
            key = f"page{page.number}"
            canvas.bookmarkPage(key)
            title = f"No. {page.number}" if page.kind == "puzzle" else "Solutions"
            canvas.addOutlineEntry(title, key, level=0)
        trimmed = _Trimmed(manifest.page.width, manifest.page.height, page.number)
        media = media_for(trimmed, manifest)
        canvas.setPageSize((media.width, media.height))
        canvas.setTrimBox(media.trim)
        canvas.setBleedBox(media.bleed)
        canvas.setCropBox((0, 0, media.width, media.height))
        canvas.translate(media.trim[0], media.trim[1])
        if manifest.crop_marks:
            stroke_black()
            marks = crop_marks(trimmed, manifest)
            canvas.setLineWidth(marks.width)
            for x1, y1, x2, y2 in marks.segments:
                canvas.line(x1, y1, x2, y2)
        for op in page.ops:
            if isinstance(op, Box):
                if op.fill is not None:
                    fill(op.fill)
                stroke_black()
                canvas.setLineWidth(max(op.stroke, manifest.profile.design_line))
                canvas.rect(op.x, op.y, op.w, op.h, stroke=1 if op.stroke else 0,
                            fill=1 if op.fill is not None else 0)
            elif isinstance(op, Segment):
                stroke_black()
                canvas.setLineWidth(max(op.width, manifest.profile.design_line))
                canvas.line(op.x1, op.y1, op.x2, op.y2)
            else:
                fill(op.rgb)
                size = manifest.profile.text(op.size)
                canvas.setFont(bold if op.bold else regular, size)
                y = op.y - 0.36 * size if op.anchor == "center" else op.y
                if op.anchor == "center":
                    canvas.drawCentredString(op.x, y, op.text)
                elif op.anchor == "right":
                    canvas.drawRightString(op.x, y, op.text)
                else:
                    canvas.drawString(op.x, y, op.text)
        canvas.showPage()
    if manifest.profile.name != "kdp":
        canvas.showOutline()
    canvas.save()
    return buffer.getvalue()


# -- LaTeX ------------------------------------------------------------------------------------
def _n(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def render_colour_latex(pages: Sequence[ColourPage], manifest: Manifest,
                        jobname: str = "issue") -> str:
    from layout.latex import _environment
    from layout.sheets import crop_marks, media_for

    names: dict[RGB, str] = {}

    def colour(rgb: RGB) -> str:
        if rgb not in names:
            names[rgb] = f"npc{len(names)}"
        return names[rgb]

    rendered = []
    for page in pages:
        ops: list[dict[str, Any]] = []
        for op in page.ops:
            if isinstance(op, Box):
                ops.append({"kind": "box", "x": _n(op.x), "y": _n(op.y), "w": _n(op.w),
                            "h": _n(op.h), "fill": colour(op.fill) if op.fill else "",
                            "stroke": _n(op.stroke)})
            elif isinstance(op, Segment):
                ops.append({"kind": "line", "x1": _n(op.x1), "y1": _n(op.y1),
                            "x2": _n(op.x2), "y2": _n(op.y2), "width": _n(op.width)})
            else:
                anchor = {"left": "left,base", "right": "right,base", "center": ""}[op.anchor]
                ops.append({"kind": "text", "x": _n(op.x), "y": _n(op.y), "text": op.text,
                            "size": _n(op.size), "colour": colour(op.rgb), "bold": op.bold,
                            "anchor": anchor})
        media = media_for(_Trimmed(manifest.page.width, manifest.page.height, page.number),
                          manifest)
        if manifest.crop_marks:
            marks = crop_marks(_Trimmed(manifest.page.width, manifest.page.height,
                                        page.number), manifest)
            ops.extend({"kind": "line", "x1": _n(x1), "y1": _n(y1), "x2": _n(x2),
                        "y2": _n(y2), "width": _n(marks.width)}
                       for x1, y1, x2, y2 in marks.segments)
        rendered.append({
            "number": page.number, "kind": page.kind, "ops": ops,
            "media_w": _n(media.width), "media_h": _n(media.height),
            "x": _n(media.trim[0]), "y": _n(media.trim[1]),
            "trim": " ".join(_n(v) for v in media.trim),
            "bleedbox": " ".join(_n(v) for v in media.bleed)})
    colours = []
    for rgb, name in names.items():
        if manifest.grey:
            colours.append((name, "gray", _n(rgb[0] / 255)))
        else:
            colours.append((name, "RGB", ",".join(str(v) for v in rgb)))
    template = _environment().get_template("colour_issue.tex.j2")
    return template.render(
        jobname=jobname, title=manifest.title, author=manifest.author or "Nonopress",
        creator=f"nonopress {__version__}", colours=colours, pages=rendered)


__all__ = [
    "ColourEntry", "ColourPage", "build_colour_issue", "fill_of", "manifest_has_colour",
    "plan_colour_issue", "render_colour_latex", "render_colour_pdf",
]
