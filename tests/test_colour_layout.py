"""Colour issues print: pages rendered with poppler and checked pixel by pixel (clue
squares in their colour, white digits on dark colours, solutions in colour, grey print
without any colour), the LaTeX escapes user text and compiles to the same pages."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from grader.colour.palette import luminance
from grader.results import Budget
from layout.colour_issue import (
    Box,
    ColourPage,
    Label,
    build_colour_issue,
    plan_colour_issue,
    render_colour_latex,
    render_colour_pdf,
)
from layout.manifest import Manifest, load_manifest

SAMPLE = Path(__file__).resolve().parents[1] / "puzzles" / "issues" / "colour-sample.yaml"
DPI = 100
needs_poppler = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="no poppler")


@pytest.fixture(scope="module")
def manifest() -> Manifest:
    return load_manifest(SAMPLE)


@pytest.fixture(scope="module")
def pages(manifest: Manifest) -> list[ColourPage]:
    entries = build_colour_issue(manifest, Budget(seconds=30))
    return plan_colour_issue(entries, manifest)


def rasterise(pdf: bytes, page: int, tmp_path: Path) -> np.ndarray:
    source = tmp_path / "page.pdf"
    source.write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", str(DPI), "-png", "-f", str(page), "-l", str(page),
                    "-singlefile", str(source), str(tmp_path / "page")], check=True)
    return np.asarray(Image.open(tmp_path / "page.png").convert("RGB"), dtype=np.int32)


def box_pixels(image: np.ndarray, box: Box, manifest: Manifest) -> np.ndarray:
    """The pixels inside ``box`` (points on the trimmed page), a little inset."""
    scale = DPI / 72
    height = manifest.page.height + 2 * manifest.bleed
    x0 = (box.x + manifest.bleed) * scale
    y0 = (height - (box.y + manifest.bleed + box.h)) * scale
    inset = 0.12 * box.w * scale
    return image[int(y0 + inset):int(y0 + box.h * scale - inset),
                 int(x0 + inset):int(x0 + box.w * scale - inset)].reshape(-1, 3)


def clue_boxes(page: ColourPage) -> list[Box]:
    return [op for op in page.ops if isinstance(op, Box) and op.stroke == 0.3 and op.fill]


def page_with(pages: list[ColourPage], rgb: tuple[int, int, int]) -> int:
    """The 0-based index of the first puzzle page with a clue square of colour ``rgb``."""
    return next(i for i, page in enumerate(pages) if any(b.fill == rgb
                                                         for b in clue_boxes(page)))


def test_sample_issue_pages(pages: list[ColourPage]) -> None:
    kinds = [page.kind for page in pages]
    # small puzzles share pages (two 10x10 to 14x12 puzzles fit with 5 mm cells or more)
    assert kinds == ["puzzle"] * 3 + ["solutions"]


@needs_poppler
def test_clue_squares_print_in_their_colour_with_readable_digits(
        manifest: Manifest, pages: list[ColourPage], tmp_path: Path) -> None:
    pdf = render_colour_pdf(pages, manifest)
    image = rasterise(pdf, 1, tmp_path)  # the ladybird (black, red) and the mushroom
    boxes = clue_boxes(pages[0])
    assert {(26, 26, 26), (215, 38, 30)} <= {box.fill for box in boxes}
    for box in boxes:
        assert box.fill is not None
        pixels = box_pixels(image, box, manifest)
        # most of the square is its colour ...
        close = np.abs(pixels - np.array(box.fill)).sum(axis=1) < 60
        assert close.mean() > 0.5
        # ... and the digit on it is white on a dark colour, black on a light one
        if luminance(box.fill) < 0.5:
            assert (pixels.min(axis=1) > 200).sum() > 5
        else:
            assert (pixels.max(axis=1) < 90).sum() > 5


@needs_poppler
def test_light_colours_get_dark_digits(manifest: Manifest, pages: list[ColourPage],
                                       tmp_path: Path) -> None:
    pdf = render_colour_pdf(pages, manifest)
    index = page_with(pages, (242, 197, 17))  # the flowerpot's yellow
    image = rasterise(pdf, index + 1, tmp_path)
    yellow = [b for b in clue_boxes(pages[index]) if b.fill == (242, 197, 17)]
    assert yellow
    for box in yellow:
        pixels = box_pixels(image, box, manifest)
        assert (pixels.max(axis=1) < 90).sum() > 5  # dark digit pixels


@needs_poppler
def test_solutions_print_in_colour(manifest: Manifest, pages: list[ColourPage],
                                   tmp_path: Path) -> None:
    pdf = render_colour_pdf(pages, manifest)
    image = rasterise(pdf, len(pages), tmp_path)
    cells = [op for op in pages[-1].ops if isinstance(op, Box) and op.stroke == 0 and op.fill]
    fills = {cell.fill for cell in cells}
    assert (215, 38, 30) in fills and (27, 42, 94) in fills  # ladybird red, sailboat navy
    for cell in cells[:40]:
        pixels = box_pixels(image, cell, manifest)
        assert np.abs(pixels.mean(axis=0) - np.array(cell.fill)).max() < 40


@needs_poppler
def test_grey_print_has_no_colour_and_a_symbol_legend(manifest: Manifest,
                                                      tmp_path: Path) -> None:
    grey = replace(manifest, grey=True)
    entries = build_colour_issue(grey, Budget(seconds=30))
    pages = plan_colour_issue(entries, grey)
    pdf = render_colour_pdf(pages, grey)
    for number in range(1, len(pages) + 1):
        image = rasterise(pdf, number, tmp_path)
        spread = image.max(axis=2) - image.min(axis=2)
        assert spread.max() <= 8, "grey print must use no colour"
    # distinct colours stay distinct greys, each with its symbol in the legend
    flowerpot = next(i for i, page in enumerate(pages) if any(
        isinstance(op, Label) and op.text == "D = terracotta" for op in page.ops))
    fills = {b.fill for b in clue_boxes(pages[flowerpot])}
    assert len(fills) >= 4
    page = str(flowerpot + 1)
    text = subprocess.run(["pdftotext", "-f", page, "-l", page, "-", "-"], input=pdf,
                          capture_output=True, check=True).stdout.decode()
    for word in ("A = yellow", "B = pink", "C = green", "D = terracotta"):
        assert word in text


def test_latex_escapes_titles(manifest: Manifest, pages: list[ColourPage]) -> None:
    pages[0].ops.append(Label(10, 10, "Tom & Jerry's 100% {fun} #1 $ \\ ~", 10))
    tex = render_colour_latex(pages, manifest)
    pages[0].ops.pop()
    assert r"Tom\ \&\ Jerry" in tex and r"100\%" in tex and r"\#1" in tex
    assert "\\definecolor" in tex and "{RGB}{215,38,30}" in tex
    assert "shell" not in tex.split("\\begin{document}")[1]


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="no pdflatex")
def test_latex_compiles_to_the_same_pages(manifest: Manifest, pages: list[ColourPage],
                                          tmp_path: Path) -> None:
    from pypdf import PdfReader

    from layout.latex import compile_latex

    tex_pdf = compile_latex(render_colour_latex(pages, manifest), jobname="colour")
    (tmp_path / "tex.pdf").write_bytes(tex_pdf)
    (tmp_path / "rl.pdf").write_bytes(render_colour_pdf(pages, manifest))
    tex_reader, rl_reader = PdfReader(tmp_path / "tex.pdf"), PdfReader(tmp_path / "rl.pdf")
    assert len(tex_reader.pages) == len(rl_reader.pages) == len(pages)
    for a, b in zip(tex_reader.pages, rl_reader.pages, strict=True):
        for box in ("mediabox", "trimbox"):
            ours, theirs = getattr(a, box), getattr(b, box)
            assert all(abs(float(x) - float(y)) < 0.1 for x, y in zip(ours, theirs, strict=True))


def test_issue_command_prints_a_colour_issue(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    from pypdf import PdfReader

    from nonopress.cli import main

    out = tmp_path / "colour.pdf"
    assert main(["issue", str(SAMPLE), "-o", str(out), "--grey"]) == 0
    assert "4 pages, 5 puzzles (colour)" in capsys.readouterr().err
    reader = PdfReader(out)
    assert len(reader.pages) == 4
    assert "A = black" in reader.pages[0].extract_text()


def test_issue_with_an_ambiguous_colour_puzzle_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from nonopress.cli import main

    puzzle = tmp_path / "two.yaml"
    puzzle.write_text('palette: [{name: red, rgb: "ff0000", char: r}, '
                      '{name: blue, rgb: "0000ff", char: b}]\n'
                      'rows: ["1r", "1r", "2b"]\ncolumns: ["1r 1b", "1r 1b"]\n')
    manifest = tmp_path / "issue.yaml"
    manifest.write_text("title: T\npuzzles:\n  - two.yaml\n")
    assert main(["issue", str(manifest), "-o", str(tmp_path / "x.pdf")]) == 1  # not publishable
    err = capsys.readouterr().err
    assert "two.yaml" in err and "ambiguous" in err
    assert not (tmp_path / "x.pdf").exists()


def test_per_page_one_gives_each_puzzle_its_page(manifest: Manifest) -> None:
    single = replace(manifest, per_page=1, solutions=False)
    entries = build_colour_issue(single, Budget(seconds=30))
    pages = plan_colour_issue(entries, single)
    assert len(pages) == 5
    headers = [[op.text for op in page.ops if isinstance(op, Label) and op.text.startswith(
        "No. ")] for page in pages]
    assert headers == [["No. 1"], ["No. 2"], ["No. 3"], ["No. 4"], ["No. 5"]]


def test_grey_tints_follow_lightness_and_black_stays_black() -> None:
    from grader.colour.palette import Colour, Palette
    from layout.colour_issue import digit_colour, fill_of

    assert fill_of(Palette.black_and_white(), 1, grey=True) == (0, 0, 0)
    palette = Palette((Colour("navy", (27, 42, 94), "n"), Colour("yellow", (242, 197, 17), "y"),
                       Colour("red", (215, 38, 30), "r")))
    greys = [fill_of(palette, i, grey=True)[0] for i in (1, 2, 3)]
    assert greys[1] > greys[2] > greys[0]  # yellow lightest, navy darkest
    assert all(digit_colour((g, g, g)) == (0, 0, 0) for g in greys)  # black digits on all
    assert fill_of(palette, 3, grey=False) == (215, 38, 30)
    assert digit_colour((27, 42, 94)) == (255, 255, 255)


def test_kdp_profile_passes_the_preflight_but_for_the_page_count(tmp_path: Path) -> None:
    """Under the KDP profile a colour issue prints in black ink, with KDP's bleed, gutter,
    line widths, tints and no bookmarks; only its length (5 puzzles) is short of a book."""
    from layout.preflight import preflight
    from nonopress.cli import main

    out = tmp_path / "kdp.pdf"
    assert main(["issue", str(SAMPLE), "-o", str(out), "--profile", "kdp", "-q"]) == 1
    report = preflight(out, "kdp")
    assert [result.rule for result in report.failed] == ["page-count"]


def test_crop_marks_sit_outside_the_trim(manifest: Manifest, pages: list[ColourPage],
                                        tmp_path: Path) -> None:
    from pypdf import PdfReader

    marked = replace(manifest, crop_marks=True)
    (tmp_path / "c.pdf").write_bytes(render_colour_pdf(pages, marked))
    page = PdfReader(tmp_path / "c.pdf").pages[0]
    assert float(page.mediabox.width) > float(page.trimbox.width) + 2 * manifest.bleed + 10
