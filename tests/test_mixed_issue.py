"""One page pipeline for both kinds: an issue that mixes the sample's black-and-white
puzzles with the four bundled colour ones prints as a KDP book (black ink, symbols for the
colours, padded to 24 pages) and as PDF/X-1a (CMYK colours, OutputIntent), each passing the
preflight, with a worked solution for a colour puzzle, in PDF and in LaTeX; an undecided
colour puzzle blocks the issue in one line."""

from __future__ import annotations

import re
import shutil
from dataclasses import replace
from pathlib import Path

import pikepdf
import pytest
from pypdf import PdfReader

from grader.formats import read_any
from grader.results import Budget
from layout.build import build_issue, grade_with_ladder
from layout.draw import ClueText, Lines, Page, Rects, Text
from layout.gradecache import GradeCache
from layout.issue import IssueEntry
from layout.latex import render_latex
from layout.manifest import load_manifest
from layout.plan import plan_issue
from layout.printsetup import apply_profile
from layout.stepgrid import INDEX_CHARS, STEP_MARKS, legend
from nonopress.cli import main

ROOT = Path(__file__).resolve().parents[1] / "puzzles"
COLOUR = ("ladybird", "mushroom", "flowerpot", "sailboat-at-dusk")
#: the sample has 11 black-and-white puzzles: the ladybird is number 12
LADYBIRD = 12
needs_tex = pytest.mark.skipif(shutil.which("pdflatex") is None, reason="no pdflatex")


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample manifest with the colour puzzles added and a colour puzzle worked."""
    folder = tmp_path_factory.mktemp("mixed")
    text = (ROOT / "issues" / "sample.yaml").read_text().replace("../", f"{ROOT}/")
    text = text.replace("worked: [3, 8]", f"worked: [3, {LADYBIRD}]")
    text += "".join(f"  - {ROOT}/colour/{name}.yaml\n" for name in COLOUR)
    (folder / "mixed.yaml").write_text(text)
    return folder


def build(folder: Path, name: str, *flags: str, latex: bool = False) -> tuple[Path, Path | None]:
    out = folder / f"{name}.pdf"
    args = ["issue", str(folder / "mixed.yaml"), "-o", str(out), "--cache-dir", str(folder),
            "-q", *flags]
    tex = folder / f"{name}-tex.tex" if latex else None
    if tex is not None:
        args += ["--latex", str(tex)]
    assert main(args) == 0  # 1 would be a preflight failure
    return out, tex


def colour_operators(pdf: Path) -> list[tuple[str, tuple[float, ...]]]:
    """Every fill and stroke colour set on every page: (operator, operands)."""
    found = []
    with pikepdf.open(pdf) as document:
        for page in document.pages:
            for item in pikepdf.parse_content_stream(page):
                if not isinstance(item, pikepdf.ContentStreamInstruction):
                    continue  # an inline image: no colour operator
                name = str(item.operator)
                if name in ("rg", "RG", "k", "K", "g", "G", "sc", "scn", "SC", "SCN"):
                    found.append((name, tuple(float(v) for v in item.operands)))
    return found


def text_of(pdf: Path) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(pdf).pages)


def test_kdp_book_is_black_ink_with_symbols_and_padded(folder: Path) -> None:
    pdf, _ = build(folder, "kdp", "--profile", "kdp", "--pad")
    assert len(PdfReader(pdf).pages) >= 24
    colours = colour_operators(pdf)
    assert colours
    assert {name for name, _ in colours} <= {"k", "K"}  # CMYK only, never RGB
    assert all(values[:3] == (0.0, 0.0, 0.0) for _, values in colours)  # K ink alone
    # several greys: the colours are tints, told apart by their symbols
    assert len({values for name, values in colours if name == "k"}) >= 5
    text = text_of(pdf)
    assert "A = black" in text and "B = red" in text  # the ladybird's legend
    assert re.search(r"\b\d+[AB]\b", text)  # clue numbers carry their colour's symbol
    # 24 pages or more filled by its puzzles and solutions printed bigger, not padded
    assert "Solutions" in text and "Notes" not in text
    worked = text.split(f"Worked solution: No. {LADYBIRD}", 1)[1]
    assert "A = black" in worked.split("Step by step", 1)[0]  # its legend, above the grid
    assert "red" in worked.split("Step by step", 1)[1]  # steps in colour words
    assert "*...." not in text  # stars are drawn, as for black and white


def test_pdfx_magazine_keeps_its_colours_in_cmyk(folder: Path) -> None:
    pdf, _ = build(folder, "pdfx", "--profile", "pdfx")
    colours = colour_operators(pdf)
    assert {name for name, _ in colours} <= {"k", "K"}
    chromatic = {values for _, values in colours if any(values[:3])}
    assert len(chromatic) >= 8  # the four puzzles' colours, not greys
    assert all(sum(values) <= 3.0 for _, values in colours)  # total ink at most 300 %
    with pikepdf.open(pdf) as document:
        intents = document.Root.OutputIntents
        assert len(intents) == 1 and str(intents[0].S) == "/GTS_PDFX"
    assert main(["preflight", "--profile", "pdfx", str(pdf)]) == 0


@needs_tex
def test_latex_prints_the_mixed_issue_under_both_profiles(folder: Path) -> None:
    for profile, flags in (("kdp", ("--pad",)), ("pdfx", ())):
        pdf, tex = build(folder, f"latex-{profile}", "--profile", profile, *flags,
                         latex=True)
        assert tex is not None
        compiled = tex.with_suffix(".pdf")
        assert len(PdfReader(compiled).pages) == len(PdfReader(pdf).pages)
        source = tex.read_text()
        assert "{rgb}" not in source  # colours in CMYK (PDF/X) or K alone (KDP)
        if profile == "pdfx":  # the ladybird's red, defined once as process colour
            assert re.search(r"definecolor\{np-cd7261e\}\{cmyk\}", source)
        text = text_of(compiled)
        assert f"Worked solution: No. {LADYBIRD}" in text
        assert "red" in text.split(f"Worked solution: No. {LADYBIRD}", 1)[1]
        assert main(["preflight", "--profile", profile, str(compiled)]) == 0


def ladybird_worked(folder: Path, profile: str) -> tuple[IssueEntry, list[Page], str]:
    """The ladybird's entry, its worked-solution pages and the issue's LaTeX source."""
    manifest = load_manifest(folder / "mixed.yaml")
    manifest = replace(manifest, pad_pages=profile == "kdp",
                       profile=replace(manifest.profile, name=profile))  # type: ignore[arg-type]
    manifest, _ = apply_profile(manifest)
    issue = build_issue(manifest, cache=GradeCache(folder / "nonopress-grades.json"))
    plan = plan_issue(issue)
    entry = issue.entries[LADYBIRD - 1]
    headings = (f"Worked solution: No. {LADYBIRD}", f"Worked solution No. {LADYBIRD} (")
    pages = [page for page in plan.pages if page.kind == "worked" and any(
        isinstance(op, Text) and op.text.startswith(headings) for op in page.ops)]
    return entry, pages, render_latex(issue, plan)


def hatched(op: object) -> bool:
    """A step grid's hatching of the cells not known yet: diagonal strokes."""
    return isinstance(op, Lines) and op.role == "rule" and any(
        x1 != x2 and y1 != y2 for x1, y1, x2, y2 in op.segments)


def test_colour_step_grids_follow_the_solve() -> None:
    """Every grid of a colour worked solution agrees with the solution, marks the cells its
    step decided, and knows more than the one before."""
    (puzzle,) = read_any(ROOT / "colour" / "ladybird.yaml")
    grade = grade_with_ladder(puzzle, Budget(seconds=30))
    solution = puzzle.solution_array()
    assert solution is not None and 3 <= len(grade.grids) <= 8
    unknown = []
    for index, rows in grade.grids:
        assert len(rows) == puzzle.height and all(len(row) == puzzle.width for row in rows)
        number = int(grade.steps[index].split(".")[0])
        assert grade.steps[index].startswith(f"{number}. ")
        marked = 0
        for r, row in enumerate(rows):
            for c, mark in enumerate(row):
                if mark == "?":
                    continue
                if mark in STEP_MARKS:
                    marked += 1
                    value = STEP_MARKS.index(mark)
                else:
                    value = 0 if mark == "." else INDEX_CHARS.index(mark)
                assert value == solution[r, c], (number, r, c)
        assert marked  # every grid shows what its step decided
        unknown.append(sum(row.count("?") for row in rows))
    assert unknown == sorted(unknown, reverse=True) and unknown[-1] < unknown[0]


@pytest.mark.parametrize("profile", ["kdp", "pdfx"])
def test_colour_worked_solution_draws_step_grids_in_the_profiles_ink(
        folder: Path, profile: str) -> None:
    """Like a black-and-white one, the ladybird's worked solution draws a small grid after
    the steps its grade chose: K-only tints with the colours' symbols under kdp, the
    puzzle's own colours (process CMYK) under pdfx, in the PDF and in LaTeX."""
    entry, pages, tex = ladybird_worked(folder, profile)
    grids = entry.grade.grids
    assert len(grids) >= 3
    ops = [op for page in pages for op in page.ops]
    texts = [op.text for op in ops if isinstance(op, Text)]
    assert legend(entry.grey, colour=True) in " ".join(texts)  # wrapped over lines
    assert sum(hatched(op) for op in ops) >= len(grids) - 1  # the last may be all known
    fills = {op.rgb for op in ops if isinstance(op, Rects) and op.rgb is not None}
    if profile == "kdp":  # grey print: tints of grey, and the symbols in the grid cells
        assert entry.grey and all(r == g == b for r, g, b in fills)
        # the grids' cells are as big as a 7 pt symbol needs (the solved grid's are bigger)
        symbols = [s for op in ops if isinstance(op, ClueText) and abs(op.size - 7.0) < 0.01
                   for _, _, s in op.items]
        assert {"A", "B"} <= set(symbols)
    else:
        assert not entry.grey and (215, 38, 30) in fills  # the ladybird's red
    # the LaTeX source draws the same hatching on the same pages
    worked = [part for part in tex.split("% page ")[1:]
              if part.split("\n")[0].endswith("(worked)")]
    diagonals = re.findall(r"\\draw\[np-rule,[^\]]*\] \(([\d.-]+),([\d.-]+)\) -- "
                           r"\(([\d.-]+),([\d.-]+)\)", "".join(worked))
    assert sum(x1 != x2 and y1 != y2 for x1, y1, x2, y2 in diagonals) >= len(grids) - 1


def test_an_undecided_colour_puzzle_blocks_the_issue_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import numpy as np

    rng = np.random.default_rng(1)  # 25x25 of noise in two colours: needs search
    picture = rng.choice(3, size=(25, 25), p=[0.45, 0.3, 0.25])
    rows = "\n".join("  " + "".join(".ab"[v] for v in row) for row in picture)
    (tmp_path / "static.yaml").write_text(
        'title: Static\npalette:\n  - {name: blue, rgb: "1f4e9a", char: a}\n'
        f'  - {{name: orange, rgb: "f08a24", char: b}}\nsolution: |\n{rows}\n')
    (tmp_path / "issue.yaml").write_text(
        f"title: T\npuzzles:\n  - {ROOT}/colour/ladybird.yaml\n  - static.yaml\n")
    status = main(["issue", str(tmp_path / "issue.yaml"), "-o", str(tmp_path / "x.pdf"),
                   "--no-cache", "--grade-seconds", "0.001", "-q"])
    err = capsys.readouterr().err
    assert status == 1, err
    assert "Traceback" not in err
    blockers = [line for line in err.splitlines() if line.startswith("  ")]
    assert len(blockers) == 1
    assert "static.yaml (puzzle 2 of the issue)" in blockers[0]
    assert "undecided" in blockers[0]
    assert not (tmp_path / "x.pdf").exists()


def test_a_colour_grade_keeps_its_solution_through_the_grade_cache() -> None:
    """A colour file without its picture prints the picture the grade proved, also when
    the grade comes back from the cache (stored as colour indices, not the file's chars)."""
    from dataclasses import replace

    from grader.colour.model import ColourPuzzle
    from grader.formats import read_any
    from grader.results import Budget
    from layout.build import grade_with_ladder, solution_of
    from layout.issue import GradeInfo

    ladybird = read_any(ROOT / "colour" / "ladybird.yaml")[0]
    assert isinstance(ladybird, ColourPuzzle)
    picture = ladybird.solution_array()
    assert picture is not None
    clues_only = replace(ladybird, solution=None)
    grade = grade_with_ladder(clues_only, Budget(seconds=30))
    assert grade.verdict == "unique" and grade.stars is not None
    assert any("red" in line for line in grade.steps)
    cached = GradeInfo.from_json(grade.to_json())
    for info in (grade, cached):
        shown = solution_of(clues_only, info, "ladybird")
        assert (shown == picture).all()
