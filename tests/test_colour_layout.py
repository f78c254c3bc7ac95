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

from grader.results import Budget
from layout.colour_issue import (
    Box,
    ColourPage,
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


def test_sample_issue_pages(pages: list[ColourPage]) -> None:
    kinds = [page.kind for page in pages]
    assert kinds == ["puzzle"] * 5 + ["solutions"]


@needs_poppler
def test_clue_squares_print_in_their_colour_with_readable_digits(
        manifest: Manifest, pages: list[ColourPage], tmp_path: Path) -> None:
    pdf = render_colour_pdf(pages, manifest)
    image = rasterise(pdf, 1, tmp_path)  # the ladybird: black and red
    boxes = clue_boxes(pages[0])
    assert {box.fill for box in boxes} == {(26, 26, 26), (215, 38, 30)}
    for box in boxes:
        pixels = box_pixels(image, box, manifest)
        # most of the square is its colour ...
        close = np.abs(pixels - np.array(box.fill)).sum(axis=1) < 60
        assert close.mean() > 0.5
        # ... and the digit on it is white (both colours are dark)
        assert (pixels.min(axis=1) > 200).sum() > 5


@needs_poppler
def test_light_colours_get_dark_digits(manifest: Manifest, pages: list[ColourPage],
                                       tmp_path: Path) -> None:
    pdf = render_colour_pdf(pages, manifest)
    image = rasterise(pdf, 3, tmp_path)  # the flowerpot has yellow
    yellow = [b for b in clue_boxes(pages[2]) if b.fill == (242, 197, 17)]
    assert yellow
    for box in yellow:
        pixels = box_pixels(image, box, manifest)
        assert (pixels.max(axis=1) < 90).sum() > 5  # dark digit pixels


@needs_poppler
def test_solutions_print_in_colour(manifest: Manifest, pages: list[ColourPage],
                                   tmp_path: Path) -> None:
    pdf = render_colour_pdf(pages, manifest)
    image = rasterise(pdf, 6, tmp_path)
    cells = [op for op in pages[5].ops if isinstance(op, Box) and op.stroke == 0 and op.fill]
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
    for number in (3, 6):
        image = rasterise(pdf, number, tmp_path)
        spread = image.max(axis=2) - image.min(axis=2)
        assert spread.max() <= 8, "grey print must use no colour"
    # distinct colours stay distinct greys, each with its symbol in the legend
    fills = {b.fill for b in clue_boxes(pages[2])}
    assert len(fills) == 4
    text = subprocess.run(["pdftotext", "-f", "3", "-l", "3", "-", "-"], input=pdf,
                          capture_output=True, check=True).stdout.decode()
    for word in ("A = yellow", "B = pink", "C = green", "D = terracotta"):
        assert word in text


def test_latex_escapes_titles(manifest: Manifest, pages: list[ColourPage]) -> None:
    from layout.colour_issue import Label

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

    from grader.cli import main

    out = tmp_path / "colour.pdf"
    assert main(["issue", str(SAMPLE), "-o", str(out), "--grey"]) == 0
    assert "6 pages, 5 puzzles (colour)" in capsys.readouterr().err
    reader = PdfReader(out)
    assert len(reader.pages) == 6
    assert "A = black" in reader.pages[0].extract_text()


def test_issue_with_an_ambiguous_colour_puzzle_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from grader.cli import main

    puzzle = tmp_path / "two.yaml"
    puzzle.write_text('palette: [{name: red, rgb: "ff0000", char: r}, '
                      '{name: blue, rgb: "0000ff", char: b}]\n'
                      'rows: ["1r", "1r", "2b"]\ncolumns: ["1r 1b", "1r 1b"]\n')
    manifest = tmp_path / "issue.yaml"
    manifest.write_text("title: T\npuzzles:\n  - two.yaml\n")
    assert main(["issue", str(manifest), "-o", str(tmp_path / "x.pdf")]) == 2
    err = capsys.readouterr().err
    assert "two.yaml" in err and "ambiguous" in err
    assert not (tmp_path / "x.pdf").exists()
