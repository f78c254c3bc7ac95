"""Colours as a person sees them: CIELAB, the CIEDE2000 colour difference, the everyday
name of a colour, and the WCAG contrast of two colours.

RGB distances misjudge colours badly (a pale green is nearer ``tan`` than any green in
RGB); CIEDE2000 in CIELAB is the standard measure of how different two colours look. The
names are a short list of words a reader uses, each at the colour people most often mean by
it (the xkcd colour survey's centres, rounded), so a name in a legend or a sentence is one
the reader would have chosen.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

RGB = tuple[int, int, int]
FloatArray = npt.NDArray[np.float64]

#: everyday colour words (one word each: a palette name has no spaces) and the colour
#: people mean by them
COLOUR_WORDS: dict[str, RGB] = {
    "black": (0, 0, 0), "white": (255, 255, 255), "grey": (146, 149, 145),
    "darkgrey": (70, 72, 72), "lightgrey": (200, 204, 200), "silver": (190, 192, 194),
    "red": (229, 0, 0), "darkred": (132, 0, 0), "maroon": (101, 0, 33),
    "crimson": (190, 20, 50), "pink": (255, 129, 192), "lightpink": (255, 209, 223),
    "hotpink": (255, 2, 141), "rose": (207, 98, 117), "salmon": (255, 121, 108),
    "coral": (252, 90, 80), "peach": (255, 176, 124), "orange": (249, 115, 6),
    "rust": (168, 60, 9), "brown": (101, 55, 0), "darkbrown": (52, 28, 2),
    "lightbrown": (173, 129, 80), "tan": (209, 178, 111), "beige": (230, 218, 166),
    "cream": (255, 255, 194), "khaki": (170, 166, 98), "gold": (219, 180, 12),
    "mustard": (206, 179, 1), "yellow": (255, 255, 20), "paleyellow": (255, 255, 132),
    "olive": (110, 117, 14), "lightolive": (172, 191, 105), "paleolive": (185, 204, 129),
    "lime": (170, 255, 50), "lightgreen": (150, 249, 123),
    "palegreen": (199, 253, 181), "sage": (135, 174, 115), "green": (21, 176, 26),
    "darkgreen": (3, 53, 0), "forestgreen": (6, 71, 12), "seagreen": (83, 252, 161),
    "teal": (2, 147, 134), "turquoise": (6, 194, 172), "aqua": (19, 234, 201),
    "cyan": (0, 255, 255), "skyblue": (117, 187, 253), "lightblue": (149, 208, 252),
    "paleblue": (208, 254, 254), "blue": (3, 67, 223), "royalblue": (5, 4, 170),
    "darkblue": (0, 3, 91), "navy": (1, 21, 62), "slate": (81, 101, 114),
    "periwinkle": (142, 130, 254), "lavender": (199, 159, 239), "lilac": (206, 162, 253),
    "violet": (154, 14, 234), "purple": (126, 30, 156), "darkpurple": (53, 6, 62),
    "magenta": (194, 0, 120), "plum": (88, 15, 65), "mauve": (174, 113, 129),
    "indigo": (56, 2, 130),
}


def lab(rgb: Sequence[RGB] | npt.NDArray[np.integer]) -> FloatArray:
    """sRGB (0-255, ... x 3) to CIELAB under D65."""
    values = np.asarray(rgb, dtype=np.float64) / 255.0
    linear = np.where(values <= 0.04045, values / 12.92, ((values + 0.055) / 1.055) ** 2.4)
    xyz = linear @ np.array([[0.4124564, 0.2126729, 0.0193339],
                             [0.3575761, 0.7151522, 0.1191920],
                             [0.1804375, 0.0721750, 0.9503041]])
    xyz = xyz / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    out: FloatArray = np.stack([116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]),
                                200 * (f[..., 1] - f[..., 2])], axis=-1)
    return out


def delta_e(first: FloatArray, second: FloatArray) -> FloatArray:
    """CIEDE2000 difference of CIELAB colours (broadcast over leading axes): about 1 is
    the smallest difference a person notices, 10 a clear one."""
    l1, a1, b1 = first[..., 0], first[..., 1], first[..., 2]
    l2, a2, b2 = second[..., 0], second[..., 1], second[..., 2]
    c_mean = (np.hypot(a1, b1) + np.hypot(a2, b2)) / 2
    g = 0.5 * (1 - np.sqrt(c_mean ** 7 / (c_mean ** 7 + 25.0 ** 7)))
    a1p, a2p = a1 * (1 + g), a2 * (1 + g)
    c1p, c2p = np.hypot(a1p, b1), np.hypot(a2p, b2)
    h1p = np.degrees(np.arctan2(b1, a1p)) % 360
    h2p = np.degrees(np.arctan2(b2, a2p)) % 360
    dl, dc = l2 - l1, c2p - c1p
    dh = h2p - h1p
    dh = np.where(dh > 180, dh - 360, np.where(dh < -180, dh + 360, dh))
    dh = np.where(c1p * c2p == 0, 0.0, dh)
    dhp = 2 * np.sqrt(c1p * c2p) * np.sin(np.radians(dh / 2))
    l_mean, cp_mean = (l1 + l2) / 2, (c1p + c2p) / 2
    h_sum = h1p + h2p
    h_mean = np.where(np.abs(h1p - h2p) > 180,
                      np.where(h_sum < 360, (h_sum + 360) / 2, (h_sum - 360) / 2), h_sum / 2)
    h_mean = np.where(c1p * c2p == 0, h_sum, h_mean)
    t = (1 - 0.17 * np.cos(np.radians(h_mean - 30)) + 0.24 * np.cos(np.radians(2 * h_mean))
         + 0.32 * np.cos(np.radians(3 * h_mean + 6))
         - 0.20 * np.cos(np.radians(4 * h_mean - 63)))
    sl = 1 + 0.015 * (l_mean - 50) ** 2 / np.sqrt(20 + (l_mean - 50) ** 2)
    sc = 1 + 0.045 * cp_mean
    sh = 1 + 0.015 * cp_mean * t
    rotation = -2 * np.sqrt(cp_mean ** 7 / (cp_mean ** 7 + 25.0 ** 7)) * np.sin(
        np.radians(60 * np.exp(-(((h_mean - 275) / 25) ** 2))))
    out: FloatArray = np.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (dhp / sh) ** 2
                              + rotation * (dc / sc) * (dhp / sh))
    return out


_WORDS = tuple(COLOUR_WORDS)
_WORD_LAB = lab(list(COLOUR_WORDS.values()))


def colour_word(rgb: RGB, taken: set[str] | frozenset[str] = frozenset()) -> str | None:
    """The everyday word nearest ``rgb`` by CIEDE2000 not in ``taken`` (None if all are)."""
    distances = delta_e(lab([rgb])[0], _WORD_LAB)
    order: list[int] = np.argsort(distances, kind="stable").tolist()
    return next((_WORDS[index] for index in order if _WORDS[index] not in taken), None)


def relative_luminance(rgb: RGB) -> float:
    """WCAG 2 relative luminance: 0 (black) to 1 (white), on linear light."""
    linear = [v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4
              for v in (c / 255.0 for c in rgb)]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast_ratio(first: RGB, second: RGB) -> float:
    """WCAG 2 contrast ratio, 1 (none) to 21 (black on white); text wants 4.5 or more."""
    high, low = sorted((relative_luminance(first), relative_luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def readable_ink(background: RGB) -> RGB:
    """Black or white, whichever contrasts more with ``background`` (for digits on it)."""
    black, white = (0, 0, 0), (255, 255, 255)
    return black if contrast_ratio(black, background) >= contrast_ratio(white, background) \
        else white
