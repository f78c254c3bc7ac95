"""The warning every check gives about a picture that was not cropped: rows or columns at
the edge of the grid that are empty. Its own module (grader.diagnose re-exports it) so that
a check of a sound puzzle does not load the diagnosis of a broken one."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from grader.model import MAX_NAMED_LINES

if TYPE_CHECKING:
    from grader.model import Puzzle

#: lines named in a message before "and N more"
MAX_NAMED = MAX_NAMED_LINES


def name_lines(refs: Sequence[str], limit: int = MAX_NAMED) -> str:
    """ "row 2, row 5 and column 3"; past ``limit`` names, "... and 4 more"."""
    shown = list(refs[:limit])
    if len(refs) > limit:
        return f"{', '.join(shown)} and {len(refs) - limit} more"
    if len(shown) <= 1:
        return "".join(shown)
    return f"{', '.join(shown[:-1])} and {shown[-1]}"


def empty_borders(puzzle: Puzzle) -> str:
    """A warning when rows or columns at the edge of the grid are empty ('' if none are).

    An empty edge line is a picture that was not cropped: it gives itself away (its clue
    is 0) and wastes a line of the printed grid.
    """
    found: list[str] = []
    for axis, clues in (("row", puzzle.rows), ("column", puzzle.columns)):
        last = len(clues) - 1
        edges = sorted({0, last})
        found.extend(f"{axis} {index + 1}" for index in edges if not clues[index])
    if not found:
        return ""
    if len(found) == 1:
        return f"{found[0]}, at the edge of the grid, is empty: crop the picture"
    return f"{name_lines(found)}, at the edges of the grid, are empty: crop the picture"
