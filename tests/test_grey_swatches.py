"""Grey print of colour puzzles (issue 46, item 9): no colour's tint is the clue band's,
so a swatch and a clue square of the lightest colour stand out from the clue background,
and every tint still takes black digits."""

from __future__ import annotations

from grader.colour.palette import Colour, Palette, luminance
from layout.draw import Rects
from layout.kinds.colour import digit_colour, fill_of, legend_ops
from layout.pdf import GREY_OF

RAINBOW = [("cream", (250, 240, 200)), ("yellow", (250, 220, 40)), ("green", (40, 160, 60)),
           ("blue", (30, 60, 200)), ("red", (210, 30, 30)), ("brown", (110, 70, 30)),
           ("grey", (128, 128, 128)), ("navy", (10, 20, 80))]


def test_every_grey_tint_stands_apart_from_the_clue_band() -> None:
    clue_band = 1.0 - GREY_OF["tint"]  # the clue background's lightness
    for size in range(2, len(RAINBOW) + 1):
        palette = Palette(tuple(Colour(name, rgb, "abcdefgh"[k])
                                for k, (name, rgb) in enumerate(RAINBOW[:size])))
        for index in range(1, size + 1):
            fill = fill_of(palette, index, grey=True)
            assert abs(fill[0] / 255 - clue_band) >= 0.1, (size, palette[index].name, fill)
            assert digit_colour(fill) == (0, 0, 0)  # black digits read on every tint
        # the legend draws each swatch in its tint
        swatches = [op.rgb for op in legend_ops(palette, True, 0, 0, 8, 2000)
                    if isinstance(op, Rects)]
        assert len(swatches) == size
        assert all(s is not None and abs(luminance(s) - clue_band) >= 0.1 for s in swatches)
