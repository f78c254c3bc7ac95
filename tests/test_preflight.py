"""The preflight on deliberately broken PDFs: one defect each, and the preflight names that
rule, that page and that object, and no other rule fails.

Each file starts from a PDF that passes its profile (a 24-page KDP interior or an A4
PDF/X-1a magazine with 3 mm bleed) and breaks one rule.
"""

from __future__ import annotations

import datetime as dt
import io
import json
from collections.abc import Callable
from pathlib import Path

import pikepdf
import pytest
from reportlab.pdfgen.canvas import Canvas

from layout.fonts import register_fonts
from layout.pdfx import to_pdfx
from layout.preflight import PreflightError, preflight
from layout.units import INCH, MM
from nonopress.cli import main

Draw = Callable[[Canvas, int], None]
Fix = Callable[[pikepdf.Pdf], None]
KDP_PAGE = (8.5 * INCH, 11 * INCH)
A4 = (210 * MM, 297 * MM)
BLEED = 3 * MM
#: Where the defects are drawn: well inside every margin.
X, Y = 1.5 * INCH, 5 * INCH


def build(
    path: Path,
    profile: str,
    *,
    draw: Draw | None = None,
    pages: int = 24,
    size: tuple[float, float] | None = None,
    bleed: float = 0.0,
    fix: Fix | None = None,
    text_size: float = 16.0,
    blank: tuple[int, ...] = (),
    pdfx_finish: bool = True,
) -> Path:
    """A PDF that passes ``profile``, with ``draw`` adding a defect on each page it likes
    and ``fix`` changing the file afterwards."""
    regular, _ = register_fonts()
    width, height = size or (KDP_PAGE if profile == "kdp" else A4)
    if profile == "pdfx":
        bleed = bleed or BLEED
    buffer = io.BytesIO()
    canvas = Canvas(buffer, invariant=1, initialFontName=regular, pageCompression=1)
    for number in range(1, pages + 1):
        media_w = width + (bleed if profile == "kdp" else 2 * bleed)
        media_h = height + 2 * bleed
        canvas.setPageSize((media_w, media_h))
        x0 = bleed if (profile == "pdfx" or number % 2 == 0) else 0.0
        canvas.setTrimBox((x0, bleed, x0 + width, bleed + height))
        canvas.setBleedBox((0, 0, media_w, media_h))
        canvas.saveState()
        canvas.translate(x0, bleed)
        if number not in blank:
            canvas.setFillColorCMYK(0, 0, 0, 1)
            canvas.setFont(regular, text_size)
            canvas.drawString(X, height - 2 * INCH, f"Page {number} of the test book")
            canvas.setStrokeColorCMYK(0, 0, 0, 1)
            canvas.setLineWidth(1.0)
            canvas.line(X, height - 2.2 * INCH, width - X, height - 2.2 * INCH)
            canvas.setFillColorCMYK(0, 0, 0, 0.15)
            canvas.rect(X, 2 * INCH, 2 * INCH, INCH, stroke=0, fill=1)
            if draw is not None:
                draw(canvas, number)
        canvas.restoreState()
        canvas.showPage()
    canvas.save()
    data = buffer.getvalue()
    if profile == "pdfx" and pdfx_finish:
        data = to_pdfx(data, title="Test magazine", date=dt.datetime(2026, 11, 21),
                       condition="FOGRA39")
    if fix is not None:
        with pikepdf.open(io.BytesIO(data)) as pdf:
            fix(pdf)
            out = io.BytesIO()
            pdf.save(out, force_version=pdf.pdf_version)
            data = out.getvalue()
    path.write_bytes(data)
    return path


def on_page(number: int, draw: Draw) -> Draw:
    return lambda canvas, page: draw(canvas, page) if page == number else None


def failed(path: Path, profile: str, large_print: bool = False) -> dict[str, list[str]]:
    report = preflight(path, profile, large_print)
    return {r.rule: [f.describe() for f in r.findings] for r in report.failed}


@pytest.mark.parametrize("profile", ["kdp", "pdfx"])
def test_the_clean_files_pass(tmp_path: Path, profile: str) -> None:
    report = preflight(build(tmp_path / "clean.pdf", profile), profile, large_print=True)
    assert report.passed and not report.warned, report.lines()
    assert report.pages == 24


# -- KDP --------------------------------------------------------------------------------------

def thin_line(canvas: Canvas, _: int) -> None:
    canvas.setLineWidth(0.2)
    canvas.line(X, Y, X + 100, Y)


def scaled_line(canvas: Canvas, _: int) -> None:
    """1 pt wide in its own space, 0.25 pt on paper: only the CTM tells."""
    canvas.saveState()
    canvas.translate(X, Y)
    canvas.scale(0.25, 0.25)
    canvas.setLineWidth(1.0)
    canvas.line(0, 0, 400, 0)
    canvas.restoreState()


def form_line(canvas: Canvas, _: int) -> None:
    """A thin line inside a form XObject, drawn through a scaling matrix."""
    canvas.beginForm("thin")
    canvas.setLineWidth(0.5)
    canvas.line(0, 0, 100, 0)
    canvas.endForm()
    canvas.saveState()
    canvas.translate(X, Y)
    canvas.scale(0.5, 0.5)
    canvas.doForm("thin")
    canvas.restoreState()


def small_digit(canvas: Canvas, _: int) -> None:
    canvas.setFont(register_fonts()[0], 6)
    canvas.drawString(X, Y, "7")


def scaled_text(canvas: Canvas, _: int) -> None:
    """A 12 pt digit under a half-size CTM prints at 6 pt."""
    canvas.saveState()
    canvas.translate(X, Y)
    canvas.scale(0.5, 0.5)
    canvas.setFont(register_fonts()[0], 12)
    canvas.drawString(0, 0, "8")
    canvas.restoreState()


def annotation(canvas: Canvas, _: int) -> None:
    canvas.linkURL("https://example.org/", (X, Y, X + 100, Y + 20))


def standard_font(canvas: Canvas, _: int) -> None:
    canvas.setFont("Helvetica", 16)
    canvas.drawString(X, Y, "Not embedded")


def light_tint(canvas: Canvas, _: int) -> None:
    canvas.setFillColorCMYK(0, 0, 0, 0.05)
    canvas.rect(X, Y, 50, 50, stroke=0, fill=1)


def in_the_gutter(canvas: Canvas, _: int) -> None:
    canvas.setFont(register_fonts()[0], 16)
    canvas.drawString(10, Y, "9")  # page 3 is a recto: its gutter is on the left


def crop_mark(canvas: Canvas, _: int) -> None:
    """A corner mark in the bleed beyond page 3's outside (right) edge."""
    canvas.setLineWidth(1.0)
    right = KDP_PAGE[0] + 0.06 * INCH
    canvas.line(right, -0.03 * INCH, right, -0.11 * INCH)


def bookmark(canvas: Canvas, page: int) -> None:
    canvas.bookmarkPage("p3")
    canvas.addOutlineEntry("Page 3", "p3")


def rgb_fill(canvas: Canvas, _: int) -> None:
    canvas.setFillColorRGB(1, 0, 0)
    canvas.rect(X, Y, 50, 50, stroke=0, fill=1)


KDP_CASES: dict[str, tuple[dict[str, object], str, str]] = {
    # name: (build arguments, the failing rule, what its finding says)
    "0.2 pt line": ({"draw": on_page(3, thin_line)}, "line-widths", "page 3: stroked"),
    "line thinned by the CTM": ({"draw": on_page(3, scaled_line)}, "line-widths", "0.25 pt"),
    "thin line in a form": ({"draw": on_page(3, form_line)}, "line-widths", "form /"),
    "6 pt digit": ({"draw": on_page(3, small_digit)}, "text-size", "text '7'"),
    "digit shrunk by the CTM": ({"draw": on_page(3, scaled_text)}, "text-size", "at 6.0 pt"),
    "annotation": ({"draw": on_page(3, annotation)}, "annotations", "page 3: Link annotation"),
    "non-embedded font": ({"draw": on_page(3, standard_font)}, "fonts-embedded", "Helvetica"),
    "three blank pages": ({"blank": (5, 6, 7)}, "blank-pages", "pages 5-7 are blank"),
    "5 % tint": ({"draw": on_page(3, light_tint)}, "tints", "5% tint"),
    "text in the gutter": ({"draw": on_page(3, in_the_gutter)}, "margins", "inside (gutter)"),
    "crop mark": ({"draw": on_page(3, crop_mark), "bleed": 0.125 * INCH}, "crop-marks",
                  "outside the trim"),
    "bookmark": ({"draw": on_page(3, bookmark)}, "bookmarks", "1 top-level bookmark"),
    "A3 trim": ({"size": (297 * MM, 420 * MM)}, "trim-size", "not a KDP trim size"),
    "10 pages": ({"pages": 10}, "page-count", "10 pages"),
}


@pytest.mark.parametrize("case", list(KDP_CASES))
def test_kdp_names_each_broken_rule(tmp_path: Path, case: str) -> None:
    arguments, rule, words = KDP_CASES[case]
    path = build(tmp_path / "broken.pdf", "kdp", **arguments)  # type: ignore[arg-type]
    failures = failed(path, "kdp")
    assert set(failures) == {rule}, failures
    assert any(words in finding for finding in failures[rule]), failures[rule]


def test_kdp_warns_about_colour_but_does_not_fail(tmp_path: Path) -> None:
    report = preflight(build(tmp_path / "rgb.pdf", "kdp", draw=on_page(3, rgb_fill)), "kdp")
    assert report.passed
    assert [r.rule for r in report.warned] == ["black-ink"]
    assert "DeviceRGB [1 0 0]" in report.warned[0].findings[0].message


def test_large_print_fails_text_under_14_pt(tmp_path: Path) -> None:
    path = build(tmp_path / "book.pdf", "kdp", text_size=12)
    assert failed(path, "kdp") == {}
    failures = failed(path, "kdp", large_print=True)
    assert set(failures) == {"large-print"}
    assert "at 12.0 pt" in failures["large-print"][0]


# -- PDF/X-1a ---------------------------------------------------------------------------------

def rich_black_text(canvas: Canvas, _: int) -> None:
    canvas.setFillColorCMYK(0.6, 0.4, 0.4, 1)
    canvas.setFont(register_fonts()[0], 16)
    canvas.drawString(X, Y, "Rich")


def heavy_ink(canvas: Canvas, _: int) -> None:
    canvas.setFillColorCMYK(1, 1, 1, 1)
    canvas.rect(X, Y, 50, 50, stroke=0, fill=1)


def transparent(canvas: Canvas, _: int) -> None:
    canvas.setFillAlpha(0.5)
    canvas.rect(X, Y, 50, 50, stroke=0, fill=1)


def mark_in_bleed(canvas: Canvas, _: int) -> None:
    canvas.setLineWidth(0.5)
    canvas.line(-1, 20, -1, 60)


def drop(key: str, page: int | None = None) -> Fix:
    def fix(pdf: pikepdf.Pdf) -> None:
        if page is None:
            holder = pdf.Root if key == "/OutputIntents" else pdf.trailer.Info
            del holder[key]
        else:
            del pdf.pages[page - 1].obj[key]
    return fix


def small_bleed(pdf: pikepdf.Pdf) -> None:
    trim = [float(v) for v in pdf.pages[1].obj.TrimBox]
    pdf.pages[1].obj.BleedBox = pikepdf.Array([trim[0] - 2, trim[1] - 2, trim[2] + 2,
                                               trim[3] + 2])


def version_1_4(pdf: pikepdf.Pdf) -> None:
    pdf.Root.Version = pikepdf.Name("/1.4")


PDFX_CASES: dict[str, tuple[dict[str, object], str, str]] = {
    "RGB fill": ({"draw": on_page(3, rgb_fill)}, "colour-spaces", "page 3: DeviceRGB [1 0 0]"),
    "missing TrimBox": ({"fix": drop("/TrimBox", 2)}, "page-boxes", "page 2: no TrimBox"),
    "missing BleedBox": ({"fix": drop("/BleedBox", 4)}, "page-boxes", "page 4: no BleedBox"),
    "1 mm bleed": ({"fix": small_bleed}, "page-boxes", "bleed of 0.7 mm"),
    "non-embedded font": ({"draw": on_page(3, standard_font)}, "fonts-embedded", "Helvetica"),
    "rich black text": ({"draw": on_page(3, rich_black_text)}, "black-text", "rich black"),
    "400 % ink": ({"draw": on_page(3, heavy_ink)}, "total-ink", "400% ink"),
    "transparency": ({"draw": on_page(3, transparent)}, "transparency", "opacity ca 0.5"),
    "annotation": ({"draw": on_page(3, annotation)}, "annotations", "Link annotation"),
    "mark in the bleed": ({"draw": on_page(3, mark_in_bleed)}, "crop-marks", "in the bleed"),
    "no OutputIntent": ({"fix": drop("/OutputIntents")}, "output-intent", "0 OutputIntents"),
    "no GTS_PDFXVersion": ({"fix": drop("/GTS_PDFXVersion")}, "pdfx-keys", "GTS_PDFXVersion"),
    "no Trapped key": ({"fix": drop("/Trapped")}, "pdfx-keys", "Trapped is missing"),
    "PDF 1.4": ({"fix": version_1_4}, "pdf-version", "PDF 1.4"),
}


@pytest.mark.parametrize("case", list(PDFX_CASES))
def test_pdfx_names_each_broken_rule(tmp_path: Path, case: str) -> None:
    arguments, rule, words = PDFX_CASES[case]
    path = build(tmp_path / "broken.pdf", "pdfx", **arguments)  # type: ignore[arg-type]
    failures = failed(path, "pdfx")
    assert set(failures) == {rule}, failures
    assert any(words in finding for finding in failures[rule]), failures[rule]


def test_a_plain_reportlab_file_is_not_pdfx(tmp_path: Path) -> None:
    path = build(tmp_path / "plain.pdf", "pdfx", pdfx_finish=False)
    assert set(failed(path, "pdfx")) == {"output-intent", "pdfx-keys"}


# -- the command ------------------------------------------------------------------------------

def test_command_exit_status_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = build(tmp_path / "good.pdf", "kdp")
    bad = build(tmp_path / "bad.pdf", "kdp", draw=on_page(2, thin_line))
    assert main(["preflight", str(good), "--profile", "kdp"]) == 0
    assert "passes" in capsys.readouterr().out
    assert main(["preflight", str(bad), "--profile", "kdp", "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["passed"] is False and report["pages"] == 24
    rules = {r["rule"]: r for r in report["rules"]}
    assert rules["line-widths"]["status"] == "fail"
    assert rules["line-widths"]["findings"][0]["page"] == 2
    assert rules["fonts-embedded"]["status"] == "pass"
    assert main(["preflight", str(bad), "--profile", "kdp"]) == 1
    out = capsys.readouterr().out
    assert "FAIL  line-widths" in out and "page 2: stroked path" in out


def test_unreadable_files_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    junk = tmp_path / "junk.pdf"
    junk.write_bytes(b"%PDF-1.4\nthis is not a PDF at all\n")
    assert main(["preflight", str(junk), "--profile", "pdfx"]) == 2
    err = capsys.readouterr().err
    assert "junk.pdf" in err and err.count("\n") == 1
    assert main(["preflight", str(tmp_path / "missing.pdf"), "--profile", "kdp"]) == 2
    assert "file not found" in capsys.readouterr().err
    with pytest.raises(PreflightError):
        preflight(junk, "kdp")
