"""Set what a puzzle says about itself (title, author, copyright, licence, source) on many
catalogue puzzles at once: an editor buys a stock of 200 puzzles from one setter, under one
licence, and titles them as a series.

Both the catalogue's columns and the stored puzzle text change (the text is what an issue
prints and ``export`` writes), in one write transaction. The clues do not change, so neither
does a puzzle's key. A title may hold ``{n}`` (1, 2, ... in id order), ``{id}`` and
``{title}`` (the title it had).
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping, Sequence

import sqlalchemy as sa

from grader.errors import NonopressError
from grader.kinds import read_puzzles
from nonopress.catalogue import schema
from nonopress.catalogue.database import Catalogue

#: the fields that may be set, and the puzzle metadata each is (the column is the field)
FIELDS: dict[str, str] = {"title": "title", "author": "author", "copyright": "copyright",
                          "licence": "license", "source": "source"}
#: what a title template may name
TITLE_FIELDS = frozenset({"n", "id", "title"})
#: the longest value a field may be given (a title made from a template included)
MAX_VALUE = 1000
#: the widest a template's field may be padded ({n:>4} yes, {n:>999999999} no)
MAX_WIDTH = 100


def parse_assignments(items: Sequence[str]) -> dict[str, str]:
    """``author=Jane Doe`` ... as {field: value}; an error naming a field that cannot be set
    or an item without ``=``."""
    values: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        name = name.strip().lower().replace("license", "licence")
        if not sep or name not in FIELDS:
            raise NonopressError(f"{item!r}: expected FIELD=VALUE with FIELD one of "
                                 f"{', '.join(FIELDS)}")
        values[name] = value.strip()
        if len(values[name]) > MAX_VALUE:
            raise NonopressError(f"{name}: {len(values[name]):,} characters, over the limit "
                                 f"of {MAX_VALUE:,}")
    if "title" in values:
        _check_template(values["title"])
    return values


def _check_template(title: str) -> None:
    try:
        fields = [(name, spec) for _, name, spec, _ in string.Formatter().parse(title)
                  if name is not None]
    except ValueError as exc:
        raise NonopressError(f"title {title[:80]!r}: {exc} (write {{{{ and }}}} for braces)") \
            from None
    names = {name for name, _ in fields}
    for name, spec in fields:
        widths = [int(w) for w in re.findall(r"\d+", spec or "")]
        if "{" in (spec or "") or any(w > MAX_WIDTH for w in widths):
            raise NonopressError(f"title {title[:80]!r}: {{{name}:{(spec or '')[:20]}}} pads "
                                 f"wider than {MAX_WIDTH} characters")
    unknown = sorted(names - TITLE_FIELDS)
    if unknown:
        raise NonopressError(f"title {title!r}: {{{unknown[0]}}} is not one of "
                             f"{{n}}, {{id}}, {{title}}")


def set_metadata(catalogue: Catalogue, ids: Sequence[int], values: Mapping[str, str]
                 ) -> list[tuple[int, str]]:
    """Set ``values`` on the puzzles ``ids`` (in id order for ``{n}``); each puzzle's id and
    title afterwards."""
    from nonopress.catalogue.importing import puzzle_text

    unknown = [name for name in values if name not in FIELDS]
    if unknown:
        raise NonopressError(f"cannot set {unknown[0]!r}: one of {', '.join(FIELDS)}")
    if "title" in values:
        _check_template(values["title"])
    P = schema.puzzles
    done: list[tuple[int, str]] = []
    with catalogue.writing(exclusive=True) as connection:
        rows = connection.execute(sa.select(P.c.id, P.c.title, P.c.puzzle)
                                  .where(P.c.id.in_(list(ids))).order_by(P.c.id)).all()
        missing = sorted(set(ids) - {int(row.id) for row in rows})
        if missing:
            raise NonopressError(f"no puzzle {missing[0]} in {catalogue.name}")
        for number, row in enumerate(rows, 1):
            changes = dict(values)
            if "title" in changes:
                try:
                    changes["title"] = changes["title"].format(n=number, id=row.id,
                                                               title=row.title)
                except (ValueError, TypeError) as exc:
                    raise NonopressError(f"title {values['title'][:80]!r}: {exc}") from None
                if len(changes["title"]) > MAX_VALUE:
                    raise NonopressError(f"title: puzzle {row.id}'s would be "
                                         f"{len(changes['title']):,} characters, over the "
                                         f"limit of {MAX_VALUE:,}")
            puzzle = read_puzzles(str(row.puzzle).encode("utf-8"), format="yaml",
                                  name=f"catalogue puzzle {row.id}")[0]
            puzzle = puzzle.with_meta(**{FIELDS[name]: value for name, value in changes.items()})
            connection.execute(P.update().where(P.c.id == row.id).values(
                puzzle=puzzle_text(puzzle), **changes))
            done.append((int(row.id), puzzle.title))
    return done
