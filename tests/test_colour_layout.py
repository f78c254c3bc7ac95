"""Colour puzzles print through the shared page pipeline: pages rendered with poppler and
checked pixel by pixel (clue squares in their colour, white digits on dark colours,
solutions in colour, grey print without any colour), the LaTeX escapes user text and
compiles to the same pages."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from grader.colour.palette import luminance
from grader.model import Metadata
from grader.results import Budget
from layout.build import build_issue
from layout.draw import RGB, ClueText, Page, Rect, Rects, Text
from layout.gradecache import GradeCache
from layout.issue import Issue
from layout.latex import render_latex
from layout.manifest import Manifest, load_manifest
from layout.pdf import render_pdf
from layout.plan import IssuePlan, plan_issue
from nonopress.cli import main

SAMPLE = Path(__file__).resolve().parents[1] / "puzzles" / "issues" / "colour-sample.yaml"
DPI = 100
needs_poppler = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="no poppler")


def built(manifest: Manifest) -> tuple[Issue, IssuePlan]:
    issue = build_issue(manifest, cache=GradeCache(None), budget=Budget(seconds=30))
    return issue, plan_issue(issue)


@pytest.fixture(scope="module")
def manifest() -> Manifest:
    return load_manifest(SAMPLE)


@pytest.fixture(scope="module")
def issue_plan(manifest: Manifest) -> tuple[Issue, IssuePlan]:
    return built(manifest)


@pytest.fixture(scope="module")
def pages(issue_plan: tuple[Issue, IssuePlan]) -> list[Page]:
    return issue_plan[1].pages


@pytest.fixture(scope="module")
def pdf(issue_plan: tuple[Issue, IssuePlan]) -> bytes:
    return render_pdf(*issue_plan)


def rasterise(pdf: bytes, page: int, tmp_path: Path) -> np.ndarray:
    source = tmp_path / "page.pdf"
    source.write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", str(DPI), "-png", "-f", str(page), "-l", str(page),
                    "-singlefile", str(source), str(tmp_path / "page")], check=True)
    return np.asarray(Image.open(tmp_path / "page.png").convert("RGB"), dtype=np.int32)


def box_pixels(image: np.ndarray, box: Rect, manifest: Manifest) -> np.ndarray:
    """The pixels inside ``box`` (points on the trimmed page), a little inset."""
    x, y, w, h = box
    scale = DPI / 72
    height = manifest.page.height + 2 * manifest.bleed
    x0 = (x + manifest.bleed) * scale
    y0 = (height - (y + manifest.bleed + h)) * scale
    inset = 0.12 * min(w, h) * scale
    return image[int(y0 + inset):int(y0 + h * scale - inset),
                 int(x0 + inset):int(x0 + w * scale - inset)].reshape(-1, 3)


def coloured(page: Page) -> list[tuple[RGB, Rect]]:
    """Every rectangle drawn in a colour puzzle's colour inside a puzzle block of ``page``
    (clue squares and solved cells; the legends' swatches are outside)."""
    def inside(rect: Rect) -> bool:
        x, y, _, _ = rect
        return any(b.x <= x <= b.x + b.geometry.total_width * b.cell
                   and b.top - b.geometry.total_height * b.cell <= y <= b.top
                   for b in page.blocks)

    return [(op.rgb, rect) for op in page.ops if isinstance(op, Rects) and op.rgb is not None
            for rect in op.rects if inside(rect)]


def puzzle_page_with(pages: list[Page], rgb: RGB) -> int:
    """The 0-based index of the first puzzle page with a clue square of colour ``rgb``."""
    return next(i for i, page in enumerate(pages) if page.kind == "puzzles"
                and any(fill == rgb for fill, _ in coloured(page)))


def test_sample_issue_pages(pages: list[Page]) -> None:
    kinds = [page.kind for page in pages]
    # contents, puzzles sharing pages, the solutions: the pages black and white has
    assert kinds[0] == "contents" and kinds[-1] == "solutions"
    assert set(kinds[1:-1]) == {"puzzles"}
    assert sum(len(page.blocks) for page in pages if page.kind == "puzzles") == 5


@needs_poppler
def test_clue_squares_print_in_their_colour_with_readable_digits(
        manifest: Manifest, pages: list[Page], pdf: bytes, tmp_path: Path) -> None:
    index = puzzle_page_with(pages, (215, 38, 30))  # the ladybird (black, red)
    image = rasterise(pdf, index + 1, tmp_path)
    squares = coloured(pages[index])
    assert {(26, 26, 26), (215, 38, 30)} <= {fill for fill, _ in squares}
    for fill, box in squares:
        pixels = box_pixels(image, box, manifest)
        # most of the square is its colour (a grey one in K ink alone, which poppler shows
        # a little lighter than the RGB it stands for) ...
        neutral = fill[0] == fill[1] == fill[2]
        close = np.abs(pixels - np.array(fill)).sum(axis=1) < (100 if neutral else 60)
        assert close.mean() > 0.5
        if neutral:  # no colour ink in it
            assert (pixels.max(axis=1) - pixels.min(axis=1)).max() <= 8
        # ... and the digit on it is white on a dark colour, black on a light one
        if luminance(fill) < 0.5:
            assert (pixels.min(axis=1) > 200).sum() > 5
        else:
            assert (pixels.max(axis=1) < 90).sum() > 5


@needs_poppler
def test_light_colours_get_dark_digits(manifest: Manifest, pages: list[Page], pdf: bytes,
                                       tmp_path: Path) -> None:
    index = puzzle_page_with(pages, (242, 197, 17))  # the flowerpot's yellow
    image = rasterise(pdf, index + 1, tmp_path)
    yellow = [box for fill, box in coloured(pages[index]) if fill == (242, 197, 17)]
    assert yellow
    for box in yellow:
        pixels = box_pixels(image, box, manifest)
        assert (pixels.max(axis=1) < 90).sum() > 5  # dark digit pixels


@needs_poppler
def test_solutions_print_in_colour(manifest: Manifest, pages: list[Page], pdf: bytes,
                                   tmp_path: Path) -> None:
    image = rasterise(pdf, len(pages), tmp_path)
    cells = coloured(pages[-1])
    fills = {fill for fill, _ in cells}
    assert (215, 38, 30) in fills and (27, 42, 94) in fills  # ladybird red, sailboat navy
    for fill, cell in cells[:40]:
        pixels = box_pixels(image, cell, manifest)
        if len(pixels):
            # the typical pixel (the 5-cell rules cross the runs); K-only greys render a
            # little lighter than the RGB they stand for
            neutral = fill[0] == fill[1] == fill[2]
            typical = np.median(pixels, axis=0)
            assert np.abs(typical - np.array(fill)).max() < (60 if neutral else 40)


@needs_poppler
def test_grey_print_has_no_colour_and_a_symbol_legend(manifest: Manifest,
                                                      tmp_path: Path) -> None:
    grey = replace(manifest, grey=True)
    issue, plan = built(grey)
    pdf = render_pdf(issue, plan)
    for number in range(1, len(plan.pages) + 1):
        image = rasterise(pdf, number, tmp_path)
        spread = image.max(axis=2) - image.min(axis=2)
        assert spread.max() <= 8, "grey print must use no colour"
    # distinct colours stay distinct greys, each with its symbol in the legend
    flowerpot = next(i for i, page in enumerate(plan.pages) if any(
        isinstance(op, Text) and op.text == "D = terracotta" for op in page.ops))
    assert len({fill for fill, _ in coloured(plan.pages[flowerpot])}) >= 4
    # every clue number carries its colour's symbol, as large as the number
    labels = [text for op in plan.pages[flowerpot].ops if isinstance(op, ClueText)
              for _, _, text in op.items]
    assert labels and all(text[-1] in "ABCD" or text == "0" for text in labels
                          if any(ch.isalpha() for ch in text) or text == "0")
    page = str(flowerpot + 1)
    text = subprocess.run(["pdftotext", "-f", page, "-l", page, "-", "-"], input=pdf,
                          capture_output=True, check=True).stdout.decode()
    for word in ("A = yellow", "B = pink", "C = green", "D = terracotta"):
        assert word in text


def test_latex_escapes_titles(issue_plan: tuple[Issue, IssuePlan]) -> None:
    issue, plan = issue_plan
    plan.pages[1].ops.append(Text(10, 10, "Tom & Jerry's 100% {fun} #1 $ \\ ~", 10))
    tex = render_latex(issue, plan)
    plan.pages[1].ops.pop()
    assert r"Tom\ \&\ Jerry" in tex and r"100\%" in tex and r"\#1" in tex
    # the profile (plain) asks for CMYK: the red as process CMYK, its grey part in K
    assert "\\definecolor{np-cd7261e}{cmyk}{0,0.82,0.86,0.16}" in tex
    assert "shell" not in tex.split("\\begin{document}")[1]


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="no pdflatex")
def test_latex_compiles_to_the_same_pages(issue_plan: tuple[Issue, IssuePlan], pdf: bytes,
                                          tmp_path: Path) -> None:
    from pypdf import PdfReader

    from layout.latex import compile_latex

    tex_pdf = compile_latex(render_latex(*issue_plan), jobname="colour")
    (tmp_path / "tex.pdf").write_bytes(tex_pdf)
    (tmp_path / "rl.pdf").write_bytes(pdf)
    tex_reader, rl_reader = PdfReader(tmp_path / "tex.pdf"), PdfReader(tmp_path / "rl.pdf")
    assert len(tex_reader.pages) == len(rl_reader.pages) == len(issue_plan[1].pages)
    for a, b in zip(tex_reader.pages, rl_reader.pages, strict=True):
        for box in ("mediabox", "trimbox"):
            ours, theirs = getattr(a, box), getattr(b, box)
            assert all(abs(float(x) - float(y)) < 0.1 for x, y in zip(ours, theirs, strict=True))


def test_issue_command_prints_a_colour_issue(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    from pypdf import PdfReader

    from nonopress.cli import main

    out = tmp_path / "colour.pdf"
    assert main(["issue", str(SAMPLE), "-o", str(out), "--grey", "--no-cache"]) == 0
    err = capsys.readouterr().err
    reader = PdfReader(out)
    assert f"{len(reader.pages)} pages, 5 puzzles" in err
    text = "\n".join(page.extract_text() for page in reader.pages)
    assert "A = black" in text and "Solutions" in text


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
    _, plan = built(single)
    headers = [[op.text for op in page.ops if isinstance(op, Text) and op.text.startswith(
        "No. ")] for page in plan.pages if page.kind == "puzzles"]
    assert headers == [["No. 1"], ["No. 2"], ["No. 3"], ["No. 4"], ["No. 5"]]


def test_grey_tints_follow_lightness_and_black_stays_black() -> None:
    from grader.colour.palette import Colour, Palette
    from layout.kinds.colour import digit_colour, fill_of

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


def test_crop_marks_sit_outside_the_trim(manifest: Manifest,
                                        issue_plan: tuple[Issue, IssuePlan],
                                        tmp_path: Path) -> None:
    from pypdf import PdfReader

    issue, plan = issue_plan
    marked = replace(issue, manifest=replace(manifest, crop_marks=True))
    (tmp_path / "c.pdf").write_bytes(render_pdf(marked, plan))
    page = PdfReader(tmp_path / "c.pdf").pages[0]
    assert float(page.mediabox.width) > float(page.trimbox.width) + 2 * manifest.bleed + 10


def test_colour_issues_are_made_as_pdfx_with_worked_pages_as_the_docs_say(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from grader.colour.model import ColourPuzzle, rows_to_colour_array
    from grader.colour.palette import Colour, Palette
    from grader.formats import write_any

    palette = Palette((Colour("red", (200, 30, 30), "r"), Colour("green", (30, 150, 60), "g")))
    rows = ["rr..g", "rr.gg", "..gg.", "r.g..", "rrr.g"]
    puzzle = ColourPuzzle.from_picture(rows_to_colour_array(rows, palette), palette,
                                       Metadata(title="Flag"))
    (tmp_path / "flag.yaml").write_bytes(write_any(puzzle, "yaml"))
    (tmp_path / "issue.yaml").write_text("title: C\nworked: [1]\npuzzles: [flag.yaml]\n",
                                         encoding="utf-8")
    out = tmp_path / "c.pdf"
    assert main(["issue", str(tmp_path / "issue.yaml"), "-o", str(out), "--profile", "pdfx",
                 "--cache-dir", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    assert "passes" in err and "not made" not in err
    assert "4 pages" in err  # contents, puzzle, solution, worked solution
    docs = (Path(__file__).resolve().parents[1] / "docs" / "colour.md").read_text()
    assert "not made for colour" not in docs
