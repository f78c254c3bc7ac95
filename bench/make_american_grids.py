"""Make American-style 15x15 crossword grids and prove each fillable from ``wamerican``.

    python bench/make_american_grids.py [--count 30] [--seed 1] [--prove-seconds 60]
                                        [--words /usr/share/dict/american-english]
                                        [--out bench/data/american-15]

A grid is American-style when its blocks are symmetric under a half turn (rotational
symmetry), 16-20 % of its cells are blocks, every white cell is in an across and a down
entry, every entry has 3 to 15 letters and the white cells are connected. Blocks are placed
in symmetric pairs at random (seeded) and a placement that breaks a rule is undone.

A grid is kept only when the filler finds a fill from the words list alone (read as
``nonopress fill --words`` reads it: no names, abbreviations in capitals or possessives);
the fill is written under the grid as ``;`` comment lines, so every file carries its own
proof (``tests/test_american_grids.py`` checks each proof against the dictionary). The
grids and fills are Nonopress's own (MIT).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from grader.results import Budget  # noqa: E402
from words.fill import fill  # noqa: E402
from words.grid import Grid, parse_grid  # noqa: E402
from words.wordlist import load_word_list  # noqa: E402

SIDE = 15
MIN_ENTRY = 3
BLOCK_SHARE = (0.16, 0.20)
OUT = ROOT / "bench" / "data" / "american-15"


def runs_ok(cells: list[list[bool]]) -> bool:
    """Every run of white cells, across and down, is 0 or at least MIN_ENTRY long."""
    lines = [row[:] for row in cells] + [[cells[r][c] for r in range(SIDE)] for c in range(SIDE)]
    for line in lines:
        run = 0
        for white in [*line, False]:
            if white:
                run += 1
                continue
            if 0 < run < MIN_ENTRY:
                return False
            run = 0
    return True


def connected(cells: list[list[bool]]) -> bool:
    whites = [(r, c) for r in range(SIDE) for c in range(SIDE) if cells[r][c]]
    if not whites:
        return False
    seen = {whites[0]}
    stack = [whites[0]]
    while stack:
        r, c = stack.pop()
        for nr, nc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if 0 <= nr < SIDE and 0 <= nc < SIDE and cells[nr][nc] and (nr, nc) not in seen:
                seen.add((nr, nc))
                stack.append((nr, nc))
    return len(seen) == len(whites)


def long_runs(cells: list[list[bool]], cap: int) -> list[list[tuple[int, int]]]:
    """The white runs (as cell lists) longer than ``cap``, across and down."""
    found: list[list[tuple[int, int]]] = []
    for lines in ([[(r, c) for c in range(SIDE)] for r in range(SIDE)],
                  [[(r, c) for r in range(SIDE)] for c in range(SIDE)]):
        for line in lines:
            run: list[tuple[int, int]] = []
            for cell in [*line, None]:
                if cell is not None and cells[cell[0]][cell[1]]:
                    run.append(cell)
                    continue
                if len(run) > cap:
                    found.append(run)
                run = []
    return found


def american_grid(rng: random.Random) -> Grid | None:
    """One random grid meeting the rules, or None when the placement got stuck.

    Blocks go first into runs longer than a cap drawn for the grid (so that, as in
    published grids, most entries are short and a few long), then anywhere."""
    cells = [[True] * SIDE for _ in range(SIDE)]
    low = int(BLOCK_SHARE[0] * SIDE * SIDE + 0.999)
    high = int(BLOCK_SHARE[1] * SIDE * SIDE)
    target = rng.randint(low, high)
    cap = rng.choice((7, 8, 8, 9, 9, 10, 11, 12, 13, 15))
    blocks = 0
    for _ in range(4000):
        runs = long_runs(cells, cap)
        if blocks >= target and not runs:
            break
        if runs:
            run = rng.choice(runs)
            r, c = run[rng.randrange(len(run))]
        else:
            r, c = rng.randrange(SIDE), rng.randrange(SIDE)
        mirror = (SIDE - 1 - r, SIDE - 1 - c)
        if not cells[r][c]:
            continue
        cells[r][c] = cells[mirror[0]][mirror[1]] = False
        if runs_ok(cells) and connected(cells):
            blocks += 1 if (r, c) == mirror else 2
        else:
            cells[r][c] = cells[mirror[0]][mirror[1]] = True
    if not low <= blocks <= high or long_runs(cells, cap):
        return None
    rows = tuple("".join("." if white else "#" for white in row) for row in cells)
    return Grid(rows)


def describe(grid: Grid) -> str:
    blocks = sum(row.count("#") for row in grid.rows)
    lengths = [s.length for s in grid.slots]
    return (f"{blocks} blocks ({blocks / (SIDE * SIDE):.0%}), {len(lengths)} entries "
            f"of {min(lengths)}-{max(lengths)} letters")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--prove-seconds", type=float, default=60.0)
    parser.add_argument("--words", default="/usr/share/dict/american-english")
    parser.add_argument("--out", default=str(OUT))
    args = parser.parse_args()
    words = load_word_list(args.words)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(args.seed)
    kept = tried = 0
    while kept < args.count:
        grid = american_grid(rng)
        if grid is None:
            continue
        tried += 1
        started = time.perf_counter()
        result = fill(grid, words, seed=tried, budget=Budget(seconds=args.prove_seconds))
        took = time.perf_counter() - started
        print(f"grid {tried}: {describe(grid)}: {result.status} in {took:.1f} s", flush=True)
        if result.status != "filled":
            continue
        kept += 1
        name = f"american-15.{kept:02d}"
        header = [f"; {name}: American-style 15x15 by bench/make_american_grids.py "
                  f"--seed {args.seed} (candidate {tried}); Nonopress, MIT",
                  f"; {describe(grid)}; rotational symmetry",
                  f"; proof of a fill from {Path(args.words).name} (filler seed {tried}, "
                  f"{took:.1f} s):"]
        proof = [f"; fill {row}" for row in result.grid.rows]
        text = "\n".join(header + list(grid.rows) + proof) + "\n"
        assert parse_grid(text) == grid
        (out / f"{name}.txt").write_text(text, encoding="utf-8")
    print(f"{kept} grids kept of {tried} tried")
    return 0


if __name__ == "__main__":
    sys.exit(main())
