"""The PDF back end, read back: structure with pypdf, pixels with poppler's pdftoppm."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from pypdf import PdfReader

from grader.errors import NonopressError
from grader.model import Metadata, Puzzle
from layout.draw import Page
from layout.issue import Issue
from layout.manifest import Manifest
from layout.pdf import CMYK_OF, render_pdf
from layout.plan import IssuePlan, plan_issue
from layout.sheets import media_for, saddle_stitch
from layout.synthetic import issue_of, random_puzzle
from layout.units import MM

BASE_14 = {"Helvetica", "Times-Roman", "Courier", "Symbol", "ZapfDingbats"}

HEART = Puzzle.from_picture(
    [".##.##.", "#######", "#######", ".#####.", "..###..", "...#..."],
    Metadata(title="Heart", author="Ann Author", license="CC0"),
)


def sample_issue(**settings: object) -> Issue:
    manifest = Manifest(
        source=Path("issue.yaml"),
        puzzles=(),
        title="Puzzle Monthly",
        issue="7",
        date="2026-11-21",
        author="The Editors",
        **settings,  # type: ignore[arg-type]
    )
    puzzles = [HEART, random_puzzle(10, 10, 1), random_puzzle(15, 15, 2), random_puzzle(20, 12, 3)]
    issue = issue_of(puzzles, manifest)
    entries = list(issue.entries)
    entries[0] = replace(entries[0], hide_title=False, worked=True)
    return replace(issue, entries=tuple(entries))


def render(issue: Issue) -> tuple[IssuePlan, bytes]:
    plan = plan_issue(issue)
    return plan, render_pdf(issue, plan)


def outline_titles(reader: PdfReader) -> list[str]:
    titles: list[str] = []
    for item in reader.outline:
        assert not isinstance(item, list)  # flat outline
        titles.append(item.title)
    return titles


def test_structure_bookmarks_metadata_and_boxes() -> None:
    issue = sample_issue(bleed=3 * MM, crop_marks=True)
    plan, data = render(issue)
    reader = PdfReader(io.BytesIO(data))
    assert len(reader.pages) == len(plan.pages) >= 4
    titles = outline_titles(reader)
    assert titles[0] == "Contents"
    assert [t for t in titles if t.startswith("No. ")] == [e.label for e in issue.entries]
    assert "No. 1 \u00b7 7x6 \u00b7 Heart" in titles and "Solutions" in titles
    assert "Worked solution No. 1" in titles
    meta = reader.metadata
    assert meta is not None
    assert meta.title == "Puzzle Monthly \u00b7 Issue 7 \u00b7 2026-11-21"
    assert meta.author == "The Editors"
    assert "4 nonogram puzzles" in (meta.subject or "")
    assert (meta.creator or "").startswith("nonopress")
    for page, planned in zip(reader.pages, plan.pages, strict=True):
        media = media_for(planned, issue.manifest)
        offset = 3 * MM + 8 * MM  # bleed + room for the crop marks
        assert float(page.mediabox.width) == pytest.approx(planned.width + 2 * offset, abs=0.01)
        trim = [float(v) for v in page.trimbox]
        bleed = [float(v) for v in page.bleedbox]
        assert trim == pytest.approx(list(media.trim), abs=0.01)
        assert trim == pytest.approx(
            [offset, offset, offset + planned.width, offset + planned.height], abs=0.01
        )
        assert bleed == pytest.approx(
            [trim[0] - 3 * MM, trim[1] - 3 * MM, trim[2] + 3 * MM, trim[3] + 3 * MM], abs=0.01
        )


def test_every_font_is_an_embedded_truetype_subset() -> None:
    _, data = render(sample_issue())
    reader = PdfReader(io.BytesIO(data))
    seen = set()
    for page in reader.pages:
        fonts = page["/Resources"]["/Font"]
        for ref in fonts.values():
            font = ref.get_object()
            name = str(font["/BaseFont"]).lstrip("/")
            seen.add(name.split("+")[-1])
            assert name.split("+")[-1] not in BASE_14
            assert "/FontFile2" in font["/FontDescriptor"].get_object()
    assert seen in (
        {"DejaVuSans", "DejaVuSans-Bold"},  # when fonts-dejavu-core is installed
        {"BitstreamVeraSans-Roman", "BitstreamVeraSans-Bold"},  # reportlab's own
    )


@pytest.mark.skipif(shutil.which("pdffonts") is None, reason="poppler's pdffonts not installed")
def test_pdffonts_reports_everything_embedded(tmp_path: Path) -> None:
    path = tmp_path / "issue.pdf"
    path.write_bytes(render(sample_issue())[1])
    out = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True, check=True)
    rows = out.stdout.splitlines()[2:]
    assert rows
    for row in rows:
        assert re.search(r"\byes\s+yes\s+yes\b", row), row  # emb, sub, uni


def test_clue_numbers_read_back_in_order() -> None:
    issue = sample_issue(per_page=1)
    plan, data = render(issue)
    reader = PdfReader(io.BytesIO(data))
    for index, page in enumerate(plan.pages):
        if page.kind != "puzzles":
            continue
        (block,) = page.blocks
        puzzle = issue.entries[block.number - 1].puzzle
        expected = [n for clue in puzzle.columns + puzzle.rows for n in (clue or (0,))]
        found = [int(t) for t in re.findall(r"\d+", reader.pages[index].extract_text())]
        windows = [found[i:i + len(expected)] for i in range(len(found) - len(expected) + 1)]
        assert expected in windows, f"page {index + 1}: clues of No. {block.number} not in order"


def test_same_input_same_bytes() -> None:
    assert render(sample_issue())[1] == render(sample_issue())[1]


def content_streams(data: bytes) -> str:
    reader = PdfReader(io.BytesIO(data))
    return "\n".join(page.get_contents().get_data().decode("latin-1") for page in reader.pages)


COLOUR_OPERATOR = re.compile(
    r"(?:^|\s)((?:[\d.]+\s+)*)(rg|RG|g|G|k|K|cs|CS|sc|SC|scn|SCN)(?=\s|$)")


def colour_operators(data: bytes) -> list[tuple[str, tuple[float, ...]]]:
    """Every colour operator of every page, with its numbers."""
    return [(op, tuple(float(v) for v in numbers.split()))
            for numbers, op in COLOUR_OPERATOR.findall(content_streams(data))]


def test_grey_ink_is_pure_k() -> None:
    grey = colour_operators(render(sample_issue(grey=True))[1])
    assert grey and all(op in ("k", "K") and values[:3] == (0, 0, 0)
                        for op, values in grey)


def test_the_plain_pdf_sets_every_colour_in_the_profiles_space() -> None:
    """The plain profile asks for DeviceCMYK (Profile.colour_space): black as K alone
    (RGB black prints as rich four-colour black), the accent as process CMYK; no RGB,
    no DeviceGray, no other space anywhere."""
    issue = sample_issue()
    assert issue.manifest.profile.colour_space == "DeviceCMYK"
    colour = colour_operators(render(issue)[1])
    assert colour and {op for op, _ in colour} <= {"k", "K"}
    blacks = [values for _, values in colour if values == (0, 0, 0, 1)]
    assert blacks  # the grid, the clues and the filled cells of the solutions
    accent = [values for _, values in colour if values[:3] != (0, 0, 0)]
    assert accent and set(accent) == {CMYK_OF["accent"]}  # the stars, in the blue


def test_booklet_pads_to_a_multiple_of_four() -> None:
    plan, data = render(sample_issue(booklet=True))
    pages = len(PdfReader(io.BytesIO(data)).pages)
    assert pages % 4 == 0 and pages == len(plan.pages)
    assert plan.pages[-1].kind == "blank"
    plain = plan_issue(sample_issue())
    assert len(plain.pages) % 4 != 0  # the padding is really needed here


def render_png(data: bytes, page: int, dpi: int, tmp_path: Path) -> Image.Image:
    path = tmp_path / "issue.pdf"
    path.write_bytes(data)
    prefix = tmp_path / "page"
    subprocess.run(
        ["pdftoppm", "-r", str(dpi), "-f", str(page), "-l", str(page), "-gray", "-png",
         str(path), str(prefix)],
        check=True,
        capture_output=True,
    )
    (png,) = tmp_path.glob("page-*.png")
    image = Image.open(png).convert("L")
    png.unlink()
    return image


def cell_shades(image: Image.Image, page: Page, issue: Issue, dpi: int
                ) -> dict[int, np.ndarray]:
    """Grey level at the centre of every grid cell of every block on the page."""
    pixels = np.asarray(image)
    media = media_for(page, issue.manifest)
    scale = dpi / 72
    shades = {}
    for block in page.blocks:
        g = block.geometry
        values = np.zeros((g.height, g.width))
        for r in range(g.height):
            for c in range(g.width):
                x, y = block.cell_centre(r, c)
                px = int((x + media.offset) * scale)
                py = int((media.height - (y + media.offset)) * scale)
                values[r, c] = pixels[py, px]
        shades[block.number] = values
    return shades


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler's pdftoppm not installed")
def test_rendered_grids_and_solutions_are_where_the_puzzle_says(tmp_path: Path) -> None:
    issue = sample_issue(bleed=3 * MM)
    plan, data = render(issue)
    dpi = 150
    kinds = {"puzzles": 0, "solutions": 0, "worked": 0}
    for index, page in enumerate(plan.pages):
        if page.kind not in kinds:
            continue
        image = render_png(data, index + 1, dpi, tmp_path)
        for number, shades in cell_shades(image, page, issue, dpi).items():
            entry = issue.entries[number - 1]
            if page.kind == "puzzles":
                assert (shades > 230).all(), "an unsolved grid must be blank"
            else:
                assert (shades[entry.solution] < 60).all(), f"No. {number}: filled cells"
                assert (shades[~entry.solution] > 230).all(), f"No. {number}: empty cells"
            kinds[page.kind] += 1
    assert kinds == {"puzzles": 4, "solutions": 4, "worked": 1}


def test_saddle_stitch_imposition_pairs_pages_for_folding() -> None:
    pages = [Page(100, 200, "puzzles", number=n) for n in range(1, 9)]
    sheets = saddle_stitch(pages)
    assert [[p.number for p, _ in s.pages] for s in sheets] == [[8, 1], [2, 7], [6, 3], [4, 5]]
    assert all(s.width == 200 and [dx for _, dx in s.pages] == [0, 100] for s in sheets)
    with pytest.raises(NonopressError, match="multiple of 4"):
        saddle_stitch(pages[:6])
    with pytest.raises(NonopressError, match="one page size"):
        saddle_stitch([*pages[:7], Page(150, 300, "puzzles", number=8)])


def test_imposed_pdf_has_two_pages_a_sheet_and_bookmarks_in_reading_order() -> None:
    issue = sample_issue(booklet=True, impose=True, bleed=3 * MM)
    plan, data = render(issue)
    reader = PdfReader(io.BytesIO(data))
    assert len(reader.pages) * 2 == len(plan.pages)
    width = plan.pages[0].width
    trim = [float(v) for v in reader.pages[0].trimbox]
    assert trim[2] - trim[0] == pytest.approx(2 * width, abs=0.01)
    titles = outline_titles(reader)
    assert titles == [b.title for p in plan.pages for b in p.bookmarks]
    # Sheet side 1 carries the last page (a blank) and the contents; side 2 pages 2 and 7.
    assert plan.pages[-1].kind == "blank" and plan.pages[1].kind == "puzzles"
    first, second = (reader.pages[k].extract_text() for k in (0, 1))
    assert "Credits" in first and "7x6" in first
    assert "No. 1" in second and "Credits" not in second


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler's pdftoppm not installed")
def test_crop_marks_sit_outside_the_bleed(tmp_path: Path) -> None:
    dpi = 200
    scale = dpi / 72
    issue = sample_issue(bleed=3 * MM, crop_marks=True)
    plan, data = render(issue)
    media = media_for(plan.pages[0], issue.manifest)
    pixels = np.asarray(render_png(data, 1, dpi, tmp_path))
    x0, y0 = media.trim[0], media.height - media.trim[1]  # bottom-left trim corner
    assert x0 > 3 * MM + 8
    # along the bottom trim line, left of the corner: a mark beyond the bleed, none inside it
    row = int(y0 * scale)
    outside = pixels[row - 2:row + 3, int((x0 - 3 * MM - 5) * scale)]
    inside = pixels[row - 2:row + 3, int((x0 - 1.5 * MM) * scale)]
    assert outside.min() < 160
    assert inside.min() > 230


def test_filled_runs_are_every_horizontal_run() -> None:
    """The runs a solution is drawn with, against a plain scan of random pictures."""
    import numpy as np

    from layout.draw import filled_runs

    rng = np.random.default_rng(7)
    for _ in range(100):
        picture = rng.random((int(rng.integers(1, 16)), int(rng.integers(1, 16)))) < 0.5
        expected = []
        for r, row in enumerate(picture.tolist()):
            c = 0
            while c < len(row):
                if row[c]:
                    start = c
                    while c < len(row) and row[c]:
                        c += 1
                    expected.append((r, start, c - start))
                else:
                    c += 1
        assert filled_runs(picture) == expected
