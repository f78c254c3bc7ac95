"""Calibrate the minutes against people: griddlers.net puzzles with their members' median times.

    nice -n 10 python bench/calibrate_times.py PATH [--out DIR] [--per-stratum N] [--all]
        [--max-side S] [--jobs J] [--seed S] [--timeout SECONDS] [--fit] [--write-weights]
        [--no-drift] [--keep-terms]

PATH is a folder of griddlers.net black-and-white ``.non`` files carrying a
``medium_time "H:MM:SS"`` line (the median solving time of the members who solved the
puzzle on the site), e.g. ``puzzles/griddlers_net/2_colors`` of the lufton/non-grabber
scrape. The data has no licence: read it from where it lies, never copy it into the
project.

1. Sample: puzzles up to ``--max-side`` cells a side (50), a seeded sample of at most
   ``--per-stratum`` of each stratum (5x5, 10x10, 15x15, 20x20, 25x25, 30x30, and the
   other sizes in four bands of area), or ``--all`` of them.
2. Grade: as ``bench/calibrate_human.py`` does (the same worker, batch results database
   and ``steps.sqlite`` of compact step logs in ``--out``, one committed row a puzzle, so
   an interrupted run resumes where it stopped; a seeded shuffle, so a run stopped half
   way has graded a fair part of every stratum).
3. Split: puzzles graded ``unique`` at a rated level are split by the same seeded hash of
   their key into training (70%) and held-back (30%); the others have no minutes.
4. Fit (``--fit``): the time model of ``grader/minutes.py`` (a least-squares line in log
   minutes over the features of the step log, and the spread of the residuals for the
   range) on the training half only, to today's audience: the drift of the times with
   the posting order (:class:`Drift`) is fitted with the terms and taken out of the
   targets (``--no-drift`` leaves it in; ``--keep-terms`` refits the shipped terms);
   ``--write-weights`` writes it into ``grader/scoring.yaml``'s ``minutes`` block with a
   note naming the data and the agreement reached.
5. Report on the held-back half, per size: the median measured and predicted minutes,
   the median |ln(predicted / measured)|, the share within a factor of 2, Spearman's rho
   within the size and across all, for the model and for ``effort_minutes`` (the figure
   before), and how often the measured time falls inside [minutes_low, minutes_high].
"""

from __future__ import annotations

import argparse
import math
import random
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import held_out  # noqa: E402
import numpy as np  # noqa: E402
from calibrate_human import Rated, Sample, grade_all, load_samples, spearman  # noqa: E402

from grader import scoring  # noqa: E402
from grader.kinds import AnyPuzzle as Puzzle  # noqa: E402  (either kind)
from grader.kinds import kind_of  # noqa: E402
from grader.minutes import ClueFacts, Minutes, TimeModel, term_names, term_value  # noqa: E402

MEDIAN_TIME = re.compile(r'^medium_time\s+"?(\d+):(\d\d):(\d\d)"?\s*$', re.MULTILINE)
WIDTH = re.compile(r"^width\s+(\d+)\s*$", re.MULTILINE)
HEIGHT = re.compile(r"^height\s+(\d+)\s*$", re.MULTILINE)
COLOR_LINE = re.compile(r"^color\s", re.MULTILINE)
KINDS = ("black-and-white", "colour")
#: the sizes reported on their own (the rest in bands of area)
NAMED_SIZES = ("5x5", "10x10", "15x15", "20x20", "25x25", "30x30")
AREA_BANDS = ((225, "other <=225"), (625, "other <=625"), (1225, "other <=1225"),
              (10**9, "other >1225"))


@dataclass(frozen=True)
class Timed:
    path: Path
    minutes: float
    width: int
    height: int

    @property
    def stratum(self) -> str:
        return stratum(self.width, self.height)


def stratum(width: int, height: int) -> str:
    name = f"{width}x{height}"
    if name in NAMED_SIZES:
        return name
    area = width * height
    return next(label for limit, label in AREA_BANDS if area <= limit)


def find_timed(root: Path, *, held: bool = False, kind: str | None = None) -> list[Timed]:
    """Every ``.non`` file under ``root`` with a median time above zero, in path order:
    the files a fit may read (bench/held_out.py's rule), or with ``held`` only the
    held-out ones (ids ending in 7), for checking a fit. ``kind`` keeps the files of one
    kind (``colour``: those with ``color`` lines; ``black-and-white``: the others)."""
    found = []
    paths = held_out.held_out_files(root) if held else held_out.fitting_files(root)
    for path in paths:
        text = path.read_text(encoding="utf-8", errors="replace")
        if not held and held_out.held_out_text(path, text):
            continue
        if kind is not None and (COLOR_LINE.search(text) is not None) != (kind == "colour"):
            continue
        time, width, height = MEDIAN_TIME.search(text), WIDTH.search(text), HEIGHT.search(text)
        if not (time and width and height):
            continue
        hours, minutes, seconds = (int(v) for v in time.groups())
        total = hours * 60 + minutes + seconds / 60
        if total > 0:
            found.append(Timed(path, total, int(width.group(1)), int(height.group(1))))
    return found


def stratified(timed: Sequence[Timed], per_stratum: int, seed: int) -> list[Timed]:
    """At most ``per_stratum`` puzzles of each stratum, a seeded sample, in path order."""
    groups: dict[str, list[Timed]] = defaultdict(list)
    for item in timed:
        groups[item.stratum].append(item)
    rng = random.Random(seed)
    chosen: list[Timed] = []
    for name in sorted(groups):
        group = groups[name]
        chosen += rng.sample(group, min(per_stratum, len(group)))
    return sorted(chosen, key=lambda t: t.path)


# -- the data set ---------------------------------------------------------------------------
@dataclass
class Solve:
    """One graded, timed puzzle: its features, measured minutes and split."""

    sample: Sample
    clues: ClueFacts
    features: np.ndarray  # in NAMES order
    stratum: str

    @property
    def measured(self) -> float:
        return self.sample.vote

    @property
    def held_back(self) -> bool:
        return self.sample.held_back

    @property
    def posted(self) -> int | None:
        """The griddlers.net id, which grows with the date the puzzle was posted."""
        return held_out.file_id(Path(self.sample.file))


#: every term the fit may choose (grader/minutes.py: each feature, its square, by size)
NAMES = term_names()


def solves(out: Path, puzzles: dict[str, tuple[Puzzle, float, str]], seed: int,
           weights: scoring.Weights, kind: str | None = None
           ) -> tuple[list[Solve], Counter[str]]:
    """The graded, timed puzzles (of ``kind`` only, when given) with their features."""
    samples, left_out = load_samples(out, puzzles, seed)
    found = []
    for sample in samples:
        puzzle = puzzles[sample.key][0]
        if kind is not None and kind_of(puzzle).name != kind:
            left_out[f"not {kind}"] += 1
            continue
        clues = sample.clues or ClueFacts(puzzle.width, puzzle.height, 0, 0)
        values = np.array([term_value(name, sample.terms, clues, weights) for name in NAMES])
        found.append(Solve(sample, clues, values, stratum(puzzle.width, puzzle.height)))
    return found, left_out


def old_effort(solve: Solve, weights: scoring.Weights) -> float:
    """The figure before this model: a second a cell and three a unit of work (assumed)."""
    terms = solve.sample.terms
    return (terms.width * terms.height + 3.0 * terms.work(weights)) / 60.0


# -- the fit ------------------------------------------------------------------------------------
FOLDS = 5
#: a term joins the model when it lowers the cross-validated squared error this much
MIN_GAIN = 0.0005
#: and no more terms than this (a model people can read in scoring.yaml)
MAX_TERMS = 20


def least_squares(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    design = np.column_stack([np.ones(len(x)), x])
    coefficients, *_ = np.linalg.lstsq(design, y, rcond=None)
    return np.asarray(coefficients)


def predict(coefficients: np.ndarray, x: np.ndarray) -> np.ndarray:
    return np.asarray(coefficients[0] + x @ coefficients[1:])


def cv_error(x: np.ndarray, y: np.ndarray, folds: np.ndarray) -> float:
    """Mean squared error of ln minutes, each fold predicted from the others."""
    errors = []
    for fold in range(FOLDS):
        test = folds == fold
        coefficients = least_squares(x[~test], y[~test])
        errors.append((predict(coefficients, x[test]) - y[test]) ** 2)
    return float(np.mean(np.concatenate(errors)))


def log_minutes(group: Sequence[Solve], drift: Drift | None = None) -> np.ndarray:
    """The targets of the fit: ln measured minutes, less the era's share with ``drift``."""
    y = np.log([s.measured for s in group])
    return y if drift is None else y - drift.offset(group)


@dataclass(frozen=True)
class Drift:
    """How the members' times drift with the order puzzles were posted in.

    The griddlers.net id grows with the posting date, and the members who timed an old
    puzzle were slower than those who time a new one, on puzzles the grade cannot tell
    apart; no grade knows the date. The curve is a line in the id bending at its tertiles,
    its slope also growing with the size (times ln(cells / 400)), fitted together with the
    model's terms on the training puzzles (fit-eligible ones only). ``offset`` is the ln
    minutes a puzzle's era adds over a puzzle of its size posted last: taken out of the
    targets, the model predicts today's audience. A puzzle with no id gets no offset.
    """

    knots: tuple[float, ...]
    newest: float
    coefficients: tuple[float, ...]

    def basis(self, ids: np.ndarray, sizes: np.ndarray) -> np.ndarray:
        """The curve's columns: the id, a hinge at each knot, and each times the size."""
        z = ids / ID_SCALE
        hinges = np.column_stack([z, *(np.maximum(0.0, z - k / ID_SCALE) for k in self.knots)])
        return np.column_stack([hinges, hinges * sizes[:, None]])

    def curve(self, ids: np.ndarray, sizes: np.ndarray) -> np.ndarray:
        """The offset at these ids and ln(cells / 400) sizes."""
        ids, sizes = np.asarray(ids, float), np.asarray(sizes, float)
        now = np.full(len(ids), self.newest)
        weights = np.array(self.coefficients)
        return np.asarray((self.basis(ids, sizes) - self.basis(now, sizes)) @ weights)

    def offset(self, group: Sequence[Solve]) -> np.ndarray:
        ids = np.array([s.posted if s.posted is not None else self.newest for s in group], float)
        return self.curve(ids, _sizes(group))


#: ids divided by this before the curve reads them (well-conditioned least squares)
ID_SCALE = 1e5
#: where the drift curve may bend: these quantiles of the training puzzles' ids
DRIFT_QUANTILES = (1 / 3, 2 / 3)


def _sizes(group: Sequence[Solve]) -> np.ndarray:
    return np.array([math.log(max(s.clues.width * s.clues.height, 1) / 400.0) for s in group])


def fit_drift(train: Sequence[Solve], names: Sequence[str]) -> Drift | None:
    """The drift curve, fitted by least squares together with the terms ``names`` (so
    what the puzzles' features explain is not taken for the era); None without ids."""
    dated = [s for s in train if s.posted is not None]
    if len(dated) < 50:
        return None
    ids = np.array([s.posted for s in dated], float)
    knots = tuple(float(np.quantile(ids, q)) for q in DRIFT_QUANTILES)
    shape = Drift(knots, float(ids.max()), ())
    columns = [NAMES.index(n) for n in names]
    features = np.array([s.features for s in dated])[:, columns]
    basis = shape.basis(ids, _sizes(dated))
    coefficients = least_squares(np.column_stack([features, basis]), log_minutes(dated))
    return Drift(knots, float(ids.max()),
                 tuple(float(c) for c in coefficients[1 + len(columns):]))


def describe_drift(drift: Drift, train: Sequence[Solve]) -> str:
    """The curve at the training ids' 0/25/50/75th percentiles, for 10x10, 20x20, 30x30."""
    ids = np.quantile([s.posted for s in train if s.posted is not None], [0, 0.25, 0.5, 0.75])
    lines = ["  ln minutes over a puzzle posted last, at the id's 0/25/50/75th percentile "
             f"({', '.join(f'{i:.0f}' for i in ids)}):"]
    for side in (10, 20, 30):
        sizes = np.full(len(ids), math.log(side * side / 400.0))
        lines.append(f"    {side}x{side}: " + " ".join(
            f"{v:+.3f}" for v in drift.curve(ids, sizes)))
    return "\n".join(lines)


def forward_selection(train: Sequence[Solve], y: np.ndarray | None = None
                      ) -> tuple[list[str], list[str]]:
    """Features in the order they joined (each the best next one by cross-validated
    error on the training half, of ln minutes or of the targets ``y``), and a log line
    per round."""
    x = np.array([s.features for s in train])
    y = log_minutes(train) if y is None else y
    folds = np.array([int(s.sample.key[:8], 16) % FOLDS for s in train])
    chosen: list[int] = []
    best = cv_error(x[:, []], y, folds)
    log = [f"  start (intercept only): cv error {best:.4f}"]
    while len(chosen) < MAX_TERMS:
        trials = {i: cv_error(x[:, [*chosen, i]], y, folds)
                  for i in range(len(NAMES)) if i not in chosen}
        if not trials:
            break
        pick = min(trials, key=lambda i: trials[i])
        if best - trials[pick] < MIN_GAIN:
            log.append(f"  stop: the best next, {NAMES[pick]}, gains {best - trials[pick]:.4f}")
            break
        chosen.append(pick)
        log.append(f"  + {NAMES[pick]:20s} cv error {trials[pick]:.4f} "
                   f"(gain {best - trials[pick]:.4f})")
        best = trials[pick]
    return [NAMES[i] for i in chosen], log


def fit_model(train: Sequence[Solve], names: Sequence[str], y: np.ndarray | None = None
              ) -> TimeModel:
    """Least squares on the training half (of ln minutes, or of the targets ``y``); the
    range from its residuals' quartiles."""
    columns = [NAMES.index(n) for n in names]
    x = np.array([s.features for s in train])[:, columns]
    y = log_minutes(train) if y is None else y
    coefficients = least_squares(x, y)
    residuals = y - predict(coefficients, x)
    low, high = np.percentile(residuals, [25, 75])
    return TimeModel(
        intercept=round(float(coefficients[0]), 4),
        coefficients={n: round(float(c), 4) for n, c in zip(names, coefficients[1:], strict=True)},
        low=round(float(min(low, 0.0)), 4),
        high=round(float(max(high, 0.0)), 4),
    )


# -- the report ---------------------------------------------------------------------------------
def estimates(model: TimeModel, group: Sequence[Solve], weights: scoring.Weights
              ) -> list[Minutes]:
    return [model.estimate(s.sample.terms, s.clues, weights) for s in group]


@dataclass(frozen=True)
class Agreement:
    n: int
    measured: float  # median measured minutes
    predicted: float  # median predicted minutes
    log_error: float  # median |ln(predicted / measured)|
    within_2: float  # share within a factor of 2
    rho: float
    inside: float  # share of measured inside [low, high] (nan without a range)


def agreement(predicted: Sequence[float], measured: Sequence[float],
              ranges: Sequence[tuple[float, float]] | None = None) -> Agreement:
    p, m = np.asarray(predicted, float), np.asarray(measured, float)
    ratio = np.abs(np.log(np.maximum(p, 1e-3) / m))
    inside = float("nan") if ranges is None else float(np.mean(
        [low <= v <= high for v, (low, high) in zip(m, ranges, strict=True)]))
    return Agreement(len(p), float(np.median(m)), float(np.median(p)), float(np.median(ratio)),
                     float(np.mean(ratio <= np.log(2))), spearman(list(p), list(m)), inside)


GROUPS = (*NAMED_SIZES, *(label for _, label in AREA_BANDS))


def table(group: Sequence[Solve], model: TimeModel, weights: scoring.Weights) -> list[str]:
    head = (f"{'size':13s} {'n':>5s} {'measured':>8s} | {'before':>7s} {'|ln|':>5s} {'x2':>4s} "
            f"{'rho':>6s} | {'minutes':>7s} {'|ln|':>5s} {'x2':>4s} {'rho':>6s} {'in IQR':>6s}")
    lines = [head]
    for name in ("all", *GROUPS):
        part = [s for s in group if name in ("all", s.stratum)]
        if len(part) < 3:
            continue
        measured = [s.measured for s in part]
        before = agreement([old_effort(s, weights) for s in part], measured)
        minutes = estimates(model, part, weights)
        after = agreement([e.minutes for e in minutes], measured,
                          [(e.low, e.high) for e in minutes])
        lines.append(
            f"{name:13s} {after.n:5d} {after.measured:8.1f} | {before.predicted:7.1f} "
            f"{before.log_error:5.2f} {before.within_2:4.0%} {before.rho:+6.3f} | "
            f"{after.predicted:7.1f} {after.log_error:5.2f} {after.within_2:4.0%} "
            f"{after.rho:+6.3f} {after.inside:6.0%}")
    return lines


def markdown_table(group: Sequence[Solve], model: TimeModel, weights: scoring.Weights
                   ) -> list[str]:
    """:func:`table` as Markdown, for the README."""
    lines = ["| size | n | measured (median min) | before: min, \\|ln\\|, x2, rho | "
             "minutes: min, \\|ln\\|, x2, rho | in range |",
             "|---|---|---|---|---|---|"]
    for row in table(group, model, weights)[1:]:
        name, rest = row[:13].strip(), row[13:].replace("|", " ").split()
        n, measured, b_min, b_ln, b_x2, b_rho, m_min, m_ln, m_x2, m_rho, inside = rest
        lines.append(f"| {name} | {n} | {measured} | {b_min}, {b_ln}, {b_x2}, {b_rho} | "
                     f"{m_min}, {m_ln}, {m_x2}, {m_rho} | {inside} |")
    return lines


def ablation(train: Sequence[Solve], test: Sequence[Solve], names: Sequence[str],
             weights: scoring.Weights, y: np.ndarray | None = None) -> list[str]:
    """Held-back agreement with each chosen feature left out, and with each other one
    added (refitted to the targets ``y`` when given): what every feature earns on data
    the fit did not see."""
    def score(use: Sequence[str]) -> str:
        model = fit_model(train, use, y)
        measured = [s.measured for s in test]
        a = agreement([e.minutes for e in estimates(model, test, weights)], measured)
        within = [spearman([e.minutes for e in estimates(model, part, weights)],
                           [s.measured for s in part])
                  for size in NAMED_SIZES[1:]
                  if len(part := [s for s in test if s.stratum == size]) >= 3]
        return (f"|ln| {a.log_error:.3f}, x2 {a.within_2:.1%}, rho {a.rho:+.3f}, "
                f"lowest rho within 10x10..30x30 {min(within, default=float('nan')):+.3f}")

    lines = [f"  model as fitted:            {score(names)}"]
    for name in names:
        lines.append(f"  without {name:19s} {score([n for n in names if n != name])}")
    for name in NAMES:
        if name not in names and "^" not in name and "*" not in name:
            lines.append(f"  with {name:22s} {score([*names, name])}")
    return lines


def describe(model: TimeModel) -> str:
    terms = " ".join(f"{c:+g} {n}" for n, c in model.coefficients.items())
    return (f"ln minutes = {model.intercept:+g} {terms}; range x{np.exp(model.low):.2f} .. "
            f"x{np.exp(model.high):.2f}")


SCORING = ROOT / "grader" / "scoring.yaml"


def write_model(model: TimeModel, note: str, path: Path = SCORING,
                kind: str = "black-and-white") -> Path:
    """The kind's block of ``grader/scoring.yaml`` (``minutes``, ``colour_minutes``) and
    the note above it replaced."""
    from grader.atomic import atomic_write
    from grader.minutes import MODEL_BLOCKS

    name = MODEL_BLOCKS[kind]
    text = path.read_text(encoding="utf-8")
    terms = "".join(f"    {term}: {value}\n" for term, value in model.coefficients.items())
    block = (f"{note}{name}:\n  intercept: {model.intercept}\n  terms:\n{terms}"
             f"  range: [{model.low}, {model.high}]\n")
    heading = "# Minutes fitted" if kind == "black-and-white" else "# Colour minutes"
    pattern = re.compile(rf"(?m)^{heading}.*\n(?:#.*\n)*{name}:\n(?:[ ]+.*\n)*")
    if not pattern.search(text):
        raise ValueError(f"{path} has no {name} block with its '{heading}' note")
    atomic_write(path, pattern.sub(lambda _: block, text, count=1).encode("utf-8"))
    return path


def fit_and_report(args: argparse.Namespace, puzzles: dict[str, tuple[Puzzle, float, str]]
                   ) -> int:
    from grader.minutes import default_model

    weights = scoring.default_weights()
    found, left_out = solves(args.out, puzzles, args.seed, weights, args.kind)
    train = [s for s in found if not s.held_back]
    test = [s for s in found if s.held_back]
    if len(train) < 50 or len(test) < 10:
        print(f"{args.out}: too few graded puzzles to fit and report ({len(found)})",
              file=sys.stderr)
        return 2
    skipped = ", ".join(f"{n} {k}" for k, n in sorted(left_out.items())) or "none"
    print(f"{len(found)} timed puzzles graded unique at a rated level: {len(train)} training, "
          f"{len(test)} held back (left out: {skipped})")
    model = default_model(args.kind)
    targets = None
    if args.fit:
        if args.keep_terms:
            names, log = list(model.coefficients), ["  the shipped model's terms, refitted"]
        else:
            names, log = forward_selection(train)
        drift = None if args.no_drift else fit_drift(train, names)
        if drift is not None:
            # the era out of the targets, then the terms chosen again on what is left
            targets = log_minutes(train, drift)
            if not args.keep_terms:
                names, log = forward_selection(train, targets)
            print("\nThe drift with the posting order, fitted with the terms on the training "
                  "half and taken out of its targets:")
            print(describe_drift(drift, train))
        print("\nForward selection on the training half (5-fold cross-validated error of "
              "ln minutes):")
        print("\n".join(log))
        model = fit_model(train, names, targets)
    print(f"\nModel: {describe(model)}")
    print("\nHeld back: median measured minutes; before = effort_minutes (a second a cell, "
          "three a unit of work);\n|ln| = median |ln(predicted / measured)|, x2 = share "
          "within a factor of 2, rho = Spearman within the row;\nin IQR = share of measured "
          "medians inside [minutes_low, minutes_high]")
    print("\n".join(table(test, model, weights)))
    if args.markdown:
        print("\n".join(markdown_table(test, model, weights)))
    print("\nSame on the training half:")
    print("\n".join(table(train, model, weights)[:2]))
    if args.fit:
        print("\nWhat each feature earns on the held-back half (refitted without / with it):")
        print("\n".join(ablation(train, test, list(model.coefficients), weights, targets)))
    if args.fit and args.write_weights:
        a = agreement([e.minutes for e in estimates(model, test, weights)],
                      [s.measured for s in test])
        sample = "every puzzle" if args.all else f"--per-stratum {args.per_stratum}"
        heading = "Minutes fitted" if args.kind == "black-and-white" else "Colour minutes fitted"
        parts = args.path.resolve().parts
        folder = "/".join(parts[parts.index("puzzles"):] if "puzzles" in parts else parts[-1:])
        note = (
            f"# {heading} by bench/calibrate_times.py to griddlers.net members' median\n"
            f"#   solving times (lufton/non-grabber, {folder}, {args.kind},\n#   sides up "
            f"to {args.max_side}; {sample}, --seed {args.seed}; no id ending in 7 read):\n#   "
            f"{len(train)} training puzzles, {len(test)} held back by a seeded "
            f"hash of the clues; held back: median\n#   |ln(predicted / measured)| "
            f"{a.log_error:.3f}, {a.within_2:.0%} within a factor of 2, Spearman rho "
            f"{a.rho:+.3f}.\n"
            + ("" if targets is None else
               "# Fitted to today's audience: the drift of the times with the posting order\n"
               "#   (a curve in the id, fitted with the terms) taken out of the targets"
               + (", the\n#   shipped terms refitted" if args.keep_terms else "") + ".\n")
            + "# ln(minutes) = intercept + sum of terms (grader/minutes.py FEATURES names them,\n"
            "#   each also as name^2 or name*size: times ln(cells / 400));\n"
            "# minutes_low/high = minutes * exp(range): the quartiles of the training "
            "residuals,\n#   the range holding half of the measured medians around a "
            "prediction.\n"
        )
        print(f"\nmodel written to {write_model(model, note, kind=args.kind)}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path", type=Path, help="folder of griddlers.net .non files with times")
    parser.add_argument("--out", type=Path, default=Path("/tmp/calibrate_times"))
    parser.add_argument("--per-stratum", type=int, default=400,
                        help="puzzles sampled from each stratum of sizes (default 400)")
    parser.add_argument("--all", action="store_true", help="every puzzle, no sample")
    parser.add_argument("--max-side", type=int, default=50)
    parser.add_argument("--kind", choices=KINDS, default="black-and-white",
                        help="the kind of puzzle whose minutes are fitted (colour: the files "
                             "with color lines)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=6.0)
    parser.add_argument("--grade-only", action="store_true", help="grade, then stop")
    parser.add_argument("--no-grade", action="store_true", help="report on what is graded")
    parser.add_argument("--fit", action="store_true", help="fit the model on the training split")
    parser.add_argument("--write-weights", action="store_true", help="save it (with --fit)")
    parser.add_argument("--no-drift", action="store_true",
                        help="fit ln minutes as measured, the posting order's drift left in")
    parser.add_argument("--keep-terms", action="store_true",
                        help="refit the shipped model's terms instead of choosing them")
    parser.add_argument("--markdown", action="store_true", help="the table in Markdown too")
    args = parser.parse_args(argv)
    if not args.path.is_dir():
        print(f"{args.path}: no such folder", file=sys.stderr)
        return 2
    timed = [t for t in find_timed(args.path, kind=args.kind)
             if max(t.width, t.height) <= args.max_side]
    if not timed:
        print(f"{args.path}: no .non file with a medium_time line", file=sys.stderr)
        return 2
    chosen = timed if args.all else stratified(timed, args.per_stratum, args.seed)
    counts = Counter(t.stratum for t in chosen)
    print(f"{len(chosen)} of {len(timed)} timed puzzles under {args.path}: "
          + ", ".join(f"{k} {counts[k]}" for k in sorted(counts)), file=sys.stderr)
    rated = [Rated(t.path, t.minutes) for t in chosen]
    puzzles = grade_all(rated, args.out, jobs=args.jobs, timeout_s=args.timeout,
                        grade=not args.no_grade)
    if args.grade_only:
        return 0
    return fit_and_report(args, puzzles)


if __name__ == "__main__":
    sys.exit(main())
