"""The techniques of the ladder: one module per rung; each only finds deductions.

Which module serves which rung, in what order, is the ladder table (``grader/ladder.yaml``,
read by :mod:`grader.ladder`). Line rungs expose ``find(clue, cells) -> list[LineDeduction]``;
grid rungs expose ``find(puzzle, cells, context) -> list[Step]`` and may expose
``describe(puzzle, cells, step) -> Step`` to add what the chosen step's sentence needs.
Nothing is imported here, so that ``Step`` and the table load without the compiled solver.
"""

from grader.techniques.base import GridContext, LineDeduction, LineRef, Step

__all__ = ["GridContext", "LineDeduction", "LineRef", "Step"]
