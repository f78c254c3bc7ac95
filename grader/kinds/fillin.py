"""The fill-in kind: a crossword grid filled with a word list, the list printed beside the
empty grid. Its engines stay in ``words/`` (the filler, the word lists, the solution counter
and the grader); this module is its identity and the way the house reaches them.

``words`` is imported inside the slots only: a house that never holds a fill-in never loads
its word lists' machinery.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from grader.kinds.contract import KindEntry

if TYPE_CHECKING:
    from grader.results import Budget
    from words.fillin import FillIn
    from words.fillin_grade import FillinGrade


@dataclass(frozen=True)
class FillinKind:
    """One fill-in through the core of the contract (it has no rows and columns of clues)."""

    puzzle: FillIn
    name: ClassVar[str] = "fill-in"
    tag: ClassVar[str] = "fillin"
    drawing: ClassVar[str] = "fillin"

    def summary(self) -> dict[str, Any]:
        return {"starter": self.puzzle.starter_word}

    def size_label(self) -> str:
        return self.puzzle.size

    def grade(self, max_rung: str | None, budget: Budget) -> FillinGrade:
        """The fill-in ladder's grade (``max_rung`` is the nonogram ladder's: not asked)."""
        from words.fillin_grade import grade_fillin

        return grade_fillin(self.puzzle, budget=budget)


ENTRY = KindEntry(
    tag=FillinKind.tag, name=FillinKind.name, model="words.fillin:FillIn",
    contract=FillinKind, formats=("text", "ipuz", "puz"),
    solver="words.fillin", grader="words.fillin_grade", ladder="words/fillin_scoring.yaml",
    drawing=FillinKind.drawing, board="fillin", editor=False,
    catalogue=None, minutes="", manifest_key="fillins", label="Fill-in ", lines=False,
    hints=False)
