"""Print profiles are one table of records (``layout.profiles.PROFILES``): the layout, the
sheets, the PDF writer, the preflight, the command line and the studio read it, and no
other product module names a profile. Adding a profile is one record and one test: the
IngramSpark paperback below is the proof.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pikepdf
import pytest

from grader.errors import NonopressError
from layout.preflight import preflight
from layout.profiles import PROFILES, profile_choices, profile_menu
from nonopress.cli import main

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = ("grader", "layout", "words", "nonopress")
TABLE = ROOT / "layout" / "profiles.py"
#: the words that name a profile: every printer's names, and the plain profile's own
#: ("none", its alias on the command line, is also a verdict and a fill mode)
NAMES = {n for r in PROFILES.values() if r.is_print for n in (r.name, *r.aliases)} | {
    r.name for r in PROFILES.values() if not r.is_print}


def _named(path: Path) -> list[str]:
    """The profile names ``path`` holds as a string of their own."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".py":
        return [node.value for node in ast.walk(ast.parse(text))
                if isinstance(node, ast.Constant) and isinstance(node.value, str)
                and node.value.strip().lower() in NAMES]
    names = "|".join(map(re.escape, sorted(NAMES)))
    pattern = r"['\"](" + names + r")['\"]"
    return [m.group(1) for m in re.finditer(pattern, text, re.IGNORECASE)]


def test_profile_names_live_in_the_table_alone() -> None:
    files = [p for root in PRODUCT for p in (ROOT / root).rglob("*")
             if p.suffix in (".py", ".html", ".js") and p != TABLE]
    assert len(files) > 100
    named = {str(p.relative_to(ROOT)): found for p in files if (found := _named(p))}
    assert named == {}, "read layout.profiles.PROFILES instead of naming a profile"
    assert _named(TABLE)  # the check sees a name where there is one


def test_the_command_line_and_the_studio_offer_the_table() -> None:
    printers = [r.name for r in PROFILES.values() if r.is_print]
    assert list(profile_choices(printed_only=True)) == printers
    assert profile_choices()[-1] == "none"
    assert [row["value"] for row in profile_menu()] == [*printers, "none"]
    assert all(row["label"] for row in profile_menu())


def test_every_preflight_rule_a_record_names_exists() -> None:
    from layout.preflight.rules import RULES

    for rules in PROFILES.values():
        assert set(rules.preflight) <= set(RULES), rules.name
        assert not rules.is_print or rules.preflight, rules.name


# -- the IngramSpark paperback: one record, this test ------------------------------------------
MANIFEST = """title: Ingram Puzzles
profile: ingramspark
page: 6x9in
bleed: true
pad_pages: true
solutions: true
puzzles:
  - {root}/puzzles/house.yaml
  - {root}/puzzles/heart.yaml
  - {root}/puzzles/cat.yaml
"""


def test_an_ingramspark_paperback_follows_its_published_rules(tmp_path: Path) -> None:
    """IngramSpark's File Creation Guide: PDF/X-1a:2001, a listed trim size, 0.125 in of
    bleed on the top, bottom and outside edges, everything else 0.5 in inside the trim,
    no crop marks, at least 18 pages (padded with Notes pages here)."""
    manifest = tmp_path / "ingram.yaml"
    manifest.write_text(MANIFEST.format(root=ROOT), encoding="utf-8")
    out = tmp_path / "ingram.pdf"
    assert main(["issue", str(manifest), "-o", str(out), "-q", "--no-cache"]) == 0
    with pikepdf.open(out) as pdf:
        assert len(pdf.pages) == 18
        assert pdf.pdf_version == "1.3"
        (intent,) = pdf.Root.OutputIntents
        assert str(intent.S) == "/GTS_PDFX"
        recto, verso = pdf.pages[0].obj, pdf.pages[1].obj
        for page, bleeds_left in ((recto, False), (verso, True)):
            trim = [float(v) for v in page.TrimBox]
            media = [float(v) for v in page.MediaBox]
            assert trim[2] - trim[0] == pytest.approx(6 * 72)
            assert trim[3] - trim[1] == pytest.approx(9 * 72)
            assert media[2] - media[0] == pytest.approx(6 * 72 + 9)  # 0.125 in, outside
            assert media[3] - media[1] == pytest.approx(9 * 72 + 18)  # top and bottom
            assert (trim[0] > 0) == bleeds_left  # never bleeding into the gutter
    report = preflight(out, "ingramspark")
    assert report.passed, report.lines()
    rules = {r.rule for r in report.results}
    assert {"output-intent", "trim-size", "page-count", "margins", "crop-marks"} <= rules


def test_an_ingramspark_page_it_does_not_print_is_refused(tmp_path: Path) -> None:
    manifest = tmp_path / "ingram.yaml"
    manifest.write_text(MANIFEST.format(root=ROOT).replace("6x9in", "9x12in"),
                        encoding="utf-8")
    assert main(["issue", str(manifest), "-o", str(tmp_path / "x.pdf"), "-q"]) == 2
    assert not (tmp_path / "x.pdf").exists()


def test_a_short_ingramspark_book_fails_its_preflight_page_count(tmp_path: Path) -> None:
    manifest = tmp_path / "ingram.yaml"
    manifest.write_text(MANIFEST.format(root=ROOT).replace("pad_pages: true\n", ""),
                        encoding="utf-8")
    out = tmp_path / "short.pdf"
    assert main(["issue", str(manifest), "-o", str(out), "-q", "--no-cache"]) == 1
    failed = {r.rule for r in preflight(out, "ingramspark").failed}
    assert failed == {"page-count"}


def test_an_unknown_profile_names_the_table(tmp_path: Path) -> None:
    from layout.manifest import parse_manifest

    printers = ", ".join(r.name for r in PROFILES.values() if r.is_print)
    assert printers.startswith("kdp, pdfx, ingramspark")
    with pytest.raises(NonopressError, match=f"expected {printers}, none, got 'lulu'"):
        parse_manifest("title: T\nprofile: lulu\npuzzles: [a.non]\n", tmp_path / "m.yaml")
