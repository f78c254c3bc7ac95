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
    """Blocked base words; ``word in blocklist`` also catches their inflections (one set
    lookup: the forms are spelled out when the list is made)."""

    def __init__(self, words: Iterable[str] = (), name: str = "",
                 allowed: Iterable[str] = ()) -> None:
        self.name = name
        self.words: frozenset[str] = frozenset(words)
        #: innocent words that only look like an inflection of a blocked one (SPICY)
        self.allowed: frozenset[str] = frozenset(allowed)
        self.forms: frozenset[str] = frozenset(
            form for word in self.words for form in inflections(word)
            if form not in self.allowed or form in self.words)

    def __contains__(self, word: object) -> bool:
        return word in self.forms

    def __len__(self) -> int:
        return len(self.words)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Blocklist) and self.forms == other.forms

    def __hash__(self) -> int:
        return hash(self.forms)

    def __or__(self, other: Blocklist) -> Blocklist:
        names = " + ".join(n for n in (self.name, other.name) if n)
        return Blocklist(self.words | other.words, names, self.allowed | other.allowed)

    def digest(self) -> str:
        """A short fingerprint of the words (for cache keys)."""
        text = "\n".join(sorted(self.forms)).encode("utf-8")
        return hashlib.sha256(text).hexdigest()[:16]


def parse_blocklist(text: str, source: str = "<blocklist>") -> Blocklist:
    from words.wordlist import normalise

    words: list[str] = []
    allowed: list[str] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        word = normalise(line[1:] if line.startswith("!") else line)
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
