"""Where a mosaic's rating sits within its level: the medians the mosaic ladder's
``score_bands.middles`` take (grader/mosaic/ladder.yaml), measured on mosaics made at every
level from seeded random pictures and on the bundled ones.

There are no votes or timed solves of mosaics to fit the bands on, so the middles are the
median rating of each level on a reproducible sample: half of a level's mosaics then show
its upper star, as half of a level's nonograms do on their fitted thresholds. The rating
grows with the size more than with the level (a made easy 20x20 rates above a hard 10x10),
so the medians need not rise with the level; the middles must (a harder level's upper star
never comes cheaper), so levels whose medians fall are pooled (pool-adjacent-violators, the
median of the pooled ratings). The spread is the median distance of a rating from its
level's middle: a typical mosaic then sits at about a quarter or three quarters of its band.
Rerun when the ladder's rungs or weights change:

    nice python bench/mosaic_bands.py --sizes 10 15 20 --seeds 4 --seconds 20 \
        --write bench/results/mosaic-bands-2026-11-29.md
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grader.mosaic.grading import grade, work_figures  # noqa: E402
from grader.mosaic.ladder import mosaic_ladder  # noqa: E402
from grader.mosaic.making import LEVELS, make, random_picture  # noqa: E402
from grader.mosaic_model import MosaicPuzzle  # noqa: E402
from grader.results import Budget  # noqa: E402


def bundled() -> list[MosaicPuzzle]:
    from grader.kinds import read_puzzles

    puzzles: list[MosaicPuzzle] = []
    for path in sorted((ROOT / "puzzles" / "mosaic").glob("*.yaml")):
        puzzles.extend(p for p in read_puzzles(path) if isinstance(p, MosaicPuzzle))
    return puzzles


def pooled_middles(ratings: dict[str, list[float]]) -> dict[str, float]:
    """Each level's median rating, levels pooled where the medians fall (pool adjacent
    violators), so the middles never fall as the level rises."""
    blocks: list[tuple[list[str], list[float]]] = []
    for level, values in ratings.items():
        if not values:
            continue
        blocks.append(([level], sorted(values)))
        while len(blocks) > 1 and (statistics.median(blocks[-2][1])
                                   > statistics.median(blocks[-1][1])):
            levels, values = blocks.pop()
            blocks[-1] = (blocks[-1][0] + levels, sorted(blocks[-1][1] + values))
    return {level: round(statistics.median(values), 3)
            for levels, values in blocks for level in levels}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 15, 20])
    parser.add_argument("--seeds", type=int, default=4, help="pictures a size")
    parser.add_argument("--seconds", type=float, default=20.0, help="budget of one make")
    parser.add_argument("--write", type=Path, help="also write the table to this file")
    args = parser.parse_args(argv)
    ladder = mosaic_ladder()
    ratings: dict[str, list[float]] = {level: [] for level in LEVELS}
    began = time.monotonic()
    puzzles = bundled()
    for size in args.sizes:
        for seed in range(args.seeds):
            picture = random_picture(size, size, seed)
            for level in LEVELS:
                made = make(picture, level, seed=seed, budget=Budget(seconds=args.seconds))
                if made.grade.graded:
                    puzzles.append(made.puzzle)
    for puzzle in puzzles:
        graded = grade(puzzle, Budget(seconds=args.seconds))
        if graded.graded and graded.level in ratings:
            ratings[graded.level].append(work_figures(puzzle, graded.steps, ladder)[0])
    rated = {level: ratings[level] for level in LEVELS if level != "needs-guessing"}
    middles = pooled_middles(rated)
    spread = statistics.median(abs(v - middles[level]) for level, values in rated.items()
                               for v in values)
    lines = [f"{len(puzzles)} mosaics ({', '.join(map(str, args.sizes))} a side, {args.seeds} "
             f"pictures a size, each made at every level, and the bundled ones) in "
             f"{time.monotonic() - began:.0f} s", "",
             "| level | mosaics | rating min | median | max | middle (pooled) | middle now |",
             "|---|---|---|---|---|---|---|"]
    for level in LEVELS:
        values = sorted(ratings[level])
        now = ladder.bands.middles.get(level, "")
        if values:
            lines.append(f"| {level} | {len(values)} | {values[0]:.3f} | "
                         f"{statistics.median(values):.3f} | {values[-1]:.3f} | "
                         f"{middles.get(level, '')} | {now} |")
        else:
            lines.append(f"| {level} | 0 | | | | | {now} |")
    lines += ["", f"spread (median distance from the level's middle): {spread:.3f}, "
              f"now {ladder.bands.spread}"]
    text = "\n".join(lines)
    print(text)
    if args.write:
        command = "python bench/mosaic_bands.py " + " ".join(argv or sys.argv[1:])
        args.write.write_text(f"# Mosaic score bands\n\n`{command}`\n\n{text}\n", "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
