"""Colour in the formats that can hold it: webpbn XML, Olsak ``.g``, pynogram, the
project's YAML and JSON, and pictures (PNG, GIF, BMP). See :mod:`grader.colour.io`."""

from __future__ import annotations

from grader.colour.formats import mapping, olsak, pictures, pynogram, webpbn
from grader.colour.formats._base import ColourFormat

#: format name (as in grader.formats.FORMATS) -> how it holds colour
COLOUR_FORMATS: dict[str, ColourFormat] = {
    spec.name: spec for spec in (
        webpbn.FORMAT, olsak.FORMAT, pynogram.FORMAT, mapping.YAML_FORMAT,
        mapping.JSON_FORMAT, pictures.PNG_FORMAT, pictures.GIF_FORMAT, pictures.BMP_FORMAT)
}

__all__ = ["COLOUR_FORMATS", "ColourFormat"]
