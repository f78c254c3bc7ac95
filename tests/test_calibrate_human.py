"""The calibration bench's measure of how repeatable people's votes are (pictures posted
twice): one shape key under rotation and mirroring, and the ceiling it puts on rho."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from bench_support import bench_module

from grader.model import Puzzle

calibrate_human = bench_module("calibrate_human")

PICTURE = np.array([[1, 1, 0, 0], [0, 1, 0, 1], [1, 1, 1, 0]], dtype=bool)


def test_a_picture_turned_or_mirrored_has_one_shape_key() -> None:
    key = calibrate_human.shape_key(Puzzle.from_picture(PICTURE))
    for variant in (PICTURE[::-1], PICTURE[:, ::-1], PICTURE[::-1, ::-1], PICTURE.T,
                    np.rot90(PICTURE), np.rot90(PICTURE, 3), PICTURE.T[::-1]):
        assert calibrate_human.shape_key(Puzzle.from_picture(variant)) == key
    other = PICTURE.copy()
    other[0, 3] = True
    assert calibrate_human.shape_key(Puzzle.from_picture(other)) != key


def test_repeatability_bounds_rho_by_the_noise_of_a_vote() -> None:
    rng = np.random.default_rng(7)
    truth = rng.uniform(1, 5, 400)
    reposts = {f"p{i}": [(float(t + rng.normal(0, 0.3)), "20x20")] for i, t in enumerate(truth)}
    for i in range(200):  # half the pictures posted twice, rated by other people
        reposts[f"p{i}"].append((float(truth[i] + rng.normal(0, 0.3)), "20x20"))
    lines = calibrate_human.repeatability(reposts)
    assert lines[0].startswith("Repeatability: 200 pictures posted twice")
    noise_sd = float(lines[0].rsplit("sd ", 1)[1].rstrip("."))
    assert 0.25 < noise_sd < 0.35
    overall = next(line for line in lines if line.strip().startswith("overall"))
    ceiling = float(overall.split("ceiling ", 1)[1].split()[0])
    low, high = (float(v) for v in overall.rsplit("interval ", 1)[1].rstrip(")").split("-"))
    assert low <= ceiling <= high
    # the true ceiling: corr(truth, one vote) = sd(truth) / sd(vote)
    expected = truth.std() / np.sqrt(truth.var() + 0.09)
    assert abs(ceiling - expected) < 0.01
    assert calibrate_human.repeatability({"a": [(1.0, "other")]})[0].endswith("too few to measure")


def test_a_colour_puzzle_is_graded_and_logged_for_the_fit_like_black_and_white() -> None:
    """The calibration grades through the kind contract: a colour puzzle's step log and
    sweep count are what the fit reads, as for black and white."""
    import json

    from grader.kinds import kind_of, read_puzzles
    from grader.scoring import figures, work_terms
    from nonopress.batch.rows import Task

    root = Path(__file__).resolve().parents[1] / "puzzles"
    for path in (root / "colour" / "ladybird.yaml", root / "cat.yaml"):
        (puzzle,) = read_puzzles(path)
        row = calibrate_human.grade_logged(Task(puzzle.key(), path.name, 1, puzzle.title,
                                                puzzle, 30.0))
        assert (row.status, row.verdict, row.level) == ("graded", "unique", "easy")
        log = json.loads(row.log)
        assert len(log["steps"]) == row.steps and log["sweeps"] >= 1
        assert log["sweeps"] == kind_of(puzzle).sweeps()
        # the log holds what the score needs: refigured from it, the grade's own score
        terms = work_terms(log["steps"], puzzle.width, puzzle.height)
        assert sum(terms.steps.values()) == row.steps
        assert figures(row.level, terms).difficulty == pytest.approx(row.score, abs=1e-9)
