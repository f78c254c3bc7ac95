"""The mosaic ladder table (``grader/mosaic/ladder.yaml``): rungs cheapest first, with the
level, weight, assumed seconds and sentences of each."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

import yaml

from grader.scoring import RATED_LEVELS

MOSAIC = "mosaic"


@dataclass(frozen=True)
class MosaicRung:
    name: str
    family: int
    level: str
    weight: float
    seconds: float
    templates: Mapping[str, str]

    @classmethod
    def from_mapping(cls, row: Mapping[str, Any]) -> MosaicRung:
        where = f"mosaic ladder row {row.get('name', '?')!r}"
        missing = [k for k in ("name", "family", "level", "weight", "seconds", "explain")
                   if k not in row]
        if missing:
            raise ValueError(f"{where} lacks {', '.join(missing)}")
        if row["level"] not in RATED_LEVELS:
            raise ValueError(f"{where}: level {row['level']!r} has no rating")
        if MOSAIC not in (row.get("kinds") or ()):
            raise ValueError(f"{where}: kinds must name {MOSAIC}")
        return cls(str(row["name"]), int(row["family"]), str(row["level"]),
                   float(row["weight"]), float(row["seconds"]),
                   {str(k): " ".join(str(v).split()) for k, v in row["explain"].items()})


@dataclass(frozen=True)
class MosaicLadder:
    rungs: tuple[MosaicRung, ...]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(r.name for r in self.rungs)

    def __getitem__(self, name: str) -> MosaicRung:
        for rung in self.rungs:
            if rung.name == name:
                return rung
        raise ValueError(f"unknown mosaic rung {name!r}; choose from {', '.join(self.names)}")

    def index(self, name: str) -> int:
        return self.names.index(self[name].name)

    def up_to(self, name: str | None) -> tuple[MosaicRung, ...]:
        return self.rungs if name is None else self.rungs[: self.index(name) + 1]

    def template(self, technique: str) -> str:
        for rung in self.rungs:
            if technique in rung.templates:
                return rung.templates[technique]
        raise KeyError(technique)


@lru_cache(maxsize=1)
def mosaic_ladder() -> MosaicLadder:
    text = resources.files("grader.mosaic").joinpath("ladder.yaml").read_text("utf-8")
    rows = yaml.safe_load(text)["rungs"]
    rungs = tuple(MosaicRung.from_mapping(row) for row in rows)
    families = [r.family for r in rungs]
    if families != sorted(families):
        raise ValueError("mosaic ladder rows must come in family order (cheapest first)")
    return MosaicLadder(rungs)


__all__ = ["MOSAIC", "MosaicLadder", "MosaicRung", "mosaic_ladder"]
