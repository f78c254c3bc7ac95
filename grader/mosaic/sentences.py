"""One sentence per mosaic step, from the ladder table's templates (grader/mosaic/ladder.yaml).

Cells are named as a solver reads them: "row 2, column 3"; several cells in one row as
"row 2, columns 3-5"; a clue as "the 5 at row 2, column 3".
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from grader.i18n import _, ngettext, pgettext
from grader.model import FILLED
from grader.mosaic.grading import MosaicStep
from grader.mosaic.ladder import MosaicLadder, mosaic_ladder


def cell_text(row: int, column: int) -> str:
    return _("row {row}, column {column}", row=row + 1, column=column + 1)


def _spans(columns: Sequence[int]) -> str:
    parts: list[str] = []
    start = prev = columns[0]
    for c in [*columns[1:], None]:
        if c is not None and c == prev + 1:
            prev = c
            continue
        parts.append(f"{start + 1}" if start == prev else f"{start + 1}-{prev + 1}")
        if c is not None:
            start = prev = c
    return _(", ").join(parts)


def cells_text(cells: Iterable[tuple[int, int]]) -> str:
    """"row 2, column 3" or "row 2, columns 3-5; row 3, column 1"."""
    rows: dict[int, list[int]] = {}
    for r, c in sorted(set(cells)):
        rows.setdefault(r, []).append(c)
    parts = []
    for r, columns in rows.items():
        parts.append(ngettext("row {row}, column {columns}", "row {row}, columns {columns}",
                              len(columns), row=r + 1, columns=_spans(columns)))
    return _("; ").join(parts)


def clue_text(clue: Sequence[int], *, seeing: bool = False) -> str:
    """"the 5 at row 2, column 3"; ``seeing``: as the one that sees cells ("seen only by
    the 5 at ..."), a form of its own where a language inflects it there (German's dative)."""
    cell = cell_text(clue[0], clue[1])
    if seeing:
        # TRANSLATORS: the clue after "seen by" / "seen only by" in a compared region (in
        # German the dative: "der {value} in {cell}")
        return pgettext("seen by", "the {value} at {cell}", value=clue[2], cell=cell)
    return _("the {value} at {cell}", value=clue[2], cell=cell)


def _regions(step: MosaicStep, width: int) -> str:
    names = {(r, c): clue_text((r, c, v), seeing=True) for r, c, v in step.clues}
    order = [(r, c) for r, c, _ in step.clues]
    parts = []
    for region in step.facts.get("regions", ()):
        inside = [order[i] for i in _positions(region["in"], step)]
        cells = [divmod(i, width) for i in region["cells"]]
        seen_by = _(" and ").join(names[c] for c in inside)
        parts.append(_region(len(inside) < len(order), bool(region["value"]), len(cells),
                             cells=cells_text(cells), clues=seen_by))
    return _("; ").join(parts)


def _region(only: bool, filled: bool, count: int, **values: str) -> str:
    """One region of compared clues, each of the four sentences whole."""
    if only and filled:
        return ngettext("{cells}, seen only by {clues}, is filled",
                        "{cells}, seen only by {clues}, are filled", count, **values)
    if only:
        return ngettext("{cells}, seen only by {clues}, is empty",
                        "{cells}, seen only by {clues}, are empty", count, **values)
    if filled:
        return ngettext("{cells}, seen by {clues}, is filled",
                        "{cells}, seen by {clues}, are filled", count, **values)
    return ngettext("{cells}, seen by {clues}, is empty",
                    "{cells}, seen by {clues}, are empty", count, **values)


def _positions(clue_ids: Sequence[int], step: MosaicStep) -> list[int]:
    ids = list(step.facts.get("clue_ids", ()))
    return [ids.index(k) for k in clue_ids]


def fields(step: MosaicStep, width: int) -> dict[str, Any]:
    cells = [(r, c) for r, c, _ in step.changes]
    first = step.clues[0] if step.clues else None
    values: dict[str, Any] = {
        "cells": cells_text(cells),
        "is_are": ngettext("is", "are", len(cells)),
        "they_are": ngettext("it is", "they are", len(cells)),
        "clue": cell_text(first[0], first[1]) if first else "",
        "value": first[2] if first else "",
        "needs": len(cells),
        "first": clue_text(step.clues[0]) if step.clues else "",
        "second": clue_text(step.clues[1]) if len(step.clues) > 1 else "",
        "chain": _(", ").join(clue_text(c) for c in step.clues),
        "regions": _regions(step, width) if "regions" in step.facts else "",
        "cell": cell_text(*cells[0]) if cells else "",
        "nodes": step.facts.get("nodes", 0),
    }
    if step.changes:
        filled = step.changes[0][2] == FILLED
        values["actual"] = _("filled") if filled else _("empty")
        values["supposed"] = _("empty") if filled else _("filled")
    return values


def explain(step: MosaicStep, width: int, ladder: MosaicLadder | None = None) -> str:
    """The sentence of one step."""
    template = (ladder or mosaic_ladder()).template(step.technique)
    return _(template).format(**fields(step, width))


__all__ = ["cell_text", "cells_text", "clue_text", "explain"]
