"""The prepress fault catalogue (shared/prepress-faults.md), one small PDF per row made here.

Each file starts from one that passes its profile (a 24-page KDP 8.5x11 in interior or an A4
PDF/X-1a magazine, built by ``test_preflight.build``) and plants one fault, drawn with
reportlab or written into the content stream. The preflight must name the rule, the page (or,
for a document-level rule, no page) and the object; no rule but the expected ones may fail.
Control rows must pass.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pikepdf
import pytest
from PIL import Image
from reportlab.lib.colors import Color
from reportlab.pdfgen.canvas import Canvas
from test_preflight import KDP_PAGE, Draw, X, Y, build, on_page

from layout.fonts import register_fonts
from layout.preflight import preflight
from layout.units import INCH, MM

Post = Callable[[Path], None]


@dataclass(frozen=True)
class Fault:
    rule: str
    words: str  # what the finding says, beside the page
    page: int | None  # the page the finding names; None for a document-level rule
    build: dict[str, object] = field(default_factory=dict)
    post: Post | None = None  # changes the finished file
    status: str = "fail"
    also: frozenset[str] = frozenset()  # follow-on failures a printer's preflight also lists


# -- planting helpers --------------------------------------------------------------------------

def append_content(page_number: int, ops: bytes, resources: dict[str, dict[str, object]]
                   | None = None) -> Callable[[pikepdf.Pdf], None]:
    """A ``fix`` that adds raw operators (in default user space) to a page, with resources
    given as {category: {name: object-maker}}."""
    def fix(pdf: pikepdf.Pdf) -> None:
        page = pdf.pages[page_number - 1]
        for category, entries in (resources or {}).items():
            holder = page.obj.Resources
            if category not in holder:
                holder[category] = pikepdf.Dictionary()
            for name, make in entries.items():
                holder[category][name] = make(pdf) if callable(make) else make
        page.contents_add(pikepdf.Stream(pdf, ops), prepend=False)
    return fix


def on_pages(numbers: tuple[int, ...], fix: Callable[[int], Callable[[pikepdf.Pdf], None]]
             ) -> Callable[[pikepdf.Pdf], None]:
    def apply(pdf: pikepdf.Pdf) -> None:
        for number in numbers:
            fix(number)(pdf)
    return apply


def rewrite(**save: object) -> Post:
    def post(path: Path) -> None:
        with pikepdf.open(path, allow_overwriting_input=True) as pdf:
            pdf.save(path, **save)  # type: ignore[arg-type]
    return post


def header(version: bytes) -> Post:
    def post(path: Path) -> None:
        data = path.read_bytes()
        path.write_bytes(re.sub(rb"^%PDF-1\.\d", b"%PDF-" + version, data, count=1))
    return post


def no_file_id(path: Path) -> None:
    """Blank out the trailer's /ID (same length: the cross-reference offsets stay right)."""
    with pikepdf.open(path, allow_overwriting_input=True) as pdf:
        pdf.save(path, qdf=False, object_stream_mode=pikepdf.ObjectStreamMode.disable,
                 compress_streams=True)
    data = path.read_bytes()
    trailer = data.rindex(b"trailer")
    match = re.compile(rb"/ID\s*\[[^\]]*\]").search(data, trailer)
    assert match is not None
    path.write_bytes(data[:match.start()] + b" " * (match.end() - match.start())
                     + data[match.end():])


def boxes(change: Callable[[pikepdf.Page], None]) -> Callable[[pikepdf.Pdf], None]:
    def fix(pdf: pikepdf.Pdf) -> None:
        for page in pdf.pages:
            change(page)
    return fix


def bleed_is_trim(page: pikepdf.Page) -> None:
    page.obj.BleedBox = page.obj.TrimBox


def art_box_too(page: pikepdf.Page) -> None:
    page.obj.ArtBox = page.obj.TrimBox


def a4_page(number: int) -> Callable[[pikepdf.Pdf], None]:
    def fix(pdf: pikepdf.Pdf) -> None:
        a4 = pikepdf.Array([0, 0, 210 * MM, 297 * MM])
        page = pdf.pages[number - 1].obj
        page.MediaBox = page.TrimBox = page.BleedBox = a4
    return fix


def drop(key: str, page: int | None = None) -> Callable[[pikepdf.Pdf], None]:
    def fix(pdf: pikepdf.Pdf) -> None:
        if page is not None:
            del pdf.pages[page - 1].obj[key]
        elif key == "/OutputIntents":
            del pdf.Root[key]
        else:
            del pdf.trailer.Info[key]
    return fix


def white_page(number: int) -> Callable[[pikepdf.Pdf], None]:
    return append_content(number, b"q 1 g 0 0 612 792 re f 1 G 2 w 100 100 m 500 100 l S Q")


def icc_rgb(pdf: pikepdf.Pdf) -> pikepdf.Array:
    profile = pikepdf.Stream(pdf, b"\0" * 128)  # the preflight reads N, not the profile
    profile.N = 3
    return pikepdf.Array([pikepdf.Name.ICCBased, profile])


def cmyk_image_with_smask(pdf: pikepdf.Pdf) -> pikepdf.Stream:
    side = 300
    mask = pikepdf.Stream(pdf, zlib.compress(b"\x80" * side * side))
    mask.Type, mask.Subtype = pikepdf.Name.XObject, pikepdf.Name.Image
    mask.Width = mask.Height = side
    mask.ColorSpace, mask.BitsPerComponent = pikepdf.Name.DeviceGray, 8
    mask.Filter = pikepdf.Name.FlateDecode
    image = pikepdf.Stream(pdf, zlib.compress(b"\0\0\0\xff" * side * side))
    image.Type, image.Subtype = pikepdf.Name.XObject, pikepdf.Name.Image
    image.Width = image.Height = side
    image.ColorSpace, image.BitsPerComponent = pikepdf.Name.DeviceCMYK, 8
    image.Filter = pikepdf.Name.FlateDecode
    image.SMask = mask
    return image


# -- drawings ----------------------------------------------------------------------------------

def font() -> str:
    return register_fonts()[0]


def stroked(width: float) -> Draw:
    def draw(canvas: Canvas, _: int) -> None:
        canvas.setLineWidth(width)
        canvas.line(X, Y, X + 200, Y)
    return draw


def text(size: float, words: str = "Tiny", *, at: tuple[float, float] = (X, Y),
         face: str | None = None, mode: int = 0) -> Draw:
    def draw(canvas: Canvas, _: int) -> None:
        t = canvas.beginText(*at)
        t.setFont(face or font(), size)
        t.setTextRenderMode(mode)
        t.textOut(words)
        canvas.drawText(t)
    return draw


def scaled_text(canvas: Canvas, _: int) -> None:
    canvas.saveState()
    canvas.translate(X, Y)
    canvas.scale(0.4, 0.4)
    canvas.setFont(font(), 10)
    canvas.drawString(0, 0, "Scaled")
    canvas.restoreState()


def form_hairline(canvas: Canvas, _: int) -> None:
    canvas.beginForm("fLtV")
    canvas.setLineWidth(0.1)
    canvas.line(0, 0, 100, 0)
    canvas.endForm()
    canvas.saveState()
    canvas.translate(X, Y)
    canvas.doForm("fLtV")
    canvas.restoreState()


def form_rgb(canvas: Canvas, _: int) -> None:
    canvas.beginForm("fRGB")
    canvas.setFillColorRGB(0, 0.5, 1)
    canvas.rect(0, 0, 40, 40, stroke=0, fill=1)
    canvas.endForm()
    canvas.saveState()
    canvas.translate(X, Y)
    canvas.doForm("fRGB")
    canvas.restoreState()


def box(x: float, y: float, w: float, h: float, *, cmyk: tuple[float, ...] = (0, 0, 0, 1),
        alpha: float = 1.0) -> Draw:
    def draw(canvas: Canvas, _: int) -> None:
        canvas.saveState()
        canvas.setFillColorCMYK(*cmyk)
        if alpha < 1:
            canvas.setFillAlpha(alpha)
        canvas.rect(x, y, w, h, stroke=0, fill=1)
        canvas.restoreState()
    return draw


def rgb_box(canvas: Canvas, _: int) -> None:
    canvas.setFillColorRGB(1, 0, 0)
    canvas.rect(X, Y, 50, 50, stroke=0, fill=1)


def link(canvas: Canvas, _: int) -> None:
    canvas.linkURL("https://example.org/", (X, Y, X + 100, Y + 20))


def bookmark(canvas: Canvas, _: int) -> None:
    canvas.bookmarkPage("p3")
    canvas.addOutlineEntry("Page 3", "p3")


def reversed_text(canvas: Canvas, _: int) -> None:
    canvas.setFillColorCMYK(0, 0, 0, 1)
    canvas.rect(X, Y, 200, 40, stroke=0, fill=1)
    canvas.setFillColorCMYK(0, 0, 0, 0)
    canvas.setFont(font(), 5)
    canvas.drawString(X + 10, Y + 15, "white on black")


def reversed_rule(canvas: Canvas, _: int) -> None:
    canvas.setFillColorCMYK(0, 0, 0, 1)
    canvas.rect(X, Y, 200, 40, stroke=0, fill=1)
    canvas.setStrokeColorCMYK(0, 0, 0, 0)
    canvas.setLineWidth(0.2)
    canvas.line(X + 10, Y + 20, X + 190, Y + 20)


def picture(mode: str, pixels: int, points: float) -> Draw:
    def draw(canvas: Canvas, _: int) -> None:
        image = Image.new(mode, (pixels, pixels), "black" if mode != "CMYK" else (0, 0, 0, 255))
        from reportlab.lib.utils import ImageReader
        canvas.drawImage(ImageReader(image), X, Y, points, points)
    return draw


def rgb_shading(canvas: Canvas, _: int) -> None:
    canvas.saveState()
    path = canvas.beginPath()
    path.rect(X, Y, 100, 50)
    canvas.clipPath(path, stroke=0, fill=0)
    canvas.linearGradient(X, Y, X + 100, Y, (Color(1, 0, 0), Color(0, 0, 1)), extend=False)
    canvas.restoreState()


def rich_black(canvas: Canvas, page: int) -> None:
    canvas.setFillColorCMYK(0.6, 0.4, 0.4, 1)
    text(12, "Rich")(canvas, page)


def mark_in_bleed(canvas: Canvas, _: int) -> None:
    canvas.setLineWidth(0.5)
    canvas.line(-1, 20, -1, 60)


WIDTH, HEIGHT = KDP_PAGE
BLEED_KDP = 0.125 * INCH

KDP: dict[str, Fault] = {
    "k01 0.1 pt stroked line": Fault("line-widths", "0.10 pt wide", 3,
                                     {"draw": on_page(3, stroked(0.1))}),
    "k02 5 pt text": Fault("text-size", "at 5.0 pt", 3, {"draw": on_page(3, text(5))}),
    "k03 unembedded Helvetica": Fault("fonts-embedded", "Helvetica (Type1) is not embedded", 3,
                                      {"draw": on_page(3, text(12, face="Helvetica"))}),
    "k04 link annotation": Fault("annotations", "Link annotation at [108 360 208 380]", 3,
                                 {"draw": on_page(3, link)}),
    "k05 trim 8x12 in": Fault("trim-size", "8 in x 12 in is not a KDP trim size", 1,
                              {"size": (8 * INCH, 12 * INCH)}),
    "k06 no bleed: a box over the gutter edge": Fault(
        "bleed", "runs over the gutter trim edge of a file without bleed", 3,
        {"draw": on_page(3, box(-20, Y, 60, 40))}),
    "k06c no bleed: a box over the outside edge": Fault(
        "bleed", "runs over the outside trim edge of a file without bleed", 3,
        {"draw": on_page(3, box(WIDTH - 30, Y, 60, 40))}),
    "k06b bleed: a box over the gutter edge": Fault(
        "bleed", "runs over the gutter trim edge (KDP bleeds only", 3,
        {"draw": on_page(3, box(-20, Y, 60, 40)), "bleed": BLEED_KDP}),
    "k07 transparency": Fault("transparency", "opacity ca 0.5", 3,
                              {"draw": on_page(3, box(X, Y, 50, 50, alpha=0.5))}, status="warn"),
    "k08 4 empty pages": Fault("blank-pages", "pages 13-16 are blank (4 in a row)", 13,
                               {"blank": (13, 14, 15, 16)}),
    "k19 4 pages painted white": Fault(
        "blank-pages", "pages 13-16 are blank (4 in a row)", 13,
        {"blank": (13, 14, 15, 16), "fix": on_pages((13, 14, 15, 16), white_page)}),
    "k09 hairline as a filled rectangle": Fault(
        "line-widths", "filled 0.10 pt thin", 3,
        {"draw": on_page(3, box(X, Y, 0.1, 200))}),
    "k10 0 w": Fault("line-widths", "0.00 pt wide", 3, {"draw": on_page(3, stroked(0))}),
    "k11 10 pt text under 0.4 cm": Fault("text-size", "at 4.0 pt", 3,
                                         {"draw": on_page(3, scaled_text)}),
    "k12 0.1 pt line in a form": Fault("line-widths", "fLtV in page 3 operator", 3,
                                       {"draw": on_page(3, form_hairline)}),
    "k13 text 4 pt from the gutter": Fault("margins", "in the inside (gutter) margin: text "
                                           "'GUTTER'", 3,
                                           {"draw": on_page(3, text(12, "GUTTER", at=(4, Y)))}),
    "k14 5 % grey": Fault("tints", "5% tint", 3,
                          {"draw": on_page(3, box(X, Y, 50, 50, cmyk=(0, 0, 0, 0.05)))}),
    "k15 RGB fill": Fault("black-ink", "DeviceRGB [1 0 0]", 3, {"draw": on_page(3, rgb_box)},
                          status="warn"),
    "k16 bookmark": Fault("bookmarks", "1 top-level bookmark", None,
                          {"draw": on_page(3, bookmark)}),
    "k17 20 pages": Fault("page-count", "20 pages", None, {"pages": 20}),
    "k18 an A4 page in a Letter book": Fault(
        "trim-size", "in a 8.5 in x 11 in book (pages of 2 different sizes", 6,
        {"fix": a4_page(6)}, also=frozenset({"margins"})),
    "k21 encrypted": Fault("not-encrypted", "the file is encrypted", None,
                           post=rewrite(encryption=pikepdf.Encryption(owner="o", user=""))),
    "k22 white 5 pt text on black": Fault("text-size", "text 'white on black'", 3,
                                          {"draw": on_page(3, reversed_text)}),
    "k25 white 0.2 pt rule on black": Fault("line-widths", "0.20 pt wide", 3,
                                            {"draw": on_page(3, reversed_rule)}),
    "k23 72 ppi grey image": Fault("image-resolution", "72x72 px at 72 ppi", 3,
                                   {"draw": on_page(3, picture("L", 72, 72))}),
}

KDP_CONTROLS: dict[str, dict[str, object]] = {
    "k24 5 pt invisible text": {"draw": on_page(3, text(5, mode=3))},
    "bleed art over the outside edge of a bleed file": {
        "draw": on_page(3, box(WIDTH - 30, Y, 30 + BLEED_KDP, 40)), "bleed": BLEED_KDP},
    "a 300 ppi image": {"draw": on_page(3, picture("L", 300, 72))},
}

PDFX: dict[str, Fault] = {
    "x01 RGB image": Fault("colour-spaces", "DeviceRGB: image /", 3,
                           {"draw": on_page(3, picture("RGB", 300, 72))}),
    "x02 no TrimBox": Fault("page-boxes", "no TrimBox (nor ArtBox)", 3,
                            {"fix": drop("/TrimBox", 3)}),
    "x03 annotation": Fault("annotations", "Link annotation at", 3, {"draw": on_page(3, link)}),
    "x04 transparency": Fault("transparency", "opacity ca 0.5", 3,
                              {"draw": on_page(3, box(X, Y, 50, 50, alpha=0.5))}),
    "x05 unembedded font": Fault("fonts-embedded", "Helvetica (Type1) is not embedded", 3,
                                 {"draw": on_page(3, text(12, face="Helvetica"))}),
    "x06 rich black text": Fault("black-text", "rich black DeviceCMYK [0.6 0.4 0.4 1]", 3,
                                 {"draw": on_page(3, rich_black)}),
    "x07 340 % ink": Fault("total-ink", "340% ink", 3,
                           {"draw": on_page(3, box(X, Y, 50, 50, cmyk=(1, 1, 0.4, 1)))}),
    "x08 header PDF 1.4": Fault("pdf-version", "the header says PDF 1.4", None,
                                post=header(b"1.4")),
    "x09 no OutputIntent": Fault("output-intent", "0 OutputIntents", None,
                                 {"fix": drop("/OutputIntents")}),
    "x10 no GTS_PDFXVersion": Fault("pdfx-keys", "GTS_PDFXVersion is missing", None,
                                    {"fix": drop("/GTS_PDFXVersion")}),
    "x11 no Trapped": Fault("pdfx-keys", "Trapped is missing", None, {"fix": drop("/Trapped")}),
    "x12 ICCBased RGB fill": Fault("colour-spaces", "ICCBased (3 components) [1 0 0]", 3, {
        "fix": append_content(3, b"q /CS0 cs 1 0 0 sc 100 300 50 50 re f Q",
                              {"/ColorSpace": {"/CS0": icc_rgb}})}),
    "x13 a mark in the bleed": Fault("crop-marks", "a mark in the bleed: stroked path", 3,
                                     {"draw": on_page(3, mark_in_bleed)}),
    "x14 no trailer ID": Fault("pdfx-keys", "the trailer has no file ID", None,
                               post=no_file_id),
    "x15 BleedBox = TrimBox": Fault("page-boxes", "bleed of 0.0 mm", 1,
                                    {"fix": boxes(bleed_is_trim)}),
    "x16 TrimBox and ArtBox": Fault("page-boxes", "both TrimBox and ArtBox", 1,
                                    {"fix": boxes(art_box_too)}),
    "x17 RGB axial shading": Fault("colour-spaces", "DeviceRGB: shading /", 3,
                                   {"draw": on_page(3, rgb_shading)}),
    "x18 0.1 pt line": Fault("line-widths", "0.10 pt wide", 3,
                             {"draw": on_page(3, stroked(0.1))}, status="warn"),
    "x19 encrypted": Fault("not-encrypted", "the file is encrypted", None,
                           post=rewrite(encryption=pikepdf.Encryption(owner="o", user="")),
                           also=frozenset({"pdf-version"})),
    "x20 CMYK image with a soft mask": Fault("transparency", "image /ImS with a soft mask", 3, {
        "fix": append_content(3, b"q 72 0 0 72 100 300 cm /ImS Do Q",
                              {"/XObject": {"/ImS": cmyk_image_with_smask}})}),
    "x21 RGB fill in a form": Fault("colour-spaces", "fRGB in page 3 operator", 3,
                                    {"draw": on_page(3, form_rgb)}),
}


def check(tmp_path: Path, profile: str, fault: Fault) -> None:
    path = build(tmp_path / "fault.pdf", profile, **fault.build)  # type: ignore[arg-type]
    if fault.post is not None:
        fault.post(path)
    report = preflight(path, profile)
    results = {r.rule: r for r in report.results}
    result = results[fault.rule]
    assert result.status == fault.status, report.lines()
    named = [f for f in result.findings if fault.words in f.message]
    assert named, [f.describe() for f in result.findings]
    assert any(f.page == fault.page for f in named), [f.describe() for f in named]
    failing = {r.rule for r in report.failed}
    expected = {fault.rule} if fault.status == "fail" else set()
    assert expected <= failing <= expected | fault.also, report.lines()


@pytest.mark.parametrize("name", list(KDP))
def test_kdp_fault_is_named_with_its_page(tmp_path: Path, name: str) -> None:
    check(tmp_path, "kdp", KDP[name])


@pytest.mark.parametrize("name", list(PDFX))
def test_pdfx_fault_is_named_with_its_page(tmp_path: Path, name: str) -> None:
    check(tmp_path, "pdfx", PDFX[name])


@pytest.mark.parametrize("name", list(KDP_CONTROLS))
def test_kdp_controls_pass(tmp_path: Path, name: str) -> None:
    path = build(tmp_path / "control.pdf", "kdp", **KDP_CONTROLS[name])  # type: ignore[arg-type]
    report = preflight(path, "kdp")
    assert report.passed and not report.warned, report.lines()


def test_the_catalogue_is_complete() -> None:
    assert len(KDP) == 25 and any(name.startswith("k24") for name in KDP_CONTROLS)
    assert len(PDFX) == 21


def test_a_type3_bitmap_font_is_reported_under_both_profiles(tmp_path: Path) -> None:
    """A Type 3 font whose glyph is an inline image, as pdfTeX writes TeX's PK fonts."""
    glyph = (b"10 0 0 0 10 10 d1 q 10 0 0 10 0 0 cm BI /W 8 /H 8 /IM true /BPC 1 "
             b"/D [1 0] ID \xff\x81\x81\x81\x81\x81\x81\xff EI Q")

    def type3(pdf: pikepdf.Pdf) -> pikepdf.Dictionary:
        return pdf.make_indirect(pikepdf.Dictionary(
            Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type3,
            FontBBox=[0, 0, 10, 10], FontMatrix=[0.1, 0, 0, 0.1, 0, 0],
            CharProcs=pikepdf.Dictionary(a=pikepdf.Stream(pdf, glyph)),
            Encoding=pikepdf.Dictionary(Type=pikepdf.Name.Encoding,
                                        Differences=[97, pikepdf.Name.a]),
            FirstChar=97, LastChar=97, Widths=[10],
        ))

    fix = append_content(3, b"BT /T3 12 Tf 100 300 Td (aaa) Tj ET", {"/Font": {"/T3": type3}})
    for profile in ("kdp", "pdfx"):
        path = build(tmp_path / f"{profile}.pdf", profile, fix=fix)
        report = preflight(path, profile)
        failing = {r.rule: r for r in report.failed}
        assert set(failing) == {"bitmap-fonts"}, report.lines()
        assert failing["bitmap-fonts"].findings[0].describe() == (
            "page 3: font unnamed is a Type 3 bitmap font")


def test_an_image_at_250_ppi_is_a_warning(tmp_path: Path) -> None:
    path = build(tmp_path / "soft.pdf", "kdp", draw=on_page(4, picture("L", 250, 72)))
    report = preflight(path, "kdp")
    assert report.passed
    assert [r.rule for r in report.warned] == ["image-resolution"]
    assert report.warned[0].findings[0].describe().startswith("page 4: image /")


def test_a_raw_stream_run_over_the_bottom_edge(tmp_path: Path) -> None:
    """Drawn straight into the content stream, no reportlab: the bottom edge of page 8."""
    path = build(tmp_path / "raw.pdf", "kdp",
                 fix=append_content(8, b"0 g 200 -10 100 30 re f"))
    failing = {r.rule: r for r in preflight(path, "kdp").failed}
    assert set(failing) == {"bleed"}
    assert "page 8: runs over the bottom trim edge" in failing["bleed"].findings[0].describe()


def test_the_sample_books_pass(tmp_path: Path) -> None:
    """A book nonopress makes itself passes its own preflight: no false alarms."""
    from nonopress.cli import main
    for profile, extra in (("kdp", ["--page", "8.5x11in", "--pad"]), ("pdfx", [])):
        out = tmp_path / f"{profile}.pdf"
        status = main(["issue", "puzzles/issues/sample.yaml", "--profile", profile,
                       *extra, "-o", str(out), "-q"])
        assert status == 0
        report = preflight(out, profile)
        # the one warning a true one: an 11-page magazine cannot be saddle-stitched as it is
        expected = {"saddle-stitch"} if profile == "pdfx" else set()
        assert report.passed and {r.rule for r in report.warned} == expected, report.lines()
