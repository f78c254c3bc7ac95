"""``nonopress check`` and ``nonopress solve`` end to end, through main(argv)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nonopress.cli import main

UNIQUE = "width 5\nheight 3\n\nrows\n5\n1 1\n5\n\ncolumns\n3\n1 1\n1 1\n1 1\n3\n"
# a 2x2 diagonal: two solutions, every cell differs
TWO = "width 2\nheight 2\n\nrows\n1\n1\n\ncolumns\n1\n1\n"
# the rows force #.# twice, so the middle column cannot hold its 2
NONE_CLUES = "width 3\nheight 2\n\nrows\n1 1\n1 1\n\ncolumns\n1\n2\n1\n"

PERMUTATIONS = "width 3\nheight 3\n\nrows\n1\n1\n1\n\ncolumns\n1\n1\n1\n"


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    out = {}
    cases = (("unique", UNIQUE), ("two", TWO), ("none", NONE_CLUES), ("perm", PERMUTATIONS))
    for name, text in cases:
        path = tmp_path / f"{name}.non"
        path.write_text(text)
        out[name] = path
    bad = tmp_path / "bad.non"
    bad.write_text("width 2\nheight 2\nrows\n1\n1\ncolumns\n2\n2\n")
    out["bad"] = bad
    return out


def test_check_json_verdicts(files: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["check", "--json", str(files["unique"]), str(files["two"]), str(files["none"])])
    assert status == 1  # not every puzzle is unique
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["verdict"] for r in records] == ["unique", "multiple", "none"]
    unique, two, none = records
    assert unique["solutions"] == [["#####", "#...#", "#####"]]
    assert unique["file"] == str(files["unique"]) and "title" in unique
    assert isinstance(unique["time_s"], float)
    assert all(r["cpu_s"] >= 0.0 for r in records)  # CPU beside wall clock, for benchmarks
    assert sorted(map(tuple, two["solutions"])) == [("#.", ".#"), (".#", "#.")]
    assert sorted(map(tuple, two["differing_cells"])) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert "solutions" not in none
    assert none["reason"].startswith("column 1 (clue 1) cannot be satisfied")


@pytest.mark.parametrize(
    ("names", "status"),
    [
        (["unique"], 0),
        (["unique", "two"], 1),
        (["none"], 1),
        (["unique", "bad"], 2),
        (["two", "bad"], 2),  # a file that cannot be read outranks a puzzle to fix
    ],
)
def test_check_exit_status_gates_a_pre_press_script(
    files: dict[str, Path], names: list[str], status: int
) -> None:
    assert main(["check", *(str(files[name]) for name in names)]) == status


def test_check_undecided_exits_1(files: dict[str, Path]) -> None:
    assert main(["check", "--nodes", "1", str(files["perm"])]) == 1


def test_check_none_names_the_line_to_fix(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", str(files["none"])]) == 1
    fields = capsys.readouterr().out.strip().split("\t")
    assert fields[2] == "none"
    assert fields[4] == (
        "column 1 (clue 1) cannot be satisfied given the cells decided before it (##)"
    )


def test_solve_none_names_the_line_and_shows_where_it_broke(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["solve", str(files["none"])]) == 1  # not unique
    out = capsys.readouterr().out.splitlines()
    assert out[1].startswith("no solution: column 1 (clue 1) cannot be satisfied")
    # the rows forced #.# twice; the arrow points at column 1
    assert out[3:] == [" v", " #.#", " #.#"]


def test_check_text_one_line_per_puzzle(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", str(files["unique"]), str(files["two"])]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    assert lines[0].split("\t")[2] == "unique"
    assert lines[1].split("\t")[2] == "multiple" and "4 cells differ" in lines[1]


def test_check_bad_file_exit_2_and_others_still_checked(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["check", str(files["bad"]), str(files["unique"])])
    captured = capsys.readouterr()
    assert status == 2
    assert "bad.non" in captured.err and "Traceback" not in captured.err
    assert "unique" in captured.out


def test_check_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["check", str(tmp_path / "nope.non")]) == 2
    assert "nope.non" in capsys.readouterr().err


def test_check_tiny_node_budget_is_undecided(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    # the permutation puzzle needs branching: one node is not enough to decide it
    assert main(["check", "--json", "--nodes", "1", str(files["perm"])]) == 1
    record = json.loads(capsys.readouterr().out)
    assert record["verdict"] == "undecided" and "solutions" not in record
    assert main(["check", "--json", str(files["perm"])]) == 1
    assert json.loads(capsys.readouterr().out)["verdict"] == "multiple"


def test_solve_prints_grid(files: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", str(files["unique"])]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "unique" in out[0]
    assert out[1:] == ["#####", "#...#", "#####"]


def test_solve_multiple_marks_differences(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["solve", str(files["two"])]) == 1  # not unique
    out = capsys.readouterr().out
    assert "multiple" in out and "4 cells differ" in out
    assert "!!" in out


def test_solve_all_lists_every_solution(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    # a 3x3 with one cell in every row and column: the 6 permutation matrices
    assert main(["solve", "--all", str(files["perm"])]) == 1  # not unique
    out = capsys.readouterr().out
    assert "6 solutions" in out and "solution 6:" in out and "solution 7:" not in out
    assert "may be more" not in out
    assert main(["solve", "--all", "--limit", "3", str(files["perm"])]) == 1  # not unique
    out = capsys.readouterr().out
    assert "3 solutions" in out and "may be more" in out and "solution 4:" not in out


def test_solve_out_writes_picture(files: dict[str, Path], tmp_path: Path) -> None:
    target = tmp_path / "solution.pbm"
    assert main(["solve", str(files["unique"]), "--out", str(target)]) == 0
    assert target.read_text().split() == ["P1", "5", "3", "11111", "10001", "11111"]


def test_solve_out_without_solution_is_bad_input(
    files: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "x.pbm"
    assert main(["solve", str(files["none"]), "--out", str(target)]) == 2
    assert "no solution" in capsys.readouterr().err
    assert not target.exists()


def test_solve_first_prints_one_solution_and_says_it_was_not_checked(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["solve", "--first", str(files["perm"])]) == 0
    out = capsys.readouterr().out
    assert "solved" in out and "not checked for others" in out
    assert "differ" not in out
