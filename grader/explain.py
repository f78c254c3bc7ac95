"""Steps as sentences a solver understands, and the text replay of a solve.

Rows, columns and cells are numbered from 1 here (the model counts from 0).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from grader.model import EMPTY, FILLED, UNKNOWN, Clue, Grid, Puzzle, format_clue
from grader.techniques.base import LineRef, Step, spans

STATE_WORDS = {FILLED: "filled", EMPTY: "empty"}


def cells_text(positions: Iterable[int], noun: str = "cell") -> str:
    """0-based positions as people count them: "cell 4", "cells 12-13", "cells 2, 5-7"."""
    groups = spans(list(positions))
    count = sum(last - first + 1 for first, last in groups)
    parts = [f"{a + 1}" if a == b else f"{a + 1}-{b + 1}" for a, b in groups]
    return f"{noun}{'s' if count != 1 else ''} {', '.join(parts)}"


def block_name(clue: Clue, j: int) -> str:
    """ "the 4" or, when the clue holds several 4s, "the second 4"."""
    length = clue[j]
    if clue.count(length) == 1:
        return f"the {length}"
    nth = sum(1 for b in clue[: j + 1] if b == length)
    ordinals = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")
    word = ordinals[nth - 1] if nth <= len(ordinals) else f"{nth}th"
    return f"the {word} {length}"


def cell_label(cell: tuple[int, int]) -> str:
    return f"Cell (row {cell[0] + 1}, column {cell[1] + 1})"


def _line_positions(step: Step, state: int) -> list[int]:
    assert step.line is not None
    along = 1 if step.line.axis == "row" else 0
    return [change[along] for change in step.changes if change[2] == state]


def _decides(step: Step) -> str:
    """ "cells 3-5 are filled and cell 9 is empty" for a line step."""
    parts = []
    for state in (FILLED, EMPTY):
        positions = _line_positions(step, state)
        if positions:
            verb = "is" if len(positions) == 1 else "are"
            parts.append(f"{cells_text(positions)} {verb} {STATE_WORDS[state]}")
    return " and ".join(parts)


def _range_text(facts: Mapping[str, Any]) -> str:
    lo, hi = facts["range"]
    return cells_text(range(lo, hi + 1))


def _owner_text(clue: Clue, note: Mapping[str, Any]) -> str:
    start, end = note["run"]
    first, last = note["first"], note["last"]
    run = cells_text(range(start, end + 1), "filled cell")
    if first == last:
        return f"the {run} can only belong to {block_name(clue, first)}"
    return (
        f"the {run} can belong to {block_name(clue, first)} at the earliest "
        f"and {block_name(clue, last)} at the latest"
    )


def _gap_text(clue: Clue, facts: Mapping[str, Any]) -> str:
    after, before = facts["after_block"], facts.get("before_block")
    if not clue:
        return "the clue is empty"
    if after < 0:
        return f"{block_name(clue, 0)} cannot start that early"
    if before is None:
        return f"{block_name(clue, after)} cannot reach that far"
    return f"they lie beyond the reach of {block_name(clue, after)} and {block_name(clue, before)}"


def sentence(step: Step, puzzle: Puzzle | None = None) -> str:
    """One step as a sentence, e.g. "Row 7 (3 1 4): the 4 must cover cells 12-13 ..."."""
    if step.line is not None and step.clue is not None:
        return f"{step.line.label} ({format_clue(step.clue)}): {_line_sentence(step)}"
    return _grid_sentence(step)


def _line_sentence(step: Step) -> str:
    clue, facts = step.clue or (), step.facts
    technique = step.technique
    if technique in ("simple-boxes", "extreme-owners") and "block" in facts:
        block = block_name(clue, facts["block"])
        lo, hi = facts["range"]
        covers = cells_text(range(facts["covers"][0], facts["covers"][1] + 1))
        where = f"it fits only within {_range_text(facts)}"
        if hi - lo + 1 == clue[facts["block"]]:
            where = f"it fits only in {_range_text(facts)}"
        if technique == "extreme-owners" and facts.get("owners"):
            why = "; ".join(_owner_text(clue, note) for note in facts["owners"])
            return f"{why}, so {block} lies within {_range_text(facts)} and must cover {covers}"
        return f"{block} must cover {covers} wherever it lies ({where})"
    if technique in ("simple-spaces", "extreme-owners"):
        empties = cells_text(_line_positions(step, EMPTY))
        verb = "is" if len(_line_positions(step, EMPTY)) == 1 else "are"
        reason = _gap_text(clue, facts)
        if technique == "extreme-owners" and facts.get("owners"):
            owners = "; ".join(_owner_text(clue, note) for note in facts["owners"])
            pronoun = "it" if verb == "is" else "they"
            return f"{owners}, so no block can reach {empties}: {pronoun} {verb} empty"
        pronoun = "it" if verb == "is" else "they"
        return f"no block can reach {empties} ({reason}), so {pronoun} {verb} empty"
    if technique == "owner-branching":
        start, end = facts["run"]
        run = cells_text(range(start, end + 1), "filled cell")
        options = " or ".join(block_name(clue, j) for j in facts["candidates"])
        failed = "".join(
            f"; if it were {block_name(clue, f['block'])}: {f['why']}" for f in facts["failed"]
        )
        survivors = facts["survivors"]
        agreed = "that choice" if len(survivors) == 1 else "every remaining choice"
        verb = "belongs" if start == end else "belong"
        return f"the {run} {verb} to {options}{failed}; with {agreed}, {_decides(step)}"
    if technique == "line-analysis":
        return f"every arrangement of the clue that fits the line agrees: {_decides(step)}"
    if technique == "broken-line":
        cells = "".join(
            {FILLED: "#", EMPTY: ".", UNKNOWN: "?"}[state] for state in facts.get("cells", ())
        )
        given = f" ({cells})" if cells else ""
        return (
            f"no arrangement of the clue fits the cells decided so far{given}: "
            "the puzzle has no solution; this line or the lines crossing it need fixing"
        )
    return f"{technique}: {_decides(step)}"


def _grid_sentence(step: Step) -> str:
    facts = step.facts
    if step.technique == "contradiction" and step.cell is not None:
        supposed = STATE_WORDS[facts["supposed"]]
        actual = STATE_WORDS[step.changes[0][2]]
        broken: LineRef | None = facts.get("broken_line")
        where = f" in {broken.label.lower()}" if broken is not None else ""
        return (
            f"{cell_label(step.cell)}: supposing it {supposed}, line logic ends in a "
            f"contradiction{where}; so it is {actual}"
        )
    if step.technique == "both-ways" and step.cell is not None:
        filled = [(r, c) for r, c, s in step.changes if s == FILLED]
        empty = [(r, c) for r, c, s in step.changes if s == EMPTY]
        parts = []
        if filled:
            parts.append(f"{_cells_2d(filled)} filled")
        if empty:
            parts.append(f"{_cells_2d(empty)} empty")
        return (
            f"{cell_label(step.cell)}: filled or empty, line logic then makes "
            f"{' and '.join(parts)} either way"
        )
    if step.technique == "guess" and step.cell is not None:
        supposed = STATE_WORDS[facts["supposed"]]
        actual = STATE_WORDS[step.changes[0][2]]
        return (
            f"{cell_label(step.cell)}: nothing above decides a cell; guessing and backtracking "
            f"({facts['nodes']} positions searched) shows that {supposed} leads to no "
            f"solution; so it is {actual}"
        )
    if step.technique == "broken-cell" and step.cell is not None:
        if_filled: LineRef = facts["if_filled"]
        if_empty: LineRef = facts["if_empty"]
        return (
            f"{cell_label(step.cell)}: filled, {if_filled.label.lower()} cannot be "
            f"satisfied; empty, {if_empty.label.lower()} cannot be satisfied: the puzzle has "
            "no solution"
        )
    if step.technique == "several-solutions":
        differ = facts.get("differ", [])
        example = ", ".join(f"({r + 1}, {c + 1})" for r, c in differ[:5])
        return (
            f"guessing finds at least two solutions; they differ in {len(differ)} cells "
            f"(row, column) such as {example}"
        )
    return f"{step.technique}: {len(step.changes)} cells decided"


def _cells_2d(cells: Sequence[tuple[int, int]]) -> str:
    shown = ", ".join(f"({r + 1}, {c + 1})" for r, c in cells[:8])
    more = f" and {len(cells) - 8} more" if len(cells) > 8 else ""
    noun = "cell" if len(cells) == 1 else "cells"
    return f"{noun} (row, column) {shown}{more}"


def replay(puzzle: Puzzle, steps: Sequence[Step]) -> Iterator[tuple[Step, Grid]]:
    """Each step with the grid right after it (starting from the givens alone)."""
    cells = puzzle.start_cells()
    for step in steps:
        for r, c, state in step.changes:
            cells[r, c] = state
        yield step, Grid(cells.copy())


def explain_text(puzzle: Puzzle, steps: Sequence[Step], title: str = "") -> str:
    """Every step as a numbered sentence, with the grid after each change of rung."""
    lines = [title] if title else []
    replayed = list(replay(puzzle, steps))
    for number, (step, grid) in enumerate(replayed, 1):
        lines.append(f"{number:4d}. [{step.rung}] {sentence(step, puzzle)}")
        following = replayed[number][0].rung if number < len(replayed) else None
        if following != step.rung:
            lines.append("")
            lines.extend("      " + row for row in grid.to_rows())
            lines.append("")
    return "\n".join(lines)
