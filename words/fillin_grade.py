"""Grade a fill-in puzzle the way a person solves it: a ladder of steps, cheapest first.

| rung | step a person takes |
|------|---------------------|
| only-length | the last open slot of a length takes the last word of that length |
| one-fits | a slot's letters so far admit just one of the words left |
| one-place | a word fits just one of the open slots of its length |
| crossing-check | words are struck from a slot when a crossing would have none left; one remains |
| trial | each word left for a slot is tried and followed up; all but one run into a dead end |
| guess | nothing above helps: a word is written in on trust (the puzzle needs guessing) |

Each step is logged (rung, slot, word, openings: how many steps of that rung were open at
that moment), and the log gives a level (named after the hardest rung), a score in the
level's band and 1-5 stars, as the nonogram grader does. Weights are data:
``fillin_scoring.yaml``.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

import yaml

from grader.results import Budget
from words.fillin import FillIn, FillinCount, FillinVerdict, count_fillin_solutions
from words.grid import Grid, Slot

RUNGS: tuple[str, ...] = (
    "only-length", "one-fits", "one-place", "crossing-check", "trial", "guess",
)
#: Steps a trial follows a tried word up before it gives up on it.
TRIAL_DEPTH_STEPS = 400
#: Open slots (fewest words first) a trial looks at before it gives up.
TRIAL_SLOTS = 8


@dataclass(frozen=True)
class FillStep:
    rung: str
    slot: Slot
    word: str
    openings: int
    reason: str

    def sentence(self) -> str:
        return self.reason


@dataclass(frozen=True)
class FillinGrade:
    verdict: FillinVerdict
    level: str
    score: float
    stars: int
    steps: tuple[FillStep, ...] = ()
    rungs: dict[str, int] = field(default_factory=dict)
    time_s: float = 0.0
    solved: bool = False  # the ladder placed every word

    @property
    def rank(self) -> int:
        """Position of the level in the ladder order (lower is easier)."""
        return LEVEL_ORDER.index(self.level) if self.level in LEVEL_ORDER else len(LEVEL_ORDER)

    def lines(self) -> tuple[str, ...]:
        return tuple(f"{k}. {s.sentence()}" for k, s in enumerate(self.steps, start=1))


LEVEL_ORDER = ("easy", "medium", "hard", "fiendish", "needs-guessing", "ambiguous",
               "contradictory", "undecided")


@dataclass(frozen=True)
class FillinWeights:
    levels: dict[str, str]
    bands: dict[str, float]
    step_weights: dict[str, float]
    scarcity: float
    half_work: dict[str, float]
    stars: tuple[float, ...]


@lru_cache(maxsize=1)
def default_weights() -> FillinWeights:
    text = resources.files("words").joinpath("fillin_scoring.yaml").read_text(encoding="utf-8")
    data: dict[str, Any] = yaml.safe_load(text)
    weights = FillinWeights(
        levels={str(k): str(v) for k, v in data["levels"].items()},
        bands={str(k): float(v) for k, v in data["bands"].items()},
        step_weights={str(k): float(v) for k, v in data["step_weights"].items()},
        scarcity=float(data["scarcity"]),
        half_work={str(k): float(v) for k, v in data["half_work"].items()},
        stars=tuple(float(v) for v in data["stars"]),
    )
    missing = [r for r in RUNGS if r not in weights.levels or r not in weights.step_weights]
    if missing:
        raise ValueError(f"fillin_scoring.yaml lacks rungs: {', '.join(missing)}")
    return weights


class _State:
    """Letters written so far, open slots, the words not yet placed and, per open slot, the
    words that still fit it (kept up to date as letters are written)."""

    def __init__(self, grid: Grid, left: Counter[str]):
        self.grid = grid
        self.cells: dict[tuple[int, int], str] = {
            (r, c): ch for r, row in enumerate(grid.rows) for c, ch in enumerate(row)
            if ch.isalpha()
        }
        self.left = left
        self.open = {s.index for s in grid.slots}
        self.struck: dict[int, set[str]] = {}
        self.owners: dict[tuple[int, int], list[tuple[Slot, int]]] = {}
        for slot in grid.slots:
            for p, cell in enumerate(slot.cells):
                self.owners.setdefault(cell, []).append((slot, p))
        by_length: dict[int, list[str]] = {}
        for word in left:
            by_length.setdefault(len(word), []).append(word)
        self.fit: dict[int, set[str]] = {
            s.index: {w for w in by_length.get(s.length, []) if self.fits(s, w)}
            for s in grid.slots
        }

    def copy(self) -> _State:
        twin = _State.__new__(_State)
        twin.grid = self.grid
        twin.cells = dict(self.cells)
        twin.left = Counter(self.left)
        twin.open = set(self.open)
        twin.struck = {k: set(v) for k, v in self.struck.items()}
        twin.owners = self.owners
        twin.fit = {k: set(v) for k, v in self.fit.items()}
        return twin

    def pattern(self, slot: Slot) -> str:
        return "".join(self.cells.get(cell, "?") for cell in slot.cells)

    def fits(self, slot: Slot, word: str) -> bool:
        return all(self.cells.get(cell, ch) == ch for cell, ch in zip(slot.cells, word,
                                                                      strict=True))

    def candidates(self, slot: Slot, struck_too: bool = True) -> list[str]:
        """Words left that fit the slot; without the ones crossing checks struck unless
        ``struck_too`` is False (the cheap rungs do not see those strikes)."""
        words = self.fit[slot.index]
        if struck_too and slot.index in self.struck:
            words = words - self.struck[slot.index]
        return sorted(words)

    def place(self, slot: Slot, word: str) -> None:
        self.open.discard(slot.index)
        self._use(word, slot.length)
        completed: list[Slot] = []
        for cell, ch in zip(slot.cells, word, strict=True):
            if cell in self.cells:
                continue
            self.cells[cell] = ch
            for other, p in self.owners[cell]:
                if other.index in self.open:
                    self.fit[other.index] = {w for w in self.fit[other.index] if w[p] == ch}
                    if "?" not in self.pattern(other):
                        completed.append(other)
        # a slot its crossings completed holds its word now, when that word is on the list
        for other in completed:
            entry = self.pattern(other)
            if other.index in self.open and self.left[entry] > 0:
                self.open.discard(other.index)
                self._use(entry, other.length)

    def _use(self, word: str, length: int) -> None:
        self.left[word] -= 1
        if self.left[word] <= 0:
            for index in self.open:
                self.fit[index].discard(word)

    def dead_end(self) -> Slot | None:
        """An open slot no word fits any more, if there is one."""
        for index in sorted(self.open):
            if not self.fit[index] - self.struck.get(index, set()):
                return self.grid.slots[index]
        return None


Found = list[tuple[Slot, str, str]]


def _only_length(state: _State) -> Found:
    found: Found = []
    by_length: dict[int, list[Slot]] = {}
    for index in sorted(state.open):
        slot = state.grid.slots[index]
        by_length.setdefault(slot.length, []).append(slot)
    for length, slots in sorted(by_length.items()):
        words = [w for w, n in state.left.items() if n > 0 and len(w) == length]
        if len(slots) == 1 and len(words) == 1 and state.fits(slots[0], words[0]):
            found.append((slots[0], words[0],
                          f"{slots[0].label}: {words[0]} is the only {length}-letter word left"))
    return found


def _one_fits(state: _State) -> Found:
    found: Found = []
    for index in sorted(state.open):
        slot = state.grid.slots[index]
        words = state.candidates(slot, struck_too=False)
        if len(words) == 1:
            found.append((slot, words[0],
                          f"{slot.label} ({state.pattern(slot)}): only {words[0]} fits"))
    return found


def _one_place(state: _State) -> Found:
    found: Found = []
    open_slots = [state.grid.slots[i] for i in sorted(state.open)]
    places_of: dict[str, list[Slot]] = {}
    for slot in open_slots:
        for word in state.fit[slot.index]:
            places_of.setdefault(word, []).append(slot)
    for word in sorted(places_of):
        places = places_of[word]
        if len(places) == 1:
            slot = places[0]
            found.append((slot, word, f"{word} fits only {slot.label} ({state.pattern(slot)})"))
    return found


def _crossing_check(state: _State) -> Found:
    """Strike words that would leave a crossing slot with no word; report slots left with
    one word."""
    found: Found = []
    grid = state.grid
    for index in sorted(state.open):
        slot = grid.slots[index]
        words = state.candidates(slot)
        if len(words) < 2:
            continue
        struck: list[str] = []
        blocked_by: dict[str, Slot] = {}
        for word in words:
            for cell, ch in zip(slot.cells, word, strict=True):
                if cell in state.cells:
                    continue
                for other, p in state.owners[cell]:
                    if other.index == slot.index or other.index not in state.open:
                        continue
                    if not any(w[p] == ch for w in state.candidates(other) if w != word
                               or state.left[w] > 1):
                        blocked_by[word] = other
                        break
                if word in blocked_by:
                    break
            if word in blocked_by:
                struck.append(word)
        if struck:
            state.struck.setdefault(slot.index, set()).update(struck)
            rest = [w for w in words if w not in struck]
            if len(rest) == 1:
                why = "; ".join(f"{w} would leave {blocked_by[w].label} without a word"
                                for w in struck[:3])
                more = f" (and {len(struck) - 3} more)" if len(struck) > 3 else ""
                found.append((slot, rest[0],
                              f"{slot.label} ({state.pattern(slot)}): {why}{more}; "
                              f"so {rest[0]}"))
    return found


LOGIC = (_only_length, _one_fits, _one_place, _crossing_check)


def _settle(state: _State, limit: int) -> tuple[bool, int]:
    """Apply the logic rungs until stuck; (False, _) on a dead end, else (True, steps)."""
    steps = 0
    while state.open and steps < limit:
        for finder in LOGIC:
            found = finder(state)
            if found:
                slot, word, _ = found[0]
                if not state.fits(slot, word) or state.left[word] <= 0:
                    return False, steps
                state.place(slot, word)
                steps += 1
                break
        else:
            break
        if state.dead_end() is not None:
            return False, steps
    return state.dead_end() is None, steps


def _trial(state: _State) -> Found:
    """The open slot with fewest words, each word followed up by the logic rungs: when all
    but one run into a dead end, the survivor is placed."""
    open_slots = sorted((state.grid.slots[i] for i in state.open),
                        key=lambda s: (len(state.candidates(s)), s.index))
    for slot in [s for s in open_slots if len(state.candidates(s)) >= 2][:TRIAL_SLOTS]:
        words = state.candidates(slot)
        alive: list[str] = []
        for word in words:
            trial = state.copy()
            trial.place(slot, word)
            ok, _ = _settle(trial, TRIAL_DEPTH_STEPS)
            if ok:
                alive.append(word)
            if len(alive) > 1:
                break
        if len(alive) == 1:
            dead = ", ".join(w for w in words if w != alive[0])
            return [(slot, alive[0], f"{slot.label} ({state.pattern(slot)}): trying "
                     f"{dead} leads to a dead end; so {alive[0]}")]
    return []


def grade_fillin(puzzle: FillIn, budget: Budget | None = None) -> FillinGrade:
    """The ladder from the givens to the solution, with its level, score and stars.

    A solve by the ladder without a guess proves the solution unique (every step is a
    deduction); when a guess is needed, the complete search decides uniqueness first.
    """
    started = time.perf_counter()
    weights = default_weights()
    givens = puzzle.givens
    state = _State(givens, Counter(puzzle.entries))
    if puzzle.starter_slot is not None:
        state.place(puzzle.starter_slot, puzzle.starter_word)
    steps: list[FillStep] = []
    solution: Grid | None = None
    seconds = (budget or Budget(seconds=10.0)).seconds
    deadline = None if seconds is None else started + seconds
    while state.open:
        if deadline is not None and time.perf_counter() > deadline:
            return FillinGrade("undecided", "undecided", weights.bands["undecided"], 5,
                               tuple(steps), time_s=time.perf_counter() - started)
        for name, finder in zip(RUNGS, (*LOGIC, _trial), strict=False):
            found = finder(state)
            if found:
                rung = name
                slot, word, reason = found[0]
                break
        else:
            if solution is None:
                count = count_fillin_solutions(puzzle, budget=budget)
                if count.verdict != "unique":
                    level = {"multiple": "ambiguous", "none": "contradictory"}.get(
                        count.verdict, "undecided")
                    return FillinGrade(count.verdict, level, weights.bands[level], 5,
                                       time_s=time.perf_counter() - started)
                solution = count.solutions[0]
            rung = "guess"
            slot = min((givens.slots[i] for i in state.open),
                       key=lambda s: (len(state.candidates(s)), s.index))
            word = solution.entry(slot)
            reason = (f"{slot.label} ({state.pattern(slot)}): no logical step is left; "
                      f"guess {word} (one of {len(state.candidates(slot))})")
            found = [(slot, word, reason)]
        steps.append(FillStep(rung, slot, word, len(found), reason))
        state.place(slot, word)
    counts = {r: n for r in RUNGS if (n := sum(1 for s in steps if s.rung == r))}
    hardest = max((RUNGS.index(s.rung) for s in steps), default=0)
    level = weights.levels[RUNGS[hardest]] if steps else "easy"
    work = sum(weights.step_weights[s.rung] * (1 + weights.scarcity / max(s.openings, 1))
               for s in steps) / max(len(givens.slots), 1)
    fraction = work / (work + weights.half_work[level])
    score = round(weights.bands[level] + min(fraction, 0.999), 3)
    stars = 1 + sum(score >= t for t in weights.stars)
    return FillinGrade("unique", level, score, stars, tuple(steps), counts,
                       time.perf_counter() - started, solved=True)


def fillin_record(file: str, grid: Grid, puzzle: FillIn, count: FillinCount,
                  grade: FillinGrade, steps: bool = False) -> dict[str, Any]:
    """The record of a fill-in made of the filled ``grid`` (read from ``file``): its
    uniqueness, grade, starter and word lists (``steps``: the graded steps too)."""
    starter = puzzle.starter_slot
    record: dict[str, Any] = {
        "file": file, "size": grid.size, "slots": len(grid.slots),
        "verdict": count.verdict, "nodes": count.nodes,
        "level": grade.level, "score": grade.score, "stars": grade.stars,
        "rungs": grade.rungs, "grid": list(grid.rows),
        "starter": {"slot": starter.short, "word": puzzle.starter_word} if starter else None,
        "words": {str(n): ws for n, ws in puzzle.words_by_length().items()},
    }
    if count.verdict == "multiple":
        record["differing_cells"] = [list(c) for c in count.differing_cells()]
    if steps:
        record["steps"] = list(grade.lines())
    return record
