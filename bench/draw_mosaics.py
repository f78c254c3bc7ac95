"""Make the bundled mosaics (``puzzles/mosaic/*.yaml``) from the project's own pictures.

Each mosaic's solution is a picture already in the library: a nonogram's solution
(``puzzles/*.yaml``) or a picture file (``puzzles/pictures/*.png``, fitted to a size).
``grader.mosaic.making`` chooses the clues for the level named below (seeded: the same
files every run) and the SAT peer confirms that the clues allow one picture.

    python bench/draw_mosaics.py          # write every mosaic and print the table
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from grader.atomic import atomic_write
from grader.authoring.picture import picture_from_file
from grader.formats import read_file
from grader.model import BoolArray, Metadata
from grader.mosaic.formats import write
from grader.mosaic.making import make
from grader.mosaic.sat_peer import count_solutions
from grader.results import Budget

ROOT = Path(__file__).resolve().parents[1]
#: seconds making one mosaic may take (the larger pictures at hard need more than 30)
BUDGET_S = 120.0
LIBRARY = ROOT / "puzzles"
OUT = LIBRARY / "mosaic"

#: name -> (source, level, size for a picture file)
MOSAICS: dict[str, tuple[str, str, tuple[int, int] | None]] = {
    "heart": ("heart.yaml", "medium", None),
    "fish": ("fish.yaml", "medium", None),
    "snail": ("snail.yaml", "hard", None),
    "owl": ("owl.yaml", "medium", None),
    "cat-picture": ("pictures/cat.png", "medium", (20, 20)),
    "house-outline": ("pictures/house-outline.png", "easy", (15, 15)),
}


def picture_of(source: str, size: tuple[int, int] | None) -> tuple[BoolArray, str]:
    path = LIBRARY / source
    if size is None:
        (puzzle,) = read_file(path)
        picture = puzzle.solution_array()
        assert picture is not None
        return picture, puzzle.title
    binarised = picture_from_file(path, *size)
    return binarised.picture, path.stem.replace("-", " ").title()


def main() -> int:
    OUT.mkdir(exist_ok=True)
    print("| file | title | size | clues shown | level asked | level | stars | changed cells |")
    print("|---|---|---|---|---|---|---|---|")
    for name, (source, level, size) in MOSAICS.items():
        picture, title = picture_of(source, size)
        meta = Metadata(title=title, author="Nonopress", license="MIT",
                        source=f"nonopress:mosaic/{name} (from {source})")
        made = make(np.asarray(picture, dtype=bool), level, meta=meta,
                    budget=Budget(seconds=BUDGET_S))
        count, _ = count_solutions(made.puzzle, 2)
        if count != 1 or made.grade.verdict != "unique":
            print(f"{name}: not unique ({count} by SAT)", file=sys.stderr)
            return 1
        atomic_write(OUT / f"{name}.yaml", write(made.puzzle, "yaml"))
        print(f"| `mosaic/{name}.yaml` | {title} | {made.puzzle.size} | "
              f"{made.puzzle.clue_count()} of {made.clues_total} | {level} | {made.grade.level} | "
              f"{made.grade.stars} | {len(made.changed)} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
