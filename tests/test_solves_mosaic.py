"""Solves of mosaics reach the collector as the other kinds' do: a mosaic in the catalogue
is a puzzle the collector files records under, and ``library solves`` reports them; and
``calibrate --from-solves --kind mosaic`` fits the mosaic's minutes to them."""

from __future__ import annotations

import datetime as dt
import json
import math
import random
from pathlib import Path

import numpy as np
import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient
from test_solves import SITE, record

import grader.mosaic as mosaic
from grader.ladder import data_digest, grader_version
from grader.mosaic import formats
from grader.mosaic.minutes import MosaicTimeModel, read_model, time_model
from grader.mosaic_model import MosaicPuzzle
from grader.results import Budget
from grader.scoring import RATED_LEVELS
from nonopress.catalogue import ImportOptions, add_files, open_catalogue, schema
from nonopress.cli import main
from nonopress.solves import KnownPuzzles, parse_record
from nonopress.solves.collector import CollectorSettings, create_app
from nonopress.solves.refit import held_out

ROOT = Path(__file__).resolve().parents[1]


def test_a_mosaic_solve_is_collected_and_reported(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    url = str(tmp_path / "catalogue.sqlite")
    with open_catalogue(url) as catalogue:
        add_files(catalogue, [str(ROOT / "puzzles" / "mosaic" / "heart.yaml")],
                  ImportOptions(jobs=1))
    (heart,) = formats.read(ROOT / "puzzles" / "mosaic" / "heart.yaml")
    body = json.dumps(record(heart.key(), hint_rungs=["zeros-and-nines",
                                                      "overlapping-clues"]))
    settings = CollectorSettings(origins=frozenset({SITE}))
    with TestClient(create_app(settings, url)) as client:
        answer = client.post("/api/solves", content=body,
                             headers={"origin": SITE, "content-type": "text/plain"})
    assert answer.status_code == 201, answer.text
    capsys.readouterr()
    assert main(["library", "--db", url, "solves", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    (puzzle,) = report["puzzles"]
    assert (puzzle["key"], puzzle["title"], puzzle["solves"], puzzle["completed"]) == (
        heart.key(), "Heart", 1, 1)
    assert puzzle["predicted_minutes"] > 0  # the mosaic's own (not yet fitted) minutes
    assert {r["rung"] for r in puzzle["rungs_hinted"]} == {"zeros-and-nines",
                                                           "overlapping-clues"}


def _rated_mosaics(want_train: int, want_held: int) -> list[MosaicPuzzle]:
    """Random mosaics with one solution at a rated level, of several sizes (so their
    assumed minutes spread), with enough held out (refit.held_out) among them."""
    rng = np.random.default_rng(49)
    train: list[MosaicPuzzle] = []
    held: list[MosaicPuzzle] = []
    while len(train) < want_train or len(held) < want_held:
        side = int(rng.integers(5, 13))
        picture = rng.random((side, side)) < 0.5
        shown = rng.random((side, side)) < 0.85
        puzzle = MosaicPuzzle(MosaicPuzzle.from_picture(picture, shown).clues)
        grade = mosaic.grade(puzzle, Budget(seconds=20))
        if grade.verdict != "unique" or grade.level not in RATED_LEVELS:
            continue
        group = held if held_out(puzzle.key()) else train
        if len(group) < (want_held if group is held else want_train):
            group.append(puzzle.with_meta(title=f"random {len(train) + len(held)}"))
    return train + held


def test_calibrate_kind_mosaic_fits_the_minutes_to_collected_solves(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    puzzles = _rated_mosaics(11, 2)
    source = tmp_path / "mosaics.mosaic"  # game IDs: many a file
    source.write_bytes(formats.write(puzzles, "tatham"))
    db = str(tmp_path / "catalogue.sqlite")
    truth = MosaicTimeModel(0.4, 0.8, 0.0, 0.0, fitted=True)  # a slower audience
    assumed = {}
    for puzzle in puzzles:
        graded = mosaic.grade(puzzle, Budget(seconds=20))
        assert graded.assumed_minutes is not None and not graded.minutes_fitted
        assumed[puzzle.key()] = graded.assumed_minutes
    rng = random.Random(54)
    rows = [record(key, seconds_active=round(truth.minutes(assumed[key]) * 60.0
                                             * math.exp(rng.gauss(0.0, 0.1)), 1),
                   reveals=0, completed=True)
            for key in sorted(assumed) for _ in range(9)]
    with open_catalogue(db) as catalogue:
        add_files(catalogue, [str(source), str(ROOT / "puzzles" / "cat.yaml")],
                  ImportOptions(jobs=1))
        check = KnownPuzzles(catalogue)
        with catalogue.reading() as connection:
            cat_key = connection.execute(sa.select(schema.puzzles.c.key).where(
                schema.puzzles.c.title == "Cat")).scalar_one()
        rows += [record(cat_key, seconds_active=60.0) for _ in range(6)]  # not a mosaic
        parsed = [parse_record(json.dumps(r).encode(), check) for r in rows]
        with catalogue.writing() as connection:
            stamp = dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
            connection.execute(schema.solves.insert(), [
                {**p.row(), "received_at": stamp, "updated_at": stamp} for p in parsed])
    table = tmp_path / "minutes.yaml"
    capsys.readouterr()
    assert main(["calibrate", "--from-solves", "--kind", "mosaic", "--db", db, "--json",
                 "--write", str(table), "--force"]) == 0
    fitted = json.loads(capsys.readouterr().out)
    assert fitted["model"] == "mosaic"
    assert (fitted["training_puzzles"], fitted["held_out_puzzles"]) == (11, 2)
    assert fitted["left_out"].get("not a mosaic") == 1  # the cat's solves
    for row in fitted["held_out"]["puzzles"]:  # never fitted, yet predicted within 10 %
        assert abs(row["after"] / truth.minutes(assumed[row["key"]]) - 1.0) < 0.10, row
    assert fitted["held_out"]["after"]["median_abs_ln"] < fitted["held_out"]["before"][
        "median_abs_ln"]
    model = read_model(table)
    assert model.fitted and model.scale == fitted["after"]["scale"]
    assert "# Mosaic minutes fitted by `nonopress calibrate" in table.read_text()
    # installed, the table makes the grade's minutes fitted ones (and says so)
    version = grader_version()
    monkeypatch.setattr("grader.mosaic.minutes.MINUTES_FILE", table)
    time_model.cache_clear()
    data_digest.cache_clear()
    assert grader_version() != version  # stored mosaic grades are graded again
    try:
        graded = mosaic.grade(puzzles[0], Budget(seconds=20))
        assert graded.minutes_fitted and graded.to_json()["minutes_note"] is None
        assert graded.assumed_minutes is not None
        assert graded.minutes == model.estimate(graded.assumed_minutes)[0]
    finally:  # the installed table again, for the tests after this one
        monkeypatch.undo()
        time_model.cache_clear()
        data_digest.cache_clear()


def test_calibrate_kind_mosaic_with_too_few_solves_is_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "catalogue.sqlite")
    with open_catalogue(db) as catalogue:
        add_files(catalogue, [str(ROOT / "puzzles" / "mosaic" / "heart.yaml")],
                  ImportOptions(jobs=1))
    capsys.readouterr()
    assert main(["calibrate", "--from-solves", "--kind", "mosaic", "--db", db]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "mosaic(s) to fit" in err[0]
