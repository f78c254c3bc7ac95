"""The colour kind: grader.colour's solver and grader behind the contract
(grader/kinds/contract.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, TextIO, cast

from grader.colour.model import ColourPuzzle, format_colour_clue
from grader.i18n import NP_
from grader.kinds.contract import AnyPuzzle, KindEntry, KindGrade, NoSolution

if TYPE_CHECKING:
    import numpy as np

    from grader.colour.grading import ColourGrade
    from grader.explain_html import Replay
    from grader.minutes import ClueFacts
    from grader.model import Puzzle
    from grader.results import Budget, SolveResult
    from grader.solve_shape import SolveShape
    from grader.sweeps import Sweeps
    from grader.techniques.base import Step


@dataclass(frozen=True)
class Colour:
    """The colour kind: grader.colour's solver and grader."""

    puzzle: ColourPuzzle
    name: ClassVar[str] = "colour"
    tag: ClassVar[str] = "colour"

    def summary(self) -> dict[str, Any]:
        return {"colours": self.puzzle.palette.size, "palette": palette_record(self.puzzle)}

    def size_label(self) -> str:
        return f"{self.puzzle.size} {self.puzzle.palette.size}col"

    def clue_texts(self) -> tuple[list[Any], list[Any]]:
        palette = self.puzzle.palette
        return ([format_colour_clue(c, palette) for c in self.puzzle.rows],
                [format_colour_clue(c, palette) for c in self.puzzle.columns])

    def block_lengths(self) -> tuple[list[list[int]], list[list[int]]]:
        from grader.colour.grading import block_lengths

        return block_lengths(self.puzzle)

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

    def no_solution(self) -> NoSolution:
        from grader.colour.diagnose import why_no_colour_solution

        found, why = why_no_colour_solution(self.puzzle)
        if found is None:
            return NoSolution(why)
        return NoSolution(why, found.line, rows=tuple(found.rows(self.puzzle)))

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
        return self.sweep_passes(deadline).count

    def sweep_passes(self, deadline: float | None = None) -> Sweeps:
        from grader.colour.grading import colour_sweep_passes

        return colour_sweep_passes(self.puzzle, deadline)

    def clue_facts(self, passes: Sweeps) -> ClueFacts:
        from grader.minutes import ClueFacts

        return ClueFacts.of_colour_clues(self.puzzle.rows, self.puzzle.columns,
                                         self.puzzle.palette.size, passes.count,
                                         first_sweep=passes.first)

    def explain(self, grade: KindGrade, name: str) -> str:
        from grader.colour.grading import ColourGrade, explain_colour
        from grader.text import shown

        assert isinstance(grade, ColourGrade), "a colour puzzle's grade"
        puzzle = self.puzzle
        from grader.i18n import _, current, level_name, ngettext, verdict_name

        colours = shown(_(", ").join(puzzle.palette.names()))
        about = ngettext("{name}: {size}, {count} colour ({colours})",
                         "{name}: {size}, {count} colours ({colours})", puzzle.palette.size,
                         name=name, size=puzzle.size, colours=colours)
        level = level_name(grade.level)
        if grade.score is None or grade.stars is None:  # a defect, not a difficulty
            heading = _("{about}, {level}, no score: {problem}", about=about, level=level,
                        problem=grade.problem)
        else:
            heading = ngettext("{about}, {level}, score {score}, {count} star, verdict {verdict}",
                               "{about}, {level}, score {score}, {count} stars, verdict {verdict}",
                               grade.stars, about=about, level=level,
                               score=current().number(grade.score, 3),
                               verdict=verdict_name(grade.verdict))
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

    def colours(self) -> int:
        return self.puzzle.palette.size

    def palette(self) -> list[dict[str, str]] | None:
        return palette_record(self.puzzle)

    def picture(self, rows: Sequence[str]) -> np.ndarray[Any, Any]:
        from grader.colour.model import rows_to_colour_array

        return rows_to_colour_array(list(rows), self.puzzle.palette)

    #: its rows are the palette's characters (see :class:`StoredKind`)
    rows_need_palette: ClassVar[bool] = True

    @classmethod
    def stored_picture(cls, rows: Sequence[str], puzzle: Callable[[], AnyPuzzle]
                       ) -> np.ndarray[Any, Any]:
        return cls(cast(ColourPuzzle, puzzle())).picture(rows)

    def rows_of(self, picture: np.ndarray[Any, Any]) -> tuple[str, ...]:
        from grader.colour.model import colour_array_to_rows

        return colour_array_to_rows(picture, self.puzzle.palette)

    def editor_record(self) -> dict[str, Any]:
        palette = self.puzzle.palette
        return {"kind": self.tag, "palette": palette_record(self.puzzle), "givens": [],
                "rows": [[[n, palette[c].char] for n, c in clue] for clue in self.puzzle.rows],
                "columns": [[[n, palette[c].char] for n, c in clue]
                            for clue in self.puzzle.columns]}

    def with_givens(self, givens: Sequence[tuple[int, int, bool]]) -> ColourPuzzle:
        if list(givens):
            from grader.errors import PuzzleError

            raise PuzzleError("givens are for black-and-white puzzles; a colour puzzle has none")
        return self.puzzle

    def black_and_white(self) -> Puzzle | None:
        return None

    def in_colour(self) -> ColourPuzzle | None:
        return self.puzzle

    drawing: ClassVar[str] = "colour"

    def sentence(self, step: Step) -> str:
        from grader.colour.grading import sentence

        return sentence(step, self.puzzle)

    def start_cells(self) -> np.ndarray[Any, Any]:
        import numpy as np

        from grader.colour.lines import full_mask

        puzzle = self.puzzle
        return np.full((puzzle.height, puzzle.width), full_mask(puzzle.palette.size),
                       dtype=np.uint32)

    def proved_rows(self, grade: KindGrade) -> tuple[str, ...] | None:
        from grader.colour.grading import ColourGrade
        from grader.colour.model import colour_array_to_rows

        assert isinstance(grade, ColourGrade), "a colour puzzle's grade"
        if grade.proved is None:
            return None
        return tuple(colour_array_to_rows(grade.proved, self.puzzle.palette))

    def solve_shape(self, grade: KindGrade) -> SolveShape | None:
        from grader.colour.grading import ColourGrade
        from grader.solve_shape import shape_of, step_rows

        assert isinstance(grade, ColourGrade), "a colour puzzle's grade"
        return None if grade.proved is None else shape_of(grade.proved, step_rows(grade.steps))

    def givens(self) -> tuple[tuple[int, int, bool], ...]:
        return ()



def palette_record(puzzle: ColourPuzzle) -> list[dict[str, str]]:
    """The palette as JSON shows it."""
    return [{"name": c.name, "rgb": c.hex, "char": c.char, "symbol": c.symbol}
            for c in puzzle.palette.colours]


ENTRY = KindEntry(
    tag=Colour.tag, name=Colour.name, model="grader.colour.model:ColourPuzzle",
    contract=Colour, formats=("bmp", "g", "gif", "json", "non", "png", "pynogram", "xml", "yaml"),
    solver="grader.colour.solver", grader="grader.colour.grading", ladder="colour",
    drawing=Colour.drawing, board="colour", editor=True,
    catalogue=("colours", "palette"), minutes="of_colour_clues", stored=Colour,
    label=NP_("kind", "Colour") + " ")
