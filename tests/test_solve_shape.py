"""The solve's shape the minutes read: pieces and holes of the picture, strokes of the
hand, how early the grid fills; the grade's steps and calibration's compact logs agree."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from grader import formats, scoring
from grader.grading import grade
from grader.solve_shape import compact_rows, shape_of, step_rows

ROOT = Path(__file__).resolve().parents[1]


def picture(*rows: str) -> np.ndarray:
    """'#' ink, '.' background, digits for colours."""
    return np.array([[0 if ch == "." else 1 if ch == "#" else int(ch) for ch in row]
                     for row in rows])


def flood_pieces(grid: np.ndarray, ink: bool) -> int:
    """The oracle: 4-connected pieces of one colour by a plain flood fill."""
    seen = np.zeros(grid.shape, dtype=bool)
    count = 0
    for start in zip(*np.nonzero((grid != 0) == ink), strict=True):
        if seen[start]:
            continue
        count += 1
        stack = [start]
        seen[start] = True
        while stack:
            r, c = stack.pop()
            for nr, nc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if (0 <= nr < grid.shape[0] and 0 <= nc < grid.shape[1] and not seen[nr, nc]
                        and grid[nr, nc] == grid[r, c]):
                    seen[nr, nc] = True
                    stack.append((nr, nc))
    return count


def test_a_ring_is_one_piece_around_a_hole() -> None:
    shape = shape_of(picture("#####", "#...#", "#####", "....."), [])
    assert (shape.pieces, shape.holes) == (1, 2)


def test_touching_colours_are_pieces_of_their_own() -> None:
    shape = shape_of(picture("1122", "1.22", "3333"), [])
    assert (shape.pieces, shape.holes) == (3, 1)


def test_pieces_and_holes_agree_with_a_flood_fill() -> None:
    rng = np.random.default_rng(7)
    for _ in range(200):
        height, width = (int(v) for v in rng.integers(1, 13, size=2))
        grid = rng.integers(0, 4, size=(height, width))
        shape = shape_of(grid, [])
        assert shape.pieces == flood_pieces(grid, ink=True), grid
        assert shape.holes == flood_pieces(grid, ink=False), grid


def test_symmetry_edges_and_checker() -> None:
    mirrored = shape_of(picture("#..#", "##.#", "#..#"), [])
    assert mirrored.symmetry == 1.0  # top-bottom
    board = shape_of(picture("#.#", ".#.", "#.#"), [])
    assert board.checker == 1.0 and board.edges == pytest.approx(12 / 9)
    plain = shape_of(picture("###", "###"), [])
    assert (plain.checker, plain.edges, plain.pieces, plain.holes) == (0.0, 0.0, 1, 0)


def test_touching_counts_runs_of_two_colours_meeting_without_a_gap() -> None:
    # 1|2 and 2|1 meet in the top row, 1 over 2 in the first column; ink beside
    # background and ink beside its own colour are not touching
    shape = shape_of(picture("121.", "2.1.", "...."), [])
    assert shape.touching == pytest.approx(3 / 12)
    assert shape_of(picture("#.#", ".#.", "#.#"), []).touching == 0.0


def test_a_step_paints_a_stroke_per_run_of_one_colour() -> None:
    grid = picture("11.21", "1....", "2....")
    row = ("simple-boxes", 3, "row", 0, [(0, 4), (0, 0), (0, 1), (0, 2), (0, 3)])
    column = ("simple-spaces", 1, "column", 0, [(0, 0), (2, 0)])  # not neighbours
    cell = ("colour-probe", 1, "", -1, [(1, 1)])
    shape = shape_of(grid, [row, column, cell])
    # row: 11 | . | 2 | 1; column: 1 | 2 (a gap between them); the cell: background
    assert (shape.fill_strokes, shape.empty_strokes) == (5, 2)
    assert shape.colour_picks == 4  # 1, 2, 1, then 1 (the same: no pick), 2
    assert shape.techniques == {"simple-boxes": 1, "simple-spaces": 1, "colour-probe": 1}
    assert shape.one_cell_steps == 1
    assert shape.mean_openings == pytest.approx(5 / 3)
    assert shape.settled_half == pytest.approx(7 / 15)  # after the second of three steps
    assert shape.settled_mean == pytest.approx((5 + 7 + 8) / 3 / 15)


def test_the_grades_steps_and_their_compact_log_give_one_shape() -> None:
    puzzle = formats.read(ROOT / "puzzles" / "night-sky.yaml")[0]
    result = grade(puzzle)
    assert result.solution is not None
    compact = [scoring.compact_step(step) for step in result.steps]
    from_grade = shape_of(result.solution, step_rows(result.steps))
    assert from_grade == shape_of(result.solution.astype(int) * 35, compact_rows(compact))
    assert from_grade.steps == len(result.steps)
    assert from_grade.fill_strokes >= from_grade.pieces > 0
