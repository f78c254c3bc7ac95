"""The held-out rule (grader/held_out.py) applied to a folder of the scrape.

Puzzles whose numeric id ends in 7 are never read by a fitting script. Every script that
fits or tunes a model to the scrape (``calibrate_times.py`` for both kinds' minutes,
``calibrate_human.py`` for the score) lists its files through
:func:`fitting_files`, so the puzzles a user checks the model on (``bench_minutes.py``
reads :func:`held_out_files`) are puzzles no fit has seen. The lufton/non-grabber scrape
names each file after its site id (``98947_Holly__Berries.non``), so the rule is decided
from the name, before a file is opened; a file whose ``id`` line disagrees with its name
is judged by both (:func:`held_out_text`).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from grader.held_out import HELD_OUT_DIGIT, file_id, held_out

__all__ = ["HELD_OUT_DIGIT", "file_id", "fitting_files", "held_out", "held_out_files",
           "held_out_path", "held_out_text"]

_ID_LINE = re.compile(r"^id\s+\"?(\d+)\"?\s*$", re.MULTILINE)


def held_out_path(path: Path) -> bool:
    return held_out(file_id(path))


def held_out_text(path: Path, text: str) -> bool:
    """The rule for a file already read: its name's id or its ``id`` line ends in 7."""
    match = _ID_LINE.search(text)
    return held_out_path(path) or held_out(match.group(1) if match else None)


def fitting_files(root: Path, pattern: str = "*.non") -> Iterator[Path]:
    """The files under ``root`` a fit may read, in path order: the held-out ones are left
    out by name, never opened."""
    for path in sorted(root.rglob(pattern)):
        if not held_out_path(path):
            yield path


def held_out_files(root: Path, pattern: str = "*.non") -> Iterator[Path]:
    """The files under ``root`` kept for checking a fit (ids ending in 7), in path order."""
    for path in sorted(root.rglob(pattern)):
        if held_out_path(path):
            yield path
