"""Arguments and helpers shared by ``nonopress fill`` and ``nonopress fillin``."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from grader.errors import NonopressError
from words.wordlist import DEFAULT_MIN_ZIPF, MIN_LENGTH

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
        "English from wordfreq",
    )
    parser.add_argument(
        "--min-zipf", type=float, default=DEFAULT_MIN_ZIPF, metavar="Z",
        help=f"with the default list: keep words of Zipf frequency at least Z "
        f"(default {DEFAULT_MIN_ZIPF:g}; 3 is once in a million words)",
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
    from words.wordlist import default_word_list, load_word_list

    if not 1 <= args.min_length <= 64:
        raise NonopressError("--min-length must be between 1 and 64")
    if args.words:
        return load_word_list(args.words, min_length=args.min_length)
    if not 0 <= args.min_zipf <= 8:
        raise NonopressError("--min-zipf must be between 0 and 8")
    return default_word_list(args.min_zipf, min_length=args.min_length)


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
