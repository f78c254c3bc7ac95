"""Generated puzzles' titles (issue 46, item 9): none by default (an issue numbers its
puzzles; "Random 15x15 #32" printed the same in every run), ``--title`` with ``{n}`` or
numbered after it, ``--number-from`` to go on from an earlier run, ``--author``."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.authoring.generate import generated_title
from grader.formats import read_file
from nonopress.cli import main

pytest.importorskip("pysat")


def test_titles_follow_the_pattern() -> None:
    assert generated_title("", 3, 10) == ""
    assert generated_title("Filler", 3, 10) == "Filler 3"
    assert generated_title("Filler", 1, 1) == "Filler"
    assert generated_title("Spring {n} of 40", 7, 2) == "Spring 7 of 40"


def _titles(tmp_path: Path, name: str, *options: str) -> list[tuple[str, str]]:
    out = tmp_path / f"{name}.yaml"
    assert main(["generate", "--size", "6x6", "--count", "2", "--seed", "4", "-o", str(out),
                 "--quiet", *options]) == 0
    return [(p.title, p.meta.author) for p in read_file(out)]


def test_generate_titles_its_puzzles_as_asked(tmp_path: Path) -> None:
    assert _titles(tmp_path, "plain") == [("", ""), ("", "")]
    assert _titles(tmp_path, "named", "--title", "Filler", "--author", "A. Editor") == [
        ("Filler 1", "A. Editor"), ("Filler 2", "A. Editor")]
    assert [t for t, _ in _titles(tmp_path, "on", "--title", "Spring {n}",
                                  "--number-from", "31")] == ["Spring 31", "Spring 32"]
