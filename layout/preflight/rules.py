"""The printers' rules, one function each, judged on what the scan saw.

Each rule returns a :class:`RuleResult`: pass, warn (the printer may accept it; say so) or
fail (the printer rejects the file), with findings naming the page and the object.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import pikepdf

from layout.preflight.scan import Box, Mark, PageScan, ScanError
from layout.profiles import (
    LARGE_PRINT_MIN_TEXT,
    OUTPUT_CONDITIONS,
    PDFX_MIN_BLEED,
    PrintRules,
)
from layout.units import INCH

Status = Literal["pass", "warn", "fail"]
#: Rounding in a PDF writer is not a failure: lengths within this of the limit pass.
TOLERANCE = 0.01
MAX_FINDINGS = 200
#: Effective image resolution: printers ask for 300 ppi; under 200 prints visibly soft.
WANTED_PPI = 300.0
LEAST_PPI = 200.0
#: How far a mark may cross an edge before it counts (rounding in a PDF writer).
EDGE_SLACK = 0.05


@dataclass(frozen=True)
class Finding:
    page: int | None  # 1-based, None for the whole file
    message: str

    def describe(self) -> str:
        return f"page {self.page}: {self.message}" if self.page else self.message


@dataclass
class RuleResult:
    rule: str
    title: str
    status: Status = "pass"
    findings: list[Finding] = field(default_factory=list)

    def add(self, page: int | None, message: str | Callable[[], str],
            status: Status = "fail") -> None:
        """A finding; a message may come as how to write it, written only if it is kept (a
        page of 100,000 hairlines keeps the first MAX_FINDINGS)."""
        if status == "fail" or self.status == "pass":
            self.status = status
        if len(self.findings) < MAX_FINDINGS:
            self.findings.append(Finding(page, message if isinstance(message, str)
                                         else message()))


@dataclass(frozen=True)
class Document:
    """What every rule may look at: the open file and the scan of each page."""

    pdf: pikepdf.Pdf
    pages: Sequence[PageScan]
    large_print: bool
    #: page index -> its inked marks (several rules ask)
    inked: dict[int, list[Mark]] = field(default_factory=dict, compare=False)
    #: page index -> every mark that reaches the media, white ones too
    visible: dict[int, list[Mark]] = field(default_factory=dict, compare=False)
    boxes: dict[tuple[int, str], Box | None] = field(default_factory=dict, compare=False)

    def box(self, index: int, name: str) -> Box | None:
        """A page box as (x0, y0, x1, y1), or None when the page does not set it."""
        key = (index, name)
        if key not in self.boxes:
            self.boxes[key] = self._read_box(index, name)
        return self.boxes[key]

    def _read_box(self, index: int, name: str) -> Box | None:
        page = self.pdf.pages[index]
        value = page.obj.get("/" + name)
        if name == "MediaBox" and value is None:
            value = page.mediabox
        if value is None or len(value) != 4:
            return None
        try:
            x0, y0, x1, y1 = (float(v) for v in value)
        except (OverflowError, ValueError, TypeError):
            raise ScanError(f"page {index + 1}: the {name} is not four numbers") from None
        if not all(abs(v) < 1e7 for v in (x0, y0, x1, y1)):
            raise ScanError(f"page {index + 1}: the {name} holds a number out of range")
        return min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)

    def trim(self, index: int) -> Box:
        """The trim box, else the art box, else the crop box, else the media box."""
        for name in ("TrimBox", "ArtBox", "CropBox", "MediaBox"):
            box = self.box(index, name)
            if box is not None:
                return box
        return (0.0, 0.0, 612.0, 792.0)


Rule = Callable[[Document], RuleResult]


def _a(word: str) -> str:
    """The article before ``word`` ("a KDP", "an IngramSpark")."""
    return "an" if word[:1].upper() in "AEIOU" else "a"


def _inches(points: float) -> str:
    return f"{points / 72:.3f}".rstrip("0").rstrip(".") + " in"


def _inside(inner: Box, outer: Box, slack: float = 0.05) -> bool:
    return (inner[0] >= outer[0] - slack and inner[1] >= outer[1] - slack
            and inner[2] <= outer[2] + slack and inner[3] <= outer[3] + slack)


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _visible(doc: Document, index: int) -> list[Mark]:
    """The marks of a page that reach its media, white ones too: white text reversed out of
    a black box is as small as black text of its size."""
    if index not in doc.visible:
        media = doc.box(index, "MediaBox") or doc.trim(index)
        doc.visible[index] = [m for m in doc.pages[index].marks if _overlaps(m.bbox, media)]
    return doc.visible[index]


def _inked(doc: Document, index: int) -> list[Mark]:
    """The marks of a page that put ink inside its media."""
    if index not in doc.inked:
        doc.inked[index] = [m for m in _visible(doc, index) if not m.blank]
    return doc.inked[index]


# -- rules for every profile -------------------------------------------------------------------

def bitmap_fonts(doc: Document) -> RuleResult:
    result = RuleResult("bitmap-fonts", "outline fonts only (no Type 3 bitmap fonts: they "
                        "print soft at any resolution but the one they were made for)")
    for scan in doc.pages:
        for name, font in sorted(scan.fonts.items()):
            if font.subtype == "Type3" and font.bitmap:
                result.add(scan.index + 1, f"font {name} is a Type 3 bitmap font")
    return result


def image_resolution(doc: Document) -> RuleResult:
    result = RuleResult("image-resolution", f"images at {WANTED_PPI:.0f} ppi at their printed "
                        f"size (under {LEAST_PPI:.0f} ppi fails)")
    for scan in doc.pages:
        for mark in _inked(doc, scan.index):
            if mark.ppi is None or mark.ppi >= WANTED_PPI - 0.5:
                continue
            status: Status = "fail" if mark.ppi < LEAST_PPI else "warn"
            result.add(scan.index + 1, mark.told, status)
    return result


def fonts_embedded(doc: Document) -> RuleResult:
    result = RuleResult("fonts-embedded", "every font the pages use is embedded")
    for scan in doc.pages:
        for name, font in sorted(scan.fonts.items()):
            if not font.embedded:
                result.add(scan.index + 1, f"font {name} ({font.subtype}) is not embedded")
    return result


def not_encrypted(doc: Document) -> RuleResult:
    result = RuleResult("not-encrypted", "the file is not encrypted or password-protected")
    if doc.pdf.is_encrypted:
        result.add(None, "the file is encrypted: printers cannot open or change it")
    return result


def _text_size(doc: Document, least: float, rule: str, title: str) -> RuleResult:
    result = RuleResult(rule, title)
    for scan in doc.pages:
        for mark in _visible(doc, scan.index):
            if mark.text_size is not None and mark.text_size < least - 0.05:
                result.add(scan.index + 1, mark.told)
    return result


def _line_widths(doc: Document, least: float, status: Status, why: str) -> RuleResult:
    result = RuleResult("line-widths", f"lines at least {least:g} pt{why}, filled shapes "
                        "too (a hairline drawn as a thin rectangle)")
    for scan in doc.pages:
        trim = doc.trim(scan.index)
        for mark in _visible(doc, scan.index):
            if not _overlaps(mark.bbox, trim):
                continue
            thin = mark.line_width if mark.line_width is not None else mark.thinnest
            if thin is not None and (mark.line_width is not None or thin > 0) and (
                    thin < least - TOLERANCE):
                result.add(scan.index + 1, mark.told, status)
    return result


# -- KDP paperback ----------------------------------------------------------------------------

def kdp_trim(doc: Document, rules: PrintRules) -> RuleResult:
    printer, bleed_in = rules.printer, f"{(rules.bleed or 0.0) / INCH:g} in"
    result = RuleResult("trim-size", f"{_a(printer)} {printer} paperback trim size, one "
                        f"for every page, with no bleed or {bleed_in} bleed")
    sizes: dict[tuple[int, int], list[int]] = {}
    for scan in doc.pages:
        media = doc.box(scan.index, "MediaBox") or doc.trim(scan.index)
        trim = doc.trim(scan.index)
        tw, th = trim[2] - trim[0], trim[3] - trim[1]
        mw, mh = media[2] - media[0], media[3] - media[1]
        sizes.setdefault((round(tw), round(th)), []).append(scan.index + 1)
        page = scan.index + 1
        if rules.trim_name(tw, th) is None:
            result.add(page, f"trim {_inches(tw)} x {_inches(th)} is not a {printer} trim "
                       "size")
            continue
        bleed = rules.bleed or 0.0
        plain = abs(mw - tw) <= 1 and abs(mh - th) <= 1
        bled = abs(mw - tw - bleed) <= 1 and abs(mh - th - 2 * bleed) <= 1
        if not (plain or bled):
            result.add(page, f"page {_inches(mw)} x {_inches(mh)} for a {_inches(tw)} x "
                       f"{_inches(th)} trim: {printer} wants the trim size, or trim + "
                       f"{bleed_in} wide and + {2 * bleed / INCH:g} in high with bleed "
                       "(crop-mark slugs are refused)")
    if len(sizes) > 1:
        common = max(sizes, key=lambda size: len(sizes[size]))
        book = f"{_inches(common[0])} x {_inches(common[1])}"
        for size, pages in sizes.items():
            if size == common:
                continue
            for page in pages:
                result.add(page, f"trim {_inches(size[0])} x {_inches(size[1])} in a "
                           f"{book} book (pages of {len(sizes)} different sizes: a book has "
                           "one trim size)")
    return result


def kdp_page_count(doc: Document, rules: PrintRules) -> RuleResult:
    count = len(doc.pages)
    least, most = rules.min_pages, rules.max_pages
    span = f"{least} to {most} pages" if most else f"at least {least} pages"
    result = RuleResult("page-count", span)
    if count < least or (most and count > most):
        result.add(None, f"{count} pages: {rules.printer} prints paperbacks of {span}")
    return result


def saddle_stitch(doc: Document) -> RuleResult:
    """A magazine is usually saddle-stitched: folded sheets of four pages each. Other
    bindings take any even count, so a count that is not a multiple of 4 is a warning."""
    count = len(doc.pages)
    result = RuleResult("saddle-stitch", "a multiple of 4 pages, as a saddle-stitched "
                        "issue needs")
    if count % 4:
        more = 4 - count % 4
        result.add(None, f"{count} pages: a saddle-stitched issue needs a multiple of 4; add "
                   f"{more} page{'s' * (more != 1)} (booklet: true pads with blank pages) "
                   "unless the issue is bound another way", status="warn")
    return result


def kdp_blank_pages(doc: Document) -> RuleResult:
    result = RuleResult("blank-pages", "never more than 2 blank pages in a row")
    run: list[int] = []
    for scan in [*doc.pages, None]:
        if scan is not None and not _inked(doc, scan.index):
            run.append(scan.index + 1)
            continue
        if len(run) > 2:
            result.add(run[0], f"pages {run[0]}-{run[-1]} are blank ({len(run)} in a row)")
        run = []
    return result


def no_annotations(doc: Document) -> RuleResult:
    result = RuleResult("annotations", "no annotations, links or form fields")
    for index, page in enumerate(doc.pdf.pages):
        for annot in page.obj.get("/Annots", []):
            kind = str(annot.get("/Subtype", "/?"))[1:]
            result.add(index + 1, f"{kind} annotation at {_rect(annot)}")
    if "/AcroForm" in doc.pdf.Root:
        result.add(None, "the file has an interactive form (AcroForm)")
    return result


def _rect(annot: Any) -> str:
    rect = annot.get("/Rect", [0, 0, 0, 0])
    return "[" + " ".join(f"{float(v):.0f}" for v in rect) + "]"


def no_bookmarks(doc: Document, rules: PrintRules) -> RuleResult:
    result = RuleResult("bookmarks", f"no bookmarks ({rules.printer} removes or refuses them)")
    outlines = doc.pdf.Root.get("/Outlines")
    if outlines is not None and "/First" in outlines:
        count = 0
        item: Any = outlines.First
        while item is not None and count < 10000:
            count += 1
            item = item.get("/Next")
        result.add(None, f"{count} top-level bookmark(s) in the document outline")
    return result


def kdp_crop_marks(doc: Document) -> RuleResult:
    result = RuleResult("crop-marks", "no crop marks or anything else outside the trim")
    for scan in doc.pages:
        trim = doc.trim(scan.index)
        for mark in _inked(doc, scan.index):
            if not _overlaps(mark.bbox, trim) and mark.kind != "shading":
                result.add(scan.index + 1, f"outside the trim: {mark.what}")
    return result


def _sides_crossed(box: Box, trim: Box, recto: bool) -> list[str]:
    """The trim edges ``box`` runs over: gutter, outside, top, bottom."""
    left, right = ("gutter", "outside") if recto else ("outside", "gutter")
    sides = []
    if box[0] < trim[0] - EDGE_SLACK:
        sides.append(left)
    if box[2] > trim[2] + EDGE_SLACK:
        sides.append(right)
    if box[3] > trim[3] + EDGE_SLACK:
        sides.append("top")
    if box[1] < trim[1] - EDGE_SLACK:
        sides.append("bottom")
    return sides


def kdp_trim_edges(doc: Document, rules: PrintRules) -> RuleResult:
    result = RuleResult("bleed", "nothing runs over the trim, but bleed art over the outside, "
                        "top and bottom edges of a bleed file (never the gutter)")
    for scan in doc.pages:
        trim = doc.trim(scan.index)
        media = doc.box(scan.index, "MediaBox") or trim
        bleed = media[2] - media[0] > trim[2] - trim[0] + 1
        recto = scan.index % 2 == 0
        for mark in _inked(doc, scan.index):
            if mark.kind == "shading" or not _overlaps(mark.bbox, trim):
                continue  # a shading fills its clip; marks wholly outside are crop marks
            sides = _sides_crossed(mark.bbox, trim, recto)
            if not sides:
                continue
            if not bleed:
                result.add(scan.index + 1, f"runs over the {' and '.join(sides)} trim edge "
                           f"of a file without bleed: {mark.what}")
            elif "gutter" in sides:
                result.add(scan.index + 1, f"runs over the gutter trim edge ({rules.printer} "
                           f"bleeds only the outside, top and bottom): {mark.what}")
    return result


def kdp_margins(doc: Document, rules: PrintRules) -> RuleResult:
    count = len(doc.pages)
    gutter = rules.gutter(count)
    result = RuleResult(
        "margins",
        f"text and lines inside the margins: inside {_inches(gutter)} for {count} pages, "
        f"outside, top and bottom {_inches(rules.least_margin)} "
        f"({_inches(rules.least_margin_bleed)} with bleed)",
    )
    for scan in doc.pages:
        trim = doc.trim(scan.index)
        media = doc.box(scan.index, "MediaBox") or trim
        bleed = media[2] - media[0] > trim[2] - trim[0] + 1
        least = rules.least_margin_bleed if bleed else rules.least_margin
        recto = scan.index % 2 == 0  # page 1 is a right-hand page: its inside is the left
        left, right = (gutter, least) if recto else (least, gutter)
        live = (trim[0] + left, trim[1] + least, trim[2] - right, trim[3] - least)
        for mark in _inked(doc, scan.index):
            if mark.kind == "shading":
                continue
            crosses_trim = not _inside(mark.bbox, trim, slack=EDGE_SLACK)
            if crosses_trim:
                continue  # bleed art or a mark over the edge: the bleed rule judges it
            if not _inside(mark.bbox, live, slack=0.5):
                side = _margin_side(mark.bbox, live, recto)
                result.add(scan.index + 1, f"in the {side} margin: {mark.what}")
    return result


def _margin_side(box: Box, live: Box, recto: bool) -> str:
    if box[0] < live[0]:
        return "inside (gutter)" if recto else "outside"
    if box[2] > live[2]:
        return "outside" if recto else "inside (gutter)"
    return "bottom" if box[1] < live[1] else "top"


def kdp_tints(doc: Document, rules: PrintRules) -> RuleResult:
    result = RuleResult("tints", f"grey tints at least {rules.min_tint:.0%} (lighter ones "
                        f"vanish on {rules.printer}'s presses)")
    for scan in doc.pages:
        for mark in _inked(doc, scan.index):
            ink = mark.colour.ink if mark.colour is not None else None
            if ink is not None and 0 < ink < rules.min_tint - 0.005:
                result.add(scan.index + 1, f"{ink:.0%} tint ({mark.colour.describe()}): "
                           f"{mark.what}" if mark.colour else mark.what)
    return result


def kdp_colour(doc: Document) -> RuleResult:
    result = RuleResult("black-ink", "black and grey only (a black-ink interior)")
    for scan in doc.pages:
        for mark in _inked(doc, scan.index):
            colour = mark.colour
            if colour is None or colour.is_neutral:
                continue
            if mark.kind == "image" and colour.space == "DeviceGray":
                continue
            result.add(scan.index + 1, f"colour {colour.describe()}: {mark.what} "
                       "(needs a colour interior, printed at a higher cost)", "warn")
    return result


# -- PDF/X-1a:2001 ----------------------------------------------------------------------------

ALLOWED_SPACES = ("DeviceGray", "DeviceCMYK", "Separation", "DeviceN", "Pattern")


def pdfx_version(doc: Document) -> RuleResult:
    result = RuleResult("pdf-version", "PDF 1.3 (PDF/X-1a:2001)")
    header = doc.pdf.pdf_version
    if header != "1.3":
        result.add(None, f"the header says PDF {header}; PDF/X-1a:2001 asks for PDF 1.3")
    catalog = str(doc.pdf.Root.get("/Version", "")).lstrip("/")
    if catalog and catalog != "1.3":  # the catalog's Version overrides the header
        result.add(None, f"the catalog says PDF {catalog}; PDF/X-1a:2001 asks for PDF 1.3")
    return result


def pdfx_output_intent(doc: Document) -> RuleResult:
    result = RuleResult("output-intent", "one GTS_PDFX OutputIntent naming the printing "
                        "condition")
    intents = [i for i in doc.pdf.Root.get("/OutputIntents", [])
               if str(i.get("/S", "")) == "/GTS_PDFX"]
    if len(intents) != 1:
        result.add(None, f"{len(intents)} OutputIntents of subtype /GTS_PDFX (one is needed)")
        return result
    intent = intents[0]
    identifier = str(intent.get("/OutputConditionIdentifier", "")).strip()
    if not identifier:
        result.add(None, "the OutputIntent has no OutputConditionIdentifier")
    elif "/DestOutputProfile" not in intent:
        if identifier not in OUTPUT_CONDITIONS:
            result.add(None, f"{identifier!r} is not a registered printing condition this "
                       "preflight knows, and no output profile is embedded", "warn")
        if not str(intent.get("/RegistryName", "")).strip():
            result.add(None, "no RegistryName for the (unembedded) characterisation")
    return result


def pdfx_keys(doc: Document) -> RuleResult:
    result = RuleResult("pdfx-keys", "GTS_PDFXVersion, GTS_PDFXConformance, Trapped, Title, "
                        "CreationDate, ModDate and a file ID")
    info = doc.pdf.trailer.get("/Info", pikepdf.Dictionary())
    version = str(info.get("/GTS_PDFXVersion", ""))
    if not version.startswith("PDF/X-1"):
        result.add(None, f"GTS_PDFXVersion is {version or 'missing'} (PDF/X-1:2001 expected)")
    conformance = str(info.get("/GTS_PDFXConformance", ""))
    if not conformance.startswith("PDF/X-1a"):
        result.add(None, f"GTS_PDFXConformance is {conformance or 'missing'} "
                   "(PDF/X-1a:2001 expected)")
    trapped = str(info.get("/Trapped", ""))
    if trapped not in ("/True", "/False"):
        result.add(None, f"Trapped is {trapped or 'missing'} (/True or /False)")
    for key in ("/Title", "/CreationDate", "/ModDate"):
        if not str(info.get(key, "")).strip():
            result.add(None, f"{key[1:]} is missing from the document information")
    if "/ID" not in doc.pdf.trailer:
        result.add(None, "the trailer has no file ID")
    return result


def pdfx_boxes(doc: Document, rules: PrintRules) -> RuleResult:
    # a bound book bleeds on three edges or none: its trim-size and bleed rules judge that
    bleed_rule = "" if rules.bound else ", at least 3 mm of bleed"
    result = RuleResult("page-boxes", "TrimBox (or ArtBox, not both) and BleedBox on every "
                        f"page{bleed_rule}, trim inside bleed inside media")
    for scan in doc.pages:
        page = scan.index + 1
        trim, art = doc.box(scan.index, "TrimBox"), doc.box(scan.index, "ArtBox")
        bleed, media = doc.box(scan.index, "BleedBox"), doc.box(scan.index, "MediaBox")
        if trim is None and art is None:
            result.add(page, "no TrimBox (nor ArtBox)")
        if trim is not None and art is not None:
            result.add(page, "both TrimBox and ArtBox (PDF/X allows one)")
        if bleed is None:
            result.add(page, "no BleedBox")
        inner = trim or art
        if inner is None or bleed is None or media is None:
            continue
        if not _inside(bleed, media):
            result.add(page, "the BleedBox reaches outside the MediaBox")
        if not _inside(inner, bleed):
            result.add(page, "the TrimBox reaches outside the BleedBox")
        least = min(inner[0] - bleed[0], inner[1] - bleed[1], bleed[2] - inner[2],
                    bleed[3] - inner[3])
        if bleed_rule and least < PDFX_MIN_BLEED - 0.1:
            result.add(page, f"bleed of {least / 72 * 25.4:.1f} mm: printers trim into at "
                       "least 3 mm (1/8 in in the US)")
    return result


def pdfx_colour(doc: Document) -> RuleResult:
    result = RuleResult("colour-spaces", "DeviceCMYK, DeviceGray and spot colours only "
                        "(no RGB, ICC-based or Lab)")
    for scan in doc.pages:
        for mark in _inked(doc, scan.index):
            colour = mark.colour
            if colour is None:
                continue
            space = colour.space
            ok = space in ALLOWED_SPACES or (space == "Indexed" and (
                "DeviceCMYK" in colour.detail or "DeviceGray" in colour.detail))
            if not ok:
                result.add(scan.index + 1, f"{colour.describe()}: {mark.what}")
    return result


def pdfx_black_text(doc: Document) -> RuleResult:
    result = RuleResult("black-text", "black text in 100 % K, not four-colour black")
    for scan in doc.pages:
        for mark in _inked(doc, scan.index):
            colour = mark.colour
            if mark.kind != "text" or colour is None or colour.space != "DeviceCMYK":
                continue
            c, m, y, k = (list(colour.values) + [0.0] * 4)[:4]
            if k >= 0.9 and (c > 0 or m > 0 or y > 0):
                result.add(scan.index + 1, f"rich black {colour.describe()}: {mark.what}")
    return result


def pdfx_total_ink(doc: Document, rules: PrintRules) -> RuleResult:
    result = RuleResult("total-ink", f"total ink at most {rules.max_ink:.0%}")
    for scan in doc.pages:
        for mark in _inked(doc, scan.index):
            colour = mark.colour
            if colour is not None and colour.space == "DeviceCMYK":
                total = sum(colour.values)
                if total > rules.max_ink + 0.005:
                    result.add(scan.index + 1, f"{total:.0%} ink ({colour.describe()}): "
                               f"{mark.what}")
    return result


def _transparency(doc: Document, title: str, status: Status) -> RuleResult:
    result = RuleResult("transparency", title)
    for index, page in enumerate(doc.pdf.pages):
        group = page.obj.get("/Group")
        if group is not None and str(group.get("/S", "")) == "/Transparency":
            result.add(index + 1, "the page is a transparency group", status)
    for scan in doc.pages:
        for item in scan.transparency:
            result.add(scan.index + 1, item, status)
    return result


def pdfx_transparency(doc: Document) -> RuleResult:
    return _transparency(doc, "no transparency (PDF/X-1a has none)", "fail")


def kdp_transparency(doc: Document, rules: PrintRules) -> RuleResult:
    return _transparency(doc, f"flattened: no live transparency ({rules.printer} asks for "
                         "flattened files; its printer may render it otherwise)", "warn")


def pdfx_annotations(doc: Document) -> RuleResult:
    result = RuleResult("annotations", "no annotations on the printed area (printer's marks "
                        "and trap networks aside)")
    for index, page in enumerate(doc.pdf.pages):
        bleed = doc.box(index, "BleedBox") or doc.trim(index)
        for annot in page.obj.get("/Annots", []):
            kind = str(annot.get("/Subtype", "/?"))[1:]
            if kind in ("PrinterMark", "TrapNet"):
                continue
            rect = annot.get("/Rect", [0, 0, 0, 0])
            box = tuple(float(v) for v in rect)
            if len(box) == 4 and _overlaps((min(box[0], box[2]), min(box[1], box[3]),
                                            max(box[0], box[2]), max(box[1], box[3])), bleed):
                result.add(index + 1, f"{kind} annotation at {_rect(annot)}")
    return result


def pdfx_marks(doc: Document) -> RuleResult:
    result = RuleResult("crop-marks", "printer's marks outside the bleed")
    for scan in doc.pages:
        trim = doc.trim(scan.index)
        bleed = doc.box(scan.index, "BleedBox") or trim
        for mark in _inked(doc, scan.index):
            if mark.kind == "shading" or _overlaps(mark.bbox, trim):
                continue
            if _overlaps(mark.bbox, bleed):
                result.add(scan.index + 1, f"a mark in the bleed: {mark.what}")
    return result


# -- profiles ---------------------------------------------------------------------------------

def _plain(rule: Rule) -> Callable[[Document, PrintRules], RuleResult]:
    return lambda doc, rules: rule(doc)


#: Every rule by the name a profile's record lists it under (``PrintRules.preflight``).
RULES: dict[str, Callable[[Document, PrintRules], RuleResult]] = {
    "not-encrypted": _plain(not_encrypted),
    "trim-size": kdp_trim,
    "page-count": kdp_page_count,
    "bleed": kdp_trim_edges,
    "margins": kdp_margins,
    "crop-marks": _plain(kdp_crop_marks),
    "fonts-embedded": _plain(fonts_embedded),
    "bitmap-fonts": _plain(bitmap_fonts),
    "text-size": lambda d, r: _text_size(d, r.min_text, "text-size",
                                         f"text at least {r.min_text:g} pt"),
    "line-width": lambda d, r: _line_widths(d, r.min_line, r.line_status, r.line_why),
    "tints": kdp_tints,
    "colour": _plain(kdp_colour),
    "image-resolution": _plain(image_resolution),
    "transparency": kdp_transparency,
    "annotations": _plain(no_annotations),
    "bookmarks": no_bookmarks,
    "blank-pages": _plain(kdp_blank_pages),
    "saddle-stitch": _plain(saddle_stitch),
    "pdfx-version": _plain(pdfx_version),
    "output-intent": _plain(pdfx_output_intent),
    "pdfx-keys": _plain(pdfx_keys),
    "pdfx-boxes": pdfx_boxes,
    "pdfx-colour": _plain(pdfx_colour),
    "black-text": _plain(pdfx_black_text),
    "total-ink": pdfx_total_ink,
    "pdfx-transparency": _plain(pdfx_transparency),
    "pdfx-annotations": _plain(pdfx_annotations),
    "marks-in-bleed": _plain(pdfx_marks),
}


def rules_for(rules: PrintRules, large_print: bool) -> list[Rule]:
    """The rules of a profile's record, in the order a report lists them."""
    found: list[Rule] = [
        (lambda check: lambda doc: check(doc, rules))(RULES[name]) for name in rules.preflight]
    if large_print:
        title = f"large print: text at least {LARGE_PRINT_MIN_TEXT:g} pt"
        found.append(lambda d: _text_size(d, LARGE_PRINT_MIN_TEXT, "large-print", title))
    return found
