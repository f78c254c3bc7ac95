"""Issue 59's last trials: corrections to the shipped minutes, fitted on fit-eligible puzzles
and only then checked on the held-out ones.

    nice -n 19 python bench/minutes_trials.py PATH --train DIR [--kind KIND] [--check DIR]

PATH is the scrape's ``griddlers_net`` folder. ``--train`` is the graded store of
``bench/calibrate_times.py`` for the kind (the same seeded sample, ``--per-stratum 800
--seed 2026``, is drawn again here; nothing in it is graded again). Every trial is a
correction to the shipped model (``grader/scoring.yaml``) fitted by least squares (or by
boosting) to that model's residuals on the store's training 70%: of the targets the fit
used (for black and white the drift with the posting order taken out, as
``calibrate_times.py --fit`` does; colour as measured). The trials:

- ``+ step-log shape``: features of how the work is spread over the solve, from the
  step log (:func:`step_shape`), as a line;
- ``size levels``: a level of its own for each square size (10x10 .. 30x30);
- ``trees``: boosted regression trees of depth 1 or 2 on the residuals over every term the
  fit may choose and the step-log shape (:func:`boost`; a small nonlinear model);
- ``era known``: the shipped terms with the drift curve left in the prediction (a
  diagnostic: no grade knows the posting date, so this is what the era costs at most).

They are reported on the store's held-back 30% (fit-eligible puzzles) first. With
``--check`` (a store of the held-out puzzles graded the same way: square 10x10 to 30x30,
ids ending in 7; ``--grade-check`` grades what it lacks), every trial already fitted is then
checked on them: the held-out rule's check, opened after all fitting is done. The figures
are bench_minutes.py's (minutes rounded as ``grade`` prints them), with the pooled rho's
90% bootstrap interval and, against the shipped model on the same resamples, the 90%
interval of the change in the pooled rho and in the sd.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sqlite3
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import calibrate_times as ct  # noqa: E402
import numpy as np  # noqa: E402
from bench_minutes import held_out_puzzles  # noqa: E402
from calibrate_human import Rated, grade_all, spearman  # noqa: E402

from grader import scoring  # noqa: E402
from grader.minutes import default_model  # noqa: E402

SIDES = (10, 15, 20, 25, 30)
SEED = 2026
RESAMPLES = 1000


# -- the step log's shape ------------------------------------------------------------------
SHAPE = ("stalls", "tight_run", "few_cell_share", "tail90", "jump", "axis_switch",
         "open_ratio", "cells_cv", "line_visits", "late_hard")


def step_shape(steps: Sequence[Sequence[object]], width: int, height: int) -> list[float]:
    """How the work is spread over a solve (compact steps, grader/scoring.py's
    ``compact_step``): ``stalls`` the steps with one place open (ln 1+), ``tight_run`` the
    longest run of steps with at most two open (ln 1+), ``few_cell_share`` the share of
    steps adding at most two cells, ``tail90`` the share of steps after 90% of the cells
    are settled, ``jump`` the mean distance (share of the grid) between a step's line and
    the one before on the same axis, ``axis_switch`` how often a step turns from rows to
    columns or back, ``open_ratio`` the geometric over the arithmetic mean of the
    openings, ``cells_cv`` the spread of the cells a step adds over their mean,
    ``line_visits`` the most steps on one line (ln 1+), ``late_hard`` the share of steps
    past simple boxes in the second half of the solve."""
    if not steps:
        return [0.0] * len(SHAPE)
    openings = np.array([max(int(s[2]), 1) for s in steps], float)  # type: ignore[call-overload]
    cells = np.array([len(s[6]) // 2 for s in steps], float)  # type: ignore[arg-type]
    n = len(steps)
    run = longest = 0
    for tight in openings <= 2:
        run = run + 1 if tight else 0
        longest = max(longest, run)
    settled = np.cumsum(cells) / max(cells.sum(), 1.0)
    lines = [(str(s[3]), int(s[4])) for s in steps if s[3]]  # type: ignore[call-overload]
    switches = [a[0] != b[0] for a, b in itertools.pairwise(lines)]
    jumps = [abs(a[1] - b[1]) / (height if b[0] == "row" else width)
             for a, b in itertools.pairwise(lines) if a[0] == b[0]]
    hard = np.array([s[0] != "simple-boxes" for s in steps], float)
    return [
        math.log1p(float(np.sum(openings <= 1))),
        math.log1p(longest),
        float(np.mean(cells <= 2)),
        1.0 - (int(np.searchsorted(settled, 0.9)) + 1) / n,
        float(np.mean(jumps)) if jumps else 0.0,
        float(np.mean(switches)) if switches else 0.0,
        float(np.exp(np.mean(np.log(openings))) / np.mean(openings)),
        float(np.std(cells) / max(float(np.mean(cells)), 1e-9)),
        math.log1p(max(Counter(lines).values(), default=0)),
        float(np.mean(hard[n // 2:])) if n > 1 else 0.0,
    ]


# -- the data ----------------------------------------------------------------------------------
@dataclass
class Data:
    """Graded timed puzzles: the fit's terms, the step-log shape, ln measured minutes, the
    griddlers.net id, ln(cells / 400), the side of a square (0 for other shapes), and the
    shipped model's ln minutes."""

    terms: np.ndarray
    shape: np.ndarray
    y: np.ndarray
    ids: np.ndarray
    size: np.ndarray
    side: np.ndarray
    shipped: np.ndarray
    solves: list[ct.Solve]

    def part(self, keep: np.ndarray) -> Data:
        return Data(self.terms[keep], self.shape[keep], self.y[keep], self.ids[keep],
                    self.size[keep], self.side[keep], self.shipped[keep],
                    [s for s, k in zip(self.solves, keep, strict=True) if k])

    @property
    def columns(self) -> np.ndarray:
        """What the trees may split on: every term and the step-log shape."""
        return np.column_stack([self.terms, self.shape])


def load(store: Path, timed: Sequence[ct.Timed], kind: str) -> Data:
    """The graded puzzles of ``timed`` in ``store`` (nothing is graded here)."""
    weights = scoring.default_weights()
    puzzles = grade_all([Rated(t.path, t.minutes) for t in timed], store, jobs=1,
                        timeout_s=6.0, grade=False)
    found, _ = ct.solves(store, puzzles, SEED, weights, kind)
    model = default_model(kind)
    logs = sqlite3.connect(f"file:{store / 'steps.sqlite'}?mode=ro", uri=True)
    shapes = []
    for s in found:
        (text,) = logs.execute("SELECT log FROM logs WHERE key = ?", (s.sample.key,)).fetchone()
        shapes.append(step_shape(json.loads(text)["steps"], s.clues.width, s.clues.height))
    return Data(
        terms=np.array([s.features for s in found]),
        shape=np.array(shapes),
        y=np.log([s.measured for s in found]),
        ids=np.array([s.posted or 0 for s in found], float),
        size=np.array([math.log(s.clues.width * s.clues.height / 400.0) for s in found]),
        side=np.array([s.clues.width if s.clues.width == s.clues.height else 0 for s in found]),
        shipped=np.array([model.log_minutes(s.sample.terms, s.clues, weights) for s in found]),
        solves=found,
    )


# -- the trials --------------------------------------------------------------------------------
#: a fitted trial: ln minutes of the puzzles of a Data
Trial = Callable[[Data], np.ndarray]


def line_on(train: Data, target: np.ndarray, extra: Callable[[Data], np.ndarray]) -> Trial:
    """The shipped model plus a least-squares line in ``extra``'s columns fitted to its
    residuals."""
    coefficients = ct.least_squares(extra(train), target - train.shipped)
    return lambda d: d.shipped + ct.predict(coefficients, extra(d))


def size_levels(d: Data) -> np.ndarray:
    return np.column_stack([(d.side == side).astype(float) for side in SIDES])


BINS = 16
#: leaves hold at least this many training puzzles
MIN_LEAF = 30


@dataclass(frozen=True)
class Split:
    column: int
    below: int  # bin codes up to this go left
    left: float
    right: float


def _best_split(codes: np.ndarray, residual: np.ndarray) -> Split | None:
    """The split of one column at one bin edge that most lowers the squared error."""
    best, found = 0.0, None
    n, total = len(residual), float(residual.sum())
    for column in range(codes.shape[1]):
        sums = np.cumsum(np.bincount(codes[:, column], weights=residual, minlength=BINS))[:-1]
        counts = np.cumsum(np.bincount(codes[:, column], minlength=BINS))[:-1].astype(float)
        ok = (counts >= MIN_LEAF) & (n - counts >= MIN_LEAF)
        if not ok.any():
            continue
        gain = np.where(ok, sums**2 / np.maximum(counts, 1) + (total - sums) ** 2
                        / np.maximum(n - counts, 1), -1.0)
        at = int(np.argmax(gain))
        if gain[at] > best:
            best = float(gain[at])
            found = Split(column, at, sums[at] / counts[at], (total - sums[at]) / (n - counts[at]))
    return found


def boost(train: Data, target: np.ndarray, rounds: int, rate: float, depth: int) -> Trial:
    """Gradient-boosted regression trees (depth 1 or 2, squared error) on the shipped
    model's residuals, each column cut at the quantiles of its training values."""
    columns = train.columns
    edges = [np.unique(np.quantile(columns[:, j], np.linspace(0, 1, BINS + 1)[1:-1]))
             for j in range(columns.shape[1])]

    def codes(d: Data) -> np.ndarray:
        x = d.columns
        return np.column_stack([np.searchsorted(e, x[:, j], side="right")
                                for j, e in enumerate(edges)])

    def value(split: Split, c: np.ndarray) -> np.ndarray:
        return np.where(c[:, split.column] <= split.below, rate * split.left, rate * split.right)

    train_codes = codes(train)
    residual = target - train.shipped
    trees: list[tuple[Split, Split | None, Split | None]] = []
    for _ in range(rounds):
        root = _best_split(train_codes, residual)
        if root is None:
            break
        left = train_codes[:, root.column] <= root.below
        children: list[Split | None] = [None, None]
        step = value(root, train_codes)
        if depth > 1:
            for i, side in enumerate((left, ~left)):
                children[i] = _best_split(train_codes[side], residual[side])
                if children[i] is not None:
                    step[side] = value(children[i], train_codes[side])  # type: ignore[arg-type]
        trees.append((root, children[0], children[1]))
        residual = residual - step

    def trial(d: Data) -> np.ndarray:
        c, out = codes(d), d.shipped.copy()
        for root, low, high in trees:
            step = value(root, c)
            left = c[:, root.column] <= root.below
            for child, side in ((low, left), (high, ~left)):
                if child is not None:
                    step[side] = value(child, c[side])
            out += step
        return out

    return trial


def trials(train: Data, kind: str) -> dict[str, Trial]:
    """Every trial, fitted on the training split only."""
    target = train.y
    era: Trial | None = None
    if kind == "black-and-white":
        names = list(default_model(kind).coefficients)
        drift = ct.fit_drift(train.solves, names)
        if drift is not None:
            target = ct.log_minutes(train.solves, drift)
            era = lambda d: d.shipped + drift.curve(  # noqa: E731
                np.where(d.ids > 0, d.ids, drift.newest), d.size)
    found: dict[str, Trial] = {"shipped": lambda d: d.shipped}
    found["+ step-log shape (jump, axis_switch, open_ratio)"] = line_on(
        train, target, lambda d: d.shape[:, [SHAPE.index(n) for n in
                                              ("jump", "axis_switch", "open_ratio")]])
    found["+ step-log shape (all ten)"] = line_on(train, target, lambda d: d.shape)
    found["+ step-log shape (all ten, and each *size)"] = line_on(
        train, target, lambda d: np.column_stack([d.shape, d.shape * d.size[:, None]]))
    found["size levels"] = line_on(train, target, size_levels)
    for depth, rounds, rate in ((1, 200, 0.1), (2, 20, 0.5), (2, 60, 0.2)):
        found[f"trees: {rounds} of depth {depth}, rate {rate}"] = boost(
            train, target, rounds, rate, depth)
    if era is not None:
        found["era known (diagnostic, not a model)"] = era
    return found


# -- the figures -------------------------------------------------------------------------------
def rounded(log_minutes: np.ndarray) -> np.ndarray:
    """Minutes as ``grade`` prints them (grader/minutes.py: tenths under ten, whole above)."""
    minutes = np.exp(np.clip(log_minutes, -5.0, 12.0))
    return np.where(minutes < 10, np.maximum(np.round(minutes, 1), 0.1), np.round(minutes))


def pooled(predicted: np.ndarray, measured: np.ndarray, groups: Sequence[np.ndarray]) -> float:
    """bench_minutes.py's pooled rho: the rho within each size, weighted by its count."""
    total = sum(len(g) for g in groups)
    return sum(len(g) * spearman(list(predicted[g]), list(measured[g])) for g in groups) / total


def figures(predicted: np.ndarray, d: Data, reference: np.ndarray | None = None) -> str:
    """median |ln|, sd of ln, rho across the square sizes, the pooled rho and its 90%
    interval, each size's rho; with ``reference``, the paired 90% intervals of the change."""
    square = np.isin(d.side, SIDES)
    measured, p = np.exp(d.y[square]), predicted[square]
    side = d.side[square]
    error = np.log(measured / p)
    groups = [np.where(side == s)[0] for s in SIDES]
    rng = np.random.default_rng(47)
    draws = [[rng.integers(0, len(g), len(g)) for g in groups] for _ in range(RESAMPLES)]
    resampled = [[g[i] for g, i in zip(groups, draw, strict=True)] for draw in draws]
    spread = [pooled(p, measured, r) for r in resampled]
    # a resample of a small size may repeat one value: it has no rho, and is left out
    low, high = np.nanpercentile(spread, [5, 95])
    text = (f"|ln| {np.median(np.abs(error)):.3f}  sd {np.std(error, ddof=1):.3f}  "
            f"across {spearman(list(p), list(measured)):+.4f}  "
            f"pooled {pooled(p, measured, groups):+.4f} ({low:+.3f} .. {high:+.3f})  "
            + " ".join(f"{s}:{spearman(list(p[g]), list(measured[g])):+.3f}"
                       for s, g in zip(SIDES, groups, strict=True)))
    if reference is not None:
        ref = reference[square]
        changes = []
        for r in resampled:
            every = np.concatenate(r)
            changes.append((pooled(p, measured, r) - pooled(ref, measured, r),
                            np.std(np.log(measured[every] / p[every]), ddof=1)
                            - np.std(np.log(measured[every] / ref[every]), ddof=1)))
        (p5, p95), (s5, s95) = np.nanpercentile(np.array(changes), [5, 95], axis=0).T
        text += f"\n    {'':50s} change: pooled {p5:+.4f} .. {p95:+.4f}, sd {s5:+.4f} .. {s95:+.4f}"
    return text


def tails(predicted: np.ndarray, d: Data) -> str:
    """Whether a few puzzles make the sd: the sd of ln(measured / predicted) over the square
    sizes, without its worst 5%, the sd a normal spread of its median |deviation| would have,
    and the excess kurtosis (0 for a normal spread)."""
    square = np.isin(d.side, SIDES)
    error = d.y[square] - np.log(predicted[square])
    deviation = error - error.mean()
    kept = np.sort(deviation**2)[: len(error) - len(error) // 20]
    robust = 1.4826 * np.median(np.abs(error - np.median(error)))
    kurtosis = np.mean(deviation**4) / np.mean(deviation**2) ** 2 - 3.0
    return (f"sd {np.std(error, ddof=1):.3f}, without the worst 5% "
            f"{math.sqrt(kept.sum() / (len(kept) - 1)):.3f}, from the median deviation "
            f"{robust:.3f}; excess kurtosis {kurtosis:+.2f}")


def report(found: dict[str, Trial], d: Data) -> None:
    shipped = rounded(found["shipped"](d))
    print(f"  the shipped model's errors: {tails(shipped, d)}")
    for name, trial in found.items():
        predicted = rounded(trial(d))
        print(f"  {name:50s} {figures(predicted, d, None if name == 'shipped' else shipped)}",
              flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path", type=Path, help="the scrape's griddlers_net folder")
    parser.add_argument("--train", type=Path, required=True,
                        help="calibrate_times.py's graded store for the kind")
    parser.add_argument("--kind", choices=ct.KINDS, default="black-and-white")
    parser.add_argument("--check", type=Path, help="a graded store of the held-out puzzles")
    parser.add_argument("--grade-check", action="store_true",
                        help="grade the held-out puzzles the --check store lacks")
    args = parser.parse_args(argv)
    if not args.path.is_dir() or not (args.train / "steps.sqlite").is_file():
        print(f"{args.path} or {args.train}/steps.sqlite: not found", file=sys.stderr)
        return 2
    folder = args.path / "2_colors" if args.kind == "black-and-white" else args.path
    timed = [t for t in ct.find_timed(folder, kind=args.kind) if max(t.width, t.height) <= 50]
    data = load(args.train, ct.stratified(timed, 800, SEED), args.kind)
    held_back = np.array([s.held_back for s in data.solves])
    train = data.part(~held_back)
    found = trials(train, args.kind)
    print(f"{args.kind}: {len(train.y)} training puzzles; on the fits' held-back "
          f"{int(held_back.sum())} (fit-eligible; square 10x10..30x30 "
          f"{int(np.isin(data.side[held_back], SIDES).sum())}):")
    report(found, data.part(held_back))
    if args.check is None:
        return 0
    # every trial is fitted: only now is a held-out file opened
    held = held_out_puzzles(args.path, SIDES)[args.kind]
    if args.grade_check:
        grade_all([Rated(t.path, t.minutes) for t in held], args.check, jobs=1, timeout_s=30.0)
    check = load(args.check, held, args.kind)
    print(f"\n{args.kind}: on the {len(check.y)} held-out puzzles (ids ending in 7):")
    report(found, check)
    return 0


if __name__ == "__main__":
    sys.exit(main())
