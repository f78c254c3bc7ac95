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
from grader.errors import NonopressError
from grader.inputs import read_input_bytes
from grader.kinds import AnyPuzzle
from grader.ladder import grader_version
from grader.results import Budget
from layout.kinddraw import drawing_of
from nonopress.app.play import compute_hints

FILE_VERSION = 1
CACHE_NAME = "nonopress-hints.json"


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

    def hints(self, puzzle: AnyPuzzle, budget: Budget) -> dict[str, Any]:
        """The puzzle's hint table, from the cache or graded now."""
        # kept apart by kind as the grade cache keeps them
        key = f"{drawing_of(puzzle).key_prefix}{puzzle.key()}@{self.version}/{budget.key()}"
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
