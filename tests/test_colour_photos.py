"""Colour puzzles from photographs (issue 46, items 6 and 8): scikit-image's colour photos
made with ``--colours 3`` have a background and need solving (a score above 0, no line
fully inked), are steered by level; colours are named as a person names them; the preview
shows the original in its colours; a picture that does not read at its size is said so,
and the rendering that reads is kept. scikit-image is in the test extra (CI installs it);
without it here the photo tests skip."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw

from grader.authoring import MakeOptions, make
from grader.authoring.colour_make import make_colour
from grader.authoring.likeness import LIKENESS_MIN
from grader.authoring.target import Target
from grader.colour.perception import colour_word, contrast_ratio, readable_ink
from grader.formats.pictures import palette_for
from grader.model import Metadata
from nonopress.cli import main

#: the eight colour photographs of scikit-image's sample set the issue names and adds
PHOTOS = ("astronaut", "coffee", "chelsea", "rocket", "colorwheel", "immunohistochemistry",
          "retina", "stereo_motorcycle")


def sample(name: str) -> bytes:
    """A scikit-image sample photo as PNG bytes (skipped when scikit-image is missing
    outside CI)."""
    if os.environ.get("CI", "").lower() == "true":
        import skimage.data as data  # CI installs the test extra: a missing one fails
    else:
        data = pytest.importorskip(
            "skimage.data", reason="scikit-image is not installed (pip install -e '.[test]')")
    pixels = getattr(data, name)()
    if isinstance(pixels, tuple):  # a stereo pair: its left picture
        pixels = pixels[0]
    out = io.BytesIO()
    Image.fromarray(pixels).save(out, format="PNG")
    return out.getvalue()


@pytest.fixture(scope="module", autouse=True)
def compiled_kernels() -> None:
    from grader.colour.solver import warm_up

    warm_up()


@pytest.mark.parametrize("name", PHOTOS)
def test_a_colour_photo_makes_a_puzzle_that_needs_solving(name: str) -> None:
    made = make_colour(sample(name), 25, 25, 3, seconds=60, meta=Metadata(title=name))
    solution = made.puzzle.solution_array()
    assert solution is not None and made.verdict == "unique", made.report_lines()
    # a background: empty cells in every row and column (a fully inked line is solved by
    # adding up its clue), and the puzzle is work (it was score 0.00, every cell inked)
    assert (solution == 0).any(axis=1).all() and (solution == 0).any(axis=0).all()
    assert made.grade is not None and made.grade.score is not None and made.grade.score > 0
    assert 0.0 < made.ink_share < 90.0
    assert made.grade.minutes is not None and made.grade.minutes > 1.0
    assert made.likeness is not None


def test_a_colour_photo_is_steered_by_level_and_stars() -> None:
    """Down by level (the astronaut is fiendish as made, easy when asked), up by level (the
    stained tissue, easy as made, fiendish when asked), down by stars (the coffee cup)."""
    astronaut = sample("astronaut")
    plain = make_colour(astronaut, 25, 25, 3, seconds=60)
    assert plain.grade is not None and plain.grade.level == "fiendish"
    easy = make_colour(astronaut, 25, 25, 3, seconds=60, target=Target(level="easy"))
    assert easy.reached and easy.grade is not None and easy.grade.level == "easy"
    assert easy.puzzle.solution != plain.puzzle.solution
    assert len(easy.flips) <= 0.04 * easy.cells + 1
    tissue = sample("immunohistochemistry")
    made = make_colour(tissue, 25, 25, 3, seconds=60)
    assert made.grade is not None and made.grade.level == "easy"
    harder = make_colour(tissue, 25, 25, 3, seconds=120, target=Target(level="fiendish"))
    assert harder.reached and harder.grade is not None and harder.grade.level == "fiendish"
    photo = sample("coffee")
    coffee = make_colour(photo, 25, 25, 3, seconds=60)
    assert coffee.grade is not None and coffee.grade.stars == 2
    one = make_colour(photo, 25, 25, 3, seconds=60, target=Target(stars=1))
    assert one.reached and one.grade is not None and one.grade.stars == 1


def test_make_takes_a_target_with_colours_and_previews_the_original_in_colour(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    photo = tmp_path / "coffee.png"
    photo.write_bytes(sample("coffee"))
    out, preview = tmp_path / "coffee.yaml", tmp_path / "preview.png"
    assert main(["make", str(photo), "--size", "25x25", "--colours", "3", "--stars", "1",
                 "-q", "--json", "-o", str(out), "--preview", str(preview)]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["reached"] and record["stars"] == 1 and record["target"] == "1 star"
    assert 0 < record["ink_percent"] < 90 and "likeness" in record
    with Image.open(preview) as image:
        rgb = np.asarray(image.convert("RGB"), dtype=np.int64)
    # the original is drawn in its colours: the coffee photo is brown and red, never grey
    left = rgb[:, : rgb.shape[1] // 4].reshape(-1, 3)
    assert (left.max(axis=1) - left.min(axis=1) > 60).mean() > 0.2


@pytest.mark.parametrize(("rgb", "family"), [
    ((0xc0, 0xd1, 0x7d), {"paleolive", "lightolive", "palegreen", "sage", "lightgreen"}),
    ((0xe0, 0x7b, 0x39), {"orange"}),
    ((0xf9, 0x80, 0x20), {"orange"}),
    ((0x8b, 0x5a, 0x2b), {"brown", "lightbrown"}),
    ((0x6b, 0x44, 0x23), {"brown"}),
    ((0x1f, 0x3a, 0x93), {"blue", "royalblue"}),
    ((0x80, 0x80, 0x80), {"grey"}),
])
def test_colours_are_named_as_a_person_names_them(rgb: tuple[int, int, int],
                                                   family: set[str]) -> None:
    assert colour_word(rgb) in family
    assert palette_for([rgb]).colours[0].name in family


def test_names_stay_distinct_and_never_white() -> None:
    palette = palette_for([(250, 250, 250), (0xe0, 0x7b, 0x39), (0xe8, 0x80, 0x40)])
    names = [c.name for c in palette.colours]
    assert len(set(names)) == 3 and "white" not in names and names[1] == "orange"


def test_clue_digits_take_the_ink_that_reads_on_their_colour() -> None:
    yellow, navy = (250, 236, 120), (20, 40, 110)
    assert readable_ink(yellow) == (0, 0, 0) and readable_ink(navy) == (255, 255, 255)
    assert contrast_ratio(readable_ink(yellow), yellow) >= 4.5
    assert contrast_ratio((0, 0, 0), (255, 255, 255)) == pytest.approx(21.0)


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def test_the_rendering_that_reads_is_kept() -> None:
    """A light figure on a dark ground: the threshold inks the ground (over three quarters
    ink, the figure a hole in it); inverted, the figure is the ink, and that is made."""
    image = Image.new("L", (200, 200), 40)
    draw = ImageDraw.Draw(image)
    draw.rectangle((85, 20, 115, 180), fill=225)  # a light cross
    draw.rectangle((30, 70, 170, 100), fill=225)
    draw.ellipse((140, 140, 175, 175), fill=225)
    made = make(_png(image), MakeOptions(width=20, height=20, seconds=30))
    assert "inverted" in made.method and "did not read" in made.method
    assert made.likeness is not None and made.likeness >= LIKENESS_MIN
    assert not any("does not read" in w for w in made.warnings)


def test_a_plain_silhouette_reads_as_thresholded() -> None:
    image = Image.new("L", (200, 200), 255)
    ImageDraw.Draw(image).ellipse((40, 30, 160, 170), fill=20)
    made = make(_png(image), MakeOptions(width=15, height=15, seconds=30))
    assert "inverted" not in made.method and "outlines" not in made.method
    assert made.likeness is not None and made.likeness >= LIKENESS_MIN
    assert made.warnings == ()


def test_a_photo_that_does_not_read_is_said_so() -> None:
    """The rocket at 30x30: a thin light rocket on a dark sky; no rendering keeps it (the
    threshold was 74% ink with the rocket lost, reported as a success)."""
    made = make(sample("rocket"), MakeOptions(width=30, height=30, seconds=30))
    assert made.likeness is not None and made.likeness < LIKENESS_MIN
    (warning,) = [w for w in made.warnings if "does not read" in w]
    assert "threshold" in warning and "inverted" in warning and "outlines" in warning
    assert any("does not read" in line for line in made.report_lines())
