"""What an authoring job produced, and the report a person reads: one result type for a
puzzle of either kind (``make``, ``make --colours``, ``repair``, ``generate``, the studio)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeAlias, TypeVar

import numpy.typing as npt

from grader.authoring.measure import Cell
from grader.authoring.target import Target, describe
from grader.colour.model import ColourPuzzle
from grader.kinds import KindGrade, kind_of
from grader.model import Puzzle
from grader.results import Verdict
from grader.wording import cell_list

if TYPE_CHECKING:
    from grader.colour.grading import ColourGrade
    from grader.grading import Grade

#: the kind of puzzle made, and the grade its kind gives
P = TypeVar("P", Puzzle, ColourPuzzle)
G = TypeVar("G", bound=KindGrade)


@dataclass(frozen=True)
class Authored(Generic[P, G]):
    """A puzzle made from a picture (or repaired): the puzzle with its solution and givens,
    the picture it started from (filled cells, or palette indices for colour), the flips
    made, its grade and whether the target was met."""

    puzzle: P
    original: npt.NDArray[Any]
    flips: tuple[Cell, ...]
    verdict: Verdict
    grade: G | None
    target: Target
    time_s: float
    method: str = ""
    note: str = ""  #: why a target was missed, when that is known
    warnings: tuple[str, ...] = ()  #: what a reader should know (colours that print alike)
    #: how well the puzzle reads as its picture at its size (0-1; None: not from a picture)
    likeness: float | None = None
    #: the ink share (0-1) the likeness rule reads: of the picture at the asked size,
    #: before its empty margins are trimmed (the trimmed grid shows more ink)
    picture_ink: float | None = None

    @property
    def cells(self) -> int:
        return self.puzzle.width * self.puzzle.height

    @property
    def flip_share(self) -> float:
        """Flipped cells as a percentage of all cells."""
        return 100.0 * len(self.flips) / self.cells

    def original_rows(self) -> list[str]:
        """The picture it started from as row strings ('#'/'.', or the palette's chars)."""
        return list(kind_of(self.puzzle).rows_of(self.original))

    def given_cells(self) -> list[list[Any]]:
        """The printed givens as [row, column, filled], 0-based (colour has none)."""
        return [[r, c, bool(f)] for r, c, f in _givens(self.puzzle)]

    @property
    def ink_share(self) -> float:
        """Inked cells of the solution as a percentage of all cells."""
        solution = self.puzzle.solution_array()
        return 0.0 if solution is None else 100.0 * float((solution != 0).mean())

    @property
    def unique(self) -> bool:
        return self.verdict == "unique"

    @property
    def reached(self) -> bool:
        if not self.unique or self.grade is None:
            return False
        return not self.target.wanted or self.target.direction(self.target.measure(self.grade)) == 0

    def _ink_rule(self) -> str:
        """Where the grid's ink share is not the one the likeness rule read (its empty
        margins trimmed), the rule's own share and limit: the report shows the rule."""
        from grader.authoring.likeness import INK_MAX

        if self.picture_ink is None or abs(100 * self.picture_ink - self.ink_share) < 0.5:
            return ""
        return (f"; {100 * self.picture_ink:.0f}% of the picture before its empty margins "
                f"were trimmed, at most {100 * INK_MAX:.0f}% reads as a figure")

    def report_lines(self) -> list[str]:
        lines = []
        if self.method:
            lines.append(f"picture: {self.method}")
        proof = {
            "unique": "unique (proved by the complete solver)",
            "multiple": "NOT unique: the budget ran out while cells still differ",
            "undecided": "NOT proved unique: the budget ran out (raise --seconds)",
            "none": "no solution (this should not happen for a picture)",
        }[self.verdict]
        lines.append(f"puzzle: {_shape(self.puzzle)}, {proof}")
        if self.likeness is not None:
            lines.append(f"likeness: {100 * self.likeness:.0f}% ({self.ink_share:.0f}% ink)"
                         + self._ink_rule())
        lines.append(f"flips: {len(self.flips)} ({self.flip_share:.1f}% of cells)"
                     + (f" at {_cells(self.flips)}" if self.flips else ""))
        plain = kind_of(self.puzzle).black_and_white()
        if plain is not None:  # only black and white prints given cells
            givens = [(r, c) for r, c, _ in plain.givens]
            lines.append(f"givens: {len(givens)}" + (f" at {_cells(givens)}" if givens else ""))
        grade = self.grade
        if grade is not None and (grade.score is None or grade.stars is None):
            lines.append(f"level: {grade.level}, no score: {grade.problem}")
        elif grade is not None and grade.score is not None and grade.stars is not None:
            lines.append(f"level: {grade.level}, score {grade.score:.2f}, "
                         f"{grade.stars} star{'s' if grade.stars > 1 else ''}")
        if self.target.wanted:
            if self.reached:
                lines.append(f"target: {self.target.describe()}, reached")
            else:
                nearest = "" if self.grade is None else f" (nearest found: {describe(self.grade)})"
                lines.append(f"target: {self.target.describe()}, out of reach for this picture "
                             f"at this size within the budget{nearest}")
                if self.note:
                    lines.append(f"note: {self.note}")
        lines.extend(f"warning: {warning}" for warning in self.warnings)
        lines.append(f"time: {self.time_s:.1f} s")
        return lines

    def to_json(self) -> dict[str, Any]:
        return {
            "size": self.puzzle.size,
            **kind_of(self.puzzle).summary(),  # colour: its palette
            "method": self.method,
            "verdict": self.verdict,
            "flips": [[r + 1, c + 1] for r, c in self.flips],
            "flip_percent": round(self.flip_share, 2),
            "givens": [[r + 1, c + 1, "#" if f else "."] for r, c, f in _givens(self.puzzle)],
            "level": None if self.grade is None else self.grade.level,
            "score": None if self.grade is None else self.grade.score,
            "stars": None if self.grade is None else self.grade.stars,
            "target": self.target.describe() if self.target.wanted else None,
            "reached": self.reached,
            "note": self.note,
            "time_s": round(self.time_s, 3),
            "ink_percent": round(self.ink_share, 1),
            **({"likeness": round(self.likeness, 3)} if self.likeness is not None else {}),
            **({"warnings": list(self.warnings)} if self.warnings else {}),
        }


#: a made black-and-white puzzle, and a made colour one
BwAuthored: TypeAlias = "Authored[Puzzle, Grade]"
ColourAuthored: TypeAlias = "Authored[ColourPuzzle, ColourGrade]"
AnyAuthored: TypeAlias = "BwAuthored | ColourAuthored"


def _shape(puzzle: Puzzle | ColourPuzzle) -> str:
    """``30x25``, or ``30x25, 3 colours``."""
    kind = kind_of(puzzle)
    return puzzle.size if kind.palette() is None else f"{puzzle.size}, {kind.colours()} colours"


def _givens(puzzle: Puzzle | ColourPuzzle) -> tuple[tuple[int, int, bool], ...]:
    return kind_of(puzzle).givens()


def _cells(cells: list[Cell] | tuple[Cell, ...]) -> str:
    """(row 6, column 3), 1-based as ``grade`` says it, the first few."""
    return cell_list(cells, shown=8)
