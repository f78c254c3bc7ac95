"""What difficulty an editor asks for: a level or a number of stars, as a score interval."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from grader import scoring
from grader.errors import PuzzleError
from grader.ladder import default_ladder

#: the levels a publishable puzzle can have, easiest first, with the hardest rung each allows
#: (the last rung of that level in the ladder table)
LEVEL_RUNGS: dict[str, str] = {
    level: [r.name for r in default_ladder().rungs if r.level == level][-1]
    for level in ("easy", "medium", "hard", "fiendish")
}


#: publishable levels, easiest first: a level target is a band [index, index + 1)
LEVEL_ORDER: tuple[str, ...] = (*LEVEL_RUNGS, "needs-guessing")


class Graded(Protocol):
    @property
    def level(self) -> str: ...
    @property
    def score(self) -> float | None: ...


@dataclass(frozen=True)
class Target:
    """A level (``easy`` .. ``fiendish``) or 1-5 stars; None of either: any level."""

    level: str | None = None
    stars: int | None = None

    def __post_init__(self) -> None:
        if self.level is not None and self.level not in LEVEL_RUNGS:
            raise PuzzleError(
                f"level {self.level!r} is not one of {', '.join(LEVEL_RUNGS)}"
            )
        if self.stars is not None and not 1 <= self.stars <= 5:
            raise PuzzleError(f"stars must be 1 to 5, not {self.stars}")
        if self.level is not None and self.stars is not None:
            raise PuzzleError("ask for a level or for stars, not both")

    @property
    def wanted(self) -> bool:
        return self.level is not None or self.stars is not None

    def measure(self, grade: Graded) -> float:
        """Where a grade stands on this target's scale (see :meth:`interval`).

        The score is banded by level (:func:`grader.scoring.banded`: level i scores
        [i, i + 1), the fitted rating placing a puzzle within its band), so the scale is
        the score itself. Stars are read off the same score, as a page prints them: going
        up it they never go down, so a number of stars is one stretch of it.
        """
        if grade.score is None or grade.level not in LEVEL_ORDER:
            return float(len(LEVEL_ORDER))  # a defect, a cut-short grade: beyond every target
        return min(max(grade.score, 0.0), scoring.MAX_SCORE)

    def interval(self) -> tuple[float, float]:
        """Measures [low, high) that meet the target."""
        if self.level is not None:
            base = float(LEVEL_ORDER.index(self.level))
            return base, base + 1.0
        if self.stars is not None:
            top = float(len(LEVEL_RUNGS))  # five stars is the top of fiendish, not a guess
            return stars_start(self.stars), (
                top if self.stars == 5 else stars_start(self.stars + 1))
        return 0.0, float(len(LEVEL_ORDER))

    def direction(self, score: float) -> int:
        """+1: make it harder, -1: easier, 0: on target."""
        low, high = self.interval()
        if score < low:
            return 1
        return -1 if score >= high else 0

    def distance(self, score: float) -> float:
        low, high = self.interval()
        return max(low - score, score - high + 0.001, 0.0)

    def top_rung(self) -> str:
        """The hardest rung a puzzle on target may need (for making one easier): the
        level's own; for stars, the hardest level that prints that many."""
        if self.level is not None:
            return LEVEL_RUNGS[self.level]
        assert self.stars is not None or not self.wanted
        stars = 5 if self.stars is None else self.stars
        return LEVEL_RUNGS[[level for level in LEVEL_RUNGS
                            if scoring.LEVEL_STARS[level][0] <= stars][-1]]

    def describe(self) -> str:
        if self.level is not None:
            return self.level
        if self.stars is not None:
            return f"{self.stars} star{'s' if self.stars > 1 else ''}"
        return "any level"


def stars_start(stars: int) -> float:
    """The lowest measure (the banded score, :meth:`Target.measure`) a page prints with
    ``stars`` or more stars: the first level that may show them, from the middle of its
    band when they are its upper star (:func:`grader.scoring.level_stars`)."""
    for index, level in enumerate(LEVEL_RUNGS):
        low, high = scoring.LEVEL_STARS[level]
        if high < stars:
            continue
        return float(index) if low >= stars else index + 0.5
    return float(len(LEVEL_RUNGS))


def describe(grade: Graded) -> str:
    """A grade's level and score, as progress lines and reports say it."""
    if grade.score is None:
        return f"{grade.level}, no score"
    stars = getattr(grade, "stars", None)
    shown = "" if stars is None else f", {stars} star{'s' if stars > 1 else ''}"
    return f"{grade.level}, score {grade.score:.2f}{shown}"
