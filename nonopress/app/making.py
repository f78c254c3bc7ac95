"""Making a puzzle of a kind whose maker the kinds registry names (``KindEntry.make``,
the mosaic's) from a picture: the picture is fitted and binarised as the nonograms' make
does it (grader.authoring.picture), then handed to the kind's maker. The nonograms' own
authoring (steering, flips, givens, colours) stays in grader.authoring."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from grader.errors import NonopressError


@dataclass(frozen=True)
class Made:
    """A made puzzle, whether it is proved unique, and the report the faces print."""

    puzzle: Any
    unique: bool
    record: dict[str, Any]


def makers() -> tuple[str, ...]:
    """The tags of the kinds ``make --kind`` makes through their entry's maker."""
    from grader.kinds import KINDS

    return tuple(entry.tag for entry in KINDS if entry.make is not None)


def by_its_maker(tag: str) -> bool:
    """Whether ``make --kind tag`` goes to :func:`make_kind`: every tag but a line
    puzzle's (black and white, colour), which the nonograms' authoring makes (an unknown
    tag goes there too, to be refused in one line)."""
    from grader.kinds import BY_TAG

    entry = BY_TAG.get(tag)
    return entry is None or not entry.lines


def make_kind(tag: str, image: str, width: int, height: int, *, fit: str = "pad",
              threshold: float | None = None, invert: bool = False, edges: bool = False,
              trim: Iterable[str] = (), level: str | None = None, stars: int | None = None,
              seed: int = 0, title: str = "", seconds: float = 60.0) -> Made:
    """The puzzle of kind ``tag`` whose solution is ``image`` at ``width`` x ``height``."""
    from grader.authoring.picture import binarise, load_grey
    from grader.kinds import BY_TAG

    entry = BY_TAG.get(tag)
    if entry is None or entry.make is None:
        raise NonopressError(f"--kind {tag}: make knows {', '.join(('bw', *makers()))}")
    picture = binarise(load_grey(image), width, height, fit=fit,  # type: ignore[arg-type]
                       threshold=threshold, invert=invert, edges=edges, trim=trim)
    puzzle, unique, record = entry.make(picture.picture, level, stars, seed, title, seconds)
    record = {"file": image, "method": picture.method, **record}
    return Made(puzzle, unique, record)
