"""A side-by-side PNG: the picture as read, the puzzle's solution, and what changed."""

from __future__ import annotations

import io

from grader.authoring.result import Authored

#: colours (RGB) of the preview
PAPER, INK, GRID = (255, 255, 255), (30, 30, 30), (200, 200, 200)
TURNED_ON, TURNED_OFF, GIVEN = (214, 39, 40), (31, 119, 180), (44, 160, 44)


def preview_png(result: Authored, cell: int | None = None) -> bytes:
    """The three panels as PNG bytes; ``cell`` pixels a cell (default: fits ~300 px)."""
    from PIL import Image, ImageDraw

    height, width = result.original.shape
    cell = cell or max(3, min(16, 300 // max(width, height)))
    gap = 2 * cell
    panel_w, panel_h = width * cell, height * cell
    image = Image.new("RGB", (3 * panel_w + 4 * gap, panel_h + 2 * gap), PAPER)
    draw = ImageDraw.Draw(image)
    solution = result.puzzle.solution_array()
    assert solution is not None
    changed = solution != result.original
    given = {(r, c) for r, c, _ in result.puzzle.givens}
    for panel in range(3):
        left = gap + panel * (panel_w + gap)
        for r in range(height):
            for c in range(width):
                box = (left + c * cell, gap + r * cell, left + (c + 1) * cell - 1,
                       gap + (r + 1) * cell - 1)
                colour = PAPER
                if (panel == 0 and result.original[r, c]) or (panel == 1 and solution[r, c]):
                    colour = INK
                elif panel == 2:
                    if changed[r, c]:
                        colour = TURNED_ON if solution[r, c] else TURNED_OFF
                    elif solution[r, c]:
                        colour = GRID
                draw.rectangle(box, fill=colour)
                if panel == 2 and (r, c) in given:
                    draw.rectangle(box, outline=GIVEN, width=max(1, cell // 5))
        draw.rectangle((left - 1, gap - 1, left + panel_w, gap + panel_h), outline=INK)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()

