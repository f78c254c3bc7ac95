"""Issue 59's trial bench: the step log's shape read off a made-up log, and the boosted
trees finding an interaction a line in the same columns cannot."""

from __future__ import annotations

import math

import numpy as np
from bench_support import bench_module

trials = bench_module("minutes_trials")


def test_the_step_logs_shape_counts_stalls_runs_jumps_and_turns() -> None:
    # compact steps: [rung, technique, openings, axis, line, clue, cells r0, c0, ...]
    steps = [
        ["simple-boxes", "simple-boxes", 5, "row", 0, [3], [0, 0, 0, 1, 0, 2]],
        ["simple-boxes", "simple-spaces", 2, "row", 5, [1], [5, 9]],
        ["simple-boxes", "simple-spaces", 1, "row", 5, [1], [5, 8]],
        ["extreme-owners", "owner-spaces", 4, "column", 3, [2], [1, 3, 2, 3]],
    ]
    shape = dict(zip(trials.SHAPE, trials.step_shape(steps, 10, 10), strict=True))
    assert shape["stalls"] == math.log1p(1)  # one step with a single place open
    assert shape["tight_run"] == math.log1p(2)  # two steps in a row with at most two open
    assert shape["few_cell_share"] == 0.75
    assert shape["jump"] == (0.5 + 0.0) / 2  # row 0 to row 5, then row 5 again
    assert shape["axis_switch"] == 1 / 3  # rows, rows, rows, then a column
    assert shape["line_visits"] == math.log1p(2)
    assert shape["late_hard"] == 0.5
    assert trials.step_shape([], 10, 10) == [0.0] * len(trials.SHAPE)


def made_up(rng: np.random.Generator, n: int) -> object:
    """Puzzles whose ln minutes are the shipped guess plus 0.5 where two columns are both
    high: an interaction of two columns, no line in either."""
    x = rng.normal(size=(n, 2))
    y = 1.0 + 0.5 * ((x[:, 0] > 0) & (x[:, 1] > 0)) + rng.normal(0, 0.05, n)
    zeros = np.zeros(n)
    return trials.Data(terms=x, shape=np.zeros((n, 0)), y=y, ids=zeros, size=zeros,
                       side=zeros, shipped=np.ones(n), solves=[])


def test_depth_two_trees_find_what_a_line_misses() -> None:
    rng = np.random.default_rng(5)
    train, test = made_up(rng, 2000), made_up(rng, 1000)

    def error(predict: np.ndarray) -> float:
        return float(np.mean((test.y - predict) ** 2))

    line = trials.line_on(train, train.y, lambda d: d.terms)
    stumps = trials.boost(train, train.y, rounds=40, rate=0.3, depth=1)
    trees = trials.boost(train, train.y, rounds=40, rate=0.3, depth=2)
    assert error(trees(test)) < 0.5 * error(line(test))
    assert error(trees(test)) < error(stumps(test))
    assert error(trees(test)) < 0.01  # the noise is 0.0025
