"""Print profiles: the rules a printer holds a file to, as numbers the layout designs for.

``kdp`` is Amazon KDP's paperback interior (trim sizes, bleed on the outside edges only, a
gutter that grows with the page count, mirrored margins, 7 pt text, 0.75 pt lines);
``pdfx`` is PDF/X-1a:2001 for offset magazines (CMYK or grey, an OutputIntent naming a
registered printing condition, trim and bleed boxes); ``large_print`` (with either) keeps
every character at 14 pt or more. The preflight (``layout.preflight``) checks the same rules
on any PDF; the numbers both use live here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from grader.errors import NonopressError
from layout.units import INCH, MM

ProfileName = Literal["plain", "kdp", "pdfx"]
PROFILE_NAMES: tuple[ProfileName, ...] = ("plain", "kdp", "pdfx")
ColourSpace = Literal["DeviceCMYK", "DeviceRGB"]
#: The one colour space every colour operator of a profile's PDF uses. All three are made to
#: be printed, so all are CMYK: black and greys as K ink alone (RGB black prints as
#: four-colour "rich" black, which smears and misregisters), the accent and a colour
#: puzzle's colours as process CMYK with their grey part in K. A screen or a home printer
#: shows DeviceCMYK through the naive conversion the CMYK values were made from, so a
#: colour puzzle looks as its author chose. A grey (black-ink) issue uses K alone.
COLOUR_SPACES: dict[ProfileName, ColourSpace] = {
    "plain": "DeviceCMYK", "kdp": "DeviceCMYK", "pdfx": "DeviceCMYK",
}

#: KDP paperback trim sizes, in inches (width, height): the ones KDP lists for paperbacks.
KDP_TRIMS_IN: tuple[tuple[float, float], ...] = (
    (5.0, 8.0), (5.06, 7.81), (5.25, 8.0), (5.5, 8.5), (5.83, 8.27), (6.0, 9.0),
    (6.14, 9.21), (6.69, 9.61), (7.0, 10.0), (7.44, 9.69), (7.5, 9.25), (8.0, 10.0),
    (8.25, 6.0), (8.25, 8.25), (8.5, 8.5), (8.25, 11.0), (8.5, 11.0), (8.27, 11.69),
)
KDP_BLEED = 0.125 * INCH
#: (last page count, inside margin in inches): KDP's gutter table.
KDP_GUTTERS: tuple[tuple[int, float], ...] = (
    (150, 0.375), (300, 0.5), (500, 0.625), (700, 0.75), (828, 0.875),
)
KDP_MIN_PAGES, KDP_MAX_PAGES = 24, 828
KDP_OUTSIDE = 0.25 * INCH
KDP_OUTSIDE_BLEED = 0.375 * INCH
KDP_MIN_TEXT = 7.0
KDP_MIN_LINE = 0.75
KDP_MIN_TINT = 0.10
#: Lines are designed this heavy so that rounding and RIPs never take them under 0.75 pt.
KDP_DESIGN_LINE = 0.85
#: Offset plates lose lines thinner than this; the layout keeps a little above it.
PDFX_MIN_LINE = 0.25
PDFX_DESIGN_LINE = 0.3
PDFX_MIN_BLEED = 3 * MM
PDFX_MAX_INK = 3.0  # total area coverage, 300 %
LARGE_PRINT_MIN_TEXT = 14.0
LARGE_PRINT_BODY = 16.0
#: Body text of the ordinary layout is 10 pt: large print scales it to 16 pt.
LARGE_PRINT_SCALE = LARGE_PRINT_BODY / 10.0

#: Printing conditions registered with the ICC (identifier -> description). A PDF/X-1a file
#: naming one of these needs no embedded output profile.
OUTPUT_CONDITIONS: dict[str, str] = {
    "FOGRA39": "Offset commercial and specialty printing, coated paper (ISO 12647-2:2004/Amd 1)",
    "FOGRA47": "Offset commercial and specialty printing, uncoated paper (ISO 12647-2:2004)",
    "FOGRA51": "Offset printing, PSO Coated v3, premium coated paper (ISO 12647-2:2013)",
    "FOGRA52": "Offset printing, PSO Uncoated v3, wood-free uncoated paper (ISO 12647-2:2013)",
    "CGATS TR 001": "SWOP: publication offset printing, coated #5 paper (CGATS TR 001)",
    "CGATS TR 006": "Web offset on coated #5 paper, US (CGATS TR 006)",
}
ICC_REGISTRY = "http://www.color.org"


@dataclass(frozen=True)
class Profile:
    """What the layout designs for and what the preflight checks."""

    name: ProfileName = "plain"
    large_print: bool = False
    output_condition: str = "FOGRA39"

    @property
    def colour_space(self) -> ColourSpace:
        """The colour space of every colour the PDF sets (see COLOUR_SPACES)."""
        return COLOUR_SPACES[self.name]

    @property
    def is_print(self) -> bool:
        return self.name != "plain"

    @property
    def min_text(self) -> float:
        """No character (clue digits included) smaller than this, in points."""
        if self.large_print:
            return LARGE_PRINT_MIN_TEXT
        return KDP_MIN_TEXT if self.name == "kdp" else 0.0

    @property
    def design_line(self) -> float:
        """The thinnest line the layout draws."""
        return {"kdp": KDP_DESIGN_LINE, "pdfx": PDFX_DESIGN_LINE}.get(self.name, 0.2)

    @property
    def text_scale(self) -> float:
        return LARGE_PRINT_SCALE if self.large_print else 1.0

    def text(self, size: float) -> float:
        """The printed size of text designed at ``size`` points."""
        return max(size * self.text_scale, self.min_text)

    @property
    def bookmarks(self) -> bool:
        """KDP rejects bookmarks in an interior file."""
        return self.name != "kdp"

    def describe(self) -> str:
        text = {"plain": "no print profile", "kdp": "KDP paperback",
                "pdfx": f"PDF/X-1a:2001 ({self.output_condition})"}[self.name]
        return text + (", large print" if self.large_print else "")


PLAIN = Profile()


def parse_profile_name(value: object) -> ProfileName:
    text = str(value).strip().lower().replace("-", "").replace("/", "")
    aliases: dict[str, ProfileName] = {
        "kdp": "kdp", "pdfx": "pdfx", "pdfx1a": "pdfx", "none": "plain", "plain": "plain",
    }
    if text not in aliases:
        raise NonopressError(f"profile: expected kdp, pdfx or none, got {value!r}")
    return aliases[text]


def parse_output_condition(value: object) -> str:
    text = " ".join(str(value).split())
    for name in OUTPUT_CONDITIONS:
        if text.upper() == name.upper():
            return name
    raise NonopressError(
        f"output_condition: {value!r} is not a registered printing condition Nonopress "
        f"knows (choose one of {', '.join(OUTPUT_CONDITIONS)})"
    )


def kdp_trim_name(width: float, height: float) -> str | None:
    """``8.5x11in`` when (width, height) in points is a KDP trim size, else None."""
    for w, h in KDP_TRIMS_IN:
        if abs(width - w * INCH) <= 1.5 and abs(height - h * INCH) <= 1.5:
            return f"{w:g}x{h:g}in"
    return None


def kdp_gutter(pages: int) -> float:
    """KDP's inside margin for a book of ``pages`` pages, in points."""
    for last, inches in KDP_GUTTERS:
        if pages <= last:
            return inches * INCH
    return KDP_GUTTERS[-1][1] * INCH
