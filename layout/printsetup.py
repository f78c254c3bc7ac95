"""A manifest made to follow its print profile: the page a printer takes, its bleed, its ink,
no crop marks where they are refused. Called before the issue is built, so that a
manifest a profile cannot print fails before any grading."""

from __future__ import annotations

from dataclasses import replace

from grader.errors import NonopressError
from layout.manifest import Manifest
from layout.profiles import KDP_BLEED, KDP_TRIMS_IN, PDFX_MIN_BLEED, kdp_trim_name
from layout.units import MM


def apply_profile(manifest: Manifest) -> tuple[Manifest, list[str]]:
    """``manifest`` with the profile's page rules applied, and what was changed (warnings).

    Raises :class:`NonopressError` for what cannot be changed silently: a page size the
    printer does not print, or a saddle-stitch booklet for a bound book.
    """
    profile = manifest.profile
    warnings: list[str] = []
    source = manifest.source
    if profile.name == "kdp":
        page = manifest.page
        if kdp_trim_name(page.width, page.height) is None:
            sizes = ", ".join(f"{w:g}x{h:g}in" for w, h in KDP_TRIMS_IN)
            raise NonopressError(
                f"{source}: page {page.name} ({page.width / 72:.2f} x {page.height / 72:.2f} in)"
                f" is not a KDP paperback trim size; choose one of {sizes} (A4 and A5 too)"
            )
        if manifest.booklet or manifest.impose:
            raise NonopressError(
                f"{source}: KDP binds the book itself: booklet and impose are for "
                "saddle-stitched prints, leave them out with the kdp profile"
            )
        bleed = 0.0
        if manifest.bleed > 0:
            bleed = KDP_BLEED
            if not manifest.bleed_default and abs(manifest.bleed - KDP_BLEED) > 0.05:
                warnings.append(
                    f"bleed {manifest.bleed / MM:.1f} mm: KDP's bleed is 0.125 in (3.2 mm), "
                    "on the top, bottom and outside edges; used instead"
                )
        if manifest.crop_marks:
            warnings.append("crop marks left out: KDP rejects files with crop marks")
        manifest = replace(
            manifest,
            bleed=bleed,
            crop_marks=False,
            # A KDP puzzle book is a black-ink interior unless colour is asked for.
            grey=manifest.grey or not manifest.colour_asked,
        )
    elif profile.name == "pdfx" and manifest.bleed < PDFX_MIN_BLEED - 0.01:
        warnings.append(
            f"bleed {manifest.bleed / MM:.1f} mm raised to 3 mm: offset printers trim "
            "into a bleed of at least 3 mm (1/8 in in the US)"
        )
        manifest = replace(manifest, bleed=PDFX_MIN_BLEED)
    if manifest.pad_pages and profile.name != "kdp":
        warnings.append("pad_pages applies to KDP books only: ignored")
    return manifest, warnings
