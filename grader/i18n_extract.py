"""Babel's extractor for the sentences of grader/ladder.yaml (``babel.cfg`` names it), so the
explanation templates reach the catalogues beside the messages marked in the code."""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any

import yaml


def _templates(rung: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    yield from (rung.get("explain") or {}).items()


def extract_ladder(
    fileobj: IO[bytes], keywords: Collection[str], comment_tags: Collection[str],
    options: Mapping[str, Any],
) -> Iterator[tuple[int, str | None, str | tuple[str, str], list[str]]]:
    """Each rung's name and each technique's sentence template (both kinds), with a
    translator's comment naming the technique and saying that the ``{fields}`` are phrases
    grader/explain.py (or, for a colour technique, grader/colour/grading.py) fills in."""
    table = yaml.safe_load(fileobj.read().decode("utf-8"))
    for number, rung in enumerate(table.get("rungs", []), 1):
        name_comment = ["a technique's name (grader/ladder.yaml)"]
        yield number, "pgettext", ("rung", rung["name"]), name_comment
        for technique, text in _templates(rung):
            comment = (f"technique {technique} (rung {rung['name']}); keep every "
                       "{field}: grader/explain.py FIELDS builds each phrase")
            yield number, None, text, [comment]
        for technique, text in ((rung.get("colour") or {}).get("explain") or {}).items():
            comment = (f"colour technique {technique} (rung {rung['name']}); keep every "
                       "{field}: grader/colour/grading.py COLOUR_FIELDS builds each phrase")
            yield number, None, " ".join(str(text).split()), [comment]
