"""The PDF back end: draws an issue plan on a reportlab canvas.

Every font is the embedded TrueType face (``initialFontName`` keeps reportlab from
referencing Helvetica); ``invariant=1`` makes the bytes reproducible; every colour is in the
profile's colour space (``Profile.colour_space``: CMYK for all three), black and greys pure
K ink always, and with ``grey`` the accent colour too. (RGB is left to a single puzzle drawn
for the screen, :func:`draw_ops`.)
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from reportlab.pdfgen.canvas import Canvas

from grader import __version__
from grader.wording import plural
from layout.draw import RGB, ClueText, Lines, Op, Polygons, Rects, Role, Text
from layout.fonts import DIGIT_HEIGHT, printable, register_fonts, text_width
from layout.issue import Issue
from layout.pdfx import make_pdfx
from layout.plan import IssuePlan
from layout.preflight.record import PageRecorder
from layout.preflight.scan import Colour, PageScan
from layout.sheets import Sheet, crop_marks, media_for, saddle_stitch, single_sheets

#: Grey level (0 = white, 1 = black) of each colour role.
GREY_OF: dict[Role, float] = {"ink": 1.0, "tint": 0.12, "accent": 1.0, "paper": 0.0, "rule": 0.6,
                              "step": 0.5}
#: RGB for screen-friendly colour output; the accent is a dark blue.
RGB_OF: dict[Role, tuple[float, float, float]] = {
    "ink": (0.0, 0.0, 0.0),
    "tint": (0.88, 0.88, 0.88),
    "accent": (0.08, 0.22, 0.5),
    "step": (0.08, 0.22, 0.5),
    "paper": (1.0, 1.0, 1.0),
    "rule": (0.4, 0.4, 0.4),
}
#: Roles printed in K ink alone in colour output too: black and greys set in RGB print
#: as four-colour "rich" black and grey on press, which smears and misregisters
NEUTRAL_ROLES: frozenset[Role] = frozenset({"ink", "tint", "paper", "rule"})
#: CMYK for colour in an issue (every profile): black is pure K, the accent a dark blue.
CMYK_OF: dict[Role, tuple[float, float, float, float]] = {
    "ink": (0.0, 0.0, 0.0, 1.0),
    "tint": (0.0, 0.0, 0.0, 0.12),
    "accent": (1.0, 0.7, 0.0, 0.3),
    "step": (1.0, 0.7, 0.0, 0.3),
    "paper": (0.0, 0.0, 0.0, 0.0),
    "rule": (0.0, 0.0, 0.0, 0.6),
}


def rgb_to_cmyk(rgb: RGB) -> tuple[float, float, float, float]:
    """A colour puzzle's RGB as process CMYK (full grey component replacement: the grey
    part of a colour is K ink alone, so a dark colour never nears the ink limit)."""
    r, g, b = (v / 255 for v in rgb)
    k = 1 - max(r, g, b)
    if k >= 1:
        return (0.0, 0.0, 0.0, 1.0)
    c, m, y = (round((1 - v - k) / (1 - k), 3) for v in (r, g, b))
    return (c, m, y, round(k, 3))


def neutral_k(rgb: RGB) -> float | None:
    """The K ink of a neutral (grey or black) RGB, None for a chromatic one."""
    if rgb[0] == rgb[1] == rgb[2]:
        return round(1 - rgb[0] / 255, 3)
    return None


class _Painter:
    def __init__(self, canvas: Canvas, grey: bool, cmyk: bool = False):
        self.canvas = canvas
        self.grey = grey
        self.cmyk = cmyk  # colour in CMYK (PDF/X) rather than RGB
        self.regular, self.bold = register_fonts()
        #: the marks of the sheet being drawn, for the preflight (None: not recorded)
        self.record: PageRecorder | None = None

    def _role_colour(self, role: Role) -> Colour:
        if self.grey or role in NEUTRAL_ROLES:
            return Colour("DeviceCMYK", (0.0, 0.0, 0.0, GREY_OF[role]))
        if self.cmyk:
            return Colour("DeviceCMYK", CMYK_OF[role])
        return Colour("DeviceRGB", RGB_OF[role])

    def _rgb_colour(self, rgb: RGB) -> Colour:
        """A colour puzzle's colour: neutral ones (and all under grey) as pure K ink,
        others as CMYK under PDF/X, RGB otherwise."""
        k = neutral_k(rgb)
        if k is None and self.grey:  # a chromatic colour in grey print: its lightness
            k = round(1 - (0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]) / 255, 3)
        if k is not None:
            return Colour("DeviceCMYK", (0.0, 0.0, 0.0, k))
        if self.cmyk:
            return Colour("DeviceCMYK", rgb_to_cmyk(rgb))
        return Colour("DeviceRGB", tuple(v / 255 for v in rgb))

    def _set(self, colour: Colour, stroke: bool) -> None:
        c = self.canvas
        if colour.space == "DeviceCMYK":
            (c.setStrokeColorCMYK if stroke else c.setFillColorCMYK)(*colour.values)
        else:
            (c.setStrokeColorRGB if stroke else c.setFillColorRGB)(*colour.values)

    def fill_rgb(self, rgb: RGB) -> Colour:
        colour = self._rgb_colour(rgb)
        self._set(colour, stroke=False)
        return colour

    def fill(self, role: Role) -> Colour:
        colour = self._role_colour(role)
        self._set(colour, stroke=False)
        return colour

    def stroke(self, role: Role) -> Colour:
        colour = self._role_colour(role)
        self._set(colour, stroke=True)
        return colour

    def draw(self, op: Op) -> None:
        c = self.canvas
        record = self.record
        if isinstance(op, Rects):
            if not op.rects:
                return
            colour = self.fill(op.role) if op.rgb is None else self.fill_rgb(op.rgb)
            path = c.beginPath()
            for x, y, w, h in op.rects:
                path.rect(x, y, w, h)
            c.drawPath(path, stroke=0, fill=1)
            if record is not None:
                record.rects(colour, op.rects)
        elif isinstance(op, Lines):
            colour = self.stroke(op.role)
            c.setLineWidth(op.width)
            path = c.beginPath()
            for x1, y1, x2, y2 in op.segments:
                path.moveTo(x1, y1)
                path.lineTo(x2, y2)
            c.drawPath(path, stroke=1, fill=0)
            if record is not None:
                segments = op.segments
                record.path(None, colour, op.width,
                            [s[0] for s in segments] + [s[2] for s in segments],
                            [s[1] for s in segments] + [s[3] for s in segments], len(segments))
        elif isinstance(op, ClueText):
            colour = self.fill("ink") if op.rgb is None else self.fill_rgb(op.rgb)
            text = c.beginText()
            text.setFont(self.regular, op.size)
            lift = DIGIT_HEIGHT * op.size / 2
            runs = []
            for x, y, s in op.items:
                width = text_width(s, op.size)
                text.setTextOrigin(x - width / 2, y - lift)
                text.textOut(s)
                if s:
                    runs.append((x - width / 2, y - lift, width))
            c.drawText(text)
            if record is not None and runs:
                shown = " ".join(s for _, _, s in op.items[:8] if s)
                record.text(colour, runs, op.size, f"clue numbers {shown}", self.regular)
        elif isinstance(op, Text):
            colour = self.fill(op.role)
            font = self.bold if op.bold else self.regular
            c.setFont(font, op.size)
            text = printable(op.text)
            if op.anchor == "left":
                c.drawString(op.x, op.y, text)
            elif op.anchor == "right":
                c.drawRightString(op.x, op.y, text)
            else:
                c.drawCentredString(op.x, op.y, text)
            if record is not None:
                width = text_width(text, op.size, bold=op.bold)
                left = {"left": op.x, "right": op.x - width}.get(op.anchor, op.x - width / 2)
                record.text(colour, [(left, op.y, width)], op.size, text, font)
        elif isinstance(op, Polygons):
            fill = self.fill(op.role) if op.fill else None
            colour = self.stroke(op.role)
            c.setLineWidth(op.width)
            path = c.beginPath()
            for polygon in op.polygons:
                path.moveTo(*polygon[0])
                for point in polygon[1:]:
                    path.lineTo(*point)
                path.close()
            c.drawPath(path, stroke=1, fill=1 if op.fill else 0)
            if record is not None:
                points = [p for polygon in op.polygons for p in polygon]
                count = sum(len(polygon) - 1 for polygon in op.polygons)
                record.path(fill, colour, op.width, [p[0] for p in points],
                            [p[1] for p in points], count)


def draw_ops(canvas: Canvas, ops: Sequence[Op], grey: bool = False) -> None:
    """Draw a display list on ``canvas`` (one puzzle rendered alone uses this)."""
    painter = _Painter(canvas, grey)
    for op in ops:
        painter.draw(op)


def render_pdf(issue: Issue, plan: IssuePlan, record: list[PageScan] | None = None) -> bytes:
    """The issue as PDF bytes, the same bytes for the same input. With ``record``, what
    each sheet paints is appended to it as the preflight would scan it (see
    :mod:`layout.preflight.record`)."""
    manifest = issue.manifest
    regular, _ = register_fonts()
    buffer = io.BytesIO()
    canvas = Canvas(
        buffer,
        invariant=1,
        pageCompression=1,
        initialFontName=regular,
        initialFontSize=10,
    )
    canvas.setTitle(issue.heading)
    canvas.setAuthor(manifest.author or "Nonopress")
    canvas.setSubject(
        plural(len(issue.blocks), "nonogram puzzle")
        + (" with solutions" if manifest.solutions else "")
    )
    canvas.setCreator(f"nonopress {__version__} (reportlab)")
    canvas.setKeywords("nonogram, puzzles")
    profile = manifest.profile
    painter = _Painter(canvas, manifest.grey, cmyk=profile.colour_space == "DeviceCMYK")
    sheets = saddle_stitch(plan.pages) if manifest.impose else single_sheets(plan.pages)
    outline: list[tuple[int, int, str, str, int]] = []
    for index, sheet in enumerate(sheets):
        if record is not None:
            painter.record = PageRecorder(PageScan(index), what=f"page {index + 1}")
            record.append(painter.record.scan)
        outline.extend(_draw_sheet(canvas, painter, sheet, issue, index))
    # Bookmarks in reading order, also when imposition shuffled the pages.
    if profile.bookmarks:
        for _, _, key, title, level in sorted(outline):
            canvas.addOutlineEntry(title, key, level=level)
        canvas.showOutline()
    canvas.save()
    if profile.rules.output_intent:
        return make_pdfx(buffer.getvalue(), issue)
    return buffer.getvalue()


def _draw_sheet(
    canvas: Canvas, painter: _Painter, sheet: Sheet, issue: Issue, index: int
) -> list[tuple[int, int, str, str, int]]:
    media = media_for(sheet, issue.manifest)
    canvas.setPageSize((media.width, media.height))
    canvas.setTrimBox(media.trim)
    canvas.setBleedBox(media.bleed)
    canvas.setCropBox((0, 0, media.width, media.height))
    if not issue.manifest.profile.rules.output_intent:  # PDF/X: a TrimBox or an ArtBox
        canvas.setArtBox(media.trim)
    outline = []
    for page, _ in sheet.pages if issue.manifest.profile.bookmarks else ():
        for k, bookmark in enumerate(page.bookmarks):
            key = f"s{index}-p{page.number}-{k}"
            canvas.bookmarkPage(key)
            outline.append((page.number, k, key, bookmark.title, bookmark.level))
    for page, dx in sheet.pages:
        canvas.saveState()
        canvas.translate(media.left + dx, media.offset)
        if painter.record is not None:
            painter.record.dx, painter.record.dy = media.left + dx, media.offset
        for op in page.ops:
            painter.draw(op)
        canvas.restoreState()
    if issue.manifest.crop_marks:
        canvas.saveState()
        canvas.translate(media.offset, media.offset)
        if painter.record is not None:
            painter.record.dx, painter.record.dy = media.offset, media.offset
        painter.draw(crop_marks(sheet, issue.manifest, sheet.fold))
        canvas.restoreState()
    canvas.showPage()
    return outline
