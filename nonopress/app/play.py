"""One puzzle as the player's JSON: clues, size, kind, palette, the grade's figures, the hint
table and the solution, obfuscated. The web site (`nonopress web`) and the studio's Play
button both build it here.

The answer has to be in a static page (the player checks marks without a server), as in
every static player; it is XORed with a stream drawn from the puzzle's key and base64'd, so
it is not in plain sight (a reader of the page source sees no picture), not secret.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, cast

from grader import __version__
from grader.errors import NonopressError, NotPublishable
from grader.kinds import AnyPuzzle, MinuteFigures, any_kind_of, entry_of, kind_of
from grader.ladder import grader_version
from grader.results import Budget
from nonopress.app.hints import clue_hint_table, givens_known, hint_table

if TYPE_CHECKING:
    from grader.kinds.contract import PagedKind

#: what the player reports itself as (the solve records' "player")
PLAYER = f"nonopress-player/{__version__}"


class CellKind(Protocol):
    """What the hints ask of a kind whose clues sit in cells (grader.kinds.mosaic)."""

    def sentence(self, step: Any) -> str: ...
    def rung_level(self, rung: str) -> str: ...
    def rung_order(self) -> tuple[str, ...]: ...


#: the version of the JSON the player reads
FORMAT = 1
#: the largest side the player draws (puzzle.schema.json's bound, checked by the player too)
MAX_SIDE = 200
#: a colour solution's cell: its colour index as one character (0 = background)
INDEX_CHARS = "0123456789abcdefghijklmnopqrstuvwxyz"


def stream_bytes(key: str, length: int) -> bytes:
    """The bytes the solution is XORed with: a xorshift32 stream seeded from the key's
    first 8 hex digits (every key is a SHA-256 prefix), small enough for the player to
    repeat in a few lines of JavaScript."""
    state = int(key[:8], 16) or 0x9E3779B9
    out = bytearray()
    for _ in range(length):
        state ^= (state << 13) & 0xFFFFFFFF
        state ^= state >> 17
        state ^= (state << 5) & 0xFFFFFFFF
        out.append(state & 0xFF)
    return bytes(out)


def obfuscate(text: str, key: str) -> str:
    data = text.encode("utf-8")
    mixed = bytes(a ^ b for a, b in zip(data, stream_bytes(key, len(data)), strict=True))
    return base64.b64encode(mixed).decode("ascii")


def reveal(blob: str, key: str) -> str:
    """The inverse of :func:`obfuscate` (tests read a page's answer with it)."""
    data = base64.b64decode(blob)
    return bytes(a ^ b for a, b in zip(data, stream_bytes(key, len(data)), strict=True)
                 ).decode("utf-8")


def veiled_meta(meta: dict[str, Any], key: str) -> dict[str, Any]:
    """``meta`` with its ``solved_title`` (the title shown once solved, which may give the
    picture away) veiled as the answer is, with the key's next 8 hex digits: the page
    source does not show it; the player unveils it when the puzzle is solved."""
    out = {k: v for k, v in meta.items() if k != "solved_title"}
    title = str(meta.get("solved_title") or "")
    out["veiled_title"] = obfuscate(title, key[8:]) if title else ""
    return out


def grade_figures(grade: MinuteFigures, version: str) -> dict[str, Any]:
    """The grade's own figures, as the solved panel and the index print them."""
    return {
        "level": grade.level,
        "stars": grade.stars,
        "score": grade.score,
        "minutes": _round(grade.minutes),
        "minutes_low": _round(grade.minutes_low),
        "minutes_high": _round(grade.minutes_high),
        "grader_version": version,
    }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


def nonogram_record(
    puzzle: AnyPuzzle,
    solution: Any,
    grade: MinuteFigures,
    hints: dict[str, Any],
    version: str,
    meta: dict[str, Any],
) -> dict[str, Any]:
    """A nonogram of either kind for the player. ``solution``: the picture (bools, or colour
    indices with 0 the background); ``meta``: number, title, author, note, date."""
    _fits_the_player(puzzle.width, puzzle.height)
    key = puzzle.key()
    record: dict[str, Any] = {"format": FORMAT, **veiled_meta(meta, key), "key": key,
                              "width": puzzle.width, "height": puzzle.height}
    kind = kind_of(puzzle)
    colour = kind.in_colour()
    record["kind"] = entry_of(puzzle).board  # the player's board for the kind
    if colour is not None:  # each block with its colour's index; the colours by index
        palette = colour.palette
        record["palette"] = [{"name": palette[i].name, "rgb": f"#{palette[i].hex}"}
                             for i in range(1, palette.size + 1)]
        record["rows"] = [[[n, c] for n, c in clue] for clue in colour.rows]
        record["columns"] = [[[n, c] for n, c in clue] for clue in colour.columns]
    else:
        record["rows"] = [list(clue) for clue in puzzle.rows]
        record["columns"] = [list(clue) for clue in puzzle.columns]
    # a cell's value as one character: 0 empty, 1 filled (black and white) or colour k
    cells = "".join(INDEX_CHARS[int(v)] for row in solution for v in row)
    record["givens"] = [[r, c, 1 if f else 0] for r, c, f in kind.givens()]
    record["grade"] = grade_figures(grade, version)
    record["hints"] = hints
    record["solution"] = obfuscate(cells, key)
    return record


def clue_cell_record(puzzle: AnyPuzzle, rows: Sequence[str], grade: MinuteFigures,
                     hints: dict[str, Any], version: str, meta: dict[str, Any]
                     ) -> dict[str, Any]:
    """A kind whose clues sit in the cells (the mosaic) for the player: one string of
    digits and dots a row. ``rows``: the solution the grade proved, ``#`` filled."""
    _fits_the_player(puzzle.width, puzzle.height)
    key = puzzle.key()
    cells = "".join("1" if ch == "#" else "0" for row in rows for ch in row)
    return {"format": FORMAT, **veiled_meta(meta, key), "key": key,
            "kind": entry_of(puzzle).board, "width": puzzle.width, "height": puzzle.height,
            "clues": [str(row) for row in kind_of(puzzle).clue_texts()[0]],
            "grade": grade_figures(grade, version), "hints": hints,
            "solution": obfuscate(cells, key)}


def paged_record(puzzle: Any, grade: MinuteFigures, version: str, meta: dict[str, Any]
                 ) -> dict[str, Any]:
    """An entry of a kind that lays out its own pages for the player: the fields its
    kind gives its board (grader.kinds.contract.BoardRecord), the answer obfuscated."""
    board = cast("PagedKind", any_kind_of(puzzle)).board_record()
    _fits_the_player(board.width, board.height)
    return {"format": FORMAT, **veiled_meta(meta, board.key), "key": board.key,
            "kind": entry_of(puzzle).board, "width": board.width, "height": board.height,
            **board.fields, "grade": grade_figures(grade, version), "hints": None,
            "solution": obfuscate(board.answer, board.key)}


def _fits_the_player(width: int, height: int) -> None:
    if width > MAX_SIDE or height > MAX_SIDE:
        raise NonopressError(f"{width}x{height} is larger than the web player draws "
                             f"(at most {MAX_SIDE} cells a side)")


def compute_hints(puzzle: AnyPuzzle, budget: Budget) -> dict[str, Any]:
    """Grade ``puzzle`` with the ladder (the same grade `grade --explain` words) and turn
    its step log into the hint table."""
    graded = kind_of(puzzle).grade(None, budget)
    return _hints_of(puzzle, graded.steps)


def hints_of_grade(puzzle: AnyPuzzle, grade: Any) -> dict[str, Any]:
    """The hint table of a grade just made (``nonopress web`` keeps it in the grade
    cache beside the grade, so a site grades each puzzle once)."""
    return _hints_of(puzzle, grade.steps)


def _hints_of(puzzle: AnyPuzzle, steps: Any) -> dict[str, Any]:
    """The hint table of a step log, in the words of the puzzle's kind."""
    kind = kind_of(puzzle)
    if not entry_of(puzzle).lines:  # steps that read clues in cells (the mosaic)
        cells = cast("CellKind", kind)
        return clue_hint_table(puzzle.width, steps, cells.sentence, cells.rung_level)
    colour = kind.in_colour() is not None  # its changes are bit sets of colours
    return hint_table(puzzle.width, puzzle.height, steps, kind.sentence, colour=colour,
                      known_at_start=givens_known(puzzle.width, kind.givens()),
                      bracket_rung=not colour)


def play_record(puzzle: AnyPuzzle, budget: Budget, title: str = "Play"
                ) -> dict[str, Any]:
    """A puzzle graded now, as the player's JSON (the studio's Play button): one grade
    gives the figures, the solution and the hints. NotPublishable when the grade finds no
    single solution (a puzzle to fix before anyone plays it)."""
    kind = kind_of(puzzle)
    graded = kind.grade(None, budget)
    rows = kind.grid_rows(graded)
    if graded.verdict != "unique" or rows is None or any("?" in row for row in rows):
        raise NotPublishable(f"not playable yet: {graded.problem or graded.verdict}")
    meta = {"number": 0, "heading": title, "title": "", "solved_title": puzzle.title,
            "author": puzzle.meta.author, "note": "", "date": "",
            "size_label": puzzle.size, "site": {"collect": None, "player": PLAYER}}
    return nonogram_record(puzzle, kind.picture(rows), graded, _hints_of(puzzle, graded.steps),
                           grader_version(), meta)


__all__ = [
    "FORMAT",
    "MAX_SIDE",
    "PLAYER",
    "clue_cell_record",
    "compute_hints",
    "grade_figures",
    "hints_of_grade",
    "nonogram_record",
    "obfuscate",
    "paged_record",
    "play_record",
    "reveal",
    "veiled_meta",
]
