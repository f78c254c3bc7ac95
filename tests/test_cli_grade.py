"""``nonopress grade`` end to end through main(argv): table, JSON, explanations, HTML."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

from nonopress.cli import main

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
    assert main(["grade", "--json", str(files["easy"]), str(files["two"])]) == 1  # not unique
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
    from grader.ladder import default_ladder
    from nonopress.cli import build_parser

    grade_parser = build_parser()._subparsers._group_actions[0].choices["grade"]  # type: ignore[union-attr]
    (max_rung,) = [a for a in grade_parser._actions if a.dest == "max_rung"]
    assert tuple(max_rung.choices or ()) == default_ladder().names


def test_several_files_and_json_lines_stay_in_order(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    paths = [str(files["two"]), str(files["easy"]), str(files["medium"])]
    assert main(["grade", "--json", *paths]) == 1  # not unique
    records = _records(capsys.readouterr().out)
    assert [r["file"] for r in records] == paths
    assert [r["level"] for r in records] == ["ambiguous", "easy", "easy"]
    assert records[2]["title"] == 'Medium <b>"&"</b>'


# -- a defect is not a difficulty -----------------------------------------------------------
# rows 1 1 force #.# twice: column 1 would hold 2 cells against its clue 1
NONE = "width 3\nheight 2\n\nrows\n1 1\n1 1\n\ncolumns\n1\n2\n1\n"


@pytest.fixture
def defects(files: dict[str, Path], tmp_path: Path) -> dict[str, Path]:
    out = dict(files)
    out["none"] = tmp_path / "none.non"
    out["none"].write_text(NONE)
    return out


def test_defective_puzzles_get_no_score_or_stars_in_the_table(
    defects: dict[str, Path], capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(defects["easy"].parent)  # short names: the table shows them whole
    paths = [defects[name].name for name in ("easy", "two", "none")]
    assert main(["grade", *paths]) == 1  # two defects: exit status 1
    out = capsys.readouterr().out.splitlines()
    table = {line.split()[0]: line.split() for line in out[1:4]}
    # level, score, minutes, stars
    assert table[paths[1]][2:6] == ["ambiguous", "-", "-", "-"]
    assert table[paths[2]][2:6] == ["contradictory", "-", "-", "-"]
    # minutes and their range, "2 (1-2)", take two words
    assert table[paths[0]][6] == "*...."
    notes = out[out.index("2 puzzles without a score (a defect is not a difficulty):") + 1 :]
    assert notes[0].startswith(f"  {paths[1]}: several solutions: two of them differ in 4")
    assert notes[1] == (
        f"  {paths[2]}: no solution: row 1 (clue 1 1) cannot be satisfied given the cells "
        "decided before it"
    )


def test_defective_puzzles_are_null_in_json(
    defects: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["grade", "--json", str(defects["two"]), str(defects["none"])]) == 1  # not unique
    two, none = _records(capsys.readouterr().out)
    for record in (two, none):
        assert (record["score"], record["stars"]) == (None, None)
    assert str(two["problem"]).startswith("several solutions")
    assert str(none["problem"]).startswith("no solution: ")


def test_the_explanation_of_a_contradiction_ends_on_the_broken_line(
    defects: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["grade", "--explain", str(defects["none"])]) == 1  # not unique
    out = capsys.readouterr().out
    assert "contradictory, no score: no solution: " in out.splitlines()[0]
    steps = re.findall(r"^\s+\d+\. \[[a-z-]+\] (.*)$", out, flags=re.M)
    assert re.match(r"(Row|Column) \d+ \([\d ]+\): no arrangement of the clue fits the "
                    r"cells decided so far \([#.?]+\): the puzzle has no solution", steps[-1])
    assert out.rstrip().endswith("given the cells decided before it.")


def test_a_cut_down_ladder_that_gets_stuck_says_so_everywhere(
    files: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    medium = str(files["medium"])
    assert main(["grade", "--max-rung", "simple-boxes", medium]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].split()[-6:-2] == ["stuck", "-", "-", "-"]  # level, score, minutes, stars
    assert "stuck: needs more than simple-boxes" in out[-1]
    assert main(["grade", "--json", "--max-rung", "simple-boxes", medium]) == 0
    (record,) = _records(capsys.readouterr().out)
    assert (record["level"], record["score"], record["stars"]) == ("stuck", None, None)
    assert str(record["problem"]).startswith("stuck: needs more than simple-boxes")
    page = tmp_path / "stuck.html"
    assert main(["grade", "--explain", "--html", str(page), "--max-rung", "simple-boxes",
                 medium]) == 0  # fmt: skip
    out_text = capsys.readouterr().out
    assert "stuck, no score: stuck: needs more than simple-boxes" in out_text.splitlines()[0]
    assert "Stuck: no technique up to the allowed rung decides another cell" in out_text
    assert "star" not in out_text.splitlines()[0]
    block = re.search(r'id="replay-data">(.*?)</script>', page.read_text(), re.S)
    assert block is not None
    (replay,) = json.loads(block.group(1))
    assert "stuck: needs more than simple-boxes" in replay["summary"]
    assert "star" not in replay["summary"]


def test_grade_reads_a_folder_like_batch(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    folder = files["easy"].parent
    assert main(["grade", "--json", f"{folder}/"]) == 2  # bad.non is in there too
    captured = capsys.readouterr()
    assert "bad.non" in captured.err and "Is a directory" not in captured.err
    graded = {Path(str(r["file"])).name for r in _records(captured.out)}
    assert graded == {"easy.non", "medium.non", "two.non"}


def test_empty_rows_and_columns_at_the_edge_are_flagged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    picture = tmp_path / "uncropped.txt"
    picture.write_text("......\n.####.\n.#..#.\n.####.\n......\n")
    assert main(["check", str(picture)]) == 0
    err = capsys.readouterr().err
    assert (
        "uncropped.txt: row 1, row 5, column 1 and column 6, at the edges of the grid, are "
        "empty: crop the picture"
    ) in err
    assert main(["grade", "--json", str(picture)]) == 0
    assert _records(capsys.readouterr().out)[0]["warnings"] == [
        "row 1, row 5, column 1 and column 6, at the edges of the grid, are empty: crop the "
        "picture"
    ]
    assert main(["check", "--json", str(picture)]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["warnings"] == [
        "row 1, row 5, column 1 and column 6, at the edges of the grid, are empty: crop the "
        "picture"
    ]
