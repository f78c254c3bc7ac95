"""Grades remembered between builds, keyed by the puzzle's content hash, the grader version
(package and data tables) and the budget: a grade that ran out of time is tried again when
the issue is built with more.

A JSON file; a missing or unreadable cache is simply empty (a warning says so), and it is
written atomically so an interrupted build never leaves half a file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from grader import safe_json
from grader.atomic import atomic_write
from grader.errors import NonopressError
from grader.i18n import SOURCE, current
from grader.inputs import read_input_bytes
from grader.ladder import grader_version
from grader.results import Budget
from layout.grades import GradeInfo

FILE_VERSION = 7  # 2: steps are numbered worked-solution lines; 3: no score for defects;
#                  4: budget and ladder table in keys, the proved solution kept;
#                  5: small grids after the hard steps of worked solutions;
#                  6: step grids for colour worked solutions too;
#                  7: keys by the kind's tag (grader.kinds.cache_key), hint tables kept
MAX_STEPS = 2000  # step lines kept for worked solutions (a longer one says it is cut)


class GradeCache:
    def __init__(self, path: Path | None):
        self.path = path
        self.version = grader_version()
        self.entries: dict[str, dict[str, Any]] = {}
        self.changed = False
        self.warning = ""
        if path is not None and path.exists():
            try:
                # a regular file only, capped: the cache sits in a folder others may write
                text = read_input_bytes(path, named=False).decode("utf-8")
                data = safe_json.parse(text)
                if data.get("format") == FILE_VERSION and isinstance(data.get("grades"), dict):
                    self.entries = data["grades"]
            except (NonopressError, OSError, ValueError, AttributeError, RecursionError) as exc:
                self.warning = f"{path}: grade cache ignored ({exc})"

    def _key(self, puzzle_key: str, budget: Budget) -> str:
        # the worked-solution lines are kept in the reader's language: one grade a language
        # (English keys as before, so an English cache stays valid)
        language = current().language
        tail = "" if language == SOURCE else f"/{language}"
        return f"{puzzle_key}@{self.version}/{budget.key()}{tail}"

    def get(self, puzzle_key: str, budget: Budget) -> GradeInfo | None:
        record = self.entries.get(self._key(puzzle_key, budget))
        if not isinstance(record, dict):
            return None
        try:
            return GradeInfo.from_json(record)
        except (KeyError, TypeError, ValueError, AttributeError):
            return None

    def put(self, puzzle_key: str, budget: Budget, grade: GradeInfo) -> None:
        self.entries[self._key(puzzle_key, budget)] = grade.to_json(MAX_STEPS)
        self.changed = True

    def save(self) -> None:
        if self.path is None or not self.changed:
            return
        payload = {"format": FILE_VERSION, "grades": self.entries}
        atomic_write(self.path, json.dumps(payload, indent=1, sort_keys=True) + "\n")
        self.changed = False
