"""The studio's API on mosaics: a mosaic of the folder opens with its clue rows and
picture, and the page's check and grade take a mosaic in its own JSON form (the kind's
reader reads it, as a file of it is read), answering as ``check --json`` and ``grade
--json`` do; bad clues are one 400 line naming the row and column."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from studio_support import client, running_studio

from nonopress.studio.config import StudioConfig

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def http(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    folder = tmp_path_factory.mktemp("studio") / "work"
    folder.mkdir()
    shutil.copy(ROOT / "puzzles" / "mosaic" / "heart.yaml", folder / "heart.yaml")
    with running_studio(StudioConfig(folder=folder)) as config, client(config) as opened:
        yield opened


def test_a_mosaic_opens_with_its_clues_and_picture(http: httpx.Client) -> None:
    heart = http.get("/api/puzzle", params={"path": "heart.yaml"})
    assert heart.status_code == 200, heart.text
    record = heart.json()
    assert record["kind"] == "mosaic" and record["from"] == "file"
    assert record["clues"] == [".....5.", "47888.4", ".6.9.6.", ".36...1", "...4..."]
    assert record["grid"][0] == ".##.##." and (record["width"], record["height"]) == (7, 5)


def test_check_and_grade_take_a_mosaic_in_its_own_form(http: httpx.Client) -> None:
    heart = http.get("/api/puzzle", params={"path": "heart.yaml"}).json()
    body = {"kind": "mosaic", "clues": heart["clues"], "title": "Heart"}
    checked = http.post("/api/check", json=body).json()
    assert checked["verdict"] == "unique"
    graded = http.post("/api/grade", json=body).json()
    assert graded["verdict"] == "unique" and graded["stars"] in range(1, 6)
    assert set(graded["rungs"]) <= {"zeros-and-nines", "corners-and-edges",
                                    "completing-clues", "overlapping-clues", "clue-chains",
                                    "trial", "guess"}
    assert graded["minutes_text"] and "7x5" in graded["minutes_text"]
    # the heat map ranks steps on the mosaic's own ladder: the heart's hardest rung, two
    # clues compared, is the fourth (ranked on the nonogram ladder every cell read as the
    # dearest rung there is)
    from grader.mosaic.ladder import mosaic_ladder

    assert graded["rung_order"] == list(mosaic_ladder().names)
    ranks = {rank for row in graded["heat"] for rank in row}
    assert max(ranks) == graded["rung_order"].index("overlapping-clues") and 0 in ranks
    blank = http.post("/api/check", json={**body, "clues": ["." * 7] * 5}).json()
    assert blank["verdict"] == "multiple"


def test_bad_mosaic_clues_are_one_line_naming_where(http: httpx.Client) -> None:
    corner = http.post("/api/check", json={"kind": "mosaic", "clues": ["5..", "...", "..."]})
    assert corner.status_code == 400
    error = corner.json()["error"]
    assert "\n" not in error and "row 1" in error and "column 1" in error
    ragged = http.post("/api/check", json={"kind": "mosaic", "clues": ["1..", ".."]})
    assert ragged.status_code == 400 and "\n" not in ragged.json()["error"]
    wrong = http.post("/api/check", json={"kind": "mosaic", "clues": "1.."})
    assert wrong.status_code == 400 and "clues" in wrong.json()["error"]


def test_make_unique_and_steer_a_mosaic_by_its_clues(http: httpx.Client) -> None:
    """POST /api/repair on a mosaic shows clues of its picture until it is unique (never
    changing a clue the editor kept), and steers it to a level by showing or hiding them;
    givens are refused in one line."""
    import numpy as np

    from grader import mosaic
    from grader.mosaic_model import MosaicPuzzle

    clues = [".....5.", "47888.4", ".6.9.6.", ".36....", "...4..."]  # the 1 taken away
    body = {"kind": "mosaic", "clues": clues, "title": "Heart"}
    assert http.post("/api/check", json=body).json()["verdict"] == "multiple"
    made = http.post("/api/repair", json=body)
    assert made.status_code == 200, made.text
    proposal = made.json()
    assert proposal["unique"] and proposal["added"] and not proposal["removed"]
    rows = proposal["clues"]
    assert all(new == old for row_new, row_old in zip(rows, clues, strict=True)
               for new, old in zip(row_new, row_old, strict=True) if old != ".")
    assert mosaic.check(MosaicPuzzle.from_rows(rows)).verdict == "unique"
    picture = np.array([[ch == "#" for ch in row] for row in proposal["grid"]])
    assert MosaicPuzzle.from_rows(rows).satisfied_by(picture)
    graded = http.post("/api/grade", json={**body, "clues": rows}).json()
    # Harder as the editor asks it: one star more than the grade's
    harder = http.post("/api/repair", json={**body, "clues": rows,
                                            "stars": graded["stars"] + 1}).json()
    levels = ["easy", "medium", "hard", "fiendish", "needs-guessing"]
    # harder: a harder level, or a higher score at the same level (a mosaic's score is not
    # banded by level: a medium one may score below an easy one)
    assert harder["unique"] and (levels.index(harder["report"]["level"]),
                                 harder["report"]["score"]) > (levels.index(graded["level"]),
                                                               graded["score"])
    assert mosaic.check(MosaicPuzzle.from_rows(harder["clues"])).verdict == "unique"
    givens = http.post("/api/repair", json={**body, "mode": "givens"})
    assert givens.status_code == 400 and "\n" not in givens.json()["error"]
    assert "mosaic" in givens.json()["error"]
