"""``library dupes``: one design stored twice (the same shape key: rotated, mirrored or
transposed), and near duplicates (the same size, one or two cells apart under a symmetry)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from grader.shapes import Picture
from nonopress.catalogue.database import Catalogue
from nonopress.catalogue.entries import Entry


@dataclass(frozen=True)
class Duplicate:
    """Two puzzles of one design: ``cells`` 0 for the same picture under a symmetry."""

    first: Entry
    second: Entry
    cells: int

    def describe(self) -> str:
        how = "the same design" if self.cells == 0 else f"{self.cells} cell(s) apart"
        return (f"{self.first.id} {self.first.title or '(untitled)'} ~ {self.second.id} "
                f"{self.second.title or '(untitled)'}: {how} ({self.first.size})")


def duplicates(catalogue: Catalogue, *, near: int = 2) -> list[Duplicate]:
    """Every pair of one design, then pairs at most ``near`` cells apart (same cell count)."""
    import sqlalchemy as sa

    from nonopress.catalogue import schema
    from nonopress.catalogue.entries import entry_from_row

    P = schema.puzzles
    if near > 0:  # whole rows: a colour picture needs its palette
        query = sa.select(P).where(P.c.shape_key.is_not(None))
    else:  # one design twice only: the listing's columns of the keys held more than once
        from nonopress.catalogue.finding import LISTED

        twice = (sa.select(P.c.shape_key).where(P.c.shape_key.is_not(None))
                 .group_by(P.c.shape_key).having(sa.func.count() > 1))
        query = sa.select(*LISTED).where(P.c.shape_key.in_(twice))
    with catalogue.reading() as connection:
        entries = [entry_from_row(row) for row in connection.execute(query.order_by(P.c.id))]
    found: list[Duplicate] = []
    by_key: dict[str, list[Entry]] = defaultdict(list)
    for entry in entries:
        assert entry.shape_key is not None
        by_key[entry.shape_key].append(entry)
    for group in by_key.values():
        found += [Duplicate(group[0], other, 0) for other in group[1:]]
    if near > 0:
        found += near_duplicates([group[0] for group in by_key.values()], near)
    return found


def near_duplicates(entries: list[Entry], near: int) -> list[Duplicate]:
    """Pairs of distinct designs of one size (either way round) and kind within ``near``
    cells; compared only within a bucket of the same size and nearly the same ink."""
    from grader.shapes import cells_apart

    buckets: dict[tuple[str, int, int], list[tuple[int, Entry, Picture]]] = defaultdict(list)
    for entry in entries:
        picture = _array(entry)
        if picture is None:
            continue
        ink = int((picture != 0).sum())
        side = (min(entry.width, entry.height), max(entry.width, entry.height))
        buckets[(entry.kind, *side)].append((ink, entry, picture))
    pairs: list[Duplicate] = []
    for bucket in buckets.values():
        bucket.sort(key=lambda item: item[0])
        for i, (ink, entry, picture) in enumerate(bucket):
            for other_ink, other, other_picture in bucket[i + 1:]:
                if other_ink - ink > near:
                    break
                apart = cells_apart(picture, other_picture)
                if apart is not None and 0 < apart <= near:
                    pairs.append(Duplicate(entry, other, apart))
    return pairs


def _array(entry: Entry) -> Picture | None:
    """The stored solution as a picture; the puzzle is read back only when its kind's rows
    need it (a colour puzzle's palette), not for every black-and-white row."""
    from grader.kinds import STORED

    kind = STORED.get(entry.kind)
    if kind is None or not entry.solution or any("?" in row for row in entry.solution):
        return None
    return kind.stored_picture(entry.solution, entry.puzzle)

