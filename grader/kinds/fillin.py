"""The fill-in kind: a crossword grid filled with a word list, the list printed beside the
empty grid. Its engines stay in ``words/`` (the filler, the word lists, the solution counter
and the grader); this module is its identity and the way the house reaches them.

``words`` is imported inside the slots only: a house that never holds a fill-in never loads
its word lists' machinery.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from grader.i18n import NP_
from grader.kinds.contract import BoardRecord, KindEntry

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

    def board_record(self) -> BoardRecord:
        """Blocks, the starter's letters and the word list by length; the letters are the
        answer."""
        import hashlib

        puzzle = self.puzzle
        grid, givens = puzzle.solution, puzzle.givens
        cells = [(r, c) for r in range(grid.height) for c in range(grid.width)]
        key = hashlib.sha256(grid.to_text().encode()).hexdigest()[:24]
        blocks = "".join("0" if grid.is_white(r, c) else "1" for r, c in cells)
        given = "".join(givens.at(r, c) if grid.is_white(r, c) and givens.at(r, c).isalpha()
                        else "." for r, c in cells)
        letters = "".join(grid.at(r, c) if grid.is_white(r, c) else "." for r, c in cells)
        return BoardRecord(key, grid.width, grid.height, {
            "blocks": blocks, "given": given.upper(),
            "words": {str(n): [w.upper() for w in words]
                      for n, words in puzzle.words_by_length().items()},
            "starter": puzzle.starter_word.upper()}, letters.upper())


ENTRY = KindEntry(
    tag=FillinKind.tag, name=FillinKind.name, model="words.fillin:FillIn",
    contract=FillinKind, formats=("text", "ipuz", "puz"),
    solver="words.fillin", grader="words.fillin_grade", ladder="words/fillin_scoring.yaml",
    drawing=FillinKind.drawing, board="fillin", editor=False,
    catalogue=None, minutes="", manifest_key="fillins", label=NP_("kind", "Fill-in") + " ",
    lines=False,
    hints=False)
