"""Pictures for the HTML report: solution thumbnails as PNG data URIs, histograms as SVG.

Everything is inline, so the report is one file that opens without a network.
"""

from __future__ import annotations

import base64
import io
import math
from collections.abc import Mapping, Sequence
from html import escape

import numpy as np
from PIL import Image

#: Colours of a black-and-white thumbnail: filled, empty
_BLACK_AND_WHITE = {"#": "#000000", ".": "#ffffff"}
#: a cell still unknown (grading stopped early), or a character the palette does not name
_OPEN = (170, 170, 170)


def thumbnail_data_uri(rows: Sequence[str], palette: Mapping[str, str] | None = None) -> str:
    """A PNG (one pixel per cell, scaled up by the browser) of a solution's row strings,
    each character painted in its ``palette`` colour (``#rrggbb``; none given: ``#`` black,
    ``.`` white); ``?`` and unknown characters grey.

    Empty text when the rows are not a rectangle (nothing sensible to draw).
    """
    if not rows or not rows[0] or any(len(r) != len(rows[0]) for r in rows):
        return ""
    colours = {char: _rgb(value) for char, value in (palette or _BLACK_AND_WHITE).items()}
    pixels = np.array([[colours.get(char, _OPEN) for char in row] for row in rows],
                      dtype=np.uint8)
    buffer = io.BytesIO()
    Image.fromarray(pixels).save(buffer, format="PNG", optimize=True)
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def _rgb(value: str) -> tuple[int, int, int]:
    """``#rrggbb`` as a triple; grey for anything else (a damaged database row)."""
    text = value.lstrip("#")
    try:
        if len(text) == 6:
            return int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16)
    except ValueError:
        pass
    return _OPEN


def score_bins(scores: Sequence[float], count: int = 10) -> list[tuple[str, int]]:
    """Equal-width bins over the scores' range, labelled by their lower edge."""
    if not scores:
        return []
    low, high = min(scores), max(scores)
    if math.isclose(low, high):
        return [(_number(low), len(scores))]
    width = (high - low) / count
    counts = [0] * count
    for score in scores:
        counts[min(int((score - low) / width), count - 1)] += 1
    return [(_number(low + i * width), n) for i, n in enumerate(counts)]


def _number(value: float) -> str:
    return f"{value:.0f}" if abs(value) >= 10 else f"{value:.2g}"


def histogram_svg(bars: Sequence[tuple[str, int]], *, title: str, x_label: str) -> str:
    """A bar chart: one bar per (label, count), counts written above the bars."""
    # Wide enough that level names such as "needs-guessing" do not overlap.
    width = max(460, 46 + 96 * len(bars)) if any(len(b[0]) > 6 for b in bars) else 460
    height, margin_left, margin_bottom, top = 220, 36, 40, 28
    plot_w, plot_h = width - margin_left - 10, height - margin_bottom - top
    peak = max((n for _, n in bars), default=0) or 1
    slot = plot_w / max(len(bars), 1)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="histogram" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{escape(title)}">',
        f'<text x="{width / 2:.0f}" y="16" text-anchor="middle" class="chart-title">'
        f"{escape(title)}</text>",
        f'<line x1="{margin_left}" y1="{top + plot_h}" x2="{width - 10}" y2="{top + plot_h}" '
        'stroke="#444"/>',
    ]
    for i, (label, count) in enumerate(bars):
        bar_h = plot_h * count / peak
        x = margin_left + i * slot + slot * 0.1
        y = top + plot_h - bar_h
        parts.append(
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{slot * 0.8:.1f}" height="{bar_h:.1f}" '
            f'fill="#4a6fa5"><title>{escape(label)}: {count}</title></rect>'
        )
        centre = x + slot * 0.4
        parts.append(
            f'<text x="{centre:.1f}" y="{y - 3:.1f}" text-anchor="middle" '
            f'class="count">{count}</text>'
        )
        parts.append(
            f'<text x="{centre:.1f}" y="{top + plot_h + 14}" text-anchor="middle" '
            f'class="tick">{escape(label)}</text>'
        )
    parts.append(
        f'<text x="{width / 2:.0f}" y="{height - 6}" text-anchor="middle" class="axis">'
        f"{escape(x_label)}</text>"
    )
    parts.append("</svg>")
    return "".join(parts)
