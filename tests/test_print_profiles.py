"""Print profiles end to end: the sample issue as a KDP book (8.5x11 in), a PDF/X-1a
magazine (A4, 3 mm bleed) and a large-print KDP book each pass the preflight and an
independent reading of their content streams (pypdf, not the preflight's code): effective
line widths and text sizes under the CTM, colour operators, boxes and keys."""

from __future__ import annotations

import io
import math
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from grader.errors import NonopressError
from layout.draw import ClueText, Lines, Page, Rects, Text
from layout.fonts import text_width
from layout.manifest import Manifest, parse_manifest
from layout.plan import plan_issue
from layout.preflight import preflight
from layout.printsetup import apply_profile
from layout.profiles import Profile
from layout.synthetic import issue_of, random_puzzle
from layout.units import INCH, MM, parse_page_size
from nonopress.cli import main

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "puzzles" / "issues" / "sample.yaml"
LARGE = ROOT / "puzzles" / "issues" / "large-print.yaml"
HAVE_TEX = shutil.which("latexmk") is not None and shutil.which("pdflatex") is not None


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One grade cache for the module: the sample issue is graded once."""
    return tmp_path_factory.mktemp("grades")


# -- an independent reading of the content streams ----------------------------------------------

Matrix = tuple[float, float, float, float, float, float]


def times(m: Matrix, n: Matrix) -> Matrix:
    return (m[0] * n[0] + m[1] * n[2], m[0] * n[1] + m[1] * n[3],
            m[2] * n[0] + m[3] * n[2], m[2] * n[1] + m[3] * n[3],
            m[4] * n[0] + m[5] * n[2] + n[4], m[4] * n[1] + m[5] * n[3] + n[5])


@dataclass
class Seen:
    strokes: list[float] = field(default_factory=list)  # effective widths
    texts: list[float] = field(default_factory=list)  # effective sizes
    text_colours: set[tuple[str, tuple[float, ...]]] = field(default_factory=set)
    colour_operators: set[str] = field(default_factory=set)


def read_pages(data: bytes) -> Iterator[Seen]:
    """Per page: what a reader of the operators (with its own CTM bookkeeping) sees."""
    reader = PdfReader(io.BytesIO(data))
    for page in reader.pages:
        seen = Seen()
        ctm: Matrix = (1, 0, 0, 1, 0, 0)
        width, size, fill = 1.0, 0.0, ("g", (0.0,))
        tm: Matrix = (1, 0, 0, 1, 0, 0)
        stack: list[tuple[Matrix, float, tuple[str, tuple[float, ...]]]] = []
        contents = page.get_contents()
        assert contents is not None
        for operands, op in ContentStream(contents, reader).operations:
            name = op.decode("latin-1")
            numbers = tuple(float(v) for v in operands if isinstance(v, (int, float)))
            if name == "q":
                stack.append((ctm, width, fill))
            elif name == "Q":
                ctm, width, fill = stack.pop()
            elif name == "cm":
                ctm = times(numbers, ctm)  # type: ignore[arg-type]
            elif name == "w":
                width = numbers[0]
            elif name in ("g", "G", "rg", "RG", "k", "K", "cs", "CS", "sc", "scn", "SC", "SCN"):
                seen.colour_operators.add(name)
                if name in ("g", "rg", "k"):
                    fill = (name, numbers)
            elif name in ("S", "s", "B", "B*", "b", "b*"):
                seen.strokes.append(width * math.sqrt(abs(ctm[0] * ctm[3] - ctm[1] * ctm[2])))
            elif name == "BT":
                tm = (1, 0, 0, 1, 0, 0)
            elif name == "Tf":
                size = numbers[0]
            elif name == "Tm":
                tm = numbers  # type: ignore[assignment]
            elif name in ("Tj", "TJ", "'", '"'):
                m = times(tm, ctm)
                seen.texts.append(size * math.sqrt(abs(m[0] * m[3] - m[1] * m[2])))
                seen.text_colours.add(fill)
        yield seen


def boxes(data: bytes) -> list[dict[str, list[float]]]:
    reader = PdfReader(io.BytesIO(data))
    out = []
    for page in reader.pages:
        out.append({key: [float(v) for v in page[key]] for key in
                    ("/MediaBox", "/TrimBox", "/BleedBox", "/ArtBox") if key in page})
    return out


def build(tmp_path: Path, cache: Path, manifest: Path, *flags: str) -> bytes:
    out = tmp_path / "issue.pdf"
    args = ["issue", str(manifest), "-o", str(out), "--cache-dir", str(cache), "-q", *flags]
    assert main(args) == 0
    return out.read_bytes()


def page_texts(data: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]


# -- the three profiles on the sample issue ----------------------------------------------------

def test_sample_as_a_kdp_book(tmp_path: Path, cache: Path) -> None:
    data = build(tmp_path, cache, SAMPLE, "--profile", "kdp", "--page", "8.5x11in", "--pad")
    report = preflight(tmp_path / "issue.pdf", "kdp")
    assert report.passed and not report.warned, report.lines()
    pages = list(read_pages(data))
    assert len(pages) == 24  # padded with Notes pages to KDP's least count
    assert min(w for p in pages for w in p.strokes) >= 0.75
    assert min(s for p in pages for s in p.texts) >= 7.0
    ops = set().union(*(p.colour_operators for p in pages))
    assert ops <= {"k", "K"}  # black ink only, as K
    reader = PdfReader(io.BytesIO(data))
    assert "/Outlines" not in reader.trailer["/Root"] or not reader.outline
    assert all("/Annots" not in page for page in reader.pages)
    for number, box in enumerate(boxes(data), start=1):
        trim, media = box["/TrimBox"], box["/MediaBox"]
        assert trim[2] - trim[0] == pytest.approx(8.5 * INCH, abs=0.01)
        assert trim[3] - trim[1] == pytest.approx(11 * INCH, abs=0.01)
        # Bleed on the outside edge only: + 1/8 in wide, + 1/4 in high.
        assert media[2] - media[0] == pytest.approx(8.625 * INCH, abs=0.01)
        assert media[3] - media[1] == pytest.approx(11.25 * INCH, abs=0.01)
        assert trim[0] == pytest.approx(0.0 if number % 2 else 0.125 * INCH, abs=0.01)
    texts = page_texts(data)
    solutions = next(k for k, t in enumerate(texts) if t.startswith("Solutions"))
    assert all("No. " not in t for t in texts[solutions:] if "Worked" not in t)
    assert sum("No. " in t for t in texts[:solutions]) >= 5
    assert texts[-1].startswith("Notes")


def test_sample_as_a_pdfx_magazine(tmp_path: Path, cache: Path) -> None:
    data = build(tmp_path, cache, SAMPLE, "--profile", "pdfx")
    report = preflight(tmp_path / "issue.pdf", "pdfx")
    # the one word: a saddle-stitched magazine needs a multiple of 4 pages (issue 60)
    warned = [rule.rule for rule in report.results if rule.status != "pass"]
    assert report.passed and warned in ([], ["saddle-stitch"]), report.lines()
    assert data.startswith(b"%PDF-1.3")
    reader = PdfReader(io.BytesIO(data))
    info = reader.trailer["/Info"]
    assert info["/GTS_PDFXVersion"] == "PDF/X-1:2001"
    assert info["/GTS_PDFXConformance"] == "PDF/X-1a:2001"
    assert info["/Trapped"] == "/False" and info["/CreationDate"].startswith("D:20261121")
    (intent,) = reader.trailer["/Root"]["/OutputIntents"]
    assert intent["/S"] == "/GTS_PDFX" and intent["/OutputConditionIdentifier"] == "FOGRA39"
    assert "/ID" in reader.trailer
    pages = list(read_pages(data))
    ops = set().union(*(p.colour_operators for p in pages))
    assert ops <= {"k", "K"}  # CMYK only: no RGB, no grey-as-RGB
    black = {colour for p in pages for colour in p.text_colours if colour[1][3:] == (1.0,)}
    assert black == {("k", (0.0, 0.0, 0.0, 1.0))}  # black text is 100 % K
    assert min(w for p in pages for w in p.strokes) >= 0.25
    for box in boxes(data):
        trim, bleed = box["/TrimBox"], box["/BleedBox"]
        assert "/ArtBox" not in box
        assert trim[2] - trim[0] == pytest.approx(210 * MM, abs=0.01)
        for k in (0, 1):
            assert trim[k] - bleed[k] == pytest.approx(3 * MM, abs=0.01)
            assert bleed[k + 2] - trim[k + 2] == pytest.approx(3 * MM, abs=0.01)


def test_large_print_kdp_book(tmp_path: Path, cache: Path) -> None:
    data = build(tmp_path, cache, LARGE)
    report = preflight(tmp_path / "issue.pdf", "kdp", large_print=True)
    assert report.passed and not report.warned, report.lines()
    pages = list(read_pages(data))
    assert min(s for p in pages for s in p.texts) >= 14.0
    assert min(w for p in pages for w in p.strokes) >= 0.75
    texts = page_texts(data)
    # Fewer puzzles a page than the ordinary layout: the 10x10s get a page each.
    assert sum(t.count("No. ") for t in texts[1:3]) <= 3


def test_a_puzzle_too_big_for_large_print_exits_2_and_writes_nothing(
    tmp_path: Path, cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "issue.pdf"
    code = main(["issue", str(SAMPLE), "-o", str(out), "--cache-dir", str(cache), "-q",
                 "--profile", "kdp", "--page", "8.5x11in", "--large-print"])
    err = capsys.readouterr().err
    assert code == 2 and not out.exists()
    # every puzzle that does not fit is named in the one run, each with what fits
    lines = [x for x in err.splitlines() if "warning:" not in x]
    assert "cannot be printed" in lines[0] and len(lines) >= 2
    (line,) = [x for x in lines[1:] if "puzzle 7 (19x10" in x]
    assert "largest grid that fits" in line
    assert "18x25" in line  # 8 mm cells: 23 cells across, 5 of them for row clues


def test_issue_exits_1_when_its_pdf_would_be_refused(
    tmp_path: Path, cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "issue.pdf"
    code = main(["issue", str(SAMPLE), "-o", str(out), "--cache-dir", str(cache),
                 "--profile", "kdp", "--page", "8.5x11in"])
    err = capsys.readouterr().err
    assert code == 1 and out.exists()  # kept, to be looked at
    assert "KDP prints paperbacks of 24 pages or more" in err  # the layout's warning
    assert "fails 1 rule(s)" in err and "FAIL  page-count" in err
    assert "PASS  text-size" in err and "PASS  line-widths" in err


@pytest.mark.skipif(not HAVE_TEX, reason="latexmk/pdflatex not installed")
@pytest.mark.parametrize("flags", [["--profile", "pdfx"],
                                   ["--profile", "kdp", "--page", "8.5x11in", "--pad"]])
def test_latex_back_end_follows_the_profile(tmp_path: Path, cache: Path, flags: list[str]
                                            ) -> None:
    tex = tmp_path / "issue-tex.tex"
    assert main(["issue", str(SAMPLE), "--latex", str(tex), "--cache-dir", str(cache), "-q",
                 *flags]) == 0
    compiled = tex.with_suffix(".pdf")
    profile = flags[1]
    report = preflight(compiled, profile)
    assert report.passed, report.lines()
    pages = list(read_pages(compiled.read_bytes()))
    assert min(w for p in pages for w in p.strokes) >= (0.75 if profile == "kdp" else 0.25)
    source = tex.read_text()
    assert ("GTS_PDFXVersion" in source) == (profile == "pdfx")
    assert ("\\pdfoutline" in source) == (profile == "pdfx")  # KDP: no bookmarks


# -- profiles in the manifest and the layout ---------------------------------------------------

def test_manifest_keys(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text("")
    text = ("profile: pdfx\nlarge_print: true\noutput_condition: cgats tr 001\n"
            "bleed: true\npad_pages: true\npage: 8.25x11\npuzzles: [a.yaml]\n")
    manifest = parse_manifest(text, tmp_path / "m.yaml")
    assert manifest.profile == Profile("pdfx", True, "CGATS TR 001")
    assert manifest.bleed == pytest.approx(3 * MM) and manifest.bleed_default
    assert manifest.page.width == pytest.approx(8.25 * INCH)
    with pytest.raises(NonopressError, match=r"m\.yaml:1: profile: expected kdp, pdfx"):
        parse_manifest("profile: lulu\npuzzles: [a.yaml]\n", tmp_path / "m.yaml")
    with pytest.raises(NonopressError, match="output_condition: 'FOGRA99'"):
        parse_manifest("output_condition: FOGRA99\npuzzles: [a.yaml]\n", tmp_path / "m.yaml")


def test_kdp_refuses_sizes_it_does_not_print_and_takes_its_own_bleed() -> None:
    base = Manifest(source=Path("m.yaml"), puzzles=(), profile=Profile("kdp"))
    with pytest.raises(NonopressError, match=r"9x12in .* not a KDP paperback trim size"):
        apply_profile(replace(base, page=parse_page_size("9x12in")))
    manifest, warnings = apply_profile(replace(base, page=parse_page_size("6x9"), bleed=3 * MM,
                                               crop_marks=True))
    assert manifest.bleed == pytest.approx(0.125 * INCH) and not manifest.crop_marks
    assert manifest.grey  # a black-ink interior unless colour is asked for
    assert any("0.125 in" in w for w in warnings) and any("crop marks" in w for w in warnings)


def _ink_extent(page: Page) -> tuple[float, float]:
    """Left-most and right-most x of everything the plan draws on a page."""
    xs: list[float] = []
    for op in page.ops:
        if isinstance(op, Rects):
            xs += [x for r in op.rects for x in (r[0], r[0] + r[2])]
        elif isinstance(op, Lines):
            xs += [x for seg in op.segments for x in (seg[0], seg[2])]
        elif isinstance(op, Text):
            w = text_width(op.text, op.size, op.bold)
            start = {"left": op.x, "right": op.x - w, "center": op.x - w / 2}[op.anchor]
            xs += [start, start + w]
        elif isinstance(op, ClueText):
            xs += [x for x, _, _ in op.items]
    return min(xs), max(xs)


def test_kdp_gutter_grows_with_the_page_count_and_mirrors() -> None:
    puzzles = [random_puzzle(12, 12, seed) for seed in range(160)]
    manifest = Manifest(source=Path("m.yaml"), puzzles=(), profile=Profile("kdp"),
                        page=parse_page_size("6x9in"), per_page=1, solutions=False,
                        margins=replace(Manifest(Path("m"), ()).margins, left=0, right=0))
    plan = plan_issue(issue_of(puzzles, manifest))
    assert 150 < len(plan.pages) <= 300  # KDP's second band: a 0.5 in gutter
    width = 6 * INCH
    for page in plan.pages[2:40]:
        left, right = _ink_extent(page)
        if page.number % 2:  # recto: gutter on the left
            assert left >= 0.5 * INCH - 0.01 and width - right >= 0.25 * INCH - 0.01
        else:
            assert width - right >= 0.5 * INCH - 0.01 and left >= 0.25 * INCH - 0.01
    small = plan_issue(issue_of(puzzles[:30], manifest))
    first = next(p for p in small.pages if p.number % 2 and p.blocks and p.number > 1)
    assert _ink_extent(first)[0] < 0.5 * INCH  # under 150 pages the gutter is 0.375 in
    assert any("KDP prints paperbacks of 24 pages or more" in w for w in
               plan_issue(issue_of(puzzles[:5], manifest)).warnings)


@pytest.mark.parametrize("page", ["5x8in", "6x9in", "8.5x11in", "A4"])
@pytest.mark.parametrize("large_print", [False, True])
def test_every_plan_meets_its_profile_or_says_which_puzzle_cannot(
    page: str, large_print: bool
) -> None:
    """Under KDP every character is at least 7 pt (14 pt in large print) and every line at
    least 0.75 pt; a puzzle that cannot be set so is refused, by number, with what fits."""
    puzzles = [random_puzzle(w, h, seed=w * h) for w, h in
               ((5, 5), (10, 10), (15, 10), (20, 20), (25, 30), (40, 40))]
    manifest = Manifest(source=Path("m.yaml"), puzzles=(), page=parse_page_size(page),
                        profile=Profile("kdp", large_print=large_print))
    least = 14.0 if large_print else 7.0
    fitted = 0
    for k, puzzle in enumerate(puzzles, start=1):
        try:
            plan = plan_issue(issue_of([puzzle], manifest))
        except NonopressError as error:
            assert f"puzzle 1 ({puzzle.width}x{puzzle.height}" in str(error)
            assert "largest grid that fits" in str(error)
            assert k > 1  # a 5x5 always fits
            continue
        fitted += 1
        for p in plan.pages:
            for op in p.ops:
                if isinstance(op, (Text, ClueText)):
                    assert op.size >= least - 1e-9, (page, op)
                if isinstance(op, Lines):
                    assert op.width >= 0.85 - 1e-9
    assert fitted >= 1  # large print on a 5x8 in page holds little more than a 5x5
