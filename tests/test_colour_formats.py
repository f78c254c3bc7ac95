"""Colour files: the corpus's colour puzzles read and get the SAT peer's verdicts; every
colour-capable format round-trips; bad colour input is one clear error."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest

from grader import formats
from grader.colour.model import ColourPuzzle
from grader.colour.palette import Colour, Palette
from grader.colour.solver import solve_colour
from grader.errors import FormatError
from grader.formats import colour_capable, read_any, write_any
from grader.model import Puzzle

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
if not CORPUS.is_dir():
    CORPUS = Path("/work/shared/corpus")
COLOUR_FILES = ["pynogram/uk.txt", "pynogram/apples.txt", "olsak/acorn.g", "olsak/bird2.g",
                "olsak/rose.g", "olsak/spaceShuttle.g"]
TEXT_FORMATS = ["xml", "g", "pynogram", "yaml", "json", "non"]


def corpus_file(name: str) -> Path:
    path = CORPUS / name
    if not path.is_file():
        pytest.skip(f"corpus file {name} not present")
    return path


@pytest.mark.parametrize("name", COLOUR_FILES)
def test_corpus_colour_puzzles_read_and_match_sat(name: str) -> None:
    pytest.importorskip("pysat")
    from grader.colour.sat_peer import count_colour_solutions

    (puzzle,) = read_any(corpus_file(name))
    assert isinstance(puzzle, ColourPuzzle)
    assert puzzle.palette.size >= 2
    result = solve_colour(puzzle)
    count, solutions = count_colour_solutions(puzzle, 2)
    assert result.verdict == {0: "none", 1: "unique", 2: "multiple"}[count]
    if count == 1:
        assert np.array_equal(result.solutions[0], solutions[0])


@pytest.mark.parametrize("name", COLOUR_FILES)
@pytest.mark.parametrize("fmt", TEXT_FORMATS)
def test_corpus_colour_puzzles_round_trip(name: str, fmt: str) -> None:
    (puzzle,) = read_any(corpus_file(name))
    assert isinstance(puzzle, ColourPuzzle)
    (again,) = read_any(write_any(puzzle, fmt), format=fmt)
    assert isinstance(again, ColourPuzzle)
    assert (again.rows, again.columns) == (puzzle.rows, puzzle.columns)
    assert [c.rgb for c in again.palette.colours] == [c.rgb for c in puzzle.palette.colours]


def drawn_puzzle() -> ColourPuzzle:
    """A colour puzzle drawn here, with metadata, a non-default char set and a solution."""
    palette = Palette((Colour("red", (208, 28, 28), "r"), Colour("green", (46, 139, 58), "g"),
                       Colour("navy", (0, 0, 128), "n", "N")))
    picture = np.array([[0, 2, 2, 0, 0], [1, 1, 2, 1, 1], [1, 1, 0, 1, 1],
                        [0, 3, 3, 3, 0], [3, 0, 0, 0, 3]], dtype=np.uint8)
    puzzle = ColourPuzzle.from_picture(picture, palette)
    return puzzle.with_meta(title="Cherries & <leaves>", author="Nonopress", license="MIT")


@pytest.mark.parametrize("fmt", ["xml", "yaml", "json"])
def test_drawn_puzzle_round_trips_exactly(fmt: str) -> None:
    puzzle = drawn_puzzle()
    (again,) = read_any(write_any(puzzle, fmt), format=fmt)
    assert again == puzzle
    assert solve_colour(again).verdict == "unique"


@pytest.mark.parametrize("fmt", ["g", "pynogram", "non"])
def test_drawn_puzzle_round_trips_clues(fmt: str) -> None:
    puzzle = drawn_puzzle()
    (again,) = read_any(write_any(puzzle, fmt), format=fmt)
    assert isinstance(again, ColourPuzzle)
    assert (again.rows, again.columns) == (puzzle.rows, puzzle.columns)
    assert [c.name for c in again.palette.colours] == ["red", "green", "navy"]


def test_several_puzzles_in_one_xml_and_yaml() -> None:
    puzzles = [drawn_puzzle(), drawn_puzzle().with_meta(title="Second")]
    for fmt in ("xml", "yaml", "json"):
        again = read_any(write_any(puzzles, fmt), format=fmt)
        assert [p.title for p in again] == ["Cherries & <leaves>", "Second"]


def test_picture_with_few_colours_becomes_colour_puzzle() -> None:
    from PIL import Image

    rgb = np.full((6, 8, 3), 255, dtype=np.uint8)
    rgb[1:3, 1:4] = (220, 30, 30)     # red block
    rgb[3:5, 2:7] = (30, 30, 220)     # blue block
    rgb[0, 7] = (10, 10, 10)          # one black pixel
    buffer = io.BytesIO()
    Image.fromarray(rgb).save(buffer, format="PNG")
    (puzzle,) = read_any(buffer.getvalue(), format="png", colours=3)
    assert isinstance(puzzle, ColourPuzzle)
    names = [c.name for c in puzzle.palette.colours]
    assert names[0] == "black"  # darkest first
    assert set(names[1:]) == {"red", "blue"}
    red = puzzle.palette.index_of_name("red")
    assert puzzle.palette[red].rgb == (220, 30, 30)
    assert puzzle.rows[1] == ((3, red),)
    # without --colours the same picture stays black and white (dark pixels filled)
    (plain,) = read_any(buffer.getvalue(), format="png")
    assert isinstance(plain, Puzzle)


def test_black_and_white_files_stay_black_and_white() -> None:
    for name in ("pynogram/hello.txt", "olsak/bicycle.g"):
        (puzzle,) = read_any(corpus_file(name))
        assert isinstance(puzzle, Puzzle)
    (plain,) = read_any(b"title: t\nrows: [[1]]\ncolumns: [[1]]\n", format="yaml")
    assert isinstance(plain, Puzzle)


def test_colour_needs_a_colour_format() -> None:
    with pytest.raises(FormatError, match="cannot hold colour"):
        write_any(drawn_puzzle(), "nin")
    assert "xml" in colour_capable() and "g" in colour_capable()


@pytest.mark.parametrize(("fmt", "text", "message"), [
    ("pynogram", "[colors]\nr = (red) %\n[clues]\ncolumns = 1q\nrows = 1r\n",
     "unknown colour 'q'"),
    ("pynogram", "[colors]\nr = (nocolour) %\n[clues]\ncolumns = 1r\nrows = 1r\n",
     "cannot read 'nocolour'"),
    ("g", "#d\n   r:r red\n: rows\n2r\n: columns\n1r\n1r\n1r\n: end\n", "colour"),
    ("g", "#d\n   r:r red\n: rows\n1\n: columns\n1r\n: end\n", "no default colour"),
    ("xml", '<puzzle defaultcolor="black"><color name="red" char="r">f00</color>'
            '<clues type="rows"><line><count color="blue">1</count></line></clues>'
            '<clues type="columns"><line><count color="red">1</count></line></clues>'
            "</puzzle>", "undeclared colour 'blue'"),
    ("yaml", "palette: [{name: red, rgb: f00, char: r}]\nrows: ['1r', '1x']\ncolumns: ['2r']\n",
     "unknown colour 'x'"),
    ("json", '{"palette": [{"name": "red", "rgb": "zzz"}], "rows": [], "columns": []}',
     "cannot read rgb"),
])
def test_bad_colour_input_is_one_clear_error(fmt: str, text: str, message: str) -> None:
    with pytest.raises(FormatError, match=message) as info:
        read_any(text.encode(), format=fmt, name="bad.input")
    assert str(info.value).startswith("bad.input")


def test_triangle_colours_are_refused() -> None:
    with pytest.raises(FormatError, match="triangle"):
        read_any(corpus_file("olsak/alladin.g"))


LIBRARY = Path(__file__).resolve().parents[1] / "puzzles" / "colour"


@pytest.mark.parametrize("path", sorted(LIBRARY.glob("*.yaml")), ids=lambda p: p.stem)
def test_bundled_colour_puzzles_are_unique_and_round_trip(path: Path) -> None:
    pytest.importorskip("pysat")
    from grader.colour.sat_peer import count_colour_solutions

    (puzzle,) = read_any(path)
    assert isinstance(puzzle, ColourPuzzle) and puzzle.solution is not None
    assert count_colour_solutions(puzzle, 2)[0] == 1
    result = solve_colour(puzzle)
    assert result.verdict == "unique"
    assert np.array_equal(result.solutions[0], puzzle.solution_array())
    for fmt in ("xml", "yaml", "json"):
        (again,) = read_any(write_any(puzzle, fmt), format=fmt)
        assert again == puzzle
    for fmt in ("g", "pynogram"):
        (again,) = read_any(write_any(puzzle, fmt), format=fmt)
        assert isinstance(again, ColourPuzzle)
        assert (again.rows, again.columns) == (puzzle.rows, puzzle.columns)
    (picture,) = read_any(write_any(puzzle, "png"), format="png", colours=puzzle.colours)
    assert isinstance(picture, ColourPuzzle)
    assert solve_colour(picture).verdict == "unique"


def test_mangled_colour_files_give_format_errors_only() -> None:
    """Random edits of colour files: each reads, or fails with one FormatError; no reader
    bug leaks out (a 'reader failed' message would mean one did)."""
    import random

    rng = random.Random(5)
    samples = [(fmt, write_any(drawn_puzzle(), fmt)) for fmt in TEXT_FORMATS]
    alphabet = b"0123456789 ,:#[]=()<>/\"'\nrgbx-."
    for _ in range(400):
        fmt, data = rng.choice(samples)
        mangled = bytearray(data)
        for _ in range(rng.randint(1, 6)):
            position = rng.randrange(len(mangled))
            if rng.random() < 0.5:
                del mangled[position]
            else:
                mangled.insert(position, rng.choice(alphabet))
        try:
            read_any(bytes(mangled), format=fmt, name="mangled")
        except FormatError as exc:
            assert "reader failed" not in str(exc), (fmt, bytes(mangled), exc)


@pytest.mark.parametrize("fmt", colour_capable())
def test_one_module_reads_and_writes_both_kinds_of_each_format(fmt: str) -> None:
    """Each format is one module of grader/formats: its spec carries the colour reader and
    writer beside the black-and-white ones, and a puzzle of either kind goes through it."""
    import importlib.util

    from grader import formats
    from grader.model import rows_to_array

    assert importlib.util.find_spec("grader.colour.formats") is None  # no second house
    spec = formats.FORMATS[fmt]
    assert spec.colour is not None and spec.colour.writer is not None
    module = spec.reader.__module__
    assert module.startswith("grader.formats.")
    assert {spec.colour.reader.__module__, spec.colour.writer.__module__} <= {
        module, "grader.formats._mapping"}
    plain = Puzzle.from_picture(rows_to_array(["##.", ".##", "#.#"]))
    (again,) = read_any(write_any(plain, fmt), format=fmt)
    assert isinstance(again, Puzzle) and (again.rows, again.columns) == (plain.rows,
                                                                          plain.columns)
    colour = drawn_puzzle()
    picture = fmt in ("png", "gif", "bmp")
    (back,) = read_any(write_any(colour, fmt), format=fmt,
                       colours=colour.palette.size if picture else None)
    assert isinstance(back, ColourPuzzle)
    if picture:  # a picture numbers its colours afresh: the same cells in the same RGBs
        def cells(p: ColourPuzzle) -> list[list[tuple[int, int, int]]]:
            array = p.solution_array()
            assert array is not None
            return [[p.palette[int(v)].rgb for v in row] for row in array.tolist()]

        assert cells(back) == cells(colour)
    else:
        assert (back.rows, back.columns) == (colour.rows, colour.columns)


def test_a_colour_xml_line_longer_than_any_grid_is_refused_before_converting() -> None:
    counts = "".join(f'<count color="{"ab"[i % 2]}">1</count>' for i in range(20_000))
    text = ('<puzzleset><puzzle type="grid" defaultcolor="a"><color name="white">ffffff'
            '</color><color name="a">ff0000</color><color name="b">0000ff</color>'
            f'<clues type="rows"><line>{counts}</line></clues>'
            '<clues type="columns"><line><count>1</count></line></clues></puzzle></puzzleset>')
    with pytest.raises(FormatError, match="a clue line of 20000 blocks"):
        read_any(text.encode(), format="xml")


@pytest.mark.parametrize(("data", "colour"), [
    (b'{"title": "x", "palette": [{"name": "red", "rgb": "f00", "char": "r"}]}', True),
    (b'{"palette":[]}', True),
    (b"palette:\n  - {name: red, rgb: f00, char: r}\n", True),
    (b"puzzles:\n  - palette: [{name: red, rgb: f00, char: r}]\n", True),
    (b'"palette": [{name: red, rgb: f00, char: r}]\n', True),  # a quoted YAML key
    (b'{"title": "palette", "rows": [[1]], "columns": [[1]]}', False),  # a value, not a key
    (b"title: my palette: red\nrows: [[1]]\ncolumns: [[1]]\n", False),
])
def test_yaml_and_json_tell_a_colour_document_by_its_palette_key(data: bytes,
                                                                 colour: bool) -> None:
    for name in ("yaml", "json"):
        spec = formats.FORMATS[name].colour
        assert spec is not None and spec.looks_colour(data) is colour
