"""Drive the compiled search (:mod:`words.fastsearch`) for :func:`words.fill.fill`: the grid
and word list as arrays, the root, seeded restarts, the time budget between chunks.

The kernels run a bounded number of nodes a call (:data:`CHUNK_NODES`) and keep their whole
state in arrays, so the clock is read between calls and a run resumes where it stopped.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from words.grid import LETTERS, Grid
from words.search import luby
from words.wordlist import LengthTable, WordList

if TYPE_CHECKING:
    from numpy.typing import NDArray

#: Nodes a kernel call runs before Python reads the clock.
CHUNK_NODES = 256
#: Largest state (all levels) the compiled search allocates; larger lists use words.search.
MAX_STATE_BYTES = 512 * 1024 * 1024
ALL_LETTERS = (1 << 26) - 1


@dataclass
class Tables:
    """A word list's lengths as arrays: letters of every word and the letter bit sets."""

    letters: NDArray[np.uint8]
    wstart: NDArray[np.int64]
    index: NDArray[np.uint64]
    ioff: NDArray[np.int64]
    lnw: NDArray[np.int64]
    lengths: tuple[int, ...]


def _length_arrays(table: LengthTable) -> tuple[NDArray[np.uint8], NDArray[np.uint64], int]:
    """(letters (n, length), bit sets (length * 26 * nw words), nw) of one length."""
    cached: tuple[NDArray[np.uint8], NDArray[np.uint64], int] | None = \
        table.__dict__.get("_compiled")
    if cached is not None:
        return cached
    n, length = len(table.words), table.length
    nw = max(1, (n + 63) // 64)
    if n:
        codes = np.frombuffer("".join(table.words).encode("ascii"), dtype=np.uint8)
        codes = (codes.reshape(n, length) - 65).astype(np.uint8)
    else:
        codes = np.zeros((0, length), dtype=np.uint8)
    index = np.zeros((length, 26, nw * 8), dtype=np.uint8)
    alphabet = np.arange(26, dtype=np.uint8)
    for p in range(length):
        onehot = codes[:, p][:, None] == alphabet[None, :]  # (n, 26)
        packed = np.packbits(onehot, axis=0, bitorder="little")  # (ceil(n/8), 26)
        index[p, :, : packed.shape[0]] = packed.T
    words64 = index.reshape(length * 26, nw * 8).view("<u8").astype(np.uint64).ravel()
    result = (codes, words64, nw)
    table.__dict__["_compiled"] = result
    return result


def build_tables(words: WordList, lengths: list[int]) -> Tables:
    distinct = tuple(sorted(set(lengths)))
    width = max(distinct)
    parts = [_length_arrays(words.table(n)) for n in distinct]
    total = sum(p[0].shape[0] for p in parts)
    letters = np.zeros((max(total, 1), width), dtype=np.uint8)
    wstart = np.zeros(len(distinct), dtype=np.int64)
    ioff = np.zeros(len(distinct), dtype=np.int64)
    lnw = np.zeros(len(distinct), dtype=np.int64)
    at = off = 0
    for j, (codes, bits, nw) in enumerate(parts):
        wstart[j], ioff[j], lnw[j] = at, off, nw
        letters[at: at + codes.shape[0], : codes.shape[1]] = codes
        at += codes.shape[0]
        off += bits.shape[0]
    index = np.concatenate([p[1] for p in parts]) if parts else np.zeros(1, np.uint64)
    return Tables(letters, wstart, index, ioff, lnw, distinct)


class CompiledSearch:
    """One grid over one list: arrays, the root state (level 0) and resumable runs."""

    def __init__(self, grid: Grid, words: WordList, fixed: Mapping[int, str]) -> None:
        from words import fastsearch

        self.k = fastsearch
        self.grid = grid
        self.slots = grid.slots
        self.words = words
        self.fixed = dict(fixed)
        slots = self.slots
        lengths = [s.length for s in slots]
        self.t = build_tables(words, lengths)
        sid_of = {n: j for j, n in enumerate(self.t.lengths)}
        nslots, width = len(slots), max(lengths)
        self.slen = np.array(lengths, dtype=np.int64)
        self.sid = np.array([sid_of[n] for n in lengths], dtype=np.int64)
        self.dnw = np.array([self.t.lnw[j] for j in self.sid], dtype=np.int64)
        self.doff = np.concatenate([[0], np.cumsum(self.dnw)[:-1]]).astype(np.int64)
        self.cells = np.full((nslots, width), -1, dtype=np.int64)
        self.xs = np.full((nslots, width), -1, dtype=np.int64)
        self.xq = np.full((nslots, width), -1, dtype=np.int64)
        owners: dict[int, list[tuple[int, int]]] = {}
        for k, slot in enumerate(slots):
            for p, (r, c) in enumerate(slot.cells):
                cell = r * grid.width + c
                self.cells[k, p] = cell
                owners.setdefault(cell, []).append((k, p))
        for k, slot in enumerate(slots):
            for p in range(slot.length):
                other = [(t, q) for t, q in owners[int(self.cells[k, p])] if t != k]
                if other:
                    self.xs[k, p], self.xq[k, p] = other[0]
        levels = nslots + 2
        row = int(self.dnw.sum())
        self.dom = np.zeros((levels, row), dtype=np.uint64)
        self.mask = np.zeros((levels, grid.width * grid.height), dtype=np.int64)
        self.entered = np.zeros((levels, nslots), dtype=np.uint8)
        nlw = (levels + 63) // 64
        self.expl = np.zeros((levels, nslots, nlw), dtype=np.uint64)
        self.conflict = np.zeros(nlw, dtype=np.uint64)
        self.chosen = np.zeros(levels, dtype=np.int64)
        self.value = np.zeros(levels, dtype=np.int64)
        self.queue = np.zeros(nslots, dtype=np.int64)
        self.inq = np.zeros(nslots, dtype=np.uint8)
        self.support = np.zeros(width, dtype=np.int64)
        self.tally = np.zeros((width, 26), dtype=np.float64)
        # a list whose scores say nothing (all equal: wamerican) has no better words to
        # prefer: the value choice looks at every word the slot has left
        tables = [words.table(n) for n in self.t.lengths]
        unscored = all(not t.scores or t.scores[0] == t.scores[-1] for t in tables) and \
            len({t.scores[0] for t in tables if t.scores}) <= 1
        self.lookahead = np.int64(1 << 40 if unscored else self.k.LOOKAHEAD)
        self.weight = np.ones(nslots, dtype=np.float64)
        self.fails = np.zeros(nslots, dtype=np.int64)
        # progress saving (words.fastsearch.pick) with a scored list only: on the 14 hardest
        # grids (seeds 0 and 1, 150,000 / 100,000 nodes) it filled 22 of 28 with the default
        # list where the plain search filled 19; with wamerican, whose value choice weighs
        # every word, it filled one fewer (bench/results/fill-saving-2026-11-27.md)
        self.saved = np.full(0 if unscored else nslots, -1, dtype=np.int64)
        self.box = np.array([0, 0, -1], dtype=np.int64)
        self.runs = 0

    @staticmethod
    def state_bytes(grid: Grid, words: WordList) -> int:
        """Memory the state of all levels takes (checked before allocating)."""
        row = sum(max(1, (len(words.table(s.length).words) + 63) // 64) for s in grid.slots)
        return (len(grid.slots) + 2) * row * 8

    @property
    def nodes(self) -> int:
        return int(self.box[1])

    def _statics(self) -> tuple[Any, ...]:
        t = self
        return (t.slen, t.sid, t.cells, t.xs, t.xq, t.t.letters, t.t.wstart, t.t.index,
                t.t.ioff, t.doff, t.dnw, t.support)

    def root(self, min_score: float | None = None) -> int:
        """Set up level 0 (words scoring at least ``min_score`` when given; locked slots
        their word); the slot that has no word, or -1."""
        dom = self.dom
        dom[0, :] = 0
        for k, slot in enumerate(self.slots):
            table = self.words.table(slot.length)
            n = len(table.words)
            if min_score is not None:
                n = table.count_at_least(min_score)
            o = int(self.doff[k])
            if k in self.fixed:
                position = table.position(self.fixed[k])
                if position is None:
                    return k
                dom[0, o + position // 64] = np.uint64(1 << (position % 64))
                continue
            full, rest = divmod(n, 64)
            dom[0, o: o + full] = np.uint64(0xFFFFFFFFFFFFFFFF)
            if rest:
                dom[0, o + full] = np.uint64((1 << rest) - 1)
        width = self.grid.width
        self.mask[0, :] = ALL_LETTERS
        for r, row in enumerate(self.grid.rows):
            for c, ch in enumerate(row):
                if ch in LETTERS:
                    self.mask[0, r * width + c] = 1 << (ord(ch) - 65)
        self.entered[0, :] = 0
        self.inq[:] = 0
        self.expl[0] = 0
        failed = self.k.root(dom, self.mask, self.entered, self.expl, self.queue, self.inq,
                             *self._statics())
        return int(failed)

    def search(self, seed: int, restarts: bool, deadline: float | None,
               max_nodes: int | None, cap: int | None, restart_nodes: int) -> str:
        """Runs from level 0 (Luby node limits) until "filled", "none" (complete),
        "capped" (``cap`` nodes) or "budget"."""
        run = 0
        while True:
            run += 1
            self.runs = run - 1
            # level 0 keeps what earlier runs refuted there: proved, whatever the seed
            self.box[0] = 0
            self.box[2] = -1
            self.k.seed_rng(seed * 1_000_003 + run)
            limit = self.nodes + (len(self.slots) + restart_nodes) * luby(run) \
                if restarts else None
            if cap is not None:
                limit = cap if limit is None else min(limit, cap)
            while True:
                chunk = self.nodes + CHUNK_NODES
                for bound in (limit, max_nodes):
                    if bound is not None:
                        chunk = min(chunk, bound)
                status = self.k.run(self.dom, self.mask, self.entered, self.expl, self.box,
                                    self.chosen,
                                    self.value, chunk, run > 1 or seed != 0, self.queue, self.inq,
                                    *self._statics(), self.weight, self.fails, self.conflict,
                                    self.tally, self.lookahead, self.saved)
                if status == self.k.FOUND:
                    return "filled"
                if status == self.k.EXHAUSTED:
                    return "none"
                if max_nodes is not None and self.nodes >= max_nodes:
                    return "budget"
                if deadline is not None and time.perf_counter() > deadline:
                    return "budget"
                if cap is not None and self.nodes >= cap:
                    return "capped"
                if limit is not None and self.nodes >= limit:
                    break  # restart

    def solution(self) -> list[str]:
        level = int(self.box[0])
        out: list[str] = []
        for k, slot in enumerate(self.slots):
            o, nw = int(self.doff[k]), int(self.dnw[k])
            row = self.dom[level, o: o + nw]
            w = int(np.flatnonzero(row)[0])
            bit = int(row[w])
            local = w * 64 + (bit & -bit).bit_length() - 1
            out.append(self.words.table(slot.length).words[local])
        return out


_warm = False


def warm_up() -> None:
    """Load the kernels (from numba's cache, or compile them on a fresh install) on a
    two-by-two grid, once a process: a fill's budget is for searching, and a first
    compile is seconds that no grid asked for."""
    global _warm
    if _warm:
        return
    from words.grid import parse_grid

    words = WordList({"AB": 50.0, "BA": 40.0, "AA": 30.0}, "warm-up")
    search = CompiledSearch(parse_grid("..\n..\n"), words, {})
    if search.root() < 0:
        search.search(1, True, None, 64, None, 8)
    _warm = True

