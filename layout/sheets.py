"""Pages onto sheets: the printed sheet around each trimmed page (bleed, crop-mark room,
trim and bleed boxes) and saddle-stitch imposition (two pages side by side per sheet side,
in the order that reads right once the stack is folded and stapled)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from grader.errors import NonopressError
from layout.draw import Lines, Page
from layout.manifest import Manifest
from layout.units import MM

CROP_MARK = 8 * MM  # room outside the bleed for crop marks


class Sized(Protocol):
    @property
    def width(self) -> float: ...

    @property
    def height(self) -> float: ...


@dataclass(frozen=True)
class Sheet:
    """One side of a printed sheet: trimmed size and the pages on it with their x offsets."""

    width: float
    height: float
    pages: tuple[tuple[Page, float], ...]

    @property
    def fold(self) -> float | None:
        """Where a spread folds (between its two pages), if it is one."""
        return self.pages[1][1] if len(self.pages) > 1 else None


@dataclass(frozen=True)
class Media:
    """The sheet around a trimmed area: bleed and crop-mark room, in points."""

    width: float
    height: float
    offset: float  # from the sheet's corner to the trim box's corner
    trim: tuple[float, float, float, float]  # x0, y0, x1, y1 on the sheet
    bleed: tuple[float, float, float, float]
    #: from the sheet's left edge to the trim box's, when it differs from ``offset``
    x_offset: float | None = None

    @property
    def left(self) -> float:
        return self.offset if self.x_offset is None else self.x_offset


def _first_page_number(trimmed: Sized) -> int:
    """The folio of a page, or of the first page on a sheet (0 when unknown)."""
    pages = getattr(trimmed, "pages", None)
    if pages:
        return int(pages[0][0].number)
    return int(getattr(trimmed, "number", 0))


def media_for(trimmed: Sized, manifest: Manifest) -> Media:
    if manifest.profile.rules.bound and manifest.bleed > 0:
        # A bound book bleeds the top, bottom and outside edges only: the page is trim +
        # the bleed wide and + twice the bleed high, the trim against the spine side.
        b, w, h = manifest.bleed, trimmed.width, trimmed.height
        x0 = b if _first_page_number(trimmed) % 2 == 0 else 0.0  # versos bleed on the left
        return Media(
            width=w + b,
            height=h + 2 * b,
            offset=b,
            trim=(x0, b, x0 + w, b + h),
            bleed=(0.0, 0.0, w + b, h + 2 * b),
            x_offset=x0,
        )
    slug = CROP_MARK if manifest.crop_marks else 0.0
    offset = manifest.bleed + slug
    w, h = trimmed.width, trimmed.height
    b = manifest.bleed
    return Media(
        width=w + 2 * offset,
        height=h + 2 * offset,
        offset=offset,
        trim=(offset, offset, offset + w, offset + h),
        bleed=(offset - b, offset - b, offset + w + b, offset + h + b),
    )


def crop_marks(trimmed: Sized, manifest: Manifest, fold: float | None = None) -> Lines:
    """Hairlines at the trim corners (and at ``fold``, the spine of a spread), kept clear of
    the bleed; in trimmed-area space."""
    start = manifest.bleed + 2.0
    end = manifest.bleed + CROP_MARK - 1.0
    segments = []
    if fold is not None:
        segments.append((fold, -start, fold, -end))
        segments.append((fold, trimmed.height + start, fold, trimmed.height + end))
    for cx in (0.0, trimmed.width):
        sx = -1 if cx == 0 else 1
        for cy in (0.0, trimmed.height):
            sy = -1 if cy == 0 else 1
            segments.append((cx + sx * start, cy, cx + sx * end, cy))
            segments.append((cx, cy + sy * start, cx, cy + sy * end))
    return Lines("ink", 0.25, segments)


def single_sheets(pages: list[Page]) -> list[Sheet]:
    return [Sheet(p.width, p.height, ((p, 0.0),)) for p in pages]


def saddle_stitch(pages: list[Page]) -> list[Sheet]:
    """Sheet sides for a saddle-stitched booklet: last+first, second+second-to-last, ...

    The page count must be a multiple of 4 (the plan pads it) and every page one size.
    """
    count = len(pages)
    if count % 4:
        raise NonopressError(f"a saddle-stitched booklet needs a multiple of 4 pages, not {count}")
    sizes = {(round(p.width, 2), round(p.height, 2)) for p in pages}
    if len(sizes) > 1:
        raise NonopressError(
            "a booklet needs one page size, but some puzzles are on larger pages: "
            "take them out of the issue or print without imposition"
        )
    width, height = pages[0].width, pages[0].height
    sheets = []
    for k in range(count // 2):
        outer, inner = pages[count - 1 - k], pages[k]
        left, right = (outer, inner) if k % 2 == 0 else (inner, outer)
        sheets.append(Sheet(2 * width, height, ((left, 0.0), (right, width))))
    return sheets
