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
