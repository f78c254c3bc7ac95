"""Every corpus puzzle with a known solution count gets that verdict (bench/check_corpus.py
runs all 2,000 tournament puzzles; CI runs every other file and a slice of the tournaments).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from grader import formats
from grader.model import Puzzle, clues_of_picture
from grader.results import Budget
from grader.solver import solve

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
EXPECTED = {1: "unique", 2: "multiple"}
#: tournament puzzles checked in CI (of 1,000 per set)
TOURNAMENT_SLICE = 25


def known_counts() -> dict[str, int]:
    path = CORPUS / "verdicts.json"
    if not path.is_file():
        return {}
    table = json.loads(path.read_text())
    return {key: v["solutions"] for key, v in table.items() if v["solutions"] in (1, 2)}


def ci_keys() -> list[str]:
    keys = []
    for key in known_counts():
        if key.startswith("tournaments/"):
            index = int(key.partition("#")[2] or 1)
            if index > TOURNAMENT_SLICE:
                continue
        keys.append(key)
    return keys


@cache
def read_file(name: str) -> list[Puzzle]:
    return formats.read(CORPUS / name)


def puzzle_for(key: str) -> Puzzle:
    name, _, index = key.partition("#")
    return read_file(name)[int(index or 1) - 1]


@pytest.mark.slow
@pytest.mark.parametrize("key", ci_keys() or ["(corpus missing)"])
def test_corpus_verdict(key: str) -> None:
    if not CORPUS.is_dir():
        pytest.skip(f"the public corpus is not at {CORPUS}")
    puzzle = puzzle_for(key)
    result = solve(puzzle, budget=Budget(seconds=120))
    assert result.verdict == EXPECTED[known_counts()[key]], result.reason
    for solution in result.solutions:  # checked without the solver
        assert clues_of_picture(solution) == (puzzle.rows, puzzle.columns)
