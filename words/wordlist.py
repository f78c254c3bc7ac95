"""Word lists: normalised entries with scores, grouped by length, with bit-set indexes.

A word list file is plain UTF-8 text, one entry a line, optionally followed by a score
(``word;50``, ``word 50`` or ``word<TAB>50``; 0-100, higher is better; no score means
:data:`DEFAULT_SCORE`). Lines starting with ``#`` are comments. Entries are normalised
the way crossword lists are: accents dropped, case folded to A-Z, spaces, hyphens and
apostrophes removed; anything else with a character outside A-Z is left out.

The default list is English from the ``wordfreq`` package (its data ships inside the
wheel, so nothing is downloaded): the score of a word is its Zipf frequency scaled to
0-100 (Zipf 8, the most frequent, is 100); noise such as ``AAAAA`` is left out.
"""

from __future__ import annotations

import gzip
import hashlib
import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path

from grader.errors import FormatError, NonopressError
from grader.inputs import read_input_bytes
from words.blocklist import Blocklist, default_blocklist

DEFAULT_SCORE = 50.0
MIN_LENGTH = 2
MAX_LENGTH = 64
#: The default list keeps words at least this frequent (Zipf scale; 3 is once in a
#: million words). Measured on the benchmark grids (bench/bench_fill.py): lower fills more
#: grids with rarer words, higher gives cleaner fills but leaves long slots without words.
DEFAULT_MIN_ZIPF = 1.5
HEAD_BITS = 512
MAX_FILE_BYTES = 64 * 1024 * 1024

_SPECIAL = {"ß": "SS", "Æ": "AE", "æ": "AE", "Œ": "OE", "œ": "OE", "Ø": "O", "ø": "O",
            "Ł": "L", "ł": "L", "Đ": "D", "đ": "D", "Þ": "TH", "þ": "TH", "ı": "I"}
_DROPPED = re.compile(r"[\s'’\-.]")
_ONLY_LETTERS = re.compile(r"[A-Z]+")
_SCORE_SPLIT = re.compile(r"^(.*?)(?:[;\t ]+([-+]?\d+(?:\.\d*)?))?$")


def normalise(word: str) -> str | None:
    """``word`` as grid letters (``Café au lait`` -> ``CAFEAULAIT``), or None when it
    holds anything that is not a letter once spaces, hyphens and apostrophes are gone."""
    text = "".join(_SPECIAL.get(ch, ch) for ch in word)
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = _DROPPED.sub("", text).upper()
    return text if _ONLY_LETTERS.fullmatch(text) else None


@dataclass
class LengthTable:
    """The words of one length, best score first, and their letter indexes as bit sets.

    Bit ``i`` of a domain stands for ``words[i]``; ``index[p][c]`` has bit ``i`` set when
    letter ``c`` (0 = A) is at position ``p`` of word ``i``. Lower bits are better words, so
    a search that tries the lowest set bit first tries words in score order.
    """

    length: int
    words: tuple[str, ...]
    scores: tuple[float, ...]
    _index: list[list[int]] | None = field(default=None, repr=False)
    _head: list[list[int]] | None = field(default=None, repr=False)

    @property
    def full(self) -> int:
        return (1 << len(self.words)) - 1

    @property
    def index(self) -> list[list[int]]:
        if self._index is None:
            self._index = _build_index(self.words, self.length)
        return self._index

    @property
    def head(self) -> list[list[int]]:
        """``index`` cut to the first :data:`HEAD_BITS` words: a cheap first test of
        whether a domain still has a word with a letter (good words are low bits)."""
        if self._head is None:
            cut = (1 << HEAD_BITS) - 1
            self._head = [[bits & cut for bits in row] for row in self.index]
        return self._head

    def count_at_least(self, score: float) -> int:
        """How many words score at least ``score`` (they are the first ones)."""
        low, high = 0, len(self.scores)
        while low < high:
            mid = (low + high) // 2
            if self.scores[mid] >= score:
                low = mid + 1
            else:
                high = mid
        return low

    def position(self, word: str) -> int | None:
        return self._positions.get(word)

    @property
    def _positions(self) -> dict[str, int]:
        cached: dict[str, int] | None = self.__dict__.get("_pos")
        if cached is None:
            cached = {w: i for i, w in enumerate(self.words)}
            self.__dict__["_pos"] = cached
        return cached


def _build_index(words: tuple[str, ...], length: int) -> list[list[int]]:
    import numpy as np  # here, not at the top: the CLI's help imports this module

    if not words:
        return [[0] * 26 for _ in range(length)]
    codes = np.frombuffer("".join(words).encode("ascii"), dtype=np.uint8).reshape(-1, length)
    codes = codes - ord("A")
    index: list[list[int]] = []
    for p in range(length):
        column = codes[:, p]
        row: list[int] = []
        for c in range(26):
            bits = np.packbits(column == c, bitorder="little")
            row.append(int.from_bytes(bits.tobytes(), "little"))
        index.append(row)
    return index


class WordList:
    """Normalised words with scores, by length. Build with :func:`load_word_list`,
    :func:`default_word_list` or :meth:`from_scores`."""

    def __init__(self, scores: Mapping[str, float], name: str = "",
                 ordered: bool = False) -> None:
        """``ordered``: ``scores`` already runs by length, best score first (as
        :meth:`ordered_items` gives it), so the sort is skipped (a cached list loads so)."""
        self.name = name
        self.scores: dict[str, float] = dict(scores)
        by_length: dict[int, list[str]] = {}
        for word in self.scores:
            group = by_length.get(len(word))
            if group is None:
                by_length[len(word)] = [word]
            else:
                group.append(word)
        self._tables: dict[int, LengthTable] = {}
        get = self.scores.__getitem__
        for length, group in sorted(by_length.items()):
            if not ordered:  # alphabetical, then best score first (the sort is stable)
                group.sort()
                group.sort(key=get, reverse=True)
            self._tables[length] = LengthTable(length, tuple(group), tuple(map(get, group)))

    def ordered_items(self) -> Iterator[tuple[str, float]]:
        """(word, score) by length, best score first: the order of the bit sets."""
        for length in sorted(self._tables):
            table = self._tables[length]
            yield from zip(table.words, table.scores, strict=True)

    @classmethod
    def from_scores(
        cls, entries: Iterable[tuple[str, float]] | Iterable[str], name: str = "",
        min_length: int = MIN_LENGTH,
    ) -> WordList:
        """From words (or (word, score) pairs); normalises, drops what is not a word and
        keeps the best score of words that normalise alike."""
        scores: dict[str, float] = {}
        for item in entries:
            word, score = (item, DEFAULT_SCORE) if isinstance(item, str) else item
            norm = normalise(word)
            if norm is None or not min_length <= len(norm) <= MAX_LENGTH:
                continue
            if score > scores.get(norm, -1.0):
                scores[norm] = float(score)
        return cls(scores, name)

    def table(self, length: int) -> LengthTable:
        table = self._tables.get(length)
        if table is None:
            table = LengthTable(length, (), ())
            self._tables[length] = table
        return table

    def __contains__(self, word: object) -> bool:
        return word in self.scores

    def __len__(self) -> int:
        return len(self.scores)

    def __iter__(self) -> Iterator[str]:
        return iter(self.scores)

    def score(self, word: str) -> float:
        return self.scores[word]

    def counts(self) -> dict[int, int]:
        return {n: len(t.words) for n, t in sorted(self._tables.items()) if t.words}

    def with_words(self, extra: Iterable[str], score: float = DEFAULT_SCORE) -> WordList:
        """This list plus ``extra`` (theme entries that are not in it); self if none is new."""
        new = {w: score for w in extra if w not in self.scores}
        if not new:
            return self
        return WordList({**self.scores, **new}, self.name)

    def better_than(self, score: float) -> WordList:
        """Only the words scoring more than ``score``."""
        return WordList({w: v for w, v in self.ordered_items() if v > score}, self.name,
                        ordered=True)

    def without(self, drop: Iterable[str], name: str | None = None) -> WordList:
        """This list less ``drop`` (``--avoid``); self if none of them is in it."""
        gone = {w for w in drop if w in self.scores}
        if not gone:
            return self
        return WordList({w: v for w, v in self.ordered_items() if w not in gone},
                        self.name if name is None else name, ordered=True)


@dataclass(frozen=True)
class ListOptions:
    """What a list keeps of its source. ``names``: capitalised entries (proper nouns) too;
    ``min_score``: only words scoring at least this; ``blocklist``: words never used (the
    built-in one when None)."""

    min_length: int = MIN_LENGTH
    names: bool = False
    min_score: float = 0.0
    blocklist: Blocklist | None = None

    def blocked(self) -> Blocklist:
        return default_blocklist() if self.blocklist is None else self.blocklist

    def key(self) -> str:
        """Everything that changes the list, for the cache key."""
        return (f"min_length={self.min_length} names={self.names} "
                f"min_score={self.min_score!r} block={self.blocked().digest()}")


def _split_entry(line: str, source: str, number: int) -> tuple[str, float]:
    """``word``, ``word;50``, ``word 50`` or ``word<TAB>50`` as (word, score)."""
    if line.isalpha():
        return line, DEFAULT_SCORE
    match = _SCORE_SPLIT.match(line)
    assert match is not None  # the pattern matches any line
    word, score_text = match.group(1), match.group(2)
    if ";" in word:
        raise FormatError(f"the score after ';' is not a number: {line!r}", source, number)
    return word, float(score_text) if score_text is not None else DEFAULT_SCORE


_POSSESSIVE = frozenset({"'s", "\u2019s", "'S", "\u2019S"})


def parse_word_list(text: str, source: str = "<words>",
                    min_length: int = MIN_LENGTH,
                    options: ListOptions | None = None) -> WordList:
    """A word list from its text; a score that is not a number is an error naming the line.

    In a dictionary-style list (most entries in lower case, as ``/usr/share/dict/words``),
    capitalised entries are proper nouns or abbreviations and are left out unless
    ``options.names``; a list written all in capitals (crossword style) keeps every entry.
    Possessives (``word's``) and blocklisted words are always left out.
    """
    options = options or ListOptions(min_length=min_length)
    entries: list[tuple[str, float]] = []
    lower = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line[0] == "#":
            continue
        word, score = (line, DEFAULT_SCORE) if line.isalpha() else \
            _split_entry(line, source, number)
        if word[-2:] not in _POSSESSIVE:
            entries.append((word, score))
            lower += word[0].islower()
    drop_names = lower * 2 > len(entries) and not options.names
    scores: dict[str, float] = {}
    blocked = options.blocked()
    low, high, min_score = options.min_length, MAX_LENGTH, options.min_score
    for word, score in entries:
        if drop_names and not word[0].islower():
            continue  # a proper noun or an abbreviation of a dictionary-style list
        norm = word.upper() if word.isascii() and word.isalpha() else normalise(word)
        if norm is None or not low <= len(norm) <= high or score < min_score:
            continue
        if score > scores.get(norm, -1.0):
            scores[norm] = score
    for word in blocked.among(scores):
        del scores[word]
    words = WordList(scores, name=source)
    if not words:
        raise FormatError("no usable words (one word a line, letters only)", source)
    return words


def load_word_list(path: str | Path, min_length: int = MIN_LENGTH,
                   options: ListOptions | None = None) -> WordList:
    """A word list file, from the cache when this content was loaded before with the same
    options (a large list takes seconds to parse, a cached one a fraction of that)."""
    from words.listcache import cached

    options = options or ListOptions(min_length=min_length)
    source = Path(path)
    try:
        size = source.stat().st_size
        if size > MAX_FILE_BYTES:
            raise FormatError(f"word list larger than {MAX_FILE_BYTES >> 20} MiB", str(source))
        # capped, and a FIFO only with a deadline (grader.inputs)
        data = read_input_bytes(source)
    except FileNotFoundError:
        raise FormatError("word list not found", str(source)) from None
    except OSError as exc:
        raise FormatError(f"cannot read the word list: {exc.strerror or exc}",
                          str(source)) from None

    def build() -> WordList:
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise FormatError("word list is not UTF-8 text", str(source)) from None
        return parse_word_list(text, str(source), options=options)

    return cached("file", [hashlib.sha256(data).hexdigest(), options.key()], str(source),
                  build)


_VOWELS = frozenset("AEIOUY")


def plausible_entry(word: str) -> bool:
    """False for noise that no crossword prints: one letter repeated (AAAAA, ZZZ) and
    letter strings of four or more without a vowel (HMMWV, BRRR)."""
    if len(set(word)) == 1 and len(word) > 2:
        return False
    return len(word) < 4 or not _VOWELS.isdisjoint(word)


def zipf_score(zipf: float) -> float:
    """A wordfreq Zipf frequency (0-8) as a 0-100 list score."""
    return round(max(0.0, min(100.0, zipf * 12.5)), 1)


#: The shipped lists (built by bench/build_wordlist.py from SCOWL; words/data/README.md).
DEFAULT_WORDS = "english.txt.gz"
DEFAULT_NAMES = "names.txt.gz"
#: Share of the SCOWL level score in a default word's score; the rest is wordfreq's.
LEVEL_WEIGHT = 0.5


def _package_data(name: str) -> bytes:
    return resources.files("words").joinpath("data", name).read_bytes()


def default_word_list(min_length: int = MIN_LENGTH,
                      options: ListOptions | None = None) -> WordList:
    """The default list: SCOWL's words of size levels 10-50 (a standard dictionary's),
    no proper nouns (unless ``options.names``), no abbreviations, no possessives, no
    blocklisted word. A word's score blends its SCOWL level score with its wordfreq
    frequency (``LEVEL_WEIGHT``); built once, then loaded from the cache."""
    return _default(options or ListOptions(min_length=min_length))


@lru_cache(maxsize=4)
def _default(options: ListOptions) -> WordList:
    from words.listcache import cached

    files = [DEFAULT_WORDS] + ([DEFAULT_NAMES] if options.names else [])
    blobs = [_package_data(name) for name in files]
    name = "SCOWL English (levels 10-50" + (", with names)" if options.names else ")")
    key = [hashlib.sha256(b).hexdigest() for b in blobs] + [options.key(), _wordfreq_version()]
    return cached("default", key, name, lambda: _build_default(blobs, options, name))


def _wordfreq_version() -> str:
    """wordfreq's installed version (part of the default list's cache key), read from the
    name of its ``.dist-info`` folder: ``importlib.metadata.version`` scans every installed
    distribution and took 35 ms of every run."""
    import importlib.util
    import os

    try:
        spec = importlib.util.find_spec("wordfreq")
        if spec is not None and spec.origin:
            site = Path(spec.origin).parent.parent
            found = sorted(entry.name for entry in os.scandir(site)
                           if entry.name.startswith("wordfreq-")
                           and entry.name.endswith(".dist-info"))
            if found:
                return found[-1].removesuffix(".dist-info").replace("-", " ", 1)
        from importlib.metadata import version

        return f"wordfreq {version('wordfreq')}"
    except Exception:  # a missing distribution only changes the key
        return "wordfreq ?"


def _build_default(blobs: list[bytes], options: ListOptions, name: str) -> WordList:
    levels: dict[str, float] = {}
    for blob in blobs:
        text = gzip.decompress(blob).decode("utf-8")
        parsed = parse_word_list(text, name, options=ListOptions(
            min_length=options.min_length, names=True, blocklist=options.blocked()))
        for word, score in parsed.scores.items():
            levels.setdefault(word, score)
    frequency = _wordfreq_zipf(set(levels))
    scores: dict[str, float] = {}
    for word, level in levels.items():
        score = round(LEVEL_WEIGHT * level
                      + (1 - LEVEL_WEIGHT) * zipf_score(frequency.get(word, 0.0)), 1)
        if score >= options.min_score and plausible_entry(word):
            scores[word] = score
    return WordList(scores, name)


def _wordfreq_zipf(wanted: set[str]) -> dict[str, float]:
    """Zipf frequency of each wanted word (upper case) from wordfreq's bundled English."""
    try:
        import wordfreq
    except ImportError:  # pragma: no cover - a declared dependency
        raise NonopressError("the default word list needs the wordfreq package") from None
    found: dict[str, float] = {}
    for centibels, bucket in enumerate(wordfreq.get_frequency_list("en", "large")):
        zipf = 9.0 - centibels / 100.0  # bucket i holds words of frequency 10**(-i/100)
        for token in bucket:
            word = token.upper() if token.isascii() and token.isalpha() else normalise(token)
            if word in wanted and word not in found:
                found[word] = zipf
    return found
