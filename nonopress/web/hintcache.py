"""Hint tables remembered between builds, beside the issue's grade cache and keyed the same
way (puzzle key, grader version, budget): a site rebuilt every night grades nothing twice.

A missing or unreadable file is simply empty; it is written atomically.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from grader import safe_json
from grader.atomic import atomic_write
from grader.colour.model import ColourPuzzle
from grader.errors import NonopressError
from grader.inputs import read_input_bytes
from grader.kinds import kind_of
from grader.ladder import grader_version
from grader.model import Puzzle
from grader.results import Budget
from nonopress.web.hints import givens_known, hint_table

FILE_VERSION = 1
CACHE_NAME = "nonopress-hints.json"


def compute_hints(puzzle: Puzzle | ColourPuzzle, budget: Budget) -> dict[str, Any]:
    """Grade ``puzzle`` with the ladder (the same grade `grade --explain` words) and turn
    its step log into the hint table."""
    graded = kind_of(puzzle).grade(None, budget)
    if isinstance(puzzle, Puzzle):
        from grader.explain import sentence

        return hint_table(puzzle.width, puzzle.height, graded.steps,
                          lambda step: sentence(step, puzzle), colour=False,
                          known_at_start=givens_known(puzzle.width, puzzle.givens))
    from grader.colour.grading import sentence as colour_sentence

    return hint_table(puzzle.width, puzzle.height, graded.steps,
                      lambda step: colour_sentence(step, puzzle), colour=True,
                      bracket_rung=False)


class HintCache:
    def __init__(self, path: Path | None):
        self.path = path
        self.version = grader_version()
        self.entries: dict[str, dict[str, Any]] = {}
        self.changed = False
        self.warning = ""
        if path is not None and path.exists():
            try:
                data = safe_json.parse(read_input_bytes(path, named=False).decode("utf-8"))
                if data.get("format") == FILE_VERSION and isinstance(data.get("hints"), dict):
                    self.entries = data["hints"]
            except (NonopressError, OSError, ValueError, AttributeError, RecursionError) as exc:
                self.warning = f"{path}: hint cache ignored ({exc})"

    def hints(self, puzzle: Puzzle | ColourPuzzle, budget: Budget) -> dict[str, Any]:
        """The puzzle's hint table, from the cache or graded now."""
        key = f"{puzzle.key()}@{self.version}/{budget.key()}"
        if not isinstance(puzzle, Puzzle):
            key = f"colour-{key}"
        found = self.entries.get(key)
        if isinstance(found, dict):
            return found
        table = compute_hints(puzzle, budget)
        self.entries[key] = table
        self.changed = True
        return table

    def save(self) -> None:
        if self.path is None or not self.changed:
            return
        payload = {"format": FILE_VERSION, "hints": self.entries}
        atomic_write(self.path, json.dumps(payload, separators=(",", ":")) + "\n")
        self.changed = False
