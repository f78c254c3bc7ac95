"""The work behind the API, run on worker threads: the CLI's engines, answered as JSON.

Check and grade answer the records ``check --json`` and ``grade --json`` print (built by
the same functions), with a few fields the page needs beside them: ``broken`` (the line or
cell that breaks a puzzle with no solution), ``heat`` (which rung decided each cell).
"""

from __future__ import annotations

import base64
import io
from pathlib import Path
from typing import TYPE_CHECKING, Any

from grader.authoring import Authored, MakeOptions, Target
from grader.errors import NonopressError
from grader.results import Budget
from nonopress.commands.colour import LoadedColourPuzzle
from nonopress.commands.common import LoadedPuzzle
from nonopress.studio.security import RequestRefused

if TYPE_CHECKING:
    from nonopress.studio.config import StudioConfig
    from nonopress.studio.issues import IssueRequest
    from nonopress.studio.library import LibrarySource

AnyLoaded = LoadedPuzzle | LoadedColourPuzzle


def _broken(diagnosis: object) -> dict[str, Any] | None:
    from grader.diagnose import BrokenCell, BrokenLine

    if isinstance(diagnosis, BrokenLine):
        return {"axis": diagnosis.line.axis, "index": diagnosis.line.index}
    if isinstance(diagnosis, BrokenCell):
        return {"cell": list(diagnosis.cell)}
    return None


def check(loaded: AnyLoaded, seconds: float) -> dict[str, Any]:
    """The ``check --json`` record of the puzzle (and ``broken`` for ``none``)."""
    from nonopress.commands.check import check_black_and_white, check_json_record

    budget = Budget(seconds=seconds)
    if isinstance(loaded, LoadedColourPuzzle):
        return check_json_record(loaded, budget)
    checked = check_black_and_white(loaded, budget)
    record = checked.record(loaded)
    broken = _broken(checked.diagnosis)
    if broken is not None:
        record["broken"] = broken
    return record


def _heat(steps: tuple[Any, ...], height: int, width: int) -> tuple[list[list[int]], list[str]]:
    """For each cell the ladder position of the last rung that changed it (-1: none), and
    the rung names in ladder order."""
    from grader.ladder import rung_names

    order = list(rung_names())
    rank = {name: i for i, name in enumerate(order)}
    heat = [[-1] * width for _ in range(height)]
    for step in steps:
        level = rank.get(step.rung, len(order) - 1)
        for change in step.changes:
            heat[change[0]][change[1]] = level
    return heat, order


def grade(loaded: AnyLoaded, seconds: float) -> dict[str, Any]:
    """The ``grade --json`` record of the puzzle, with ``heat`` and ``rung_order``."""
    from nonopress.commands.grade import grade_record

    # either kind: grade_record asks the puzzle's contract (grader.kinds)
    record, result = grade_record(loaded, None, Budget(seconds=seconds))
    puzzle = loaded.puzzle
    record["heat"], record["rung_order"] = _heat(result.steps, puzzle.height, puzzle.width)
    return record


def replay(loaded: AnyLoaded, seconds: float) -> dict[str, Any]:
    """The step-by-step replay page of ``grade --explain --html`` for this puzzle."""
    from grader.explain_html import GradedPuzzle, explain_html
    from grader.grading import grade as grade_puzzle

    if isinstance(loaded, LoadedColourPuzzle):
        from grader.colour.grading import explain_colour, grade_colour

        colour_grade = grade_colour(loaded.puzzle, budget=Budget(seconds=seconds))
        return {"text": explain_colour(loaded.puzzle, colour_grade, loaded.puzzle.title)}
    result = grade_puzzle(loaded.puzzle, budget=Budget(seconds=seconds))
    title = loaded.puzzle.title or "Step by step"
    page = explain_html([GradedPuzzle(loaded.puzzle.title or "puzzle", loaded.puzzle, result)],
                        title=title)
    return {"html": page, "steps": len(result.steps), "level": result.level}


def proposal(authored: Authored) -> dict[str, Any]:
    """What a make or repair proposes: the new picture and givens, the cells flipped (0-based)
    and the report the CLI prints, for the editor to accept or reject."""
    puzzle = authored.puzzle
    assert puzzle.solution is not None
    record = authored.to_json()
    return {
        "grid": list(puzzle.solution),
        "original": ["".join("#" if v else "." for v in row) for row in authored.original.tolist()],
        "flips": [[r, c] for r, c in authored.flips],
        "givens": [[r, c, bool(f)] for r, c, f in puzzle.givens],
        "verdict": authored.verdict,
        "unique": authored.unique,
        "reached": authored.reached,
        "report": record,
        "lines": authored.report_lines(),
    }


def repair(loaded: AnyLoaded, mode: str, target: Target, seconds: float) -> dict[str, Any]:
    """A unique version of the drawn picture with the fewest changes (or givens), steered to
    ``target`` when one is asked (make it easier / harder)."""
    from grader.authoring import repair as repair_puzzle

    if isinstance(loaded, LoadedColourPuzzle):
        raise RequestRefused(400, "repair and steering work on black-and-white puzzles")
    authored = repair_puzzle(loaded.puzzle, mode="givens" if mode == "givens" else "flips",
                             target=target, seconds=seconds)
    return proposal(authored)


def picture_size(data: bytes) -> tuple[int, int]:
    """A picture's size from its header alone (nothing decoded yet)."""
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(data)) as image:
            return image.size
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
        raise RequestRefused(400, f"picture: not a picture Pillow can read ({exc})") from None


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
    from grader.colour.io import read_any
    from grader.colour.model import ColourPuzzle
    from grader.model import as_row_strings
    from grader.solver import solve
    from nonopress.commands.colour import palette_record
    from nonopress.commands.colour import solve as solve_colour

    try:
        found = read_any(source, name=name)
    except NonopressError as exc:
        raise RequestRefused(400, str(exc)) from None
    if not 1 <= index <= len(found):
        raise RequestRefused(400, f"{name} holds {len(found)} puzzle(s); no number {index}")
    puzzle = found[index - 1]
    if max(puzzle.width, puzzle.height) > config.max_side:
        raise RequestRefused(400, f"{name}: {puzzle.size} is larger than the studio's "
                                  f"editor ({config.max_side} a side)")
    budget = Budget(seconds=config.check_seconds)
    record: dict[str, Any] = {
        "path": name, "index": index, "count": len(found), "title": puzzle.title,
        "width": puzzle.width, "height": puzzle.height, "grid": None, "from": None,
    }
    if isinstance(puzzle, ColourPuzzle):
        record.update(kind="colour", palette=palette_record(puzzle), givens=[],
                      rows=[[[n, puzzle.palette[c].char] for n, c in clue]
                            for clue in puzzle.rows],
                      columns=[[[n, puzzle.palette[c].char] for n, c in clue]
                               for clue in puzzle.columns])
        if puzzle.solution is not None:
            record.update(grid=list(puzzle.solution), **{"from": "file"})
        else:
            loaded = LoadedColourPuzzle(name, index, len(found), puzzle)
            solved = solve_colour(loaded, 1, budget, first=True)
            rows = solved.solution_rows(puzzle.palette)
            if rows:
                record.update(grid=list(rows[0]), **{"from": "solver"})
        return record
    record.update(kind="bw", palette=None,
                  rows=[list(clue) for clue in puzzle.rows],
                  columns=[list(clue) for clue in puzzle.columns],
                  givens=[[r, c, bool(f)] for r, c, f in puzzle.givens])
    if puzzle.solution is not None:
        record.update(grid=list(puzzle.solution), **{"from": "file"})
    else:
        result = solve(puzzle, limit=1, budget=budget)
        if result.solutions:
            record.update(grid=list(as_row_strings(result.solutions[0])), **{"from": "solver"})
    return record


def save(loaded: AnyLoaded, givens: object, target: Path, suffix: str) -> dict[str, Any]:
    """Write the puzzle (with its givens) in the format its suffix names, atomically."""
    from grader import formats
    from grader.atomic import atomic_write
    from grader.colour.io import write_any

    puzzle: Any = loaded.puzzle
    if givens and not isinstance(loaded, LoadedColourPuzzle):
        if not isinstance(givens, list) or not all(
                isinstance(g, list) and len(g) == 3 for g in givens):
            raise RequestRefused(400, "givens must be a list of [row, column, filled]")
        try:
            puzzle = puzzle.with_givens((int(r), int(c), bool(f)) for r, c, f in givens)
        except (NonopressError, TypeError, ValueError) as exc:
            raise RequestRefused(400, f"givens: {exc}") from None
    spec = formats.format_for_path(target)
    try:
        data = write_any(puzzle, spec.name if spec is not None else suffix)
    except NonopressError as exc:
        raise RequestRefused(400, str(exc)) from None
    atomic_write(target, data)
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
