"""Small helpers for the words of messages."""

from __future__ import annotations

from collections.abc import Sequence


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """ "1 puzzle", "2 puzzles" ("1 puzzle" and never "1 puzzles")."""
    return f"{count} {noun if count == 1 else (nouns or noun + 's')}"


def cell_list(cells: Sequence[tuple[int, int]], shown: int = 6) -> str:
    """0-based cells as a reader names them, '(row 6, column 3)', the first ``shown`` of
    them in reading order, then how many more."""
    ordered = sorted(cells)
    named = ", ".join(f"(row {r + 1}, column {c + 1})" for r, c in ordered[:shown])
    more = len(ordered) - shown
    return named + (f" and {more} more" if more > 0 else "")
