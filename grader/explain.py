"""Steps as sentences a solver understands, and the text replay of a solve.

Rows, columns and cells are numbered from 1 here (the model counts from 0).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from grader.ladder import default_ladder
from grader.model import EMPTY, FILLED, UNKNOWN, Clue, Grid, Puzzle, format_clue
from grader.techniques.base import LineRef, Step, spans

if TYPE_CHECKING:
    from grader.grading import Grade

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


def _plural(count: int, one: str, many: str) -> str:
    return one if count == 1 else many


def _empty_count(step: Step) -> int:
    return sum(1 for change in step.changes if change[2] == EMPTY)


def _gap_bounds(step: Step) -> str:
    first, last = step.facts["gap"]
    before = "the border" if first == 0 else f"empty cell {first}"
    after = "the border" if last == step.facts["line_length"] - 1 else f"empty cell {last + 2}"
    return f"between {before} and {after}"


def _gap_length(step: Step) -> str:
    first, last = step.facts["gap"]
    return _plural(last - first + 1, "1 cell", f"{last - first + 1} cells")


def _block_list(clue: Clue, blocks: Sequence[int]) -> str:
    names = [block_name(clue, j) for j in blocks]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _reaching(step: Step) -> str:
    blocks = step.facts["reaching"]
    listed = _block_list(step.clue or (), blocks)
    return f"{listed}, the only block" if len(blocks) == 1 else f"{listed}, every block"


def _owner_limit(step: Step) -> str:
    clue, blocks = step.clue or (), step.facts["candidates"]
    if len(blocks) == 1:
        return f"{block_name(clue, blocks[0])}, the only block that could own it"
    lengths = {clue[j] for j in blocks}
    if len(lengths) == 1:
        return f"every block that could own it (each a {lengths.pop()})"
    longest = max(blocks, key=lambda j: clue[j])
    return f"{block_name(clue, longest)}, the longest block that could own it"


def _where(step: Step) -> str:
    lo, hi = step.facts["range"]
    fits = "in" if hi - lo + 1 == (step.clue or ())[step.facts["block"]] else "within"
    return f"it fits only {fits} {_range_text(step.facts)}"


def _run(step: Step) -> str:
    start, end = step.facts["run"]
    return cells_text(range(start, end + 1), "filled cell")


def _failed(step: Step) -> str:
    clue = step.clue or ()
    return "".join(
        f"; if it were {block_name(clue, f['block'])}: {f['why']}" for f in step.facts["failed"]
    )


def _broken_in(step: Step) -> str:
    broken: LineRef | None = step.facts.get("broken_line")
    return f" in {broken.label.lower()}" if broken is not None else ""


_REACH = (
    "its row and column",
    "its row and column, then the lines they change",
    "its row and column, the lines they change and the lines those change",
)


def _reach(step: Step) -> str:
    rounds: int = step.facts["rounds"]
    return _REACH[min(rounds, len(_REACH)) - 1]


def _both_ways(step: Step) -> str:
    filled = [(r, c) for r, c, s in step.changes if s == FILLED]
    empty = [(r, c) for r, c, s in step.changes if s == EMPTY]
    parts = []
    if filled:
        parts.append(f"{_cells_2d(filled)} filled")
    if empty:
        parts.append(f"{_cells_2d(empty)} empty")
    return " and ".join(parts)


#: The phrases a sentence template (``explain`` in ladder.yaml) may use, each built from
#: a step's facts. A template names only fields its technique's facts support.
FIELDS: dict[str, Callable[[Step], str]] = {
    # line steps
    "block": lambda s: block_name(s.clue or (), s.facts["block"]),
    "covers": lambda s: cells_text(range(s.facts["covers"][0], s.facts["covers"][1] + 1)),
    "range": lambda s: _range_text(s.facts),
    "where": _where,
    "owners": lambda s: "; ".join(_owner_text(s.clue or (), n) for n in s.facts["owners"]),
    "empties": lambda s: cells_text(_line_positions(s, EMPTY)),
    "they_are": lambda s: _plural(_empty_count(s), "it is", "they are"),
    "is_are": lambda s: _plural(_empty_count(s), "is", "are"),
    "lie": lambda s: _plural(_empty_count(s), "lies", "lie"),
    "gap_reason": lambda s: _gap_text(s.clue or (), s.facts),
    "gap_length": _gap_length,
    "gap_bounds": _gap_bounds,
    "reaching": _reaching,
    "run": _run,
    "run_is": lambda s: _plural(s.facts["run"][1] - s.facts["run"][0] + 1, "is", "are"),
    "belong": lambda s: _plural(s.facts["run"][1] - s.facts["run"][0] + 1, "belongs", "belong"),
    "owner_limit": _owner_limit,
    "options": lambda s: " or ".join(block_name(s.clue or (), j) for j in s.facts["candidates"]),
    "failed": _failed,
    "agreed": lambda s: _plural(len(s.facts["survivors"]), "that choice", "every remaining choice"),
    "decides": lambda s: _decides(s),
    # grid steps
    "cell": lambda s: cell_label(s.cell or (0, 0)),
    "supposed": lambda s: STATE_WORDS[s.facts["supposed"]],
    "actual": lambda s: STATE_WORDS[s.changes[0][2]],
    "broken_in": _broken_in,
    "both_ways": _both_ways,
    "reach": _reach,
    "broken_line": lambda s: s.facts["broken_line"].label.lower(),
    "decided": lambda s: _plural(s.facts["decided"], "1 cell", f"{s.facts['decided']} cells"),
    "nodes": lambda s: str(s.facts["nodes"]),
}


class _Phrases(Mapping[str, str]):
    """A step's phrases, each built only when its template asks for it."""

    def __init__(self, step: Step):
        self.step = step

    def __getitem__(self, name: str) -> str:
        return FIELDS[name](self.step)

    def __iter__(self) -> Iterator[str]:
        return iter(FIELDS)

    def __len__(self) -> int:
        return len(FIELDS)


def _broken_line(step: Step) -> str:
    cells = "".join(
        {FILLED: "#", EMPTY: ".", UNKNOWN: "?"}[state] for state in step.facts.get("cells", ())
    )
    given = f" ({cells})" if cells else ""
    return (
        f"no arrangement of the clue fits the cells decided so far{given}: "
        "the puzzle has no solution; this line or the lines crossing it need fixing"
    )


def _broken_cell(step: Step) -> str:
    if_filled: LineRef = step.facts["if_filled"]
    if_empty: LineRef = step.facts["if_empty"]
    return (
        f"{cell_label(step.cell or (0, 0))}: filled, {if_filled.label.lower()} cannot be "
        f"satisfied; empty, {if_empty.label.lower()} cannot be satisfied: the puzzle has "
        "no solution"
    )


def _several_solutions(step: Step) -> str:
    differ = step.facts.get("differ", [])
    example = ", ".join(f"({r + 1}, {c + 1})" for r, c in differ[:5])
    return (
        f"guessing finds at least two solutions; they differ in {len(differ)} cells "
        f"(row, column) such as {example}"
    )


#: Sentences of the steps that show a defect (no rung of the ladder takes them, so the
#: ladder table has no template for them).
_DIAGNOSES: dict[str, Callable[[Step], str]] = {
    "broken-line": _broken_line,
    "broken-cell": _broken_cell,
    "several-solutions": _several_solutions,
}


def sentence(step: Step, puzzle: Puzzle | None = None) -> str:
    """One step as a sentence, e.g. "Row 7 (3 1 4): the 4 must cover cells 12-13 ...".

    The sentence is the technique's template in the ladder table, filled with FIELDS.
    """
    template = default_ladder().templates.get(step.technique)
    if step.line is not None and step.clue is not None:
        text = template.format_map(_Phrases(step)) if template else (
            _DIAGNOSES[step.technique](step) if step.technique in _DIAGNOSES
            else f"{step.technique}: {_decides(step)}"
        )
        return f"{step.line.label} ({format_clue(step.clue)}): {text}"
    if template and step.cell is not None:
        return template.format_map(_Phrases(step))
    if step.technique in _DIAGNOSES:
        return _DIAGNOSES[step.technique](step)
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


# -- the heading and closing of a graded explanation ----------------------------------------
def grade_heading(name: str, result: Grade) -> str:
    """The first line of a puzzle's explanation."""
    from grader.minutes import whole

    size = result.size
    if not result.graded:
        return f"{name}: {size}, {result.level}, no score: {result.problem}"
    stars = result.stars or 0
    return (
        f"{name}: {size}, {result.level}, score {result.score:.3f}, "
        f"about {whole(result.minutes or 0)} min ({whole(result.minutes_low or 0)}-"
        f"{whole(result.minutes_high or 0)}), "
        f"{stars} star{'s' * (stars != 1)}, verdict {result.verdict}"
    )


def grade_closing(result: Grade) -> str:
    """The last paragraph of an explanation: where a solve that did not finish stopped."""
    if result.level == "stuck":
        unknown = result.grid.unknown_count()
        return (
            f"Stuck: no technique up to the allowed rung decides another cell; {unknown} "
            f"cell{'s' * (unknown != 1)} (marked ?) are still open. "
            f"{result.problem[0].upper()}{result.problem[1:]}."
        )
    if result.graded:
        return ""
    return f"{result.problem[0].upper()}{result.problem[1:]}."
