"""The preflight of a file we just drew reads the layout's record of every page instead of
parsing the content streams again: the record must say what the file says, page by page,
and a record that does not (or a file changed after drawing) is never trusted."""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

import pikepdf
import pytest

from layout.build import build_issue
from layout.gradecache import GradeCache
from layout.issue import Issue
from layout.manifest import load_manifest
from layout.pdf import render_pdf
from layout.plan import plan_issue
from layout.preflight import PreflightReport, preflight
from layout.preflight.record import page_facts, same_facts
from layout.preflight.scan import Colour, PageScan, scan_pages
from layout.printsetup import apply_profile

ROOT = Path(__file__).resolve().parents[1]
ISSUES = ROOT / "puzzles" / "issues"

CASES = {  # name: (manifest, profile, large print, grey, impose)
    "kdp": ("sample.yaml", "kdp", False, False, False),
    "kdp-grey": ("sample.yaml", "kdp", False, True, False),
    "pdfx": ("sample.yaml", "pdfx", False, False, False),
    "pdfx-imposed": ("sample.yaml", "pdfx", False, False, True),
    "large-print": ("large-print.yaml", "kdp", True, False, False),
    "colour-pdfx": ("colour-sample.yaml", "pdfx", False, False, False),
    "colour-kdp": ("colour-sample.yaml", "kdp", False, False, False),
    "fillins-large": ("words-and-pictures.yaml", "pdfx", True, False, False),
}


@pytest.fixture(scope="module")
def grades(tmp_path_factory: pytest.TempPathFactory) -> GradeCache:
    return GradeCache(tmp_path_factory.mktemp("grades") / "grades.json")


def drawn_issue(name: str, grades: GradeCache) -> tuple[Issue, bytes, list[PageScan]]:
    source, profile, large, grey, impose = CASES[name]
    manifest = load_manifest(str(ISSUES / source))
    manifest = replace(manifest, grey=grey, impose=impose, booklet=impose or manifest.booklet,
                       profile=replace(manifest.profile, name=profile, large_print=large))
    manifest, _ = apply_profile(manifest)
    issue = build_issue(manifest, cache=grades)
    record: list[PageScan] = []
    data = render_pdf(issue, plan_issue(issue), record)
    return issue, data, record


def outcome(report: PreflightReport) -> list[tuple[str, str, list[int]]]:
    """Each rule's verdict and the pages its findings name."""
    return [(r.rule, r.status, sorted({f.page or 0 for f in r.findings}))
            for r in report.results]


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_record_says_what_the_file_says(name: str, grades: GradeCache,
                                            tmp_path: Path) -> None:
    _, data, record = drawn_issue(name, grades)
    with pikepdf.open(io.BytesIO(data)) as pdf:
        parsed = list(scan_pages(pdf))
    assert len(parsed) == len(record)
    for scan in parsed:  # every page, not only the ones the preflight samples
        assert same_facts(page_facts(scan), page_facts(record[scan.index])), (
            f"page {scan.index + 1}: parsed {page_facts(scan)} drawn "
            f"{page_facts(record[scan.index])}")
    path = tmp_path / "issue.pdf"
    path.write_bytes(data)
    _, profile, large, _, _ = CASES[name]
    fast = preflight(path, profile, large_print=large, drawn=record)
    full = preflight(path, profile, large_print=large)
    assert fast.as_drawn and not full.as_drawn
    assert outcome(fast) == outcome(full)


def test_a_record_that_disagrees_is_thrown_away(grades: GradeCache, tmp_path: Path) -> None:
    _, data, record = drawn_issue("kdp", grades)
    path = tmp_path / "issue.pdf"
    # the record says page 1 is all black ink; the file has an RGB square on it (the
    # first page is always among those parsed to compare)
    with pikepdf.open(io.BytesIO(data)) as pdf:
        page = pdf.pages[0]
        page.contents_add(pdf.make_stream(b"q 1 0 0 rg 100 100 50 50 re f Q"), prepend=False)
        pdf.save(path)
    report = preflight(path, "kdp", drawn=record)
    assert not report.as_drawn  # the sampled first page disagreed: every page parsed
    colour = {r.rule: r for r in report.warned}["black-ink"]
    assert {f.page for f in colour.findings} == {1}


def test_a_file_changed_after_drawing_is_parsed(grades: GradeCache, tmp_path: Path) -> None:
    """An image the layout never draws (here a 72 ppi one on page 3) makes every page parsed,
    and the finding names its page."""
    _, data, record = drawn_issue("kdp", grades)
    path = tmp_path / "issue.pdf"
    with pikepdf.open(io.BytesIO(data)) as pdf:
        page = pdf.pages[2]
        image = pdf.make_stream(b"\x80" * 72 * 72, Type=pikepdf.Name.XObject,
                                Subtype=pikepdf.Name.Image, Width=72, Height=72,
                                ColorSpace=pikepdf.Name.DeviceGray, BitsPerComponent=8)
        page.add_resource(image, pikepdf.Name.XObject, pikepdf.Name.Im9)
        page.contents_add(pdf.make_stream(b"q 72 0 0 72 200 200 cm /Im9 Do Q"), prepend=False)
        pdf.save(path)
    report = preflight(path, "kdp", drawn=record)
    assert not report.as_drawn
    ppi = {r.rule: r for r in report.failed}["image-resolution"]
    assert {f.page for f in ppi.findings} == {3}


def test_colours_of_the_record_are_what_the_back_end_sets(grades: GradeCache) -> None:
    """The kdp book is black ink only: every recorded colour is K alone."""
    _, _, record = drawn_issue("kdp-grey", grades)
    colours = {m.colour for s in record for m in s.marks if m.colour is not None}
    assert colours and all(isinstance(c, Colour) and c.space == "DeviceCMYK"
                           and c.values[:3] == (0, 0, 0) for c in colours)
