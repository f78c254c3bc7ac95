"""Issue manifests: every key read, every mistake a clear error naming the key or file."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.errors import FormatError, NonopressError
from layout.manifest import load_manifest
from layout.units import INCH, MM, parse_length

PLUS = "rows: [[1], [3], [1]]\ncolumns: [[1], [3], [1]]\n"


def write(folder: Path, text: str) -> Path:
    (folder / "plus.yaml").write_text(PLUS)
    path = folder / "issue.yaml"
    path.write_text(text)
    return path


def test_every_key(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "two.yaml").write_text(PLUS)
    manifest = load_manifest(write(tmp_path, """\
title: Puzzle Monthly
issue: 12
date: 2026-11-21
author: The Editors
page: 6x9in
margins: {top: 10mm, bottom: 0.5in, left: 12, right: 36pt}
bleed: 3mm
crop_marks: true
per_page: 4
solutions: false
worked: [2]
ink: grey
booklet: impose
hide_titles: false
puzzles:
  - plus.yaml
  - file: sub/two.yaml
    title: Two
    note: Start with row 2
    hide_title: true
    index: 1
"""))
    assert manifest.title == "Puzzle Monthly" and manifest.issue == "12"
    assert manifest.date == "2026-11-21" and manifest.author == "The Editors"
    assert manifest.page.width == pytest.approx(6 * INCH)
    assert manifest.margins.top == pytest.approx(10 * MM)
    assert manifest.margins.bottom == pytest.approx(0.5 * INCH)
    assert manifest.margins.left == pytest.approx(12 * MM)
    assert manifest.margins.right == pytest.approx(36)
    assert manifest.bleed == pytest.approx(3 * MM) and manifest.crop_marks
    assert manifest.per_page == 4 and not manifest.solutions and manifest.worked == (2,)
    assert manifest.grey and manifest.booklet and manifest.impose
    first, second = manifest.puzzles
    assert first.path == (tmp_path / "plus.yaml").resolve() and not first.hide_title
    assert second.path == (tmp_path / "sub" / "two.yaml").resolve()
    assert (second.title, second.note, second.hide_title, second.index) == (
        "Two", "Start with row 2", True, 1)


def test_defaults(tmp_path: Path) -> None:
    manifest = load_manifest(write(tmp_path, "puzzles: [plus.yaml]\n"))
    assert manifest.page.name == "A4" and manifest.per_page is None
    assert manifest.solutions and not manifest.crop_marks and manifest.bleed == 0
    assert not manifest.booklet and not manifest.impose
    assert manifest.puzzles[0].hide_title  # titles would give the picture away
    auto = load_manifest(write(tmp_path, "per_page: auto\nworked: all\npuzzles: [plus.yaml]\n"))
    assert auto.per_page is None and auto.worked == "all"


@pytest.mark.parametrize(
    ("text", "message", "line"),
    [
        ("title: x\ncolour: red\npuzzles: [plus.yaml]\n", "unknown key 'colour'", 2),
        ("puzzles:\n  - plus.yaml\n  - {file: plus.yaml, titel: x}\n",
         "unknown puzzle key 'titel'", 3),
        ("page: B5\npuzzles: [plus.yaml]\n", "unknown page size 'B5'", 1),
        ("per_page: 0\npuzzles: [plus.yaml]\n", "per_page", 1),
        ("bleed: lots\npuzzles: [plus.yaml]\n", "bleed", 1),
        ("margins: {inside: 5mm}\npuzzles: [plus.yaml]\n", "unknown side 'inside'", 1),
        ("crop_marks: maybe\npuzzles: [plus.yaml]\n", "crop_marks", 1),
        ("worked: [first]\npuzzles: [plus.yaml]\n", "worked", 1),
        ("booklet: stapled\npuzzles: [plus.yaml]\n", "booklet", 1),
        ("title: x\n", "'puzzles'", None),
        ("puzzles: [plus.yaml\n", "not valid YAML", 2),
        ("- just\n- a list\n", "a manifest is a YAML mapping", None),
        ("puzzles:\n  - {file: plus.yaml, index: 0}\n", "index", 2),
    ],
)
def test_mistakes_name_the_key_or_file_and_line(
    tmp_path: Path, text: str, message: str, line: int | None
) -> None:
    with pytest.raises(FormatError) as caught:
        load_manifest(write(tmp_path, text))
    assert message in str(caught.value)
    assert caught.value.source == str(tmp_path / "issue.yaml")
    assert caught.value.line == line


def test_missing_manifest(tmp_path: Path) -> None:
    with pytest.raises(FormatError, match="manifest not found"):
        load_manifest(tmp_path / "nope.yaml")


def test_lengths() -> None:
    assert parse_length("15mm", "m") == pytest.approx(15 * MM)
    assert parse_length(" 1.5 cm", "m") == pytest.approx(15 * MM)
    assert parse_length("0.5in", "m") == pytest.approx(36)
    assert parse_length(7, "m") == pytest.approx(7 * MM)
    for bad in ("-3mm", "3 furlongs", True, None):
        with pytest.raises(NonopressError):
            parse_length(bad, "m")
