"""Front matter (issue 46, item 10): a title page, a copyright page and a how-to-solve page
before the contents, and a back page whose KDP barcode box stays white, all from the
manifest's ``front_matter`` section. Puzzles made by the test."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from grader.formats import write
from grader.model import Metadata, Puzzle
from layout.build import build_issue
from layout.draw import ClueText, Lines, Rects, Text
from layout.frontmatter import barcode_box
from layout.manifest import load_manifest
from layout.plan import plan_issue
from nonopress.cli import main

FRONT = """\
title: Test Puzzle Book
author: A. Editor
date: 2026-12-01
profile: kdp
page: 6x9in
pad_pages: true
front_matter:
  subtitle: Pictures to find
  publisher: Test Press
  copyright: "(c) 2026 Test Press"
  isbn: 978-1-234567-89-7
  how_to_solve: true
  barcode_space: true
puzzles: [a.yaml, b.yaml]
"""


def _puzzles(folder: Path) -> None:
    for name, rows in (("a", ["..#..", ".###.", "#####", "#.#.#", "###.#"]),
                       ("b", ["#####", "#...#", "#.#.#", "#...#", "#####"])):
        (folder / f"{name}.yaml").write_bytes(write(Puzzle.from_picture(
            np.array([[c == "#" for c in row] for row in rows]),
            Metadata(title=name.upper(), author="B. Setter", license="CC0-1.0")), "yaml"))


def _texts(page) -> str:  # type: ignore[no-untyped-def]
    return " ".join(op.text for op in page.ops if isinstance(op, Text))


def test_front_matter_and_a_back_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                      ) -> None:
    _puzzles(tmp_path)
    (tmp_path / "book.yaml").write_text(FRONT, encoding="utf-8")
    manifest = load_manifest(tmp_path / "book.yaml")
    plan = plan_issue(build_issue(manifest))
    kinds = [page.kind for page in plan.pages]
    assert kinds[:4] == ["front", "front", "front", "contents"] and kinds[-1] == "back"
    title, copyright_page, how_to = plan.pages[:3]
    assert "Test Puzzle Book" in _texts(title) and "Pictures to find" in _texts(title)
    assert "A. Editor" in _texts(title) and "Test Press" in _texts(title)
    assert "ISBN 978-1-234567-89-7" in _texts(copyright_page)
    assert "B. Setter" in _texts(copyright_page)  # the setters' credits
    assert "How to solve" in _texts(how_to)
    assert any(isinstance(op, Rects) and op.rects for op in how_to.ops)  # the example solved
    # no folio on the front matter; the contents' page numbers count it
    assert not any(op.text.strip() == str(n) for n, page in enumerate(plan.pages[:3], 1)
                   for op in page.ops if isinstance(op, Text))
    first_puzzle = next(k for k, page in enumerate(plan.pages, 1) if page.blocks)
    contents = _texts(plan.pages[3]).split()
    assert str(first_puzzle) in contents
    # the back page's barcode box is white
    back = plan.pages[-1]
    left, bottom, width, height = barcode_box(back.width)
    for op in back.ops:
        points: list[tuple[float, float]] = []
        if isinstance(op, Text):
            points = [(op.x, op.y)]
        elif isinstance(op, Rects):
            points = [(x, y) for x, y, _, _ in op.rects]
        elif isinstance(op, Lines):
            points = [(s[0], s[1]) for s in op.segments]
        elif isinstance(op, ClueText):
            points = [(x, y) for x, y, _ in op.items]
        assert not any(left <= x <= left + width and bottom <= y <= bottom + height
                       for x, y in points)
    # and the book passes KDP's preflight
    out = tmp_path / "book.pdf"
    assert main(["issue", str(tmp_path / "book.yaml"), "-o", str(out), "-q"]) == 0
    assert out.read_bytes().startswith(b"%PDF")


def test_a_wrong_front_matter_is_named_with_its_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _puzzles(tmp_path)
    (tmp_path / "book.yaml").write_text(FRONT.replace("  isbn:", "  isnb:"), encoding="utf-8")
    assert main(["issue", str(tmp_path / "book.yaml"), "-o", str(tmp_path / "b.pdf")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "book.yaml:7" in err[0] and "isnb" in err[0]
