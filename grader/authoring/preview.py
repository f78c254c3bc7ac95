"""A side-by-side PNG, each panel captioned: the original picture (when known), the
picture as read, the puzzle's solution, and what changed."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

import numpy as np

from grader.authoring.picture import GreyArray
from grader.authoring.result import AnyAuthored
from grader.colour.palette import parse_rgb
from grader.kinds import kind_of

if TYPE_CHECKING:
    import numpy.typing as npt
    from PIL.ImageDraw import ImageDraw

#: colours (RGB) of the preview
PAPER, INK, GRID = (255, 255, 255), (30, 30, 30), (200, 200, 200)
TURNED_ON, TURNED_OFF, GIVEN = (214, 39, 40), (31, 119, 180), (44, 160, 44)
#: pixels of caption text, and the room under the panels for it
CAPTION_PX, CAPTION_ROOM = 13, 34


def preview_png(result: AnyAuthored, cell: int | None = None,
                source: GreyArray | npt.NDArray[np.uint8] | None = None) -> bytes:
    """The panels as PNG bytes; ``cell`` pixels a cell (default: fits ~300 px);
    ``source``: the original picture, its grey levels or its RGB colours, shown first at
    the panels' height."""
    from PIL import Image, ImageDraw, ImageFont

    height, width = result.original.shape
    cell = cell or max(3, min(16, 300 // max(width, height)))
    gap = 2 * cell + 6
    panel_w, panel_h = width * cell, height * cell
    photo = None
    if source is not None:
        scale = panel_h / source.shape[0]
        size = (max(1, round(source.shape[1] * scale)), panel_h)
        pixels = np.clip(np.rint(source), 0, 255).astype(np.uint8)
        photo = Image.fromarray(pixels, mode="RGB" if pixels.ndim == 3 else "L").resize(
            size, Image.Resampling.BOX)
    widths = ([photo.width] if photo is not None else []) + [panel_w] * 3
    image = Image.new("RGB", (sum(widths) + (len(widths) + 1) * gap,
                              panel_h + 2 * gap + CAPTION_ROOM), PAPER)
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=CAPTION_PX)
    solution = result.puzzle.solution_array()
    assert solution is not None
    changed = solution != result.original
    puzzle = result.puzzle
    kind = kind_of(puzzle)
    given = {(r, c) for r, c, _ in kind.givens()}
    # the ink of each cell value: filled, or each palette colour (0 is the paper)
    colours = kind.palette()
    inks = [PAPER, INK] if colours is None else [PAPER, *(_rgb(c["rgb"]) for c in colours)]
    flips = len(result.flips)
    captions = (["original"] if photo is not None else []) + [
        f"as read ({width}x{height})",
        "puzzle" + (f", {result.grade.level}" if result.grade is not None else ""),
        f"changes: {flips} flip{'s' * (flips != 1)}, {len(given)} given"
        f"{'s' * (len(given) != 1)}",
    ]
    left = gap
    for index, caption in enumerate(captions):
        panel = index - (1 if photo is not None else 0)
        if panel < 0 and photo is not None:
            image.paste(photo.convert("RGB"), (left, gap))
        else:
            _draw_panel(draw, panel, left, gap, cell, result.original, solution, changed, given,
                        inks)
        draw.rectangle((left - 1, gap - 1, left + widths[index], gap + panel_h), outline=INK)
        draw.text((left, gap + panel_h + 8), caption, fill=INK, font=font)
        left += widths[index] + gap
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def _draw_panel(draw: ImageDraw, panel: int, left: int, top: int, cell: int,
                original: npt.NDArray[Any], solution: npt.NDArray[Any],
                changed: npt.NDArray[np.bool_], given: set[tuple[int, int]],
                inks: list[tuple[int, int, int]]) -> None:
    """Panel 0: the picture as read; 1: the solution (each cell value in its ink);
    2: the changes."""
    height, width = original.shape
    for r in range(height):
        for c in range(width):
            box = (left + c * cell, top + r * cell, left + (c + 1) * cell - 1,
                   top + (r + 1) * cell - 1)
            colour = PAPER
            if panel in (0, 1):
                colour = inks[int((original if panel == 0 else solution)[r, c])]
            elif panel == 2:
                if changed[r, c]:
                    colour = TURNED_ON if solution[r, c] else TURNED_OFF
                elif solution[r, c]:
                    colour = GRID
            draw.rectangle(box, fill=colour)
            if panel == 2 and (r, c) in given:
                draw.rectangle(box, outline=GIVEN, width=max(1, cell // 5))


def _rgb(text: str) -> tuple[int, int, int]:
    """A palette record's ``rrggbb`` as the RGB Pillow paints."""
    rgb = parse_rgb(text)
    assert rgb is not None, "a palette record holds valid colours"
    return rgb
