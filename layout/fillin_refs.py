"""The manifest's ``fillins`` list: fill-in crosswords printed beside the nonograms.

Each item is a grid file (``.txt``, ``.ipuz``, ``.puz``; a blank grid is filled with the
default word list) or a mapping with ``file`` and optionally ``title``, ``note``,
``starter`` (``12A``, a word, or ``none``) and ``seed`` (for filling a blank grid).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from grader.errors import NonopressError

FILLIN_KEYS = ("file", "title", "note", "starter", "seed")


@dataclass(frozen=True)
class FillinRef:
    """One item of the manifest's ``fillins`` list."""

    path: Path
    title: str | None = None
    note: str = ""
    starter: str | None = None
    seed: int = 0


def parse_fillin_refs(value: object, base: Path) -> tuple[FillinRef, ...]:
    """The manifest's ``fillins`` value: a list of grid files or mappings with ``file``."""
    if not isinstance(value, list):
        raise NonopressError("fillins: expected a list of grid files")
    refs = []
    for k, item in enumerate(value, start=1):
        if isinstance(item, str):
            item = {"file": item}
        if not isinstance(item, dict):
            raise NonopressError(f"fillins item {k}: a grid file path or a mapping with 'file'")
        unknown = [key for key in item if key not in FILLIN_KEYS]
        if unknown:
            raise NonopressError(f"fillins item {k}: unknown key {unknown[0]!r} (known keys: "
                                 f"{', '.join(FILLIN_KEYS)})")
        file = item.get("file")
        if not isinstance(file, str) or not file.strip():
            raise NonopressError(f"fillins item {k} needs 'file': the path of a grid file")
        path = Path(file) if Path(file).is_absolute() else (base / file).resolve()
        if not path.is_file():
            raise NonopressError(f"fillins item {k}: grid file not found: {file}")
        seed = item.get("seed", 0)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise NonopressError(f"fillins item {k}: seed must be a whole number")
        starter = item.get("starter")
        title = item.get("title")
        refs.append(FillinRef(path, None if title is None else str(title).strip(),
                              str(item.get("note") or "").strip(),
                              None if starter is None else str(starter), seed))
    return tuple(refs)
