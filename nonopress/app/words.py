"""The player's words: the part of a language's catalogue the web player shows, shipped in
the puzzle's JSON ("catalogue") so a page, or a puzzle embedded elsewhere, speaks the reader's
language with no request of its own.

The messages are the ones the player's scripts mark (``_('Undo')``, ``ngettext(...)``,
``pgettext(...)`` in nonopress/assets/*.js, read by Babel's JavaScript extractor, as
``pybabel extract`` reads them for the template), the names of the rungs its hint table
names and the level of its grade: one ``.po`` file per language, never a second set of
strings in JavaScript. English ships none (the scripts' own text is the English).
"""

from __future__ import annotations

import functools
from typing import Any

from grader.i18n import SOURCE, catalogue_json, resolve
from nonopress.assets import FILES, FOLDER

#: the keywords the player's scripts mark messages with (Babel's spec of their arguments)
KEYWORDS: dict[str, Any] = {"_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}


@functools.cache
def player_messages() -> frozenset[str]:
    """Every message the player's scripts mark, as catalogue keys (``context\\x04message``
    with a context, the singular of a plural)."""
    from babel.messages.extract import extract

    found: set[str] = set()
    for name in FILES:
        if not name.endswith(".js"):
            continue
        with (FOLDER / name).open("rb") as handle:
            for _line, message, _comments, context in extract(
                    "javascript", handle, keywords=KEYWORDS):
                singular = message[0] if isinstance(message, tuple) else message
                found.add(f"{context}\x04{singular}" if context else singular)
    return frozenset(found)


@functools.cache
def _catalogue(language: str) -> dict[str, Any]:
    return catalogue_json(language)


def player_words(language: str, rungs: list[str] | tuple[str, ...] = (), level: str = ""
                 ) -> dict[str, Any] | None:
    """The words a puzzle's page needs in ``language``: the player's messages, the names of
    ``rungs`` (its hint table's) and ``level``; None in English."""
    name = resolve(language)
    if name == SOURCE:
        return None
    wanted = set(player_messages()) | {f"rung\x04{rung}" for rung in rungs}
    if level:
        wanted.add(f"level\x04{level}")
    whole = _catalogue(name)
    messages = {key: text for key, text in whole["messages"].items() if key in wanted}
    return {"language": name, "plural": whole["plural"], "messages": messages}


__all__ = ["KEYWORDS", "player_messages", "player_words"]
