"""Words a fill must not use: the maintained blocklist shipped with the package
(``words/data/blocklist.txt``) and an editor's own (``--block FILE``).

A blocklist file is one word a line (``#`` starts a comment), normalised like a word list.
A line ``!word`` says the word is innocent although it looks like an inflection of a
blocked one (``!spicy``). A listed word also blocks its inflections, so that one line
keeps ``SHIT``, ``SHITS`` and ``SHITTY`` out: -S, -ES, -ED, -D, -ING, -ER, -ERS, -Y
(also after a doubled last letter or a dropped final E) and -IER, -IEST, -IES, -IED for
a word ending in Y.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from functools import lru_cache
from importlib import resources
from pathlib import Path

from grader.errors import FormatError
from grader.inputs import read_input_bytes

_SUFFIXES = ("S", "ES", "ED", "D", "ING", "ER", "ERS", "Y")
_DOUBLED = ("ED", "ING", "ER", "ERS", "Y", "IER", "IEST")
_AFTER_E = ("ING", "ER", "ERS", "Y")  # URINATE -> URINATING
_AFTER_Y = ("IER", "IEST", "IES", "IED")  # SHITTY -> SHITTIER
#: a list up to this many words has its forms spelled out (about 30 strings a word)
SPELL_OUT_LIMIT = 50_000
#: every ending an inflection can add, longest first (built once: bases() runs per word of a
#: list of a million)
_ENDINGS = tuple(sorted(set(_SUFFIXES) | set(_DOUBLED) | set(_AFTER_E) | set(_AFTER_Y),
                        key=len, reverse=True))


def inflections(word: str) -> set[str]:
    """``word`` and the forms a blocklist line also blocks."""
    forms = {word} | {word + s for s in _SUFFIXES}
    forms |= {word + word[-1] + s for s in _DOUBLED}
    if word.endswith("E"):
        forms |= {word[:-1] + s for s in _AFTER_E}
    if word.endswith("Y"):
        forms |= {word[:-1] + s for s in _AFTER_Y}
    return forms


class Blocklist:
    """Blocked base words; ``word in blocklist`` also catches their inflections. The forms
    are not spelled out: a word is taken back to the bases it could be an inflection of
    (a dozen set lookups), so a list of a million words stays a million strings."""

    def __init__(self, words: Iterable[str] = (), name: str = "",
                 allowed: Iterable[str] = ()) -> None:
        self.name = name
        self.words: frozenset[str] = frozenset(words)
        #: innocent words that only look like an inflection of a blocked one (SPICY)
        self.allowed: frozenset[str] = frozenset(allowed)
        self._spelled: frozenset[str] | None = None

    def _spelled_out(self) -> frozenset[str] | None:
        """Every form of a small list spelled out once (a set lookup per word then costs
        what a plain set's does: a word list of a million is checked in a fraction of a
        second, where taking each word back to its bases takes seconds)."""
        if self._spelled is None and len(self.words) <= SPELL_OUT_LIMIT:
            self._spelled = frozenset(form for word in self.words
                                      for form in inflections(word))
        return self._spelled

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        if word in self.words:
            return True
        if word in self.allowed:
            return False
        spelled = self._spelled_out()
        if spelled is not None:
            return word in spelled
        return any(base in self.words and word in inflections(base)
                   for base in bases(word))

    def among(self, words: Iterable[str]) -> set[str]:
        """The blocked ones of ``words`` (set operations for a small list: what a word list
        of a million entries asks once, instead of once a word)."""
        spelled = self._spelled_out()
        if spelled is None:
            return {word for word in words if word in self}
        candidates = set(words)
        return (candidates & self.words) | ((candidates & spelled) - self.allowed)

    def __len__(self) -> int:
        return len(self.words)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Blocklist) and self.words == other.words \
            and self.allowed - self.words == other.allowed - other.words

    def __hash__(self) -> int:
        return hash(self.words)

    def __or__(self, other: Blocklist) -> Blocklist:
        names = " + ".join(n for n in (self.name, other.name) if n)
        return Blocklist(self.words | other.words, names, self.allowed | other.allowed)

    @property
    def forms(self) -> frozenset[str]:
        """Every blocked form spelled out (for a small list: the built-in one's tests)."""
        return frozenset(form for word in self.words for form in inflections(word)
                         if form in self)

    def digest(self) -> str:
        """A short fingerprint of the words (for cache keys)."""
        text = "\n".join(sorted(self.words)) + "\n!" + "\n".join(
            sorted(self.allowed - self.words))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def bases(word: str) -> set[str]:
    """The base words ``word`` could be an inflection of (by :func:`inflections`)."""
    found: set[str] = set()
    for suffix in _ENDINGS:
        if len(word) > len(suffix) and word.endswith(suffix):
            stem = word[: -len(suffix)]
            found.add(stem)  # WORD + S
            if len(stem) > 1 and stem[-1] == stem[-2]:
                found.add(stem[:-1])  # a doubled last letter
            found.add(stem + "E")  # a dropped final E
            found.add(stem + "Y")  # Y -> IER, IES, ...
    return found


def parse_blocklist(text: str, source: str = "<blocklist>") -> Blocklist:
    from words.wordlist import normalise

    words: list[str] = []
    allowed: list[str] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        text = line[1:] if line.startswith("!") else line
        # plain ASCII letters (nearly every line) need no normalising: a million-line
        # list is read in a second
        word = text.upper() if text.isascii() and text.isalpha() else normalise(text)
        if word is None:
            raise FormatError(f"not a word of letters: {line!r}", source, number)
        (allowed if line.startswith("!") else words).append(word)
    return Blocklist(words, source, allowed)


def load_blocklist(path: str | Path) -> Blocklist:
    """An editor's blocklist file (capped read, one error line naming the file)."""
    source = Path(path)
    try:
        text = read_input_bytes(source).decode("utf-8-sig")
    except FileNotFoundError:
        raise FormatError("blocklist not found", str(source)) from None
    except UnicodeDecodeError:
        raise FormatError("blocklist is not UTF-8 text", str(source)) from None
    except OSError as exc:
        raise FormatError(f"cannot read the blocklist: {exc.strerror or exc}",
                          str(source)) from None
    return parse_blocklist(text, str(source))


@lru_cache(maxsize=1)
def default_blocklist() -> Blocklist:
    """The blocklist shipped with the package."""
    text = resources.files("words").joinpath("data", "blocklist.txt").read_text("utf-8")
    return parse_blocklist(text, "the built-in blocklist")
