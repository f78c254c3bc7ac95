"""One puzzle drawn as an editor shows it to a colleague: its clues, its grid and,
optionally, its solution, on a page of its own size, as PNG, SVG, PDF or EPS.

The block is the one the issue prints (:func:`layout.kinds.puzzle_ops`, same rules, tint
and digits); the three back ends only translate its display list.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from xml.sax.saxutils import escape

from grader.colour.model import ColourArray, ColourPuzzle
from grader.colour.palette import RGB
from grader.errors import PuzzleError
from grader.model import BoolArray, Puzzle
from layout.draw import ClueText, Lines, Page, Polygons, Rects, Text
from layout.fonts import DIGIT_HEIGHT
from layout.geometry import BlockGeometry
from layout.kinds import puzzle_ops

#: the cell size in points (a PNG has 2 pixels a point: 28 px cells)
CELL = 14.0
#: room around the block, and the caption's size
MARGIN, CAPTION = 18.0, 11.0
#: pixels a point in PNG
PNG_SCALE = 2.0
FORMATS = ("png", "svg", "pdf", "eps")
#: the most cells (grid and clue cells) a drawing holds, and the most pixels a PNG has:
#: checked from the puzzle's size before anything is drawn (a 4096x1024 puzzle at 14 pt
#: cells would be a 114,788 x 28,816 PNG, 12 GiB of pixels)
MAX_DRAWN_CELLS = 1_000_000
MAX_PNG_PIXELS = 40_000_000
#: RGB of each colour role on screen
SCREEN: dict[str, tuple[int, int, int]] = {
    "ink": (0, 0, 0), "tint": (225, 225, 225), "accent": (255, 178, 76), "step": (255, 178, 76),
    "paper": (255, 255, 255), "rule": (102, 102, 102),
}


def check_size(puzzle: Puzzle | ColourPuzzle, cell: float, kind: str) -> None:
    """PuzzleError when the drawing would be over the bounds: asked before a solve, a
    grade or a drawing spends anything on it."""
    geometry = BlockGeometry.of(puzzle)
    cells = geometry.total_width * geometry.total_height
    if cells > MAX_DRAWN_CELLS:
        raise PuzzleError(f"a {puzzle.width}x{puzzle.height} puzzle with its clues is "
                          f"{cells:,} cells, over the {MAX_DRAWN_CELLS:,} a drawing holds")
    if kind == "png":
        width = round((geometry.total_width * cell + 2 * MARGIN) * PNG_SCALE)
        height = round((geometry.total_height * cell + 2 * MARGIN + 2 * CAPTION) * PNG_SCALE)
        if width * height > MAX_PNG_PIXELS:
            raise PuzzleError(f"the PNG would be {width:,} x {height:,} pixels, over "
                              f"{MAX_PNG_PIXELS:,}: use a smaller --cell, or .svg or .pdf")


def puzzle_page(puzzle: Puzzle | ColourPuzzle, solution: BoolArray | ColourArray | None = None,
                caption: str = "", cell: float = CELL) -> Page:
    """A page just large enough for the caption and the block (either kind of puzzle: a
    colour one's clues and cells in its colours)."""
    geometry = BlockGeometry.of(puzzle)
    cells = geometry.total_width * geometry.total_height
    if cells > MAX_DRAWN_CELLS:
        raise PuzzleError(f"a {puzzle.width}x{puzzle.height} puzzle with its clues is "
                          f"{cells:,} cells, over the {MAX_DRAWN_CELLS:,} a drawing holds")
    width = geometry.total_width * cell + 2 * MARGIN
    caption_room = 2 * CAPTION if caption else 0.0
    height = geometry.total_height * cell + 2 * MARGIN + caption_room
    top = height - MARGIN - caption_room
    page = Page(width, height, "puzzle")
    if caption:
        page.ops.append(Text(MARGIN, height - MARGIN - CAPTION, caption, CAPTION, bold=True))
    page.ops.extend(puzzle_ops(puzzle, geometry, MARGIN, top, cell, solution))
    return page


def render(page: Page, kind: str) -> bytes:
    """The page as ``png``, ``svg``, ``pdf`` or ``eps`` bytes."""
    if kind == "png":
        return _png(page)
    if kind == "svg":
        return _svg(page).encode("utf-8")
    if kind == "pdf":
        return _pdf(page)
    if kind == "eps":
        return _eps(page).encode("latin-1")
    raise ValueError(f"no renderer for {kind!r} (one of {', '.join(FORMATS)})")


def _png(page: Page) -> bytes:
    from PIL import Image, ImageDraw, ImageFont

    from layout.fonts import font_files

    scale = PNG_SCALE
    size = (round(page.width * scale), round(page.height * scale))
    if size[0] * size[1] > MAX_PNG_PIXELS:  # before the image is allocated
        raise PuzzleError(f"the PNG would be {size[0]:,} x {size[1]:,} pixels, over "
                          f"{MAX_PNG_PIXELS:,}: use a smaller --cell, or .svg or .pdf")
    image = Image.new("RGB", size, SCREEN["paper"])
    draw = ImageDraw.Draw(image)
    files = font_files()
    regular, bold = (str(path) for path in files.values())

    def at(x: float, y: float) -> tuple[float, float]:  # PDF space -> pixels
        return x * scale, (page.height - y) * scale

    def font(points: float, heavy: bool = False) -> ImageFont.FreeTypeFont:
        return ImageFont.truetype(bold if heavy else regular, max(1, round(points * scale)))

    for op in page.ops:
        if isinstance(op, Rects):
            for x, y, w, h in op.rects:
                left, bottom = at(x, y)
                right, top = at(x + w, y + h)
                draw.rectangle((left, top, right - 1, bottom - 1), fill=op.rgb or SCREEN[op.role])
        elif isinstance(op, Lines):
            width = max(1, round(op.width * scale))
            for x1, y1, x2, y2 in op.segments:
                draw.line((*at(x1, y1), *at(x2, y2)), fill=SCREEN[op.role], width=width)
        elif isinstance(op, ClueText):
            face = font(op.size)
            for x, y, text in op.items:
                draw.text(at(x, y), text, fill=op.rgb or SCREEN["ink"], font=face, anchor="mm")
        elif isinstance(op, Text):
            anchor = {"left": "ls", "center": "ms", "right": "rs"}[op.anchor]
            draw.text(at(op.x, op.y), op.text, fill=SCREEN[op.role], anchor=anchor,
                      font=font(op.size, op.bold))
        elif isinstance(op, Polygons):
            for polygon in op.polygons:
                draw.polygon([at(x, y) for x, y in polygon],
                             fill=SCREEN[op.role] if op.fill else None, outline=SCREEN[op.role])
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def _colour(role: str, rgb: RGB | None = None) -> str:
    """A role's screen colour as #rrggbb, or a colour puzzle's own ``rgb``."""
    return "#{:02x}{:02x}{:02x}".format(*(rgb or SCREEN[role]))


def _svg(page: Page) -> str:
    height = page.height

    def y_of(y: float) -> float:
        return height - y

    parts = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{page.width:.2f}pt" '
        f'height="{height:.2f}pt" viewBox="0 0 {page.width:.2f} {height:.2f}">',
        f'<rect width="100%" height="100%" fill="{_colour("paper")}"/>',
    ]
    for op in page.ops:
        if isinstance(op, Rects) and op.rects:
            path = " ".join(f"M{x:.2f} {y_of(y + h):.2f}h{w:.2f}v{h:.2f}h{-w:.2f}z"
                            for x, y, w, h in op.rects)
            parts.append(f'<path fill="{_colour(op.role, op.rgb)}" d="{path}"/>')
        elif isinstance(op, Lines) and op.segments:
            path = " ".join(f"M{x1:.2f} {y_of(y1):.2f}L{x2:.2f} {y_of(y2):.2f}"
                            for x1, y1, x2, y2 in op.segments)
            parts.append(f'<path fill="none" stroke="{_colour(op.role)}" '
                         f'stroke-width="{op.width:.2f}" stroke-linecap="square" d="{path}"/>')
        elif isinstance(op, ClueText):
            lift = DIGIT_HEIGHT * op.size / 2
            digits = _colour("ink", op.rgb)
            parts.append(f'<g font-family="DejaVu Sans, Bitstream Vera Sans, sans-serif" '
                         f'font-size="{op.size:.2f}" text-anchor="middle" fill="{digits}">')
            parts.extend(f'<text x="{x:.2f}" y="{y_of(y - lift):.2f}">{escape(text)}</text>'
                         for x, y, text in op.items)
            parts.append("</g>")
        elif isinstance(op, Text):
            anchor = {"left": "start", "center": "middle", "right": "end"}[op.anchor]
            weight = ' font-weight="bold"' if op.bold else ""
            parts.append(f'<text x="{op.x:.2f}" y="{y_of(op.y):.2f}" font-size="{op.size:.2f}" '
                         f'font-family="DejaVu Sans, Bitstream Vera Sans, sans-serif" '
                         f'text-anchor="{anchor}"{weight} fill="{_colour(op.role)}">'
                         f"{escape(op.text)}</text>")
        elif isinstance(op, Polygons):
            for polygon in op.polygons:
                points = " ".join(f"{x:.2f},{y_of(y):.2f}" for x, y in polygon)
                fill = _colour(op.role) if op.fill else "none"
                parts.append(f'<polygon points="{points}" fill="{fill}" '
                             f'stroke="{_colour(op.role)}" stroke-width="{op.width:.2f}"/>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _pdf(page: Page) -> bytes:
    from reportlab.pdfgen.canvas import Canvas

    from layout.fonts import register_fonts
    from layout.pdf import draw_ops

    regular, _ = register_fonts()
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(page.width, page.height), invariant=1,
                    pageCompression=1, initialFontName=regular, initialFontSize=10)
    canvas.setCreator("nonopress render (reportlab)")
    draw_ops(canvas, page.ops)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _ps_text(text: str) -> str:
    """A PostScript string of ``text`` in Latin-1 (Helvetica's encoding here): specials
    escaped, a character Latin-1 lacks written as '?' (stars as '*' and '.')."""
    text = text.replace("\u2605", "*").replace("\u2606", ".")
    out = []
    for char in text:
        code = ord(char) if ord(char) < 256 else ord("?")
        if char in "()\\":
            out.append("\\" + char)
        elif 32 <= code < 127:
            out.append(chr(code))
        else:
            out.append(f"\\{code:03o}")
    return "(" + "".join(out) + ")"


def _ps_colour(role: str, rgb: RGB | None = None) -> str:
    """A colour as print partners want it: a grey (black too) as K alone (``setgray``,
    never RGB black, which prints as four inks), any other colour as CMYK."""
    red, green, blue = rgb or SCREEN[role]
    if red == green == blue:
        return f"{red / 255:.4f} setgray"
    key = 1.0 - max(red, green, blue) / 255
    inks = [(1.0 - v / 255 - key) / (1.0 - key) for v in (red, green, blue)]
    return " ".join(f"{v:.4f}" for v in (*inks, key)) + " setcmykcolor"


def _eps(page: Page) -> str:
    """Encapsulated PostScript of the page, for houses whose layout programs place EPS:
    the display list as PostScript, Helvetica for the text (every RIP has it; its digits
    are as wide as DejaVu's within a cell), the bounding box the page's own."""
    width, height = page.width, page.height
    lines = [
        "%!PS-Adobe-3.0 EPSF-3.0",
        f"%%BoundingBox: 0 0 {math.ceil(width)} {math.ceil(height)}",
        f"%%HiResBoundingBox: 0 0 {width:.2f} {height:.2f}",
        "%%Creator: nonopress render",
        "%%LanguageLevel: 2",
        "%%Pages: 1",
        "%%EndComments",
        "%%BeginProlog",
        "/R { rectfill } bind def",
        "/L { moveto lineto stroke } bind def",
        "/C { dup stringwidth pop 2 div neg 0 rmoveto show } bind def",
        "/E { dup stringwidth pop neg 0 rmoveto show } bind def",
        "/ISO { findfont dup length dict begin { 1 index /FID ne { def } { pop pop } "
        "ifelse } forall /Encoding ISOLatin1Encoding def currentdict end definefont pop } "
        "bind def",
        "/Helvetica-L1 /Helvetica ISO /Helvetica-Bold-L1 /Helvetica-Bold ISO",
        "%%EndProlog",
        "%%Page: 1 1",
        "gsave",
        f"{_ps_colour('paper')} 0 0 {width:.2f} {height:.2f} R",
        "2 setlinecap",
    ]
    for op in page.ops:
        if isinstance(op, Rects) and op.rects:
            lines.append(_ps_colour(op.role, op.rgb))
            lines.extend(f"{x:.2f} {y:.2f} {w:.2f} {h:.2f} R" for x, y, w, h in op.rects)
        elif isinstance(op, Lines) and op.segments:
            lines.append(f"{_ps_colour(op.role)} {op.width:.2f} setlinewidth")
            lines.extend(f"{x1:.2f} {y1:.2f} {x2:.2f} {y2:.2f} L"
                         for x1, y1, x2, y2 in op.segments)
        elif isinstance(op, ClueText) and op.items:
            lift = DIGIT_HEIGHT * op.size / 2
            lines.append(f"{_ps_colour('ink', op.rgb)} /Helvetica-L1 findfont {op.size:.2f} "
                         "scalefont setfont")
            lines.extend(f"{x:.2f} {y - lift:.2f} moveto {_ps_text(text)} C"
                         for x, y, text in op.items)
        elif isinstance(op, Text):
            face = "/Helvetica-Bold-L1" if op.bold else "/Helvetica-L1"
            show = {"left": "show", "center": "C", "right": "E"}[op.anchor]
            lines.append(f"{_ps_colour(op.role)} {face} findfont {op.size:.2f} scalefont setfont "
                         f"{op.x:.2f} {op.y:.2f} moveto {_ps_text(op.text)} {show}")
        elif isinstance(op, Polygons):
            lines.append(f"{_ps_colour(op.role)} {op.width:.2f} setlinewidth")
            for polygon in op.polygons:
                path = " ".join(f"{x:.2f} {y:.2f} {'moveto' if k == 0 else 'lineto'}"
                                for k, (x, y) in enumerate(polygon))
                lines.append(f"newpath {path} closepath {'fill' if op.fill else 'stroke'}")
    lines += ["grestore", "showpage", "%%EOF"]
    return "\n".join(lines) + "\n"


def caption_of(puzzle: Puzzle | ColourPuzzle, extra: Sequence[str] = (),
               title: bool = True) -> str:
    """'Title, 20x15' and whatever else is known (level, stars), by commas; ``title``
    False leaves the title out (a puzzle's art: the title would give the picture away)."""
    shown = puzzle.title if title else ""
    return ", ".join(part for part in (shown, puzzle.size, *extra) if part)
