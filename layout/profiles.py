"""Print profiles: the rules a printer holds a file to, as numbers the layout designs for.

``kdp`` is Amazon KDP's paperback interior (trim sizes, bleed on the outside edges only, a
gutter that grows with the page count, mirrored margins, 7 pt text, 0.75 pt lines);
``pdfx`` is PDF/X-1a:2001 for offset magazines (CMYK or grey, an OutputIntent naming a
registered printing condition, trim and bleed boxes); ``large_print`` (with either) keeps
every character at 14 pt or more. The preflight (``layout.preflight``) checks the same rules
on any PDF; the numbers both use live here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from grader.errors import NonopressError
from layout.units import INCH, MM

ColourSpace = Literal["DeviceCMYK", "DeviceRGB"]

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


#: IngramSpark's paperback trim sizes, in inches (its File Creation Guide's black-and-white
#: list: the sizes a puzzle book is printed at).
INGRAM_TRIMS_IN: tuple[tuple[float, float], ...] = (
    (4.25, 7.0), (4.37, 7.0), (5.0, 8.0), (5.06, 7.81), (5.25, 8.0), (5.5, 8.5), (5.83, 8.27),
    (6.0, 9.0), (6.14, 9.21), (6.69, 9.61), (7.0, 10.0), (7.44, 9.69), (7.5, 9.25),
    (8.0, 10.0), (8.25, 11.0), (8.27, 11.69), (8.5, 8.5), (8.5, 11.0),
)
#: IngramSpark: text, page numbers and rules at least 0.5 in from the trim on every side
#: (it allows 1/16 in of trim variation), with or without bleed.
INGRAM_MARGIN = 0.5 * INCH
INGRAM_MIN_PAGES = 18


@dataclass(frozen=True)
class PrintRules:
    """One print profile: a row of :data:`PROFILES`. Every rule of a printer the layout,
    the sheets, the PDF writer, the command line, the studio and the preflight follow is
    read from here; a new printer is a new row (and a test)."""

    name: str
    #: what ``profile:`` and ``--profile`` also accept for it
    aliases: tuple[str, ...] = ()
    #: how messages name the printer ("KDP"), and what the profile is called
    printer: str = ""
    title: str = "no print profile"  # ``{condition}``: the PDF/X output condition
    #: one line for the command line's help and the studio's menu
    summary: str = ""
    menu: str = ""
    colour_space: ColourSpace = "DeviceCMYK"
    # -- text and lines
    min_text: float = 0.0  #: no character smaller, in points
    design_line: float = 0.2  #: the thinnest line the layout draws
    min_line: float = 0.0  #: the thinnest line the preflight lets through
    line_status: Literal["fail", "warn"] = "warn"
    line_why: str = ""
    min_tint: float = 0.0  #: lightest grey tint
    max_ink: float = 0.0  #: total area coverage, 0: not checked
    # -- page and bleed
    trims_in: tuple[tuple[float, float], ...] = ()  #: () takes any page size
    bleed: float | None = None  #: the printer's own bleed, replacing the manifest's
    least_bleed: float = 0.0  #: a smaller bleed is raised to this
    #: a bound book: bleed on the top, bottom and outside edges only, mirrored margins,
    #: no saddle stitching, pad_pages to the least page count
    bound: bool = False
    crop_marks: bool = True  #: crop marks allowed
    bookmarks: bool = True
    grey_unless_asked: bool = False  #: a black-ink interior unless ``ink: colour``
    # -- margins and page count (a bound book's)
    #: (last page count, inside margin in inches)
    gutters: tuple[tuple[int, float], ...] = ()
    least_margin: float = 0.0  #: outside, top and bottom, in points
    least_margin_bleed: float = 0.0  #: the same with bleed
    min_pages: int = 0
    max_pages: int = 0  #: 0: no upper limit
    # -- the file
    output_intent: bool = False  #: PDF/X-1a:2001: one OutputIntent, TrimBox not ArtBox
    #: the preflight's rules, by name (layout.preflight.rules.RULES), in report order
    preflight: tuple[str, ...] = field(default=())

    @property
    def is_print(self) -> bool:
        return bool(self.printer)

    def trim_name(self, width: float, height: float) -> str | None:
        """``8.5x11in`` when (width, height) in points is one of the trim sizes, else None
        (any size, when the profile lists none)."""
        if not self.trims_in:
            return f"{width / INCH:g}x{height / INCH:g}in"
        for w, h in self.trims_in:
            if abs(width - w * INCH) <= 1.5 and abs(height - h * INCH) <= 1.5:
                return f"{w:g}x{h:g}in"
        return None

    def larger_trims(self, width: float, height: float) -> list[str]:
        """The trims (``8.5x11in``) at least as wide and as tall as a page of (width,
        height) points and larger than it, the largest first: where a puzzle too big for
        the page could go;
        [] when the page is the largest, ``["a larger page"]`` for a profile of any size."""
        if not self.trims_in:
            return ["a larger page"]
        return [f"{w:g}x{h:g}in" for w, h in sorted(self.trims_in, key=lambda t: -t[0] * t[1])
                if w * INCH >= width - 1.5 and h * INCH >= height - 1.5
                and (w * INCH > width + 1.5 or h * INCH > height + 1.5)]

    def larger_page_advice(self, width: float, height: float) -> str:
        """``choose a larger page (8.5x11in)``, or, when no trim of the printer is larger,
        that the page is its largest (advice that can be followed)."""
        larger = self.larger_trims(width, height)
        if larger == ["a larger page"]:
            return "choose a larger page"
        if larger:
            return f"choose a larger page ({', '.join(larger[:3])})"
        return (f"the {width / INCH:g}x{height / INCH:g}in page is the largest "
                f"{self.printer or 'this profile'} prints")

    def gutter(self, pages: int) -> float:
        """The inside margin of a book of ``pages`` pages, in points."""
        for last, inches in self.gutters:
            if pages <= last:
                return inches * INCH
        return self.gutters[-1][1] * INCH if self.gutters else 0.0


_PDFX_FILE = ("not-encrypted", "pdfx-version", "output-intent", "pdfx-keys", "pdfx-boxes",
              "fonts-embedded", "bitmap-fonts", "pdfx-colour", "black-text", "total-ink",
              "pdfx-transparency", "image-resolution", "pdfx-annotations")

#: The print profiles, one record each: the table every part of the toolkit reads.
PROFILES: dict[str, PrintRules] = {rules.name: rules for rules in (
    PrintRules("plain", aliases=("none",), menu="plain"),
    PrintRules(
        "kdp", printer="KDP", title="KDP paperback",
        summary="an Amazon KDP paperback interior", menu="KDP paperback",
        min_text=KDP_MIN_TEXT, design_line=KDP_DESIGN_LINE, min_line=KDP_MIN_LINE,
        line_status="fail", line_why=" (0.3 mm)", min_tint=KDP_MIN_TINT,
        trims_in=KDP_TRIMS_IN, bleed=KDP_BLEED, bound=True, crop_marks=False,
        bookmarks=False, grey_unless_asked=True, gutters=KDP_GUTTERS,
        least_margin=KDP_OUTSIDE, least_margin_bleed=KDP_OUTSIDE_BLEED,
        min_pages=KDP_MIN_PAGES, max_pages=KDP_MAX_PAGES,
        preflight=("not-encrypted", "trim-size", "page-count", "bleed", "margins",
                   "crop-marks", "fonts-embedded", "bitmap-fonts", "text-size", "line-width",
                   "tints", "colour", "image-resolution", "transparency", "annotations",
                   "bookmarks", "blank-pages"),
    ),
    PrintRules(
        "pdfx", aliases=("pdfx1a",), printer="offset printer",
        title="PDF/X-1a:2001 ({condition})",
        summary="PDF/X-1a:2001 for an offset magazine", menu="PDF/X-1a magazine",
        design_line=PDFX_DESIGN_LINE, min_line=PDFX_MIN_LINE,
        line_why=" (thinner breaks up on plates)", max_ink=PDFX_MAX_INK,
        least_bleed=PDFX_MIN_BLEED, output_intent=True,
        preflight=(*_PDFX_FILE, "marks-in-bleed", "line-width", "saddle-stitch"),
    ),
    PrintRules(
        "ingramspark", aliases=("ingram",), printer="IngramSpark",
        title="IngramSpark paperback (PDF/X-1a:2001, {condition})",
        summary="an IngramSpark paperback interior (PDF/X-1a:2001)",
        menu="IngramSpark paperback",
        design_line=PDFX_DESIGN_LINE, min_line=PDFX_MIN_LINE,
        line_why=" (thinner breaks up on the press)", max_ink=PDFX_MAX_INK,
        trims_in=INGRAM_TRIMS_IN, bleed=KDP_BLEED, bound=True, crop_marks=False,
        grey_unless_asked=True, gutters=((1 << 30, INGRAM_MARGIN / INCH),),
        least_margin=INGRAM_MARGIN, least_margin_bleed=INGRAM_MARGIN,
        min_pages=INGRAM_MIN_PAGES, output_intent=True,
        preflight=(*_PDFX_FILE, "trim-size", "page-count", "bleed", "margins",
                   "crop-marks", "line-width"),
    ),
)}


@dataclass(frozen=True)
class Profile:
    """What the layout designs for and what the preflight checks: a row of the table, with
    the manifest's large print and output condition."""

    name: str = "plain"
    large_print: bool = False
    output_condition: str = "FOGRA39"

    @property
    def rules(self) -> PrintRules:
        return PROFILES[self.name]

    @property
    def colour_space(self) -> ColourSpace:
        """The colour space of every colour the PDF sets (see :class:`PrintRules`)."""
        return self.rules.colour_space

    @property
    def is_print(self) -> bool:
        return self.rules.is_print

    @property
    def min_text(self) -> float:
        """No character (clue digits included) smaller than this, in points."""
        if self.large_print:
            return LARGE_PRINT_MIN_TEXT
        return self.rules.min_text

    @property
    def design_line(self) -> float:
        """The thinnest line the layout draws."""
        return self.rules.design_line

    @property
    def text_scale(self) -> float:
        return LARGE_PRINT_SCALE if self.large_print else 1.0

    def text(self, size: float) -> float:
        """The printed size of text designed at ``size`` points."""
        return max(size * self.text_scale, self.min_text)

    @property
    def bookmarks(self) -> bool:
        """Some printers reject bookmarks in an interior file."""
        return self.rules.bookmarks

    def describe(self) -> str:
        text = self.rules.title.format(condition=self.output_condition)
        return text + (", large print" if self.large_print else "")


PLAIN = Profile()


def parse_profile_name(value: object) -> str:
    text = str(value).strip().lower().replace("-", "").replace("/", "")
    for rules in PROFILES.values():
        if text == rules.name or text in rules.aliases:
            return rules.name
    raise NonopressError(f"profile: expected {', '.join(profile_choices())}, got {value!r}")


def profile_choices(printed_only: bool = False) -> tuple[str, ...]:
    """What ``--profile`` takes: every printer's profile, then ``none`` (the plain one's
    first alias); ``printed_only``: the printers' alone (what the preflight checks)."""
    printed = tuple(r.name for r in PROFILES.values() if r.is_print)
    plain = tuple(r.aliases[0] for r in PROFILES.values() if not r.is_print)
    return printed if printed_only else printed + plain


def profile_help() -> str:
    """``kdp = an Amazon KDP paperback interior, pdfx = ...``: for help texts."""
    return ", ".join(f"{r.name} = {r.summary}" for r in PROFILES.values() if r.is_print)


def profile_menu() -> list[dict[str, str]]:
    """The studio's menu of profiles: what the request sends, and its label."""
    rows = sorted(PROFILES.values(), key=lambda r: not r.is_print)  # printers first
    return [{"value": r.name if r.is_print else r.aliases[0], "label": r.menu} for r in rows]


def parse_output_condition(value: object) -> str:
    text = " ".join(str(value).split())
    for name in OUTPUT_CONDITIONS:
        if text.upper() == name.upper():
            return name
    raise NonopressError(
        f"output_condition: {value!r} is not a registered printing condition Nonopress "
        f"knows (choose one of {', '.join(OUTPUT_CONDITIONS)})"
    )
