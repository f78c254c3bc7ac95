"""Words a reader sees, in the reader's language: one gettext catalogue per language.

The catalogues are ``grader/locale/<language>/LC_MESSAGES/nonopress.po``, read at run time
(parsed by Babel and turned into a gettext catalogue in memory, a few milliseconds), so a
fresh checkout needs no compile step. English is the source language: it has no catalogue
and never loads Babel, so English output is exactly the text in the code. ``en-XA`` is the
pseudo-locale built from the English messages themselves (every letter accented, every
string bracketed), which tests use to prove that no visible string escapes the catalogue.

Code marks a message with :func:`_` (or :func:`ngettext` for a count) and names its
placeholders (``_("Puzzle {number}", number=7)``): a sentence is translated whole, never
assembled from English fragments. Which language is in force is a context variable set by a
command (:func:`use`), so the layout and the explanations need no language parameter on
every function.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import gettext as _gettext
import io
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from grader.errors import NonopressError

if TYPE_CHECKING:
    import datetime
    from pathlib import Path

    LOCALE_DIR: Path
DOMAIN = "nonopress"
SOURCE = "en"
PSEUDO = "en-XA"


@functools.cache
def _locale_dir() -> Path:
    # made on first use: English, every command's default, never reads a catalogue, and
    # pathlib is a measurable part of a check's start-up
    from pathlib import Path

    return Path(__file__).resolve().parent / "locale"


def __getattr__(name: str) -> Path:
    if name == "LOCALE_DIR":  # the catalogues' folder
        return _locale_dir()
    raise AttributeError(name)


def _fill(text: str, values: Mapping[str, Any]) -> str:
    return text.format_map(values) if values else text


class Translator:
    """One language's messages, numbers and dates."""

    def __init__(self, language: str, catalogue: _gettext.NullTranslations):
        self.language = language
        self._catalogue = catalogue

    def gettext(self, message: str, /, **values: Any) -> str:
        """``message`` in this language, its ``{named}`` placeholders filled."""
        return _fill(self._catalogue.gettext(message), values)

    def ngettext(self, singular: str, plural: str, count: int, /, **values: Any) -> str:
        """The form of a message for ``count`` (``{count}`` is filled with it) by the
        language's own plural rule (Polish has three forms, Japanese one)."""
        text = self._catalogue.ngettext(singular, plural, count)
        return text.format_map({"count": self.integer(count), **values})

    def pgettext(self, context: str, message: str, /, **values: Any) -> str:
        """``message`` in a context that tells two uses of the same English apart."""
        return _fill(self._catalogue.pgettext(context, message), values)

    @property
    def babel_locale(self) -> str:
        return "en" if self.language == PSEUDO else self.language.replace("-", "_")

    def integer(self, value: int) -> str:
        if self.language == SOURCE:
            return str(value)
        from babel.numbers import format_decimal

        return str(format_decimal(value, format="0", locale=self.babel_locale))

    def number(self, value: float, decimals: int) -> str:
        """``value`` with ``decimals`` places, in the language's digits and decimal mark
        (English as Python writes it, so English output never changes)."""
        if self.language == SOURCE:
            return f"{value:.{decimals}f}"
        from babel.numbers import format_decimal

        pattern = "0." + "0" * decimals if decimals else "0"
        return str(format_decimal(value, format=pattern, locale=self.babel_locale))

    def date(self, value: datetime.date, width: str = "long") -> str:
        """A date as the language writes it ("12 March 2026", "12. März 2026")."""
        from babel.dates import format_date

        return str(format_date(value, format=width, locale=self.babel_locale))


# -- the pseudo-locale ------------------------------------------------------------------------
_ACCENTED = dict(
    zip(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
        "åƀçđéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇĐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ",
        strict=True,
    )
)


def pseudo(message: str) -> str:
    """``message`` with every letter accented and brackets round it, placeholders
    (``{name}``, ``{name:.1f}``) kept as they are: "Hint" -> "[Ĥîñţ]"."""
    out, depth = [], 0
    for char in message:
        if char == "{":
            depth += 1
        elif char == "}":
            depth = max(0, depth - 1)
        out.append(char if depth else _ACCENTED.get(char, char))
    return "[" + "".join(out) + "]"


class _Pseudo(_gettext.NullTranslations):
    def gettext(self, message: str) -> str:
        return pseudo(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return pseudo(msgid1 if n == 1 else msgid2)

    def pgettext(self, context: str, message: str) -> str:
        return pseudo(message)


# -- finding and loading a catalogue ---------------------------------------------------------
def po_path(language: str) -> Path:
    return _locale_dir() / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def shipped() -> list[str]:
    """Every language a reader can choose: English, each catalogue, the pseudo-locale."""
    found = sorted(p.parent.parent.name for p in _locale_dir().glob(f"*/LC_MESSAGES/{DOMAIN}.po"))
    return [SOURCE, *found, PSEUDO]


def resolve(tag: str) -> str:
    """A BCP 47 tag ("de", "de-AT", "ja_JP", "EN-xa") as a shipped language, the nearest
    first; a language with no catalogue is a NonopressError naming the shipped ones."""
    wanted = tag.strip().replace("_", "-")
    known = {name.lower(): name for name in shipped()}
    parts = wanted.lower().split("-")
    for n in range(len(parts), 0, -1):
        hit = known.get("-".join(parts[:n]))
        if hit:
            return hit
    raise NonopressError(
        f"unknown language {tag!r}: choose one of {', '.join(shipped())} "
        "(docs/languages.md says how to add one)"
    )


def read_catalogue(path: Path) -> _gettext.GNUTranslations:
    """A ``.po`` file as a gettext catalogue (compiled in memory: no ``.mo`` to build);
    fuzzy entries are left out, as msgfmt leaves them."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with path.open("rb") as handle:
        catalogue = read_po(handle)
    compiled = io.BytesIO()
    write_mo(compiled, catalogue, use_fuzzy=False)
    compiled.seek(0)
    return _gettext.GNUTranslations(compiled)


@functools.cache
def translator(language: str = SOURCE) -> Translator:
    """The translator of a language tag (see :func:`resolve`)."""
    # English, every command's default, is always shipped: no look at the catalogues' folder
    name = SOURCE if language == SOURCE else resolve(language)
    if name == SOURCE:
        return Translator(SOURCE, _gettext.NullTranslations())
    if name == PSEUDO:
        return Translator(PSEUDO, _Pseudo())
    return Translator(name, read_catalogue(po_path(name)))


# -- the language in force ----------------------------------------------------------------------
_current: contextvars.ContextVar[Translator | None] = contextvars.ContextVar(
    "nonopress_language", default=None
)


def current() -> Translator:
    return _current.get() or translator(SOURCE)


@contextlib.contextmanager
def use(language: str | None) -> Iterator[Translator]:
    """Make ``language`` (None: English) the one :func:`_` and :func:`ngettext` speak."""
    chosen = translator(language or SOURCE)
    token = _current.set(chosen)
    try:
        yield chosen
    finally:
        _current.reset(token)


def _(message: str, /, **values: Any) -> str:
    return current().gettext(message, **values)


def ngettext(singular: str, plural: str, count: int, /, **values: Any) -> str:
    return current().ngettext(singular, plural, count, **values)


def pgettext(context: str, message: str, /, **values: Any) -> str:
    return current().pgettext(context, message, **values)


def NP_(context: str, message: str) -> str:
    """Marks a message in a context for extraction (``pybabel extract -k NP_:1c,2``)."""
    return message


#: The levels a reader sees, marked for the catalogues (layout/issue.py LEVELS and the
#: grader's own "stuck" and "undecided").
LEVEL_NAMES = frozenset({
    NP_("level", "easy"), NP_("level", "medium"), NP_("level", "hard"),
    NP_("level", "fiendish"), NP_("level", "needs-guessing"), NP_("level", "ambiguous"),
    NP_("level", "contradictory"), NP_("level", "stuck"), NP_("level", "undecided"),
})


def level_name(level: str) -> str:
    """A level's name in the reader's language (the English name is the key)."""
    return pgettext("level", level) if level in LEVEL_NAMES else level


def rung_name(rung: str) -> str:
    """A rung of the ladder as a reader reads it (English keeps the ladder's own name,
    "simple-boxes"); the catalogues take the names from grader/ladder.yaml
    (grader/i18n_extract.py)."""
    return pgettext("rung", rung)


def shown_day(text: str) -> str:
    """A date a manifest writes as a day (2026-03-12) as the reader's language writes it
    ("12. März 2026"); any other text, and every date in English, as written."""
    language = current().language
    if language in (SOURCE, PSEUDO) or not text:
        return text
    import datetime

    try:
        day = datetime.date.fromisoformat(text)
    except ValueError:
        return text
    return current().date(day)


#: Verdicts as a reader reads them (grader/results.py VERDICTS).
VERDICT_NAMES = frozenset({
    NP_("verdict", "unique"), NP_("verdict", "multiple"), NP_("verdict", "none"),
    NP_("verdict", "undecided"), NP_("verdict", "solved"),
})


def verdict_name(verdict: str) -> str:
    return pgettext("verdict", verdict) if verdict in VERDICT_NAMES else verdict


def kind_label(label: str) -> str:
    """A kind's label ("Mosaic ", with its space; "" for black and white) in the reader's
    language: each kind marks its family's name where it is registered
    (``NP_("kind", "Mosaic")`` in grader/kinds/*.py)."""
    name = label.strip()
    return pgettext("kind", name) + " " if name else label


def N_(message: str) -> str:
    """Marks a message for extraction where it is defined; translated where it is shown."""
    return message


# -- the player's catalogue ----------------------------------------------------------------------
def catalogue_json(language: str) -> dict[str, Any]:
    """A language's messages as JSON for a script (the web player): the same ``.po`` file,
    never a second set of strings. ``messages`` maps each English message (``context\\x04
    message`` with a context, the singular with plural forms) to its text or list of forms;
    ``plural`` is the catalogue's C plural expression of ``n``, for the script to evaluate."""
    name = resolve(language)
    if name in (SOURCE, PSEUDO):
        from babel.messages.pofile import read_po

        with (_locale_dir() / f"{DOMAIN}.pot").open("rb") as handle:
            template = read_po(handle)
        messages: dict[str, Any] = {}
        for message in template:
            if not message.id:
                continue
            key = _json_key(message.context, message.id)
            forms = list(message.id) if isinstance(message.id, (list, tuple)) else [message.id]
            shown = [pseudo(form) for form in forms] if name == PSEUDO else forms
            messages[key] = shown if len(forms) > 1 else shown[0]
        return {"language": name, "plural": "n != 1", "messages": messages}
    from babel.messages.pofile import read_po

    with po_path(name).open("rb") as handle:
        catalogue = read_po(handle)
    messages = {}
    for message in catalogue:
        if not message.id or message.fuzzy:
            continue
        key = _json_key(message.context, message.id)
        text = message.string
        messages[key] = list(text) if isinstance(text, (list, tuple)) else text
    return {"language": name, "plural": catalogue.plural_expr, "messages": messages}


def _json_key(context: str | None, message: str | tuple[str, ...] | list[str]) -> str:
    singular = message[0] if isinstance(message, (list, tuple)) else message
    return f"{context}\x04{singular}" if context else singular
