"""Colour nonograms: palette and model, line solve, complete solver, grading.

Blocks of different colours need no gap between them. Black and white is the one-colour
case and keeps its own, faster code in the rest of :mod:`grader`; both kinds are read and
written by the one module of each format (:mod:`grader.formats`) and reached through one
contract (:mod:`grader.kinds`). Public API::

    Palette, Colour, ColourPuzzle            # grader.colour.palette / grader.colour.model
    read_any(source) -> list[Puzzle | ColourPuzzle]        # grader.formats
    solve_colour(puzzle, limit, budget) -> SolveResult   # grader.colour.solver
"""

from grader.colour.model import AnyPuzzle, ColourClue, ColourPuzzle, clue_of_line
from grader.colour.palette import Colour, Palette

__all__ = ["AnyPuzzle", "Colour", "ColourClue", "ColourPuzzle", "Palette", "clue_of_line"]
