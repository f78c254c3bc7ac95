# mypy: allow-untyped-defs
"""The filler's search, compiled: bit-set domains in numpy words, propagation and
two-way branching with conflict-directed backjumping in numba kernels.

The same search as :mod:`words.search` (letter-level arc consistency, no word twice,
dom/wdeg slot choice, seeded restarts) with three changes: the inner loops run compiled
(the Python version spent 95 % of its time in ``propagate`` on big-integer ANDs, about
1,500 nodes a second; this one about 10,000); the word tried first in a slot is, among its
:data:`LOOKAHEAD` best-scored words (every word, in a list without scores), the one that
leaves its crossings the most words (the product of their counts, read from a tally of the
crossings' letters made once a node; a word leaving a crossing none is struck at once), unless
the word the slot held last (``saved``: progress saving, a scored list only) still fits; and a
failure jumps back to the latest decision it follows from (``expl``: per slot, the
decision levels its removals follow from), not to the previous level.

State, one row per search level (a child copies its parent's row, so backtracking is
free): ``dom`` (uint64 words: slot ``k``'s domain is ``dom[lv, doff[k]:doff[k] + dnw[k]]``,
bit ``i`` = word ``i`` of the slot's length, best score first), ``mask`` (the letters each
cell may still take, 26 bits) and ``entered`` (1 once a slot's single word was struck from
the other slots of its length). Static arrays, one name for one thing in every kernel:

* ``slen[k]`` length of slot k, ``sid[k]`` its length id, ``cells[k, p]`` cell of position p,
  ``xs[k, p]`` / ``xq[k, p]`` the crossing slot and its position (-1: none);
* ``letters[g, p]`` letter (0 = A) of global word g, ``wstart[j]`` first global word of
  length id j; ``index[ioff[j] + (p * 26 + c) * lnw[j] + w]`` word w of the bit set of
  length-id-j words with letter c at position p;
* ``weight[k]`` / ``fails[k]`` the dom/wdeg failure weights and counts;
* ``expl[lv, k]`` bit set of the decision levels the removals from slot k's domain (at
  level lv) follow from; ``conflict`` the same for the failure being handled;
* ``box`` the resumable run: ``box[LEVEL]``, ``box[NODES]``; ``chosen[lv]`` and
  ``value[lv]`` the slot and word tried at each level.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from grader.jit_cache import configure_numba_cache

# Before any kernel below is compiled or loaded: numba caches in the user's cache folder,
# never inside the installed package (with the build's seed of this folder's kernels).
configure_numba_cache(os.path.dirname(__file__))

from numba import njit  # noqa: E402

ONE = np.uint64(1)
ZERO = np.uint64(0)
ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)
_S1, _S2, _S4, _S56 = np.uint64(1), np.uint64(2), np.uint64(4), np.uint64(56)

#: candidate words (best scored first) the value choice looks ahead on in a scored list:
#: 32 filled more of the hard American-style grids than 8 and as many as 128 (an unscored
#: list looks at every word: words/compiled_fill.py)
LOOKAHEAD = 32
#: a domain of at most this many words per bit-set word (64 bits) is scanned word by word
#: (its letters read) rather than letter by letter (26 bit-set ANDs a position)
SMALL = 8
LEVEL, NODES = 0, 1
FOUND, EXHAUSTED, PAUSED = 0, 1, 2

OPTS: dict[str, Any] = {"cache": True, "nogil": True}


@njit(inline="always", **OPTS)
def popcount(x):
    x = x - ((x >> _S1) & _M1)
    x = (x & _M2) + ((x >> _S2) & _M2)
    x = (x + (x >> _S4)) & _M4
    return np.int64((x * _H01) >> _S56)


@njit(inline="always", **OPTS)
def lowest(x):
    """Index of the lowest set bit of a non-zero word."""
    return popcount((x & (~x + ONE)) - ONE)


@njit(**OPTS)
def count(dom, lv, off, nw):
    total = 0
    for w in range(nw):
        x = dom[lv, off + w]
        if x:
            total += popcount(x)
    return total


@njit(**OPTS)
def first_word(dom, lv, off, nw):
    for w in range(nw):
        x = dom[lv, off + w]
        if x:
            return w * 64 + lowest(x)
    return -1


@njit(**OPTS)
def strike_letter(dom, lv, t, q, c, doff, dnw, sid, index, ioff):
    """Remove from slot t the words with letter c at position q."""
    nw = dnw[t]
    o = doff[t]
    base = ioff[sid[t]] + (q * 26 + c) * nw
    for w in range(nw):
        dom[lv, o + w] &= ~index[base + w]


@njit(**OPTS)
def keep_letters(dom, lv, t, q, keep, doff, dnw, sid, index, ioff):
    """Keep in slot t only the words with one of the letters ``keep`` at position q: one
    pass a kept letter (after an entry a crossing cell keeps one letter of 26, where
    striking the others took 25 passes)."""
    nw = dnw[t]
    o = doff[t]
    base = ioff[sid[t]] + q * 26 * nw
    for w in range(nw):
        x = dom[lv, o + w]
        if not x:
            continue
        acc = ZERO
        rest = np.uint64(keep)
        while rest:
            c = lowest(rest)
            rest &= rest - ONE
            acc |= index[base + c * nw + w]
        dom[lv, o + w] = x & acc


@njit(**OPTS)
def has_letter(dom, lv, s, p, c, doff, dnw, sid, index, ioff):
    nw = dnw[s]
    o = doff[s]
    base = ioff[sid[s]] + (p * 26 + c) * nw
    for w in range(nw):  # noqa: SIM110 - a compiled loop, not a generator
        if dom[lv, o + w] & index[base + w]:
            return True
    return False


@njit(**OPTS)
def propagate(dom, mask, entered, expl, lv, queue, qlen, inq, slen, sid, cells, xs, xq,
              letters, wstart, index, ioff, doff, dnw, support):
    """Narrow level lv to a fixpoint from the slots queue[:qlen]; the slot that ran out of
    words, or -1."""
    nslots = slen.shape[0]
    head = 0
    while qlen > 0:
        s = queue[head]
        head = (head + 1) % nslots
        qlen -= 1
        inq[s] = 0
        o = doff[s]
        nw = dnw[s]
        n = count(dom, lv, o, nw)
        if n == 0:
            return s
        length = slen[s]
        j = sid[s]
        if n == 1 and entered[lv, s] == 0:  # an entry: no other slot may use its word
            entered[lv, s] = 1
            word = first_word(dom, lv, o, nw)
            w, bit = word // 64, ONE << np.uint64(word % 64)
            for t in range(nslots):
                if t == s or sid[t] != j or not dom[lv, doff[t] + w] & bit:
                    continue
                dom[lv, doff[t] + w] &= ~bit
                expl[lv, t, :] |= expl[lv, s, :]
                if count(dom, lv, doff[t], dnw[t]) == 0:
                    return t
                if inq[t] == 0:
                    inq[t] = 1
                    queue[(head + qlen) % nslots] = t
                    qlen += 1
        small = n <= SMALL * nw
        if small:  # a few words: read their letters
            for p in range(length):
                support[p] = 0
            for w in range(nw):
                x = dom[lv, o + w]
                while x:
                    low = x & (~x + ONE)
                    g = wstart[j] + w * 64 + popcount(low - ONE)
                    x ^= low
                    for p in range(length):
                        support[p] |= 1 << letters[g, p]
        for p in range(length):
            t = xs[s, p]
            if t < 0:
                continue
            cell = cells[s, p]
            current = mask[lv, cell]
            if current & (current - 1) == 0:
                continue  # one letter: every word left has it (it was struck so)
            if small:
                found = current & support[p]
            else:
                found = 0
                for c in range(26):
                    if current >> c & 1 and has_letter(dom, lv, s, p, c, doff, dnw, sid,
                                                       index, ioff):
                        found |= 1 << c
            if found == current:
                continue
            if found == 0:
                return s  # (cannot happen: the words left have letters the cell allows)
            mask[lv, cell] = found
            removed = current & ~found
            q = xq[s, p]
            if popcount(np.uint64(found)) < popcount(np.uint64(removed)):
                keep_letters(dom, lv, t, q, found, doff, dnw, sid, index, ioff)
            else:
                for c in range(26):
                    if removed >> c & 1:
                        strike_letter(dom, lv, t, q, c, doff, dnw, sid, index, ioff)
            expl[lv, t, :] |= expl[lv, s, :]
            if count(dom, lv, doff[t], dnw[t]) == 0:
                return t
            if inq[t] == 0:
                inq[t] = 1
                queue[(head + qlen) % nslots] = t
                qlen += 1
    return -1


@njit(**OPTS)
def choose(dom, lv, doff, dnw, weight):
    """The open slot with the fewest words per failure weight, or -1 when all are set."""
    best = -1
    best_value = 0.0
    for k in range(doff.shape[0]):
        n = count(dom, lv, doff[k], dnw[k])
        if n > 1:
            value = n / weight[k]
            if best < 0 or value < best_value:
                best = k
                best_value = value
    return best


@njit(**OPTS)
def pick(dom, mask, entered, expl, lv, s, slen, sid, cells, xs, xq, letters, wstart, index,
         ioff, doff, dnw, tally, lookahead, randomize, saved):
    """Among the slot's first ``lookahead`` words, the one leaving its open crossings the
    most words (the product of their counts, largest first, with noise when
    ``randomize``; score order breaks ties). The counts come from ``tally[p, c]``: how
    many words of the crossing at position p have letter c there, counted once a node,
    so every candidate costs one read a letter. Words that leave a crossing none are
    struck from the slot here. -1: none left."""
    o = doff[s]
    nw = dnw[s]
    j = sid[s]
    length = slen[s]
    for p in range(length):
        t = xs[s, p]
        for c in range(26):
            tally[p, c] = 0.0
        if t < 0 or entered[lv, t]:
            continue
        q = xq[s, p]
        allowed = mask[lv, cells[s, p]]
        for c in range(26):
            if not allowed >> c & 1:
                tally[p, c] = -1.0
                continue
            base = ioff[sid[t]] + (q * 26 + c) * dnw[t]
            left = 0
            for u in range(dnw[t]):
                y = dom[lv, doff[t] + u] & index[base + u]
                if y:
                    left += popcount(y)
            tally[p, c] = np.log(left + 1.0) if left else -1.0
    # progress saving (``saved`` not empty): the word this slot last held, when it is still
    # open and leaves every crossing a word, comes first, so a corner filled in an earlier
    # run keeps its fill while the search works on the corner that failed
    keep = saved[s] if saved.shape[0] else -1
    if keep >= 0:
        w = keep // 64
        bit = ONE << np.uint64(keep % 64)
        if dom[lv, o + w] & bit:
            g = wstart[j] + keep
            dead = False
            for p in range(length):
                if tally[p, letters[g, p]] < 0.0:
                    dead = True
                    break
            if not dead:
                return keep
    best = -1
    best_key = -1e300
    seen = 0
    for w in range(nw):
        x = dom[lv, o + w]
        while x and seen < lookahead:
            low = x & (~x + ONE)
            x ^= low
            local = w * 64 + popcount(low - ONE)
            g = wstart[j] + local
            product = 0.0
            dead = False
            for p in range(length):
                v = tally[p, letters[g, p]]
                if v < 0.0:
                    dead = True
                    break
                product += v
            if dead:
                dom[lv, o + w] &= ~low  # dead: a crossing would have no word
                for p in range(length):
                    if xs[s, p] >= 0:
                        expl[lv, s, :] |= expl[lv, xs[s, p], :]
                continue
            seen += 1
            key = product
            if randomize:
                key += np.log(0.5 + np.random.random())
            if key > best_key:
                best_key = key
                best = local
        if seen >= lookahead:
            break
    return best


@njit(**OPTS)
def seed_rng(seed):
    np.random.seed(seed)


@njit(**OPTS)
def run(dom, mask, entered, expl, box, chosen, value, node_cap, randomize, queue, inq, slen,
        sid, cells, xs, xq, letters, wstart, index, ioff, doff, dnw, support, weight, fails,
        conflict, tally, lookahead, saved):
    """Search on from ``box[LEVEL]`` until a fill (FOUND, at box[LEVEL]), a complete
    refutation (EXHAUSTED) or ``box[NODES]`` reaching node_cap (PAUSED: call again)."""
    lv = box[LEVEL]
    while True:
        s = choose(dom, lv, doff, dnw, weight)
        if s < 0:
            box[LEVEL] = lv
            return FOUND
        if box[NODES] >= node_cap:
            box[LEVEL] = lv
            return PAUSED
        box[NODES] += 1
        v = pick(dom, mask, entered, expl, lv, s, slen, sid, cells, xs, xq, letters, wstart,
                 index, ioff, doff, dnw, tally, lookahead, randomize, saved)
        failed = -1
        if v < 0:  # every word of the slot was dead: explained by its crossings
            failed = s
            conflict[:] = expl[lv, s, :]
        else:
            dom[lv + 1, :] = dom[lv, :]
            mask[lv + 1, :] = mask[lv, :]
            entered[lv + 1, :] = entered[lv, :]
            expl[lv + 1, :, :] = expl[lv, :, :]
            expl[lv + 1, s, lv // 64] |= ONE << np.uint64(lv % 64)  # decision lv
            o = doff[s]
            for w in range(dnw[s]):
                dom[lv + 1, o + w] = ZERO
            dom[lv + 1, o + v // 64] = ONE << np.uint64(v % 64)
            queue[0] = s
            inq[:] = 0
            inq[s] = 1
            failed = propagate(dom, mask, entered, expl, lv + 1, queue, 1, inq, slen, sid,
                               cells, xs, xq, letters, wstart, index, ioff, doff, dnw, support)
            if failed < 0:
                chosen[lv] = s
                value[lv] = v
                if saved.shape[0]:
                    saved[s] = v
                lv += 1
                continue
            conflict[:] = expl[lv + 1, failed, :]
        weight[failed] += 1.0
        fails[failed] += 1
        # Conflict-directed backjumping: ``conflict`` holds the decisions (by level) the
        # failure follows from. The decision of this level is refuted only when it is one
        # of them; otherwise, and when the refutation fails too, the search jumps back to
        # the latest decision in the conflict, past levels that played no part.
        while True:
            word, bit = lv // 64, ONE << np.uint64(lv % 64)
            if v >= 0 and conflict[word] & bit:
                conflict[word] &= ~bit
                dom[lv, doff[s] + v // 64] &= ~(ONE << np.uint64(v % 64))
                expl[lv, s, :] |= conflict
                queue[0] = s
                inq[:] = 0
                inq[s] = 1
                failed = propagate(dom, mask, entered, expl, lv, queue, 1, inq, slen, sid,
                                   cells, xs, xq, letters, wstart, index, ioff, doff, dnw,
                                   support)
                if failed < 0:
                    break
                weight[failed] += 1.0
                fails[failed] += 1
                conflict[:] = expl[lv, failed, :]
            target = -1
            for w in range(conflict.shape[0] - 1, -1, -1):
                if conflict[w]:
                    x = conflict[w]
                    high = 63
                    while not (x >> np.uint64(high)) & ONE:
                        high -= 1
                    target = w * 64 + high
                    break
            if target < 0:  # the failure follows from no decision: none exists
                box[LEVEL] = 0
                return EXHAUSTED
            lv = target
            s = chosen[lv]
            v = value[lv]


@njit(**OPTS)
def root(dom, mask, entered, expl, queue, inq, slen, sid, cells, xs, xq, letters, wstart, index,
         ioff, doff, dnw, support):
    """Level 0 from its domains and letters: every slot's words narrowed to the letters of
    its cells, then propagated. The slot that has no word, or -1."""
    nslots = slen.shape[0]
    for s in range(nslots):
        for p in range(slen[s]):
            m = mask[0, cells[s, p]]
            if m != (1 << 26) - 1:
                for c in range(26):
                    if not m >> c & 1:
                        strike_letter(dom, 0, s, p, c, doff, dnw, sid, index, ioff)
        if count(dom, 0, doff[s], dnw[s]) == 0:
            return s
        queue[s] = s
        inq[s] = 1
    return propagate(dom, mask, entered, expl, 0, queue, nslots, inq, slen, sid, cells, xs, xq,
                     letters, wstart, index, ioff, doff, dnw, support)
