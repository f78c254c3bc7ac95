"""Rung 1 on a big grid runs in compiled rounds (line_ranges.simple_rounds): the same steps.

The engine takes rung 1's deductions as batches, biggest first, each on the cells still
open. On a grid with long lines the kernel runs those batches itself; here every step it
logs (cells, technique, facts, openings) is compared with the engine's own batches, on
random puzzles, on broken ones (the same line named) and under a budget.
"""

from __future__ import annotations

import random
import time

import numpy as np
import pytest

from grader.engine import Engine, LineBroken
from grader.errors import BudgetExceeded, Contradiction
from grader.grading import grade
from grader.model import Puzzle
from grader.results import Budget
from grader.solver import line_ranges
from grader.techniques import ranges
from grader.techniques.base import Step


def log(steps: tuple[Step, ...] | list[Step]) -> list[tuple[object, ...]]:
    return [(s.rung, s.technique, s.changes, s.line, s.clue, s.cell, s.openings,
             dict(s.facts)) for s in steps]


def random_puzzle(rng: random.Random, height: int, width: int) -> Puzzle:
    density = rng.choice((0.45, 0.6, 0.75))
    picture = ["".join("#" if rng.random() < density else "." for _ in range(width))
               for _ in range(height)]
    return Puzzle.from_picture(picture)


def without_rounds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Engine, "_simple_rounds", lambda self: False)


def test_the_compiled_rounds_log_what_the_engines_batches_log(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = random.Random(5)
    # every grid counts as big: small random puzzles reach every rung often
    monkeypatch.setattr(ranges, "COMPILED_FROM", 1)
    puzzles = [random_puzzle(rng, rng.randint(2, 16), rng.randint(2, 16)) for _ in range(120)]
    called: list[int] = []
    real = line_ranges.simple_rounds

    def counted(*args):  # type: ignore[no-untyped-def]
        called.append(1)
        return real(*args)

    monkeypatch.setattr(line_ranges, "simple_rounds", counted)
    with_rounds = [grade(p) for p in puzzles]
    assert len(called) > len(puzzles)  # the rounds did the work
    without_rounds(monkeypatch)
    batches = [grade(p) for p in puzzles]
    for puzzle, have, want in zip(puzzles, with_rounds, batches, strict=True):
        assert log(have.steps) == log(want.steps), puzzle.rows
        assert (have.level, have.score, have.verdict) == (want.level, want.score, want.verdict)
    levels = {g.level for g in batches}
    assert {"easy", "hard", "ambiguous"} <= levels  # rounds between every kind of rung


def test_a_wide_puzzle_takes_the_rounds_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(9)
    puzzle = random_puzzle(rng, 10, ranges.COMPILED_FROM + 10)
    engine = Engine(puzzle)
    assert engine._simple_rounds()  # rung 1 had deductions, and took them
    assert not engine._simple_rounds()  # none left until another rung decides a cell
    fast = grade(puzzle)
    without_rounds(monkeypatch)
    slow = grade(puzzle)
    assert log(fast.steps) == log(slow.steps) and len(fast.steps) > 30
    assert sum(s.rung == "simple-boxes" for s in fast.steps) > 10


def run_engine(puzzle: Puzzle) -> tuple[object, ...]:
    """How the ladder ends on ``puzzle``: its log, and the broken line's words if one broke."""
    engine = Engine(puzzle)
    try:
        engine.run()
    except LineBroken as exc:
        return str(exc), exc.rung, exc.line, log(engine.steps)
    except Contradiction as exc:  # a grid rung's: no line named
        return str(exc), log(engine.steps)
    return "ran", log(engine.steps)


def test_a_line_broken_in_a_round_is_named_as_the_finder_names_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(ranges, "COMPILED_FROM", 1)
    rng = random.Random(2)
    broken = 0
    for _ in range(200):
        good = random_puzzle(rng, rng.randint(3, 10), rng.randint(3, 10))
        rows = list(good.rows)
        first, second = rng.sample(range(len(rows)), 2)
        if rows[first] == rows[second]:
            continue
        # two rows' clues swapped: the totals still agree, the columns mostly do not
        rows[first], rows[second] = rows[second], rows[first]
        puzzle = Puzzle(rows=tuple(rows), columns=good.columns)
        in_rounds = run_engine(puzzle)
        with monkeypatch.context() as batches:
            without_rounds(batches)
            assert in_rounds == run_engine(puzzle), puzzle.rows
        broken += len(in_rounds) == 4
    assert broken > 50


def test_the_rounds_keep_the_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """A call runs ROUNDS_A_CALL rounds at most; the deadline is looked at after each."""
    rng = random.Random(4)
    puzzle = random_puzzle(rng, 12, ranges.COMPILED_FROM + 40)
    engine = Engine(puzzle, budget=Budget(seconds=3600))
    calls: list[int] = []
    real = line_ranges.simple_rounds

    def expire(*args):  # type: ignore[no-untyped-def]
        calls.append(1)
        engine.context.deadline = time.monotonic() - 1
        return real(*args[:-1], 1)  # one round a call: the rounds are not over yet

    monkeypatch.setattr(line_ranges, "simple_rounds", expire)
    with pytest.raises(BudgetExceeded):
        engine.run()
    assert len(calls) == 1 and engine.steps
    # the lines the next round would search are kept for it
    assert engine._dirty["simple-boxes"]


def test_the_kernel_takes_a_round_biggest_first_on_the_cells_still_open() -> None:
    """A 1x5 row of clue 4 and its columns: the row's overlap (3 cells) goes first, then
    the columns that can decide their one cell."""
    puzzle = Puzzle.from_picture(["####."])
    clues, counts = np.array([[4], [1], [1], [1], [1], [0]]), np.array([1, 1, 1, 1, 1, 0])
    grid = puzzle.start_cells()
    dirty = np.ones(6, dtype=np.uint8)
    outcome, record, used, _ = line_ranges.simple_rounds(clues, counts, grid, dirty, 1)
    assert outcome == line_ranges.ROUNDS_MORE
    head = line_ranges.STEP_HEAD
    steps = []
    at = 0
    while at < used:
        taken = int(record[at + head - 1])
        steps.append((record[at:at + head].tolist(),
                      record[at + head:at + head + taken].tolist()))
        at += head + taken
    # the round found 6 deductions, the biggest first: the row's overlap (columns 2-4),
    # then one cell in each column (clue 1: filled; no clue: empty)
    assert steps[0] == ([0, 0, 0, 0, 4, 6, 3], [1, 2, 3])  # range 0..4
    # column 1's cell, then column 5's gap (the cells of columns 2-4 were decided)
    assert [(s[0][:2], s[1]) for s in steps[1:]] == [([1, 0], [0]), ([5, 1], [0])]
    assert grid.tolist() == [[2, 2, 2, 2, 1]]


def test_a_round_with_thousands_of_deductions_outgrows_the_kernels_first_buffers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Stripes, 69 wide and 70 tall: each row's 35 blocks and 34 gaps and each column's
    whole line, in one round of 4,899 deductions (the kernel starts with room for 256 of
    them and 4,096 numbers of steps)."""
    puzzle = Puzzle.from_picture(["#." * 34 + "#"] * 70)
    fast = grade(puzzle)
    assert fast.steps[0].openings == 70 * 69 + 69
    without_rounds(monkeypatch)
    assert log(fast.steps) == log(grade(puzzle).steps)
