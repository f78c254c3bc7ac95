"""An independent check for mosaics: SAT (python-sat with CaDiCaL), counting solutions.

A test and benchmark dependency only, imported lazily (as :mod:`grader.solver.sat_peer`).
Encoding: one variable per cell; each clue "exactly k of its block's cells" as a
cardinality constraint (sequential counter). Solutions are counted by blocking each one.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from grader.model import BoolArray
from grader.mosaic_model import MosaicPuzzle
from grader.solver.sat_peer import _pysat, first_solutions


def encode(puzzle: MosaicPuzzle) -> list[list[int]]:
    """The clauses: cell (r, c) is variable r * width + c + 1."""
    card, enc_type = _pysat()[1]
    width, height = puzzle.width, puzzle.height
    top = width * height
    clauses: list[list[int]] = []
    for r, c, clue in puzzle.clue_cells():
        lits = [rr * width + cc + 1 for rr in range(max(r - 1, 0), min(r + 2, height))
                for cc in range(max(c - 1, 0), min(c + 2, width))]
        if clue == 0:
            clauses.extend([-v] for v in lits)
        elif clue == len(lits):
            clauses.extend([v] for v in lits)
        else:
            encoded = card.equals(lits=lits, bound=clue, top_id=top,
                                  encoding=enc_type.seqcounter)
            top = max(top, encoded.nv)
            clauses.extend(encoded.clauses)
    return clauses


def iter_solutions(puzzle: MosaicPuzzle, solver_name: str = "cadical153"
                   ) -> Iterator[BoolArray]:
    """Every solution of ``puzzle``, one at a time (no time limit: CaDiCaL's bindings
    cannot be interrupted)."""
    solver_class = _pysat()[0]
    cells = puzzle.height * puzzle.width
    with solver_class(name=solver_name, bootstrap_with=encode(puzzle)) as solver:
        while solver.solve():
            model = solver.get_model() or []
            values = np.zeros(cells, dtype=bool)
            for literal in model:
                if 0 < literal <= cells:
                    values[literal - 1] = True
            yield values.reshape(puzzle.height, puzzle.width)
            solver.add_clause([-(v + 1) if values[v] else v + 1 for v in range(cells)])


def count_solutions(puzzle: MosaicPuzzle, limit: int = 2) -> tuple[int, list[BoolArray]]:
    """(number of solutions found, capped at ``limit``; the solutions themselves)."""
    return first_solutions(iter_solutions(puzzle), limit)


__all__ = ["count_solutions", "encode", "iter_solutions"]
