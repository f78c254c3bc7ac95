"""The mosaic ladder table (``grader/mosaic/ladder.yaml``): rungs cheapest first, with the
level, weight, assumed seconds and sentences of each, and the score bands (where a rating
places a mosaic within its level's band of the one score scale)."""

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
class ScoreBands:
    """Where a mosaic's rating earns a level's upper star (``middles``, by level) and how
    far the rating moves a score across its band (``spread``): read by
    :func:`grader.scoring.banded` in place of the nonogram thresholds, since the mosaic
    rungs' work is rated on another range."""

    middles: Mapping[str, float]
    spread: float

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> ScoreBands:
        middles = data.get("middles")
        if not isinstance(middles, Mapping):
            raise ValueError("mosaic ladder score_bands lacks middles")
        levels = [lv for lv in ("easy", "medium", "hard", "fiendish") if lv in middles]
        if len(levels) != 4:
            raise ValueError("mosaic ladder score_bands.middles must give easy, medium, "
                             "hard and fiendish")
        values = [float(middles[lv]) for lv in levels]
        if values != sorted(values):
            raise ValueError("mosaic ladder score_bands.middles must not fall as the level "
                             "rises")
        spread = float(data.get("spread", 0.0))
        if not spread > 0:
            raise ValueError("mosaic ladder score_bands.spread must be above 0")
        return cls(dict(zip(levels, values, strict=True)), spread)

    def thresholds(self) -> tuple[float, ...]:
        """The ratings earning 2, 3, 4 and 5 stars: the middles in level order (the upper
        star of easy is 2, of medium 3, ...), as :class:`grader.scoring.Weights` holds."""
        return tuple(self.middles[lv] for lv in ("easy", "medium", "hard", "fiendish"))


@dataclass(frozen=True)
class MosaicLadder:
    rungs: tuple[MosaicRung, ...]
    bands: ScoreBands

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
    data = yaml.safe_load(text)
    rows = data["rungs"]
    rungs = tuple(MosaicRung.from_mapping(row) for row in rows)
    families = [r.family for r in rungs]
    if families != sorted(families):
        raise ValueError("mosaic ladder rows must come in family order (cheapest first)")
    return MosaicLadder(rungs, ScoreBands.from_mapping(data.get("score_bands") or {}))


__all__ = ["MOSAIC", "MosaicLadder", "MosaicRung", "ScoreBands", "mosaic_ladder"]
