"""Colours of a colour nonogram: name, RGB, the character used in text files and the
symbol printed in grey print, where colours cannot be told apart by ink.

Index 0 of a palette is always the background (white unless a file says otherwise);
clue blocks use the indices 1..K.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from grader.errors import PuzzleError

RGB = tuple[int, int, int]

#: More colours than this are refused: cell states are bit sets in 32-bit words.
MAX_COLOURS = 30

#: Colour words used by webpbn, Olsak (X11 rgb.txt) and pynogram (SVG) files, as RGB.
NAMED_COLOURS: dict[str, RGB] = {
    "white": (255, 255, 255), "black": (0, 0, 0), "red": (255, 0, 0),
    "green": (0, 128, 0), "lime": (0, 255, 0), "blue": (0, 0, 255),
    "yellow": (255, 255, 0), "orange": (255, 165, 0), "brown": (165, 42, 42),
    "pink": (255, 192, 203), "purple": (128, 0, 128), "violet": (238, 130, 238),
    "magenta": (255, 0, 255), "fuchsia": (255, 0, 255), "cyan": (0, 255, 255),
    "aqua": (0, 255, 255), "grey": (128, 128, 128), "gray": (128, 128, 128),
    "lightgrey": (211, 211, 211), "lightgray": (211, 211, 211),
    "darkgrey": (169, 169, 169), "darkgray": (169, 169, 169), "silver": (192, 192, 192),
    "navy": (0, 0, 128), "maroon": (128, 0, 0), "olive": (128, 128, 0),
    "teal": (0, 128, 128), "gold": (255, 215, 0), "beige": (245, 245, 220),
    "tan": (210, 180, 140), "salmon": (250, 128, 114), "skyblue": (135, 206, 235),
    "lightblue": (173, 216, 230), "darkblue": (0, 0, 139), "darkgreen": (0, 100, 0),
    "lightgreen": (144, 238, 144), "darkred": (139, 0, 0), "crimson": (220, 20, 60),
    "khaki": (240, 230, 140), "indigo": (75, 0, 130), "turquoise": (64, 224, 208),
    "chocolate": (210, 105, 30), "coral": (255, 127, 80), "ivory": (255, 255, 240),
    "lavender": (230, 230, 250), "peru": (205, 133, 63), "sienna": (160, 82, 45),
    "wheat": (245, 222, 179), "orchid": (218, 112, 214), "plum": (221, 160, 221),
}

#: Symbols for grey print, in the order colours receive them (all in the printed font).
PRINT_SYMBOLS = ("", "A", "B", "C", "D", "E", "F", "G", "H", "J", "K", "L", "M", "N", "P",
                 "R", "S", "T", "U", "V", "W", "X", "Y", "Z", "Q", "O", "I", "2", "3", "4",
                 "5")

_HEX = re.compile(r"^#?([0-9a-fA-F]{6}|[0-9a-fA-F]{3})$")


def parse_rgb(text: str) -> RGB | None:
    """``#rrggbb``, ``rrggbb``, ``rgb``, a colour word or ``(r, g, b)``; None if none of them."""
    text = text.strip()
    word = text.lower().replace(" ", "").replace("_", "")
    if word in NAMED_COLOURS:
        return NAMED_COLOURS[word]
    match = _HEX.match(text)
    if match:
        digits = match.group(1)
        if len(digits) == 3:
            digits = "".join(d * 2 for d in digits)
        return (int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16))
    parts = [p.strip() for p in text.strip("()").split(",")]
    if len(parts) == 3 and all(p.isdigit() and len(p) <= 3 for p in parts):
        values = tuple(int(p) for p in parts)
        if all(v <= 255 for v in values):
            return (values[0], values[1], values[2])
    return None


def rgb_hex(rgb: RGB) -> str:
    return "{:02x}{:02x}{:02x}".format(*rgb)


def luminance(rgb: RGB) -> float:
    """Relative brightness 0 (black) to 1 (white), by the Rec. 709 weights."""
    r, g, b = rgb
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255.0


@dataclass(frozen=True)
class Colour:
    """One colour: ``char`` stands for it in text grids and clue suffixes, ``symbol`` is
    what grey print shows beside its clue numbers and in its solution cells."""

    name: str
    rgb: RGB
    char: str
    symbol: str = ""

    def __post_init__(self) -> None:
        if not self.name or any(c.isspace() for c in self.name):
            raise PuzzleError(f"colour name {self.name!r} must be one word")
        # a control or bidi character would garble every text grid it stands in
        if len(self.char) != 1 or self.char.isspace() or self.char.isdigit() \
                or not self.char.isprintable():
            raise PuzzleError(f"colour {self.name!r}: char {self.char!r} must be one "
                              "printable character, not a digit or a space")
        if len(self.rgb) != 3 or any(not 0 <= int(v) <= 255 for v in self.rgb):
            raise PuzzleError(f"colour {self.name!r}: RGB {self.rgb!r} out of range")

    @property
    def dark(self) -> bool:
        """Whether digits printed on this colour must be white to be read."""
        return luminance(self.rgb) < 0.5

    @property
    def hex(self) -> str:
        return rgb_hex(self.rgb)


WHITE = Colour("white", (255, 255, 255), ".")
BLACK = Colour("black", (0, 0, 0), "#", "")


@dataclass(frozen=True)
class Palette:
    """The background (index 0) and the block colours (indices 1..K), all distinct."""

    colours: tuple[Colour, ...]
    background: Colour = WHITE

    def __post_init__(self) -> None:
        if not self.colours:
            raise PuzzleError("a palette needs at least one block colour")
        if len(self.colours) > MAX_COLOURS:
            raise PuzzleError(f"{len(self.colours)} colours; at most {MAX_COLOURS} are allowed")
        every = (self.background, *self.colours)
        for what in ("name", "char"):
            seen = [getattr(c, what) for c in every]
            if len(set(seen)) != len(seen):
                raise PuzzleError(f"two colours share the {what} {_duplicate(seen)!r}")
        # every colour gets a distinct printed symbol for grey print
        symbols = [c.symbol for c in self.colours if c.symbol]
        if len(set(symbols)) != len(symbols):
            raise PuzzleError(f"two colours share the symbol {_duplicate(symbols)!r}")
        if len(self.colours) > 1 and len(symbols) < len(self.colours):
            free = [s for s in PRINT_SYMBOLS[1:] if s not in symbols]
            filled = []
            for colour in self.colours:
                if not colour.symbol:
                    colour = Colour(colour.name, colour.rgb, colour.char, free.pop(0))
                filled.append(colour)
            object.__setattr__(self, "colours", tuple(filled))

    @property
    def size(self) -> int:
        """K, the number of block colours."""
        return len(self.colours)

    def __getitem__(self, index: int) -> Colour:
        return self.background if index == 0 else self.colours[index - 1]

    def index_of_name(self, name: str) -> int:
        for i, colour in enumerate(self.colours, 1):
            if colour.name == name:
                return i
        if name == self.background.name:
            return 0
        raise PuzzleError(f"unknown colour {name!r}")

    def names(self) -> list[str]:
        return [c.name for c in self.colours]

    @classmethod
    def black_and_white(cls) -> Palette:
        return cls((BLACK,))


def _duplicate(values: list[str]) -> str:
    seen: set[str] = set()
    for value in values:
        if value in seen:
            return value
        seen.add(value)
    return ""
