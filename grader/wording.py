"""Small helpers for the words of messages."""

from __future__ import annotations


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """ "1 puzzle", "2 puzzles" ("1 puzzle" and never "1 puzzles")."""
    return f"{count} {noun if count == 1 else (nouns or noun + 's')}"
