"""Steering by stars, both ways, on the one star scale (issue 46, items 2 and 11).

Stars are what a page prints: the score's stars kept within the level's two. A stars
target is one stretch of the level-and-score scale, so steering down a star can go down a
level (a hard puzzle with too many stars becomes medium) or lower the work within a level,
wherever steering to a level can."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

from grader.authoring import Target, author
from grader.grading import grade
from grader.model import Puzzle
from grader.scoring import LEVEL_STARS, banded, level_stars, stars

pytest.importorskip("pysat")


def _hard_picture() -> np.ndarray:
    # a seeded random 12x12 grid that is unique and hard (a short look-ahead) as it is
    return np.random.default_rng(57).random((12, 12)) < 0.55


def test_a_grade_shows_its_stars_on_the_printed_scale() -> None:
    graded = grade(Puzzle.from_picture(_hard_picture()))
    assert graded.level == "hard" and graded.score is not None
    assert graded.stars == level_stars(graded.level, graded.score)
    low, high = LEVEL_STARS[graded.level]
    assert low <= graded.stars <= high
    # the rating's own stars may say otherwise; the grade never does: its stars are read
    # off its score, banded by level (issue 60), the rating's stars kept within the level's
    for level, (low, high) in LEVEL_STARS.items():
        for rating in (0.0, 0.7, 1.0, 1.3, 1.7, 3.0):
            shown = level_stars(level, banded(level, rating))
            assert low <= shown <= high
            assert shown == min(max(stars(rating), low), high)


def test_star_targets_are_one_stretch_each_of_the_level_scale() -> None:
    bounds = [Target(stars=n).interval() for n in range(1, 6)]
    for (_, high), (low, _) in itertools.pairwise(bounds):
        assert high == low  # no gap, no overlap
    assert bounds[0][0] == 0.0 and bounds[-1][1] == Target(level="fiendish").interval()[1]
    # every level and score lands in the stretch of the stars the grade shows
    from types import SimpleNamespace
    for level in LEVEL_STARS:
        if level == "needs-guessing":
            continue
        for rating in np.linspace(0.0, 4.99, 40):
            score = banded(level, float(rating))
            shown = level_stars(level, score)
            graded = SimpleNamespace(level=level, score=score)
            assert Target(stars=shown).direction(Target(stars=shown).measure(graded)) == 0


@pytest.mark.parametrize("wanted", [3, 2, 1])
def test_steering_down_by_stars_reaches_every_lower_count(wanted: int) -> None:
    picture = _hard_picture()
    start = grade(Puzzle.from_picture(picture))
    assert start.stars is not None and start.stars > wanted
    result = author(picture, target=Target(stars=wanted), seconds=60)
    assert result.reached, result.report_lines()
    assert result.grade is not None and result.grade.stars == wanted
    assert result.unique and result.flip_share <= 4.0 + 100 * 4 / picture.size


def test_steering_to_the_stars_a_puzzle_has_changes_nothing() -> None:
    picture = _hard_picture()
    start = grade(Puzzle.from_picture(picture))
    assert start.stars is not None
    result = author(picture, target=Target(stars=start.stars), seconds=30)
    assert result.reached and result.flips == ()


def test_a_catalogue_from_before_the_one_scale_is_brought_onto_it(tmp_path: Path) -> None:

    from grader.formats import write
    from nonopress.catalogue import open_catalogue
    from nonopress.cli import main

    path = tmp_path / "hard.non"
    path.write_bytes(write(Puzzle.from_picture(_hard_picture()), "non"))
    db = tmp_path / "stock.sqlite"
    assert main(["library", "--db", str(db), "add", str(path)]) == 0
    with open_catalogue(db) as opened:  # back to the schema before the one scale
        from alembic import command
        from alembic.config import Config

        config = Config()
        config.set_main_option("script_location", "nonopress.catalogue:migrations")
        with opened.engine.begin() as connection:
            config.attributes["connection"] = connection
            command.downgrade(config, "0002")
            # as a catalogue of the score's own stars held it
            connection.exec_driver_sql("UPDATE puzzles SET level = 'hard', stars = 5")
    catalogue = open_catalogue(db)
    with catalogue.engine.connect() as connection:
        assert connection.exec_driver_sql("SELECT stars FROM puzzles").scalar_one() == 4


def test_steering_never_cuts_a_line_one_cell_wide() -> None:
    from grader.authoring.measure import EDGE, SPECK, look_penalty

    picture = np.zeros((7, 7), dtype=bool)
    picture[3, :] = True  # a line one cell wide across the picture
    picture[0:2, 0:2] = True  # and a small solid block
    for column in range(1, 6):
        assert look_penalty(picture, 3, column) == SPECK  # its middle: a cut
    assert look_penalty(picture, 0, 1) == EDGE  # the block's edge may still move
    import random

    from grader.authoring.steer import _harder_pool
    from grader.authoring.unique import Edit

    edit = Edit.of(picture.copy())
    pool = _harder_pool(edit, random.Random(1), 40)
    assert not [cell for cell in pool if cell[0] == 3 and 1 <= cell[1] <= 5]
