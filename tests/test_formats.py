"""Each format reads what the field writes: known clues, metadata, orientation, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from grader import formats
from grader.errors import FormatError
from grader.model import Puzzle

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
DATA = Path(__file__).resolve().parent / "data" / "formats"


def corpus(name: str) -> Path:
    path = CORPUS / name
    if not path.exists():
        pytest.skip(f"the public corpus is not at {CORPUS}")
    return path


def read_text(text: str, format: str | None = None, name: str = "t") -> list[Puzzle]:
    return formats.read(text.encode(), format=format, name=name)


def error_of(text: str | bytes, format: str | None = None) -> FormatError:
    data = text.encode() if isinstance(text, str) else text
    with pytest.raises(FormatError) as info:
        formats.read(data, format=format, name="bad")
    return info.value


# -- registry and detection -----------------------------------------------------------------
def test_registry_describes_every_format() -> None:
    assert {"yaml", "json", "non", "nin", "xml", "g", "mk", "pbm", "pbm4", "png", "gif", "bmp",
            "tatham", "pynogram", "taai", "picture", "picross"} <= set(formats.FORMATS)
    for name, spec in formats.FORMATS.items():
        assert spec.name == name and spec.can_read and spec.description
        assert all(s.startswith(".") for s in spec.suffixes)
    assert formats.FORMATS["non"].holds_many and not formats.FORMATS["nin"].holds_many
    assert formats.FORMATS["png"].can_write


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("webpbn/1.non", "non"), ("jwilk/data000.nin", "nin"), ("olsak/owl.mk", "mk"),
        ("olsak/bicycle.g", "g"), ("patterns/test.pbm", "pbm"),
        ("patterns/test_pattern_01.txt", "picross"), ("patterns/note.txt", "picture"),
        ("patterns/rand11.txt", "picture"), ("pynogram/p.txt", "pynogram"),
        ("tournaments/question/taai2011.txt", "taai"),
        ("tournaments/solution/taai2011.txt", "picture"),
    ],
)
def test_detection_by_suffix_and_content(name: str, expected: str) -> None:
    data = corpus(name).read_bytes()
    assert formats.detect(data, name).name == expected
    assert formats.detect(data).name == expected  # content alone


def test_detection_failure_and_unknown_format() -> None:
    assert "cannot tell the format" in str(error_of("just some words\nand more"))
    assert "unknown format 'docx'" in str(error_of("x", format="docx"))
    assert "empty input" in str(error_of(""))


def test_missing_file() -> None:
    with pytest.raises(FormatError, match=r"nope\.non: cannot read"):
        formats.read_file("nope.non")


def test_write_refuses_many_puzzles_in_a_single_puzzle_format() -> None:
    heart = formats.read_file(DATA / "heart.yaml")[0]
    with pytest.raises(FormatError, match="holds one puzzle"):
        formats.write([heart, heart], "nin")
    with pytest.raises(FormatError, match="square puzzles only"):
        formats.write(heart, "taai")


# -- the project's YAML ---------------------------------------------------------------------
def test_yaml_heart_with_extra_keys() -> None:
    (heart,) = formats.read_file(DATA / "heart.yaml")
    assert heart.rows == ((2, 2), (7,), (5,), (3,), (1,))
    assert heart.columns == ((1,), (3,), (4,), (4,), (4,), (3,), (1,))
    assert heart.solution is not None and heart.solution[1] == "#######"
    assert (heart.title, heart.meta.author, heart.meta.license) == ("Heart", "Nonopress", "MIT")


def test_yaml_solution_alone_derives_clues_and_lists_of_rows() -> None:
    (puzzle,) = read_text("title: Bar\nsolution: ['##.', '..#']\n")
    assert puzzle.rows == ((2,), (1,)) and puzzle.columns == ((1,), (1,), (1,))
    (same,) = read_text("rows: [[2], [1]]\ncolumns: [[1], [1], [1]]\nsolution: |\n  ##.\n  ..#\n")
    assert same.solution == puzzle.solution


def test_yaml_several_puzzles_and_empty_lines() -> None:
    puzzles = read_text("puzzles:\n  - rows: [[1], []]\n    columns: [[1]]\n"
                        "  - rows: [[0], [1]]\n    columns: [[1]]\n")
    assert [p.rows for p in puzzles] == [((1,), ()), ((), (1,))]


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("title: x\nrows: [[1]]\ncolumns: [[1]]\ncolour: red\n", 4, "unknown key 'colour'"),
        ("rows: [[1]]\ncolumns: [[1], [1]]\n", 1, "row clues fill 1 cells but column"),
        ("rows: [[1]]\ncolumns: [[1]]\nsolution: |\n  ?\n", 3, "use '#' (filled)"),
        ("rows: [[1]]\ncolumns: [[x]]\n", 2, "column 1: 'x' is not a whole number"),
        ("rows: [[1]\ncolumns: [[1]]\n", 2, "not valid YAML"),
        ("puzzles:\n  - rows: [[1]]\n    columns: [[1]]\n  - rows: [[1]]\n", 4, "puzzle 2"),
        ("title: x\n", 1, "rows missing"),
    ],
)
def test_yaml_errors_name_the_line(text: str, line: int, words: str) -> None:
    error = error_of(text, "yaml")
    assert error.line == line and words in error.message and error.source == "bad"


# -- JSON -----------------------------------------------------------------------------------
def test_json_object_array_and_lines() -> None:
    one = {"title": "A", "rows": [[1]], "columns": [[1]]}
    two = {"rows": [[0]], "columns": [[]], "solution": ["."]}
    for text in (json.dumps(one), json.dumps([one, two]), json.dumps(one) + "\n" +
                 json.dumps(two), json.dumps({"puzzles": [one, two]})):
        puzzles = read_text(text, name="x.json")
        assert puzzles[0].title == "A" and puzzles[0].rows == ((1,),)
    good = '{"rows": [[1]], "columns": [[1]]}'
    error = error_of(good + "\n" + good[:-1] + ', "x": 1}\n', "json")
    assert error.line == 2 and "unknown key 'x'" in error.message


# -- Simpson .non ---------------------------------------------------------------------------
def test_non_webpbn_dancer() -> None:
    (dancer,) = formats.read_file(corpus("webpbn/1.non"))
    assert dancer.size == "5x10"
    assert dancer.rows[:3] == ((2,), (2, 1), (1, 1)) and dancer.columns[2] == (7,)
    assert dancer.meta.source == "webpbn.com #1" and dancer.meta.license == "CC-BY-3.0"
    assert dancer.meta.author == "Jan Wolter" and dancer.title == "Dancer"
    assert dancer.solution is not None and dancer.solution[0] == ".##.."


def test_non_html_escapes_are_decoded() -> None:
    (edge,) = formats.read_file(corpus("webpbn/webpbn-00023-edge.non"))
    assert edge.meta.copyright == "© Copyright 2004 by Jan Wolter"


def test_non_bundle_and_errors() -> None:
    text = "width 1\nheight 1\nrows\n1\ncolumns\n1\n====\ntitle \"B\"\nwidth 1\nheight 1\n" \
           "rows\n0\ncolumns\n\n"
    puzzles = read_text(text, "non")
    assert [p.rows for p in puzzles] == [((1,),), ((),)] and puzzles[1].title == "B"
    assert error_of("rows\n1\n", "non").message == "rows before width and height"
    assert error_of("width 2\nheight 1\nrows\n1a,1b\n", "non").line == 4
    assert "colour" in error_of("width 2\nheight 1\nrows\n1a,1b\n", "non").message
    error = error_of("width 2\nheight 2\nrows\n1\n", "non")
    assert "file ends before 2 clues" in error.message and error.line == 3
    assert "goal has 3 cells" in error_of(
        'width 2\nheight 1\nrows\n1\ncolumns\n1\n0\ngoal "101"\n', "non").message


# -- Wilk .nin, Olsak .mk and .g: orientation -----------------------------------------------
def test_nin_is_width_height_then_rows() -> None:
    (puzzle,) = formats.read_file(corpus("jwilk/data002.nin"))
    assert (puzzle.width, puzzle.height) == (20, 25)
    first_lines = corpus("jwilk/data002.nin").read_text().splitlines()
    assert " ".join(map(str, puzzle.rows[0])) == first_lines[1].strip()


def test_nin_ignores_a_tail_after_the_clues() -> None:
    (puzzle,) = formats.read_file(corpus("jwilk/data142.nin"))
    assert puzzle.size == "25x20"


def test_mk_is_height_width_then_rows() -> None:
    (owl,) = formats.read_file(corpus("olsak/owl.mk"))
    assert (owl.height, owl.width) == (60, 50)
    assert "header says" in error_of("2 1\n1\n#\n1\n", "mk").message


def test_g_sections_title_and_colour_refusal() -> None:
    (bicycle,) = formats.read_file(corpus("olsak/bicycle.g"))
    assert bicycle.title == "Bicykl" and bicycle.size == "20x20"
    assert bicycle.rows[0] == (3,) and bicycle.columns[0] == (7,)
    error = error_of(corpus("olsak/acorn.g").read_bytes(), "g")
    assert "colour puzzles are not supported" in error.message and error.line == 2


# -- picross-solver text, pynogram, TAAI ----------------------------------------------------
def test_picross_grids() -> None:
    puzzles = formats.read_file(corpus("domino/domino_logic.txt"))
    assert [p.title for p in puzzles] == [f"{n}-Dom" for n in range(3, 10)]
    (note,) = formats.read_file(corpus("patterns/test_pattern_01.txt"))
    assert note.rows[-1] == () and note.columns[0] == ()


def test_invalid_picross_input_is_refused_at_its_line() -> None:
    with pytest.raises(FormatError) as info:
        formats.read_file(corpus("patterns/invalid_input.txt"))
    assert info.value.line == 2 and "row clues fill 153 cells" in info.value.message


def test_pynogram_clues_and_colour_refusal() -> None:
    (p,) = formats.read_file(corpus("pynogram/p.txt"))
    assert p.size == "8x11" and p.columns[:4] == ((), (9,), (9,), (2, 2))
    (five,) = read_text("[clues]\ncolumns=3 1,1 1 1,1 1 1,1 3\nrows=4,1,4,1,4 ; comment\n",
                        "pynogram")
    assert five.rows == ((4,), (1,), (4,), (1,), (4,)) and five.columns[0] == (3, 1)
    for name in ("pynogram/apples.txt", "pynogram/uk.txt", "pynogram/hello.txt"):
        with pytest.raises(FormatError, match="colour puzzles are not supported"):
            formats.read_file(corpus(name))


def test_taai_columns_come_first_as_the_published_solutions_show() -> None:
    for name in ("taai2011.txt", "icga2023.txt"):
        questions = formats.read_file(corpus(f"tournaments/question/{name}"))
        solutions = formats.read_file(corpus(f"tournaments/solution/{name}"))
        assert len(questions) == len(solutions) == 1000
        for question, solved in zip(questions, solutions, strict=True):
            assert (question.rows, question.columns) == (solved.rows, solved.columns)


# -- Tatham, pictures -----------------------------------------------------------------------
def test_tatham_game_ids() -> None:
    (puzzle,) = read_text("3x2:2/1/1/1.1/2", "tatham")
    assert puzzle.columns == ((2,), (1,), (1,)) and puzzle.rows == ((1, 1), (2,))
    (square,) = read_text("2:/1/1/,a3", "tatham")  # square shorthand, hints ignored
    assert square.columns == ((), (1,)) and square.rows == ((1,), ())
    assert "3 clues for a 2x2 grid" in error_of("2x2:1/1/1", "tatham").message


def test_pbm_p4_and_p1() -> None:
    (p4,) = formats.read_file(corpus("patterns/test.pbm"))
    assert p4.solution is not None and p4.solution[0] == "#########"
    assert p4.solution[1] == "#.......#"
    (p1,) = read_text("P1\n# a comment\n3 2\n1 0 1\n011\n", "pbm")
    assert p1.solution == ("#.#", ".##")
    assert "ends after 5 of 6 pixels" in error_of("P1\n3 2\n10101", "pbm").message


def test_picture_text() -> None:
    (note,) = formats.read_file(corpus("patterns/note.txt"))
    assert note.solution is not None and note.solution[0] == "...###"
    two = read_text("#.\n.#\n\n1 1\n0 0\n", "picture")
    assert [p.solution for p in two] == [("#.", ".#"), ("##", "..")]
    assert error_of("#.\n#\n", "picture").line == 2


RING = [".####.", "#....#", "#....#", "#....#", ".####."]


@pytest.mark.parametrize(
    "drawing",
    [
        " #### \n#    #\n#    #\n#    #\n #### \n",  # spaces for empty cells
        " ####\n#    #\n#    #\n#    #\n ####\n",  # trailing spaces dropped by an editor
        ".####.\n#....#\n#....#\n#....#\n.####.\n",  # dots
        ". # # # # .\n# . . . . #\n# . . . . #\n# . . . . #\n. # # # # .\n",  # separated
    ],
)
def test_a_ring_drawn_with_spaces_reads_as_the_6x5_ring(drawing: str) -> None:
    (ring,) = read_text(drawing)  # detected by content, as `nonopress grade ring.txt` does
    assert ring.size == "6x5"
    assert ring.solution == tuple(RING)


def test_a_line_of_spaces_inside_a_drawing_is_an_empty_row() -> None:
    (picture,) = read_text("#  #\n    \n#  #\n", "picture")
    assert picture.solution == ("#..#", "....", "#..#")
    two = read_text("##\n\n#.\n", "picture")  # an empty line still separates pictures
    assert [p.size for p in two] == ["2x1", "2x1"]


# -- webpbn XML -----------------------------------------------------------------------------
WEBPBN = """<?xml version="1.0"?>
<!DOCTYPE pbn SYSTEM "https://webpbn.com/pbn-0.3.dtd">
<puzzleset>
<puzzle type="grid" defaultcolor="black">
<source>webpbn.com</source>
<id>#8</id>
<title>Bar</title>
<author>Someone</author>
<color name="white" char=".">fff</color>
<color name="black" char="X">000</color>
<clues type="columns"><line><count>1</count></line><line></line></clues>
<clues type="rows"><line><count>1</count></line><line></line></clues>
<solution type="goal"><image>
|X.|
|..|
</image></solution>
</puzzle>
</puzzleset>
"""


def test_webpbn_xml() -> None:
    (puzzle,) = read_text(WEBPBN, name="x.xml")
    assert puzzle.meta.source == "webpbn.com #8" and puzzle.title == "Bar"
    assert puzzle.rows == ((1,), ()) and puzzle.solution == ("#.", "..")
    error = error_of(WEBPBN.replace("<line></line></clues>\n<solution", "</clues>\n<solution"),
                     "xml")
    assert "row clues fill 1 cells" in error.message or "not 2x1" in error.message


def test_verdict_keys_match_file_and_index() -> None:
    """``verdicts.json`` keys are ``path`` or ``path#N`` (1-based), as LoadedPuzzle labels."""
    verdicts = json.loads(corpus("verdicts.json").read_text())
    counts: dict[str, int] = {}
    for key in verdicts:
        path, _, index = key.partition("#")
        if path not in counts:
            counts[path] = len(formats.read_file(CORPUS / path))
        if index:
            assert counts[path] > 1 and 1 <= int(index) <= counts[path], key
        else:
            assert counts[path] == 1, key
    assert counts["tournaments/question/taai2011.txt"] == 1000


def test_yaml_writer_is_readable() -> None:
    heart = formats.read_file(DATA / "heart.yaml")[0]
    assert formats.write(heart, "yaml").decode() == (
        "title: Heart\nauthor: Nonopress\nlicense: MIT\n"
        "rows:\n  - [2, 2]\n  - [7]\n  - [5]\n  - [3]\n  - [1]\n"
        "columns:\n  - [1]\n  - [3]\n  - [4]\n  - [4]\n  - [4]\n  - [3]\n  - [1]\n"
        "solution: |\n  .##.##.\n  #######\n  .#####.\n  ..###..\n  ...#...\n"
    )
    odd = heart.with_meta(title="null", author="#1: a 'quote'", source="")
    text = formats.write(odd, "yaml").decode()
    assert 'title: "null"' in text
    assert formats.read(text.encode(), format="yaml")[0] == odd


def test_non_writer_output() -> None:
    heart = formats.read_file(DATA / "heart.yaml")[0].with_meta(copyright='"A" & B')
    text = formats.write(heart, "non").decode()
    assert text.startswith('title "Heart"\nby "Nonopress"\ncopyright "&quot;A&quot; &amp; B"\n'
                           "license MIT\nwidth 7\nheight 5\n\nrows\n2,2\n7\n")
    assert 'goal "01101101111111011111000111000001000"' in text


def test_a_misspelt_non_heading_is_named_at_its_line_with_a_suggestion() -> None:
    text = 'title "Typo"\nwidth 3\nheight 3\n\nrows\n1\n1\n1\n\ncolums\n1\n1\n1\n'
    error = error_of(text, "non")
    assert error.line == 10
    assert "did you mean 'columns'?" in error.message and "'colums'" in error.message
    assert error_of("width 2\nheight 1\nrow\n2\ncolumns\n1\n1\n", "non").line == 3
    # a missing section with no near miss keeps the plain message
    assert error_of("width 2\nheight 1\ncolumns\n1\n1\n", "non").message == "no rows section"


def test_a_format_module_the_registry_does_not_name_is_found_by_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A new format is its module and its test: the registry finds its SPEC (or SPECS),
    passing over the modules it names and the private ones."""
    package = tmp_path / "morefmts"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "_helpers.py").write_text("SPEC = 'a helper, never a format'\n")
    (package / "named.py").write_text("SPEC = 'named already'\n")
    (package / "toy.py").write_text(
        "from grader.formats.nin import SPEC as NIN\n"
        "from dataclasses import replace\n"
        "SPEC = replace(NIN, name='toy', suffixes=('.toy',))\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    found = formats._found_specs([str(package)], "morefmts", {"named"})
    assert [spec.name for spec in found] == ["toy"]
    assert [s.name for s in formats._SPECS][-4:] == ["mk", "nin", "picture", "pbm4"]


def test_the_lazy_table_names_each_format_as_its_module_does() -> None:
    # grader.formats lists name, suffixes and module of each format so that reading a file
    # loads its own reader alone (issue 58): the list must say what the modules say
    import importlib

    for name, suffixes, module, attribute in formats._TABLE + formats._LOOSE:
        spec = getattr(importlib.import_module(f"grader.formats.{module}"), attribute)
        assert (spec.name, spec.suffixes) == (name, suffixes)
    assert list(formats.FORMAT_NAMES) == [spec.name for spec in formats._SPECS]
    assert formats._EXTRA == ()  # every module of the package is in the table
    from grader.formats import pictures

    assert formats.PICTURE_FORMATS == pictures.PICTURE_FORMATS
