"""Page planning a designer would sign: the sample issue under kdp and pdfx leaves no page
less than half used but the last of a section, and a padded book says so."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from layout.build import build_issue
from layout.draw import ClueText, Lines, Op, Page, Polygons, Rects, Text
from layout.gradecache import GradeCache
from layout.manifest import load_manifest
from layout.plan import IssuePlan, content_area, kdp_margins, plan_issue
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
    said = [w for w in plan.warnings if w.startswith("a short book")]
    assert said and f"on {len(solutions)} pages" in said[0], plan.warnings
