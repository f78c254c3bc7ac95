"""Build the default crossword word lists shipped in ``words/data/`` from SCOWL.

    apt-get install scowl          # Debian/Ubuntu: SCOWL's lists in /usr/share/dict/scowl
    python bench/build_wordlist.py [--scowl /usr/share/dict/scowl] [--max-level 50]

Writes ``words/data/english.txt.gz`` (common words) and ``words/data/names.txt.gz`` (proper
names, used with ``--names``), one ``word;score`` a line, best first. What goes in:

* SCOWL's ``english``, ``american`` and ``british`` *words* lists of size levels 10 to
  ``--max-level`` (50 is the size of Debian's ``wamerican``/``wbritish``: the words a
  standard dictionary holds); the abbreviation, contraction, proper-name and "upper" lists
  are left out, as are entries with a capital letter, possessives (``'s``), letter plurals
  and interjections without a vowel (``cs``, ``hmm``) and every word of the blocklist
  (``words/data/blocklist.txt``) with its inflections;
* a word's score is its smallest SCOWL size level as a commonness score, level 10 (the most
  common) 95 down to level 50 at 60 (:data:`LEVEL_SCORES`); :func:`words.wordlist.default_word_list`
  blends it with wordfreq's frequency when it loads the list;
* the names list: SCOWL's ``proper-names`` and ``upper`` lists of the same levels
  (capitalised, no all-capital abbreviations), scored 10 below a word of their level.

SCOWL is Copyright 2000-2011 Kevin Atkinson and others, under a permissive licence that
asks for its notice in copies: ``words/data/LICENSE`` holds it.
"""

from __future__ import annotations

import argparse
import gzip
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from words.blocklist import Blocklist, default_blocklist  # noqa: E402
from words.wordlist import normalise  # noqa: E402

LEVELS = (10, 20, 35, 40, 50, 55, 60, 70, 80, 95)
#: SCOWL size level -> score (0-100): a level-10 word is among the ~4,000 most common.
LEVEL_SCORES = {10: 95.0, 20: 85.0, 35: 75.0, 40: 70.0, 50: 60.0, 55: 50.0, 60: 45.0,
                70: 35.0, 80: 25.0, 95: 15.0}
NAME_PENALTY = 10.0
WORD_LISTS = ("english-words", "american-words", "british-words")
NAME_LISTS = ("english-proper-names", "american-proper-names", "british-proper-names",
              "english-upper", "american-upper", "british-upper")
_VOWEL = re.compile(r"[aeiouyAEIOUY]")


def read_level(folder: Path, stem: str, level: int) -> list[str]:
    path = folder / f"{stem}.{level}"
    if not path.exists():
        return []
    return path.read_text(encoding="utf-8").splitlines()


def usable(raw: str, names: bool) -> bool:
    """Whether a SCOWL entry belongs in a list: no possessive, no vowel-less letter run;
    lower case for words, capitalised (not all capitals) for names."""
    if "'" in raw or not _VOWEL.search(raw):
        return False
    if names:
        return raw[:1].isupper() and not raw.isupper() and raw[1:] == raw[1:].lower()
    return raw == raw.lower()


def build(folder: Path, max_level: int, stems: tuple[str, ...], names: bool,
          blocked: Blocklist) -> dict[str, float]:
    scores: dict[str, float] = {}
    for level in (lv for lv in LEVELS if lv <= max_level):
        for stem in stems:
            for raw in read_level(folder, stem, level):
                raw = raw.strip()
                if not raw or not usable(raw, names):
                    continue
                word = normalise(raw)
                if word is None or len(word) < 2 or word in blocked:
                    continue
                score = LEVEL_SCORES[level] - (NAME_PENALTY if names else 0.0)
                if score > scores.get(word, -1.0):
                    scores[word] = score
    return scores


def write(path: Path, scores: dict[str, float], header: str) -> None:
    lines = [f"# {line}" for line in header.splitlines()]
    lines += [f"{w};{s:g}" for w, s in sorted(scores.items(), key=lambda ws: (-ws[1], ws[0]))]
    data = ("\n".join(lines) + "\n").encode("utf-8")
    # mtime=0: the same input gives the same bytes (a reproducible wheel)
    path.write_bytes(gzip.compress(data, compresslevel=9, mtime=0))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scowl", default="/usr/share/dict/scowl",
                        help="folder of SCOWL's final lists (Debian package scowl)")
    parser.add_argument("--max-level", type=int, default=50, choices=LEVELS)
    parser.add_argument("--out", default=str(ROOT / "words" / "data"))
    args = parser.parse_args()
    folder, out = Path(args.scowl), Path(args.out)
    if not (folder / "english-words.10").exists():
        print(f"{folder}: no SCOWL lists (apt-get install scowl)", file=sys.stderr)
        return 2
    blocked = default_blocklist()
    header = (f"Built by bench/build_wordlist.py --max-level {args.max_level} from SCOWL "
              "(Kevin Atkinson; licence: LICENSE beside this file).\n"
              "word;score - score from the SCOWL size level (10 most common -> 95).")
    words = build(folder, args.max_level, WORD_LISTS, False, blocked)
    names = {w: s for w, s in build(folder, args.max_level, NAME_LISTS, True, blocked).items()
             if w not in words}
    write(out / "english.txt.gz", words, header)
    write(out / "names.txt.gz", names, header.replace("word;score", "name;score"))
    print(f"{len(words)} words, {len(names)} names -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
