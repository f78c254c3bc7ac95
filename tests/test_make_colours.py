"""``make --colours N`` (issue 36, item 7): the puzzle has the size asked (not the picture's
pixels), is unique, and two colours that would print alike are warned about."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from grader.authoring.colour_make import alike_colours, make_colour
from grader.colour.model import ColourPuzzle
from grader.colour.palette import Colour, Palette
from grader.colour.solver import solve_colour
from grader.formats import read_any
from nonopress.cli import main


def scene(path: Path) -> Path:
    """A 300x200 drawing: a red disc, a blue square, a green bar on white."""
    image = Image.new("RGB", (300, 200), "white")
    draw = ImageDraw.Draw(image)
    draw.ellipse((40, 30, 160, 170), fill=(200, 30, 30))
    draw.rectangle((170, 60, 260, 150), fill=(20, 40, 160))
    draw.rectangle((100, 150, 200, 190), fill=(30, 150, 40))
    image.save(path)
    return path


def make_scene(tmp_path: Path, output: Path, *options: str) -> int:
    """``nonopress make scene.png --size 24x24 --colours 3 -q -o OUTPUT [options]``."""
    return main(["make", str(scene(tmp_path / "scene.png")), "--size", "24x24", "--colours",
                 "3", "-q", "-o", str(output), *options])


def test_colours_keep_the_size_asked_and_are_unique(tmp_path: Path) -> None:
    made = make_colour(scene(tmp_path / "scene.png"), 30, 30, 3, seconds=30)
    puzzle = made.puzzle
    assert puzzle.width <= 30 and puzzle.height <= 30  # not 300x200
    assert puzzle.palette.size == 3 and made.unique
    assert solve_colour(puzzle).verdict == "unique"
    # trimmed: every edge line holds a colour
    assert puzzle.solution is not None
    rows = puzzle.solution
    background = puzzle.palette.background.char
    assert rows[0].strip(background) and rows[-1].strip(background)
    assert any(r[0] != background for r in rows) and any(r[-1] != background for r in rows)


def test_colours_that_print_alike_are_warned_about() -> None:
    browns = Palette((Colour("brown", (120, 80, 40), "b"), Colour("umber", (130, 85, 45), "u"),
                      Colour("black", (0, 0, 0), "#")))
    (warning,) = alike_colours(browns)
    assert "brown" in warning and "umber" in warning and "print alike" in warning
    distinct = Palette((Colour("black", (0, 0, 0), "#"), Colour("yellow", (250, 220, 0), "y")))
    assert alike_colours(distinct) == []


def test_make_colours_command_writes_a_colour_puzzle(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "scene.yaml"
    assert make_scene(tmp_path, out) == 0
    report = capsys.readouterr().out
    assert "3 colours" in report and "unique" in report
    (puzzle,) = read_any(out)
    assert isinstance(puzzle, ColourPuzzle) and puzzle.width <= 24
    assert main(["make", str(tmp_path / "scene.png"), "--size", "24x24", "--colours", "99",
                 "-q"]) == 2
    assert "must be 1 to" in capsys.readouterr().err
    # a format without colour refuses it in one line naming the file, and writes nothing
    assert make_scene(tmp_path, tmp_path / "scene.nin") == 2
    err = capsys.readouterr().err
    assert "scene.nin" in err and "cannot hold colour" in err and len(err.splitlines()) == 1
    assert not (tmp_path / "scene.nin").exists()


def test_make_colours_reports_like_black_and_white(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One result type for both kinds: ``--json`` and ``--preview`` work for colour too."""
    import json

    out, preview = tmp_path / "scene.json", tmp_path / "preview.png"
    assert make_scene(tmp_path, out, "--json", "--preview", str(preview)) == 0
    record = json.loads(capsys.readouterr().out)
    (puzzle,) = read_any(out)
    assert isinstance(puzzle, ColourPuzzle)
    assert record["verdict"] == "unique" and record["colours"] == 3
    assert record["size"] == puzzle.size and record["output"] == str(out)
    assert [c["name"] for c in record["palette"]] == [c.name for c in puzzle.palette.colours]
    assert record["level"] and record["stars"] in range(1, 6) and record["givens"] == []
    # the preview paints the solution in the palette's colours, not in black
    with Image.open(preview) as image:
        seen = {rgb for _, rgb in image.convert("RGB").getcolors(1 << 16)}
    assert {c.rgb for c in puzzle.palette.colours} <= seen

