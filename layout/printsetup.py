"""A manifest made to follow its print profile: the page a printer takes, its bleed, its ink,
no crop marks where they are refused. Called before the issue is built, so that a
manifest a profile cannot print fails before any grading."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from grader.errors import NonopressError
from layout.manifest import Manifest
from layout.profiles import PROFILES
from layout.units import INCH, MM


def apply_profile(manifest: Manifest) -> tuple[Manifest, list[str]]:
    """``manifest`` with the profile's page rules applied, and what was changed (warnings).

    Raises :class:`NonopressError` for what cannot be changed silently: a page size the
    printer does not print, or a saddle-stitch booklet for a bound book.
    """
    rules = manifest.profile.rules
    printer = rules.printer
    warnings: list[str] = []
    source = manifest.source
    if rules.trims_in:
        page = manifest.page
        if rules.trim_name(page.width, page.height) is None:
            sizes = ", ".join(f"{w:g}x{h:g}in" for w, h in rules.trims_in)
            raise NonopressError(
                f"{source}: page {page.name} ({page.width / 72:.2f} x {page.height / 72:.2f} in)"
                f" is not a {printer} paperback trim size; choose one of {sizes} (A4 and A5 too)"
            )
    if rules.bound and (manifest.booklet or manifest.impose):
        raise NonopressError(
            f"{source}: {printer} binds the book itself: booklet and impose are for "
            f"saddle-stitched prints, leave them out with the {rules.name} profile"
        )
    changes: dict[str, Any] = {}
    if rules.bleed is not None:
        bleed = 0.0
        if manifest.bleed > 0:
            bleed = rules.bleed
            if not manifest.bleed_default and abs(manifest.bleed - rules.bleed) > 0.05:
                warnings.append(
                    f"bleed {manifest.bleed / MM:.1f} mm: {printer}'s bleed is "
                    f"{rules.bleed / INCH:g} in ({rules.bleed / MM:.1f} mm), on the top, "
                    "bottom and outside edges; used instead"
                )
        changes["bleed"] = bleed
    elif manifest.bleed < rules.least_bleed - 0.01:
        warnings.append(
            f"bleed {manifest.bleed / MM:.1f} mm raised to {rules.least_bleed / MM:g} mm: "
            "offset printers trim into a bleed of at least 3 mm (1/8 in in the US)"
        )
        changes["bleed"] = rules.least_bleed
    if not rules.crop_marks:
        if manifest.crop_marks:
            warnings.append(f"crop marks left out: {printer} rejects files with crop marks")
        changes["crop_marks"] = False
    if rules.grey_unless_asked:
        # A bound puzzle book is a black-ink interior unless colour is asked for.
        changes["grey"] = manifest.grey or not manifest.colour_asked
    if changes:
        manifest = replace(manifest, **changes)
    if manifest.pad_pages and not rules.min_pages:
        padded = " or ".join(r.printer for r in PROFILES.values() if r.min_pages)
        warnings.append(f"pad_pages applies to {padded} books only: ignored")
    return manifest, warnings
