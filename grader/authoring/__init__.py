"""Authoring: from a picture (or an ambiguous puzzle, or nothing) to a publishable puzzle.

* :func:`make` / :func:`author` -- a picture file / array to a unique puzzle, by pixel
  flips or printed givens, steered to a level or stars;
* :func:`repair` -- an ambiguous puzzle made unique, closest to its solution;
* :func:`generate` -- random puzzles at a level, for filler pages;
* :func:`preview_png` -- picture, result and changes side by side;
* :class:`Authored` -- what any of them made, of either kind (``make --colours`` too).
"""

from __future__ import annotations

from grader.authoring.generate import generate, random_picture
from grader.authoring.make import MakeOptions, author, make
from grader.authoring.picture import Binarised, binarise, otsu_threshold, picture_from_file
from grader.authoring.preview import preview_png
from grader.authoring.repair import repair
from grader.authoring.result import AnyAuthored, Authored, BwAuthored, ColourAuthored
from grader.authoring.target import LEVEL_RUNGS, Target

__all__ = [
    "LEVEL_RUNGS",
    "AnyAuthored",
    "Authored",
    "Binarised",
    "BwAuthored",
    "ColourAuthored",
    "MakeOptions",
    "Target",
    "author",
    "binarise",
    "generate",
    "make",
    "otsu_threshold",
    "picture_from_file",
    "preview_png",
    "random_picture",
    "repair",
]
