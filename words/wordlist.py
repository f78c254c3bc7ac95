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

import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from grader.errors import FormatError, NonopressError
from grader.inputs import read_input_bytes

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

    @property
    def letter_bits(self) -> list[tuple[int, ...]]:
        """Per word, the 26-bit mask of each of its letters (for scanning small domains)."""
        cached: list[tuple[int, ...]] | None = self.__dict__.get("_bits")
        if cached is None:
            masks = [1 << k for k in range(26)]
            cached = [tuple(masks[b - 65] for b in w.encode("ascii")) for w in self.words]
            self.__dict__["_bits"] = cached
        return cached

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

    def __init__(self, scores: Mapping[str, float], name: str = "") -> None:
        self.name = name
        self.scores: dict[str, float] = dict(scores)
        by_length: dict[int, list[str]] = {}
        for word in self.scores:
            by_length.setdefault(len(word), []).append(word)
        self._tables: dict[int, LengthTable] = {}
        for length, group in by_length.items():
            group.sort(key=lambda w: (-self.scores[w], w))
            self._tables[length] = LengthTable(
                length, tuple(group), tuple(self.scores[w] for w in group)
            )

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


def parse_word_list(text: str, source: str = "<words>",
                    min_length: int = MIN_LENGTH) -> WordList:
    """A word list from its text; a score that is not a number is an error naming the line."""
    entries: list[tuple[str, float]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        match = _SCORE_SPLIT.match(line)
        assert match is not None  # the pattern matches any line
        word, score_text = match.group(1), match.group(2)
        if ";" in word:
            raise FormatError(f"the score after ';' is not a number: {line!r}", source, number)
        score = float(score_text) if score_text is not None else DEFAULT_SCORE
        entries.append((word, score))
    words = WordList.from_scores(entries, name=source, min_length=min_length)
    if not words:
        raise FormatError("no usable words (one word a line, letters only)", source)
    return words


def load_word_list(path: str | Path, min_length: int = MIN_LENGTH) -> WordList:
    source = Path(path)
    try:
        size = source.stat().st_size
        if size > MAX_FILE_BYTES:
            raise FormatError(f"word list larger than {MAX_FILE_BYTES >> 20} MiB", str(source))
        # capped, and a FIFO only with a deadline (grader.inputs)
        text = read_input_bytes(source).decode("utf-8-sig")
    except FileNotFoundError:
        raise FormatError("word list not found", str(source)) from None
    except UnicodeDecodeError:
        raise FormatError("word list is not UTF-8 text", str(source)) from None
    except OSError as exc:
        raise FormatError(f"cannot read the word list: {exc.strerror or exc}",
                          str(source)) from None
    return parse_word_list(text, str(source), min_length)


_VOWELS = frozenset("AEIOUY")


def plausible_entry(word: str) -> bool:
    """False for the frequency list's noise that no crossword prints: one letter repeated
    (AAAAA, ZZZ) and letter strings of four or more without a vowel (HMMWV, BRRR)."""
    if len(set(word)) == 1 and len(word) > 2:
        return False
    return len(word) < 4 or not _VOWELS.isdisjoint(word)


def zipf_score(zipf: float) -> float:
    """A wordfreq Zipf frequency (0-8) as a 0-100 list score."""
    return round(max(0.0, min(100.0, zipf * 12.5)), 1)


@lru_cache(maxsize=4)
def default_word_list(min_zipf: float = DEFAULT_MIN_ZIPF, language: str = "en",
                      min_length: int = MIN_LENGTH) -> WordList:
    """The scored list from ``wordfreq`` (bundled data, works offline)."""
    try:
        import wordfreq
    except ImportError:  # pragma: no cover - a declared dependency
        raise NonopressError("the default word list needs the wordfreq package") from None
    try:
        buckets = wordfreq.get_frequency_list(language, "large")
    except (LookupError, ValueError) as exc:
        raise NonopressError(f"wordfreq has no list for {language!r}: {exc}") from None
    entries: list[tuple[str, float]] = []
    for centibels, bucket in enumerate(buckets):
        zipf = 9.0 - centibels / 100.0  # bucket i holds words of frequency 10**(-i/100)
        if zipf < min_zipf:
            break
        score = zipf_score(zipf)
        entries.extend((w, score) for w in bucket)
    words = WordList.from_scores(entries, min_length=min_length)
    return WordList({w: v for w, v in words.scores.items() if plausible_entry(w)},
                    name=f"wordfreq {language} (Zipf >= {min_zipf:g})")
