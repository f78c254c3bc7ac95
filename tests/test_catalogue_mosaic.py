"""Mosaics in the catalogue (``nonopress library``): stored with their kind, graded by the
batch machinery, and one puzzle added again turned or mirrored found as a duplicate (its
clue grid under the 8 symmetries of the square). SQLite here, PostgreSQL as well under CI
(``NONOPRESS_TEST_POSTGRES_URL``, as tests/test_catalogue.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from test_catalogue import _postgres_database

from grader.mosaic import formats
from grader.mosaic_model import MosaicPuzzle
from nonopress.catalogue import Filters, duplicates, find, open_catalogue
from nonopress.catalogue.database import Catalogue
from nonopress.catalogue.history import design_key
from nonopress.catalogue.importing import ImportOptions, add_files

FOLDER = Path(__file__).resolve().parents[1] / "puzzles" / "mosaic"


@pytest.fixture(params=["sqlite", "postgresql"])
def catalogue(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Catalogue]:
    if request.param == "sqlite":
        url = str(tmp_path / "catalogue.sqlite")
        with open_catalogue(url) as opened:
            yield opened
    else:
        for url in _postgres_database():
            with open_catalogue(url) as opened:
                yield opened


def _images(puzzle: MosaicPuzzle) -> list[MosaicPuzzle]:
    """The puzzle's seven other images: its clue grid (and picture) turned and mirrored."""
    clues = np.array([[" " if v is None else str(v) for v in row] for row in puzzle.clues])
    picture = puzzle.solution_array()
    assert picture is not None
    found = []
    for turns in range(4):
        for flip in (False, True):
            if turns == 0 and not flip:
                continue
            c, p = np.rot90(clues, turns), np.rot90(picture, turns)
            if flip:
                c, p = c[:, ::-1], p[:, ::-1]
            rows = ["".join("." if ch == " " else ch for ch in row) for row in c]
            found.append(MosaicPuzzle.from_rows(rows).with_solution(p))
    return found


def _write(folder: Path, name: str, puzzle: MosaicPuzzle) -> Path:
    path = folder / f"{name}.yaml"
    path.write_bytes(formats.write([puzzle.with_meta(title=name)], "yaml"))
    return path


def test_mosaics_are_stored_with_their_kind_and_graded(catalogue: Catalogue) -> None:
    files = sorted(str(p) for p in FOLDER.glob("*.yaml"))
    summary = add_files(catalogue, files, ImportOptions(jobs=1, timeout_s=60))
    assert summary.unreadable == () and summary.added == summary.read == len(files)
    found = find(catalogue, Filters(kind="mosaic"))
    assert len(found) == len(files)
    assert {e.kind for e in found} == {"mosaic"}
    assert all(e.level in ("easy", "medium", "hard") and e.stars for e in found)
    assert duplicates(catalogue, near=0) == []  # distinct bundled mosaics are not flagged


def test_a_mosaic_added_again_turned_or_mirrored_is_the_same_puzzle(
        catalogue: Catalogue, tmp_path: Path) -> None:
    (heart,) = formats.read(FOLDER / "heart.yaml")
    (fish,) = formats.read(FOLDER / "fish.yaml")
    paths = [_write(tmp_path, "heart", heart), _write(tmp_path, "fish", fish)]
    images = _images(heart)
    assert len({image.key() for image in images} | {heart.key()}) == 8  # all distinct grids
    paths += [_write(tmp_path, f"heart-{n}", image) for n, image in enumerate(images)]
    add_files(catalogue, [str(p) for p in paths], ImportOptions(jobs=1, timeout_s=60))
    pairs = duplicates(catalogue, near=0)
    assert len(pairs) == 7
    assert {p.first.title for p in pairs} == {"heart"}
    assert {p.second.title for p in pairs} == {f"heart-{n}" for n in range(7)}
    assert design_key(fish) != design_key(heart)


def test_another_clue_set_of_the_same_picture_is_another_puzzle() -> None:
    (heart,) = formats.read(FOLDER / "heart.yaml")
    picture = heart.solution_array()
    assert picture is not None
    every_clue = MosaicPuzzle.from_picture(picture)
    assert design_key(every_clue) != design_key(heart)
    # a digit changed is another puzzle too, though the grid's shape is the same
    rows = heart.rows_text()
    rows[0] = rows[0].replace("5", "4", 1)
    assert design_key(MosaicPuzzle.from_rows(rows)) != design_key(heart)
