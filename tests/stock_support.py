"""A small folder of puzzle files the command tests read (not a test module)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from grader.formats import write
from grader.model import Metadata, Puzzle


def tiny_folder(tmp_path: Path) -> Path:
    """Two 5x5 puzzles, ``Tiny 0`` and ``Tiny 1``, in ``tmp_path/stock``."""
    folder = tmp_path / "stock"
    folder.mkdir()
    for number in range(2):
        picture = np.zeros((5, 5), dtype=bool)
        picture[number] = True
        picture[:, 4 - number] = True
        (folder / f"p{number}.non").write_bytes(
            write(Puzzle.from_picture(picture, Metadata(title=f"Tiny {number}")), "non"))
    return folder
