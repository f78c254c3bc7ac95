"""The embedded sans-serif font and text widths.

DejaVu Sans when it is installed (Debian/Ubuntu ``fonts-dejavu-core``, the usual font on
Linux; Bitstream Vera licence): Vera extended to some 3,000 characters (Latin Extended,
Greek, Cyrillic, Armenian, Georgian, symbols) with Vera's own metrics for the characters
they share, so the layout is the same with either. Otherwise Bitstream Vera, which
reportlab ships (Latin-1 only). ``NONOPRESS_FONT_DIR`` names another folder holding
``DejaVuSans.ttf`` and ``DejaVuSans-Bold.ttf``. Characters the font lacks print as '?', and
:func:`missing_characters` names them so the issue command can warn.

Registering a TrueType font makes reportlab embed (a subset of) it; no base-14 font is used.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

import reportlab
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

REGULAR = "NonopressSans"
BOLD = "NonopressSans-Bold"
_VERA = {REGULAR: "Vera.ttf", BOLD: "VeraBd.ttf"}
_DEJAVU = {REGULAR: "DejaVuSans.ttf", BOLD: "DejaVuSans-Bold.ttf"}
#: Where Debian, Ubuntu, Fedora and Arch put DejaVu.
DEJAVU_DIRS = (
    "/usr/share/fonts/truetype/dejavu",
    "/usr/share/fonts/dejavu-sans-fonts",
    "/usr/share/fonts/TTF",
    "/usr/share/fonts/dejavu",
)

#: Height of a digit above the baseline, in ems (Vera's cap height): used to centre digits.
DIGIT_HEIGHT = 0.729


def font_dir() -> Path:
    return Path(reportlab.__file__).resolve().parent / "fonts"


@functools.cache
def font_files() -> dict[str, Path]:
    """The regular and bold TrueType files: DejaVu Sans if installed, else reportlab's Vera."""
    folders = [os.environ.get("NONOPRESS_FONT_DIR", ""), *DEJAVU_DIRS]
    for folder in filter(None, folders):
        files = {name: Path(folder, file) for name, file in _DEJAVU.items()}
        if all(path.is_file() for path in files.values()):
            return files
    return {name: font_dir() / file for name, file in _VERA.items()}


@functools.cache
def register_fonts() -> tuple[str, str]:
    """Register the regular and bold faces with reportlab (once) and return their names."""
    for name, path in font_files().items():
        pdfmetrics.registerFont(TTFont(name, str(path)))
    return REGULAR, BOLD


@functools.lru_cache(maxsize=4096)
def text_width(text: str, size: float, bold: bool = False) -> float:
    register_fonts()
    return float(pdfmetrics.stringWidth(printable(text), BOLD if bold else REGULAR, size))


def digit_width() -> float:
    """The advance width of one digit at size 1 (Vera digits are all the same width)."""
    return text_width("0", 1.0)


#: the smallest text printed (print-on-demand printers' minimum)
MIN_TEXT_SIZE = 7.0


def fit_size(
    text: str, size: float, width: float, bold: bool = False, smallest: float = MIN_TEXT_SIZE
) -> float | None:
    """The largest size from ``size`` down to ``smallest`` (half-point steps) at which
    ``text`` fits ``width`` whole; None when it does not fit even at ``smallest``."""
    current = size
    while current >= smallest - 1e-9:
        if text_width(text, current, bold) <= width:
            return current
        current = round(current - 0.5, 2)
    return None


def wrap_words(text: str, size: float, width: float, bold: bool = False) -> list[str]:
    """``text`` broken at spaces into lines no wider than ``width``; a word wider than a
    line is broken between its characters (never cut short)."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}" if current else word
        if text_width(candidate, size, bold) <= width:
            current = candidate
            continue
        if current:
            lines.append(current)
        current = ""
        for char in word:  # a word wider than the line: as many characters a line as fit
            if current and text_width(current + char, size, bold) > width:
                lines.append(current)
                current = ""
            current += char
    if current or not lines:
        lines.append(current)
    return lines


def fit_text(text: str, size: float, width: float, bold: bool = False) -> str:
    """``text`` cut with an ellipsis so that it fits ``width`` at ``size``."""
    if text_width(text, size, bold) <= width:
        return text
    while text and text_width(text + "...", size, bold) > width:
        text = text[:-1]
    return (text.rstrip() + "...") if text else ""


@functools.lru_cache(maxsize=1)
def _covered() -> frozenset[int]:
    register_fonts()
    font = pdfmetrics.getFont(REGULAR)
    # reportlab's subsetting handles the Basic Multilingual Plane only (U+1F600 came out
    # as U+1F60): anything above counts as missing
    return frozenset(code for code in font.face.charToGlyph if code <= 0xFFFF)


def missing_characters(text: str) -> str:
    """The distinct characters of ``text`` the font has no glyph for (shown as '?')."""
    covered = _covered()
    missing = dict.fromkeys(ch for ch in text if ord(ch) >= 32 and ord(ch) not in covered)
    return "".join(missing)


def printable(text: str) -> str:
    """``text`` with control characters as spaces and characters the font lacks as '?'."""
    covered = _covered()
    return "".join(
        " " if ord(ch) < 32 else ch if ord(ch) in covered else "?" for ch in text
    )
