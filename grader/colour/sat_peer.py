"""An independent check for colour puzzles: SAT (python-sat with CaDiCaL), counting.

A test and benchmark dependency only, imported lazily (as :mod:`grader.solver.sat_peer`).
Encoding: one variable per cell and value (background or colour), exactly one true per
cell; per line and block j, one variable per possible start, exactly one true; block j
colours the cells it covers; block j+1 starts after block j ends, plus a gap when the
two have the same colour; a cell of colour v is covered by some block of colour v.
Rows and columns share the cell variables. Solutions are counted by blocking each one.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from grader.colour.model import ColourArray, ColourClue, ColourPuzzle
from grader.solver.sat_peer import _pysat


class _Encoder:
    def __init__(self, puzzle: ColourPuzzle):
        self.puzzle = puzzle
        self.values = puzzle.palette.size + 1
        self.clauses: list[list[int]] = []
        self.top = puzzle.height * puzzle.width * self.values

    def cell(self, row: int, column: int, value: int) -> int:
        return (row * self.puzzle.width + column) * self.values + value + 1

    def new_var(self) -> int:
        self.top += 1
        return self.top

    def exactly_one(self, literals: list[int]) -> None:
        card, enc_type = _pysat()[1]
        encoded = card.equals(lits=literals, bound=1, top_id=self.top,
                              encoding=enc_type.seqcounter)
        self.top = max(self.top, encoded.nv)
        self.clauses.extend(encoded.clauses)

    def line(self, clue: ColourClue, cells: list[tuple[int, int]]) -> None:
        n = len(cells)
        k = len(clue)
        gaps = [1 if clue[j][1] == clue[j + 1][1] else 0 for j in range(k - 1)]
        earliest, position = [], 0
        for j, (length, _) in enumerate(clue):
            earliest.append(position)
            position += length + (gaps[j] if j < k - 1 else 0)
        latest, position = [0] * k, n
        for j in range(k - 1, -1, -1):
            position -= clue[j][0]
            latest[j] = position
            if j > 0:
                position -= gaps[j - 1]
        starts: list[dict[int, int]] = []
        for j in range(k):
            variables = {p: self.new_var() for p in range(earliest[j], latest[j] + 1)}
            starts.append(variables)
            self.exactly_one(list(variables.values()))
        covering: list[dict[int, list[int]]] = [{} for _ in range(n)]
        for j, (length, colour) in enumerate(clue):
            for p, var in starts[j].items():
                for c in range(p, p + length):
                    self.clauses.append([-var, self.cell(*cells[c], colour)])
                    covering[c].setdefault(colour, []).append(var)
                if j + 1 < k:
                    later = [v for q, v in starts[j + 1].items() if q >= p + length + gaps[j]]
                    self.clauses.append([-var, *later])
        for c in range(n):
            for value in range(1, self.values):
                self.clauses.append([-self.cell(*cells[c], value),
                                     *covering[c].get(value, [])])

    def encode(self) -> list[list[int]]:
        p = self.puzzle
        for r in range(p.height):
            for c in range(p.width):
                self.exactly_one([self.cell(r, c, v) for v in range(self.values)])
        for r, clue in enumerate(p.rows):
            self.line(clue, [(r, c) for c in range(p.width)])
        for c, clue in enumerate(p.columns):
            self.line(clue, [(r, c) for r in range(p.height)])
        return self.clauses


def iter_colour_solutions(puzzle: ColourPuzzle, solver_name: str = "cadical153"
                          ) -> Iterator[ColourArray]:
    """Every solution of ``puzzle`` as colour indices, one at a time (no time limit)."""
    solver_class = _pysat()[0]
    encoder = _Encoder(puzzle)
    clauses = encoder.encode()
    h, w, values = puzzle.height, puzzle.width, encoder.values
    with solver_class(name=solver_name, bootstrap_with=clauses) as solver:
        while solver.solve():
            model = solver.get_model()
            truth = np.array([model[v] > 0 for v in range(h * w * values)], dtype=bool)
            picture = truth.reshape(h, w, values).argmax(axis=2).astype(np.uint8)
            yield picture
            solver.add_clause([-encoder.cell(r, c, int(picture[r, c]))
                               for r in range(h) for c in range(w)])


def count_colour_solutions(puzzle: ColourPuzzle, limit: int = 2
                           ) -> tuple[int, list[ColourArray]]:
    """(number of solutions found, capped at ``limit``; the solutions themselves)."""
    from grader.solver.sat_peer import first_solutions

    return first_solutions(iter_colour_solutions(puzzle), limit)
