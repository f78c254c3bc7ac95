"""The held-out minutes bench's figures on made-up numbers: the pooled rho within a size,
the spread, the bootstrap interval, the drift with the posting order and the targets."""

from __future__ import annotations

import numpy as np
from bench_support import bench_module

bench_minutes = bench_module("bench_minutes")


def a_row(name: str, n: int, rho: float, high: float = 0.99) -> object:
    nan = float("nan")
    return bench_minutes.Row(name, n, 0, nan, nan, 0.1, 0.1, 1.0, rho, 0.5, rho - 0.05, high,
                             0.0)


def test_the_pooled_rho_weighs_each_size_by_its_count() -> None:
    rows = [a_row("10x10", 10, 0.5), a_row("20x20", 30, 0.9)]
    assert bench_minutes.pooled_rho(rows) == 0.8  # not the plain mean 0.7, nor the lowest
    # a size of fewer than three puzzles has no rho and no weight
    assert bench_minutes.pooled_rho([*rows, a_row("30x30", 2, float("nan"))]) == 0.8


def test_a_row_measures_spread_interval_and_drift() -> None:
    rng = np.random.default_rng(1)
    predicted = np.exp(rng.normal(1.0, 0.5, 200))
    ids = np.arange(200) * 1000
    # later puzzles were timed faster: the error ln(measured / predicted) falls with the id
    error = 0.3 - 0.003 * np.arange(200) + rng.normal(0, 0.05, 200)
    measured = predicted * np.exp(error)
    ranges = np.column_stack([predicted * 0.8, predicted * 1.25])
    row = bench_minutes.row("all", measured, predicted, ranges, list(ids), 4,
                            np.random.default_rng(47))
    assert row.n == 200 and row.unrated == 4
    assert abs(row.spread - np.std(error, ddof=1)) < 1e-12
    assert abs(row.log_error - np.median(np.abs(error))) < 1e-12
    assert row.low <= row.rho <= row.high < 1.0
    assert row.drift < -0.9


def test_the_targets_name_a_size_whose_interval_stays_under_the_floor() -> None:
    good = bench_minutes.Row("all", 500, 0, 5.0, 5.0, 0.12, 0.15, 1.0, 0.98, 0.5, 0.97,
                             0.99, -0.1)
    sizes = [a_row("10x10", 90, 0.80, high=0.84), a_row("20x20", 180, 0.95)]
    checks = {name: (ok, text)
              for name, ok, text in bench_minutes.checks("black-and-white", [good, *sizes])}
    assert checks["median |ln|"][0] and checks["sd of ln"][0]
    assert checks["rho across sizes"][0]
    ok, text = checks["no size's 90% upper bound under 0.85"]
    assert not ok and text == "10x10"
    pooled_ok, _ = checks["pooled rho within a size"]
    assert not pooled_ok  # (90 * 0.80 + 180 * 0.95) / 270 = 0.90 < 0.91


def test_by_area_every_shape_falls_in_the_fits_strata() -> None:
    from pathlib import Path

    timed = bench_minutes.Timed
    puzzles = [timed(Path(f"{i}7_a.non"), 1.0 + i, w, h)
               for i, (w, h) in enumerate([(10, 10), (10, 12), (20, 30), (40, 45), (15, 15)])]
    groups = bench_minutes.groups_of([10, 15], by_area=True)
    held = {name: [t.width for t in puzzles if holds(t)] for name, holds in groups}
    assert held["10x10"] == [10] and held["15x15"] == [15]
    assert held["other <=225"] == [10] and held["other <=625"] == [20]
    assert held["other >1225"] == [40]
    # each puzzle in one row only
    assert sum(len(v) for v in held.values()) == len(puzzles)
