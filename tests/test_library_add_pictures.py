"""``library add`` and ``from_library`` (issue 46, items 4 and 12): a picture is not a
puzzle unless asked, a pick takes only printable sizes, a failed build releases what it
booked, a file whose clues are stored already is named, ``--db`` after the action. On
SQLite and on a real PostgreSQL (as test_catalogue.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from test_catalogue import _postgres_database, compiled_kernels  # noqa: F401

from grader.formats import write
from grader.model import Metadata, Puzzle
from nonopress.catalogue import find, open_catalogue
from nonopress.catalogue.finding import Filters
from nonopress.catalogue.picking import booked
from nonopress.cli import main


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path):  # type: ignore[no-untyped-def]
    if request.param == "sqlite":
        yield str(tmp_path / "catalogue.sqlite")
    else:
        yield from _postgres_database()


def _stock(folder: Path) -> None:
    """Three small unique puzzles, a 400x400 drawing (as puzzles/pictures holds) and a
    110x110 puzzle: too big to print."""
    folder.mkdir()
    for number, seed in enumerate((1, 3, 5)):
        picture = np.random.default_rng(seed).random((12, 12)) < 0.55
        (folder / f"p{number}.yaml").write_bytes(
            write(Puzzle.from_picture(picture, Metadata(title=f"Small {number}")), "yaml"))
    drawing = Image.new("L", (400, 400), 255)
    drawing.paste(0, (100, 100, 300, 300))
    drawing.save(folder / "art.png")
    huge = np.zeros((110, 110), dtype=bool)
    huge[::2, :] = True  # every other row full: unique, easy, and far too big for a page
    (folder / "huge.non").write_bytes(
        write(Puzzle.from_picture(huge, Metadata(title="Huge")), "non"))


def test_a_folder_s_pictures_are_passed_over_unless_asked(
        db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    stock = tmp_path / "stock"
    _stock(stock)
    # --db after the action, as every other command takes it
    assert main(["library", "add", str(stock), "--db", db_url, "-j", "1"]) == 0
    err = capsys.readouterr().err
    assert "passed over 1 picture" in err and "art.png" in err and "--pictures" in err
    with open_catalogue(db_url) as catalogue:
        sizes = sorted((e.width, e.height) for e in find(catalogue, Filters()))
    assert (400, 400) not in sizes and len(sizes) == 4
    assert main(["library", "add", str(stock / "art.png"), "--db", db_url, "--pictures",
                 "-j", "1"]) == 0
    with open_catalogue(db_url) as catalogue:
        assert (400, 400) in [(e.width, e.height) for e in find(catalogue, Filters())]


def test_a_file_with_stored_clues_is_named(
        db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    stock = tmp_path / "stock"
    _stock(stock)
    assert main(["library", "--db", db_url, "add", str(stock / "p0.yaml"), "-j", "1"]) == 0
    copy = tmp_path / "copy.yaml"
    copy.write_bytes((stock / "p0.yaml").read_bytes().replace(b"Small 0", b"Renamed"))
    capsys.readouterr()
    assert main(["library", "--db", db_url, "add", str(copy), "-j", "1"]) == 0
    err = capsys.readouterr().err
    assert f"{copy} #1 has the clues of puzzle 1 'Small 0'" in err
    # the same file again is the resumable path, not news
    assert main(["library", "--db", db_url, "add", str(copy), "-j", "1"]) == 0
    assert "has the clues" in capsys.readouterr().err  # still stored as the first file's


def test_a_pick_takes_printable_sizes_and_a_failed_build_releases_its_bookings(
        db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    stock = tmp_path / "stock"
    _stock(stock)
    assert main(["library", "add", str(stock), "--db", db_url, "-j", "1"]) == 0
    manifest = tmp_path / "issue.yaml"
    # no sizes: the pick never takes the 110x110 (all four easy puzzles are asked for)
    text = "title: T\nissue: 1\nfrom_library:\n  levels: {easy: 4}\n"
    manifest.write_text(text, encoding="utf-8")
    assert main(["issue", str(manifest), "-o", str(tmp_path / "a.pdf"), "--db", db_url,
                 "-q"]) == 2
    assert "not enough free puzzles" in capsys.readouterr().err
    # sizes asking for it: picked, booked, and the build fails on it; nothing stays booked
    text = "title: T\nissue: 1\nfrom_library:\n  levels: {easy: 1}\n  sizes: 100x100..120x120\n"
    manifest.write_text(text, encoding="utf-8")
    assert main(["issue", str(manifest), "-o", str(tmp_path / "a.pdf"), "--db", db_url,
                 "-q"]) == 2
    assert "larger than a printable puzzle" in capsys.readouterr().err
    with open_catalogue(db_url) as catalogue:
        assert booked(catalogue, "T 1") == []
    assert manifest.read_text(encoding="utf-8") == text  # no chosen: the next build picks
    assert not (tmp_path / "issue-puzzles").exists()
    # a proof that builds keeps its bookings (a printing would turn them into history)
    text = "title: T\nissue: 1\nfrom_library:\n  levels: {easy: 3}\n"
    manifest.write_text(text, encoding="utf-8")
    assert main(["issue", str(manifest), "-o", str(tmp_path / "a.pdf"), "--db", db_url,
                 "-q", "--no-record"]) == 0
    assert "chosen:" in manifest.read_text(encoding="utf-8")
    with open_catalogue(db_url) as catalogue:
        assert len(booked(catalogue, "T 1")) == 3
