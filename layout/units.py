"""Lengths and page sizes, in PostScript points (1/72 in), parsed from manifest values."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from grader.errors import NonopressError

MM = 72 / 25.4
CM = 10 * MM
INCH = 72.0

#: No page, margin or bleed is longer than a metre (this also keeps out .nan and .inf).
MAX_LENGTH = 1000 * MM

_UNITS = {"mm": MM, "cm": CM, "in": INCH, "pt": 1.0}
_LENGTH = re.compile(r"^\s*(\d+(?:\.\d*)?|\.\d+)\s*(mm|cm|in|pt)?\s*$")


@dataclass(frozen=True)
class PageSize:
    """A trimmed page: the size of the sheet after cutting."""

    name: str
    width: float
    height: float

    def scaled(self, factor: float, name: str) -> PageSize:
        return PageSize(name, self.width * factor, self.height * factor)


PAGE_SIZES: dict[str, PageSize] = {
    "a4": PageSize("A4", 210 * MM, 297 * MM),
    "letter": PageSize("Letter", 8.5 * INCH, 11 * INCH),
    "a5": PageSize("A5", 148 * MM, 210 * MM),
    "6x9in": PageSize("6x9in", 6 * INCH, 9 * INCH),
}


def parse_length(value: object, what: str) -> float:
    """A length like ``15mm``, ``0.5in``, ``36pt``, ``1.2cm``; a bare number means millimetres."""
    if isinstance(value, bool):
        raise NonopressError(f"{what}: expected a length such as 15mm, got {value!r}")
    if isinstance(value, (int, float)):
        try:
            number, unit = float(value), "mm"
        except OverflowError:
            raise NonopressError(f"{what}: {str(value)[:20]}... is not a sensible length") from None
    elif isinstance(value, str) and (match := _LENGTH.match(value)):
        number, unit = float(match.group(1)), match.group(2) or "mm"
    else:
        raise NonopressError(f"{what}: expected a length such as 15mm or 0.5in, got {value!r}")
    if number < 0:
        raise NonopressError(f"{what}: a length cannot be negative")
    length = number * _UNITS[unit]
    if not math.isfinite(length) or length > MAX_LENGTH:
        raise NonopressError(f"{what}: {value!r} is not a length up to 1 m")
    return length


#: Width x height with a unit (inches when none is given): ``8.5x11in``, ``210x297mm``.
_DIMENSIONS = re.compile(r"^(\d+(?:\.\d+)?)x(\d+(?:\.\d+)?)(in|mm|cm|pt)?$")
#: Bigger than any press sheet: a page size beyond this is a typing mistake.
MAX_PAGE = 2000 * MM


def parse_page_size(value: object) -> PageSize:
    """A named size (A4, Letter, A5) or width x height such as ``8.5x11in``, ``6x9``."""
    key = str(value).strip().lower().replace(" ", "")
    aliases = {"us-letter": "letter", "usletter": "letter"}
    key = aliases.get(key, key)
    if key in PAGE_SIZES:
        return PAGE_SIZES[key]
    match = _DIMENSIONS.match(key)
    if match:
        unit = match.group(3) or "in"
        width, height = (float(match.group(k)) * _UNITS[unit] for k in (1, 2))
        if not (72 <= width <= MAX_PAGE and 72 <= height <= MAX_PAGE):
            raise NonopressError(f"page: {value!r} is not a page size from 1 in to 2 m")
        name = f"{match.group(1)}x{match.group(2)}{unit}"
        return PageSize(name, width, height)
    names = ", ".join(p.name for p in PAGE_SIZES.values())
    raise NonopressError(
        f"page: unknown page size {value!r} (choose one of {names}, or width x height "
        "such as 8.5x11in or 210x297mm)"
    )
