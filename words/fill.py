"""Fill a crossword grid from a word list: every slot a listed word, crossings agreeing, no
word twice, theme entries where they were locked.

:func:`fill` runs the search of :mod:`words.search` with seeded randomised restarts (Luby
node limits, so every run after the first few is longer and the last one can finish), and
answers ``filled``, ``none`` (proved: no fill exists, naming the slot that could not be
filled) or ``undecided`` (the budget ran out first).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from grader.errors import NonopressError
from grader.results import Budget
from words.grid import Grid, Slot
from words.search import Limits, Search, Stop, luby
from words.wordlist import WordList, normalise

if TYPE_CHECKING:
    from words.compiled_fill import CompiledSearch

FillStatus = Literal["filled", "none", "undecided"]
#: Score thresholds tried in turn before the whole list when asked for quality (37.5 is
#: Zipf 3 in the default list: once in a million words). One tier of one run measured best
#: on the benchmark grids: about half of the 15x15-23x23 grids fill from common words alone,
#: at up to twice the time (bench/bench_fill.py --quality).
QUALITY_TIERS = (37.5,)
#: Node allowance of a quality tier, in runs of (slots + TIER_RUN_NODES) nodes.
TIER_NODES = 1
TIER_RUN_NODES = 150
#: Run i of the restarts may use (slots + RESTART_NODES) * luby(i) nodes: a fill without
#: backtracking takes about one node a slot. On the ten hardest grids with wamerican (one
#: seed, 5 s each, tally lookahead) 150 filled 4, 400 5, 600 8, 900 6, 1500 6 and 4000 6;
#: with the default list on its eleven hardest, 150 and 600 filled 6 each. The spread is
#: the luck of a heavy-tailed search; longer runs than 150 were better throughout.
RESTART_NODES = 600
#: Nodes a slot the Python search may take before the compiled search takes over. On the
#: 102 benchmark grids (Python search alone, seed 1), 1.5 filled 41 with wamerican and 35
#: with the default list, 3 filled 52 and 43, most in under 0.1 s: less than loading numba
#: and the kernels (0.35-0.45 s) that a grid left to the compiled search pays.
QUICK_NODES = 3.0
#: ... and the propagation work it may do (words.search.Search.work: about 25 million a
#: second). A node's cost grows with the slots and the list: on the American 15x15 grids
#: with the default list, 3 nodes a slot that found no fill cost up to 0.7 s. At 3.2
#: million the 102 grids lose 2 quick fills of each list and no failed try costs more than
#: about 0.15 s.
QUICK_WORK = 3_200_000

@dataclass(frozen=True)
class FillResult:
    """What :func:`fill` found. ``entries`` follow ``grid.slots`` (empty when not filled)."""

    status: FillStatus
    grid: Grid
    entries: tuple[str, ...] = ()
    scores: tuple[float, ...] = ()
    time_s: float = 0.0
    nodes: int = 0
    restarts: int = 0
    failed_slot: Slot | None = None
    reason: str = ""
    stats: dict[str, int] = field(default_factory=dict)

    @property
    def score(self) -> float:
        """Mean word score of the fill (0-100), 0 when not filled."""
        return round(sum(self.scores) / len(self.scores), 2) if self.scores else 0.0

    @property
    def min_score(self) -> float:
        return min(self.scores) if self.scores else 0.0

    def summary(self) -> str:
        if self.status == "filled":
            return (f"filled: score {self.score:.1f} (lowest word {self.min_score:.0f}), "
                    f"{self.nodes} nodes, {self.restarts} restarts, {self.time_s:.3f} s")
        return f"{self.status}: {self.reason}"


def pattern(grid: Grid, slot: Slot) -> str:
    return grid.entry(slot)


def resolve_locks(grid: Grid, locks: Mapping[str, str]) -> dict[int, str]:
    """``{"12A": "word"}`` -> ``{slot index: "WORD"}``; NonopressError on a bad name, a
    word of the wrong length or one that clashes with letters already in the grid."""
    fixed: dict[int, str] = {}
    for name, raw in locks.items():
        try:
            slot = grid.find_slot(name)
        except KeyError as exc:
            raise NonopressError(str(exc.args[0])) from None
        word = normalise(raw)
        if word is None:
            raise NonopressError(f"lock {name}: {raw!r} is not a word of letters")
        if len(word) != slot.length:
            raise NonopressError(
                f"lock {slot.label}: {word} has {len(word)} letters, the slot {slot.length}")
        for have, want in zip(grid.entry(slot), word, strict=True):
            if have != "." and have != want:
                raise NonopressError(
                    f"lock {slot.label}: {word} clashes with {grid.entry(slot)} in the grid")
        if slot.index in fixed and fixed[slot.index] != word:
            raise NonopressError(f"lock {slot.label}: two words for one slot, "
                                 f"{fixed[slot.index]} and {word}; keep one")
        fixed[slot.index] = word
    return fixed


def fill(
    grid: Grid,
    words: WordList,
    *,
    seed: int = 0,
    budget: Budget | None = None,
    locks: Mapping[str, str] | None = None,
    restarts: bool = True,
    quality: bool = False,
) -> FillResult:
    """Fill ``grid`` (its letters stay) from ``words``; ``locks`` name theme entries
    (``{"1A": "THEME"}``) that are used even when the list lacks them. With ``quality``,
    fills from the better-scored words alone are tried first.

    The same grid, list, seed and locks give the same fill (unless the time budget ends
    the search first).
    """
    started = time.perf_counter()
    budget = budget or Budget(seconds=10.0)
    fixed = resolve_locks(grid, locks or {})
    words = words.with_words(fixed.values())
    from words.compiled_fill import MAX_STATE_BYTES, CompiledSearch

    if CompiledSearch.state_bytes(grid, words) <= MAX_STATE_BYTES:
        if not quality:
            quick = _quick_fill(grid, words, fixed, started, budget, seed)
            if quick is not None:
                return quick
        # the list's arrays and the kernels are loading, not filling: not charged to the
        # budget (a cold cache or a fresh install would spend it all, and the answer would
        # be "undecided" where a warm run fills)
        preparing = time.perf_counter()
        from words.compiled_fill import warm_up

        warm_up()
        compiled = CompiledSearch(grid, words, fixed)
        started += time.perf_counter() - preparing
        return _fill_compiled(compiled, words, started, budget, seed, restarts, quality)
    search = Search(grid, words, fixed)
    search.limits = Limits(
        deadline=None if budget.seconds is None else started + budget.seconds,
        max_nodes=budget.nodes,
    )

    def done(status: FillStatus, *, restarts: int, filled: Grid | None = None,
             entries: tuple[str, ...] = (), scores: tuple[float, ...] = (),
             failed_slot: Slot | None = None, reason: str = "") -> FillResult:
        return FillResult(status, filled or grid, entries, scores,
                          time.perf_counter() - started, search.nodes, restarts,
                          failed_slot, reason)

    solution: list[str] = []

    def found(dom: list[int]) -> bool:
        solution.extend(search.words_of(dom))
        return True

    def filled_result(runs: int) -> FillResult:
        filled = grid
        for slot, word in zip(search.slots, solution, strict=True):
            filled = filled.with_entry(slot, word)
        return done("filled", filled=filled, entries=tuple(solution),
                    scores=tuple(words.score(w) for w in solution), restarts=runs)

    runs = 0
    # Cleaner words first: each quality tier gets a few restarts' worth of nodes (nodes,
    # not seconds, so that a seed gives the same fill on any machine), then the next.
    lowest = min((t.scores[-1] for t in search.tables if t.scores), default=0.0)
    tiers = [t for t in QUALITY_TIERS if t > lowest] if quality else []
    for tier in tiers:
        tier_root = search.root(tier)
        if isinstance(tier_root, int):
            continue
        cap = search.nodes + TIER_NODES * (len(search.slots) + TIER_RUN_NODES)
        try:
            outcome, used = _restarts(search, tier_root, seed, found, restarts, cap)
        except Stop:
            break  # the whole budget is spent: say so below
        runs += used
        if outcome == "filled":
            return filled_result(runs)
    root = search.root()
    if isinstance(root, int):
        slot = search.slots[root]
        return done("none", failed_slot=slot, restarts=runs, reason=_root_reason(grid, slot, words))
    worst = 0
    try:
        outcome, used = _restarts(search, root, seed, found, restarts, None)
        runs += used
        if outcome == "filled":
            return filled_result(runs)
        worst = max(range(len(search.slots)), key=lambda k: search.failures[k])
        slot = search.slots[worst]
        return done("none", failed_slot=slot, restarts=runs,
                    reason=f"no fill exists: the complete search ran out of words for "
                           f"{slot.label} ({slot.length} letters, pattern "
                           f"{_shown(grid, slot)}) most often")
    except Stop:
        worst = max(range(len(search.slots)), key=lambda k: search.failures[k])
        slot = search.slots[worst]
        return done("undecided", failed_slot=slot, restarts=runs,
                    reason=f"budget spent after {search.nodes} nodes; the hardest "
                           f"slot was {slot.label} ({slot.length} letters)")


def _quick_fill(grid: Grid, words: WordList, fixed: Mapping[int, str], started: float,
                budget: Budget, seed: int) -> FillResult | None:
    """A fill (or a root proof of none) found by the Python search within
    :data:`QUICK_NODES` nodes a slot, or None: most grids fill nearly without
    backtracking, and then the compiled kernels (a third of a second to load) are not
    needed. The same seed gives the same answer."""
    search = Search(grid, words, fixed)
    root = search.root()
    if isinstance(root, int):
        slot = search.slots[root]
        return FillResult("none", grid, (), (), time.perf_counter() - started, 0, 0, slot,
                          _root_reason(grid, slot, words))
    search.rng = random.Random(seed * 1_000_003 + 1)
    search.node_limit = int(QUICK_NODES * len(search.slots)) + 1
    search.work_limit = search.work + QUICK_WORK
    search.limits = Limits(
        deadline=None if budget.seconds is None else started + budget.seconds,
        max_nodes=budget.nodes,
    )
    solution: list[str] = []

    def found(dom: list[int]) -> bool:
        solution.extend(search.words_of(dom))
        return True

    try:
        if not search.dfs(root[0], root[1], found):
            return None
    except Stop as stop:
        if stop.why == "budget":  # the whole budget is spent: say so as the search would
            slot = search.slots[max(range(len(search.slots)), key=search.failures.__getitem__)]
            return FillResult("undecided", grid, (), (), time.perf_counter() - started,
                              search.nodes, 0, slot, f"budget spent after {search.nodes} "
                              f"nodes; the hardest slot was {slot.label} ({slot.length} "
                              "letters)")
        return None
    filled = grid
    for slot, word in zip(search.slots, solution, strict=True):
        filled = filled.with_entry(slot, word)
    return FillResult("filled", filled, tuple(solution),
                      tuple(words.score(w) for w in solution),
                      time.perf_counter() - started, search.nodes, 0)


def _fill_compiled(search: CompiledSearch, words: WordList, started: float, budget: Budget,
                   seed: int, restarts: bool, quality: bool) -> FillResult:
    """:func:`fill` on the compiled search (same tiers, restarts and answers)."""
    grid = search.grid
    deadline = None if budget.seconds is None else started + budget.seconds
    runs = 0

    def done(status: FillStatus, *, entries: tuple[str, ...] = (),
             failed_slot: Slot | None = None, reason: str = "") -> FillResult:
        filled = grid
        for slot, word in zip(search.slots, entries, strict=False):
            filled = filled.with_entry(slot, word)
        return FillResult(status, filled, entries, tuple(words.score(w) for w in entries),
                          time.perf_counter() - started, search.nodes, runs, failed_slot,
                          reason)

    def hardest() -> Slot:
        return search.slots[int(search.fails.argmax())]

    lowest = min((words.table(s.length).scores[-1] for s in search.slots
                  if words.table(s.length).scores), default=0.0)
    for tier in [t for t in QUALITY_TIERS if t > lowest] if quality else []:
        if search.root(tier) >= 0:
            continue
        cap = search.nodes + TIER_NODES * (len(search.slots) + TIER_RUN_NODES)
        outcome = search.search(seed, restarts, deadline, budget.nodes, cap, RESTART_NODES)
        runs += search.runs
        if outcome == "filled":
            return done("filled", entries=tuple(search.solution()))
        if outcome == "budget":
            break
    failed = search.root()
    if failed >= 0:
        slot = search.slots[failed]
        return done("none", failed_slot=slot, reason=_root_reason(grid, slot, words))
    outcome = search.search(seed, restarts, deadline, budget.nodes, None, RESTART_NODES)
    runs += search.runs
    if outcome == "filled":
        return done("filled", entries=tuple(search.solution()))
    slot = hardest()
    if outcome == "none":
        return done("none", failed_slot=slot,
                    reason=f"no fill exists: the complete search ran out of words for "
                           f"{slot.label} ({slot.length} letters, pattern "
                           f"{_shown(grid, slot)}) most often")
    return done("undecided", failed_slot=slot,
                reason=f"budget spent after {search.nodes} nodes; the hardest slot was "
                       f"{slot.label} ({slot.length} letters)")


def _restarts(
    search: Search, root: tuple[list[int], list[int]], seed: int,
    found: Callable[[list[int]], bool], restarts: bool, cap: int | None,
) -> tuple[str, int]:
    """Runs from ``root`` with Luby node limits until one fills ("filled"), the search is
    complete ("none") or ``cap`` nodes are reached ("capped"); Stop when the budget ends.
    Returns the outcome and how many runs were restarted."""
    run = 0
    while True:
        run += 1
        search.rng = random.Random(seed * 1_000_003 + run)
        limit = search.nodes + (len(search.slots) + RESTART_NODES) * luby(run) \
            if restarts else None
        if cap is not None:
            limit = cap if limit is None else min(limit, cap)
        search.node_limit = limit
        try:
            if search.dfs(root[0][:], root[1][:], found):
                return "filled", run - 1
            if cap is None or search.nodes < cap:
                return "none", run - 1
            return "capped", run - 1
        except Stop as stop:
            if stop.why == "budget":
                raise
            if cap is not None and search.nodes >= cap:
                return "capped", run - 1


def _root_reason(grid: Grid, slot: Slot, words: WordList) -> str:
    """Why propagation alone found no fill, naming the slot."""
    shown = _shown(grid, slot)
    if not words.table(slot.length).words:
        return f"the list has no {slot.length}-letter words, and {slot.label} needs one"
    if "?" not in shown and shown in words:
        return (f"{slot.label} ({shown}) repeats a word another slot already holds; "
                "no word may be used twice")
    return (f"no word in the list fits {slot.label} ({slot.length} letters, pattern {shown})"
            " with the letters its crossings allow")


def _shown(grid: Grid, slot: Slot) -> str:
    return grid.entry(slot).replace(".", "?")
