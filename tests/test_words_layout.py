"""Fill-ins in an issue: the manifest's 'fillins', the pages a reader sees (grid, starter,
word list, solutions) in the PDF and in LaTeX."""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image
from pypdf import PdfReader

from grader.errors import FormatError
from layout.build import build_issue
from layout.issue import GradeInfo, Issue
from layout.kinds.fillin import Frame, grid_place
from layout.latex import render_latex
from layout.manifest import parse_manifest
from layout.pdf import render_pdf
from layout.plan import content_area, plan_issue
from layout.sheets import media_for

ROOT = Path(__file__).resolve().parents[1]
GRID = ROOT / "tests" / "data" / "words" / "ginsberg-20.txt"
HEART = ROOT / "puzzles" / "heart.yaml"


def manifest_text(fillins: str) -> str:
    return (f"title: Words and Pictures\npuzzles:\n  - {HEART}\nfillins:\n{fillins}")


@pytest.fixture(scope="module")
def issue() -> Issue:
    text = manifest_text(f"  - file: {GRID}\n    title: Diamond & Co\n    seed: 2\n"
                         "    note: Start from the given word.\n")
    manifest = parse_manifest(text, ROOT / "issue.yaml")
    return build_issue(manifest, grader=lambda p: GradeInfo("easy", 0.5, 1))


def _fillins(issue: Issue) -> tuple[Any, ...]:
    """The issue's entries of the kind that lays out its own pages (the fill-ins)."""
    return tuple(e for e in issue.entries if e.paged is not None)


def test_manifest_reads_fillins() -> None:
    text = manifest_text(f"  - {GRID}\n  - file: {GRID}\n    starter: 1A\n    title: T\n")
    manifest = parse_manifest(text, ROOT / "issue.yaml")
    assert [r.path for r in manifest.sections["fillins"]] == [GRID, GRID]
    second = manifest.sections["fillins"][1]
    assert second.starter == "1A" and second.title == "T"
    only = parse_manifest(f"fillins:\n  - {GRID}\n", ROOT / "issue.yaml")
    assert only.puzzles == () and len(only.sections["fillins"]) == 1


@pytest.mark.parametrize(
    ("fillins", "message"),
    [("  - file: missing.txt\n", "grid file not found: missing.txt"),
     (f"  - file: {GRID}\n    clue: x\n", "unknown key 'clue'"),
     (f"  - file: {GRID}\n    seed: one\n", "seed must be a whole number"),
     ("  oops: 1\n", "expected a list")],
)
def test_bad_fillins_name_the_manifest_and_line(fillins: str, message: str) -> None:
    with pytest.raises(FormatError) as caught:
        parse_manifest(manifest_text(fillins), Path("issue.yaml"))
    assert message in str(caught.value)
    assert str(caught.value).startswith("issue.yaml:4:")  # the line of 'fillins'


def test_fillins_are_numbered_after_the_nonograms(issue: Issue) -> None:
    assert [e.number for e in issue.blocks] == [1]
    assert [e.number for e in issue.entries] == [1, 2]  # one list, of any kind
    (entry,) = _fillins(issue)
    assert entry.number == 2 and entry.grade.verdict == "unique"
    assert entry.puzzle.solution.is_complete and entry.puzzle.starter is not None


def page_texts(data: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]


def test_pdf_pages_show_list_starter_contents_and_solutions(issue: Issue) -> None:
    plan = plan_issue(issue)
    texts = page_texts(render_pdf(issue, plan))
    (entry,) = _fillins(issue)
    puzzle = entry.puzzle
    fillin_pages = [t for t in texts if "Fill-in 9x9" in t and "Starter:" in t]
    assert len(fillin_pages) == 1
    page = fillin_pages[0]
    assert "Diamond & Co" in page and "Start from the given word." in page
    assert f"Starter: {puzzle.starter_word} is written in." in page
    words = page.split()
    for length, group in puzzle.words_by_length().items():
        assert f"{length} letters" in page
        for word in group:
            assert word in words, f"{word} missing from the list"
    contents = texts[0]
    assert "Fill-in · Diamond & Co" in contents
    solutions = next(t for t in texts if "Fill-in solutions" in t)
    letters = "".join(ch for row in puzzle.solution.rows for ch in row if ch != "#")
    # every letter of the solution, in reading order (caption and running head around it)
    assert letters in "".join(ch for ch in solutions.split("Fill-in solutions")[1]
                              if ch.isupper())
    outline = [o.title for o in PdfReader(io.BytesIO(render_pdf(issue, plan))).outline
               if not isinstance(o, list)]
    assert entry.label in outline and "Fill-in solutions" in outline


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler's pdftoppm not installed")
def test_rendered_grid_has_blocks_starter_and_blank_cells(issue: Issue, tmp_path: Path) -> None:
    plan = plan_issue(issue)
    data = render_pdf(issue, plan)
    (entry,) = _fillins(issue)
    index = next(k for k, p in enumerate(plan.pages)
                 if p.kind == "puzzles" and any(b.title == entry.label for b in p.bookmarks))
    pdf = tmp_path / "issue.pdf"
    pdf.write_bytes(data)
    dpi = 100
    subprocess.run(["pdftoppm", "-r", str(dpi), "-f", str(index + 1), "-l", str(index + 1),
                    "-gray", "-png", str(pdf), str(tmp_path / "page")], check=True)
    (png,) = tmp_path.glob("page-*.png")
    pixels = np.asarray(Image.open(png).convert("L"))
    area = content_area(issue.manifest.page, issue.manifest)
    x, top, cell = grid_place(entry, Frame(area.left, area.bottom, area.width, area.height))
    media = media_for(plan.pages[index], issue.manifest)
    scale = dpi / 72
    givens = entry.puzzle.givens

    def patch(r: int, c: int) -> np.ndarray:
        cx, cy = x + (c + 0.5) * cell + media.offset, top - (r + 0.5) * cell + media.offset
        px, py = int(cx * scale), int((media.height - cy) * scale)
        half = int(cell * scale * 0.3)
        return pixels[py - half:py + half, px - half:px + half]

    for r, row in enumerate(givens.rows):
        for c, ch in enumerate(row):
            shade = patch(r, c)
            if ch == "#":
                assert shade.mean() < 40, f"block at {r},{c}"
            elif ch == ".":
                assert shade.min() > 200, f"empty cell at {r},{c} has ink"
            else:
                assert shade.min() < 100, f"starter letter missing at {r},{c}"


def test_latex_carries_the_fillin_escaped(issue: Issue) -> None:
    plan = plan_issue(issue)
    tex = render_latex(issue, plan)
    (entry,) = _fillins(issue)
    assert r"Diamond\ \&\ Co" in tex
    for group in entry.puzzle.words_by_length().values():
        for word in group:
            assert f"{{{word}}}" in tex or word in tex
    assert "Fill-{}in\\ solutions" in tex  # hyphen kept literal, space kept


def test_sample_issue_fillins_build_unique_and_plan() -> None:
    from grader.results import Budget
    from layout.kinds.fillin import build_fillins
    from layout.manifest import load_manifest

    manifest = load_manifest(ROOT / "puzzles" / "issues" / "words-and-pictures.yaml")
    refs = manifest.sections["fillins"]
    assert len(manifest.puzzles) >= 2 and len(refs) == 2
    entries = build_fillins(refs, len(manifest.puzzles) + 1, Budget(seconds=60))
    for entry in entries:
        assert entry.grade.verdict == "unique" and entry.grade.level != "needs-guessing"
        grid = entry.puzzle.solution
        assert grid.is_complete and entry.puzzle.starter is not None
    again = build_fillins(refs, 1, Budget(seconds=60))
    assert [e.puzzle.solution for e in again] == [e.puzzle.solution for e in entries]


@pytest.mark.parametrize(("profile", "large"), [("kdp", True), ("pdfx", False)])
def test_fillin_pages_pass_the_printers_preflight(profile: str, large: bool, tmp_path: Path
                                                  ) -> None:
    """Text sizes, line widths and ink of the fill-in pages meet the printer's rules."""
    from dataclasses import replace

    from layout.preflight import preflight
    from layout.profiles import Profile

    text = f"title: Words\nbleed: 3mm\nfillins:\n  - file: {GRID}\n    seed: 2\n"
    manifest = parse_manifest(text, ROOT / "issue.yaml")
    manifest = replace(manifest, grey=True, pad_pages=True,
                       profile=Profile(name=profile, large_print=large))  # type: ignore[arg-type]
    built = build_issue(manifest, grader=lambda p: GradeInfo("easy", 0.5, 1))
    out = tmp_path / "fillins.pdf"
    out.write_bytes(render_pdf(built, plan_issue(built)))
    report = preflight(out, profile, large_print=large)
    failed = [line for line in report.lines() if "FAIL" in line]
    assert not failed, report.lines()
