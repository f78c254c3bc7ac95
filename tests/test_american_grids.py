"""The 30 American-style grids of bench/data/american-15: each keeps the rules of the
style, and the fill written under it (its proof of fillability) is a valid fill from
Debian's wamerican alone."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from words import parse_grid
from words.grid import Grid
from words.wordlist import load_word_list

FOLDER = Path(__file__).resolve().parents[1] / "bench" / "data" / "american-15"
WAMERICAN = Path("/usr/share/dict/american-english")
FILES = sorted(FOLDER.glob("american-15.*.txt"))


def test_thirty_grids() -> None:
    assert len(FILES) == 30


def connected(grid: Grid) -> bool:
    whites = {(r, c) for r in range(grid.height) for c in range(grid.width)
              if grid.is_white(r, c)}
    start = next(iter(whites))
    seen, stack = {start}, [start]
    while stack:
        r, c = stack.pop()
        for cell in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if cell in whites and cell not in seen:
                seen.add(cell)
                stack.append(cell)
    return seen == whites


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_grid_is_american_style_and_its_proof_fills_it_from_wamerican(path: Path) -> None:
    if not WAMERICAN.exists():
        pytest.fail(f"{WAMERICAN} is missing: .ci/run installs wamerican")
    text = path.read_text(encoding="utf-8")
    grid = parse_grid(text, str(path))
    assert (grid.width, grid.height) == (15, 15)
    blocks = sum(row.count("#") for row in grid.rows)
    assert 0.16 <= blocks / 225 <= 0.20
    assert all(grid.rows[r][c] == grid.rows[14 - r][14 - c]
               for r in range(15) for c in range(15))  # half-turn symmetry
    assert all(3 <= s.length <= 15 for s in grid.slots)
    across = {cell for s in grid.slots if s.direction == "across" for cell in s.cells}
    down = {cell for s in grid.slots if s.direction == "down" for cell in s.cells}
    whites = {(r, c) for r in range(15) for c in range(15) if grid.is_white(r, c)}
    assert across == down == whites  # every white cell in an across and a down entry
    assert connected(grid)

    proof = Grid(tuple(line.split()[-1] for line in text.splitlines()
                       if line.startswith("; fill ")))
    assert proof.is_complete and proof.blank() == grid
    words = load_word_list(WAMERICAN)  # as `nonopress fill --words` reads it
    entries = [proof.entry(s) for s in grid.slots]
    assert all(word in words for word in entries), [w for w in entries if w not in words]
    assert max(Counter(entries).values()) == 1
