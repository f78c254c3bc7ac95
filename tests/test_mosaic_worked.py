"""Worked solutions of mosaics in print (issue 54): an issue mixing nonograms and a mosaic
with ``worked: true`` prints the mosaic's worked solution as a nonogram's: its solved grid
with the clue digits, its grade, its steps in the mosaic's own words (in the issue's
language), and small step grids of the clues and the cells known so far after its hard
steps; in the PDF (digits and sentences real text) and in the LaTeX source alike."""

from __future__ import annotations

import io
import itertools
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from grader.errors import FormatError
from grader.i18n import use
from grader.kinds import any_kind_of, read_puzzles
from grader.model import FILLED
from grader.results import Budget
from layout.build import build_issue
from layout.draw import ClueText, Page, Rects, Text
from layout.issue import Issue
from layout.kinds.mosaic import ROUTINE_LEVEL, worked_grids
from layout.latex import render_latex, tex_escape
from layout.manifest import load_manifest
from layout.pdf import render_pdf
from layout.plan import IssuePlan, plan_issue
from layout.preflight import preflight
from layout.stepgrid import LEGEND
from nonopress.cli import main

ROOT = Path(__file__).resolve().parent.parent
HEART = ROOT / "puzzles" / "mosaic" / "heart.yaml"
SNAIL = ROOT / "puzzles" / "mosaic" / "snail.yaml"


def _manifest(tmp_path: Path, mosaic: Path = HEART, extra: str = "") -> Path:
    path = tmp_path / "issue.yaml"
    path.write_text(
        f"title: Two ways\nissue: 1\nsolutions: true\nworked: true\n{extra}"
        f"puzzles:\n  - {ROOT / 'puzzles' / 'heart.yaml'}\n"
        f"mosaics:\n  - {mosaic}\n", encoding="utf-8")
    return path


def _built(tmp_path: Path, language: str = "en", mosaic: Path = HEART
           ) -> tuple[Issue, IssuePlan]:
    manifest = load_manifest(_manifest(tmp_path, mosaic))
    with use(language):
        issue = build_issue(manifest)
        return issue, plan_issue(issue)


def _mosaic_pages(plan: IssuePlan, number: int) -> list[Page]:
    """The worked pages of entry ``number``: from its bookmark to the next entry's."""
    pages: list[Page] = []
    for page in plan.pages:
        if page.kind != "worked":
            continue
        marks = [b.title for b in page.bookmarks]
        if any(t.endswith(f"No. {number}") or t.endswith(f"Nr. {number}") for t in marks):
            pages = [page]
        elif pages and marks:
            break
        elif pages:
            pages.append(page)
    return pages


def _sentences(puzzle: Any, language: str) -> list[str]:
    kind: Any = any_kind_of(puzzle)
    with use(language):
        grade = kind.grade(None, Budget(seconds=20))
        return [kind.sentence(step) for step in grade.steps]


def test_a_mosaic_with_worked_true_gets_a_worked_solution(tmp_path: Path) -> None:
    issue, plan = _built(tmp_path)
    mosaic = issue.entries[1]
    assert mosaic.noun == "mosaic" and mosaic.worked and issue.entries[0].worked
    pages = _mosaic_pages(plan, 2)
    assert pages, "no worked page for the mosaic"
    texts = [op.text for page in pages for op in page.ops if isinstance(op, Text)]
    assert "Worked solution: No. 2 \u00b7 Mosaic 7x5 \u00b7 Heart" in texts
    body = " ".join(texts)
    (puzzle,) = read_puzzles(HEART)
    for k, sentence in enumerate(_sentences(puzzle, "en"), start=1):
        # each step's sentence, numbered, over its wrapped lines
        assert f"{k}. {' '.join(sentence.split()[:4])}" in body
    assert LEGEND in texts
    # the solved grid's digits: white on its filled cells, black on its empty ones
    rows = mosaic.grade.solution
    assert rows is not None
    digits = [op for op in pages[0].ops if isinstance(op, ClueText)][:2]  # the solved grid's
    colour = {(r, c): op.rgb for op in digits for r, c in _cells_of(op, digits)}
    assert len(colour) == len(puzzle.clue_cells())
    for r, c, _ in puzzle.clue_cells():
        assert colour[r, c] == ((255, 255, 255) if rows[r][c] == "#" else None)


def _cells_of(op: ClueText, ops: list[ClueText]) -> list[tuple[int, int]]:
    """The cells (row, column) of a solved grid's digits, from their centres: the grid's
    left and top are the least centres less half a cell."""
    items = [item for o in ops for item in o.items]
    xs = sorted({round(x, 3) for x, _, _ in items})
    ys = sorted({round(y, 3) for _, y, _ in items}, reverse=True)
    cell = min(b - a for a, b in itertools.pairwise(xs))
    left, top = xs[0] - cell / 2, ys[0] + cell / 2
    return [(round((top - y) / cell - 0.5), round((x - left) / cell - 0.5))
            for x, y, _ in op.items]


def test_step_grids_follow_the_hard_steps_with_the_clues_over_the_known_cells(
        tmp_path: Path) -> None:
    issue, plan = _built(tmp_path)
    mosaic = issue.entries[1]
    grids = mosaic.grade.grids
    (puzzle,) = read_puzzles(HEART)
    kind: Any = any_kind_of(puzzle)
    steps = kind.grade(None, Budget(seconds=20)).steps
    assert grids
    unknown = []
    for index, rows in grids:
        number = int(mosaic.grade.steps[index].split(".")[0])
        step = steps[number - 1]
        assert kind.rung_level(step.rung) != ROUTINE_LEVEL  # after a hard step only
        assert len(rows) == puzzle.height and all(len(r) == puzzle.width for r in rows)
        for r, c, state in step.changes:
            assert rows[r][c] == ("F" if state == FILLED else "E")
        unknown.append(sum(row.count("?") for row in rows))
    assert unknown == sorted(unknown, reverse=True)
    # each grid is drawn with its cells decided by the step marked and its clue digits
    pages = _mosaic_pages(plan, 2)
    marked = [op for page in pages for op in page.ops
              if isinstance(op, Rects) and op.role == "step" and op.rects]
    assert len(marked) >= len(grids)
    clue_digits = sum(len(op.items) for page in pages for op in page.ops
                      if isinstance(op, ClueText))
    assert clue_digits == len(puzzle.clue_cells()) * (1 + len(grids))


def test_a_long_mosaic_solve_summarises_its_routine_runs_and_grids_its_hard_steps() -> None:
    (puzzle,) = read_puzzles(SNAIL)
    from layout.kinds.mosaic import grade_info

    info = grade_info(puzzle, Budget(seconds=30))
    assert any(re.match(r"Steps \d+-\d+: routine clue logic \(", line) for line in info.steps)
    assert not any("line logic" in line for line in info.steps)
    kind: Any = any_kind_of(puzzle)
    steps = kind.grade(None, Budget(seconds=30)).steps
    hard = {k for k, s in enumerate(steps, 1) if kind.rung_level(s.rung) != ROUTINE_LEVEL}
    numbered = {int(m.group(1)) for line in info.steps if (m := re.match(r"(\d+)\. ", line))}
    assert hard <= numbered  # every hard step in full
    grids = worked_grids(puzzle, steps, info.steps,
                         lambda step: kind.rung_level(step.rung) == ROUTINE_LEVEL)
    assert grids == info.grids and 0 < len(grids) <= 8


def _pdftotext(pdf: Path, page: int, *flags: str) -> str:
    tool = shutil.which("pdftotext")
    if tool is None:
        pytest.skip("pdftotext (poppler-utils) is not installed")
    return subprocess.run([tool, *flags, "-f", str(page), "-l", str(page), str(pdf), "-"],
                          capture_output=True, text=True, check=True).stdout


def test_the_pdf_holds_the_sentences_and_searchable_digits(tmp_path: Path) -> None:
    issue, plan = _built(tmp_path)
    pdf = tmp_path / "issue.pdf"
    pdf.write_bytes(render_pdf(issue, plan))
    first = _mosaic_pages(plan, 2)[0]
    number = plan.pages.index(first) + 1
    text = " ".join(_pdftotext(pdf, number).split())
    assert "Worked solution: No. 2 · Mosaic 7x5" in text
    (puzzle,) = read_puzzles(HEART)
    opening = " ".join(_sentences(puzzle, "en")[0].split()[:6])
    assert f"1. {opening}" in text
    # every clue digit of the solved grid is a word of the page at its cell
    words = re.findall(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" '
                       r'yMax="([\d.]+)">(\d)</word>', _pdftotext(pdf, number, "-bbox"))
    found = [(float(a), float(b), float(c), float(d), s) for a, b, c, d, s in words]
    solved = [item for op in first.ops if isinstance(op, ClueText) for item in op.items]
    solved = solved[:len(puzzle.clue_cells())]  # the solved grid's, drawn first
    for x, y, s in solved:
        top = first.height - y
        assert any(s == w and x0 - 1 <= x <= x1 + 1 and y0 - 1 <= top <= y1 + 1
                   for x0, y0, x1, y1, w in found), (x, y, s)


def test_the_latex_source_holds_the_same_worked_solution(tmp_path: Path) -> None:
    issue, plan = _built(tmp_path)
    tex = render_latex(issue, plan)
    (puzzle,) = read_puzzles(HEART)
    worked = "".join(part for part in tex.split("% page ")[1:]
                     if part.split("\n")[0].endswith("(worked)"))
    assert tex_escape("Worked solution: No. 2 \u00b7 Mosaic 7x5 \u00b7 Heart") in worked
    first = _sentences(puzzle, "en")[0]
    assert tex_escape(f"1. {' '.join(first.split()[:5])}") in worked
    clues = re.findall(r"\\npclue\{[\d.-]+\}\{[\d.-]+\}\{(\d)\}", worked)
    grids = len(issue.entries[1].grade.grids)
    nonogram = sum(len(op.items) for page in _mosaic_pages(plan, 1) for op in page.ops
                   if isinstance(op, ClueText))
    assert len(clues) - nonogram == len(puzzle.clue_cells()) * (1 + grids)


def test_a_german_issue_works_the_mosaic_through_in_german(tmp_path: Path) -> None:
    _, plan = _built(tmp_path, "de", SNAIL)
    pages = _mosaic_pages(plan, 2)
    body = " ".join(op.text for page in pages for op in page.ops if isinstance(op, Text))
    (puzzle,) = read_puzzles(SNAIL)
    german = _sentences(puzzle, "de")
    assert f"1. {' '.join(german[0].split()[:4])}" in body
    assert "Routine-Ziffernlogik" in body and "routine" not in body
    assert "Lösungsweg" in body or "Schritt für Schritt" in body
    for english in ("the 0 at", "has no filled cell", "Worked solution", "Techniques used"):
        assert english not in body, english


@pytest.mark.parametrize(("flags", "mosaic"), [
    (["--profile", "kdp", "--page", "8.5x11in", "--pad"], SNAIL),
    # large print: the solved grid's and the step grids' digits at 14 pt on a 20x20
    (["--profile", "kdp", "--page", "8.5x11in", "--pad", "--large-print"], SNAIL),
    (["--profile", "pdfx"], HEART),
    (["--profile", "ingramspark", "--page", "6x9in", "--pad"], HEART),
], ids=["kdp", "kdp-large-print", "pdfx", "ingramspark"])
def test_every_print_profile_prints_the_worked_mosaic_and_passes_its_preflight(
        tmp_path: Path, flags: list[str], mosaic: Path) -> None:
    out = tmp_path / "issue.pdf"
    assert main(["issue", str(_manifest(tmp_path, mosaic)), "-o", str(out), "-q",
                 *flags]) == 0
    report = preflight(out, flags[1], large_print="--large-print" in flags)
    # a saddle-stitched magazine's page count is the one word a pdfx issue may get
    assert report.passed and {r.rule for r in report.warned} <= {"saddle-stitch"}, \
        report.lines()
    from pypdf import PdfReader

    text = " ".join(" ".join(page.extract_text().split())
                    for page in PdfReader(io.BytesIO(out.read_bytes())).pages)
    assert "Worked solution: No. 2" in text and "compare the" in text


def test_worked_by_number_reaches_a_mosaic_alone(tmp_path: Path) -> None:
    """``worked: [2]`` names the mosaic by its issue number (after the nonograms): it gets
    a worked solution, the nonogram none; a number past the last entry is one line."""
    path = _manifest(tmp_path)
    path.write_text(path.read_text(encoding="utf-8").replace("worked: true", "worked: [2]"),
                    encoding="utf-8")
    issue = build_issue(load_manifest(path))
    assert [e.worked for e in issue.entries] == [False, True]
    plan = plan_issue(issue)
    headings = [op.text for page in plan.pages if page.kind == "worked" for op in page.ops
                if isinstance(op, Text) and op.text.startswith("Worked solution:")]
    assert headings == ["Worked solution: No. 2 \u00b7 Mosaic 7x5 \u00b7 Heart"]
    path.write_text(path.read_text(encoding="utf-8").replace("worked: [2]", "worked: [3]"),
                    encoding="utf-8")
    with pytest.raises(FormatError, match=r"worked: no puzzle number 3 \(the issue has 2\)"):
        build_issue(load_manifest(path))
