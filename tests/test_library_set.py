"""``library set`` (issue 46, item 10): title, author, licence, source and copyright on many
catalogue puzzles at once, in the catalogue's columns and in the stored puzzle an issue
prints; a title template numbers a series. SQLite and a real PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from test_catalogue import _postgres_database, compiled_kernels  # noqa: F401

from grader.formats import write
from grader.model import Metadata, Puzzle
from nonopress.catalogue import Filters, find, get, open_catalogue
from nonopress.cli import main


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path):  # type: ignore[no-untyped-def]
    if request.param == "sqlite":
        yield str(tmp_path / "catalogue.sqlite")
    else:
        yield from _postgres_database()


def _stock(folder: Path, count: int) -> None:
    folder.mkdir()
    for number in range(count):
        picture = np.zeros((5, 5), dtype=bool)
        picture[number % 5] = True
        picture[:, (number + 2) % 5] = True
        picture[4 - number % 5, 0] = True
        (folder / f"p{number}.non").write_bytes(
            write(Puzzle.from_picture(picture, Metadata(title=f"Old {number}")), "non"))


def test_set_metadata_on_many_puzzles(db_url: str, tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    _stock(tmp_path / "in", 4)
    assert main(["library", "add", str(tmp_path / "in"), "--db", db_url, "-j", "1"]) == 0
    assert main(["library", "tag", "--db", db_url, "1", "animals"]) == 0
    assert main(["library", "tag", "--db", db_url, "3", "animals"]) == 0
    capsys.readouterr()
    assert main(["library", "set", "--db", db_url, "title=Zoo {n} ({title})",
                 "author=A. Setter", "license=CC-BY-4.0", "--tag", "animals"]) == 0
    assert main(["library", "set", "--db", db_url, "source=Stock 2026", "--id", "2-4"]) == 0
    with open_catalogue(db_url) as catalogue:
        entries = {e.id: e for e in find(catalogue, Filters())}
        assert entries[1].title == "Zoo 1 (Old 0)" and entries[3].title == "Zoo 2 (Old 2)"
        assert entries[1].author == "A. Setter" and entries[1].licence == "CC-BY-4.0"
        assert entries[2].title == "Old 1" and entries[2].author == ""
        assert [entries[i].source for i in (1, 2, 3, 4)] == ["", "Stock 2026", "Stock 2026",
                                                             "Stock 2026"]
        stored = get(catalogue, "1").puzzle()  # what an issue prints and export writes
        assert (stored.title, stored.meta.author, stored.meta.license) == (
            "Zoo 1 (Old 0)", "A. Setter", "CC-BY-4.0")
        assert get(catalogue, "1").key == stored.key()  # the clues, and so the key, stand


def test_set_refuses_what_it_cannot_do(db_url: str, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    _stock(tmp_path / "in", 2)
    assert main(["library", "add", str(tmp_path / "in"), "--db", db_url, "-j", "1"]) == 0
    capsys.readouterr()
    for argv in (["colour=red", "--all"], ["author"], ["author=X"],
                 ["title={size}", "--all"], ["author=X", "--id", "99"],
                 ["author=X", "--id", "5-2"]):
        assert main(["library", "set", "--db", db_url, *argv]) == 2, argv
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1, err
    with open_catalogue(db_url) as catalogue:
        assert all(e.author == "" for e in find(catalogue, Filters()))
