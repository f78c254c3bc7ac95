"""Solves of mosaics reach the collector as the other kinds' do: a mosaic in the catalogue
is a puzzle the collector files records under, and ``library solves`` reports them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from test_solves import SITE, record

from nonopress.catalogue import ImportOptions, add_files, open_catalogue
from nonopress.cli import main
from nonopress.solves.collector import CollectorSettings, create_app

ROOT = Path(__file__).resolve().parents[1]


def test_a_mosaic_solve_is_collected_and_reported(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    from grader.mosaic import formats

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
