"""The colour rungs' line techniques, as cases: one file a technique under
tests/data/colour_rungs/, each line ``clue | cells before | cells after one pass`` (as the
black-and-white rungs' cases in tests/data/techniques/). A new colour technique adds its
file; a changed one shows the cases it changes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from grader.colour.grading import _Grader, colour_rungs
from grader.colour.model import ColourClue, ColourPuzzle
from grader.colour.palette import Colour, Palette
from grader.errors import Contradiction

DATA = Path(__file__).parent / "data" / "colour_rungs"
#: the palette every case names its colours by (r b g), and a cell's characters as bits
PALETTE = Palette((Colour("red", (220, 30, 30), "r"), Colour("blue", (30, 60, 200), "b"),
                   Colour("green", (40, 150, 60), "g")))
BITS = {".": 1, "r": 2, "b": 4, "g": 8}
ANY = sum(BITS.values())
#: the line techniques of the colour ladder, each the grader's own
TECHNIQUES = [name for rung in colour_rungs() if rung.scope == "line"
              for name in rung.colour_techniques]


def _grader() -> Any:
    return _Grader(ColourPuzzle.from_picture(np.array([[1, 2, 3]], dtype=np.uint8), PALETTE),
                   0, None)


def _clue(text: str) -> ColourClue:
    index = {PALETTE[i].char: i for i in range(1, PALETTE.size + 1)}
    return () if text == "0" else tuple((int(t[:-1]), index[t[-1]]) for t in text.split())


def _cell(text: str) -> int:
    return ANY if text == "?" else sum(BITS[ch] for ch in text)


def _text(value: int) -> str:
    return "?" if value == ANY else "".join(ch for ch, bit in BITS.items() if value & bit)


def _cases() -> list[Any]:
    cases = []
    for name in TECHNIQUES:
        for number, raw in enumerate((DATA / f"{name}.txt").read_text().splitlines(), 1):
            line = raw.strip()
            if line and not line.startswith("#"):
                clue, before, after = (part.strip() for part in line.split("|"))
                cases.append(pytest.param(name, clue, before, after, id=f"{name}:{number}"))
    return cases


def _apply(name: str, clue: str, before: str) -> str:
    cells = [_cell(t) for t in before.split()]
    try:
        deduction = _grader().technique(name)(_clue(clue), cells)
    except Contradiction:
        return "contradiction"
    for position, value in deduction.changes if deduction is not None else ():
        cells[position] = value
    return " ".join(_text(v) for v in cells)


@pytest.mark.parametrize(("name", "clue", "before", "after"), _cases())
def test_colour_rung_case(name: str, clue: str, before: str, after: str) -> None:
    assert _apply(name, clue, before) == after


def test_every_colour_technique_has_cases_where_it_must_and_must_not_fire() -> None:
    for name in TECHNIQUES:
        cases = [c.values for c in _cases() if c.values[0] == name]
        assert any(before == after for _, _, before, after in cases), name
        assert any(before != after != "contradiction" for _, _, before, after in cases), name


def test_every_case_file_is_a_line_technique_of_the_colour_ladder() -> None:
    assert sorted(p.stem for p in DATA.glob("*.txt")) == sorted(TECHNIQUES)
