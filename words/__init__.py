"""Fill-in crosswords: grids, word lists, a filler, fill-in puzzles and their grading.

Beside ``grader`` (nonograms) and ``layout`` (printing), this package is the magazine's
word-puzzle side: :func:`fill` fills a grid from a scored word list, :func:`make_fillin`
turns a filled grid into a fill-in puzzle that :func:`grade_fillin` checks and grades.
"""

from __future__ import annotations

from words.fill import FillResult, fill
from words.grid import Grid, Slot, parse_grid
from words.wordlist import WordList, default_word_list, load_word_list, normalise

__all__ = [
    "FillResult",
    "Grid",
    "Slot",
    "WordList",
    "default_word_list",
    "fill",
    "load_word_list",
    "normalise",
    "parse_grid",
]
