"""The mosaic kind (Fill-a-Pix): a grid of digits, each counting the filled cells of the
3x3 block around it. Its engines stay in ``grader/mosaic/`` (read, write, check, grade,
explain, make); this module is its identity and the way the house reaches them.

It meets the core of the contract (:class:`~grader.kinds.contract.Kind`) and the slots of
the line puzzles that a face asks of any puzzle it checks, solves, grades or converts
(``solve``, ``solution_rows``, ``no_solution``, ``warnings``, ``explain``, ``with_solution``,
``clue_texts``); it has no rows and columns of clues, so the entry's ``lines`` is False and
a face asks that before it asks for block lengths, sweeps or a replay.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, TextIO

from grader.i18n import NP_
from grader.kinds.contract import KindEntry, NoSolution
from grader.results import Budget, SolveResult

if TYPE_CHECKING:
    import numpy as np

    from grader.mosaic.grading import MosaicGrade, MosaicStep
    from grader.mosaic_model import MosaicPuzzle

#: the suffix of the game-ID files of kohend/simon-puzzles' Mosaic
GAME_ID_SUFFIX = ".mosaic"
#: a Mosaic game ID (``WxH:`` then digits and letters); Pattern's IDs hold a ``/``
_GAME_ID = re.compile(rb"\d+x\d+(a\d+)?:[0-9a-z ]*")
_YAML = re.compile(rb"^kind:\s*['\"]?mosaic\b", re.MULTILINE)
_JSON = re.compile(rb'"kind"\s*:\s*"mosaic"')


def claims(data: bytes, name: str | None) -> bool:
    """Whether ``data`` (a file named ``name``) holds mosaics: a ``.mosaic`` file, YAML or
    JSON saying ``kind: mosaic``, or lines of Mosaic game IDs. Nonogram files never match:
    their YAML has no such ``kind``, Pattern's game IDs hold ``/``."""
    if name and os.path.splitext(name)[1].lower() == GAME_ID_SUFFIX:
        return True
    head = data[:4096]
    if _YAML.search(head) or _JSON.search(head):
        return True
    return _game_ids(data)


def _game_ids(data: bytes) -> bool:
    lines = [line.strip() for line in data[:65536].splitlines() if line.strip()]
    return bool(lines) and all(_GAME_ID.fullmatch(line) for line in lines)


def read(data: bytes, name: str, format: str | None = None) -> list[MosaicPuzzle]:
    """The mosaics of a file the kind :func:`claims` (errors name the file and line);
    game IDs are read as such whatever the file's suffix."""
    from grader import mosaic

    if format is None and _game_ids(data):
        format = "tatham"
    return mosaic.read(data, format=format, name=name)


def write(puzzles: Sequence[MosaicPuzzle], format: str) -> bytes:
    from grader import mosaic

    return mosaic.write(puzzles, format)


def make(picture: Any, level: str | None, stars: int | None, seed: int, title: str,
         seconds: float) -> tuple[MosaicPuzzle, bool, dict[str, Any]]:
    """A unique mosaic whose solution is ``picture`` (a bool array), with as few clues as
    ``level`` (or the level of ``stars``; hard when neither) allows; the report says what
    was asked, reached and changed."""
    from grader import mosaic
    from grader.model import Metadata

    made = mosaic.make(picture, level or "hard", stars=stars, seed=seed,
                       meta=Metadata(title=title), budget=Budget(seconds=seconds))
    grade = made.grade
    record = {"kind": "mosaic", "title": title, "size": made.puzzle.size,
              "verdict": grade.verdict, "level_asked": made.level_asked,
              "level": grade.level, "reached": made.reached, "stars": grade.stars,
              "score": grade.score, "clues": made.puzzle.clue_count(),
              "clues_total": made.clues_total, "changed_cells": [list(c) for c in made.changed],
              "tried_all": made.tried_all, "time_s": round(made.time_s, 3)}
    return made.puzzle, grade.verdict == "unique", record


def _cells(cells: Sequence[tuple[int, int]]) -> str:
    shown = ", ".join(f"r{r + 1}c{c + 1}" for r, c in cells[:12])
    return shown + (f" and {len(cells) - 12} more" if len(cells) > 12 else "")


def steer(puzzle: MosaicPuzzle, level: str | None, stars: int | None,
          seconds: float) -> dict[str, Any]:
    """The studio's Make unique (no level or stars), Easier and Harder on a mosaic: clues
    of its picture shown or hidden (:mod:`grader.mosaic.steering`), as the proposal the
    editor shows: the clue rows and picture, the clues added and removed, the cells
    changed (0-based), the grade and one line a fact."""
    from grader.model import as_row_strings
    from grader.mosaic.steering import level_for_steering
    from grader.mosaic.steering import steer as steer_mosaic

    budget = Budget(seconds=seconds)
    if level is None and stars is not None:
        level = level_for_steering(puzzle, stars, budget)
    steered = steer_mosaic(puzzle, level, stars=stars, budget=budget)
    grade = steered.grade
    proof = {"unique": "unique (proved by the complete solver)",
             "multiple": "NOT unique: the budget ran out while cells still differ",
             "undecided": "NOT proved unique: the budget ran out (raise the budget)",
             "none": "no solution"}[grade.verdict]
    lines = [f"puzzle: mosaic {steered.puzzle.size}, {proof}",
             f"clues: {steered.puzzle.clue_count()} shown of {puzzle.width * puzzle.height}"]
    if steered.added:
        lines.append(f"shown: {len(steered.added)} at {_cells(steered.added)}")
    if steered.removed:
        lines.append(f"hidden: {len(steered.removed)} at {_cells(steered.removed)}")
    if steered.changed:
        lines.append(f"cells changed: {len(steered.changed)} at {_cells(steered.changed)}")
    if grade.score is not None and grade.stars is not None:
        lines.append(f"level: {grade.level}, score {grade.score:.2f}, {grade.stars} "
                     f"star{'s' if grade.stars > 1 else ''}")
    else:
        lines.append(f"level: {grade.level}, no score: {grade.problem}")
    if level is not None and not steered.reached:
        lines.append(f"target: {level}, out of reach by showing and hiding clues")
    solution = steered.puzzle.solution
    assert solution is not None
    return {"kind": "mosaic", "clues": steered.puzzle.rows_text(), "grid": list(solution),
            "original": as_row_strings(steered.original), "palette": None,
            "flips": [list(c) for c in steered.changed], "givens": [],
            "added": [list(c) for c in steered.added],
            "removed": [list(c) for c in steered.removed],
            "verdict": grade.verdict, "unique": steered.unique, "reached": steered.reached,
            "report": {"kind": "mosaic", "target": level, "level": grade.level,
                       "stars": grade.stars, "score": grade.score,
                       "clues": steered.puzzle.clue_count()},
            "lines": lines}


def design_key(puzzle: MosaicPuzzle) -> str:
    """The catalogue's key for one mosaic under the 8 symmetries: of its clue grid, which
    is the puzzle (its picture alone is not: two clue sets of one picture are two puzzles,
    and a puzzle read without its solution still has clues)."""
    return puzzle.shape_key()


@dataclass(frozen=True)
class MosaicKind:
    """One mosaic through the contract."""

    puzzle: MosaicPuzzle
    name: ClassVar[str] = "mosaic"
    tag: ClassVar[str] = "mosaic"
    drawing: ClassVar[str] = "mosaic"

    #: ``#``/``.`` solution rows draw alone (:class:`~grader.kinds.contract.StoredKind`)
    rows_need_palette: ClassVar[bool] = False

    def summary(self) -> dict[str, Any]:
        return {"kind": self.tag, "clues": self.puzzle.clue_count()}

    # -- what the catalogue stores -------------------------------------------------------
    def colours(self) -> int:
        return 1

    def palette(self) -> list[dict[str, str]] | None:
        return None

    def cell_colours(self) -> dict[str, str]:
        return {"#": "#000000", ".": "#ffffff"}

    def editor_record(self) -> dict[str, Any]:
        """What the studio's editor opens: the clue rows (digits and ``.``); no line
        clues, palette or givens."""
        return {"kind": self.tag, "clues": self.puzzle.rows_text(), "palette": None,
                "rows": [], "columns": [], "givens": []}

    def prepare(self, notice: TextIO | None = None) -> float:
        """Nothing to compile: the mosaic engines are plain Python."""
        return 0.0

    def grid_rows(self, grade: MosaicGrade) -> tuple[str, ...] | None:
        """The proved solution when there is one, else the grid as far as the ladder got
        (``?`` where a cell is still open)."""
        from grader.model import as_row_strings

        if grade.solution is not None:
            return tuple(as_row_strings(grade.solution))
        return tuple(row.replace(" ", "?") for row in grade.grid_rows())

    def picture(self, rows: Sequence[str]) -> np.ndarray[Any, Any]:
        return self.stored_picture(rows, lambda: self.puzzle)

    @classmethod
    def stored_picture(cls, rows: Sequence[str], puzzle: Callable[[], Any]
                       ) -> np.ndarray[Any, Any]:
        import numpy as np

        return np.array([[char == "#" for char in row] for row in rows], dtype=bool)

    def size_label(self) -> str:
        return self.puzzle.size

    # -- check and solve -----------------------------------------------------------------
    def solve(self, limit: int, budget: Budget, first: bool = False) -> SolveResult:
        """Count the solutions up to ``limit`` (``first`` is not needed: the mosaic solver
        is fast enough to prove uniqueness every time)."""
        from grader import mosaic

        return mosaic.check(self.puzzle, limit, budget)

    def solution_rows(self, result: SolveResult) -> list[list[str]]:
        return result.solution_rows()

    def legend(self) -> str:
        return ""

    def with_solution(self, solution: Any) -> MosaicPuzzle:
        return self.puzzle.with_solution(solution)

    def no_solution(self) -> NoSolution:
        """Why no picture fits: the ladder's contradiction, where it finds one."""
        graded = self.grade(None, Budget(seconds=10.0))
        return NoSolution(graded.problem or "no picture agrees with every clue")

    def warnings(self) -> list[str]:
        return [] if self.puzzle.clue_count() else ["no clue is shown"]

    def clue_texts(self) -> tuple[list[Any], list[Any]]:
        """The clue rows as text (digits and ``.``); a mosaic has no column clues."""
        return self.puzzle.rows_text(), []

    # -- grade ---------------------------------------------------------------------------
    def grade(self, max_rung: str | None, budget: Budget) -> MosaicGrade:
        from grader import mosaic

        return mosaic.grade(self.puzzle, budget, max_rung)

    def sentence(self, step: MosaicStep) -> str:
        """One step in words, as ``grade --explain`` says it (the player's hints)."""
        from grader import mosaic

        return mosaic.explain(step, self.puzzle.width)

    def rung_level(self, rung: str) -> str:
        """The level of one of the kind's rungs (a hint's first words)."""
        from grader.mosaic.ladder import mosaic_ladder

        return mosaic_ladder()[rung].level

    def rung_order(self) -> tuple[str, ...]:
        """The kind's rungs, cheapest first (the studio's heat map ranks steps by them)."""
        from grader.mosaic.ladder import mosaic_ladder

        return mosaic_ladder().names

    def explain(self, grade: MosaicGrade, name: str) -> str:
        """The heading, one numbered sentence a step, and where a solve that did not
        finish stopped."""
        from grader import mosaic
        from grader.i18n import _, current, level_name, ngettext, rung_name, verdict_name

        stars = grade.stars or 0
        level, about = level_name(grade.level), f"{name}: {grade.size}"
        head = (_("{name}: {size}, {level}, no score: {problem}", name=name, size=grade.size,
                  level=level, problem=grade.problem)
                if grade.score is None else
                ngettext("{about}, {level}, score {score}, {count} star, verdict {verdict}",
                         "{about}, {level}, score {score}, {count} stars, verdict {verdict}",
                         stars, about=about, level=level,
                         score=current().number(grade.score, 3),
                         verdict=verdict_name(grade.verdict)))
        lines = [head]
        lines.extend(f"{n}. [{rung_name(step.rung)}] {mosaic.explain(step, self.puzzle.width)}"
                     for n, step in enumerate(grade.steps, 1))
        if not grade.solved:
            lines.append(_("Stopped with cells still open (marked ?):"))
            lines.extend(grade.grid_rows())
        return "\n".join(lines)


ENTRY = KindEntry(
    tag=MosaicKind.tag, name=MosaicKind.name, model="grader.mosaic_model:MosaicPuzzle",
    contract=MosaicKind, formats=("yaml", "json", "tatham", "picture", "pbm", "png"),
    solver="grader.mosaic.solver", grader="grader.mosaic.grading",
    ladder="grader/mosaic/ladder.yaml", drawing=MosaicKind.drawing, board="mosaic",
    editor=True, catalogue=(), minutes="", manifest_key="mosaics",
    label=NP_("kind", "Mosaic") + " ",
    lines=False, stored=MosaicKind, suffixes=(GAME_ID_SUFFIX,), suffix_format="tatham",
    claims=claims, read=read, write=write, make=make, steer=steer, design_key=design_key)
