"""Steps as sentences a solver understands, and the text replay of a solve.

Rows, columns and cells are numbered from 1 here (the model counts from 0).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from grader.i18n import N_, _, current, level_name, ngettext, rung_name, verdict_name
from grader.ladder import default_ladder
from grader.model import EMPTY, FILLED, UNKNOWN, Clue, Grid, Puzzle, format_clue
from grader.techniques.base import LineRef, Step, spans

if TYPE_CHECKING:
    from grader.grading import Grade

STATE_WORDS = {FILLED: N_("filled"), EMPTY: N_("empty")}


def state_word(state: int) -> str:
    """ "filled" or "empty", in the reader's language."""
    return _(STATE_WORDS[state])


def cells_text(positions: Iterable[int], noun: str = "cell") -> str:
    """0-based positions as people count them: "cell 4", "cells 12-13", "cells 2, 5-7"."""
    groups = spans(list(positions))
    count = sum(last - first + 1 for first, last in groups)
    listed = _(", ").join(f"{a + 1}" if a == b else f"{a + 1}-{b + 1}" for a, b in groups)
    if noun == "filled cell":
        return ngettext("filled cell {cells}", "filled cells {cells}", count, cells=listed)
    if noun == "cell":
        return ngettext("cell {cells}", "cells {cells}", count, cells=listed)
    return f"{noun}{'s' if count != 1 else ''} {listed}"


#: "first" .. "eighth": the ordinals a clue's repeated block lengths are told apart by.
ORDINALS = (N_("first"), N_("second"), N_("third"), N_("fourth"), N_("fifth"), N_("sixth"),
            N_("seventh"), N_("eighth"))


def block_name(clue: Clue, j: int) -> str:
    """ "the 4" or, when the clue holds several 4s, "the second 4"."""
    length = clue[j]
    if clue.count(length) == 1:
        return _("the {length}", length=length)
    nth = sum(1 for b in clue[: j + 1] if b == length)
    word = _(ORDINALS[nth - 1]) if nth <= len(ORDINALS) else _("{n}th", n=nth)
    return _("the {ordinal} {length}", ordinal=word, length=length)


def cell_label(cell: tuple[int, int]) -> str:
    return _("Cell (row {row}, column {column})", row=cell[0] + 1, column=cell[1] + 1)


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
            cells = cells_text(positions)
            parts.append(
                ngettext("{cells} is filled", "{cells} are filled", len(positions), cells=cells)
                if state == FILLED else
                ngettext("{cells} is empty", "{cells} are empty", len(positions), cells=cells)
            )
    return _and(parts)


def _and(parts: Sequence[str]) -> str:
    """ "a and b" (and "a, b and c") in the reader's language."""
    if len(parts) <= 1:
        return "".join(parts)
    return _("{first} and {last}", first=_(", ").join(parts[:-1]), last=parts[-1])


def _range_text(facts: Mapping[str, Any]) -> str:
    lo, hi = facts["range"]
    return cells_text(range(lo, hi + 1))


def _owner_text(clue: Clue, note: Mapping[str, Any]) -> str:
    start, end = note["run"]
    first, last = note["first"], note["last"]
    run = cells_text(range(start, end + 1), "filled cell")
    if first == last:
        return _("the {run} can only belong to {block}", run=run, block=block_name(clue, first))
    return _(
        "the {run} can belong to {earliest} at the earliest and {latest} at the latest",
        run=run, earliest=block_name(clue, first), latest=block_name(clue, last),
    )


def _gap_text(clue: Clue, facts: Mapping[str, Any]) -> str:
    after, before = facts["after_block"], facts.get("before_block")
    if not clue:
        return _("the clue is empty")
    if after < 0:
        return _("{block} cannot start that early", block=block_name(clue, 0))
    if before is None:
        return _("{block} cannot reach that far", block=block_name(clue, after))
    return _("they lie beyond the reach of {before} and {after}",
             before=block_name(clue, after), after=block_name(clue, before))


def _empty_count(step: Step) -> int:
    return sum(1 for change in step.changes if change[2] == EMPTY)


def _gap_bounds(step: Step) -> str:
    first, last = step.facts["gap"]
    start = _("the border") if first == 0 else _("empty cell {n}", n=first)
    end = (_("the border") if last == step.facts["line_length"] - 1
           else _("empty cell {n}", n=last + 2))
    return _("between {start} and {end}", start=start, end=end)


def _gap_length(step: Step) -> str:
    first, last = step.facts["gap"]
    return ngettext("{count} cell", "{count} cells", last - first + 1)


def _block_list(clue: Clue, blocks: Sequence[int]) -> str:
    return _and([block_name(clue, j) for j in blocks])


def _reaching(step: Step) -> str:
    blocks = step.facts["reaching"]
    listed = _block_list(step.clue or (), blocks)
    if len(blocks) == 1:
        return _("{blocks}, the only block", blocks=listed)
    return _("{blocks}, every block", blocks=listed)


def _owner_limit(step: Step) -> str:
    clue, blocks = step.clue or (), step.facts["candidates"]
    if len(blocks) == 1:
        return _("{block}, the only block that could own it", block=block_name(clue, blocks[0]))
    lengths = {clue[j] for j in blocks}
    if len(lengths) == 1:
        return _("every block that could own it (each a {length})", length=lengths.pop())
    longest = max(blocks, key=lambda j: clue[j])
    return _("{block}, the longest block that could own it", block=block_name(clue, longest))


def _where(step: Step) -> str:
    lo, hi = step.facts["range"]
    cells = _range_text(step.facts)
    if hi - lo + 1 == (step.clue or ())[step.facts["block"]]:
        return _("it fits only in {cells}", cells=cells)
    return _("it fits only within {cells}", cells=cells)


def _run(step: Step) -> str:
    start, end = step.facts["run"]
    return cells_text(range(start, end + 1), "filled cell")


def _failed(step: Step) -> str:
    clue = step.clue or ()
    return "".join(
        _("; if it were {block}: {why}", block=block_name(clue, f["block"]), why=f["why"])
        for f in step.facts["failed"]
    )


def _broken_in(step: Step) -> str:
    broken: LineRef | None = step.facts.get("broken_line")
    return _(" in {line}", line=broken.named) if broken is not None else ""


_REACH = (
    N_("its row and column"),
    N_("its row and column, then the lines they change"),
    N_("its row and column, the lines they change and the lines those change"),
)


def _reach(step: Step) -> str:
    rounds: int = step.facts["rounds"]
    return _(_REACH[min(rounds, len(_REACH)) - 1])


def _both_ways(step: Step) -> str:
    filled = [(r, c) for r, c, s in step.changes if s == FILLED]
    empty = [(r, c) for r, c, s in step.changes if s == EMPTY]
    parts = []
    if filled:
        parts.append(_("{cells} filled", cells=_cells_2d(filled)))
    if empty:
        parts.append(_("{cells} empty", cells=_cells_2d(empty)))
    return _and(parts)


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
    "they_are": lambda s: ngettext("it is", "they are", _empty_count(s)),
    "is_are": lambda s: ngettext("is", "are", _empty_count(s)),
    "lie": lambda s: ngettext("lies", "lie", _empty_count(s)),
    "gap_reason": lambda s: _gap_text(s.clue or (), s.facts),
    "gap_length": _gap_length,
    "gap_bounds": _gap_bounds,
    "reaching": _reaching,
    "run": _run,
    "run_is": lambda s: ngettext("is", "are", s.facts["run"][1] - s.facts["run"][0] + 1),
    "belong": lambda s: ngettext("belongs", "belong", s.facts["run"][1] - s.facts["run"][0] + 1),
    "owner_limit": _owner_limit,
    "options": lambda s: _(" or ").join(block_name(s.clue or (), j) for j in s.facts["candidates"]),
    "failed": _failed,
    "agreed": lambda s: ngettext("that choice", "every remaining choice",
                                 len(s.facts["survivors"])),
    "decides": lambda s: _decides(s),
    # grid steps
    "cell": lambda s: cell_label(s.cell or (0, 0)),
    "supposed": lambda s: state_word(s.facts["supposed"]),
    "actual": lambda s: state_word(s.changes[0][2]),
    "broken_in": _broken_in,
    "both_ways": _both_ways,
    "reach": _reach,
    "broken_line": lambda s: s.facts["broken_line"].named,
    "decided": lambda s: ngettext("{count} cell", "{count} cells", s.facts["decided"]),
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
    if cells:
        return _("no arrangement of the clue fits the cells decided so far ({cells}): the "
                 "puzzle has no solution; this line or the lines crossing it need fixing",
                 cells=cells)
    return _("no arrangement of the clue fits the cells decided so far: the puzzle has no "
             "solution; this line or the lines crossing it need fixing")


def _broken_cell(step: Step) -> str:
    if_filled: LineRef = step.facts["if_filled"]
    if_empty: LineRef = step.facts["if_empty"]
    return _(
        "{cell}: filled, {if_filled} cannot be satisfied; empty, {if_empty} cannot be "
        "satisfied: the puzzle has no solution",
        cell=cell_label(step.cell or (0, 0)), if_filled=if_filled.named, if_empty=if_empty.named,
    )


def _several_solutions(step: Step) -> str:
    differ = step.facts.get("differ", [])
    example = _(", ").join(f"({r + 1}, {c + 1})" for r, c in differ[:5])
    return ngettext(
        "guessing finds at least two solutions; they differ in {count} cell (row, column) "
        "such as {example}",
        "guessing finds at least two solutions; they differ in {count} cells (row, column) "
        "such as {example}",
        len(differ), example=example,
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
    if template:
        template = _(template)
    if step.line is not None and step.clue is not None:
        text = template.format_map(_Phrases(step)) if template else (
            _DIAGNOSES[step.technique](step) if step.technique in _DIAGNOSES
            else f"{step.technique}: {_decides(step)}"
        )
        return _("{line} ({clue}): {text}", line=step.line.label, clue=format_clue(step.clue),
                 text=text)
    if template and step.cell is not None:
        return template.format_map(_Phrases(step))
    if step.technique in _DIAGNOSES:
        return _DIAGNOSES[step.technique](step)
    return ngettext("{technique}: {count} cell decided", "{technique}: {count} cells decided",
                    len(step.changes), technique=step.technique)


def _cells_2d(cells: Sequence[tuple[int, int]]) -> str:
    shown = _(", ").join(f"({r + 1}, {c + 1})" for r, c in cells[:8])
    more = _(" and {count} more", count=len(cells) - 8) if len(cells) > 8 else ""
    return ngettext("cell (row, column) {cells}{more}", "cells (row, column) {cells}{more}",
                    len(cells), cells=shown, more=more)


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
        lines.append(f"{number:4d}. [{rung_name(step.rung)}] {sentence(step, puzzle)}")
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

    size, level = result.size, level_name(result.level)
    if not result.graded:
        return _("{name}: {size}, {level}, no score: {problem}", name=name, size=size,
                 level=level, problem=result.problem)
    stars = result.stars or 0
    words = current()
    return ngettext(
        "{name}: {size}, {level}, score {score}, about {minutes} min ({low}-{high}), "
        "{count} star, verdict {verdict}",
        "{name}: {size}, {level}, score {score}, about {minutes} min ({low}-{high}), "
        "{count} stars, verdict {verdict}",
        stars, name=name, size=size, level=level, score=words.number(result.score or 0.0, 3),
        minutes=whole(result.minutes or 0), low=whole(result.minutes_low or 0),
        high=whole(result.minutes_high or 0), verdict=verdict_name(result.verdict),
    )


def grade_closing(result: Grade) -> str:
    """The last paragraph of an explanation: where a solve that did not finish stopped."""
    if result.level == "stuck":
        unknown = result.grid.unknown_count()
        return ngettext(
            "Stuck: no technique up to the allowed rung decides another cell; {count} cell "
            "(marked ?) are still open. {problem}.",
            "Stuck: no technique up to the allowed rung decides another cell; {count} cells "
            "(marked ?) are still open. {problem}.",
            unknown, problem=f"{result.problem[0].upper()}{result.problem[1:]}",
        )
    if result.graded:
        return ""
    return f"{result.problem[0].upper()}{result.problem[1:]}."
