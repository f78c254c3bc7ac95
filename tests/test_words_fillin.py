"""Fill-in puzzles: uniqueness by complete search, the graded ladder, the starter, files
and the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from grader.errors import FormatError, NonopressError
from grader.results import Budget
from nonopress.cli import main
from words import default_word_list, fill, parse_grid
from words.fillin import FillIn, count_fillin_solutions, make_fillin
from words.fillin_grade import RUNGS, grade_fillin
from words.formats import read_grid_file, read_ipuz, write_grid, write_ipuz
from words.grid import Grid

DATA = Path(__file__).parent / "data" / "words"


@pytest.fixture(scope="module")
def filled() -> Grid:
    grid = parse_grid((DATA / "ginsberg-20.txt").read_text())
    result = fill(grid, default_word_list(), seed=0, budget=Budget(seconds=30))
    assert result.status == "filled"
    return result.grid


def test_open_square_without_starter_has_two_solutions() -> None:
    square = parse_grid("AB\nCD\n")
    alone = FillIn(square, None)
    count = count_fillin_solutions(alone)
    assert count.verdict == "multiple"
    transposed = parse_grid("AC\nBD\n")
    assert set(count.solutions) == {square, transposed}
    assert count.differing_cells() == [(0, 1), (1, 0)]
    started = FillIn(square, square.find_slot("1A").index)
    assert count_fillin_solutions(started).verdict == "unique"
    assert grade_fillin(alone).level == "ambiguous"


def test_fillin_lists_every_entry_by_length(filled: Grid) -> None:
    puzzle = make_fillin(filled)
    groups = puzzle.words_by_length()
    assert sorted(w for ws in groups.values() for w in ws) == sorted(
        filled.entry(s) for s in filled.slots)
    assert all(len(w) == n for n, ws in groups.items() for w in ws)
    assert all(ws == sorted(ws) for ws in groups.values())
    starter = puzzle.starter_slot
    assert starter is not None
    givens = puzzle.givens
    assert givens.entry(starter) == puzzle.starter_word
    assert sum(ch.isalpha() for row in givens.rows for ch in row) == starter.length


def test_grade_steps_replay_to_the_solution(filled: Grid) -> None:
    puzzle = make_fillin(filled)
    grade = grade_fillin(puzzle)
    assert grade.verdict == "unique" and grade.solved
    assert count_fillin_solutions(puzzle).verdict == "unique"
    letters = dict(zip(puzzle.starter_slot.cells, puzzle.starter_word, strict=True))  # type: ignore[union-attr]
    for step in grade.steps:
        assert step.rung in RUNGS
        assert filled.entry(step.slot) == step.word  # every step is right
        letters.update(zip(step.slot.cells, step.word, strict=True))
        assert step.slot.label in step.reason and step.word in step.reason
    assert puzzle.givens.with_letters(letters) == filled
    assert grade.level in ("easy", "medium", "hard", "fiendish", "needs-guessing")
    assert 1 <= grade.stars <= 5
    assert sum(grade.rungs.values()) == len(grade.steps)


def test_a_puzzle_without_starter_can_need_more_than_singles() -> None:
    # rows CAT/ARE/TEA, columns CAT/ARE/TEA: a symmetric square, the transpose is itself
    square = parse_grid("CAT\nARE\nTEA\n")
    puzzle = FillIn(square, None)
    grade = grade_fillin(puzzle)
    assert grade.verdict == "unique"
    assert grade.steps[0].rung in ("trial", "guess", "crossing-check", "one-place")
    assert grade.level != "easy"


def test_starter_by_name_or_word(filled: Grid) -> None:
    slot = filled.slots[3]
    assert make_fillin(filled, slot.short).starter == slot.index
    assert make_fillin(filled, filled.entry(slot)).starter_word == filled.entry(slot)
    assert make_fillin(filled, "none").starter is None
    with pytest.raises(NonopressError, match="neither a slot"):
        make_fillin(filled, "XYZZY")
    with pytest.raises(NonopressError, match="fill it first"):
        make_fillin(filled.blank())


@pytest.mark.parametrize("kind", ["text", "ipuz", "puz"])
def test_files_round_trip(filled: Grid, kind: str, tmp_path: Path) -> None:
    puzzle = make_fillin(filled)
    path = tmp_path / f"grid.{'txt' if kind == 'text' else kind}"
    path.write_bytes(write_grid(filled, kind, title="Round trip", fillin=puzzle))
    back = read_grid_file(path)
    assert back.grid == filled
    if kind != "text":
        assert back.title == "Round trip"


def test_ipuz_keeps_blank_grid_and_given_letters(filled: Grid) -> None:
    puzzle = make_fillin(filled)
    data = json.loads(write_ipuz(filled, fillin=puzzle))
    assert data["kind"] == ["http://ipuz.org/crossword#1"]
    givens = [cell["value"] for row in data["puzzle"] for cell in row if isinstance(cell, dict)]
    assert "".join(givens) == puzzle.starter_word  # read row by row: across or down alike
    assert puzzle.starter_word in data["notes"]
    blank = filled.blank()
    assert read_ipuz(write_ipuz(blank)).grid == blank


@pytest.mark.parametrize(
    ("text", "message"),
    [("{", "not valid JSON"), ("[]", "JSON object"),
     ('{"kind": ["http://ipuz.org/sudoku#1"]}', "not an ipuz crossword"),
     ('{"kind": ["http://ipuz.org/crossword#1"], "dimensions": {"width": 9999, "height": 2}}',
      "dimensions")],
)
def test_bad_ipuz_is_one_clear_error(text: str, message: str) -> None:
    with pytest.raises(FormatError, match=message):
        read_ipuz(text, "bad.ipuz")


def test_bad_puz_is_one_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.puz"
    path.write_bytes(b"not a puz file at all")
    with pytest.raises(FormatError, match=r"bad\.puz"):
        read_grid_file(path)


def test_cli_fill_writes_a_valid_grid(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "filled.ipuz"
    status = main(["fill", str(DATA / "ginsberg-20.txt"), "--seed", "3", "-o", str(out)])
    assert status == 0
    grid = read_grid_file(out).grid
    words = default_word_list()
    assert grid.is_complete and all(grid.entry(s) in words for s in grid.slots)
    assert main(["fill", str(DATA / "ginsberg-20.txt"), "--seed", "3", "--json"]) == 0
    record = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert record["status"] == "filled" and "\n".join(record["grid"]) + "\n" == grid.to_text()


def test_cli_fill_reports_no_fill(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    grid = tmp_path / "q.txt"
    grid.write_text("QX.\n...\n...\n")
    assert main(["fill", str(grid), "--words", str(DATA / "mini.txt")]) == 1
    assert "no word in the list fits 1 Across" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "message"),
    [(["fill", "missing.txt"], "missing.txt: file not found"),
     (["fill", "{grid}", "--words", "nowords.txt"], "nowords.txt: word list not found"),
     (["fill", "{grid}", "--lock", "1A"], "expected SLOT=WORD"),
     (["fill", "{grid}", "--lock", "1A=CAT", "--lock", "1A=DOG"],
      "--lock 1A=CAT and --lock 1A=DOG: two words for one slot"),
     (["fill", "{grid}", "--lock", "1A=CAT", "--lock", "1 across=DOG"],
      "two words for one slot, CAT and DOG"),
     (["fillin", "{grid}", "--starter", "ZZZZZ"], "neither a slot")],
)
def test_cli_bad_input_is_one_line_and_status_2(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [a.replace("{grid}", str(DATA / "ginsberg-20.txt")) for a in args]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert message in err[-1] and "Traceback" not in "".join(err)
    assert len(err) == 1 or err[0].endswith(" s")  # fillin may first say how it filled


def test_cli_fillin_prints_list_and_grade(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                          ) -> None:
    out = tmp_path / "puzzle.puz"
    status = main(["fillin", str(DATA / "ginsberg-20.txt"), "--seed", "1", "-v", "-o", str(out)])
    text = capsys.readouterr().out
    assert status == 0
    assert "starter:" in text and "3 letters:" in text and "\tunique\t" not in text
    assert "unique" in text and "1. " in text
    assert read_grid_file(out).grid.is_complete


def test_grading_respects_its_budget(filled: Grid) -> None:
    grade = grade_fillin(FillIn(filled, 0), budget=Budget(seconds=0.0))
    assert grade.verdict == "undecided" and not grade.solved


# Rung regression cases (one a function, HoDoKu style): each finder fires where a person
# would take its step and stays silent where the step is not there.
def ladder_state(grid_text: str, words: str):  # type: ignore[no-untyped-def]
    from collections import Counter

    from words.fillin_grade import _State

    return _State(parse_grid(grid_text), Counter(words.split()))


TEE = "...\n#.#\n...\n"  # 1 Across, 2 Down (through both middles), 3 Across


def test_crossing_check_strikes_words_a_crossing_cannot_take() -> None:
    from words.fillin_grade import _crossing_check, _one_fits, _one_place, _only_length

    state = ladder_state(TEE, "BAT TOE ADO")
    assert not _only_length(state) and not _one_fits(state) and not _one_place(state)
    found = _crossing_check(state)
    slot, word, reason = found[0]
    assert (slot.label, word) == ("1 Across", "BAT")
    assert "TOE would leave 2 Down without a word" in reason
    puzzle = FillIn(parse_grid("BAT\n#D#\nTOE\n"), None)
    grade = grade_fillin(puzzle)
    assert [s.rung for s in grade.steps] == ["crossing-check", "one-fits", "only-length"]
    assert grade.level == "hard"


def test_one_place_finds_the_only_slot_for_a_word() -> None:
    from words.fillin_grade import _one_fits, _one_place

    state = ladder_state(".A.\n#.#\n...\n", "CAT RAT ZOO")
    assert [(s.label, w) for s, w, _ in _one_place(state)] == [("3 Across", "ZOO")]
    assert not _one_fits(state)  # 1 Across takes CAT or RAT, 3 Across any of the three


def test_only_length_needs_one_slot_and_one_word_left() -> None:
    from words.fillin_grade import _only_length

    assert not _only_length(ladder_state(TEE, "BAT TOE ADO"))  # three of each
    state = ladder_state("....\n#.##\n#.##\n", "WORD OAK")
    assert [(s.label, w) for s, w, _ in _only_length(state)] == [
        ("2 Down", "OAK"), ("1 Across", "WORD")]  # shortest length first
