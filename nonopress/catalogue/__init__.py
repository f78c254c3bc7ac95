"""The catalogue: a puzzle library in a database that remembers what was printed.

The Python API that ``nonopress library`` and the studio share::

    from nonopress.catalogue import open_catalogue, find, Filters
    with open_catalogue("nonopress-library.sqlite") as catalogue:   # or postgresql://...
        add_files(catalogue, ["puzzles/"])
        for entry in find(catalogue, Filters(levels=("medium",))):
            print(entry.id, entry.title, entry.size, entry.score)

Modules: ``schema`` (tables), ``database`` (open, migrate), ``importing`` (add, grade through
the batch machinery), ``finding`` (filters), ``dupes``, ``picking`` (fill an issue),
``history`` (printings), ``transfer`` (export and import), ``fill`` (a manifest's
``from_library`` section).
"""

from __future__ import annotations

from nonopress.catalogue.database import Catalogue, open_catalogue
from nonopress.catalogue.dupes import Duplicate, duplicates
from nonopress.catalogue.entries import Entry, Printing
from nonopress.catalogue.finding import Filters, counts, find, get
from nonopress.catalogue.history import Printed, earlier_printings, history, record_printings
from nonopress.catalogue.importing import ImportOptions, ImportSummary, add_files
from nonopress.catalogue.picking import LevelWant, PickRequest, pick, release

__all__ = [
    "Catalogue", "Duplicate", "Entry", "Filters", "ImportOptions", "ImportSummary",
    "LevelWant", "PickRequest", "Printed", "Printing", "add_files", "counts", "duplicates",
    "earlier_printings", "find", "get", "history", "open_catalogue", "pick",
    "record_printings", "release",
]
