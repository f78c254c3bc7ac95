"""Fill-in puzzles: a blank grid, the list of its words grouped by length and one starter
word written in. The solver places every word once.

:func:`make_fillin` turns a filled grid into a puzzle (choosing a starter that makes it
unique and as easy to start as the grid allows), :func:`count_fillin_solutions` proves
uniqueness by a complete search over the puzzle's own word list, and
:func:`words.fillin_grade.grade_fillin` grades it with a ladder of human steps.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass
from typing import Literal

from grader.errors import NonopressError
from grader.results import Budget
from words.grid import Grid, Slot
from words.search import Limits, Search, Stop
from words.wordlist import WordList

FillinVerdict = Literal["unique", "multiple", "none", "undecided"]


@dataclass(frozen=True)
class FillIn:
    """A fill-in puzzle: the solution grid and which slot is given as the starter."""

    solution: Grid
    starter: int | None = None  # index into solution.slots
    title: str = ""

    def __post_init__(self) -> None:
        if not self.solution.is_complete:
            raise NonopressError("a fill-in is made from a completely filled grid")
        if self.starter is not None and not 0 <= self.starter < len(self.solution.slots):
            raise NonopressError(f"starter {self.starter} is not a slot of the grid")

    @property
    def slots(self) -> tuple[Slot, ...]:
        return self.solution.slots

    @property
    def entries(self) -> tuple[str, ...]:
        return tuple(self.solution.entry(s) for s in self.slots)

    @property
    def starter_slot(self) -> Slot | None:
        return None if self.starter is None else self.slots[self.starter]

    @property
    def starter_word(self) -> str:
        return "" if self.starter is None else self.entries[self.starter]

    def words_by_length(self) -> dict[int, list[str]]:
        """The printed list: every entry (repeats kept), by length, alphabetically."""
        groups: dict[int, list[str]] = {}
        for word in self.entries:
            groups.setdefault(len(word), []).append(word)
        return {n: sorted(groups[n]) for n in sorted(groups)}

    @property
    def givens(self) -> Grid:
        """What the solver sees: the blocks and the starter's letters."""
        blank = self.solution.blank()
        slot = self.starter_slot
        return blank if slot is None else blank.with_entry(slot, self.starter_word)

    @property
    def size(self) -> str:
        return self.solution.size


@dataclass(frozen=True)
class FillinCount:
    verdict: FillinVerdict
    solutions: tuple[Grid, ...] = ()
    nodes: int = 0
    time_s: float = 0.0

    def differing_cells(self) -> list[tuple[int, int]]:
        if len(self.solutions) < 2:
            return []
        a, b = self.solutions[:2]
        return [(r, c) for r in range(a.height) for c in range(a.width) if a.at(r, c) != b.at(r, c)]


def count_fillin_solutions(
    puzzle: FillIn, budget: Budget | None = None, limit: int = 2
) -> FillinCount:
    """Solutions of the puzzle (up to ``limit``) by a complete search: each slot takes a
    word of the list, each word as often as it is listed."""
    started = time.perf_counter()
    budget = budget or Budget(seconds=10.0)
    uses = Counter(puzzle.entries)
    words = WordList.from_scores((w, 50.0) for w in uses)
    fixed = {puzzle.starter: puzzle.starter_word} if puzzle.starter is not None else {}
    search = Search(puzzle.givens, words, fixed, uses)
    search.limits = Limits(
        deadline=None if budget.seconds is None else started + budget.seconds,
        max_nodes=budget.nodes,
    )
    found: list[Grid] = []

    def record(dom: list[int]) -> bool:
        grid = puzzle.givens
        for slot, word in zip(search.slots, search.words_of(dom), strict=True):
            grid = grid.with_entry(slot, word)
        if grid not in found:
            found.append(grid)
        return len(found) >= limit

    def result(verdict: FillinVerdict) -> FillinCount:
        return FillinCount(verdict, tuple(found), search.nodes, time.perf_counter() - started)

    root = search.root()
    if isinstance(root, int):
        return result("none")
    try:
        search.dfs(root[0], root[1], record)
    except Stop:
        return result("undecided" if not found else "multiple" if len(found) > 1 else "undecided")
    if not found:
        return result("none")
    return result("unique" if len(found) == 1 else "multiple")


def make_fillin(
    solution: Grid,
    starter: str | None = None,
    *,
    title: str = "",
    budget: Budget | None = None,
) -> FillIn:
    """A fill-in from a filled grid. ``starter`` names the given slot (``12A``) or word;
    ``"none"`` gives none; by default the slot that makes the puzzle unique and easiest
    to start is chosen (see :func:`choose_starter`)."""
    if solution.unchecked_cells:
        r, c = solution.unchecked_cells[0]
        raise NonopressError(
            f"the white cell at row {r + 1}, column {c + 1} is in no entry: make it a block")
    if not solution.is_complete:
        empty = sum(row.count(".") for row in solution.rows)
        raise NonopressError(
            f"the grid has {empty} empty cell(s): fill it first (nonopress fill)")
    if starter is not None and starter.strip().lower() == "none":
        return FillIn(solution, None, title)
    if starter is not None:
        return FillIn(solution, _starter_index(solution, starter), title)
    return FillIn(solution, choose_starter(solution, budget=budget), title)


def _starter_index(solution: Grid, name: str) -> int:
    try:
        return solution.find_slot(name).index
    except KeyError:
        pass
    word = name.strip().upper()
    matches = [s.index for s in solution.slots if solution.entry(s) == word]
    if not matches:
        raise NonopressError(f"starter {name!r} is neither a slot (like 12A) nor a word of "
                             "the grid")
    return matches[0]


#: How many starter candidates are graded in full when choosing one.
STARTER_CANDIDATES = 12


def choose_starter(solution: Grid, budget: Budget | None = None) -> int | None:
    """The starter slot: among the entries whose length is shared by the most words (where
    a solver has least to go on), the one whose puzzle is unique and grades easiest;
    longer entries first on ties. None for a grid with no slot."""
    from words.fillin_grade import grade_fillin

    slots = solution.slots
    if not slots:
        return None
    lengths = Counter(s.length for s in slots)
    order = sorted(slots, key=lambda s: (-lengths[s.length], -s.length, s.index))
    best: tuple[tuple[int, float], int] | None = None
    # The candidates share the budget: each gets an equal part of what is left.
    seconds = (budget or Budget(seconds=10.0)).seconds
    deadline = None if seconds is None else time.perf_counter() + seconds
    candidates = order[:STARTER_CANDIDATES]
    for k, slot in enumerate(candidates):
        part = None if deadline is None else \
            max(0.05, (deadline - time.perf_counter()) / (len(candidates) - k))
        grade = grade_fillin(FillIn(solution, slot.index), budget=Budget(seconds=part))
        if grade.verdict != "unique":
            continue
        key = (grade.rank, grade.score)
        if best is None or key < best[0]:
            best = (key, slot.index)
    if best is None:  # no candidate makes it unique: the most constraining one is shown
        return order[0].index
    return best[1]
