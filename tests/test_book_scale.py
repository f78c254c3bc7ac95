"""Books at scale: a manifest naming one many-puzzle file many times reads it once."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.errors import NonopressError
from grader.formats import write
from layout.build import build_issue
from layout.issue import GradeInfo
from layout.manifest import load_manifest
from layout.puzzlefiles import PuzzleFiles
from layout.synthetic import random_puzzle


def test_a_file_named_by_every_entry_is_read_once(tmp_path: Path) -> None:
    puzzles = [random_puzzle(6, 6, seed) for seed in range(1, 41)]
    (tmp_path / "all.yaml").write_bytes(write(puzzles, "yaml"))
    entries = "".join(f"  - {{file: all.yaml, index: {n}}}\n" for n in range(40, 0, -1))
    (tmp_path / "book.yaml").write_text(f"title: Forty\npuzzles:\n{entries}")
    manifest = load_manifest(tmp_path / "book.yaml")
    files = PuzzleFiles()
    issue = build_issue(manifest, files=files,
                        grader=lambda p: GradeInfo("easy", 1.0, 1, solution=None))
    assert files.reads == 1  # not 40 (once per entry)
    assert [e.puzzle.title for e in issue.entries] == [p.title for p in reversed(puzzles)]


def test_a_broken_file_fails_every_entry_the_same_without_reading_again(tmp_path: Path) -> None:
    (tmp_path / "bad.yaml").write_text("rows: [[1]\n")
    files = PuzzleFiles()
    for _ in range(3):
        with pytest.raises(NonopressError, match=r"bad\.yaml"):
            files.read(tmp_path / "bad.yaml")
    assert files.reads == 1


def test_the_issue_pipeline_asks_for_the_catalogue_only_when_one_may_be_used(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Loading the catalogue (sqlalchemy) costs a quarter of a second of every build: the
    issue pipeline tests for one with the catalogue's own names, without importing it, and
    with the manifest as read (its from_library section kept), not by reading it again."""
    from layout.manifest import load_manifest
    from nonopress.app.issue import may_use_catalogue
    from nonopress.catalogue.database import CONFIG_FILE, DEFAULT_FILE, ENVIRONMENT

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(ENVIRONMENT, raising=False)
    path = tmp_path / "issue.yaml"
    path.write_text("puzzles: [a.yaml]\n")
    manifest = load_manifest(path)
    assert not may_use_catalogue(None, manifest)
    assert may_use_catalogue("library.sqlite", manifest)
    monkeypatch.setenv(ENVIRONMENT, "elsewhere.sqlite")
    assert may_use_catalogue(None, manifest)
    monkeypatch.delenv(ENVIRONMENT)
    for name in (DEFAULT_FILE, CONFIG_FILE):
        (tmp_path / name).write_text("")
        assert may_use_catalogue(None, manifest)
        (tmp_path / name).unlink()
    path.write_text("from_library: {count: 2}\n")
    assert may_use_catalogue(None, load_manifest(path))
