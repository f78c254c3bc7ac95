"""Read a page's content streams operator by operator, as a printer's preflight does.

Every mark that puts ink on paper (a filled or stroked path, a run of text, an image, a
shading) is recorded with where it lands on the page (its bounding box in default user
space, through the current transformation matrix and, for text, the text matrix), its colour
space and values, its effective line width (the width times the smaller scale of the CTM)
and its effective text size (the font size times the text matrix and CTM's vertical scale).
Form XObjects are followed with their own matrix and resources; every colour operator,
font and graphics-state parameter that changes what prints is tracked. The scan reports what
it sees and leaves judging to the rules.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, Literal

import pikepdf

from layout.preflight.content import Budget, ContentError, Name, decoded, operations

Matrix = tuple[float, float, float, float, float, float]
Box = tuple[float, float, float, float]  # x0, y0, x1, y1
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
#: Marks kept per page: enough for every finding a report shows.
MAX_MARKS = 200_000
MarkKind = Literal["fill", "stroke", "text", "image", "shading"]

#: Forms inside forms deeper than this are not followed (a cycle or a hostile file).
MAX_FORM_DEPTH = 12
#: Larger numbers in a dictionary the scan reads (a width, a box, a matrix) are hostile.
MAX_MAGNITUDE = 1e9


class ScanError(Exception):
    """The file cannot be read to the end (damaged, hostile, or over the budget)."""


def multiply(m: Matrix, n: Matrix) -> Matrix:
    """``m`` then ``n`` (PDF's row-vector convention: m x n)."""
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (
        a * a2 + b * c2, a * b2 + b * d2,
        c * a2 + d * c2, c * b2 + d * d2,
        e * a2 + f * c2 + e2, e * b2 + f * d2 + f2,
    )


def apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = m
    return a * x + c * y + e, b * x + d * y + f


def min_scale(m: Matrix) -> float:
    """The smaller singular value of the matrix's linear part: how thin a line can get."""
    a, b, c, d = m[:4]
    s = a * a + b * b + c * c + d * d
    det = abs(a * d - b * c)
    root = math.sqrt(max(s * s / 4 - det * det, 0.0))
    return math.sqrt(max(s / 2 - root, 0.0))


def bbox_of(points: list[tuple[float, float]]) -> Box:
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


@dataclass(frozen=True)
class Colour:
    """A colour as set by the content stream: its family and component values."""

    space: str  # DeviceGray, DeviceRGB, DeviceCMYK, Separation, DeviceN, ICCBased, Pattern, ...
    values: tuple[float, ...] = ()
    detail: str = ""  # e.g. the ICC profile's component count, the separation's name

    def describe(self) -> str:
        values = " ".join(f"{v:g}" for v in self.values)
        name = f"{self.space} {self.detail}".strip()
        return f"{name} [{values}]" if values else name

    @property
    def ink(self) -> float | None:
        """How much ink this colour lays down, 0 (paper) to 1 (solid), where it is known."""
        v = self.values
        if self.space == "DeviceGray" and len(v) == 1:
            return 1.0 - v[0]
        if self.space == "DeviceCMYK" and len(v) == 4:
            return max(v)
        if self.space == "DeviceRGB" and len(v) == 3:
            return 1.0 - (0.299 * v[0] + 0.587 * v[1] + 0.114 * v[2])
        if self.space in ("Separation", "DeviceN") and v:
            return max(v)
        return None

    @property
    def is_paper(self) -> bool:
        """White: paints nothing a printer prints."""
        ink = self.ink
        return ink is not None and ink <= 1e-6

    @property
    def is_neutral(self) -> bool:
        """Grey or black only (one ink on a black-ink press)."""
        v = self.values
        if self.space == "DeviceGray":
            return True
        if self.space == "DeviceCMYK" and len(v) == 4:
            return v[0] == v[1] == v[2] == 0
        if self.space == "DeviceRGB" and len(v) == 3:
            return abs(v[0] - v[1]) < 0.01 and abs(v[1] - v[2]) < 0.01
        return False


INITIAL = {"DeviceGray": (0.0,), "DeviceRGB": (0.0, 0.0, 0.0), "DeviceCMYK": (0.0, 0.0, 0.0, 1.0)}


@dataclass(slots=True)
class Mark:
    """One thing painted on the page."""

    kind: MarkKind
    bbox: Box
    colour: Colour | None
    # a human description naming the object and where it is in the stream, or how to write
    # one: a busy page paints hundreds of thousands of marks and a report names a few
    told: str | Callable[[], str]
    line_width: float | None = None  # effective, for strokes
    text_size: float | None = None  # effective, for text
    font: str | None = None
    thinnest: float | None = None  # for fills: the thinnest side of the filled shape, in pt
    ppi: float | None = None  # for images: effective resolution at the placed size

    @property
    def what(self) -> str:
        told = self.told
        return told if isinstance(told, str) else told()

    @property
    def blank(self) -> bool:
        """Leaves no ink: white paint (images and shadings always count as ink)."""
        return self.kind in ("fill", "stroke", "text") and (
            self.colour is not None and self.colour.is_paper
        )


@dataclass(frozen=True)
class FontInfo:
    name: str
    subtype: str
    embedded: bool
    two_byte: bool
    widths: dict[int, float]
    default_width: float
    scale: float = 0.001  # glyph space to text space
    bitmap: bool = False  # a Type 3 font whose glyphs are images (TeX's PK fonts)

    def advance(self, code: int) -> float:
        return self.widths.get(code, self.default_width) * self.scale


@dataclass
class PageScan:
    """What one page paints and uses."""

    index: int  # 0-based
    marks: list[Mark] = field(default_factory=list)
    fonts: dict[str, FontInfo] = field(default_factory=dict)  # used fonts by name
    transparency: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class _State:
    ctm: Matrix = IDENTITY
    line_width: float = 1.0
    fill: Colour = Colour("DeviceGray", (0.0,))
    stroke: Colour = Colour("DeviceGray", (0.0,))
    font: FontInfo | None = None
    font_size: float = 0.0
    char_spacing: float = 0.0
    word_spacing: float = 0.0
    h_scale: float = 1.0
    leading: float = 0.0
    rise: float = 0.0
    render_mode: int = 0


def _number(value: Any) -> float:
    """A number from the file, bounded: a 400-digit width or box is refused, not overflowed.
    (The tokenizer's floats are bounded by their length already: they pass straight.)"""
    if type(value) is float:
        return value
    else:
        try:
            number = float(value)
        except (TypeError, ValueError):
            return 0.0
        except OverflowError:
            raise ScanError("a number too large to be a length") from None
    if not math.isfinite(number) or abs(number) > MAX_MAGNITUDE:
        raise ScanError(f"a number out of range ({str(value)[:20]}...)")
    return number


def _name(value: Any) -> str:
    text = str(value)
    return text[1:] if text.startswith("/") else text


def _font_info(font: Any) -> FontInfo:
    """Name, embedding and glyph widths of a font dictionary (simple, Type0 or Type3)."""
    subtype = _name(font.get("/Subtype", ""))
    name = _name(font.get("/BaseFont", font.get("/Name", "unnamed")))
    if subtype == "Type3":
        matrix = font.get("/FontMatrix", [0.001, 0, 0, 0.001, 0, 0])
        return FontInfo(name, subtype, True, False, _simple_widths(font), 0.0,
                        abs(_number(matrix[0])), bitmap=_bitmap_glyphs(font))
    if subtype == "Type0":
        descendants = font.get("/DescendantFonts", [])
        cid = descendants[0] if len(descendants) else pikepdf.Dictionary()
        descriptor = cid.get("/FontDescriptor", pikepdf.Dictionary())
        widths: dict[int, float] = {}
        w: Any = cid.get("/W", [])
        k = 0
        while k < len(w) and len(widths) < 70000:
            first = int(_number(w[k]))
            if k + 1 < len(w) and isinstance(w[k + 1], pikepdf.Array):
                for j, width in enumerate(w[k + 1]):
                    widths[first + j] = _number(width)
                k += 2
            elif k + 2 < len(w):
                last = int(_number(w[k + 1]))
                for code in range(first, min(last, first + 70000) + 1):
                    widths[code] = _number(w[k + 2])
                k += 3
            else:
                break
        return FontInfo(name, subtype, _embedded(descriptor), True, widths,
                        _number(cid.get("/DW", 1000)))
    descriptor = font.get("/FontDescriptor", pikepdf.Dictionary())
    missing = _number(descriptor.get("/MissingWidth", 0)) if descriptor else 0.0
    return FontInfo(name, subtype, _embedded(descriptor), False, _simple_widths(font),
                    missing or 500.0)


def _simple_widths(font: Any) -> dict[int, float]:
    first = int(_number(font.get("/FirstChar", 0)))
    widths = font.get("/Widths", [])
    return {first + k: _number(w) for k, w in enumerate(widths) if k < 65536}


_IMAGE_IN_GLYPH = re.compile(rb"(?:^|[\s\]>])(?:BI|ID)[\s/]|/IM\s+true")


def _bitmap_glyphs(font: Any) -> bool:
    """Whether a Type 3 font draws its glyphs as images (a bitmap font), judged on a few."""
    procs = font.get("/CharProcs")
    if not isinstance(procs, pikepdf.Dictionary):
        return False
    for k, key in enumerate(procs.keys()):
        if k >= 8:
            break
        proc = procs[key]
        if not isinstance(proc, pikepdf.Stream) or len(proc.read_raw_bytes()) > 1 << 16:
            continue
        try:
            data = proc.read_bytes()
        except pikepdf.PdfError:
            continue
        if _IMAGE_IN_GLYPH.search(data[:1 << 20]):
            return True
    xobjects = font.get("/Resources", {}).get("/XObject", {})
    return any(str(x.get("/Subtype", "")) == "/Image" for x in list(xobjects.values())[:8])


def _embedded(descriptor: Any) -> bool:
    return bool(descriptor) and any(
        key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3")
    )


def _colour_space(value: Any, resources: Any) -> tuple[str, str, int]:
    """(family, detail, component count) of a colour space name or array."""
    if isinstance(value, (pikepdf.Name, Name)):
        name = _name(value)
        short = {"G": "DeviceGray", "RGB": "DeviceRGB", "CMYK": "DeviceCMYK", "I": "Indexed"}
        name = short.get(name, name)
        if name in ("DeviceGray", "DeviceRGB", "DeviceCMYK", "Pattern"):
            return name, "", {"DeviceGray": 1, "DeviceRGB": 3, "DeviceCMYK": 4}.get(name, 0)
        spaces = resources.get("/ColorSpace", {}) if resources is not None else {}
        if "/" + name in spaces:
            return _colour_space(spaces["/" + name], None)
        return name, "(not found in the resources)", 0
    if isinstance(value, pikepdf.Array) and len(value):
        family = _name(value[0])
        if family == "ICCBased":
            n = int(_number(value[1].get("/N", 0))) if len(value) > 1 else 0
            return family, f"({n} components)", n
        if family == "Separation":
            return family, f"({_name(value[1]) if len(value) > 1 else '?'})", 1
        if family == "DeviceN":
            n = len(value[1]) if len(value) > 1 else 0
            return family, f"({n} inks)", n
        if family in ("Indexed", "I"):
            base, detail, _ = _colour_space(value[1], resources) if len(value) > 1 else ("?", "", 0)
            return "Indexed", f"over {base} {detail}".strip(), 1
        if family == "Pattern":
            return "Pattern", "", 0
        return family, "", {"CalGray": 1, "CalRGB": 3, "Lab": 3}.get(family, 0)
    return "unknown", str(value)[:40], 0


#: Operators that change nothing the rules look at (closing a path, clipping, dashes,
#: marked content, ending a text object): skipped before the long dispatch below.
_NOTHING_TO_SEE = frozenset(("h", "ET", "W", "W*", "d", "j", "J", "M", "ri", "i", "BX", "EX",
                             "MP", "DP", "BMC", "BDC", "EMC", "d0", "d1"))
#: Operators that paint (or end) the current path.
_PAINT_OPS = frozenset(("S", "s", "f", "F", "f*", "B", "B*", "b", "b*", "n"))
#: Operators whose findings name them at once (a path's marks name theirs when asked; the
#: others' position is never shown).
_NAMED_OPS = frozenset(("gs", "Tj", "TJ", "'", '"', "Do", "sh"))


class _Scanner:
    def __init__(self, page_scan: PageScan, budget: Budget,
                 fonts: dict[tuple[int, int], FontInfo], pdf: pikepdf.Pdf | None = None):
        self.pdf = pdf
        self.out = page_scan
        self.budget = budget
        self.fonts = fonts  # font dictionaries read once per file

    def font(self, resources: Any, name: str) -> FontInfo | None:
        fonts = resources.get("/Font", {}) if resources is not None else {}
        if "/" + name not in fonts:
            return None
        font = fonts["/" + name]
        key = font.objgen if font.is_indirect else (id(font), 0)
        if key not in self.fonts:
            self.fonts[key] = _font_info(font)
        return self.fonts[key]

    def run(self, chunks: Iterable[bytes], resources: Any, state: _State, where: str,
            depth: int) -> None:
        """Follow one content stream (a page's or a form's), operator by operator."""
        stack: list[_State] = []
        path: list[tuple[float, float]] = []
        rects: list[float] = []  # thinnest side of each rectangle in the path
        curved = False  # the path has segments other than rectangles
        segments = 0
        tm = tlm = IDENTITY
        scaled_ctm, scale = IDENTITY, 1.0  # the last matrix a line width was scaled by
        for number, (op, args) in enumerate(operations(chunks, self.budget), start=1):
            at = f"{where} operator {number} '{op}'" if op in _NAMED_OPS else ""
            # -- paths --------------------------------------------------------------------
            # the hot path: numbers from the tokenizer are floats, bounded by their length
            # (a name or a string here is a damaged page: the arithmetic refuses it)
            if op == "l" and len(args) == 2:
                a, b, c, d, e, f = state.ctm
                x, y = args
                path.append((a * x + c * y + e, b * x + d * y + f))
                segments += 1
                curved = True
            elif op == "m" and len(args) == 2:
                a, b, c, d, e, f = state.ctm
                x, y = args
                path.append((a * x + c * y + e, b * x + d * y + f))
            elif op in _NOTHING_TO_SEE:
                continue
            elif op in ("c", "v", "y"):
                for k in range(0, min(len(args), 6) - 1, 2):
                    path.append(apply(state.ctm, _number(args[k]), _number(args[k + 1])))
                segments += 1
                curved = True
            elif op == "re" and len(args) == 4:
                x, y, w, h = (_number(a) for a in args)
                path.extend(apply(state.ctm, px, py)
                            for px, py in ((x, y), (x + w, y), (x + w, y + h), (x, y + h)))
                a, b, c, d = state.ctm[:4]
                rects.append(min(abs(w) * math.hypot(a, b), abs(h) * math.hypot(c, d)))
                segments += 4
            elif op in _PAINT_OPS:
                if path and op != "n":
                    xs, ys = zip(*path, strict=True)
                    box = (min(xs), min(ys), max(xs), max(ys))
                    if op in ("f", "F", "f*", "B", "B*", "b", "b*"):
                        # a rectangle's thinnest side is exact; any other shape is judged
                        # by its bounding box (a thin diagonal sliver goes unmeasured)
                        thin = min([*rects, *(() if rects and not curved else
                                              (box[2] - box[0], box[3] - box[1]))])
                        self.mark(Mark("fill", box, state.fill,
                                       partial(_path_text, "filled", thin, segments, box,
                                               where, number, op), thinnest=thin))
                    if op in ("S", "s", "B", "B*", "b", "b*"):
                        if state.ctm is not scaled_ctm:
                            scaled_ctm, scale = state.ctm, min_scale(state.ctm)
                        width = state.line_width * scale
                        half = max(width, 0.01) / 2  # the ink reaches half a width out
                        inked = (box[0] - half, box[1] - half, box[2] + half, box[3] + half)
                        # named by the path's own extent, as a fill is
                        self.mark(Mark("stroke", inked, state.stroke,
                                       partial(_path_text, "stroked", width, segments, box,
                                               where, number, op), line_width=width))
                path, rects, curved, segments = [], [], False, 0
            elif op == "q":
                if len(stack) < 4096:
                    stack.append(state)
            elif op == "Q":
                if stack:
                    state = stack.pop()
            elif op == "cm" and len(args) == 6:
                m = tuple(_number(a) for a in args)
                state = replace(state, ctm=multiply(m, state.ctm))  # type: ignore[arg-type]
            elif op == "w" and args:
                state = replace(state, line_width=_number(args[0]))
            elif op == "gs" and args:
                state = self.ext_gstate(resources, _name(args[0]), state, at)
            # -- colour -------------------------------------------------------------------
            elif op in ("g", "G") and args:
                state = self.colour(state, op == "G", Colour("DeviceGray", (_number(args[0]),)))
            elif op in ("rg", "RG") and len(args) == 3:
                state = self.colour(state, op == "RG",
                                    Colour("DeviceRGB", tuple(_number(a) for a in args)))
            elif op in ("k", "K") and len(args) == 4:
                state = self.colour(state, op == "K",
                                    Colour("DeviceCMYK", tuple(_number(a) for a in args)))
            elif op in ("cs", "CS") and args:
                family, detail, n = _colour_space(args[0], resources)
                values = INITIAL.get(family, (1.0,) * n if family in
                                     ("Separation", "DeviceN") else (0.0,) * n)
                state = self.colour(state, op == "CS", Colour(family, values, detail))
            elif op in ("sc", "scn", "SC", "SCN"):
                stroke = op.startswith("S")
                old = state.stroke if stroke else state.fill
                values = tuple(_number(a) for a in args[:32] if isinstance(a, float))
                state = self.colour(state, stroke, Colour(old.space, values, old.detail))
            # -- text ---------------------------------------------------------------------
            elif op == "BT":
                tm = tlm = IDENTITY
            elif op == "Tf" and len(args) == 2:
                state = replace(state, font=self.font(resources, _name(args[0])),
                                font_size=_number(args[1]))
            elif op == "Tc" and args:
                state = replace(state, char_spacing=_number(args[0]))
            elif op == "Tw" and args:
                state = replace(state, word_spacing=_number(args[0]))
            elif op == "Tz" and args:
                state = replace(state, h_scale=_number(args[0]) / 100)
            elif op == "TL" and args:
                state = replace(state, leading=_number(args[0]))
            elif op == "Ts" and args:
                state = replace(state, rise=_number(args[0]))
            elif op == "Tr" and args:
                state = replace(state, render_mode=int(_number(args[0])))
            elif op in ("Td", "TD") and len(args) == 2:
                tx, ty = _number(args[0]), _number(args[1])
                if op == "TD":
                    state = replace(state, leading=-ty)
                tlm = multiply((1, 0, 0, 1, tx, ty), tlm)
                tm = tlm
            elif op == "Tm" and len(args) == 6:
                tm = tlm = tuple(_number(a) for a in args)  # type: ignore[assignment]
            elif op == "T*":
                tlm = multiply((1, 0, 0, 1, 0, -state.leading), tlm)
                tm = tlm
            elif op in ("Tj", "TJ", "'", '"'):
                if op in ("'", '"'):
                    if op == '"' and len(args) == 3:
                        state = replace(state, word_spacing=_number(args[0]),
                                        char_spacing=_number(args[1]))
                    tlm = multiply((1, 0, 0, 1, 0, -state.leading), tlm)
                    tm = tlm
                if args:
                    tm = self.show(args[-1], state, tm, at)
            # -- images, forms, shadings --------------------------------------------------
            elif op == "Do" and args:
                self.xobject(resources, _name(args[0]), state, at, depth)
            elif op == "BI" and len(args) == 2:
                self.inline_image(args[0], state, f"{where} inline image (operator {number})")
            elif op == "sh" and args:
                shadings = resources.get("/Shading", {}) if resources is not None else {}
                shading = shadings.get("/" + _name(args[0]))
                if shading is not None:
                    family, detail, _ = _colour_space(shading.get("/ColorSpace"), resources)
                    self.mark(Mark("shading", (-1e9, -1e9, 1e9, 1e9), Colour(family, (), detail),
                                   f"shading /{_name(args[0])} ({at})"))

    def colour(self, state: _State, stroke: bool, colour: Colour) -> _State:
        return replace(state, stroke=colour) if stroke else replace(state, fill=colour)

    def mark(self, mark: Mark) -> None:
        if len(self.out.marks) < MAX_MARKS:
            self.out.marks.append(mark)

    def ext_gstate(self, resources: Any, name: str, state: _State, at: str) -> _State:
        states = resources.get("/ExtGState", {}) if resources is not None else {}
        gs = states.get("/" + name)
        if gs is None:
            return state
        if "/LW" in gs:
            state = replace(state, line_width=_number(gs.LW))
        for key in ("/CA", "/ca"):
            if key in gs and _number(gs[key]) < 1:
                self.out.transparency.append(f"opacity {key[1:]} {_number(gs[key]):g} "
                                             f"in /{name} ({at})")
        if "/SMask" in gs and _name(gs.SMask) != "None":
            self.out.transparency.append(f"soft mask in /{name} ({at})")
        if "/BM" in gs:
            modes = gs.BM if isinstance(gs.BM, pikepdf.Array) else [gs.BM]
            for mode in list(modes)[:16]:
                if _name(mode) not in ("Normal", "Compatible"):
                    self.out.transparency.append(f"blend mode {_name(mode)} in /{name} ({at})")
        if "/Font" in gs and len(gs.Font) == 2:
            font = gs.Font[0]
            info = _font_info(font)
            state = replace(state, font=info, font_size=_number(gs.Font[1]))
        return state

    def show(self, text: Any, state: _State, tm: Matrix, at: str) -> Matrix:
        """Advance the text matrix over ``text`` (a string or a TJ array) and record it."""
        font = state.font
        size = state.font_size
        start = tm
        shown = ""
        pieces = text if isinstance(text, list) else [text]
        for piece in pieces:
            if isinstance(piece, bytes):
                data = piece
                two = font.two_byte if font else False
                codes = ([int.from_bytes(data[k:k + 2], "big") for k in range(0, len(data) - 1, 2)]
                         if two else list(data))
                # the glyphs' advances add up: one translation for the whole string
                if font is not None:
                    widths, default, scale = font.widths, font.default_width, font.scale
                    advance = sum(widths.get(code, default) for code in codes) * scale
                else:
                    advance = 0.5 * len(codes)
                spaces = 0 if two else data.count(32)
                tx = (advance * size + state.char_spacing * len(codes)
                      + state.word_spacing * spaces)
                a, b, c, d, e, f = tm  # a translation along the baseline
                shift = tx * state.h_scale
                tm = (a, b, c, d, e + shift * a, f + shift * b)
                shown += data.decode("latin-1", "replace") if not two else "?" * len(codes)
            elif isinstance(piece, float):
                tm = multiply((1, 0, 0, 1, -piece / 1000 * size * state.h_scale, 0), tm)
        if not shown:
            return tm
        if font is not None:  # a font counts as used once it shows a glyph
            self.out.fonts[font.name] = font
        if state.render_mode in (3, 7):  # invisible text (e.g. an OCR layer)
            return tm
        full = multiply(start, state.ctm)
        last = multiply(tm, state.ctm)
        low, high = state.rise - 0.2 * size, state.rise + 0.8 * size
        corners = [apply(full, 0, low), apply(full, 0, high), apply(last, 0, low),
                   apply(last, 0, high)]
        effective = abs(size) * math.hypot(full[2], full[3])
        colour = state.stroke if state.render_mode in (1, 5) else state.fill
        name = font.name if font else "no font"
        preview = shown[:24] if shown.isascii() and shown.isprintable() else "".join(
            ch if " " <= ch <= "~" else "?" for ch in shown[:24])
        self.mark(Mark("text", bbox_of(corners), colour,
                       f"text {preview!r} in {name} at {effective:.1f} pt ({at})",
                       text_size=effective, font=name))
        if state.render_mode in (2, 6):  # filled and stroked glyphs
            self.mark(Mark("text", bbox_of(corners), state.stroke,
                           f"outlined text {preview!r} ({at})", text_size=effective, font=name))
        return tm

    def image(self, state: _State, pixels: tuple[float, float], colour: Colour,
              what: str) -> None:
        corners = [apply(state.ctm, x, y) for x, y in ((0, 0), (1, 0), (1, 1), (0, 1))]
        a, b, c, d = state.ctm[:4]
        across, up = math.hypot(a, b) / 72, math.hypot(c, d) / 72  # placed size in inches
        ppi = min(pixels[0] / across if across > 1e-9 else math.inf,
                  pixels[1] / up if up > 1e-9 else math.inf)
        self.mark(Mark("image", bbox_of(corners), colour,
                       f"{what}, {pixels[0]:.0f}x{pixels[1]:.0f} px at {ppi:.0f} ppi",
                       ppi=ppi))

    def xobject(self, resources: Any, name: str, state: _State, at: str, depth: int) -> None:
        objects = resources.get("/XObject", {}) if resources is not None else {}
        xobject = objects.get("/" + name)
        if xobject is None:
            return
        subtype = _name(xobject.get("/Subtype", ""))
        if subtype == "Image":
            if xobject.get("/ImageMask", False):
                colour: Colour = state.fill
            else:
                family, detail, _ = _colour_space(xobject.get("/ColorSpace"), resources)
                colour = Colour(family, (), detail)
            if "/SMask" in xobject or "/SMaskInData" in xobject:
                self.out.transparency.append(f"image /{name} with a soft mask ({at})")
            pixels = (_number(xobject.get("/Width", 0)), _number(xobject.get("/Height", 0)))
            self.image(state, pixels, colour, f"image /{name} ({at})")
        elif subtype == "Form":
            self.budget.spend_form_call()
            if depth >= MAX_FORM_DEPTH:
                raise ScanError(f"forms nested deeper than {MAX_FORM_DEPTH} ({at})")
            group = xobject.get("/Group")
            if group is not None and _name(group.get("/S", "")) == "Transparency":
                self.out.transparency.append(f"transparency group in form /{name} ({at})")
            matrix = xobject.get("/Matrix", None)
            m = tuple(_number(v) for v in matrix) if matrix is not None else IDENTITY
            if len(m) != 6:
                m = IDENTITY
            inner = replace(state, ctm=multiply(m, state.ctm))  # type: ignore[arg-type]
            self.run(decoded(xobject, self.budget, self.pdf),
                     xobject.get("/Resources", resources), inner,
                     f"form /{name} in {at.split(' operator')[0]}", depth + 1)

    def inline_image(self, image: dict[str, Any], state: _State, at: str) -> None:
        if image.get("/ImageMask") is True:
            colour = state.fill
        else:
            space = image.get("/ColorSpace", "unknown")
            family = _name(space) if isinstance(space, str) else "unknown"
            colour = Colour({"G": "DeviceGray", "RGB": "DeviceRGB",
                             "CMYK": "DeviceCMYK"}.get(family, family))
        width, height = image.get("/Width", 0.0), image.get("/Height", 0.0)
        pixels = (width if isinstance(width, float) else 0.0,
                  height if isinstance(height, float) else 0.0)
        self.image(state, pixels, colour, at)


def _path_text(painted: str, measure: float, segments: int, box: Box, where: str,
               number: int, op: str) -> str:
    """A path mark's description, written when a finding names it: "stroked path of 1
    segment(s) at x 100-200, y 100-200 pt, 0.10 pt wide (page 1 operator 5 'S')"."""
    shape = f"path of {max(segments, 1)} segment(s) at " + _where(box)
    at = f"{where} operator {number} '{op}'"
    if painted == "stroked":
        return f"stroked {shape}, {measure:.2f} pt wide ({at})"
    return "filled " + (f"{measure:.2f} pt thin " if measure < 2 else "") + f"{shape} ({at})"


def _where(box: Box) -> str:
    return f"x {box[0]:.0f}-{box[2]:.0f}, y {box[1]:.0f}-{box[3]:.0f} pt"


def _page_content(page: Any, budget: Budget, pdf: pikepdf.Pdf) -> Iterator[bytes]:
    """The decoded bytes of a page's content streams, one after the other."""
    contents = page.obj.get("/Contents")
    streams = list(contents) if isinstance(contents, pikepdf.Array) else [contents]
    for stream in streams[:10_000]:
        if isinstance(stream, pikepdf.Stream):
            yield from decoded(stream, budget, pdf)
            yield b"\n"


def scan_pages(pdf: pikepdf.Pdf, budget: Budget | None = None) -> Iterator[PageScan]:
    """A :class:`PageScan` for every page of ``pdf``, in order, within ``budget``."""
    budget = budget or Budget()
    if not budget.started:
        budget.start()
    fonts: dict[tuple[int, int], FontInfo] = {}
    for index, page in enumerate(pdf.pages):
        if index >= budget.pages:
            raise ScanError(f"more than {budget.pages:,} pages: more than this preflight "
                            "checks")
        yield scan_page(pdf, index, budget, fonts, page)


def scan_page(pdf: pikepdf.Pdf, index: int, budget: Budget,
              fonts: dict[tuple[int, int], FontInfo], page: Any = None) -> PageScan:
    """The :class:`PageScan` of page ``index`` (0-based); ``fonts`` caches font
    dictionaries across pages."""
    page = pdf.pages[index] if page is None else page
    result = PageScan(index)
    scanner = _Scanner(result, budget, fonts, pdf)
    try:
        resources = page.obj.get("/Resources")
        if resources is None:
            resources = page.resources
        if "/Contents" in page.obj:
            scanner.run(_page_content(page, budget, pdf), resources, _State(),
                        f"page {index + 1}", 0)
    except ContentError as exc:
        raise ScanError(f"page {index + 1}: {exc}") from None
    except (pikepdf.PdfError, ValueError, TypeError, KeyError, RecursionError,
            OverflowError) as exc:
        raise ScanError(f"page {index + 1}: {exc}") from None
    budget.check_time()
    return result


def resource_fonts(page: Any, fonts: dict[tuple[int, int], FontInfo]) -> dict[str, FontInfo]:
    """Every font a page's resources offer, by name (``fonts`` caches across pages)."""
    resources = page.obj.get("/Resources")
    offered = resources.get("/Font", {}) if resources is not None else {}
    out: dict[str, FontInfo] = {}
    for key in list(offered.keys())[:1000]:
        font = offered[key]
        cache = font.objgen if font.is_indirect else (id(font), 0)
        if cache not in fonts:
            fonts[cache] = _font_info(font)
        out[fonts[cache].name] = fonts[cache]
    return out
