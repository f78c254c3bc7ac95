"""Arguments and helpers shared by the words commands (``nonopress fill`` and its kin)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from grader.errors import NonopressError
from words.wordlist import MIN_LENGTH

if TYPE_CHECKING:
    from grader.results import Budget
    from words.wordlist import WordList

FORMATS = ("text", "ipuz", "puz")


def positive_float(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0, got {text}")
    return value


def add_fill_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--words", metavar="FILE",
        help="word list: one word a line, optionally 'word;score' (score 0-100); default: "
        "the built-in English list (SCOWL dictionary words scored by commonness)",
    )
    parser.add_argument(
        "--names", action="store_true",
        help="allow proper nouns: the built-in names list, or the capitalised entries of a "
        "dictionary-style --words file (left out by default)",
    )
    parser.add_argument(
        "--block", action="append", default=[], metavar="FILE",
        help="never use the words of FILE (one a line; inflections too), on top of the "
        "built-in blocklist of offensive words (repeatable)",
    )
    parser.add_argument(
        "--avoid", action="append", default=[], metavar="WORD",
        help="refill without this entry (repeatable; --avoid OREO --avoid ESNE)",
    )
    parser.add_argument(
        "--min-score", type=float, default=0.0, metavar="S",
        help="keep only words scoring at least S (0-100) in the list (theme locks are kept)",
    )
    parser.add_argument("--min-length", type=int, default=MIN_LENGTH, metavar="N",
                        help=f"leave out words shorter than N letters (default {MIN_LENGTH})")
    parser.add_argument("--seed", type=int, default=0, metavar="N",
                        help="seed of the randomised restarts (same seed, same fill)")
    parser.add_argument("--timeout", type=positive_float, default=10.0, metavar="S",
                        help="seconds before giving up (default 10)")
    parser.add_argument(
        "--quality", action="store_true",
        help="try a fill from common words (score 37.5 and up) first: cleaner fills, up to "
        "twice the time",
    )
    parser.add_argument(
        "--lock", action="append", default=[], metavar="SLOT=WORD",
        help="a theme entry, e.g. --lock 1A=NONOGRAM (repeatable); used even when the "
        "list lacks it",
    )


def word_list_from(args: argparse.Namespace) -> WordList:
    """The list the options ask for, less the ``--avoid`` words."""
    from words.blocklist import default_blocklist, load_blocklist
    from words.wordlist import ListOptions, default_word_list, load_word_list, normalise

    if not 1 <= args.min_length <= 64:
        raise NonopressError("--min-length must be between 1 and 64")
    if not 0 <= args.min_score <= 100:
        raise NonopressError("--min-score must be between 0 and 100")
    blocked = default_blocklist()
    for path in args.block:
        blocked = blocked | load_blocklist(path)
    options = ListOptions(min_length=args.min_length, names=args.names,
                          min_score=args.min_score, blocklist=blocked)
    if args.words:
        words = load_word_list(args.words, options=options)
    else:
        words = default_word_list(options=options)
    avoid: list[str] = []
    for raw in args.avoid:
        word = normalise(raw)
        if word is None:
            raise NonopressError(f"--avoid {raw!r}: not a word of letters")
        avoid.append(word)
    return words.without(avoid, f"{words.name} less {', '.join(avoid)}") if avoid else words


def locks_from(args: argparse.Namespace) -> dict[str, str]:
    """``--lock`` items as ``{slot name: word}``; two locks on one slot are an error naming
    both (the later one silently winning would drop a theme entry)."""
    locks: dict[str, str] = {}
    seen: dict[str, str] = {}  # slot name as typed, upper-cased without spaces -> item
    for item in args.lock:
        name, sep, word = item.partition("=")
        if not sep or not name.strip() or not word.strip():
            raise NonopressError(f"--lock {item!r}: expected SLOT=WORD, e.g. 1A=NONOGRAM")
        key = name.strip().upper().replace(" ", "")
        if key in seen and seen[key].partition("=")[2].strip() != word.strip():
            raise NonopressError(f"--lock {seen[key]} and --lock {item}: two words for one "
                                 "slot; keep one")
        seen[key] = item
        locks[name.strip()] = word.strip()
    return locks


def budget_from(args: argparse.Namespace) -> Budget:
    from grader.results import Budget

    return Budget(seconds=args.timeout)


def add_output_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-o", "--output", metavar="FILE",
                        help="write the grid here (.txt, .ipuz or .puz by suffix)")
    parser.add_argument("--format", choices=FORMATS,
                        help="format of --output (default: by its suffix)")


def output_format(args: argparse.Namespace) -> str:
    from words.formats import format_of

    if args.format:
        return str(args.format)
    return format_of(args.output)


def check_output_folder(path: str | None) -> None:
    if path and not Path(path).resolve().parent.is_dir():
        raise NonopressError(f"{path}: the folder {Path(path).parent} does not exist")
