"""An independent check: nonograms as SAT (python-sat with CaDiCaL), counting to a limit.

A test and benchmark dependency only, imported lazily. Encoding, per line and block j:
one variable per possible start position, exactly one of them true (sequential counter),
block j+1 starting after block j ends plus a gap, and each cell filled exactly when some
chosen block covers it. Rows and columns share the cell variables. Solutions are counted
by adding a clause that blocks each one found.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from typing import Any, TypeVar

import numpy as np

from grader.errors import NonopressError
from grader.model import BoolArray, Puzzle

T = TypeVar("T")


class SatUnavailable(NonopressError):
    """python-sat is not installed (it is an extra: pip install 'nonopress[test]')."""


def _pysat() -> tuple[Any, Any]:
    try:
        from pysat.card import CardEnc, EncType
        from pysat.solvers import Solver
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise SatUnavailable(
            "the SAT peer needs python-sat: pip install 'python-sat>=1.8.dev0'"
        ) from exc
    return Solver, (CardEnc, EncType)


class _Encoder:
    def __init__(self, puzzle: Puzzle):
        self.puzzle = puzzle
        self.clauses: list[list[int]] = []
        self.top = puzzle.height * puzzle.width  # cell variables are 1..h*w

    def cell(self, row: int, column: int) -> int:
        return row * self.puzzle.width + column + 1

    def new_var(self) -> int:
        self.top += 1
        return self.top

    def line(self, clue: Sequence[int], cells: list[int]) -> None:
        card, enc_type = _pysat()[1]
        n = len(cells)
        if not clue:
            self.clauses.extend([-v] for v in cells)
            return
        # earliest and latest start of each block
        earliest = []
        position = 0
        for length in clue:
            earliest.append(position)
            position += length + 1
        latest = []
        position = n
        for length in reversed(clue):
            position -= length
            latest.append(position)
            position -= 1
        latest.reverse()
        starts: list[dict[int, int]] = []
        for j in range(len(clue)):
            variables = {p: self.new_var() for p in range(earliest[j], latest[j] + 1)}
            starts.append(variables)
            exactly_one = card.equals(
                lits=list(variables.values()), bound=1, top_id=self.top,
                encoding=enc_type.seqcounter,
            )
            self.top = max(self.top, exactly_one.nv)
            self.clauses.extend(exactly_one.clauses)
        covering: list[list[int]] = [[] for _ in range(n)]
        for j, length in enumerate(clue):
            for p, var in starts[j].items():
                for c in range(p, p + length):
                    self.clauses.append([-var, cells[c]])
                    covering[c].append(var)
                if j + 1 < len(clue):
                    later = [v for q, v in starts[j + 1].items() if q >= p + length + 1]
                    self.clauses.append([-var, *later])
        for c in range(n):
            self.clauses.append([-cells[c], *covering[c]])

    def encode(self) -> list[list[int]]:
        p = self.puzzle
        for r, clue in enumerate(p.rows):
            self.line(clue, [self.cell(r, c) for c in range(p.width)])
        for c, clue in enumerate(p.columns):
            self.line(clue, [self.cell(r, c) for r in range(p.height)])
        for r, c, filled in p.givens:
            self.clauses.append([self.cell(r, c) if filled else -self.cell(r, c)])
        return self.clauses


def iter_solutions(puzzle: Puzzle, solver_name: str = "cadical153") -> Iterator[BoolArray]:
    """Every solution of ``puzzle``, one at a time.

    There is no time limit: python-sat's CaDiCaL bindings cannot be interrupted.
    """
    solver_class = _pysat()[0]
    clauses = _Encoder(puzzle).encode()
    cells = puzzle.height * puzzle.width
    with solver_class(name=solver_name, bootstrap_with=clauses) as solver:
        while solver.solve():
            model = solver.get_model()
            values = np.array([model[v] > 0 for v in range(cells)], dtype=bool)
            yield values.reshape(puzzle.height, puzzle.width)
            solver.add_clause([-(v + 1) if values[v] else v + 1 for v in range(cells)])


def count_solutions(puzzle: Puzzle, limit: int = 2) -> tuple[int, list[BoolArray]]:
    """(number of solutions found, capped at ``limit``; the solutions themselves)."""
    return first_solutions(iter_solutions(puzzle), limit)


def first_solutions(solutions: Iterator[T], limit: int) -> tuple[int, list[T]]:
    """The first ``limit`` of a SAT peer's solutions (either kind) and how many they are."""
    found = list(itertools.islice(solutions, limit))
    return len(found), found
