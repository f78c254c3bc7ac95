"""The project's own drawings, made in code (so free to use anywhere): silhouettes and line
art for the tour, the tests and the bench. Each is drawn on a 400x400 canvas, black on white.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from PIL import Image, ImageDraw

Canvas = ImageDraw.ImageDraw
Shape = Callable[[Canvas, "Pen"], None]
SIDE = 400


class Pen:
    """Fills shapes (silhouette) or strokes their outlines (line art)."""

    def __init__(self, line_art: bool, width: int = 14):
        self.line_art = line_art
        self.width = width

    def style(self) -> dict[str, object]:
        if self.line_art:
            return {"outline": 0, "width": self.width}
        return {"fill": 0}


def _star(points: int, inner: float = 0.45) -> Shape:
    def draw(canvas: Canvas, pen: Pen) -> None:
        corners = []
        for k in range(points * 2):
            radius = 180 if k % 2 == 0 else 180 * inner
            angle = -math.pi / 2 + k * math.pi / points
            corners.append((200 + radius * math.cos(angle), 210 + radius * math.sin(angle)))
        canvas.polygon(corners, **pen.style())  # type: ignore[arg-type]
    return draw


def _heart(canvas: Canvas, pen: Pen) -> None:
    corners = []
    for k in range(120):
        t = 2 * math.pi * k / 120
        x = 16 * math.sin(t) ** 3
        y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        corners.append((200 + 11 * x, 190 - 11 * y))
    canvas.polygon(corners, **pen.style())  # type: ignore[arg-type]


def _circle(canvas: Canvas, pen: Pen) -> None:
    canvas.ellipse((30, 30, 370, 370), **pen.style())  # type: ignore[arg-type]


def _house(canvas: Canvas, pen: Pen) -> None:
    canvas.polygon([(200, 30), (370, 180), (30, 180)], **pen.style())  # type: ignore[arg-type]
    canvas.rectangle((70, 180, 330, 370), **pen.style())  # type: ignore[arg-type]
    canvas.rectangle((170, 260, 230, 370), fill=255, outline=0,
                     width=pen.width if pen.line_art else 0)


def _tree(canvas: Canvas, pen: Pen) -> None:
    for top, half in ((30, 90), (100, 130), (180, 170)):
        canvas.polygon([(200, top), (200 + half, top + 140), (200 - half, top + 140)],
                       **pen.style())  # type: ignore[arg-type]
    canvas.rectangle((175, 320, 225, 380), **pen.style())  # type: ignore[arg-type]


def _moon(canvas: Canvas, pen: Pen) -> None:
    canvas.ellipse((40, 40, 360, 360), **pen.style())  # type: ignore[arg-type]
    canvas.ellipse((130, 10, 420, 300), fill=255, outline=0,
                   width=pen.width if pen.line_art else 0)


def _arrow(canvas: Canvas, pen: Pen) -> None:
    canvas.polygon([(30, 160), (230, 160), (230, 70), (380, 200), (230, 330), (230, 240),
                    (30, 240)], **pen.style())  # type: ignore[arg-type]


def _cross(canvas: Canvas, pen: Pen) -> None:
    canvas.polygon([(150, 30), (250, 30), (250, 150), (370, 150), (370, 250), (250, 250),
                    (250, 370), (150, 370), (150, 250), (30, 250), (30, 150), (150, 150)],
                   **pen.style())  # type: ignore[arg-type]


def _face(canvas: Canvas, pen: Pen) -> None:
    canvas.ellipse((30, 30, 370, 370), **pen.style())  # type: ignore[arg-type]
    ink = 0 if pen.line_art else 255
    canvas.ellipse((120, 110, 170, 170), fill=ink)
    canvas.ellipse((230, 110, 280, 170), fill=ink)
    canvas.arc((110, 150, 290, 300), 20, 160, fill=ink, width=22)


def _cat(canvas: Canvas, pen: Pen) -> None:
    canvas.polygon([(70, 40), (160, 130), (60, 170)], **pen.style())  # type: ignore[arg-type]
    canvas.polygon([(330, 40), (240, 130), (340, 170)], **pen.style())  # type: ignore[arg-type]
    canvas.ellipse((50, 90, 350, 370), **pen.style())  # type: ignore[arg-type]
    ink = 0 if pen.line_art else 255
    canvas.ellipse((120, 180, 170, 230), fill=ink)
    canvas.ellipse((230, 180, 280, 230), fill=ink)


def _fish(canvas: Canvas, pen: Pen) -> None:
    canvas.polygon([(250, 200), (380, 100), (380, 300)], **pen.style())  # type: ignore[arg-type]
    canvas.ellipse((20, 110, 300, 290), **pen.style())  # type: ignore[arg-type]
    canvas.ellipse((70, 170, 100, 200), fill=0 if pen.line_art else 255)


def _umbrella(canvas: Canvas, pen: Pen) -> None:
    canvas.pieslice((20, 40, 380, 360), 180, 360, **pen.style())  # type: ignore[arg-type]
    canvas.line((200, 200, 200, 350), fill=0, width=20)
    canvas.arc((140, 310, 210, 380), 0, 180, fill=0, width=20)


def _mushroom(canvas: Canvas, pen: Pen) -> None:
    canvas.pieslice((30, 40, 370, 340), 180, 360, **pen.style())  # type: ignore[arg-type]
    canvas.rectangle((150, 190, 250, 370), **pen.style())  # type: ignore[arg-type]


def _bell(canvas: Canvas, pen: Pen) -> None:
    canvas.polygon([(120, 120), (280, 120), (330, 300), (70, 300)],
                   **pen.style())  # type: ignore[arg-type]
    canvas.pieslice((120, 40, 280, 200), 180, 360, **pen.style())  # type: ignore[arg-type]
    canvas.rectangle((40, 300, 360, 330), **pen.style())  # type: ignore[arg-type]
    canvas.ellipse((170, 320, 230, 380), **pen.style())  # type: ignore[arg-type]


def _key(canvas: Canvas, pen: Pen) -> None:
    canvas.ellipse((20, 120, 180, 280), **pen.style())  # type: ignore[arg-type]
    canvas.ellipse((70, 170, 130, 230), fill=255, outline=0,
                   width=pen.width if pen.line_art else 0)
    canvas.rectangle((170, 180, 380, 220), **pen.style())  # type: ignore[arg-type]
    canvas.rectangle((300, 220, 330, 280), **pen.style())  # type: ignore[arg-type]
    canvas.rectangle((350, 220, 380, 260), **pen.style())  # type: ignore[arg-type]


def _bolt(canvas: Canvas, pen: Pen) -> None:
    canvas.polygon([(230, 20), (80, 230), (190, 230), (150, 380), (320, 150), (210, 150),
                    (270, 20)], **pen.style())  # type: ignore[arg-type]


SHAPES: dict[str, Shape] = {
    "heart": _heart,
    "star": _star(5),
    "star6": _star(6, 0.55),
    "circle": _circle,
    "house": _house,
    "tree": _tree,
    "moon": _moon,
    "arrow": _arrow,
    "cross": _cross,
    "face": _face,
    "cat": _cat,
    "fish": _fish,
    "umbrella": _umbrella,
    "mushroom": _mushroom,
    "bell": _bell,
    "key": _key,
    "bolt": _bolt,
}

STYLES = ("silhouette", "line-art")


def draw(name: str, style: str = "silhouette", line_width: int = 14) -> Image.Image:
    """One drawing as a greyscale Pillow image (400x400, black on white)."""
    if name not in SHAPES:
        raise KeyError(f"no drawing {name!r}; choose from {', '.join(SHAPES)}")
    image = Image.new("L", (SIDE, SIDE), 255)
    SHAPES[name](ImageDraw.Draw(image), Pen(style == "line-art", line_width))
    return image


def catalogue() -> list[tuple[str, str]]:
    """Every (shape, style) pair."""
    return [(name, style) for name in SHAPES for style in STYLES]
