"""``nonopress grade`` end to end through main(argv): table, JSON, explanations, HTML."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

from grader.cli import main

# A 5x5 solved by simple boxes alone (see tests/test_grading.py).
EASY = "width 5\nheight 5\n\nrows\n2\n5\n1 1\n2 2\n1 1\n\ncolumns\n1 2\n4\n2\n3\n1 2\n"
EASY_ROWS = [".##..", "#####", ".#.#.", "##.##", "#...#"]
MEDIUM_ROWS = ["....#", ".####", "##.#.", "....#", ".##.#"]
TWO = "width 2\nheight 2\n\nrows\n1\n1\n\ncolumns\n1\n1\n"


def _non(rows: list[str], title: str) -> str:
    from grader.formats import write
    from grader.model import Metadata, Puzzle

    return write(Puzzle.from_picture(rows, Metadata(title=title)), "non").decode()


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    out = {}
    texts = {
        "easy": EASY,
        "medium": _non(MEDIUM_ROWS, 'Medium <b>"&"</b>'),
        "two": TWO,
    }
    for name, text in texts.items():
        out[name] = tmp_path / f"{name}.non"
        out[name].write_text(text)
    out["bad"] = tmp_path / "bad.non"
    out["bad"].write_text("width 2\nheight 2\nrows\n1\n1\ncolumns\n2\n2\n")
    return out


def _records(out: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in out.splitlines()]


def test_json_one_record_per_puzzle(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["grade", "--json", str(files["easy"]), str(files["two"])]) == 0
    easy, two = _records(capsys.readouterr().out)
    assert easy["file"] == str(files["easy"])
    assert (easy["verdict"], easy["level"], easy["stars"]) == ("unique", "easy", 1)
    assert easy["grid"] == EASY_ROWS
    assert easy["rungs"] == {"simple-boxes": easy["steps"]}
    for key in ("title", "score", "time_s"):
        assert key in easy
    assert (two["verdict"], two["level"]) == ("multiple", "ambiguous")
    assert "?" in "".join(two["grid"])  # type: ignore[arg-type]


def test_table_names_level_stars_and_rungs(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["grade", str(files["easy"]), str(files["medium"])]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:6] == ["puzzle", "size", "level", "score", "minutes", "stars"]
    assert "easy" in lines[1] and "*...." in lines[1] and "simple-boxes:" in lines[1]
    assert lines[2].startswith('Medium <b>"&"</b>')
    assert " easy " in lines[2] and "extreme-owners:" in lines[2]


def test_max_rung_stops_the_ladder(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["grade", "--json", "--max-rung", "simple-boxes", str(files["medium"])]) == 0
    (record,) = _records(capsys.readouterr().out)
    assert set(record["rungs"]) == {"simple-boxes"}  # type: ignore[arg-type]
    assert record["solved"] is False
    assert "?" in "".join(record["grid"])  # type: ignore[arg-type]


def test_unknown_rung_is_a_usage_error(files: dict[str, Path]) -> None:
    assert main(["grade", "--max-rung", "magic", str(files["easy"])]) == 2


def test_bad_file_is_one_line_and_status_2(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["grade", str(files["bad"])]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bad.non" in err and "Traceback" not in err


def test_explain_prints_every_step_as_a_sentence(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["grade", "--explain", str(files["medium"])]) == 0
    out = capsys.readouterr().out
    numbered = re.findall(r"^\s+(\d+)\. \[([a-z-]+)\] (.*)$", out, flags=re.M)
    assert [int(n) for n, _, _ in numbered] == list(range(1, len(numbered) + 1))
    assert {rung for _, rung, _ in numbered} == {"simple-boxes", "extreme-owners"}
    assert all(re.match(r"(Row|Column) \d+ \(", text) for _, _, text in numbered)
    assert any("must cover" in text for _, _, text in numbered)
    # the final grid is printed after the last rung change
    assert "\n".join("      " + row for row in MEDIUM_ROWS) in out


def test_explain_html_replays_with_escaped_strings(
    files: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "replay.html"
    assert main(["grade", "--explain", "--html", str(out), str(files["medium"])]) == 0
    capsys.readouterr()
    page = out.read_text()
    assert page.startswith("<!DOCTYPE html>")
    assert "<b>" not in page  # the title travels escaped inside the JSON block
    block = re.search(
        r'<script type="application/json" id="replay-data">(.*?)</script>', page, re.S
    )
    assert block is not None
    (record,) = json.loads(block.group(1))
    assert record["title"] == 'Medium <b>"&"</b>'
    assert record["steps"] and all(step["changes"] for step in record["steps"])
    replayed = [["?"] * 5 for _ in range(5)]
    for step in record["steps"]:
        for r, c, state in step["changes"]:
            replayed[r][c] = "#" if state == 2 else "."
    assert ["".join(row) for row in replayed] == MEDIUM_ROWS
    assert html.escape("Nonopress") in page


def test_html_needs_explain(files: dict[str, Path], tmp_path: Path) -> None:
    assert main(["grade", "--html", str(tmp_path / "x.html"), str(files["easy"])]) == 2


def test_the_command_offers_exactly_the_ladder_rungs() -> None:
    from grader.commands.grade import RUNG_NAMES
    from grader.grading import RUNGS

    assert RUNG_NAMES == RUNGS


def test_several_files_and_json_lines_stay_in_order(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    paths = [str(files["two"]), str(files["easy"]), str(files["medium"])]
    assert main(["grade", "--json", *paths]) == 0
    records = _records(capsys.readouterr().out)
    assert [r["file"] for r in records] == paths
    assert [r["level"] for r in records] == ["ambiguous", "easy", "easy"]
    assert records[2]["title"] == 'Medium <b>"&"</b>'
