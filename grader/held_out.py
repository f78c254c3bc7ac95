"""The held-out rule: a puzzle whose numeric id ends in 7 is never read by a fit.

The one place the rule is written. The fitting and tuning scripts over the scraped sites
(``bench/calibrate_times.py``, ``bench/calibrate_human.py``, through ``bench/held_out.py``)
and the refit on real solves (``nonopress/solves/refit.py``) ask :func:`held_out`, so the
puzzles the minutes and the score are checked on (``bench/bench_minutes.py``) are puzzles no
fit has seen. A puzzle's numeric id is the one its file is named by (griddlers.net
``98947_Holly__Berries.non``, webpbn ``1234.non``): :func:`file_id`.
"""

from __future__ import annotations

import re
from pathlib import PurePath

#: the last digit of the ids no fit reads
HELD_OUT_DIGIT = 7

_LEADING_ID = re.compile(r"^([0-9]+)")


def held_out(puzzle_id: int | str | None) -> bool:
    """Whether a puzzle of this numeric id is kept from every fit (its id ends in 7)."""
    if puzzle_id is None:
        return False
    text = str(puzzle_id).strip()
    return text.isascii() and text.isdigit() and int(text) % 10 == HELD_OUT_DIGIT


def file_id(path: str | PurePath) -> int | None:
    """The id a file's name starts with (``98947_Holly__Berries.non``: 98947), or None."""
    match = _LEADING_ID.match(PurePath(path).name) if str(path) else None
    return int(match.group(1)) if match else None
