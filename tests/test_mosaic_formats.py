"""Mosaic formats: every round trip, and bad input located by file, line, row and column."""

from __future__ import annotations

import numpy as np
import pytest

from grader.errors import FormatError
from grader.model import Metadata
from grader.mosaic import formats
from grader.mosaic_model import MosaicPuzzle

PICTURE = np.array([[0, 1, 1, 0, 0], [1, 1, 1, 1, 0], [0, 1, 0, 1, 1], [0, 0, 0, 1, 1]],
                   dtype=bool)


def sample() -> MosaicPuzzle:
    shown = np.ones(PICTURE.shape, dtype=bool)
    shown[0, 0] = shown[2, 2] = shown[3, 4] = False
    return MosaicPuzzle.from_picture(PICTURE, shown, Metadata(title="Zig: zag", author="Ann"))


@pytest.mark.parametrize("name", ["yaml", "json"])
def test_text_forms_round_trip_clues_solution_and_metadata(name: str) -> None:
    puzzle = sample()
    (back,) = formats.read(formats.write(puzzle, name), format=name)
    assert back == puzzle
    assert back.meta.title == "Zig: zag"


def test_json_holds_several_mosaics() -> None:
    first, second = sample(), MosaicPuzzle.from_rows(["0.", ".0"])
    assert formats.read(formats.write([first, second], "json"), format="json") == [first, second]


def test_yaml_rows_of_digits_stay_text_even_unquoted() -> None:
    data = b"kind: mosaic\ntitle: T\nclues:\n  - 0120\n  - 0.1.\n"
    (puzzle,) = formats.read(data, name="t.yaml")
    assert puzzle.rows_text() == ["0120", "0.1."]


def test_yaml_bad_clue_names_file_line_row_and_column() -> None:
    data = b"kind: mosaic\nclues:\n  - \"...\"\n  - \".9.\"\n"
    with pytest.raises(FormatError) as caught:
        formats.read(data, name="bad.yaml")
    assert str(caught.value) == ("bad.yaml:4: row 2, column 2: clue 9 cannot fit its block "
                                 "of 6 cells")


def test_yaml_ragged_rows_and_non_digits_are_located() -> None:
    with pytest.raises(FormatError, match=r"^r.yaml:5: row 3 has 2 cells but row 1 has 3"):
        formats.read(b"kind: mosaic\nclues:\n  - '...'\n  - '...'\n  - '..'\n", name="r.yaml")
    with pytest.raises(FormatError, match=r"^n.yaml:3: row 1, column 3: '\?' is neither"):
        formats.read(b"kind: mosaic\nclues:\n  - '..?'\n", name="n.yaml")


def test_yaml_refuses_another_kind_and_unknown_keys() -> None:
    with pytest.raises(FormatError, match="'kind' must be 'mosaic'"):
        formats.read(b"kind: nonogram\nclues: ['.']\n", name="k.yaml")
    with pytest.raises(FormatError, match="unknown key 'colour'"):
        formats.read(b"kind: mosaic\nclues: ['.']\ncolour: red\n", name="k.yaml")


def test_game_id_letters_are_runs_of_clueless_cells() -> None:
    (puzzle,) = formats.read(b"3x3:4b2c3a\n", format="tatham")
    assert puzzle.rows_text() == ["4..", "2..", ".3."]
    (spaced,) = formats.read(b"3x3a0:4  2   3 \n", format="tatham")  # early versions
    assert spaced.clues == puzzle.clues


def test_game_id_round_trips_and_splits_runs_longer_than_26() -> None:
    rows = ["." * 30, "1" + "." * 29]
    puzzle = MosaicPuzzle.from_rows(rows)
    assert formats.game_id(puzzle) == "30x2:zd1zc"
    (back,) = formats.read(b"30x2:zd1zc\n", format="tatham")
    assert back.rows_text() == rows
    (sampled,) = formats.read(formats.write(sample(), "tatham"), format="tatham")
    assert sampled.clues == sample().clues


def test_an_absurd_game_id_size_is_refused_before_allocating() -> None:
    with pytest.raises(FormatError, match=r"^big.mosaic:1: 4096x4096 has more than"):
        formats.read(b"4096x4096:z\n", name="big.mosaic")
    with pytest.raises(FormatError, match="absurdly large"):
        formats.read(b"99999999x2:z\n", name="big.mosaic")


def test_game_id_of_the_wrong_length_is_located() -> None:
    with pytest.raises(FormatError, match=r"^ids.mosaic:2: the description holds 8 cells"):
        formats.read(b"# two\n3x3:4b2c3\n", name="ids.mosaic")


@pytest.mark.parametrize("name", ["picture", "pbm", "png"])
def test_pictures_carry_the_solution_and_read_back_with_every_clue(name: str) -> None:
    (back,) = formats.read(formats.write(sample(), name), format=name)
    assert back.solution == sample().solution
    assert back.clue_count() == PICTURE.size
    assert back.satisfied_by(PICTURE)


def test_a_picture_needs_a_solution() -> None:
    with pytest.raises(FormatError, match="has none yet"):
        formats.write(MosaicPuzzle.from_rows(["0"]), "png")


def test_detection_by_content() -> None:
    puzzle = sample()
    for name in ("yaml", "json", "tatham", "pbm", "png"):
        assert formats.detect(formats.write(puzzle, name)).name == name


@pytest.mark.parametrize("data, message", [
    (b"kind: mosaic\nclues:\n  - '..'\n  - [1, 2]\n", r"^h.yaml:4: row 2: None is not a row"),
    (b"kind: mosaic\nclues: 12\n", r"^h.yaml:2: 'clues' must be a non-empty list"),
    (b"kind: mosaic\nclues: []\n", r"^h.yaml:2: 'clues' must be a non-empty list"),
    (b"kind: mosaic\n", r"^h.yaml:1: a mosaic needs 'clues'"),
    (b"- 1\n- 2\n", r"^h.yaml:1: a mosaic must be a mapping"),
    (b"kind: mosaic\nclues: ['.']\ntitle: [x]\n", r"'title' must be text"),
])
def test_hostile_yaml_is_one_located_line(data: bytes, message: str) -> None:
    with pytest.raises(FormatError, match=message):
        formats.read(data, name="h.yaml")
