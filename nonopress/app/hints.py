"""The player's hint table: the grader's own step log, turned into what a hint needs.

For every logged step that decides at least one cell: its premises (the cells known on its
line when it was taken, and, for a colour cell only narrowed so far, whatever the steps that
narrowed it stood on) and its conclusion (the cells it decided). The player's hint for a
position is the earliest step whose premises are all on the board and whose conclusion is
not; it needs no solver of its own. Values are never stored here: a premise or a conclusion
cell holds the solution's value, which the player has.

Line steps keep their premises line-relative ("p": positions along the line) to stay small
on a 30x30 page; a grid step (cell branching, recursion) stands on everything decided before
it ("g": 1). A kind whose clues sit in the cells (the mosaic) has a table of its own
(:func:`clue_hint_table`): each step's premises are the decided cells it stood on.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

from grader.i18n import _, level_name, ngettext
from grader.ladder import default_ladder
from grader.techniques.base import Step, spans

#: a technique's name as the ladder spells its rungs' ("simple-spaces")
_NAME = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")


def ranges_text(positions: Iterable[int]) -> str:
    """Sorted 0-based positions as "0-3,7,9-12" (the player reads them back)."""
    return ",".join(f"{a}" if a == b else f"{a}-{b}" for a, b in spans(sorted(set(positions))))


def where_text(level: str, axis: str | None) -> str:
    """Stage 1 of a hint: how hard the step is and where it lies, not which line (in the
    reader's language: the table is built, and cached, a language at a time)."""
    shown = level_name(level)
    if axis is None:
        return _("A cell to try both ways, across the whole grid ({level})", level=shown)
    if axis == "row":
        return _("A step in the rows ({level})", level=shown)
    return _("A step in the columns ({level})", level=shown)


def hint_table(
    width: int,
    height: int,
    steps: Sequence[Step],
    say: Callable[[Step], str],
    colour: bool,
    known_at_start: Iterable[int] = (),
    bracket_rung: bool = True,
) -> dict[str, Any]:
    """The hint table of a solve: its steps in log order, each naming its rung and stage-1
    words by index into ``rungs`` and ``where``.

    ``say`` words a step as ``grade --explain`` does; ``colour``: the changes are bit sets
    of the values left (else cell states); ``known_at_start``: the givens' cell indices.
    ``bracket_rung``: the sentence opens with "[rung]", as the black-and-white explanation
    prints it.
    """
    ladder = default_ladder()
    known = [False] * (width * height)
    for index in known_at_start:
        known[index] = True
    masks: dict[int, int] = {}  # colour: the bit set left to a cell narrowed so far
    support: dict[int, set[int]] = {}  # a narrowed, not known cell: what narrowed it
    entries: list[dict[str, Any]] = []
    rungs: list[str] = []
    wheres: list[str] = []
    for step in steps:
        line = step.line
        grid_step = line is None
        if line is not None:
            on_line = [line.cell(p) for p in range(width if line.axis == "row" else height)]
            indices = [r * width + c for r, c in on_line]
            premises = {p for p, i in enumerate(indices) if known[i]}
            extra: set[int] = set()
            for i in indices:
                if not known[i] and i in support:
                    extra |= support[i]
        decided: list[int] = []
        narrowed: list[int] = []
        for row, column, value in step.changes:
            index = row * width + column
            if known[index]:
                continue
            if not colour:
                known[index] = True
                decided.append(index)
                continue
            left = masks.get(index, -1) & int(value)
            masks[index] = left
            if left & (left - 1) == 0:
                known[index] = True
                decided.append(index)
                support.pop(index, None)
            else:
                narrowed.append(index)
        if grid_step:
            extra = {i for i, k in enumerate(known) if k and i not in decided}
        elif line is not None:
            extra -= set(indices[p] for p in premises)
        for index in narrowed:
            support.setdefault(index, set()).update(
                extra | ({indices[p] for p in premises} if line is not None else set()))
        if not decided:
            continue
        rung = ladder[step.rung] if step.rung in ladder.names else None
        level = rung.level if rung is not None else "hard"
        axis = None if line is None else line.axis
        entry: dict[str, Any] = {
            "r": _index_of(rungs, step.rung),
            "w": _index_of(wheres, where_text(level, axis)),
            "s": say(step),
            "c": ranges_text(decided),
        }
        technique = getattr(step, "technique", "")
        if technique != step.rung and _NAME.match(technique or ""):
            # the bracket names what the step did: a step of the simple-boxes rung that
            # empties cells is simple-spaces (issue 56); its rung stays r, for the records
            entry["n"] = _index_of(rungs, technique)
        if line is not None:
            entry["a"] = axis
            entry["i"] = line.index
            entry["p"] = ranges_text(premises)
            if extra:
                entry["px"] = ranges_text(extra)
        else:
            entry["g"] = 1
            if step.cell is not None:
                entry["at"] = step.cell[0] * width + step.cell[1]
        entries.append(entry)
    return {"rungs": rungs, "where": wheres, "bracket": bracket_rung, "steps": entries}


def clue_hint_table(
    width: int,
    steps: Sequence[ClueStep],
    say: Callable[[Any], str],
    level_of: Callable[[str], str],
) -> dict[str, Any]:
    """The hint table of a kind whose steps read clues in cells (the mosaic): each step's
    premises are the decided cells it stood on ("p": cell indices) and the clues it read
    ("k": their cells, what stage 2 shows), its conclusion the cells it decided. ``say``
    words a step as ``grade --explain`` does; ``level_of`` names a rung's level."""
    known: set[int] = set()
    entries: list[dict[str, Any]] = []
    rungs: list[str] = []
    wheres: list[str] = []
    for step in steps:
        decided = sorted({r * width + c for r, c, _ in step.changes} - known)
        if not decided:
            continue
        known.update(decided)
        count = len(step.clues)
        level = level_name(level_of(step.rung))
        where = (_("A step from one clue ({level})", level=level) if count == 1 else
                 ngettext("A step comparing {count} clue ({level})",
                          "A step comparing {count} clues ({level})", count, level=level))
        entries.append({
            "r": _index_of(rungs, step.rung),
            "w": _index_of(wheres, where),
            "s": say(step),
            "c": ranges_text(decided),
            "p": ranges_text(r * width + c for r, c, _ in step.premises),
            "k": ranges_text(r * width + c for r, c, _ in step.clues),
        })
    return {"rungs": rungs, "where": wheres, "bracket": True, "steps": entries}


class ClueStep(Protocol):
    """A logged step of a clue-in-cell kind (grader.mosaic.grading.MosaicStep)."""

    @property
    def rung(self) -> str: ...
    @property
    def clues(self) -> Sequence[tuple[int, int, int]]: ...
    @property
    def changes(self) -> Sequence[tuple[int, int, int]]: ...
    @property
    def premises(self) -> Sequence[tuple[int, int, int]]: ...


def _index_of(table: list[str], value: str) -> int:
    if value not in table:
        table.append(value)
    return table.index(value)


def givens_known(width: int, givens: Sequence[tuple[int, int, bool]]) -> list[int]:
    """The cell indices a black-and-white puzzle's givens decide before the first step."""
    return [r * width + c for r, c, _ in givens]


__all__ = ["ClueStep", "clue_hint_table", "givens_known", "hint_table", "ranges_text", "where_text"]
