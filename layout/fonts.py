"""The embedded sans-serif font and text widths.

DejaVu Sans when it is installed (Debian/Ubuntu ``fonts-dejavu-core``, the usual font on
Linux; Bitstream Vera licence): Vera extended to some 3,000 characters (Latin Extended,
Greek, Cyrillic, Armenian, Georgian, symbols) with Vera's own metrics for the characters
they share, so the layout is the same with either. Otherwise Bitstream Vera, which
reportlab ships (Latin-1 only). ``NONOPRESS_FONT_DIR`` names another folder holding
``DejaVuSans.ttf`` and ``DejaVuSans-Bold.ttf``. Characters the font lacks print as '?', and
:func:`missing_characters` names them so the issue command can warn.

A language whose script DejaVu lacks prints in a face of its own, chosen by the language
in force (grader.i18n): Japanese in IPAex Gothic (Debian/Ubuntu ``fonts-ipaexfont-gothic``,
IPA Font Licence), which has no bold (headings print in its one weight). A Japanese issue
without it is a NonopressError saying what to install.

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

#: Faces for the languages whose script DejaVu lacks: language -> (file, the folders
#: distributions put it in, the package that installs it).
SCRIPT_FACES = {
    "ja": ("ipaexg.ttf", ("/usr/share/fonts/opentype/ipaexfont-gothic",
                          "/usr/share/fonts/truetype/ipaexfont-gothic",
                          "/usr/share/fonts/ipa-ex-gothic", "/usr/share/fonts/OTF"),
           "fonts-ipaexfont-gothic"),
}

#: Height of a digit above the baseline, in ems (Vera's cap height): used to centre digits.
DIGIT_HEIGHT = 0.729


def font_dir() -> Path:
    return Path(reportlab.__file__).resolve().parent / "fonts"


def _script() -> str:
    """The language whose own face the text needs ("" for the Latin faces)."""
    from grader.i18n import current

    language = current().language.split("-")[0]
    return language if language in SCRIPT_FACES else ""


def font_files() -> dict[str, Path]:
    """The regular and bold TrueType files of the language in force: DejaVu Sans if
    installed, else reportlab's Vera (a script of its own: SCRIPT_FACES)."""
    return _font_files(_script())


@functools.cache
def _font_files(script: str) -> dict[str, Path]:
    if script:
        from grader.errors import NonopressError

        file, places, package = SCRIPT_FACES[script]
        for place in (os.environ.get("NONOPRESS_FONT_DIR", ""), *places):
            if place and Path(place, file).is_file():
                path = Path(place, file)
                return {f"{REGULAR}-{script}": path, f"{BOLD}-{script}": path}
        raise NonopressError(f"printing in {script!r} needs the font {file}: install "
                             f"{package} (or name its folder in NONOPRESS_FONT_DIR)")
    folders = [os.environ.get("NONOPRESS_FONT_DIR", ""), *DEJAVU_DIRS]
    for folder in filter(None, folders):
        files = {name: Path(folder, file) for name, file in _DEJAVU.items()}
        if all(path.is_file() for path in files.values()):
            return files
    return {name: font_dir() / file for name, file in _VERA.items()}


def register_fonts() -> tuple[str, str]:
    """Register the regular and bold faces of the language in force with reportlab (once
    each) and return their names."""
    return _register(_script())


@functools.cache
def _register(script: str) -> tuple[str, str]:
    names = list(_font_files(script))
    for name, path in _font_files(script).items():
        pdfmetrics.registerFont(TTFont(name, str(path)))
    return names[0], names[1]


def text_width(text: str, size: float, bold: bool = False) -> float:
    return _width(_script(), text, size, bold)


@functools.lru_cache(maxsize=4096)
def _width(script: str, text: str, size: float, bold: bool) -> float:
    regular, heavy = _register(script)
    return float(pdfmetrics.stringWidth(_printable(script, text), heavy if bold else regular,
                                        size))


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
    """``text`` broken into lines no wider than ``width``: at spaces, and in Japanese
    between characters where the rules of Japanese typesetting allow (layout/linebreak.py);
    a word wider than a line is broken between its characters (never cut short)."""
    from layout.linebreak import wrap

    return wrap(text, width, lambda line: text_width(line, size, bold))


def fit_text(text: str, size: float, width: float, bold: bool = False) -> str:
    """``text`` cut with an ellipsis so that it fits ``width`` at ``size``."""
    if text_width(text, size, bold) <= width:
        return text
    while text and text_width(text + "...", size, bold) > width:
        text = text[:-1]
    return (text.rstrip() + "...") if text else ""


@functools.lru_cache(maxsize=4)
def _covered(script: str = "") -> frozenset[int]:
    font = pdfmetrics.getFont(_register(script)[0])
    # reportlab's subsetting handles the Basic Multilingual Plane only (U+1F600 came out
    # as U+1F60): anything above counts as missing
    return frozenset(code for code in font.face.charToGlyph if code <= 0xFFFF)


def missing_characters(text: str) -> str:
    """The distinct characters of ``text`` the font has no glyph for (shown as '?')."""
    covered = _covered(_script())
    missing = dict.fromkeys(ch for ch in text if ord(ch) >= 32 and ord(ch) not in covered)
    return "".join(missing)


def printable(text: str) -> str:
    """``text`` with control characters as spaces and characters the font lacks as '?'."""
    return _printable(_script(), text)


def _printable(script: str, text: str) -> str:
    covered = _covered(script)
    return "".join(
        " " if ord(ch) < 32 else ch if ord(ch) in covered else "?" for ch in text
    )
