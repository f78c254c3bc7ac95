"""From a step log to a level, a continuous score and 1-5 stars.

The level is the hardest rung used, named. The score lies in that level's band (levels
occupy disjoint bands, so a harder level always scores higher); within the band it grows
with the weighted work of every step, heavier when few deductions were open at the time,
per line of the puzzle. The weights are data: each rung's level and step weight are
columns of the ladder table (``ladder.yaml``), the rest is ``scoring.yaml``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

import yaml

from grader.ladder import Ladder, default_ladder
from grader.techniques.base import Step


@dataclass(frozen=True)
class Weights:
    levels: Mapping[str, str]
    bands: Mapping[str, float]
    step_weights: Mapping[str, float]
    scarcity: float
    half_work: Mapping[str, float]
    stars: tuple[float, ...]

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], ladder: Ladder | None = None) -> Weights:
        """``scoring.yaml``'s tables, with each rung's level and weight from ``ladder``."""
        ladder = ladder or default_ladder()
        levels = {r.name: r.level for r in ladder.rungs}
        weights = {r.name: r.weight for r in ladder.rungs}
        bands = {str(k): float(v) for k, v in data["bands"].items()}
        half_work = {str(k): float(v) for k, v in data["half_work"].items()}
        if set(half_work) != set(bands) or min(half_work.values()) <= 0:
            raise ValueError("half_work needs a positive value for every level with a band")
        unbanded = sorted(set(levels.values()) - set(bands))
        if unbanded:
            raise ValueError(f"no score band for the ladder's levels: {', '.join(unbanded)}")
        stars = tuple(float(v) for v in data["stars"])
        if len(stars) != 4 or list(stars) != sorted(stars):
            raise ValueError("stars must be four increasing thresholds")
        return cls(
            levels=levels,
            bands=bands,
            step_weights=weights,
            scarcity=float(data["scarcity"]),
            half_work=half_work,
            stars=stars,
        )


@lru_cache(maxsize=1)
def default_weights() -> Weights:
    text = resources.files("grader").joinpath("scoring.yaml").read_text(encoding="utf-8")
    return Weights.from_mapping(yaml.safe_load(text))


def rung_counts(steps: Iterable[Step]) -> dict[str, int]:
    """Rung name -> number of steps, in ladder order, rungs not used left out."""
    counts = dict.fromkeys(default_ladder().names, 0)
    for step in steps:
        counts[step.rung] += 1
    return {rung: n for rung, n in counts.items() if n}


def hardest_rung(steps: Iterable[Step]) -> str | None:
    used = {step.rung for step in steps}
    return max(used, key=default_ladder().index) if used else None


def ladder_level(steps: Iterable[Step], weights: Weights | None = None) -> str:
    """The level named after the hardest rung used ("easy" for a puzzle with no steps)."""
    weights = weights or default_weights()
    rung = hardest_rung(steps)
    return weights.levels[rung] if rung else "easy"


def work(steps: Iterable[Step], width: int, height: int, weights: Weights | None = None) -> float:
    """Weighted work per line: each step's rung weight, scaled up when openings were few."""
    weights = weights or default_weights()
    total = 0.0
    for step in steps:
        openings = max(step.openings, 1)
        total += weights.step_weights[step.rung] * (1.0 + weights.scarcity / openings)
    return total / (width + height)


def score(level: str, per_line_work: float, weights: Weights | None = None) -> float:
    """A score in the level's band [base, base + 1), rising with the work."""
    weights = weights or default_weights()
    fraction = per_line_work / (per_line_work + weights.half_work[level])
    return round(weights.bands[level] + min(fraction, 0.999), 3)


def stars(value: float, weights: Weights | None = None) -> int:
    weights = weights or default_weights()
    return 1 + sum(value >= threshold for threshold in weights.stars)
