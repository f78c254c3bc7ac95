"""Page planning a designer would sign: the sample issue under kdp and pdfx leaves no page
less than half used but the last of a section, and a padded book says so."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from layout.build import build_issue
from layout.draw import Block, ClueText, Lines, Op, Page, Polygons, Rects, Text
from layout.gradecache import GradeCache
from layout.manifest import load_manifest
from layout.plan import (
    IssuePlan,
    _bigger_puzzles_said,
    content_area,
    kdp_margins,
    plan_issue,
)
from layout.printsetup import apply_profile
from layout.profiles import parse_profile_name
from layout.units import parse_page_size

SAMPLE = Path(__file__).resolve().parents[1] / "puzzles" / "issues" / "sample.yaml"


def heights(op: Op) -> list[float]:
    if isinstance(op, Text):
        return [op.y, op.y + op.size]
    if isinstance(op, Lines):
        return [v for s in op.segments for v in (s[1], s[3])]
    if isinstance(op, Rects):
        return [v for r in op.rects for v in (r[1], r[1] + r[3])]
    if isinstance(op, Polygons):
        return [p[1] for poly in op.polygons for p in poly]
    if isinstance(op, ClueText):
        return [y for _, y, _ in op.items]
    return []


def used(page: Page, top: float, bottom: float) -> float:
    """How far down the content area the page's ink reaches, 0 to 1 (the running head
    and folio outside the area do not count)."""
    ys = [y for op in page.ops for y in heights(op) if bottom - 0.5 <= y <= top + 0.5]
    return (top - min(ys)) / (top - bottom) if ys else 0.0


def sections(plan: IssuePlan) -> list[list[Page]]:
    """Contents, puzzles, solutions, each puzzle's worked solution, notes."""
    out: list[list[Page]] = []
    for page in plan.pages:
        starts = not out or out[-1][0].kind != page.kind or (
            page.kind == "worked" and bool(page.blocks))
        if starts:
            out.append([page])
        else:
            out[-1].append(page)
    return out


def sample_plan(profile: str, tmp_path: Path) -> tuple[IssuePlan, float, float]:
    manifest = load_manifest(SAMPLE)
    manifest = replace(manifest, pad_pages=True,
                       profile=replace(manifest.profile, name=parse_profile_name(profile)))
    if profile == "kdp":
        manifest = replace(manifest, page=parse_page_size("8.5x11in"))
    manifest, _ = apply_profile(manifest)
    issue = build_issue(manifest, cache=GradeCache(tmp_path / "grades.json"))
    plan = plan_issue(issue)
    planned = manifest  # a KDP recto's margins (the gutter grows with the page count)
    if profile == "kdp":
        planned = replace(manifest, margins=kdp_margins(manifest, len(plan.pages)))
    area = content_area(manifest.page, planned)
    return plan, area.top, area.bottom


@pytest.mark.parametrize("profile", ["kdp", "pdfx"])
def test_no_page_under_half_used_but_the_last_of_a_section(tmp_path: Path,
                                                           profile: str) -> None:
    plan, top, bottom = sample_plan(profile, tmp_path)
    thin = [(page.number, page.kind, f"{used(page, top, bottom):.0%}")
            for section in sections(plan) for page in section[:-1]
            if used(page, top, bottom) < 0.5]
    assert not thin, thin
    # the 20x10 key no longer sits alone on a page two thirds empty
    key_page = next(p for p in plan.pages if any(b.number == 7 for b in p.blocks))
    assert len(key_page.blocks) > 1


def test_padding_is_said_in_the_build_report(tmp_path: Path) -> None:
    plan, _, _ = sample_plan("kdp", tmp_path)
    notes = sum(1 for page in plan.pages if page.kind == "notes")
    assert notes and len(plan.pages) == 24
    said = [w for w in plan.warnings if "padded" in w]
    assert said and f"with {notes} ruled Notes pages" in said[0], plan.warnings


def test_large_print_solutions_are_big_enough_to_check() -> None:
    from layout.manifest import Manifest
    from layout.profiles import Profile
    from layout.synthetic import issue_of, random_puzzle
    from layout.units import INCH, MM

    manifest = Manifest(source=Path("lp.yaml"), puzzles=(),
                        profile=Profile("plain", large_print=True))
    issue = issue_of([random_puzzle(5, 5, 1), random_puzzle(10, 10, 2)], manifest)
    plan = plan_issue(issue)
    blocks = [b for p in plan.pages if p.kind == "solutions" for b in p.blocks]
    assert [b.number for b in blocks] == [1, 2]
    five = blocks[0]
    assert five.cell >= 6 * MM - 1e-6
    assert five.geometry.width * five.cell >= 1.15 * INCH  # was 0.8 in


def test_wrapped_worked_solution_lines_hang_under_their_step() -> None:
    from layout.manifest import Manifest
    from layout.synthetic import issue_of, random_puzzle

    manifest = Manifest(source=Path("w.yaml"), puzzles=())
    issue = issue_of([random_puzzle(10, 10, 3)], manifest)
    long_step = "12. Row 4: " + " ".join(["the block of three must cover cell"] * 12)
    entry = replace(issue.entries[0], worked=True,
                    grade=replace(issue.entries[0].grade, steps=("1. Row 1: all empty.",
                                                                 long_step)))
    plan = plan_issue(replace(issue, entries=(entry,)))
    worked = [p for p in plan.pages if p.kind == "worked"]
    texts = [op for p in worked for op in p.ops if isinstance(op, Text)]
    first = next(k for k, t in enumerate(texts) if t.text.startswith("12. Row 4"))
    left = texts[first].x
    continuation = texts[first + 1]
    assert continuation.x > left + 5  # hangs under the step's words
    assert texts[first - 1].text.startswith("1. Row 1") and texts[first - 1].x == left


def test_a_short_book_fills_pages_with_bigger_solutions_before_padding(
        tmp_path: Path) -> None:
    """Padding is the last resort: the short sample book prints its solutions at large
    print's 6 mm cells (every solutions page but the last at least half used) and pads
    fewer Notes pages than at the ordinary 2.4 mm, and the build report says so."""
    from layout.plan import SHORT_BOOK_SOLUTION_CELL
    from layout.units import MM

    plan, top, bottom = sample_plan("kdp", tmp_path)
    solutions = [page for page in plan.pages if page.kind == "solutions"]
    cells = [block.cell for page in solutions for block in page.blocks]
    assert len(cells) == 11 and max(cells) == pytest.approx(SHORT_BOOK_SOLUTION_CELL)
    assert SHORT_BOOK_SOLUTION_CELL >= 6 * MM - 1e-6
    assert all(used(page, top, bottom) >= 0.5 for page in solutions[:-1])
    notes = sum(page.kind == "notes" for page in plan.pages)
    assert len(plan.pages) == 24 and notes <= 8  # 13 with 2.4 mm solutions on one page
    said = [w for w in plan.warnings if w.startswith("a short book: solutions")]
    assert said and f"on {len(solutions)} pages" in said[0], plan.warnings


def puzzle_pages(plan: IssuePlan) -> list[Page]:
    return [page for page in plan.pages if page.kind == "puzzles"]


def clue_sizes(pages: list[Page]) -> list[float]:
    return [op.size for page in pages for op in page.ops if isinstance(op, ClueText)]


def test_a_short_book_prints_its_puzzles_bigger_before_padding(tmp_path: Path) -> None:
    """The short sample book on 8.5x11 in: its puzzles had 6 pages at 5-6 mm cells (four
    small ones on page 2, half of it white) and 8 Notes pages padded it to 24. Now the small
    and middling puzzles get pages of their own at up to 11.2 mm cells (the two smallest
    share one), every puzzle page but the last at least half used, clue digits between
    KDP's 7 pt and 16 pt, and 5 Notes pages pad it; the build report says so."""
    from layout.plan import SHORT_BOOK_MAX_CELL
    from layout.units import MM

    plan, top, bottom = sample_plan("kdp", tmp_path)
    pages = puzzle_pages(plan)
    assert len(plan.pages) == 24
    assert sum(page.kind == "notes" for page in plan.pages) == 5  # 8 before
    assert len(pages) == 9  # 6 before
    assert all(used(page, top, bottom) >= 0.5 for page in pages[:-1]), [
        f"{used(page, top, bottom):.0%}" for page in pages]
    cell = {block.number: block.cell for page in pages for block in page.blocks}
    alone = [page.blocks[0].number for page in pages if len(page.blocks) == 1]
    assert alone == [3, 4, 5, 6, 9, 10, 11]
    shared = [sorted(block.number for block in page.blocks) for page in pages
              if len(page.blocks) > 1]
    assert shared == [[1, 2], [7, 8]]
    assert cell[1] >= 9 * MM and cell[3] >= 10 * MM  # 5.9 mm before
    assert max(cell.values()) <= SHORT_BOOK_MAX_CELL + 1e-6
    sizes = clue_sizes(pages)
    assert min(sizes) >= 7.0 - 1e-6 and max(sizes) <= 16.0 + 1e-6
    said = [w for w in plan.warnings if w.startswith("a short book: puzzles")]
    assert said and "on 9 pages instead of 6 (7 alone on a page)" in said[0], plan.warnings
    assert any("with 5 ruled Notes pages" in w for w in plan.warnings)


def kdp_book(sizes: list[int], **manifest_fields: object) -> IssuePlan:
    from layout.manifest import Manifest
    from layout.profiles import Profile
    from layout.synthetic import issue_of, random_puzzle

    manifest = Manifest(source=Path("book.yaml"), puzzles=(), profile=Profile("kdp"),
                        page=parse_page_size("8.5x11in"), pad_pages=True)
    manifest = replace(manifest, **manifest_fields)  # type: ignore[arg-type]
    puzzles = [random_puzzle(size, size, seed) for seed, size in enumerate(sizes, start=1)]
    return plan_issue(issue_of(puzzles, manifest))


def test_eight_15x15_puzzles_get_a_page_each_instead_of_notes() -> None:
    """Two to a page at 5.2 mm, 17 Notes pages; a page each at about 9 mm, 13 Notes."""
    from layout.units import MM

    plan = kdp_book([15] * 8)
    pages = puzzle_pages(plan)
    assert [len(page.blocks) for page in pages] == [1] * 8
    assert all(block.cell >= 8.5 * MM for page in pages for block in page.blocks)
    assert sum(page.kind == "notes" for page in plan.pages) == 13
    assert len(plan.pages) == 24
    said = [w for w in plan.warnings if w.startswith("a short book: puzzles")]
    assert said and "on 8 pages instead of 4 (one to a page)" in said[0], plan.warnings


def test_a_fixed_count_a_page_is_kept_in_a_short_book() -> None:
    """per_page: 2 is the editor's choice: the puzzles stay two to a page."""
    plan = kdp_book([15] * 8, per_page=2)
    assert [len(page.blocks) for page in puzzle_pages(plan)] == [2] * 4
    assert not any(w.startswith("a short book: puzzles") for w in plan.warnings)


def test_a_book_that_needs_no_padding_is_planned_as_before() -> None:
    """40 15x15 puzzles make 25 pages: nothing is enlarged, padding or not."""
    from layout.manifest import Manifest
    from layout.plan import MAX_CELL, _kdp_plan
    from layout.profiles import Profile
    from layout.synthetic import issue_of, random_puzzle

    manifest = Manifest(source=Path("book.yaml"), puzzles=(), profile=Profile("kdp"),
                        page=parse_page_size("8.5x11in"), pad_pages=True)
    issue = issue_of([random_puzzle(15, 15, seed) for seed in range(1, 41)], manifest)
    plan = plan_issue(issue)
    assert len(plan.pages) == 25 and not any(p.kind == "notes" for p in plan.pages)
    assert not any(w.startswith("a short book") for w in plan.warnings)
    ordinary = _kdp_plan(issue)
    assert [(p.kind, p.ops) for p in plan.pages] == [(p.kind, p.ops) for p in ordinary.pages]
    assert len(puzzle_pages(plan)) == 22  # mostly two to a page, as ever
    cells = [block.cell for page in puzzle_pages(plan) for block in page.blocks]
    assert max(cells) <= MAX_CELL + 1e-6


def _plan(cells: list[list[float]]) -> IssuePlan:
    pages = []
    for page_cells in cells:
        page = Page(400.0, 600.0, "puzzles")
        page.blocks = [Block(n, 0.0, 0.0, c, None, False)  # type: ignore[arg-type]
                       for n, c in enumerate(page_cells)]
        pages.append(page)
    return IssuePlan(pages)


def test_a_short_book_report_names_a_page_count_once_when_it_is_unchanged() -> None:
    same = _bigger_puzzles_said(_plan([[10.0, 10.0]] * 8), _plan([[20.0]] * 8))
    assert "instead of" not in same and "on 8 pages" in same
    fewer = _bigger_puzzles_said(_plan([[10.0]] * 4), _plan([[20.0]] * 8))
    assert "on 8 pages instead of 4" in fewer
