"""The black-and-white kind: the compiled solver of grader.solver and the ladder grader of
grader.grading, behind the contract (grader/kinds/contract.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, TextIO

from grader.kinds.contract import AnyPuzzle, KindEntry, KindGrade, NoSolution
from grader.model import Puzzle

if TYPE_CHECKING:
    import numpy as np

    from grader.colour.model import ColourPuzzle
    from grader.explain_html import Replay
    from grader.grading import Grade
    from grader.minutes import ClueFacts
    from grader.results import Budget, SolveResult
    from grader.solve_shape import SolveShape
    from grader.sweeps import Sweeps
    from grader.techniques.base import Step


@dataclass(frozen=True)
class BlackAndWhite:
    """The black-and-white kind: the compiled solver and grader of grader.solver and
    grader.grading, unchanged."""

    puzzle: Puzzle
    name: ClassVar[str] = "black-and-white"
    tag: ClassVar[str] = "bw"

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

    def no_solution(self) -> NoSolution:
        from grader.diagnose import BrokenCell, BrokenLine, why_no_solution
        from grader.model import Grid

        found, why = why_no_solution(self.puzzle)
        if isinstance(found, BrokenLine):
            return NoSolution(why, found.line, rows=tuple(Grid(found.grid).to_rows()))
        if isinstance(found, BrokenCell):
            return NoSolution(why, cell=found.cell)
        return NoSolution(why)

    def warnings(self) -> list[str]:
        from grader.borders import empty_borders

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
        return self.sweep_passes(deadline).count

    def sweep_passes(self, deadline: float | None = None) -> Sweeps:
        from grader.sweeps import sweeps_of

        return sweeps_of(self.puzzle.rows, self.puzzle.columns, deadline=deadline)

    def clue_facts(self, passes: Sweeps) -> ClueFacts:
        from grader.minutes import ClueFacts

        return ClueFacts.of_counts(self.puzzle.rows, self.puzzle.columns, passes.count,
                                   first_sweep=passes.first)

    def explain(self, grade: KindGrade, name: str) -> str:
        from grader.explain import explain_text, grade_closing, grade_heading

        graded = _black_and_white_grade(grade)
        text = explain_text(self.puzzle, graded.steps, grade_heading(name, graded))
        ending = grade_closing(graded)
        return text + (f"\n\n{ending}" if ending else "")

    def replay(self, label: str, grade: KindGrade) -> Replay:
        from grader.explain_html import GradedPuzzle

        return GradedPuzzle(label, self.puzzle, _black_and_white_grade(grade)).replay()

    def colours(self) -> int:
        return 1

    def palette(self) -> list[dict[str, str]] | None:
        return None

    def picture(self, rows: Sequence[str]) -> np.ndarray[Any, Any]:
        return self.stored_picture(rows, lambda: self.puzzle)

    #: ``#``/``.`` rows draw alone (see :class:`StoredKind`)
    rows_need_palette: ClassVar[bool] = False

    @classmethod
    def stored_picture(cls, rows: Sequence[str], puzzle: Callable[[], AnyPuzzle]
                       ) -> np.ndarray[Any, Any]:
        import numpy as np

        return np.array([[char == "#" for char in row] for row in rows], dtype=bool)

    def rows_of(self, picture: np.ndarray[Any, Any]) -> tuple[str, ...]:
        from grader.model import as_row_strings

        return tuple(as_row_strings(picture))

    def editor_record(self) -> dict[str, Any]:
        rows, columns = self.clue_texts()
        return {"kind": self.tag, "palette": None, "rows": rows, "columns": columns,
                "givens": [[r, c, bool(f)] for r, c, f in self.puzzle.givens]}

    def with_givens(self, givens: Sequence[tuple[int, int, bool]]) -> Puzzle:
        return self.puzzle.with_givens(givens)

    def black_and_white(self) -> Puzzle | None:
        return self.puzzle

    def in_colour(self) -> ColourPuzzle | None:
        return None

    drawing: ClassVar[str] = "bw"

    def sentence(self, step: Step) -> str:
        from grader.explain import sentence

        return sentence(step, self.puzzle)

    def start_cells(self) -> np.ndarray[Any, Any]:
        return self.puzzle.start_cells()

    def proved_rows(self, grade: KindGrade) -> tuple[str, ...] | None:
        return _black_and_white_grade(grade).solution_rows()

    def solve_shape(self, grade: KindGrade) -> SolveShape | None:
        from grader.solve_shape import shape_of, step_rows

        solution = _black_and_white_grade(grade).solution
        return None if solution is None else shape_of(solution, step_rows(grade.steps))

    def givens(self) -> tuple[tuple[int, int, bool], ...]:
        return tuple(self.puzzle.givens)



def _black_and_white_grade(grade: KindGrade) -> Grade:
    from grader.grading import Grade

    assert isinstance(grade, Grade), "a black-and-white puzzle's grade"
    return grade


ENTRY = KindEntry(
    tag=BlackAndWhite.tag, name=BlackAndWhite.name, model="grader.model:Puzzle",
    contract=BlackAndWhite,
    formats=("pbm", "png", "gif", "bmp", "g", "xml", "pynogram", "json", "tatham", "picross",
             "taai", "non", "yaml", "mk", "nin", "picture", "pbm4"),
    solver="grader.solver", grader="grader.grading", ladder="black-and-white",
    drawing=BlackAndWhite.drawing, board="bw", editor=True, givens=True, clues_alone=True,
    catalogue=("givens",), minutes="of_counts", stored=BlackAndWhite)
