"""A short KDP book as its buyer sees it: the sample issue built with ``--profile kdp --pad``
(A4, as the manifest asks) fills its pages with bigger puzzles and solutions before any Notes
page, read back from the PDF the command wrote (and the LaTeX back end's, which draws the
same plan)."""

from __future__ import annotations

import contextlib
import io
import shutil
from pathlib import Path

import pikepdf
import pytest
from pypdf import PdfReader

from layout.preflight.scan import scan_pages
from nonopress.cli import main

SAMPLE = Path(__file__).resolve().parents[1] / "puzzles" / "issues" / "sample.yaml"


def pages_of(pdf: Path) -> list[tuple[str, float, list[float]]]:
    """Per page: its running head's label, how far down the trimmed page its lowest rule
    reaches (0 top to 1 bottom) and the sizes of its text."""
    texts = [page.extract_text() for page in PdfReader(pdf).pages]
    out = []
    with pikepdf.open(pdf) as document:
        for page, scan in zip(document.pages, scan_pages(document), strict=True):
            box = [float(v) for v in page.obj.get("/TrimBox", page.mediabox)]
            rules = [mark.bbox[1] for mark in scan.marks if mark.kind == "stroke"]
            reach = (box[3] - min(rules)) / (box[3] - box[1]) if rules else 0.0
            sizes = [mark.text_size for mark in scan.marks
                     if mark.kind == "text" and mark.text_size]
            text = texts[scan.index]
            label = next((name for name in ("Puzzles", "Solutions", "Worked", "Notes")
                          if name in text), "contents") if scan.index else "contents"
            out.append((label, reach, sizes))
    return out


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str], Path | None]:
    folder = tmp_path_factory.mktemp("short-book")
    pdf = folder / "kdp.pdf"
    args = ["issue", str(SAMPLE), "--profile", "kdp", "--pad", "-o", str(pdf),
            "--cache-dir", str(folder)]
    tex = None
    if shutil.which("pdflatex"):
        tex = folder / "kdp-tex.tex"
        args += ["--latex", str(tex)]
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(args) == 0  # written, and the preflight passes
    return pdf, err.getvalue().splitlines(), tex


def test_the_short_sample_book_prints_bigger_puzzles_and_five_notes_pages(
        built: tuple[Path, list[str], Path | None]) -> None:
    pdf, report, _ = built
    pages = pages_of(pdf)
    labels = [label for label, _, _ in pages]
    assert len(pages) == 24
    assert labels.count("Notes") == 5  # 8 with the puzzles at 5-6 mm, 13 at first
    assert labels.count("Puzzles") == 9  # 6 before
    puzzles = [(reach, sizes) for label, reach, sizes in pages if label == "Puzzles"]
    # every puzzle page but the last reaches below its middle: none half white
    assert all(reach > 0.5 for reach, _ in puzzles[:-1]), [r for r, _ in puzzles]
    sizes = [size for _, page_sizes in puzzles for size in page_sizes]
    assert min(sizes) >= 7.0 - 0.01  # KDP's least text
    assert 15.0 <= max(sizes) <= 16.0 + 0.01  # clue digits big, never past 16 pt
    said = [line for line in report if "a short book: puzzles" in line]
    assert said and "on 9 pages instead of 6" in said[0], report
    assert any("with 5 ruled Notes pages" in line for line in report), report


def test_the_latex_back_end_prints_the_same_short_book(
        built: tuple[Path, list[str], Path | None]) -> None:
    pdf, _, tex = built
    if tex is None:
        pytest.skip("no pdflatex")
    ours = [label for label, _, _ in pages_of(pdf)]
    theirs = [label for label, _, _ in pages_of(tex.with_suffix(".pdf"))]
    assert theirs == ours
