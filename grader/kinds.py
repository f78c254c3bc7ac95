"""One contract for a kind of puzzle; black-and-white and colour fill it.

Like the ``struct game`` of Simon Tatham's collection: every kind answers the same slots
(read, solve and count, clues, grade with the ladder table, explain, describe), and a
command asks ``kind_of(puzzle)`` instead of asking which kind it holds. Black and white is
colour with one colour, but keeps its own compiled solver and grader behind the contract:
nothing here is on a hot path (each slot is one call into the kind's own engine).

Solver and grader modules are imported inside the slots, so reading this module stays
light (the CLI's start-up does not load numba).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TextIO

from grader.colour.model import ColourPuzzle, format_colour_clue
from grader.model import Puzzle

if TYPE_CHECKING:
    from grader.colour.grading import ColourGrade
    from grader.explain_html import Replay
    from grader.grading import Grade
    from grader.results import Budget, SolveResult
    from grader.techniques.base import LineRef, Step

#: a puzzle of either kind
AnyPuzzle = Puzzle | ColourPuzzle


class KindGrade(Protocol):
    """What every kind's grade tells (``grader.grading.Grade``, ``ColourGrade``)."""

    @property
    def verdict(self) -> str: ...
    @property
    def level(self) -> str: ...
    @property
    def score(self) -> float | None: ...
    @property
    def stars(self) -> int | None: ...
    @property
    def problem(self) -> str: ...
    @property
    def size(self) -> str: ...
    @property
    def steps(self) -> tuple[Step, ...]: ...
    @property
    def rungs(self) -> dict[str, int]: ...
    @property
    def minutes(self) -> float | None: ...
    @property
    def minutes_low(self) -> float | None: ...
    @property
    def minutes_high(self) -> float | None: ...
    def to_json(self) -> dict[str, Any]: ...


class PuzzleKind(Protocol):
    """One puzzle seen through the slots every kind fills."""

    @property
    def name(self) -> str:
        """``black-and-white`` or ``colour`` (as the ladder table's ``kinds`` column says)."""
        ...

    @property
    def puzzle(self) -> AnyPuzzle: ...

    def summary(self) -> dict[str, Any]:
        """What a JSON record says of the puzzle after its title and size (the palette)."""
        ...

    def size_label(self) -> str:
        """The size column of a table (``15x10``, ``15x10 3col``)."""
        ...

    def clue_texts(self) -> tuple[list[Any], list[Any]]:
        """The row and column clues as JSON shows them."""
        ...

    def block_lengths(self) -> tuple[list[list[int]], list[list[int]]]:
        """The lengths of the blocks of each row and column clue, colours left out."""
        ...

    def solve(self, limit: int, budget: Budget, first: bool = False) -> SolveResult:
        """Count the solutions up to ``limit`` (never a wrong verdict)."""
        ...

    def solution_rows(self, result: SolveResult) -> list[list[str]]:
        """The solutions as rows of text (``#``/``.``, or the palette's characters)."""
        ...

    def legend(self) -> str:
        """What the characters of a solution mean, '' where that is plain."""
        ...

    def cell_colours(self) -> dict[str, str]:
        """The colour (``#rrggbb``) of each character a solution row holds (``?``, a cell
        still open, is not among them): how a picture of the grid paints it."""
        ...

    def with_solution(self, solution: Any) -> AnyPuzzle: ...

    def why_no_solution(self) -> str:
        """For a puzzle without a solution: the line that breaks, '' if not known."""
        ...

    def no_solution_lines(self) -> list[str]:
        """What ``solve`` prints to show where a puzzle without a solution breaks."""
        ...

    def warnings(self) -> list[str]:
        """What is worth saying of a puzzle that is not a defect (an empty border)."""
        ...

    def grade(self, max_rung: str | None, budget: Budget) -> KindGrade: ...

    def prepare(self, notice: TextIO | None = None) -> float:
        """Compile the kind's kernels (or load them from the cache) before any puzzle's
        clock starts, once a process; seconds spent. A compile is announced on ``notice``."""
        ...

    def grid_rows(self, grade: KindGrade) -> tuple[str, ...] | None:
        """The grid a grade proved or reached, as solution rows (``?`` where still open);
        None when there is none."""
        ...

    def sweeps(self, deadline: float | None = None) -> int:
        """Passes of the complete line solve over all rows, then all columns, ... that
        changed something (grader/sweeps.py: what the minutes read, and calibration)."""
        ...

    def explain(self, grade: KindGrade, name: str) -> str:
        """The step-by-step explanation, with its heading and closing paragraph."""
        ...

    def replay(self, label: str, grade: KindGrade) -> Replay:
        """The solve step by step for the HTML replay (grader.explain_html)."""
        ...


@dataclass(frozen=True)
class BlackAndWhite:
    """The black-and-white kind: the compiled solver and grader of grader.solver and
    grader.grading, unchanged."""

    puzzle: Puzzle
    name: ClassVar[str] = "black-and-white"

    def summary(self) -> dict[str, Any]:
        return {}

    def size_label(self) -> str:
        return self.puzzle.size

    def clue_texts(self) -> tuple[list[Any], list[Any]]:
        return [list(c) for c in self.puzzle.rows], [list(c) for c in self.puzzle.columns]

    def block_lengths(self) -> tuple[list[list[int]], list[list[int]]]:
        return self.clue_texts()

    def solve(self, limit: int, budget: Budget, first: bool = False) -> SolveResult:
        from grader.solver import solve

        return solve(self.puzzle, limit=limit, budget=budget, first=first)

    def solution_rows(self, result: SolveResult) -> list[list[str]]:
        return result.solution_rows()

    def legend(self) -> str:
        return ""

    def cell_colours(self) -> dict[str, str]:
        return {"#": "#000000", ".": "#ffffff"}

    def with_solution(self, solution: Any) -> Puzzle:
        return self.puzzle.with_solution(solution)

    def why_no_solution(self) -> str:
        from grader.diagnose import why_no_solution

        return why_no_solution(self.puzzle)[1]

    def no_solution_lines(self) -> list[str]:
        from grader.diagnose import BrokenLine, why_no_solution
        from grader.model import Grid

        found, why = why_no_solution(self.puzzle)
        if not isinstance(found, BrokenLine):
            return _broken(why)
        return _broken(why, Grid(found.grid).to_rows(), found.line)

    def warnings(self) -> list[str]:
        from grader.diagnose import empty_borders

        border = empty_borders(self.puzzle)
        return [border] if border else []

    def grade(self, max_rung: str | None, budget: Budget) -> Grade:
        from grader.grading import grade

        return grade(self.puzzle, max_rung=max_rung, budget=budget)

    def prepare(self, notice: TextIO | None = None) -> float:
        from grader.solver import ensure_compiled

        return ensure_compiled(notice)

    def grid_rows(self, grade: KindGrade) -> tuple[str, ...] | None:
        graded = _black_and_white_grade(grade)
        # the proved solution when there is one, else as far as the ladder got
        solution = graded.solution_rows()
        if solution is None and graded.grid is not None:
            solution = tuple(graded.grid.to_rows())
        return solution

    def sweeps(self, deadline: float | None = None) -> int:
        from grader.sweeps import sweep_count

        return sweep_count(self.puzzle.rows, self.puzzle.columns, deadline=deadline)

    def explain(self, grade: KindGrade, name: str) -> str:
        from grader.explain import explain_text, grade_closing, grade_heading

        graded = _black_and_white_grade(grade)
        text = explain_text(self.puzzle, graded.steps, grade_heading(name, graded))
        ending = grade_closing(graded)
        return text + (f"\n\n{ending}" if ending else "")

    def replay(self, label: str, grade: KindGrade) -> Replay:
        from grader.explain_html import GradedPuzzle

        return GradedPuzzle(label, self.puzzle, _black_and_white_grade(grade)).replay()


@dataclass(frozen=True)
class Colour:
    """The colour kind: grader.colour's solver and grader."""

    puzzle: ColourPuzzle
    name: ClassVar[str] = "colour"

    def summary(self) -> dict[str, Any]:
        return {"colours": self.puzzle.palette.size, "palette": palette_record(self.puzzle)}

    def size_label(self) -> str:
        return f"{self.puzzle.size} {self.puzzle.palette.size}col"

    def clue_texts(self) -> tuple[list[Any], list[Any]]:
        palette = self.puzzle.palette
        return ([format_colour_clue(c, palette) for c in self.puzzle.rows],
                [format_colour_clue(c, palette) for c in self.puzzle.columns])

    def block_lengths(self) -> tuple[list[list[int]], list[list[int]]]:
        return ([[n for n, _ in c] for c in self.puzzle.rows],
                [[n for n, _ in c] for c in self.puzzle.columns])

    def solve(self, limit: int, budget: Budget, first: bool = False) -> SolveResult:
        """The compiled solver's answer; a small puzzle that line logic solves is answered
        in Python first while the compiled solver is not loaded (saves most of a second)."""
        import sys

        if "grader.colour.solver" not in sys.modules:
            from grader.colour.quick import prove_colour_by_line_logic

            quick = prove_colour_by_line_logic(self.puzzle, budget)
            if quick is not None:
                return quick
        from grader.colour.solver import solve_colour

        return solve_colour(self.puzzle, limit=limit, budget=budget, first=first)

    def solution_rows(self, result: SolveResult) -> list[list[str]]:
        return result.solution_rows(self.puzzle.palette)

    def legend(self) -> str:
        from grader.text import shown

        palette = self.puzzle.palette
        return shown("  ".join(f"{palette[i].char} {palette[i].name}"
                               for i in range(palette.size + 1)))

    def cell_colours(self) -> dict[str, str]:
        palette = self.puzzle.palette
        return {palette[i].char: f"#{palette[i].hex}" for i in range(palette.size + 1)}

    def with_solution(self, solution: Any) -> ColourPuzzle:
        return self.puzzle.with_solution(solution)

    def why_no_solution(self) -> str:
        from grader.colour.diagnose import why_no_colour_solution

        return why_no_colour_solution(self.puzzle)[1]

    def no_solution_lines(self) -> list[str]:
        from grader.colour.diagnose import why_no_colour_solution

        found, why = why_no_colour_solution(self.puzzle)
        if found is None:
            return _broken(why)
        return _broken(why, found.rows(self.puzzle), found.line)

    def warnings(self) -> list[str]:
        return []

    def grade(self, max_rung: str | None, budget: Budget) -> ColourGrade:
        from grader.colour.grading import grade_colour

        return grade_colour(self.puzzle, max_rung=max_rung, budget=budget)

    def prepare(self, notice: TextIO | None = None) -> float:
        from grader.colour.solver import warm_up
        from grader.solver import announce_compiling

        if notice is not None:
            announce_compiling(notice)  # where the colour solver says it compiles
        return warm_up()

    def grid_rows(self, grade: KindGrade) -> tuple[str, ...] | None:
        """The bit sets the ladder reached as palette chars (``?`` where several values
        are still open)."""
        from grader.colour.grading import ColourGrade

        assert isinstance(grade, ColourGrade), "a colour puzzle's grade"
        grid = grade.grid
        if grid is None or getattr(grid, "ndim", 0) != 2:
            return None
        palette = self.puzzle.palette
        chars = [palette[index].char for index in range(palette.size + 1)]  # 0: background
        rows = []
        for line in grid.tolist():
            row = []
            for mask in line:
                value = int(mask)
                single = value and not value & (value - 1)
                index = value.bit_length() - 1
                row.append(chars[index] if single and index < len(chars) else "?")
            rows.append("".join(row))
        return tuple(rows)

    def sweeps(self, deadline: float | None = None) -> int:
        import numpy as np

        from grader.colour.lines import full_mask, solve_line
        from grader.sweeps import sweep_count

        puzzle = self.puzzle
        start = np.full((puzzle.height, puzzle.width), full_mask(puzzle.palette.size),
                        dtype=np.uint32)
        return sweep_count(puzzle.rows, puzzle.columns, solve=solve_line, start=start,
                           deadline=deadline)

    def explain(self, grade: KindGrade, name: str) -> str:
        from grader.colour.grading import ColourGrade, explain_colour
        from grader.text import shown

        assert isinstance(grade, ColourGrade), "a colour puzzle's grade"
        puzzle = self.puzzle
        colours = shown(", ".join(puzzle.palette.names()))
        about = f"{name}: {puzzle.size}, {puzzle.palette.size} colours ({colours}), "
        if grade.score is None or grade.stars is None:  # a defect, not a difficulty
            heading = about + f"{grade.level}, no score: {grade.problem}"
        else:
            heading = about + (f"{grade.level}, score {grade.score:.3f}, {grade.stars} "
                               f"star{'s' * (grade.stars != 1)}, verdict {grade.verdict}")
        return explain_colour(puzzle, grade, heading)

    def replay(self, label: str, grade: KindGrade) -> Replay:
        from grader.colour.grading import ColourGrade, sentence
        from grader.explain_html import replay_of

        assert isinstance(grade, ColourGrade), "a colour puzzle's grade"
        puzzle = self.puzzle
        palette = puzzle.palette
        colours = [(palette[v].name, f"#{palette[v].hex}") for v in range(palette.size + 1)]
        return replay_of(label, puzzle.title, (puzzle.width, puzzle.height), colours,
                         (puzzle.rows, puzzle.columns), (grade, f"{palette.size} colours"),
                         grade.steps, lambda step: sentence(step, puzzle))


def _broken(why: str, rows: Sequence[str] = (), line: LineRef | None = None) -> list[str]:
    """What ``solve`` prints of a puzzle without a solution: why, and the grid when the
    line broke with that line marked (``>`` before a row, ``v`` over a column)."""
    lines = [f"no solution: {why}"]
    if line is None:
        return lines
    lines.append("the grid when it broke (? = still open, > marks the line):")
    if line.axis == "row":
        lines.extend((">" if r == line.index else " ") + row for r, row in enumerate(rows))
    else:
        lines.extend([" " + " " * line.index + "v", *(" " + row for row in rows)])
    return lines


def _black_and_white_grade(grade: KindGrade) -> Grade:
    from grader.grading import Grade

    assert isinstance(grade, Grade), "a black-and-white puzzle's grade"
    return grade


def palette_record(puzzle: ColourPuzzle) -> list[dict[str, str]]:
    """The palette as JSON shows it."""
    return [{"name": c.name, "rgb": c.hex, "char": c.char, "symbol": c.symbol}
            for c in puzzle.palette.colours]


def kind_of(puzzle: AnyPuzzle) -> PuzzleKind:
    """The contract of ``puzzle``'s kind: the one place that asks which kind it is."""
    if isinstance(puzzle, ColourPuzzle):
        return Colour(puzzle)
    return BlackAndWhite(puzzle)


def read_puzzles(source: str | Path | bytes, format: str | None = None,
                 name: str | None = None, colours: int | None = None) -> list[AnyPuzzle]:
    """The puzzles of a file or of bytes, of whichever kind the file holds (the formats
    registry decides; ``colours`` reads pictures as colour puzzles of at most N colours)."""
    from grader.colour.io import read_any

    return read_any(source, format=format, name=name, colours=colours)


def write_puzzles(puzzles: Sequence[AnyPuzzle], format_name: str) -> bytes:
    """``puzzles`` in one file of ``format_name`` (a colour puzzle needs a colour format)."""
    from grader.colour.io import write_any

    return write_any(list(puzzles), format_name)
