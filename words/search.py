"""The search core shared by the filler and the fill-in checker.

State: for every slot a *domain*, a Python int whose bit ``i`` stands for word ``i`` of the
slot's length (see :class:`words.wordlist.LengthTable`), and for every white cell a 26-bit
mask of the letters it may still take. Propagation keeps the two consistent (generalised
arc consistency at the letter level): a letter stays in a cell only while some word of each
slot through the cell has it there, and a word stays in a domain only while each of its
letters is allowed. A slot down to one word removes that word from every other slot of its
length (no entry is used twice, or more often than ``uses`` allows).

Search branches on the slot with the fewest words per failure weight (dom/wdeg: slots that
often ran dry are tried first), tries words best score first (with a seeded random pick
among the first few), and refutes a failed word before choosing again (two-way branching).
"""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from words.grid import LETTERS, Grid, Slot
from words.wordlist import LengthTable, WordList

ALL_LETTERS = (1 << 26) - 1
#: Domains this small are scanned word by word instead of letter by letter.
SMALL_DOMAIN = 16
#: How often (in nodes) the clock is read.
CLOCK_EVERY = 16


class Stop(Exception):
    """The search stops: ``why`` is "budget" (time or nodes) or "restart"."""

    def __init__(self, why: str):
        super().__init__(why)
        self.why = why


@dataclass
class Limits:
    deadline: float | None = None  # perf_counter() value
    max_nodes: int | None = None


@functools.cache
def _half(mask: int, offset: int) -> tuple[int, ...]:
    return tuple(c + offset for c in range(13) if mask >> c & 1)


def _letters(mask: int) -> tuple[int, ...]:
    """The letters (0 = A) of a 26-bit mask, from its two halves (each computed once, on
    first use: a table of all 8,192 halves took 40 ms of every start-up)."""
    return _half(mask & 0x1FFF, 0) + _half(mask >> 13, 13)


class Search:
    """One grid over one word list; :meth:`run` searches from the root as often as asked."""

    def __init__(
        self,
        grid: Grid,
        words: WordList,
        fixed: Mapping[int, str] | None = None,
        uses: Mapping[str, int] | None = None,
    ) -> None:
        self.grid = grid
        self.slots: tuple[Slot, ...] = grid.slots
        self.tables: list[LengthTable] = [words.table(s.length) for s in self.slots]
        self.index = [t.index for t in self.tables]
        self.head = [t.head for t in self.tables]
        width = grid.width
        self.cells: list[list[int]] = [[r * width + c for r, c in s.cells] for s in self.slots]
        owners: dict[int, list[tuple[int, int]]] = {}
        for k, cells in enumerate(self.cells):
            for p, cell in enumerate(cells):
                owners.setdefault(cell, []).append((k, p))
        #: crossing[s][p] = (t, q): slot t crosses slot s at s's position p, t's position q
        self.crossing: list[list[tuple[int, int] | None]] = []
        for k, cells in enumerate(self.cells):
            row: list[tuple[int, int] | None] = []
            for cell in cells:
                other = [(t, q) for t, q in owners[cell] if t != k]
                row.append(other[0] if other else None)
            self.crossing.append(row)
        self.same_length: list[list[int]] = [
            [t for t in range(len(self.slots)) if t != k and self.slots[t].length == s.length]
            for k, s in enumerate(self.slots)
        ]
        self.uses = dict(uses or {})
        self.fixed = dict(fixed or {})
        self.weight = [1.0] * len(self.slots)
        self.failures = [0] * len(self.slots)
        self.nodes = 0
        #: propagation work done: 64-bit words of the domains narrowed, times their length
        #: (what a propagation costs, unlike a node, whose cost grows with the lists)
        self.work = 0
        self.work_limit: int | None = None
        self.limits = Limits()
        self.node_limit: int | None = None
        self.rng: random.Random | None = None
        self.pick_width = 3

    # -- the root --------------------------------------------------------------------------
    def root(self, min_score: float | None = None) -> tuple[list[int], list[int]] | int:
        """The propagated root state (domains, cell masks), or the index of a slot that
        has no word at all. With ``min_score``, only words scoring at least that much
        (and locked ones) are allowed."""
        size = self.grid.width * self.grid.height
        mask = [ALL_LETTERS] * size
        for r, row in enumerate(self.grid.rows):
            for c, ch in enumerate(row):
                if ch in LETTERS:
                    mask[r * self.grid.width + c] = 1 << (ord(ch) - 65)
        dom: list[int] = []
        for k, table in enumerate(self.tables):
            domain = table.full
            if min_score is not None:
                domain = (1 << table.count_at_least(min_score)) - 1
            if k in self.fixed:
                position = table.position(self.fixed[k])
                domain = 0 if position is None else 1 << position
            for p, cell in enumerate(self.cells[k]):
                if mask[cell] != ALL_LETTERS:
                    domain &= self._union(k, p, mask[cell])
            if domain == 0:
                return k
            dom.append(domain)
        failed = self.propagate(dom, mask, list(range(len(self.slots))))
        if failed >= 0:
            return failed
        return dom, mask

    # -- propagation -----------------------------------------------------------------------
    def _union(self, s: int, p: int, letters: int) -> int:
        """Words of slot s's length with one of ``letters`` at position p, as a mask to AND."""
        row = self.index[s][p]
        chosen = _letters(letters)
        if len(chosen) <= 13:
            out = 0
            for c in chosen:
                out |= row[c]
            return out
        excluded = 0
        for c in _letters(ALL_LETTERS & ~letters):
            excluded |= row[c]
        return ~excluded

    def propagate(self, dom: list[int], mask: list[int], queue: list[int]) -> int:
        """Narrow ``dom`` and ``mask`` in place to a fixpoint; the slot that ran out of words,
        or -1."""
        queued = set(queue)
        while queue:
            s = queue.pop()
            queued.discard(s)
            domain = dom[s]
            cells = self.cells[s]
            self.work += len(cells) * ((domain.bit_length() >> 6) + 1)
            crossing = self.crossing[s]
            if domain & (domain - 1) == 0:  # one word left: an entry
                failed = self._entry(s, dom, queue, queued)
                if failed >= 0:
                    return failed
                word = self.tables[s].words[domain.bit_length() - 1]
                supports = [1 << (ord(ch) - 65) for ch in word]
            elif domain.bit_count() <= SMALL_DOMAIN:
                supports = [0] * len(cells)
                words = self.tables[s].words
                rest = domain
                while rest:
                    low = rest & -rest
                    rest ^= low
                    for p, code in enumerate(words[low.bit_length() - 1].encode("ascii")):
                        supports[p] |= 1 << (code - 65)
            else:
                supports = []
                index = self.index[s]
                head = self.head[s]
                for p, cell in enumerate(cells):
                    current = mask[cell]
                    if crossing[p] is None or current & (current - 1) == 0:
                        supports.append(current)
                        continue
                    row = index[p]
                    first = head[p]
                    found = 0
                    for c in _letters(current):
                        if domain & first[c] or domain & row[c]:
                            found |= 1 << c
                    supports.append(found)
            for p, cell in enumerate(cells):
                found = supports[p] & mask[cell]
                if found == mask[cell]:
                    continue
                mask[cell] = found
                cross = crossing[p]
                if cross is None:
                    continue
                t, q = cross
                before = dom[t]
                after = before & self._union(t, q, found)
                if after != before:
                    if after == 0:
                        return t
                    dom[t] = after
                    if t not in queued:
                        queued.add(t)
                        queue.append(t)
        return -1

    def _entry(self, s: int, dom: list[int], queue: list[int], queued: set[int]) -> int:
        """Slot s holds one word: take it out of the other slots of its length once it is
        used as often as allowed."""
        bit = dom[s]
        limit = 1
        if self.uses:
            word = self.tables[s].words[bit.bit_length() - 1]
            limit = self.uses.get(word, 1)
        others = self.same_length[s]
        if limit > 1:
            used = 1 + sum(1 for t in others if dom[t] == bit)
            if used > limit:
                return s
            if used < limit:
                return -1
        for t in others:
            before = dom[t]
            if before & bit and (limit == 1 or before != bit):
                after = before & ~bit
                if after == 0:
                    return t
                dom[t] = after
                if t not in queued:
                    queued.add(t)
                    queue.append(t)
        return -1

    # -- search ----------------------------------------------------------------------------
    def _choose(self, dom: list[int]) -> int:
        best, best_value = -1, 0.0
        weight = self.weight
        for k, domain in enumerate(dom):
            if domain & (domain - 1):
                value = domain.bit_count() / weight[k]
                if best < 0 or value < best_value:
                    best, best_value = k, value
        return best

    def _pick(self, domain: int) -> int:
        low = domain & -domain
        if self.rng is None:
            return low
        first = [low]
        rest = domain ^ low
        while rest and len(first) < self.pick_width:
            low = rest & -rest
            first.append(low)
            rest ^= low
        k = min(int(self.rng.expovariate(1.0)), len(first) - 1)
        return first[k]

    def _tick(self) -> None:
        self.nodes += 1
        if self.node_limit is not None and self.nodes >= self.node_limit:
            raise Stop("restart")
        if self.work_limit is not None and self.work >= self.work_limit:
            raise Stop("restart")
        limits = self.limits
        if limits.max_nodes is not None and self.nodes >= limits.max_nodes:
            raise Stop("budget")
        if (limits.deadline is not None and self.nodes % CLOCK_EVERY == 0
                and time.perf_counter() > limits.deadline):
            raise Stop("budget")

    def _fail(self, slot: int) -> None:
        self.weight[slot] += 1.0
        self.failures[slot] += 1

    def dfs(self, dom: list[int], mask: list[int],
            found: Callable[[list[int]], bool]) -> bool:
        """Depth-first search below a propagated state (which it may change); True when
        ``found`` asked to stop."""
        while True:
            s = self._choose(dom)
            if s < 0:
                return found(dom)
            self._tick()
            domain = dom[s]
            bit = self._pick(domain)
            child, child_mask = dom[:], mask[:]
            child[s] = bit
            failed = self.propagate(child, child_mask, [s])
            if failed < 0:
                if self.dfs(child, child_mask, found):
                    return True
            else:
                self._fail(failed)
            dom[s] = domain & ~bit
            if dom[s] == 0:
                self._fail(s)
                return False
            failed = self.propagate(dom, mask, [s])
            if failed >= 0:
                self._fail(failed)
                return False

    def words_of(self, dom: Sequence[int]) -> list[str]:
        return [self.tables[k].words[d.bit_length() - 1] for k, d in enumerate(dom)]


def luby(i: int) -> int:
    """The i-th term (from 1) of the Luby sequence 1 1 2 1 1 2 4 1 1 2 ..."""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while True:
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1
