"""The application layer's issue pipeline (nonopress.app.issue), which the CLI, the studio
and the web player call: a build reads its manifest once and each puzzle file once, with a
catalogue too; a face that prints nothing gets the entries and their grades."""

from __future__ import annotations

import os
import shutil
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from grader.errors import NonopressError
from nonopress.app.issue import IssueOptions, Targets, load_manifest, plan_issue
from nonopress.cli import main

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = ROOT / "puzzles"

#: files whose openings for reading are being counted (resolved path -> count), or None
_watched: dict[str, int] | None = None


def _on_audit(event: str, args: tuple[Any, ...]) -> None:
    """Count each opening for reading (io.open and os.open alike) of a watched file."""
    if event != "open" or _watched is None:
        return
    path, mode, flags = args
    if not isinstance(path, (str, bytes, os.PathLike)):
        return  # an open file descriptor wrapped: not a new reading
    writing = (flags or 0) & (os.O_WRONLY | os.O_RDWR) or (mode and set(mode) & set("wax+"))
    name = os.path.realpath(os.fsdecode(path))
    if not writing and name in _watched:
        _watched[name] += 1


sys.addaudithook(_on_audit)


@pytest.fixture()
def readings() -> Iterator[dict[str, int]]:
    """Openings for reading of the files put in the dict (by path) while the test runs."""
    global _watched
    _watched = Counter()
    try:
        yield _watched
    finally:
        _watched = None


def _watch(counts: dict[str, int], *paths: Path) -> None:
    for path in paths:
        counts[os.path.realpath(path)] = 0


@pytest.fixture()
def issue_folder(tmp_path: Path) -> Path:
    """A folder with black-and-white and colour puzzles, as an editor keeps them."""
    for name in ("house.yaml", "heart.yaml", "cat.yaml", "mug.yaml", "clock.yaml"):
        shutil.copy(LIBRARY / name, tmp_path / name)
    shutil.copy(LIBRARY / "colour" / "ladybird.yaml", tmp_path / "ladybird.yaml")
    return tmp_path


def test_a_catalogue_build_reads_its_manifest_once_and_each_puzzle_file_once(
        issue_folder: Path, readings: dict[str, int]) -> None:
    """With ``from_library``, the catalogue's warnings, the grading and the record all
    take the manifest and the puzzles the build read (once each), not the files again."""
    db = str(issue_folder / "catalogue.sqlite")
    stock = [str(issue_folder / n) for n in ("cat.yaml", "mug.yaml", "clock.yaml")]
    assert main(["library", "--db", db, "add", *stock, "-j", "1"]) == 0
    manifest = issue_folder / "issue.yaml"
    manifest.write_text("title: Once\nissue: 3\npuzzles:\n  - house.yaml\n"
                        "  - {file: heart.yaml, note: Warm up}\n  - ladybird.yaml\n"
                        "from_library:\n  levels: {easy: 2}\n  seed: 1\n", encoding="utf-8")
    out = issue_folder / "first.pdf"
    assert main(["issue", str(manifest), "-o", str(out), "--db", db, "-q"]) == 0
    picked = sorted((issue_folder / "issue-puzzles").glob("*.yaml"))
    assert len(picked) == 2 and "chosen:" in manifest.read_text(encoding="utf-8")
    puzzles = [issue_folder / n for n in ("house.yaml", "heart.yaml", "ladybird.yaml")]
    _watch(readings, manifest, *puzzles, *picked)
    again = issue_folder / "again.pdf"
    assert main(["issue", str(manifest), "-o", str(again), "--db", db, "-q"]) == 0
    assert again.read_bytes() == out.read_bytes()
    assert dict(readings) == {os.path.realpath(p): 1 for p in (manifest, *puzzles, *picked)}


def test_a_build_without_catalogue_reads_each_file_once_however_often_it_is_named(
        issue_folder: Path, readings: dict[str, int]) -> None:
    manifest = issue_folder / "twice.yaml"
    manifest.write_text("puzzles:\n  - house.yaml\n  - ladybird.yaml\n  - heart.yaml\n"
                        "  - {file: heart.yaml, title: Again}\n", encoding="utf-8")
    puzzles = [issue_folder / n for n in ("house.yaml", "ladybird.yaml", "heart.yaml")]
    _watch(readings, manifest, *puzzles)
    planned = plan_issue(load_manifest(manifest))
    assert dict(readings) == {os.path.realpath(p): 1 for p in (manifest, *puzzles)}
    assert planned.files.reads == 3
    assert any("same puzzle as puzzle 3" in w for w in planned.plan.warnings)


def test_a_face_that_prints_nothing_gets_the_entries_and_their_grades(
        issue_folder: Path) -> None:
    """What the web player asks for (grade_issue): the puzzles in issue order with their
    grades and solutions, no print profile applied, no page planned and no file written (no
    grade cache either)."""
    from nonopress.app.issue import Voice, grade_issue

    manifest = issue_folder / "plan.yaml"
    manifest.write_text("title: Plan\nprofile: kdp\npuzzles:\n  - heart.yaml\n"
                        "  - {file: ladybird.yaml, title: Spots}\n  - heart.yaml\n",
                        encoding="utf-8")
    before = sorted(issue_folder.iterdir())
    said: list[str] = []
    graded = grade_issue(load_manifest(manifest), voice=Voice(say=said.append))
    assert sorted(issue_folder.iterdir()) == before
    assert [(e.number, e.title) for e in graded.entries] == [
        (1, "Heart"), (2, "Spots"), (3, "Heart")]
    assert all(e.grade.verdict == "unique" and e.grade.level for e in graded.entries)
    assert [e.solution.shape for e in graded.entries] == [
        (e.puzzle.height, e.puzzle.width) for e in graded.entries]
    # KDP's rules (grey ink unless colour is asked, its page) are print's, not the player's
    assert not graded.manifest.grey and not any(e.grey for e in graded.entries)
    # the same puzzle twice is graded once (the build's cache keeps it in memory)
    assert said == ["grading heart.yaml (puzzle 1 of the issue)",
                    "grading ladybird.yaml (puzzle 2 of the issue)"]
    assert any("printed twice" in w for w in graded.warnings)


def test_the_plan_applies_the_options_and_the_profile(issue_folder: Path) -> None:
    manifest = issue_folder / "plan.yaml"
    manifest.write_text("title: Plan\npuzzles:\n  - heart.yaml\n", encoding="utf-8")
    planned = plan_issue(load_manifest(manifest), IssueOptions(profile="kdp", page="6x9in"))
    assert planned.manifest.profile.name == "kdp" and planned.manifest.page.width == 6 * 72
    assert planned.manifest.grey  # KDP prints grey unless the manifest asks for colour
    assert planned.summary.endswith("1 puzzle")
    booklet = plan_issue(load_manifest(manifest), IssueOptions(booklet=True, page="A5"))
    assert booklet.manifest.booklet and len(booklet.plan.pages) % 4 == 0


def test_targets_are_checked_before_any_work(tmp_path: Path) -> None:
    with pytest.raises(NonopressError, match="say where"):
        Targets().check()
    with pytest.raises(NonopressError, match="same file"):
        Targets(pdf=tmp_path / "a.pdf", latex=tmp_path / "a.tex").check()
    Targets(pdf=tmp_path / "a.pdf", latex=tmp_path / "a.tex", compile=False).check()
    with pytest.raises(NonopressError, match="does not exist"):
        Targets(pdf=tmp_path / "nowhere" / "a.pdf").check()


def test_the_issue_record_names_what_was_written_and_every_warning(issue_folder: Path) -> None:
    from nonopress.app.issue import make_issue

    manifest = issue_folder / "record.yaml"
    manifest.write_text("puzzles:\n  - heart.yaml\n  - heart.yaml\n", encoding="utf-8")
    heard: list[str] = []
    from nonopress.app.issue import Voice

    written = make_issue(load_manifest(manifest), Targets(pdf=issue_folder / "out.pdf"),
                         voice=Voice(warn=heard.append))
    record = written.record(lambda path: path.name)
    assert (issue_folder / "out.pdf").read_bytes() == written.pdf
    assert record["pdf"] == "out.pdf" and record["latex"] is None
    assert record["preflight"] is None and not record["recorded"]  # no profile, no catalogue
    assert record["pages"] == len(written.planned.plan.pages) >= 1
    assert record["warnings"] == heard and any("printed twice" in w for w in heard)
