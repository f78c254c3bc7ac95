"""Real solves back into the grade (issue 49): what the web player reports of each solve
attempt, the collector that keeps it in the catalogue, the reports on it and the refit of
the minutes from it.

Modules: ``record`` (one record, validated field by field), ``store`` (stored once per
record id), ``collector`` (the ASGI app answering ``POST /api/solves``, mounted by the studio
and run alone by ``nonopress collect``), ``reports`` (``library solves``), ``refit``
(``calibrate --from-solves``). This part imports no face: the CLI and the studio import it.
"""

from __future__ import annotations

from nonopress.solves.record import RecordRefused, SolveRecord, parse_record
from nonopress.solves.store import KnownPuzzles, store_solve

__all__ = ["KnownPuzzles", "RecordRefused", "SolveRecord", "parse_record", "store_solve"]
