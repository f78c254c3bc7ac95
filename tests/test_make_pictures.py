"""``make`` on pictures as an editor brings them (issue 36, items 1-4), from art drawn here:
a non-square photo padded, an inverted one, margins trimmed, a logo steered within
``--max-change``."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw

from grader import formats
from grader.authoring import Target, author, binarise
from grader.authoring.picture import load_grey, trim_empty_edges, trimmed_sides
from grader.authoring.steer import MAX_CHANGE, change_limit
from grader.diagnose import empty_borders
from grader.errors import PuzzleError
from nonopress.cli import main
from nonopress.commands import make as make_command


def png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def photo(width: int = 300, height: int = 200) -> Image.Image:
    """A 'photo' in mid greys with no white at all: a dark cat on a grey floor, a lighter
    wall (as chelsea.png: everything darker than white padding)."""
    image = Image.new("L", (width, height), 170)  # the wall
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, height * 2 // 3, width, height), fill=120)  # the floor
    draw.ellipse((width // 4, height // 4, width * 3 // 4, height), fill=50)  # the cat
    return image


def test_otsu_uses_the_pictures_own_pixels_not_the_padding() -> None:
    result = binarise(load_grey(png(photo())), 40, 40)
    picture = result.picture
    rows = np.flatnonzero(picture.any(axis=1))
    # the 3:2 photo padded into 40x40 is 27 rows: its rows are not one solid block
    inner = picture[7:34]
    assert 0.1 < inner.mean() < 0.9, result.method
    assert not picture[:6].any() and not picture[-6:].any()
    assert rows.size < 27 or not inner.all()
    # the threshold separates the cat (50) from wall and floor (120, 170): 50 < t <= 120
    level = float(result.method.split()[2].rstrip(","))
    assert 50 < level <= 121, result.method


def test_invert_never_inverts_the_padding() -> None:
    result = binarise(load_grey(png(photo())), 40, 40, invert=True)
    picture = result.picture
    assert "inverted" in result.method
    assert not picture[:6].any() and not picture[-6:].any()  # white bands stay empty
    # the bug filled the bands: a full bottom row '40' and every column clue ending in 1
    assert not picture[-1].any() and not picture[33:].any()
    assert 0.1 < picture[7:34].mean() < 0.9


def margins(width: int = 400, height: int = 400) -> Image.Image:
    """A small black star-ish shape in the middle of a wide white page."""
    image = Image.new("L", (width, height), 255)
    draw = ImageDraw.Draw(image)
    draw.polygon([(150, 120), (260, 160), (230, 280), (140, 250)], fill=0)
    draw.rectangle((180, 100, 200, 300), fill=0)
    return image


def test_trim_cuts_empty_margins_and_fits_the_picture_again() -> None:
    grey = load_grey(png(margins()))
    untrimmed = binarise(grey, 30, 30).picture
    assert not untrimmed[0].any() and not untrimmed[:, 0].any()  # the defect: empty edges
    trimmed = binarise(grey, 30, 30, trim=("top", "bottom", "left", "right"))
    picture = trimmed.picture
    assert picture.shape[0] <= 30 and picture.shape[1] <= 30
    for edge in (picture[0], picture[-1], picture[:, 0], picture[:, -1]):
        assert edge.any()
    # fitted again, the shape nearly fills the grid (untrimmed it was 20 rows tall)
    assert picture.shape[0] >= 27 and "trimmed to" in trimmed.method
    # sides the editor keeps are not trimmed
    kept = binarise(grey, 30, 30, trim=trimmed_sides("top,bottom")).picture
    assert kept.shape[0] == 30 and not kept[0].any()
    assert kept[:, 0].any() and kept[:, -1].any()


def test_trim_keeps_two_lines_and_refuses_blank_pictures() -> None:
    dot = np.zeros((5, 5), dtype=bool)
    dot[2, 2] = True
    assert trim_empty_edges(dot).shape == (2, 2)
    assert trimmed_sides("all") == () and trimmed_sides("") == ("top", "bottom", "left", "right")
    with pytest.raises(PuzzleError, match="unknown side"):
        trimmed_sides("middle")
    blank = load_grey(png(Image.new("L", (50, 50), 255)))
    with pytest.raises(PuzzleError, match="no cell is filled"):
        binarise(blank, 10, 10, trim=("top",))


def test_make_command_trims_by_default_and_no_trim_keeps_the_size(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    picture = tmp_path / "shape.png"
    margins().save(picture)
    out = tmp_path / "shape.yaml"
    assert main(["make", str(picture), "--size", "20x20", "-q", "-o", str(out)]) == 0
    puzzle = formats.read(out)[0]
    assert empty_borders(puzzle) == "" and puzzle.height == 20 and puzzle.width < 20
    assert "trimmed to" in capsys.readouterr().out
    assert main(["make", str(picture), "--size", "20x20", "-q", "--no-trim",
                 "-o", str(out)]) == 0
    assert formats.read(out)[0].size == "20x20"
    assert main(["make", str(picture), "--size", "20x20", "-q", "--keep-edges", "side"]) == 2
    assert "unknown side" in capsys.readouterr().err


def test_the_readme_tour_cat_has_no_empty_edges(tmp_path: Path) -> None:
    out = tmp_path / "cat.yaml"
    cat = Path(__file__).resolve().parents[1] / "puzzles" / "pictures" / "cat.png"
    assert main(["make", str(cat), "--size", "30x30", "-q", "-o", str(out)]) == 0
    assert empty_borders(formats.read(out)[0]) == ""


def logo(size: int = 200) -> Image.Image:
    """A logo: a ring with a bar through it and a square, flat black on white."""
    image = Image.new("L", (size, size), 255)
    draw = ImageDraw.Draw(image)
    draw.ellipse((10, 10, size - 10, size - 10), outline=0, width=size // 10)
    draw.rectangle((size // 2 - 8, 20, size // 2 + 8, size - 20), fill=0)
    draw.rectangle((40, 40, 80, 80), fill=0)
    return image


def test_steering_never_changes_more_than_max_change() -> None:
    picture = binarise(load_grey(png(logo())), 20, 20).picture
    start = author(picture, seconds=20)
    assert start.unique
    result = author(picture, target=Target(level="fiendish"), seconds=20, max_change=1.0)
    assert result.unique
    assert len(result.flips) <= max(change_limit(picture.size, 1.0), len(start.flips))
    if not result.reached:
        assert "--max-change" in result.note or result.note
    assert change_limit(400, 0) == 0 and change_limit(900, 4.0) == 36


def test_max_change_default_and_option() -> None:
    assert make_command.MAX_CHANGE == MAX_CHANGE  # the help says the library's default
    assert main(["make", "x.png", "--size", "10x10", "--max-change", "150"]) == 2


def test_make_json_report_carries_the_trimmed_size(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    picture = tmp_path / "photo.png"
    photo().save(picture)
    assert main(["make", str(picture), "--size", "30x30", "-q", "--json",
                 "-o", str(tmp_path / "p.yaml")]) == 0
    report = json.loads(capsys.readouterr().out.strip().splitlines()[0])
    width, height = (int(v) for v in report["size"].split("x"))
    assert width <= 30 and height <= 30
    solution = formats.read(tmp_path / "p.yaml")[0].solution_array()
    assert solution is not None and 0.1 < solution.mean() < 0.9
    assert solution.shape == (height, width)  # the size written, trimmed: no empty bands
    for edge in (solution[0], solution[-1], solution[:, 0], solution[:, -1]):
        assert edge.any()


def test_preview_shows_the_original_beside_the_result_with_captions(tmp_path: Path) -> None:
    picture = tmp_path / "photo.png"
    photo().save(picture)
    preview = tmp_path / "preview.png"
    assert main(["make", str(picture), "--size", "30x30", "-q", "-o", str(tmp_path / "p.yaml"),
                 "--preview", str(preview)]) == 0
    with Image.open(preview) as shown:
        grey = np.asarray(shown.convert("L"))
    # four panels: the original's greys (the wall at 170) appear, not only ink and paper
    assert (np.abs(grey.astype(int) - 170) < 6).sum() > 500
    # captions: dark text under the panels' bottom frame (the last long dark row)
    frame = int(np.flatnonzero((grey < 128).sum(axis=1) > grey.shape[1] // 2)[-1])
    assert (grey[frame + 2 :] < 128).sum() > 50


def test_report_names_cells_as_grade_does() -> None:
    from grader.authoring.result import _cells

    assert _cells([(5, 2)]) == "(row 6, column 3)"


def test_make_to_dev_null_is_a_dry_run(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    picture = tmp_path / "shape.png"
    margins().save(picture)
    assert main(["make", str(picture), "--size", "12x12", "-q", "-o", "/dev/null"]) == 0
    assert "wrote /dev/null" in capsys.readouterr().out
