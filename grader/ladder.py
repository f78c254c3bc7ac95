"""The technique ladder as data: one row per rung, cheapest first (``ladder.yaml``).

Everything that needs to know the rungs reads them here: the engine (order, finders,
which are enabled), scoring (level and weight), the explanations (sentence templates),
``grade --max-rung`` and the layout's worked solutions. Loading the table imports no
technique: a finder module is imported when :meth:`Rung.finder` is first called, so this
module (like scoring and explain) works without the compiled solver.
"""

from __future__ import annotations

import hashlib
import importlib
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from importlib import resources
from pathlib import Path
from types import ModuleType
from typing import Any, Literal

import yaml

from grader.errors import NonopressError

Scope = Literal["line", "grid"]
TABLE_FILE = "ladder.yaml"
#: a ladder table to grade with in place of ``grader/ladder.yaml`` (a path): for trying new
#: weights or sentences before they are written into the package (bench/calibrate_*.py, tests)
TABLE_ENV = "NONOPRESS_LADDER"
#: the kinds of puzzle a rung may serve (grader/kinds/ names them the same)
BLACK_AND_WHITE = "black-and-white"
COLOUR = "colour"
KINDS = (BLACK_AND_WHITE, COLOUR)


@dataclass(frozen=True)
class Rung:
    """One row of the ladder table (see the comments at the top of ``ladder.yaml``)."""

    name: str
    family: int
    scope: Scope
    level: str
    weight: float
    enabled: bool
    finder_module: str
    templates: Mapping[str, str] = field(default_factory=dict)
    #: the kinds of puzzle the rung serves (KINDS)
    kinds: tuple[str, ...] = (BLACK_AND_WHITE,)
    #: the colour grader's techniques on this rung, in the order it tries them
    colour_techniques: tuple[str, ...] = ()
    #: technique -> sentence, for the colour techniques explained in one sentence
    colour_templates: Mapping[str, str] = field(default_factory=dict)

    def serves(self, kind: str) -> bool:
        return kind in self.kinds

    @classmethod
    def from_mapping(cls, row: Mapping[str, Any]) -> Rung:
        where = f"ladder row {row.get('name', '?')!r}"
        missing = [
            key
            for key in ("name", "family", "scope", "level", "weight", "finder")
            if key not in row
        ]
        if missing:
            raise ValueError(f"{where} lacks {', '.join(missing)}")
        if row["scope"] not in ("line", "grid"):
            raise ValueError(f"{where}: scope must be line or grid, not {row['scope']!r}")
        templates = row.get("explain") or {}
        if not isinstance(templates, Mapping):
            raise ValueError(f"{where}: explain must map technique names to sentences")
        kinds = row.get("kinds", [BLACK_AND_WHITE])
        if (not isinstance(kinds, Sequence) or isinstance(kinds, str) or not kinds
                or any(k not in KINDS for k in kinds)):
            raise ValueError(f"{where}: kinds must list some of {', '.join(KINDS)}")
        colour = row.get("colour") or {}
        if not isinstance(colour, Mapping):
            raise ValueError(f"{where}: colour must hold techniques and explain")
        if (COLOUR in kinds) != bool(colour.get("techniques")):
            raise ValueError(f"{where}: a rung serves colour when it names colour techniques")
        colour_templates = colour.get("explain") or {}
        if not isinstance(colour_templates, Mapping):
            raise ValueError(f"{where}: colour explain must map techniques to sentences")
        unsaid = [t for t in colour.get("techniques") or () if t not in colour_templates]
        if unsaid:
            raise ValueError(f"{where}: colour explain has no sentence for "
                             f"{', '.join(map(str, unsaid))}")
        return cls(
            name=str(row["name"]),
            family=int(row["family"]),
            scope=row["scope"],
            level=str(row["level"]),
            weight=float(row["weight"]),
            enabled=bool(row.get("enabled", True)),
            finder_module=str(row["finder"]),
            templates={str(k): " ".join(str(v).split()) for k, v in templates.items()},
            kinds=tuple(str(k) for k in kinds),
            colour_techniques=tuple(str(t) for t in colour.get("techniques") or ()),
            colour_templates={str(k): " ".join(str(v).split())
                              for k, v in colour_templates.items()},
        )

    def module(self) -> ModuleType:
        """The technique module (imported on first use: rung 4 and up load the solver)."""
        return importlib.import_module(self.finder_module)

    def finder(self) -> Any:
        """The module's ``find``: ``find(clue, cells)`` for a line rung,
        ``find(puzzle, cells, context)`` for a grid rung."""
        return self.module().find


@dataclass(frozen=True)
class Ladder:
    """The rows of the table in ladder order, with lookups by name and by technique."""

    rungs: tuple[Rung, ...]

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> Ladder:
        rows = data.get("rungs")
        if not isinstance(rows, Sequence) or not rows:
            raise ValueError("the ladder table needs a non-empty list of rungs")
        rungs = tuple(Rung.from_mapping(row) for row in rows)
        names = [r.name for r in rungs]
        if len(set(names)) != len(names):
            raise ValueError("the ladder table names a rung twice")
        families = [r.family for r in rungs]
        if families != sorted(families):
            raise ValueError("ladder rows must come in family order (cheapest first)")
        scopes = [r.scope for r in rungs]
        if "grid" in scopes and "line" in scopes[scopes.index("grid") :]:
            raise ValueError("line rungs come before grid rungs")
        techniques = [t for r in rungs for t in r.templates]
        if len(set(techniques)) != len(techniques):
            raise ValueError("two ladder rows explain the same technique")
        return cls(rungs)

    @cached_property
    def names(self) -> tuple[str, ...]:
        return tuple(r.name for r in self.rungs)

    @cached_property
    def templates(self) -> dict[str, str]:
        """Technique name -> sentence template, over every row."""
        return {t: text for r in self.rungs for t, text in r.templates.items()}

    def __getitem__(self, name: str) -> Rung:
        return self.rungs[self.index(name)]

    def index(self, name: str) -> int:
        """Position of a rung in the ladder; ValueError names the valid rungs."""
        try:
            return self.names.index(name)
        except ValueError:
            raise ValueError(
                f"unknown rung {name!r}; choose from {', '.join(self.names)}"
            ) from None

    def serving(self, kind: str) -> tuple[Rung, ...]:
        """The rungs that serve ``kind`` (the table's ``kinds`` column), cheapest first."""
        return tuple(r for r in self.rungs if r.serves(kind))

    @cached_property
    def colour_templates(self) -> dict[str, str]:
        """Colour technique name -> sentence template, over every row."""
        return {t: text for r in self.rungs for t, text in r.colour_templates.items()}

    def up_to(self, name: str | None) -> tuple[Rung, ...]:
        """The enabled rungs, cut off above ``name`` (None: the whole ladder)."""
        top = len(self.rungs) - 1 if name is None else self.index(name)
        return tuple(r for r in self.rungs[: top + 1] if r.enabled)

    def routine(self) -> tuple[str, ...]:
        """Rungs of the lowest level: the routine line logic a worked solution may summarise."""
        first = self.rungs[0].level
        return tuple(r.name for r in self.rungs if r.level == first)


def table_path() -> Path | None:
    """The table named by ``NONOPRESS_LADDER``; None: the package's ``ladder.yaml``."""
    named = os.environ.get(TABLE_ENV, "").strip()
    return Path(named) if named else None


@lru_cache(maxsize=1)
def table_bytes() -> bytes:
    """The ladder table's bytes, read once a process (its ladder and its hash agree)."""
    path = table_path()
    if path is None:
        return resources.files("grader").joinpath(TABLE_FILE).read_bytes()
    from grader.inputs import read_input_bytes

    return read_input_bytes(path, f"{path} (${TABLE_ENV})", named=False)


def table_text() -> str:
    try:
        return table_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise NonopressError(f"{table_path()} (${TABLE_ENV}): the ladder table is not UTF-8 "
                             f"({exc})") from None


@lru_cache(maxsize=1)
def default_ladder() -> Ladder:
    """The ladder of ``grader/ladder.yaml`` (or of the table ``NONOPRESS_LADDER`` names);
    a table named there that is not a ladder is a NonopressError naming it."""
    path = table_path()
    if path is None:
        return Ladder.from_mapping(yaml.safe_load(table_text()))
    from grader import safe_yaml

    try:
        data = safe_yaml.load(table_text())
        if not isinstance(data, Mapping):
            raise ValueError("it holds no mapping with rungs")
        return Ladder.from_mapping(data)
    except NonopressError:
        raise  # cannot read it: the message names it already
    except (yaml.YAMLError, ValueError, TypeError, KeyError, AttributeError,
            OverflowError) as exc:
        detail = " ".join(str(exc).split())
        raise NonopressError(f"{path} (${TABLE_ENV}): not a ladder table: {detail}") from None


@lru_cache(maxsize=1)
def data_digest() -> str:
    """A short hash of the ladder table and the scoring weights: new data, new grades."""
    digest = hashlib.sha256(table_bytes())
    try:
        digest.update(resources.files("grader").joinpath("scoring.yaml").read_bytes())
    except (FileNotFoundError, OSError):
        digest.update(b"-")
    # the mosaic's ladder and, once calibrate has written it, its fitted minutes table
    from grader.mosaic import minutes

    for path in (minutes.MINUTES_FILE.with_name("ladder.yaml"), minutes.MINUTES_FILE):
        if path.is_file():
            digest.update(path.read_bytes())
    # what the stars of a grade are: since issue 46 the level bounds them (one scale)
    digest.update(b"stars: level-bound")
    # since issue 60 the score is banded by level (grader.scoring.banded)
    digest.update(b"score: level-banded")
    # since issue 54's last round a mosaic's score is banded too (its ladder's score_bands)
    digest.update(b"mosaic score: level-banded")
    return digest.hexdigest()[:8]


def grader_version() -> str:
    """What made a grade: the package version plus the hash of the ladder and scoring
    tables. Stored grades (the issue's grade cache, batch rows) made by another are
    graded again."""
    from grader import __version__

    return f"{__version__}+{data_digest()}"


def rung_names() -> tuple[str, ...]:
    """Every rung's name, cheapest first."""
    return default_ladder().names


__all__ = ["Ladder", "Rung", "data_digest", "default_ladder", "grader_version", "rung_names"]
