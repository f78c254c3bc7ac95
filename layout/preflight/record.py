"""What the layout drew, recorded as it drew it, in the preflight's own terms.

The PDF back end knows every mark it paints (its colour, line width, text size and extent):
it records them here as :class:`Mark` lists, one :class:`PageScan` a sheet, so the preflight
of a file we just wrote need not tokenize its content streams again (about half the time of
building a 300-page book). The preflight still reads the file itself (boxes, fonts, keys,
OutputIntent, transparency in the resources) and parses a sample of its pages to compare
with the record (:func:`page_facts`): a record that disagrees is thrown away and every
page parsed. A foreign PDF is always parsed in full.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from layout.preflight.scan import Box, Colour, Mark, PageScan

Point = tuple[float, float]


def _where(box: Box) -> str:
    return f"x {box[0]:.0f}-{box[2]:.0f}, y {box[1]:.0f}-{box[3]:.0f} pt"


@dataclass
class PageRecorder:
    """The marks of one sheet as the PDF back end paints them, at the current origin."""

    scan: PageScan
    dx: float = 0.0
    dy: float = 0.0
    what: str = ""  # the sheet's name in findings ("page 3")
    _count: int = field(default=0, repr=False)

    def _at(self, kind: str) -> str:
        self._count += 1
        return f"{self.what} {kind} {self._count}, as drawn"

    def rects(self, colour: Colour, rects: list[tuple[float, float, float, float]]) -> None:
        """Filled rectangles painted as one path."""
        if not rects:
            return
        dx, dy = self.dx, self.dy
        box = (min(min(x, x + w) for x, _, w, _ in rects) + dx,
               min(min(y, y + h) for _, y, _, h in rects) + dy,
               max(max(x, x + w) for x, _, w, _ in rects) + dx,
               max(max(y, y + h) for _, y, _, h in rects) + dy)
        thin = min(min(abs(w), abs(h)) for _, _, w, h in rects)
        what = "filled " + (f"{thin:.2f} pt thin " if thin < 2 else "")
        shape = f"path of {4 * len(rects)} segment(s) at {_where(box)}"
        self.scan.marks.append(Mark("fill", box, colour,
                                    f"{what}{shape} ({self._at('path')})", thinnest=thin))

    def path(self, fill: Colour | None, stroke: Colour | None, width: float,
             xs: list[float], ys: list[float], segments: int) -> None:
        """A path of straight segments through the points (xs, ys), filled and/or stroked."""
        if not xs:
            return
        dx, dy = self.dx, self.dy
        box = (min(xs) + dx, min(ys) + dy, max(xs) + dx, max(ys) + dy)
        shape = f"path of {max(segments, 1)} segment(s) at {_where(box)}"
        at = self._at("path")
        if fill is not None:
            thin = min(box[2] - box[0], box[3] - box[1])
            what = "filled " + (f"{thin:.2f} pt thin " if thin < 2 else "")
            self.scan.marks.append(Mark("fill", box, fill, f"{what}{shape} ({at})",
                                        thinnest=thin))
        if stroke is not None:
            half = max(width, 0.01) / 2
            wide = (box[0] - half, box[1] - half, box[2] + half, box[3] + half)
            self.scan.marks.append(Mark("stroke", wide, stroke,
                                        f"stroked {shape}, {width:.2f} pt wide ({at})",
                                        line_width=width))

    def text(self, colour: Colour, runs: list[tuple[float, float, float]], size: float,
             text: str, font: str) -> None:
        """Runs of text at one size and colour, each (x, y on the baseline, advance): one
        mark over all of them (a puzzle's clue numbers), named by ``text``."""
        if not runs or not text:
            return
        dx, dy = self.dx, self.dy
        box = (min(min(x, x + w) for x, _, w in runs) + dx, min(y for _, y, _ in runs)
               + dy - 0.2 * size, max(max(x, x + w) for x, _, w in runs) + dx,
               max(y for _, y, _ in runs) + dy + 0.8 * size)
        preview = text[:24] if text.isascii() and text.isprintable() else "".join(
            ch if " " <= ch <= "~" else "?" for ch in text[:24])
        self.scan.marks.append(Mark(
            "text", box, colour,
            f"text {preview!r} in {font} at {size:.1f} pt ({self._at('text')})",
            text_size=size, font=font))


@dataclass(frozen=True)
class PageFacts:
    """What the rules judge a page by, summed up so that two scans can be compared: the
    colours each kind of mark uses, the thinnest line, fill and text, the extent of the ink
    and of every mark. (The same page parsed and recorded split paths and text runs
    differently; these facts do not depend on how.)"""

    colours: frozenset[tuple[str, str, tuple[float, ...]]]  # (kind, space, values)
    thinnest_line: float | None
    thinnest_fill: float | None
    smallest_text: float | None
    ink: Box | None
    extent: Box | None
    kinds: frozenset[str]


def _union(boxes: list[Box]) -> Box | None:
    if not boxes:
        return None
    return (min(b[0] for b in boxes), min(b[1] for b in boxes),
            max(b[2] for b in boxes), max(b[3] for b in boxes))


def page_facts(scan: PageScan) -> PageFacts:
    marks = scan.marks

    def least(values: list[float]) -> float | None:
        return min(values) if values else None

    return PageFacts(
        colours=frozenset((m.kind, m.colour.space, m.colour.values)
                          for m in marks if m.colour is not None),
        thinnest_line=least([m.line_width for m in marks if m.line_width is not None]),
        thinnest_fill=least([m.thinnest for m in marks if m.thinnest is not None]),
        smallest_text=least([m.text_size for m in marks if m.text_size is not None]),
        ink=_union([m.bbox for m in marks if not m.blank]),
        extent=_union([m.bbox for m in marks]),
        kinds=frozenset(m.kind for m in marks),
    )


def same_facts(parsed: PageFacts, recorded: PageFacts, slack: float = 0.05) -> bool:
    """Whether a parsed page and its record agree on everything the rules look at, within
    ``slack`` points (a PDF writer rounds lengths to a few decimals)."""

    def close(a: float | None, b: float | None) -> bool:
        return (a is None) == (b is None) and (a is None or b is None or abs(a - b) <= slack)

    def boxes(a: Box | None, b: Box | None) -> bool:
        return (a is None) == (b is None) and (
            a is None or b is None or all(abs(p - q) <= slack for p, q in zip(a, b, strict=True)))

    def matched(ours: frozenset[tuple[str, str, tuple[float, ...]]],
                theirs: frozenset[tuple[str, str, tuple[float, ...]]]) -> bool:
        return all(any(kind == k and space == s and len(values) == len(v)
                       and all(abs(p - q) <= 0.002 for p, q in zip(values, v, strict=True))
                       for k, s, v in theirs) for kind, space, values in ours)

    return (matched(parsed.colours, recorded.colours)
            and matched(recorded.colours, parsed.colours) and parsed.kinds == recorded.kinds
            and close(parsed.thinnest_line, recorded.thinnest_line)
            and close(parsed.thinnest_fill, recorded.thinnest_fill)
            and close(parsed.smallest_text, recorded.smallest_text)
            and boxes(parsed.ink, recorded.ink) and boxes(parsed.extent, recorded.extent))
