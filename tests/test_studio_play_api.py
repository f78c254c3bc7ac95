"""The studio's POST /api/play: the edited puzzle as the web player's JSON, built by the
application layer as `nonopress web` builds a page's (one record, two faces)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("uvicorn")

from studio_support import client, puzzle_folder, running_studio  # noqa: E402

from grader.model import Puzzle, rows_to_array  # noqa: E402
from nonopress.app.play import reveal  # noqa: E402
from nonopress.studio.config import StudioConfig  # noqa: E402

HEART = [".##.##.", "#######", ".#####.", "..###..", "...#..."]


@pytest.fixture(scope="module")
def http(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    folder = puzzle_folder(tmp_path_factory.mktemp("studio-play-api"))
    with running_studio(StudioConfig(folder=folder)) as config, client(config) as session:
        yield session


def test_play_answers_the_players_json_with_hints_and_the_hidden_answer(
        http: httpx.Client) -> None:
    answer = http.post("/api/play", json={"grid": HEART, "title": "Heart"})
    assert answer.status_code == 200
    record = answer.json()
    assert record["kind"] == "bw" and (record["width"], record["height"]) == (7, 5)
    assert record["rows"][1] == [7] and record["grade"]["level"] == "easy"
    assert reveal(record["veiled_title"], record["key"][8:]) == "Heart"
    assert "Heart" not in json.dumps(record["veiled_title"]) and "solved_title" not in record
    assert record["site"]["collect"] is None
    picture = "".join(HEART).replace("#", "1").replace(".", "0")
    assert reveal(record["solution"], record["key"]) == picture
    assert picture not in answer.text
    assert record["key"] == Puzzle.from_picture(rows_to_array(HEART)).key()
    steps = record["hints"]["steps"]
    assert steps and record["hints"]["rungs"][steps[0]["r"]] == "simple-boxes"


def test_play_refuses_a_puzzle_without_a_single_solution(http: httpx.Client) -> None:
    answer = http.post("/api/play", json={"grid": ["#.", ".#"]})
    assert answer.status_code == 422
    assert "several solutions" in answer.json()["error"]


def test_the_player_files_are_served_beside_the_studio(http: httpx.Client) -> None:
    from nonopress.assets import asset_bytes

    for name in ("player.js", "player.css"):
        answer = http.get(f"/player/{name}")
        assert answer.status_code == 200 and answer.content == asset_bytes(name)
