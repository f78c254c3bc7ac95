"""The mosaic's minutes: a person's assumed seconds a step (the ladder's ``seconds`` column)
summed over the step log, then, once ``nonopress calibrate --from-solves --kind mosaic
--write grader/mosaic/minutes.yaml`` has fitted them to the player's collected solves, a
line in log minutes over the log of those assumed minutes:

    ln(minutes) = intercept + scale * ln(assumed minutes)

with the range the quartiles of the fit's log residuals. Without the file the assumed
minutes are shown as they are, a factor of two either way, marked as not fitted.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import yaml

from grader.errors import FormatError

#: where a fitted model lives (written only by ``calibrate ... --write`` naming it)
MINUTES_FILE = Path(__file__).with_name("minutes.yaml")


@dataclass(frozen=True)
class MosaicTimeModel:
    intercept: float = 0.0
    scale: float = 1.0
    low: float = math.log(0.5)
    high: float = math.log(2.0)
    fitted: bool = False

    def log_minutes(self, assumed: float) -> float:
        return self.intercept + self.scale * math.log(max(assumed, 1e-3))

    def minutes(self, assumed: float) -> float:
        """The centre, unrounded (a refit compares it with measured medians)."""
        return math.exp(min(max(self.log_minutes(assumed), -5.0), 12.0))

    def estimate(self, assumed: float) -> tuple[float, float, float]:
        """(minutes, low, high), rounded to a tenth of a minute."""
        centre = self.minutes(assumed)
        return (round(centre, 1), round(centre * math.exp(self.low), 1),
                round(centre * math.exp(self.high), 1))

    def to_mapping(self) -> dict[str, object]:
        return {"intercept": self.intercept, "scale": self.scale,
                "range": [self.low, self.high]}


#: the minutes before any fit: the assumed ones, a factor of two either way
UNFITTED = MosaicTimeModel()


def read_model(path: Path) -> MosaicTimeModel:
    """A fitted model from ``path``; a file that does not hold one is a FormatError."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        low, high = (float(v) for v in data["range"])
        model = MosaicTimeModel(float(data["intercept"]), float(data["scale"]), low, high,
                                fitted=True)
    except (OSError, yaml.YAMLError, KeyError, TypeError, ValueError) as exc:
        raise FormatError(f"not a mosaic minutes table ({exc})", str(path)) from None
    if not (model.scale > 0 and model.low <= 0.0 <= model.high
            and all(map(math.isfinite, (model.intercept, model.scale, low, high)))):
        raise FormatError("a mosaic minutes table needs scale > 0 and range [<= 0, >= 0]",
                          str(path))
    return model


@lru_cache(maxsize=1)
def time_model() -> MosaicTimeModel:
    """The installed model: the fitted one when ``minutes.yaml`` is there, else UNFITTED."""
    return read_model(MINUTES_FILE) if MINUTES_FILE.is_file() else UNFITTED


def write_model(model: MosaicTimeModel, note: str, path: Path) -> Path:
    """``model`` as a minutes table at ``path`` (atomically), headed by ``note``."""
    from grader.atomic import atomic_write

    body = yaml.safe_dump(model.to_mapping(), sort_keys=False)
    atomic_write(path, (note + body).encode("utf-8"))
    return path


__all__ = ["MINUTES_FILE", "UNFITTED", "MosaicTimeModel", "read_model", "time_model",
           "write_model"]
