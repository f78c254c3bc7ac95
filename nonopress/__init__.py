"""The Nonopress application: the ``nonopress`` command line, its commands and batch runs.

This layer sits above the libraries it drives: ``grader`` (model, formats, solver, grader,
authoring), ``layout`` (issues, print) and ``words`` (crossword fill, word lists). They never import
from it.
"""

from grader import __version__

__all__ = ["__version__"]
