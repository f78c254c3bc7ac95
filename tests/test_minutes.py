"""Minutes: the time model's fields on the project's own puzzles, where they are printed,
and the sweep count it reads (no test reads the unlicensed griddlers.net data)."""

from __future__ import annotations

import io
import json
import sqlite3
from pathlib import Path

import numpy as np
import pytest
from pypdf import PdfReader

from grader import formats
from grader.grading import Grade, grade
from grader.lines import solve_line
from grader.minutes import ClueFacts, TimeModel, about_text, default_model, span_text
from grader.model import UNKNOWN, Metadata, Puzzle
from grader.results import Budget
from grader.scoring import step_terms
from grader.solver import line_solve
from grader.sweeps import Sweeps, sweep_count, sweeps_of
from grader.techniques.base import Step
from nonopress.batch.html_report import render_html
from nonopress.batch.rows import ResultRow
from nonopress.batch.store import ResultStore
from nonopress.cli import main

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = sorted((ROOT / "puzzles").glob("*.yaml"))


def graded(name: str) -> Grade:
    return grade(formats.read(ROOT / "puzzles" / name)[0])


@pytest.fixture(scope="module")
def library() -> dict[str, Grade]:
    return {path.name: grade(formats.read(path)[0]) for path in LIBRARY}


def test_every_graded_puzzle_has_ordered_minutes(library: dict[str, Grade]) -> None:
    scored = {name: g for name, g in library.items() if g.graded}
    assert len(scored) >= 10
    for name, result in scored.items():
        assert result.minutes is not None and result.minutes_low is not None, name
        assert result.minutes_high is not None, name
        assert 0 < result.minutes_low <= result.minutes <= result.minutes_high, name
        data = result.to_json()
        assert (data["minutes"], data["minutes_low"], data["minutes_high"]) == (
            result.minutes, result.minutes_low, result.minutes_high)


def test_a_puzzle_without_a_score_has_no_minutes(library: dict[str, Grade]) -> None:
    defects = [g for g in library.values() if not g.graded]
    assert defects  # the library's ambiguous die
    for result in defects:
        assert (result.minutes, result.minutes_low, result.minutes_high) == (None, None, None)
        assert result.to_json()["minutes"] is None


def test_minutes_are_deterministic() -> None:
    first, second = graded("bicycle.yaml"), graded("bicycle.yaml")
    assert (first.minutes, first.minutes_low, first.minutes_high) == (
        second.minutes, second.minutes_low, second.minutes_high)


def test_bigger_and_harder_puzzles_take_longer(library: dict[str, Grade]) -> None:
    def minutes(name: str) -> float:
        value = library[name].minutes
        assert value is not None
        return value

    # one easy picture at 10x10 against easy ones of 30x30 and 40x40
    assert minutes("cat.yaml") < minutes("sailboat.yaml") < minutes("sunflower.yaml")
    # 5x5 against 10x10
    assert minutes("house.yaml") < minutes("cat.yaml")
    # one size, harder: the alarm clock needs look-ahead (hard), the sailboat line logic
    assert library["clock.yaml"].level == "hard" and library["sailboat.yaml"].level == "easy"
    assert minutes("clock.yaml") > minutes("sailboat.yaml")
    scores = {name: library[name].score or 0.0 for name in ("qr-code.yaml", "owl.yaml")}
    assert scores["qr-code.yaml"] > scores["owl.yaml"]
    assert minutes("qr-code.yaml") > minutes("owl.yaml")  # 25x25 both


def test_the_same_picture_drawn_larger_takes_longer() -> None:
    picture = np.array([[c == "#" for c in row] for row in (
        "..##..##..", ".########.", "##########", "##########", ".########.",
        "..######..", "...####...", "....##....", "..........", "..........")])
    small = grade(Puzzle.from_picture(picture, Metadata(title="heart")))
    large = grade(Puzzle.from_picture(np.kron(picture, np.ones((3, 3), dtype=bool)),
                                      Metadata(title="heart, 30x30")))
    assert small.minutes is not None and large.minutes is not None
    assert large.minutes > 2 * small.minutes


def test_more_steps_and_more_sweeps_take_longer() -> None:
    from dataclasses import replace

    from grader.solve_shape import shape_of, step_rows

    result = graded("night-sky.yaml")
    puzzle = formats.read(ROOT / "puzzles" / "night-sky.yaml")[0]
    assert result.solution is not None and result.minutes is not None
    model = default_model()
    passes = sweeps_of(puzzle.rows, puzzle.columns)
    clues = ClueFacts.of_counts(puzzle.rows, puzzle.columns, passes.count,
                                first_sweep=passes.first)
    shape = shape_of(result.solution, step_rows(result.steps))
    base = model.estimate(step_terms(result.steps, 30, 30), clues.with_shape(shape))
    assert base.minutes == result.minutes  # what the grade said, from these facts
    twice = list(result.steps) * 2
    longer = model.estimate(step_terms(twice, 30, 30),
                            clues.with_shape(shape_of(result.solution, step_rows(twice))))
    assert longer.minutes > base.minutes
    stuck_more = replace(clues, sweeps=clues.sweeps + 8).with_shape(shape)
    assert model.estimate(step_terms(result.steps, 30, 30), stuck_more).minutes > base.minutes


def test_the_model_table_is_checked() -> None:
    good = {"intercept": -3.0, "terms": {"cells": 0.8}, "range": [-0.2, 0.2]}
    assert TimeModel.from_mapping(good).coefficients == {"cells": 0.8}
    with pytest.raises(ValueError, match="unknown terms: telepathy"):
        TimeModel.from_mapping({**good, "terms": {"telepathy": 1.0}})
    squared = {**good, "terms": {"holes^2": 0.1, "steps*size": 0.2}}
    assert TimeModel.from_mapping(squared).coefficients == {"holes^2": 0.1, "steps*size": 0.2}
    for wrong in ("holes^3", "steps*colours", "^2"):
        with pytest.raises(ValueError, match="unknown terms"):
            TimeModel.from_mapping({**good, "terms": {wrong: 1.0}})
    with pytest.raises(ValueError, match="range"):
        TimeModel.from_mapping({**good, "range": [0.2, 0.4]})
    with pytest.raises(ValueError, match="lacks intercept"):
        TimeModel.from_mapping({"terms": {}, "range": [0, 0]})


def test_a_term_is_a_feature_its_square_or_the_feature_by_size() -> None:
    from grader.minutes import FEATURES, term_names, term_value
    from grader.scoring import default_weights

    weights = default_weights()
    terms = step_terms([Step("simple-boxes", "t", ((0, 0, 2),))] * 9, 40, 40)
    clues = ClueFacts(40, 40, filled=800, blocks=120, sweeps=3)
    steps = FEATURES["steps"](terms, clues, weights)
    assert steps == pytest.approx(np.log(10))
    assert term_value("steps^2", terms, clues, weights) == pytest.approx(steps ** 2)
    assert term_value("steps*size", terms, clues, weights) == pytest.approx(steps * np.log(4))
    names = term_names()
    assert {"steps", "steps^2", "steps*size", "cells^2"} <= set(names)
    assert "cells*size" not in names  # the size's own product is its square


def test_texts() -> None:
    assert span_text(12.4, 8.2, 17.0) == "12 (8-17)"
    assert span_text(0.6, 0.5, 0.8) == "0.6 (0.5-0.8)"
    assert about_text(0.3) == "about 1 min"
    assert about_text(12.4) == "about 12 min"


# -- the sweep count ------------------------------------------------------------------------------
def naive_sweeps(puzzle: Puzzle) -> int:
    """Batenburg's count the plain way: every line of the axis, every pass, pure Python."""
    cells = np.full((puzzle.height, puzzle.width), UNKNOWN, dtype=np.uint8)
    sweeps = stale = turn = 0
    while (cells == UNKNOWN).any() and stale < 2:
        by_rows = turn % 2 == 0
        turn += 1
        clues, view = (puzzle.rows, cells) if by_rows else (puzzle.columns, cells.T)
        changed = False
        for index, clue in enumerate(clues):
            line = tuple(int(v) for v in view[index])
            solved = solve_line(clue, line)
            assert solved is not None
            if tuple(solved) != line:
                view[index] = solved
                changed = True
        sweeps += changed
        stale = 0 if changed else stale + 1
    return sweeps


@pytest.mark.parametrize("seed", range(6))
def test_sweep_count_matches_the_plain_count(seed: int) -> None:
    rng = np.random.default_rng(seed)
    puzzle = Puzzle.from_picture(rng.random((9, 11)) < 0.55, Metadata(title=f"r{seed}"))
    assert sweep_count(puzzle.rows, puzzle.columns) == naive_sweeps(puzzle)
    # small grids count with the plain line solve (no numba to load), big ones compiled
    for solve in (solve_line, line_solve):
        assert sweep_count(puzzle.rows, puzzle.columns, solve=solve) == naive_sweeps(puzzle)


def test_sweep_count_of_known_shapes() -> None:
    full = Puzzle.from_picture(np.ones((4, 6), dtype=bool), Metadata(title="full"))
    assert sweep_count(full.rows, full.columns) == 1  # every row fits exactly
    plus = Puzzle.from_picture(["..#..", "..#..", "#####", "..#..", "..#.."],
                               Metadata(title="plus"))
    assert sweep_count(plus.rows, plus.columns) == 2  # rows: the middle; columns: the rest
    assert sweep_count(plus.rows, plus.columns, deadline=0.0) == 0  # past its deadline


def test_the_first_sweep_share_is_what_one_pass_each_way_settles() -> None:
    full = Puzzle.from_picture(np.ones((4, 6), dtype=bool), Metadata(title="full"))
    assert sweeps_of(full.rows, full.columns) == Sweeps(1, 1.0)
    # the rows settle the middle row, the columns then the rest: all by the first sweep
    plus = Puzzle.from_picture(["..#..", "..#..", "#####", "..#..", "..#.."],
                               Metadata(title="plus"))
    assert sweeps_of(plus.rows, plus.columns) == Sweeps(2, 1.0)
    # a puzzle line logic cannot start: nothing settles
    ring = Puzzle.from_picture(["#.", ".#"], Metadata(title="two ways"))
    assert sweeps_of(ring.rows, ring.columns) == Sweeps(0, 0.0)
    # full and empty rows settle at once
    half = Puzzle.from_picture(np.array([[r < 5] * 10 for r in range(10)], dtype=bool),
                               Metadata(title="half"))
    assert sweeps_of(half.rows, half.columns).first == 1.0


def test_a_colour_puzzle_reads_the_colour_model_and_its_clue_facts() -> None:
    from grader.colour.model import ColourPuzzle
    from grader.colour.palette import Colour, Palette
    from grader.kinds import kind_of
    from grader.minutes import model_kind
    from grader.solve_shape import shape_of, step_rows

    palette = Palette((Colour("red", (200, 0, 0), "r"), Colour("blue", (0, 0, 200), "b")))
    picture = np.array([[1, 2, 0, 1], [1, 0, 0, 1], [2, 2, 2, 0]], dtype=np.uint8)
    puzzle = ColourPuzzle.from_picture(picture, palette)
    kind = kind_of(puzzle)
    facts = kind.clue_facts(kind.sweep_passes())
    # rows: r1 b1 r1 | r1 r1 | b3; columns: r2 b1 | b1 b1 | b1 | r2
    assert (facts.colours, facts.blocks, facts.pairs, facts.same_pairs, facts.ones) == (
        2, 12, 5, 2, 9)
    assert model_kind(facts) == "colour"
    result = kind.grade(None, Budget(seconds=30))
    assert result.minutes is not None
    terms = step_terms(result.steps, puzzle.width, puzzle.height)
    shape = shape_of(result.proved, step_rows(result.steps))
    expected = default_model("colour").estimate(terms, facts.with_shape(shape))
    assert (result.minutes, result.minutes_low, result.minutes_high) == (
        expected.minutes, expected.low, expected.high)
    assert default_model("colour") != default_model("black-and-white")
    plain = ClueFacts.of_counts([(2, 1), (3,)], [(1,), (2,), (1,)])
    assert (plain.colours, plain.pairs, plain.same_pairs, plain.ones) == (1, 1, 1, 3)
    assert model_kind(plain) == "black-and-white"


def test_the_widest_point_is_the_open_share_at_the_first_hard_step() -> None:
    easy = Step("simple-boxes", "t", tuple((0, c, 2) for c in range(5)), line=None)
    hard = Step("cell-branching", "t", ((1, 1, 2),))
    terms = step_terms([easy, hard, easy], 5, 4)
    assert terms.widest == pytest.approx(1 - 5 / 20)
    assert step_terms([easy], 5, 4).widest == 0.0  # no hard step: nothing held open


# -- where the minutes are printed ----------------------------------------------------------------
def test_grade_table_and_json_show_the_minutes(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(ROOT / "puzzles" / "cat.yaml")
    assert main(["grade", path]) == 0
    table = capsys.readouterr().out.splitlines()
    expected = graded("cat.yaml")
    assert expected.minutes is not None
    shown = span_text(expected.minutes, expected.minutes_low or 0, expected.minutes_high or 0)
    assert shown in table[1]
    assert main(["grade", "--json", path]) == 0
    record = json.loads(capsys.readouterr().out.splitlines()[0])
    assert record["minutes_low"] <= record["minutes"] <= record["minutes_high"]


def write_issue(folder: Path, extra: str) -> Path:
    for name in ("cat.yaml", "house.yaml"):
        (folder / name).write_bytes((ROOT / "puzzles" / name).read_bytes())
    path = folder / "issue.yaml"
    path.write_text(f"title: Minutes\nsolutions: false\n{extra}puzzles:\n  - cat.yaml\n"
                    "  - house.yaml\n")
    return path


def page_text(pdf: Path) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf.read_bytes())).pages)


def test_the_issue_prints_about_n_min_only_when_asked(tmp_path: Path) -> None:
    cat = graded("cat.yaml")
    assert cat.minutes is not None
    wanted = about_text(cat.minutes)
    plain, asked = tmp_path / "plain", tmp_path / "asked"
    plain.mkdir()
    asked.mkdir()
    assert main(["issue", str(write_issue(plain, "")), "-o", str(plain / "a.pdf")]) == 0
    assert "min" not in page_text(plain / "a.pdf")
    manifest = write_issue(asked, "minutes: true\n")
    assert main(["issue", str(manifest), "-o", str(asked / "a.pdf"), "--latex",
                 str(asked / "a.tex"), "--no-compile"]) == 0
    text = page_text(asked / "a.pdf")
    assert wanted in text
    assert text.count("about ") == 2  # one line under each puzzle
    tex = (asked / "a.tex").read_text(encoding="utf-8")
    assert tex.count(wanted.replace(" ", "\\ ")) == 2  # TeX's spaces are escaped


def test_a_manifest_minutes_must_be_yes_or_no(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    manifest = write_issue(tmp_path, "minutes: often\n")
    assert main(["issue", str(manifest), "-o", str(tmp_path / "a.pdf")]) == 2
    assert "minutes" in capsys.readouterr().err


def row(minutes: float | None) -> ResultRow:
    return ResultRow(key=f"k{minutes}", file="a.non", index=1, title="A", status="graded",
                     width=10, height=10, verdict="unique", level="easy", score=1.0, stars=2,
                     minutes=minutes, minutes_low=None if minutes is None else minutes - 1,
                     minutes_high=None if minutes is None else minutes + 2)


def test_batch_rows_keep_the_minutes_and_the_report_shows_them(tmp_path: Path) -> None:
    with ResultStore.create(tmp_path) as store:
        store.record(row(7.0))
    with ResultStore.open_existing(tmp_path) as store:
        (back,) = list(store.rows())
    assert (back.minutes, back.minutes_low, back.minutes_high) == (7.0, 6.0, 9.0)
    page = render_html([back])
    assert ">minutes</th>" in page and "7 (6-9)" in page


def test_a_results_database_from_before_the_minutes_still_opens(tmp_path: Path) -> None:
    with ResultStore.create(tmp_path) as store:
        store.record(row(5.0))
    db = sqlite3.connect(tmp_path / "results.sqlite")
    for name in ("minutes", "minutes_low", "minutes_high"):
        db.execute(f"ALTER TABLE results DROP COLUMN {name}")
    db.commit()
    db.close()
    with ResultStore.open_existing(tmp_path) as store:
        (old,) = list(store.rows())
    assert old.minutes is None and old.score == 1.0
    with ResultStore.create(tmp_path) as store:  # writing adds the columns
        store.record(row(3.0))
        assert {r.minutes for r in store.rows()} == {None, 3.0}


def test_the_colour_clues_count_colours_a_line_and_colours_read_across() -> None:
    # rows: red-blue-red (red read across one blue block), blue; columns of one colour
    # but the middle one, red then blue
    rows = [[(2, 1), (1, 2), (1, 1)], [(3, 2)]]
    columns = [[(1, 1)], [(1, 1), (1, 2)], [(1, 1)]]
    facts = ClueFacts.of_colour_clues(rows, columns, 2)
    assert facts.line_colours == pytest.approx(7 / 5)
    assert facts.crossings == 1
    across = ClueFacts.of_colour_clues([[(1, 1), (1, 2), (1, 3), (1, 1), (1, 2)]], [], 3)
    assert across.crossings == 2 + 2  # red across blue and green, blue across green and red
    black = ClueFacts.of_counts([[1, 1], [3]], [[1], [2], [1]])
    assert (black.line_colours, black.crossings) == (1.0, 0)
