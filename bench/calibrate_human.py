"""Calibrate the score against people: webpbn puzzles with their users' difficulty votes.

    nice -n 10 python bench/calibrate_human.py PATH [--out DIR] [--limit N] [--jobs J]
        [--seed S] [--timeout SECONDS] [--fit] [--write-weights]

PATH is a folder of webpbn ``.non`` files carrying a ``difficulty`` line (the users'
votes, 1-5), e.g. ``puzzles/webpbn_com/2_colors`` of the lufton/non-grabber scrape. The
data has no licence: read it from where it lies, never copy it into the project.

1. Grade: every puzzle (or a seeded sample of ``--limit`` of them) is graded in parallel
   worker processes through the batch pool; each result goes into the batch results
   database in ``--out`` and its compact step log into ``steps.sqlite`` beside it, one
   committed row per puzzle, so an interrupted run resumes where it stopped. A new
   ladder needs a new ``--out`` folder (the step logs are kept by the clues alone: new
   weights need none, since the fit reweighs the logs, but new rungs do). Puzzles of
   either kind are read and graded through their contract (grader/kinds/), so rated
   colour puzzles calibrate the same rows of the ladder table; to try weights before
   writing them, point ``NONOPRESS_LADDER`` at a copy of the table.
2. Split: puzzles graded ``unique`` and solved by the ladder are split by a seeded hash of
   their key into training (70%) and held-back (30%) halves; ambiguous, contradictory
   and undecided puzzles carry no score and are left out.
3. Fit (``--fit``): the weights of ``grader/scoring.py``'s model are fitted on the training
   half only (``--write-weights`` writes each rung's step weight into the ladder table,
   ``grader/ladder.yaml``, and the other terms into ``grader/scoring.yaml``).
4. Report on the held-back half: Spearman's rho of score, level, minutes and baselines
   (sweeps, area, clue count) against the votes, overall and per size, the star spread
   over every puzzle, and the twenty biggest disagreements with their explanations.
   Beside it, how repeatable the votes are: pictures posted twice, rated by different
   people, give the noise of a vote and so a ceiling on rho for any score, per size.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import random
import re
import sqlite3
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import held_out  # noqa: E402

from grader import minutes, scoring, solve_shape  # noqa: E402
from grader.errors import NonopressError  # noqa: E402
from grader.kinds import AnyPuzzle, kind_of, read_puzzles  # noqa: E402
from grader.ladder import rung_names  # noqa: E402
from grader.minutes import ClueFacts  # noqa: E402
from grader.results import Budget  # noqa: E402
from grader.sweeps import Sweeps  # noqa: E402
from nonopress.batch.pool import run_pool  # noqa: E402
from nonopress.batch.rows import ResultRow, Task  # noqa: E402
from nonopress.batch.store import ResultStore  # noqa: E402
from nonopress.batch.worker import grade_one, row_from_grade  # noqa: E402

Puzzle = AnyPuzzle  # either kind

RUNGS = rung_names()

VOTE = re.compile(r"^difficulty\s+([0-9.]+)\s*$", re.MULTILINE)
SIZES = ("10x10", "15x15", "20x20", "25x25", "30x30", "other")
HELD_BACK = 0.3


# -- reading --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Rated:
    path: Path
    vote: float


def find_rated(root: Path) -> list[Rated]:
    """Every ``.non`` file under ``root`` with a difficulty vote that a fit may read
    (bench/held_out.py: ids ending in 7 are never opened), in path order."""
    found = []
    for path in held_out.fitting_files(root):
        text = path.read_text(encoding="utf-8", errors="replace")
        if held_out.held_out_text(path, text):
            continue
        match = VOTE.search(text)
        if match and float(match.group(1)) > 0:
            found.append(Rated(path, float(match.group(1))))
    return found


def size_class(width: int, height: int) -> str:
    name = f"{width}x{height}"
    return name if name in SIZES else "other"


# -- grading (runs in the worker processes) ----------------------------------------------------
@dataclass(frozen=True)
class LoggedRow(ResultRow):
    """A batch row plus the compact step log and the sweep count the fit needs."""

    log: str = ""


def sweep_count(puzzle: Puzzle) -> int:
    """Batenburg's measure: alternating sweeps (all rows, all columns, ...) of the complete
    line solve until the grid is solved or stuck (the sweeps that changed something); the
    grade's own count (grader/sweeps.py), so the time model is fitted to what it reads."""
    return kind_of(puzzle).sweeps()


def grade_logged(task: Task) -> ResultRow:
    """Grade one puzzle (either kind); keep its step log in a compact JSON form for the
    fit."""
    start = time.perf_counter()
    try:
        outcome = kind_of(task.puzzle).grade(None, Budget(seconds=task.timeout_s))
    except Exception:  # recorded as failed by the batch worker's own handling
        return grade_one(task)
    row = row_from_grade(task, outcome, time.perf_counter() - start)
    passes = kind_of(task.puzzle).sweep_passes()
    log = {
        "steps": [scoring.compact_step(step) for step in outcome.steps],
        "sweeps": passes.count,
        "first_sweep": round(passes.first, 6),
        "solution": kind_of(task.puzzle).proved_rows(outcome),
    }
    return LoggedRow(**{**row.__dict__, "log": json.dumps(log, separators=(",", ":"))})


class StepLogs:
    """``steps.sqlite``: key -> compact step log, one committed row per puzzle."""

    def __init__(self, folder: Path):
        folder.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(folder / "steps.sqlite", isolation_level=None, timeout=30)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("CREATE TABLE IF NOT EXISTS logs (key TEXT PRIMARY KEY, log TEXT)")

    def keys(self) -> set[str]:
        return {key for (key,) in self.db.execute("SELECT key FROM logs")}

    def put(self, key: str, log: str) -> None:
        with self.db:
            self.db.execute("INSERT OR REPLACE INTO logs VALUES (?, ?)", (key, log))

    def get_all(self) -> dict[str, dict[str, Any]]:
        return {key: json.loads(log) for key, log in self.db.execute("SELECT key, log FROM logs")}


def shape_key(puzzle: Puzzle) -> str:
    """The clues up to rotation and mirroring: one picture posted twice has one shape key."""
    rows, columns = puzzle.rows, puzzle.columns
    variants = []
    for _ in range(2):
        for flip_rows in (False, True):
            for flip_columns in (False, True):
                r = tuple(c[::-1] for c in rows) if flip_columns else rows
                c = tuple(reversed(columns)) if flip_columns else columns
                r = tuple(reversed(r)) if flip_rows else r
                c = tuple(k[::-1] for k in c) if flip_rows else c
                variants.append(repr((r, c)))
        rows, columns = columns, rows
    return hashlib.sha256(min(variants).encode()).hexdigest()[:24]


def grade_all(
    rated: Sequence[Rated], out: Path, *, jobs: int, timeout_s: float, grade: bool = True,
    reposts: dict[str, list[tuple[float, str]]] | None = None,
) -> dict[str, tuple[Puzzle, float, str]]:
    """Grade what the store lacks; return key -> (puzzle, vote, file) for every puzzle.

    ``reposts``, when given, gets every puzzle's vote and size class by shape key (the
    pictures posted more than once measure how repeatable the votes are).
    """
    tasks: list[Task] = []
    by_key: dict[str, tuple[Puzzle, float, str]] = {}
    for item in rated:
        try:
            puzzle = read_puzzles(item.path)[0]
        except NonopressError as exc:
            print(f"skipped {exc}", file=sys.stderr)
            continue
        if reposts is not None:
            size = size_class(puzzle.width, puzzle.height)
            reposts.setdefault(shape_key(puzzle), []).append((item.vote, size))
        key = puzzle.key()
        if key in by_key:
            continue
        by_key[key] = (puzzle, item.vote, item.path.name)
        tasks.append(Task(key, item.path.name, 1, puzzle.title, puzzle, timeout_s))
    logs = StepLogs(out)
    with ResultStore.create(out) as store:
        # Failed rows are tried again; undecided ones stay out (they ran out of time).
        done = store.keys(("graded", "undecided")) & logs.keys()
        todo = [task for task in tasks if task.key not in done]
        # A seeded shuffle: a run stopped half way has graded a fair sample of every size.
        random.Random(len(todo)).shuffle(todo)
        print(f"{len(tasks)} puzzles, {len(tasks) - len(todo)} already graded", file=sys.stderr)
        started = time.monotonic()
        count = 0

        def record(row: ResultRow) -> None:
            nonlocal count
            logs.put(row.key, getattr(row, "log", "") or json.dumps({"steps": [], "sweeps": 0}))
            store.record(row)
            count += 1
            if count % 50 == 0 or count == len(todo):
                rate = count / max(time.monotonic() - started, 1e-9)
                print(f"  graded {count}/{len(todo)} ({rate:.2f}/s)", file=sys.stderr, flush=True)

        if todo and grade:
            # Compile (or load) the solver once here: a worker compiling inside its first
            # puzzle overruns the hard limit, is killed, and the next one starts over.
            from grader.solver import ensure_compiled

            ensure_compiled(sys.stderr)
            run_pool(todo, record, jobs=jobs, work=grade_logged, hard_limit_s=1.5 * timeout_s + 5)
    return by_key


# -- the data set -------------------------------------------------------------------------
LEVEL_ORDER = ("easy", "medium", "hard", "fiendish", "needs-guessing")


@dataclass
class Sample:
    key: str
    file: str
    vote: float
    size: str
    level: str
    terms: scoring.WorkTerms
    sweeps: int
    area: int
    clue_count: int
    held_back: bool
    fields: dict[str, float] = field(default_factory=dict)
    clues: ClueFacts | None = None


def held_back(key: str, seed: int) -> bool:
    digest = hashlib.sha256(f"{seed}:{key}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64 < HELD_BACK


def load_samples(
    out: Path, puzzles: dict[str, tuple[Puzzle, float, str]], seed: int
) -> tuple[list[Sample], Counter[str]]:
    """Rated samples (unique, solved by the ladder) and a count of what was left out."""
    logs = StepLogs(out).get_all()
    left_out: Counter[str] = Counter()
    samples = []
    with ResultStore.open_existing(out) as store:
        for row in store.rows():
            if row.key not in puzzles:
                continue
            puzzle, vote, file = puzzles[row.key]
            if row.status != "graded" or row.verdict != "unique" or row.key not in logs:
                left_out[row.level or row.status] += 1
                continue
            if row.level not in scoring.RATED_LEVELS:
                left_out[str(row.level)] += 1
                continue
            terms = scoring.work_terms(logs[row.key]["steps"], puzzle.width, puzzle.height)
            samples.append(
                Sample(
                    key=row.key,
                    file=file,
                    vote=vote,
                    size=size_class(puzzle.width, puzzle.height),
                    level=str(row.level),
                    terms=terms,
                    sweeps=int(logs[row.key]["sweeps"]),
                    area=puzzle.width * puzzle.height,
                    clue_count=sum(len(c) for c in (*puzzle.rows, *puzzle.columns)),
                    held_back=held_back(row.key, seed),
                    clues=clue_facts(puzzle, logs[row.key]),
                )
            )
    return samples, left_out


def clue_facts(puzzle: Puzzle, log: dict[str, Any]) -> ClueFacts:
    """What the time model reads of a puzzle's clues, with the sweeps its log kept (a log
    written before the first sweep's share was kept reads 0 for it) and the solve's
    shape from its steps and solution (a log written before solutions were kept: the
    solver finds it again)."""
    passes = Sweeps(int(log["sweeps"]), float(log.get("first_sweep", 0.0)))
    facts = kind_of(puzzle).clue_facts(passes)
    grid = solution_grid(puzzle, log.get("solution"))
    if grid is None:
        return facts
    return facts.with_shape(solve_shape.shape_of(grid, solve_shape.compact_rows(log["steps"])))


def solution_grid(puzzle: Puzzle, rows: Sequence[str] | None) -> np.ndarray | None:
    """The solution as the kind's picture (0 for background), from its rows or solved
    again."""
    if rows is not None:
        return kind_of(puzzle).picture(rows)
    result = kind_of(puzzle).solve(2, Budget(seconds=10.0))
    return np.asarray(result.solutions[0]) if result.verdict == "unique" else None


# -- statistics -----------------------------------------------------------------------------
def ranks(values: Sequence[float]) -> np.ndarray:
    """Ranks from 1, ties sharing their average rank."""
    array = np.asarray(values, dtype=float)
    order = np.argsort(array, kind="stable")
    result = np.empty(len(array))
    ordered = array[order]
    start = 0
    while start < len(array):
        end = start
        while end + 1 < len(array) and ordered[end + 1] == ordered[start]:
            end += 1
        result[order[start : end + 1]] = (start + end) / 2 + 1
        start = end + 1
    return result


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    if len(xs) < 3:
        return float("nan")
    rx, ry = ranks(xs), ranks(ys)
    if rx.std() == 0 or ry.std() == 0:
        return float("nan")
    return float(np.corrcoef(rx, ry)[0, 1])


# -- the fit ----------------------------------------------------------------------------------
FIXED = "simple-boxes"  # the unit of work


class Design:
    """The work terms of many puzzles as arrays, so a weight vector scores them all at once."""

    def __init__(self, samples: Sequence[Sample], categories: Sequence[str]):
        self.categories = list(categories)
        self.steps = np.array([[s.terms.steps.get(c, 0.0) for c in categories] for s in samples])
        self.scarce = np.array([[s.terms.scarce.get(c, 0.0) for c in categories] for s in samples])
        self.blocks = np.array([s.terms.blocks for s in samples])
        self.chain = np.log1p(np.array([s.terms.chain for s in samples], dtype=float))
        self.lines = np.array([s.terms.width + s.terms.height for s in samples], dtype=float)
        # the terms of the score beside the work, in SCORE_TERMS order
        self.fixed = {
            "chain": self.chain,
            "lines": np.log(self.lines),
            "look_ahead": np.array([scoring.look_ahead_share(s.terms) for s in samples]),
        }
        self.votes = np.array([s.vote for s in samples]) - 1.0

    def columns(self, weights: np.ndarray, scarcity: float, counting: float) -> np.ndarray:
        work = (self.steps + scarcity * self.scarce) @ weights + counting * self.blocks
        per_line = np.log1p(work / self.lines)
        rest = [self.fixed[name] for name in SCORE_TERMS[1:]]
        return np.column_stack([np.ones_like(per_line), per_line, *rest])


#: the score's linear terms after the intercept (grader/scoring.py's rating())
SCORE_TERMS = ("per_line_work", "chain", "lines", "look_ahead")


def unpack(theta: np.ndarray, design: Design) -> tuple[np.ndarray, float, float]:
    count = len(design.categories)
    return np.exp(theta[:count]), float(np.exp(theta[count])), float(np.exp(theta[count + 1]))


# (the two newest rungs start from their family's first rung, so a refit does not start
# from the weights the last fit wrote)
PRIOR_WEIGHTS = {"exact-fit": 0.2, "simple-boxes": 1.0, "simple-gaps": 1.0, "extreme-owners": 2.0,
                 "capped-runs": 2.0, "owner-branching": 4.0, "line-analysis": 6.0,
                 "short-look-ahead": 12.0, "cell-branching": 25.0, "recursion": 80.0}
RIDGE = 1e-4  # pull of the log weights toward the starting table (rare rungs stay sane)


def loss(
    theta: np.ndarray, design: Design, prior: np.ndarray | None = None
) -> tuple[float, np.ndarray]:
    """Mean squared error of the best linear head on (vote - 1), and that head, plus a
    ridge pull toward ``prior``."""
    columns = design.columns(*unpack(theta, design))
    head, *_ = np.linalg.lstsq(columns, design.votes, rcond=None)
    residual = columns @ head - design.votes
    penalty = 0.0 if prior is None else RIDGE * float(np.sum((theta - prior) ** 2))
    return float(np.mean(residual**2)) + penalty, head


def in_ladder_order(theta: np.ndarray, categories: Sequence[str]) -> bool:
    """From owner branching up, no rung weighs less than the one below it; no line rule
    of the first two families (what a beginner reads off one line) weighs more than
    owner branching, the first look-ahead."""
    ladder = [c for c in RUNGS[RUNGS.index("owner-branching") :] if c in categories]
    values = [theta[categories.index(c)] for c in ladder]
    beginner = [theta[categories.index(c)] for c in RUNGS[: RUNGS.index("owner-branching")]
                if c in categories]
    if values and beginner and max(beginner) > values[0] + 1e-12:
        return False
    return all(a <= b + 1e-12 for a, b in itertools.pairwise(values))


def fit(train: Sequence[Sample], start: scoring.Weights) -> scoring.Weights:
    """Coordinate descent on the log step weights, scarcity and counting (the unit weight
    fixed), each trial with its least-squares linear head; training samples only."""
    categories = sorted({c for s in train for c in s.terms.steps} | {FIXED, scoring.EXACT_FIT})
    design = Design(train, categories)
    # Start from (and pull toward) the hand-set table the project began with; a rung it
    # does not know starts from the weight the current table gives it.
    guess = {**start.step_weights, **PRIOR_WEIGHTS}
    theta = np.log([max(guess.get(c, 1.0), 1e-3) for c in categories] + [1.0, 0.2])
    free = [i for i, c in enumerate([*categories, "scarcity", "counting"]) if c != FIXED]
    # Moves: one weight, or a rung of the ordered ladder together with every rung above it
    # (one at a time, rungs pinned against each other by the order could never move).
    ordered = [categories.index(c) for c in RUNGS[RUNGS.index("owner-branching") :]
               if c in categories]
    moves = [[i] for i in free] + [ordered[k:] for k in range(len(ordered) - 1)]
    # Whole lines that fit exactly are what people do first: never dearer than the unit.
    ceiling = np.full(len(theta), 7.0)
    ceiling[categories.index(scoring.EXACT_FIT)] = 0.0
    prior = theta.copy()
    best, head = loss(theta, design, prior)
    for step in (1.0, 0.5, 0.25, 0.1, 0.05):
        improved = True
        while improved:
            improved = False
            for move in moves:
                for sign in (1.0, -1.0):
                    trial = theta.copy()
                    trial[move] = np.clip(trial[move] + sign * step, -7.0, ceiling[move])
                    if not in_ladder_order(trial, categories):
                        continue
                    value, trial_head = loss(trial, design, prior)
                    if value < best - 1e-9:
                        theta, best, head, improved = trial, value, trial_head, True
    weights, scarcity, counting = unpack(theta, design)
    step_weights = dict(start.step_weights)
    step_weights.update({c: round(float(w), 4) for c, w in zip(categories, weights, strict=True)})
    terms = {name: round(float(v), 4) for name, v in zip(SCORE_TERMS, head[1:], strict=True)}
    provisional = scoring.Weights(
        **{
            **start.__dict__,
            "step_weights": step_weights,
            "scarcity": round(scarcity, 4),
            "counting": round(counting, 4),
            "intercept": round(float(head[0]), 4),
            **{name: terms.get(name, 0.0) for name in SCORE_TERMS},
        }
    )
    # Stars: training quintiles, so each star count holds a fifth of the training puzzles.
    values = sorted(scoring.fitted(s.terms, provisional) for s in train)
    cuts = tuple(round(values[int(len(values) * q)], 3) for q in (0.2, 0.4, 0.6, 0.8))
    return scoring.Weights(**{**provisional.__dict__, "stars": cuts})


# -- writing the weights ------------------------------------------------------------------------
def write_weights(weights: scoring.Weights, note: str) -> Path:
    """Rung weights into the ladder table, the rest of the model into scoring.yaml."""
    from grader.atomic import atomic_write

    write_rung_weights(weights)
    path = ROOT / "grader" / "scoring.yaml"
    text = path.read_text(encoding="utf-8")
    data: dict[str, Any] = {
        "exact_fit": weights.step_weights[scoring.EXACT_FIT],
        "scarcity": weights.scarcity,
        "counting": weights.counting,
        "score": {
            "intercept": weights.intercept,
            **{name: getattr(weights, name) for name in SCORE_TERMS},
        },
        "stars": list(weights.stars),
    }
    for name, value in data.items():
        text = replace_block(text, name, value)
    # The note sits right under the first line; an earlier note is replaced.
    first, _, rest = text.partition("\n")
    kept = [line for line in rest.split("\n") if not line.startswith(("# Fitted", "#   "))]
    text = first + "\n" + note + "\n".join(kept)
    atomic_write(path, text.encode("utf-8"))
    return path


def write_rung_weights(weights: scoring.Weights) -> Path:
    """Each rung's ``weight:`` line in ``grader/ladder.yaml`` (a borrowed-weight comment on
    it goes: the weight is now fitted)."""
    from grader.atomic import atomic_write

    path = ROOT / "grader" / "ladder.yaml"
    text = path.read_text(encoding="utf-8")
    for rung in RUNGS:
        if rung not in weights.step_weights:
            continue
        pattern = re.compile(
            rf"(?m)^(  - name: {re.escape(rung)}\n(?:    .*\n)*?    weight: ).*\n"
        )
        if not pattern.search(text):
            raise ValueError(f"ladder.yaml has no weight for {rung}")
        value = weights.step_weights[rung]
        text = pattern.sub(lambda m, v=value: f"{m.group(1)}{v}\n", text, count=1)
    atomic_write(path, text.encode("utf-8"))
    return path


def replace_block(text: str, name: str, value: Any) -> str:
    """Swap the YAML block ``name:`` (and its indented lines) for ``value``."""
    if isinstance(value, dict):
        body = "".join(f"  {k}: {v}\n" for k, v in value.items())
        new = f"{name}:\n{body}"
    else:
        new = f"{name}: {value}\n"
    pattern = re.compile(rf"(?m)^{re.escape(name)}:.*\n(?:[ ]+.*\n)*")
    if not pattern.search(text):
        raise ValueError(f"scoring.yaml has no {name} block")
    return pattern.sub(lambda _: new, text, count=1)


# -- the report -----------------------------------------------------------------------------
MEASURES: dict[str, Callable[[Sample], float]] = {
    "score": lambda s: s.fields["score"],
    "level": lambda s: float(LEVEL_ORDER.index(s.level)),
    "minutes": lambda s: s.fields["minutes"],
    "banded": lambda s: banded_score(s),
    "sweeps": lambda s: float(s.sweeps),
    "area": lambda s: float(s.area),
    "clues": lambda s: float(s.clue_count),
}


# The score before this model: the level's band plus the work per line, squashed into it.
OLD_WEIGHTS = {"simple-boxes": 1.0, "extreme-owners": 2.0, "owner-branching": 4.0,
               "line-analysis": 6.0, "cell-branching": 25.0, "recursion": 80.0}
OLD_BANDS = {"easy": (0, 6), "medium": (1, 10), "hard": (2, 12), "fiendish": (3, 20),
             "needs-guessing": (4, 150)}


def banded_score(sample: Sample) -> float:
    terms = sample.terms
    work = 0.0
    for category, count in terms.steps.items():
        weight = OLD_WEIGHTS.get("simple-boxes" if category == scoring.EXACT_FIT else category, 1.0)
        work += weight * (count + terms.scarce.get(category, 0.0))
    per_line = work / (terms.width + terms.height)
    base, half = OLD_BANDS[sample.level]
    return base + min(per_line / (per_line + half), 0.999)


def rho_table(samples: Sequence[Sample]) -> list[str]:
    head = f"{'size':8s} {'n':>5s} " + " ".join(f"{m:>7s}" for m in MEASURES)
    lines = [head]
    groups: list[tuple[str, Sequence[Sample]]] = [("overall", samples)]
    groups += [(size, [s for s in samples if s.size == size]) for size in SIZES]
    votes_of = {id(s): s.vote for s in samples}
    for name, group in groups:
        votes = [votes_of[id(s)] for s in group]
        rhos = [spearman([f(s) for s in group], votes) for f in MEASURES.values()]
        cells = " ".join(f"{rho:+7.3f}" for rho in rhos)
        lines.append(f"{name:8s} {len(group):5d} {cells}")
    return lines


def repeatability(reposts: dict[str, list[tuple[float, str]]]) -> list[str]:
    """How far any score can agree with the votes, from pictures posted twice or more.

    Two postings of one picture are rated by different people: the spread of their votes
    is the noise of a vote. Classical test theory then bounds the correlation of any
    score with the votes of a group at sqrt(1 - noise variance / vote variance).
    """
    pairs = [(votes[0][0], votes[1][0]) for votes in reposts.values() if len(votes) > 1]
    if len(pairs) < 10:
        return [f"Repeatability: {len(pairs)} pictures posted twice, too few to measure"]
    first, second = (np.array(side) for side in zip(*pairs, strict=True))
    noise = float(np.mean((first - second) ** 2) / 2)
    agreement = spearman(first.tolist(), second.tolist())
    lines = [
        f"Repeatability: {len(pairs)} pictures posted twice (same clues up to rotation and "
        f"mirroring): Spearman rho between their votes {agreement:+.3f}; "
        f"noise of one vote sd {noise ** 0.5:.3f}.",
        "Ceiling on rho for any score, sqrt(1 - noise / vote variance), per group:",
    ]
    # the noise, again from pairs drawn with replacement (a seeded bootstrap): how sure
    rng = np.random.default_rng(0)
    draws = rng.integers(0, len(pairs), size=(1000, len(pairs)))
    noises = np.mean((first[draws] - second[draws]) ** 2, axis=1) / 2
    groups = [("overall", [v[0][0] for v in reposts.values()])]
    groups += [(size, [v[0][0] for v in reposts.values() if v[0][1] == size]) for size in SIZES]
    for name, votes in groups:
        variance = float(np.var(votes)) if len(votes) > 1 else 0.0
        if not variance:
            continue
        ceiling = max(0.0, 1 - noise / variance) ** 0.5
        low, high = np.sqrt(np.clip(1 - np.percentile(noises, [95, 5]) / variance, 0, 1))
        lines.append(f"  {name:8s} {len(votes):5d} vote sd {variance ** 0.5:.3f} "
                     f"ceiling {ceiling:.3f} (90% interval {low:.3f}-{high:.3f})")
    return lines


def explain(sample: Sample, weights: scoring.Weights) -> str:
    terms = sample.terms
    lines = terms.width + terms.height
    used = ", ".join(f"{c} {int(n)}" for c, n in sorted(terms.steps.items()))
    share = {
        c: weights.step_weights[c] * (n + weights.scarcity * terms.scarce.get(c, 0.0))
        for c, n in terms.steps.items()
    }
    total = terms.work(weights) or 1.0
    top = max(share, key=lambda c: share[c]) if share else "-"
    return (
        f"{sample.level}; work/line {total / lines:.2f} ({share.get(top, 0) / total:.0%} "
        f"{top}), chain {terms.chain}, sweeps {sample.sweeps}; steps: {used}"
    )


def disagreements(samples: Sequence[Sample], weights: scoring.Weights, count: int) -> list[str]:
    """The puzzles whose score rank is furthest from their vote rank (percentiles)."""
    n = len(samples)
    score_rank = ranks([s.fields["score"] for s in samples]) / n
    vote_rank = ranks([s.vote for s in samples]) / n
    gap = score_rank - vote_rank
    order = np.argsort(-np.abs(gap))[:count]
    lines = []
    for i in order:
        s = samples[i]
        side = "too hard" if gap[i] > 0 else "too easy"
        lines.append(
            f"  {s.file[:38]:38s} {s.size:6s} vote {s.vote:4.2f} score {s.fields['score']:5.2f} "
            f"({side}, {abs(gap[i]) * 100:3.0f} centiles): {explain(s, weights)}"
        )
    return lines


def report(samples: Sequence[Sample], weights: scoring.Weights, left_out: Counter[str],
           reposts: dict[str, list[tuple[float, str]]] | None = None) -> None:
    for s in samples:
        # the fitted rating (the score a page shows is banded by level from it)
        s.fields["score"] = scoring.fitted(s.terms, weights)
        clues = s.clues or ClueFacts(s.terms.width, s.terms.height, 0, 0)
        s.fields["minutes"] = minutes.estimate(s.terms, clues, weights).minutes
    train = [s for s in samples if not s.held_back]
    test = [s for s in samples if s.held_back]
    skipped = ", ".join(f"{n} {k}" for k, n in sorted(left_out.items())) or "none"
    print(f"{len(samples)} rated puzzles: {len(train)} training, {len(test)} held back "
          f"(left out, no rating: {skipped})")
    print("\nSpearman rho against the votes, held-back split (banded = the score before):")
    print("\n".join(rho_table(test)))
    print("\nSame on the training split:")
    print("\n".join(rho_table(train)[:1] + rho_table(train)[1:2]))
    if reposts is not None:
        print("\n" + "\n".join(repeatability(reposts)))
    counts = Counter(scoring.stars(s.fields["score"], weights) for s in samples)
    spread = ", ".join(f"{k}: {counts[k] / len(samples):.0%}" for k in range(1, 6))
    print(f"\nStars over all {len(samples)} rated puzzles: {spread}")
    medians = {
        level: float(np.median([s.vote for s in samples if s.level == level]))
        for level in LEVEL_ORDER if any(s.level == level for s in samples)
    }
    print("Median vote by level: " + ", ".join(f"{k} {v:.2f}" for k, v in medians.items()))
    shown = ", ".join(f"{k} {v:g}" for k, v in weights.step_weights.items())
    print(f"Step weights: {shown}; scarcity {weights.scarcity:g}, counting {weights.counting:g}")
    print(f"Score: {weights.intercept:+g} {weights.per_line_work:+g} ln(1 + work/line) "
          f"{weights.chain:+g} ln(1 + chain) {weights.lines:+g} ln(lines) "
          f"{weights.look_ahead:+g} sqrt(look-ahead cells / cells); stars from "
          f"{', '.join(f'{v:g}' for v in weights.stars)}")
    print("\nTwenty biggest disagreements (held back):")
    print("\n".join(disagreements(test, weights, 20)))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path", type=Path, help="folder of webpbn .non files with votes")
    parser.add_argument("--out", type=Path, default=Path("/tmp/calibrate_human"))
    parser.add_argument(
        "--limit", "--sample", type=int, default=0, help="grade a seeded sample of N puzzles"
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("--grade-only", action="store_true", help="grade, then stop")
    parser.add_argument("--no-grade", action="store_true", help="report on what is graded")
    parser.add_argument("--fit", action="store_true", help="fit weights on the training split")
    parser.add_argument("--write-weights", action="store_true", help="save them (with --fit)")
    args = parser.parse_args(argv)
    if not args.path.is_dir():
        print(f"{args.path}: no such folder", file=sys.stderr)
        return 2
    rated = find_rated(args.path)
    if not rated:
        print(f"{args.path}: no .non file with a difficulty line", file=sys.stderr)
        return 2
    if args.limit:
        rated = sorted(random.Random(args.seed).sample(rated, min(args.limit, len(rated))),
                       key=lambda r: r.path)
    print(f"{len(rated)} rated puzzles under {args.path}", file=sys.stderr)
    reposts: dict[str, list[tuple[float, str]]] = {}
    puzzles = grade_all(
        rated, args.out, jobs=args.jobs, timeout_s=args.timeout, grade=not args.no_grade,
        reposts=reposts,
    )
    if args.grade_only:
        return 0
    samples, left_out = load_samples(args.out, puzzles, args.seed)
    if sum(not s.held_back for s in samples) < 20 or sum(s.held_back for s in samples) < 3:
        print(f"{args.out}: too few graded puzzles to fit and report ({len(samples)})",
              file=sys.stderr)
        return 2
    weights = scoring.default_weights()
    if args.fit:
        weights = fit([s for s in samples if not s.held_back], weights)
    report(samples, weights, left_out, reposts)
    if args.fit and args.write_weights:
        test = [s for s in samples if s.held_back]
        rho = spearman([s.fields["score"] for s in test], [s.vote for s in test])
        sample = f"--limit {args.limit}" if args.limit else "every puzzle,"
        note = (
            f"# Fitted by bench/calibrate_human.py to webpbn users' difficulty votes\n"
            f"#   (lufton/non-grabber, puzzles/webpbn_com/2_colors; {sample} "
            f"--seed {args.seed}): {len(samples) - len(test)} training puzzles,\n"
            f"#   {len(test)} held back by a seeded hash of the clues; held-back Spearman rho "
            f"of the score {rho:+.3f}.\n"
        )
        print(f"\nweights written to {write_weights(weights, note)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
