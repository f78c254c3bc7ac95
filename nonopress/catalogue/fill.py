"""An issue filled from the catalogue: the manifest's ``from_library`` section.

::

    from_library:
      count: 12                                  # optional: must equal the levels' sum
      levels: {easy: 3, medium: 5, hard: 4}      # or {hard: {count: 4, sizes: 25x25}}
      sizes: 15x15..25x25
      unused_for: 12                             # issues; also unused_since: 2026-01-01
      vary: tags                                 # tags, author or none
      seed: 7                                    # the same seed, the same pick
      curve: rising                              # rising, wave or falling

The first build picks, books the puzzles for the issue, writes each to
``<manifest>-puzzles/NN-KEY.yaml`` beside the manifest and writes the choice back into the
section as ``chosen:`` (the rest of the manifest is left as it was). A later build with
``chosen`` picks nothing: it prints the same puzzles in the same order. Delete ``chosen`` to
pick again.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from grader import safe_yaml
from grader.errors import FormatError, NonopressError
from grader.kinds import TAGS
from nonopress.catalogue.database import Catalogue
from nonopress.catalogue.finding import Filters, parse_size_range
from nonopress.catalogue.picking import CURVES, VARY, LevelWant, PickRequest, pick

SECTION = "from_library"
KEYS = ("count", "levels", "sizes", "unused_for", "unused_since", "vary", "seed", "curve",
        "kind", "tags", "author", "licence", "chosen")


@dataclass(frozen=True)
class Chosen:
    key: str
    title: str
    file: Path  # absolute


def section_of(section: object, manifest: Path) -> dict[str, Any] | None:
    """The ``from_library`` mapping of ``manifest`` (the section as the manifest's reader
    kept it, ``Manifest.from_library``) checked, or None when it has none."""
    if section is None:
        return None
    if not isinstance(section, dict):
        raise FormatError(f"{SECTION} must be a mapping (count, levels, sizes, ...)",
                          str(manifest))
    unknown = [k for k in section if k not in KEYS]
    if unknown:
        raise FormatError(f"{SECTION}: unknown key {unknown[0]!r} (known keys: "
                          f"{', '.join(KEYS)})", str(manifest))
    return section


def request_of(section: dict[str, Any], name: str) -> PickRequest:
    """The pick a section asks for; a FormatError naming the manifest when it is wrong."""
    try:
        return _request(section)
    except NonopressError as exc:
        raise FormatError(f"{SECTION}: {exc}", name) from None


def _request(section: dict[str, Any]) -> PickRequest:
    from layout.build import MAX_PRINT_SIDE

    # without sizes, any size an issue prints (a bigger one is art, not a puzzle)
    widths = heights = (1, MAX_PRINT_SIDE)
    if section.get("sizes") is not None:
        widths, heights = parse_size_range(str(section["sizes"]))
    levels_data = section.get("levels")
    if not isinstance(levels_data, dict) or not levels_data:
        raise NonopressError("levels: expected a mapping such as {easy: 3, medium: 5}")
    levels: dict[str, LevelWant] = {}
    for level, want in levels_data.items():
        if isinstance(want, dict):
            count = want.get("count")
            sizes = parse_size_range(str(want["sizes"])) if want.get("sizes") else (None, None)
        else:
            count, sizes = want, (None, None)
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise NonopressError(f"levels: {level}: expected a count, got {count!r}")
        levels[str(level)] = LevelWant(count, sizes[0], sizes[1])
    total = sum(w.count for w in levels.values())
    if section.get("count") is not None and section["count"] != total:
        raise NonopressError(f"count is {section['count']} but the levels add up to {total}")
    unused_for = section.get("unused_for")
    if unused_for is not None and (isinstance(unused_for, bool) or not isinstance(
            unused_for, int) or unused_for < 0):
        raise NonopressError(f"unused_for: expected a number of issues, got {unused_for!r}")
    since = section.get("unused_since")
    if since is not None and not isinstance(since, dt.date):
        try:
            since = dt.date.fromisoformat(str(since))
        except ValueError:
            raise NonopressError(f"unused_since: expected YYYY-MM-DD, got {since!r}") from None
    vary = str(section.get("vary", "tags"))
    curve = str(section.get("curve", "rising"))
    if vary not in VARY:
        raise NonopressError(f"vary: expected one of {', '.join(VARY)}, got {vary!r}")
    if curve not in CURVES:
        raise NonopressError(f"curve: expected one of {', '.join(CURVES)}, got {curve!r}")
    seed = section.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise NonopressError(f"seed: expected a whole number, got {seed!r}")
    tags = section.get("tags") or []
    kind = section.get("kind")
    if kind is not None and kind not in TAGS:
        raise NonopressError(f"kind: expected {' or '.join(TAGS)}, got {kind!r}")
    filters = Filters(kind=kind, widths=widths, heights=heights,
                      tags=tuple(str(t) for t in (tags if isinstance(tags, list) else [tags])),
                      author=section.get("author"), licence=section.get("licence"),
                      unused_for=unused_for, unused_since=since)
    return PickRequest(levels=levels, filters=filters, vary=vary, seed=seed, curve=curve)


def resolve(catalogue: Catalogue, manifest: Path, written: object, issue: str
            ) -> list[Chosen]:
    """The puzzles of the section (``written``: as the manifest holds it): the ``chosen``
    list, or a new pick written back."""
    section = section_of(written, manifest)
    if section is None:
        return []
    folder = manifest.parent / f"{manifest.stem}-puzzles"
    if folder.is_symlink():
        raise FormatError(f"{folder.name} is a link: the puzzles of {SECTION} are only "
                          "written into a folder beside the manifest", str(manifest))
    if section.get("chosen"):
        return _chosen(catalogue, section["chosen"], manifest, folder)
    entries = pick(catalogue, request_of(section, str(manifest)), issue)
    chosen = []
    from grader.atomic import atomic_write

    folder.mkdir(exist_ok=True)
    for number, entry in enumerate(entries, 1):
        path = folder / f"{number:02d}-{entry.key}.yaml"
        atomic_write(str(path), entry.puzzle_text, links=False)
        chosen.append(Chosen(entry.key, entry.title, path.resolve()))
    section = dict(section)
    section["chosen"] = [{"key": c.key, "title": c.title,
                          "file": str(c.file.relative_to(manifest.parent.resolve()))}
                         for c in chosen]
    write_section(manifest, section)
    return chosen


def _chosen(catalogue: Catalogue, items: object, manifest: Path,
            folder: Path) -> list[Chosen]:
    from grader.atomic import atomic_write
    from nonopress.catalogue.finding import get

    if not isinstance(items, list):
        raise FormatError(f"{SECTION}: chosen must be a list", str(manifest))
    chosen = []
    for number, item in enumerate(items, 1):
        if not isinstance(item, dict) or not isinstance(item.get("key"), str):
            raise FormatError(f"{SECTION}: chosen item {number} needs a key", str(manifest))
        file = item.get("file") or f"{folder.name}/{number:02d}-{item['key']}.yaml"
        path = _inside(manifest, folder, file, number)
        if not path.is_file():  # deleted: the catalogue has the puzzle exactly as imported
            folder.mkdir(exist_ok=True)
            # never through a link planted in the folder: the link itself is refused
            atomic_write(str(path), get(catalogue, item["key"]).puzzle_text, links=False)
        chosen.append(Chosen(item["key"], str(item.get("title", "")), path))
    return chosen


def _inside(manifest: Path, folder: Path, file: object, number: int) -> Path:
    """A ``chosen`` item's file: a relative path inside the puzzles folder beside the
    manifest (``NAME-puzzles/``), where the first build wrote it; anything else (absolute,
    ``..``, a link leading out, another folder) is refused before anything is written."""
    import os
    from pathlib import PurePosixPath

    pure = PurePosixPath(str(file))
    root = os.path.realpath(folder)
    if (not isinstance(file, str) or pure.is_absolute() or ".." in pure.parts
            or "\x00" in file or len(file) > 400):
        raise FormatError(f"{SECTION}: chosen item {number}: file {str(file)[:80]!r} must be "
                          f"a path inside {folder.name}/", str(manifest))
    candidate = manifest.parent / pure
    resolved = os.path.realpath(candidate)
    if os.path.dirname(resolved) != root or os.path.islink(candidate):
        raise FormatError(f"{SECTION}: chosen item {number}: file {file[:80]!r} is not a "
                          f"file of {folder.name}/ (only those are read or written back)",
                          str(manifest))
    return Path(resolved)


def write_section(manifest: Path, section: dict[str, Any]) -> None:
    """Replace the section's lines in the manifest (comments elsewhere are kept)."""
    from grader.atomic import atomic_write

    text = manifest.read_text(encoding="utf-8-sig")
    lines = text.splitlines(keepends=True)
    root = safe_yaml.compose(text)
    span = None
    if isinstance(root, yaml.MappingNode):
        for key_node, value_node in root.value:
            if key_node.value == SECTION:
                end = value_node.end_mark.line + (1 if value_node.end_mark.column else 0)
                span = (key_node.start_mark.line, end)
    block = "# from_library.chosen was written by nonopress issue: delete it to pick again\n"
    block += yaml.safe_dump({SECTION: section}, sort_keys=False, allow_unicode=True,
                            default_flow_style=None, width=96)
    if span is None:
        lines.append(("\n" if lines and not lines[-1].endswith("\n") else "") + block)
    else:
        first = span[0]
        if first and lines[first - 1].startswith("# from_library.chosen"):
            first -= 1
        lines[first:span[1]] = [block]
    atomic_write(str(manifest), "".join(lines))
