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

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TextIO

from grader.colour.model import ColourPuzzle, format_colour_clue
from grader.model import Metadata, Puzzle

if TYPE_CHECKING:
    import numpy as np

    from grader.colour.grading import ColourGrade
    from grader.colour.palette import Palette
    from grader.explain_html import Replay
    from grader.grading import Grade
    from grader.minutes import ClueFacts
    from grader.results import Budget, SolveResult
    from grader.solve_shape import SolveShape
    from grader.sweeps import Sweeps
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
    @property
    def effort_minutes(self) -> float: ...
    @property
    def graded(self) -> bool: ...
    @property
    def time_s(self) -> float: ...
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

    def no_solution(self) -> NoSolution:
        """For a puzzle without a solution: why, and the line (or cell) that breaks."""
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

    def sweep_passes(self, deadline: float | None = None) -> Sweeps:
        """The sweep count and the share of the grid the first sweep settles."""
        ...

    def clue_facts(self, passes: Sweeps) -> ClueFacts:
        """What the time model reads of the clues (grader/minutes.py), with the sweeps."""
        ...

    def explain(self, grade: KindGrade, name: str) -> str:
        """The step-by-step explanation, with its heading and closing paragraph."""
        ...

    def replay(self, label: str, grade: KindGrade) -> Replay:
        """The solve step by step for the HTML replay (grader.explain_html)."""
        ...

    @property
    def tag(self) -> str:
        """The kind's short name in library and catalogue records (``bw``, ``colour``)."""
        ...

    def colours(self) -> int:
        """How many colours the puzzle uses beside the background (1 for black and white)."""
        ...

    def palette(self) -> list[dict[str, str]] | None:
        """The palette as JSON shows it; None for black and white."""
        ...

    def picture(self, rows: Sequence[str]) -> np.ndarray[Any, Any]:
        """A solution's rows as the picture array (bool, or the palette index of a cell)."""
        ...

    def rows_of(self, picture: np.ndarray[Any, Any]) -> tuple[str, ...]:
        """A picture as solution rows (the inverse of :meth:`picture`), whether or not it
        solves the clues."""
        ...

    def editor_record(self) -> dict[str, Any]:
        """The clues, palette and givens as the studio's editor draws them."""
        ...

    def with_givens(self, givens: Sequence[tuple[int, int, bool]]) -> AnyPuzzle:
        """The puzzle with these cells given (a kind without givens refuses any)."""
        ...

    def black_and_white(self) -> Puzzle | None:
        """The puzzle for the engines that work on black and white only (authoring's
        repair), None for a puzzle in colours."""
        ...

    def in_colour(self) -> ColourPuzzle | None:
        """The puzzle for the engines that work on colour puzzles only (authoring's colour
        repair), None for a black-and-white one: the twin of :meth:`black_and_white`."""
        ...

    @property
    def drawing(self) -> str:
        """The name of the drawing strategy layout prints the kind with (layout owns and
        registers the strategies; the kind only names its own)."""
        ...

    def sentence(self, step: Step) -> str:
        """One step of a solve as a sentence in the kind's words."""
        ...

    def start_cells(self) -> np.ndarray[Any, Any]:
        """The grid before a solve's first step as bit sets (bit 0 empty, bit v colour v:
        a black-and-white cell is 1 empty, 2 filled, 3 open), the givens decided. A step's
        changes are bit sets of the same kind."""
        ...

    def proved_rows(self, grade: KindGrade) -> tuple[str, ...] | None:
        """The solution the grade proved unique, as solution rows; None when it proved
        none (what an issue prints: never solved again)."""
        ...

    def solve_shape(self, grade: KindGrade) -> SolveShape | None:
        """What the solve drew (grader/solve_shape.py: the picture, the strokes, the
        order), which the minutes read; None when the grade proved no solution."""
        ...

    def givens(self) -> tuple[tuple[int, int, bool], ...]:
        """The cells given in the grid (row, column, filled); none for a kind without."""
        ...


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

    drawing: ClassVar[str] = "black-and-white"

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
        return kind_of(puzzle()).picture(rows)

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


@dataclass(frozen=True)
class NoSolution:
    """Why a puzzle of either kind has no solution: the line that breaks and the grid when
    it broke (or, for black and white, a cell that breaks both ways), where known."""

    why: str
    line: LineRef | None = None
    cell: tuple[int, int] | None = None
    rows: tuple[str, ...] = ()  #: the grid when the line broke (``?`` still open)

    def lines(self) -> list[str]:
        """What ``solve`` prints: why, and the grid when the line broke with that line
        marked (``>`` before a row, ``v`` over a column)."""
        lines = [f"no solution: {self.why}"]
        line = self.line
        if line is None:
            return lines
        lines.append("the grid when it broke (? = still open, > marks the line):")
        if line.axis == "row":
            lines.extend((">" if r == line.index else " ") + row
                         for r, row in enumerate(self.rows))
        else:
            lines.extend([" " + " " * line.index + "v", *(" " + row for row in self.rows)])
        return lines

    def where(self) -> dict[str, Any] | None:
        """What the studio marks: ``{"axis", "index"}`` of the line or ``{"cell"}``."""
        if self.line is not None:
            return {"axis": self.line.axis, "index": self.line.index}
        if self.cell is not None:
            return {"cell": list(self.cell)}
        return None


def _black_and_white_grade(grade: KindGrade) -> Grade:
    from grader.grading import Grade

    assert isinstance(grade, Grade), "a black-and-white puzzle's grade"
    return grade


def palette_record(puzzle: ColourPuzzle) -> list[dict[str, str]]:
    """The palette as JSON shows it."""
    return [{"name": c.name, "rgb": c.hex, "char": c.char, "symbol": c.symbol}
            for c in puzzle.palette.colours]


class StoredKind(Protocol):
    """A kind as library and catalogue records store it, by its tag: what a listing asks of
    a stored row without rebuilding the puzzle from its YAML (every row read back would cost
    a parse). ``STORED[row.kind]``; each kind's class fills it."""

    @property
    def tag(self) -> str: ...

    @property
    def rows_need_palette(self) -> bool:
        """The stored solution rows are the palette's characters, so drawing them needs the
        puzzle's palette (black and white's ``#``/``.`` draw alone)."""
        ...

    def stored_picture(self, rows: Sequence[str], puzzle: Callable[[], AnyPuzzle]
                       ) -> np.ndarray[Any, Any]:
        """Stored solution rows as the picture array (:meth:`PuzzleKind.picture`);
        ``puzzle`` rebuilds the stored puzzle, called only when the rows alone do not say."""
        ...


#: every kind by the tag its records store (``PuzzleKind.tag``): a new kind adds its class
STORED: dict[str, StoredKind] = {kind.tag: kind for kind in (BlackAndWhite, Colour)}
#: the tags a stored kind may have (the catalogue's ``kind`` column, ``--kind`` choices)
TAGS: tuple[str, ...] = tuple(STORED)


def kind_of(puzzle: AnyPuzzle) -> PuzzleKind:
    """The contract of ``puzzle``'s kind: the one place that asks which kind it is."""
    if isinstance(puzzle, ColourPuzzle):
        return Colour(puzzle)
    return BlackAndWhite(puzzle)


def puzzle_from_rows(rows: Sequence[str], meta: Metadata, palette: Palette | None = None
                     ) -> AnyPuzzle:
    """The puzzle whose solution is ``rows``: ``#``/``.`` for black and white, the
    palette's chars for a colour one."""
    if palette is None:
        from grader.model import rows_to_array

        return Puzzle.from_picture(rows_to_array(list(rows)), meta)
    from grader.colour.model import rows_to_colour_array

    return ColourPuzzle.from_picture(rows_to_colour_array(list(rows), palette), palette, meta)


def read_puzzles(source: str | Path | bytes, format: str | None = None,
                 name: str | None = None, colours: int | None = None) -> list[AnyPuzzle]:
    """The puzzles of a file or of bytes, of whichever kind the file holds (the formats
    registry decides; ``colours`` reads pictures as colour puzzles of at most N colours)."""
    from grader.formats import read_any

    return read_any(source, format=format, name=name, colours=colours)


def write_puzzles(puzzles: Sequence[AnyPuzzle], format_name: str) -> bytes:
    """``puzzles`` in one file of ``format_name`` (a colour puzzle needs a colour format)."""
    from grader.formats import write_any

    return write_any(list(puzzles), format_name)
