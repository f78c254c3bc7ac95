"""The black-and-white kind on paper: clue numbers in the tint, filled cells inked and
merged into runs, given cells printed in the empty grid."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from grader.kinds import PuzzleKind
from grader.model import EMPTY, FILLED, BoolArray, Puzzle, rows_to_array
from grader.techniques.base import Step
from layout.draw import ClueText, Op, Rects, filled_runs, given_ops
from layout.geometry import BlockGeometry
from layout.kinds import (
    MAX_GRID_SIDE,
    MAX_WORKED_GRIDS,
    ROUTINE_RUNGS,
    KindDrawing,
    Picture,
    printed_steps,
    step_rows,
)
from layout.stepgrid import legend, step_cell, step_grid_ops

if TYPE_CHECKING:
    from grader.colour.model import AnyPuzzle
    from grader.colour.palette import Palette


class BlackAndWhiteDrawing:
    """Clue numbers in the tint, filled cells inked and merged into runs, givens printed."""

    def symbols(self, puzzle: AnyPuzzle, grey: bool) -> bool:
        return False

    def clue_ops(self, puzzle: AnyPuzzle, geometry: BlockGeometry, x: float, top: float,
                 cell: float, size: float, grey: bool) -> tuple[list[Op], list[Op]]:
        plain = cast(Puzzle, puzzle)
        return [], [ClueText(size, list(geometry.clue_centres(plain, x, top, cell)))]

    def cell_ops(self, puzzle: AnyPuzzle, solution: Picture | None, grid_x: float,
                 grid_top: float, cell: float, grey: bool, least_text: float) -> list[Op]:
        plain = cast(Puzzle, puzzle)
        if solution is None:
            return given_ops(plain, grid_x, grid_top, cell) if plain.givens else []
        runs = filled_runs(cast(BoolArray, solution))
        return [Rects("ink", [(grid_x + c * cell, grid_top - (r + 1) * cell, n * cell, cell)
                              for r, c, n in runs])]

    def legend_palette(self, puzzle: AnyPuzzle) -> Palette | None:
        return None

    def legend_ops(self, puzzle: AnyPuzzle, grey: bool, x: float, baseline: float,
                   size: float, width: float) -> list[Op]:
        return []

    def legend_fits(self, puzzle: AnyPuzzle, grey: bool, size: float, width: float) -> bool:
        return True

    def solution_record(self, puzzle: AnyPuzzle, rows: tuple[str, ...] | None
                        ) -> tuple[str, ...] | None:
        return rows

    def picture(self, puzzle: AnyPuzzle, record: tuple[str, ...]) -> Picture | None:
        return rows_to_array(record)

    def worked_grids(self, kind: PuzzleKind, steps: Sequence[Step], lines: Sequence[str]
                     ) -> tuple[tuple[int, tuple[str, ...]], ...]:
        """The grid after each hard step (beyond routine line logic) that ``lines`` prints
        in full, as rows of '#', '.', '?' and 'F'/'E' for the cells the step decided."""
        def mark(value: int, decided: bool) -> str:
            if decided:
                return "F" if value == FILLED else "E"
            return "#" if value == FILLED else "." if value == EMPTY else "?"

        cells = kind.start_cells().copy()
        height, width = cells.shape
        if width > MAX_GRID_SIDE or height > MAX_GRID_SIDE:
            return ()
        where = printed_steps(lines)
        grids: list[tuple[int, tuple[str, ...]]] = []
        for k, step in enumerate(steps, start=1):
            for row, column, state in step.changes:
                cells[row, column] = state
            if step.rung in ROUTINE_RUNGS or str(k) not in where:
                continue
            grids.append((where[str(k)], step_rows(cells, step, mark)))
            if len(grids) == MAX_WORKED_GRIDS:
                break
        return tuple(grids)

    def step_legend(self, grey: bool) -> str:
        return legend(grey)

    def step_cell(self, rows: Sequence[str], width: float, grey: bool, least_text: float
                  ) -> float:
        return step_cell(rows, width)

    def step_width(self, rows: Sequence[str], least_text: float) -> float:
        return 0.0  # no text in its cells

    def step_grid_ops(self, puzzle: AnyPuzzle, rows: Sequence[str], x: float, top: float,
                      cell: float, grey: bool, least_text: float, line: float) -> list[Op]:
        return step_grid_ops(rows, x, top, cell, line)


DRAWING: KindDrawing = BlackAndWhiteDrawing()
