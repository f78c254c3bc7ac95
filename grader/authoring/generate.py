"""Random puzzles at a requested level, for filler pages.

A random picture (``density`` of filled cells, optionally mirror- or rotation-symmetric)
is made unique by flips and steered to the level; pictures that miss it are dropped and
another is drawn, until ``count`` are made or the budget runs out.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

import numpy as np

from grader.authoring.clock import Clock, Progress, quiet
from grader.authoring.make import author
from grader.authoring.result import BwAuthored
from grader.authoring.target import Target
from grader.errors import PuzzleError
from grader.model import BoolArray, Metadata

Symmetry = Literal["none", "mirror", "vertical", "rotate", "both"]
SYMMETRIES: tuple[str, ...] = ("none", "mirror", "vertical", "rotate", "both")
#: share of filled cells to start from, and how far it moves after a miss
DEFAULT_DENSITY, DENSITY_STEP = 0.6, 0.04


def random_picture(width: int, height: int, density: float, symmetry: Symmetry,
                   rng: np.random.Generator) -> BoolArray:
    """Random cells filled with probability ``density``, then made symmetric: ``mirror``
    (left-right), ``vertical`` (top-bottom), ``rotate`` (half turn), ``both`` mirrors."""
    if not 0.05 <= density <= 0.95:
        raise PuzzleError(f"density {density:g} is outside 0.05-0.95")
    picture: BoolArray = rng.random((height, width)) < density
    if symmetry in ("mirror", "both"):
        picture[:, width - width // 2 :] = picture[:, : width // 2][:, ::-1]
    if symmetry in ("vertical", "both"):
        picture[height - height // 2 :, :] = picture[: height // 2, :][::-1, :]
    if symmetry == "rotate":
        flat = picture.ravel()
        half = flat.size // 2
        flat[flat.size - half :] = flat[:half][::-1]
        picture = flat.reshape(height, width)
    return picture


def generated_title(title: str, number: int, count: int) -> str:
    """The title of the ``number``-th of ``count`` puzzles made under ``title``: ``{n}`` in
    it is the number; else several puzzles are numbered after it and one takes it as it
    is. No title gives none: a random picture has no subject, and an issue numbers its
    puzzles itself (a title such as "Random 15x15 #32" printed the same in every run)."""
    if not title:
        return ""
    if "{n}" in title:
        return title.replace("{n}", str(number))
    return f"{title} {number}" if count > 1 else title


def generate(width: int, height: int, *, target: Target, count: int = 1, seed: int = 0,
             density: float | None = None, symmetry: Symmetry = "none",
             seconds: float | None = 120.0, attempt_seconds: float = 8.0,
             progress: Progress = quiet, title: str = "", first: int = 1,
             author_name: str = "") -> Iterator[BwAuthored]:
    """Yield up to ``count`` unique puzzles on ``target``, within ``seconds`` in all,
    titled by :func:`generated_title` (numbered from ``first``), by ``author_name``.

    Without a ``density`` it adapts: denser pictures give easier puzzles, so after a
    picture that came out too easy the next is sparser, and after one too hard denser."""
    rng = np.random.default_rng(seed)
    clock = Clock(seconds, progress)
    adaptive = density is None
    share = DEFAULT_DENSITY if density is None else density
    made = attempts = tries = 0  # tries: attempts for the puzzle being made now
    while made < count and not clock.out():
        attempts += 1
        tries += 1
        picture = random_picture(width, height, share, symmetry, rng)
        left = clock.left()
        budget = attempt_seconds if left is None else min(attempt_seconds, left)
        result = author(picture, target=target, seconds=budget, seed=int(rng.integers(1 << 30)),
                        meta=Metadata(title=generated_title(title, first + made, count),
                                      author=author_name))
        if result.unique and (result.reached or not target.wanted):
            made += 1
            clock.say(f"puzzle {made}/{count}: {result.grade.level if result.grade else '?'}"
                      f" after {tries} attempt{'s' * (tries != 1)} ({attempts} in all)")
            tries = 0
            yield result
            continue
        missed = result.grade.level if result.grade else result.verdict
        clock.say(f"puzzle {made + 1}/{count}, attempt {tries} missed ({missed}, "
                  f"density {share:.2f})")
        if adaptive and result.grade is not None:
            harder = target.direction(target.measure(result.grade)) > 0
            step = -DENSITY_STEP if harder else DENSITY_STEP
            share = min(max(share + step, 0.3), 0.8)
