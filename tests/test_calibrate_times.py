"""The time calibration bench on made-up data: reading times, the stratified sample, the
fit recovering a known model, and writing the model back (no griddlers.net data here)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import yaml
from bench_support import bench_module

from grader import formats
from grader.minutes import TimeModel
from grader.model import Puzzle
from grader.scoring import WorkTerms

ROOT = Path(__file__).resolve().parents[1]


calibrate_human = bench_module("calibrate_human")
calibrate_times = bench_module("calibrate_times")


def timed_file(folder: Path, name: str, picture: list[str], time: str | None) -> Path:
    text = formats.write([Puzzle.from_picture(picture)], "non").decode()
    if time is not None:
        text = f'medium_time "{time}"\n' + text
    path = folder / f"{name}.non"
    path.write_text(text)
    return path


def test_times_are_read_and_untimed_files_left_out(tmp_path: Path) -> None:
    timed_file(tmp_path, "a", ["#.", ".#"], "0:01:30")
    timed_file(tmp_path, "b", ["##.", ".##", "#.#"], "1:02:03")
    timed_file(tmp_path, "c", ["#.", "##"], "0:00:00")  # no one solved it: no time
    timed_file(tmp_path, "d", ["#.", "##"], None)
    found = calibrate_times.find_timed(tmp_path)
    assert [(t.path.name, t.minutes, t.width, t.height) for t in found] == [
        ("a.non", 1.5, 2, 2), ("b.non", 62.05, 3, 3)]


def test_the_sample_caps_each_stratum_and_is_seeded() -> None:
    timed = [calibrate_times.Timed(Path(f"{i}.non"), 1.0, size, size)
             for i, size in enumerate([5] * 30 + [10] * 3 + [17] * 40)]
    chosen = calibrate_times.stratified(timed, 10, seed=1)
    strata = [t.stratum for t in chosen]
    assert strata.count("5x5") == 10 and strata.count("10x10") == 3
    assert strata.count("other <=625") == 10  # 17x17 = 289 cells
    assert chosen == calibrate_times.stratified(timed, 10, seed=1)
    assert chosen != calibrate_times.stratified(timed, 10, seed=2)


def solve(i: int, features: np.ndarray, minutes: float) -> object:
    sample = calibrate_human.Sample(
        key=f"{i * 2654435761 % 2**32:08x}", file=f"{i}.non", vote=minutes, size="10x10",
        level="easy", terms=WorkTerms({}, {}, 0.0, 0, 10, 10), sweeps=0, area=100,
        clue_count=0, held_back=False)
    return calibrate_times.Solve(sample, None, features, "10x10")


def test_the_fit_finds_the_features_that_carry_the_times() -> None:
    rng = np.random.default_rng(3)
    names = calibrate_times.NAMES
    steps, sweeps = names.index("steps"), names.index("sweeps")
    solves = []
    for i in range(600):
        x = rng.normal(0, 1, len(names))
        log_minutes = 0.5 + 1.2 * x[steps] + 0.4 * x[sweeps] + rng.normal(0, 0.1)
        solves.append(solve(i, x, float(np.exp(log_minutes))))
    chosen, log = calibrate_times.forward_selection(solves)
    assert chosen[:2] == ["steps", "sweeps"] and len(chosen) <= 4
    assert log[-1].lstrip().startswith("stop")
    model = calibrate_times.fit_model(solves, ["steps", "sweeps"])
    assert abs(model.intercept - 0.5) < 0.03
    assert abs(model.coefficients["steps"] - 1.2) < 0.03
    assert abs(model.coefficients["sweeps"] - 0.4) < 0.03
    # the quartiles of normal residuals of sd 0.1: +-0.0674
    assert -0.09 < model.low < -0.05 and 0.05 < model.high < 0.09


def test_the_model_is_written_where_the_grader_reads_it(tmp_path: Path) -> None:
    path = tmp_path / "scoring.yaml"
    path.write_text((ROOT / "grader" / "scoring.yaml").read_text())
    model = TimeModel(-1.5, {"steps": 1.25, "sweeps": 0.5}, -0.2, 0.25)
    calibrate_times.write_model(model, "# Minutes fitted by a test\n", path)
    text = path.read_text()
    data = yaml.safe_load(text)
    assert TimeModel.from_mapping(data["minutes"]) == model
    assert "# Minutes fitted by a test\nminutes:" in text
    assert data["score"] == yaml.safe_load((ROOT / "grader" / "scoring.yaml").read_text())["score"]


def test_the_colour_model_is_written_to_its_own_block(tmp_path: Path) -> None:
    path = tmp_path / "scoring.yaml"
    original = (ROOT / "grader" / "scoring.yaml").read_text()
    path.write_text(original)
    model = TimeModel(-2.5, {"steps": 0.75, "one_blocks": -0.5}, -0.2, 0.2)
    calibrate_times.write_model(model, "# Colour minutes fitted by a test\n", path,
                                kind="colour")
    data = yaml.safe_load(path.read_text())
    assert TimeModel.from_mapping(data["colour_minutes"]) == model
    assert data["minutes"] == yaml.safe_load(original)["minutes"]  # black and white kept


def test_find_timed_keeps_the_kind_asked_for(tmp_path: Path) -> None:
    timed_file(tmp_path, "1_plain", ["#.", ".#"], "0:01:30")
    colour = tmp_path / "2_colour.non"
    colour.write_text('medium_time "0:02:00"\nwidth 2\nheight 1\ncolor a ffffff\n'
                      "color b 000000\ncolor c ff0000\nrows\nb 1 c 1\ncolumns\nb 1\nc 1\n")
    assert [t.path.name for t in calibrate_times.find_timed(tmp_path, kind="colour")] == [
        "2_colour.non"]
    assert [t.path.name for t in calibrate_times.find_timed(tmp_path, kind="black-and-white")
            ] == ["1_plain.non"]


def test_the_drift_with_the_posting_order_is_taken_out_of_the_targets() -> None:
    """Older puzzles were timed slower, and later ones take more steps: fitted as measured,
    the era leaks into the steps' coefficient; with the drift curve it does not, and the
    intercept is today's audience's (the newest puzzle gets no offset)."""
    from grader.minutes import ClueFacts

    rng = np.random.default_rng(5)
    names = calibrate_times.NAMES
    steps = names.index("steps")
    solves = []
    for i in range(800):
        posted = int(rng.integers(1, 300_000))
        x = rng.normal(0, 1, len(names))
        x[steps] += posted / 100_000  # later puzzles are longer
        era = 0.4 * (1 - posted / 300_000)  # the members were slower then
        log_minutes = 0.5 + 1.0 * x[steps] + era + rng.normal(0, 0.05)
        item = solve(i, x, float(np.exp(log_minutes)))
        item.sample.file = f"{posted}_a.non"
        item.clues = ClueFacts(10, 10, 0, 0)
        solves.append(item)
    plain = calibrate_times.fit_model(solves, ["steps"])
    assert plain.coefficients["steps"] < 0.95  # the era taken for the steps
    drift = calibrate_times.fit_drift(solves, ["steps"])
    assert drift is not None
    newest = max(s.posted for s in solves)
    sizes = np.full(3, np.log(100 / 400))  # ln(cells / 400) of a 10x10
    offsets = drift.curve(np.array([newest, 150_000, 1]), sizes)
    assert abs(offsets[0]) < 1e-9 and abs(offsets[1] - 0.2) < 0.03 and abs(offsets[2] - 0.4) < 0.03
    model = calibrate_times.fit_model(solves, ["steps"], calibrate_times.log_minutes(solves, drift))
    assert abs(model.coefficients["steps"] - 1.0) < 0.02
    assert abs(model.intercept - 0.5) < 0.03
