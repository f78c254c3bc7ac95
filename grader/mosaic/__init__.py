"""Mosaic (Fill-a-Pix): the engine of the fourth kind of puzzle.

Each clue counts the filled cells of the 3x3 block centred on it; solved, the filled cells
show a picture. The model is :mod:`grader.mosaic_model` (the Model layer); this package
reads and writes it, solves, grades and makes it, and knows no kind registry, layout or
colour. The kind's entry wraps these five calls::

    read(source, format=None, name=None) -> list[MosaicPuzzle]
    write(puzzles, format) -> bytes                   # yaml, json, tatham, picture, pbm, png
    check(puzzle, limit=2, budget=None) -> SolveResult
    grade(puzzle, budget=None, max_rung=None) -> MosaicGrade
    make(picture, level="hard", every_clue=False, seed=0) -> MadeMosaic

Imports are made on call, so that naming the kind loads no solver.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from grader.mosaic_model import MosaicPuzzle

if TYPE_CHECKING:
    from grader.model import BoolArray, CellArray, Metadata
    from grader.mosaic.grading import MosaicGrade, MosaicStep
    from grader.mosaic.making import MadeMosaic
    from grader.results import Budget, SolveResult

KIND = "mosaic"


def read(source: str | Path | bytes, *, format: str | None = None,
         name: str | None = None) -> list[MosaicPuzzle]:
    """Mosaics from a file or bytes; a FormatError names the file, line, row and column."""
    from grader.mosaic.formats import read as read_formats

    return read_formats(source, format=format, name=name)


def write(puzzles: MosaicPuzzle | Sequence[MosaicPuzzle], format: str) -> bytes:
    from grader.mosaic.formats import write as write_formats

    return write_formats(puzzles, format)


def check(puzzle: MosaicPuzzle, limit: int = 2, budget: Budget | None = None,
          start: CellArray | None = None) -> SolveResult:
    """unique / multiple (two solutions) / none / undecided, never a wrong verdict."""
    from grader.mosaic.solver import solve

    return solve(puzzle, limit, budget, start)


def grade(puzzle: MosaicPuzzle, budget: Budget | None = None,
          max_rung: str | None = None) -> MosaicGrade:
    """The step log, level, score and stars (minutes: not fitted)."""
    from grader.mosaic.grading import grade as grade_mosaic

    return grade_mosaic(puzzle, budget, max_rung)


def explain(step: MosaicStep, width: int) -> str:
    """The sentence of one logged step."""
    from grader.mosaic.sentences import explain as explain_step

    return explain_step(step, width)


def make(picture: BoolArray, level: str = "hard", *, stars: int | None = None,
         every_clue: bool = False, seed: int = 0, meta: Metadata | None = None,
         budget: Budget | None = None) -> MadeMosaic:
    """A unique mosaic whose solution is ``picture``, at ``level`` (or the level of
    ``stars`` on the one scale), with as few clues as that level allows."""
    from grader.mosaic.making import level_for_stars
    from grader.mosaic.making import make as make_mosaic

    if stars is not None:
        level = level_for_stars(stars)
    return make_mosaic(picture, level, every_clue=every_clue, seed=seed, meta=meta,
                       budget=budget)


def generate(width: int, height: int, level: str = "hard", seed: int = 0) -> MadeMosaic:
    """A random mosaic at ``level`` (the same seed, the same mosaic)."""
    from grader.mosaic.making import generate as generate_mosaic

    return generate_mosaic(width, height, level, seed)


__all__ = ["KIND", "MosaicPuzzle", "check", "explain", "generate", "grade", "make", "read",
           "write"]
