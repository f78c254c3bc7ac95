"""The work behind the API, run on worker threads: the application layer's records
(:mod:`nonopress.app.records`), answered as JSON.

Check and grade answer the records ``check --json`` and ``grade --json`` print (built by
the same functions), with a few fields the page needs beside them: ``broken`` (the line or
cell that breaks a puzzle with no solution), ``heat`` (which rung decided each cell).
"""

from __future__ import annotations

import base64
import io
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from grader.authoring import AnyAuthored, MakeOptions, Target
from grader.errors import NonopressError
from grader.kinds import entry_of, kind_of
from grader.model import Metadata
from grader.results import Budget
from nonopress.app.loading import LoadedPuzzle
from nonopress.studio.security import RequestRefused

if TYPE_CHECKING:
    from nonopress.studio.config import StudioConfig
    from nonopress.studio.issues import IssueRequest
    from nonopress.studio.library import LibrarySource

def editing(puzzle: object) -> dict[str, Any]:
    """What the editor asks of the puzzle's kind, from its registry entry: the page asks
    this, never which kind it holds (``lines`` false: its clues sit in the cells, edited
    digit by digit)."""
    entry = entry_of(puzzle)
    return {"tag": entry.tag, "name": entry.name, "givens": entry.givens,
            "clues_alone": entry.clues_alone, "lines": entry.lines}


def check(loaded: LoadedPuzzle, seconds: float) -> dict[str, Any]:
    """The ``check --json`` record of the puzzle (and ``broken`` for ``none``: the line or
    cell that breaks, for either kind)."""
    from nonopress.app.records import check_puzzle

    checked = check_puzzle(loaded, Budget(seconds=seconds))
    record = checked.record(loaded)
    broken = checked.broken.where() if checked.broken is not None else None
    if broken is not None:
        record["broken"] = broken
    record["editing"] = editing(loaded.puzzle)
    return record


def _heat(steps: tuple[Any, ...], height: int, width: int, order: list[str]
          ) -> tuple[list[list[int]], list[str]]:
    """For each cell the position in ``order`` (the kind's ladder) of the last rung that
    changed it (-1: none), and the rung names in ladder order."""
    rank = {name: i for i, name in enumerate(order)}
    heat = [[-1] * width for _ in range(height)]
    for step in steps:
        level = rank.get(step.rung, len(order) - 1)
        for change in step.changes:
            heat[change[0]][change[1]] = level
    return heat, order


def _rung_order(puzzle: Any) -> list[str]:
    """The rungs of the puzzle's kind, cheapest first: the line puzzles' ladder table, or
    the kind's own (a mosaic's rungs ranked on the nonogram ladder all read as the dearest)."""
    if not entry_of(puzzle).lines:
        from nonopress.app.play import CellKind

        return list(cast("CellKind", kind_of(puzzle)).rung_order())
    from grader.ladder import rung_names

    return list(rung_names())


def grade(loaded: LoadedPuzzle, seconds: float) -> dict[str, Any]:
    """The ``grade --json`` record of the puzzle, with ``heat``, ``rung_order`` and
    ``minutes_text`` (the minutes as ``grade`` prints them, with the size: ``12 (8-17) ·
    15x15``)."""
    from grader.minutes import span_text
    from nonopress.app.records import grade_record

    # either kind: grade_record asks the puzzle's contract (grader.kinds)
    record, result = grade_record(loaded, None, Budget(seconds=seconds))
    puzzle = loaded.puzzle
    record["heat"], record["rung_order"] = _heat(result.steps, puzzle.height, puzzle.width,
                                                 _rung_order(puzzle))
    minutes, low, high = result.minutes, result.minutes_low, result.minutes_high
    # minutes are the work, which grows with the size: the size stands beside them
    record["minutes_text"] = (f"{span_text(minutes, low, high)} \u00b7 {puzzle.size}"
                              if minutes is not None and low is not None and high is not None
                              else None)
    return record


def replay(loaded: LoadedPuzzle, seconds: float) -> dict[str, Any]:
    """The step-by-step replay page of ``grade --explain --html`` for this puzzle, of
    either kind."""
    from grader.explain_html import explain_html

    puzzle = loaded.puzzle
    kind = kind_of(puzzle)
    result = kind.grade(None, Budget(seconds=seconds))
    if not entry_of(puzzle).lines:  # no line replay: the steps as grade --explain says them
        return {"html": None, "text": kind.explain(result, puzzle.title or "puzzle"),
                "steps": len(result.steps), "level": result.level}
    graded = kind.replay(puzzle.title or "puzzle", result)
    page = explain_html([graded], title=puzzle.title or "Step by step")
    return {"html": page, "steps": len(result.steps), "level": result.level}


def play(loaded: LoadedPuzzle, seconds: float) -> dict[str, Any]:
    """The puzzle as the web player plays it (the JSON `nonopress web` writes)."""
    from grader.errors import NotPublishable
    from nonopress.app.play import play_record

    try:
        return play_record(loaded.puzzle, Budget(seconds=seconds),
                           title=f"Play: {loaded.puzzle.title or 'this puzzle'}")
    except NotPublishable as exc:
        raise RequestRefused(422, str(exc)) from None


def proposal(authored: AnyAuthored) -> dict[str, Any]:
    """What a make or repair proposes: the new picture and givens, the cells flipped (0-based)
    and the report the CLI prints, for the editor to accept or reject. A colour picture's
    rows are its palette's characters."""
    puzzle = authored.puzzle
    assert puzzle.solution is not None
    return {
        "grid": list(puzzle.solution),
        "original": authored.original_rows(),
        "palette": kind_of(puzzle).palette(),
        "flips": [[r, c] for r, c in authored.flips],
        "givens": authored.given_cells(),
        "verdict": authored.verdict,
        "unique": authored.unique,
        "reached": authored.reached,
        "report": authored.to_json(),
        "lines": authored.report_lines(),
    }


def repair(loaded: LoadedPuzzle, mode: str, target: Target, seconds: float) -> dict[str, Any]:
    """A unique version of the drawn picture with the fewest changes (or givens), steered to
    ``target`` when one is asked (make it easier / harder); a colour one by flips, as
    ``make --colours`` makes it unique."""
    from grader.authoring.repair import repair_either

    entry = entry_of(loaded.puzzle)
    if entry.steer is not None:  # a kind steered by its clues (the mosaic)
        if mode == "givens":
            raise RequestRefused(400, f"givens are not printed on a {entry.name} puzzle: it "
                                      "is made unique by showing clues")
        try:
            return entry.steer(loaded.puzzle, target.level, target.stars, seconds)
        except NonopressError as exc:
            raise RequestRefused(400, str(exc)) from None
    try:
        authored = repair_either(loaded.puzzle, mode="givens" if mode == "givens" else "flips",
                                 target=target, seconds=seconds)
    except NonopressError as exc:
        raise RequestRefused(400, str(exc)) from None
    return proposal(authored)


def picture_size(data: bytes) -> tuple[int, int]:
    """A picture's size from its header alone (nothing decoded yet)."""
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(data)) as image:
            return image.size
    except Image.DecompressionBombError as exc:  # a header claiming billions of pixels
        raise RequestRefused(413, f"picture: {exc}") from None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
        raise RequestRefused(400, f"picture: not a picture Pillow can read ({exc})") from None
    except Exception as exc:  # a damaged header some plug-in trips on: still bad input
        raise RequestRefused(400, f"picture: not a picture Pillow can read "
                                  f"({type(exc).__name__})") from None


def decode_picture(text: object, max_bytes: int, max_pixels: int) -> bytes:
    """The uploaded picture (base64 in JSON), its bytes and pixels capped before decoding."""
    if not isinstance(text, str) or not text:
        raise RequestRefused(400, "picture must be the file's bytes in base64")
    if "," in text[:100] and text.startswith("data:"):
        text = text.split(",", 1)[1]
    if len(text) * 3 // 4 > max_bytes:
        raise RequestRefused(413, f"picture over the limit of {max_bytes:,} bytes")
    try:
        data = base64.b64decode(text, validate=True)
    except ValueError:
        raise RequestRefused(400, "picture: not valid base64") from None
    width, height = picture_size(data)
    if width * height > max_pixels:
        raise RequestRefused(413, f"picture of {width}x{height} pixels is over the limit of "
                                  f"{max_pixels:,} pixels")
    return data


def make(data: bytes, options: MakeOptions) -> dict[str, Any]:
    """A picture made into a unique puzzle, as ``nonopress make`` does, as a proposal."""
    from grader.authoring import make as make_puzzle

    try:
        return proposal(make_puzzle(data, options))
    except NonopressError as exc:
        raise RequestRefused(400, f"picture: {exc}") from None


def make_colour(data: bytes, width: int, height: int, colours: int, fit: str,
                target: Target, seconds: float, meta: Metadata) -> dict[str, Any]:
    """A picture made into a unique colour puzzle, as ``nonopress make --colours`` does."""
    from grader.authoring.colour_make import make_colour as make_colour_puzzle

    try:
        return proposal(make_colour_puzzle(
            data, width, height, colours, fit="crop" if fit == "crop" else "pad",
            seconds=seconds, target=target, meta=meta))
    except NonopressError as exc:
        raise RequestRefused(400, f"picture: {exc}") from None


def open_puzzle(config: StudioConfig, path: Path, index: int) -> dict[str, Any]:
    """One puzzle of a file of the folder, as the editor draws it."""
    from nonopress.studio.paths import relative_name

    name = relative_name(config.folder, path)
    return _opened(config, path, name, index)


def open_upload(config: StudioConfig, data: bytes, name: str, index: int) -> dict[str, Any]:
    """One puzzle of a file the editor picked on their own computer (any format Nonopress
    reads, detected by its name and content); ``path`` is None: it is not in the folder."""
    record = _opened(config, data, name, index)
    record["path"] = None
    record["name"] = name
    return record


def _opened(config: StudioConfig, source: Path | bytes, name: str, index: int
            ) -> dict[str, Any]:
    """The record the editor opens: its picture (known, or the first the solver finds),
    clues, givens and palette."""
    from grader.kinds import read_puzzles

    try:
        found = read_puzzles(source, name=name)
    except NonopressError as exc:
        raise RequestRefused(400, str(exc)) from None
    if not 1 <= index <= len(found):
        raise RequestRefused(400, f"{name} holds {len(found)} puzzle(s); no number {index}")
    puzzle = found[index - 1]
    entry = entry_of(puzzle)
    if not entry.editor:  # the kind's registry entry says the editor does not draw it
        raise RequestRefused(400, f"{name}: the studio's editor does not edit {entry.name} "
                                  "puzzles")
    if max(puzzle.width, puzzle.height) > config.max_side:
        raise RequestRefused(400, f"{name}: {puzzle.size} is larger than the studio's "
                                  f"editor ({config.max_side} a side)")
    kind = kind_of(puzzle)
    record: dict[str, Any] = {
        "path": name, "index": index, "count": len(found), "title": puzzle.title,
        "width": puzzle.width, "height": puzzle.height, "grid": None, "from": None,
    }
    record.update(kind.editor_record())
    record["editing"] = editing(puzzle)
    if puzzle.solution is not None:
        record.update(grid=list(puzzle.solution), **{"from": "file"})
    else:
        solved = kind.solve(1, Budget(seconds=config.check_seconds), first=True)
        rows = kind.solution_rows(solved)
        if rows:
            record.update(grid=list(rows[0]), **{"from": "solver"})
    return record


def save(loaded: LoadedPuzzle, givens: object, target: Path, suffix: str,
         overwrite: bool = False) -> dict[str, Any]:
    """Write the puzzle (with its givens) in the format its suffix names, atomically; a
    new name is created in one step (of two saves of one new name, one wins: 409)."""
    from grader import formats
    from grader.atomic import FileTaken, atomic_write
    from grader.kinds import write_puzzles

    puzzle = loaded.puzzle
    if givens:
        if not isinstance(givens, list) or not all(
                isinstance(g, list) and len(g) == 3 for g in givens):
            raise RequestRefused(400, "givens must be a list of [row, column, filled]")
        try:
            puzzle = kind_of(puzzle).with_givens(
                [(int(r), int(c), bool(f)) for r, c, f in givens])
        except (NonopressError, TypeError, ValueError) as exc:
            raise RequestRefused(400, f"givens: {exc}") from None
    spec = formats.format_for_path(target)
    try:
        data = write_puzzles([puzzle], spec.name if spec is not None else suffix)
    except NonopressError as exc:
        raise RequestRefused(400, str(exc)) from None
    try:
        atomic_write(target, data, links=False, replace=overwrite)
    except FileTaken:
        raise RequestRefused(409, f"{target.name} is already in the folder: choose another "
                                  "name, or ask to overwrite") from None
    return {"written": True, "bytes": len(data), "format": spec.name if spec else suffix}


def order_by_level(library: LibrarySource, request: IssueRequest) -> IssueRequest:
    """The issue's puzzles easiest first (level, then score), as the library grades them."""
    from nonopress.studio.issues import with_order
    from nonopress.studio.library import level_rank

    ranked = []
    for position, (path, index) in enumerate(request.puzzles):
        entry = library.entry(path, index or 1)
        rank = level_rank(entry) if entry is not None else (99, 0.0)
        ranked.append((rank, position, (path, index)))
    return with_order(request, [item for _, _, item in sorted(ranked)])
