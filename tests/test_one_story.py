"""Issue 60: every page tells one story. Level, stars, score and minutes agree wherever a
reader sees them; what a page promises is true of every puzzle it speaks of; the words
say what the tool did."""

from __future__ import annotations

import contextlib
from pathlib import Path

import numpy as np
import pytest

from grader.model import Metadata, Puzzle

ROOT = Path(__file__).resolve().parent.parent
ORDER = ("easy", "medium", "hard", "fiendish", "needs-guessing")


def _grades(puzzles: list[Puzzle]) -> list[tuple[str, str, float, int]]:
    from grader.grading import grade
    from grader.results import Budget

    found = []
    for puzzle in puzzles:
        result = grade(puzzle, budget=Budget(seconds=20))
        if result.score is not None:
            found.append((puzzle.size, result.level, result.score, int(result.stars or 0)))
    return found


def _inversions(found: list[tuple[str, str, float, int]]) -> list[str]:
    """Every pair where a harder level scores lower, or more stars come with a lower score."""
    bad = []
    for size_a, level_a, score_a, stars_a in found:
        for size_b, level_b, score_b, stars_b in found:
            if ORDER.index(level_a) < ORDER.index(level_b) and score_a >= score_b:
                bad.append(f"{size_a} {level_a} {score_a} >= {size_b} {level_b} {score_b}")
            if stars_a < stars_b and score_a >= score_b:
                bad.append(f"{size_a} {stars_a} stars {score_a} >= {size_b} {stars_b} stars "
                           f"{score_b}")
    return bad


def test_a_higher_level_never_scores_lower_on_the_bundled_puzzles() -> None:
    from grader.formats import read_file

    puzzles = [p for path in sorted((ROOT / "puzzles").glob("*.yaml")) for p in read_file(path)]
    found = _grades(puzzles)
    assert {level for _, level, _, _ in found} >= {"easy", "medium", "hard", "fiendish",
                                                    "needs-guessing"}
    assert _inversions(found) == []


@pytest.mark.slow
def test_a_higher_level_never_scores_lower_on_a_generated_set() -> None:
    """Puzzles generated at every level and at 10x10 to 20x20 (a few minutes): a small
    hard puzzle outscores a large medium one, and the stars never fall as the score rises."""
    from grader.authoring.generate import generate
    from grader.authoring.target import Target

    found = []
    for size in (10, 15, 20):
        for level in ORDER[:4]:
            for made in generate(size, size, target=Target(level=level), count=1,
                                 seed=size, seconds=30):
                assert made.grade is not None and made.grade.score is not None
                found.append((made.grade.size, made.grade.level, made.grade.score,
                              int(made.grade.stars or 0)))
    assert len({level for _, level, _, _ in found}) == 4, found
    assert _inversions(found) == []


def test_the_score_is_banded_by_level_and_the_stars_read_off_it() -> None:
    """Whatever the work (a rating from 0 to 5), each level's scores lie above the level
    below's, and the stars never fall as the score rises."""
    from grader import scoring

    ratings = np.linspace(0.0, 4.999, 400)
    previous_top = -1.0
    shown: list[tuple[float, int]] = []
    for level in ORDER:
        scores = [scoring.banded(level, float(r)) for r in ratings]
        assert min(scores) > previous_top, level
        assert scores == sorted(scores)
        previous_top = max(scores)
        shown += [(s, scoring.level_stars(level, s)) for s in scores]
        low, high = scoring.LEVEL_STARS[level]
        assert {stars for _, stars in shown[-len(scores):]} <= {low, high}
    shown.sort()
    assert [stars for _, stars in shown] == sorted(stars for _, stars in shown)
    # a puzzle that needs guessing ranks with the five-star level
    assert scoring.level_stars("needs-guessing", scoring.banded("needs-guessing", 0.0)) == 5


def test_every_face_shows_the_size_beside_the_minutes() -> None:
    from grader.minutes import about_text
    from grader.wording import STARS_AND_MINUTES
    from nonopress.web.pages import PageLink, index_page
    from nonopress.web.site import _facts, _heading

    record = {"width": 25, "height": 20,
              "grade": {"level": "easy", "stars": 1, "minutes": 8.2}}
    assert about_text(8.2, "25x20") == "about 8 min for 25x20"  # print, the worked page
    link = PageLink("1.html", _heading(1, "25x20", ""), _facts(record), "")
    page = index_page("Weekly", "", [link], None)
    line = next(row for row in page.splitlines() if "about 8 min" in row)
    assert "25x20" in line  # the site: the size heads the line the minutes end
    assert STARS_AND_MINUTES in page.replace("&#x27;", "'")


# -- 2: the how-to page promises only what is true of every puzzle ------------------------------
def _book(count: int, size: int = 10, **fields: object):  # type: ignore[no-untyped-def]
    from dataclasses import replace

    from layout.frontmatter import FrontMatter
    from layout.manifest import Manifest
    from layout.profiles import Profile
    from layout.synthetic import issue_of, random_puzzle
    from layout.units import parse_page_size

    manifest = Manifest(source=Path("book.yaml"), puzzles=(), profile=Profile("kdp"),
                        page=parse_page_size("8.5x11in"), pad_pages=True, per_page=1,
                        front_matter=FrontMatter(how_to_solve=True, barcode_space=True))
    manifest = replace(manifest, **fields)  # type: ignore[arg-type]
    return issue_of([random_puzzle(size, size, seed) for seed in range(1, count + 1)], manifest)


def _text(page) -> str:  # type: ignore[no-untyped-def]
    from layout.draw import Text

    return " ".join(" ".join(op.text for op in page.ops if isinstance(op, Text)).split())


def test_the_how_to_page_names_the_puzzle_that_needs_guessing() -> None:
    from dataclasses import replace

    from grader.wording import STARS_AND_MINUTES
    from layout.plan import plan_issue

    issue = _book(3)
    entries = tuple(replace(e, grade=replace(e.grade, level="needs-guessing"))
                    if e.number == 2 else e for e in issue.entries)
    plan = plan_issue(replace(issue, entries=entries))
    copyright_page, how_to = (_text(page) for page in plan.pages[1:3])
    assert "How to solve" in how_to
    assert "no guessing is needed" not in how_to.replace("but No. 2", "")
    assert "Every puzzle in this book but No. 2 has exactly one solution" in how_to
    assert "No. 2 needs guessing" in how_to and "No. 2 needs guessing" in copyright_page
    assert STARS_AND_MINUTES in how_to
    # all of them by reasoning: the promise stands whole
    plain = plan_issue(issue)
    assert "no guessing is needed" in _text(plain.pages[2])


def test_the_copyright_page_credits_the_manifests_author() -> None:
    from dataclasses import replace

    from layout.plan import plan_issue

    issue = _book(2)
    plan = plan_issue(replace(issue, manifest=replace(issue.manifest, author="A. Editor")))
    assert "Puzzles: by A. Editor" in _text(plan.pages[1])


# -- 3 and 10: KDP padding with a back page; wording ------------------------------------------
def test_a_padded_kdp_book_with_a_back_page_is_24_pages_the_back_one_a_verso() -> None:
    from layout.plan import plan_issue

    plan = plan_issue(_book(15))  # 23 pages with the back page: one Notes page to pad
    assert len(plan.pages) == 24
    assert plan.pages[-1].kind == "back" and plan.pages[-1].number % 2 == 0
    said = " | ".join(plan.warnings)
    assert "1 ruled Notes page " in said and "1 ruled Notes pages" not in said
    assert "about 1 more puzzle would fill it" in said
    assert "barcode on the back cover" in said
    longer = plan_issue(_book(20))  # past the least count: the back page still a verso
    assert longer.pages[-1].kind == "back" and len(longer.pages) % 2 == 0


def test_library_add_says_one_puzzle_and_names_a_file_it_merged(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from grader.formats import write
    from layout.synthetic import random_puzzle
    from nonopress.cli import main

    data = write(random_puzzle(5, 5, 1), "yaml")
    (tmp_path / "one.yaml").write_bytes(data)
    assert main(["library", "add", str(tmp_path / "one.yaml"), "--db",
                 str(tmp_path / "a.db")]) == 0
    err = capsys.readouterr().err
    assert "1 puzzle read" in err and "1 puzzles" not in err
    (tmp_path / "twice").mkdir()
    (tmp_path / "twice" / "first.yaml").write_bytes(data)
    (tmp_path / "twice" / "second.yaml").write_bytes(data)
    assert main(["library", "add", str(tmp_path / "twice"), "--db",
                 str(tmp_path / "b.db")]) == 0
    err = capsys.readouterr().err
    assert "second.yaml" in err and "same puzzle as" in err, err


# -- 5: syndication art gives nothing away ------------------------------------------------------
def test_render_to_makes_the_folder_and_puzzle_art_carries_no_title(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from grader.colour.model import ColourPuzzle
    from grader.colour.palette import Colour, Palette
    from grader.formats import write
    from grader.kinds import write_puzzles
    from nonopress.cli import main

    picture = np.array([[c == "#" for c in row] for row in
                        ("..#..", ".###.", "#####", "#.#.#", "###.#")])
    (tmp_path / "bw.yaml").write_bytes(write(Puzzle.from_picture(
        picture, Metadata(title="Sea Horse")), "yaml"))
    palette = Palette((Colour("black", (0, 0, 0), "k"), Colour("red", (255, 0, 0), "r")))
    colours = np.array([[1, 1, 0, 2], [0, 1, 2, 2], [2, 0, 0, 1], [2, 2, 1, 1]], dtype=np.uint8)
    (tmp_path / "colour.yaml").write_bytes(write_puzzles(
        [ColourPuzzle.from_picture(colours, palette, Metadata(title="Ladybird"))], "yaml"))
    out = tmp_path / "out" / "december"
    assert main(["render", str(tmp_path / "bw.yaml"), str(tmp_path / "colour.yaml"),
                 "--to", str(out), "--formats", "svg,pdf,eps"]) == 0
    for stem, title in (("sea-horse", "Sea Horse"), ("ladybird", "Ladybird")):
        for fmt in ("svg", "eps", "pdf"):
            art = (out / f"{stem}.{fmt}").read_bytes()
            assert title.encode() not in art, (stem, fmt)
        assert title.encode() in (out / f"{stem}-solution.svg").read_bytes()
        for name in (f"{stem}.eps", f"{stem}-solution.eps"):
            eps = (out / name).read_text(encoding="latin-1")
            assert "setrgbcolor" not in eps and "0.0000 setgray" in eps, name
    from pypdf import PdfReader

    assert "Sea Horse" not in PdfReader(out / "sea-horse.pdf").pages[0].extract_text()


# -- 9: the docs say what the commands do -------------------------------------------------------
def test_the_catalogue_docs_find_what_the_command_finds(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from nonopress.cli import main

    db = str(tmp_path / "lib.db")
    assert main(["library", "add", *map(str, sorted((ROOT / "puzzles").glob("*.yaml"))),
                 "--db", db]) == 0
    capsys.readouterr()
    assert main(["library", "find", "--level", "medium", "--json", "--db", db]) == 0
    titles = [entry["title"] for entry in json.loads(capsys.readouterr().out)]
    line = next(line for line in (ROOT / "docs" / "catalogue.md").read_text().splitlines()
                if "find --level medium" in line)
    assert titles and all(title in line for title in titles), (titles, line)


def test_the_batch_docs_and_help_say_when_dask_pays(capsys: pytest.CaptureFixture[str]) -> None:
    from nonopress.cli import main

    with contextlib.suppress(SystemExit):  # argparse's --help may exit
        main(["batch", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "pays only for slow puzzles or several machines" in help_text
    assert "A Dask cluster pays only when" in (ROOT / "docs" / "batch.md").read_text()


def test_make_shows_the_ink_share_its_rule_reads(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A dark blot amid wide white margins: the trimmed grid is mostly ink, the picture the
    60 % rule reads is not, and the report says both."""
    from PIL import Image

    from nonopress.cli import main

    image = Image.new("L", (200, 200), 255)
    pixels = image.load()
    for y in range(60, 140):
        for x in range(50, 150):
            if (x - 100) ** 2 / 2500 + (y - 100) ** 2 / 1600 <= 1 and not 95 < x < 105:
                pixels[x, y] = 0
    image.save(tmp_path / "blot.png")
    main(["make", str(tmp_path / "blot.png"), "--size", "20x20", "--seconds", "20",
          "-o", str(tmp_path / "blot.yaml")])
    report = capsys.readouterr()
    said = report.out + report.err
    assert "of the picture before its empty margins were trimmed, at most 60% reads" in said, said
    assert "titled 'blot' after the picture's file name" in said


# -- 8: advice that can be followed -------------------------------------------------------------
def test_kdps_largest_page_is_not_told_to_choose_a_larger_page() -> None:
    from grader.errors import NonopressError
    from layout.plan import plan_issue
    from layout.profiles import PROFILES
    from layout.units import INCH

    kdp = PROFILES["kdp"]
    assert "largest" in kdp.larger_page_advice(8.5 * INCH, 11 * INCH)
    assert "8.5x11in" in kdp.larger_page_advice(6 * INCH, 9 * INCH)
    with pytest.raises(NonopressError) as refused:
        plan_issue(_book(2, size=90, front_matter=None))
    said = str(refused.value)
    assert "choose a larger page" not in said and "the largest KDP prints" in said, said


def test_a_short_book_says_what_to_do_and_a_magazine_hears_of_saddle_stitching() -> None:
    from types import SimpleNamespace

    from layout.plan import plan_issue
    from layout.preflight.rules import saddle_stitch
    from layout.profiles import PROFILES

    plan = plan_issue(_book(8, size=15, front_matter=None, per_page=None))
    said = [w for w in plan.warnings if w.startswith("a short book: puzzles")]
    assert said and "add puzzles to print them at the usual size" in said[0], plan.warnings
    assert "saddle-stitch" in PROFILES["pdfx"].preflight
    result = saddle_stitch(SimpleNamespace(pages=[None] * 23))  # type: ignore[arg-type]
    assert result.status == "warn" and "multiple of 4" in result.findings[0].message
    assert saddle_stitch(SimpleNamespace(pages=[None] * 24)).status == "pass"  # type: ignore[arg-type]


# -- 6: steering keeps its best progress --------------------------------------------------------
def test_steering_that_misses_keeps_the_progress_it_made() -> None:
    """A plain circle asked to be medium stays easy within the cap, but its score rose on
    the way: the puzzle kept is the nearest found, not the unsteered one."""
    import io

    from grader.authoring import Target, author, binarise
    from grader.authoring.drawings import draw
    from grader.authoring.picture import load_grey
    from grader.grading import grade

    data = io.BytesIO()
    draw("circle", "silhouette").save(data, format="PNG")
    circle = binarise(load_grey(data.getvalue()), 15, 15).picture
    start = grade(Puzzle.from_picture(circle))
    result = author(circle, target=Target(level="medium"), seconds=30, max_change=12.0)
    assert result.unique and result.grade is not None and result.grade.score is not None
    assert start.score is not None and not result.reached
    assert result.flips and result.grade.score > start.score, result.report_lines()


# -- 7: what the build changes or prints unasked is named ---------------------------------------
def test_greyed_colour_and_file_name_titles_are_named(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from grader.colour.model import ColourPuzzle
    from grader.colour.palette import Colour, Palette
    from grader.formats import write
    from grader.kinds import write_puzzles
    from layout.build import build_issue
    from layout.manifest import load_manifest
    from layout.printsetup import apply_profile
    from nonopress.cli import main

    for name, rows in (("a", ("#.#.#", ".###.", "#####", ".#.#.", "##.##")),
                       ("b", ("#####", "#...#", "#.#.#", "#...#", "#####"))):
        picture = np.array([[c == "#" for c in row] for row in rows])
        (tmp_path / f"{name}.yaml").write_bytes(write(Puzzle.from_picture(
            picture, Metadata(title="horse")), "yaml"))
    palette = Palette((Colour("black", (0, 0, 0), "k"), Colour("red", (255, 0, 0), "r")))
    colours = np.array([[1, 1, 0, 2], [0, 1, 2, 2], [2, 0, 0, 1], [2, 2, 1, 1]], dtype=np.uint8)
    (tmp_path / "c.yaml").write_bytes(write_puzzles(
        [ColourPuzzle.from_picture(colours, palette, Metadata(title="Ladybird"))], "yaml"))
    (tmp_path / "book.yaml").write_text(
        "title: T\nprofile: kdp\npage: 8.5x11in\npuzzles: [a.yaml, b.yaml, c.yaml]\n",
        encoding="utf-8")
    manifest, _ = apply_profile(load_manifest(tmp_path / "book.yaml"))
    said = " | ".join(build_issue(manifest).warnings)
    assert "colour puzzle 3 printed in grey tints" in said and "ink: colour" in said, said
    assert "puzzle 1, puzzle 2 are all titled 'horse'" in said, said
    assert "'horse' is all lower case" in said
    assert main(["render", str(tmp_path / "a.yaml"), str(tmp_path / "b.yaml"), "--to",
                 str(tmp_path / "out")]) == 0
    assert "are all titled 'horse'" in capsys.readouterr().err
