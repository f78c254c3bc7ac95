"""``nonopress info`` and ``nonopress convert`` through ``nonopress.cli.main``."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest
from stock_support import tiny_folder

from grader import formats
from nonopress.cli import main

DATA = Path(__file__).resolve().parent / "data" / "formats"
HEART = DATA / "heart.yaml"


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_info_table_shows_size_stats_and_metadata(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["info", str(HEART)], capsys)
    assert code == 0 and err == ""
    header, row = out.splitlines()
    assert header.split()[:4] == ["puzzle", "title", "size", "blocks"]
    # Heart: 6 row blocks, 20 filled cells of 35, largest clue 7.
    assert row.split() == [str(HEART), "Heart", "7x5", "6", "20", "57%", "7", "Nonopress", "MIT"]


def test_info_json_one_object_per_puzzle(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bundle = tmp_path / "two.non"
    heart = formats.read_file(HEART)[0]
    bundle.write_bytes(formats.write([heart, heart.with_meta(title="Second")], "non"))
    code, out, err = run(["info", "--json", str(HEART), str(bundle)], capsys)
    assert code == 0 and err == ""
    records = [json.loads(line) for line in out.splitlines()]
    assert [(r["file"], r["index"], r["label"], r["title"]) for r in records] == [
        (str(HEART), 1, str(HEART), "Heart"),
        (str(bundle), 1, f"{bundle}#1", "Heart"),
        (str(bundle), 2, f"{bundle}#2", "Second"),
    ]
    first = records[0]
    assert (first["width"], first["height"]) == (7, 5)
    assert first["rows"] == [[2, 2], [7], [5], [3], [1]]
    assert first["columns"] == [[1], [3], [4], [4], [4], [3], [1]]
    assert first["license"] == "MIT" and first["filled"] == 20 and first["has_solution"]


def test_info_reads_stdin(monkeypatch: pytest.MonkeyPatch,
                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"3x1:1/1/1/3\n")))
    code, out, _ = run(["info", "--json", "-"], capsys)
    assert code == 0
    record = json.loads(out)
    assert record["file"] == "-" and record["rows"] == [[3]] and record["width"] == 3


def test_info_bad_file_is_one_line_with_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.non"
    bad.write_text("width 2\nheight 2\n\nrows\n1\nx\ncolumns\n1\n1\n")
    code, out, err = run(["info", str(HEART), str(bad)], capsys)
    assert code == 2
    assert err.count("\n") == 1 and "Traceback" not in err
    assert f"{bad}:6:" in err and "'x' is not a whole number" in err
    assert "Heart" in out  # the readable file is still reported


def test_info_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(["info", str(tmp_path / "nope.non")], capsys)
    assert code == 2 and "nope.non" in err and "cannot read" in err


@pytest.mark.parametrize("command", ["info", "convert"])
def test_help(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run([command, "--help"], capsys)
    assert code == 0 and "usage: nonopress " + command in out


def test_convert_by_suffix_round_trips(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    heart = formats.read_file(HEART)[0]
    for suffix in (".non", ".xml", ".json", ".g", ".mk", ".nin", ".pbm", ".png", ".yaml"):
        out_path = tmp_path / f"heart{suffix}"
        code, _, err = run(["convert", str(HEART), str(out_path)], capsys)
        assert code == 0, err
        (again,) = formats.read_file(out_path)
        assert (again.rows, again.columns) == (heart.rows, heart.columns)


def test_convert_to_stdout_with_to(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["convert", str(HEART), "-", "--to", "tatham"], capsys)
    assert code == 0
    assert out == "7x5:1/3/4/4/4/3/1/2.2/7/5/3/1\n"


def test_convert_stdout_needs_a_format(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["convert", str(HEART), "-"], capsys)
    assert code == 2 and "--to" in err


def test_convert_unknown_suffix_needs_to(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(["convert", str(HEART), str(tmp_path / "x.txt")], capsys)
    assert code == 2 and "--to" in err and not (tmp_path / "x.txt").exists()
    code, _, err = run(["convert", str(HEART), str(tmp_path / "x.txt"), "--to", "picross"],
                       capsys)
    assert code == 0
    assert formats.read_file(tmp_path / "x.txt")[0].title == "Heart"


def test_convert_many_to_one_puzzle_format(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bundle = tmp_path / "two.yaml"
    heart = formats.read_file(HEART)[0]
    small = formats.read(b"2x1:1/1/2\n")[0].with_meta(title="Bar")
    bundle.write_bytes(formats.write([heart, small], "yaml"))
    code, _, err = run(["convert", str(bundle), str(tmp_path / "one.nin")], capsys)
    assert code == 2 and "--index" in err and "holds 2 puzzles" in err
    assert not (tmp_path / "one.nin").exists()
    code, _, err = run(["convert", str(bundle), str(tmp_path / "one.nin"), "--index", "2"],
                       capsys)
    assert code == 0
    assert formats.read_file(tmp_path / "one.nin")[0].rows == ((2,),)
    code, _, err = run(["convert", str(bundle), str(tmp_path / "one.nin"), "--index", "3"],
                       capsys)
    assert code == 2 and "--index 3" in err
    code, _, _ = run(["convert", str(bundle), str(tmp_path / "both.xml")], capsys)
    assert code == 0
    assert [p.title for p in formats.read_file(tmp_path / "both.xml")] == ["Heart", "Bar"]


def test_convert_picture_needs_solution(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    clues_only = tmp_path / "clues.nin"
    clues_only.write_text("1 1\n1\n1\n")
    code, _, err = run(["convert", str(clues_only), str(tmp_path / "x.png")], capsys)
    assert code == 2 and "no known solution" in err


def test_convert_from_stdin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(HEART.read_bytes())))
    code, _, err = run(["convert", "-", str(tmp_path / "heart.non")], capsys)
    assert code == 0, err
    assert formats.read_file(tmp_path / "heart.non") == formats.read_file(HEART)


def test_convert_bad_input_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.xml"
    bad.write_text("<puzzleset>\n<puzzle>\n<clues type='rows'>\n")
    code, out, err = run(["convert", str(bad), str(tmp_path / "x.non")], capsys)
    assert code == 2 and out == "" and "Traceback" not in err
    assert err.count("\n") == 1 and f"{bad}:4:" in err


def test_convert_unwritable_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["convert", str(HEART), str(tmp_path / "missing" / "x.non")], capsys)
    assert code == 2 and "cannot write" in err


def test_an_issue_manifest_is_not_a_puzzle_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = tmp_path / "issue.yaml"
    manifest.write_text("title: Monthly\npuzzles:\n  - heart.yaml\n  - file: cat.yaml\n")
    code, out, err = run(["info", str(manifest), str(HEART)], capsys)
    assert code == 2 and "Heart" in out  # the other files are still reported
    assert err.startswith(f"nonopress info: {manifest}:1: ")
    assert "an issue manifest? use 'nonopress issue'" in err and err.count("\n") == 1
    code, _, err = run(["convert", str(manifest), str(tmp_path / "x.non")], capsys)
    assert code == 2 and "an issue manifest?" in err


def test_convert_with_from(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ids = tmp_path / "ids.txt"
    ids.write_text("1x1:1/1\n2x1:1/1/2\n")
    code, out, err = run(["convert", str(ids), "-", "--from", "tatham", "--to", "picross"],
                         capsys)
    assert code == 0, err
    assert out == "GRID\nROWS\n[ 1 ]\nCOLUMNS\n[ 1 ]\n\nGRID\nROWS\n[ 2 ]\nCOLUMNS\n[ 1 ]\n[ 1 ]\n"


def test_info_reads_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tiny_folder(tmp_path)
    assert main(["info", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "Tiny 0" in out and "Tiny 1" in out
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["info", str(empty)]) == 2
    err = capsys.readouterr().err
    assert str(empty) in err and len(err.strip().splitlines()) == 1
