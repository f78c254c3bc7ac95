"""The fill report an editor reads: the weakest entries of a fill by score and, for each,
other ways to fill its corner that keep the rest of the grid.

A *corner* of an entry is the entry and the entries crossing it: they are rubbed out, every
other letter of the grid stays, and the filler is asked again without the weak word (and
without each alternative already found). What comes back is a "rewrite this corner"
suggestion: the new words of the corner, each with its score.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from grader.results import Budget
from words.fill import FillResult, fill
from words.grid import EMPTY, Grid, Slot
from words.wordlist import WordList

#: Entries the report lists, weakest first.
WEAKEST = 5
#: Alternatives looked for per weak entry.
ALTERNATIVES = 3
#: Seconds each corner refill may take (a corner is a small search).
CORNER_SECONDS = 0.5


@dataclass(frozen=True)
class Rewrite:
    """One way to refill a corner: the slots whose word changes, with new word and score."""

    changes: tuple[tuple[Slot, str, float], ...]

    @property
    def lowest(self) -> float:
        return min((score for _, _, score in self.changes), default=0.0)

    def describe(self) -> str:
        return ", ".join(f"{slot.short} {word} ({score:.0f})"
                         for slot, word, score in self.changes)


@dataclass(frozen=True)
class WeakEntry:
    slot: Slot
    word: str
    score: float
    rewrites: tuple[Rewrite, ...]

    def lines(self) -> list[str]:
        head = f"{self.slot.short:>5} {self.word} (score {self.score:.0f})"
        if not self.rewrites:
            return [f"{head}: no other fill of its corner found"]
        return [f"{head}: instead"] + [f"        {r.describe()}" for r in self.rewrites]


def crossing_slots(grid: Grid, slot: Slot) -> list[Slot]:
    cells = set(slot.cells)
    return [s for s in grid.slots if s.index != slot.index and cells & set(s.cells)]


def corner_grid(filled: Grid, slot: Slot) -> Grid:
    """``filled`` with the entry and its crossings rubbed out."""
    blank = {cell: EMPTY for s in [slot, *crossing_slots(filled, slot)] for cell in s.cells}
    return filled.with_letters(blank)


def weakest_entries(result: FillResult, count: int = WEAKEST) -> list[tuple[Slot, str, float]]:
    """The ``count`` lowest-scoring entries of a fill (ties in slot order)."""
    slots = result.grid.slots
    ranked = sorted(zip(slots, result.entries, result.scores, strict=True),
                    key=lambda e: (e[2], e[0].index))
    return ranked[:count]


def rewrites(result: FillResult, words: WordList, slot: Slot,
             how_many: int = ALTERNATIVES, seconds: float = CORNER_SECONDS,
             seed: int = 0) -> list[Rewrite]:
    """Up to ``how_many`` refills of the slot's corner whose new words all score more than
    the slot's word (which is left out, as are the slot's words of earlier suggestions)."""
    filled = result.grid
    corner = corner_grid(filled, slot)
    current = dict(zip(filled.slots, result.entries, strict=True))
    avoid = {result.entries[slot.index]}
    # better words for the corner; the entries outside it stay (theme entries too)
    known = words.better_than(result.scores[slot.index]).with_words(result.entries)
    found: list[Rewrite] = []
    for _ in range(how_many):
        other = fill(corner, known.without(avoid), seed=seed, budget=Budget(seconds=seconds))
        if other.status != "filled":
            break
        changes = tuple((s, w, words.score(w)) for s, w in zip(
            corner.slots, other.entries, strict=True) if w != current[s])
        found.append(Rewrite(changes))
        avoid.add(other.entries[slot.index])
    return found


def fill_report(result: FillResult, words: WordList, count: int = WEAKEST,
                seconds: float = CORNER_SECONDS, deadline: float | None = None
                ) -> list[WeakEntry]:
    """The weakest entries of a fill, each with its corner's alternatives (none once
    ``deadline``, a ``time.perf_counter()`` value, has passed)."""
    report: list[WeakEntry] = []
    for slot, word, score in weakest_entries(result, count):
        found: list[Rewrite] = []
        if deadline is None or time.perf_counter() < deadline:
            found = rewrites(result, words, slot, seconds=seconds)
        report.append(WeakEntry(slot, word, score, tuple(found)))
    return report
